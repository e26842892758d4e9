//! Which system is better, and how sure: k systems (rankers, embedding
//! models, substitution systems) compared on the same units, every pair or
//! each against a baseline, with paired tests, multiple-testing
//! corrections, intervals and effect sizes; and many systems over many
//! benchmarks with Friedman's test and Nemenyi's critical difference.
//!
//! | question | where |
//! |---|---|
//! | k systems scored per unit (queries, instances): which differences are real? | [`Compare::units`] on a [`ScoreTable`] |
//! | k models' coefficients against one human ranking (ρ, ρ_w, τ_w, …) | [`Compare::coefficients`] |
//! | adjusted p-values of any list of p-values (statsmodels' `multipletests`) | [`adjust`], [`Correction`] |
//! | many systems on many benchmarks: average ranks, critical difference, groups | [`friedman`] |
//!
//! The tests, for per-unit scores xᵢₐ and differences dᵢ = xᵢₐ − xᵢ_b:
//!
//! | [`Test`] | statistic | p-value | reference |
//! |---|---|---|---|
//! | [`Test::PairedT`] | t = d̄/(s/√n) | Student's t, n − 1 df | SciPy `ttest_rel` |
//! | [`Test::Wilcoxon`] | R⁺, R⁻ | exact / permutation / normal, SciPy's zero and tie handling | SciPy `wilcoxon` |
//! | [`Test::Randomisation`] | d̄ | all 2ⁿ sign flips for n ≤ [`Compare::exact_up_to`], else (b + 1)/(m + 1) over m random ones | Fisher (1935); Smucker et al. (2007) |
//! | [`Test::Bootstrap`] | d̄ | the shift method over B paired resamples | Efron & Tibshirani (1993), §16.4 |
//!
//! For coefficients over all items (a model's ρ_w against the human
//! scores) the per-unit tests do not apply: [`Test::Randomisation`] is the
//! paired permutation test that swaps the two models' scores (or ranks) on
//! each item ([`Permutations::paired`](super::Permutations::paired)), and
//! [`Test::Bootstrap`] the paired bootstrap (items resampled jointly).
//!
//! Every p-value of a comparison is then adjusted by the [`Correction`]
//! (Holm by default) over its pairs; [`correct_jointly`] adjusts over
//! several comparisons at once (several measures or benchmarks). Intervals
//! are Student's for per-unit means, the paired bootstrap's (percentile or
//! BCa) otherwise or when asked.
//!
//! # Reproducibility and threads
//! Random draws come from one seed (`…_seeded(…, seed)`, or one `u64` per
//! stage drawn from the caller's generator): resample and permutation k
//! draw from ChaCha8 stream k, results are combined in index order, so a
//! comparison is the same, bit for bit, on any number of threads. The
//! resamples and the random sign vectors are shared by all pairs (each
//! pair's test is still exactly its own; see the `randomisation` and
//! `resample` notes in the docs of [`Test`]), so k systems cost one pass
//! over the units per replicate, not k(k − 1)/2.
//!
//! # Example
//! ```
//! use adaptive_comp_metrics::uncertainty::compare::{Compare, Correction, ScoreTable, Test};
//! // Average precision of three runs on eight queries.
//! let table = ScoreTable::from_columns(&[
//!     ("bm25", [0.31, 0.45, 0.12, 0.60, 0.25, 0.33, 0.48, 0.05]),
//!     ("dense", [0.52, 0.61, 0.30, 0.71, 0.41, 0.55, 0.66, 0.20]),
//!     ("hybrid", [0.50, 0.63, 0.29, 0.75, 0.44, 0.52, 0.70, 0.22]),
//! ])?;
//! let c = Compare::new().test(Test::Randomisation).correction(Correction::Holm).units_seeded(&table, 7)?;
//! let dense_vs_bm25 = c.pair(0, 1).unwrap();
//! assert!(dense_vs_bm25.difference < 0.0 && dense_vs_bm25.reject);
//! // 8 queries: all 2⁸ sign flips are enumerated; dense wins on every query.
//! assert_eq!(dense_vs_bm25.p_value, 2.0 / 256.0);
//! assert_eq!(c.better_than(1), [0]);
//! # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
//! ```
//!
//! # References
//! - R. A. Fisher (1935). *The design of experiments.*
//! - M. D. Smucker, J. Allan, B. Carterette (2007). A comparison of
//!   statistical significance tests for information retrieval evaluation. CIKM.
//! - J. Demšar (2006). Statistical comparisons of classifiers over multiple
//!   data sets. *JMLR* 7, 1–30.
//! - D. Lakens (2013). Calculating and reporting effect sizes. *Frontiers in
//!   Psychology* 4, 863 (d_z, g_z).
//! - SciPy (`ttest_rel`, `wilcoxon`, `friedmanchisquare`, `bootstrap`),
//!   statsmodels (`multipletests`), R (`p.adjust`).

