//! Tie-aware retrieval metrics of a model's ranking against relevance labels:
//! average precision (MAP), precision@k, R-precision, reciprocal rank and
//! nDCG@k with graded gains.
//!
//! # Ties in model scores
//! Documents with equal scores form a tie group. Every metric is the
//! **expected value over all orderings of the tied documents** (each ordering
//! equally likely), as in McSherry & Najork (2008), "Computing information
//! retrieval performance measures efficiently in the presence of tied
//! scores", ECIR 2008. Input order never matters. The expectation is exact and
//! costs O(n) after the O(n log n) sort; [`evaluate_query`] documents the
//! closed forms used.
//!
//! # Queries with no relevant document
//! AP, R-precision and reciprocal rank are 0/0 when a query has no relevant
//! document, and nDCG@k when its ideal DCG@k is 0; they are `None` per query.
//! [`NoRelevant`] says whether averages count such queries as 0 (the
//! default, `trec_eval`'s convention: it scores them 0 and counts them in
//! every mean) or skip them.

use super::error::{RelevanceError, Result, check_finite};
use super::judgements::{Assessments, Level};
use super::keys::descending_key;
use crate::sum::Neumaier;
use core::cmp::Ordering;
use num_traits::Float;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::error::Location;

/// Maps a pair's mean judgement to the gain used by nDCG. Gains must be
/// finite and ≥ 0. Closures `Fn(f64) -> f64` are gains.
pub trait Gain {
    /// The gain of a document whose mean judgement is `mean_grade`.
    fn gain(&self, mean_grade: f64) -> f64;
}

impl<T: Fn(f64) -> f64> Gain for T {
    #[inline]
    fn gain(&self, mean_grade: f64) -> f64 {
        self(mean_grade)
    }
}

/// Linear gain: `gain(m) = max(m, 0)`. Mean judgements at or below 0 ("may be
/// either" or irrelevant on the PhraseRel scale) earn nothing.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Gain, Linear};
/// assert_eq!(Linear.gain(2.5), 2.5);
/// assert_eq!(Linear.gain(-1.0), 0.0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Linear;

impl Gain for Linear {
    #[inline]
    fn gain(&self, mean_grade: f64) -> f64 {
        mean_grade.max(0.0)
    }
}

/// Exponential gain of Burges et al. (2005): `gain(m) = 2^max(m, 0) − 1`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Exponential, Gain};
/// assert_eq!(Exponential.gain(3.0), 7.0);
/// assert_eq!(Exponential.gain(-2.0), 0.0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Exponential;

impl Gain for Exponential {
    #[inline]
    fn gain(&self, mean_grade: f64) -> f64 {
        mean_grade.max(0.0).exp2() - 1.0
    }
}

/// The label of one document of a query: binary relevance (for AP, P@k,
/// R-precision, RR) and the mean judgement (for nDCG gains).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Label {
    /// Whether the document counts as relevant.
    pub relevant: bool,
    /// Mean judgement; `None` for an unjudged document, whose gain is 0
    /// whatever the gain mapping.
    pub grade: Option<f64>,
}

impl Label {
    /// A judged document.
    #[must_use]
    pub fn new(relevant: bool, mean_grade: f64) -> Self {
        Self {
            relevant,
            grade: Some(mean_grade),
        }
    }

    /// An unjudged document: not relevant, gain 0.
    #[must_use]
    pub fn unjudged() -> Self {
        Self {
            relevant: false,
            grade: None,
        }
    }
}

/// Whether queries whose metric is undefined (no relevant document, or ideal
/// DCG 0) count as 0 in averages or are left out.
///
/// `trec_eval` scores such a query 0 and counts it: with two queries, one
/// without relevant documents and the other with AP 1, its MAP is 0.5.
/// [`NoRelevant::Zero`], the default, gives the same means as `trec_eval`
/// (and as published tables computed with it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NoRelevant {
    /// Count them as 0 (`trec_eval`'s convention; the default).
    #[default]
    Zero,
    /// Leave them out of the average.
    Skip,
}

