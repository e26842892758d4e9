//! Several models on several benchmarks: the table of reports, and the
//! paired test of one model against another on the pairs both cover.

use crate::embedding::Similarity;
use crate::weigh::Weigher;

use super::error::WordsimError;
use super::evaluate::{Evaluator, Report};
use super::pairs::Benchmark;

serde_mirror! {
    /// The reports of several models on several benchmarks (models × benchmarks).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, WordPair};
    /// let good = Vectors::from_pairs(2, [("a", [1.0f32, 0.0]), ("b", [0.9, 0.1]), ("c", [0.5, 0.5]), ("d", [0.0, 1.0])])?;
    /// let poor = Vectors::from_pairs(2, [("a", [1.0f32, 0.0]), ("b", [0.0, 1.0]), ("c", [0.5, 0.5]), ("d", [0.9, 0.1])])?;
    /// let pairs = vec![WordPair::new("a", "b", 9.0), WordPair::new("a", "c", 5.0), WordPair::new("a", "d", 1.0)];
    /// let benchmarks = [Benchmark::new("toy", pairs)?];
    /// let table = Evaluator::new().compare(&[("good", &good), ("poor", &poor)], &benchmarks)?;
    /// assert_eq!(table.report(0, 0).spearman.as_ref().unwrap().rho, 1.0);
    /// assert_eq!(table.report(1, 0).spearman.as_ref().unwrap().rho, -1.0);
    /// assert_eq!(table.rows().count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[derive(Debug, Clone, PartialEq)]
    pub struct Comparison {
        models: Vec<String>,
        benchmarks: Vec<String>,
        reports: Vec<Report>,
    }
    read through "super::repr::ComparisonRepr"
}

impl Comparison {
    /// The table of `reports`, row by row (models × benchmarks).
    #[cfg(feature = "serde")]
    pub(super) fn from_parts(
        models: Vec<String>,
        benchmarks: Vec<String>,
        reports: Vec<Report>,
    ) -> Self {
        Self {
            models,
            benchmarks,
            reports,
        }
    }

    /// The model names, in the order given.
    #[must_use]
    pub fn models(&self) -> &[String] {
        &self.models
    }

    /// The benchmark names, in the order given.
    #[must_use]
    pub fn benchmarks(&self) -> &[String] {
        &self.benchmarks
    }

    /// The report of model `model` on benchmark `benchmark` (0-based).
    ///
    /// # Panics
    /// If an index is out of range.
    #[must_use]
    pub fn report(&self, model: usize, benchmark: usize) -> &Report {
        assert!(model < self.models.len() && benchmark < self.benchmarks.len());
        &self.reports[model * self.benchmarks.len() + benchmark]
    }

    /// `(model name, benchmark name, report)` row by row: every benchmark of
    /// the first model, then of the second, …
    pub fn rows(&self) -> impl Iterator<Item = (&str, &str, &Report)> + '_ {
        self.reports.iter().enumerate().map(|(i, r)| {
            let nb = self.benchmarks.len();
            (
                self.models[i / nb].as_str(),
                self.benchmarks[i % nb].as_str(),
                r,
            )
        })
    }
}

impl<W: Weigher + Sync> Evaluator<W> {
    /// Evaluates every model on every benchmark ([`evaluate`](Self::evaluate)),
    /// on the crate's number of threads ([`crate::current_threads`]:
    /// `ACM_THREADS`, [`crate::with_threads`], or every core; the results do
    /// not depend on it).
    ///
    /// Models are shared between threads, so they must be `Sync`
    /// ([`Vectors`](crate::embedding::Vectors) is; for trait objects write
    /// `&(dyn Similarity + Sync)`).
    ///
    /// # Errors
    /// As [`evaluate`](Self::evaluate): the first failing (model, benchmark)
    /// in row order.
    ///
    /// # Complexity
    /// models × benchmarks evaluations, spread over the threads.
    ///
    /// # Examples
    /// See [`Comparison`].
    pub fn compare<M: Similarity + Sync + ?Sized>(
        &self,
        models: &[(&str, &M)],
        benchmarks: &[Benchmark],
    ) -> Result<Comparison, WordsimError> {
        let nb = benchmarks.len();
        let total = models.len() * nb;
        let job = |i: usize| self.evaluate(models[i / nb].1, &benchmarks[i % nb]);
        let slots =
            crate::threads::map((0..total).collect(), crate::current_threads().count(), job);
        let reports = slots
            .into_iter()
            .collect::<Result<Vec<Report>, WordsimError>>()?;
        Ok(Comparison {
            models: models.iter().map(|(name, _)| (*name).to_owned()).collect(),
            benchmarks: benchmarks.iter().map(|b| b.name().to_owned()).collect(),
            reports,
        })
    }
}

serde_mirror! {
    /// Model A against model B on the pairs of one benchmark both cover.
    #[cfg(feature = "uncertainty")]
    #[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct PairedTest {
        /// The number of pairs both models cover (the items of the test).
        pub common: usize,
        /// The difference of the statistic, its paired bootstrap interval and
        /// the paired permutation test.
        pub comparison: crate::uncertainty::PairedComparison,
    }
    read through "super::repr::PairedTestRepr"
}

