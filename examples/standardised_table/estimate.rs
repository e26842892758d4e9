//! Γ̄, V, V_ℓ and their standard errors from the head–tail draws: the mean
//! with the control variates S_pq (least squares on the controls, the
//! classical control-variate estimator), V and V_ℓ as plain sample moments
//! about it.

use crate::fast::{CONTROLS, Head, Scratch, Setup};
use crate::rng::Rng;

/// Draws per block; block i draws from stream (seed, i).
pub const BLOCK: usize = 2048;

/// Running sums about a centre, block by block.
#[derive(Debug, Clone)]
struct Sums {
    count: f64,
    y: f64,
    yy: f64,
    x: [f64; CONTROLS],
    xx: [[f64; CONTROLS]; CONTROLS],
    xy: [f64; CONTROLS],
}

impl Sums {
    fn new() -> Self {
        Self {
            count: 0.0,
            y: 0.0,
            yy: 0.0,
            x: [0.0; CONTROLS],
            xx: [[0.0; CONTROLS]; CONTROLS],
            xy: [0.0; CONTROLS],
        }
    }

    fn push(&mut self, y: f64, x: &[f64; CONTROLS]) {
        self.count += 1.0;
        self.y += y;
        self.yy += y * y;
        for k in 0..CONTROLS {
            self.x[k] += x[k];
            self.xy[k] += x[k] * y;
            for l in k..CONTROLS {
                self.xx[k][l] += x[k] * x[l];
            }
        }
    }

    fn merge(&mut self, o: &Self) {
        self.count += o.count;
        self.y += o.y;
        self.yy += o.yy;
        for k in 0..CONTROLS {
            self.x[k] += o.x[k];
            self.xy[k] += o.xy[k];
            for l in k..CONTROLS {
                self.xx[k][l] += o.xx[k][l];
            }
        }
    }

    /// (mean of y with the controls, its standard error).
    fn mean(&self) -> (f64, f64) {
        let m = self.count;
        let yb = self.y / m;
        let xb: [f64; CONTROLS] = core::array::from_fn(|k| self.x[k] / m);
        let sxx = |k: usize, l: usize| {
            let (k, l) = (k.min(l), k.max(l));
            self.xx[k][l] - m * xb[k] * xb[l]
        };
        let sxy: [f64; CONTROLS] = core::array::from_fn(|k| self.xy[k] - m * xb[k] * yb);
        let syy = self.yy - m * yb * yb;
        // Cholesky of the controls' correlation matrix, skipping controls that
        // are constant or (nearly) combinations of those before.
        let mut used: Vec<(usize, f64)> = Vec::new();
        let mut l: Vec<Vec<f64>> = Vec::new();
        for k in 0..CONTROLS {
            let d = sxx(k, k);
            if !(d > 0.0 && (d / m).sqrt() > 1e-13) {
                continue;
            }
            let dk = d.sqrt();
            let mut row = Vec::with_capacity(used.len() + 1);
            for (t, &(j, dj)) in used.iter().enumerate() {
                let mut v = sxx(k, j) / (dk * dj);
                for (u, lu) in row.iter().enumerate() {
                    v -= lu * l[t][u];
                }
                row.push(v / l[t][t]);
            }
            let pivot = 1.0 - row.iter().map(|v| v * v).sum::<f64>();
            if pivot < 1e-10 {
                continue;
            }
            row.push(pivot.sqrt());
            l.push(row);
            used.push((k, dk));
        }
        let forward = |rhs: &[f64]| -> Vec<f64> {
            let mut z: Vec<f64> = Vec::with_capacity(rhs.len());
            for (t, row) in l.iter().enumerate() {
                let s: f64 = row[..t].iter().zip(&z).map(|(a, b)| a * b).sum();
                z.push((rhs[t] - s) / row[t]);
            }
            z
        };
        let zy = forward(&used.iter().map(|&(k, dk)| sxy[k] / dk).collect::<Vec<_>>());
        let zx = forward(&used.iter().map(|&(k, dk)| xb[k] / dk).collect::<Vec<_>>());
        // β = S⁻¹ s_xy: explained = zyᵀzy, shift = βᵀx̄ = zyᵀzx, quadratic form = zxᵀzx.
        let explained: f64 = zy.iter().map(|v| v * v).sum();
        let shift: f64 = zy.iter().zip(&zx).map(|(a, b)| a * b).sum();
        let quad: f64 = zx.iter().map(|v| v * v).sum();
        let p = used.len() as f64;
        let residual = ((syy - explained) / (m - p - 1.0)).max(0.0);
        (yb - shift, (residual * (1.0 / m + quad)).sqrt())
    }
}

