//! Generates the built-in table of null moments of the standardised scale
//! (`src/correlation/standardised/table_data.rs`): for the weighers 1/n and
//! 1/(n + n0)² with n0 = 0, 1, 2, additive and multiplicative weights, ρ_w
//! and τ_w, the null mean Γ̄, variance V and left variance V_ℓ over a grid
//! of n from 3 to 10⁷.
//!
//! ```text
//! cargo run --release --features uncertainty --example standardised_table -- \
//!     --out src/correlation/standardised/table_data.rs [--threads 2] [--max-n 10000000]
//! cargo run --release --features uncertainty --example standardised_table -- --check 2000,20000 [--draws 4000]
//! ```
//!
//! * n = 3..=11: exact, by enumerating all n! permutations
//!   (`TopWeighted::null_exact`).
//! * n = 12..=20 and then 8 points per decade (n = 20·10^(k/8), rounded) up
//!   to `--max-n`: Monte Carlo by the head–tail sampler of `fast.rs`, whose
//!   cost per draw does not grow with n: the items ranked in the top K of
//!   either ranking are drawn exactly, the rest replaced by its conditional
//!   mean given them. K = 256 for the quadratic weighers with additive
//!   weights, 1024 for 1/n with additive weights, and with multiplicative
//!   weights ⌈3√(n/ln n)⌉ + 32 (quadratic), ⌈6√(n/ln n)⌉ + 64 (1/n) (where the weight sits on items ranked high in
//!   *both* rankings: products of ranks up to about n/ln n). Each point
//!   draws until the standard error of Γ̄ is at most `--target` (default
//!   10⁻⁴) and those of V and V_ℓ at most 1 %, or `--max-draws` (default
//!   2·10⁷) draws; the seed is `SEED ^ (config << 32) ^ n`, so every point
//!   reproduces on its own.
//!
//! `--keep a.rs:N,b.rs` keeps the entries n < N of table a.rs and every
//! entry of b.rs (merged by n) and computes the other grid points;
//! `--assemble` writes the kept entries only; `--only i` computes
//! configuration i alone (in the order of the table).
//!
//! `--check` compares, at each n given, the sampler with whole
//! permutations: Γ of a uniformly random permutation (computed by the
//! crate) against Γ̂ of its head, over `--draws` permutations per
//! configuration: the mean difference (the truncation bias of Γ̄) and the
//! mean squared difference (the variance the truncation drops), in units
//! of V.
//!
//! Progress goes to stderr. Without `--out` the source is printed.

mod estimate;
mod fast;
mod rng;
mod sums;

use adaptive_comp_metrics::{Coefficient, Hyperbolic, OffsetQuadratic, TopWeighted, Weigher as _};
use fast::{Coef, Head, Scheme, Scratch, Setup};
use std::error::Error;
use std::fmt::Write as _;
use std::time::Instant;
use sums::Weigher;

const SEED: u64 = 0x5EED_2025_0841_2801;
const EXACT_MAX: usize = 11;

