//! The error type of the uncertainty module.

use crate::correlation::error::CorrelationError;
use crate::correlation::standardised::StandardisedError;
use thiserror::Error as ThisError;

/// Everything that can go wrong when estimating a null distribution, a
/// permutation p-value or a bootstrap interval.
///
/// Failures of the statistic itself (bad scores, a constant input, …) are
/// wrapped with where they happened: on the observed data
/// ([`Statistic`](Self::Statistic)), in one replicate
/// ([`Replicate`](Self::Replicate)) or in a jackknife leave-one-out sample
/// ([`Jackknife`](Self::Jackknife)). Messages are lowercase without a
/// trailing period. New variants may be added in minor releases.
#[derive(Debug, Clone, Copy, PartialEq, ThisError)]
#[non_exhaustive]
pub enum UncertaintyError {
    /// The statistic failed on the observed data, or the input is invalid
    /// (length mismatch, NaN, infinite score, constant input, …).
    #[error(transparent)]
    Statistic(#[from] CorrelationError),
    /// The statistic failed on one permutation or resample.
    #[error("{kind} {index}: {source}")]
    Replicate {
        /// Which kind of replicate (`"permutation"`, `"resample"`).
        kind: &'static str,
        /// Index of the first failing replicate (0-based, in index order).
        index: usize,
        /// The statistic's error.
        source: CorrelationError,
    },
    /// The statistic failed with item `left_out` removed (BCa acceleration).
    #[error("jackknife without item {left_out}: {source}")]
    Jackknife {
        /// The 0-based index of the item left out.
        left_out: usize,
        /// The statistic's error.
        source: CorrelationError,
    },
    /// Fewer items than the method needs (3: with 2 items every permutation
    /// gives ±1 and the jackknife has one item).
    #[error("too few items: {needed} needed, got {got}")]
    TooFewItems {
        /// The minimum number of items.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// Too few permutations or resamples were asked for.
    #[error("too few {what}: {needed} needed, got {got}")]
    TooFewReplicates {
        /// `"permutations"` or `"resamples"`.
        what: &'static str,
        /// The minimum.
        needed: usize,
        /// The number asked for.
        got: usize,
    },
    /// More replicates than the limit ([`Permutations::max_replicates`],
    /// [`Bootstrap::max_replicates`]): refused before anything is allocated
    /// or run (see the crate docs, "Sizes and memory").
    ///
    /// [`Permutations::max_replicates`]: super::Permutations::max_replicates
    /// [`Bootstrap::max_replicates`]: super::Bootstrap::max_replicates
    #[error("too large: {requested} {quantity} requested, at most {limit}")]
    TooLarge {
        /// What is counted (`"permutations"`, `"resamples"`).
        quantity: &'static str,
        /// The number asked for.
        requested: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A confidence level outside the open interval (0, 1).
    #[error("confidence level {level} is not in (0, 1)")]
    InvalidLevel {
        /// The level given.
        level: f64,
    },
    /// Every bootstrap resample failed (e.g. every resample was constant).
    #[error("all {resamples} resamples failed; the first: {first}")]
    AllResamplesFailed {
        /// Number of resamples drawn.
        resamples: usize,
        /// The error of resample 0.
        first: CorrelationError,
    },
    /// A problem specific to the standardised scale (accuracy target,
    /// number of items, moments without an increasing map).
    #[error(transparent)]
    Standardised(#[from] StandardisedError),
    /// A histogram of replicates asked with no bins or more than
    /// [`Histogram::MAX_BINS`](super::Histogram::MAX_BINS).
    #[error("{bins} histogram bins asked for: expected 1 to {limit}")]
    InvalidBins {
        /// The number asked for.
        bins: usize,
        /// The most accepted.
        limit: usize,
    },
    /// The bootstrap distribution cannot give the asked interval.
    #[error("degenerate bootstrap distribution: {reason}")]
    Degenerate {
        /// Why.
        reason: &'static str,
    },
}
