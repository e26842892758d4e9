//! Mean, sample standard deviation and standard error of repeated
//! simulations.

use super::error::{Result, SimulateError};
use crate::sum::neumaier;

serde_mirror! {
    /// Mean ± sample standard deviation of one metric over S simulations, with
    /// the standard error of the mean and the values themselves (in simulation
    /// order).
    ///
    /// ```text
    /// mean = (1/S)·Σ_s v_s
    /// sd   = √( Σ_s (v_s − mean)² / (S − 1) )     (unbiased variance, as Table 2)
    /// se   = sd / √S
    /// ```
    ///
    /// A summary always has S ≥ 2 finite values, so every field is a finite
    /// number: with one value the standard deviation would be 0/0, and a report
    /// whose SD and standard error are NaN compares nothing. One simulation on
    /// its own is [`Simulation::simulate`](super::Simulation::simulate).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::{SimulateError, Summary};
    /// let s = Summary::of(&[1.0, 2.0, 3.0, 4.0])?;
    /// assert_eq!(s.mean, 2.5);
    /// assert!((s.sd - (5.0_f64 / 3.0).sqrt()).abs() < 1e-15);
    /// assert!((s.se - s.sd / 2.0).abs() < 1e-15);
    /// assert_eq!(Summary::of(&[0.3]).unwrap_err(), SimulateError::TooFewSimulations { needed: 2, got: 1 });
    /// # Ok::<(), SimulateError>(())
    /// ```
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub struct Summary {
        /// Sample mean.
        pub mean: f64,
        /// Sample standard deviation (divisor S − 1).
        pub sd: f64,
        /// Standard error of the mean, sd/√S.
        pub se: f64,
        /// The value of every simulation, in simulation order.
        pub values: Vec<f64>,
    }
    read through "SummaryRepr"
}

// The unvalidated mirror of [`Summary`] that serde reads: the summary is
// recomputed from the values, and the stored mean, SD and standard error
// must agree with it (to 10⁻⁹ of the largest |value|, as a text format may
// read a number back one ulp off).
serde_mirror!(Summary, SummaryRepr, SimulateError, {
    mean: f64, sd: f64, se: f64, values: Vec<f64>,
}, |r| {
    let s = Summary::of(&r.values)?;
    let scale = r
        .values
        .iter()
        .fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()));
    let agrees = |stored: f64, computed: f64| (stored - computed).abs() <= 1e-9 * scale;
    if agrees(r.mean, s.mean) && agrees(r.sd, s.sd) && agrees(r.se, s.se) {
        Ok(s)
    } else {
        Err(SimulateError::InvalidParameter {
            name: "summary",
            expected: "a mean, SD and standard error that agree with the values",
        })
    }
});

