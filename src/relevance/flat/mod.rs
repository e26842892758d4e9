//! The flat data layout for large evaluations: judgements ([`Qrels`]) and
//! runs ([`TrecRun`]) as integer arrays grouped by query, over the string
//! tables of an [`Ids`].

use super::error::{Location, RelevanceError, Result};
use super::evaluate::TrecEvalVersion;
use super::intern::{Documents, Ids, StringTable};

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

/// [`QrelsBuilder::reserve`] and [`RunBuilder::reserve`].
fn reserve<V: Copy + Default>(ids: &mut Ids, staged: &mut Staged<V>, entries: usize) {
    let documents = ids.documents().len();
    ids.tables_mut().1.reserve(entries);
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
/// row by row in order.
fn sort_rows<V: Copy + Send, P: Send>(
    g: &mut Grouped<V>,
    sort: impl Fn(usize, &mut [u32], &mut [V], &mut Vec<P>) + Sync,
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
        let mut out = Vec::new();
        for (lo, d, v) in rows {
            sort(lo, d, v, &mut out);
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

/// Relevance judgements with one integer grade per (query, document) pair,
/// as in a TREC qrels file, stored as flat arrays grouped by query.
///
/// Within a query the judged documents are sorted by decreasing grade (then
/// increasing document id), so the ideal ranking of nDCG and the number of
/// relevant documents need no sort at scoring time.
///
/// Grades follow `trec_eval`: a document is relevant when its grade is at
/// least the relevance level (1 by default); its nDCG gain is computed from
/// its grade; a negative grade (`trec_eval`'s "in the pool but unjudged")
/// is never relevant and has gain 0.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Ids, Qrels};
/// let mut ids = Ids::new();
/// let mut b = Qrels::builder(&mut ids);
/// b.add("q1", "d1", 0)?;
/// b.add("q1", "d2", 2)?;
/// assert!(b.add("q1", "d1", 1).is_ok()); // reported by finish
/// assert!(b.finish().is_err());
/// let mut b = Qrels::builder(&mut ids);
/// b.add("q1", "d1", 0)?;
/// b.add("q1", "d2", 2)?;
/// let qrels = b.finish()?;
/// let q1 = ids.queries().get("q1").ok_or("no q1")?;
/// let (docs, grades) = qrels.judgements(q1).ok_or("not judged")?;
/// assert_eq!(grades, &[2, 0]);
/// assert_eq!(ids.documents().name(docs[0]), Some("d2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Qrels {
    pub(crate) tag: u64,
    pub(crate) queries: Vec<u32>,
    pub(crate) offsets: Vec<usize>,
    pub(crate) docs: Vec<u32>,
    pub(crate) grades: Vec<i32>,
    row_of: Vec<u32>,
}

impl Qrels {
    /// A builder that interns into `ids`.
    pub fn builder(ids: &mut Ids) -> QrelsBuilder<'_> {
        QrelsBuilder {
            ids,
            staged: Staged::new(Origin::Records),
        }
    }

    pub(crate) fn line_builder(ids: &mut Ids) -> QrelsBuilder<'_> {
        QrelsBuilder {
            ids,
            staged: Staged::new(Origin::Lines),
        }
    }

    /// Number of judgements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether there is no judgement.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The judged query ids, in order of first appearance.
    #[must_use]
    pub fn queries(&self) -> &[u32] {
        &self.queries
    }

    /// The judged documents of `query` and their grades (decreasing grade,
    /// then increasing document id), or `None` if the query is not judged.
    #[must_use]
    pub fn judgements(&self, query: u32) -> Option<(&[u32], &[i32])> {
        let row = *self.row_of.get(query as usize)? as usize;
        let (lo, hi) = (*self.offsets.get(row)?, *self.offsets.get(row + 1)?);
        Some((self.docs.get(lo..hi)?, self.grades.get(lo..hi)?))
    }

    pub(crate) fn row(&self, row: usize) -> (&[u32], &[i32]) {
        let lo = self.offsets.get(row).copied().unwrap_or(0);
        let hi = self.offsets.get(row + 1).copied().unwrap_or(lo);
        (
            self.docs.get(lo..hi).unwrap_or(&[]),
            self.grades.get(lo..hi).unwrap_or(&[]),
        )
    }
}

