//! ρ_w and τ_w (Lombardo et al. 2020, Eq. 8–9): golden values, the paper's
//! defining properties, property tests against the O(n²) Γ oracle, and
//! every bad-input error.

use adaptive_comp_metrics::correlation::gamma::{rho_w_naive, tau_w_naive};
use adaptive_comp_metrics::{
    CorrelationError, Hyperbolic, Logarithmic, OffsetQuadratic, Order, Quadratic, Scheme, Ties,
    TopWeighted, Unweighted, WeightProblem, item_weights, rank, rho_w, rho_w_with_weights, tau_w,
    tau_w_with_weights,
};
use proptest::prelude::*;

use crate::{mismatch, splitmix};

/// SplitMix64 floats, as in tests/data/weighted/gen_weighted.py.
fn uniform(seed: u64, n: usize) -> Vec<f64> {
    let mut g = splitmix::SplitMix64(seed);
    (0..n).map(|_| g.next_f64()).collect()
}

fn golden_inputs(name: &str) -> (Vec<f64>, Vec<f64>) {
    match name {
        "continuous200" => {
            let x = uniform(1, 200);
            let e = uniform(2, 200);
            let y = x.iter().zip(&e).map(|(a, b)| 0.5 * a + b).collect();
            (x, y)
        }
        "ties300" => {
            let u3 = uniform(3, 300);
            let u4 = uniform(4, 300);
            let x = u3.iter().map(|v| (v * 5.0).floor()).collect();
            let y = u3
                .iter()
                .zip(&u4)
                .map(|(a, b)| ((0.7 * a + 0.3 * b) * 5.0).floor())
                .collect();
            (x, y)
        }
        other => panic!("unknown case {other}"),
    }
}

