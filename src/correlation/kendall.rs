//! Kendall's rank correlation τ-b, in O(n log n) by Knight's (1966) merge
//! sort, with exact and tie-corrected normal p-values, and the O(n²) pair
//! count that serves as its oracle.
//!
//! Every pair of items {i, j} is exactly one of:
//!
//! ```text
//! concordant   (x_i − x_j)(y_i − y_j) > 0
//! discordant   (x_i − x_j)(y_i − y_j) < 0
//! ties_x       x_i = x_j, y_i ≠ y_j
//! ties_y       x_i ≠ x_j, y_i = y_j
//! ties_xy      x_i = x_j, y_i = y_j
//! ```
//! Counts are `u64`: n(n − 1)/2 < 2⁶⁴ for every n ≤ 2³², so they cannot
//! overflow (a 32-bit counter already overflows at n = 92 682); products of
//! counts are formed in `u128` or `f64`.

use super::pvalue::{Alternative, kendall_exact_p, normal_p};
use super::spearman::check_scores;
use super::vigna::Layout;
use crate::correlation::error::{CorrelationError, Result};
use crate::threads::workers_for;
use num_traits::Float;

/// The largest n for which the pair counts fit in `u64`: n(n − 1)/2 < 2⁶³.
const MAX_ITEMS: u64 = 1 << 32;

/// Kendall's τ-b of two samples with its pair counts; see [`kendall_tau_b`].
///
/// `concordant + discordant + ties_x + ties_y + ties_xy = n(n − 1)/2`.
/// The p-values come from [`KendallResult::p_value`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KendallResult {
    /// The coefficient τ-b ∈ [−1, 1].
    pub tau: f64,
    /// The number of items.
    pub n: usize,
    /// Pairs ordered the same way by x and y.
    pub concordant: u64,
    /// Pairs ordered oppositely by x and y.
    pub discordant: u64,
    /// Pairs tied in x only.
    pub ties_x: u64,
    /// Pairs tied in y only.
    pub ties_y: u64,
    /// Pairs tied in both x and y.
    pub ties_xy: u64,
    /// The normal statistic `z = (C − D)/√Var(C − D)` with the tie-corrected
    /// variance (see [`KendallResult::p_value_asymptotic`]).
    pub z: f64,
}

impl KendallResult {
    /// The p-value of τ-b under the null hypothesis of independence, chosen
    /// as `scipy.stats.kendalltau(method="auto")` does: exact when there are
    /// no ties and n ≤ 33 (or at most one pair is discordant, or at most one
    /// concordant), the tie-corrected normal approximation otherwise.
    ///
    /// ```text
    /// exact:  C ~ Mahonian(n),   Greater: P(C ≥ c), Less: P(C ≤ c),
    ///         TwoSided: min(1, 2·P(C ≤ min(c, N − c))),  N = n(n − 1)/2
    /// ```
    /// The exact distribution of the number of concordant pairs C is that of
    /// the inversions of a random permutation, computed by the standard
    /// recurrence (Kendall 1970, ch. 4) with probabilities normalised at each
    /// step: within 1.5e-15 relative of exact rational counts (379 cases:
    /// n ≤ 33, and P(C ≤ 0), P(C ≤ 1) up to n = 170). The asymptotic case has
    /// the accuracy of [`KendallResult::p_value_asymptotic`].
    ///
    /// # Complexity
    /// Exact case: O(n·min(c, N − c)) steps, at most 33·264 for n ≤ 33 and
    /// O(n) when at most one pair is out of order; otherwise O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{kendall_tau_b, Alternative};
    /// // One discordant pair among the 6 pairs of 4 items: P(C ≥ 5) = 4/24.
    /// let k = kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0])?;
    /// assert!((k.p_value(Alternative::Greater) - 1.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    #[must_use]
    pub fn p_value(&self, alternative: Alternative) -> f64 {
        let no_ties = self.ties_x == 0 && self.ties_y == 0 && self.ties_xy == 0;
        if no_ties && (self.n <= 33 || self.concordant.min(self.discordant) <= 1) {
            kendall_exact_p(self.n as u64, self.concordant, alternative)
        } else {
            self.p_value_asymptotic(alternative)
        }
    }

