//! The reading machinery: blocks of whole lines, cut into chunks that
//! helper threads parse while the caller stores.

use super::parse::Parsed;
use crate::relevance::error::{RelevanceError, Result};
use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{
    Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use std::time::{Duration, Instant};

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
pub(super) const CHUNK: usize = if cfg!(test) { 64 } else { 1 << 16 };

/// Largest block read at once (the first blocks are smaller, so that small
/// inputs allocate little).
pub(super) const BLOCK: usize = if cfg!(test) { 512 } else { 1 << 20 };

/// Bytes read on the caller's thread alone before helper threads start:
/// below it, starting them costs more than they save (issue 39; the
/// crossover measured by `benches/trec_crossover.rs`, see [`Sizes`]).
pub(super) const PARALLEL_FROM: usize = if cfg!(test) { 256 } else { 1 << 20 };

/// The sizes of a reading: bytes per chunk, largest block, and the bytes
/// read on one thread before helpers start. [`Sizes::DEFAULT`] in the
/// readers; smaller ones reach block boundaries, lines across them and
/// later blocks in flight with small inputs (the unit tests' constants,
/// and the fuzz targets through [`crate::relevance::fuzzing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// Bytes per chunk (at least 1).
    pub(crate) chunk: usize,
    /// Largest block (at least `chunk`).
    pub(crate) block: usize,
    /// Bytes read on one thread before helpers start (0: from the start).
    pub(crate) parallel_from: usize,
}

impl Sizes {
    /// [`CHUNK`], [`BLOCK`], [`PARALLEL_FROM`].
    pub(crate) const DEFAULT: Self = Self {
        chunk: CHUNK,
        block: BLOCK,
        parallel_from: PARALLEL_FROM,
    };

    /// The sizes with each at least 1 and a block of at least a chunk.
    pub(crate) fn checked(self) -> Self {
        let chunk = self.chunk.max(1);
        Self {
            chunk,
            block: self.block.max(chunk),
            parallel_from: self.parallel_from,
        }
    }
}

/// Largest end offset of a line in a block: records hold 32-bit offsets
/// (a line of 4 GiB is refused; 4 KiB in the unit tests, so that they
/// reach it).
pub(super) const MAX_OFFSET: usize = if cfg!(test) {
    1 << 12
} else {
    u32::MAX as usize
};

/// A block of the input: `bytes[..complete]` whole lines (the last one
/// maybe without its line break at the end of the input), then up to `len`
/// the start of the next line. `bytes` beyond `len` is spare room, kept
/// between blocks so that it is allocated and zeroed once.
#[derive(Default)]
pub(super) struct Block {
    pub(super) bytes: Vec<u8>,
    pub(super) len: usize,
    pub(super) complete: usize,
}

impl Block {
    pub(super) fn lines(&self) -> &[u8] {
        self.bytes.get(..self.complete).unwrap_or_default()
    }

    pub(super) fn rest(&self) -> &[u8] {
        self.bytes.get(self.complete..self.len).unwrap_or_default()
    }
}

/// Reads the input in blocks of whole lines.
pub(super) struct Blocks<R> {
    pub(super) reader: R,
    pub(super) sizes: Sizes,
    /// The size of the next block.
    pub(super) size: usize,
    pub(super) first: bool,
    pub(super) done: bool,
    /// The I/O error that ended the input, reported after its whole lines.
    pub(super) error: Option<ErrorKind>,
}

impl<R: BufRead> Blocks<R> {
    pub(super) fn new(reader: R, sizes: Sizes) -> Self {
        Self {
            reader,
            sizes,
            size: sizes.chunk,
            first: true,
            done: false,
            error: None,
        }
    }

    /// Fills `block` with `carry` (the start of a line, left over from the
    /// previous block) and the next bytes of the input: at least one whole
    /// line unless the input ends.
    pub(super) fn fill(&mut self, block: &mut Block, carry: &[u8]) {
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
            let want = self.size.max(filled + self.sizes.chunk);
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
            self.size = (self.size * 2).min(self.sizes.block);
        }
    }
}

/// How long an idle thread of [`Crew`] spins before it sleeps: waking a
/// sleeping core costs tens of microseconds (about 50 on a 2-core virtual
/// machine), as much as parsing a tenth of a block.
pub(super) const SPIN: Duration = Duration::from_micros(200);

/// The chunks of the blocks being parsed (see [`Crew`]).
pub(super) struct Board<V> {
    /// Chunks not yet claimed, in the order they are to be parsed (the
    /// blocks in order, each block's chunks in order): the ring slot of
    /// their block, their index in it, their byte range, and a records
    /// buffer to parse into.
    pub(super) todo: VecDeque<(usize, usize, Range<usize>, Parsed<V>)>,
    /// Chunks parsed: ring slot, index (in any order).
    pub(super) done: Vec<(usize, usize, Parsed<V>)>,
    /// Set when the reading ends or fails: the helpers return.
    pub(super) stop: bool,
    /// A helper's panic, raised again on the caller's thread.
    pub(super) panic: Option<Box<dyn std::any::Any + Send>>,
}

