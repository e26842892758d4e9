//! Many systems on many units (benchmarks, datasets): Friedman's test,
//! the average ranks, and Nemenyi's critical difference with the groups of
//! systems it cannot tell apart (Demšar 2006).
//!
//! Each unit ranks the k systems (rank 1 the best, average ranks for
//! ties); R_j is system j's average rank over the N units. With tₗ the
//! sizes of the groups of tied scores within units:
//!
//! ```text
//! χ²_F = 12N/(k(k + 1)) · Σ_j (R_j − (k + 1)/2)² / C,   C = 1 − Σ_l (t_l³ − t_l)/(N·k·(k² − 1))
//! p = P(χ²_(k−1) > χ²_F)
//! CD = q_α·√(k(k + 1)/(6N)),  q_α = (upper α point of the range of k standard normals)/√2
//! ```
//!
//! χ²_F is SciPy's `friedmanchisquare` statistic (which it computes as
//! `12/(Nk(k+1))·Σ(N R_j)² − 3N(k+1)`, losing digits to cancellation;
//! the centred form here does not). Two systems differ significantly when
//! their average ranks differ by at least CD; a group is a maximal run of
//! systems, in rank order, whose average ranks span less than CD (the bars
//! of a critical-difference diagram).

use super::dist::{chi2_sf, range_isf};
use super::error::CompareError;
use super::multitest::check_alpha;
use super::table::ScoreTable;
use crate::rank::Order;

/// Friedman's test over the units of a table, with the average ranks and
/// Nemenyi's critical difference.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Friedman {
    /// The systems' names, in the table's order.
    pub systems: Vec<String>,
    /// N, the number of units (benchmarks) ranked.
    pub units: usize,
    /// R_j, each system's average rank (1 = best), in the table's order.
    pub average_ranks: Vec<f64>,
    /// The systems' indices by average rank, best first (ties by index).
    pub order: Vec<usize>,
    /// χ²_F (0 when every unit ties every system).
    pub statistic: f64,
    /// Degrees of freedom, k − 1.
    pub df: usize,
    /// P(χ²_(k−1) > χ²_F) (1 when every unit ties every system).
    pub p_value: f64,
    /// ln of the p-value, finite where the p-value underflows to 0.
    pub ln_p_value: f64,
    /// The tie correction C.
    pub tie_correction: f64,
    /// α of the critical difference.
    pub alpha: f64,
    /// q_α: the upper α point of the studentized range with infinitely many
    /// degrees of freedom for k means, over √2 (Demšar's Table 5).
    pub q_alpha: f64,
    /// Nemenyi's critical difference of average ranks.
    pub critical_difference: f64,
    /// The groups of systems that cannot be told apart: maximal runs, in
    /// rank order, spanning less than the critical difference (a system
    /// apart from all others forms a group of its own).
    pub groups: Vec<Vec<usize>>,
}

