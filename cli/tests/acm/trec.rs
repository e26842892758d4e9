//! `acm trec`: trec_eval's command line and output, checked byte for byte
//! against trec_eval's own output (10.0 and 9.0.8, written by
//! `tests/data/relevance/trec_eval_golden.py`) and against the values
//! pytrec_eval (trec_eval's C code) gave on the committed files.

use crate::common::{Scratch, acm, data, fails, ok, says};

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
        let asked = [
            "num_ret",
            "num_rel",
            "num_rel_ret",
            "map",
            "Rprec",
            "recip_rank",
            "P_5",
            "P_10",
            "ndcg",
            "ndcg_cut_5",
            "ndcg_cut_10",
        ];
        for (lv, measure, qid, value) in all
            .iter()
            .filter(|e| e.0 == level && asked.contains(&e.1.as_str()))
        {
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
    // The default is trec_eval's official set.
    let (code, out, err) = crate::common::run(&["trec", &qrels, &run]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("runid                 \tall\tgen\n"),
        "{out}"
    );
    says(&out, "P_1000                \tall\t");
    says(&out, "iprec_at_recall_0.50  \tall\t");
    assert_eq!(out.lines().count(), 30, "{out}");
    says(&err, "note: 3 queries of the run are not judged");
    // all_trec: the part computed here, with a note naming the rest.
    let (_, _, err) = crate::common::run(&["trec", "-m", "all_trec", &qrels, &run]);
    says(
        &err,
        "all_trec set also has unj, rbp, rbp_resid: not computed here",
    );
    says(&err, "relstring");
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
    let err = fails(&["trec", "-m", "rbp", "q", "r"], 2);
    says(&err, "unknown measure \"rbp\"");
    says(&err, "map, gm_map, Rprec, bpref");
    let err = fails(&["trec", "-m", "P.5,5", "q", "r"], 2);
    says(&err, "repeat one");
    let err = fails(&["trec", "-m", "iprec_at_recall.0.125", "q", "r"], 2);
    says(&err, "at most two decimals");
    let err = fails(&["trec", "--ties", "expected", "-m", "gm_map", "q", "r"], 2);
    says(&err, "gm_map has no tie-aware expectation");
    fails(&["trec", "--trec-eval-version", "8", "q", "r"], 2);
    fails(&["trec", "-l", "x", "q", "r"], 2);
    fails(&["trec", "-M", "0", "q", "r"], 2);
    fails(&["trec", "q"], 2);
}

#[test]
fn bad_files_name_their_line() {
    let (dir, [qrels, run]) =
        Scratch::with([("q", "q1 0 d1 1\nq1 0 d2\n"), ("r", "q1 Q0 d1 1 0.5 x\n")]);
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
    says(&err, "no queries with both results and relevance");
}