/// Collects judgements for a [`Qrels`]; see [`Qrels::builder`].
#[derive(Debug)]
pub struct QrelsBuilder<'a> {
    ids: &'a mut Ids,
    staged: Staged<i32>,
}

impl QrelsBuilder<'_> {
    /// Adds the grade of (`query`, `document`). A pair judged twice is
    /// reported by [`QrelsBuilder::finish`].
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] past `u32::MAX` judgements or distinct ids.
    ///
    /// # Complexity
    /// O(length of the ids) expected.
    pub fn add(&mut self, query: &str, document: &str, grade: i32) -> Result<()> {
        let at = self.staged.next_record();
        self.staged
            .add(self.ids, QueryRef::Name(query), document, grade, at)
    }

    /// The id of query `name`, interned, for [`QrelsBuilder::add_to`]: a
    /// caller adding a query's judgements together looks the query up once.
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] past `u32::MAX − 1` distinct queries.
    pub fn query(&mut self, name: &str) -> Result<u32> {
        self.ids.tables_mut().0.intern(name)
    }

    /// Makes room for `entries` more judgements (their documents' ids and
    /// names, their grades), so that a caller who knows the size (a dict's
    /// length) adds them without the arrays growing by copying. A hint: any
    /// number of judgements can be added after it.
    ///
    /// # Complexity
    /// O(1) time; memory for `entries` judgements, reserved (touched only
    /// as they are added).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{Ids, Qrels};
    /// let mut ids = Ids::new();
    /// let mut b = Qrels::builder(&mut ids);
    /// b.reserve(2);
    /// let q = b.query("q1")?;
    /// b.add_to(q, "a", 1)?;
    /// b.add_to(q, "b", 0)?;
    /// assert_eq!(b.finish()?.len(), 2);
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn reserve(&mut self, entries: usize) {
        reserve(self.ids, &mut self.staged, entries);
    }

    /// Makes room among the documents of query `query` (an id that
    /// [`QrelsBuilder::query`] gave) for `documents` more, so that a caller
    /// who knows their number adds them without the query's table of
    /// documents growing. A hint, as [`QrelsBuilder::reserve`].
    ///
    /// # Errors
    /// [`RelevanceError::InvalidParameter`] for a query id that is not one
    /// of the builder's; [`RelevanceError::OutOfMemory`] if the table
    /// cannot grow.
    ///
    /// # Complexity
    /// O(documents of the query so far) when the table grows, else O(1).
    pub fn reserve_query(&mut self, query: u32, documents: usize) -> Result<()> {
        reserve_query(self.ids, query, documents)
    }

    /// As [`QrelsBuilder::add`], for a query id that
    /// [`QrelsBuilder::query`] gave.
    ///
    /// # Errors
    /// As [`QrelsBuilder::add`]; [`RelevanceError::InvalidParameter`] for a
    /// query id that is not one of the builder's.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{Ids, Qrels};
    /// let mut ids = Ids::new();
    /// let mut b = Qrels::builder(&mut ids);
    /// let q = b.query("q1")?;
    /// for (doc, grade) in [("a", 1), ("b", 0)] {
    ///     b.add_to(q, doc, grade)?;
    /// }
    /// assert_eq!(b.finish()?.len(), 2);
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn add_to(&mut self, query: u32, document: &str, grade: i32) -> Result<()> {
        let at = self.staged.next_record();
        self.staged
            .add(self.ids, QueryRef::Id(query), document, grade, at)
    }

    pub(crate) fn push_ids(&mut self, q: u32, d: u32, grade: i32, line: usize) -> Result<()> {
        self.staged.push(q, d, grade, line)
    }

    pub(crate) fn tables(&mut self) -> (&mut StringTable, &mut Documents) {
        self.ids.tables_mut()
    }

    /// Groups the judgements by query and sorts each query's by grade.
    ///
    /// # Errors
    /// [`RelevanceError::DuplicateQrel`] for the earliest pair judged twice
    /// (both locations named), as `trec_eval` refuses such a file.
    ///
    /// # Complexity
    /// O(n + Σ n_q log n_q) time, O(n + ids) memory.
    pub fn finish(self) -> Result<Qrels> {
        let qn = self.ids.queries().len();
        if let Some((first, again)) = self.staged.duplicate {
            let docs = self.ids.documents();
            let d = self.staged.doc.get(again).copied();
            return Err(RelevanceError::DuplicateQrel {
                at: self.staged.location(again),
                first: self.staged.location(first),
                query: query_name(self.ids, d),
                document: doc_name(docs, d.as_ref()),
            });
        }
        let mut g = self.staged.group(qn)?;
        sort_rows(&mut g, |_, docs, grades, _: &mut Vec<()>| {
            // One integer a judgement, whose increasing order is decreasing
            // grade, then increasing document id.
            let mut keys: Vec<u64> = grades
                .iter()
                .zip(docs.iter())
                .map(|(&gr, &d)| judgement_key(gr, d))
                .collect();
            keys.sort_unstable();
            for ((gr, d), &key) in grades.iter_mut().zip(docs.iter_mut()).zip(&keys) {
                (*gr, *d) = from_judgement_key(key);
            }
        });
        let row_of = rows_of(&g.queries, qn);
        Ok(Qrels {
            tag: self.ids.tag(),
            queries: g.queries,
            offsets: g.offsets,
            docs: g.doc,
            grades: g.value,
            row_of,
        })
    }
}

