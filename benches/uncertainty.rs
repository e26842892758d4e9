//! Permutation tests and bootstrap intervals (feature `uncertainty`).
//!
//! The bar: 10 000 permutations of weighted τ at n = 10⁴ in under
//! 10 s (`tau_w/n/10000`, the paper's τ_w with the O(n log n) kernel of
//! `correlation::vigna`). Vigna's τ (two importance orders, SciPy's default)
//! is benched with 1000 permutations.

use adaptive_comp_metrics::uncertainty::{
    Bootstrap, Interval, Permutations, TopWeightedRho, TopWeightedTau, VignaTau,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// n uniform scores in [0, 1) from a seeded ChaCha8 stream.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.random::<f64>()).collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("permutation_test");
    g.sample_size(10);
    // (statistic name, n, permutations)
    for (name, n, m) in [
        ("rho_w", 10_000, 10_000),
        ("tau_w", 10_000, 10_000),
        ("vigna", 10_000, 1_000),
    ] {
        let (x, y) = (data(n, 1), data(n, 2));
        let test = Permutations::new(m);
        g.throughput(Throughput::Elements(m as u64));
        g.bench_function(BenchmarkId::new(format!("{name}/n"), n), |b| {
            b.iter(|| {
                let mut rng = ChaCha8Rng::seed_from_u64(1);
                let (x, y) = (black_box(&x), black_box(&y));
                match name {
                    "rho_w" => test.test(&TopWeightedRho::new(), x, y, &mut rng),
                    "tau_w" => test.test(&TopWeightedTau::new(), x, y, &mut rng),
                    _ => test.test(&VignaTau::default(), x, y, &mut rng),
                }
            })
        });
    }
    g.finish();

    // BCa adds n jackknife evaluations, so it is benched at n = 10³ only.
    let mut g = c.benchmark_group("bootstrap");
    g.sample_size(10);
    for (interval, name, n) in [
        (Interval::Bca, "bca_rho_w", 1_000),
        (Interval::Percentile, "percentile_rho_w", 1_000),
        (Interval::Percentile, "percentile_rho_w", 10_000),
    ] {
        let (x, y) = (data(n, 1), data(n, 2));
        let resamples = 1_000;
        let boot = Bootstrap::new(resamples).interval(interval);
        g.throughput(Throughput::Elements(resamples as u64));
        g.bench_function(BenchmarkId::new(format!("{name}/n"), n), |b| {
            b.iter(|| {
                let mut rng = ChaCha8Rng::seed_from_u64(1);
                boot.run(
                    &TopWeightedRho::new(),
                    black_box(&x),
                    black_box(&y),
                    &mut rng,
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
