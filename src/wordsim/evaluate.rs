//! Evaluation of one model on one benchmark: cosine per pair, the
//! unknown-word policy, and every correlation in one report.

use crate::correlation::error::CorrelationError;
use crate::correlation::kendall::{KendallResult, kendall_tau_b};
use crate::correlation::pearson::{PearsonResult, pearson};
use crate::correlation::spearman::{SpearmanResult, spearman};
use crate::correlation::standardised::{StandardisedError, StandardisedRho, StandardisedTau};
use crate::correlation::weighted::{RhoW, TauW, TopWeighted};
use crate::embedding::Similarity;
use crate::weigh::{OffsetQuadratic, Weigher};

use super::error::WordsimError;
use super::pairs::Benchmark;

/// What to do with a pair whose words the model does not know (or whose
/// vector is zero).
///
/// ```text
/// Drop  the pair is left out of every correlation             (gensim's default)
/// Zero  the pair is scored with similarity 0                   (gensim's dummy4unknown=True)
/// Mean  the pair is scored with the mean similarity of the pairs the model covers
/// ```
///
/// `Drop` rewards a model for not knowing hard words; `Zero` and `Mean` keep
/// every pair, so models with different vocabularies are scored on the same
/// items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Unknown {
    /// Leave the pair out.
    #[default]
    Drop,
    /// Score it 0.
    Zero,
    /// Score it with the mean similarity of the covered pairs.
    Mean,
}

/// Settings of an evaluation: the unknown-word policy and the configuration
/// of ρ_w and τ_w ([`TopWeighted`], the paper's by default).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::Vectors;
/// use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, Unknown, WordPair};
/// let v = Vectors::from_pairs(2, [("cat", [1.0f32, 0.1]), ("dog", [0.9, 0.3]), ("car", [0.1, 1.0]), ("bus", [0.2, 0.9])])?;
/// let b = Benchmark::new("tiny", vec![
///     WordPair::new("cat", "dog", 8.0), WordPair::new("car", "bus", 9.0),
///     WordPair::new("cat", "car", 1.0), WordPair::new("dog", "bus", 2.5), WordPair::new("cat", "yak", 5.0),
/// ])?;
/// let r = Evaluator::new().unknown(Unknown::Zero).evaluate(&v, &b)?;
/// assert_eq!((r.pairs, r.found, r.scored()), (5, 4, 5));
/// assert!((r.oov_ratio() - 0.2).abs() < 1e-15);
/// assert!(r.spearman.as_ref().unwrap().rho > 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Evaluator<W = OffsetQuadratic> {
    unknown: Unknown,
    #[cfg_attr(feature = "serde", serde(rename = "top_weighted"))]
    weighted: TopWeighted<W>,
}

impl Default for Evaluator<OffsetQuadratic> {
    fn default() -> Self {
        Self::new()
    }
}

impl Evaluator<OffsetQuadratic> {
    /// Unknown pairs dropped; ρ_w and τ_w with the paper's weights
    /// (`f(n) = 1/(n + 2)²`, additive, larger score = top).
    #[must_use]
    pub fn new() -> Self {
        Self {
            unknown: Unknown::Drop,
            weighted: TopWeighted::new(),
        }
    }
}

