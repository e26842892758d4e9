//! Times `weighted_tau` on the SplitMix64 data of `benches/scipy_compare.py`.
//!
//! ```text
//! cargo run --release --example bench_weighted_tau -- N [SEED] [REPEATS] [ONLY]
//! ```
//!
//! Prints one JSON line: the best wall time (seconds) of SciPy's default
//! (symmetric, hyperbolic, additive), of unweighted τ-b through the same
//! kernel, of `kendall_tau_b` with its two-sided p-value (what
//! `scipy.stats.kendalltau` computes), of `spearman` with its two-sided
//! p-value (`scipy.stats.spearmanr`) and of one sort of the (x, y) pairs,
//! with the values, so the caller can check them against SciPy. With ONLY =
//! `weightedtau`, `kendalltau` or `spearmanr`, it runs that computation
//! REPEATS times and nothing else (so a caller can take the process's CPU
//! time per call).
//!
//! The library's threads follow `ACM_THREADS` (unset: every core), so
//! `ACM_THREADS=1` times the single-threaded code.
//!
//! N is checked before anything is allocated: at about 96 bytes per item the
//! run must fit in 16 GiB (N ≤ 178 956 970). REPEATS must be at least 1.
//! A wrong command line prints `error: …` and the usage line (status 2);
//! a closed output pipe ends the program quietly.

#[path = "../tests/common/splitmix.rs"]
#[allow(dead_code)]
mod splitmix;

use adaptive_comp_metrics::correlation::vigna::{Rank, WeightedTauOptions, weighted_tau};
use adaptive_comp_metrics::{Alternative, Unweighted, kendall_tau_b, spearman};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: bench_weighted_tau [N [SEED [REPEATS [weightedtau|kendalltau|spearmanr]]]]";

/// Peak memory per item: x and y (16 bytes), the (x, y) pairs and their
/// sorted copy (32), the kernel's keys, positions and weights (about 48).
const BYTES_PER_ITEM: u64 = 96;
/// The most memory this benchmark asks for: 16 GiB.
const MAX_BYTES: u64 = 16 << 30;

/// Refuses an N whose data would not fit in [`MAX_BYTES`], before allocating.
pub(crate) fn check_size(n: usize) -> Result<(), String> {
    match (n as u64).checked_mul(BYTES_PER_ITEM) {
        Some(bytes) if bytes <= MAX_BYTES => Ok(()),
        _ => Err(format!(
            "N = {n} is too large: at {BYTES_PER_ITEM} bytes per item the run needs more than \
             the {MAX_BYTES}-byte limit of this benchmark (N ≤ {})",
            MAX_BYTES / BYTES_PER_ITEM
        )),
    }
}

/// Refuses REPEATS = 0: the best of no run would be +∞, which JSON cannot hold.
pub(crate) fn check_repeats(repeats: usize) -> Result<(), String> {
    if repeats == 0 {
        return Err("REPEATS must be at least 1 (the best time of no run is undefined)".into());
    }
    Ok(())
}

/// The best of `repeats ≥ 1` timed runs of `f` (after one untimed warm-up).
fn best_of<T>(repeats: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = f();
    for _ in 0..repeats {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, out)
}

/// Why the benchmark stopped: a wrong command line (exit status 2), a
/// failed computation (1) or a closed output pipe (0, silently).
#[derive(Debug)]
pub enum Stop {
    /// A wrong command line: the message, printed with the usage line.
    Usage(String),
    /// A computation failed.
    Failed(String),
    /// The reader of the output went away (`… | head`).
    Quiet,
}

impl Stop {
    /// The exit status.
    pub fn status(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Failed(_) => 1,
            Self::Quiet => 0,
        }
    }
}

impl From<adaptive_comp_metrics::CorrelationError> for Stop {
    fn from(e: adaptive_comp_metrics::CorrelationError) -> Self {
        Self::Failed(e.to_string())
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Self::Quiet
        } else {
            Self::Failed(e.to_string())
        }
    }
}

/// `text` as a `T`, or a usage error naming the argument.
fn parse<T: std::str::FromStr>(name: &str, text: &str, expected: &str) -> Result<T, Stop>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e| Stop::Usage(format!("{name} must be {expected}, got {text:?}: {e}")))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        let _ = writeln!(std::io::stdout(), "{USAGE}");
        return ExitCode::SUCCESS;
    }
    let stop = run(&args, &mut std::io::stdout().lock()).err();
    match &stop {
        Some(Stop::Usage(m)) => eprintln!("error: {m}\n{USAGE}"),
        Some(Stop::Failed(m)) => eprintln!("error: {m}"),
        Some(Stop::Quiet) | None => {}
    }
    ExitCode::from(stop.map_or(0, |s| s.status()))
}

