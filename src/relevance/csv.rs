//! Streaming readers for judgement files and model score files in CSV
//! (RFC 4180: comma-separated, fields optionally in double quotes, a quote
//! inside a quoted field doubled, line breaks allowed inside quotes), parsed
//! by the `csv` crate's parser (`csv-core`).
//!
//! The first non-blank record is the header; the caller names the columns to
//! use, in any order, and other columns are ignored. Blank lines are skipped,
//! a UTF-8 byte-order mark is dropped, `\n`, `\r\n` and a lone `\r` end a
//! record. Errors carry the 1-based line (counting `\n`) where the offending
//! record starts.
//!
//! Quotes are read as the `csv` crate reads them, leniently: a quote inside
//! an unquoted field is kept and text after a closing quote is appended to
//! the field; but a quote still open at the end of the input (the `csv`
//! crate's field would run to the end) is a
//! [`RelevanceError::MalformedQuote`] at the line where its record starts.

use super::error::{Location, RelevanceError, Result};
use super::judgements::{Judgements, Scale};
use super::metrics::Run;
use std::io::BufRead;

/// Header names of the columns of a judgement file.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::JudgementColumns;
/// // PhraseRel's raw file names its columns differently:
/// let c = JudgementColumns { annotator: "worker_id", grade: "relevance", ..JudgementColumns::default() };
/// assert_eq!(c.query, "query");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JudgementColumns<'a> {
    /// Column of the query (default `"query"`).
    pub query: &'a str,
    /// Column of the document (default `"document"`).
    pub document: &'a str,
    /// Column of the annotator (default `"annotator"`).
    pub annotator: &'a str,
    /// Column of the integer grade (default `"grade"`).
    pub grade: &'a str,
}

impl Default for JudgementColumns<'_> {
    fn default() -> Self {
        Self {
            query: "query",
            document: "document",
            annotator: "annotator",
            grade: "grade",
        }
    }
}

/// Header names of the columns of a model score file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoreColumns<'a> {
    /// Column of the query (default `"query"`).
    pub query: &'a str,
    /// Column of the document (default `"document"`).
    pub document: &'a str,
    /// Column of the score, larger is better (default `"score"`).
    pub score: &'a str,
}

impl Default for ScoreColumns<'_> {
    fn default() -> Self {
        Self {
            query: "query",
            document: "document",
            score: "score",
        }
    }
}

/// Splits a byte stream into CSV records with the `csv` crate's parser
/// (`csv-core`), counting lines itself: `csv::Reader`'s record positions
/// point at the line where the read started, which is wrong after blank
/// lines and after CRLF line ends (rust-csv issues 208 and 395), and errors
/// must name the line where the record starts.
#[derive(Debug)]
struct Records<R> {
    reader: R,
    core: csv_core::Reader,
    /// Line breaks (`\n`) consumed so far.
    newlines: usize,
    /// Bytes consumed so far (to skip a byte-order mark at offset 0).
    consumed: usize,
    /// Line where the current record starts.
    line: usize,
    out: Vec<u8>,
    ends: Vec<usize>,
    fields: usize,
    done: bool,
    /// Where the current record's quotes stand (see [`Quote`]).
    quote: Quote,
}

/// The quoting state of the bytes read so far in a record, as `csv-core`
/// reads them: only an open quote at the end of the input matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    /// At the start of a field.
    Start,
    /// In an unquoted field (a quote there is a character).
    Unquoted,
    /// Inside a quoted field.
    Open,
    /// After a quote inside a quoted field (closing, or the first of `""`).
    Closing,
}

impl Quote {
    fn step(self, b: u8) -> Self {
        let ends = matches!(b, b',' | b'\n' | b'\r');
        match self {
            Self::Start if b == b'"' => Self::Open,
            Self::Start | Self::Unquoted if ends => Self::Start,
            Self::Start | Self::Unquoted => Self::Unquoted,
            Self::Open if b == b'"' => Self::Closing,
            Self::Open => Self::Open,
            Self::Closing if b == b'"' => Self::Open,
            Self::Closing if ends => Self::Start,
            Self::Closing => Self::Unquoted,
        }
    }
}

