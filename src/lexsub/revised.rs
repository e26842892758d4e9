//! The revised lexical-substitution measures of Jabbari, Hepple & Guthrie
//! (2010), "Evaluating Lexical Substitution: Analysis and New Measures".
//!
//! With `freq(t)` the annotator count of `t` (0 outside the gold `H`),
//! `|S|ⁱ = Σ_{t∈S} freq(t)`, `maxfreq` the largest count, `A` the distinct
//! answers and `bg` the first answer:
//!
//! ```text
//! new best(i) = |A|ⁱ / (maxfreq · |A|)
//! best-1(i)   = freq(bg) / maxfreq
//! oot(i)      = |A₁₀|ⁱ / |H|ⁱ                       (= SemEval oot)
//! R(i)        = |A|ⁱ / |H|ⁱ                          (no limit on |A|)
//! P(i)        = |A|ⁱ / (|A|ⁱ + k · |A − H|)          (penalty k per wrong answer)
//! rank(i)     = (1/10) Σ_{j=1..10} cumA(j) / cumH(j)
//! ```
//!
//! where `cumA(j)` sums the counts of the first `j` answers and `cumH(j)` the
//! `j` largest gold counts (the optimal list). Every measure lies in
//! `[0, 1]`; an empty answer list scores 0 in all of them (for `P` this
//! defines 0/0 as 0, as it does when `k = 0` and every answer is wrong).
//! Lists shorter than 10 (answers or gold) simply stop adding credit, as in
//! the slides' examples with 5 gold and 9 system terms; answers past the
//! tenth are ignored by `rank` and `oot` only.
//!
//! Corpus figures are [`Totals`]: mean over attempted items
//! ([`Totals::precision`]) and over all gold items ([`Totals::recall`]).
//! For the coverage pair, read `P` over attempted items and `R` over all.

use super::corpus::{Corpus, Measure};
use super::error::LexsubError;
use super::model::{GoldItem, Totals, distinct};
use super::semeval::credit;

/// How many rank positions the rank measure averages over.
pub const RANK_DEPTH: usize = 10;

/// The penalty `k` charged per wrong answer by the weighted precision
/// [`precision`]: a finite number ≥ 0 (Jabbari et al. use `k = 1`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "PenaltyRepr")
)]
pub struct Penalty(f64);

/// The unvalidated mirror of [`Penalty`] that serde reads.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct PenaltyRepr(f64);

#[cfg(feature = "serde")]
impl TryFrom<PenaltyRepr> for Penalty {
    type Error = LexsubError;
    fn try_from(r: PenaltyRepr) -> Result<Self, LexsubError> {
        Penalty::new(r.0)
    }
}

impl Penalty {
    /// `k = 1`, the value of the slides' examples.
    pub const ONE: Penalty = Penalty(1.0);

    /// A penalty of `k` per wrong answer.
    ///
    /// # Errors
    /// [`LexsubError::InvalidParameter`] when `k` is negative, NaN or infinite.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::Penalty;
    /// assert!(Penalty::new(0.5).is_ok());
    /// assert!(Penalty::new(f64::NAN).is_err());
    /// ```
    pub fn new(k: f64) -> Result<Self, LexsubError> {
        if k.is_finite() && k >= 0.0 {
            Ok(Penalty(k))
        } else {
            Err(LexsubError::InvalidParameter {
                name: "penalty k",
                expected: "a finite number >= 0",
            })
        }
    }

    /// The value of `k`.
    pub fn value(self) -> f64 {
        self.0
    }
}

impl Default for Penalty {
    fn default() -> Self {
        Penalty::ONE
    }
}

/// New best: the best score divided by `maxfreq` instead of `|H|ⁱ`, so an
/// optimal single answer scores 1.
///
/// ```text
/// new best(i) = |A|ⁱ / (maxfreq · |A|)          (0 when A is empty)
/// ```
///
/// # Complexity
/// O(|A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Jabbari et al. (2010), slide "Best Answer Measures": {G, S} scores 0.83.
/// let h = GoldItem::new("1", "happy.a", [("G", 3), ("M", 3), ("S", 2), ("J", 1), ("Ch", 1)])?;
/// assert!((revised::new_best(&h, &["G", "S"]) - 5.0 / 6.0).abs() < 1e-12);
/// # Ok(()) }
/// ```
pub fn new_best<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    let a = distinct(answers);
    if a.is_empty() {
        return 0.0;
    }
    credit(gold, &a) as f64 / (f64::from(gold.max_freq()) * a.len() as f64)
}

/// Best-1: the first answer's count over `maxfreq`.
///
/// ```text
/// best-1(i) = freq(bg) / maxfreq                 (0 when A is empty)
/// ```
///
/// # Complexity
/// O(|H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let h = GoldItem::new("1", "happy.a", [("G", 3), ("M", 3), ("S", 2)])?;
/// assert_eq!(revised::best1(&h, &["M", "G"]), 1.0);
/// assert!((revised::best1(&h, &["S"]) - 2.0 / 3.0).abs() < 1e-12);
/// # Ok(()) }
/// ```
pub fn best1<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    answers.first().map_or(0.0, |a| {
        f64::from(gold.freq(a.as_ref())) / f64::from(gold.max_freq())
    })
}

