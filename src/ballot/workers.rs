//! Worker statistics of a [`Campaign`]: answers, accuracy on control pairs,
//! agreement with the majority; the progress of each ballot; and the
//! exclusion of workers under an accuracy threshold.
//!
//! ```text
//! accuracy_w  = correct control answers / control answers          (all ballots, discarded ones too)
//! x_i^(−w)    = (n_i − n_i^w) / (M_i − M_i^w)                       (Eq. 1 of the ballot without w's votes)
//! agreement_w = Σ_{w's votes on (i, j)} a / #counted,   a = 1 when the item w chose has the larger
//!               x^(−w), 0 when the smaller, ½ for a tie vote or equal x^(−w);
//!               a vote counts when both items have another vote in the ballot
//! ```
//!
//! With one answer per comparison there is no per-task majority; the
//! "majority" of a pair is the order the rest of the crowd gives its two
//! items in that ballot (their Borda scores without the worker's own votes).

use super::campaign::{Campaign, Discarded, Exclusion};
use super::error::{BallotError, Result};
use super::log::Vote;
use super::tasks::Task;

/// What one worker did, over the whole campaign.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorkerStats {
    /// The worker id.
    pub worker: String,
    /// Votes on comparisons that count (not discarded).
    pub votes: u64,
    /// Control answers (discarded ones included).
    pub controls: u64,
    /// Correct control answers.
    pub correct: u64,
    /// Answers discarded when the worker was excluded.
    pub discarded: u64,
    /// Votes counted for the agreement (both items voted on by others).
    pub agreement_votes: u64,
    /// Twice the agreement numerator Σ a (an integer).
    pub agreement_doubled: u64,
    /// The ballot at which the worker was excluded.
    pub excluded_at: Option<usize>,
}

impl WorkerStats {
    /// Accuracy on control pairs, correct/controls (`None` without any).
    #[must_use]
    pub fn accuracy(&self) -> Option<f64> {
        (self.controls > 0).then(|| self.correct as f64 / self.controls as f64)
    }

    /// Agreement with the majority (`None` without a counted vote).
    #[must_use]
    pub fn agreement(&self) -> Option<f64> {
        (self.agreement_votes > 0)
            .then(|| self.agreement_doubled as f64 / (2 * self.agreement_votes) as f64)
    }
}

/// The progress of one ballot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BallotStatus {
    /// The ballot (1-based).
    pub ballot: usize,
    /// Its items.
    pub items: usize,
    /// Its comparisons.
    pub comparisons: usize,
    /// Its control tasks.
    pub control_tasks: usize,
    /// Comparisons with a vote.
    pub votes: usize,
    /// Control tasks with an answer.
    pub control_answers: usize,
    /// Comparisons without a vote (withdrawn, once closed).
    pub missing: usize,
    /// Answers discarded by exclusions.
    pub discarded: usize,
    /// `true` once closed.
    pub closed: bool,
}

serde_mirror! {
    /// Who is excluded: workers with at least `min_controls` control answers
    /// and an accuracy below `min_accuracy`.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::ExclusionRule;
    /// let r = ExclusionRule::new(0.7, 5)?;
    /// assert_eq!(r.min_accuracy(), 0.7);
    /// assert!(ExclusionRule::new(1.5, 5).is_err());
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct ExclusionRule {
        min_accuracy: f64,
        min_controls: u64,
    }
    // The unvalidated mirror of [`ExclusionRule`] that serde reads.
    mirror ExclusionRuleRepr, BallotError, |r| Self::new(r.min_accuracy, r.min_controls)
}

