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

mod coefficients;
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
mod units;
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

use super::engine;
use super::paired::Exchange;
use super::permutation::Permutations;
use super::{Alternative, Interval, Threads, UncertaintyError};

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
    /// The comparison of `systems` on `units` with its pairs' p-values
    /// adjusted by the chosen correction (what both kinds of comparison end
    /// with).
    fn finish(
        &self,
        statistic: &str,
        units: usize,
        systems: Vec<SystemSummary>,
        pairs: Vec<PairComparison>,
        settings: Settings,
    ) -> Result<Comparison, CompareError> {
        let mut comparison = Comparison {
            statistic: statistic.to_owned(),
            units,
            systems,
            pairs,
            settings,
        };
        correct_jointly(
            core::slice::from_mut(&mut comparison),
            self.correction,
            self.alpha,
        )?;
        Ok(comparison)
    }

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
