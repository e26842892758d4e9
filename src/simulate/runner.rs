//! Uniform against adaptive vote collection at equal budget, repeated over
//! seeded simulations in parallel (Lombardo et al. 2020, §4.2, Table 2).

use std::fmt;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::distributions::Underlying;
use super::error::{Result, SimulateError};
use super::models::{self, FitModel, Logged};
use super::stats::Summary;
use super::voter::{Choice, Crowd, VoterModel};
use crate::ballot::{
    BallotConfig, Comparison, Phase, Scheduler, UniformBudget, Unvoted, Vote, m_for_budget,
    spread_over_voters,
};

/// The two ways of spending the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Arm {
    /// Every item shown equally often (§2.4).
    Uniform,
    /// n_b ballots narrowing on the top (§2.5).
    Adaptive,
}

/// What a metric sees of one collection: the truth and the estimate, item
/// by item.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Estimate<'a> {
    /// True score of every item: |z_i| (relatedness) or z_i (similarity).
    pub truth: &'a [f64],
    /// Items by decreasing truth (ties by increasing index).
    pub true_ranking: &'a [usize],
    /// Estimated score of every item (x for uniform, ȳ at the last ballot
    /// reached for adaptive).
    pub scores: &'a [f64],
    /// Items by decreasing estimated score, ties in a random order drawn
    /// from the simulation's generator.
    pub ranking: &'a [usize],
}

impl<'a> Estimate<'a> {
    /// Bundles an estimate for [`Metric::eval`] outside a simulation.
    #[must_use]
    pub fn new(
        truth: &'a [f64],
        true_ranking: &'a [usize],
        scores: &'a [f64],
        ranking: &'a [usize],
    ) -> Self {
        Self {
            truth,
            true_ranking,
            scores,
            ranking,
        }
    }
}

/// A user metric: the estimate in, a number out.
pub type MetricFn = dyn Fn(&Estimate<'_>) -> crate::correlation::Result<f64> + Send + Sync;

#[derive(Clone)]
enum Kind {
    RhoW,
    TauW,
    Rho,
    Tau,
    Custom(Arc<MetricFn>),
}

/// A ranking-accuracy metric computed for each collection.
///
/// The built-ins compare the estimated scores with the truth item by item,
/// ties kept as ties (average ranks, τ-b tie correction):
///
/// ```text
/// rho_w  ρ_w(truth, scores)   Eq. 8, f(n) = 1/(n + 2)², additive weights (Eq. 9)
/// tau_w  τ_w(truth, scores)
/// rho    Spearman's ρ(truth, scores)
/// tau    Kendall's τ-b(truth, scores)
/// ```
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::simulate::{Estimate, Metric};
/// // Fraction of the true top 10 found in the estimated top 10.
/// let top10 = Metric::custom("top-10 recall", |e: &Estimate<'_>| {
///     let found = e.ranking[..10].iter().filter(|i| e.true_ranking[..10].contains(i)).count();
///     Ok(found as f64 / 10.0)
/// });
/// assert_eq!(top10.name(), "top-10 recall");
/// assert_eq!(Metric::rho_w().name(), "rho_w");
/// ```
#[derive(Clone)]
pub struct Metric {
    name: String,
    kind: Kind,
}

impl fmt::Debug for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metric").field("name", &self.name).finish()
    }
}

impl Metric {
    /// ρ_w of Eq. 8 (paper defaults).
    #[must_use]
    pub fn rho_w() -> Self {
        Self::builtin("rho_w", Kind::RhoW)
    }

    /// τ_w of Eq. 8 (paper defaults).
    #[must_use]
    pub fn tau_w() -> Self {
        Self::builtin("tau_w", Kind::TauW)
    }

    /// Spearman's ρ.
    #[must_use]
    pub fn rho() -> Self {
        Self::builtin("rho", Kind::Rho)
    }

    /// Kendall's τ-b.
    #[must_use]
    pub fn tau() -> Self {
        Self::builtin("tau", Kind::Tau)
    }

    /// The four metrics of Table 2: ρ_w, τ_w, ρ, τ.
    #[must_use]
    pub fn table2() -> Vec<Self> {
        vec![Self::rho_w(), Self::tau_w(), Self::rho(), Self::tau()]
    }

