//! Weighted Kendall τ in O(n log n): Vigna's (2015) weighted τ, compatible
//! with `scipy.stats.weightedtau`, and the τ_w of Lombardo et al. (2020, Eq. 8).
//!
//! Both are one computation: every pair of items (i, j) gets a weight w_ij
//! built from per-item weights u, and
//!
//! ```text
//! ⟨x, y⟩_w = Σ_{i<j} w_ij · sgn(x_i − x_j) · sgn(y_i − y_j)
//! τ        = ⟨x, y⟩_w / sqrt(⟨x, x⟩_w · ⟨y, y⟩_w)
//!          = (C − D) / sqrt(Σ_{x_i≠x_j} w_ij · Σ_{y_i≠y_j} w_ij)
//! w_ij     = u_i + u_j   (Combine::Additive)   or   u_i · u_j   (Combine::Multiplicative)
//! ```
//!
//! with C and D the weight of the concordant and discordant pairs. With
//! u ≡ 1 this is Kendall's τ-b.
//!
//! * [`weighted_kendall`] is the kernel: you give the per-item weights u and
//!   get every weighted sum ([`WeightedTauStats`]).
//! * [`tau_w_with_weights`](crate::tau_w_with_weights) is the paper's τ_w (this kernel with
//!   multiplicative weights).
//! * [`weighted_tau`] is Vigna's weighted τ: u_i = f(ρ_i + 1) for an
//!   importance rank ρ ([`Rank`]) and a [`Weigher`] f, with SciPy's defaults.
//!
//! # Algorithm
//! Knight (1966) and Vigna (2015, §5) sort by (x, y) and count the weight of
//! the pairs a merge sort by y exchanges. A merge runs at the latency of its
//! chain of dependent loads and compares, so this crate computes the same
//! sums another way, in O(n log n):
//!
//! 1. sort the (y, x) key pairs and the (x, (y, x)-position) pairs, as
//!    integers (counting sorts when the scores are ranks, e.g. in permutation
//!    tests); the positions p_k in the (y, x) order, read along the (x, y)
//!    order, are a permutation, and an earlier item has a larger y exactly
//!    when its p is larger;
//! 2. discordant weight: with additive weights, D = Σ_k u_k·d_k, where
//!    d_k = k + p_k − 2·#{j < k : p_j < p_k} is the number of items
//!    discordant with item k, counted once with a bitmap and a small Fenwick
//!    tree whatever the weights (so [`Rank::Symmetric`] costs one counting
//!    pass for its two importances); with multiplicative weights,
//!    D = Σ_k u_k·(weight of the earlier items with a larger p), from two
//!    sweeps with Fenwick trees of about √n leaves (one over the high bits of
//!    p, one per block of its low bits), which stay in cache;
//! 3. tie sums from one pass over each order, skipped for an input without
//!    ties; C = total − tied_x − tied_y + tied_xy − D.
//!
//! # Exact sums
//! Every weight is an integer times a power of two, so the kernel turns the
//! weights into integers of one fixed-point scale (as many 64-bit limbs as
//! the weights' range and n require) and computes every sum above exactly,
//! subtractions included. Each reported sum is then rounded once, to the
//! nearest f64: every field of [`WeightedTauStats`] is correctly rounded,
//! whatever the weights' range (from subnormal to near `f64::MAX`), however
//! much larger the sums it is derived from, and at any n. τ is formed from
//! the exact numerator C − D and the two exact denominator sums, each rounded
//! once, so it is within a few units in the last place of its exact value
//! (relative to τ itself: a τ of 1e-8 has 15 correct digits). A sum beyond
//! `f64::MAX` is [`CorrelationError::Overflow`], never ∞ or NaN; τ alone
//! ([`weighted_tau`]) is defined even then.
//!
//! # Threads
//! From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, the two
//! sorts (a sample sort whose buckets come from the data), the counting
//! sweep (cut into chunks that each resume from a bitmap of the positions
//! before them) and the exact sums (per chunk, added in order) run on the
//! threads of [`current_threads`](crate::current_threads), every core by
//! default. The pieces' boundaries depend on n and the data only, and every
//! piece's result is an exact integer or a sorted run, so the result is the
//! same, bit for bit, on any number of threads, and the same as on one.
//!
//! At n = 10⁶ (no ties, SciPy's default) the whole computation takes about
//! 2 times one `sort_unstable_by` of the (x, y) pairs on one core, 1.3 times
//! on two, where it is about 160 times faster than
//! `scipy.stats.weightedtau` (0.044 s against 6.9 s;
//! `benches/scipy_compare.sh`).
//!
//! # Differences from `scipy.stats.weightedtau` (on purpose)
//! * A 0/0 coefficient is an error, never a number: a constant input gives
//!   [`CorrelationError::Constant`] (SciPy: NaN; Vigna's Java code: 1.0 when both are
//!   constant), a zero denominator for any other reason (every pair weight
//!   zero) [`CorrelationError::Undefined`] or [`CorrelationError::ZeroWeights`] (SciPy: −1.0).
//! * NaN is an error by default ([`NanPolicy::Error`]); SciPy's rule, NaN
//!   below every number and all NaNs tied, is [`NanPolicy::Smallest`].
//! * Infinite scores are rejected ([`CorrelationError::Infinite`]); fewer than two items
//!   is [`CorrelationError::TooFewItems`] (SciPy: NaN).
//! * Weighers are 1-based (rank 1 is the top): SciPy's `weigher(r)` for its
//!   0-based r is `f(r + 1)` here, so [`Hyperbolic`] is SciPy's default
//!   `1/(r + 1)`.
//! * The weigher is called once per rank (n times), never inside the sweep.
//!
//! # References
//! * S. Vigna, "A weighted correlation index for rankings with ties", WWW 2015.
//! * W. R. Knight, "A computer method for calculating Kendall's tau with
//!   ungrouped data", JASA 61 (1966).
//! * M. Lombardo et al., "Adaptive vote collection …" (2020), §3, Eq. 8.

