//! Streaming readers for judgement files and model score files in CSV
//! (RFC 4180: comma-separated, fields optionally in double quotes, a quote
//! inside a quoted field doubled, line breaks allowed inside quotes).
//!
//! The first non-blank record is the header; the caller names the columns to
//! use, in any order, and other columns are ignored. Blank lines are skipped,
//! a UTF-8 byte-order mark is dropped, `\n` and `\r\n` both end a record.
//! Errors carry the 1-based line where the offending record starts.

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

/// Splits a byte stream into CSV records, tracking line numbers.
#[derive(Debug)]
struct Records<R> {
    reader: R,
    line: usize,
    raw: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Records<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            line: 0,
            raw: Vec::new(),
            done: false,
        }
    }

    /// Reads the next physical line (without its line break) into `self.raw`;
    /// `false` at end of input.
    fn read_line(&mut self) -> Result<bool> {
        self.raw.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.raw)
            .map_err(|e| RelevanceError::Io {
                line: self.line + 1,
                kind: e.kind(),
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        if self.raw.last() == Some(&b'\n') {
            self.raw.pop();
            if self.raw.last() == Some(&b'\r') {
                self.raw.pop();
            }
        }
        if self.line == 1 && self.raw.starts_with(b"\xEF\xBB\xBF") {
            self.raw.drain(..3);
        }
        Ok(true)
    }

    fn text(&self) -> Result<&str> {
        std::str::from_utf8(&self.raw).map_err(|_| RelevanceError::NotUtf8 { line: self.line })
    }

    /// The next non-blank record and the line where it starts.
    fn next_record(&mut self) -> Result<Option<(usize, Vec<String>)>> {
        if self.done {
            return Ok(None);
        }
        loop {
            if !self.read_line()? {
                self.done = true;
                return Ok(None);
            }
            if !self.raw.is_empty() {
                break;
            }
        }
        let start = self.line;
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut quoted = false; // inside a quoted field
        let mut was_quoted = false; // the current field was quoted and closed
        loop {
            let text = self.text()?;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if quoted {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            field.push('"');
                        } else {
                            quoted = false;
                            was_quoted = true;
                        }
                    } else {
                        field.push(c);
                    }
                } else if c == ',' {
                    fields.push(std::mem::take(&mut field));
                    was_quoted = false;
                } else if was_quoted {
                    return Err(RelevanceError::MalformedQuote {
                        line: start,
                        field: fields.len() + 1,
                    });
                } else if c == '"' && field.is_empty() {
                    quoted = true;
                } else {
                    field.push(c);
                }
            }
            if !quoted {
                break;
            }
            // A line break inside quotes belongs to the field.
            if !self.read_line()? {
                self.done = true;
                return Err(RelevanceError::MalformedQuote {
                    line: start,
                    field: fields.len() + 1,
                });
            }
            field.push('\n');
        }
        fields.push(field);
        Ok(Some((start, fields)))
    }
}

/// Positions of the requested columns in the header.
fn locate<R: BufRead>(records: &mut Records<R>, names: &[&str]) -> Result<Vec<usize>> {
    let (_, header) = records.next_record()?.ok_or(RelevanceError::NoHeader)?;
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

/// The non-empty field of column `index` (named `name`) of a record.
fn field<'a>(record: &'a [String], index: usize, name: &str, line: usize) -> Result<&'a str> {
    match record.get(index) {
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
        let (line, record) = match self.records.next_record() {
            Ok(Some(r)) => r,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let [q, d, a, g] = self.columns;
        let [qn, dn, an, gn] = &self.names;
        let parse = || -> Result<JudgementRecord> {
            let grade_text = field(&record, g, gn, line)?;
            let grade = grade_text
                .trim()
                .parse::<i64>()
                .map_err(|_| bad_number(line, gn, "an integer grade", grade_text))?;
            Ok(JudgementRecord {
                line,
                query: field(&record, q, qn, line)?.to_owned(),
                document: field(&record, d, dn, line)?.to_owned(),
                annotator: field(&record, a, an, line)?.to_owned(),
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
/// [`RelevanceError::MalformedQuote`], [`RelevanceError::NotUtf8`] and
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
/// [`RelevanceError::MalformedQuote`], [`RelevanceError::NotUtf8`],
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
    while let Some((line, record)) = records.next_record()? {
        let score_text = field(&record, s, columns.score, line)?;
        let score = score_text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| bad_number(line, columns.score, "a finite score", score_text))?;
        let query = field(&record, q, columns.query, line)?;
        let document = field(&record, d, columns.document, line)?;
        run.add_at(query, document, score, Location::Line(line))?;
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Result<Vec<(usize, Vec<String>)>> {
        let mut r = Records::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some(rec) = r.next_record()? {
            out.push(rec);
        }
        Ok(out)
    }

    fn owned(fields: &[&str]) -> Vec<String> {
        fields.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn splits_rfc4180_records() -> Result<()> {
        let text = "\u{feff}a,b,c\r\n\n\"x, y\",\"say \"\"hi\"\"\",\n\"multi\nline\",2,\"\"\nlast";
        let got = split(text)?;
        assert_eq!(
            got,
            vec![
                (1, owned(&["a", "b", "c"])),
                (3, owned(&["x, y", "say \"hi\"", ""])),
                (4, owned(&["multi\nline", "2", ""])),
                (6, owned(&["last"])),
            ]
        );
        Ok(())
    }

    #[test]
    fn rejects_malformed_quotes() {
        assert_eq!(
            split("a\n\"open,b\n"),
            Err(RelevanceError::MalformedQuote { line: 2, field: 1 })
        );
        assert_eq!(
            split("a,\"b\"c\n"),
            Err(RelevanceError::MalformedQuote { line: 1, field: 2 })
        );
        let bytes: &[u8] = b"a\n\xff,b\n";
        let mut r = Records::new(bytes);
        assert!(r.next_record().is_ok());
        assert_eq!(r.next_record(), Err(RelevanceError::NotUtf8 { line: 2 }));
    }
}
