//! Pairing gold items with system answers, and scoring any measure over the
//! pairs.

use std::collections::HashMap;
use std::num::NonZeroUsize;

use super::error::{LexsubError, Side};
use super::model::{GoldItem, ItemScore, Outcome, SystemAnswer, Totals};
use super::normalise::Profile;
use super::revised::Penalty;
use super::{gap, revised, semeval};
use crate::sum::Neumaier;

/// Every per-item measure of the module, for [`Corpus::totals`] and
/// [`Corpus::item_scores`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Measure {
    /// [`semeval::best`].
    Best,
    /// [`semeval::mode_best`] (items with a unique mode only).
    ModeBest,
    /// [`semeval::oot`] (also the revised oot of Jabbari et al.).
    Oot,
    /// [`semeval::mode_oot`] (items with a unique mode only).
    ModeOot,
    /// [`revised::new_best`].
    NewBest,
    /// [`revised::best1`].
    Best1,
    /// [`revised::recall`].
    Recall,
    /// [`revised::precision`] with penalty `k`.
    Precision(Penalty),
    /// [`revised::rank`].
    Rank,
    /// [`gap::gap`].
    Gap,
    /// [`gap::precision_at`] at `k`.
    PrecisionAt(NonZeroUsize),
    /// [`gap::recall_at`] at `k`.
    RecallAt(NonZeroUsize),
}

impl Measure {
    /// Every measure once, with penalty `k` for [`Measure::Precision`] and
    /// cut-off `cutoff` for [`Measure::PrecisionAt`] and [`Measure::RecallAt`].
    ///
    /// # Examples
    /// ```
    /// use std::num::NonZeroUsize;
    /// use adaptive_comp_metrics::lexsub::{Measure, Penalty};
    /// let all = Measure::all(Penalty::ONE, NonZeroUsize::MIN);
    /// assert_eq!(all.len(), 12);
    /// ```
    pub fn all(k: Penalty, cutoff: NonZeroUsize) -> [Measure; 12] {
        [
            Measure::Best,
            Measure::ModeBest,
            Measure::Oot,
            Measure::ModeOot,
            Measure::NewBest,
            Measure::Best1,
            Measure::Recall,
            Measure::Precision(k),
            Measure::Rank,
            Measure::Gap,
            Measure::PrecisionAt(cutoff),
            Measure::RecallAt(cutoff),
        ]
    }

    /// The score of one item, `None` when the measure does not apply to it
    /// (mode measures on an item without a unique mode).
    ///
    /// # Complexity
    /// That of the measure's function, at most O(|A| · |H| + |H| log |H|).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{GoldItem, Measure};
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let h = GoldItem::new("1", "happy.a", [("glad", 3), ("merry", 3)])?;
    /// assert_eq!(Measure::NewBest.score(&h, &["glad"]), Some(1.0));
    /// assert_eq!(Measure::ModeBest.score(&h, &["glad"]), None); // no unique mode
    /// # Ok(()) }
    /// ```
    pub fn score<S: AsRef<str>>(self, gold: &GoldItem, answers: &[S]) -> Option<f64> {
        Some(match self {
            Measure::Best => semeval::best(gold, answers),
            Measure::ModeBest => return semeval::mode_best(gold, answers),
            Measure::Oot => semeval::oot(gold, answers),
            Measure::ModeOot => return semeval::mode_oot(gold, answers),
            Measure::NewBest => revised::new_best(gold, answers),
            Measure::Best1 => revised::best1(gold, answers),
            Measure::Recall => revised::recall(gold, answers),
            Measure::Precision(k) => revised::precision(gold, answers, k),
            Measure::Rank => revised::rank(gold, answers),
            Measure::Gap => gap::gap(gold, answers),
            Measure::PrecisionAt(k) => gap::precision_at(gold, answers, k),
            Measure::RecallAt(k) => gap::recall_at(gold, answers, k),
        })
    }

    /// Whether the measure applies to the item at all.
    fn applies(self, gold: &GoldItem) -> bool {
        match self {
            Measure::ModeBest | Measure::ModeOot => gold.mode().is_some(),
            _ => true,
        }
    }
}

/// A gold item with the system's answers to it, both normalised.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    gold: GoldItem,
    answers: Option<Vec<String>>,
}

impl Paired {
    /// The normalised gold item.
    pub fn gold(&self) -> &GoldItem {
        &self.gold
    }

    /// The normalised, de-duplicated answers; `None` when the item is not
    /// attempted: the system output has no line for it, or a line with no
    /// answer left after normalisation. Never `Some(&[])`.
    pub fn answers(&self) -> Option<&[String]> {
        self.answers.as_deref()
    }
}

/// A gold standard paired with one system output, ready to score.
///
/// Policies (all deliberate, all tested):
///
/// - items are matched by id; a repeated id in either input is an error,
///   as is an answer whose target differs from its gold item's;
/// - both sides are normalised by the [`Profile`]; gold items the profile
///   drops are left out of every measure ([`Corpus::dropped`]);
/// - a gold item without a system line is **not attempted**: it counts in
///   recall with credit 0 and not in precision;
/// - a system line with no answers (or none left after normalisation) is
///   **not attempted** either: it scores 0 in recall and stays out of the
///   precision denominator, as `score.pl` counts attempts (it never borrows
///   the previous line's answers, which `score.pl` does for the credit);
/// - a system line whose id is not in the gold is left out of scoring and
///   reported by [`Corpus::unmatched`] (answers to items the profile
///   dropped are ignored without being reported);
/// - repeated answers are removed (first occurrence kept) after
///   normalisation, so duplicates can never raise a score.
#[derive(Debug, Clone, PartialEq)]
pub struct Corpus {
    items: Vec<Paired>,
    dropped: Vec<String>,
    unmatched: Vec<String>,
}

