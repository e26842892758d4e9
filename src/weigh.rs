//! Weighting functions f(rank) and per-item weights (Lombardo et al. 2020, Eq. 9).
//!
//! A [`Weigher`] maps a 1-based rank (possibly fractional, for average ranks
//! of tied items) to a non-negative weight that decreases with the rank, so
//! that top ranks count more. Built-ins are unit structs (or a struct with a
//! validated parameter); any `Fn(f64) -> f64` closure is a weigher too.
//!
//! ```text
//! OffsetQuadratic { n0 }  f(n) = 1/(n + n0)²      (Lombardo et al., default n0 = 2)
//! Hyperbolic              f(n) = 1/n              (Vigna's default, 1/(r + 1) for 0-based r)
//! Quadratic               f(n) = 1/n²
//! Logarithmic             f(n) = 1/ln(n − 1 + e)  (Vigna's 1/ln(r + e))
//! Unweighted              f(n) = 1
//! ```

#[cfg(test)]
use crate::correlation::error::WeightProblem;
use crate::correlation::error::{CorrelationError, Result};

/// A weighting function of a 1-based rank: rank 1 is the top.
///
/// Implementations should return finite, non-negative values and decrease
/// with the rank; functions that use weighers validate every value they get
/// and report [`CorrelationError::InvalidWeight`] otherwise.
///
/// Closures are weighers:
///
/// ```
/// use adaptive_comp_metrics::Weigher;
/// let cubic = |n: f64| 1.0 / (n * n * n);
/// assert_eq!(cubic.weight(2.0), 0.125);
/// ```
pub trait Weigher {
    /// The weight f(n) of rank `n` (1-based, `n ≥ 1`).
    fn weight(&self, rank: f64) -> f64;
}

impl<T: Fn(f64) -> f64> Weigher for T {
    #[inline]
    fn weight(&self, rank: f64) -> f64 {
        self(rank)
    }
}

serde_mirror! {
    /// The weigher of Lombardo et al. (2020): `f(n; n0) = 1/(n + n0)²`.
    ///
    /// The offset `n0 ≥ 0` sets the share of the total weight held by rank 1
    /// for long rankings, [`first_rank_fraction`]: `R(0) ≈ 0.61`, `R(2) ≈ 0.28`.
    /// The default is the paper's `n0 = 2`.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{OffsetQuadratic, Weigher};
    /// let f = OffsetQuadratic::default();
    /// assert_eq!(f.weight(1.0), 1.0 / 9.0);
    /// assert!(OffsetQuadratic::new(-1.0).is_err());
    /// assert!(OffsetQuadratic::new(1e308).is_err()); // every weight would underflow
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct OffsetQuadratic {
        n0: f64,
    }
    // The unvalidated mirror of [`OffsetQuadratic`] that serde reads.
    mirror RawOffsetQuadratic, CorrelationError, |r| Self::new(r.n0)
}

impl OffsetQuadratic {
    /// The paper's choice of offset.
    pub const PAPER_N0: f64 = 2.0;

    /// The largest offset accepted, 10⁷⁶: for every rank n ≤ 2⁵³ the
    /// multiplicative scheme's product f(a)·f(b) = (a + n0)⁻²(b + n0)⁻² then
    /// stays a normal `f64` (≥ 2⁻¹⁰²² needs a + n0 ≤ 2²⁵⁵·⁵ ≈ 5.8·10⁷⁶).
    /// Beyond, weights lose precision and then underflow to zero, so every
    /// later call would fail with [`CorrelationError::ZeroWeights`]. Offsets this large
    /// weigh every rank alike anyway (relative differences 2n/n0): use
    /// [`Unweighted`] for that.
    pub const MAX_N0: f64 = 1e76;

