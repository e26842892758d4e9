//! From scores to 1-based ranks, with explicit tie handling.
//!
//! Rank 1 is the best item. By default a larger score is better
//! ([`Order::LargerIsBetter`]); similarity scores, votes and relevance grades
//! all work that way. Distances and error rates use
//! [`Order::SmallerIsBetter`].

use crate::correlation::error::{CorrelationError, Result, check_finite};
use crate::threads::{self, PARALLEL_FROM, workers_for};
use num_traits::Float;

/// Which end of the score scale is the top (rank 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// The largest score gets rank 1 (similarities, votes, grades).
    #[default]
    LargerIsBetter,
    /// The smallest score gets rank 1 (distances, error rates).
    SmallerIsBetter,
}

/// How tied scores are ranked. The names and results are those of
/// `scipy.stats.rankdata(method=…)`, reversed when larger is better.
///
/// For scores `[30, 20, 20, 10]` (larger is better):
///
/// ```text
/// Average  [1, 2.5, 2.5, 4]
/// Min      [1, 2,   2,   4]
/// Max      [1, 3,   3,   4]
/// Dense    [1, 2,   2,   3]
/// Ordinal  [1, 2,   3,   4]   (ties in input order)
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ties {
    /// Tied items share the mean of the ranks they span (the usual choice
    /// for Spearman's ρ; ranks always sum to n(n + 1)/2).
    #[default]
    Average,
    /// Tied items share the best (smallest) rank they span ("competition" ranking).
    Min,
    /// Tied items share the worst (largest) rank they span.
    Max,
    /// Tied items share one rank; the next group gets the next integer.
    Dense,
    /// Every item gets a distinct rank; ties keep their input order. This
    /// leaks input order into the result, so use it only when that order
    /// is meaningful.
    Ordinal,
}

impl Ties {
    /// Every tie method, in the order of the table above (to try them all).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::{rank, Order, Ties};
    /// for ties in Ties::ALL {
    ///     // The untied best item ranks first whatever the tie method.
    ///     let r = rank(&[0.5, 0.9, 0.5], Order::LargerIsBetter, ties)?;
    ///     assert_eq!(r[1], 1.0, "{ties:?}");
    /// }
    /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
    /// ```
    pub const ALL: [Self; 5] = [
        Self::Average,
        Self::Min,
        Self::Max,
        Self::Dense,
        Self::Ordinal,
    ];
}

/// Ranks `scores` from 1 (best) to n.
///
/// ```text
/// rank_i = 1 + #{j : s_j better than s_i}        (Ties::Min)
/// ```
/// and the other [`Ties`] variants as documented there.
///
/// # Errors
/// [`CorrelationError::NaN`] or [`CorrelationError::Infinite`] with the index of the first bad score
/// (input name `"scores"`). An empty slice gives an empty ranking.
///
/// # Complexity
/// O(n log n) time, O(n) extra memory.
///
/// # Threads
/// From [`PARALLEL_FROM`] items on, the sort runs on the threads of
/// [`current_threads`](crate::current_threads); the order it finds is
/// unique (ties by index), so the ranks are the same on any number of
/// threads.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{rank, Order, Ties};
/// let r = rank(&[0.9, 0.1, 0.5, 0.5], Order::LargerIsBetter, Ties::Average)?;
/// assert_eq!(r, [1.0, 4.0, 2.5, 2.5]);
/// let d = rank(&[0.9, 0.1, 0.5, 0.5], Order::SmallerIsBetter, Ties::Dense)?;
/// assert_eq!(d, [3.0, 1.0, 2.0, 2.0]);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn rank<F: Float>(scores: &[F], order: Order, ties: Ties) -> Result<Vec<f64>> {
    check_finite("scores", scores)?;
    Ok(rank_unchecked(scores, order, ties))
}

/// [`rank`] for finite scores (checked by the caller), on the threads of
/// [`current_threads`](crate::current_threads) from
/// [`PARALLEL_FROM`](crate::threads::PARALLEL_FROM) items on.
pub(crate) fn rank_unchecked<F: Float>(scores: &[F], order: Order, ties: Ties) -> Vec<f64> {
    rank_with(scores, order, ties, workers_for(scores.len()))
}

