//! Word-similarity reports, comparison tables, options and benchmarks
//! through serde, made by the library from the bundled sample benchmarks
//! and vectors (tests/data/wordsim); reports read back must agree with
//! their scored pairs.

use super::*;
use adaptive_comp_metrics::embedding::{Format, ReadOptions, Similarity, Vectors, read_vectors};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Comparison, Detection, Evaluator, Header, Layout, PairFormat, Report, Separator,
    Unknown, WordPair,
};
use adaptive_comp_metrics::{Hyperbolic, Scheme, TopWeighted};

fn data(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/wordsim")
        .join(name);
    std::fs::read(path).unwrap()
}

fn benchmark(name: &str, format: &PairFormat) -> Benchmark {
    Benchmark::read(name, &data(name)[..], format).unwrap()
}

fn vectors(name: &str) -> Vectors<f32> {
    let bytes = data(name);
    read_vectors(&bytes[..], Format::detect(&bytes), &ReadOptions::new()).unwrap()
}

/// A model given by a table of similarities; `None` = unknown.
struct Table(Vec<(&'static str, &'static str, f64)>);

impl Similarity for Table {
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        self.0
            .iter()
            .find(|(x, y, _)| (*x, *y) == (a, b) || (*y, *x) == (a, b))
            .map(|t| t.2)
    }
}

/// Pairs (a, b), (a, c), (b, c), (a, x) scored 3, 2, 1, 5.
fn toy() -> Benchmark {
    Benchmark::new(
        "toy",
        vec![
            WordPair::new("a", "b", 3.0),
            WordPair::new("a", "c", 2.0),
            WordPair::new("b", "c", 1.0),
            WordPair::new("a", "x", 5.0),
        ],
    )
    .unwrap()
}

#[test]
fn reports_of_every_policy() -> TestResult {
    let ws = benchmark("ws-sample.tsv", &PairFormat::new());
    let simlex = benchmark("simlex-sample.txt", &PairFormat::layout(Layout::SimLex999));
    let (a, b) = (vectors("sample-a.vec"), vectors("sample-b.bin"));
    for unknown in [Unknown::Drop, Unknown::Zero, Unknown::Mean] {
        let ev = Evaluator::new().unknown(unknown);
        for (v, bench) in [(&a, &ws), (&b, &ws), (&a, &simlex)] {
            let report = ev.evaluate(v, bench)?;
            assert!(report.found < report.pairs, "some words are unknown");
            let back: Report = round_trip(&report);
            assert_eq!(back, report);
            // The scored vectors are rebuilt, not stored.
            assert_eq!((&back.human, &back.model), (&report.human, &report.model));
            result(&report);
        }
    }
    // Another weighting is kept as computed.
    let ev = Evaluator::new().top_weighted(TopWeighted::new().weigher(Hyperbolic));
    result(&ev.evaluate(&a, &ws)?);
    let json = serde_json::to_value(ev.evaluate(&a, &ws)?)?;
    for derived in ["human", "model"] {
        assert!(json.get(derived).is_none(), "{derived} is stored");
    }
    Ok(())
}

#[test]
fn undefined_coefficients_read_back_with_their_reasons() -> TestResult {
    // One known pair: every coefficient has too few items.
    let one = Table(vec![("a", "b", 0.5)]);
    let report = Evaluator::new().evaluate(&one, &toy())?;
    assert!(report.pearson.is_err() && report.tau_w.is_err());
    result(&report);
    let json = serde_json::to_value(&report)?;
    assert_eq!(
        json["spearman"],
        serde_json::json!({"Err": report.spearman.unwrap_err().to_string()})
    );
    // Every known similarity 0.5: constant when unknown pairs are dropped
    // or scored with the mean; under Zero the unknown pair scores 0, so the
    // coefficients are defined.
    let flat = Table(vec![("a", "b", 0.5), ("a", "c", 0.5), ("b", "c", 0.5)]);
    for unknown in [Unknown::Drop, Unknown::Zero, Unknown::Mean] {
        let r = Evaluator::new().unknown(unknown).evaluate(&flat, &toy())?;
        assert_eq!(r.rho_w.is_err(), unknown != Unknown::Zero);
        result(&r);
    }
    // No known pair under Mean: nothing to average, unknown pairs score 0.
    let none = Table(vec![]);
    let r = Evaluator::new()
        .unknown(Unknown::Mean)
        .evaluate(&none, &toy())?;
    assert_eq!(r.imputed, None);
    result(&r);
    Ok(())
}

