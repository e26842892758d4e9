//! Wilcoxon's signed-rank test of paired differences, as SciPy's
//! `scipy.stats.wilcoxon` (1.17) computes it.
//!
//! The absolute differences are ranked (average ranks for ties); R⁺ and R⁻
//! sum the ranks of the positive and of the negative differences. Zeros
//! are handled by [`ZeroMethod`]: dropped (`wilcox`), ranked and then left
//! out of the sums (`pratt`), or ranked and split half to each sum
//! (`zsplit`). With c the number of ranked differences, z the number of
//! zeros and tₖ the sizes of the groups of tied ranks:
//!
//! ```text
//! mean = c(c + 1)/4,  4·6·var = c(c + 1)(2c + 1) − Σ (tₖ³ − tₖ)/2
//! pratt: mean −= z(z + 1)/4,  4·6·var −= z(z + 1)(2z + 1), the zeros' group not in Σ
//! normal approximation: Z = (R⁺ − mean)/√var, less ½/√var towards 0 with the continuity correction
//! exact: P(R⁺ ≤ r) from the distribution of Σ_(i=1..c) i·Bᵢ, Bᵢ fair coins
//!        (R⁺ rounded up for "less", down for "greater" when ties made it fractional)
//! permutation: the same with the actual (tied) ranks: the exact distribution of R⁺
//!        over the 2^c sign changes, by dynamic programming over half-rank sums
//! ```
//!
//! `Auto` chooses as SciPy does: the exact distribution for n ≤ 50 without
//! ties or zeros, the permutation distribution for n ≤ 13 otherwise, and
//! the normal approximation beyond. Two-sided p-values are twice the
//! smaller tail, at most 1.

use super::error::CompareError;
use crate::correlation::pvalue::Alternative;
use crate::special::erf::normal_sf;

/// How zero differences enter Wilcoxon's test (SciPy's `zero_method`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ZeroMethod {
    /// Zeros are dropped before ranking (Wilcoxon 1945; SciPy's default).
    #[default]
    Wilcox,
    /// Zeros are ranked, then left out of R⁺ and R⁻ (Pratt 1959).
    Pratt,
    /// Zeros are ranked and half of their ranks go to each of R⁺ and R⁻.
    Zsplit,
}

/// How the p-value of Wilcoxon's test is computed (SciPy's `method`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum WilcoxonMethod {
    /// SciPy's choice: exact for n ≤ 50 without ties or zeros, the
    /// permutation distribution for n ≤ 13 otherwise, else asymptotic.
    #[default]
    Auto,
    /// The exact null distribution of R⁺ without ties (SciPy's `exact`),
    /// for up to [`Wilcoxon::MAX_EXACT`] units.
    Exact,
    /// The normal approximation (SciPy's `asymptotic`).
    Asymptotic,
    /// The exact distribution of R⁺ over all sign changes with the actual
    /// (tied) ranks: what SciPy's `PermutationMethod` enumerates up to 13
    /// units, computed here exactly for up to [`Wilcoxon::MAX_EXACT`].
    Permutation,
}

/// The options of Wilcoxon's signed-rank test, SciPy's defaults by
/// default (`zero_method="wilcox"`, `correction=False`, `method="auto"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Wilcoxon {
    /// How zeros are handled.
    pub zero_method: ZeroMethod,
    /// Whether the normal approximation uses the continuity correction.
    pub correction: bool,
    /// How the p-value is computed.
    pub method: WilcoxonMethod,
}

impl Wilcoxon {
    /// The most units of the exact and permutation distributions (their
    /// cost grows as n³).
    pub const MAX_EXACT: usize = 500;

    /// SciPy's defaults.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets how zeros are handled.
    #[must_use]
    pub fn zero_method(mut self, zero_method: ZeroMethod) -> Self {
        self.zero_method = zero_method;
        self
    }

    /// Sets the continuity correction of the normal approximation.
    #[must_use]
    pub fn correction(mut self, correction: bool) -> Self {
        self.correction = correction;
        self
    }

    /// Sets how the p-value is computed.
    #[must_use]
    pub fn method(mut self, method: WilcoxonMethod) -> Self {
        self.method = method;
        self
    }
}

/// The outcome of a signed-rank test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SignedRank {
    pub(crate) r_plus: f64,
    pub(crate) r_minus: f64,
    /// SciPy's z statistic (−|z| when two-sided), after the correction.
    pub(crate) z: f64,
    pub(crate) p: f64,
    /// The method the p-value came from (never `Auto`).
    pub(crate) method: WilcoxonMethod,
}

