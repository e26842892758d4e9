//! `acm lexsub`: a lexical-substitution system scored against a SemEval-2007
//! gold file.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use adaptive_comp_metrics::lexsub::{
    Corpus, Format as Task, LexsubError, Measure, Mode, Penalty, Percent, Profile, Side, read_gold,
    read_system, score_pl,
};
use serde_json::json;

use crate::error::{Failure, Outcome};
use crate::input::{self, Fields};
use crate::output::{Ctx, Format, FormatArg, Out, Table};

const AFTER: &str = "\
GOLD is a SemEval-2007 gold file (`lemma.pos ID :: sub1 n1;sub2 n2;…`), SYSTEM a system output in
the best format (`lemma.pos ID :: a1;a2;…`) or, with `-t oot`, the out-of-ten format
(`lemma.pos ID ::: a1;…`). Precision is the mean over the items the system answered, recall over
all gold items, both in percent; n/a when undefined.

--profile corrected (default) prints every measure: SemEval best/oot and mode, Jabbari et al.'s
revised measures, GAP, P@1, R@10. --profile score-pl prints exactly what the official score.pl
prints, quirks included, to reproduce published tables.

Examples:
  acm lexsub tests/data/lexsub/gold.txt tests/data/lexsub/system.best
  acm lexsub gold.txt system.oot -t oot --profile score-pl
  acm lexsub gold.txt system.best --format csv";

/// Which measures, and how they are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scoring {
    /// Every measure, computed as the papers define them.
    Corrected,
    /// Exactly what the official score.pl prints (best or oot only).
    ScorePl,
}

/// How answers are normalised before matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Normalise {
    /// The official scorer's normalisation.
    Semeval2007,
    /// Exact matching only.
    Strict,
}

/// The task: best or out-of-ten answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TaskArg {
    /// Best answers (`::`).
    Best,
    /// Out-of-ten answers (`:::`).
    Oot,
}

/// Scores a lexical-substitution system against a SemEval-2007 gold file.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The gold file.
    pub gold: PathBuf,
    /// The system output.
    pub system: PathBuf,
    /// The task of the system file, as score.pl's `-t`.
    #[arg(short = 't', long = "task", value_enum, default_value_t = TaskArg::Best)]
    pub task: TaskArg,
    /// What is printed: every measure, or score.pl's output.
    #[arg(long, value_enum, default_value_t = Scoring::Corrected)]
    pub profile: Scoring,
    /// Normalisation of answers before matching.
    #[arg(long, value_enum, default_value_t = Normalise::Semeval2007)]
    pub normalise: Normalise,
    /// Skip malformed lines (listed on stderr) instead of stopping at the first one.
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

/// The line and column where item `id` is named for the `nth` time (0-based)
/// in a gold or system file (`lemma.pos ID :: …`: the id is the second word).
pub fn item_position(path: &Path, id: &str, nth: usize) -> Option<(usize, usize)> {
    let bytes = input::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| l.split_whitespace().nth(1) == Some(id))
        .nth(nth)
        .and_then(|(i, _)| {
            let column = input::field_column(&text, i + 1, 1, Fields::Whitespace)?;
            Some((i + 1, column))
        })
}

fn corpus_failure(a: &Args, e: &LexsubError) -> Failure {
    let (path, id, nth) = match e {
        LexsubError::DuplicateId { id, side } => {
            let path = if *side == Side::Gold {
                &a.gold
            } else {
                &a.system
            };
            (path, id, 1)
        }
        LexsubError::TargetMismatch { id, .. } => (&a.system, id, 0),
        _ => return Failure::from_error(e),
    };
    let at = item_position(path, id, nth);
    Failure::from_error(e)
        .file(path)
        .at(at.map(|p| p.0), at.map(|p| p.1))
}

