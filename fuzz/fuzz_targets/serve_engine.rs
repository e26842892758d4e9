//! The annotation server's engine driven by arbitrary request sequences
//! against an in-memory store: arrivals, tasks asked for, answers (to the
//! worker's own task or to any), stops, exclusions, "close now", time
//! passing, restarts from what the store holds. After every step: no
//! answer acknowledged twice, an acknowledged answer stored, the engine's
//! figures the library's, a restart giving the same campaign and leases;
//! and never a panic.
#![no_main]

use adaptive_comp_metrics_serve::fuzzing::{Step, run_engine};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Arrive(u8),
    Next(u8),
    Answer(u8, u16, u8),
    Finish(u8),
    Exclude(u8),
    Close,
    Wait(u8),
    Restart,
}

#[derive(Arbitrary, Debug)]
struct Run {
    seed: u8,
    quota: u8,
    rule: bool,
    ops: Vec<Op>,
}

fuzz_target!(|run: Run| {
    let w = |x: u8| x % 6;
    let steps: Vec<Step> = run
        .ops
        .iter()
        .take(400)
        .map(|op| match *op {
            Op::Arrive(x) => Step::Arrive(w(x)),
            Op::Next(x) => Step::Next(w(x)),
            Op::Answer(x, pick, vote) => Step::Answer {
                worker: w(x),
                pick: pick % 48,
                vote,
            },
            Op::Finish(x) => Step::Finish(w(x)),
            Op::Exclude(x) => Step::Exclude(w(x)),
            Op::Close => Step::Close,
            Op::Wait(t) => Step::Wait(t),
            Op::Restart => Step::Restart,
        })
        .collect();
    if let Err(e) = run_engine(u64::from(run.seed), run.quota % 6, run.rule, &steps) {
        panic!("{e}");
    }
});
