//! Kendall's general correlation coefficient Γ: the plain O(n²) reference.
//!
//! Kendall (1948) wrote every rank correlation as
//!
//! ```text
//!           Σ_{i,j} a_ij b_ij
//! Γ = ───────────────────────────────        (Lombardo et al. 2020, Eq. 7)
//!     sqrt(Σ_{i,j} a_ij² · Σ_{i,j} b_ij²)
//! ```
//!
//! with `a_ij = a_j − a_i` giving Spearman's ρ, `a_ij = sgn(a_j − a_i)`
//! giving Kendall's τ-b, and `a_ij = sqrt(w_i w_j)·(…)` their top-weighted
//! versions ρ_w and τ_w (Eq. 8). The functions here evaluate that definition
//! literally, in O(n²), with compensated sums. They are slow on purpose:
//! every fast routine of this crate is property-tested against them, and
//! other crates can use them as their correctness baseline.

use crate::correlation::error::{CorrelationError, Result, check_pair_len};
use crate::sum::Neumaier;

/// Kendall's general Γ (Eq. 7) for any pair scores `a(i, j)`, `b(i, j)`,
/// summed over all ordered pairs `i ≠ j` of `n` items.
///
/// ```text
/// Γ = Σ_{i≠j} a_ij b_ij / sqrt(Σ_{i≠j} a_ij² · Σ_{i≠j} b_ij²)
/// ```
///
/// # Errors
/// [`CorrelationError::TooFewItems`] for `n < 2`; [`CorrelationError::NaN`] / [`CorrelationError::Infinite`]
/// when a pair score is not finite (input `"a"` or `"b"`, index `i·n + j`);
/// [`CorrelationError::Undefined`] when `Σ a_ij²` or `Σ b_ij²` is zero, or the sums
/// overflow.
///
/// # Complexity
/// O(n²) time (n(n − 1) calls of each closure), O(1) memory.
///
/// # Examples
/// Spearman's ρ of two rankings as a Γ:
/// ```
/// use adaptive_comp_metrics::correlation::gamma::kendall_gamma;
/// let a = [1.0, 2.0, 3.0, 4.0];
/// let b = [1.0, 3.0, 2.0, 4.0];
/// let rho = kendall_gamma(4, |i, j| a[j] - a[i], |i, j| b[j] - b[i])?;
/// assert!((rho - 0.8).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn kendall_gamma(
    n: usize,
    a: impl Fn(usize, usize) -> f64,
    b: impl Fn(usize, usize) -> f64,
) -> Result<f64> {
    if n < 2 {
        return Err(CorrelationError::TooFewItems { needed: 2, got: n });
    }
    let (mut ab, mut aa, mut bb) = (
        Neumaier::default(),
        Neumaier::default(),
        Neumaier::default(),
    );
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let (x, y) = (a(i, j), b(i, j));
            let index = i * n + j;
            for (input, v) in [("a", x), ("b", y)] {
                if v.is_nan() {
                    return Err(CorrelationError::NaN { input, index });
                }
                if v.is_infinite() {
                    return Err(CorrelationError::Infinite { input, index });
                }
            }
            ab.add(x * y);
            aa.add(x * x);
            bb.add(y * y);
        }
    }
    let (aa, bb) = (aa.value(), bb.value());
    if aa == 0.0 || bb == 0.0 {
        return Err(CorrelationError::Undefined {
            reason: "a sum of squared pair scores is zero",
        });
    }
    let gamma = ab.value() / (aa.sqrt() * bb.sqrt());
    if gamma.is_finite() {
        Ok(gamma.clamp(-1.0, 1.0))
    } else {
        Err(CorrelationError::Undefined {
            reason: "the pair score sums overflow",
        })
    }
}

/// The sign of `d` as −1, 0 or 1 (0 for NaN; unlike [`f64::signum`], 0 for
/// ±0).
pub(crate) fn sgn(d: f64) -> f64 {
    if d > 0.0 {
        1.0
    } else if d < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Validates a pair of rank (or score) vectors and per-item weights for
/// the naive coefficients.
fn check_naive(a: &[f64], b: &[f64], w: &[f64]) -> Result<()> {
    check_pair_len("a", a, "b", b, 2)?;
    check_pair_len("a", a, "weights", w, 2)?;
    crate::correlation::error::check_finite("a", a)?;
    crate::correlation::error::check_finite("b", b)?;
    crate::correlation::error::check_weights(w)
}

/// The weighted Spearman ρ_w of Eq. 8 as a Γ with
/// `a_ij = sqrt(w_i w_j)·(a_j − a_i)`: the O(n²) oracle for
/// [`rho_w`](crate::rho_w). With equal weights it is Spearman's ρ of the
/// given ranks (or Pearson's r of the given values).
///
/// # Errors
/// As [`kendall_gamma`], plus length mismatch, non-finite input and
/// invalid weights ([`CorrelationError::InvalidWeight`], [`CorrelationError::ZeroWeights`]).
///
/// # Complexity
/// O(n²).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::gamma::rho_w_naive;
/// let r = rho_w_naive(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0], &[0.5, 0.3, 0.2])?;
/// assert!((r + 1.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn rho_w_naive(a: &[f64], b: &[f64], w: &[f64]) -> Result<f64> {
    check_naive(a, b, w)?;
    kendall_gamma(
        a.len(),
        |i, j| (w[i] * w[j]).sqrt() * (a[j] - a[i]),
        |i, j| (w[i] * w[j]).sqrt() * (b[j] - b[i]),
    )
}

