//! Who takes part: workers, their sessions and invitations, and their
//! stopping ("I want to stop here").

use std::collections::HashSet;

use adaptive_comp_metrics::ballot::{Phase, TaskId};
use serde_json::Value;

use super::{Done, Engine, Finish, NONE, SESSIONS_PER_WORKER, Session};
use crate::secret::{ct_eq, random_token};
use crate::store::{Activity, Op, WorkerRow};

impl Engine {
    /// The worker's name.
    pub(crate) fn worker_name(&self, w: u32) -> &str {
        self.workers.get(w as usize).map_or("", |r| r.name.as_str())
    }

    /// The worker's id, registering a new worker.
    pub(crate) fn worker(&mut self, name: &str, source: &str, params: &Value, now: u64) -> u32 {
        if let Some(&w) = self.index.get(name) {
            return w;
        }
        let id = self.workers.len() as u32;
        let row = WorkerRow {
            id,
            name: name.to_owned(),
            source: source.to_owned(),
            params: params.to_string(),
        };
        self.ops.push(Op::Worker(row.clone(), now));
        self.workers.push(row);
        self.activity.push(Activity {
            arrived_ms: now,
            ..Activity::default()
        });
        self.index.insert(name.to_owned(), id);
        log_event!(self, "worker_arrived", {"worker": name, "source": source},
            "worker {name} arrived ({source})");
        id
    }

    /// A new session for a worker: (cookie token, CSRF token).
    pub(crate) fn new_session(&mut self, worker: u32, now: u64) -> (String, String) {
        let token = random_token(24);
        let csrf = random_token(24);
        self.ops.push(Op::Session {
            token: token.clone(),
            worker,
            csrf: csrf.clone(),
            at_ms: now,
        });
        self.sessions.insert(
            token.clone(),
            Session {
                worker,
                csrf: csrf.clone(),
                started: false,
            },
        );
        let kept = self.worker_sessions.entry(worker).or_default();
        kept.push_back(token.clone());
        while kept.len() > SESSIONS_PER_WORKER {
            if let Some(old) = kept.pop_front() {
                self.sessions.remove(&old);
                self.ops.push(Op::DropSession { token: old });
            }
        }
        (token, csrf)
    }

    /// Marks a session's instructions as read.
    pub(crate) fn start_session(&mut self, token: &str) {
        if let Some(s) = self.sessions.get_mut(token)
            && !s.started
        {
            s.started = true;
            self.ops.push(Op::SessionStarted {
                token: token.to_owned(),
            });
        }
    }

    /// The worker name an invitation token stands for.
    pub(crate) fn invitation(&self, token: &str) -> Option<&str> {
        // A map lookup on a secret leaks timing only about tokens that
        // exist, through the hash; the comparison itself is done again in
        // constant time.
        let &i = self.invitation_index.get(token)?;
        let (t, name) = &self.invitations[i];
        ct_eq(t.as_bytes(), token.as_bytes()).then_some(name.as_str())
    }

    /// Creates invitations for `names` (skipping names already invited).
    pub(crate) fn invite(&mut self, names: &[String], now: u64) -> Vec<(String, String)> {
        let taken: HashSet<&str> = self.invitations.iter().map(|(_, n)| n.as_str()).collect();
        let fresh: Vec<String> = names
            .iter()
            .filter(|n| !taken.contains(n.as_str()))
            .cloned()
            .collect();
        let mut out = Vec::new();
        for name in fresh {
            let token = random_token(16);
            self.ops.push(Op::Invitation {
                token: token.clone(),
                worker: name.clone(),
                at_ms: now,
            });
            self.invitation_index
                .insert(token.clone(), self.invitations.len());
            self.invitations.push((token.clone(), name.clone()));
            out.push((token, name));
        }
        out
    }

    /// `true` when the worker is excluded.
    pub(crate) fn is_excluded(&self, w: u32) -> bool {
        self.excluded.contains(self.worker_name(w))
    }

    /// Workers known to the server, in order of arrival.
    pub(crate) fn workers(&self) -> &[WorkerRow] {
        &self.workers
    }

    /// `true` when a worker of this name came through the server.
    pub(crate) fn knows(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The id of the worker of this name, if they came through the server.
    pub(crate) fn worker_id(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    /// Gives back the worker's leased task, if any: it returns to the pool
    /// at once.
    pub(crate) fn release(&mut self, w: u32) {
        let Some(run) = self.run.as_mut() else { return };
        let Some(pos) = run.workers.get_mut(&w).and_then(|r| r.current.take()) else {
            return;
        };
        let id = TaskId {
            ballot: run.ballot,
            position: pos,
        };
        if run.holder[pos] != w || self.file.campaign.answer_of(id).is_some() {
            return;
        }
        run.holder[pos] = NONE;
        run.expires[pos] = 0;
        if !run.free.get(pos) {
            run.free.set(pos);
            run.first_free = run.first_free.min(pos);
            if !run.control.get(pos) {
                run.free_comparisons += 1;
            }
        }
        self.ops.push(Op::DropLease {
            ballot: id.ballot,
            position: pos,
        });
    }

    /// "I want to stop here": the worker's lease ends at once, and they
    /// have nothing more to do. Early (partial work) when a quota is set,
    /// the worker is under it, and tasks remain. Stopping twice keeps the
    /// first.
    pub(crate) fn finish(&mut self, w: u32, now: u64) -> Finish {
        if let Some(&f) = self.finished.get(&w) {
            return f;
        }
        let answered = self.answered(w);
        let partial = self.file.campaign.scheduler().phase() != Phase::Finished
            && !self.is_excluded(w)
            && self.policy.quota.is_some_and(|q| answered < q);
        let f = Finish {
            at_ms: now,
            partial,
        };
        self.release(w);
        self.finished.insert(w, f);
        self.ops.push(Op::Finish {
            worker: w,
            at_ms: now,
            partial,
        });
        let name = self.worker_name(w).to_owned();
        log_event!(self, "worker_stopped", {"worker": name, "answered": answered, "partial": partial},
            "worker {name} stopped after {answered} answer(s) in this ballot{}",
            if partial { " (under the quota)" } else { "" });
        f
    }

    /// Why the worker has nothing more to do, if so, without leasing
    /// anything (the end screen).
    pub(crate) fn done_state(&self, w: u32) -> Option<Done> {
        if self.finished.contains_key(&w) {
            Some(Done::Stopped)
        } else if self.file.campaign.scheduler().phase() == Phase::Finished {
            Some(Done::Finished)
        } else if self.is_excluded(w) {
            Some(Done::Excluded)
        } else if self
            .policy
            .quota
            .is_some_and(|q| self.run.is_some() && self.answered(w) >= q)
        {
            Some(Done::Quota)
        } else {
            None
        }
    }

    /// The worker stopped early (their work is partial).
    pub(crate) fn stopped_early(&self, w: u32) -> bool {
        self.finished.get(&w).is_some_and(|f| f.partial)
    }
}
