//! The dashboard's status: what `/admin` shows and `/admin/status.json`
//! gives, as one typed document built from the engine's figures under its
//! lock in O(workers + ballots + the ranking entries listed): no copy of the
//! campaign per request.

use adaptive_comp_metrics::ballot::{BallotStatus, Exclusion, Phase};
use serde::Serialize;

use crate::engine::{Engine, Finish, Fitted, WorkerTally};
use crate::state::WorkerSummary;

/// The whole status.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Status {
    /// The campaign and where it stands.
    pub(crate) campaign: CampaignInfo,
    /// Every opened ballot.
    pub(crate) ballots: Vec<BallotRow>,
    /// Tasks leased now and not answered.
    pub(crate) live_leases: usize,
    /// The serving policy.
    pub(crate) policy: PolicyInfo,
    /// Every worker: those with answers (the campaign's order), then those
    /// who came and have not answered.
    pub(crate) workers: Vec<WorkerRow>,
    /// The exclusions, in order.
    pub(crate) exclusions: Vec<Exclusion>,
    /// The ranking after the closed ballots (`null` before the first close).
    pub(crate) ranking: Option<RankingInfo>,
    /// The Bradley–Terry ranking of every vote so far, with intervals and
    /// the settled top k (`null` before the first vote).
    pub(crate) fitted: Option<FittedInfo>,
    /// Invitation links.
    pub(crate) invitations: Vec<InvitationRow>,
    /// What closing the open ballot now lacks (`null` without an open ballot).
    pub(crate) close: Option<CloseInfo>,
    /// When the status was taken (ms since the epoch).
    pub(crate) now_ms: u64,
    /// When the agreement figures were computed.
    pub(crate) agreement_ms: u64,
}

/// The campaign.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CampaignInfo {
    pub(crate) tag: String,
    pub(crate) title: String,
    pub(crate) items: usize,
    pub(crate) m: usize,
    pub(crate) alpha: f64,
    pub(crate) ballots: usize,
    pub(crate) control_pairs: usize,
    /// `open`, `ready` or `finished`.
    pub(crate) phase: &'static str,
    pub(crate) open_ballot: Option<usize>,
    /// The open ballot has all its votes and is being closed.
    pub(crate) closing: bool,
    pub(crate) votes: u64,
    /// Comparisons of every ballot (the campaign's budget of votes).
    pub(crate) budget: usize,
    /// When the first ballot opened in this store (ms since the epoch).
    pub(crate) started_ms: Option<u64>,
    /// Votes a hour since then.
    pub(crate) votes_per_hour: Option<f64>,
    /// Seconds until the budget is voted at that pace.
    pub(crate) eta_seconds: Option<f64>,
    /// Workers active now (holding a task, or who answered in the last
    /// [`ACTIVE_MS`]).
    pub(crate) active_workers: usize,
    /// Tasks of every ballot: the comparisons and the control tasks (those
    /// of the opened ballots, and what the layout gives the others).
    pub(crate) tasks_budget: usize,
    /// The price of a task (`init --price`), if any.
    pub(crate) price: Option<f64>,
    /// `tasks_budget` × price.
    pub(crate) cost_budget: Option<f64>,
    /// Every answer recorded through the server × price: what the workers
    /// earned so far.
    pub(crate) spent: Option<f64>,
}

/// A worker is active when they hold a task or answered this recently.
pub(crate) const ACTIVE_MS: u64 = 5 * 60 * 1000;

/// One ballot: the library's figures, and when it opened and closed.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BallotRow {
    #[serde(flatten)]
    pub(crate) status: BallotStatus,
    pub(crate) opened_ms: Option<u64>,
    pub(crate) closed_ms: Option<u64>,
}

/// The serving policy.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PolicyInfo {
    pub(crate) quota: Option<usize>,
    pub(crate) lease_seconds: u64,
    pub(crate) min_accuracy: Option<f64>,
    pub(crate) min_controls: Option<u64>,
}

