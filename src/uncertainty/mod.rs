//! How much to trust a coefficient: null expectation and standardised
//! values, permutation p-values, bootstrap confidence intervals and paired
//! comparisons of two models (feature `uncertainty`).
//!
//! Everything works on any [`Statistic`] of two paired score vectors: the
//! ready-made [`Spearman`], [`KendallTauB`], [`TopWeightedRho`] (ρ_w),
//! [`TopWeightedTau`] (τ_w), or any closure
//! `Fn(&[f64], &[f64]) -> Result<f64, Error>` ([`Error`](crate::CorrelationError)).
//!
//! | question | where |
//! |---|---|
//! | what value does chance give? how far above chance is this? | [`null_moments`], [`standardise`] (and `…_seeded`) |
//! | null mean, variance, left variance of ρ_w/τ_w for the standardised scale (ties kept) | [`GammaMonteCarlo`] |
//! | is the correlation better than chance? | [`permutation_test`], [`permutation_test_seeded`], [`Permutations`] |
//! | how precise is the coefficient? | [`bootstrap_ci`], [`bootstrap_ci_seeded`], [`Bootstrap`] |
//! | is model A better than model B on the same gold ranking? | [`paired_comparison`], [`paired_comparison_seeded`] |
//! | which of k systems differ, on per-unit scores or coefficients, corrected for multiple tests; Friedman and the critical difference | [`compare`] |
//! | what did the permutations or resamples give? (to plot it) | [`Permutations::test_with_histogram`], [`Bootstrap::run_with_histogram`], [`Histogram`] |
//!
//! ```
//! use adaptive_comp_metrics::uncertainty::{permutation_test_seeded, Alternative, TopWeightedRho};
//!
//! let human = [0.95, 0.80, 0.61, 0.40, 0.12, 0.33, 0.71, 0.05];
//! let model = [0.91, 0.62, 0.83, 0.35, 0.20, 0.30, 0.60, 0.10];
//! let test = permutation_test_seeded(&TopWeightedRho::new(), &human, &model, 999, Alternative::Greater, 1)?;
//! assert!(test.p_value < 0.05);
//! # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
//! ```
//!
//! ## Reproducibility and threads
//!
//! Every call that draws comes in two forms: with the caller's generator
//! (`permutation_test(…, &mut rng)`) or with a seed (`permutation_test_seeded(…,
//! seed)`, the same as passing `ChaCha8Rng::seed_from_u64(seed)`; see
//! [Random numbers and seeds](crate#random-numbers-and-seeds)). The
//! generator is asked for one `u64` seed per bootstrap or permutation run.
//! Replicate `i` (a permutation or a resample) then draws from
//! its own ChaCha8 stream `(seed, i)` and the results are combined in index
//! order, so a seeded call gives bit-for-bit the same answer whatever the
//! number of threads ([`Threads`]); replicates run on all cores by default
//! (`std::thread::scope`).
//!
//! ## References
//!
//! - B. Efron, R. Tibshirani (1993). *An introduction to the bootstrap*, ch. 13–14 (BCa).
//! - B. V. North, D. Curtis, P. C. Sham (2002). A note on the calculation of
//!   empirical p values from Monte Carlo procedures. *AJHG* 71(2), 439–441.
//! - M. G. Kendall (1948). *Rank correlation methods*, ch. 4–5 (null moments of τ with ties).

