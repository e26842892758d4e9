//! Ballot sizes (Eq. 2), exact comparison counts (Eq. 3), the parameter
//! heuristics of §2.7 and the cost estimate of Eq. 10 (Lombardo et al. 2020).
//!
//! Everything here is arithmetic on the parameters: it runs before a single
//! vote is collected, so a collection can be priced and tuned first.

use super::config::{BallotConfig, Rounding};
use super::error::{BallotError, Result};

/// `Ok` when `ok`, else [`BallotError::InvalidParameter`] naming the
/// parameter and what was expected of it.
fn require(ok: bool, name: &'static str, expected: &'static str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(BallotError::InvalidParameter { name, expected })
    }
}

/// Checks 0 < α < 1 (NaN fails).
pub(crate) fn check_alpha(alpha: f64) -> Result<()> {
    require(
        alpha > 0.0 && alpha < 1.0,
        "alpha",
        "a fraction of kept items strictly between 0 and 1",
    )
}

fn check_items(n_items: usize) -> Result<()> {
    if n_items < 2 {
        Err(BallotError::TooFewItems {
            needed: 2,
            got: n_items,
        })
    } else {
        Ok(())
    }
}

fn check_ballots(n_ballots: usize, min: usize) -> Result<()> {
    require(
        (min..=BallotConfig::MAX_BALLOTS).contains(&n_ballots),
        "n_ballots",
        if min == 1 {
            "a number of ballots in 1..=1000"
        } else {
            "a number of ballots in 2..=1000 (the adaptive scheme needs n_b ≥ 2)"
        },
    )
}

/// Checks N ≥ 2, 0 < α < 1 and n_b in 1..=1000, in that order.
fn check_shape(n_items: usize, alpha: f64, n_ballots: usize) -> Result<()> {
    check_items(n_items)?;
    check_alpha(alpha)?;
    check_ballots(n_ballots, 1)
}

/// Checks M ≥ 1.
pub(crate) fn check_m(m: usize) -> Result<()> {
    require(
        m > 0,
        "m",
        "at least one appearance per item and ballot (M ≥ 1)",
    )
}

fn check_positive(name: &'static str, v: f64, expected: &'static str) -> Result<()> {
    require(v.is_finite() && v > 0.0, name, expected)
}

/// The number of items of each ballot (Eq. 2).
///
/// ```text
/// N⁽¹⁾ = N,   N⁽ᵏ⁾ = round(α·N⁽ᵏ⁻¹⁾) ≈ αᵏ⁻¹·N
/// ```
///
/// α·N⁽ᵏ⁻¹⁾ is computed in `f64` (exact for N < 2⁵³ when α is a dyadic
/// fraction such as 0.5) and rounded under `rounding`.
///
/// # Errors
/// [`BallotError::TooFewItems`] for N < 2; [`BallotError::InvalidParameter`]
/// for α outside (0, 1) or n_b outside 1..=1000; [`BallotError::BallotTooSmall`]
/// when a ballot would hold fewer than two items.
///
/// # Complexity
/// O(n_b).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{ballot_sizes, Rounding};
/// // published-code departure 5: the published code's sizes.
/// let s = ballot_sizes(990, 0.5, 7, Rounding::HalfToEven)?;
/// assert_eq!(s, vec![990, 495, 248, 124, 62, 31, 16]);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 2.
pub fn ballot_sizes(
    n_items: usize,
    alpha: f64,
    n_ballots: usize,
    rounding: Rounding,
) -> Result<Vec<usize>> {
    check_shape(n_items, alpha, n_ballots)?;
    let mut sizes = Vec::with_capacity(n_ballots);
    let mut n = n_items;
    sizes.push(n);
    for k in 2..=n_ballots {
        // 0 < α·n < n, so the rounded value lies in [0, n].
        n = rounding.round(alpha * n as f64) as usize;
        if n < 2 {
            return Err(BallotError::BallotTooSmall {
                ballot: k,
                items: n,
            });
        }
        sizes.push(n);
    }
    Ok(sizes)
}

/// The exact number of comparisons of a ballot of `n` items, each appearing
/// `m` times: ⌈M·n/2⌉ (one item appears M + 1 times when M·n is odd, as
/// footnote 6 of the paper says). `None` on 64-bit overflow.
///
/// ```text
/// C⁽ᵏ⁾ = ⌈M·N⁽ᵏ⁾ / 2⌉
/// ```
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::comparisons_in_ballot;
/// assert_eq!(comparisons_in_ballot(990, 20), Some(9900));
/// assert_eq!(comparisons_in_ballot(31, 3), Some(47)); // 93 appearances + 1
/// ```
#[must_use]
pub fn comparisons_in_ballot(n: usize, m: usize) -> Option<u64> {
    (n as u64).checked_mul(m as u64).map(|a| a.div_ceil(2))
}

