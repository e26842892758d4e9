//! The phases of the pairwise fits at the size of issue 35's bars, timed
//! one by one (wall time, one run each): where the time goes before
//! optimising.
//!
//! `cargo run --release -p adaptive-comp-metrics-benches --bin pairwise_phases [REPLICATES] [PHASE]`
//!
//! PHASE (`bt`, `noisy` or `bootstrap`) times that phase only (for a
//! profiler); all of them without it.

use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons, Inference, NoisyBradleyTerry};
use std::time::Instant;

#[path = "pairwise_data.rs"]
mod pairwise_data;

fn main() {
    let replicates: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let only = std::env::args().nth(2);
    let run = |phase: &str| only.as_deref().is_none_or(|o| o == phase);
    let t = Instant::now();
    let data = pairwise_data::comparisons(1000, 100_000, 200, 7);
    println!("data              {:8.3} s", t.elapsed().as_secs_f64());
    let opts = Inference::new().seed(1);
    if run("bt") {
        bt(&data, &opts);
    }
    if run("noisy") {
        noisy(&data, &opts);
    }
    if run("bootstrap") {
        let t = Instant::now();
        let (_, b) = BradleyTerry::new()
            .bootstrap(&data, replicates, &opts)
            .unwrap();
        println!(
            "bt bootstrap {replicates:5} {:8.3} s (se[0] {:.6})",
            t.elapsed().as_secs_f64(),
            b.standard_errors[0]
        );
    }
}

fn bt(data: &Comparisons, opts: &Inference) {
    let t = Instant::now();
    let fit = BradleyTerry::new().fit(data).unwrap();
    println!(
        "bt fit            {:8.3} s ({} Newton steps)",
        t.elapsed().as_secs_f64(),
        fit.iterations
    );
    let t = Instant::now();
    let u = fit.uncertainty(data, &opts.draws(2).unwrap()).unwrap();
    println!("bt SEs (2 draws)  {:8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let u2 = fit.uncertainty(data, opts).unwrap();
    println!(
        "bt SEs + {} draws {:8.3} s",
        u2.draws,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(u.standard_errors, u2.standard_errors);
}

fn noisy(data: &Comparisons, opts: &Inference) {
    let t = Instant::now();
    let noisy = NoisyBradleyTerry::new().fit(data).unwrap();
    println!(
        "noisy fit         {:8.3} s ({} EM steps)",
        t.elapsed().as_secs_f64(),
        noisy.iterations
    );
    let t = Instant::now();
    noisy.uncertainty(data, opts).unwrap();
    println!("noisy SEs + draws {:8.3} s", t.elapsed().as_secs_f64());
}
