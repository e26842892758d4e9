//! Numerical stability at large n: the kernel against an independent sweep
//! written here (a Fenwick tree over y ranks with weight and count nodes,
//! sharing no code with the crate; the kernel's additive path counts
//! discordant partners instead), and exact integer counts for unit weights.
//!
//! n = 10⁵ runs always; n = 10⁷ is `#[ignore]`d in the default test run
//! (mostly the sweep: about a minute and a half on two cores, which share
//! the nine independent checks) and run by `.ci/run` as
//! `cargo test --workspace --all-features --test vigna_stability -- --ignored`,
//! in the optimised test profile the README's test command has already built.

// Ties are exact equality, and unit-weight counts must agree exactly.
#![allow(clippy::float_cmp)]

#[path = "common/splitmix.rs"]
mod splitmix;

use adaptive_comp_metrics::correlation::vigna::{Combine, weighted_kendall};

/// Weighted concordant and discordant sums and the untied sums, by sweeping
/// the items in x order and querying a Fenwick tree over y ranks.
struct Sweep {
    concordant: f64,
    discordant: f64,
    untied_x: f64,
    untied_y: f64,
}

struct Fenwick {
    count: Vec<u64>,
    weight: Vec<f64>,
}

impl Fenwick {
    fn new(n: usize) -> Self {
        Self {
            count: vec![0; n + 1],
            weight: vec![0.0; n + 1],
        }
    }
    fn add(&mut self, pos: usize, w: f64) {
        let mut i = pos + 1;
        while i < self.count.len() {
            self.count[i] += 1;
            self.weight[i] += w;
            i += i & i.wrapping_neg();
        }
    }
    /// Count and weight of positions < pos.
    fn below(&self, pos: usize) -> (u64, f64) {
        let (mut c, mut w, mut i) = (0, 0.0, pos);
        while i > 0 {
            c += self.count[i];
            w += self.weight[i];
            i &= i - 1;
        }
        (c, w)
    }
}

/// Kahan–Babuška sum, kept here so the oracle shares no code with the crate.
#[derive(Default)]
struct Acc(f64, f64);
impl Acc {
    fn add(&mut self, x: f64) {
        let t = self.0 + x;
        self.1 += if self.0.abs() >= x.abs() {
            (self.0 - t) + x
        } else {
            (x - t) + self.0
        };
        self.0 = t;
    }
    fn get(&self) -> f64 {
        self.0 + self.1
    }
}

fn pair(w1: f64, c: u64, s: f64, combine: Combine) -> f64 {
    match combine {
        Combine::Additive => w1 * c as f64 + s,
        Combine::Multiplicative => w1 * s,
    }
}

/// Untied pair weight of one key: sweep groups of equal key.
fn untied(key: &[f64], u: &[f64], combine: Combine) -> f64 {
    let mut idx: Vec<usize> = (0..key.len()).collect();
    idx.sort_by(|&i, &j| key[i].total_cmp(&key[j]));
    let (mut acc, mut c, mut s) = (Acc::default(), 0u64, Acc::default());
    let mut g = 0;
    while g < idx.len() {
        let mut e = g;
        while e < idx.len() && key[idx[e]] == key[idx[g]] {
            acc.add(pair(u[idx[e]], c, s.get(), combine));
            e += 1;
        }
        for &i in &idx[g..e] {
            c += 1;
            s.add(u[i]);
        }
        g = e;
    }
    acc.get()
}

fn sweep(x: &[f64], y: &[f64], u: &[f64], combine: Combine) -> Sweep {
    let n = x.len();
    let mut ys: Vec<f64> = y.to_vec();
    ys.sort_by(f64::total_cmp);
    ys.dedup();
    let ry: Vec<usize> = y.iter().map(|v| ys.partition_point(|w| w < v)).collect();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    let mut tree = Fenwick::new(ys.len());
    let (mut conc, mut disc) = (Acc::default(), Acc::default());
    let (mut total_c, mut total_w) = (0u64, Acc::default());
    let mut g = 0;
    while g < n {
        let mut e = g;
        while e < n && x[idx[e]] == x[idx[g]] {
            let i = idx[e];
            // Earlier x groups: below in y → concordant, above → discordant.
            let (cb, wb) = tree.below(ry[i]);
            let (ca, wa) = tree.below(ry[i] + 1);
            conc.add(pair(u[i], cb, wb, combine));
            let (c_above, w_above) = (total_c - ca, total_w.get() - wa);
            disc.add(pair(u[i], c_above, w_above, combine));
            e += 1;
        }
        for &i in &idx[g..e] {
            tree.add(ry[i], u[i]);
            total_c += 1;
            total_w.add(u[i]);
        }
        g = e;
    }
    Sweep {
        concordant: conc.get(),
        discordant: disc.get(),
        untied_x: untied(x, u, combine),
        untied_y: untied(y, u, combine),
    }
}

