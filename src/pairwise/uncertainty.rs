//! How sure a fitted ranking is: standard errors and intervals on scores,
//! intervals on ranks, the probability of each item being in the top k,
//! and whether the top k is settled — from the observed information
//! (normal approximation) or from a bootstrap over workers; both end in
//! draws of the scores, summarised here.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, Normal};

use super::data::Comparisons;
use super::error::{PairwiseError, Result, check_count};
use super::fit::Fit;
use super::information::{Covariance, Information};
use crate::threads::{self, Threads};

/// Draws per block (one generator stream each): the unit of parallel work
/// of correlated draws and of replicates.
pub(crate) const DRAW_BLOCK: usize = 32;

/// Independent normal draws made and ranked per task (a few: the threads
/// share them evenly; not one: each task keeps per-item counts).
const DRAW_TASK: usize = 5;

/// How the uncertainty is computed and summarised.
///
/// - `level`: the coverage of the score and rank intervals (0.95);
/// - `top_k`: the k of P(top k) and of the settled top k (10, or n − 1
///   when fewer items);
/// - `draws`: draws of the scores behind rank intervals, P(top k) and
///   settledness (default: 1000 for up to about 2000 items, fewer above,
///   at least 100: the work is O(draws · n log n));
/// - `seed`: the draws' generator (ChaCha8; draw block b on stream b);
/// - `settle`: the probability at which the top k counts as settled
///   (0.95);
/// - `exact_up_to`: the most parameters (scores plus others) for which the
///   observed information is inverted exactly (2500; above, the
///   approximation of [`Method::Approximate`]);
/// - `threads`: for the factorisation, the draws and bootstrap
///   replicates; results do not depend on it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Inference {
    pub(crate) level: f64,
    pub(crate) top_k: usize,
    pub(crate) draws: Option<usize>,
    pub(crate) seed: u64,
    pub(crate) settle: f64,
    pub(crate) exact_up_to: usize,
    pub(crate) threads: Threads,
}

impl Default for Inference {
    fn default() -> Self {
        Self::new()
    }
}

impl Inference {
    /// The most draws accepted: 2²⁰.
    pub const MAX_DRAWS: usize = 1 << 20;

    /// The most draws × items kept (ranks, 4 bytes each): 2²⁸ (1 GiB).
    pub const MAX_DRAW_CELLS: usize = 1 << 28;

    /// Level 0.95, top 10, automatic draws, seed 0, settled at 0.95, exact
    /// up to 2500 parameters, [`Threads::Available`].
    #[must_use]
    pub fn new() -> Self {
        Self {
            level: 0.95,
            top_k: 10,
            draws: None,
            seed: 0,
            settle: 0.95,
            exact_up_to: 2500,
            threads: Threads::Available,
        }
    }

    /// The coverage of the intervals.
    ///
    /// # Errors
    /// [`PairwiseError::InvalidParameter`] outside (0, 1).
    pub fn level(mut self, level: f64) -> Result<Self> {
        self.level = check_unit("level", level)?;
        Ok(self)
    }

    /// The k of P(top k) and of the settled top k.
    ///
    /// # Errors
    /// [`PairwiseError::InvalidParameter`] for 0.
    pub fn top_k(mut self, k: usize) -> Result<Self> {
        if k == 0 {
            return Err(PairwiseError::InvalidParameter {
                name: "top_k",
                expected: "at least 1",
            });
        }
        self.top_k = k;
        Ok(self)
    }

    /// The number of draws (bootstrap: ignored, the replicates are the
    /// draws).
    ///
    /// # Errors
    /// [`PairwiseError::InvalidParameter`] below 2;
    /// [`PairwiseError::TooLarge`] above [`MAX_DRAWS`](Self::MAX_DRAWS).
    pub fn draws(mut self, draws: usize) -> Result<Self> {
        check_draws(draws)?;
        self.draws = Some(draws);
        Ok(self)
    }

    /// The seed of the draws (and of the bootstrap's resamples).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The probability at which the top k counts as settled.
    ///
    /// # Errors
    /// [`PairwiseError::InvalidParameter`] outside (0, 1).
    pub fn settle(mut self, p: f64) -> Result<Self> {
        self.settle = check_unit("settle", p)?;
        Ok(self)
    }

