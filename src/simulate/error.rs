//! The error type of the voter simulator.

use thiserror::Error;

/// Everything that can go wrong when setting up or running a simulation.
///
/// Every variant says what was wrong and where (which parameter, which
/// index, which simulation). Messages are lowercase without a trailing
/// period. New variants may be added in minor releases.
///
/// Named `SimError` before 0.1.0 (a deprecated alias remains).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SimulateError {
    /// A parameter is outside its domain.
    #[error("invalid parameter {name}: {expected}")]
    InvalidParameter {
        /// The parameter (`"n_voters"`, `"simulations"`, …).
        name: &'static str,
        /// What was expected of it.
        expected: &'static str,
    },
    /// A range `[low, high]` of a per-voter parameter is empty, negative,
    /// not finite or too wide.
    #[error("invalid range {name} = [{low}, {high}]: {expected}")]
    InvalidRange {
        /// The parameter (`"sigma"` or `"epsilon"`).
        name: &'static str,
        /// The lower end given.
        low: f64,
        /// The upper end given.
        high: f64,
        /// What was expected of it.
        expected: &'static str,
    },
    /// The scheduler's configuration is for another number of items than
    /// the underlying distribution has.
    #[error(
        "item count mismatch: the configuration has {config} items, the distribution {underlying}"
    )]
    ItemCount {
        /// Items of the configuration.
        config: usize,
        /// Items of the distribution.
        underlying: usize,
    },
    /// The scheduler refused a configuration or an operation.
    #[error("scheduler: {0}")]
    Ballot(#[from] crate::ballot::BallotError),
    /// Fewer items than a simulation needs.
    #[error("too few items: {needed} needed, got {got}")]
    TooFewItems {
        /// The minimum number of items.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// An underlying similarity is NaN, infinite or outside [−1, 1].
    #[error("underlying similarity z[{index}] = {value} is not a number in [-1, 1]")]
    Similarity {
        /// Index of the first bad value.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A nonconformity amplitude σ_v(z) returned by a user closure is
    /// negative, NaN or infinite.
    #[error(
        "nonconformity amplitude {value} for voter {voter}, item {item} is not a finite number ≥ 0"
    )]
    Amplitude {
        /// The voter.
        voter: usize,
        /// The item.
        item: usize,
        /// The value returned.
        value: f64,
    },
    /// A metric could not be computed for one simulation (e.g. a constant
    /// estimated ranking).
    #[error("metric {metric} in simulation {simulation}: {source}")]
    Metric {
        /// The metric's name.
        metric: String,
        /// Index of the simulation.
        simulation: usize,
        /// What the metric reported.
        source: crate::CorrelationError,
    },
    /// A size over its limit ([`Simulation::MAX_SIMULATIONS`],
    /// [`Simulation::MAX_OPINIONS`], [`BallotConfig::MAX_ITEMS`]): refused
    /// before anything is allocated (see the crate docs, "Sizes and memory").
    ///
    /// [`Simulation::MAX_SIMULATIONS`]: super::Simulation::MAX_SIMULATIONS
    /// [`Simulation::MAX_OPINIONS`]: super::Simulation::MAX_OPINIONS
    /// [`BallotConfig::MAX_ITEMS`]: crate::ballot::BallotConfig::MAX_ITEMS
    #[error("too large: {requested} {quantity} requested, at most {limit}")]
    TooLarge {
        /// What is counted (`"simulations"`, `"items"`, `"voter-item opinions"`).
        quantity: &'static str,
        /// The number asked for.
        requested: u64,
        /// The limit.
        limit: u64,
    },
    /// Fewer simulations (or values) than a summary needs: a standard
    /// deviation needs two.
    #[error("too few simulations: {needed} needed, got {got} (a standard deviation needs two)")]
    TooFewSimulations {
        /// The minimum, 2.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// A value to summarise is NaN or infinite.
    #[error("value {index} is {value}: only finite values can be summarised")]
    NotFinite {
        /// Index of the first bad value.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A model could not be fitted to a simulated collection's votes
    /// ([`Simulation::models`](super::Simulation::models)).
    #[error("model {model} in simulation {simulation}: {source}")]
    Fit {
        /// The model's name (`"bt"`, `"noisy-bt"`).
        model: &'static str,
        /// Index of the simulation.
        simulation: usize,
        /// What the fit reported.
        source: crate::pairwise::PairwiseError,
    },
    /// A simulation panicked: only a user closure can (a custom metric or
    /// amplitude function). The same error on any number of threads, at the
    /// simulation's index (the first error by index is the one returned).
    #[error("a simulation thread panicked (in a user closure)")]
    ThreadPanicked,
}

/// Shorthand for results of the simulator.
pub type Result<T, E = SimulateError> = core::result::Result<T, E>;
