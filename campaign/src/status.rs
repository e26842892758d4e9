//! Where a campaign stands: the figures `acm campaign status` prints (as a
//! table or as JSON) and the server's dashboard shows, as one typed value.

use adaptive_comp_metrics::ballot::{BallotStatus, Phase, WorkerStats};
use serde::Serialize;

use crate::CampaignFile;

/// One worker's figures: [`WorkerStats`] with its accuracy and agreement
/// worked out.
///
/// ```text
/// accuracy  = correct / controls                                   (null without control answers)
/// agreement = agreement_doubled / (2 · agreement_votes)            (null without a counted vote)
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkerSummary {
    /// The worker id.
    pub worker: String,
    /// Votes on comparisons that count (not discarded).
    pub votes: u64,
    /// Control answers (discarded ones included).
    pub controls: u64,
    /// Correct control answers.
    pub correct: u64,
    /// Accuracy on control pairs.
    pub accuracy: Option<f64>,
    /// Agreement with the majority: how often the worker's vote goes the way
    /// the rest of the crowd orders the pair in that ballot (a tie counts
    /// half).
    pub agreement: Option<f64>,
    /// Answers discarded when the worker was excluded.
    pub discarded: u64,
    /// The ballot at which the worker was excluded.
    pub excluded_at: Option<usize>,
}

impl From<&WorkerStats> for WorkerSummary {
    fn from(s: &WorkerStats) -> Self {
        Self {
            worker: s.worker.clone(),
            votes: s.votes,
            controls: s.controls,
            correct: s.correct,
            accuracy: s.accuracy(),
            agreement: s.agreement(),
            discarded: s.discarded,
            excluded_at: s.excluded_at,
        }
    }
}

/// Where a campaign stands. Serialized as `acm campaign status --format
/// json` prints it (the phase is not part of it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CampaignStatus {
    /// The campaign's tag.
    pub tag: String,
    /// Items (N).
    pub items: usize,
    /// Comparisons per item and ballot (M).
    pub m: usize,
    /// The share of items kept from one ballot to the next (α).
    pub alpha: f64,
    /// Ballots planned.
    pub n_ballots: usize,
    /// Control pairs.
    pub control_pairs: usize,
    /// The open ballot.
    pub open_ballot: Option<usize>,
    /// Open, ready for the next ballot, or finished.
    #[serde(skip)]
    pub phase: Phase,
    /// Every opened ballot.
    pub ballots: Vec<BallotStatus>,
    /// Every worker with an answer, by id.
    pub workers: Vec<WorkerSummary>,
}

impl CampaignFile {
    /// Where the campaign stands; workers sorted by id.
    ///
    /// # Complexity
    /// O(tasks + N·ballots + W log W).
    #[must_use]
    pub fn status(&self) -> CampaignStatus {
        let c = &self.campaign;
        let cfg = c.scheduler().config();
        let mut stats = c.worker_stats();
        stats.sort_by(|a, b| a.worker.cmp(&b.worker));
        CampaignStatus {
            tag: self.tag.clone(),
            items: cfg.n_items(),
            m: cfg.m(),
            alpha: cfg.alpha(),
            n_ballots: cfg.n_ballots(),
            control_pairs: c.controls().len(),
            open_ballot: c.open_ballot_number(),
            phase: c.scheduler().phase(),
            ballots: c.ballot_status(),
            workers: stats.iter().map(WorkerSummary::from).collect(),
        }
    }
}