/// Options of the metrics.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Exponential, Level, NoRelevant, Options};
/// let o = Options { k: 5, ..Options::default() }.with_gain(Exponential);
/// assert_eq!((o.k, o.level), (5, Level::Loose));
/// assert_eq!(o.no_relevant, NoRelevant::Zero);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options<G = Linear> {
    /// Cut-off of precision@k and nDCG@k (≥ 1; default 10).
    pub k: usize,
    /// Gain mapping of nDCG (default [`Linear`]).
    pub gain: G,
    /// Which class is relevant when labels come from [`Assessments`]
    /// (default [`Level::Loose`]); used by [`evaluate_run`].
    pub level: Level,
    /// Averaging policy for undefined per-query values (default
    /// [`NoRelevant::Zero`], `trec_eval`'s).
    pub no_relevant: NoRelevant,
}

impl<G> Options<G> {
    /// The same options with another gain mapping (a closure, for instance).
    #[must_use]
    pub fn with_gain<H: Gain>(self, gain: H) -> Options<H> {
        Options {
            k: self.k,
            gain,
            level: self.level,
            no_relevant: self.no_relevant,
        }
    }
}

impl Default for Options<Linear> {
    fn default() -> Self {
        Self {
            k: 10,
            gain: Linear,
            level: Level::Loose,
            no_relevant: NoRelevant::Zero,
        }
    }
}

/// The metrics of one query. `None` marks a value that is 0/0 (see the
/// module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QueryMetrics {
    /// Number of documents the model ranked.
    pub ranked: usize,
    /// Number of relevant documents R (ranked or not).
    pub relevant: usize,
    /// Expected average precision.
    pub average_precision: Option<f64>,
    /// Expected precision@k.
    pub precision_at_k: f64,
    /// Expected R-precision (precision@R).
    pub r_precision: Option<f64>,
    /// Expected reciprocal rank of the first relevant document (0 if no
    /// relevant document is ranked).
    pub reciprocal_rank: Option<f64>,
    /// Expected DCG@k over the ideal DCG@k.
    pub ndcg_at_k: Option<f64>,
}

/// Scores one query: the model's `scores` of its documents (larger is better)
/// against their `labels`, ties resolved as the expectation over all orders.
///
/// Sort the documents by decreasing score into tie groups; group j holds nⱼ
/// documents, rⱼ of them relevant, with total gain Gⱼ; aⱼ documents and bⱼ
/// relevant documents rank above it. R is the number of relevant documents,
/// D(i) = 1/log₂(i + 1). Then (McSherry & Najork 2008):
///
/// ```text
/// E[#rel in top c]  = Σⱼ rⱼ · |group j ∩ [1, c]| / nⱼ
/// P@k               = E[#rel in top k] / k
/// R-precision       = E[#rel in top R] / R
/// AP                = (1/R) Σⱼ Σ_{t=1..nⱼ} (rⱼ/nⱼ) · (bⱼ + 1 + (t − 1)(rⱼ − 1)/(nⱼ − 1)) / (aⱼ + t)
/// RR                = Σ_{t≥1} P(first relevant of group j* at t) / (a_{j*} + t),
///                     P(t) = C(n − t, r − 1) / C(n, r)   (j* = first group with r > 0)
/// DCG@k             = Σⱼ (Gⱼ/nⱼ) Σ_{i ∈ group j, i ≤ k} D(i)
/// nDCG@k            = DCG@k / IDCG@k,   IDCG@k = DCG@k of the gains sorted decreasingly
/// ```
/// (the AP term with nⱼ = 1 has no (t − 1) part). Gains are
/// `options.gain.gain(mean grade)`, and 0 for unjudged documents.
///
/// # Errors
/// [`RelevanceError::LengthMismatch`] if `scores` and `labels` differ in
/// length; [`RelevanceError::NaN`] / [`RelevanceError::Infinite`] for a bad
/// score (`"scores"`) or mean grade (`"labels"`);
/// [`RelevanceError::InvalidGain`] if a gain is negative or not finite;
/// [`RelevanceError::InvalidParameter`] if `options.k == 0`.
///
/// # Complexity
/// O(n log n) time (the sort), O(n) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_query, Label, Options};
/// // d0 relevant, d1 not, d2 relevant; the model ties d0 and d1 on top.
/// let labels = [Label::new(true, 3.0), Label::new(false, -1.0), Label::new(true, 1.0)];
/// let m = evaluate_query(&[0.9, 0.9, 0.1], &labels, &Options::default())?;
/// // RR: d0 first with probability 1/2 → E[1/rank] = (1 + 1/2)/2.
/// assert_eq!(m.reciprocal_rank, Some(0.75));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn evaluate_query<F: Float, G: Gain>(
    scores: &[F],
    labels: &[Label],
    options: &Options<G>,
) -> Result<QueryMetrics> {
    evaluate_query_with_missing(scores, labels, &[], options)
}

