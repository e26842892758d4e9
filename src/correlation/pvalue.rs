//! Significance of rank correlations: the alternative hypothesis and the null
//! distributions behind the p-values of [`spearman`](super::spearman::spearman)
//! and [`kendall_tau_b`](super::kendall::kendall_tau_b).
//!
//! ```text
//! Spearman ρ   t = ρ·√((n − 2)/((1 + ρ)(1 − ρ)))  ~ Student t, n − 2 df
//! Kendall τ-b  exact: C ~ Mahonian (inversions of a random permutation), no ties
//!              asymptotic: z = (C − D)/√Var(C − D) ~ N(0, 1), tie-corrected
//! ```
//!
//! The p-values follow `scipy.stats.spearmanr` and `scipy.stats.kendalltau`
//! (SciPy 1.17) so results can be compared digit for digit.

use statrs::distribution::{ContinuousCDF, StudentsT};
use statrs::function::gamma::checked_gamma_ur;

/// The alternative hypothesis of a correlation test; the null hypothesis is
/// independence (no association).
///
/// ```text
/// TwoSided  H₁: ρ ≠ 0   p = P(|T| ≥ |t|)
/// Greater   H₁: ρ > 0   p = P(T ≥ t)      (positive association)
/// Less      H₁: ρ < 0   p = P(T ≤ t)      (negative association)
/// ```
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{spearman, Alternative};
/// let r = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0])?;
/// assert!(r.p_value(Alternative::Greater) < r.p_value(Alternative::TwoSided));
/// assert_eq!(Alternative::default(), Alternative::TwoSided);
/// # Ok::<(), adaptive_comp_metrics::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Alternative {
    /// The correlation differs from zero (either sign).
    #[default]
    TwoSided,
    /// The correlation is positive.
    Greater,
    /// The correlation is negative.
    Less,
}

/// The p-value of a Student t statistic with `df ≥ 1` degrees of freedom.
///
/// `t` may be ±∞ (a perfect correlation); it must not be NaN. Accuracy is
/// that of statrs' regularised incomplete beta: about 1e-14 relative for
/// df ≤ 10⁴, degrading as ln Γ(df/2) grows (about 1e-10 at df = 10⁶, 1e-7 at
/// 10⁸, measured against SciPy), which is immaterial for a p-value.
pub(crate) fn student_t_p(t: f64, df: f64, alternative: Alternative) -> f64 {
    debug_assert!(!t.is_nan() && df >= 1.0);
    // StudentsT::new fails only for df ≤ 0 or NaN, which callers rule out;
    // the normal distribution is the df → ∞ limit and keeps this total.
    let (sf, cdf) = match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) => (dist.sf(t), dist.cdf(t)),
        Err(_) => (normal_sf(t), normal_sf(-t)),
    };
    match alternative {
        Alternative::TwoSided => (2.0 * sf.min(cdf)).min(1.0),
        Alternative::Greater => sf,
        Alternative::Less => cdf,
    }
}

/// `P(Z ≥ z)` for a standard normal Z, to about 1e-15 relative even in the
/// far tail.
///
/// ```text
/// P(Z ≥ |z|) = ½·erfc(|z|/√2) = ½·Q(½, z²/2)
/// ```
/// with Q the regularised upper incomplete gamma function. statrs 0.19's
/// `erfc` (and so its `Normal::sf`) is only good to about 1e-10 relative
/// (e.g. 2·sf(1.959963984540054) = 0.04999999999775 instead of 0.05), too
/// coarse to match SciPy; its incomplete gamma function is good to 1e-15.
fn normal_sf(z: f64) -> f64 {
    // Err only for z²/2 = 0 (Q = 1) or z²/2 = ∞ (Q = 0).
    let upper =
        checked_gamma_ur(0.5, 0.5 * z * z).unwrap_or(if z.is_infinite() { 0.0 } else { 1.0 });
    if z >= 0.0 {
        0.5 * upper
    } else {
        1.0 - 0.5 * upper
    }
}

