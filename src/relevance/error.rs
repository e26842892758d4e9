//! The error type of the graded-relevance module.

use core::fmt;
use thiserror::Error;

/// Where a bad judgement or score came from: a line of a CSV file, or the
/// position of a record handed to the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Location {
    /// 1-based line of a CSV file (the line where the record starts).
    Line(usize),
    /// 1-based number of a record added through the API.
    Record(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Line(n) => write!(f, "line {n}"),
            Self::Record(n) => write!(f, "record {n}"),
        }
    }
}

module_error! {
    /// Everything that can go wrong when reading relevance judgements, scoring a
    /// model's ranking against them, or computing rank-biased overlap.
    ///
    /// Every variant says what was wrong and where (line or record, index,
    /// column). Messages are lowercase without a trailing period. New variants may
    /// be added in minor releases.
    #[derive(Debug, Clone, PartialEq, Eq, Error)]
    #[non_exhaustive]
    pub enum RelevanceError {
        shared {
            /// A model score is NaN.
            NaN,
            /// A model score or grade is infinite.
            Infinite,
            /// Two inputs that must pair up item by item have different lengths.
            LengthMismatch,
            /// A parameter is outside its domain.
            InvalidParameter,
            /// More items than the flat layout indexes (ids and entries are 32-bit).
            TooLarge,
        }
        /// A grade lies outside the declared scale.
        #[error("{at}: grade {grade} is off the scale {min}..={max}")]
        GradeOffScale {
            /// Where the judgement came from.
            at: Location,
            /// The grade given.
            grade: i64,
            /// Smallest grade of the scale.
            min: i32,
            /// Largest grade of the scale.
            max: i32,
        },
        /// The same annotator judged the same (query, document) pair twice.
        #[error("{at}: annotator {annotator:?} already judged ({query:?}, {document:?}) at {first}")]
        DuplicateJudgement {
            /// Where the repeated judgement came from.
            at: Location,
            /// Where the first judgement came from.
            first: Location,
            /// The query.
            query: String,
            /// The document.
            document: String,
            /// The annotator.
            annotator: String,
        },
        /// A required field is absent or empty.
        #[error("{at}: missing field {column:?}")]
        MissingField {
            /// Where the record came from.
            at: Location,
            /// Name of the missing column.
            column: String,
        },
        /// A field could not be parsed as the number it must be.
        #[error("{at}: field {column:?} is not {expected}: {value:?}")]
        BadNumber {
            /// Where the record came from.
            at: Location,
            /// Name of the column.
            column: String,
            /// What the field should hold ("an integer grade", "a finite score").
            expected: &'static str,
            /// The text found (cut to 40 characters).
            value: String,
        },
        /// A header line lacks a column the caller asked for.
        #[error("header lacks column {column:?}")]
        MissingColumn {
            /// The column name asked for.
            column: String,
        },
        /// A header names the same column twice.
        #[error("header names column {column:?} twice")]
        DuplicateColumn {
            /// The repeated column name.
            column: String,
        },
        /// The input has no header line.
        #[error("the input is empty: no header line")]
        NoHeader,
        /// A quoted field is still open at the end of the input (the CSV
        /// readers otherwise read quotes as the `csv` crate does; see
        /// [`read_judgements`](super::read_judgements)).
        #[error("line {line}: malformed quoted field in column {field}")]
        MalformedQuote {
            /// 1-based line where the record starts.
            line: usize,
            /// 1-based position of the field in the record.
            field: usize,
        },
        /// A line is not valid UTF-8.
        #[error("line {line}: not valid UTF-8")]
        NotUtf8 {
            /// 1-based line.
            line: usize,
        },
        /// Reading the input failed.
        #[error("read error at line {line}: {kind:?}")]
        Io {
            /// 1-based line being read.
            line: usize,
            /// The kind of I/O error.
            kind: std::io::ErrorKind,
        },
        /// A model scored the same document of a query twice.
        #[error("{at}: document {document:?} of query {query:?} is scored twice (first at {first})")]
        DuplicateScore {
            /// Where the repeated score came from.
            at: Location,
            /// Where the first score came from.
            first: Location,
            /// The query.
            query: String,
            /// The document.
            document: String,
        },
        /// The same (query, document) pair is judged twice in a qrels file.
        #[error("{at}: document {document:?} of query {query:?} is judged twice (first at {first})")]
        DuplicateQrel {
            /// Where the repeated judgement came from.
            at: Location,
            /// Where the first judgement came from.
            first: Location,
            /// The query.
            query: String,
            /// The document.
            document: String,
        },
        /// A line of a whitespace-separated file has the wrong number of fields.
        #[error("line {line}: expected {expected} fields ({format}), found {found}")]
        FieldCount {
            /// 1-based line.
            line: usize,
            /// The format's field layout, e.g. `"qid iter docno rel"`.
            format: &'static str,
            /// Number of fields the format has.
            expected: usize,
            /// Number of fields found.
            found: usize,
        },
        /// An allocation for data already read failed.
        #[error("out of memory: {requested} {quantity} could not be allocated")]
        OutOfMemory {
            /// What was being allocated (`"string table slots"`, …).
            quantity: &'static str,
            /// Number of items asked for.
            requested: u64,
        },
        /// A measure name is not one this crate computes.
        #[error("unknown measure {name:?}")]
        UnknownMeasure {
            /// The name given (cut to 40 characters).
            name: String,
        },
        /// A family of measures with nothing after its `.` (`P.`).
        #[error("measure {spec:?} has no cut-offs after its '.'")]
        NoCutoffs {
            /// The measure as given (cut to 40 characters).
            spec: String,
        },
        /// A measure that `trec_eval` parameterises given parameters: `ndcg`
        /// (gains of grades: here the gains are the grades), `set_F` (its
        /// weight) and `utility` (its coefficients), which are computed with
        /// `trec_eval`'s defaults only.
        #[error(
            "measure {spec:?}: its parameters are not taken here (ndcg's gains are the grades; \
             set_F and utility have trec_eval's defaults)"
        )]
        MeasureParameters {
            /// The measure as given (cut to 40 characters).
            spec: String,
        },
        /// A family's cut-offs that do not parse: rank cut-offs are integers
        /// ≥ 1, recall levels numbers in \[0, 1\] with at most two decimals.
        #[error("bad cut-offs {cutoffs:?} for {family}: {} expected", cutoff_kind(.family))]
        BadCutoffs {
            /// The family (`"P"`, `"iprec_at_recall"`).
            family: &'static str,
            /// The cut-offs as given (cut to 40 characters).
            cutoffs: String,
        },
        /// A family's cut-offs that name one twice (`trec_eval`: "duplicate
        /// cutoffs").
        #[error("cut-offs {cutoffs:?} for {family} repeat one")]
        RepeatedCutoff {
            /// The family.
            family: &'static str,
            /// The cut-offs as given (cut to 40 characters).
            cutoffs: String,
        },
        /// A measure has no tie-aware expectation
        /// ([`Ties::Expected`](super::Ties::Expected)): `gm_map` and
        /// `iprec_at_recall`.
        #[error("measure {measure} has no tie-aware expectation: score it in trec_eval's tie order")]
        NoExpectation {
            /// The measure's `trec_eval` name.
            measure: String,
        },
        /// A blank (empty or white-space only) line where `trec_eval` reads a
        /// record: it stops there with "Malformed line"
        /// ([`TrecSyntax::TrecEval`](super::TrecSyntax::TrecEval) qrels).
        #[error(
            "line {line}, column {column}: blank line ({format} expected; trec_eval refuses blank lines in qrels)"
        )]
        BlankLine {
            /// 1-based line.
            line: usize,
            /// 1-based column where a field was expected (1: the line is blank
            /// from its start).
            column: usize,
            /// The format's field layout, e.g. `"qid iter docno rel"`.
            format: &'static str,
        },
        /// A gain mapping returned a negative, NaN or infinite gain.
        #[error("gain of {input}[{index}] (mean grade {grade}) is not finite and non-negative")]
        InvalidGain {
            /// Name of the input (`"labels"` or `"missing"`).
            input: &'static str,
            /// Index of the label.
            index: usize,
            /// The mean grade the gain was computed from (as text, to keep `Eq`).
            grade: String,
        },
        /// A ranking given to rank-biased overlap is empty.
        #[error("ranking {ranking} is empty")]
        EmptyRanking {
            /// Which ranking (`"s"` or `"t"`).
            ranking: &'static str,
        },
        /// A tie group of a ranking is empty.
        #[error("ranking {ranking}: tie group {group} is empty")]
        EmptyGroup {
            /// Which ranking.
            ranking: &'static str,
            /// 0-based index of the group.
            group: usize,
        },
        /// An item occurs twice in one ranking.
        #[error("ranking {ranking}: item at position {index} occurs earlier too")]
        DuplicateItem {
            /// Which ranking.
            ranking: &'static str,
            /// 0-based position (counting items, not groups) of the repeat.
            index: usize,
        },
    }
}