/// Everything a configuration costs, known before any vote is collected.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{plan, BallotConfig};
/// let p = plan(&BallotConfig::new(990, 20, 0.5, 7)?);
/// assert_eq!(p.sizes, vec![990, 495, 248, 124, 62, 31, 16]);
/// assert_eq!(p.total_comparisons, 19_660);
/// assert_eq!(p.m_top, 140);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Plan {
    /// N⁽ᵏ⁾ for k = 1 … n_b (Eq. 2).
    pub sizes: Vec<usize>,
    /// The exact number of comparisons of each ballot, ⌈M·N⁽ᵏ⁾/2⌉.
    pub comparisons: Vec<u64>,
    /// The exact total N_comp (Eq. 3, left-hand side).
    pub total_comparisons: u64,
    /// The approximation (1 − αⁿᵇ)/(2(1 − α))·M·N (Eq. 3, right-hand side).
    pub approx_total_comparisons: f64,
    /// Appearances of an item that reaches the last ballot, M_top = n_b·M (Eq. 4).
    pub m_top: u64,
    /// Appearances per item of a uniform collection with the same total,
    /// M_unif = 2·N_comp/N (Eq. 4).
    pub m_unif: f64,
}

/// Plans every ballot of a configuration: sizes, exact comparison counts,
/// M_top and M_unif.
///
/// ```text
/// N_comp = Σ_{k=1..n_b} ⌈M·N⁽ᵏ⁾/2⌉ ≈ (1 − αⁿᵇ)/(2(1 − α))·M·N     (Eq. 3)
/// M_top  = n_b·M,   M_unif = 2·N_comp/N                          (Eq. 4)
/// ```
///
/// # Complexity
/// O(n_b).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{plan, BallotConfig};
/// let p = plan(&BallotConfig::new(1_000_000, 20, 0.5, 7)?);
/// assert_eq!(p.comparisons[0], 10_000_000);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eqs. 2–4.
#[must_use]
pub fn plan(config: &BallotConfig) -> Plan {
    let sizes = config.ballot_sizes();
    let m = config.m();
    // Counts were checked for overflow when the configuration was built.
    let comparisons: Vec<u64> = sizes
        .iter()
        .map(|&n| comparisons_in_ballot(n, m).unwrap_or(u64::MAX))
        .collect();
    let total_comparisons = comparisons.iter().fold(0u64, |a, &c| a.saturating_add(c));
    let n = config.n_items() as f64;
    Plan {
        approx_total_comparisons: approx_total(n, m as f64, config.alpha(), config.n_ballots()),
        m_top: (config.n_ballots() as u64).saturating_mul(m as u64),
        m_unif: 2.0 * total_comparisons as f64 / n,
        sizes,
        comparisons,
        total_comparisons,
    }
}

fn approx_total(n: f64, m: f64, alpha: f64, n_ballots: usize) -> f64 {
    let a_nb = alpha.powi(n_ballots.min(i32::MAX as usize) as i32);
    (1.0 - a_nb) / (2.0 * (1.0 - alpha)) * m * n
}

/// The continuous approximation of Eq. 3 for the total number of comparisons.
///
/// ```text
/// N_comp ≈ (1 − αⁿᵇ) / (2(1 − α)) · M · N
/// ```
///
/// # Errors
/// [`BallotError::TooFewItems`] for N < 2; [`BallotError::InvalidParameter`]
/// for M = 0, α outside (0, 1) or n_b outside 1..=1000.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::approx_total_comparisons;
/// // (1 − 2⁻⁷)/(2·0.5)·20·990 = 127/128 · 19 800
/// assert_eq!(approx_total_comparisons(990, 20, 0.5, 7)?, 19_645.312_5);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 3.
pub fn approx_total_comparisons(
    n_items: usize,
    m: usize,
    alpha: f64,
    n_ballots: usize,
) -> Result<f64> {
    check_shape(n_items, alpha, n_ballots)?;
    check_m(m)?;
    Ok(approx_total(n_items as f64, m as f64, alpha, n_ballots))
}

/// The range of α that §2.7 recommends for `n_ballots` ballots over `n_items`
/// items. `lower > upper` means no α satisfies both heuristics.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct AlphaBounds {
    /// (2/N)^(1/(n_b − 1)): at least two items reach the last ballot.
    pub lower: f64,
    /// f^(1/(n_b − 1)): at most a fraction f of the items reaches the last
    /// ballot (the paper takes f = 0.1).
    pub upper: f64,
}

