//! Permutation tests: the distribution of a statistic when the second
//! input's items are shuffled, and the p-value of the observed value.

use super::engine::{self, Moments};
use super::histogram::{Binner, Histogram, check_bins};
use super::null::{NullMoments, Standardised, moments_from};
use super::paired::Exchange;
use super::statistic::{Prepared, Statistic};
use super::{Alternative, Threads, UncertaintyError, to_f64_pair};
use crate::correlation::error::CorrelationError;
use num_traits::Float;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use std::ops::Range;

/// Checks that a share of replicates lies within a run of `count`.
pub(crate) fn check_range(
    range: &Range<usize>,
    count: usize,
    what: &'static str,
) -> Result<(), UncertaintyError> {
    if range.end > count {
        return Err(UncertaintyError::TooLarge {
            quantity: what,
            requested: range.end as u64,
            limit: count as u64,
        });
    }
    Ok(())
}

/// Settings of a permutation test: number of permutations, alternative,
/// threads (and, for paired tests, what is exchanged), and the most
/// permutations accepted ([`Permutations::max_replicates`]).
///
/// Permutations are streamed: the p-value needs only two counts and the
/// null mean and SD two running sums, so memory does not grow with the
/// number of permutations (the first 2²⁰ permuted values are kept for an
/// exact two-pass SD; beyond, the SD is accumulated in one pass).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{Alternative, KendallTauB, Permutations, Threads};
/// use rand::SeedableRng;
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
/// let y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0];
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let test = Permutations::new(2000)
///     .alternative(Alternative::Greater)
///     .threads(Threads::Available)
///     .test(&KendallTauB, &x, &y, &mut rng)?;
/// // 4 of the 28 pairs are discordant: τ = (24 − 4)/28.
/// assert!((test.statistic - 20.0 / 28.0).abs() < 1e-15);
/// assert!(test.p_value < 0.05);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Permutations {
    pub(crate) permutations: usize,
    pub(crate) alternative: Alternative,
    pub(crate) threads: Threads,
    pub(crate) exchange: Exchange,
    pub(crate) max_replicates: usize,
}

/// The result of a permutation test.
///
/// ```text
/// p_greater = (#{t_k ≥ t} + 1)/(m + 1),   p_less = (#{t_k ≤ t} + 1)/(m + 1)
/// p_two     = min(1, 2 min(p_greater, p_less))
/// SE(p)     = √(p(1 − p)/m)   (two-sided: 2√(q(1 − q)/m), q = min(p_greater, p_less))
/// ```
///
/// A permuted value within 10⁻¹²·max(1, |t|) of the observed `t` counts as
/// equal to it, so that rounding in sums does not decide.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PermutationTest {
    /// The statistic on the observed data (for paired tests, the
    /// difference model A − model B).
    pub statistic: f64,
    /// The p-value, never below `1/(permutations + 1)`.
    pub p_value: f64,
    /// Monte-Carlo standard error of the p-value.
    pub standard_error: f64,
    /// The alternative tested.
    pub alternative: Alternative,
    /// Number of random permutations m.
    pub permutations: usize,
    /// How many permuted values are ≥ the observed one.
    pub at_least: usize,
    /// How many permuted values are ≤ the observed one.
    pub at_most: usize,
    /// Mean of the permuted values (the Monte-Carlo null mean).
    pub null_mean: f64,
    /// Standard deviation of the permuted values (m − 1 denominator).
    pub null_sd: f64,
}

