//! How the standardised scale prints: the null moments with their origin,
//! the map's coefficients, and standardised values beside the raw ones.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default, as every result of the crate.

use core::fmt;

use super::Coefficient;
use super::api::{StandardisedRho, StandardisedTau};
use super::map::{Branch, MapCoefficients, Standardiser};
use super::moments::{GammaMoments, MomentEstimate, MomentSource};
use crate::present::precision;

/// `ρ_w`, `τ_w`.
impl fmt::Display for Coefficient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Rho => "ρ_w",
            Self::Tau => "τ_w",
        })
    }
}

/// `exact`, `Monte Carlo, 20000 permutations`, `built-in table`, `given`.
impl fmt::Display for MomentSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exact => f.write_str("exact"),
            Self::MonteCarlo { permutations } => {
                write!(f, "Monte Carlo, {permutations} permutations")
            }
            Self::Table => f.write_str("built-in table"),
            Self::Given => f.write_str("given"),
        }
    }
}

/// `-0.0758 (exact)`, `-0.6012 (SE 0.0001; built-in table)`: the standard
/// error is left out when it is 0.
impl fmt::Display for MomentEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(f, "{:.d$} (", self.value)?;
        if self.standard_error > 0.0 {
            write!(f, "SE {:.d$}; ", self.standard_error)?;
        }
        write!(f, "{})", self.source)
    }
}

/// `null mean Γ̄ = -0.0758, variance V = 0.2825, left variance V_ℓ = 0.1282
/// (exact)`; with standard errors `Γ̄ = -0.6012 (SE 0.0001), …`, and each
/// moment's source when they differ.
impl fmt::Display for GammaMoments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let moments = [
            ("null mean Γ̄", &self.mean),
            ("variance V", &self.variance),
            ("left variance V_ℓ", &self.left_variance),
        ];
        let one_source = self.mean.source == self.variance.source
            && self.mean.source == self.left_variance.source;
        for (i, (name, m)) in moments.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            if one_source {
                write!(f, "{sep}{name} = {:.d$}", m.value)?;
                if m.standard_error > 0.0 {
                    write!(f, " (SE {:.d$})", m.standard_error)?;
                }
            } else {
                write!(f, "{sep}{name} = {m:.d$}")?;
            }
        }
        if one_source {
            write!(f, " ({})", self.mean.source)?;
        }
        Ok(())
    }
}

display_line!(
    /// `g₀ = 0.0000, g₁ = 1.2000, g₂ = 0.1000, h₂ = -0.3000 at Γ̄ = -0.6000
    /// (regular branch)`.
    MapCoefficients,
    |self, d| "g₀ = {:.d$}, g₁ = {:.d$}, g₂ = {:.d$}, h₂ = {:.d$} at Γ̄ = {:.d$} ({} branch)",
    self.g0,
    self.g1,
    self.g2,
    self.h2,
    self.mean,
    match self.branch {
        Branch::Regular => "regular",
        Branch::Degenerate => "degenerate",
    }
);

display_line!(
    /// `map g₀ = …, g₁ = …, g₂ = …, h₂ = … at Γ̄ = … (regular branch); null mean
    /// Γ̄ = …, variance V = …, left variance V_ℓ = … (exact)`.
    Standardiser,
    |self, d| "map {:.d$}; {:.d$}", self.map, self.moments
);

/// The standardised value, then the raw one and the chance level it was
/// measured against.
fn standardised(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    value: f64,
    raw: f64,
    n: usize,
    moments: &GammaMoments,
    ties: bool,
) -> fmt::Result {
    let d = precision(f);
    write!(
        f,
        "standardised {name} = {value:.d$} (0 = what unrelated rankings give on average; \
         raw {name} = {raw:.d$}, n = {n}, null mean {:.d$} ({})",
        moments.mean.value, moments.mean.source
    )?;
    if ties {
        f.write_str("; the rankings have ties, which the untied null approximates")?;
    }
    f.write_str(")")
}

/// `standardised ρ_w = 0.4123 (0 = what unrelated rankings give on average;
/// raw ρ_w = -0.1000, n = 990, null mean -0.6012 (built-in table))`, and a
/// note when the rankings have ties.
impl fmt::Display for StandardisedRho {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        standardised(
            f,
            "ρ_w",
            self.value,
            self.rho.rho,
            self.rho.n,
            &self.moments,
            self.ties,
        )
    }
}

/// As [`StandardisedRho`]: `standardised τ_w = … (…; raw τ_w = …, …)`.
impl fmt::Display for StandardisedTau {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        standardised(
            f,
            "τ_w",
            self.value,
            self.tau.tau,
            self.tau.n,
            &self.moments,
            self.ties,
        )
    }
}
