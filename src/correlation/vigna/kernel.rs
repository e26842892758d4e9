//! The O(n log n) kernel: weighted concordance by a merge sort that counts
//! exchanges (Knight 1966, generalised to weights by Vigna 2015).
//!
//! Items are `(a, b, w)` triples sorted by `(a, b)`. One pass over the sorted
//! items sums the weight of pairs tied in `a`, untied in `a` and tied in
//! `(a, b)`; a bottom-up merge sort on `b` sums the weight of exchanged
//! (discordant) pairs; a second pass over the `(b, a)`-sorted result sums the
//! weight of pairs tied in `b`, untied in `b`, and tied in `b` but not in `a`.
//! Every quantity is a sum of non-negative terms, accumulated with
//! compensation, so nothing is obtained by subtracting large sums.

use crate::correlation::vigna::Combine;
use crate::sum::Neumaier;

/// One item: the first key `a` (sorted first), the merge key `b`, the weight.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Item {
    pub(crate) a: f64,
    pub(crate) b: f64,
    pub(crate) w: f64,
}

/// Sorts items by `(a, b)` in increasing order. The keys are finite with no
/// negative zero (normalised by the callers), so `total_cmp` agrees with `<`.
pub(crate) fn sort_by_ab(items: &mut [Item]) {
    items.sort_unstable_by(|p, q| p.a.total_cmp(&q.a).then_with(|| p.b.total_cmp(&q.b)));
}

/// Raw weighted sums of one kernel run (keys `a`, `b`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Sums {
    pub(crate) total: f64,
    pub(crate) tied_a: f64,
    pub(crate) untied_a: f64,
    pub(crate) tied_ab: f64,
    pub(crate) tied_b: f64,
    pub(crate) untied_b: f64,
    /// Pairs tied in `b` with different `a`.
    pub(crate) tied_b_only: f64,
    pub(crate) discordant: f64,
    /// Whether every `a` (resp. `b`) is equal.
    pub(crate) constant_a: bool,
    pub(crate) constant_b: bool,
}

/// Pair sums of a sequence sorted by two keys, grouped on the first key
/// (groups) and, inside a group, on the second (subgroups).
#[derive(Debug, Clone, Copy, Default)]
struct GroupSums {
    /// Σ w over all pairs.
    total: f64,
    /// Pairs inside one group.
    within: f64,
    /// Pairs in different groups.
    across: f64,
    /// Pairs inside one subgroup.
    within_sub: f64,
    /// Pairs inside one group but in different subgroups.
    across_sub: f64,
    /// Number of groups.
    groups: usize,
}

/// Splits off the leading run of items with equal `key`; `None` when empty.
fn split_group<'s>(
    items: &'s [Item],
    key: &impl Fn(&Item) -> f64,
) -> Option<(&'s [Item], &'s [Item])> {
    let first = key(items.first()?);
    let m = items
        .iter()
        .position(|it| key(it) != first)
        .unwrap_or(items.len());
    Some(items.split_at(m))
}

