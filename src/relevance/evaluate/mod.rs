//! Scoring a [`TrecRun`] against [`Qrels`] in the flat layout: `trec_eval`'s
//! measures, with its tie order or the crate's tie-aware expectations.

use super::error::{RelevanceError, Result};
use super::flat::{Qrels, TrecRun};
use super::measure::Measure;
#[cfg(doc)]
use super::metrics::NoRelevant;
use super::metrics::{Gain, expected_reciprocal_rank};
pub use super::options::{Ties, TrecEvalVersion, TrecOptions};
use super::report::{TrecReport, summarize};
use crate::sum::Neumaier;

mod expected;
mod rel_list;
use expected::expected;
use rel_list::{eleven_point, rel_list_measures, rprec_mult};

/// `trec_eval`'s floor of AP in `gm_map` (its `MIN_GEO_MEAN`).
const MIN_GEO_MEAN: f64 = 0.00001;

/// Per-query scratch space, sized once per evaluation.
struct Scratch {
    /// Grade of each document id (from `base` on) for the current query;
    /// `UNJUDGED` else.
    grade_of: Vec<i32>,
    base: u32,
    /// log₂(i + 1) for ranks i = 1, 2, … (index i − 1).
    log2: Vec<f64>,
    /// Sorted distinct cut-offs of the measures.
    cuts: Vec<usize>,
    /// Per cut-off k: (expected) relevant documents in the top k, DCG@k,
    /// ideal DCG@k, the sum of precisions at the relevant documents of the
    /// top k (`map_cut`), and the probability of a relevant document in
    /// the top k (`success`).
    rel_at: Vec<f64>,
    dcg_at: Vec<f64>,
    idcg_at: Vec<f64>,
    ap_at: Vec<f64>,
    hit_at: Vec<f64>,
    gains: Vec<f64>,
    /// Sorted distinct recall levels (hundredths) of `iprec_at_recall`,
    /// their values for the current query, and the precision at each
    /// relevant document retrieved (then its maximum from there on).
    levels: Vec<u32>,
    iprec: Vec<f64>,
    precision_at_rel: Vec<f64>,
    /// Whether bpref and `iprec_at_recall` are asked for.
    bpref: bool,
    /// Whether `num_nonrel_judged_ret` is asked for.
    judged_nonrelevant: bool,
    /// Whether `11pt_avg` is asked for (the interpolated precisions are
    /// kept for it).
    eleven: bool,
    /// Whether a measure of `trec_eval`'s relevance list (`infAP`, `binG`,
    /// `G`, `ndcg_rel`, `Rndcg`, `Rprec_mult`) is asked for; the list of
    /// the current query ([`TrecRel`]), and its levels of gain.
    rel_list: bool,
    rels: Vec<TrecRel>,
    levels_of_gain: Vec<(f64, usize)>,
    /// The relevance level of the evaluation.
    relevance_level: i32,
}

/// A ranked document as `trec_eval`'s `results_rel_list` holds it: its
/// grade, or that nobody judged it (`RELVALUE_NONPOOL`), or that it is in
/// the pool with a negative grade (`RELVALUE_UNJUDGED`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TrecRel {
    Grade(i32),
    NotInPool,
    Unjudged,
}

const UNJUDGED: i32 = i32::MIN;

impl Scratch {
    /// The grade of document `d` for the current query (`UNJUDGED` if none).
    #[inline]
    fn grade(&self, d: u32) -> i32 {
        self.grade_of
            .get(d.wrapping_sub(self.base) as usize)
            .copied()
            .unwrap_or(UNJUDGED)
    }
}

/// What a part of the rows gives: its scored queries, their values and its
/// unranked queries.
type Scored = (Vec<u32>, Vec<Option<f64>>, Vec<u32>);

/// What every part of an evaluation shares.
struct Plan<'a> {
    qrels: &'a Qrels,
    run: &'a TrecRun,
    measures: &'a [Measure],
    /// log₂(i + 1) for ranks i = 1, 2, … up to the longest row.
    log2: Vec<f64>,
    /// Sorted distinct cut-offs and recall levels of the measures.
    cuts: Vec<usize>,
    levels: Vec<u32>,
}

