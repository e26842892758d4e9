//! Every weighted pair sum of the kernel, computed exactly.
//!
//! The weights are turned into integers of one fixed-point scale (see
//! [`Fixed`]): w_k = W_k·2^lsb, with `lsb` the lowest set bit over all
//! weights, and the number of 64-bit limbs chosen from the weights' range
//! and n so that no sum can exceed it. Then
//!
//! ```text
//! total    = Σ_{i<j} w_ij                (n − 1)·Σ W     or  Σ_k W_k·(Σ_{j<k} W_j)
//! tied_x   = Σ over groups of equal x    (m_G − 1)·S_G   or  Σ_k W_k·(prefix in G)
//! tied_y, tied_xy                        the same over groups of equal y, of equal (x, y)
//! D        = additive: Σ_k W_k·d_k (d_k the count of items discordant with k)
//!            multiplicative: Σ_k W_k·(Σ of W_j over earlier items with a larger y)
//! C        = total − tied_x − tied_y + tied_xy − D
//! ```
//!
//! are all exact integers (the subtractions too), and each reported sum is
//! rounded once to the nearest f64: every field of
//! [`WeightedTauStats`] is correctly rounded, whatever the weights' range.
//! τ = (C − D)/sqrt(untied_x·untied_y) is formed from the exact numerator
//! and denominators, each rounded once, so it is within a few units in the
//! last place of the exact value.
//!
//! The multiplicative D needs, for every item, the weight of the earlier
//! items above it: a Fenwick tree. Over all n positions that tree is larger
//! than the caches, and each query misses them; here the positions are
//! split into a high and a low half of their bits. One sweep with a tree over
//! the high halves gives the weight of earlier items in higher blocks and
//! files each item under its block; one sweep per block, with a tree over the
//! low halves, gives the weight of earlier items in the same block. Both trees
//! have about √n leaves and stay in cache.

use super::fixed::{ExponentSums, Fixed, SquareSums, ratio_of_parts, significand, unit_exponent};
use super::kernel::{Along, Layout};
use super::{Combine, WeightedTauStats};
use crate::correlation::error::{CorrelationError, Result};
use crate::threads::{self, PARALLEL_FROM};
use std::borrow::Cow;

/// τ and the sums of one importance (one weight vector).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    /// The coefficient.
    pub(crate) tau: f64,
    /// Every sum, rounded to f64, or [`CorrelationError::Overflow`] when a sum exceeds
    /// the largest f64 (τ is still defined).
    pub(crate) stats: Result<WeightedTauStats>,
}

/// The exact sums of one importance, in units of 2^scale, in the layout's
/// orientation (a = the layout's first key).
struct Exact<const M: usize> {
    total: Fixed<M>,
    tied_a: Fixed<M>,
    tied_b: Fixed<M>,
    tied_ab: Fixed<M>,
    discordant: Fixed<M>,
}

