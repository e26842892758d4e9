//! Pearson's product-moment correlation r, computed to full `f64` accuracy
//! whatever the scale of the data, with the t-test p-value and Fisher's z
//! confidence interval of `scipy.stats.pearsonr`.

use super::pvalue::{Alternative, correlation_p, pearson_p, t_statistic};
use super::spearman::check_scores;
use crate::correlation::error::{CorrelationError, Result};
use crate::special::dd::{Dd, two_prod, two_sum};
use num_traits::Float;
use statrs::distribution::{ContinuousCDF, Normal};

/// Pearson's r of two samples with its test statistic; see [`pearson`].
///
/// The p-values come from [`PearsonResult::p_value`], the confidence
/// interval from [`PearsonResult::confidence_interval`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PearsonResult {
    /// The coefficient r ∈ [−1, 1].
    pub r: f64,
    /// The number of items.
    pub n: usize,
    /// The t statistic `r·√((n − 2)/((1 + r)(1 − r)))`, ±∞ when |r| = 1
    /// (by convention also for n = 2, where it is formally 0/0).
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub statistic: f64,
}

/// A confidence interval for a correlation coefficient; see
/// [`PearsonResult::confidence_interval`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FisherInterval {
    /// The lower end (−1 for [`Alternative::Less`]).
    pub lower: f64,
    /// The upper end (1 for [`Alternative::Greater`]).
    pub upper: f64,
}

impl PearsonResult {
    /// The p-value of r under the null hypothesis that x and y are
    /// independent and normally distributed.
    ///
    /// ```text
    /// t = r·√((n − 2)/((1 + r)(1 − r)))  ~  Student t with n − 2 df
    /// ```
    /// equivalently r ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1], the exact null
    /// distribution `scipy.stats.pearsonr` uses. For n = 2, r = ±1, each
    /// with probability 1/2 under the null (for continuous data), so the
    /// two-sided p-value is 1 and a one-sided one is 1/2 (r on the side of
    /// the alternative) or 1, as for [`spearman`](super::spearman::spearman);
    /// SciPy returns 1 for every alternative there.
    ///
    /// The tail is computed from r itself, ½·I_{(1−r)(1+r)}(n/2 − 1, ½) with
    /// the exponent from the exact double-words 1 ± r (see
    /// [`SpearmanResult::p_value`](super::spearman::SpearmanResult::p_value)
    /// for the method): within 2.1e-15 relative of mpmath at 600 pairs (r, n),
    /// n from 3 to 10⁶, p down to 1e-300. SciPy rounds (1 + r)/2 first and is
    /// up to 7e-14 off there.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{pearson, Alternative};
    /// let r = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0])?;
    /// // scipy.stats.pearsonr gives statistic=0.8320502943378436,
    /// // pvalue=0.0805095732984986.
    /// assert!((r.r - 0.8320502943378436).abs() < 1e-15);
    /// assert!((r.p_value(Alternative::TwoSided) - 0.0805095732984986).abs() < 1e-13);
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    #[must_use]
    pub fn p_value(&self, alternative: Alternative) -> f64 {
        correlation_p(self.r, self.n, alternative, |a| {
            pearson_p(self.r, self.n as u64, a)
        })
    }

    /// A confidence interval for the population correlation ρ at confidence
    /// `level`, by Fisher's z transformation, as
    /// `scipy.stats.pearsonr(...).confidence_interval()` computes it.
    ///
    /// ```text
    /// z = artanh(r),  se = 1/√(n − 3)
    /// TwoSided  [tanh(z − h·se), tanh(z + h·se)],  h = Φ⁻¹((1 + level)/2)
    /// Greater   [tanh(z − h·se), 1],               h = Φ⁻¹(level)
    /// Less      [−1, tanh(z + h·se)],              h = Φ⁻¹(level)
    /// ```
    /// The approximation assumes bivariate normal data. For n ≤ 3 the
    /// standard error is infinite and the interval is [−1, 1]; for r = ±1 it
    /// is the single point r.
    ///
    /// # Errors
    /// [`CorrelationError::InvalidParameter`] (`"level"`) unless 0 < level < 1.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{pearson, Alternative};
    /// let r = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2.0, 1.0, 4.0, 3.0, 7.0, 5.0])?;
    /// let ci = r.confidence_interval(0.95, Alternative::TwoSided)?;
    /// assert!(ci.lower < r.r && r.r < ci.upper);
    /// // scipy.stats.pearsonr(x, y).confidence_interval(0.95):
    /// // low=-0.055305159673339724, high=0.9761145801153426
    /// assert!((ci.lower - -0.055305159673339724).abs() < 1e-12);
    /// assert!((ci.upper - 0.9761145801153426).abs() < 1e-12);
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    ///
    /// # References
    /// R. A. Fisher (1921), "On the 'probable error' of a coefficient of
    /// correlation deduced from a small sample", *Metron* 1, 3–32.
    pub fn confidence_interval(
        &self,
        level: f64,
        alternative: Alternative,
    ) -> Result<FisherInterval> {
        if !(level > 0.0 && level < 1.0) {
            return Err(CorrelationError::InvalidParameter {
                name: "level",
                expected: "a confidence level strictly between 0 and 1",
            });
        }
        if self.n <= 3 {
            return Ok(FisherInterval {
                lower: -1.0,
                upper: 1.0,
            });
        }
        let z = self.r.atanh();
        let se = (1.0 / (self.n - 3) as f64).sqrt();
        let quantile = |p: f64| Normal::standard().inverse_cdf(p);
        Ok(match alternative {
            Alternative::TwoSided => {
                let h = quantile(0.5 + level / 2.0);
                FisherInterval {
                    lower: (z - h * se).tanh(),
                    upper: (z + h * se).tanh(),
                }
            }
            Alternative::Greater => FisherInterval {
                lower: (z - quantile(level) * se).tanh(),
                upper: 1.0,
            },
            Alternative::Less => FisherInterval {
                lower: -1.0,
                upper: (z + quantile(level) * se).tanh(),
            },
        })
    }
}

