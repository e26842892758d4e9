//! The error type of the rank-correlation core: ranks, weights and every
//! coefficient of [`correlation`](crate::correlation).
//!
//! Every module error of the crate, this one included, converts into the
//! crate-wide [`Error`](crate::Error); see [Errors](crate#errors).

use thiserror::Error;

module_error! {
    /// Everything that can go wrong when ranking scores, building weights or
    /// computing a rank correlation.
    ///
    /// Every variant says *what* was wrong and *where* (which input, which index).
    /// Messages are lowercase without a trailing period, so they compose with
    /// context added by callers. New variants may be added in minor releases.
    ///
    /// Named `Error` before 0.1.0, when the crate-wide [`Error`](crate::Error)
    /// was `AnyError`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
    #[non_exhaustive]
    pub enum CorrelationError {
        shared {
            /// Two inputs that must pair up item by item have different lengths.
            LengthMismatch,
            /// Fewer items than the computation needs.
            TooFewItems,
            /// A score is NaN.
            NaN,
            /// A score is infinite.
            Infinite,
            /// A parameter is outside its domain.
            InvalidParameter,
        }
        /// All values of an input are equal, so the coefficient is 0/0.
        #[error("{input} is constant: the coefficient is undefined")]
        Constant {
            /// Name of the constant input.
            input: &'static str,
        },
        /// A weight is negative, NaN or infinite.
        #[error("weight {index} is {problem}")]
        InvalidWeight {
            /// Index of the first bad weight.
            index: usize,
            /// What is wrong with it.
            problem: WeightProblem,
        },
        /// All weights are zero: nothing carries any weight.
        #[error("all weights are zero")]
        ZeroWeights,
        /// A ready-made rank vector is not a valid ranking of its items.
        #[error("{input}[{index}] is not a valid rank: ranks must be finite and lie in [1, {len}]")]
        InvalidRank {
            /// Name of the rank vector.
            input: &'static str,
            /// Index of the first bad rank.
            index: usize,
            /// Number of items (the largest valid rank).
            len: usize,
        },
        /// More items than the computation can index.
        #[error("too many items: at most {max} supported, got {got}")]
        TooManyItems {
            /// The largest supported number of items.
            max: usize,
            /// Number of items.
            got: usize,
        },
        /// A weighted sum that would be reported is beyond the largest f64
        /// (e.g. products of weights near `f64::MAX`). The coefficient itself
        /// is still defined: it does not change when every weight is scaled by
        /// one factor, so scaling the weights down gives it together with the sums.
        #[error(
            "the {quantity} exceeds the largest f64: scale the weights down (the coefficient does not change)"
        )]
        Overflow {
            /// Which sum overflows.
            quantity: &'static str,
        },
        /// The result is 0/0 for a reason other than a constant input
        /// (e.g. every pair is tied in one of the two inputs, or every pair
        /// weight is zero).
        #[error("the coefficient is undefined: {reason}")]
        Undefined {
            /// Why the denominator is zero.
            reason: &'static str,
        },
    }
}

/// What is wrong with a weight; see [`CorrelationError::InvalidWeight`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WeightProblem {
    /// The weight is below zero.
    Negative,
    /// The weight is NaN.
    NaN,
    /// The weight is infinite.
    Infinite,
}

impl WeightProblem {
    /// What is wrong with `v` as a weight (`None`: finite and ≥ 0).
    pub(crate) fn of(v: f64) -> Option<Self> {
        if v.is_nan() {
            Some(Self::NaN)
        } else if v.is_infinite() {
            Some(Self::Infinite)
        } else if v < 0.0 {
            Some(Self::Negative)
        } else {
            None
        }
    }
}

impl core::fmt::Display for WeightProblem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Negative => "negative",
            Self::NaN => "NaN",
            Self::Infinite => "infinite",
        })
    }
}

/// Shorthand for results of the rank-correlation core (ranks, weights,
/// coefficients): `Result<T>` is `Result<T, CorrelationError>`.
///
/// The crate-wide alias is [`crate::Result`], whose error is the umbrella
/// [`crate::Error`].
pub type Result<T, E = CorrelationError> = core::result::Result<T, E>;

/// Checks that `x` and `y` have equal lengths of at least `needed`.
pub(crate) fn check_pair_len<A, B>(
    left: &'static str,
    x: &[A],
    right: &'static str,
    y: &[B],
    needed: usize,
) -> Result<usize> {
    if x.len() != y.len() {
        return Err(CorrelationError::LengthMismatch {
            left,
            left_len: x.len(),
            right,
            right_len: y.len(),
        });
    }
    if x.len() < needed {
        return Err(CorrelationError::TooFewItems {
            needed,
            got: x.len(),
        });
    }
    Ok(x.len())
}

/// Checks that every value is finite, reporting the first bad index.
pub(crate) fn check_finite<F: num_traits::Float>(input: &'static str, x: &[F]) -> Result<()> {
    match x.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) if x[index].is_nan() => Err(CorrelationError::NaN { input, index }),
        Some(index) => Err(CorrelationError::Infinite { input, index }),
    }
}

/// Checks that weights are finite, non-negative and not all zero.
pub(crate) fn check_weights(w: &[f64]) -> Result<()> {
    let mut any_positive = false;
    for (index, &v) in w.iter().enumerate() {
        if let Some(problem) = WeightProblem::of(v) {
            return Err(CorrelationError::InvalidWeight { index, problem });
        }
        any_positive |= v > 0.0;
    }
    if any_positive {
        Ok(())
    } else {
        Err(CorrelationError::ZeroWeights)
    }
}
