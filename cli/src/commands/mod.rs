//! The subcommands, one module each.

pub mod corr;
pub mod lexsub;
pub mod triplets;
