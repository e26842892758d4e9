//! The built-in table of null moments: exact for n ≤ 11, Monte Carlo on a
//! grid of n above, interpolated in ln n between grid points, and beyond
//! the last one the limit where the moments converge.
//!
//! The data (`table_data.rs`) are written by
//! `cargo run --release --features uncertainty --example standardised_table`;
//! see that example for the grid, the seeds and the per-point budget.

use super::{Coefficient, GammaMoments, MomentSource, StandardisedError};
use crate::weigh::{Scheme, Weigher};

/// A weigher the table covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableWeigher {
    /// f(n) = 1/n.
    Hyperbolic,
    /// f(n) = 1/(n + n0)², n0 = 0, 1, 2.
    OffsetQuadratic(u8),
}

impl TableWeigher {
    pub(crate) const ALL: [Self; 4] = [
        Self::OffsetQuadratic(2),
        Self::OffsetQuadratic(0),
        Self::OffsetQuadratic(1),
        Self::Hyperbolic,
    ];

    fn weight(self, rank: f64) -> f64 {
        match self {
            Self::Hyperbolic => 1.0 / rank,
            Self::OffsetQuadratic(n0) => {
                let d = rank + f64::from(n0);
                1.0 / (d * d)
            }
        }
    }

    /// The tabulated weigher giving the same normalised weights as `w` on
    /// ranks 1..=n (relative tolerance 10⁻⁹), if any: every rank up to
    /// [`CHECKED`], and beyond it the ranks of a geometric sequence (ratio
    /// 1.001) and n itself, so that a huge n costs at most about 4·10⁷
    /// evaluations.
    fn identify<W: Weigher + ?Sized>(w: &W, n: usize) -> Option<Self> {
        let w1 = w.weight(1.0);
        if !(w1.is_finite() && w1 > 0.0) {
            return None;
        }
        let sparse = core::iter::successors(Some(CHECKED), |&r: &usize| {
            let next = (r as f64 * 1.001).ceil() as usize;
            (next < n).then_some(next)
        })
        .skip(1)
        .chain((n > CHECKED).then_some(n));
        let ranks = (1..=n.min(CHECKED)).chain(sparse);
        Self::ALL.into_iter().find(|t| {
            let t1 = t.weight(1.0);
            ranks.clone().all(|r| {
                let r = r as f64;
                let want = t.weight(r) / t1;
                (w.weight(r) / w1 - want).abs() <= 1e-9 * want
            })
        })
    }

    /// Whether the null moments have limits that the grid reaches: additive
    /// weights with a summable weigher (1/(n + n0)²), where the weight sits
    /// on the top ranks of each ranking and the moments approach their
    /// limits as O(log n / n).
    fn converges(self, scheme: Scheme) -> bool {
        matches!(self, Self::OffsetQuadratic(_)) && scheme == Scheme::Additive
    }
}

/// Ranks up to which [`TableWeigher::identify`] checks every rank.
const CHECKED: usize = 10_000_000;

/// One grid point: the moments and their standard errors (0 when exact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Entry {
    pub(crate) n: u32,
    pub(crate) moments: [f64; 3],
    pub(crate) se: [f64; 3],
}

/// The grid of one configuration, by increasing n.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    pub(crate) weigher: TableWeigher,
    pub(crate) scheme: Scheme,
    pub(crate) coefficient: Coefficient,
    pub(crate) entries: &'static [Entry],
}

/// The grid of a configuration, or why there is none.
pub(crate) fn grid<W: Weigher + ?Sized>(
    weigher: &W,
    scheme: Scheme,
    coefficient: Coefficient,
    n: usize,
) -> Result<&'static Grid, StandardisedError> {
    if !matches!(scheme, Scheme::Additive | Scheme::Multiplicative) {
        return Err(StandardisedError::NotInTable {
            what: "entry for one-sided weights (only additive and multiplicative schemes)",
        });
    }
    let weigher = TableWeigher::identify(weigher, n).ok_or(StandardisedError::NotInTable {
        what: "entry for this weigher (only 1/n and 1/(n + n0)² with n0 = 0, 1, 2)",
    })?;
    super::table_data::GRIDS
        .iter()
        .find(|g| g.weigher == weigher && g.scheme == scheme && g.coefficient == coefficient)
        .ok_or(StandardisedError::NotInTable {
            what: "entry for this configuration",
        })
}

