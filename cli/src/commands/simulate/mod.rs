//! `acm simulate`: the voter simulator of Lombardo et al. (2020), §4:
//! Table 2 reproduced, and sweeps of (α, n_b) at a fixed budget.

mod plot;
pub mod script;

use std::path::PathBuf;
use std::time::Instant;

use adaptive_comp_metrics::ballot::{BallotConfig, Options, UniformBudget};
use adaptive_comp_metrics::simulate::{
    Arm, FitModel, Metric, PowerLaw, Report, Simulation, Summary, Underlying, VoterModel, sweep,
};
use serde_json::json;

use crate::error::{Failure, Outcome};
use crate::output::{Ctx, Format, Out, Table};
use crate::progress::Progress;

/// Simulated crowd vote collections: Table 2 of Lombardo et al. (2020), and sweeps.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  acm simulate table2
  acm simulate table2 --simulations 400 --seed 7 --format csv
  acm simulate sweep --budget 40000 --alpha 0.3,0.5,0.7 --ballots 3,5,7 --simulations 20
  acm simulate table2 --plot table2.svg")]
pub struct Args {
    /// What to simulate.
    #[command(subcommand)]
    pub command: What,
}

/// The simulations.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    Table2(Table2Args),
    Sweep(SweepArgs),
}

/// Reproduces Table 2: uniform against adaptive collection, 990 items, M = 20, α = 0.5, n_b = 7,
/// 100 voters; as published (with z-scores against the paper) and corrected.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Block (a) follows the code that produced Table 2 (its departures from the text are listed in the
crate's ballot module docs), with the published script's misaligned metrics rebuilt; each cell is
printed beside the paper's mean ± SD with z = (ours − paper)/√(SD_paper²/50 + SD_ours²/S), |z| ≤ 3
counting as a match. Block (b) follows the paper's text; the paper's numbers are shown for
reference. All three distributions use the same seed, so the same crowds.

--estimators borda,bt,noisy-bt adds block (c): Bradley–Terry (bt) and noisy Bradley–Terry
(noisy-bt, a reliability per voter) fitted to block (b)'s votes (a Gaussian prior N(0, SD²) on the
scores, --model-prior-sd), next to the paper's estimator (borda: ȳ adaptive, x uniform) on the same
votes, with the paired difference model − ȳ as mean ± standard error over the simulations. In CSV
a model's rows have block bt or noisy-bt, paper_mean/paper_sd ȳ's figures on the same votes, and z
the paired difference over its standard error; JSON has them under models.
What it showed at --simulations 200 (seed 2020): both models rank the adaptive collection's items
better than ȳ on all four metrics and all three distributions (τ_w by +0.10 to +0.43, ρ_w by
+0.014 to +0.024), and the uniform one better on ρ_w, ρ and τ (τ_w: within noise); noisy-bt is
bt's equal or better in all but one cell. The fits make the run about 13 times as long (the table, its command and the
timing: the crate's simulate module docs).

Examples:
  acm simulate table2
  acm simulate table2 --simulations 400 --seed 7
  acm simulate table2 --format json > table2.json
  acm simulate table2 --simulations 20 --estimators borda,bt,noisy-bt
  acm simulate table2 --plot table2.svg")]
pub struct Table2Args {
    /// Simulations per row (at least 2: every cell is a mean ± standard deviation).
    #[arg(long, short = 's', default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub simulations: u32,
    #[command(flatten)]
    pub run: RunArgs,
    /// The estimators of block (c), fitted to block (b)'s votes (borda alone: no block (c)).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "borda")]
    pub estimators: Vec<EstimatorArg>,
    /// SD of the fitted models' Gaussian prior on the scores.
    #[arg(long, default_value_t = 2.0, value_name = "SD")]
    pub model_prior_sd: f64,
    /// Draw block (a) as SVG: a panel per metric, this crate's mean ± SD against the paper's
    /// value for each distribution and approach. Example: --plot table2.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// What `table2` and `sweep` share: the seed of the crowds and the output
/// format.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The seed.
    #[arg(long, default_value_t = 2020)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// An estimator of the ranking from a collection's votes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EstimatorArg {
    /// The paper's: ȳ at the last ballot reached (adaptive), x (uniform).
    Borda,
    /// Bradley–Terry fitted to every vote.
    Bt,
    /// Noisy Bradley–Terry (a reliability per voter) fitted to every vote.
    NoisyBt,
}