#[test]
fn standardised_values_in_reports() -> TestResult {
    use adaptive_comp_metrics::{Logarithmic, StandardisedError};
    let ws = benchmark("ws-sample.tsv", &PairFormat::new());
    let a = vectors("sample-a.vec");
    // In the table: defined, and kept through the round trip.
    let r = Evaluator::new().evaluate(&a, &ws)?;
    assert!(r.rho_w_standardised.is_ok() && r.tau_w_standardised.is_ok());
    result(&r);
    // Weightings the table lacks: a weigher, a one-sided scheme.
    let log = Evaluator::new().top_weighted(TopWeighted::new().weigher(Logarithmic));
    let first = Evaluator::new().top_weighted(TopWeighted::new().scheme(Scheme::First));
    for report in [log.evaluate(&a, &ws)?, first.evaluate(&a, &ws)?] {
        assert!(matches!(
            report.rho_w_standardised,
            Err(StandardisedError::NotInTable { .. })
        ));
        result(&report);
    }
    // Two scored pairs: the raw coefficients exist, the standardised ones
    // need 3 items.
    let two = Table(vec![("a", "b", 0.5), ("a", "c", 0.25)]);
    let r = Evaluator::new().evaluate(&two, &toy())?;
    assert!(r.rho_w.is_ok());
    assert!(matches!(
        r.tau_w_standardised,
        Err(StandardisedError::TooFewItems { .. })
    ));
    result(&r);
    // A standardised value that is not the report's ρ_w mapped.
    let r = Evaluator::new().evaluate(&a, &ws)?;
    let mut v = serde_json::to_value(&r)?;
    let raw = &mut v["rho_w_standardised"]["Ok"]["rho"]["rho"];
    *raw = (raw.as_f64().ok_or("rho")? - 0.05).into();
    assert!(!refused::<Report>(&v.to_string()).is_empty());
    let mut v = serde_json::to_value(&r)?;
    v["tau_w_standardised"]["Ok"]["tau"]["n"] = 3.into();
    assert!(refused::<Report>(&v.to_string()).contains("tau_w_standardised"));
    Ok(())
}

#[test]
fn comparison_tables() -> TestResult {
    let ws = benchmark("ws-sample.tsv", &PairFormat::new());
    let men = benchmark("men-sample.txt", &PairFormat::layout(Layout::Men));
    let (a, b) = (vectors("sample-a.vec"), vectors("sample-b.bin"));
    let table = Evaluator::new().compare(&[("a", &a), ("b", &b)], &[ws.clone(), men])?;
    result(&table);
    let empty = Evaluator::new().compare::<Vectors<f32>>(&[], &[ws])?;
    result(&empty);
    Ok(())
}

#[test]
fn options_and_benchmarks() -> TestResult {
    for u in [Unknown::Drop, Unknown::Zero, Unknown::Mean] {
        same(&u);
    }
    same(&Evaluator::new());
    let custom = Evaluator::new()
        .unknown(Unknown::Mean)
        .top_weighted(TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First));
    same(&custom);
    let a = vectors("sample-a.vec");
    let ws = benchmark("ws-sample.tsv", &PairFormat::new());
    assert_eq!(
        round_trip(&custom).evaluate(&a, &ws)?,
        custom.evaluate(&a, &ws)?
    );
    for layout in Layout::ALL {
        same(&layout);
        same(&PairFormat::layout(layout));
        assert_eq!(
            serde_json::to_string(&layout)?,
            format!("\"{}\"", layout.name())
        );
    }
    assert_eq!(
        serde_json::from_str::<Layout>(r#""SimLex-999""#)?,
        Layout::SimLex999
    );
    same(
        &PairFormat::new()
            .separator(Separator::Semicolon)
            .header(Header::Present)
            .columns(2, 4, 1)
            .strip_pos_suffixes(true)
            .comments(false),
    );
    for s in [
        Separator::Auto,
        Separator::Tab,
        Separator::Comma,
        Separator::Whitespace,
    ] {
        same(&s);
    }
    same(&Header::Absent);
    // A format written before `three_column_copies` existed reads as off.
    let old: PairFormat = serde_json::from_str(
        r#"{"separator": "Tab", "header": "Auto", "word_columns": [1, 2], "score_column": 4,
            "strip_pos_suffixes": false, "comments": true}"#,
    )?;
    assert_eq!(
        old,
        PairFormat::new().separator(Separator::Tab).columns(1, 2, 4)
    );
    // Detections (what was chosen for a file, and how).
    for name in ["simlex-sample.txt", "men-sample.txt", "ws-sample.tsv"] {
        let d = PairFormat::detect(&data(name), Some(name))?;
        result(&d);
        same(&d.chosen);
    }
    same(&Detection::explicit(PairFormat::layout(Layout::Men), None));
    same(&ws);
    same(&ws.pairs()[3]);
    assert_eq!(ws.pairs()[3].line, 5); // the file's line survives
    Ok(())
}

