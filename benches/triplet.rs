//! Scoring speed of the reliability-weighted triplet score: 1 000 000
//! comparisons against 100 000 word vectors of dimension 300 (the issue's
//! bar: under one second after loading), and the word2vec text reader.

use std::hint::black_box;

use adaptive_comp_metrics::triplet::{
    Comparison, ComparisonKind, TiePolicy, Vectors, read_word2vec, score,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const WORDS: usize = 100_000;
const DIM: usize = 300;
const COMPARISONS: usize = 1_000_000;

fn vocabulary() -> Vec<String> {
    (0..WORDS).map(|i| format!("w{i}")).collect()
}

/// 100 000 random f32 vectors (120 MB), built in memory.
fn vectors(words: &[String], rng: &mut ChaCha8Rng) -> Vectors<f32> {
    let mut v = Vectors::new(DIM).expect("dim > 0");
    let mut row = vec![0.0f32; DIM];
    for w in words {
        for x in &mut row {
            *x = rng.random_range(-1.0..1.0);
        }
        v.push(w.as_str(), &row).expect("valid vector");
    }
    v
}

/// 1 000 000 comparisons shaped like the paper's datasets (borrowing their
/// words, about 64 MB): target groups of 4 positives, 2 distractors and 1
/// random word drawn from the vocabulary, giving 6 + 8 + 4 = 18 comparisons
/// per target; targets run through the vocabulary.
fn grouped<'a>(words: &'a [String], rng: &mut ChaCha8Rng) -> Vec<Comparison<&'a str>> {
    let mut out = Vec::with_capacity(COMPARISONS + 18);
    let mut g = 0;
    while out.len() < COMPARISONS {
        let target = words[g % WORDS].as_str();
        g += 1;
        let pick: Vec<&str> = (0..7)
            .map(|_| words[rng.random_range(0..WORDS)].as_str())
            .collect();
        let (pos, neg) = pick.split_at(4);
        let mut add = |w1: &'a str, w2: &'a str, reliability: f64, kind| {
            out.push(Comparison {
                target,
                w1,
                w2,
                reliability,
                kind,
            });
        };
        for i in 0..4 {
            for j in i + 1..4 {
                add(
                    pos[i],
                    pos[j],
                    f64::from(rng.random_range(0u8..=10)) / 10.0,
                    ComparisonKind::Positive,
                );
            }
        }
        for (k, &n) in neg.iter().enumerate() {
            let kind = if k < 2 {
                ComparisonKind::Distractor
            } else {
                ComparisonKind::Random
            };
            for &p in pos {
                add(p, n, 1.0, kind);
            }
        }
    }
    out.truncate(COMPARISONS);
    out
}

/// 1 000 000 comparisons of three uniformly random words each: the worst
/// case for memory, every comparison touching two vectors not in cache.
fn uniform<'a>(words: &'a [String], rng: &mut ChaCha8Rng) -> Vec<Comparison<&'a str>> {
    (0..COMPARISONS)
        .map(|i| Comparison {
            target: words[rng.random_range(0..WORDS)].as_str(),
            w1: words[rng.random_range(0..WORDS)].as_str(),
            w2: words[rng.random_range(0..WORDS)].as_str(),
            reliability: f64::from(rng.random_range(0u8..=10)) / 10.0,
            kind: ComparisonKind::ALL[i % 3],
        })
        .collect()
}

fn bench_score(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let words = vocabulary();
    let v = vectors(&words, &mut rng);
    let mut g = c.benchmark_group("triplet_score");
    g.sample_size(10);
    g.throughput(Throughput::Elements(COMPARISONS as u64));
    {
        let comps = grouped(&words, &mut rng);
        g.bench_function("1M grouped comparisons, 100k x 300 f32", |b| {
            b.iter(|| score(black_box(&comps), &v, TiePolicy::default()).expect("valid input"));
        });
    }
    {
        let comps = uniform(&words, &mut rng);
        g.bench_function("1M uniform random comparisons, 100k x 300 f32", |b| {
            b.iter(|| score(black_box(&comps), &v, TiePolicy::default()).expect("valid input"));
        });
    }
    g.finish();
}

fn bench_read(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut text = format!("{N} {DIM}\n");
    for i in 0..N {
        text.push_str(&format!("w{i}"));
        for _ in 0..DIM {
            text.push_str(&format!(" {:.5}", rng.random_range(-1.0f32..1.0)));
        }
        text.push('\n');
    }
    let mut g = c.benchmark_group("triplet_read_word2vec");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("10k x 300 f32 from text", |b| {
        b.iter(|| read_word2vec::<f32, _>(black_box(text.as_bytes())).expect("valid file"));
    });
    g.finish();
}

criterion_group!(benches, bench_score, bench_read);
criterion_main!(benches);
