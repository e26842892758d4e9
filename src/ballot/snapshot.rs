//! Saving and restoring a [`Scheduler`] (feature `serde`): the parameters and
//! each ballot's audit trail; restoring checks the trail and replays the votes.

use super::config::BallotConfig;
use super::error::{BallotError, Result};
use super::log::{BallotLog, Design, Unvoted};
use super::scheduler::Scheduler;

/// The serialised form of a [`Scheduler`]: the parameters and the audit trail.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Snapshot {
    version: u32,
    config: BallotConfig,
    /// α as IEEE-754 bits: text formats may parse `config.alpha` one ulp
    /// off (serde_json without `float_roundtrip` does), which could move a
    /// ballot size at an exact half.
    alpha_bits: u64,
    design: Design,
    ballots: Vec<BallotLog>,
}

const SNAPSHOT_VERSION: u32 = 1;

impl From<Scheduler> for Snapshot {
    fn from(s: Scheduler) -> Self {
        Self {
            version: SNAPSHOT_VERSION,
            alpha_bits: s.config.alpha().to_bits(),
            config: s.config,
            design: s.design,
            ballots: s.logs,
        }
    }
}

impl TryFrom<Snapshot> for Scheduler {
    type Error = BallotError;

    fn try_from(snap: Snapshot) -> Result<Self> {
        if snap.version != SNAPSHOT_VERSION {
            return Err(BallotError::CorruptState {
                ballot: 0,
                reason: "unknown state version",
            });
        }
        let config = exact_config(&snap.config, snap.alpha_bits)?;
        Self::restore(config, snap.design, snap.ballots)
    }
}

/// A saved configuration with α from its IEEE-754 bits (the text's α may be
/// one ulp off), checked against the text's α and validated again.
///
/// # Errors
/// [`BallotError::CorruptState`] when the two α disagree; the configuration's
/// own errors when it is invalid.
pub(super) fn exact_config(c: &BallotConfig, alpha_bits: u64) -> Result<BallotConfig> {
    let alpha = f64::from_bits(alpha_bits);
    if (alpha - c.alpha()).abs() > 1e-12 * c.alpha() {
        return Err(BallotError::CorruptState {
            ballot: 0,
            reason: "alpha and alpha_bits disagree",
        });
    }
    BallotConfig::with_options(c.n_items(), c.m(), alpha, c.n_ballots(), c.options())
}

impl Scheduler {
    /// Rebuilds a scheduler from its audit trail: checks every ballot log
    /// against the plan and the previous ballot, then replays the votes.
    ///
    /// # Errors
    /// [`BallotError::CorruptState`] for an inconsistent trail;
    /// [`BallotError::Overflow`] for a uniform design that cannot be held.
    pub(crate) fn restore(
        config: BallotConfig,
        design: Design,
        ballots: Vec<BallotLog>,
    ) -> Result<Self> {
        let corrupt =
            |ballot: usize, reason: &'static str| BallotError::CorruptState { ballot, reason };
        let mut s = match design {
            Design::Adaptive => Self::new(config),
            Design::Uniform(budget) => Self::uniform(config, budget)?,
        };
        if ballots.len() > s.sizes.len() {
            return Err(corrupt(s.sizes.len() + 1, "more ballots than planned"));
        }
        let last = ballots.len();
        for (k0, log) in ballots.into_iter().enumerate() {
            let k = k0 + 1;
            if !log.closed && k != last {
                return Err(corrupt(k, "only the last ballot may be open"));
            }
            s.check_log(k, &log)?;
            let BallotLog {
                items,
                comparisons,
                votes,
                closed,
            } = log;
            s.install(items, comparisons);
            for (t, v) in votes.into_iter().enumerate() {
                if let Some(v) = v {
                    s.apply(k, t, v);
                }
            }
            if closed {
                s.close_ballot(Unvoted::Withdraw)
                    .map_err(|_| corrupt(k, "a closed ballot has an item without votes"))?;
            }
        }
        Ok(s)
    }
}

impl Scheduler {
    /// Checks a restored ballot log against the plan and the previous ballot.
    fn check_log(&self, k: usize, log: &BallotLog) -> Result<()> {
        let corrupt = |reason: &'static str| BallotError::CorruptState { ballot: k, reason };
        let n_items = self.config.n_items();
        let items = &log.items;
        if items.len() != self.sizes[k - 1] {
            return Err(corrupt("the number of items differs from the plan"));
        }
        if items.windows(2).any(|w| w[0] >= w[1]) || items.last().is_some_and(|&i| i >= n_items) {
            return Err(corrupt("items must be ascending, distinct and in range"));
        }
        if let Some(prev) = self.history.last() {
            let keys = self.selection_keys(prev);
            let mut lowest_kept = f64::INFINITY;
            let mut highest_dropped = f64::NEG_INFINITY;
            let mut next = items.iter().peekable();
            for (p, &i) in prev.items.iter().enumerate() {
                if next.peek() == Some(&&i) {
                    next.next();
                    lowest_kept = lowest_kept.min(keys[p]);
                } else {
                    highest_dropped = highest_dropped.max(keys[p]);
                }
            }
            if next.next().is_some() {
                return Err(corrupt("an item did not take part in the previous ballot"));
            }
            if lowest_kept < highest_dropped {
                return Err(corrupt("the items are not the best of the previous ballot"));
            }
        }
        let (base, extra) = match &self.uniform {
            Some(plan) => (plan.appearances, plan.items_with_extra),
            None => {
                let m = self.config.m();
                (m, usize::from(!(items.len() * m).is_multiple_of(2)))
            }
        };
        // Each item's place in the ballot, looked up directly (a binary
        // search per comparison was most of a restore's time at N = 10⁵).
        const OUTSIDE: u32 = u32::MAX;
        let mut place = vec![OUTSIDE; n_items];
        for (p, &i) in items.iter().enumerate() {
            place[i] = p as u32;
        }
        let mut count = vec![0usize; items.len()];
        for c in &log.comparisons {
            if c.first == c.second {
                return Err(corrupt("a comparison pairs an item with itself"));
            }
            for item in [c.first, c.second] {
                match place.get(item) {
                    Some(&p) if p != OUTSIDE => count[p as usize] += 1,
                    _ => return Err(corrupt("a comparison names an item outside the ballot")),
                }
            }
        }
        let with_extra = count.iter().filter(|&&c| c == base + 1).count();
        let with_base = count.iter().filter(|&&c| c == base).count();
        if with_extra != extra || with_base + with_extra != items.len() {
            return Err(corrupt("items do not appear the planned number of times"));
        }
        if log.votes.len() != log.comparisons.len() {
            return Err(corrupt(
                "the number of votes differs from the number of comparisons",
            ));
        }
        Ok(())
    }
}