/// [`rank_unchecked`] on up to `workers` threads.
///
/// From [`PARALLEL_FROM`] items on, the (score, index) pairs are sorted as
/// 128-bit integers (the score's order-preserving key above the index) by
/// the parallel sort of [`threads::sort`]: the same order as the comparison
/// sort below (ties by index), so the same ranks.
pub(crate) fn rank_with<F: Float>(
    scores: &[F],
    order: Order,
    ties: Ties,
    workers: usize,
) -> Vec<f64> {
    if scores.len() >= PARALLEL_FROM {
        return rank_keyed(scores, order, ties, workers);
    }
    rank_compared(scores, order, ties)
}

/// [`rank_unchecked`] on the caller's thread by a comparison sort.
fn rank_compared<F: Float>(scores: &[F], order: Order, ties: Ties) -> Vec<f64> {
    let n = scores.len();
    // Sort (key, index) pairs contiguously: an index sort with an indirect
    // comparator is memory-latency bound at large n. Keys are negated for
    // "larger is better"; ties are broken by index, so ordinal ranks keep
    // input order. Finite scores: `to_f64` is exact for f32 and f64.
    let sign = match order {
        Order::LargerIsBetter => -1.0,
        Order::SmallerIsBetter => 1.0,
    };
    let mut keyed: Vec<(f64, usize)> = scores
        .iter()
        .enumerate()
        .map(|(i, v)| (sign * v.to_f64().unwrap_or(0.0) + 0.0, i))
        .collect();
    keyed.sort_unstable_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
    let mut out = vec![0.0; n];
    assign(
        &mut out,
        ties,
        |k| keyed[k].1,
        |a, b| keyed[a].0 == keyed[b].0,
    );
    out
}

/// Writes the ranks from the sorted order into `out`: `index(k)` is the
/// input index at sorted position k, `same(a, b)` whether positions a and b
/// hold equal scores.
fn assign(
    out: &mut [f64],
    ties: Ties,
    index: impl Fn(usize) -> usize,
    same: impl Fn(usize, usize) -> bool,
) {
    let n = out.len();
    let mut start = 0;
    let mut dense = 0.0;
    while start < n {
        let mut end = start + 1;
        while end < n && same(end, start) {
            end += 1;
        }
        dense += 1.0;
        // Positions start..end hold ranks start+1 ..= end.
        let lo = (start + 1) as f64;
        let hi = end as f64;
        for k in start..end {
            out[index(k)] = match ties {
                Ties::Average => 0.5 * (lo + hi),
                Ties::Min => lo,
                Ties::Max => hi,
                Ties::Dense => dense,
                Ties::Ordinal => lo + (k - start) as f64,
            };
        }
        start = end;
    }
}

/// [`rank_with`] by a sort of 128-bit keys ([`rank_keys`]).
fn rank_keyed<F: Float>(scores: &[F], order: Order, ties: Ties, workers: usize) -> Vec<f64> {
    let mut out = vec![0.0; scores.len()];
    rank_of_keys(rank_keys(scores, order), ties, workers, &mut out);
    out
}

/// The 128-bit sort keys of the scores: the score's order-preserving 64-bit
/// key (finite, −0 as +0; negated when larger is better) above the index.
pub(crate) fn rank_keys<F: Float>(scores: &[F], order: Order) -> Vec<u128> {
    let sign = match order {
        Order::LargerIsBetter => -1.0,
        Order::SmallerIsBetter => 1.0,
    };
    scores
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let b = (sign * v.to_f64().unwrap_or(0.0) + 0.0).to_bits();
            let k = if b >> 63 == 1 { !b } else { b | (1 << 63) };
            (u128::from(k) << 64) | i as u128
        })
        .collect()
}

/// The ranks from [`rank_keys`], sorted on up to `workers` threads, into
/// `out` (of the keys' length; allocated by the caller, so that a worker
/// thread allocates nothing large).
pub(crate) fn rank_of_keys(keys: Vec<u128>, ties: Ties, workers: usize, out: &mut [f64]) {
    let keyed = threads::sort(keys, workers);
    assign(
        out,
        ties,
        |k| keyed[k] as u64 as usize,
        |a, b| keyed[a] >> 64 == keyed[b] >> 64,
    );
}

