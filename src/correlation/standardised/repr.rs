//! The serialised forms of the standardised-scale types (feature `serde`)
//! and the checks that read them back: moments must be moments of a
//! variable on [−1, 1] (as [`GammaMoments::given`] checks them), a map
//! must be the map of its moments, and a standardised value must be the
//! map applied to its raw coefficient. Stored numbers that agree with the
//! recomputed ones to 10⁻⁹ are kept as stored (a text format may read a
//! number back one ulp off).

use serde::Deserialize;

use super::StandardisedError;
use super::api::{StandardisedRho, StandardisedTau};
use super::map::{MapCoefficients, Standardiser};
use super::moments::{GammaMoments, MomentEstimate, MomentSource, validate};
use crate::correlation::error::CorrelationError;
use crate::correlation::weighted::{RhoW, TauW};

fn invalid(name: &'static str, expected: &'static str) -> StandardisedError {
    StandardisedError::Correlation(CorrelationError::InvalidParameter { name, expected })
}

/// Whether two stored and recomputed numbers agree to 10⁻⁹ (relative above 1).
pub(crate) fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The unvalidated mirror of [`MomentEstimate`] that serde reads.
#[derive(Deserialize)]
pub(super) struct MomentEstimateRepr {
    value: f64,
    standard_error: f64,
    source: MomentSource,
}

impl TryFrom<MomentEstimateRepr> for MomentEstimate {
    type Error = StandardisedError;
    fn try_from(r: MomentEstimateRepr) -> Result<Self, StandardisedError> {
        if !(r.value.is_finite() && r.standard_error >= 0.0 && r.standard_error.is_finite()) {
            return Err(invalid(
                "moment",
                "a finite value and a finite, non-negative standard error",
            ));
        }
        Ok(MomentEstimate::new(r.value, r.standard_error, r.source))
    }
}

/// The unvalidated mirror of [`GammaMoments`] that serde reads.
#[derive(Deserialize)]
pub(super) struct GammaMomentsRepr {
    mean: MomentEstimate,
    variance: MomentEstimate,
    left_variance: MomentEstimate,
}

impl TryFrom<GammaMomentsRepr> for GammaMoments {
    type Error = StandardisedError;
    fn try_from(r: GammaMomentsRepr) -> Result<Self, StandardisedError> {
        validate(r.mean.value, r.variance.value, r.left_variance.value)?;
        Ok(GammaMoments {
            mean: r.mean,
            variance: r.variance,
            left_variance: r.left_variance,
        })
    }
}

/// Whether `stored` is the map `computed` (every coefficient within 10⁻⁹,
/// the same branch).
fn same_map(stored: &MapCoefficients, computed: &MapCoefficients) -> bool {
    let numbers = |m: &MapCoefficients| [m.mean, m.g0, m.g1, m.g2, m.h2];
    stored.branch == computed.branch
        && numbers(stored)
            .iter()
            .zip(numbers(computed))
            .all(|(&a, b)| close(a, b))
}

/// The map of `moments`, which `stored` must be.
fn checked_map(
    moments: GammaMoments,
    stored: MapCoefficients,
) -> Result<Standardiser, StandardisedError> {
    let computed = Standardiser::new(moments)?;
    if !same_map(&stored, &computed.map) {
        return Err(invalid(
            "map",
            "the standardising map of the stored null moments",
        ));
    }
    Ok(Standardiser {
        moments,
        map: stored,
    })
}

/// The unvalidated mirror of [`Standardiser`] that serde reads.
#[derive(Deserialize)]
pub(super) struct StandardiserRepr {
    moments: GammaMoments,
    map: MapCoefficients,
}

impl TryFrom<StandardiserRepr> for Standardiser {
    type Error = StandardisedError;
    fn try_from(r: StandardiserRepr) -> Result<Self, StandardisedError> {
        checked_map(r.moments, r.map)
    }
}

/// Checks that `value` is g(raw) for the stored map and moments.
fn checked_value(
    value: f64,
    raw: f64,
    moments: GammaMoments,
    map: MapCoefficients,
) -> Result<(), StandardisedError> {
    let g = checked_map(moments, map)?;
    if !close(value, g.standardised(raw)?) {
        return Err(invalid(
            "value",
            "the standardising map applied to the raw coefficient",
        ));
    }
    Ok(())
}

/// The unvalidated mirror of [`StandardisedRho`] that serde reads.
#[derive(Deserialize)]
pub(super) struct StandardisedRhoRepr {
    value: f64,
    rho: RhoW,
    moments: GammaMoments,
    map: MapCoefficients,
    ties: bool,
}

impl TryFrom<StandardisedRhoRepr> for StandardisedRho {
    type Error = StandardisedError;
    fn try_from(r: StandardisedRhoRepr) -> Result<Self, StandardisedError> {
        checked_value(r.value, r.rho.rho, r.moments, r.map)?;
        Ok(StandardisedRho {
            value: r.value,
            rho: r.rho,
            moments: r.moments,
            map: r.map,
            ties: r.ties,
        })
    }
}

/// The unvalidated mirror of [`StandardisedTau`] that serde reads.
#[derive(Deserialize)]
pub(super) struct StandardisedTauRepr {
    value: f64,
    tau: TauW,
    moments: GammaMoments,
    map: MapCoefficients,
    ties: bool,
}

impl TryFrom<StandardisedTauRepr> for StandardisedTau {
    type Error = StandardisedError;
    fn try_from(r: StandardisedTauRepr) -> Result<Self, StandardisedError> {
        checked_value(r.value, r.tau.tau, r.moments, r.map)?;
        Ok(StandardisedTau {
            value: r.value,
            tau: r.tau,
            moments: r.moments,
            map: r.map,
            ties: r.ties,
        })
    }
}
