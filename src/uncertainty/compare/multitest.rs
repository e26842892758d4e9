//! Multiple-testing corrections: adjusted p-values and reject decisions,
//! the methods and the arithmetic of `statsmodels.stats.multitest.multipletests`
//! (which R's `p.adjust` shares for the methods both have).
//!
//! With the m p-values sorted, p₍₁₎ ≤ … ≤ p₍ₘ₎ (a stable sort), and
//! `cummax`/`cummin` running from the smallest p-value / from the largest:
//!
//! | method | adjusted p₍ᵢ₎ | reject |
//! |---|---|---|
//! | Bonferroni | m·p₍ᵢ₎ | p ≤ α/m |
//! | Šidák | 1 − (1 − p₍ᵢ₎)^m | p ≤ 1 − (1 − α)^(1/m) |
//! | Holm (step-down) | cummax (m − i + 1)·p₍ᵢ₎ | until the first p₍ᵢ₎ > α/(m − i + 1) |
//! | Holm–Šidák | cummax 1 − (1 − p₍ᵢ₎)^(m − i + 1) | until the first p₍ᵢ₎ > 1 − (1 − α)^(1/(m − i + 1)) |
//! | Hochberg (step-up) | cummin (m − i + 1)·p₍ᵢ₎ | up to the last p₍ᵢ₎ ≤ α/(m − i + 1) |
//! | Hommel | the closed Simes procedure (R's and statsmodels' algorithm) | adjusted ≤ α |
//! | Benjamini–Hochberg | cummin p₍ᵢ₎/(i/m) | up to the last p₍ᵢ₎ ≤ (i/m)·α |
//! | Benjamini–Yekutieli | cummin p₍ᵢ₎/((i/m)/c_m), c_m = Σ_(j≤m) 1/j | up to the last p₍ᵢ₎ ≤ (i/m)/c_m·α |
//! | two-stage BH / BKY | BH at α′, then at α′·m/m₀ with m₀ the non-rejected | statsmodels' `fdrcorrection_twostage` |
//! | Gavrilov–Benjamini–Sarkar | cummin cummax (m + 1 − i)/i·p/(1 − p) | adjusted ≤ α |
//!
//! Adjusted values are capped at 1. As in statsmodels, the decisions of
//! the step-wise methods come from the raw p-values and the thresholds (not
//! from comparing adjusted values with α), so that a p-value exactly at a
//! threshold is decided the same way.

use super::error::CompareError;

/// A multiple-testing correction. The names in parentheses are those
/// `statsmodels.stats.multitest.multipletests` accepts ([`Correction::from_name`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Correction {
    /// No correction: adjusted p-values are the raw ones, rejected at p ≤ α.
    None,
    /// Bonferroni's one-step correction (`bonferroni`, `b`).
    Bonferroni,
    /// Šidák's one-step correction (`sidak`, `s`).
    Sidak,
    /// Holm's step-down procedure with Šidák's thresholds (`holm-sidak`,
    /// `hs`; statsmodels' default).
    HolmSidak,
    /// Holm's step-down procedure (`holm`, `h`; Holm 1979). The default:
    /// it controls the family-wise error rate under any dependence.
    #[default]
    Holm,
    /// Hochberg's step-up procedure (`simes-hochberg`, `sh`; Hochberg 1988).
    Hochberg,
    /// Hommel's closed Simes procedure (`hommel`, `ho`; Hommel 1988).
    Hommel,
    /// Benjamini and Hochberg's false discovery rate (`fdr_bh`; 1995).
    BenjaminiHochberg,
    /// Benjamini and Yekutieli's false discovery rate under any dependence
    /// (`fdr_by`; 2001).
    BenjaminiYekutieli,
    /// The two-stage Benjamini–Hochberg procedure (`fdr_tsbh`), with at
    /// most this many iterations of the second stage (statsmodels' `maxiter`;
    /// 1 is the two-stage method).
    TwoStageBh {
        /// Iterations of the second stage, ≥ 0.
        max_iterations: usize,
    },
    /// The two-stage procedure of Benjamini, Krieger and Yekutieli 2006
    /// (`fdr_tsbky`), with at most this many iterations.
    TwoStageBky {
        /// Iterations of the second stage, ≥ 0.
        max_iterations: usize,
    },
    /// The adaptive step-down procedure of Gavrilov, Benjamini and Sarkar
    /// 2009 (`fdr_gbs`).
    Gbs,
}