mod dist;
mod error;
mod friedman;
mod multitest;
mod randomisation;
mod render;
mod resample;
mod result;
mod table;
mod ttest;
mod wilcoxon;

pub use error::CompareError;
pub use friedman::{Friedman, friedman};
pub use multitest::{Adjusted, Correction, adjust};
pub use render::Cells;
pub use result::{
    Bounds, Comparison, Effect, IntervalMethod, PValueMethod, PairComparison, Settings,
    SystemSummary, WinTieLoss,
};
pub use table::{Missing, ScoreTable};
pub use wilcoxon::{Wilcoxon, WilcoxonMethod, ZeroMethod};

use super::engine::{self, replicate_rng};
use super::paired::Exchange;
use super::permutation::Permutations;
use super::statistic::Statistic;
use super::{Alternative, Interval, Threads, UncertaintyError, seeded_rng};
use rand::{Rng, RngExt};
use randomisation::Counts;
use resample::IntervalSpec;

/// The test of each pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Test {
    /// The paired t-test (per-unit scores).
    PairedT,
    /// Wilcoxon's signed-rank test (per-unit scores).
    Wilcoxon(Wilcoxon),
    /// Fisher's randomisation test: sign flips of the per-unit differences
    /// (exact for few units), or, for coefficients, the paired permutation
    /// test. The default.
    #[default]
    Randomisation,
    /// The paired bootstrap test (shift method).
    Bootstrap,
}

impl Test {
    /// The test's name: `t`, `wilcoxon`, `randomisation`, `bootstrap`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::PairedT => "t",
            Self::Wilcoxon(_) => "wilcoxon",
            Self::Randomisation => "randomisation",
            Self::Bootstrap => "bootstrap",
        }
    }
}

/// Which pairs are compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Pairs {
    /// Every pair (i, j), i < j: k(k − 1)/2 comparisons.
    #[default]
    All,
    /// Every other system against the system with this index: k − 1
    /// comparisons, differences other − baseline.
    Baseline(usize),
}

/// The settings of a comparison: test, alternative, correction, α,
/// interval, replicates, pairs, threads. Build one with [`Compare::new`]
/// and its setters, then run it with [`units`](Self::units) or
/// [`coefficients`](Self::coefficients).
///
/// Defaults: the randomisation test, two-sided, Holm's correction at
/// α = 0.05, 95 % intervals (Student's for per-unit means; BCa bootstrap
/// for coefficients and for the bootstrap test), 10 000 permutations or
/// resamples, every pair, exact enumeration up to 20 units, all cores.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Compare {
    test: Test,
    alternative: Alternative,
    correction: Correction,
    alpha: f64,
    level: f64,
    interval: Option<IntervalMethod>,
    replicates: usize,
    max_replicates: usize,
    pairs: Pairs,
    exact_up_to: usize,
    exchange: Exchange,
    threads: Threads,
}

impl Default for Compare {
    fn default() -> Self {
        Self::new()
    }
}

/// The largest number of bootstrap values kept (resamples × systems): 1 GiB.
const MAX_BOOTSTRAP_VALUES: usize = 1 << 27;

impl Compare {
    /// The default number of permutations or resamples.
    pub const DEFAULT_REPLICATES: usize = 10_000;

    /// The default of [`exact_up_to`](Self::exact_up_to).
    pub const DEFAULT_EXACT_UP_TO: usize = 20;

    /// The defaults (see [`Compare`]).
    #[must_use]
    pub fn new() -> Self {
        Self {
            test: Test::Randomisation,
            alternative: Alternative::TwoSided,
            correction: Correction::Holm,
            alpha: 0.05,
            level: 0.95,
            interval: None,
            replicates: Self::DEFAULT_REPLICATES,
            max_replicates: Permutations::DEFAULT_MAX_REPLICATES,
            pairs: Pairs::All,
            exact_up_to: Self::DEFAULT_EXACT_UP_TO,
            exchange: Exchange::Ranks,
            threads: Threads::Available,
        }
    }

