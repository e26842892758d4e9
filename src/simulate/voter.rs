//! The stochastic transitivity model of crowd voters (Lombardo et al. 2020,
//! §4.1, Eq. 11).
//!
//! Voter v perceives item i as
//!
//! ```text
//! o_i⁽ᵛ⁾ = F(z_i + σ_v(z_i)·η_i⁽ᵛ⁾),   F(x) = max(−1, min(1, x)),   η ~ N(0, 1)   (Eq. 11)
//! relatedness-driven (§4.1.2):  o_i⁽ᵛ⁾ = |F(z_i + σ_v(z_i)·η_i⁽ᵛ⁾)|
//! ```
//!
//! and, shown items i and j, votes for the one with the larger opinion with
//! probability 1 − ε_v and for the other one (an oversight) with probability
//! ε_v. The nonconformity amplitude σ_v(z) has a per-voter level σ*_v; both
//! σ*_v and ε_v are drawn uniformly per voter from given ranges.
//!
//! ```text
//! paper      σ_v(z) = σ*_v·(1 − z²)        (§4.1.1)
//! published  σ_v(z) = σ*_v·z·(1 − z)       (published-code departure 1)
//! ```

use std::fmt;
use std::sync::Arc;

use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

use super::distributions::Underlying;
use super::error::{Result, SimulateError};

/// A user amplitude function `(σ*_v, z) ↦ σ_v(z)`.
pub type AmplitudeFn = dyn Fn(f64, f64) -> f64 + Send + Sync;

/// The nonconformity profile σ_v(z) of Eq. 11.
///
/// ```text
/// Paper      σ_v(z) = σ*·(1 − z²)
/// Published  σ_v(z) = σ*·z·(1 − z)
/// Custom     σ_v(z) = f(σ*, z)         (must be finite and ≥ 0)
/// ```
///
/// The published form is negative for z < 0; since η is symmetric only its
/// magnitude matters, and [`Nonconformity::amplitude`] returns it as is.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::simulate::Nonconformity;
/// assert_eq!(Nonconformity::Paper.amplitude(0.1, 0.5), 0.1 * 0.75);
/// assert_eq!(Nonconformity::Published.amplitude(0.1, 0.5), 0.1 * 0.25);
/// let flat = Nonconformity::custom(|sigma, _z| sigma);
/// assert_eq!(flat.amplitude(0.1, 0.9), 0.1);
/// ```
///
/// Reference: Lombardo et al. (2020) §4.1.1; published-code departure 1.
#[derive(Clone, Default)]
pub enum Nonconformity {
    /// σ*·(1 − z²): vanishes at z = ±1 (the paper).
    #[default]
    Paper,
    /// σ*·z·(1 − z): the published code's form.
    Published,
    /// Any closure `(σ*, z) ↦ σ_v(z)`.
    Custom(Arc<AmplitudeFn>),
}

impl Nonconformity {
    /// Wraps a closure `(σ*, z) ↦ σ_v(z)`.
    pub fn custom<F>(f: F) -> Self
    where
        F: Fn(f64, f64) -> f64 + Send + Sync + 'static,
    {
        Self::Custom(Arc::new(f))
    }

    /// σ_v(z) for a voter of level `sigma`.
    #[must_use]
    pub fn amplitude(&self, sigma: f64, z: f64) -> f64 {
        match self {
            Self::Paper => sigma * (1.0 - z * z),
            Self::Published => sigma * z * (1.0 - z),
            Self::Custom(f) => f(sigma, z),
        }
    }
}

/// `Paper` and `Published` serialise by name; a custom function cannot be
/// serialised (an error).
#[cfg(feature = "serde")]
impl serde::Serialize for Nonconformity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Self::Paper => s.serialize_unit_variant("Nonconformity", 0, "Paper"),
            Self::Published => s.serialize_unit_variant("Nonconformity", 1, "Published"),
            Self::Custom(_) => Err(serde::ser::Error::custom(
                "a custom nonconformity function cannot be serialised",
            )),
        }
    }
}

