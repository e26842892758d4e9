//! The Bradley–Terry likelihood with Davidson's ties on aggregated pairs,
//! its derivatives, and the Newton–conjugate-gradient solver that maximises
//! it (with an optional Gaussian prior).
//!
//! For a pair (a, b) with wins w_a, w_b and ties t (N = w_a + w_b + t),
//! h = (θ_a − θ_b)/2 and λ = ln ν:
//!
//! ```text
//! D = e^h + e^−h + e^λ,  p_a = e^h/D,  p_b = e^−h/D,  p_t = e^λ/D    (Davidson 1970)
//! ℓ = w_a·h − w_b·h + t·λ − N·ln D
//! ∂ℓ/∂h = w_a − w_b − N(p_a − p_b)          ∂ℓ/∂λ = t − N·p_t
//! −∂²ℓ/∂h² = N[(p_a + p_b)p_t + 4p_a·p_b]   −∂²ℓ/∂h∂λ = −N(p_a − p_b)p_t
//! −∂²ℓ/∂λ² = N·p_t(1 − p_t)
//! ```
//!
//! Without ties ν = 0 (λ = −∞ is left out): p_a = σ(θ_a − θ_b), the plain
//! Bradley–Terry model. The objective minimised is
//! F(θ, λ) = −Σ ℓ + Σ θ²/(2σ²) (no prior term when σ = ∞).

use super::graph::{Counts, PairIndex};
use crate::threads;

/// The numbers of one evaluation at (θ, λ): per-pair curvature of the
/// θ-block (c_p, the weight of (e_a − e_b)(e_a − e_b)ᵀ), coupling with λ
/// (u_p, the weight of (e_a − e_b) in the λ column), and the λλ entry.
#[derive(Debug, Clone, Default)]
pub(crate) struct Curvature {
    pub(crate) c: Vec<f64>,
    pub(crate) u: Vec<f64>,
    pub(crate) ll: f64,
}

/// One Davidson–Bradley–Terry problem: pairs, their counts, the prior
/// precision τ = 1/σ² (0: none), and whether λ is a parameter.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Problem<'a> {
    pub(crate) pairs: &'a PairIndex,
    pub(crate) counts: &'a Counts,
    pub(crate) precision: f64,
    pub(crate) ties: bool,
}

/// ln D and p_a, p_b, p_t of one pair, stable for large |h| and λ.
#[inline]
pub(crate) fn probabilities(h: f64, lambda: f64, ties: bool) -> (f64, f64, f64, f64) {
    if ties {
        let m = h.abs().max(lambda);
        let (ea, eb, et) = ((h - m).exp(), (-h - m).exp(), (lambda - m).exp());
        let s = ea + eb + et;
        (m + s.ln(), ea / s, eb / s, et / s)
    } else {
        // e^h + e^−h = e^|h|·(1 + e^−2|h|): one exponential.
        let e = (-2.0 * h.abs()).exp();
        let big = 1.0 / (1.0 + e);
        let small = e * big;
        let log_d = h.abs() + e.ln_1p();
        if h >= 0.0 {
            (log_d, big, small, 0.0)
        } else {
            (log_d, small, big, 0.0)
        }
    }
}

