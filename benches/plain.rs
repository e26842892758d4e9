//! Plain Spearman ρ and Kendall τ-b at n = 10³ … 10⁶, with and without ties,
//! beside the O(n²) τ-b pair count at small n so the gap shows.

use adaptive_comp_metrics::{kendall_tau_b, kendall_tau_b_naive, spearman};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use adaptive_comp_metrics_benches::splitmix;

/// Deterministic uniform [0, 1) values (the shared SplitMix64 stream).
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut g = splitmix::SplitMix64(seed);
    (0..n).map(|_| g.next_f64()).collect()
}

/// The same values on a 100-level scale: heavy ties.
fn tied(v: &[f64]) -> Vec<f64> {
    v.iter().map(|x| (x * 100.0).floor()).collect()
}

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("spearman");
    g.sample_size(10);
    for n in SIZES {
        let (x, y) = (data(n, 1), data(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("distinct", n), &(&x, &y), |b, (x, y)| {
            b.iter(|| spearman(black_box(x), black_box(y)))
        });
        let (tx, ty) = (tied(&x), tied(&y));
        g.bench_with_input(BenchmarkId::new("ties", n), &(&tx, &ty), |b, (x, y)| {
            b.iter(|| spearman(black_box(x), black_box(y)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("kendall_tau_b");
    g.sample_size(10);
    for n in SIZES {
        let (x, y) = (data(n, 1), data(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("distinct", n), &(&x, &y), |b, (x, y)| {
            b.iter(|| kendall_tau_b(black_box(x), black_box(y)))
        });
        let (tx, ty) = (tied(&x), tied(&y));
        g.bench_with_input(BenchmarkId::new("ties", n), &(&tx, &ty), |b, (x, y)| {
            b.iter(|| kendall_tau_b(black_box(x), black_box(y)))
        });
    }
    for n in [100, 1_000, 10_000] {
        let (x, y) = (data(n, 1), data(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(
            BenchmarkId::new("naive_oracle", n),
            &(&x, &y),
            |b, (x, y)| b.iter(|| kendall_tau_b_naive(black_box(x), black_box(y))),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
