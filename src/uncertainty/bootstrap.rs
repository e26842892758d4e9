//! Bootstrap confidence intervals over items: percentile and BCa.

use super::engine;
use super::histogram::{Histogram, check_bins};
use super::permutation::{check_range, finite};
use super::statistic::Statistic;
use super::{Threads, UncertaintyError, to_f64_pair};
use crate::correlation::error::CorrelationError;
use num_traits::Float;
use rand::{Rng, RngExt};
use statrs::distribution::{ContinuousCDF, Normal};
use std::ops::Range;

/// How the interval is read off the bootstrap distribution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Interval {
    /// The α/2 and 1 − α/2 quantiles of the bootstrap values.
    Percentile,
    /// Bias-corrected and accelerated (Efron 1987): quantiles shifted by the
    /// bias correction z₀ and the jackknife acceleration a.
    #[default]
    Bca,
}

/// Settings of a bootstrap: resamples, confidence level, interval method,
/// threads, and the most resamples accepted ([`Bootstrap::max_replicates`]).
///
/// The interval is read off the sorted bootstrap values, so every value is
/// kept: 8 bytes per resample. Resamples are computed in blocks, so nothing
/// else grows with their number.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{Bootstrap, Interval, Spearman};
/// use rand::SeedableRng;
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
/// let y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0, 10.0, 9.0];
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let ci = Bootstrap::new(1000).level(0.9).interval(Interval::Percentile).run(&Spearman, &x, &y, &mut rng)?;
/// assert!(ci.lower <= ci.estimate && ci.estimate <= ci.upper);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bootstrap {
    resamples: usize,
    level: f64,
    interval: Interval,
    threads: Threads,
    max_replicates: usize,
}

/// A bootstrap confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConfidenceInterval {
    /// The statistic on the observed data.
    pub estimate: f64,
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
    /// Nominal coverage, e.g. 0.95.
    pub level: f64,
    /// The method.
    pub interval: Interval,
    /// Resamples drawn.
    pub resamples: usize,
    /// Resamples on which the statistic was undefined (e.g. a constant
    /// resample); they are left out of the bootstrap distribution.
    pub failed: usize,
    /// Standard deviation of the bootstrap values (bootstrap standard error).
    pub standard_error: f64,
    /// BCa bias correction z₀ (`None` for percentile intervals).
    pub bias_correction: Option<f64>,
    /// BCa acceleration a from the jackknife (`None` for percentile intervals).
    pub acceleration: Option<f64>,
}

/// A BCa bootstrap interval at confidence `level` from `resamples`
/// resamples of the items (pairs (x_i, y_i) drawn with replacement), on
/// all cores. See [`Bootstrap`] for percentile intervals and threads.
///
/// ```text
/// θ*_k = S(x[I_k], y[I_k]),  I_k = n indices drawn uniformly with replacement
/// percentile: [Q(α/2), Q(1 − α/2)],  α = 1 − level, Q the type-7 quantile of the θ*_k
/// BCa:        [Q(α₁), Q(α₂)],  α_j = Φ(z₀ + (z₀ + z_j)/(1 − a(z₀ + z_j))),  z_j = Φ⁻¹(α/2), Φ⁻¹(1 − α/2)
///             z₀ = Φ⁻¹((#{θ*_k < θ̂} + ½ #{θ*_k = θ̂})/B)
///             a  = Σ_i (θ̄ − θ_(i))³ / (6 [Σ_i (θ̄ − θ_(i))²]^{3/2}),  θ_(i) without item i
/// ```
///
/// Resamples on which the statistic is undefined are left out and counted
/// in [`ConfidenceInterval::failed`].
///
/// # Errors
/// [`UncertaintyError::TooFewReplicates`] for fewer than 2 resamples,
/// [`UncertaintyError::TooLarge`] for more than
/// [`Bootstrap::DEFAULT_MAX_REPLICATES`] (checked first, before any work),
/// [`UncertaintyError::InvalidLevel`] outside (0, 1), n < 3, invalid
/// scores, [`UncertaintyError::AllResamplesFailed`],
/// [`UncertaintyError::Jackknife`] (BCa), [`UncertaintyError::Degenerate`]
/// when every resample lies on one side of the estimate (BCa).
///
/// # Complexity
/// B + n evaluations of the statistic on n items (n jackknife evaluations
/// for BCa only); memory 8B bytes for the bootstrap values plus
/// O(n·threads).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{bootstrap_ci, TopWeightedRho};
/// use rand::SeedableRng;
/// let human = [0.9, 0.8, 0.75, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05];
/// let model = [0.7, 0.9, 0.6, 0.65, 0.3, 0.5, 0.2, 0.25, 0.0, 0.1];
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
/// let ci = bootstrap_ci(&TopWeightedRho::new(), &human, &model, 2000, 0.95, &mut rng)?;
/// assert!(ci.lower < ci.estimate && ci.estimate < ci.upper);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
///
/// # References
/// B. Efron (1987), Better bootstrap confidence intervals, *JASA* 82, 171–185;
/// Efron & Tibshirani (1993), ch. 13–14.
pub fn bootstrap_ci<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
    statistic: &S,
    x: &[F],
    y: &[F],
    resamples: usize,
    level: f64,
    rng: &mut R,
) -> Result<ConfidenceInterval, UncertaintyError> {
    Bootstrap::new(resamples)
        .level(level)
        .run(statistic, x, y, rng)
}