/// The similarity distribution of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Distribution {
    /// Exponential similarities.
    Exponential,
    /// The paper's power law.
    PowerLaw,
    /// The embedding similarities of the paper's same-area sample (990 items).
    Embedding,
}

/// The metric a sweep maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricArg {
    /// ρ_w (Eq. 8).
    RhoW,
    /// τ_w (Eq. 8).
    TauW,
    /// Spearman's ρ.
    Rho,
    /// Kendall's τ-b.
    Tau,
}

/// Sweeps α × n_b at a fixed budget of comparisons (M the largest that fits), maximising a metric
/// of the adaptive collection (the open question of §2.7).
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Every grid point sees the same crowds (common random numbers), so differences between points are
not blurred by crowd-to-crowd variation. Points within 2 combined standard errors of the best are
marked as indistinguishable from it.

Examples:
  acm simulate sweep --budget 40000 --alpha 0.3,0.5,0.7 --ballots 3,5,7 --simulations 20
  acm simulate sweep --budget 40000 --alpha 0.3,0.5,0.7 --ballots 3,5,7 --plot sweep.svg")]
pub struct SweepArgs {
    /// The budget of comparisons N_comp.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// The values of α (comma-separated, each in (0, 1)).
    #[arg(long, value_delimiter = ',', required = true, value_parser = crate::params::open_unit)]
    pub alpha: Vec<f64>,
    /// The values of n_b (comma-separated, each ≥ 1).
    #[arg(long, value_delimiter = ',', required = true,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub ballots: Vec<u32>,
    /// Number of items N (not for the embedding distribution: 990).
    #[arg(long, default_value_t = 990, value_parser = clap::value_parser!(u32).range(3..=1_000_000))]
    pub items: u32,
    /// The similarity distribution.
    #[arg(long, value_enum, default_value_t = Distribution::Exponential)]
    pub distribution: Distribution,
    /// The metric to maximise.
    #[arg(long, value_enum, default_value_t = MetricArg::RhoW)]
    pub metric: MetricArg,
    /// Number of voters.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub voters: u32,
    /// Simulations per grid point (at least 2).
    #[arg(long, short = 's', default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub simulations: u32,
    #[command(flatten)]
    pub run: RunArgs,
    /// Draw the sweep as an SVG heat map of the metric's mean, α down and n_b across.
    /// Example: --plot sweep.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// Runs the simulation asked for.
///
/// # Errors
/// A failed simulation.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    match &a.command {
        What::Table2(t) => table2(t, ctx, out),
        What::Sweep(s) => run_sweep(s, ctx, out),
    }
}

/// Table 2 of Lombardo et al. (2020), mean and SD over 50 simulations: rows
/// exponential / power law / embedding (same-area), each uniform then
/// adaptive; columns ρ_w, τ_w, ρ, τ. Source: Lombardo et al. (2020), Table 2.
const PAPER: [[(f64, f64); 4]; 6] = [
    [
        (0.778, 0.058),
        (-0.11, 0.20),
        (0.8097, 0.0088),
        (0.6265, 0.0091),
    ],
    [
        (0.9452, 0.0028),
        (0.66, 0.17),
        (0.8015, 0.0087),
        (0.6330, 0.0098),
    ],
    [
        (0.800, 0.062),
        (-0.11, 0.20),
        (0.9713, 0.0013),
        (0.8491, 0.0035),
    ],
    [
        (0.9800, 0.0014),
        (0.63, 0.18),
        (0.9632, 0.0019),
        (0.8406, 0.0040),
    ],
    [
        (0.741, 0.058),
        (-0.11, 0.21),
        (0.7229, 0.0078),
        (0.5463, 0.0072),
    ],
    [
        (0.9146, 0.0042),
        (0.73, 0.12),
        (0.7258, 0.0093),
        (0.5611, 0.0097),
    ],
];
const PAPER_RUNS: usize = 50;
const METRICS: [&str; 4] = ["rho_w", "tau_w", "rho", "tau"];

