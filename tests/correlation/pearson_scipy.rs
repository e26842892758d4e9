//! Golden values for `pearson` from SciPy: r, p-values (two-sided, greater,
//! less) and Fisher-z confidence intervals (three levels, three
//! alternatives), plus r computed exactly with mpmath from the same inputs
//! and the exact p-values at that r (mpmath).
//!
//! Source: `tests/data/pearson/gen_scipy.py` (SciPy 1.17.1, NumPy 1.26.4,
//! mpmath 1.4.1), which writes `tests/data/pearson/scipy_pearsonr.json`
//! with the inputs and values.

use adaptive_comp_metrics::pearson;
use serde_json::Value;

use crate::{ALTERNATIVES as ALTS, assert_cases_cover, fitted, golden_cases};

fn cases() -> Vec<Value> {
    golden_cases(include_str!("../data/pearson/scipy_pearsonr.json"))
}

/// A double stored as its shortest decimal repr (a string: parsed exactly).
fn float(v: &Value) -> f64 {
    v.as_str().expect("string").parse().expect("a float")
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(float).collect()
}

/// The distance between two doubles in units in the last place.
fn ulps(a: f64, b: f64) -> f64 {
    (a - b).abs() / (f64::EPSILON * a.abs().max(b.abs()).max(f64::MIN_POSITIVE))
}

#[test]
fn goldens_cover_sizes_scales_and_ties() {
    assert_cases_cover(
        &cases(),
        40,
        &[
            "scipy_doc",
            "scale_1e300_1e-300",
            "likert_n60",
            "normal_n1000_r-0.65",
        ],
    );
}

#[test]
fn r_is_the_exactly_rounded_value_and_matches_scipy() {
    let mut exact = 0;
    for (name, case, r) in fitted(cases(), floats, pearson) {
        let r = r.r;
        let r_exact = float(&case["r_exact"]);
        let r_scipy = float(&case["r"]);
        // mpmath's 60-digit value rounded once: ours is the same double (its
        // double-word sums make it correctly rounded but for near-ties), and
        // SciPy's (a plain double dot product) within a few ulp.
        assert_eq!(r, r_exact, "{name}: {} ulp", ulps(r, r_exact));
        exact += 1;
        assert!(
            (r - r_scipy).abs() <= 1e-12,
            "{name}: r {r} vs scipy {r_scipy}"
        );
    }
    assert_eq!(exact, 40);
}

/// Every case's p-values (three alternatives) against the reference values
/// stored under `key`, within `tolerance` relative; returns the worst.
fn check_p_values(key: &str, tolerance: f64) -> f64 {
    let mut worst = 0.0_f64;
    for (name, case, r) in fitted(cases(), floats, pearson) {
        for (alt_key, alt) in ALTS {
            let p = float(&case[key][alt_key]);
            let got = r.p_value(alt);
            let rel = if p == 0.0 { got } else { (got - p).abs() / p };
            assert!(
                rel <= tolerance,
                "{name} {key} {alt_key}: p {got:e} vs {p:e} (rel {rel:e})"
            );
            worst = worst.max(rel);
        }
    }
    worst
}

#[test]
fn p_values_match_scipy_pearsonr() {
    // SciPy's r is a few ulp from ours, which moves p far in the tail by up
    // to about (n − 2)·|r|/(1 − r²) ulp, and SciPy rounds (1 + r)/2 before
    // its incomplete beta (together ≤ 3e-13 here).
    let worst = check_p_values("p", 1e-12);
    eprintln!("pearson: max relative |Δp| = {worst:e}");
}

#[test]
fn p_values_are_exact_to_1e13() {
    // Our r is the correctly rounded r (asserted above), and mpmath's
    // p-values are at that same double: only the tail's own error remains.
    let worst = check_p_values("p_exact", 1e-13);
    eprintln!("pearson: max relative |Δp| against mpmath = {worst:e}");
}

#[test]
fn confidence_intervals_match_scipy() {
    let mut worst = 0.0_f64;
    for (name, case, r) in fitted(cases(), floats, pearson) {
        for (key, alt) in ALTS {
            for level in [0.9, 0.95, 0.99] {
                let want = floats(&case["ci"][key][level.to_string().as_str()]);
                let ci = r.confidence_interval(level, alt).expect("valid level");
                for (got, want) in [(ci.lower, want[0]), (ci.upper, want[1])] {
                    assert!(
                        (got - want).abs() <= 1e-12,
                        "{name} {key} {level}: {got} vs {want}"
                    );
                    worst = worst.max((got - want).abs());
                }
            }
        }
    }
    eprintln!("pearson: max |Δ| of interval ends = {worst:e}");
}