/// Checks that `ranks` is a ready-made ranking of its items: every value
/// finite and within `[1, n]`, where `n = ranks.len()`. Fractional (average)
/// ranks are accepted. Rank 1 is the top.
///
/// # Errors
/// [`CorrelationError::InvalidRank`] naming `input` and the first bad index.
///
/// # Complexity
/// O(n).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::validate_ranks;
/// assert!(validate_ranks("gold", &[1.0, 2.5, 2.5, 4.0]).is_ok());
/// assert!(validate_ranks("gold", &[0.0, 1.0]).is_err());
/// ```
pub fn validate_ranks(input: &'static str, ranks: &[f64]) -> Result<()> {
    let n = ranks.len() as f64;
    match ranks
        .iter()
        .position(|&r| !r.is_finite() || !(1.0..=n).contains(&r))
    {
        Some(index) => Err(CorrelationError::InvalidRank {
            input,
            index,
            len: ranks.len(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: [f64; 4] = [30.0, 20.0, 20.0, 10.0];

    #[test]
    fn every_tie_method_on_the_documented_example() {
        let r = |t| rank(&S, Order::LargerIsBetter, t).unwrap();
        assert_eq!(r(Ties::Average), [1.0, 2.5, 2.5, 4.0]);
        assert_eq!(r(Ties::Min), [1.0, 2.0, 2.0, 4.0]);
        assert_eq!(r(Ties::Max), [1.0, 3.0, 3.0, 4.0]);
        assert_eq!(r(Ties::Dense), [1.0, 2.0, 2.0, 3.0]);
        assert_eq!(r(Ties::Ordinal), [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn smaller_is_better_reverses() {
        let r = rank(&S, Order::SmallerIsBetter, Ties::Average).unwrap();
        assert_eq!(r, [4.0, 2.5, 2.5, 1.0]);
        let o = rank(&S, Order::SmallerIsBetter, Ties::Ordinal).unwrap();
        assert_eq!(o, [4.0, 2.0, 3.0, 1.0]);
    }

    #[test]
    fn f32_scores_and_empty_input() {
        assert_eq!(
            rank(&[1.0f32, 3.0, 2.0], Order::LargerIsBetter, Ties::Min).unwrap(),
            [3.0, 1.0, 2.0]
        );
        assert!(
            rank::<f64>(&[], Order::LargerIsBetter, Ties::Average)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn bad_scores_are_reported_with_their_index() {
        assert_eq!(
            rank(&[1.0, f64::NAN], Order::LargerIsBetter, Ties::Average),
            Err(CorrelationError::NaN {
                input: "scores",
                index: 1
            })
        );
        assert_eq!(
            rank(&[f64::NEG_INFINITY], Order::LargerIsBetter, Ties::Average),
            Err(CorrelationError::Infinite {
                input: "scores",
                index: 0
            })
        );
    }

    #[test]
    fn keyed_ranks_equal_the_comparison_sort() {
        // The comparison sort of (score, index) as the small inputs use it,
        // against the 128-bit keys sorted on 1, 2 and 3 threads.
        let n = PARALLEL_FROM + 4321;
        let mut s = 99u64;
        let mut next = move || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            s >> 33
        };
        let scores: Vec<f64> = (0..n)
            .map(|i| match i % 5 {
                0 => 0.0,
                1 => -0.0,
                2 => (next() % 50) as f64 - 25.0,
                _ => next() as f64 * 1e-3 - 1e6,
            })
            .collect();
        for order in [Order::LargerIsBetter, Order::SmallerIsBetter] {
            for ties in Ties::ALL {
                let want = rank_compared(&scores, order, ties);
                for workers in [1, 2, 3] {
                    let got = rank_with(&scores, order, ties, workers);
                    assert!(got == want, "{order:?} {ties:?} {workers} workers");
                }
            }
        }
    }

    #[test]
    fn validate_ranks_rejects_out_of_range_and_nan() {
        assert!(validate_ranks("a", &[1.0, 2.0, 3.0]).is_ok());
        assert_eq!(
            validate_ranks("a", &[1.0, 4.0, 3.0]),
            Err(CorrelationError::InvalidRank {
                input: "a",
                index: 1,
                len: 3
            })
        );
        assert!(validate_ranks("a", &[1.0, f64::NAN]).is_err());
        assert!(validate_ranks("a", &[0.5, 1.0]).is_err());
    }
}
