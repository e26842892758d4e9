//! The top-weighted rank correlations ρ_w and τ_w of Lombardo et al. (2020, §3).
//!
//! Both compare two rankings a, b of the same n items (rank 1 = top) with
//! normalised per-item weights w (Σ w_i = 1) that grow towards the top:
//!
//! ```text
//!        Σ_i w_i (a_i − ā)(b_i − b̄)
//! ρ_w = ─────────────────────────────,   ā = Σ_i w_i a_i,  σ_a² = Σ_i w_i (a_i − ā)²
//!                σ_a σ_b
//!
//!        Σ_{i≠j} w_i w_j sgn(a_j − a_i) sgn(b_j − b_i)
//! τ_w = ───────────────────────────────────────────────     (Eq. 8)
//!                          Z
//!
//! Z = sqrt(Σ_{i≠j, a_i≠a_j} w_i w_j · Σ_{i≠j, b_i≠b_j} w_i w_j)
//!   = 1 − Σ_i w_i²                     when neither ranking has ties
//!
//! w_i = (f(a_i) + f(b_i)) / Σ_j (f(a_j) + f(b_j)),   f(n) = 1/(n + n0)²   (Eq. 9)
//! ```
//!
//! ρ_w is the weighted Pearson correlation of the rank vectors; τ_w is
//! Kendall's τ-b with pair weights `w_i w_j` and the same tie correction as
//! τ-b. With equal weights they are exactly Spearman's ρ and Kendall's τ-b.
//!
//! [`TopWeighted`] holds the choices (weigher, [`Scheme`], [`Ties`],
//! [`Order`]); [`rho_w`] and [`tau_w`] use the paper's defaults;
//! [`rho_w_with_weights`] and [`tau_w_with_weights`] take weights you computed.

use super::spearman::rank_both;
use crate::correlation::error::{CorrelationError, Result, check_finite, check_pair_len};
use crate::correlation::vigna::{Combine, WeightedTauStats, top_weighted_tau, weighted_kendall};
use crate::rank::{Order, Ties};
use crate::sum::Neumaier;
use crate::weigh::{OffsetQuadratic, Scheme, Weigher, item_weights, normalise};
use num_traits::Float;

/// The weighted Spearman coefficient ρ_w and what it was computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RhoW {
    /// ρ_w ∈ [−1, 1].
    pub rho: f64,
    /// Number of items.
    pub n: usize,
    /// Kish's effective number of items `1/Σ w_i²` of the normalised weights:
    /// how many equally weighted items the weighting is worth.
    pub effective_n: f64,
}

/// The weighted Kendall coefficient τ_w with its weighted pair sums.
///
/// Sums run over unordered pairs `i < j` with pair weight `w_i w_j`
/// (normalised weights), so `total = (1 − Σ w_i²)/2`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TauW {
    /// τ_w ∈ [−1, 1].
    pub tau: f64,
    /// Number of items.
    pub n: usize,
    /// Weight of pairs ordered the same way by both rankings.
    pub concordant: f64,
    /// Weight of pairs ordered oppositely.
    pub discordant: f64,
    /// Weight of pairs tied in the first ranking (including joint ties).
    pub tied_a: f64,
    /// Weight of pairs tied in the second ranking (including joint ties).
    pub tied_b: f64,
    /// Weight of pairs tied in both.
    pub tied_both: f64,
    /// Weight of all pairs.
    pub total: f64,
    /// Kish's effective number of items `1/Σ w_i²`.
    pub effective_n: f64,
}

/// Top-weighted rank correlation with explicit choices; the defaults are
/// the paper's: `f(n) = 1/(n + 2)²`, additive weights (Eq. 9), average
/// ranks for ties, larger score = better.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{Hyperbolic, Order, Scheme, TopWeighted};
/// let human = [0.9, 0.7, 0.4, 0.2, 0.1];
/// let model = [0.8, 0.9, 0.3, 0.2, 0.0];
/// let paper = TopWeighted::new();
/// let rho = paper.rho(&human, &model)?.rho;
/// let tau = paper.tau(&human, &model)?.tau;
/// assert!(rho > 0.0 && tau > 0.0);
///
/// // Weights from the human ranking only, Vigna's hyperbolic weigher,
/// // and a model that outputs distances (smaller = better).
/// let distances = [0.2, 0.1, 0.7, 0.8, 1.0];
/// let gold_weighted = TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First);
/// let on_distances = gold_weighted.orders(Order::LargerIsBetter, Order::SmallerIsBetter);
/// // The distances rank the items as the model's similarities do.
/// assert_eq!(
///     on_distances.rho(&human, &distances)?,
///     gold_weighted.rho(&human, &model)?
/// );
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TopWeighted<W = OffsetQuadratic> {
    weigher: W,
    scheme: Scheme,
    ties: Ties,
    order_x: Order,
    order_y: Order,
}