seeded! {
    /// [`bootstrap_ci`] with a seed in place of the generator: the resamples
    /// come from a ChaCha8 generator seeded by `seed`, so the interval is the
    /// same in every release and on any number of threads (see [Random numbers
    /// and seeds](crate#random-numbers-and-seeds)).
    ///
    /// # Errors
    /// As [`bootstrap_ci`].
    ///
    /// # Complexity
    /// As [`bootstrap_ci`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{bootstrap_ci_seeded, TopWeightedRho};
    /// let human = [0.9, 0.8, 0.75, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05];
    /// let model = [0.7, 0.9, 0.6, 0.65, 0.3, 0.5, 0.2, 0.25, 0.0, 0.1];
    /// let ci = bootstrap_ci_seeded(&TopWeightedRho::new(), &human, &model, 2000, 0.95, 11)?;
    /// assert!(ci.lower < ci.estimate && ci.estimate < ci.upper);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn bootstrap_ci_seeded<S, F>(statistic: &S, x: &[F], y: &[F], resamples: usize, level: f64)
        -> ConfidenceInterval = bootstrap_ci
        where { S: Statistic + ?Sized, F: Float }
}

impl Bootstrap {
    /// The default for [`max_replicates`](Self::max_replicates): 2²⁷ ≈ 1.3·10⁸
    /// resamples, whose values take 1 GiB. Intervals are usually read off
    /// 10³–10⁴ resamples; the limit refuses counts such as `usize::MAX`
    /// before anything is allocated.
    pub const DEFAULT_MAX_REPLICATES: usize = 1 << 27;

    /// `resamples` resamples, 95 % BCa, all cores, at most
    /// [`DEFAULT_MAX_REPLICATES`](Self::DEFAULT_MAX_REPLICATES) resamples.
    /// Nothing is allocated or checked here: the count is checked when the
    /// bootstrap runs.
    #[must_use]
    pub fn new(resamples: usize) -> Self {
        Self {
            resamples,
            level: 0.95,
            interval: Interval::Bca,
            threads: Threads::Available,
            max_replicates: Self::DEFAULT_MAX_REPLICATES,
        }
    }

    /// Sets the most resamples a run accepts (default
    /// [`DEFAULT_MAX_REPLICATES`](Self::DEFAULT_MAX_REPLICATES)); a larger
    /// count is refused with [`UncertaintyError::TooLarge`] before anything
    /// is allocated. Each resample keeps one `f64`, so a limit above
    /// `isize::MAX / 8` (what one allocation can address) acts as that.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Spearman, UncertaintyError};
    /// use rand::SeedableRng;
    /// let x = [1.0, 2.0, 3.0, 4.0];
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let e = Bootstrap::new(usize::MAX).run(&Spearman, &x, &x, &mut rng);
    /// assert_eq!(
    ///     e.unwrap_err(),
    ///     UncertaintyError::TooLarge {
    ///         quantity: "resamples",
    ///         requested: usize::MAX as u64,
    ///         limit: Bootstrap::DEFAULT_MAX_REPLICATES as u64,
    ///     }
    /// );
    /// ```
    #[must_use]
    pub fn max_replicates(mut self, limit: usize) -> Self {
        self.max_replicates = limit;
        self
    }

