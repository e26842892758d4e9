//! The server's state machine, without any I/O: who may answer what, the
//! leases, the per-worker quota, exclusions, the end of a ballot and the
//! transition to the next. Every change it makes to the campaign goes
//! through the library ([`Campaign::answer`], [`Campaign::exclude_worker`],
//! [`Campaign::exclude_workers`], [`Campaign::close_ballot`],
//! [`Campaign::open_ballot`]) and is queued as an operation for the store
//! ([`Op`]) in the same order, so that replaying the store rebuilds the
//! same campaign.
//!
//! ```text
//! next(worker):   live lease of theirs → the same task
//!                 quota reached → done;  no comparison free → wait
//!                 else the first free task (layout order: controls at the campaign's rate;
//!                 not a control as their first of the ballot) whose pair of items they
//!                 have not been shown in this ballot → leased
//! answer(worker, task, vote):
//!                 the same answer recorded → nothing to do (idempotent)
//!                 leased to them (even if the lease ran out, while nobody else took it) → recorded
//!                 anything else → refused, with the reason
//! after a control answer: the exclusion rule on the worker's accuracy
//! after the last comparison's vote: the rule on everyone, then close and open the next ballot
//! finish(worker): "I want to stop here": their lease ends at once; early (under the quota) or not
//! ```
//!
//! The engine also keeps the dashboard's figures ([`Tally`]): the library's
//! ballot and worker statistics, brought up to date at each answer in O(1)
//! and computed again ([`Campaign::worker_stats`], O(tasks)) only when an
//! exclusion or a transition changes them wholesale, and for the agreement
//! with the majority, which no single answer updates, at most every
//! [`AGREEMENT_REFRESH_MS`].

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use adaptive_comp_metrics::ballot::{
    Campaign, Exclusion, ExclusionRule, Outcome, Phase, RankedItem, Task, TaskId, Unvoted, Vote,
};
use serde_json::Value;

use crate::state::CampaignFile;
use crate::store::{self, Activity, Event, EventKind, Loaded, Op, WorkerRow};

/// Queues a log line on an engine: its event, its fields as `json!` writes
/// an object's (each value anything serde serialises), then its message as
/// `format!` takes it.
macro_rules! log_event {
    ($engine:expr, $event:literal, {$($key:literal: $value:expr),* $(,)?}, $($message:tt)+) => {
        $engine.logs.push($crate::engine::LogLine {
            event: $event,
            fields: vec![$(($key, serde_json::json!($value))),*],
            message: format!($($message)+),
        })
    };
}

mod tally;
pub(crate) use tally::{FIT_PRIOR_SD, FIT_WAIT_MS, Fitted};
#[cfg(test)]
mod tests;
mod workers;

pub(crate) use tally::{CloseCheck, Tally, VOTES_CSV_HEADER, WorkerTally, csv_field};

const NONE: u32 = u32::MAX;

/// How many free tasks a request looks at, at most, for one a worker may
/// take (tasks whose pair the worker has seen are skipped).
const SCAN_LIMIT: usize = 20_000;

/// Sessions kept per worker (each browser the worker used is one): the
/// oldest is forgotten past this.
pub(crate) const SESSIONS_PER_WORKER: usize = 8;

/// The agreement with the majority is computed again (O(tasks), under the
/// engine's lock) at most this often for the dashboard; every other
/// figure is exact at every moment.
pub(crate) const AGREEMENT_REFRESH_MS: u64 = 30_000;

/// The serving policy.
#[derive(Debug, Clone)]
pub(crate) struct Policy {
    /// Tasks a worker may answer per ballot.
    pub(crate) quota: Option<usize>,
    /// How long a lease lasts.
    pub(crate) lease_ms: u64,
    /// The exclusion rule on control accuracy.
    pub(crate) rule: Option<ExclusionRule>,
}

/// A fixed-size bit set.
#[derive(Debug, Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Self(vec![0; n.div_ceil(64)])
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    /// The first set bit at or after `from`.
    fn next_from(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        if w >= self.0.len() {
            return None;
        }
        let mut word = self.0[w] & (!0u64 << (from % 64));
        loop {
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            w += 1;
            if w >= self.0.len() {
                return None;
            }
            word = self.0[w];
        }
    }
}