impl Default for TopWeighted<OffsetQuadratic> {
    fn default() -> Self {
        Self::new()
    }
}

impl TopWeighted<OffsetQuadratic> {
    /// The paper's configuration: `1/(n + 2)²`, additive, average ties,
    /// larger is better for both inputs.
    #[must_use]
    pub fn new() -> Self {
        Self {
            weigher: OffsetQuadratic::default(),
            scheme: Scheme::Additive,
            ties: Ties::Average,
            order_x: Order::LargerIsBetter,
            order_y: Order::LargerIsBetter,
        }
    }
}

impl<W: Weigher> TopWeighted<W> {
    /// Uses another weighting function (any [`Weigher`], closures included).
    #[must_use]
    pub fn weigher<V: Weigher>(self, weigher: V) -> TopWeighted<V> {
        TopWeighted {
            weigher,
            scheme: self.scheme,
            ties: self.ties,
            order_x: self.order_x,
            order_y: self.order_y,
        }
    }

    /// Sets how the two rankings' weights combine per item.
    #[must_use]
    pub fn scheme(mut self, scheme: Scheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// Sets how tied scores are ranked (default [`Ties::Average`]).
    #[must_use]
    pub fn ties(mut self, ties: Ties) -> Self {
        self.ties = ties;
        self
    }

    /// Sets which end of the scale is the top, for both inputs.
    #[must_use]
    pub fn order(self, order: Order) -> Self {
        self.orders(order, order)
    }

    /// Sets which end of the scale is the top, for each input.
    #[must_use]
    pub fn orders(mut self, x: Order, y: Order) -> Self {
        self.order_x = x;
        self.order_y = y;
        self
    }

    /// Ranks both score vectors and computes the normalised item weights.
    ///
    /// # Errors
    /// Length mismatch, fewer than 2 items, NaN or infinite scores (input
    /// `"x"` or `"y"`, with the index), bad weigher values.
    ///
    /// # Complexity
    /// O(n log n).
    ///
    /// # Threads
    /// From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, x and
    /// y are ranked at once on the threads of
    /// [`current_threads`](crate::current_threads); the same result on any
    /// number of threads (see [`threads`](crate::threads)).
    pub fn ranks_and_weights<F: Float>(
        &self,
        x: &[F],
        y: &[F],
    ) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
        check_pair_len("x", x, "y", y, 2)?;
        check_finite("x", x)?;
        check_finite("y", y)?;
        let (a, b) = rank_both(x, y, self.order_x, self.order_y, self.ties);
        let w = item_weights(&a, &b, &self.weigher, self.scheme)?;
        Ok((a, b, w))
    }

    /// ρ_w of two score vectors (Eq. 8), ranked with this configuration.
    ///
    /// # Errors
    /// As [`ranks_and_weights`](Self::ranks_and_weights), and
    /// [`CorrelationError::Constant`] when all scores of an input are equal.
    ///
    /// # Complexity
    /// O(n log n) time, O(n) memory.
    ///
    /// # Threads
    /// As [`ranks_and_weights`](Self::ranks_and_weights); the sums are then
    /// formed in one order.
    pub fn rho<F: Float>(&self, x: &[F], y: &[F]) -> Result<RhoW> {
        let (a, b, w) = self.ranks_and_weights(x, y)?;
        rho_w_normalised(&a, &b, &w)
    }

    /// τ_w of two score vectors (Eq. 8), ranked with this configuration.
    ///
    /// # Errors
    /// As [`rho`](Self::rho).
    ///
    /// # Complexity
    /// O(n log n) time, O(n) memory.
    ///
    /// # Threads
    /// From [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on, the
    /// kernel's sorts and sweeps run on the threads of
    /// [`current_threads`](crate::current_threads), as in
    /// [`weighted_kendall`]; the same result on any
    /// number of threads.
    pub fn tau<F: Float>(&self, x: &[F], y: &[F]) -> Result<TauW> {
        // The kernel's own sorts rank x and y: no ranking sorts of their own.
        let orders = (self.order_x, self.order_y);
        if let Some((s, w)) = top_weighted_tau(x, y, orders, self.ties, &self.weigher, self.scheme)?
        {
            return Ok(tau_w_of(&s, &w));
        }
        let (a, b, w) = self.ranks_and_weights(x, y)?;
        tau_w_normalised(&a, &b, &w)
    }

