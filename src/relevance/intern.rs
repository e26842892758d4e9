//! String tables: query and document ids interned once, so that judgements
//! and runs are flat integer arrays and scoring never hashes a string.

use super::error::{RelevanceError, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// Largest number of distinct strings one table holds (ids are `u32`).
const MAX_IDS: usize = u32::MAX as usize - 1;

/// An open-addressing hash index (linear probing) of ids whose strings are
/// stored elsewhere. Slots: 0 = empty, else `(tag << 32) | (id + 1)` with
/// `tag` the top 32 bits of the string's hash, which also give the home slot.
#[derive(Debug, Clone, Default)]
struct Index {
    slots: Vec<u64>,
    /// Number of ids indexed.
    len: usize,
}

impl Index {
    /// The id whose string satisfies `eq`, among those with hash tag `tag`.
    #[inline]
    fn find(&self, tag: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut pos = tag as usize & mask;
        loop {
            let slot = *self.slots.get(pos)?;
            if slot == 0 {
                return None;
            }
            if slot >> 32 == tag {
                let id = (slot as u32).wrapping_sub(1);
                if eq(id) {
                    return Some(id);
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    /// The id whose string satisfies `eq`, or `new_id` inserted (then
    /// `Ok(None)`).
    #[inline]
    fn find_or_insert(
        &mut self,
        tag: u64,
        new_id: usize,
        eq: impl Fn(u32) -> bool,
    ) -> Result<Option<u32>> {
        if self.slots.len() < 2 * (self.len + 1) {
            self.grow()?;
        }
        let mask = self.slots.len() - 1;
        let mut pos = tag as usize & mask;
        loop {
            let Some(slot) = self.slots.get_mut(pos) else {
                return Err(too_many());
            };
            if *slot == 0 {
                if new_id >= MAX_IDS {
                    return Err(too_many());
                }
                *slot = (tag << 32) | (new_id as u64 + 1);
                self.len += 1;
                return Ok(None);
            }
            if *slot >> 32 == tag {
                let id = (*slot as u32).wrapping_sub(1);
                if eq(id) {
                    return Ok(Some(id));
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Doubles the index (at least 8 slots), keeping the load at most 1/2
    /// while it can grow, and re-inserts every id by its tag.
    fn grow(&mut self) -> Result<()> {
        let count = self.len;
        let want = (2 * (count + 1)).next_power_of_two().max(8);
        // Slots are addressed by a 32-bit tag: at most 2³² of them.
        let capacity = want.min(1 << 32);
        if capacity <= self.slots.len() {
            // Full size: free slots remain while ids < MAX_IDS < 2³².
            return if count < MAX_IDS {
                Ok(())
            } else {
                Err(too_many())
            };
        }
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(capacity)
            .map_err(|_| RelevanceError::OutOfMemory {
                quantity: "string table slots",
                requested: capacity as u64,
            })?;
        slots.resize(capacity, 0_u64);
        let mask = capacity - 1;
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let mut pos = (slot >> 32) as usize & mask;
            while slots.get(pos).is_some_and(|&s| s != 0) {
                pos = (pos + 1) & mask;
            }
            if let Some(s) = slots.get_mut(pos) {
                *s = slot;
            }
        }
        self.slots = slots;
        Ok(())
    }
}

/// Strings stored back to back, numbered in order of addition.
#[derive(Debug, Clone, Default)]
struct Names {
    bytes: String,
    /// `ends[i]` is the end of string i in `bytes` (its start is `ends[i − 1]`).
    ends: Vec<usize>,
}

impl Names {
    #[inline]
    fn name(&self, id: u32) -> Option<&str> {
        let i = id as usize;
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        self.bytes.get(start..end)
    }

    #[inline]
    fn push(&mut self, s: &str) -> u32 {
        self.bytes.push_str(s);
        self.ends.push(self.bytes.len());
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
        self.names.ends.len()
    }

    /// Whether the table holds no string.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.ends.is_empty()
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
        self.index
            .find(hash(s.as_bytes()) >> 32, |id| names.name(id) == Some(s))
    }

    /// The id of `s`, adding it if new.
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] if the table already holds `u32::MAX − 1`
    /// strings; [`RelevanceError::OutOfMemory`] if its index cannot grow.
    pub fn intern(&mut self, s: &str) -> Result<u32> {
        let names = &self.names;
        let n = names.ends.len();
        match self
            .index
            .find_or_insert(hash(s.as_bytes()) >> 32, n, |id| names.name(id) == Some(s))?
        {
            Some(id) => Ok(id),
            None => Ok(self.names.push(s)),
        }
    }

    /// Every string in id order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len() as u32).filter_map(|id| self.name(id))
    }
}

/// The documents of every query: one id per distinct (query, document)
/// pair, with a small hash index per query.
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
    query: Vec<u32>,
    per_query: Vec<Index>,
}

impl Documents {
    /// Number of document ids (distinct (query, document) pairs).
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.ends.len()
    }

    /// Whether there is no document.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.ends.is_empty()
    }

    /// The name of document id `id`.
    #[must_use]
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.name(id)
    }

    /// The query id document id `id` belongs to.
    #[must_use]
    pub fn query(&self, id: u32) -> Option<u32> {
        self.query.get(id as usize).copied()
    }

    /// The id of document `name` of query `query`, if present.
    #[must_use]
    pub fn get(&self, query: u32, name: &str) -> Option<u32> {
        let names = &self.names;
        self.per_query
            .get(query as usize)?
            .find(hash(name.as_bytes()) >> 32, |id| {
                names.name(id) == Some(name)
            })
    }

    /// The id of document `name` of query `query`, adding it if new.
    pub(crate) fn intern(&mut self, query: u32, name: &str) -> Result<u32> {
        let q = query as usize;
        if self.per_query.len() <= q {
            self.per_query.resize_with(q + 1, Index::default);
        }
        let Some(index) = self.per_query.get_mut(q) else {
            return Err(too_many());
        };
        let names = &self.names;
        let n = names.ends.len();
        match index.find_or_insert(hash(name.as_bytes()) >> 32, n, |id| {
            names.name(id) == Some(name)
        })? {
            Some(id) => Ok(id),
            None => {
                self.query.push(query);
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

/// 64 × 64 → 128-bit product folded to 64 bits.
#[inline]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// A fast non-cryptographic hash of a short byte string (ids are mostly
/// under 32 bytes): one folded multiplication per 8 bytes.
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K0: u64 = 0x243f_6a88_85a3_08d3;
    const K1: u64 = 0x1319_8a2e_0370_7344;
    const K2: u64 = 0xa409_3822_299f_31d0;
    let mut h = K0 ^ (bytes.len() as u64).wrapping_mul(K1);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0_u8; 8];
        w.copy_from_slice(c);
        h = fold_mul(h ^ u64::from_le_bytes(w), K2);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0_u8; 8];
        if let Some(dst) = w.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        h = fold_mul(h ^ u64::from_le_bytes(w), K2);
    }
    fold_mul(h, K1)
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
    fn hash_depends_on_every_byte_and_the_length() {
        assert_ne!(hash(b"abcdefgh1"), hash(b"abcdefgh2"));
        assert_ne!(hash(b"a"), hash(b"a\0"));
        assert_ne!(hash(b""), hash(b"\0"));
    }

    #[test]
    fn clones_are_distinct() {
        let a = Ids::new();
        assert_ne!(a.tag(), a.clone().tag());
    }
}
