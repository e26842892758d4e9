//! The observed information (the negative Hessian of the log-posterior) of
//! a fitted model, and from it the covariance of the centred scores:
//! exactly by a dense factorisation, or approximately for many items.
//!
//! The log-likelihood depends on the scores through their differences
//! only, so the information is singular along e = (1, …, 1, 0, …)/√n
//! without a prior, and e is an eigenvector (eigenvalue τ = 1/σ²) with
//! one. The covariance of the centred scores Pθ (P = I − eeᵀ) is in both
//! cases
//!
//! ```text
//! Cov(Pθ) = P·H⁺·P = (H + c·eeᵀ)⁻¹ − eeᵀ/(τ + c)     for any c > 0
//! ```
//!
//! (H + c·eeᵀ acts as H on e's complement and as τ + c on e), which the
//! dense path factors (Cholesky) and inverts.

use super::dense::{self, InverseFactor, Square};
use super::error::{PairwiseError, Result};

/// The information of a fit: n scores, then `extra` other parameters (ln ν,
/// workers' parameters). The θθ block is τ·I plus a weighted Laplacian
/// (`pairs`: (a, b, w) adds w·(e_a − e_b)(e_a − e_b)ᵀ; w may be negative
/// for the noisy model) plus `theta_diag`; the rest is sparse.
#[derive(Debug, Clone, Default)]
pub(crate) struct Information {
    pub(crate) n: usize,
    pub(crate) extra: usize,
    pub(crate) precision: f64,
    pub(crate) pairs: Vec<(u32, u32, f64)>,
    /// Added to the θθ diagonal.
    pub(crate) theta_diag: Vec<f64>,
    /// (item, extra parameter, value): the θ–extra block.
    pub(crate) cross: Vec<(u32, u32, f64)>,
    /// (extra, extra, value), each unordered entry once (k ≤ l).
    pub(crate) extra_block: Vec<(u32, u32, f64)>,
}

/// The covariance of the centred scores.
#[derive(Debug, Clone)]
pub(crate) struct Covariance {
    /// The variance of each centred score.
    pub(crate) variance: Vec<f64>,
    /// L⁻¹ of H + c·eeᵀ (exact path only).
    pub(crate) factor: Option<InverseFactor>,
}

impl Information {
    fn dim(&self) -> usize {
        self.n + self.extra
    }

    /// The gauge constant c: the mean θθ diagonal (at least 1e−12).
    fn gauge(&self) -> f64 {
        let mut total = self.precision * self.n as f64;
        for &(_, _, w) in &self.pairs {
            total += 2.0 * w;
        }
        total += self.theta_diag.iter().sum::<f64>();
        (total / self.n as f64).max(1e-12)
    }

    /// H + c·eeᵀ as a dense matrix.
    fn dense(&self, c: f64) -> Square {
        let (n, dim) = (self.n, self.dim());
        let mut m = Square::zeros(dim);
        let shift = c / n as f64;
        for i in 0..n {
            for j in 0..n {
                m.a[i * dim + j] = shift;
            }
            m.add(i, i, self.precision);
        }
        for (i, d) in self.theta_diag.iter().enumerate() {
            m.add(i, i, *d);
        }
        for &(a, b, w) in &self.pairs {
            let (a, b) = (a as usize, b as usize);
            m.add(a, a, w);
            m.add(b, b, w);
            m.add(a, b, -w);
            m.add(b, a, -w);
        }
        for &(i, k, v) in &self.cross {
            let (i, k) = (i as usize, n + k as usize);
            m.add(i, k, v);
            m.add(k, i, v);
        }
        for &(k, l, v) in &self.extra_block {
            let (k, l) = (n + k as usize, n + l as usize);
            m.add(k, l, v);
            if k != l {
                m.add(l, k, v);
            }
        }
        m
    }

    /// The exact covariance by a dense Cholesky factorisation.
    ///
    /// # Errors
    /// [`PairwiseError::Singular`] when H + c·eeᵀ is not positive definite.
    ///
    /// # Complexity
    /// (n + extra)³/3 multiply–adds, 16·(n + extra)² bytes.
    pub(crate) fn exact(&self, workers: usize) -> Result<Covariance> {
        let c = self.gauge();
        let mut m = self.dense(c);
        dense::cholesky(&mut m, workers).map_err(|_| PairwiseError::Singular {
            what: "in the Cholesky factorisation",
        })?;
        let factor = dense::invert_factor(&m, workers);
        let diag = factor.inverse_diagonal();
        let mean_part = 1.0 / (self.n as f64 * (self.precision + c));
        let variance = diag[..self.n].iter().map(|d| d - mean_part).collect();
        Ok(Covariance {
            variance,
            factor: Some(factor),
        })
    }

