//! ρ_w, τ_w and the ranking step, n = 10³ … 10⁶, beside the O(n²) Γ
//! oracle at small n.

use adaptive_comp_metrics::correlation::gamma::{rho_w_naive, tau_w_naive};
use adaptive_comp_metrics::{Order, Ties, TopWeighted, rank};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use adaptive_comp_metrics_benches::uniform;

fn bench(c: &mut Criterion) {
    let tw = TopWeighted::new();
    let mut g = c.benchmark_group("rank");
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        let x = uniform(n, 1);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| rank(black_box(x), Order::LargerIsBetter, Ties::Average))
        });
    }
    g.finish();

    coefficient(c, "rho_w", |x, y| tw.rho(x, y), rho_w_naive);
    coefficient(c, "tau_w", |x, y| tw.tau(x, y), tau_w_naive);
}

/// One coefficient's group: `fast` at n = 10³ … 10⁶, beside `oracle`, the
/// O(n²) Γ sum on the same ranks and weights, at small n.
fn coefficient<T, U>(
    c: &mut Criterion,
    name: &str,
    fast: impl Fn(&[f64], &[f64]) -> T,
    oracle: impl Fn(&[f64], &[f64], &[f64]) -> U,
) {
    let tw = TopWeighted::new();
    let mut g = c.benchmark_group(name);
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        let (x, y) = (uniform(n, 1), uniform(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("fast", n), &(x, y), |b, (x, y)| {
            b.iter(|| fast(black_box(x), black_box(y)))
        });
    }
    for n in [100, 1_000] {
        let (x, y) = (uniform(n, 1), uniform(n, 2));
        let (a, b, w) = tw.ranks_and_weights(&x, &y).expect("valid data");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("gamma_oracle", n), |bch| {
            bch.iter(|| oracle(black_box(&a), black_box(&b), black_box(&w)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