/// The named profiles serde reads.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "Nonconformity")]
enum NamedNonconformity {
    Paper,
    Published,
}

/// Reads `Paper` or `Published` (a custom function cannot be deserialised).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Nonconformity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        Ok(match NamedNonconformity::deserialize(d)? {
            NamedNonconformity::Paper => Self::Paper,
            NamedNonconformity::Published => Self::Published,
        })
    }
}

impl fmt::Debug for Nonconformity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Paper => f.write_str("Paper"),
            Self::Published => f.write_str("Published"),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// When the Gaussian variable η of Eq. 11 is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Noise {
    /// Once per voter and item, fixed for the whole run: a voter holds a
    /// stable (if wrong) opinion of each item (the published code,
    /// published-code departure 8).
    #[default]
    PerItem,
    /// Afresh at every comparison: a voter's opinion wavers between votes.
    PerComparison,
}

/// What voters are asked to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Judgement {
    /// Relatedness, the absolute value |o| (§4.1.2; Table 2).
    #[default]
    Relatedness,
    /// Signed similarity o (§4.1.1).
    Similarity,
}

impl Judgement {
    /// The true score that defines the theoretical ranking: |z| or z.
    #[must_use]
    pub fn truth(self, z: f64) -> f64 {
        match self {
            Self::Relatedness => z.abs(),
            Self::Similarity => z,
        }
    }
}

/// What a voter does when both items look exactly alike (o_i = o_j, e.g.
/// both clipped to 1), before any oversight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EqualOpinions {
    /// Vote for the item shown first (the published code).
    #[default]
    FirstShown,
    /// Toss a fair coin.
    CoinFlip,
}

/// Which item of a comparison a voter chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Choice {
    /// The item shown first.
    First,
    /// The item shown second.
    Second,
}

serde_mirror! {
    /// The voter model of §4.1: ranges for σ*_v and ε_v, the nonconformity
    /// profile, when η is drawn, what is judged and how equal opinions are
    /// resolved.
    ///
    /// [`VoterModel::paper`] follows the paper's text, [`VoterModel::published`]
    /// the code behind Table 2; both use σ* ∈ [0.02, 0.2], ε ∈ [0.005, 0.05]
    /// (§4.2) and relatedness-driven comparisons.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::{Judgement, Noise, VoterModel};
    /// let m = VoterModel::paper()
    ///     .sigma_range(0.0, 0.1)?
    ///     .epsilon_range(0.01, 0.01)?
    ///     .noise(Noise::PerComparison)
    ///     .judgement(Judgement::Similarity);
    /// assert_eq!(m.sigma(), (0.0, 0.1));
    /// # Ok::<(), adaptive_comp_metrics::simulate::SimulateError>(())
    /// ```
    ///
    /// Reference: Lombardo et al. (2020) §4.1–4.2; published-code departures 1 and 8.
    #[derive(Debug, Clone)]
    pub struct VoterModel {
        sigma: (f64, f64),
        epsilon: (f64, f64),
        nonconformity: Nonconformity,
        noise: Noise,
        judgement: Judgement,
        equal: EqualOpinions,
    }
    // The unvalidated mirror of [`VoterModel`] that serde reads; the ranges
    // are checked as [`VoterModel::sigma_range`] and
    // [`VoterModel::epsilon_range`] check them.
    mirror VoterModelRepr, SimulateError, |r| {
        Ok(Self::paper()
            .sigma_range(r.sigma.0, r.sigma.1)?
            .epsilon_range(r.epsilon.0, r.epsilon.1)?
            .nonconformity(r.nonconformity)
            .noise(r.noise)
            .judgement(r.judgement)
            .equal_opinions(r.equal))
    }
}

impl Default for VoterModel {
    fn default() -> Self {
        Self::paper()
    }
}

