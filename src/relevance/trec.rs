//! Streaming readers for TREC qrels (`qid iter docno rel`) and TREC runs
//! (`qid Q0 docno rank score tag`), into the flat layout ([`Qrels`],
//! [`TrecRun`]).
//!
//! Both formats split fields as `trec_eval` does, at any run of ASCII
//! white space (space, tab, CR, vertical tab, form feed), so tabs, trailing
//! white space and CRLF line ends read as `trec_eval` reads them. Lines
//! whose first character is `#` are comments, as in `trec_eval` 10.0
//! (9.0.x has no comments). A UTF-8 byte-order mark before the first line
//! is dropped (`trec_eval` would make it part of the first query id).
//!
//! Blank lines are where [`TrecSyntax`] matters: `trec_eval` (9.0.x and
//! 10.0) and `pytrec_eval.parse_qrel` refuse a blank or white-space-only
//! line in qrels ("Malformed line"), while `trec_eval` skips them in runs.
//! [`TrecSyntax::TrecEval`] does the same ([`read_trec_qrels_with`],
//! [`read_trec_run_with`]); the default [`TrecSyntax::Lenient`] skips
//! blank lines in both files.
//!
//! Where `trec_eval` silently reads garbage, these readers stop with an
//! error naming the line whatever the syntax: a wrong number of fields, a
//! grade that is not an integer (`trec_eval`'s `atol` reads `1.5` as 1 and
//! `x` as 0), a score that is not a finite number (`atof` reads `x` as 0),
//! an id that is not UTF-8.

use super::error::{Location, RelevanceError, Result};
use super::flat::{Qrels, QrelsBuilder, RunBuilder, TrecRun};
use super::intern::{Ids, StringTable};
use std::io::BufRead;

/// Physical lines of a byte stream, numbered from 1.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::with_capacity(256),
            line: 0,
        }
    }

    /// Reads the next line into `self.buf` (line break kept); `false` at
    /// the end of the input.
    fn advance(&mut self) -> Result<bool> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| RelevanceError::Io {
                line: self.line + 1,
                kind: e.kind(),
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(true)
    }
}

/// `isspace` of the C locale.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// Splits `line` into white-space separated fields, storing the first `N`
/// in `out`; returns the number of fields (which may exceed `N`).
#[inline]
fn split<'a, const N: usize>(line: &'a [u8], out: &mut [&'a [u8]; N]) -> usize {
    let mut count = 0;
    let mut i = 0;
    let n = line.len();
    while i < n {
        while i < n && line.get(i).copied().is_some_and(is_space) {
            i += 1;
        }
        if i >= n {
            break;
        }
        let start = i;
        while i < n && !line.get(i).copied().is_some_and(is_space) {
            i += 1;
        }
        if let (Some(slot), Some(field)) = (out.get_mut(count), line.get(start..i)) {
            *slot = field;
        }
        count += 1;
    }
    count
}

/// Whether a line is blank or a comment.
#[inline]
fn skip(line: &[u8]) -> bool {
    line.first() == Some(&b'#') || line.iter().all(|&b| is_space(b))
}

fn text(field: &[u8], line: usize) -> Result<&str> {
    std::str::from_utf8(field).map_err(|_| RelevanceError::NotUtf8 { line })
}

fn bad_number(line: usize, column: &str, expected: &'static str, value: &[u8]) -> RelevanceError {
    RelevanceError::BadNumber {
        at: Location::Line(line),
        column: column.to_owned(),
        expected,
        value: String::from_utf8_lossy(value).chars().take(40).collect(),
    }
}

/// Interns query ids, remembering the last one (files are grouped by
/// query, so most lines repeat the previous line's query).
#[derive(Default)]
struct QueryCache {
    bytes: Vec<u8>,
    id: Option<u32>,
}

impl QueryCache {
    #[inline]
    fn intern(&mut self, table: &mut StringTable, field: &[u8], line: usize) -> Result<u32> {
        if let Some(id) = self.id
            && self.bytes == field
        {
            return Ok(id);
        }
        let id = table.intern(text(field, line)?)?;
        self.bytes.clear();
        self.bytes.extend_from_slice(field);
        self.id = Some(id);
        Ok(id)
    }
}

const QRELS_FORMAT: &str = "qid iter docno rel";
const RUN_FORMAT: &str = "qid Q0 docno rank score tag";