impl Summary {
    /// Summarises `values` (two-pass, compensated sums).
    ///
    /// # Errors
    /// [`SimulateError::TooFewSimulations`] for fewer than 2 values;
    /// [`SimulateError::NotFinite`] for a NaN or infinite value (the first);
    /// [`SimulateError::InvalidParameter`] when finite values are so large that
    /// the mean or the squared deviations overflow.
    ///
    /// # Complexity
    /// O(S).
    pub fn of(values: &[f64]) -> Result<Self> {
        if values.len() < 2 {
            return Err(SimulateError::TooFewSimulations {
                needed: 2,
                got: values.len(),
            });
        }
        if let Some((index, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(SimulateError::NotFinite { index, value });
        }
        let n = values.len() as f64;
        let mean = neumaier(values.iter().copied()) / n;
        // Finite values can still overflow in the squares (|v| > 1e154).
        let sd = (neumaier(values.iter().map(|v| (v - mean) * (v - mean))) / (n - 1.0)).sqrt();
        if !(mean.is_finite() && sd.is_finite()) {
            return Err(SimulateError::InvalidParameter {
                name: "values",
                expected: "values whose mean and squared deviations fit in f64 (|v| < 1e154)",
            });
        }
        Ok(Self {
            mean,
            sd,
            se: sd / n.sqrt(),
            values: values.to_vec(),
        })
    }

    /// The z-score of this estimate against a published mean ± SD over
    /// `published_runs` runs:
    ///
    /// ```text
    /// z = (mean − mean_pub) / √(sd_pub²/S_pub + sd²/S)
    /// ```
    ///
    /// `None` when z is undefined: no published run, a published mean or SD
    /// that is not a finite number (or a negative SD), or both standard
    /// deviations zero (the denominator is 0).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::Summary;
    /// let s = Summary::of(&[0.0, 2.0])?; // mean 1, sd √2
    /// let z = s.z_score(0.0, 0.0, 50).expect("sd > 0");
    /// assert!((z - 1.0).abs() < 1e-15); // 1 / √(2/2)
    /// assert_eq!(Summary::of(&[1.0, 1.0])?.z_score(0.0, 0.0, 50), None);
    /// # Ok::<(), adaptive_comp_metrics::simulate::SimulateError>(())
    /// ```
    #[must_use]
    pub fn z_score(
        &self,
        published_mean: f64,
        published_sd: f64,
        published_runs: usize,
    ) -> Option<f64> {
        if published_runs == 0
            || !published_mean.is_finite()
            || !published_sd.is_finite()
            || published_sd < 0.0
        {
            return None;
        }
        let s = self.values.len() as f64;
        let var = published_sd * published_sd / published_runs as f64 + self.sd * self.sd / s;
        let z = (self.mean - published_mean) / var.sqrt();
        z.is_finite().then_some(z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        // Values 0.5, 0.7, 0.9: mean 0.7, deviations ±0.2 → var 0.08/2 = 0.04.
        let s = Summary::of(&[0.5, 0.7, 0.9]).unwrap();
        assert!((s.mean - 0.7).abs() < 1e-15);
        assert!((s.sd - 0.2).abs() < 1e-15);
        assert!((s.se - 0.2 / 3f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn undefined_summaries_are_errors_not_nan() {
        let few = |got| SimulateError::TooFewSimulations { needed: 2, got };
        assert_eq!(Summary::of(&[0.3]).unwrap_err(), few(1));
        assert_eq!(Summary::of(&[]).unwrap_err(), few(0));
        assert!(matches!(
            Summary::of(&[0.3, f64::NAN]).unwrap_err(),
            SimulateError::NotFinite { index: 1, value } if value.is_nan()
        ));
        assert_eq!(
            Summary::of(&[1.0, f64::NEG_INFINITY]).unwrap_err(),
            SimulateError::NotFinite {
                index: 1,
                value: f64::NEG_INFINITY
            }
        );
        // Finite values whose squared deviations overflow.
        assert!(matches!(
            Summary::of(&[-1e300, 1e300]).unwrap_err(),
            SimulateError::InvalidParameter { name: "values", .. }
        ));
        assert!(matches!(
            Summary::of(&[f64::MAX, f64::MAX]).unwrap_err(),
            SimulateError::InvalidParameter { name: "values", .. }
        ));
        let s = Summary::of(&[0.5, 0.5]).unwrap();
        assert_eq!((s.sd, s.se), (0.0, 0.0));
        assert_eq!(s.z_score(0.5, 0.0, 10), None); // 0/0
        assert_eq!(s.z_score(0.4, 0.1, 0), None);
        assert_eq!(s.z_score(f64::NAN, 0.1, 10), None);
        assert_eq!(s.z_score(0.4, -0.1, 10), None);
        assert_eq!(s.z_score(0.4, f64::INFINITY, 10), None);
        // (0.5 − 0.4)/√(0.01/1) = 1.
        assert!((s.z_score(0.4, 0.1, 1).unwrap() - 1.0).abs() < 1e-12);
    }
}
