//! Tests of the `acm` binary: each command's results, its `--help`, and the
//! bad inputs and command lines of the examples it replaces. One test
//! binary, one module per command.

mod campaign_e2e;
mod campaign_inputs;
mod campaign_models;
mod campaign_safety;
mod common;
mod compare;
mod corr;
mod general;
mod lexsub;
mod pairwise;
mod plots;
mod relevance;
mod simulate;
mod standardise;
mod trec;
mod triplets;
mod wordsim;
