//! The standardised scale of ρ_w and τ_w (Lombardo 2025). The bars:
//!
//! * standardising one coefficient with the built-in table costs at most 2×
//!   the raw coefficient (`standardise/rho/raw/n` vs
//!   `standardise/rho/standardised/n`, n = 10³, 10⁴, 8·10⁴; same for τ);
//! * Monte-Carlo moments of ρ_w at n = 1000 to a standard error of 10⁻⁴ on
//!   Γ̄ in under 5 s on 2 cores (`monte_carlo/rho_w/1000`);
//! * exact enumeration at n = 10 in under 10 s each (`exact/rho_w/10`,
//!   `exact/tau_w/10`).
//!
//! `cargo bench -p adaptive-comp-metrics-benches --bench standardised`

use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
use adaptive_comp_metrics::{Coefficient, TopWeighted};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::num::NonZeroUsize;

use adaptive_comp_metrics_benches::uniform;

fn bench(c: &mut Criterion) {
    let paper = TopWeighted::new();
    let mut g = c.benchmark_group("standardise");
    // The table answers up to n = 84 340 (larger n is an error, not a value).
    for n in [1_000, 10_000, 80_000] {
        let (x, y) = (uniform(n, 1), uniform(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("rho/raw", n), |b| {
            b.iter(|| paper.rho(black_box(&x), black_box(&y)))
        });
        g.bench_function(BenchmarkId::new("rho/standardised", n), |b| {
            b.iter(|| paper.rho_standardised(black_box(&x), black_box(&y)))
        });
        g.bench_function(BenchmarkId::new("tau/raw", n), |b| {
            b.iter(|| paper.tau(black_box(&x), black_box(&y)))
        });
        g.bench_function(BenchmarkId::new("tau/standardised", n), |b| {
            b.iter(|| paper.tau_standardised(black_box(&x), black_box(&y)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("monte_carlo");
    g.sample_size(10);
    let two = Threads::Fixed(NonZeroUsize::new(2).expect("2 > 0"));
    for (name, coefficient) in [("rho_w", Coefficient::Rho), ("tau_w", Coefficient::Tau)] {
        g.bench_function(BenchmarkId::new(name, 1000), |b| {
            b.iter(|| {
                GammaMonteCarlo::new().threads(two).moments(
                    &paper,
                    coefficient,
                    1000,
                    &mut ChaCha8Rng::seed_from_u64(1),
                )
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("exact");
    g.sample_size(10);
    for (name, coefficient) in [("rho_w", Coefficient::Rho), ("tau_w", Coefficient::Tau)] {
        for n in [10, 11] {
            g.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| paper.null_exact(coefficient, black_box(n)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
