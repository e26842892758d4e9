//! The adaptive-ballot scheduler end to end: hand-computed scores, Eq. 2/3
//! bookkeeping, every item exactly M times, typed errors, and a
//! never-lose-a-vote property over arbitrary operation sequences.
#![cfg(feature = "scheduler")]
// Exact comparisons of dyadic values computed by hand.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::ballot::{
    BallotConfig, BallotError, Options, Phase, RankBy, Scheduler, UniformBudget, Unvoted, Vote,
    plan, uniform_plan,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Three items, M = 2, α = 0.7, two ballots: sizes 3, round(2.1) = 2.
/// Ballot 1 has 3 comparisons with every item twice and no self-pair, so they
/// are exactly the pairs {0,1}, {0,2}, {1,2}; ballot 2 repeats its one pair.
fn hand_example(options: Options, second_ballot: [(bool, bool); 2]) -> (Scheduler, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut s = Scheduler::new(BallotConfig::with_options(3, 2, 0.7, 2, options).unwrap());
    let c = s.open_ballot(&mut rng).unwrap().to_vec();
    let mut pairs: Vec<(usize, usize)> = c
        .iter()
        .map(|c| (c.first.min(c.second), c.first.max(c.second)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, vec![(0, 1), (0, 2), (1, 2)]);
    // Ballot 1: 0 beats 1 and 2; 1 and 2 tie.
    // x = (2/2, 0.5/2, 0.5/2) = (1, 0.25, 0.25).
    s.record_win(0, 1).unwrap();
    s.record_win(0, 2).unwrap();
    s.record_tie(2, 1).unwrap();
    let h1 = s.close_ballot(Unvoted::Reject).unwrap().clone();
    assert_eq!(h1.x, vec![1.0, 0.25, 0.25]);
    assert_eq!(h1.y, h1.x);
    assert_eq!(h1.y_bar, h1.x);
    assert_eq!(h1.b_hat, 1.0);
    assert_eq!(h1.wins, vec![2.0, 0.5, 0.5]);
    // Ballot 2: item 0 and one of 1, 2 (tied at the cut-off, chosen at random).
    s.open_ballot(&mut rng).unwrap();
    let items = s.ballot_items().to_vec();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0], 0);
    let other = items[1];
    for (zero_wins, tie) in second_ballot {
        if tie {
            s.record_tie(other, 0).unwrap();
        } else if zero_wins {
            s.record_win(0, other).unwrap();
        } else {
            s.record_win(other, 0).unwrap();
        }
    }
    s.close_ballot(Unvoted::Reject).unwrap();
    (s, other)
}

#[test]
fn rescaling_by_hand() {
    // Ballot 2: 0 wins once, one tie: x = (1.5/2, 0.5/2) = (0.75, 0.25).
    // b̂ = [(1 − 0.75)(1 − 1) + (1 − 0.25)(1 − 0.25)] / [(0.25)² + (0.75)²]
    //   = 0.5625 / 0.625 = 0.9
    // y = 1 − 0.9·(1 − x) = (0.775, 0.325)
    // ȳ (paper, from ballot 1) = ((1 + 0.775)/2, (0.25 + 0.325)/2) = (0.8875, 0.2875)
    let (s, other) = hand_example(Options::paper(), [(true, false), (false, true)]);
    let h2 = &s.history()[1];
    assert_eq!(h2.items, vec![0, other]);
    assert_eq!(h2.x, vec![0.75, 0.25]);
    assert!((h2.b_hat - 0.9).abs() < 1e-15);
    assert!((h2.y[0] - 0.775).abs() < 1e-15 && (h2.y[1] - 0.325).abs() < 1e-15);
    assert!((h2.y_bar[0] - 0.8875).abs() < 1e-15 && (h2.y_bar[1] - 0.2875).abs() < 1e-15);
    // Final ranking by score: 0 (0.8875), the survivor (0.2875), the item
    // eliminated after ballot 1 (x⁽¹⁾ = 0.25).
    let eliminated = 3 - other;
    let r = s.ranking(&mut ChaCha8Rng::seed_from_u64(0)).unwrap();
    assert_eq!(r.items(), vec![0, other, eliminated]);
    assert_eq!(r.entries[2].last_ballot, 1);
    assert_eq!(r.entries[2].score, 0.25);
    assert_eq!(r.positions()[0], 1);

    // Published options: ȳ from ballot 2 on is y itself; b̂ is the same since
    // ȳ⁽¹⁾ = x⁽¹⁾ either way.
    let (s, _) = hand_example(Options::published(), [(true, false), (false, true)]);
    let h2 = &s.history()[1];
    assert!((h2.b_hat - 0.9).abs() < 1e-15);
    assert_eq!(h2.y_bar, h2.y);
}

