//! `acm trec`: trec_eval's command line and output, checked against the
//! values pytrec_eval (trec_eval's C code) gave on the committed files.

use crate::common::{Scratch, data, fails, ok};

/// (level, measure, qid) → value, from `tests/data/relevance/trec_expected.tsv`.
fn expected() -> Vec<(i32, String, String, f64)> {
    std::fs::read_to_string(data("tests/data/relevance/trec_expected.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].parse().unwrap(),
                f[1].to_owned(),
                f[2].to_owned(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn per_query_and_summary_lines_match_trec_eval() {
    let (qrels, run) = (
        data("tests/data/relevance/trec.qrels"),
        data("tests/data/relevance/trec.run"),
    );
    let all = expected();
    for level in [1, 2] {
        let l = level.to_string();
        let out = ok(&[
            "trec",
            "-q",
            "-l",
            &l,
            "-m",
            "num_ret",
            "-m",
            "num_rel",
            "-m",
            "num_rel_ret",
            "-m",
            "map",
            "-m",
            "Rprec",
            "-m",
            "recip_rank",
            "-m",
            "P.5,10",
            "-m",
            "ndcg",
            "-m",
            "ndcg_cut.5,10",
            &qrels,
            &run,
        ]);
        let mut want = 0;
        for (lv, measure, qid, value) in all.iter().filter(|e| e.0 == level) {
            let _ = lv;
            let shown = if measure.starts_with("num_") {
                format!("{value:.0}")
            } else {
                format!("{value:6.4}")
            };
            let line = format!("{measure:<22}\t{qid}\t{shown}");
            assert!(
                out.lines().any(|l| l == line),
                "level {level}: no line {line:?} in\n{out}"
            );
            want += 1;
        }
        // Nothing else but those lines (one per query and measure, and all).
        assert_eq!(out.lines().count(), want, "{out}");
    }
}

#[test]
fn output_follows_trec_evals_order_and_format() {
    let (qrels, run) = (
        data("tests/data/relevance/trec.qrels"),
        data("tests/data/relevance/trec.run"),
    );
    // Measures in trec_eval's order (num_q, map, P), whatever the command line.
    let out = ok(&[
        "trec", "-m", "P.10,5", "-m", "map", "-m", "num_q", &qrels, &run,
    ]);
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split('\t').next().unwrap().trim_end())
        .collect();
    assert_eq!(names, ["num_q", "map", "P_5", "P_10"]);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{:<22}\tall\t", "num_q")),
        "{first}"
    );
    let num_q: usize = first.rsplit('\t').next().unwrap().parse().unwrap();
    // The default is trec_eval's official set, as far as computed here.
    let (code, out, err) = crate::common::run(&["trec", &qrels, &run]);
    assert_eq!(code, 0);
    assert!(out.starts_with("runid                 \tall\t"), "{out}");
    assert!(
        err.contains("note: trec_eval's set also has gm_map, bpref"),
        "{err}"
    );
    assert!(out.contains("P_1000                \tall\t"), "{out}");
    // -n: no summary; with -q only the queries.
    let out = ok(&["trec", "-q", "-n", "-m", "map", &qrels, &run]);
    assert!(out.lines().all(|l| !l.contains("\tall\t")), "{out}");
    assert_eq!(out.lines().count(), num_q);
    // -c counts the judged queries the run lacks too.
    let c = ok(&["trec", "-c", "-m", "num_q", &qrels, &run]);
    let with_c: usize = c.trim_end().rsplit('\t').next().unwrap().parse().unwrap();
    assert!(with_c > num_q, "{c}");
    // --quiet drops the notes.
    let (_, _, err) = crate::common::run(&["trec", "--quiet", &qrels, &run]);
    assert_eq!(err, "");
}

#[test]
fn unknown_measures_and_bad_options_are_command_line_errors() {
    let err = fails(&["trec", "-m", "bpref", "q", "r"], 2);
    assert!(err.contains("unknown measure \"bpref\""), "{err}");
    assert!(err.contains("map, Rprec, recip_rank"), "{err}");
    fails(&["trec", "-l", "x", "q", "r"], 2);
    fails(&["trec", "-M", "0", "q", "r"], 2);
    fails(&["trec", "q"], 2);
}

#[test]
fn bad_files_name_their_line() {
    let dir = Scratch::new("trec_bad");
    let qrels = dir.file("q", "q1 0 d1 1\nq1 0 d2\n");
    let run = dir.file("r", "q1 Q0 d1 1 0.5 x\n");
    let err = fails(&["trec", &qrels, &run], 1);
    assert!(err.starts_with(&format!("error: {qrels}:2: ")), "{err}");
    let empty = dir.file("e", "");
    assert_eq!(
        fails(&["trec", &empty, &run], 1),
        format!("error: {empty}: no judgements: the file has no record")
    );
    let good = dir.file("g", "q1 0 d1 1\n");
    let other = dir.file("o", "q9 Q0 d1 1 0.5 x\n");
    let err = fails(&["trec", &good, &other], 1);
    assert!(
        err.contains("no queries with both results and relevance"),
        "{err}"
    );
}

#[test]
fn max_docs_keeps_the_top_of_each_ranking() {
    let dir = Scratch::new("trec_m");
    let qrels = dir.file("q", "q1 0 d1 1\nq1 0 d2 1\n");
    let run = dir.file(
        "r",
        "q1 Q0 d1 1 0.1 x\nq1 Q0 d3 2 0.9 x\nq1 Q0 d2 3 0.5 x\n",
    );
    let out = ok(&[
        "trec",
        "-M",
        "2",
        "-m",
        "num_ret",
        "-m",
        "num_rel_ret",
        &qrels,
        &run,
    ]);
    assert_eq!(
        out,
        format!("{:<22}\tall\t2\n{:<22}\tall\t1\n", "num_ret", "num_rel_ret")
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "trec", "-m", "map", &qrels, &run, "--format", "json",
    ]))
    .unwrap();
    assert_eq!(json["num_q"], 1);
    assert!(json["all"]["map"].as_f64().unwrap() > 0.0);
}
