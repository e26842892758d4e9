//! The dashboard's figures, kept by the engine: [`Tally`] (the library's
//! ballot and worker statistics, brought up to date at each answer), the
//! ranking after the closed ballots, and what closing the open ballot now
//! lacks.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::Arc;

use adaptive_comp_metrics::ballot::{BallotStatus, Campaign, RankedItem, WorkerStats};
use adaptive_comp_metrics::pairwise::{
    BradleyTerry, CampaignVotes, Comparisons, Fit, Inference, Uncertainty,
};
use adaptive_comp_metrics::{Threads, with_threads};

use super::{AGREEMENT_REFRESH_MS, Bits, Engine};
use crate::state::WorkerSummary;

/// One worker's figures, as [`WorkerStats`] has them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WorkerTally {
    pub(crate) worker: String,
    pub(crate) votes: u64,
    pub(crate) controls: u64,
    pub(crate) correct: u64,
    pub(crate) discarded: u64,
    pub(crate) agreement_votes: u64,
    pub(crate) agreement_doubled: u64,
    pub(crate) excluded_at: Option<usize>,
}

impl From<WorkerStats> for WorkerTally {
    fn from(s: WorkerStats) -> Self {
        Self {
            worker: s.worker,
            votes: s.votes,
            controls: s.controls,
            correct: s.correct,
            discarded: s.discarded,
            agreement_votes: s.agreement_votes,
            agreement_doubled: s.agreement_doubled,
            excluded_at: s.excluded_at,
        }
    }
}

impl WorkerTally {
    /// The figures as the status shows them (accuracy and agreement worked
    /// out as [`WorkerStats::accuracy`] and [`WorkerStats::agreement`] do).
    pub(crate) fn summary(&self) -> WorkerSummary {
        WorkerSummary {
            worker: self.worker.clone(),
            votes: self.votes,
            controls: self.controls,
            correct: self.correct,
            accuracy: (self.controls > 0).then(|| self.correct as f64 / self.controls as f64),
            agreement: (self.agreement_votes > 0)
                .then(|| self.agreement_doubled as f64 / (2 * self.agreement_votes) as f64),
            discarded: self.discarded,
            excluded_at: self.excluded_at,
        }
    }
}

/// The dashboard's figures: [`Campaign::ballot_status`] and
/// [`Campaign::worker_stats`] (workers in the campaign's order), kept up to
/// date by the engine.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub(crate) ballots: Vec<BallotStatus>,
    pub(crate) workers: Vec<WorkerTally>,
    /// Worker name → index in `workers`.
    index: HashMap<String, usize>,
    /// When the agreement was computed.
    pub(crate) agreement_ms: u64,
}

impl Tally {
    pub(super) fn of(c: &Campaign, now: u64) -> Self {
        let workers: Vec<WorkerTally> = c.worker_stats().into_iter().map(Into::into).collect();
        let index = workers
            .iter()
            .enumerate()
            .map(|(i, w)| (w.worker.clone(), i))
            .collect();
        Self {
            ballots: c.ballot_status(),
            workers,
            index,
            agreement_ms: now,
        }
    }

    /// The figures of worker `name`.
    pub(crate) fn worker(&self, name: &str) -> Option<&WorkerTally> {
        self.index.get(name).map(|&i| &self.workers[i])
    }

    pub(super) fn worker_mut(&mut self, name: &str) -> &mut WorkerTally {
        let i = *self.index.entry(name.to_owned()).or_insert_with(|| {
            self.workers.push(WorkerTally {
                worker: name.to_owned(),
                ..WorkerTally::default()
            });
            self.workers.len() - 1
        });
        &mut self.workers[i]
    }
}

/// The Gaussian prior N(0, SD²) of the dashboard's Bradley–Terry scores:
/// a collection in progress often has items that won (or lost) every
/// comparison so far, whose maximum-likelihood scores are infinite.
pub(crate) const FIT_PRIOR_SD: f64 = 3.0;

/// k of the dashboard's P(top k) and settled top k.
pub(crate) const FIT_TOP_K: usize = 10;

/// A fit older than this is computed again when votes have come since
/// (the dashboard reloads every minute): under a steady stream of votes at
/// most one fit a minute, whatever the number of requests.
pub(crate) const FIT_REFRESH_MS: u64 = 60_000;

/// How long a dashboard request that finds the fit due waits for it (ms).
/// The fit runs on a thread of its own, outside the engine's lock: a fit
/// that takes longer (N = 10⁵ items: about 2 s on 2 idle cores) finishes
/// there, and until it does the dashboard shows the previous fit, or says
/// that the first is underway. Small campaigns' fits end well within it, so
/// their dashboards show the votes they were asked with.
pub(crate) const FIT_WAIT_MS: u64 = 1000;

