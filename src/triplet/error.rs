//! The error type of the triplet module.

use thiserror::Error;

module_error! {
    /// Everything that can go wrong when building, reading, writing or scoring
    /// reliability-weighted triplet comparisons.
    ///
    /// Each variant says *what* was wrong and *where*: the 0-based index of a
    /// comparison, group or annotation, or the 1-based line of a file. Messages are
    /// lowercase without a trailing period. New variants may be added in minor
    /// releases.
    #[derive(Debug, Clone, PartialEq, Error)]
    #[non_exhaustive]
    pub enum TripletError {
        shared {
            /// A parameter is outside its domain.
            InvalidParameter,
            /// A size over its limit ([`MAX_COMPARISONS`](super::MAX_COMPARISONS)):
            /// refused before anything is allocated (see the crate docs, "Sizes and
            /// memory").
            TooLarge,
            /// Reading from the underlying reader (or writing: line 0) failed.
            Io,
        }
        /// A comparison's reliability R_> is NaN or outside `[0, 1]`.
        #[error("comparison {index}: reliability {value} is not a number in [0, 1]")]
        InvalidReliability {
            /// 0-based index of the comparison.
            index: usize,
            /// The offending value.
            value: f64,
        },
        /// The similarity model returned NaN.
        #[error("comparison {index}: the model's similarity is NaN")]
        NanSimilarity {
            /// 0-based index of the comparison.
            index: usize,
        },
        /// A comparison cannot be written in the dataset format.
        #[error("comparison {index} cannot be written: {problem}")]
        Unwritable {
            /// 0-based index of the comparison.
            index: usize,
            /// What is wrong with it.
            problem: WordProblem,
        },
        /// A line of a dataset file is malformed.
        #[error("dataset line {line}: {problem}")]
        Format {
            /// 1-based line number.
            line: usize,
            /// What is wrong with it.
            problem: FormatProblem,
        },
        /// Reading or building word vectors failed (see
        /// [`EmbeddingError`](crate::embedding::EmbeddingError)).
        #[error(transparent)]
        Vectors(#[from] crate::embedding::EmbeddingError),
        /// A target group is invalid.
        #[error("target group {group}: {problem}")]
        InvalidGroup {
            /// 0-based index of the group.
            group: usize,
            /// What is wrong with it.
            problem: GroupProblem,
        },
        /// An annotator's ranking is invalid.
        #[error("annotation {index}: {problem}")]
        InvalidAnnotation {
            /// 0-based index of the annotation.
            index: usize,
            /// What is wrong with it.
            problem: AnnotationProblem,
        },
        /// A target group with two or more positives has no annotation, so
        /// R_> between its positives is undefined.
        #[error("target group {group}: no annotator ranked its positives")]
        NoAnnotations {
            /// 0-based index of the group.
            group: usize,
        },
    }
}

impl TripletError {
    /// The 1-based line of a dataset or vector file the error is about, if
    /// any (so a caller can print `FILE:LINE: message`).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::triplet::read_dataset;
    /// let e = read_dataset(&b"singer\nperson,0.1,musician\n"[..]).unwrap_err();
    /// assert_eq!((e.line(), e.column()), (Some(2), None));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Format { line, .. } => Some(*line),
            Self::Vectors(e) => e.line(),
            Self::Io { line, .. } if *line > 0 => Some(*line),
            _ => None,
        }
    }

    /// The 1-based character column the error is about: always `None` (a
    /// dataset line's error names its field, not a column), kept so that
    /// every reader error answers both.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        None
    }
}

/// What is wrong with a word; see [`TripletError::Unwritable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WordProblem {
    /// A word is empty.
    #[error("a word is empty")]
    Empty,
    /// A word contains a comma, the field separator of the dataset format.
    #[error("a word contains a comma")]
    Comma,
    /// A word contains a line break.
    #[error("a word contains a line break")]
    LineBreak,
    /// A word starts or ends with whitespace, which the reader would trim.
    #[error("a word starts or ends with whitespace")]
    Padded,
    /// `w1` and `w2` are the same word, which the reader rejects.
    #[error("w1 and w2 are the same word")]
    SameWords,
}

/// What is wrong with a dataset line; see [`TripletError::Format`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FormatProblem {
    /// The line is not valid UTF-8.
    #[error("not valid UTF-8")]
    InvalidUtf8,
    /// A block starts with a comparison line instead of its target word.
    #[error("a block must start with its target word, found a comparison line")]
    MissingTarget,
    /// A block has a target word but no comparison.
    #[error("the target group has no comparison")]
    EmptyGroup,
    /// A comparison line does not have the four fields `w1,p1,w2,p2`.
    #[error("expected 4 comma-separated fields w1,p1,w2,p2, found {found}")]
    FieldCount {
        /// The number of fields found.
        found: usize,
    },
    /// A word field is empty.
    #[error("field {field} is an empty word")]
    EmptyWord {
        /// 1-based field number.
        field: usize,
    },
    /// A probability field is not a number in `[0, 1]`.
    #[error("field {field} is not a probability in [0, 1]")]
    InvalidProbability {
        /// 1-based field number.
        field: usize,
    },
    /// The two probabilities do not add up to 1.
    #[error("p1 + p2 is not 1")]
    ProbabilitySum,
    /// Both words of a comparison are the same.
    #[error("w1 and w2 are the same word")]
    SameWords,
    /// A line without a comma is not `positives`, `distractors` or `randoms`.
    #[error("unknown section: expected positives, distractors or randoms")]
    UnknownSection,
}

/// What is wrong with a target group; see [`TripletError::InvalidGroup`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GroupProblem {
    /// The target or a candidate is empty.
    #[error("a word is empty")]
    EmptyWord,
    /// A candidate is the target word itself.
    #[error("a candidate is the target word")]
    CandidateIsTarget,
    /// A candidate appears twice in the group (in any category).
    #[error("a candidate appears twice")]
    DuplicateCandidate,
    /// Another group has the same target word.
    #[error("the target word is also the target of group {first}")]
    DuplicateTarget {
        /// 0-based index of the first group with this target.
        first: usize,
    },
}

/// What is wrong with an annotation; see [`TripletError::InvalidAnnotation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AnnotationProblem {
    /// The annotation's target is not the target of any group.
    #[error("its target is not the target of any group")]
    UnknownTarget,
    /// The ranking does not have one entry per positive of the group.
    #[error("the ranking has {found} entries, the group has {expected} positives")]
    WrongLength {
        /// The number of positives of the group.
        expected: usize,
        /// The number of entries in the ranking.
        found: usize,
    },
    /// An entry of the ranking is not a positive of the group.
    #[error("entry {position} is not a positive of the group")]
    NotAPositive {
        /// 0-based position in the ranking.
        position: usize,
    },
    /// A positive appears twice in the ranking.
    #[error("entry {position} repeats an earlier entry")]
    Repeated {
        /// 0-based position in the ranking.
        position: usize,
    },
    /// The same annotator ranked the same target twice.
    #[error("the annotator already ranked this target in annotation {first}")]
    Duplicate {
        /// 0-based index of the first annotation.
        first: usize,
    },
}
