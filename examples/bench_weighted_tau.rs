//! Times `weighted_tau` on the SplitMix64 data of `benches/scipy_compare.py`.
//!
//! ```text
//! cargo run --release --example bench_weighted_tau -- N [SEED] [REPEATS] [ONLY]
//! ```
//!
//! Prints one JSON line: the best wall time (seconds) of SciPy's default
//! (symmetric, hyperbolic, additive), of unweighted τ-b through the same
//! kernel and of one sort of the (x, y) pairs, with the values, so the caller
//! can check them against SciPy. With ONLY = `weightedtau`, it runs SciPy's
//! default REPEATS times and nothing else (so a caller can take the process's
//! CPU time per call).
//!
//! N is checked before anything is allocated: at about 96 bytes per item the
//! run must fit in 16 GiB (N ≤ 178 956 970). REPEATS must be at least 1.

#[path = "../tests/common/splitmix.rs"]
#[allow(dead_code)]
mod splitmix;

use adaptive_comp_metrics::correlation::vigna::{Rank, WeightedTauOptions, weighted_tau};
use adaptive_comp_metrics::{Error, Unweighted};
use std::time::Instant;

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().as_deref().unwrap_or("1000000").parse()?;
    let seed: u64 = args.next().as_deref().unwrap_or("42").parse()?;
    let repeats: usize = args.next().as_deref().unwrap_or("5").parse()?;
    let only_weighted = args.next().as_deref() == Some("weightedtau");
    check_size(n)?;
    check_repeats(repeats)?;
    let (x, y) = splitmix::data(seed, n, 0);
    let scipy_default = WeightedTauOptions::default();
    if only_weighted {
        for _ in 0..repeats {
            std::hint::black_box(weighted_tau(&x, &y, &scipy_default)?);
        }
        return Ok(());
    }
    let (t_w, tau_w) = best_of(repeats, || weighted_tau(&x, &y, &scipy_default));
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
    println!(
        "{{\"n\": {n}, \"sort_pairs_s\": {t_s}, \"seed\": {seed}, \"weightedtau_s\": {t_w}, \"weightedtau\": {}, \"kendalltau_s\": {t_b}, \"kendalltau\": {}}}",
        tau_w?, tau_b?
    );
    Ok::<(), Error>(()).map_err(Into::into)
}
