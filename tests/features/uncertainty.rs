//! Null moments, permutation tests, bootstrap intervals and paired
//! comparisons against closed forms, full enumeration, an independent NumPy
//! Monte Carlo (tests/data/uncertainty/gen_null.py) and simulation.
#![cfg(feature = "uncertainty")]

use adaptive_comp_metrics::uncertainty::{
    Alternative, Bootstrap, Exchange, Interval, KendallTauB, Permutations, Source, Spearman,
    Statistic, Threads, TopWeightedRho, TopWeightedTau, UncertaintyError, VignaTau, bootstrap_ci,
    kendall_tau_b_null, null_moments, paired_comparison, permutation_test, spearman_null,
    standardise,
};
use adaptive_comp_metrics::{CorrelationError, Hyperbolic, Scheme};
use core::num::NonZeroUsize;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn threads(n: usize) -> Threads {
    Threads::Fixed(NonZeroUsize::new(n).unwrap())
}

fn range(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64).collect()
}

/// A standard normal pair with correlation r (Box–Muller).
fn normal_pair(rng: &mut ChaCha8Rng, r: f64) -> (f64, f64) {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random();
    let radius = (-2.0 * u1.ln()).sqrt();
    let (z1, z2) = (
        radius * (std::f64::consts::TAU * u2).cos(),
        radius * (std::f64::consts::TAU * u2).sin(),
    );
    (z1, r * z1 + (1.0 - r * r).sqrt() * z2)
}

