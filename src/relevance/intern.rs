//! String tables: query and document ids interned once, so that judgements
//! and runs are flat integer arrays and scoring never hashes a string.

use super::error::{RelevanceError, Result};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Largest index [`Documents::warm`] reads (16 KiB of slots).
const WARM_SLOTS: usize = 1 << 12;

/// Largest number of distinct strings one table holds (ids are `u32`).
const MAX_IDS: usize = u32::MAX as usize - 1;

/// An open-addressing hash index (linear probing) of ids whose strings are
/// stored elsewhere. Slots: 0 = empty, else `id + 1`; the home slot of a
/// string is given by the top bits of its hash (`tag`, the hash's top 32
/// bits). A slot holds no hash bits, so that the index costs 4 bytes a slot
/// (about 5 to 16 an id at the load of 1/4 to 3/4 it keeps): each probe compares
/// the string itself, and growing hashes the strings again.
#[derive(Debug, Clone, Default)]
struct Index {
    slots: Vec<u32>,
    /// Number of ids indexed.
    len: usize,
}

impl Index {
    /// The id whose string satisfies `eq`, among those with hash tag `tag`.
    #[inline]
    fn find(&self, tag: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        find_in(&self.slots, tag, eq)
    }

    /// The id whose string satisfies `eq`, or `new_id` inserted (then
    /// `Ok(None)`); `tag_of` gives the tag of an indexed id (to grow).
    #[inline]
    fn find_or_insert(
        &mut self,
        tag: u64,
        new_id: usize,
        eq: impl Fn(u32) -> bool,
        tag_of: impl Fn(u32) -> u64,
    ) -> Result<Option<u32>> {
        if too_full(self.slots.len(), self.len) {
            self.grow_to(slots_for(self.len), tag_of)?;
        }
        insert_in(&mut self.slots, &mut self.len, tag, new_id, eq)
    }

    /// Grows the index to at least `want` slots (a power of two), unless
    /// it has them, and re-inserts every id by its tag.
    fn grow_to(&mut self, want: usize, tag_of: impl Fn(u32) -> u64) -> Result<()> {
        let capacity = want.min(MAX_SLOTS);
        if capacity <= self.slots.len() {
            return full_size(self.len);
        }
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(capacity)
            .map_err(|_| out_of_slots(capacity))?;
        slots.resize(capacity, 0_u32);
        rehash(&self.slots, &mut slots, tag_of);
        self.slots = slots;
        Ok(())
    }
}

/// Largest number of slots of an index: they are addressed by a 32-bit tag.
const MAX_SLOTS: usize = 1 << 32;

/// Whether an index of `slots` slots holding `len` ids must grow before
/// one more: it stays at most 3/4 full (a query's index sized from its
/// judgements, at load 1/4 to 1/2, then takes as many run documents again
/// without growing).
#[inline]
fn too_full(slots: usize, len: usize) -> bool {
    3 * slots < 4 * (len + 1)
}

/// The slots (at least 8, a power of two) that hold `count + 1` ids at load
/// 1/2.
fn slots_for(count: usize) -> usize {
    (2 * (count + 1)).next_power_of_two().max(8)
}

/// The answer of growing an index that has its full size already: free
/// slots remain while ids < `MAX_IDS` < 2³².
fn full_size(len: usize) -> Result<()> {
    if len < MAX_IDS {
        Ok(())
    } else {
        Err(too_many())
    }
}

fn out_of_slots(capacity: usize) -> RelevanceError {
    RelevanceError::OutOfMemory {
        quantity: "string table slots",
        requested: capacity as u64,
    }
}

/// The id in `slots` (an index: a power of two of them, or none) whose
/// string satisfies `eq`, among those with hash tag `tag`.
#[inline]
fn find_in(slots: &[u32], tag: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
    if slots.is_empty() {
        return None;
    }
    let mask = slots.len() - 1;
    let mut pos = tag as usize & mask;
    loop {
        let slot = *slots.get(pos)?;
        if slot == 0 {
            return None;
        }
        if eq(slot - 1) {
            return Some(slot - 1);
        }
        pos = (pos + 1) & mask;
    }
}

