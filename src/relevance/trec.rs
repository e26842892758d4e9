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
use super::evaluate::TrecEvalVersion;
use super::flat::{Qrels, QrelsBuilder, RunBuilder, TrecRun};
use super::intern::{Documents, Ids, StringTable, same, tag_of};
use super::scan::{find_newline, parse_f64, parse_i32, split, split_line, text};
use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{
    Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use std::time::{Duration, Instant};

fn not_utf8(field: &[u8], line: usize) -> Result<&str> {
    text(field).ok_or(RelevanceError::NotUtf8 { line })
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
            && same(Some(&self.bytes), field)
        {
            return Ok(id);
        }
        let id = table.intern(not_utf8(field, line)?)?;
        self.bytes.clear();
        self.bytes.extend_from_slice(field);
        self.id = Some(id);
        Ok(id)
    }
}

// ---------------------------------------------------------------------
// The reading machinery.
//
// The input is read in blocks of whole lines. Each block is cut into
// chunks of about `CHUNK` bytes at line ends; a chunk is *parsed* on its own
// (fields split, numbers parsed, ids checked as UTF-8 and hashed: no shared
// state) into records, and the records are then *interned* and stored in
// file order on the caller's thread. So ids are numbered, entries stored
// and the first error found exactly as a line-by-line reading does,
// whatever the number of threads: with two or more, the caller interns the
// current block while helper threads parse the next two.
// ---------------------------------------------------------------------

/// Bytes per chunk: the unit of parsing (records of a chunk stay in cache
/// between parsing and interning on one thread).
const CHUNK: usize = if cfg!(test) { 64 } else { 1 << 16 };

/// Largest block read at once (the first blocks are smaller, so that small
/// inputs allocate little).
const BLOCK: usize = if cfg!(test) { 512 } else { 1 << 20 };

/// Largest end offset of a line in a block: records hold 32-bit offsets
/// (a line of 4 GiB is refused; 4 KiB in the unit tests, so that they
/// reach it).
const MAX_OFFSET: usize = if cfg!(test) {
    1 << 12
} else {
    u32::MAX as usize
};

/// A record of a line: its ids (byte ranges of the block), the document
/// id's hash tag, its value and its line (within the chunk, from 1), in 32
/// bytes for a run and 28 for qrels (the parsing threads write them, the
/// storing thread reads them).
struct Record<V> {
    /// The query id's byte range in the block.
    query: (u32, u32),
    /// The document id's byte range in the block.
    doc: (u32, u32),
    /// The document id's hash tag ([`tag_of`]).
    tag: u32,
    /// The line within the chunk (from 1), and in the top bit whether the
    /// query id is that of the chunk's record before (so the storing
    /// thread need not compare it).
    line: u32,
    value: V,
}

impl<V> Record<V> {
    const SAME_QUERY: u32 = 1 << 31;