/// All permutations of 0..n (Heap's algorithm).
fn all_permutations(n: usize) -> Vec<Vec<usize>> {
    fn heap(k: usize, p: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(p.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, p, out);
            p.swap(if k.is_multiple_of(2) { i } else { 0 }, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(n, &mut (0..n).collect(), &mut out);
    out
}

/// The statistic over all n! permutations of y.
fn enumerate<S: Statistic + ?Sized>(s: &S, x: &[f64], y: &[f64]) -> Vec<f64> {
    all_permutations(y.len())
        .iter()
        .map(|p| {
            let yp: Vec<f64> = p.iter().map(|&i| y[i]).collect();
            s.value(x, &yp).unwrap()
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

// ---------------------------------------------------------------- bars

/// Bar: the permutation null of plain τ has mean 0 and variance
/// 2(2n+5)/(9n(n−1)) (Kendall 1948) within Monte-Carlo error.
#[test]
fn kendall_permutation_null_matches_mean_zero_and_closed_form_variance() {
    let n = 25;
    let x = range(n);
    let mut y = range(n);
    y.shuffle(&mut rng(1));
    let m = 20_000;
    let t = Permutations::new(m)
        .test(&KendallTauB, &x, &y, &mut rng(2))
        .unwrap();
    let nf = n as f64;
    let var = 2.0 * (2.0 * nf + 5.0) / (9.0 * nf * (nf - 1.0));
    let mf = m as f64;
    // Mean: 4 standard errors σ/√m.
    assert!(
        t.null_mean.abs() < 4.0 * (var / mf).sqrt(),
        "{}",
        t.null_mean
    );
    // Variance: SE of a sample variance ≈ σ²√(2/(m−1)) for a near-normal
    // statistic; 4 SE.
    let s2 = t.null_sd * t.null_sd;
    assert!(
        (s2 - var).abs() < 4.0 * var * (2.0 / (mf - 1.0)).sqrt(),
        "{s2} vs {var}"
    );
    assert_eq!(t.permutations, m);
}

/// The same with ties in both inputs, against the tie-corrected variance.
#[test]
fn kendall_permutation_null_with_ties_matches_the_tie_corrected_variance() {
    let x: Vec<f64> = (0..30).map(|i| f64::from(i / 3)).collect();
    let y: Vec<f64> = (0..30).map(|i| f64::from((i * 7) % 5)).collect();
    let exact = kendall_tau_b_null(&x, &y).unwrap();
    let m = 20_000;
    let t = Permutations::new(m)
        .test(&KendallTauB, &x, &y, &mut rng(3))
        .unwrap();
    let sd = exact.sd.value;
    assert!(t.null_mean.abs() < 4.0 * sd / (m as f64).sqrt());
    let rel = (t.null_sd / sd).powi(2) - 1.0;
    assert!(rel.abs() < 4.0 * (2.0 / m as f64).sqrt(), "{rel}");
}

/// Bar: a perfectly correlated sample has p ≤ 1/(permutations + 1).
#[test]
fn perfect_correlation_reaches_the_smallest_possible_p_value() {
    let x: Vec<f64> = (0..15).map(|i| f64::from(i) * 0.37).collect();
    let reversed: Vec<f64> = x.iter().map(|v| -v).collect();
    let pearson = |a: &[f64], b: &[f64]| -> Result<f64, CorrelationError> {
        Spearman.value(a, b) // any closure works
    };
    let stats: [&dyn Statistic; 7] = [
        &VignaTau::default(),
        &Spearman,
        &KendallTauB,
        &TopWeightedRho::new(),
        &TopWeightedTau::new(),
        &TopWeightedRho::new()
            .weigher(Hyperbolic)
            .scheme(Scheme::First),
        &pearson,
    ];
    let m = 499;
    for s in stats {
        let g = permutation_test(s, &x, &x, m, Alternative::Greater, &mut rng(4)).unwrap();
        assert!(g.p_value <= 1.0 / (m as f64 + 1.0), "{g:?}");
        assert_eq!(g.statistic, 1.0);
        let l = permutation_test(s, &x, &reversed, m, Alternative::Less, &mut rng(4)).unwrap();
        assert!(l.p_value <= 1.0 / (m as f64 + 1.0), "{l:?}");
        let two = permutation_test(s, &x, &x, m, Alternative::TwoSided, &mut rng(4)).unwrap();
        assert!(two.p_value <= 2.0 / (m as f64 + 1.0));
        // And the Monte-Carlo error is reported: √(p(1 − p)/m).
        let p = g.p_value;
        assert!((g.standard_error - (p * (1.0 - p) / m as f64).sqrt()).abs() < 1e-15);
    }
}

/// Bar: percentile and BCa intervals cover the true value at the nominal
/// rate. Bivariate normal with r = 0.5: the population Kendall τ is
/// (2/π)·asin(r) = 1/3 (Kendall 1948, ch. 10). 300 data sets of n = 30,
/// 90 % intervals from 300 resamples; the Monte-Carlo SE of the coverage is
/// √(0.9·0.1/300) ≈ 0.017, and we accept ±3.5 SE.
#[test]
fn bootstrap_intervals_cover_at_the_nominal_rate() {
    let (n, sets, level) = (30, 300, 0.9);
    let r: f64 = 0.5;
    let truth = 2.0 / std::f64::consts::PI * r.asin();
    let mut data_rng = rng(5);
    let mut boot_rng = rng(6);
    let mut covered = [0usize; 2];
    for _ in 0..sets {
        let (x, y): (Vec<f64>, Vec<f64>) = (0..n).map(|_| normal_pair(&mut data_rng, r)).unzip();
        for (k, interval) in [Interval::Percentile, Interval::Bca]
            .into_iter()
            .enumerate()
        {
            let ci = Bootstrap::new(300)
                .level(level)
                .interval(interval)
                .run(&KendallTauB, &x, &y, &mut boot_rng)
                .unwrap();
            covered[k] += usize::from(ci.lower <= truth && truth <= ci.upper);
        }
    }
    let se = (level * (1.0 - level) / sets as f64).sqrt();
    for (k, c) in covered.into_iter().enumerate() {
        let rate = c as f64 / sets as f64;
        assert!(
            (rate - level).abs() < 3.5 * se,
            "method {k}: coverage {rate}"
        );
    }
}

/// Bar: bit-for-bit the same results whatever the number of threads.
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let mut data = rng(7);
    let x: Vec<f64> = (0..40).map(|_| data.random()).collect();
    let y: Vec<f64> = x.iter().map(|v| v + data.random::<f64>()).collect();
    let z: Vec<f64> = x.iter().map(|v| v + 2.0 * data.random::<f64>()).collect();
    // Each run with `count` replicates on `t` threads.
    let perms = |count, t| Permutations::new(count).threads(threads(t));
    let boots = |count, t| Bootstrap::new(count).threads(threads(t));
    let (rho_w, tau_w) = (TopWeightedRho::new(), TopWeightedTau::new());
    let perm = |t| perms(301, t).test(&tau_w, &x, &y, &mut rng(8)).unwrap();
    let moments = |t| {
        perms(301, t)
            .null_moments(&rho_w, &x, &y, &mut rng(8))
            .unwrap()
    };
    let boot = |t| boots(257, t).run(&rho_w, &x, &y, &mut rng(9)).unwrap();
    let vigna = |t| {
        perms(201, t)
            .test(&VignaTau::default(), &x, &y, &mut rng(8))
            .unwrap()
    };
    let paired_test = |t| {
        perms(203, t)
            .paired(&Spearman, &x, &y, &z, &mut rng(10))
            .unwrap()
    };
    let paired_ci = |t| {
        boots(203, t)
            .paired(&KendallTauB, &x, &y, &z, &mut rng(10))
            .unwrap()
    };
    for t in [2, 3, 7] {
        assert_eq!(perm(1), perm(t));
        assert_eq!(moments(1), moments(t));
        assert_eq!(boot(1), boot(t));
        assert_eq!(paired_test(1), paired_test(t));
        assert_eq!(vigna(1), vigna(t));
        assert_eq!(paired_ci(1), paired_ci(t));
    }
    // A different seed gives a different (valid) answer.
    let other = Bootstrap::new(257)
        .run(&TopWeightedRho::new(), &x, &y, &mut rng(99))
        .unwrap();
    assert_ne!(other, boot(1));
    assert_eq!(other.estimate, boot(1).estimate);
}

/// Bar: errors, not panics, for 0 permutations, n < 3, levels outside (0, 1).
#[test]
fn errors_for_bad_settings_and_inputs() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let y = [2.0, 1.0, 4.0, 3.0];
    let few = |what, needed, got| UncertaintyError::TooFewReplicates { what, needed, got };
    let r = &mut rng(0);
    assert_eq!(
        permutation_test(&Spearman, &x, &y, 0, Alternative::Greater, r),
        Err(few("permutations", 1, 0))
    );
    assert_eq!(
        null_moments(&TopWeightedRho::new(), &x, &y, 1, r),
        Err(few("permutations", 2, 1))
    );
    assert_eq!(
        standardise(&Spearman, &x, &y, 0, r).unwrap_err(),
        few("permutations", 2, 0)
    );
    assert_eq!(
        bootstrap_ci(&Spearman, &x, &y, 1, 0.9, r),
        Err(few("resamples", 2, 1))
    );
    assert_eq!(
        Permutations::new(0).paired(&Spearman, &x, &y, &y, r),
        Err(few("permutations", 1, 0))
    );
    for level in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
        let e = bootstrap_ci(&Spearman, &x, &y, 100, level, r).unwrap_err();
        assert!(
            matches!(e, UncertaintyError::InvalidLevel { level: l } if l.to_bits() == level.to_bits()),
            "{e:?}"
        );
        assert!(paired_comparison(&Spearman, &x, &y, &y, 10, r).is_ok());
        assert!(matches!(
            Bootstrap::new(10)
                .level(level)
                .paired(&Spearman, &x, &y, &y, r),
            Err(UncertaintyError::InvalidLevel { .. })
        ));
    }
    let two = UncertaintyError::TooFewItems { needed: 3, got: 2 };
    let (x2, y2) = ([1.0, 2.0], [2.0, 1.0]);
    assert_eq!(
        permutation_test(&Spearman, &x2, &y2, 9, Alternative::Less, r),
        Err(two)
    );
    assert_eq!(null_moments(&Spearman, &x2, &y2, 9, r), Err(two));
    assert_eq!(bootstrap_ci(&Spearman, &x2, &y2, 9, 0.9, r), Err(two));
    assert_eq!(paired_comparison(&Spearman, &x2, &y2, &y2, 9, r), Err(two));
    assert_eq!(spearman_null(2), Err(two));
    let empty: [f64; 0] = [];
    assert_eq!(
        bootstrap_ci(&Spearman, &empty, &empty, 9, 0.9, r),
        Err(UncertaintyError::TooFewItems { needed: 3, got: 0 })
    );
    // Bad scores: the core error, with input name and index.
    assert_eq!(
        permutation_test(
            &Spearman,
            &x,
            &[1.0, f64::NAN, 2.0, 3.0],
            9,
            Alternative::Less,
            r
        ),
        Err(UncertaintyError::Statistic(CorrelationError::NaN {
            input: "y",
            index: 1
        }))
    );
    assert_eq!(
        bootstrap_ci(
            &Spearman,
            &[1.0, 2.0, f64::INFINITY],
            &[1.0, 2.0, 3.0],
            9,
            0.9,
            r
        ),
        Err(UncertaintyError::Statistic(CorrelationError::Infinite {
            input: "x",
            index: 2
        }))
    );
    assert_eq!(
        permutation_test(&Spearman, &x, &y[..3], 9, Alternative::Less, r),
        Err(UncertaintyError::Statistic(
            CorrelationError::LengthMismatch {
                left: "x",
                left_len: 4,
                right: "y",
                right_len: 3
            }
        ))
    );
    assert_eq!(
        paired_comparison(&Spearman, &x, &y, &y[..3], 9, r),
        Err(UncertaintyError::Statistic(
            CorrelationError::LengthMismatch {
                left: "human",
                left_len: 4,
                right: "model_b",
                right_len: 3
            }
        ))
    );
    assert_eq!(
        paired_comparison(&Spearman, &x, &[1.0, 2.0, 3.0, f64::NAN], &y, 9, r),
        Err(UncertaintyError::Statistic(CorrelationError::NaN {
            input: "model_a",
            index: 3
        }))
    );
    assert_eq!(
        null_moments(&TopWeightedTau::new(), &[1.0; 4], &y, 9, r),
        Err(UncertaintyError::Statistic(CorrelationError::Constant {
            input: "x"
        }))
    );
    // Messages: lowercase, no trailing period, say where.
    assert_eq!(
        few("permutations", 1, 0).to_string(),
        "too few permutations: 1 needed, got 0"
    );
    assert_eq!(
        UncertaintyError::InvalidLevel { level: 1.5 }.to_string(),
        "confidence level 1.5 is not in (0, 1)"
    );
}

/// Failing replicates: a permutation error names the replicate; failed
/// resamples are counted; failing jackknife samples name the item.
#[test]
fn failures_of_the_statistic_are_reported_where_they_happen() {
    let x = range(8);
    let r = &mut rng(12);
    // Undefined unless y is increasing at its start.
    let picky = |_: &[f64], y: &[f64]| -> Result<f64, CorrelationError> {
        if y[0] < y[1] {
            Ok(y[0])
        } else {
            Err(CorrelationError::Undefined { reason: "picky" })
        }
    };
    let e = permutation_test(&picky, &x, &x, 50, Alternative::Less, r).unwrap_err();
    assert!(
        matches!(
            e,
            UncertaintyError::Replicate {
                kind: "permutation",
                ..
            }
        ),
        "{e:?}"
    );
    let ci = Bootstrap::new(400)
        .interval(Interval::Percentile)
        .run(&picky, &x, &x, r)
        .unwrap();
    // About half the resamples have y[0] ≥ y[1].
    assert!(ci.failed > 100 && ci.failed < 300, "{}", ci.failed);
    // Defined only on the original data.
    let original = |a: &[f64], _: &[f64]| -> Result<f64, CorrelationError> {
        if a == range(8).as_slice() {
            Ok(0.0)
        } else {
            Err(CorrelationError::Undefined {
                reason: "not the original",
            })
        }
    };
    assert!(matches!(
        bootstrap_ci(&original, &x, &x, 50, 0.9, r),
        Err(UncertaintyError::AllResamplesFailed { resamples: 50, .. })
    ));
    // Defined only on n items: resamples work, the jackknife does not.
    let full = |a: &[f64], _: &[f64]| -> Result<f64, CorrelationError> {
        if a.len() == 8 {
            Ok(a.iter().sum())
        } else {
            Err(CorrelationError::TooFewItems {
                needed: 8,
                got: a.len(),
            })
        }
    };
    assert_eq!(
        bootstrap_ci(&full, &x, &x, 50, 0.9, r),
        Err(UncertaintyError::Jackknife {
            left_out: 0,
            source: CorrelationError::TooFewItems { needed: 8, got: 7 }
        })
    );
    // A NaN from a closure is an error, never a silent p-value.
    let nan = |_: &[f64], _: &[f64]| -> Result<f64, CorrelationError> { Ok(f64::NAN) };
    assert!(matches!(
        permutation_test(&nan, &x, &x, 5, Alternative::Less, r),
        Err(UncertaintyError::Statistic(
            CorrelationError::Undefined { .. }
        ))
    ));
}

// ---------------------------------------------------------------- null moments

fn golden_null() -> Vec<(String, String, usize, usize, f64, f64, f64)> {
    include_str!("../data/uncertainty/null.txt")
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[4].parse().unwrap(),
                f[5].parse().unwrap(),
                f[6].parse().unwrap(),
                f[7].parse().unwrap(),
            )
        })
        .collect()
}