impl Correction {
    /// The correction named as `multipletests`' `method` argument names it
    /// (case-insensitive, every alias), or `"none"`; two-stage methods get
    /// `max_iterations` 1, statsmodels' default.
    ///
    /// # Errors
    /// [`CompareError::UnknownCorrection`] for any other name, with the
    /// names known.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::compare::Correction;
    /// assert_eq!(Correction::from_name("fdr_bh")?, Correction::BenjaminiHochberg);
    /// assert_eq!(Correction::from_name("HS")?, Correction::HolmSidak);
    /// assert!(Correction::from_name("lfdr").is_err());
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
    /// ```
    pub fn from_name(name: &str) -> Result<Self, CompareError> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "none" => Self::None,
            "b" | "bonf" | "bonferroni" => Self::Bonferroni,
            "s" | "sidak" => Self::Sidak,
            "hs" | "holm-sidak" => Self::HolmSidak,
            "h" | "holm" => Self::Holm,
            "sh" | "simes-hochberg" | "hochberg" => Self::Hochberg,
            "ho" | "hommel" => Self::Hommel,
            "fdr_bh" | "fdr_i" | "fdr_p" | "fdri" | "fdrp" | "bh" => Self::BenjaminiHochberg,
            "fdr_by" | "fdr_n" | "fdr_c" | "fdrn" | "fdrcorr" | "by" => Self::BenjaminiYekutieli,
            "fdr_tsbh" | "fdr_2sbh" => Self::TwoStageBh { max_iterations: 1 },
            "fdr_tsbky" | "fdr_2sbky" | "fdr_twostage" => Self::TwoStageBky { max_iterations: 1 },
            "fdr_gbs" => Self::Gbs,
            _ => {
                return Err(CompareError::UnknownCorrection {
                    name: name.chars().take(40).collect(),
                });
            }
        })
    }

    /// The short name: `none`, `bonferroni`, `sidak`, `holm-sidak`, `holm`,
    /// `hochberg`, `hommel`, `fdr_bh`, `fdr_by`, `fdr_tsbh`, `fdr_tsbky`,
    /// `fdr_gbs`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Bonferroni => "bonferroni",
            Self::Sidak => "sidak",
            Self::HolmSidak => "holm-sidak",
            Self::Holm => "holm",
            Self::Hochberg => "hochberg",
            Self::Hommel => "hommel",
            Self::BenjaminiHochberg => "fdr_bh",
            Self::BenjaminiYekutieli => "fdr_by",
            Self::TwoStageBh { .. } => "fdr_tsbh",
            Self::TwoStageBky { .. } => "fdr_tsbky",
            Self::Gbs => "fdr_gbs",
        }
    }

    /// The names [`from_name`](Self::from_name) knows, for messages.
    pub const NAMES: &'static str = "none, bonferroni, sidak, holm-sidak, holm, hochberg \
                                     (simes-hochberg), hommel, fdr_bh, fdr_by, fdr_tsbh, \
                                     fdr_tsbky, fdr_gbs";
}

impl core::fmt::Display for Correction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Adjusted p-values and decisions, in the order of the p-values given:
/// what `multipletests` returns.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Adjusted {
    /// Whether each hypothesis is rejected at α.
    pub reject: Vec<bool>,
    /// The adjusted p-values, in [0, 1].
    pub p_values: Vec<f64>,
    /// Šidák's per-test level 1 − (1 − α)^(1/m) (NaN for no test).
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub alpha_sidak: f64,
    /// Bonferroni's per-test level α/m (NaN for no test).
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub alpha_bonferroni: f64,
    /// The correction.
    pub correction: Correction,
    /// α.
    pub alpha: f64,
}

