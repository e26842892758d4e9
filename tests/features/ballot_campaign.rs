//! The library side of a crowd campaign: task layouts, answers, worker
//! statistics against slow oracles, exclusions, saving and restoring.
#![cfg(feature = "scheduler")]

use adaptive_comp_metrics::ballot::{
    Answer, AnswerError, BallotConfig, BallotError, Campaign, ControlPair, ExclusionRule,
    ImportMode, LayoutOptions, Outcome, Scheduler, Task, TaskId, Unvoted, Vote,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn vote_from(r: u8) -> Vote {
    match r % 3 {
        0 => Vote::First,
        1 => Vote::Second,
        _ => Vote::Tie,
    }
}

/// A campaign over `n` items, M = 3, α = 0.5, 2 ballots, two control pairs,
/// a fifth of the tasks controls, ballot 1 open.
fn small(n: usize, seed: u64) -> (Campaign, ChaCha8Rng, ChaCha8Rng) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lrng = ChaCha8Rng::seed_from_u64(seed ^ 0xff);
    let controls = vec![
        ControlPair::new(0, n - 1, Vote::First).unwrap(),
        ControlPair::new(n - 2, 1, Vote::Second).unwrap(),
    ];
    let mut c = Campaign::new(
        Scheduler::new(BallotConfig::new(n, 3, 0.5, 2).unwrap()),
        controls,
        LayoutOptions::new(0.2, None).unwrap(),
    )
    .unwrap();
    c.open_ballot(&mut rng, &mut lrng).unwrap();
    (c, rng, lrng)
}

#[test]
fn construction_is_validated() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let config = BallotConfig::new(10, 2, 0.5, 2).unwrap();
    let mut started = Scheduler::new(config);
    started.open_ballot(&mut rng).unwrap();
    assert!(matches!(
        Campaign::new(started, vec![], LayoutOptions::plain()),
        Err(BallotError::InvalidParameter {
            name: "scheduler",
            ..
        })
    ));
    assert!(matches!(
        Campaign::new(
            Scheduler::new(config),
            vec![],
            LayoutOptions::new(0.1, None).unwrap()
        ),
        Err(BallotError::InvalidParameter {
            name: "controls",
            ..
        })
    ));
    let mut c = Campaign::new(Scheduler::new(config), vec![], LayoutOptions::plain()).unwrap();
    assert!(
        c.set_layout_options(LayoutOptions::new(0.1, None).unwrap())
            .is_err()
    );
    assert_eq!(c.layout_options(), LayoutOptions::plain());
    // Nothing open yet: answers are unknown tasks, exclusions impossible.
    let t = TaskId {
        ballot: 1,
        position: 0,
    };
    assert_eq!(
        c.answer(t, "w", Vote::First),
        Err(AnswerError::UnknownTask { task: t })
    );
    assert!(
        c.exclude_workers(&ExclusionRule::new(0.5, 1).unwrap())
            .is_err()
    );
    assert!(ControlPair::new(2, 2, Vote::Tie).is_err());
    // Too many control tasks: refused before anything is drawn.
    let mut c = Campaign::new(
        Scheduler::new(config),
        vec![ControlPair::new(0, 1, Vote::First).unwrap()],
        LayoutOptions::new(1.0 - 1e-12, None).unwrap(),
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut lrng = ChaCha8Rng::seed_from_u64(2);
    assert!(matches!(
        c.open_ballot(&mut rng, &mut lrng),
        Err(BallotError::TooLarge {
            quantity: "control tasks",
            ..
        })
    ));
    assert_eq!(c.open_ballot_number(), None);
    assert_eq!(rng, ChaCha8Rng::seed_from_u64(1));
    assert!(ExclusionRule::new(f64::NAN, 1).is_err());
    assert_eq!(ExclusionRule::new(0.5, 0).unwrap().min_controls(), 1);
}

