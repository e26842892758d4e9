//! The flat data layout for large evaluations: judgements ([`Qrels`]) and
//! runs ([`TrecRun`]) as integer arrays grouped by query, over the string
//! tables of an [`Ids`].

use super::error::{Location, RelevanceError, Result};
use super::intern::{Documents, Ids, StringTable};
use super::keys::{descending_key, from_descending_key, from_judgement_key, judgement_key};
use super::options::TrecEvalVersion;

/// Entries held by one qrels or run (they are indexed with `u32`).
const MAX_ENTRIES: usize = u32::MAX as usize;

/// Where an entry came from: a line of a file or a record of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Lines,
    Records,
}

impl Origin {
    fn at(self, n: usize) -> Location {
        match self {
            Self::Lines => Location::Line(n),
            Self::Records => Location::Record(n),
        }
    }
}

/// Where each entry came from (its line or record number), stored as the
/// points where the number stops following the entry index: a file read
/// without blank or comment lines needs one.
#[derive(Debug, Default)]
struct Positions {
    /// `(entry index, number)` from which entry `i` has number
    /// `number + (i − index)`, by increasing index.
    breaks: Vec<(usize, usize)>,
}

impl Positions {
    #[inline]
    fn push(&mut self, index: usize, at: usize) {
        if let Some(&(i, a)) = self.breaks.last()
            && a + (index - i) == at
        {
            return;
        }
        self.breaks.push((index, at));
    }

    fn get(&self, index: usize) -> usize {
        let k = self.breaks.partition_point(|b| b.0 <= index);
        k.checked_sub(1)
            .and_then(|k| self.breaks.get(k))
            .map_or(0, |&(i, a)| a + (index - i))
    }
}

/// The first document given twice: (index of the first entry, index of the
/// repeat), by the position of the repeat.
type Duplicate = (usize, usize);

/// Entries in arrival order, grouped by query on [`Staged::group`].
#[derive(Debug)]
struct Staged<V> {
    /// Consecutive entries of one query: (query, index of the run's first entry).
    runs: Vec<(u32, usize)>,
    doc: Vec<u32>,
    value: Vec<V>,
    at: Positions,
    origin: Origin,
    records: usize,
    /// Whether every query's entries are contiguous so far.
    grouped: bool,
    /// Query ids whose run of entries has ended (for `grouped`).
    closed: Vec<bool>,
    /// One bit per document id given so far (ids are per query, so a set
    /// bit is a (query, document) pair given twice).
    seen: Vec<u64>,
    duplicate: Option<Duplicate>,
}

/// Entries grouped by query: query ids in order of first appearance, CSR
/// offsets, and per entry document and value.
struct Grouped<V> {
    queries: Vec<u32>,
    offsets: Vec<usize>,
    doc: Vec<u32>,
    value: Vec<V>,
}

impl<V: Copy + Default> Staged<V> {
    fn new(origin: Origin) -> Self {
        Self {
            runs: Vec::new(),
            doc: Vec::new(),
            value: Vec::new(),
            at: Positions::default(),
            origin,
            records: 0,
            grouped: true,
            closed: Vec::new(),
            seen: Vec::new(),
            duplicate: None,
        }
    }

    /// Counts one more record added by name or id and gives its number.
    fn next_record(&mut self) -> usize {
        self.records += 1;
        self.records
    }

    /// Stages value `v` of `document` in `query` as record `at`: a query
    /// given by name is interned in `ids`, one given by id must be one of
    /// theirs ([`not_a_query`] otherwise).
    fn add(
        &mut self,
        ids: &mut Ids,
        query: QueryRef<'_>,
        document: &str,
        v: V,
        at: usize,
    ) -> Result<()> {
        let (qt, dt) = ids.tables_mut();
        let q = match query {
            QueryRef::Name(name) => qt.intern(name)?,
            QueryRef::Id(id) if (id as usize) < qt.len() => id,
            QueryRef::Id(_) => return Err(not_a_query()),
        };
        let d = dt.intern(q, document)?;
        self.push(q, d, v, at)
    }

