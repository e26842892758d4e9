//! The standardised scale of ρ_w and τ_w (Lombardo 2025): a map g onto
//! [−1, 1] whose expected value for unrelated rankings is 0.
//!
//! Top weighting breaks the symmetry of Spearman's ρ and Kendall's τ: with
//! the paper's additive weights 1/(n + 2)², ρ_w of two *unrelated* rankings
//! of 990 items averages about −0.60. Reading ρ_w = 0.1 as "weakly
//! positive" is wrong: it is far above chance. The standardised value g(Γ)
//! puts chance at 0 while keeping ±1 (identical / reversed rankings) and
//! the order of values.
//!
//! ```
//! use adaptive_comp_metrics::TopWeighted;
//! let paper = TopWeighted::new(); // 1/(n + 2)², additive (Lombardo et al. 2020, Eq. 8–9)
//! let human: Vec<f64> = (0..200).map(|i| f64::from(200 - i)).collect();
//! let model: Vec<f64> = human.iter().map(|v| (v * 0.37).sin()).collect(); // unrelated
//! let s = paper.rho_standardised(&human, &model)?;
//! println!("raw ρ_w = {:+.3}, standardised = {:+.3}", s.rho.rho, s.value);
//! assert!(s.value.abs() < s.rho.rho.abs());
//! # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
//! ```
//!
//! # The pieces
//!
//! | what | where |
//! |---|---|
//! | the three null moments Γ̄, V, V_ℓ with standard errors and source | [`GammaMoments`] |
//! | exactly, by enumerating n! permutations (n ≤ 11) | [`TopWeighted::null_exact`], [`TopWeighted::null_distribution_exact`] |
//! | from the built-in table (paper's weighers, additive and multiplicative) | [`TopWeighted::null_table`] |
//! | by Monte Carlo, any weigher and scheme, ties kept (feature `uncertainty`) | `uncertainty::GammaMonteCarlo` |
//! | the map g from moments (yours, or the paper's) | [`Standardiser`] |
//! | standardised ρ_w, τ_w of data | [`TopWeighted::rho_standardised`], [`TopWeighted::tau_standardised`] |
//!
//! The map is not the z-score `uncertainty::standardise`, which divides by
//! the null standard deviation and is unbounded: g keeps the [−1, 1] scale
//! of a correlation, so that 0.3 on it reads like a Spearman ρ of 0.3.
//!
//! # The null
//!
//! Γ is ρ_w or τ_w of a fixed ranking and a uniformly random permutation of
//! the other: for untied rankings this is the distribution over two
//! independent uniformly random rankings. With ties, the permutation null
//! permutes one ranking's values and keeps both tie patterns; only Monte
//! Carlo covers it (`uncertainty::GammaMonteCarlo::moments_of`). The
//! table and the exact moments are those of untied rankings, and the
//! standardised results say whether the data had ties.
//!
//! # References
//!
//! - P. Lombardo (2025). *Standardization of Weighted Ranking Correlation
//!   Coefficients.* arXiv:2504.08428 (v2 2026, CC BY 4.0).
//! - P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone
//!   (2020). *Top-rank-focused adaptive vote collection for the evaluation
//!   of domain-specific semantic models.* EMNLP 2020, §3.

mod api;
mod error;
pub(crate) mod exact;
#[cfg(any(feature = "uncertainty", test))]
pub(crate) mod kernel;
mod map;
mod moments;
mod table;
mod table_data;

#[cfg(feature = "uncertainty")]
pub(crate) use api::has_ties;
pub use api::{StandardisedRho, StandardisedTau};
pub use error::StandardisedError;
pub use exact::{MAX_DISTRIBUTION, MAX_EXACT};
pub use map::{Branch, DEGENERATE_TOLERANCE, MapCoefficients, Standardiser};
pub use moments::{GammaMoments, MomentEstimate, MomentSource};

#[cfg(doc)]
use crate::TopWeighted;

/// Which top-weighted coefficient: ρ_w or τ_w (Lombardo et al. 2020, Eq. 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Coefficient {
    /// The weighted Spearman ρ_w.
    Rho,
    /// The weighted Kendall τ_w.
    Tau,
}
