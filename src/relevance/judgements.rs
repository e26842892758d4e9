//! Raw relevance judgements, their per-pair aggregation and the PhraseRel
//! classes (strictly / loosely relevant pairs, diverse queries).

use super::error::{Location, RelevanceError, Result};
use std::collections::HashMap;

/// A declared integer grading scale `min..=max`; the top grade is `max`.
///
/// The default is the PhraseRel scale −3…3 (−3 strong irrelevance, 0 "may be
/// either", 3 strong relevance; PhraseRel chapter, §Human evaluation).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::Scale;
/// let s = Scale::default();
/// assert_eq!((s.min(), s.max()), (-3, 3));
/// assert!(s.contains(0) && !s.contains(4));
/// assert!(Scale::new(2, 1).is_err());
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ScaleRepr")
)]
pub struct Scale {
    min: i32,
    max: i32,
}

// The unvalidated mirror of [`Scale`] that serde reads.
serde_mirror!(Scale, ScaleRepr, RelevanceError, {
    min: i32, max: i32,
}, |r| Self::new(r.min, r.max));

impl Default for Scale {
    fn default() -> Self {
        Self { min: -3, max: 3 }
    }
}

impl Scale {
    /// The scale `min..=max`.
    ///
    /// # Errors
    /// [`RelevanceError::InvalidParameter`] if `min >= max`.
    pub fn new(min: i32, max: i32) -> Result<Self> {
        if min >= max {
            return Err(RelevanceError::InvalidParameter {
                name: "scale",
                expected: "min < max",
            });
        }
        Ok(Self { min, max })
    }

    /// The lowest grade.
    #[must_use]
    pub fn min(self) -> i32 {
        self.min
    }

    /// The highest (top) grade.
    #[must_use]
    pub fn max(self) -> i32 {
        self.max
    }

    /// Whether `grade` lies on the scale.
    #[must_use]
    pub fn contains(self, grade: i64) -> bool {
        i64::from(self.min) <= grade && grade <= i64::from(self.max)
    }
}

/// The thresholds of the PhraseRel classes.
///
/// ```text
/// strictly relevant pair ⇔ every grade ≥ floor  ∧  some grade ≥ top
/// loosely relevant pair  ⇔ every grade ≥ floor
/// diverse query          ⇔ #loosely relevant documents ≥ diverse_min_loose
/// ```
///
/// The defaults are the chapter's: `floor = 0`, `top = 3`,
/// `diverse_min_loose = 4` (PhraseRel chapter, §Pair classification and
/// §Query classification).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Scale, Thresholds};
/// let t = Thresholds::default();
/// assert_eq!((t.floor, t.top, t.diverse_min_loose), (0, 3, 4));
/// // On a 1..=5 scale: the top grade 5, "relevant" from 3 on.
/// let t5 = Thresholds { floor: 3, ..Thresholds::for_scale(Scale::new(1, 5)?) };
/// assert_eq!(t5.top, 5);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Thresholds {
    /// Every judgement of a (loosely or strictly) relevant pair is at least this.
    pub floor: i32,
    /// A strictly relevant pair has at least one judgement at or above this.
    pub top: i32,
    /// A query is diverse when it has at least this many loosely relevant documents.
    pub diverse_min_loose: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            floor: 0,
            top: 3,
            diverse_min_loose: 4,
        }
    }
}

impl Thresholds {
    /// The chapter's thresholds carried to another scale: `top` is the scale's
    /// top grade, `floor` is 0 clamped into the scale, `diverse_min_loose = 4`.
    #[must_use]
    pub fn for_scale(scale: Scale) -> Self {
        Self {
            floor: 0.clamp(scale.min, scale.max),
            top: scale.max,
            diverse_min_loose: 4,
        }
    }

    /// Checks that `floor` and `top` lie on `scale` and `floor <= top`.
    ///
    /// # Errors
    /// [`RelevanceError::InvalidParameter`] naming the bad threshold.
    pub fn validate(&self, scale: Scale) -> Result<()> {
        if !scale.contains(i64::from(self.floor)) {
            return Err(RelevanceError::InvalidParameter {
                name: "floor",
                expected: "a grade on the scale",
            });
        }
        if !scale.contains(i64::from(self.top)) || self.top < self.floor {
            return Err(RelevanceError::InvalidParameter {
                name: "top",
                expected: "a grade on the scale, at least floor",
            });
        }
        Ok(())
    }
}

