//! The dashboard's Bradley–Terry ranking of the votes so far: the
//! library's fit of the campaign's votes (as /admin/votes.csv lists them),
//! cached by vote count.

use super::*;

use adaptive_comp_metrics::ballot::Vote;
use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons, Inference};

/// Answers up to `n` tasks, workers w0–w2 in turn, each for the item whose
/// text comes first alphabetically, one in five the other way.
pub(super) fn answer(addr: &Handle, n: usize) -> usize {
    let mut clients: Vec<(Client, String)> = (0..3)
        .map(|k| {
            let mut c = Client::new(addr);
            let csrf = enter(&mut c, &format!("w{k}"));
            (c, csrf)
        })
        .collect();
    let mut answered = 0;
    for step in 0..n {
        let (c, csrf) = &mut clients[step % 3];
        let j = c.get_json("/task").json();
        if j["state"] != "task" {
            continue;
        }
        let (a, b) = (j["first"].as_str().unwrap(), j["second"].as_str().unwrap());
        let choice = if (a < b) != (step % 5 == 0) {
            "first"
        } else {
            "second"
        };
        let t = j["task"].as_str().unwrap();
        let r = c.answer(csrf, t, choice);
        assert_eq!(r.status, 200, "{}", r.body);
        answered += 1;
    }
    answered
}

/// The library's fit of the counted comparisons of /admin/votes.csv, items
/// p0 … p{n−1} in the campaign's order.
fn library_fit(
    addr: &Handle,
    n: usize,
) -> (
    adaptive_comp_metrics::pairwise::Fit,
    adaptive_comp_metrics::pairwise::Uncertainty,
) {
    let csv = admin_client(addr).get("/admin/votes.csv").body;
    let mut data = Comparisons::with_items((0..n).map(|i| format!("p{i}")))
        .unwrap()
        .shown_in_order(true);
    for line in csv.lines().skip(1) {
        // task_id,ballot,position,kind,first_id,second_id,worker,vote,counted
        let f: Vec<&str> = line.split(',').collect();
        if f[3] != "comparison" || f[8] != "true" {
            continue;
        }
        let vote = match f[7] {
            "first" => Vote::First,
            "second" => Vote::Second,
            _ => Vote::Tie,
        };
        data.add_named(f[4], f[5], vote, Some(f[6])).unwrap();
    }
    let fit = BradleyTerry::new()
        .prior_sd(3.0)
        .unwrap()
        .fit(&data)
        .unwrap();
    let u = fit
        .uncertainty(&data, &Inference::new().top_k(7).unwrap())
        .unwrap();
    (fit, u)
}

#[test]
fn the_dashboard_ranks_the_votes_so_far_with_intervals() {
    let served = serve("fitted", state(8, 2, 0.5, 2, 0.0, 77, Some(page())));
    let addr = served.server.local_addr();
    assert!(status(addr)["fitted"].is_null(), "no vote yet");
    let answered = answer(addr, 6);
    assert!(answered >= 5, "{answered}");
    let st = status(addr);
    let f = &st["fitted"];
    assert_eq!(f["votes"], st["campaign"]["votes"], "{f}");
    assert_eq!(f["prior_sd"], 3.0);
    assert_eq!(f["total"], 8);
    let (fit, u) = library_fit(addr, 8);
    let items = f["items"].as_array().unwrap();
    assert_eq!(items.len(), 8);
    for (r, i) in fit.order().into_iter().enumerate() {
        let row = &items[r];
        assert_eq!(row["rank"], r + 1);
        assert_eq!(row["id"], format!("p{i}"), "rank {}", r + 1);
        let close = |k: &str, want: f64| {
            let got = row[k].as_f64().unwrap();
            assert!((got - want).abs() < 1e-9, "{k}: {got} against {want}");
        };
        close("score", fit.scores[i]);
        close("low", u.intervals[i][0]);
        close("high", u.intervals[i][1]);
        close("p_top_k", u.top_k_probability[i]);
        assert_eq!(row["rank_low"], u.rank_intervals[i][0]);
        assert_eq!(row["rank_high"], u.rank_intervals[i][1]);
    }
    let top: Vec<String> = u.settled.top.iter().map(|&i| format!("p{i}")).collect();
    assert_eq!(f["settled"]["top"], serde_json::json!(top));
    assert_eq!(f["settled"]["k"], 7);
    assert_eq!(f["settled"]["settled"], u.settled.settled);
    // Cached: a vote more within the minute leaves the fit as it was.
    let votes = f["votes"].clone();
    assert_eq!(answer(addr, 1), 1);
    let again = status(addr);
    assert_ne!(again["campaign"]["votes"], votes);
    assert_eq!(again["fitted"]["votes"], votes);
    assert_eq!(again["fitted"]["fitted_ms"], f["fitted_ms"]);
    // The page shows it: the table, the intervals and whether the top is settled.
    let mut admin = Client::new(addr);
    admin.get("/admin?token=admin-token-0123456789");
    let b = admin.get("/admin").body;
    for part in [
        "id=\"fitted\"",
        "Bradley–Terry ranking of the votes so far",
        &format!("Fitted to {votes} vote(s)"),
        "id=\"settled\"",
        "<th class=\"num\">P(top 7)</th>",
        &format!("<td>p{}</td>", fit.order()[0]),
    ] {
        assert!(b.contains(part), "{part:?} not on the dashboard");
    }
}
