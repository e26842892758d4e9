//! Exact null moments by enumerating all n! permutations.
//!
//! Depth-first over the positions of the permuted ranking: each node places
//! one value and adds its terms to the sums it inherits from its parent, so
//! every leaf's sums are built from exactly n additions (no drift across
//! the n! leaves, unlike swap-and-update schemes). ρ_w keeps six weighted
//! sums (O(1) per node); τ_w keeps the weighted concordance sum, updated in
//! O(n) per node from the weight already placed below and above the new
//! value. The moments are two compensated passes (mean, then the centred
//! sums).

use super::{Coefficient, StandardisedError};
use crate::correlation::error::CorrelationError;
use crate::sum::Neumaier;
use crate::weigh::{Scheme, Weigher};

/// The largest n enumerated for the moments.
pub const MAX_EXACT: usize = 11;
/// The largest n whose whole null distribution (n! values) is returned.
pub const MAX_DISTRIBUTION: usize = 10;

/// Pair weights w(i, v) for a-rank i + 1 meeting b-rank v + 1.
struct Weights {
    n: usize,
    w: Vec<f64>,
}

impl Weights {
    fn new<W: Weigher + ?Sized>(
        n: usize,
        weigher: &W,
        scheme: Scheme,
    ) -> Result<Self, CorrelationError> {
        let f: Vec<f64> = (1..=n).map(|r| weigher.weight(r as f64)).collect();
        crate::correlation::error::check_weights(&f)?;
        let total = crate::sum::neumaier(f.iter().copied());
        let f: Vec<f64> = f.iter().map(|v| v / total).collect();
        let mut w = Vec::with_capacity(n * n);
        for &x in &f {
            for &y in &f {
                w.push(match scheme {
                    Scheme::Additive => x + y,
                    Scheme::Multiplicative => x * y,
                    Scheme::First => x,
                    Scheme::Second => y,
                });
            }
        }
        Ok(Self { n, w })
    }

    #[inline]
    fn at(&self, i: usize, v: usize) -> f64 {
        self.w[i * self.n + v]
    }
}

/// Checks n and prepares the pair weights.
fn prepare<W: Weigher + ?Sized>(
    n: usize,
    weigher: &W,
    scheme: Scheme,
) -> Result<Weights, StandardisedError> {
    if n < 3 {
        return Err(StandardisedError::TooFewItems { needed: 3, got: n });
    }
    if n > MAX_EXACT {
        return Err(StandardisedError::TooManyForExact {
            max: MAX_EXACT,
            got: n,
        });
    }
    Ok(Weights::new(n, weigher, scheme)?)
}

/// Visits the coefficient of every permutation whose first value is
/// `first` ((n − 1)! leaves), in a fixed order; returns whether some
/// coefficient was undefined (those are not visited).
fn branch(
    weights: &Weights,
    coefficient: Coefficient,
    first: usize,
    visit: &mut impl FnMut(f64),
) -> bool {
    let n = weights.n;
    let mut perm: Vec<usize> = (0..n).collect();
    perm.swap(0, first);
    let mut undefined = false;
    let mut leaf = |g: f64| {
        if g.is_finite() {
            visit(g.clamp(-1.0, 1.0));
        } else {
            undefined = true;
        }
    };
    let x = weights.at(0, first);
    match coefficient {
        Coefficient::Rho => {
            let c = first as f64;
            rho(
                weights,
                1,
                &mut perm,
                [x, 0.0, x * c, 0.0, x * c * c, 0.0],
                &mut leaf,
            );
        }
        Coefficient::Tau => {
            let mut placed = vec![0.0; n];
            placed[first] = x;
            tau(weights, 1, &mut perm, &mut placed, [0.0, 0.0, x], &mut leaf);
        }
    }
    undefined
}

fn undefined_error() -> StandardisedError {
    CorrelationError::Undefined {
        reason: "some permutation gives every item with positive weight the same rank",
    }
    .into()
}

/// Calls `visit` with the coefficient of every permutation of n untied
/// items (n! calls, the identity first); `Err` if some permutation's
/// coefficient is undefined.
pub(crate) fn for_each<W: Weigher + ?Sized>(
    n: usize,
    weigher: &W,
    scheme: Scheme,
    coefficient: Coefficient,
    visit: &mut impl FnMut(f64),
) -> Result<(), StandardisedError> {
    let weights = prepare(n, weigher, scheme)?;
    let mut undefined = false;
    for first in 0..n {
        undefined |= branch(&weights, coefficient, first, visit);
    }
    if undefined {
        return Err(undefined_error());
    }
    Ok(())
}

/// Runs `job(first)` for every first value on the crate's number of
/// threads ([`crate::current_threads`]); results in order.
fn per_branch<T: Send>(n: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    crate::threads::map((0..n).collect(), crate::current_threads().count(), job)
}

/// The sums `s` of [`rho`] with one more item placed: weight `x` at
/// position `i` holding value `c`.
#[inline(always)]
fn placed(s: [f64; 6], x: f64, i: f64, c: f64) -> [f64; 6] {
    [
        s[0] + x,
        s[1] + x * i,
        s[2] + x * c,
        s[3] + x * i * i,
        s[4] + x * c * c,
        s[5] + x * i * c,
    ]
}