// Ties are exact equality of scores by definition: comparing floats with
// `==` is the point here, not an accident.
#![allow(clippy::float_cmp)]

mod fixed;
mod kernel;
mod naive;
mod ranked;
mod sums;

pub(crate) use kernel::Layout;
pub use naive::{weighted_kendall_naive, weighted_tau_naive};
pub(crate) use ranked::top_weighted_tau;

use crate::correlation::error::{CorrelationError, Result, check_pair_len, check_weights};
use crate::rank::{Order, Ties, rank_unchecked};
#[cfg(doc)]
use crate::weigh::Unweighted;
use crate::weigh::{Hyperbolic, Weigher};
use kernel::{Along, order_key};
use num_traits::Float;
use sums::Outcome;

/// How two per-item weights combine into the weight of a pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Combine {
    /// `w_ij = u_i + u_j` (Vigna's and SciPy's default, `additive=True`): a
    /// pair counts when either item is important.
    #[default]
    Additive,
    /// `w_ij = u_i · u_j` (SciPy's `additive=False`, and the paper's τ_w):
    /// a pair counts only when both items are important.
    Multiplicative,
}

/// Every weighted pair sum behind a weighted τ, and τ itself.
///
/// ```text
/// total       = Σ_{i<j} w_ij
/// tied_x      = Σ_{i<j, x_i = x_j} w_ij          untied_x = Σ_{i<j, x_i ≠ x_j} w_ij
/// tied_y      = Σ_{i<j, y_i = y_j} w_ij          untied_y = Σ_{i<j, y_i ≠ y_j} w_ij
/// tied_xy     = Σ_{i<j, x_i = x_j, y_i = y_j} w_ij
/// concordant  = Σ_{i<j, (x_i − x_j)(y_i − y_j) > 0} w_ij
/// discordant  = Σ_{i<j, (x_i − x_j)(y_i − y_j) < 0} w_ij
/// tau         = (concordant − discordant) / sqrt(untied_x · untied_y)
/// ```
///
/// Each field is the exact sum rounded once to the nearest f64 (see the
/// [module docs](self)), so `concordant + discordant + tied_x + tied_y −
/// tied_xy = total`, `tied_x + untied_x = total` and `tied_y + untied_y =
/// total` hold exactly before rounding, and every field is accurate to half
/// a unit in its own last place, however small it is next to the others.
/// `tau` is within a few units in its last place.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeightedTauStats {
    /// Weight of all pairs.
    pub total: f64,
    /// Weight of the pairs tied in x.
    pub tied_x: f64,
    /// Weight of the pairs tied in y.
    pub tied_y: f64,
    /// Weight of the pairs tied in both x and y.
    pub tied_xy: f64,
    /// Weight of the pairs not tied in x (the first factor of the denominator).
    pub untied_x: f64,
    /// Weight of the pairs not tied in y (the second factor of the denominator).
    pub untied_y: f64,
    /// Weight of the concordant pairs.
    pub concordant: f64,
    /// Weight of the discordant (exchanged) pairs.
    pub discordant: f64,
    /// The coefficient, in [−1, 1].
    pub tau: f64,
}

