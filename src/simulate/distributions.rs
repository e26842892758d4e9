//! Underlying similarity distributions {z_i} (Lombardo et al. 2020, §4.1.1).
//!
//! The true similarity z_i ∈ [−1, 1] of each item fixes its theoretical rank
//! (by z for similarity-driven comparisons, by |z| for relatedness-driven
//! ones, §4.1.2). Items are indexed from 0, as in the published code, so item
//! 0 is the most similar item of the built-in distributions:
//!
//! ```text
//! exponential            z_i = 2·exp(−i/N) − 1
//! power law (paper)      z_i = 2/(1 + √(i/N)) − 1
//! power law (published)  z_i = 2/(1 + i/N) − 1          (published-code departure 2)
//! same-area              the 990 word2vec cosine similarities of §2.2
//! ```

use super::error::{Result, SimulateError};
use num_traits::Float;

/// The 990 "same-area" similarities as shipped in
/// `data/same-area-similarities.csv` (header `,similarity`, rows
/// `index,value`, sorted by decreasing value).
///
/// Provenance: the "Embedding" distribution of Table 2 in Lombardo et al.
/// (2020): cosine similarities between the 990 pairs of 45 tokens of the
/// Sales & Marketing area in a word2vec model trained on résumés (§2.2,
/// §4.1.1); the file was published with the paper's code
/// (intervieweb-datascience/adaptive-comp, `underlying_sim_samearea.csv`).
/// sha256 `4b50fc76cca73a652467cfcef33d8122e7cab96845d1dc1fa95e01e754d083d2`.
pub const SAME_AREA_CSV: &str = include_str!("../../data/same-area-similarities.csv");

/// Number of values in [`SAME_AREA_CSV`].
pub const SAME_AREA_LEN: usize = 990;

/// Which power law: the paper's text or the published code.
///
/// ```text
/// Paper      z_i = 2/(1 + √(i/N)) − 1     (§4.1.1)
/// Published  z_i = 2/(1 + i/N) − 1        (the code behind Table 2)
/// ```
///
/// Reference: Lombardo et al. (2020) §4.1.1; published-code departure 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PowerLaw {
    /// With the square root, as the paper writes it.
    #[default]
    Paper,
    /// Linear in i/N, as the published code computes it.
    Published,
}

serde_mirror! {
    /// A validated vector of underlying similarities z_i ∈ [−1, 1], at least
    /// two items.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::{PowerLaw, Underlying};
    /// let z = Underlying::exponential(990)?;
    /// assert_eq!(z.len(), 990);
    /// assert_eq!(z.z()[0], 1.0);
    /// let p = Underlying::power_law(4, PowerLaw::Paper)?;
    /// assert!((p.z()[1] - (2.0 / 1.5 - 1.0)).abs() < 1e-15); // √(1/4) = 0.5
    /// let mine = Underlying::new(&[0.9_f32, 0.1, -0.5])?;
    /// assert_eq!(mine.relatedness()[2], 0.5);
    /// # Ok::<(), adaptive_comp_metrics::simulate::SimulateError>(())
    /// ```
    #[derive(Debug, Clone, PartialEq)]
    pub struct Underlying {
        z: Vec<f64>,
    }
    // The unvalidated mirror of [`Underlying`] that serde reads.
    mirror UnderlyingRepr, SimulateError, |r| Self::new(&r.z)
}

impl Underlying {
    /// Any user vector of similarities.
    ///
    /// # Errors
    /// [`SimulateError::TooFewItems`] for fewer than 2 values;
    /// [`SimulateError::Similarity`] for a value that is NaN, infinite or outside
    /// [−1, 1] (the first, with its index).
    ///
    /// # Complexity
    /// O(N).
    pub fn new<F: Float>(z: &[F]) -> Result<Self> {
        if z.len() < 2 {
            return Err(SimulateError::TooFewItems {
                needed: 2,
                got: z.len(),
            });
        }
        let mut out = Vec::with_capacity(z.len());
        for (index, v) in z.iter().enumerate() {
            let value = v.to_f64().unwrap_or(f64::NAN);
            if !(-1.0..=1.0).contains(&value) {
                return Err(SimulateError::Similarity { index, value });
            }
            out.push(value);
        }
        Ok(Self { z: out })
    }

    /// The exponential distribution `z_i = 2·exp(−i/N) − 1`, i = 0 … N − 1.
    ///
    /// # Errors
    /// [`SimulateError::TooFewItems`] for N < 2; [`SimulateError::TooLarge`] for
    /// N > [`BallotConfig::MAX_ITEMS`](crate::ballot::BallotConfig::MAX_ITEMS).
    ///
    /// # Complexity
    /// O(N).
    ///
    /// Reference: Lombardo et al. (2020) §4.1.1 (i).
    pub fn exponential(n: usize) -> Result<Self> {
        check_n(n)?;
        let nf = n as f64;
        Ok(Self {
            z: (0..n)
                .map(|i| 2.0 * (-(i as f64) / nf).exp() - 1.0)
                .collect(),
        })
    }

