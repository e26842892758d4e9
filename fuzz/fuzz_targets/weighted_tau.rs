//! Fuzzes the weighted τ: no panic on any input, τ in [−1, 1], and the
//! O(n log n) routines agree with the O(n²) definitions.
#![no_main]

use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_kendall_naive,
    weighted_tau_naive, weighted_tau_stats,
};
use adaptive_comp_metrics::{Hyperbolic, Logarithmic, Quadratic, Unweighted, Weigher};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    x: Vec<f64>,
    y: Vec<f64>,
    u: Vec<f64>,
    rank: Vec<f64>,
    /// Fold scores onto a few levels (heavy ties) when non-zero.
    levels: u8,
    which_rank: u8,
    weigher: u8,
    multiplicative: bool,
    nan_smallest: bool,
}

fn fold(v: &[f64], levels: u8) -> Vec<f64> {
    if levels == 0 {
        return v.to_vec();
    }
    v.iter()
        .map(|a| if a.is_finite() { (a.abs() % f64::from(levels)).floor() } else { *a })
        .collect()
}

fn moderate(v: &[f64]) -> bool {
    v.iter().all(|a| a.is_finite() && a.abs() < 1e100 && (*a == 0.0 || a.abs() > 1e-100))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

fn check<W: Weigher>(x: &[f64], y: &[f64], opts: &WeightedTauOptions<'_, W>) {
    let fast = weighted_tau_stats(x, y, opts);
    if let Ok(t) = &fast {
        assert!((-1.0..=1.0).contains(&t.tau), "tau {}", t.tau);
    }
    if x.len() <= 200 {
        let slow = weighted_tau_naive(x, y, opts);
        match (&fast, &slow) {
            (Ok(f), Ok(s)) => assert!(close(f.tau, s.tau), "{} vs {}", f.tau, s.tau),
            // The error index of a bad weigher value differs on purpose
            // (importance rank vs item); the kind must agree.
            (f, s) => assert_eq!(
                f.as_ref().err().map(core::mem::discriminant),
                s.as_ref().err().map(core::mem::discriminant)
            ),
        }
    }
}

fuzz_target!(|input: Input| {
    let n = input.x.len().min(input.y.len()).min(2000);
    let x = fold(&input.x[..n], input.levels);
    let y = fold(&input.y[..n], input.levels);
    let combine = if input.multiplicative { Combine::Multiplicative } else { Combine::Additive };

    // The kernel with arbitrary weights (lengths may mismatch on purpose).
    let fast = weighted_kendall(&x, &y, &input.u, combine);
    if let Ok(s) = &fast {
        assert!((-1.0..=1.0).contains(&s.tau));
    }
    if n <= 200 && moderate(&input.u) && moderate(&x) && moderate(&y) {
        let slow = weighted_kendall_naive(&x, &y, &input.u, combine);
        match (&fast, &slow) {
            (Ok(f), Ok(s)) => {
                assert!(close(f.tau, s.tau), "{} vs {}", f.tau, s.tau);
                assert!(f.concordant >= 0.0 && f.discordant >= 0.0);
            }
            (f, s) => assert_eq!(f, s),
        }
    }

    // Vigna's weighted τ with every option.
    let rank = match input.which_rank % 5 {
        0 => Rank::Symmetric,
        1 => Rank::ByXY,
        2 => Rank::ByYX,
        3 => Rank::Index,
        _ => Rank::Given(&input.rank),
    };
    let nan = if input.nan_smallest { NanPolicy::Smallest } else { NanPolicy::Error };
    let opts = WeightedTauOptions::default().rank(rank).combine(combine).nan(nan);
    match input.weigher % 5 {
        0 => check(&x, &y, &opts.weigher(Hyperbolic)),
        1 => check(&x, &y, &opts.weigher(Quadratic)),
        2 => check(&x, &y, &opts.weigher(Logarithmic)),
        3 => check(&x, &y, &opts.weigher(Unweighted)),
        _ => check(&x, &y, &opts.weigher(|n: f64| 1.0 / n.sqrt())),
    }
});