/// A permutation test with `permutations` random permutations on all cores.
/// See [`Permutations`] for the thread count.
///
/// ```text
/// t = S(x, y),   t_k = S(x, y∘π_k),  k = 1..m,  π_k uniform random permutations
/// ```
///
/// # Errors
/// [`UncertaintyError::TooFewReplicates`] for 0 permutations,
/// [`UncertaintyError::TooLarge`] for more than
/// [`Permutations::DEFAULT_MAX_REPLICATES`] (checked first, before any work),
/// [`UncertaintyError::TooFewItems`] for n < 3, invalid scores
/// ([`UncertaintyError::Statistic`]), a failing permutation
/// ([`UncertaintyError::Replicate`]).
///
/// # Complexity
/// One preparation (ranking) plus m evaluations of the prepared statistic:
/// O(m n log n) for ρ, ρ_w; O(m n²) for τ-b and τ_w until the O(n log n)
/// kernel is used. Memory O(n·threads), independent of m.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{permutation_test, Alternative, Spearman};
/// use rand::SeedableRng;
/// let x: Vec<f64> = (0..20).map(f64::from).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let t = permutation_test(&Spearman, &x, &x, 999, Alternative::Greater, &mut rng)?;
/// assert_eq!(t.p_value, 1.0 / 1000.0); // no permutation reaches ρ = 1
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
///
/// # References
/// North, Curtis & Sham (2002) for the (b + 1)/(m + 1) estimator.
pub fn permutation_test<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
    statistic: &S,
    x: &[F],
    y: &[F],
    permutations: usize,
    alternative: Alternative,
    rng: &mut R,
) -> Result<PermutationTest, UncertaintyError> {
    Permutations::new(permutations)
        .alternative(alternative)
        .test(statistic, x, y, rng)
}

seeded! {
    /// [`permutation_test`] with a seed in place of the generator: the
    /// permutations come from a ChaCha8 generator seeded by `seed`, so the result
    /// is the same in every release and on any number of threads (see [Random
    /// numbers and seeds](crate#random-numbers-and-seeds)).
    ///
    /// # Errors
    /// As [`permutation_test`].
    ///
    /// # Complexity
    /// As [`permutation_test`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{permutation_test_seeded, Alternative, Spearman};
    /// let x: Vec<f64> = (0..20).map(f64::from).collect();
    /// let t = permutation_test_seeded(&Spearman, &x, &x, 999, Alternative::Greater, 1)?;
    /// assert_eq!(t.p_value, 1.0 / 1000.0); // no permutation reaches ρ = 1
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn permutation_test_seeded<S, F>(
        statistic: &S,
        x: &[F],
        y: &[F],
        permutations: usize,
        alternative: Alternative,
    )
        -> PermutationTest = permutation_test
        where { S: Statistic + ?Sized, F: Float }
}

impl Permutations {
    /// The default for [`max_replicates`](Self::max_replicates): 2²⁷ ≈ 1.3·10⁸
    /// permutations, a p-value resolution of 7.5·10⁻⁹. Memory does not limit
    /// a permutation test (it streams); this bounds the time a mistyped count
    /// can cost (over an hour of one core for Spearman's ρ at n = 1000, about
    /// 30 µs a permutation) and refuses counts such as `usize::MAX`.
    pub const DEFAULT_MAX_REPLICATES: usize = 1 << 27;

    /// `permutations` random permutations, two-sided, all cores, ranks
    /// exchanged in paired tests, at most
    /// [`DEFAULT_MAX_REPLICATES`](Self::DEFAULT_MAX_REPLICATES) permutations.
    /// Nothing is allocated or checked here: the count is checked when the
    /// test runs.
    #[must_use]
    pub fn new(permutations: usize) -> Self {
        Self {
            permutations,
            alternative: Alternative::TwoSided,
            threads: Threads::Available,
            exchange: Exchange::Ranks,
            max_replicates: Self::DEFAULT_MAX_REPLICATES,
        }
    }

    /// Sets the most permutations a run accepts (default
    /// [`DEFAULT_MAX_REPLICATES`](Self::DEFAULT_MAX_REPLICATES)); a larger
    /// count is refused with [`UncertaintyError::TooLarge`] before any work.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Permutations, Spearman, UncertaintyError};
    /// use rand::SeedableRng;
    /// let x = [1.0, 2.0, 3.0, 4.0];
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let e = Permutations::new(1000).max_replicates(999).test(&Spearman, &x, &x, &mut rng);
    /// assert_eq!(
    ///     e.unwrap_err(),
    ///     UncertaintyError::TooLarge { quantity: "permutations", requested: 1000, limit: 999 }
    /// );
    /// ```
    #[must_use]
    pub fn max_replicates(mut self, limit: usize) -> Self {
        self.max_replicates = limit;
        self
    }