    /// The record of a line whose ids end before [`MAX_OFFSET`] (checked
    /// by the parsers), on a line of the chunk below 2³¹ (a chunk has at
    /// most one line more than its bytes past [`CHUNK`]).
    #[inline]
    fn new(
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
enum Fault {
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
struct ChunkTag {
    tag: Range<usize>,
    line: usize,
    from_start: bool,
}

/// A parsed chunk: its records up to the first fault, and its number of
/// lines.
struct Parsed<V> {
    records: Vec<Record<V>>,
    fault: Option<Fault>,
    lines: usize,
    tag: Option<ChunkTag>,
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
    fn clear(&mut self) {
        self.records.clear();
        self.fault = None;
        self.lines = 0;
        self.tag = None;
    }

    /// Whether the line `raw`, at `base` in its block, ends past
    /// [`MAX_OFFSET`]; if so its fault is set.
    #[inline]
    fn too_long(&mut self, raw: &[u8], base: usize) -> bool {
        let long = base + raw.len() > MAX_OFFSET;
        if long {
            self.fault = Some(Fault::TooLong { length: raw.len() });
        }
        long
    }

    /// Adds the record of line `line` (`raw`, at `base` in its block),
    /// whose query and document ids are `[query, doc]` and whose value is
    /// read; `previous` is the query id of the record before, and becomes
    /// this one's. `false`, with the fault set, when an id is not UTF-8.
    #[inline]
    fn push_line<'a>(
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
fn blank_or_comment(raw: &[u8], fields: usize) -> bool {
    raw.first() == Some(&b'#') || fields == 0
}

/// The lines of `bytes` (a chunk of whole lines; the last may lack its
/// line break), without their line breaks, split into white-space
/// separated fields: each line's offset, bytes, first `N` fields (the
/// others empty) and number of fields. Lines of up to 63 bytes are found
/// and split in one pass ([`split_line`]).
fn split_lines<const N: usize>(
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
fn span(line: &[u8], field: &[u8], offset: usize) -> Range<usize> {
    let start = offset + (field.as_ptr() as usize - line.as_ptr() as usize);
    start..start + field.len()
}

/// Parses a chunk of a qrels file starting at `offset` of the block.
fn parse_qrels(bytes: &[u8], offset: usize, syntax: TrecSyntax, out: &mut Parsed<i32>) {
    out.clear();
    // The query id of the last record.
    let mut previous: &[u8] = &[];
    for (at, raw, fields, found) in split_lines::<4>(bytes) {
        out.lines += 1;
        let line = out.lines;
        let base = offset + at;
        if out.too_long(raw, base) {
            return;
        }
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
fn check_ids(raw: &[u8], qf: &[u8], df: &[u8], base: usize, line: usize) -> Option<Fault> {
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
fn parse_run(bytes: &[u8], offset: usize, syntax: TrecSyntax, out: &mut Parsed<f64>) {
    out.clear();
    // The query id of the last record.
    let mut previous: &[u8] = &[];
    let trec_eval = syntax == TrecSyntax::TrecEval;
    let mut tag: Option<ChunkTag> = None;
    let mut tag_bytes: &[u8] = &[];
    for (at, raw, fields, found) in split_lines::<6>(bytes) {
        out.lines += 1;
        let line = out.lines;
        let base = offset + at;
        if out.too_long(raw, base) {
            return;
        }
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

/// Where records are stored: a qrels or run builder.
trait Sink<V> {
    fn tables(&mut self) -> (&mut StringTable, &mut Documents);
    fn push(&mut self, q: u32, d: u32, value: V, line: usize) -> Result<()>;
}

impl Sink<i32> for QrelsBuilder<'_> {
    #[inline]
    fn tables(&mut self) -> (&mut StringTable, &mut Documents) {
        QrelsBuilder::tables(self)
    }
    #[inline]
    fn push(&mut self, q: u32, d: u32, value: i32, line: usize) -> Result<()> {
        self.push_ids(q, d, value, line)
    }
}

impl Sink<f64> for RunBuilder<'_> {
    #[inline]
    fn tables(&mut self) -> (&mut StringTable, &mut Documents) {
        RunBuilder::tables(self)
    }
    #[inline]
    fn push(&mut self, q: u32, d: u32, value: f64, line: usize) -> Result<()> {
        self.push_ids(q, d, value, line)
    }
}

/// Where a reading stands: the lines of the chunks stored so far, and the
/// query cache.
struct Cursor {
    line: usize,
    cache: QueryCache,
}

impl Cursor {
    fn new() -> Self {
        Self {
            line: 0,
            cache: QueryCache::default(),
        }
    }

    /// Interns and stores the records of a chunk (in `block`), then reports
    /// its fault as the line-by-line reading does, or moves past its lines.
    fn store<V: Copy, S: Sink<V>>(
        &mut self,
        block: &[u8],
        parsed: &Parsed<V>,
        format: &'static str,
        sink: &mut S,
    ) -> Result<()> {
        let field = |r: (u32, u32)| block.get(r.0 as usize..r.1 as usize).unwrap_or(&[]);
        for r in &parsed.records {
            let line = self.line + (r.line & !Record::<V>::SAME_QUERY) as usize;
            let (qt, dt) = sink.tables();
            let q = match self.cache.id {
                // The cache holds the query of the record before.
                Some(id) if r.line & Record::<V>::SAME_QUERY != 0 => id,
                _ => {
                    let before = self.cache.id;
                    let q = self.cache.intern(qt, field(r.query), line)?;
                    // A new query (not the same one at a chunk's start).
                    if before != Some(q) {
                        dt.warm(q);
                    }
                    q
                }
            };
            // Checked as UTF-8 by the parser.
            let d = dt.intern_tagged(q, field(r.doc), r.tag)?;
            sink.push(q, d, r.value, line)?;
        }
        if let Some(fault) = &parsed.fault {
            let (qt, _) = sink.tables();
            return Err(self.fault(block, fault, format, qt));
        }
        self.line += parsed.lines;
        Ok(())
    }

    #[cold]
    fn fault(
        &mut self,
        block: &[u8],
        fault: &Fault,
        format: &'static str,
        queries: &mut StringTable,
    ) -> RelevanceError {
        let field = |r: &Range<usize>| block.get(r.clone()).unwrap_or(&[]);
        match *fault {
            Fault::TooLong { length } => RelevanceError::TooLarge {
                quantity: "bytes in a line",
                requested: length as u64,
                limit: MAX_OFFSET as u64,
            },
            Fault::FieldCount { line, found } => RelevanceError::FieldCount {
                line: self.line + line,
                format,
                expected: if format == RUN_FORMAT { 6 } else { 4 },
                found,
            },
            Fault::Blank { line } => RelevanceError::BlankLine {
                line: self.line + line,
                column: 1,
                format,
            },
            Fault::BadNumber { line, ref value } => {
                let (column, expected) = if format == RUN_FORMAT {
                    ("score", "a finite score")
                } else {
                    ("rel", "an integer grade")
                };
                bad_number(self.line + line, column, expected, field(value))
            }
            Fault::Query { line } => RelevanceError::NotUtf8 {
                line: self.line + line,
            },
            Fault::Doc { line, ref query } => {
                let line = self.line + line;
                match self.cache.intern(queries, field(query), line) {
                    Err(e) => e,
                    Ok(_) => RelevanceError::NotUtf8 { line },
                }
            }
        }
    }
}

/// A block of the input: `bytes[..complete]` whole lines (the last one
/// maybe without its line break at the end of the input), then up to `len`
/// the start of the next line. `bytes` beyond `len` is spare room, kept
/// between blocks so that it is allocated and zeroed once.
#[derive(Default)]
struct Block {
    bytes: Vec<u8>,
    len: usize,
    complete: usize,
}

impl Block {
    fn lines(&self) -> &[u8] {
        self.bytes.get(..self.complete).unwrap_or_default()
    }

    fn rest(&self) -> &[u8] {
        self.bytes.get(self.complete..self.len).unwrap_or_default()
    }
}

/// Reads the input in blocks of whole lines.
struct Blocks<R> {
    reader: R,
    /// The size of the next block.
    size: usize,
    first: bool,
    done: bool,
    /// The I/O error that ended the input, reported after its whole lines.
    error: Option<ErrorKind>,
}

impl<R: BufRead> Blocks<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            size: CHUNK,
            first: true,
            done: false,
            error: None,
        }
    }

    /// Fills `block` with `carry` (the start of a line, left over from the
    /// previous block) and the next bytes of the input: at least one whole
    /// line unless the input ends.
    fn fill(&mut self, block: &mut Block, carry: &[u8]) {
        if block.bytes.len() < carry.len() {
            block.bytes.resize(carry.len(), 0);
        }
        if let Some(dst) = block.bytes.get_mut(..carry.len()) {
            dst.copy_from_slice(carry);
        }
        block.len = carry.len();
        // No line break in `carry`.
        let mut searched = carry.len();
        while !self.done {
            let filled = block.len;
            if filled >= self.size {
                if block
                    .bytes
                    .get(searched..filled)
                    .is_some_and(|b| memchr::memchr(b'\n', b).is_some())
                {
                    break;
                }
                searched = filled;
            }
            let want = self.size.max(filled + CHUNK);
            if block.bytes.len() < want {
                block.bytes.resize(want, 0);
            }
            match self
                .reader
                .read(block.bytes.get_mut(filled..want).unwrap_or_default())
            {
                Ok(0) => self.done = true,
                Ok(n) => block.len = filled + n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    self.error = Some(e.kind());
                }
            }
        }
        let data = block.bytes.get(..block.len).unwrap_or_default();
        let mut start = 0;
        if self.first {
            self.first = false;
            if data.starts_with(b"\xEF\xBB\xBF") {
                start = 3;
            }
        }
        if start > 0 {
            block.bytes.copy_within(start..block.len, 0);
            block.len -= start;
            if block.len == 0 && self.done && self.error.is_none() {
                // A byte-order mark alone is a line, blank.
                block.bytes.resize(block.bytes.len().max(1), 0);
                if let Some(b) = block.bytes.first_mut() {
                    *b = b'\n';
                }
                block.len = 1;
            }
        }
        let data = block.bytes.get(..block.len).unwrap_or_default();
        // At the end of the input the last line may lack its line break;
        // after an I/O error a line without one is not whole.
        block.complete = if self.done && self.error.is_none() {
            data.len()
        } else {
            memchr::memrchr(b'\n', data).map_or(0, |p| p + 1)
        };
        if !self.done {
            self.size = (self.size * 2).min(BLOCK);
        }
    }
}

/// How long an idle thread of [`Crew`] spins before it sleeps: waking a
/// sleeping core costs tens of microseconds (about 50 on a 2-core virtual
/// machine), as much as parsing a tenth of a block.
const SPIN: Duration = Duration::from_micros(200);

/// The chunks of the blocks being parsed (see [`Crew`]).
struct Board<V> {
    /// Chunks not yet claimed, in the order they are to be parsed (the
    /// blocks in order, each block's chunks in order): the ring slot of
    /// their block, their index in it, their byte range, and a records
    /// buffer to parse into.
    todo: VecDeque<(usize, usize, Range<usize>, Parsed<V>)>,
    /// Chunks parsed: ring slot, index (in any order).
    done: Vec<(usize, usize, Parsed<V>)>,
    /// Set when the reading ends or fails: the helpers return.
    stop: bool,
    /// A helper's panic, raised again on the caller's thread.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

/// Helper threads that parse the chunks of the blocks [`read_blocks`]
/// posts, kept for the whole reading: starting a thread for each block cost
/// about 70 µs a block on the caller's thread (the critical one) and as
/// much again before the thread ran. Up to two blocks are posted at once,
/// so that a helper done with one block's chunks goes on to the next one's
/// while the caller stores. An idle helper spins for [`SPIN`] before it
/// sleeps. Which thread parses a chunk never changes a result: each chunk
/// is parsed on its own, and the results are put back in order.
struct Crew<V> {
    board: Mutex<Board<V>>,
    /// Helpers wait here for chunks (or the stop).
    posted: Condvar,
    /// The caller waits here for the last chunk of a block.
    finished: Condvar,
    /// Chunks posted and not yet parsed, by ring slot (changed under the
    /// lock).
    pending: [AtomicUsize; 3],
    /// Incremented at each posting and at the stop, so that helpers can
    /// spin on it without the lock.
    generation: AtomicUsize,
}

/// Sets [`Board::stop`] when dropped.
struct StopOnDrop<'a, V>(&'a Crew<V>);

impl<V> Drop for StopOnDrop<'_, V> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.generation.fetch_add(1, Ordering::Release);
        self.0.posted.notify_all();
    }
}

fn read(block: &RwLock<Block>) -> RwLockReadGuard<'_, Block> {
    block.read().unwrap_or_else(PoisonError::into_inner)
}

fn write(block: &RwLock<Block>) -> RwLockWriteGuard<'_, Block> {
    block.write().unwrap_or_else(PoisonError::into_inner)
}

