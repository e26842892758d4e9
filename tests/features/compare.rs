//! `uncertainty::compare` against the reference implementations: SciPy's
//! `ttest_rel`, `wilcoxon`, `permutation_test`, `friedmanchisquare` and
//! `studentized_range`, statsmodels' `multipletests`, R's `p.adjust`, and
//! mpmath at 40 digits (tests/data/compare/make_expected.py, whose output
//! expected.json is read here), to 1e-12 (p-values below 1e-300 by their
//! logarithm).
#![cfg(feature = "uncertainty")]

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::compare::{
    Compare, CompareError, Correction, Missing, PValueMethod, ScoreTable, Test, Wilcoxon,
    WilcoxonMethod, ZeroMethod, adjust, friedman,
};
use adaptive_comp_metrics::uncertainty::{Alternative, Threads, UncertaintyError};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

fn expected() -> &'static Value {
    static E: OnceLock<Value> = OnceLock::new();
    E.get_or_init(|| {
        serde_json::from_str(include_str!("../data/compare/expected.json")).expect("valid JSON")
    })
}

fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => match s.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            other => panic!("not a number: {other}"),
        },
        other => panic!("not a number: {other}"),
    }
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(num).collect()
}

/// |a − b| ≤ 1e-12·max(|b|, floor), infinities equal.
fn close(a: f64, b: f64, floor: f64) -> bool {
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    (a - b).abs() <= 1e-12 * b.abs().max(floor)
}

/// A p-value to 1e-12, by its logarithm below 1e-300.
fn close_p(ours: f64, reference: f64) -> bool {
    if reference < 1e-300 {
        let (a, b) = (ours.ln(), reference.ln());
        return (a - b).abs() <= 1e-12 * b.abs() || (ours == 0.0 && reference == 0.0);
    }
    close(ours, reference, 1e-300)
}

fn samples() -> HashMap<String, (Vec<f64>, Vec<f64>)> {
    expected()["samples"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), (nums(&v["x"]), nums(&v["y"]))))
        .collect()
}

/// A reference case on two samples: the case, its sample's name, the two
/// samples and the alternative.
type SampleCase = (
    &'static Value,
    &'static str,
    Vec<f64>,
    Vec<f64>,
    Alternative,
);

/// The cases of `kind` on two samples.
fn sample_cases(kind: &str) -> Vec<SampleCase> {
    let samples = samples();
    expected()[kind]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let name = case["name"].as_str().unwrap();
            let (x, y) = samples[name].clone();
            (case, name, x, y, alternative(&case["alternative"]))
        })
        .collect()
}

fn table(x: &[f64], y: &[f64]) -> ScoreTable {
    ScoreTable::from_columns(&[("x", x), ("y", y)]).unwrap()
}

fn alternative(v: &Value) -> Alternative {
    match v.as_str().unwrap() {
        "two-sided" => Alternative::TwoSided,
        "greater" => Alternative::Greater,
        "less" => Alternative::Less,
        other => panic!("{other}"),
    }
}

