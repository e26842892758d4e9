//! The engine alone: leases, answers, stopping, the figures it keeps, and
//! restarts from what it queued for the store (an in-memory store,
//! `Loaded::replay`).

use adaptive_comp_metrics::ballot::{BallotConfig, ExclusionRule, TaskId, Vote};
use proptest::prelude::*;

use super::{Accepted, Done, Engine, Next, Policy, Refusal};
use crate::store::Loaded;
use crate::testing::{Step, campaign, drive};

fn policy(quota: Option<usize>) -> Policy {
    Policy {
        quota,
        lease_ms: 60_000,
        rule: None,
    }
}

/// An engine on a fresh campaign of `n` items, M = 2, two ballots.
fn engine(n: usize, quota: Option<usize>) -> Engine {
    let f = campaign(BallotConfig::new(n, 2, 0.5, 2).unwrap(), 0.0, 3).unwrap();
    Engine::new(Loaded::replay(f, &[]).unwrap(), policy(quota), 0)
}

fn arrive(e: &mut Engine, name: &str) -> u32 {
    e.worker(name, "PROLIFIC_PID", &serde_json::Value::Null, 0)
}

fn task(n: Next) -> TaskId {
    match n {
        Next::Task { task, .. } => task,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_task_goes_to_one_worker_and_comes_back_on_reload() {
    let mut e = engine(8, None);
    let (a, b) = (arrive(&mut e, "a"), arrive(&mut e, "b"));
    let t = task(e.next(a, 0));
    assert_eq!(task(e.next(a, 1)), t, "a reload gives the same task");
    let u = task(e.next(b, 1));
    assert_ne!(t, u);
    assert_eq!(e.answer(b, t, Vote::First, 2), Err(Refusal::NotLeased));
    assert_eq!(e.answer(a, t, Vote::First, 2), Ok(Accepted::Recorded));
    assert_eq!(e.answer(a, t, Vote::First, 3), Ok(Accepted::Again));
    assert_eq!(e.answer(a, t, Vote::Second, 3), Err(Refusal::Changed));
    let bad = TaskId {
        ballot: 1,
        position: 999,
    };
    assert_eq!(e.answer(a, bad, Vote::First, 3), Err(Refusal::UnknownTask));
    assert_eq!(e.live_leases(3), 1, "b's lease; a's ended with the answer");
}

#[test]
fn a_lease_runs_out_and_passes_to_another_worker() {
    let mut e = engine(8, None);
    let (a, b) = (arrive(&mut e, "a"), arrive(&mut e, "b"));
    let t = task(e.next(a, 0));
    // Past the lease, b takes the first free task: a's.
    assert_eq!(task(e.next(b, 60_001)), t);
    assert_eq!(e.answer(a, t, Vote::First, 60_002), Err(Refusal::NotLeased));
}

#[test]
fn stopping_gives_the_task_back_and_says_whether_the_work_is_partial() {
    let mut e = engine(8, Some(3));
    let (a, b) = (arrive(&mut e, "a"), arrive(&mut e, "b"));
    let t = task(e.next(a, 0));
    let f = e.finish(a, 10);
    assert!(f.partial, "0 of 3 answered");
    assert_eq!(e.live_leases(10), 0);
    assert_eq!(task(e.next(b, 11)), t);
    assert!(matches!(
        e.next(a, 12),
        Next::Done {
            why: Done::Stopped,
            ..
        }
    ));
    assert_eq!(e.done_state(a), Some(Done::Stopped));
    assert_eq!(e.done_state(b), None);
    // Stopping again keeps the first.
    assert_eq!(e.finish(a, 99), f);
    // At the quota, stopping is not partial.
    for k in 0..3 {
        let t = task(e.next(b, 20 + k));
        e.answer(b, t, Vote::First, 20 + k).unwrap();
    }
    assert_eq!(e.done_state(b), Some(Done::Quota));
    assert!(!e.finish(b, 30).partial);
}

#[test]
fn close_check_names_the_items_without_a_vote() {
    let mut e = engine(4, None); // 4 comparisons over 4 items
    let k = e.close_check().unwrap();
    assert_eq!(
        (k.ballot, k.comparisons, k.without_vote, k.items),
        (1, 4, 4, 4)
    );
    assert_eq!(k.unvoted_items.len(), 4);
    assert!(!k.can_withdraw());
    let a = arrive(&mut e, "a");
    let t = task(e.next(a, 0));
    let v = e.file.campaign.task(t).unwrap();
    e.answer(a, t, Vote::First, 1).unwrap();
    let k = e.close_check().unwrap();
    assert_eq!(k.without_vote, 3);
    assert_eq!(k.unvoted_items.len(), 2);
    assert!(!k.unvoted_items.contains(&v.first) && !k.unvoted_items.contains(&v.second));
}

#[test]
fn restarting_from_the_queued_operations_gives_the_same_engine() {
    let f = campaign(BallotConfig::new(12, 2, 0.5, 2).unwrap(), 0.25, 9).unwrap();
    let steps = [
        Step::Arrive(0),
        Step::Arrive(1),
        Step::Next(0),
        Step::Answer {
            worker: 0,
            pick: 0,
            vote: 0,
        },
        Step::Next(0),
        Step::Next(1),
        Step::Restart,
        Step::Answer {
            worker: 1,
            pick: 0,
            vote: 1,
        },
        Step::Finish(0),
        Step::Restart,
        Step::Wait(255),
        Step::Restart,
    ];
    let ran = drive(f, policy(Some(5)), &steps).unwrap();
    assert_eq!((ran.recorded, ran.restarts), (2, 3));
}

#[test]
fn a_whole_campaign_runs_through_the_driver() {
    // Two workers answer in turn until every ballot is closed.
    let f = campaign(BallotConfig::new(8, 2, 0.5, 2).unwrap(), 0.0, 4).unwrap();
    let mut steps = vec![Step::Arrive(0), Step::Arrive(1)];
    for k in 0..40 {
        let w = k % 2;
        steps.push(Step::Next(w));
        steps.push(Step::Answer {
            worker: w,
            pick: 0,
            vote: w,
        });
        if k % 7 == 0 {
            steps.push(Step::Restart);
        }
    }
    let ran = drive(f, policy(None), &steps).unwrap();
    assert_eq!(
        (ran.recorded, ran.closed),
        (12, 2),
        "8 + 4 comparisons, 2 ballots"
    );
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => (0u8..6).prop_map(Step::Arrive),
        4 => (0u8..6).prop_map(Step::Next),
        4 => (0u8..6, prop_oneof![3 => Just(0u16), 1 => 1u16..40], 0u8..3)
            .prop_map(|(worker, pick, vote)| Step::Answer { worker, pick, vote }),
        1 => (0u8..6).prop_map(Step::Finish),
        1 => (0u8..6).prop_map(Step::Exclude),
        1 => Just(Step::Close),
        1 => (0u8..=255).prop_map(Step::Wait),
        1 => Just(Step::Restart),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of requests: no panic, no answer acknowledged twice,
    /// acknowledged answers stored, the engine's figures the library's,
    /// restarts faithful (`testing::drive` checks each).
    #[test]
    fn any_sequence_of_requests_keeps_the_invariants(
        steps in prop::collection::vec(step(), 1..120),
        quota in prop_oneof![Just(None), (1usize..6).prop_map(Some)],
        rule in any::<bool>(),
        seed in 0u64..1000,
    ) {
        let f = campaign(BallotConfig::new(10, 2, 0.5, 3).unwrap(), 0.2, seed).unwrap();
        let p = Policy {
            quota,
            lease_ms: 20_000,
            rule: rule.then(|| ExclusionRule::new(0.75, 2).unwrap()),
        };
        let r = drive(f, p, &steps);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn a_workers_first_task_is_not_a_control_pair() {
    // Controls at half the tasks: the layout starts with some.
    let f = campaign(BallotConfig::new(16, 2, 0.5, 2).unwrap(), 0.5, 11).unwrap();
    let mut e = Engine::new(Loaded::replay(f, &[]).unwrap(), policy(None), 0);
    let control = |e: &Engine, t: TaskId| {
        matches!(
            e.file.campaign.task(t).unwrap().task,
            adaptive_comp_metrics::ballot::Task::Control { .. }
        )
    };
    let layout_starts_with_a_control = (0..3).any(|p| {
        control(
            &e,
            TaskId {
                ballot: 1,
                position: p,
            },
        )
    });
    assert!(
        layout_starts_with_a_control,
        "the test needs controls early"
    );
    let mut controls_later = 0;
    for k in 0..6 {
        let w = arrive(&mut e, &format!("w{k}"));
        let first = task(e.next(w, 0));
        assert!(!control(&e, first), "worker {k} starts with a control pair");
        e.answer(w, first, Vote::First, 1).unwrap();
        for _ in 0..4 {
            if let Next::Task { task: t, .. } = e.next(w, 2) {
                controls_later += usize::from(control(&e, t));
                e.answer(w, t, Vote::First, 3).unwrap();
            }
        }
    }
    assert!(
        controls_later > 0,
        "control pairs still come after the first"
    );
}

/// The dashboard's fit: due after the first vote, marked underway while a
/// thread runs it (the status says so, and no second fit is handed out),
/// then shown; a fit that could not be started is due again.
#[test]
fn a_fit_underway_is_shown_as_such_and_handed_out_once() {
    use crate::status::FittedInfo;
    let mut e = engine(8, None);
    assert!(e.fit_due(0).is_none(), "no vote yet");
    assert!(e.status(None, 0).fitted.is_none());
    let a = arrive(&mut e, "a");
    let t = task(e.next(a, 0));
    assert_eq!(e.answer(a, t, Vote::First, 1), Ok(Accepted::Recorded));
    let job = e.fit_due(2).expect("due after the first vote");
    assert!(e.fitting());
    assert!(e.fit_due(3).is_none(), "one fit at a time");
    assert!(matches!(
        e.status(None, 3).fitted,
        Some(FittedInfo::Underway { underway: true })
    ));
    e.fit_abandoned();
    assert!(!e.fitting());
    drop(job);
    let job = e.fit_due(4).expect("due again once abandoned");
    e.fit_done(job.run(4));
    assert!(!e.fitting());
    assert!(matches!(
        e.status(None, 5).fitted,
        Some(FittedInfo::Ranked { .. })
    ));
    assert!(e.fit_due(6).is_none(), "the same votes: cached");
}