impl<V> Crew<V> {
    fn new() -> Self {
        Self {
            board: Mutex::new(Board {
                todo: VecDeque::new(),
                done: Vec::new(),
                stop: false,
                panic: None,
            }),
            posted: Condvar::new(),
            finished: Condvar::new(),
            pending: Default::default(),
            generation: AtomicUsize::new(0),
        }
    }

    /// The board; a panic while it was locked (none is expected: no
    /// parsing or storing happens under the lock) leaves it consistent.
    fn lock(&self) -> MutexGuard<'_, Board<V>> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The chunks posted and not yet parsed of ring slot `block`.
    fn pending(&self, block: usize) -> usize {
        self.pending
            .get(block)
            .map_or(0, |p| p.load(Ordering::Acquire))
    }

    /// Posts the chunks of the block in ring slot `block` (after those
    /// posted before), reusing the records buffers of `pool`.
    fn post(&self, ring: &[RwLock<Block>; 3], block: usize, pool: Vec<Parsed<V>>) {
        let ranges = chunks(read(&ring[block]).lines());
        let mut pool = pool.into_iter();
        let mut board = self.lock();
        let count = ranges.len();
        board.todo.extend(
            ranges
                .into_iter()
                .enumerate()
                .map(|(i, r)| (block, i, r, pool.next().unwrap_or_default())),
        );
        if let Some(p) = self.pending.get(block) {
            p.fetch_add(count, Ordering::AcqRel);
        }
        self.generation.fetch_add(1, Ordering::Release);
        drop(board);
        self.posted.notify_all();
    }

    /// Parses the first chunk not yet claimed (if `only` is set, only if it
    /// is one of that ring slot's block); whether it did.
    fn parse_one(
        &self,
        ring: &[RwLock<Block>; 3],
        only: Option<usize>,
        parse: &impl Fn(&[u8], usize, &mut Parsed<V>),
    ) -> bool {
        let (block, i, range, mut parsed) = {
            let mut board = self.lock();
            match board.todo.front() {
                Some(job) if only.is_none_or(|b| b == job.0) => {}
                _ => return false,
            }
            match board.todo.pop_front() {
                Some(job) => job,
                None => return false,
            }
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let bytes = read(&ring[block]);
            parse(
                bytes.bytes.get(range.clone()).unwrap_or_default(),
                range.start,
                &mut parsed,
            );
        }));
        let mut board = self.lock();
        match outcome {
            Ok(()) => board.done.push((block, i, parsed)),
            Err(panic) => {
                board.panic.get_or_insert(panic);
                board.stop = true;
                self.posted.notify_all();
            }
        }
        let last = self
            .pending
            .get(block)
            .is_some_and(|p| p.fetch_sub(1, Ordering::AcqRel) == 1);
        if last || board.stop {
            self.finished.notify_all();
        }
        true
    }

    /// A helper thread's loop: parses posted chunks until the stop.
    fn help_until_stopped(
        &self,
        ring: &[RwLock<Block>; 3],
        parse: &impl Fn(&[u8], usize, &mut Parsed<V>),
    ) {
        loop {
            let seen = self.generation.load(Ordering::Acquire);
            while self.parse_one(ring, None, parse) {}
            // Idle: spin a while, then sleep until chunks (or the stop)
            // are posted.
            let start = Instant::now();
            while self.generation.load(Ordering::Acquire) == seen && start.elapsed() < SPIN {
                std::hint::spin_loop();
            }
            let board = self.lock();
            let board = self
                .posted
                .wait_while(board, |b| b.todo.is_empty() && !b.stop)
                .unwrap_or_else(PoisonError::into_inner);
            if board.stop {
                return;
            }
        }
    }

    /// Parses the chunks of the block in ring slot `block` the helpers have
    /// not claimed, waits for theirs, and returns every chunk's records in
    /// order; raises a helper's panic.
    fn finish(
        &self,
        ring: &[RwLock<Block>; 3],
        block: usize,
        parse: &impl Fn(&[u8], usize, &mut Parsed<V>),
    ) -> Vec<Parsed<V>> {
        while self.parse_one(ring, Some(block), parse) {}
        let start = Instant::now();
        while self.pending(block) > 0 && start.elapsed() < SPIN {
            std::hint::spin_loop();
        }
        let board = self.lock();
        let mut board = self
            .finished
            .wait_while(board, |b| self.pending(block) > 0 && b.panic.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(panic) = board.panic.take() {
            drop(board);
            std::panic::resume_unwind(panic);
        }
        let mut done: Vec<_> = board.done.extract_if(.., |d| d.0 == block).collect();
        drop(board);
        done.sort_unstable_by_key(|d| d.1);
        done.into_iter().map(|d| d.2).collect()
    }

    /// [`Crew::post`] then [`Crew::finish`]: the first block, with nothing
    /// to do meanwhile.
    fn parse_all(
        &self,
        ring: &[RwLock<Block>; 3],
        block: usize,
        pool: Vec<Parsed<V>>,
        parse: &impl Fn(&[u8], usize, &mut Parsed<V>),
    ) -> Vec<Parsed<V>> {
        self.post(ring, block, pool);
        self.finish(ring, block, parse)
    }
}

