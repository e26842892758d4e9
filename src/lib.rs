//! # adaptive-comp-metrics
//!
//! Evaluate semantic models (word embeddings, rankers, lexical-substitution
//! systems) against human judgements, with the focus on top ranks.
#![doc(test(attr(deny(warnings))))]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod correlation;
pub mod error;
pub mod rank;
mod sum;
pub mod weigh;

pub use correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTau, WeightedTauOptions, WeightedTauStats,
    tau_w_with_weights, weighted_kendall, weighted_tau, weighted_tau_stats,
};
pub use error::{Error, Result, WeightProblem};
pub use rank::{Order, Ties, rank, validate_ranks};
pub use weigh::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Quadratic, Scheme, Unweighted, Weigher,
    first_rank_fraction, item_weights,
};
