//! Plain Spearman ρ and Kendall τ-b at n = 10³ … 10⁶, with and without ties,
//! beside the O(n²) τ-b pair count at small n so the gap shows; Pearson's r;
//! and the cost of one p-value (Student t, Pearson, normal and exact Kendall
//! tails) from the centre to the far tail, beside statrs' Student t tail that
//! the crate used before.

use adaptive_comp_metrics::{Alternative, kendall_tau_b, kendall_tau_b_naive, pearson, spearman};
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use statrs::distribution::{ContinuousCDF, StudentsT};
use std::hint::black_box;

use adaptive_comp_metrics_benches::uniform;

/// The same values on a 100-level scale: heavy ties.
fn tied(v: &[f64]) -> Vec<f64> {
    v.iter().map(|x| (x * 100.0).floor()).collect()
}

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("spearman");
    at_sizes(&mut g, "distinct", Some("ties"), spearman::<f64>);
    g.finish();

    let mut g = c.benchmark_group("kendall_tau_b");
    at_sizes(&mut g, "distinct", Some("ties"), kendall_tau_b::<f64>);
    for n in [100, 1_000, 10_000] {
        let (x, y) = (uniform(n, 1), uniform(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(
            BenchmarkId::new("naive_oracle", n),
            &(&x, &y),
            |b, (x, y)| b.iter(|| kendall_tau_b_naive(black_box(x), black_box(y))),
        );
    }
    g.finish();
}

/// `f` at every size on distinct values (benchmark `distinct`) and, if
/// `ties` names a benchmark, on the same values with heavy ties (10
/// samples each).
fn at_sizes<T>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    distinct: &str,
    ties: Option<&str>,
    f: impl Fn(&[f64], &[f64]) -> T,
) {
    g.sample_size(10);
    for n in SIZES {
        let (x, y) = (uniform(n, 1), uniform(n, 2));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new(distinct, n), &(&x, &y), |b, (x, y)| {
            b.iter(|| f(black_box(x), black_box(y)))
        });
        if let Some(ties) = ties {
            let (tx, ty) = (tied(&x), tied(&y));
            g.bench_with_input(BenchmarkId::new(ties, n), &(&tx, &ty), |b, (x, y)| {
                b.iter(|| f(black_box(x), black_box(y)))
            });
        }
    }
}

/// `y = c·x + √(1 − c²)·noise`: data whose correlation is about c.
fn correlated(n: usize, c: f64) -> (Vec<f64>, Vec<f64>) {
    let (x, noise) = (uniform(n, 3), uniform(n, 4));
    let y = x
        .iter()
        .zip(&noise)
        .map(|(a, e)| c * a + (1.0 - c * c).sqrt() * e)
        .collect();
    (x, y)
}

fn bench_p_values(c: &mut Criterion) {
    let mut g = c.benchmark_group("p_value");
    // Correlations 0.05 (the centre), 0.5 and 0.95 (far in the tail for
    // large n; p underflows below 1e-300 only for n ≥ 10⁴ at 0.95).
    for n in [10_usize, 100, 10_000, 1_000_000] {
        for corr in [0.05, 0.5, 0.95] {
            let (x, y) = correlated(n, corr);
            let (s, p) = (spearman(&x, &y).unwrap(), pearson(&x, &y).unwrap());
            let id = format!("n{n}_c{corr}");
            g.bench_function(BenchmarkId::new("spearman_t", &id), |b| {
                b.iter(|| black_box(&s).p_value(Alternative::TwoSided))
            });
            g.bench_function(BenchmarkId::new("pearson_r", &id), |b| {
                b.iter(|| black_box(&p).p_value(Alternative::TwoSided))
            });
            // The tail the crate used before (statrs 0.19), same t.
            let dist = StudentsT::new(0.0, 1.0, (n - 2) as f64).unwrap();
            let t = s.statistic.abs();
            g.bench_function(BenchmarkId::new("statrs_t", &id), |b| {
                b.iter(|| 2.0 * dist.sf(black_box(t)))
            });
            if n <= 10_000 {
                let k = kendall_tau_b(&x, &y).unwrap();
                g.bench_function(BenchmarkId::new("kendall_normal", &id), |b| {
                    b.iter(|| black_box(&k).p_value_asymptotic(Alternative::TwoSided))
                });
            }
        }
    }
    // The exact Kendall distribution at its largest automatic size.
    let (x, y) = correlated(33, 0.5);
    let k = kendall_tau_b(&x, &y).unwrap();
    g.bench_function("kendall_exact_n33", |b| {
        b.iter(|| black_box(&k).p_value(Alternative::TwoSided))
    });
    g.finish();

    let mut g = c.benchmark_group("pearson");
    at_sizes(&mut g, "r", None, pearson::<f64>);
    g.finish();
}

criterion_group!(benches, bench, bench_p_values);
criterion_main!(benches);