/// One worker: the figures `acm campaign status` has, and what the server
/// knows.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct WorkerRow {
    #[serde(flatten)]
    pub(crate) stats: WorkerSummary,
    /// How they came: the URL parameter, `invitation`, or `file` (answers
    /// imported by the file workflow).
    pub(crate) source: String,
    /// Answers recorded through the server, discarded ones included: the
    /// work done, for payment.
    pub(crate) answers: u64,
    /// Answers in the open ballot (what the quota counts).
    pub(crate) answered_now: usize,
    /// The URL parameters recorded (STUDY_ID, SESSION_ID, …).
    pub(crate) params: serde_json::Map<String, serde_json::Value>,
    pub(crate) arrived_ms: Option<u64>,
    pub(crate) first_answer_ms: Option<u64>,
    pub(crate) last_answer_ms: Option<u64>,
    /// When they stopped by "I want to stop here".
    pub(crate) stopped_ms: Option<u64>,
    /// Holding a task, or answered in the last [`ACTIVE_MS`].
    pub(crate) active: bool,
    /// Control accuracy under the exclusion rule's threshold (or under
    /// 0.7 without a rule), over at least its number of control answers.
    pub(crate) failing_controls: bool,
    /// What the end screen gave them: `full` (the completion code),
    /// `partial` (stopped under the quota: the partial code, if any),
    /// `excluded` (stopped by the exclusion rule), or `null` (still going,
    /// or gone without reaching the end).
    pub(crate) completion: Option<&'static str>,
    /// Votes the agreement was counted over (those whose two items have
    /// votes of others in the ballot).
    pub(crate) agreement_votes: u64,
    /// `answers` × the price of a task (`null` without a price).
    pub(crate) earned: Option<f64>,
}

/// The ranking.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum RankingInfo {
    /// The first entries.
    Ranked {
        closed_ballots: usize,
        total: usize,
        items: Vec<RankedRow>,
    },
    /// The library refused.
    Failed { error: String },
}

/// An item's place in a ranking: what a row of the ranking and of the fit
/// begins with.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RankedItem {
    pub(crate) rank: usize,
    pub(crate) id: String,
    pub(crate) text: String,
    /// The ranking's score; the fit's log-strength, centred.
    pub(crate) score: f64,
}

/// One ranked item.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RankedRow {
    #[serde(flatten)]
    pub(crate) item: RankedItem,
    pub(crate) last_ballot: usize,
}

/// The Bradley–Terry ranking of the votes so far.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum FittedInfo {
    /// The first entries.
    Ranked {
        /// Votes the fit counted.
        votes: u64,
        /// When it was fitted (ms since the epoch).
        fitted_ms: u64,
        /// How long the fit took (ms).
        took_ms: u64,
        /// The Gaussian prior's SD on the scores.
        prior_sd: f64,
        /// The intervals' coverage.
        level: f64,
        /// Items in all.
        total: usize,
        /// The first entries, best first.
        items: Vec<FittedRow>,
        /// Whether the top k is settled.
        settled: SettledInfo,
    },
    /// The library refused.
    Failed { error: String },
    /// The first fit is underway (on a thread of its own: a large
    /// campaign's takes longer than a request waits).
    Underway {
        /// Always true.
        underway: bool,
    },
}

/// One item of the fitted ranking.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FittedRow {
    #[serde(flatten)]
    pub(crate) item: RankedItem,
    pub(crate) low: f64,
    pub(crate) high: f64,
    pub(crate) rank_low: usize,
    pub(crate) rank_high: usize,
    /// P(in the top k).
    pub(crate) p_top_k: f64,
}

/// Whether the fitted top k is settled.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SettledInfo {
    pub(crate) k: usize,
    /// The top k's ids, best first.
    pub(crate) top: Vec<String>,
    /// P(the estimated top k is the top k).
    pub(crate) probability: f64,
    pub(crate) target: f64,
    pub(crate) settled: bool,
    /// The largest settled top k' (0: none).
    pub(crate) largest_settled: usize,
    /// About how many further comparisons would settle it (`null`: no
    /// number of the same comparisons can).
    pub(crate) further_comparisons: Option<u64>,
}

/// An invitation.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct InvitationRow {
    pub(crate) worker: String,
    pub(crate) path: String,
}

/// What closing the open ballot now lacks.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CloseInfo {
    pub(crate) ballot: usize,
    pub(crate) comparisons: usize,
    pub(crate) without_vote: usize,
    pub(crate) items: usize,
    /// Items without any vote: closing now is impossible while there are.
    pub(crate) unvoted_items: usize,
    /// The ids of the first of them.
    pub(crate) unvoted_examples: Vec<String>,
    /// Closing now, withdrawing the comparisons without a vote, is possible.
    pub(crate) can_close_now: bool,
}

/// Items named in a refusal or on the dashboard, at most.
pub(crate) const EXAMPLES: usize = 10;