/// [`evaluate_query`] for a query some of whose judged documents the model
/// did not rank: their `missing` labels count in R and in the ideal DCG, but
/// they hold no rank (as `trec_eval` treats unretrieved relevant documents).
///
/// # Errors
/// As [`evaluate_query`]; bad grades or gains of `missing` are reported with
/// input `"missing"`.
///
/// # Complexity
/// O(n log n + m log k) for n ranked and m missing documents.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_query_with_missing, Label, Options};
/// let ranked = [Label::new(true, 3.0)];
/// let missing = [Label::new(true, 3.0)];
/// let m = evaluate_query_with_missing(&[1.0], &ranked, &missing, &Options::default())?;
/// assert_eq!(m.average_precision, Some(0.5)); // (1/1) / R with R = 2
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn evaluate_query_with_missing<F: Float, G: Gain>(
    scores: &[F],
    labels: &[Label],
    missing: &[Label],
    options: &Options<G>,
) -> Result<QueryMetrics> {
    // Validation, one pass per input.
    if options.k == 0 {
        return Err(RelevanceError::InvalidParameter {
            name: "k",
            expected: "a cut-off of at least 1",
        });
    }
    same_length!(RelevanceError, scores, labels);
    check_finite("scores", scores)?;
    let gains = gains_of("labels", labels, &options.gain)?;
    let missing_gains = gains_of("missing", missing, &options.gain)?;

    let n = scores.len();
    // Sort keys: decreasing score as increasing u64 (finite scores, so the
    // key order is the score order; −0 and +0 share a key).
    let mut order: Vec<(u64, usize)> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| (descending_key(s.to_f64().unwrap_or(0.0)), i))
        .collect();
    order.sort_unstable();

    let relevant_ranked = labels.iter().filter(|l| l.relevant).count();
    let relevant_total = relevant_ranked + missing.iter().filter(|l| l.relevant).count();
    let k = options.k;

    let mut ap = Neumaier::default();
    let mut top_k_rel = 0.0;
    let mut top_r_rel = 0.0;
    let mut rr: Option<f64> = None;
    let mut dcg = Neumaier::default();
    let (mut above, mut rel_above) = (0_usize, 0_usize);
    let mut start = 0;
    while start < n {
        let key = order.get(start).map_or(0, |x| x.0);
        let len = order
            .get(start..)
            .map_or(0, |rest| rest.iter().take_while(|x| x.0 == key).count())
            .max(1);
        let group = order.get(start..start + len).unwrap_or(&[]);
        let mut r = 0_usize;
        let mut gain_sum = Neumaier::default();
        for &(_, i) in group {
            if labels.get(i).is_some_and(|l| l.relevant) {
                r += 1;
            }
            gain_sum.add(gains.get(i).copied().unwrap_or(0.0));
        }
        let (nf, rf) = (len as f64, r as f64);
        // Share of the group inside the top c.
        let inside = |c: usize| c.saturating_sub(above).min(len) as f64;
        top_k_rel += rf * inside(k) / nf;
        top_r_rel += rf * inside(relevant_total) / nf;
        if r > 0 {
            ap.add(tie_group_ap(rel_above, above, len, r));
            if rr.is_none() {
                rr = Some(expected_reciprocal_rank(above, len, r));
            }
        }
        let mean_gain = gain_sum.value() / nf;
        if mean_gain > 0.0 {
            for i in (above + 1)..=(above + len).min(k) {
                dcg.add(mean_gain * discount(i));
            }
        }
        above += len;
        rel_above += r;
        start += len;
    }

    let idcg = ideal_dcg(gains, &missing_gains, k);
    let defined = relevant_total > 0;
    let r_total = relevant_total as f64;
    Ok(QueryMetrics {
        ranked: n,
        relevant: relevant_total,
        average_precision: defined.then(|| (ap.value() / r_total).clamp(0.0, 1.0)),
        precision_at_k: (top_k_rel / k as f64).clamp(0.0, 1.0),
        r_precision: defined.then(|| (top_r_rel / r_total).clamp(0.0, 1.0)),
        reciprocal_rank: defined.then(|| rr.unwrap_or(0.0)),
        ndcg_at_k: (idcg > 0.0).then(|| (dcg.value() / idcg).clamp(0.0, 1.0)),
    })
}