    /// The most parameters inverted exactly.
    #[must_use]
    pub fn exact_up_to(mut self, n: usize) -> Self {
        self.exact_up_to = n;
        self
    }

    /// The threads.
    #[must_use]
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// The draws for n items: as set, or automatic.
    pub(crate) fn draws_for(&self, n: usize) -> usize {
        self.draws.unwrap_or_else(|| {
            let log = (usize::BITS - n.max(2).leading_zeros()) as usize;
            (20_000_000 / (n.max(1) * log)).clamp(100, 1000)
        })
    }
}

fn check_unit(name: &'static str, p: f64) -> Result<f64> {
    if !(p > 0.0 && p < 1.0) {
        return Err(PairwiseError::InvalidParameter {
            name,
            expected: "a probability strictly between 0 and 1",
        });
    }
    Ok(p)
}

pub(crate) fn check_draws(draws: usize) -> Result<()> {
    check_count("draws", "draws", draws, Inference::MAX_DRAWS)
}

/// Where an [`Uncertainty`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Method {
    /// The observed information, inverted exactly: standard errors
    /// √diag(Cov), Wald intervals θ̂ ± z·SE, draws from N(θ̂, Cov).
    Exact,
    /// The observed information for many items (more parameters than
    /// [`Inference::exact_up_to`]): each variance from the second-order
    /// expansion of the inverse in the comparison graph (walks of length 0
    /// and 2, and of length 4 that retrace their steps; the gauge and the
    /// other parameters to first order), draws independent across items.
    /// The variances are slightly low where the graph has short cycles:
    /// on an adaptive collection of 990 items (M = 20, 7 ballots) the
    /// standard errors are within 2 % of the exact ones, the largest gap at
    /// the top, whose last ballots compare few items often.
    Approximate,
    /// A bootstrap that resamples workers (their votes are not
    /// independent), refitting each resample: standard errors the
    /// replicates' standard deviations, basic bootstrap intervals, the
    /// replicates as draws.
    Bootstrap {
        /// Replicates drawn.
        replicates: usize,
        /// Replicates whose fit failed (left out; see
        /// [`BradleyTerry::bootstrap`](super::BradleyTerry::bootstrap)).
        failed: usize,
    },
}

/// Whether the top k is settled, and what would settle it.
///
/// The top k is *settled* when the probability that the estimated top k
/// is the top k (the same items, in any order) is at least the target.
///
/// The further comparisons are a plug-in estimate from the fitted model:
/// if the information grew f-fold (every comparison made so far made f
/// times over, the estimates staying where they are), each draw's
/// deviation from the estimate would shrink by √f, and draw d would agree
/// with the estimated top k from some factor f_d on (exactly: its top k
/// agrees while t = 1/√f is below the root of a concave function of t).
/// f* is the smallest factor with a share `target` of the f_d at most f*;
/// the further comparisons are (f* − 1) times the comparisons so far that
/// involve a contested item (0 < P(top k) < 1 in the draws), since
/// comparisons among uncontested items hardly change whether the top is
/// settled. `None` when two items at the boundary have equal estimates:
/// no amount of the same evidence separates them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settled {
    /// k.
    pub k: usize,
    /// The estimated top k, best first.
    pub top: Vec<usize>,
    /// P(the estimated top k is the top k), the share of draws agreeing.
    pub probability: f64,
    /// The target probability.
    pub target: f64,
    /// `probability ≥ target`.
    pub settled: bool,
    /// For each k' = 1 … n − 1, P(the estimated top k' is the top k').
    pub probability_by_k: Vec<f64>,
    /// The largest k' whose top k' is settled (0: none).
    pub largest_settled: usize,
    /// The items whose place in or out of the top k is in doubt.
    pub contested: Vec<usize>,
    /// f* (1 or less: settled already).
    pub information_factor: Option<f64>,
    /// The expected further comparisons, ⌈(f* − 1)·m_C⌉ (0 when settled).
    pub further_comparisons: Option<u64>,
}

