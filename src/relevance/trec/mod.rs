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

mod parse;
mod pipeline;
mod store;
#[cfg(test)]
mod tests;

#[cfg(doc)]
use super::error::RelevanceError;
use super::error::Result;
use super::evaluate::TrecEvalVersion;
use super::flat::{Qrels, TrecRun};
use super::intern::Ids;
use parse::{not_utf8, parse_qrels, parse_run};
use pipeline::{Sizes, read_blocks};
use std::io::BufRead;
use store::Cursor;

pub(super) const QRELS_FORMAT: &str = "qid iter docno rel";
pub(super) const RUN_FORMAT: &str = "qid Q0 docno rank score tag";

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
/// past `u32::MAX` lines or ids, and for a line of 4 GiB or more (`"bytes
/// in a line"`).
///
/// # Complexity
/// O(bytes) expected time plus a sort of each query's judgements, parsing
/// on up to [`crate::current_threads`] threads with the same result on any
/// number (see [reading speed and threads](crate::relevance#reading-speed-and-threads));
/// memory about 12 bytes a judgement (plus 8 while reading), the distinct
/// ids and up to three blocks of input (of at most 1 MiB, or one line).
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
    read_qrels(reader, ids, TrecSyntax::Lenient, Sizes::DEFAULT)
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
    read_qrels(reader, ids, syntax, Sizes::DEFAULT)
}

/// Reads a qrels file's lines into a new [`Qrels`] over `ids` (the body of
/// the qrels readers).
fn read_qrels<R: BufRead>(
    reader: R,
    ids: &mut Ids,
    syntax: TrecSyntax,
    sizes: Sizes,
) -> Result<Qrels> {
    let mut builder = Qrels::line_builder(ids);
    let mut cursor = Cursor::new();
    read_blocks(
        reader,
        sizes,
        |bytes, offset, out| parse_qrels(bytes, offset, syntax, out),
        |block, parsed| cursor.store(block, parsed, QRELS_FORMAT, &mut builder),
    )?;
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
/// lines or ids, and for a line of 4 GiB or more (`"bytes in a line"`).
///
/// # Complexity
/// O(bytes) expected time plus a sort of each query's documents, parsing
/// on up to [`crate::current_threads`] threads with the same result on any
/// number (see [reading speed and threads](crate::relevance#reading-speed-and-threads));
/// memory about 12 bytes a line (plus 12 while reading), the distinct ids
/// and up to three blocks of input (of at most 1 MiB, or one line).
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
    read_run(reader, ids, TrecSyntax::Lenient, None, Sizes::DEFAULT)
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
    read_run(reader, ids, syntax, None, Sizes::DEFAULT)
}

/// [`read_trec_run_with`] keeping only the first `max_documents` documents
/// of each query, as `trec_eval -M max_documents` does: in `version`'s
/// rank order (decreasing score, as a C `float` for
/// [`TrecEvalVersion::V9`]; ties by decreasing document id as text). The
/// documents cut off are dropped before the run is checked for a document
/// listed twice, as in `trec_eval`; every line is still read and checked
/// for its syntax, and the run keeps the tag of the file's last line as
/// its name (`trec_eval`'s `runid`). See
/// [`RunBuilder::keep_top`](super::RunBuilder::keep_top).
///
/// # Errors
/// As [`read_trec_run_with`], a document listed twice only when both are
/// kept.
///
/// # Complexity
/// As [`read_trec_run`], plus a sort of the documents of each query that
/// has more than `max_documents`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_run_top, Ids, TrecEvalVersion, TrecSyntax};
/// let text = "q Q0 a 1 0.5 r\nq Q0 b 2 0.9 r\nq Q0 c 3 0.5 r\nq Q0 a 4 0.1 last\n";
/// let mut ids = Ids::new();
/// let run = read_trec_run_top(text.as_bytes(), &mut ids, TrecSyntax::TrecEval, 2, TrecEvalVersion::V10)?;
/// // b (0.9), then c before a at 0.5; the second "a" is cut off, so no duplicate.
/// let q = ids.queries().get("q").ok_or("no q")?;
/// let docs: Vec<_> = run.ranking(q).ok_or("no ranking")?.0.iter().filter_map(|&d| ids.documents().name(d)).collect();
/// assert_eq!((docs, run.name()), (vec!["b", "c"], Some("last")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_trec_run_top<R: BufRead>(
    reader: R,
    ids: &mut Ids,
    syntax: TrecSyntax,
    max_documents: usize,
    version: TrecEvalVersion,
) -> Result<TrecRun> {
    let top = Some((max_documents, version));
    read_run(reader, ids, syntax, top, Sizes::DEFAULT)
}