    /// The p-value of the normal approximation, with or without ties
    /// (`scipy.stats.kendalltau(method="asymptotic")`).
    ///
    /// ```text
    /// z = (C − D) / √Var,  m = n(n − 1)
    /// Var = (m(2n + 5) − Σ_x t(t−1)(2t+5) − Σ_y u(u−1)(2u+5)) / 18
    ///     + 2·T_x·T_y / m
    ///     + Σ_x t(t−1)(t−2) · Σ_y u(u−1)(u−2) / (9m(n − 2))
    /// ```
    /// where t (u) runs over the sizes of the groups of tied x (y) values and
    /// T_x = Σ t(t−1)/2 is the number of pairs tied in x. This is the exact
    /// permutation variance of C − D (Kendall 1970, eq. 4.4).
    ///
    /// The normal tail is ½·erfc(z/√2) with z²/2 as a double-word and erfc
    /// from Taylor series about tabulated points (|z| < 3√2) or Laplace's
    /// continued fraction: within 4.1e-16 relative of mpmath at 192 values of
    /// z, p from 1 down to 1e-300 (SciPy's `ndtr` is up to 2e-13 off far in
    /// the tail, from rounding z/√2).
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{kendall_tau_b, Alternative};
    /// let k = kendall_tau_b(&[12.0, 2.0, 1.0, 12.0, 2.0], &[1.0, 4.0, 7.0, 1.0, 0.0])?;
    /// // scipy.stats.kendalltau gives pvalue=0.2827454599327748.
    /// assert!((k.p_value_asymptotic(Alternative::TwoSided) - 0.2827454599327748).abs() < 1e-12);
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    #[must_use]
    pub fn p_value_asymptotic(&self, alternative: Alternative) -> f64 {
        normal_p(self.z, alternative)
    }
}

/// Kendall's τ-b of two samples of scores, in O(n log n).
///
/// ```text
/// τ_b = (C − D) / √((N − T_x)(N − T_y)),   N = n(n − 1)/2
/// ```
/// with C, D the concordant and discordant pairs and T_x, T_y the pairs tied
/// in x (in y), joint ties included. From 1024 items on, the counts come
/// from the kernel of [`weighted_kendall`](crate::weighted_kendall) with unit
/// weights: the items sorted by (y, x) and by (x, y) as integer keys, each
/// item's number d_k of discordant partners from a counting sweep
/// (D = Σ d_k / 2), the tie groups from the runs of the two orders; below,
/// by Knight's algorithm (sort by (x, y), merge-sort the y values counting
/// the exchanges). Both give the same integers. Scores are compared as
/// values, so `-0.0` ties with `0.0`. Identical inputs give exactly 1 and
/// reversed inputs exactly −1 at every n.
///
/// # Errors
/// - [`CorrelationError::LengthMismatch`] if `x` and `y` differ in length;
/// - [`CorrelationError::TooFewItems`] for fewer than 2 items;
/// - [`CorrelationError::NaN`] / [`CorrelationError::Infinite`] naming `"x"` or `"y"` and the index;
/// - [`CorrelationError::Constant`] if all values of `x` (or `y`) are equal: τ-b is 0/0;
/// - [`CorrelationError::InvalidParameter`] (`"n"`) beyond 2³² items, where the pair
///   counts would no longer fit in `u64`.
///
/// # Complexity
/// O(n log n) time, O(n) extra memory (about 40 bytes an item at the peak).
///
/// # Threads
/// From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, the two
/// sorts and the counting sweep run on the threads of
/// [`current_threads`](crate::current_threads) (all cores by default; one with
/// `ACM_THREADS=1` or [`with_threads`](crate::with_threads)). The counts are
/// integers, so the result cannot depend on how the work was split.
/// The result is the same, bit for bit, on any number of threads (see
/// [`threads`](crate::threads)).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{kendall_tau_b, Alternative};
/// let x = [12.0, 2.0, 1.0, 12.0, 2.0];
/// let y = [1.0, 4.0, 7.0, 1.0, 0.0];
/// let k = kendall_tau_b(&x, &y)?;
/// assert_eq!((k.concordant, k.discordant), (2, 6));
/// assert_eq!((k.ties_x, k.ties_y, k.ties_xy), (1, 0, 1));
/// // (2 − 6)/√((10 − 2)(10 − 1)); scipy.stats.kendalltau: -0.47140452079103173
/// assert!((k.tau + 4.0 / 72f64.sqrt()).abs() < 1e-15);
/// assert!(k.p_value(Alternative::TwoSided) > 0.2);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// M. G. Kendall (1945), "The treatment of ties in ranking problems",
/// *Biometrika* 33(3), 239–251 (τ-b); W. R. Knight (1966), "A computer method
/// for calculating Kendall's tau with ungrouped data", *JASA* 61(314),
/// 436–439 (the algorithm); M. G. Kendall (1970), *Rank Correlation Methods*,
/// 4th ed., Griffin (the null distribution).
pub fn kendall_tau_b<F: Float>(x: &[F], y: &[F]) -> Result<KendallResult> {
    let n = check_scores(x, y)?;
    check_size(n)?;
    let counts = if n >= KERNEL_FROM && u32::try_from(n).is_ok() {
        counts_by_kernel(x, y)?
    } else {
        counts_by_merge(x, y)
    };
    let Counts {
        discordant,
        joint,
        tx,
        ty,
    } = counts;
    Ok(finish(n, discordant, joint, &tx, &ty))
}

