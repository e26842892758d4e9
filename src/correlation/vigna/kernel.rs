//! The orders behind the O(n log n) kernel: two sorts and a counting sweep.
//!
//! Knight (1966) and Vigna (2015) count exchanges in a merge sort; a merge
//! is a chain of dependent loads and compares, so it runs at the latency of
//! that chain, not at the throughput of the processor. Here the items are
//! sorted twice as integer key pairs, (y, x) and then (x, position in the
//! (y, x) order), with counting sorts when the scores are already ranks. The
//! (y, x) positions p_k read along the (x, y) order form a permutation, and
//! an earlier item j < k has a larger y exactly when p_j > p_k: the
//! discordant pairs are the inversions of p. [`Layout`] holds the two
//! orders and the dense ranks along them; [`Layout::for_each_discordant_count`]
//! counts each item's discordant partners,
//!
//! ```text
//! d_k = k + p_k − 2·#{j < k : p_j < p_k}
//! ```
//!
//! with a bitmap and a small Fenwick tree. The weighted sums over these
//! orders are computed exactly in the sibling module `sums`.

use crate::correlation::error::{CorrelationError, Result};
use crate::threads::{self, PARALLEL_FROM, map};

/// Maps a finite score (no −0; NaN mapped beforehand) to a `u64` with the
/// same order, so that sorting compares integers.
#[inline]
pub(crate) fn order_key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// The score of an [`order_key`].
#[inline]
fn from_order_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Whether every key is a multiple of ½ in [0, 2n] (ranks, whatever the
/// tie method): then counting sorts replace comparison sorts.
fn small_keys(keys: impl ExactSizeIterator<Item = u64>) -> Option<Vec<u32>> {
    // Slots up to 4n must fit u32 (and the counting arrays memory).
    if keys.len() > 1 << 28 {
        return None;
    }
    let limit = 4 * keys.len() as u32;
    keys.map(|k| {
        let t = 2.0 * from_order_key(k);
        // In range first, so the conversion is exact or rejected.
        let slot = (t >= 0.0 && t <= f64::from(limit)).then_some(t as u32)?;
        (f64::from(slot) == t).then_some(slot)
    })
    .collect()
}

/// Stable counting sort of `items` by `key(item)` (values at most `max`).
fn stable_by(items: &[u32], key: impl Fn(u32) -> u32, max: usize) -> Vec<u32> {
    let mut start = vec![0u32; max + 2];
    for &i in items {
        start[key(i) as usize + 1] += 1;
    }
    for v in 1..start.len() {
        start[v] += start[v - 1];
    }
    let mut out = vec![0u32; items.len()];
    for &i in items {
        let s = &mut start[key(i) as usize];
        out[*s as usize] = i;
        *s += 1;
    }
    out
}

/// The (x, y) order from the (y, x) order: sorts the positions p = 0 … n − 1
/// by (x key of p, p), which orders ties in x by y, and returns the
/// positions along the (x, y) order and the dense ranks of x.
///
/// The sort is on single `u64` words, the top bits of the x key above the
/// bits of p: half the bytes of (key, position) pairs to move. Runs that
/// share those top bits (ties, or keys that differ only in their lowest
/// bits) are then sorted by the full key.
fn x_positions(x_at: impl Fn(usize) -> u64 + Sync, n: usize, workers: usize) -> (Vec<u32>, Dense) {
    let bits = usize::BITS - n.saturating_sub(1).leading_zeros();
    let low = (1u64 << bits) - 1;
    let words = threads::tabulate(n, workers, |p| (x_at(p) & !low) | p as u64);
    // Distinct words (each holds its position): one sorted order.
    let mut words = threads::sort(words, workers);
    let mut tied = 0;
    let mut start = 0;
    while start < n {
        let top = words[start] & !low;
        let len = words[start..]
            .iter()
            .take_while(|&&w| w & !low == top)
            .count();
        if len > 1 {
            let run = &mut words[start..start + len];
            let mut full: Vec<(u64, u64)> = run
                .iter()
                .map(|&w| (x_at((w & low) as usize), w & low))
                .collect();
            full.sort_unstable();
            tied += full.windows(2).filter(|w| w[0].0 == w[1].0).count();
            for (w, &(_, p)) in run.iter_mut().zip(&full) {
                *w = top | p;
            }
        }
        start += len;
    }
    // One thread: an iterator, which the compiler vectorises (indexing by k
    // is bounds-checked an item: measurable at n = 100).
    let yx_pos = if workers <= 1 {
        words.iter().map(|&w| (w & low) as u32).collect()
    } else {
        threads::tabulate(n, workers, |k| (words[k] & low) as u32)
    };
    let rx = if tied == 0 {
        Dense {
            ranks: Vec::new(),
            distinct: n,
        }
    } else {
        let x = |k: usize| x_at(yx_pos[k] as usize);
        dense_along(n, |k| x(k) != x(k - 1), workers)
    };
    (yx_pos, rx)
}

/// Dense ranks along a sequence sorted by them, from "differs from the
/// previous item" flags; returns the ranks and their number.
fn dense_along(n: usize, differs: impl Fn(usize) -> bool + Sync, workers: usize) -> Dense {
    let distinct = usize::from(n > 0) + threads::count(1..n.max(1), workers, &differs);
    // Without ties the rank is the position: no vector needed.
    let ranks = if distinct < n {
        let mut r = 0u32;
        (0..n)
            .map(|k| {
                r += u32::from(k > 0 && differs(k));
                r
            })
            .collect()
    } else {
        Vec::new()
    };
    Dense { ranks, distinct }
}

/// Dense 0-based ranks along a sorted sequence: empty when there are no
/// ties (then the rank is the position).
struct Dense {
    ranks: Vec<u32>,
    distinct: usize,
}

/// The dense rank at position k: `ranks[k]`, or k itself without ties
/// (`ranks` empty).
fn rank_at(ranks: &[u32], k: u32) -> u32 {
    ranks.get(k as usize).copied().unwrap_or(k)
}

/// The (x, y) and (y, x) orders of the items and the dense ranks along them.
///
/// Positions in the (y, x) order, `p`, are the kernel's currency: along the
/// (x, y) order they form a permutation, and item j before item k in the
/// (x, y) order has a larger y exactly when `p_j > p_k` (ties in y are
/// ordered by x in both orders; items tied in both come in one unspecified
/// order, the same in both, and no sum depends on it).
pub(crate) struct Layout {
    pub(super) n: usize,
    /// Distinct x and y scores.
    pub(super) mx: usize,
    pub(super) my: usize,
    /// (y, x) position of each (x, y) position.
    pub(super) yx_pos: Vec<u32>,
    /// Dense ranks of x and y along the (x, y) order (empty without ties in x:
    /// then no pass over that order is needed).
    pub(super) rx_xy: Vec<u32>,
    pub(super) ry_xy: Vec<u32>,
    /// Dense ranks of y along the (y, x) order, and the (x, y) position of
    /// each (y, x) position (empty without ties in y).
    pub(super) ry_yx: Vec<u32>,
    pub(super) xy_pos: Vec<u32>,
}

impl Layout {
    /// Orders the items, given as ([`order_key`] of y, [`order_key`] of x)
    /// pairs of validated scores (finite, no −0): two sorts (counting sorts
    /// when the scores are ranks) and linear passes.
    ///
    /// # Errors
    /// [`CorrelationError::TooManyItems`] beyond `u32::MAX` items.
    pub(crate) fn new(pairs: Vec<(u64, u64)>) -> Result<Self> {
        Self::build(pairs, false).map(|(layout, _)| layout)
    }

    /// [`Layout::new`], and the input index at each (x, y) position.
    ///
    /// # Errors
    /// As [`Layout::new`].
    pub(crate) fn with_index(pairs: Vec<(u64, u64)>) -> Result<(Self, Vec<u32>)> {
        Self::build(pairs, true)
    }

    fn build(mut pairs: Vec<(u64, u64)>, index: bool) -> Result<(Self, Vec<u32>)> {
        let n = pairs.len();
        let workers = threads::workers_for(n);
        if n > u32::MAX as usize {
            return Err(CorrelationError::TooManyItems {
                max: u32::MAX as usize,
                got: n,
            });
        }
        let small = small_keys(pairs.iter().map(|p| p.1))
            .and_then(|sx| small_keys(pairs.iter().map(|p| p.0)).map(|sy| (sx, sy)));
        // The (y, x) order (with the input indices when asked for), the
        // (y, x) position of each (x, y) position, the dense ranks.
        let (index_yx, yx_pos, ry, rx) = match small {
            Some((sx, sy)) => {
                let all: Vec<u32> = (0..n as u32).collect();
                // The largest slot: counting arrays no longer than needed.
                let max = sx.iter().chain(&sy).copied().max().unwrap_or(0) as usize;
                let by_x = stable_by(&all, |i| sx[i as usize], max);
                let index_yx = stable_by(&by_x, |i| sy[i as usize], max);
                let yx_pos = stable_by(&all, |p| sx[index_yx[p as usize] as usize], max);
                let y_at = |p: usize| sy[index_yx[p] as usize];
                let x_at = |k: usize| sx[index_yx[yx_pos[k] as usize] as usize];
                let ry = dense_along(n, |p| y_at(p) != y_at(p - 1), workers);
                let rx = dense_along(n, |k| x_at(k) != x_at(k - 1), workers);
                (index_yx, yx_pos, ry, rx)
            }
            None if index => {
                let mut yx: Vec<(u64, u64, u32)> = pairs
                    .iter()
                    .zip(0u32..)
                    .map(|(&(y, x), i)| (y, x, i))
                    .collect();
                drop(pairs);
                // Distinct triples (each holds its index): one sorted order,
                // however it is computed (on one thread below PARALLEL_FROM).
                yx = threads::sort(yx, workers);
                let ry = dense_along(n, |p| yx[p].0 != yx[p - 1].0, workers);
                let (yx_pos, rx) = x_positions(|p| yx[p].1, n, workers);
                (yx.into_iter().map(|t| t.2).collect(), yx_pos, ry, rx)
            }
            None => {
                // Equal pairs are indistinguishable: one sorted order.
                pairs = threads::sort(pairs, workers);
                let ry = dense_along(n, |p| pairs[p].0 != pairs[p - 1].0, workers);
                let (yx_pos, rx) = x_positions(|p| pairs[p].1, n, workers);
                (Vec::new(), yx_pos, ry, rx)
            }
        };
        let (ry_yx, my, rx_xy, mx) = (ry.ranks, ry.distinct, rx.ranks, rx.distinct);
        let xy_index: Vec<u32> = if index {
            yx_pos.iter().map(|&p| index_yx[p as usize]).collect()
        } else {
            Vec::new()
        };
        let mut layout = Self {
            n,
            mx,
            my,
            yx_pos,
            rx_xy: Vec::new(),
            ry_xy: Vec::new(),
            ry_yx: Vec::new(),
            xy_pos: Vec::new(),
        };
        if mx < n {
            layout.ry_xy = layout.yx_pos.iter().map(|&p| rank_at(&ry_yx, p)).collect();
            layout.rx_xy = rx_xy;
        }
        if my < n {
            let mut xy_pos = vec![0u32; n];
            for (k, &p) in (0u32..).zip(&layout.yx_pos) {
                xy_pos[p as usize] = k;
            }
            layout.xy_pos = xy_pos;
            layout.ry_yx = ry_yx;
        }
        Ok((layout, xy_index))
    }

    /// Calls `f(k, p_k, d_k)` for each (x, y) position k, in order, with
    /// d_k the number of items discordant with item k: earlier items with a
    /// larger y plus later items with a smaller y,
    ///
    /// ```text
    /// d_k = k + p_k − 2·#{j < k : p_j < p_k}
    /// ```
    ///
    /// The count comes from a bitmap of the positions seen (a popcount
    /// inside a 64-position word) and a Fenwick tree over the words, small
    /// enough (n/16 bytes) to stay in cache, where one tree over all n
    /// positions would miss it. O(n log n), integer arithmetic.
    pub(crate) fn for_each_discordant_count(&self, f: impl FnMut(usize, u32, u32)) {
        let words = self.n / 64 + 1;
        let mut tree = vec![0u32; words + 1];
        let mut seen = vec![0u64; words];
        sweep(&self.yx_pos, 0, &mut tree, &mut seen, f);
    }

    /// The counts d_k of [`Layout::for_each_discordant_count`] along the
    /// (x, y) order, on up to `workers` threads.
    ///
    /// Below [`PARALLEL_FROM`] items, or with one worker, this is the
    /// sequential sweep. Otherwise the (x, y) order is cut into
    /// [`COUNT_CHUNKS`] chunks of a size fixed by n (never by `workers`): a
    /// bitmap of each chunk's positions (in parallel), the union of the
    /// earlier chunks' bitmaps before each chunk (in order) and a Fenwick
    /// tree built from it in O(n/64) let every chunk resume the sweep where
    /// the chunk before would have left it. The counts are the same integers
    /// on any number of threads. Memory: n counts, and two bitmaps of n bits
    /// and a tree of n/16 bytes per chunk, all allocated on the caller's
    /// thread (so that they are reused from call to call).
    pub(crate) fn discordant_counts(&self, workers: usize) -> Vec<u32> {
        let n = self.n;
        if workers <= 1 || n < PARALLEL_FROM {
            // The sweep goes along k = 0, 1, …: pushed in order.
            let mut d = Vec::with_capacity(n);
            self.for_each_discordant_count(|_, _, c| d.push(c));
            return d;
        }
        let mut d = vec![0u32; n];
        let words = n / 64 + 1;
        let chunk = n.div_ceil(COUNT_CHUNKS);
        let chunks = n.div_ceil(chunk);
        // Each chunk's positions, then the positions before each chunk.
        let mut maps = vec![0u64; chunks * words];
        let jobs: Vec<_> = self
            .yx_pos
            .chunks(chunk)
            .zip(maps.chunks_mut(words))
            .collect();
        map(jobs, workers, |(ps, seen)| {
            for &p in ps {
                seen[p as usize / 64] |= 1u64 << (p % 64);
            }
        });
        let mut before = vec![0u64; words];
        for m in maps.chunks_mut(words) {
            for (a, b) in before.iter_mut().zip(m.iter_mut()) {
                let mine = *b;
                *b = *a;
                *a |= mine;
            }
        }
        drop(before);
        let mut trees = vec![0u32; chunks * (words + 1)];
        let jobs: Vec<_> = (0..)
            .step_by(chunk)
            .zip(self.yx_pos.chunks(chunk))
            .zip(maps.chunks_mut(words))
            .zip(trees.chunks_mut(words + 1))
            .zip(d.chunks_mut(chunk))
            .collect();
        map(jobs, workers, |((((start, ps), seen), tree), d)| {
            // The Fenwick tree over the words of `seen`, built in O(words).
            for i in 1..=words {
                tree[i] += seen[i - 1].count_ones();
                let j = i + (i & i.wrapping_neg());
                if j <= words {
                    tree[j] += tree[i];
                }
            }
            sweep(ps, start, tree, seen, |k, _, c| d[k - start] = c);
        });
        d
    }

    /// Calls `f(size)` for each run of equal x along the (x, y) order (runs of
    /// one included when x has ties; none when it has not).
    pub(crate) fn for_each_x_group(&self, f: impl FnMut(u64)) {
        runs(&self.rx_xy, None, f);
    }

    /// Calls `f(size)` for each run of equal y along the (y, x) order (none
    /// when y has no ties).
    pub(crate) fn for_each_y_group(&self, f: impl FnMut(u64)) {
        runs(&self.ry_yx, None, f);
    }

    /// Calls `f(size)` for each run of equal (x, y) along the (x, y) order
    /// (none when x has no ties).
    pub(crate) fn for_each_xy_group(&self, f: impl FnMut(u64)) {
        runs(&self.rx_xy, Some(&self.ry_xy), f);
    }
}

/// Chunks of the parallel counting pass at most ([`Layout::discordant_counts`]):
/// each holds a bitmap of n bits while the counts are made.
pub(crate) const COUNT_CHUNKS: usize = 16;

/// Calls `f(size)` for each run of equal `a` (and equal `b`, when given).
fn runs(a: &[u32], b: Option<&[u32]>, mut f: impl FnMut(u64)) {
    let same = |i: usize, j: usize| a[i] == a[j] && b.is_none_or(|b| b[i] == b[j]);
    let mut start = 0;
    for i in 1..=a.len() {
        if i == a.len() || !same(i, start) {
            f((i - start) as u64);
            start = i;
        }
    }
}

/// The counting sweep of [`Layout::for_each_discordant_count`] over the
/// positions `ps` of (x, y) positions `first …`, from the state `tree`
/// (Fenwick tree over the words of `seen`) and `seen` (the positions of the
/// items before `first`).
fn sweep(
    ps: &[u32],
    first: usize,
    tree: &mut [u32],
    seen: &mut [u64],
    mut f: impl FnMut(usize, u32, u32),
) {
    let words = seen.len();
    for (k, &p) in (first as u64..).zip(ps) {
        let (w, bit) = (p as usize / 64, p % 64);
        // Earlier items in lower words: Fenwick prefix over 1 ..= w.
        let mut smaller = 0u32;
        let mut i = w;
        while i > 0 {
            smaller += tree[i];
            i &= i - 1;
        }
        // Earlier items in this word below p.
        if let Some(word) = seen.get_mut(w) {
            smaller += (*word & ((1u64 << bit) - 1)).count_ones();
            *word |= 1u64 << bit;
        }
        // k + p may exceed u32 (not d_k < n): count in u64.
        let d = k + u64::from(p) - 2 * u64::from(smaller);
        f(k as usize, p, d as u32);
        let mut i = w + 1;
        while i <= words {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
}

/// Per-item weights along one of the two orders of a [`Layout`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Along<'a, T = f64> {
    /// Along the (x, y) order.
    Xy(&'a [T]),
    /// Along the (y, x) order.
    Yx(&'a [T]),
}

impl<'a, T> Along<'a, T> {
    /// The weights, in their order.
    pub(crate) fn values(&self) -> &'a [T] {
        match *self {
            Along::Xy(v) | Along::Yx(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn pairs(x: &[f64], y: &[f64]) -> Vec<(u64, u64)> {
        x.iter()
            .zip(y)
            .map(|(&a, &b)| (order_key(b), order_key(a)))
            .collect()
    }

    /// Per-item discordance counts by the definition, O(n²).
    fn brute_counts(x: &[f64], y: &[f64]) -> Vec<u32> {
        (0..x.len())
            .map(|i| {
                (0..x.len())
                    .filter(|&j| (x[i] - x[j]) * (y[i] - y[j]) < 0.0)
                    .count() as u32
            })
            .collect()
    }

    #[test]
    fn counts_match_the_definition_across_many_words() {
        // n spans many words of the counting bitmap; with and without
        // ties, on the sorting path (negative scores) and the counting path.
        for (n, levels, offset) in [(5000usize, 0u64, -0.5), (4099, 7, -3.0), (3000, 50, 0.0)] {
            let mut g = ChaCha8Rng::seed_from_u64(n as u64);
            let mut draw = || {
                let u: f64 = g.random();
                if levels == 0 {
                    u + offset
                } else {
                    (u * levels as f64).floor() + offset
                }
            };
            let x: Vec<f64> = (0..n).map(|_| draw()).collect();
            let y: Vec<f64> = (0..n).map(|_| draw()).collect();
            let (layout, index) = Layout::with_index(pairs(&x, &y)).unwrap();
            let want = brute_counts(&x, &y);
            let mut got = vec![u32::MAX; n];
            layout.for_each_discordant_count(|k, _, d| got[index[k] as usize] = d);
            assert_eq!(got, want, "n = {n}, levels = {levels}");
        }
    }

    #[test]
    fn chunked_sweeps_count_as_the_single_sweep() {
        // Above the threshold, with and without ties, on the sorting and
        // the counting path: every chunk resumes where the previous left off.
        for (n, levels) in [
            (PARALLEL_FROM + 12_345, 0u32),
            (PARALLEL_FROM + 1, 40),
            (70_001, 0),
        ] {
            let mut g = ChaCha8Rng::seed_from_u64(u64::from(levels) + n as u64);
            let mut draw = || {
                let u: f64 = g.random();
                if levels == 0 {
                    u - 0.5
                } else {
                    (u * f64::from(levels)).floor()
                }
            };
            let x: Vec<f64> = (0..n).map(|_| draw()).collect();
            let y: Vec<f64> = (0..n).map(|_| draw()).collect();
            let layout = Layout::new(pairs(&x, &y)).unwrap();
            let mut want = Vec::new();
            layout.for_each_discordant_count(|k, _, d| {
                assert_eq!(k, want.len());
                want.push(d);
            });
            for workers in [1, 2, 3, 7] {
                let got = layout.discordant_counts(workers);
                assert_eq!(got, want, "n = {n}, {workers} workers");
            }
        }
    }

    #[test]
    fn runs_are_the_tie_groups() {
        let x = [1.0, 2.0, 2.0, 3.0, 3.0, 3.0];
        let y = [5.0, 1.0, 1.0, 2.0, 3.0, 3.0];
        let layout = Layout::new(pairs(&x, &y)).unwrap();
        let (mut gx, mut gy, mut gxy) = (Vec::new(), Vec::new(), Vec::new());
        layout.for_each_x_group(|t| gx.push(t));
        layout.for_each_y_group(|t| gy.push(t));
        layout.for_each_xy_group(|t| gxy.push(t));
        assert_eq!(gx, [1, 2, 3]);
        assert_eq!(gy, [2, 1, 2, 1]);
        assert_eq!(gxy, [1, 2, 1, 2]);
    }

    #[test]
    fn keys_that_differ_only_in_their_last_bits_are_ordered_exactly() {
        // Consecutive floats above 1 share every bit but the last ones: the
        // word sort of the (x, y) order sees one run and must fall back to
        // the full keys. Shuffled, with a few exact ties.
        let n = 2000;
        let mut g = ChaCha8Rng::seed_from_u64(3);
        let mut x: Vec<f64> = (0..n)
            .map(|i| f64::from_bits(1f64.to_bits() + (i as u64 % 1500)))
            .collect();
        for i in (1..n).rev() {
            x.swap(i, g.random_range(0..=i));
        }
        let y: Vec<f64> = (0..n)
            .map(|_| g.random_range(0.0..1e6f64).floor())
            .collect();
        for (a, b) in [(&x, &y), (&y, &x)] {
            let (layout, index) = Layout::with_index(pairs(a, b)).unwrap();
            let mut got = vec![u32::MAX; n];
            layout.for_each_discordant_count(|k, _, d| got[index[k] as usize] = d);
            assert_eq!(got, brute_counts(a, b));
            // x takes 1500 distinct values (i mod 1500 ulps above 1).
            assert_eq!(if a == &x { layout.mx } else { layout.my }, 1500);
        }
    }

    #[test]
    fn ranks_take_the_counting_path_and_agree_with_sorting() {
        // Ranks with ties (multiples of ½) versus the same order shifted
        // below zero, which must be sorted.
        let x = [1.0, 2.5, 2.5, 4.0, 5.0, 6.0];
        let y = [3.0, 1.0, 2.0, 5.5, 5.5, 4.0];
        assert!(small_keys(pairs(&x, &y).iter().map(|p| p.1)).is_some());
        let shift = |v: &[f64]| v.iter().map(|a| a - 10.0).collect::<Vec<_>>();
        assert!(small_keys(pairs(&shift(&x), &y).iter().map(|p| p.1)).is_none());
        let (a, ia) = Layout::with_index(pairs(&x, &y)).unwrap();
        let (b, ib) = Layout::with_index(pairs(&shift(&x), &shift(&y))).unwrap();
        let collect = |l: &Layout, idx: &[u32]| {
            let mut d = vec![0; 6];
            l.for_each_discordant_count(|k, _, c| d[idx[k] as usize] = c);
            d
        };
        assert_eq!(collect(&a, &ia), collect(&b, &ib));
        assert_eq!(collect(&a, &ia), brute_counts(&x, &y));
        // Distinct values by hand: x has one tie (2.5), y one (5.5).
        assert_eq!((a.mx, a.my), (5, 5));
    }

    #[test]
    fn order_keys_round_trip_and_keep_the_order() {
        let v = [
            -f64::MAX,
            -2.5,
            -1e-300,
            0.0,
            1e-300,
            0.5,
            3.0,
            f64::MAX,
            f64::NEG_INFINITY,
        ];
        for &a in &v {
            assert_eq!(from_order_key(order_key(a)), a);
            for &b in &v {
                assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b));
            }
        }
    }
}
