//! Score a lexical-substitution system file against a SemEval-2007 gold file
//! and print every measure as a table.
//!
//! ```text
//! cargo run --example lexsub -- GOLD SYSTEM [--oot] [--strict] [--lenient] [--score-pl]
//! ```
//!
//! - `--oot`: SYSTEM is in the out-of-ten format (`lemma.pos ID ::: a1;…`),
//!   otherwise in the best format (`lemma.pos ID :: a1;…`);
//! - `--strict`: the `Strict` normalisation profile instead of the official
//!   scorer's `Semeval2007` one;
//! - `--lenient`: skip malformed lines (they are listed on stderr) instead of
//!   stopping at the first one;
//! - `--score-pl`: print exactly what the official `score.pl` prints (best or
//!   oot only), quirks included, to reproduce published tables; the other
//!   measures need the corrected readers and are not shown.
//!
//! Try it on the sample files shipped with the tests:
//!
//! ```text
//! cargo run --example lexsub -- tests/data/lexsub/gold.txt tests/data/lexsub/system.best
//! cargo run --example lexsub -- tests/data/lexsub/gold.txt tests/data/lexsub/system.oot --oot
//! ```
//!
//! Precision is the mean over the items the system answered, recall the mean
//! over all gold items; both print as percentages with two decimals, `n/a`
//! when undefined (nothing attempted).
//!
//! Errors print `error: FILE:LINE:COLUMN: message` and exit with status 1 (a
//! wrong command line: the usage line, status 2); an empty gold file is an
//! error, an empty system output a warning; a closed output pipe ends the
//! program quietly.

#[path = "common/cli.rs"]
pub mod cli;

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, LexsubError, Measure, Mode, Penalty, Percent, Profile, Side, read_gold,
    read_system, score_pl,
};
use cli::{Failure, Out};

const USAGE: &str = "usage: lexsub GOLD SYSTEM [--oot] [--strict] [--lenient] [--score-pl]";

fn main() -> ExitCode {
    cli::main(USAGE, run)
}

/// The command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// The gold file.
    pub gold: PathBuf,
    /// The system output.
    pub system: PathBuf,
    /// Best or out-of-ten answers.
    pub format: Format,
    /// Normalisation profile.
    pub profile: Profile,
    /// Stop at a malformed line, or skip it.
    pub mode: Mode,
    /// Print what `score.pl` prints.
    pub score_pl: bool,
}

/// `GOLD SYSTEM [--oot] [--strict] [--lenient] [--score-pl]`.
pub fn parse_args(args: &[String]) -> Result<Args, Failure> {
    let mut paths = Vec::new();
    let (mut format, mut profile, mut mode) = (Format::Best, Profile::Semeval2007, Mode::Strict);
    let mut exact = false;
    for arg in args {
        match arg.as_str() {
            "--oot" => format = Format::Oot,
            "--strict" => profile = Profile::Strict,
            "--lenient" => mode = Mode::Lenient,
            "--score-pl" => exact = true,
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(Failure::usage(format!("unknown option {s:?}")));
            }
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    match <[PathBuf; 2]>::try_from(paths) {
        Ok([gold, system]) => Ok(Args {
            gold,
            system,
            format,
            profile,
            mode,
            score_pl: exact,
        }),
        Err(paths) if paths.len() < 2 => Err(Failure::usage("expected two files, GOLD and SYSTEM")),
        Err(paths) => Err(Failure::usage(format!(
            "unexpected argument {:?}: expected two files, GOLD and SYSTEM",
            paths
                .get(2)
                .map_or_else(String::new, |p| p.display().to_string())
        ))),
    }
}

/// The line and column where item `id` is named for the `nth` time
/// (0-based) in a gold or system file, for errors about an item rather than
/// a line (`lemma.pos ID :: …`: the id is the second word).
pub fn item_position(path: &Path, id: &str, nth: usize) -> Option<(usize, usize)> {
    let bytes = cli::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| l.split_whitespace().nth(1) == Some(id))
        .nth(nth)
        .and_then(|(i, _)| {
            let column = cli::field_column(&text, i + 1, 1, cli::Fields::Whitespace)?;
            Some((i + 1, column))
        })
}

/// An error of [`Corpus::new`], placed in the file and on the line it is
/// about.
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

/// Reads both files and prints the table (or what `score.pl` prints).
pub fn run(args: &[String], out: &mut Out) -> Result<(), Failure> {
    let a = parse_args(args)?;
    let (gold_path, system_path) = (&a.gold, &a.system);
    if a.score_pl {
        // An overflowing count is in the gold; where score.pl stops, the
        // line is the system file's.
        let gold = cli::read(gold_path)?;
        if gold.iter().all(u8::is_ascii_whitespace) {
            return Err(Failure::new("no gold items: the file has no item line").file(gold_path));
        }
        let s =
            score_pl::score(gold.as_slice(), cli::open(system_path)?, a.format).map_err(|e| {
                let path = match e {
                    LexsubError::NotReproducible { .. } => system_path,
                    _ => gold_path,
                };
                Failure::in_file(path, &e)
            })?;
        for n in &s.error_lines {
            writeln!(out, "Error in {} on line {n}", system_path.display())?;
        }
        writeln!(out, "{s}")?;
        for id in &s.order_dependent {
            out.warn(format_args!(
                "item {id}: score.pl's credit depends on Perl's hash order here (file order used)"
            ));
        }
        return Ok(());
    }
    let gold =
        read_gold(cli::open(gold_path)?, a.mode).map_err(|e| Failure::in_file(gold_path, &e))?;
    let system = read_system(cli::open(system_path)?, a.format, a.mode)
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
        Corpus::new(&gold.items, &system.items, a.profile).map_err(|e| corpus_failure(&a, &e))?;
    if corpus.items().is_empty() {
        return Err(Failure::new(format!(
            "no gold item left to score: the normalisation profile dropped all {}",
            corpus.dropped().len()
        ))
        .file(gold_path));
    }
    writeln!(
        out,
        "gold items scored: {}  (dropped by the profile: {}, system lines without gold item: {})",
        corpus.items().len(),
        corpus.dropped().len(),
        corpus.unmatched().len()
    )?;

    let k = |n: usize| NonZeroUsize::new(n).ok_or_else(|| Failure::new("k must be at least 1"));
    let official = match a.format {
        Format::Best => [("best", Measure::Best), ("mode best", Measure::ModeBest)],
        Format::Oot => [("oot", Measure::Oot), ("mode oot", Measure::ModeOot)],
    };
    // Jabbari et al.'s oot is the SemEval oot: list it once.
    let oot_row = (a.format == Format::Best).then_some(("oot (= Jabbari oot)", Measure::Oot));
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