/// One worker in the open ballot.
#[derive(Debug, Default)]
struct WorkerRun {
    answered: usize,
    current: Option<usize>,
    seen: HashSet<(u32, u32)>,
}

/// The open ballot's assignment state.
#[derive(Debug)]
struct BallotRun {
    ballot: usize,
    len: usize,
    holder: Vec<u32>,
    expires: Vec<u64>,
    free: Bits,
    first_free: usize,
    control: Bits,
    free_comparisons: usize,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    workers: HashMap<u32, WorkerRun>,
    comparisons: usize,
    progress_step: usize,
}

/// What a worker gets next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Next {
    /// A task, leased to them until `expires_ms`.
    Task {
        task: TaskId,
        expires_ms: u64,
        answered: usize,
    },
    /// Nothing now: come back in a moment.
    Wait { transition: bool, answered: usize },
    /// Nothing more for this worker.
    Done { why: Done, answered: usize },
}

/// Why a worker has nothing more to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Done {
    /// The quota of the ballot is reached.
    Quota,
    /// Every ballot is closed.
    Finished,
    /// The worker was excluded (the page does not say so).
    Excluded,
    /// The worker stopped ("I want to stop here").
    Stopped,
}

/// A worker who stopped: when, and whether before the quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finish {
    pub(crate) at_ms: u64,
    /// Stopped under the quota, while tasks remained: partial work.
    pub(crate) partial: bool,
}

/// Why an answer is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No such task in the campaign.
    UnknownTask,
    /// The task's ballot is closed (or closing).
    BallotClosed,
    /// The task was not leased to this worker.
    NotLeased,
    /// The worker already gave another answer to this task.
    Changed,
    /// The worker is excluded.
    Excluded,
}

impl Refusal {
    /// A short reason, for the log and the page.
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            Self::UnknownTask => "unknown task",
            Self::BallotClosed => "the task's ballot is closed",
            Self::NotLeased => "the task is not leased to this worker",
            Self::Changed => "this worker already gave another answer to the task",
            Self::Excluded => "the worker is excluded",
        }
    }
}

/// What became of an accepted answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accepted {
    /// Recorded now.
    Recorded,
    /// Already recorded (a repeated submission).
    Again,
}

/// A session: a browser's cookie bound to a worker.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub(crate) worker: u32,
    pub(crate) csrf: String,
    pub(crate) started: bool,
}

