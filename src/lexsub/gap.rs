//! Ranking measures for candidate lists: GAP, P@k and R@k.
//!
//! GAP, generalised average precision (Kishida 2005; used for lexical
//! substitution ranking by Thater et al. 2010), with `xᵢ` the gold count of
//! the candidate at rank `i`, `yᵢ` the gold counts **sorted from largest to
//! smallest** and `R` the number of gold substitutes (all have count ≥ 1):
//!
//! ```text
//! p̄ᵢ = (Σ_{k≤i} xₖ) / i          ȳᵢ = (Σ_{k≤i} yₖ) / i
//! GAP = Σ_i [xᵢ > 0] · p̄ᵢ  /  Σ_{i≤R} ȳᵢ
//! ```
//!
//! Repeated candidates are removed first (first occurrence kept), which
//! keeps GAP in `[0, 1]`; public implementations that skip this exceed 1.
//! The whole candidate list is used (no cut-off). Sorting the gold makes
//! GAP independent of the order in which the gold file lists substitutes.
//!
//! P@k and R@k count distinct gold substitutes among the first `k` distinct
//! candidates, unweighted:
//!
//! ```text
//! hitsᵢ = |top-k(Aᵢ) ∩ Hᵢ|     P@k(i) = hitsᵢ / k     R@k(i) = hitsᵢ / |Hᵢ|
//! ```

use std::num::NonZeroUsize;

use super::corpus::{Corpus, Measure};
use super::model::{GoldItem, distinct};
use crate::sum::Neumaier;

/// GAP of one ranked candidate list.
///
/// ```text
/// GAP = Σ_i [xᵢ > 0] · p̄ᵢ / Σ_{i≤R} ȳᵢ            (0 for an empty list)
/// ```
///
/// # Complexity
/// O(|A| · |H| + |H| log |H|).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{GoldItem, gap};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // x = (1, 3, 0, 2): p̄ = 1, 2, 4/3, 3/2 → 1 + 2 + 3/2 = 4.5
/// // y = (3, 2, 1):    ȳ = 3, 5/2, 2      → 7.5          GAP = 0.6
/// let h = GoldItem::new("1", "w.n", [("c", 1), ("b", 2), ("a", 3)])?;
/// assert!((gap::gap(&h, &["c", "a", "x", "b"]) - 0.6).abs() < 1e-12);
/// # Ok(()) }
/// ```
pub fn gap<S: AsRef<str>>(gold: &GoldItem, ranked: &[S]) -> f64 {
    let mut numerator = Neumaier::default();
    let mut cum = 0u64;
    for (i, t) in distinct(ranked).iter().enumerate() {
        let x = gold.freq(t);
        cum += u64::from(x);
        if x > 0 {
            numerator.add(cum as f64 / (i + 1) as f64);
        }
    }
    let mut denominator = Neumaier::default();
    let mut cum = 0u64;
    for (i, y) in gold.counts_descending().into_iter().enumerate() {
        cum += u64::from(y);
        denominator.add(cum as f64 / (i + 1) as f64);
    }
    // Denominator ≥ maxfreq ≥ 1; clamp guards the last ulp of rounding.
    (numerator.value() / denominator.value()).min(1.0)
}

/// The number of gold substitutes among the first `k` distinct candidates.
fn hits<S: AsRef<str>>(gold: &GoldItem, ranked: &[S], k: NonZeroUsize) -> usize {
    distinct(ranked)
        .iter()
        .take(k.get())
        .filter(|t| gold.freq(t) > 0)
        .count()
}

/// Precision at `k` of one item: gold substitutes among the first `k`
/// distinct candidates, over `k` (a list shorter than `k` is not excused).
///
/// # Complexity
/// O(|A| + k · |H|).
///
/// # Examples
/// ```
/// use std::num::NonZeroUsize;
/// use adaptive_comp_metrics::lexsub::{GoldItem, gap};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let h = GoldItem::new("1", "w.n", [("a", 3), ("b", 2), ("c", 1)])?;
/// let k = NonZeroUsize::new(4).ok_or("k = 0")?;
/// assert_eq!(gap::precision_at(&h, &["a", "x", "c"], k), 0.5);
/// # Ok(()) }
/// ```
pub fn precision_at<S: AsRef<str>>(gold: &GoldItem, ranked: &[S], k: NonZeroUsize) -> f64 {
    hits(gold, ranked, k) as f64 / k.get() as f64
}