/// From this many items on, [`kendall_tau_b`] counts with the weighted-τ
/// kernel (two integer sorts and a counting sweep, split over threads at
/// large n); below it, with Knight's merge sort, which allocates less.
/// Measured with `benches/plain.rs`.
const KERNEL_FROM: usize = 1 << 10;

/// The pair counts τ-b needs: discordant pairs, pairs tied in both, and the
/// tie statistics of each input.
#[derive(Debug, PartialEq)]
struct Counts {
    discordant: u64,
    joint: u64,
    tx: TieStats,
    ty: TieStats,
}

/// The counts from the weighted-τ kernel's orders ([`Layout`]): each
/// discordant pair is counted once from each of its items, D = Σ d_k / 2,
/// and the tie groups are the runs of equal dense ranks along the sorted
/// orders. The work is split over threads from
/// [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on; the counts are
/// integers, the same on any number of threads.
///
/// # Errors
/// [`CorrelationError::TooManyItems`] beyond `u32::MAX` items (not reached: the caller
/// uses the merge sort there).
fn counts_by_kernel<F: Float>(x: &[F], y: &[F]) -> Result<Counts> {
    let pairs: Vec<(u64, u64)> = x.iter().zip(y).map(|(&a, &b)| (key(b), key(a))).collect();
    let layout = Layout::new(pairs)?;
    let d = layout.discordant_counts(workers_for(x.len()));
    let discordant = d.iter().map(|&c| u64::from(c)).sum::<u64>() / 2;
    let (mut tx, mut ty, mut joint) = (TieStats::default(), TieStats::default(), 0);
    layout.for_each_x_group(|t| tx.add_group(t));
    layout.for_each_y_group(|t| ty.add_group(t));
    layout.for_each_xy_group(|t| joint += pairs_of(t));
    Ok(Counts {
        discordant,
        joint,
        tx,
        ty,
    })
}

/// The counts by Knight's algorithm: sort the items by (x, y); count the
/// pairs tied in x and in (x, y) from the runs; merge-sort the y values
/// counting the exchanges, which are the discordant pairs; count the pairs
/// tied in y from the runs of the sorted y.
fn counts_by_merge<F: Float>(x: &[F], y: &[F]) -> Counts {
    let n = x.len();
    // Sort (x, y) pairs as order-preserving integer keys.
    let mut pairs: Vec<(u64, u64)> = x.iter().zip(y).map(|(&a, &b)| (key(a), key(b))).collect();
    // One u128 comparison per step: measurably faster than the tuple order.
    pairs.sort_unstable_by_key(|&(kx, ky)| (u128::from(kx) << 64) | u128::from(ky));

    let mut tx = TieStats::default();
    let mut joint = 0_u64;
    let mut ys: Vec<u64> = Vec::with_capacity(n);
    let mut run_x = 0_u64; // length of the current run of equal x
    let mut run_xy = 0_u64; // length of the current run of equal (x, y)
    let mut prev: Option<(u64, u64)> = None;
    for &(kx, ky) in &pairs {
        match prev {
            Some((px, py)) if px == kx => {
                run_x += 1;
                if py == ky {
                    run_xy += 1;
                } else {
                    joint += pairs_of(run_xy);
                    run_xy = 1;
                }
            }
            _ => {
                tx.add_group(run_x);
                joint += pairs_of(run_xy);
                run_x = 1;
                run_xy = 1;
            }
        }
        prev = Some((kx, ky));
        ys.push(ky);
    }
    tx.add_group(run_x);
    joint += pairs_of(run_xy);
    drop(pairs);

    let mut buf = vec![0_u64; n];
    let discordant = sort_counting_inversions(&mut ys, &mut buf);
    let mut ty = TieStats::default();
    let mut run = 0_u64;
    for (i, &v) in ys.iter().enumerate() {
        if i > 0 && ys[i - 1] == v {
            run += 1;
        } else {
            ty.add_group(run);
            run = 1;
        }
    }
    ty.add_group(run);
    Counts {
        discordant,
        joint,
        tx,
        ty,
    }
}