/// Pair weight sums by groups, in one pass, from non-negative terms only.
///
/// ```text
/// Additive        Σ_{i<j∈G} (w_i + w_j) = (m_G − 1)·S_G
///                 Σ_{i∈G, j∉G, i<j}   = Σ_G S_G·(n − m_G)
///                 inside G, across subgroups s: Σ_s S_s·(m_G − m_s)
/// Multiplicative  Σ_{i<j∈G} w_i w_j    = Σ_{i∈G} w_i·(prefix of G before i)
///                 across groups:       Σ_G S_G·(S of earlier groups)
/// ```
fn group_sums(
    items: &[Item],
    k1: impl Fn(&Item) -> f64,
    k2: impl Fn(&Item) -> f64,
    combine: Combine,
) -> GroupSums {
    let n = items.len();
    let mut within_sub = Neumaier::default();
    let mut across_sub = Neumaier::default();
    let mut across = Neumaier::default();
    let mut before = Neumaier::default();
    let mut groups = 0;
    let mut rest = items;
    while let Some((group, tail)) = split_group(rest, &k1) {
        let m_g = group.len();
        rest = tail;
        groups += 1;
        if let [single] = group {
            // The common case without ties: no pair inside the group.
            match combine {
                Combine::Additive => across.add((n - 1) as f64 * single.w),
                Combine::Multiplicative => across.add(single.w * before.value()),
            }
            before.add(single.w);
            continue;
        }
        let mut s_g = Neumaier::default();
        let mut sub_rest = group;
        while let Some((sub, sub_tail)) = split_group(sub_rest, &k2) {
            let m_s = sub.len();
            sub_rest = sub_tail;
            let mut s_s = Neumaier::default();
            match combine {
                Combine::Additive => sub.iter().for_each(|it| s_s.add(it.w)),
                Combine::Multiplicative => {
                    for it in sub {
                        within_sub.add(it.w * s_s.value());
                        s_s.add(it.w);
                    }
                }
            }
            let s = s_s.value();
            match combine {
                Combine::Additive => {
                    within_sub.add((m_s - 1) as f64 * s);
                    across_sub.add((m_g - m_s) as f64 * s);
                }
                Combine::Multiplicative => across_sub.add(s * s_g.value()),
            }
            s_g.add(s);
        }
        let s = s_g.value();
        match combine {
            Combine::Additive => across.add((n - m_g) as f64 * s),
            Combine::Multiplicative => across.add(s * before.value()),
        }
        before.add(s);
    }
    let within = within_sub.value() + across_sub.value();
    let total = match combine {
        Combine::Additive => n.saturating_sub(1) as f64 * before.value(),
        Combine::Multiplicative => within + across.value(),
    };
    GroupSums {
        total,
        within,
        across: across.value(),
        within_sub: within_sub.value(),
        across_sub: across_sub.value(),
        groups,
    }
}

/// Runs the kernel on items sorted by `(a, b)`. On return `items` is sorted
/// by `(b, a)` (the merge is stable), ready for a run with the keys swapped.
/// `scratch` is a second buffer, resized as needed.
pub(crate) fn run_sorted(items: &mut Vec<Item>, scratch: &mut Vec<Item>, combine: Combine) -> Sums {
    let pre = group_sums(items, |it| it.a, |it| it.b, combine);
    let discordant = merge_sort_by_b(items, scratch, combine);
    let post = group_sums(items, |it| it.b, |it| it.a, combine);
    Sums {
        total: pre.total,
        tied_a: pre.within,
        untied_a: pre.across,
        tied_ab: pre.within_sub,
        tied_b: post.within,
        untied_b: post.across,
        tied_b_only: post.across_sub,
        discordant,
        constant_a: pre.groups <= 1,
        constant_b: post.groups <= 1,
    }
}

/// Length of the runs sorted by insertion before merging.
const RUN: usize = 16;

/// Items per block of the cache-resident first merge phase (a power-of-two
/// multiple of [`RUN`]): 2¹⁴ items of 24 bytes, two buffers, fit in L2.
const BLOCK: usize = 1 << 14;

/// Number of merge steps summed in plain arithmetic before the partial sum
/// goes into the compensated accumulator.
const FLUSH: usize = 256;

/// Stable bottom-up merge sort of `items` by `b`, returning the weight of the
/// exchanged pairs: pairs (i, j) with i before j and `b_i > b_j`.
///
/// ```text
/// Additive:        Σ_{exchanged (i,j)} (w_i + w_j)
/// Multiplicative:  Σ_{exchanged (i,j)} w_i·w_j
/// ```
fn merge_sort_by_b(items: &mut Vec<Item>, scratch: &mut Vec<Item>, combine: Combine) -> f64 {
    let n = items.len();
    let mut acc = Neumaier::default();
    for run in items.chunks_mut(RUN) {
        acc.add(insertion_sort(run, combine));
    }
    if n <= RUN {
        return acc.value();
    }
    scratch.clear();
    scratch.resize(n, Item::default());
    // Phase 1: every pass up to runs of BLOCK items, one cache-sized block at
    // a time. Every block makes the same number of passes, so all end up in
    // the same buffer.
    let mut in_scratch = false;
    for (blk, sblk) in items.chunks_mut(BLOCK).zip(scratch.chunks_mut(BLOCK)) {
        let mut width = RUN;
        in_scratch = false;
        while width < BLOCK {
            if in_scratch {
                pass(sblk, blk, width, combine, &mut acc);
            } else {
                pass(blk, sblk, width, combine, &mut acc);
            }
            in_scratch = !in_scratch;
            width *= 2;
        }
    }
    if in_scratch {
        core::mem::swap(items, scratch);
    }
    // Phase 2: the remaining passes over the whole array.
    let mut width = BLOCK;
    while width < n {
        pass(items, scratch, width, combine, &mut acc);
        core::mem::swap(items, scratch);
        width *= 2;
    }
    acc.value()
}