/// One grid point's estimates.
#[derive(Debug, Clone, Copy)]
pub struct Estimate {
    pub mean: f64,
    pub se_mean: f64,
    pub variance: f64,
    pub se_variance: f64,
    pub left: f64,
    pub se_left: f64,
    pub draws: usize,
}

/// The draws of blocks `first..first + count` on `threads` threads, in
/// block order: (values, sums about `centre`) per block.
fn run_blocks(
    setup: &Setup,
    seed: u64,
    first: usize,
    count: usize,
    threads: usize,
    centre: f64,
) -> Vec<(Vec<f64>, Sums)> {
    let block = |i: usize, head: &mut Head, scratch: &mut Scratch| {
        let mut rng = Rng::stream(seed, i as u64);
        let mut values = Vec::with_capacity(BLOCK);
        let mut sums = Sums::new();
        for _ in 0..BLOCK {
            setup.sample(&mut rng, head, scratch);
            let (g, x) = setup.evaluate(head, scratch);
            values.push(g);
            sums.push(g - centre, &x);
        }
        (values, sums)
    };
    let threads = threads.clamp(1, count.max(1));
    let chunk = count.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let block = &block;
                scope.spawn(move || {
                    let (mut head, mut scratch) = (Head::default(), Scratch::default());
                    let lo = first + t * chunk;
                    let hi = (lo + chunk).min(first + count);
                    (lo..hi)
                        .map(|i| block(i, &mut head, &mut scratch))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("sampler thread"))
            .collect()
    })
}

/// Draws until the standard error of Γ̄ is at most `target` and those of
/// V and V_ℓ at most `relative` of their values, or `max_draws` are
/// reached.
pub fn estimate(
    setup: &Setup,
    seed: u64,
    target: f64,
    relative: f64,
    max_draws: usize,
    threads: usize,
) -> Estimate {
    let max_blocks = max_draws.div_ceil(BLOCK).max(8);
    let pilot = run_blocks(setup, seed, 0, 8, threads, 0.0);
    let centre = pilot.iter().flat_map(|b| &b.0).sum::<f64>() / (8 * BLOCK) as f64;
    let mut values: Vec<f64> = Vec::new();
    let mut sums = Sums::new();
    let mut blocks = 0;
    let mut wanted = 8;
    loop {
        for (v, s) in run_blocks(setup, seed, blocks, wanted - blocks, threads, centre) {
            values.extend(v);
            sums.merge(&s);
        }
        blocks = wanted;
        let e = moments(&values, &sums, centre);
        let ratio = (e.se_mean / target)
            .max(e.se_variance / (relative * e.variance))
            .max(e.se_left / (relative * e.left));
        if ratio <= 1.0 || blocks >= max_blocks {
            return e;
        }
        wanted =
            ((blocks as f64 * ratio * ratio * 1.05).ceil() as usize).clamp(blocks + 1, max_blocks);
    }
}

fn moments(values: &[f64], sums: &Sums, centre: f64) -> Estimate {
    let (shift, se_mean) = sums.mean();
    let mean = centre + shift;
    let m = values.len() as f64;
    let (mut v, mut v4, mut left, mut left2, mut left1) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &g in values {
        let d = g - mean;
        let q = d * d;
        v += q;
        v4 += q * q;
        if d < 0.0 {
            left += q;
            left2 += q * q;
            left1 += d;
        }
    }
    let (variance, left) = (v / m, left / m);
    let slope = 2.0 * left1 / m;
    Estimate {
        mean,
        se_mean,
        variance,
        se_variance: ((v4 / m - variance * variance).max(0.0) / m).sqrt(),
        left,
        se_left: ((left2 / m - left * left).max(0.0) / m + slope * slope * se_mean * se_mean)
            .sqrt(),
        draws: values.len(),
    }
}
