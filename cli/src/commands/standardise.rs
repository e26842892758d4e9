//! `acm standardise`: the null moments behind the standardised scale of ρ_w
//! and τ_w (Lombardo 2025), for one configuration (exact, from the built-in
//! table, or by Monte Carlo), and the generator of the built-in table.

use std::fmt::Write as _;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
use adaptive_comp_metrics::{
    Coefficient, GammaMoments, Hyperbolic, MomentEstimate, MomentSource, OffsetQuadratic, Scheme,
    Standardiser, TopWeighted, Weigher,
};
use rand::SeedableRng;

use crate::error::{Failure, Outcome};
use crate::output::{Ctx, Format, Out, Table};
use crate::progress::Progress;

/// Null moments of the standardised scale, and the built-in table's generator.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  acm standardise moments --n 50
  acm standardise moments --n 50 --plot map.svg
  acm standardise moments --n 2000 --coefficient tau --source monte-carlo --seed 3
  acm standardise table --max-n 100 --budget 0.01 --out /tmp/table_data.rs")]
pub struct Args {
    /// What to compute.
    #[command(subcommand)]
    pub command: What,
}

/// The computations.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    Moments(MomentsArgs),
    Table(TableArgs),
}

/// The coefficient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CoefficientArg {
    /// ρ_w.
    Rho,
    /// τ_w.
    Tau,
}

/// The weighing function of ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WeigherArg {
    /// f(n) = 1/(n + n0)² (the paper's, n0 = 2 by default).
    Quadratic,
    /// f(n) = 1/n.
    Hyperbolic,
}

/// How the two rankings' weights combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeArg {
    /// f(rank in x) + f(rank in y) (Eq. 9).
    Additive,
    /// f(rank in x) · f(rank in y).
    Multiplicative,
    /// f(rank in x) only.
    First,
    /// f(rank in y) only.
    Second,
}

/// Where the moments come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourceArg {
    /// Every permutation (n ≤ 11).
    Exact,
    /// The built-in table (the paper's weighers, interpolated in n).
    Table,
    /// Seeded Monte Carlo (any weigher and scheme).
    MonteCarlo,
}

/// The null mean Γ̄, variance V and left variance V_ℓ of ρ_w or τ_w for n untied items.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  acm standardise moments --n 50 --coefficient rho --weigher quadratic --n0 2 --scheme additive
  acm standardise moments --n 50 --coefficient tau --plot map.svg")]
pub struct MomentsArgs {
    /// Number of items.
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=1_000_000_000))]
    pub n: u64,
    /// The coefficient.
    #[arg(long, value_enum, default_value_t = CoefficientArg::Rho)]
    pub coefficient: CoefficientArg,
    /// The weigher.
    #[arg(long, value_enum, default_value_t = WeigherArg::Quadratic)]
    pub weigher: WeigherArg,
    /// n0 of the quadratic weigher.
    #[arg(long, default_value_t = 2.0, value_parser = crate::params::non_negative)]
    pub n0: f64,
    /// The weighting scheme.
    #[arg(long, value_enum, default_value_t = SchemeArg::Additive)]
    pub scheme: SchemeArg,
    /// Where the moments come from.
    #[arg(long, value_enum, default_value_t = SourceArg::Table)]
    pub source: SourceArg,
    /// Seed of the Monte Carlo permutations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Draw the standardising map g from raw to standardised values for these moments as SVG,
    /// the identity dotted. Example: --n 50 --plot map.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// Generates the built-in table of null moments (src/correlation/standardised/table_data.rs):
/// exact for n ≤ 11, seeded Monte Carlo above, with progress and the time left.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
For the weighers 1/n and 1/(n + n0)² with n0 = 0, 1, 2, additive and multiplicative weights, ρ_w
and τ_w: n = 3..=11 exact; n = 12..=20 and 8 points per decade up to --max-n by Monte Carlo
(control variates) with the seed 0x5EED202508412800 ^ (config << 32) ^ n, so every point
reproduces on its own. Each point targets a standard error of 1e-4 on Γ̄ and of 1 % on V and V_ℓ,
within --budget·2e9/n permutations for ρ_w and --budget·4e8/n for τ_w (at least 8192). The full
table (--max-n 10000 --budget 0.5) takes about 20 minutes on 2 cores.

Example:
  acm standardise table --out src/correlation/standardised/table_data.rs --threads 2")]