/// A line for the event log: its name, fields, and a sentence.
#[derive(Debug, Clone)]
pub(crate) struct LogLine {
    pub(crate) event: &'static str,
    pub(crate) fields: Vec<(&'static str, Value)>,
    pub(crate) message: String,
}

/// The server's state.
#[derive(Debug)]
pub(crate) struct Engine {
    pub(crate) file: CampaignFile,
    pub(crate) policy: Policy,
    seq: i64,
    workers: Vec<WorkerRow>,
    index: HashMap<String, u32>,
    pub(crate) sessions: HashMap<String, Session>,
    pub(crate) invitations: Vec<(String, String)>,
    invitation_index: HashMap<String, usize>,
    run: Option<BallotRun>,
    /// The dashboard's figures.
    pub(crate) tally: Tally,
    /// Per worker (by id): arrival, answers through the server.
    pub(crate) activity: Vec<Activity>,
    /// Workers who stopped.
    pub(crate) finished: HashMap<u32, Finish>,
    /// Each worker's sessions, oldest first.
    worker_sessions: HashMap<u32, VecDeque<String>>,
    /// When each ballot opened and closed (where this store saw it).
    pub(crate) ballot_times: Vec<(Option<u64>, Option<u64>)>,
    /// The ranking after the closed ballots (their number), computed once.
    ranking: Option<(usize, Arc<Vec<RankedItem>>)>,
    /// The Bradley–Terry fit of the votes so far, cached by vote count.
    fitted: Option<Arc<tally::Fitted>>,
    /// A request is fitting the votes (outside the lock).
    fitting: bool,
    excluded: HashSet<String>,
    /// The open ballot has every vote: the next must be opened.
    pub(crate) transition: bool,
    ops: Vec<Op>,
    logs: Vec<LogLine>,
}

fn pair_of(c: &Campaign, task: TaskId) -> Option<(bool, (u32, u32))> {
    let v = c.task(task)?;
    let (a, b) = (v.first.min(v.second) as u32, v.first.max(v.second) as u32);
    Some((matches!(v.task, Task::Control { .. }), (a, b)))
}

impl Engine {
    /// The engine of a loaded store.
    pub(crate) fn new(loaded: Loaded, policy: Policy, now: u64) -> Self {
        let Loaded {
            file,
            last_seq,
            workers,
            activity,
            leases,
            sessions,
            invitations,
            finishes,
            ballot_times,
            ..
        } = loaded;
        let mut worker_sessions: HashMap<u32, VecDeque<String>> = HashMap::new();
        for (t, w, _, _) in &sessions {
            worker_sessions.entry(*w).or_default().push_back(t.clone());
        }
        let index = workers
            .iter()
            .map(|w| (w.name.clone(), w.id))
            .collect::<HashMap<_, _>>();
        let sessions = sessions
            .into_iter()
            .map(|(t, worker, csrf, started)| {
                (
                    t,
                    Session {
                        worker,
                        csrf,
                        started,
                    },
                )
            })
            .collect();
        let invitation_index = invitations
            .iter()
            .enumerate()
            .map(|(i, (t, _))| (t.clone(), i))
            .collect();
        let tally = Tally::of(&file.campaign, now);
        let finished = finishes
            .into_iter()
            .map(|(w, at_ms, partial)| (w, Finish { at_ms, partial }))
            .collect();
        let excluded = file
            .campaign
            .exclusions()
            .iter()
            .map(|e| e.worker.clone())
            .collect();
        let mut e = Self {
            file,
            policy,
            seq: last_seq,
            workers,
            index,
            sessions,
            invitations,
            invitation_index,
            run: None,
            tally,
            activity,
            finished,
            worker_sessions,
            ballot_times,
            ranking: None,
            fitted: None,
            fitting: false,
            excluded,
            transition: false,
            ops: Vec::new(),
            logs: Vec::new(),
        };
        e.build_run(&leases, now);
        if e.run.is_some() && e.file.campaign.scheduler().pending() == 0 {
            // Stopped between the last vote and the next ballot.
            e.complete(now);
        }
        e
    }

    /// Takes the operations queued for the store.
    pub(crate) fn take_ops(&mut self) -> Vec<Op> {
        std::mem::take(&mut self.ops)
    }

    /// Takes the lines queued for the event log.
    pub(crate) fn take_logs(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.logs)
    }

    fn event(&mut self, kind: EventKind, now: u64) {
        self.seq += 1;
        self.ops.push(Op::Event(Event {
            seq: self.seq,
            at_ms: now,
            kind,
        }));
    }

    /// Tasks the worker answered in the open ballot.
    pub(crate) fn answered(&self, w: u32) -> usize {
        self.run
            .as_ref()
            .and_then(|r| r.workers.get(&w))
            .map_or(0, |r| r.answered)
    }

    /// The task worker `w` holds now (leased, unanswered, not run out).
    pub(crate) fn current_lease(&self, w: u32, now: u64) -> Option<TaskId> {
        let r = self.run.as_ref()?;
        let pos = r.workers.get(&w)?.current?;
        (r.holder[pos] == w && r.expires[pos] > now).then_some(TaskId {
            ballot: r.ballot,
            position: pos,
        })
    }