impl VoterModel {
    /// The paper's model: σ*(1 − z²), η per item, relatedness, coin flip
    /// on equal opinions, σ* ∈ [0.02, 0.2], ε ∈ [0.005, 0.05].
    #[must_use]
    pub fn paper() -> Self {
        Self {
            sigma: (0.02, 0.2),
            epsilon: (0.005, 0.05),
            nonconformity: Nonconformity::Paper,
            noise: Noise::PerItem,
            judgement: Judgement::Relatedness,
            equal: EqualOpinions::CoinFlip,
        }
    }

    /// The published code's model: σ*·z(1 − z), η per item, relatedness,
    /// the first shown item wins on equal opinions, same ranges.
    #[must_use]
    pub fn published() -> Self {
        Self {
            nonconformity: Nonconformity::Published,
            equal: EqualOpinions::FirstShown,
            ..Self::paper()
        }
    }

    /// Sets the range of the nonconformity level σ*_v (drawn uniformly per
    /// voter; `low == high` fixes it).
    ///
    /// # Errors
    /// [`SimulateError::InvalidRange`] unless `0 ≤ low ≤ high < ∞`.
    pub fn sigma_range(mut self, low: f64, high: f64) -> Result<Self> {
        check_range("sigma", low, high, f64::INFINITY)?;
        self.sigma = (low, high);
        Ok(self)
    }

    /// Sets the range of the oversight probability ε_v.
    ///
    /// # Errors
    /// [`SimulateError::InvalidRange`] unless `0 ≤ low ≤ high ≤ 1`.
    pub fn epsilon_range(mut self, low: f64, high: f64) -> Result<Self> {
        check_range("epsilon", low, high, 1.0)?;
        self.epsilon = (low, high);
        Ok(self)
    }

    /// Sets the nonconformity profile.
    #[must_use]
    pub fn nonconformity(mut self, profile: Nonconformity) -> Self {
        self.nonconformity = profile;
        self
    }

    /// Sets when η is drawn.
    #[must_use]
    pub fn noise(mut self, noise: Noise) -> Self {
        self.noise = noise;
        self
    }

    /// Sets what is judged.
    #[must_use]
    pub fn judgement(mut self, judgement: Judgement) -> Self {
        self.judgement = judgement;
        self
    }

    /// Sets the rule for equal opinions.
    #[must_use]
    pub fn equal_opinions(mut self, rule: EqualOpinions) -> Self {
        self.equal = rule;
        self
    }

    /// The σ* range.
    #[must_use]
    pub fn sigma(&self) -> (f64, f64) {
        self.sigma
    }

    /// The ε range.
    #[must_use]
    pub fn epsilon(&self) -> (f64, f64) {
        self.epsilon
    }

    /// The nonconformity profile.
    #[must_use]
    pub fn profile(&self) -> &Nonconformity {
        &self.nonconformity
    }

    /// When η is drawn.
    #[must_use]
    pub fn noise_mode(&self) -> Noise {
        self.noise
    }

    /// What is judged.
    #[must_use]
    pub fn judged(&self) -> Judgement {
        self.judgement
    }

    /// The rule for equal opinions.
    #[must_use]
    pub fn equal_rule(&self) -> EqualOpinions {
        self.equal
    }

