//! Correlation coefficients: Pearson's r, plain Spearman ρ and Kendall τ-b, the
//! top-weighted ρ_w and τ_w of Lombardo et al. (2020), Vigna's (2015) weighted
//! τ, Kendall's general Γ as the O(n²) reference, and the standardised
//! scale of ρ_w and τ_w (Lombardo 2025).

mod display;
pub(crate) mod error;
pub mod gamma;
pub mod kendall;
pub mod pearson;
pub mod pvalue;
pub mod spearman;
pub mod standardised;
pub mod vigna;
pub mod weighted;

pub use error::{CorrelationError, Result, WeightProblem};

/// The input errors every two-sample coefficient reports, in the same
/// words: checked by the tests of [`pearson`](pearson::pearson) and
/// [`spearman`](spearman::spearman) through `f`.
#[cfg(test)]
pub(crate) fn assert_input_errors(f: impl Fn(&[f64], &[f64]) -> Result<(), CorrelationError>) {
    let length = CorrelationError::LengthMismatch {
        left: "x",
        left_len: 2,
        right: "y",
        right_len: 1,
    };
    assert_eq!(f(&[1.0, 2.0], &[1.0]), Err(length));
    assert_eq!(
        f(&[1.0], &[1.0]),
        Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
    );
    assert_eq!(
        f(&[], &[]),
        Err(CorrelationError::TooFewItems { needed: 2, got: 0 })
    );
    let nan_y = CorrelationError::NaN {
        input: "y",
        index: 1,
    };
    assert_eq!(f(&[1.0, 2.0, 3.0], &[1.0, f64::NAN, 3.0]), Err(nan_y));
    for infinity in [f64::INFINITY, f64::NEG_INFINITY] {
        let infinite_x = CorrelationError::Infinite {
            input: "x",
            index: 1,
        };
        assert_eq!(f(&[1.0, infinity, 3.0], &[1.0, 2.0, 3.0]), Err(infinite_x));
    }
    assert_eq!(
        f(&[2.0, 2.0, 2.0], &[1.0, 2.0, 3.0]),
        Err(CorrelationError::Constant { input: "x" })
    );
    assert_eq!(
        f(&[1.0, 2.0, 3.0], &[0.0, -0.0, 0.0]),
        Err(CorrelationError::Constant { input: "y" })
    );
    // NaN is reported even when the other input is constant.
    let nan_first = CorrelationError::NaN {
        input: "y",
        index: 0,
    };
    assert_eq!(f(&[2.0, 2.0], &[f64::NAN, 1.0]), Err(nan_first));
}
