//! The data model: gold items, system answers, per-item scores and corpus
//! totals.

use super::error::LexsubError;

/// One gold substitute with the number of annotators who proposed it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Substitute {
    /// The substitute (one word or a multi-word expression).
    pub term: String,
    /// How many annotators proposed it (at least 1).
    pub count: u32,
}

serde_mirror! {
    /// A gold item: a target word in context with the substitutes the
    /// annotators proposed, each with its count.
    ///
    /// In the notation of Jabbari, Hepple & Guthrie (2010): `Hᵢ` is the set of
    /// substitutes, `freqᵢ(t)` the count of `t` (0 for terms not in `Hᵢ`),
    /// `maxfreqᵢ` the largest count, `|S|ⁱ = Σ_{t∈S} freqᵢ(t)` and `mᵢ` the mode,
    /// which exists only when one substitute has the largest count.
    ///
    /// A `GoldItem` always has at least one substitute, every count is at least
    /// 1 and every term is distinct, so all measures are defined on it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct GoldItem {
        id: String,
        target: String,
        substitutes: Vec<Substitute>,
        total: u64,
        max: u32,
    }
    read and written through "GoldItemRepr"
}

/// The serialised form of a [`GoldItem`]: id, target and substitutes;
/// reading it back goes through [`GoldItem::new`] (which validates, and
/// recomputes the total and the largest count).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct GoldItemRepr {
    id: String,
    target: String,
    substitutes: Vec<Substitute>,
}

#[cfg(feature = "serde")]
impl TryFrom<GoldItemRepr> for GoldItem {
    type Error = LexsubError;
    fn try_from(r: GoldItemRepr) -> Result<Self, LexsubError> {
        GoldItem::new(
            r.id,
            r.target,
            r.substitutes.into_iter().map(|s| (s.term, s.count)),
        )
    }
}

#[cfg(feature = "serde")]
impl From<GoldItem> for GoldItemRepr {
    fn from(g: GoldItem) -> Self {
        Self {
            id: g.id,
            target: g.target,
            substitutes: g.substitutes,
        }
    }
}