impl Problem<'_> {
    fn n(&self) -> usize {
        self.pairs.n_items
    }

    /// The number of parameters: n scores, plus λ with ties.
    pub(crate) fn dim(&self) -> usize {
        self.n() + usize::from(self.ties)
    }

    /// Σ ℓ over the pairs (the log-likelihood).
    pub(crate) fn log_likelihood(&self, x: &[f64]) -> f64 {
        -(self.evaluate(x, None, None) - self.prior_term(x))
    }

    /// F = −ℓ + τ/2·Σθ².
    pub(crate) fn objective(&self, x: &[f64]) -> f64 {
        self.evaluate(x, None, None)
    }

    pub(crate) fn prior_term(&self, x: &[f64]) -> f64 {
        if self.precision > 0.0 {
            0.5 * self.precision * x[..self.n()].iter().map(|t| t * t).sum::<f64>()
        } else {
            0.0
        }
    }

    fn lambda(&self, x: &[f64]) -> f64 {
        if self.ties {
            x[self.n()]
        } else {
            f64::NEG_INFINITY
        }
    }

    /// F at `x` (returned), its gradient into `g` and the curvature for
    /// [`hess_vec_on`](Self::hess_vec_on) into `curv` (when given), in one pass.
    pub(crate) fn evaluate(
        &self,
        x: &[f64],
        mut g: Option<&mut [f64]>,
        mut curv: Option<&mut Curvature>,
    ) -> f64 {
        let n = self.n();
        let lambda = self.lambda(x);
        let (p, k) = (self.pairs, self.counts);
        if let Some(g) = g.as_deref_mut() {
            g.iter_mut().for_each(|v| *v = 0.0);
        }
        if let Some(c) = curv.as_deref_mut() {
            c.c.clear();
            c.c.resize(p.len(), 0.0);
            c.u.clear();
            if self.ties {
                c.u.resize(p.len(), 0.0);
            }
            c.ll = 0.0;
        }
        let mut g_lambda = 0.0;
        let mut ll = 0.0;
        let mut loglik = 0.0;
        for i in 0..p.len() {
            let total = k.wa[i] + k.wb[i] + k.t[i];
            if total == 0.0 {
                continue;
            }
            let (a, b) = (p.a[i] as usize, p.b[i] as usize);
            let h = 0.5 * (x[a] - x[b]);
            let (log_d, pa, pb, pt) = probabilities(h, lambda, self.ties);
            loglik += (k.wa[i] - k.wb[i]) * h - total * log_d;
            if self.ties {
                loglik += k.t[i] * lambda;
            }
            if let Some(g) = g.as_deref_mut() {
                let dh = k.wa[i] - k.wb[i] - total * (pa - pb);
                g[a] -= 0.5 * dh;
                g[b] += 0.5 * dh;
                if self.ties {
                    g_lambda -= k.t[i] - total * pt;
                }
            }
            if let Some(c) = curv.as_deref_mut() {
                c.c[i] = 0.25 * total * ((pa + pb) * pt + 4.0 * pa * pb);
                if self.ties {
                    c.u[i] = -0.5 * total * (pa - pb) * pt;
                    ll += total * pt * (1.0 - pt);
                }
            }
        }
        if let Some(g) = g {
            if self.precision > 0.0 {
                for (gi, xi) in g[..n].iter_mut().zip(x) {
                    *gi += self.precision * xi;
                }
            }
            if self.ties {
                g[n] = g_lambda;
            }
        }
        if self.ties
            && let Some(c) = curv
        {
            c.ll = ll;
        }
        -loglik + self.prior_term(x)
    }

    /// [`evaluate`](Self::evaluate) without ties, with the gradient and
    /// the curvature: the fitting loop's hot path (one exponential and one
    /// logarithm a pair, no branch on options).
    fn evaluate_plain(&self, x: &[f64], g: &mut [f64], c: &mut Curvature) {
        let (p, k) = (self.pairs, self.counts);
        // g[a] summed in a register over the run of pairs with the same a
        // (pairs come sorted by a), in the same order as one at a time.
        debug_assert_eq!(c.c.len(), p.len(), "the curvature is sized by the caller");
        for (a, run) in runs(&p.a) {
            let xa = x[a];
            let mut ga = g[a];
            let pairs = p.b[run.clone()]
                .iter()
                .zip(&k.wa[run.clone()])
                .zip(&k.wb[run.clone()])
                .zip(&mut c.c[run]);
            for (((&b, &wa), &wb), ci) in pairs {
                let b = b as usize;
                let total = wa + wb;
                let z = xa - x[b];
                let e = (-z.abs()).exp();
                let big = 1.0 / (1.0 + e);
                let pa = if z >= 0.0 { big } else { e * big };
                let dh = wa - wb - total * (2.0 * pa - 1.0);
                ga -= 0.5 * dh;
                g[b] += 0.5 * dh;
                *ci = total * (e * big * big);
            }
            g[a] = ga;
        }
        if self.precision > 0.0 {
            for (gi, xi) in g.iter_mut().zip(x) {
                *gi += self.precision * xi;
            }
        }
    }

    /// The gradient of F into `g`, and the curvature into `curv`.
    pub(crate) fn gradient(&self, x: &[f64], g: &mut [f64], curv: Option<&mut Curvature>) {
        self.evaluate(x, Some(g), curv);
    }

    /// The gradient and the curvature, without F (no logarithms without
    /// ties).
    pub(crate) fn derivatives(&self, x: &[f64], g: &mut [f64], curv: &mut Curvature) {
        if self.ties {
            self.evaluate(x, Some(g), Some(curv));
        } else {
            curv.c.clear();
            curv.c.resize(self.pairs.len(), 0.0);
            curv.u.clear();
            curv.ll = 0.0;
            g.iter_mut().for_each(|v| *v = 0.0);
            self.evaluate_plain(x, g, curv);
        }
    }

    /// [`hess_vec_on`](Self::hess_vec_on) on the caller's thread.
    #[cfg(test)]
    fn hess_vec(&self, curv: &Curvature, shift: f64, v: &[f64], out: &mut [f64]) {
        self.hess_vec_on(curv, shift, v, out, None);
    }

    /// out = (H + shift·eeᵀ)·v, with H the Hessian of F whose curvature is
    /// `curv` and e = (1, …, 1, 0)/√n (the direction F is flat in without a
    /// prior). Without ties, with `threads` = (t > 1, the pairs by item), on
    /// up to t threads: each item's entry is summed on one thread, its terms
    /// in the order of the one-thread loop (the pairs (·, i) by index, then
    /// (i, ·) by index; pairs have a < b), so the same bits.
    fn hess_vec_on(
        &self,
        curv: &Curvature,
        shift: f64,
        v: &[f64],
        out: &mut [f64],
        threads: Option<(usize, &ByItem)>,
    ) {
        let n = self.n();
        let p = self.pairs;
        if let Some((workers, by)) = threads.filter(|&(w, _)| w > 1 && !self.ties) {
            let mean = if shift > 0.0 {
                shift * v[..n].iter().sum::<f64>() / n as f64
            } else {
                0.0
            };
            let c = &curv.c;
            let entry = |i: usize| {
                let vi = v[i];
                let mut acc = 0.0;
                let on_b = by.b_start[i] as usize..by.b_start[i + 1] as usize;
                for (&a, &cj) in by.b_a[on_b.clone()].iter().zip(&by.b_c[on_b]) {
                    acc -= cj * (v[a as usize] - vi);
                }
                for j in by.a_start[i] as usize..by.a_start[i + 1] as usize {
                    acc += c[j] * (vi - v[p.b[j] as usize]);
                }
                acc + (self.precision * vi + mean)
            };
            let mut pieces = Vec::with_capacity(by.bounds.len());
            let mut rest = &mut out[..n];
            for w in by.bounds.windows(2) {
                let (piece, tail) = rest.split_at_mut(w[1] - w[0]);
                pieces.push((w[0], piece));
                rest = tail;
            }
            threads::map(pieces, workers, |(i0, piece)| {
                for (o, i) in piece.iter_mut().zip(i0..) {
                    *o = entry(i);
                }
            });
            return;
        }
        out.iter_mut().for_each(|o| *o = 0.0);
        let v_lambda = if self.ties { v[n] } else { 0.0 };
        let mut o_lambda = 0.0;
        if !self.ties {
            // Pairs come sorted by a (a < b): out[a] is summed in a
            // register over its run, in the same order as one pair at a
            // time (the same bits), without a store and reload a pair.
            for (a, run) in runs(&p.a) {
                let va = v[a];
                let mut acc = out[a];
                for (&b, &ci) in p.b[run.clone()].iter().zip(&curv.c[run]) {
                    let fa = ci * (va - v[b as usize]);
                    acc += fa;
                    out[b as usize] -= fa;
                }
                out[a] = acc;
            }
        }
        for i in (0..p.len()).filter(|_| self.ties) {
            let (a, b) = (p.a[i] as usize, p.b[i] as usize);
            let d = v[a] - v[b];
            let mut fa = curv.c[i] * d;
            if self.ties {
                let u = curv.u[i];
                fa += u * v_lambda;
                o_lambda += u * d;
            }
            out[a] += fa;
            out[b] -= fa;
        }
        let mean = if shift > 0.0 {
            shift * v[..n].iter().sum::<f64>() / n as f64
        } else {
            0.0
        };
        for (o, vi) in out[..n].iter_mut().zip(v) {
            *o += self.precision * vi + mean;
        }
        if self.ties {
            out[n] = o_lambda + curv.ll * v_lambda;
        }
    }

    /// The diagonal of H + shift·eeᵀ.
    pub(crate) fn hess_diag(&self, curv: &Curvature, shift: f64, out: &mut [f64]) {
        let n = self.n();
        let p = self.pairs;
        out.iter_mut().for_each(|o| *o = 0.0);
        for i in 0..p.len() {
            out[p.a[i] as usize] += curv.c[i];
            out[p.b[i] as usize] += curv.c[i];
        }
        for o in &mut out[..n] {
            *o += self.precision + shift / n as f64;
        }
        if self.ties {
            out[n] = curv.ll;
        }
    }
}