/// The class of a (query, document) pair. A strictly relevant pair is also
/// loosely relevant; [`Class::LooselyRelevant`] marks the loosely relevant
/// pairs that are not strictly relevant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Class {
    /// Every judgement ≥ floor and at least one ≥ top.
    StrictlyRelevant,
    /// Every judgement ≥ floor, none ≥ top.
    LooselyRelevant,
    /// Some judgement below floor.
    NotRelevant,
}

impl Class {
    /// Whether the pair is loosely relevant (strictly relevant pairs are too).
    #[must_use]
    pub fn is_loosely_relevant(self) -> bool {
        matches!(self, Self::StrictlyRelevant | Self::LooselyRelevant)
    }

    /// Whether the pair is strictly relevant.
    #[must_use]
    pub fn is_strictly_relevant(self) -> bool {
        self == Self::StrictlyRelevant
    }

    /// Whether the pair counts as relevant at `level`.
    #[must_use]
    pub fn is_relevant_at(self, level: Level) -> bool {
        match level {
            Level::Strict => self.is_strictly_relevant(),
            Level::Loose => self.is_loosely_relevant(),
        }
    }
}

/// Which class counts as "relevant" for binary metrics (AP, P@k, R-precision,
/// reciprocal rank).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Level {
    /// Only strictly relevant pairs.
    Strict,
    /// Loosely relevant pairs (strictly relevant ones included).
    #[default]
    Loose,
}

/// Count, mean and spread of the grades of one pair.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GradeStats {
    /// Number of judgements n.
    pub count: usize,
    /// Arithmetic mean of the grades.
    pub mean: f64,
    /// Sample standard deviation (divisor n − 1); `None` when n = 1.
    pub sd: Option<f64>,
    /// Lowest grade.
    pub min: i32,
    /// Highest grade.
    pub max: i32,
}

/// Count, mean, sample standard deviation, minimum and maximum of `grades`.
///
/// ```text
/// mean = Σgᵢ / n        sd = √( Σ(gᵢ − mean)² / (n − 1) )   (n ≥ 2)
/// ```
/// The sums are taken exactly in integers (`sd² = (nΣg² − (Σg)²) / (n(n − 1))`),
/// so the only rounding is the final division and square root.
///
/// # Errors
/// [`RelevanceError::InvalidParameter`] (`"grades"`) for an empty slice.
///
/// # Complexity
/// O(n) time, O(1) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::grade_stats;
/// let s = grade_stats(&[3, 2, 1])?;
/// assert_eq!((s.count, s.mean, s.sd), (3, 2.0, Some(1.0)));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn grade_stats(grades: &[i32]) -> Result<GradeStats> {
    let (&first, _) = grades
        .split_first()
        .ok_or(RelevanceError::InvalidParameter {
            name: "grades",
            expected: "at least one grade",
        })?;
    let (mut sum, mut sum_sq, mut min, mut max) = (0_i128, 0_i128, first, first);
    for &g in grades {
        let g128 = i128::from(g);
        sum += g128;
        sum_sq += g128 * g128;
        min = min.min(g);
        max = max.max(g);
    }
    let n = grades.len() as i128;
    let mean = sum as f64 / n as f64;
    let sd = (n >= 2).then(|| {
        let num = n * sum_sq - sum * sum;
        (num as f64 / (n * (n - 1)) as f64).sqrt()
    });
    Ok(GradeStats {
        count: grades.len(),
        mean,
        sd,
        min,
        max,
    })
}

/// The PhraseRel class of a pair judged with `grades`.
///
/// ```text
/// StrictlyRelevant  if min gᵢ ≥ floor ∧ max gᵢ ≥ top
/// LooselyRelevant   if min gᵢ ≥ floor ∧ max gᵢ < top
/// NotRelevant       otherwise
/// ```
///
/// # Errors
/// [`RelevanceError::InvalidParameter`] (`"grades"`) for an empty slice.
///
/// # Complexity
/// O(n).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{classify, Class, Thresholds};
/// let t = Thresholds::default();
/// assert_eq!(classify(&[3, 0, 1], &t)?, Class::StrictlyRelevant);
/// assert_eq!(classify(&[2, 0, 1], &t)?, Class::LooselyRelevant);
/// assert_eq!(classify(&[3, 3, -1], &t)?, Class::NotRelevant);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn classify(grades: &[i32], thresholds: &Thresholds) -> Result<Class> {
    let s = grade_stats(grades)?;
    Ok(class_of(s.min, s.max, thresholds))
}