    /// Draws a crowd of `n_voters` voters for the items of `underlying`.
    ///
    /// ```text
    /// σ*_v ~ U[σ_lo, σ_hi],  ε_v ~ U[ε_lo, ε_hi]       (per voter)
    /// Noise::PerItem:  o_i⁽ᵛ⁾ drawn now, fixed for the run (N·V normals)
    /// ```
    ///
    /// # Errors
    /// [`SimulateError::InvalidParameter`] for zero voters; [`SimulateError::TooLarge`]
    /// when voters × items exceeds
    /// [`Simulation::MAX_OPINIONS`](super::Simulation::MAX_OPINIONS);
    /// [`SimulateError::Amplitude`] when a custom profile
    /// returns a negative or non-finite amplitude.
    ///
    /// # Complexity
    /// O(V·N) time and memory.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::simulate::{Choice, Underlying, VoterModel};
    /// use rand::SeedableRng;
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let z = Underlying::new(&[0.9, 0.1])?;
    /// let perfect = VoterModel::paper().sigma_range(0.0, 0.0)?.epsilon_range(0.0, 0.0)?;
    /// let crowd = perfect.draw(&z, 3, &mut rng)?;
    /// assert_eq!(crowd.vote(2, 1, 0, &mut rng)?, Choice::Second);
    /// # Ok::<(), adaptive_comp_metrics::simulate::SimulateError>(())
    /// ```
    pub fn draw<R: Rng + ?Sized>(
        &self,
        underlying: &Underlying,
        n_voters: usize,
        rng: &mut R,
    ) -> Result<Crowd> {
        let mut crowd = Crowd::empty();
        self.draw_into(underlying, n_voters, rng, &mut crowd)?;
        Ok(crowd)
    }

    /// [`draw`](Self::draw) reusing the buffers of `crowd`.
    ///
    /// # Errors
    /// As [`draw`](Self::draw).
    pub(crate) fn draw_into<R: Rng + ?Sized>(
        &self,
        underlying: &Underlying,
        n_voters: usize,
        rng: &mut R,
        crowd: &mut Crowd,
    ) -> Result<()> {
        let z = underlying.z();
        let n = z.len();
        super::runner::check_crowd(n_voters, n)?;
        let cells = n_voters * n;
        crowd.n_items = n;
        crowd.n_voters = n_voters;
        crowd.judgement = self.judgement;
        crowd.equal = self.equal;
        crowd.noise = self.noise;
        crowd.z.clear();
        crowd.z.extend_from_slice(z);
        crowd.sigma.clear();
        crowd.epsilon.clear();
        for _ in 0..n_voters {
            crowd.sigma.push(uniform(self.sigma, rng));
        }
        for _ in 0..n_voters {
            crowd.epsilon.push(uniform(self.epsilon, rng));
        }
        crowd.table.clear();
        crowd.table.reserve(cells);
        for (voter, &sigma) in crowd.sigma.iter().enumerate() {
            for (item, &zi) in z.iter().enumerate() {
                let amp = self.nonconformity.amplitude(sigma, zi);
                if !amp.is_finite()
                    || (amp < 0.0 && matches!(self.nonconformity, Nonconformity::Custom(_)))
                {
                    return Err(SimulateError::Amplitude {
                        voter,
                        item,
                        value: amp,
                    });
                }
                crowd.table.push(match self.noise {
                    Noise::PerItem => {
                        let eta: f64 = rng.sample(StandardNormal);
                        perceive(zi, amp, eta, self.judgement)
                    }
                    Noise::PerComparison => amp,
                });
            }
        }
        Ok(())
    }
}

fn check_range(name: &'static str, low: f64, high: f64, max: f64) -> Result<()> {
    let expected = if max.is_finite() {
        "0 ≤ low ≤ high ≤ 1"
    } else {
        "0 ≤ low ≤ high < ∞"
    };
    if low.is_finite() && high.is_finite() && 0.0 <= low && low <= high && high <= max {
        Ok(())
    } else {
        Err(SimulateError::InvalidRange {
            name,
            low,
            high,
            expected,
        })
    }
}

fn uniform<R: Rng + ?Sized>((low, high): (f64, f64), rng: &mut R) -> f64 {
    if low == high {
        low
    } else {
        low + (high - low) * rng.random::<f64>()
    }
}

/// o = F(z + a·η), and |o| for relatedness.
#[inline]
fn perceive(z: f64, amplitude: f64, eta: f64, judgement: Judgement) -> f64 {
    let o = (z + amplitude * eta).clamp(-1.0, 1.0);
    match judgement {
        Judgement::Relatedness => o.abs(),
        Judgement::Similarity => o,
    }
}