impl Engine {
    /// The status. `top`: ranking entries to list (`None`: all).
    ///
    /// # Complexity
    /// O(workers + ballots + listed entries + comparisons of the open
    /// ballot); O(tasks) when the agreement is due again
    /// ([`Engine::refresh_tally`]); O(N log N) after a close.
    pub(crate) fn status(&mut self, top: Option<usize>, now: u64) -> Status {
        self.refresh_tally(now);
        let ranking = self.ranking().map(|r| match r {
            Ok(entries) => {
                let n = top.unwrap_or(entries.len()).min(entries.len());
                RankingInfo::Ranked {
                    closed_ballots: self.file.campaign.scheduler().history().len(),
                    total: entries.len(),
                    items: entries[..n]
                        .iter()
                        .enumerate()
                        .map(|(i, it)| RankedRow {
                            item: self.ranked_item(i + 1, it.item, it.score),
                            last_ballot: it.last_ballot,
                        })
                        .collect(),
                }
            }
            Err(error) => RankingInfo::Failed { error },
        });
        let fitted = match self.fitted() {
            Some(f) => Some(self.fitted_info(&f, top)),
            None if self.fitting() => Some(FittedInfo::Underway { underway: true }),
            None => None,
        };
        let f = &self.file;
        let c = &f.campaign;
        let s = c.scheduler();
        let cfg = s.config();
        let phase = match s.phase() {
            Phase::Open { .. } => "open",
            Phase::Ready { .. } => "ready",
            Phase::Finished => "finished",
        };
        let campaign = CampaignInfo {
            tag: f.tag.clone(),
            title: crate::state::PageSettings::resolve(f.page.as_ref()).title,
            items: cfg.n_items(),
            m: cfg.m(),
            alpha: cfg.alpha(),
            ballots: cfg.n_ballots(),
            control_pairs: c.controls().len(),
            phase,
            open_ballot: c.open_ballot_number(),
            closing: self.transition,
            votes: s.total_votes(),
            budget: s.ballot_sizes().iter().map(|b| b * cfg.m() / 2).sum(),
            started_ms: None,
            votes_per_hour: None,
            eta_seconds: None,
            active_workers: 0,
            tasks_budget: 0,
            price: f.price,
            cost_budget: None,
            spent: None,
        };
        let ballots = self
            .tally
            .ballots
            .iter()
            .enumerate()
            .map(|(k0, b)| {
                let (opened_ms, closed_ms) = self.ballot_times.get(k0).copied().unwrap_or_default();
                BallotRow {
                    status: *b,
                    opened_ms,
                    closed_ms,
                }
            })
            .collect();
        let mut workers: Vec<WorkerRow> = Vec::with_capacity(self.workers().len());
        for t in &self.tally.workers {
            let id = self.worker_id(&t.worker);
            workers.push(self.worker_row(id, Some(t), now));
        }
        for w in self.workers() {
            if self.tally.worker(&w.name).is_none() {
                workers.push(self.worker_row(Some(w.id), None, now));
            }
        }
        let started_ms = self.ballot_times.first().and_then(|t| t.0);
        let elapsed_h = started_ms.map(|t| now.saturating_sub(t) as f64 / 3.6e6);
        let votes_per_hour = elapsed_h
            .filter(|&h| h > 0.0 && campaign.votes > 0)
            .map(|h| campaign.votes as f64 / h);
        let eta_seconds = votes_per_hour
            .map(|r| (campaign.budget as f64 - campaign.votes as f64).max(0.0) / r * 3600.0);
        // The opened ballots' control tasks as laid out; the others' as the
        // layout will give them.
        let layout = c.layout_options();
        let tasks_budget = s
            .ballot_sizes()
            .iter()
            .enumerate()
            .map(|(k0, b)| {
                let comparisons = b * cfg.m() / 2;
                let controls = self.tally.ballots.get(k0).map_or_else(
                    || layout.n_controls(comparisons).unwrap_or(0),
                    |b| b.control_tasks,
                );
                comparisons + controls
            })
            .sum();
        let price = f.price;
        let campaign = CampaignInfo {
            started_ms,
            votes_per_hour,
            eta_seconds,
            active_workers: workers.iter().filter(|w| w.active).count(),
            tasks_budget,
            cost_budget: price.map(|p| p * tasks_budget as f64),
            spent: price.map(|p| p * workers.iter().map(|w| w.answers).sum::<u64>() as f64),
            ..campaign
        };
        let close = self.close_check().map(|k| CloseInfo {
            ballot: k.ballot,
            comparisons: k.comparisons,
            without_vote: k.without_vote,
            items: k.items,
            unvoted_items: k.unvoted_items.len(),
            unvoted_examples: k
                .unvoted_items
                .iter()
                .take(EXAMPLES)
                .map(|&i| self.file.thing(i).0.to_owned())
                .collect(),
            can_close_now: k.can_withdraw(),
        });
        Status {
            campaign,
            ballots,
            live_leases: self.live_leases(now),
            policy: PolicyInfo {
                quota: self.policy.quota,
                lease_seconds: self.policy.lease_ms / 1000,
                min_accuracy: self.policy.rule.map(|r| r.min_accuracy()),
                min_controls: self.policy.rule.map(|r| r.min_controls()),
            },
            workers,
            exclusions: c.exclusions().to_vec(),
            ranking,
            fitted,
            invitations: self
                .invitations
                .iter()
                .map(|(t, n)| InvitationRow {
                    worker: n.clone(),
                    path: format!("/invite/{t}"),
                })
                .collect(),
            close,
            now_ms: now,
            agreement_ms: self.tally.agreement_ms,
        }
    }

