//! One coefficient per permutation, fast: the per-item data of both
//! rankings prepared once (weigher values, scaled ranks, signed weight
//! ranks, dense levels), then ρ_w in one pass and τ_w with a Fenwick tree,
//! without allocation. Each evaluation also returns nine linear permutation
//! statistics with known means, the control variates of the Monte-Carlo
//! estimator (feature `uncertainty`).
//!
//! Item i of the fixed ranking a meets item π(i) of the permuted ranking b.
//! With w_i = w(a_i, b_π(i)) the scheme's weight (unnormalised: ρ_w and τ_w
//! do not depend on the weights' scale), c = (rank − 1)/n and u the signed
//! weight rank (weight ranked below minus weight ranked above, over the
//! total), the controls are
//!
//! ```text
//! S_k = Σ_i w_i · x_k(a_i) · y_k(b_π(i)),   (x_k, y_k) ∈ {(1,1), (c,1), (1,c), (c²,1), (1,c²), (c,c), (u,u), (u,c), (c,u)}
//! E[S_k] = (1/n) Σ_i Σ_j w(a_i, b_j) x_k(a_i) y_k(b_j)      (π uniform)
//! ```
//!
//! and every w(a, b) of [`Scheme`] is a sum of products f(a)·f(b), so the
//! double sums factor into single sums: O(n) for all nine means.

use super::Coefficient;
use crate::correlation::error::{CorrelationError, WeightProblem};
use crate::sum::neumaier;
use crate::weigh::{Scheme, Weigher};

/// Number of control variates.
pub(crate) const CONTROLS: usize = 9;

/// One item of a ranking, as the kernels read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Item {
    /// Weigher value f(rank), scaled by the common factor.
    f: f64,
    /// (rank − 1)/n.
    c: f64,
    /// Signed weight rank: (Σ f above the item − Σ f below it)/Σ f, where
    /// "above" means a worse (larger) rank.
    u: f64,
    /// Dense 0-based level of the rank (tied items share a level).
    level: u32,
}

/// The coefficient of one permutation and its controls minus their means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sample {
    pub(crate) gamma: f64,
    pub(crate) controls: [f64; CONTROLS],
}

/// Reusable buffers of [`NullKernel::evaluate`].
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    tree: Vec<f64>,
    bucket: Vec<f64>,
}

/// Both rankings prepared for evaluating a coefficient on many permutations.
#[derive(Debug, Clone)]
pub(crate) struct NullKernel {
    coefficient: Coefficient,
    scheme: Scheme,
    /// The fixed ranking, sorted by rank (tie groups contiguous).
    a: Vec<Item>,
    a_tied: bool,
    /// The permuted ranking's items, in input order.
    b: Vec<Item>,
    b_levels: usize,
    control_means: [f64; CONTROLS],
}

impl NullKernel {
    /// Validated 1-based ranks `a` (kept fixed) and `b` (permuted), ties
    /// allowed.
    pub(crate) fn new<W: Weigher + ?Sized>(
        a: &[f64],
        b: &[f64],
        weigher: &W,
        scheme: Scheme,
        coefficient: Coefficient,
    ) -> Result<Self, CorrelationError> {
        let n = a.len();
        crate::correlation::error::check_pair_len("a", a, "b", b, 2)?;
        let fa = weigher_values(a, weigher)?;
        let fb = weigher_values(b, weigher)?;
        let scale = {
            let (sa, sb) = (neumaier(fa.iter().copied()), neumaier(fb.iter().copied()));
            let s = if sa > 0.0 { sa } else { sb };
            if !(s > 0.0 && s.is_finite()) {
                return Err(CorrelationError::ZeroWeights);
            }
            1.0 / s
        };
        let (a_items, _) = items(a, &fa, scale, n);
        let (b_items, b_levels) = items(b, &fb, scale, n);
        let mut a_sorted = a_items;
        a_sorted.sort_by_key(|it| it.level);
        let a_tied = a_sorted.windows(2).any(|p| p[0].level == p[1].level);
        if a_sorted.first().map(|i| i.level) == a_sorted.last().map(|i| i.level) {
            return Err(CorrelationError::Constant { input: "x" });
        }
        if b_levels < 2 {
            return Err(CorrelationError::Constant { input: "y" });
        }
        let control_means = control_means(&a_sorted, &b_items, scheme);
        Ok(Self {
            coefficient,
            scheme,
            a: a_sorted,
            a_tied,
            b: b_items,
            b_levels,
            control_means,
        })
    }

    /// The permuted ranking's items in input order: shuffle a copy and
    /// pass it to [`evaluate`](Self::evaluate).
    pub(crate) fn b_items(&self) -> &[Item] {
        &self.b
    }

