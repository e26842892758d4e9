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
