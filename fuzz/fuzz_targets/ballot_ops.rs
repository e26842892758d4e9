//! Arbitrary sequences of scheduler operations: open, votes by ticket, by
//! pair (issued, bogus or out of range), close (strict or withdrawing),
//! serialise-restore, ranking. Never panics, never loses or double-counts a
//! vote, and a restored state equals the saved one.
#![no_main]

use adaptive_comp_metrics::ballot::{BallotConfig, Options, Scheduler, Unvoted, Vote};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rand::RngCore;

/// SplitMix64: a tiny deterministic RNG for the fuzzer's own draws.
struct SplitMix(u64);

impl RngCore for SplitMix {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Open,
    Ticket(u16, u8),
    /// A vote on the pair of an issued ticket (valid until its pair runs out).
    IssuedPair(u16, bool),
    Win(u16, u16),
    Tie(u16, u16),
    Close(bool),
    SaveRestore,
    Rank,
}

#[derive(Arbitrary, Debug)]
struct Input {
    n: u8,
    m: u8,
    alpha: u8,
    n_ballots: u8,
    published: bool,
    seed: u64,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let options = if input.published {
        Options::published()
    } else {
        Options::paper()
    };
    let alpha = f64::from(input.alpha) / 256.0;
    let config = match BallotConfig::with_options(
        usize::from(input.n % 64),
        usize::from(input.m % 9),
        alpha,
        usize::from(input.n_ballots % 6),
        options,
    ) {
        Ok(c) => c,
        Err(_) => return,
    };
    let n = config.n_items();
    let mut rng = SplitMix(input.seed);
    let mut s = Scheduler::new(config);
    let mut accepted = 0u64;
    for op in input.ops.into_iter().take(2000) {
        let before = s.total_votes();
        let ok = match op {
            Op::Open => {
                if let Ok(c) = s.open_ballot(&mut rng) {
                    assert!(
                        c.iter()
                            .all(|c| c.first != c.second && c.first < n && c.second < n)
                    );
                }
                false
            }
            Op::Ticket(t, v) => {
                let v = [Vote::First, Vote::Second, Vote::Tie][usize::from(v % 3)];
                s.record(usize::from(t), v).is_ok()
            }
            Op::IssuedPair(t, tie) => match s.comparisons().get(usize::from(t)).copied() {
                Some(c) if tie => s.record_tie(c.second, c.first).is_ok(),
                Some(c) => s.record_win(c.second, c.first).is_ok(),
                None => false,
            },
            Op::Win(a, b) => s.record_win(usize::from(a), usize::from(b)).is_ok(),
            Op::Tie(a, b) => s.record_tie(usize::from(a), usize::from(b)).is_ok(),
            Op::Close(strict) => {
                let policy = if strict {
                    Unvoted::Reject
                } else {
                    Unvoted::Withdraw
                };
                if let Ok(h) = s.close_ballot(policy) {
                    assert!(
                        h.x.iter()
                            .chain(&h.y)
                            .chain(&h.y_bar)
                            .all(|v| v.is_finite())
                    );
                    assert!(h.x.iter().all(|&x| (0.0..=1.0).contains(&x)));
                    assert_eq!(h.appearances.iter().sum::<u64>(), 2 * h.votes);
                }
                false
            }
            Op::SaveRestore => {
                let json = serde_json::to_string(&s).expect("a scheduler always serialises");
                let back: Scheduler = serde_json::from_str(&json).expect("a saved state restores");
                assert_eq!(back.logs(), s.logs());
                assert_eq!(back.history(), s.history());
                assert_eq!(back.phase(), s.phase());
                s = back;
                false
            }
            Op::Rank => {
                if let Ok(r) = s.ranking(&mut rng) {
                    let mut items = r.items();
                    items.sort_unstable();
                    assert_eq!(items, (0..n).collect::<Vec<_>>());
                }
                false
            }
        };
        accepted += u64::from(ok);
        assert_eq!(s.total_votes(), before + u64::from(ok));
        assert_eq!(s.total_votes(), accepted);
    }
    let logged: usize = s
        .logs()
        .iter()
        .map(|l| l.votes().iter().flatten().count())
        .sum();
    assert_eq!(logged as u64, accepted);
});
