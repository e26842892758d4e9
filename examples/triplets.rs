//! Scores word vectors on a reliability-weighted triplet dataset
//! (Avraham & Goldberg 2016).
//!
//! ```text
//! cargo run --example triplets -- DATASET VECTORS
//! cargo run --example triplets            # the bundled sample files
//! ```
//!
//! DATASET is in the published format (blocks of `w1,p1,w2,p2` lines), VECTORS
//! in the word2vec text format (`count dim` header, then `word v1 … vd`).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use adaptive_comp_metrics::triplet::{
    Tally, TiePolicy, TripletError, read_dataset, read_word2vec, score,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
            eprintln!("usage: triplets [DATASET VECTORS]");
            return ExitCode::from(2);
        }
    };
    match run(&dataset, &vectors) {
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

fn run(dataset: &PathBuf, vectors: &PathBuf) -> Result<(), String> {
    let comparisons = read_dataset(open(dataset)?).map_err(|e| ctx(dataset, &e))?;
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