/// One merge pass: runs of `width` items of `src`, merged pairwise into `dst`.
fn pass(src: &[Item], dst: &mut [Item], width: usize, combine: Combine, acc: &mut Neumaier) {
    for (src, dst) in src.chunks(2 * width).zip(dst.chunks_mut(2 * width)) {
        if src.len() <= width {
            dst.copy_from_slice(src);
            continue;
        }
        let (left, right) = src.split_at(width);
        match (left.last(), right.first()) {
            (Some(l), Some(r)) if l.b <= r.b => dst.copy_from_slice(src),
            _ => match combine {
                Combine::Additive => merge::<true>(left, right, dst, acc),
                Combine::Multiplicative => merge::<false>(left, right, dst, acc),
            },
        }
    }
}

/// Sorts a short run by insertion, returning its exchanged weight: moving an
/// element of weight w past k elements of total weight S adds `S + k·w`
/// (additive) or `S·w` (multiplicative).
fn insertion_sort(run: &mut [Item], combine: Combine) -> f64 {
    let mut acc = 0.0;
    for i in 1..run.len() {
        let cur = run[i];
        let mut j = i;
        let mut passed = 0.0;
        while j > 0 && run[j - 1].b > cur.b {
            passed += run[j - 1].w;
            run[j] = run[j - 1];
            j -= 1;
        }
        run[j] = cur;
        acc += match combine {
            Combine::Additive => passed + (i - j) as f64 * cur.w,
            Combine::Multiplicative => passed * cur.w,
        };
    }
    acc
}

/// Merges two runs sorted by `b` into `out`, adding their exchanged weight.
///
/// Accounted when a left element of weight w is emitted after k right
/// elements of total weight P: `w·k + P` (additive) or `w·P`
/// (multiplicative). P only grows, so it is a sum of positive terms. The
/// loop is branch-free in the data (selects instead of jumps): on random
/// input a data-dependent branch is mispredicted half of the time.
#[inline]
fn merge<const ADDITIVE: bool>(
    left: &[Item],
    right: &[Item],
    out: &mut [Item],
    acc: &mut Neumaier,
) {
    let (mut i, mut j) = (0, 0);
    let mut taken = 0.0; // P
    let mut part = 0.0;
    let mut steps = 0;
    let (nl, nr) = (left.len(), right.len());
    let mut o = 0;
    while i < nl && j < nr {
        let (l, r) = (left[i], right[j]);
        let take_right = r.b < l.b;
        out[o] = if take_right { r } else { l };
        // All ones when the right element is taken: masks instead of
        // branches. Left visible, the optimiser turns the masks back into a
        // jump, mispredicted half of the time on random input; `black_box`
        // keeps it opaque (it costs a register move, off the loop's critical
        // path through i and j).
        let right_mask = core::hint::black_box(0u64.wrapping_sub(u64::from(take_right)));
        let passed = if ADDITIVE {
            l.w * j as f64 + taken
        } else {
            l.w * taken
        };
        part += f64::from_bits(passed.to_bits() & !right_mask);
        taken += f64::from_bits(r.w.to_bits() & right_mask);
        j += usize::from(take_right);
        i += usize::from(!take_right);
        o += 1;
        steps += 1;
        if steps == FLUSH {
            acc.add(part);
            part = 0.0;
            steps = 0;
        }
    }
    acc.add(part);
    if i < nl {
        // The right run is exhausted: each remaining left element passes all
        // of it.
        let rest = &left[i..];
        let mut w = Neumaier::default();
        rest.iter().for_each(|it| w.add(it.w));
        acc.add(if ADDITIVE {
            w.value() * j as f64 + rest.len() as f64 * taken
        } else {
            w.value() * taken
        });
        out[o..].copy_from_slice(rest);
    } else {
        out[o..].copy_from_slice(&right[j..]);
    }
}
