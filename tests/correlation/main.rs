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

/// The three alternatives by SciPy's names, as the golden files key them.
pub const ALTERNATIVES: [(&str, adaptive_comp_metrics::Alternative); 3] = [
    ("two-sided", adaptive_comp_metrics::Alternative::TwoSided),
    ("greater", adaptive_comp_metrics::Alternative::Greater),
    ("less", adaptive_comp_metrics::Alternative::Less),
];

/// The `cases` array of a golden JSON file written by a reference script.
pub fn golden_cases(text: &str) -> Vec<serde_json::Value> {
    let doc: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    doc["cases"].as_array().expect("cases").clone()
}

/// Asserts that there are `count` golden cases and that the ones named
/// `needed` are among them.
pub fn assert_cases_cover(cases: &[serde_json::Value], count: usize, needed: &[&str]) {
    assert_eq!(cases.len(), count);
    let names: Vec<&str> = cases.iter().filter_map(|c| c["name"].as_str()).collect();
    for needed in needed {
        assert!(names.contains(needed), "{needed}");
    }
}

/// Each golden case with its name and `f` of its inputs `x` and `y` (read
/// by `floats`).
pub fn fitted<R>(
    cases: Vec<serde_json::Value>,
    floats: fn(&serde_json::Value) -> Vec<f64>,
    f: impl Fn(&[f64], &[f64]) -> Result<R, adaptive_comp_metrics::CorrelationError>,
) -> impl Iterator<Item = (String, serde_json::Value, R)> {
    cases.into_iter().map(move |case| {
        let name = case["name"].as_str().unwrap_or("?").to_owned();
        let r = f(&floats(&case["x"]), &floats(&case["y"])).expect("valid case");
        (name, case, r)
    })
}

/// The lines of a whitespace-separated golden text file with their fields.
pub fn golden_rows(text: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    text.lines()
        .map(|line| (line, line.split_whitespace().collect()))
}