/// A run: a system's scores of (query, document) pairs, stored as flat
/// arrays grouped by query, each query's documents in `trec_eval`'s rank
/// order: decreasing score, ties by decreasing document id *as text*
/// (byte-wise), whatever the rank column of the file says.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Ids, TrecRun};
/// let mut ids = Ids::new();
/// let mut b = TrecRun::builder(&mut ids);
/// b.add("q1", "a", 0.5)?;
/// b.add("q1", "c", 0.9)?;
/// b.add("q1", "b", 0.5)?;
/// let run = b.finish()?;
/// let q1 = ids.queries().get("q1").ok_or("no q1")?;
/// let (docs, scores) = run.ranking(q1).ok_or("not ranked")?;
/// let names: Vec<_> = docs.iter().filter_map(|&d| ids.documents().name(d)).collect();
/// assert_eq!(names, ["c", "b", "a"]); // the tie at 0.5: "b" before "a"
/// assert_eq!(scores, &[0.9, 0.5, 0.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct TrecRun {
    pub(crate) tag: u64,
    pub(crate) queries: Vec<u32>,
    pub(crate) offsets: Vec<usize>,
    pub(crate) docs: Vec<u32>,
    pub(crate) scores: Vec<f64>,
    row_of: Vec<u32>,
    name: Option<String>,
    /// Where `trec_eval` 9's order (scores as C floats) differs from the
    /// stored one: runs of scores equal as `f32` but not as `f64`, by their
    /// first index, with their documents by decreasing id. Usually empty.
    float_patches: Vec<(usize, Vec<u32>)>,
}

