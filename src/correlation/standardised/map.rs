//! The standardising map g of Lombardo (2025): piecewise quadratic, joined
//! at the null mean, zero mean under the null.

use super::{GammaMoments, StandardisedError};

/// Below this distance |V_ℓ − V(1 + Γ̄)/2| the zero-mean condition is
/// treated as not involving the slope g₁ (the author's threshold).
pub const DEGENERATE_TOLERANCE: f64 = 1e-4;

/// Which rule fixed (g₀, g₁); see [`Standardiser`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Branch {
    /// |V_ℓ − V(1 + Γ̄)/2| ≥ 10⁻⁴: g₀ is the admissible value closest to 0.
    Regular,
    /// |V_ℓ − V(1 + Γ̄)/2| < 10⁻⁴: g₁ is the admissible slope closest to 1.
    Degenerate,
}

/// The coefficients of the standardising map g; see [`Standardiser`].
///
/// ```text
/// g(x) = g₀ + g₁(x − Γ̄) + g₂(x − Γ̄)²   for x < Γ̄
/// g(x) = g₀ + g₁(x − Γ̄) + h₂(x − Γ̄)²   for x ≥ Γ̄
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MapCoefficients {
    /// The null mean Γ̄ where the two pieces join.
    pub mean: f64,
    /// g(Γ̄): the value closest to 0 that monotonicity allows (E[g(Γ)] = 0,
    /// not g(Γ̄) = 0, is the defining condition).
    pub g0: f64,
    /// The slope g′(Γ̄).
    pub g1: f64,
    /// The curvature of the left piece (x < Γ̄).
    pub g2: f64,
    /// The curvature of the right piece (x ≥ Γ̄).
    pub h2: f64,
    /// Which rule fixed g₀ and g₁.
    pub branch: Branch,
}