/// D(i) = 1/log₂(i + 1), the DCG discount of rank i ≥ 1.
#[inline]
fn discount(rank: usize) -> f64 {
    1.0 / ((rank + 1) as f64).log2()
}

/// The expected contribution to average precision's numerator of a tie
/// group of `len` documents, `r` of them relevant, placed after `above`
/// documents of which `rel_above` are relevant (every order of the group
/// equally likely):
///
/// ```text
/// (r/len) Σ_{t=1..len} (rel_above + 1 + (t − 1)(r − 1)/(len − 1)) / (above + t)
/// ```
pub(crate) fn tie_group_ap(rel_above: usize, above: usize, len: usize, r: usize) -> f64 {
    let (nf, rf) = (len as f64, r as f64);
    let within = if len > 1 {
        (rf - 1.0) / (nf - 1.0)
    } else {
        0.0
    };
    // Terms of one group are positive and few: a plain sum is exact enough;
    // callers add the groups with compensation.
    let mut group_ap = 0.0;
    for t in 1..=len {
        let prec_num = rel_above as f64 + 1.0 + (t - 1) as f64 * within;
        group_ap += prec_num / (above + t) as f64;
    }
    rf / nf * group_ap
}

/// E[1/(above + t)] where t is the position of the first of `r` relevant
/// documents placed uniformly at random among `n` tied positions.
pub(crate) fn expected_reciprocal_rank(above: usize, n: usize, r: usize) -> f64 {
    let (nf, rf) = (n as f64, r as f64);
    let mut p = rf / nf; // P(t = 1)
    let mut sum = Neumaier::default();
    for t in 1..=(n - r + 1) {
        sum.add(p / (above + t) as f64);
        // P(t + 1) = P(t) · (n − t − r + 1)/(n − t)
        let tf = t as f64;
        if t < n {
            p *= (nf - tf - rf + 1.0) / (nf - tf);
        }
    }
    sum.value()
}

fn gains_of<G: Gain>(input: &'static str, labels: &[Label], gain: &G) -> Result<Vec<f64>> {
    let mut out = Vec::with_capacity(labels.len());
    for (index, l) in labels.iter().enumerate() {
        let g = match l.grade {
            None => 0.0,
            Some(m) if m.is_nan() => return Err(RelevanceError::NaN { input, index }),
            Some(m) if m.is_infinite() => {
                return Err(RelevanceError::Infinite { input, index });
            }
            Some(m) => {
                let g = gain.gain(m);
                if !(g.is_finite() && g >= 0.0) {
                    return Err(RelevanceError::InvalidGain {
                        input,
                        index,
                        grade: m.to_string(),
                    });
                }
                g
            }
        };
        out.push(g);
    }
    Ok(out)
}