impl Corpus {
    /// Pairs `gold` with `system` under `profile`.
    ///
    /// # Errors
    /// [`LexsubError::DuplicateId`] when an id repeats within the gold or the
    /// system output; [`LexsubError::TargetMismatch`] when a system line
    /// names another target than the gold item with its id.
    ///
    /// # Complexity
    /// O(total size) expected time (hash maps), plus normalisation.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{Corpus, GoldItem, Profile, SystemAnswer};
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let gold = [GoldItem::new("1", "happy.a", [("glad", 3), ("merry", 1)])?,
    ///             GoldItem::new("2", "happy.a", [("content", 1)])?];
    /// let sys = [SystemAnswer { id: "9".into(), target: "happy.a".into(), answers: vec![] }];
    /// let c = Corpus::new(&gold, &sys, Profile::Semeval2007)?;
    /// assert_eq!(c.items().len(), 1);      // item 2 has one single-annotator response
    /// assert_eq!(c.dropped(), ["2"]);
    /// assert_eq!(c.unmatched(), ["9"]);
    /// # Ok(()) }
    /// ```
    pub fn new(
        gold: &[GoldItem],
        system: &[SystemAnswer],
        profile: Profile,
    ) -> Result<Self, LexsubError> {
        let mut answers: HashMap<&str, &SystemAnswer> = HashMap::with_capacity(system.len());
        for s in system {
            if answers.insert(s.id.as_str(), s).is_some() {
                return Err(LexsubError::DuplicateId {
                    id: s.id.clone(),
                    side: Side::System,
                });
            }
        }
        let mut seen: HashMap<&str, ()> = HashMap::with_capacity(gold.len());
        for g in gold {
            if seen.insert(g.id(), ()).is_some() {
                return Err(LexsubError::DuplicateId {
                    id: g.id().to_owned(),
                    side: Side::Gold,
                });
            }
            if let Some(s) = answers.get(g.id())
                && s.target != g.target()
            {
                return Err(LexsubError::TargetMismatch {
                    id: g.id().to_owned(),
                    gold: g.target().to_owned(),
                    system: s.target.clone(),
                });
            }
        }
        let unmatched = system
            .iter()
            .filter(|s| !seen.contains_key(s.id.as_str()))
            .map(|s| s.id.clone())
            .collect();
        let mut items = Vec::with_capacity(gold.len());
        let mut dropped = Vec::new();
        for g in gold {
            match profile.gold(g) {
                Some(gold) => items.push(Paired {
                    answers: answers
                        .get(g.id())
                        .map(|s| profile.answers(&s.answers))
                        .filter(|a| !a.is_empty()),
                    gold,
                }),
                None => dropped.push(g.id().to_owned()),
            }
        }
        Ok(Self {
            items,
            dropped,
            unmatched,
        })
    }

    /// The scored items, in gold order.
    pub fn items(&self) -> &[Paired] {
        &self.items
    }

    /// Ids of gold items the profile dropped, in gold order.
    pub fn dropped(&self) -> &[String] {
        &self.dropped
    }

    /// Ids of system lines with no gold item, in system order.
    pub fn unmatched(&self) -> &[String] {
        &self.unmatched
    }

    /// The corpus totals of `measure`: credit summed over attempted items
    /// the measure applies to, with the attempted and applicable counts.
    ///
    /// # Complexity
    /// O(n) calls of the per-item measure.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{Corpus, GoldItem, Measure, Profile};
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let gold = [GoldItem::new("1", "happy.a", [("glad", 3)])?];
    /// let t = Corpus::new(&gold, &[], Profile::Strict)?.totals(Measure::Best);
    /// assert_eq!((t.attempted, t.items), (0, 1));
    /// assert_eq!(t.precision(), None); // nothing attempted: undefined, not NaN
    /// assert_eq!(t.recall(), Some(0.0));
    /// # Ok(()) }
    /// ```
    pub fn totals(&self, measure: Measure) -> Totals {
        let mut credit = Neumaier::default();
        let (mut attempted, mut items) = (0, 0);
        for p in &self.items {
            if !measure.applies(&p.gold) {
                continue;
            }
            items += 1;
            if let Some(a) = &p.answers {
                attempted += 1;
                credit.add(measure.score(&p.gold, a).unwrap_or(0.0));
            }
        }
        Totals {
            credit: credit.value(),
            attempted,
            items,
        }
    }

    /// The score of every item for `measure`, in gold order.
    ///
    /// # Complexity
    /// O(n) calls of the per-item measure.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{Corpus, GoldItem, Measure, Outcome, Profile};
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let gold = [GoldItem::new("1", "happy.a", [("glad", 3)])?];
    /// let s = Corpus::new(&gold, &[], Profile::Strict)?.item_scores(Measure::Best);
    /// assert_eq!(s[0].outcome, Outcome::NotAttempted);
    /// # Ok(()) }
    /// ```
    pub fn item_scores(&self, measure: Measure) -> Vec<ItemScore> {
        self.items
            .iter()
            .map(|p| ItemScore {
                id: p.gold.id().to_owned(),
                outcome: match (
                    &p.answers,
                    measure.score(&p.gold, p.answers.as_deref().unwrap_or_default()),
                ) {
                    (_, None) => Outcome::NotApplicable,
                    (None, Some(_)) => Outcome::NotAttempted,
                    (Some(_), Some(v)) => Outcome::Scored(v),
                },
            })
            .collect()
    }
}