    /// ρ_w of two ready-made rankings (1-based, rank 1 = top, fractional
    /// ranks allowed for ties); the weights come from these ranks.
    ///
    /// # Errors
    /// Length mismatch, fewer than 2 items, [`CorrelationError::InvalidRank`],
    /// [`CorrelationError::Constant`].
    ///
    /// # Complexity
    /// O(n).
    pub fn rho_ranks(&self, a: &[f64], b: &[f64]) -> Result<RhoW> {
        let w = self.weights_of_ranks(a, b)?;
        rho_w_normalised(a, b, &w)
    }

    /// τ_w of two ready-made rankings; see [`rho_ranks`](Self::rho_ranks).
    ///
    /// # Errors
    /// As [`rho_ranks`](Self::rho_ranks).
    ///
    /// # Complexity
    /// O(n log n) time, O(n) memory.
    pub fn tau_ranks(&self, a: &[f64], b: &[f64]) -> Result<TauW> {
        let w = self.weights_of_ranks(a, b)?;
        tau_w_normalised(a, b, &w)
    }

    fn weights_of_ranks(&self, a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
        check_pair_len("a", a, "b", b, 2)?;
        crate::rank::validate_ranks("a", a)?;
        crate::rank::validate_ranks("b", b)?;
        item_weights(a, b, &self.weigher, self.scheme)
    }
}

/// ρ_w with the paper's defaults ([`TopWeighted::new`]).
///
/// # Errors
/// As [`TopWeighted::rho`].
///
/// # Complexity
/// O(n log n).
///
/// # Threads
/// As [`TopWeighted::rho`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::rho_w;
/// let human = [5.0, 4.0, 3.0, 2.0, 1.0];
/// assert_eq!(rho_w(&human, &human)?.rho, 1.0);
/// // Swapping the top two costs more than swapping the bottom two.
/// let top_swap = rho_w(&human, &[4.0, 5.0, 3.0, 2.0, 1.0])?.rho;
/// let bottom_swap = rho_w(&human, &[5.0, 4.0, 3.0, 1.0, 2.0])?.rho;
/// assert!(top_swap < bottom_swap);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn rho_w<F: Float>(x: &[F], y: &[F]) -> Result<RhoW> {
    TopWeighted::new().rho(x, y)
}

/// τ_w with the paper's defaults ([`TopWeighted::new`]).
///
/// # Errors
/// As [`TopWeighted::tau`].
///
/// # Complexity
/// See [`TopWeighted::tau`].
///
/// # Threads
/// As [`TopWeighted::tau`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::tau_w;
/// let human = [5.0, 4.0, 3.0, 2.0, 1.0];
/// let reversed = [1.0, 2.0, 3.0, 4.0, 5.0];
/// assert_eq!(tau_w(&human, &reversed)?.tau, -1.0);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn tau_w<F: Float>(x: &[F], y: &[F]) -> Result<TauW> {
    TopWeighted::new().tau(x, y)
}

/// ρ_w of any two value vectors (usually ranks) with user-supplied
/// non-negative weights, normalised here to sum 1.
///
/// # Errors
/// Length mismatch (of `a`, `b`, `weights`), fewer than 2 items, non-finite
/// values, [`CorrelationError::InvalidWeight`], [`CorrelationError::ZeroWeights`],
/// [`CorrelationError::Constant`] (all values of an input equal), [`CorrelationError::Undefined`]
/// (all items with positive weight share one value).
///
/// # Complexity
/// O(n).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::rho_w_with_weights;
/// let r = rho_w_with_weights(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &[3.0, 2.0, 1.0])?;
/// assert!(r.rho > 0.0 && r.rho < 1.0);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn rho_w_with_weights(a: &[f64], b: &[f64], weights: &[f64]) -> Result<RhoW> {
    let w = check_user_weights(a, b, weights)?;
    rho_w_normalised(a, b, &w)
}

/// τ_w of any two value vectors with user-supplied non-negative weights,
/// normalised here to sum 1.
///
/// # Errors
/// As [`rho_w_with_weights`].
///
/// # Complexity
/// O(n log n) time, O(n) memory.
///
/// # Threads
/// As [`TopWeighted::tau`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::tau_w_with_weights;
/// let t = tau_w_with_weights(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &[0.5, 0.3, 0.2])?;
/// assert!((t.tau - 0.38 / 0.62).abs() < 1e-12);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn tau_w_with_weights(a: &[f64], b: &[f64], weights: &[f64]) -> Result<TauW> {
    let w = check_user_weights(a, b, weights)?;
    tau_w_normalised(a, b, &w)
}

fn check_user_weights(a: &[f64], b: &[f64], weights: &[f64]) -> Result<Vec<f64>> {
    check_pair_len("a", a, "b", b, 2)?;
    check_pair_len("a", a, "weights", weights, 2)?;
    check_finite("a", a)?;
    check_finite("b", b)?;
    let mut w = weights.to_vec();
    normalise(&mut w)?;
    Ok(w)
}

