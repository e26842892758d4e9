//! Golden values from SciPy for `spearman` and `kendall_tau_b`: statistic and
//! p-values (two-sided, greater, less; Kendall also with the asymptotic
//! method), with and without ties, on fixed seeded data.
//!
//! Source: `tests/data/plain/gen_scipy.py` (SciPy 1.17.1, NumPy 2.4.6), which
//! writes `tests/data/plain/scipy_goldens.json` with the inputs and values.

use adaptive_comp_metrics::{Alternative, kendall_tau_b, spearman};
use serde_json::Value;

use crate::{ALTERNATIVES as ALTS, assert_cases_cover, fitted, golden_cases};

fn cases() -> Vec<Value> {
    golden_cases(include_str!("../data/plain/scipy_goldens.json"))
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

/// Relative error ≤ 1e-13 plus what 4 ulp of the coefficient or statistic
/// move p by, `condition·4u`: the crate's t and normal tails are within a
/// few ulp of the exact value at a given statistic (against mpmath in
/// `src/special/reference.rs`), but the statistic itself is rounded
/// differently here and in SciPy, which far in the tail moves p by more
/// (1.3e-13 at z ≈ 28, p ≈ 1e-177; 6e-11 at ρ = 0.99994, n = 60).
fn close(a: f64, b: f64, condition: f64) -> bool {
    rel(a, b) <= 1e-13 + condition * 4.0 * f64::EPSILON
}

/// |d ln p / d ln z| ≈ z² for a normal tail.
fn normal_condition(z: f64) -> f64 {
    if z.is_finite() { z * z } else { 0.0 }
}

/// |d ln p / d ln ρ| for Spearman's t-test:
/// (d ln p/d ln t)·(d ln t/d ln ρ) ≈ ((ν + 1)t²/(ν + t²))·(1/(1 − ρ²)).
fn spearman_condition(rho: f64, t: f64, n: usize) -> f64 {
    if !t.is_finite() {
        return 0.0;
    }
    let nu = (n - 2) as f64;
    (nu + 1.0) * t * t / (nu + t * t) / ((1.0 - rho) * (1.0 + rho))
}

fn rel(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        a.abs()
    } else {
        ((a - b) / b).abs()
    }
}

/// Asserts that a coefficient is within 1e-12 of SciPy's; returns the
/// distance.
fn coefficient_error(name: &str, what: &str, got: f64, want: &Value) -> f64 {
    let want = want.as_f64().expect(what);
    assert!(
        (got - want).abs() <= 1e-12,
        "{name}: {what} {got} vs {want}"
    );
    (got - want).abs()
}

/// Asserts that the p-value `got` of case `name` (alternative `key`) is
/// `close` to SciPy's `want` at `condition`; returns the relative error.
fn p_error(name: &str, key: &str, got: f64, want: &Value, condition: f64) -> f64 {
    let p = want.as_f64().expect("p");
    assert!(close(got, p, condition), "{name} {key}: p {got:e} vs {p:e}");
    rel(got, p)
}

#[test]
fn goldens_cover_ties_sizes_and_exact_cases() {
    assert_cases_cover(
        &cases(),
        72,
        &[
            "scipy_doc_spearman",
            "scipy_doc_kendall",
            "one_swap_n60",
            "ties_n1000_r0.5",
        ],
    );
}

#[test]
fn spearman_matches_scipy_spearmanr() {
    let mut worst = (0.0_f64, 0.0_f64);
    for (name, case, r) in fitted(cases(), floats, spearman) {
        worst.0 = worst.0.max(coefficient_error(
            &name,
            "rho",
            r.rho,
            &case["spearman_rho"],
        ));
        let cond = spearman_condition(r.rho, r.statistic, r.n);
        for (key, alt) in ALTS {
            let want = &case["spearman_p"][key];
            worst.1 = worst.1.max(p_error(&name, key, r.p_value(alt), want, cond));
        }
    }
    eprintln!(
        "spearman: max |Δρ| = {:e}, max relative |Δp| = {:e}",
        worst.0, worst.1
    );
}

#[test]
fn kendall_matches_scipy_kendalltau() {
    let mut worst = (0.0_f64, 0.0_f64);
    for (name, case, k) in fitted(cases(), floats, kendall_tau_b) {
        worst.0 = worst
            .0
            .max(coefficient_error(&name, "tau", k.tau, &case["kendall_tau"]));
        for (key, alt) in ALTS {
            let (got, asymptotic) = (k.p_value(alt), k.p_value_asymptotic(alt));
            // The exact p-value has no statistic to round.
            let exact = got != asymptotic;
            let cond = if exact { 0.0 } else { normal_condition(k.z) };
            let e = p_error(&name, key, got, &case["kendall_p"][key], cond);
            let want = &case["kendall_p_asymptotic"][key];
            let key = format!("{key} asymptotic");
            let ea = p_error(&name, &key, asymptotic, want, normal_condition(k.z));
            worst.1 = worst.1.max(e).max(ea);
        }
    }
    eprintln!(
        "kendall: max |Δτ| = {:e}, max relative |Δp| = {:e}",
        worst.0, worst.1
    );
}

#[test]
fn scipy_documentation_examples() {
    // From the docstrings of scipy.stats.spearmanr and scipy.stats.kendalltau
    // (SciPy 1.17): statistic and two-sided p-value.
    let r = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[5.0, 6.0, 7.0, 8.0, 7.0]).unwrap();
    assert!((r.rho - 0.8207826816681233).abs() < 1e-15);
    assert!((r.p_value(Alternative::TwoSided) - 0.08858700531354381).abs() < 1e-14);
    let k = kendall_tau_b(&[12.0, 2.0, 1.0, 12.0, 2.0], &[1.0, 4.0, 7.0, 1.0, 0.0]).unwrap();
    assert!((k.tau - -0.47140452079103173).abs() < 1e-15);
    assert!((k.p_value(Alternative::TwoSided) - 0.2827454599327748).abs() < 1e-14);
}