/// Helper threads that parse the chunks of the blocks [`read_blocks`]
/// posts, kept for the whole reading: starting a thread for each block cost
/// about 70 µs a block on the caller's thread (the critical one) and as
/// much again before the thread ran. Up to two blocks are posted at once,
/// so that a helper done with one block's chunks goes on to the next one's
/// while the caller stores. An idle helper spins for [`SPIN`] before it
/// sleeps. Which thread parses a chunk never changes a result: each chunk
/// is parsed on its own, and the results are put back in order.
pub(super) struct Crew<V> {
    pub(super) board: Mutex<Board<V>>,
    /// Helpers wait here for chunks (or the stop).
    pub(super) posted: Condvar,
    /// The caller waits here for the last chunk of a block.
    pub(super) finished: Condvar,
    /// Chunks posted and not yet parsed, by ring slot (changed under the
    /// lock).
    pub(super) pending: [AtomicUsize; 3],
    /// Incremented at each posting and at the stop, so that helpers can
    /// spin on it without the lock.
    pub(super) generation: AtomicUsize,
    /// Bytes per chunk.
    pub(super) chunk: usize,
}

/// Sets [`Board::stop`] when dropped.
pub(super) struct StopOnDrop<'a, V>(&'a Crew<V>);

impl<V> Drop for StopOnDrop<'_, V> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.generation.fetch_add(1, Ordering::Release);
        self.0.posted.notify_all();
    }
}

pub(super) fn read(block: &RwLock<Block>) -> RwLockReadGuard<'_, Block> {
    block.read().unwrap_or_else(PoisonError::into_inner)
}

pub(super) fn write(block: &RwLock<Block>) -> RwLockWriteGuard<'_, Block> {
    block.write().unwrap_or_else(PoisonError::into_inner)
}

impl<V> Crew<V> {
    pub(super) fn new(chunk: usize) -> Self {
        Self {
            chunk,
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
    pub(super) fn lock(&self) -> MutexGuard<'_, Board<V>> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The chunks posted and not yet parsed of ring slot `block`.
    pub(super) fn pending(&self, block: usize) -> usize {
        self.pending
            .get(block)
            .map_or(0, |p| p.load(Ordering::Acquire))
    }

    /// Posts the chunks of the block in ring slot `block` (after those
    /// posted before), reusing the records buffers of `pool`.
    pub(super) fn post(&self, ring: &[RwLock<Block>; 3], block: usize, pool: Vec<Parsed<V>>) {
        let ranges = chunks(read(&ring[block]).lines(), self.chunk);
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
    pub(super) fn parse_one(
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
    pub(super) fn help_until_stopped(
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
    pub(super) fn finish(
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
    pub(super) fn parse_all(
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
/// threads ([`crate::current_threads`]): on the caller's thread alone for
/// the first `sizes.parallel_from` bytes (all of a small input), then with
/// helper threads ([`crate::threads::with_helpers`]).
pub(super) fn read_blocks<R: BufRead, V: Copy + Send + Sync>(
    reader: R,
    sizes: Sizes,
    parse: impl Fn(&[u8], usize, &mut Parsed<V>) + Sync,
    mut store: impl FnMut(&[u8], &Parsed<V>) -> Result<()> + Send,
) -> Result<()> {
    let sizes = sizes.checked();
    let workers = crate::current_threads().count().max(1);
    let mut blocks = Blocks::new(reader, sizes);
    let mut lines = 0;
    let mut store_all = |block: &Block, parsed: &[Parsed<V>]| -> Result<()> {
        for p in parsed {
            store(&block.bytes, p)?;
            lines += p.lines;
        }
        Ok(())
    };
    // One thread: parse and store each chunk in turn, while the input is
    // small (or one thread is all there is).
    let (mut current, mut next) = (Block::default(), Block::default());
    let mut serial = workers == 1 || sizes.parallel_from > 0;
    if serial {
        blocks.fill(&mut current, &[]);
    }
    let mut consumed = 0;
    let mut parsed = Parsed::default();
    while serial {
        let bytes = current.lines();
        for r in chunks(bytes, sizes.chunk) {
            parse(
                bytes.get(r.clone()).unwrap_or_default(),
                r.start,
                &mut parsed,
            );
            store_all(&current, std::slice::from_ref(&parsed))?;
        }
        consumed += bytes.len();
        if blocks.done {
            break;
        }
        if workers > 1 && consumed >= sizes.parallel_from {
            // The rest in parallel, from the start of the next line.
            serial = false;
            break;
        }
        blocks.fill(&mut next, current.rest());
        std::mem::swap(&mut current, &mut next);
    }
    if !serial {
        // Three blocks in flight: the caller stores block k (so that the
        // growing tables are allocated by one thread, from one heap) while
        // helper threads parse the chunks of blocks k + 1 and k + 2, which
        // the caller has read and posted (the reader stays on its thread:
        // it need not be `Send`); the caller then takes its share of the
        // chunks of block k + 1 left. The helpers live as long as the
        // reading (see [`Crew`]); a helper that cannot be started leaves
        // its chunks to the caller.
        let ring: [RwLock<Block>; 3] = Default::default();
        let crew = Crew::new(sizes.chunk);
        let parse = &parse;
        let carry = current.rest();
        crate::threads::with_helpers(
            workers - 1,
            || crew.help_until_stopped(&ring, parse),
            || -> Result<()> {
                // Stops the helpers however this is left (an error, a
                // panic), before they are waited for.
                let _stop = StopOnDrop(&crew);
                let (mut cur, mut nxt, mut thd) = (0, 1, 2);
                blocks.fill(&mut write(&ring[cur]), carry);
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
                        // The third block is the one stored last: every
                        // chunk of it was parsed before it was stored.
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
            },
        )?;
    }
    if let Some(kind) = blocks.error {
        return Err(RelevanceError::Io {
            line: lines + 1,
            kind,
        });
    }
    Ok(())
}

/// `bytes` (whole lines) cut at line ends into ranges of about `chunk`
/// bytes.
pub(super) fn chunks(bytes: &[u8], chunk: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(bytes.len() / chunk + 1);
    let mut start = 0;
    while start < bytes.len() {
        let probe = start + chunk;
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