    /// Rebuilds the open ballot's assignment state from the campaign and
    /// the recorded leases.
    fn build_run(&mut self, leases: &[(usize, usize, u32, u64)], now: u64) {
        let c = &self.file.campaign;
        let Some(k) = c.open_ballot_number() else {
            self.run = None;
            return;
        };
        let len = c.layout(k).map_or(0, |l| l.len());
        let mut run = BallotRun {
            ballot: k,
            len,
            holder: vec![NONE; len],
            expires: vec![0; len],
            free: Bits::new(len),
            first_free: 0,
            control: Bits::new(len),
            free_comparisons: 0,
            heap: BinaryHeap::new(),
            workers: HashMap::new(),
            comparisons: c.scheduler().comparisons().len(),
            progress_step: 0,
        };
        let layout = c.layout(k);
        for (pos, t) in layout.into_iter().flat_map(|l| l.iter()).enumerate() {
            let id = TaskId {
                ballot: k,
                position: pos,
            };
            if matches!(t, Task::Control { .. }) {
                run.control.set(pos);
            }
            match c.answer_of(id) {
                Some((who, _)) => {
                    if let Some(&w) = self.index.get(who) {
                        let wr = run.workers.entry(w).or_default();
                        wr.answered += 1;
                        if let Some((false, p)) = pair_of(c, id) {
                            wr.seen.insert(p);
                        }
                    }
                }
                None => {
                    run.free.set(pos);
                    if !run.control.get(pos) {
                        run.free_comparisons += 1;
                    }
                }
            }
        }
        for &(b, pos, w, exp) in leases {
            if b != k
                || pos >= len
                || (w as usize) >= self.workers.len()
                || self.excluded.contains(&self.workers[w as usize].name)
            {
                continue;
            }
            let id = TaskId {
                ballot: k,
                position: pos,
            };
            let wr = run.workers.entry(w).or_default();
            if let Some((false, p)) = pair_of(c, id) {
                wr.seen.insert(p);
            }
            if c.answer_of(id).is_some() {
                // Answered: the lease ended with the answer (a store
                // written before lease rows were deleted still has it).
                continue;
            }
            run.holder[pos] = w;
            run.expires[pos] = exp;
            if run.free.get(pos) && exp > now {
                run.free.clear(pos);
                if !run.control.get(pos) {
                    run.free_comparisons -= 1;
                }
                run.heap.push(Reverse((exp, pos)));
                wr.current = Some(pos);
            }
        }
        let voted = run.comparisons - c.scheduler().pending();
        run.progress_step = voted * 10 / run.comparisons.max(1);
        self.run = Some(run);
    }

    /// Frees the tasks whose lease ran out.
    fn expire(&mut self, now: u64) {
        let Some(run) = self.run.as_mut() else { return };
        while let Some(&Reverse((exp, pos))) = run.heap.peek() {
            if exp > now {
                break;
            }
            run.heap.pop();
            if run.expires[pos] != exp || run.free.get(pos) {
                continue; // renewed, answered or freed since
            }
            let id = TaskId {
                ballot: run.ballot,
                position: pos,
            };
            if self.file.campaign.answer_of(id).is_some() {
                continue;
            }
            run.free.set(pos);
            run.first_free = run.first_free.min(pos);
            if !run.control.get(pos) {
                run.free_comparisons += 1;
            }
        }
    }