impl Plan<'_> {
    /// Scratch space for the rows `rows` of the qrels: its grade table
    /// covers their judged documents' ids (ranked documents outside it are
    /// unjudged: the look-up misses).
    fn scratch(&self, rows: &std::ops::Range<usize>) -> Result<Scratch> {
        let qrels = self.qrels;
        let lo = qrels.offsets.get(rows.start).copied().unwrap_or(0);
        let hi = qrels.offsets.get(rows.end).copied().unwrap_or(lo);
        let judged = qrels.docs.get(lo..hi).unwrap_or(&[]);
        let base = judged.iter().copied().min().unwrap_or(0);
        let bound = judged
            .iter()
            .map(|&d| (d - base) as usize + 1)
            .max()
            .unwrap_or(0);
        let (cuts, levels) = (self.cuts.len(), self.levels.len());
        Ok(Scratch {
            base,
            grade_of: alloc(bound, UNJUDGED, "per-document grades")?,
            log2: self.log2.clone(),
            rel_at: vec![0.0; cuts],
            dcg_at: vec![0.0; cuts],
            idcg_at: vec![0.0; cuts],
            ap_at: vec![0.0; cuts],
            hit_at: vec![0.0; cuts],
            cuts: self.cuts.clone(),
            gains: Vec::new(),
            iprec: vec![0.0; levels],
            levels: self.levels.clone(),
            precision_at_rel: Vec::new(),
            bpref: self
                .measures
                .iter()
                .any(|m| matches!(m, Measure::Bpref | Measure::GeometricBpref)),
            judged_nonrelevant: self.measures.contains(&Measure::JudgedNonrelevantRetrieved),
            eleven: self.measures.contains(&Measure::ElevenPointAverage),
            rel_list: self.measures.iter().any(|m| {
                matches!(
                    m,
                    Measure::InferredAp
                        | Measure::BinaryG
                        | Measure::G
                        | Measure::NdcgRel
                        | Measure::Rndcg
                        | Measure::RPrecisionMultiple(_)
                )
            }),
            rels: Vec::new(),
            levels_of_gain: Vec::new(),
            relevance_level: 0,
        })
    }

    /// Scores the rows `rows` of the qrels, in order, stopping at the first
    /// error.
    fn score_rows<G: Gain>(
        &self,
        options: &TrecOptions<G>,
        rows: std::ops::Range<usize>,
    ) -> Result<Scored> {
        let (qrels, run, measures) = (self.qrels, self.run, self.measures);
        let mut s = self.scratch(&rows)?;
        // trec_eval 9's order (scores as f32) where it differs from the
        // stored one.
        let (mut docs9, mut scores9) = (Vec::new(), Vec::new());
        let mut queries = Vec::with_capacity(rows.len());
        let mut values = Vec::with_capacity(rows.len() * measures.len());
        let mut unranked_queries = Vec::new();
        for row in rows {
            let Some(&q) = qrels.queries.get(row) else {
                break;
            };
            let (docs, scores) = match run.row_of(q) {
                Some(r) => {
                    let (docs, scores) = run.row(r);
                    if options.version == TrecEvalVersion::V9 {
                        float_view(run, r, options.ties, &mut docs9, &mut scores9);
                        (
                            if docs9.is_empty() { docs } else { &docs9[..] },
                            if scores9.is_empty() {
                                scores
                            } else {
                                &scores9[..]
                            },
                        )
                    } else {
                        (docs, scores)
                    }
                }
                None => {
                    unranked_queries.push(q);
                    if !options.complete {
                        continue;
                    }
                    (&[][..], &[][..])
                }
            };
            let (jd, jg) = qrels.row(row);
            let core = score_query(&mut s, jd, jg, docs, scores, options)?;
            queries.push(q);
            for &measure in measures {
                values.push(value(measure, &core, &s));
            }
        }
        Ok((queries, values, unranked_queries))
    }
}

/// The gains of the grades ≥ 0 of a qrels under a mapping, computed once:
/// the mapping need not be `Sync` for the queries to be scored on several
/// threads, and each gain is the value the mapping gives (even one that is
/// not a valid gain: the scoring refuses it where it is used, as with the
/// mapping itself).
#[derive(Debug, Clone)]
struct GainTable {
    /// (grade, gain) by increasing grade.
    gains: Vec<(i32, f64)>,
    /// The gain of every grade from 0 to the largest, when it is below
    /// [`GainTable::DENSE`] (`NaN` for the grades absent).
    dense: Vec<f64>,
}