/// A drawn crowd: σ*_v and ε_v of every voter and, with [`Noise::PerItem`],
/// every voter's fixed opinion of every item.
#[derive(Debug, Clone)]
pub struct Crowd {
    n_items: usize,
    n_voters: usize,
    judgement: Judgement,
    equal: EqualOpinions,
    noise: Noise,
    z: Vec<f64>,
    sigma: Vec<f64>,
    epsilon: Vec<f64>,
    /// V×N, row-major by voter: opinions (PerItem) or amplitudes
    /// σ_v(z_i) (PerComparison).
    table: Vec<f64>,
}

impl Crowd {
    pub(crate) fn empty() -> Self {
        Self {
            n_items: 0,
            n_voters: 0,
            judgement: Judgement::Relatedness,
            equal: EqualOpinions::FirstShown,
            noise: Noise::PerItem,
            z: Vec::new(),
            sigma: Vec::new(),
            epsilon: Vec::new(),
            table: Vec::new(),
        }
    }

    /// Number of voters V.
    #[must_use]
    pub fn n_voters(&self) -> usize {
        self.n_voters
    }

    /// Number of items N.
    #[must_use]
    pub fn n_items(&self) -> usize {
        self.n_items
    }

    /// The nonconformity level σ*_v of every voter.
    #[must_use]
    pub fn sigmas(&self) -> &[f64] {
        &self.sigma
    }

    /// The oversight probability ε_v of every voter.
    #[must_use]
    pub fn epsilons(&self) -> &[f64] {
        &self.epsilon
    }

    /// Voter `voter`'s fixed opinion of `item` (with [`Noise::PerItem`]);
    /// `None` for an index out of range or with [`Noise::PerComparison`].
    #[must_use]
    pub fn opinion(&self, voter: usize, item: usize) -> Option<f64> {
        if self.noise != Noise::PerItem || voter >= self.n_voters || item >= self.n_items {
            return None;
        }
        self.table.get(voter * self.n_items + item).copied()
    }

    /// One vote: voter `voter` is shown `first` and `second`.
    ///
    /// ```text
    /// choice = the item with the larger o  (equal o: see EqualOpinions)
    /// then, with probability ε_v, the other item (oversight)
    /// ```
    ///
    /// # Errors
    /// [`SimulateError::InvalidParameter`] for a voter or item out of range.
    ///
    /// # Complexity
    /// O(1), no allocation.
    pub fn vote<R: Rng + ?Sized>(
        &self,
        voter: usize,
        first: usize,
        second: usize,
        rng: &mut R,
    ) -> Result<Choice> {
        if voter >= self.n_voters {
            return Err(SimulateError::InvalidParameter {
                name: "voter",
                expected: "a voter index below the crowd's size",
            });
        }
        if first >= self.n_items || second >= self.n_items {
            return Err(SimulateError::InvalidParameter {
                name: "item",
                expected: "item indices below the number of items",
            });
        }
        Ok(self.vote_unchecked(voter, first, second, rng))
    }