/// Kendall's τ-b by comparing every pair: the slow, obviously correct oracle
/// for [`kendall_tau_b`], which it must match count for count.
///
/// ```text
/// for i < j:  s = sgn(x_i − x_j)·sgn(y_i − y_j)
///             s > 0 → concordant, s < 0 → discordant,
///             else by which of x, y are tied
/// ```
/// The tie-group statistics of the variance come from counting, for each
/// item, the items equal to it (a group of size t contributes t items with
/// count t each). Same result type, same p-values.
///
/// # Errors
/// As [`kendall_tau_b`].
///
/// # Complexity
/// O(n²) time, O(1) extra memory. Use it for testing and for small n only.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{kendall_tau_b, kendall_tau_b_naive};
/// let x = [0.1, 0.4, 0.4, 0.9, 0.3];
/// let y = [1.0, 3.0, 2.0, 2.0, 5.0];
/// assert_eq!(kendall_tau_b_naive(&x, &y)?, kendall_tau_b(&x, &y)?);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// M. G. Kendall (1945), *Biometrika* 33(3), 239–251.
pub fn kendall_tau_b_naive<F: Float>(x: &[F], y: &[F]) -> Result<KendallResult> {
    let n = check_scores(x, y)?;
    check_size(n)?;
    let (mut con, mut dis, mut joint) = (0_u64, 0_u64, 0_u64);
    let (mut only_x, mut only_y) = (0_u64, 0_u64);
    let mut tx = TieStats::default();
    let mut ty = TieStats::default();
    for (i, (xi, yi)) in x.iter().zip(y).enumerate() {
        let (mut same_x, mut same_y) = (0_u64, 0_u64);
        for (j, (xj, yj)) in x.iter().zip(y).enumerate() {
            same_x += u64::from(xi == xj);
            same_y += u64::from(yi == yj);
            if j <= i {
                continue;
            }
            let (tie_x, tie_y) = (xi == xj, yi == yj);
            match (tie_x, tie_y) {
                (true, true) => joint += 1,
                (true, false) => only_x += 1,
                (false, true) => only_y += 1,
                (false, false) if (xi < xj) == (yi < yj) => con += 1,
                (false, false) => dis += 1,
            }
        }
        tx.add_member(same_x);
        ty.add_member(same_y);
    }
    let result = finish(n, dis, joint, &tx.members_done(), &ty.members_done());
    // Report what was counted; `finish` derived its counts from the tie
    // groups, and the two must agree.
    debug_assert_eq!(
        (result.concordant, result.ties_x, result.ties_y),
        (con, only_x, only_y)
    );
    Ok(KendallResult {
        concordant: con,
        ties_x: only_x,
        ties_y: only_y,
        ..result
    })
}

/// Rejects sizes whose pair counts would overflow `u64`.
fn check_size(n: usize) -> Result<()> {
    if n as u64 > MAX_ITEMS {
        return Err(CorrelationError::InvalidParameter {
            name: "n",
            expected: "at most 2³² items, so that pair counts fit in 64 bits",
        });
    }
    Ok(())
}