/// The uncertainty of a fit, item by item (indexed like
/// [`Fit::scores`]), with everything a plot of the ranking needs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Uncertainty {
    /// How it was computed.
    pub method: Method,
    /// The intervals' coverage.
    pub level: f64,
    /// The standard error of each centred score.
    pub standard_errors: Vec<f64>,
    /// The interval of each score, [lower, upper].
    pub intervals: Vec<[f64; 2]>,
    /// The interval of each rank (1 = best), [best, worst]: the
    /// (1 − level)/2 and (1 + level)/2 quantiles of its rank in the draws.
    pub rank_intervals: Vec<[usize; 2]>,
    /// The mean rank in the draws.
    pub mean_ranks: Vec<f64>,
    /// k of [`top_k_probability`](Self::top_k_probability).
    pub top_k: usize,
    /// P(rank ≤ k): the share of draws in which the item is in the top k.
    pub top_k_probability: Vec<f64>,
    /// The number of draws.
    pub draws: usize,
    /// Whether the top k is settled.
    pub settled: Settled,
}

/// n(0, 1) values from a generator (Box–Muller, both values of each pair).
pub(crate) fn normals(rng: &mut ChaCha8Rng, out: &mut [f64]) {
    let mut k = 0;
    while k < out.len() {
        let (a, b) = normal_pair(rng);
        out[k] = a;
        if k + 1 < out.len() {
            out[k + 1] = b;
        }
        k += 2;
    }
}

/// One Box–Muller pair: two uniform f64, one 64-bit word each (four
/// 32-bit words of the ChaCha stream).
#[inline]
fn normal_pair(rng: &mut ChaCha8Rng) -> (f64, f64) {
    // u₁ in (0, 1]: ln u₁ is finite.
    let u1 = 1.0 - rng.random::<f64>();
    let u2 = rng.random::<f64>();
    let r = (-2.0 * u1.ln()).sqrt();
    let (s, c) = (core::f64::consts::TAU * u2).sin_cos();
    (r * c, r * s)
}

/// The values [`normals`] writes at `first..first + out.len()` of a longer
/// buffer from the generator as it is now, without the values before
/// them: the stream is advanced to the pair holding value `first` (each
/// pair takes four 32-bit words), so any part of a block's draws can be
/// made on its own, with the same bits.
pub(crate) fn normals_at(rng: &mut ChaCha8Rng, first: usize, out: &mut [f64]) {
    let pair = (first / 2) as u128;
    rng.set_word_pos(rng.get_word_pos() + 4 * pair);
    match out.split_first_mut() {
        Some((head, rest)) if first % 2 == 1 => {
            *head = normal_pair(rng).1;
            normals(rng, rest);
        }
        _ => normals(rng, out),
    }
}

/// The generator of draw block `block`.
pub(crate) fn block_rng(seed: u64, block: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(block as u64);
    rng
}

/// The standard-normal quantile z_{(1+level)/2}.
pub(crate) fn z_of(level: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + 0.5 * level)
}

/// The covariance of the centred scores from the observed information
/// `info` (exact up to [`Inference::exact_up_to`] parameters), their
/// standard errors, and whether the covariance is exact.
pub(crate) fn standard_errors(
    info: &Information,
    opts: &Inference,
) -> Result<(Covariance, Vec<f64>, bool)> {
    let exact = info.n + info.extra <= opts.exact_up_to;
    let cov: Covariance = if exact {
        info.exact(opts.threads.count())?
    } else {
        info.approximate()?
    };
    let mut se = Vec::with_capacity(info.n);
    for v in &cov.variance {
        if !(*v > 0.0 && v.is_finite()) {
            return Err(PairwiseError::Singular {
                what: "a score's variance is not positive",
            });
        }
        se.push(v.sqrt());
    }
    Ok((cov, se, exact))
}

/// The Wald intervals θᵢ ± z·SEᵢ at `level`.
pub(crate) fn wald(theta: &[f64], se: &[f64], level: f64) -> Vec<[f64; 2]> {
    let z = z_of(level);
    theta
        .iter()
        .zip(se)
        .map(|(t, s)| [t - z * s, t + z * s])
        .collect()
}

