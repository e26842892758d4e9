//! Null moments: the mean and standard deviation of a coefficient when the
//! second ranking is a uniformly random permutation of its items, and the
//! standardised value (coefficient − null mean)/null SD.
//!
//! Closed forms where they exist (Spearman's ρ, Kendall's τ-b with ties, the
//! mean of ρ_w/τ_w and the SD of τ_w with weights from one ranking); Monte
//! Carlo otherwise, with the Monte-Carlo standard errors reported.

use super::permutation::Permutations;
use super::statistic::Statistic;
use super::{UncertaintyError, check_len};
use crate::rank::{Order, Ties, rank};
use num_traits::Float;
use rand::Rng;

/// Where a null moment comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Source {
    /// A closed form.
    Exact,
    /// A Monte-Carlo estimate from this many random permutations.
    MonteCarlo {
        /// Number of permutations drawn.
        permutations: usize,
    },
}

/// One null moment with its origin and Monte-Carlo standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// Its Monte-Carlo standard error (0 for [`Source::Exact`]).
    pub standard_error: f64,
    /// Where it comes from.
    pub source: Source,
}

impl Estimate {
    fn exact(value: f64) -> Self {
        Self {
            value,
            standard_error: 0.0,
            source: Source::Exact,
        }
    }
}

/// Mean and standard deviation of a statistic under random permutations of
/// the second input (random rankings).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NullMoments {
    /// The null mean.
    pub mean: Estimate,
    /// The null standard deviation.
    pub sd: Estimate,
}

/// A coefficient, its null moments and its standardised value.
///
/// ```text
/// z = (value − null mean) / null SD
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standardised {
    /// The coefficient on the observed data.
    pub value: f64,
    /// Its null moments.
    pub null: NullMoments,
    /// The standardised value.
    pub z: f64,
}

/// Exact null moments of Spearman's ρ for n items.
///
/// ```text
/// E[ρ] = 0,   SD[ρ] = 1/√(n − 1)
/// ```
///
/// This holds with or without ties: it is the permutation variance of the
/// Pearson correlation of any two fixed, non-constant vectors.
///
/// # Errors
/// [`UncertaintyError::TooFewItems`] for n < 3.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::spearman_null;
/// let m = spearman_null(10)?;
/// assert_eq!(m.mean.value, 0.0);
/// assert!((m.sd.value - 1.0 / 3.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
///
/// # References
/// Kendall (1948), ch. 5.
pub fn spearman_null(n: usize) -> Result<NullMoments, UncertaintyError> {
    check_len(n)?;
    Ok(NullMoments {
        mean: Estimate::exact(0.0),
        sd: Estimate::exact((1.0 / (n as f64 - 1.0)).sqrt()),
    })
}

/// Exact null moments of Kendall's τ-b, with the tie correction.
///
/// With tie groups of sizes t in x and u in y, S = C − D and
/// τ_b = S / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ = Σ t(t−1)/2,
/// n₂ = Σ u(u−1)/2:
///
/// ```text
/// E[τ_b] = 0
/// Var[S] = [n(n−1)(2n+5) − Σ t(t−1)(2t+5) − Σ u(u−1)(2u+5)] / 18
///        + [Σ t(t−1)(t−2)] [Σ u(u−1)(u−2)] / [9 n(n−1)(n−2)]
///        + [Σ t(t−1)] [Σ u(u−1)] / [2 n(n−1)]
/// Var[τ_b] = Var[S] / ((n₀ − n₁)(n₀ − n₂))   = 2(2n+5)/(9n(n−1)) without ties
/// ```
///
/// # Errors
/// Length mismatch, n < 3, NaN or infinite scores,
/// [`Error::Constant`](crate::CorrelationError::Constant) when an input is constant.
///
/// # Complexity
/// O(n log n).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::kendall_tau_b_null;
/// let m = kendall_tau_b_null(&[1.0, 2.0, 3.0, 4.0], &[2.0, 1.0, 4.0, 3.0])?;
/// // No ties, n = 4: Var = 2·13/(9·4·3) = 13/54.
/// assert!((m.sd.value - (13.0f64 / 54.0).sqrt()).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
///
/// # References
/// Kendall (1948), ch. 4, the variance of S with ties in both rankings.
pub fn kendall_tau_b_null<F: Float>(x: &[F], y: &[F]) -> Result<NullMoments, UncertaintyError> {
    let (x, y) = super::to_f64_pair(x, y)?;
    let a = rank(&x, Order::LargerIsBetter, Ties::Average)?;
    let b = rank(&y, Order::LargerIsBetter, Ties::Average)?;
    let (mean, sd) = kendall_tau_b_null_of_ranks(&a, &b).ok_or(if is_constant(&a) {
        crate::CorrelationError::Constant { input: "x" }
    } else {
        crate::CorrelationError::Constant { input: "y" }
    })?;
    Ok(NullMoments {
        mean: Estimate::exact(mean),
        sd: Estimate::exact(sd),
    })
}

