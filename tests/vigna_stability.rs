//! Numerical stability at large n: the kernel against an independent sweep
//! written here (a Fenwick tree over y ranks with weight and count nodes,
//! sharing no code with the crate; the kernel's additive path counts
//! discordant partners instead), and exact integer counts for unit weights.
//!
//! n = 10⁵ runs always; n = 10⁷ is `#[ignore]`d in the default test run
//! (mostly the sweep: about half a minute on two cores, which share
//! the three tie patterns) and run by `.ci/run` as
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
    concordant: [f64; WEIGHTINGS],
    discordant: [f64; WEIGHTINGS],
    untied_x: [f64; WEIGHTINGS],
    untied_y: [f64; WEIGHTINGS],
}

/// Count and weight per node, side by side: one cache line per level.
struct Fenwick {
    nodes: Vec<(u64, f64)>,
}

impl Fenwick {
    fn new(n: usize) -> Self {
        Self {
            nodes: vec![(0, 0.0); n + 1],
        }
    }
    fn add(&mut self, pos: usize, w: f64) {
        let mut i = pos + 1;
        while i < self.nodes.len() {
            self.nodes[i].0 += 1;
            self.nodes[i].1 += w;
            i += i & i.wrapping_neg();
        }
    }
    /// Count and weight of positions < pos.
    fn below(&self, pos: usize) -> (u64, f64) {
        let (mut c, mut w, mut i) = (0, 0.0, pos);
        while i > 0 {
            c += self.nodes[i].0;
            w += self.nodes[i].1;
            i &= i - 1;
        }
        (c, w)
    }
}

