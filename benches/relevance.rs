//! Criterion benches of the relevance module: tie-aware scoring of many
//! queries (the bar: 10⁵ queries × 100 documents under a second),
//! TREC files (loading 10⁶ qrels lines and a 10⁶-line run; scoring 10⁴
//! queries × 100 documents with seven `trec_eval` measures: the side-by-side
//! comparison with pytrec_eval is `benches/trec_compare.sh`) and rank-biased
//! overlap.

use adaptive_comp_metrics::relevance::{
    Ids, Label, Measure, Options, Ties, TrecEvalVersion, TrecOptions, TrecSyntax, evaluate_query,
    evaluate_trec, rbo, rbo_tied, read_trec_qrels, read_trec_qrels_with, read_trec_run,
    read_trec_run_with,
};
use adaptive_comp_metrics::{Threads, with_threads};
use adaptive_comp_metrics_benches::splitmix::SplitMix64;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::hint::black_box;
use std::num::NonZeroUsize;

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

/// TREC qrels and run text: `queries` × `docs` judgements and as many ranked
/// documents per query (half of them judged), ids drawn from 10⁶ names,
/// grades mostly 0, scores with 4 decimals (ties occur).
fn trec_files(queries: usize, docs: usize) -> (String, String) {
    let mut g = SplitMix64(16);
    let (mut qrels, mut run) = (String::new(), String::new());
    for q in 0..queries {
        let ids: Vec<u64> = (0..docs + docs / 2)
            .map(|_| g.next_u64() % 1_000_000)
            .collect();
        for (i, d) in ids.iter().enumerate().skip(docs / 2) {
            let grade = [-1, 0, 0, 0, 0, 1, 1, 2, 3][(g.next_u64() % 9) as usize];
            let _ = writeln!(qrels, "Q{q:05} 0 DOC{d:07}{i} {grade}");
        }
        for (i, d) in ids.iter().enumerate().take(docs) {
            let score = (g.next_f64() * 1e5).floor() / 1e4;
            let _ = writeln!(run, "Q{q:05} Q0 DOC{d:07}{i} {} {score:.4} bench", i + 1);
        }
    }
    (qrels, run)
}

fn trec(c: &mut Criterion) {
    let (qrels_text, run_text) = trec_files(10_000, 100);
    let mut group = c.benchmark_group("relevance_trec");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(
        (qrels_text.len() + run_text.len()) as u64,
    ));
    group.bench_function("load 1e6 qrels + 1e6 run lines", |b| {
        b.iter(|| {
            let mut ids = Ids::new();
            let q = read_trec_qrels(black_box(qrels_text.as_bytes()), &mut ids);
            let r = read_trec_run(black_box(run_text.as_bytes()), &mut ids);
            black_box((q.map(|q| q.len()), r.map(|r| r.len())))
        });
    });
    // The same on a fixed number of threads (the default is every core).
    for n in [1, 2] {
        let threads = Threads::Fixed(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN));
        group.bench_function(
            format!("load 1e6 qrels + 1e6 run lines, {n} thread(s)"),
            |b| {
                b.iter(|| {
                    with_threads(threads, || {
                        let mut ids = Ids::new();
                        let q = read_trec_qrels(black_box(qrels_text.as_bytes()), &mut ids);
                        let r = read_trec_run(black_box(run_text.as_bytes()), &mut ids);
                        black_box((q.map(|q| q.len()), r.map(|r| r.len())))
                    })
                });
            },
        );
    }
    group.bench_function("load 1e6 qrels + 1e6 run lines, trec_eval syntax", |b| {
        b.iter(|| {
            let mut ids = Ids::new();
            let syntax = TrecSyntax::TrecEval;
            let q = read_trec_qrels_with(black_box(qrels_text.as_bytes()), &mut ids, syntax);
            let r = read_trec_run_with(black_box(run_text.as_bytes()), &mut ids, syntax);
            black_box((q.map(|q| q.len()), r.map(|r| r.len())))
        });
    });
    let mut ids = Ids::new();
    let (Ok(qrels), Ok(run)) = (
        read_trec_qrels(qrels_text.as_bytes(), &mut ids),
        read_trec_run(run_text.as_bytes(), &mut ids),
    ) else {
        panic!("generated files are well formed");
    };
    group.throughput(Throughput::Elements(run.len() as u64));
    // The standard measures under either tie rule, and trec_eval's official
    // set (acm trec's default) in both releases' order; defaults otherwise
    // (trec_eval's ties, version 10.0).
    let (standard, official) = (&Measure::STANDARD[..], &Measure::OFFICIAL[..]);
    let (v10, v9) = (TrecEvalVersion::V10, TrecEvalVersion::V9);
    for (name, measures, ties, version) in [
        ("7 measures, trec_eval ties", standard, Ties::TrecEval, v10),
        ("7 measures, expected ties", standard, Ties::Expected, v10),
        (
            "official set, trec_eval 10.0",
            official,
            Ties::TrecEval,
            v10,
        ),
        ("official set, trec_eval 9", official, Ties::TrecEval, v9),
    ] {
        let options = TrecOptions {
            ties,
            version,
            ..TrecOptions::default()
        };
        group.bench_function(format!("score 1e4 queries x 100 docs, {name}"), |b| {
            b.iter(|| evaluate_trec(&qrels, &run, black_box(measures), &options));
        });
    }
    group.finish();
}

criterion_group!(benches, scoring, trec, overlap);
criterion_main!(benches);
