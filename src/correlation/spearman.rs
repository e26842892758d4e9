//! Spearman's rank correlation ρ: the Pearson correlation of the two rank
//! vectors (Spearman 1904), with SciPy-compatible t-test p-values.

use super::pvalue::{Alternative, correlation_p, student_t_p, t_statistic};
use crate::correlation::error::{CorrelationError, Result, check_finite, check_pair_len};
use crate::rank::{Order, Ties, rank_keys, rank_of_keys, rank_with, validate_ranks};
use crate::sum::Neumaier;
use crate::threads::{self, workers_for};
use num_traits::Float;

/// Spearman's ρ of two samples with its test statistic; see [`spearman`].
///
/// The p-values come from [`SpearmanResult::p_value`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpearmanResult {
    /// The coefficient ρ ∈ [−1, 1].
    pub rho: f64,
    /// The number of items.
    pub n: usize,
    /// The t statistic `ρ·√((n − 2)/((1 + ρ)(1 − ρ)))`, ±∞ when |ρ| = 1
    /// (by convention also for n = 2, where it is formally 0/0).
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub statistic: f64,
}

impl SpearmanResult {
    /// The p-value of ρ under the null hypothesis of independence.
    ///
    /// ```text
    /// t = ρ·√((n − 2)/((1 + ρ)(1 − ρ)))  ~  Student t with n − 2 df
    /// ```
    /// as `scipy.stats.spearmanr` computes it (an approximation that is good
    /// from n ≈ 10 on). For n = 2 the t distribution has no degrees of freedom
    /// and the exact permutation p-value is returned instead: ρ = ±1, each
    /// with probability 1/2, so the two-sided p-value is 1 and a one-sided one
    /// is 1/2 (ρ on the side of the alternative) or 1.
    ///
    /// The t tail is computed in the crate: for df ≥ 32 near the centre an
    /// expansion of the incomplete beta function in incomplete gamma
    /// functions (Temme; DiDonato & Morris 1992), otherwise its continued
    /// fraction, with the exponent (df/2)·ln(1 + t²/df) in double-word
    /// arithmetic. Measured against mpmath (50 digits) at 1 852 pairs
    /// (t, df), df from 1 to 10⁷ and p from 0.5 down to 1e-300: at most
    /// 2.5e-15 relative error. SciPy's `t.sf` is itself up to 2e-13 off far in
    /// the tail. Far in the tail p is sensitive to the last bits of ρ: see
    /// the [accuracy notes](super::pvalue#accuracy).
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{spearman, Alternative};
    /// let r = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0])?;
    /// // scipy.stats.spearmanr gives pvalue=0.08858700531354381.
    /// assert!((r.p_value(Alternative::TwoSided) - 0.08858700531354381).abs() < 1e-12);
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    #[must_use]
    pub fn p_value(&self, alternative: Alternative) -> f64 {
        correlation_p(self.rho, self.n, alternative, |a| {
            student_t_p(self.statistic, (self.n - 2) as u64, a)
        })
    }
}

/// Spearman's rank correlation of two samples of scores.
///
/// Both inputs are ranked with average ranks for ties (`Ties::Average`, as
/// `scipy.stats.rankdata` does), and ρ is the Pearson correlation of the ranks:
///
/// ```text
/// ρ = Σ (r_i − r̄)(s_i − s̄) / √(Σ (r_i − r̄)² · Σ (s_i − s̄)²),   r̄ = s̄ = (n + 1)/2
/// ```
/// which without ties equals `1 − 6 Σ (r_i − s_i)² / (n(n² − 1))`. The
/// deviations r_i − r̄ are half-integers, their products are exact in `f64`,
/// and the three sums are compensated (Neumaier), so ρ is within a few ulp
/// of the exact value even at n = 10⁶ (naive running sums were 55 000 ulp,
/// 6·10⁻¹², off in `tests/correlation/plain_large.rs`).
/// Which end of the scale is "better" does not matter: reversing both
/// rankings leaves ρ unchanged.
///
/// # Errors
/// - [`CorrelationError::LengthMismatch`] if `x` and `y` differ in length;
/// - [`CorrelationError::TooFewItems`] for fewer than 2 items;
/// - [`CorrelationError::NaN`] / [`CorrelationError::Infinite`] naming `"x"` or `"y"` and the index;
/// - [`CorrelationError::Constant`] if all values of `x` (or `y`) are equal: ρ is 0/0.
///
/// # Complexity
/// O(n log n) time (two sorts), O(n) extra memory (two rank vectors and the
/// sort's index buffer).
///
/// # Threads
/// From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, x and y
/// are ranked at once, each on half the threads of
/// [`current_threads`](crate::current_threads) (a sort of (score, index)
/// keys, whose order is unique); the sums are then formed in one order.
/// The result is the same, bit for bit, on any number of threads (see
/// [`threads`]).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{spearman, Alternative};
/// let human = [3.5, 1.0, 2.0, 4.0, 0.5];
/// let model = [0.9, 0.2, 0.4, 0.7, 0.1];
/// let r = spearman(&human, &model)?;
/// assert!((r.rho - 0.9).abs() < 1e-15);
/// assert!(r.p_value(Alternative::Greater) < 0.05);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// C. Spearman (1904), "The proof and measurement of association between two
/// things", *American Journal of Psychology* 15(1), 72–101.
pub fn spearman<F: Float>(x: &[F], y: &[F]) -> Result<SpearmanResult> {
    let n = check_scores(x, y)?;
    let (a, b) = rank_both(
        x,
        y,
        Order::SmallerIsBetter,
        Order::SmallerIsBetter,
        Ties::Average,
    );
    // Average ranks always sum to n(n + 1)/2, so the mean is exact.
    let mean = 0.5 * (n as f64 + 1.0);
    let sums = centred_sums(&a, mean, &b, mean);
    Ok(finish(n, sums))
}