/// Count-weighted recall: the share of gold credit covered by all distinct
/// answers (the oot measure without the limit of 10).
///
/// ```text
/// R(i) = |A|ⁱ / |H|ⁱ
/// ```
///
/// # Complexity
/// O(|A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Slide "Measures of Coverage": {G, S, J, X, Y} gets R = 6/10.
/// let h = GoldItem::new("1", "happy.a", [("G", 3), ("M", 3), ("S", 2), ("J", 1), ("Ch", 1)])?;
/// assert!((revised::recall(&h, &["G", "S", "J", "X", "Y"]) - 0.6).abs() < 1e-12);
/// # Ok(()) }
/// ```
pub fn recall<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    credit(gold, &distinct(answers)) as f64 / gold.total() as f64
}

/// Count-weighted precision with a penalty `k` per wrong answer.
///
/// ```text
/// P(i) = |A|ⁱ / (|A|ⁱ + k · |A − H|)            (0 when the denominator is 0)
/// ```
///
/// # Complexity
/// O(|A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, Penalty, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Slide "Measures of Coverage": {G, S, J, X, Y} gets P = 6/(6 + 2) = 0.75.
/// let h = GoldItem::new("1", "happy.a", [("G", 3), ("M", 3), ("S", 2), ("J", 1), ("Ch", 1)])?;
/// assert_eq!(revised::precision(&h, &["G", "S", "J", "X", "Y"], Penalty::ONE), 0.75);
/// # Ok(()) }
/// ```
pub fn precision<S: AsRef<str>>(gold: &GoldItem, answers: &[S], k: Penalty) -> f64 {
    let a = distinct(answers);
    let right = credit(gold, &a) as f64;
    let wrong = a.iter().filter(|t| gold.freq(t) == 0).count() as f64;
    let denominator = right + k.0 * wrong;
    if denominator > 0.0 {
        right / denominator
    } else {
        0.0
    }
}

/// The rank measure: at each position 1..10, the cumulative credit of the
/// answer list over the cumulative credit of the optimal list, averaged.
///
/// ```text
/// rank(i) = (1/10) Σ_{j=1..10} cumA(j) / cumH(j)
/// cumA(j) = Σ_{r≤j} freq(A_r)      cumH(j) = Σ_{r≤j} (r-th largest count)
/// ```
///
/// `cumH(1) = maxfreq ≥ 1`, so every ratio is defined; each lies in
/// `[0, 1]` because `j` distinct answers cannot beat the `j` best counts.
///
/// # Complexity
/// O(|A| · |H| + |H| log |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Slide "Measures of Ranking": (S, Ch, M, J, G, X, Y, Z, V) gets 0.87.
/// let h = GoldItem::new("1", "happy.a", [("G", 3), ("M", 3), ("S", 2), ("J", 1), ("Ch", 1)])?;
/// let r = revised::rank(&h, &["S", "Ch", "M", "J", "G", "X", "Y", "Z", "V"]);
/// assert_eq!(format!("{r:.2}"), "0.87");
/// # Ok(()) }
/// ```
pub fn rank<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    let a = distinct(answers);
    let optimal = gold.counts_descending();
    let (mut cum_a, mut cum_h) = (0u64, 0u64);
    let mut sum = 0.0;
    for j in 0..RANK_DEPTH {
        cum_a += a.get(j).map_or(0, |t| u64::from(gold.freq(t)));
        cum_h += optimal.get(j).map_or(0, |&c| u64::from(c));
        sum += cum_a as f64 / cum_h as f64;
    }
    sum / RANK_DEPTH as f64
}

/// The corpus figures of the revised measures.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevisedScores {
    /// [`new_best`].
    pub new_best: Totals,
    /// [`best1`].
    pub best1: Totals,
    /// Out of ten ([`semeval::oot`](super::semeval::oot)).
    pub oot: Totals,
    /// [`recall`]: read [`Totals::recall`] (mean over all gold items).
    pub recall: Totals,
    /// [`precision`]: read [`Totals::precision`] (mean over attempted items).
    pub precision: Totals,
    /// [`rank`].
    pub rank: Totals,
}

/// All revised measures over a corpus, with penalty `k` for [`precision`].
///
/// # Complexity
/// O(Σ |A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Corpus, GoldItem, Penalty, Profile, SystemAnswer, revised};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let gold = [GoldItem::new("1", "happy.a", [("glad", 3), ("merry", 1)])?];
/// let sys = [SystemAnswer { id: "1".into(), target: "happy.a".into(), answers: vec!["merry".into()] }];
/// let s = revised::revised_scores(&Corpus::new(&gold, &sys, Profile::Strict)?, Penalty::ONE);
/// assert_eq!(s.best1.precision(), Some(1.0 / 3.0));
/// # Ok(()) }
/// ```
pub fn revised_scores(corpus: &Corpus, k: Penalty) -> RevisedScores {
    RevisedScores {
        new_best: corpus.totals(Measure::NewBest),
        best1: corpus.totals(Measure::Best1),
        oot: corpus.totals(Measure::Oot),
        recall: corpus.totals(Measure::Recall),
        precision: corpus.totals(Measure::Precision(k)),
        rank: corpus.totals(Measure::Rank),
    }
}
