//! The paired t-test, the Student interval of a mean, and the effect sizes
//! of paired differences.
//!
//! For differences d₁ … dₙ with mean d̄ and sample standard deviation s
//! (n − 1 denominator):
//!
//! ```text
//! t = d̄ / (s/√n),  df = n − 1                       (SciPy's ttest_rel)
//! interval: d̄ ± t_(1−(1−level)/2, df)·s/√n         (one-sided: d̄ − t_(level)·s/√n to ∞, or −∞ to d̄ + …)
//! Cohen's d_z = d̄ / s,  Hedges' g_z = J(df)·d_z,  J(ν) = Γ(ν/2)/(√(ν/2)·Γ((ν − 1)/2))
//! ```
//!
//! Sums are compensated, so d̄ and s are correct to a few ulp whatever n.

use super::dist::student_t_isf;
use crate::correlation::pvalue::Alternative;
use crate::special::student::{gamma_ratio, student_t_sf};
use crate::sum::neumaier;

/// Mean and sample standard deviation (n − 1 denominator; 0 for n = 1).
pub(crate) fn mean_sd(d: &[f64]) -> (f64, f64) {
    let n = d.len() as f64;
    let mean = neumaier(d.iter().copied()) / n;
    if d.len() < 2 {
        return (mean, 0.0);
    }
    let ss = neumaier(d.iter().map(|x| (x - mean) * (x - mean)));
    (mean, (ss / (n - 1.0)).sqrt())
}

/// The outcome of a paired t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TTest {
    pub(crate) t: f64,
    pub(crate) df: u64,
    pub(crate) p: f64,
}

/// The paired t-test of differences `d` (n ≥ 2). When every difference is
/// 0, t = 0 and p = 1 for every alternative (no evidence of a difference;
/// SciPy gives NaN);
/// when they are all equal and not 0, t = ±∞ and p = 0 (two-sided).
pub(crate) fn paired_t(d: &[f64], alternative: Alternative) -> TTest {
    debug_assert!(d.len() >= 2);
    let (mean, sd) = mean_sd(d);
    let df = (d.len() - 1) as u64;
    let se = sd / (d.len() as f64).sqrt();
    if sd == 0.0 && mean == 0.0 {
        // Every difference 0: no evidence either way, whatever the
        // alternative (as the sign-flip distribution says).
        return TTest { t: 0.0, df, p: 1.0 };
    }
    let t = mean / se;
    let p = match alternative {
        Alternative::TwoSided => (2.0 * student_t_sf(t.abs(), df)).min(1.0),
        Alternative::Greater => student_t_sf(t, df),
        Alternative::Less => student_t_sf(-t, df),
    };
    TTest { t, df, p }
}

/// The Student interval of the mean of `x` (n ≥ 2) at `level`, as SciPy's
/// `ttest_1samp(x, 0).confidence_interval(level)` (infinite on the open
/// side of a one-sided alternative).
pub(crate) fn student_interval(x: &[f64], level: f64, alternative: Alternative) -> (f64, f64) {
    debug_assert!(x.len() >= 2);
    let (mean, sd) = mean_sd(x);
    let df = (x.len() - 1) as u64;
    let se = sd / (x.len() as f64).sqrt();
    match alternative {
        Alternative::TwoSided => {
            let t = student_t_isf(0.5 * (1.0 - level), df);
            (mean - t * se, mean + t * se)
        }
        Alternative::Greater => (mean - student_t_isf(1.0 - level, df) * se, f64::INFINITY),
        Alternative::Less => (
            f64::NEG_INFINITY,
            mean + student_t_isf(1.0 - level, df) * se,
        ),
    }
}

/// Cohen's d_z and Hedges' g_z of differences `d`: `None` when undefined
/// (s = 0, or n = 1 for d_z; n < 3 for g_z).
pub(crate) fn effect_sizes(d: &[f64]) -> (Option<f64>, Option<f64>) {
    let (mean, sd) = mean_sd(d);
    if sd == 0.0 || d.len() < 2 {
        return (None, None);
    }
    let dz = mean / sd;
    let nu = d.len() as u64 - 1;
    let gz = (nu >= 2).then(|| hedges_j(nu) * dz);
    (Some(dz), gz)
}

/// Hedges' exact small-sample factor J(ν) = Γ(ν/2)/(√(ν/2)·Γ((ν − 1)/2)),
/// ν ≥ 2 (Hedges 1981).
pub(crate) fn hedges_j(nu: u64) -> f64 {
    debug_assert!(nu >= 2);
    gamma_ratio(nu - 1) / (0.5 * nu as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        // d = 1, 2, 3, 4: mean 2.5, s² = 5/3, t = 2.5/√(5/12) = 3.8729833462.
        let d = [1.0, 2.0, 3.0, 4.0];
        let t = paired_t(&d, Alternative::TwoSided);
        assert!((t.t - 2.5 / (5.0f64 / 12.0).sqrt()).abs() < 1e-14);
        assert_eq!(t.df, 3);
        // Identical systems; constant non-zero differences.
        assert_eq!(paired_t(&[0.0; 5], Alternative::TwoSided).p, 1.0);
        let c = paired_t(&[0.5; 5], Alternative::TwoSided);
        assert_eq!((c.t, c.p), (f64::INFINITY, 0.0));
        // J(2) = Γ(1)/(1·Γ(½)) = 1/√π; the approximation 1 − 3/(4ν − 1) = 0.571.
        assert!((hedges_j(2) - 1.0 / core::f64::consts::PI.sqrt()).abs() < 1e-15);
        assert!((hedges_j(200) - (1.0 - 3.0 / 799.0)).abs() < 1e-5);
        let (dz, gz) = effect_sizes(&d);
        assert!((dz.unwrap() - 2.5 / (5.0f64 / 3.0).sqrt()).abs() < 1e-15);
        assert!((gz.unwrap() - hedges_j(3) * dz.unwrap()).abs() < 1e-15);
        assert_eq!(effect_sizes(&[0.5; 3]), (None, None));
        assert_eq!(effect_sizes(&[0.5, 1.0]).1, None);
    }
}
