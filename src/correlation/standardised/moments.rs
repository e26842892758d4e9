//! The three null moments that define the standardised scale.

use super::StandardisedError;

/// Where a null moment comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum MomentSource {
    /// Enumeration of all n! permutations (exact up to rounding).
    Exact,
    /// A Monte-Carlo estimate from this many random permutations.
    MonteCarlo {
        /// Number of permutations drawn.
        permutations: usize,
    },
    /// The crate's built-in table: a Monte-Carlo grid point or an
    /// interpolation between grid points (past the last one, its converged
    /// limit); the standard error includes the interpolation error bound.
    Table,
    /// Supplied by the caller (e.g. values published in a paper).
    Given,
}

serde_mirror! {
    /// One null moment with its standard error and origin.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct MomentEstimate {
        /// The value.
        pub value: f64,
        /// Its standard error (0 for exact and given values).
        pub standard_error: f64,
        /// Where it comes from.
        pub source: MomentSource,
    }
    read through "super::repr::MomentEstimateRepr"
}

impl MomentEstimate {
    pub(crate) fn new(value: f64, standard_error: f64, source: MomentSource) -> Self {
        Self {
            value,
            standard_error,
            source,
        }
    }
}

serde_mirror! {
    /// The null mean Γ̄, variance V and left variance V_ℓ of a coefficient
    /// Γ ∈ [−1, 1] when one ranking is a uniformly random permutation of the
    /// other (Lombardo 2025, §2):
    ///
    /// ```text
    /// Γ̄   = E[Γ]
    /// V   = E[(Γ − Γ̄)²]
    /// V_ℓ = E[(Γ − Γ̄)² · 1{Γ < Γ̄}]          0 ≤ V_ℓ ≤ V
    /// ```
    ///
    /// They define the [`Standardiser`](super::Standardiser). Get them exactly
    /// ([`TopWeighted::null_exact`](crate::TopWeighted::null_exact), n ≤ 11),
    /// from the built-in table
    /// ([`TopWeighted::null_table`](crate::TopWeighted::null_table)), by Monte
    /// Carlo (feature `uncertainty`, `uncertainty::GammaMonteCarlo`), or bring
    /// your own ([`GammaMoments::given`]).
    ///
    /// Not to be confused with `uncertainty::NullMoments` (mean and standard
    /// deviation for the z-score `uncertainty::standardise`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct GammaMoments {
        /// The null mean Γ̄.
        pub mean: MomentEstimate,
        /// The null variance V.
        pub variance: MomentEstimate,
        /// The null left variance V_ℓ.
        pub left_variance: MomentEstimate,
    }
    read through "super::repr::GammaMomentsRepr"
}

impl GammaMoments {
    /// Moments you computed elsewhere (source [`MomentSource::Given`]),
    /// validated as moments of a non-constant variable on [−1, 1].
    ///
    /// ```text
    /// |Γ̄| < 1,   V > 0,   0 ≤ V_ℓ ≤ V,
    /// V_ℓ/(1 + Γ̄)² + (V − V_ℓ)/(1 − Γ̄)² < 1
    /// ```
    ///
    /// The last condition holds for every distribution on [−1, 1] except
    /// two atoms at −1 and 1 (each side's squared deviation is at most the
    /// squared distance to its end point).
    ///
    /// # Errors
    /// [`StandardisedError::InvalidMoments`] naming the failed condition.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::GammaMoments;
    /// // Exact values for additive ρ_w, f(n) = 1/(n + 2)², n = 5.
    /// let m = GammaMoments::given(-0.07584266073281484, 0.2824562853238909, 0.12817678208868818)?;
    /// assert_eq!(m.mean.standard_error, 0.0);
    /// assert!(GammaMoments::given(0.0, 0.1, 0.2).is_err()); // V_ℓ > V
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn given(mean: f64, variance: f64, left_variance: f64) -> Result<Self, StandardisedError> {
        Self::from_parts(mean, variance, left_variance, [0.0; 3], MomentSource::Given)
    }

    /// Validated moments with standard errors and one source.
    pub(crate) fn from_parts(
        mean: f64,
        variance: f64,
        left_variance: f64,
        standard_errors: [f64; 3],
        source: MomentSource,
    ) -> Result<Self, StandardisedError> {
        validate(mean, variance, left_variance)?;
        Ok(Self {
            mean: MomentEstimate::new(mean, standard_errors[0], source),
            variance: MomentEstimate::new(variance, standard_errors[1], source),
            left_variance: MomentEstimate::new(left_variance, standard_errors[2], source),
        })
    }

    /// The null standard deviation √V.
    #[must_use]
    pub fn sd(&self) -> f64 {
        self.variance.value.sqrt()
    }
}

/// Checks that (Γ̄, V, V_ℓ) can be the moments of a non-constant variable
/// on [−1, 1].
pub(crate) fn validate(
    mean: f64,
    variance: f64,
    left_variance: f64,
) -> Result<(), StandardisedError> {
    let fail = |reason| StandardisedError::InvalidMoments {
        mean,
        variance,
        left_variance,
        reason,
    };
    if !(mean.is_finite() && variance.is_finite() && left_variance.is_finite()) {
        return Err(fail("every moment must be finite"));
    }
    if mean.abs() >= 1.0 {
        return Err(fail("the mean must lie in (-1, 1)"));
    }
    if variance <= 0.0 {
        return Err(fail("the variance must be positive"));
    }
    if !(0.0..=variance).contains(&left_variance) {
        return Err(fail("the left variance must lie in [0, variance]"));
    }
    let (l, r) = (1.0 + mean, 1.0 - mean);
    if left_variance / (l * l) + (variance - left_variance) / (r * r) >= 1.0 {
        return Err(fail(
            "the variance is too large for a variable in [-1, 1] with this mean",
        ));
    }
    Ok(())
}