/// Writes the `…_seeded` twin of a function or method whose last argument
/// is the caller's generator: the same arguments with `seed: u64` in its
/// place, calling the original with `&mut seeded_rng(seed)`, so that no twin
/// can drift from what it mirrors. The twin's documentation and bounds are
/// given; its generics are the original's without the generator's.
macro_rules! seeded {
    (
        $(#[$doc:meta])*
        pub fn $twin:ident<$($g:ident),+>(&self $(, $arg:ident: $ty:ty)* $(,)?)
            -> $out:ty = Self::$of:ident
            where { $($bound:tt)* }
    ) => {
        $(#[$doc])*
        pub fn $twin<$($g),+>(
            &self,
            $($arg: $ty,)*
            seed: u64,
        ) -> Result<$out, $crate::uncertainty::UncertaintyError>
        where
            $($bound)*
        {
            self.$of($($arg,)* &mut $crate::uncertainty::seeded_rng(seed))
        }
    };
    (
        $(#[$doc:meta])*
        pub fn $twin:ident<$($g:ident),+>($($arg:ident: $ty:ty),* $(,)?)
            -> $out:ty = $of:ident
            where { $($bound:tt)* }
    ) => {
        $(#[$doc])*
        pub fn $twin<$($g),+>(
            $($arg: $ty,)*
            seed: u64,
        ) -> Result<$out, $crate::uncertainty::UncertaintyError>
        where
            $($bound)*
        {
            $of($($arg,)* &mut $crate::uncertainty::seeded_rng(seed))
        }
    };
}

mod bootstrap;
pub mod compare;
mod display;
mod engine;
mod error;
mod histogram;
mod null;
mod paired;
mod permutation;
mod standardised;
mod statistic;

pub use crate::correlation::pvalue::Alternative;
pub use bootstrap::{Bootstrap, ConfidenceInterval, Interval, bootstrap_ci, bootstrap_ci_seeded};
pub use error::UncertaintyError;
pub use histogram::Histogram;
pub use null::{
    Estimate, NullMoments, Source, Standardised, kendall_tau_b_null, null_moments,
    null_moments_seeded, spearman_null, standardise, standardise_seeded,
};
pub use paired::{Exchange, PairedComparison, paired_comparison, paired_comparison_seeded};
pub use permutation::{PermutationTest, Permutations, permutation_test, permutation_test_seeded};
pub use standardised::GammaMonteCarlo;
pub use statistic::{
    ExactNull, KendallTauB, Prepared, Spearman, Statistic, TopWeightedRho, TopWeightedTau, VignaTau,
};

use crate::correlation::error::{check_finite, check_pair_len};
use num_traits::Float;

/// How many threads run the replicates (results do not depend on it): the
/// crate's [`Threads`], re-exported here where it first
/// served.
pub use crate::threads::Threads;

/// The generator behind every `…_seeded` entry point: ChaCha8
/// (`rand_chacha` 0.10) seeded with `SeedableRng::seed_from_u64(seed)`.
/// Changing it changes every seeded result: value-breaking.
pub(crate) fn seeded_rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand::SeedableRng::seed_from_u64(seed)
}

/// The minimum number of items of every method here.
pub(crate) const MIN_ITEMS: usize = 3;

/// Validates paired scores in one pass (lengths, at least 3 items, finite)
/// and converts them to `f64`.
pub(crate) fn to_f64_pair<F: Float>(
    x: &[F],
    y: &[F],
) -> Result<(Vec<f64>, Vec<f64>), UncertaintyError> {
    check_pair_len("x", x, "y", y, 0)?;
    check_len(x.len())?;
    check_finite("x", x)?;
    check_finite("y", y)?;
    Ok((to_f64(x), to_f64(y)))
}

pub(crate) fn to_f64<F: Float>(v: &[F]) -> Vec<f64> {
    // Finite floats always convert; NaN is rejected before.
    v.iter().map(|s| s.to_f64().unwrap_or(f64::NAN)).collect()
}

pub(crate) fn check_len(n: usize) -> Result<(), UncertaintyError> {
    if n < MIN_ITEMS {
        return Err(UncertaintyError::TooFewItems {
            needed: MIN_ITEMS,
            got: n,
        });
    }
    Ok(())
}

pub(crate) fn check_replicates(
    what: &'static str,
    needed: usize,
    got: usize,
) -> Result<(), UncertaintyError> {
    if got < needed {
        return Err(UncertaintyError::TooFewReplicates { what, needed, got });
    }
    Ok(())
}