/// The moments of `n` items from the table.
pub(crate) fn lookup<W: Weigher + ?Sized>(
    weigher: &W,
    scheme: Scheme,
    coefficient: Coefficient,
    n: usize,
) -> Result<GammaMoments, StandardisedError> {
    if n < 3 {
        return Err(StandardisedError::TooFewItems { needed: 3, got: n });
    }
    let grid = grid(weigher, scheme, coefficient, n)?;
    // Every grid reaches n_max ≥ 10⁷ (unit test
    // `grids_reach_ten_million_and_converged_ones_are_flat`).
    let last = grid.entries[grid.entries.len() - 1].n as usize;
    let max = if grid.weigher.converges(grid.scheme) {
        usize::MAX
    } else {
        last
    };
    if n > max {
        return Err(StandardisedError::BeyondTable { max, got: n });
    }
    let (moments, se, exact) = at(grid.entries, n);
    let source = if exact {
        MomentSource::Exact
    } else {
        MomentSource::Table
    };
    GammaMoments::from_parts(moments[0], moments[1], moments[2], se, source)
}

/// Interpolates the grid at `n` (beyond its last point: [`beyond`]): (moments, standard
/// errors, whether the value is an exact grid point).
pub(crate) fn at(entries: &[Entry], n: usize) -> ([f64; 3], [f64; 3], bool) {
    let pos = entries.partition_point(|e| (e.n as usize) < n);
    if let Some(e) = entries.get(pos).filter(|e| e.n as usize == n) {
        return (e.moments, e.se, e.se == [0.0; 3]);
    }
    let last = entries.len() - 1;
    if pos > last {
        return beyond(entries);
    }
    // Four-point Lagrange interpolation in t = ln n on the nearest points.
    let start = pos.saturating_sub(2).min(entries.len().saturating_sub(4));
    let points = &entries[start..(start + 4).min(entries.len())];
    let t = (n as f64).ln();
    let ts: Vec<f64> = points.iter().map(|e| f64::from(e.n).ln()).collect();
    let lambda: Vec<f64> = (0..points.len())
        .map(|i| {
            (0..points.len())
                .filter(|&j| j != i)
                .map(|j| (t - ts[j]) / (ts[i] - ts[j]))
                .product()
        })
        .collect();
    let mut moments = [0.0; 3];
    let mut se = [0.0; 3];
    for k in 0..3 {
        moments[k] = points
            .iter()
            .zip(&lambda)
            .map(|(e, l)| l * e.moments[k])
            .sum();
        se[k] = points
            .iter()
            .zip(&lambda)
            .map(|(e, l)| (l * e.se[k]).powi(2))
            .sum::<f64>()
            .sqrt();
    }
    (moments, se, false)
}

/// Beyond the last grid point n_max (only for the configurations whose
/// moments converge): the moments of n_max, each standard error widened by
/// the moment's change over the grid's last decade, |M(n_max) − M(n_max/10)|,
/// which bounds the rest of an O(log n / n) approach to the limit.
fn beyond(entries: &[Entry]) -> ([f64; 3], [f64; 3], bool) {
    let last = entries[entries.len() - 1];
    let (earlier, _, _) = at(entries, (last.n / 10) as usize);
    let se = core::array::from_fn(|k| last.se[k] + (last.moments[k] - earlier[k]).abs());
    (last.moments, se, false)
}

#[cfg(test)]
mod tests {
    use super::super::table_data::GRIDS;
    use super::*;

    /// |a − b| in units of the combined standard error, per moment.
    fn z(a: ([f64; 3], [f64; 3]), b: &Entry) -> [f64; 3] {
        core::array::from_fn(|k| {
            (a.0[k] - b.moments[k]).abs() / (a.1[k].powi(2) + b.se[k].powi(2)).sqrt()
        })
    }

    #[test]
    fn grids_are_complete_sorted_and_valid() {
        for weigher in TableWeigher::ALL {
            for scheme in [Scheme::Additive, Scheme::Multiplicative] {
                for coefficient in [Coefficient::Rho, Coefficient::Tau] {
                    let found = GRIDS
                        .iter()
                        .filter(|g| {
                            g.weigher == weigher
                                && g.scheme == scheme
                                && g.coefficient == coefficient
                        })
                        .count();
                    assert_eq!(found, 1, "{weigher:?} {scheme:?} {coefficient:?}");
                }
            }
        }
        for g in &GRIDS {
            assert_eq!(g.entries[0].n, 3);
            assert!(g.entries.windows(2).all(|w| w[0].n < w[1].n));
            for e in g.entries {
                let [m, v, l] = e.moments;
                super::super::moments::validate(m, v, l).unwrap();
                assert_eq!(e.se == [0.0; 3], e.n <= 11, "n = {}", e.n);
                assert!(e.se.iter().all(|s| s.is_finite() && *s >= 0.0));
            }
        }
    }

