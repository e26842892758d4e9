//! The comparisons a model is fitted to: items and workers by name, one
//! record per vote, from plain lists or from a campaign's own records.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::error::{PairwiseError, Result, check_limit};
use super::graph::PairIndex;
use crate::ballot::{Campaign, Scheduler, Task, Vote};

/// The worker index of a record without a worker.
pub(crate) const NO_WORKER: u32 = u32::MAX;

/// One comparison: the two items (indices into [`Comparisons::items`]),
/// the vote relative to their order, and the worker who gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// The first item (the one shown first when
    /// [`Comparisons::shown_in_order`]).
    pub first: u32,
    /// The second item.
    pub second: u32,
    /// The vote: [`Vote::First`], [`Vote::Second`] or [`Vote::Tie`].
    pub vote: Vote,
    worker: u32,
}

impl Record {
    /// The worker (an index into [`Comparisons::workers`]), if known.
    #[must_use]
    pub fn worker(&self) -> Option<usize> {
        (self.worker != NO_WORKER).then_some(self.worker as usize)
    }

    /// The winner and the loser, or `None` for a tie.
    #[must_use]
    pub fn winner_loser(&self) -> Option<(u32, u32)> {
        match self.vote {
            Vote::First => Some((self.first, self.second)),
            Vote::Second => Some((self.second, self.first)),
            Vote::Tie => None,
        }
    }

    pub(crate) fn worker_raw(&self) -> u32 {
        self.worker
    }
}

/// Which of a campaign's votes [`Comparisons::from_campaign`] takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CampaignVotes {
    /// Take the votes of the open ballot too (default `true`: a model needs
    /// no closed ballot, and a dashboard shows the collection while it
    /// runs). The Borda ranking uses closed ballots only.
    pub open_ballot: bool,
    /// Leave out every vote of an excluded worker, also those of ballots
    /// closed before the exclusion (default `false`: the votes the campaign
    /// counts, which keeps them).
    pub drop_excluded: bool,
}

impl Default for CampaignVotes {
    fn default() -> Self {
        Self {
            open_ballot: true,
            drop_excluded: false,
        }
    }
}

/// Comparisons between named items, each with an optional worker: the
/// input of [`BradleyTerry`](super::BradleyTerry) and
/// [`NoisyBradleyTerry`](super::NoisyBradleyTerry).
///
/// Items and workers live in catalogues, indexed in order of first sight.
/// A catalogue is *open* (a new name is added) unless it was fixed
/// ([`with_items`](Self::with_items), [`fix_workers`](Self::fix_workers)):
/// then a name it does not hold is refused with
/// [`PairwiseError::UnknownItem`] / [`PairwiseError::UnknownWorker`],
/// naming the record. An item compared with itself is
/// [`PairwiseError::SelfComparison`]. A refused record leaves the list
/// unchanged.
///
/// A record's vote is relative to its two items' order. Whether that order
/// is the order a worker saw them in matters to the noisy model only, which
/// then estimates each worker's leaning towards the first item
/// ([`shown_in_order`](Self::shown_in_order): `true` for a campaign's
/// records, `false` for winner–loser lists, where the order means nothing).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::pairwise::Comparisons;
/// let mut c = Comparisons::new();
/// c.add_result("espresso", "decaf", false, Some("ann"))?; // espresso won
/// c.add_result("decaf", "tea", true, Some("bob"))?; // a tie
/// assert_eq!((c.len(), c.n_items(), c.n_workers()), (2, 3, 2));
/// assert_eq!(c.items(), ["espresso", "decaf", "tea"]);
///
/// let mut fixed = Comparisons::with_items(["a", "b"])?;
/// let e = fixed.add_result("a", "c", false, None).unwrap_err();
/// assert_eq!(e.to_string(), "record 0: unknown item \"c\"");
/// # Ok::<(), adaptive_comp_metrics::pairwise::PairwiseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparisons {
    items: Vec<String>,
    item_index: HashMap<String, u32>,
    items_fixed: bool,
    workers: Vec<String>,
    worker_index: HashMap<String, u32>,
    workers_fixed: bool,
    records: Vec<Record>,
    shown_in_order: bool,
    pairs: PairCache,
}