impl GainTable {
    /// The gains of the grades ≥ 0 among `grades` (O(n) plus a look-up a
    /// distinct grade of each run of equal grades).
    fn new<G: Gain>(grades: &[i32], gain: &G) -> Self {
        let mut gains: Vec<(i32, f64)> = Vec::new();
        let mut last = None;
        for &g in grades {
            if last == Some(g) || g < 0 {
                continue;
            }
            last = Some(g);
            if let Err(at) = gains.binary_search_by_key(&g, |e| e.0) {
                gains.insert(at, (g, gain.gain(f64::from(g))));
            }
        }
        let top = gains.last().map_or(0, |e| e.0 as usize + 1);
        let mut dense = Vec::new();
        if top <= Self::DENSE {
            dense.resize(top, f64::NAN);
            for &(g, x) in &gains {
                if let Some(slot) = dense.get_mut(g as usize) {
                    *slot = x;
                }
            }
        }
        Self { gains, dense }
    }

    /// Largest number of grades looked up in a table rather than searched.
    const DENSE: usize = 1 << 12;
}

impl Gain for GainTable {
    #[inline]
    fn gain(&self, grade: f64) -> f64 {
        // Called with the grades of the qrels only (exact as f64).
        let g = grade as i32;
        if let Some(&x) = self.dense.get(g as usize) {
            return x;
        }
        match self.gains.binary_search_by_key(&g, |e| e.0) {
            Ok(at) => self.gains.get(at).map_or(f64::NAN, |e| e.1),
            Err(_) => f64::NAN,
        }
    }
}

/// The quantities every measure is computed from.
#[derive(Default)]
struct Core {
    retrieved: usize,
    relevant: usize,
    /// Judged non-relevant documents: grade ≥ 0 and below the level.
    nonrelevant: usize,
    /// Judged non-relevant documents retrieved (counted when asked for).
    nonrelevant_retrieved: usize,
    relevant_retrieved: f64,
    ap_sum: f64,
    rel_at_r: f64,
    rr: f64,
    dcg: f64,
    idcg: f64,
    bpref: f64,
    /// `infAP`, `binG`, `G`, `ndcg_rel`, `Rndcg` (when asked for).
    inf_ap: Option<f64>,
    bin_g: Option<f64>,
    g: Option<f64>,
    ndcg_rel: Option<f64>,
    rndcg: Option<f64>,
}