    /// The next task for a worker, leased to them.
    pub(crate) fn next(&mut self, w: u32, now: u64) -> Next {
        let answered = self.answered(w);
        if self.file.campaign.scheduler().phase() == Phase::Finished {
            return Next::Done {
                why: Done::Finished,
                answered,
            };
        }
        if self.is_excluded(w) {
            return Next::Done {
                why: Done::Excluded,
                answered,
            };
        }
        if self.finished.contains_key(&w) {
            return Next::Done {
                why: Done::Stopped,
                answered,
            };
        }
        if self.transition || self.run.is_none() {
            return Next::Wait {
                transition: true,
                answered,
            };
        }
        self.expire(now);
        let lease_ms = self.policy.lease_ms;
        let quota = self.policy.quota;
        let c = &self.file.campaign;
        let Some(run) = self.run.as_mut() else {
            return Next::Wait {
                transition: true,
                answered,
            };
        };
        let k = run.ballot;
        let wr = run.workers.entry(w).or_default();
        if let Some(pos) = wr.current {
            let id = TaskId {
                ballot: k,
                position: pos,
            };
            if c.answer_of(id).is_none() && run.holder[pos] == w {
                if run.expires[pos] > now {
                    return Next::Task {
                        task: id,
                        expires_ms: run.expires[pos],
                        answered,
                    };
                }
                if run.free.get(pos) {
                    // Their lease ran out and nobody took the task: renew it.
                    run.free.clear(pos);
                    if !run.control.get(pos) {
                        run.free_comparisons -= 1;
                    }
                    let exp = now + lease_ms;
                    run.expires[pos] = exp;
                    run.heap.push(Reverse((exp, pos)));
                    self.ops.push(Op::Lease {
                        ballot: k,
                        position: pos,
                        worker: w,
                        expires_ms: exp,
                    });
                    return Next::Task {
                        task: id,
                        expires_ms: exp,
                        answered,
                    };
                }
            }
            wr.current = None;
        }
        if quota.is_some_and(|q| wr.answered >= q) {
            return Next::Done {
                why: Done::Quota,
                answered,
            };
        }
        if run.free_comparisons == 0 {
            return Next::Wait {
                transition: false,
                answered,
            };
        }
        // No free task lies below the first free bit: remember where it is.
        let Some(mut from) = run.free.next_from(run.first_free) else {
            run.first_free = run.len;
            return Next::Wait {
                transition: false,
                answered,
            };
        };
        run.first_free = from;
        let mut chosen = None;
        for _ in 0..SCAN_LIMIT {
            let Some(pos) = run.free.next_from(from) else {
                break;
            };
            from = pos + 1;
            if run.control.get(pos) {
                if wr.answered == 0 {
                    // A worker's first screen is an ordinary pair.
                    continue;
                }
                chosen = Some((pos, None));
                break;
            }
            let id = TaskId {
                ballot: k,
                position: pos,
            };
            if let Some((_, p)) = pair_of(c, id)
                && !wr.seen.contains(&p)
            {
                chosen = Some((pos, Some(p)));
                break;
            }
        }
        let Some((pos, pair)) = chosen else {
            return Next::Wait {
                transition: false,
                answered,
            };
        };
        run.free.clear(pos);
        if pair.is_some() {
            run.free_comparisons -= 1;
        }
        if let Some(p) = pair {
            wr.seen.insert(p);
        }
        let exp = now + lease_ms;
        run.holder[pos] = w;
        run.expires[pos] = exp;
        run.heap.push(Reverse((exp, pos)));
        wr.current = Some(pos);
        self.ops.push(Op::Lease {
            ballot: k,
            position: pos,
            worker: w,
            expires_ms: exp,
        });
        Next::Task {
            task: TaskId {
                ballot: k,
                position: pos,
            },
            expires_ms: exp,
            answered,
        }
    }

    /// A worker's answer to a task.
    ///
    /// # Errors
    /// [`Refusal`]: nothing changes.
    pub(crate) fn answer(
        &mut self,
        w: u32,
        task: TaskId,
        vote: Vote,
        now: u64,
    ) -> Result<Accepted, Refusal> {
        let name = self.worker_name(w).to_owned();
        let c = &self.file.campaign;
        if c.task(task).is_none() {
            return Err(Refusal::UnknownTask);
        }
        if let Some((who, v)) = c.answer_of(task) {
            return if who == name && v == vote {
                Ok(Accepted::Again)
            } else if who == name {
                Err(Refusal::Changed)
            } else {
                Err(Refusal::NotLeased)
            };
        }
        if self.excluded.contains(&name) {
            return Err(Refusal::Excluded);
        }
        if self.transition || c.open_ballot_number() != Some(task.ballot) {
            return Err(Refusal::BallotClosed);
        }
        let Some(run) = self.run.as_mut() else {
            return Err(Refusal::BallotClosed);
        };
        let pos = task.position;
        if pos >= run.len || run.holder[pos] != w {
            return Err(Refusal::NotLeased);
        }
        match self.file.campaign.answer(task, &name, vote) {
            Ok(Outcome::Recorded) => {}
            Ok(Outcome::AlreadyRecorded) => return Ok(Accepted::Again),
            Ok(Outcome::FromExcludedWorker) => return Err(Refusal::Excluded),
            Err(_) => return Err(Refusal::NotLeased),
        }
        if run.free.get(pos) {
            run.free.clear(pos);
            if !run.control.get(pos) {
                run.free_comparisons -= 1;
            }
        }
        run.expires[pos] = 0;
        let wr = run.workers.entry(w).or_default();
        wr.answered += 1;
        if wr.current == Some(pos) {
            wr.current = None;
        }
        let is_control = run.control.get(pos);
        self.ops.push(Op::DropLease {
            ballot: task.ballot,
            position: pos,
        });
        if let Some(a) = self.activity.get_mut(w as usize) {
            a.first_ms.get_or_insert(now);
            a.last_ms = Some(now);
            a.answers += 1;
        }
        if !is_control {
            self.tally.worker_mut(&name).votes += 1;
            if let Some(b) = self.tally.ballots.get_mut(task.ballot - 1) {
                b.votes += 1;
                b.missing = b.missing.saturating_sub(1);
            }
        } else if let Some(b) = self.tally.ballots.get_mut(task.ballot - 1) {
            b.control_answers += 1;
        }
        self.event(
            EventKind::Answer {
                task,
                worker: w,
                vote,
            },
            now,
        );
        if is_control {
            self.after_control(&name, task, vote, now);
        } else {
            self.progress(now);
        }
        if self.file.campaign.scheduler().pending() == 0 && !self.transition {
            self.complete(now);
        }
        Ok(Accepted::Recorded)
    }