    /// Sets the test.
    #[must_use]
    pub fn test(mut self, test: Test) -> Self {
        self.test = test;
        self
    }

    /// Sets the alternative hypothesis (about θ(a) − θ(b)); intervals are
    /// one-sided for a one-sided alternative.
    #[must_use]
    pub fn alternative(mut self, alternative: Alternative) -> Self {
        self.alternative = alternative;
        self
    }

    /// Sets the multiple-testing correction over the pairs.
    #[must_use]
    pub fn correction(mut self, correction: Correction) -> Self {
        self.correction = correction;
        self
    }

    /// Sets α, the level of the reject decisions (checked when run: in (0, 1)).
    #[must_use]
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// Sets the intervals' confidence level (checked when run: in (0, 1)).
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// Sets how intervals are computed (default: Student's for per-unit
    /// means, unless the test is the bootstrap; BCa bootstrap otherwise).
    #[must_use]
    pub fn interval(mut self, interval: IntervalMethod) -> Self {
        self.interval = Some(interval);
        self
    }

    /// Sets the number of random permutations or bootstrap resamples.
    #[must_use]
    pub fn replicates(mut self, replicates: usize) -> Self {
        self.replicates = replicates;
        self
    }

    /// Sets the most replicates accepted (default 2²⁷); more is refused
    /// with [`UncertaintyError::TooLarge`] before any work.
    #[must_use]
    pub fn max_replicates(mut self, limit: usize) -> Self {
        self.max_replicates = limit;
        self
    }

    /// Sets which pairs are compared.
    #[must_use]
    pub fn pairs(mut self, pairs: Pairs) -> Self {
        self.pairs = pairs;
        self
    }

    /// Sets the most units for which the randomisation test enumerates all
    /// 2ⁿ sign flips (default 20; at most 60). It meets in the middle, so
    /// its cost is about 2^(n/2)·n a pair.
    #[must_use]
    pub fn exact_up_to(mut self, units: usize) -> Self {
        self.exact_up_to = units.min(60);
        self
    }

    /// Sets what the paired permutation test of coefficients swaps (default
    /// ranks; see [`Exchange`]).
    #[must_use]
    pub fn exchange(mut self, exchange: Exchange) -> Self {
        self.exchange = exchange;
        self
    }

    /// Sets the number of threads (results do not depend on it).
    #[must_use]
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// The settings as a result records them, with the interval method
    /// resolved for per-unit scores (`units`) or coefficients.
    fn settings(&self, units: bool) -> Settings {
        let interval = self.interval.unwrap_or(match (units, self.test) {
            (true, Test::Bootstrap) | (false, _) => IntervalMethod::Bootstrap(Interval::Bca),
            (true, _) => IntervalMethod::Student,
        });
        Settings {
            test: self.test,
            alternative: self.alternative,
            correction: self.correction,
            alpha: self.alpha,
            level: self.level,
            interval,
            replicates: self.replicates,
            pairs: self.pairs,
        }
    }

    /// The pairs (a, b) to compare among k systems.
    fn pair_list(&self, k: usize) -> Result<Vec<(usize, usize)>, CompareError> {
        if k < 2 {
            return Err(CompareError::TooFewSystems { needed: 2, got: k });
        }
        Ok(match self.pairs {
            Pairs::All => (0..k)
                .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
                .collect(),
            Pairs::Baseline(base) if base < k => {
                (0..k).filter(|&a| a != base).map(|a| (a, base)).collect()
            }
            Pairs::Baseline(index) => {
                return Err(CompareError::InvalidBaseline { index, systems: k });
            }
        })
    }