/// The id in `slots` (an index holding `len` ids, with a free slot) whose
/// string satisfies `eq`, or `new_id` inserted (then `Ok(None)`).
#[inline]
fn insert_in(
    slots: &mut [u32],
    len: &mut usize,
    tag: u64,
    new_id: usize,
    eq: impl Fn(u32) -> bool,
) -> Result<Option<u32>> {
    let mask = slots.len().wrapping_sub(1);
    let mut pos = tag as usize & mask;
    loop {
        let Some(slot) = slots.get_mut(pos) else {
            return Err(too_many());
        };
        if *slot == 0 {
            if new_id >= MAX_IDS {
                return Err(too_many());
            }
            *slot = new_id as u32 + 1;
            *len += 1;
            return Ok(None);
        }
        if eq(*slot - 1) {
            return Ok(Some(*slot - 1));
        }
        pos = (pos + 1) & mask;
    }
}

/// Inserts every id of the index `from` into `to` (empty slots, a power of
/// two of them) by its tag.
fn rehash(from: &[u32], to: &mut [u32], tag_of: impl Fn(u32) -> u64) {
    let mask = to.len().wrapping_sub(1);
    for &slot in from.iter().filter(|&&s| s != 0) {
        let mut pos = tag_of(slot - 1) as usize & mask;
        while to.get(pos).is_some_and(|&s| s != 0) {
            pos = (pos + 1) & mask;
        }
        if let Some(s) = to.get_mut(pos) {
            *s = slot;
        }
    }
}

/// Where the index of one query lies in [`Documents`]' block of slots.
#[derive(Debug, Clone, Copy, Default)]
struct Span {
    start: usize,
    /// Its slots: 0 (none yet) or a power of two.
    slots: usize,
    /// Number of ids indexed.
    len: usize,
}

/// Bits of a string's end stored in [`Names::ends`] (8 in the unit tests,
/// so that they cross the boundaries).
const END_BITS: u32 = if cfg!(test) { 8 } else { 32 };

/// Strings stored back to back, numbered in order of addition. Every
/// string pushed is UTF-8 (the callers check it), so [`Names::name`] is
/// `Some` for every id; the check on reading keeps that without `unsafe`.
///
/// String ends take 4 bytes each: `ends[i]` holds the low [`END_BITS`]
/// bits of the end of string i in `bytes`, and `high` the ids from which
/// the high bits change (empty below 4 GiB of strings).
#[derive(Debug, Clone, Default)]
struct Names {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    /// `(first id, high bits of the ends)`, by increasing id.
    high: Vec<(u32, u64)>,
}

impl Names {
    /// The end of string `i` in `bytes`.
    #[inline]
    fn end(&self, i: usize) -> Option<usize> {
        let low = u64::from(*self.ends.get(i)?);
        if self.high.is_empty() {
            return Some(low as usize);
        }
        let k = self.high.partition_point(|h| h.0 as usize <= i);
        let high = k
            .checked_sub(1)
            .and_then(|k| self.high.get(k))
            .map_or(0, |h| h.1);
        usize::try_from(high | low).ok()
    }

    #[inline]
    fn bytes(&self, id: u32) -> Option<&[u8]> {
        let i = id as usize;
        let end = self.end(i)?;
        let start = if i == 0 { 0 } else { self.end(i - 1)? };
        self.bytes.get(start..end)
    }

    #[inline]
    fn name(&self, id: u32) -> Option<&str> {
        std::str::from_utf8(self.bytes(id)?).ok()
    }

    /// The hash tag of string `id`.
    fn tag(&self, id: u32) -> u64 {
        u64::from(tag_of(self.bytes(id).unwrap_or_default()))
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Adds `s`, UTF-8 text.
    #[inline]
    fn push(&mut self, s: &[u8]) -> u32 {
        self.bytes.extend_from_slice(s);
        let end = self.bytes.len() as u64;
        let high = end >> END_BITS << END_BITS;
        if high != self.high.last().map_or(0, |h| h.1) {
            self.high.push((self.ends.len() as u32, high));
        }
        self.ends.push((end - high) as u32);
        (self.ends.len() - 1) as u32
    }
}

/// A set of distinct strings, each with a dense integer id `0, 1, 2, …` in
/// order of first appearance.
///
/// The strings are stored back to back in one buffer; a hash index (open
/// addressing, linear probing) maps a string to its id. Interning a string
/// that is already present allocates nothing.
///
/// The hash is a fast non-cryptographic one (a folded 64 × 64-bit
/// multiplication per 8 bytes, in the manner of foldhash and aHash), keyed
/// by a random number drawn once per process: strings are often read from
/// files that someone else wrote, and with a fixed key strings crafted to
/// collide would make every insertion scan them all (quadratic time, "hash
/// flooding"). The key only decides where strings sit in the index: ids,
/// their order and [`StringTable::iter`] never depend on it.
///
/// # Complexity
/// [`StringTable::intern`] and [`StringTable::get`] take O(length) expected
/// time; memory is the bytes of the distinct strings plus about 24 bytes per
/// string.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::StringTable;
/// let mut t = StringTable::new();
/// assert_eq!(t.intern("d7")?, 0);
/// assert_eq!(t.intern("d3")?, 1);
/// assert_eq!(t.intern("d7")?, 0);
/// assert_eq!((t.len(), t.get("d3"), t.name(1)), (2, Some(1), Some("d3")));
/// assert_eq!(t.get("d9"), None);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct StringTable {
    names: Names,
    index: Index,
}