/// The sums and τ of each weight vector over `layout`. `swapped` when the
/// layout's first key is y (so the result's x fields come from its second
/// key).
///
/// # Errors
/// [`CorrelationError::Constant`] (x first), [`CorrelationError::ZeroWeights`] when no weight is
/// positive, [`CorrelationError::Undefined`] when every pair untied in x (or y) has
/// weight 0.
pub(crate) fn evaluate(
    layout: &Layout,
    weights: &[Along<'_>],
    combine: Combine,
    swapped: bool,
) -> Result<Vec<Outcome>> {
    let (constant_a, constant_b) = (layout.mx <= 1, layout.my <= 1);
    let (constant_x, constant_y) = if swapped {
        (constant_b, constant_a)
    } else {
        (constant_a, constant_b)
    };
    if constant_x {
        return Err(CorrelationError::Constant { input: "x" });
    }
    if constant_y {
        return Err(CorrelationError::Constant { input: "y" });
    }
    // The fixed-point scale: every weight is an integer significand times a
    // power of two; lsb is the smallest such unit, and the weights are below
    // 2^(top): integers of top − lsb bits.
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    for (_, w) in first_uses(weights) {
        let v = w.values();
        for &x in v {
            let b = x.to_bits() & !(1u64 << 63);
            if b != 0 {
                lo = lo.min(b);
                hi = hi.max(b);
            }
        }
    }
    if hi == 0 {
        return Err(CorrelationError::ZeroWeights);
    }
    let lsb = unit_exponent(lo);
    let top = unit_exponent(hi) + 53;
    let fx = Scale {
        lsb,
        exps: ((lo >> 52) as usize, (hi >> 52) as usize),
    };
    // Sums of n weights have `log2 n` more bits; products and pair sums at
    // most twice that.
    let n_bits = usize::BITS - layout.n.leading_zeros();
    let bits = (top - lsb) as u32 + n_bits;
    let args = (layout, weights, combine, swapped, fx);
    match bits {
        0..=127 => evaluate_in::<2, 4>(args),
        128..=255 => evaluate_in::<4, 8>(args),
        256..=511 => evaluate_in::<8, 16>(args),
        // At most 1024 + 1074 bits of weights and 32 of n: 2130 ≤ 2176.
        _ => evaluate_in::<34, 68>(args),
    }
}

type Args<'a, 'w> = (&'a Layout, &'a [Along<'w>], Combine, bool, Scale);

/// The fixed-point scale of the weights: integers in units of 2^lsb, and the
/// range of their biased binary exponents (for tables by exponent).
#[derive(Debug, Clone, Copy)]
struct Scale {
    lsb: i32,
    exps: (usize, usize),
}

/// [`evaluate`] with weights of `N` limbs and sums of `M = 2N`. Weights are
/// converted to fixed point where they are used, so no vector of wide
/// integers is stored.
fn evaluate_in<const N: usize, const M: usize>(
    (layout, weights, combine, swapped, fx): Args<'_, '_>,
) -> Result<Vec<Outcome>> {
    // The total pair weight depends on the weights only, not on their
    // order: once per distinct slice.
    let mut totals: Vec<(*const f64, Fixed<M>)> = Vec::new();
    let workers = threads::workers_for(layout.n);
    let discordant: Vec<Fixed<M>> = match combine {
        Combine::Additive if workers > 1 => {
            additive_discordant_parallel::<M>(layout, weights, fx, &mut totals, workers)
        }
        Combine::Additive => additive_discordant::<M>(layout, weights, fx, &mut totals),
        Combine::Multiplicative => weights
            .iter()
            .map(|w| {
                let w_xy = on_xy(layout, *w);
                multiplicative_discordant::<N, M>(&layout.yx_pos, &w_xy, fx.lsb, workers)
            })
            .collect(),
    };
    let scale = match combine {
        Combine::Additive => i64::from(fx.lsb),
        Combine::Multiplicative => 2 * i64::from(fx.lsb),
    };
    weights
        .iter()
        .zip(discordant)
        .map(|(w, discordant)| {
            let ptr = w.values().as_ptr();
            let total = match totals.iter().find(|(p, _)| *p == ptr) {
                Some(&(_, t)) => t,
                None => {
                    let t = total::<N, M>(w.values(), combine, fx);
                    totals.push((ptr, t));
                    t
                }
            };
            let exact = sums::<N, M>(layout, *w, combine, fx, total, discordant);
            outcome(&exact, scale, swapped)
        })
        .collect()
}

/// The weight vectors with their index, each slice at its first use only
/// (the symmetric default gives one slice twice).
fn first_uses<'a, 'w>(weights: &'a [Along<'w>]) -> impl Iterator<Item = (usize, &'a Along<'w>)> {
    weights.iter().enumerate().filter(|&(i, w)| {
        let v = w.values().as_ptr();
        !weights[..i].iter().any(|u| u.values().as_ptr() == v)
    })
}

/// Σ_{i<j} w_ij: (n − 1)·Σ W (additive), ((Σ W)² − Σ W²)/2 (multiplicative).
fn total<const N: usize, const M: usize>(w: &[f64], combine: Combine, fx: Scale) -> Fixed<M> {
    match combine {
        Combine::Additive => {
            let mut s = ExponentSums::new(fx.exps);
            let others = (w.len() - 1) as u64;
            w.iter().enumerate().for_each(|(i, &v)| s.add(i, v, others));
            s.finish(fx.lsb)
        }
        Combine::Multiplicative => {
            let (mut sum, mut squares) = (ExponentSums::new(fx.exps), SquareSums::new(fx.exps));
            for (i, &v) in w.iter().enumerate() {
                sum.add(i, v, 1);
                squares.add(i, v);
            }
            let sum = sum.finish::<N>(fx.lsb);
            sum.mul::<M>(&sum).minus(&squares.finish(fx.lsb)).half()
        }
    }
}

/// The weights along the (x, y) order.
fn on_xy<'a>(layout: &Layout, w: Along<'a>) -> Cow<'a, [f64]> {
    reorder(layout, w, true)
}