    /// The power law, in the paper's or the published code's form (see
    /// [`PowerLaw`]), i = 0 … N − 1.
    ///
    /// # Errors
    /// [`SimulateError::TooFewItems`] for N < 2; [`SimulateError::TooLarge`] for
    /// N > [`BallotConfig::MAX_ITEMS`](crate::ballot::BallotConfig::MAX_ITEMS).
    ///
    /// # Complexity
    /// O(N).
    ///
    /// Reference: Lombardo et al. (2020) §4.1.1 (ii); published-code departure 2.
    pub fn power_law(n: usize, form: PowerLaw) -> Result<Self> {
        check_n(n)?;
        let nf = n as f64;
        Ok(Self {
            z: (0..n)
                .map(|i| {
                    let t = i as f64 / nf;
                    let d = match form {
                        PowerLaw::Paper => t.sqrt(),
                        PowerLaw::Published => t,
                    };
                    2.0 / (1.0 + d) - 1.0
                })
                .collect(),
        })
    }

    /// The 990 same-area word2vec similarities of the paper (Table 2's
    /// "Embedding"), parsed from the embedded [`SAME_AREA_CSV`].
    ///
    /// # Errors
    /// None in practice: the embedded file is checked by the test suite; a
    /// malformed row would give [`SimulateError::Similarity`] with its index.
    ///
    /// # Complexity
    /// O(N).
    ///
    /// Reference: Lombardo et al. (2020) §2.2, §4.1.1 (iii), Table 2.
    pub fn same_area() -> Result<Self> {
        let mut z = Vec::with_capacity(SAME_AREA_LEN);
        for (index, line) in SAME_AREA_CSV.lines().skip(1).enumerate() {
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                continue;
            }
            let value = line
                .split_once(',')
                .and_then(|(_, v)| v.trim().parse::<f64>().ok())
                .unwrap_or(f64::NAN);
            if !(-1.0..=1.0).contains(&value) {
                return Err(SimulateError::Similarity { index, value });
            }
            z.push(value);
        }
        Self::new(&z)
    }

    /// The similarities z_i.
    #[must_use]
    pub fn z(&self) -> &[f64] {
        &self.z
    }

    /// The relatedness |z_i| (§4.1.2).
    #[must_use]
    pub fn relatedness(&self) -> Vec<f64> {
        self.z.iter().map(|v| v.abs()).collect()
    }

    /// Number of items N.
    #[must_use]
    pub fn len(&self) -> usize {
        self.z.len()
    }

    /// Always `false`: a valid distribution has at least two items.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.z.is_empty()
    }
}

/// N ≥ 2 and N ≤ [`BallotConfig::MAX_ITEMS`](crate::ballot::BallotConfig::MAX_ITEMS)
/// (a distribution is only simulated with a configuration of as many items).
fn check_n(n: usize) -> Result<()> {
    let limit = crate::ballot::BallotConfig::MAX_ITEMS;
    if n < 2 {
        Err(SimulateError::TooFewItems { needed: 2, got: n })
    } else if n > limit {
        Err(SimulateError::TooLarge {
            quantity: "items",
            requested: n as u64,
            limit: limit as u64,
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_by_hand() {
        // N = 2: z_0 = 2e⁰ − 1 = 1, z_1 = 2e^{−1/2} − 1.
        let z = Underlying::exponential(2).unwrap();
        assert_eq!(z.z(), &[1.0, 2.0 * (-0.5_f64).exp() - 1.0]);
    }

    #[test]
    fn power_laws_by_hand() {
        // N = 4, i = 1: paper 2/(1 + 1/2) − 1 = 1/3; published 2/(1 + 1/4) − 1 = 0.6.
        let p = Underlying::power_law(4, PowerLaw::Paper).unwrap();
        let q = Underlying::power_law(4, PowerLaw::Published).unwrap();
        assert!((p.z()[1] - 1.0 / 3.0).abs() < 1e-15);
        assert!((q.z()[1] - 0.6).abs() < 1e-15);
        assert_eq!(p.z()[0], 1.0);
        // Both decrease strictly with i.
        assert!(p.z().windows(2).all(|w| w[0] > w[1]));
        assert!(q.z().windows(2).all(|w| w[0] > w[1]));
    }

    #[test]
    fn bad_input() {
        assert_eq!(
            Underlying::exponential(1),
            Err(SimulateError::TooFewItems { needed: 2, got: 1 })
        );
        assert_eq!(
            Underlying::new::<f64>(&[]),
            Err(SimulateError::TooFewItems { needed: 2, got: 0 })
        );
        assert!(matches!(
            Underlying::new(&[0.1, f64::NAN]),
            Err(SimulateError::Similarity { index: 1, .. })
        ));
        assert!(matches!(
            Underlying::new(&[0.1, 0.2, 1.5]),
            Err(SimulateError::Similarity { index: 2, .. })
        ));
        assert!(matches!(
            Underlying::new(&[f64::NEG_INFINITY, 0.2]),
            Err(SimulateError::Similarity { index: 0, .. })
        ));
    }
}