impl StringTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of distinct strings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table holds no string.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.len() == 0
    }

    /// The string with id `id`.
    #[must_use]
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.name(id)
    }

    /// The id of `s`, if present.
    #[must_use]
    pub fn get(&self, s: &str) -> Option<u32> {
        let names = &self.names;
        self.index.find(u64::from(tag_of(s.as_bytes())), |id| {
            same(names.bytes(id), s.as_bytes())
        })
    }

    /// The id of `s`, adding it if new.
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] if the table already holds `u32::MAX − 1`
    /// strings; [`RelevanceError::OutOfMemory`] if its index cannot grow.
    pub fn intern(&mut self, s: &str) -> Result<u32> {
        let names = &self.names;
        let n = names.len();
        match self.index.find_or_insert(
            u64::from(tag_of(s.as_bytes())),
            n,
            |id| same(names.bytes(id), s.as_bytes()),
            |id| names.tag(id),
        )? {
            Some(id) => Ok(id),
            None => Ok(self.names.push(s.as_bytes())),
        }
    }

    /// Every string in id order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len() as u32).filter_map(|id| self.name(id))
    }
}

/// The documents of every query: one id per distinct (query, document)
/// pair, with a small hash index per query (all of them in one block of
/// memory: no allocation a query).
///
/// A document id stands for a document *of one query*: the same document
/// judged for two queries has two ids (its name is stored twice). Files
/// are grouped by query, so each lookup touches one query's small index and
/// names, which stay in cache; one index over all documents costs a cache
/// miss or two per line on large files (measured: about 3× slower loading of
/// 10⁶-line files).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids};
/// let mut ids = Ids::new();
/// let _ = read_trec_qrels("q1 0 d 1\nq2 0 d 0\n".as_bytes(), &mut ids)?;
/// let (q1, q2) = (ids.queries().get("q1").ok_or("q1")?, ids.queries().get("q2").ok_or("q2")?);
/// let d1 = ids.documents().get(q1, "d").ok_or("d")?;
/// assert_ne!(Some(d1), ids.documents().get(q2, "d"));
/// assert_eq!(ids.documents().name(d1), Some("d"));
/// assert_eq!(ids.documents().query(d1), Some(q1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Documents {
    names: Names,
    /// The query of the ids: `(first id, query)` at each id whose query is
    /// not that of the id before (files are grouped by query, so there are
    /// few), by increasing id.
    query: Vec<(u32, u32)>,
    /// Each query's index: its place in `slots`.
    per_query: Vec<Span>,
    /// The indexes of every query, one after another (a query's index that
    /// grows moves to the end, or grows in place when it is there already).
    slots: Vec<u32>,
    /// The query whose index was started last: a new query's index starts
    /// at its size (files are grouped by query, and queries often have
    /// similar numbers of documents), which saves most of the growing.
    last_started: Option<u32>,
}