    /// Any closure over an [`Estimate`].
    pub fn custom<F>(name: impl Into<String>, f: F) -> Self
    where
        F: Fn(&Estimate<'_>) -> crate::correlation::Result<f64> + Send + Sync + 'static,
    {
        Self {
            name: name.into(),
            kind: Kind::Custom(Arc::new(f)),
        }
    }

    fn builtin(name: &str, kind: Kind) -> Self {
        Self {
            name: name.to_owned(),
            kind,
        }
    }

    /// The metric's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Evaluates the metric on one estimate.
    ///
    /// # Errors
    /// Whatever the metric reports (e.g. [`crate::CorrelationError::Constant`] for a
    /// constant estimate).
    pub fn eval(&self, e: &Estimate<'_>) -> crate::correlation::Result<f64> {
        match &self.kind {
            Kind::RhoW => Ok(crate::rho_w(e.truth, e.scores)?.rho),
            Kind::TauW => Ok(crate::tau_w(e.truth, e.scores)?.tau),
            Kind::Rho => Ok(crate::spearman(e.truth, e.scores)?.rho),
            Kind::Tau => Ok(crate::kendall_tau_b(e.truth, e.scores)?.tau),
            Kind::Custom(f) => f(e),
        }
    }
}

/// A built-in metric serialises as its name (`"rho_w"`, `"tau_w"`, `"rho"`,
/// `"tau"`); a custom one cannot be serialised (an error).
#[cfg(feature = "serde")]
impl serde::Serialize for Metric {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self.kind {
            Kind::Custom(_) => Err(serde::ser::Error::custom(format!(
                "the custom metric {:?} cannot be serialised",
                self.name
            ))),
            _ => s.serialize_str(&self.name),
        }
    }
}

/// Reads a built-in metric by name (a custom one cannot be deserialised).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Metric {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        match name.as_ref() {
            "rho_w" => Ok(Self::rho_w()),
            "tau_w" => Ok(Self::tau_w()),
            "rho" => Ok(Self::rho()),
            "tau" => Ok(Self::tau()),
            other => Err(serde::de::Error::custom(format!(
                "unknown metric {other:?}: only the built-in rho_w, tau_w, rho and tau deserialise"
            ))),
        }
    }
}

/// One collection's outcome.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Collected {
    /// Estimated score of every item.
    pub scores: Vec<f64>,
    /// Items by decreasing score, ties in random order.
    pub ranking: Vec<usize>,
    /// The last ballot (1-based) each item took part in.
    pub last_ballot: Vec<usize>,
    /// Number of comparisons (votes) collected.
    pub comparisons: u64,
}

/// Both collections of one simulation and their metric values.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Run {
    /// The uniform collection.
    pub uniform: Collected,
    /// The adaptive collection.
    pub adaptive: Collected,
    /// Metric values of the uniform collection, in metric order.
    pub uniform_values: Vec<f64>,
    /// Metric values of the adaptive collection, in metric order.
    pub adaptive_values: Vec<f64>,
    /// The fitted models ([`Simulation::models`]), in order.
    #[cfg_attr(feature = "serde", serde(default))]
    pub models: Vec<ModelRun>,
}

/// A model fitted to both collections of one simulation, and its metric
/// values.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ModelRun {
    /// The model.
    pub model: FitModel,
    /// Its fit of the uniform collection's votes.
    pub uniform: Collected,
    /// Its fit of the adaptive collection's votes.
    pub adaptive: Collected,
    /// Metric values of the uniform fit, in metric order.
    pub uniform_values: Vec<f64>,
    /// Metric values of the adaptive fit, in metric order.
    pub adaptive_values: Vec<f64>,
}

/// Mean ± SD of every metric for both arms of one fitted model over S
/// simulations (the same simulations, crowds and votes as the report's ȳ).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ModelReport {
    /// The model.
    pub model: FitModel,
    /// Per metric, its fit of the uniform collections.
    pub uniform: Vec<Summary>,
    /// Per metric, its fit of the adaptive collections.
    pub adaptive: Vec<Summary>,
}

