//! The head–tail sampler: one draw of the null costs O(K log K), whatever n.
//!
//! Item i has rank a in the fixed ranking and b = π(a) in the permuted one;
//! the weight of an item is w = f(a) + f(b) (additive) or f(a)·f(b)
//! (multiplicative). The *head* is every item with a ≤ K or b ≤ K (the
//! "cross"); it is drawn exactly: rows 1..K take uniformly random distinct
//! columns, then every column ≤ K still free takes a uniformly random
//! distinct row > K. Given the head, the *tail* (rows R′ and columns C′
//! left, m of each, all > K) is a uniformly random bijection, so the
//! conditional mean of any sum over items is known in closed form:
//!
//! ```text
//! E[Σ_tail g(a) h(b) | head] = (Σ_{R′} g)(Σ_{C′} h) / m                 (linear statistics)
//! E[Σ_{s≠t ∈ tail} w_s w_t sgn(a_t − a_s) sgn(b_t − b_s) | head]
//!     = −2 Φ_R Φ_C / (m(m − 1))   (additive),   0 (multiplicative)
//! Φ_R = Σ_{a∈R′} f(a)(2 rank_{R′}(a) − m − 1),   Φ_C likewise over C′
//! ```
//!
//! and the head–tail pairs of τ_w are linear statistics of the tail with
//! step functions sgn(a − a_h), sgn(b − b_h). A draw evaluates ρ_w or τ_w
//! with every tail sum replaced by its conditional mean: Γ̂ = Γ(head,
//! E[tail | head]). The six sums S_pq = Σ w c_a^p c_b^q (c = rank/n) of
//! the same draw, whose means are known, are its control variates
//! (E[Ŝ_pq] = E[S_pq] by the tower property).
//!
//! The only approximation is Γ̂ for E[Γ | head]: the tail's fluctuation
//! about its mean is dropped. Its variance is of the order of Σ_{t>K} f(t)²
//! relative to (Σ f)² (≈ K⁻³ for the quadratic weighers, ≈ 1/(K ln²n) for
//! 1/n), so the bias of Γ̄ and the missing part of V are of that order;
//! `--check` measures both against full permutations.

use crate::rng::Rng;
use crate::sums::{Basis, Weigher};

/// How the weights of the two rankings combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Additive,
    Multiplicative,
}

/// ρ_w or τ_w.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coef {
    Rho,
    Tau,
}

/// Number of control variates: S00, S10, S01, S20, S02, S11.
pub const CONTROLS: usize = 6;

const POWERS: [(usize, usize); CONTROLS] = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1)];
const PLAIN: [Basis; 3] = [Basis::One, Basis::C, Basis::C2];
const WEIGHTED: [Basis; 3] = [Basis::F, Basis::FC, Basis::FC2];

/// One configuration at one n, with its cross size K.
#[derive(Debug, Clone)]
pub struct Setup {
    pub weigher: Weigher,
    pub scheme: Scheme,
    pub coef: Coef,
    pub n: u64,
    pub k: u64,
    /// Σ over ranks (K, n] of each basis function (index as `Basis::ALL`).
    tail: [f64; 7],
    /// E[S_pq] over uniform permutations.
    means: [f64; CONTROLS],
    /// `Weigher::end` of n.
    end: f64,
}

fn idx(b: Basis) -> usize {
    Basis::ALL.iter().position(|&x| x == b).expect("in ALL")
}

/// A drawn head: the columns of rows 1..=K, and the items (row > K,
/// column ≤ K).
#[derive(Debug, Clone, Default)]
pub struct Head {
    /// Column of row a at index a − 1, a = 1..=K.
    pub top: Vec<u64>,
    /// (row, column) with row > K ≥ column, sorted by row.
    pub drawn: Vec<(u64, u64)>,
    /// Columns > K taken by rows ≤ K, sorted.
    pub used_big: Vec<u64>,
}

/// Reusable buffers of a sampler thread.
#[derive(Debug, Default)]
pub struct Scratch {
    seen: Seen,
    small_used: Vec<bool>,
    perm: Vec<u64>,
    order: Vec<(u64, u64, f64)>,
    cols: Vec<u64>,
    tree: Vec<f64>,
    big_prefix_f: Vec<f64>,
}

/// A small open-addressing set of u64 keys, cleared in O(inserted).
#[derive(Debug, Default)]
struct Seen {
    slots: Vec<u64>,
    filled: Vec<usize>,
}

