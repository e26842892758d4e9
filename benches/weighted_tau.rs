//! Criterion benches of the O(n log n) weighted τ.
//!
//! `cargo bench -p adaptive-comp-metrics-benches --bench weighted_tau -- --warm-up-time 1 --measurement-time 3`
//!
//! * `weighted_tau_1e6`: SciPy's default (symmetric, hyperbolic, additive),
//!   the paper's τ_w from scores (`tau_w`: ranks, item weights and the
//!   multiplicative kernel; to be compared with SciPy's default, whose
//!   time it should stay within 1.3 times of) and from given weights
//!   (`tau_w_with_weights`), unweighted τ-b through the kernel, next to the
//!   practical floor: one `sort_unstable_by` of the n (x, y) pairs with
//!   `total_cmp`.
//! * `weighted_tau_scaling`: n = 10³ … 10⁵, with the O(n²) definition at
//!   n = 10³ so the gap shows.
//! * `coefficients`: n = 100, 10⁴ and 10⁶ for SciPy's default weighted τ,
//!   τ-b with its p-value, Spearman's ρ with its p-value, τ_w and ρ_w (the
//!   threads' bench: small inputs stay on one thread, large ones use every
//!   core; `ACM_THREADS=1` for one). Filter with e.g. `-- coefficients/.*/100$`.

use adaptive_comp_metrics_benches::splitmix;

use adaptive_comp_metrics::correlation::vigna::{
    Rank, WeightedTauOptions, weighted_tau, weighted_tau_naive,
};
use adaptive_comp_metrics::{
    Alternative, Unweighted, kendall_tau_b, rho_w, spearman, tau_w, tau_w_with_weights,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn at_one_million(c: &mut Criterion) {
    let n = 1_000_000;
    let (x, y) = splitmix::data(42, n, 0);
    let w: Vec<f64> = (0..n).map(|i| 1.0 / (i as f64 + 3.0).powi(2)).collect();
    let mut group = c.benchmark_group("weighted_tau_1e6");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("sort_unstable_by_pairs", |b| {
        let pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
        b.iter_batched_ref(
            || pairs.clone(),
            |p| p.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))),
            criterion::BatchSize::LargeInput,
        );
    });
    let scipy_default = WeightedTauOptions::default();
    group.bench_function("scipy_default_symmetric_hyperbolic_additive", |b| {
        b.iter(|| weighted_tau(black_box(&x), black_box(&y), &scipy_default));
    });
    let by_xy = WeightedTauOptions::default().rank(Rank::ByXY);
    group.bench_function("rank_by_xy_hyperbolic_additive", |b| {
        b.iter(|| weighted_tau(black_box(&x), black_box(&y), &by_xy));
    });
    let tau_b = WeightedTauOptions::default()
        .rank(Rank::ByXY)
        .weigher(Unweighted);
    group.bench_function("unweighted_tau_b", |b| {
        b.iter(|| weighted_tau(black_box(&x), black_box(&y), &tau_b));
    });
    group.bench_function("tau_w_from_scores", |b| {
        b.iter(|| tau_w(black_box(&x), black_box(&y)).map(|t| t.tau));
    });
    group.bench_function("paper_tau_w", |b| {
        b.iter(|| tau_w_with_weights(black_box(&x), black_box(&y), black_box(&w)).map(|t| t.tau));
    });
    group.finish();
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("weighted_tau_scaling");
    let opts = WeightedTauOptions::default();
    for n in [1_000usize, 10_000, 100_000] {
        let (x, y) = splitmix::data(7, n, 0);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("fast", n), &n, |b, _| {
            b.iter(|| weighted_tau(black_box(&x), black_box(&y), &opts));
        });
        if n == 1_000 {
            group.bench_with_input(BenchmarkId::new("naive", n), &n, |b, _| {
                b.iter(|| weighted_tau_naive(black_box(&x), black_box(&y), &opts));
            });
        }
    }
    group.finish();
}

fn coefficients(c: &mut Criterion) {
    let mut group = c.benchmark_group("coefficients");
    let opts = WeightedTauOptions::default();
    for n in [100usize, 10_000, 1_000_000] {
        let (x, y) = splitmix::data(42, n, 0);
        group.throughput(Throughput::Elements(n as u64));
        if n >= 1_000_000 {
            group.sample_size(10);
        }
        group.bench_with_input(BenchmarkId::new("weighted_tau", n), &n, |b, _| {
            b.iter(|| weighted_tau(black_box(&x), black_box(&y), &opts));
        });
        group.bench_with_input(BenchmarkId::new("kendall_tau_b_p", n), &n, |b, _| {
            b.iter(|| {
                kendall_tau_b(black_box(&x), black_box(&y))
                    .map(|k| (k.tau, k.p_value(Alternative::TwoSided)))
            });
        });
        group.bench_with_input(BenchmarkId::new("spearman_p", n), &n, |b, _| {
            b.iter(|| {
                spearman(black_box(&x), black_box(&y))
                    .map(|r| (r.rho, r.p_value(Alternative::TwoSided)))
            });
        });
        group.bench_with_input(BenchmarkId::new("tau_w", n), &n, |b, _| {
            b.iter(|| tau_w(black_box(&x), black_box(&y)).map(|t| t.tau));
        });
        group.bench_with_input(BenchmarkId::new("rho_w", n), &n, |b, _| {
            b.iter(|| rho_w(black_box(&x), black_box(&y)).map(|r| r.rho));
        });
    }
    group.finish();
}

criterion_group!(benches, at_one_million, scaling, coefficients);
criterion_main!(benches);