    /// Buffers for [`evaluate`](Self::evaluate).
    pub(crate) fn scratch(&self) -> Scratch {
        let levels = match self.coefficient {
            Coefficient::Rho => 0,
            Coefficient::Tau => self.b_levels,
        };
        Scratch {
            tree: vec![0.0; levels + 1],
            bucket: vec![0.0; levels],
        }
    }

    /// The coefficient when item i of the sorted fixed ranking meets
    /// `b[i]` (a permutation of [`b_items`](Self::b_items)), and the
    /// centred controls.
    ///
    /// # Errors
    /// [`CorrelationError::Undefined`] when the weighted variance of a ranking (ρ_w)
    /// or the untied pair weight (τ_w) is zero for this permutation.
    pub(crate) fn evaluate(
        &self,
        b: &[Item],
        scratch: &mut Scratch,
    ) -> Result<Sample, CorrelationError> {
        debug_assert_eq!(b.len(), self.a.len());
        let (gamma, mut controls) = match (self.coefficient, self.scheme) {
            (Coefficient::Rho, Scheme::Additive) => rho(&self.a, b, |x, y| x + y),
            (Coefficient::Rho, Scheme::Multiplicative) => rho(&self.a, b, |x, y| x * y),
            (Coefficient::Rho, Scheme::First) => rho(&self.a, b, |x, _| x),
            (Coefficient::Rho, Scheme::Second) => rho(&self.a, b, |_, y| y),
            (Coefficient::Tau, Scheme::Additive) => self.tau(b, scratch, |x, y| x + y),
            (Coefficient::Tau, Scheme::Multiplicative) => self.tau(b, scratch, |x, y| x * y),
            (Coefficient::Tau, Scheme::First) => self.tau(b, scratch, |x, _| x),
            (Coefficient::Tau, Scheme::Second) => self.tau(b, scratch, |_, y| y),
        };
        if !gamma.is_finite() {
            return Err(CorrelationError::Undefined {
                reason: "every permuted item with positive weight has the same rank",
            });
        }
        for (s, m) in controls.iter_mut().zip(&self.control_means) {
            *s -= m;
        }
        Ok(Sample {
            gamma: gamma.clamp(-1.0, 1.0),
            controls,
        })
    }

    /// τ_w by a sweep in the fixed ranking's order with a Fenwick tree of
    /// the weight placed at each level of b: N = Σ_{i<j} w_i w_j s_a s_b,
    /// and the untied pair weights as sums of non-negative terms.
    fn tau(
        &self,
        b: &[Item],
        scratch: &mut Scratch,
        combine: impl Fn(f64, f64) -> f64,
    ) -> (f64, [f64; CONTROLS]) {
        let Scratch { tree, bucket } = scratch;
        tree.iter_mut().for_each(|v| *v = 0.0);
        bucket.iter_mut().for_each(|v| *v = 0.0);
        let mut s = [0.0; CONTROLS];
        let (mut numerator, mut all_pairs, mut untied_a, mut tied_b) = (0.0, 0.0, 0.0, 0.0);
        let mut placed = 0.0;
        let mut start = 0;
        let n = self.a.len();
        while start < n {
            // The tie group of a starting at `start`: query every item, then insert.
            let level = self.a[start].level;
            let mut end = start + 1;
            if self.a_tied {
                while end < n && self.a[end].level == level {
                    end += 1;
                }
            }
            for (ia, ib) in self.a[start..end].iter().zip(&b[start..end]) {
                let w = combine(ia.f, ib.f);
                let l = ib.level as usize;
                let less = prefix(tree, l);
                let greater = placed - less - bucket[l];
                numerator += w * (less - greater);
                untied_a += w * placed;
                accumulate(&mut s, w, ia, ib);
            }
            for (ia, ib) in self.a[start..end].iter().zip(&b[start..end]) {
                let w = combine(ia.f, ib.f);
                let l = ib.level as usize;
                all_pairs += w * (placed);
                tied_b += w * bucket[l];
                add(tree, l, w);
                bucket[l] += w;
                placed += w;
            }
            start = end;
        }
        let untied_b = all_pairs - tied_b;
        let gamma = if untied_a > 0.0 && untied_b > 0.0 {
            numerator / (untied_a * untied_b).sqrt()
        } else {
            f64::NAN
        };
        (gamma, s)
    }
}

