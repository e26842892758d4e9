//! A small campaign for the engine's tests and the fuzz targets: a
//! [`BallotConfig`] (`n` items, M, α, ballots), control pairs (item j beats item n − 1 − j) at a rate, ballot
//! 1 open, as `acm campaign init` would make it.

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Scheduler, Vote,
};
use std::collections::HashSet;

use adaptive_comp_metrics::ballot::{TaskId, Unvoted};

use crate::engine::{Accepted, Engine, Next, Policy, Tally};
use crate::store::{Loaded, Op};

use crate::state::{CampaignFile, Table};

/// The campaign of `config`; `None` for a control rate the library refuses.
pub(crate) fn campaign(config: BallotConfig, control_rate: f64, seed: u64) -> Option<CampaignFile> {
    let n = config.n_items();
    let controls: Vec<ControlPair> = if control_rate > 0.0 && n >= 2 {
        (0..3.min(n / 2))
            .filter_map(|j| ControlPair::new(j, n - 1 - j, Vote::First).ok())
            .collect()
    } else {
        Vec::new()
    };
    let layout = LayoutOptions::new(control_rate, None).ok()?;
    let campaign = Campaign::new(Scheduler::new(config), controls, layout).ok()?;
    let items = Table {
        extra_columns: vec![],
        ids: (0..n).map(|i| format!("p{i}")).collect(),
        texts: (0..n).map(|i| format!("item {i}")).collect(),
        extra: vec![vec![]; n],
    };
    CampaignFile::open("abcd1234".into(), seed, items, Table::default(), campaign).ok()
}

/// One step of a run of the engine (the fuzz target decodes them from
/// bytes, the tests draw them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Worker `w` arrives (a session).
    Arrive(u8),
    /// Worker `w` asks for a task.
    Next(u8),
    /// Worker `w` answers their leased task (`pick` 0) or task `pick` of
    /// the open ballot's layout (any other value): vote 0, 1 or 2.
    Answer {
        /// The worker.
        worker: u8,
        /// 0: their leased task; k: position k − 1 of the open ballot.
        pick: u16,
        /// First, second, tie (modulo 3).
        vote: u8,
    },
    /// Worker `w` stops ("I want to stop here").
    Finish(u8),
    /// The researcher excludes worker `w`.
    Exclude(u8),
    /// The researcher closes the open ballot now.
    Close,
    /// Time passes (milliseconds, times 100).
    Wait(u8),
    /// The server restarts on what the store holds.
    Restart,
}

