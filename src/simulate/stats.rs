//! Mean, sample standard deviation and standard error of repeated
//! simulations.

use crate::sum::neumaier;

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
/// With S = 1, `sd` and `se` are NaN (undefined), not 0.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::simulate::Summary;
/// let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(s.mean, 2.5);
/// assert!((s.sd - (5.0_f64 / 3.0).sqrt()).abs() < 1e-15);
/// assert!((s.se - s.sd / 2.0).abs() < 1e-15);
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

impl Summary {
    /// Summarises `values` (two-pass, compensated sums).
    ///
    /// # Complexity
    /// O(S).
    #[must_use]
    pub fn of(values: &[f64]) -> Self {
        let n = values.len() as f64;
        let mean = if values.is_empty() {
            f64::NAN
        } else {
            neumaier(values.iter().copied()) / n
        };
        let sd = if values.len() < 2 {
            f64::NAN
        } else {
            (neumaier(values.iter().map(|v| (v - mean) * (v - mean))) / (n - 1.0)).sqrt()
        };
        Self {
            mean,
            sd,
            se: sd / n.sqrt(),
            values: values.to_vec(),
        }
    }

    /// The z-score of this estimate against a published mean ± SD over
    /// `published_runs` runs:
    ///
    /// ```text
    /// z = (mean − mean_pub) / √(sd_pub²/S_pub + sd²/S)
    /// ```
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::Summary;
    /// let s = Summary::of(&[0.0, 2.0]); // mean 1, sd √2
    /// let z = s.z_score(0.0, 0.0, 50);
    /// assert!((z - 1.0).abs() < 1e-15); // 1 / √(2/2)
    /// ```
    #[must_use]
    pub fn z_score(&self, published_mean: f64, published_sd: f64, published_runs: usize) -> f64 {
        let s = self.values.len() as f64;
        let var = published_sd * published_sd / published_runs as f64 + self.sd * self.sd / s;
        (self.mean - published_mean) / var.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        // Values 0.5, 0.7, 0.9: mean 0.7, deviations ±0.2 → var 0.08/2 = 0.04.
        let s = Summary::of(&[0.5, 0.7, 0.9]);
        assert!((s.mean - 0.7).abs() < 1e-15);
        assert!((s.sd - 0.2).abs() < 1e-15);
        assert!((s.se - 0.2 / 3f64.sqrt()).abs() < 1e-15);
        let one = Summary::of(&[0.3]);
        assert_eq!(one.mean, 0.3);
        assert!(one.sd.is_nan());
        assert!(Summary::of(&[]).mean.is_nan());
    }
}
