//! Integration tests of the rank-correlation core: ρ_w and τ_w, plain
//! Spearman and Kendall, Vigna's weighted τ.
//!
//! One test binary with one module per topic, so a fresh `cargo test` links
//! a few binaries instead of one per file.

#[path = "../common/splitmix.rs"]
#[allow(dead_code)]
mod splitmix;

#[path = "../common/harness.rs"]
mod harness;
mod misuse;
#[path = "../common/null_moments.rs"]
mod null_moments;
mod parallel;
mod pearson_props;
mod pearson_scipy;
mod plain_large;
mod plain_props;
mod plain_scipy;
mod pvalue_large;
mod standardised;
mod vigna_edges;
mod vigna_exact;
mod vigna_golden;
mod vigna_proptest;
mod weighted;

/// The error of inputs `left` and `right` whose lengths differ.
pub fn mismatch(
    left: &'static str,
    left_len: usize,
    right: &'static str,
    right_len: usize,
) -> adaptive_comp_metrics::CorrelationError {
    adaptive_comp_metrics::CorrelationError::LengthMismatch {
        left,
        left_len,
        right,
        right_len,
    }
}
