//! The standardised scale in the top-weighted API: null moments and
//! standardised values next to [`TopWeighted::rho`] and [`TopWeighted::tau`].

use super::{
    Coefficient, GammaMoments, MapCoefficients, MomentSource, StandardisedError, Standardiser,
};
use crate::correlation::weighted::{RhoW, TauW, TopWeighted, rho_w_normalised};
use crate::weigh::Weigher;
use num_traits::Float;

serde_mirror! {
    /// ρ_w on the standardised scale, with the raw value and the null it was
    /// standardised against.
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct StandardisedRho {
        /// g(ρ_w) ∈ [−1, 1]: 0 = what unrelated rankings give on average,
        /// ±1 = identical / reversed rankings.
        pub value: f64,
        /// The raw coefficient.
        pub rho: RhoW,
        /// The null moments behind the map.
        pub moments: GammaMoments,
        /// The map's coefficients.
        pub map: MapCoefficients,
        /// Whether either ranking has ties. The built-in table and the exact
        /// moments are those of untied rankings, an approximation of the
        /// permutation null of tied data; Monte Carlo on the data
        /// (`uncertainty::GammaMonteCarlo::rho_standardised`) keeps the ties.
        pub ties: bool,
    }
    read through "super::repr::StandardisedRhoRepr"
}

serde_mirror! {
    /// τ_w on the standardised scale; see [`StandardisedRho`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct StandardisedTau {
        /// g(τ_w) ∈ [−1, 1]: 0 = what unrelated rankings give on average,
        /// ±1 = identical / reversed rankings.
        pub value: f64,
        /// The raw coefficient.
        pub tau: TauW,
        /// The null moments behind the map.
        pub moments: GammaMoments,
        /// The map's coefficients.
        pub map: MapCoefficients,
        /// Whether either ranking has ties (see [`StandardisedRho::ties`]).
        pub ties: bool,
    }
    read through "super::repr::StandardisedTauRepr"
}

impl StandardisedRho {
    /// Standardises a computed ρ_w with a map.
    pub(crate) fn new(
        rho: RhoW,
        standardiser: &Standardiser,
        ties: bool,
    ) -> Result<Self, StandardisedError> {
        Ok(Self {
            value: standardiser.standardised(rho.rho)?,
            rho,
            moments: *standardiser.moments(),
            map: standardiser.coefficients(),
            ties,
        })
    }
}

impl StandardisedTau {
    /// Standardises a computed τ_w with a map.
    pub(crate) fn new(
        tau: TauW,
        standardiser: &Standardiser,
        ties: bool,
    ) -> Result<Self, StandardisedError> {
        Ok(Self {
            value: standardiser.standardised(tau.tau)?,
            tau,
            moments: *standardiser.moments(),
            map: standardiser.coefficients(),
            ties,
        })
    }
}

/// Whether a validated rank vector has ties: untied ranks are exactly the
/// integers 1..=n.
pub(crate) fn has_ties(ranks: &[f64]) -> bool {
    let n = ranks.len();
    let mut seen = vec![false; n];
    for &r in ranks {
        let slot = r - 1.0;
        if slot.fract() != 0.0 || !(0.0..n as f64).contains(&slot) || seen[slot as usize] {
            return true;
        }
        seen[slot as usize] = true;
    }
    false
}