    /// [`vote`](Self::vote) for indices known to be in range.
    #[inline]
    pub(crate) fn vote_unchecked<R: Rng + ?Sized>(
        &self,
        voter: usize,
        first: usize,
        second: usize,
        rng: &mut R,
    ) -> Choice {
        let row = voter * self.n_items;
        let (o1, o2) = match self.noise {
            Noise::PerItem => (self.table[row + first], self.table[row + second]),
            Noise::PerComparison => {
                let e1: f64 = rng.sample(StandardNormal);
                let e2: f64 = rng.sample(StandardNormal);
                (
                    perceive(self.z[first], self.table[row + first], e1, self.judgement),
                    perceive(self.z[second], self.table[row + second], e2, self.judgement),
                )
            }
        };
        let honest = if o1 > o2 {
            Choice::First
        } else if o1 < o2 {
            Choice::Second
        } else {
            match self.equal {
                EqualOpinions::FirstShown => Choice::First,
                EqualOpinions::CoinFlip => {
                    if rng.random::<bool>() {
                        Choice::First
                    } else {
                        Choice::Second
                    }
                }
            }
        };
        if rng.random::<f64>() < self.epsilon[voter] {
            match honest {
                Choice::First => Choice::Second,
                Choice::Second => Choice::First,
            }
        } else {
            honest
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn ranges_are_validated() {
        let m = VoterModel::paper();
        assert!(m.clone().sigma_range(-0.1, 0.2).is_err());
        assert!(m.clone().sigma_range(0.3, 0.2).is_err());
        assert!(m.clone().sigma_range(0.0, f64::NAN).is_err());
        assert!(m.clone().sigma_range(0.0, f64::INFINITY).is_err());
        assert!(m.clone().epsilon_range(0.0, 1.5).is_err());
        assert!(m.clone().epsilon_range(0.0, 1.0).is_ok());
        assert!(matches!(
            m.sigma_range(0.5, 0.1),
            Err(SimulateError::InvalidRange { name: "sigma", .. })
        ));
    }

    #[test]
    fn zero_voters_and_bad_indices() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let z = Underlying::exponential(10).unwrap();
        assert!(VoterModel::paper().draw(&z, 0, &mut rng).is_err());
        let crowd = VoterModel::paper().draw(&z, 2, &mut rng).unwrap();
        assert!(crowd.vote(2, 0, 1, &mut rng).is_err());
        assert!(crowd.vote(0, 10, 1, &mut rng).is_err());
        assert!(crowd.vote(0, 1, 10, &mut rng).is_err());
        assert_eq!(crowd.opinion(0, 10), None);
    }

    #[test]
    fn bad_custom_amplitude() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let z = Underlying::exponential(10).unwrap();
        let m = VoterModel::paper().nonconformity(Nonconformity::custom(|_, z| z - 0.5));
        assert!(matches!(
            m.draw(&z, 2, &mut rng),
            Err(SimulateError::Amplitude { voter: 0, .. })
        ));
        let m = VoterModel::paper().nonconformity(Nonconformity::custom(|_, _| f64::NAN));
        assert!(m.draw(&z, 2, &mut rng).is_err());
    }

    #[test]
    fn opinions_follow_eq_11() {
        // σ* fixed, so o = |clip(z + σ*(1 − z²)η)| can be inverted for η and
        // η must look standard normal.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let z = Underlying::new(&[0.5; 2000]).unwrap();
        let m = VoterModel::paper()
            .sigma_range(0.1, 0.1)
            .unwrap()
            .judgement(Judgement::Similarity);
        let crowd = m.draw(&z, 1, &mut rng).unwrap();
        let etas: Vec<f64> = (0..2000)
            .map(|i| (crowd.opinion(0, i).unwrap() - 0.5) / (0.1 * 0.75))
            .collect();
        let mean = etas.iter().sum::<f64>() / 2000.0;
        let var = etas.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / 1999.0;
        // 5 standard errors: SE(mean) = 1/√2000 ≈ 0.022, SE(var) ≈ √(2/2000) ≈ 0.032.
        assert!(mean.abs() < 0.11, "mean {mean}");
        assert!((var - 1.0).abs() < 0.16, "var {var}");
    }

    #[test]
    fn published_profile_clips_and_takes_absolute_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let z = Underlying::new(&[-0.9, 1.0, 0.0]).unwrap();
        let crowd = VoterModel::published()
            .sigma_range(5.0, 5.0)
            .unwrap()
            .draw(&z, 50, &mut rng)
            .unwrap();
        for v in 0..50 {
            // z = 1 and z = 0 have zero published amplitude.
            assert_eq!(crowd.opinion(v, 1), Some(1.0));
            assert_eq!(crowd.opinion(v, 2), Some(0.0));
            let o = crowd.opinion(v, 0).unwrap();
            assert!((0.0..=1.0).contains(&o));
        }
    }
}