/// Wilcoxon's test of differences `d` (finite).
pub(crate) fn signed_rank(
    d: &[f64],
    options: Wilcoxon,
    alternative: Alternative,
) -> Result<SignedRank, CompareError> {
    let n = d.len();
    let zeros = d.iter().filter(|&&x| x == 0.0).count();
    // The ranked values: every difference, or the non-zero ones.
    let ranked: Vec<f64> = match options.zero_method {
        ZeroMethod::Wilcox => d.iter().copied().filter(|&x| x != 0.0).collect(),
        _ => d.to_vec(),
    };
    let c = ranked.len();
    let (ranks, groups) = abs_ranks(&ranked);
    let mut r_plus = 0.0;
    let mut r_minus = 0.0;
    let mut r_zero = 0.0;
    for (&x, &r) in ranked.iter().zip(&ranks) {
        if x > 0.0 {
            r_plus += r;
        } else if x < 0.0 {
            r_minus += r;
        } else {
            r_zero += r;
        }
    }
    if options.zero_method == ZeroMethod::Zsplit {
        r_plus += r_zero / 2.0;
        r_minus += r_zero / 2.0;
    }
    let has_ties = groups.iter().any(|&t| t > 1);
    let cf = c as f64;
    let mut mean = cf * (cf + 1.0) * 0.25;
    let mut var24 = cf * (cf + 1.0) * (2.0 * cf + 1.0);
    let mut tie_groups: &[usize] = &groups;
    if options.zero_method == ZeroMethod::Pratt && zeros > 0 {
        let z = zeros as f64;
        mean -= z * (z + 1.0) * 0.25;
        var24 -= z * (z + 1.0) * (2.0 * z + 1.0);
        // The zeros are the first group of |d| in rank order.
        tie_groups = &groups[1..];
    }
    let tie_correct: f64 = tie_groups
        .iter()
        .map(|&t| {
            let t = t as f64;
            t * (t * t - 1.0)
        })
        .sum();
    let se = ((var24 - tie_correct / 2.0) / 24.0).sqrt();
    let mut z = (r_plus - mean) / se;
    let method = match options.method {
        WilcoxonMethod::Auto if n > 50 => WilcoxonMethod::Asymptotic,
        WilcoxonMethod::Auto if !(has_ties || zeros > 0) => WilcoxonMethod::Exact,
        WilcoxonMethod::Auto if n <= 13 => WilcoxonMethod::Permutation,
        WilcoxonMethod::Auto => WilcoxonMethod::Asymptotic,
        m => m,
    };
    // Every difference 0: nothing speaks against the null, whatever the
    // alternative (SciPy: NaN, or a p-value of the degenerate R⁺).
    let nothing = zeros == n;
    let p = match method {
        _ if nothing => {
            z = 0.0;
            1.0
        }
        WilcoxonMethod::Asymptotic => {
            if options.correction {
                let sign = match alternative {
                    Alternative::Greater => 1.0,
                    Alternative::Less => -1.0,
                    Alternative::TwoSided => crate::correlation::gamma::sgn(z),
                };
                z -= sign * 0.5 / se;
            }
            match alternative {
                Alternative::TwoSided => 2.0 * normal_sf(z.abs()),
                Alternative::Greater => normal_sf(z),
                Alternative::Less => normal_sf(-z),
            }
        }
        WilcoxonMethod::Exact => {
            check_exact(c)?;
            let weights: Vec<usize> = (1..=c).collect();
            let pmf = distribution(&weights);
            let mean = cf * (cf + 1.0) / 4.0;
            let cdf = |k: f64| tail_le(&pmf, k, mean);
            let sf = |k: f64| tail_ge(&pmf, k, mean);
            match alternative {
                Alternative::Less => cdf(r_plus.ceil()),
                Alternative::Greater => sf(r_plus.floor()),
                Alternative::TwoSided => {
                    (2.0 * sf(r_plus.floor()).min(cdf(r_plus.ceil()))).min(1.0)
                }
            }
        }
        WilcoxonMethod::Permutation | WilcoxonMethod::Auto => {
            check_exact(c)?;
            // Twice the ranks are integers; zeros never change sign.
            let weights: Vec<usize> = ranked
                .iter()
                .zip(&ranks)
                .filter(|(x, _)| **x != 0.0)
                .map(|(_, &r)| (2.0 * r) as usize)
                .collect();
            let pmf = distribution(&weights);
            // The observed R⁺ without the constant zsplit share, doubled.
            let shift = if options.zero_method == ZeroMethod::Zsplit {
                r_zero / 2.0
            } else {
                0.0
            };
            let k = 2.0 * (r_plus - shift);
            let less: f64 = pmf.iter().take(k as usize + 1).sum::<f64>();
            let greater: f64 = pmf.iter().skip(k as usize).sum::<f64>();
            match alternative {
                Alternative::Less => less.min(1.0),
                Alternative::Greater => greater.min(1.0),
                Alternative::TwoSided => (2.0 * less.min(greater)).min(1.0),
            }
        }
    };
    if alternative == Alternative::TwoSided && method == WilcoxonMethod::Asymptotic {
        z = -z.abs();
    }
    Ok(SignedRank {
        r_plus,
        r_minus,
        z,
        p,
        method,
    })
}