/// Adjusts `p_values` for multiple testing and decides at `alpha`, as
/// `statsmodels.stats.multitest.multipletests(p_values, alpha, method)`.
///
/// # Errors
/// [`CompareError::InvalidAlpha`] unless 0 < α < 1;
/// [`CompareError::InvalidPValue`] for a p-value that is NaN or outside
/// [0, 1].
///
/// # Complexity
/// O(m log m) for m p-values; O(m²) for Hommel's method (as in R and
/// statsmodels).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::compare::{adjust, Correction};
/// let a = adjust(&[0.01, 0.04, 0.03, 0.005], Correction::Holm, 0.05)?;
/// // Sorted: 0.005·4, 0.01·3, 0.03·2, 0.04·1 (running maximum).
/// assert_eq!(a.p_values, [0.03, 0.06, 0.06, 0.02]);
/// assert_eq!(a.reject, [true, false, false, true]);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
/// ```
///
/// # References
/// S. Holm (1979), *Scand. J. Statist.* 6, 65–70; Y. Hochberg (1988),
/// *Biometrika* 75, 800–802; G. Hommel (1988), *Biometrika* 75, 383–386;
/// Y. Benjamini, Y. Hochberg (1995), *JRSS B* 57, 289–300; Y. Benjamini,
/// D. Yekutieli (2001), *Ann. Statist.* 29, 1165–1188; Y. Benjamini, A. M.
/// Krieger, D. Yekutieli (2006), *Biometrika* 93, 491–507; statsmodels'
/// `multipletests` and R's `p.adjust`.
pub fn adjust(
    p_values: &[f64],
    correction: Correction,
    alpha: f64,
) -> Result<Adjusted, CompareError> {
    check_alpha(alpha)?;
    if let Some(index) = p_values.iter().position(|p| !(0.0..=1.0).contains(p)) {
        return Err(CompareError::InvalidPValue {
            index,
            value: p_values[index],
        });
    }
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let p: Vec<f64> = order.iter().map(|&i| p_values[i]).collect();
    let (reject, mut adjusted) = sorted(&p, correction, alpha);
    for a in &mut adjusted {
        *a = a.min(1.0);
    }
    let mut out_reject = vec![false; m];
    let mut out_p = vec![0.0; m];
    for (k, &i) in order.iter().enumerate() {
        out_reject[i] = reject[k];
        out_p[i] = adjusted[k];
    }
    let (alpha_sidak, alpha_bonferroni) = if m > 0 {
        (1.0 - (1.0 - alpha).powf(1.0 / m as f64), alpha / m as f64)
    } else {
        (f64::NAN, f64::NAN)
    };
    Ok(Adjusted {
        reject: out_reject,
        p_values: out_p,
        alpha_sidak,
        alpha_bonferroni,
        correction,
        alpha,
    })
}

/// Checks 0 < α < 1.
pub(crate) fn check_alpha(alpha: f64) -> Result<(), CompareError> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(CompareError::InvalidAlpha { alpha })
    }
}

/// `m, m − 1, …, 1` as floats: the number of hypotheses left at each step.
fn left(m: usize) -> impl Iterator<Item = f64> {
    (1..=m).rev().map(|j| j as f64)
}

/// Step-down decisions: reject until the first p-value above its threshold.
fn step_down(p: &[f64], threshold: impl Iterator<Item = f64>) -> Vec<bool> {
    let first = p
        .iter()
        .zip(threshold)
        .position(|(&p, t)| p > t)
        .unwrap_or(p.len());
    (0..p.len()).map(|i| i < first).collect()
}

/// Step-up decisions: reject up to the last p-value at or below its threshold.
fn step_up(p: &[f64], threshold: impl Iterator<Item = f64>) -> Vec<bool> {
    let last = p
        .iter()
        .zip(threshold)
        .enumerate()
        .filter(|(_, (p, t))| *p <= t)
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(0);
    (0..p.len()).map(|i| i < last).collect()
}