/// Converts one score to the kernel's key: NaN by `nan`, −0 to +0, infinite
/// values rejected.
#[inline]
fn key<F: Float>(v: F, input: &'static str, index: usize, nan: NanPolicy) -> Result<f64> {
    let v = v.to_f64().unwrap_or(f64::NAN);
    if v.is_nan() {
        return match nan {
            NanPolicy::Error => Err(CorrelationError::NaN { input, index }),
            NanPolicy::Smallest => Ok(f64::NEG_INFINITY),
        };
    }
    if v.is_infinite() {
        return Err(CorrelationError::Infinite { input, index });
    }
    Ok(v + 0.0)
}

/// Validates x and y, item by item, and converts them to the kernel's keys.
fn keys_xy<F: Float>(x: &[F], y: &[F], nan: NanPolicy) -> Result<(Vec<f64>, Vec<f64>)> {
    check_pair_len("x", x, "y", y, 2)?;
    let mut kx = Vec::with_capacity(x.len());
    let mut ky = Vec::with_capacity(y.len());
    for (i, (&a, &b)) in x.iter().zip(y).enumerate() {
        kx.push(key(a, "x", i, nan)?);
        ky.push(key(b, "y", i, nan)?);
    }
    Ok((kx, ky))
}

/// Validates x and y, item by item, and converts them to the kernel's
/// (order key of y, order key of x) pairs.
fn order_pairs<F: Float>(x: &[F], y: &[F], nan: NanPolicy) -> Result<Vec<(u64, u64)>> {
    check_pair_len("x", x, "y", y, 2)?;
    let finite = |v: F| v.to_f64().is_some_and(f64::is_finite);
    if x.iter().zip(y).all(|(&a, &b)| finite(a) && finite(b)) {
        // The common case, without a check per item: −0 becomes +0.
        let k = |v: F| order_key(v.to_f64().unwrap_or(0.0) + 0.0);
        return Ok(x.iter().zip(y).map(|(&a, &b)| (k(b), k(a))).collect());
    }
    // A NaN or infinite score: the item-by-item checks (an error, or NaN
    // mapped by the policy).
    let (kx, ky) = keys_xy(x, y, nan)?;
    Ok(ky
        .iter()
        .zip(&kx)
        .map(|(&b, &a)| (order_key(b), order_key(a)))
        .collect())
}