    /// Checks the settings ([`check`](Self::check)), then draws the run's
    /// seed: how every run starts, so that a run and its shares
    /// ([`replicates`](Self::replicates)) draw the same seed.
    pub(crate) fn start<R: Rng + ?Sized>(
        &self,
        needed: usize,
        rng: &mut R,
    ) -> Result<u64, UncertaintyError> {
        self.check(needed)?;
        Ok(rng.random())
    }

    /// Checks `needed ≤ permutations ≤ max_replicates`.
    pub(crate) fn check(&self, needed: usize) -> Result<(), UncertaintyError> {
        engine::check_count(
            "permutations",
            needed,
            self.permutations,
            self.max_replicates,
        )
    }

    /// Sets the alternative hypothesis (default two-sided).
    #[must_use]
    pub fn alternative(mut self, alternative: Alternative) -> Self {
        self.alternative = alternative;
        self
    }

    /// Sets the number of threads (results do not depend on it).
    #[must_use]
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// Sets what a paired test swaps between the two models (default ranks).
    #[must_use]
    pub fn exchange(mut self, exchange: Exchange) -> Self {
        self.exchange = exchange;
        self
    }

    /// Runs the test; see [`permutation_test`].
    ///
    /// # Errors
    /// As [`permutation_test`].
    ///
    /// # Complexity
    /// As [`permutation_test`].
    pub fn test<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<PermutationTest, UncertaintyError> {
        self.test_with(statistic, x, y, rng, |_| ())
    }