/// Scores `run` against `qrels` with `trec_eval`'s measures, per query and
/// as means.
///
/// Conventions (those of `trec_eval`, and so of `pytrec_eval`):
/// - the queries scored are those both judged and ranked (with
///   `options.complete`, every judged query; an unranked one as an empty
///   ranking); queries of the run that nobody judged are listed and skipped;
/// - a document is relevant when its grade ≥ `options.relevance_level`;
///   documents the run ranks but nobody judged, and negative grades, are
///   non-relevant with gain 0; R counts every relevant judged document,
///   ranked or not; bpref skips both (`trec_eval`'s "not in the pool" and
///   "in the pool but unjudged") and counts as non-relevant only the grades
///   from 0 to below the level;
/// - a query with no relevant document scores 0 on AP, R-precision, RR,
///   bpref, recall, `map_cut` and `iprec_at_recall` (`gm_map`: ln 10⁻⁵),
///   and 0 on nDCG when its ideal DCG is 0, and counts in the means
///   ([`NoRelevant::Zero`]); [`NoRelevant::Skip`] leaves it out instead;
/// - ties: [`Ties::TrecEval`] ranks them by decreasing document id;
///   [`Ties::Expected`] gives the expectation over all tie orders;
///   `options.version` says whether scores are compared as `f64`
///   (`trec_eval` 10.0) or as `f32` (9.0.x, `pytrec_eval`).
///
/// ```text
/// AP      = (1/R) Σ_{i: dᵢ relevant} #rel(1..i) / i      (trec_eval order)
/// P@k     = #rel(1..k) / k          R-prec = #rel(1..R) / R
/// recall@k = #rel(1..k) / R         success@k = [#rel(1..k) > 0]
/// map_cut@k = (1/R) Σ_{i ≤ k: dᵢ relevant} #rel(1..i) / i
/// RR      = 1 / min{i : dᵢ relevant}
/// bpref   = (1/R) Σ_{i: dᵢ relevant} (1 − min(n_i, R) / min(N, R))
///           (n_i judged non-relevant documents above i, N in all)
/// iprec@p = max_{j ≥ max(c, 1)} j / rank of the j-th relevant retrieved,
///           c = p·R rounded (TrecEvalVersion); 0 if fewer than c retrieved
/// gm_map  = exp(mean of ln max(AP, 10⁻⁵))
/// DCG@k   = Σ_{i ≤ k} gain(gᵢ) / log₂(i + 1),   nDCG@k = DCG@k / DCG@k(ideal)
/// ```
/// Under [`Ties::Expected`] each term is replaced by its expectation over
/// the orders of every tie group (closed forms at [`evaluate_query`]; for a
/// tie group of n documents, r relevant and b judged non-relevant, after
/// A judged non-relevant documents: every relevant document of the group
/// has 0 … b of the group's non-relevant documents above it with equal
/// probability, so its bpref term is 1 − E[min(A + X, R)]/min(N, R),
/// X uniform on {0 … b}; the probability that the first m places of the
/// group hold no relevant document is C(n − r, m)/C(n, m)). `gm_map` and
/// `iprec_at_recall` (an expected logarithm, an expected maximum) have no
/// expectation here: asking for them with [`Ties::Expected`] is an error.
///
/// Per query the values are those of `trec_eval`, bit for bit: the same
/// operations in the same order. The means add with compensation, where
/// `trec_eval` adds in query order, so they can differ in the last bits.
///
/// [`evaluate_query`]: super::evaluate_query
///
/// # Errors
/// [`RelevanceError::InvalidParameter`] if `qrels` and `run` were read with
/// different [`Ids`](super::Ids) (`"ids"`), `options.relevance_level < 0`
/// (`"relevance_level"`) or a cut-off is 0 (`"k"`), a recall level is above
/// 100 (`"recall level"`); [`RelevanceError::NoExpectation`] for `gm_map`
/// or `iprec_at_recall` under [`Ties::Expected`];
/// [`RelevanceError::InvalidGain`] if the gain of a grade is negative or not
/// finite; [`RelevanceError::OutOfMemory`] if the scratch space cannot be
/// allocated.
///
/// # Complexity
/// O(J + N + D) time for J judgements, N ranked documents and D distinct
/// document ids (plus the number of distinct cut-offs and recall levels
/// per query); memory O(D + longest ranking + output), allocated once:
/// nothing is allocated per query. From [`crate::threads::PARALLEL_FROM`]
/// judgements and ranked documents on, the queries are scored on up to
/// [`crate::current_threads`] threads, in contiguous parts of about equal
/// size (each with its own scratch space, and the gains of the grades
/// computed once beforehand, so the mapping need not be `Sync`): every
/// value, and so the report, is the same, bit for bit, on any number of
/// threads.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_trec, read_trec_qrels, read_trec_run, Ids, Measure, Ties, TrecOptions};
/// let mut ids = Ids::new();
/// let qrels = read_trec_qrels("q1 0 a 1\nq1 0 b 0\nq2 0 c 0\n".as_bytes(), &mut ids)?;
/// let run = read_trec_run("q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.5 r\nq2 Q0 c 1 0.9 r\n".as_bytes(), &mut ids)?;
/// let report = evaluate_trec(&qrels, &run, &[Measure::AveragePrecision, Measure::Bpref], &TrecOptions::default())?;
/// // q1: the tie puts "b" first (decreasing id), so AP = 1/2 and bpref = 0
/// // (the one non-relevant document is above the relevant one); q2 has no
/// // relevant document: 0, counted, as trec_eval does. MAP = 0.25.
/// assert_eq!(report.summary[0].value, Some(0.25));
/// assert_eq!(report.summary[1].value, Some(0.0));
/// let expected = TrecOptions { ties: Ties::Expected, ..TrecOptions::default() };
/// let report = evaluate_trec(&qrels, &run, &[Measure::AveragePrecision, Measure::Bpref], &expected)?;
/// assert_eq!(report.summary[0].value, Some(0.375)); // q1: (1 + 1/2)/2 = 3/4
/// assert_eq!(report.summary[1].value, Some(0.25)); // q1: (1 + 0)/2 = 1/2
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn evaluate_trec<G: Gain>(
    qrels: &Qrels,
    run: &TrecRun,
    measures: &[Measure],
    options: &TrecOptions<G>,
) -> Result<TrecReport> {
    if qrels.tag != run.tag {
        return Err(RelevanceError::InvalidParameter {
            name: "ids",
            expected: "qrels and run read with the same Ids",
        });
    }
    if options.relevance_level < 0 {
        return Err(RelevanceError::InvalidParameter {
            name: "relevance_level",
            expected: "a grade of at least 0",
        });
    }
    if measures.iter().any(|m| m.cutoff() == Some(0)) {
        return Err(RelevanceError::InvalidParameter {
            name: "k",
            expected: "a cut-off of at least 1",
        });
    }
    if measures
        .iter()
        .any(|m| matches!(m, Measure::InterpolatedPrecision(p) if *p > 100))
    {
        return Err(RelevanceError::InvalidParameter {
            name: "recall level",
            expected: "hundredths of recall from 0 to 100",
        });
    }
    if options.ties == Ties::Expected
        && let Some(m) = measures.iter().find(|m| !m.has_expectation())
    {
        return Err(RelevanceError::NoExpectation {
            measure: m.to_string(),
        });
    }
    let longest = (0..qrels.queries.len())
        .map(|r| qrels.row(r).0.len())
        .chain((0..run.queries.len()).map(|r| run.row(r).0.len()))
        .max()
        .unwrap_or(0);
    let mut cuts: Vec<usize> = measures.iter().filter_map(|m| m.cutoff()).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut levels: Vec<u32> = measures
        .iter()
        .filter_map(|m| match m {
            Measure::InterpolatedPrecision(p) => Some(*p),
            _ => None,
        })
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let plan = Plan {
        qrels,
        run,
        measures,
        log2: (1..=longest.max(1))
            .map(|i| ((i + 1) as f64).log2())
            .collect(),
        cuts,
        levels,
    };
    // The rows cut into one part a thread, of about equal numbers of
    // judgements and ranked documents: each query's values depend on it
    // alone, so the parts only decide which thread computes what.
    let weight = |row: usize| {
        let ranked = qrels
            .queries
            .get(row)
            .and_then(|&q| run.row_of(q))
            .map_or(0, |r| run.row(r).0.len());
        qrels.row(row).0.len() + ranked + 1
    };
    let total: usize = (0..qrels.queries.len()).map(weight).sum();
    let workers = crate::threads::workers_for(total);
    let parts: Vec<Result<Scored>> = if workers <= 1 {
        vec![plan.score_rows(options, 0..qrels.queries.len())]
    } else {
        let mut parts = Vec::with_capacity(workers);
        let (mut start, mut sum) = (0, 0);
        for row in 0..qrels.queries.len() {
            sum += weight(row);
            if sum * workers >= total * (parts.len() + 1) {
                parts.push(start..row + 1);
                start = row + 1;
            }
        }
        if start < qrels.queries.len() {
            parts.push(start..qrels.queries.len());
        }
        // The gains of the grades computed here once, so that the threads
        // need not share the mapping (which need not be `Sync`).
        let options = &TrecOptions {
            relevance_level: options.relevance_level,
            ties: options.ties,
            no_relevant: options.no_relevant,
            complete: options.complete,
            gain: GainTable::new(&qrels.grades, &options.gain),
            version: options.version,
        };
        crate::threads::map(parts, workers, |rows| plan.score_rows(options, rows))
    };
    let m = measures.len();
    let mut queries = Vec::with_capacity(qrels.queries.len());
    let mut values = Vec::with_capacity(qrels.queries.len() * m);
    let mut unranked_queries = Vec::new();
    for part in parts {
        let (q, v, u) = part?;
        queries.extend(q);
        values.extend(v);
        unranked_queries.extend(u);
    }
    let unjudged_queries = run
        .queries
        .iter()
        .copied()
        .filter(|&q| qrels.judgements(q).is_none())
        .collect();
    let summary = (0..m)
        .map(|i| summarize(measures.get(i), &values, i, m, options.no_relevant))
        .collect();
    Ok(TrecReport {
        measures: measures.to_vec(),
        queries,
        values,
        summary,
        unjudged_queries,
        unranked_queries,
    })
}