    #[inline]
    fn push(&mut self, q: u32, d: u32, v: V, at: usize) -> Result<()> {
        let index = self.doc.len();
        if index >= MAX_ENTRIES {
            return Err(RelevanceError::TooLarge {
                quantity: "entries",
                requested: index as u64 + 1,
                limit: MAX_ENTRIES as u64,
            });
        }
        let last = self.runs.last().map(|r| r.0);
        if last != Some(q) {
            self.new_run(last, q, index);
        }
        let (word, bit) = (d as usize / 64, 1_u64 << (d % 64));
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        if let Some(w) = self.seen.get_mut(word) {
            if *w & bit != 0 && self.duplicate.is_none() {
                let first = self.doc.iter().position(|&x| x == d).unwrap_or(0);
                self.duplicate = Some((first, index));
            }
            *w |= bit;
        }
        self.doc.push(d);
        self.value.push(v);
        self.at.push(index, at);
        Ok(())
    }

    #[cold]
    fn new_run(&mut self, last: Option<u32>, q: u32, index: usize) {
        if let Some(last) = last {
            let l = last as usize;
            if self.closed.len() <= l {
                self.closed.resize(l + 1, false);
            }
            if let Some(c) = self.closed.get_mut(l) {
                *c = true;
            }
        }
        if self.closed.get(q as usize).copied().unwrap_or(false) {
            self.grouped = false;
        }
        self.runs.push((q, index));
    }

    /// Room for `entries` more entries whose document ids are below
    /// `max_doc` (the arrays then grow without copying).
    fn reserve(&mut self, entries: usize, max_doc: usize) {
        self.doc.reserve(entries);
        self.value.reserve(entries);
        self.seen
            .reserve((max_doc / 64 + 1).saturating_sub(self.seen.len()));
    }

    /// The line or record of entry `index`.
    fn location(&self, index: usize) -> Location {
        self.origin.at(self.at.get(index))
    }

    /// Groups the entries by query (a stable counting sort unless they are
    /// already grouped), keeping arrival order within a query.
    fn group(self, query_count: usize) -> Result<Grouped<V>> {
        let n = self.doc.len();
        let run_end = |k: usize| self.runs.get(k + 1).map_or(n, |r| r.1);
        let mut first: Vec<u32> = vec![u32::MAX; query_count];
        let mut queries = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        for (k, &(q, start)) in self.runs.iter().enumerate() {
            let Some(slot) = first.get_mut(q as usize) else {
                return Err(inconsistent());
            };
            if *slot == u32::MAX {
                *slot = queries.len() as u32;
                queries.push(q);
                counts.push(0);
            }
            if let Some(c) = counts.get_mut(*slot as usize) {
                *c += run_end(k) - start;
            }
        }
        let mut offsets = Vec::with_capacity(queries.len() + 1);
        offsets.push(0);
        let mut total = 0;
        for c in &counts {
            total += c;
            offsets.push(total);
        }
        if self.grouped {
            return Ok(Grouped {
                queries,
                offsets,
                doc: self.doc,
                value: self.value,
            });
        }
        let mut next: Vec<usize> = offsets.clone();
        let (mut doc, mut value) = (vec![0_u32; n], vec![V::default(); n]);
        for (k, &(q, start)) in self.runs.iter().enumerate() {
            let row = first.get(q as usize).copied().ok_or_else(inconsistent)?;
            let Some(pos) = next.get_mut(row as usize) else {
                return Err(inconsistent());
            };
            let len = run_end(k) - start;
            if let (Some(d), Some(v), Some(sd), Some(sv)) = (
                doc.get_mut(*pos..*pos + len),
                value.get_mut(*pos..*pos + len),
                self.doc.get(start..start + len),
                self.value.get(start..start + len),
            ) {
                d.copy_from_slice(sd);
                v.copy_from_slice(sv);
            }
            *pos += len;
        }
        Ok(Grouped {
            queries,
            offsets,
            doc,
            value,
        })
    }
}

