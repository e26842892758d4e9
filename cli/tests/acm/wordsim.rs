//! `acm wordsim` (was the `wordsim` example): the models × benchmarks
//! table, its numbers against the library's, and the command-line defects
//! of the example (issue 22: `--help` was an error, `--bootstrap 0` exited 0).

use crate::common::{Scratch, data, fails, ok, says};

/// `acm wordsim` on the two sample models and the first `benchmarks` of
/// the four sample benchmarks.
pub fn sample_of(benchmarks: usize) -> Vec<String> {
    let d = |f: &str| data(&format!("tests/data/wordsim/{f}"));
    let mut args = vec![
        "wordsim".into(),
        "--vectors".into(),
        d("sample-a.vec"),
        "--vectors".into(),
        d("sample-b.bin"),
    ];
    let all = [
        "ws-sample.tsv",
        "simlex-sample.txt",
        "men-sample.txt",
        "mturk-sample.csv",
    ];
    args.extend(all[..benchmarks].iter().map(|f| d(f)));
    args
}

/// `acm wordsim` on the two sample models and the four sample benchmarks.
fn sample() -> Vec<String> {
    sample_of(4)
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
    says(&out, "unknown pairs: dropped");
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
    says(&out, "95 % BCa bootstrap intervals (50 resamples, seed 3)");
    says(&out, "paired tests of Spearman ρ against sample-a.vec");
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
    let (dir, [vec, pairs]) = Scratch::with([
        ("bad.vec", "2 2\na 1 2\nb 1 zz\n"),
        ("p.tsv", "a\tb\t1\nb\ta\t2\na\ta\t3\n"),
    ]);
    let err = fails(&["wordsim", "--vectors", &vec, &pairs], 1);
    assert!(err.starts_with(&format!("error: {vec}:3")), "{err}");
    let bad = dir.file("bad.tsv", "a\tb\t1\nb\ta\t2\na\ta\tx\n");
    let good = data("tests/data/wordsim/sample-a.vec");
    let err = fails(&["wordsim", "--vectors", &good, &bad], 1);
    assert!(err.starts_with(&format!("error: {bad}:3")), "{err}");
}

#[test]
fn self_pairs_tie_at_cosine_one() {
    // The minimal case: exact ρ = √0.8 = 0.8944 (was 0.8208, some
    // f32 self-cosines coming out 0.99999997).
    let (_dir, [vec, pairs]) = Scratch::with([
        (
            "mini.vec",
            "3 8\na .1 .2 .3 .4 .5 .6 .7 .8\nb .3 .1 .4 .1 .5 .9 .2 .6\nc .7 .1 .8 .2 .8 .1 .8 .3\n",
        ),
        ("mini.tsv", "a\ta\t10\nb\tb\t9\nc\tc\t8\na\tb\t3\nb\tc\t2\n"),
    ]);
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "wordsim",
        "--vectors",
        &vec,
        &pairs,
        "--format",
        "json",
    ]))
    .unwrap();
    let rho = json["reports"][0]["spearman"]["rho"].as_f64().unwrap();
    assert!((rho - 0.8f64.sqrt()).abs() < 1e-15, "{rho}");
    let table = ok(&["wordsim", "--vectors", &vec, &pairs]);
    assert!(table.contains("+0.8944 ("), "{table}");
}

#[test]
fn layouts_are_detected_from_the_content() {
    let (dir, [vec]) = Scratch::with([(
        "v.vec",
        "4 2\nkettle 1 0.1\nteapot 0.9 0.3\nlantern 0.1 1\ntorch 0.3 0.8\n",
    )]);
    // gensim's simlex999.txt layout: '#' lines and three columns (the CLI
    // took the SimLex-999 layout from the name: "expected at least 4 fields").
    let gensim = dir.file(
        "simlex999.txt",
        "# The SimLex-999 Test data (a made-up copy)\n# Word 1\tWord 2\tHuman (mean)\n\
         kettle\tteapot\t8.5\nlantern\ttorch\t7.0\nkettle\ttorch\t1.5\n",
    );
    // SimLex-999.txt as distributed: the score in column 4 of 10.
    let original = dir.file(
        "SimLex-999.txt",
        "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n\
         kettle\tteapot\tN\t8.5\t4.9\t4.8\t4\t1.2\t1\t0.9\n\
         lantern\ttorch\tN\t7.0\t4.7\t4.6\t4\t0.8\t1\t1.1\n\
         kettle\ttorch\tN\t1.5\t4.9\t4.6\t4\t0.0\t0\t1.3\n",
    );
    let csv = |f: &str, extra: &[&str]| {
        let mut a = vec!["wordsim", "--vectors", &vec, f, "--format", "csv"];
        a.extend(extra);
        ok(&a).lines().nth(1).unwrap().to_owned()
    };
    let from_gensim = csv(&gensim, &[]);
    assert!(
        from_gensim.starts_with("v.vec,simlex999.txt,3,3,"),
        "{from_gensim}"
    );
    // Same pairs and scores: the same numbers after the file name.
    let tail = |row: &str| row.split_once(".txt,").unwrap().1.to_owned();
    assert_eq!(tail(&csv(&original, &[])), tail(&from_gensim));
    // An explicit layout wins; SimLex-999's reads both copies.
    assert_eq!(
        tail(&csv(&gensim, &["--layout", "simlex999"])),
        tail(&from_gensim)
    );
    assert_eq!(
        tail(&csv(&original, &["--layout", "simlex999"])),
        tail(&from_gensim)
    );
    // A wrong explicit layout: what was tried, how it was chosen, what else there is.
    let err = fails(
        &["wordsim", "--vectors", &vec, &original, "--layout", "men"],
        1,
    );
    assert_eq!(
        err,
        format!(
            "error: {original}:2: field 3 is not a number (read as men layout, given explicitly: \
             words in columns 1 and 2, score in column 3, separator detected, header detected, '#' \
             lines are comments, part-of-speech suffixes stripped; choose another with --layout, or \
             leave it out to detect it: wordsim353, simlex999, men, rg65, mc30, mturk, rw, \
             simverb3500, plain)"
        )
    );
    // A file no layout fits.
    let bad = dir.file("bad.tsv", "kettle\tteapot\t8.5\nlantern\ttorch\n");
    let err = fails(&["wordsim", "--vectors", &vec, &bad], 1);
    assert_eq!(
        err,
        format!(
            "error: {bad}:2: 2 fields with every separator (tab, comma, semicolon, whitespace), 3 \
             needed, so the layout cannot be detected; choose one with --layout: wordsim353, \
             simlex999, men, rg65, mc30, mturk, rw, simverb3500, plain"
        )
    );
    // The detected layout is named when a later line breaks it.
    let mut long = String::new();
    while long.len() <= 70_000 {
        long.push_str("kettle\tteapot\t8.5\n");
    }
    let at = long.lines().count() + 1;
    long.push_str("lantern\ttorch\n");
    let long = dir.file("long.tsv", long);
    let err = fails(&["wordsim", "--vectors", &vec, &long], 1);
    assert!(
        err.starts_with(&format!(
            "error: {long}:{at}: expected at least 3 fields, found 2 (read as plain layout, \
             detected from the content: words in columns 1 and 2, score in column 3, separator \
             tab, no header, '#' lines are comments; choose another with --layout: wordsim353,"
        )),
        "{err}"
    );
}

#[test]
fn fold_case_help_says_how_it_differs_from_gensim() {
    let help = ok(&["wordsim", "--help"]);
    for needle in [
        "upper-cases",
        "ß",
        "dotless ı",
        "final ς",
        "--fold-case lowercases",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}
