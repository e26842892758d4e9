//! Timed check of the word-similarity performance bars on generated files.
//!
//! ```text
//! cargo run --release --example bench_wordsim -- [SIZE_MB] [DIR]     (default 1024 MB in /tmp/wordsim-bench)
//! ```
//!
//! 1. a word2vec text file of SIZE_MB (300 dimensions) is streamed keeping
//!    5 000 words, against `wc -l` on the same file (both from the page cache,
//!    best of 3);
//! 2. a word2vec binary file of SIZE_MB is streamed keeping 5 000 words (GB/s);
//! 3. 10 models × 10 benchmarks of 3 000 pairs are evaluated with every
//!    coefficient, no bootstrap (after loading).
//!
//! The files are generated once into DIR (deterministic content) and kept
//! for later runs; delete them by hand.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, WordPair};

const DIM: usize = 300;

/// SplitMix64: a tiny deterministic generator for the file contents.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

fn generate(path: &Path, bytes: u64, binary: bool) -> std::io::Result<usize> {
    let row_len = if binary {
        10 + 4 * DIM as u64
    } else {
        10 + 10 * DIM as u64
    };
    let rows = (bytes / row_len) as usize;
    if path.exists() {
        return Ok(rows);
    }
    eprintln!("generating {} ({rows} rows)…", path.display());
    let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
    writeln!(w, "{rows} {DIM}")?;
    let mut rng = Mix(42);
    let mut line = String::new();
    for i in 0..rows {
        if binary {
            w.write_all(format!("word{i:07} ").as_bytes())?;
            for _ in 0..DIM {
                w.write_all(&rng.unit().to_le_bytes())?;
            }
            w.write_all(b"\n")?;
        } else {
            use std::fmt::Write as _;
            line.clear();
            let _ = write!(line, "word{i:07}");
            for _ in 0..DIM {
                let _ = write!(line, " {:.6}", rng.unit());
            }
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
    }
    w.flush()?;
    Ok(rows)
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        out = Some(v);
    }
    (best, out.expect("runs ≥ 1"))
}

fn keep_words(rows: usize, n: usize) -> Vec<String> {
    let step = (rows / n).max(1);
    (0..n)
        .map(|k| format!("word{:07}", (k * step) % rows.max(1)))
        .collect()
}