impl GoldItem {
    /// Builds a gold item from its id, its target `lemma.pos` and its
    /// `(substitute, count)` pairs.
    ///
    /// A term listed twice is merged into one substitute at its first
    /// position, with the counts summed (the gold file says the term was
    /// proposed that many times in all). Terms are taken as given: use a
    /// [`Profile`](super::Profile) to normalise case, hyphens and whitespace.
    ///
    /// # Errors
    /// [`LexsubError::NoSubstitutes`] for an empty list,
    /// [`LexsubError::EmptySubstitute`] for an empty or whitespace-only term,
    /// [`LexsubError::ZeroCount`] for a count of 0.
    ///
    /// # Complexity
    /// O(n) expected for n substitutes (a linear scan up to 32, hashing
    /// beyond); O(n) memory.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::GoldItem;
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// // Jabbari et al. (2010), slide "Notational Conventions".
    /// let h = GoldItem::new("1", "happy.a",
    ///     [("glad", 3), ("merry", 3), ("sunny", 2), ("jovial", 1), ("cheerful", 1)])?;
    /// assert_eq!(h.max_freq(), 3);
    /// assert_eq!(h.total(), 10);
    /// assert_eq!(h.mode(), None); // two terms share the top count
    /// # Ok(()) }
    /// ```
    pub fn new<S, I>(
        id: impl Into<String>,
        target: impl Into<String>,
        substitutes: I,
    ) -> Result<Self, LexsubError>
    where
        S: Into<String>,
        I: IntoIterator<Item = (S, u32)>,
    {
        let id = id.into();
        let substitutes = substitutes.into_iter();
        let mut subs: Vec<Substitute> = Vec::with_capacity(substitutes.size_hint().0);
        let mut index_of: std::collections::HashMap<String, usize> = Default::default();
        for (index, (term, count)) in substitutes.enumerate() {
            let term = term.into();
            if term.trim().is_empty() {
                return Err(LexsubError::EmptySubstitute { id, index });
            }
            if count == 0 {
                return Err(LexsubError::ZeroCount { id, index });
            }
            // Long lists (never seen in real gold, but possible in hostile
            // input) get a hash index so that merging stays linear.
            if subs.len() == 32 && index_of.is_empty() {
                index_of = subs
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.term.clone(), i))
                    .collect();
            }
            let found = if index_of.is_empty() {
                subs.iter().position(|s| s.term == term)
            } else {
                index_of.get(&term).copied()
            };
            // Counts saturate at u32::MAX (no real gold comes near).
            match found.and_then(|i| subs.get_mut(i)) {
                Some(s) => s.count = s.count.saturating_add(count),
                None => {
                    if !index_of.is_empty() {
                        index_of.insert(term.clone(), subs.len());
                    }
                    subs.push(Substitute { term, count });
                }
            }
        }
        if subs.is_empty() {
            return Err(LexsubError::NoSubstitutes { id });
        }
        let total = subs.iter().map(|s| u64::from(s.count)).sum();
        let max = subs.iter().map(|s| s.count).max().unwrap_or(0);
        Ok(Self {
            id,
            target: target.into(),
            substitutes: subs,
            total,
            max,
        })
    }

    /// The item id (the number after `lemma.pos` in the files).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The target, `lemma.pos` (e.g. `bright.a`).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The substitutes in the order given.
    pub fn substitutes(&self) -> &[Substitute] {
        &self.substitutes
    }

    /// `freqᵢ(term)`: the count of `term`, 0 when it is not a gold substitute.
    /// Exact string comparison.
    ///
    /// # Complexity
    /// O(|H|) string comparisons.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::GoldItem;
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let h = GoldItem::new("1", "bright.a", [("clever", 3), ("smart", 1)])?;
    /// assert_eq!((h.freq("smart"), h.freq("Smart"), h.freq("dim")), (1, 0, 0));
    /// # Ok(()) }
    /// ```
    pub fn freq(&self, term: &str) -> u32 {
        self.substitutes
            .iter()
            .find(|s| s.term == term)
            .map_or(0, |s| s.count)
    }

    /// `maxfreqᵢ`: the largest count (at least 1).
    pub fn max_freq(&self) -> u32 {
        self.max
    }

    /// `|Hᵢ|ⁱ`: the sum of all counts (at least 1).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// `mᵢ`: the substitute with the largest count, if exactly one has it.
    ///
    /// Unlike `score.pl`, which takes the first listed substitute, this does
    /// not assume the gold lists substitutes by decreasing count.
    ///
    /// # Complexity
    /// O(|H|).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::GoldItem;
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let h = GoldItem::new("1", "bright.a", [("smart", 1), ("clever", 3)])?;
    /// assert_eq!(h.mode(), Some("clever"));
    /// # Ok(()) }
    /// ```
    pub fn mode(&self) -> Option<&str> {
        let mut top = self.substitutes.iter().filter(|s| s.count == self.max);
        match (top.next(), top.next()) {
            (Some(s), None) => Some(&s.term),
            _ => None,
        }
    }

    /// The counts sorted from largest to smallest (the optimal ranking's
    /// credits, used by the rank measure and GAP).
    ///
    /// # Complexity
    /// O(|H| log |H|).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::GoldItem;
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let h = GoldItem::new("1", "bright.a", [("smart", 1), ("clever", 3), ("able", 2)])?;
    /// assert_eq!(h.counts_descending(), [3, 2, 1]);
    /// # Ok(()) }
    /// ```
    pub fn counts_descending(&self) -> Vec<u32> {
        let mut c: Vec<u32> = self.substitutes.iter().map(|s| s.count).collect();
        c.sort_unstable_by(|a, b| b.cmp(a));
        c
    }
}

/// A system's answer for one item: its substitutes, best first.
///
/// Any content is accepted: scoring removes repeated answers (first
/// occurrence kept) so that a repeated answer can never earn credit twice.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SystemAnswer {
    /// The item id, matched against [`GoldItem::id`].
    pub id: String,
    /// The target `lemma.pos`.
    pub target: String,
    /// The answers, best first. May be empty: the item is then not
    /// attempted (see [`Corpus`](super::Corpus)).
    pub answers: Vec<String>,
}

/// The score of one item for one measure.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ItemScore {
    /// The item id.
    pub id: String,
    /// What the item scored.
    pub outcome: Outcome,
}

/// What one item scored for one measure.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// The system answered the item; the score, in `[0, 1]`.
    Scored(f64),
    /// The system output has no line for the item, or an empty one: it
    /// counts in the recall denominator with credit 0 and not in the
    /// precision denominator.
    NotAttempted,
    /// The measure does not apply to the item (mode measures on items
    /// without a unique mode): it counts in neither denominator.
    NotApplicable,
}

/// Corpus totals of one measure, in the SemEval-2007 sense.
///
/// ```text
/// precision = Σ credit / attempted        recall = Σ credit / items
/// ```
///
/// `items` counts the gold items the measure applies to, `attempted` those
/// the system answered. Both ratios are fractions in `[0, 1]`; use
/// [`Percent`] to print them as the official scorer does.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::Totals;
/// let t = Totals { credit: 1.5, attempted: 2, items: 4 };
/// assert_eq!((t.precision(), t.recall()), (Some(0.75), Some(0.375)));
/// let none = Totals { credit: 0.0, attempted: 0, items: 4 };
/// assert_eq!(none.precision(), None); // nothing attempted: undefined
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Totals {
    /// Sum of the per-item scores of the attempted items.
    pub credit: f64,
    /// Number of items the system answered (a line with at least one answer).
    pub attempted: usize,
    /// Number of gold items the measure applies to.
    pub items: usize,
}

