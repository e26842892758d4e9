//! Parsing and scoring lexical-substitution files.
//!
//! The bar (issue 4): reading 100 000 gold items plus a system file takes
//! under a second in release mode. The files are generated in the setup,
//! in the SemEval-2007 formats, with CRLF endings on every other line.
//!
//! ```text
//! cargo bench -p adaptive-comp-metrics-benches --bench lexsub -- --warm-up-time 1 --measurement-time 3
//! ```

use std::fmt::Write as _;
use std::hint::black_box;
use std::num::NonZeroUsize;

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, Measure, Mode, Profile, read_gold, read_system,
};
use adaptive_comp_metrics_benches::xorshift::xorshift64;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const N: usize = 100_000;
const WORDS: [&str; 16] = [
    "glad",
    "merry",
    "sunny",
    "jovial",
    "cheerful",
    "content",
    "pleased",
    "delighted",
    "well-being",
    "cheer up",
    "o'clock",
    "bright",
    "clever",
    "smart",
    "vivid",
    "shining",
];

/// A gold file and an oot system file of `n` items, deterministic.
fn files(n: usize) -> (String, String) {
    let (mut gold, mut oot) = (String::new(), String::new());
    let mut next = xorshift64(0x2545_f491_4f6c_dd1d);
    for id in 0..n {
        let eol = if id % 2 == 0 { "\n" } else { "\r\n" };
        let subs = 1 + (next() % 7) as usize;
        let start = (next() % 16) as usize;
        write!(gold, "word.n {id} :: ").unwrap();
        for j in 0..subs {
            write!(gold, "{} {};", WORDS[(start + j) % 16], 1 + next() % 5).unwrap();
        }
        gold.push_str(eol);
        write!(oot, "word.n {id} ::: ").unwrap();
        for j in 0..10 {
            let w = WORDS[(start + 3 * j + (next() % 3) as usize) % 16];
            write!(oot, "{w};").unwrap();
        }
        oot.push_str(eol);
    }
    (gold, oot)
}

fn parse(c: &mut Criterion) {
    let (gold, oot) = files(N);
    let mut g = c.benchmark_group("lexsub_parse");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(10);
    g.bench_function("gold_100k", |b| {
        b.iter(|| read_gold(black_box(gold.as_bytes()), Mode::Strict).unwrap())
    });
    g.bench_function("oot_100k", |b| {
        b.iter(|| read_system(black_box(oot.as_bytes()), Format::Oot, Mode::Strict).unwrap())
    });
    g.bench_function("gold_plus_oot_100k", |b| {
        b.iter(|| {
            let gi = read_gold(black_box(gold.as_bytes()), Mode::Strict).unwrap();
            let si = read_system(black_box(oot.as_bytes()), Format::Oot, Mode::Strict).unwrap();
            (gi.items.len(), si.items.len())
        })
    });
    g.finish();
}

fn score(c: &mut Criterion) {
    let (gold, oot) = files(N);
    let gold = read_gold(gold.as_bytes(), Mode::Strict).unwrap().items;
    let oot = read_system(oot.as_bytes(), Format::Oot, Mode::Strict)
        .unwrap()
        .items;
    let mut g = c.benchmark_group("lexsub_score");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(10);
    g.bench_function("pair_semeval2007_100k", |b| {
        b.iter(|| Corpus::new(black_box(&gold), black_box(&oot), Profile::Semeval2007).unwrap())
    });
    let corpus = Corpus::new(&gold, &oot, Profile::Semeval2007).unwrap();
    let k = NonZeroUsize::new(10).unwrap();
    for (name, m) in [
        ("oot", Measure::Oot),
        ("rank", Measure::Rank),
        ("gap", Measure::Gap),
        ("recall_at_10", Measure::RecallAt(k)),
    ] {
        g.bench_function(format!("{name}_100k"), |b| {
            b.iter(|| black_box(&corpus).totals(m))
        });
    }
    g.finish();
}

criterion_group!(benches, parse, score);
criterion_main!(benches);