/// Pearson's product-moment correlation of two samples.
///
/// ```text
/// r = Σ (x_i − x̄)(y_i − ȳ) / √(Σ (x_i − x̄)² · Σ (y_i − ȳ)²)
/// ```
/// Computed to full `f64` accuracy for any finite input:
///
/// - each input is first scaled by a power of two (exact) so its largest
///   magnitude lies in [1, 2), so values from 1e-300 to 1e300 neither
///   overflow nor underflow;
/// - two passes: the means in double-word arithmetic (about 106 bits), then
///   the deviations, their products and the three sums, again as
///   double-words (error-free transformations, Joldes, Muller & Popescu
///   2017);
/// - the quotient and root in double-word arithmetic, rounded once to `f64`.
///
/// So r is within an ulp of the exact value unless n·2⁻¹⁰⁶ relative errors
/// matter (about n > 10¹⁶), |r| ≤ 1 always, and exactly linear data
/// (y_i = a + b·x_i holding exactly for the stored values, e.g. integer data)
/// give exactly ±1. For n = 2, r is ±1 exactly.
///
/// # Errors
/// - [`CorrelationError::LengthMismatch`] if `x` and `y` differ in length;
/// - [`CorrelationError::TooFewItems`] for fewer than 2 items (SciPy's minimum);
/// - [`CorrelationError::NaN`] / [`CorrelationError::Infinite`] naming `"x"` or `"y"` and the index;
/// - [`CorrelationError::Constant`] if all values of `x` (or `y`) are equal: r is 0/0.
///
/// # Complexity
/// O(n) time in three passes over each input, no allocation.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{pearson, Alternative};
/// let human = [3.5, 1.0, 2.0, 4.0, 0.5];
/// let model = [0.9, 0.2, 0.4, 0.7, 0.1];
/// let r = pearson(&human, &model)?;
/// assert!(r.r > 0.9);
/// assert!(r.p_value(Alternative::Greater) < 0.05);
/// // Exactly linear data give exactly ±1, at any scale.
/// let x = [1e300, 2e300, 4e300];
/// let y = [-1e-300, -2e-300, -4e-300];
/// assert_eq!(pearson(&x, &y)?.r, -1.0);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// K. Pearson (1895), "Notes on regression and inheritance in the case of
/// two parents", *Proceedings of the Royal Society of London* 58, 240–242;
/// `scipy.stats.pearsonr` (SciPy 1.17) for the p-value and interval.
pub fn pearson<F: Float>(x: &[F], y: &[F]) -> Result<PearsonResult> {
    let n = check_scores(x, y)?;
    let r = if n == 2 {
        // Two distinct points lie on a line: r = ±1 exactly.
        let (dx, dy) = (to_f64(x[1]) - to_f64(x[0]), to_f64(y[1]) - to_f64(y[0]));
        if (dx > 0.0) == (dy > 0.0) { 1.0 } else { -1.0 }
    } else {
        pearson_r(x, y)
    };
    Ok(PearsonResult {
        r,
        n,
        statistic: t_statistic(r, n),
    })
}

/// A finite value as `f64` (f32 converts exactly).
#[inline]
fn to_f64<F: Float>(v: F) -> f64 {
    v.to_f64().unwrap_or(0.0)
}