serde_mirror! {
    /// Maps a coefficient Γ ∈ [−1, 1] onto the standardised scale g(Γ) ∈ [−1, 1]
    /// of Lombardo (2025): 0 is what unrelated rankings give on average
    /// (E[g(Γ)] = 0 under the null), ±1 stay identical/reversed rankings, and
    /// the order of values is kept (g is increasing).
    ///
    /// Built from the null moments Γ̄, V, V_ℓ ([`GammaMoments`]). With
    /// L = 1 + Γ̄, R = 1 − Γ̄:
    ///
    /// ```text
    /// g(x) = g₀ + g₁(x − Γ̄) + g₂(x − Γ̄)²   for x < Γ̄
    /// g(x) = g₀ + g₁(x − Γ̄) + h₂(x − Γ̄)²   for x ≥ Γ̄
    ///
    /// boundary  g(−1) = −1, g(1) = 1:   g₂ = (g₁L − 1 − g₀)/L²,   h₂ = (1 − g₀ − g₁R)/R²
    /// zero mean E[g(Γ)] = g₀ + g₂V_ℓ + h₂(V − V_ℓ) = 0:
    ///           k·g₀ + c·g₁ = a − b,   a = V_ℓ/L², b = (V − V_ℓ)/R², k = 1 − a − b > 0,
    ///                                   c = V_ℓ/L − (V − V_ℓ)/R = 2(V_ℓ − V·L/2)/(L·R)
    /// increasing on [−1, 1] (g′ is linear on each piece, so check it at −1, Γ̄, 1):
    ///           0 ≤ g₁ ≤ min(2(1 + g₀)/L, 2(1 − g₀)/R)
    /// ```
    ///
    /// * Regular branch, |V_ℓ − V·L/2| ≥ 10⁻⁴: g₁ = (a − b − k·g₀)/c. The
    ///   three inequalities, each linear in g₀, give an interval [lo, hi]:
    ///   ```text
    ///   g₁ ≥ 0:             (k/c)·g₀          ≤ (a − b)/c
    ///   g₁ ≤ 2(1 + g₀)/L:   −(k/c + 2/L)·g₀   ≤ 2/L − (a − b)/c
    ///   g₁ ≤ 2(1 − g₀)/R:   (2/R − k/c)·g₀    ≤ 2/R − (a − b)/c
    ///   ```
    ///   and g₀ = clamp(0, lo, hi): the value closest to 0, so that g(Γ̄) = 0
    ///   whenever monotonicity allows.
    /// * Degenerate branch, |V_ℓ − V·L/2| < 10⁻⁴ (c ≈ 0: the zero-mean
    ///   condition barely involves g₁; the author's threshold): g₁ is the
    ///   admissible slope closest to 1, g₁ = clamp(1, lo′, hi′) with the same
    ///   inequalities written in g₁ via g₀ = (a − b − c·g₁)/k. The author
    ///   takes g₀ = (a − b)/k there; solving the zero-mean condition with the
    ///   chosen g₁ instead keeps E[g(Γ)] = 0 exact and agrees with the author
    ///   when c = 0. For a symmetric coefficient (Γ̄ = 0, V_ℓ = V/2) this gives
    ///   g₀ = 0, g₁ = 1, g₂ = h₂ = 0: the identity.
    ///
    /// When the interval of the regular branch excludes 0, g₀ sits at one of
    /// its ends, where one inequality is tight: g₁ = 0 (g is then flat at Γ̄,
    /// still strictly increasing, and squeezes values near chance towards g₀ —
    /// e.g. the paper's τ_w for 5 ≤ n ≤ 11) or g′(±1) = 0. This is the paper's
    /// rule, kept as published.
    ///
    /// In the degenerate case with c = 0 exactly the zero-mean condition gives
    /// g₀ = −V·Γ̄/(1 − Γ̄² − V) (with g₁ = 1: g₂ = (Γ̄ − g₀)/L², h₂ = (Γ̄ − g₀)/R²,
    /// so E\[g\] = g₀ + (Γ̄ − g₀)(a + b) = 0 and a + b = V/(LR)); the author's
    /// published script has +V·Γ̄ there, which breaks E[g(Γ)] = 0.
    ///
    /// A solution exists for every permutation null; only distributions close
    /// to two atoms at −1 and 1 have none
    /// ([`StandardisedError::NoIncreasingMap`]). Not to be confused with the
    /// z-score of `uncertainty::standardise` (feature `uncertainty`), which
    /// divides by the null standard deviation and is unbounded.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, Standardiser, TopWeighted};
    /// // Exact null moments of additive ρ_w, f(n) = 1/(n + 2)², n = 5 (published
    /// // by Lombardo 2025 as −0.07584266073281484, 0.2824562853238909, 0.12817678208868818).
    /// let g = Standardiser::from_moments(-0.07584266073281484, 0.2824562853238909, 0.12817678208868818)?;
    /// assert_eq!(g.standardised(1.0)?, 1.0);
    /// assert_eq!(g.standardised(-1.0)?, -1.0);
    /// // Over all 120 permutations the standardised values average 0.
    /// let values = TopWeighted::new().null_distribution_exact(Coefficient::Rho, 5)?;
    /// let mut mean = 0.0;
    /// for v in &values {
    ///     mean += g.standardised(*v)? / values.len() as f64;
    /// }
    /// assert!(mean.abs() < 1e-14);
    /// // A symmetric coefficient is left alone.
    /// let spearman = Standardiser::from_moments(0.0, 0.25, 0.125)?;
    /// assert_eq!(spearman.standardised(0.3)?, 0.3);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    ///
    /// # References
    /// P. Lombardo (2025). *Standardization of Weighted Ranking Correlation
    /// Coefficients.* arXiv:2504.08428.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Standardiser {
        pub(super) moments: GammaMoments,
        pub(super) map: MapCoefficients,
    }
    read through "super::repr::StandardiserRepr"
}