/// Weighted concordance of x and y for per-item weights u: every weighted
/// pair sum and τ, in O(n log n).
///
/// ```text
/// w_ij = u_i + u_j  (Additive)   or   u_i · u_j  (Multiplicative)
/// τ    = (C − D) / sqrt(Σ_{x_i≠x_j} w_ij · Σ_{y_i≠y_j} w_ij)
/// ```
///
/// See [`WeightedTauStats`] for every sum. With u ≡ 1 τ is Kendall's τ-b;
/// with multiplicative normalised weights it is the τ_w of Lombardo et al.
/// (2020, Eq. 8), see [`tau_w_with_weights`](crate::tau_w_with_weights). τ does not change when every
/// weight is scaled by the same factor. Any finite weights ≥ 0 are allowed:
/// every sum is computed exactly and rounded once (see the [module
/// docs](self)), so each field is correctly rounded, or the call is
/// [`CorrelationError::Overflow`] when a sum exceeds `f64::MAX`.
///
/// # Errors
/// [`CorrelationError::LengthMismatch`] (x, y, u), [`CorrelationError::TooFewItems`] below two
/// items, [`CorrelationError::NaN`] / [`CorrelationError::Infinite`] for a bad score (input `"x"`
/// or `"y"`, first index), [`CorrelationError::InvalidWeight`] for a negative, NaN or
/// infinite weight, [`CorrelationError::ZeroWeights`] when every weight is 0,
/// [`CorrelationError::Constant`] when x or y is constant, [`CorrelationError::Undefined`] when
/// every pair untied in x (or y) has weight 0, [`CorrelationError::Overflow`] when a
/// sum exceeds `f64::MAX` (e.g. multiplicative weights near 1e308: scale
/// them down, τ does not change).
///
/// # Complexity
/// O(n log n) time: two sorts (counting sorts when x and y are ranks, i.e.
/// multiples of ½ in [0, 2n]) and a counting or Fenwick-tree sweep, in
/// exact integer arithmetic: 128-bit sums when log₂(largest/smallest
/// positive weight) + log₂ n ≤ 74 (hyperbolic or τ_w weights up to
/// n ≈ 10⁷), more 64-bit limbs for wider ranges (slower, up to about 30×
/// for weights spanning the whole f64 range). O(n) memory: a few buffers of
/// n pairs or indices.
///
/// # Threads
/// From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, the sorts,
/// the counting sweep and the sums run on the threads of
/// [`current_threads`](crate::current_threads): pieces whose boundaries
/// depend on n only, each result exact, added in order.
/// The result is the same, bit for bit, on any number of threads (see
/// [`threads`](crate::threads)).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{weighted_kendall, Combine};
/// // Unit weights: Kendall's τ-b. One discordant pair of three: τ = (2 − 1)/3.
/// let s = weighted_kendall(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &[1.0; 3], Combine::Multiplicative)?;
/// assert_eq!((s.concordant, s.discordant, s.total), (2.0, 1.0, 3.0));
/// assert!((s.tau - 1.0 / 3.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// Vigna (2015), §5; Knight (1966); Lombardo et al. (2020), Eq. 8.
pub fn weighted_kendall<F: Float>(
    x: &[F],
    y: &[F],
    u: &[f64],
    combine: Combine,
) -> Result<WeightedTauStats> {
    let pairs = order_pairs(x, y, NanPolicy::Error)?;
    check_pair_len("x", x, "u", u, 2)?;
    check_weights(u)?;
    let (layout, xy) = Layout::with_index(pairs)?;
    let w_xy: Vec<f64> = xy.iter().map(|&i| u[i as usize]).collect();
    one(sums::evaluate(
        &layout,
        &[Along::Xy(&w_xy)],
        combine,
        false,
    )?)
    .stats
}

/// The outcome of a single weight vector.
fn one(outcomes: Vec<Outcome>) -> Outcome {
    outcomes.into_iter().next().unwrap_or(Outcome {
        tau: f64::NAN,
        stats: Err(CorrelationError::ZeroWeights),
    })
}

/// Which importance rank ρ (0 = most important) gives each item its weight
/// `f(ρ + 1)` in [`weighted_tau`]. The names follow SciPy's `rank` argument.
///
/// With the `serde` feature a `Rank` serialises, [`Rank::Given`] as its
/// array; it deserialises too, except [`Rank::Given`], which borrows the
/// caller's array and so cannot be built from serialised data (an error).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "RankRepr")
)]
pub enum Rank<'r> {
    /// The mean of the τ computed with [`Rank::ByXY`] and with
    /// [`Rank::ByYX`] (SciPy's default, `rank=True`): symmetric in x and y.
    #[default]
    Symmetric,
    /// ρ from the decreasing lexicographic order by (x, y) (SciPy's
    /// `rank=None`). Items tied in both x and y take consecutive ranks in an
    /// unspecified order; τ does not depend on it, since such items stand in
    /// the same relation to every other item.
    ByXY,
    /// ρ from the decreasing lexicographic order by (y, x).
    ByYX,
    /// ρ_i = i: the input order is the importance order (SciPy's `rank=False`).
    Index,
    /// ρ from a rank array (smaller = more important), re-ranked densely from
    /// 0 as SciPy does, so only the order of its values matters and equal
    /// values share a weight.
    Given(&'r [f64]),
}

/// The owned mirror of [`Rank`] that serde reads.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
enum RankRepr {
    Symmetric,
    ByXY,
    ByYX,
    Index,
    Given(serde::de::IgnoredAny),
}