/// Mean ± SD of every metric for both arms over S simulations.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Report {
    /// Number of simulations S.
    pub simulations: usize,
    /// The seed.
    pub seed: u64,
    /// Metric names, in order.
    pub metrics: Vec<String>,
    /// Per metric, the uniform arm.
    pub uniform: Vec<Summary>,
    /// Per metric, the adaptive arm.
    pub adaptive: Vec<Summary>,
    /// Comparisons per simulation: uniform.
    pub uniform_comparisons: u64,
    /// Comparisons per simulation: adaptive.
    pub adaptive_comparisons: u64,
    /// The fitted models ([`Simulation::models`]), in order: their metrics
    /// on the same votes.
    #[cfg_attr(feature = "serde", serde(default))]
    pub models: Vec<ModelReport>,
}

impl Report {
    /// The summary of `metric` for `arm`, if that metric was computed.
    #[must_use]
    pub fn get(&self, arm: Arm, metric: &str) -> Option<&Summary> {
        let i = self.metrics.iter().position(|m| m == metric)?;
        match arm {
            Arm::Uniform => self.uniform.get(i),
            Arm::Adaptive => self.adaptive.get(i),
        }
    }

    /// The summary of `metric` for `arm` under a fitted `model`, if both
    /// were computed.
    #[must_use]
    pub fn get_model(&self, model: FitModel, arm: Arm, metric: &str) -> Option<&Summary> {
        let i = self.metrics.iter().position(|m| m == metric)?;
        let r = self.models.iter().find(|r| r.model == model)?;
        match arm {
            Arm::Uniform => r.uniform.get(i),
            Arm::Adaptive => r.adaptive.get(i),
        }
    }
}

serde_mirror! {
    /// A simulated comparison of uniform and adaptive collection (§4.2).
    ///
    /// Each simulation s draws a fresh crowd (σ*_v, ε_v, η) and runs both
    /// collections with it, from a generator seeded by `(seed, s)` alone
    /// (ChaCha8, stream s), so results do not depend on the number of threads.
    #[derive(Debug, Clone)]
    pub struct Simulation {
        underlying: Underlying,
        voters: VoterModel,
        n_voters: usize,
        config: BallotConfig,
        uniform: UniformBudget,
        metrics: Vec<Metric>,
        models: Vec<FitModel>,
        model_prior_sd: f64,
    }
    read through "SimulationRepr"
}

/// The prior SD of the fitted models' scores unless set.
const MODEL_PRIOR_SD: f64 = 2.0;

#[cfg(feature = "serde")]
fn model_prior_sd_default() -> f64 {
    MODEL_PRIOR_SD
}

/// The unvalidated mirror of [`Simulation`] that serde reads, rebuilt with
/// [`Simulation::new`] and the builder methods (which validate).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct SimulationRepr {
    underlying: Underlying,
    voters: VoterModel,
    n_voters: usize,
    config: BallotConfig,
    uniform: UniformBudget,
    metrics: Vec<Metric>,
    #[serde(default)]
    models: Vec<FitModel>,
    #[serde(default = "model_prior_sd_default")]
    model_prior_sd: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<SimulationRepr> for Simulation {
    type Error = SimulateError;
    fn try_from(r: SimulationRepr) -> Result<Self> {
        Self::new(r.underlying, r.config)?
            .voters(r.voters)
            .n_voters(r.n_voters)?
            .uniform_budget(r.uniform)
            .metrics(r.metrics)
            .models(r.models)?
            .model_prior_sd(r.model_prior_sd)
    }
}

/// Per-thread buffers.
#[derive(Debug)]
pub(crate) struct Scratch {
    crowd: Crowd,
    comparisons: Vec<Comparison>,
    votes: Vec<Logged>,
}

impl Scratch {
    fn new() -> Self {
        Self {
            crowd: Crowd::empty(),
            comparisons: Vec::new(),
            votes: Vec::new(),
        }
    }
}

impl Simulation {
    /// The most simulations a run or a sweep accepts: 2²⁰ ≈ 10⁶ (Table 2
    /// uses 50). A run keeps every metric value of every simulation.
    pub const MAX_SIMULATIONS: usize = 1 << 20;

    /// The most voter-item opinions a crowd holds, voters × items: 2²⁷ ≈
    /// 1.3·10⁸ (one `f64` each, 1 GiB at the limit). Table 2's crowd holds
    /// 100 × 990.
    pub const MAX_OPINIONS: usize = 1 << 27;

