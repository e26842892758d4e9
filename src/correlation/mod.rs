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