/// Row `r` of `run` as `trec_eval` 9 sees it: under [`Ties::TrecEval`] the
/// documents in its order (into `docs`, left empty where it is the stored
/// order); under [`Ties::Expected`] the scores rounded to `f32` (into
/// `scores`), so that the tie groups are those of `f32` scores.
fn float_view(run: &TrecRun, r: usize, ties: Ties, docs: &mut Vec<u32>, scores: &mut Vec<f64>) {
    docs.clear();
    scores.clear();
    let (stored_docs, stored_scores) = run.row(r);
    match ties {
        Ties::TrecEval => {
            let mut patches = run.float_patches(r).peekable();
            if patches.peek().is_some() {
                docs.extend_from_slice(stored_docs);
                for (at, order) in patches {
                    if let Some(slot) = docs.get_mut(at..at + order.len()) {
                        slot.copy_from_slice(order);
                    }
                }
            }
        }
        Ties::Expected => {
            scores.extend(stored_scores.iter().map(|&x| f64::from(x as f32)));
        }
    }
}

fn alloc<T: Clone>(n: usize, fill: T, what: &'static str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| RelevanceError::OutOfMemory {
            quantity: what,
            requested: n as u64,
        })?;
    v.resize(n, fill);
    Ok(v)
}

fn value(measure: Measure, c: &Core, s: &Scratch) -> Option<f64> {
    let r = c.relevant as f64;
    let defined = c.relevant > 0;
    let at = |k: usize, v: &[f64]| {
        s.cuts
            .binary_search(&k)
            .ok()
            .and_then(|i| v.get(i).copied())
    };
    let unit = |x: f64| x.clamp(0.0, 1.0);
    match measure {
        Measure::AveragePrecision => defined.then(|| unit(c.ap_sum / r)),
        Measure::GeometricMap => defined.then(|| unit(c.ap_sum / r).max(MIN_GEO_MEAN).ln()),
        Measure::Precision(k) => at(k, &s.rel_at).map(|h| unit(h / k as f64)),
        Measure::Recall(k) => at(k, &s.rel_at).filter(|_| defined).map(|h| unit(h / r)),
        Measure::Success(k) => at(k, &s.hit_at).map(unit),
        Measure::MapCut(k) => at(k, &s.ap_at).filter(|_| defined).map(|a| unit(a / r)),
        Measure::RPrecision => defined.then(|| unit(c.rel_at_r / r)),
        Measure::Bpref => defined.then(|| unit(c.bpref / r)),
        // trec_eval's m_gm_bpref.c: ln of bpref floored at 10⁻⁵ (no clamp
        // needed: bpref is in [0, 1]).
        Measure::GeometricBpref => defined.then(|| (c.bpref / r).max(MIN_GEO_MEAN).ln()),
        // m_rel_P.c: relevant in the top k over min(k, R).
        Measure::RelativePrecision(k) => at(k, &s.rel_at)
            .filter(|_| defined)
            .map(|h| h / k.min(c.relevant) as f64),
        Measure::RPrecisionMultiple(m) => defined.then(|| rprec_mult(s, m, c.relevant)),
        Measure::ElevenPointAverage => (c.retrieved > 0).then(|| eleven_point(s, c.relevant)),
        Measure::InferredAp => c.inf_ap,
        Measure::BinaryG => c.bin_g,
        Measure::G => c.g,
        Measure::NdcgRel => c.ndcg_rel,
        Measure::Rndcg => c.rndcg,
        Measure::ReciprocalRank => defined.then_some(c.rr),
        Measure::InterpolatedPrecision(p) => {
            let i = s.levels.binary_search(&p).ok()?;
            s.iprec.get(i).copied().filter(|_| defined)
        }
        Measure::NdcgCut(k) => {
            let i = s.cuts.binary_search(&k).ok()?;
            let idcg = s.idcg_at.get(i).copied()?;
            (idcg > 0.0).then(|| unit(s.dcg_at.get(i).copied().unwrap_or(0.0) / idcg))
        }
        Measure::Ndcg => (c.idcg > 0.0).then(|| unit(c.dcg / c.idcg)),
        Measure::Retrieved => Some(c.retrieved as f64),
        Measure::Relevant => Some(r),
        Measure::RelevantRetrieved => Some(c.relevant_retrieved),
        Measure::Queries => Some(1.0),
        Measure::JudgedNonrelevantRetrieved => Some(c.nonrelevant_retrieved as f64),
        // The set measures as trec_eval's m_set_*.c and m_utility.c compute
        // them (the same operations): undefined, they are 0.
        Measure::SetPrecision => {
            (c.retrieved > 0).then(|| c.relevant_retrieved / c.retrieved as f64)
        }
        Measure::SetRecall => defined.then(|| c.relevant_retrieved / r),
        Measure::SetRelativePrecision => (c.retrieved > 0 && defined)
            .then(|| c.relevant_retrieved / c.retrieved.min(c.relevant) as f64),
        Measure::SetMap => (c.retrieved > 0 && defined)
            .then(|| (c.relevant_retrieved * c.relevant_retrieved) / (c.retrieved as f64 * r)),
        Measure::SetF => (c.relevant_retrieved > 0.0).then(|| {
            let p = c.relevant_retrieved / c.retrieved as f64;
            let rec = c.relevant_retrieved / r;
            let x = 1.0;
            (x + 1.0) * p * rec / (x * p + rec)
        }),
        // 1·a − 1·b + 0·c + 0·d with trec_eval's coefficients: the terms of
        // weight 0 add ±0, so this is a − b exactly.
        Measure::Utility => {
            let (rel_ret, ret) = (c.relevant_retrieved, c.retrieved as f64);
            Some(rel_ret - (ret - rel_ret))
        }
    }
}