/// DCG@k of all gains (ranked and missing) sorted decreasingly; reuses
/// `gains` as scratch space.
fn ideal_dcg(mut gains: Vec<f64>, missing: &[f64], k: usize) -> f64 {
    gains.retain(|&g| g > 0.0);
    gains.extend(missing.iter().copied().filter(|&g| g > 0.0));
    let by_desc = |a: &f64, b: &f64| b.partial_cmp(a).unwrap_or(Ordering::Equal);
    if gains.len() > k {
        gains.select_nth_unstable_by(k - 1, by_desc);
        gains.truncate(k);
    }
    gains.sort_unstable_by(by_desc);
    let mut sum = Neumaier::default();
    for (i, g) in gains.iter().enumerate() {
        sum.add(g * discount(i + 1));
    }
    sum.value()
}

/// The mean of one metric over queries, and how many queries it averages.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mean {
    /// The mean; `None` if no query counts.
    pub value: Option<f64>,
    /// Number of queries averaged.
    pub queries: usize,
}

impl Mean {
    fn of(values: impl Iterator<Item = Option<f64>>, policy: NoRelevant) -> Self {
        let mut sum = Neumaier::default();
        let mut queries = 0;
        for v in values {
            let v = match (v, policy) {
                (Some(v), _) => v,
                (None, NoRelevant::Zero) => 0.0,
                (None, NoRelevant::Skip) => continue,
            };
            sum.add(v);
            queries += 1;
        }
        Self {
            value: (queries > 0).then(|| sum.value() / queries as f64),
            queries,
        }
    }
}

/// Metrics averaged over queries; MAP and MRR are the means of AP and RR.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeanMetrics {
    /// Mean average precision.
    pub map: Mean,
    /// Mean precision@k.
    pub precision_at_k: Mean,
    /// Mean R-precision.
    pub r_precision: Mean,
    /// Mean reciprocal rank.
    pub mrr: Mean,
    /// Mean nDCG@k.
    pub ndcg_at_k: Mean,
}

/// Averages per-query metrics; undefined values are skipped or count as 0
/// according to `policy`.
///
/// ```text
/// MAP = (1/|Q|) Σ_q AP(q),  Q = queries counted under `policy`
/// ```
///
/// # Errors
/// None: an empty slice gives means of `None`.
///
/// # Complexity
/// O(q).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_query, mean_metrics, Label, NoRelevant, Options};
/// let o = Options::default();
/// let a = evaluate_query(&[2.0, 1.0], &[Label::new(false, 0.0), Label::new(true, 3.0)], &o)?;
/// let b = evaluate_query(&[2.0, 1.0], &[Label::new(false, 0.0), Label::new(false, -3.0)], &o)?;
/// let skip = mean_metrics(&[a, b], NoRelevant::Skip);
/// assert_eq!((skip.map.value, skip.map.queries), (Some(0.5), 1));
/// let zero = mean_metrics(&[a, b], NoRelevant::Zero);
/// assert_eq!(zero.map.value, Some(0.25));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[must_use]
pub fn mean_metrics(per_query: &[QueryMetrics], policy: NoRelevant) -> MeanMetrics {
    let it = per_query.iter();
    MeanMetrics {
        map: Mean::of(it.clone().map(|m| m.average_precision), policy),
        precision_at_k: Mean::of(it.clone().map(|m| Some(m.precision_at_k)), policy),
        r_precision: Mean::of(it.clone().map(|m| m.r_precision), policy),
        mrr: Mean::of(it.clone().map(|m| m.reciprocal_rank), policy),
        ndcg_at_k: Mean::of(it.map(|m| m.ndcg_at_k), policy),
    }
}

#[derive(Debug, Clone)]
struct RunQuery<F> {
    query: String,
    docs: Vec<(String, F)>,
    seen: HashMap<String, Location>,
}