    /// `1/(n + n0)²` for a finite `0 ≤ n0 ≤` [`MAX_N0`](Self::MAX_N0).
    ///
    /// # Errors
    /// [`CorrelationError::InvalidParameter`] for a negative, NaN or infinite `n0`, or
    /// one above [`MAX_N0`](Self::MAX_N0).
    pub fn new(n0: f64) -> Result<Self> {
        if (0.0..=Self::MAX_N0).contains(&n0) {
            Ok(Self { n0 })
        } else {
            Err(CorrelationError::InvalidParameter {
                name: "n0",
                expected: "a finite offset 0 ≤ n0 ≤ 1e76 (beyond, the weights underflow to zero)",
            })
        }
    }

    /// The offset n0.
    #[must_use]
    pub fn n0(&self) -> f64 {
        self.n0
    }
}

impl Default for OffsetQuadratic {
    fn default() -> Self {
        Self { n0: Self::PAPER_N0 }
    }
}

impl Weigher for OffsetQuadratic {
    #[inline]
    fn weight(&self, rank: f64) -> f64 {
        let d = rank + self.n0;
        1.0 / (d * d)
    }
}

/// `f(n) = 1/n`: Vigna's (and SciPy's) default hyperbolic weigher.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hyperbolic;

impl Weigher for Hyperbolic {
    #[inline]
    fn weight(&self, rank: f64) -> f64 {
        1.0 / rank
    }
}

/// `f(n) = 1/n²`: [`OffsetQuadratic`] with `n0 = 0`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Quadratic;

impl Weigher for Quadratic {
    #[inline]
    fn weight(&self, rank: f64) -> f64 {
        1.0 / (rank * rank)
    }
}

/// `f(n) = 1/ln(n − 1 + e)`: Vigna's logarithmic weigher, `f(1) = 1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Logarithmic;

impl Weigher for Logarithmic {
    #[inline]
    fn weight(&self, rank: f64) -> f64 {
        1.0 / (rank - 1.0 + core::f64::consts::E).ln()
    }
}

/// `f(n) = 1`: every rank counts the same, giving the ordinary coefficients.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unweighted;

impl Weigher for Unweighted {
    #[inline]
    fn weight(&self, _rank: f64) -> f64 {
        1.0
    }
}

/// The share of the total weight held by rank 1 under `f(n; n0) = 1/(n + n0)²`
/// in the limit of infinitely long rankings (Lombardo et al. 2020, §3):
///
/// ```text
/// R(n0) = f(1; n0) / Σ_{n≥1} f(n; n0) = 1 / [(n0 + 1)² ψ⁽¹⁾(n0 + 1)]
/// ```
///
/// with ψ⁽¹⁾ the trigamma function. `R(0) = 6/π² ≈ 0.61`, `R(2) ≈ 0.28`.
/// Use it to choose `n0` for how much the first rank should matter.
///
/// # Errors
/// [`CorrelationError::InvalidParameter`] for a negative, NaN or infinite `n0`, or one
/// above [`OffsetQuadratic::MAX_N0`].
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::first_rank_fraction;
/// let r0 = first_rank_fraction(0.0)?;
/// assert!((r0 - 6.0 / std::f64::consts::PI.powi(2)).abs() < 1e-15);
/// assert!((first_rank_fraction(2.0)? - 0.2813).abs() < 1e-4);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn first_rank_fraction(n0: f64) -> Result<f64> {
    let n0 = OffsetQuadratic::new(n0)?.n0;
    let x = n0 + 1.0;
    Ok(1.0 / (x * x * trigamma(x)))
}

/// Trigamma ψ⁽¹⁾(x) for x > 0: recurrence ψ⁽¹⁾(x) = ψ⁽¹⁾(x + 1) + 1/x² up to
/// x ≥ 20, then the asymptotic (Bernoulli) series; relative error < 1e-15.
pub(crate) fn trigamma(x: f64) -> f64 {
    // Shift up to z ≥ 20, evaluate the series there, then add the recurrence
    // terms from the smallest to the largest so rounding errors stay small.
    let shift = if x < 20.0 { (20.0 - x).ceil() } else { 0.0 };
    let z = x + shift;
    let r = 1.0 / z;
    let r2 = r * r;
    // 1/z + 1/(2z²) + Σ B_2k / z^(2k+1)
    let series = r2
        * (1.0 / 6.0
            + r2 * (-1.0 / 30.0 + r2 * (1.0 / 42.0 + r2 * (-1.0 / 30.0 + r2 * (5.0 / 66.0)))));
    let mut acc = r * series + 0.5 * r2 + r;
    let mut k = shift;
    while k > 0.0 {
        k -= 1.0;
        let y = x + k;
        acc += 1.0 / (y * y);
    }
    acc
}