/// How the TREC readers treat the lines on which `trec_eval` and the
/// crate's lenient reading differ.
///
/// | line | [`Lenient`](Self::Lenient) (default) | [`TrecEval`](Self::TrecEval) (`trec_eval` 10.0) |
/// |---|---|---|
/// | blank or white space only, in qrels | skipped | [`RelevanceError::BlankLine`] (`trec_eval`: "Malformed line") |
/// | blank or white space only, in a run | skipped | skipped |
/// | first character `#` | comment, skipped | comment, skipped |
/// | first field starting with `#` after white space, in a run | a record (wrong field count or query `#…`) | comment, skipped |
/// | more than 6 fields in a run | [`RelevanceError::FieldCount`] | fields after the tag ignored |
///
/// Both refuse what `trec_eval` reads as garbage (see the module docs).
/// Two `trec_eval` 10.0 faults are not followed: it reads the second of
/// two consecutive comment lines of a qrels file as a record, and crashes
/// on a comment as the last line of a qrels file; `trec_eval` 9.0.x has no
/// comments at all (a `#` line is malformed, or a record of query `#`).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_qrels_with, read_trec_run_with, Ids, RelevanceError, TrecSyntax};
/// let qrels = "q1 0 d1 1\n\nq1 0 d2 0\n";
/// let mut ids = Ids::new();
/// assert!(read_trec_qrels_with(qrels.as_bytes(), &mut ids, TrecSyntax::Lenient).is_ok());
/// let strict = read_trec_qrels_with(qrels.as_bytes(), &mut ids, TrecSyntax::TrecEval);
/// assert!(matches!(strict, Err(RelevanceError::BlankLine { line: 2, column: 1, .. })));
/// // A run: blank lines skipped, a seventh field ignored, as trec_eval does.
/// let run = "q1 Q0 d1 1 0.5 bm25 extra\n\n  # indented comment\nq1 Q0 d2 2 0.4 bm25\n";
/// assert_eq!(read_trec_run_with(run.as_bytes(), &mut ids, TrecSyntax::TrecEval)?.len(), 2);
/// assert!(read_trec_run_with(run.as_bytes(), &mut ids, TrecSyntax::Lenient).is_err());
/// # Ok::<(), RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum TrecSyntax {
    /// Blank lines skipped in both files, exactly 6 fields a run line (the
    /// default).
    #[default]
    Lenient,
    /// As `trec_eval` 10.0 reads: a blank line in qrels is an error; in a
    /// run, blank lines and lines whose first field starts with `#` are
    /// skipped and fields after the sixth ignored.
    TrecEval,
}

/// Reads a TREC qrels file (`qid iter docno rel`, one judgement a line)
/// into a [`Qrels`], interning its ids into `ids`, skipping blank lines
/// ([`TrecSyntax::Lenient`]; [`read_trec_qrels_with`] reads as `trec_eval`
/// does, refusing them).
///
/// The iteration field is ignored, as `trec_eval` does. `rel` is an integer
/// grade in `i32`: relevant when at least the relevance level (1 by
/// default, [`TrecOptions::relevance_level`]), 0 judged non-relevant,
/// negative never relevant with gain 0 (`trec_eval` reads a negative grade
/// as "in the pool but unjudged", which for every measure of this crate
/// is the same as non-relevant).
///
/// A query all of whose grades are negative is read and scored as a query
/// without relevant documents (0 on every measure); `trec_eval` 9.x and
/// `pytrec_eval` crash on it (they size an array by the largest grade + 1).
///
/// [`TrecOptions::relevance_level`]: super::TrecOptions::relevance_level
///
/// # Errors
/// Each with the 1-based line: [`RelevanceError::FieldCount`] for a line
/// without exactly 4 fields, [`RelevanceError::BadNumber`] for a grade that
/// is not an integer in `i32`, [`RelevanceError::NotUtf8`],
/// [`RelevanceError::Io`]; then [`RelevanceError::DuplicateQrel`] (both
/// lines) for the earliest pair judged twice; [`RelevanceError::TooLarge`]
/// past `u32::MAX` lines or ids.
///
/// # Complexity
/// O(bytes) expected time plus a sort of each query's judgements; memory
/// about 12 bytes a judgement (plus 8 while reading) and the distinct ids.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids, Location, RelevanceError};
/// let mut ids = Ids::new();
/// let qrels = read_trec_qrels("# topic 401\n401 0 FT1 2\n401 0 FT2 -1\n\n402\t0\tFT1\t0\n".as_bytes(), &mut ids)?;
/// assert_eq!((qrels.len(), qrels.queries().len()), (3, 2));
/// let bad = read_trec_qrels("401 0 FT1 1\n401 0 FT1 0\n".as_bytes(), &mut ids);
/// assert!(matches!(bad, Err(RelevanceError::DuplicateQrel { at: Location::Line(2), first: Location::Line(1), .. })));
/// # Ok::<(), RelevanceError>(())
/// ```
pub fn read_trec_qrels<R: BufRead>(reader: R, ids: &mut Ids) -> Result<Qrels> {
    read_trec_qrels_with(reader, ids, TrecSyntax::Lenient)
}