#[test]
fn controls_never_change_the_collection() {
    // The same ballot generator with and without controls: same comparisons.
    let mut with = small(12, 4).0;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut plain = Scheduler::new(BallotConfig::new(12, 3, 0.5, 2).unwrap());
    let comparisons = plain.open_ballot(&mut rng).unwrap().to_vec();
    assert_eq!(with.scheduler().comparisons(), &comparisons[..]);
    // 18 comparisons, rate 0.2: round(0.2·18/0.8) = round(4.5) = 5 controls.
    assert_eq!(with.layout(1).unwrap().n_controls(), 5);
    let views: Vec<_> = with.tasks().collect();
    assert_eq!(views.len(), 23);
    let mut tickets = 0;
    for v in &views {
        match v.task {
            Task::Comparison { ticket } => {
                assert_eq!(ticket, tickets);
                assert_eq!(
                    (v.first, v.second),
                    (comparisons[ticket].first, comparisons[ticket].second)
                );
                tickets += 1;
            }
            Task::Control { pair, swapped } => {
                let p = with.controls()[pair];
                let shown = if swapped {
                    (p.second, p.first)
                } else {
                    (p.first, p.second)
                };
                assert_eq!((v.first, v.second), shown);
            }
        }
    }
    // Answering only the comparisons closes the ballot: controls are not votes.
    for v in views {
        if let Task::Comparison { .. } = v.task {
            with.answer(v.id, "w", Vote::First).unwrap();
        }
    }
    assert_eq!(with.scheduler().pending(), 0);
    with.close_ballot(Unvoted::Reject).unwrap();
}

#[test]
fn answers_are_judged_one_by_one() {
    let (mut c, mut rng, mut lrng) = small(10, 1);
    let t0 = TaskId {
        ballot: 1,
        position: 0,
    };
    assert_eq!(c.answer(t0, "", Vote::First), Err(AnswerError::EmptyWorker));
    assert_eq!(c.answer(t0, "ann", Vote::First), Ok(Outcome::Recorded));
    assert_eq!(
        c.answer(t0, "ann", Vote::First),
        Ok(Outcome::AlreadyRecorded)
    );
    assert_eq!(
        c.answer(t0, "ann", Vote::Second),
        Err(AnswerError::AlreadyAnswered {
            task: t0,
            worker: "ann".into(),
            vote: Vote::First
        })
    );
    assert!(matches!(
        c.answer(t0, "bob", Vote::First),
        Err(AnswerError::AlreadyAnswered { .. })
    ));
    let past = TaskId {
        ballot: 1,
        position: c.layout(1).unwrap().len(),
    };
    assert_eq!(
        c.answer(past, "bob", Vote::First),
        Err(AnswerError::UnknownTask { task: past })
    );
    assert_eq!(c.answer_of(t0), Some(("ann", Vote::First)));
    // Close with withdrawals, then answers to ballot 1 are refused unless recorded.
    let ids: Vec<TaskId> = c.tasks().map(|v| v.id).collect();
    for &id in &ids[1..] {
        c.answer(id, "bob", Vote::Tie).unwrap();
    }
    c.close_ballot(Unvoted::Reject).unwrap();
    c.open_ballot(&mut rng, &mut lrng).unwrap();
    assert_eq!(
        c.answer(t0, "ann", Vote::First),
        Ok(Outcome::AlreadyRecorded)
    );
    assert_eq!(
        c.answer(t0, "bob", Vote::First),
        Err(AnswerError::BallotClosed { task: t0 })
    );
    assert_eq!(c.workers(), &["ann".to_owned(), "bob".to_owned()]);
}

#[test]
fn batches_are_all_or_nothing_and_idempotent() {
    let (mut c, _, _) = small(10, 2);
    let ids: Vec<TaskId> = c.tasks().map(|v| v.id).collect();
    let a = |i: usize, w: &str, v| Answer {
        task: ids[i],
        worker: w.into(),
        vote: v,
    };
    let batch = vec![
        a(0, "x", Vote::First),
        a(1, "y", Vote::Second),
        a(0, "z", Vote::First),
    ];
    let r = c.import(&batch, ImportMode::AllOrNothing);
    assert!(!r.applied);
    assert_eq!(r.recorded, 0);
    assert_eq!(
        r.refused,
        vec![(
            2,
            AnswerError::Duplicate {
                task: ids[0],
                first: 0
            }
        )]
    );
    assert_eq!(c.scheduler().total_votes(), 0);
    assert!(c.workers().is_empty());
    let r = c.import(&batch, ImportMode::SkipRefused);
    assert!(r.applied);
    assert_eq!((r.recorded, r.refused.len()), (2, 1));
    // Importing the good part again records nothing new.
    let r = c.import(&batch[..2], ImportMode::AllOrNothing);
    assert_eq!((r.recorded, r.already_recorded, r.applied), (0, 2, true));
}

