//! A vote collection run with a crowd of named workers: the ballots of a
//! [`Scheduler`] laid out as tasks with control pairs mixed in
//! ([`TaskLayout`]), answers attributed to workers and checked one by one
//! (unknown tasks, closed ballots, second answers), batches imported all or
//! nothing, and workers below an accuracy threshold excluded with their votes
//! of the open ballot discarded and logged (see [`super::workers`]).
//!
//! ```text
//! Campaign::new → open_ballot → answer/import … → [exclude_workers] → close_ballot → open_ballot → … → ranking
//! ```
//!
//! Every vote on a comparison goes to the scheduler as soon as it is
//! accepted, so the scores are exactly those of a [`Scheduler`] fed the same
//! votes; answers to control tasks never reach it.

use std::collections::HashMap;

use rand::Rng;
use thiserror::Error;

use super::error::{BallotError, Result};
use super::log::{BallotScores, Phase, Unvoted, Vote};
use super::ranking::Ranking;
use super::scheduler::Scheduler;
use super::tasks::{ControlPair, LayoutOptions, Task, TaskId, TaskLayout};

/// Why one answer was refused. The campaign is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AnswerError {
    /// No task has this id: its ballot was never opened or the position is
    /// past the ballot's last task.
    #[error("unknown task {task}")]
    UnknownTask {
        /// The task.
        task: TaskId,
    },
    /// The task's ballot is closed and this answer is not the one recorded.
    #[error("task {task} belongs to ballot {}, which is closed", task.ballot)]
    BallotClosed {
        /// The task.
        task: TaskId,
    },
    /// The task already has a different answer.
    #[error("task {task} already has an answer ({vote:?} from worker {worker:?})")]
    AlreadyAnswered {
        /// The task.
        task: TaskId,
        /// Who gave the recorded answer.
        worker: String,
        /// The recorded vote.
        vote: Vote,
    },
    /// The same task appears twice in one batch.
    #[error("task {task} appears twice in the batch (first as answer {first})")]
    Duplicate {
        /// The task.
        task: TaskId,
        /// The index in the batch of its first answer.
        first: usize,
    },
    /// The worker id is empty.
    #[error("the worker id is empty")]
    EmptyWorker,
}

/// What became of an accepted answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// Recorded (a vote for a comparison, or a control answer).
    Recorded,
    /// The same worker's same answer is already recorded: nothing to do.
    AlreadyRecorded,
    /// The worker was excluded: the answer is ignored and the task stays open.
    FromExcludedWorker,
}

/// One answer of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Answer {
    /// The task answered.
    pub task: TaskId,
    /// Who answered (the platform's worker id).
    pub worker: String,
    /// The vote, relative to the order the task showed.
    pub vote: Vote,
}

/// How [`Campaign::import`] treats a batch with refused answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ImportMode {
    /// Record nothing unless every answer is acceptable.
    #[default]
    AllOrNothing,
    /// Record the acceptable answers, report the others.
    SkipRefused,
}

/// The result of importing a batch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ImportReport {
    /// Answers recorded now.
    pub recorded: usize,
    /// Answers that were already recorded (a re-import).
    pub already_recorded: usize,
    /// Answers of excluded workers, ignored.
    pub from_excluded: usize,
    /// Refused answers: index in the batch and reason.
    pub refused: Vec<(usize, AnswerError)>,
    /// `false` when [`ImportMode::AllOrNothing`] recorded nothing because of
    /// refused answers.
    pub applied: bool,
}

/// A task as shown: its id, unit, the two things compared, whether it is a
/// control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TaskView {
    /// The task's id.
    pub id: TaskId,
    /// The unit (0-based) when tasks are grouped.
    pub unit: Option<usize>,
    /// The item (or control id) shown first.
    pub first: usize,
    /// The item (or control id) shown second.
    pub second: usize,
    /// What the task points to.
    pub task: Task,
}

/// An answer discarded when its worker was excluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Discarded {
    pub(crate) position: usize,
    pub(crate) worker: u32,
    pub(crate) vote: Vote,
}

/// The tasks and answers of one ballot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BallotTasks {
    pub(crate) layout: TaskLayout,
    pub(crate) answers: Vec<Option<(u32, Vote)>>,
    pub(crate) discarded: Vec<Discarded>,
}