pub struct TableArgs {
    /// Where to write the Rust source (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Threads of the Monte Carlo (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Largest n of the grid.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(12..=10_000_000))]
    pub max_n: u64,
    /// Scale of the permutation cap.
    #[arg(long, default_value_t = 0.5, value_parser = positive)]
    pub budget: f64,
    /// Largest n computed exactly (every permutation; n = 11 takes about 16 s a configuration).
    #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u32).range(3..=11))]
    pub exact_max: u32,
}

fn positive(s: &str) -> Result<f64, String> {
    let x = crate::params::non_negative(s)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err("expected a number > 0".into())
    }
}

/// Runs the computation asked for.
///
/// # Errors
/// An invalid configuration (e.g. exact moments past n = 11, the table past
/// its range), a failed Monte Carlo.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    match &a.command {
        What::Moments(m) => moments(m, ctx, out),
        What::Table(t) => table(t, ctx, out),
    }
}

fn coefficient(c: CoefficientArg) -> Coefficient {
    match c {
        CoefficientArg::Rho => Coefficient::Rho,
        CoefficientArg::Tau => Coefficient::Tau,
    }
}

fn scheme(s: SchemeArg) -> Scheme {
    match s {
        SchemeArg::Additive => Scheme::Additive,
        SchemeArg::Multiplicative => Scheme::Multiplicative,
        SchemeArg::First => Scheme::First,
        SchemeArg::Second => Scheme::Second,
    }
}

fn moments_with<W: Weigher + Sync + Copy>(
    w: W,
    a: &MomentsArgs,
    ctx: &Ctx,
) -> Outcome<GammaMoments> {
    let tw = TopWeighted::new().weigher(w).scheme(scheme(a.scheme));
    let c = coefficient(a.coefficient);
    let n = usize::try_from(a.n).map_err(|_| Failure::usage("--n is too large"))?;
    Ok(match a.source {
        SourceArg::Exact => tw.null_exact(c, n)?,
        SourceArg::Table => tw.null_table(c, n)?,
        SourceArg::MonteCarlo => {
            let _spin = Progress::spinner(ctx, &format!("Monte Carlo moments at n = {n}"));
            GammaMonteCarlo::new().moments(
                &tw,
                c,
                n,
                &mut rand_chacha::ChaCha8Rng::seed_from_u64(a.seed),
            )?
        }
    })
}

fn moments(a: &MomentsArgs, ctx: &Ctx, out: &mut Out) -> Outcome {
    if let Some(path) = &a.plot {
        crate::plot::check(path)?;
    }
    let m = match a.weigher {
        WeigherArg::Quadratic => moments_with(OffsetQuadratic::new(a.n0)?, a, ctx)?,
        WeigherArg::Hyperbolic => moments_with(Hyperbolic, a, ctx)?,
    };
    if let Some(path) = &a.plot {
        plot_map(a, m, path)?;
    }
    let mut t = Table::new(&["moment", "value", "standard_error"], 1);
    for (name, e) in [
        ("mean", m.mean),
        ("variance", m.variance),
        ("left_variance", m.left_variance),
    ] {
        t.row(vec![
            name.to_owned(),
            e.value.to_string(),
            e.standard_error.to_string(),
        ]);
    }
    match a.format {
        Format::Table => writeln!(out, "{m}"),
        Format::Csv => t.write(Format::Csv, out),
        Format::Json => out.json(&m),
    }
}

/// Points of the map `--plot` draws: 2/`MAP_STEPS` apart on [−1, 1], with
/// the null mean (where the two quadratic pieces join) added.
pub const MAP_STEPS: usize = 200;