fn cummax(v: &mut [f64]) {
    for i in 1..v.len() {
        v[i] = v[i].max(v[i - 1]);
    }
}

fn cummin_from_end(v: &mut [f64]) {
    for i in (0..v.len().saturating_sub(1)).rev() {
        v[i] = v[i].min(v[i + 1]);
    }
}

/// Decisions and adjusted values (not capped) of sorted p-values.
fn sorted(p: &[f64], correction: Correction, alpha: f64) -> (Vec<bool>, Vec<f64>) {
    let m = p.len();
    let mf = m as f64;
    match correction {
        Correction::None => (p.iter().map(|&p| p <= alpha).collect(), p.to_vec()),
        Correction::Bonferroni => {
            let level = alpha / mf;
            (
                p.iter().map(|&p| p <= level).collect(),
                p.iter().map(|&p| p * mf).collect(),
            )
        }
        Correction::Sidak => {
            let level = 1.0 - (1.0 - alpha).powf(1.0 / mf);
            (
                p.iter().map(|&p| p <= level).collect(),
                p.iter().map(|&p| -(mf * (-p).ln_1p()).exp_m1()).collect(),
            )
        }
        Correction::HolmSidak => {
            let reject = step_down(p, left(m).map(|j| 1.0 - (1.0 - alpha).powf(1.0 / j)));
            let mut adj: Vec<f64> = p
                .iter()
                .zip(left(m))
                .map(|(&p, j)| -(j * (-p).ln_1p()).exp_m1())
                .collect();
            cummax(&mut adj);
            (reject, adj)
        }
        Correction::Holm => {
            let reject = step_down(p, left(m).map(|j| alpha / j));
            let mut adj: Vec<f64> = p.iter().zip(left(m)).map(|(&p, j)| p * j).collect();
            cummax(&mut adj);
            (reject, adj)
        }
        Correction::Hochberg => {
            let reject = step_up(p, left(m).map(|j| alpha / j));
            let mut adj: Vec<f64> = p.iter().zip(left(m)).map(|(&p, j)| j * p).collect();
            cummin_from_end(&mut adj);
            (reject, adj)
        }
        Correction::Hommel => {
            let adj = hommel(p);
            (adj.iter().map(|&a| a <= alpha).collect(), adj)
        }
        Correction::BenjaminiHochberg => fdr(p, alpha, 1.0),
        Correction::BenjaminiYekutieli => {
            let cm = harmonic(m);
            fdr(p, alpha, cm)
        }
        Correction::TwoStageBh { max_iterations } => two_stage(p, alpha, false, max_iterations),
        Correction::TwoStageBky { max_iterations } => two_stage(p, alpha, true, max_iterations),
        Correction::Gbs => {
            let mut q: Vec<f64> = p
                .iter()
                .enumerate()
                .map(|(i, &p)| {
                    let i = (i + 1) as f64;
                    (mf + 1.0 - i) / i * p / (1.0 - p)
                })
                .collect();
            cummax(&mut q);
            cummin_from_end(&mut q);
            (q.iter().map(|&a| a <= alpha).collect(), q)
        }
    }
}

/// Σ_(j≤m) 1/j, summed as NumPy's pairwise sum does for short arrays
/// (in order below 8 terms; the difference elsewhere is a few ulp).
fn harmonic(m: usize) -> f64 {
    crate::sum::neumaier((1..=m).map(|j| 1.0 / j as f64))
}