/// Reads both files and prints the measures (or what score.pl prints).
///
/// # Errors
/// A malformed file (with its line and column), an empty gold file.
pub fn run(a: &Args, _ctx: &Ctx, out: &mut Out) -> Outcome {
    let task = match a.task {
        TaskArg::Best => Task::Best,
        TaskArg::Oot => Task::Oot,
    };
    let (gold_path, system_path) = (&a.gold, &a.system);
    if a.profile == Scoring::ScorePl {
        let gold = input::read(gold_path)?;
        if gold.iter().all(u8::is_ascii_whitespace) {
            return Err(Failure::new("no gold items: the file has no item line").file(gold_path));
        }
        let s = score_pl::score(gold.as_slice(), input::open(system_path)?, task).map_err(|e| {
            let path = match e {
                LexsubError::NotReproducible { .. } => system_path,
                _ => gold_path,
            };
            Failure::in_file(path, &e)
        })?;
        match a.output.format {
            Format::Json => out.json(&json!({
                "error_lines": s.error_lines,
                "report": s.to_string(),
                "order_dependent": s.order_dependent,
            }))?,
            _ => {
                for n in &s.error_lines {
                    writeln!(out, "Error in {} on line {n}", system_path.display())?;
                }
                writeln!(out, "{s}")?;
            }
        }
        for id in &s.order_dependent {
            out.warn(format_args!(
                "item {id}: score.pl's credit depends on Perl's hash order here (file order used)"
            ));
        }
        return Ok(());
    }
    let mode = if a.lenient {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let profile = match a.normalise {
        Normalise::Semeval2007 => Profile::Semeval2007,
        Normalise::Strict => Profile::Strict,
    };
    let gold =
        read_gold(input::open(gold_path)?, mode).map_err(|e| Failure::in_file(gold_path, &e))?;
    let system = read_system(input::open(system_path)?, task, mode)
        .map_err(|e| Failure::in_file(system_path, &e))?;
    for (path, skipped) in [(gold_path, &gold.skipped), (system_path, &system.skipped)] {
        for e in skipped {
            out.warn(format_args!("{} (line skipped)", Failure::in_file(path, e)));
        }
    }
    if gold.items.is_empty() {
        let why = if gold.skipped.is_empty() {
            "the file has no item line".to_owned()
        } else {
            format!("all {} item lines were skipped", gold.skipped.len())
        };
        return Err(Failure::new(format!("no gold items: {why}")).file(gold_path));
    }
    if system.items.is_empty() {
        out.warn(format_args!(
            "{}: no answers: every precision is undefined (n/a) and every recall 0",
            system_path.display()
        ));
    }
    let corpus =
        Corpus::new(&gold.items, &system.items, profile).map_err(|e| corpus_failure(a, &e))?;
    if corpus.items().is_empty() {
        return Err(Failure::new(format!(
            "no gold item left to score: the normalisation profile dropped all {}",
            corpus.dropped().len()
        ))
        .file(gold_path));
    }
    let k = |n: usize| NonZeroUsize::new(n).ok_or_else(|| Failure::new("k must be at least 1"));
    let official = match task {
        Task::Best => [("best", Measure::Best), ("mode best", Measure::ModeBest)],
        Task::Oot => [("oot", Measure::Oot), ("mode oot", Measure::ModeOot)],
    };
    // Jabbari et al.'s oot is the SemEval oot: listed once.
    let oot_row = (task == Task::Best).then_some(("oot (= Jabbari oot)", Measure::Oot));
    let rows: Vec<(&str, Measure)> = official
        .into_iter()
        .chain(oot_row)
        .chain([
            ("new best (Jabbari)", Measure::NewBest),
            ("best-1 (Jabbari)", Measure::Best1),
            ("weighted recall", Measure::Recall),
            ("weighted precision k=1", Measure::Precision(Penalty::ONE)),
            ("rank (Jabbari)", Measure::Rank),
            ("GAP", Measure::Gap),
            ("P@1", Measure::PrecisionAt(k(1)?)),
            ("R@10", Measure::RecallAt(k(10)?)),
        ])
        .collect();
    if a.output.format != Format::Table {
        let mut t = Table::new(&["measure", "precision", "recall", "attempted", "items"], 1);
        for (name, m) in rows {
            let tot = corpus.totals(m);
            let num = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
            t.row(vec![
                name.to_owned(),
                num(tot.precision()),
                num(tot.recall()),
                tot.attempted.to_string(),
                tot.items.to_string(),
            ]);
        }
        return t.write(a.output.format, out);
    }
    writeln!(
        out,
        "gold items scored: {}  (dropped by the profile: {}, system lines without gold item: {})",
        corpus.items().len(),
        corpus.dropped().len(),
        corpus.unmatched().len()
    )?;
    writeln!(
        out,
        "{:<24} {:>9} {:>9} {:>10} {:>8}",
        "measure", "P (%)", "R (%)", "attempted", "items"
    )?;
    for (name, m) in rows {
        let t = corpus.totals(m);
        writeln!(
            out,
            "{:<24} {:>9} {:>9} {:>10} {:>8}",
            name,
            Percent(t.precision()).to_string(),
            Percent(t.recall()).to_string(),
            t.attempted,
            t.items
        )?;
    }
    Ok(())
}