/// `--plot`: g(Γ) over [−1, 1] for the moments computed.
fn plot_map(a: &MomentsArgs, m: GammaMoments, path: &std::path::Path) -> Outcome {
    use adaptive_comp_metrics_plot::{Labels, Series, lines, number};
    let g = Standardiser::new(m)?;
    let mean = m.mean.value;
    let mut xs: Vec<f64> = (0..=MAP_STEPS)
        .map(|k| -1.0 + 2.0 * k as f64 / MAP_STEPS as f64)
        .collect();
    if let Some(i) = xs.iter().position(|&x| x >= mean)
        && xs[i] != mean
    {
        xs.insert(i, mean);
    }
    let mut points = Vec::with_capacity(xs.len());
    for x in xs {
        points.push((x, g.standardised(x)?));
    }
    let name = match a.coefficient {
        CoefficientArg::Rho => "ρ_w",
        CoefficientArg::Tau => "τ_w",
    };
    let weigher = match a.weigher {
        WeigherArg::Quadratic => format!("f(n) = 1/(n + {})²", number(a.n0)),
        WeigherArg::Hyperbolic => "f(n) = 1/n".to_owned(),
    };
    let scheme = match a.scheme {
        SchemeArg::Additive => "additive",
        SchemeArg::Multiplicative => "multiplicative",
        SchemeArg::First => "first ranking's",
        SchemeArg::Second => "second ranking's",
    };
    let series = Series {
        name: format!("g({name}), n = {}", a.n),
        points,
    };
    let labels = Labels::new(
        format!("{name}: raw against standardised values for n = {}", a.n),
        format!("raw {name} (−1 to 1)"),
        format!("standardised g({name}) (0 = chance)"),
    )
    .subtitle(format!(
        "{weigher}, {scheme} weights; null mean {} maps to {}",
        number(mean),
        number(g.standardised(mean)?)
    ));
    crate::plot::write(path, lines(&[series], true, &labels))
}

const SEED: u64 = 0x5EED_2025_0841_2800;

/// The grid of n above the exact range.
fn grid(exact_max: usize, max_n: usize) -> Vec<usize> {
    let mut ns: Vec<usize> = (exact_max + 1..=20.min(max_n)).collect();
    let mut k = 1;
    loop {
        let n = (20.0 * 10f64.powf(f64::from(k) / 8.0)).round() as usize;
        if n > max_n {
            break;
        }
        ns.push(n);
        k += 1;
    }
    ns.dedup();
    ns
}

#[derive(Clone, Copy)]
struct Config {
    weigher: &'static str,
    scheme: Scheme,
    coefficient: Coefficient,
}

fn table_point<W: Weigher + Sync + Copy>(
    w: W,
    cfg: Config,
    n: usize,
    index: u64,
    o: &TableArgs,
) -> Outcome<GammaMoments> {
    let tw = TopWeighted::new().weigher(w).scheme(cfg.scheme);
    if n <= o.exact_max as usize {
        return Ok(tw.null_exact(cfg.coefficient, n)?);
    }
    let threads = match o.threads.and_then(|t| NonZeroUsize::new(t as usize)) {
        Some(t) => Threads::Fixed(t),
        None => Threads::Available,
    };
    let items = match cfg.coefficient {
        Coefficient::Rho => 2e9,
        Coefficient::Tau => 4e8,
    };
    let cap = ((o.budget * items / n as f64) as usize).clamp(1 << 13, 1 << 23);
    let seed = SEED ^ (index << 32) ^ n as u64;
    let first = GammaMonteCarlo::new()
        .threads(threads)
        .max_permutations(cap)
        .moments(
            &tw,
            cfg.coefficient,
            n,
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        )?;
    // More permutations (same streams, extended) if V or V_ℓ is not within 1 %.
    let MomentSource::MonteCarlo { permutations } = first.mean.source else {
        return Err(Failure::new("Monte Carlo moments expected"));
    };
    let relative = |e: MomentEstimate| e.standard_error / (0.01 * e.value);
    let factor = relative(first.variance).max(relative(first.left_variance));
    if factor <= 1.0 || permutations >= cap {
        return Ok(first);
    }
    let wanted = ((permutations as f64 * factor * factor * 1.05) as usize).min(cap);
    Ok(GammaMonteCarlo::new()
        .threads(threads)
        .standard_error(1e-12)
        .max_permutations(wanted)
        .moments(
            &tw,
            cfg.coefficient,
            n,
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        )?)
}