impl Totals {
    /// `credit / attempted`, or `None` when nothing was attempted (the
    /// official scorer divides by zero there).
    pub fn precision(&self) -> Option<f64> {
        (self.attempted > 0).then(|| self.credit / self.attempted as f64)
    }

    /// `credit / items`, or `None` when the measure applies to no item.
    pub fn recall(&self) -> Option<f64> {
        (self.items > 0).then(|| self.credit / self.items as f64)
    }
}

/// Prints a fraction as a percentage with two decimals, `n/a` for an
/// undefined value: `Percent(Some(0.4615))` prints `46.15`.
///
/// Values in the API stay fractions; this is only for display, as the
/// SemEval-2007 scorer prints percentages. Rounding is half up, computed as
/// `score.pl` does (`⌊x·100·100 + 0.5⌋ / 100`), so the printed digits match
/// the official scorer's: `0.00125` prints `0.13` where plain `{:.2}`
/// formatting would give `0.12`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::Percent;
/// assert_eq!(Percent(Some(0.46154)).to_string(), "46.15");
/// assert_eq!(Percent(Some(0.41665)).to_string(), "41.67");
/// assert_eq!(Percent(None).to_string(), "n/a");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Percent(pub Option<f64>);

impl core::fmt::Display for Percent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{:.2}", ((v * 100.0) * 100.0 + 0.5).floor() / 100.0),
            None => f.write_str("n/a"),
        }
    }
}

/// The answers with repeats removed, first occurrence kept, order kept.
pub(crate) fn distinct<S: AsRef<str>>(answers: &[S]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::with_capacity(answers.len());
    if answers.len() <= 32 {
        for a in answers {
            let a = a.as_ref();
            if !out.contains(&a) {
                out.push(a);
            }
        }
    } else {
        let mut seen = std::collections::HashSet::with_capacity(answers.len());
        for a in answers {
            let a = a.as_ref();
            if seen.insert(a) {
                out.push(a);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_repeated_terms_and_validates() {
        let g = GoldItem::new("7", "x.n", [("a", 1), ("b", 2), ("a", 2)]).unwrap();
        assert_eq!(g.substitutes().len(), 2);
        assert_eq!(g.freq("a"), 3);
        assert_eq!(g.mode(), Some("a"));
        assert_eq!(g.total(), 5);
        assert_eq!(
            GoldItem::new("7", "x.n", Vec::<(String, u32)>::new()),
            Err(LexsubError::NoSubstitutes { id: "7".into() })
        );
        assert_eq!(
            GoldItem::new("7", "x.n", [("a", 1), (" ", 1)]),
            Err(LexsubError::EmptySubstitute {
                id: "7".into(),
                index: 1
            })
        );
        assert_eq!(
            GoldItem::new("7", "x.n", [("a", 0)]),
            Err(LexsubError::ZeroCount {
                id: "7".into(),
                index: 0
            })
        );
    }

    #[test]
    fn long_lists_merge_like_short_ones() {
        let entries: Vec<(String, u32)> = (0..200).map(|i| (format!("t{}", i % 50), 1)).collect();
        let g = GoldItem::new("1", "x.n", entries).unwrap();
        assert_eq!(g.substitutes().len(), 50);
        assert!(g.substitutes().iter().all(|s| s.count == 4));
        assert_eq!(g.substitutes()[49].term, "t49"); // first-seen order kept
        assert_eq!(g.total(), 200);
    }

    #[test]
    fn distinct_keeps_first_occurrence() {
        assert_eq!(distinct(&["b", "a", "b", "c", "a"]), ["b", "a", "c"]);
        let many: Vec<String> = (0..100).map(|i| (i % 7).to_string()).collect();
        assert_eq!(distinct(&many), ["0", "1", "2", "3", "4", "5", "6"]);
    }

    #[test]
    fn totals_are_undefined_not_nan_when_empty() {
        let t = Totals::default();
        assert_eq!(t.precision(), None);
        assert_eq!(t.recall(), None);
        assert_eq!(Percent(t.precision()).to_string(), "n/a");
    }

    #[test]
    fn percent_rounds_half_up_like_score_pl() {
        // Expected strings from perl, with score.pl's myround arithmetic:
        // perl -e '$n=shift; $n*=100; print int($n*100+.5)/100' 0.00125  → 0.13
        for (v, want) in [
            (0.00125, "0.13"),
            (0.41665, "41.67"),
            (0.12345, "12.35"),
            (0.000625, "0.06"),
            (1.0, "100.00"),
            (0.0, "0.00"),
        ] {
            assert_eq!(Percent(Some(v)).to_string(), want, "{v}");
        }
    }
}