#[cfg(feature = "serde")]
impl TryFrom<RankRepr> for Rank<'_> {
    type Error = &'static str;
    fn try_from(r: RankRepr) -> core::result::Result<Self, Self::Error> {
        Ok(match r {
            RankRepr::Symmetric => Rank::Symmetric,
            RankRepr::ByXY => Rank::ByXY,
            RankRepr::ByYX => Rank::ByYX,
            RankRepr::Index => Rank::Index,
            RankRepr::Given(_) => {
                return Err(
                    "a given rank array borrows the caller's data and cannot be deserialised: \
                     deserialise the array and pass `Rank::Given(&array)`",
                );
            }
        })
    }
}

/// What to do with NaN scores in [`weighted_tau`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NanPolicy {
    /// A NaN score is an error, [`CorrelationError::NaN`] with the input and index.
    #[default]
    Error,
    /// SciPy's rule: NaN is below every number and all NaNs are tied.
    Smallest,
}

/// Options of [`weighted_tau`]; the default is SciPy's default
/// (`rank=True`, hyperbolic weigher, additive), with NaN an error.
///
/// Fields are public; the methods set one and return the options, so they
/// read like SciPy's keyword arguments.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{
///     weighted_tau, Combine, NanPolicy, Rank, WeightedTauOptions,
/// };
/// use adaptive_comp_metrics::Quadratic;
/// // scipy.stats.weightedtau(x, y, rank=None, weigher=lambda r: 1/(r+1)**2,
/// //                         additive=False), with NaN as the smallest score
/// let opts = WeightedTauOptions::default()
///     .rank(Rank::ByXY)
///     .weigher(Quadratic)
///     .combine(Combine::Multiplicative)
///     .nan(NanPolicy::Smallest);
/// let t = weighted_tau(&[1.0, f64::NAN, 3.0, 4.0], &[1.0, 2.0, 4.0, 3.0], &opts)?;
/// // Weights 1, 1/4, 1/9, 1/16 for items 3, 2, 0, 1; concordant 125/576,
/// // discordant 148/576, no ties: τ = −23/273 (SciPy: −0.08424908424908381).
/// assert!((t - -23.0 / 273.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeightedTauOptions<'r, W = Hyperbolic> {
    /// The importance rank.
    pub rank: Rank<'r>,
    /// The weigher f, applied to the 1-based rank ρ + 1.
    pub weigher: W,
    /// How the two item weights of a pair combine.
    pub combine: Combine,
    /// What NaN scores mean.
    pub nan: NanPolicy,
}

impl Default for WeightedTauOptions<'_, Hyperbolic> {
    fn default() -> Self {
        Self {
            rank: Rank::Symmetric,
            weigher: Hyperbolic,
            combine: Combine::Additive,
            nan: NanPolicy::Error,
        }
    }
}

impl<'r, W> WeightedTauOptions<'r, W> {
    /// Sets the importance rank.
    #[must_use]
    pub fn rank(self, rank: Rank<'r>) -> Self {
        Self { rank, ..self }
    }

    /// Sets the weigher (any [`Weigher`], closures included).
    #[must_use]
    pub fn weigher<V>(self, weigher: V) -> WeightedTauOptions<'r, V> {
        WeightedTauOptions {
            rank: self.rank,
            weigher,
            combine: self.combine,
            nan: self.nan,
        }
    }

    /// Sets how pair weights combine.
    #[must_use]
    pub fn combine(self, combine: Combine) -> Self {
        Self { combine, ..self }
    }

    /// Sets the NaN policy.
    #[must_use]
    pub fn nan(self, nan: NanPolicy) -> Self {
        Self { nan, ..self }
    }
}

/// Vigna's weighted τ with every weighted sum; see [`weighted_tau`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeightedTau {
    /// The coefficient: `stats.tau`, or for [`Rank::Symmetric`] the mean of
    /// `stats.tau` and `stats_yx.tau`.
    pub tau: f64,
    /// The sums with the importance of the chosen rank (for
    /// [`Rank::Symmetric`], the (x, y) half).
    pub stats: WeightedTauStats,
    /// For [`Rank::Symmetric`], the sums with the (y, x) importance.
    pub stats_yx: Option<WeightedTauStats>,
}