/// The runs of equal values in `a` (the pairs' first items, sorted): each
/// value with the range of indices it holds, in order.
fn runs(a: &[u32]) -> impl Iterator<Item = (usize, core::ops::Range<usize>)> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        let first = *a.get(i)?;
        let start = i;
        i += a[i..].iter().take_while(|&&v| v == first).count();
        Some((first as usize, start..i))
    })
}

/// Settings of [`newton`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    pub(crate) tolerance: f64,
    pub(crate) max_iterations: usize,
    /// Whether a full step may be kept because it halves the gradient's
    /// norm, without checking that F fell (false where every step must
    /// raise the likelihood: the noisy model's EM steps).
    pub(crate) gradient_merit: bool,
}

/// What [`newton`] reached.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outcome {
    pub(crate) iterations: usize,
    pub(crate) gradient: f64,
    pub(crate) converged: bool,
}

/// The largest absolute component.
pub(crate) fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// Scratch vectors of the solver, kept between calls (bootstrap
/// replicates, EM steps).
#[derive(Debug, Clone, Default)]
pub(crate) struct Work {
    g: Vec<f64>,
    g_trial: Vec<f64>,
    step: Vec<f64>,
    trial: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    d: Vec<f64>,
    hd: Vec<f64>,
    diag: Vec<f64>,
    curv: Curvature,
    curv_trial: Curvature,
    /// Threads for the Hessian-vector products (0 or 1: the caller's
    /// thread alone).
    threads: usize,
    by_item: ByItem,
}