fn is_constant(v: &[f64]) -> bool {
    v.windows(2).all(|w| w[0] == w[1])
}

/// Sums over tie groups: (Σ t(t−1), Σ t(t−1)(t−2), Σ t(t−1)(2t+5)).
fn tie_sums(v: &[f64]) -> [f64; 3] {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let mut sums = [0.0; 3];
    let mut start = 0;
    while start < s.len() {
        let end = start + s[start..].iter().take_while(|&&v| v == s[start]).count();
        let t = (end - start) as f64;
        sums[0] += t * (t - 1.0);
        sums[1] += t * (t - 1.0) * (t - 2.0);
        sums[2] += t * (t - 1.0) * (2.0 * t + 5.0);
        start = end;
    }
    sums
}

/// (mean, sd) of τ-b under permutation, from the ranks; `None` when an
/// input is constant or n < 3.
pub(crate) fn kendall_tau_b_null_of_ranks(a: &[f64], b: &[f64]) -> Option<(f64, f64)> {
    let n = a.len() as f64;
    if a.len() < 3 || a.len() != b.len() {
        return None;
    }
    let (t, u) = (tie_sums(a), tie_sums(b));
    let var_s = (n * (n - 1.0) * (2.0 * n + 5.0) - t[2] - u[2]) / 18.0
        + t[1] * u[1] / (9.0 * n * (n - 1.0) * (n - 2.0))
        + t[0] * u[0] / (2.0 * n * (n - 1.0));
    let n0 = n * (n - 1.0) / 2.0;
    let denominator = (n0 - t[0] / 2.0) * (n0 - u[0] / 2.0);
    (denominator > 0.0).then(|| (0.0, (var_s / denominator).sqrt()))
}

/// Null mean and SD of any statistic under random permutations of `y`:
/// exact where the statistic knows a closed form
/// ([`Statistic::exact_null`]), otherwise estimated from `permutations`
/// random permutations (with all cores; see [`Permutations`] for more
/// control).
///
/// ```text
/// mean ≈ m̄ = (1/m) Σ_k t_k,      SE = s/√m
/// SD   ≈ s = √(Σ_k (t_k − m̄)²/(m − 1)),   SE ≈ s/√(2(m − 1))  (normal approximation)
/// ```
///
/// For the paper's ρ_w with additive weights (Eq. 9) the null mean is far
/// from 0 (about −0.6 at n = 990 items, n0 = 2): read ρ_w against it.
///
/// # Errors
/// [`UncertaintyError::TooFewReplicates`] for fewer than 2 permutations,
/// [`UncertaintyError::TooLarge`] for more than
/// [`Permutations::DEFAULT_MAX_REPLICATES`];
/// n < 3; invalid scores or a failing statistic.
///
/// # Complexity
/// One preparation, then `permutations` evaluations of the prepared
/// statistic (none when both moments are exact).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{null_moments, Source, TopWeightedRho};
/// use rand::SeedableRng;
/// let x: Vec<f64> = (0..50).map(f64::from).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let m = null_moments(&TopWeightedRho::new(), &x, &x, 500, &mut rng)?;
/// assert!(matches!(m.mean.source, Source::MonteCarlo { permutations: 500 }));
/// assert!(m.mean.value < -0.2); // additive weights: negative under the null
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
pub fn null_moments<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
    statistic: &S,
    x: &[F],
    y: &[F],
    permutations: usize,
    rng: &mut R,
) -> Result<NullMoments, UncertaintyError> {
    standardise(statistic, x, y, permutations, rng).map(|s| s.null)
}

seeded! {
    /// [`null_moments`] with a seed in place of the generator: the permutations
    /// come from a ChaCha8 generator seeded by `seed`, the same in every release
    /// (see [Random numbers and seeds](crate#random-numbers-and-seeds)).
    ///
    /// # Errors
    /// As [`null_moments`].
    ///
    /// # Complexity
    /// As [`null_moments`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{null_moments_seeded, TopWeightedRho};
    /// let x: Vec<f64> = (0..50).map(f64::from).collect();
    /// let m = null_moments_seeded(&TopWeightedRho::new(), &x, &x, 500, 3)?;
    /// assert!(m.mean.value < -0.2); // additive weights: negative under the null
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn null_moments_seeded<S, F>(statistic: &S, x: &[F], y: &[F], permutations: usize)
        -> NullMoments = null_moments
        where { S: Statistic + ?Sized, F: Float }
}

