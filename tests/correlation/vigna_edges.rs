//! Bad input, edge cases and deliberate differences from SciPy.

// Exact results (integer pair sums, equal runs) are compared exactly.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_kendall_naive,
    weighted_tau, weighted_tau_stats,
};
use adaptive_comp_metrics::{CorrelationError, Hyperbolic, WeightProblem, tau_w_with_weights};

use crate::mismatch;

const ADD: Combine = Combine::Additive;
const MUL: Combine = Combine::Multiplicative;

fn scipy_default() -> WeightedTauOptions<'static, Hyperbolic> {
    WeightedTauOptions::default()
}

#[test]
fn length_mismatches_name_both_inputs() {
    let d = scipy_default();
    assert_eq!(
        weighted_tau(&[1.0, 2.0, 3.0], &[1.0, 2.0], &d),
        Err(mismatch("x", 3, "y", 2))
    );
    assert_eq!(
        weighted_kendall(&[1.0, 2.0], &[1.0, 2.0], &[1.0], ADD),
        Err(mismatch("x", 2, "u", 1))
    );
    let r = [0.0];
    assert_eq!(
        weighted_tau(&[1.0, 2.0], &[1.0, 2.0], &d.rank(Rank::Given(&r))),
        Err(mismatch("x", 2, "rank", 1))
    );
}

#[test]
fn fewer_than_two_items() {
    let d = scipy_default();
    assert_eq!(
        weighted_tau::<f64, _>(&[], &[], &d),
        Err(CorrelationError::TooFewItems { needed: 2, got: 0 })
    );
    assert_eq!(
        weighted_tau(&[1.0], &[1.0], &d),
        Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
    );
    assert_eq!(
        weighted_kendall(&[1.0], &[1.0], &[1.0], MUL),
        Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
    );
}

#[test]
fn nan_is_an_error_by_default_and_smallest_on_request() {
    let x = [1.0, 2.0, 3.0, f64::NAN, 5.0];
    let y = [2.0, 1.0, 4.0, 3.0, f64::NAN];
    assert_eq!(
        weighted_tau(&x, &y, &scipy_default()),
        Err(CorrelationError::NaN {
            input: "x",
            index: 3
        })
    );
    // Items are checked in order: y[3] comes before x[4].
    assert_eq!(
        weighted_tau(&y, &x, &scipy_default()),
        Err(CorrelationError::NaN {
            input: "y",
            index: 3
        })
    );
    assert_eq!(
        weighted_kendall(&[1.0, 2.0], &[f64::NAN, 1.0], &[1.0; 2], ADD),
        Err(CorrelationError::NaN {
            input: "y",
            index: 0
        })
    );
    // Smallest: the same as replacing every NaN by one value below all others.
    let smallest = scipy_default().nan(NanPolicy::Smallest);
    let low = |v: &[f64]| {
        v.iter()
            .map(|&a| if a.is_nan() { -100.0 } else { a })
            .collect::<Vec<_>>()
    };
    for rank in [Rank::Symmetric, Rank::ByXY, Rank::Index] {
        let o = smallest.rank(rank);
        let got = weighted_tau(&x, &y, &o).unwrap();
        let want = weighted_tau(&low(&x), &low(&y), &o).unwrap();
        assert!((got - want).abs() < 1e-15, "{rank:?}");
    }
    // Two NaNs tie with each other.
    let xn = [f64::NAN, f64::NAN, 1.0, 2.0];
    let s = weighted_tau_stats(&xn, &[1.0, 2.0, 3.0, 4.0], &smallest).unwrap();
    assert!(s.stats.tied_x > 0.0);
}

#[test]
fn infinite_scores_and_ranks_are_rejected() {
    let d = scipy_default();
    assert_eq!(
        weighted_tau(&[1.0, f64::INFINITY], &[1.0, 2.0], &d),
        Err(CorrelationError::Infinite {
            input: "x",
            index: 1
        })
    );
    let r = [0.0, f64::NEG_INFINITY];
    assert_eq!(
        weighted_tau(&[1.0, 2.0], &[1.0, 2.0], &d.rank(Rank::Given(&r))),
        Err(CorrelationError::Infinite {
            input: "rank",
            index: 1
        })
    );
    let r = [f64::NAN, 1.0];
    assert_eq!(
        weighted_tau(&[1.0, 2.0], &[1.0, 2.0], &d.rank(Rank::Given(&r))),
        Err(CorrelationError::NaN {
            input: "rank",
            index: 0
        })
    );
}

