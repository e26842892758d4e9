//! The error type of the standardised scale.

use crate::correlation::error::CorrelationError;
use thiserror::Error as ThisError;

module_error! {
    /// Everything that can go wrong when computing null moments or mapping a
    /// coefficient onto the standardised scale.
    ///
    /// Messages are lowercase without a trailing period. New variants may be
    /// added in minor releases.
    #[derive(Debug, Clone, Copy, PartialEq, ThisError)]
    #[non_exhaustive]
    pub enum StandardisedError {
        shared {
            /// Fewer than 3 items: with 2 items every coefficient is ±1 and the
            /// null distribution has no shape to standardise.
            TooFewItems,
        }
        /// The coefficient itself failed (bad scores, a constant input, a bad
        /// weigher, …).
        #[error(transparent)]
        Correlation(#[from] CorrelationError),
        /// The three numbers cannot be the null mean, variance and left
        /// variance of a coefficient with values in [−1, 1].
        #[error(
            "invalid null moments (mean {mean}, variance {variance}, left variance {left_variance}): {reason}"
        )]
        InvalidMoments {
            /// The mean Γ̄ given.
            mean: f64,
            /// The variance V given.
            variance: f64,
            /// The left variance V_ℓ given.
            left_variance: f64,
            /// Which condition fails.
            reason: &'static str,
        },
        /// No increasing map of [−1, 1] onto itself of the piecewise-quadratic
        /// form has mean zero under these moments (only for distributions
        /// close to two atoms at −1 and 1, never for a permutation null).
        #[error(
            "no increasing standardising map exists for mean {mean}, variance {variance}, left variance {left_variance}"
        )]
        NoIncreasingMap {
            /// The mean Γ̄.
            mean: f64,
            /// The variance V.
            variance: f64,
            /// The left variance V_ℓ.
            left_variance: f64,
        },
        /// A value to standardise is NaN or outside [−1, 1].
        #[error("coefficient {value} is not in [-1, 1]")]
        CoefficientOutOfRange {
            /// The value given.
            value: f64,
        },
        /// A Monte-Carlo accuracy target that is not a positive finite number.
        #[error("invalid accuracy target {target}: the standard error must be positive and finite")]
        InvalidAccuracy {
            /// The target given.
            target: f64,
        },
        /// Exact enumeration of all n! permutations was asked for too many items.
        #[error(
            "exact enumeration supports at most {max} items, got {got}: use the built-in table or Monte Carlo"
        )]
        TooManyForExact {
            /// The largest n enumerated.
            max: usize,
            /// The number of items asked for.
            got: usize,
        },
        /// The built-in table does not cover this configuration.
        #[error(
            "the built-in table has no {what}: estimate the null moments by Monte Carlo (feature `uncertainty`, `GammaMonteCarlo`) or exactly for n ≤ 11"
        )]
        NotInTable {
            /// What is missing (the weigher, the scheme).
            what: &'static str,
        },
        /// More items than the built-in table answers for: its grids end at
        /// n = 11 246 827 (the additive 1/(n + n0)² ones, whose moments have
        /// converged there, answer for every n; see the module docs).
        #[error(
            "the built-in table covers n ≤ {max}, got n = {got}: estimate the null moments by Monte Carlo (feature `uncertainty`, `GammaMonteCarlo`)"
        )]
        BeyondTable {
            /// The largest n the table answers for.
            max: usize,
            /// The number of items asked for.
            got: usize,
        },
    }
}