impl<W: Weigher> TopWeighted<W> {
    /// Exact null moments (Γ̄, V, V_ℓ) of ρ_w or τ_w for two untied
    /// rankings of `n` items, by enumerating all n! permutations.
    ///
    /// ```text
    /// Γ̄ = (1/n!) Σ_π Γ(id, π),  V = (1/n!) Σ_π (Γ − Γ̄)²,  V_ℓ = (1/n!) Σ_{π: Γ<Γ̄} (Γ − Γ̄)²
    /// ```
    ///
    /// Only the weigher and the scheme matter (the tie method and score
    /// orders do not act on untied ranks).
    ///
    /// # Errors
    /// [`StandardisedError::TooFewItems`] for n < 3;
    /// [`StandardisedError::TooManyForExact`] for n > 11; a bad weigher
    /// ([`StandardisedError::Correlation`]).
    ///
    /// # Complexity
    /// O(n!) for ρ_w, O(n·n!) for τ_w, O(n²) memory: n = 10 takes about
    /// 0.1 s (ρ_w) and 1 s (τ_w), n = 11 ten times that.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, TopWeighted};
    /// // Published exact value (Lombardo 2025): additive 1/(n + 2)², ρ_w, n = 5.
    /// let m = TopWeighted::new().null_exact(Coefficient::Rho, 5)?;
    /// assert!((m.mean.value - -0.07584266073281484).abs() < 1e-15);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn null_exact(
        &self,
        coefficient: Coefficient,
        n: usize,
    ) -> Result<GammaMoments, StandardisedError> {
        let [mean, variance, left] = super::exact::moments(
            n,
            self.weighting_function(),
            self.weighting_scheme(),
            coefficient,
        )?;
        GammaMoments::from_parts(mean, variance, left, [0.0; 3], MomentSource::Exact)
    }

    /// The whole null distribution: Γ(id, π) for every permutation π of
    /// n ≤ 10 untied items, in enumeration order (n! values).
    ///
    /// # Errors
    /// [`StandardisedError::TooFewItems`] for n < 3;
    /// [`StandardisedError::TooManyForExact`] for n > 10; a bad weigher.
    ///
    /// # Complexity
    /// As [`null_exact`](Self::null_exact), and n!·8 bytes (29 MB at n = 10).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, TopWeighted};
    /// let values = TopWeighted::new().null_distribution_exact(Coefficient::Tau, 4)?;
    /// assert_eq!(values.len(), 24);
    /// assert_eq!(values[0], 1.0); // the identity comes first
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn null_distribution_exact(
        &self,
        coefficient: Coefficient,
        n: usize,
    ) -> Result<Vec<f64>, StandardisedError> {
        if n > super::exact::MAX_DISTRIBUTION {
            return Err(StandardisedError::TooManyForExact {
                max: super::exact::MAX_DISTRIBUTION,
                got: n,
            });
        }
        let mut values = Vec::with_capacity((1..=n.max(1)).product());
        super::exact::for_each(
            n,
            self.weighting_function(),
            self.weighting_scheme(),
            coefficient,
            &mut |g| values.push(g),
        )?;
        Ok(values)
    }

    /// Null moments from the crate's built-in table: exact for n ≤ 11,
    /// interpolated between Monte-Carlo grid points above (see
    /// [`correlation::standardised`](crate::correlation::standardised) for
    /// the grid, what lies beyond it and the accuracy).
    ///
    /// The table covers the weighers 1/n and 1/(n + n0)² with n0 ∈ {0, 1, 2}
    /// (recognised by their values on ranks 1..n, so closures and
    /// [`Quadratic`](crate::Quadratic) count), additive and multiplicative
    /// schemes, ρ_w and τ_w.
    ///
    /// # Errors
    /// [`StandardisedError::TooFewItems`] for n < 3;
    /// [`StandardisedError::NotInTable`] for any other weigher or scheme;
    /// [`StandardisedError::BeyondTable`] for n beyond the table's range.
    ///
    /// # Complexity
    /// O(n) (recognising the weigher) + O(log grid).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, Hyperbolic, MomentSource, Scheme, TopWeighted};
    /// let m = TopWeighted::new().null_table(Coefficient::Rho, 990)?;
    /// assert!((m.mean.value + 0.60).abs() < 0.01); // unrelated rankings: ρ_w ≈ −0.60
    /// assert_eq!(m.mean.source, MomentSource::Table);
    /// let first = TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First);
    /// assert!(first.null_table(Coefficient::Rho, 990).is_err());
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn null_table(
        &self,
        coefficient: Coefficient,
        n: usize,
    ) -> Result<GammaMoments, StandardisedError> {
        super::table::lookup(
            self.weighting_function(),
            self.weighting_scheme(),
            coefficient,
            n,
        )
    }

    /// The standardising map for `n` untied items, from the built-in table
    /// ([`null_table`](Self::null_table)).
    ///
    /// # Errors
    /// As [`null_table`](Self::null_table).
    ///
    /// # Complexity
    /// As [`null_table`](Self::null_table).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{Coefficient, TopWeighted};
    /// let g = TopWeighted::new().standardiser(Coefficient::Tau, 100)?;
    /// assert_eq!(g.standardised(1.0)?, 1.0);
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn standardiser(
        &self,
        coefficient: Coefficient,
        n: usize,
    ) -> Result<Standardiser, StandardisedError> {
        Standardiser::new(self.null_table(coefficient, n)?)
    }

    /// ρ_w of two score vectors on the standardised scale, with the null
    /// moments from the built-in table ([`null_table`](Self::null_table)).
    ///
    /// ```text
    /// value = g(ρ_w),   E[g(ρ_w)] = 0 for unrelated rankings,   g(±1) = ±1
    /// ```
    ///
    /// # Errors
    /// As [`rho`](Self::rho) (wrapped in
    /// [`StandardisedError::Correlation`]) and
    /// [`null_table`](Self::null_table).
    ///
    /// # Complexity
    /// O(n log n), about the cost of [`rho`](Self::rho).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::TopWeighted;
    /// let human: Vec<f64> = (0..50).map(|i| f64::from(50 - i)).collect();
    /// let mut model = human.clone();
    /// model.swap(0, 30); // the model misplaces the top item
    /// let s = TopWeighted::new().rho_standardised(&human, &model)?;
    /// assert!(s.rho.rho < 0.4); // looks weak on the raw scale …
    /// assert!(s.value > s.rho.rho); // … but is far above chance (ρ_w ≈ −0.5 at n = 50)
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn rho_standardised<F: Float>(
        &self,
        x: &[F],
        y: &[F],
    ) -> Result<StandardisedRho, StandardisedError> {
        let (a, b, w) = self.ranks_and_weights(x, y)?;
        let rho = rho_w_normalised(&a, &b, &w)?;
        let g = self.standardiser(Coefficient::Rho, a.len())?;
        StandardisedRho::new(rho, &g, has_ties(&a) || has_ties(&b))
    }

    /// τ_w of two score vectors on the standardised scale; see
    /// [`rho_standardised`](Self::rho_standardised).
    ///
    /// # Errors
    /// As [`rho_standardised`](Self::rho_standardised).
    ///
    /// # Complexity
    /// O(n log n), about the cost of [`tau`](Self::tau).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::TopWeighted;
    /// let human = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0];
    /// let model = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
    /// let s = TopWeighted::new().tau_standardised(&human, &model)?;
    /// assert_eq!((s.tau.tau, s.value), (-1.0, -1.0));
    /// # Ok::<(), adaptive_comp_metrics::StandardisedError>(())
    /// ```
    pub fn tau_standardised<F: Float>(
        &self,
        x: &[F],
        y: &[F],
    ) -> Result<StandardisedTau, StandardisedError> {
        // τ_w as `tau` computes it (the kernel ranks the scores itself); its
        // tie sums tell whether either ranking has ties (every pair weight
        // of a table weigher is positive, and the sums are exact).
        let tau = self.tau(x, y)?;
        let g = self.standardiser(Coefficient::Tau, tau.n)?;
        let ties = tau.tied_a > 0.0 || tau.tied_b > 0.0;
        StandardisedTau::new(tau, &g, ties)
    }
}
