//! Significance of correlations: the alternative hypothesis and the null
//! distributions behind the p-values of [`pearson`](super::pearson::pearson),
//! [`spearman`](super::spearman::spearman) and
//! [`kendall_tau_b`](super::kendall::kendall_tau_b).
//!
//! ```text
//! Pearson r    r ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1]  (t = r·√((n − 2)/(1 − r²)) ~ Student t, n − 2 df)
//! Spearman ρ   t = ρ·√((n − 2)/((1 + ρ)(1 − ρ)))  ~ Student t, n − 2 df
//! Kendall τ-b  exact: C ~ Mahonian (inversions of a random permutation), no ties
//!              asymptotic: z = (C − D)/√Var(C − D) ~ N(0, 1), tie-corrected
//! ```
//!
//! The p-values follow `scipy.stats.pearsonr`, `scipy.stats.spearmanr` and
//! `scipy.stats.kendalltau` (SciPy 1.17) so results can be compared digit for
//! digit.
//!
//! # Accuracy
//!
//! Every tail is computed in the crate to within a few ulp of its exact
//! value at the given statistic, far tails included. Measured against mpmath
//! at 50 significant digits (checked at 80, and for df ≤ 3000 against the
//! closed-form finite sums of Abramowitz & Stegun 26.7.3–4):
//!
//! | tail | inputs | worst relative error |
//! |---|---|---|
//! | Student t (Spearman) | 1 852 (t, df), df 1 … 10⁷, p 0.5 … 1e-300 | 2.5e-15 |
//! | Pearson's r | 600 (r, n), n 3 … 10⁶, p 0.5 … 1e-300 | 2.1e-15 |
//! | normal (Kendall, asymptotic) | 192 z, p 1 … 1e-300 | 4.1e-16 |
//! | Mahonian (Kendall, exact) | 379 (n, k), n ≤ 33, and k ≤ 1 up to n = 170 | 1.5e-15 |
//!
//! SciPy 1.17's own tails are up to 2e-13 off there (its t and normal tails
//! round t²/ν or z/√2 before the exponential, its Pearson tail rounds
//! (1 + r)/2), `scipy.stats.t.sf(1e-8, 1)` is 3e-9 off and the Cauchy tail
//! underflows to 0 beyond t = 1e199. A p-value is only as good as its
//! statistic, though: far in the tail a relative error δ in z moves p by
//! about z²·δ, so 1 ulp of z is 1.6e-13 of p at p = 1e-300. Results below
//! about 1e-300 lose relative accuracy gradually (subnormal numbers).

use crate::special::{erf::normal_sf, student};

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
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
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

/// The p-value of a statistic `x` whose null distribution is symmetric
/// about 0, from its survival function `sf` (`P(X > x)`): both tails for
/// [`Alternative::TwoSided`] (at most 1), one for the others.
fn symmetric_p(x: f64, alternative: Alternative, sf: impl Fn(f64) -> f64) -> f64 {
    match alternative {
        Alternative::TwoSided => (2.0 * sf(x.abs())).min(1.0),
        Alternative::Greater => sf(x),
        Alternative::Less => sf(-x),
    }
}

/// The t statistic of a coefficient c of Pearson's or Spearman's kind for
/// `n ≥ 2` pairs, Student t with n − 2 degrees of freedom under the null:
///
/// ```text
/// t = c·√((n − 2)/((1 + c)(1 − c)))
/// ```
/// ±∞ when |c| = 1 (the division by zero gives ±∞, never NaN) and, by
/// convention, for n = 2, where it is formally 0/0.
pub(crate) fn t_statistic(c: f64, n: usize) -> f64 {
    if n < 3 {
        return c.signum() * f64::INFINITY;
    }
    let df = (n - 2) as f64;
    c * (df / ((1.0 + c) * (1.0 - c))).sqrt()
}

/// The p-value of a coefficient of Pearson's or Spearman's kind for `n`
/// pairs: for `n ≥ 3`, `tail(coefficient, n)`; for fewer pairs (no
/// degrees of freedom left, as `scipy.stats` has it) 1 two-sided, and one
/// sided 0.5 when the coefficient lies on the alternative's side, else 1.
pub(crate) fn correlation_p(
    coefficient: f64,
    n: usize,
    alternative: Alternative,
    tail: impl FnOnce(Alternative) -> f64,
) -> f64 {
    if n >= 3 {
        return tail(alternative);
    }
    let on_side = match alternative {
        Alternative::TwoSided => return 1.0,
        Alternative::Greater => coefficient > 0.0,
        Alternative::Less => coefficient < 0.0,
    };
    if on_side { 0.5 } else { 1.0 }
}

/// The p-value of a Student t statistic with `df ≥ 1` degrees of freedom.
///
/// `t` may be ±∞ (a perfect correlation); it must not be NaN. The tail is
/// [`student::student_t_sf`]: within 2.5e-15 relative of mpmath's value
/// for p ≥ 1e-300 and df up to 10⁷.
pub(crate) fn student_t_p(t: f64, df: u64, alternative: Alternative) -> f64 {
    debug_assert!(!t.is_nan() && df >= 1);
    symmetric_p(t, alternative, |x| student::student_t_sf(x, df))
}