    /// A simulation of the collection `config` on the items of
    /// `underlying`, with the paper's voters ([`VoterModel::paper`]), 100 of
    /// them, the uniform baseline at the same number of comparisons, and the
    /// metrics of Table 2.
    ///
    /// The scheduler's [`Options`](crate::ballot::Options) in `config`
    /// choose between the paper's text and the published code.
    ///
    /// # Errors
    /// [`SimulateError::ItemCount`] when `config` is not for as many items as
    /// `underlying` has.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Options};
    /// use adaptive_comp_metrics::simulate::{Simulation, Underlying};
    /// let table2 = BallotConfig::with_options(990, 20, 0.5, 7, Options::paper())?;
    /// let sim = Simulation::new(Underlying::exponential(990)?, table2)?;
    /// assert_eq!(sim.config().m(), 20);
    /// assert!(Simulation::new(Underlying::exponential(10)?, table2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(underlying: Underlying, config: BallotConfig) -> Result<Self> {
        if config.n_items() != underlying.len() {
            return Err(SimulateError::ItemCount {
                config: config.n_items(),
                underlying: underlying.len(),
            });
        }
        Ok(Self {
            underlying,
            voters: VoterModel::paper(),
            n_voters: 100,
            config,
            uniform: UniformBudget::SameComparisons,
            metrics: Metric::table2(),
            models: Vec::new(),
            model_prior_sd: MODEL_PRIOR_SD,
        })
    }

    /// A copy with α and n_b replaced and M the largest whose comparisons
    /// fit `budget` (the scheduler's [`m_for_budget`]).
    pub(crate) fn with_budget(&self, budget: u64, alpha: f64, n_ballots: usize) -> Result<Self> {
        let n = self.underlying.len();
        let options = self.config.options();
        let m = m_for_budget(n, alpha, n_ballots, options.rounding(), budget)?;
        let mut out = self.clone();
        out.config = BallotConfig::with_options(n, m, alpha, n_ballots, options)?;
        Ok(out)
    }

    /// The collection's configuration.
    #[must_use]
    pub fn config(&self) -> &BallotConfig {
        &self.config
    }

    /// Sets the voter model.
    #[must_use]
    pub fn voters(mut self, model: VoterModel) -> Self {
        self.voters = model;
        self
    }

    /// Sets the number of voters (100 in Table 2).
    ///
    /// # Errors
    /// [`SimulateError::InvalidParameter`] for zero voters;
    /// [`SimulateError::TooLarge`] when voters × items exceeds
    /// [`MAX_OPINIONS`](Self::MAX_OPINIONS).
    pub fn n_voters(mut self, n: usize) -> Result<Self> {
        check_crowd(n, self.underlying.len())?;
        self.n_voters = n;
        Ok(self)
    }

    /// Sets the uniform baseline's budget.
    #[must_use]
    pub fn uniform_budget(mut self, budget: UniformBudget) -> Self {
        self.uniform = budget;
        self
    }

    /// Sets the metrics (default: [`Metric::table2`]).
    #[must_use]
    pub fn metrics(mut self, metrics: Vec<Metric>) -> Self {
        self.metrics = metrics;
        self
    }

    /// Fits these models to the votes of both collections of every
    /// simulation, and evaluates them with the same metrics as the paper's
    /// estimator (default: none). The report's `uniform` and `adaptive`
    /// stay ȳ's (x's); [`Report::models`] holds the models'.
    ///
    /// # Errors
    /// [`SimulateError::InvalidParameter`] for a model named twice.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::BallotConfig;
    /// use adaptive_comp_metrics::simulate::{Arm, FitModel, Simulation, Underlying};
    /// let config = BallotConfig::new(60, 6, 0.5, 3)?;
    /// let sim = Simulation::new(Underlying::exponential(60)?, config)?
    ///     .n_voters(10)?
    ///     .models(vec![FitModel::Bt])?;
    /// let report = sim.run(4, 1)?;
    /// let bt = report.get_model(FitModel::Bt, Arm::Adaptive, "rho_w").unwrap();
    /// let y_bar = report.get(Arm::Adaptive, "rho_w").unwrap();
    /// assert!(bt.mean > 0.0 && y_bar.mean > 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn models(mut self, models: Vec<FitModel>) -> Result<Self> {
        for (i, m) in models.iter().enumerate() {
            if models[..i].contains(m) {
                return Err(SimulateError::InvalidParameter {
                    name: "models",
                    expected: "each model at most once",
                });
            }
        }
        self.models = models;
        Ok(self)
    }

    /// Sets the SD σ of the fitted models' Gaussian prior N(0, σ²) on the
    /// scores (default 2).
    ///
    /// # Errors
    /// [`SimulateError::InvalidParameter`] unless σ is finite and positive.
    pub fn model_prior_sd(mut self, sd: f64) -> Result<Self> {
        if !(sd.is_finite() && sd > 0.0) {
            return Err(SimulateError::InvalidParameter {
                name: "model_prior_sd",
                expected: "a finite positive number",
            });
        }
        self.model_prior_sd = sd;
        Ok(self)
    }

    pub(crate) fn truth(&self) -> (Vec<f64>, Vec<usize>) {
        let j = self.voters.judged();
        let truth: Vec<f64> = self.underlying.z().iter().map(|&z| j.truth(z)).collect();
        let mut order: Vec<usize> = (0..truth.len()).collect();
        order.sort_by(|&a, &b| truth[b].total_cmp(&truth[a]).then(a.cmp(&b)));
        (truth, order)
    }

    fn generator(seed: u64, stream: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        rng
    }

    /// Draws simulation `index`'s crowd into `s.crowd` (stream 3·index).
    fn draw_crowd(&self, seed: u64, index: usize, s: &mut Scratch) -> Result<()> {
        let mut rng = Self::generator(seed, 3 * index as u64);
        self.voters
            .draw_into(&self.underlying, self.n_voters, &mut rng, &mut s.crowd)
    }

    /// One arm of simulation `index` with the crowd in `s` (streams
    /// 3·index + 1 for uniform, 3·index + 2 for adaptive).
    fn collect_arm(&self, arm: Arm, seed: u64, index: usize, s: &mut Scratch) -> Result<Collected> {
        let (scheduler, stream) = match arm {
            Arm::Uniform => (Scheduler::uniform(self.config, self.uniform)?, 1),
            Arm::Adaptive => (Scheduler::new(self.config), 2),
        };
        let mut rng = Self::generator(seed, 3 * index as u64 + stream);
        s.votes.clear();
        let log = (!self.models.is_empty()).then_some(&mut s.votes);
        drive(scheduler, &s.crowd, &mut rng, &mut s.comparisons, log)
    }

    /// Each model fitted to the votes in `s` (those of `c`).
    fn fit_models(&self, c: &Collected, index: usize, s: &Scratch) -> Result<Vec<Collected>> {
        self.models
            .iter()
            .map(|&m| models::fit(m, &s.votes, self.n_voters, self.model_prior_sd, c, index))
            .collect()
    }

    /// Both collections of simulation `index`, and each model's fit of
    /// each (uniform, adaptive).
    #[allow(clippy::type_complexity)]
    fn collect_both(
        &self,
        seed: u64,
        index: usize,
        s: &mut Scratch,
    ) -> Result<(Collected, Collected, Vec<(Collected, Collected)>)> {
        self.draw_crowd(seed, index, s)?;
        let uniform = self.collect_arm(Arm::Uniform, seed, index, s)?;
        let uniform_fits = self.fit_models(&uniform, index, s)?;
        let adaptive = self.collect_arm(Arm::Adaptive, seed, index, s)?;
        let adaptive_fits = self.fit_models(&adaptive, index, s)?;
        let fits = uniform_fits.into_iter().zip(adaptive_fits).collect();
        Ok((uniform, adaptive, fits))
    }

    /// The adaptive arm only, evaluated with `metric` (for sweeps).
    pub(crate) fn adaptive_value(
        &self,
        seed: u64,
        index: usize,
        s: &mut Scratch,
        metric: &Metric,
        truth: &[f64],
        true_ranking: &[usize],
    ) -> Result<(f64, u64)> {
        self.draw_crowd(seed, index, s)?;
        let c = self.collect_arm(Arm::Adaptive, seed, index, s)?;
        let e = Estimate::new(truth, true_ranking, &c.scores, &c.ranking);
        Ok((metric_value(metric, &e, index)?, c.comparisons))
    }

    fn evaluate(
        &self,
        index: usize,
        truth: &[f64],
        true_ranking: &[usize],
        c: &Collected,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let e = Estimate {
            truth,
            true_ranking,
            scores: &c.scores,
            ranking: &c.ranking,
        };
        for m in &self.metrics {
            out.push(metric_value(m, &e, index)?);
        }
        Ok(())
    }

    /// Simulation number `index` of a run seeded with `seed`: both
    /// collections and their metric values. [`run`](Self::run) computes
    /// exactly these values.
    ///
    /// # Errors
    /// A metric failure ([`SimulateError::Metric`]); [`SimulateError::TooLarge`] for
    /// an index no run can have (≥ [`MAX_SIMULATIONS`](Self::MAX_SIMULATIONS)).
    pub fn simulate(&self, seed: u64, index: usize) -> Result<Run> {
        if index >= Self::MAX_SIMULATIONS {
            return Err(SimulateError::TooLarge {
                quantity: "simulation index",
                requested: index as u64,
                limit: Self::MAX_SIMULATIONS as u64 - 1,
            });
        }
        let (truth, true_ranking) = self.truth();
        let mut s = Scratch::new();
        let (uniform, adaptive, fits) = self.collect_both(seed, index, &mut s)?;
        let mut models = Vec::with_capacity(fits.len());
        for (&model, (u, a)) in self.models.iter().zip(fits) {
            let mut uniform_values = Vec::new();
            let mut adaptive_values = Vec::new();
            self.evaluate(index, &truth, &true_ranking, &u, &mut uniform_values)?;
            self.evaluate(index, &truth, &true_ranking, &a, &mut adaptive_values)?;
            models.push(ModelRun {
                model,
                uniform: u,
                adaptive: a,
                uniform_values,
                adaptive_values,
            });
        }
        let mut uniform_values = Vec::new();
        let mut adaptive_values = Vec::new();
        self.evaluate(index, &truth, &true_ranking, &uniform, &mut uniform_values)?;
        self.evaluate(
            index,
            &truth,
            &true_ranking,
            &adaptive,
            &mut adaptive_values,
        )?;
        Ok(Run {
            uniform,
            adaptive,
            uniform_values,
            adaptive_values,
            models,
        })
    }

    /// `simulations` seeded simulations on the crate's number of threads
    /// ([`crate::current_threads`]: `ACM_THREADS`, [`crate::with_threads`],
    /// or every core).
    ///
    /// A report needs S ≥ 2: its standard deviations and standard errors are
    /// undefined for one simulation, and every field of a [`Summary`] is a
    /// number (one simulation on its own is [`simulate`](Self::simulate)).
    ///
    /// # Errors
    /// [`SimulateError::TooFewSimulations`] for fewer than 2 simulations,
    /// [`SimulateError::TooLarge`] for more than
    /// [`MAX_SIMULATIONS`](Self::MAX_SIMULATIONS) (both before any work); the
    /// first failing simulation's error (by index), a metric that returns a
    /// NaN or infinite value among them ([`SimulateError::Metric`]).
    pub fn run(&self, simulations: usize, seed: u64) -> Result<Report> {
        self.run_with_threads(simulations, seed, crate::current_threads().count())
    }

    /// [`run`](Self::run) on `threads` threads (at most 256 are used); the
    /// report is bit-for-bit the same for any `threads ≥ 1`.
    ///
    /// # Errors
    /// As [`run`](Self::run), and [`SimulateError::InvalidParameter`] for zero
    /// threads.
    pub fn run_with_threads(
        &self,
        simulations: usize,
        seed: u64,
        threads: usize,
    ) -> Result<Report> {
        check_simulations(simulations)?;
        if threads == 0 {
            return Err(SimulateError::InvalidParameter {
                name: "threads",
                expected: "at least one thread",
            });
        }
        let (truth, true_ranking) = self.truth();
        let k = self.metrics.len();
        let rows = par_map(simulations, threads, |i, s| {
            let (u, a, fits) = self.collect_both(seed, i, s)?;
            let mut v = Vec::with_capacity(2 * k * (1 + fits.len()));
            self.evaluate(i, &truth, &true_ranking, &u, &mut v)?;
            self.evaluate(i, &truth, &true_ranking, &a, &mut v)?;
            for (fu, fa) in &fits {
                self.evaluate(i, &truth, &true_ranking, fu, &mut v)?;
                self.evaluate(i, &truth, &true_ranking, fa, &mut v)?;
            }
            Ok((v, u.comparisons, a.comparisons))
        })?;
        let mut columns = vec![Vec::with_capacity(simulations); 2 * k * (1 + self.models.len())];
        let (mut cu, mut ca) = (0, 0);
        for (v, u, a) in rows {
            for (col, x) in columns.iter_mut().zip(v) {
                col.push(x);
            }
            (cu, ca) = (u, a);
        }
        let summaries = columns
            .iter()
            .map(|c| Summary::of(c))
            .collect::<Result<Vec<Summary>>>()?;
        Ok(Report {
            simulations,
            seed,
            metrics: self.metrics.iter().map(|m| m.name.clone()).collect(),
            uniform: summaries[..k].to_vec(),
            adaptive: summaries[k..2 * k].to_vec(),
            uniform_comparisons: cu,
            adaptive_comparisons: ca,
            models: self
                .models
                .iter()
                .enumerate()
                .map(|(j, &model)| {
                    let at = 2 * k * (j + 1);
                    ModelReport {
                        model,
                        uniform: summaries[at..at + k].to_vec(),
                        adaptive: summaries[at + k..at + 2 * k].to_vec(),
                    }
                })
                .collect(),
        })
    }
}