impl Work {
    /// Scratch whose Hessian-vector products (without ties) run on up to
    /// `threads` threads, with the same bits as on one: for a problem fitted
    /// once, not for fits that already run on the threads (replicates).
    pub(crate) fn with_threads(threads: usize) -> Self {
        Self {
            threads,
            ..Self::default()
        }
    }
}

/// The pairs of each item, for sums item by item: pairs (i, ·) are
/// `a_start[i]..a_start[i + 1]` (pairs come sorted by a), and the pairs
/// (·, i) are `b_pairs[b_start[i]..b_start[i + 1]]`, by increasing index,
/// with their first items `b_a` and curvatures `b_c` in the same order (read
/// in sequence, as the one-thread loop reads the pairs).
#[derive(Debug, Clone, Default)]
struct ByItem {
    a_start: Vec<u32>,
    b_start: Vec<u32>,
    b_pairs: Vec<u32>,
    b_a: Vec<u32>,
    b_c: Vec<f64>,
    /// Parts of the items with about equal numbers of terms (a pair counts
    /// for both its items), taken by the threads as they are free: part k
    /// is `bounds[k]..bounds[k + 1]`.
    bounds: Vec<usize>,
}

impl ByItem {
    /// The index of `p` (a counting sort of the pairs by b, stable), in
    /// `parts` parts.
    fn build(&mut self, p: &PairIndex, parts: usize) {
        let n = p.n_items;
        for (start, items) in [(&mut self.a_start, &p.a), (&mut self.b_start, &p.b)] {
            start.clear();
            start.resize(n + 1, 0);
            for &i in items {
                start[i as usize + 1] += 1;
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
        }
        let mut fill = self.b_start.clone();
        self.b_pairs.clear();
        self.b_pairs.resize(p.len(), 0);
        for (j, &b) in p.b.iter().enumerate() {
            let at = &mut fill[b as usize];
            self.b_pairs[*at as usize] = j as u32;
            *at += 1;
        }
        self.b_a.clear();
        self.b_a
            .extend(self.b_pairs.iter().map(|&j| p.a[j as usize]));
        // The terms before item i: nondecreasing in i.
        let terms = |i: usize| self.a_start[i] as usize + self.b_start[i] as usize;
        self.bounds.clear();
        self.bounds.push(0);
        for k in 1..parts {
            let target = k * 2 * p.len() / parts;
            let (mut lo, mut hi) = (*self.bounds.last().unwrap_or(&0), n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if terms(mid) < target {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            self.bounds.push(lo);
        }
        self.bounds.push(n);
    }

    /// The curvatures `c` of the pairs in the order of `b_pairs` (once per
    /// Newton step: the products of its conjugate gradients read them).
    fn set_curvature(&mut self, c: &[f64]) {
        self.b_c.clear();
        self.b_c.extend(self.b_pairs.iter().map(|&j| c[j as usize]));
    }
}

/// Minimises F from `x` (changed in place) by Newton's method: each step
/// solves (H + shift·eeᵀ)·s = −g by conjugate gradients preconditioned
/// with the diagonal (to a relative residual min(½, √‖g‖), so that the
/// steps converge superlinearly), then backtracks until F decreases
/// (Armijo, factor ½); with `gradient_merit`, a full step that halves the
/// gradient's Euclidean norm is kept without evaluating F. Stops when the gradient's largest component is at
/// most `tolerance`, a rule on the gradient, not on the step. Scores are
/// kept centred (mean 0): F does not change, and with a prior the optimum
/// is centred anyway.
pub(crate) fn newton(problem: &Problem<'_>, x: &mut [f64], s: Settings, w: &mut Work) -> Outcome {
    let dim = problem.dim();
    let n = problem.n();
    for v in [
        &mut w.g,
        &mut w.g_trial,
        &mut w.step,
        &mut w.trial,
        &mut w.r,
        &mut w.z,
        &mut w.d,
        &mut w.hd,
        &mut w.diag,
    ] {
        v.clear();
        v.resize(dim, 0.0);
    }
    let threads = if w.threads > 1 && !problem.ties {
        w.by_item.build(problem.pairs, 4 * w.threads);
        Some(w.threads)
    } else {
        None
    };
    centre(&mut x[..n]);
    problem.derivatives(x, &mut w.g, &mut w.curv);
    // F at x, computed only when a line search needs it.
    let mut f: Option<f64> = None;
    let mut iterations = 0;
    loop {
        let gnorm = max_abs(&w.g);
        if gnorm <= s.tolerance || !gnorm.is_finite() || iterations >= s.max_iterations {
            return Outcome {
                iterations,
                gradient: gnorm,
                converged: gnorm <= s.tolerance,
            };
        }
        iterations += 1;
        // Without a prior, F is flat along e: the shift makes the system
        // definite and leaves the step orthogonal to e.
        let shift = if problem.precision > 0.0 {
            0.0
        } else {
            mean_curvature(&w.curv, n).max(1e-12)
        };
        let l2 = w.g.iter().map(|v| v * v).sum::<f64>().sqrt();
        let eta = 1e-3f64.min(l2);
        conjugate_gradient(problem, shift, eta, threads, w);
        // Backtracking line search on F; the trial's gradient and
        // curvature are kept for the next step.
        let slope: f64 = w.g.iter().zip(&w.step).map(|(g, s)| g * s).sum();
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..60 {
            for ((tr, xi), si) in w.trial.iter_mut().zip(x.iter()).zip(&w.step) {
                *tr = xi + t * si;
            }
            centre(&mut w.trial[..n]);
            problem.derivatives(&w.trial, &mut w.g_trial, &mut w.curv_trial);
            // F is convex: when its slope along the step is still ≤ 0 at
            // the trial point, it fell all the way there.
            let slope_t: f64 = w.g_trial.iter().zip(&w.step).map(|(g, s)| g * s).sum();
            if slope_t <= 0.0 && max_abs(&w.g_trial).is_finite() {
                accepted = true;
                f = None;
                break;
            }
            // A full Newton step that overshoots a little (slope_t > 0, the
            // usual case of an inexact step near the optimum) is kept
            // without evaluating F (a logarithm a pair) when it shrinks the
            // gradient's norm sufficiently: ‖g‖ is a merit function of
            // Newton's method too (d‖g(x + ts)‖²/dt = −2‖g‖² at t = 0 for
            // the exact step).
            if s.gradient_merit && t == 1.0 && slope_t.is_finite() {
                let l2_t = w.g_trial.iter().map(|v| v * v).sum::<f64>().sqrt();
                if l2_t <= 0.5 * l2 {
                    accepted = true;
                    f = None;
                    break;
                }
            }
            let f0 = *f.get_or_insert_with(|| problem.objective(x));
            let ft = problem.objective(&w.trial);
            // Near the optimum F changes by less than its rounding: then a
            // step that shrinks the gradient is progress.
            if ft.is_finite()
                && (ft <= f0 + 1e-4 * t * slope.min(0.0)
                    || ((ft - f0).abs() <= 1e-12 * f0.abs().max(1.0)
                        && max_abs(&w.g_trial) < gnorm))
            {
                accepted = true;
                f = Some(ft);
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            // No decrease along the step: at the limit of precision.
            return Outcome {
                iterations,
                gradient: gnorm,
                converged: gnorm <= s.tolerance,
            };
        }
        x.copy_from_slice(&w.trial);
        core::mem::swap(&mut w.g, &mut w.g_trial);
        core::mem::swap(&mut w.curv, &mut w.curv_trial);
    }
}

fn mean_curvature(c: &Curvature, n: usize) -> f64 {
    2.0 * c.c.iter().sum::<f64>() / n as f64
}

/// Solves (H + shift·eeᵀ)·step = −g approximately (relative residual
/// `eta`), preconditioned by the diagonal.
fn conjugate_gradient(
    problem: &Problem<'_>,
    shift: f64,
    eta: f64,
    threads: Option<usize>,
    w: &mut Work,
) {
    let dim = problem.dim();
    problem.hess_diag(&w.curv, shift, &mut w.diag);
    if threads.is_some() {
        w.by_item.set_curvature(&w.curv.c);
    }
    for d in &mut w.diag {
        if *d <= 0.0 || !d.is_finite() {
            *d = 1.0;
        }
    }
    w.step.iter_mut().for_each(|s| *s = 0.0);
    for i in 0..dim {
        w.r[i] = -w.g[i];
        w.z[i] = w.r[i] / w.diag[i];
        w.d[i] = w.z[i];
    }
    let r0 = w.r.iter().map(|v| v * v).sum::<f64>().sqrt();
    let mut rz: f64 = w.r.iter().zip(&w.z).map(|(a, b)| a * b).sum();
    for _ in 0..(2 * dim).max(50) {
        let on = threads.map(|t| (t, &w.by_item));
        problem.hess_vec_on(&w.curv, shift, &w.d, &mut w.hd, on);
        let dhd: f64 = w.d.iter().zip(&w.hd).map(|(a, b)| a * b).sum();
        if dhd <= 0.0 || !dhd.is_finite() {
            break;
        }
        let alpha = rz / dhd;
        for i in 0..dim {
            w.step[i] += alpha * w.d[i];
            w.r[i] -= alpha * w.hd[i];
        }
        let rn = w.r.iter().map(|v| v * v).sum::<f64>().sqrt();
        if rn <= eta * r0 {
            break;
        }
        for i in 0..dim {
            w.z[i] = w.r[i] / w.diag[i];
        }
        let rz_new: f64 = w.r.iter().zip(&w.z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..dim {
            w.d[i] = w.z[i] + beta * w.d[i];
        }
    }
    if w.step.iter().all(|s| *s == 0.0) {
        // Not even one CG step: fall back to the preconditioned gradient.
        for i in 0..dim {
            w.step[i] = -w.g[i] / w.diag[i];
        }
    }
}

/// Subtracts the mean.
pub(crate) fn centre(theta: &mut [f64]) {
    if theta.is_empty() {
        return;
    }
    let mean = theta.iter().sum::<f64>() / theta.len() as f64;
    theta.iter_mut().for_each(|t| *t -= mean);
}

/// A starting point: centred log-odds of each item's (wins + ties/2 + ½)
/// against its (losses + ties/2 + ½), halved (the scores of a chain are
/// more spread than the log-odds of a single comparison are), and λ from
/// the share of ties at equal scores (P(tie) = ν/(2 + ν)).
pub(crate) fn start(problem: &Problem<'_>) -> Vec<f64> {
    let n = problem.n();
    let (p, k) = (problem.pairs, problem.counts);
    let mut won = vec![0.5; n];
    let mut lost = vec![0.5; n];
    for i in 0..p.len() {
        let (a, b) = (p.a[i] as usize, p.b[i] as usize);
        won[a] += k.wa[i] + 0.5 * k.t[i];
        lost[a] += k.wb[i] + 0.5 * k.t[i];
        won[b] += k.wb[i] + 0.5 * k.t[i];
        lost[b] += k.wa[i] + 0.5 * k.t[i];
    }
    let mut x: Vec<f64> = won
        .iter()
        .zip(&lost)
        .map(|(w, l)| 0.5 * (w / l).ln())
        .collect();
    centre(&mut x);
    if problem.ties {
        let (t, total) = k.totals();
        let share = (t / total).clamp(1e-6, 1.0 - 1e-6);
        x.push((2.0 * share / (1.0 - share)).ln());
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ballot::Vote;
    use crate::pairwise::Comparisons;

    /// Votes among `n` items from a fixed linear congruential sequence:
    /// items of every degree, some pairs many times.
    fn votes(n: usize, m: usize, seed: u64) -> Comparisons {
        let mut c = Comparisons::with_item_count(n).unwrap();
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 33) as usize
        };
        while c.len() < m {
            let (a, b) = (next() % n, next() % (n / 3 + 1));
            if a != b {
                let vote = if next() % 3 == 0 {
                    Vote::Second
                } else {
                    Vote::First
                };
                c.add(a, b, vote, None).unwrap();
            }
        }
        c
    }

    #[test]
    fn hessian_products_on_threads_have_the_same_bits() {
        for (n, m, seed) in [(2, 5, 1), (7, 40, 2), (300, 5000, 3), (1000, 3000, 4)] {
            let data = votes(n, m, seed);
            let pairs = PairIndex::new(&data);
            let counts = pairs.counts(data.records());
            for precision in [0.0, 0.25] {
                let problem = Problem {
                    pairs: &pairs,
                    counts: &counts,
                    precision,
                    ties: false,
                };
                let x: Vec<f64> = (0..n).map(|i| ((i * 37) % 11) as f64 / 7.0 - 0.7).collect();
                let v: Vec<f64> = (0..n).map(|i| ((i * 13) % 17) as f64 / 5.0 - 1.6).collect();
                let mut g = vec![0.0; n];
                let mut curv = Curvature::default();
                problem.derivatives(&x, &mut g, &mut curv);
                for shift in [0.0, 0.3] {
                    let mut one = vec![0.0; n];
                    problem.hess_vec(&curv, shift, &v, &mut one);
                    for threads in [2, 3, 8] {
                        let mut by = ByItem::default();
                        by.build(&pairs, 4 * threads);
                        by.set_curvature(&curv.c);
                        let mut many = vec![f64::NAN; n];
                        problem.hess_vec_on(&curv, shift, &v, &mut many, Some((threads, &by)));
                        assert!(
                            one.iter()
                                .zip(&many)
                                .all(|(a, b)| a.to_bits() == b.to_bits()),
                            "n {n}, {threads} threads, shift {shift}, precision {precision}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_fit_on_threads_has_the_same_bits() {
        let data = votes(400, 6000, 5);
        let pairs = PairIndex::new(&data);
        let counts = pairs.counts(data.records());
        let problem = Problem {
            pairs: &pairs,
            counts: &counts,
            precision: 1.0 / 9.0,
            ties: false,
        };
        let settings = Settings {
            tolerance: 1e-10,
            max_iterations: 100,
            gradient_merit: true,
        };
        let mut one = start(&problem);
        let a = newton(&problem, &mut one, settings, &mut Work::default());
        let mut two = start(&problem);
        let b = newton(&problem, &mut two, settings, &mut Work::with_threads(2));
        assert!(a.converged && b.converged);
        assert_eq!(a.iterations, b.iterations);
        assert!(
            one.iter()
                .zip(&two)
                .all(|(x, y)| x.to_bits() == y.to_bits())
        );
    }
}