/// r of two validated samples (equal lengths ≥ 2, finite, not constant).
fn pearson_r<F: Float>(x: &[F], y: &[F]) -> f64 {
    let sx = Scale::of(x);
    let sy = Scale::of(y);
    let n = x.len() as f64;
    let (mut ax, mut ay) = (Acc::default(), Acc::default());
    for (&a, &b) in x.iter().zip(y) {
        ax.add(sx.apply(to_f64(a)), 0.0);
        ay.add(sy.apply(to_f64(b)), 0.0);
    }
    let (mx, my) = (ax.value().div_f64(n), ay.value().div_f64(n));
    let (mut sxy, mut sxx, mut syy) = (Acc::default(), Acc::default(), Acc::default());
    for (&a, &b) in x.iter().zip(y) {
        let (hx, lx) = deviation(sx.apply(to_f64(a)), mx);
        let (hy, ly) = deviation(sy.apply(to_f64(b)), my);
        // (hx + lx)(hy + ly) without the negligible lx·ly; the cross terms
        // are summed in an order-free way, so r(x, y) == r(y, x) bit for bit.
        let (p, e) = two_prod(hx, hy);
        sxy.add(p, e + (hx * ly + lx * hy));
        let (p, e) = two_prod(hx, hx);
        sxx.add(p, e + 2.0 * hx * lx);
        let (p, e) = two_prod(hy, hy);
        syy.add(p, e + 2.0 * hy * ly);
    }
    let denominator = sxx.value().mul(syy.value()).sqrt();
    sxy.value().div(denominator).to_f64().clamp(-1.0, 1.0)
}

/// `v − m` as an unevaluated sum `h + l` with `|l| ≤ ½ ulp(h)`.
#[inline]
fn deviation(v: f64, m: Dd) -> (f64, f64) {
    let (h, l) = two_sum(v, -m.hi);
    two_sum(h, l - m.lo)
}

/// A compensated sum: the leading sum by TwoSum, the rounding errors and
/// small parts accumulated beside it (Ogita, Rump & Oishi 2005, Sum2): the
/// error is about n·u²·Σ|terms|.
#[derive(Debug, Default, Clone, Copy)]
struct Acc {
    sum: f64,
    tail: f64,
}

impl Acc {
    /// Adds `big + small` (`|small|` ≪ `|big|`).
    #[inline]
    fn add(&mut self, big: f64, small: f64) {
        let (s, e) = two_sum(self.sum, big);
        self.sum = s;
        self.tail += e + small;
    }

    #[inline]
    fn value(self) -> Dd {
        Dd::sum(self.sum, self.tail)
    }
}

/// Multiplication by 2^k, exact unless the result is subnormal, so that the
/// largest magnitude of a sample lands in [1, 2).
#[derive(Debug, Clone, Copy)]
struct Scale {
    first: f64,
    second: f64,
}

impl Scale {
    /// The scale of a sample with a non-zero value.
    fn of<F: Float>(v: &[F]) -> Self {
        let max = v.iter().fold(0.0_f64, |m, &a| m.max(to_f64(a).abs()));
        let k = -exponent(max);
        // 2^k for k ∈ [−1023, 1074] in at most two factors of 2^[−1022, 1023].
        let first = k.clamp(-1022, 1023);
        Self {
            first: pow2(first),
            second: pow2(k - first),
        }
    }

    #[inline]
    fn apply(self, v: f64) -> f64 {
        v * self.first * self.second
    }
}

/// e with 2^e ≤ v < 2^(e+1) for finite v > 0 (subnormals included).
fn exponent(v: f64) -> i32 {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // Subnormal: v = m·2⁻¹⁰⁷⁴ with the top set bit of m at 63 − lz.
        let m = bits & ((1 << 52) - 1);
        63 - m.leading_zeros() as i32 - 1074
    } else {
        biased - 1023
    }
}

