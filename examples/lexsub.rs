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

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::num::NonZeroUsize;
use std::process::ExitCode;

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, LexsubError, Measure, Mode, Penalty, Percent, Profile, read_gold, read_system,
    score_pl,
};

const USAGE: &str = "usage: lexsub GOLD SYSTEM [--oot] [--strict] [--lenient] [--score-pl]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lexsub: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut paths = Vec::new();
    let (mut format, mut profile, mut mode) = (Format::Best, Profile::Semeval2007, Mode::Strict);
    let mut exact = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--oot" => format = Format::Oot,
            "--strict" => profile = Profile::Strict,
            "--lenient" => mode = Mode::Lenient,
            "--score-pl" => exact = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}").into()),
            _ => paths.push(arg),
        }
    }
    let [gold_path, system_path] = paths.as_slice() else {
        return Err(USAGE.into());
    };
    let open = |p: &String| -> Result<BufReader<File>, Box<dyn Error>> {
        Ok(BufReader::new(
            File::open(p).map_err(|e| format!("{p}: {e}"))?,
        ))
    };
    if exact {
        // An overflowing count is in the gold; where score.pl stops, the
        // line is the system file's.
        let s = score_pl::score(open(gold_path)?, open(system_path)?, format).map_err(|e| {
            let file = match e {
                LexsubError::CountOverflow { .. } => gold_path.clone(),
                LexsubError::NotReproducible { .. } => system_path.clone(),
                _ => format!("{gold_path} or {system_path}"),
            };
            format!("{file}: {e}")
        })?;
        for n in &s.error_lines {
            println!("Error in {system_path} on line {n}");
        }
        println!("{s}");
        for id in &s.order_dependent {
            eprintln!(
                "warning: item {id}: score.pl's credit depends on Perl's hash order here \
                 (file order used)"
            );
        }
        return Ok(());
    }
    let gold = read_gold(open(gold_path)?, mode).map_err(|e| format!("{gold_path}: {e}"))?;
    let system =
        read_system(open(system_path)?, format, mode).map_err(|e| format!("{system_path}: {e}"))?;
    for e in &gold.skipped {
        eprintln!("{gold_path}: skipped: {e}");
    }
    for e in &system.skipped {
        eprintln!("{system_path}: skipped: {e}");
    }
    let corpus = Corpus::new(&gold.items, &system.items, profile)?;
    println!(
        "gold items scored: {}  (dropped by the profile: {}, system lines without gold item: {})",
        corpus.items().len(),
        corpus.dropped().len(),
        corpus.unmatched().len()
    );

    let k = |n: usize| NonZeroUsize::new(n).ok_or("k must be at least 1");
    let official = match format {
        Format::Best => [("best", Measure::Best), ("mode best", Measure::ModeBest)],
        Format::Oot => [("oot", Measure::Oot), ("mode oot", Measure::ModeOot)],
    };
    // Jabbari et al.'s oot is the SemEval oot: list it once.
    let oot_row = (format == Format::Best).then_some(("oot (= Jabbari oot)", Measure::Oot));
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

    println!(
        "{:<24} {:>9} {:>9} {:>10} {:>8}",
        "measure", "P (%)", "R (%)", "attempted", "items"
    );
    for (name, m) in rows {
        let t = corpus.totals(m);
        println!(
            "{:<24} {:>9} {:>9} {:>10} {:>8}",
            name,
            Percent(t.precision()).to_string(),
            Percent(t.recall()).to_string(),
            t.attempted,
            t.items
        );
    }
    Ok(())
}