impl Documents {
    /// Number of document ids (distinct (query, document) pairs).
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is no document.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.len() == 0
    }

    /// The name of document id `id`.
    #[must_use]
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.name(id)
    }

    /// The query id document id `id` belongs to (O(log) of the number of
    /// times the query changes from one new document to the next).
    #[must_use]
    pub fn query(&self, id: u32) -> Option<u32> {
        if id as usize >= self.names.len() {
            return None;
        }
        let k = self.query.partition_point(|r| r.0 <= id);
        k.checked_sub(1)
            .and_then(|k| self.query.get(k))
            .map(|r| r.1)
    }

    /// The id of document `name` of query `query`, if present.
    #[must_use]
    pub fn get(&self, query: u32, name: &str) -> Option<u32> {
        let names = &self.names;
        let span = *self.per_query.get(query as usize)?;
        find_in(
            self.region(span),
            u64::from(tag_of(name.as_bytes())),
            |id| names.bytes(id) == Some(name.as_bytes()),
        )
    }

    /// The id of document `name` of query `query`, adding it if new.
    pub(crate) fn intern(&mut self, query: u32, name: &str) -> Result<u32> {
        self.intern_tagged(query, name.as_bytes(), tag_of(name.as_bytes()))
    }

    /// Room for `count` more documents: their ends, and their names at
    /// the mean length of the names so far plus one (16 bytes with none
    /// yet): a hint, memory reserved and touched only as names are added.
    pub(crate) fn reserve(&mut self, count: usize) {
        let names = &mut self.names;
        let mean = names
            .bytes
            .len()
            .checked_div(names.ends.len())
            .unwrap_or(16);
        names.ends.reserve(count);
        names
            .bytes
            .reserve(count.saturating_mul(mean.saturating_add(1)));
        // Their queries' index slots: 8/3 a document (a query's index of a
        // power of two at load 3/8 to 3/4).
        self.slots.reserve(count.saturating_mul(8) / 3);
    }

    /// Room in the index of query `query` for `more` more documents (at
    /// its largest load, 3/4), so that interning them never grows it.
    pub(crate) fn reserve_in(&mut self, query: u32, more: usize) -> Result<()> {
        let span = self.span(query);
        let want = span.len.saturating_add(more).saturating_add(1);
        if 3 * span.slots < 4 * want {
            let slots = want.saturating_mul(4).div_ceil(3).next_power_of_two();
            self.grow_query(query, slots.max(8))?;
        }
        Ok(())
    }

    /// The span of query `query`'s index (none yet for a new query, whose
    /// entry is added).
    fn span(&mut self, query: u32) -> Span {
        let q = query as usize;
        if self.per_query.len() <= q {
            self.per_query.resize(q + 1, Span::default());
        }
        self.per_query.get(q).copied().unwrap_or_default()
    }

    /// The slots of the index at `span`.
    fn region(&self, span: Span) -> &[u32] {
        self.slots
            .get(span.start..span.start + span.slots)
            .unwrap_or_default()
    }

    /// Grows the index of query `query` (which [`Documents::span`] has
    /// seen) to at least `want` slots (a power of two), unless it has them:
    /// in place when it ends the block, else at the block's end (its old
    /// slots then unused), and re-inserts its ids by their tags.
    fn grow_query(&mut self, query: u32, want: usize) -> Result<()> {
        let capacity = want.min(MAX_SLOTS);
        let Some(span) = self.per_query.get(query as usize).copied() else {
            return Err(too_many());
        };
        if capacity <= span.slots {
            return full_size(span.len);
        }
        let names = &self.names;
        let tag = |id| names.tag(id);
        let last = span.slots > 0 && span.start + span.slots == self.slots.len();
        let start = if last { span.start } else { self.slots.len() };
        self.slots
            .try_reserve((start + capacity).saturating_sub(self.slots.len()))
            .map_err(|_| out_of_slots(capacity))?;
        if last {
            let old: Vec<u32> = self.region(span).to_vec();
            self.slots.truncate(start);
            self.slots.resize(start + capacity, 0);
            rehash(&old, self.slots.get_mut(start..).unwrap_or_default(), tag);
        } else {
            self.slots.resize(start + capacity, 0);
            let (before, after) = self.slots.split_at_mut(start);
            let old = before
                .get(span.start..span.start + span.slots)
                .unwrap_or_default();
            rehash(old, after, tag);
        }
        if let Some(s) = self.per_query.get_mut(query as usize) {
            *s = Span {
                start,
                slots: capacity,
                len: span.len,
            };
        }
        Ok(())
    }

    /// The name of document id `id` as bytes.
    pub(crate) fn name_bytes(&self, id: u32) -> Option<&[u8]> {
        self.names.bytes(id)
    }

    /// Reads the index of query `query` and the names it holds, when they
    /// are stored together (as a qrels file's are): a hint, so that their
    /// cache lines are fetched together, many at once, rather than one miss
    /// after another as the query's documents are interned. O(slots of the
    /// query + bytes of its names), and nothing for an index of more than
    /// [`WARM_SLOTS`] slots (too large to stay in cache).
    #[inline]
    pub(crate) fn warm(&self, query: u32) {
        let Some(&span) = self
            .per_query
            .get(query as usize)
            .filter(|s| s.slots <= WARM_SLOTS)
        else {
            return;
        };
        let (mut lo, mut hi) = (u32::MAX, 0_u32);
        for &slot in self.region(span) {
            if slot != 0 {
                lo = lo.min(slot - 1);
                hi = hi.max(slot - 1);
            }
        }
        // Names stored apart (ids far from one another): left alone.
        if lo > hi || (hi - lo) as usize > 2 * span.len {
            return;
        }
        let mut acc = 0_u32;
        for &end in self
            .names
            .ends
            .get(lo as usize..=hi as usize)
            .unwrap_or_default()
        {
            acc ^= end;
        }
        let start = lo
            .checked_sub(1)
            .and_then(|i| self.names.end(i as usize))
            .unwrap_or(0);
        let end = self.names.end(hi as usize).unwrap_or(start);
        for &b in self
            .names
            .bytes
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .step_by(64)
        {
            acc ^= u32::from(b);
        }
        std::hint::black_box(acc);
    }

    /// [`Documents::intern`] of `name`, UTF-8 text (checked by the
    /// caller), with its tag ([`tag_of`]) computed by the caller.
    #[inline]
    pub(crate) fn intern_tagged(&mut self, query: u32, name: &[u8], tag: u32) -> Result<u32> {
        let span = self.span(query);
        if span.slots == 0 {
            let hint = self
                .last_started
                .and_then(|l| self.per_query.get(l as usize))
                .map_or(0, |s| s.len);
            self.last_started = Some(query);
            self.grow_query(query, slots_for(hint))?;
        } else if too_full(span.slots, span.len) {
            self.grow_query(query, slots_for(span.len))?;
        }
        let Some(span) = self.per_query.get_mut(query as usize) else {
            return Err(too_many());
        };
        let names = &self.names;
        let n = names.len();
        let slots = self
            .slots
            .get_mut(span.start..span.start + span.slots)
            .unwrap_or_default();
        let found = insert_in(slots, &mut span.len, u64::from(tag), n, |id| {
            same(names.bytes(id), name)
        })?;
        match found {
            Some(id) => Ok(id),
            None => {
                if self.query.last().is_none_or(|r| r.1 != query) {
                    self.query.push((n as u32, query));
                }
                Ok(self.names.push(name))
            }
        }
    }
}