/// The uncertainty from the observed information `info` of `fit`.
pub(crate) fn from_information(
    fit: &Fit,
    info: &Information,
    data: &Comparisons,
    opts: &Inference,
) -> Result<Uncertainty> {
    let n = fit.scores.len();
    let workers = opts.threads.count();
    let (cov, se, exact) = standard_errors(info, opts)?;
    let intervals = wald(&fit.scores, &se, opts.level);
    let draws = opts.draws_for(n);
    check_cells(draws, n)?;
    let dim = info.n + info.extra;
    let theta = &fit.scores;
    let order = order_of(theta);
    let k = opts.top_k.min(n.saturating_sub(1)).max(1);
    let stats = match &cov.factor {
        // Correlated draws (few items): a block of draws is one product
        // with the factor, so one task makes and ranks a block.
        Some(factor) => {
            let blocks: Vec<usize> = (0..draws.div_ceil(DRAW_BLOCK)).collect();
            threads::map(blocks, workers, |b| {
                let rows = DRAW_BLOCK.min(draws - b * DRAW_BLOCK);
                let mut zs = vec![0.0; rows * dim];
                normals(&mut block_rng(opts.seed, b), &mut zs);
                let y = factor.times(&zs, rows, 1);
                let mut values = Vec::with_capacity(rows * n);
                for row in y.chunks(dim) {
                    let dev = &row[..n];
                    let mean = dev.iter().sum::<f64>() / n as f64;
                    values.extend(theta.iter().zip(dev).map(|(t, d)| t + (d - mean)));
                }
                BlockStats::of(&values, theta, &order, k)
            })
        }
        // Independent draws θᵢ + SEᵢ·z: tasks of DRAW_TASK draws, each
        // draw's normals read at its place in its block's stream, so the
        // threads share the draws evenly (a block per task left one thread
        // 64 of 100); a thread keeps its buffers.
        None => {
            let tasks: Vec<usize> = (0..draws.div_ceil(DRAW_TASK)).collect();
            let init = || (Vec::new(), Ranker::default());
            threads::map_init(tasks, workers, init, |(values, ranker), t| {
                let (d0, d1) = (t * DRAW_TASK, ((t + 1) * DRAW_TASK).min(draws));
                values.resize((d1 - d0) * n, 0.0);
                for (row, d) in values.chunks_mut(n).zip(d0..d1) {
                    let mut rng = block_rng(opts.seed, d / DRAW_BLOCK);
                    normals_at(&mut rng, (d % DRAW_BLOCK) * n, row);
                    for ((z, t), s) in row.iter_mut().zip(theta).zip(&se) {
                        *z = t + s * *z;
                    }
                }
                BlockStats::with_ranker(values, theta, &order, k, ranker)
            })
        }
    };
    let method = if exact {
        Method::Exact
    } else {
        Method::Approximate
    };
    Ok(summarise(
        fit, data, method, se, intervals, stats, draws, opts,
    ))
}

pub(crate) fn check_cells(draws: usize, n: usize) -> Result<()> {
    check_draws(draws)?;
    let cells = draws as u128 * n as u128;
    if cells > Inference::MAX_DRAW_CELLS as u128 {
        return Err(PairwiseError::TooLarge {
            quantity: "draws × items",
            requested: u64::try_from(cells).unwrap_or(u64::MAX),
            limit: Inference::MAX_DRAW_CELLS as u64,
        });
    }
    Ok(())
}

/// What one block of draws contributes: each draw's ranks (draw-major),
/// its information factor f_d, and per k' whether its top k' agrees.
#[derive(Debug, Clone, Default)]
pub(crate) struct BlockStats {
    ranks: Vec<u32>,
    factors: Vec<f64>,
    agree: Vec<u32>,
    rows: usize,
}

impl BlockStats {
    /// Ranks and settledness of the draws in `values` (rows of n), against
    /// the estimate `theta` and its [`order_of`] `order` (computed once by
    /// the caller for all blocks), for the top k.
    pub(crate) fn of(values: &[f64], theta: &[f64], order: &[usize], k: usize) -> Self {
        Self::with_ranker(values, theta, order, k, &mut Ranker::default())
    }

    /// [`BlockStats::of`] with the ranker's buffers kept by the caller.
    fn with_ranker(
        values: &[f64],
        theta: &[f64],
        order: &[usize],
        k: usize,
        ranker: &mut Ranker,
    ) -> Self {
        let n = theta.len();
        debug_assert_eq!(order.len(), n, "the order of theta");
        let mut in_top = vec![false; n];
        for &i in order.iter().take(k) {
            in_top[i] = true;
        }
        let rows = values.len() / n.max(1);
        let mut ranks = vec![0u32; rows * n];
        let mut factors = Vec::with_capacity(rows);
        let mut agree = vec![0u32; n.saturating_sub(1)];
        for (d, row) in values.chunks(n).enumerate() {
            let r = &mut ranks[d * n..(d + 1) * n];
            ranker.ranks(row, r);
            // The estimated top k' agrees iff its worst rank is k'.
            let mut worst = 0u32;
            for (kk, &i) in order.iter().enumerate().take(n.saturating_sub(1)) {
                worst = worst.max(r[i]);
                if worst as usize == kk + 1 {
                    agree[kk] += 1;
                }
            }
            factors.push(information_factor(row, theta, &in_top));
        }
        Self {
            ranks,
            factors,
            agree,
            rows,
        }
    }
}