/// [`read_trec_qrels`] with a choice of [`TrecSyntax`]: under
/// [`TrecSyntax::TrecEval`] a blank or white-space-only line is an error,
/// as in `trec_eval`.
///
/// # Errors
/// Those of [`read_trec_qrels`], and [`RelevanceError::BlankLine`] (line,
/// column 1) for a blank line under [`TrecSyntax::TrecEval`].
///
/// # Complexity
/// As [`read_trec_qrels`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_qrels_with, Ids, TrecSyntax};
/// let text = "# judged by NIST\n401 0 FT1 2\r\n401\t0\tFT2\t0  \n";
/// let qrels = read_trec_qrels_with(text.as_bytes(), &mut Ids::new(), TrecSyntax::TrecEval)?;
/// assert_eq!(qrels.len(), 2);
/// let err = read_trec_qrels_with("401 0 FT1 2\n \t\n".as_bytes(), &mut Ids::new(), TrecSyntax::TrecEval)
///     .err().map(|e| e.to_string());
/// assert_eq!(err.as_deref(), Some("line 2, column 1: blank line (qid iter docno rel expected; trec_eval refuses blank lines in qrels)"));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn read_trec_qrels_with<R: BufRead>(
    reader: R,
    ids: &mut Ids,
    syntax: TrecSyntax,
) -> Result<Qrels> {
    let mut lines = Lines::new(reader);
    let mut builder: QrelsBuilder<'_> = Qrels::line_builder(ids);
    let mut cache = QueryCache::default();
    while lines.advance()? {
        let line = lines.line;
        let raw = lines.buf.as_slice();
        if skip(raw) {
            if syntax == TrecSyntax::TrecEval && raw.first() != Some(&b'#') {
                return Err(RelevanceError::BlankLine {
                    line,
                    column: 1,
                    format: QRELS_FORMAT,
                });
            }
            continue;
        }
        let mut fields: [&[u8]; 4] = [&[]; 4];
        let found = split(raw, &mut fields);
        if found != 4 {
            return Err(RelevanceError::FieldCount {
                line,
                format: QRELS_FORMAT,
                expected: 4,
                found,
            });
        }
        let [qf, _, df, rf] = fields;
        let grade = std::str::from_utf8(rf)
            .ok()
            .and_then(|t| t.parse::<i32>().ok())
            .ok_or_else(|| bad_number(line, "rel", "an integer grade", rf))?;
        let (qt, dt) = builder.tables();
        let q = cache.intern(qt, qf, line)?;
        let d = dt.intern(q, text(df, line)?)?;
        builder.push_ids(q, d, grade, line)?;
    }
    builder.finish()
}