    /// The dashboard's view of a fit: its first `top` entries (all:
    /// `None`), ids and texts looked up.
    fn fitted_info(&self, f: &Fitted, top: Option<usize>) -> FittedInfo {
        let (fit, u, order) = match &f.result {
            Ok(r) => r,
            Err(error) => {
                return FittedInfo::Failed {
                    error: error.clone(),
                };
            }
        };
        let n = top.unwrap_or(order.len()).min(order.len());
        FittedInfo::Ranked {
            votes: f.votes,
            fitted_ms: f.fitted_ms,
            took_ms: f.took_ms,
            prior_sd: crate::engine::FIT_PRIOR_SD,
            level: u.level,
            total: order.len(),
            items: order[..n]
                .iter()
                .enumerate()
                .map(|(r, &i)| FittedRow {
                    item: self.ranked_item(r + 1, i, fit.scores[i]),
                    low: u.intervals[i][0],
                    high: u.intervals[i][1],
                    rank_low: u.rank_intervals[i][0],
                    rank_high: u.rank_intervals[i][1],
                    p_top_k: u.top_k_probability[i],
                })
                .collect(),
            settled: SettledInfo {
                k: u.settled.k,
                top: u
                    .settled
                    .top
                    .iter()
                    .map(|&i| self.file.thing(i).0.to_owned())
                    .collect(),
                probability: u.settled.probability,
                target: u.settled.target,
                settled: u.settled.settled,
                largest_settled: u.settled.largest_settled,
                further_comparisons: u.settled.further_comparisons,
            },
        }
    }

    /// Item `i` at `rank` with `score`, its id and text looked up.
    fn ranked_item(&self, rank: usize, i: usize, score: f64) -> RankedItem {
        let (id, text, _) = self.file.thing(i);
        RankedItem {
            rank,
            id: id.to_owned(),
            text: text.to_owned(),
            score,
        }
    }

    /// One worker's row: `id` when they came through the server, `t` when
    /// they have answers.
    fn worker_row(&self, id: Option<u32>, t: Option<&WorkerTally>, now: u64) -> WorkerRow {
        let row = id.and_then(|w| self.workers().get(w as usize));
        let activity = id.and_then(|w| self.activity.get(w as usize));
        let finish: Option<Finish> = id.and_then(|w| self.finished.get(&w).copied());
        let params = row
            .and_then(|r| serde_json::from_str::<serde_json::Value>(&r.params).ok())
            .and_then(|v| match v {
                serde_json::Value::Object(m) => Some(m),
                _ => None,
            })
            .unwrap_or_default();
        let answered_now = id.map_or(0, |w| self.answered(w));
        let done = id.and_then(|w| self.done_state(w));
        let active = id.is_some_and(|w| self.holds_lease(w, now))
            || activity
                .and_then(|a| a.last_ms)
                .is_some_and(|t| now.saturating_sub(t) < ACTIVE_MS);
        let (min_accuracy, min_controls) = self
            .policy
            .rule
            .map_or((0.7, 1), |r| (r.min_accuracy(), r.min_controls()));
        let failing_controls = t.is_some_and(|t| {
            t.controls >= min_controls && (t.correct as f64) < min_accuracy * t.controls as f64
        });
        let completion = match (finish, done) {
            (Some(f), _) => Some(if f.partial { "partial" } else { "full" }),
            (None, Some(crate::engine::Done::Excluded)) => Some("excluded"),
            (None, Some(_)) => Some("full"),
            (None, None) => None,
        };
        let answers = activity.map_or(0, |a| a.answers);
        let stats = t.map_or_else(
            || {
                WorkerTally {
                    worker: row.map_or_else(String::new, |r| r.name.clone()),
                    ..WorkerTally::default()
                }
                .summary()
            },
            WorkerTally::summary,
        );
        WorkerRow {
            stats,
            source: row.map_or_else(|| "file".to_owned(), |r| r.source.clone()),
            answers,
            answered_now,
            params,
            arrived_ms: activity.map(|a| a.arrived_ms),
            first_answer_ms: activity.and_then(|a| a.first_ms),
            last_answer_ms: activity.and_then(|a| a.last_ms),
            stopped_ms: finish.map(|f| f.at_ms),
            active,
            failing_controls,
            completion,
            earned: self.file.price.map(|p| p * answers as f64),
            agreement_votes: t.map_or(0, |t| t.agreement_votes),
        }
    }
}
