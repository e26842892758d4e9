//! Arbitrary sequences of campaign operations: open, answers (valid, bogus,
//! repeated, from excluded workers), batches in both modes, exclusions,
//! close, statistics, save-restore, and corrupted saved states. Never
//! panics; a failed call changes nothing; a restored campaign equals the
//! saved one.
#![no_main]

use adaptive_comp_metrics::ballot::{
    Answer, BallotConfig, Campaign, ControlPair, ExclusionRule, ImportMode, LayoutOptions,
    Scheduler, TaskId, Unvoted, Vote,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Arbitrary, Debug)]
enum Op {
    Open,
    Answer(u8, u16, u8, u8),
    Batch(Vec<(u8, u16, u8, u8)>, bool),
    Exclude(u8, u8),
    ExcludeWorker(u8),
    Close(bool),
    Stats,
    SaveRestore,
    Corrupt(u16, u8),
    Rank,
}

#[derive(Arbitrary, Debug)]
struct Input {
    n: u8,
    m: u8,
    n_ballots: u8,
    rate: u8,
    unit: u8,
    seed: u64,
    ops: Vec<Op>,
}

fn vote(v: u8) -> Vote {
    match v % 3 {
        0 => Vote::First,
        1 => Vote::Second,
        _ => Vote::Tie,
    }
}

fn answer(c: &Campaign, (b, p, w, v): (u8, u16, u8, u8)) -> Answer {
    let ballot = usize::from(b % 4);
    let len = c.layout(ballot).map_or(1, |l| l.len().max(1));
    Answer {
        task: TaskId {
            ballot,
            position: usize::from(p) % (len + 1),
        },
        worker: if w % 17 == 16 {
            String::new()
        } else {
            format!("w{}", w % 5)
        },
        vote: vote(v),
    }
}

fn snapshot(c: &Campaign) -> String {
    serde_json::to_string(c).expect("a campaign always serialises")
}

fuzz_target!(|input: Input| {
    let Ok(config) = BallotConfig::new(
        usize::from(input.n % 40),
        usize::from(input.m % 6),
        0.5,
        usize::from(input.n_ballots % 4),
    ) else {
        return;
    };
    let n = config.n_items();
    let controls = vec![ControlPair::new(0, n - 1, Vote::First).unwrap()];
    let unit = (input.unit % 8 > 0).then(|| usize::from(input.unit % 8));
    let Ok(layout) = LayoutOptions::new(f64::from(input.rate % 128) / 256.0, unit) else {
        return;
    };
    let mut c = Campaign::new(Scheduler::new(config), controls, layout).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(input.seed);
    let mut lrng = ChaCha8Rng::seed_from_u64(!input.seed);
    for op in input.ops.into_iter().take(500) {
        let before = snapshot(&c);
        let failed = match op {
            Op::Open => c.open_ballot(&mut rng, &mut lrng).is_err(),
            Op::Answer(b, p, w, v) => {
                let a = answer(&c, (b, p, w, v));
                c.answer(a.task, &a.worker, a.vote).is_err()
            }
            Op::Batch(rows, all) => {
                let batch: Vec<Answer> = rows.into_iter().take(64).map(|r| answer(&c, r)).collect();
                let mode = if all {
                    ImportMode::AllOrNothing
                } else {
                    ImportMode::SkipRefused
                };
                let r = c.import(&batch, mode);
                assert_eq!(
                    r.applied,
                    mode == ImportMode::SkipRefused || r.refused.is_empty()
                );
                !r.applied
            }
            Op::Exclude(a, k) => {
                let rule = ExclusionRule::new(f64::from(a) / 255.0, u64::from(k % 4)).unwrap();
                c.exclude_workers(&rule).is_err()
            }
            Op::ExcludeWorker(w) => c.exclude_worker(&format!("w{}", w % 6)).is_err(),
            Op::Close(strict) => c
                .close_ballot(if strict {
                    Unvoted::Reject
                } else {
                    Unvoted::Withdraw
                })
                .is_err(),
            Op::Stats => {
                let stats = c.worker_stats();
                for s in &stats {
                    assert!(s.correct <= s.controls);
                    assert!(s.agreement_doubled <= 2 * s.agreement_votes);
                }
                let total: u64 = stats.iter().map(|s| s.votes).sum();
                assert_eq!(total, c.scheduler().total_votes());
                false
            }
            Op::SaveRestore => {
                let back: Campaign =
                    serde_json::from_str(&before).expect("a saved campaign restores");
                assert_eq!(snapshot(&back), before);
                c = back;
                false
            }
            Op::Corrupt(at, byte) => {
                let mut bytes = before.clone().into_bytes();
                if !bytes.is_empty() {
                    let i = usize::from(at) % bytes.len();
                    bytes[i] = byte;
                }
                if let Ok(text) = std::str::from_utf8(&bytes)
                    && let Ok(other) = serde_json::from_str::<Campaign>(text)
                {
                    let _ = (other.worker_stats(), other.ballot_status());
                }
                false
            }
            Op::Rank => {
                let _ = c.ranking(&mut rng);
                false
            }
        };
        if failed {
            assert_eq!(snapshot(&c), before, "a failed call changed the campaign");
        }
    }
});