    /// Sets the confidence level, in (0, 1) (checked when run).
    #[must_use]
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }

    /// Sets the interval method (default BCa).
    #[must_use]
    pub fn interval(mut self, interval: Interval) -> Self {
        self.interval = interval;
        self
    }

    /// Sets the number of threads (results do not depend on it).
    #[must_use]
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// Runs the bootstrap; see [`bootstrap_ci`].
    ///
    /// # Errors
    /// As [`bootstrap_ci`].
    ///
    /// # Complexity
    /// As [`bootstrap_ci`].
    pub fn run<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<ConfidenceInterval, UncertaintyError> {
        let seed = self.start(rng)?;
        let (x, y) = to_f64_pair(x, y)?;
        let estimate = finite(statistic.value(&x, &y))?;
        let on = resample_statistic(statistic, &x, &y);
        self.interval_of(estimate, x.len(), seed, on)
    }

    /// [`run`](Self::run) and the bootstrap values binned into `bins` bins
    /// laid over their range ([`Histogram::of`]; failed resamples left out):
    /// the distribution the interval was read off, to draw beside it, from
    /// the same run. The interval is the one [`run`](Self::run) gives with
    /// the same `rng` state, bit for bit.
    ///
    /// # Errors
    /// As [`run`](Self::run), and [`UncertaintyError::InvalidBins`] for 0
    /// or more than [`Histogram::MAX_BINS`] bins (checked first).
    ///
    /// # Complexity
    /// As [`run`](Self::run), plus O(B + bins).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Spearman};
    /// use rand::SeedableRng;
    /// let x = [0.1, 0.5, 0.2, 0.9, 0.7, 0.4, 0.3, 0.8];
    /// let y = [1.0, 3.0, 2.0, 6.0, 7.0, 4.0, 5.0, 8.0];
    /// let plan = Bootstrap::new(500);
    /// let rng = || rand_chacha::ChaCha8Rng::seed_from_u64(9);
    /// let (ci, values) = plan.run_with_histogram(&Spearman, &x, &y, 30, &mut rng())?;
    /// assert_eq!(ci, plan.run(&Spearman, &x, &y, &mut rng())?);
    /// assert_eq!(values.total() as usize, ci.resamples - ci.failed);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn run_with_histogram<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        bins: usize,
        rng: &mut R,
    ) -> Result<(ConfidenceInterval, Histogram), UncertaintyError> {
        check_bins(bins)?;
        let seed = self.start(rng)?;
        let (x, y) = to_f64_pair(x, y)?;
        let estimate = finite(statistic.value(&x, &y))?;
        let on = resample_statistic(statistic, &x, &y);
        let (interval, histogram) =
            self.interval_binned(estimate, x.len(), seed, on, Some(bins))?;
        let histogram = histogram.ok_or(UncertaintyError::Degenerate {
            reason: "no bootstrap values to bin",
        })?;
        Ok((interval, histogram))
    }

    seeded! {
        /// [`run`](Self::run) with a seed in place of the generator, as
        /// [`bootstrap_ci_seeded`].
        ///
        /// # Errors
        /// As [`bootstrap_ci`].
        ///
        /// # Complexity
        /// As [`bootstrap_ci`].
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Interval, Spearman};
        /// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        /// let y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0, 10.0, 9.0];
        /// let ci = Bootstrap::new(1000).interval(Interval::Percentile).run_seeded(&Spearman, &x, &y, 5)?;
        /// assert!(ci.lower <= ci.estimate && ci.estimate <= ci.upper);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn run_seeded<S, F>(&self, statistic: &S, x: &[F], y: &[F])
            -> ConfidenceInterval = Self::run
            where { S: Statistic + ?Sized, F: Float }
    }

    /// Checks the settings ([`check`](Self::check)), then draws the run's
    /// seed: how every run starts, so that a run and its shares
    /// ([`replicates`](Self::replicates)) draw the same seed.
    pub(crate) fn start<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<u64, UncertaintyError> {
        self.check()?;
        Ok(rng.random())
    }

    pub(crate) fn check(&self) -> Result<(), UncertaintyError> {
        // One f64 is kept per resample: whatever the limit, no more than an
        // allocation can address (isize::MAX bytes), which would panic.
        let addressable = isize::MAX as usize / core::mem::size_of::<f64>();
        let limit = self.max_replicates.min(addressable);
        engine::check_count("resamples", 2, self.resamples, limit)?;
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(UncertaintyError::InvalidLevel { level: self.level });
        }
        Ok(())
    }

    /// The interval of a statistic of item subsets: `on(indices)` is its
    /// value on the items listed (with repeats); `n ≥ 3` items.
    pub(crate) fn interval_of<G>(
        &self,
        estimate: f64,
        n: usize,
        seed: u64,
        on: G,
    ) -> Result<ConfidenceInterval, UncertaintyError>
    where
        G: Fn(&[usize]) -> Result<f64, CorrelationError> + Sync,
    {
        self.interval_binned(estimate, n, seed, on, None)
            .map(|(interval, _)| interval)
    }

    /// [`interval_of`](Self::interval_of) and, with `bins`, the histogram of
    /// the successful resamples' values.
    fn interval_binned<G>(
        &self,
        estimate: f64,
        n: usize,
        seed: u64,
        on: G,
        bins: Option<usize>,
    ) -> Result<(ConfidenceInterval, Option<Histogram>), UncertaintyError>
    where
        G: Fn(&[usize]) -> Result<f64, CorrelationError> + Sync,
    {
        let mut values: Vec<f64> = Vec::with_capacity(self.resamples);
        let mut first_error = None;
        self.resampled(0..self.resamples, n, seed, &on, |result| match result {
            Ok(v) => values.push(v),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        });
        // Binned before the interval takes the values; an error of the
        // interval (e.g. every resample failed) comes first.
        let histogram = bins.map(|b| Histogram::of(&values, b));
        let interval = self.interval_from(estimate, n, values, first_error, &on)?;
        Ok((interval, histogram.transpose()?))
    }

    /// Hands the statistic of each resample of `range` to `sink`, in index
    /// order.
    fn resampled<G>(
        &self,
        range: Range<usize>,
        n: usize,
        seed: u64,
        on: &G,
        mut sink: impl FnMut(Result<f64, CorrelationError>),
    ) where
        G: Fn(&[usize]) -> Result<f64, CorrelationError> + Sync,
    {
        let Ok(()) = engine::for_each(
            range,
            seed,
            self.threads,
            || vec![0usize; n],
            |idx, _, rng| {
                idx.iter_mut().for_each(|i| *i = rng.random_range(0..n));
                on(idx)
            },
            |_, result| {
                sink(result);
                Ok::<(), core::convert::Infallible>(())
            },
        );
    }

    /// The statistic of the resamples of `range` of the run
    /// [`run`](Self::run) makes with the same `rng` state, NaN for a
    /// resample on which it is undefined: one share of a bootstrap split
    /// over processes or machines. Give every share a generator in the same
    /// state (e.g. seeded with the same number);
    /// [`run_from_replicates`](Self::run_from_replicates) puts the shares,
    /// concatenated in index order, together into the interval
    /// [`run`](Self::run) gives, bit for bit.
    ///
    /// # Errors
    /// As [`run`](Self::run) on the observed data and settings, and
    /// [`UncertaintyError::TooLarge`] when `range` ends past the number of
    /// resamples.
    ///
    /// # Complexity
    /// `range.len()` evaluations of the statistic; memory `8·range.len()`
    /// bytes for the values.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{Bootstrap, Spearman};
    /// use rand::SeedableRng;
    /// let x = [0.1, 0.5, 0.2, 0.9, 0.7, 0.4, 0.3, 0.8];
    /// let y = [1.0, 3.0, 2.0, 6.0, 7.0, 4.0, 5.0, 8.0];
    /// let plan = Bootstrap::new(500);
    /// let rng = || rand_chacha::ChaCha8Rng::seed_from_u64(9);
    /// let mut values = plan.replicates(&Spearman, &x, &y, 0..200, &mut rng())?;
    /// values.extend(plan.replicates(&Spearman, &x, &y, 200..500, &mut rng())?);
    /// let sharded = plan.run_from_replicates(&Spearman, &x, &y, &values, &mut rng())?;
    /// assert_eq!(sharded, plan.run(&Spearman, &x, &y, &mut rng())?);
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
        self.check()?;
        check_range(&range, self.resamples, "resamples")?;
        let seed = rng.random();
        let (x, y) = to_f64_pair(x, y)?;
        finite(statistic.value(&x, &y))?;
        let on = resample_statistic(statistic, &x, &y);
        let mut values = Vec::with_capacity(range.len());
        self.resampled(range, x.len(), seed, &on, |r| {
            values.push(r.unwrap_or(f64::NAN));
        });
        Ok(values)
    }

    /// The interval from the statistic of every resample, in index order
    /// (the shares of [`replicates`](Self::replicates) concatenated, NaN
    /// where a resample failed), with `rng` in the state the shares had:
    /// the interval [`run`](Self::run) gives, bit for bit (the generator
    /// recomputes the first failed resample when every one failed, for its
    /// error).
    ///
    /// # Errors
    /// As [`run`](Self::run); [`CorrelationError::LengthMismatch`] (as
    /// [`UncertaintyError::Statistic`]) when there are not exactly as many
    /// values as resamples, [`CorrelationError::Infinite`] (input `"values"`) for an
    /// infinite value.
    ///
    /// # Complexity
    /// As [`run`](Self::run) without the resamples: O(B log B) plus n
    /// jackknife evaluations for BCa.
    pub fn run_from_replicates<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        values: &[f64],
        rng: &mut R,
    ) -> Result<ConfidenceInterval, UncertaintyError> {
        self.check()?;
        engine::check_values(values, "resamples", self.resamples)?;
        if let Some(index) = values.iter().position(|v| v.is_infinite()) {
            return Err(CorrelationError::Infinite {
                input: "values",
                index,
            }
            .into());
        }
        let seed: u64 = rng.random();
        let (x, y) = to_f64_pair(x, y)?;
        let estimate = finite(statistic.value(&x, &y))?;
        let on = resample_statistic(statistic, &x, &y);
        let kept: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
        let mut first_error = None;
        if kept.len() < 2
            && let Some(index) = values.iter().position(|v| v.is_nan())
        {
            self.resampled(index..index + 1, x.len(), seed, &on, |r| {
                first_error = r.err();
            });
        }
        self.interval_from(estimate, x.len(), kept, first_error, &on)
    }

    /// The interval from the successful resamples' values (`first_error`:
    /// that of the first failed one).
    fn interval_from<G>(
        &self,
        estimate: f64,
        n: usize,
        mut values: Vec<f64>,
        first_error: Option<CorrelationError>,
        on: &G,
    ) -> Result<ConfidenceInterval, UncertaintyError>
    where
        G: Fn(&[usize]) -> Result<f64, CorrelationError> + Sync,
    {
        let failed = self.resamples - values.len();
        if values.len() < 2 {
            return Err(UncertaintyError::AllResamplesFailed {
                resamples: self.resamples,
                first: first_error.unwrap_or(CorrelationError::Undefined {
                    reason: "fewer than 2 resamples succeeded",
                }),
            });
        }
        values.sort_by(f64::total_cmp);
        let b = values.len() as f64;
        let mean = crate::sum::neumaier(values.iter().copied()) / b;
        let ss = crate::sum::neumaier(values.iter().map(|v| (v - mean) * (v - mean)));
        let (lo_p, hi_p, bias_correction, acceleration) = match self.interval {
            Interval::Percentile => {
                let alpha = 1.0 - self.level;
                (alpha / 2.0, 1.0 - alpha / 2.0, None, None)
            }
            Interval::Bca => {
                let below = values.iter().filter(|&&v| v < estimate).count();
                let equal = values.iter().filter(|&&v| v == estimate).count();
                let (z0, lo, hi) = bca_levels(self.level, below, equal, values.len(), || {
                    self.acceleration(n, on)
                })?;
                (lo, hi, Some(z0.0), Some(z0.1))
            }
        };
        Ok(ConfidenceInterval {
            estimate,
            lower: quantile(&values, lo_p),
            upper: quantile(&values, hi_p),
            level: self.level,
            interval: self.interval,
            resamples: self.resamples,
            failed,
            standard_error: (ss / (b - 1.0)).sqrt(),
            bias_correction,
            acceleration,
        })
    }

    /// The jackknife acceleration a.
    fn acceleration<G>(&self, n: usize, on: &G) -> Result<f64, UncertaintyError>
    where
        G: Fn(&[usize]) -> Result<f64, CorrelationError> + Sync,
    {
        let mut theta = Vec::with_capacity(n);
        engine::for_each(
            0..n,
            0,
            self.threads,
            || Vec::with_capacity(n),
            |idx: &mut Vec<usize>, left_out, _| {
                idx.clear();
                idx.extend((0..n).filter(|&i| i != left_out));
                on(idx)
            },
            |left_out, result| {
                theta.push(
                    result.map_err(|source| UncertaintyError::Jackknife { left_out, source })?,
                );
                Ok::<(), UncertaintyError>(())
            },
        )?;
        Ok(acceleration(&theta))
    }
}