/// [`SimulateError::TooFewSimulations`] below 2, [`SimulateError::TooLarge`] above
/// [`Simulation::MAX_SIMULATIONS`].
pub(crate) fn check_simulations(simulations: usize) -> Result<()> {
    if simulations < 2 {
        return Err(SimulateError::TooFewSimulations {
            needed: 2,
            got: simulations,
        });
    }
    if simulations > Simulation::MAX_SIMULATIONS {
        return Err(SimulateError::TooLarge {
            quantity: "simulations",
            requested: simulations as u64,
            limit: Simulation::MAX_SIMULATIONS as u64,
        });
    }
    Ok(())
}

/// [`SimulateError::InvalidParameter`] for zero voters, [`SimulateError::TooLarge`]
/// when voters × items exceeds [`Simulation::MAX_OPINIONS`].
pub(crate) fn check_crowd(n_voters: usize, n_items: usize) -> Result<()> {
    if n_voters == 0 {
        return Err(SimulateError::InvalidParameter {
            name: "n_voters",
            expected: "at least one voter",
        });
    }
    let cells = (n_voters as u128) * (n_items as u128);
    if cells > Simulation::MAX_OPINIONS as u128 {
        return Err(SimulateError::TooLarge {
            quantity: "voter-item opinions (voters × items)",
            requested: u64::try_from(cells).unwrap_or(u64::MAX),
            limit: Simulation::MAX_OPINIONS as u64,
        });
    }
    Ok(())
}