/// Reads `reader` with `parse` (which fills a [`Parsed`] from a chunk and
/// its offset in the block) and `store`, on up to the crate's number of
/// threads ([`crate::current_threads`]).
fn read_blocks<R: BufRead, V: Copy + Send + Sync>(
    reader: R,
    parse: impl Fn(&[u8], usize, &mut Parsed<V>) + Sync,
    mut store: impl FnMut(&[u8], &Parsed<V>) -> Result<()> + Send,
) -> Result<()> {
    let workers = crate::current_threads().count().max(1);
    let mut blocks = Blocks::new(reader);
    let mut lines = 0;
    let mut store_all = |block: &Block, parsed: &[Parsed<V>]| -> Result<()> {
        for p in parsed {
            store(&block.bytes, p)?;
            lines += p.lines;
        }
        Ok(())
    };
    if workers == 1 {
        let (mut current, mut next) = (Block::default(), Block::default());
        blocks.fill(&mut current, &[]);
        let mut parsed = Parsed::default();
        loop {
            let bytes = current.lines();
            for r in chunks(bytes) {
                parse(
                    bytes.get(r.clone()).unwrap_or_default(),
                    r.start,
                    &mut parsed,
                );
                store_all(&current, std::slice::from_ref(&parsed))?;
            }
            if blocks.done {
                break;
            }
            blocks.fill(&mut next, current.rest());
            std::mem::swap(&mut current, &mut next);
        }
    } else {
        // Three blocks in flight: the caller stores block k (so that the
        // growing tables are allocated by one thread, from one heap) while
        // helper threads parse the chunks of blocks k + 1 and k + 2, which
        // the caller has read and posted (the reader stays on its thread:
        // it need not be `Send`); the caller then takes its share of the
        // chunks of block k + 1 left. The helpers live as long as the
        // reading (see [`Crew`]).
        let ring: [RwLock<Block>; 3] = Default::default();
        let crew = Crew::new();
        let parse = &parse;
        std::thread::scope(|scope| -> Result<()> {
            // Stops the helpers however this scope is left (an error, a
            // panic), before the scope waits for them.
            let _stop = StopOnDrop(&crew);
            for _ in 1..workers {
                let (crew, ring) = (&crew, &ring);
                if std::thread::Builder::new()
                    .spawn_scoped(scope, move || crew.help_until_stopped(ring, parse))
                    .is_err()
                {
                    // No thread: the caller parses every chunk.
                    break;
                }
            }
            let (mut cur, mut nxt, mut thd) = (0, 1, 2);
            blocks.fill(&mut write(&ring[cur]), &[]);
            let mut parsed = crew.parse_all(&ring, cur, Vec::new(), parse);
            let mut have_next = !blocks.done;
            if have_next {
                let carry = read(&ring[cur]);
                blocks.fill(&mut write(&ring[nxt]), carry.rest());
                drop(carry);
                crew.post(&ring, nxt, Vec::new());
            }
            let mut spare: Vec<Parsed<V>> = Vec::new();
            loop {
                if !have_next {
                    return store_all(&read(&ring[cur]), &parsed);
                }
                let more = !blocks.done;
                if more {
                    // The third block is the one stored last: every chunk
                    // of it was parsed before it was stored.
                    let carry = read(&ring[nxt]);
                    blocks.fill(&mut write(&ring[thd]), carry.rest());
                    drop(carry);
                    crew.post(&ring, thd, std::mem::take(&mut spare));
                }
                store_all(&read(&ring[cur]), &parsed)?;
                let parsed_next = crew.finish(&ring, nxt, parse);
                spare = std::mem::replace(&mut parsed, parsed_next);
                // current ← next ← third ← (the stored block, reused).
                (cur, nxt, thd) = (nxt, thd, cur);
                have_next = more;
            }
        })?;
    }
    if let Some(kind) = blocks.error {
        return Err(RelevanceError::Io {
            line: lines + 1,
            kind,
        });
    }
    Ok(())
}

