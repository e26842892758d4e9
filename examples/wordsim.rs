//! An embedding model on a word-similarity benchmark (read here from
//! strings): the benchmark first, then the vectors it needs.
//! `cargo run --example wordsim`.
//!
//! The command-line tool takes files: `acm wordsim --vectors A.vec DATASET…`.

use adaptive_comp_metrics::embedding::{Format, ReadOptions, read_vectors};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, PairFormat, Unknown};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ws = "# word1\tword2\tscore\ntiger\tcat\t7.35\nbook\tpaper\t7.46\n\
              computer\tkeyboard\t7.62\nplane\tcar\t5.77\ntiger\tzoo\t5.87\n";
    let benchmark = Benchmark::read("toy-ws", ws.as_bytes(), &PairFormat::new())?;
    let file = "7 3\ntiger 0.9 0.1 0.0\ncat 0.8 0.3 0.1\nbook 0.1 0.9 0.2\npaper 0.2 0.8 0.1\n\
                computer 0.0 0.7 0.7\nkeyboard 0.1 0.5 0.8\nplane 0.5 0.1 0.9\n";
    let keep = ReadOptions::new().keep(benchmark.words());
    let vectors = read_vectors::<f32, _>(file.as_bytes(), Format::Word2VecText, &keep)?;
    let report = Evaluator::new()
        .unknown(Unknown::Drop)
        .evaluate(&vectors, &benchmark)?;
    println!("{report}");
    Ok(())
}