    /// [`test`](Self::test), each permuted value also handed to `also`.
    fn test_with<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
        mut also: impl FnMut(f64),
    ) -> Result<PermutationTest, UncertaintyError> {
        let seed = self.start(1, rng)?;
        let (prepared, observed) = observe(statistic, x, y)?;
        let mut tally = Tally::new(observed);
        self.stream(0..self.permutations, statistic, &prepared, seed, |t| {
            tally.push(t);
            also(t);
        })?;
        Ok(tally.finish(self.alternative))
    }

    /// [`test`](Self::test) and the permuted values `t_k` binned into about
    /// `bins` bins ([`Histogram`]: at most 2·`bins`; exactly `bins`, laid
    /// over their range, for up to 2¹⁶ permutations): the null
    /// distribution to draw beside the observed value, from the same run.
    /// The test is the one [`test`](Self::test) gives with the same `rng`
    /// state, bit for bit.
    ///
    /// # Errors
    /// As [`test`](Self::test), and [`UncertaintyError::InvalidBins`] for
    /// 0 or more than [`Histogram::MAX_BINS`] bins (checked first).
    ///
    /// # Complexity
    /// As [`test`](Self::test), plus O(bins) memory and 2¹⁶ values held
    /// while the grid is laid.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Alternative, Permutations, Spearman};
    /// use rand::SeedableRng;
    /// let x = [0.1, 0.5, 0.2, 0.9, 0.7, 0.4, 0.3, 0.8];
    /// let y = [1.0, 3.0, 2.0, 6.0, 7.0, 4.0, 5.0, 8.0];
    /// let plan = Permutations::new(999).alternative(Alternative::Greater);
    /// let rng = || rand_chacha::ChaCha8Rng::seed_from_u64(3);
    /// let (test, null) = plan.test_with_histogram(&Spearman, &x, &y, 40, &mut rng())?;
    /// assert_eq!(test, plan.test(&Spearman, &x, &y, &mut rng())?);
    /// assert_eq!(null.total(), 999);
    /// assert_eq!(null.bins(), 40);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn test_with_histogram<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        bins: usize,
        rng: &mut R,
    ) -> Result<(PermutationTest, Histogram), UncertaintyError> {
        check_bins(bins)?;
        let mut binner = Binner::new(bins);
        let test = self.test_with(statistic, x, y, rng, |t| binner.push(t))?;
        let histogram = binner.finish().ok_or(UncertaintyError::TooFewReplicates {
            what: "permutations",
            needed: 1,
            got: 0,
        })?;
        Ok((test, histogram))
    }

    /// The permuted values `t_k` of the replicates `k` in `range` of the
    /// run [`test`](Self::test) makes with the same `rng` state: one share
    /// of a test split over processes or machines. Each share draws the
    /// run's seed from its own copy of the generator, so give every share a
    /// generator in the same state (e.g. seeded with the same number);
    /// [`test_from_replicates`](Self::test_from_replicates) then puts the
    /// shares, concatenated in index order, together into the result
    /// [`test`](Self::test) gives, bit for bit.
    ///
    /// # Errors
    /// As [`test`](Self::test) (the permutation count is checked as there),
    /// and [`UncertaintyError::TooLarge`] when `range` ends past the
    /// number of permutations.
    ///
    /// # Complexity
    /// As [`test`](Self::test) for `range.len()` permutations; memory
    /// `8·range.len()` bytes for the values.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Permutations, Spearman};
    /// use rand::SeedableRng;
    /// let x = [0.1, 0.5, 0.2, 0.9, 0.7, 0.4, 0.3];
    /// let y = [1.0, 3.0, 2.0, 6.0, 7.0, 4.0, 5.0];
    /// let plan = Permutations::new(1000);
    /// let rng = || rand_chacha::ChaCha8Rng::seed_from_u64(5);
    /// // Two shares, computed anywhere, concatenated in index order.
    /// let mut values = plan.replicates(&Spearman, &x, &y, 0..400, &mut rng())?;
    /// values.extend(plan.replicates(&Spearman, &x, &y, 400..1000, &mut rng())?);
    /// let sharded = plan.test_from_replicates(&Spearman, &x, &y, &values)?;
    /// assert_eq!(sharded, plan.test(&Spearman, &x, &y, &mut rng())?);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn replicates<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        range: Range<usize>,
        rng: &mut R,
    ) -> Result<Vec<f64>, UncertaintyError> {
        self.check(1)?;
        check_range(&range, self.permutations, "permutations")?;
        let seed = rng.random();
        let (prepared, _) = observe(statistic, x, y)?;
        let mut values = Vec::with_capacity(range.len());
        self.stream(range, statistic, &prepared, seed, |t| values.push(t))?;
        Ok(values)
    }

    /// The test from the permuted values of every replicate, in index
    /// order (the shares of [`replicates`](Self::replicates)
    /// concatenated): the result [`test`](Self::test) gives, bit for bit.
    ///
    /// # Errors
    /// As [`test`](Self::test) on the observed data;
    /// [`CorrelationError::LengthMismatch`] (as [`UncertaintyError::Statistic`]) when
    /// there are not exactly as many values as permutations, and
    /// [`CorrelationError::NaN`] / [`CorrelationError::Infinite`] (input `"values"`) for a value
    /// no replicate can give.
    ///
    /// # Complexity
    /// One evaluation of the statistic and O(permutations).
    pub fn test_from_replicates<S, F>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        values: &[f64],
    ) -> Result<PermutationTest, UncertaintyError>
    where
        S: Statistic + ?Sized,
        F: Float,
    {
        self.check(1)?;
        engine::check_values(values, "permutations", self.permutations)?;
        crate::correlation::error::check_finite("values", values)?;
        let (_, observed) = observe(statistic, x, y)?;
        let mut tally = Tally::new(observed);
        values.iter().for_each(|&t| tally.push(t));
        Ok(tally.finish(self.alternative))
    }

    /// Null moments, exact where known, else from these permutations; see
    /// [`null_moments`](super::null_moments).
    ///
    /// # Errors
    /// As [`null_moments`](super::null_moments).
    ///
    /// # Complexity
    /// As [`permutation_test`] (nothing is permuted when both moments are exact).
    pub fn null_moments<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<NullMoments, UncertaintyError> {
        self.standardise(statistic, x, y, rng).map(|s| s.null)
    }

    /// The standardised value; see [`standardise`](super::standardise).
    ///
    /// # Errors
    /// As [`standardise`](super::standardise).
    ///
    /// # Complexity
    /// As [`permutation_test`].
    pub fn standardise<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<Standardised, UncertaintyError> {
        let seed = self.start(2, rng)?;
        let (prepared, value) = observe(statistic, x, y)?;
        let exact = statistic.exact_null(&prepared);
        let mut moments = Moments::new(engine::KEEP);
        if exact.mean.is_none() || exact.sd.is_none() {
            self.stream(0..self.permutations, statistic, &prepared, seed, |t| {
                moments.push(t);
            })?;
        }
        let null = moments_from(exact, &moments)?;
        let z = (value - null.mean.value) / null.sd.value;
        if !z.is_finite() {
            return Err(UncertaintyError::Degenerate {
                reason: "the null standard deviation is zero",
            });
        }
        Ok(Standardised { value, null, z })
    }

    seeded! {
        /// [`test`](Self::test) with a seed in place of the generator: the
        /// permutations come from a ChaCha8 generator seeded by `seed`, so the
        /// result is the same in every release and on any number of threads
        /// (see [Random numbers and seeds](crate#random-numbers-and-seeds)).
        /// `test_seeded(…, s)` is `test(…, &mut ChaCha8Rng::seed_from_u64(s))`.
        ///
        /// # Errors
        /// As [`permutation_test`].
        ///
        /// # Complexity
        /// As [`permutation_test`].
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Alternative, KendallTauB, Permutations};
        /// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
        /// let y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0];
        /// let greater = Permutations::new(2000).alternative(Alternative::Greater);
        /// let test = greater.test_seeded(&KendallTauB, &x, &y, 7)?;
        /// assert!(test.p_value < 0.05);
        /// assert_eq!(test, greater.test_seeded(&KendallTauB, &x, &y, 7)?);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn test_seeded<S, F>(&self, statistic: &S, x: &[F], y: &[F])
            -> PermutationTest = Self::test
            where { S: Statistic + ?Sized, F: Float }
    }

    seeded! {
        /// [`null_moments`](Self::null_moments) with a seed in place of the
        /// generator, as [`test_seeded`](Self::test_seeded).
        ///
        /// # Errors
        /// As [`null_moments`](super::null_moments).
        ///
        /// # Complexity
        /// As [`permutation_test`].
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Permutations, TopWeightedRho};
        /// let x: Vec<f64> = (0..50).map(f64::from).collect();
        /// let m = Permutations::new(500).null_moments_seeded(&TopWeightedRho::new(), &x, &x, 3)?;
        /// assert!(m.mean.value < -0.2);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn null_moments_seeded<S, F>(&self, statistic: &S, x: &[F], y: &[F])
            -> NullMoments = Self::null_moments
            where { S: Statistic + ?Sized, F: Float }
    }

    seeded! {
        /// [`standardise`](Self::standardise) with a seed in place of the
        /// generator, as [`test_seeded`](Self::test_seeded).
        ///
        /// # Errors
        /// As [`standardise`](super::standardise).
        ///
        /// # Complexity
        /// As [`permutation_test`].
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Permutations, Spearman};
        /// let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        /// let s = Permutations::new(100).standardise_seeded(&Spearman, &x, &x, 3)?;
        /// assert!((s.z - 2.0).abs() < 1e-12); // ρ = 1, exact null SD 1/√4
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn standardise_seeded<S, F>(&self, statistic: &S, x: &[F], y: &[F])
            -> Standardised = Self::standardise
            where { S: Statistic + ?Sized, F: Float }
    }

    /// Hands the permuted values `S(a, b∘π_k)` of the prepared data (a, b)
    /// for the permutations `k` in `range` to `sink` in index order; the
    /// first failing permutation (by index) stops the run.
    fn stream<S: Statistic + ?Sized>(
        &self,
        range: Range<usize>,
        statistic: &S,
        prepared: &Prepared,
        seed: u64,
        sink: impl FnMut(f64),
    ) -> Result<(), UncertaintyError> {
        let (a, b) = (&prepared.x, &prepared.y);
        engine::for_each(
            range,
            seed,
            self.threads,
            || b.to_vec(),
            |scratch, _, rng| {
                scratch.copy_from_slice(b);
                scratch.shuffle(rng);
                finite(statistic.value_prepared(a, scratch))
            },
            replicate_sink("permutation", sink),
        )
    }
}