/// The command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Args {
    /// Number of items.
    pub n: usize,
    /// Seed of the SplitMix64 data.
    pub seed: u64,
    /// Timed runs of each measurement.
    pub repeats: usize,
    /// Only this computation, REPEATS times, printing nothing.
    pub only: Option<Only>,
}

/// The computation a CPU-time run repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    /// SciPy's default weighted τ.
    WeightedTau,
    /// τ-b with its two-sided p-value.
    KendallTau,
    /// Spearman's ρ with its two-sided p-value.
    Spearmanr,
}

/// `[N [SEED [REPEATS [weightedtau|kendalltau|spearmanr]]]]`, with the size checks.
pub fn parse_args(args: &[String]) -> Result<Args, Stop> {
    let n: usize = match args.first() {
        Some(a) => parse("N", a, "a number of items")?,
        None => 1_000_000,
    };
    let seed: u64 = match args.get(1) {
        Some(a) => parse("SEED", a, "an unsigned 64-bit integer")?,
        None => 42,
    };
    let repeats: usize = match args.get(2) {
        Some(a) => parse("REPEATS", a, "a number of runs")?,
        None => 5,
    };
    let only = match args.get(3).map(String::as_str) {
        None => None,
        Some("weightedtau") => Some(Only::WeightedTau),
        Some("kendalltau") => Some(Only::KendallTau),
        Some("spearmanr") => Some(Only::Spearmanr),
        Some(other) => {
            return Err(Stop::Usage(format!(
                "ONLY must be `weightedtau`, `kendalltau` or `spearmanr`, got {other:?}"
            )));
        }
    };
    if let Some(extra) = args.get(4) {
        return Err(Stop::Usage(format!("unexpected argument {extra:?}")));
    }
    check_size(n).map_err(Stop::Usage)?;
    check_repeats(repeats).map_err(Stop::Usage)?;
    Ok(Args {
        n,
        seed,
        repeats,
        only,
    })
}

/// Times the runs and prints the JSON line.
pub fn run(args: &[String], out: &mut impl Write) -> Result<(), Stop> {
    let Args {
        n,
        seed,
        repeats,
        only,
    } = parse_args(args)?;
    let (x, y) = splitmix::data(seed, n, 0);
    let scipy_default = WeightedTauOptions::default();
    // What scipy.stats.kendalltau and spearmanr compute: the coefficient
    // and its two-sided p-value.
    let kendall = || kendall_tau_b(&x, &y).map(|k| (k.tau, k.p_value(Alternative::TwoSided)));
    let spearmanr = || spearman(&x, &y).map(|r| (r.rho, r.p_value(Alternative::TwoSided)));
    if let Some(only) = only {
        for _ in 0..repeats {
            match only {
                Only::WeightedTau => {
                    std::hint::black_box(weighted_tau(&x, &y, &scipy_default)?);
                }
                Only::KendallTau => {
                    std::hint::black_box(kendall()?);
                }
                Only::Spearmanr => {
                    std::hint::black_box(spearmanr()?);
                }
            }
        }
        return Ok(());
    }
    let (t_w, tau_w) = best_of(repeats, || weighted_tau(&x, &y, &scipy_default));
    let (t_k, k) = best_of(repeats, kendall);
    let (k, k_p) = k?;
    let (t_r, r) = best_of(repeats, spearmanr);
    let (r, r_p) = r?;
    let tau_b_opts = WeightedTauOptions::default()
        .rank(Rank::ByXY)
        .weigher(Unweighted);
    let (t_b, tau_b) = best_of(repeats, || weighted_tau(&x, &y, &tau_b_opts));
    let pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    let (t_s, _) = best_of(repeats, || {
        let mut p = pairs.clone();
        p.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        p.len()
    });
    writeln!(
        out,
        "{{\"n\": {n}, \"sort_pairs_s\": {t_s}, \"seed\": {seed}, \"weightedtau_s\": {t_w}, \"weightedtau\": {}, \"kendalltau_s\": {t_b}, \"kendalltau\": {}, \
         \"kendall_tau_b_s\": {t_k}, \"kendall_tau_b\": {k:?}, \"kendall_tau_b_p\": {k_p:?}, \
         \"spearman_s\": {t_r}, \"spearman\": {r:?}, \"spearman_p\": {r_p:?}}}",
        tau_w?, tau_b?
    )?;
    Ok(out.flush()?)
}