    /// Summary of |z| over many comparisons: (mean z², max |z|).
    fn summary(zs: &[f64]) -> (f64, f64) {
        let mean_sq = zs.iter().map(|z| z * z).sum::<f64>() / zs.len() as f64;
        (mean_sq, zs.iter().copied().fold(0.0, f64::max))
    }

    #[test]
    fn interpolation_predicts_left_out_grid_points() {
        // Every Monte-Carlo point with two grid points on each side, predicted
        // from the grid without it (points twice as far apart as in use):
        // the errors are those of independent noise at the stated standard
        // errors, so interpolation adds no visible error of its own.
        let mut zs = Vec::new();
        let mut worst = 0.0f64;
        for g in &GRIDS {
            for i in 2..g.entries.len() - 2 {
                let e = &g.entries[i];
                if e.n <= 12 {
                    continue;
                }
                let rest: Vec<Entry> = g
                    .entries
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, e)| *e)
                    .collect();
                let (m, se, exact) = at(&rest, e.n as usize);
                assert!(!exact);
                zs.extend(z((m, se), e));
                for (got, want) in m.iter().zip(&e.moments) {
                    worst = worst.max((got - want).abs() / want.abs());
                }
            }
        }
        let (mean_sq, max) = summary(&zs);
        assert!(
            mean_sq < 2.0 && max < 5.0,
            "mean z² {mean_sq}, max |z| {max}, worst relative error {worst}"
        );
    }

    #[test]
    fn grids_reach_ten_million_and_converged_ones_are_flat() {
        for g in &GRIDS {
            let last = g.entries[g.entries.len() - 1];
            assert!(
                last.n >= 10_000_000,
                "{:?} {:?} {:?} ends at {}",
                g.weigher,
                g.scheme,
                g.coefficient,
                last.n
            );
            if g.weigher.converges(g.scheme) {
                // Over the last decade Γ̄ moves by no more than the noise
                // (4 combined standard errors): the limit is reached.
                let (earlier, se, _) = at(g.entries, (last.n / 10) as usize);
                let z = (last.moments[0] - earlier[0]).abs()
                    / (last.se[0].powi(2) + se[0].powi(2)).sqrt();
                assert!(
                    z < 4.0,
                    "{:?} {:?} {:?}: z = {z}",
                    g.weigher,
                    g.scheme,
                    g.coefficient
                );
                let (m, s, _) = at(g.entries, usize::MAX);
                assert_eq!(m, last.moments);
                assert!(s[0] >= last.se[0]);
            }
        }
    }

    #[test]
    fn weighers_are_recognised_by_their_values() {
        let oq = |n0: f64| move |r: f64| 1.0 / ((r + n0) * (r + n0));
        assert_eq!(
            TableWeigher::identify(&oq(2.0), 100),
            Some(TableWeigher::OffsetQuadratic(2))
        );
        assert_eq!(
            TableWeigher::identify(&oq(1.0), 100),
            Some(TableWeigher::OffsetQuadratic(1))
        );
        assert_eq!(
            TableWeigher::identify(&|r: f64| 5.0 / (r * r), 100),
            Some(TableWeigher::OffsetQuadratic(0))
        );
        assert_eq!(
            TableWeigher::identify(&|r: f64| 1.0 / r, 100),
            Some(TableWeigher::Hyperbolic)
        );
        assert_eq!(TableWeigher::identify(&oq(0.5), 100), None);
        assert_eq!(TableWeigher::identify(&|_: f64| 0.0, 100), None);
        // A weigher equal to a tabulated one on ranks 1..=n only is that one for n items.
        let clipped = |r: f64| if r <= 10.0 { 1.0 / r } else { 0.0 };
        assert_eq!(
            TableWeigher::identify(&clipped, 10),
            Some(TableWeigher::Hyperbolic)
        );
        assert_eq!(TableWeigher::identify(&clipped, 11), None);
        // Beyond 10⁷ ranks a geometric sample and n itself are checked, so a
        // huge n is quick.
        let far = |r: f64| if r <= 2e7 { 1.0 / r } else { 0.0 };
        assert_eq!(
            TableWeigher::identify(&far, 100),
            Some(TableWeigher::Hyperbolic)
        );
        assert_eq!(TableWeigher::identify(&far, 30_000_000), None);
        assert_eq!(
            TableWeigher::identify(&|r: f64| 1.0 / r, usize::MAX),
            Some(TableWeigher::Hyperbolic)
        );
    }
}
