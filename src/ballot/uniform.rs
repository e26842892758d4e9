//! The uniform baseline of §2.4: one ballot over all items, every item shown
//! (almost) the same number of times, with the budget of an adaptive
//! configuration — the comparison the paper's Table 2 makes.

use rand::Rng;
use rand::seq::SliceRandom;

use super::config::{BallotConfig, check_limit};
use super::error::{BallotError, Result};
use super::pairing::{Comparison, matchings_into};
use super::plan::plan;

/// How the uniform baseline matches the adaptive budget.
///
/// ```text
/// SameComparisons (paper §2.4):    N_comp = the adaptive Σ_k ⌈M·N⁽ᵏ⁾/2⌉;
///                                  Mᵢ ∈ {⌊2N_comp/N⌋, ⌊2N_comp/N⌋ + 1}
/// RoundedAppearances (published):  Mᵢ = round(M·(1 − αⁿᵇ)/(1 − α)) for all i;
///                                  N_comp = ⌈N·Mᵢ/2⌉
/// ```
///
/// The paper asks for Mᵢ = 2N_comp/N for every item with the same N_comp,
/// which is an integer only by chance; `SameComparisons` keeps N_comp exact
/// and lets appearances differ by at most one. The published code rounds the
/// continuous Eq. 3 instead (published-code departure 5: 40 appearances, 19 800
/// comparisons against 19 660 adaptive for N = 990, M = 20, α = 0.5, n_b = 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UniformBudget {
    /// Exactly the adaptive number of comparisons (the paper).
    #[default]
    SameComparisons,
    /// Every item round(M·(1 − αⁿᵇ)/(1 − α)) times (the published code).
    RoundedAppearances,
}

/// The size of a uniform baseline.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{uniform_plan, BallotConfig, UniformBudget};
/// let c = BallotConfig::new(990, 20, 0.5, 7)?;
/// let p = uniform_plan(&c, UniformBudget::SameComparisons)?;
/// // 2 · 19 660 = 39 320 = 990 · 39 + 710
/// assert_eq!((p.comparisons, p.appearances, p.items_with_extra), (19_660, 39, 710));
/// let p = uniform_plan(&c, UniformBudget::RoundedAppearances)?;
/// assert_eq!((p.comparisons, p.appearances, p.items_with_extra), (19_800, 40, 0));
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct UniformPlan {
    /// The number of comparisons N_comp.
    pub comparisons: u64,
    /// The appearances of most items.
    pub appearances: usize,
    /// How many items appear once more.
    pub items_with_extra: usize,
}

/// Sizes the uniform baseline for an adaptive configuration.
///
/// ```text
/// SameComparisons:    C = N_comp(adaptive),  m = ⌊2C/N⌋,  e = 2C − N·m
/// RoundedAppearances: m = round(M(1 − αⁿᵇ)/(1 − α)),  C = ⌈N·m/2⌉,  e = 2C − N·m
/// ```
/// (e items appear m + 1 times, the others m times.)
///
/// # Errors
/// [`BallotError::TooLarge`] for more than
/// [`BallotConfig::MAX_COMPARISONS`] comparisons; [`BallotError::Overflow`]
/// when a count exceeds 64 bits.
///
/// # Complexity
/// O(n_b).
///
/// Reference: Lombardo et al. (2020) §2.4 and Eq. 4; published-code departure 5.
pub fn uniform_plan(config: &BallotConfig, budget: UniformBudget) -> Result<UniformPlan> {
    let n = config.n_items() as u64;
    let overflow = BallotError::Overflow {
        what: "the uniform ballot",
    };
    let (comparisons, m) = match budget {
        UniformBudget::SameComparisons => {
            let c = plan(config).total_comparisons;
            (c, c.checked_mul(2).ok_or(overflow)? / n)
        }
        UniformBudget::RoundedAppearances => {
            let a = config.alpha();
            let ratio = (1.0 - a.powi(config.n_ballots() as i32)) / (1.0 - a);
            let m = config.options().rounding().round(config.m() as f64 * ratio);
            if !(m.is_finite() && m >= 1.0 && m < u64::MAX as f64) {
                return Err(overflow);
            }
            let m = m as u64;
            (n.checked_mul(m).ok_or(overflow)?.div_ceil(2), m)
        }
    };
    check_limit("comparisons", comparisons, BallotConfig::MAX_COMPARISONS)?;
    Ok(UniformPlan {
        comparisons,
        appearances: usize::try_from(m).map_err(|_| overflow)?,
        items_with_extra: (2 * comparisons - n * m) as usize,
    })
}

/// Draws the comparisons of a uniform ballot over items 0..n: `appearances`
/// random perfect matchings, then one partial matching over random items
/// (those not already seen once more) to reach the exact count.
pub(crate) fn uniform_comparisons<R: Rng + ?Sized>(
    n_items: usize,
    plan: &UniformPlan,
    rng: &mut R,
    out: &mut Vec<Comparison>,
) {
    let items: Vec<usize> = (0..n_items).collect();
    out.reserve(plan.comparisons as usize);
    matchings_into(&items, plan.appearances, rng, out);
    let remaining = (plan.comparisons as usize).saturating_sub(out.len());
    if remaining == 0 {
        return;
    }
    let mut counts = vec![0usize; n_items];
    for c in out.iter() {
        counts[c.first] += 1;
        counts[c.second] += 1;
    }
    let mut candidates: Vec<usize> = items
        .into_iter()
        .filter(|&i| counts[i] == plan.appearances)
        .collect();
    let (chosen, _) = candidates.partial_shuffle(rng, 2 * remaining);
    out.extend(chosen.chunks_exact(2).map(|p| Comparison {
        first: p[0],
        second: p[1],
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ballot::config::Options;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn published_uniform_numbers() {
        // published-code departure 5: round(20·(1 − 2⁻⁷)/0.5) = round(39.6875) = 40
        // appearances, 990·40/2 = 19 800 comparisons.
        let c = BallotConfig::with_options(990, 20, 0.5, 7, Options::published()).unwrap();
        let p = uniform_plan(&c, UniformBudget::RoundedAppearances).unwrap();
        assert_eq!(p.appearances, 40);
        assert_eq!(p.comparisons, 19_800);
        assert_eq!(p.items_with_extra, 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn uniform_ballot_meets_its_plan(n in 2usize..80, m in 1usize..6, alpha in 0.3f64..0.9, seed: u64, same in any::<bool>()) {
            let Ok(c) = BallotConfig::new(n, m, alpha, 2) else { return Ok(()) };
            let budget = if same { UniformBudget::SameComparisons } else { UniformBudget::RoundedAppearances };
            let p = uniform_plan(&c, budget).unwrap();
            if same {
                prop_assert_eq!(p.comparisons, plan(&c).total_comparisons);
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut out = Vec::new();
            uniform_comparisons(n, &p, &mut rng, &mut out);
            prop_assert_eq!(out.len() as u64, p.comparisons);
            prop_assert!(out.iter().all(|c| c.first != c.second));
            let mut counts = vec![0usize; n];
            for c in &out {
                counts[c.first] += 1;
                counts[c.second] += 1;
            }
            prop_assert_eq!(counts.iter().filter(|&&k| k == p.appearances + 1).count(), p.items_with_extra);
            prop_assert_eq!(counts.iter().filter(|&&k| k == p.appearances).count(), n - p.items_with_extra);
        }
    }
}