/// Friedman's test of the systems of `table` over its units, with
/// Nemenyi's critical difference at `alpha` (Demšar 2006). `order` says
/// which scores are better: [`Order::LargerIsBetter`] for accuracies.
///
/// # Errors
/// [`CompareError::TooFewSystems`] for k < 2, [`CompareError::TooFewUnits`]
/// for N < 1, [`CompareError::InvalidAlpha`].
///
/// # Complexity
/// O(N·k log k) for the ranks, O(k) quadrature evaluations for q_α.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::Order;
/// use adaptive_comp_metrics::uncertainty::compare::{friedman, ScoreTable};
/// // Three classifiers on four data sets.
/// let t = ScoreTable::from_columns(&[
///     ("a", [0.90, 0.80, 0.85, 0.70]),
///     ("b", [0.85, 0.75, 0.80, 0.72]),
///     ("c", [0.60, 0.65, 0.70, 0.50]),
/// ])?;
/// let f = friedman(&t, Order::LargerIsBetter, 0.05)?;
/// assert_eq!(f.average_ranks, [1.25, 1.75, 3.0]);
/// // χ²_F = 12·4/(3·4)·((1.25 − 2)² + (1.75 − 2)² + 1²) = 6.5
/// assert!((f.statistic - 6.5).abs() < 1e-12);
/// assert!((f.critical_difference - 2.343 * (3.0f64 * 4.0 / 24.0).sqrt()).abs() < 1e-3);
/// assert_eq!(f.groups, [vec![0, 1], vec![1, 2]]);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
/// ```
///
/// # References
/// M. Friedman (1937), *JASA* 32, 675–701; P. B. Nemenyi (1963),
/// *Distribution-free multiple comparisons*, PhD thesis, Princeton;
/// J. Demšar (2006), Statistical comparisons of classifiers over multiple
/// data sets, *JMLR* 7, 1–30; SciPy's `friedmanchisquare`.
pub fn friedman(table: &ScoreTable, order: Order, alpha: f64) -> Result<Friedman, CompareError> {
    check_alpha(alpha)?;
    let k = table.systems();
    let n = table.units();
    if k < 2 {
        return Err(CompareError::TooFewSystems { needed: 2, got: k });
    }
    if n < 1 {
        return Err(CompareError::TooFewUnits {
            method: "Friedman's test",
            needed: 1,
            got: n,
        });
    }
    let mut rank_sums = vec![0.0; k];
    let mut ties = 0.0;
    let mut idx: Vec<usize> = Vec::with_capacity(k);
    for u in 0..n {
        let row = table.row(u);
        idx.clear();
        idx.extend(0..k);
        // Best first: rank 1 is the best score.
        idx.sort_by(|&a, &b| match order {
            Order::LargerIsBetter => row[b].total_cmp(&row[a]),
            Order::SmallerIsBetter => row[a].total_cmp(&row[b]),
        });
        let mut i = 0;
        while i < k {
            let mut j = i + 1;
            while j < k && row[idx[j]] == row[idx[i]] {
                j += 1;
            }
            let r = (i + 1 + j) as f64 / 2.0;
            for &s in &idx[i..j] {
                rank_sums[s] += r;
            }
            let t = (j - i) as f64;
            ties += t * (t * t - 1.0);
            i = j;
        }
    }
    let (kf, nf) = (k as f64, n as f64);
    let average_ranks: Vec<f64> = rank_sums.iter().map(|r| r / nf).collect();
    let centre = (kf + 1.0) / 2.0;
    let spread = crate::sum::neumaier(average_ranks.iter().map(|r| (r - centre) * (r - centre)));
    let tie_correction = 1.0 - ties / (nf * kf * (kf * kf - 1.0));
    let (statistic, p_value, ln_p_value) = if tie_correction > 0.0 {
        let s = 12.0 * nf / (kf * (kf + 1.0)) * spread / tie_correction;
        let (p, ln) = chi2_sf(s, (k - 1) as u64);
        (s, p, ln)
    } else {
        (0.0, 1.0, 0.0)
    };
    let q_alpha = range_isf(alpha, k) / core::f64::consts::SQRT_2;
    let critical_difference = q_alpha * (kf * (kf + 1.0) / (6.0 * nf)).sqrt();
    let mut by_rank: Vec<usize> = (0..k).collect();
    by_rank.sort_by(|&a, &b| average_ranks[a].total_cmp(&average_ranks[b]));
    let groups = groups(&by_rank, &average_ranks, critical_difference);
    Ok(Friedman {
        systems: table.names().to_vec(),
        units: n,
        average_ranks,
        order: by_rank,
        statistic,
        df: k - 1,
        p_value,
        ln_p_value,
        tie_correction,
        alpha,
        q_alpha,
        critical_difference,
        groups,
    })
}

/// Maximal runs of `by_rank` whose average ranks span less than `cd`.
fn groups(by_rank: &[usize], ranks: &[f64], cd: f64) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut last_end = 0;
    for start in 0..by_rank.len() {
        let mut end = start + 1;
        while end < by_rank.len() && ranks[by_rank[end]] - ranks[by_rank[start]] < cd {
            end += 1;
        }
        // A run is maximal unless the previous run already reaches its end.
        if end > last_end {
            out.push(by_rank[start..end].to_vec());
            last_end = end;
        }
    }
    out
}

impl Friedman {
    /// Whether systems `a` and `b` differ significantly (their average
    /// ranks differ by at least the critical difference).
    ///
    /// # Panics
    /// If an index is out of range.
    #[must_use]
    pub fn differ(&self, a: usize, b: usize) -> bool {
        (self.average_ranks[a] - self.average_ranks[b]).abs() >= self.critical_difference
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_maximal_runs() {
        let ranks = [1.0, 1.5, 2.0, 3.5, 3.6, 6.0];
        let by: Vec<usize> = (0..6).collect();
        assert_eq!(
            groups(&by, &ranks, 1.1),
            [vec![0, 1, 2], vec![3, 4], vec![5]]
        );
        assert_eq!(
            groups(&by, &ranks, 2.0),
            [vec![0, 1, 2], vec![2, 3, 4], vec![5]]
        );
        assert_eq!(groups(&by, &ranks, 10.0), [vec![0, 1, 2, 3, 4, 5]]);
    }
}
