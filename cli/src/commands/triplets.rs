//! `acm triplets`: word vectors scored on a reliability-weighted triplet
//! dataset (Avraham & Goldberg 2016).

use std::path::{Path, PathBuf};

use adaptive_comp_metrics::triplet::{
    FormatProblem, FormatWarning, ReadMode, Tally, TiePolicy, TripletError, VectorProblem,
    read_dataset_with, read_word2vec, score,
};

use crate::error::{Failure, Outcome};
use crate::input::{self, Fields};
use crate::output::{Ctx, Format, FormatArg, Out, Table};
use crate::progress::Progress;

const AFTER: &str = "\
DATASET is in the published format (blocks of `w1,p1,w2,p2` lines after a target line), VECTORS in
the word2vec text format (`count dim` header, then `word v1 … vd`). Scores are printed under both
tie policies: half credit (default) and ties counted as choosing w2 (the published evaluator).

Examples:
  acm triplets tests/data/triplet/sample.txt tests/data/triplet/sample.vec
  acm triplets vb_inf.txt vectors.vec --lenient --format json";

/// Scores word vectors on a reliability-weighted triplet dataset.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The triplet dataset.
    pub dataset: PathBuf,
    /// The word vectors (word2vec text format).
    pub vectors: PathBuf,
    /// Accept a target line without the blank line before it (as in the published vb_inf.txt),
    /// with a warning naming the line.
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

/// Where a reader's error is: line, and the column of the field it names.
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
        let text = input::read(path).unwrap_or_default();
        let column = input::field_column(&String::from_utf8_lossy(&text), line, index, fields);
        f = f.at(Some(line), column);
    }
    f
}

/// Reads both files and prints the scores under both tie policies.
///
/// # Errors
/// A malformed file (with its line and column), a dataset without comparisons.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    let mode = if a.lenient {
        ReadMode::Lenient
    } else {
        ReadMode::Strict
    };
    let parsed = read_dataset_with(input::open(&a.dataset)?, mode).map_err(|e| {
        let mut f = failure(&a.dataset, &e);
        if mode == ReadMode::Strict
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
        out.warn(Failure::new(w.to_string()).file(&a.dataset).at(line, None));
    }
    let comparisons = parsed.comparisons;
    if comparisons.is_empty() {
        return Err(
            Failure::new("no comparisons: the dataset has no target block").file(&a.dataset),
        );
    }
    let vectors = {
        let _spin = Progress::spinner(ctx, &format!("reading {}", a.vectors.display()));
        read_word2vec::<f32, _>(input::open(&a.vectors)?).map_err(|e| failure(&a.vectors, &e))?
    };
    let policies = [
        (
            TiePolicy::HalfCredit,
            "half_credit",
            "ties: half credit (default)",
        ),
        (
            TiePolicy::ChooseSecond,
            "choose_second",
            "ties: count as choosing w2 (published evaluator)",
        ),
    ];
    let mut scores = Vec::new();
    for (policy, _, _) in policies {
        scores.push(score(&comparisons, &vectors, policy)?);
    }
    if scores.first().is_some_and(|s| s.overall.scored == 0) {
        out.warn(format_args!(
            "{}: no comparison could be scored: the vectors lack a word of every one",
            a.vectors.display()
        ));
    }
    if a.output.format != Format::Table {
        let mut t = Table::new(
            &["ties", "type", "score", "scored", "skipped", "ties_found"],
            2,
        );
        for ((_, key, _), s) in policies.iter().zip(&scores) {
            for (name, tally) in [
                ("all", s.overall),
                ("positive", s.positive),
                ("distractor", s.distractor),
                ("random", s.random),
            ] {
                t.row(vec![
                    (*key).to_owned(),
                    name.to_owned(),
                    tally.score().map_or_else(String::new, |v| v.to_string()),
                    tally.scored.to_string(),
                    tally.skipped().to_string(),
                    tally.ties.to_string(),
                ]);
            }
        }
        return t.write(a.output.format, out);
    }
    writeln!(
        out,
        "{} comparisons, {} vectors of dimension {}",
        comparisons.len(),
        vectors.len(),
        vectors.dim()
    )?;
    for ((_, _, note), s) in policies.iter().zip(&scores) {
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

fn print_row(out: &mut Out, name: &str, t: &Tally) -> Outcome {
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