/// The items from which [`Ranker`] buckets the values before sorting
/// (below, one sort of all).
const BUCKETED_FROM: usize = 64;

/// Ranks of a draw's values by decreasing value ([`f64::total_cmp`]),
/// equal values by index: 1 for the first. The same ranks as one sort of
/// the (order key, index) pairs, in O(n) expected time for the draws'
/// smooth values: the finite values go to n buckets of equal width by a
/// map that never reverses their order (`⌊(v − min)·n/(max − min)⌋`:
/// each operation, rounded, is monotone), and only the pairs within a
/// bucket are sorted. A non-finite value, equal extremes or few items:
/// one bucket, the plain sort. Its buffers are kept from draw to draw.
#[derive(Debug, Default)]
struct Ranker {
    keys: Vec<u128>,
    bucket: Vec<u32>,
    start: Vec<u32>,
}

impl Ranker {
    /// The ranks of `row` into `out` (of its length).
    fn ranks(&mut self, row: &[f64], out: &mut [u32]) {
        let n = row.len();
        let (mut lo, mut hi, mut finite) = (f64::INFINITY, f64::NEG_INFINITY, true);
        for &v in row {
            finite &= v.is_finite();
            lo = lo.min(v);
            hi = hi.max(v);
        }
        let scale = n as f64 / (hi - lo);
        let buckets = if finite && n >= BUCKETED_FROM && scale.is_finite() && scale > 0.0 {
            n
        } else {
            1
        };
        // Bucket d holds the d-th band of values from the top.
        self.bucket.clear();
        self.start.clear();
        self.start.resize(buckets + 1, 0);
        for &v in row {
            let d = if buckets == 1 {
                0
            } else {
                buckets - 1 - (((v - lo) * scale) as usize).min(buckets - 1)
            };
            self.bucket.push(d as u32);
            self.start[d + 1] += 1;
        }
        for d in 0..buckets {
            self.start[d + 1] += self.start[d];
        }
        // By decreasing value, equal values by index: one integer key
        // each, (descending order key, index), scattered to the buckets.
        self.keys.clear();
        self.keys.resize(n, 0);
        for (i, (&v, &d)) in row.iter().zip(&self.bucket).enumerate() {
            let at = &mut self.start[d as usize];
            self.keys[*at as usize] = (u128::from(!total_order_key(v)) << 32) | i as u128;
            *at += 1;
        }
        // `start[d]` is now where bucket d ends.
        let mut begin = 0;
        for &end in &self.start[..buckets] {
            let end = end as usize;
            if end - begin > 1 {
                self.keys[begin..end].sort_unstable();
            }
            begin = end;
        }
        for (pos, &key) in self.keys.iter().enumerate() {
            out[key as u32 as usize] = pos as u32 + 1;
        }
    }
}

/// An integer key in the order of [`f64::total_cmp`].
#[inline]
fn total_order_key(v: f64) -> u64 {
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Items by decreasing value, ties by index.
pub(crate) fn order_of(v: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[b].total_cmp(&v[a]).then(a.cmp(&b)));
    order
}