impl<R: BufRead> Records<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            core: csv_core::Reader::new(),
            newlines: 0,
            consumed: 0,
            line: 0,
            out: vec![0; 1024],
            ends: vec![0; 16],
            fields: 0,
            done: false,
            quote: Quote::Start,
        }
    }

    /// Reads the next non-blank record into `out`/`ends`; `false` at the
    /// end of the input. `self.line` is the line where it starts.
    fn next_record(&mut self) -> Result<bool> {
        use csv_core::ReadRecordResult as R;
        if self.done {
            return Ok(false);
        }
        let (mut outlen, mut endlen) = (0, 0);
        let mut started = false;
        self.quote = Quote::Start;
        loop {
            let input = self.reader.fill_buf().map_err(|e| RelevanceError::Io {
                line: self.newlines + 1,
                kind: e.kind(),
            })?;
            let (res, nin, nout, nend) = self.core.read_record(
                input,
                self.out.get_mut(outlen..).unwrap_or(&mut []),
                self.ends.get_mut(endlen..).unwrap_or(&mut []),
            );
            let taken = input.get(..nin).unwrap_or(&[]);
            let mut rest = taken;
            if !started {
                // Skipped line breaks (blank lines, the LF of a CRLF) and a
                // byte-order mark come before the record's first byte.
                let mut i = 0;
                for &b in taken {
                    let bom = self.consumed + i < 3 && matches!(b, 0xEF | 0xBB | 0xBF);
                    if b == b'\n' {
                        self.newlines += 1;
                    } else if b != b'\r' && !bom {
                        started = true;
                        self.line = self.newlines + 1;
                        break;
                    }
                    i += 1;
                }
                rest = taken.get(i..).unwrap_or(&[]);
            }
            self.newlines += rest.iter().filter(|&&b| b == b'\n').count();
            self.quote = rest.iter().fold(self.quote, |q, &b| q.step(b));
            let at_end = input.is_empty();
            self.consumed += nin;
            self.reader.consume(nin);
            outlen += nout;
            endlen += nend;
            match res {
                R::InputEmpty => {}
                R::OutputFull => {
                    let n = self.out.len().saturating_mul(2).max(1024);
                    self.out.resize(n, 0);
                }
                R::OutputEndsFull => {
                    let n = self.ends.len().saturating_mul(2).max(16);
                    self.ends.resize(n, 0);
                }
                R::Record => {
                    self.fields = endlen;
                    if !started {
                        self.line = self.newlines + 1;
                    }
                    if at_end && self.quote == Quote::Open {
                        return Err(RelevanceError::MalformedQuote {
                            line: self.line,
                            field: endlen.max(1),
                        });
                    }
                    let bytes = self.out.get(..outlen).unwrap_or(&[]);
                    if !bytes.is_ascii() && std::str::from_utf8(bytes).is_err() {
                        return Err(RelevanceError::NotUtf8 { line: self.line });
                    }
                    return Ok(true);
                }
                R::End => {
                    self.done = true;
                    return Ok(false);
                }
            }
        }
    }

    /// Field `i` of the current record (valid UTF-8: checked on reading).
    fn field(&self, i: usize) -> Option<&str> {
        if i >= self.fields {
            return None;
        }
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        std::str::from_utf8(self.out.get(start..end)?).ok()
    }

    fn header(&self) -> Vec<String> {
        (0..self.fields)
            .map(|i| self.field(i).unwrap_or("").to_owned())
            .collect()
    }
}

/// Positions of the requested columns in the header.
fn locate<R: BufRead>(records: &mut Records<R>, names: &[&str]) -> Result<Vec<usize>> {
    if !records.next_record()? {
        return Err(RelevanceError::NoHeader);
    }
    let header = records.header();
    names
        .iter()
        .map(|&name| {
            let mut hits = header
                .iter()
                .enumerate()
                .filter(|(_, h)| h.trim() == name)
                .map(|(i, _)| i);
            match (hits.next(), hits.next()) {
                (Some(i), None) => Ok(i),
                (Some(_), Some(_)) => Err(RelevanceError::DuplicateColumn {
                    column: name.to_owned(),
                }),
                (None, _) => Err(RelevanceError::MissingColumn {
                    column: name.to_owned(),
                }),
            }
        })
        .collect()
}

