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
//! # Where the moments come from
//!
//! * **Exact** ([`TopWeighted::null_exact`], n ≤ 11): depth-first
//!   enumeration of all n! permutations, each leaf's sums built from its
//!   parent's with one term (no drift), O(1) per permutation for ρ_w and
//!   O(n) for τ_w; about 0.2 s for n = 10 and 2 s for n = 11 per
//!   coefficient on one core, spread over all cores.
//! * **Monte Carlo** (`uncertainty::GammaMonteCarlo`): any weigher, scheme
//!   and tie pattern, seeded and reproducible whatever the number of
//!   threads, to a standard error of Γ̄ the caller sets (default 10⁻⁴).
//!   Nine linear permutation statistics with exact means serve as control
//!   variates (50× fewer permutations for the paper's ρ_w); the paper's
//!   ρ_w at n = 1000 to 10⁻⁴ takes about 20 000 permutations, a tenth of a
//!   second.
//! * **The built-in table** ([`TopWeighted::null_table`]), described below.
//! * **Yours** ([`GammaMoments::given`], e.g. values from the paper).
//!
//! # The built-in table
//!
//! For the weighers 1/n and 1/(n + n0)², n0 ∈ {0, 1, 2}, with additive and
//! multiplicative weights, ρ_w and τ_w (16 configurations), the table holds
//! Γ̄, V, V_ℓ with their standard errors at
//!
//! * n = 3 … 11: the exact values (equal to [`TopWeighted::null_exact`]);
//! * n = 12 … 20, then 8 points per decade (n = 20·10^(k/8)) up to 10⁵:
//!   Monte Carlo, each point aiming at a standard error of 10⁻⁴ on Γ̄ and
//!   1 % on V and V_ℓ within about ten CPU-seconds (TABLE_ACCURACY).
//!
//! Between grid points each moment is interpolated by the 4-point Lagrange
//! polynomial in ln n; its standard error is that of the interpolated
//! points, (Σ λᵢ² seᵢ²)^½. Predicting every grid point from the grid
//! without it (points twice as far apart as in use) misses by no more than
//! the Monte-Carlo noise (TABLE_LOO), so the interpolation adds no error of
//! its own at the stated precision.
//!
//! Beyond n_max = 10⁵ the change of each moment per decade is assumed to
//! keep shrinking by the factor q it shrank by over the last two decades
//! of the grid (a power law in n):
//!
//! ```text
//! M(n) = M(n_max) + D·q·(1 − q^t)/(1 − q),   t = log₁₀(n/n_max),
//! D = M(n_max) − M(n_max/10),   q = clamp(D/D′, 0, 0.9),   D′ = M(n_max/10) − M(n_max/100)
//! ```
//!
//! and half the extrapolated change is added to the standard error. Cut at
//! 10⁴, the rule predicts the grid's last decade within the standard errors
//! it states (TABLE_EXTRAPOLATION). The weighers 1/(n + n0)² converge
//! quickly (the paper's additive ρ_w moves by 3·10⁻³ from 10⁴ to 10⁵); 1/n
//! and multiplicative weights drift slowly with ln n, and their
//! extrapolated standard errors grow accordingly: use Monte Carlo when that
//! matters.
//!
//! A tabulated weigher is recognised by its values on ranks 1..n (relative
//! tolerance 10⁻⁹, any scale), so [`Quadratic`](crate::Quadratic) and
//! closures count; any other weigher or a one-sided scheme is
//! [`StandardisedError::NotInTable`]. The generator,
//! `examples/standardised_table.rs`, rewrites the table:
//! `cargo run --release --features uncertainty --example standardised_table -- --out src/correlation/standardised/table_data.rs`
//! (about half an hour of CPU).
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