struct Options {
    out: Option<String>,
    threads: usize,
    max_n: u64,
    target: f64,
    max_draws: usize,
    check: Vec<u64>,
    draws: usize,
    only: Option<usize>,
    points: Vec<u64>,
    /// Write the kept entries only (`--assemble`).
    assemble: bool,
    /// 2 points per decade from n = 112 468 for every configuration.
    sparse: bool,
    /// Tables to keep entries from: (text, keep entries with n below).
    keep: Vec<(String, u64)>,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut o = Options {
        out: None,
        threads: 2,
        max_n: 10_000_000,
        target: 1e-4,
        max_draws: 20_000_000,
        check: Vec::new(),
        draws: 4000,
        only: None,
        points: Vec::new(),
        assemble: false,
        sparse: false,
        keep: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--out" => o.out = Some(value()?),
            "--threads" => o.threads = value()?.parse()?,
            "--max-n" => o.max_n = value()?.parse()?,
            "--target" => o.target = value()?.parse()?,
            "--max-draws" => o.max_draws = value()?.parse()?,
            "--draws" => o.draws = value()?.parse()?,
            "--only" => o.only = Some(value()?.parse()?),
            "--keep" => {
                for spec in value()?.split(',') {
                    let (path, below) = match spec.rsplit_once(':') {
                        Some((path, below)) => (path, below.parse()?),
                        None => (spec, u64::MAX),
                    };
                    o.keep.push((std::fs::read_to_string(path)?, below));
                }
            }
            "--assemble" => o.assemble = true,
            "--sparse" => o.sparse = true,
            "--points" => {
                o.points = value()?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()?;
            }
            "--check" => {
                o.check = value()?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    Ok(o)
}

/// The grid of n above the exact range.
fn grid(max_n: u64, sparse: bool) -> Vec<u64> {
    let mut ns: Vec<u64> = (EXACT_MAX as u64 + 1..=20).collect();
    for k in 1.. {
        let n = (20.0 * 10f64.powf(f64::from(k) / 8.0)).round() as u64;
        // 8 points per decade up to 8434, then 4; `sparse`: 2 from 112 468
        // (a multiplicative draw costs O(√n), and the moments vary slowly
        // in ln n there).
        if k <= 21 || (k % 2 == 0 && (!sparse || k <= 30 || k % 4 == 2)) {
            ns.push(n);
        }
        if n >= max_n {
            break;
        }
    }
    ns.dedup();
    ns
}

#[derive(Clone, Copy)]
struct Config {
    name: &'static str,
    weigher: Weigher,
    scheme: Scheme,
    coef: Coef,
}

fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for (name, weigher) in [
        ("OffsetQuadratic(2)", Weigher::Quadratic(2)),
        ("OffsetQuadratic(0)", Weigher::Quadratic(0)),
        ("OffsetQuadratic(1)", Weigher::Quadratic(1)),
        ("Hyperbolic", Weigher::Hyperbolic),
    ] {
        for scheme in [Scheme::Additive, Scheme::Multiplicative] {
            for coef in [Coef::Rho, Coef::Tau] {
                out.push(Config {
                    name,
                    weigher,
                    scheme,
                    coef,
                });
            }
        }
    }
    out
}

/// The cross size K of a configuration at n.
fn cross(c: &Config, n: u64) -> u64 {
    let k = match (c.scheme, c.weigher) {
        (Scheme::Additive, Weigher::Quadratic(_)) => 256,
        (Scheme::Additive, Weigher::Hyperbolic) => 1024,
        // The truncation's relative variance falls as 1/(c² ln⁴ n) for
        // K = c·√(n/ln n): c halves past 10⁶.
        (Scheme::Multiplicative, w) => {
            let c = match w {
                Weigher::Quadratic(_) => 3.0,
                Weigher::Hyperbolic => 6.0,
            } / if n > 1_000_000 { 2.0 } else { 1.0 };
            let floor = match w {
                Weigher::Quadratic(_) => 32,
                Weigher::Hyperbolic => 64,
            };
            (c * (n as f64 / (n as f64).ln()).sqrt()).ceil() as u64 + floor
        }
    };
    k.min(n)
}

/// A weigher as a boxed closure, so that the four share a type.
type Boxed = Box<dyn Fn(f64) -> f64 + Sync>;

fn crate_config(c: &Config) -> Result<TopWeighted<Boxed>, Box<dyn Error>> {
    let scheme = match c.scheme {
        Scheme::Additive => adaptive_comp_metrics::Scheme::Additive,
        Scheme::Multiplicative => adaptive_comp_metrics::Scheme::Multiplicative,
    };
    let w: Boxed = match c.weigher {
        Weigher::Hyperbolic => Box::new(|r| Hyperbolic.weight(r)),
        Weigher::Quadratic(n0) => {
            let q = OffsetQuadratic::new(f64::from(n0))?;
            Box::new(move |r| q.weight(r))
        }
    };
    Ok(TopWeighted::new().weigher(w).scheme(scheme))
}

fn coefficient(c: &Config) -> Coefficient {
    match c.coef {
        Coef::Rho => Coefficient::Rho,
        Coef::Tau => Coefficient::Tau,
    }
}

/// `--check`: the sampler against whole permutations.
fn check(o: &Options) -> Result<(), Box<dyn Error>> {
    for &n in &o.check {
        for (index, c) in configs().iter().enumerate() {
            if o.only.is_some_and(|i| i != index) {
                continue;
            }
            let t = Instant::now();
            let setup = Setup::new(c.weigher, c.scheme, c.coef, n, cross(c, n));
            let config = crate_config(c)?;
            let mut rng = rng::Rng::stream(SEED ^ 0xC4EC, n ^ (index as u64) << 40);
            let (mut head, mut scratch) = (Head::default(), Scratch::default());
            let mut perm: Vec<u64> = (1..=n).collect();
            let x: Vec<f64> = (1..=n).map(|a| -(a as f64)).collect();
            let (mut d1, mut d2, mut g1, mut g2) = (0.0, 0.0, 0.0, 0.0);
            for _ in 0..o.draws {
                for i in (1..n as usize).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    perm.swap(i, j);
                }
                let y: Vec<f64> = perm.iter().map(|&b| -(b as f64)).collect();
                let full = match c.coef {
                    Coef::Rho => config.rho(&x, &y)?.rho,
                    Coef::Tau => config.tau(&x, &y)?.tau,
                };
                setup.head_of(&perm, &mut head);
                let (approx, _) = setup.evaluate(&head, &mut scratch);
                let d = full - approx;
                d1 += d;
                d2 += d * d;
                g1 += full;
                g2 += full * full;
            }
            let m = o.draws as f64;
            let var = g2 / m - (g1 / m).powi(2);
            let bias = d1 / m;
            let se = ((d2 / m - bias * bias) / m).sqrt();
            println!(
                "{} {:?} {:?} n={n} K={}: Γ̄ {:.5} ± {:.1e}, bias {bias:+.2e} ± {se:.1e}, E[(Γ − Γ̂)²]/V = {:.2e} ({:.1} s)",
                c.name,
                c.scheme,
                c.coef,
                setup.k,
                g1 / m,
                (var / m).sqrt(),
                d2 / m / var,
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// One entry of a table file: (n, [Γ̄, V, V_ℓ, se(Γ̄), se(V), se(V_ℓ)]).
type KeptEntry = (u64, [f64; 6]);

/// The entries of grid `index` in a table file written by this generator
/// (any formatting).
fn kept_entries(text: &str, index: usize) -> Result<Vec<KeptEntry>, Box<dyn Error>> {
    let grid = text
        .split("Grid {")
        .nth(index + 1)
        .ok_or("--keep-from: fewer grids than configurations")?;
    let mut out = Vec::new();
    for entry in grid.split("Entry {").skip(1) {
        let numbers: Vec<&str> = entry
            .split(|ch: char| !(ch.is_ascii_digit() || "+-.eE".contains(ch)))
            .filter(|t| t.chars().any(|ch| ch.is_ascii_digit()))
            .take(7)
            .collect();
        if numbers.len() < 7 {
            return Err("--keep-from: an entry without n, 3 moments and 3 errors".into());
        }
        let mut v = [0.0; 6];
        for (slot, t) in v.iter_mut().zip(&numbers[1..]) {
            *slot = t.parse()?;
        }
        out.push((numbers[0].parse()?, v));
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error>> {
    let o = options()?;
    if !o.check.is_empty() {
        return check(&o);
    }
    let configs = configs();
    let started = Instant::now();
    let mut src = String::new();
    writeln!(
        src,
        "//! Generated by `examples/standardised_table` (adaptive-comp-metrics {}): do not edit by hand.\n\
         //! Exact for n ≤ {EXACT_MAX}; 12 ≤ n ≤ 8434: Monte Carlo of whole permutations (`GammaMonteCarlo`,\n\
         //! kept with `--keep`); n ≥ 11 247: the head–tail sampler (seed {SEED:#x} ^ (config << 32) ^ n,\n\
         //! `--target {:e}`; entries kept from other runs as the module docs say). Each entry is\n\
         //! [Γ̄, V, V_ℓ] with its standard errors.\n\n\
         use super::Coefficient;\n\
         use super::table::{{Entry, Grid, TableWeigher}};\n\
         use crate::weigh::Scheme;\n\n\
         pub(crate) static GRIDS: [Grid; {}] = [",
        env!("CARGO_PKG_VERSION"),
        o.target,
        configs.len()
    )?;
    for (index, c) in configs.iter().enumerate() {
        writeln!(
            src,
            "    Grid {{\n        weigher: TableWeigher::{},\n        scheme: Scheme::{:?},\n        coefficient: Coefficient::{:?},\n        entries: &[",
            c.name,
            c.scheme,
            coefficient(c)
        )?;
        if o.only.is_some_and(|i| i != index) {
            writeln!(src, "        ],\n    }},")?;
            continue;
        }
        let config = crate_config(c)?;
        let mut kept: Vec<KeptEntry> = Vec::new();
        for (text, below) in &o.keep {
            kept.extend(
                kept_entries(text, index)?
                    .into_iter()
                    .filter(|e| e.0 < *below),
            );
        }
        kept.sort_by_key(|e| e.0);
        kept.dedup_by_key(|e| e.0);
        for (n, v) in &kept {
            writeln!(
                src,
                "            Entry {{ n: {n}, moments: [{:?}, {:?}, {:?}], se: [{:?}, {:?}, {:?}] }},",
                v[0], v[1], v[2], v[3], v[4], v[5]
            )?;
        }
        let ns: Vec<u64> = if o.assemble {
            Vec::new()
        } else if o.points.is_empty() {
            (3..=EXACT_MAX as u64)
                .chain(grid(
                    o.max_n,
                    o.sparse || c.scheme == Scheme::Multiplicative,
                ))
                .collect()
        } else {
            o.points.clone()
        };
        for n in ns.into_iter().filter(|n| !kept.iter().any(|e| e.0 == *n)) {
            let t = Instant::now();
            let (m, se, draws) = if n as usize <= EXACT_MAX {
                let m = config.null_exact(coefficient(c), n as usize)?;
                (
                    [m.mean.value, m.variance.value, m.left_variance.value],
                    [0.0; 3],
                    0,
                )
            } else {
                let setup = Setup::new(c.weigher, c.scheme, c.coef, n, cross(c, n));
                let seed = SEED ^ ((index as u64) << 32) ^ n;
                // Multiplicative weights: V of τ_w stays near 0.1 and a draw
                // costs O(√n), so a looser target (the table states what
                // each point reached).
                let (target, cap, v) = match (c.scheme, c.coef) {
                    (Scheme::Additive, Coef::Rho) => (o.target, o.max_draws, 0.01),
                    (Scheme::Additive, Coef::Tau) => (o.target, o.max_draws, 0.015),
                    (Scheme::Multiplicative, Coef::Rho) => {
                        (2.5 * o.target, o.max_draws / 200, 0.015)
                    }
                    (Scheme::Multiplicative, Coef::Tau) => {
                        (7.5 * o.target, o.max_draws / 640, 0.015)
                    }
                };
                let e = estimate::estimate(&setup, seed, target, v, cap, o.threads);
                (
                    [e.mean, e.variance, e.left],
                    [e.se_mean, e.se_variance, e.se_left],
                    e.draws,
                )
            };
            eprintln!(
                "{} {:?} {:?} n={n}: {:.6}±{:.1e} {:.6}±{:.1e} {:.6}±{:.1e} ({draws} draws, {:.1} s; total {:.0} s)",
                c.name,
                c.scheme,
                c.coef,
                m[0],
                se[0],
                m[1],
                se[1],
                m[2],
                se[2],
                t.elapsed().as_secs_f64(),
                started.elapsed().as_secs_f64()
            );
            writeln!(
                src,
                "            Entry {{ n: {n}, moments: [{:?}, {:?}, {:?}], se: [{:?}, {:?}, {:?}] }},",
                m[0], m[1], m[2], se[0], se[1], se[2]
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