#[test]
fn accuracy_and_exclusion_by_hand() {
    let (mut c, _, _) = small(10, 3);
    let views: Vec<_> = c.tasks().collect();
    // "good" answers every control rightly, "bad" wrongly; comparisons split.
    for (k, v) in views.iter().enumerate() {
        let (worker, vote) = match v.task {
            Task::Control { pair, swapped } => {
                let p = c.controls()[pair];
                let right = if swapped {
                    p.answer_when_swapped()
                } else {
                    p.answer
                };
                let wrong = if right == Vote::First {
                    Vote::Second
                } else {
                    Vote::First
                };
                if k % 2 == 0 {
                    ("good", right)
                } else {
                    ("bad", wrong)
                }
            }
            Task::Comparison { .. } => (if k % 2 == 0 { "good" } else { "bad" }, Vote::First),
        };
        c.answer(v.id, worker, vote).unwrap();
    }
    let stats = c.worker_stats();
    let good = stats.iter().find(|s| s.worker == "good").unwrap();
    let bad = stats.iter().find(|s| s.worker == "bad").unwrap();
    let controls = views
        .iter()
        .filter(|v| matches!(v.task, Task::Control { .. }))
        .count() as u64;
    assert_eq!(good.controls + bad.controls, controls);
    assert_eq!(good.accuracy(), Some(1.0));
    assert_eq!(bad.accuracy(), Some(0.0));
    let bad_votes = bad.votes;
    let pending = c.scheduler().pending();
    // Too few controls for a verdict: nobody excluded.
    let too_many = bad.controls + 1;
    assert!(
        c.exclude_workers(&ExclusionRule::new(0.5, too_many).unwrap())
            .unwrap()
            .is_empty()
    );
    let out = c
        .exclude_workers(&ExclusionRule::new(0.5, 1).unwrap())
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].worker, "bad");
    assert_eq!(out[0].discarded, bad_votes + out[0].controls);
    assert_eq!(out[0].accuracy(), Some(0.0));
    // The votes are retracted and the tasks free again.
    assert_eq!(c.scheduler().pending(), pending + bad_votes as usize);
    assert_eq!(c.discarded(1).count() as u64, out[0].discarded);
    let (task, _, _) = c.discarded(1).next().unwrap();
    assert_eq!(
        c.answer(task, "bad", Vote::First),
        Ok(Outcome::FromExcludedWorker)
    );
    assert_eq!(c.answer(task, "good", Vote::First), Ok(Outcome::Recorded));
    // The excluded worker keeps their accuracy on record; a second call excludes nobody.
    let stats = c.worker_stats();
    let bad = stats.iter().find(|s| s.worker == "bad").unwrap();
    assert_eq!((bad.votes, bad.excluded_at), (0, Some(1)));
    assert_eq!(bad.accuracy(), Some(0.0));
    assert!(
        c.exclude_workers(&ExclusionRule::new(0.5, 1).unwrap())
            .unwrap()
            .is_empty()
    );
    assert_eq!(c.exclude_worker("bad").unwrap(), None);
    assert_eq!(c.exclude_worker("nobody").unwrap(), None);
    assert_eq!(c.exclusions().len(), 1);
    let status = c.ballot_status();
    assert_eq!(status[0].discarded as u64, out[0].discarded);
    assert_eq!(status[0].missing, pending + bad_votes as usize - 1);
}