    /// Checks α, the level, and the replicates a run will draw.
    fn check(&self, settings: &Settings, k: usize) -> Result<(), CompareError> {
        multitest::check_alpha(self.alpha)?;
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(UncertaintyError::InvalidLevel { level: self.level }.into());
        }
        let resampling = matches!(settings.interval, IntervalMethod::Bootstrap(_))
            || self.test == Test::Bootstrap;
        if resampling {
            engine::check_count("resamples", 2, self.replicates, self.max_replicates)?;
            if self.replicates.saturating_mul(k) > MAX_BOOTSTRAP_VALUES {
                return Err(UncertaintyError::TooLarge {
                    quantity: "bootstrap values (resamples × systems)",
                    requested: self.replicates.saturating_mul(k) as u64,
                    limit: MAX_BOOTSTRAP_VALUES as u64,
                }
                .into());
            }
        }
        if self.test == Test::Randomisation {
            engine::check_count("permutations", 1, self.replicates, self.max_replicates)?;
        }
        Ok(())
    }

    /// Compares the systems of `table` on their per-unit scores: each
    /// system's mean, and each pair's mean difference with its test,
    /// interval, effect sizes and corrected decision. Draws one `u64` seed
    /// from `rng` for the test and one for the intervals.
    ///
    /// # Errors
    /// [`CompareError::TooFewSystems`] for k < 2;
    /// [`CompareError::TooFewUnits`] for n < 2 with the t-test, n < 1
    /// otherwise (with one unit, Student intervals are `None`); [`CompareError::InvalidAlpha`],
    /// [`UncertaintyError::InvalidLevel`], too few or too many replicates
    /// ([`UncertaintyError::TooFewReplicates`],
    /// [`UncertaintyError::TooLarge`]), an invalid baseline; the exact
    /// Wilcoxon distribution beyond [`Wilcoxon::MAX_EXACT`] units.
    ///
    /// # Complexity
    /// O(k·n) for the means; per pair O(n) (t), O(n log n) (Wilcoxon
    /// normal; O(n³) exact), O(2^(n/2)·n) (exact randomisation); shared by
    /// all pairs O(m·n·k) for m random sign vectors or resamples, then
    /// O(m) a pair. Memory O(n·k + B·k) for B resamples.
    ///
    /// # Examples
    /// See the [module docs](self).
    pub fn units<R: Rng + ?Sized>(
        &self,
        table: &ScoreTable,
        rng: &mut R,
    ) -> Result<Comparison, CompareError> {
        let test_seed: u64 = rng.random();
        let interval_seed: u64 = rng.random();
        let settings = self.settings(true);
        let (k, n) = (table.systems(), table.units());
        let pairs = self.pair_list(k)?;
        self.check(&settings, k)?;
        let needed = if self.test == Test::PairedT { 2 } else { 1 };
        if n < needed {
            return Err(CompareError::TooFewUnits {
                method: if needed == 2 {
                    "the paired t-test"
                } else {
                    "a comparison"
                },
                needed,
                got: n,
            });
        }
        // The scores system by system: column a is columns[a·n..(a + 1)·n].
        let columns: Vec<f64> = (0..k).flat_map(|s| table.column(s)).collect();
        let column = |a: usize| &columns[a * n..(a + 1) * n];
        let means: Vec<f64> = (0..k)
            .map(|a| crate::sum::neumaier(column(a).iter().copied()) / n as f64)
            .collect();
        let abs_sums: Vec<f64> = (0..k)
            .map(|a| column(a).iter().map(|x| x.abs()).sum())
            .collect();
        let spec = IntervalSpec {
            level: self.level,
            interval: match settings.interval {
                IntervalMethod::Bootstrap(i) => i,
                IntervalMethod::Student => Interval::Percentile,
            },
            alternative: self.alternative,
        };
        // The bootstrap, shared: every system's mean on every resample.
        let resamples = self.replicates;
        let boot = (matches!(settings.interval, IntervalMethod::Bootstrap(_))
            || self.test == Test::Bootstrap)
            .then(|| {
                resample::matrix(n, k, resamples, interval_seed, self.threads, |idx, out| {
                    out.fill(0.0);
                    for &i in idx {
                        for (o, x) in out.iter_mut().zip(table.row(i)) {
                            *o += x;
                        }
                    }
                    out.iter_mut().for_each(|o| *o /= n as f64);
                })
            });
        let boot_of = |a: usize| {
            boot.as_deref()
                .map(|m| &m[a * resamples..(a + 1) * resamples])
        };
        let student = |x: &[f64]| {
            (n >= 2).then(|| Bounds::new(ttest::student_interval(x, self.level, self.alternative)))
        };
        let workers = self.threads.count();
        // Systems.
        let systems: Vec<SystemSummary> = crate::threads::map((0..k).collect(), workers, |s| {
            let interval = match (settings.interval, boot_of(s)) {
                (IntervalMethod::Bootstrap(_), Some(values)) => resample::summarise(
                    values.to_vec(),
                    means[s],
                    randomisation::tolerance(abs_sums[s] / n as f64),
                    spec,
                    || Ok(leave_one_out_means(column(s))),
                )
                .interval
                .ok()
                .map(Bounds::new),
                _ => student(column(s)),
            };
            SystemSummary {
                name: table.names()[s].clone(),
                estimate: means[s],
                interval,
            }
        });
        // Randomisation: exact per pair, or random sign vectors shared by all.
        let exact = n <= self.exact_up_to;
        let flips: Vec<Counts> = if self.test == Test::Randomisation && !exact {
            let tols: Vec<f64> = pairs
                .iter()
                .map(|&(a, b)| randomisation::tolerance(abs_sums[a] + abs_sums[b]))
                .collect();
            self.monte_carlo(&columns, n, k, &pairs, &tols, test_seed)
        } else {
            Vec::new()
        };
        let jobs: Vec<(usize, (usize, usize))> = pairs.iter().copied().enumerate().collect();
        let out = crate::threads::map(jobs, workers, |(i, (a, b))| {
            let d: Vec<f64> = column(a)
                .iter()
                .zip(column(b))
                .map(|(x, y)| x - y)
                .collect();
            let difference = means[a] - means[b];
            let boot_pair = match (boot_of(a), boot_of(b)) {
                (Some(va), Some(vb)) => Some(resample::summarise(
                    va.iter().zip(vb).map(|(x, y)| x - y).collect(),
                    difference,
                    randomisation::tolerance((abs_sums[a] + abs_sums[b]) / n as f64),
                    spec,
                    || Ok(leave_one_out_means(&d)),
                )),
                _ => None,
            };
            let interval = match settings.interval {
                IntervalMethod::Student => student(&d),
                IntervalMethod::Bootstrap(_) => {
                    boot_pair.and_then(|r| r.interval.ok()).map(Bounds::new)
                }
            };
            let (statistic, p_value, method) = match self.test {
                Test::PairedT => {
                    let t = ttest::paired_t(&d, self.alternative);
                    (t.t, t.p, PValueMethod::StudentT { df: t.df })
                }
                Test::Wilcoxon(options) => {
                    let w = wilcoxon::signed_rank(&d, options, self.alternative)?;
                    let statistic = if self.alternative == Alternative::TwoSided {
                        w.r_plus.min(w.r_minus)
                    } else {
                        w.r_plus
                    };
                    let z = (w.method == WilcoxonMethod::Asymptotic).then_some(w.z);
                    let method = PValueMethod::Wilcoxon {
                        method: w.method,
                        r_plus: w.r_plus,
                        r_minus: w.r_minus,
                        z,
                    };
                    (statistic, w.p, method)
                }
                Test::Randomisation => {
                    let counts = if exact {
                        let tol = randomisation::tolerance(abs_sums[a] + abs_sums[b]);
                        randomisation::exact_counts(&d, tol)
                    } else {
                        flips[i]
                    };
                    let (p, se) = randomisation::p_value(counts, exact, self.alternative);
                    let method = match se {
                        Some(standard_error) => PValueMethod::MonteCarlo {
                            replicates: counts.total,
                            standard_error,
                        },
                        None => PValueMethod::Exact {
                            assignments: counts.total,
                        },
                    };
                    (difference, p, method)
                }
                Test::Bootstrap => {
                    let counts = boot_pair.map_or(Counts::default(), |r| r.counts);
                    let (p, se) = randomisation::p_value(counts, false, self.alternative);
                    let method = PValueMethod::MonteCarlo {
                        replicates: counts.total,
                        standard_error: se.unwrap_or(0.0),
                    };
                    (difference, p, method)
                }
            };
            let (cohens_dz, hedges_gz) = ttest::effect_sizes(&d);
            let wins = d.iter().filter(|&&x| x > 0.0).count();
            let losses = d.iter().filter(|&&x| x < 0.0).count();
            Ok(PairComparison {
                a,
                b,
                difference,
                interval,
                effect: Some(Effect {
                    cohens_dz,
                    hedges_gz,
                }),
                record: Some(WinTieLoss {
                    wins,
                    ties: n - wins - losses,
                    losses,
                }),
                statistic,
                p_value,
                method,
                adjusted_p_value: p_value,
                reject: false,
            })
        })
        .into_iter()
        .collect::<Result<Vec<_>, CompareError>>()?;
        let mut comparison = Comparison {
            statistic: "mean".to_owned(),
            units: n,
            systems,
            pairs: out,
            settings,
        };
        correct_jointly(
            core::slice::from_mut(&mut comparison),
            self.correction,
            self.alpha,
        )?;
        Ok(comparison)
    }

    /// [`units`](Self::units) with a seed in place of the generator: the
    /// same result for a seed on any number of threads and in every release.
    ///
    /// # Errors
    /// As [`units`](Self::units).
    ///
    /// # Complexity
    /// As [`units`](Self::units).
    ///
    /// # Examples
    /// See the [module docs](self).
    pub fn units_seeded(&self, table: &ScoreTable, seed: u64) -> Result<Comparison, CompareError> {
        self.units(table, &mut seeded_rng(seed))
    }

    /// The Monte-Carlo counts of every pair from shared random sign
    /// vectors (`columns`: k columns of n scores, one after another).
    fn monte_carlo(
        &self,
        columns: &[f64],
        n: usize,
        k: usize,
        pairs: &[(usize, usize)],
        tols: &[f64],
        seed: u64,
    ) -> Vec<Counts> {
        let mut observed = vec![0.0; k];
        randomisation::signed_sums(columns, &vec![1.0; n], &mut observed);
        let mut counts = vec![
            Counts {
                total: self.replicates as u64,
                ..Counts::default()
            };
            pairs.len()
        ];
        let Ok(()) = engine::for_each(
            self.replicates,
            seed,
            self.threads,
            || vec![0.0; n],
            |signs, _, rng| {
                let mut sums = vec![0.0; k];
                randomisation::random_sums(columns, rng, signs, &mut sums);
                sums
            },
            |_, sums| {
                for ((c, &(a, b)), &tol) in counts.iter_mut().zip(pairs).zip(tols) {
                    let t = sums[a] - sums[b];
                    let obs = observed[a] - observed[b];
                    c.at_least += u64::from(t >= obs - tol);
                    c.at_most += u64::from(t <= obs + tol);
                }
                Ok::<(), core::convert::Infallible>(())
            },
        );
        counts
    }

    /// Compares k models by a coefficient `statistic` of each model's
    /// scores (a column of `models`, one row per item) against the same
    /// `human` scores: each model's coefficient with its bootstrap
    /// interval, and each pair's difference of coefficients with the paired
    /// permutation test ([`Test::Randomisation`]) or the paired bootstrap
    /// test ([`Test::Bootstrap`]) and the paired bootstrap interval, items
    /// resampled jointly. Draws one `u64` seed from `rng` for the tests and
    /// one for the intervals.
    ///
    /// # Errors
    /// [`CompareError::NotApplicable`] for the t-test, Wilcoxon's test or
    /// Student intervals (per-unit methods);
    /// [`CompareError::LengthMismatch`] when `human` and `models` differ in
    /// items; [`UncertaintyError::TooFewItems`] for n < 3; NaN or infinite
    /// human scores; a coefficient undefined on the observed data; as
    /// [`units`](Self::units) for the options.
    ///
    /// # Complexity
    /// k(B + n) evaluations of the statistic (n for BCa), plus 2(m + 1) a
    /// pair for the permutation test.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable};
    /// use adaptive_comp_metrics::uncertainty::Spearman;
    /// let human: Vec<f64> = (0..40).map(f64::from).collect();
    /// let noisy = |amp: f64| -> Vec<f64> { human.iter().map(|h| h + amp * (h * 1.7).sin()).collect() };
    /// let models = ScoreTable::from_columns(&[("good", noisy(2.0)), ("poor", noisy(40.0))])?;
    /// let c = Compare::new().replicates(999).coefficients_seeded(&Spearman, &human, &models, 3)?;
    /// let p = &c.pairs[0];
    /// assert!(p.difference > 0.0 && p.reject && p.interval.unwrap().lower > 0.0);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
    /// ```
    pub fn coefficients<S, R>(
        &self,
        statistic: &S,
        human: &[f64],
        models: &ScoreTable,
        rng: &mut R,
    ) -> Result<Comparison, CompareError>
    where
        S: Statistic + ?Sized,
        R: Rng + ?Sized,
    {
        let test_seed: u64 = rng.random();
        let interval_seed: u64 = rng.random();
        let settings = self.settings(false);
        match (self.test, settings.interval) {
            (Test::PairedT | Test::Wilcoxon(_), _) => {
                return Err(CompareError::NotApplicable {
                    what: "a per-unit test",
                    reason: "a coefficient over all items has no per-unit scores: use the \
                             randomisation (paired permutation) or the bootstrap test",
                });
            }
            (_, IntervalMethod::Student) => {
                return Err(CompareError::NotApplicable {
                    what: "a Student interval",
                    reason: "a coefficient over all items is not a mean: use a bootstrap interval",
                });
            }
            _ => {}
        }
        let (k, n) = (models.systems(), models.units());
        let pairs = self.pair_list(k)?;
        self.check(&settings, k)?;
        if human.len() != n {
            return Err(CompareError::LengthMismatch {
                system: "human".to_owned(),
                len: human.len(),
                expected: n,
            });
        }
        super::check_len(n)?;
        crate::error::check_finite("human", human)?;
        let columns: Vec<Vec<f64>> = (0..k).map(|s| models.column(s)).collect();
        let values: Vec<f64> = columns
            .iter()
            .map(|c| super::permutation::finite(statistic.value(human, c)))
            .collect::<Result<_, _>>()?;
        let IntervalMethod::Bootstrap(kind) = settings.interval else {
            unreachable!("Student intervals are refused above");
        };
        let spec = IntervalSpec {
            level: self.level,
            interval: kind,
            alternative: self.alternative,
        };
        let on = |idx: &[usize], a: usize| -> f64 {
            let h: Vec<f64> = idx.iter().map(|&i| human[i]).collect();
            let m: Vec<f64> = idx.iter().map(|&i| columns[a][i]).collect();
            super::permutation::finite(statistic.value(&h, &m)).unwrap_or(f64::NAN)
        };
        let boot = resample::matrix(
            n,
            k,
            self.replicates,
            interval_seed,
            self.threads,
            |idx, out| {
                for (a, o) in out.iter_mut().enumerate() {
                    *o = on(idx, a);
                }
            },
        );
        // Leave-one-out coefficients of every model, computed once, for BCa.
        let jack: Option<Vec<f64>> = (kind == Interval::Bca).then(|| {
            resample::matrix_jackknife(n, k, self.threads, |idx, out| {
                for (a, o) in out.iter_mut().enumerate() {
                    *o = on(idx, a);
                }
            })
        });
        let tol = |v: f64| 1e-12 * v.abs().max(1.0);
        let systems: Vec<SystemSummary> = (0..k)
            .map(|s| {
                let column = boot[s * self.replicates..(s + 1) * self.replicates].to_vec();
                let r = resample::summarise(column, values[s], tol(values[s]), spec, || {
                    jackknife_of(jack.as_deref(), k, |r| r[s])
                });
                SystemSummary {
                    name: models.names()[s].clone(),
                    estimate: values[s],
                    interval: r.interval.ok().map(Bounds::new),
                }
            })
            .collect();
        let mut out = Vec::with_capacity(pairs.len());
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let difference = values[a] - values[b];
            let (va, vb) = (
                &boot[a * self.replicates..(a + 1) * self.replicates],
                &boot[b * self.replicates..(b + 1) * self.replicates],
            );
            let column: Vec<f64> = va.iter().zip(vb).map(|(x, y)| x - y).collect();
            let r = resample::summarise(column, difference, tol(difference), spec, || {
                jackknife_of(jack.as_deref(), k, |r| r[a] - r[b])
            });
            let interval = r.interval.ok().map(Bounds::new);
            let (p_value, method) = match self.test {
                Test::Bootstrap => {
                    let (p, se) = randomisation::p_value(r.counts, false, self.alternative);
                    (
                        p,
                        PValueMethod::MonteCarlo {
                            replicates: r.counts.total,
                            standard_error: se.unwrap_or(0.0),
                        },
                    )
                }
                _ => {
                    let t = Permutations::new(self.replicates)
                        .alternative(self.alternative)
                        .exchange(self.exchange)
                        .threads(self.threads)
                        .max_replicates(self.max_replicates)
                        .paired(
                            statistic,
                            human,
                            &columns[a],
                            &columns[b],
                            &mut replicate_rng(test_seed, i),
                        )?;
                    (
                        t.p_value,
                        PValueMethod::MonteCarlo {
                            replicates: t.permutations as u64,
                            standard_error: t.standard_error,
                        },
                    )
                }
            };
            out.push(PairComparison {
                a,
                b,
                difference,
                interval,
                effect: None,
                record: None,
                statistic: difference,
                p_value,
                method,
                adjusted_p_value: p_value,
                reject: false,
            });
        }
        let mut comparison = Comparison {
            statistic: "coefficient".to_owned(),
            units: n,
            systems,
            pairs: out,
            settings,
        };
        correct_jointly(
            core::slice::from_mut(&mut comparison),
            self.correction,
            self.alpha,
        )?;
        Ok(comparison)
    }

    /// [`coefficients`](Self::coefficients) with a seed in place of the
    /// generator.
    ///
    /// # Errors
    /// As [`coefficients`](Self::coefficients).
    ///
    /// # Complexity
    /// As [`coefficients`](Self::coefficients).
    ///
    /// # Examples
    /// See [`coefficients`](Self::coefficients).
    pub fn coefficients_seeded<S: Statistic + ?Sized>(
        &self,
        statistic: &S,
        human: &[f64],
        models: &ScoreTable,
        seed: u64,
    ) -> Result<Comparison, CompareError> {
        self.coefficients(statistic, human, models, &mut seeded_rng(seed))
    }
}