fn distributions(power_law: PowerLaw) -> Outcome<Vec<(&'static str, Underlying)>> {
    Ok(vec![
        ("exponential", Underlying::exponential(990)?),
        ("power law", Underlying::power_law(990, power_law)?),
        ("embedding", Underlying::same_area()?),
    ])
}

/// One block's choices: the paper's text or the published code.
struct Profile {
    power_law: PowerLaw,
    options: Options,
    voters: VoterModel,
    uniform: UniformBudget,
    metrics: Vec<Metric>,
}

/// One printed cell: block, distribution, arm, metric, paper's mean and
/// SD, ours, and z (block a) or the difference (block b).
struct Cell {
    block: &'static str,
    distribution: &'static str,
    approach: &'static str,
    metric: &'static str,
    paper: (f64, f64),
    ours: (f64, f64),
    z: Option<f64>,
}

fn cells(block: &'static str, reports: &[(&'static str, Report)], with_z: bool) -> Vec<Cell> {
    let mut out = Vec::new();
    for (d, (name, report)) in reports.iter().enumerate() {
        for (a, arm) in [Arm::Uniform, Arm::Adaptive].into_iter().enumerate() {
            for (m, metric) in METRICS.iter().enumerate() {
                let (pm, psd) = PAPER[2 * d + a][m];
                let Some(s) = report.get(arm, metric) else {
                    continue;
                };
                out.push(Cell {
                    block,
                    distribution: name,
                    approach: if a == 0 { "uniform" } else { "adaptive" },
                    metric,
                    paper: (pm, psd),
                    ours: (s.mean, s.sd),
                    z: if with_z {
                        s.z_score(pm, psd, PAPER_RUNS)
                    } else {
                        None
                    },
                });
            }
        }
    }
    out
}

fn print_block(out: &mut Out, title: &str, note: &str, cells: &[Cell], with_z: bool) -> Outcome {
    writeln!(out, "\n{title}")?;
    writeln!(out, "{note}")?;
    writeln!(
        out,
        "{:<12} {:<9} {:<7} {:>17} {:>17} {:>8}",
        "distribution",
        "approach",
        "metric",
        "paper",
        "this crate",
        if with_z { "z" } else { "Δ" }
    )?;
    for c in cells {
        let ours = format!("{:.4} ± {:.4}", c.ours.0, c.ours.1);
        let paper = format!("{:.4} ± {:.4}", c.paper.0, c.paper.1);
        let (name, arm, metric) = (c.distribution, c.approach, c.metric);
        if with_z {
            match c.z {
                Some(z) => writeln!(
                    out,
                    "{name:<12} {arm:<9} {metric:<7} {paper:>17} {ours:>17} {z:>+8.2} {}",
                    if z.abs() <= 3.0 { "ok" } else { "OUTSIDE 3σ" }
                )?,
                None => writeln!(
                    out,
                    "{name:<12} {arm:<9} {metric:<7} {paper:>17} {ours:>17} {:>8} undefined (both SDs are 0)",
                    "n/a"
                )?,
            }
        } else {
            writeln!(
                out,
                "{name:<12} {arm:<9} {metric:<7} {paper:>17} {ours:>17} {:>+8.4}",
                c.ours.0 - c.paper.0
            )?;
        }
    }
    Ok(())
}

/// `acm simulate table2`.
/// One cell of block (c): a fitted model's metric next to ȳ's on the same
/// votes, and their paired difference.
struct ModelRow {
    model: FitModel,
    distribution: &'static str,
    approach: &'static str,
    metric: &'static str,
    y_bar: Summary,
    fitted: Summary,
    /// model − ȳ, simulation by simulation.
    difference: Summary,
}

impl ModelRow {
    /// The paired difference over its standard error (`None` when every
    /// difference is the same).
    fn paired_z(&self) -> Option<f64> {
        (self.difference.se > 0.0).then(|| self.difference.mean / self.difference.se)
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "model": self.model.name(),
            "distribution": self.distribution,
            "approach": self.approach,
            "metric": self.metric,
            "y_bar_mean": self.y_bar.mean,
            "y_bar_sd": self.y_bar.sd,
            "mean": self.fitted.mean,
            "sd": self.fitted.sd,
            "difference_mean": self.difference.mean,
            "difference_se": self.difference.se,
        })
    }
}

