//! Property tests for the plain coefficients: range, symmetry, invariance
//! under joint permutation and strictly monotone transforms, τ-b against
//! the O(n²) pair count, ρ against ranks by their definition.

use adaptive_comp_metrics::{
    Alternative, CorrelationError, kendall_tau_b, kendall_tau_b_naive, spearman, spearman_ranks,
};
use proptest::prelude::*;

/// Score pairs: either few distinct values (many ties) or dyadic values
/// k/8 with |k| ≤ 8000 (rarely tied), so transforms below are exact.
fn scores() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (2_usize..60, any::<bool>()).prop_flat_map(|(n, tied)| {
        let value = if tied { -3_i32..4 } else { -8000_i32..8000 };
        let v = proptest::collection::vec(value.prop_map(|k| f64::from(k) / 8.0), n);
        (v.clone(), v)
    })
}

fn constant(v: &[f64]) -> bool {
    v.iter().all(|&a| a == v[0])
}

/// ρ by definition: rank_i = #{j: x_j < x_i} + (#{j: x_j = x_i} + 1)/2,
/// then the textbook Pearson correlation.
fn spearman_by_definition(x: &[f64], y: &[f64]) -> f64 {
    let ranks = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .map(|&a| {
                let below = v.iter().filter(|&&b| b < a).count() as f64;
                let equal = v.iter().filter(|&&b| b == a).count() as f64;
                below + (equal + 1.0) / 2.0
            })
            .collect()
    };
    let (a, b) = (ranks(x), ranks(y));
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let mut sab = 0.0;
    let mut saa = 0.0;
    let mut sbb = 0.0;
    for (p, q) in a.iter().zip(&b) {
        sab += (p - ma) * (q - mb);
        saa += (p - ma) * (p - ma);
        sbb += (q - mb) * (q - mb);
    }
    sab / (saa * sbb).sqrt()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn kendall_equals_the_pair_count((x, y) in scores()) {
        let fast = kendall_tau_b(&x, &y);
        let slow = kendall_tau_b_naive(&x, &y);
        prop_assert_eq!(fast, slow);
        match fast {
            Ok(k) => {
                prop_assert!((-1.0..=1.0).contains(&k.tau));
                let n = x.len() as u64;
                prop_assert_eq!(
                    k.concordant + k.discordant + k.ties_x + k.ties_y + k.ties_xy,
                    n * (n - 1) / 2
                );
                for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                    let p = k.p_value(alt);
                    prop_assert!((0.0..=1.0).contains(&p), "p = {}", p);
                }
            }
            Err(e) => {
                let expect = if constant(&x) { "x" } else { "y" };
                prop_assert!(constant(&x) || constant(&y));
                prop_assert_eq!(e, CorrelationError::Constant { input: expect });
            }
        }
    }

    #[test]
    fn spearman_equals_ranks_by_definition((x, y) in scores()) {
        prop_assume!(!constant(&x) && !constant(&y));
        let r = spearman(&x, &y).unwrap();
        let oracle = spearman_by_definition(&x, &y);
        prop_assert!((r.rho - oracle).abs() <= 1e-12, "{} vs {}", r.rho, oracle);
        prop_assert!((-1.0..=1.0).contains(&r.rho));
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            let p = r.p_value(alt);
            prop_assert!((0.0..=1.0).contains(&p), "p = {}", p);
        }
        // The ranks themselves, given ready-made, give the same ρ.
        let rank = |v: &[f64]| adaptive_comp_metrics::rank(
            v, adaptive_comp_metrics::Order::SmallerIsBetter, adaptive_comp_metrics::Ties::Average,
        ).unwrap();
        let from_ranks = spearman_ranks(&rank(&x), &rank(&y)).unwrap();
        prop_assert!((from_ranks.rho - r.rho).abs() <= 1e-14);
    }

    #[test]
    fn symmetric_in_the_two_inputs((x, y) in scores()) {
        prop_assume!(!constant(&x) && !constant(&y));
        let (k, k2) = (kendall_tau_b(&x, &y).unwrap(), kendall_tau_b(&y, &x).unwrap());
        prop_assert_eq!(k.tau, k2.tau);
        prop_assert_eq!(k.z, k2.z);
        prop_assert_eq!((k.ties_x, k.ties_y), (k2.ties_y, k2.ties_x));
        let (r, r2) = (spearman(&x, &y).unwrap(), spearman(&y, &x).unwrap());
        prop_assert_eq!(r.rho, r2.rho);
        prop_assert_eq!(r.p_value(Alternative::Greater), r2.p_value(Alternative::Greater));
    }

    #[test]
    fn invariant_under_joint_permutation((x, y) in scores(), seed in any::<u64>()) {
        prop_assume!(!constant(&x) && !constant(&y));
        // A permutation from the seed (Fisher–Yates with a small LCG).
        let mut idx: Vec<usize> = (0..x.len()).collect();
        let mut state = seed | 1;
        for i in (1..idx.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            idx.swap(i, (state >> 33) as usize % (i + 1));
        }
        let px: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
        let py: Vec<f64> = idx.iter().map(|&i| y[i]).collect();
        prop_assert_eq!(kendall_tau_b(&x, &y).unwrap(), kendall_tau_b(&px, &py).unwrap());
        let (r, pr) = (spearman(&x, &y).unwrap(), spearman(&px, &py).unwrap());
        prop_assert!((r.rho - pr.rho).abs() <= 1e-14, "{} vs {}", r.rho, pr.rho);
    }

    #[test]
    fn invariant_under_strictly_monotone_transforms((x, y) in scores()) {
        prop_assume!(!constant(&x) && !constant(&y));
        // Signed square and exp are strictly increasing; on these dyadic
        // values both keep distinct values distinct.
        let sq: Vec<f64> = x.iter().map(|v| v * v.abs()).collect();
        let ex: Vec<f64> = y.iter().map(|v| (v / 100.0).exp()).collect();
        let (k, kt) = (kendall_tau_b(&x, &y).unwrap(), kendall_tau_b(&sq, &ex).unwrap());
        prop_assert_eq!(k, kt);
        let (r, rt) = (spearman(&x, &y).unwrap(), spearman(&sq, &ex).unwrap());
        prop_assert_eq!(r.rho, rt.rho);
        // A decreasing transform flips the sign exactly.
        let neg: Vec<f64> = x.iter().map(|v| -v).collect();
        prop_assert_eq!(kendall_tau_b(&neg, &y).unwrap().tau, -k.tau);
        prop_assert_eq!(spearman(&neg, &y).unwrap().rho, -r.rho);
        // f32 input with the same values gives the same result.
        let (xf, yf): (Vec<f32>, Vec<f32>) =
            (x.iter().map(|&v| v as f32).collect(), y.iter().map(|&v| v as f32).collect());
        prop_assert_eq!(kendall_tau_b(&xf, &yf).unwrap(), k);
        prop_assert_eq!(spearman(&xf, &yf).unwrap(), r);
    }

    #[test]
    fn nan_and_infinity_are_reported_where_they_are(
        (x, y) in scores(), at in any::<prop::sample::Index>(), inf in any::<bool>(),
    ) {
        let i = at.index(x.len());
        let mut bad = y.clone();
        bad[i] = if inf { f64::INFINITY } else { f64::NAN };
        let expect = if inf {
            CorrelationError::Infinite { input: "y", index: i }
        } else {
            CorrelationError::NaN { input: "y", index: i }
        };
        prop_assert_eq!(kendall_tau_b(&x, &bad), Err(expect));
        prop_assert_eq!(kendall_tau_b_naive(&x, &bad), Err(expect));
        prop_assert_eq!(spearman(&x, &bad), Err(expect));
    }
}