/// f_d = 1/t_d² for one draw: t_d the root of the concave
/// g(t) = min_{i∈T}(θ̂ᵢ + tδᵢ) − max_{j∉T}(θ̂ⱼ + tδⱼ), δ = draw − θ̂
/// (∞ when g(0) ≤ 0; 0 when g stays positive).
fn information_factor(draw: &[f64], theta: &[f64], in_top: &[bool]) -> f64 {
    // The lines at t that set g (the lowest of T, the highest outside),
    // ties broken by the slopes left of t: g(t), and the two lines.
    let active = |t: f64| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut lo_at, mut hi_at) = (usize::MAX, usize::MAX);
        let (mut lo_slope, mut hi_slope) = (0.0, 0.0);
        for (i, ((&x, &y), &top)) in theta.iter().zip(draw).zip(in_top).enumerate() {
            let d = y - x;
            let v = x + t * d;
            if top {
                if v < lo || (v == lo && d > lo_slope) {
                    (lo, lo_at, lo_slope) = (v, i, d);
                }
            } else if v > hi || (v == hi && d < hi_slope) {
                (hi, hi_at, hi_slope) = (v, i, d);
            }
        }
        (lo - hi, lo_at, hi_at)
    };
    let g = |t: f64| active(t).0;
    if g(0.0) <= 0.0 {
        return f64::INFINITY;
    }
    let mut b = 1.0;
    while g(b) > 0.0 {
        b *= 2.0;
        if b > 1e30 {
            return 0.0;
        }
    }
    // g is concave and piecewise linear, g(0) > 0 ≥ g(b): Newton's method
    // from the right moves down to the root through the pieces (each
    // tangent lies above g, so its root is never left of g's), ending on
    // the piece that crosses zero after finitely many steps.
    let mut t = b;
    for _ in 0..theta.len() + 2 {
        let (gt, i, j) = active(t);
        if gt == 0.0 || i == usize::MAX || j == usize::MAX {
            break;
        }
        let (di, dj) = (draw[i] - theta[i], draw[j] - theta[j]);
        if dj <= di {
            break;
        }
        let next = (theta[i] - theta[j]) / (dj - di);
        if !(next < t && next > 0.0) {
            break;
        }
        t = next;
    }
    1.0 / (t * t)
}

/// The ranks gathered per tile of items in [`summarise`] (256 KiB).
const TILE_CELLS: usize = 1 << 16;

