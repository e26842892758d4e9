//! Parsing a chunk of a TREC file into records (no shared state: any
//! thread parses any chunk).

use super::TrecSyntax;
use super::pipeline::MAX_OFFSET;
use crate::relevance::error::{Location, RelevanceError, Result};
use crate::relevance::intern::{same, tag_of};
use crate::relevance::scan::{find_newline, parse_f64, parse_i32, split, split_line, text};
use std::ops::Range;

pub(super) fn not_utf8(field: &[u8], line: usize) -> Result<&str> {
    text(field).ok_or(RelevanceError::NotUtf8 { line })
}

pub(super) fn bad_number(
    line: usize,
    column: &str,
    expected: &'static str,
    value: &[u8],
) -> RelevanceError {
    RelevanceError::BadNumber {
        at: Location::Line(line),
        column: column.to_owned(),
        expected,
        value: String::from_utf8_lossy(value).chars().take(40).collect(),
    }
}

/// A record of a line: its ids (byte ranges of the block), the document
/// id's hash tag, its value and its line (within the chunk, from 1), in 32
/// bytes for a run and 28 for qrels (the parsing threads write them, the
/// storing thread reads them).
pub(super) struct Record<V> {
    /// The query id's byte range in the block.
    pub(super) query: (u32, u32),
    /// The document id's byte range in the block.
    pub(super) doc: (u32, u32),
    /// The document id's hash tag ([`tag_of`]).
    pub(super) tag: u32,
    /// The line within the chunk (from 1), and in the top bit whether the
    /// query id is that of the chunk's record before (so the storing
    /// thread need not compare it).
    pub(super) line: u32,
    pub(super) value: V,
}

impl<V> Record<V> {
    pub(super) const SAME_QUERY: u32 = 1 << 31;

    /// The record of a line whose ids end before [`MAX_OFFSET`] (checked
    /// by the parsers), on a line of the chunk below 2³¹ (a chunk has at
    /// most one line more than its bytes past [`CHUNK`]).
    #[inline]
    pub(super) fn new(
        query: Range<usize>,
        doc: Range<usize>,
        tag: u32,
        value: V,
        line: usize,
        same_query: bool,
    ) -> Self {
        Self {
            query: (query.start as u32, query.end as u32),
            doc: (doc.start as u32, doc.end as u32),
            tag,
            line: line as u32 | if same_query { Self::SAME_QUERY } else { 0 },
            value,
        }
    }
}

/// Why a line cannot be read, found while parsing (the line within the
/// chunk, from 1).
pub(super) enum Fault {
    /// The line ends past [`MAX_OFFSET`] in its block.
    TooLong {
        length: usize,
    },
    FieldCount {
        line: usize,
        found: usize,
    },
    Blank {
        line: usize,
    },
    BadNumber {
        line: usize,
        value: Range<usize>,
    },
    /// The query id is not UTF-8.
    Query {
        line: usize,
    },
    /// The document id is not UTF-8 (the query id is, and is interned
    /// first, as a line-by-line reading does).
    Doc {
        line: usize,
        query: Range<usize>,
    },
}

/// The run's tag in a chunk: the last line's, and the first line of the
/// chunk's last stretch of lines with that tag (whether it starts at the
/// chunk's first record).
pub(super) struct ChunkTag {
    pub(super) tag: Range<usize>,
    pub(super) line: usize,
    pub(super) from_start: bool,
}

/// A parsed chunk: its records up to the first fault, and its number of
/// lines.
pub(super) struct Parsed<V> {
    pub(super) records: Vec<Record<V>>,
    pub(super) fault: Option<Fault>,
    pub(super) lines: usize,
    pub(super) tag: Option<ChunkTag>,
}

impl<V> Default for Parsed<V> {
    fn default() -> Self {
        Self {
            records: Vec::new(),
            fault: None,
            lines: 0,
            tag: None,
        }
    }
}

impl<V> Parsed<V> {
    pub(super) fn clear(&mut self) {
        self.records.clear();
        self.fault = None;
        self.lines = 0;
        self.tag = None;
    }

    /// Counts the line `raw`, at `at` in a chunk that starts at `offset` of
    /// its block, and gives its number in the chunk and its offset in the
    /// block; `None`, with the fault set, when it ends past [`MAX_OFFSET`].
    #[inline]
    pub(super) fn start_line(
        &mut self,
        raw: &[u8],
        offset: usize,
        at: usize,
    ) -> Option<(usize, usize)> {
        self.lines += 1;
        let base = offset + at;
        if base + raw.len() > MAX_OFFSET {
            self.fault = Some(Fault::TooLong { length: raw.len() });
            return None;
        }
        Some((self.lines, base))
    }

    /// Adds the record of line `line` (`raw`, at `base` in its block),
    /// whose query and document ids are `[query, doc]` and whose value is
    /// read; `previous` is the query id of the record before, and becomes
    /// this one's. `false`, with the fault set, when an id is not UTF-8.
    #[inline]
    pub(super) fn push_line<'a>(
        &mut self,
        raw: &[u8],
        [query, doc]: [&'a [u8]; 2],
        previous: &mut &'a [u8],
        base: usize,
        line: usize,
        value: V,
    ) -> bool {
        if let Some(fault) = check_ids(raw, query, doc, base, line) {
            self.fault = Some(fault);
            return false;
        }
        let same_query = !self.records.is_empty() && same(Some(*previous), query);
        *previous = query;
        self.records.push(Record::new(
            span(raw, query, base),
            span(raw, doc, base),
            tag_of(doc),
            value,
            line,
            same_query,
        ));
        true
    }
}