/// `acm standardise table`: the built-in table's source, with progress
/// (weighted by the expected cost of each point) and the time left.
fn table(o: &TableArgs, ctx: &Ctx, out: &mut Out) -> Outcome {
    let max_n = usize::try_from(o.max_n).map_err(|_| Failure::usage("--max-n is too large"))?;
    let exact_max = o.exact_max as usize;
    let ns: Vec<usize> = (3..=exact_max).chain(grid(exact_max, max_n)).collect();
    let mut configs = Vec::new();
    for weigher in [
        "OffsetQuadratic(2)",
        "OffsetQuadratic(0)",
        "OffsetQuadratic(1)",
        "Hyperbolic",
    ] {
        for scheme in [Scheme::Additive, Scheme::Multiplicative] {
            for coefficient in [Coefficient::Rho, Coefficient::Tau] {
                configs.push(Config {
                    weigher,
                    scheme,
                    coefficient,
                });
            }
        }
    }
    // A Monte Carlo point costs about its permutation cap times n: the same
    // for every n where the cap binds, less below. Exact points are cheap.
    let cost = |cfg: &Config, n: usize| -> u64 {
        if n <= exact_max {
            return 1;
        }
        let items = match cfg.coefficient {
            Coefficient::Rho => 2e9,
            Coefficient::Tau => 4e8,
        };
        let cap = ((o.budget * items / n as f64) as usize).clamp(1 << 13, 1 << 23);
        ((cap as f64 * n as f64) / 1e6).ceil().max(1.0) as u64
    };
    let total: u64 = configs
        .iter()
        .flat_map(|c| ns.iter().map(move |&n| cost(c, n)))
        .sum();
    let bar = Progress::new(ctx, total, "standardised table");
    let started = Instant::now();
    let mut src = String::new();
    let w = |e: std::fmt::Error| Failure::new(format!("formatting the table: {e}"));
    writeln!(
        src,
        "//! Generated by `acm standardise table --max-n {} --budget {}`\n\
         //! (adaptive-comp-metrics-cli {}): do not edit by hand. Exact for n ≤ {exact_max}, Monte Carlo above\n\
         //! (seed {SEED:#x} ^ (config << 32) ^ n); each entry is [Γ̄, V, V_ℓ] with its standard errors.\n\n\
         use super::Coefficient;\n\
         use super::table::{{Entry, Grid, TableWeigher}};\n\
         use crate::weigh::Scheme;\n\n\
         pub(crate) static GRIDS: [Grid; {}] = [",
        o.max_n,
        o.budget,
        env!("CARGO_PKG_VERSION"),
        configs.len()
    )
    .map_err(w)?;
    for (index, cfg) in configs.iter().enumerate() {
        writeln!(
            src,
            "    Grid {{\n        weigher: TableWeigher::{},\n        scheme: Scheme::{:?},\n        coefficient: Coefficient::{:?},\n        entries: &[",
            cfg.weigher, cfg.scheme, cfg.coefficient
        )
        .map_err(w)?;
        for &n in &ns {
            bar.message(format!(
                "{} {:?} {:?} n = {n}",
                cfg.weigher, cfg.scheme, cfg.coefficient
            ));
            let t = Instant::now();
            let m = match cfg.weigher {
                "Hyperbolic" => table_point(Hyperbolic, *cfg, n, index as u64, o)?,
                name => {
                    let n0: f64 = name
                        .trim_start_matches("OffsetQuadratic(")
                        .trim_end_matches(')')
                        .parse()
                        .map_err(|_| Failure::new("bad weigher name"))?;
                    table_point(OffsetQuadratic::new(n0)?, *cfg, n, index as u64, o)?
                }
            };
            let perms = match m.mean.source {
                MomentSource::MonteCarlo { permutations } => permutations,
                _ => 0,
            };
            bar.println(
                ctx,
                format!(
                    "{} {:?} {:?} n={n}: {:.6}±{:.1e} {:.6}±{:.1e} {:.6}±{:.1e} ({perms} permutations, {:.1} s; total {:.0} s)",
                    cfg.weigher,
                    cfg.scheme,
                    cfg.coefficient,
                    m.mean.value,
                    m.mean.standard_error,
                    m.variance.value,
                    m.variance.standard_error,
                    m.left_variance.value,
                    m.left_variance.standard_error,
                    t.elapsed().as_secs_f64(),
                    started.elapsed().as_secs_f64()
                ),
            );
            bar.inc(cost(cfg, n));
            writeln!(
                src,
                "            Entry {{ n: {n}, moments: [{:?}, {:?}, {:?}], se: [{:?}, {:?}, {:?}] }},",
                m.mean.value,
                m.variance.value,
                m.left_variance.value,
                m.mean.standard_error,
                m.variance.standard_error,
                m.left_variance.standard_error
            )
            .map_err(w)?;
        }
        writeln!(src, "        ],\n    }},").map_err(w)?;
    }
    writeln!(src, "];").map_err(w)?;
    drop(bar);
    match &o.out {
        Some(path) => std::fs::write(path, src)
            .map_err(|e| Failure::new(format!("cannot write: {e}")).file(path)),
        None => out.bytes(src.as_bytes()),
    }
}
