//! `acm compare`: which systems differ, and how sure. Several TREC runs,
//! embedding models or substitution systems scored on the same units,
//! every pair (or each against a baseline) tested, corrected for multiple
//! testing, with intervals and effect sizes; many systems over many
//! benchmarks with Friedman's test and Nemenyi's critical difference. The
//! statistics are the library's `uncertainty::compare`; this module reads
//! the files and prints.

mod measures;
mod plot;
mod sources;
mod trec;

use std::path::PathBuf;

use adaptive_comp_metrics::uncertainty::compare::{
    Cells, Compare, Comparison, Correction, Friedman, IntervalMethod, Pairs, Test, Wilcoxon,
    WilcoxonMethod, ZeroMethod, correct_jointly,
};
use adaptive_comp_metrics::uncertainty::{Alternative, Interval};
use serde_json::json;

use crate::error::{Failure, Outcome};
use crate::output::{Ctx, Out, Table};
use crate::params::open_unit;

const AFTER: &str = "\
Every pair of systems is tested (or each against --baseline), the p-values corrected over the
pairs of each measure (--family all: over every comparison of the run), and each system printed
with its mean, its interval and the letters of the systems it is significantly better than (as
ranx's report, but corrected), then every pair: difference, interval, Cohen's d_z and Hedges' g_z,
wins/ties/losses, statistic, p and adjusted p.

Tests: randomisation (Fisher's sign flips: all 2^n for n <= --exact-up-to units, else
--replicates random ones, (b+1)/(m+1)), t (paired t-test), wilcoxon (SciPy's zero and tie
handling), bootstrap (paired, shift method). Corrections: statsmodels' multipletests names
(holm, hommel, hochberg, bonferroni, sidak, holm-sidak, fdr_bh, fdr_by, fdr_tsbh, fdr_tsbky,
fdr_gbs) or none. Results are the same for a --seed on any number of threads.

Examples:
  acm compare trec qrels.txt bm25.run dense.run hybrid.run -m nDCG@10 -m AP -m 'P(rel=2)@5'
  acm compare trec qrels.txt a.run b.run c.run --baseline a.run --test t --format markdown
  acm compare wordsim --vectors glove.vec --vectors w2v.bin SimLex-999.txt MEN.txt
  acm compare lexsub gold.txt system1.best system2.best --measure best --measure gap
  acm compare table leaderboard.csv --unit task --format latex
  acm compare table leaderboard.csv --plot differences.svg --plot-cd ranks.svg";

/// Compares systems: paired tests, corrections, intervals, effect sizes, Friedman.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// What is compared.
    #[command(subcommand)]
    pub source: Source,
}

/// Where the scores come from.
#[derive(Debug, clap::Subcommand)]
pub enum Source {
    Trec(trec::Args),
    Wordsim(sources::WordsimArgs),
    Lexsub(sources::LexsubArgs),
    Table(sources::TableArgs),
}

/// The test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TestArg {
    /// Fisher's randomisation (sign-flip) test.
    Randomisation,
    /// The paired t-test.
    T,
    /// Wilcoxon's signed-rank test.
    Wilcoxon,
    /// The paired bootstrap test.
    Bootstrap,
}

/// The intervals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IntervalArg {
    /// Student's t interval of a mean.
    Student,
    /// The paired bootstrap, percentile.
    Percentile,
    /// The paired bootstrap, bias-corrected and accelerated.
    Bca,
}

/// The alternative hypothesis about a − b.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlternativeArg {
    TwoSided,
    Greater,
    Less,
}

/// Which p-values are corrected together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FamilyArg {
    /// The pairs of each measure (benchmark, coefficient) apart.
    Measure,
    /// Every pair of every comparison of the run together.
    All,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// Aligned text.
    Table,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// LaTeX tabulars (booktabs).
    Latex,
    /// One CSV row per pair.
    Csv,
    /// One JSON document with every number.
    Json,
}

