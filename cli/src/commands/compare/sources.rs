//! The other sources of `acm compare`: word-similarity models (coefficients
//! over the pairs of each benchmark), lexical-substitution systems
//! (per-instance credits) and a table of scores (units × systems).

use std::collections::BTreeSet;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::embedding::{ReadOptions, Vectors};
use adaptive_comp_metrics::lexsub::{
    Corpus, Format as Task, Measure as LexMeasure, Mode, Outcome as ItemOutcome, Profile,
    read_gold, read_system,
};
use adaptive_comp_metrics::uncertainty::compare::{Missing, ScoreTable, friedman};
use adaptive_comp_metrics::uncertainty::{
    KendallTauB, Spearman, Statistic, TopWeightedRho, TopWeightedTau, VignaTau,
};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, Unknown};
use adaptive_comp_metrics::{CorrelationError, pearson};

use super::{FamilyArg, Options, Results, system_names};
use crate::commands::wordsim::{LayoutArg, load_vectors, name_of, read_benchmark};
use crate::error::{Failure, Outcome};
use crate::input;
use crate::output::{Ctx, Out};
use crate::progress::Progress;

/// A coefficient of word-similarity models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CoefficientArg {
    /// Spearman's ρ.
    Rho,
    /// The top-weighted ρ_w (Lombardo et al. 2020).
    RhoW,
    /// The top-weighted τ_w.
    TauW,
    /// Kendall's τ-b.
    Tau,
    /// Vigna's weighted τ (SciPy's weightedtau).
    WeightedTau,
    /// Pearson's r.
    R,
}

impl CoefficientArg {
    fn label(self) -> &'static str {
        match self {
            Self::Rho => "ρ",
            Self::RhoW => "ρ_w",
            Self::TauW => "τ_w",
            Self::Tau => "τ-b",
            Self::WeightedTau => "weighted τ",
            Self::R => "r",
        }
    }
}

/// Compares word-vector models on word-similarity benchmarks.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each benchmark's pairs that every model covers are the items; each coefficient of each model
against the human scores is compared pair by pair (the paired permutation test, or the paired
bootstrap), corrected over every comparison made (--family measure: per benchmark and
coefficient), and, with two or more benchmarks, the models ranked by Friedman's test with the
critical difference.

Example:
  acm compare wordsim --vectors glove.vec --vectors w2v.bin SimLex-999.txt MEN.txt -k rho-w -k rho")]
pub struct WordsimArgs {
    /// A model's vector file (repeatable, two or more).
    #[arg(long = "vectors", value_name = "FILE", required = true, num_args = 1)]
    pub vectors: Vec<PathBuf>,
    /// The benchmark files.
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,
    /// A coefficient (repeatable; default ρ_w, τ_w and ρ).
    #[arg(short = 'k', long = "coefficient", value_enum)]
    pub coefficients: Vec<CoefficientArg>,
    /// Layout of every dataset (default: detected from each file's content).
    #[arg(long, value_parser = crate::commands::wordsim::parse_layout)]
    pub layout: Option<LayoutArg>,
    #[command(flatten)]
    pub options: Options,
}

/// Compares lexical-substitution systems item by item.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each gold item is a unit; a system's credit on it is the measure's (0 where the system gives no
answer, so that the mean is the recall); items a measure does not apply to (mode measures on items
without a mode) are left out.

Example:
  acm compare lexsub gold.txt a.best b.best c.best --measure best --measure gap")]
pub struct LexsubArgs {
    /// The gold file.
    pub gold: PathBuf,
    /// Two or more system outputs.
    #[arg(required = true, num_args = 2..)]
    pub systems: Vec<PathBuf>,
    /// The task of the system files.
    #[arg(short = 't', long = "task", value_enum, default_value_t = super::super::lexsub::TaskArg::Best)]
    pub task: super::super::lexsub::TaskArg,
    /// A measure (repeatable; default the task's: best and mode best, or oot and mode oot).
    #[arg(long = "measure", value_enum)]
    pub measures: Vec<LexMeasureArg>,
    #[command(flatten)]
    pub options: Options,
}