/// Vigna's (2015) weighted τ, with the same numbers as
/// `scipy.stats.weightedtau(x, y, rank, weigher, additive)`.
///
/// ```text
/// u_i  = f(ρ_i + 1)                  ρ the 0-based importance rank, see Rank
/// w_ij = u_i + u_j   or   u_i · u_j
/// τ    = Σ_{i<j} w_ij sgn(x_i − x_j) sgn(y_i − y_j)
///        / sqrt(Σ_{x_i≠x_j} w_ij · Σ_{y_i≠y_j} w_ij)
/// ```
///
/// [`Rank::Symmetric`] (the default) averages the τ of the (x, y) and the
/// (y, x) importance. With [`Unweighted`] every rank gives Kendall's τ-b.
/// Larger scores are more important. SciPy's `weigher(r)` for 0-based `r` is
/// `f(r + 1)` here; see the [module docs](self) for every deliberate
/// difference from SciPy (0/0 and NaN are errors by default).
///
/// # Errors
/// [`CorrelationError::LengthMismatch`] (x, y, or a given rank array),
/// [`CorrelationError::TooFewItems`] below two items, [`CorrelationError::NaN`] (unless
/// [`NanPolicy::Smallest`]) / [`CorrelationError::Infinite`] for a bad score or given
/// rank, with input and index; [`CorrelationError::InvalidWeight`] when the weigher
/// gives a negative, NaN or infinite value (the `index` is the 0-based
/// importance rank ρ); [`CorrelationError::ZeroWeights`]; [`CorrelationError::Constant`] when x or
/// y is constant; [`CorrelationError::Undefined`] when the untied pairs of x or y weigh 0.
/// τ is never [`CorrelationError::Overflow`]: it is scale-free, and formed from the
/// exact sums whatever their size.
///
/// # Complexity
/// O(n log n) time: two sorts of integer key pairs and one counting sweep
/// (additive; [`Rank::Symmetric`] shares it between its two importances) or
/// one Fenwick sweep per importance (multiplicative). O(n) memory; the
/// weigher is called once per rank.
///
/// # Threads
/// As [`weighted_kendall`]: from [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM)
/// items on, on the threads of [`current_threads`](crate::current_threads).
/// The result is the same, bit for bit, on any number of threads (see
/// [`threads`](crate::threads)).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{weighted_tau, Combine, Rank, WeightedTauOptions};
/// let (x, y) = ([12.0, 2.0, 1.0, 12.0, 2.0], [1.0, 4.0, 7.0, 1.0, 0.0]);
/// // SciPy: weightedtau(x, y) = -0.5669496815368272
/// let t = weighted_tau(&x, &y, &WeightedTauOptions::default())?;
/// assert!((t - -0.5669496815368272).abs() < 1e-15);
/// // weightedtau(x, y, rank=None, additive=False) = -0.4064485096624689
/// let opts = WeightedTauOptions::default().rank(Rank::ByXY).combine(Combine::Multiplicative);
/// assert!((weighted_tau(&x, &y, &opts)? - -0.4064485096624689).abs() < 1e-15);
/// // Any closure is a weigher: SciPy's weigher=lambda r: 1/(r+1)**2.
/// let opts = WeightedTauOptions::default().weigher(|n: f64| 1.0 / (n * n));
/// assert!(weighted_tau(&x, &y, &opts)? < 0.0);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// S. Vigna, "A weighted correlation index for rankings with ties", WWW 2015;
/// SciPy `scipy.stats.weightedtau`.
pub fn weighted_tau<F: Float, W: Weigher>(
    x: &[F],
    y: &[F],
    opts: &WeightedTauOptions<'_, W>,
) -> Result<f64> {
    // τ only: defined even when a sum exceeds f64 (it is scale-free).
    let outcomes = outcomes(x, y, opts)?;
    Ok(outcomes.iter().map(|o| o.tau).sum::<f64>() / outcomes.len() as f64)
}

