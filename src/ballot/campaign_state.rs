//! Saving and restoring a [`Campaign`] (feature `serde`) in a compact form:
//! per ballot the items, the comparisons as a flat list of item pairs, the
//! control placements, one character per task for its answer and the worker
//! of each answered task. Restoring checks everything and replays the votes
//! through the scheduler, so every score is recomputed bit for bit.
//!
//! ```text
//! answers: one char per task   '.' none   'F' first   'S' second   'T' tie
//! pairs:   [first₀, second₀, first₁, second₁, …]          (ticket order)
//! controls:[position, pair, swapped (0/1), …]              (ascending positions)
//! discarded: [position, worker, vote (0 F, 1 S, 2 T), …]
//! ```

use std::collections::HashMap;

use super::campaign::{BallotTasks, Campaign, Discarded, Exclusion};
use super::config::BallotConfig;
use super::error::{BallotError, Result};
use super::log::{BallotLog, Design, Vote};
use super::pairing::Comparison;
use super::scheduler::Scheduler;
use super::tasks::{ControlPair, LayoutOptions, PlacedControl, Task, TaskLayout};

const VERSION: u32 = 1;

#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct RawCampaign {
    version: u32,
    config: BallotConfig,
    /// α as IEEE-754 bits (see the scheduler's snapshot).
    alpha_bits: u64,
    design: Design,
    controls: Vec<ControlPair>,
    layout: LayoutOptions,
    workers: Vec<String>,
    exclusions: Vec<Exclusion>,
    ballots: Vec<RawBallot>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct RawBallot {
    items: Vec<usize>,
    pairs: Vec<usize>,
    unit_size: Option<usize>,
    controls: Vec<usize>,
    answers: String,
    workers: Vec<u32>,
    discarded: Vec<usize>,
    closed: bool,
}

fn vote_char(v: Option<Vote>) -> char {
    match v {
        None => '.',
        Some(Vote::First) => 'F',
        Some(Vote::Second) => 'S',
        Some(Vote::Tie) => 'T',
    }
}

fn vote_code(v: Vote) -> usize {
    match v {
        Vote::First => 0,
        Vote::Second => 1,
        Vote::Tie => 2,
    }
}

impl From<Campaign> for RawCampaign {
    fn from(c: Campaign) -> Self {
        let logs = c.scheduler.logs();
        let ballots = c
            .ballots
            .iter()
            .zip(logs)
            .map(|(b, log)| RawBallot {
                items: log.items().to_vec(),
                pairs: log
                    .comparisons()
                    .iter()
                    .flat_map(|p| [p.first, p.second])
                    .collect(),
                unit_size: b.layout.unit_size,
                controls: b
                    .layout
                    .controls
                    .iter()
                    .flat_map(|p| [p.position, p.pair, usize::from(p.swapped)])
                    .collect(),
                answers: b
                    .answers
                    .iter()
                    .map(|a| vote_char(a.map(|a| a.1)))
                    .collect(),
                workers: b.answers.iter().filter_map(|a| a.map(|a| a.0)).collect(),
                discarded: b
                    .discarded
                    .iter()
                    .flat_map(|d| [d.position, d.worker as usize, vote_code(d.vote)])
                    .collect(),
                closed: log.is_closed(),
            })
            .collect();
        let config = *c.scheduler.config();
        Self {
            version: VERSION,
            alpha_bits: config.alpha().to_bits(),
            config,
            design: c.scheduler.design(),
            controls: c.controls,
            layout: c.layout,
            workers: c.workers,
            exclusions: c.exclusions,
            ballots,
        }
    }
}

impl TryFrom<RawCampaign> for Campaign {
    type Error = BallotError;

