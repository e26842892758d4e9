//! The phases of `acm campaign rank --estimator bt` on a campaign state
//! file, timed one by one (wall time, one run each): where the time goes
//! at N = 10⁵ items (issue 35's bar: the whole command under 2 s).
//!
//! `cargo run --release -p adaptive-comp-metrics-benches --bin campaign_rank_phases -- STATE.json [PRIOR_SD]`

use adaptive_comp_metrics::pairwise::{BradleyTerry, CampaignVotes, Comparisons, Inference};
use adaptive_comp_metrics_campaign::CampaignFile;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: campaign_rank_phases STATE.json [PRIOR_SD]");
    let sd: f64 = args.next().map_or(3.0, |s| s.parse().expect("a number"));
    let step = |what: &str, t: Instant| println!("{what:28} {:8.3} s", t.elapsed().as_secs_f64());
    let all = Instant::now();
    let t = Instant::now();
    let bytes = std::fs::read(&path).expect("the state file");
    step("read", t);
    let t = Instant::now();
    let state = CampaignFile::from_json(&bytes).expect("a state file");
    step("parse and restore", t);
    let t = Instant::now();
    let mut data = Comparisons::from_campaign(&state.campaign, CampaignVotes::default());
    data.rename_items(state.items.ids.iter()).expect("ids");
    step("votes (from_campaign, ids)", t);
    let t = Instant::now();
    let fit = BradleyTerry::new()
        .prior_sd(sd)
        .and_then(|m| m.fit(&data))
        .expect("a fit");
    step(&format!("fit ({} Newton steps)", fit.iterations), t);
    let opts = Inference::new();
    let t = Instant::now();
    let u = fit
        .uncertainty(&data, &opts.draws(2).expect("draws"))
        .expect("SEs");
    step(&format!("SEs ({:?}, 2 draws)", u.method), t);
    let t = Instant::now();
    let u = fit.uncertainty(&data, &opts).expect("SEs");
    step(&format!("SEs + {} draws", u.draws), t);
    println!("{:28} {:8.3} s", "total", all.elapsed().as_secs_f64());
}