impl ExclusionRule {
    /// A rule; `min_controls` of 0 is taken as 1 (no control, no verdict).
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] for an accuracy outside [0, 1] or NaN.
    pub fn new(min_accuracy: f64, min_controls: u64) -> Result<Self> {
        if !(0.0..=1.0).contains(&min_accuracy) {
            return Err(BallotError::InvalidParameter {
                name: "min_accuracy",
                expected: "an accuracy in [0, 1]",
            });
        }
        Ok(Self {
            min_accuracy,
            min_controls: min_controls.max(1),
        })
    }

    /// The accuracy threshold.
    #[must_use]
    pub fn min_accuracy(&self) -> f64 {
        self.min_accuracy
    }

    /// The control answers needed for a verdict.
    #[must_use]
    pub fn min_controls(&self) -> u64 {
        self.min_controls
    }

    /// Whether the rule condemns a worker with `controls` control answers,
    /// `correct` of them right: at least [`min_controls`](Self::min_controls)
    /// answers and an accuracy correct/controls below
    /// [`min_accuracy`](Self::min_accuracy). A server that keeps these two
    /// counts per worker can apply the rule after every control answer
    /// ([`Campaign::exclude_worker`]) instead of at the end of a ballot.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::ExclusionRule;
    /// let r = ExclusionRule::new(0.7, 5)?;
    /// assert!(!r.condemns(4, 0)); // too few control answers for a verdict
    /// assert!(r.condemns(5, 3)); // 0.6 < 0.7
    /// assert!(!r.condemns(10, 7)); // 0.7 is not below 0.7
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    #[must_use]
    pub fn condemns(&self, controls: u64, correct: u64) -> bool {
        controls >= self.min_controls && (correct as f64) < self.min_accuracy * controls as f64
    }

    fn excludes(&self, s: &WorkerStats) -> bool {
        s.excluded_at.is_none() && self.condemns(s.controls, s.correct)
    }
}

impl Campaign {
    /// Statistics of every worker, in the order of [`Campaign::workers`].
    ///
    /// # Complexity
    /// O(tasks + N·ballots) time, O(workers + N) memory.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{
    ///     BallotConfig, Campaign, ControlPair, ExclusionRule, LayoutOptions, Scheduler, Vote,
    /// };
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let scheduler = Scheduler::new(BallotConfig::new(20, 4, 0.5, 2)?);
    /// // Item 0 beats item 19: a control pair; a third of the tasks are controls.
    /// let controls = vec![ControlPair::new(0, 19, Vote::First)?];
    /// let mut c = Campaign::new(scheduler, controls, LayoutOptions::new(1.0 / 3.0, None)?)?;
    /// c.open_ballot(&mut rng, &mut rand::rngs::StdRng::seed_from_u64(2))?;
    /// let tasks: Vec<_> = c.tasks().collect();
    /// for (k, t) in tasks.iter().enumerate() {
    ///     // "ok" votes for the smaller item, "lazy" always for the first shown.
    ///     let (worker, vote) = if k % 2 == 0 {
    ///         ("ok", if t.first < t.second { Vote::First } else { Vote::Second })
    ///     } else {
    ///         ("lazy", Vote::First)
    ///     };
    ///     c.answer(t.id, worker, vote)?;
    /// }
    /// let stats = c.worker_stats();
    /// let ok = stats.iter().find(|s| s.worker == "ok").unwrap();
    /// assert_eq!(ok.accuracy(), Some(1.0));
    /// // Excluding workers under 90% accuracy (with 3 controls at least) spares "ok".
    /// let out = c.exclude_workers(&ExclusionRule::new(0.9, 3)?)?;
    /// assert!(out.iter().all(|e| e.worker == "lazy"));
    /// # Ok::<(), adaptive_comp_metrics::Error>(())
    /// ```
    #[must_use]
    pub fn worker_stats(&self) -> Vec<WorkerStats> {
        let mut out: Vec<WorkerStats> = self
            .workers
            .iter()
            .zip(&self.excluded_at)
            .map(|(w, &excluded_at)| WorkerStats {
                worker: w.clone(),
                votes: 0,
                controls: 0,
                correct: 0,
                discarded: 0,
                agreement_votes: 0,
                agreement_doubled: 0,
                excluded_at,
            })
            .collect();
        for (k0, b) in self.ballots.iter().enumerate() {
            for (p, a) in b.answers.iter().enumerate() {
                let Some((w, vote)) = *a else { continue };
                let s = &mut out[w as usize];
                match b.layout.task(p).and_then(|t| self.expected(t)) {
                    Some(expected) => {
                        s.controls += 1;
                        s.correct += u64::from(vote == expected);
                    }
                    None => s.votes += 1,
                }
            }
            for &Discarded {
                position,
                worker,
                vote,
            } in &b.discarded
            {
                let s = &mut out[worker as usize];
                s.discarded += 1;
                if let Some(expected) = b.layout.task(position).and_then(|t| self.expected(t)) {
                    s.controls += 1;
                    s.correct += u64::from(vote == expected);
                }
            }
            self.add_agreement(k0, &mut out);
        }
        out
    }