fn is_constant(v: &[f64]) -> bool {
    v.iter().all(|&x| x == v[0])
}

fn constant_error(a: &[f64], b: &[f64]) -> CorrelationError {
    if is_constant(a) {
        CorrelationError::Constant { input: "x" }
    } else if is_constant(b) {
        CorrelationError::Constant { input: "y" }
    } else {
        CorrelationError::Undefined {
            reason: "every item with positive weight has the same rank in one input",
        }
    }
}

fn effective_n(w: &[f64]) -> f64 {
    1.0 / crate::sum::neumaier(w.iter().map(|v| v * v))
}

/// ρ_w for validated inputs and normalised weights: two passes with
/// compensated sums (means first, then centred moments).
pub(crate) fn rho_w_normalised(a: &[f64], b: &[f64], w: &[f64]) -> Result<RhoW> {
    // Exact checks first: a weighted mean of equal values can carry a
    // rounding residue, which must not turn 0/0 into a tiny number.
    let weighted_constant = |v: &[f64]| {
        let mut carried = v
            .iter()
            .zip(w)
            .filter(|&(_, &wi)| wi > 0.0)
            .map(|(&x, _)| x);
        carried
            .next()
            .is_none_or(|first| carried.all(|x| x == first))
    };
    if weighted_constant(a) || weighted_constant(b) {
        return Err(constant_error(a, b));
    }
    let (mut ma, mut mb) = (Neumaier::default(), Neumaier::default());
    for ((&x, &y), &wi) in a.iter().zip(b).zip(w) {
        ma.add(wi * x);
        mb.add(wi * y);
    }
    let (ma, mb) = (ma.value(), mb.value());
    // Pearson's r is scale-free: dividing the deviations by their largest
    // magnitude keeps user-supplied values near f64::MAX from overflowing.
    let max_dev = |v: &[f64], m: f64| v.iter().fold(0.0f64, |acc, &x| acc.max((x - m).abs()));
    let (sa, sb) = (max_dev(a, ma), max_dev(b, mb));
    if sa == 0.0 || sb == 0.0 || !sa.is_finite() || !sb.is_finite() {
        return Err(constant_error(a, b));
    }
    let (mut sab, mut saa, mut sbb) = (
        Neumaier::default(),
        Neumaier::default(),
        Neumaier::default(),
    );
    for ((&x, &y), &wi) in a.iter().zip(b).zip(w) {
        let (dx, dy) = ((x - ma) / sa, (y - mb) / sb);
        sab.add(wi * dx * dy);
        saa.add(wi * dx * dx);
        sbb.add(wi * dy * dy);
    }
    let (saa, sbb) = (saa.value(), sbb.value());
    if saa <= 0.0 || sbb <= 0.0 {
        return Err(constant_error(a, b));
    }
    // sqrt(s·s) = s exactly, so identical rankings give exactly 1; the
    // product can only underflow for extreme user weights.
    let product = saa * sbb;
    let denominator = if product.is_normal() {
        product.sqrt()
    } else {
        saa.sqrt() * sbb.sqrt()
    };
    let rho = sab.value() / denominator;
    if !rho.is_finite() {
        return Err(CorrelationError::Undefined {
            reason: "the weighted variances underflow",
        });
    }
    Ok(RhoW {
        rho: rho.clamp(-1.0, 1.0),
        n: a.len(),
        effective_n: effective_n(w),
    })
}

/// τ_w for validated inputs and normalised weights: the O(n log n) weighted
/// Kendall kernel with multiplicative pair weights `w_i w_j`.
pub(crate) fn tau_w_normalised(a: &[f64], b: &[f64], w: &[f64]) -> Result<TauW> {
    let s = weighted_kendall(a, b, w, Combine::Multiplicative)?;
    Ok(tau_w_of(&s, w))
}

/// [`TauW`] from the kernel's sums and the normalised weights.
fn tau_w_of(s: &WeightedTauStats, w: &[f64]) -> TauW {
    TauW {
        tau: s.tau,
        n: w.len(),
        concordant: s.concordant,
        discordant: s.discordant,
        tied_a: s.tied_x,
        tied_b: s.tied_y,
        tied_both: s.tied_xy,
        total: s.total,
        effective_n: effective_n(w),
    }
}

impl<W: Weigher> TopWeighted<W> {
    /// The weighting function.
    #[must_use]
    pub fn weighting_function(&self) -> &W {
        &self.weigher
    }

    /// The weighting scheme.
    #[must_use]
    pub fn weighting_scheme(&self) -> Scheme {
        self.scheme
    }
}