#[test]
fn invalid_data_is_refused() -> TestResult {
    let ws = benchmark("ws-sample.tsv", &PairFormat::new());
    let a = vectors("sample-a.vec");
    let report = Evaluator::new().unknown(Unknown::Mean).evaluate(&a, &ws)?;
    let json = serde_json::to_value(&report)?;
    let edit = |path: &[&str], value: Value| {
        let mut v = json.clone();
        let mut slot = &mut v;
        for key in path {
            slot = match key.parse::<usize>() {
                Ok(i) => &mut slot[i],
                Err(_) => &mut slot[*key],
            };
        }
        *slot = value;
        refused::<Report>(&v.to_string())
    };
    // A coefficient that does not follow from the scored pairs.
    let r = report.spearman.as_ref().map_err(|e| e.to_string())?.rho;
    assert!(edit(&["spearman", "Ok", "rho"], (r - 0.01).into()).contains("spearman"));
    assert!(edit(&["kendall"], serde_json::json!({"Err": "x is constant"})).contains("kendall"));
    // Counts, the imputed value and the pair table must agree.
    assert!(edit(&["found"], 3.into()).contains("found"));
    assert!(edit(&["imputed"], 0.0.into()).contains("imputed"));
    assert!(edit(&["pairs"], 2.into()).contains("pairs"));
    assert!(edit(&["gold", "0"], Value::Null).contains("invalid type"));
    assert!(edit(&["rho_w", "Ok", "n"], 2.into()).contains("rho_w"));
    assert!(edit(&["tau_w", "Ok", "tau"], 1.5.into()).contains("tau_w"));
    // An error the scored pairs do not show.
    assert!(
        edit(
            &["rho_w"],
            serde_json::json!({"Err": "all weights are zero"})
        )
        .contains("rho_w")
    );
    // A weigher that gives no weight: ρ_w is undefined for a reason the
    // report does not record, so it cannot be read back.
    let zero = Evaluator::new().top_weighted(TopWeighted::new().weigher(|_: f64| 0.0));
    let r = zero.evaluate(&a, &ws)?;
    assert!(r.rho_w.is_err());
    assert!(refused::<Report>(&serde_json::to_string(&r)?).contains("rho_w"));

    // Options and benchmarks are checked as their constructors check them.
    let mut f = serde_json::to_value(PairFormat::new())?;
    f["score_column"] = 2.into();
    assert!(refused::<PairFormat>(&f.to_string()).contains("columns"));
    assert!(refused::<Layout>(r#""wordsim999""#).contains("unknown layout"));
    assert!(refused::<Benchmark>(r#"{"name":"b","pairs":[]}"#).contains("no word pair"));
    let bad = r#"{"name":"b","pairs":[{"word1":"a","word2":"","score":1.0,"line":0}]}"#;
    assert!(refused::<Benchmark>(bad).contains("pair 0"));
    let mut e = serde_json::to_value(Evaluator::new())?;
    e["top_weighted"]["weigher"]["n0"] = (-2.0).into();
    assert!(refused::<Evaluator>(&e.to_string()).contains("n0"));

    // A table must hold one report per model and benchmark, each on its
    // benchmark.
    let table = Evaluator::new().compare(&[("a", &a)], &[ws.clone(), ws])?;
    let mut t = serde_json::to_value(&table)?;
    t["benchmarks"][1] = "other".into();
    assert!(refused::<Comparison>(&t.to_string()).contains("reports"));
    t["reports"].as_array_mut().ok_or("reports")?.pop();
    assert!(refused::<Comparison>(&t.to_string()).contains("reports"));
    Ok(())
}

#[cfg(feature = "uncertainty")]
mod uncertainty {
    use super::*;
    use adaptive_comp_metrics::uncertainty::{Bootstrap, Spearman};
    use adaptive_comp_metrics::wordsim::{Intervals, PairedTest, paired_test};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn intervals_and_paired_tests() -> TestResult {
        let ws = benchmark("ws-sample.tsv", &PairFormat::new());
        let (a, b) = (vectors("sample-a.vec"), vectors("sample-b.bin"));
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let boot = Bootstrap::new(200);
        let ra = Evaluator::new().evaluate_with_intervals(&a, &ws, &boot, &mut rng)?;
        result(&ra);
        let intervals = ra.intervals.clone().ok_or("no intervals")?;
        result(&intervals);
        let rb = Evaluator::new().evaluate(&b, &ws)?;
        // Reports read back pair up as the originals do.
        let test = paired_test(&ra, &rb, &Spearman, 199, &mut ChaCha8Rng::seed_from_u64(8))?;
        let again = paired_test(
            &round_trip(&ra),
            &round_trip(&rb),
            &Spearman,
            199,
            &mut ChaCha8Rng::seed_from_u64(8),
        )?;
        assert_eq!(again, test);
        result(&test);
        let mut v = serde_json::to_value(test)?;
        v["common"] = 2.into();
        assert!(refused::<PairedTest>(&v.to_string()).contains("common"));
        Ok(())
    }

    #[test]
    fn failed_intervals_read_back_with_their_report() -> TestResult {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let boot = Bootstrap::new(50);
        // Two scored pairs: too few for a bootstrap (it needs 3).
        let two = Table(vec![("a", "b", 0.5), ("a", "c", 0.25)]);
        let r = Evaluator::new().evaluate_with_intervals(&two, &toy(), &boot, &mut rng)?;
        let i = r.intervals.clone().ok_or("no intervals")?;
        assert!(i.pearson.is_err() && i.tau_w.is_err());
        result(&r);
        // A constant model: the coefficients fail, so do their intervals.
        let flat = Table(vec![("a", "b", 0.5), ("a", "c", 0.5), ("b", "c", 0.5)]);
        let r = Evaluator::new().evaluate_with_intervals(&flat, &toy(), &boot, &mut rng)?;
        assert!(r.intervals.as_ref().is_some_and(|i| i.spearman.is_err()));
        result(&r);
        // On their own, failed intervals have nothing to be checked against.
        let json = serde_json::to_string(&r.intervals)?;
        assert!(refused::<Intervals>(&json).contains("intervals"));
        Ok(())
    }
}

/// A model that knows the similarity of pair `i` (by its words `w{i}`,
/// `v{i}`) when `sims[i]` is `Some`.
struct Listed(Vec<Option<f64>>);

impl Similarity for Listed {
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        let i: usize = a.strip_prefix('w')?.parse().ok()?;
        (b.strip_prefix('v')? == &a[1..]).then_some(())?;
        self.0.get(i).copied().flatten()
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Every report the library makes reads back equal to itself, whatever
    /// its coefficients: defined, undefined for too few pairs, a constant
    /// side or ties everywhere (few distinct values make these common).
    #[test]
    fn every_library_report_round_trips(
        rows in proptest::collection::vec((0u8..4, proptest::option::weighted(0.7, 0u8..4)), 1..9),
        policy in 0usize..3,
    ) {
        let pairs = rows
            .iter()
            .enumerate()
            .map(|(i, (g, _))| WordPair::new(format!("w{i}"), format!("v{i}"), f64::from(*g)))
            .collect();
        let bench = Benchmark::new("p", pairs).unwrap();
        let model = Listed(rows.iter().map(|(_, s)| s.map(|s| f64::from(s) / 4.0)).collect());
        let unknown = [Unknown::Drop, Unknown::Zero, Unknown::Mean][policy];
        let report = Evaluator::new().unknown(unknown).evaluate(&model, &bench).unwrap();
        let tree = serde_json::to_value(&report).unwrap();
        let back: Report = serde_json::from_value(tree).unwrap();
        proptest::prop_assert_eq!(back, report);
    }
}