serde_mirror! {
    /// Everything one model earns on one benchmark.
    ///
    /// ```text
    /// pairs      pairs in the benchmark;   found  pairs whose two words the model knows
    /// oov ratio  (pairs − found)/pairs     (gensim reports 100 × this)
    /// scored     found (Unknown::Drop) or pairs (Zero, Mean): the items of every correlation
    /// ```
    ///
    /// Each coefficient is a `Result`: a benchmark the model barely covers (or a
    /// constant model) makes some undefined without hiding the others. p-values
    /// come from the results' `p_value(Alternative)`; ρ_w and τ_w have none in
    /// closed form (see `uncertainty` (feature `uncertainty`) for permutation
    /// tests and intervals).
    ///
    /// ρ_w and τ_w come twice: raw, and on the standardised scale of Lombardo
    /// (2025), where 0 is what unrelated rankings give on average (raw ρ_w of
    /// two unrelated rankings of 1000 pairs averages about −0.6 with the
    /// paper's weights). The standardised values use the crate's built-in
    /// null table, so they exist for the table's weighers (1/n, 1/(n + n0)²
    /// with n0 ∈ {0, 1, 2}, additive or multiplicative) and are
    /// [`StandardisedError::NotInTable`] otherwise; human scores usually have
    /// ties, which the table's untied null approximates (the results' `ties`
    /// flag says so; `uncertainty::GammaMonteCarlo` (feature `uncertainty`)
    /// gives the tied null of the report's [`human`](Self::human) and
    /// [`model`](Self::model) vectors).
    ///
    /// With feature `serde` a report is written with the benchmark's scores
    /// ([`gold`](Self::gold)) and the model's [`similarities`](Self::similarities);
    /// [`human`](Self::human) and [`model`](Self::model) are rebuilt from them
    /// and the policy. Each coefficient is written as serde writes a `Result`:
    /// `{"Ok": {…}}`, or `{"Err": "y is constant: the coefficient is undefined"}`.
    /// Reading a report back checks it: the counts and the imputed value must
    /// follow from the similarities, and Pearson's r, Spearman's ρ and Kendall's
    /// τ-b, recomputed from the scored pairs, must agree with the stored ones
    /// (to 10⁻⁹). ρ_w and τ_w depend on a weighting the report does not record:
    /// a stored value is kept (over the scored pairs, in [−1, 1]), and an
    /// undefined one reads back when the scored pairs themselves show why (too
    /// few pairs, a constant side). A standardised value must be the report's
    /// ρ_w or τ_w mapped (and its map the map of its null moments); an
    /// undefined one reads back when the raw coefficient or the built-in table
    /// explains it (too few or too many pairs, a weighting the table lacks).
    /// A failed bootstrap interval reads back when
    /// it failed for the same kind of reason (fewer than 3 scored pairs, its
    /// coefficient undefined). The error types have no serialised form, so
    /// other failures (a custom weigher giving no weight, a bootstrap that
    /// failed by chance or for its settings) cannot be rebuilt: reading them is
    /// refused with [`WordsimError::InvalidParameter`] naming the field. Every
    /// report of [`Evaluator::evaluate`] with the default weighting reads back
    /// equal to itself, and reports read back can be passed to `paired_test`.
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub struct Report {
        /// The benchmark's name.
        pub benchmark: String,
        /// The number of pairs in the benchmark.
        pub pairs: usize,
        /// The number of pairs whose words both have a (non-zero) vector.
        pub found: usize,
        /// The unknown-word policy used.
        pub unknown: Unknown,
        /// The similarity given to unknown pairs (`None` under [`Unknown::Drop`],
        /// or under [`Unknown::Mean`] when no pair is covered).
        pub imputed: Option<f64>,
        /// Pearson's r of human scores and model similarities.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub pearson: Result<PearsonResult, CorrelationError>,
        /// Spearman's ρ.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub spearman: Result<SpearmanResult, CorrelationError>,
        /// Kendall's τ-b.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub kendall: Result<KendallResult, CorrelationError>,
        /// The top-weighted ρ_w (raw).
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub rho_w: Result<RhoW, CorrelationError>,
        /// The top-weighted τ_w (raw).
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub tau_w: Result<TauW, CorrelationError>,
        /// ρ_w on the standardised scale (0 = chance level).
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub rho_w_standardised: Result<StandardisedRho, StandardisedError>,
        /// τ_w on the standardised scale (0 = chance level).
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub tau_w_standardised: Result<StandardisedTau, StandardisedError>,
        /// The human scores of the scored pairs (not serialised: rebuilt from
        /// [`gold`](Self::gold), [`similarities`](Self::similarities) and the
        /// policy).
        #[cfg_attr(feature = "serde", serde(skip))]
        pub human: Vec<f64>,
        /// The model's similarities of the scored pairs (imputed ones included;
        /// not serialised, as [`human`](Self::human)).
        #[cfg_attr(feature = "serde", serde(skip))]
        pub model: Vec<f64>,
        /// The human score of every benchmark pair, in benchmark order.
        pub gold: Vec<f64>,
        /// The model's similarity of every benchmark pair (`None`: unknown).
        pub similarities: Vec<Option<f64>>,
        /// Bootstrap confidence intervals, when asked for
        /// ([`Evaluator::evaluate_with_intervals`]).
        #[cfg(feature = "uncertainty")]
        #[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
        pub intervals: Option<Intervals>,
    }
    read through "super::repr::ReportRepr"
}

impl Report {
    /// The share of pairs with an unknown word, `(pairs − found)/pairs`.
    #[must_use]
    pub fn oov_ratio(&self) -> f64 {
        (self.pairs - self.found) as f64 / self.pairs as f64
    }

    /// The number of pairs that enter the correlations.
    #[must_use]
    pub fn scored(&self) -> usize {
        self.human.len()
    }
}