/// Reads a run's lines into a new [`TrecRun`] over `ids`, keeping the `top`
/// documents of each query in a release's order if given (the body of the
/// run readers).
fn read_run<R: BufRead>(
    reader: R,
    ids: &mut Ids,
    syntax: TrecSyntax,
    top: Option<(usize, TrecEvalVersion)>,
    sizes: Sizes,
) -> Result<TrecRun> {
    let mut builder = TrecRun::line_builder(ids);
    if let Some((max_documents, version)) = top {
        builder.keep_top(max_documents, version);
    }
    let mut cursor = Cursor::new();
    // The tag of the last line (trec_eval's runid) and the first line of
    // the last stretch of lines with that tag.
    let mut tag: Vec<u8> = Vec::new();
    let mut tag_line = 0;
    read_blocks(
        reader,
        sizes,
        |bytes, offset, out| parse_run(bytes, offset, syntax, out),
        |block, parsed| {
            let before = cursor.line;
            cursor.store(block, parsed, RUN_FORMAT, &mut builder)?;
            if let Some(t) = &parsed.tag {
                let bytes = block.get(t.tag.clone()).unwrap_or_default();
                if !t.from_start || tag.as_slice() != bytes {
                    tag.clear();
                    tag.extend_from_slice(bytes);
                    tag_line = before + t.line;
                }
            }
            Ok(())
        },
    )?;
    if tag_line > 0 {
        builder.set_name(not_utf8(&tag, tag_line)?);
    }
    builder.finish()
}

/// The TREC readers with small sizes, for the fuzz targets and tests: not
/// part of the API (hidden from the docs; may change in any release).
#[doc(hidden)]
pub mod fuzzing {
    use super::{
        BufRead, Ids, Qrels, Result, Sizes, TrecEvalVersion, TrecRun, TrecSyntax, read_qrels,
        read_run,
    };

    /// [`read_trec_qrels_with`](super::read_trec_qrels_with) with `sizes`
    /// = (`chunk`, `block`, `parallel_from`): chunks of `chunk` bytes,
    /// blocks of at most `block`, helper threads from `parallel_from` bytes
    /// on; on `threads` threads.
    pub fn read_qrels_sized<R: BufRead>(
        reader: R,
        ids: &mut Ids,
        syntax: TrecSyntax,
        sizes: (usize, usize, usize),
        threads: usize,
    ) -> Result<Qrels> {
        sized(sizes, threads, |sizes| {
            read_qrels(reader, ids, syntax, sizes)
        })
    }

    /// [`read_trec_run_with`](super::read_trec_run_with) (with `top`:
    /// [`read_trec_run_top`](super::read_trec_run_top)) with the sizes and
    /// threads of [`read_qrels_sized`].
    pub fn read_run_sized<R: BufRead>(
        reader: R,
        ids: &mut Ids,
        syntax: TrecSyntax,
        top: Option<(usize, TrecEvalVersion)>,
        sizes: (usize, usize, usize),
        threads: usize,
    ) -> Result<TrecRun> {
        sized(sizes, threads, |sizes| {
            read_run(reader, ids, syntax, top, sizes)
        })
    }

    /// Runs `read` with the (chunk, block, parallel from) sizes on
    /// `threads` threads (at least 1).
    fn sized<T>(
        (chunk, block, parallel_from): (usize, usize, usize),
        threads: usize,
        read: impl FnOnce(Sizes) -> T,
    ) -> T {
        let sizes = Sizes {
            chunk,
            block,
            parallel_from,
        };
        let n = core::num::NonZeroUsize::new(threads).unwrap_or(core::num::NonZeroUsize::MIN);
        crate::with_threads(crate::Threads::Fixed(n), || read(sizes))
    }
}