/// The best of three reads of `path` in `format` keeping 5 000 of its
/// `rows` words: the file's size in GB, the time, the words kept.
fn read_keeping_5000(
    path: &Path,
    format: Format,
    rows: usize,
) -> std::io::Result<(f64, Duration, usize)> {
    let gb = std::fs::metadata(path)?.len() as f64 / 1e9;
    let keep = ReadOptions::new().keep(keep_words(rows, 5000));
    let (t, v) = best_of(3, || {
        let r = BufReader::with_capacity(1 << 20, File::open(path).expect("generated"));
        read_vectors::<f32, _>(r, format, &keep).expect("valid file")
    });
    Ok((gb, t, v.len()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mb: u64 = args.first().map_or(Ok(1024), |s| s.parse())?;
    let dir = PathBuf::from(args.get(1).map_or("/tmp/wordsim-bench", String::as_str));
    std::fs::create_dir_all(&dir)?;
    let text = dir.join(format!("w2v-{mb}mb.vec"));
    let bin = dir.join(format!("w2v-{mb}mb.bin"));
    let text_rows = generate(&text, mb << 20, false)?;
    let bin_rows = generate(&bin, mb << 20, true)?;

    // 1. text, keeping 5 000 words, against wc -l.
    let (wc, out) = best_of(3, || {
        std::process::Command::new("wc")
            .arg("-l")
            .arg(&text)
            .output()
    });
    let wc_ok = out.map(|o| o.status.success()).unwrap_or(false);
    let (gb, t, kept) = read_keeping_5000(&text, Format::Word2VecText, text_rows)?;
    println!(
        "text   {:.2} GB, {} rows: keep 5000 ({} kept) {:.3} s = {:.2} GB/s; wc -l {:.3} s{}; ratio {:.2}",
        gb,
        text_rows,
        kept,
        t.as_secs_f64(),
        gb / t.as_secs_f64(),
        wc.as_secs_f64(),
        if wc_ok { "" } else { " (wc failed)" },
        t.as_secs_f64() / wc.as_secs_f64()
    );

    // 2. binary, keeping 5 000 words.
    let (gb, t, kept) = read_keeping_5000(&bin, Format::Word2VecBinary, bin_rows)?;
    println!(
        "binary {gb:.2} GB, {bin_rows} rows: keep 5000 ({kept} kept) {:.3} s = {:.2} GB/s",
        t.as_secs_f64(),
        gb / t.as_secs_f64()
    );

    // 3. 10 models × 10 benchmarks × 3 000 pairs, all coefficients, no bootstrap.
    let words = 4000;
    let mut rng = Mix(7);
    let models: Vec<Vectors<f32>> = (0..10)
        .map(|m| {
            let rows = (0..words).filter(|i| (i + m) % 23 != 0).map(|i| {
                let v: Vec<f32> = (0..DIM).map(|_| rng.unit()).collect();
                (format!("w{i}"), v)
            });
            Vectors::from_pairs(DIM, rows).expect("valid vectors")
        })
        .collect();
    let benchmarks: Vec<Benchmark> = (0..10)
        .map(|b| {
            let pairs = (0..3000)
                .map(|_| {
                    let (i, j) = (rng.next() % words as u64, rng.next() % words as u64);
                    WordPair::new(
                        format!("w{i}"),
                        format!("w{j}"),
                        (rng.next() % 41) as f64 / 4.0,
                    )
                })
                .collect();
            Benchmark::new(format!("b{b}"), pairs).expect("valid pairs")
        })
        .collect();
    let named: Vec<(String, &Vectors<f32>)> = models
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("m{i}"), v))
        .collect();
    let named: Vec<(&str, &Vectors<f32>)> = named.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let (t, table) = best_of(3, || {
        Evaluator::new()
            .compare(&named, &benchmarks)
            .expect("finite")
    });
    let ok = table
        .rows()
        .filter(|(_, _, r)| r.tau_w.is_ok() && r.pearson.is_ok())
        .count();
    println!(
        "evaluate 10 models × 10 benchmarks × 3000 pairs, all coefficients: {:.3} s ({ok} reports)",
        t.as_secs_f64()
    );
    // Where the time goes, per 100 reports (one report's scored vectors, 100 times).
    let r = table.report(0, 0);
    let (h, m) = (&r.human[..], &r.model[..]);
    let time100 = |f: &dyn Fn()| {
        best_of(3, || {
            for _ in 0..100 {
                f();
            }
        })
        .0
        .as_secs_f64()
    };
    let tw = adaptive_comp_metrics::TopWeighted::new();
    println!(
        "  per 100 reports of {} pairs: similarities {:.3} s, pearson {:.3} s, spearman {:.3} s, kendall {:.3} s, rho_w {:.3} s, tau_w {:.3} s",
        h.len(),
        time100(&|| {
            let b = &benchmarks[0];
            let s: f64 = b
                .pairs()
                .iter()
                .filter_map(|p| {
                    adaptive_comp_metrics::embedding::Similarity::similarity(
                        &models[0], &p.word1, &p.word2,
                    )
                })
                .sum();
            std::hint::black_box(s);
        }),
        time100(&|| {
            std::hint::black_box(adaptive_comp_metrics::pearson(h, m).ok());
        }),
        time100(&|| {
            std::hint::black_box(adaptive_comp_metrics::spearman(h, m).ok());
        }),
        time100(&|| {
            std::hint::black_box(adaptive_comp_metrics::kendall_tau_b(h, m).ok());
        }),
        time100(&|| {
            std::hint::black_box(tw.rho(h, m).ok());
        }),
        time100(&|| {
            std::hint::black_box(tw.tau(h, m).ok());
        }),
    );
    Ok(())
}
