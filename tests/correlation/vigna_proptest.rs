//! The O(n log n) weighted τ against its O(n²) definition, on random data
//! with heavy ties, random weights and rank arrays, every built-in weigher and
//! a closure, additive and multiplicative.

use adaptive_comp_metrics::correlation::Result;
use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTau, WeightedTauOptions, WeightedTauStats, weighted_kendall,
    weighted_kendall_naive, weighted_tau_naive, weighted_tau_stats,
};
use adaptive_comp_metrics::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Quadratic, Unweighted, Weigher,
};
use proptest::prelude::*;

use crate::splitmix;

/// Agreement bound: every pair sum to 1e-12 relative to the total pair weight
/// (each is a part of it), τ to 1e-12 (relative to its range [−1, 1]; for
/// |τ| ≥ 1e-2 that is also within 1e-10 relative, and in practice far better).
const TOL: f64 = 1e-12;

fn assert_stats_close(fast: &WeightedTauStats, slow: &WeightedTauStats) {
    let scale = slow.total.abs();
    let pairs = [
        ("total", fast.total, slow.total),
        ("tied_x", fast.tied_x, slow.tied_x),
        ("tied_y", fast.tied_y, slow.tied_y),
        ("tied_xy", fast.tied_xy, slow.tied_xy),
        ("untied_x", fast.untied_x, slow.untied_x),
        ("untied_y", fast.untied_y, slow.untied_y),
        ("concordant", fast.concordant, slow.concordant),
        ("discordant", fast.discordant, slow.discordant),
    ];
    for (name, a, b) in pairs {
        assert!(
            (a - b).abs() <= TOL * scale,
            "{name}: fast {a:e}, naive {b:e}, total {scale:e}"
        );
    }
    assert!(
        (fast.tau - slow.tau).abs() <= TOL,
        "tau: fast {:e}, naive {:e}",
        fast.tau,
        slow.tau
    );
}

fn assert_same(fast: &Result<WeightedTauStats>, slow: &Result<WeightedTauStats>) {
    match (fast, slow) {
        (Ok(f), Ok(s)) => assert_stats_close(f, s),
        (f, s) => assert_eq!(f, s),
    }
}

fn assert_same_tau(fast: &Result<WeightedTau>, slow: &Result<WeightedTau>) {
    match (fast, slow) {
        (Ok(f), Ok(s)) => {
            assert!((f.tau - s.tau).abs() <= TOL, "tau {} vs {}", f.tau, s.tau);
            assert_stats_close(&f.stats, &s.stats);
            match (&f.stats_yx, &s.stats_yx) {
                (Some(a), Some(b)) => assert_stats_close(a, b),
                (a, b) => assert_eq!(a.is_some(), b.is_some()),
            }
        }
        (f, s) => assert_eq!(f, s),
    }
}

/// Scores with heavy ties (few levels) or none (continuous values). The
/// kernel ranks small non-negative multiples of ½ by counting and anything
/// else by sorting: both paths are drawn with and without ties.
fn scores(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        prop::collection::vec(0u8..3, n).prop_map(|v| v.into_iter().map(f64::from).collect()),
        prop::collection::vec(0u8..8, n).prop_map(|v| v.into_iter().map(f64::from).collect()),
        prop::collection::vec(2u16..300, n)
            .prop_map(|v| v.into_iter().map(|k| f64::from(k) / 2.0).collect()),
        prop::collection::vec(-4i8..4, n).prop_map(|v| v.into_iter().map(f64::from).collect()),
        prop::collection::vec(-1e3f64..1e3, n),
    ]
}

/// x, y and per-item weights (some zero, spread over six decades).
fn data() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>)> {
    (2usize..70).prop_flat_map(|n| {
        let w = prop::collection::vec(
            prop_oneof![1 => Just(0.0), 6 => (-3.0f64..3.0).prop_map(|e| 10f64.powf(e))],
            n,
        );
        (scores(n), scores(n), w)
    })
}

fn combine() -> impl Strategy<Value = Combine> {
    prop_oneof![Just(Combine::Additive), Just(Combine::Multiplicative)]
}

