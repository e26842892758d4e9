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
//!
//! Property tests add slow, obviously correct oracles: the finite sums of
//! Abramowitz & Stegun 26.7.3–4 for the t tail where p ≥ 0.05, exact u128
//! permutation counts for the Mahonian distribution, and monotonicity,
//! symmetry and range for every tail.

use super::erf::normal_sf;
use super::rel;
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

/// Checks every row of a reference file with `check` and prints the tally
/// under `name`.
fn tally_of(name: &str, text: &str, mut check: impl FnMut(&mut Tally, &[&str])) -> Tally {
    let mut tally = Tally::default();
    for row in rows(text) {
        check(&mut tally, &row);
    }
    tally.report(name);
    tally
}

#[test]
fn student_t_tail_against_mpmath_and_scipy() {
    let mut big_df = 0;
    let text = include_str!("../../tests/data/pvalues/student_t.txt");
    let tally = tally_of("student t", text, |tally, row| {
        let (df, t) = (row[0].parse::<u64>().expect("df"), num(row[1]));
        let got = student_t_sf(t, df);
        tally.check(&format!("df {df}, t {t:e}"), got, num(row[2]), num(row[3]));
        big_df += usize::from(df >= 999_998);
    });
    assert!(tally.rows > 1800 && big_df > 100);
}

#[test]
fn pearson_tail_against_mpmath_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/pearson_r.txt");
    let tally = tally_of("pearson r", text, |tally, row| {
        let (n, r) = (row[0].parse::<u64>().expect("n"), num(row[1]));
        let got = pearson_sf(r, n);
        tally.check(&format!("n {n}, r {r:e}"), got, num(row[2]), num(row[3]));
    });
    assert!(tally.rows > 500);
}

#[test]
fn normal_tail_against_mpmath_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/normal.txt");
    let tally = tally_of("normal", text, |tally, row| {
        let z = num(row[0]);
        tally.check(&format!("z {z:e}"), normal_sf(z), num(row[1]), num(row[2]));
    });
    assert!(tally.rows > 150);
}

#[test]
fn mahonian_cdf_against_exact_counts_and_scipy() {
    let text = include_str!("../../tests/data/pvalues/mahonian.txt");
    let tally = tally_of("mahonian", text, |tally, row| {
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
    });
    assert!(tally.rows > 300);
}

/// P(T > t) from the finite sums of Abramowitz & Stegun 26.7.3–4 in plain
/// doubles, A = P(|T| < t), θ = atan(t/√ν), P(T > t) = (1 − A)/2:
///
/// ```text
/// odd ν:  A = (2/π)[θ + sin θ (cos θ + (2/3)cos³θ + … + (2·4⋯(ν−3))/(1·3⋯(ν−2)) cos^(ν−2) θ)]
/// even ν: A = sin θ [1 + ½cos²θ + (1·3)/(2·4)cos⁴θ + … + (1·3⋯(ν−3))/(2·4⋯(ν−2)) cos^(ν−2) θ]
/// ```
/// Slow and obviously correct where P is not small (the subtraction loses
/// about log₁₀(1/P) digits).
fn t_sf_finite_sum(t: f64, df: u64) -> f64 {
    let theta = (t / (df as f64).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let a = if df % 2 == 1 {
        let mut total = 0.0;
        let mut term = c;
        for k in 1..=(df - 1) / 2 {
            if k > 1 {
                term *= c * c * (2 * k - 2) as f64 / (2 * k - 1) as f64;
            }
            total += term;
        }
        if df == 1 {
            total = 0.0;
        }
        2.0 / core::f64::consts::PI * (theta + s * total)
    } else {
        let (mut total, mut term) = (1.0, 1.0);
        for k in 1..df / 2 {
            term *= c * c * (2 * k - 1) as f64 / (2 * k) as f64;
            total += term;
        }
        s * total
    };
    (1.0 - a) / 2.0
}

/// P(C ≤ k) for the inversions C of a random permutation of n ≤ 25 items,
/// from exact counts (u128: 25! < 2¹²⁸).
fn mahonian_exact(n: u64, k: u64) -> f64 {
    let mut counts = vec![1_u128];
    for j in 2..=n as usize {
        let mut next = vec![0_u128; counts.len() + j - 1];
        for (i, &c) in counts.iter().enumerate() {
            for slot in &mut next[i..i + j] {
                *slot += c;
            }
        }
        counts = next;
    }
    let below: u128 = counts.iter().take(k as usize + 1).sum();
    let total: u128 = counts.iter().sum();
    below as f64 / total as f64
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    #[test]
    fn t_tail_matches_the_finite_sums(df in 1_u64..60, t in 0.0_f64..1.65) {
        let want = t_sf_finite_sum(t, df);
        proptest::prop_assume!(want >= 0.05);
        let got = student_t_sf(t, df);
        proptest::prop_assert!(rel(got, want) <= 1e-13, "{} vs {}", got, want);
    }

    #[test]
    fn tails_are_monotone_symmetric_and_in_range(
        df in proptest::prop_oneof![1_u64..100, 100_u64..10_000_000],
        t in -1e3_f64..1e3, dt in 0.0_f64..1.0, z in -40.0_f64..40.0,
    ) {
        let (p, q) = (student_t_sf(t, df), student_t_sf(t + dt, df));
        proptest::prop_assert!((0.0..=1.0).contains(&p) && q <= p, "{} {}", p, q);
        proptest::prop_assert!((p + student_t_sf(-t, df) - 1.0).abs() <= 2e-16);
        let r = t / (t * t + df as f64).sqrt();
        let pr = pearson_sf(r, df + 2);
        proptest::prop_assert!((0.0..=1.0).contains(&pr));
        proptest::prop_assert!((pr + pearson_sf(-r, df + 2) - 1.0).abs() <= 2e-16);
        let (a, b) = (normal_sf(z), normal_sf(z + dt));
        proptest::prop_assert!((0.0..=1.0).contains(&a) && b <= a);
        proptest::prop_assert!((a + normal_sf(-z) - 1.0).abs() <= 2e-16);
    }

    #[test]
    fn mahonian_matches_exact_counts(n in 2_u64..=25, frac in 0.0_f64..=1.0) {
        let total = n * (n - 1) / 2;
        let k = (frac * total as f64) as u64;
        let (got, want) = (mahonian_cdf(n, k), mahonian_exact(n, k));
        proptest::prop_assert!(rel(got, want) <= 1e-13, "n {} k {}: {} vs {}", n, k, got, want);
    }
}
