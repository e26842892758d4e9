//! `acm pairwise fit`: values worked out by hand, the three formats, and
//! bad input with FILE:LINE:COLUMN.

use crate::common::{Scratch, fails, ok, ranking_header, same_ranking, says};

/// a beat b three times, b beat a once: θ_a − θ_b = ln 3, centred ±ln 3 / 2;
/// the information on the difference is n·p·(1 − p) = 4·¾·¼ = ¾, so each
/// centred score has variance (1/¾)/4 = 1/3.
#[test]
fn two_items_by_hand_in_every_format() {
    let (_d, [v]) = Scratch::with([(
        "v.csv",
        "winner,loser,worker\na,b,w1\na,b,w2\nb,a,w3\na,b,w4\n",
    )]);
    let csv = ok(&[
        "pairwise", "fit", &v, "--format", "csv", "--top-k", "1", "--quiet",
    ]);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ranking_header(&["item"]));
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
    says(&table, "bt: 2 items, 4 comparisons (0 ties), 4 workers");
    says(&table, "0.5493");
}

#[test]
fn bad_votes_name_the_file_line_and_column() {
    let (d, [f]) = Scratch::with([("self.csv", "winner,loser\na,b\na,a\n")]);
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
    says(
        &e,
        "chain.csv: no finite maximum likelihood: item \"a\" never lost",
    );
    says(&e, "--prior-sd");
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

/// A reproducible list of votes: 8 items (true scores 1.5, 1.2, …), 400
/// comparisons by 12 workers, one tie in seven, worker `w0` answering at
/// random. Returns the CSV text and the same votes as the library's list.
fn generated_votes() -> (String, adaptive_comp_metrics::pairwise::Comparisons) {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let names = ["ash", "birch", "cedar", "elm", "fir", "oak", "pine", "yew"];
    let truth = [1.5, 1.2, 0.9, 0.6, 0.3, 0.0, -0.4, -0.8];
    let mut text = String::from("winner,loser,tie,worker\n");
    let mut data = adaptive_comp_metrics::pairwise::Comparisons::new();
    for _ in 0..400 {
        let a = (next() * 8.0) as usize;
        let b = (a + 1 + (next() * 7.0) as usize) % 8;
        let w = (next() * 12.0) as usize;
        let tie = next() < 1.0 / 7.0;
        let p = 1.0 / (1.0 + f64::exp(truth[b] - truth[a]));
        let a_wins = if w == 0 { next() < 0.5 } else { next() < p };
        let (win, lose) = if a_wins { (a, b) } else { (b, a) };
        let worker = format!("w{w}");
        text.push_str(&format!(
            "{},{},{},{worker}\n",
            names[win],
            names[lose],
            u8::from(tie)
        ));
        data.add_result(names[win], names[lose], tie, Some(&worker))
            .unwrap();
    }
    (text, data)
}

/// The CSV rows of `acm pairwise fit` (header dropped) against the
/// library's fit of the same votes with the same options.
fn same_as_library(
    csv: &str,
    fit: &adaptive_comp_metrics::pairwise::Fit,
    u: &adaptive_comp_metrics::pairwise::Uncertainty,
) {
    let rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    same_ranking(&rows, fit, u, |i| vec![fit.items[i].clone()]);
}

/// Both models, the observed information and the worker bootstrap: the
/// CLI's table, CSV and JSON carry the library's numbers for the same
/// votes and options.
#[test]
fn every_format_carries_the_librarys_fit() {
    use adaptive_comp_metrics::pairwise::{BradleyTerry, Inference, NoisyBradleyTerry};
    let d = Scratch::new("pairwise-library");
    let (text, data) = generated_votes();
    let v = d.file("v.csv", &text);
    let opts = Inference::new().top_k(3).unwrap().seed(11);
    let bt = BradleyTerry::new().fit(&data).unwrap();
    let bt_u = bt.uncertainty(&data, &opts).unwrap();
    let common = ["pairwise", "fit", &v, "--top-k", "3", "--seed", "11"];
    let csv = ok(&[&common[..], &["--format", "csv", "--quiet"]].concat());
    same_as_library(&csv, &bt, &bt_u);
    let noisy = NoisyBradleyTerry::new().fit(&data).unwrap();
    let noisy_u = noisy.uncertainty(&data, &opts).unwrap();
    let csv = ok(&[
        &common[..],
        &["--model", "noisy-bt", "--format", "csv", "--quiet"],
    ]
    .concat());
    same_as_library(&csv, &noisy, &noisy_u);
    // The random worker is the least reliable.
    let w0 = noisy.workers.iter().find(|w| w.name == "w0").unwrap();
    assert!(
        noisy
            .workers
            .iter()
            .all(|w| w.reliability >= w0.reliability),
        "{:?}",
        noisy.workers
    );
    let (boot, boot_u) = BradleyTerry::new()
        .prior_sd(3.0)
        .unwrap()
        .bootstrap(&data, 60, &opts)
        .unwrap();
    let csv = ok(&[
        &common[..],
        &[
            "--prior-sd",
            "3",
            "--bootstrap",
            "60",
            "--format",
            "csv",
            "--quiet",
        ],
    ]
    .concat());
    same_as_library(&csv, &boot, &boot_u);
    // JSON: the same rows as numbers, the settled top k by name.
    let json = ok(&[&common[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let close = |v: &serde_json::Value, want: f64| {
        let got = v.as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{got} {want}"
        );
    };
    for (r, i) in bt.order().into_iter().enumerate() {
        let row = &doc["ranking"][r];
        assert_eq!(row["item"], bt.items[i].as_str());
        close(&row["score"], bt.scores[i]);
        close(&row["se"], bt_u.standard_errors[i]);
        close(&row["low"], bt_u.intervals[i][0]);
        close(&row["high"], bt_u.intervals[i][1]);
        assert_eq!(row["rank_low"], bt_u.rank_intervals[i][0]);
        assert_eq!(row["rank_high"], bt_u.rank_intervals[i][1]);
        close(&row["p_top_k"], bt_u.top_k_probability[i]);
    }
    close(&doc["log_likelihood"], bt.log_likelihood);
    let top: Vec<&str> = bt_u
        .settled
        .top
        .iter()
        .map(|&i| bt.items[i].as_str())
        .collect();
    assert_eq!(doc["settled"]["top"], serde_json::json!(top));
    assert_eq!(doc["settled"]["settled"], bt_u.settled.settled);
    assert_eq!(
        doc["settled"]["further_comparisons"],
        serde_json::json!(bt_u.settled.further_comparisons)
    );
    // The table: the same ranking, 4 decimals.
    let table = ok(&common);
    let best = bt.order()[0];
    let line = table
        .lines()
        .find(|l| l.starts_with("1 ") || l.starts_with("1\t"))
        .unwrap_or_else(|| panic!("{table}"));
    says(line, &bt.items[best]);
    says(line, &format!("{:.4}", bt.scores[best]));
    says(line, &format!("{:.4}", bt_u.top_k_probability[best]));
}

/// Catalogues: an unknown item or worker is located in the votes file; an
/// item never compared leaves the graph disconnected (named) without a
/// prior and is ranked with one.
#[test]
fn catalogues_locate_unknown_items_and_workers() {
    let (d, [items, workers, v]) = Scratch::with([
        ("items.csv", "item\na\nb\nc\n"),
        ("workers.csv", "worker\nw1\nw2\n"),
        ("v.csv", "winner,loser,worker\na,b,w1\nb,a,w2\na,b,w1\n"),
    ]);
    let e = fails(&["pairwise", "fit", &v, "--items", &items], 1);
    assert!(
        e.contains("the comparison graph is disconnected (2 components): item \"c\" shares")
            || e.contains("item \"c\""),
        "{e}"
    );
    says(&e, "v.csv");
    let csv = ok(&[
        "pairwise",
        "fit",
        &v,
        "--items",
        &items,
        "--workers",
        &workers,
        "--prior-sd",
        "1",
        "--format",
        "csv",
        "--quiet",
    ]);
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(
        csv.lines().any(|l| l.split(',').nth(1) == Some("c")),
        "{csv}"
    );
    let bad = d.file("bad.csv", "winner,loser,worker\na,b,w1\nb,d,w2\n");
    let e = fails(&["pairwise", "fit", &bad, "--items", &items], 1);
    says(&e, "bad.csv:3:3: item \"d\" is not in the items file");
    let bad = d.file("badw.csv", "winner,loser,worker\na,b,w1\nb,a,w3\n");
    let e = fails(&["pairwise", "fit", &bad, "--workers", &workers], 1);
    says(&e, "badw.csv:3:5: worker \"w3\" is not in the workers file");
    let twice = d.file("twice.csv", "item\na\nb\na\n");
    let e = fails(&["pairwise", "fit", &v, "--items", &twice], 1);
    says(&e, "twice.csv:4:1: item \"a\" already listed on line 2");
    let e = fails(
        &[
            "pairwise", "fit", &v, "--model", "noisy-bt", "--items", &items,
        ],
        1,
    );
    says(&e, "item \"c\"");
}

/// `--no-draws`: the first six columns of the default output, the same
/// numbers (the draws change none of them), in every format; refused with
/// `--bootstrap` (whose replicates are the draws).
#[test]
fn no_draws_keeps_the_scores_and_standard_errors() {
    let (_d, [v]) = Scratch::with([(
        "v.csv",
        "winner,loser,worker\na,b,w1\na,b,w2\nb,a,w3\na,b,w4\nb,c,w1\nc,b,w2\nb,c,w3\nc,a,w4\na,c,w1\n",
    )]);
    let full = ok(&["pairwise", "fit", &v, "--format", "csv", "--quiet"]);
    let short = ok(&[
        "pairwise",
        "fit",
        &v,
        "--format",
        "csv",
        "--quiet",
        "--no-draws",
    ]);
    let want: Vec<String> = full
        .lines()
        .map(|l| l.split(',').take(6).collect::<Vec<_>>().join(","))
        .collect();
    let got: Vec<&str> = short.lines().collect();
    assert_eq!(got, want);
    assert_eq!(got[0], "rank,item,score,se,low,high");
    let json = ok(&["pairwise", "fit", &v, "--format", "json", "--no-draws"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["draws"], 0);
    assert_eq!(doc["ranking"][0]["item"], "a");
    assert!(doc.get("settled").is_none());
    let table = ok(&["pairwise", "fit", &v, "--no-draws"]);
    says(
        &table,
        "95% intervals from the observed information (no draws)",
    );
    assert!(!table.contains("settled"), "{table}");
    let e = fails(
        &["pairwise", "fit", &v, "--no-draws", "--bootstrap", "10"],
        2,
    );
    says(&e, "--bootstrap");
}