/// Runs fast and naive `weighted_tau` for one weigher.
fn check_weigher<W: Weigher>(x: &[f64], y: &[f64], rank: Rank<'_>, combine: Combine, weigher: W) {
    let opts = WeightedTauOptions::default()
        .rank(rank)
        .combine(combine)
        .weigher(weigher);
    assert_same_tau(
        &weighted_tau_stats(x, y, &opts),
        &weighted_tau_naive(x, y, &opts),
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn kernel_matches_definition((x, y, u) in data(), combine in combine()) {
        assert_same(
            &weighted_kendall(&x, &y, &u, combine),
            &weighted_kendall_naive(&x, &y, &u, combine),
        );
    }

    #[test]
    fn vigna_matches_definition(
        (x, y, given) in data(),
        combine in combine(),
        which in 0usize..5,
    ) {
        // `given` doubles as a rank array with ties (zeros) and arbitrary gaps.
        let rank = [Rank::Symmetric, Rank::ByXY, Rank::ByYX, Rank::Index, Rank::Given(&given)][which];
        check_weigher(&x, &y, rank, combine, Hyperbolic);
        check_weigher(&x, &y, rank, combine, Quadratic);
        check_weigher(&x, &y, rank, combine, Logarithmic);
        check_weigher(&x, &y, rank, combine, Unweighted);
        check_weigher(&x, &y, rank, combine, OffsetQuadratic::default());
        check_weigher(&x, &y, rank, combine, |n: f64| (-0.1 * n).exp());
    }

    #[test]
    fn symmetric_in_x_and_y_and_antisymmetric_in_sign((x, y, u) in data(), combine in combine()) {
        let a = weighted_kendall(&x, &y, &u, combine);
        let b = weighted_kendall(&y, &x, &u, combine);
        let neg: Vec<f64> = y.iter().map(|v| -v).collect();
        let c = weighted_kendall(&x, &neg, &u, combine);
        if let (Ok(a), Ok(b), Ok(c)) = (a, b, c) {
            prop_assert!((a.tau - b.tau).abs() <= TOL);
            prop_assert!((a.tau + c.tau).abs() <= TOL);
            prop_assert!((a.concordant - c.discordant).abs() <= TOL * a.total);
        }
    }

    #[test]
    fn f32_input_gives_the_f64_result((x, y, u) in data(), combine in combine()) {
        // Integer and [−1000, 1000) scores round to f32 without changing order
        // for the integer cases; compare on the f32-rounded values.
        let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let yf: Vec<f32> = y.iter().map(|&v| v as f32).collect();
        let xd: Vec<f64> = xf.iter().map(|&v| f64::from(v)).collect();
        let yd: Vec<f64> = yf.iter().map(|&v| f64::from(v)).collect();
        prop_assert_eq!(
            weighted_kendall(&xf, &yf, &u, combine),
            weighted_kendall(&xd, &yd, &u, combine)
        );
        let opts = WeightedTauOptions::default().combine(combine).nan(NanPolicy::Smallest);
        prop_assert_eq!(
            weighted_tau_stats(&xf, &yf, &opts),
            weighted_tau_stats(&xd, &yd, &opts)
        );
    }
}

/// Beyond the sizes proptest draws: n = 2500, where the kernel's counting
/// bitmap spans many words and its trees many levels; x with 40 levels of
/// ties (negative, so sorted, not counted), weights over three decades.
#[test]
fn every_sum_matches_the_definition_at_n_2500() {
    let n = 2500;
    let (x, y) = splitmix::data(11, n, 0);
    let x: Vec<f64> = x.iter().map(|u| (u * 40.0).floor() - 5.0).collect();
    let (w, _) = splitmix::data(12, n, 0);
    let u: Vec<f64> = w.iter().map(|v| 10f64.powf(3.0 * v - 1.5)).collect();
    for combine in [Combine::Additive, Combine::Multiplicative] {
        for (a, b) in [(&x, &y), (&y, &x), (&x, &x)] {
            assert_same(
                &weighted_kendall(a, b, &u, combine),
                &weighted_kendall_naive(a, b, &u, combine),
            );
        }
    }
}