/// Sums (W, Σw·i, Σw·v, Σw·i², Σw·v², Σw·i·v) along the placed prefix.
fn rho(w: &Weights, k: usize, perm: &mut [usize], s: [f64; 6], leaf: &mut impl FnMut(f64)) {
    let n = perm.len();
    let i = k as f64;
    if k + 1 == n {
        // One value left: the leaf directly.
        let v = perm[k];
        let (x, c) = (w.at(k, v), v as f64);
        let t = placed(s, x, i, c);
        let cov = t[0] * t[5] - t[1] * t[2];
        let var_a = t[0] * t[3] - t[1] * t[1];
        let var_b = t[0] * t[4] - t[2] * t[2];
        leaf(if var_a > 0.0 && var_b > 0.0 {
            cov / (var_a * var_b).sqrt()
        } else {
            f64::NAN
        });
        return;
    }
    for j in k..n {
        perm.swap(k, j);
        let v = perm[k];
        let x = w.at(k, v);
        let c = v as f64;
        let t = placed(s, x, i, c);
        rho(w, k + 1, perm, t, leaf);
        perm.swap(k, j);
    }
}

/// Sums (N = Σ_{i<j} w_i w_j sgn(π_j − π_i), T = Σ_{i<j} w_i w_j, W) along
/// the placed prefix; `placed[v]` is the weight of the item holding value v.
fn tau(
    w: &Weights,
    k: usize,
    perm: &mut [usize],
    placed: &mut [f64],
    s: [f64; 3],
    leaf: &mut impl FnMut(f64),
) {
    let n = perm.len();
    if k + 1 == n {
        // One value left: the leaf directly.
        let v = perm[k];
        let x = w.at(k, v);
        let less: f64 = placed[..v].iter().sum();
        let greater: f64 = placed[v + 1..].iter().sum();
        let (num, pairs) = (s[0] + x * (less - greater), s[1] + x * s[2]);
        leaf(if pairs > 0.0 { num / pairs } else { f64::NAN });
        return;
    }
    for j in k..n {
        perm.swap(k, j);
        let v = perm[k];
        let x = w.at(k, v);
        let less: f64 = placed[..v].iter().sum();
        let greater: f64 = placed[v + 1..].iter().sum();
        placed[v] = x;
        let t = [s[0] + x * (less - greater), s[1] + x * s[2], s[2] + x];
        tau(w, k + 1, perm, placed, t, leaf);
        placed[v] = 0.0;
        perm.swap(k, j);
    }
}

/// (Γ̄, V, V_ℓ) over all n! permutations, in two compensated passes; the
/// n branches (first value fixed) run on the crate's number of threads
/// ([`crate::current_threads`]) and their sums are combined in branch
/// order, so the result does not depend on the number of threads.
pub(crate) fn moments<W: Weigher + ?Sized>(
    n: usize,
    weigher: &W,
    scheme: Scheme,
    coefficient: Coefficient,
) -> Result<[f64; 3], StandardisedError> {
    let weights = prepare(n, weigher, scheme)?;
    let first = per_branch(n, |f| {
        let mut sum = Neumaier::default();
        let undefined = branch(&weights, coefficient, f, &mut |g| sum.add(g));
        (sum.value(), undefined)
    });
    if first.iter().any(|b| b.1) {
        return Err(undefined_error());
    }
    let count: f64 = (1..=n).map(|k| k as f64).product();
    let mean = crate::sum::neumaier(first.iter().map(|b| b.0)) / count;
    let second = per_branch(n, |f| {
        let (mut all, mut left) = (Neumaier::default(), Neumaier::default());
        branch(&weights, coefficient, f, &mut |g| {
            let d = g - mean;
            all.add(d * d);
            if d < 0.0 {
                left.add(d * d);
            }
        });
        (all.value(), left.value())
    });
    Ok([
        mean,
        crate::sum::neumaier(second.iter().map(|b| b.0)) / count,
        crate::sum::neumaier(second.iter().map(|b| b.1)) / count,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weigh::OffsetQuadratic;

    #[test]
    fn published_values_of_the_paper_weights() {
        // Lombardo (2025) via the issue text: additive 1/(n + 2)², exact. The
        // published Γ̄(3) is 6·10⁻¹⁶ from the 40-digit value
        // (tests/data/standardised/exact_mp.py: −0.0302762125852410258);
        // ours is 5·10⁻¹⁷ from it.
        let f = OffsetQuadratic::default();
        let rho = |n| moments(n, &f, Scheme::Additive, Coefficient::Rho).unwrap();
        let tau = |n| moments(n, &f, Scheme::Additive, Coefficient::Tau).unwrap();
        let close = |got: f64, want: f64| assert!((got - want).abs() < 1e-15, "{got} vs {want}");
        close(rho(3)[0], -0.03027621258524162);
        let r5 = rho(5);
        close(r5[0], -0.07584266073281484);
        close(r5[1], 0.2824562853238909);
        close(r5[2], 0.12817678208868818);
        close(tau(5)[0], -0.07780019111407152);
        close(tau(10)[0], -0.14548490514957305);
        close(rho(10)[0], -0.16255054077877876);
    }
}
