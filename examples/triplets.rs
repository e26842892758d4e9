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
//!
//! Errors print `error: FILE:LINE:COLUMN: message` and exit with status 1 (a
//! wrong command line: the usage line, status 2); a dataset without
//! comparisons is an error; a closed output pipe ends the program quietly.

#[path = "common/cli.rs"]
pub mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use adaptive_comp_metrics::triplet::{
    FormatProblem, FormatWarning, ReadMode, Tally, TiePolicy, TripletError, VectorProblem,
    read_dataset_with, read_word2vec, score,
};
use cli::{Failure, Fields, Out};

const USAGE: &str = "usage: triplets [DATASET VECTORS] [--lenient]";

fn main() -> ExitCode {
    cli::main(USAGE, run)
}

/// The command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// The dataset file; `None`: the bundled sample files.
    pub files: Option<(PathBuf, PathBuf)>,
    /// How to read the dataset.
    pub mode: ReadMode,
}

/// `[DATASET VECTORS] [--lenient]`.
pub fn parse_args(args: &[String]) -> Result<Args, Failure> {
    let mut mode = ReadMode::Strict;
    let mut files = Vec::new();
    for a in args {
        match a.as_str() {
            "--lenient" => mode = ReadMode::Lenient,
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(Failure::usage(format!("unknown option {s:?}")));
            }
            _ => files.push(PathBuf::from(a)),
        }
    }
    let files = match <[PathBuf; 2]>::try_from(files) {
        Ok([d, v]) => Some((d, v)),
        Err(f) if f.is_empty() => None,
        Err(f) if f.len() == 1 => {
            return Err(Failure::usage("expected two files, DATASET and VECTORS"));
        }
        Err(f) => {
            return Err(Failure::usage(format!(
                "unexpected argument {:?}: expected two files, DATASET and VECTORS",
                f.get(2)
                    .map_or_else(String::new, |p| p.display().to_string())
            )));
        }
    };
    Ok(Args { files, mode })
}

/// Where a reader's error is: line, and the column of the field it names
/// (a dataset field `w1,p1,w2,p2`, or a vector component after the word).
fn failure(path: &Path, e: &TripletError) -> Failure {
    let field = match e {
        TripletError::Format {
            problem:
                FormatProblem::EmptyWord { field } | FormatProblem::InvalidProbability { field },
            ..
        } => Some((field.saturating_sub(1), Fields::Comma)),
        TripletError::Vectors(v) => match v.problem() {
            Some(VectorProblem::InvalidValue { column } | VectorProblem::NonFinite { column }) => {
                Some((column, Fields::Whitespace))
            }
            _ => None,
        },
        _ => None,
    };
    let mut f = Failure::in_file(path, e);
    if let (Some(line), Some((index, fields))) = (f.line, field) {
        let text = cli::read(path).unwrap_or_default();
        let column = cli::field_column(&String::from_utf8_lossy(&text), line, index, fields);
        f = f.at(Some(line), column);
    }
    f
}

/// Reads both files and prints the scores under both tie policies.
pub fn run(args: &[String], out: &mut Out) -> Result<(), Failure> {
    let a = parse_args(args)?;
    let (dataset, vectors) = match a.files {
        Some(files) => files,
        None => {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/triplet");
            writeln!(
                out,
                "no arguments: using the bundled sample files in {}",
                dir.display()
            )?;
            (dir.join("sample.txt"), dir.join("sample.vec"))
        }
    };
    let parsed = read_dataset_with(cli::open(&dataset)?, a.mode).map_err(|e| {
        let mut f = failure(&dataset, &e);
        if a.mode == ReadMode::Strict
            && matches!(
                e,
                TripletError::Format {
                    problem: FormatProblem::UnknownSection,
                    ..
                }
            )
        {
            f.message.push_str(
                " (a target without the blank line before it? --lenient reads it as one)",
            );
        }
        f
    })?;
    for w in &parsed.warnings {
        let line = match w {
            FormatWarning::TargetWithoutBlankLine { line, .. } => Some(*line),
            _ => None,
        };
        out.warn(Failure::new(w.to_string()).file(&dataset).at(line, None));
    }
    let comparisons = parsed.comparisons;
    if comparisons.is_empty() {
        return Err(Failure::new("no comparisons: the dataset has no target block").file(&dataset));
    }
    let vectors_read =
        read_word2vec::<f32, _>(cli::open(&vectors)?).map_err(|e| failure(&vectors, &e))?;
    writeln!(
        out,
        "{} comparisons, {} vectors of dimension {}",
        comparisons.len(),
        vectors_read.len(),
        vectors_read.dim()
    )?;
    for (policy, note) in [
        (TiePolicy::HalfCredit, "ties: half credit (default)"),
        (
            TiePolicy::ChooseSecond,
            "ties: count as choosing w2 (published evaluator)",
        ),
    ] {
        let s = score(&comparisons, &vectors_read, policy)?;
        if policy == TiePolicy::HalfCredit && s.overall.scored == 0 {
            out.warn(format_args!(
                "{}: no comparison could be scored: the vectors lack a word of every one",
                vectors.display()
            ));
        }
        writeln!(out, "\n{note}")?;
        writeln!(
            out,
            "{:<11} {:>7} {:>7} {:>7} {:>5}",
            "type", "score", "scored", "skipped", "ties"
        )?;
        for (name, t) in [
            ("all", s.overall),
            ("positive", s.positive),
            ("distractor", s.distractor),
            ("random", s.random),
        ] {
            print_row(out, name, &t)?;
        }
    }
    Ok(())
}

fn print_row(out: &mut Out, name: &str, t: &Tally) -> Result<(), Failure> {
    let value = t
        .score()
        .map_or_else(|| "undefined".to_owned(), |v| format!("{v:.3}"));
    writeln!(
        out,
        "{name:<11} {value:>7} {:>7} {:>7} {:>5}",
        t.scored,
        t.skipped(),
        t.ties
    )
}
