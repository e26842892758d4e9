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
    let (data, s) = timed(|| pairwise_data::comparisons(1000, 100_000, 200, 7));
    println!("data              {s:8.3} s");
    let opts = Inference::new().seed(1);
    if run("bt") {
        bt(&data, &opts);
    }
    if run("noisy") {
        noisy(&data, &opts);
    }
    if run("bootstrap") {
        let ((_, b), s) = timed(|| {
            BradleyTerry::new()
                .bootstrap(&data, replicates, &opts)
                .unwrap()
        });
        println!(
            "bt bootstrap {replicates:5} {s:8.3} s (se[0] {:?}, Σse {:?})",
            b.standard_errors[0],
            b.standard_errors.iter().sum::<f64>()
        );
    }
}

/// `f`'s value and its wall time in seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let value = f();
    (value, t.elapsed().as_secs_f64())
}

fn bt(data: &Comparisons, opts: &Inference) {
    let (fit, s) = timed(|| BradleyTerry::new().fit(data).unwrap());
    println!(
        "bt fit            {s:8.3} s ({} Newton steps, θ[0] {:?})",
        fit.iterations, fit.scores[0]
    );
    let (u, s) = timed(|| fit.uncertainty(data, &opts.draws(2).unwrap()).unwrap());
    println!("bt SEs (2 draws)  {s:8.3} s");
    let (u2, s) = timed(|| fit.uncertainty(data, opts).unwrap());
    println!("bt SEs + {} draws {s:8.3} s", u2.draws);
    assert_eq!(u.standard_errors, u2.standard_errors);
}

fn noisy(data: &Comparisons, opts: &Inference) {
    let (noisy, s) = timed(|| NoisyBradleyTerry::new().fit(data).unwrap());
    println!(
        "noisy fit         {s:8.3} s ({} EM steps)",
        noisy.iterations
    );
    let ((), s) = timed(|| {
        noisy.uncertainty(data, opts).unwrap();
    });
    println!("noisy SEs + draws {s:8.3} s");
}