fn class_of(min: i32, max: i32, t: &Thresholds) -> Class {
    if min < t.floor {
        Class::NotRelevant
    } else if max >= t.top {
        Class::StrictlyRelevant
    } else {
        Class::LooselyRelevant
    }
}

#[derive(Debug, Clone)]
struct Entry {
    annotator: String,
    grade: i32,
    at: Location,
}

#[derive(Debug, Clone)]
struct PairEntries {
    order: usize,
    entries: Vec<Entry>,
}

/// A growing collection of raw judgements (query, document, annotator, grade)
/// on a declared [`Scale`], with one judgement per annotator and pair.
///
/// Pairs and queries keep the order in which they first appear.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Class, Judgements, Scale, Thresholds};
/// let mut j = Judgements::new(Scale::default());
/// j.add("q", "d1", "ann1", 3)?;
/// j.add("q", "d1", "ann2", 1)?;
/// j.add("q", "d2", "ann1", -2)?;
/// assert!(j.add("q", "d1", "ann1", 2).is_err()); // duplicate
/// assert!(j.add("q", "d3", "ann1", 4).is_err()); // off the scale
/// let a = j.summarize(&Thresholds::default())?;
/// assert_eq!(a.pair("q", "d1").map(|p| p.class), Some(Class::StrictlyRelevant));
/// assert_eq!(a.query("q").map(|q| q.loosely_relevant), Some(1));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Judgements {
    scale: Scale,
    pairs: HashMap<(String, String), PairEntries>,
    records: usize,
    judgements: usize,
}

impl Judgements {
    /// An empty collection on `scale`.
    #[must_use]
    pub fn new(scale: Scale) -> Self {
        Self {
            scale,
            pairs: HashMap::new(),
            records: 0,
            judgements: 0,
        }
    }

    /// The declared scale.
    #[must_use]
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// Number of judgements accepted.
    #[must_use]
    pub fn len(&self) -> usize {
        self.judgements
    }

    /// Whether no judgement has been accepted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.judgements == 0
    }

    /// Number of distinct (query, document) pairs.
    #[must_use]
    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// Adds one judgement; errors name the record by its 1-based number
    /// among all calls of `add`.
    ///
    /// # Errors
    /// [`RelevanceError::GradeOffScale`] if `grade` is off the scale;
    /// [`RelevanceError::DuplicateJudgement`] if `annotator` already judged
    /// the pair. A rejected judgement leaves the collection unchanged.
    ///
    /// # Complexity
    /// O(m) expected, m = judgements already given for the pair.
    pub fn add(&mut self, query: &str, document: &str, annotator: &str, grade: i64) -> Result<()> {
        self.records += 1;
        let at = Location::Record(self.records);
        self.add_at(query, document, annotator, grade, at)
    }

    pub(crate) fn add_at(
        &mut self,
        query: &str,
        document: &str,
        annotator: &str,
        grade: i64,
        at: Location,
    ) -> Result<()> {
        if !self.scale.contains(grade) {
            return Err(RelevanceError::GradeOffScale {
                at,
                grade,
                min: self.scale.min,
                max: self.scale.max,
            });
        }
        // On the scale, so it fits an i32.
        let grade = grade as i32;
        let order = self.pairs.len();
        let entries = &mut self
            .pairs
            .entry((query.to_owned(), document.to_owned()))
            .or_insert_with(|| PairEntries {
                order,
                entries: Vec::new(),
            })
            .entries;
        if let Some(first) = entries.iter().find(|e| e.annotator == annotator) {
            return Err(RelevanceError::DuplicateJudgement {
                at,
                first: first.at,
                query: query.to_owned(),
                document: document.to_owned(),
                annotator: annotator.to_owned(),
            });
        }
        entries.push(Entry {
            annotator: annotator.to_owned(),
            grade,
            at,
        });
        self.judgements += 1;
        Ok(())
    }

    /// Aggregates every pair (count, mean, sample SD, class) and every query
    /// (numbers of strictly and loosely relevant documents, diversity).
    ///
    /// # Errors
    /// [`RelevanceError::InvalidParameter`] if the thresholds do not fit the
    /// scale ([`Thresholds::validate`]).
    ///
    /// # Complexity
    /// O(J) time and O(P) memory for J judgements of P pairs.
    pub fn summarize(&self, thresholds: &Thresholds) -> Result<Assessments> {
        thresholds.validate(self.scale)?;
        let mut pairs = Vec::with_capacity(self.pairs.len());
        let mut queries: Vec<QuerySummary> = Vec::new();
        let mut query_index: HashMap<String, usize> = HashMap::new();
        let mut docs: Vec<HashMap<String, usize>> = Vec::new();
        let mut doc_order: Vec<Vec<usize>> = Vec::new();
        let mut grades = Vec::new();
        let mut ordered: Vec<_> = self.pairs.iter().collect();
        ordered.sort_unstable_by_key(|(_, p)| p.order);
        for ((query, document), p) in ordered {
            grades.clear();
            grades.extend(p.entries.iter().map(|e| e.grade));
            let stats = grade_stats(&grades)?;
            let class = class_of(stats.min, stats.max, thresholds);
            let qi = *query_index.entry(query.clone()).or_insert_with(|| {
                queries.push(QuerySummary {
                    query: query.clone(),
                    judged: 0,
                    strictly_relevant: 0,
                    loosely_relevant: 0,
                    diverse: false,
                });
                docs.push(HashMap::new());
                doc_order.push(Vec::new());
                queries.len() - 1
            });
            if let Some(q) = queries.get_mut(qi) {
                q.judged += 1;
                q.strictly_relevant += usize::from(class.is_strictly_relevant());
                q.loosely_relevant += usize::from(class.is_loosely_relevant());
            }
            if let Some(d) = docs.get_mut(qi) {
                d.insert(document.clone(), pairs.len());
            }
            if let Some(d) = doc_order.get_mut(qi) {
                d.push(pairs.len());
            }
            pairs.push(PairSummary {
                query: query.clone(),
                document: document.clone(),
                stats,
                class,
            });
        }
        for q in &mut queries {
            q.diverse = q.loosely_relevant >= thresholds.diverse_min_loose;
        }
        Ok(Assessments {
            thresholds: *thresholds,
            pairs,
            queries,
            query_index,
            docs,
            doc_order,
        })
    }
}