/// Spearman's ρ of two ready-made rankings: the Pearson correlation of `a`
/// and `b` as given, without re-ranking.
///
/// ```text
/// ρ = Σ (a_i − ā)(b_i − b̄) / √(Σ (a_i − ā)² · Σ (b_i − b̄)²)
/// ```
/// Use it when the ranks come from elsewhere (a gold ranking, a system's
/// output list). Ranks are 1-based (1 = top) and may be fractional (average
/// ranks of ties); only their values are used, so ranks of ties that were not
/// averaged give the Pearson correlation of those ranks, which differs from
/// [`spearman`] of the underlying scores. Sums are compensated as in
/// [`spearman`]. The p-values are those of [`SpearmanResult::p_value`].
///
/// # Errors
/// - [`CorrelationError::LengthMismatch`], [`CorrelationError::TooFewItems`] as for [`spearman`];
/// - [`CorrelationError::InvalidRank`] naming `"a"` or `"b"` and the index of the first
///   value that is not finite or outside `[1, n]`;
/// - [`CorrelationError::Constant`] naming `"a"` or `"b"` if all its ranks are equal.
///
/// # Complexity
/// O(n) time, no allocation.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::spearman_ranks;
/// // Two rankings of four items that swap the two bottom items.
/// let r = spearman_ranks(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 4.0, 3.0])?;
/// // 1 − 6·Σd²/(n(n² − 1)) = 1 − 6·2/60 = 0.8
/// assert!((r.rho - 0.8).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// C. Spearman (1904), *American Journal of Psychology* 15(1), 72–101.
pub fn spearman_ranks(a: &[f64], b: &[f64]) -> Result<SpearmanResult> {
    let n = check_pair_len("a", a, "b", b, 2)?;
    validate_ranks("a", a)?;
    validate_ranks("b", b)?;
    check_not_constant("a", a)?;
    check_not_constant("b", b)?;
    let mean_a = mean(a);
    let mean_b = mean(b);
    let sums = centred_sums(a, mean_a, b, mean_b);
    Ok(finish(n, sums))
}

/// The ranks of x and of y; from
/// [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, with more than
/// one thread, the two rankings run at once, each on half the threads.
pub(crate) fn rank_both<F: Float>(
    x: &[F],
    y: &[F],
    order_x: Order,
    order_y: Order,
    ties: Ties,
) -> (Vec<f64>, Vec<f64>) {
    let workers = workers_for(x.len());
    if workers <= 1 {
        return (
            rank_with(x, order_x, ties, 1),
            rank_with(y, order_y, ties, 1),
        );
    }
    // The keys here (F need not be Sync), the two sorts at once.
    let (kx, ky) = (rank_keys(x, order_x), rank_keys(y, order_y));
    let (mut a, mut b) = (vec![0.0; x.len()], vec![0.0; y.len()]);
    let half = workers / 2;
    threads::join(
        true,
        || rank_of_keys(kx, ties, half.max(1), &mut a),
        || rank_of_keys(ky, ties, (workers - half).max(1), &mut b),
    );
    (a, b)
}

/// Checks two score samples for a rank correlation, in one pass over each:
/// equal lengths, at least two items, finite values, neither constant.
///
/// NaN and infinite values are reported before constant inputs.
pub(crate) fn check_scores<F: Float>(x: &[F], y: &[F]) -> Result<usize> {
    let n = check_pair_len("x", x, "y", y, 2)?;
    check_finite("x", x)?;
    check_finite("y", y)?;
    check_not_constant("x", x)?;
    check_not_constant("y", y)?;
    Ok(n)
}

