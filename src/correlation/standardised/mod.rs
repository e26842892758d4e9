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
//! * n = 12 … 20, then 8 points per decade, n = 20·10^(k/8) rounded, up to
//!   n_max = 8434 (k = 21): Monte Carlo, each point aiming at a standard
//!   error of 10⁻⁴ on Γ̄ and 1 % on V and V_ℓ within a few CPU-seconds.
//!
//! Every entry carries the standard errors it reached, and
//! [`TopWeighted::null_table`] returns them (interpolated). The largest
//! standard error of Γ̄ over n ≤ n_max, per configuration (ρ_w and τ_w,
//! weigher, scheme):
//!
//! ```text
//!                   additive ρ_w   additive τ_w   multiplicative ρ_w   multiplicative τ_w
//! 1/(n + 2)²        1.0e-4         2.0e-4         1.9e-4               2.1e-3
//! 1/(n + 1)²        1.0e-4         2.6e-4         2.3e-4               2.0e-3
//! 1/n²              1.2e-4         3.6e-4         3.3e-4               1.8e-3
//! 1/n               1.0e-4         1.0e-4         1.4e-4               7.0e-4
//! ```
//!
//! (the excess over 10⁻⁴ only at the largest n, except multiplicative τ_w,
//! whose null variance stays near 0.1 however long the ranking: above 10⁻⁴
//! from n ≈ 40). V and V_ℓ are within 2.3 % (one standard error). A
//! standardised value inherits about the standard error of Γ̄; for more
//! precision, ask `uncertainty::GammaMonteCarlo` (feature `uncertainty`) for
//! the n at hand.
//!
//! Between grid points each moment is interpolated by the 4-point Lagrange
//! polynomial in ln n; its standard error is that of the interpolated
//! points, (Σ λᵢ² seᵢ²)^½. Predicting every grid point from the grid
//! without it (points twice as far apart as in use) misses by no more than
//! the Monte-Carlo noise (unit test `interpolation_predicts_left_out_grid_points`),
//! so the interpolation adds no error of its own at the stated precision.
//!
//! Beyond n_max each moment continues along the slope of the grid's last
//! decade (Γ̄ linearly in log₁₀ n; V and V_ℓ as power laws, so they stay
//! positive), and its standard error grows, per decade, by that last
//! decade's change plus how much that change differed from the decade
//! before:
//!
//! ```text
//! t = log₁₀(n/n_max),   D = M(n_max) − M(n_max/10),   D′ = M(n_max/10) − M(n_max/100)
//! Γ̄(n) = Γ̄(n_max) + D·t,   se(n) = se(n_max) + (|D| + |D − D′|)·t
//! V(n) = V(n_max)·e^{d·t}   (d, d′: D, D′ of ln V; the same for V_ℓ, capped at V)
//! ```
//!
//! The rule is deliberately cautious: cut at n_max/10, it predicts the
//! grid's last decade with errors far inside the standard errors it states
//! (unit test `extrapolation_predicts_the_last_decade`). That one decade
//! is as far as it is tested, so the table answers for n ≤ 10·n_max and
//! refuses larger n ([`StandardisedError::BeyondTable`]): use Monte Carlo
//! there, or wherever the extrapolated standard error is too large.
//!
//! A tabulated weigher is recognised by its values on ranks 1..n (relative
//! tolerance 10⁻⁹, any scale), so [`Quadratic`](crate::Quadratic) and
//! closures count; any other weigher or a one-sided scheme is
//! [`StandardisedError::NotInTable`]. The generator,
//! `examples/standardised_table.rs`, rewrites the table:
//! `cargo run --release --features uncertainty --example standardised_table -- --max-n 10000 --budget 0.5 --out src/correlation/standardised/table_data.rs`
//! (about 15 CPU-minutes; 20 minutes on two cores).
//!
//! # References
//!
//! - P. Lombardo (2025). *Standardization of Weighted Ranking Correlation
//!   Coefficients.* arXiv:2504.08428 (v2 2026, CC BY 4.0).
//! - P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone
//!   (2020). *Top-rank-focused adaptive vote collection for the evaluation
//!   of domain-specific semantic models.* EMNLP 2020, §3.

mod api;
mod display;
mod error;
pub(crate) mod exact;
#[cfg(any(feature = "uncertainty", test))]
pub(crate) mod kernel;
mod map;
mod moments;
#[cfg(feature = "serde")]
mod repr;
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
