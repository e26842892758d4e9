//! The error type of system comparisons.

use crate::uncertainty::UncertaintyError;
use thiserror::Error as ThisError;

/// Everything that can go wrong when comparing systems: the input table,
/// the options, and the resampling underneath.
///
/// Variants name the system and the unit (query, instance, benchmark) where
/// the input is wrong. Messages are lowercase without a trailing period.
/// New variants may be added in minor releases.
#[derive(Debug, Clone, PartialEq, ThisError)]
#[non_exhaustive]
pub enum CompareError {
    /// A failure of the resampling or of a statistic (a coefficient
    /// undefined on the observed data, too many replicates, a confidence
    /// level outside (0, 1), …).
    #[error(transparent)]
    Uncertainty(#[from] UncertaintyError),
    /// Fewer systems than a comparison needs.
    #[error("too few systems: {needed} needed, got {got}")]
    TooFewSystems {
        /// The minimum.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// Fewer units (queries, instances, benchmarks) than the method needs.
    #[error("too few units for {method}: {needed} needed, got {got}")]
    TooFewUnits {
        /// The method (`"the paired t-test"`, …).
        method: &'static str,
        /// The minimum.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// A system has a different number of scores than the others.
    #[error("system {system:?} has {len} scores, the first system {expected}")]
    LengthMismatch {
        /// The system.
        system: String,
        /// Its number of scores.
        len: usize,
        /// The first system's.
        expected: usize,
    },
    /// A score is NaN or infinite.
    #[error("system {system:?}, unit {unit:?}: the score is {value}")]
    NotFinite {
        /// The system.
        system: String,
        /// The unit (its name, or its 0-based index).
        unit: String,
        /// The score.
        value: f64,
    },
    /// A unit one system has is missing from another.
    #[error(
        "system {system:?} has no score for unit {unit:?} (which {other:?} has): compare \
         on the units every system has, or score the missing units (trec_eval's -c)"
    )]
    MissingUnit {
        /// The system without the unit.
        system: String,
        /// The unit.
        unit: String,
        /// A system that has it.
        other: String,
    },
    /// A system scores a unit twice.
    #[error("system {system:?} scores unit {unit:?} twice")]
    DuplicateUnit {
        /// The system.
        system: String,
        /// The unit.
        unit: String,
    },
    /// Two systems have the same name.
    #[error("two systems are named {name:?}")]
    DuplicateSystem {
        /// The name.
        name: String,
    },
    /// No system of this name (a baseline asked for by name).
    #[error("no system named {name:?}")]
    UnknownSystem {
        /// The name asked for.
        name: String,
    },
    /// A baseline index past the last system.
    #[error("baseline {index} is not a system: there are {systems}")]
    InvalidBaseline {
        /// The index given.
        index: usize,
        /// The number of systems.
        systems: usize,
    },
    /// A significance level outside the open interval (0, 1).
    #[error("alpha {alpha} is not in (0, 1)")]
    InvalidAlpha {
        /// The level given.
        alpha: f64,
    },
    /// A p-value that is NaN or outside [0, 1].
    #[error("p-value {index} is {value}, not in [0, 1]")]
    InvalidPValue {
        /// Its 0-based index.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A correction name that `multipletests` does not know, or that is not
    /// computed here.
    #[error("unknown correction {name:?}: known are {known}", known = super::Correction::NAMES)]
    UnknownCorrection {
        /// The name given (cut to 40 characters).
        name: String,
    },
    /// The test or interval asked for does not apply to this kind of
    /// comparison (a t-test of a coefficient over all items, for instance).
    #[error("{what} does not apply: {reason}")]
    NotApplicable {
        /// What was asked.
        what: &'static str,
        /// Why it does not apply.
        reason: &'static str,
    },
}

impl From<crate::correlation::CorrelationError> for CompareError {
    fn from(e: crate::correlation::CorrelationError) -> Self {
        Self::Uncertainty(UncertaintyError::Statistic(e))
    }
}