/// The data checked and prepared ([`Statistic::prepare`]) and the
/// statistic's value on them: what a permutation run permutes and compares
/// with.
fn observe<S: Statistic + ?Sized, F: Float>(
    statistic: &S,
    x: &[F],
    y: &[F],
) -> Result<(Prepared, f64), UncertaintyError> {
    let (x, y) = to_f64_pair(x, y)?;
    let prepared = statistic.prepare(&x, &y)?;
    let value = finite(statistic.value_prepared(&prepared.x, &prepared.y))?;
    Ok((prepared, value))
}

/// A sink for [`engine::for_each`] that passes values on and turns the
/// first failing replicate into [`UncertaintyError::Replicate`].
pub(crate) fn replicate_sink(
    kind: &'static str,
    mut sink: impl FnMut(f64),
) -> impl FnMut(usize, Result<f64, CorrelationError>) -> Result<(), UncertaintyError> {
    move |index, result| match result {
        Ok(v) => {
            sink(v);
            Ok(())
        }
        Err(source) => Err(UncertaintyError::Replicate {
            kind,
            index,
            source,
        }),
    }
}

/// The statistic's value, with a non-finite value (possible from user
/// closures) reported as undefined.
pub(crate) fn finite(value: Result<f64, CorrelationError>) -> Result<f64, CorrelationError> {
    match value {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(CorrelationError::Undefined {
            reason: "the statistic is not finite",
        }),
        Err(e) => Err(e),
    }
}