/// How the weights of the two rankings combine into one weight per item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Scheme {
    /// `w_i ∝ f(a_i) + f(b_i)` (Lombardo et al. 2020, Eq. 9): an item counts
    /// when *either* ranking puts it near the top.
    #[default]
    Additive,
    /// `w_i ∝ f(a_i)·f(b_i)`: an item counts only when *both* rankings put it
    /// near the top.
    Multiplicative,
    /// `w_i ∝ f(a_i)`: weights from the first ranking only (e.g. the human
    /// gold standard, so a model cannot change which items matter).
    First,
    /// `w_i ∝ f(b_i)`: weights from the second ranking only.
    Second,
}

/// Normalised per-item weights from two rank vectors (Eq. 9 and variants).
///
/// ```text
/// Additive:        w_i = (f(a_i) + f(b_i)) / Σ_j (f(a_j) + f(b_j))
/// Multiplicative:  w_i = f(a_i)·f(b_i) / Σ_j f(a_j)·f(b_j)
/// First / Second:  w_i = f(a_i) / Σ_j f(a_j)   (resp. b)
/// ```
///
/// `a` and `b` are 1-based ranks of the same n ≥ 1 items (see
/// [`rank`](crate::rank())): finite and within [1, n], fractional (average)
/// ranks allowed. Both are checked, whichever the scheme uses.
///
/// # Errors
/// [`CorrelationError::LengthMismatch`]; [`CorrelationError::TooFewItems`] for no item;
/// [`CorrelationError::NaN`] or [`CorrelationError::Infinite`] for a rank that is not a number
/// (input `"a"` or `"b"`, first index), then [`CorrelationError::InvalidRank`] for one
/// outside [1, n]; [`CorrelationError::InvalidWeight`] when the weigher returns a
/// negative, NaN or infinite value (index of the item);
/// [`CorrelationError::ZeroWeights`] when every weight is zero.
///
/// # Complexity
/// O(n), n evaluations of the weigher per ranking used.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{item_weights, Hyperbolic, Scheme};
/// let w = item_weights(&[1.0, 2.0], &[2.0, 1.0], &Hyperbolic, Scheme::Additive)?;
/// assert_eq!(w, [0.5, 0.5]);
/// let w = item_weights(&[1.0, 2.0], &[2.0, 1.0], &Hyperbolic, Scheme::First)?;
/// assert!((w[0] - 2.0 / 3.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn item_weights<W: Weigher + ?Sized>(
    a: &[f64],
    b: &[f64],
    weigher: &W,
    scheme: Scheme,
) -> Result<Vec<f64>> {
    crate::correlation::error::check_pair_len("a", a, "b", b, 1)?;
    crate::correlation::error::check_finite("a", a)?;
    crate::correlation::error::check_finite("b", b)?;
    crate::rank::validate_ranks("a", a)?;
    crate::rank::validate_ranks("b", b)?;
    let mut w: Vec<f64> = match scheme {
        Scheme::Additive => a
            .iter()
            .zip(b)
            .map(|(&x, &y)| weigher.weight(x) + weigher.weight(y))
            .collect(),
        Scheme::Multiplicative => a
            .iter()
            .zip(b)
            .map(|(&x, &y)| weigher.weight(x) * weigher.weight(y))
            .collect(),
        Scheme::First => a.iter().map(|&x| weigher.weight(x)).collect(),
        Scheme::Second => b.iter().map(|&y| weigher.weight(y)).collect(),
    };
    normalise(&mut w)?;
    Ok(w)
}