/// The Bradley–Terry fit of every vote so far, as the dashboard shows it.
#[derive(Debug)]
pub(crate) struct Fitted {
    /// Votes counted by the fit (excluded workers' left out).
    pub(crate) votes: u64,
    /// Exclusions when it was fitted (with `votes`, the cache's key).
    pub(crate) exclusions: usize,
    /// When it was fitted.
    pub(crate) fitted_ms: u64,
    /// How long the fit took.
    pub(crate) took_ms: u64,
    /// The fit, its intervals, P(top k) and settled top k, and the items
    /// best first; or the library's refusal.
    pub(crate) result: Result<(Fit, Uncertainty, Vec<usize>), String>,
}

/// A fit to run outside the engine's lock: the votes, copied under it.
#[derive(Debug)]
pub(crate) struct FitJob {
    votes: u64,
    exclusions: usize,
    data: Comparisons,
}

impl FitJob {
    /// Fits Bradley–Terry (Davidson's ties, prior [`FIT_PRIOR_SD`]) with
    /// intervals, P(top [`FIT_TOP_K`]) and the settled top k, on one
    /// thread (the others' cores stay with the annotators' requests; the
    /// results are the same on any number).
    ///
    /// # Complexity
    /// O(votes + N) per Newton step, plus O(draws · N log N) for the rank
    /// intervals (at least 100 draws).
    pub(crate) fn run(self, now: u64) -> Fitted {
        let start = std::time::Instant::now();
        let data = &self.data;
        let one = Threads::Fixed(NonZeroUsize::MIN);
        let result = with_threads(one, || {
            BradleyTerry::new()
                .prior_sd(FIT_PRIOR_SD)
                .and_then(|m| m.fit(data))
                .and_then(|fit| {
                    let opts = Inference::new()
                        .top_k(FIT_TOP_K.min(data.n_items().max(1)))?
                        .threads(one);
                    let u = fit.uncertainty(data, &opts)?;
                    let order = fit.order();
                    Ok((fit, u, order))
                })
                .map_err(|e| e.to_string())
        });
        Fitted {
            votes: self.votes,
            exclusions: self.exclusions,
            fitted_ms: now,
            took_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
            result,
        }
    }
}

impl Engine {
    /// The votes to fit, when the dashboard's fit is due: none cached, or
    /// the vote count or exclusions changed and the cached fit is older
    /// than [`FIT_REFRESH_MS`]. `None` when it is not due, before the
    /// first vote, and while another request fits (it is then marked
    /// underway until [`fit_done`](Self::fit_done)).
    ///
    /// # Complexity
    /// O(votes) when due (the copy), O(1) otherwise.
    pub(crate) fn fit_due(&mut self, now: u64) -> Option<FitJob> {
        let c = &self.file.campaign;
        let votes = c.scheduler().total_votes();
        let exclusions = c.exclusions().len();
        if votes == 0 || self.fitting {
            return None;
        }
        if let Some(f) = &self.fitted {
            let same = f.votes == votes && f.exclusions == exclusions;
            if same || now.saturating_sub(f.fitted_ms) < FIT_REFRESH_MS {
                return None;
            }
        }
        self.fitting = true;
        Some(FitJob {
            votes,
            exclusions,
            data: Comparisons::from_campaign(c, CampaignVotes::default()),
        })
    }

    /// Keeps a finished fit for the dashboard.
    pub(crate) fn fit_done(&mut self, fitted: Fitted) {
        self.fitting = false;
        self.fitted = Some(Arc::new(fitted));
    }

    /// Forgets a due fit that could not be started (its thread was
    /// refused): the next dashboard request tries again.
    pub(crate) fn fit_abandoned(&mut self) {
        self.fitting = false;
    }

    /// Whether a fit is underway.
    pub(crate) fn fitting(&self) -> bool {
        self.fitting
    }

    /// The cached fit (`None` before the first).
    pub(crate) fn fitted(&self) -> Option<Arc<Fitted>> {
        self.fitted.clone()
    }

    /// The agreement is computed again when it is older than
    /// [`AGREEMENT_REFRESH_MS`] (O(tasks)); the other figures are exact.
    pub(crate) fn refresh_tally(&mut self, now: u64) {
        if now.saturating_sub(self.tally.agreement_ms) >= AGREEMENT_REFRESH_MS {
            self.tally = Tally::of(&self.file.campaign, now);
        }
    }