impl TrecRun {
    /// A builder that interns into `ids`.
    pub fn builder(ids: &mut Ids) -> RunBuilder<'_> {
        RunBuilder {
            ids,
            staged: Staged::new(Origin::Records),
            name: None,
            top: None,
        }
    }

    pub(crate) fn line_builder(ids: &mut Ids) -> RunBuilder<'_> {
        RunBuilder {
            ids,
            staged: Staged::new(Origin::Lines),
            name: None,
            top: None,
        }
    }

    /// Number of (query, document) scores.
    #[must_use]
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether the run scores nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The run's name: the tag of the last line of a TREC run file, which
    /// `trec_eval` prints as `runid`.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The ranked query ids, in order of first appearance.
    #[must_use]
    pub fn queries(&self) -> &[u32] {
        &self.queries
    }

    /// The documents of `query` in rank order and their scores, or `None` if
    /// the run does not rank the query.
    #[must_use]
    pub fn ranking(&self, query: u32) -> Option<(&[u32], &[f64])> {
        self.row_of(query).map(|row| self.row(row))
    }

    pub(crate) fn row(&self, row: usize) -> (&[u32], &[f64]) {
        let lo = self.offsets.get(row).copied().unwrap_or(0);
        let hi = self.offsets.get(row + 1).copied().unwrap_or(lo);
        (
            self.docs.get(lo..hi).unwrap_or(&[]),
            self.scores.get(lo..hi).unwrap_or(&[]),
        )
    }

    /// The runs of row `row` that `trec_eval` 9 orders differently (scores
    /// equal as `f32`, not as `f64`): (index within the row, documents in
    /// its order).
    pub(crate) fn float_patches(&self, row: usize) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        let lo = self.offsets.get(row).copied().unwrap_or(0);
        let hi = self.offsets.get(row + 1).copied().unwrap_or(lo);
        let first = self.float_patches.partition_point(|p| p.0 < lo);
        self.float_patches
            .get(first..)
            .unwrap_or(&[])
            .iter()
            .take_while(move |p| p.0 < hi)
            .map(move |(at, docs)| (at - lo, docs.as_slice()))
    }

    pub(crate) fn row_of(&self, query: u32) -> Option<usize> {
        self.row_of
            .get(query as usize)
            .filter(|&&r| r != u32::MAX)
            .map(|&r| r as usize)
    }
}

/// Collects scores for a [`TrecRun`]; see [`TrecRun::builder`].
#[derive(Debug)]
pub struct RunBuilder<'a> {
    ids: &'a mut Ids,
    staged: Staged<f64>,
    name: Option<String>,
    /// `trec_eval -M`: the documents kept of each query, and the order.
    top: Option<(usize, TrecEvalVersion)>,
}

