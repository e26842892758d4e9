//! Spearman's p-value end to end at n = 300, 10⁵ and 10⁶ (issue 15: the
//! statrs tail was 1–2e-12 relative off from n ≈ 300, 1.1e-11 at 10⁵,
//! 1.9e-10 at 10⁶), down to p ≈ 1e-245.
//!
//! Source: `tests/data/pvalues/gen_spearman_large.py` (SciPy 1.17.1,
//! NumPy 1.26.4, mpmath 1.4.1) builds the data from the shared SplitMix64
//! stream and writes `tests/data/pvalues/spearman_large.txt`: ρ from exact
//! integer arithmetic on the ranks, t from it, and the two-sided p-value at
//! that t from mpmath (50 digits) and from `scipy.stats.t.sf`, beside
//! `scipy.stats.spearmanr`'s own p-value.

use crate::splitmix;
use adaptive_comp_metrics::{Alternative, spearman};

struct Case {
    n: usize,
    seed: u64,
    c: f64,
    rho: f64,
    t: f64,
    p_mpmath: f64,
    p_scipy_t: f64,
    p_scipy_spearmanr: f64,
}

fn cases() -> Vec<Case> {
    include_str!("../data/pvalues/spearman_large.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            let f = |i: usize| v[i].parse::<f64>().expect("a float");
            Case {
                n: v[0].parse().expect("n"),
                seed: v[1].parse().expect("seed"),
                c: f(2),
                rho: f(3),
                t: f(4),
                p_mpmath: f(5),
                p_scipy_t: f(6),
                p_scipy_spearmanr: f(7),
            }
        })
        .collect()
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn spearman_p_values_at_large_n_are_exact_to_1e13() {
    let cases = cases();
    assert_eq!(cases.len(), 13);
    let (mut worst_mp, mut worst_scipy, mut worst_e2e) = (0.0_f64, 0.0_f64, 0.0_f64);
    for case in &cases {
        let (x, e) = splitmix::data(case.seed, case.n, 0);
        let s = (1.0 - case.c * case.c).sqrt();
        let y: Vec<f64> = x.iter().zip(&e).map(|(a, b)| case.c * a + s * b).collect();
        let r = spearman(&x, &y).expect("valid data");
        let what = format!("n {} seed {}", case.n, case.seed);
        // ρ is the exactly rounded value here, so t and the p-value are
        // computed from the same double as the references.
        assert_eq!(r.rho, case.rho, "{what}: ρ");
        assert_eq!(r.statistic, case.t, "{what}: t");
        let p = r.p_value(Alternative::TwoSided);
        let e_mp = rel(p, case.p_mpmath);
        assert!(
            e_mp <= 1e-13,
            "{what}: p {p:e} vs mpmath {:e}",
            case.p_mpmath
        );
        // SciPy's t.sf at the same t, itself up to 7.6e-14 off mpmath here.
        let e_sc = rel(p, case.p_scipy_t);
        assert!(
            e_sc <= 1e-13,
            "{what}: p {p:e} vs SciPy {:e}",
            case.p_scipy_t
        );
        worst_mp = worst_mp.max(e_mp);
        worst_scipy = worst_scipy.max(e_sc);
        worst_e2e = worst_e2e.max(rel(p, case.p_scipy_spearmanr));
    }
    assert!(
        cases
            .iter()
            .any(|c| c.n == 1_000_000 && c.p_mpmath < 1e-240)
    );
    eprintln!(
        "spearman at large n: worst relative error vs mpmath {worst_mp:.2e}, vs SciPy t.sf \
         {worst_scipy:.2e}, vs scipy.stats.spearmanr (its own ρ) {worst_e2e:.2e}"
    );
}
