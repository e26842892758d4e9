//! Scoring a similarity model on binary comparisons (Avraham & Goldberg 2016,
//! §4.2).

use std::collections::BTreeMap;

use super::error::TripletError;
use super::model::{Comparison, ComparisonKind};
use crate::embedding::Similarity;
use crate::sum::Neumaier;

/// What a tie `sim(w_t, w1) = sim(w_t, w2)` counts as.
///
/// ```text
/// s = |2R − 1|       weight of the comparison in the denominator
/// ChooseSecond   δ = −1: credit max(−(2R − 1), 0), weight s     (published evaluator)
/// HalfCredit     credit s/2, weight s                           (default)
/// Skip           left out of both sums, counted in Tally::skipped_ties
/// ```
///
/// The default is [`HalfCredit`](Self::HalfCredit): a tie is a coin flip and
/// gets the coin flip's expected credit. It is the only one of the three that
/// is (a) invariant under swapping `w1` and `w2` (with `R → 1 − R`): by the
/// paper's definition `R_>(w1, w2) = 1 − R_>(w2, w1)` both forms state the
/// same judgement, so the order of the words in a file must not change the
/// score; and (b) not gameable: a constant model scores exactly 0.5, where
/// `ChooseSecond` gives it 0 on every distractor and random comparison (the
/// file always puts the positive first) and `Skip` lets a model abstain on
/// hard comparisons by answering ties, or score "undefined" everywhere.
/// `ChooseSecond` reproduces the published evaluator's numbers (it uses a
/// strict `>`, Avraham & Goldberg 2016, §4.2: "δ = −1 otherwise").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TiePolicy {
    /// Half of the comparison's weight is credited.
    #[default]
    HalfCredit,
    /// A tie counts as choosing `w2`, as in the paper's δ and the published
    /// evaluator.
    ChooseSecond,
    /// Ties are left out of both sums (and counted).
    Skip,
}

/// Running sums and counts of one set of comparisons.
///
/// ```text
/// s(w_t, w1, w2) = δ·(2R_>(w1, w2; w_t) − 1),  δ = +1 if sim(w_t, w1) > sim(w_t, w2), −1 if <
/// credit = Σ max(s, 0)        weight = Σ |s|        score = credit / weight
/// ```
///
/// The score is `None` (undefined) when `weight = 0`: nothing was scored, or
/// every scored comparison has `R = 0.5`.
///
/// Reference: Avraham & Goldberg (2016), §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tally {
    /// Σ max(s, 0) over scored comparisons (ties per the [`TiePolicy`]).
    pub credit: f64,
    /// Σ |s| over scored comparisons.
    pub weight: f64,
    /// Comparisons that entered both sums.
    pub scored: usize,
    /// Comparisons skipped because the model did not know a word.
    pub unknown: usize,
    /// Scored comparisons where the model tied (included in `scored`).
    pub ties: usize,
    /// Ties left out of both sums under [`TiePolicy::Skip`] (not in `scored`).
    pub skipped_ties: usize,
}

impl Tally {
    /// `credit / weight`, in `[0, 1]`, or `None` when `weight = 0`.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::triplet::Tally;
    /// assert_eq!(Tally::default().score(), None);
    /// let t = Tally { credit: 1.0, weight: 4.0, scored: 3, ..Tally::default() };
    /// assert_eq!(t.score(), Some(0.25));
    /// ```
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        // credit ≤ weight term by term; the clamp only guards the last ulp.
        (self.weight > 0.0).then(|| (self.credit / self.weight).clamp(0.0, 1.0))
    }

    /// All comparisons seen: `scored + unknown + skipped_ties`.
    #[must_use]
    pub fn total(&self) -> usize {
        self.scored + self.unknown + self.skipped_ties
    }

    /// Comparisons left out of the sums: `unknown + skipped_ties`.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.unknown + self.skipped_ties
    }
}