    /// Adds the leave-worker-out agreement of ballot `k0` (0-based).
    fn add_agreement(&self, k0: usize, out: &mut [WorkerStats]) {
        let log = &self.scheduler.logs()[k0];
        let items = log.items();
        let b = &self.ballots[k0];
        let n_items = self.scheduler.config().n_items();
        let mut slot = vec![u32::MAX; n_items];
        for (p, &i) in items.iter().enumerate() {
            slot[i] = p as u32;
        }
        // Per item of the ballot: doubled wins and appearances over all
        // counted votes; per vote: (worker, slot a, slot b, vote).
        let mut wins2 = vec![0u64; items.len()];
        let mut seen = vec![0u64; items.len()];
        let mut votes: Vec<(u32, u32, u32, Vote)> = Vec::new();
        for ((t, v), p) in log
            .votes()
            .iter()
            .enumerate()
            .zip(b.layout.ticket_positions())
        {
            let (Some(vote), Some((w, _))) = (*v, b.answers[p]) else {
                continue;
            };
            let c = log.comparisons()[t];
            let (sa, sb) = (slot[c.first], slot[c.second]);
            add(&mut wins2, &mut seen, sa, sb, vote, 1);
            votes.push((w, sa, sb, vote));
        }
        votes.sort_unstable_by_key(|v| v.0);
        let mut own_w = vec![0u64; items.len()];
        let mut own_s = vec![0u64; items.len()];
        for group in votes.chunk_by(|a, b| a.0 == b.0) {
            for &(_, sa, sb, vote) in group {
                add(&mut own_w, &mut own_s, sa, sb, vote, 1);
            }
            let s = &mut out[group[0].0 as usize];
            for &(_, sa, sb, vote) in group {
                let (a, b) = (sa as usize, sb as usize);
                let (ma, mb) = (seen[a] - own_s[a], seen[b] - own_s[b]);
                if ma == 0 || mb == 0 {
                    continue;
                }
                // x_a' > x_b'  ⇔  (wins2_a')·M_b' > (wins2_b')·M_a'
                let xa = u128::from(wins2[a] - own_w[a]) * u128::from(mb);
                let xb = u128::from(wins2[b] - own_w[b]) * u128::from(ma);
                let doubled = match vote {
                    Vote::Tie => 1,
                    _ if xa == xb => 1,
                    Vote::First => 2 * u64::from(xa > xb),
                    Vote::Second => 2 * u64::from(xb > xa),
                };
                s.agreement_votes += 1;
                s.agreement_doubled += doubled;
            }
            for &(_, sa, sb, vote) in group {
                add(&mut own_w, &mut own_s, sa, sb, vote, -1);
            }
        }
    }

    /// The progress of every opened ballot.
    ///
    /// # Complexity
    /// O(tasks).
    #[must_use]
    pub fn ballot_status(&self) -> Vec<BallotStatus> {
        self.ballots
            .iter()
            .zip(self.scheduler.logs())
            .enumerate()
            .map(|(k0, (b, log))| {
                let votes = log.votes().iter().filter(|v| v.is_some()).count();
                let control_answers = b
                    .layout
                    .controls
                    .iter()
                    .filter(|c| b.answers[c.position].is_some())
                    .count();
                BallotStatus {
                    ballot: k0 + 1,
                    items: log.items().len(),
                    comparisons: log.comparisons().len(),
                    control_tasks: b.layout.n_controls(),
                    votes,
                    control_answers,
                    missing: log.comparisons().len() - votes,
                    discarded: b.discarded.len(),
                    closed: log.is_closed(),
                }
            })
            .collect()
    }

