//! A system's run as flat arrays: [`TrecRun`] and its builder.

use super::*;

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
    /// The query's documents stored so far (its judged ones, when the ids
    /// are a qrels') are read ahead here, as a file's reading does at each
    /// new query: the run's documents are then looked up among them in
    /// cache rather than one cache miss after another.
    ///
    /// # Errors
    /// [`RelevanceError::TooLarge`] past `u32::MAX − 1` distinct queries.
    pub fn query(&mut self, name: &str) -> Result<u32> {
        let (qt, dt) = self.ids.tables_mut();
        let q = qt.intern(name)?;
        dt.warm(q);
        Ok(q)
    }

    /// Makes room for `entries` more scores (their documents' ids, their
    /// scores), so that a caller who knows the size (a dict's length) adds
    /// them without the arrays growing by copying. A hint: any number of
    /// scores can be added after it.
    ///
    /// The names of the documents are not reserved for: a run's documents
    /// are mostly judged ones, whose names the qrels stored already, and
    /// reserving room for all of them would move the stored names (a copy
    /// of every judged document's name, and fresh memory faulted in) to
    /// make room mostly unused; the unjudged ones' names are added as they
    /// come.
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
        reserve(self.ids, &mut self.staged, entries, 0);
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
        let float_patches = sort_rows(&mut g, |lo, docs, scores, patches, pairs| {
            pairs.clear();
            pairs.extend(
                scores
                    .iter()
                    .zip(docs.iter())
                    .map(|(&s, &d)| (descending_key(s), d)),
            );
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
            for ((s, d), &(key, pd)) in scores.iter_mut().zip(docs.iter_mut()).zip(pairs.iter()) {
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