/// The coefficient, its null moments ([`null_moments`]) and
/// `z = (value − null mean)/null SD`.
///
/// The z-score is unbounded and measures distance from chance in null
/// standard deviations. For a correlation-like reading on [−1, 1] with
/// chance at 0, see the standardised scale of Lombardo (2025),
/// [`Standardiser`](crate::Standardiser) and
/// [`TopWeighted::rho_standardised`](crate::TopWeighted::rho_standardised).
///
/// # Errors
/// As [`null_moments`]; [`UncertaintyError::Degenerate`] when the null SD
/// is 0.
///
/// # Complexity
/// As [`null_moments`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{standardise, Spearman};
/// use rand::SeedableRng;
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0];
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let s = standardise(&Spearman, &x, &x, 100, &mut rng)?;
/// // ρ = 1, null SD = 1/√4: z = 2.
/// assert!((s.z - 2.0).abs() < 1e-12);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
pub fn standardise<S: Statistic + ?Sized, F: Float, R: Rng + ?Sized>(
    statistic: &S,
    x: &[F],
    y: &[F],
    permutations: usize,
    rng: &mut R,
) -> Result<Standardised, UncertaintyError> {
    Permutations::new(permutations).standardise(statistic, x, y, rng)
}

seeded! {
    /// [`standardise`] with a seed in place of the generator, as
    /// [`null_moments_seeded`].
    ///
    /// # Errors
    /// As [`standardise`].
    ///
    /// # Complexity
    /// As [`null_moments`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::{standardise_seeded, Spearman};
    /// let x = [1.0, 2.0, 3.0, 4.0, 5.0];
    /// let s = standardise_seeded(&Spearman, &x, &x, 100, 3)?;
    /// assert!((s.z - 2.0).abs() < 1e-12); // ρ = 1, null SD = 1/√4
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn standardise_seeded<S, F>(statistic: &S, x: &[F], y: &[F], permutations: usize)
        -> Standardised = standardise
        where { S: Statistic + ?Sized, F: Float }
}

/// Combines exact moments with the Monte-Carlo moments of the permuted
/// values `t` (none when both are exact).
pub(crate) fn moments_from(
    exact: super::ExactNull,
    t: &super::engine::Moments,
) -> Result<NullMoments, UncertaintyError> {
    let m = t.count();
    let source = Source::MonteCarlo { permutations: m };
    let mc = |need: bool| -> Result<(f64, f64), UncertaintyError> {
        if !need {
            return Ok((0.0, 0.0));
        }
        super::check_replicates("permutations", 2, m)?;
        Ok((t.mean(), t.sd()))
    };
    let (mean, sd) = mc(exact.mean.is_none() || exact.sd.is_none())?;
    let m = m as f64;
    Ok(NullMoments {
        mean: exact.mean.map_or(
            Estimate {
                value: mean,
                standard_error: sd / m.sqrt(),
                source,
            },
            Estimate::exact,
        ),
        sd: exact.sd.map_or(
            Estimate {
                value: sd,
                standard_error: sd / (2.0 * (m - 1.0)).sqrt(),
                source,
            },
            Estimate::exact,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kendall_null_without_ties_is_the_textbook_formula() {
        for n in [3usize, 10, 1000] {
            let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let m = kendall_tau_b_null(&x, &x).unwrap();
            let n = n as f64;
            let var = 2.0 * (2.0 * n + 5.0) / (9.0 * n * (n - 1.0));
            assert!((m.sd.value - var.sqrt()).abs() < 1e-14);
        }
    }

    #[test]
    fn errors() {
        assert_eq!(
            spearman_null(2),
            Err(UncertaintyError::TooFewItems { needed: 3, got: 2 })
        );
        assert_eq!(
            kendall_tau_b_null(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
            Err(UncertaintyError::Statistic(
                crate::CorrelationError::Constant { input: "x" }
            ))
        );
        assert_eq!(
            kendall_tau_b_null(&[1.0, 2.0, 3.0], &[1.0, 2.0, f64::NAN]),
            Err(UncertaintyError::Statistic(crate::CorrelationError::NaN {
                input: "y",
                index: 2
            }))
        );
    }
}
