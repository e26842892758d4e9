//! Evaluation of a model on a benchmark: the unknown-word policies by hand,
//! undefined coefficients, the comparison table, and a proptest against an
//! obviously correct oracle (filter/impute, then the crate's coefficient
//! functions and a textbook Pearson formula).

use std::collections::HashMap;

use adaptive_comp_metrics::embedding::{Similarity, Vectors};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, Unknown, WordPair, WordsimError};
use adaptive_comp_metrics::{
    Coefficient, CorrelationError, Hyperbolic, Scheme, StandardisedError, Standardiser,
    TopWeighted, kendall_tau_b, rho_w, spearman, tau_w,
};
use proptest::prelude::*;

use crate::benchmark;

/// A model given by a table of similarities (symmetric); `None` = unknown.
struct Table(HashMap<(String, String), f64>);

impl Similarity for Table {
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        let key = |x: &str, y: &str| (x.to_owned(), y.to_owned());
        self.0
            .get(&key(a, b))
            .or_else(|| self.0.get(&key(b, a)))
            .copied()
    }
}

fn table(rows: &[(&str, &str, f64)]) -> Table {
    Table(
        rows.iter()
            .map(|(a, b, s)| ((a.to_string(), b.to_string()), *s))
            .collect(),
    )
}

fn bench(rows: &[(&str, &str, f64)]) -> Benchmark {
    benchmark("b", rows)
}

