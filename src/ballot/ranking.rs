//! The final ranking of a collection: every item on its score at the last
//! ballot it reached, ties in random order.

use rand::Rng;
use rand::seq::SliceRandom;

use super::config::RankBy;
use super::error::{BallotError, Result};
use super::scheduler::Scheduler;

/// One item of the final ranking.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RankedItem {
    /// The item.
    pub item: usize,
    /// Its score: ȳ at the last ballot it reached.
    pub score: f64,
    /// The last ballot it took part in (1-based).
    pub last_ballot: usize,
}

/// Every item, best first.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Ranking {
    /// The items, best first; equal keys are in random order.
    pub entries: Vec<RankedItem>,
}

impl Ranking {
    /// The items, best first.
    #[must_use]
    pub fn items(&self) -> Vec<usize> {
        self.entries.iter().map(|e| e.item).collect()
    }

    /// The 1-based position of each item (indexed by item): the rank vector
    /// that the correlation functions take.
    ///
    /// # Complexity
    /// O(N).
    #[must_use]
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.entries.len()];
        for (p, e) in self.entries.iter().enumerate() {
            if let Some(slot) = pos.get_mut(e.item) {
                *slot = p + 1;
            }
        }
        pos
    }
}

impl Scheduler {
    /// Ranks every item on its score at the last ballot it reached (ȳ at
    /// elimination, or after the last closed ballot), ordered per the
    /// configuration's [`RankBy`]; items with equal keys are put in random
    /// order (never by index).
    ///
    /// ```text
    /// RankBy::Score:           sort on ȳᵢ at the last ballot reached, descending
    /// RankBy::BallotThenScore: sort on (last ballot reached, ȳᵢ), descending
    /// ```
    ///
    /// May be called at any point after the first close; votes of a ballot
    /// still open are not included.
    ///
    /// # Errors
    /// [`BallotError::NothingClosed`] before the first close.
    ///
    /// # Complexity
    /// O(N log N).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Unvoted, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// assert!(s.ranking(&mut rng).is_err());
    /// let n = s.open_ballot(&mut rng)?.len();
    /// for t in 0..n {
    ///     s.record(t, Vote::First)?;
    /// }
    /// s.close_ballot(Unvoted::Reject)?;
    /// let r = s.ranking(&mut rng)?;
    /// assert_eq!(r.entries.len(), 6);
    /// assert!(r.entries.windows(2).all(|w| w[0].score >= w[1].score));
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn ranking<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Ranking> {
        if self.history.is_empty() {
            return Err(BallotError::NothingClosed);
        }
        let mut entries: Vec<RankedItem> = (0..self.config.n_items())
            .map(|item| RankedItem {
                item,
                score: self.score[item],
                last_ballot: self.last_ballot[item],
            })
            .collect();
        let by_ballot = self.config.options().rank_by() == RankBy::BallotThenScore;
        let key = |a: &RankedItem, b: &RankedItem| {
            let ballots = if by_ballot {
                b.last_ballot.cmp(&a.last_ballot)
            } else {
                core::cmp::Ordering::Equal
            };
            ballots.then(b.score.total_cmp(&a.score))
        };
        entries.sort_by(key);
        let mut start = 0;
        while start < entries.len() {
            let mut end = start + 1;
            while end < entries.len() && key(&entries[start], &entries[end]).is_eq() {
                end += 1;
            }
            entries[start..end].shuffle(rng);
            start = end;
        }
        Ok(Ranking { entries })
    }
}