/// Whether a line is skipped: a comment (first byte `#`), or blank (no
/// field: white space only).
#[inline]
pub(super) fn blank_or_comment(raw: &[u8], fields: usize) -> bool {
    raw.first() == Some(&b'#') || fields == 0
}

/// The lines of `bytes` (a chunk of whole lines; the last may lack its
/// line break), without their line breaks, split into white-space
/// separated fields: each line's offset, bytes, first `N` fields (the
/// others empty) and number of fields. Lines of up to 63 bytes are found
/// and split in one pass ([`split_line`]).
pub(super) fn split_lines<const N: usize>(
    bytes: &[u8],
) -> impl Iterator<Item = (usize, &[u8], [&[u8]; N], usize)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let rest = bytes.get(start..)?;
        if rest.is_empty() {
            return None;
        }
        let mut fields: [&[u8]; N] = [&[]; N];
        let (len, found) = match split_line(rest, &mut fields) {
            Some(line) => line,
            None => {
                let len = find_newline(rest).unwrap_or(rest.len());
                (len, split(rest.get(..len).unwrap_or_default(), &mut fields))
            }
        };
        let at = start;
        start += len + 1;
        Some((at, rest.get(..len).unwrap_or_default(), fields, found))
    })
}

/// The byte range of `field`, a sub-slice of `line`, which starts at
/// `offset` of the block.
#[inline]
pub(super) fn span(line: &[u8], field: &[u8], offset: usize) -> Range<usize> {
    let start = offset + (field.as_ptr() as usize - line.as_ptr() as usize);
    start..start + field.len()
}

/// Parses a chunk of a qrels file starting at `offset` of the block.
pub(super) fn parse_qrels(bytes: &[u8], offset: usize, syntax: TrecSyntax, out: &mut Parsed<i32>) {
    out.clear();
    // The query id of the last record.
    let mut previous: &[u8] = &[];
    for (at, raw, fields, found) in split_lines::<4>(bytes) {
        let Some((line, base)) = out.start_line(raw, offset, at) else {
            return;
        };
        if blank_or_comment(raw, found) {
            if syntax == TrecSyntax::TrecEval && raw.first() != Some(&b'#') {
                out.fault = Some(Fault::Blank { line });
                return;
            }
            continue;
        }
        if found != 4 {
            out.fault = Some(Fault::FieldCount { line, found });
            return;
        }
        let [qf, _, df, rf] = fields;
        let Some(grade) = parse_i32(rf) else {
            out.fault = Some(Fault::BadNumber {
                line,
                value: span(raw, rf, base),
            });
            return;
        };
        if !out.push_line(raw, [qf, df], &mut previous, base, line, grade) {
            return;
        }
    }
}

/// The fault of a line whose query or document id is not UTF-8.
#[inline]
pub(super) fn check_ids(
    raw: &[u8],
    qf: &[u8],
    df: &[u8],
    base: usize,
    line: usize,
) -> Option<Fault> {
    if qf.is_ascii() && df.is_ascii() {
        return None;
    }
    if text(qf).is_none() {
        return Some(Fault::Query { line });
    }
    if text(df).is_none() {
        return Some(Fault::Doc {
            line,
            query: span(raw, qf, base),
        });
    }
    None
}

/// Parses a chunk of a run starting at `offset` of the block.
pub(super) fn parse_run(bytes: &[u8], offset: usize, syntax: TrecSyntax, out: &mut Parsed<f64>) {
    out.clear();
    // The query id of the last record.
    let mut previous: &[u8] = &[];
    let trec_eval = syntax == TrecSyntax::TrecEval;
    let mut tag: Option<ChunkTag> = None;
    let mut tag_bytes: &[u8] = &[];
    for (at, raw, fields, found) in split_lines::<6>(bytes) {
        let Some((line, base)) = out.start_line(raw, offset, at) else {
            return;
        };
        if blank_or_comment(raw, found) {
            continue;
        }
        if trec_eval && fields.first().and_then(|f| f.first()) == Some(&b'#') {
            continue;
        }
        if found != 6 && !(trec_eval && found > 6) {
            out.fault = Some(Fault::FieldCount { line, found });
            return;
        }
        let [qf, _, df, _, sf, tf] = fields;
        let Some(score) = parse_f64(sf).filter(|s| s.is_finite()) else {
            out.fault = Some(Fault::BadNumber {
                line,
                value: span(raw, sf, base),
            });
            return;
        };
        match &mut tag {
            Some(t) if tag_bytes == tf => t.tag = span(raw, tf, base),
            _ => {
                tag = Some(ChunkTag {
                    tag: span(raw, tf, base),
                    line,
                    from_start: out.records.is_empty(),
                });
                tag_bytes = tf;
            }
        }
        if !out.push_line(raw, [qf, df], &mut previous, base, line, score) {
            return;
        }
    }
    out.tag = tag;
}