/// The weighted Kendall τ_w of Eq. 8 as a Γ with
/// `a_ij = sqrt(w_i w_j)·sgn(a_j − a_i)`, so that
///
/// ```text
/// τ_w = Σ_{i≠j} w_i w_j sgn(a_j − a_i) sgn(b_j − b_i)
///       / sqrt(Σ_{i≠j, a_i≠a_j} w_i w_j · Σ_{i≠j, b_i≠b_j} w_i w_j)
/// ```
///
/// (the denominator is `1 − Σ w_i²` for normalised weights without ties).
/// The O(n²) oracle for [`tau_w`](crate::tau_w); with equal weights it is
/// Kendall's τ-b.
///
/// # Errors
/// As [`rho_w_naive`].
///
/// # Complexity
/// O(n²).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::gamma::tau_w_naive;
/// // Unit weights: τ-b of [1, 2, 3] and [1, 3, 2] is (2 − 1)/3.
/// let t = tau_w_naive(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &[1.0; 3])?;
/// assert!((t - 1.0 / 3.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn tau_w_naive(a: &[f64], b: &[f64], w: &[f64]) -> Result<f64> {
    check_naive(a, b, w)?;
    kendall_gamma(
        a.len(),
        |i, j| (w[i] * w[j]).sqrt() * sgn(a[j] - a[i]),
        |i, j| (w[i] * w[j]).sqrt() * sgn(b[j] - b[i]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_and_kendall_by_hand() {
        // a = [1,2,3,4], b = [2,1,4,3]: d² = 1+1+1+1 = 4, ρ = 1 − 6·4/(4·15) = 0.6.
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [2.0, 1.0, 4.0, 3.0];
        let w = [1.0; 4];
        assert!((rho_w_naive(&a, &b, &w).unwrap() - 0.6).abs() < 1e-15);
        // 6 pairs, 2 discordant ((1,2) and (3,4)): τ = (4 − 2)/6.
        assert!((tau_w_naive(&a, &b, &w).unwrap() - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn tau_b_tie_correction_by_hand() {
        // x has one tie: pairs 6, tied in x 1; y no ties.
        // x = [1,1,2,3], y = [1,2,3,4]: concordant 5, discordant 0.
        // τ-b = 5 / sqrt((6 − 1)·6) = 5/sqrt(30).
        let t = tau_w_naive(&[1.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0], &[1.0; 4]).unwrap();
        assert!((t - 5.0 / 30f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn weighted_tau_without_ties_uses_one_minus_sum_of_squares() {
        // w = [0.5, 0.3, 0.2], a = identity, b swaps the last two.
        // Ordered pairs: numerator 2·(w1w2 + w1w3 − w2w3) = 2·(0.15 + 0.10 − 0.06) = 0.38.
        // Z = Σ_{i≠j} w_i w_j = 1 − (0.25 + 0.09 + 0.04) = 0.62.
        let t = tau_w_naive(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &[0.5, 0.3, 0.2]).unwrap();
        assert!((t - 0.38 / 0.62).abs() < 1e-15);
    }

    #[test]
    fn bad_input_is_reported() {
        assert_eq!(
            kendall_gamma(1, |_, _| 1.0, |_, _| 1.0),
            Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
        );
        assert_eq!(
            kendall_gamma(2, |_, _| f64::NAN, |_, _| 1.0),
            Err(CorrelationError::NaN {
                input: "a",
                index: 1
            })
        );
        assert_eq!(
            kendall_gamma(2, |_, _| 1.0, |_, _| f64::INFINITY),
            Err(CorrelationError::Infinite {
                input: "b",
                index: 1
            })
        );
        assert!(matches!(
            kendall_gamma(3, |_, _| 0.0, |_, _| 1.0),
            Err(CorrelationError::Undefined { .. })
        ));
        assert!(matches!(
            tau_w_naive(&[1.0, 2.0], &[1.0, 2.0], &[1.0]),
            Err(CorrelationError::LengthMismatch { .. })
        ));
        assert_eq!(
            tau_w_naive(&[1.0, 2.0], &[1.0, 2.0], &[0.0, 0.0]),
            Err(CorrelationError::ZeroWeights)
        );
    }
}