/// Recall at `k` of one item: gold substitutes among the first `k` distinct
/// candidates, over the number of gold substitutes.
///
/// # Complexity
/// O(|A| + k · |H|).
///
/// # Examples
/// ```
/// use std::num::NonZeroUsize;
/// use adaptive_comp_metrics::lexsub::{GoldItem, gap};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let h = GoldItem::new("1", "w.n", [("a", 3), ("b", 2), ("c", 1), ("d", 1)])?;
/// let k = NonZeroUsize::new(2).ok_or("k = 0")?;
/// assert_eq!(gap::recall_at(&h, &["a", "c", "b"], k), 0.5);
/// # Ok(()) }
/// ```
pub fn recall_at<S: AsRef<str>>(gold: &GoldItem, ranked: &[S], k: NonZeroUsize) -> f64 {
    hits(gold, ranked, k) as f64 / gold.substitutes().len() as f64
}

/// How per-item P@k and R@k are combined over a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Averaging {
    /// Mean of the per-item values: P@k over attempted items, R@k over all
    /// gold items (an unanswered item has R@k = 0).
    Macro,
    /// Pooled counts: `Σ hits / (k · attempted)` and
    /// `Σ hits / Σ |Hᵢ|` over all gold items. Because P@k always divides by
    /// `k`, micro and macro P@k coincide; R@k differs (items with many gold
    /// substitutes weigh more).
    Micro,
}

/// Corpus P@k and R@k.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AtK {
    /// P@k, `None` when nothing was attempted.
    pub precision: Option<f64>,
    /// R@k, `None` for an empty gold.
    pub recall: Option<f64>,
}

/// Corpus P@k and R@k with the given averaging.
///
/// # Complexity
/// O(Σ (|A| + k · |H|)).
///
/// # Examples
/// ```
/// use std::num::NonZeroUsize;
/// use adaptive_comp_metrics::lexsub::{Corpus, GoldItem, Profile, SystemAnswer, gap::{self, Averaging}};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let gold = [GoldItem::new("1", "w.n", [("a", 1), ("b", 1)])?,
///             GoldItem::new("2", "w.n", [("c", 1), ("d", 1), ("e", 1), ("f", 1)])?];
/// let ans = |id: &str, a: &[&str]| SystemAnswer { id: id.into(), target: "w.n".into(),
///     answers: a.iter().map(|s| s.to_string()).collect() };
/// let sys = [ans("1", &["a", "x"]), ans("2", &["c", "d"])];
/// let corpus = Corpus::new(&gold, &sys, Profile::Strict)?;
/// let k = NonZeroUsize::new(2).ok_or("k = 0")?;
/// // macro R@2 = (1/2 + 2/4) / 2 = 0.5; micro R@2 = (1 + 2) / (2 + 4) = 0.5
/// // P@2 = (1/2 + 2/2) / 2 = 0.75 either way
/// let m = gap::at_k(&corpus, k, Averaging::Macro);
/// assert_eq!((m.precision, m.recall), (Some(0.75), Some(0.5)));
/// # Ok(()) }
/// ```
pub fn at_k(corpus: &Corpus, k: NonZeroUsize, averaging: Averaging) -> AtK {
    match averaging {
        Averaging::Macro => {
            let p = corpus.totals(Measure::PrecisionAt(k));
            let r = corpus.totals(Measure::RecallAt(k));
            AtK {
                precision: p.precision(),
                recall: r.recall(),
            }
        }
        Averaging::Micro => {
            let (mut hit_sum, mut attempted, mut gold_sum) = (0usize, 0usize, 0usize);
            for item in corpus.items() {
                gold_sum += item.gold().substitutes().len();
                if let Some(a) = item.answers() {
                    attempted += 1;
                    hit_sum += hits(item.gold(), a, k);
                }
            }
            AtK {
                precision: (attempted > 0)
                    .then(|| hit_sum as f64 / (attempted as f64 * k.get() as f64)),
                recall: (gold_sum > 0).then(|| hit_sum as f64 / gold_sum as f64),
            }
        }
    }
}