/// The indices of `key` in increasing order (equal keys by index), sorting
/// (key, index) pairs rather than indices through the key: at n = 10⁷ the
/// indirect comparisons' cache misses dominated this test's time.
fn order(key: &[f64]) -> Vec<usize> {
    let mut pairs: Vec<(f64, usize)> = key.iter().copied().zip(0..).collect();
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    pairs.into_iter().map(|(_, i)| i).collect()
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

/// The weightings one sweep serves at once: the additive and the
/// multiplicative combination of the weights u, and unit weights (the
/// multiplicative combination with every weight 1, whose pair weights are
/// the pair counts).
const WEIGHTINGS: usize = 3;

/// The weight of the pairs (i, j) over the earlier items j, given i's weight
/// w1, their count c and their weight sum s, in each weighting.
fn pair(w1: f64, c: u64, s: f64) -> [f64; WEIGHTINGS] {
    [w1 * c as f64 + s, w1 * s, c as f64]
}

fn add(acc: &mut [Acc; WEIGHTINGS], values: [f64; WEIGHTINGS]) {
    for (a, v) in acc.iter_mut().zip(values) {
        a.add(v);
    }
}

fn get(acc: &[Acc; WEIGHTINGS]) -> [f64; WEIGHTINGS] {
    acc.each_ref().map(Acc::get)
}

/// Untied pair weight of one key: sweep groups of equal key.
fn untied(key: &[f64], u: &[f64]) -> [f64; WEIGHTINGS] {
    let idx = order(key);
    let (mut acc, mut c, mut s) = (<[Acc; WEIGHTINGS]>::default(), 0u64, Acc::default());
    let mut g = 0;
    while g < idx.len() {
        let mut e = g;
        while e < idx.len() && key[idx[e]] == key[idx[g]] {
            add(&mut acc, pair(u[idx[e]], c, s.get()));
            e += 1;
        }
        for &i in &idx[g..e] {
            c += 1;
            s.add(u[i]);
        }
        g = e;
    }
    get(&acc)
}

fn sweep(x: &[f64], y: &[f64], u: &[f64]) -> Sweep {
    let n = x.len();
    // y ranks: 0 for the smallest value, +1 at each new value.
    let mut ry = vec![0; n];
    let mut distinct = 0;
    let by_y = order(y);
    for (k, &i) in by_y.iter().enumerate() {
        if k > 0 && y[i] != y[by_y[k - 1]] {
            distinct += 1;
        }
        ry[i] = distinct;
    }
    let idx = order(x);
    let mut tree = Fenwick::new(distinct + 1);
    // Count and weight of the inserted items at each rank: the items below
    // rank r + 1 are those below r and those at r (one tree walk, not two).
    let mut at = vec![(0u64, 0.0f64); distinct + 1];
    let mut conc = <[Acc; WEIGHTINGS]>::default();
    let mut disc = <[Acc; WEIGHTINGS]>::default();
    let (mut total_c, mut total_w) = (0u64, Acc::default());
    let mut g = 0;
    while g < n {
        let mut e = g;
        while e < n && x[idx[e]] == x[idx[g]] {
            let i = idx[e];
            // Earlier x groups: below in y → concordant, above → discordant.
            let (cb, wb) = tree.below(ry[i]);
            let (ca, wa) = (cb + at[ry[i]].0, wb + at[ry[i]].1);
            add(&mut conc, pair(u[i], cb, wb));
            add(&mut disc, pair(u[i], total_c - ca, total_w.get() - wa));
            e += 1;
        }
        for &i in &idx[g..e] {
            tree.add(ry[i], u[i]);
            at[ry[i]].0 += 1;
            at[ry[i]].1 += u[i];
            total_c += 1;
            total_w.add(u[i]);
        }
        g = e;
    }
    Sweep {
        concordant: get(&conc),
        discordant: get(&disc),
        untied_x: untied(x, u),
        untied_y: untied(y, u),
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

/// One unit of work: a tie pattern (seed, levels), swept once for the three
/// weightings and compared with the kernel's result for each. Unit weights'
/// sums must equal the sweep's exactly.
fn check_one(n: usize, rel: f64, seed: u64, levels: u32) {
    let (x, y, u) = correlated(seed, n, levels);
    let slow = sweep(&x, &y, &u);
    let ones = vec![1.0; n];
    let fast = weighted_kendall(&x, &y, &ones, Combine::Multiplicative).unwrap();
    assert_eq!(fast.discordant, slow.discordant[2]);
    assert_eq!(fast.concordant, slow.concordant[2]);
    assert_eq!(fast.untied_x, slow.untied_x[2]);
    assert_eq!(fast.untied_y, slow.untied_y[2]);
    for (k, combine) in [(0, Combine::Additive), (1, Combine::Multiplicative)] {
        let fast = weighted_kendall(&x, &y, &u, combine).unwrap();
        let tau = (slow.concordant[k] - slow.discordant[k])
            / slow.untied_x[k].sqrt()
            / slow.untied_y[k].sqrt();
        let what = format!("n {n}, seed {seed}, levels {levels}, {combine:?}");
        for (name, a, b) in [
            ("concordant", fast.concordant, slow.concordant[k]),
            ("discordant", fast.discordant, slow.discordant[k]),
            ("untied_x", fast.untied_x, slow.untied_x[k]),
            ("untied_y", fast.untied_y, slow.untied_y[k]),
            ("tau", fast.tau, tau),
        ] {
            assert!(
                (a - b).abs() <= rel * b.abs(),
                "{what}: {name} {a:e} vs {b:e}"
            );
        }
    }
}

/// Three tie patterns (none, 1000 levels, 20 levels), each with additive,
/// multiplicative and unit weights, spread over the available cores (the
/// patterns are independent; a failed assertion in any fails the test).
/// On two threads the pattern with 1000 levels runs alone on one of them:
/// at n = 10⁷ that order took 30 s, the order none, 1000, 20 took 36 s.
fn check(n: usize, rel: f64) {
    let units = [(2, 1000), (1, 0), (3, 20)];
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(units.len());
    std::thread::scope(|s| {
        for t in 0..threads {
            let units = &units;
            s.spawn(move || {
                for &(seed, levels) in units.iter().skip(t).step_by(threads) {
                    check_one(n, rel, seed, levels);
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
#[ignore = "n = 10⁷: about half a minute; cargo test --all-features --test vigna_stability -- --ignored"]
fn ten_million_agrees_with_a_fenwick_sweep() {
    check(10_000_000, 1e-12);
}