/// The BCa quantile levels (α₁, α₂) at confidence `level` for a bootstrap
/// distribution with `below` values under the estimate and `equal` values
/// at it (of `total`), with the acceleration from `acceleration()` (asked
/// only when the distribution is not degenerate). Returns ((z₀, a), α₁, α₂).
pub(crate) fn bca_levels(
    level: f64,
    below: usize,
    equal: usize,
    total: usize,
    acceleration: impl FnOnce() -> Result<f64, UncertaintyError>,
) -> Result<((f64, f64), f64, f64), UncertaintyError> {
    let alpha = 1.0 - level;
    let normal = Normal::standard();
    let share = (below as f64 + 0.5 * equal as f64) / total as f64;
    if share <= 0.0 || share >= 1.0 {
        return Err(UncertaintyError::Degenerate {
            reason: "every resample lies on one side of the estimate",
        });
    }
    let z0 = normal.inverse_cdf(share);
    let a = acceleration()?;
    let adjust = |z: f64| -> Result<f64, UncertaintyError> {
        let d = 1.0 - a * (z0 + z);
        if d.is_nan() || d <= 0.0 {
            return Err(UncertaintyError::Degenerate {
                reason: "the acceleration is too large for this level",
            });
        }
        Ok(normal.cdf(z0 + (z0 + z) / d))
    };
    // At the largest level below 1, 1 − α/2 rounds to 1 and
    // Φ⁻¹(1) = ∞ (the upper end came out NaN): then the
    // symmetry Φ⁻¹(1 − q) = −Φ⁻¹(q).
    let z = normal.inverse_cdf(alpha / 2.0);
    let upper_tail = 1.0 - alpha / 2.0;
    let lo = adjust(z)?;
    let hi = adjust(if upper_tail < 1.0 {
        normal.inverse_cdf(upper_tail)
    } else {
        -z
    })?;
    Ok(((z0, a), lo, hi))
}