/// The gain of grade `g` (0 for negative grades and unjudged documents).
#[inline]
fn gain_of<G: Gain>(gain: &G, g: i32) -> Result<f64> {
    if g < 0 {
        return Ok(0.0);
    }
    let x = gain.gain(f64::from(g));
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(RelevanceError::InvalidGain {
            input: "grades",
            index: 0,
            grade: g.to_string(),
        })
    }
}

/// Scores one query: judged documents `jd` with grades `jg` (decreasing),
/// ranking `docs` (rank order) with `scores`.
fn score_query<G: Gain>(
    s: &mut Scratch,
    jd: &[u32],
    jg: &[i32],
    docs: &[u32],
    scores: &[f64],
    options: &TrecOptions<G>,
) -> Result<Core> {
    let level = options.relevance_level;
    for (&d, &g) in jd.iter().zip(jg) {
        if let Some(slot) = s.grade_of.get_mut(d.wrapping_sub(s.base) as usize) {
            *slot = g;
        }
    }
    let result = score_marked(s, jg, docs, scores, options, level);
    for &d in jd {
        if let Some(slot) = s.grade_of.get_mut(d.wrapping_sub(s.base) as usize) {
            *slot = UNJUDGED;
        }
    }
    result
}

fn score_marked<G: Gain>(
    s: &mut Scratch,
    jg: &[i32],
    docs: &[u32],
    scores: &[f64],
    options: &TrecOptions<G>,
    level: i32,
) -> Result<Core> {
    let relevant = jg.iter().take_while(|&&g| g >= level).count();
    let mut c = Core {
        retrieved: docs.len(),
        relevant,
        nonrelevant: jg
            .get(relevant..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&g| g >= 0)
            .count(),
        ..Core::default()
    };
    ideal(s, jg, &options.gain, &mut c)?;
    if s.judged_nonrelevant {
        c.nonrelevant_retrieved = docs
            .iter()
            .filter_map(|&d| s.grade_of.get(d.wrapping_sub(s.base) as usize))
            .filter(|&&g| (0..level).contains(&g))
            .count();
    }
    match options.ties {
        Ties::TrecEval => {
            ranked(s, docs, options, level, &mut c)?;
            if s.rel_list {
                rel_list_measures(s, jg, docs, options, level, &mut c)?;
            }
        }
        Ties::Expected => expected(s, docs, scores, options, level, &mut c)?,
    }
    Ok(c)
}