/// The options shared by every source.
#[derive(Debug, Clone, clap::Args)]
pub struct Options {
    /// The test of each pair.
    #[arg(long, value_enum, default_value_t = TestArg::Randomisation)]
    pub test: TestArg,
    /// The multiple-testing correction (statsmodels' multipletests names, or none).
    #[arg(long, default_value = "holm", value_parser = parse_correction)]
    pub correction: Correction,
    /// Which p-values are corrected together (default: measure; all for wordsim).
    #[arg(long, value_enum)]
    pub family: Option<FamilyArg>,
    /// Significance level of the decisions.
    #[arg(long, default_value_t = 0.05, value_parser = open_unit)]
    pub alpha: f64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = 0.95, value_parser = open_unit)]
    pub level: f64,
    /// The intervals (default: student for means, bca for the bootstrap test and coefficients).
    #[arg(long, value_enum)]
    pub interval: Option<IntervalArg>,
    /// The alternative hypothesis about a − b.
    #[arg(long, value_enum, default_value_t = AlternativeArg::TwoSided)]
    pub alternative: AlternativeArg,
    /// Random permutations or bootstrap resamples.
    #[arg(long, default_value_t = 10_000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(2..=(1 << 27)))]
    pub replicates: u64,
    /// Seed of the permutations and resamples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Compare every system with this one only (its name as printed).
    #[arg(long, value_name = "SYSTEM")]
    pub baseline: Option<String>,
    /// Randomisation: enumerate all 2^n sign flips up to this many units.
    #[arg(long, default_value_t = 20, value_name = "N",
          value_parser = clap::value_parser!(u64).range(0..=60))]
    pub exact_up_to: u64,
    /// Wilcoxon: zeros dropped (wilcox), ranked (pratt) or split (zsplit).
    #[arg(long, value_enum, default_value_t = ZeroArg::Wilcox)]
    pub zero_method: ZeroArg,
    /// Wilcoxon: how the p-value is computed.
    #[arg(long, value_enum, default_value_t = WilcoxonMethodArg::Auto)]
    pub wilcoxon_method: WilcoxonMethodArg,
    /// Wilcoxon: the continuity correction of the normal approximation.
    #[arg(long)]
    pub continuity: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,
    /// Decimals of the printed numbers.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(0..=12))]
    pub decimals: u8,
    /// Draw the forest plot of the corrected differences as SVG: every pair's difference with its
    /// interval, filled where the correction rejects, one panel per measure (benchmark and
    /// coefficient). Example: --plot differences.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Draw Demšar's critical-difference diagram of Friedman's test as SVG (`table`, or `wordsim`
    /// on two or more benchmarks: one panel per coefficient). Example: --plot-cd ranks.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot_cd: Option<PathBuf>,
}

/// Wilcoxon's zero handling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ZeroArg {
    Wilcox,
    Pratt,
    Zsplit,
}

/// Wilcoxon's p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WilcoxonMethodArg {
    Auto,
    Exact,
    Asymptotic,
    Permutation,
}

fn parse_correction(s: &str) -> Result<Correction, String> {
    Correction::from_name(s).map_err(|e| e.to_string())
}

impl Options {
    /// The library's settings, with the baseline's index among `names`.
    fn compare(&self, names: &[String]) -> Outcome<Compare> {
        let test = match self.test {
            TestArg::Randomisation => Test::Randomisation,
            TestArg::T => Test::PairedT,
            TestArg::Bootstrap => Test::Bootstrap,
            TestArg::Wilcoxon => Test::Wilcoxon(
                Wilcoxon::new()
                    .zero_method(match self.zero_method {
                        ZeroArg::Wilcox => ZeroMethod::Wilcox,
                        ZeroArg::Pratt => ZeroMethod::Pratt,
                        ZeroArg::Zsplit => ZeroMethod::Zsplit,
                    })
                    .method(match self.wilcoxon_method {
                        WilcoxonMethodArg::Auto => WilcoxonMethod::Auto,
                        WilcoxonMethodArg::Exact => WilcoxonMethod::Exact,
                        WilcoxonMethodArg::Asymptotic => WilcoxonMethod::Asymptotic,
                        WilcoxonMethodArg::Permutation => WilcoxonMethod::Permutation,
                    })
                    .correction(self.continuity),
            ),
        };
        let mut c = Compare::new()
            .test(test)
            .correction(self.correction)
            .alpha(self.alpha)
            .level(self.level)
            .replicates(usize::try_from(self.replicates).unwrap_or(usize::MAX))
            .exact_up_to(self.exact_up_to as usize)
            .alternative(match self.alternative {
                AlternativeArg::TwoSided => Alternative::TwoSided,
                AlternativeArg::Greater => Alternative::Greater,
                AlternativeArg::Less => Alternative::Less,
            });
        if let Some(i) = self.interval {
            c = c.interval(match i {
                IntervalArg::Student => IntervalMethod::Student,
                IntervalArg::Percentile => IntervalMethod::Bootstrap(Interval::Percentile),
                IntervalArg::Bca => IntervalMethod::Bootstrap(Interval::Bca),
            });
        }
        if let Some(base) = &self.baseline {
            let index = names.iter().position(|n| n == base).ok_or_else(|| {
                Failure::usage(format!(
                    "--baseline {}: no such system; the systems are {}",
                    crate::error::echo(base),
                    names.join(", ")
                ))
            })?;
            c = c.pairs(Pairs::Baseline(index));
        }
        Ok(c)
    }
}

