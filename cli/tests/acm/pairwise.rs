//! `acm pairwise fit`: values worked out by hand, the three formats, and
//! bad input with FILE:LINE:COLUMN.

use crate::common::{Scratch, fails, ok};

/// a beat b three times, b beat a once: θ_a − θ_b = ln 3, centred ±ln 3 / 2;
/// the information on the difference is n·p·(1 − p) = 4·¾·¼ = ¾, so each
/// centred score has variance (1/¾)/4 = 1/3.
#[test]
fn two_items_by_hand_in_every_format() {
    let d = Scratch::new("pairwise-hand");
    let v = d.file(
        "v.csv",
        "winner,loser,worker\na,b,w1\na,b,w2\nb,a,w3\na,b,w4\n",
    );
    let csv = ok(&[
        "pairwise", "fit", &v, "--format", "csv", "--top-k", "1", "--quiet",
    ]);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "rank",
            "item",
            "score",
            "se",
            "low",
            "high",
            "rank_low",
            "rank_high",
            "p_top_k"
        ]
    );
    assert_eq!(rows[1][1], "a");
    let score: f64 = rows[1][2].parse().unwrap();
    let se: f64 = rows[1][3].parse().unwrap();
    assert!((score - 3f64.ln() / 2.0).abs() < 1e-6, "{score}");
    assert!((se - (1.0f64 / 3.0).sqrt()).abs() < 1e-6, "{se}");
    let low: f64 = rows[1][4].parse().unwrap();
    assert!(
        (low - (score - 1.959_963_984_540_054 * se)).abs() < 1e-6,
        "{low}"
    );
    let json = ok(&["pairwise", "fit", &v, "--format", "json", "--top-k", "1"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["comparisons"], 4);
    assert_eq!(doc["settled"]["k"], 1);
    assert_eq!(doc["ranking"][0]["item"], "a");
    let table = ok(&["pairwise", "fit", &v, "--top-k", "1"]);
    assert!(
        table.contains("bt: 2 items, 4 comparisons (0 ties), 4 workers"),
        "{table}"
    );
    assert!(table.contains("0.5493"), "{table}");
}

#[test]
fn bad_votes_name_the_file_line_and_column() {
    let d = Scratch::new("pairwise-bad");
    let f = d.file("self.csv", "winner,loser\na,b\na,a\n");
    assert!(
        fails(&["pairwise", "fit", &f], 1)
            .contains("self.csv:3:3: item \"a\" is compared with itself")
    );
    let f = d.file("tie.csv", "winner,loser,tie\na,b,maybe\n");
    assert!(
        fails(&["pairwise", "fit", &f], 1)
            .contains("tie.csv:2:5: column \"tie\": \"maybe\" is not")
    );
    let f = d.file("chain.csv", "winner,loser\na,b\nb,c\n");
    let e = fails(&["pairwise", "fit", &f], 1);
    assert!(
        e.contains("chain.csv: no finite maximum likelihood: item \"a\" never lost"),
        "{e}"
    );
    assert!(e.contains("--prior-sd"), "{e}");
    // With a prior the chain has a finite fit.
    ok(&["pairwise", "fit", &f, "--prior-sd", "2"]);
    let f = d.file("col.csv", "won,lost\na,b\n");
    assert!(fails(&["pairwise", "fit", &f], 1).contains("col.csv:1: no column \"winner\""));
    let f = d.file("empty.csv", "winner,loser\n");
    assert!(fails(&["pairwise", "fit", &f], 1).contains("no data"));
    let f = d.file("blank.csv", "winner,loser\n,b\n");
    assert!(
        fails(&["pairwise", "fit", &f], 1)
            .contains("blank.csv:2:1: column \"winner\": empty field")
    );
    fails(&["pairwise", "fit", &f, "--level", "2"], 2);
}
