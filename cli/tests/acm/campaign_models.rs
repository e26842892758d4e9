//! `acm campaign rank --estimator bt|noisy-bt` and the settled top k of
//! `acm campaign status`: the library's fit of the campaign's votes, and
//! the errors of a campaign without a finite fit.

use std::fs;

use adaptive_comp_metrics::pairwise::{
    BradleyTerry, CampaignVotes, Comparisons, Fit, Inference, NoisyBradleyTerry, Uncertainty,
};

use crate::campaign_inputs::{Fixture, answers_by, contains, fails, ok};
use crate::common::{ranking_header, same_ranking, says};

/// Tasks answered in turn by alice, bob and spam (who answers wrongly).
fn who(k: usize, _control: bool) -> Option<&'static str> {
    Some(["alice", "bob", "spam"][k % 3])
}

/// The library's list of the campaign's votes, named by item id.
fn campaign_votes(f: &Fixture) -> (Comparisons, Vec<String>) {
    let s = f.loaded();
    let mut data = Comparisons::from_campaign(&s.campaign, CampaignVotes::default());
    data.rename_items(s.items.ids.iter()).unwrap();
    let texts = (0..s.items.len())
        .map(|i| s.thing(i).1.to_owned())
        .collect();
    (data, texts)
}

/// The ranking file's rows against the library's fit: every column, bit
/// for bit.
fn same_rows(path: &str, fit: &Fit, u: &Uncertainty, texts: &[String]) {
    let mut r = csv::Reader::from_path(path).unwrap();
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        ranking_header(&["id", "text"])
    );
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_owned).collect())
        .collect();
    same_ranking(&rows, fit, u, |i| {
        vec![fit.items[i].clone(), texts[i].clone()]
    });
}

#[test]
fn rank_with_a_model_is_the_librarys_fit_of_the_campaigns_votes() {
    let f = Fixture::new("rank-models");
    let state = f.p("s.json");
    let out = f.p("r.csv");
    contains(
        &fails(&["rank", "--state", &state, "--estimator", "bt"]),
        "no vote has been recorded yet",
    );
    f.import(&answers_by(&f.loaded(), who));
    ok(&["close", "--state", &state]);
    f.import(&answers_by(&f.loaded(), who));
    let (data, texts) = campaign_votes(&f);
    let opts = Inference::new().top_k(3).unwrap().seed(4);
    let args = |estimator: &'static str| {
        vec![
            "rank",
            "--state",
            state.as_str(),
            "--estimator",
            estimator,
            "--prior-sd",
            "2",
            "--top-k",
            "3",
            "--seed",
            "4",
            "--out",
            out.as_str(),
        ]
    };
    // Each estimator's ranking file is the library's fit of the votes.
    let ranked = |estimator, fit: Fit| {
        let said = ok(&args(estimator));
        let u = fit.uncertainty(&data, &opts).unwrap();
        same_rows(&out, &fit, &u, &texts);
        (said, fit)
    };
    let bt = BradleyTerry::new().prior_sd(2.0).unwrap();
    let (said, _) = ranked("bt", bt.fit(&data).unwrap());
    says(
        &said,
        "note: ballot 2 is still open: the fit includes its votes so far",
    );
    says(&said, &format!("bt: 10 items, {} comparisons", data.len()));
    let noisy = NoisyBradleyTerry::new().prior_sd(2.0).unwrap();
    let (_, fit) = ranked("noisy-bt", noisy.fit(&data).unwrap());
    assert_eq!(fit.workers.len(), 3);
    fs::remove_file(&out).unwrap();
}

#[test]
fn a_campaign_without_a_finite_fit_names_its_items() {
    let f = Fixture::new("rank-infinite");
    let state = f.p("s.json");
    // Every comparison won by the smaller item: i0 never lost.
    f.import(&answers_by(&f.loaded(), |_, _| Some("alice")));
    let e = fails(&["rank", "--state", &state, "--estimator", "bt"]);
    contains(&e, "s.json: no finite maximum likelihood: item");
    contains(
        &e,
        "never lost a comparison with an item outside the group; give a prior with --prior-sd",
    );
    let e = fails(&["rank", "--state", &state, "--estimator", "noisy-bt"]);
    contains(&e, "s.json: no finite maximum likelihood");
    contains(
        &fails(&[
            "rank",
            "--state",
            &state,
            "--estimator",
            "bt",
            "--level",
            "1",
        ]),
        "1",
    );
    ok(&[
        "rank",
        "--state",
        &state,
        "--estimator",
        "bt",
        "--prior-sd",
        "1",
        "--out",
        &f.p("r.csv"),
    ]);
}

#[test]
fn status_says_how_settled_the_top_is() {
    let f = Fixture::new("status-settled");
    let state = f.p("s.json");
    let out = ok(&["status", "--state", &state]);
    says(
        &out,
        "bt: the top is not assessed yet: no vote has been recorded yet",
    );
    f.import(&answers_by(&f.loaded(), who));
    ok(&["close", "--state", &state]);
    f.import(&answers_by(&f.loaded(), who));
    let (data, _) = campaign_votes(&f);
    let fit = BradleyTerry::new()
        .prior_sd(2.0)
        .unwrap()
        .fit(&data)
        .unwrap();
    let opts = Inference::new().top_k(2).unwrap().settle(0.9).unwrap();
    let u = fit.uncertainty(&data, &opts).unwrap();
    let s = &u.settled;
    let top: Vec<&str> = s.top.iter().map(|&i| fit.items[i].as_str()).collect();
    let args = [
        "status",
        "--state",
        &state,
        "--prior-sd",
        "2",
        "--top-k",
        "2",
        "--settle",
        "0.9",
    ];
    let out = ok(&args);
    let line = out
        .lines()
        .find(|l| l.starts_with("bt: top 2 "))
        .unwrap_or_else(|| panic!("{out}"));
    says(line, &format!("P(the same 2 items) = {:.3}", s.probability));
    assert!(
        line.ends_with(&format!("(top 2: {})", top.join(", "))),
        "{line}"
    );
    if let Some(m) = s.further_comparisons.filter(|_| !s.settled) {
        says(line, &format!("about {m} further comparisons"));
    }
    let json = ok(&[&args[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let st = &doc["settled"];
    assert_eq!(st["model"], "bt");
    assert_eq!(st["k"], 2);
    assert_eq!(st["top"], serde_json::json!(top));
    assert_eq!(st["settled"], s.settled);
    assert_eq!(st["probability"].as_f64().unwrap(), s.probability);
    assert_eq!(
        st["further_comparisons"],
        serde_json::json!(s.further_comparisons)
    );
    assert_eq!(st["largest_settled"], s.largest_settled);
    // The ballots' table is still there, and borda leaves the check out.
    assert!(doc["ballots"].is_array(), "{json}");
    let out = ok(&[
        "status",
        "--state",
        &state,
        "--estimator",
        "borda",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(doc.get("settled").is_none(), "{out}");
    // Without a prior the perfect orders of a campaign have no finite fit: said, not failed.
    let g = Fixture::new("status-infinite");
    g.import(&answers_by(&g.loaded(), |_, _| Some("alice")));
    let out = ok(&["status", "--state", &g.p("s.json")]);
    says(
        &out,
        "bt: the top is not assessed yet: no finite maximum likelihood",
    );
}