/// Pearson's r by the textbook formula.
fn pearson_oracle(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

#[test]
fn unknown_policies_by_hand() {
    let b = bench(&[
        ("a", "b", 4.0),
        ("a", "c", 3.0),
        ("x", "c", 2.0),
        ("b", "c", 1.0),
    ]);
    let m = table(&[("a", "b", 0.9), ("a", "c", 0.2), ("b", "c", 0.5)]);
    let drop = Evaluator::new().evaluate(&m, &b).unwrap();
    assert_eq!((drop.pairs, drop.found, drop.scored()), (4, 3, 3));
    assert_eq!(drop.oov_ratio(), 0.25);
    assert_eq!(
        (drop.human.clone(), drop.model.clone()),
        (vec![4.0, 3.0, 1.0], vec![0.9, 0.2, 0.5])
    );
    assert_eq!(drop.imputed, None);
    assert_eq!(drop.similarities, [Some(0.9), Some(0.2), None, Some(0.5)]);
    // Ranks (3, 2, 1) against (3, 1, 2): ρ = 1 − 6·2/(3·8) = 0.5, τ = (2 − 1)/3.
    assert!((drop.spearman.as_ref().unwrap().rho - 0.5).abs() < 1e-15);
    assert!((drop.kendall.as_ref().unwrap().tau - 1.0 / 3.0).abs() < 1e-15);
    let zero = Evaluator::new()
        .unknown(Unknown::Zero)
        .evaluate(&m, &b)
        .unwrap();
    assert_eq!(zero.model, [0.9, 0.2, 0.0, 0.5]);
    assert_eq!(zero.imputed, Some(0.0));
    let mean = Evaluator::new()
        .unknown(Unknown::Mean)
        .evaluate(&m, &b)
        .unwrap();
    // (0.9 + 0.2 + 0.5)/3
    let mu = 1.6 / 3.0;
    assert!((mean.imputed.unwrap() - mu).abs() < 1e-15);
    assert_eq!(mean.model[2], mean.imputed.unwrap());
    assert_eq!(mean.human, [4.0, 3.0, 2.0, 1.0]);
    for r in [&drop, &zero, &mean] {
        assert!((r.pearson.as_ref().unwrap().r - pearson_oracle(&r.human, &r.model)).abs() < 1e-14);
    }
}

#[test]
fn undefined_coefficients_stay_inside_the_report() {
    let b = bench(&[("a", "b", 4.0), ("c", "d", 3.0), ("e", "f", 2.0)]);
    let none = table(&[]);
    let drop = Evaluator::new().evaluate(&none, &b).unwrap();
    assert_eq!((drop.found, drop.scored(), drop.oov_ratio()), (0, 0, 1.0));
    assert_eq!(
        drop.spearman.unwrap_err(),
        CorrelationError::TooFewItems { needed: 2, got: 0 }
    );
    let mean = Evaluator::new()
        .unknown(Unknown::Mean)
        .evaluate(&none, &b)
        .unwrap();
    assert_eq!(mean.imputed, None);
    assert_eq!(
        mean.pearson.unwrap_err(),
        CorrelationError::Constant { input: "y" }
    );
    assert_eq!(
        mean.tau_w.unwrap_err(),
        CorrelationError::Constant { input: "y" }
    );
    // A constant model.
    let flat = table(&[("a", "b", 0.5), ("c", "d", 0.5), ("e", "f", 0.5)]);
    let r = Evaluator::new().evaluate(&flat, &b).unwrap();
    assert_eq!(
        r.kendall.unwrap_err(),
        CorrelationError::Constant { input: "y" }
    );
}

#[test]
fn standardised_coefficients_sit_beside_the_raw_ones() {
    // Twelve pairs, untied human scores, a model that swaps two top pairs.
    let rows: Vec<(String, String, f64)> = (0..12)
        .map(|i| (format!("w{i}"), format!("v{i}"), f64::from(12 - i)))
        .collect();
    let b = benchmark("b", &rows);
    let sims: Vec<(&str, &str, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, (a, c, _))| {
            let s = match i {
                0 => 0.8,
                1 => 0.9,
                _ => 1.0 / (2.0 + i as f64),
            };
            (a.as_str(), c.as_str(), s)
        })
        .collect();
    let r = Evaluator::new().evaluate(&table(&sims), &b).unwrap();
    let paper = TopWeighted::new();
    // The report's values are the top-weighted API's on the scored vectors.
    let rho = r.rho_w_standardised.as_ref().unwrap();
    assert_eq!(*rho, paper.rho_standardised(&r.human, &r.model).unwrap());
    let tau = r.tau_w_standardised.as_ref().unwrap();
    assert_eq!(*tau, paper.tau_standardised(&r.human, &r.model).unwrap());
    assert_eq!(rho.rho, *r.rho_w.as_ref().unwrap());
    assert_eq!(tau.tau, *r.tau_w.as_ref().unwrap());
    assert!(!rho.ties && !tau.ties);
    // n = 12 is a Monte-Carlo row of the table (below-zero null means); the
    // values are the map of those moments applied to the raw coefficients.
    assert_eq!(rho.moments, paper.null_table(Coefficient::Rho, 12).unwrap());
    assert_eq!(tau.moments, paper.null_table(Coefficient::Tau, 12).unwrap());
    assert!(rho.moments.mean.value < 0.0 && tau.moments.mean.value < 0.0);
    let g = |m| Standardiser::new(m).unwrap();
    assert_eq!(rho.value, g(rho.moments).standardised(rho.rho.rho).unwrap());
    assert_eq!(tau.value, g(tau.moments).standardised(tau.tau.tau).unwrap());
    // A weigher outside the table: raw values, and a typed error beside them.
    let first =
        Evaluator::new().top_weighted(TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First));
    let r = first.evaluate(&table(&sims), &b).unwrap();
    assert!(r.rho_w.is_ok() && r.tau_w.is_ok());
    assert!(matches!(
        r.rho_w_standardised,
        Err(StandardisedError::NotInTable { .. })
    ));
    assert!(matches!(
        r.tau_w_standardised,
        Err(StandardisedError::NotInTable { .. })
    ));
}

#[test]
fn non_finite_similarities_are_errors() {
    let b = bench(&[("a", "b", 4.0), ("c", "d", 3.0)]);
    let bad = table(&[("a", "b", 0.5), ("c", "d", f64::NAN)]);
    let e = Evaluator::new().evaluate(&bad, &b).unwrap_err();
    assert!(matches!(
        e,
        WordsimError::NonFiniteSimilarity { index: 1, .. }
    ));
    assert_eq!(
        e.to_string(),
        "pair 1 (c, d): the model's similarity NaN is not finite"
    );
}