impl AlphaBounds {
    /// `true` when `alpha` lies within both bounds.
    #[must_use]
    pub fn contains(&self, alpha: f64) -> bool {
        self.lower <= alpha && alpha <= self.upper
    }

    /// `true` when no α satisfies both bounds.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lower > self.upper
    }
}

/// The fraction of items reaching the last ballot that §2.7 takes as the
/// upper limit: 10%.
pub const PAPER_MAX_SURVIVING_FRACTION: f64 = 0.1;

/// The heuristic bounds on α of §2.7.
///
/// ```text
/// (2/N)^(1/(n_b − 1))  ≲  α  ≲  f^(1/(n_b − 1)),    f = 0.1 in the paper
/// ```
///
/// # Errors
/// [`BallotError::TooFewItems`] for N < 2; [`BallotError::InvalidParameter`]
/// for n_b outside 2..=1000 or f outside (0, 1].
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{alpha_bounds, PAPER_MAX_SURVIVING_FRACTION};
/// let b = alpha_bounds(990, 7, PAPER_MAX_SURVIVING_FRACTION)?;
/// assert!(b.contains(0.5)); // the paper's choice
/// assert!((b.upper - 0.1f64.powf(1.0 / 6.0)).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), §2.7 "Fraction α of selected items".
pub fn alpha_bounds(
    n_items: usize,
    n_ballots: usize,
    max_surviving_fraction: f64,
) -> Result<AlphaBounds> {
    check_items(n_items)?;
    check_ballots(n_ballots, 2)?;
    if !(max_surviving_fraction > 0.0 && max_surviving_fraction <= 1.0) {
        return Err(BallotError::InvalidParameter {
            name: "max_surviving_fraction",
            expected: "a fraction in (0, 1]",
        });
    }
    let e = 1.0 / (n_ballots - 1) as f64;
    Ok(AlphaBounds {
        lower: (2.0 / n_items as f64).powf(e),
        upper: max_surviving_fraction.powf(e),
    })
}

/// The number of comparisons needed for a target M_top (§2.7), in the
/// αⁿᵇ ≪ 1 limit of Eqs. 3–4.
///
/// ```text
/// N_comp ≈ M_top · N / (2(1 − α)·n_b)        (= 50·N/((1 − α)·n_b) for M_top = 100)
/// ```
///
/// # Errors
/// [`BallotError::TooFewItems`] for N < 2; [`BallotError::InvalidParameter`]
/// for α outside (0, 1), n_b outside 1..=1000, or M_top not finite and positive.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::comparisons_for_m_top;
/// let c = comparisons_for_m_top(990, 0.5, 7, 100.0)?;
/// assert!((c - 50.0 * 990.0 / (0.5 * 7.0)).abs() < 1e-9);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), §2.7 "Number N_comp of comparisons".
pub fn comparisons_for_m_top(
    n_items: usize,
    alpha: f64,
    n_ballots: usize,
    m_top: f64,
) -> Result<f64> {
    check_shape(n_items, alpha, n_ballots)?;
    check_positive("m_top", m_top, "a finite, positive number of appearances")?;
    Ok(m_top * n_items as f64 / (2.0 * (1.0 - alpha) * n_ballots as f64))
}

/// M from Eq. 3 once N_comp, N, α and n_b are fixed (continuous; see
/// [`m_for_budget`] for the largest integral M within an exact budget).
///
/// ```text
/// M ≈ 2·N_comp·(1 − α) / ((1 − αⁿᵇ)·N)
/// ```
///
/// # Errors
/// [`BallotError::TooFewItems`] for N < 2; [`BallotError::InvalidParameter`]
/// for α outside (0, 1), n_b outside 1..=1000, or N_comp not finite and positive.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::m_from_comparisons;
/// let m = m_from_comparisons(19_645.312_5, 990, 0.5, 7)?;
/// assert!((m - 20.0).abs() < 1e-12);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), §2.7 "Number M of comparisons per ballot".
pub fn m_from_comparisons(
    n_comparisons: f64,
    n_items: usize,
    alpha: f64,
    n_ballots: usize,
) -> Result<f64> {
    check_shape(n_items, alpha, n_ballots)?;
    check_positive(
        "n_comparisons",
        n_comparisons,
        "a finite, positive number of comparisons",
    )?;
    Ok(n_comparisons / approx_total(n_items as f64, 1.0, alpha, n_ballots))
}