impl Standardiser {
    /// The map for these null moments.
    ///
    /// # Errors
    /// [`StandardisedError::NoIncreasingMap`] when no admissible (g₀, g₁)
    /// exists (never for a permutation null).
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, Standardiser, TopWeighted};
    /// let moments = TopWeighted::new().null_exact(Coefficient::Rho, 6)?;
    /// let g = Standardiser::new(moments)?;
    /// assert!(g.standardised(0.5)? > g.standardised(0.4)?);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn new(moments: GammaMoments) -> Result<Self, StandardisedError> {
        let map = solve(
            moments.mean.value,
            moments.variance.value,
            moments.left_variance.value,
        )?;
        Ok(Self { moments, map })
    }

    /// The map for moments you give (validated as in [`GammaMoments::given`]).
    ///
    /// # Errors
    /// [`StandardisedError::InvalidMoments`],
    /// [`StandardisedError::NoIncreasingMap`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::Standardiser;
    /// assert!(Standardiser::from_moments(0.0, 0.0, 0.0).is_err()); // V = 0
    /// let g = Standardiser::from_moments(-0.6, 0.01, 0.004)?;
    /// // g(Γ̄) = g₀ is not exactly 0: E[g(Γ)] = 0, not g(E[Γ]) = 0.
    /// assert!(g.standardised(-0.6)?.abs() < 0.05);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn from_moments(
        mean: f64,
        variance: f64,
        left_variance: f64,
    ) -> Result<Self, StandardisedError> {
        Self::new(GammaMoments::given(mean, variance, left_variance)?)
    }

    /// g(Γ): the value on the standardised scale.
    ///
    /// ```text
    /// g(Γ) = g₀ + (Γ − Γ̄)·(g₁ + q·(Γ − Γ̄)),   q = g₂ left of Γ̄, h₂ right of it
    /// ```
    ///
    /// g(±1) = ±1 exactly; results are clamped to [−1, 1] against rounding.
    ///
    /// # Errors
    /// [`StandardisedError::CoefficientOutOfRange`] for NaN or a value
    /// outside [−1, 1].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::Standardiser;
    /// let g = Standardiser::from_moments(-0.6, 0.01, 0.004)?;
    /// // ρ_w = −0.5 is above what chance gives (−0.6): positive on the standardised scale.
    /// assert!(g.standardised(-0.5)? > 0.0);
    /// assert!(g.standardised(1.5).is_err());
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn standardised(&self, gamma: f64) -> Result<f64, StandardisedError> {
        if at_end(gamma)? {
            return Ok(gamma);
        }
        let m = &self.map;
        let d = gamma - m.mean;
        let q = if d < 0.0 { m.g2 } else { m.h2 };
        Ok((m.g0 + d * (m.g1 + q * d)).clamp(-1.0, 1.0))
    }

    /// g⁻¹(s): the raw coefficient that maps to `s` on the standardised
    /// scale, e.g. to translate a threshold back.
    ///
    /// ```text
    /// Δ = s − g₀,   Γ = Γ̄ + 2Δ / (g₁ + √(g₁² + 4qΔ)),   q = g₂ if Δ < 0 else h₂
    /// ```
    ///
    /// # Errors
    /// [`StandardisedError::CoefficientOutOfRange`] for NaN or a value
    /// outside [−1, 1].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::Standardiser;
    /// let g = Standardiser::from_moments(-0.6, 0.01, 0.004)?;
    /// let raw = g.inverse(0.5)?;
    /// assert!((g.standardised(raw)? - 0.5).abs() < 1e-12);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn inverse(&self, standardised: f64) -> Result<f64, StandardisedError> {
        let s = standardised;
        if at_end(s)? {
            return Ok(s);
        }
        let m = &self.map;
        let delta = s - m.g0;
        let q = if delta < 0.0 { m.g2 } else { m.h2 };
        let disc = (m.g1 * m.g1 + 4.0 * q * delta).max(0.0);
        let denominator = m.g1 + disc.sqrt();
        let d = if denominator > 0.0 {
            2.0 * delta / denominator
        } else {
            // g₁ = 0 and g′ = 0 at the root: only Γ̄ itself maps to g₀.
            0.0
        };
        Ok((m.mean + d).clamp(-1.0, 1.0))
    }

    /// The coefficients g₀, g₁, g₂, h₂ and the branch.
    #[must_use]
    pub fn coefficients(&self) -> MapCoefficients {
        self.map
    }

    /// The null moments the map was built from.
    #[must_use]
    pub fn moments(&self) -> &GammaMoments {
        &self.moments
    }
}