/// The leave-one-out means of `x` (x̄ without item i), for BCa.
fn leave_one_out_means(x: &[f64]) -> Vec<f64> {
    let total = crate::sum::neumaier(x.iter().copied());
    let m = (x.len() as f64 - 1.0).max(1.0);
    x.iter().map(|v| (total - v) / m).collect()
}

/// The leave-one-out values `f(row)` of a jackknife matrix (n rows of k).
fn jackknife_of(
    jack: Option<&[f64]>,
    k: usize,
    f: impl Fn(&[f64]) -> f64,
) -> Result<Vec<f64>, UncertaintyError> {
    let theta: Vec<f64> = jack.unwrap_or_default().chunks_exact(k).map(f).collect();
    if let Some(left_out) = theta.iter().position(|t| t.is_nan()) {
        return Err(UncertaintyError::Jackknife {
            left_out,
            source: crate::error::Error::Undefined {
                reason: "the statistic is undefined without this item",
            },
        });
    }
    Ok(theta)
}

/// Adjusts the p-values of every pair of every comparison together (one
/// family: several measures, benchmarks or coefficients), and sets each
/// pair's adjusted p-value and decision, and the comparisons' settings.
///
/// # Errors
/// [`CompareError::InvalidAlpha`].
///
/// # Complexity
/// As [`adjust`] over all pairs.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::compare::{correct_jointly, Compare, Correction, ScoreTable, Test};
/// let ap = ScoreTable::from_columns(&[("a", [0.1, 0.4, 0.3, 0.8]), ("b", [0.2, 0.5, 0.2, 0.9])])?;
/// let p10 = ScoreTable::from_columns(&[("a", [0.1, 0.3, 0.3, 0.6]), ("b", [0.2, 0.4, 0.3, 0.7])])?;
/// let t = Compare::new().test(Test::PairedT);
/// let mut both = [t.units_seeded(&ap, 1)?, t.units_seeded(&p10, 1)?];
/// let raw = [both[0].pairs[0].p_value, both[1].pairs[0].p_value];
/// correct_jointly(&mut both, Correction::Bonferroni, 0.05)?;
/// assert_eq!(both[0].pairs[0].adjusted_p_value, (2.0 * raw[0]).min(1.0));
/// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
/// ```
pub fn correct_jointly(
    comparisons: &mut [Comparison],
    correction: Correction,
    alpha: f64,
) -> Result<(), CompareError> {
    let p: Vec<f64> = comparisons
        .iter()
        .flat_map(|c| c.pairs.iter().map(|p| p.p_value))
        .collect();
    let adjusted = adjust(&p, correction, alpha)?;
    let mut i = 0;
    for c in comparisons {
        c.settings.correction = correction;
        c.settings.alpha = alpha;
        for pair in &mut c.pairs {
            pair.adjusted_p_value = adjusted.p_values[i];
            pair.reject = adjusted.reject[i];
            i += 1;
        }
    }
    Ok(())
}