/// A lexical-substitution measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LexMeasureArg {
    Best,
    ModeBest,
    Oot,
    ModeOot,
    NewBest,
    Best1,
    Recall,
    Rank,
    Gap,
    #[value(name = "p1")]
    P1,
    #[value(name = "r10")]
    R10,
}

/// Compares the systems of a CSV table, one row per unit.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
FILE is a CSV file with a header: one row per unit (benchmark, data set, query), one numeric
column per system. Every pair is compared, and Friedman's test with Nemenyi's critical difference
ranks the systems over the units.

Example:
  acm compare table leaderboard.csv --unit task --test bootstrap --format latex")]
pub struct TableArgs {
    /// The CSV file.
    pub file: PathBuf,
    /// The column that names the units (default: none, rows numbered); every other column is a
    /// system.
    #[arg(long, value_name = "COLUMN")]
    pub unit: Option<String>,
    /// Smaller scores are better (errors, ranks).
    #[arg(long)]
    pub smaller_is_better: bool,
    /// Field delimiter.
    #[arg(long, default_value_t = ',')]
    pub delimiter: char,
    #[command(flatten)]
    pub options: Options,
}

/// The statistic of a coefficient, as the library's `uncertainty` has it.
fn statistic(c: CoefficientArg) -> Box<dyn Statistic + Sync> {
    match c {
        CoefficientArg::Rho => Box::new(Spearman),
        CoefficientArg::RhoW => Box::new(TopWeightedRho::new()),
        CoefficientArg::TauW => Box::new(TopWeightedTau::new()),
        CoefficientArg::Tau => Box::new(KendallTauB),
        CoefficientArg::WeightedTau => Box::new(VignaTau::default()),
        CoefficientArg::R => Box::new(|x: &[f64], y: &[f64]| -> Result<f64, CorrelationError> {
            pearson(x, y).map(|p| p.r)
        }),
    }
}

/// Word-similarity models on benchmarks.
pub fn wordsim(a: &WordsimArgs, ctx: &Ctx, out: &mut Out) -> Outcome<Results> {
    let _ = out;
    if a.vectors.len() < 2 {
        return Err(Failure::usage(
            "give two or more --vectors files to compare",
        ));
    }
    let mut benchmarks: Vec<Benchmark> = Vec::new();
    for path in &a.datasets {
        benchmarks.push(read_benchmark(path, a.layout)?);
    }
    let needed: BTreeSet<&str> = benchmarks.iter().flat_map(Benchmark::words).collect();
    let options = ReadOptions::new().keep(needed);
    let names = system_names(&a.vectors);
    let mut models: Vec<Vectors<f32>> = Vec::new();
    for path in &a.vectors {
        models.push(load_vectors(path, &options, ctx)?);
    }
    let coefficients = if a.coefficients.is_empty() {
        vec![
            CoefficientArg::RhoW,
            CoefficientArg::TauW,
            CoefficientArg::Rho,
        ]
    } else {
        a.coefficients.clone()
    };
    let compare = a.options.compare(&names)?;
    let evaluator = Evaluator::new().unknown(Unknown::Drop);
    let bar = Progress::new(
        ctx,
        (benchmarks.len() * coefficients.len()) as u64,
        "comparing",
    );
    let mut comparisons = Vec::new();
    // Per coefficient, the models' values on each benchmark (Friedman).
    let mut values: Vec<Vec<(String, Vec<f64>)>> = vec![Vec::new(); coefficients.len()];
    for b in &benchmarks {
        let mut sims: Vec<Vec<Option<f64>>> = Vec::with_capacity(models.len());
        let mut gold = Vec::new();
        for m in &models {
            let report = evaluator.evaluate(m, b)?;
            gold.clone_from(&report.gold);
            sims.push(report.similarities);
        }
        let covered: Vec<usize> = (0..gold.len())
            .filter(|&i| sims.iter().all(|s| s.get(i).copied().flatten().is_some()))
            .collect();
        if covered.len() < 3 {
            return Err(Failure::new(format!(
                "{}: only {} pairs are covered by every model (3 needed)",
                b.name(),
                covered.len()
            )));
        }
        if covered.len() < gold.len() {
            ctx.note(
                out,
                format_args!(
                    "{}: {} of {} pairs covered by every model are compared",
                    b.name(),
                    covered.len(),
                    gold.len()
                ),
            );
        }
        let human: Vec<f64> = covered.iter().map(|&i| gold[i]).collect();
        let columns: Vec<(String, Vec<f64>)> = names
            .iter()
            .zip(&sims)
            .map(|(n, s)| {
                (
                    n.clone(),
                    covered.iter().map(|&i| s[i].unwrap_or(0.0)).collect(),
                )
            })
            .collect();
        let table = ScoreTable::from_columns(&columns).map_err(|e| Failure::from_error(&e))?;
        for (ci, &c) in coefficients.iter().enumerate() {
            bar.message(format!("comparing {} {}", b.name(), c.label()));
            let mut cmp = compare
                .coefficients_seeded(&*statistic(c), &human, &table, a.options.seed)
                .map_err(|e| Failure::from_error(&e))?;
            cmp.statistic = c.label().to_owned();
            values[ci].push((
                b.name().to_owned(),
                cmp.systems.iter().map(|s| s.estimate).collect(),
            ));
            comparisons.push((format!("{} {}", b.name(), c.label()), cmp));
            bar.inc(1);
        }
    }
    drop(bar);
    let mut ranked = Vec::new();
    if benchmarks.len() >= 2 {
        for (ci, &c) in coefficients.iter().enumerate() {
            // Units = benchmarks, systems = models.
            let columns: Vec<(String, Vec<f64>)> = names
                .iter()
                .enumerate()
                .map(|(m, n)| (n.clone(), values[ci].iter().map(|(_, v)| v[m]).collect()))
                .collect();
            let table = ScoreTable::from_columns(&columns)
                .and_then(|t| t.with_unit_names(values[ci].iter().map(|(b, _)| b.clone())))
                .map_err(|e| Failure::from_error(&e))?;
            let f = friedman(&table, Order::LargerIsBetter, a.options.alpha)
                .map_err(|e| Failure::from_error(&e))?;
            ranked.push((c.label().to_owned(), f));
        }
    }
    Results::corrected(comparisons, ranked, &a.options, FamilyArg::All)
}

