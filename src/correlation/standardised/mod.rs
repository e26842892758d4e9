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
//!   coefficient on one core, spread over the crate's threads
//!   ([`crate::current_threads`]).
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
//!   n = 8434 (k = 21): Monte Carlo of whole permutations;
//! * from n = 11 247 (k = 22) up to n_max = 11 246 827 (k = 46): 4 points
//!   per decade (k even) with additive weights; with multiplicative weights
//!   the same to n = 112 468 (k = 30), then 2 per decade (k ≡ 2 mod 4).
//!   Monte Carlo by a head–tail sampler whose cost per draw does not grow
//!   with n (below).
//!
//! Every entry carries the standard errors it reached, and
//! [`TopWeighted::null_table`] returns them (interpolated). The largest
//! standard error of Γ̄ over 12 ≤ n ≤ 8434 / over the long grid's n > 8434:
//!
//! ```text
//!                 additive ρ_w        additive τ_w        multiplicative ρ_w   multiplicative τ_w
//! 1/(n + 2)²      9.9e-5 / 8.1e-5     2.0e-4 / 9.8e-5     1.9e-4 / 3.5e-4      1.4e-3 / 7.4e-4
//! 1/(n + 1)²      9.9e-5 / 1.3e-4     2.6e-4 / 9.8e-5     2.3e-4 / 4.3e-4      1.3e-3 / 7.3e-4
//! 1/n²            1.2e-4 / 2.0e-4     3.6e-4 / 9.9e-5     3.3e-4 / 4.9e-4      1.2e-3 / 7.4e-4
//! 1/n             9.9e-5 / 8.6e-6     9.9e-5 / 8.9e-5     1.4e-4 / 2.5e-4      6.9e-4 / 6.8e-4
//! ```
//!
//! V and V_ℓ have standard errors of
//! at most 1.5 % of their values everywhere. A
//! standardised value inherits about the standard error of Γ̄; for more
//! precision, ask `uncertainty::GammaMonteCarlo` (feature `uncertainty`) for
//! the n at hand.
//!
//! **Where the weight sits.** With additive weights and a summable weigher
//! (1/(n + n0)²), the weight concentrates on the top ranks of each ranking,
//! and an item on top of one ranking sits at a uniformly random position
//! in the other: the null distribution converges as n → ∞, at a rate
//! O(log n / n) (the weight Σ_{r ≤ n} r·f(r)/n of ranks far from the top).
//! The moments reach their limits within the Monte-Carlo noise before
//! n = 10⁵. With 1/n the weight is spread over every scale of rank
//! (Σ 1/r diverges): the moments approach deterministic limits (Γ → −3/5
//! for ρ_w: the weighted points fill {0} × [0, 1] and [0, 1] × {0}) only
//! as powers of 1/ln n. With multiplicative weights f(a)·f(b) the weight
//! sits on the few items whose *product* of ranks is smallest (about
//! n/ln n), near a hyperbola along which the two rankings disagree: the
//! moments drift as powers of 1/ln n (the paper's τ_w falls from
//! Γ̄ = −0.59 at n = 8434 to −0.77 at 10⁷). Neither converges within any n
//! one can tabulate, so those grids end at n_max.
//!
//! **The head–tail sampler** (`examples/standardised_table/fast.rs`). Item
//! a of the fixed ranking meets rank π(a) of the permuted one. The *head*,
//! every item ranked in the top K of either ranking, is drawn exactly
//! (rows 1..K take uniformly random distinct columns, then each column ≤ K
//! still free takes a uniformly random distinct row > K). Given the head,
//! the rest is a uniformly random bijection between the m rows and m
//! columns left, so the conditional mean of every sum that ρ_w and τ_w are
//! made of is known in closed form:
//!
//! ```text
//! E[Σ_tail g(a) h(π(a)) | head] = (Σ_rows g)(Σ_cols h) / m
//! E[Σ_{s≠t ∈ tail} w_s w_t sgn(a_t − a_s) sgn(π(a_t) − π(a_s)) | head]
//!     = −2 Φ_R Φ_C / (m(m − 1)) (additive),  0 (multiplicative),   Φ = Σ f(r)(2 rank(r) − m − 1)
//! ```
//!
//! and the head–tail pairs of τ_w are such linear sums with step functions
//! of rank. Sums of f, f·r, f·r², f² over ranges of ranks are polygamma
//! functions, so a draw costs O(K log K) whatever n. A draw evaluates
//! Γ̂ = Γ(head, E[tail | head]); the six sums Σ w·c_a^p·c_b^q
//! (p + q ≤ 2, c = rank/n) of the same draw, whose means are known, are
//! control variates. K = 256 (1/(n + n0)², additive), 1024 (1/n,
//! additive), ⌈3√(n/ln n)⌉ + 32 (1/(n + n0)², multiplicative: the head
//! then holds every item whose product of ranks is below about 9n/ln n),
//! ⌈6√(n/ln n)⌉ + 64 (1/n, multiplicative), with half the factor past
//! n = 10⁶ (the truncation's share of the variance falls as 1/ln⁴ n). The only approximation is the
//! tail's fluctuation about its conditional mean: against whole
//! permutations (`--check`), E[(Γ − Γ̂)²] ≤ 4·10⁻⁴ V for every
//! configuration at n = 2000 and 20 000 (at most 1.3·10⁻⁴ V with additive
//! weights), and the mean of Γ − Γ̂, its bias, is within two standard
//! errors of 0 (≤ 5·10⁻⁵ in size). Unit tests of the generator check the
//! conditional means by enumerating every permutation of 7 items.
//!
//! Between grid points each moment is interpolated by the 4-point Lagrange
//! polynomial in ln n; its standard error is that of the interpolated
//! points, (Σ λᵢ² seᵢ²)^½. Predicting every grid point from the grid
//! without it (points twice as far apart as in use) misses by no more than
//! the Monte-Carlo noise (unit test `interpolation_predicts_left_out_grid_points`),
//! so the interpolation adds no error of its own at the stated precision.
//!
//! Beyond n_max the additive 1/(n + n0)² configurations (ρ_w and τ_w)
//! return the moments of n_max, each standard error widened by the
//! moment's change over the grid's last decade (within the noise: unit test
//! `grids_reach_ten_million_and_converged_ones_are_flat`), so they answer
//! for every n; the other configurations, whose moments keep drifting,
//! refuse n > n_max ([`StandardisedError::BeyondTable`]).
//!
//! A tabulated weigher is recognised by its values on ranks 1..n (relative
//! tolerance 10⁻⁹, any scale; every rank up to 10⁷, then a geometric
//! sample of ranks with ratio 1.001 and n itself), so
//! [`Quadratic`](crate::Quadratic) and closures count; any other weigher or
//! a one-sided scheme is [`StandardisedError::NotInTable`]. The generator,
//! `examples/standardised_table/`, rewrites the table:
//!
//! ```text
//! cargo run --release --features uncertainty --example standardised_table -- \
//!     --keep src/correlation/standardised/table_data.rs:8435 --target 2e-4 \
//!     --out src/correlation/standardised/table_data.rs
//! ```
//!
//! keeps the entries n ≤ 8434 (computed by the crate's Monte Carlo of whole
//! permutations before) and recomputes the rest (`--only i` computes
//! configuration i alone, `--points` chosen n, `--keep` merges tables,
//! `--assemble` only merges; without `--keep` every entry is recomputed by
//! the head–tail sampler, which draws whole permutations for n ≤ 4K). The
//! committed long ρ_w grids ran with `--target 2e-4`, a long ρ_w grid taking
//! 5–30 CPU-minutes; the τ_w entries 4743 ≤ n ≤ 8434 with multiplicative
//! weights were redrawn with `--points 4743,6325,8434 --target 1.3e-4
//! --max-draws 64000000`. The long τ_w grids and the multiplicative 1/n
//! ρ_w grid ran configuration by configuration with
//! `--only i --keep src/correlation/standardised/table_data.rs --target 1e-4
//! --max-draws 128000000` (then `--assemble`): 1–5 CPU-minutes a
//! configuration (a multiplicative τ_w draw costs about 0.2 ms at n = 10⁷,
//! and its target is 7.5 times looser, the variance of its Γ being
//! ten times that of the additive ones).
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