#[test]
fn paired_t_tests_match_scipy_and_mpmath() {
    let mut checked = 0;
    for (case, name, x, y, alt) in sample_cases("ttest") {
        let c = Compare::new()
            .test(Test::PairedT)
            .alternative(alt)
            .correction(Correction::None)
            .units_seeded(&table(&x, &y), 1)
            .unwrap();
        let p = &c.pairs[0];
        let what = format!("{name} {alt:?}");
        assert_eq!(
            p.method,
            PValueMethod::StudentT {
                df: case["df"].as_u64().unwrap()
            }
        );
        let ci = p.interval.unwrap();
        // Interval ends to 1e-12 of the scale of the data; where SciPy's
        // open end is NaN (∞·0 when s = 0), it is infinite here.
        let scale = x.iter().chain(&y).fold(1e-300f64, |m, v| m.max(v.abs()));
        let end = |ours: f64, scipy: f64| {
            if scipy.is_nan() {
                ours.is_infinite()
            } else {
                close(ours, scipy, scale)
            }
        };
        assert!(
            end(ci.lower, num(&case["ci_low"])),
            "{what}: lower {}",
            ci.lower
        );
        assert!(
            end(ci.upper, num(&case["ci_high"])),
            "{what}: upper {}",
            ci.upper
        );
        if case.get("t").is_none() {
            // s = 0: identical systems (SciPy: NaN) or a constant difference.
            let scipy_t = num(&case["scipy_t"]);
            if scipy_t.is_nan() {
                assert_eq!((p.statistic, p.p_value), (0.0, 1.0), "{what}");
            } else {
                assert_eq!(p.statistic, scipy_t, "{what}");
                assert_eq!(p.p_value, num(&case["scipy_p"]), "{what}");
            }
            assert_eq!(p.effect.unwrap().cohens_dz, None);
            continue;
        }
        assert!(
            close(p.statistic, num(&case["t"]), 1.0),
            "{what}: t {}",
            p.statistic
        );
        assert!(
            close_p(p.p_value, num(&case["p"])),
            "{what}: p {} vs {}",
            p.p_value,
            num(&case["p"])
        );
        assert!(
            close_p(p.p_value, num(&case["scipy_p"])),
            "{what}: p {} vs SciPy",
            p.p_value
        );
        let e = p.effect.unwrap();
        assert!(
            close(e.cohens_dz.unwrap(), num(&case["cohens_dz"]), 1.0),
            "{what}: d_z"
        );
        match case.get("hedges_gz") {
            Some(g) => assert!(close(e.hedges_gz.unwrap(), num(g), 1.0), "{what}: g_z"),
            None => assert_eq!(e.hedges_gz, None),
        }
        checked += 1;
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn wilcoxon_matches_scipy_for_every_option() {
    let mut checked = 0;
    for (case, name, x, y, alt) in sample_cases("wilcoxon") {
        let zero_method = match case["zero_method"].as_str().unwrap() {
            "wilcox" => ZeroMethod::Wilcox,
            "pratt" => ZeroMethod::Pratt,
            _ => ZeroMethod::Zsplit,
        };
        let method = match case["method"].as_str().unwrap() {
            "auto" => WilcoxonMethod::Auto,
            "exact" => WilcoxonMethod::Exact,
            _ => WilcoxonMethod::Asymptotic,
        };
        let options = Wilcoxon::new()
            .zero_method(zero_method)
            .correction(case["correction"].as_bool().unwrap())
            .method(method);
        let what = format!("{name} {options:?} {alt:?}");
        let c = Compare::new()
            .test(Test::Wilcoxon(options))
            .alternative(alt)
            .correction(Correction::None)
            .units_seeded(&table(&x, &y), 1)
            .unwrap();
        let p = &c.pairs[0];
        let (scipy_stat, scipy_p) = (num(&case["statistic"]), num(&case["p"]));
        if x == y {
            // Every difference zero: p = 1 here; SciPy gives NaN (normal
            // approximation) or, with pratt or zsplit and the exact
            // distribution, the tail of R⁺ = 0 among n ranks (1/64 at n = 7).
            assert_eq!(p.p_value, 1.0, "{what}");
            continue;
        }
        assert!(
            close(p.statistic, scipy_stat, 1.0),
            "{what}: W {} vs {scipy_stat}",
            p.statistic
        );
        assert!(
            close_p(p.p_value, scipy_p),
            "{what}: p {} vs {scipy_p}",
            p.p_value
        );
        let PValueMethod::Wilcoxon { z, .. } = p.method else {
            panic!("{what}: {:?}", p.method)
        };
        let scipy_z = num(&case["z"]);
        if !scipy_z.is_nan() {
            assert!(
                close(z.unwrap(), scipy_z, 1.0),
                "{what}: z {z:?} vs {scipy_z}"
            );
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn exact_randomisation_matches_scipys_permutation_test() {
    for (case, name, x, y, alt) in sample_cases("randomisation") {
        let c = Compare::new()
            .alternative(alt)
            .exact_up_to(16)
            .correction(Correction::None)
            .units_seeded(&table(&x, &y), 1)
            .unwrap();
        let p = &c.pairs[0];
        assert_eq!(
            p.method,
            PValueMethod::Exact {
                assignments: 1 << x.len()
            }
        );
        // The exact p-value with decimal ties kept (rational arithmetic);
        // SciPy's where its tolerance (100ε·|T|) sees the same ties.
        let want = num(&case["p_ties"]);
        assert!(
            close(p.p_value, want, 1e-300),
            "{name} {alt:?}: {} vs {want}",
            p.p_value
        );
        if !case["ties_differ"].as_bool().unwrap() {
            let scipy = num(&case["p"]);
            assert!(
                close(p.p_value, scipy, 1e-300),
                "{name} {alt:?}: SciPy {scipy}"
            );
        }
        assert!(close(p.statistic, num(&case["statistic"]), 1.0), "{name}");
    }
}

fn correction(method: &str, maxiter: usize) -> Correction {
    match Correction::from_name(method).unwrap() {
        Correction::TwoStageBh { .. } => Correction::TwoStageBh {
            max_iterations: maxiter,
        },
        Correction::TwoStageBky { .. } => Correction::TwoStageBky {
            max_iterations: maxiter,
        },
        c => c,
    }
}

#[test]
fn corrections_match_statsmodels_and_r() {
    let mut with_r = 0;
    for case in expected()["multitest"].as_array().unwrap() {
        let p = nums(&case["p"]);
        let method = case["method"].as_str().unwrap();
        let alpha = num(&case["alpha"]);
        let maxiter = case["maxiter"].as_u64().unwrap() as usize;
        let a = adjust(&p, correction(method, maxiter), alpha).unwrap();
        let what = format!("{method} α {alpha} maxiter {maxiter} m {}", p.len());
        let reject: Vec<bool> = case["reject"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_bool().unwrap())
            .collect();
        assert_eq!(a.reject, reject, "{what}");
        for (ours, want) in a.p_values.iter().zip(nums(&case["adjusted"])) {
            assert!(close(*ours, want, 1e-15), "{what}: {ours} vs {want}");
        }
        assert!(
            close(a.alpha_sidak, num(&case["alpha_sidak"]), 1e-300),
            "{what}"
        );
        assert!(close(
            a.alpha_bonferroni,
            num(&case["alpha_bonferroni"]),
            1e-300
        ));
        if let Some(r) = case.get("r").filter(|r| !r.is_null()) {
            for (ours, want) in a.p_values.iter().zip(nums(r)) {
                assert!(close(*ours, want, 1e-15), "{what}: {ours} vs R {want}");
            }
            with_r += 1;
        }
    }
    assert!(with_r > 40, "R's p.adjust values: {with_r}");
}

#[test]
fn friedman_matches_exact_arithmetic_and_scipy() {
    for case in expected()["friedman"].as_array().unwrap() {
        let rows: Vec<Vec<f64>> = case["table"].as_array().unwrap().iter().map(nums).collect();
        let k = rows[0].len();
        let columns: Vec<(String, Vec<f64>)> = (0..k)
            .map(|s| (format!("s{s}"), rows.iter().map(|r| r[s]).collect()))
            .collect();
        let t = ScoreTable::from_columns(&columns).unwrap();
        let f = friedman(&t, Order::LargerIsBetter, 0.05).unwrap();
        let what = format!("{} {}×{k}", case["kind"], rows.len());
        assert_eq!(f.average_ranks, nums(&case["average_ranks"]), "{what}");
        assert!(
            close(f.tie_correction, num(&case["tie_correction"]), 1.0),
            "{what}"
        );
        let Some(stat) = case.get("statistic") else {
            assert_eq!((f.statistic, f.p_value), (0.0, 1.0), "{what}");
            continue;
        };
        assert!(
            close(f.statistic, num(stat), 1.0),
            "{what}: {} vs {}",
            f.statistic,
            num(stat)
        );
        assert!(
            close_p(f.p_value, num(&case["p"])),
            "{what}: p {} vs {}",
            f.p_value,
            num(&case["p"])
        );
        let ln_p = num(&case["ln_p"]);
        assert!(
            (f.ln_p_value - ln_p).abs() <= 1e-12 * ln_p.abs().max(1.0),
            "{what}: ln p"
        );
        if let Some(s) = case.get("scipy_statistic") {
            // SciPy's form 12/(Nk(k+1))·Σ(N R_j)² − 3N(k+1) cancels: its
            // error is about ε·3N(k+1).
            let tol = 1e-13 * 3.0 * rows.len() as f64 * (k as f64 + 1.0);
            assert!(
                (f.statistic - num(s)).abs() <= tol,
                "{what}: SciPy {}",
                num(s)
            );
        }
    }
}

#[test]
fn nemenyi_critical_values_match_mpmath() {
    for case in expected()["range"].as_array().unwrap() {
        let k = case["k"].as_u64().unwrap() as usize;
        let alpha = num(&case["alpha"]);
        let columns: Vec<(String, Vec<f64>)> = (0..k)
            .map(|s| (format!("s{s}"), vec![s as f64, 0.0]))
            .collect();
        let f = friedman(
            &ScoreTable::from_columns(&columns).unwrap(),
            Order::LargerIsBetter,
            alpha,
        )
        .unwrap();
        let q = f.q_alpha * core::f64::consts::SQRT_2;
        let want = num(&case["q"]);
        assert!(close(q, want, 1.0), "k {k} α {alpha}: {q} vs {want}");
        // CD = q_α √(k(k + 1)/(6N)), N = 2.
        let cd = f.q_alpha * (k as f64 * (k as f64 + 1.0) / 12.0).sqrt();
        assert!(close(f.critical_difference, cd, 1.0));
    }
}

// ------------------------------------------------------------------ errors

#[test]
fn bad_input_is_a_typed_error() {
    let good = [0.1, 0.2, 0.3];
    let e = ScoreTable::from_columns(&[("a", [0.1, f64::NAN, 0.3]), ("b", good)]).unwrap_err();
    assert!(matches!(&e, CompareError::NotFinite { system, unit, value }
        if system == "a" && unit == "1" && value.is_nan()));
    assert_eq!(e.to_string(), "system \"a\", unit \"1\": the score is NaN");
    let one = ScoreTable::from_columns(&[("a", good)]).unwrap();
    assert_eq!(
        Compare::new().units_seeded(&one, 1).unwrap_err(),
        CompareError::TooFewSystems { needed: 2, got: 1 }
    );
    let t = ScoreTable::from_columns(&[("a", good), ("b", [0.3, 0.1, 0.2])]).unwrap();
    for alpha in [0.0, 1.0, -0.5, f64::NAN] {
        assert!(matches!(
            Compare::new().alpha(alpha).units_seeded(&t, 1),
            Err(CompareError::InvalidAlpha { .. })
        ));
    }
    assert_eq!(
        Compare::new()
            .test(Test::Bootstrap)
            .replicates(1 << 30)
            .units_seeded(&t, 1)
            .unwrap_err(),
        CompareError::Uncertainty(UncertaintyError::TooLarge {
            quantity: "resamples",
            requested: 1 << 30,
            limit: 1 << 27
        })
    );
    assert!(matches!(
        Compare::new().level(1.0).units_seeded(&t, 1),
        Err(CompareError::Uncertainty(
            UncertaintyError::InvalidLevel { .. }
        ))
    ));
    let short = ScoreTable::from_columns(&[("a", [0.5]), ("b", [0.25])]).unwrap();
    assert_eq!(
        Compare::new()
            .test(Test::PairedT)
            .units_seeded(&short, 1)
            .unwrap_err(),
        CompareError::TooFewUnits {
            method: "the paired t-test",
            needed: 2,
            got: 1
        }
    );
    assert!(matches!(
        ScoreTable::from_columns(&[("a", &good[..]), ("b", &good[..2])]),
        Err(CompareError::LengthMismatch { .. })
    ));
    assert!(matches!(
        Compare::new()
            .pairs(adaptive_comp_metrics::uncertainty::compare::Pairs::Baseline(2))
            .units_seeded(&t, 1),
        Err(CompareError::InvalidBaseline {
            index: 2,
            systems: 2
        })
    ));
    // A unit one system lacks names the system and the unit.
    let a = [("q1", 0.5), ("q2", 0.25)];
    let b = [("q1", 0.5), ("q3", 0.25)];
    let e =
        ScoreTable::from_keyed(&[("run1", &a[..]), ("run2", &b[..])], Missing::Error).unwrap_err();
    assert!(
        matches!(&e, CompareError::MissingUnit { system, unit, other }
        if system == "run2" && unit == "q2" && other == "run1")
    );
    let dup = [("q1", 0.5), ("q1", 0.25)];
    assert!(matches!(
        ScoreTable::from_keyed(&[("run1", &dup[..])], Missing::Error),
        Err(CompareError::DuplicateUnit { .. })
    ));
    // Per-unit tests do not apply to coefficients.
    let human = [1.0, 2.0, 3.0];
    assert!(matches!(
        Compare::new().test(Test::PairedT).coefficients_seeded(
            &adaptive_comp_metrics::uncertainty::Spearman,
            &human,
            &t,
            1
        ),
        Err(CompareError::NotApplicable { .. })
    ));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let n = 300;
    let cols: Vec<(String, Vec<f64>)> = (0..4)
        .map(|s| {
            (
                format!("s{s}"),
                (0..n)
                    .map(|i| ((i * 7919 + s * 104_729) % 1000) as f64 / 1000.0 + s as f64 * 0.01)
                    .collect(),
            )
        })
        .collect();
    let t = ScoreTable::from_columns(&cols).unwrap();
    for test in [Test::Randomisation, Test::Bootstrap] {
        let run = |threads: usize| {
            Compare::new()
                .test(test)
                .replicates(3000)
                .threads(Threads::Fixed(threads.try_into().unwrap()))
                .units_seeded(&t, 42)
                .unwrap()
        };
        let one = run(1);
        assert!(one.pairs.iter().all(|p| p.p_value > 0.0));
        for threads in [2, 3, 7] {
            assert_eq!(run(threads), one, "{test:?} on {threads} threads");
        }
    }
}

// -------------------------------------------------------------- properties

/// Brute-force sign-flip p-value: every one of the 2ⁿ sign vectors, sums
/// in index order, the crate's tie rule.
fn brute_flips(x: &[f64], y: &[f64], alt: Alternative) -> f64 {
    let d: Vec<f64> = x.iter().zip(y).map(|(a, b)| a - b).collect();
    let tol = 1e-10 * x.iter().chain(y).map(|v| v.abs()).sum::<f64>();
    let t: f64 = d.iter().sum();
    all_masks_p(d.len(), alt, |mask| {
        let v: f64 = d
            .iter()
            .enumerate()
            .map(|(j, &x)| if mask >> j & 1 == 1 { x } else { -x })
            .sum();
        (v >= t - tol, v <= t + tol)
    })
}

/// The p-value of `alt` over every one of the 2ⁿ masks: `outcome(mask)`
/// says whether the mask's statistic is at least, and at most, the
/// observed one.
fn all_masks_p(n: usize, alt: Alternative, outcome: impl Fn(u64) -> (bool, bool)) -> f64 {
    let (mut ge, mut le) = (0u64, 0u64);
    for mask in 0..1u64 << n {
        let (at_least, at_most) = outcome(mask);
        ge += u64::from(at_least);
        le += u64::from(at_most);
    }
    let total = (1u64 << n) as f64;
    let (g, l) = (ge as f64 / total, le as f64 / total);
    match alt {
        Alternative::Greater => g,
        Alternative::Less => l,
        Alternative::TwoSided => (2.0 * g.min(l)).min(1.0),
    }
}

/// Average ranks of |d| (1-based) by the definition: 1 + #{smaller} +
/// (#{equal} − 1)/2.
fn ranks_by_definition(d: &[f64]) -> Vec<f64> {
    d.iter()
        .map(|&v| {
            let smaller = d.iter().filter(|w| w.abs() < v.abs()).count() as f64;
            let equal = d.iter().filter(|w| w.abs() == v.abs()).count() as f64;
            1.0 + smaller + (equal - 1.0) / 2.0
        })
        .collect()
}

/// The exact conditional p-value of R⁺ (zero_method wilcox) over all sign
/// changes of the non-zero differences.
fn brute_signed_rank(x: &[f64], y: &[f64], alt: Alternative) -> f64 {
    let d: Vec<f64> = x
        .iter()
        .zip(y)
        .map(|(a, b)| a - b)
        .filter(|v| *v != 0.0)
        .collect();
    let r = ranks_by_definition(&d);
    let observed: f64 = d
        .iter()
        .zip(&r)
        .filter(|(v, _)| **v > 0.0)
        .map(|(_, r)| r)
        .sum();
    all_masks_p(d.len(), alt, |mask| {
        let v: f64 = (0..d.len())
            .filter(|j| mask >> j & 1 == 1)
            .map(|j| r[j])
            .sum();
        (v >= observed, v <= observed)
    })
}

fn pair(
    x: &[f64],
    y: &[f64],
    compare: Compare,
) -> adaptive_comp_metrics::uncertainty::compare::PairComparison {
    compare
        .correction(Correction::None)
        .units_seeded(&table(x, y), 5)
        .unwrap()
        .pairs
        .remove(0)
}

fn alternatives() -> impl Strategy<Value = Alternative> {
    prop_oneof![
        Just(Alternative::TwoSided),
        Just(Alternative::Greater),
        Just(Alternative::Less)
    ]
}

/// Scores on a grid of tenths (ties and zero differences, sums that tie
/// only in decimal arithmetic) or continuous.
fn scores(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    n.prop_flat_map(|n| {
        let grid = proptest::collection::vec((0u8..=10).prop_map(|v| f64::from(v) / 10.0), n);
        let cont = proptest::collection::vec(0.0f64..1.0, n);
        prop_oneof![(grid.clone(), grid), (cont.clone(), cont)]
    })
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Exact randomisation = brute-force enumeration of the 2ⁿ sign vectors.
    #[test]
    fn exact_randomisation_is_enumeration((x, y) in scores(1..=12), alt in alternatives()) {
        let p = pair(&x, &y, Compare::new().alternative(alt));
        prop_assert_eq!(p.method, PValueMethod::Exact { assignments: 1 << x.len() });
        prop_assert!((p.p_value - brute_flips(&x, &y, alt)).abs() < 1e-15);
    }

    /// Monte-Carlo p-values are never 0 and agree with the exact ones within
    /// their error (5 standard errors and the (b + 1)/(m + 1) offset).
    #[test]
    fn monte_carlo_agrees_with_exact((x, y) in scores(6..=14), alt in alternatives(), seed in any::<u64>()) {
        let exact = pair(&x, &y, Compare::new().alternative(alt)).p_value;
        let m = 4000;
        let mc = Compare::new().alternative(alt).exact_up_to(0).replicates(m).correction(Correction::None)
            .units_seeded(&table(&x, &y), seed).unwrap().pairs.remove(0);
        let PValueMethod::MonteCarlo { replicates, standard_error } = mc.method else {
            panic!("{:?}", mc.method)
        };
        prop_assert_eq!(replicates, m as u64);
        prop_assert!(mc.p_value >= 1.0 / (m as f64 + 1.0));
        let q = if alt == Alternative::TwoSided { exact / 2.0 } else { exact };
        let se = (q * (1.0 - q) / m as f64).sqrt() * if alt == Alternative::TwoSided { 2.0 } else { 1.0 };
        prop_assert!((mc.p_value - exact).abs() <= 5.0 * se + 2.5 / (m as f64 + 1.0),
            "mc {} (se {}) exact {}", mc.p_value, standard_error, exact);
    }

    /// Wilcoxon's permutation distribution = enumeration with ranks by
    /// definition; without ties its exact distribution is the same.
    #[test]
    fn signed_rank_permutation_is_enumeration((x, y) in scores(1..=12), alt in alternatives()) {
        let w = Wilcoxon::new().method(WilcoxonMethod::Permutation);
        let p = pair(&x, &y, Compare::new().test(Test::Wilcoxon(w)).alternative(alt));
        prop_assert!((p.p_value - brute_signed_rank(&x, &y, alt)).abs() < 1e-14);
        let d: Vec<f64> = x.iter().zip(&y).map(|(a, b)| (a - b).abs()).collect();
        let distinct = d.iter().all(|v| *v != 0.0) && (0..d.len()).all(|i| (0..i).all(|j| d[i] != d[j]));
        if distinct {
            let e = pair(&x, &y, Compare::new().test(Test::Wilcoxon(w.method(WilcoxonMethod::Exact))).alternative(alt));
            prop_assert!((e.p_value - p.p_value).abs() < 1e-14);
        }
    }

    /// Holm's and Hommel's adjusted p-values are those of closed testing
    /// with Bonferroni and Simes tests of every intersection (brute force).
    #[test]
    fn step_methods_are_closed_testing(p in proptest::collection::vec(0.0f64..=1.0, 1..=8)) {
        let m = p.len();
        let mut holm = vec![0.0f64; m];
        let mut hommel = vec![0.0f64; m];
        for set in 1u32..1 << m {
            let members: Vec<usize> = (0..m).filter(|i| set >> i & 1 == 1).collect();
            let size = members.len() as f64;
            let mut sorted: Vec<f64> = members.iter().map(|&i| p[i]).collect();
            sorted.sort_by(f64::total_cmp);
            let bonferroni = (size * sorted[0]).min(1.0);
            let simes = sorted.iter().enumerate().map(|(j, &q)| size * q / (j + 1) as f64)
                .fold(f64::INFINITY, f64::min).min(1.0);
            for &i in &members {
                holm[i] = holm[i].max(bonferroni);
                hommel[i] = hommel[i].max(simes);
            }
        }
        let a = adjust(&p, Correction::Holm, 0.05).unwrap();
        let h = adjust(&p, Correction::Hommel, 0.05).unwrap();
        for i in 0..m {
            prop_assert!((a.p_values[i] - holm[i]).abs() <= 1e-15 * holm[i].max(1e-300), "holm {i}");
            prop_assert!((h.p_values[i] - hommel[i]).abs() <= 1e-14 * hommel[i].max(1e-300), "hommel {i}");
            prop_assert!(a.p_values[i] >= p[i] && h.p_values[i] >= p[i]);
        }
    }

    /// Every correction: adjusted p-values in [p, 1], in the order of the
    /// raw ones.
    #[test]
    fn corrections_keep_order(p in proptest::collection::vec(0.0f64..=1.0, 0..=40)) {
        for c in ["bonferroni", "sidak", "holm-sidak", "holm", "sh", "hommel", "fdr_bh", "fdr_by", "fdr_tsbh", "fdr_tsbky", "fdr_gbs"] {
            let a = adjust(&p, Correction::from_name(c).unwrap(), 0.05).unwrap();
            for i in 0..p.len() {
                prop_assert!(a.p_values[i] <= 1.0, "{c}");
                if !c.starts_with("fdr_ts") && c != "fdr_gbs" {
                    prop_assert!(a.p_values[i] >= p[i] * (1.0 - 1e-15), "{c}");
                }
                for j in 0..p.len() {
                    if p[i] < p[j] {
                        prop_assert!(a.p_values[i] <= a.p_values[j], "{c}");
                    }
                }
            }
        }
    }

    /// Friedman: the statistic from ranks by definition; the groups are
    /// maximal runs closer than the critical difference.
    #[test]
    fn friedman_by_definition(rows in proptest::collection::vec(proptest::collection::vec(0u8..4, 4), 1..20)) {
        let k = 4;
        let columns: Vec<(String, Vec<f64>)> = (0..k)
            .map(|s| (format!("s{s}"), rows.iter().map(|r| f64::from(r[s])).collect()))
            .collect();
        let f = friedman(&ScoreTable::from_columns(&columns).unwrap(), Order::LargerIsBetter, 0.05).unwrap();
        let n = rows.len() as f64;
        let mut ranks = vec![0.0; k];
        let mut ties = 0.0;
        for r in &rows {
            let neg: Vec<f64> = r.iter().map(|v| -f64::from(*v)).collect();
            for (s, rank) in ranks_by_definition(&neg.iter().map(|v| v + 10.0).collect::<Vec<_>>()).iter().enumerate() {
                ranks[s] += rank / n;
            }
            for v in 0..4u8 {
                let t = r.iter().filter(|&&w| w == v).count() as f64;
                ties += t * t * t - t;
            }
        }
        for (ours, want) in f.average_ranks.iter().zip(&ranks) {
            prop_assert!((ours - want).abs() < 1e-12);
        }
        let c = 1.0 - ties / (n * 4.0 * 15.0);
        if c > 0.0 {
            let chi = 12.0 * n / 20.0 * ranks.iter().map(|r| (r - 2.5) * (r - 2.5)).sum::<f64>() / c;
            prop_assert!((f.statistic - chi).abs() <= 1e-12 * chi.max(1.0));
        }
        for g in &f.groups {
            for &a in g {
                for &b in g {
                    prop_assert!(!f.differ(a, b));
                }
            }
        }
        for s in 0..k {
            prop_assert!(f.groups.iter().any(|g| g.contains(&s)));
        }
    }
}

/// The sizes of the performance bars, for profiling (`cargo test --release
/// … compare::profile -- --ignored`; the timings are in benches/compare.rs).
#[test]
#[ignore = "a profiling target, not a check"]
fn profile() {
    let systems = std::env::var("PROFILE_SYSTEMS").map_or(10, |v| v.parse().unwrap());
    let units = std::env::var("PROFILE_UNITS").map_or(10_000, |v| v.parse().unwrap());
    let replicates = std::env::var("PROFILE_REPLICATES").map_or(10_000, |v| v.parse().unwrap());
    let test = match std::env::var("PROFILE_TEST").as_deref() {
        Ok("bootstrap") => Test::Bootstrap,
        _ => Test::Randomisation,
    };
    let columns: Vec<(String, Vec<f64>)> = (0..systems)
        .map(|s| {
            let col = (0..units)
                .map(|u| ((u * 7919 + s * 104_729) % 1000) as f64 / 1000.0)
                .collect();
            (format!("s{s}"), col)
        })
        .collect();
    let t = ScoreTable::from_columns(&columns).unwrap();
    let start = std::time::Instant::now();
    let c = Compare::new()
        .test(test)
        .replicates(replicates)
        .units_seeded(&t, 1)
        .unwrap();
    if test == Test::Bootstrap {
        friedman(&t, Order::LargerIsBetter, 0.05).unwrap();
    }
    eprintln!("{} pairs in {:?}", c.pairs.len(), start.elapsed());
}

#[test]
fn a_compare_error_converts_to_the_umbrella() {
    let e = adjust(&[0.5], Correction::Holm, 2.0).unwrap_err();
    assert_eq!(e.to_string(), "alpha 2 is not in (0, 1)");
    let umbrella = adaptive_comp_metrics::Error::from(e.clone());
    assert_eq!(umbrella.to_string(), e.to_string());
    assert!(matches!(&umbrella, adaptive_comp_metrics::Error::Compare(c) if **c == e));
    // Through `?` in a function returning the umbrella error.
    fn run() -> Result<(), adaptive_comp_metrics::Error> {
        adjust(&[f64::NAN], Correction::Holm, 0.05)?;
        Ok(())
    }
    assert_eq!(
        run().unwrap_err().to_string(),
        "p-value 0 is NaN, not in [0, 1]"
    );
}