/// A [`Tally`] being accumulated with compensated sums.
#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    credit: Neumaier,
    weight: Neumaier,
    scored: usize,
    unknown: usize,
    ties: usize,
    skipped_ties: usize,
}

impl Acc {
    #[inline]
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Unknown => self.unknown += 1,
            Outcome::SkippedTie => self.skipped_ties += 1,
            Outcome::Scored {
                credit,
                weight,
                tie,
            } => {
                self.credit.add(credit);
                self.weight.add(weight);
                self.scored += 1;
                self.ties += usize::from(tie);
            }
        }
    }

    fn finish(&self) -> Tally {
        Tally {
            credit: self.credit.value(),
            weight: self.weight.value(),
            scored: self.scored,
            unknown: self.unknown,
            ties: self.ties,
            skipped_ties: self.skipped_ties,
        }
    }
}

/// What one comparison contributes.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    Unknown,
    SkippedTie,
    Scored { credit: f64, weight: f64, tie: bool },
}

/// Scores of a model overall and per comparison type.
///
/// Reference: Avraham & Goldberg (2016), §4.2 and Table 2.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TripletScore {
    /// All comparisons.
    pub overall: Tally,
    /// Positive-vs-positive comparisons.
    pub positive: Tally,
    /// Positive-vs-distractor comparisons.
    pub distractor: Tally,
    /// Positive-vs-random comparisons.
    pub random: Tally,
}

impl TripletScore {
    /// The tally of one comparison type.
    #[must_use]
    pub fn kind(&self, kind: ComparisonKind) -> &Tally {
        match kind {
            ComparisonKind::Positive => &self.positive,
            ComparisonKind::Distractor => &self.distractor,
            ComparisonKind::Random => &self.random,
        }
    }
}

/// Checks every reliability before any scoring work.
fn validate<S>(comparisons: &[Comparison<S>]) -> Result<(), TripletError> {
    for (index, c) in comparisons.iter().enumerate() {
        if !(0.0..=1.0).contains(&c.reliability) {
            return Err(TripletError::InvalidReliability {
                index,
                value: c.reliability,
            });
        }
    }
    Ok(())
}

/// Most words remembered per target (a target group has a handful of
/// candidates; the bound keeps the linear search short for huge groups).
const MEMO_WORDS: usize = 32;

/// The model's answers `sim(target, w)` for the current target.
///
/// Comparisons of one target group are consecutive in a dataset and reuse the
/// same few candidates (7 words serve 18 comparisons in the paper's groups),
/// so each answer is asked for once per run of a target.
#[derive(Debug, Default)]
struct Memo<'a> {
    target: Option<&'a str>,
    words: Vec<(&'a str, Option<f64>)>,
}

impl<'a> Memo<'a> {
    #[inline]
    fn get(&self, w: &str) -> Option<Option<f64>> {
        self.words.iter().find(|(k, _)| *k == w).map(|&(_, v)| v)
    }

    #[inline]
    fn put(&mut self, w: &'a str, v: Option<f64>) {
        if self.words.len() < MEMO_WORDS {
            self.words.push((w, v));
        }
    }

    /// `[sim(w_t, w1), sim(w_t, w2)]`, asking the model only for what is new.
    #[inline]
    fn pair<M: Similarity + ?Sized>(
        &mut self,
        model: &M,
        target: &'a str,
        w1: &'a str,
        w2: &'a str,
    ) -> Option<[f64; 2]> {
        if self.target != Some(target) {
            self.target = Some(target);
            self.words.clear();
        }
        match (self.get(w1), self.get(w2)) {
            (Some(a), Some(b)) => Some([a?, b?]),
            (Some(a), None) => {
                let b = model.similarity(target, w2);
                self.put(w2, b);
                Some([a?, b?])
            }
            (None, Some(b)) => {
                let a = model.similarity(target, w1);
                self.put(w1, a);
                Some([a?, b?])
            }
            (None, None) => {
                let [a, b] = model.similarity_pair(target, w1, w2)?;
                self.put(w1, Some(a));
                self.put(w2, Some(b));
                Some([a, b])
            }
        }
    }
}