#[test]
fn vectors_fold_case_for_mixed_case_benchmarks() {
    let mut v = Vectors::<f32>::with_case_folding(2).unwrap();
    v.push("Tiger", &[1.0, 0.0]).unwrap();
    v.push("cat", &[1.0, 1.0]).unwrap();
    let b = bench(&[("TIGER", "Cat", 7.0), ("tiger", "cat", 7.0)]);
    let r = Evaluator::new().evaluate(&v, &b).unwrap();
    assert_eq!(r.found, 2);
    assert!((r.similarities[0].unwrap() - 0.5f64.sqrt()).abs() < 1e-7);
}

/// gensim's `case_insensitive` key (Python's `str.upper()`, the same
/// Unicode full case mapping as `str::to_uppercase`).
fn gensim_key(w: &str) -> String {
    w.to_uppercase()
}

#[test]
fn case_folding_lowercases_where_gensim_uppercases() {
    // The three documented differences: words that gensim's upper-casing
    // makes one and lower-casing keeps two.
    let cases = [
        ("straße", "strasse", "STRASSE"), // ß → SS
        ("kıta", "kita", "KITA"),         // dotless ı → I
        ("λογος", "λογοσ", "ΛΟΓΟΣ"),      // final ς → Σ
    ];
    let mut v = Vectors::<f32>::with_case_folding(2).unwrap();
    v.push("anchor", &[1.0, 0.0]).unwrap();
    for (k, (stored, other, upper)) in cases.iter().enumerate() {
        v.push(*stored, &[1.0, k as f32 + 1.0]).unwrap();
        // gensim: one key for all three spellings.
        assert_eq!(gensim_key(stored), gensim_key(other));
        assert_eq!(gensim_key(stored), *upper);
        // The crate: the lower cases differ, so `other` is another word.
        assert_ne!(stored.to_lowercase(), other.to_lowercase());
        assert!(v.contains(stored) && !v.contains(other), "{stored} {other}");
    }
    // Upper-case spellings: only ΛΟΓΟΣ lowercases back (final sigma rule).
    assert!(!v.contains("STRASSE") && !v.contains("KITA") && v.contains("ΛΟΓΟΣ"));
    // A benchmark in the other spellings: gensim finds 3 pairs, the crate none.
    let b = bench(&[
        ("strasse", "anchor", 3.0),
        ("kita", "anchor", 2.0),
        ("λογοσ", "anchor", 1.0),
    ]);
    let r = Evaluator::new()
        .unknown(Unknown::Zero)
        .evaluate(&v, &b)
        .unwrap();
    assert_eq!(r.found, 0);
    // The rarer letters of the docs.
    assert_eq!(gensim_key("ﬁle"), gensim_key("file"));
    assert_ne!("ﬁle".to_lowercase(), "file".to_lowercase());
    assert_eq!(gensim_key("ſun"), gensim_key("sun"));
    assert_ne!("ſun".to_lowercase(), "sun");
    // ... and the other way round: lower case merges, upper case does not.
    assert_eq!("\u{212A}elvin".to_lowercase(), "kelvin");
    assert_ne!(gensim_key("\u{212A}elvin"), gensim_key("kelvin"));
    assert_eq!("\u{2126}".to_lowercase(), "ω");
    assert_ne!(gensim_key("\u{2126}"), gensim_key("ω"));
    // ASCII folds alike.
    assert_eq!(gensim_key("Tiger"), gensim_key("tIGER"));
    assert_eq!("Tiger".to_lowercase(), "tIGER".to_lowercase());
}