/// A model's scores of (query, document) pairs ("a run"), one score per pair.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::Run;
/// let mut run = Run::new();
/// run.add("q1", "d1", 0.8)?;
/// assert!(run.add("q1", "d1", 0.5).is_err()); // scored twice
/// assert!(run.add("q1", "d2", f64::NAN).is_err());
/// assert_eq!(run.len(), 1);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Run<F> {
    index: HashMap<String, usize>,
    queries: Vec<RunQuery<F>>,
    records: usize,
    scores: usize,
}

impl<F: Float> Default for Run<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: Float> Run<F> {
    /// An empty run.
    #[must_use]
    pub fn new() -> Self {
        Self {
            index: HashMap::new(),
            queries: Vec::new(),
            records: 0,
            scores: 0,
        }
    }

    /// Number of scores accepted.
    #[must_use]
    pub fn len(&self) -> usize {
        self.scores
    }

    /// Whether no score has been accepted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.scores == 0
    }

    /// Number of distinct queries.
    #[must_use]
    pub fn query_count(&self) -> usize {
        self.queries.len()
    }

    /// Adds the score of (`query`, `document`); errors name the record by
    /// its 1-based number among all calls of `add`.
    ///
    /// # Errors
    /// [`RelevanceError::NaN`] / [`RelevanceError::Infinite`] (input
    /// `"score"`, index = record number − 1) for a bad score;
    /// [`RelevanceError::DuplicateScore`] if the pair is already scored.
    ///
    /// # Complexity
    /// O(1) expected.
    pub fn add(&mut self, query: &str, document: &str, score: F) -> Result<()> {
        self.records += 1;
        if score.is_nan() {
            return Err(RelevanceError::NaN {
                input: "score",
                index: self.records - 1,
            });
        }
        if score.is_infinite() {
            return Err(RelevanceError::Infinite {
                input: "score",
                index: self.records - 1,
            });
        }
        self.add_at(query, document, score, Location::Record(self.records))
    }

    pub(crate) fn add_at(
        &mut self,
        query: &str,
        document: &str,
        score: F,
        at: Location,
    ) -> Result<()> {
        let qi = match self.index.get(query) {
            Some(&qi) => qi,
            None => {
                self.index.insert(query.to_owned(), self.queries.len());
                self.queries.push(RunQuery {
                    query: query.to_owned(),
                    docs: Vec::new(),
                    seen: HashMap::new(),
                });
                self.queries.len() - 1
            }
        };
        let Some(q) = self.queries.get_mut(qi) else {
            return Err(RelevanceError::InvalidParameter {
                name: "run",
                expected: "a consistent query index",
            });
        };
        match q.seen.entry(document.to_owned()) {
            Entry::Occupied(first) => Err(RelevanceError::DuplicateScore {
                at,
                first: *first.get(),
                query: query.to_owned(),
                document: document.to_owned(),
            }),
            Entry::Vacant(slot) => {
                slot.insert(at);
                q.docs.push((document.to_owned(), score));
                self.scores += 1;
                Ok(())
            }
        }
    }

    /// The queries of the run, in order of first appearance.
    pub fn queries(&self) -> impl Iterator<Item = &str> + '_ {
        self.queries.iter().map(|q| q.query.as_str())
    }

    /// The scored documents of `query` in the order they were added (empty
    /// if the run lacks the query).
    pub fn documents<'a>(&'a self, query: &str) -> impl Iterator<Item = (&'a str, F)> + 'a {
        self.get(query)
            .into_iter()
            .flat_map(|q| q.docs.iter().map(|(d, s)| (d.as_str(), *s)))
    }

    fn get(&self, query: &str) -> Option<&RunQuery<F>> {
        self.queries.get(*self.index.get(query)?)
    }
}

/// The metrics of one query of a run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QueryReport {
    /// The query.
    pub query: String,
    /// Its metrics.
    pub metrics: QueryMetrics,
    /// Number of documents the model ranked that nobody judged.
    pub unjudged: usize,
}