impl Staged<f64> {
    /// Keeps the first `max` entries of each query in `trec_eval`'s rank
    /// order for `version` (decreasing score, as `f32` for
    /// [`TrecEvalVersion::V9`]; ties by decreasing document id as text,
    /// then arrival order), dropping the others as if they had never been
    /// given: the kept entries keep their lines, and a document given twice
    /// is one only if both are kept. Nothing changes when no query has more
    /// than `max` entries.
    fn keep_top(&mut self, max: usize, names: &Documents, version: TrecEvalVersion) {
        let n = self.doc.len();
        let run_end = |k: usize| self.runs.get(k + 1).map_or(n, |r| r.1);
        // The query of each entry and each query's number of entries.
        let mut query = Vec::with_capacity(n);
        let mut count: Vec<usize> = Vec::new();
        for (k, &(q, start)) in self.runs.iter().enumerate() {
            let q_index = q as usize;
            if count.len() <= q_index {
                count.resize(q_index + 1, 0);
            }
            let len = run_end(k) - start;
            if let Some(c) = count.get_mut(q_index) {
                *c += len;
            }
            query.extend(std::iter::repeat_n(q, len));
        }
        if count.iter().all(|&c| c <= max) {
            return;
        }
        let key = |v: f64| match version {
            TrecEvalVersion::V9 => descending_key(f64::from(v as f32)),
            _ => descending_key(v),
        };
        // The entries of each query with too many, in rank order.
        let mut long: Vec<Vec<usize>> = vec![Vec::new(); count.len()];
        for (i, &q) in query.iter().enumerate() {
            if let Some(list) = long.get_mut(q as usize)
                && count.get(q as usize).is_some_and(|&c| c > max)
            {
                list.push(i);
            }
        }
        let mut keep = vec![true; n];
        for list in &mut long {
            let entry = |i: usize| {
                let d = self.doc.get(i).copied().unwrap_or(0);
                (key(self.value.get(i).copied().unwrap_or(0.0)), d)
            };
            list.sort_by(|&a, &b| {
                let ((ka, da), (kb, db)) = (entry(a), entry(b));
                ka.cmp(&kb)
                    .then_with(|| names.name_bytes(db).cmp(&names.name_bytes(da)))
                    .then(a.cmp(&b))
            });
            for &i in list.iter().skip(max) {
                if let Some(k) = keep.get_mut(i) {
                    *k = false;
                }
            }
        }
        let mut kept = Staged::new(self.origin);
        kept.records = self.records;
        for (i, &q) in query.iter().enumerate() {
            if keep.get(i).copied().unwrap_or(false)
                && let (Some(&d), Some(&v)) = (self.doc.get(i), self.value.get(i))
            {
                // Fewer entries than were given: within the limit.
                let _ = kept.push(q, d, v, self.at.get(i));
            }
        }
        *self = kept;
    }
}

/// [`QrelsBuilder::reserve`] and [`RunBuilder::reserve`]: room for
/// `entries` more entries, and for the names of `new_documents` more
/// documents.
fn reserve<V: Copy + Default>(
    ids: &mut Ids,
    staged: &mut Staged<V>,
    entries: usize,
    new_documents: usize,
) {
    let documents = ids.documents().len();
    if new_documents > 0 {
        ids.tables_mut().1.reserve(new_documents);
    }
    staged.reserve(entries, documents.saturating_add(entries));
}

/// [`QrelsBuilder::reserve_query`] and [`RunBuilder::reserve_query`].
fn reserve_query(ids: &mut Ids, query: u32, documents: usize) -> Result<()> {
    let (qt, dt) = ids.tables_mut();
    if query as usize >= qt.len() {
        return Err(not_a_query());
    }
    dt.reserve_in(query, documents)
}