/// Runs the subcommand.
///
/// # Errors
/// A file that cannot be read, a wrong option, a failed comparison.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    plot::check(&a.source)?;
    let results = match &a.source {
        Source::Trec(args) => trec::run(args, ctx, out)?,
        Source::Wordsim(args) => sources::wordsim(args, ctx, out)?,
        Source::Lexsub(args) => sources::lexsub(args, ctx, out)?,
        Source::Table(args) => sources::table(args, ctx, out)?,
    };
    plot::draw(&results)?;
    print(results, out)
}

/// What a source produced: the comparisons (one per measure, benchmark or
/// coefficient), Friedman's tests where there are several benchmarks, and
/// the options.
#[derive(Debug)]
pub struct Results {
    /// `(heading, comparison)`.
    pub comparisons: Vec<(String, Comparison)>,
    /// `(heading, test)`.
    pub friedman: Vec<(String, Friedman)>,
    /// The printing options.
    pub options: Options,
    /// Whether every comparison has the same systems (a report side by side).
    pub same_systems: bool,
}

impl Results {
    /// The results of a source, of the same systems throughout, with the
    /// family's correction applied (`default` unless `--family` is given).
    fn corrected(
        comparisons: Vec<(String, Comparison)>,
        friedman: Vec<(String, Friedman)>,
        options: &Options,
        default: FamilyArg,
    ) -> Outcome<Self> {
        let mut results = Self {
            comparisons,
            friedman,
            options: options.clone(),
            same_systems: true,
        };
        results.correct(default)?;
        Ok(results)
    }

    /// Applies the family's correction (for `All`, jointly).
    fn correct(&mut self, default: FamilyArg) -> Outcome {
        if self.options.family.unwrap_or(default) == FamilyArg::All {
            let mut all: Vec<Comparison> =
                self.comparisons.iter().map(|(_, c)| c.clone()).collect();
            correct_jointly(&mut all, self.options.correction, self.options.alpha)
                .map_err(|e| Failure::from_error(&e))?;
            for ((_, c), joint) in self.comparisons.iter_mut().zip(all) {
                *c = joint;
            }
        }
        Ok(())
    }
}