/// Ideal DCG, whole and at each cut-off: the gains of the judged grades in
/// decreasing order (grades are sorted decreasingly; the gains too unless
/// the mapping is not monotone, then they are sorted here).
fn ideal<G: Gain>(s: &mut Scratch, jg: &[i32], gain: &G, c: &mut Core) -> Result<()> {
    s.gains.clear();
    let mut monotone = true;
    let mut last = f64::INFINITY;
    for &g in jg {
        let x = gain_of(gain, g)?;
        if x > last {
            monotone = false;
        }
        last = x;
        s.gains.push(x);
    }
    if !monotone {
        s.gains.sort_unstable_by(|a, b| b.total_cmp(a));
    }
    let mut sum = 0.0;
    let mut next = 0;
    for (i, &x) in s.gains.iter().enumerate() {
        if x <= 0.0 {
            break;
        }
        while let Some(&k) = s.cuts.get(next) {
            if k > i {
                break;
            }
            if let Some(v) = s.idcg_at.get_mut(next) {
                *v = sum;
            }
            next += 1;
        }
        sum += x / log2_at(&s.log2, i);
    }
    for v in s.idcg_at.iter_mut().skip(next) {
        *v = sum;
    }
    c.idcg = sum;
    Ok(())
}

/// log₂(i + 2), the discount divisor of the document at 0-based position i.
#[inline]
fn log2_at(table: &[f64], i: usize) -> f64 {
    table
        .get(i)
        .copied()
        .unwrap_or_else(|| ((i + 2) as f64).log2())
}

