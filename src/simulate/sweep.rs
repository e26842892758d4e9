//! Which (α, n_b, M) spends a budget of N_comp comparisons best? An
//! empirical answer to the open question of Lombardo et al. (2020), §2.7.
//!
//! For each α and n_b of a grid, M is the largest value whose exact number of
//! comparisons (Eq. 3) fits the budget; the adaptive collection is simulated
//! S times and the chosen metric summarised with its standard error. Every
//! grid point sees the same S crowds (simulation s draws its crowd from the
//! same generator stream), so differences between points are not blurred by
//! crowd-to-crowd variation (common random numbers).

use super::error::{Result, SimulateError};
use super::runner::{Metric, Simulation, check_simulations, par_map};
use super::stats::Summary;

/// One evaluated grid point.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepPoint {
    /// Fraction of items kept at each ballot.
    pub alpha: f64,
    /// Number of ballots.
    pub n_ballots: usize,
    /// Appearances per item and ballot: the largest that fits the budget.
    pub m: usize,
    /// The exact number of comparisons spent (≤ budget).
    pub comparisons: u64,
    /// The metric over the simulations (mean, SD, standard error).
    pub summary: Summary,
}

/// A grid point that cannot run, and why.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Skipped {
    /// α of the point.
    pub alpha: f64,
    /// n_b of the point.
    pub n_ballots: usize,
    /// Why it was skipped (e.g. a last ballot below two items, or a budget
    /// below M = 1).
    pub reason: String,
}

/// The outcome of [`sweep`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// The metric's name.
    pub metric: String,
    /// The budget N_comp.
    pub budget: u64,
    /// The evaluated points, in grid order (α major, n_b minor).
    pub points: Vec<SweepPoint>,
    /// The points that could not run.
    pub skipped: Vec<Skipped>,
    /// Index into `points` of the largest mean, if any point ran.
    pub best: Option<usize>,
}

impl Sweep {
    /// The point with the largest mean.
    #[must_use]
    pub fn best_point(&self) -> Option<&SweepPoint> {
        self.best.and_then(|b| self.points.get(b))
    }

    /// Indices of the points whose mean is within `z` combined standard
    /// errors of the best one, `mean_best − mean_i ≤ z·√(se_best² + se_i²)`:
    /// the candidates the simulation cannot tell apart from the best.
    ///
    /// # Examples
    /// See [`sweep`].
    #[must_use]
    pub fn indistinguishable_from_best(&self, z: f64) -> Vec<usize> {
        let Some(best) = self.best_point() else {
            return Vec::new();
        };
        self.points
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                let se = (best.summary.se.powi(2) + p.summary.se.powi(2)).sqrt();
                best.summary.mean - p.summary.mean <= z * se
            })
            .map(|(i, _)| i)
            .collect()
    }
}

/// Sweeps α × n_b at a fixed budget of comparisons, M derived from the
/// budget, maximising `metric` of the adaptive collection.
///
/// ```text
/// M(α, n_b) = max { M ≥ 1 : Σ_k ⌈M·N⁽ᵏ⁾/2⌉ ≤ N_comp }           (Eq. 2–3)
/// best = argmax_{α, n_b} mean over S simulations of metric
/// ```
///
/// The voter model, number of voters, the scheduler options and the
/// underlying distribution are those of `base`; its own α, n_b and M are
/// replaced at each point.
///
/// # Errors
/// [`SimulateError::TooFewSimulations`] for fewer than 2 simulations,
/// [`SimulateError::TooLarge`] for more than
/// [`Simulation::MAX_SIMULATIONS`](super::Simulation::MAX_SIMULATIONS),
/// [`SimulateError::InvalidParameter`] for an empty grid;
/// the first simulation error of a point that runs. Points whose
/// configuration is invalid are listed in [`Sweep::skipped`], not errors.
///
/// # Complexity
/// O(|α|·|n_b|·S) simulations, on the crate's number of threads
/// ([`crate::current_threads`]).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::BallotConfig;
/// use adaptive_comp_metrics::simulate::{sweep, Metric, Simulation, Underlying};
/// let config = BallotConfig::new(200, 10, 0.5, 3)?;
/// let base = Simulation::new(Underlying::exponential(200)?, config)?.n_voters(20)?;
/// let s = sweep(&base, 3_000, &[0.3, 0.5], &[2, 4], &Metric::rho_w(), 4, 7)?;
/// assert_eq!(s.points.len() + s.skipped.len(), 4);
/// let best = s.best_point().expect("some point ran");
/// assert!(best.comparisons <= 3_000);
/// assert!(s.indistinguishable_from_best(2.0).contains(&s.best.unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Reference: Lombardo et al. (2020) §2.7 (the trade-off between α and M
/// left open there).
#[allow(clippy::too_many_arguments)]
pub fn sweep(
    base: &Simulation,
    budget: u64,
    alphas: &[f64],
    n_ballots: &[usize],
    metric: &Metric,
    simulations: usize,
    seed: u64,
) -> Result<Sweep> {
    check_simulations(simulations)?;
    if alphas.is_empty() || n_ballots.is_empty() {
        return Err(SimulateError::InvalidParameter {
            name: "grid",
            expected: "at least one α and one n_b",
        });
    }
    let threads = crate::current_threads().count();
    let (truth, true_ranking) = base.truth();
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    for &alpha in alphas {
        for &nb in n_ballots {
            let sim = match base.with_budget(budget, alpha, nb) {
                Ok(sim) => sim,
                Err(e) => {
                    skipped.push(Skipped {
                        alpha,
                        n_ballots: nb,
                        reason: e.to_string(),
                    });
                    continue;
                }
            };
            let rows = par_map(simulations, threads, |i, s| {
                sim.adaptive_value(seed, i, s, metric, &truth, &true_ranking)
            })?;
            let values: Vec<f64> = rows.iter().map(|r| r.0).collect();
            points.push(SweepPoint {
                alpha,
                n_ballots: nb,
                m: sim.config().m(),
                comparisons: rows.first().map_or(0, |r| r.1),
                summary: Summary::of(&values)?,
            });
        }
    }
    let best = points
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.summary.mean.total_cmp(&b.1.summary.mean))
        .map(|(i, _)| i);
    Ok(Sweep {
        metric: metric.name().to_owned(),
        budget,
        points,
        skipped,
        best,
    })
}