    fn progress(&mut self, _now: u64) {
        let pending = self.file.campaign.scheduler().pending();
        let Some(run) = self.run.as_mut() else { return };
        let voted = run.comparisons - pending;
        let step = voted * 10 / run.comparisons.max(1);
        if step > run.progress_step && step < 10 {
            run.progress_step = step;
            let k = run.ballot;
            let total = run.comparisons;
            log_event!(self, "progress", {"ballot": k, "votes": voted, "comparisons": total},
                "ballot {k}: {voted} of {total} comparisons voted ({step}0%)");
        }
    }

    /// Updates a worker's control counts and applies the rule to them.
    fn after_control(&mut self, name: &str, task: TaskId, vote: Vote, now: u64) {
        let expected = self.file.campaign.task(task).and_then(|v| match v.task {
            Task::Control { pair, swapped } => {
                let p = self.file.campaign.controls()[pair];
                Some(if swapped {
                    p.answer_when_swapped()
                } else {
                    p.answer
                })
            }
            Task::Comparison { .. } => None,
        });
        let Some(expected) = expected else { return };
        let t = self.tally.worker_mut(name);
        t.controls += 1;
        t.correct += u64::from(vote == expected);
        let (controls, correct) = (t.controls, t.correct);
        if let Some(rule) = self.policy.rule
            && rule.condemns(controls, correct)
            && let Some(&w) = self.index.get(name)
        {
            self.exclude(w, "control accuracy under the threshold", now);
        }
    }

    /// Excludes a worker now: their answers of the open ballot are
    /// discarded and their tasks return to the pool.
    pub(crate) fn exclude(&mut self, w: u32, reason: &str, now: u64) -> Option<Exclusion> {
        let name = self.worker_name(w).to_owned();
        let ex = self.file.campaign.exclude_worker(&name).ok().flatten()?;
        self.event(
            EventKind::Exclude {
                worker: w,
                reason: reason.to_owned(),
            },
            now,
        );
        self.after_exclusions(std::slice::from_ref(&ex), reason, now);
        Some(ex)
    }

    fn after_exclusions(&mut self, list: &[Exclusion], reason: &str, now: u64) {
        for ex in list {
            self.excluded.insert(ex.worker.clone());
            log_event!(self, "worker_excluded", {
                    "worker": ex.worker, "ballot": ex.ballot, "controls": ex.controls,
                    "correct": ex.correct, "discarded": ex.discarded, "reason": reason,
                },
                "worker {} excluded in ballot {} ({reason}: {} of {} control answers right); {} answer(s) discarded",
                ex.worker, ex.ballot, ex.correct, ex.controls, ex.discarded);
        }
        // Discarded answers reopen their tasks; the excluded workers'
        // leases end.
        if let Some(run) = &self.run {
            let k = run.ballot;
            let ended: Vec<usize> = (0..run.len)
                .filter(|&p| run.holder[p] != NONE && run.expires[p] > 0)
                .filter(|&p| self.excluded.contains(self.worker_name(run.holder[p])))
                .collect();
            self.ops
                .extend(ended.into_iter().map(|position| Op::DropLease {
                    ballot: k,
                    position,
                }));
        }
        let leases = self.current_leases();
        self.build_run(&leases, now);
        self.tally = Tally::of(&self.file.campaign, now);
    }