/// A `u64` whose unsigned order is the numeric order of the finite score `v`;
/// `-0.0` and `0.0` map to the same key.
fn key<F: Float>(v: F) -> u64 {
    // f32 and f64 convert exactly; validation has ruled out NaN and ±∞.
    let v = v.to_f64().unwrap_or(0.0);
    let v = if v == 0.0 { 0.0 } else { v };
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// t(t − 1)/2.
fn pairs_of(t: u64) -> u64 {
    if t < 2 { 0 } else { t * (t - 1) / 2 }
}

/// Sums over the groups of tied values of one input, as the variance needs.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct TieStats {
    /// Σ t(t − 1)/2: pairs tied in this input (joint ties included).
    pairs: u64,
    /// Σ t(t − 1)(t − 2).
    v0: u128,
    /// Σ t(t − 1)(2t + 5).
    v1: u128,
}

impl TieStats {
    /// Adds a group of `t` equal values.
    fn add_group(&mut self, t: u64) {
        if t < 2 {
            return;
        }
        let w = u128::from(t);
        self.pairs += pairs_of(t);
        self.v0 += w * (w - 1) * (w - 2);
        self.v1 += w * (w - 1) * (2 * w + 5);
    }

    /// For the naive counter: adds one item whose group has size `t`. Each
    /// group of size t is visited t times, so per-item terms are the group
    /// terms divided by t (stored doubled for `pairs`, halved in
    /// [`TieStats::members_done`]).
    fn add_member(&mut self, t: u64) {
        let w = u128::from(t);
        self.pairs += t - 1;
        self.v0 += (w - 1) * w.saturating_sub(2);
        self.v1 += (w - 1) * (2 * w + 5);
    }

    /// Finishes statistics accumulated with [`TieStats::add_member`].
    fn members_done(self) -> Self {
        Self {
            pairs: self.pairs / 2,
            ..self
        }
    }
}

/// Sorts `v` ascending (stable merge sort, bottom-up, using `buf` of the same
/// length) and returns the number of inversions: pairs i < j with v_i > v_j.
/// Equal values are never counted.
fn sort_counting_inversions(v: &mut [u64], buf: &mut [u64]) -> u64 {
    const RUN: usize = 32;
    let n = v.len();
    let mut inversions = 0_u64;
    // Short runs by insertion sort: each shift is one inversion.
    for chunk in v.chunks_mut(RUN) {
        for i in 1..chunk.len() {
            let item = chunk[i];
            let mut j = i;
            while j > 0 && chunk[j - 1] > item {
                chunk[j] = chunk[j - 1];
                j -= 1;
            }
            inversions += (i - j) as u64;
            chunk[j] = item;
        }
    }
    let mut width = RUN;
    let mut in_v = true; // where the current runs live
    while width < n {
        {
            let (src, dst): (&[u64], &mut [u64]) = if in_v {
                (&*v, &mut *buf)
            } else {
                (&*buf, &mut *v)
            };
            for (s, d) in src.chunks(2 * width).zip(dst.chunks_mut(2 * width)) {
                let (left, right) = s.split_at(width.min(s.len()));
                inversions += merge(left, right, d);
            }
        }
        in_v = !in_v;
        width *= 2;
    }
    if !in_v {
        v.copy_from_slice(buf);
    }
    inversions
}

/// Merges sorted `left` and `right` into `out`, returning how many
/// (left, right) pairs were out of order.
fn merge(left: &[u64], right: &[u64], out: &mut [u64]) -> u64 {
    let (mut i, mut j, mut k) = (0, 0, 0);
    let mut inversions = 0_u64;
    while let (Some(&l), Some(&r), Some(slot)) = (left.get(i), right.get(j), out.get_mut(k)) {
        if r < l {
            *slot = r;
            j += 1;
            // r jumps ahead of every remaining left element.
            inversions += (left.len() - i) as u64;
        } else {
            *slot = l;
            i += 1;
        }
        k += 1;
    }
    // One side is exhausted; the rest of the other is already in order.
    let rest = if i < left.len() {
        &left[i..]
    } else {
        &right[j..]
    };
    out[k..].copy_from_slice(rest);
    inversions
}