/// The weights along the (y, x) order (only asked for when y has ties, so
/// that `xy_pos` exists).
fn on_yx<'a>(layout: &Layout, w: Along<'a>) -> Cow<'a, [f64]> {
    reorder(layout, w, false)
}

/// The weights along the (x, y) order (`to_xy`) or the (y, x) order:
/// borrowed when they already are, else gathered through the layout's
/// positions of one order in the other.
fn reorder<'a>(layout: &Layout, w: Along<'a>, to_xy: bool) -> Cow<'a, [f64]> {
    let (v, pos) = match (w, to_xy) {
        (Along::Xy(v), true) | (Along::Yx(v), false) => return v.into(),
        (Along::Yx(v), true) => (v, &layout.yx_pos),
        (Along::Xy(v), false) => (v, &layout.xy_pos),
    };
    pos.iter()
        .map(|&p| v[p as usize])
        .collect::<Vec<_>>()
        .into()
}

/// The tie sums of one weight vector, with its total and D.
fn sums<const N: usize, const M: usize>(
    layout: &Layout,
    w: Along<'_>,
    combine: Combine,
    fx: Scale,
    total: Fixed<M>,
    discordant: Fixed<M>,
) -> Exact<M> {
    let (tied_a, tied_ab) = if layout.mx < layout.n {
        let w_xy = on_xy(layout, w);
        tied_pairs::<N, M>(&w_xy, fx, &layout.rx_xy, Some(&layout.ry_xy), combine)
    } else {
        (Fixed::ZERO, Fixed::ZERO)
    };
    let tied_b = if layout.my < layout.n {
        let w_yx = on_yx(layout, w);
        tied_pairs::<N, M>(&w_yx, fx, &layout.ry_yx, None, combine).0
    } else {
        Fixed::ZERO
    };
    Exact {
        total,
        tied_a,
        tied_b,
        tied_ab,
        discordant,
    }
}

/// Weight of the pairs inside runs of equal `group` along a sequence, and
/// inside runs of equal (`group`, `sub`):
///
/// ```text
/// Additive        Σ_{i<j in G} (W_i + W_j) = (m_G − 1)·S_G
/// Multiplicative  Σ_{i<j in G} W_i·W_j     = Σ_{i in G} W_i·(Σ of W before i in G)
/// ```
fn tied_pairs<const N: usize, const M: usize>(
    w: &[f64],
    fx: Scale,
    group: &[u32],
    sub: Option<&[u32]>,
    combine: Combine,
) -> (Fixed<M>, Fixed<M>) {
    let n = w.len();
    // End of the run of equal `key` starting at `start`.
    let run_end = |key: &[u32], start: usize, end: usize| {
        start
            + key[start..end]
                .iter()
                .take_while(|&&k| k == key[start])
                .count()
    };
    match combine {
        Combine::Additive => {
            // A run of m items with weight sum S holds pairs of weight
            // (m − 1)·S; the sums of subruns add up to the run's.
            let (mut within, mut within_sub) = (Fixed::<M>::ZERO, Fixed::<M>::ZERO);
            let mut start = 0;
            while start < n {
                let end = run_end(group, start, n);
                if end - start > 1 {
                    let mut s_g = Fixed::<N>::ZERO;
                    let mut a = start;
                    while a < end {
                        let b = sub.map_or(end, |sub| run_end(sub, a, end));
                        let mut s_s = Fixed::<N>::ZERO;
                        for &v in &w[a..b] {
                            s_s.add(&Fixed::from_weight(v, fx.lsb));
                        }
                        if sub.is_some() && b - a > 1 {
                            within_sub.add(&s_s.mul_u64((b - a - 1) as u64));
                        }
                        s_g.add(&s_s);
                        a = b;
                    }
                    within.add(&s_g.mul_u64((end - start - 1) as u64));
                }
                start = end;
            }
            (within, within_sub)
        }
        Combine::Multiplicative => {
            // Each item pairs with the earlier ones of its run.
            let (mut within, mut within_sub) = (Fixed::<M>::ZERO, Fixed::<M>::ZERO);
            let mut start = 0;
            while start < n {
                let end = run_end(group, start, n);
                let mut before = Fixed::<N>::ZERO;
                let (mut sub_start, mut before_sub) = (start, Fixed::<N>::ZERO);
                for i in start..end {
                    let v = Fixed::<N>::from_weight(w[i], fx.lsb);
                    within.add(&v.mul(&before));
                    before.add(&v);
                    if let Some(sub) = sub {
                        if sub[i] != sub[sub_start] {
                            sub_start = i;
                            before_sub = Fixed::ZERO;
                        }
                        within_sub.add(&v.mul(&before_sub));
                        before_sub.add(&v);
                    }
                }
                start = end;
            }
            (within, within_sub)
        }
    }
}