/// [`weighted_tau`] with every weighted sum ([`WeightedTau`]), each exact
/// and rounded once (see [`WeightedTauStats`]).
///
/// # Errors
/// As [`weighted_tau`], and [`CorrelationError::Overflow`] when a sum exceeds
/// `f64::MAX` (a weigher with values near 1e308; [`weighted_tau`] still
/// gives τ).
///
/// # Complexity
/// As [`weighted_tau`].
///
/// # Threads
/// As [`weighted_tau`]; bit for bit the same on any number of threads.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{weighted_tau_stats, Rank, WeightedTauOptions};
/// use adaptive_comp_metrics::Unweighted;
/// // Unweighted and additive: every pair weighs 1 + 1 = 2. Of the 6 pairs,
/// // 5 are concordant.
/// let opts = WeightedTauOptions::default().rank(Rank::ByXY).weigher(Unweighted);
/// let r = weighted_tau_stats(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 4.0, 3.0], &opts)?;
/// assert_eq!((r.stats.concordant, r.stats.discordant), (10.0, 2.0));
/// assert!((r.tau - 4.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn weighted_tau_stats<F: Float, W: Weigher>(
    x: &[F],
    y: &[F],
    opts: &WeightedTauOptions<'_, W>,
) -> Result<WeightedTau> {
    let mut outcomes = outcomes(x, y, opts)?.into_iter();
    let first = outcomes
        .next()
        .map_or(Err(CorrelationError::ZeroWeights), |o| o.stats)?;
    match outcomes.next() {
        None => Ok(WeightedTau {
            tau: first.tau,
            stats: first,
            stats_yx: None,
        }),
        Some(second) => {
            let stats_yx = second.stats?;
            Ok(WeightedTau {
                tau: 0.5 * (first.tau + stats_yx.tau),
                stats: first,
                stats_yx: Some(stats_yx),
            })
        }
    }
}

/// The outcome of each importance of [`weighted_tau`]: one, or two for
/// [`Rank::Symmetric`].
fn outcomes<F: Float, W: Weigher>(
    x: &[F],
    y: &[F],
    opts: &WeightedTauOptions<'_, W>,
) -> Result<Vec<Outcome>> {
    let mut pairs = order_pairs(x, y, opts.nan)?;
    let n = pairs.len();
    let combine = opts.combine;
    match opts.rank {
        Rank::Symmetric | Rank::ByXY | Rank::ByYX => {
            // Ascending (x, y) position k has importance rank n − 1 − k; for
            // the symmetric second half, ascending (y, x) position p has
            // importance rank n − 1 − p: the same weights along the other
            // order (and one counting pass serves both when additive).
            let mut w_pos = weight_table(&opts.weigher, n)?;
            w_pos.reverse();
            let swapped = opts.rank == Rank::ByYX;
            if swapped {
                pairs.iter_mut().for_each(|(a, b)| core::mem::swap(a, b));
            }
            let layout = Layout::new(pairs)?;
            if opts.rank == Rank::Symmetric {
                let both = [Along::Xy(&w_pos[..]), Along::Yx(&w_pos[..])];
                sums::evaluate(&layout, &both, combine, false)
            } else {
                sums::evaluate(&layout, &[Along::Xy(&w_pos)], combine, swapped)
            }
        }
        Rank::Index => {
            let table = weight_table(&opts.weigher, n)?;
            let (layout, xy) = Layout::with_index(pairs)?;
            let w_xy: Vec<f64> = xy.iter().map(|&i| table[i as usize]).collect();
            sums::evaluate(&layout, &[Along::Xy(&w_xy)], combine, false)
        }
        Rank::Given(r) => {
            check_pair_len("x", x, "rank", r, 2)?;
            let dense = dense_ranks(r)?;
            let distinct = dense.iter().copied().max().map_or(0, |m| m + 1);
            let table = weight_table(&opts.weigher, distinct)?;
            let (layout, xy) = Layout::with_index(pairs)?;
            let w_xy: Vec<f64> = xy
                .iter()
                .map(|&i| table.get(dense[i as usize]).copied().unwrap_or(0.0))
                .collect();
            sums::evaluate(&layout, &[Along::Xy(&w_xy)], combine, false)
        }
    }
}

/// `f(ρ + 1)` for ρ = 0 … len − 1, validated (the error index is ρ).
fn weight_table<W: Weigher>(weigher: &W, len: usize) -> Result<Vec<f64>> {
    let table: Vec<f64> = (0..len).map(|r| weigher.weight((r + 1) as f64)).collect();
    check_weights(&table)?;
    Ok(table)
}

/// Dense 0-based ranks of a rank array (smallest value → 0; equal values
/// share a rank), as SciPy's re-ranking of `rank=array`.
fn dense_ranks(r: &[f64]) -> Result<Vec<usize>> {
    for (i, &v) in r.iter().enumerate() {
        key(v, "rank", i, NanPolicy::Error)?;
    }
    Ok(rank_unchecked(r, Order::SmallerIsBetter, Ties::Dense)
        .into_iter()
        .map(|d| d as usize - 1)
        .collect())
}