#[test]
fn eq6_maps_a_perfect_score_to_one() {
    // Ballot 2: 0 wins both: x = (1, 0); b̂ = (0·0 + 1·0.75)/(0 + 1) = 0.75;
    // y = (1, 0.25): f_resc(1) = 1 exactly.
    let (s, _) = hand_example(Options::paper(), [(true, false), (true, false)]);
    let h2 = &s.history()[1];
    assert_eq!(h2.x, vec![1.0, 0.0]);
    assert_eq!(h2.b_hat, 0.75);
    assert_eq!(h2.y, vec![1.0, 0.25]);
    assert_eq!(h2.y_bar, vec![1.0, 0.25]);
}

#[test]
fn ballot_then_score_keeps_survivors_on_top() {
    // Ballot 2: the survivor loses both: x = (0, 1) for (0, other)... 0 loses:
    // x = (0, 1), b̂ = (1·0 + 0·0.75)/(1 + 0) = 0, y = (1, 1).
    // Make instead the survivor score below the eliminated item:
    // 0 wins both → survivor ȳ = (0.25 + 0.25)/2 = 0.25 = eliminated's 0.25:
    // by score the two tie (random order); by ballot the survivor is second.
    let options = Options::paper().with_rank_by(RankBy::BallotThenScore);
    let (s, other) = hand_example(options, [(true, false), (true, false)]);
    for seed in 0..8 {
        let r = s.ranking(&mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        assert_eq!(r.items(), vec![0, other, 3 - other]);
    }
    let (s, other) = hand_example(Options::paper(), [(true, false), (true, false)]);
    let mut seen = [false; 2];
    for seed in 0..32 {
        let r = s.ranking(&mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        seen[usize::from(r.items()[1] == other)] = true;
    }
    assert_eq!(seen, [true, true], "score ties must be broken at random");
}

/// Runs a whole collection with votes from a noisy "true order" voter.
fn run(config: BallotConfig, seed: u64) -> Scheduler {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = Scheduler::new(config);
    while s.open_ballot(&mut rng).is_ok() {
        let comparisons = s.comparisons().to_vec();
        for (t, c) in comparisons.iter().enumerate() {
            let r: f64 = rng.random();
            let vote = if r < 0.1 {
                Vote::Tie
            } else if (c.first < c.second) ^ (r < 0.2) {
                Vote::First
            } else {
                Vote::Second
            };
            s.record(t, vote).unwrap();
        }
        s.close_ballot(Unvoted::Reject).unwrap();
    }
    s
}

#[test]
fn published_configuration_follows_eq_2_and_3() {
    // REFERENCES §2 item 5: sizes 990 … 16, 19 660 comparisons.
    let c = BallotConfig::with_options(990, 20, 0.5, 7, Options::published()).unwrap();
    let s = run(c, 1);
    let sizes: Vec<usize> = s.logs().iter().map(|l| l.items().len()).collect();
    assert_eq!(sizes, vec![990, 495, 248, 124, 62, 31, 16]);
    let total: usize = s.logs().iter().map(|l| l.comparisons().len()).sum();
    assert_eq!(total, 19_660);
    assert_eq!(s.total_votes(), 19_660);
    assert_eq!(s.phase(), Phase::Finished);
    for (log, h) in s.logs().iter().zip(s.history()) {
        assert!(h.appearances.iter().all(|&a| a == 20));
        assert_eq!(log.items(), h.items.as_slice());
    }
    // The true order is recovered at the top: item 0 reaches the last ballot.
    let r = s.ranking(&mut ChaCha8Rng::seed_from_u64(0)).unwrap();
    assert_eq!(r.entries.len(), 990);
    assert!(r.items()[..5].contains(&0));
    assert_eq!(r.entries.iter().filter(|e| e.last_ballot == 7).count(), 16);
}

#[test]
fn uniform_baseline_runs_with_the_adaptive_budget() {
    let c = BallotConfig::new(990, 20, 0.5, 7).unwrap();
    for (budget, total) in [
        (UniformBudget::SameComparisons, 19_660),
        (UniformBudget::RoundedAppearances, 19_800),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut s = Scheduler::uniform(c, budget).unwrap();
        let n = s.open_ballot(&mut rng).unwrap().len();
        assert_eq!(n, total);
        for t in 0..n {
            s.record(t, Vote::First).unwrap();
        }
        let h = s.close_ballot(Unvoted::Reject).unwrap();
        let p = uniform_plan(&c, budget).unwrap();
        let extra = h.appearances.iter().filter(|&&a| a == 40).count();
        assert_eq!(
            extra,
            if p.appearances == 40 {
                990
            } else {
                p.items_with_extra
            }
        );
        assert_eq!(
            s.open_ballot(&mut rng).unwrap_err(),
            BallotError::Finished { n_ballots: 1 }
        );
    }
}

#[test]
fn typed_errors_and_nothing_changes_on_error() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2).unwrap());
    assert_eq!(
        s.record(0, Vote::First),
        Err(BallotError::NoOpenBallot { closed: 0 })
    );
    assert_eq!(s.ranking(&mut rng).unwrap_err(), BallotError::NothingClosed);
    assert_eq!(
        s.close_ballot(Unvoted::Reject).unwrap_err(),
        BallotError::NoOpenBallot { closed: 0 }
    );
    let c = s.open_ballot(&mut rng).unwrap().to_vec();
    assert_eq!(c.len(), 6);
    assert_eq!(
        s.open_ballot(&mut rng).unwrap_err(),
        BallotError::BallotStillOpen { ballot: 1 }
    );
    assert_eq!(
        s.record(6, Vote::Tie),
        Err(BallotError::UnknownTicket {
            ticket: 6,
            issued: 6,
            ballot: 1
        })
    );
    assert_eq!(
        s.record_win(6, 0),
        Err(BallotError::UnknownItem {
            item: 6,
            n_items: 6
        })
    );
    assert_eq!(
        s.record_tie(0, 0),
        Err(BallotError::PairNotIssued {
            first: 0,
            second: 0,
            ballot: 1
        })
    );
    // A pair never issued in this ballot.
    let issued = |a: usize, b: usize| c.iter().filter(|x| x.is_between(a, b)).count();
    let (a, b) = (0..6)
        .flat_map(|a| (0..6).map(move |b| (a, b)))
        .find(|&(a, b)| a != b && issued(a, b) == 0)
        .unwrap();
    assert_eq!(
        s.record_win(a, b),
        Err(BallotError::PairNotIssued {
            first: a,
            second: b,
            ballot: 1
        })
    );
    // Votes beyond the issued count of a pair.
    let (p, q) = (c[0].first, c[0].second);
    for _ in 0..issued(p, q) {
        s.record_win(q, p).unwrap();
    }
    assert_eq!(
        s.record_win(p, q),
        Err(BallotError::VotesExceedIssued {
            first: p,
            second: q,
            issued: issued(p, q),
            ballot: 1
        })
    );
    assert_eq!(
        s.record(0, Vote::First),
        Err(BallotError::AlreadyVoted {
            ticket: 0,
            ballot: 1
        })
    );
    let voted = s.total_votes();
    assert_eq!(
        s.close_ballot(Unvoted::Reject).unwrap_err(),
        BallotError::MissingVotes {
            ballot: 1,
            missing: 6 - voted as usize
        }
    );
    // Withdrawing is refused while some item has no vote at all.
    assert!(matches!(
        s.close_ballot(Unvoted::Withdraw).unwrap_err(),
        BallotError::NoVotes { ballot: 1, .. }
    ));
    assert_eq!(s.total_votes(), voted);
    for t in 0..6 {
        let _ = s.record(t, Vote::Second);
    }
    assert_eq!(s.total_votes(), 6);
    s.close_ballot(Unvoted::Reject).unwrap();
    assert_eq!(
        s.record(0, Vote::First),
        Err(BallotError::NoOpenBallot { closed: 1 })
    );
    s.open_ballot(&mut rng).unwrap();
    let out = (0..6).find(|i| !s.ballot_items().contains(i)).unwrap();
    assert_eq!(
        s.record_win(out, s.ballot_items()[0]),
        Err(BallotError::NotInBallot {
            item: out,
            ballot: 2
        })
    );
}

