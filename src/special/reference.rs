//! The tails against the committed references: mpmath at 50 digits (checked
//! at 80 and, for t with df ≤ 3000, against the finite sums of Abramowitz &
//! Stegun 26.7.3–4) and SciPy 1.17.1 at the same double inputs, from
//! `tests/data/pvalues/gen_tails.py`.
//!
//! The bar is 1e-13 relative against mpmath for every tabulated p ≥ 1e-300.
//! Against SciPy it is the same wherever SciPy itself is within 5e-14 of
//! mpmath; the rows where it is not (SciPy's own error far in the tail, and
//! its underflow of the Cauchy tail beyond t = 1e199) are counted and
//! printed, and mpmath is trusted there.

use super::erf::normal_sf;
use super::student::{pearson_sf, student_t_sf};
use crate::correlation::pvalue::mahonian_cdf;

/// The data rows of a reference file (lines not starting with `#`).
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect()
}

fn num(s: &str) -> f64 {
    s.parse().expect("a float")
}

fn rel(got: f64, want: f64) -> f64 {
    if want == 0.0 {
        got.abs()
    } else {
        ((got - want) / want).abs()
    }
}

/// Tallies errors against mpmath and SciPy; asserts the bar.
#[derive(Default)]
struct Tally {
    worst_mp: f64,
    worst_scipy_trusted: f64,
    scipy_off: usize,
    rows: usize,
}

impl Tally {
    fn check(&mut self, what: &str, got: f64, mp: f64, scipy: f64) {
        let e = rel(got, mp);
        assert!(e <= 1e-13, "{what}: {got:e} vs mpmath {mp:e} (rel {e:e})");
        self.worst_mp = self.worst_mp.max(e);
        if rel(scipy, mp) <= 5e-14 {
            let s = rel(got, scipy);
            assert!(s <= 1e-13, "{what}: {got:e} vs SciPy {scipy:e} (rel {s:e})");
            self.worst_scipy_trusted = self.worst_scipy_trusted.max(s);
        } else {
            self.scipy_off += 1;
        }
        self.rows += 1;
    }

    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} rows, worst vs mpmath {:.2e}, worst vs SciPy where SciPy \
             is within 5e-14 of mpmath {:.2e}, {} rows where it is not",
            self.rows, self.worst_mp, self.worst_scipy_trusted, self.scipy_off
        );
    }
}

#[test]
fn student_t_tail_against_mpmath_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/student_t.txt");
    let mut tally = Tally::default();
    let mut big_df = 0;
    for row in rows(text) {
        let (df, t) = (row[0].parse::<u64>().expect("df"), num(row[1]));
        let got = student_t_sf(t, df);
        tally.check(&format!("df {df}, t {t:e}"), got, num(row[2]), num(row[3]));
        big_df += usize::from(df >= 999_998);
    }
    tally.report("student t");
    assert!(tally.rows > 1800 && big_df > 100);
}

#[test]
fn pearson_tail_against_mpmath_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/pearson_r.txt");
    let mut tally = Tally::default();
    for row in rows(text) {
        let (n, r) = (row[0].parse::<u64>().expect("n"), num(row[1]));
        let got = pearson_sf(r, n);
        tally.check(&format!("n {n}, r {r:e}"), got, num(row[2]), num(row[3]));
    }
    tally.report("pearson r");
    assert!(tally.rows > 500);
}

#[test]
fn normal_tail_against_mpmath_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/normal.txt");
    let mut tally = Tally::default();
    for row in rows(text) {
        let z = num(row[0]);
        let got = normal_sf(z);
        tally.check(&format!("z {z:e}"), got, num(row[1]), num(row[2]));
    }
    tally.report("normal");
    assert!(tally.rows > 150);
}

#[test]
fn mahonian_cdf_against_exact_counts_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/mahonian.txt");
    let mut tally = Tally::default();
    for row in rows(text) {
        let (n, k) = (
            row[0].parse::<u64>().expect("n"),
            row[1].parse::<u64>().expect("k"),
        );
        let got = mahonian_cdf(n, k);
        // SciPy's column is the two-sided p-value 2·P(C ≤ k), capped at 1.
        let exact = num(row[2]);
        let scipy = num(row[3]);
        let (got2, exact2) = ((2.0 * got).min(1.0), (2.0 * exact).min(1.0));
        tally.check(&format!("n {n}, k {k}"), got2, exact2, scipy);
        assert!(
            rel(got, exact) <= 1e-13,
            "n {n}, k {k}: {got:e} vs {exact:e}"
        );
    }
    tally.report("mahonian");
    assert!(tally.rows > 300);
}