/// SciPy returns NaN for a constant input and Vigna's Java code 1.0 for two;
/// here a constant input is always `CorrelationError::Constant`, x checked first.
#[test]
fn constant_inputs_are_errors() {
    let d = scipy_default();
    let c = [3.0; 4];
    let v = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(
        weighted_tau(&c, &v, &d),
        Err(CorrelationError::Constant { input: "x" })
    );
    assert_eq!(
        weighted_tau(&v, &c, &d),
        Err(CorrelationError::Constant { input: "y" })
    );
    assert_eq!(
        weighted_tau(&c, &c, &d),
        Err(CorrelationError::Constant { input: "x" })
    );
    for rank in [Rank::ByXY, Rank::ByYX, Rank::Index] {
        assert_eq!(
            weighted_tau(&v, &c, &d.rank(rank)),
            Err(CorrelationError::Constant { input: "y" })
        );
    }
    assert_eq!(
        weighted_kendall(&v, &c, &[1.0; 4], MUL),
        Err(CorrelationError::Constant { input: "y" })
    );
    assert_eq!(
        weighted_kendall_naive(&v, &c, &[1.0; 4], MUL),
        Err(CorrelationError::Constant { input: "y" })
    );
}

/// SciPy returns −1.0 for weigher=lambda r: 0 (0/0); here it is an error.
#[test]
fn zero_denominators_are_errors_not_minus_one() {
    let d = scipy_default();
    let (x, y) = ([1.0, 2.0, 3.0], [1.0, 3.0, 2.0]);
    assert_eq!(
        weighted_tau(&x, &y, &d.weigher(|_: f64| 0.0)),
        Err(CorrelationError::ZeroWeights)
    );
    assert_eq!(
        weighted_kendall(&x, &y, &[0.0; 3], ADD),
        Err(CorrelationError::ZeroWeights)
    );
    // One item with weight: every product w_i·w_j is 0.
    let undefined = CorrelationError::Undefined {
        reason: "every pair untied in x or in y has zero weight",
    };
    assert_eq!(
        weighted_kendall(&x, &y, &[0.0, 1.0, 0.0], MUL),
        Err(undefined)
    );
    assert_eq!(
        weighted_kendall_naive(&x, &y, &[0.0, 1.0, 0.0], MUL),
        Err(undefined)
    );
    // Only the top rank weighs (multiplicative): undefined too.
    let top = d
        .rank(Rank::ByXY)
        .combine(MUL)
        .weigher(|n: f64| if n < 1.5 { 1.0 } else { 0.0 });
    assert_eq!(weighted_tau(&x, &y, &top), Err(undefined));
    // The untied pairs in x weigh 0, the tied one does not.
    assert_eq!(
        weighted_kendall(&[1.0, 1.0, 2.0], &y, &[1.0, 1.0, 0.0], MUL),
        Err(undefined)
    );
}

#[test]
fn bad_weights_and_weighers_are_reported() {
    let (x, y) = ([1.0, 2.0, 3.0], [1.0, 3.0, 2.0]);
    assert_eq!(
        weighted_kendall(&x, &y, &[1.0, -1.0, 1.0], ADD),
        Err(CorrelationError::InvalidWeight {
            index: 1,
            problem: WeightProblem::Negative
        })
    );
    assert_eq!(
        weighted_kendall(&x, &y, &[1.0, 1.0, f64::INFINITY], ADD),
        Err(CorrelationError::InvalidWeight {
            index: 2,
            problem: WeightProblem::Infinite
        })
    );
    // The index of a bad weigher value is the 0-based importance rank.
    let bad = scipy_default().weigher(|n: f64| 2.5 - n);
    assert_eq!(
        weighted_tau(&x, &y, &bad),
        Err(CorrelationError::InvalidWeight {
            index: 2,
            problem: WeightProblem::Negative
        })
    );
    let nan = scipy_default().weigher(|n: f64| if n > 1.0 { f64::NAN } else { 1.0 });
    assert_eq!(
        weighted_tau(&x, &y, &nan),
        Err(CorrelationError::InvalidWeight {
            index: 1,
            problem: WeightProblem::NaN
        })
    );
}