/// The non-empty field of column `index` (named `name`) of the current record.
fn field<'a, R: BufRead>(
    records: &'a Records<R>,
    index: usize,
    name: &str,
    line: usize,
) -> Result<&'a str> {
    match records.field(index) {
        Some(f) if !f.trim().is_empty() => Ok(f),
        _ => Err(RelevanceError::MissingField {
            at: Location::Line(line),
            column: name.to_owned(),
        }),
    }
}

fn bad_number(line: usize, column: &str, expected: &'static str, value: &str) -> RelevanceError {
    RelevanceError::BadNumber {
        at: Location::Line(line),
        column: column.to_owned(),
        expected,
        value: value.chars().take(40).collect(),
    }
}

/// One judgement read from a CSV file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JudgementRecord {
    /// 1-based line where the record starts.
    pub line: usize,
    /// The query.
    pub query: String,
    /// The document.
    pub document: String,
    /// The annotator.
    pub annotator: String,
    /// The grade as written (not yet checked against a scale).
    pub grade: i64,
}

/// A streaming iterator over the judgements of a CSV file; see
/// [`judgement_records`].
#[derive(Debug)]
pub struct JudgementRecords<R> {
    records: Records<R>,
    columns: [usize; 4],
    names: [String; 4],
}

impl<R: BufRead> Iterator for JudgementRecords<R> {
    type Item = Result<JudgementRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.records.next_record() {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(Err(e)),
        }
        let line = self.records.line;
        let record = &self.records;
        let [q, d, a, g] = self.columns;
        let [qn, dn, an, gn] = &self.names;
        let parse = || -> Result<JudgementRecord> {
            let grade_text = field(record, g, gn, line)?;
            let grade = grade_text
                .trim()
                .parse::<i64>()
                .map_err(|_| bad_number(line, gn, "an integer grade", grade_text))?;
            Ok(JudgementRecord {
                line,
                query: field(record, q, qn, line)?.to_owned(),
                document: field(record, d, dn, line)?.to_owned(),
                annotator: field(record, a, an, line)?.to_owned(),
                grade,
            })
        };
        Some(parse())
    }
}

/// Reads the header of a judgement CSV and returns a streaming iterator over
/// its records, one line (or quoted multi-line record) at a time.
///
/// # Errors
/// [`RelevanceError::NoHeader`], [`RelevanceError::MissingColumn`] or
/// [`RelevanceError::DuplicateColumn`] for the header; the iterator yields
/// [`RelevanceError::MissingField`], [`RelevanceError::BadNumber`],
/// [`RelevanceError::NotUtf8`] and
/// [`RelevanceError::Io`] with the record's line.
///
/// # Complexity
/// O(bytes) time; memory O(longest record).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{judgement_records, JudgementColumns};
/// let csv = "q,d,who,g\n\"agent, sell\",x,w1,3\n";
/// let cols = JudgementColumns { query: "q", document: "d", annotator: "who", grade: "g" };
/// let all: Vec<_> = judgement_records(csv.as_bytes(), &cols)?.collect::<Result<_, _>>()?;
/// assert_eq!(all[0].query, "agent, sell");
/// assert_eq!((all[0].line, all[0].grade), (2, 3));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn judgement_records<R: BufRead>(
    reader: R,
    columns: &JudgementColumns<'_>,
) -> Result<JudgementRecords<R>> {
    let mut records = Records::new(reader);
    let names = [
        columns.query,
        columns.document,
        columns.annotator,
        columns.grade,
    ];
    let found = locate(&mut records, &names)?;
    let mut idx = [0; 4];
    for (slot, i) in idx.iter_mut().zip(found) {
        *slot = i;
    }
    Ok(JudgementRecords {
        records,
        columns: idx,
        names: names.map(str::to_owned),
    })
}

/// Reads a whole judgement CSV into [`Judgements`] on `scale`.
///
/// # Errors
/// Those of [`judgement_records`], plus [`RelevanceError::GradeOffScale`] and
/// [`RelevanceError::DuplicateJudgement`] (with both lines) from
/// [`Judgements::add`]. Reading stops at the first error.
///
/// # Complexity
/// O(bytes) time, O(judgements) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_judgements, JudgementColumns, RelevanceError, Scale, Location};
/// let csv = "query,document,annotator,grade\nq,d,w,3\nq,d,w,2\n";
/// let err = read_judgements(csv.as_bytes(), &JudgementColumns::default(), Scale::default());
/// assert!(matches!(err, Err(RelevanceError::DuplicateJudgement { at: Location::Line(3), first: Location::Line(2), .. })));
/// ```
pub fn read_judgements<R: BufRead>(
    reader: R,
    columns: &JudgementColumns<'_>,
    scale: Scale,
) -> Result<Judgements> {
    let mut judgements = Judgements::new(scale);
    for record in judgement_records(reader, columns)? {
        let r = record?;
        judgements.add_at(
            &r.query,
            &r.document,
            &r.annotator,
            r.grade,
            Location::Line(r.line),
        )?;
    }
    Ok(judgements)
}