/// The additive discordant weight Σ W_k·d_k of each weight vector, from one
/// counting pass (d_k the number of items discordant with item k), and the
/// total pair weight (n − 1)·Σ W of each distinct weight slice (into
/// `totals`), one pass over each slice for both.
fn additive_discordant<const M: usize>(
    layout: &Layout,
    weights: &[Along<'_>],
    fx: Scale,
    totals: &mut Vec<(*const f64, Fixed<M>)>,
) -> Vec<Fixed<M>> {
    // The counts along both orders, then the weighted sums in order: the
    // counting loop stays free of wide arithmetic, and a random read of a
    // weight per item would stall it on cache misses.
    let need_yx = weights.iter().any(|w| matches!(w, Along::Yx(_)));
    let mut d_xy = Vec::with_capacity(layout.n);
    let mut d_yx = vec![0u32; if need_yx { layout.n } else { 0 }];
    layout.for_each_discordant_count(|_, p, d| {
        d_xy.push(d);
        if let Some(slot) = d_yx.get_mut(p as usize) {
            *slot = d;
        }
    });
    let counts = |w: &Along<'_>| -> &[u32] {
        match w {
            Along::Xy(_) => &d_xy,
            Along::Yx(_) => &d_yx,
        }
    };
    let mut discordant = vec![Fixed::<M>::ZERO; weights.len()];
    for (i, w) in first_uses(weights) {
        let v = w.values();
        // This slice and, when it is given twice (the symmetric default),
        // its second use.
        let second = weights[i + 1..]
            .iter()
            .position(|u| u.values().as_ptr() == v.as_ptr())
            .map(|j| i + 1 + j);
        let (mut sum, mut first_d, mut second_d) = (
            ExponentSums::new(fx.exps),
            ExponentSums::new(fx.exps),
            ExponentSums::new(fx.exps),
        );
        let c1 = counts(w);
        match second {
            Some(j) => {
                let c2 = counts(&weights[j]);
                for (k, ((&x, &a), &b)) in v.iter().zip(c1).zip(c2).enumerate() {
                    let s = significand(x);
                    sum.add_significand(k, s, 1);
                    first_d.add_significand(k, s, u64::from(a));
                    second_d.add_significand(k, s, u64::from(b));
                }
                discordant[j] = second_d.finish(fx.lsb);
            }
            None => {
                for (k, (&x, &a)) in v.iter().zip(c1).enumerate() {
                    let s = significand(x);
                    sum.add_significand(k, s, 1);
                    first_d.add_significand(k, s, u64::from(a));
                }
            }
        }
        discordant[i] = first_d.finish(fx.lsb);
        let others = (layout.n - 1) as u64;
        totals.push((v.as_ptr(), sum.finish::<M>(fx.lsb).mul_u64(others)));
    }
    discordant
}

/// Items per chunk of [`additive_discordant_parallel`]'s weighted sums.
const SUM_CHUNK: usize = 1 << 16;