/// `bytes` (whole lines) cut at line ends into ranges of about [`CHUNK`]
/// bytes.
fn chunks(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(bytes.len() / CHUNK + 1);
    let mut start = 0;
    while start < bytes.len() {
        let probe = start + CHUNK;
        let end = if probe >= bytes.len() {
            bytes.len()
        } else {
            bytes
                .get(probe..)
                .and_then(|b| memchr::memchr(b'\n', b))
                .map_or(bytes.len(), |p| probe + p + 1)
        };
        out.push(start..end);
        start = end;
    }
    out
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
    let mut builder: QrelsBuilder<'_> = Qrels::line_builder(ids);
    let mut cursor = Cursor::new();
    read_blocks(
        reader,
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
    read_run(reader, TrecRun::line_builder(ids), syntax)
}

/// [`read_trec_run_with`] keeping only the first `max_documents` documents
/// of each query, as `trec_eval -M max_documents` does: in `version`'s
/// rank order (decreasing score, as a C `float` for
/// [`TrecEvalVersion::V9`]; ties by decreasing document id as text). The
/// documents cut off are dropped before the run is checked for a document
/// listed twice, as in `trec_eval`; every line is still read and checked
/// for its syntax, and the run keeps the tag of the file's last line as
/// its name (`trec_eval`'s `runid`). See [`RunBuilder::keep_top`].
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
    let mut builder = TrecRun::line_builder(ids);
    builder.keep_top(max_documents, version);
    read_run(reader, builder, syntax)
}