/// Lexical-substitution systems on one gold file.
pub fn lexsub(a: &LexsubArgs, ctx: &Ctx, out: &mut Out) -> Outcome<Results> {
    let task = match a.task {
        super::super::lexsub::TaskArg::Best => Task::Best,
        super::super::lexsub::TaskArg::Oot => Task::Oot,
    };
    let gold = read_gold(input::open(&a.gold)?, Mode::Strict)
        .map_err(|e| Failure::in_file(&a.gold, &e))?;
    if gold.items.is_empty() {
        return Err(Failure::new("no gold items: the file has no item line").file(&a.gold));
    }
    let names = system_names(&a.systems);
    let compare = a.options.compare(&names)?;
    let mut corpora = Vec::new();
    for path in &a.systems {
        let system = read_system(input::open(path)?, task, Mode::Strict)
            .map_err(|e| Failure::in_file(path, &e))?;
        let corpus = Corpus::new(&gold.items, &system.items, Profile::Semeval2007)
            .map_err(|e| Failure::in_file(path, &e))?;
        corpora.push(corpus);
    }
    let one = NonZeroUsize::MIN;
    let ten = NonZeroUsize::new(10).unwrap_or(NonZeroUsize::MIN);
    let asked = if a.measures.is_empty() {
        match task {
            Task::Best => vec![LexMeasureArg::Best, LexMeasureArg::ModeBest],
            _ => vec![LexMeasureArg::Oot, LexMeasureArg::ModeOot],
        }
    } else {
        a.measures.clone()
    };
    let bar = Progress::new(ctx, asked.len() as u64, "comparing");
    let mut comparisons = Vec::new();
    for m in asked {
        let (label, measure) = match m {
            LexMeasureArg::Best => ("best", LexMeasure::Best),
            LexMeasureArg::ModeBest => ("mode best", LexMeasure::ModeBest),
            LexMeasureArg::Oot => ("oot", LexMeasure::Oot),
            LexMeasureArg::ModeOot => ("mode oot", LexMeasure::ModeOot),
            LexMeasureArg::NewBest => ("new best", LexMeasure::NewBest),
            LexMeasureArg::Best1 => ("best-1", LexMeasure::Best1),
            LexMeasureArg::Recall => ("weighted recall", LexMeasure::Recall),
            LexMeasureArg::Rank => ("rank", LexMeasure::Rank),
            LexMeasureArg::Gap => ("GAP", LexMeasure::Gap),
            LexMeasureArg::P1 => ("P@1", LexMeasure::PrecisionAt(one)),
            LexMeasureArg::R10 => ("R@10", LexMeasure::RecallAt(ten)),
        };
        let columns: Vec<(String, Vec<(String, f64)>)> = names
            .iter()
            .zip(&corpora)
            .map(|(n, c)| {
                let credits = c
                    .item_scores(measure)
                    .into_iter()
                    .filter_map(|s| match s.outcome {
                        ItemOutcome::Scored(v) => Some((s.id, v)),
                        ItemOutcome::NotAttempted => Some((s.id, 0.0)),
                        ItemOutcome::NotApplicable => None,
                    })
                    .collect();
                (n.clone(), credits)
            })
            .collect();
        let keyed: Vec<(&str, &[(String, f64)])> = columns
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_slice()))
            .collect();
        let table =
            ScoreTable::from_keyed(&keyed, Missing::Error).map_err(|e| Failure::from_error(&e))?;
        let c = compare
            .units_seeded(&table, a.options.seed)
            .map_err(|e| Failure::from_error(&e))?;
        comparisons.push((label.to_owned(), c));
        bar.inc(1);
    }
    drop(bar);
    let _ = out;
    Results::corrected(comparisons, Vec::new(), &a.options, FamilyArg::Measure)
}

