//! Paired comparison of two models scored against the same human ranking:
//! the difference of their coefficients, with a paired bootstrap interval and
//! a paired permutation test.

use super::bootstrap::{Bootstrap, ConfidenceInterval};
use super::permutation::{PermutationTest, Permutations, Tally, finite, replicate_sink};
use super::statistic::Statistic;
use super::{UncertaintyError, check_len, engine, to_f64};
use crate::correlation::error::{CorrelationError, check_finite, check_pair_len};
use crate::rank::{Order, Ties, rank_unchecked};
use num_traits::Float;
use rand::{Rng, RngExt};

/// What a paired permutation test swaps between the two models, item by item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Exchange {
    /// Each model's scores are first replaced by their ascending average
    /// ranks (a strictly increasing map, which leaves every rank statistic
    /// unchanged), and ranks are swapped: valid when the two models' scores
    /// are on different scales (cosines of two embeddings, distances).
    #[default]
    Ranks,
    /// The raw scores are swapped: only when both models score on the same
    /// scale.
    Scores,
}

/// Model A against model B on the same human scores.
///
/// ```text
/// d = S(human, A) − S(human, B)
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairedComparison {
    /// S(human, A).
    pub value_a: f64,
    /// S(human, B).
    pub value_b: f64,
    /// d = value_a − value_b.
    pub difference: f64,
    /// Paired bootstrap interval of d (items resampled jointly).
    pub interval: ConfidenceInterval,
    /// Paired permutation test of d = 0 (A and B exchangeable per item).
    pub test: PermutationTest,
}

/// Compares two models against the same human scores: the difference of the
/// statistic, a 95 % BCa paired bootstrap interval and a two-sided paired
/// permutation test ([`Exchange::Ranks`]), each with `replicates` replicates
/// on all cores. Use [`Bootstrap::paired`] and [`Permutations::paired`] for
/// other settings.
///
/// ```text
/// bootstrap:   d*_k = S(h[I], A[I]) − S(h[I], B[I]),  I drawn with replacement
/// permutation: d_k  = S(h, A^k) − S(h, B^k),  (A^k_i, B^k_i) = (A_i, B_i) or (B_i, A_i) with probability ½
/// ```
///
/// # Errors
/// Length mismatch (inputs `"human"`, `"model_a"`, `"model_b"`), n < 3, NaN
/// or infinite scores, fewer than 2 replicates or more than the default
/// limits ([`UncertaintyError::TooLarge`]), and as
/// [`bootstrap_ci`](super::bootstrap_ci) and
/// [`permutation_test`](super::permutation_test).
///
/// # Complexity
/// About 4·replicates + 2n evaluations of the statistic.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{paired_comparison, Spearman};
/// use rand::SeedableRng;
/// let human: Vec<f64> = (0..30).map(f64::from).collect();
/// let good: Vec<f64> = human.iter().map(|h| h + 3.0 * (h * 1.7).sin()).collect();
/// let poor: Vec<f64> = human.iter().map(|h| h + 30.0 * (h * 1.7).sin()).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
/// let c = paired_comparison(&Spearman, &human, &good, &poor, 999, &mut rng)?;
/// assert!(c.difference > 0.0 && c.interval.lower > 0.0 && c.test.p_value < 0.01);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
pub fn paired_comparison<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
    statistic: &S,
    human: &[F],
    model_a: &[F],
    model_b: &[F],
    replicates: usize,
    rng: &mut R,
) -> Result<PairedComparison, UncertaintyError> {
    let interval = Bootstrap::new(replicates).paired(statistic, human, model_a, model_b, rng)?;
    let test = Permutations::new(replicates).paired(statistic, human, model_a, model_b, rng)?;
    let (h, a, b) = validate(human, model_a, model_b)?;
    let value_a = finite(statistic.value(&h, &a))?;
    let value_b = finite(statistic.value(&h, &b))?;
    Ok(PairedComparison {
        value_a,
        value_b,
        difference: interval.estimate,
        interval,
        test,
    })
}

seeded! {
    /// [`paired_comparison`] with a seed in place of the generator: the
    /// resamples and permutations come from a ChaCha8 generator seeded by
    /// `seed`, the same in every release and on any number of threads (see
    /// [Random numbers and seeds](crate#random-numbers-and-seeds)).
    ///
    /// # Errors
    /// As [`paired_comparison`].
    ///
    /// # Complexity
    /// As [`paired_comparison`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{paired_comparison_seeded, Spearman};
    /// let human: Vec<f64> = (0..30).map(f64::from).collect();
    /// let good: Vec<f64> = human.iter().map(|h| h + 3.0 * (h * 1.7).sin()).collect();
    /// let poor: Vec<f64> = human.iter().map(|h| h + 30.0 * (h * 1.7).sin()).collect();
    /// let c = paired_comparison_seeded(&Spearman, &human, &good, &poor, 999, 2)?;
    /// assert!(c.difference > 0.0 && c.interval.lower > 0.0 && c.test.p_value < 0.01);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn paired_comparison_seeded<S, F>(
        statistic: &S,
        human: &[F],
        model_a: &[F],
        model_b: &[F],
        replicates: usize,
    )
        -> PairedComparison = paired_comparison
        where { S: Statistic + ?Sized, F: Float }
}

type Triple = (Vec<f64>, Vec<f64>, Vec<f64>);