#[test]
fn withdraw_counts_only_voted_comparisons() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut s = Scheduler::new(BallotConfig::new(4, 4, 0.5, 1).unwrap());
    let c = s.open_ballot(&mut rng).unwrap().to_vec();
    // Vote on the first round only (2 comparisons covering the 4 items):
    // everyone has one vote.
    s.record(0, Vote::First).unwrap();
    s.record(1, Vote::Tie).unwrap();
    let h = s.close_ballot(Unvoted::Withdraw).unwrap();
    assert_eq!(h.votes, 2);
    assert_eq!(h.withdrawn, 6);
    assert_eq!(h.appearances, vec![1; 4]);
    assert_eq!(h.x[c[0].first], 1.0);
    assert_eq!(h.x[c[0].second], 0.0);
    assert_eq!(h.x[c[1].first], 0.5);
}

#[test]
fn value_stability() {
    // Pinned with ChaCha8Rng (rand 0.9); a change is value-breaking.
    let s = run(BallotConfig::new(12, 4, 0.5, 3).unwrap(), 77);
    let r = s.ranking(&mut ChaCha8Rng::seed_from_u64(78)).unwrap();
    assert_eq!(r.items(), PINNED_RANKING);
    let b: Vec<f64> = s.history().iter().map(|h| h.b_hat).collect();
    assert_eq!(b, PINNED_B_HAT);
}

