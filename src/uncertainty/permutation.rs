//! Permutation tests: the distribution of a statistic when the second
//! input's items are shuffled, and the p-value of the observed value.

use super::null::{NullMoments, Standardised, moments_from};
use super::paired::Exchange;
use super::statistic::Statistic;
use super::{Alternative, Threads, UncertaintyError, check_replicates, engine, to_f64_pair};
use crate::error::Error;
use num_traits::Float;
use rand::Rng;
use rand::seq::SliceRandom;

/// Settings of a permutation test: number of permutations, alternative,
/// threads (and, for paired tests, what is exchanged).
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
pub struct Permutations {
    pub(crate) permutations: usize,
    pub(crate) alternative: Alternative,
    pub(crate) threads: Threads,
    pub(crate) exchange: Exchange,
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
/// [`UncertaintyError::TooFewItems`] for n < 3, invalid scores
/// ([`UncertaintyError::Statistic`]), a failing permutation
/// ([`UncertaintyError::Replicate`]).
///
/// # Complexity
/// One preparation (ranking) plus m evaluations of the prepared statistic:
/// O(m n log n) for ρ, ρ_w; O(m n²) for τ-b and τ_w until the O(n log n)
/// kernel is used. Memory O(m + n·threads).
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
pub fn permutation_test<S, F, R>(
    statistic: &S,
    x: &[F],
    y: &[F],
    permutations: usize,
    alternative: Alternative,
    rng: &mut R,
) -> Result<PermutationTest, UncertaintyError>
where
    S: Statistic + ?Sized,
    F: Float,
    R: Rng + ?Sized,
{
    Permutations::new(permutations)
        .alternative(alternative)
        .test(statistic, x, y, rng)
}

impl Permutations {
    /// `permutations` random permutations, two-sided, all cores, ranks
    /// exchanged in paired tests.
    #[must_use]
    pub fn new(permutations: usize) -> Self {
        Self {
            permutations,
            alternative: Alternative::TwoSided,
            threads: Threads::Available,
            exchange: Exchange::Ranks,
        }
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
    pub fn test<S, F, R>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<PermutationTest, UncertaintyError>
    where
        S: Statistic + ?Sized,
        F: Float,
        R: Rng + ?Sized,
    {
        check_replicates("permutations", 1, self.permutations)?;
        let (observed, values) = self.permuted(statistic, x, y, rng.random())?;
        Ok(summarise(observed, &values, self.alternative))
    }

    /// Null moments, exact where known, else from these permutations; see
    /// [`null_moments`](super::null_moments).
    ///
    /// # Errors
    /// As [`null_moments`](super::null_moments).
    ///
    /// # Complexity
    /// As [`permutation_test`] (nothing is permuted when both moments are exact).
    pub fn null_moments<S, F, R>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<NullMoments, UncertaintyError>
    where
        S: Statistic + ?Sized,
        F: Float,
        R: Rng + ?Sized,
    {
        self.standardise(statistic, x, y, rng).map(|s| s.null)
    }

    /// The standardised value; see [`standardise`](super::standardise).
    ///
    /// # Errors
    /// As [`standardise`](super::standardise).
    ///
    /// # Complexity
    /// As [`permutation_test`].
    pub fn standardise<S, F, R>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<Standardised, UncertaintyError>
    where
        S: Statistic + ?Sized,
        F: Float,
        R: Rng + ?Sized,
    {
        check_replicates("permutations", 2, self.permutations)?;
        let seed = rng.random();
        let (x, y) = to_f64_pair(x, y)?;
        let prepared = statistic.prepare(&x, &y)?;
        let value = finite(statistic.value_prepared(&prepared.x, &prepared.y))?;
        let exact = statistic.exact_null(&prepared);
        let values = if exact.mean.is_some() && exact.sd.is_some() {
            Vec::new()
        } else {
            self.run(statistic, &prepared.x, &prepared.y, seed)?
        };
        let null = moments_from(exact, &values)?;
        let z = (value - null.mean.value) / null.sd.value;
        if !z.is_finite() {
            return Err(UncertaintyError::Degenerate {
                reason: "the null standard deviation is zero",
            });
        }
        Ok(Standardised { value, null, z })
    }

    /// The observed value and the permuted values.
    fn permuted<S: Statistic + ?Sized, F: Float>(
        &self,
        statistic: &S,
        x: &[F],
        y: &[F],
        seed: u64,
    ) -> Result<(f64, Vec<f64>), UncertaintyError> {
        let (x, y) = to_f64_pair(x, y)?;
        let prepared = statistic.prepare(&x, &y)?;
        let observed = finite(statistic.value_prepared(&prepared.x, &prepared.y))?;
        let values = self.run(statistic, &prepared.x, &prepared.y, seed)?;
        Ok((observed, values))
    }

    fn run<S: Statistic + ?Sized>(
        &self,
        statistic: &S,
        a: &[f64],
        b: &[f64],
        seed: u64,
    ) -> Result<Vec<f64>, UncertaintyError> {
        let results = engine::run(
            self.permutations,
            seed,
            self.threads,
            || b.to_vec(),
            |scratch, _, rng| {
                scratch.copy_from_slice(b);
                scratch.shuffle(rng);
                finite(statistic.value_prepared(a, scratch))
            },
        );
        collect("permutation", results)
    }
}

/// The statistic's value, with a non-finite value (possible from user
/// closures) reported as undefined.
pub(crate) fn finite(value: Result<f64, Error>) -> Result<f64, Error> {
    match value {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(Error::Undefined {
            reason: "the statistic is not finite",
        }),
        Err(e) => Err(e),
    }
}

/// All values, or the first error (by replicate index).
pub(crate) fn collect(
    kind: &'static str,
    results: Vec<Result<f64, Error>>,
) -> Result<Vec<f64>, UncertaintyError> {
    results
        .into_iter()
        .enumerate()
        .map(|(index, r)| {
            r.map_err(|source| UncertaintyError::Replicate {
                kind,
                index,
                source,
            })
        })
        .collect()
}

/// p-value, its standard error and the null summary from permuted values.
pub(crate) fn summarise(
    observed: f64,
    values: &[f64],
    alternative: Alternative,
) -> PermutationTest {
    let tol = 1e-12 * observed.abs().max(1.0);
    let at_least = values.iter().filter(|&&t| t >= observed - tol).count();
    let at_most = values.iter().filter(|&&t| t <= observed + tol).count();
    let m = values.len() as f64;
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
    let mean = crate::sum::neumaier(values.iter().copied()) / m;
    let ss = crate::sum::neumaier(values.iter().map(|v| (v - mean) * (v - mean)));
    PermutationTest {
        statistic: observed,
        p_value,
        standard_error,
        alternative,
        permutations: values.len(),
        at_least,
        at_most,
        null_mean: mean,
        null_sd: if values.len() > 1 {
            (ss / (m - 1.0)).sqrt()
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