fn too_many() -> RelevanceError {
    RelevanceError::TooLarge {
        quantity: "distinct ids",
        requested: MAX_IDS as u64 + 1,
        limit: MAX_IDS as u64,
    }
}

/// Whether `a` is `b`: byte strings compared 8 bytes at a time inline (ids
/// are short; a call to `memcmp` costs more than the comparison).
#[inline]
pub(crate) fn same(a: Option<&[u8]>, b: &[u8]) -> bool {
    let Some(a) = a else { return false };
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        let (mut u, mut v) = ([0_u8; 8], [0_u8; 8]);
        u.copy_from_slice(p);
        v.copy_from_slice(q);
        if u64::from_le_bytes(u) != u64::from_le_bytes(v) {
            return false;
        }
    }
    x.remainder().iter().zip(y.remainder()).all(|(p, q)| p == q)
}

/// 64 × 64 → 128-bit product folded to 64 bits.
#[inline]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// The key of [`hash`]: random, drawn once per process from the standard
/// library's randomly keyed hasher (the operating system's randomness).
fn hash_key() -> u64 {
    static KEY: OnceLock<u64> = OnceLock::new();
    *KEY.get_or_init(|| {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0x243f_6a88_85a3_08d3_u64)
    })
}

/// A fast non-cryptographic hash of a short byte string (ids are mostly
/// under 32 bytes): one folded multiplication per 8 bytes, as in foldhash
/// and ahash's fallback.
///
/// Ids come from files, which anyone may have written: with a fixed key,
/// strings chosen to collide would make every lookup of linear probing
/// scan them all (quadratic reading, "hash flooding"). So the hash is keyed
/// by a random number drawn once per process ([`hash_key`]): the ids, their
/// order and every result stay the same from run to run (they never
/// depend on the hash), only the slots of the index change.
#[inline]
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    const K1: u64 = 0x1319_8a2e_0370_7344;
    const K2: u64 = 0xa409_3822_299f_31d0;
    let mut h = hash_key() ^ (bytes.len() as u64).wrapping_mul(K1);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0_u8; 8];
        w.copy_from_slice(c);
        h = fold_mul(h ^ u64::from_le_bytes(w), K2);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // The rest, zero-padded: the last 8 bytes shifted, or byte by byte.
        let word = match bytes.len().checked_sub(8).and_then(|s| bytes.get(s..)) {
            Some(tail) => {
                let mut w = [0_u8; 8];
                w.copy_from_slice(tail);
                u64::from_le_bytes(w) >> (8 * (8 - rest.len()))
            }
            None => rest
                .iter()
                .rev()
                .fold(0_u64, |w, &b| (w << 8) | u64::from(b)),
        };
        h = fold_mul(h ^ word, K2);
    }
    fold_mul(h, K1)
}

