//! Scores word vectors on a reliability-weighted triplet dataset
//! (Avraham & Goldberg 2016).
//!
//! ```text
//! cargo run --example triplets -- DATASET VECTORS [--lenient]
//! cargo run --example triplets            # the bundled sample files
//! ```
//!
//! DATASET is in the published format (blocks of `w1,p1,w2,p2` lines), VECTORS
//! in the word2vec text format (`count dim` header, then `word v1 … vd`).
//! `--lenient` accepts a target line without the blank line before it (as
//! in the published `vb_inf.txt`), with a warning naming the line.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use adaptive_comp_metrics::triplet::{
    FormatProblem, ReadMode, Tally, TiePolicy, TripletError, read_dataset_with, read_word2vec,
    score,
};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.iter().position(|a| a == "--lenient") {
        Some(i) => {
            args.remove(i);
            ReadMode::Lenient
        }
        None => ReadMode::Strict,
    };
    let (dataset, vectors) = match args.as_slice() {
        [] => {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/triplet");
            println!(
                "no arguments: using the bundled sample files in {}",
                dir.display()
            );
            (dir.join("sample.txt"), dir.join("sample.vec"))
        }
        [d, v] => (PathBuf::from(d), PathBuf::from(v)),
        _ => {
            eprintln!("usage: triplets [DATASET VECTORS] [--lenient]");
            return ExitCode::from(2);
        }
    };
    match run(&dataset, &vectors, mode) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn open(path: &PathBuf) -> Result<BufReader<File>, String> {
    File::open(path)
        .map(BufReader::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn ctx(path: &std::path::Path, e: &TripletError) -> String {
    format!("{}: {e}", path.display())
}

fn run(dataset: &PathBuf, vectors: &PathBuf, mode: ReadMode) -> Result<(), String> {
    let parsed = read_dataset_with(open(dataset)?, mode).map_err(|e| {
        let hint = match e {
            TripletError::Format {
                problem: FormatProblem::UnknownSection,
                ..
            } if mode == ReadMode::Strict => {
                " (a target without the blank line before it? --lenient reads it as one)"
            }
            _ => "",
        };
        format!("{}{hint}", ctx(dataset, &e))
    })?;
    for w in &parsed.warnings {
        eprintln!("warning: {}: {w}", dataset.display());
    }
    let comparisons = parsed.comparisons;
    let vectors = read_word2vec::<f32, _>(open(vectors)?).map_err(|e| ctx(vectors, &e))?;
    println!(
        "{} comparisons, {} vectors of dimension {}",
        comparisons.len(),
        vectors.len(),
        vectors.dim()
    );
    for (policy, note) in [
        (TiePolicy::HalfCredit, "ties: half credit (default)"),
        (
            TiePolicy::ChooseSecond,
            "ties: count as choosing w2 (published evaluator)",
        ),
    ] {
        let s = score(&comparisons, &vectors, policy).map_err(|e| e.to_string())?;
        println!("\n{note}");
        println!(
            "{:<11} {:>7} {:>7} {:>7} {:>5}",
            "type", "score", "scored", "skipped", "ties"
        );
        for (name, t) in [
            ("all", s.overall),
            ("positive", s.positive),
            ("distractor", s.distractor),
            ("random", s.random),
        ] {
            print_row(name, &t);
        }
    }
    Ok(())
}

fn print_row(name: &str, t: &Tally) {
    let value = t
        .score()
        .map_or_else(|| "undefined".to_owned(), |v| format!("{v:.3}"));
    println!(
        "{name:<11} {value:>7} {:>7} {:>7} {:>5}",
        t.scored,
        t.skipped(),
        t.ties
    );
}
