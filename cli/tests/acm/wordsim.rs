//! `acm wordsim` (was the `wordsim` example): the models × benchmarks
//! table, its numbers against the library's, and the command-line defects
//! of the example (issue 22: `--help` was an error, `--bootstrap 0` exited 0).

use crate::common::{Scratch, data, fails, ok};

fn sample() -> Vec<String> {
    let d = |f: &str| data(&format!("tests/data/wordsim/{f}"));
    vec![
        "wordsim".into(),
        "--vectors".into(),
        d("sample-a.vec"),
        "--vectors".into(),
        d("sample-b.bin"),
        d("ws-sample.tsv"),
        d("simlex-sample.txt"),
        d("men-sample.txt"),
        d("mturk-sample.csv"),
    ]
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn the_table_has_every_model_and_benchmark_with_the_librarys_numbers() {
    let out = ok(&args(&sample()));
    assert_eq!(
        out.lines().filter(|l| l.starts_with("sample-")).count(),
        8,
        "{out}"
    );
    assert!(out.contains("unknown pairs: dropped"), "{out}");
    let mut j = sample();
    j.extend(["--format".into(), "json".into()]);
    let json: serde_json::Value = serde_json::from_str(&ok(&args(&j))).unwrap();
    let first = &json["reports"][0];
    assert_eq!(first["model"], "sample-a.vec");
    assert_eq!(first["benchmark"], "ws-sample.tsv");
    // The library on the same files.
    use adaptive_comp_metrics::embedding::{Format, ReadOptions, read_vectors};
    use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, PairFormat};
    let bench = Benchmark::read(
        "ws-sample.tsv",
        std::fs::File::open(data("tests/data/wordsim/ws-sample.tsv"))
            .map(std::io::BufReader::new)
            .unwrap(),
        &PairFormat::new(),
    )
    .unwrap();
    let bytes = std::fs::read(data("tests/data/wordsim/sample-a.vec")).unwrap();
    let v = read_vectors::<f32, _>(
        bytes.as_slice(),
        Format::detect(&bytes),
        &ReadOptions::new(),
    )
    .unwrap();
    let r = Evaluator::new().evaluate(&v, &bench).unwrap();
    assert_eq!(
        first["spearman"]["rho"].as_f64().unwrap(),
        r.spearman.as_ref().unwrap().rho
    );
    assert_eq!(
        first["rho_w"]["rho_w"].as_f64().unwrap(),
        r.rho_w.as_ref().unwrap().rho
    );
    let mut c = sample();
    c.extend(["--format".into(), "csv".into()]);
    let csv = ok(&args(&c));
    assert!(
        csv.starts_with("model,benchmark,pairs,found,oov_ratio,pearson"),
        "{csv}"
    );
}

#[test]
fn bootstrap_intervals_and_paired_tests() {
    let mut a = sample();
    a.truncate(6);
    a.extend([
        "--bootstrap".into(),
        "50".into(),
        "--seed".into(),
        "3".into(),
    ]);
    let out = ok(&args(&a));
    assert!(
        out.contains("95 % BCa bootstrap intervals (50 resamples, seed 3)"),
        "{out}"
    );
    assert!(
        out.contains("paired tests of Spearman ρ against sample-a.vec"),
        "{out}"
    );
    assert_eq!(ok(&args(&a)), out);
}

#[test]
fn the_examples_command_line_defects_are_gone() {
    // `wordsim --help` printed `error: help` and exited 2.
    assert!(ok(&["wordsim", "--help"]).contains("Example"));
    // `--bootstrap 0` and `--bootstrap 1000000000000` exited 0 with errors in the cells.
    let mut a = sample();
    a.extend(["--bootstrap".into(), "0".into()]);
    assert!(fails(&args(&a), 2).contains("--bootstrap <N>"));
    let mut a = sample();
    a.extend(["--bootstrap".into(), "1000000000000".into()]);
    assert!(fails(&args(&a), 2).contains("--bootstrap <N>"));
    let mut a = sample();
    a.extend(["--layout".into(), "nope".into()]);
    assert!(fails(&args(&a), 2).contains("unknown layout \"nope\""));
    fails(&["wordsim", "--vectors", "a.vec"], 2);
    fails(&["wordsim", "pairs.tsv"], 2);
}

#[test]
fn bad_files_name_their_line() {
    let dir = Scratch::new("wordsim");
    let vec = dir.file("bad.vec", "2 2\na 1 2\nb 1 zz\n");
    let pairs = dir.file("p.tsv", "a\tb\t1\nb\ta\t2\na\ta\t3\n");
    let err = fails(&["wordsim", "--vectors", &vec, &pairs], 1);
    assert!(err.starts_with(&format!("error: {vec}:3")), "{err}");
    let bad = dir.file("bad.tsv", "a\tb\t1\nb\ta\t2\na\ta\tx\n");
    let good = data("tests/data/wordsim/sample-a.vec");
    let err = fails(&["wordsim", "--vectors", &good, &bad], 1);
    assert!(err.starts_with(&format!("error: {bad}:3")), "{err}");
}