/// The records' [`PairIndex`], built on first use and dropped when a
/// record is added: a fit and its observed information (or its
/// bootstrap) aggregate the records once. Not part of the list's value:
/// lists compare equal whether or not it is built.
#[derive(Clone, Default)]
struct PairCache(OnceLock<PairIndex>);

impl PartialEq for PairCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for PairCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "PairCache(built)"
        } else {
            "PairCache(empty)"
        })
    }
}

impl Comparisons {
    /// The most comparisons a list holds: 2²⁸.
    pub const MAX_COMPARISONS: usize = 1 << 28;

    /// The most items or workers a catalogue holds: 2³² − 2.
    pub const MAX_NAMES: usize = (u32::MAX - 1) as usize;

    /// An empty list with open catalogues.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty list whose items are exactly `items` (in this order): a
    /// record naming another item is refused.
    ///
    /// # Errors
    /// [`PairwiseError::DuplicateName`]; [`PairwiseError::TooLarge`].
    pub fn with_items<I, S>(items: I) -> Result<Self>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut c = Self::new();
        for name in items {
            c.intern_item_new(name.into())?;
        }
        c.items_fixed = true;
        Ok(c)
    }

    /// An empty list of `n` items named `"0"`, `"1"`, …, for records by
    /// index ([`add`](Self::add)).
    ///
    /// # Errors
    /// [`PairwiseError::TooLarge`] above [`MAX_NAMES`](Self::MAX_NAMES).
    pub fn with_item_count(n: usize) -> Result<Self> {
        check_names("items", n)?;
        let mut c = Self {
            items: (0..n).map(|i| i.to_string()).collect(),
            items_fixed: true,
            ..Self::default()
        };
        c.item_index = c
            .items
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as u32))
            .collect();
        Ok(c)
    }

    /// Fixes the worker catalogue to `workers` (added after any already
    /// seen): a record naming another worker is refused.
    ///
    /// # Errors
    /// [`PairwiseError::DuplicateName`] for a worker named twice.
    pub fn fix_workers<I, S>(mut self, workers: I) -> Result<Self>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for name in workers {
            let name = name.into();
            if self.worker_index.contains_key(&name) {
                return Err(PairwiseError::DuplicateName {
                    what: "worker",
                    name,
                });
            }
            check_names("workers", self.workers.len() + 1)?;
            self.worker_index
                .insert(name.clone(), self.workers.len() as u32);
            self.workers.push(name);
        }
        self.workers_fixed = true;
        Ok(self)
    }

    /// Says whether each record's first item is the one its worker saw
    /// first (default `false`; `true` for [`from_campaign`](Self::from_campaign)).
    #[must_use]
    pub fn shown_in_order(mut self, yes: bool) -> Self {
        self.shown_in_order = yes;
        self
    }

    /// Whether each record's first item is the one shown first.
    #[must_use]
    pub fn is_shown_in_order(&self) -> bool {
        self.shown_in_order
    }

    /// Adds one comparison by name: `vote` is relative to `(first,
    /// second)`.
    ///
    /// # Errors
    /// [`PairwiseError::UnknownItem`], [`PairwiseError::UnknownWorker`] (fixed
    /// catalogues), [`PairwiseError::SelfComparison`],
    /// [`PairwiseError::TooLarge`]; the list is unchanged.
    ///
    /// # Complexity
    /// O(1) expected (hashing the names).
    pub fn add_named(
        &mut self,
        first: &str,
        second: &str,
        vote: Vote,
        worker: Option<&str>,
    ) -> Result<()> {
        let record = self.records.len();
        check_comparisons(record + 1)?;
        if first == second {
            return Err(PairwiseError::SelfComparison {
                record,
                item: first.to_owned(),
            });
        }
        // Look everything up before adding anything.
        let a = self.item_index.get(first).copied();
        let b = self.item_index.get(second).copied();
        let w = worker.map(|w| self.worker_index.get(w).copied());
        if self.items_fixed {
            for (found, name) in [(a, first), (b, second)] {
                if found.is_none() {
                    return Err(PairwiseError::UnknownItem {
                        record,
                        item: name.to_owned(),
                    });
                }
            }
        }
        if self.workers_fixed
            && let (Some(None), Some(name)) = (w, worker)
        {
            return Err(PairwiseError::UnknownWorker {
                record,
                worker: name.to_owned(),
            });
        }
        let new_items = usize::from(a.is_none()) + usize::from(b.is_none());
        check_names("items", self.items.len() + new_items)?;
        check_names("workers", self.workers.len() + 1)?;
        let a = match a {
            Some(a) => a,
            None => self.intern_item_new(first.to_owned())?,
        };
        let b = match b {
            Some(b) => b,
            None => self.intern_item_new(second.to_owned())?,
        };
        let worker = match (w, worker) {
            (Some(Some(w)), _) => w,
            (Some(None), Some(name)) => {
                let w = self.workers.len() as u32;
                self.worker_index.insert(name.to_owned(), w);
                self.workers.push(name.to_owned());
                w
            }
            _ => NO_WORKER,
        };
        self.records.push(Record {
            first: a,
            second: b,
            vote,
            worker,
        });
        self.pairs.0.take();
        Ok(())
    }

    /// Adds one result of a winner–loser list: `winner` beat `loser`, or
    /// they tied (`tie`).
    ///
    /// # Errors
    /// As [`add_named`](Self::add_named).
    pub fn add_result(
        &mut self,
        winner: &str,
        loser: &str,
        tie: bool,
        worker: Option<&str>,
    ) -> Result<()> {
        let vote = if tie { Vote::Tie } else { Vote::First };
        self.add_named(winner, loser, vote, worker)
    }

    /// Adds one comparison by index (into [`items`](Self::items) and
    /// [`workers`](Self::workers)).
    ///
    /// # Errors
    /// [`PairwiseError::OutOfRange`], [`PairwiseError::SelfComparison`],
    /// [`PairwiseError::TooLarge`]; the list is unchanged.
    pub fn add(
        &mut self,
        first: usize,
        second: usize,
        vote: Vote,
        worker: Option<usize>,
    ) -> Result<()> {
        let record = self.records.len();
        check_comparisons(record + 1)?;
        for index in [first, second] {
            if index >= self.items.len() {
                return Err(PairwiseError::OutOfRange {
                    record,
                    what: "item",
                    index,
                    len: self.items.len(),
                });
            }
        }
        if let Some(w) = worker
            && w >= self.workers.len()
        {
            return Err(PairwiseError::OutOfRange {
                record,
                what: "worker",
                index: w,
                len: self.workers.len(),
            });
        }
        if first == second {
            return Err(PairwiseError::SelfComparison {
                record,
                item: self.items[first].clone(),
            });
        }
        self.records.push(Record {
            first: first as u32,
            second: second as u32,
            vote,
            worker: worker.map_or(NO_WORKER, |w| w as u32),
        });
        self.pairs.0.take();
        Ok(())
    }

    /// Adds a worker to the catalogue (or finds it) and returns its index.
    ///
    /// # Errors
    /// [`PairwiseError::UnknownWorker`] when the catalogue is fixed and
    /// does not hold it (`record` is the next record's number).
    pub fn worker_index(&mut self, name: &str) -> Result<usize> {
        if let Some(&w) = self.worker_index.get(name) {
            return Ok(w as usize);
        }
        if self.workers_fixed {
            return Err(PairwiseError::UnknownWorker {
                record: self.records.len(),
                worker: name.to_owned(),
            });
        }
        check_names("workers", self.workers.len() + 1)?;
        let w = self.workers.len();
        self.worker_index.insert(name.to_owned(), w as u32);
        self.workers.push(name.to_owned());
        Ok(w)
    }

    fn intern_item_new(&mut self, name: String) -> Result<u32> {
        if self.item_index.contains_key(&name) {
            return Err(PairwiseError::DuplicateName { what: "item", name });
        }
        check_names("items", self.items.len() + 1)?;
        let i = self.items.len() as u32;
        self.item_index.insert(name.clone(), i);
        self.items.push(name);
        Ok(i)
    }

    /// Every vote of a campaign on a comparison (control answers are not
    /// comparisons of items), with its worker, the first item being the one
    /// shown first. Items are named `"0"` … `"N−1"` (rename them with
    /// [`rename_items`](Self::rename_items)); workers by their ids.
    ///
    /// # Complexity
    /// O(tasks of the campaign).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Campaign, LayoutOptions, Scheduler, Vote};
    /// use adaptive_comp_metrics::pairwise::{CampaignVotes, Comparisons};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let scheduler = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let mut c = Campaign::new(scheduler, vec![], LayoutOptions::plain())?;
    /// c.open_ballot(&mut rng, &mut rand::rngs::StdRng::seed_from_u64(2))?;
    /// for t in c.tasks().collect::<Vec<_>>() {
    ///     c.answer(t.id, "ann", Vote::First)?;
    /// }
    /// let data = Comparisons::from_campaign(&c, CampaignVotes::default());
    /// assert_eq!((data.len(), data.n_items(), data.workers()), (6, 6, &["ann".to_string()][..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn from_campaign(campaign: &Campaign, votes: CampaignVotes) -> Self {
        let n = campaign.scheduler().config().n_items();
        let mut c = Self::with_item_count(n).unwrap_or_default();
        c.shown_in_order = true;
        c.workers = campaign.workers().to_vec();
        c.worker_index = c
            .workers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i as u32))
            .collect();
        let open = campaign.open_ballot_number();
        let logs = campaign.scheduler().logs();
        let counted = |k: usize| votes.open_ballot || open != Some(k + 1);
        c.records.reserve(
            campaign
                .ballots
                .iter()
                .enumerate()
                .filter(|&(k, _)| counted(k))
                .map(|(_, b)| b.answers.len())
                .sum(),
        );
        for (k, b) in campaign.ballots.iter().enumerate() {
            if !counted(k) {
                continue;
            }
            let Some(log) = logs.get(k) else { continue };
            // The layout walked once, in order (O(tasks + controls); a
            // look-up per position is a binary search among the controls).
            for (answer, task) in b.answers.iter().zip(b.layout.iter()) {
                let (Some((w, vote)), Task::Comparison { ticket }) = (*answer, task) else {
                    continue;
                };
                if votes.drop_excluded && campaign.excluded_at[w as usize].is_some() {
                    continue;
                }
                let Some(cmp) = log.comparisons().get(ticket) else {
                    continue;
                };
                c.records.push(Record {
                    first: cmp.first as u32,
                    second: cmp.second as u32,
                    vote,
                    worker: w,
                });
            }
        }
        c
    }

    /// Every vote a scheduler holds (no workers), items named `"0"` …
    /// `"N−1"`, the first item the one shown first.
    #[must_use]
    pub fn from_scheduler(scheduler: &Scheduler) -> Self {
        let n = scheduler.config().n_items();
        let mut c = Self::with_item_count(n).unwrap_or_default();
        c.shown_in_order = true;
        for log in scheduler.logs() {
            for (cmp, vote) in log.comparisons().iter().zip(log.votes()) {
                if let Some(vote) = *vote {
                    c.records.push(Record {
                        first: cmp.first as u32,
                        second: cmp.second as u32,
                        vote,
                        worker: NO_WORKER,
                    });
                }
            }
        }
        c
    }

    /// Renames the items (index i gets `names[i]`).
    ///
    /// # Errors
    /// [`PairwiseError::InvalidParameter`] when the count differs,
    /// [`PairwiseError::DuplicateName`].
    pub fn rename_items<I, S>(&mut self, names: I) -> Result<()>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.len() != self.items.len() {
            return Err(PairwiseError::InvalidParameter {
                name: "names",
                expected: "one name per item",
            });
        }
        let mut index = HashMap::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            if index.insert(n.clone(), i as u32).is_some() {
                return Err(PairwiseError::DuplicateName {
                    what: "item",
                    name: n.clone(),
                });
            }
        }
        self.items = names;
        self.item_index = index;
        Ok(())
    }

    /// The items, by index.
    #[must_use]
    pub fn items(&self) -> &[String] {
        &self.items
    }

    /// The workers, by index.
    #[must_use]
    pub fn workers(&self) -> &[String] {
        &self.workers
    }

    /// The records, in the order they were added.
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The records aggregated into distinct pairs (built on the first
    /// call after a record was added, O(n + m); then kept).
    pub(crate) fn pair_index(&self) -> &PairIndex {
        self.pairs.0.get_or_init(|| PairIndex::new(self))
    }

    /// The index of an item, if the catalogue holds it.
    #[must_use]
    pub fn item(&self, name: &str) -> Option<usize> {
        self.item_index.get(name).map(|&i| i as usize)
    }

    /// The number of comparisons.
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// `true` without any comparison.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The number of items.
    #[must_use]
    pub fn n_items(&self) -> usize {
        self.items.len()
    }

    /// The number of workers.
    #[must_use]
    pub fn n_workers(&self) -> usize {
        self.workers.len()
    }

    /// The number of ties.
    #[must_use]
    pub fn ties(&self) -> usize {
        self.records.iter().filter(|r| r.vote == Vote::Tie).count()
    }
}