/// One pass over the three inputs: lengths, n ≥ 3, finite; to f64.
fn validate<F: Float>(h: &[F], a: &[F], b: &[F]) -> Result<Triple, UncertaintyError> {
    check_pair_len("human", h, "model_a", a, 0)?;
    check_pair_len("human", h, "model_b", b, 0)?;
    check_len(h.len())?;
    check_finite("human", h)?;
    check_finite("model_a", a)?;
    check_finite("model_b", b)?;
    Ok((to_f64(h), to_f64(a), to_f64(b)))
}

fn difference<S: Statistic + ?Sized>(
    s: &S,
    h: &[f64],
    a: &[f64],
    b: &[f64],
) -> Result<f64, CorrelationError> {
    finite(Ok(finite(s.value(h, a))? - finite(s.value(h, b))?))
}

impl Bootstrap {
    /// Paired bootstrap interval of `S(human, A) − S(human, B)`: the items
    /// are resampled jointly, so what both models share cancels.
    ///
    /// # Errors
    /// As [`paired_comparison`].
    ///
    /// # Complexity
    /// 2(B + n) evaluations of the statistic (n for BCa only).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Interval, Spearman};
    /// use rand::SeedableRng;
    /// let h = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    /// let ci = Bootstrap::new(200).interval(Interval::Percentile).paired(&Spearman, &h, &h, &h, &mut rng)?;
    /// assert_eq!((ci.lower, ci.upper), (0.0, 0.0)); // identical models
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn paired<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        human: &[F],
        model_a: &[F],
        model_b: &[F],
        rng: &mut R,
    ) -> Result<ConfidenceInterval, UncertaintyError> {
        let seed = self.start(rng)?;
        let (h, a, b) = validate(human, model_a, model_b)?;
        let estimate = difference(statistic, &h, &a, &b)?;
        let on = |idx: &[usize]| {
            let pick = |v: &[f64]| idx.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            difference(statistic, &pick(&h), &pick(&a), &pick(&b))
        };
        self.interval_of(estimate, h.len(), seed, on)
    }

    seeded! {
        /// [`paired`](Self::paired) with a seed in place of the generator, as
        /// [`paired_comparison_seeded`].
        ///
        /// # Errors
        /// As [`paired_comparison`].
        ///
        /// # Complexity
        /// As [`paired`](Self::paired).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Interval, Spearman};
        /// let h = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        /// let ci = Bootstrap::new(200).interval(Interval::Percentile).paired_seeded(&Spearman, &h, &h, &h, 2)?;
        /// assert_eq!((ci.lower, ci.upper), (0.0, 0.0)); // identical models
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn paired_seeded<S, F>(&self, statistic: &S, human: &[F], model_a: &[F], model_b: &[F])
            -> ConfidenceInterval = Self::paired
            where { S: Statistic + ?Sized, F: Float }
    }
}

impl Permutations {
    /// Paired permutation test of `S(human, A) − S(human, B)`: under the
    /// null hypothesis the two models are exchangeable item by item, so each
    /// permutation swaps the models' values (see [`Exchange`]) on each item
    /// with probability ½. The null distribution is symmetric about 0.
    ///
    /// # Errors
    /// As [`paired_comparison`]; 0 permutations.
    ///
    /// # Complexity
    /// 2(m + 1) evaluations of the statistic.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Permutations, Spearman};
    /// use rand::SeedableRng;
    /// let h = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    /// let b = [8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    /// let t = Permutations::new(999).paired(&Spearman, &h, &h, &b, &mut rng)?;
    /// assert_eq!(t.statistic, 2.0);
    /// assert!(t.p_value < 0.05);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn paired<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        human: &[F],
        model_a: &[F],
        model_b: &[F],
        rng: &mut R,
    ) -> Result<PermutationTest, UncertaintyError> {
        let seed = self.start(1, rng)?;
        let (h, mut a, mut b) = validate(human, model_a, model_b)?;
        if self.exchange == Exchange::Ranks {
            a = rank_unchecked(&a, Order::SmallerIsBetter, Ties::Average);
            b = rank_unchecked(&b, Order::SmallerIsBetter, Ties::Average);
        }
        let observed = difference(statistic, &h, &a, &b)?;
        let mut tally = Tally::new(observed);
        engine::for_each(
            0..self.permutations,
            seed,
            self.threads,
            || (a.clone(), b.clone()),
            |(sa, sb), _, rng| {
                for i in 0..a.len() {
                    let swap = rng.random::<bool>();
                    (sa[i], sb[i]) = if swap { (b[i], a[i]) } else { (a[i], b[i]) };
                }
                difference(statistic, &h, sa, sb)
            },
            replicate_sink("permutation", |t| tally.push(t)),
        )?;
        Ok(tally.finish(self.alternative))
    }

    seeded! {
        /// [`paired`](Self::paired) with a seed in place of the generator, as
        /// [`paired_comparison_seeded`].
        ///
        /// # Errors
        /// As [`paired_comparison`]; 0 permutations.
        ///
        /// # Complexity
        /// As [`paired`](Self::paired).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Permutations, Spearman};
        /// let h = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
        /// let b = [8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
        /// let t = Permutations::new(999).paired_seeded(&Spearman, &h, &h, &b, 2)?;
        /// assert!(t.statistic == 2.0 && t.p_value < 0.05);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn paired_seeded<S, F>(&self, statistic: &S, human: &[F], model_a: &[F], model_b: &[F])
            -> PermutationTest = Self::paired
            where { S: Statistic + ?Sized, F: Float }
    }
}