/// A run scored against assessments.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RunReport {
    /// Per judged query, in the assessments' order.
    pub queries: Vec<QueryReport>,
    /// Averages under `options.no_relevant`.
    pub mean: MeanMetrics,
    /// Queries of the run that nobody judged (not scored).
    pub unjudged_queries: Vec<String>,
    /// Judged queries the run does not rank at all (scored as an empty ranking).
    pub unranked_queries: Vec<String>,
}

/// Scores a run against aggregated judgements, per judged query and averaged.
///
/// Labels: a judged document is relevant when its class is relevant at
/// `options.level`; its nDCG gain is `options.gain` of its mean judgement.
/// Policies: documents the model ranks but nobody judged are non-relevant
/// with gain 0; judged documents the model does not rank count in R and the
/// ideal DCG ([`evaluate_query_with_missing`]); a judged query the run lacks
/// is scored as an empty ranking (so AP = RR = 0 when it has relevant
/// documents), so a model cannot gain by leaving hard queries out; queries of
/// the run that nobody judged are listed and skipped.
///
/// # Errors
/// As [`evaluate_query`].
///
/// # Complexity
/// O(Σ n_q log n_q + J) over the run's queries and J judged pairs.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_run, Judgements, Options, Run, Scale, Thresholds};
/// let mut j = Judgements::new(Scale::default());
/// j.add("q", "good", "a", 3)?;
/// j.add("q", "bad", "a", -3)?;
/// let assessments = j.summarize(&Thresholds::default())?;
/// let mut run = Run::new();
/// run.add("q", "bad", 0.9)?;
/// run.add("q", "good", 0.2)?;
/// let report = evaluate_run(&assessments, &run, &Options::default())?;
/// assert_eq!(report.mean.mrr.value, Some(0.5));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn evaluate_run<F: Float, G: Gain>(
    assessments: &Assessments,
    run: &Run<F>,
    options: &Options<G>,
) -> Result<RunReport> {
    let mut queries = Vec::with_capacity(assessments.queries().len());
    let mut unranked_queries = Vec::new();
    let (mut scores, mut labels, mut missing) = (Vec::new(), Vec::new(), Vec::new());
    for q in assessments.queries() {
        scores.clear();
        labels.clear();
        missing.clear();
        let mut unjudged = 0;
        let ranked = run.get(&q.query);
        if let Some(rq) = ranked {
            for (doc, score) in &rq.docs {
                scores.push(*score);
                labels.push(match assessments.pair(&q.query, doc) {
                    Some(p) => Label::new(p.class.is_relevant_at(options.level), p.stats.mean),
                    None => {
                        unjudged += 1;
                        Label::unjudged()
                    }
                });
            }
        } else {
            unranked_queries.push(q.query.clone());
        }
        for p in assessments.documents(&q.query) {
            if !ranked.is_some_and(|rq| rq.seen.contains_key(&p.document)) {
                missing.push(Label::new(
                    p.class.is_relevant_at(options.level),
                    p.stats.mean,
                ));
            }
        }
        let metrics = evaluate_query_with_missing(&scores, &labels, &missing, options)?;
        queries.push(QueryReport {
            query: q.query.clone(),
            metrics,
            unjudged,
        });
    }
    let unjudged_queries = run
        .queries
        .iter()
        .filter(|rq| assessments.query(&rq.query).is_none())
        .map(|rq| rq.query.clone())
        .collect();
    let per_query: Vec<QueryMetrics> = queries.iter().map(|q| q.metrics).collect();
    Ok(RunReport {
        mean: mean_metrics(&per_query, options.no_relevant),
        queries,
        unjudged_queries,
        unranked_queries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descending_key_orders_finite_floats() {
        let xs = [
            f64::MAX,
            1.5,
            1e-300,
            f64::MIN_POSITIVE / 4.0,
            0.0,
            -f64::MIN_POSITIVE / 4.0,
            -1e-300,
            -2.0,
            f64::MIN,
        ];
        for w in xs.windows(2) {
            if let [a, b] = w {
                assert!(descending_key(*a) < descending_key(*b), "{a} {b}");
            }
        }
        assert_eq!(descending_key(0.0), descending_key(-0.0));
    }
}
