//! The observed information of a noisy Bradley–Terry fit (moved out of
//! `noisy.rs` so that no file exceeds 1000 lines; no change of behaviour).

use super::{BOUND, Layout, State, record_terms};
use crate::ballot::Vote;
use crate::pairwise::data::{Comparisons, NO_WORKER};
use crate::pairwise::error::Result;
use crate::pairwise::fit::{Fit, precision};
use crate::pairwise::information::Information;
/// The observed information of a noisy fit: the negative Hessian of the
/// log-posterior over θ, ln ν and the workers' r, β, κ that are inside
/// (0, 1) (a parameter on a bound is held fixed, as are β and κ of a
/// worker whose r is 1: they have no information).
pub(crate) fn information(fit: &Fit, data: &Comparisons) -> Result<Information> {
    let records = data.records();
    let ties = fit.tie.is_some();
    let layout = Layout::of(data, ties);
    let state = State::from_fit_exact(fit, &layout);
    let n = layout.n;
    let nw = layout.workers;
    // Index of each worker parameter among the extra ones (None: fixed).
    let mut next = u32::from(ties);
    let mut slot = vec![[None::<u32>; 3]; nw];
    let inside = |v: f64| v > BOUND && v < 1.0 - BOUND;
    for (w, s) in slot.iter_mut().enumerate() {
        let r_free = inside(state.r[w]);
        let careless_matters = state.r[w] < 1.0 - BOUND;
        let free = [
            r_free,
            careless_matters && layout.positions && inside(state.beta[w]),
            careless_matters && ties && inside(state.kappa[w]),
        ];
        for (k, f) in free.iter().enumerate() {
            if *f {
                s[k] = Some(next);
                next += 1;
            }
        }
    }
    let mut info = Information {
        n,
        extra: next as usize,
        precision: precision(fit.prior_sd),
        ..Information::default()
    };
    let mut cross = std::collections::HashMap::<(u32, u32), f64>::new();
    let mut block = std::collections::HashMap::<(u32, u32), f64>::new();
    let mut add_block = |k: u32, l: u32, v: f64| {
        *block.entry((k.min(l), k.max(l))).or_insert(0.0) += v;
    };
    for rec in records {
        let (d, dh, dl, pa, pb, pt) = record_terms(&state.x, n, ties, rec);
        // Second derivatives of ln P_D in (h, λ).
        let hh = -((pa + pb) * pt + 4.0 * pa * pb);
        let hl = (pa - pb) * pt;
        let ll = -pt * (1.0 - pt);
        let w = rec.worker_raw();
        // Local coordinates: h, λ, r, β, κ; the Hessian of ln p.
        let mut hess = [[0.0f64; 5]; 5];
        if w == NO_WORKER {
            hess[0][0] = hh;
            hess[0][1] = hl;
            hess[1][1] = ll;
        } else {
            let wi = w as usize;
            let (c, cb, ck) = state.careless(&layout, wi, rec.vote);
            let r = state.r[wi];
            let p = r * d + (1.0 - r) * c;
            // ∇p and ∇²p.
            let dp = [
                r * d * dh,
                r * d * dl,
                d - c,
                (1.0 - r) * cb,
                (1.0 - r) * ck,
            ];
            let mut d2 = [[0.0f64; 5]; 5];
            d2[0][0] = r * d * (hh + dh * dh);
            d2[0][1] = r * d * (hl + dh * dl);
            d2[1][1] = r * d * (ll + dl * dl);
            d2[0][2] = d * dh;
            d2[1][2] = d * dl;
            d2[2][3] = -cb;
            d2[2][4] = -ck;
            d2[3][4] = (1.0 - r)
                * match rec.vote {
                    Vote::First => -1.0,
                    Vote::Second => 1.0,
                    Vote::Tie => 0.0,
                };
            for i in 0..5 {
                for j in i..5 {
                    hess[i][j] = d2[i][j] / p - dp[i] * dp[j] / (p * p);
                }
            }
        }
        // Global index of each local coordinate (h is special: θ_a, θ_b).
        let extra_of = |k: usize| -> Option<u32> {
            match k {
                1 => ties.then_some(0),
                2..=4 if w != NO_WORKER => slot[w as usize][k - 2],
                _ => None,
            }
        };
        let (a, b) = (rec.first, rec.second);
        // θθ: −∂²/∂h²·(1/4) on (e_a − e_b)(e_a − e_b)ᵀ.
        info.pairs.push((a, b, -0.25 * hess[0][0]));
        for (k, row) in hess.iter().enumerate().skip(1) {
            let Some(ek) = extra_of(k) else { continue };
            let v = -0.5 * hess[0][k];
            *cross.entry((a, ek)).or_insert(0.0) += v;
            *cross.entry((b, ek)).or_insert(0.0) -= v;
            for (l, h) in row.iter().enumerate().skip(k) {
                if let Some(el) = extra_of(l) {
                    add_block(ek, el, -h);
                }
            }
        }
    }
    let mut cross: Vec<_> = cross.into_iter().map(|((i, k), v)| (i, k, v)).collect();
    cross.sort_unstable_by_key(|e| (e.0, e.1));
    let mut block: Vec<_> = block.into_iter().map(|((k, l), v)| (k, l, v)).collect();
    block.sort_unstable_by_key(|e| (e.0, e.1));
    info.cross = cross;
    info.extra_block = block;
    Ok(info)
}

impl State {
    /// The parameters of a fit, unclamped.
    fn from_fit_exact(f: &Fit, layout: &Layout) -> Self {
        Self::with_workers(f, f.parameters(), |r| r, 0.0).checked(layout)
    }

    fn checked(self, layout: &Layout) -> Self {
        debug_assert_eq!(self.r.len(), layout.workers);
        self
    }
}