impl RelevanceError {
    /// The 1-based line of the input file the error is about, if it came
    /// from a file (so a caller can print `FILE:LINE: message`).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids};
    /// let err = read_trec_qrels("q 0 d 1\nq 0 d\n".as_bytes(), &mut Ids::new()).err();
    /// assert_eq!(err.and_then(|e| e.line()), Some(2));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        let at = |l: &Location| match l {
            Location::Line(n) => Some(*n),
            Location::Record(_) => None,
        };
        match self {
            Self::GradeOffScale { at: l, .. }
            | Self::DuplicateJudgement { at: l, .. }
            | Self::MissingField { at: l, .. }
            | Self::BadNumber { at: l, .. }
            | Self::DuplicateScore { at: l, .. }
            | Self::DuplicateQrel { at: l, .. } => at(l),
            Self::MalformedQuote { line, .. }
            | Self::BlankLine { line, .. }
            | Self::NotUtf8 { line }
            | Self::Io { line, .. }
            | Self::FieldCount { line, .. } => Some(*line),
            _ => None,
        }
    }
}

impl RelevanceError {
    /// The 1-based column of the input line the error is about, where it
    /// names one (a blank line in `trec_eval`'s qrels syntax).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{read_trec_qrels_with, Ids, TrecSyntax};
    /// let err = read_trec_qrels_with("q 0 d 1\n\n".as_bytes(), &mut Ids::new(), TrecSyntax::TrecEval).err();
    /// assert_eq!(err.as_ref().and_then(|e| e.line()), Some(2));
    /// assert_eq!(err.and_then(|e| e.column()), Some(1));
    /// ```
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        match self {
            Self::BlankLine { column, .. } => Some(*column),
            _ => None,
        }
    }
}

/// What the cut-offs of a family are.
fn cutoff_kind(family: &str) -> &'static str {
    if family == "iprec_at_recall" {
        "recall levels from 0 to 1 with at most two decimals"
    } else {
        "integers of at least 1"
    }
}

/// Shorthand for results of the relevance module.
pub type Result<T, E = RelevanceError> = core::result::Result<T, E>;

/// Checks that every value is finite, reporting the first bad index.
pub(crate) fn check_finite<F: num_traits::Float>(input: &'static str, x: &[F]) -> Result<()> {
    for (index, v) in x.iter().enumerate() {
        if v.is_nan() {
            return Err(RelevanceError::NaN { input, index });
        }
        if v.is_infinite() {
            return Err(RelevanceError::Infinite { input, index });
        }
    }
    Ok(())
}