/// y = x + noise, so τ is far from 0 and relative errors are meaningful.
fn correlated(seed: u64, n: usize, levels: u32) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (x, noise) = splitmix::data(seed, n, 0);
    let q = |v: f64| {
        if levels > 0 {
            (v * f64::from(levels)).floor()
        } else {
            v
        }
    };
    let y: Vec<f64> = x
        .iter()
        .zip(&noise)
        .map(|(a, b)| q(0.5 * a + 0.5 * b))
        .collect();
    let x: Vec<f64> = x.into_iter().map(q).collect();
    // Hyperbolic weights by a random importance: 1/(1 + ⌊n·v⌋).
    let (v, _) = splitmix::data(seed + 7, n, 0);
    let u = v
        .iter()
        .map(|t| 1.0 / (1.0 + (t * n as f64).floor()))
        .collect();
    (x, y, u)
}

/// One unit of work: a tie pattern (seed, levels) with a weight combination,
/// or (`None`) unit weights, whose sums must equal the sweep's exactly.
fn check_one(n: usize, rel: f64, seed: u64, levels: u32, combine: Option<Combine>) {
    let (x, y, u) = correlated(seed, n, levels);
    let Some(combine) = combine else {
        let ones = vec![1.0; n];
        let fast = weighted_kendall(&x, &y, &ones, Combine::Multiplicative).unwrap();
        let slow = sweep(&x, &y, &ones, Combine::Multiplicative);
        assert_eq!(fast.discordant, slow.discordant);
        assert_eq!(fast.concordant, slow.concordant);
        assert_eq!(fast.untied_x, slow.untied_x);
        return;
    };
    let fast = weighted_kendall(&x, &y, &u, combine).unwrap();
    let slow = sweep(&x, &y, &u, combine);
    let tau = (slow.concordant - slow.discordant) / slow.untied_x.sqrt() / slow.untied_y.sqrt();
    let what = format!("n {n}, seed {seed}, levels {levels}, {combine:?}");
    for (name, a, b) in [
        ("concordant", fast.concordant, slow.concordant),
        ("discordant", fast.discordant, slow.discordant),
        ("untied_x", fast.untied_x, slow.untied_x),
        ("untied_y", fast.untied_y, slow.untied_y),
        ("tau", fast.tau, tau),
    ] {
        assert!(
            (a - b).abs() <= rel * b.abs(),
            "{what}: {name} {a:e} vs {b:e}"
        );
    }
}

/// Three tie patterns (none, 1000 levels, 20 levels) × (additive,
/// multiplicative, unit weights), spread over the available cores (the
/// units are independent; a failed assertion in any fails the test).
fn check(n: usize, rel: f64) {
    let mut units = Vec::new();
    for (seed, levels) in [(1, 0), (2, 1000), (3, 20)] {
        for combine in [Some(Combine::Additive), Some(Combine::Multiplicative), None] {
            units.push((seed, levels, combine));
        }
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(units.len());
    std::thread::scope(|s| {
        for t in 0..threads {
            let units = &units;
            s.spawn(move || {
                for &(seed, levels, combine) in units.iter().skip(t).step_by(threads) {
                    check_one(n, rel, seed, levels, combine);
                }
            });
        }
    });
}

#[test]
fn large_n_agrees_with_a_fenwick_sweep() {
    check(100_000, 1e-13);
}

#[test]
#[ignore = "n = 10⁷: about a minute and a half; cargo test --all-features --test vigna_stability -- --ignored"]
fn ten_million_agrees_with_a_fenwick_sweep() {
    check(10_000_000, 1e-12);
}