/// Agreement by brute force: the other workers' Borda scores of the ballot,
/// recomputed for every vote by a scan of all votes.
fn agreement_oracle(votes: &[(usize, usize, usize, Vote)], worker: usize) -> (u64, f64) {
    let score = |item: usize| -> Option<f64> {
        let (mut n, mut m) = (0.0, 0u64);
        for &(w, a, b, v) in votes {
            if w == worker || (a != item && b != item) {
                continue;
            }
            m += 1;
            n += match (v, a == item) {
                (Vote::Tie, _) => 0.5,
                (Vote::First, true) | (Vote::Second, false) => 1.0,
                _ => 0.0,
            };
        }
        (m > 0).then(|| n / m as f64)
    };
    let (mut counted, mut sum) = (0u64, 0.0);
    for &(w, a, b, v) in votes {
        if w != worker {
            continue;
        }
        let (Some(xa), Some(xb)) = (score(a), score(b)) else {
            continue;
        };
        counted += 1;
        sum += match v {
            Vote::Tie => 0.5,
            _ if xa == xb => 0.5,
            Vote::First => f64::from(u8::from(xa > xb)),
            Vote::Second => f64::from(u8::from(xb > xa)),
        };
    }
    (counted, sum)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn agreement_matches_the_oracle(n in 4usize..14, seed: u64, workers in 1usize..5, answered in 0.3f64..1.0) {
        let (mut c, mut rng, _) = small(n, seed);
        let mut votes = Vec::new();
        let views: Vec<_> = c.tasks().collect();
        for v in views {
            if rng.random::<f64>() > answered {
                continue;
            }
            let w = rng.random_range(0..workers);
            let vote = vote_from(rng.random());
            c.answer(v.id, &format!("w{w}"), vote).unwrap();
            if let Task::Comparison { .. } = v.task {
                votes.push((w, v.first, v.second, vote));
            }
        }
        for s in c.worker_stats() {
            let w: usize = s.worker[1..].parse().unwrap();
            let (counted, sum) = agreement_oracle(&votes, w);
            prop_assert_eq!(s.agreement_votes, counted);
            prop_assert_eq!(s.agreement_doubled as f64 / 2.0, sum);
            prop_assert_eq!(s.votes as usize, votes.iter().filter(|v| v.0 == w).count());
        }
    }

    #[test]
    fn retract_then_record_equals_recording_once(n in 2usize..20, seed: u64, flips in proptest::collection::vec((0usize..200, 0u8..3), 0..40)) {
        let config = BallotConfig::new(n, 3, 0.5, 1).unwrap();
        let mut a = Scheduler::new(config);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let c = a.open_ballot(&mut rng).unwrap().len();
        let mut b = a.clone();
        let mut final_votes: Vec<Vote> = (0..c).map(|t| vote_from(t as u8)).collect();
        for (t, v) in final_votes.iter().enumerate() {
            a.record(t, *v).unwrap();
        }
        for (t, v) in flips {
            let t = t % c;
            let old = a.retract(t).unwrap();
            prop_assert_eq!(old, final_votes[t]);
            prop_assert_eq!(a.retract(t), Err(BallotError::NotVoted { ticket: t, ballot: 1 }));
            final_votes[t] = vote_from(v);
            a.record(t, final_votes[t]).unwrap();
        }
        for (t, v) in final_votes.iter().enumerate() {
            b.record(t, *v).unwrap();
        }
        let sa = a.close_ballot(Unvoted::Reject).unwrap().clone();
        let sb = b.close_ballot(Unvoted::Reject).unwrap().clone();
        prop_assert_eq!(sa, sb);
        prop_assert!(a.retract(0).is_err());
    }
}

#[cfg(feature = "serde")]
mod saved {
    use super::*;

    fn round_trip(c: &Campaign) -> Campaign {
        let json = serde_json::to_string(c).unwrap();
        let back: Campaign = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        back
    }

    fn same(a: &Campaign, b: &Campaign) {
        assert_eq!(a.scheduler().history(), b.scheduler().history());
        assert_eq!(a.scheduler().logs(), b.scheduler().logs());
        assert_eq!(a.ballot_status(), b.ballot_status());
        assert_eq!(a.worker_stats(), b.worker_stats());
        assert_eq!(a.exclusions(), b.exclusions());
        assert_eq!(a.workers(), b.workers());
    }

    #[test]
    fn restored_at_every_step_is_identical() {
        let (mut c, mut rng, mut lrng) = small(16, 9);
        let mut vote_rng = ChaCha8Rng::seed_from_u64(1);
        for ballot in 0..2 {
            let views: Vec<_> = c.tasks().collect();
            for (k, v) in views.iter().enumerate() {
                c.answer(v.id, &format!("w{}", k % 3), vote_from(vote_rng.random()))
                    .unwrap();
                if k % 7 == 0 {
                    let back = round_trip(&c);
                    same(&c, &back);
                }
            }
            c.exclude_workers(&ExclusionRule::new(0.6, 1).unwrap())
                .unwrap();
            same(&c, &round_trip(&c));
            // A late worker takes the tasks the exclusions freed.
            let free: Vec<TaskId> = c
                .tasks()
                .filter(|v| c.answer_of(v.id).is_none())
                .map(|v| v.id)
                .collect();
            for id in free {
                assert_eq!(
                    c.answer(id, &format!("late{ballot}"), Vote::Tie),
                    Ok(Outcome::Recorded)
                );
            }
            same(&c, &round_trip(&c));
            c.close_ballot(Unvoted::Reject).unwrap();
            let mut back = round_trip(&c);
            same(&c, &back);
            let (mut r2, mut l2) = (rng.clone(), lrng.clone());
            if c.open_ballot(&mut rng, &mut lrng).is_ok() {
                back.open_ballot(&mut r2, &mut l2).unwrap();
                same(&c, &back);
            }
        }
        let back = round_trip(&c);
        let mut r2 = rng.clone();
        assert_eq!(c.ranking(&mut rng).unwrap(), back.ranking(&mut r2).unwrap());
    }

