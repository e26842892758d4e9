//! Relevance judgements as flat arrays: [`Qrels`] and its builder.

use super::*;

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
        reserve(self.ids, &mut self.staged, entries, entries);
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
        sort_rows(&mut g, |_, docs, grades, _: &mut Vec<()>, keys| {
            // One integer a judgement, whose increasing order is decreasing
            // grade, then increasing document id.
            keys.clear();
            keys.extend(
                grades
                    .iter()
                    .zip(docs.iter())
                    .map(|(&gr, &d)| judgement_key(gr, d)),
            );
            keys.sort_unstable();
            for ((gr, d), &key) in grades.iter_mut().zip(docs.iter_mut()).zip(keys.iter()) {
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