/// The `iprec_at_recall` cut-off: how many relevant documents recall `p`
/// hundredths of `r` takes, rounded as `version` rounds.
fn recall_cutoff(p: u32, r: usize, version: TrecEvalVersion) -> usize {
    let x = f64::from(p) / 100.0 * r as f64;
    // Non-negative and at most r: the casts are exact.
    match version {
        TrecEvalVersion::V10 => x.round() as usize,
        TrecEvalVersion::V9 => (x + 0.9) as usize,
    }
}

/// One cut-off's values in `trec_eval`'s order: relevant documents, DCG,
/// sum of precisions at the relevant documents, in the top k.
#[inline]
fn record(s: &mut Scratch, at: usize, hits: usize, dcg: f64, ap: f64) {
    let hit = if hits > 0 { 1.0 } else { 0.0 };
    record_expected(s, at, hits as f64, dcg, ap, hit);
}

/// [`record`] with (expected) relevant documents `hits` and the
/// probability `hit` of at least one, as the tie-aware measures give them.
#[inline]
fn record_expected(s: &mut Scratch, at: usize, hits: f64, dcg: f64, ap: f64, hit: f64) {
    if let (Some(h), Some(v), Some(a), Some(x)) = (
        s.rel_at.get_mut(at),
        s.dcg_at.get_mut(at),
        s.ap_at.get_mut(at),
        s.hit_at.get_mut(at),
    ) {
        *h = hits;
        *v = dcg;
        *a = ap;
        *x = hit;
    }
}

/// The measures in `trec_eval`'s order (the run is stored in it), with
/// `trec_eval`'s arithmetic: plain sums in rank order.
fn ranked<G: Gain>(
    s: &mut Scratch,
    docs: &[u32],
    options: &TrecOptions<G>,
    level: i32,
    c: &mut Core,
) -> Result<()> {
    let mut hits = 0_usize;
    let mut dcg = 0.0;
    let mut next = 0;
    let r = c.relevant;
    let iprec = !s.levels.is_empty() || s.eleven;
    s.precision_at_rel.clear();
    // bpref: judged non-relevant documents so far, and min(N, R).
    let mut nonrel = 0_usize;
    let bpref_den = c.nonrelevant.min(r) as f64;
    for (i, &d) in docs.iter().enumerate() {
        while let Some(&k) = s.cuts.get(next) {
            if k > i {
                break;
            }
            record(s, next, hits, dcg, c.ap_sum);
            next += 1;
        }
        if i == r {
            c.rel_at_r = hits as f64;
        }
        let g = s.grade(d);
        if g >= level {
            hits += 1;
            c.ap_sum += hits as f64 / (i + 1) as f64;
            if hits == 1 {
                c.rr = 1.0 / (i + 1) as f64;
            }
            if s.bpref {
                c.bpref += if nonrel > 0 {
                    1.0 - (nonrel.min(r) as f64 / bpref_den)
                } else {
                    1.0
                };
            }
            if iprec {
                s.precision_at_rel.push(hits as f64 / (i + 1) as f64);
            }
        } else if g >= 0 {
            nonrel += 1;
        }
        if g >= 0 {
            let x = gain_of(&options.gain, g)?;
            if x != 0.0 {
                dcg += x / log2_at(&s.log2, i);
            }
        }
    }
    while next < s.cuts.len() {
        record(s, next, hits, dcg, c.ap_sum);
        next += 1;
    }
    if r >= docs.len() {
        c.rel_at_r = hits as f64;
    }
    c.relevant_retrieved = hits as f64;
    c.dcg = dcg;
    if iprec {
        interpolate(s, r, options.version);
    }
    Ok(())
}

/// `iprec_at_recall` from the precisions at the relevant documents
/// retrieved: at recall level p, the largest precision from the c-th
/// relevant document on (c = p·R rounded, at least 1), 0 if fewer than c
/// are retrieved (`trec_eval`'s backward pass, which keeps the largest
/// precision seen, reaches the same maximum: between relevant documents
/// precision only falls).
fn interpolate(s: &mut Scratch, r: usize, version: TrecEvalVersion) {
    let p = &mut s.precision_at_rel;
    let mut best = 0.0_f64;
    for x in p.iter_mut().rev() {
        if *x > best {
            best = *x;
        }
        *x = best;
    }
    for (v, &level) in s.iprec.iter_mut().zip(&s.levels) {
        let c = recall_cutoff(level, r, version);
        *v = if c > p.len() {
            0.0
        } else {
            p.get(c.max(1) - 1).copied().unwrap_or(0.0)
        };
    }
}