/// The aggregate of one (query, document) pair.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairSummary {
    /// The query.
    pub query: String,
    /// The document.
    pub document: String,
    /// Count, mean, sample SD, min and max of its grades.
    pub stats: GradeStats,
    /// Its PhraseRel class.
    pub class: Class,
}

/// The aggregate of one query.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QuerySummary {
    /// The query.
    pub query: String,
    /// Number of judged documents.
    pub judged: usize,
    /// Number of strictly relevant documents.
    pub strictly_relevant: usize,
    /// Number of loosely relevant documents (strictly relevant ones included).
    pub loosely_relevant: usize,
    /// Whether `loosely_relevant ≥ diverse_min_loose`.
    pub diverse: bool,
}

/// Aggregated judgements: per pair and per query, with lookup by name.
#[derive(Debug, Clone)]
pub struct Assessments {
    thresholds: Thresholds,
    pairs: Vec<PairSummary>,
    queries: Vec<QuerySummary>,
    query_index: HashMap<String, usize>,
    docs: Vec<HashMap<String, usize>>,
    doc_order: Vec<Vec<usize>>,
}

impl Assessments {
    /// The thresholds the classes were computed with.
    #[must_use]
    pub fn thresholds(&self) -> Thresholds {
        self.thresholds
    }

    /// Every pair, in order of first appearance.
    #[must_use]
    pub fn pairs(&self) -> &[PairSummary] {
        &self.pairs
    }

    /// Every query, in order of first appearance.
    #[must_use]
    pub fn queries(&self) -> &[QuerySummary] {
        &self.queries
    }

    /// The summary of `query`, if judged.
    #[must_use]
    pub fn query(&self, query: &str) -> Option<&QuerySummary> {
        self.queries.get(*self.query_index.get(query)?)
    }

    /// The summary of the pair (`query`, `document`), if judged.
    #[must_use]
    pub fn pair(&self, query: &str, document: &str) -> Option<&PairSummary> {
        let qi = *self.query_index.get(query)?;
        self.pairs.get(*self.docs.get(qi)?.get(document)?)
    }

    /// The judged pairs of `query` in order of first appearance (empty if the
    /// query is not judged).
    pub fn documents<'a>(&'a self, query: &str) -> impl Iterator<Item = &'a PairSummary> + 'a {
        let order = self
            .query_index
            .get(query)
            .and_then(|&qi| self.doc_order.get(qi));
        order
            .into_iter()
            .flatten()
            .filter_map(|&i| self.pairs.get(i))
    }
}