/// ρ_w in one pass over the pairs, with the nine controls.
#[inline]
fn rho(a: &[Item], b: &[Item], combine: impl Fn(f64, f64) -> f64) -> (f64, [f64; CONTROLS]) {
    let mut s = [0.0; CONTROLS];
    for (ia, ib) in a.iter().zip(b) {
        accumulate(&mut s, combine(ia.f, ib.f), ia, ib);
    }
    // ρ_w = (W·S_ab − S_a·S_b) / √((W·S_aa − S_a²)(W·S_bb − S_b²))
    let cov = s[0] * s[5] - s[1] * s[2];
    let var_a = s[0] * s[3] - s[1] * s[1];
    let var_b = s[0] * s[4] - s[2] * s[2];
    let gamma = if var_a > 0.0 && var_b > 0.0 {
        cov / (var_a * var_b).sqrt()
    } else {
        f64::NAN
    };
    (gamma, s)
}

/// Adds one pair's terms to the nine sums.
#[inline(always)]
fn accumulate(s: &mut [f64; CONTROLS], w: f64, ia: &Item, ib: &Item) {
    let wa = w * ia.c;
    let wb = w * ib.c;
    let wu = w * ia.u;
    s[0] += w;
    s[1] += wa;
    s[2] += wb;
    s[3] += wa * ia.c;
    s[4] += wb * ib.c;
    s[5] += wa * ib.c;
    s[6] += wu * ib.u;
    s[7] += wu * ib.c;
    s[8] += wa * ib.u;
}

/// Sum of the tree's levels below `level`.
#[inline]
fn prefix(tree: &[f64], level: usize) -> f64 {
    let mut i = level;
    let mut acc = 0.0;
    while i > 0 {
        acc += tree[i];
        i &= i - 1;
    }
    acc
}

#[inline]
fn add(tree: &mut [f64], level: usize, w: f64) {
    let mut i = level + 1;
    while i < tree.len() {
        tree[i] += w;
        i += i & i.wrapping_neg();
    }
}

/// The weigher's value at every rank, validated (finite, ≥ 0).
fn weigher_values<W: Weigher + ?Sized>(
    ranks: &[f64],
    weigher: &W,
) -> Result<Vec<f64>, CorrelationError> {
    ranks
        .iter()
        .enumerate()
        .map(|(index, &r)| {
            let v = weigher.weight(r);
            match WeightProblem::of(v) {
                None => Ok(v),
                Some(problem) => Err(CorrelationError::InvalidWeight { index, problem }),
            }
        })
        .collect()
}

/// Items of one ranking (input order) and its number of levels.
fn items(ranks: &[f64], f: &[f64], scale: f64, n: usize) -> (Vec<Item>, usize) {
    let mut order: Vec<usize> = (0..ranks.len()).collect();
    order.sort_by(|&i, &j| ranks[i].total_cmp(&ranks[j]));
    let total = neumaier(f.iter().copied());
    let mut out = vec![
        Item {
            f: 0.0,
            c: 0.0,
            u: 0.0,
            level: 0,
        };
        ranks.len()
    ];
    let mut below = 0.0;
    let mut level = 0u32;
    let mut start = 0;
    while start < order.len() {
        let r = ranks[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| ranks[i] == r)
                .count();
        let group = neumaier(order[start..end].iter().map(|&i| f[i]));
        let above = total - below - group;
        for &i in &order[start..end] {
            out[i] = Item {
                f: f[i] * scale,
                c: (r - 1.0) / n as f64,
                u: if total > 0.0 {
                    (above - below) / total
                } else {
                    0.0
                },
                level,
            };
        }
        below += group;
        level += 1;
        start = end;
    }
    (out, level as usize)
}

