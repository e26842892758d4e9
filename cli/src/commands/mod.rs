//! The subcommands, one module each.

pub mod campaign;
pub mod corr;
pub mod lexsub;
pub mod trec;
pub mod triplets;
