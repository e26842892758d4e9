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
#[path = "../common/xorshift.rs"]
mod xorshift;

/// The default relevance options with the cutoff rank `k`.
pub fn top_k(k: usize) -> adaptive_comp_metrics::relevance::Options {
    adaptive_comp_metrics::relevance::Options {
        k,
        ..Default::default()
    }
}

/// A word-pair benchmark `name` of the rows (word 1, word 2, human score).
pub fn benchmark<S: AsRef<str>>(
    name: &str,
    rows: &[(S, S, f64)],
) -> adaptive_comp_metrics::wordsim::Benchmark {
    adaptive_comp_metrics::wordsim::Benchmark::new(
        name,
        rows.iter()
            .map(|(a, b, s)| {
                adaptive_comp_metrics::wordsim::WordPair::new(a.as_ref(), b.as_ref(), *s)
            })
            .collect(),
    )
    .unwrap()
}

/// The answers of a lexical-substitution system file `text` read strictly.
pub fn system_answers(
    text: &str,
    format: adaptive_comp_metrics::lexsub::Format,
) -> Vec<adaptive_comp_metrics::lexsub::SystemAnswer> {
    let mode = adaptive_comp_metrics::lexsub::Mode::Strict;
    adaptive_comp_metrics::lexsub::read_system(text.as_bytes(), format, mode)
        .unwrap()
        .items
}