/// The hash tag of `bytes`: the top 32 bits of [`hash`], which place a
/// string in an index (its home slot) and tell strings apart before their
/// bytes are compared.
#[inline]
pub(crate) fn tag_of(bytes: &[u8]) -> u32 {
    (hash(bytes) >> 32) as u32
}

static NEXT_TAG: AtomicU64 = AtomicU64::new(1);

/// The query and document string tables that judgements ([`Qrels`]) and runs
/// ([`TrecRun`]) are read into, so both use the same integer ids.
///
/// Read the judgements and every run to compare with the same `Ids`;
/// [`evaluate_trec`] refuses a qrels and a run read with different ones.
/// A clone is a new, independent `Ids` (judgements read with the original
/// cannot be scored with the clone).
///
/// [`Qrels`]: super::Qrels
/// [`TrecRun`]: super::TrecRun
/// [`evaluate_trec`]: super::evaluate_trec
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids};
/// let mut ids = Ids::new();
/// let qrels = read_trec_qrels("401 0 FT1 1\n401 0 FT2 0\n".as_bytes(), &mut ids)?;
/// assert_eq!(qrels.len(), 2);
/// assert_eq!((ids.queries().len(), ids.documents().len()), (1, 2));
/// let q = ids.queries().get("401").ok_or("no query")?;
/// assert_eq!(ids.documents().get(q, "FT2"), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Ids {
    tag: u64,
    queries: StringTable,
    documents: Documents,
}

impl Default for Ids {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for Ids {
    fn clone(&self) -> Self {
        Self {
            tag: NEXT_TAG.fetch_add(1, Ordering::Relaxed),
            queries: self.queries.clone(),
            documents: self.documents.clone(),
        }
    }
}

impl Ids {
    /// Empty tables.
    #[must_use]
    pub fn new() -> Self {
        Self {
            tag: NEXT_TAG.fetch_add(1, Ordering::Relaxed),
            queries: StringTable::new(),
            documents: Documents::default(),
        }
    }

    /// The query ids.
    #[must_use]
    pub fn queries(&self) -> &StringTable {
        &self.queries
    }

    /// The document ids (one per (query, document) pair).
    #[must_use]
    pub fn documents(&self) -> &Documents {
        &self.documents
    }

    pub(crate) fn tag(&self) -> u64 {
        self.tag
    }