/// A CSV table of scores, units by systems.
pub fn table(a: &TableArgs, ctx: &Ctx, out: &mut Out) -> Outcome<Results> {
    let _ = (ctx, out);
    let delimiter = u8::try_from(a.delimiter)
        .map_err(|_| Failure::usage("--delimiter must be one ASCII character"))?;
    let bytes = input::read(&a.file)?;
    let text = String::from_utf8_lossy(&bytes);
    let header_line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .ok_or_else(|| Failure::new("the file is empty").file(&a.file))?;
    let header: Vec<String> = header_line
        .trim_start_matches('\u{feff}')
        .split(char::from(delimiter))
        .map(|h| h.trim().trim_matches('"').to_owned())
        .collect();
    if let Some(u) = &a.unit
        && !header.contains(u)
    {
        return Err(Failure::usage(format!(
            "--unit {}: no such column; the columns are {}",
            crate::error::echo(u),
            header.join(", ")
        )));
    }
    let systems: Vec<&str> = header
        .iter()
        .map(String::as_str)
        .filter(|h| Some(*h) != a.unit.as_deref())
        .collect();
    let columns = input::parse_columns(&bytes, &systems, delimiter).map_err(|f| f.file(&a.file))?;
    let named: Vec<(&str, &[f64])> = systems
        .iter()
        .zip(&columns.values)
        .map(|(n, v)| (*n, v.as_slice()))
        .collect();
    let mut table = ScoreTable::from_columns(&named).map_err(|e| Failure::from_error(&e))?;
    if let Some(u) = &a.unit {
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .from_reader(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes));
        let index = header.iter().position(|h| h == u).unwrap_or(0);
        let names: Vec<String> = reader
            .records()
            .filter_map(Result::ok)
            .filter(|r| !r.iter().all(|f| f.trim().is_empty()))
            .map(|r| r.get(index).unwrap_or("").trim().to_owned())
            .collect();
        table = table
            .with_unit_names(names)
            .map_err(|e| Failure::from_error(&e).file(&a.file))?;
    }
    let names: Vec<String> = systems.iter().map(|s| (*s).to_owned()).collect();
    let compare = a.options.compare(&names)?;
    let order = if a.smaller_is_better {
        Order::SmallerIsBetter
    } else {
        Order::LargerIsBetter
    };
    let c = compare
        .units_seeded(&table, a.options.seed)
        .map_err(|e| Failure::from_error(&e))?;
    let f = friedman(&table, order, a.options.alpha).map_err(|e| Failure::from_error(&e))?;
    let heading = name_of(&a.file);
    Results::corrected(
        vec![(heading.clone(), c)],
        vec![(heading, f)],
        &a.options,
        FamilyArg::Measure,
    )
}