/// The p-value of a standard normal statistic `z` (not NaN).
pub(crate) fn normal_p(z: f64, alternative: Alternative) -> f64 {
    match alternative {
        Alternative::TwoSided => (2.0 * normal_sf(z.abs())).min(1.0),
        Alternative::Greater => normal_sf(z),
        Alternative::Less => normal_sf(-z),
    }
}

/// `P(C ≤ k)` where C is the number of inversions (equivalently, by
/// symmetry, of concordant pairs) of a uniformly random permutation of `n`
/// items: the Mahonian distribution.
///
/// ```text
/// C = U₁ + U₂ + … + Uₙ,  U_j uniform on {0, …, j − 1}, independent
/// P_j(k) = (1/j) Σ_{i=0}^{min(k, j−1)} P_{j−1}(k − i)
/// ```
///
/// Only the probabilities of 0..=k are carried (the upper tail is reached by
/// symmetry), so the cost is O(n·min(k, N − k)) with N = n(n − 1)/2, and the
/// probabilities are normalised at every step, so nothing overflows however
/// large n is (they may underflow to zero, which is then the correct answer
/// to machine precision).
pub(crate) fn mahonian_cdf(n: u64, k: u64) -> f64 {
    let total = u128::from(n) * u128::from(n.saturating_sub(1)) / 2;
    if u128::from(k) >= total {
        return 1.0;
    }
    // Symmetry P(C ≤ k) = 1 − P(C ≤ N − k − 1) keeps the table short.
    if 2 * u128::from(k) > total {
        let mirrored = (total - u128::from(k) - 1) as u64;
        return 1.0 - mahonian_cdf(n, mirrored);
    }
    let len = k as usize + 1;
    let mut prob = vec![0.0_f64; len];
    let mut next = vec![0.0_f64; len];
    if let Some(p0) = prob.first_mut() {
        *p0 = 1.0; // one item: no inversions
    }
    for j in 2..=n {
        // next[m] = (1/j) Σ_{i < j} prob[m − i]: a sliding window sum.
        let width = j as usize;
        let inv_j = 1.0 / j as f64;
        let mut window = 0.0;
        for m in 0..len {
            window += prob[m];
            if m >= width {
                window -= prob[m - width];
            }
            next[m] = window * inv_j;
        }
        core::mem::swap(&mut prob, &mut next);
    }
    let mut acc = crate::sum::Neumaier::default();
    for &p in &prob {
        acc.add(p);
    }
    acc.value().min(1.0)
}