/// Reads a TREC run (`qid Q0 docno rank score tag`, one retrieved document
/// a line) into a [`TrecRun`], interning its ids into `ids`.
///
/// As in `trec_eval`, the `Q0` and `rank` fields are ignored: documents are
/// ranked by decreasing score, ties by decreasing document id as text
/// (byte-wise), so the file's order and ranks never matter. The tag of the
/// last line names the run ([`TrecRun::name`], `trec_eval`'s `runid`).
/// Blank lines are skipped; a line must have exactly 6 fields
/// ([`TrecSyntax::Lenient`]; [`read_trec_run_with`] reads as `trec_eval`
/// does).
///
/// # Errors
/// Each with the 1-based line: [`RelevanceError::FieldCount`] for a line
/// without exactly 6 fields, [`RelevanceError::BadNumber`] for a score that
/// is not a finite number, [`RelevanceError::NotUtf8`],
/// [`RelevanceError::Io`]; then [`RelevanceError::DuplicateScore`] (both
/// lines) for the earliest document listed twice for one query (an error in
/// `trec_eval`, "duplicate docs", and an assertion in
/// `pytrec_eval.parse_run`); [`RelevanceError::TooLarge`] past `u32::MAX`
/// lines or ids.
///
/// # Complexity
/// O(bytes) expected time plus a sort of each query's documents; memory
/// about 12 bytes a line (plus 12 while reading) and the distinct ids.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_run, Ids};
/// let mut ids = Ids::new();
/// let run = read_trec_run("401 Q0 FT1 1 0.5 bm25\n401 Q0 FT3 2 0.5 bm25\n401 Q0 FT2 3 0.7 bm25\n".as_bytes(), &mut ids)?;
/// let q = ids.queries().get("401").ok_or("no query")?;
/// let (docs, _) = run.ranking(q).ok_or("no ranking")?;
/// let order: Vec<_> = docs.iter().filter_map(|&d| ids.documents().name(d)).collect();
/// assert_eq!(order, ["FT2", "FT3", "FT1"]);
/// assert_eq!(run.name(), Some("bm25"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_trec_run<R: BufRead>(reader: R, ids: &mut Ids) -> Result<TrecRun> {
    read_trec_run_with(reader, ids, TrecSyntax::Lenient)
}

/// [`read_trec_run`] with a choice of [`TrecSyntax`]: under
/// [`TrecSyntax::TrecEval`] lines whose first field starts with `#` are
/// comments and fields after the tag are ignored, as in `trec_eval`.
///
/// # Errors
/// As [`read_trec_run`]; under [`TrecSyntax::TrecEval`]
/// [`RelevanceError::FieldCount`] only for fewer than 6 fields.
///
/// # Complexity
/// As [`read_trec_run`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_run_with, Ids, TrecSyntax};
/// let text = "401 Q0 FT1 1 0.5 bm25 # a note\n\n401 Q0 FT2 2 0.4 bm25-final\n";
/// let run = read_trec_run_with(text.as_bytes(), &mut Ids::new(), TrecSyntax::TrecEval)?;
/// assert_eq!((run.len(), run.name()), (2, Some("bm25-final")));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn read_trec_run_with<R: BufRead>(
    reader: R,
    ids: &mut Ids,
    syntax: TrecSyntax,
) -> Result<TrecRun> {
    let mut lines = Lines::new(reader);
    let mut builder: RunBuilder<'_> = TrecRun::line_builder(ids);
    let mut cache = QueryCache::default();
    // The tag of the last line (trec_eval's runid) and its line.
    let mut tag: Vec<u8> = Vec::new();
    let mut tag_line = 0;
    let trec_eval = syntax == TrecSyntax::TrecEval;
    while lines.advance()? {
        let line = lines.line;
        let raw = lines.buf.as_slice();
        if skip(raw) {
            continue;
        }
        let mut fields: [&[u8]; 6] = [&[]; 6];
        let found = split(raw, &mut fields);
        if trec_eval && fields.first().and_then(|f| f.first()) == Some(&b'#') {
            continue;
        }
        if found != 6 && !(trec_eval && found > 6) {
            return Err(RelevanceError::FieldCount {
                line,
                format: RUN_FORMAT,
                expected: 6,
                found,
            });
        }
        let [qf, _, df, _, sf, tf] = fields;
        let score = std::str::from_utf8(sf)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|s| s.is_finite())
            .ok_or_else(|| bad_number(line, "score", "a finite score", sf))?;
        if tag.as_slice() != tf {
            tag.clear();
            tag.extend_from_slice(tf);
            tag_line = line;
        }
        let (qt, dt) = builder.tables();
        let q = cache.intern(qt, qf, line)?;
        let d = dt.intern(q, text(df, line)?)?;
        builder.push_ids(q, d, score, line)?;
    }
    if tag_line > 0 {
        builder.set_name(text(&tag, tag_line)?);
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_c_white_space() {
        let mut out: [&[u8]; 4] = [&[]; 4];
        assert_eq!(split(b" a\tbb \x0b c\r\n", &mut out), 3);
        assert_eq!(out[..3], [&b"a"[..], b"bb", b"c"]);
        assert_eq!(split(b"1 2 3 4 5 6", &mut out), 6);
        assert_eq!(split(b"   \r\n", &mut out), 0);
        assert!(skip(b"  \t\r\n") && skip(b"# c") && !skip(b" # c"));
    }
}
