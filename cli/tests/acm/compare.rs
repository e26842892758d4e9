//! `acm compare`: TREC runs against the values of pytrec_eval, ir_measures,
//! SciPy, statsmodels and ranx (`tests/data/compare/make_cli_expected.py` wrote
//! `cli_expected.json`), word-similarity models and lexsub systems against
//! the library and the scoring commands, and the errors of bad input and
//! wrong command lines.

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::compare::{
    Compare, Correction, ScoreTable, adjust, friedman,
};
use serde_json::Value;

use crate::common::{Scratch, data, fails, ok, run, says};

/// The ir_measures names of the reference file (its `IR_NAMES`).
const IR_NAMES: [&str; 7] = [
    "AP",
    "nDCG@10",
    "P(rel=2)@5",
    "RR@5",
    "R@5",
    "Judged@10",
    "AP(rel=2)",
];

fn expected() -> Value {
    let text = std::fs::read_to_string(data("tests/data/compare/cli_expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn qrels() -> String {
    data("tests/data/relevance/trec.qrels")
}

/// The three runs of the reference file, in its order.
fn runs() -> [String; 3] {
    [
        data("tests/data/relevance/trec.run"),
        data("tests/data/compare/cmp_b.run"),
        data("tests/data/compare/cmp_c.run"),
    ]
}

/// The output of `acm compare trec QRELS RUNS… extra…`, the three runs of
/// the reference file.
fn trec_out(extra: &[&str]) -> String {
    let [a, b, c] = runs();
    let q = qrels();
    let mut args = vec![
        "compare",
        "trec",
        q.as_str(),
        a.as_str(),
        b.as_str(),
        c.as_str(),
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// `acm compare trec QRELS RUNS… extra…` as JSON.
fn trec_json(extra: &[&str]) -> Value {
    serde_json::from_str(&trec_out(&[extra, &["--format", "json"]].concat())).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[track_caller]
fn close(got: f64, want: f64, what: &str) {
    let tol = 1e-12 * want.abs().max(1.0);
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want}");
}

/// The comparison of measure `name` in the CLI's JSON.
fn comparison<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["measure"] == name)
        .map(|c| &c["comparison"])
        .unwrap_or_else(|| panic!("no measure {name} in {doc}"))
}

/// Checks means, Student intervals, and every pair's difference, interval,
/// t, p, W/T/L against SciPy; `adjusted` names the expected adjusted p.
fn check_t(doc: &Value, cli: &str, reference: &str, adjusted: &str) {
    let e = &expected()["measures"][reference];
    let c = comparison(doc, cli);
    assert_eq!(c["units"], 34, "{cli}");
    for (got, want) in c["systems"]
        .as_array()
        .unwrap()
        .iter()
        .zip(e["systems"].as_array().unwrap())
    {
        close(
            f(&got["estimate"]),
            f(&want["mean"]),
            &format!("{cli} mean"),
        );
        close(
            f(&got["interval"]["lower"]),
            f(&want["lower"]),
            &format!("{cli} lower"),
        );
        close(
            f(&got["interval"]["upper"]),
            f(&want["upper"]),
            &format!("{cli} upper"),
        );
    }
    let pairs = c["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for (got, want) in pairs.iter().zip(e["pairs"].as_array().unwrap()) {
        let what = format!("{cli} {}-{}", want["a"], want["b"]);
        close(f(&got["difference"]), f(&want["difference"]), &what);
        close(f(&got["interval"]["lower"]), f(&want["lower"]), &what);
        close(f(&got["interval"]["upper"]), f(&want["upper"]), &what);
        close(f(&got["statistic"]), f(&want["t"]), &what);
        close(f(&got["p_value"]), f(&want["p_t"]), &what);
        close(f(&got["adjusted_p_value"]), f(&want[adjusted]), &what);
        assert_eq!(got["reject"], f(&want[adjusted]) <= 0.05, "{what}");
        for k in ["wins", "ties", "losses"] {
            assert_eq!(got["record"][k], want[k], "{what} {k}");
        }
    }
}

#[test]
fn trec_eval_and_ir_measures_names_give_scipys_t_tests_with_holm() {
    let ir = IR_NAMES;
    let mut args = vec!["--test", "t"];
    for m in ir {
        args.extend(["-m", m]);
    }
    let doc = trec_json(&args);
    for m in ir {
        check_t(&doc, m, m, "p_t_holm");
    }
    // trec_eval's names: the same computations (and the same numbers).
    let doc = trec_json(&[
        "--test",
        "t",
        "-m",
        "map",
        "-m",
        "ndcg_cut.10",
        "-m",
        "recip_rank",
    ]);
    for (m, same) in [
        ("map", "AP"),
        ("ndcg_cut.10", "nDCG@10"),
        ("recip_rank", "recip_rank"),
    ] {
        check_t(&doc, m, m, "p_t_holm");
        check_t(&doc, m, same, "p_t_holm");
    }
    // -l 2 applies to every measure without its own rel=.
    let doc = trec_json(&["--test", "t", "-l", "2", "-m", "P.5"]);
    check_t(&doc, "P.5", "P(rel=2)@5", "p_t_holm");
}

/// ranx `compare` with its paired t-test, on the two runs without tied
/// scores (ranx orders tied documents otherwise than trec_eval): the same
/// means and p-values by ranx's metric names' counterparts.
#[test]
fn ranx_compare_gives_the_same_means_and_t_tests_on_runs_without_ties() {
    let e = expected();
    let [_, b, c] = runs();
    let q = qrels();
    let mut args = vec!["compare", "trec", q.as_str(), b.as_str(), c.as_str()];
    let names = ["nDCG@10", "AP", "RR@5", "P@5"];
    for m in names {
        args.extend(["-m", m]);
    }
    args.extend(["--test", "t", "--format", "json"]);
    let doc: Value = serde_json::from_str(&ok(&args)).unwrap();
    for m in names {
        let want = &e["ranx"][m];
        let got = comparison(&doc, m);
        assert_eq!(got["units"], 34, "{m}");
        for s in got["systems"].as_array().unwrap() {
            let run = s["name"].as_str().unwrap();
            close(
                f(&s["estimate"]),
                f(&want["means"][run]),
                &format!("{m} {run}"),
            );
        }
        let pairs = got["pairs"].as_array().unwrap();
        assert_eq!(pairs.len(), 1, "{m}");
        close(f(&pairs[0]["p_value"]), f(&want["p_t"]), &format!("{m} p"));
    }
}

#[test]
fn wilcoxon_with_holm_matches_scipy_and_statsmodels() {
    let e = expected();
    let doc = trec_json(&[
        "--test",
        "wilcoxon",
        "--wilcoxon-method",
        "asymptotic",
        "-m",
        "AP",
        "-m",
        "R@5",
    ]);
    for m in ["AP", "R@5"] {
        let want = e["measures"][m]["pairs"].as_array().unwrap();
        for (got, want) in comparison(&doc, m)["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(want)
        {
            close(f(&got["p_value"]), f(&want["p_wilcoxon"]), m);
            close(f(&got["adjusted_p_value"]), f(&want["p_wilcoxon_holm"]), m);
        }
    }
}

#[test]
fn family_all_is_one_benjamini_hochberg_family_as_statsmodels() {
    let e = expected();
    let ir = IR_NAMES;
    let mut args = vec!["--test", "t", "--family", "all", "--correction", "bh"];
    for m in ir {
        args.extend(["-m", m]);
    }
    let doc = trec_json(&args);
    for m in ir {
        check_t(&doc, m, m, "p_t_bh_all");
    }
    // The same measures apart (--family measure, the default): BH over 3.
    args.truncate(2);
    args.extend(["--correction", "fdr_bh", "-m", "R@5"]);
    let doc = trec_json(&args);
    let p: Vec<f64> = e["measures"]["R@5"]["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| f(&p["p_t"]))
        .collect();
    let bh = adjust(&p, Correction::BenjaminiHochberg, 0.05).unwrap();
    for (g, w) in comparison(&doc, "R@5")["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&bh.p_values)
    {
        close(f(&g["adjusted_p_value"]), *w, "bh over one measure");
    }
}

#[test]
fn randomisation_is_the_librarys_for_the_seed_and_never_zero() {
    let e = expected();
    let doc = trec_json(&["-m", "R@5", "--seed", "9", "--replicates", "2000"]);
    let per = &e["measures"]["R@5"]["per_query"];
    let names = ["trec.run", "cmp_b.run", "cmp_c.run"];
    let columns: Vec<(&str, Vec<f64>)> = names
        .iter()
        .map(|n| (*n, per[*n].as_array().unwrap().iter().map(f).collect()))
        .collect();
    let table = ScoreTable::from_columns(&columns).unwrap();
    let lib = Compare::new()
        .replicates(2000)
        .units_seeded(&table, 9)
        .unwrap();
    let got = comparison(&doc, "R@5");
    for (g, w) in got["pairs"].as_array().unwrap().iter().zip(&lib.pairs) {
        assert_eq!(f(&g["p_value"]), w.p_value);
        assert_eq!(f(&g["adjusted_p_value"]), w.adjusted_p_value);
        assert!(w.p_value > 0.0);
    }
    assert_eq!(
        trec_json(&["-m", "R@5", "--seed", "9", "--replicates", "2000"]),
        doc
    );
    assert_ne!(
        trec_json(&["-m", "R@5", "--seed", "10", "--replicates", "2000"]),
        doc
    );
}

#[test]
fn the_table_marks_significant_differences_in_every_format() {
    // R@5: cmp_b beats trec.run at p = 0.029 uncorrected, not after Holm.
    let out = trec_out(&[
        "--test",
        "t",
        "-m",
        "R@5",
        "-m",
        "AP",
        "--correction",
        "none",
    ]);
    let row = out.lines().find(|l| l.starts_with("b  cmp_b.run")).unwrap();
    assert!(row.contains("0.2059ᵃ"), "{out}");
    says(&out, "letters mark the systems");
    says(&out, "R@5: pairs");
    let holm = ["--test", "t", "-m", "R@5", "-m", "AP"];
    let out = trec_out(&holm);
    assert!(!out.contains('ᵃ'), "{out}");
    for (format, needle) in [
        ("markdown", "|:--|"),
        ("latex", "\\toprule"),
        ("csv", "measure,a,b,difference,lower,upper"),
        ("table", "adjusted p"),
    ] {
        let out = trec_out(&[&holm[..], &["--format", format]].concat());
        assert!(out.contains(needle), "{format}: {out}");
    }
    let csv = trec_out(&[&holm[..], &["--format", "csv"]].concat());
    assert_eq!(csv.lines().count(), 1 + 2 * 3);
}

#[test]
fn a_baseline_compares_every_other_run_with_it() {
    let doc = trec_json(&["--test", "t", "-m", "AP", "--baseline", "cmp_b.run"]);
    let e = &expected()["measures"]["AP"]["pairs"];
    let c = comparison(&doc, "AP");
    let pairs = c["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    // trec.run − cmp_b.run is the reference's first pair; its p-value,
    // Holm-adjusted over two pairs.
    assert_eq!(
        (&pairs[0]["a"], &pairs[0]["b"]),
        (&Value::from(0), &Value::from(1))
    );
    close(
        f(&pairs[0]["difference"]),
        f(&e[0]["difference"]),
        "baseline difference",
    );
    close(f(&pairs[0]["p_value"]), f(&e[0]["p_t"]), "baseline p");
    close(f(&pairs[1]["difference"]), -f(&e[2]["difference"]), "c − b");
    let p = [f(&e[0]["p_t"]), f(&e[2]["p_t"])];
    let holm = adjust(&p, Correction::Holm, 0.05).unwrap();
    close(
        f(&pairs[0]["adjusted_p_value"]),
        holm.p_values[0],
        "baseline holm",
    );
    let err = fails(
        &[
            "compare",
            "trec",
            &qrels(),
            &runs()[0],
            &runs()[1],
            "--baseline",
            "nope.run",
        ],
        2,
    );
    says(&err, "--baseline \"nope.run\": no such system");
}

#[test]
fn a_query_missing_from_a_run_is_an_error_unless_c() {
    let s = Scratch::new("compare-missing");
    let b = std::fs::read_to_string(&runs()[1]).unwrap();
    let lacking: String = b
        .lines()
        .filter(|l| !l.starts_with("q1 "))
        .map(|l| format!("{l}\n"))
        .collect();
    let path = s.file("lacking.run", lacking);
    let q = qrels();
    let a = runs()[0].clone();
    let err = fails(&["compare", "trec", &q, &a, &path, "-m", "AP"], 1);
    assert!(
        err.starts_with(&format!(
            "error: {path}: AP: query \"q1\" is judged and ranked by \"trec.run\" but missing"
        )),
        "{err}"
    );
    says(&err, "-c scores missing queries");
    // -c: every judged query, a missing one scored as an empty ranking
    // (trec_eval -c): the 38 judged queries, trec.run's AP summed over its 34.
    let doc: Value = serde_json::from_str(&ok(&[
        "compare", "trec", "-c", &q, &a, &path, "-m", "AP", "--test", "t", "--format", "json",
    ]))
    .unwrap();
    let c = comparison(&doc, "AP");
    assert_eq!(c["units"], 38);
    let mean34 = f(&expected()["measures"]["AP"]["systems"][0]["mean"]);
    close(
        f(&c["systems"][0]["estimate"]),
        mean34 * 34.0 / 38.0,
        "-c mean",
    );
}

#[test]
fn bad_measures_files_and_command_lines() {
    let q = qrels();
    let [a, b, _] = runs();
    let err = fails(&["compare", "trec", &q, &a, &b, "-m", "nDGC@10"], 2);
    says(
        &err,
        "-m \"nDGC@10\": unknown measure; nearest known: nDCG@10",
    );
    for bad in ["P@0", "nDCG(rel=2)@10", "AP(gains=2)", "Rprec@5", "P"] {
        let err = fails(&["compare", "trec", &q, &a, &b, "-m", bad], 2);
        assert!(err.contains(bad), "{bad}: {err}");
    }
    let (_s, [bad]) = Scratch::with([("bad.run", "q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 high x\n")]);
    let err = fails(&["compare", "trec", &q, &a, &bad], 1);
    assert!(err.starts_with(&format!("error: {bad}:2:")), "{err}");
    // One run only, a wrong test or correction, alpha outside (0, 1),
    // too many resamples: command-line errors.
    for args in [
        &["compare", "trec", q.as_str(), a.as_str()][..],
        &["compare", "trec", &q, &a, &b, "--test", "z"],
        &["compare", "trec", &q, &a, &b, "--correction", "tukey"],
        &["compare", "trec", &q, &a, &b, "--alpha", "1"],
        &[
            "compare",
            "trec",
            &q,
            &a,
            &b,
            "--replicates",
            "1000000000000",
        ],
    ] {
        fails(args, 2);
    }
    let (code, _, err) = run(&["compare", "trec", &q, &a, "missing.run"]);
    assert_eq!(code, 1, "{err}");
    says(&err, "missing.run");
}

#[test]
fn every_source_has_help_with_an_example() {
    for source in ["trec", "wordsim", "lexsub", "table"] {
        let out = ok(&["compare", source, "--help"]);
        assert!(out.contains("Example"), "{source}: {out}");
        assert!(
            out.contains(&format!("acm compare {source}")),
            "{source}: {out}"
        );
    }
}

/// Three benchmarks in the WordSim-353 layout made of the pairs of
/// `ws-sample.tsv` that both sample models cover (so that `acm wordsim`
/// scores each model on the same pairs as the comparison), and the
/// arguments of `acm compare wordsim` on them.
pub(crate) fn wordsim_args(s: &Scratch) -> Vec<String> {
    use adaptive_comp_metrics::embedding::{Format, ReadOptions, read_vectors};
    let d = |f: &str| data(&format!("tests/data/wordsim/{f}"));
    let models: Vec<_> = ["sample-a.vec", "sample-b.bin"]
        .iter()
        .map(|m| {
            let bytes = std::fs::read(d(m)).unwrap();
            read_vectors::<f32, _>(
                bytes.as_slice(),
                Format::detect(&bytes),
                &ReadOptions::new(),
            )
            .unwrap()
        })
        .collect();
    let text = std::fs::read_to_string(d("ws-sample.tsv")).unwrap();
    let covered: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            models.iter().all(|m| m.contains(f[0]) && m.contains(f[1]))
        })
        .collect();
    assert!(covered.len() >= 30, "{}", covered.len());
    let mut args: Vec<String> = ["compare", "wordsim", "--vectors"]
        .map(String::from)
        .to_vec();
    args.extend([d("sample-a.vec"), "--vectors".into(), d("sample-b.bin")]);
    for (i, part) in covered.chunks(covered.len().div_ceil(3)).enumerate() {
        args.push(s.file(&format!("bench{i}.tsv"), part.join("\n") + "\n"));
    }
    args
}

#[test]
fn wordsim_models_differ_by_their_coefficients_corrected_jointly_with_friedman() {
    let s = Scratch::new("compare-wordsim");
    let mut args = wordsim_args(&s);
    args.extend(
        [
            "-k",
            "rho",
            "-k",
            "rho-w",
            "--replicates",
            "500",
            "--format",
            "json",
        ]
        .map(String::from),
    );
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = run(&argv);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("covered"), "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let comparisons = doc["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 3 * 2);
    // Each model's coefficient is `acm wordsim`'s and the difference is theirs.
    let mut ws = vec!["wordsim".to_owned()];
    ws.extend(wordsim_args(&s)[2..].iter().cloned());
    ws.extend(["--format".into(), "json".into()]);
    let ws_argv: Vec<&str> = ws.iter().map(String::as_str).collect();
    let reports: Value = serde_json::from_str(&ok(&ws_argv)).unwrap();
    let reports = reports["reports"].as_array().unwrap();
    let mut raw = Vec::new();
    for c in comparisons {
        let m = c["measure"].as_str().unwrap();
        let (bench, coefficient) = m.rsplit_once(' ').unwrap();
        let cmp = &c["comparison"];
        for (s, model) in cmp["systems"]
            .as_array()
            .unwrap()
            .iter()
            .zip(["sample-a.vec", "sample-b.bin"])
        {
            let r = reports
                .iter()
                .find(|r| r["model"] == model && r["benchmark"] == bench)
                .unwrap();
            let want = match coefficient {
                "ρ" => f(&r["spearman"]["rho"]),
                "ρ_w" => f(&r["rho_w"]["rho_w"]),
                other => panic!("{other}"),
            };
            close(f(&s["estimate"]), want, m);
        }
        let p = &cmp["pairs"][0];
        assert_eq!(
            f(&p["difference"]),
            f(&cmp["systems"][0]["estimate"]) - f(&cmp["systems"][1]["estimate"])
        );
        assert!(f(&p["p_value"]) > 0.0);
        raw.push((f(&p["p_value"]), f(&p["adjusted_p_value"])));
    }
    // Corrected over every comparison made (Holm over six p-values).
    let ps: Vec<f64> = raw.iter().map(|r| r.0).collect();
    let holm = adjust(&ps, Correction::Holm, 0.05).unwrap();
    for (r, h) in raw.iter().zip(&holm.p_values) {
        assert_eq!(r.1, *h);
    }
    // Friedman over the three benchmarks, per coefficient: the library's
    // on the estimates.
    for (i, coefficient) in ["ρ", "ρ_w"].iter().enumerate() {
        let fr = &doc["friedman"][i];
        assert_eq!(fr["measure"], *coefficient);
        let columns: Vec<(&str, Vec<f64>)> = (0..2)
            .map(|s| {
                (
                    ["sample-a.vec", "sample-b.bin"][s],
                    comparisons
                        .iter()
                        .filter(|c| {
                            c["measure"]
                                .as_str()
                                .unwrap()
                                .ends_with(&format!(" {coefficient}"))
                        })
                        .map(|c| f(&c["comparison"]["systems"][s]["estimate"]))
                        .collect(),
                )
            })
            .collect();
        let table = ScoreTable::from_columns(&columns).unwrap();
        let lib = friedman(&table, Order::LargerIsBetter, 0.05).unwrap();
        assert_eq!(f(&fr["test"]["statistic"]), lib.statistic);
        assert_eq!(
            f(&fr["test"]["critical_difference"]),
            lib.critical_difference
        );
    }
    let mut text = wordsim_args(&s);
    text.extend(["--replicates", "200"].map(String::from));
    let argv: Vec<&str> = text.iter().map(String::as_str).collect();
    let out = ok(&argv);
    says(&out, "Friedman's test and the critical difference");
    let mut one = wordsim_args(&s);
    one.drain(4..6);
    let argv: Vec<&str> = one.iter().map(String::as_str).collect();
    let err = fails(&argv, 2);
    says(&err, "two or more --vectors");
}

#[test]
fn lexsub_systems_are_compared_item_by_item_with_their_recall_as_mean() {
    let d = |f: &str| data(&format!("tests/data/lexsub/{f}"));
    let (gold, a, b) = (d("gold.txt"), d("system.best"), d("wellformed.best"));
    let doc: Value = serde_json::from_str(&ok(&[
        "compare", "lexsub", &gold, &a, &b, "--test", "t", "--format", "json",
    ]))
    .unwrap();
    for (i, system) in [&a, &b].iter().enumerate() {
        let scores: Value =
            serde_json::from_str(&ok(&["lexsub", &gold, system, "--format", "json"])).unwrap();
        for (measure, heading) in [("best", "best"), ("mode best", "mode best")] {
            let r = scores
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["measure"] == measure)
                .unwrap();
            let c = comparison(&doc, heading);
            assert_eq!(c["units"], r["items"], "{heading}");
            close(f(&c["systems"][i]["estimate"]), f(&r["recall"]), heading);
        }
    }
    let err = fails(&["compare", "lexsub", &gold, &a], 2);
    assert!(
        err.contains("<SYSTEMS> <SYSTEMS>") || err.contains("required"),
        "{err}"
    );
}

#[test]
fn a_table_of_scores_gets_friedman_and_every_pair() {
    let (s, [csv]) = Scratch::with([(
        "board.csv",
        "task,m1,m2,m3\nt1,0.9,0.8,0.7\nt2,0.85,0.8,0.6\nt3,0.7,0.75,0.5\nt4,0.95,0.9,0.8\nt5,0.6,0.5,0.4\n",
    )]);
    let doc: Value = serde_json::from_str(&ok(&[
        "compare", "table", &csv, "--unit", "task", "--test", "t", "--format", "json",
    ]))
    .unwrap();
    let table = ScoreTable::from_columns(&[
        ("m1", [0.9, 0.85, 0.7, 0.95, 0.6]),
        ("m2", [0.8, 0.8, 0.75, 0.9, 0.5]),
        ("m3", [0.7, 0.6, 0.5, 0.8, 0.4]),
    ])
    .unwrap();
    let lib = friedman(&table, Order::LargerIsBetter, 0.05).unwrap();
    let fr = &doc["friedman"][0]["test"];
    assert_eq!(f(&fr["statistic"]), lib.statistic);
    // Ranks (1 best): m1 1,1,2,1,1; m2 2,2,1,2,2; m3 3 everywhere.
    assert_eq!(fr["average_ranks"], serde_json::json!([1.2, 1.8, 3.0]));
    let c = comparison(&doc, "board.csv");
    let want = Compare::new()
        .test(adaptive_comp_metrics::uncertainty::compare::Test::PairedT)
        .units_seeded(&table, 1)
        .unwrap();
    for (g, w) in c["pairs"].as_array().unwrap().iter().zip(&want.pairs) {
        assert_eq!(f(&g["p_value"]), w.p_value);
    }
    let err = fails(&["compare", "table", &csv, "--unit", "name"], 2);
    says(&err, "--unit \"name\": no such column");
    let bad = s.file("bad.csv", "task,m1,m2\nt1,0.9,x\n");
    let err = fails(&["compare", "table", &bad, "--unit", "task"], 1);
    assert!(err.starts_with(&format!("error: {bad}:2:")), "{err}");
}