#[test]
fn comparison_table_in_model_then_benchmark_order() {
    let b1 = bench(&[("a", "b", 3.0), ("a", "c", 2.0), ("b", "c", 1.0)]);
    let b2 = benchmark(
        "second",
        &[("a", "b", 1.0), ("a", "c", 2.0), ("b", "c", 3.0)],
    );
    let m1 = table(&[("a", "b", 0.9), ("a", "c", 0.5), ("b", "c", 0.1)]);
    let m2 = table(&[("a", "b", 0.1), ("a", "c", 0.5)]);
    let models: [(&str, &(dyn Similarity + Sync)); 2] = [("m1", &m1), ("m2", &m2)];
    let t = Evaluator::new().compare(&models, &[b1, b2]).unwrap();
    assert_eq!(t.models(), ["m1", "m2"]);
    assert_eq!(t.benchmarks(), ["b", "second"]);
    let rows: Vec<(&str, &str, usize)> = t.rows().map(|(m, b, r)| (m, b, r.found)).collect();
    assert_eq!(
        rows,
        [
            ("m1", "b", 3),
            ("m1", "second", 3),
            ("m2", "b", 2),
            ("m2", "second", 2)
        ]
    );
    assert_eq!(t.report(0, 0).spearman.as_ref().unwrap().rho, 1.0);
    assert_eq!(t.report(0, 1).spearman.as_ref().unwrap().rho, -1.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn report_equals_the_oracle(
        gold in prop::collection::vec(0u8..8, 3..40),
        sims in prop::collection::vec(prop::option::weighted(0.8, -10i8..10), 40),
        policy in 0u8..3,
    ) {
        let n = gold.len();
        let pairs: Vec<WordPair> = (0..n).map(|i| WordPair::new(format!("u{i}"), format!("v{i}"), f64::from(gold[i]))).collect();
        let b = Benchmark::new("p", pairs).unwrap();
        let m = Table((0..n).filter_map(|i| sims[i].map(|s| ((format!("u{i}"), format!("v{i}")), f64::from(s) / 10.0))).collect());
        let unknown = [Unknown::Drop, Unknown::Zero, Unknown::Mean][policy as usize];
        let r = Evaluator::new().unknown(unknown).evaluate(&m, &b).unwrap();
        // Oracle: filter or impute by hand.
        let known: Vec<f64> = (0..n).filter_map(|i| sims[i].map(|s| f64::from(s) / 10.0)).collect();
        let mean = known.iter().sum::<f64>() / known.len() as f64;
        let (mut h, mut y) = (Vec::new(), Vec::new());
        for i in 0..n {
            let s = sims[i].map(|s| f64::from(s) / 10.0);
            match (unknown, s) {
                (_, Some(s)) => { h.push(f64::from(gold[i])); y.push(s); }
                (Unknown::Drop, None) => {}
                (Unknown::Zero, None) => { h.push(f64::from(gold[i])); y.push(0.0); }
                (_, None) => { h.push(f64::from(gold[i])); y.push(if known.is_empty() { 0.0 } else { mean }); }
            }
        }
        prop_assert_eq!(r.found, known.len());
        prop_assert_eq!(&r.human, &h);
        for (a, b) in r.model.iter().zip(&y) {
            prop_assert!((a - b).abs() < 1e-15);
        }
        prop_assert_eq!(r.spearman.map(|s| s.rho), spearman(&r.human, &r.model).map(|s| s.rho));
        prop_assert_eq!(r.kendall.map(|s| s.tau), kendall_tau_b(&r.human, &r.model).map(|s| s.tau));
        prop_assert_eq!(r.rho_w.map(|s| s.rho), rho_w(&r.human, &r.model).map(|s| s.rho));
        prop_assert_eq!(r.tau_w.map(|s| s.tau), tau_w(&r.human, &r.model).map(|s| s.tau));
        match r.pearson {
            Ok(p) => prop_assert!((p.r - pearson_oracle(&h, &y)).abs() < 1e-12),
            // Undefined for a constant side; the textbook oracle may leave a
            // rounding residue there (mean of three 0.1s is not 0.1).
            Err(_) => prop_assert!(
                h.len() < 2
                    || h.iter().all(|v| *v == h[0])
                    || y.iter().all(|v| *v == y[0])
                    || !pearson_oracle(&h, &y).is_finite()
            ),
        }
    }
}
