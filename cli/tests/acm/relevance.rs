//! `acm relevance` (was the `relevance` example's CSV mode): graded
//! judgements by several annotators against a model's scores.

use crate::common::{FILE, Scratch, data, fails, ok, refuses, says};

#[test]
fn scores_the_sample_with_classes_and_overlaps() {
    let j = data("tests/data/relevance/judgements.csv");
    let m = data("tests/data/relevance/model.csv");
    let out = ok(&["relevance", &j, &m, "3"]);
    says(&out, "rank-biased overlap (p = 0.9)");
    says(&out, "\nmap                   \tall\t");
    says(&out, "\nP_3                   \tall\t");
    let csv = ok(&["relevance", &j, &m, "-q", "-m", "map", "--format", "csv"]);
    assert!(csv.starts_with("query,map\n"), "{csv}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["relevance", &j, &m, "--format", "json"])).unwrap();
    assert!(json["all"]["map"].as_f64().is_some(), "{json}");
}

#[test]
fn refuses_empty_judgements_and_bad_grades() {
    let dir = Scratch::new("relevance");
    let model = data("tests/data/relevance/model.csv");
    refuses(
        &dir,
        &["relevance", FILE, &model],
        &[
            (
                "judgements.csv",
                b"\xEF\xBB\xBFquery,document,annotator,grade\n",
                ": no judgements: the file has no record",
            ),
            (
                "bad.csv",
                b"query,document,annotator,grade\nq,d,a,x\n",
                ":2: field \"grade\" is not an integer grade: \"x\"",
            ),
            // The library's CSV reader: a quote left open at the end of the file.
            (
                "open.csv",
                b"query,document,annotator,grade\nq,d,a,1\nq,e,\"AWORK,1\n",
                ":3: malformed quoted field in column 3",
            ),
        ],
    );
    let bad = dir.p("bad.csv");
    fails(&["relevance", &bad, &model, "--bogus"], 2);
    fails(&["relevance", &bad, &model, "0"], 2);
    let err = fails(&["relevance", &bad, &model, "-m", "bpref"], 2);
    says(&err, "unknown measure \"bpref\"");
}

#[test]
fn stops_quietly_on_a_closed_pipe() {
    let j = data("tests/data/relevance/judgements.csv");
    let m = data("tests/data/relevance/model.csv");
    for format in ["table", "json", "csv"] {
        let cli = <acm_cli::Cli as clap::Parser>::try_parse_from([
            "acm",
            "relevance",
            &j,
            &m,
            "--format",
            format,
        ])
        .unwrap();
        let f = acm_cli::run(cli, &mut acm_cli::Out::closed()).unwrap_err();
        assert_eq!((f.kind, f.status()), (acm_cli::Kind::Quiet, 0), "{format}");
    }
}