impl RunBuilder<'_> {
    /// Adds the score of (`query`, `document`), larger is better. A pair
    /// scored twice is reported by [`RunBuilder::finish`].
    ///
    /// # Errors
    /// [`RelevanceError::NaN`] / [`RelevanceError::Infinite`] (input
    /// `"score"`, index = record number − 1); [`RelevanceError::TooLarge`]
    /// past `u32::MAX` scores or distinct ids.
    ///
    /// # Complexity
    /// O(length of the ids) expected.
    pub fn add(&mut self, query: &str, document: &str, score: f64) -> Result<()> {
        let at = self.staged.next_record();
        check_finite(score, at)?;
        self.staged
            .add(self.ids, QueryRef::Name(query), document, score, at)
    }

    /// The id of query `name`, interned, for [`RunBuilder::add_to`]: a
    /// caller adding a query's scores together looks the query up once.
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] past `u32::MAX − 1` distinct queries.
    pub fn query(&mut self, name: &str) -> Result<u32> {
        self.ids.tables_mut().0.intern(name)
    }

    /// Makes room for `entries` more scores (their documents' ids and
    /// names, their scores), so that a caller who knows the size (a dict's
    /// length) adds them without the arrays growing by copying. A hint: any
    /// number of scores can be added after it.
    ///
    /// # Complexity
    /// O(1) time; memory for `entries` scores, reserved (touched only as
    /// they are added).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{Ids, TrecRun};
    /// let mut ids = Ids::new();
    /// let mut b = TrecRun::builder(&mut ids);
    /// b.reserve(2);
    /// let q = b.query("q1")?;
    /// b.add_to(q, "a", 0.5)?;
    /// b.add_to(q, "b", 0.9)?;
    /// assert_eq!(b.finish()?.len(), 2);
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn reserve(&mut self, entries: usize) {
        reserve(self.ids, &mut self.staged, entries);
    }

    /// Makes room among the documents of query `query` (an id that
    /// [`RunBuilder::query`] gave) for `documents` more, so that a caller
    /// who knows their number adds them without the query's table of
    /// documents growing. A hint, as [`RunBuilder::reserve`].
    ///
    /// # Errors
    /// [`RelevanceError::InvalidParameter`] for a query id that is not one
    /// of the builder's; [`RelevanceError::OutOfMemory`] if the table
    /// cannot grow.
    ///
    /// # Complexity
    /// O(documents of the query so far) when the table grows, else O(1).
    pub fn reserve_query(&mut self, query: u32, documents: usize) -> Result<()> {
        reserve_query(self.ids, query, documents)
    }

    /// As [`RunBuilder::add`], for a query id that [`RunBuilder::query`]
    /// gave.
    ///
    /// # Errors
    /// As [`RunBuilder::add`]; [`RelevanceError::InvalidParameter`] for a
    /// query id that is not one of the builder's.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{Ids, TrecRun};
    /// let mut ids = Ids::new();
    /// let mut b = TrecRun::builder(&mut ids);
    /// let q = b.query("q1")?;
    /// for (doc, score) in [("a", 0.5), ("b", 0.9)] {
    ///     b.add_to(q, doc, score)?;
    /// }
    /// assert!(b.add_to(q + 1, "c", 0.1).is_err());
    /// assert_eq!(b.finish()?.len(), 2);
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn add_to(&mut self, query: u32, document: &str, score: f64) -> Result<()> {
        let at = self.staged.next_record();
        check_finite(score, at)?;
        self.staged
            .add(self.ids, QueryRef::Id(query), document, score, at)
    }

    pub(crate) fn push_ids(&mut self, q: u32, d: u32, score: f64, line: usize) -> Result<()> {
        self.staged.push(q, d, score, line)
    }

    pub(crate) fn tables(&mut self) -> (&mut StringTable, &mut Documents) {
        self.ids.tables_mut()
    }

    pub(crate) fn set_name(&mut self, name: &str) {
        self.name = Some(name.to_owned());
    }

    /// Keeps only the first `max` documents of each query, as `trec_eval -M
    /// max` does: in the rank order of `version` (decreasing score, as a C
    /// `float` for [`TrecEvalVersion::V9`]; ties by decreasing document id
    /// as text), the others dropped by [`finish`](Self::finish) before
    /// anything else, so a document listed twice is an error only when both
    /// are kept (`trec_eval` checks for duplicates after the cut).
    ///
    /// A `max` of 0 keeps every document (as no limit does).
    ///
    /// # Complexity
    /// O(1) here; [`finish`](Self::finish) then sorts the documents of each
    /// query with more than `max`.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{Ids, TrecEvalVersion, TrecRun};
    /// let mut ids = Ids::new();
    /// let mut b = TrecRun::builder(&mut ids);
    /// b.add("q1", "a", 0.5)?;
    /// b.add("q1", "c", 0.9)?;
    /// b.add("q1", "b", 0.5)?;
    /// b.add("q1", "a", 0.1)?; // a duplicate, but cut off
    /// b.keep_top(2, TrecEvalVersion::V10);
    /// let run = b.finish()?;
    /// let q1 = ids.queries().get("q1").ok_or("no q1")?;
    /// let (docs, _) = run.ranking(q1).ok_or("not ranked")?;
    /// let names: Vec<_> = docs.iter().filter_map(|&d| ids.documents().name(d)).collect();
    /// assert_eq!(names, ["c", "b"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keep_top(&mut self, max: usize, version: TrecEvalVersion) -> &mut Self {
        self.top = (max > 0).then_some((max, version));
        self
    }

    /// Groups the scores by query and sorts each query's documents into
    /// `trec_eval`'s rank order (decreasing score, ties by decreasing
    /// document id as text).
    ///
    /// # Errors
    /// [`RelevanceError::DuplicateScore`] for the earliest document scored
    /// twice for one query (both locations named): `trec_eval` stops with
    /// "duplicate docs" on such a run and `pytrec_eval.parse_run` asserts.
    ///
    /// # Complexity
    /// O(n + Σ n_q log n_q) time, O(n + ids) memory.
    pub fn finish(mut self) -> Result<TrecRun> {
        let qn = self.ids.queries().len();
        let names = self.ids.documents();
        if let Some((max, version)) = self.top {
            self.staged.keep_top(max, names, version);
        }
        if let Some((first, again)) = self.staged.duplicate {
            let d = self.staged.doc.get(again).copied();
            return Err(RelevanceError::DuplicateScore {
                at: self.staged.location(again),
                first: self.staged.location(first),
                query: query_name(self.ids, d),
                document: doc_name(names, d.as_ref()),
            });
        }
        let mut g = self.staged.group(qn)?;
        let float_patches = sort_rows(&mut g, |lo, docs, scores, patches| {
            let mut pairs: Vec<(u64, u32)> = scores
                .iter()
                .zip(docs.iter())
                .map(|(&s, &d)| (descending_key(s), d))
                .collect();
            pairs.sort_unstable_by_key(|p| p.0);
            // Equal scores (rare): decreasing document id as text. The
            // documents of a query are distinct, so this order is total and
            // the result that of one sort by (score, name).
            let mut i = 0;
            while let Some(&(key, _)) = pairs.get(i) {
                let tie = pairs
                    .get(i + 1..)
                    .map_or(0, |rest| rest.iter().take_while(|p| p.0 == key).count());
                if tie > 0
                    && let Some(run) = pairs.get_mut(i..=i + tie)
                {
                    run.sort_unstable_by(|a, b| names.name_bytes(b.1).cmp(&names.name_bytes(a.1)));
                }
                i += tie + 1;
            }
            for ((s, d), &(key, pd)) in scores.iter_mut().zip(docs.iter_mut()).zip(&pairs) {
                *s = from_descending_key(key);
                *d = pd;
            }
            float_ties(scores, docs, lo, names, patches);
        });
        let row_of = rows_of(&g.queries, qn);
        Ok(TrecRun {
            tag: self.ids.tag(),
            queries: g.queries,
            offsets: g.offsets,
            docs: g.doc,
            scores: g.value,
            row_of,
            name: self.name,
            float_patches,
        })
    }
}