/// [`additive_discordant`] on up to `workers` threads: the counts d_k from
/// the chunked sweep of [`Layout::discordant_counts`], copied to the (y, x)
/// order when a weight vector runs along it (a scatter: random writes cost
/// less than random reads of the weights would), then the weighted sums in
/// chunks of [`SUM_CHUNK`] positions, each exact, added in chunk order. The
/// same exact integers as the one-thread pass.
fn additive_discordant_parallel<const M: usize>(
    layout: &Layout,
    weights: &[Along<'_>],
    fx: Scale,
    totals: &mut Vec<(*const f64, Fixed<M>)>,
    workers: usize,
) -> Vec<Fixed<M>> {
    let n = layout.n;
    let d_xy = layout.discordant_counts(workers);
    let mut d_yx = Vec::new();
    if weights.iter().any(|w| matches!(w, Along::Yx(_))) {
        d_yx = vec![0u32; n];
        for (&p, &d) in layout.yx_pos.iter().zip(&d_xy) {
            d_yx[p as usize] = d;
        }
    }
    let ranges: Vec<core::ops::Range<usize>> = (0..n)
        .step_by(SUM_CHUNK)
        .map(|s| s..(s + SUM_CHUNK).min(n))
        .collect();
    // Per chunk: Σ W of each weight vector, then Σ W·d of each.
    let parts = threads::map(ranges, workers, |r| {
        let mut out = Vec::with_capacity(2 * weights.len());
        for w in weights {
            let (mut sum, mut dis) = (ExponentSums::new(fx.exps), ExponentSums::new(fx.exps));
            let mut add = |k: usize, x: f64, d: u32| {
                let s = significand(x);
                sum.add_significand(k, s, 1);
                dis.add_significand(k, s, u64::from(d));
            };
            let (v, d) = match *w {
                Along::Xy(v) => (v, &d_xy),
                Along::Yx(v) => (v, &d_yx),
            };
            r.clone().for_each(|k| add(k, v[k], d[k]));
            out.push(sum.finish::<M>(fx.lsb));
            out.push(dis.finish::<M>(fx.lsb));
        }
        out
    });
    let mut sums = vec![Fixed::<M>::ZERO; 2 * weights.len()];
    for part in &parts {
        for (a, b) in sums.iter_mut().zip(part) {
            a.add(b);
        }
    }
    let others = (n - 1) as u64;
    for (i, w) in weights.iter().enumerate() {
        let ptr = w.values().as_ptr();
        if !totals.iter().any(|(p, _)| *p == ptr) {
            totals.push((ptr, sums[2 * i].mul_u64(others)));
        }
    }
    (0..weights.len()).map(|i| sums[2 * i + 1]).collect()
}

/// A Fenwick tree of exact sums over positions 0 … len − 1 (a slice of len
/// nodes), indexed from the top so that "the weight above p" is a prefix:
/// position q has index len − q, so position 0 has none (it is above
/// nothing) and no node covers every position (that sum is never read).
struct Above<'t, const N: usize>(&'t mut [Fixed<N>]);

impl<const N: usize> Above<'_, N> {
    /// Weight of the positions above p (p < len).
    #[inline]
    fn above(&self, p: usize) -> Fixed<N> {
        // Positions p + 1 … len − 1: the indices 1 ..= len − 1 − p.
        let mut i = self.0.len() - 1 - p;
        let mut s = Fixed::<N>::ZERO;
        while i > 0 {
            s.add(&self.0[i]);
            i &= i - 1;
        }
        s
    }

    /// Adds `w` at position p.
    #[inline]
    fn insert(&mut self, p: usize, w: &Fixed<N>) {
        let mut i = self.0.len() - p;
        while i < self.0.len() {
            self.0[i].add(w);
            i += i & i.wrapping_neg();
        }
    }
}

/// Positions with at most this many bits get one Fenwick tree (it fits the
/// cache); more are split into high and low bits.
const ONE_TREE_BITS: u32 = 12;