/// −0.0 and 0.0 are the same score: the pair is tied, not discordant.
#[test]
fn negative_zero_ties_with_zero() {
    let y = [5.0, 1.0, 3.0];
    let u = [1.0, 2.0, 4.0];
    let a = weighted_kendall(&[-0.0, 0.0, 1.0], &y, &u, ADD).unwrap();
    let b = weighted_kendall(&[0.0, 0.0, 1.0], &y, &u, ADD).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.tied_x, 3.0);
    assert_eq!(
        a,
        weighted_kendall_naive(&[-0.0, 0.0, 1.0], &y, &u, ADD).unwrap()
    );
}

#[test]
fn extreme_weights_neither_overflow_nor_underflow() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let y = [2.0, 1.0, 4.0, 3.0];
    let u = [1.0, 2.0, 3.0, 4.0];
    let base = weighted_kendall(&x, &y, &u, MUL).unwrap();
    for scale in [1e300, 1e-300, 2f64.powi(-1070)] {
        let big: Vec<f64> = u.iter().map(|w| w * scale).collect();
        for combine in [ADD, MUL] {
            let want = weighted_kendall(&x, &y, &u, combine).unwrap().tau;
            match weighted_kendall(&x, &y, &big, combine) {
                Ok(got) => assert!((got.tau - want).abs() < 1e-15, "{scale:e} {combine:?}"),
                // Products of weights near 1e300 exceed f64: a typed error.
                Err(e) => {
                    assert_eq!((scale, combine), (1e300, MUL));
                    assert!(matches!(e, CorrelationError::Overflow { .. }), "{e}");
                }
            }
        }
    }
    assert!(base.tau.is_finite());
}

/// SciPy re-ranks a rank array densely: only the order of its values counts
/// (SciPy gives 0.9999999999999999 for both calls below).
#[test]
fn given_ranks_only_their_order_counts() {
    let (x, y) = ([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 5.0]);
    let d = scipy_default();
    let a = weighted_tau(&x, &y, &d.rank(Rank::Given(&[10.0, 3.0, 3.0, 7.0]))).unwrap();
    let b = weighted_tau(&x, &y, &d.rank(Rank::Given(&[2.0, 0.0, 0.0, 1.0]))).unwrap();
    assert_eq!(a, b);
    assert!((a - 1.0).abs() < 1e-15);
    let (x, y) = ([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0]);
    let r1 = [0.5, -3.0, 0.5, 9.0];
    let r2 = [1.0, 0.0, 1.0, 2.0];
    assert_eq!(
        weighted_tau(&x, &y, &d.rank(Rank::Given(&r1))),
        weighted_tau(&x, &y, &d.rank(Rank::Given(&r2)))
    );
}

#[test]
fn extremes_and_sum_identities() {
    let n = 100_000;
    let x: Vec<f64> = (0..n).map(|i| f64::from(i % 1000)).collect();
    let rev: Vec<f64> = x.iter().map(|v| -v).collect();
    let d = scipy_default();
    let same = weighted_tau_stats(&x, &x, &d).unwrap();
    assert!((same.tau - 1.0).abs() < 1e-15);
    assert_eq!(same.stats.discordant, 0.0);
    let opposite = weighted_tau_stats(&x, &rev, &d).unwrap();
    assert!((opposite.tau + 1.0).abs() < 1e-15);
    // concordant = untied_x − (tied in y only) − discordant: 0 up to rounding
    // of untied_x.
    assert!(opposite.stats.concordant <= 1e-15 * opposite.stats.untied_x);
    for s in [same.stats, opposite.stats, same.stats_yx.unwrap()] {
        let parts = s.concordant + s.discordant + s.tied_x + s.tied_y - s.tied_xy;
        assert!((parts - s.total).abs() <= 1e-12 * s.total);
        assert!((s.tied_x + s.untied_x - s.total).abs() <= 1e-12 * s.total);
    }
    assert!(
        weighted_tau_stats(&x, &rev, &d.rank(Rank::ByXY))
            .unwrap()
            .stats_yx
            .is_none()
    );
}