const PINNED_RANKING: [usize; 12] = [0, 1, 9, 2, 7, 4, 3, 6, 10, 5, 8, 11];
const PINNED_B_HAT: [f64; 3] = [1.0, 0.25, 0.168_918_918_918_918_91];

/// Slow oracle: recompute x, b̂, y, ȳ from the logs with plain loops.
fn check_against_oracle(s: &Scheduler) {
    let n = s.config().n_items();
    let from_second = s.config().options() == Options::published();
    let mut y_hist: Vec<Vec<Option<f64>>> = vec![Vec::new(); n];
    let mut last_y_bar = vec![f64::NAN; n];
    for (k, (log, h)) in s.logs().iter().zip(s.history()).enumerate() {
        let mut num = vec![0.0; n];
        let mut den = vec![0.0; n];
        for (c, v) in log.comparisons().iter().zip(log.votes()) {
            let Some(v) = v else { continue };
            den[c.first] += 1.0;
            den[c.second] += 1.0;
            match v {
                Vote::First => num[c.first] += 1.0,
                Vote::Second => num[c.second] += 1.0,
                Vote::Tie => {
                    num[c.first] += 0.5;
                    num[c.second] += 0.5;
                }
            }
        }
        let x: Vec<f64> = log.items().iter().map(|&i| num[i] / den[i]).collect();
        assert_eq!(x, h.x);
        let b = if k == 0 {
            1.0
        } else {
            let mut a = 0.0;
            let mut d = 0.0;
            for (p, &i) in log.items().iter().enumerate() {
                a += (1.0 - x[p]) * (1.0 - last_y_bar[i]);
                d += (1.0 - x[p]) * (1.0 - x[p]);
            }
            a / d
        };
        assert!(
            (b - h.b_hat).abs() <= 1e-12 * b.abs().max(1.0),
            "b̂ {b} vs {}",
            h.b_hat
        );
        for (p, &i) in log.items().iter().enumerate() {
            let y = 1.0 - b + b * x[p];
            assert!((y - h.y[p]).abs() < 1e-12);
            y_hist[i].push(Some(y));
            let counted: Vec<f64> = y_hist[i]
                .iter()
                .skip(usize::from(from_second && k > 0))
                .flatten()
                .copied()
                .collect();
            let yb = counted.iter().sum::<f64>() / counted.len() as f64;
            assert!((yb - h.y_bar[p]).abs() < 1e-12);
            last_y_bar[i] = h.y_bar[p];
        }
        // Selection: the next ballot's items are the best on the chosen key.
        if let Some(next) = s.logs().get(k + 1) {
            let key = |p: usize| if from_second { h.x[p] } else { h.y_bar[p] };
            let (mut kept, mut dropped) = (f64::INFINITY, f64::NEG_INFINITY);
            for (p, i) in h.items.iter().enumerate() {
                if next.items().contains(i) {
                    kept = kept.min(key(p));
                } else {
                    dropped = dropped.max(key(p));
                }
            }
            assert!(kept >= dropped);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn full_runs_match_the_oracle(n in 2usize..70, m in 1usize..7, alpha in 0.2f64..0.95, nb in 1usize..5, seed: u64, published: bool) {
        let options = if published { Options::published() } else { Options::paper() };
        let Ok(config) = BallotConfig::with_options(n, m, alpha, nb, options) else { return Ok(()) };
        let s = run(config, seed);
        let p = plan(&config);
        prop_assert_eq!(s.logs().len(), nb);
        for (k, log) in s.logs().iter().enumerate() {
            prop_assert_eq!(log.items().len(), p.sizes[k]);
            prop_assert_eq!(log.comparisons().len() as u64, p.comparisons[k]);
            let mut count = vec![0usize; n];
            for c in log.comparisons() {
                prop_assert!(c.first != c.second);
                count[c.first] += 1;
                count[c.second] += 1;
            }
            let extra = log.items().iter().filter(|&&i| count[i] == m + 1).count();
            let exact = log.items().iter().filter(|&&i| count[i] == m).count();
            prop_assert_eq!(extra, usize::from(p.sizes[k] * m % 2 == 1));
            prop_assert_eq!(exact + extra, p.sizes[k]);
        }
        check_against_oracle(&s);
    }
}

/// One operation of the never-lose-a-vote property.
#[derive(Debug, Clone)]
enum Op {
    Open,
    Ticket(usize, u8),
    Win(usize, usize),
    Tie(usize, usize),
    Close(bool),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => Just(Op::Open),
        6 => (0usize..40, 0u8..4).prop_map(|(t, v)| Op::Ticket(t, v)),
        4 => (0usize..12, 0usize..12).prop_map(|(a, b)| Op::Win(a, b)),
        2 => (0usize..12, 0usize..12).prop_map(|(a, b)| Op::Tie(a, b)),
        1 => any::<bool>().prop_map(Op::Close),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_operations_never_lose_a_vote(ops in prop::collection::vec(op(), 0..200), seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = Scheduler::new(BallotConfig::new(10, 3, 0.6, 3).unwrap());
        let mut accepted = 0u64;
        for op in ops {
            let before = s.total_votes();
            let ok = match op {
                Op::Open => {
                    let _ = s.open_ballot(&mut rng);
                    false
                }
                Op::Ticket(t, v) => {
                    let v = [Vote::First, Vote::Second, Vote::Tie, Vote::First][usize::from(v)];
                    s.record(t, v).is_ok()
                }
                Op::Win(a, b) => s.record_win(a, b).is_ok(),
                Op::Tie(a, b) => s.record_tie(a, b).is_ok(),
                Op::Close(strict) => {
                    let policy = if strict { Unvoted::Reject } else { Unvoted::Withdraw };
                    let _ = s.close_ballot(policy);
                    false
                }
            };
            accepted += u64::from(ok);
            prop_assert_eq!(s.total_votes(), before + u64::from(ok));
            prop_assert_eq!(s.total_votes(), accepted);
        }
        // Every counted vote is in the logs and the tallies agree.
        let logged: usize = s.logs().iter().map(|l| l.votes().iter().flatten().count()).sum();
        prop_assert_eq!(logged as u64, accepted);
        for h in s.history() {
            prop_assert_eq!(h.appearances.iter().sum::<u64>(), 2 * h.votes);
            let wins: f64 = h.wins.iter().sum();
            prop_assert_eq!(wins, h.votes as f64);
        }
    }
}
