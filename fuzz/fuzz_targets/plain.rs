//! Arbitrary f64/f32 scores through `spearman`, `spearman_ranks`,
//! `kendall_tau_b` and its O(n²) oracle: no panic, every Ok coefficient and
//! p-value in range, the fast τ-b equal to the oracle, NaN input an error.
#![no_main]

use adaptive_comp_metrics::{
    Alternative, CorrelationError, kendall_tau_b, kendall_tau_b_naive, spearman, spearman_ranks,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    x: Vec<f64>,
    y: Vec<f64>,
    x32: Vec<f32>,
    y32: Vec<f32>,
}

const ALTS: [Alternative; 3] = [Alternative::TwoSided, Alternative::Greater, Alternative::Less];

fn in_unit(v: f64, what: &str) {
    assert!((-1.0..=1.0).contains(&v), "{what} = {v} out of [-1, 1]");
}

fn in_prob(p: f64, what: &str) {
    assert!((0.0..=1.0).contains(&p), "{what} p-value {p} out of [0, 1]");
}

// One body for f64 and f32 (the fuzz crate does not depend on num-traits).
macro_rules! checker {
    ($name:ident, $t:ty) => {
        fn $name(x: &[$t], y: &[$t]) {
            let nan = x.iter().chain(y).any(|a| a.is_nan());
            let r = spearman(x, y);
            match r {
                Ok(r) => {
                    assert!(!nan, "NaN input gave Ok");
                    in_unit(r.rho, "rho");
                    assert!(!r.statistic.is_nan());
                    ALTS.iter().for_each(|&a| in_prob(r.p_value(a), "spearman"));
                }
                Err(e) => {
                    if nan && x.len() == y.len() && x.len() >= 2 {
                        assert!(matches!(e, CorrelationError::NaN { .. } | CorrelationError::Infinite { .. }), "{e:?}");
                    }
                }
            }
            let k = kendall_tau_b(x, y);
            if let Ok(k) = &k {
                assert!(!nan, "NaN input gave Ok");
                in_unit(k.tau, "tau");
                assert!(!k.z.is_nan());
                ALTS.iter().for_each(|&a| {
                    in_prob(k.p_value(a), "kendall");
                    in_prob(k.p_value_asymptotic(a), "kendall asymptotic");
                });
            }
            assert_eq!(spearman(x, y).is_ok(), k.is_ok(), "same validation");
            if x.len() <= 200 {
                assert_eq!(k, kendall_tau_b_naive(x, y), "fast vs O(n²) τ-b");
            }
        }
    };
}
checker!(check, f64);
checker!(check32, f32);

fuzz_target!(|input: Input| {
    let Input { x, y, x32, y32 } = input;
    // Vectors of unequal length exercise the length check; equal-length
    // prefixes make the real work run.
    let n = x.len().min(y.len());
    check(&x, &y);
    check(&x[..n], &y[..n]);
    let m = x32.len().min(y32.len());
    check32(&x32[..m], &y32[..m]);
    // Scores as ready-made ranks: mostly invalid, must be errors, not panics.
    if let Ok(r) = spearman_ranks(&x[..n], &y[..n]) {
        in_unit(r.rho, "rho from ranks");
        ALTS.iter().for_each(|&a| in_prob(r.p_value(a), "spearman_ranks"));
    }
});
