//! Comparing many systems (feature `uncertainty`), at the sizes of the
//! issue's bars (side by side with ranx: `benches/compare_ranx.py`):
//!
//! - `trec/randomisation`: 10 runs × 10⁴ queries, all 45 pairs, Fisher's
//!   randomisation test with 10⁴ random sign vectors, Holm (bar: under 1 s
//!   on 2 cores); the paired t-test alone for scale;
//! - `mteb/friedman_bootstrap`: 95 systems × 56 benchmarks, Friedman's test,
//!   the critical difference and all 4 465 pairs with a paired bootstrap
//!   of 10⁴ resamples (bar: under 2 s).

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable, Test, friedman};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// `systems` columns of `units` scores: a per-unit difficulty plus a
/// system effect and noise, on a grid of 1/1000 (ties, as measures have).
fn table(units: usize, systems: usize, seed: u64) -> ScoreTable {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let difficulty: Vec<f64> = (0..units).map(|_| rng.random::<f64>()).collect();
    let columns: Vec<(String, Vec<f64>)> = (0..systems)
        .map(|s| {
            let effect = 0.01 * s as f64;
            let col = difficulty
                .iter()
                .map(|d| {
                    let v = (0.7 * d + effect + 0.3 * rng.random::<f64>()).clamp(0.0, 1.0);
                    (v * 1000.0).round() / 1000.0
                })
                .collect();
            (format!("system{s}"), col)
        })
        .collect();
    ScoreTable::from_columns(&columns).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("trec");
    g.sample_size(10);
    let t = table(10_000, 10, 1);
    g.bench_function("randomisation/10x10000/10000", |b| {
        b.iter(|| {
            Compare::new()
                .test(Test::Randomisation)
                .replicates(10_000)
                .units_seeded(black_box(&t), 7)
                .unwrap()
        })
    });
    g.bench_function("t/10x10000", |b| {
        b.iter(|| {
            Compare::new()
                .test(Test::PairedT)
                .units_seeded(black_box(&t), 7)
                .unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("mteb");
    g.sample_size(10);
    let t = table(56, 95, 2);
    g.bench_function("friedman_bootstrap/95x56/10000", |b| {
        b.iter(|| {
            let f = friedman(black_box(&t), Order::LargerIsBetter, 0.05).unwrap();
            let c = Compare::new()
                .test(Test::Bootstrap)
                .replicates(10_000)
                .units_seeded(black_box(&t), 7)
                .unwrap();
            (f, c)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