/// Benjamini–Hochberg with the factor ecdf_i = (i/m)/c (c = 1 for BH,
/// c_m for BY), as statsmodels' `fdrcorrection`.
fn fdr(p: &[f64], alpha: f64, c: f64) -> (Vec<bool>, Vec<f64>) {
    let mf = p.len() as f64;
    let ecdf = |i: usize| (i + 1) as f64 / mf / c;
    let reject = step_up(p, (0..p.len()).map(|i| ecdf(i) * alpha));
    let mut adj: Vec<f64> = p.iter().enumerate().map(|(i, &p)| p / ecdf(i)).collect();
    cummin_from_end(&mut adj);
    for a in &mut adj {
        *a = a.min(1.0);
    }
    (reject, adj)
}

/// statsmodels' `fdrcorrection_twostage` on sorted p-values.
fn two_stage(p: &[f64], alpha: f64, bky: bool, max_iterations: usize) -> (Vec<bool>, Vec<f64>) {
    let m = p.len();
    let mf = m as f64;
    let fact = if bky { 1.0 + alpha } else { 1.0 };
    let alpha_prime = alpha / fact;
    let (mut reject, mut adj) = fdr(p, alpha_prime, 1.0);
    let r1 = reject.iter().filter(|&&r| r).count();
    if r1 == 0 || r1 == m {
        for a in &mut adj {
            *a *= fact;
        }
        return (reject, adj);
    }
    let mut ri_old = r1;
    let mut m0 = mf;
    for it in 0..max_iterations {
        m0 = mf - ri_old as f64;
        let alpha_star = alpha_prime * mf / m0;
        (reject, adj) = fdr(p, alpha_star, 1.0);
        let ri = reject.iter().filter(|&&r| r).count();
        if it + 1 >= max_iterations || ri == ri_old {
            break;
        }
        ri_old = ri;
    }
    for a in &mut adj {
        *a *= m0 / mf;
        if bky {
            *a *= 1.0 + alpha;
        }
    }
    (reject, adj)
}

/// Hommel's adjusted p-values of sorted p-values, by statsmodels' loop
/// (the algorithm of R's `p.adjust`).
fn hommel(p: &[f64]) -> Vec<f64> {
    let n = p.len();
    let mut a = p.to_vec();
    for m in (2..=n).rev() {
        let mf = m as f64;
        let tail = &p[n - m..];
        let cim = tail
            .iter()
            .enumerate()
            .map(|(j, &p)| mf * p / (j + 1) as f64)
            .fold(f64::INFINITY, f64::min);
        for v in &mut a[n - m..] {
            *v = v.max(cim);
        }
        for (v, &p) in a[..n - m].iter_mut().zip(&p[..n - m]) {
            *v = v.max((mf * p).min(cim));
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        let p = [0.01, 0.04, 0.03, 0.005];
        let a = adjust(&p, Correction::Bonferroni, 0.05).unwrap();
        assert_eq!(a.p_values, [0.04, 0.16, 0.12, 0.02]);
        assert_eq!(a.reject, [true, false, false, true]);
        assert_eq!(a.alpha_bonferroni, 0.0125);
        // Hochberg: sorted 0.005, 0.01, 0.03, 0.04 × 4, 3, 2, 1 → 0.02,
        // 0.03, 0.06, 0.04 → running minimum from the end: 0.02, 0.03, 0.04, 0.04.
        let a = adjust(&p, Correction::Hochberg, 0.05).unwrap();
        assert_eq!(a.p_values, [0.03, 0.04, 0.04, 0.02]);
        assert_eq!(a.reject, [true, true, true, true]);
        // BH: p/(i/4) = 0.02, 0.02, 0.04, 0.04.
        let a = adjust(&p, Correction::BenjaminiHochberg, 0.05).unwrap();
        assert_eq!(a.p_values, [0.02, 0.04, 0.04, 0.02]);
        let a = adjust(&[], Correction::Holm, 0.05).unwrap();
        assert!(a.p_values.is_empty() && a.alpha_sidak.is_nan());
        assert!(adjust(&[0.5, f64::NAN], Correction::Holm, 0.05).is_err());
        assert!(adjust(&[1.5], Correction::Holm, 0.05).is_err());
        assert!(adjust(&[0.5], Correction::Holm, 1.0).is_err());
    }
}