/// [`CorrelationError::Constant`] if every value equals the first (`-0.0 == 0.0`).
fn check_not_constant<F: Float>(input: &'static str, x: &[F]) -> Result<()> {
    match x.split_first() {
        Some((first, rest)) if rest.iter().any(|v| v != first) => Ok(()),
        _ => Err(CorrelationError::Constant { input }),
    }
}

/// The compensated mean of `v` (non-empty).
fn mean(v: &[f64]) -> f64 {
    crate::sum::neumaier(v.iter().copied()) / v.len() as f64
}

/// Centred cross and square sums of two vectors.
#[derive(Debug, Clone, Copy)]
struct Sums {
    xy: f64,
    xx: f64,
    yy: f64,
}

/// `Σ (a − ma)(b − mb)`, `Σ (a − ma)²`, `Σ (b − mb)²` with Neumaier sums.
fn centred_sums(a: &[f64], ma: f64, b: &[f64], mb: f64) -> Sums {
    let (mut xy, mut xx, mut yy) = (
        Neumaier::default(),
        Neumaier::default(),
        Neumaier::default(),
    );
    for (&ai, &bi) in a.iter().zip(b) {
        let (da, db) = (ai - ma, bi - mb);
        xy.add(da * db);
        xx.add(da * da);
        yy.add(db * db);
    }
    Sums {
        xy: xy.value(),
        xx: xx.value(),
        yy: yy.value(),
    }
}

/// ρ and t from the sums (`xx`, `yy` > 0).
fn finish(n: usize, s: Sums) -> SpearmanResult {
    // One rounding for the product, one for the root: identical rankings
    // give exactly 1 because √(fl(v²)) = v in binary floating point.
    let rho = (s.xy / (s.xx * s.yy).sqrt()).clamp(-1.0, 1.0);
    SpearmanResult {
        rho,
        n,
        statistic: t_statistic(rho, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    // The hand-worked example with a tie (ρ and t of x = 1..5,
    // y = [5, 6, 7, 8, 7]) is checked beside Pearson's in `pvalue`.

    #[test]
    fn perfect_and_reversed() {
        let x = [0.3f32, 0.1, 0.7, 0.2];
        let up = spearman(&x, &x).unwrap();
        assert_eq!(up.rho, 1.0);
        assert_eq!(up.statistic, f64::INFINITY);
        assert_eq!(up.p_value(Alternative::TwoSided), 0.0);
        let neg: Vec<f32> = x.iter().map(|v| -v).collect();
        let down = spearman(&x, &neg).unwrap();
        assert_eq!(down.rho, -1.0);
        assert_eq!(down.p_value(Alternative::Less), 0.0);
        assert_eq!(down.p_value(Alternative::Greater), 1.0);
    }

    #[test]
    fn two_items_use_the_exact_permutation_p_value() {
        let r = spearman(&[1.0, 2.0], &[3.0, 4.0]).unwrap();
        assert_eq!(r.rho, 1.0);
        assert_eq!(r.p_value(Alternative::TwoSided), 1.0);
        assert_eq!(r.p_value(Alternative::Greater), 0.5);
        assert_eq!(r.p_value(Alternative::Less), 1.0);
    }

    #[test]
    fn errors_say_what_and_where() {
        crate::correlation::assert_input_errors(|x, y| spearman(x, y).map(|_| ()));
    }

    #[test]
    fn ready_made_ranks() {
        let r = spearman_ranks(&[1.0, 2.5, 2.5, 4.0], &[2.0, 1.0, 3.0, 4.0]).unwrap();
        let s = spearman(&[4.0, 2.0, 2.0, 1.0], &[3.0, 4.0, 2.0, 1.0]).unwrap();
        assert_relative_eq!(r.rho, s.rho, max_relative = 1e-15);
        assert_eq!(
            spearman_ranks(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.5]),
            Err(CorrelationError::InvalidRank {
                input: "b",
                index: 2,
                len: 3
            })
        );
        assert_eq!(
            spearman_ranks(&[2.0, 2.0, 2.0], &[1.0, 2.0, 3.0]),
            Err(CorrelationError::Constant { input: "a" })
        );
        assert_eq!(
            spearman_ranks(&[1.0, 2.0], &[1.5, 1.5]),
            Err(CorrelationError::Constant { input: "b" })
        );
        assert_eq!(
            spearman_ranks(&[1.0], &[1.0, 2.0]),
            Err(CorrelationError::LengthMismatch {
                left: "a",
                left_len: 1,
                right: "b",
                right_len: 2
            })
        );
    }
}