/// 2^k for k ∈ [−1022, 1023].
fn pow2(k: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    // The hand-worked example (r and t of x = 1..5, y = [5, 6, 7, 8, 7]) is
    // checked beside Spearman's in `pvalue`.

    #[test]
    fn exactly_linear_data_give_exactly_one() {
        let x = [0.0, 1.0, 3.0, 7.0, 8.0, 10.0];
        let y: Vec<f64> = x.iter().map(|v| 3.0 * v - 11.0).collect();
        assert_eq!(pearson(&x, &y).unwrap().r, 1.0);
        let z: Vec<f64> = x.iter().map(|v| 5.0 - 7.0 * v).collect();
        let down = pearson(&x, &z).unwrap();
        assert_eq!(down.r, -1.0);
        assert_eq!(down.statistic, f64::NEG_INFINITY);
        assert_eq!(down.p_value(Alternative::Less), 0.0);
        assert_eq!(down.p_value(Alternative::Greater), 1.0);
        // Means that are not dyadic (1/3, 7/3) do not spoil it.
        assert_eq!(pearson(&[0.0, 0.0, 1.0], &[2.0, 2.0, 3.0]).unwrap().r, 1.0);
    }

    #[test]
    fn uncorrelated_data_leave_only_a_double_word_residue() {
        // x̄ = 2, ȳ = 2/3 (not a double): Σdx·dy = −1/3 + 0 + 1/3 = 0 exactly,
        // the computed value is zero to about 2⁻¹⁰⁶ (a plain double
        // computation leaves about 1e-17).
        let r = pearson(&[1.0, 2.0, 3.0], &[1.0, 0.0, 1.0]).unwrap();
        assert!(r.r.abs() < 1e-30, "{}", r.r);
    }

    #[test]
    fn extreme_scales() {
        let x = [1.0, 2.0, 4.0, 3.0];
        let y = [1.0, 3.0, 2.0, 5.0];
        let base = pearson(&x, &y).unwrap().r;
        for (sx, sy) in [
            (1e300, 1e-300),
            (1e-300, 1e300),
            (1e-310, 1e307),
            (5e-324, 1.0),
        ] {
            let xs: Vec<f64> = x.iter().map(|v| v * sx).collect();
            let ys: Vec<f64> = y.iter().map(|v| v * sy).collect();
            let r = pearson(&xs, &ys).unwrap().r;
            // Scaling by a non-power of two rounds the inputs, so r may move
            // by a few ulp.
            assert_relative_eq!(r, base, max_relative = 1e-15);
        }
        // Values of opposite sign near the overflow threshold.
        let r = pearson(&[-1.7e308, 1.7e308, 0.0], &[1.0, 2.0, 1.5]).unwrap();
        assert_eq!(r.r, 1.0);
        // A tiny value beside a huge one.
        let r = pearson(&[1e300, 1e-300, 0.0], &[1.0, 0.0, 0.0]).unwrap();
        assert_relative_eq!(r.r, 1.0, max_relative = 1e-15);
    }

    #[test]
    fn two_items() {
        let r = pearson(&[1.0, 2.0], &[4.0, 3.0]).unwrap();
        assert_eq!((r.r, r.statistic), (-1.0, f64::NEG_INFINITY));
        assert_eq!(r.p_value(Alternative::TwoSided), 1.0);
        assert_eq!(r.p_value(Alternative::Less), 0.5);
        assert_eq!(r.p_value(Alternative::Greater), 1.0);
        let ci = r.confidence_interval(0.95, Alternative::TwoSided).unwrap();
        assert_eq!((ci.lower, ci.upper), (-1.0, 1.0));
    }

    #[test]
    fn scale_helpers() {
        assert_eq!(exponent(1.0), 0);
        assert_eq!(exponent(1.999), 0);
        assert_eq!(exponent(0.5), -1);
        assert_eq!(exponent(f64::MAX), 1023);
        assert_eq!(exponent(f64::MIN_POSITIVE), -1022);
        assert_eq!(exponent(5e-324), -1074);
        assert_eq!(exponent(3.0 * 5e-324), -1073);
        for v in [5e-324, 1e-310, 1e-300, 0.3, 7.0, 1e300, f64::MAX] {
            let s = Scale::of(&[v, -v / 3.0]).apply(v);
            assert!((1.0..2.0).contains(&s), "{v}: {s}");
        }
    }

    #[test]
    fn confidence_interval_levels() {
        let r = pearson(
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[2.0, 1.0, 4.0, 3.0, 7.0, 5.0],
        )
        .unwrap();
        for bad in [0.0, 1.0, -0.5, f64::NAN] {
            assert_eq!(
                r.confidence_interval(bad, Alternative::TwoSided),
                Err(CorrelationError::InvalidParameter {
                    name: "level",
                    expected: "a confidence level strictly between 0 and 1"
                })
            );
        }
        let two = r.confidence_interval(0.9, Alternative::TwoSided).unwrap();
        let up = r.confidence_interval(0.95, Alternative::Greater).unwrap();
        let down = r.confidence_interval(0.95, Alternative::Less).unwrap();
        // A one-sided 95 % bound is the two-sided 90 % one.
        assert_relative_eq!(two.lower, up.lower, max_relative = 1e-14);
        assert_relative_eq!(two.upper, down.upper, max_relative = 1e-14);
        assert_eq!((up.upper, down.lower), (1.0, -1.0));
        // r = 1: the interval is the point 1.
        let one = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 6.0, 8.0, 10.0]).unwrap();
        let ci = one
            .confidence_interval(0.95, Alternative::TwoSided)
            .unwrap();
        assert_eq!((ci.lower, ci.upper), (1.0, 1.0));
    }

    #[test]
    fn errors_say_what_and_where() {
        crate::correlation::assert_input_errors(|x, y| pearson(x, y).map(|_| ()));
        assert_eq!(
            pearson::<f32>(&[], &[]),
            Err(CorrelationError::TooFewItems { needed: 2, got: 0 })
        );
    }
}