    /// Excludes every worker the rule condemns: their answers of the open
    /// ballot are discarded (votes retracted from the scheduler, tasks open
    /// again) and kept in the log; their later answers are ignored. Votes of
    /// closed ballots stay: their scores are final.
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`] when no ballot is open.
    ///
    /// # Complexity
    /// O(tasks + N·ballots).
    pub fn exclude_workers(&mut self, rule: &ExclusionRule) -> Result<Vec<Exclusion>> {
        self.check_open()?;
        let stats = self.worker_stats();
        let chosen: Vec<usize> = stats
            .iter()
            .enumerate()
            .filter(|(_, s)| rule.excludes(s))
            .map(|(w, _)| w)
            .collect();
        Ok(self.exclude(&chosen, &stats))
    }

    /// Excludes one worker by id, whatever their accuracy (as
    /// [`Campaign::exclude_workers`]). Returns `None` when the worker is
    /// unknown or already excluded.
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`] when no ballot is open.
    pub fn exclude_worker(&mut self, worker: &str) -> Result<Option<Exclusion>> {
        self.check_open()?;
        let Some(&w) = self.index.get(worker) else {
            return Ok(None);
        };
        if self.excluded_at[w as usize].is_some() {
            return Ok(None);
        }
        let stats = self.worker_stats();
        Ok(self.exclude(&[w as usize], &stats).pop())
    }

    fn check_open(&self) -> Result<usize> {
        self.open_ballot_number().ok_or(BallotError::NoOpenBallot {
            closed: self.scheduler.history().len(),
        })
    }

    fn exclude(&mut self, chosen: &[usize], stats: &[WorkerStats]) -> Vec<Exclusion> {
        let Some(ballot) = self.open_ballot_number() else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(chosen.len());
        let mut hit = vec![false; self.workers.len()];
        for &w in chosen {
            self.excluded_at[w] = Some(ballot);
            hit[w] = true;
        }
        let mut discarded = vec![0u64; self.workers.len()];
        let b = &mut self.ballots[ballot - 1];
        for p in 0..b.answers.len() {
            let Some((w, vote)) = b.answers[p] else {
                continue;
            };
            if !hit[w as usize] {
                continue;
            }
            b.answers[p] = None;
            b.discarded.push(Discarded {
                position: p,
                worker: w,
                vote,
            });
            discarded[w as usize] += 1;
            if let Some(Task::Comparison { ticket }) = b.layout.task(p) {
                // The answer was recorded, so the ticket has a vote: cannot fail.
                let r = self.scheduler.retract(ticket);
                debug_assert!(r.is_ok());
            }
        }
        for &w in chosen {
            let e = Exclusion {
                worker: self.workers[w].clone(),
                ballot,
                controls: stats[w].controls,
                correct: stats[w].correct,
                discarded: discarded[w],
            };
            self.exclusions.push(e.clone());
            out.push(e);
        }
        out
    }
}

/// Adds (`sign` = 1) or removes (−1) a vote's doubled wins and appearances.
fn add(wins2: &mut [u64], seen: &mut [u64], a: u32, b: u32, vote: Vote, sign: i8) {
    let (a, b) = (a as usize, b as usize);
    let (wa, wb) = match vote {
        Vote::First => (2, 0),
        Vote::Second => (0, 2),
        Vote::Tie => (1, 1),
    };
    if sign > 0 {
        wins2[a] += wa;
        wins2[b] += wb;
        seen[a] += 1;
        seen[b] += 1;
    } else {
        wins2[a] -= wa;
        wins2[b] -= wb;
        seen[a] -= 1;
        seen[b] -= 1;
    }
}