/// The contribution of comparison `index`.
#[inline]
fn judge<'a, S: AsRef<str>, M: Similarity + ?Sized>(
    index: usize,
    c: &'a Comparison<S>,
    model: &M,
    ties: TiePolicy,
    memo: &mut Memo<'a>,
) -> Result<Outcome, TripletError> {
    let Some([a, b]) = memo.pair(model, c.target.as_ref(), c.w1.as_ref(), c.w2.as_ref()) else {
        return Ok(Outcome::Unknown);
    };
    if a.is_nan() || b.is_nan() {
        return Err(TripletError::NanSimilarity { index });
    }
    // s = δ(2R − 1); its magnitude is the weight of the comparison.
    let margin = 2.0 * c.reliability - 1.0;
    let weight = margin.abs();
    let (credit, tie) = if a > b {
        (margin.max(0.0), false)
    } else if a < b {
        ((-margin).max(0.0), false)
    } else {
        match ties {
            TiePolicy::HalfCredit => (0.5 * weight, true),
            TiePolicy::ChooseSecond => ((-margin).max(0.0), true),
            TiePolicy::Skip => return Ok(Outcome::SkippedTie),
        }
    };
    Ok(Outcome::Scored {
        credit,
        weight,
        tie,
    })
}

/// The reliability-weighted score of `model` on `comparisons`, overall and per
/// comparison type.
///
/// ```text
/// δ = +1 if sim(w_t, w1) > sim(w_t, w2), −1 if <, a tie per `ties`
/// s(w_t, w1, w2) = δ·(2R_>(w1, w2; w_t) − 1)
/// score = Σ max(s, 0) / Σ |s|
/// ```
///
/// Comparisons with an unknown word (the model answers `None`) are left out
/// of both sums and counted in [`Tally::unknown`]. Sums are compensated, so
/// the order of the comparisons does not matter beyond the last bits.
///
/// # Errors
/// [`TripletError::InvalidReliability`] if a reliability is NaN or outside
/// `[0, 1]` (checked for all comparisons before scoring);
/// [`TripletError::NanSimilarity`] if the model returns NaN.
///
/// # Complexity
/// O(n) time, at most one [`Similarity::similarity_pair`] per comparison
/// (fewer within a target group, whose answers are remembered); O(1) extra
/// memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{score, Comparison, ComparisonKind, TiePolicy};
/// use ComparisonKind::*;
/// // The paper's Table 1 (target "singer").
/// let table1: Vec<Comparison> = vec![
///     Comparison::new("singer", "person", "musician", 0.1, Positive),
///     Comparison::new("singer", "artist", "person", 0.8, Positive),
///     Comparison::new("singer", "musician", "performer", 0.6, Positive),
///     Comparison::new("singer", "musician", "song", 1.0, Distractor),
///     Comparison::new("singer", "musician", "laptop", 1.0, Random),
/// ];
/// // A model that ranks musician > performer > artist > person > song > laptop.
/// let model = |_: &str, w: &str| match w {
///     "musician" => Some(0.9), "performer" => Some(0.8), "artist" => Some(0.7),
///     "person" => Some(0.4), "song" => Some(0.3), "laptop" => Some(0.1), _ => None,
/// };
/// let s = score(&table1, &model, TiePolicy::default())?;
/// assert_eq!(s.overall.score(), Some(1.0));
/// assert_eq!(s.positive.scored, 3);
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
///
/// Reference: Avraham & Goldberg (2016), §4.2.
pub fn score<S, M>(
    comparisons: &[Comparison<S>],
    model: &M,
    ties: TiePolicy,
) -> Result<TripletScore, TripletError>
where
    S: AsRef<str>,
    M: Similarity + ?Sized,
{
    validate(comparisons)?;
    let mut memo = Memo::default();
    let mut overall = Acc::default();
    let mut by_kind = [Acc::default(); 3];
    for (index, c) in comparisons.iter().enumerate() {
        let outcome = judge(index, c, model, ties, &mut memo)?;
        overall.add(outcome);
        by_kind[c.kind as usize].add(outcome);
    }
    let [positive, distractor, random] = by_kind.map(|a| a.finish());
    Ok(TripletScore {
        overall: overall.finish(),
        positive,
        distractor,
        random,
    })
}