    /// The ranking after the closed ballots: computed once per closed
    /// ballot (O(N log N)), then shared. `None` before the first close.
    ///
    /// # Errors
    /// The library's, as a message.
    pub(crate) fn ranking(&mut self) -> Option<Result<Arc<Vec<RankedItem>>, String>> {
        let s = self.file.campaign.scheduler();
        let closed = s.history().len();
        if closed == 0 {
            return None;
        }
        if let Some((k, r)) = &self.ranking
            && *k == closed
        {
            return Some(Ok(Arc::clone(r)));
        }
        let f = &self.file;
        let r = f
            .ballot_rng
            .generator(f.seed)
            .map_err(|e| e.to_string())
            .and_then(|mut rng| f.campaign.ranking(&mut rng).map_err(|e| e.to_string()))
            .map(|r| Arc::new(r.entries));
        if let Ok(r) = &r {
            self.ranking = Some((closed, Arc::clone(r)));
        }
        Some(r)
    }

    /// What closing the open ballot now lacks: its number, comparisons
    /// without a vote, and the items without any vote (which make closing
    /// now impossible: withdrawing the comparisons without a vote leaves
    /// every item with one vote at least). `None` without an open ballot.
    ///
    /// # Complexity
    /// O(comparisons of the ballot).
    pub(crate) fn close_check(&self) -> Option<CloseCheck> {
        let c = &self.file.campaign;
        let k = c.open_ballot_number()?;
        let s = c.scheduler();
        let log = s.logs().get(k - 1)?;
        let n = s.config().n_items();
        let mut voted = Bits::new(n);
        let mut without = 0;
        for (cmp, v) in log.comparisons().iter().zip(log.votes()) {
            if v.is_some() {
                voted.set(cmp.first);
                voted.set(cmp.second);
            } else {
                without += 1;
            }
        }
        let unvoted: Vec<usize> = log
            .items()
            .iter()
            .copied()
            .filter(|&i| i < n && !voted.get(i))
            .collect();
        Some(CloseCheck {
            ballot: k,
            comparisons: log.comparisons().len(),
            without_vote: without,
            items: log.items().len(),
            unvoted_items: unvoted,
        })
    }
}

/// What closing the open ballot now lacks ([`Engine::close_check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CloseCheck {
    pub(crate) ballot: usize,
    pub(crate) comparisons: usize,
    pub(crate) without_vote: usize,
    pub(crate) items: usize,
    /// Items of the ballot without any vote.
    pub(crate) unvoted_items: Vec<usize>,
}

impl CloseCheck {
    /// Closing now (withdrawing the comparisons without a vote) is possible.
    pub(crate) fn can_withdraw(&self) -> bool {
        self.unvoted_items.is_empty()
    }
}

/// The header of the votes download.
pub(crate) const VOTES_CSV_HEADER: &str =
    "task_id,ballot,position,kind,first_id,second_id,worker,vote,counted\n";

impl Engine {
    /// `true` when worker `w` holds a task now.
    pub(crate) fn holds_lease(&self, w: u32, now: u64) -> bool {
        self.current_lease(w, now).is_some()
    }

    /// The rows of the votes download for ballot `k` (1-based): every
    /// answer, counted or discarded by an exclusion, as CSV.
    ///
    /// # Complexity
    /// O(tasks of the ballot).
    pub(crate) fn votes_csv(&self, k: usize) -> String {
        use std::fmt::Write as _;
        let f = &self.file;
        let c = &f.campaign;
        let vote = |v: adaptive_comp_metrics::ballot::Vote| match v {
            adaptive_comp_metrics::ballot::Vote::First => "first",
            adaptive_comp_metrics::ballot::Vote::Second => "second",
            adaptive_comp_metrics::ballot::Vote::Tie => "tie",
        };
        let mut out = String::new();
        let mut row = |id: adaptive_comp_metrics::ballot::TaskId, who: &str, v, counted: bool| {
            let Some(t) = c.task(id) else { return };
            let kind = match t.task {
                adaptive_comp_metrics::ballot::Task::Control { .. } => "control",
                adaptive_comp_metrics::ballot::Task::Comparison { .. } => "comparison",
            };
            let _ = writeln!(
                out,
                "{},{},{},{kind},{},{},{},{},{counted}",
                csv_field(&f.task_label(id)),
                id.ballot,
                id.position,
                csv_field(f.thing(t.first).0),
                csv_field(f.thing(t.second).0),
                csv_field(who),
                vote(v),
            );
        };
        let n = c.layout(k).map_or(0, |l| l.len());
        for position in 0..n {
            let id = adaptive_comp_metrics::ballot::TaskId {
                ballot: k,
                position,
            };
            if let Some((who, v)) = c.answer_of(id) {
                row(id, who, v, true);
            }
        }
        for (id, who, v) in c.discarded(k) {
            row(id, who, v, false);
        }
        out
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break, and
/// prefixed with `'` when a spreadsheet would read it as a formula.
pub(crate) fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