/// Block (c)'s cells: every fitted model of every report, arm and metric.
fn model_rows(reports: &[(&'static str, Report)]) -> Vec<ModelRow> {
    let mut rows = Vec::new();
    for (name, report) in reports {
        for m in &report.models {
            for (approach, arm) in [("uniform", Arm::Uniform), ("adaptive", Arm::Adaptive)] {
                for metric in METRICS {
                    let (Some(y), Some(f)) = (
                        report.get(arm, metric),
                        report.get_model(m.model, arm, metric),
                    ) else {
                        continue;
                    };
                    let d: Vec<f64> = f.values.iter().zip(&y.values).map(|(a, b)| a - b).collect();
                    let Ok(difference) = Summary::of(&d) else {
                        continue;
                    };
                    rows.push(ModelRow {
                        model: m.model,
                        distribution: name,
                        approach,
                        metric,
                        y_bar: y.clone(),
                        fitted: f.clone(),
                        difference,
                    });
                }
            }
        }
    }
    rows
}

fn print_models(out: &mut Out, rows: &[ModelRow], sd: f64, simulations: usize) -> Outcome {
    writeln!(
        out,
        "\n(c) fitted models on (b)'s votes (Gaussian prior SD {sd} on the scores), next to ȳ"
    )?;
    writeln!(
        out,
        "model − ȳ: the paired difference, mean ± standard error over the {simulations} simulations"
    )?;
    writeln!(
        out,
        "{:<12} {:<9} {:<7} {:<9} {:>17} {:>17} {:>19}",
        "distribution", "approach", "metric", "model", "ȳ (x uniform)", "model", "model − ȳ"
    )?;
    for r in rows {
        let y = format!("{:.4} ± {:.4}", r.y_bar.mean, r.y_bar.sd);
        let f = format!("{:.4} ± {:.4}", r.fitted.mean, r.fitted.sd);
        let d = format!("{:+.4} ± {:.4}", r.difference.mean, r.difference.se);
        writeln!(
            out,
            "{:<12} {:<9} {:<7} {:<9} {y:>17} {f:>17} {d:>19}",
            r.distribution,
            r.approach,
            r.metric,
            r.model.name()
        )?;
    }
    Ok(())
}

fn table2(a: &Table2Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    if let Some(path) = &a.plot {
        crate::plot::check(path)?;
    }
    let simulations = a.simulations as usize;
    let seed = a.run.seed;
    let mut models = Vec::new();
    for e in &a.estimators {
        let m = match e {
            EstimatorArg::Borda => continue,
            EstimatorArg::Bt => FitModel::Bt,
            EstimatorArg::NoisyBt => FitModel::NoisyBt,
        };
        if !models.contains(&m) {
            models.push(m);
        }
    }
    let start = Instant::now();
    let bar = Progress::new(ctx, 6, "Table 2");
    let run = |profile: &Profile,
               block: &str,
               models: &[FitModel]|
     -> Outcome<Vec<(&'static str, Report)>> {
        let mut reports = Vec::new();
        for (name, z) in distributions(profile.power_law)? {
            bar.message(format!(
                "Table 2 ({block}): {name}, {simulations} simulations"
            ));
            let config = BallotConfig::with_options(990, 20, 0.5, 7, profile.options)?;
            let sim = Simulation::new(z, config)?
                .voters(profile.voters.clone())
                .uniform_budget(profile.uniform)
                .metrics(profile.metrics.clone())
                .models(models.to_vec())?
                .model_prior_sd(a.model_prior_sd)
                .map_err(|e| {
                    Failure::usage(e.to_string().replace("model_prior_sd", "--model-prior-sd"))
                })?;
            reports.push((name, sim.run(simulations, seed)?));
            bar.inc(1);
        }
        Ok(reports)
    };
    let published = run(
        &Profile {
            power_law: PowerLaw::Published,
            options: Options::published(),
            voters: VoterModel::published(),
            uniform: UniformBudget::RoundedAppearances,
            metrics: script::script_metrics(),
        },
        "a",
        &[],
    )?;
    let time_a = start.elapsed();
    let corrected = run(
        &Profile {
            power_law: PowerLaw::Paper,
            options: Options::paper(),
            voters: VoterModel::paper(),
            uniform: UniformBudget::SameComparisons,
            metrics: Metric::table2(),
        },
        "b",
        &models,
    )?;
    drop(bar);
    let total = start.elapsed();
    let a_cells = cells("as_published", &published, true);
    let b_cells = cells("corrected", &corrected, false);
    let c_rows = model_rows(&corrected);
    if let Some(path) = &a.plot {
        plot::table2(path, &a_cells, simulations)?;
    }
    let r = &published
        .first()
        .ok_or_else(|| Failure::new("no simulation"))?
        .1;
    match a.run.format {
        Format::Table => {
            writeln!(
                out,
                "Table 2 of Lombardo et al. (2020): {simulations} simulations per row (seed {seed}); \
                 comparisons per simulation: uniform {}, adaptive {}",
                r.uniform_comparisons, r.adaptive_comparisons
            )?;
            print_block(
                out,
                "(a) as published (the script's profile and its misaligned metrics)",
                &format!(
                    "z = (this crate − paper)/√(SD_paper²/{PAPER_RUNS} + SD_ours²/{simulations}): \
                     the gap between the two means in standard errors; |z| ≤ 3 counts as a match"
                ),
                &a_cells,
                true,
            )?;
            let within = a_cells
                .iter()
                .filter(|c| c.z.is_some_and(|z| z.abs() <= 3.0))
                .count();
            let worst = a_cells
                .iter()
                .filter_map(|c| c.z)
                .fold(0.0_f64, |w, z| w.max(z.abs()));
            writeln!(
                out,
                "{within}/24 cells within 3σ of the paper (largest |z| = {worst:.2})"
            )?;
            print_block(
                out,
                "(b) corrected (the paper's model, rankings compared item by item)",
                "the paper's numbers come from the published script of (a): they are shown for \
                 reference, not expected to match; Δ = this crate − paper",
                &b_cells,
                false,
            )?;
            if !c_rows.is_empty() {
                print_models(out, &c_rows, a.model_prior_sd, simulations)?;
            }
            writeln!(
                out,
                "\n{} simulations (uniform + adaptive each) in {:.2} s ((a) {:.2} s) on {} threads",
                6 * simulations,
                total.as_secs_f64(),
                time_a.as_secs_f64(),
                std::thread::available_parallelism().map_or(1, usize::from)
            )
        }
        Format::Csv | Format::Json => {
            let mut t = Table::new(
                &[
                    "block",
                    "distribution",
                    "approach",
                    "metric",
                    "paper_mean",
                    "paper_sd",
                    "mean",
                    "sd",
                    "z",
                ],
                4,
            );
            for c in a_cells.iter().chain(&b_cells) {
                t.row(vec![
                    c.block.to_owned(),
                    c.distribution.to_owned(),
                    c.approach.to_owned(),
                    c.metric.to_owned(),
                    c.paper.0.to_string(),
                    c.paper.1.to_string(),
                    c.ours.0.to_string(),
                    c.ours.1.to_string(),
                    c.z.map_or_else(String::new, |z| z.to_string()),
                ]);
            }
            for r in &c_rows {
                t.row(vec![
                    r.model.name().to_owned(),
                    r.distribution.to_owned(),
                    r.approach.to_owned(),
                    r.metric.to_owned(),
                    r.y_bar.mean.to_string(),
                    r.y_bar.sd.to_string(),
                    r.fitted.mean.to_string(),
                    r.fitted.sd.to_string(),
                    r.paired_z().map_or_else(String::new, |z| z.to_string()),
                ]);
            }
            if a.run.format == Format::Csv {
                t.write(Format::Csv, out)
            } else {
                out.json(&json!({
                    "simulations": simulations,
                    "seed": seed,
                    "uniform_comparisons": r.uniform_comparisons,
                    "adaptive_comparisons": r.adaptive_comparisons,
                    "cells": t.json(),
                    "models": c_rows.iter().map(ModelRow::json).collect::<Vec<_>>(),
                    "model_prior_sd": a.model_prior_sd,
                }))
            }
        }
    }
}

/// `acm simulate sweep`: one grid point at a time (with progress); the
/// library's `sweep` of a single point, the same seed for every point (so
/// the same crowds: the values equal those of one sweep over the grid).
fn run_sweep(a: &SweepArgs, ctx: &Ctx, out: &mut Out) -> Outcome {
    if let Some(path) = &a.plot {
        crate::plot::check(path)?;
    }
    let n = a.items as usize;
    let underlying = match a.distribution {
        Distribution::Exponential => Underlying::exponential(n)?,
        Distribution::PowerLaw => Underlying::power_law(n, PowerLaw::Paper)?,
        Distribution::Embedding => Underlying::same_area()?,
    };
    let n = underlying.len();
    let metric = match a.metric {
        MetricArg::RhoW => Metric::rho_w(),
        MetricArg::TauW => Metric::tau_w(),
        MetricArg::Rho => Metric::rho(),
        MetricArg::Tau => Metric::tau(),
    };
    let first_nb = a.ballots.first().copied().unwrap_or(2) as usize;
    let base = Simulation::new(underlying, BallotConfig::new(n, 1, 0.5, first_nb.max(1))?)?
        .n_voters(a.voters as usize)?;
    let points = a.alpha.len() * a.ballots.len();
    let bar = Progress::new(ctx, points as u64, "sweep");
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for &alpha in &a.alpha {
        for &nb in &a.ballots {
            bar.message(format!("α = {alpha}, n_b = {nb}"));
            let s = sweep(
                &base,
                a.budget,
                &[alpha],
                &[nb as usize],
                &metric,
                a.simulations as usize,
                a.run.seed,
            )?;
            rows.extend(s.points);
            skipped.extend(s.skipped);
            bar.inc(1);
        }
    }
    drop(bar);
    if let Some(path) = &a.plot {
        plot::sweep(
            path,
            &a.alpha,
            &a.ballots,
            &rows,
            metric.name(),
            a.budget,
            a.simulations,
        )?;
    }
    let best = rows
        .iter()
        .enumerate()
        .max_by(|x, y| x.1.summary.mean.total_cmp(&y.1.summary.mean))
        .map(|(i, _)| i);
    let close = |i: usize| {
        best.is_some_and(|b| {
            let (pb, pi) = (&rows[b].summary, &rows[i].summary);
            pb.mean - pi.mean <= 2.0 * (pb.se.powi(2) + pi.se.powi(2)).sqrt()
        })
    };
    let mut t = Table::new(
        &[
            "alpha",
            "n_b",
            "M",
            "comparisons",
            "mean",
            "sd",
            "se",
            "best",
        ],
        0,
    );
    for (i, p) in rows.iter().enumerate() {
        let mark = if Some(i) == best {
            "best"
        } else if close(i) {
            "≈"
        } else {
            ""
        };
        let fmt = |x: f64| {
            if a.run.format == Format::Table {
                format!("{x:.4}")
            } else {
                x.to_string()
            }
        };
        t.row(vec![
            p.alpha.to_string(),
            p.n_ballots.to_string(),
            p.m.to_string(),
            p.comparisons.to_string(),
            fmt(p.summary.mean),
            fmt(p.summary.sd),
            fmt(p.summary.se),
            mark.to_owned(),
        ]);
    }
    match a.run.format {
        Format::Json => out.json(&json!({
            "metric": metric.name(),
            "budget": a.budget,
            "items": n,
            "simulations": a.simulations,
            "seed": a.run.seed,
            "points": t.json(),
            "skipped": skipped,
        })),
        Format::Csv => t.write(Format::Csv, out),
        Format::Table => {
            writeln!(
                out,
                "sweep of the adaptive collection's {} at a budget of {} comparisons: N = {n}, \
                 {} voters, {} simulations per point (seed {})",
                metric.name(),
                a.budget,
                a.voters,
                a.simulations,
                a.run.seed
            )?;
            t.write(Format::Table, out)?;
            writeln!(
                out,
                "best: the largest mean; ≈: within 2 combined standard errors of it"
            )?;
            for s in &skipped {
                writeln!(
                    out,
                    "skipped α = {}, n_b = {}: {}",
                    s.alpha, s.n_ballots, s.reason
                )?;
            }
            Ok(())
        }
    }
}