/// Reads a model score CSV (query, document, score; larger is better) into a
/// [`Run`].
///
/// # Errors
/// [`RelevanceError::NoHeader`], [`RelevanceError::MissingColumn`],
/// [`RelevanceError::DuplicateColumn`] for the header;
/// [`RelevanceError::MissingField`], [`RelevanceError::BadNumber`] (a score
/// that is not a finite number), [`RelevanceError::DuplicateScore`],
/// [`RelevanceError::NotUtf8`],
/// [`RelevanceError::Io`] with the line.
///
/// # Complexity
/// O(bytes) time, O(scores) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_run, ScoreColumns};
/// let run = read_run("query,document,score\nq,d1,0.5\nq,d2,1e-3\n".as_bytes(), &ScoreColumns::default())?;
/// assert_eq!(run.len(), 2);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn read_run<R: BufRead>(reader: R, columns: &ScoreColumns<'_>) -> Result<Run<f64>> {
    let mut records = Records::new(reader);
    let names = [columns.query, columns.document, columns.score];
    let found = locate(&mut records, &names)?;
    let (q, d, s) = match found.as_slice() {
        &[q, d, s] => (q, d, s),
        _ => return Err(RelevanceError::NoHeader),
    };
    let mut run = Run::new();
    while records.next_record()? {
        let line = records.line;
        let record = &records;
        let score_text = field(record, s, columns.score, line)?;
        let score = score_text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| bad_number(line, columns.score, "a finite score", score_text))?;
        let query = field(record, q, columns.query, line)?;
        let document = field(record, d, columns.document, line)?;
        run.add_at(query, document, score, Location::Line(line))?;
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &[u8]) -> Result<Vec<(usize, Vec<String>)>> {
        let mut r = Records::new(text);
        let mut out = Vec::new();
        while r.next_record()? {
            out.push((r.line, r.header()));
        }
        Ok(out)
    }

    fn owned(fields: &[&str]) -> Vec<String> {
        fields.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn splits_rfc4180_records_with_their_lines() -> Result<()> {
        let text =
            "\u{feff}a,b,c\r\n\r\n\n\"x, y\",\"say \"\"hi\"\"\",\n\"multi\r\nline\",2,\"\"\nlast";
        let got = split(text.as_bytes())?;
        assert_eq!(
            got,
            vec![
                (1, owned(&["a", "b", "c"])),
                (4, owned(&["x, y", "say \"hi\"", ""])),
                (5, owned(&["multi\r\nline", "2", ""])),
                (7, owned(&["last"])),
            ]
        );
        // Blank lines first, a BOM, CR-only line ends.
        let got = split(b"\xEF\xBB\xBF\n\na\rb\r\n\nc")?;
        assert_eq!(got.iter().map(|r| r.0).collect::<Vec<_>>(), [3, 3, 5]);
        Ok(())
    }

    #[test]
    fn long_records_and_fields_grow_the_buffers() -> Result<()> {
        let long = "x".repeat(5000);
        let many = vec!["f"; 100].join(",");
        let text = format!("{long},{many}\nnext\n");
        let got = split(text.as_bytes())?;
        assert_eq!(got.len(), 2);
        assert_eq!(got.first().map(|r| r.1.len()), Some(101));
        assert_eq!(
            got.first().and_then(|r| r.1.first()).map(String::len),
            Some(5000)
        );
        assert_eq!(got.get(1).map(|r| r.0), Some(2));
        Ok(())
    }

    #[test]
    fn rejects_invalid_utf8_with_its_line() {
        assert_eq!(
            split(b"a\n\n\xff,b\n"),
            Err(RelevanceError::NotUtf8 { line: 3 })
        );
    }
}