/// E[S_k] under a uniform permutation, from single sums.
fn control_means(a: &[Item], b: &[Item], scheme: Scheme) -> [f64; CONTROLS] {
    type Part = fn(&Item) -> f64;
    let one: Part = |_| 1.0;
    let c: Part = |it| it.c;
    let c2: Part = |it| it.c * it.c;
    let u: Part = |it| it.u;
    let pairs: [(Part, Part); CONTROLS] = [
        (one, one),
        (c, one),
        (one, c),
        (c2, one),
        (one, c2),
        (c, c),
        (u, u),
        (u, c),
        (c, u),
    ];
    let n = a.len() as f64;
    let sum = |items: &[Item], g: &dyn Fn(&Item) -> f64| neumaier(items.iter().map(g));
    pairs.map(|(x, y)| {
        let fx = sum(a, &|it| it.f * x(it));
        let px = sum(a, &|it| x(it));
        let fy = sum(b, &|it| it.f * y(it));
        let py = sum(b, &|it| y(it));
        let total = match scheme {
            Scheme::Additive => fx * py + px * fy,
            Scheme::Multiplicative => fx * fy,
            Scheme::First => fx * py,
            Scheme::Second => px * fy,
        };
        total / n
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correlation::gamma::{rho_w_naive, tau_w_naive};
    use crate::weigh::{Hyperbolic, OffsetQuadratic, item_weights};

    /// A deterministic shuffle (xorshift) for the tests.
    fn permutation(n: usize, seed: u64) -> Vec<usize> {
        let mut s = seed | 1;
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            p.swap(i, (s % (i as u64 + 1)) as usize);
        }
        p
    }

    fn check(a: &[f64], b: &[f64], scheme: Scheme) {
        let f = OffsetQuadratic::new(1.0).unwrap();
        for coefficient in [Coefficient::Rho, Coefficient::Tau] {
            let k = NullKernel::new(a, b, &f, scheme, coefficient).unwrap();
            let mut scratch = k.scratch();
            for seed in 1..20u64 {
                let p = permutation(a.len(), seed);
                let bp: Vec<Item> = p.iter().map(|&j| k.b_items()[j]).collect();
                // The sorted a-items in the kernel's order pair with bp; rebuild the
                // pairing as rank vectors for the oracle.
                let mut order: Vec<usize> = (0..a.len()).collect();
                order.sort_by(|&i, &j| a[i].total_cmp(&a[j]));
                let ar: Vec<f64> = order.iter().map(|&i| a[i]).collect();
                let br: Vec<f64> = p.iter().map(|&j| b[j]).collect();
                let w = item_weights(&ar, &br, &f, scheme).unwrap();
                let want = match coefficient {
                    Coefficient::Rho => rho_w_naive(&ar, &br, &w).unwrap(),
                    Coefficient::Tau => tau_w_naive(&ar, &br, &w).unwrap(),
                };
                let got = k.evaluate(&bp, &mut scratch).unwrap().gamma;
                assert!(
                    (got - want).abs() < 1e-12,
                    "{coefficient:?} {scheme:?}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn kernels_match_the_gamma_oracle_with_and_without_ties() {
        let untied: Vec<f64> = (1..=23).map(f64::from).collect();
        let tied_a = [1.0, 2.5, 2.5, 4.0, 5.0, 7.0, 7.0, 7.0, 9.0, 10.0];
        let tied_b = [2.0, 2.0, 3.0, 4.5, 4.5, 6.0, 7.0, 8.0, 9.5, 9.5];
        for scheme in [
            Scheme::Additive,
            Scheme::Multiplicative,
            Scheme::First,
            Scheme::Second,
        ] {
            check(&untied, &untied, scheme);
            check(&tied_a, &tied_b, scheme);
            check(&tied_b, &tied_a, scheme);
        }
    }

    #[test]
    fn control_means_are_the_averages_over_all_permutations() {
        // n = 5: average the controls over all 120 permutations.
        for scheme in [Scheme::Additive, Scheme::Multiplicative, Scheme::Second] {
            let a = [1.0, 2.0, 2.0, 4.0, 5.0];
            let k = NullKernel::new(
                &a,
                &[1.0, 2.0, 3.0, 4.0, 5.0],
                &Hyperbolic,
                scheme,
                Coefficient::Rho,
            )
            .unwrap();
            let mut scratch = k.scratch();
            let mut total = [0.0; CONTROLS];
            let mut count = 0.0;
            let mut p = [0usize, 1, 2, 3, 4];
            permute_all(&mut p, 0, &mut |p| {
                let bp: Vec<Item> = p.iter().map(|&j| k.b_items()[j]).collect();
                let s = k.evaluate(&bp, &mut scratch).unwrap();
                for (t, v) in total.iter_mut().zip(s.controls) {
                    *t += v;
                }
                count += 1.0;
            });
            for t in total {
                assert!((t / count).abs() < 1e-14, "{scheme:?}: {t}");
            }
        }
    }

    fn permute_all(p: &mut [usize], k: usize, f: &mut impl FnMut(&[usize])) {
        if k == p.len() {
            f(p);
            return;
        }
        for j in k..p.len() {
            p.swap(k, j);
            permute_all(p, k + 1, f);
            p.swap(k, j);
        }
    }

    #[test]
    fn constant_rankings_are_rejected() {
        let c = [1.0; 4];
        let r = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(
            NullKernel::new(&c, &r, &Hyperbolic, Scheme::Additive, Coefficient::Rho).unwrap_err(),
            CorrelationError::Constant { input: "x" }
        );
        assert_eq!(
            NullKernel::new(&r, &c, &Hyperbolic, Scheme::Additive, Coefficient::Tau).unwrap_err(),
            CorrelationError::Constant { input: "y" }
        );
        assert!(matches!(
            NullKernel::new(&r, &r, &|_: f64| -1.0, Scheme::Additive, Coefficient::Tau),
            Err(CorrelationError::InvalidWeight { index: 0, .. })
        ));
    }
}