/// The score of `model` on the comparisons for which `keep` is true (e.g. one
/// target word, or comparisons with a reliability of at least 0.8).
///
/// Same formula as [`score`]; indices in errors refer to `comparisons`.
///
/// # Errors
/// As [`score`] (reliabilities are checked for all comparisons, kept or not).
///
/// # Complexity
/// O(n) calls of `keep`, two model calls per kept comparison.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{score_where, Comparison, ComparisonKind::Positive, TiePolicy};
/// let c: Vec<Comparison> = vec![
///     Comparison::new("cat", "pet", "animal", 0.7, Positive),
///     Comparison::new("cab", "taxi", "car", 0.9, Positive),
/// ];
/// let model = |_: &str, w: &str| Some(w.len() as f64);
/// let cab = score_where(&c, &model, TiePolicy::default(), |c| c.target == "cab")?;
/// assert_eq!((cab.scored, cab.score()), (1, Some(1.0))); // len(taxi) > len(car), with R = 0.9
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn score_where<S, M, P>(
    comparisons: &[Comparison<S>],
    model: &M,
    ties: TiePolicy,
    mut keep: P,
) -> Result<Tally, TripletError>
where
    S: AsRef<str>,
    M: Similarity + ?Sized,
    P: FnMut(&Comparison<S>) -> bool,
{
    validate(comparisons)?;
    let mut memo = Memo::default();
    let mut acc = Acc::default();
    for (index, c) in comparisons.iter().enumerate() {
        if keep(c) {
            acc.add(judge(index, c, model, ties, &mut memo)?);
        }
    }
    Ok(acc.finish())
}

/// One [`Tally`] per key, e.g. per target word; comparisons whose key is
/// `None` are left out.
///
/// Same formula as [`score`].
///
/// # Errors
/// As [`score`].
///
/// # Complexity
/// O(n log g) for g distinct keys, two model calls per kept comparison.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{score_by, Comparison, ComparisonKind::Positive, TiePolicy};
/// let c: Vec<Comparison> = vec![
///     Comparison::new("cat", "pet", "animal", 0.7, Positive),
///     Comparison::new("cab", "taxi", "car", 0.9, Positive),
/// ];
/// let model = |_: &str, w: &str| Some(w.len() as f64); // prefers longer words
/// let per_target = score_by(&c, &model, TiePolicy::default(), |c| Some(c.target.clone()))?;
/// assert_eq!(per_target["cat"].score(), Some(0.0)); // len(pet) < len(animal), against R = 0.7
/// assert_eq!(per_target["cab"].score(), Some(1.0)); // len(taxi) > len(car), with R = 0.9
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn score_by<S, M, K, G>(
    comparisons: &[Comparison<S>],
    model: &M,
    ties: TiePolicy,
    mut key: G,
) -> Result<BTreeMap<K, Tally>, TripletError>
where
    S: AsRef<str>,
    M: Similarity + ?Sized,
    K: Ord,
    G: FnMut(&Comparison<S>) -> Option<K>,
{
    validate(comparisons)?;
    let mut memo = Memo::default();
    let mut groups: BTreeMap<K, Acc> = BTreeMap::new();
    for (index, c) in comparisons.iter().enumerate() {
        if let Some(k) = key(c) {
            let outcome = judge(index, c, model, ties, &mut memo)?;
            groups.entry(k).or_default().add(outcome);
        }
    }
    Ok(groups.into_iter().map(|(k, a)| (k, a.finish())).collect())
}