/// Combines the blocks (in block order) into an [`Uncertainty`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn summarise(
    fit: &Fit,
    data: &Comparisons,
    method: Method,
    standard_errors: Vec<f64>,
    intervals: Vec<[f64; 2]>,
    blocks: Vec<BlockStats>,
    draws: usize,
    opts: &Inference,
) -> Uncertainty {
    let n = fit.scores.len();
    let k = opts.top_k.min(n.saturating_sub(1)).max(1);
    let rows: usize = blocks.iter().map(|b| b.rows).sum();
    let mut factors = Vec::with_capacity(rows);
    let mut agree = vec![0u64; n.saturating_sub(1)];
    for b in &blocks {
        factors.extend_from_slice(&b.factors);
        for (a, x) in agree.iter_mut().zip(&b.agree) {
            *a += u64::from(*x);
        }
    }
    let alpha = 1.0 - opts.level;
    let lo_at = ((0.5 * alpha * rows as f64).floor() as usize).min(rows - 1);
    let hi_at = (((1.0 - 0.5 * alpha) * rows as f64).ceil() as usize).clamp(1, rows) - 1;
    // Item by item: its ranks in every draw, gathered a tile of items at a
    // time from the draw-major blocks; tiles on the threads, each item's
    // figures exact (integer counts and sums, order statistics), so the
    // same on any number of threads.
    let per_tile = (TILE_CELLS / rows.max(1)).max(1);
    let tiles: Vec<usize> = (0..n.div_ceil(per_tile)).collect();
    let items = threads::map(tiles, opts.threads.count(), |t| {
        let (i0, i1) = (t * per_tile, ((t + 1) * per_tile).min(n));
        let mut tile = vec![0u32; (i1 - i0) * rows];
        let mut d0 = 0;
        for b in &blocks {
            for d in 0..b.rows {
                let draw = &b.ranks[d * n + i0..d * n + i1];
                for (c, &x) in draw.iter().enumerate() {
                    tile[c * rows + d0 + d] = x;
                }
            }
            d0 += b.rows;
        }
        tile.chunks_mut(rows)
            .map(|r| {
                let inside = r.iter().filter(|&&x| x as usize <= k).count();
                // An exact integer sum: at most draws × items ≤ 2²⁸ (the
                // f64 sum of the ranks, whatever its order).
                let sum: u64 = r.iter().map(|&x| u64::from(x)).sum();
                let low = *r.select_nth_unstable(lo_at).1;
                let high = *r.select_nth_unstable(hi_at).1;
                (
                    inside as f64 / rows as f64,
                    sum as f64 / rows as f64,
                    [low as usize, high as usize],
                )
            })
            .collect::<Vec<_>>()
    });
    let mut rank_intervals = Vec::with_capacity(n);
    let mut mean_ranks = Vec::with_capacity(n);
    let mut top_k_probability = Vec::with_capacity(n);
    for (p, mean, interval) in items.into_iter().flatten() {
        top_k_probability.push(p);
        mean_ranks.push(mean);
        rank_intervals.push(interval);
    }
    let order = order_of(&fit.scores);
    let probability_by_k: Vec<f64> = agree.iter().map(|&a| a as f64 / rows as f64).collect();
    let probability = probability_by_k.get(k - 1).copied().unwrap_or(1.0);
    let largest_settled = probability_by_k
        .iter()
        .rposition(|&p| p >= opts.settle)
        .map_or(0, |i| i + 1);
    let contested: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| top_k_probability[i] > 0.0 && top_k_probability[i] < 1.0)
        .collect();
    // f*: the ⌈target·D⌉-th smallest f_d.
    factors.sort_unstable_by(f64::total_cmp);
    let at = ((opts.settle * rows as f64).ceil() as usize).clamp(1, rows) - 1;
    let f_star = factors.get(at).copied().filter(|f| f.is_finite());
    let mut is_contested = vec![false; n];
    for &i in &contested {
        is_contested[i] = true;
    }
    let m_c = data
        .records()
        .iter()
        .filter(|r| is_contested[r.first as usize] || is_contested[r.second as usize])
        .count() as f64;
    let further = f_star.map(|f| {
        if f <= 1.0 || probability >= opts.settle {
            0
        } else {
            ((f - 1.0) * m_c).ceil() as u64
        }
    });
    Uncertainty {
        method,
        level: opts.level,
        standard_errors,
        intervals,
        rank_intervals,
        mean_ranks,
        top_k: k,
        top_k_probability,
        draws,
        settled: Settled {
            k,
            top: order[..k.min(n)].to_vec(),
            probability,
            target: opts.settle,
            settled: probability >= opts.settle,
            probability_by_k,
            largest_settled,
            contested,
            information_factor: f_star,
            further_comparisons: further,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    #[test]
    fn the_information_factor_is_where_a_draw_starts_to_agree() {
        // Top 1 of three: θ̂ = (1, 0, −1); a draw that puts item 1 at 1.5
        // (δ₁ = 1.5) crosses item 0 (δ₀ = 0) at t = 1/1.5.
        let theta = [1.0, 0.0, -1.0];
        let top = [true, false, false];
        let f = information_factor(&[1.0, 1.5, -1.0], &theta, &top);
        assert!((f - 1.5f64.powi(2)).abs() < 1e-9, "{f}");
        // A draw that agrees and moves nothing never disagrees.
        assert_eq!(information_factor(&theta, &theta, &top), 0.0);
        // Equal estimates at the boundary: never settled.
        let flat = [0.0, 0.0, -1.0];
        assert_eq!(
            information_factor(&[0.1, -0.1, -1.0], &flat, &top),
            f64::INFINITY
        );
    }

    /// Against the definition: t_d is the first crossing of a top item
    /// by an outside one, min over i ∈ T, j ∉ T with δⱼ > δᵢ of
    /// (θ̂ᵢ − θ̂ⱼ)/(δⱼ − δᵢ), on random draws (ties in θ̂ included).
    #[test]
    fn the_information_factor_matches_the_first_crossing() {
        let mut rng = block_rng(5, 0);
        for case in 0..500 {
            let n = 2 + case % 40;
            let mut theta = vec![0.0; n];
            normals(&mut rng, &mut theta);
            if case % 7 == 0 {
                theta[1] = theta[0];
            }
            let order = order_of(&theta);
            let k = 1 + case % (n - 1);
            let mut top = vec![false; n];
            for &i in &order[..k] {
                top[i] = true;
            }
            let mut z = vec![0.0; n];
            normals(&mut rng, &mut z);
            let scale = [0.01, 0.3, 3.0][case % 3];
            let draw: Vec<f64> = theta.iter().zip(&z).map(|(t, z)| t + scale * z).collect();
            let mut t_min = f64::INFINITY;
            let mut tied = false;
            for i in (0..n).filter(|&i| top[i]) {
                for j in (0..n).filter(|&j| !top[j]) {
                    let (di, dj) = (draw[i] - theta[i], draw[j] - theta[j]);
                    if theta[i] <= theta[j] {
                        tied = true;
                    } else if dj > di {
                        t_min = t_min.min((theta[i] - theta[j]) / (dj - di));
                    }
                }
            }
            let f = information_factor(&draw, &theta, &top);
            if tied {
                assert_eq!(f, f64::INFINITY, "case {case}");
            } else if t_min.is_infinite() {
                assert_eq!(f, 0.0, "case {case}");
            } else {
                let want = 1.0 / (t_min * t_min);
                assert!(
                    (f - want).abs() <= 1e-12 * want,
                    "case {case}: {f} vs {want}"
                );
            }
        }
    }

    /// The ranks by one sort of (descending order key, index) pairs: the
    /// obviously correct oracle of [`Ranker`].
    fn sorted_ranks(row: &[f64]) -> Vec<u32> {
        let mut order: Vec<usize> = (0..row.len()).collect();
        order.sort_by(|&a, &b| row[b].total_cmp(&row[a]).then(a.cmp(&b)));
        let mut ranks = vec![0; row.len()];
        for (pos, &i) in order.iter().enumerate() {
            ranks[i] = pos as u32 + 1;
        }
        ranks
    }

    fn bucketed_ranks(row: &[f64]) -> Vec<u32> {
        let mut out = vec![0; row.len()];
        Ranker::default().ranks(row, &mut out);
        out
    }

    #[test]
    fn bucketed_ranks_equal_the_sort_on_awkward_values() {
        let mut rng = block_rng(9, 0);
        let mut z = vec![0.0; 5000];
        normals(&mut rng, &mut z);
        let awkward = [
            0.0,
            -0.0,
            1.0,
            1.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN,
        ];
        let mut cases: Vec<Vec<f64>> = vec![
            z.clone(),
            z.iter().map(|x| (x * 4.0).round()).collect(),
            z.iter().map(|x| x.powi(9)).collect(),
            vec![2.5; 300],
        ];
        for extra in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN] {
            let mut c = z[..200].to_vec();
            c[17] = extra;
            cases.push(c);
        }
        let mut mixed = z[..1000].to_vec();
        for (i, &a) in awkward.iter().enumerate() {
            mixed[i * 80] = a;
        }
        cases.push(mixed);
        cases.push(awkward.iter().cycle().take(120).copied().collect());
        // Two values far apart, all others in one of their buckets.
        let mut outlier = z[..500].iter().map(|x| x * 1e-9).collect::<Vec<_>>();
        outlier[3] = 1e9;
        cases.push(outlier);
        for (c, row) in cases.iter().enumerate() {
            assert_eq!(bucketed_ranks(row), sorted_ranks(row), "case {c}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Ranks of draws with ties, both zeros and values of very
        /// different sizes, below and above the bucketing threshold.
        #[test]
        fn bucketed_ranks_equal_the_sort(
            row in proptest::collection::vec(
                proptest::prop_oneof![
                    (-1000i32..1000).prop_map(|x| f64::from(x) / 8.0),
                    -1e6f64..1e6,
                    proptest::num::f64::NORMAL | proptest::num::f64::ZERO,
                    proptest::num::f64::ANY,
                ],
                0..400,
            )
        ) {
            proptest::prop_assert_eq!(bucketed_ranks(&row), sorted_ranks(&row));
        }
    }

    #[test]
    fn box_muller_has_mean_zero_and_variance_one() {
        let mut rng = block_rng(1, 0);
        let mut z = vec![0.0; 200_001];
        normals(&mut rng, &mut z);
        let mean = z.iter().sum::<f64>() / z.len() as f64;
        let var = z.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / z.len() as f64;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.01,
            "{mean} {var}"
        );
    }

    #[test]
    fn normals_at_any_place_equal_the_whole_buffer() {
        // 301 values: an odd length, past several 64-word ChaCha buffers.
        let mut whole = vec![0.0; 301];
        normals(&mut block_rng(7, 3), &mut whole);
        for first in 0..whole.len() {
            for len in [0, 1, 2, 3, 17, 64, 301 - first] {
                let len = len.min(whole.len() - first);
                let mut part = vec![f64::NAN; len];
                normals_at(&mut block_rng(7, 3), first, &mut part);
                let want = &whole[first..first + len];
                assert!(
                    part.iter()
                        .zip(want)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "from {first}, {len} values"
                );
            }
        }
    }
}
