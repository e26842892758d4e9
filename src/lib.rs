//! # adaptive-comp-metrics
//!
//! Evaluate semantic models (word embeddings, rankers, lexical-substitution
//! systems) against human judgements, with the focus on top ranks.
//!
//! ```
//! use adaptive_comp_metrics::{rho_w, tau_w, Hyperbolic, Scheme, TopWeighted};
//!
//! let human = [0.95, 0.80, 0.61, 0.40, 0.12]; // gold relatedness, larger = more related
//! let model = [0.91, 0.62, 0.83, 0.35, 0.20]; // an embedding model's cosine similarities
//! let r = rho_w(&human, &model)?; // f(n) = 1/(n + 2)², additive weights (Eq. 9)
//! let t = tau_w(&human, &model)?;
//! assert!(r.rho > 0.5 && t.tau > 0.3);
//! // Other choices: weigher, weighting scheme, tie method, score direction.
//! let gold_weighted = TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First);
//! assert!(gold_weighted.rho(&human, &model)?.rho > 0.5);
//! # Ok::<(), adaptive_comp_metrics::Error>(())
//! ```
//!
//! ## Map by task
//!
//! | task | where |
//! |---|---|
//! | scores → 1-based ranks, tie methods | [`rank()`], [`Ties`], [`Order`] |
//! | weighting functions f(rank), R(n0), per-item weights (Eq. 9) | [`weigh`] |
//! | top-weighted ρ_w and τ_w (Lombardo et al. 2020, Eq. 8) | [`rho_w`], [`tau_w`], [`TopWeighted`] |
//! | ρ_w and τ_w on the standardised scale (0 = chance, Lombardo 2025) | [`TopWeighted::rho_standardised`], [`Standardiser`], [`correlation::standardised`] |
//! | plain Spearman ρ and Kendall τ-b with p-values | [`spearman`], [`kendall_tau_b`] |
//! | Kendall's general Γ, the O(n²) reference | [`correlation::gamma`] |
//! | lexical substitution: SemEval-2007 best/oot/mode, Jabbari et al.'s revised measures, GAP | [`lexsub`] |
//! | reliability-weighted triplet score (Avraham & Goldberg 2016), dataset building, word vectors | [`triplet`] |
//! | graded relevance judgements, tie-aware MAP/P@k/nDCG, rank-biased overlap | [`relevance`] |
//! | adaptive ballot scheduler for pairwise vote collection (feature `scheduler`) | `ballot` |
//!
//! Every function validates its input in one pass and returns a typed
//! [`Error`] (what was wrong and where) instead of panicking or returning NaN.
//!
//! ## Crate features
//!
//! - `scheduler`: the adaptive ballot protocol of Lombardo et al. (2020), §2.
//! - `simulator`: the voter simulator of §4 and the Table 2 reproduction.
//! - `uncertainty`: null distributions, permutation p-values, bootstrap intervals.
//! - `serde`: serialisation of public data types.
//!
//! ## References
//!
//! - P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone (2020).
//!   *Top-rank-focused adaptive vote collection for the evaluation of
//!   domain-specific semantic models.* EMNLP 2020.
//! - M. G. Kendall (1948). *Rank correlation methods.*
#![doc(test(attr(deny(warnings))))]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "scheduler")]
#[cfg_attr(docsrs, doc(cfg(feature = "scheduler")))]
pub mod ballot;
pub mod correlation;
pub mod error;
pub mod lexsub;
pub mod rank;
pub mod relevance;
mod sum;
pub mod triplet;
#[cfg(feature = "uncertainty")]
#[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
pub mod uncertainty;
pub mod weigh;

pub use correlation::standardised::{
    Coefficient, GammaMoments, MomentEstimate, MomentSource, StandardisedError, StandardisedRho,
    StandardisedTau, Standardiser,
};
pub use correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTau, WeightedTauOptions, WeightedTauStats, weighted_kendall,
    weighted_tau, weighted_tau_stats,
};
pub use correlation::weighted::{
    RhoW, TauW, TopWeighted, rho_w, rho_w_with_weights, tau_w, tau_w_with_weights,
};
pub use correlation::{
    kendall::{KendallResult, kendall_tau_b, kendall_tau_b_naive},
    pvalue::Alternative,
    spearman::{SpearmanResult, spearman, spearman_ranks},
};
pub use error::{Error, Result, WeightProblem};
pub use rank::{Order, Ties, rank, validate_ranks};
pub use weigh::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Quadratic, Scheme, Unweighted, Weigher,
    first_rank_fraction, item_weights,
};
#[cfg(feature = "simulator")]
#[cfg_attr(docsrs, doc(cfg(feature = "simulator")))]
pub mod simulate;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