/// Does model A beat model B? The statistic (e.g. Spearman's ρ or ρ_w) of
/// each model against the human scores, on the benchmark pairs *both*
/// models cover, compared with
/// [`paired_comparison`](crate::uncertainty::paired_comparison): a 95 % BCa
/// paired bootstrap interval of the difference and a two-sided paired
/// permutation test (ranks exchanged), each with `replicates` replicates.
///
/// ```text
/// C = {i : A and B both know word1_i and word2_i}
/// d = S(h_C, a_C) − S(h_C, b_C)
/// ```
///
/// Both reports must come from the same benchmark (same human scores in the
/// same order); the unknown-word policy of the reports does not matter.
///
/// # Errors
/// [`WordsimError::DifferentBenchmarks`]; [`WordsimError::Uncertainty`]
/// for fewer than 3 common pairs or an undefined statistic.
///
/// # Complexity
/// About 4·replicates + 2·|C| evaluations of the statistic.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::Vectors;
/// use adaptive_comp_metrics::uncertainty::Spearman;
/// use adaptive_comp_metrics::wordsim::{paired_test, Benchmark, Evaluator, WordPair};
/// use rand::SeedableRng;
/// let words: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
/// let angle = |i: usize, noise: f64| (i as f64 * 0.03 + noise * ((i * 7919) % 13) as f64 / 13.0) as f32;
/// let good = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (w.clone(), [angle(i, 0.05).cos(), angle(i, 0.05).sin()])))?;
/// let poor = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (w.clone(), [angle(i, 1.5).cos(), angle(i, 1.5).sin()])))?;
/// let pairs = (1..40).map(|i| WordPair::new("w0", words[i].clone(), 40.0 - i as f64)).collect();
/// let b = Benchmark::new("synthetic", pairs)?;
/// let ev = Evaluator::new();
/// let (a, p) = (ev.evaluate(&good, &b)?, ev.evaluate(&poor, &b)?);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let t = paired_test(&a, &p, &Spearman, 999, &mut rng)?;
/// assert_eq!(t.common, 39);
/// assert!(t.comparison.difference > 0.0 && t.comparison.test.p_value < 0.05);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "uncertainty")]
#[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
pub fn paired_test<S, R>(
    a: &Report,
    b: &Report,
    statistic: &S,
    replicates: usize,
    rng: &mut R,
) -> Result<PairedTest, WordsimError>
where
    S: crate::uncertainty::Statistic + ?Sized,
    R: rand::Rng + ?Sized,
{
    if a.gold.len() != b.gold.len() {
        return Err(WordsimError::DifferentBenchmarks {
            reason: "they have different numbers of pairs",
        });
    }
    if a.gold
        .iter()
        .zip(&b.gold)
        .any(|(x, y)| x.to_bits() != y.to_bits())
    {
        return Err(WordsimError::DifferentBenchmarks {
            reason: "their human scores differ",
        });
    }
    let mut human = Vec::new();
    let mut sa = Vec::new();
    let mut sb = Vec::new();
    for ((&h, x), y) in a.gold.iter().zip(&a.similarities).zip(&b.similarities) {
        if let (Some(x), Some(y)) = (x, y) {
            human.push(h);
            sa.push(*x);
            sb.push(*y);
        }
    }
    let comparison =
        crate::uncertainty::paired_comparison(statistic, &human, &sa, &sb, replicates, rng)?;
    Ok(PairedTest {
        common: human.len(),
        comparison,
    })
}

/// [`paired_test`] with a seed in place of the generator: the resamples and
/// permutations come from a ChaCha8 generator seeded by `seed`, the same in
/// every release and on any number of threads (see [Random numbers and
/// seeds](crate#random-numbers-and-seeds)).
///
/// # Errors
/// As [`paired_test`].
///
/// # Complexity
/// As [`paired_test`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::Vectors;
/// use adaptive_comp_metrics::uncertainty::Spearman;
/// use adaptive_comp_metrics::wordsim::{paired_test_seeded, Benchmark, Evaluator, WordPair};
/// let words: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
/// let angle = |i: usize, noise: f64| (i as f64 * 0.03 + noise * ((i * 7919) % 13) as f64 / 13.0) as f32;
/// let good = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (w.clone(), [angle(i, 0.05).cos(), angle(i, 0.05).sin()])))?;
/// let poor = Vectors::from_pairs(2, words.iter().enumerate().map(|(i, w)| (w.clone(), [angle(i, 1.5).cos(), angle(i, 1.5).sin()])))?;
/// let pairs = (1..40).map(|i| WordPair::new("w0", words[i].clone(), 40.0 - i as f64)).collect();
/// let b = Benchmark::new("synthetic", pairs)?;
/// let ev = Evaluator::new();
/// let (a, p) = (ev.evaluate(&good, &b)?, ev.evaluate(&poor, &b)?);
/// let t = paired_test_seeded(&a, &p, &Spearman, 999, 3)?;
/// assert!(t.comparison.difference > 0.0 && t.comparison.test.p_value < 0.05);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "uncertainty")]
#[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
pub fn paired_test_seeded<S>(
    a: &Report,
    b: &Report,
    statistic: &S,
    replicates: usize,
    seed: u64,
) -> Result<PairedTest, WordsimError>
where
    S: crate::uncertainty::Statistic + ?Sized,
{
    let mut rng = crate::uncertainty::seeded_rng(seed);
    paired_test(a, b, statistic, replicates, &mut rng)
}