    /// An approximate covariance for many items, from the sparse
    /// information in O(pairs + cross) (see [`Approximation`] in the
    /// module docs of `pairwise`): the second-order expansion
    ///
    /// ```text
    /// Var(θᵢ) ≈ (1 + Sᵢ + Sᵢ² + Σₐ xᵢₐ(Sₐ − xᵢₐ))/Dᵢ − 1/(n·D̄) + Σₖ (uᵢₖ/Dᵢ)²/sₖ
    /// xᵢⱼ = wᵢⱼ²/(DᵢDⱼ),  Sᵢ = Σⱼ xᵢⱼ
    /// ```
    ///
    /// with D the θθ diagonal, wᵢⱼ its off-diagonal weights (pairs of equal
    /// items summed), uᵢₖ the θ–extra entries and sₖ the Schur complement
    /// of extra parameter k (its diagonal less Σᵢ uᵢₖ²/Dᵢ): the Neumann
    /// series (D − W)⁻¹ = Σ (D⁻¹W)ᵏD⁻¹ summed over the walks of length 0,
    /// 2 and the walks of length 4 that retrace their steps (all of them
    /// where the graph has no short cycles), the gauge, and the extra
    /// parameters' share, each to first order.
    ///
    /// # Errors
    /// [`PairwiseError::Singular`] for a non-positive diagonal.
    pub(crate) fn approximate(&self) -> Result<Covariance> {
        let n = self.n;
        let mut d = vec![self.precision; n];
        for (i, x) in self.theta_diag.iter().enumerate() {
            d[i] += x;
        }
        for &(a, b, w) in &self.pairs {
            d[a as usize] += w;
            d[b as usize] += w;
        }
        if d.iter()
            .any(|x| x.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater))
        {
            return Err(PairwiseError::Singular {
                what: "a score with no information",
            });
        }
        // Σⱼ wᵢⱼ²/Dⱼ, with the weights of one pair summed first.
        let mut edges: Vec<(u32, u32, f64)> = self
            .pairs
            .iter()
            .map(|&(a, b, w)| if a < b { (a, b, w) } else { (b, a, w) })
            .collect();
        edges.sort_unstable_by_key(|e| (e.0, e.1));
        let mut merged: Vec<(u32, u32, f64)> = Vec::with_capacity(edges.len());
        for (a, b, w) in edges {
            match merged.last_mut() {
                Some(last) if last.0 == a && last.1 == b => last.2 += w,
                _ => merged.push((a, b, w)),
            }
        }
        // Sᵢ = Σⱼ wᵢⱼ²/(DᵢDⱼ): the weight of the walks i → j → i.
        let mut s2 = vec![0.0; n];
        for &(a, b, w) in &merged {
            let (a, b) = (a as usize, b as usize);
            let x = w * w / (d[a] * d[b]);
            s2[a] += x;
            s2[b] += x;
        }
        // Walks of length 4 that retrace their steps: i → a → i → c → i
        // (Sᵢ²) and i → a → b → a → i with b ≠ i.
        let mut s4 = vec![0.0; n];
        for &(a, b, w) in &merged {
            let (a, b) = (a as usize, b as usize);
            let x = w * w / (d[a] * d[b]);
            s4[a] += x * (s2[b] - x);
            s4[b] += x * (s2[a] - x);
        }
        let mean_d = d.iter().sum::<f64>() / n as f64;
        let mut variance: Vec<f64> = (0..n)
            .map(|i| (1.0 + s2[i] + s2[i] * s2[i] + s4[i]) / d[i] - 1.0 / (n as f64 * mean_d))
            .collect();
        // Extra parameters: Schur complement to first order.
        if self.extra > 0 {
            let mut s = vec![0.0; self.extra];
            for &(k, l, v) in &self.extra_block {
                if k == l {
                    s[k as usize] += v;
                }
            }
            for &(i, k, u) in &self.cross {
                s[k as usize] -= u * u / d[i as usize];
            }
            for &(i, k, u) in &self.cross {
                let sk = s[k as usize];
                if sk > 0.0 {
                    let x = u / d[i as usize];
                    variance[i as usize] += x * x / sk;
                }
            }
        }
        Ok(Covariance {
            variance,
            factor: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The complete graph K₄ with unit weights: L⁺ = (I − J/4)/4, so every
    /// centred score has variance 3/16.
    #[test]
    fn the_exact_path_gives_the_pseudo_inverse_of_a_laplacian() {
        let mut info = Information {
            n: 4,
            ..Information::default()
        };
        for a in 0..4u32 {
            for b in a + 1..4 {
                info.pairs.push((a, b, 1.0));
            }
        }
        let cov = info.exact(1).unwrap();
        for v in &cov.variance {
            assert!((v - 3.0 / 16.0).abs() < 1e-14, "{v}");
        }
        // With a prior τ = 1: (L + I)⁻¹ on e's complement is 1/5 there, so
        // Var(Pθ)ᵢ = (3/4)·(1/5).
        info.precision = 1.0;
        let cov = info.exact(2).unwrap();
        for v in &cov.variance {
            assert!((v - 0.15).abs() < 1e-14, "{v}");
        }
    }

    /// A path a – b – c with weights 1 and 2: by effective resistances
    /// (R_ab = 1, R_bc = 1/2, R_ac = 3/2), L⁺ᵢᵢ = (1/n)·Σⱼ Rᵢⱼ −
    /// (1/n²)·Σ_{j<k} Rⱼₖ = 5/6 − 1/3, 1/2 − 1/3, 2/3 − 1/3.
    #[test]
    fn a_path_by_hand() {
        let info = Information {
            n: 3,
            pairs: vec![(0, 1, 1.0), (1, 2, 2.0)],
            ..Information::default()
        };
        let cov = info.exact(1).unwrap();
        let want = [1.0 / 2.0, 1.0 / 6.0, 1.0 / 3.0];
        for (v, w) in cov.variance.iter().zip(want) {
            assert!((v - w).abs() < 1e-13, "{v} vs {w}");
        }
    }
}