/// The issue: with the paper's additive weights (Eq. 9, n0 = 2) ρ_w has a
/// strongly negative null mean, about −0.6 at N = 990. Checked against an
/// independent NumPy Monte Carlo (gen_null.py: −0.5980 ± 0.0016), within 4
/// combined standard errors; Scheme::First has the exact mean 0 and its SD
/// matches NumPy's; multiplicative and τ_w likewise.
#[test]
fn weighted_null_moments_match_an_independent_monte_carlo() {
    let golden = golden_null();
    for (coef, scheme, n, _, py_mean, py_se, py_sd) in golden {
        let scheme = match scheme.as_str() {
            "additive" => Scheme::Additive,
            "first" => Scheme::First,
            "multiplicative" => Scheme::Multiplicative,
            other => panic!("{other}"),
        };
        let m = if coef == "tau" && n > 100 { 100 } else { 2000 };
        let x = range(n);
        let moments = if coef == "rho" {
            null_moments(
                &TopWeightedRho::new().scheme(scheme),
                &x,
                &x,
                m,
                &mut rng(13),
            )
        } else {
            null_moments(
                &TopWeightedTau::new().scheme(scheme),
                &x,
                &x,
                m,
                &mut rng(13),
            )
        }
        .unwrap();
        let mean = moments.mean;
        let tol = 4.0 * (py_se * py_se + mean.standard_error * mean.standard_error).sqrt();
        assert!(
            (mean.value - py_mean).abs() < tol,
            "{coef} {scheme:?} {n}: {mean:?} vs {py_mean}"
        );
        if scheme == Scheme::First {
            assert_eq!((mean.value, mean.source), (0.0, Source::Exact));
        } else {
            assert_eq!(mean.source, Source::MonteCarlo { permutations: m });
        }
        let sd = moments.sd;
        assert!(
            (sd.value / py_sd - 1.0).abs() < 4.0 * (1.0 / (2.0 * m as f64)).sqrt(),
            "{sd:?} vs {py_sd}"
        );
    }
}