/// The statistic on the items listed (with repeats), undefined values as errors.
fn resample_statistic<'a, S: Statistic + ?Sized>(
    statistic: &'a S,
    x: &'a [f64],
    y: &'a [f64],
) -> impl Fn(&[usize]) -> Result<f64, CorrelationError> + Sync + 'a {
    move |idx: &[usize]| {
        let xs: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
        let ys: Vec<f64> = idx.iter().map(|&i| y[i]).collect();
        finite(statistic.value(&xs, &ys))
    }
}

/// a = Σ d³ / (6 (Σ d²)^{3/2}), d_i = θ̄ − θ_(i); 0 when all θ_(i) agree.
pub(crate) fn acceleration(theta: &[f64]) -> f64 {
    let mean = crate::sum::neumaier(theta.iter().copied()) / theta.len() as f64;
    let d2 = crate::sum::neumaier(theta.iter().map(|t| (mean - t).powi(2)));
    let d3 = crate::sum::neumaier(theta.iter().map(|t| (mean - t).powi(3)));
    if d2 > 0.0 {
        d3 / (6.0 * d2.powf(1.5))
    } else {
        0.0
    }
}

/// Type-7 quantile (linear interpolation at h = (B − 1)p) of sorted values.
pub(crate) fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_numpy_linear() {
        // numpy.quantile([1, 2, 4, 8], [0, .25, .5, .9, 1]) = [1, 1.75, 3, 6.8, 8]
        let v = [1.0, 2.0, 4.0, 8.0];
        let q: Vec<f64> = [0.0, 0.25, 0.5, 0.9, 1.0]
            .iter()
            .map(|&p| quantile(&v, p))
            .collect();
        let want = [1.0, 1.75, 3.0, 6.8, 8.0];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    #[test]
    fn acceleration_by_hand() {
        // θ = [0, 0, 3]: θ̄ = 1, d = [1, 1, −2]; Σd² = 6, Σd³ = −6;
        // a = −6/(6·6^{3/2}) = −6^{−3/2}.
        assert!((acceleration(&[0.0, 0.0, 3.0]) + 6f64.powf(-1.5)).abs() < 1e-15);
        assert_eq!(acceleration(&[2.0, 2.0, 2.0]), 0.0);
    }
}