/// Runs `steps` on an engine serving `file` and checks, after each: an
/// acknowledged answer is the one stored, no task has two answers
/// acknowledged (unless an exclusion discarded the first), the figures the
/// engine keeps equal the library's, and a restart from the operations
/// queued for the store gives the same campaign, leases and figures.
///
/// # Errors
/// The first invariant broken, said.
pub(crate) fn drive(file: CampaignFile, policy: Policy, steps: &[Step]) -> Result<Ran, String> {
    let initial = file.clone();
    let mut now: u64 = 1_000_000;
    let mut ops: Vec<Op> = Vec::new();
    let mut e = Engine::new(
        Loaded::replay(file, &[]).map_err(|e| e.to_string())?,
        policy.clone(),
        now,
    );
    let mut ids: Vec<Option<u32>> = vec![None; 256];
    let mut leased: Vec<Option<TaskId>> = vec![None; 256];
    let mut acked: HashSet<TaskId> = HashSet::new();
    let mut ran = Ran::default();
    for (i, &step) in steps.iter().enumerate() {
        let at = |what: String| format!("step {i} ({step:?}): {what}");
        match step {
            Step::Arrive(w) => {
                let id = e.worker(
                    &format!("w{w}"),
                    "PROLIFIC_PID",
                    &serde_json::Value::Null,
                    now,
                );
                e.new_session(id, now);
                ids[w as usize] = Some(id);
            }
            Step::Next(w) => {
                if let Some(id) = ids[w as usize] {
                    leased[w as usize] = match e.next(id, now) {
                        Next::Task {
                            task, expires_ms, ..
                        } => {
                            if expires_ms <= now {
                                return Err(at("a lease that has run out".into()));
                            }
                            Some(task)
                        }
                        _ => None,
                    };
                }
            }
            Step::Answer { worker, pick, vote } => {
                let Some(id) = ids[worker as usize] else {
                    continue;
                };
                let task = if pick == 0 {
                    match leased[worker as usize] {
                        Some(t) => t,
                        None => continue,
                    }
                } else {
                    TaskId {
                        ballot: e.file.campaign.open_ballot_number().unwrap_or(1),
                        position: usize::from(pick - 1),
                    }
                };
                let vote = [Vote::First, Vote::Second, Vote::Tie][usize::from(vote % 3)];
                let before = e
                    .file
                    .campaign
                    .answer_of(task)
                    .map(|(w, v)| (w.to_owned(), v));
                match e.answer(id, task, vote, now) {
                    Ok(Accepted::Recorded) => {
                        ran.recorded += 1;
                        if !acked.insert(task) {
                            return Err(at(format!("{task} acknowledged twice")));
                        }
                        let name = e.worker_name(id).to_owned();
                        if e.file.campaign.answer_of(task) != Some((name.as_str(), vote))
                            && !e.is_excluded(id)
                        {
                            return Err(at(format!("{task}: acknowledged, not stored")));
                        }
                    }
                    Ok(Accepted::Again) => {
                        let name = e.worker_name(id).to_owned();
                        if before != Some((name, vote)) {
                            return Err(at(format!("{task}: 'again' for another answer")));
                        }
                    }
                    Err(_) => {
                        if e.file
                            .campaign
                            .answer_of(task)
                            .map(|(w, v)| (w.to_owned(), v))
                            != before
                        {
                            return Err(at(format!("{task}: refused, yet changed")));
                        }
                    }
                }
            }
            Step::Finish(w) => {
                if let Some(id) = ids[w as usize] {
                    e.finish(id, now);
                    leased[w as usize] = None;
                    if matches!(e.next(id, now), Next::Task { .. }) {
                        return Err(at("a task after stopping".into()));
                    }
                }
            }
            Step::Exclude(w) => {
                if let Some(id) = ids[w as usize] {
                    e.exclude(id, "by the researcher", now);
                }
            }
            Step::Close => {
                if e.close_check().is_some_and(|k| k.can_withdraw()) {
                    e.advance(Unvoted::Withdraw, now).map_err(&at)?;
                    acked.clear();
                } else if e.file.campaign.open_ballot_number().is_some()
                    && e.advance(Unvoted::Withdraw, now).is_ok()
                {
                    return Err(at("closed although close_check said no".into()));
                }
            }
            Step::Wait(t) => now += 100 * u64::from(t),
            Step::Restart => {
                ops.extend(e.take_ops());
                let live = e.live_leases(now);
                let again = Engine::new(
                    Loaded::replay(initial.clone(), &ops).map_err(|x| at(x.to_string()))?,
                    policy.clone(),
                    now,
                );
                let a = serde_json::to_string(&e.file.campaign).map_err(|x| x.to_string())?;
                let b = serde_json::to_string(&again.file.campaign).map_err(|x| x.to_string())?;
                if a != b {
                    return Err(at("the store replays to another campaign".into()));
                }
                if again.live_leases(now) != live {
                    return Err(at(format!(
                        "{live} live leases before the restart, {} after",
                        again.live_leases(now)
                    )));
                }
                e = again;
                ran.restarts += 1;
            }
        }
        // Discarded answers reopen their tasks: they may be answered again.
        acked.retain(|&t| e.file.campaign.answer_of(t).is_some());
        if e.transition {
            e.advance(Unvoted::Reject, now).map_err(&at)?;
            acked.clear();
            ran.closed += 1;
        }
        ops.extend(e.take_ops());
        e.take_logs();
        same_figures(&e.tally, &e.file.campaign).map_err(&at)?;
    }
    Ok(ran)
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ran {
    /// Answers recorded.
    pub recorded: usize,
    /// Restarts.
    pub restarts: usize,
    /// Ballots closed by themselves.
    pub closed: usize,
}

/// The engine's figures are the library's (the agreement aside: it is
/// computed again only from time to time).
fn same_figures(t: &Tally, c: &adaptive_comp_metrics::ballot::Campaign) -> Result<(), String> {
    if t.ballots != c.ballot_status() {
        return Err(format!(
            "ballots {:?} != {:?}",
            t.ballots,
            c.ballot_status()
        ));
    }
    for s in c.worker_stats() {
        let Some(w) = t.worker(&s.worker) else {
            return Err(format!("no figures for {}", s.worker));
        };
        let got = (w.votes, w.controls, w.correct, w.discarded, w.excluded_at);
        let want = (s.votes, s.controls, s.correct, s.discarded, s.excluded_at);
        if got != want {
            return Err(format!("worker {}: {got:?} != {want:?}", s.worker));
        }
    }
    Ok(())
}