/// Validates weights (finite, ≥ 0, not all zero) and scales them to sum 1.
///
/// # Errors
/// [`CorrelationError::InvalidWeight`], [`CorrelationError::ZeroWeights`].
pub(crate) fn normalise(w: &mut [f64]) -> Result<()> {
    crate::correlation::error::check_weights(w)?;
    let total = crate::sum::neumaier(w.iter().copied());
    if !total.is_finite() {
        // Each weight is finite but the sum overflowed: scale first.
        let max = w.iter().copied().fold(0.0, f64::max);
        w.iter_mut().for_each(|v| *v /= max);
        return normalise(w);
    }
    w.iter_mut().for_each(|v| *v /= total);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigamma_known_values() {
        // ψ⁽¹⁾(1) = π²/6, ψ⁽¹⁾(1/2) = π²/2, ψ⁽¹⁾(3) = π²/6 − 1 − 1/4.
        let pi2 = core::f64::consts::PI.powi(2);
        assert!((trigamma(1.0) - pi2 / 6.0).abs() < 1e-15);
        assert!((trigamma(0.5) - pi2 / 2.0).abs() < 1e-14);
        assert!((trigamma(3.0) - (pi2 / 6.0 - 1.25)).abs() < 1e-15);
        // Large argument: ψ⁽¹⁾(x) ≈ 1/x + 1/(2x²) + 1/(6x³).
        let x = 1e6;
        let approx = 1.0 / x + 0.5 / (x * x) + 1.0 / (6.0 * x * x * x);
        assert!((trigamma(x) / approx - 1.0).abs() < 1e-15);
    }

    #[test]
    fn first_rank_fraction_matches_the_paper_and_a_direct_sum() {
        assert!((first_rank_fraction(0.0).unwrap() - 0.6079).abs() < 1e-4);
        assert!((first_rank_fraction(2.0).unwrap() - 0.2813).abs() < 1e-4);
        // Direct partial sum with its tail ≈ 1/(N + n0 + 1/2).
        for n0 in [0.0, 0.5, 2.0, 7.0] {
            let f = OffsetQuadratic::new(n0).unwrap();
            let big = 100_000;
            let s: f64 =
                (1..=big).map(|n| f.weight(n as f64)).sum::<f64>() + 1.0 / (big as f64 + n0 + 0.5);
            let direct = f.weight(1.0) / s;
            assert!((first_rank_fraction(n0).unwrap() - direct).abs() < 1e-9);
        }
        assert!(first_rank_fraction(-0.1).is_err());
        assert!(first_rank_fraction(f64::NAN).is_err());
    }

    #[test]
    fn builtin_weighers_values() {
        assert_eq!(Hyperbolic.weight(4.0), 0.25);
        assert_eq!(Quadratic.weight(2.0), 0.25);
        assert_eq!(Logarithmic.weight(1.0), 1.0);
        assert_eq!(Unweighted.weight(7.0), 1.0);
        assert_eq!(OffsetQuadratic::new(0.0).unwrap().weight(3.0), 1.0 / 9.0);
        assert_eq!(OffsetQuadratic::default().n0(), 2.0);
    }

    #[test]
    fn item_weights_each_scheme_by_hand() {
        let a = [1.0, 2.0, 3.0];
        let b = [3.0, 2.0, 1.0];
        let add = item_weights(&a, &b, &Hyperbolic, Scheme::Additive).unwrap();
        // f = 1, 1/2, 1/3: sums 4/3, 1, 4/3 over 11/3.
        for (got, want) in add.iter().zip([4.0 / 11.0, 3.0 / 11.0, 4.0 / 11.0]) {
            assert!((got - want).abs() < 1e-15);
        }
        let mul = item_weights(&a, &b, &Hyperbolic, Scheme::Multiplicative).unwrap();
        // products 1/3, 1/4, 1/3 over 11/12.
        for (got, want) in mul.iter().zip([4.0 / 11.0, 3.0 / 11.0, 4.0 / 11.0]) {
            assert!((got - want).abs() < 1e-15);
        }
        let second = item_weights(&a, &b, &Hyperbolic, Scheme::Second).unwrap();
        for (got, want) in second.iter().zip([2.0 / 11.0, 3.0 / 11.0, 6.0 / 11.0]) {
            assert!((got - want).abs() < 1e-15);
        }
    }

    #[test]
    fn item_weights_rejects_bad_weighers() {
        let a = [1.0, 2.0];
        assert_eq!(
            item_weights(&a, &a, &|n: f64| 1.0 - n, Scheme::First),
            Err(CorrelationError::InvalidWeight {
                index: 1,
                problem: WeightProblem::Negative
            })
        );
        assert_eq!(
            item_weights(&a, &a, &|_n: f64| 0.0, Scheme::First),
            Err(CorrelationError::ZeroWeights)
        );
        assert_eq!(
            item_weights(&a, &a, &|_n: f64| f64::NAN, Scheme::Additive),
            Err(CorrelationError::InvalidWeight {
                index: 0,
                problem: WeightProblem::NaN
            })
        );
        assert!(matches!(
            item_weights(&a, &[1.0], &Hyperbolic, Scheme::Additive),
            Err(CorrelationError::LengthMismatch { .. })
        ));
    }

    #[test]
    fn item_weights_reports_the_bad_rank_not_its_weight() {
        // Issue 17: a NaN rank was reported as "weight 0 is infinite".
        assert_eq!(
            item_weights(&[0.0, f64::NAN], &[1.0, 2.0], &Hyperbolic, Scheme::Additive),
            Err(CorrelationError::NaN {
                input: "a",
                index: 1
            })
        );
        assert_eq!(
            item_weights(
                &[1.0, 2.0],
                &[2.0, f64::INFINITY],
                &Hyperbolic,
                Scheme::First
            ),
            Err(CorrelationError::Infinite {
                input: "b",
                index: 1
            })
        );
        // Rank 0 is outside [1, n]: its weight 1/0 is never computed.
        assert_eq!(
            item_weights(&[0.0, 1.0], &[1.0, 2.0], &Hyperbolic, Scheme::Additive),
            Err(CorrelationError::InvalidRank {
                input: "a",
                index: 0,
                len: 2
            })
        );
        // Issue 17: no item said "all weights are zero".
        assert_eq!(
            item_weights(&[], &[], &Hyperbolic, Scheme::Additive),
            Err(CorrelationError::TooFewItems { needed: 1, got: 0 })
        );
        assert_eq!(
            item_weights(&[1.0], &[1.0], &Hyperbolic, Scheme::Additive),
            Ok(vec![1.0])
        );
    }

    #[test]
    fn offsets_whose_weights_underflow_are_refused() {
        // Issue 17: n0 = 1e308 was accepted and every weight was 0.
        for n0 in [1e308, 1e77, f64::MAX, f64::INFINITY, f64::NAN, -0.5] {
            assert!(
                matches!(
                    OffsetQuadratic::new(n0),
                    Err(CorrelationError::InvalidParameter { name: "n0", .. })
                ),
                "{n0}"
            );
            assert!(first_rank_fraction(n0).is_err(), "{n0}");
        }
        // The largest offset keeps every scheme's weights positive and equal.
        let f = OffsetQuadratic::new(OffsetQuadratic::MAX_N0).unwrap();
        let ranks = [1.0, 2.0, 3.0, 4.0];
        for scheme in [
            Scheme::Additive,
            Scheme::Multiplicative,
            Scheme::First,
            Scheme::Second,
        ] {
            let w = item_weights(&ranks, &ranks, &f, scheme).unwrap();
            assert!(
                w.iter().all(|&v| (v - 0.25).abs() < 1e-15),
                "{scheme:?}: {w:?}"
            );
        }
        // R(n0) ≈ 1/(n0 + 1/2) for large n0 (ψ⁽¹⁾(x) ≈ 1/x + 1/(2x²)).
        let r = first_rank_fraction(OffsetQuadratic::MAX_N0).unwrap();
        assert!((r * 1e76 - 1.0).abs() < 1e-12, "{r}");
    }

    #[test]
    fn huge_weights_are_normalised_without_overflow() {
        let mut w = [f64::MAX, f64::MAX];
        normalise(&mut w).unwrap();
        assert_eq!(w, [0.5, 0.5]);
    }
}
