//! The SemEval-2007 English Lexical Substitution measures (McCarthy &
//! Navigli 2007): best, mode-best, out-of-ten (oot) and mode-oot.
//!
//! Per item, with `freq(a)` the annotator count of answer `a` and
//! `|H| = Σ counts` (Jabbari et al. 2010 write `|Hᵢ|ⁱ`):
//!
//! ```text
//! best(i)     = Σ_{a∈A} freq(a) / (|H| · |A|)
//! oot(i)      = Σ_{a∈A₁₀} freq(a) / |H|         A₁₀ = first 10 distinct answers
//! mode-best(i)= 1 if first answer = mᵢ else 0   (only items with a unique mode)
//! mode-oot(i) = 1 if mᵢ ∈ A₁₀ else 0            (only items with a unique mode)
//! ```
//!
//! Corpus figures ([`Totals`]): precision = Σ score / attempted items,
//! recall = Σ score / all gold items (the mode measures count only items
//! with a unique mode in both).
//!
//! Unlike the official `score.pl`: repeated answers are removed before
//! scoring (ten copies of the mode do not score 460 %); an empty answer
//! list scores 0 and is not attempted (never the previous line's answers);
//! when nothing is attempted precision is `None`, not a division by zero.
//! [`score_pl::score`](super::score_pl::score) reproduces `score.pl`
//! itself, quirks included, for published tables.

use super::corpus::{Corpus, Measure};
use super::model::{GoldItem, Totals, distinct};

/// How many answers the out-of-ten measures look at.
pub const OOT_LIMIT: usize = 10;

/// SemEval-2007 best score of one item.
///
/// ```text
/// best(i) = Σ_{a∈A} freq(a) / (|H| · |A|)      (0 when A is empty)
/// ```
///
/// Repeated answers count once. Answers are compared exactly: normalise
/// them with a [`Profile`](super::Profile) first, or score a [`Corpus`].
///
/// # Complexity
/// O(|A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Jabbari et al. (2010), slide "Best Answer Measures": the optimal answer scores 3/10.
/// let h = GoldItem::new("1", "happy.a",
///     [("glad", 3), ("merry", 3), ("sunny", 2), ("jovial", 1), ("cheerful", 1)])?;
/// assert!((semeval::best(&h, &["glad"]) - 0.3).abs() < 1e-12);
/// # Ok(()) }
/// ```
pub fn best<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    let a = distinct(answers);
    if a.is_empty() {
        return 0.0;
    }
    credit(gold, &a) as f64 / (gold.total() as f64 * a.len() as f64)
}

/// SemEval-2007 mode-best score of one item: 1 when the first answer is the
/// item's unique mode, else 0; `None` when the item has no unique mode.
///
/// # Complexity
/// O(|H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let h = GoldItem::new("2", "bright.a", [("clever", 3), ("smart", 1)])?;
/// assert_eq!(semeval::mode_best(&h, &["clever", "smart"]), Some(1.0));
/// assert_eq!(semeval::mode_best(&h, &["smart", "clever"]), Some(0.0));
/// # Ok(()) }
/// ```
pub fn mode_best<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> Option<f64> {
    let m = gold.mode()?;
    let hit = answers.first().is_some_and(|a| a.as_ref() == m);
    Some(if hit { 1.0 } else { 0.0 })
}

/// SemEval-2007 oot score of one item: the share of the gold credit covered
/// by the first [`OOT_LIMIT`] distinct answers.
///
/// ```text
/// oot(i) = Σ_{a∈A₁₀} freq(a) / |H|
/// ```
///
/// # Complexity
/// O(|A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let h = GoldItem::new("2", "bright.a", [("clever", 3), ("smart", 1)])?;
/// // 3/4; the repeated "clever" earns nothing more.
/// assert_eq!(semeval::oot(&h, &["clever", "clever", "shiny"]), 0.75);
/// # Ok(()) }
/// ```
pub fn oot<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> f64 {
    let mut a = distinct(answers);
    a.truncate(OOT_LIMIT);
    credit(gold, &a) as f64 / gold.total() as f64
}

/// SemEval-2007 mode-oot score of one item: 1 when the unique mode is among
/// the first [`OOT_LIMIT`] distinct answers, else 0; `None` without a
/// unique mode.
///
/// # Complexity
/// O(|A| + |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let h = GoldItem::new("2", "bright.a", [("clever", 3), ("smart", 1)])?;
/// assert_eq!(semeval::mode_oot(&h, &["smart", "clever"]), Some(1.0));
/// # Ok(()) }
/// ```
pub fn mode_oot<S: AsRef<str>>(gold: &GoldItem, answers: &[S]) -> Option<f64> {
    let m = gold.mode()?;
    let mut a = distinct(answers);
    a.truncate(OOT_LIMIT);
    Some(if a.contains(&m) { 1.0 } else { 0.0 })
}

/// `|A|ⁱ`: the summed counts of distinct answers.
pub(crate) fn credit(gold: &GoldItem, distinct_answers: &[&str]) -> u64 {
    distinct_answers
        .iter()
        .map(|a| u64::from(gold.freq(a)))
        .sum()
}

/// The corpus figures of a best-format system file.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BestScores {
    /// [`best`] over all items.
    pub best: Totals,
    /// [`mode_best`] over the items with a unique mode.
    pub mode: Totals,
}

/// The corpus figures of an oot-format system file.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OotScores {
    /// [`oot`] over all items.
    pub oot: Totals,
    /// [`mode_oot`] over the items with a unique mode.
    pub mode: Totals,
}

/// Best and mode-best precision and recall of a corpus.
///
/// # Complexity
/// O(Σ |A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Corpus, Format, Mode, Profile, Percent, read_gold, read_system, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let gold = read_gold("bright.a 1 :: clever 3;smart 1\nbright.a 2 :: shiny 2;vivid 2\n".as_bytes(), Mode::Strict)?;
/// let sys = read_system("bright.a 1 :: clever\n".as_bytes(), Format::Best, Mode::Strict)?;
/// let corpus = Corpus::new(&gold.items, &sys.items, Profile::Semeval2007)?;
/// let s = semeval::best_scores(&corpus);
/// // item 1: 3/4; item 2 not attempted. P = 0.75/1, R = 0.75/2.
/// assert_eq!(s.best.precision(), Some(0.75));
/// assert_eq!(Percent(s.best.recall()).to_string(), "37.50");
/// // only item 1 has a unique mode, and it is matched.
/// assert_eq!(s.mode.recall(), Some(1.0));
/// # Ok(()) }
/// ```
pub fn best_scores(corpus: &Corpus) -> BestScores {
    BestScores {
        best: corpus.totals(Measure::Best),
        mode: corpus.totals(Measure::ModeBest),
    }
}

/// Oot and mode-oot precision and recall of a corpus.
///
/// # Complexity
/// O(Σ |A| · |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Corpus, Format, Mode, Profile, read_gold, read_system, semeval};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let gold = read_gold("bright.a 1 :: clever 3;smart 1\n".as_bytes(), Mode::Strict)?;
/// let sys = read_system("bright.a 1 ::: smart;clever;clever\n".as_bytes(), Format::Oot, Mode::Strict)?;
/// let corpus = Corpus::new(&gold.items, &sys.items, Profile::Semeval2007)?;
/// assert_eq!(semeval::oot_scores(&corpus).oot.precision(), Some(1.0));
/// # Ok(()) }
/// ```
pub fn oot_scores(corpus: &Corpus) -> OotScores {
    OotScores {
        oot: corpus.totals(Measure::Oot),
        mode: corpus.totals(Measure::ModeOot),
    }
}