impl Seen {
    fn reset(&mut self, capacity: usize) {
        let want = (4 * capacity.max(4)).next_power_of_two();
        if self.slots.len() < want {
            self.slots = vec![0; want];
            self.filled.clear();
        }
        for &i in &self.filled {
            self.slots[i] = 0;
        }
        self.filled.clear();
    }

    /// Inserts `key` (≥ 1); false if it was there.
    fn insert(&mut self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key;
                    self.filled.push(i);
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

impl Setup {
    pub fn new(weigher: Weigher, scheme: Scheme, coef: Coef, n: u64, k: u64) -> Self {
        let k = k.min(n);
        let tail = Basis::ALL.map(|b| weigher.sum(b, k + 1, n, n));
        let full = Basis::ALL.map(|b| weigher.sum(b, 1, n, n));
        let nf = n as f64;
        let means = POWERS.map(|(p, q)| match scheme {
            Scheme::Additive => {
                (full[idx(WEIGHTED[p])] * full[idx(PLAIN[q])]
                    + full[idx(PLAIN[p])] * full[idx(WEIGHTED[q])])
                    / nf
            }
            Scheme::Multiplicative => full[idx(WEIGHTED[p])] * full[idx(WEIGHTED[q])] / nf,
        });
        Self {
            weigher,
            scheme,
            coef,
            n,
            k,
            tail,
            means,
            end: weigher.end(n),
        }
    }

    /// Draws a head exactly (a uniformly random permutation's items with
    /// a ≤ K or b ≤ K).
    pub fn sample(&self, rng: &mut Rng, head: &mut Head, s: &mut Scratch) {
        let (n, k) = (self.n, self.k);
        if n <= 4 * k {
            // Small n: a whole permutation (Fisher–Yates), then its head.
            s.perm.clear();
            s.perm.extend(1..=n);
            for i in (1..n as usize).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                s.perm.swap(i, j);
            }
            let perm = std::mem::take(&mut s.perm);
            self.head_of(&perm, head);
            s.perm = perm;
            return;
        }
        head.top.clear();
        head.drawn.clear();
        head.used_big.clear();
        s.small_used.clear();
        s.small_used.resize(k as usize, false);
        s.seen.reset(k as usize);
        for _ in 0..k {
            let b = loop {
                let b = 1 + rng.below(n);
                if s.seen.insert(b) {
                    break b;
                }
            };
            head.top.push(b);
            if b <= k {
                s.small_used[b as usize - 1] = true;
            } else {
                head.used_big.push(b);
            }
        }
        s.seen.reset(k as usize);
        for b in 1..=k {
            if !s.small_used[b as usize - 1] {
                let r = loop {
                    let r = k + 1 + rng.below(n - k);
                    if s.seen.insert(r) {
                        break r;
                    }
                };
                head.drawn.push((r, b));
            }
        }
        head.drawn.sort_unstable();
        head.used_big.sort_unstable();
    }

    /// The head of a whole permutation (`perm[a − 1]` = column of row a).
    pub fn head_of(&self, perm: &[u64], head: &mut Head) {
        let k = self.k;
        head.top.clear();
        head.drawn.clear();
        head.used_big.clear();
        head.top.extend_from_slice(&perm[..k as usize]);
        head.used_big
            .extend(head.top.iter().copied().filter(|&b| b > k));
        head.used_big.sort_unstable();
        for (i, &b) in perm.iter().enumerate().skip(k as usize) {
            if b <= k {
                head.drawn.push((i as u64 + 1, b));
            }
        }
    }

    /// Γ̂ = Γ(head, E[tail | head]) and the centred controls.
    pub fn evaluate(&self, head: &Head, s: &mut Scratch) -> (f64, [f64; CONTROLS]) {
        let (n, k, w) = (self.n, self.k, self.weigher);
        let nf = n as f64;
        let m = (n - k) as usize - head.drawn.len();
        debug_assert_eq!(m, (n - k) as usize - head.used_big.len());
        let mf = m as f64;
        // Tail sums of each basis function over R′ and C′.
        let mut g = self.tail;
        for &(r, _) in &head.drawn {
            for (j, b) in Basis::ALL.iter().enumerate() {
                g[j] -= w.value(*b, r, n);
            }
        }
        let mut h = self.tail;
        for &c in &head.used_big {
            for (j, b) in Basis::ALL.iter().enumerate() {
                h[j] -= w.value(*b, c, n);
            }
        }
        let tail_lin = |gb: Basis, hb: Basis| -> f64 {
            if m == 0 {
                0.0
            } else {
                g[idx(gb)] * h[idx(hb)] / mf
            }
        };
        // Head items in row order: rows 1..=K, then the drawn ones.
        s.order.clear();
        for (i, &b) in head.top.iter().enumerate() {
            s.order.push((i as u64 + 1, b, 0.0));
        }
        s.order.extend(head.drawn.iter().map(|&(r, b)| (r, b, 0.0)));
        let mut sums = [0.0; CONTROLS];
        let mut q_head = 0.0;
        for item in s.order.iter_mut() {
            let (a, b) = (item.0, item.1);
            let (fa, fb) = (w.f(a), w.f(b));
            let weight = match self.scheme {
                Scheme::Additive => fa + fb,
                Scheme::Multiplicative => fa * fb,
            };
            item.2 = weight;
            let (ca, cb) = (a as f64 / nf, b as f64 / nf);
            let pa = [1.0, ca, ca * ca];
            let pb = [1.0, cb, cb * cb];
            for (sum, &(p, q)) in sums.iter_mut().zip(&POWERS) {
                *sum += weight * pa[p] * pb[q];
            }
            q_head += weight * weight;
        }
        for (sum, &(p, q)) in sums.iter_mut().zip(&POWERS) {
            *sum += match self.scheme {
                Scheme::Additive => {
                    tail_lin(WEIGHTED[p], PLAIN[q]) + tail_lin(PLAIN[p], WEIGHTED[q])
                }
                Scheme::Multiplicative => tail_lin(WEIGHTED[p], WEIGHTED[q]),
            };
        }
        let controls = core::array::from_fn(|i| sums[i] - self.means[i]);
        let gamma = match self.coef {
            Coef::Rho => {
                let [s00, s10, s01, s20, s02, s11] = sums;
                let cov = s00 * s11 - s10 * s01;
                let va = s00 * s20 - s10 * s10;
                let vb = s00 * s02 - s01 * s01;
                cov / (va * vb).sqrt()
            }
            Coef::Tau => {
                let q = q_head
                    + match self.scheme {
                        Scheme::Additive => {
                            tail_lin(Basis::FF, Basis::One)
                                + 2.0 * tail_lin(Basis::F, Basis::F)
                                + tail_lin(Basis::One, Basis::FF)
                        }
                        Scheme::Multiplicative => tail_lin(Basis::FF, Basis::FF),
                    };
                let total = sums[0];
                let numerator = self.head_pairs(s) + self.head_tail_and_tail(head, &g, &h, m, s);
                numerator / (total * total - q)
            }
        };
        (gamma.clamp(-1.0, 1.0), controls)
    }

    /// Σ_{i≠j ∈ head} w_i w_j sgn(a_j − a_i) sgn(b_j − b_i), from `s.order`
    /// (row order, weights filled in).
    fn head_pairs(&self, s: &mut Scratch) -> f64 {
        s.cols.clear();
        s.cols.extend(s.order.iter().map(|o| o.1));
        s.cols.sort_unstable();
        s.tree.clear();
        s.tree.resize(s.cols.len() + 1, 0.0);
        let mut placed = 0.0;
        let mut total = 0.0;
        for &(_, b, weight) in &s.order {
            let level = s.cols.partition_point(|&c| c < b);
            let mut i = level;
            let mut less = 0.0;
            while i > 0 {
                less += s.tree[i];
                i &= i - 1;
            }
            total += weight * (2.0 * less - placed);
            let mut i = level + 1;
            while i < s.tree.len() {
                s.tree[i] += weight;
                i += i & i.wrapping_neg();
            }
            placed += weight;
        }
        2.0 * total
    }

    /// 2·(head–tail pairs) + (tail–tail pairs), conditional means.
    fn head_tail_and_tail(
        &self,
        head: &Head,
        g: &[f64; 7],
        h: &[f64; 7],
        m: usize,
        s: &mut Scratch,
    ) -> f64 {
        if m == 0 {
            return 0.0;
        }
        let (n, k, w) = (self.n, self.k, self.weigher);
        let mf = m as f64;
        let (gf, g1, hf, h1) = (
            g[idx(Basis::F)],
            g[idx(Basis::One)],
            h[idx(Basis::F)],
            h[idx(Basis::One)],
        );
        // Σ_{t=K+1}^{n} f(t).
        let gf_all = self.tail[idx(Basis::F)];
        // Prefix sums of f over the used big columns (sorted).
        s.big_prefix_f.clear();
        s.big_prefix_f.push(0.0);
        let mut acc = 0.0;
        for &c in &head.used_big {
            acc += w.f(c);
            s.big_prefix_f.push(acc);
        }
        // Σ_{t=K+1}^{x−1} f(t) and the same less the head's items below x:
        // the tail's f-mass and count below x.
        let below_cols = |y: u64, prefix: &[f64]| -> (f64, f64) {
            let j = head.used_big.partition_point(|&c| c < y);
            (
                gf_all - w.from(y, n, self.end) - prefix[j],
                (y - 1 - k) as f64 - j as f64,
            )
        };
        let pair = |fa: f64, fb: f64, gf_s: f64, g1_s: f64, hf_s: f64, h1_s: f64| -> f64 {
            match self.scheme {
                Scheme::Additive => (fa + fb) * (gf_s * h1_s + g1_s * hf_s) / mf,
                Scheme::Multiplicative => fa * fb * gf_s * hf_s / mf,
            }
        };
        let mut head_tail = 0.0;
        // Rows ≤ K: every tail row lies below them in rank (sgn = +1).
        let mut phi_c_below = 0.0; // Σ_{c ∈ used_big} (f-mass of C′ above c)
        for (i, &b) in head.top.iter().enumerate() {
            let a = i as u64 + 1;
            let (hf_s, h1_s) = if b <= k {
                (hf, h1)
            } else {
                let (fm, cnt) = below_cols(b, &s.big_prefix_f);
                // f-mass of C′ above b, for Φ_C.
                phi_c_below += hf - fm;
                (hf - 2.0 * fm, h1 - 2.0 * cnt)
            };
            head_tail += pair(w.f(a), w.f(b), gf, g1, hf_s, h1_s);
        }
        // Drawn items: columns ≤ K lie above every tail column (sgn = +1).
        let mut drawn_f_below = 0.0;
        let mut phi_r_below = 0.0;
        for (j, &(r, b)) in head.drawn.iter().enumerate() {
            let fm = gf_all - w.from(r, n, self.end) - drawn_f_below;
            let cnt = (r - 1 - k) as f64 - j as f64;
            phi_r_below += gf - fm;
            head_tail += pair(w.f(r), w.f(b), gf - 2.0 * fm, g1 - 2.0 * cnt, hf, h1);
            drawn_f_below += w.f(r);
        }
        let tail_tail = match self.scheme {
            Scheme::Multiplicative => 0.0,
            Scheme::Additive if m < 2 => 0.0,
            Scheme::Additive => {
                // Φ = 2 Σ f(t)·rank(t) − (m + 1) Σ f, rank(t) = t − K − #head items below t;
                // Σ f(t)·#(head below t) = Σ over head items of the tail f-mass above them.
                let nf = n as f64;
                let kf = k as f64;
                let phi_r =
                    2.0 * (nf * g[idx(Basis::FC)] - kf * gf - phi_r_below) - (mf + 1.0) * gf;
                let phi_c =
                    2.0 * (nf * h[idx(Basis::FC)] - kf * hf - phi_c_below) - (mf + 1.0) * hf;
                -2.0 * phi_r * phi_c / (mf * (mf - 1.0))
            }
        };
        2.0 * head_tail + tail_tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const WEIGHERS: [Weigher; 4] = [
        Weigher::Quadratic(2),
        Weigher::Quadratic(0),
        Weigher::Quadratic(1),
        Weigher::Hyperbolic,
    ];

    /// Every weigher with each scheme.
    fn weighers_and_schemes() -> impl Iterator<Item = (Weigher, Scheme)> {
        WEIGHERS
            .into_iter()
            .flat_map(|w| [Scheme::Additive, Scheme::Multiplicative].map(|s| (w, s)))
    }

    fn permutations(n: usize) -> Vec<Vec<u64>> {
        fn go(p: &mut Vec<u64>, left: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if left.is_empty() {
                out.push(p.clone());
            }
            for i in 0..left.len() {
                let v = left.remove(i);
                p.push(v);
                go(p, left, out);
                p.pop();
                left.insert(i, v);
            }
        }
        let mut out = Vec::new();
        go(&mut Vec::new(), &mut (1..=n as u64).collect(), &mut out);
        out
    }

    /// The exact sums of one permutation: S_pq, Q and the τ numerator N.
    fn exact(setup: &Setup, perm: &[u64]) -> ([f64; CONTROLS], f64, f64) {
        let (n, w) = (setup.n, setup.weigher);
        let item = |a: u64| {
            let b = perm[a as usize - 1];
            let weight = match setup.scheme {
                Scheme::Additive => w.f(a) + w.f(b),
                Scheme::Multiplicative => w.f(a) * w.f(b),
            };
            (b, weight)
        };
        let mut sums = [0.0; CONTROLS];
        let mut q = 0.0;
        let mut num = 0.0;
        for a in 1..=n {
            let (b, wt) = item(a);
            let (ca, cb) = (a as f64 / n as f64, b as f64 / n as f64);
            for (s, &(p, qq)) in sums.iter_mut().zip(&POWERS) {
                *s += wt * ca.powi(p as i32) * cb.powi(qq as i32);
            }
            q += wt * wt;
            for a2 in (1..=n).filter(|&a2| a2 != a) {
                let (b2, wt2) = item(a2);
                num += wt * wt2 * (a2 as f64 - a as f64).signum() * (b2 as f64 - b as f64).signum();
            }
        }
        (sums, q, num)
    }

    #[test]
    fn conditional_means_are_exact_given_the_head() {
        // n = 7, K = 2: average the exact sums over the permutations sharing
        // a head; the sampler's Γ̂ uses the same conditional means, so its
        // S_pq, and N/(S00² − Q) with N and Q averaged, must agree.
        let n = 7;
        for (w, scheme) in weighers_and_schemes() {
            let setup = Setup::new(w, scheme, Coef::Tau, n, 2);
            let rho = Setup::new(w, scheme, Coef::Rho, n, 2);
            // Per head: (count, Σ sums, Σ Q, Σ numerator, one permutation).
            type Group = (usize, [f64; CONTROLS], f64, f64, Vec<u64>);
            let mut groups: HashMap<Vec<u64>, Group> = HashMap::new();
            for p in permutations(n as usize) {
                let mut head = Head::default();
                setup.head_of(&p, &mut head);
                let mut key = head.top.clone();
                key.extend(head.drawn.iter().flat_map(|&(r, b)| [r, b]));
                let (sums, q, num) = exact(&setup, &p);
                let e = groups
                    .entry(key)
                    .or_insert((0, [0.0; CONTROLS], 0.0, 0.0, p.clone()));
                e.0 += 1;
                for (x, y) in e.1.iter_mut().zip(sums) {
                    *x += y;
                }
                e.2 += q;
                e.3 += num;
            }
            let mut s = Scratch::default();
            for (count, sums, q, num, p) in groups.into_values() {
                let c = count as f64;
                let mut head = Head::default();
                setup.head_of(&p, &mut head);
                let (_, controls) = setup.evaluate(&head, &mut s);
                let mean_sums: [f64; CONTROLS] = core::array::from_fn(|i| sums[i] / c);
                for i in 0..CONTROLS {
                    let got = controls[i] + setup.means[i];
                    assert!(
                        (got - mean_sums[i]).abs() < 1e-12,
                        "{w:?} {scheme:?} S{i}: {got} vs {}",
                        mean_sums[i]
                    );
                }
                let want_tau = (num / c) / (mean_sums[0] * mean_sums[0] - q / c);
                let (tau, _) = setup.evaluate(&head, &mut s);
                assert!(
                    (tau - want_tau).abs() < 1e-12,
                    "{w:?} {scheme:?} τ̂ {tau} vs {want_tau} {head:?}"
                );
                let [s00, s10, s01, s20, s02, s11] = mean_sums;
                let want_rho = (s00 * s11 - s10 * s01)
                    / ((s00 * s20 - s10 * s10) * (s00 * s02 - s01 * s01)).sqrt();
                let (r, _) = rho.evaluate(&head, &mut s);
                assert!(
                    (r - want_rho).abs() < 1e-12,
                    "{w:?} {scheme:?} ρ̂ {r} vs {want_rho}"
                );
            }
        }
    }

    #[test]
    fn control_means_are_the_averages_over_all_permutations() {
        let n = 6;
        for (w, scheme) in weighers_and_schemes() {
            let setup = Setup::new(w, scheme, Coef::Rho, n, 1);
            let all = permutations(n as usize);
            for i in 0..CONTROLS {
                let mean: f64 =
                    all.iter().map(|p| exact(&setup, p).0[i]).sum::<f64>() / all.len() as f64;
                assert!(
                    (mean - setup.means[i]).abs() < 1e-13,
                    "{w:?} {scheme:?} {i}"
                );
            }
        }
    }

    #[test]
    fn with_the_whole_ranking_in_the_head_the_value_is_exact() {
        // K = n: no tail; Γ̂ is Γ of the permutation, as the crate computes it.
        use adaptive_comp_metrics::{Hyperbolic, OffsetQuadratic, TopWeighted};
        let n = 40u64;
        let mut rng = Rng::new(9);
        let mut s = Scratch::default();
        for (w, scheme) in weighers_and_schemes() {
            for coef in [Coef::Rho, Coef::Tau] {
                let setup = Setup::new(w, scheme, coef, n, n);
                let mut head = Head::default();
                setup.sample(&mut rng, &mut head, &mut s);
                let (got, _) = setup.evaluate(&head, &mut s);
                // Scores: higher is better, rank 1 = the largest.
                let x: Vec<f64> = (1..=n).map(|a| -(a as f64)).collect();
                let y: Vec<f64> = head.top.iter().map(|&b| -(b as f64)).collect();
                let sch = match scheme {
                    Scheme::Additive => adaptive_comp_metrics::Scheme::Additive,
                    Scheme::Multiplicative => adaptive_comp_metrics::Scheme::Multiplicative,
                };
                let want = match w {
                    Weigher::Hyperbolic => {
                        let t = TopWeighted::new().weigher(Hyperbolic).scheme(sch);
                        match coef {
                            Coef::Rho => t.rho(&x, &y).unwrap().rho,
                            Coef::Tau => t.tau(&x, &y).unwrap().tau,
                        }
                    }
                    Weigher::Quadratic(n0) => {
                        let t = TopWeighted::new()
                            .weigher(OffsetQuadratic::new(f64::from(n0)).unwrap())
                            .scheme(sch);
                        match coef {
                            Coef::Rho => t.rho(&x, &y).unwrap().rho,
                            Coef::Tau => t.tau(&x, &y).unwrap().tau,
                        }
                    }
                };
                assert!(
                    (got - want).abs() < 1e-12,
                    "{w:?} {scheme:?} {coef:?}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn the_sampled_head_has_the_law_of_a_permutation_head() {
        // n = 5, K = 1 (rejection path needs n > 4K): the frequency of each
        // head over 200 000 draws against its exact probability.
        let (n, k) = (9u64, 2u64);
        let setup = Setup::new(Weigher::Hyperbolic, Scheme::Additive, Coef::Rho, n, k);
        let mut exact_count: HashMap<Vec<u64>, f64> = HashMap::new();
        let all = permutations(n as usize);
        for p in &all {
            let mut head = Head::default();
            setup.head_of(p, &mut head);
            let mut key = head.top.clone();
            key.extend(head.drawn.iter().flat_map(|&(r, b)| [r, b]));
            *exact_count.entry(key).or_default() += 1.0 / all.len() as f64;
        }
        let mut rng = Rng::new(3);
        let mut s = Scratch::default();
        let draws = 200_000;
        let mut seen: HashMap<Vec<u64>, f64> = HashMap::new();
        for _ in 0..draws {
            let mut head = Head::default();
            setup.sample(&mut rng, &mut head, &mut s);
            let mut key = head.top.clone();
            key.extend(head.drawn.iter().flat_map(|&(r, b)| [r, b]));
            *seen.entry(key).or_default() += 1.0 / f64::from(draws);
        }
        let mut chi2 = 0.0;
        for (key, p) in &exact_count {
            let o = seen.get(key).copied().unwrap_or(0.0);
            chi2 += f64::from(draws) * (o - p).powi(2) / p;
        }
        assert_eq!(seen.len(), exact_count.len());
        // df = #heads − 1; a 5σ bound on χ².
        let df = exact_count.len() as f64 - 1.0;
        assert!(
            chi2 < df + 5.0 * (2.0 * df).sqrt(),
            "χ² = {chi2}, df = {df}"
        );
    }
}