/// The value of `metric` on `e`, a failure or a non-finite value reported
/// as [`SimulateError::Metric`] of simulation `index`.
fn metric_value(metric: &Metric, e: &Estimate<'_>, index: usize) -> Result<f64> {
    let fail = |source| SimulateError::Metric {
        metric: metric.name.clone(),
        simulation: index,
        source,
    };
    let v = metric.eval(e).map_err(fail)?;
    if !v.is_finite() {
        return Err(fail(crate::CorrelationError::Undefined {
            reason: "the metric returned a NaN or infinite value",
        }));
    }
    Ok(v)
}

/// The most threads a run uses, whatever it asks: each holds a crowd and a
/// collection's buffers, and results do not depend on the count.
const MAX_THREADS: usize = 256;

/// Runs `f(i, scratch)` for i = 0 … n − 1 on up to `threads` threads
/// ([`crate::threads::map_init`]: at most [`MAX_THREADS`], each with its
/// own scratch buffers) and returns the results in index order; the first
/// error by index wins. A simulation that panics (only a user closure can:
/// a custom metric or amplitude function) is
/// [`SimulateError::ThreadPanicked`] at its index, on any number of threads.
///
/// On more than one thread (never more than `n`) each simulation runs under
/// [`with_threads`](crate::with_threads)`(Threads::ONE)`, as the
/// `uncertainty` module's replicates do: the simulations already use every
/// thread, so what they compute inside (a model's fit, a coefficient) does
/// not start threads of its own. Results do not depend on it.
pub(crate) fn par_map<T, F>(n: usize, threads: usize, f: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(usize, &mut Scratch) -> Result<T> + Sync,
{
    let indices: Vec<usize> = (0..n).collect();
    // No more threads than simulations: a lone simulation keeps the
    // caller's threads for what it computes inside.
    let threads = threads.clamp(1, MAX_THREADS).min(n.max(1));
    let one = |i: usize, s: &mut Scratch| {
        if threads > 1 {
            crate::with_threads(crate::Threads::ONE, || f(i, s))
        } else {
            f(i, s)
        }
    };
    crate::threads::map_init(indices, threads, Scratch::new, |s, i| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| one(i, s))).unwrap_or_else(|_| {
            // The buffers may be half written: start afresh.
            *s = Scratch::new();
            Err(SimulateError::ThreadPanicked)
        })
    })
    .into_iter()
    .collect()
}