/// The exact null mean 0 of ρ_w and τ_w with weights from one ranking (the
/// reflection argument in `TopWeightedRho`'s docs), by full enumeration of the
/// 720 permutations of 6 items, with ties in the weighting ranking; and a
/// counterexample when the other ranking has ties or weights are additive.
#[test]
fn one_sided_weights_have_exact_null_mean_zero_by_enumeration() {
    let x = [3.0, 3.0, 1.0, 0.5, 7.0, 2.0];
    let y = [0.1, 0.4, 0.3, 0.9, 0.7, 0.2];
    let rho_first = TopWeightedRho::new()
        .weigher(Hyperbolic)
        .scheme(Scheme::First);
    let tau_first = TopWeightedTau::new()
        .weigher(Hyperbolic)
        .scheme(Scheme::First);
    assert!(mean(&enumerate(&rho_first, &x, &y)).abs() < 1e-15);
    assert!(mean(&enumerate(&tau_first, &x, &y)).abs() < 1e-15);
    // The exact SD of one-sided τ_w (Var[N] from the sign moments of a random
    // permutation) against the enumeration.
    let sd = |v: &[f64]| {
        let m = mean(v);
        (v.iter().map(|t| (t - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    let prepared = tau_first.prepare(&x, &y).unwrap();
    let exact = tau_first.exact_null(&prepared);
    assert_eq!(exact.mean, Some(0.0));
    assert!((exact.sd.unwrap() - sd(&enumerate(&tau_first, &x, &y))).abs() < 1e-12);
    let tau_second = TopWeightedTau::new().scheme(Scheme::Second);
    let exact = tau_second.exact_null(&tau_second.prepare(&y, &x).unwrap());
    assert!((exact.sd.unwrap() - sd(&enumerate(&tau_second, &y, &x))).abs() < 1e-12);
    // No exact SD for ρ_w (a ratio with a random denominator).
    assert_eq!(rho_first.exact_null(&prepared).sd, None);
    // Second: weights from y, x has no ties.
    let rho_second = TopWeightedRho::new()
        .weigher(Hyperbolic)
        .scheme(Scheme::Second);
    assert!(mean(&enumerate(&rho_second, &y, &x)).abs() < 1e-15);
    // Ties in the unweighted input break the symmetry.
    let tied = [1.0, 1.0, 1.0, 2.0, 3.0, 4.0];
    assert!(mean(&enumerate(&rho_first, &y, &tied)).abs() > 1e-3);
    // Additive weights: clearly negative.
    assert!(mean(&enumerate(&TopWeightedRho::new(), &x, &y)) < -0.05);
    assert!(mean(&enumerate(&TopWeightedTau::new(), &x, &y)) < -0.05);
}

/// Exact null SDs against full enumeration of all permutations of y:
/// τ-b with and without ties (Kendall's tie-corrected variance), and ρ with
/// ties (1/(n − 1) for any non-constant vectors).
#[test]
fn exact_null_moments_match_full_enumeration() {
    let sd = |v: &[f64]| {
        let m = mean(v);
        (v.iter().map(|t| (t - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    let cases: [(&[f64], &[f64]); 4] = [
        (
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[6.0, 1.0, 5.0, 2.0, 4.0, 3.0],
        ),
        (
            &[1.0, 1.0, 2.0, 3.0, 3.0, 3.0],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        ),
        (
            &[1.0, 1.0, 2.0, 3.0, 3.0, 3.0],
            &[2.0, 2.0, 2.0, 1.0, 5.0, 5.0],
        ),
        (
            &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0],
            &[1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0],
        ),
    ];
    for (x, y) in cases {
        let all = enumerate(&KendallTauB, x, y);
        let exact = kendall_tau_b_null(x, y).unwrap();
        assert!(mean(&all).abs() < 1e-12);
        assert!((exact.sd.value - sd(&all)).abs() < 1e-12, "{exact:?}");
        let all = enumerate(&Spearman, x, y);
        assert!(mean(&all).abs() < 1e-12);
        let want = spearman_null(x.len()).unwrap().sd.value;
        assert!((want - sd(&all)).abs() < 1e-12);
    }
}

#[test]
fn spearman_null_is_exact_and_matches_the_permutation_spread() {
    let x: Vec<f64> = (0..20).map(|i| f64::from(i / 2)).collect(); // ties
    let y: Vec<f64> = (0..20).map(|i| f64::from((i * 3) % 7)).collect();
    let m = null_moments(&Spearman, &x, &y, 100, &mut rng(14)).unwrap();
    assert_eq!(m.sd.source, Source::Exact);
    assert!((m.sd.value - (1.0f64 / 19.0).sqrt()).abs() < 1e-15);
    let t = Permutations::new(20_000)
        .test(&Spearman, &x, &y, &mut rng(15))
        .unwrap();
    assert!(((t.null_sd / m.sd.value).powi(2) - 1.0).abs() < 4.0 * (2.0f64 / 20_000.0).sqrt());
    let s = standardise(&Spearman, &x, &y, 100, &mut rng(14)).unwrap();
    assert_eq!(s.z, s.value / m.sd.value);
}

// ---------------------------------------------------------------- p-values

/// The Monte-Carlo p-value converges to the exact permutation p-value
/// (full enumeration of 5! orderings).
#[test]
fn permutation_p_value_matches_full_enumeration() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0];
    let y = [1.0, 3.0, 2.0, 5.0, 4.0];
    for s in [&Spearman as &dyn Statistic, &TopWeightedTau::new()] {
        let obs = s.value(&x, &y).unwrap();
        let all = enumerate(s, &x, &y);
        let exact = all.iter().filter(|&&t| t >= obs - 1e-12).count() as f64 / 120.0;
        let m = 20_000;
        let t = Permutations::new(m)
            .alternative(Alternative::Greater)
            .test(s, &x, &y, &mut rng(16))
            .unwrap();
        assert!(
            (t.p_value - exact).abs() < 4.0 * t.standard_error,
            "{} vs {exact}",
            t.p_value
        );
    }
}

// ---------------------------------------------------------------- bootstrap

#[test]
fn perfect_correlation_gives_a_degenerate_interval_at_one() {
    let x = range(12);
    for interval in [Interval::Percentile, Interval::Bca] {
        let ci = Bootstrap::new(200)
            .interval(interval)
            .run(&Spearman, &x, &x, &mut rng(17))
            .unwrap();
        assert_eq!((ci.lower, ci.estimate, ci.upper), (1.0, 1.0, 1.0));
        assert_eq!(ci.standard_error, 0.0);
    }
    let bca = bootstrap_ci(&Spearman, &x, &x, 200, 0.95, &mut rng(17)).unwrap();
    assert_eq!(
        (bca.bias_correction, bca.acceleration),
        (Some(0.0), Some(0.0))
    );
}

/// BCa for the sample mean of a skewed sample shifts the interval towards
/// the long tail relative to the percentile interval (Efron 1987), with a
/// positive acceleration a = skewness/(6√n) of the jackknife values.
#[test]
fn bca_corrects_for_skewness() {
    let x: Vec<f64> = (0..40).map(|i| (f64::from(i) / 8.0).exp()).collect();
    let mean_x = |a: &[f64], _: &[f64]| -> Result<f64, CorrelationError> { Ok(mean(a)) };
    let b = Bootstrap::new(4000).level(0.9);
    let p = b
        .interval(Interval::Percentile)
        .run(&mean_x, &x, &x, &mut rng(18))
        .unwrap();
    let bca = b.run(&mean_x, &x, &x, &mut rng(18)).unwrap();
    let a = bca.acceleration.unwrap();
    // Jackknife values of the mean are θ_(i) = (Σx − x_i)/(n − 1), so
    // θ̄ − θ_(i) = (x_i − x̄)/(n − 1) and a = Σd³/(6(Σd²)^{3/2}) is the
    // sample skewness g₁ over 6√n.
    let n = x.len() as f64;
    let m = mean(&x);
    let (m2, m3) = (
        x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n,
        x.iter().map(|v| (v - m).powi(3)).sum::<f64>() / n,
    );
    assert!((a - m3 / m2.powf(1.5) / (6.0 * n.sqrt())).abs() < 1e-12);
    assert!(a > 0.0);
    assert!(bca.lower > p.lower && bca.upper > p.upper);
    assert_eq!(p.estimate, bca.estimate);
}

/// BCa needs resamples on both sides of the estimate.
#[test]
fn bca_reports_a_degenerate_bootstrap_distribution() {
    let x = range(10);
    // 0 on the original data, 1 on every other sample.
    let jump = |a: &[f64], _: &[f64]| -> Result<f64, CorrelationError> {
        Ok(if a == range(10).as_slice() { 0.0 } else { 1.0 })
    };
    assert!(matches!(
        bootstrap_ci(&jump, &x, &x, 100, 0.9, &mut rng(22)),
        Err(UncertaintyError::Degenerate { .. })
    ));
    // The percentile interval exists: [1, 1].
    let p = Bootstrap::new(100)
        .interval(Interval::Percentile)
        .run(&jump, &x, &x, &mut rng(22))
        .unwrap();
    assert_eq!((p.lower, p.upper), (1.0, 1.0));
}

// ---------------------------------------------------------------- paired

/// The paired bootstrap interval of a difference covers the true
/// difference at the nominal rate. Human h ~ N(0, 1); model A = h + N(0, 0.5²),
/// model B = h + N(0, 1): corr(h, A) = 1/√1.25, corr(h, B) = 1/√2, and the
/// population τ = (2/π)·asin(r) for each (Kendall 1948, ch. 10). 200 data
/// sets of n = 40, 90 % percentile intervals from 200 resamples, ±3.5 SE.
#[test]
fn paired_bootstrap_intervals_cover_the_true_difference() {
    let (n, sets, level) = (40, 200, 0.9);
    let tau = |r: f64| 2.0 / std::f64::consts::PI * r.asin();
    let truth = tau(1.0 / 1.25f64.sqrt()) - tau(1.0 / 2f64.sqrt());
    let mut data = rng(23);
    let mut covered = 0;
    for _ in 0..sets {
        let h: Vec<f64> = (0..n).map(|_| normal_pair(&mut data, 0.0).0).collect();
        let a: Vec<f64> = h
            .iter()
            .map(|v| v + 0.5 * normal_pair(&mut data, 0.0).0)
            .collect();
        let b: Vec<f64> = h
            .iter()
            .map(|v| v + normal_pair(&mut data, 0.0).0)
            .collect();
        let ci = Bootstrap::new(200)
            .level(level)
            .interval(Interval::Percentile)
            .paired(&KendallTauB, &h, &a, &b, &mut data)
            .unwrap();
        covered += usize::from(ci.lower <= truth && truth <= ci.upper);
    }
    let rate = covered as f64 / sets as f64;
    let se = (level * (1.0 - level) / sets as f64).sqrt();
    assert!((rate - level).abs() < 3.5 * se, "coverage {rate}");
}

#[test]
fn paired_comparison_of_identical_models_finds_nothing() {
    let h: Vec<f64> = (0..20).map(|i| f64::from(i * i % 11)).collect();
    let a: Vec<f64> = (0..20).map(|i| f64::from(i % 7)).collect();
    let c = paired_comparison(&TopWeightedRho::new(), &h, &a, &a, 199, &mut rng(19)).unwrap();
    assert_eq!(c.difference, 0.0);
    assert_eq!(c.value_a, c.value_b);
    assert_eq!(c.test.p_value, 1.0);
    assert_eq!((c.interval.lower, c.interval.upper), (0.0, 0.0));
}

/// Under the null (two models of equal quality, independent noise), the
/// paired permutation test rejects at the nominal rate: 200 data sets,
/// α = 0.1, ±3.5 SE (SE ≈ 0.021). Exchanging ranks and scores gives the same
/// observed difference for a rank statistic.
#[test]
fn paired_permutation_test_holds_its_level() {
    let mut data = rng(20);
    let (sets, alpha) = (200, 0.1);
    let mut rejected = 0;
    for k in 0..sets {
        let h: Vec<f64> = (0..25).map(|_| data.random()).collect();
        let a: Vec<f64> = h.iter().map(|v| v + data.random::<f64>()).collect();
        // Model B has the same quality on a different scale.
        let b: Vec<f64> = h
            .iter()
            .map(|v| 100.0 * (v + data.random::<f64>()))
            .collect();
        let t = Permutations::new(199)
            .paired(&Spearman, &h, &a, &b, &mut data)
            .unwrap();
        if k == 0 {
            let s = Permutations::new(9)
                .exchange(Exchange::Scores)
                .paired(&Spearman, &h, &a, &b, &mut data)
                .unwrap();
            assert_eq!(s.statistic, t.statistic);
        }
        rejected += usize::from(t.p_value <= alpha);
    }
    let rate = rejected as f64 / sets as f64;
    let se = (alpha * (1.0 - alpha) / sets as f64).sqrt();
    assert!((rate - alpha).abs() < 3.5 * se, "rejection rate {rate}");
}

#[test]
fn paired_comparison_detects_a_better_model_at_the_top() {
    // Both models are perfect below the top 10; model B reverses the top.
    let h = range(40);
    let a = h.clone();
    let mut b = h.clone();
    b[30..].reverse();
    let c = paired_comparison(&TopWeightedRho::new(), &h, &a, &b, 499, &mut rng(21)).unwrap();
    assert!(c.difference > 0.1);
    assert!(c.value_a == 1.0 && c.value_b < 0.9);
    assert!(c.test.p_value < 0.05, "{:?}", c.test);
}

// ---------------------------------------------------------------- properties

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The permutation shortcut (rank once, permute ranks) equals
        /// re-ranking permuted scores, item by item (the oracle).
        #[test]
        fn prepared_statistics_commute_with_permutations(
            pairs in proptest::collection::vec((0u8..6, 0u8..6), 3..20),
            seed in any::<u64>(),
        ) {
            let x: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
            let y: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
            let mut perm: Vec<usize> = (0..x.len()).collect();
            perm.shuffle(&mut rng(seed));
            let yp: Vec<f64> = perm.iter().map(|&i| y[i]).collect();
            let stats: [&dyn Statistic; 4] = [&Spearman, &KendallTauB, &TopWeightedRho::new(), &TopWeightedTau::new()];
            for s in stats {
                let (Ok(direct), Ok(p)) = (s.value(&x, &yp), s.prepare(&x, &y)) else { continue };
                let bp: Vec<f64> = perm.iter().map(|&i| p.y[i]).collect();
                prop_assert_eq!(s.value_prepared(&p.x, &bp).unwrap(), direct);
            }
        }

        /// The O(n log n) τ_w of the statistic equals the O(n²) definition
        /// (`gamma::tau_w_naive`) for every scheme, with ties.
        #[test]
        fn fast_tau_w_equals_the_definition(
            pairs in proptest::collection::vec((0u8..8, 0u8..8), 3..40),
            scheme in 0usize..4,
        ) {
            let x: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
            let y: Vec<f64> = pairs.iter().map(|p| f64::from(p.1)).collect();
            let scheme = [Scheme::Additive, Scheme::Multiplicative, Scheme::First, Scheme::Second][scheme];
            let config = adaptive_comp_metrics::TopWeighted::new().scheme(scheme);
            let slow = config
                .ranks_and_weights(&x, &y)
                .and_then(|(a, b, w)| adaptive_comp_metrics::correlation::gamma::tau_w_naive(&a, &b, &w));
            let fast = TopWeightedTau::new().scheme(scheme).value(&x, &y);
            match (slow, fast) {
                (Ok(s), Ok(f)) => prop_assert!((s - f).abs() < 1e-12, "{} vs {}", s, f),
                (s, f) => prop_assert_eq!(s.is_ok(), f.is_ok()),
            }
        }

        /// p-values lie in [1/(m+1), 1]; intervals are ordered.
        #[test]
        fn results_are_in_range(
            x in proptest::collection::vec(-5.0f64..5.0, 3..15),
            y in proptest::collection::vec(-5.0f64..5.0, 3..15),
            seed in any::<u64>(),
        ) {
            let n = x.len().min(y.len());
            let (x, y) = (&x[..n], &y[..n]);
            let m = 39;
            for alt in [Alternative::Greater, Alternative::Less, Alternative::TwoSided] {
                if let Ok(t) = permutation_test(&TopWeightedTau::new(), x, y, m, alt, &mut rng(seed)) {
                    prop_assert!(t.p_value >= 1.0 / 40.0 && t.p_value <= 1.0);
                    prop_assert!(t.standard_error >= 0.0);
                    prop_assert!(t.at_least + t.at_most >= m);
                }
            }
            for interval in [Interval::Percentile, Interval::Bca] {
                if let Ok(ci) = Bootstrap::new(50).interval(interval).run(&Spearman, x, y, &mut rng(seed)) {
                    prop_assert!(ci.lower <= ci.upper);
                    prop_assert!(ci.lower >= -1.0 && ci.upper <= 1.0);
                }
            }
        }
    }
}

/// A permutation test and a bootstrap split into shares at any points, on
/// any number of threads, put back together into the single run, bit for
/// bit (a failing resample kept as NaN); bad shares are refused.
#[test]
fn sharded_runs_equal_the_single_run() {
    let x: Vec<f64> = (0..40).map(|i| ((i * 37) % 40) as f64).collect();
    // Ties in y make some bootstrap resamples constant (undefined).
    let y: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 7 == 0))).collect();
    let stat = TopWeightedRho::new();
    for (count, cuts) in [
        (1000usize, vec![0, 1, 333, 999, 1000]),
        (70_000, vec![0, 65_536, 70_000]),
    ] {
        let plan = Permutations::new(count).threads(threads(3));
        let single = Permutations::new(count)
            .test(&stat, &x, &y, &mut rng(8))
            .unwrap();
        let mut values = Vec::new();
        for w in cuts.windows(2) {
            values.extend(
                plan.replicates(&stat, &x, &y, w[0]..w[1], &mut rng(8))
                    .unwrap(),
            );
        }
        assert_eq!(
            plan.test_from_replicates(&stat, &x, &y, &values).unwrap(),
            single
        );
        let boot = Bootstrap::new(count.min(5000)).threads(threads(2));
        let single = Bootstrap::new(count.min(5000))
            .run(&Spearman, &x, &y, &mut rng(3))
            .unwrap();
        assert!(single.failed > 0);
        let mut values = boot
            .replicates(&Spearman, &x, &y, 0..17, &mut rng(3))
            .unwrap();
        values.extend(
            boot.replicates(&Spearman, &x, &y, 17..count.min(5000), &mut rng(3))
                .unwrap(),
        );
        assert_eq!(values.iter().filter(|v| v.is_nan()).count(), single.failed);
        let sharded = boot
            .run_from_replicates(&Spearman, &x, &y, &values, &mut rng(3))
            .unwrap();
        assert_eq!(sharded, single);
    }
    let plan = Permutations::new(10);
    assert!(matches!(
        plan.replicates(&stat, &x, &y, 5..11, &mut rng(1)),
        Err(UncertaintyError::TooLarge {
            requested: 11,
            limit: 10,
            ..
        })
    ));
    assert!(matches!(
        plan.test_from_replicates(&stat, &x, &y, &[0.0; 9]),
        Err(UncertaintyError::Statistic(
            CorrelationError::LengthMismatch { .. }
        ))
    ));
    assert!(matches!(
        plan.test_from_replicates(&stat, &x, &y, &[f64::NAN; 10]),
        Err(UncertaintyError::Statistic(CorrelationError::NaN {
            input: "values",
            index: 0
        }))
    ));
    // Every resample failed: the error names the first one, as the single run's.
    let flat = [1.0, 1.0, 1.0, 1.0, 2.0];
    let boot = Bootstrap::new(4);
    let single = boot.run(&Spearman, &flat, &x[..5], &mut rng(0));
    let values = boot.replicates(&Spearman, &flat, &x[..5], 0..4, &mut rng(0));
    if let (Err(single), Ok(values)) = (&single, &values) {
        let sharded = boot.run_from_replicates(&Spearman, &flat, &x[..5], values, &mut rng(0));
        assert_eq!(sharded.as_ref().err(), Some(single));
    }
}