/// The running counts and moments of a permutation test.
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    observed: f64,
    tol: f64,
    at_least: usize,
    at_most: usize,
    moments: Moments,
}

impl Tally {
    /// A tally against the observed value.
    pub(crate) fn new(observed: f64) -> Self {
        Self {
            observed,
            tol: 1e-12 * observed.abs().max(1.0),
            at_least: 0,
            at_most: 0,
            moments: Moments::new(engine::KEEP),
        }
    }

    /// Counts the next permuted value.
    pub(crate) fn push(&mut self, t: f64) {
        self.at_least += usize::from(t >= self.observed - self.tol);
        self.at_most += usize::from(t <= self.observed + self.tol);
        self.moments.push(t);
    }

    /// p-value, its standard error and the null summary.
    pub(crate) fn finish(self, alternative: Alternative) -> PermutationTest {
        let (at_least, at_most) = (self.at_least, self.at_most);
        let m = self.moments.count() as f64;
        let p = |b: usize| (b as f64 + 1.0) / (m + 1.0);
        let se = |p: f64| (p * (1.0 - p) / m).sqrt();
        let (p_value, standard_error) = match alternative {
            Alternative::Greater => (p(at_least), se(p(at_least))),
            Alternative::Less => (p(at_most), se(p(at_most))),
            Alternative::TwoSided => {
                let q = p(at_least).min(p(at_most));
                ((2.0 * q).min(1.0), 2.0 * se(q))
            }
        };
        PermutationTest {
            statistic: self.observed,
            p_value,
            standard_error,
            alternative,
            permutations: self.moments.count(),
            at_least,
            at_most,
            null_mean: self.moments.mean(),
            null_sd: self.moments.sd(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tally of `values`, as a permutation test streams them.
    fn summarise(observed: f64, values: &[f64], alternative: Alternative) -> PermutationTest {
        let mut tally = Tally::new(observed);
        values.iter().for_each(|&t| tally.push(t));
        tally.finish(alternative)
    }

    #[test]
    fn p_values_by_hand() {
        // Observed 0.5; permuted values: two above, one equal, two below.
        let t = summarise(0.5, &[0.9, 0.7, 0.5, 0.1, -0.3], Alternative::Greater);
        assert_eq!((t.at_least, t.at_most), (3, 3));
        assert_eq!(t.p_value, 4.0 / 6.0);
        assert!((t.standard_error - (4.0 / 6.0 * 2.0 / 6.0 / 5.0f64).sqrt()).abs() < 1e-15);
        let t = summarise(0.8, &[0.9, 0.7, 0.5, 0.1, -0.3], Alternative::Less);
        assert_eq!(t.p_value, 5.0 / 6.0);
        let t = summarise(0.8, &[0.9, 0.7, 0.5, 0.1, -0.3], Alternative::TwoSided);
        assert_eq!(t.p_value, 2.0 * 2.0 / 6.0);
        let t = summarise(0.5, &[0.9, 0.7, 0.5, 0.1, -0.3], Alternative::TwoSided);
        assert_eq!(t.p_value, 1.0);
        assert!((t.null_mean - 0.38).abs() < 1e-15);
        // Rounding noise counts as a tie.
        let t = summarise(0.1 + 0.2, &[0.3], Alternative::Greater);
        assert_eq!(t.at_least, 1);
    }
}
