//! Word-similarity evaluation: 10 models × 10 benchmarks of 3 000 pairs
//! with every coefficient (the bar: under 0.5 s after loading), the
//! cosines alone (30 000 pairs of 300-dimensional f32 vectors), and
//! the streaming vector readers keeping 5 000 words of a 40 MB file held in
//! memory (text and binary). The 1 GB bars against `wc -l` are measured by
//! `cargo run --release --example bench_wordsim`.

use std::hint::black_box;

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors, write_vectors};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, WordPair};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DIM: usize = 300;
const WORDS: usize = 4_000;

fn model(rng: &mut ChaCha8Rng, words: usize, skip: usize) -> Vectors<f32> {
    let mut v = Vectors::new(DIM).expect("dim > 0");
    let mut row = vec![0.0f32; DIM];
    for i in (0..words).filter(|i| i % 23 != skip) {
        for x in &mut row {
            *x = rng.random_range(-1.0..1.0);
        }
        v.push(format!("w{i}"), &row).expect("valid vector");
    }
    v
}

fn evaluation(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let models: Vec<Vectors<f32>> = (0..10).map(|m| model(&mut rng, WORDS, m)).collect();
    let benchmarks: Vec<Benchmark> = (0..10)
        .map(|b| {
            let pairs = (0..3000)
                .map(|_| {
                    let (i, j) = (rng.random_range(0..WORDS), rng.random_range(0..WORDS));
                    WordPair::new(
                        format!("w{i}"),
                        format!("w{j}"),
                        f64::from(rng.random_range(0..41u8)) / 4.0,
                    )
                })
                .collect();
            Benchmark::new(format!("b{b}"), pairs).expect("valid pairs")
        })
        .collect();
    let named: Vec<(&str, &Vectors<f32>)> = models.iter().map(|v| ("m", v)).collect();
    let mut g = c.benchmark_group("wordsim_evaluate");
    g.sample_size(10);
    g.bench_function("10_models_x_10_benchmarks_x_3000_pairs", |b| {
        b.iter(|| {
            Evaluator::new()
                .compare(black_box(&named), black_box(&benchmarks))
                .expect("finite")
        });
    });
    g.finish();
}

fn cosines(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let v = model(&mut rng, WORDS, usize::MAX);
    let pairs: Vec<(String, String)> = (0..30_000)
        .map(|_| {
            let (i, j) = (rng.random_range(0..WORDS), rng.random_range(0..WORDS));
            (format!("w{i}"), format!("w{j}"))
        })
        .collect();
    let mut g = c.benchmark_group("wordsim_cosine");
    g.sample_size(20);
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("30000_pairs_dim_300_f32", |b| {
        b.iter(|| {
            black_box(&pairs)
                .iter()
                .map(|(a, w)| v.cosine(a, w).unwrap_or(0.0))
                .sum::<f64>()
        });
    });
    g.finish();
}

fn readers(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    // 32 000 rows: 40 MB of text, 38 MB of binary.
    let rows = 32_000;
    let v = model(&mut rng, rows, usize::MAX);
    let keep = ReadOptions::new().keep((0..5000).map(|k| format!("w{}", k * rows / 5000)));
    let mut g = c.benchmark_group("wordsim_read_keep_5000");
    g.sample_size(10);
    for format in [Format::Word2VecText, Format::Word2VecBinary] {
        let mut bytes = Vec::new();
        write_vectors(&mut bytes, &v, format).expect("writable");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("{format:?}"), |b| {
            b.iter(|| read_vectors::<f32, _>(black_box(&bytes[..]), format, &keep).expect("valid"));
        });
    }
    g.finish();
}

criterion_group!(benches, evaluation, cosines, readers);
criterion_main!(benches);