/// Whether a coefficient is an end of [−1, 1], which the map and its inverse
/// both leave in place.
///
/// # Errors
/// [`StandardisedError::CoefficientOutOfRange`] for NaN or a value outside
/// [−1, 1].
fn at_end(value: f64) -> Result<bool, StandardisedError> {
    if !(-1.0..=1.0).contains(&value) {
        return Err(StandardisedError::CoefficientOutOfRange { value });
    }
    Ok(value == 1.0 || value == -1.0)
}

/// An interval of admissible values, narrowed by constraints `p·t ≤ q`.
#[derive(Debug, Clone, Copy)]
struct Interval {
    lo: f64,
    hi: f64,
}

impl Interval {
    fn constrain(&mut self, p: f64, q: f64) {
        if p > 0.0 {
            self.hi = self.hi.min(q / p);
        } else if p < 0.0 {
            self.lo = self.lo.max(q / p);
        } else if q < 0.0 {
            // 0 ≤ q fails for every t.
            self.lo = f64::INFINITY;
        }
    }

    /// The admissible value closest to `t`, allowing rounding-level overlap.
    fn closest(&self, t: f64) -> Option<f64> {
        if self.lo > self.hi + 1e-12 || self.lo.is_nan() || self.hi.is_nan() {
            return None;
        }
        if self.lo > self.hi {
            return Some(0.5 * (self.lo + self.hi));
        }
        Some(t.clamp(self.lo, self.hi))
    }
}

/// Solves for the map coefficients; the moments are already validated.
pub(crate) fn solve(
    mean: f64,
    variance: f64,
    left_variance: f64,
) -> Result<MapCoefficients, StandardisedError> {
    let none = StandardisedError::NoIncreasingMap {
        mean,
        variance,
        left_variance,
    };
    let (l, r) = (1.0 + mean, 1.0 - mean);
    let right_variance = variance - left_variance;
    let a = left_variance / (l * l);
    let b = right_variance / (r * r);
    let k = 1.0 - a - b;
    let rhs = a - b;
    let c = left_variance / l - right_variance / r;
    let degenerate = (left_variance - 0.5 * variance * l).abs() < DEGENERATE_TOLERANCE;
    let (g0, g1, branch) = if degenerate {
        // g₀ = (rhs − c·g₁)/k; constraints in g₁:
        // g₁ ≥ 0;  g₁·(L + 2c/k) ≤ 2 + 2·rhs/k;  g₁·(R − 2c/k) ≤ 2 − 2·rhs/k.
        let mut g1 = Interval {
            lo: 0.0,
            hi: f64::INFINITY,
        };
        g1.constrain(l + 2.0 * c / k, 2.0 + 2.0 * rhs / k);
        g1.constrain(r - 2.0 * c / k, 2.0 - 2.0 * rhs / k);
        let g1 = g1.closest(1.0).ok_or(none)?;
        if g1 <= 0.0 {
            return Err(none);
        }
        ((rhs - c * g1) / k, g1, Branch::Degenerate)
    } else {
        let mut g0 = Interval { lo: -1.0, hi: 1.0 };
        g0.constrain(k / c, rhs / c);
        g0.constrain(-(k / c + 2.0 / l), 2.0 / l - rhs / c);
        g0.constrain(2.0 / r - k / c, 2.0 / r - rhs / c);
        let g0 = g0.closest(0.0).ok_or(none)?;
        let g1 = ((rhs - k * g0) / c).max(0.0);
        (g0, g1, Branch::Regular)
    };
    if !(g0 > -1.0 && g0 < 1.0 && g1.is_finite()) {
        return Err(none);
    }
    Ok(MapCoefficients {
        mean,
        g0,
        g1,
        g2: (g1 * l - 1.0 - g0) / (l * l),
        h2: (1.0 - g0 - g1 * r) / (r * r),
        branch,
    })
}