/// Prints the results in the format asked for.
fn print(results: Results, out: &mut Out) -> Outcome {
    let d = usize::from(results.options.decimals);
    let comparisons = &results.comparisons;
    match results.options.format {
        CompareFormat::Json => {
            let doc = json!({
                "comparisons": comparisons.iter().map(|(m, c)| json!({"measure": m, "comparison": c})).collect::<Vec<_>>(),
                "friedman": results.friedman.iter().map(|(m, f)| json!({"measure": m, "test": f})).collect::<Vec<_>>(),
            });
            out.json(&doc)
        }
        CompareFormat::Csv => {
            let mut t = Table::new(
                &[
                    "measure",
                    "a",
                    "b",
                    "difference",
                    "lower",
                    "upper",
                    "cohens_dz",
                    "hedges_gz",
                    "wins",
                    "ties",
                    "losses",
                    "statistic",
                    "p",
                    "adjusted_p",
                    "reject",
                ],
                3,
            );
            let num = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
            for (m, c) in comparisons {
                for p in &c.pairs {
                    let e = p.effect;
                    let r = p.record;
                    t.row(vec![
                        m.clone(),
                        c.systems[p.a].name.clone(),
                        c.systems[p.b].name.clone(),
                        p.difference.to_string(),
                        num(p.interval.map(|i| i.lower)),
                        num(p.interval.map(|i| i.upper)),
                        num(e.and_then(|e| e.cohens_dz)),
                        num(e.and_then(|e| e.hedges_gz)),
                        r.map_or_else(String::new, |r| r.wins.to_string()),
                        r.map_or_else(String::new, |r| r.ties.to_string()),
                        r.map_or_else(String::new, |r| r.losses.to_string()),
                        p.statistic.to_string(),
                        p.p_value.to_string(),
                        p.adjusted_p_value.to_string(),
                        p.reject.to_string(),
                    ]);
                }
            }
            t.write(crate::output::Format::Csv, out)
        }
        format => {
            let render = |cells: &Cells| match format {
                CompareFormat::Markdown => cells.markdown(),
                CompareFormat::Latex => cells.latex(),
                _ => cells.text(),
            };
            let heading = |title: &str| match format {
                CompareFormat::Markdown => format!("### {title}\n\n"),
                CompareFormat::Latex => format!("% {title}\n"),
                _ => format!("{title}\n\n"),
            };
            let mut text = String::new();
            if results.same_systems && comparisons.len() > 1 {
                let named: Vec<(&str, &Comparison)> =
                    comparisons.iter().map(|(m, c)| (m.as_str(), c)).collect();
                text.push_str(&heading("systems"));
                text.push_str(&render(&Cells::report(&named, d, true)));
                text.push('\n');
            }
            for (m, c) in comparisons {
                if !(results.same_systems && comparisons.len() > 1) {
                    text.push_str(&heading(m));
                    text.push_str(&render(&Cells::systems(c, d)));
                    text.push('\n');
                }
                text.push_str(&heading(&format!("{m}: pairs")));
                // The note (what the letters mark) belongs to the systems' table.
                let mut pairs = Cells::pairs(c, d);
                pairs.note.clear();
                text.push_str(&render(&pairs));
                text.push('\n');
            }
            for (m, f) in &results.friedman {
                text.push_str(&heading(&format!(
                    "{m}: Friedman's test and the critical difference"
                )));
                text.push_str(&render(&friedman_cells(f, d)));
                text.push('\n');
            }
            out.bytes(text.trim_end().as_bytes())?;
            writeln!(out)
        }
    }
}

/// Friedman's test as cells: the systems by average rank with their groups,
/// the statistic and the critical difference in the note.
fn friedman_cells(f: &Friedman, d: usize) -> Cells {
    let mut cells = Cells::default();
    cells.header = ["rank", "system", "average rank", "groups"]
        .map(str::to_owned)
        .to_vec();
    cells.left = 2;
    for (i, &s) in f.order.iter().enumerate() {
        let groups: Vec<String> = f
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.contains(&s))
            .map(|(g, _)| (g + 1).to_string())
            .collect();
        cells.rows.push(vec![
            (i + 1).to_string(),
            f.systems[s].clone(),
            format!("{:.d$}", f.average_ranks[s]),
            groups.join(" "),
        ]);
    }
    let p = if f.p_value > 0.0 {
        format!("{:.3e}", f.p_value)
    } else {
        format!("e^{:.1}", f.ln_p_value)
    };
    cells.note = format!(
        "Friedman chi2 = {:.d$}, df {}, p = {p} over {} units; Nemenyi critical difference \
         {:.d$} at alpha {} (q = {:.d$}); a group: systems whose average ranks differ by less",
        f.statistic, f.df, f.units, f.critical_difference, f.alpha, f.q_alpha
    );
    cells
}

/// Input paths that name systems: the file names, or the paths when two
/// file names are the same.
pub fn system_names(paths: &[PathBuf]) -> Vec<String> {
    let names: Vec<String> = paths
        .iter()
        .map(|p| crate::commands::wordsim::name_of(p))
        .collect();
    let unique = names
        .iter()
        .enumerate()
        .all(|(i, n)| !names[..i].contains(n));
    if unique {
        names
    } else {
        paths.iter().map(|p| p.display().to_string()).collect()
    }
}