fn check_comparisons(n: usize) -> Result<()> {
    check_limit("comparisons", n, Comparisons::MAX_COMPARISONS)
}

fn check_names(quantity: &'static str, n: usize) -> Result<()> {
    check_limit(quantity, n, Comparisons::MAX_NAMES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pair index kept from one fit is dropped when a record is added
    /// (by name, a new item among them, or by index): a fit after it
    /// equals a fit of the same records on a list never fitted.
    #[test]
    fn the_kept_pair_index_follows_the_records() {
        use crate::pairwise::BradleyTerry;
        let model = BradleyTerry::new().prior_sd(2.0).unwrap();
        let mut c = Comparisons::new();
        c.add_named("a", "b", Vote::First, None).unwrap();
        c.add_named("b", "c", Vote::Tie, None).unwrap();
        let before = model.fit(&c).unwrap();
        assert_eq!(c.pair_index().len(), 2);
        c.add_named("c", "d", Vote::Second, None).unwrap();
        c.add(0, 2, Vote::First, None).unwrap();
        assert_eq!(c.pair_index().len(), 4);
        let mut fresh = Comparisons::new();
        for r in c.records() {
            let names = c.items();
            fresh
                .add_named(
                    &names[r.first as usize],
                    &names[r.second as usize],
                    r.vote,
                    None,
                )
                .unwrap();
        }
        assert_eq!(fresh, c);
        let again = model.fit(&c).unwrap();
        assert_eq!(again, model.fit(&fresh).unwrap());
        assert_eq!(again.scores.len(), 4);
        assert_ne!(before.scores.len(), again.scores.len());
    }

    #[test]
    fn refused_records_name_themselves_and_change_nothing() {
        let mut c = Comparisons::with_items(["a", "b", "c"])
            .unwrap()
            .fix_workers(["w1"])
            .unwrap();
        c.add_named("a", "b", Vote::First, Some("w1")).unwrap();
        let before = c.clone();
        assert_eq!(
            c.add_named("a", "z", Vote::First, Some("w1")),
            Err(PairwiseError::UnknownItem {
                record: 1,
                item: "z".into()
            })
        );
        assert_eq!(
            c.add_named("a", "b", Vote::First, Some("w9")),
            Err(PairwiseError::UnknownWorker {
                record: 1,
                worker: "w9".into()
            })
        );
        assert_eq!(
            c.add_named("c", "c", Vote::Tie, None),
            Err(PairwiseError::SelfComparison {
                record: 1,
                item: "c".into()
            })
        );
        assert_eq!(
            c.add(0, 3, Vote::First, None),
            Err(PairwiseError::OutOfRange {
                record: 1,
                what: "item",
                index: 3,
                len: 3
            })
        );
        assert_eq!(
            c.add(1, 1, Vote::First, None),
            Err(PairwiseError::SelfComparison {
                record: 1,
                item: "b".into()
            })
        );
        assert_eq!(c, before);
        assert!(matches!(
            Comparisons::with_items(["a", "a"]),
            Err(PairwiseError::DuplicateName { what: "item", .. })
        ));
    }

    #[test]
    fn open_catalogues_intern_in_order_of_first_sight() {
        let mut c = Comparisons::new();
        c.add_result("x", "y", false, Some("w")).unwrap();
        c.add_result("z", "x", true, None).unwrap();
        assert_eq!(c.items(), ["x", "y", "z"]);
        assert_eq!(c.records()[1].vote, Vote::Tie);
        assert_eq!(c.records()[1].worker(), None);
        assert_eq!(c.records()[0].worker(), Some(0));
        assert_eq!(c.records()[0].winner_loser(), Some((0, 1)));
        assert_eq!(c.ties(), 1);
    }
}