/// Σ_k W_k·(Σ of W_j over j < k with p_j > p_k), for the permutation `p`
/// of 0 … n − 1: the multiplicative discordant weight, exactly.
///
/// With `workers` > 1 the per-block sweeps of the second stage run in
/// parallel (each block's sum is exact; they are added in block order).
fn multiplicative_discordant<const N: usize, const M: usize>(
    p: &[u32],
    w: &[f64],
    lsb: i32,
    workers: usize,
) -> Fixed<M> {
    let n = p.len();
    let bits = u32::BITS - (n.max(2) as u32 - 1).leading_zeros();
    let fixed = |v: f64| Fixed::<N>::from_weight(v, lsb);
    let mut d = Fixed::<M>::ZERO;
    if bits <= ONE_TREE_BITS {
        let mut nodes = vec![Fixed::<N>::ZERO; n];
        let mut tree = Above(&mut nodes);
        for (&k, &w) in p.iter().zip(w) {
            let w = fixed(w);
            d.add(&w.mul(&tree.above(k as usize)));
            tree.insert(k as usize, &w);
        }
        return d;
    }
    // Block c holds the positions [c·2^low, (c + 1)·2^low) ∩ [0, n): p is a
    // permutation, so its items go to known slots, in order. About 2^7
    // blocks: the fewer, the cheaper their filing (one write stream per
    // block), up to fine trees of 2^16 nodes (low ≤ 16 also fits u16).
    let low = (bits - 7).clamp(bits.div_ceil(2), 16);
    let blocks = ((n - 1) >> low) + 1;
    let mask = (1u32 << low) - 1;
    let mut next: Vec<usize> = (0..blocks).map(|c| c << low).collect();
    let mut low_bits = vec![0u16; n];
    let mut filed = vec![0.0f64; n];
    let mut nodes = vec![Fixed::<N>::ZERO; blocks.max(1 << low)];
    // Earlier items in higher blocks.
    let mut tree = Above(&mut nodes[..blocks]);
    for (&k, &v) in p.iter().zip(w) {
        let c = (k >> low) as usize;
        let w = fixed(v);
        d.add(&w.mul(&tree.above(c)));
        tree.insert(c, &w);
        let slot = next[c];
        low_bits[slot] = (k & mask) as u16;
        filed[slot] = v;
        next[c] = slot + 1;
    }
    // Earlier items in the same block, above in the low bits.
    let block_sum = |nodes: &mut [Fixed<N>], lows: &[u16], ws: &[f64]| {
        let fine = &mut nodes[..lows.len()];
        fine.fill(Fixed::ZERO);
        let mut tree = Above(fine);
        let mut d = Fixed::<M>::ZERO;
        for (&f, &v) in lows.iter().zip(ws) {
            let w = fixed(v);
            d.add(&w.mul(&tree.above(usize::from(f))));
            tree.insert(usize::from(f), &w);
        }
        d
    };
    let blocks = low_bits.chunks(1 << low).zip(filed.chunks(1 << low));
    if workers > 1 && n >= PARALLEL_FROM {
        let jobs: Vec<_> = blocks.collect();
        let parts = threads::map(jobs, workers, |(lows, ws)| {
            let mut nodes = vec![Fixed::<N>::ZERO; lows.len()];
            block_sum(&mut nodes, lows, ws)
        });
        parts.iter().for_each(|part| d.add(part));
    } else {
        for (lows, ws) in blocks {
            d.add(&block_sum(&mut nodes, lows, ws));
        }
    }
    d
}

/// Rounds the exact sums and forms τ.
///
/// # Errors
/// [`CorrelationError::Undefined`] when the untied pairs of x or of y weigh 0.
fn outcome<const M: usize>(e: &Exact<M>, scale: i64, swapped: bool) -> Result<Outcome> {
    let untied_a = e.total.minus(&e.tied_a);
    let untied_b = e.total.minus(&e.tied_b);
    if untied_a.is_zero() || untied_b.is_zero() {
        return Err(CorrelationError::Undefined {
            reason: "every pair untied in x or in y has zero weight",
        });
    }
    // C = total − tied_a − tied_b + tied_ab − D ≥ 0, exact.
    let concordant = e
        .total
        .plus(&e.tied_ab)
        .minus(&e.tied_a)
        .minus(&e.tied_b)
        .minus(&e.discordant);
    let d = &e.discordant;
    let (num, negative) = if concordant.0.iter().rev().cmp(d.0.iter().rev()).is_ge() {
        (concordant.minus(d), false)
    } else {
        (d.minus(&concordant), true)
    };
    let tau = match (
        num.parts(scale),
        untied_a.parts(scale),
        untied_b.parts(scale),
    ) {
        (Some(num), Some(ua), Some(ub)) => {
            let t = ratio_of_parts(num, ua, ub).min(1.0);
            if negative { -t } else { t }
        }
        _ => 0.0,
    };
    let round = |v: &Fixed<M>, quantity: &'static str| {
        v.rounded(scale)
            .ok_or(CorrelationError::Overflow { quantity })
    };
    let stats = (|| {
        let (tied_x, untied_x, tied_y, untied_y) = if swapped {
            (&e.tied_b, &untied_b, &e.tied_a, &untied_a)
        } else {
            (&e.tied_a, &untied_a, &e.tied_b, &untied_b)
        };
        Ok(WeightedTauStats {
            total: round(&e.total, "total pair weight")?,
            tied_x: round(tied_x, "weight of the pairs tied in x")?,
            tied_y: round(tied_y, "weight of the pairs tied in y")?,
            tied_xy: round(&e.tied_ab, "weight of the pairs tied in x and y")?,
            untied_x: round(untied_x, "weight of the pairs untied in x")?,
            untied_y: round(untied_y, "weight of the pairs untied in y")?,
            concordant: round(&concordant, "concordant weight")?,
            discordant: round(d, "discordant weight")?,
            tau,
        })
    })();
    Ok(Outcome { tau, stats })
}