    fn try_from(raw: RawCampaign) -> Result<Self> {
        let corrupt =
            |ballot: usize, reason: &'static str| BallotError::CorruptState { ballot, reason };
        if raw.version != VERSION {
            return Err(corrupt(0, "unknown campaign state version"));
        }
        let config = super::snapshot::exact_config(&raw.config, raw.alpha_bits)?;
        if raw.controls.iter().any(|p| p.first == p.second) {
            return Err(corrupt(0, "a control pair compares a thing with itself"));
        }
        let n_workers = raw.workers.len();
        let mut index = HashMap::with_capacity(n_workers);
        for (w, name) in raw.workers.iter().enumerate() {
            if name.is_empty() || index.insert(name.clone(), w as u32).is_some() {
                return Err(corrupt(0, "worker ids must be distinct and non-empty"));
            }
        }
        let n_ballots = raw.ballots.len();
        let mut excluded_at = vec![None; n_workers];
        for e in &raw.exclusions {
            let w = *index
                .get(&e.worker)
                .ok_or(corrupt(e.ballot, "an exclusion names an unknown worker"))?;
            if e.ballot == 0 || e.ballot > n_ballots || excluded_at[w as usize].is_some() {
                return Err(corrupt(e.ballot, "an exclusion is inconsistent"));
            }
            excluded_at[w as usize] = Some(e.ballot);
        }
        let n_pairs = raw.controls.len();
        let mut logs = Vec::with_capacity(n_ballots);
        let mut ballots = Vec::with_capacity(n_ballots);
        for (k0, rb) in raw.ballots.into_iter().enumerate() {
            let k = k0 + 1;
            let bad = |reason| corrupt(k, reason);
            if rb.pairs.len() % 2 != 0 || rb.controls.len() % 3 != 0 || rb.discarded.len() % 3 != 0
            {
                return Err(bad(
                    "a flat list has a length that is not a multiple of its record",
                ));
            }
            let comparisons: Vec<Comparison> = rb
                .pairs
                .chunks_exact(2)
                .map(|p| Comparison {
                    first: p[0],
                    second: p[1],
                })
                .collect();
            let mut controls = Vec::with_capacity(rb.controls.len() / 3);
            for t in rb.controls.chunks_exact(3) {
                if t[2] > 1 {
                    return Err(bad("a control's swap flag is not 0 or 1"));
                }
                controls.push(PlacedControl {
                    position: t[0],
                    pair: t[1],
                    swapped: t[2] == 1,
                });
            }
            let layout = TaskLayout {
                comparisons: comparisons.len(),
                controls,
                unit_size: rb.unit_size,
            };
            if !layout.check(n_pairs) {
                return Err(bad("the control placements are inconsistent"));
            }
            let len = layout.len();
            if rb.answers.chars().count() != len {
                return Err(bad("the answers do not match the tasks"));
            }
            let mut answers = Vec::with_capacity(len);
            let mut votes = vec![None; comparisons.len()];
            let mut who = rb.workers.iter();
            for (a, task) in rb.answers.chars().zip(layout.iter()) {
                let vote = match a {
                    '.' => None,
                    'F' => Some(Vote::First),
                    'S' => Some(Vote::Second),
                    'T' => Some(Vote::Tie),
                    _ => return Err(bad("an answer is not one of . F S T")),
                };
                let answer = match vote {
                    None => None,
                    Some(v) => {
                        let &w = who.next().ok_or(bad("fewer workers than answers"))?;
                        if w as usize >= n_workers {
                            return Err(bad("an answer names an unknown worker"));
                        }
                        if excluded_at[w as usize].is_some_and(|e| e <= k) {
                            return Err(bad("an excluded worker has a counted answer"));
                        }
                        if let Task::Comparison { ticket } = task {
                            votes[ticket] = Some(v);
                        }
                        Some((w, v))
                    }
                };
                answers.push(answer);
            }
            if who.next().is_some() {
                return Err(bad("more workers than answers"));
            }
            let mut discarded = Vec::with_capacity(rb.discarded.len() / 3);
            for t in rb.discarded.chunks_exact(3) {
                let vote = match t[2] {
                    0 => Vote::First,
                    1 => Vote::Second,
                    2 => Vote::Tie,
                    _ => return Err(bad("a discarded vote code is not 0, 1 or 2")),
                };
                if t[0] >= len || t[1] >= n_workers || excluded_at[t[1]] != Some(k) {
                    return Err(bad("a discarded answer is inconsistent"));
                }
                discarded.push(Discarded {
                    position: t[0],
                    worker: t[1] as u32,
                    vote,
                });
            }
            logs.push(BallotLog {
                items: rb.items,
                comparisons,
                votes,
                closed: rb.closed,
            });
            ballots.push(BallotTasks {
                layout,
                answers,
                discarded,
            });
        }
        let scheduler = Scheduler::restore(config, raw.design, logs)?;
        Ok(Self {
            scheduler,
            controls: raw.controls,
            layout: raw.layout,
            ballots,
            workers: raw.workers,
            index,
            excluded_at,
            exclusions: raw.exclusions,
        })
    }
}