/// A worker excluded from a campaign, with the evidence.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Exclusion {
    /// The worker.
    pub worker: String,
    /// The ballot open when the worker was excluded (1-based).
    pub ballot: usize,
    /// Control answers so far.
    pub controls: u64,
    /// Correct control answers so far.
    pub correct: u64,
    /// Answers of the open ballot discarded (comparisons and controls).
    pub discarded: u64,
}

impl Exclusion {
    /// The accuracy on control pairs, correct/controls (`None` without any).
    #[must_use]
    pub fn accuracy(&self) -> Option<f64> {
        (self.controls > 0).then(|| self.correct as f64 / self.controls as f64)
    }
}

serde_mirror! {
    /// An adaptive (or uniform) collection run with named workers, control
    /// pairs and task lists a platform can show.
    ///
    /// Votes on comparisons go straight to the underlying [`Scheduler`], so
    /// its scores and ranking are those of a scheduler fed the same votes with
    /// the same generator; control answers only measure the workers. Every
    /// failed call leaves the campaign unchanged.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{
    ///     BallotConfig, Campaign, ControlPair, LayoutOptions, Scheduler, Unvoted, Vote,
    /// };
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let mut layout_rng = rand::rngs::StdRng::seed_from_u64(2);
    /// let scheduler = Scheduler::new(BallotConfig::new(8, 4, 0.5, 2)?);
    /// // One control pair: item 0 beats item 7; a quarter of the tasks are controls.
    /// let controls = vec![ControlPair::new(0, 7, Vote::First)?];
    /// let mut c = Campaign::new(scheduler, controls, LayoutOptions::new(0.25, Some(4))?)?;
    /// while c.open_ballot(&mut rng, &mut layout_rng).is_ok() {
    ///     let tasks: Vec<_> = c.tasks().collect();
    ///     for t in tasks {
    ///         // "alice" prefers the smaller item; she is always right.
    ///         let vote = if t.first < t.second { Vote::First } else { Vote::Second };
    ///         c.answer(t.id, "alice", vote)?;
    ///     }
    ///     c.close_ballot(Unvoted::Reject)?;
    /// }
    /// let stats = c.worker_stats();
    /// assert_eq!(stats[0].accuracy(), Some(1.0));
    /// assert_eq!(c.ranking(&mut rng)?.entries[0].item, 0);
    /// # Ok::<(), adaptive_comp_metrics::Error>(())
    /// ```
    #[derive(Debug, Clone)]
    pub struct Campaign {
        pub(crate) scheduler: Scheduler,
        pub(crate) controls: Vec<ControlPair>,
        pub(crate) layout: LayoutOptions,
        pub(crate) ballots: Vec<BallotTasks>,
        pub(crate) workers: Vec<String>,
        pub(crate) index: HashMap<String, u32>,
        pub(crate) excluded_at: Vec<Option<usize>>,
        pub(crate) exclusions: Vec<Exclusion>,
    }
    read and written through "super::campaign_state::RawCampaign"
}