serde_mirror! {
    /// Bootstrap confidence intervals of every coefficient of a [`Report`].
    ///
    /// With feature `serde` each interval is written as `{"Ok": {…}}` or
    /// `{"Err": "message"}`. Intervals read on their own must all have
    /// succeeded; a failed one reads back inside its [`Report`], which checks
    /// the failure against the scored pairs.
    #[cfg(feature = "uncertainty")]
    #[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub struct Intervals {
        /// Pearson's r.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub pearson:
            Result<crate::uncertainty::ConfidenceInterval, crate::uncertainty::UncertaintyError>,
        /// Spearman's ρ.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub spearman:
            Result<crate::uncertainty::ConfidenceInterval, crate::uncertainty::UncertaintyError>,
        /// Kendall's τ-b.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub kendall:
            Result<crate::uncertainty::ConfidenceInterval, crate::uncertainty::UncertaintyError>,
        /// ρ_w.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub rho_w: Result<crate::uncertainty::ConfidenceInterval, crate::uncertainty::UncertaintyError>,
        /// τ_w.
        #[cfg_attr(feature = "serde", serde(serialize_with = "super::repr::outcome"))]
        pub tau_w: Result<crate::uncertainty::ConfidenceInterval, crate::uncertainty::UncertaintyError>,
    }
    read through "super::repr::IntervalsRepr"
}

impl<W: Weigher> Evaluator<W> {
    /// Sets the unknown-word policy.
    #[must_use]
    pub fn unknown(mut self, unknown: Unknown) -> Self {
        self.unknown = unknown;
        self
    }

    /// Sets the configuration of ρ_w and τ_w (weigher, scheme, ties; keep
    /// both orders `LargerIsBetter` for similarities).
    #[must_use]
    pub fn top_weighted<V: Weigher>(self, weighted: TopWeighted<V>) -> Evaluator<V> {
        Evaluator {
            unknown: self.unknown,
            weighted,
        }
    }

    /// The unknown-word policy.
    #[must_use]
    pub fn unknown_policy(&self) -> Unknown {
        self.unknown
    }

    /// Evaluates `model` on `benchmark`: one similarity per pair, the
    /// unknown-word policy, then Pearson's r, Spearman's ρ, Kendall's τ-b,
    /// ρ_w and τ_w of human scores against model similarities.
    ///
    /// ```text
    /// s_i = model.similarity(word1_i, word2_i)   (cosine for Vectors; None = unknown)
    /// scored pairs: {i : s_i known} (Drop) or all i with s_i := 0 (Zero) or mean_{known} s (Mean)
    /// ```
    ///
    /// # Errors
    /// [`WordsimError::NonFiniteSimilarity`] if the model returns NaN or an
    /// infinity. Undefined coefficients are reported inside the [`Report`].
    ///
    /// # Complexity
    /// O(pairs · cost of a similarity + pairs · log pairs).
    ///
    /// # Examples
    /// See [`Evaluator`].
    pub fn evaluate<M: Similarity + ?Sized>(
        &self,
        model: &M,
        benchmark: &Benchmark,
    ) -> Result<Report, WordsimError> {
        let pairs = benchmark.pairs();
        let mut similarities = Vec::with_capacity(pairs.len());
        for (index, p) in pairs.iter().enumerate() {
            let s = model.similarity(&p.word1, &p.word2);
            if let Some(value) = s
                && !value.is_finite()
            {
                return Err(WordsimError::NonFiniteSimilarity {
                    index,
                    word1: p.word1.clone(),
                    word2: p.word2.clone(),
                    value,
                });
            }
            similarities.push(s);
        }
        let gold: Vec<f64> = pairs.iter().map(|p| p.score).collect();
        let known: Vec<f64> = similarities.iter().flatten().copied().collect();
        let found = known.len();
        let imputed = match self.unknown {
            Unknown::Drop => None,
            Unknown::Zero => Some(0.0),
            Unknown::Mean => {
                (found > 0).then(|| crate::sum::neumaier(known.iter().copied()) / found as f64)
            }
        };
        let (human, model_scores): (Vec<f64>, Vec<f64>) = match self.unknown {
            Unknown::Drop => gold
                .iter()
                .zip(&similarities)
                .filter_map(|(&g, s)| s.map(|s| (g, s)))
                .unzip(),
            Unknown::Zero | Unknown::Mean => {
                let fill = imputed.unwrap_or(0.0);
                (
                    gold.clone(),
                    similarities.iter().map(|s| s.unwrap_or(fill)).collect(),
                )
            }
        };
        let (h, m) = (&human[..], &model_scores[..]);
        // The standardised results carry the raw ones: compute each
        // coefficient once, and again on its own only when standardising
        // failed (a weigher outside the table, an undefined coefficient).
        let rho_w_standardised = self.weighted.rho_standardised(h, m);
        let rho_w = match &rho_w_standardised {
            Ok(s) => Ok(s.rho),
            Err(_) => self.weighted.rho(h, m),
        };
        let tau_w_standardised = self.weighted.tau_standardised(h, m);
        let tau_w = match &tau_w_standardised {
            Ok(s) => Ok(s.tau),
            Err(_) => self.weighted.tau(h, m),
        };
        Ok(Report {
            benchmark: benchmark.name().to_owned(),
            pairs: pairs.len(),
            found,
            unknown: self.unknown,
            imputed,
            pearson: pearson(h, m),
            spearman: spearman(h, m),
            kendall: kendall_tau_b(h, m),
            rho_w,
            tau_w,
            rho_w_standardised,
            tau_w_standardised,
            human,
            model: model_scores,
            gold,
            similarities,
            #[cfg(feature = "uncertainty")]
            intervals: None,
        })
    }
}