/// The paper's τ_w (Eq. 8) without ties and with normalised weights: the
/// denominator is (1 − Σw²)/2, worked out by hand for three items.
#[test]
fn tau_w_by_hand() {
    let w = [0.5, 0.3, 0.2];
    // Pairs: (0,1) concordant 0.15, (0,2) discordant 0.10, (1,2) discordant 0.06.
    let x = [3.0, 2.0, 1.0];
    let y = [3.0, 1.0, 2.0 + 2.0];
    let t = tau_w_with_weights(&x, &y, &w).unwrap().tau;
    let z = (1.0 - (0.25 + 0.09 + 0.04)) / 2.0; // 0.31
    assert!((t - (0.15 - 0.10 - 0.06) / z).abs() < 1e-15, "{t}");
    let s = weighted_kendall(&x, &y, &w, MUL).unwrap();
    assert!((s.untied_x - z).abs() < 1e-15);
}

/// The weigher is evaluated once per rank (n calls), never inside the sweep;
/// for a given rank array, once per distinct rank.
#[test]
fn weigher_is_called_once_per_rank() {
    let n = 5_000;
    let x: Vec<f64> = (0..n).map(|i| f64::from((i * 37) % 101)).collect();
    let y: Vec<f64> = (0..n).map(|i| f64::from((i * 53) % 89)).collect();
    let calls = std::cell::Cell::new(0usize);
    let counting = |r: f64| {
        calls.set(calls.get() + 1);
        1.0 / r
    };
    for (rank, want) in [(Rank::Symmetric, n), (Rank::ByXY, n), (Rank::Index, n)] {
        calls.set(0);
        let opts = scipy_default().rank(rank).weigher(&counting);
        weighted_tau(&x, &y, &opts).unwrap();
        assert_eq!(calls.get(), want as usize, "{rank:?}");
    }
    let given: Vec<f64> = (0..n).map(|i| f64::from(i % 7)).collect();
    calls.set(0);
    weighted_tau(
        &x,
        &y,
        &scipy_default().rank(Rank::Given(&given)).weigher(&counting),
    )
    .unwrap();
    assert_eq!(calls.get(), 7);
}

/// At n = 10⁵ with ties, the symmetric path (whose two importances share one
/// layout and one counting pass) equals the mean of two separate runs, and
/// ByYX on (x, y) equals ByXY on (y, x).
#[test]
fn symmetric_path_at_large_n() {
    let n = 100_000u32;
    let x: Vec<f64> = (0..n)
        .map(|i| f64::from((i.wrapping_mul(2_654_435_761)) % 1000))
        .collect();
    let y: Vec<f64> = (0..n)
        .map(|i| f64::from((i.wrapping_mul(40_503) ^ (i >> 3)) % 777) + 0.5 * x[i as usize])
        .collect();
    for combine in [ADD, MUL] {
        let d = scipy_default().combine(combine);
        let sym = weighted_tau_stats(&x, &y, &d).unwrap();
        let xy = weighted_tau_stats(&x, &y, &d.rank(Rank::ByXY)).unwrap();
        let yx = weighted_tau_stats(&x, &y, &d.rank(Rank::ByYX)).unwrap();
        let yx_swapped = weighted_tau_stats(&y, &x, &d.rank(Rank::ByXY)).unwrap();
        assert_eq!(sym.stats, xy.stats);
        let s = sym.stats_yx.unwrap();
        let t = yx.stats;
        for (a, b) in [
            (s.total, t.total),
            (s.tied_x, t.tied_x),
            (s.tied_y, t.tied_y),
            (s.tied_xy, t.tied_xy),
            (s.untied_x, t.untied_x),
            (s.untied_y, t.untied_y),
            (s.concordant, t.concordant),
            (s.discordant, t.discordant),
        ] {
            assert!(
                (a - b).abs() <= 1e-14 * t.total,
                "{combine:?}: {a:e} vs {b:e}"
            );
        }
        assert!((s.tau - t.tau).abs() < 1e-15);
        assert!((sym.tau - 0.5 * (xy.tau + yx.tau)).abs() < 1e-15);
        assert!((yx.tau - yx_swapped.tau).abs() < 1e-14);
        assert!((yx.stats.tied_x - yx_swapped.stats.tied_y).abs() <= 1e-13 * yx.stats.total);
    }
}
