//! Integration tests of the evaluation domains: lexical substitution,
//! graded relevance, reliability-weighted triplets, word vectors and
//! word-similarity benchmarks.
//!
//! One test binary with one module per topic, so a fresh `cargo test` links
//! a few binaries instead of one per file.

mod embedding_cosine;
mod embedding_read;
mod examples_cli;
mod fuzz_regressions;
mod lexsub_props;
mod lexsub_read;
mod lexsub_score_pl;
mod lexsub_semeval;
mod lexsub_slides;
mod limits;
mod relevance;
mod relevance_csv;
mod relevance_rbo;
mod relevance_trec;
mod relevance_trec_eval_rules;
mod relevance_trec_official;
mod triplet_build;
mod triplet_format;
mod triplet_score;
mod triplet_vectors;
mod wordsim_detect;
mod wordsim_eval;
mod wordsim_gensim;
mod wordsim_pairs;
mod wordsim_uncertainty;