#[cfg(feature = "uncertainty")]
impl<W: Weigher + Sync> Evaluator<W> {
    /// [`evaluate`](Self::evaluate), plus bootstrap confidence intervals of
    /// every coefficient (items resampled jointly; `bootstrap` sets the
    /// resamples, level and method; five seeds are drawn from `rng`).
    ///
    /// # Errors
    /// As [`evaluate`](Self::evaluate); failures of an interval are
    /// reported inside [`Intervals`].
    ///
    /// # Complexity
    /// 5 × (resamples + scored) evaluations of O(scored · log scored) coefficients.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// use adaptive_comp_metrics::uncertainty::Bootstrap;
    /// use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, WordPair};
    /// use rand::SeedableRng;
    /// let words = ["a", "b", "c", "d", "e", "f"];
    /// let v = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (*w, [1.0f64, i as f64])))?;
    /// let pairs = (1..6).map(|i| WordPair::new("a", words[i], 10.0 - i as f64)).collect();
    /// let b = Benchmark::new("toy", pairs)?;
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    /// let r = Evaluator::new().evaluate_with_intervals(&v, &b, &Bootstrap::new(200), &mut rng)?;
    /// let ci = r.intervals.unwrap().spearman.unwrap();
    /// assert!(ci.lower <= ci.estimate && ci.estimate <= ci.upper);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluate_with_intervals<M, R>(
        &self,
        model: &M,
        benchmark: &Benchmark,
        bootstrap: &crate::uncertainty::Bootstrap,
        rng: &mut R,
    ) -> Result<Report, WordsimError>
    where
        M: Similarity + ?Sized,
        R: rand::Rng + ?Sized,
    {
        use crate::uncertainty::{KendallTauB, Spearman};
        let mut report = self.evaluate(model, benchmark)?;
        let (h, m) = (&report.human[..], &report.model[..]);
        let r = |x: &[f64], y: &[f64]| pearson(x, y).map(|p| p.r);
        let rho = |x: &[f64], y: &[f64]| self.weighted.rho(x, y).map(|p| p.rho);
        let tau = |x: &[f64], y: &[f64]| self.weighted.tau(x, y).map(|p| p.tau);
        let intervals = Intervals {
            pearson: bootstrap.run(&r, h, m, rng),
            spearman: bootstrap.run(&Spearman, h, m, rng),
            kendall: bootstrap.run(&KendallTauB, h, m, rng),
            rho_w: bootstrap.run(&rho, h, m, rng),
            tau_w: bootstrap.run(&tau, h, m, rng),
        };
        report.intervals = Some(intervals);
        Ok(report)
    }

    /// [`evaluate_with_intervals`](Self::evaluate_with_intervals) with a
    /// seed in place of the generator: the resamples come from a ChaCha8
    /// generator seeded by `seed`, the same in every release and on any
    /// number of threads (see [Random numbers and
    /// seeds](crate#random-numbers-and-seeds)).
    ///
    /// # Errors
    /// As [`evaluate`](Self::evaluate); failures of an interval are
    /// reported inside [`Intervals`].
    ///
    /// # Complexity
    /// As [`evaluate_with_intervals`](Self::evaluate_with_intervals).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// use adaptive_comp_metrics::uncertainty::Bootstrap;
    /// use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, WordPair};
    /// let words = ["a", "b", "c", "d", "e", "f"];
    /// let v = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (*w, [1.0f64, i as f64])))?;
    /// let pairs = (1..6).map(|i| WordPair::new("a", words[i], 10.0 - i as f64)).collect();
    /// let b = Benchmark::new("toy", pairs)?;
    /// let r = Evaluator::new().evaluate_with_intervals_seeded(&v, &b, &Bootstrap::new(200), 7)?;
    /// let ci = r.intervals.unwrap().spearman.unwrap();
    /// assert!(ci.lower <= ci.estimate && ci.estimate <= ci.upper);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluate_with_intervals_seeded<M>(
        &self,
        model: &M,
        benchmark: &Benchmark,
        bootstrap: &crate::uncertainty::Bootstrap,
        seed: u64,
    ) -> Result<Report, WordsimError>
    where
        M: Similarity + ?Sized,
    {
        let mut rng = crate::uncertainty::seeded_rng(seed);
        self.evaluate_with_intervals(model, benchmark, bootstrap, &mut rng)
    }
}