    /// The leases of the open ballot, as the store holds them.
    fn current_leases(&self) -> Vec<(usize, usize, u32, u64)> {
        let Some(run) = &self.run else {
            return Vec::new();
        };
        (0..run.len)
            .filter(|&p| run.holder[p] != NONE)
            .filter(|&p| !self.excluded.contains(self.worker_name(run.holder[p])))
            .map(|p| (run.ballot, p, run.holder[p], run.expires[p]))
            .collect()
    }

    /// Every comparison of the open ballot has its vote: the rule on
    /// everyone, then the transition (done by [`Engine::advance`]).
    fn complete(&mut self, now: u64) {
        if let Some(rule) = self.policy.rule
            && let Ok(list) = self.file.campaign.exclude_workers(&rule)
            && !list.is_empty()
        {
            self.event(
                EventKind::ExcludeByRule {
                    min_accuracy: rule.min_accuracy(),
                    min_controls: rule.min_controls(),
                },
                now,
            );
            self.after_exclusions(&list, "control accuracy under the threshold", now);
            if self.file.campaign.scheduler().pending() > 0 {
                return;
            }
        }
        self.transition = true;
    }

    /// Closes the open ballot and opens the next one (after
    /// [`Engine::transition`] became `true`, or on the researcher's
    /// request with [`Unvoted::Withdraw`]).
    ///
    /// # Errors
    /// The library's refusal (nothing changes).
    pub(crate) fn advance(&mut self, unvoted: Unvoted, now: u64) -> Result<(), String> {
        let Some(k) = self.file.campaign.open_ballot_number() else {
            return Err("no ballot is open".to_owned());
        };
        let t0 = std::time::Instant::now();
        let result = store::advance(&mut self.file, unvoted);
        let closed_now = self.file.campaign.open_ballot_number() != Some(k);
        if closed_now {
            self.event(EventKind::Advance { unvoted }, now);
        }
        if let Err(e) = result {
            if closed_now {
                self.transition = false;
                self.run = None;
            }
            return Err(e);
        }
        let scores = self.file.campaign.scheduler().history().last().cloned();
        self.transition = false;
        self.build_run(&[], now);
        self.tally = Tally::of(&self.file.campaign, now);
        if let Some(t) = self.ballot_times.get_mut(k - 1) {
            t.1 = Some(now);
        }
        if let Some(t) = self
            .file
            .campaign
            .open_ballot_number()
            .and_then(|n| self.ballot_times.get_mut(n - 1))
        {
            t.0 = Some(now);
        }
        self.ops.push(Op::PruneLeases {
            before_ballot: k + 1,
        });
        let elapsed = t0.elapsed().as_secs_f64();
        if let Some(s) = scores {
            log_event!(self, "ballot_closed", {
                    "ballot": k, "votes": s.votes, "withdrawn": s.withdrawn, "b_hat": s.b_hat,
                    "seconds": elapsed,
                },
                "ballot {k} closed: {} votes, {} withdrawn, b = {} ({elapsed:.3} s)",
                s.votes, s.withdrawn, s.b_hat);
        }
        match self.file.campaign.open_ballot_number() {
            Some(n) => {
                let tasks = self.run.as_ref().map_or(0, |r| r.len);
                let items = self.file.campaign.scheduler().ballot_items().len();
                log_event!(self, "ballot_opened", {"ballot": n, "items": items, "tasks": tasks},
                    "ballot {n} opened: {items} items, {tasks} tasks");
            }
            None => log_event!(self, "campaign_finished", {"ballots": k},
                "every ballot is closed: the campaign is finished"),
        }
        Ok(())
    }

    /// Live leases of the open ballot.
    pub(crate) fn live_leases(&self, now: u64) -> usize {
        self.run.as_ref().map_or(0, |r| {
            r.expires
                .iter()
                .enumerate()
                .filter(|&(p, &e)| e > now && !r.free.get(p))
                .count()
        })
    }
}
