//! Generates the built-in table of null moments of the standardised scale
//! (`src/correlation/standardised/table_data.rs`): for the weighers 1/n and
//! 1/(n + n0)² with n0 = 0, 1, 2, additive and multiplicative weights, ρ_w
//! and τ_w, the null mean Γ̄, variance V and left variance V_ℓ over a grid
//! of n.
//!
//! ```text
//! cargo run --release --features uncertainty --example standardised_table -- \
//!     --out src/correlation/standardised/table_data.rs [--threads 2] [--max-n 10000] [--budget 0.5]
//! ```
//!
//! * n = 3..=11: exact, by enumerating all n! permutations.
//! * n = 12..=20 and then 8 points per decade (n = 20·10^(k/8), rounded)
//!   up to `--max-n`: Monte Carlo (`uncertainty::GammaMonteCarlo`, control
//!   variates) with the seed `SEED ^ (config << 32) ^ n`, so every point
//!   reproduces on its own. Each point targets a standard error of 10⁻⁴ on
//!   Γ̄ and of 1 % on V and V_ℓ, within a cap on the permutations of
//!   `budget·2·10⁹/n` for ρ_w and `budget·4·10⁸/n` for τ_w, at least 8192
//!   (a few seconds per point at the largest n); the standard errors reached are
//!   stored with the values.
//!
//! Progress goes to stderr. Without `--out` the source is printed.

use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
use adaptive_comp_metrics::{
    Coefficient, GammaMoments, Hyperbolic, MomentSource, OffsetQuadratic, Scheme, TopWeighted,
    Weigher,
};
use rand::SeedableRng;
use std::error::Error;
use std::fmt::Write as _;
use std::num::NonZeroUsize;
use std::time::Instant;

const SEED: u64 = 0x5EED_2025_0841_2800;
const EXACT_MAX: usize = 11;

struct Options {
    out: Option<String>,
    threads: Threads,
    max_n: usize,
    budget: f64,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut o = Options {
        out: None,
        threads: Threads::Available,
        max_n: 10_000,
        budget: 0.5,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--out" => o.out = Some(value()?),
            "--threads" => {
                o.threads =
                    Threads::Fixed(NonZeroUsize::new(value()?.parse()?).ok_or("threads ≥ 1")?);
            }
            "--max-n" => o.max_n = value()?.parse()?,
            "--budget" => o.budget = value()?.parse()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    Ok(o)
}

/// The grid of n above the exact range.
fn grid(max_n: usize) -> Vec<usize> {
    let mut ns: Vec<usize> = (EXACT_MAX + 1..=20).collect();
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

fn moments_of<W: Weigher + Sync + Copy>(
    w: W,
    cfg: Config,
    n: usize,
    index: u64,
    o: &Options,
) -> Result<GammaMoments, Box<dyn Error>> {
    let tw = TopWeighted::new().weigher(w).scheme(cfg.scheme);
    if n <= EXACT_MAX {
        return Ok(tw.null_exact(cfg.coefficient, n)?);
    }
    let items = match cfg.coefficient {
        Coefficient::Rho => 2e9,
        Coefficient::Tau => 4e8,
    };
    let cap = ((o.budget * items / n as f64) as usize).clamp(1 << 13, 1 << 23);
    let seed = SEED ^ (index << 32) ^ n as u64;
    let mc = GammaMonteCarlo::new()
        .threads(o.threads)
        .max_permutations(cap);
    let first = mc.moments(
        &tw,
        cfg.coefficient,
        n,
        &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed),
    )?;
    // More permutations (same streams, extended) if V or V_ℓ is not within 1 %.
    let MomentSource::MonteCarlo { permutations } = first.mean.source else {
        unreachable!("Monte Carlo moments")
    };
    let relative = |e: adaptive_comp_metrics::MomentEstimate| e.standard_error / (0.01 * e.value);
    let factor = relative(first.variance).max(relative(first.left_variance));
    if factor <= 1.0 || permutations >= cap {
        return Ok(first);
    }
    let wanted = ((permutations as f64 * factor * factor * 1.05) as usize).min(cap);
    Ok(GammaMonteCarlo::new()
        .threads(o.threads)
        .standard_error(1e-12)
        .max_permutations(wanted)
        .moments(
            &tw,
            cfg.coefficient,
            n,
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        )?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let o = options()?;
    let ns: Vec<usize> = (3..=EXACT_MAX).chain(grid(o.max_n)).collect();
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
    let started = Instant::now();
    let mut src = String::new();
    writeln!(
        src,
        "//! Generated by `cargo run --release --features uncertainty --example standardised_table -- --max-n {} --budget {}`\n\
         //! (adaptive-comp-metrics {}): do not edit by hand. Exact for n ≤ {EXACT_MAX}, Monte Carlo above\n\
         //! (seed {SEED:#x} ^ (config << 32) ^ n); each entry is [Γ̄, V, V_ℓ] with its standard errors.\n\n\
         use super::Coefficient;\n\
         use super::table::{{Entry, Grid, TableWeigher}};\n\
         use crate::weigh::Scheme;\n\n\
         pub(crate) static GRIDS: [Grid; {}] = [",
        o.max_n,
        o.budget,
        env!("CARGO_PKG_VERSION"),
        configs.len()
    )?;
    for (index, cfg) in configs.iter().enumerate() {
        writeln!(
            src,
            "    Grid {{\n        weigher: TableWeigher::{},\n        scheme: Scheme::{:?},\n        coefficient: Coefficient::{:?},\n        entries: &[",
            cfg.weigher, cfg.scheme, cfg.coefficient
        )?;
        for &n in &ns {
            let t = Instant::now();
            let m = match cfg.weigher {
                "Hyperbolic" => moments_of(Hyperbolic, *cfg, n, index as u64, &o)?,
                w => {
                    let n0: f64 = w["OffsetQuadratic(".len()..w.len() - 1].parse()?;
                    moments_of(OffsetQuadratic::new(n0)?, *cfg, n, index as u64, &o)?
                }
            };
            let perms = match m.mean.source {
                MomentSource::MonteCarlo { permutations } => permutations,
                _ => 0,
            };
            eprintln!(
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
            );
            writeln!(
                src,
                "            Entry {{ n: {n}, moments: [{:?}, {:?}, {:?}], se: [{:?}, {:?}, {:?}] }},",
                m.mean.value,
                m.variance.value,
                m.left_variance.value,
                m.mean.standard_error,
                m.variance.standard_error,
                m.left_variance.standard_error
            )?;
        }
        writeln!(src, "        ],\n    }},")?;
    }
    writeln!(src, "];")?;
    match &o.out {
        Some(path) => std::fs::write(path, src)?,
        None => print!("{src}"),
    }
    Ok(())
}