/// The exact p-value of Kendall's test without ties: `n` items with
/// `concordant` concordant pairs out of N = n(n − 1)/2.
///
/// ```text
/// Greater   P(C ≥ c) = P(C ≤ N − c)
/// Less      P(C ≤ c)
/// TwoSided  min(1, 2·P(C ≤ min(c, N − c)))
/// ```
pub(crate) fn kendall_exact_p(n: u64, concordant: u64, alternative: Alternative) -> f64 {
    let total = (u128::from(n) * u128::from(n.saturating_sub(1)) / 2) as u64;
    let c = concordant.min(total);
    match alternative {
        Alternative::Greater => mahonian_cdf(n, total - c),
        Alternative::Less => mahonian_cdf(n, c),
        Alternative::TwoSided => (2.0 * mahonian_cdf(n, c.min(total - c))).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn mahonian_n4_matches_the_hand_count() {
        // Permutations of 4 items by number of inversions: 1, 3, 5, 6, 5, 3, 1
        // (sum 24 = 4!), so the CDF is 1, 4, 9, 15, 20, 23, 24 over 24.
        let expect = [1.0, 4.0, 9.0, 15.0, 20.0, 23.0, 24.0];
        for (k, e) in expect.iter().enumerate() {
            assert_relative_eq!(mahonian_cdf(4, k as u64), e / 24.0, max_relative = 1e-15);
        }
        assert_eq!(mahonian_cdf(4, 100), 1.0);
    }

    #[test]
    fn mahonian_tails_have_closed_forms() {
        // P(C = 0) = 1/n!, P(C ≤ 1) = 1/(n − 1)!.
        let fact = |m: u64| (1..=m).map(|i| i as f64).product::<f64>();
        for n in [3_u64, 10, 20, 30] {
            assert_relative_eq!(mahonian_cdf(n, 0), 1.0 / fact(n), max_relative = 1e-13);
            assert_relative_eq!(mahonian_cdf(n, 1), 1.0 / fact(n - 1), max_relative = 1e-13);
        }
        // Far beyond 170! the probability underflows to zero instead of overflowing.
        assert_eq!(mahonian_cdf(1000, 0), 0.0);
        assert_eq!(mahonian_cdf(1000, 499_499), 1.0);
    }

    #[test]
    fn kendall_exact_p_n4() {
        // c = 5 of N = 6 concordant: P(C ≥ 5) = P(C ≤ 1) = 4/24.
        assert_relative_eq!(kendall_exact_p(4, 5, Alternative::Greater), 4.0 / 24.0);
        assert_relative_eq!(kendall_exact_p(4, 5, Alternative::TwoSided), 8.0 / 24.0);
        assert_relative_eq!(kendall_exact_p(4, 5, Alternative::Less), 23.0 / 24.0);
        // The middle of the distribution: two-sided p is capped at 1.
        assert_eq!(kendall_exact_p(4, 3, Alternative::TwoSided), 1.0);
        // n = 2: one pair, concordant or not with probability 1/2.
        assert_relative_eq!(kendall_exact_p(2, 1, Alternative::Greater), 0.5);
        assert_relative_eq!(kendall_exact_p(2, 1, Alternative::Less), 1.0);
        assert_relative_eq!(kendall_exact_p(2, 0, Alternative::TwoSided), 1.0);
    }

    #[test]
    fn normal_and_t_p_values() {
        // Φ(−1.959963984540054) = 0.025 (standard normal table).
        assert_relative_eq!(
            normal_p(1.959963984540054, Alternative::TwoSided),
            0.05,
            max_relative = 1e-14
        );
        assert_relative_eq!(normal_p(0.0, Alternative::Greater), 0.5);
        assert_relative_eq!(normal_p(1e-200, Alternative::Less), 0.5);
        assert_eq!(normal_p(f64::INFINITY, Alternative::Greater), 0.0);
        assert_eq!(normal_p(f64::NEG_INFINITY, Alternative::Greater), 1.0);
        // Far tail, relative accuracy: scipy.stats.norm.sf(10.0) and sf(-3.0).
        assert_relative_eq!(
            normal_p(10.0, Alternative::Greater),
            7.61985302416047e-24,
            max_relative = 1e-13
        );
        assert_relative_eq!(
            normal_p(-3.0, Alternative::Greater),
            0.9986501019683699,
            max_relative = 1e-15
        );
        // t with 1 df is Cauchy: P(T ≥ 1) = 1/4.
        assert_relative_eq!(
            student_t_p(1.0, 1.0, Alternative::Greater),
            0.25,
            max_relative = 1e-14
        );
        assert_relative_eq!(student_t_p(1.0, 1.0, Alternative::Less), 0.75);
        assert_eq!(student_t_p(f64::INFINITY, 5.0, Alternative::TwoSided), 0.0);
        // Large df (n = 10⁶ items): scipy.stats.t.sf(3.0, 999998) =
        // 0.0013499312707773755 and t.sf(10.0, 999998) = 7.639305423040929e-24.
        assert_relative_eq!(
            student_t_p(3.0, 999_998.0, Alternative::Greater),
            0.0013499312707773755,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            student_t_p(10.0, 999_998.0, Alternative::Greater),
            7.639305423040929e-24,
            max_relative = 1e-9
        );
        assert_eq!(student_t_p(f64::NEG_INFINITY, 5.0, Alternative::Less), 0.0);
        assert_eq!(
            student_t_p(f64::NEG_INFINITY, 5.0, Alternative::Greater),
            1.0
        );
    }
}