    #[test]
    fn tampered_states_are_refused() {
        let (mut c, _, _) = small(10, 5);
        let ids: Vec<TaskId> = c.tasks().map(|v| v.id).collect();
        c.answer(ids[0], "ann", Vote::First).unwrap();
        c.answer(ids[1], "bob", Vote::Second).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
            let mut t = v.clone();
            f(&mut t);
            serde_json::from_value::<Campaign>(t)
                .unwrap_err()
                .to_string()
        };
        type Tamper = Box<dyn Fn(&mut serde_json::Value)>;
        let cases: Vec<(Tamper, &str)> = vec![
            (
                Box::new(|t| t["version"] = 2.into()),
                "unknown campaign state version",
            ),
            (
                Box::new(|t| t["workers"][1] = "ann".into()),
                "distinct and non-empty",
            ),
            (
                Box::new(|t| t["workers"][0] = "".into()),
                "distinct and non-empty",
            ),
            (
                Box::new(|t| t["ballots"][0]["workers"][0] = 7.into()),
                "unknown worker",
            ),
            (
                Box::new(|t| t["ballots"][0]["workers"] = serde_json::json!([0])),
                "fewer workers than answers",
            ),
            (
                Box::new(|t| t["ballots"][0]["workers"] = serde_json::json!([0, 1, 0])),
                "more workers than answers",
            ),
            (
                Box::new(|t| t["ballots"][0]["answers"] = "FS".into()),
                "do not match the tasks",
            ),
            (
                Box::new(|t| {
                    let a = t["ballots"][0]["answers"]
                        .as_str()
                        .unwrap()
                        .replacen('.', "Q", 1);
                    t["ballots"][0]["answers"] = a.into();
                }),
                "not one of . F S T",
            ),
            (
                Box::new(|t| {
                    t["ballots"][0]["pairs"]
                        .as_array_mut()
                        .unwrap()
                        .pop()
                        .map(|_| ())
                        .unwrap()
                }),
                "multiple of its record",
            ),
            (
                Box::new(|t| t["ballots"][0]["controls"][1] = 5.into()),
                "control placements",
            ),
            (
                Box::new(|t| t["ballots"][0]["controls"][2] = 3.into()),
                "swap flag",
            ),
            (
                Box::new(|t| t["ballots"][0]["pairs"][0] = t["ballots"][0]["pairs"][1].clone()),
                "itself",
            ),
            (
                Box::new(|t| t["ballots"][0]["closed"] = true.into()),
                "without votes",
            ),
            (
                Box::new(
                    |t| t["exclusions"] = serde_json::json!([{"worker": "zed", "ballot": 1, "controls": 1, "correct": 0, "discarded": 0}]),
                ),
                "unknown worker",
            ),
            (
                Box::new(
                    |t| t["exclusions"] = serde_json::json!([{"worker": "ann", "ballot": 1, "controls": 1, "correct": 0, "discarded": 0}]),
                ),
                "excluded worker has a counted answer",
            ),
            (
                Box::new(|t| t["ballots"][0]["discarded"] = serde_json::json!([0, 0, 0])),
                "discarded answer is inconsistent",
            ),
            (
                Box::new(|t| t["layout"]["control_rate"] = 2.0.into()),
                "control_rate",
            ),
            (
                Box::new(|t| t["controls"][0]["second"] = t["controls"][0]["first"].clone()),
                "itself",
            ),
        ];
        for (f, expected) in cases {
            let e = tamper(&*f);
            assert!(e.contains(expected), "{expected:?} not in {e:?}");
        }
    }
}