/// Appends to `patches` the runs of a ranking (in `trec_eval` 10's order)
/// whose scores are equal as `f32` but not all equal as `f64`, with their
/// documents by decreasing id: `trec_eval` 9 stores scores as C floats, so
/// there they tie. Rounding to `f32` keeps the order of distinct scores
/// (it is monotone), so these runs are the only difference.
fn float_ties(
    scores: &[f64],
    docs: &[u32],
    offset: usize,
    names: &Documents,
    patches: &mut Vec<(usize, Vec<u32>)>,
) {
    let mut i = 0;
    while i < scores.len() {
        let Some(&first) = scores.get(i) else { break };
        let f = first as f32;
        let mut j = i + 1;
        let mut differ = false;
        while let Some(&x) = scores.get(j) {
            if x as f32 != f {
                break;
            }
            differ |= x != first;
            j += 1;
        }
        if differ && let Some(run) = docs.get(i..j) {
            let mut order = run.to_vec();
            order.sort_by(|&a, &b| names.name_bytes(b).cmp(&names.name_bytes(a)));
            patches.push((offset + i, order));
        }
        i = j;
    }
}

/// A u64 whose increasing order is that of decreasing grade, then
/// increasing document id.
#[inline]
fn judgement_key(grade: i32, doc: u32) -> u64 {
    let ascending = (grade as u32) ^ (1 << 31);
    (u64::from(!ascending) << 32) | u64::from(doc)
}

/// The inverse of [`judgement_key`].
#[inline]
fn from_judgement_key(key: u64) -> (i32, u32) {
    let ascending = !((key >> 32) as u32);
    ((ascending ^ (1 << 31)) as i32, key as u32)
}

/// A u64 whose increasing order is the decreasing order of finite `x`
/// (−0 and +0 share a key).
#[inline]
pub(crate) fn descending_key(x: f64) -> u64 {
    let bits = (x + 0.0).to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    !ascending
}

/// The inverse of [`descending_key`] (−0 comes back as +0).
#[inline]
fn from_descending_key(key: u64) -> f64 {
    let ascending = !key;
    let bits = if ascending >> 63 == 1 {
        ascending & !(1 << 63)
    } else {
        !ascending
    };
    f64::from_bits(bits)
}

#[cfg(test)]
mod tests;
