//! The subcommands, one module each.

pub mod campaign;
pub mod compare;
pub mod corr;
pub mod lexsub;
pub mod pairwise;
pub mod relevance;
pub mod simulate;
pub mod standardise;
pub mod trec;
pub mod triplets;
pub mod wordsim;