#[test]
fn max_docs_keeps_the_top_of_each_ranking() {
    let (_dir, [qrels, run]) = Scratch::with([
        ("q", "q1 0 d1 1\nq1 0 d2 1\n"),
        (
            "r",
            "q1 Q0 d1 1 0.1 x\nq1 Q0 d3 2 0.9 x\nq1 Q0 d2 3 0.5 x\n",
        ),
    ]);
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

/// `tests/data/relevance/trec_eval_golden/cases.tsv`: name, qrels, run,
/// arguments, trec_eval 10.0's output file, 9.0.8's.
fn golden_cases() -> Vec<[String; 6]> {
    let dir = data("tests/data/relevance/trec_eval_golden");
    std::fs::read_to_string(format!("{dir}/cases.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<String> = l.split('\t').map(|x| format!("{dir}/{x}")).collect();
            let name = l.split('\t').next().unwrap().to_owned();
            let args = l.split('\t').nth(3).unwrap().to_owned();
            [
                name,
                f[1].clone(),
                f[2].clone(),
                args,
                f[4].clone(),
                f[5].clone(),
            ]
        })
        .collect()
}

#[test]
fn output_equals_trec_evals_byte_for_byte() {
    // Issue 22: on generated qrels and runs with ties, float-equal scores,
    // unjudged documents, negative grades, queries only in the run or only
    // in the qrels, -q, -c, -n, -M 5, -l 0 and 2, no -m (official) and -m
    // every measure, acm trec prints what trec_eval 10.0 prints, and with
    // --trec-eval-version 9 what 9.0.8 prints; issue 39: the set measures
    // (-m set) and num_nonrel_judged_ret too.
    let cases = golden_cases();
    assert_eq!(cases.len(), 17);
    let mut differ = 0;
    for [name, qrels, run, args, out10, out9] in &cases {
        for (version, want) in [("10", out10), ("9", out9)] {
            let mut argv = vec!["trec", "--quiet", "--trec-eval-version", version];
            argv.extend(args.split_whitespace());
            argv.extend([qrels.as_str(), run.as_str()]);
            let o = crate::common::acm().args(&argv).output().unwrap();
            assert_eq!(o.status.code(), Some(0), "{name} {version}: {o:?}");
            let want = std::fs::read(want).unwrap();
            assert!(
                o.stdout == want,
                "{name} (trec_eval {version}): acm trec {args} printed\n{}\ntrec_eval printed\n{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&want)
            );
        }
        differ += usize::from(out10 != out9);
    }
    // The data make the releases differ (scores equal as C floats).
    assert!(differ >= 10, "{differ}");
}

#[test]
fn scores_compare_as_doubles_or_as_c_floats() {
    // Issue 24 item 4: x scores 0.30000000000000004, y (relevant) 0.3.
    let (_dir, [qrels, run]) = Scratch::with([
        ("q", "a 0 x 0\na 0 y 1\n"),
        ("r", "a Q0 x 1 0.30000000000000004 r\na Q0 y 2 0.3 r\n"),
    ]);
    let map = |extra: &[&str]| {
        let mut argv = vec!["trec", "-m", "map"];
        argv.extend(extra);
        argv.extend([qrels.as_str(), run.as_str()]);
        ok(&argv)
    };
    assert_eq!(map(&[]), format!("{:<22}\tall\t0.5000\n", "map"));
    assert_eq!(
        map(&["--trec-eval-version", "10"]),
        format!("{:<22}\tall\t0.5000\n", "map")
    );
    assert_eq!(
        map(&["--trec-eval-version", "9"]),
        format!("{:<22}\tall\t1.0000\n", "map")
    );
}

#[test]
fn files_are_read_as_trec_eval_reads_them() {
    let (dir, [run]) = Scratch::with([(
        "r",
        "q1 Q0 d1 1 0.5 x\n\nq1 Q0 d2 2 0.4 x extra\n  # note\n",
    )]);
    // A blank line in qrels: trec_eval says "Malformed line"; so does acm
    // trec, with its line and column. --syntax lenient skips it.
    let qrels = dir.file("q", "q1 0 d1 1\n\nq1 0 d2 0\n");
    let err = fails(&["trec", "-m", "map", &qrels, &run], 1);
    assert_eq!(
        err,
        format!(
            "error: {qrels}:2:1: blank line (qid iter docno rel expected; trec_eval refuses \
             blank lines in qrels)"
        )
    );
    let out = ok(&[
        "trec",
        "--syntax",
        "lenient",
        "-m",
        "map",
        &qrels,
        &dir.file("r2", "q1 Q0 d1 1 0.5 x\n"),
    ]);
    assert_eq!(out, format!("{:<22}\tall\t1.0000\n", "map"));
    // The run's blank line, seventh field and indented comment are read as
    // trec_eval reads them (skipped, ignored, skipped); lenient refuses the
    // seventh field.
    let good = dir.file("g", "q1 0 d1 1\r\nq1\t0\td2\t0  \n");
    let out = ok(&["trec", "-m", "num_ret", "-m", "runid", &good, &run]);
    assert_eq!(
        out,
        format!("{:<22}\tall\tx\n{:<22}\tall\t2\n", "runid", "num_ret")
    );
    let err = fails(&["trec", "--syntax", "lenient", &good, &run], 1);
    assert!(
        err.starts_with(&format!("error: {run}:3: expected 6 fields")),
        "{err}"
    );
}

/// `acm trec` with `ACM_THREADS=threads`: (status, stdout, stderr).
fn trec_on(threads: &str, args: &[&str]) -> (i32, String, String) {
    let o = acm()
        .env("ACM_THREADS", threads)
        .arg("trec")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn large_files_give_the_same_output_and_errors_on_one_and_two_threads() {
    // 2000 queries × 100 judgements and 100 ranked documents (about 8 MB:
    // many blocks of lines, and queries scored in parts on two threads).
    let dir = Scratch::new("trec_threads");
    let (mut qrels, mut run) = (String::new(), String::new());
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for q in 0..2000 {
        for d in 0..150_u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if d >= 50 {
                qrels.push_str(&format!("Q{q:05} 0 DOC{:07} {}\n", d * 13 + q, state % 4));
            }
            if d < 100 {
                let score = (state >> 20) % 10_000;
                run.push_str(&format!(
                    "Q{q:05} Q0 DOC{:07} {d} {score}.5 r\n",
                    d * 13 + q
                ));
            }
        }
    }
    let (q, r) = (dir.file("q", &qrels), dir.file("r", &run));
    for args in [
        vec!["-q", "-m", "all_trec"],
        vec!["-q", "-c", "--trec-eval-version", "9"],
        vec!["-q", "--ties", "expected", "-m", "ndcg_cut.10", "-m", "map"],
    ] {
        let all: Vec<&str> = args
            .iter()
            .copied()
            .chain([q.as_str(), r.as_str()])
            .collect();
        let one = trec_on("1", &all);
        assert_eq!(one.0, 0, "{}", one.2);
        assert!(one.1.lines().count() > 2000, "{args:?}");
        assert_eq!(one, trec_on("2", &all), "{args:?}");
    }
    // A bad line deep in either file, or in both: the same error on one and
    // two threads, the qrels' first when both are bad.
    let bad = |text: &str, line: usize, with: &str| -> String {
        let mut lines: Vec<&str> = text.lines().collect();
        lines[line - 1] = with;
        lines.join("\n") + "\n"
    };
    let bq = dir.file("bq", bad(&qrels, 123_456, "Q00001 0 DOC1 x"));
    let br = dir.file("br", bad(&run, 150_001, "Q00001 Q0 DOC1 1 0.5"));
    for (files, want) in [
        ([&bq, &r], format!("error: {bq}:123456:")),
        ([&q, &br], format!("error: {br}:150001:")),
        ([&bq, &br], format!("error: {bq}:123456:")),
    ] {
        let one = trec_on("1", &[files[0].as_str(), files[1].as_str()]);
        assert_eq!(one.0, 1);
        assert!(one.2.starts_with(&want), "{}", one.2);
        assert_eq!(one, trec_on("2", &[files[0].as_str(), files[1].as_str()]));
    }
}
