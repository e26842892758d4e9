//! τ_w of Lombardo et al. (2020) straight from scores: the kernel's two
//! orders already rank x and y, so the ranks, the item weights and the
//! weighted sums come from one [`Layout`], without sorting the scores again.

use super::kernel::{Along, Layout, order_key};
use super::{Combine, WeightedTauStats, sums};
use crate::correlation::error::{CorrelationError, Result, check_finite, check_pair_len};
use crate::rank::{Order, Ties};
use crate::sum::Neumaier;
use crate::weigh::{Scheme, Weigher};
use num_traits::Float;

/// The multiplicative kernel sums of the ranks of x and y, with the
/// normalised item weights of `weigher` and `scheme`: what
/// `weighted_kendall(rank(x), rank(y), item_weights(…), Multiplicative)`
/// gives, and the weights (along the kernel's order, which only the caller's
/// Σw² sees).
///
/// Sorting by the keys `s·score` (s = −1 when larger is better) orders the
/// items by ascending rank, ties together, so the kernel on these keys is the
/// kernel on the ranks; a tie group spanning ascending positions [s, e) gets
/// the rank its [`Ties`] rule gives to ranks s + 1 … e.
///
/// `Ok(None)` when this path does not apply: [`Ties::Ordinal`] with ties (its
/// ranks follow the input order), or a weigher value that is negative, NaN
/// or infinite (the general path reports it with the item's index).
///
/// # Errors
/// As `TopWeighted::tau`: length mismatch, fewer than two items, NaN or
/// infinite scores (x first), all weights zero, constant inputs.
pub(crate) fn top_weighted_tau<F: Float, W: Weigher>(
    x: &[F],
    y: &[F],
    (order_x, order_y): (Order, Order),
    ties: Ties,
    weigher: &W,
    scheme: Scheme,
) -> Result<Option<(WeightedTauStats, Vec<f64>)>> {
    check_pair_len("x", x, "y", y, 2)?;
    let finite = |v: F| v.to_f64().is_some_and(f64::is_finite);
    if !x.iter().zip(y).all(|(&a, &b)| finite(a) && finite(b)) {
        check_finite("x", x)?;
        check_finite("y", y)?;
    }
    let sign = |o: Order| match o {
        Order::LargerIsBetter => -1.0,
        Order::SmallerIsBetter => 1.0,
    };
    let (sx, sy) = (sign(order_x), sign(order_y));
    // −0 becomes +0, so the two zeros tie.
    let k = |v: F, s: f64| order_key(s * v.to_f64().unwrap_or(0.0) + 0.0);
    let pairs = x
        .iter()
        .zip(y)
        .map(|(&a, &b)| (k(b, sy), k(a, sx)))
        .collect();
    let layout = Layout::new(pairs)?;
    let n = layout.n;
    if ties == Ties::Ordinal && (layout.mx < n || layout.my < n) {
        return Ok(None);
    }
    // Ranks of y along the (y, x) order (read through p); of x by the runs
    // of equal x along the (x, y) order, where the weights are built.
    let b_yx = (layout.my < n).then(|| tied_ranks(&layout.ry_yx, n, ties));
    let b_at = |k: usize| {
        let p = layout.yx_pos[k];
        b_yx.as_ref().map_or(f64::from(p) + 1.0, |b| b[p as usize])
    };
    let f = |r: f64| weigher.weight(r);
    // The weights, their compensated sum (as `item_weights` normalises) and
    // whether each is finite and ≥ 0, in one pass.
    let mut w = Vec::with_capacity(n);
    let mut sum = Neumaier::default();
    let mut valid = true;
    let mut start = 0;
    while start < n {
        let end = run_end(&layout.rx_xy, start);
        let a = tied_rank(start, end, layout.rx_xy.get(start).copied(), ties);
        let fa = if scheme == Scheme::Second { 0.0 } else { f(a) };
        for k in start..end {
            let v = match scheme {
                Scheme::Additive => fa + f(b_at(k)),
                Scheme::Multiplicative => fa * f(b_at(k)),
                Scheme::First => fa,
                Scheme::Second => f(b_at(k)),
            };
            valid &= v.is_finite() && v >= 0.0;
            sum.add(v);
            w.push(v);
        }
        start = end;
    }
    if !valid {
        return Ok(None);
    }
    let mut total = sum.value();
    if total == 0.0 {
        return Err(CorrelationError::ZeroWeights);
    }
    if !total.is_finite() {
        let max = w.iter().copied().fold(0.0, f64::max);
        w.iter_mut().for_each(|v| *v /= max);
        total = crate::sum::neumaier(w.iter().copied());
    }
    w.iter_mut().for_each(|v| *v /= total);
    let outcome = sums::evaluate(&layout, &[Along::Xy(&w)], Combine::Multiplicative, false)?;
    let stats = outcome
        .into_iter()
        .next()
        .map_or(Err(CorrelationError::ZeroWeights), |o| o.stats)?;
    Ok(Some((stats, w)))
}

/// End of the run of equal dense ranks starting at `start` (runs of one
/// when `dense` is empty: no ties).
#[inline]
fn run_end(dense: &[u32], start: usize) -> usize {
    dense.get(start).map_or(start + 1, |&d| {
        start + dense[start..].iter().take_while(|&&v| v == d).count()
    })
}

/// The 1-based rank of the positions start..end of a sorted order, tied
/// together (dense rank `dense` when there are ties), as `rank` gives it.
#[inline]
fn tied_rank(start: usize, end: usize, dense: Option<u32>, ties: Ties) -> f64 {
    // Positions start..end hold ranks start + 1 ..= end.
    let (lo, hi) = ((start + 1) as f64, end as f64);
    match ties {
        Ties::Average => 0.5 * (lo + hi),
        Ties::Max => hi,
        Ties::Dense => dense.map_or(lo, |d| f64::from(d) + 1.0),
        // Ordinal only without ties (checked by the caller): the position.
        Ties::Min | Ties::Ordinal => lo,
    }
}

/// The 1-based rank of each position of a sorted order, from the dense
/// ranks along it (not empty: there are ties).
fn tied_ranks(dense: &[u32], n: usize, ties: Ties) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let end = run_end(dense, start);
        let r = tied_rank(start, end, dense.get(start).copied(), ties);
        out.extend(std::iter::repeat_n(r, end - start));
        start = end;
    }
    out
}