/// Reads a run's lines into `builder` (the body of the run readers).
fn read_run<R: BufRead>(
    reader: R,
    mut builder: RunBuilder<'_>,
    syntax: TrecSyntax,
) -> Result<TrecRun> {
    let mut cursor = Cursor::new();
    // The tag of the last line (trec_eval's runid) and the first line of
    // the last stretch of lines with that tag.
    let mut tag: Vec<u8> = Vec::new();
    let mut tag_line = 0;
    read_blocks(
        reader,
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

#[cfg(test)]
mod tests {
    //! The readers against the line-by-line readers they replace (kept here
    //! as the oracle), with chunks of 64 bytes and blocks of at most 512 (so
    //! that small inputs cross many), on 1, 2 and 3 threads, from readers
    //! that hand out a few bytes at a time and may fail.
    use super::*;
    use crate::{Threads, with_threads};
    use proptest::prelude::*;
    use std::io::Read;
    use std::num::NonZeroUsize;

    /// Physical lines of a byte stream, numbered from 1 (the old reader).
    struct Lines<R> {
        reader: R,
        buf: Vec<u8>,
        line: usize,
    }

    impl<R: BufRead> Lines<R> {
        fn advance(&mut self) -> Result<bool> {
            self.buf.clear();
            let n =
                self.reader
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

    /// The first (query, document) given twice: (its line, the first line).
    fn duplicate(seen: &[(Vec<u8>, Vec<u8>, usize)]) -> Option<(usize, usize, String, String)> {
        for (i, (q, d, line)) in seen.iter().enumerate() {
            if let Some(first) = seen[..i].iter().find(|x| &x.0 == q && &x.1 == d) {
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                return Some((*line, first.2, text(q), text(d)));
            }
        }
        None
    }

    /// The old qrels reader, and the records it stored.
    fn oracle_qrels<R: BufRead>(
        reader: R,
        ids: &mut Ids,
        syntax: TrecSyntax,
        seen: &mut Vec<(Vec<u8>, Vec<u8>, usize)>,
    ) -> Result<Qrels> {
        let mut lines = Lines {
            reader,
            buf: Vec::new(),
            line: 0,
        };
        let mut builder = Qrels::line_builder(ids);
        while lines.advance()? {
            let line = lines.line;
            let raw = lines.buf.as_slice();
            if raw.first() == Some(&b'#') || raw.iter().all(|b| b" \t\n\r\x0b\x0c".contains(b)) {
                if syntax == TrecSyntax::TrecEval && raw.first() != Some(&b'#') {
                    return Err(RelevanceError::BlankLine {
                        line,
                        column: 1,
                        format: QRELS_FORMAT,
                    });
                }
                continue;
            }
            let fields: Vec<&[u8]> = raw
                .split(|b| b" \t\n\r\x0b\x0c".contains(b))
                .filter(|f| !f.is_empty())
                .collect();
            if fields.len() != 4 {
                return Err(RelevanceError::FieldCount {
                    line,
                    format: QRELS_FORMAT,
                    expected: 4,
                    found: fields.len(),
                });
            }
            let (qf, df, rf) = (fields[0], fields[2], fields[3]);
            let grade = std::str::from_utf8(rf)
                .ok()
                .and_then(|t| t.parse::<i32>().ok())
                .ok_or_else(|| bad_number(line, "rel", "an integer grade", rf))?;
            let (qt, dt) = builder.tables();
            let q = qt.intern(not_utf8(qf, line)?)?;
            let d = dt.intern(q, not_utf8(df, line)?)?;
            seen.push((qf.to_vec(), df.to_vec(), line));
            builder.push_ids(q, d, grade, line)?;
        }
        builder.finish()
    }

    /// The old run reader, and the records it stored.
    fn oracle_run<R: BufRead>(
        reader: R,
        ids: &mut Ids,
        syntax: TrecSyntax,
        seen: &mut Vec<(Vec<u8>, Vec<u8>, usize)>,
    ) -> Result<TrecRun> {
        let mut lines = Lines {
            reader,
            buf: Vec::new(),
            line: 0,
        };
        let mut builder = TrecRun::line_builder(ids);
        let mut tag: Vec<u8> = Vec::new();
        let mut tag_line = 0;
        let trec_eval = syntax == TrecSyntax::TrecEval;
        while lines.advance()? {
            let line = lines.line;
            let raw = lines.buf.as_slice();
            if raw.first() == Some(&b'#') || raw.iter().all(|b| b" \t\n\r\x0b\x0c".contains(b)) {
                continue;
            }
            let fields: Vec<&[u8]> = raw
                .split(|b| b" \t\n\r\x0b\x0c".contains(b))
                .filter(|f| !f.is_empty())
                .collect();
            if trec_eval && fields[0].first() == Some(&b'#') {
                continue;
            }
            let found = fields.len();
            if found != 6 && !(trec_eval && found > 6) {
                return Err(RelevanceError::FieldCount {
                    line,
                    format: RUN_FORMAT,
                    expected: 6,
                    found,
                });
            }
            let (qf, df, sf, tf) = (fields[0], fields[2], fields[4], fields[5]);
            let score = std::str::from_utf8(sf)
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|s| s.is_finite())
                .ok_or_else(|| bad_number(line, "score", "a finite score", sf))?;
            if tag.as_slice() != tf {
                tag = tf.to_vec();
                tag_line = line;
            }
            let (qt, dt) = builder.tables();
            let q = qt.intern(not_utf8(qf, line)?)?;
            let d = dt.intern(q, not_utf8(df, line)?)?;
            seen.push((qf.to_vec(), df.to_vec(), line));
            builder.push_ids(q, d, score, line)?;
        }
        if tag_line > 0 {
            builder.set_name(not_utf8(&tag, tag_line)?);
        }
        builder.finish()
    }

    /// A reader handing out `data` in pieces of the given sizes (cycled),
    /// failing at byte `fail` if given.
    struct Pieces<'a> {
        data: &'a [u8],
        at: usize,
        sizes: Vec<usize>,
        next: usize,
        fail: Option<usize>,
    }

    impl<'a> Pieces<'a> {
        fn new(data: &'a [u8], sizes: &[usize], fail: Option<usize>) -> Self {
            Self {
                data,
                at: 0,
                sizes: sizes.iter().map(|&s| s.max(1)).collect(),
                next: 0,
                fail,
            }
        }

        fn piece(&mut self) -> std::io::Result<&'a [u8]> {
            if self.fail.is_some_and(|f| self.at >= f) {
                return Err(std::io::Error::new(ErrorKind::InvalidData, "broken"));
            }
            let size = self.sizes[self.next % self.sizes.len()];
            let end = (self.at + size)
                .min(self.data.len())
                .min(self.fail.unwrap_or(usize::MAX).max(self.at + 1));
            Ok(&self.data[self.at.min(self.data.len())..end.max(self.at.min(self.data.len()))])
        }
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let piece = self.piece()?;
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            self.at += n;
            self.next += 1;
            Ok(n)
        }
    }

    impl BufRead for Pieces<'_> {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            self.piece()
        }
        fn consume(&mut self, n: usize) {
            self.at += n;
            self.next += 1;
        }
    }

    /// Everything a reading gives, by names: the query and document tables
    /// in id order, and each query's entries.
    fn qrels_digest(r: &Result<Qrels>, ids: &Ids) -> String {
        match r {
            Err(e) => format!("error {e:?}"),
            Ok(q) => {
                let docs: Vec<_> = (0..ids.documents().len() as u32)
                    .map(|d| (ids.documents().name(d), ids.documents().query(d)))
                    .collect();
                let rows: Vec<_> = q.queries().iter().map(|&x| (x, q.judgements(x))).collect();
                format!(
                    "{:?} {docs:?} {rows:?}",
                    ids.queries().iter().collect::<Vec<_>>()
                )
            }
        }
    }

    fn run_digest(r: &Result<TrecRun>, ids: &Ids) -> String {
        match r {
            Err(e) => format!("error {e:?}"),
            Ok(run) => {
                let docs: Vec<_> = (0..ids.documents().len() as u32)
                    .map(|d| (ids.documents().name(d), ids.documents().query(d)))
                    .collect();
                let rows: Vec<_> = run
                    .queries()
                    .iter()
                    .map(|&x| {
                        let (d, s) = run.ranking(x).unwrap_or_default();
                        (x, d, s.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
                    })
                    .collect();
                let patches: Vec<_> = (0..run.queries().len())
                    .map(|r| run.float_patches(r).collect::<Vec<_>>())
                    .collect();
                format!(
                    "{:?} {docs:?} {rows:?} {patches:?} {:?}",
                    ids.queries().iter().collect::<Vec<_>>(),
                    run.name()
                )
            }
        }
    }

    /// Checks the oracle's duplicate against the brute force one.
    fn check_duplicate<T>(r: &Result<T>, seen: &[(Vec<u8>, Vec<u8>, usize)]) {
        let want = duplicate(seen);
        match r {
            Err(
                RelevanceError::DuplicateQrel {
                    at,
                    first,
                    query,
                    document,
                }
                | RelevanceError::DuplicateScore {
                    at,
                    first,
                    query,
                    document,
                },
            ) => assert_eq!(
                Some((*at, *first, query.clone(), document.clone())),
                want.map(|(a, f, q, d)| (Location::Line(a), Location::Line(f), q, d))
            ),
            Ok(_) => assert_eq!(want, None),
            Err(_) => {}
        }
    }

    fn threads(n: usize) -> Threads {
        Threads::Fixed(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
    }

    fn field(pieces: &[&'static str]) -> impl Strategy<Value = &'static str> + use<> {
        proptest::sample::select(pieces.to_vec())
    }

    fn sep() -> impl Strategy<Value = &'static str> {
        field(&[" ", " ", " ", "\t", "  ", " \x0b", "\x0c"])
    }

    fn qrels_line() -> impl Strategy<Value = String> {
        prop_oneof![
            12 => (field(&["q1", "q2", "q3", "é", "q\u{a0}"]), sep(), field(&["0", "Q0"]), sep(),
                   field(&["d1", "d2", "d3", "d4", "d5", "DOC0000001x", "d1"]), sep(),
                   field(&["0", "1", "2", "-1", "+3", "0", "1"]), field(&["", "", " ", "\r"]))
                .prop_map(|(q, a, i, b, d, c, g, e)| format!("{q}{a}{i}{b}{d}{c}{g}{e}")),
            1 => field(&["", " ", "\t\r", "# comment", " # indented", "q1 0 d1", "q1 0 d1 1 x",
                         "q1 0 d1 1.5", "q1 0 d1 x", "q1 0 d1 99999999999", "\u{feff}q1 0 d9 1"])
                .prop_map(str::to_owned),
        ]
    }

    fn run_line() -> impl Strategy<Value = String> {
        prop_oneof![
            12 => (field(&["q1", "q2", "q3", "é"]), sep(), field(&["Q0"]), sep(),
                   field(&["d1", "d2", "d3", "d4", "d5", "d6", "DOC0000001x"]), sep(),
                   field(&["1", "2"]), sep(),
                   field(&["0.5", "1", "-1.5e-3", "3.1860", "0.30000000000000004", "0.3", "-0",
                           "1e-320", "2", "0.5", "16777217", "16777216"]),
                   sep(), field(&["t", "t", "u", "b\u{1}", "b\u{1}"]), field(&["", "", " x", "\r"]))
                .prop_map(|(q, a, z, b, d, c, r, e, s, f, t, g)| {
                    format!("{q}{a}{z}{b}{d}{c}{r}{e}{s}{f}{t}{g}")
                }),
            1 => field(&["", " ", "# c", " # x y z a b", "#q Q0 d 1 1 t", "q1 Q0 d1 1 0.5",
                         "q1 Q0 d1 1 NaN t", "q1 Q0 d1 1 inf t", "q1 Q0 d1 1 abc t"])
                .prop_map(str::to_owned),
        ]
    }

    /// A file of `lines`, with non-UTF-8 bytes spliced in where asked, a
    /// byte-order mark, and maybe no final line break.
    fn file(lines: &[String], bom: bool, last_break: bool, bad: &[(usize, usize)]) -> Vec<u8> {
        let mut out = Vec::new();
        if bom {
            out.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for (i, l) in lines.iter().enumerate() {
            // U+0001 stands for a byte that is not UTF-8.
            let mut bytes: Vec<u8> = l.bytes().map(|b| if b == 1 { 0xff } else { b }).collect();
            for &(line, at) in bad {
                if line == i {
                    bytes.insert(at % (bytes.len() + 1), 0xff);
                }
            }
            out.extend_from_slice(&bytes);
            if i + 1 < lines.len() || last_break {
                out.push(b'\n');
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn qrels_read_as_the_line_by_line_reader_does(
            lines in proptest::collection::vec(qrels_line(), 0..120),
            bom in any::<bool>(),
            last_break in any::<bool>(),
            bad in proptest::collection::vec((0_usize..150, 0_usize..40), 0..3),
            sizes in proptest::collection::vec(1_usize..300, 1..4),
            fail in proptest::option::weighted(0.2, 0_usize..4000),
            strict in any::<bool>(),
        ) {
            let syntax = if strict { TrecSyntax::TrecEval } else { TrecSyntax::Lenient };
            let data = file(&lines, bom, last_break, &bad);
            let mut ids = Ids::new();
            let mut seen = Vec::new();
            let want = oracle_qrels(Pieces::new(&data, &sizes, fail), &mut ids, syntax, &mut seen);
            check_duplicate(&want, &seen);
            let want = qrels_digest(&want, &ids);
            for n in [1, 2, 3] {
                let mut ids = Ids::new();
                let got = with_threads(threads(n), || {
                    read_trec_qrels_with(Pieces::new(&data, &sizes, fail), &mut ids, syntax)
                });
                prop_assert_eq!(&qrels_digest(&got, &ids), &want, "{} threads", n);
            }
        }

        /// Files without a pair judged twice (the other proptest's long files
        /// almost all end in `DuplicateQrel`), grouped by query or not,
        /// read into new ids or into ids that already hold some of their
        /// queries and documents: the same ids, names and judgements as
        /// the line-by-line reader on any number of threads.
        #[test]
        fn qrels_of_distinct_pairs_read_as_the_line_by_line_reader_does(
            pairs in proptest::collection::btree_map((0_u8..6, 0_u16..60), -1_i32..3, 0..200),
            order in proptest::collection::vec(any::<proptest::sample::Index>(), 0..200),
            grouped in any::<bool>(),
            known in any::<bool>(),
            sizes in proptest::collection::vec(1_usize..300, 1..4),
        ) {
            let mut lines: Vec<String> = pairs
                .iter()
                .map(|(&(q, d), &g)| format!("q{q} 0 d{d} {g}"))
                .collect();
            if !grouped {
                for (i, k) in order.iter().enumerate().take(lines.len()) {
                    let j = k.index(lines.len());
                    lines.swap(i, j);
                }
            }
            let data = file(&lines, false, true, &[]);
            // q1's d3 may be judged again by the file (its id is then
            // reused); d70 never is (documents are d0–d59).
            let before = "q1 0 d3 1\nq4 0 d70 0\n";
            let fresh = || -> std::result::Result<Ids, TestCaseError> {
                let mut ids = Ids::new();
                if known {
                    prop_assert!(read_trec_qrels(before.as_bytes(), &mut ids).is_ok());
                }
                Ok(ids)
            };
            let mut ids = fresh()?;
            let mut seen = Vec::new();
            let want = oracle_qrels(Pieces::new(&data, &sizes, None), &mut ids, TrecSyntax::Lenient, &mut seen);
            prop_assert!(want.is_ok());
            let want = qrels_digest(&want, &ids);
            for n in [1, 2, 3] {
                let mut ids = fresh()?;
                let got = with_threads(threads(n), || {
                    read_trec_qrels(Pieces::new(&data, &sizes, None), &mut ids)
                });
                prop_assert_eq!(&qrels_digest(&got, &ids), &want, "{} threads", n);
            }
        }

        #[test]
        fn runs_read_as_the_line_by_line_reader_does(
            lines in proptest::collection::vec(run_line(), 0..120),
            bom in any::<bool>(),
            last_break in any::<bool>(),
            bad in proptest::collection::vec((0_usize..150, 0_usize..40), 0..3),
            sizes in proptest::collection::vec(1_usize..300, 1..4),
            fail in proptest::option::weighted(0.2, 0_usize..6000),
            strict in any::<bool>(),
            qrels_first in any::<bool>(),
        ) {
            let syntax = if strict { TrecSyntax::TrecEval } else { TrecSyntax::Lenient };
            let data = file(&lines, bom, last_break, &bad);
            let qrels = "q2 0 d3 1\nq1 0 d6 0\nq1 0 d1 2\n";
            let mut ids = Ids::new();
            if qrels_first {
                prop_assert!(read_trec_qrels(qrels.as_bytes(), &mut ids).is_ok());
            }
            let mut seen = Vec::new();
            let want = oracle_run(Pieces::new(&data, &sizes, fail), &mut ids, syntax, &mut seen);
            check_duplicate(&want, &seen);
            let want = run_digest(&want, &ids);
            for n in [1, 2, 3] {
                let mut ids = Ids::new();
                if qrels_first {
                    prop_assert!(read_trec_qrels(qrels.as_bytes(), &mut ids).is_ok());
                }
                let got = with_threads(threads(n), || {
                    read_trec_run_with(Pieces::new(&data, &sizes, fail), &mut ids, syntax)
                });
                prop_assert_eq!(&run_digest(&got, &ids), &want, "{} threads", n);
            }
        }
    }

    /// Records hold 32-bit offsets: a line ending past them in its block
    /// (4 GiB; 4 KiB in the unit tests) is refused, on any number of
    /// threads, and a line ending within them is read.
    #[test]
    fn a_line_past_the_offset_limit_is_refused() {
        let long = format!("q1 0 {} 1", "d".repeat(MAX_OFFSET));
        for n in [1, 2] {
            with_threads(threads(n), || {
                let mut ids = Ids::new();
                let qrels = format!("q1 0 d1 1\n{long}\nq1 0 d2 0\n");
                let got = read_trec_qrels(qrels.as_bytes(), &mut ids);
                assert!(
                    matches!(got, Err(RelevanceError::TooLarge { quantity: "bytes in a line", requested, limit })
                        if requested == long.len() as u64 && limit == MAX_OFFSET as u64),
                    "{n} threads: {got:?}"
                );
                let run = format!("q1 Q0 d1 1 0.5 t\n{long} 0.5 t\n");
                let got = read_trec_run(run.as_bytes(), &mut ids);
                assert!(
                    matches!(
                        got,
                        Err(RelevanceError::TooLarge {
                            quantity: "bytes in a line",
                            ..
                        })
                    ),
                    "{n} threads: {got:?}"
                );
                // A line ending within the limit is read.
                let fits = format!("q1 0 {} 1\n", "d".repeat(MAX_OFFSET - 10));
                let got = read_trec_qrels(fits.as_bytes(), &mut Ids::new());
                assert_eq!(got.map(|q| q.len()).ok(), Some(1), "{n} threads");
            });
        }
    }

    #[test]
    fn io_errors_name_the_line_being_read() {
        let data = b"q 0 d 1\nq 0 e 1\nq 0 f";
        for (fail, line) in [(0, 1), (5, 1), (8, 2), (12, 2), (16, 3), (19, 3)] {
            for n in [1, 2] {
                let got = with_threads(threads(n), || {
                    read_trec_qrels(Pieces::new(data, &[3], Some(fail)), &mut Ids::new())
                });
                assert_eq!(
                    got.map(|q| q.len()),
                    Err(RelevanceError::Io {
                        line,
                        kind: ErrorKind::InvalidData
                    }),
                    "{fail}"
                );
            }
        }
        // An earlier bad line is reported first.
        let got = read_trec_qrels(
            Pieces::new(b"q 0 d\nq 0 e 1\n", &[4], Some(9)),
            &mut Ids::new(),
        );
        assert!(matches!(
            got,
            Err(RelevanceError::FieldCount { line: 1, .. })
        ));
    }

    /// Many blocks of many chunks (the test sizes: 64-byte chunks, 512-byte
    /// blocks).
    fn many_lines() -> Vec<u8> {
        (0..400)
            .map(|i| format!("q{} 0 d{i} {}\n", i / 50, i % 3))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn a_panic_while_parsing_reaches_the_caller_on_any_number_of_threads() {
        let data = many_lines();
        for n in [1, 2, 3, 5] {
            let outcome = std::panic::catch_unwind(|| {
                with_threads(threads(n), || {
                    read_blocks(
                        data.as_slice(),
                        |bytes, offset, out: &mut Parsed<i32>| {
                            // The chunk of line 301, in a block past the first.
                            let bad = bytes.windows(5).any(|w| w == b"d300 ");
                            assert!(!bad, "parsing fails at line 301");
                            parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
                        },
                        |_, _| Ok(()),
                    )
                })
            });
            let message = outcome
                .err()
                .and_then(|p| {
                    p.downcast_ref::<&str>()
                        .map(|m| (*m).to_owned())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                })
                .unwrap_or_default();
            assert_eq!(message, "parsing fails at line 301", "{n}");
        }
    }

    /// An error while storing an early line comes before a panic while
    /// parsing a later one (parsed ahead on two threads or more), as when
    /// reading line by line.
    #[test]
    fn an_error_while_storing_comes_before_a_later_panic_while_parsing() {
        let data = many_lines();
        for n in [1, 2, 3, 5] {
            let got = with_threads(threads(n), || {
                read_blocks(
                    data.as_slice(),
                    |bytes, offset, out: &mut Parsed<i32>| {
                        assert!(!bytes.windows(5).any(|w| w == b"d300 "), "line 301");
                        parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
                    },
                    |block, parsed| {
                        let doc = |r: &Record<i32>| block.get(r.doc.0 as usize..r.doc.1 as usize);
                        if parsed.records.iter().any(|r| doc(r) == Some(b"d240")) {
                            // Line 241 is in block 7, line 301 in block 9
                            // (blocks of 64, 128, 256, then 512 bytes), which
                            // helpers parse ahead: time to parse it.
                            std::thread::sleep(Duration::from_millis(20));
                            return Err(RelevanceError::NotUtf8 { line: 241 });
                        }
                        Ok(())
                    },
                )
            });
            assert!(
                matches!(got, Err(RelevanceError::NotUtf8 { line: 241 })),
                "{n}"
            );
        }
    }

    /// Reads `data` as qrels chunks on `n` threads, with `store`.
    fn read_qrels_on(
        n: usize,
        data: &[u8],
        store: impl FnMut(&[u8], &Parsed<i32>) -> Result<()> + Send,
    ) -> Result<()> {
        with_threads(threads(n), || {
            read_blocks(
                data,
                |bytes, offset, out: &mut Parsed<i32>| {
                    parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
                },
                store,
            )
        })
    }

    #[test]
    fn a_panic_or_an_error_while_storing_stops_the_helpers() {
        let data = many_lines();
        for n in [1, 2, 3] {
            let mut stored = 0;
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                read_qrels_on(n, &data, |_, parsed| {
                    stored += parsed.records.len();
                    assert!(stored < 200, "storing fails");
                    Ok(())
                })
            }));
            assert!(outcome.is_err(), "{n}");
            // An error: returned once the helpers have stopped.
            let mut calls = 0;
            let got = read_qrels_on(n, &data, |_, _| {
                calls += 1;
                if calls == 5 {
                    Err(RelevanceError::BlankLine {
                        line: 7,
                        column: 1,
                        format: QRELS_FORMAT,
                    })
                } else {
                    Ok(())
                }
            });
            assert!(
                matches!(got, Err(RelevanceError::BlankLine { line: 7, .. })),
                "{n}"
            );
            assert_eq!(calls, 5, "{n}");
        }
    }

    #[test]
    fn every_chunk_is_stored_once_in_order_on_any_number_of_threads() {
        let data = many_lines();
        for n in [1, 2, 3, 4, 7] {
            let mut lines = Vec::new();
            read_qrels_on(n, &data, |block, parsed| {
                for r in &parsed.records {
                    lines.push(
                        block
                            .get(r.doc.0 as usize..r.doc.1 as usize)
                            .unwrap_or_default()
                            .to_vec(),
                    );
                }
                Ok(())
            })
            .unwrap();
            // The documents `many_lines` writes, in its order.
            let written: Vec<Vec<u8>> = (0..400).map(|i| format!("d{i}").into_bytes()).collect();
            assert_eq!(lines, written, "{n}");
        }
    }
}