    pub(crate) fn tables_mut(&mut self) -> (&mut StringTable, &mut Documents) {
        (&mut self.queries, &mut self.documents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_many_and_grows() -> Result<()> {
        let mut t = StringTable::new();
        for i in 0..10_000_u32 {
            assert_eq!(t.intern(&format!("doc{i}"))?, i);
        }
        for i in (0..10_000_u32).rev() {
            assert_eq!(t.intern(&format!("doc{i}"))?, i);
            assert_eq!(t.get(&format!("doc{i}")), Some(i));
            assert_eq!(t.name(i), Some(format!("doc{i}").as_str()));
        }
        assert_eq!(t.get(""), None);
        assert_eq!(t.intern("")?, 10_000);
        assert_eq!(t.name(10_000), Some(""));
        assert_eq!(t.name(10_001), None);
        assert_eq!(t.iter().count(), 10_001);
        Ok(())
    }

    #[test]
    fn string_ends_past_their_stored_bits() {
        // END_BITS is 8 here: the ends cross 256-byte boundaries, also
        // with strings longer than 256 bytes and empty ones.
        let mut names = Names::default();
        let strings: Vec<String> = (0..600)
            .map(|i| "x".repeat((i * 37) % 300) + &i.to_string())
            .chain([String::new(), "y".repeat(1000), String::new()])
            .collect();
        for (i, s) in strings.iter().enumerate() {
            assert_eq!(names.push(s.as_bytes()) as usize, i);
        }
        assert!(names.high.len() > 100);
        for (i, s) in strings.iter().enumerate() {
            assert_eq!(names.name(i as u32), Some(s.as_str()), "{i}");
        }
        assert_eq!(names.name(strings.len() as u32), None);
    }

    #[test]
    fn hash_of_the_rest_is_zero_padded() {
        // The two ways of reading the last bytes agree.
        let long = b"abcdefghijk";
        let key = hash_key();
        let by_hand = |bytes: &[u8]| {
            let mut h = key ^ (bytes.len() as u64).wrapping_mul(0x1319_8a2e_0370_7344);
            for c in bytes.chunks(8) {
                let mut w = [0_u8; 8];
                w[..c.len()].copy_from_slice(c);
                h = fold_mul(h ^ u64::from_le_bytes(w), 0xa409_3822_299f_31d0);
            }
            fold_mul(h, 0x1319_8a2e_0370_7344)
        };
        for n in 0..=long.len() {
            assert_eq!(hash(&long[..n]), by_hand(&long[..n]), "{n}");
        }
    }

    #[test]
    fn hash_depends_on_every_byte_and_the_length() {
        assert_ne!(hash(b"abcdefgh1"), hash(b"abcdefgh2"));
        assert_ne!(hash(b"a"), hash(b"a\0"));
        assert_ne!(hash(b""), hash(b"\0"));
    }

    #[test]
    fn documents_know_their_query() -> Result<()> {
        let mut d = Documents::default();
        let order = [
            (0, "a"),
            (0, "b"),
            (2, "a"),
            (0, "c"),
            (0, "a"),
            (1, "z"),
            (1, "y"),
        ];
        let mut want = Vec::new();
        for (q, name) in order {
            let id = d.intern(q, name)?;
            if id as usize == want.len() {
                want.push(q);
            }
        }
        assert_eq!(want, [0, 0, 2, 0, 1, 1]);
        for (id, &q) in want.iter().enumerate() {
            assert_eq!(d.query(id as u32), Some(q), "{id}");
        }
        assert_eq!(d.query(want.len() as u32), None);
        assert_eq!(Documents::default().query(0), None);
        Ok(())
    }

    #[test]
    fn query_indexes_grow_in_place_and_at_the_end_of_their_block() -> Result<()> {
        // Queries interleaved (a query's index grows away from the block's
        // end) and in turn (it grows in place), some sized ahead: every
        // (query, document) pair keeps its id, as an oracle map says.
        let mut d = Documents::default();
        let mut oracle = std::collections::HashMap::new();
        let mut order = Vec::new();
        for i in 0..400_u32 {
            order.push((i % 3, format!("d{}", i / 3)));
        }
        for i in 0..300_u32 {
            order.push((3 + i / 100, format!("e{i}")));
        }
        for i in 0..200_u32 {
            order.push(((i * 7) % 9, format!("d{}", i % 50)));
        }
        d.reserve_in(7, 20)?;
        for (q, name) in &order {
            let id = d.intern(*q, name)?;
            let want = *oracle.entry((*q, name.clone())).or_insert(id);
            assert_eq!(id, want, "{q} {name}");
        }
        d.reserve_in(0, 1000)?;
        for ((q, name), &id) in &oracle {
            assert_eq!(d.get(*q, name), Some(id));
            assert_eq!(d.name(id), Some(name.as_str()));
            assert_eq!(d.query(id), Some(*q));
            assert_eq!(d.intern(*q, name)?, id);
        }
        assert_eq!(d.len(), oracle.len());
        assert_eq!(d.get(0, "e0"), None);
        assert_eq!(d.get(99, "d0"), None);
        Ok(())
    }

    #[test]
    fn clones_are_distinct() {
        let a = Ids::new();
        assert_ne!(a.tag(), a.clone().tag());
    }
}