/// The p-value of Pearson's r of `n ≥ 3` pairs under independence, from r
/// itself (R ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1], as `scipy.stats.pearsonr`),
/// with the accuracy of [`student_t_p`].
pub(crate) fn pearson_p(r: f64, n: u64, alternative: Alternative) -> f64 {
    debug_assert!(n >= 3 && (-1.0..=1.0).contains(&r));
    symmetric_p(r, alternative, |x| student::pearson_sf(x, n))
}

/// The p-value of a standard normal statistic `z` (not NaN), within a few
/// ulp of the exact tail for p ≥ 1e-300 ([`normal_sf`]).
pub(crate) fn normal_p(z: f64, alternative: Alternative) -> f64 {
    symmetric_p(z, alternative, normal_sf)
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
    fn hand_worked_pearson_and_spearman() {
        use crate::correlation::{pearson::pearson, spearman::spearman};
        let (x, y) = ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 7.0]);
        // Pearson: x̄ = 3, ȳ = 6.6; dx = [−2, −1, 0, 1, 2],
        // dy = [−1.6, −0.6, 0.4, 1.4, 0.4]. Σdx·dy = 3.2 + 0.6 + 0 + 1.4 + 0.8
        // = 6, Σdx² = 10, Σdy² = 2.56 + 0.36 + 0.16 + 1.96 + 0.16 = 5.2,
        // r = 6/√52; t = r·√(3/((1 + r)(1 − r))) = 6/√52 · √(3·52/16) = 6·√3/4.
        let r = pearson(&x, &y).unwrap();
        assert_relative_eq!(r.r, 6.0 / 52f64.sqrt(), max_relative = 1e-15);
        assert_eq!(r.n, 5);
        assert_relative_eq!(r.statistic, 1.5 * 3f64.sqrt(), max_relative = 1e-15);
        // Spearman, with a tie: x ranks [1, 2, 3, 4, 5], y ranks
        // [1, 2, 3.5, 5, 3.5]. Deviations from 3: dx = [−2, −1, 0, 1, 2],
        // dy = [−2, −1, 0.5, 2, 0.5]. Σdx·dy = 4 + 1 + 0 + 2 + 1 = 8,
        // Σdx² = 10, Σdy² = 4 + 1 + 0.25 + 4 + 0.25 = 9.5, ρ = 8/√95;
        // t = 8/√95 · √(3·95/31) = 8·√(3/31).
        let rho = spearman(&x, &y).unwrap();
        assert_relative_eq!(rho.rho, 8.0 / 95f64.sqrt(), max_relative = 1e-15);
        assert_eq!(rho.n, 5);
        let t = 8.0 * (3.0f64 / 31.0).sqrt();
        assert_relative_eq!(rho.statistic, t, max_relative = 1e-14);
    }

    #[test]
    fn t_statistic_is_infinite_at_one_and_for_two_items() {
        // |c| = 1 divides by zero: ±∞, never NaN; n = 2 by convention.
        for (c, n, t) in [
            (1.0, 5, f64::INFINITY),
            (-1.0, 5, f64::NEG_INFINITY),
            (1.0, 2, f64::INFINITY),
            (-1.0, 2, f64::NEG_INFINITY),
            (0.5, 2, f64::INFINITY),
        ] {
            assert_eq!(t_statistic(c, n), t, "c = {c}, n = {n}");
        }
    }

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
        // Far tail, relative accuracy: mpmath ncdf(−10) and ncdf(3) (SciPy's
        // norm.sf(10.0) = 7.61985302416047e-24 is 7e-15 off).
        assert_relative_eq!(
            normal_p(10.0, Alternative::Greater),
            7.619_853_024_160_525e-24,
            max_relative = 3e-16
        );
        assert_relative_eq!(
            normal_p(-3.0, Alternative::Greater),
            0.998_650_101_968_369_9,
            max_relative = 2e-16
        );
        // t with 1 df is Cauchy: P(T ≥ 1) = 1/4.
        assert_relative_eq!(
            student_t_p(1.0, 1, Alternative::Greater),
            0.25,
            max_relative = 1e-14
        );
        assert_relative_eq!(student_t_p(1.0, 1, Alternative::Less), 0.75);
        assert_eq!(student_t_p(f64::INFINITY, 5, Alternative::TwoSided), 0.0);
        // Large df (n = 10⁶ items), mpmath at 50 digits: P(T > 3) =
        // 0.00134993127077738, P(T > 10) = 7.63930542304096e-24 (SciPy's
        // t.sf(10.0, 999998) = 7.639305423040929e-24 is 3.4e-15 off).
        assert_relative_eq!(
            student_t_p(3.0, 999_998, Alternative::Greater),
            0.001_349_931_270_777_377_3,
            max_relative = 1e-15
        );
        assert_relative_eq!(
            student_t_p(10.0, 999_998, Alternative::Greater),
            7.639_305_423_040_956e-24,
            max_relative = 1e-15
        );
        assert_eq!(student_t_p(f64::NEG_INFINITY, 5, Alternative::Less), 0.0);
        assert_eq!(student_t_p(f64::NEG_INFINITY, 5, Alternative::Greater), 1.0);
    }
}