/// τ-b, the counts and z from the discordant and joint-tie counts and the
/// tie statistics of both inputs (neither input constant).
fn finish(n: usize, discordant: u64, joint: u64, tx: &TieStats, ty: &TieStats) -> KendallResult {
    let n64 = n as u64;
    // n ≤ 2³², so N = n(n − 1)/2 < 2⁶³.
    let total = (u128::from(n64) * u128::from(n64 - 1) / 2) as u64;
    let ties_x = tx.pairs - joint;
    let ties_y = ty.pairs - joint;
    let concordant = total - discordant - ties_x - ties_y - joint;
    let s = i128::from(concordant) - i128::from(discordant);
    let (untied_x, untied_y) = (total - tx.pairs, total - ty.pairs);
    // One rounding for the product and one for the root, so identical
    // inputs give exactly 1 (√fl(v²) = v in binary floating point); the
    // quotient of two roots would not.
    let denom = ((u128::from(untied_x) * u128::from(untied_y)) as f64).sqrt();
    let tau = (s as f64 / denom).clamp(-1.0, 1.0);
    KendallResult {
        tau,
        n,
        concordant,
        discordant,
        ties_x,
        ties_y,
        ties_xy: joint,
        z: s as f64 / variance(n64, tx, ty).sqrt(),
    }
}