fn check_exact(c: usize) -> Result<(), CompareError> {
    if c > Wilcoxon::MAX_EXACT {
        return Err(CompareError::NotApplicable {
            what: "the exact signed-rank distribution",
            reason: "it is computed for up to 500 units: use the normal approximation",
        });
    }
    Ok(())
}

/// Average ranks of |x| (1-based) and the sizes of the tie groups in rank
/// order.
pub(crate) fn abs_ranks(x: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].abs().total_cmp(&x[b].abs()));
    let mut ranks = vec![0.0; x.len()];
    let mut groups = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && x[order[j]].abs() == x[order[i]].abs() {
            j += 1;
        }
        // Ranks i + 1 … j: their average.
        let r = (i + 1 + j) as f64 / 2.0;
        for &o in &order[i..j] {
            ranks[o] = r;
        }
        groups.push(j - i);
        i = j;
    }
    (ranks, groups)
}

/// The distribution of Σ wᵢ·Bᵢ for independent fair coins Bᵢ, as
/// probabilities of 0, 1, …, Σ wᵢ (halved at each step, so no count
/// overflows; exact while the counts fit in 53 bits).
pub(crate) fn distribution(weights: &[usize]) -> Vec<f64> {
    let total: usize = weights.iter().sum();
    let mut pmf = vec![0.0; total + 1];
    pmf[0] = 1.0;
    let mut reach = 0;
    for &w in weights {
        reach += w;
        for s in (0..=reach).rev() {
            let from = if s >= w { pmf[s - w] } else { 0.0 };
            pmf[s] = 0.5 * (pmf[s] + from);
        }
    }
    pmf
}

/// P(R ≤ k) as SciPy's `WilcoxonDistribution.cdf`: summed from below up to
/// the mean, else 1 − P(R ≥ k + 1).
fn tail_le(pmf: &[f64], k: f64, mean: f64) -> f64 {
    if k < 0.0 {
        return 0.0;
    }
    if k <= mean {
        pmf.iter().take(k as usize + 1).sum()
    } else {
        1.0 - pmf.iter().skip(k as usize + 1).sum::<f64>()
    }
}

/// P(R ≥ k) as SciPy's `WilcoxonDistribution.sf`.
fn tail_ge(pmf: &[f64], k: f64, mean: f64) -> f64 {
    if k <= mean {
        pmf.iter().skip(k.max(0.0) as usize).sum()
    } else {
        1.0 - pmf.iter().take(k as usize).sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_distribution_counts_subsets() {
        // Ranks 1, 2, 3: sums 0 1 2 3 3 4 5 6 → counts 1 1 1 2 1 1 1.
        let pmf = distribution(&[1, 2, 3]);
        let counts: Vec<f64> = pmf.iter().map(|p| p * 8.0).collect();
        assert_eq!(counts, [1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn small_samples_by_hand() {
        // d = 1, 2, 3, −4 (no ties): R⁺ = 6, R⁻ = 4; P(R⁺ ≥ 6) = 7/16
        // (sums ≥ 6 of subsets of {1,2,3,4}: 6, 7, 7, 8, 9, 10, 10: 7 of 16).
        let t = signed_rank(
            &[1.0, 2.0, 3.0, -4.0],
            Wilcoxon::new(),
            Alternative::Greater,
        )
        .unwrap();
        assert_eq!(
            (t.r_plus, t.r_minus, t.method),
            (6.0, 4.0, WilcoxonMethod::Exact)
        );
        assert_eq!(t.p, 7.0 / 16.0);
        let all_zero = signed_rank(&[0.0; 4], Wilcoxon::new(), Alternative::TwoSided).unwrap();
        assert_eq!(all_zero.p, 1.0);
    }
}