impl Campaign {
    /// A campaign over a scheduler that has not opened a ballot yet.
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] when the scheduler has started, or
    /// when `layout` asks for controls and `controls` is empty.
    ///
    /// # Complexity
    /// O(1).
    pub fn new(
        scheduler: Scheduler,
        controls: Vec<ControlPair>,
        layout: LayoutOptions,
    ) -> Result<Self> {
        if scheduler.phase() != (Phase::Ready { next: 1 }) {
            return Err(BallotError::InvalidParameter {
                name: "scheduler",
                expected: "a scheduler that has not opened a ballot",
            });
        }
        check_layout(&layout, controls.len())?;
        Ok(Self {
            scheduler,
            controls,
            layout,
            ballots: Vec::new(),
            workers: Vec::new(),
            index: HashMap::new(),
            excluded_at: Vec::new(),
            exclusions: Vec::new(),
        })
    }

    /// The underlying scheduler (scores, history, phase).
    #[must_use]
    pub fn scheduler(&self) -> &Scheduler {
        &self.scheduler
    }

    /// The control pairs.
    #[must_use]
    pub fn controls(&self) -> &[ControlPair] {
        &self.controls
    }

    /// The layout used for the ballots opened from now on.
    #[must_use]
    pub fn layout_options(&self) -> LayoutOptions {
        self.layout
    }

    /// Changes the layout of the ballots opened from now on.
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] when it asks for controls and there
    /// is no control pair.
    pub fn set_layout_options(&mut self, layout: LayoutOptions) -> Result<()> {
        check_layout(&layout, self.controls.len())?;
        self.layout = layout;
        Ok(())
    }

    /// The worker ids, in order of their first answer.
    #[must_use]
    pub fn workers(&self) -> &[String] {
        &self.workers
    }

    /// Every exclusion, in order.
    #[must_use]
    pub fn exclusions(&self) -> &[Exclusion] {
        &self.exclusions
    }

    /// Opens the next ballot: `rng` draws its items and comparisons exactly
    /// as [`Scheduler::open_ballot`] does, `layout_rng` places the controls
    /// (two generators, so adding controls never changes the collection).
    ///
    /// # Errors
    /// Those of [`Scheduler::open_ballot`]; [`BallotError::TooLarge`] for
    /// more control tasks than a ballot may hold. Nothing changes on error.
    ///
    /// # Complexity
    /// O(N⁽ᵏ⁾·M + controls).
    pub fn open_ballot<R: Rng + ?Sized, L: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        layout_rng: &mut L,
    ) -> Result<&TaskLayout> {
        if let Phase::Open { ballot } = self.scheduler.phase() {
            return Err(BallotError::BallotStillOpen { ballot });
        }
        if self.scheduler.phase() == Phase::Finished {
            return Err(BallotError::Finished {
                n_ballots: self.scheduler.ballot_sizes().len(),
            });
        }
        // Size the task list before drawing anything: a failure leaves the
        // generators and the scheduler untouched.
        let k = self.ballots.len();
        let comparisons = match &self.scheduler.uniform {
            Some(plan) => usize::try_from(plan.comparisons).ok(),
            None => self.scheduler.sizes.get(k).and_then(|&n| {
                super::plan::comparisons_in_ballot(n, self.scheduler.config().m())
                    .and_then(|c| usize::try_from(c).ok())
            }),
        };
        let comparisons = comparisons.ok_or(BallotError::Overflow {
            what: "the number of comparisons",
        })?;
        self.layout.n_controls(comparisons)?;
        let mut next = self.scheduler.clone();
        let n = next.open_ballot(rng)?.len();
        let layout = TaskLayout::draw(n, self.controls.len(), &self.layout, layout_rng)?;
        self.scheduler = next;
        self.ballots.push(BallotTasks {
            answers: vec![None; layout.len()],
            layout,
            discarded: Vec::new(),
        });
        Ok(&self.ballots[self.ballots.len() - 1].layout)
    }

    /// The task list of ballot `ballot` (1-based), once opened.
    #[must_use]
    pub fn layout(&self, ballot: usize) -> Option<&TaskLayout> {
        self.ballots.get(ballot.checked_sub(1)?).map(|b| &b.layout)
    }

    /// The open ballot (1-based), if any.
    #[must_use]
    pub fn open_ballot_number(&self) -> Option<usize> {
        match self.scheduler.phase() {
            Phase::Open { ballot } => Some(ballot),
            _ => None,
        }
    }

    /// A task as shown, or `None` for an unknown id.
    ///
    /// # Complexity
    /// O(log controls).
    #[must_use]
    pub fn task(&self, id: TaskId) -> Option<TaskView> {
        let b = self.ballots.get(id.ballot.checked_sub(1)?)?;
        let task = b.layout.task(id.position)?;
        let (first, second) = match task {
            Task::Comparison { ticket } => {
                let c = self.scheduler.logs()[id.ballot - 1].comparisons()[ticket];
                (c.first, c.second)
            }
            Task::Control { pair, swapped } => {
                let p = self.controls[pair];
                if swapped {
                    (p.second, p.first)
                } else {
                    (p.first, p.second)
                }
            }
        };
        Some(TaskView {
            id,
            unit: b.layout.unit(id.position),
            first,
            second,
            task,
        })
    }

    /// Every task of the open ballot, in order (empty when none is open).
    pub fn tasks(&self) -> impl Iterator<Item = TaskView> + '_ {
        let ballot = self.open_ballot_number().unwrap_or(0);
        let len = self.layout(ballot).map_or(0, TaskLayout::len);
        (0..len).filter_map(move |position| self.task(TaskId { ballot, position }))
    }

    /// The recorded answer of a task: worker and vote.
    #[must_use]
    pub fn answer_of(&self, id: TaskId) -> Option<(&str, Vote)> {
        let b = self.ballots.get(id.ballot.checked_sub(1)?)?;
        let (w, v) = (*b.answers.get(id.position)?)?;
        Some((self.workers[w as usize].as_str(), v))
    }

    /// The answers discarded in ballot `ballot` (1-based) when their workers
    /// were excluded: task, worker, vote.
    pub fn discarded(&self, ballot: usize) -> impl Iterator<Item = (TaskId, &str, Vote)> + '_ {
        let list = ballot
            .checked_sub(1)
            .and_then(|k| self.ballots.get(k))
            .map_or(&[][..], |b| &b.discarded[..]);
        list.iter().map(move |d| {
            (
                TaskId {
                    ballot,
                    position: d.position,
                },
                self.workers[d.worker as usize].as_str(),
                d.vote,
            )
        })
    }

    /// The correct vote of a control task as shown, or `None` for a
    /// comparison.
    pub(crate) fn expected(&self, task: Task) -> Option<Vote> {
        match task {
            Task::Comparison { .. } => None,
            Task::Control { pair, swapped } => {
                let p = self.controls[pair];
                Some(if swapped {
                    p.answer_when_swapped()
                } else {
                    p.answer
                })
            }
        }
    }

    /// Judges one answer against the campaign without changing it.
    fn classify(&self, a_task: TaskId, worker: &str, vote: Vote) -> Result<Outcome, AnswerError> {
        if worker.is_empty() {
            return Err(AnswerError::EmptyWorker);
        }
        let unknown = AnswerError::UnknownTask { task: a_task };
        let b = a_task
            .ballot
            .checked_sub(1)
            .and_then(|k| self.ballots.get(k))
            .ok_or(unknown.clone())?;
        let slot = b.answers.get(a_task.position).ok_or(unknown)?;
        let known = self.index.get(worker).copied();
        if let Some(w) = known
            && self.excluded_at[w as usize].is_some()
        {
            return Ok(Outcome::FromExcludedWorker);
        }
        match *slot {
            Some((w, v)) if Some(w) == known && v == vote => Ok(Outcome::AlreadyRecorded),
            _ if self.open_ballot_number() != Some(a_task.ballot) => {
                Err(AnswerError::BallotClosed { task: a_task })
            }
            Some((w, v)) => Err(AnswerError::AlreadyAnswered {
                task: a_task,
                worker: self.workers[w as usize].clone(),
                vote: v,
            }),
            None => Ok(Outcome::Recorded),
        }
    }

    /// Records an answer judged [`Outcome::Recorded`].
    fn record(&mut self, task: TaskId, worker: &str, vote: Vote) {
        let w = self.intern(worker);
        let b = &mut self.ballots[task.ballot - 1];
        b.answers[task.position] = Some((w, vote));
        if let Some(Task::Comparison { ticket }) = b.layout.task(task.position) {
            // The task had no answer, so its ticket has no vote: cannot fail.
            let r = self.scheduler.record(ticket, vote);
            debug_assert!(r.is_ok());
        }
    }

    fn intern(&mut self, worker: &str) -> u32 {
        if let Some(&w) = self.index.get(worker) {
            return w;
        }
        let w = self.workers.len() as u32;
        self.workers.push(worker.to_owned());
        self.index.insert(worker.to_owned(), w);
        self.excluded_at.push(None);
        w
    }

    /// Records one worker's answer to one task.
    ///
    /// ```text
    /// same worker, same vote already recorded  → AlreadyRecorded (harmless re-import)
    /// worker excluded                          → FromExcludedWorker (ignored)
    /// ballot closed                            → BallotClosed
    /// task answered otherwise                  → AlreadyAnswered
    /// ```
    ///
    /// # Errors
    /// [`AnswerError`]; the campaign is unchanged.
    ///
    /// # Complexity
    /// O(log controls) plus a hash lookup.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{
    ///     AnswerError, BallotConfig, Campaign, LayoutOptions, Outcome, Scheduler, TaskId, Vote,
    /// };
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let scheduler = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let mut c = Campaign::new(scheduler, vec![], LayoutOptions::plain())?;
    /// c.open_ballot(&mut rng, &mut rand::rngs::StdRng::seed_from_u64(2))?;
    /// let t = TaskId { ballot: 1, position: 0 };
    /// assert_eq!(c.answer(t, "ann", Vote::First), Ok(Outcome::Recorded));
    /// assert_eq!(c.answer(t, "ann", Vote::First), Ok(Outcome::AlreadyRecorded));
    /// assert!(matches!(c.answer(t, "bob", Vote::Tie), Err(AnswerError::AlreadyAnswered { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn answer(
        &mut self,
        task: TaskId,
        worker: &str,
        vote: Vote,
    ) -> Result<Outcome, AnswerError> {
        let outcome = self.classify(task, worker, vote)?;
        if outcome == Outcome::Recorded {
            self.record(task, worker, vote);
        }
        Ok(outcome)
    }

    /// Imports a batch of answers: each is judged as by [`Campaign::answer`],
    /// and a task answered twice within the batch is refused the second time
    /// ([`AnswerError::Duplicate`]). Under [`ImportMode::AllOrNothing`] a
    /// single refusal records nothing. Importing the same batch again records
    /// nothing new.
    ///
    /// # Complexity
    /// O(B·log controls) for B answers, plus hashing.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{
    ///     Answer, BallotConfig, Campaign, ImportMode, LayoutOptions, Scheduler, TaskId, Vote,
    /// };
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let scheduler = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let mut c = Campaign::new(scheduler, vec![], LayoutOptions::plain())?;
    /// c.open_ballot(&mut rng, &mut rand::rngs::StdRng::seed_from_u64(2))?;
    /// let a = |p, w: &str| Answer { task: TaskId { ballot: 1, position: p }, worker: w.into(), vote: Vote::First };
    /// // Task 0 twice: nothing is recorded.
    /// let r = c.import(&[a(0, "ann"), a(1, "ann"), a(0, "bob")], ImportMode::AllOrNothing);
    /// assert_eq!((r.recorded, r.refused.len(), r.applied), (0, 1, false));
    /// let r = c.import(&[a(0, "ann"), a(1, "ann")], ImportMode::AllOrNothing);
    /// assert_eq!(r.recorded, 2);
    /// // Importing the same answers again is harmless.
    /// let r = c.import(&[a(0, "ann"), a(1, "ann")], ImportMode::AllOrNothing);
    /// assert_eq!((r.recorded, r.already_recorded), (0, 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn import(&mut self, answers: &[Answer], mode: ImportMode) -> ImportReport {
        let mut report = ImportReport::default();
        // The first answer of each task in this batch, per ballot and
        // position (tasks are dense within a ballot).
        let mut first_seen: Vec<Vec<usize>> = vec![Vec::new(); self.ballots.len()];
        let mut accept = Vec::with_capacity(answers.len());
        for (i, a) in answers.iter().enumerate() {
            let judged = self.classify(a.task, &a.worker, a.vote).and_then(|o| {
                if o == Outcome::FromExcludedWorker {
                    return Ok(o);
                }
                // classify() checked that the task exists.
                let seen = &mut first_seen[a.task.ballot - 1];
                if seen.is_empty() {
                    *seen = vec![usize::MAX; self.ballots[a.task.ballot - 1].answers.len()];
                }
                match seen[a.task.position] {
                    usize::MAX => {
                        seen[a.task.position] = i;
                        Ok(o)
                    }
                    first => Err(AnswerError::Duplicate {
                        task: a.task,
                        first,
                    }),
                }
            });
            match judged {
                Ok(Outcome::Recorded) => accept.push(i),
                Ok(Outcome::AlreadyRecorded) => report.already_recorded += 1,
                Ok(Outcome::FromExcludedWorker) => report.from_excluded += 1,
                Err(e) => report.refused.push((i, e)),
            }
        }
        if mode == ImportMode::AllOrNothing && !report.refused.is_empty() {
            return report;
        }
        for i in accept {
            let a = &answers[i];
            self.record(a.task, &a.worker, a.vote);
            report.recorded += 1;
        }
        report.applied = true;
        report
    }

    /// Closes the open ballot ([`Scheduler::close_ballot`]).
    ///
    /// # Errors
    /// Those of [`Scheduler::close_ballot`]; nothing changes on error.
    pub fn close_ballot(&mut self, unvoted: Unvoted) -> Result<&BallotScores> {
        self.scheduler.close_ballot(unvoted)
    }

    /// Ranks every item ([`Scheduler::ranking`]).
    ///
    /// # Errors
    /// [`BallotError::NothingClosed`] before the first close.
    pub fn ranking<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Ranking> {
        self.scheduler.ranking(rng)
    }
}

fn check_layout(layout: &LayoutOptions, n_pairs: usize) -> Result<()> {
    if layout.control_rate() > 0.0 && n_pairs == 0 {
        return Err(BallotError::InvalidParameter {
            name: "controls",
            expected: "at least one control pair when the control rate is positive",
        });
    }
    Ok(())
}
