//! Criterion benches of the relevance module: tie-aware scoring of many
//! queries (the bar: 10⁵ queries × 100 documents under a second) and
//! rank-biased overlap.

use adaptive_comp_metrics::relevance::{Label, Options, evaluate_query, rbo, rbo_tied};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const DOCS: usize = 100;
const QUERIES: usize = 100_000;
/// Distinct generated queries, cycled to reach `QUERIES` (keeps memory small).
const POOL: usize = 10_000;

fn scoring(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    // Scores on a 2-decimal grid, so most queries have ties.
    let scores: Vec<f64> = (0..POOL * DOCS)
        .map(|_| f64::from(rng.random_range(0..100_u32)) / 100.0)
        .collect();
    let labels: Vec<Label> = (0..POOL * DOCS)
        .map(|_| {
            let mean = f64::from(rng.random_range(-9..=9_i32)) / 3.0;
            Label::new(mean >= 0.5, mean)
        })
        .collect();
    let options = Options::default();
    let mut group = c.benchmark_group("relevance_score");
    group.sample_size(10);
    group.throughput(Throughput::Elements((QUERIES * DOCS) as u64));
    group.bench_function("evaluate_query 1e5 queries x 100 docs", |b| {
        b.iter(|| {
            let mut map = 0.0;
            for q in 0..QUERIES {
                let i = (q % POOL) * DOCS;
                let (Some(s), Some(l)) = (scores.get(i..i + DOCS), labels.get(i..i + DOCS)) else {
                    continue;
                };
                if let Ok(m) = evaluate_query(black_box(s), black_box(l), &options) {
                    map += m.average_precision.unwrap_or(0.0);
                }
            }
            black_box(map)
        });
    });
    group.finish();
}

fn overlap(c: &mut Criterion) {
    let mut group = c.benchmark_group("rbo");
    group.sample_size(10);
    for n in [100_usize, 10_000, 1_000_000] {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let s: Vec<u32> = (0..n as u32).collect();
        let mut t = s.clone();
        t.shuffle(&mut rng);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("untied", n), &n, |b, _| {
            b.iter(|| rbo(black_box(&s), black_box(&t), 0.9));
        });
        let groups: Vec<Vec<u32>> = t.chunks(3).map(<[u32]>::to_vec).collect();
        let singles: Vec<Vec<u32>> = s.iter().map(|&x| vec![x]).collect();
        group.bench_with_input(BenchmarkId::new("ties of 3", n), &n, |b, _| {
            b.iter(|| rbo_tied(black_box(&singles), black_box(&groups), 0.9));
        });
    }
    group.finish();
}

criterion_group!(benches, scoring, overlap);
criterion_main!(benches);