/// The largest M whose exact comparison count (Eq. 3, left-hand side) fits
/// within `budget` comparisons.
///
/// ```text
/// max { M ≥ 1 : Σ_k ⌈M·N⁽ᵏ⁾/2⌉ ≤ budget }
/// ```
///
/// # Errors
/// Those of [`ballot_sizes`]; [`BallotError::InvalidParameter`] when even
/// M = 1 exceeds the budget.
///
/// # Complexity
/// O(n_b·log(budget)).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{m_for_budget, Rounding};
/// assert_eq!(m_for_budget(990, 0.5, 7, Rounding::HalfToEven, 19_660)?, 20);
/// assert_eq!(m_for_budget(990, 0.5, 7, Rounding::HalfToEven, 19_659)?, 19);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
pub fn m_for_budget(
    n_items: usize,
    alpha: f64,
    n_ballots: usize,
    rounding: Rounding,
    budget: u64,
) -> Result<usize> {
    let sizes = ballot_sizes(n_items, alpha, n_ballots, rounding)?;
    let total = |m: u64| -> Option<u64> {
        sizes.iter().try_fold(0u64, |acc, &n| {
            (n as u64)
                .checked_mul(m)
                .and_then(|a| acc.checked_add(a.div_ceil(2)))
        })
    };
    if total(1).is_none_or(|t| t > budget) {
        return Err(BallotError::InvalidParameter {
            name: "budget",
            expected: "at least the comparisons of M = 1",
        });
    }
    // total(M) ≥ M·N/2 ≥ M, so M ≤ budget: search (lo, hi] with total(lo) ≤ budget.
    let (mut lo, mut hi) = (1u64, budget.max(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if total(mid).is_some_and(|t| t <= budget) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    usize::try_from(lo).map_err(|_| BallotError::Overflow { what: "M" })
}

/// The appearances of an item that reaches the last ballot (Eq. 4, exact).
///
/// ```text
/// M_top = n_b · M
/// ```
///
/// # Errors
/// [`BallotError::Overflow`] beyond 64 bits.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::m_top;
/// assert_eq!(m_top(20, 7)?, 140);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 4.
pub fn m_top(m: usize, n_ballots: usize) -> Result<u64> {
    (m as u64)
        .checked_mul(n_ballots as u64)
        .ok_or(BallotError::Overflow { what: "M_top" })
}

/// M_top expressed through the uniform collection with the same budget
/// (Eq. 4, αⁿᵇ ≪ 1 limit).
///
/// ```text
/// M_top ≈ (1 − α)·n_b·M_unif,    M_unif = 2·N_comp/N
/// ```
///
/// # Errors
/// [`BallotError::InvalidParameter`] for α outside (0, 1), n_b outside
/// 1..=1000, or M_unif not finite and positive.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::m_top_from_uniform;
/// assert_eq!(m_top_from_uniform(40.0, 0.5, 7)?, 140.0);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 4.
pub fn m_top_from_uniform(m_unif: f64, alpha: f64, n_ballots: usize) -> Result<f64> {
    check_alpha(alpha)?;
    check_ballots(n_ballots, 1)?;
    check_positive("m_unif", m_unif, "a finite, positive number of appearances")?;
    Ok((1.0 - alpha) * n_ballots as f64 * m_unif)
}

/// The expected person-time cost of a collection (Eq. 10), in the unit of
/// `mean_time_per_comparison`.
///
/// ```text
/// C ≈ t̄_comp · N_comp
/// ```
///
/// # Errors
/// [`BallotError::InvalidParameter`] for a negative, NaN or infinite time.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{expected_cost, plan, BallotConfig};
/// let p = plan(&BallotConfig::new(990, 20, 0.5, 7)?);
/// // 6 s per comparison: 19 660 · 6 s ≈ 32.8 hours.
/// let hours = expected_cost(6.0, p.total_comparisons)? / 3600.0;
/// assert!((hours - 32.766_666).abs() < 1e-5);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 10.
pub fn expected_cost(mean_time_per_comparison: f64, n_comparisons: u64) -> Result<f64> {
    if !(mean_time_per_comparison.is_finite() && mean_time_per_comparison >= 0.0) {
        return Err(BallotError::InvalidParameter {
            name: "mean_time_per_comparison",
            expected: "a finite, non-negative time",
        });
    }
    Ok(mean_time_per_comparison * n_comparisons as f64)
}

#[cfg(test)]
// Exact comparisons of values that are exact in binary (dyadic fractions).
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::ballot::config::Options;

    #[test]
    fn published_sizes_and_totals() {
        // published-code departure 5: sizes 990, 495, 248, 124, 62, 31, 16 (half to even);
        // 19 660 comparisons = 10·(990 + 495 + 248 + 124 + 62 + 31 + 16).
        for options in [Options::paper(), Options::published()] {
            let c = BallotConfig::with_options(990, 20, 0.5, 7, options).unwrap();
            let p = plan(&c);
            assert_eq!(p.sizes, vec![990, 495, 248, 124, 62, 31, 16]);
            assert_eq!(p.comparisons, vec![9900, 4950, 2480, 1240, 620, 310, 160]);
            assert_eq!(p.total_comparisons, 19_660);
            assert_eq!(p.m_top, 140);
            assert!((p.m_unif - 2.0 * 19_660.0 / 990.0).abs() < 1e-12);
            assert_eq!(p.approx_total_comparisons, 19_645.312_5);
        }
    }

    #[test]
    fn odd_sizes_round_the_count_up() {
        // N = 7, M = 3, α = 0.5: sizes 7, round(3.5) = 4, round(2.0) = 2;
        // comparisons ⌈21/2⌉ = 11, 6, 3.
        let p = plan(&BallotConfig::new(7, 3, 0.5, 3).unwrap());
        assert_eq!(p.sizes, vec![7, 4, 2]);
        assert_eq!(p.comparisons, vec![11, 6, 3]);
        assert_eq!(p.total_comparisons, 20);
        // Half to even: 3.5 → 4 as well, 2.0 → 2.
        assert_eq!(
            ballot_sizes(7, 0.5, 3, Rounding::HalfToEven).unwrap(),
            vec![7, 4, 2]
        );
    }

    #[test]
    fn alpha_bounds_by_hand() {
        // (2/990)^(1/6) and 0.1^(1/6), by Python 3.11: 0.35554873147968213 and 0.6812920690579614
        let b = alpha_bounds(990, 7, PAPER_MAX_SURVIVING_FRACTION).unwrap();
        assert!(
            (b.lower - 0.355_548_731_479_682).abs() < 1e-12,
            "{}",
            b.lower
        );
        assert!(
            (b.upper - 0.681_292_069_057_961).abs() < 1e-12,
            "{}",
            b.upper
        );
        assert!(!b.is_empty());
        assert!(!b.contains(0.9));
        // 10 items, 10 ballots: (0.2)^(1/9) ≈ 0.836 > 0.1^(1/9) ≈ 0.774.
        assert!(alpha_bounds(10, 10, 0.1).unwrap().is_empty());
        assert!(alpha_bounds(990, 1, 0.1).is_err());
        assert!(alpha_bounds(1, 7, 0.1).is_err());
        assert!(alpha_bounds(990, 7, 0.0).is_err());
        assert!(alpha_bounds(990, 7, f64::NAN).is_err());
    }

    #[test]
    fn heuristics_reject_bad_input() {
        assert!(comparisons_for_m_top(990, 0.5, 7, f64::NAN).is_err());
        assert!(comparisons_for_m_top(990, 1.0, 7, 100.0).is_err());
        assert!(m_from_comparisons(-1.0, 990, 0.5, 7).is_err());
        assert!(m_from_comparisons(1e4, 0, 0.5, 7).is_err());
        assert!(m_top_from_uniform(f64::INFINITY, 0.5, 7).is_err());
        assert!(expected_cost(-1.0, 10).is_err());
        assert!(expected_cost(f64::NAN, 10).is_err());
        assert_eq!(expected_cost(0.0, 10).unwrap(), 0.0);
        assert!(approx_total_comparisons(990, 0, 0.5, 7).is_err());
        assert!(m_top(usize::MAX, 2).is_err());
        assert!(m_for_budget(990, 0.5, 7, Rounding::HalfToEven, 100).is_err());
    }

    #[test]
    fn m_for_budget_is_the_largest_fitting_m() {
        // Exact count at M = 19 (hand): 9405 + 4703 + 2356 + 1178 + 589 + 295 + 152 = 18 678.
        let sizes = ballot_sizes(990, 0.5, 7, Rounding::HalfToEven).unwrap();
        let total = |m: usize| -> u64 {
            sizes
                .iter()
                .map(|&n| comparisons_in_ballot(n, m).unwrap())
                .sum()
        };
        assert_eq!(total(19), 18_678);
        for budget in [18_677, 18_678, 19_659, 19_660, 1_000_000] {
            let m = m_for_budget(990, 0.5, 7, Rounding::HalfToEven, budget).unwrap();
            assert!(
                total(m) <= budget && total(m + 1) > budget,
                "budget {budget}"
            );
        }
    }
}