/// A query id that the builder's id tables did not give.
/// A query a builder's caller names: by its name or by the id the builder
/// gave for it.
#[derive(Debug, Clone, Copy)]
enum QueryRef<'a> {
    Name(&'a str),
    Id(u32),
}

/// Refuses a run's score that is not finite, at record `at` (numbered
/// from 1): [`RelevanceError::NaN`] or [`RelevanceError::Infinite`].
fn check_finite(score: f64, at: usize) -> Result<()> {
    let index = at - 1;
    if score.is_nan() {
        return Err(RelevanceError::NaN {
            input: "score",
            index,
        });
    }
    if score.is_infinite() {
        return Err(RelevanceError::Infinite {
            input: "score",
            index,
        });
    }
    Ok(())
}

fn not_a_query() -> RelevanceError {
    RelevanceError::InvalidParameter {
        name: "query",
        expected: "a query id the builder gave",
    }
}

fn inconsistent() -> RelevanceError {
    RelevanceError::InvalidParameter {
        name: "ids",
        expected: "entries interned in the same Ids",
    }
}

/// A row of a [`Grouped`] to sort: the index of its first entry, its
/// documents and its values.
type Row<'a, V> = (usize, &'a mut [u32], &'a mut [V]);

/// Sorts the rows of `g` (each by `sort`, which may record things for its
/// row) on up to the crate's number of threads, in pieces of whole rows
/// whose boundaries depend on the sizes only; returns what `sort` recorded,
/// row by row in order. `sort` is given a scratch buffer, one a piece, that
/// it may keep between the rows of the piece (one allocation a piece, not
/// one a row).
fn sort_rows<V: Copy + Send, P: Send, S>(
    g: &mut Grouped<V>,
    sort: impl Fn(usize, &mut [u32], &mut [V], &mut Vec<P>, &mut Vec<S>) + Sync,
) -> Vec<P> {
    const PIECE: usize = 1 << 15;
    let workers = crate::threads::workers_for(g.doc.len());
    let mut pieces: Vec<Vec<Row<'_, V>>> = Vec::new();
    let (mut docs, mut values) = (g.doc.as_mut_slice(), g.value.as_mut_slice());
    let mut size = PIECE;
    for w in g.offsets.windows(2) {
        let (lo, hi) = (
            w.first().copied().unwrap_or(0),
            w.get(1).copied().unwrap_or(0),
        );
        let len = hi.saturating_sub(lo).min(docs.len());
        let (d, rest_d) = docs.split_at_mut(len);
        let (v, rest_v) = values.split_at_mut(len.min(values.len()));
        docs = rest_d;
        values = rest_v;
        if size >= PIECE {
            pieces.push(Vec::new());
            size = 0;
        }
        size += len;
        if let Some(p) = pieces.last_mut() {
            p.push((lo, d, v));
        }
    }
    let parts = crate::threads::map(pieces, workers, |rows| {
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        for (lo, d, v) in rows {
            sort(lo, d, v, &mut out, &mut scratch);
        }
        out
    });
    parts.into_iter().flatten().collect()
}

fn doc_name(t: &Documents, id: Option<&u32>) -> String {
    id.and_then(|&i| t.name(i)).unwrap_or("").to_owned()
}

/// The name of the query document id `doc` belongs to.
fn query_name(ids: &Ids, doc: Option<u32>) -> String {
    doc.and_then(|d| ids.documents().query(d))
        .and_then(|q| ids.queries().name(q))
        .unwrap_or("")
        .to_owned()
}

fn rows_of(queries: &[u32], query_count: usize) -> Vec<u32> {
    let mut row_of = vec![u32::MAX; query_count];
    for (row, &q) in queries.iter().enumerate() {
        if let Some(r) = row_of.get_mut(q as usize) {
            *r = row as u32;
        }
    }
    row_of
}

mod qrels;
mod run;

pub use qrels::{Qrels, QrelsBuilder};
pub use run::{RunBuilder, TrecRun};

#[cfg(test)]
mod tests;
