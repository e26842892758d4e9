//! Property tests for `pearson` against a slow, obviously correct oracle:
//! on integer data scaled by a power of two, the centred sums are exact
//! integers (i128), so r = S_xy/√(S_xx·S_yy) is known to within an ulp;
//! plus range, symmetry, invariance under scaling by powers of two and
//! shifts, and exact ±1 on exactly linear data.

use adaptive_comp_metrics::{Alternative, CorrelationError, pearson};
use proptest::prelude::*;

/// Integer samples (as f64) of equal length, few or many distinct values.
fn samples() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    (2_usize..80, any::<bool>()).prop_flat_map(|(n, tied)| {
        let bound = if tied { 4_i64 } else { 1 << 20 };
        let v = proptest::collection::vec(-bound..bound, n);
        (v.clone(), v)
    })
}

fn constant(v: &[i64]) -> bool {
    v.iter().all(|&a| a == v[0])
}

/// r of integer data by exact integer arithmetic:
/// n·S_xy = nΣxy − ΣxΣy etc. are exact in i128; the only roundings are the
/// conversions of N = n·S_xy (< 2⁵³, exact) and D = (n·S_xx)(n·S_yy) to f64,
/// the root and the quotient: within 1.5 ulp of the exact r.
fn oracle(x: &[i64], y: &[i64]) -> f64 {
    let n = x.len() as i128;
    let (sx, sy): (i128, i128) = (
        x.iter().map(|&v| v as i128).sum(),
        y.iter().map(|&v| v as i128).sum(),
    );
    let sxy: i128 = x.iter().zip(y).map(|(&a, &b)| a as i128 * b as i128).sum();
    let sxx: i128 = x.iter().map(|&a| a as i128 * a as i128).sum();
    let syy: i128 = y.iter().map(|&b| b as i128 * b as i128).sum();
    let num = n * sxy - sx * sy;
    let (a, b) = (n * sxx - sx * sx, n * syy - sy * sy);
    if num * num == a * b {
        // Exactly collinear.
        return num.signum() as f64;
    }
    num as f64 / ((a * b) as f64).sqrt()
}

fn ulps(a: f64, b: f64) -> f64 {
    (a - b).abs() / (f64::EPSILON * a.abs().max(b.abs()).max(1e-300))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn matches_the_exact_integer_oracle((x, y) in samples(), k in -1000_i32..1000, j in -1000_i32..1000) {
        let (xf, yf): (Vec<f64>, Vec<f64>) =
            (x.iter().map(|&v| v as f64).collect(), y.iter().map(|&v| v as f64).collect());
        match pearson(&xf, &yf) {
            Ok(r) => {
                let want = oracle(&x, &y);
                // Within 2 ulp; when the exact r is 0 the double-word sums
                // leave a residue of order 2⁻¹⁰⁶ instead.
                prop_assert!(
                    ulps(r.r, want) <= 2.0 || (want == 0.0 && r.r.abs() < 1e-30),
                    "{} vs {}", r.r, want
                );
                prop_assert!((-1.0..=1.0).contains(&r.r));
                if want.abs() == 1.0 {
                    prop_assert_eq!(r.r, want);
                }
                for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                    let p = r.p_value(alt);
                    prop_assert!((0.0..=1.0).contains(&p), "p = {}", p);
                }
                // Scaling each input by a power of two (exact, far into the
                // range of 1e±300) changes nothing, nor does swapping them.
                let (s, t) = (2f64.powi(k), 2f64.powi(j));
                let xs: Vec<f64> = xf.iter().map(|v| v * s).collect();
                let ys: Vec<f64> = yf.iter().map(|v| v * t).collect();
                prop_assert_eq!(pearson(&xs, &ys).unwrap().r, r.r);
                prop_assert_eq!(pearson(&yf, &xf).unwrap().r, r.r);
                // Negating one input negates r exactly.
                let neg: Vec<f64> = yf.iter().map(|v| -v).collect();
                prop_assert_eq!(pearson(&xf, &neg).unwrap().r, -r.r);
                // f32 input with the same values gives the same r.
                let (xh, yh): (Vec<f32>, Vec<f32>) =
                    (xf.iter().map(|&v| v as f32).collect(), yf.iter().map(|&v| v as f32).collect());
                prop_assert_eq!(pearson(&xh, &yh).unwrap().r, r.r);
            }
            Err(e) => {
                prop_assert!(constant(&x) || constant(&y));
                let expect = if constant(&x) { "x" } else { "y" };
                prop_assert_eq!(e, CorrelationError::Constant { input: expect });
            }
        }
    }

    #[test]
    fn exactly_linear_data_give_exactly_one(
        x in proptest::collection::vec(-1_000_000_i64..1_000_000, 3..60),
        a in -1000_i64..1000, b in 1_i64..1000, down in any::<bool>(),
    ) {
        prop_assume!(!constant(&x));
        let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        let slope = if down { -(b as f64) } else { b as f64 };
        let yf: Vec<f64> = xf.iter().map(|v| a as f64 + slope * v).collect();
        let r = pearson(&xf, &yf).unwrap();
        prop_assert_eq!(r.r, if down { -1.0 } else { 1.0 });
        prop_assert!(r.statistic.is_infinite());
    }

    #[test]
    fn arbitrary_finite_doubles_stay_in_range(
        x in proptest::collection::vec(-1e300_f64..1e300, 3..40),
        y in proptest::collection::vec(-1e-300_f64..1e-300, 3..40),
    ) {
        let n = x.len().min(y.len());
        if let Ok(r) = pearson(&x[..n], &y[..n]) {
            prop_assert!((-1.0..=1.0).contains(&r.r), "r = {}", r.r);
            prop_assert!(!r.statistic.is_nan());
        }
    }
}