#[test]
fn matches_an_independent_numpy_implementation() {
    // Values from tests/data/weighted/gen_weighted.py (NumPy + scipy.stats.rankdata).
    let mut checked = 0;
    for (line, f) in crate::golden_rows(include_str!("../data/weighted/golden.txt")) {
        let (x, y) = golden_inputs(f[0]);
        let n0: f64 = f[1].parse().unwrap();
        let want_rho: f64 = f[2].parse().unwrap();
        let want_tau: f64 = f[3].parse().unwrap();
        let tw = TopWeighted::new().weigher(OffsetQuadratic::new(n0).unwrap());
        let rho = tw.rho(&x, &y).unwrap().rho;
        let tau = tw.tau(&x, &y).unwrap().tau;
        assert!(
            (rho - want_rho).abs() <= 1e-12 * want_rho.abs(),
            "{line}: ρ_w {rho}"
        );
        assert!(
            (tau - want_tau).abs() <= 1e-12 * want_tau.abs(),
            "{line}: τ_w {tau}"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn small_example_by_hand() {
    // Ranks a = [1, 2, 3], b = [2, 1, 3], f(n) = 1/n (Hyperbolic), additive:
    // f(a) + f(b) = [1.5, 1.5, 2/3], total 11/3 → w = [9/22, 9/22, 4/22].
    // ā = b̄ = (9 + 18 + 12)/22 = 39/22.
    // Σ w (a − ā)(b − ā) = Σ w a b − ā² = (18 + 18 + 36)/22 − (39/22)² = 72/22 − 1521/484 = 63/484
    // σ² = Σ w a² − ā² = (9 + 36 + 36)/22 − 1521/484 = 1782/484 − 1521/484 = 261/484
    // ρ_w = 63/261 = 7/29.
    let tw = TopWeighted::new().weigher(Hyperbolic);
    let r = tw.rho_ranks(&[1.0, 2.0, 3.0], &[2.0, 1.0, 3.0]).unwrap();
    assert!((r.rho - 7.0 / 29.0).abs() < 1e-15, "{}", r.rho);
    // τ_w: pairs (1,2) discordant w=81/484, (1,3) and (2,3) concordant 36/484 each.
    // numerator (72 − 81)/484, Z = Σ_{i<j} w_i w_j = 153/484 → τ_w = −9/153 = −1/17.
    let t = tw.tau_ranks(&[1.0, 2.0, 3.0], &[2.0, 1.0, 3.0]).unwrap();
    assert!((t.tau + 1.0 / 17.0).abs() < 1e-15, "{}", t.tau);
    assert!((t.concordant - 72.0 / 484.0).abs() < 1e-15);
    assert!((t.discordant - 81.0 / 484.0).abs() < 1e-15);
    assert!((t.total - 153.0 / 484.0).abs() < 1e-15);
    assert_eq!((t.tied_a, t.tied_b, t.tied_both), (0.0, 0.0, 0.0));
    // Kish: 1/Σw² = 484/(81 + 81 + 16).
    assert!((t.effective_n - 484.0 / 178.0).abs() < 1e-12);
}

#[test]
fn identical_and_reversed_rankings() {
    let x = uniform(7, 500);
    let rev: Vec<f64> = x.iter().map(|v| -v).collect();
    assert_eq!(rho_w(&x, &x).unwrap().rho, 1.0);
    assert_eq!(tau_w(&x, &x).unwrap().tau, 1.0);
    assert_eq!(rho_w(&x, &rev).unwrap().rho, -1.0);
    assert_eq!(tau_w(&x, &rev).unwrap().tau, -1.0);
}

#[test]
fn unweighted_gives_the_ordinary_coefficients() {
    // Spearman ρ of [1,2,3,4,5] vs [2,1,4,3,5]: Σd² = 4 → 1 − 6·4/(5·24) = 0.8.
    // τ: 10 pairs, 2 discordant → 0.6.
    let a = [1.0, 2.0, 3.0, 4.0, 5.0];
    let b = [2.0, 1.0, 4.0, 3.0, 5.0];
    let u = TopWeighted::new().weigher(Unweighted);
    assert!((u.rho_ranks(&a, &b).unwrap().rho - 0.8).abs() < 1e-15);
    assert!((u.tau_ranks(&a, &b).unwrap().tau - 0.6).abs() < 1e-15);
    // With ties: τ-b of x = [1,1,2,3] vs y = [1,2,3,4] is 5/sqrt(30).
    let t = u
        .tau(&[3.0, 3.0, 2.0, 1.0], &[4.0, 3.0, 2.0, 1.0])
        .unwrap()
        .tau;
    assert!((t - 5.0 / 30f64.sqrt()).abs() < 1e-15);
}

#[test]
fn a_top_swap_costs_far_more_than_a_bottom_swap() {
    let n = 50;
    let gold: Vec<f64> = (0..n).map(|i| (n - i) as f64).collect();
    let mut top = gold.clone();
    top.swap(0, 1);
    let mut bottom = gold.clone();
    bottom.swap(n - 2, n - 1);
    for (lost_top, lost_bottom) in [
        (
            1.0 - rho_w(&gold, &top).unwrap().rho,
            1.0 - rho_w(&gold, &bottom).unwrap().rho,
        ),
        (
            1.0 - tau_w(&gold, &top).unwrap().tau,
            1.0 - tau_w(&gold, &bottom).unwrap().tau,
        ),
    ] {
        assert!(lost_top > 50.0 * lost_bottom, "{lost_top} vs {lost_bottom}");
    }
}

#[test]
fn tau_w_denominator_is_one_minus_sum_of_squares_without_ties() {
    let x = uniform(11, 40);
    let y = uniform(12, 40);
    let (_, _, w) = TopWeighted::new().ranks_and_weights(&x, &y).unwrap();
    let t = tau_w(&x, &y).unwrap();
    let ssq: f64 = w.iter().map(|v| v * v).sum();
    assert!((2.0 * t.total - (1.0 - ssq)).abs() < 1e-15);
    assert!(((t.concordant - t.discordant) / t.total - t.tau).abs() < 1e-14);
}

#[test]
fn f32_inputs_agree_with_f64() {
    let x = uniform(21, 100);
    let y = uniform(22, 100);
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let y32: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    // Rounding to f32 keeps the order of these values (distinct at 2⁻²⁴).
    assert_eq!(rho_w(&x, &y).unwrap(), rho_w(&x32, &y32).unwrap());
    assert_eq!(tau_w(&x, &y).unwrap(), tau_w(&x32, &y32).unwrap());
}

#[test]
fn rho_w_is_accurate_at_a_million_items() {
    // Identity vs a ranking that swaps each adjacent pair (2k, 2k+1):
    // with unit weights ρ = 1 − 6·n/(n(n² − 1)) = 1 − 6/(n² − 1) exactly.
    let n = 1_000_000usize;
    let a: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    let b: Vec<f64> = (1..=n)
        .map(|i| if i % 2 == 1 { i + 1 } else { i - 1 } as f64)
        .collect();
    let r = TopWeighted::new()
        .weigher(Unweighted)
        .rho_ranks(&a, &b)
        .unwrap()
        .rho;
    let exact = 1.0 - 6.0 / ((n as f64).powi(2) - 1.0);
    assert!((r - exact).abs() <= 4.0 * f64::EPSILON, "{r} vs {exact}");
}

#[test]
fn user_weights_are_normalised_and_validated() {
    let a = [1.0, 2.0, 3.0];
    let b = [1.0, 3.0, 2.0];
    let t1 = tau_w_with_weights(&a, &b, &[5.0, 3.0, 2.0]).unwrap();
    let t2 = tau_w_with_weights(&a, &b, &[0.5, 0.3, 0.2]).unwrap();
    assert!((t1.tau - t2.tau).abs() < 1e-15);
    assert_eq!(
        rho_w_with_weights(&a, &b, &[1.0, -1.0, 1.0]),
        Err(CorrelationError::InvalidWeight {
            index: 1,
            problem: WeightProblem::Negative
        })
    );
    assert_eq!(
        rho_w_with_weights(&a, &b, &[1.0, f64::NAN, 1.0]),
        Err(CorrelationError::InvalidWeight {
            index: 1,
            problem: WeightProblem::NaN
        })
    );
    assert_eq!(
        tau_w_with_weights(&a, &b, &[f64::INFINITY, 1.0, 1.0]),
        Err(CorrelationError::InvalidWeight {
            index: 0,
            problem: WeightProblem::Infinite
        })
    );
    assert_eq!(
        tau_w_with_weights(&a, &b, &[0.0; 3]),
        Err(CorrelationError::ZeroWeights)
    );
    assert_eq!(
        rho_w_with_weights(&a, &b, &[1.0, 1.0]),
        Err(mismatch("a", 3, "weights", 2))
    );
    // Only two items carry weight and they tie in a: undefined, not NaN.
    assert!(matches!(
        rho_w_with_weights(&[1.0, 1.0, 3.0], &b, &[1.0, 1.0, 0.0]),
        Err(CorrelationError::Undefined { .. })
    ));
}

#[test]
fn every_bad_input_is_a_typed_error() {
    let ok = [1.0, 2.0, 3.0];
    assert_eq!(rho_w(&ok, &[1.0, 2.0]), Err(mismatch("x", 3, "y", 2)));
    assert_eq!(
        tau_w(&[1.0], &[1.0]),
        Err(CorrelationError::TooFewItems { needed: 2, got: 1 })
    );
    assert_eq!(
        tau_w::<f64>(&[], &[]),
        Err(CorrelationError::TooFewItems { needed: 2, got: 0 })
    );
    assert_eq!(
        rho_w(&[1.0, f64::NAN, 3.0], &ok),
        Err(CorrelationError::NaN {
            input: "x",
            index: 1
        })
    );
    assert_eq!(
        tau_w(&ok, &[1.0, 2.0, f64::NEG_INFINITY]),
        Err(CorrelationError::Infinite {
            input: "y",
            index: 2
        })
    );
    assert_eq!(
        rho_w(&[2.0, 2.0, 2.0], &ok),
        Err(CorrelationError::Constant { input: "x" })
    );
    assert_eq!(
        tau_w(&ok, &[0.5f64; 3]),
        Err(CorrelationError::Constant { input: "y" })
    );
    assert!(matches!(
        OffsetQuadratic::new(-0.5),
        Err(CorrelationError::InvalidParameter { name: "n0", .. })
    ));
    let tw = TopWeighted::new();
    assert_eq!(
        tw.rho_ranks(&[1.0, 2.0, 4.0], &ok),
        Err(CorrelationError::InvalidRank {
            input: "a",
            index: 2,
            len: 3
        })
    );
    assert_eq!(
        tw.tau_ranks(&ok, &[1.0, f64::NAN, 2.0]),
        Err(CorrelationError::InvalidRank {
            input: "b",
            index: 1,
            len: 3
        })
    );
    // A weigher returning garbage is caught, not propagated as NaN.
    let bad = TopWeighted::new().weigher(|n: f64| (2.0 - n).sqrt());
    assert_eq!(
        bad.rho(&ok, &ok),
        // Item 0 has the smallest score, so rank 3, where the weigher is NaN.
        Err(CorrelationError::InvalidWeight {
            index: 0,
            problem: WeightProblem::NaN
        })
    );
}

#[test]
fn extreme_values_never_give_nan() {
    // Found by the fuzz target `correlation`: deviations whose squares
    // overflow, with subnormal weights.
    let a = [-6.677614145500691e153, 7.062272736919939e-304];
    let b = [9.114181457294731e-97, -1.3336041633474438e241];
    let w = [5e-324, 5.15536796912e-312];
    assert_eq!(rho_w_with_weights(&a, &b, &w).unwrap().rho, -1.0);
    assert_eq!(tau_w_with_weights(&a, &b, &w).unwrap().tau, -1.0);
    let big = [f64::MAX, -f64::MAX, 0.0];
    let r = rho_w_with_weights(&big, &big, &[1.0; 3]).unwrap();
    assert_eq!(r.rho, 1.0);
    // The oracle's pair differences overflow: a typed error, not NaN.
    assert!(matches!(
        rho_w_naive(&big, &big, &[1.0; 3]),
        Err(CorrelationError::Infinite { input: "a", .. })
    ));
}

#[test]
fn constant_input_is_an_error_despite_rounding_in_the_weighted_mean() {
    // Found by the proptest below: a constant y under dense ranks gave
    // ρ_w = 5.9e-17 from the residue of Σ w_i·1 ≠ 1.
    for ties in [Ties::Average, Ties::Dense, Ties::Min] {
        let tw = TopWeighted::new().weigher(Logarithmic).ties(ties);
        assert_eq!(
            tw.rho(&[0.0, 1.0], &[1.0, 1.0]),
            Err(CorrelationError::Constant { input: "y" })
        );
        assert_eq!(
            tw.tau(&[0.0, 1.0], &[1.0, 1.0]),
            Err(CorrelationError::Constant { input: "y" })
        );
    }
}

fn scores(max_len: usize) -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (2..max_len).prop_flat_map(|n| {
        // Few distinct values → heavy ties; the rest continuous.
        let v = prop_oneof![(0i32..5).prop_map(f64::from), -1e3..1e3f64];
        (
            proptest::collection::vec(v.clone(), n),
            proptest::collection::vec(v, n),
        )
    })
}

fn configs() -> impl Strategy<Value = (usize, Scheme, Ties)> {
    (
        0..6usize,
        prop_oneof![
            Just(Scheme::Additive),
            Just(Scheme::Multiplicative),
            Just(Scheme::First),
            Just(Scheme::Second)
        ],
        prop_oneof![
            Just(Ties::Average),
            Just(Ties::Min),
            Just(Ties::Max),
            Just(Ties::Dense),
            Just(Ties::Ordinal)
        ],
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fast_paths_equal_the_gamma_oracle((x, y) in scores(40), (k, scheme, ties) in configs()) {
        let check = |tw_rho: Result<f64, CorrelationError>, tw_tau: Result<f64, CorrelationError>, a: &[f64], b: &[f64], w: &[f64]| {
            match (tw_rho, rho_w_naive(a, b, w)) {
                (Ok(fast), Ok(slow)) => prop_assert!((fast - slow).abs() <= 1e-12, "ρ_w {} vs {}", fast, slow),
                (Err(_), Err(_)) => {}
                (f, s) => prop_assert!(false, "ρ_w {:?} vs oracle {:?}", f, s),
            }
            match (tw_tau, tau_w_naive(a, b, w)) {
                (Ok(fast), Ok(slow)) => prop_assert!((fast - slow).abs() <= 1e-12, "τ_w {} vs {}", fast, slow),
                (Err(_), Err(_)) => {}
                (f, s) => prop_assert!(false, "τ_w {:?} vs oracle {:?}", f, s),
            }
            Ok(())
        };
        macro_rules! run {
            ($w:expr) => {{
                let tw = TopWeighted::new().weigher($w).scheme(scheme).ties(ties);
                let a = rank(&x, Order::LargerIsBetter, ties).unwrap();
                let b = rank(&y, Order::LargerIsBetter, ties).unwrap();
                let w = item_weights(&a, &b, &$w, scheme).unwrap();
                check(tw.rho(&x, &y).map(|r| r.rho), tw.tau(&x, &y).map(|t| t.tau), &a, &b, &w)?;
            }};
        }
        match k {
            0 => run!(OffsetQuadratic::default()),
            1 => run!(Hyperbolic),
            2 => run!(Quadratic),
            3 => run!(Logarithmic),
            4 => run!(Unweighted),
            _ => run!(|n: f64| (-0.3 * n).exp()),
        }
    }

    #[test]
    fn bounded_and_symmetric((x, y) in scores(60)) {
        if let (Ok(r), Ok(r2)) = (rho_w(&x, &y), rho_w(&y, &x)) {
            prop_assert!((-1.0..=1.0).contains(&r.rho));
            prop_assert!((r.rho - r2.rho).abs() <= 1e-14);
        }
        if let (Ok(t), Ok(t2)) = (tau_w(&x, &y), tau_w(&y, &x)) {
            prop_assert!((-1.0..=1.0).contains(&t.tau));
            prop_assert!((t.tau - t2.tau).abs() <= 1e-14);
        }
    }

    #[test]
    fn invariant_under_joint_permutation_and_monotone_transforms(
        (x, y) in scores(60),
        seed in any::<u64>(),
    ) {
        let n = x.len();
        // A permutation from the seed (Fisher–Yates on SplitMix64 draws).
        let u = uniform(seed, n);
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (u[i] * (i + 1) as f64) as usize;
            perm.swap(i, j.min(i));
        }
        let px: Vec<f64> = perm.iter().map(|&i| x[i]).collect();
        let py: Vec<f64> = perm.iter().map(|&i| y[i]).collect();
        // Strictly increasing transforms keep every rank.
        let tx: Vec<f64> = x.iter().map(|v| v.mul_add(3.0, 1.0)).collect();
        let ty: Vec<f64> = y.iter().map(|v| v.atan()).collect();
        if let Ok(r) = rho_w(&x, &y) {
            prop_assert!((r.rho - rho_w(&px, &py).unwrap().rho).abs() <= 1e-12);
            prop_assert!((r.rho - rho_w(&tx, &ty).unwrap().rho).abs() <= 1e-12);
        }
        if let Ok(t) = tau_w(&x, &y) {
            prop_assert!((t.tau - tau_w(&px, &py).unwrap().tau).abs() <= 1e-12);
            prop_assert!((t.tau - tau_w(&tx, &ty).unwrap().tau).abs() <= 1e-12);
        }
    }
}