/// Runs a collection to the end with the crowd's votes: for each ballot the
/// scheduler issues the comparisons, they are spread evenly over the voters
/// (§2.5), every vote is recorded by ticket, the ballot is closed; then the
/// scheduler ranks every item (ties in random order).
///
/// The per-vote path is one opinion lookup (or two normal draws), one
/// uniform draw and an O(1) `record`: no hashing, no allocation.
fn drive(
    mut scheduler: Scheduler,
    crowd: &Crowd,
    rng: &mut ChaCha8Rng,
    comparisons: &mut Vec<Comparison>,
    mut log: Option<&mut Vec<Logged>>,
) -> Result<Collected> {
    while matches!(scheduler.phase(), Phase::Ready { .. }) {
        comparisons.clear();
        comparisons.extend_from_slice(scheduler.open_ballot(rng)?);
        let shares = spread_over_voters(comparisons.len(), crowd.n_voters(), rng)?;
        for (voter, tickets) in shares.iter().enumerate() {
            for &ticket in tickets {
                let Some(c) = comparisons.get(ticket) else {
                    continue;
                };
                let vote = match crowd.vote_unchecked(voter, c.first, c.second, rng) {
                    Choice::First => Vote::First,
                    Choice::Second => Vote::Second,
                };
                scheduler.record(ticket, vote)?;
                if let Some(log) = log.as_deref_mut() {
                    log.push(Logged {
                        first: c.first as u32,
                        second: c.second as u32,
                        first_won: vote == Vote::First,
                        voter: voter as u32,
                    });
                }
            }
        }
        scheduler.close_ballot(Unvoted::Reject)?;
    }
    let ranking = scheduler.ranking(rng)?;
    let n = crowd.n_items();
    let mut scores = vec![0.0; n];
    let mut last_ballot = vec![0; n];
    let mut order = Vec::with_capacity(n);
    for e in &ranking.entries {
        if let (Some(s), Some(b)) = (scores.get_mut(e.item), last_ballot.get_mut(e.item)) {
            *s = e.score;
            *b = e.last_ballot;
        }
        order.push(e.item);
    }
    Ok(Collected {
        scores,
        ranking: order,
        last_ballot,
        comparisons: scheduler.total_votes(),
    })
}

#[cfg(test)]
mod tests {
    use super::par_map;
    use crate::{Threads, current_threads};

    /// On several threads a simulation computes on its own thread (no
    /// nested threads); on one, the caller's choice stands.
    #[test]
    fn simulations_on_threads_compute_on_one_thread_each() {
        let inside = |threads| par_map(6, threads, |_, _| Ok(current_threads())).unwrap();
        assert_eq!(inside(2), vec![Threads::ONE; 6]);
        assert_eq!(inside(1), vec![current_threads(); 6]);
        let lone = par_map(1, 2, |_, _| Ok(current_threads())).unwrap();
        assert_eq!(lone, vec![current_threads()]);
    }
}