/// The permutation variance of C − D with ties (Kendall 1970, eq. 4.4; the
/// formula of `scipy.stats.kendalltau`), evaluated so nothing overflows.
fn variance(n: u64, tx: &TieStats, ty: &TieStats) -> f64 {
    let nf = n as f64;
    let m = nf * (nf - 1.0);
    // m(2n + 5) − v1_x − v1_y is exact in i128 for n ≤ 2³² (< 2⁹⁸).
    let w = u128::from(n);
    let base = (w * (w - 1) * (2 * w + 5)) as i128 - tx.v1 as i128 - ty.v1 as i128;
    let mut var = base as f64 / 18.0 + 2.0 * (tx.pairs as f64) * (ty.pairs as f64) / m;
    if tx.v0 > 0 && ty.v0 > 0 {
        // v0 > 0 needs a group of 3, so n ≥ 3 here.
        var += (tx.v0 as f64) * (ty.v0 as f64) / (9.0 * m * (nf - 2.0));
    }
    var
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn hand_worked_example_with_ties() {
        // Items (12,1) (2,4) (1,7) (12,1) (2,0). Pairs:
        // 01 D, 02 D, 03 tie xy, 04 C, 12 D, 13 D, 14 tie x, 23 D, 24 D, 34 C
        // → C = 2, D = 6, ties_x = 1, ties_y = 0, ties_xy = 1; N = 10,
        // T_x = 2 ({12,12}, {2,2}), T_y = 1 ({1,1}); τ = −4/√(8·9).
        let x = [12.0, 2.0, 1.0, 12.0, 2.0];
        let y = [1.0, 4.0, 7.0, 1.0, 0.0];
        for k in [
            kendall_tau_b(&x, &y).unwrap(),
            kendall_tau_b_naive(&x, &y).unwrap(),
        ] {
            assert_eq!(
                (k.concordant, k.discordant, k.ties_x, k.ties_y, k.ties_xy),
                (2, 6, 1, 0, 1)
            );
            assert_relative_eq!(k.tau, -4.0 / 72f64.sqrt(), max_relative = 1e-15);
            // m = n(n − 1) = 20. Σ_x t(t−1)(2t+5) = 2·(2·1·9) = 36 (two pairs
            // of tied x), Σ_y = 18 (one); no group of three. Var = (20·15 −
            // 36 − 18)/18 + 2·2·1/20 = 246/18 + 0.2, z = −4/√Var.
            let var = 246.0 / 18.0 + 0.2;
            assert_relative_eq!(k.z, -4.0 / f64::sqrt(var), max_relative = 1e-15);
        }
    }

    #[test]
    fn no_ties_small_n_is_exact() {
        // x = 1..4, y = [1, 3, 2, 4]: one discordant pair, τ = (5 − 1)/6.
        let k = kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert_eq!((k.concordant, k.discordant), (5, 1));
        assert_relative_eq!(k.tau, 2.0 / 3.0, max_relative = 1e-15);
        assert_relative_eq!(
            k.p_value(Alternative::Greater),
            4.0 / 24.0,
            max_relative = 1e-15
        );
        assert_relative_eq!(
            k.p_value(Alternative::TwoSided),
            8.0 / 24.0,
            max_relative = 1e-15
        );
        assert_relative_eq!(
            k.p_value(Alternative::Less),
            23.0 / 24.0,
            max_relative = 1e-15
        );
        // Var without ties = n(n − 1)(2n + 5)/18 = 4·3·13/18; z = 4/√Var.
        assert_relative_eq!(k.z, 4.0 / (156.0f64 / 18.0).sqrt(), max_relative = 1e-15);
    }

    #[test]
    fn identical_and_reversed_are_exact() {
        let x: Vec<f32> = (0..1000).map(|i| ((i * 37) % 101) as f32).collect();
        let rev: Vec<f32> = x.iter().map(|v| -v).collect();
        assert_eq!(kendall_tau_b(&x, &x).unwrap().tau, 1.0);
        assert_eq!(kendall_tau_b(&x, &rev).unwrap().tau, -1.0);
    }

    #[test]
    fn negative_zero_ties_with_zero() {
        let k = kendall_tau_b(&[-0.0, 0.0, 1.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((k.ties_x, k.concordant), (1, 2));
        assert_eq!(
            k,
            kendall_tau_b_naive(&[-0.0, 0.0, 1.0], &[1.0, 2.0, 3.0]).unwrap()
        );
    }

    #[test]
    fn keys_preserve_order() {
        let v = [-1e300, -2.5, -1e-310, 0.0, 1e-310, 1.0, 3.0, 1e300];
        for w in v.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} vs {}", w[0], w[1]);
        }
        assert_eq!(key(-0.0_f64), key(0.0_f64));
        assert_eq!(key(1.5_f32), key(1.5_f64));
    }

    #[test]
    fn inversion_count_across_run_boundaries() {
        for n in [0_usize, 1, 2, 31, 32, 33, 64, 65, 200] {
            let mut v: Vec<u64> = (0..n as u64).map(|i| (i * 7919) % 53).collect();
            let naive = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .filter(|&(i, j)| v[i] > v[j])
                .count() as u64;
            let mut buf = vec![0; n];
            let mut sorted = v.clone();
            sorted.sort_unstable();
            assert_eq!(sort_counting_inversions(&mut v, &mut buf), naive, "n = {n}");
            assert_eq!(v, sorted);
        }
    }

    #[test]
    fn the_kernel_counts_as_knights_merge_sort() {
        use crate::threads::{PARALLEL_FROM, Threads, with_threads};
        use core::num::NonZeroUsize;
        // Sizes around both thresholds, distinct scores, ties, negative
        // zeros, ranks (the counting path).
        let mut s = 0x1234_5678_u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for n in [KERNEL_FROM - 1, KERNEL_FROM, 5000, PARALLEL_FROM + 777] {
            for levels in [0u64, 3, 40, 1000] {
                let mut draw = || match levels {
                    0 => (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5,
                    l => (next() % l) as f64 - (l / 2) as f64,
                };
                let x: Vec<f64> = (0..n).map(|_| draw()).collect();
                let mut y: Vec<f64> = (0..n).map(|_| draw()).collect();
                y[n / 2] = -0.0;
                let merge = counts_by_merge(&x, &y);
                for t in [1, 2, 3] {
                    let threads = Threads::Fixed(NonZeroUsize::new(t).unwrap());
                    let kernel = with_threads(threads, || counts_by_kernel(&x, &y)).unwrap();
                    assert_eq!(kernel, merge, "n = {n}, levels = {levels}, {t} threads");
                }
            }
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(
            kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 2.0]),
            Err(CorrelationError::LengthMismatch {
                left: "x",
                left_len: 3,
                right: "y",
                right_len: 2
            })
        );
        assert_eq!(
            kendall_tau_b(&[1.0], &[2.0]),
            Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
        );
        assert_eq!(
            kendall_tau_b(&[1.0, f64::NAN], &[2.0, 3.0]),
            Err(CorrelationError::NaN {
                input: "x",
                index: 1
            })
        );
        assert_eq!(
            kendall_tau_b(&[1.0, 2.0], &[2.0, f64::NEG_INFINITY]),
            Err(CorrelationError::Infinite {
                input: "y",
                index: 1
            })
        );
        assert_eq!(
            kendall_tau_b(&[1.0, 1.0], &[2.0, 3.0]),
            Err(CorrelationError::Constant { input: "x" })
        );
        assert_eq!(
            kendall_tau_b_naive(&[1.0, 2.0], &[3.0, 3.0]),
            Err(CorrelationError::Constant { input: "y" })
        );
    }
}
