//! The complementary error function and the standard normal upper tail,
//! with a small relative error everywhere, the far tail included.
//!
//! ```text
//! erfc(x) = m·exp(−e),   x ≥ 0
//!   x < 3:  e = x₀², m = erfcx(x₀) − (2/√π)·Σ_{n≥0} H_n(x₀)·(−h)ⁿ·h/(n + 1)!
//!           (Taylor series about the nearest node x₀ = k/4, h = x − x₀)
//!   x ≥ 3:  e = x² (a double-word), m = erfcx(x) by Laplace's continued fraction
//!           erfcx(x) = (2x/√π) / (2x² + 1 − 1·2/(2x² + 5 − 3·4/(2x² + 9 − …)))
//! ```
//! H_n are the (physicists') Hermite polynomials, so the series is the
//! Taylor series of erfc, whose n-th derivative is
//! −(2/√π)(−1)^(n−1) H_(n−1)(x) e^(−x²) (Rodrigues' formula). Keeping the
//! exponent apart and exact is what holds the relative accuracy far in the
//! tail: P(Z > z) = ½ erfc(z/√2) depends on z²/2 through exp, so a relative
//! error δ in z²/2 becomes a relative error (z²/2)·δ in the tail, 1.5e-13
//! at z = 37 (p ≈ 1e-300) if z/√2 is merely rounded. Here z/√2 and its
//! square are double-words, and the measured error against mpmath is at most
//! 4.1e-16 relative for p ≥ 1e-300 (`reference.rs`).

use super::dd::Dd;
use core::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI};

/// 1/√2 as a double-word (mpmath).
const FRAC_1_SQRT_2_DD: Dd = Dd {
    hi: FRAC_1_SQRT_2,
    lo: -4.833_646_656_726_457e-17,
};

/// erfcx(k/4) = exp(k²/16)·erfc(k/4), k = 0, …, 12, correctly rounded
/// (mpmath at 50 digits; `tests/data/pvalues/gen_constants.py`).
const NODES: [f64; 13] = [
    1.0,
    0.770_346_547_730_996_8,
    0.615_690_344_192_925_9,
    0.506_937_650_293_144_9,
    0.427_583_576_155_807,
    0.367_822_916_452_361_1,
    0.321_585_416_454_317_5,
    0.284_972_234_737_436_4,
    0.255_395_676_310_505_75,
    0.231_087_258_730_391_88,
    0.210_806_364_061_143_6,
    0.193_662_096_279_068_7,
    0.179_001_151_181_389_96,
];

/// Where the continued fraction takes over from the Taylor series.
const CF_FROM: f64 = 3.0;

/// 1/(n + 1) for the n = 0, …, 17 terms of the Taylor series: with
/// |h| ≤ 1/8 and x₀ ≤ 3 the first neglected term is below 1e-18 of the
/// result.
const INV_INTEGERS: [f64; 18] = [
    1.0,
    1.0 / 2.0,
    1.0 / 3.0,
    1.0 / 4.0,
    1.0 / 5.0,
    1.0 / 6.0,
    1.0 / 7.0,
    1.0 / 8.0,
    1.0 / 9.0,
    1.0 / 10.0,
    1.0 / 11.0,
    1.0 / 12.0,
    1.0 / 13.0,
    1.0 / 14.0,
    1.0 / 15.0,
    1.0 / 16.0,
    1.0 / 17.0,
    1.0 / 18.0,
];

/// `erfc(x) = m·exp(−e)` for `x ≥ 0` given as a double-word; `(m, e)`.
fn erfc_parts(x: Dd) -> (f64, Dd) {
    if x.hi < CF_FROM {
        let k = (x.hi * 4.0).round();
        let x0 = k * 0.25;
        // x − x₀ as a double: exact for the leading part (Sterbenz), and the
        // trailing part of x is far below its last bit.
        let h = (x.hi - x0) + x.lo;
        let m = NODES[k as usize] - FRAC_2_SQRT_PI * taylor(x0, h);
        (m, Dd::new(x0 * x0))
    } else {
        (erfcx_cf(x.hi), x.mul(x))
    }
}

/// `Σ_{n≥0} H_n(x₀)·(−h)ⁿ·h/(n + 1)!`, so that
/// `erfc(x₀ + h) = erfc(x₀) − (2/√π)·e^(−x₀²)·(this)`.
fn taylor(x0: f64, h: f64) -> f64 {
    // H₀ = 1, H₁ = 2x, H_(n+1) = 2x·H_n − 2n·H_(n−1).
    let (mut h_prev, mut h_n) = (0.0, 1.0);
    let mut power = h; // (−h)ⁿ·h/(n + 1)!
    let mut sum = power;
    for (n, &inv) in INV_INTEGERS.iter().enumerate().skip(1) {
        let next = 2.0 * x0 * h_n - 2.0 * (n - 1) as f64 * h_prev;
        h_prev = h_n;
        h_n = next;
        power *= -h * inv;
        sum += h_n * power;
    }
    sum
}

/// erfcx(x) = exp(x²)·erfc(x) for x ≥ 3 by the even part of Laplace's
/// continued fraction, evaluated from the bottom at a depth that the tests
/// show converged to full precision.
fn erfcx_cf(x: f64) -> f64 {
    if x > 1e8 {
        // erfcx(x) = (1/(x√π))·(1 − 1/(2x²) + 3/(4x⁴) − …); 3/(4x⁴) < 1e-32.
        return FRAC_2_SQRT_PI * 0.5 / x * (1.0 - 0.5 / (x * x));
    }
    let depth = if x < 4.0 {
        20
    } else if x < 6.0 {
        14
    } else if x < 10.0 {
        10
    } else if x < 20.0 {
        7
    } else {
        5
    };
    let y = 2.0 * x * x;
    // b_j = y + 4j + 1, a_j = (2j − 1)(2j): f = b₀ − a₁/(b₁ − a₂/(b₂ − …)).
    let mut f = y + f64::from(4 * depth + 1);
    for j in (1..=depth).rev() {
        let a = f64::from((2 * j - 1) * (2 * j));
        f = y + f64::from(4 * (j - 1) + 1) - a / f;
    }
    FRAC_2_SQRT_PI * x / f
}

/// The scaled complementary error function erfcx(x) = exp(x²)·erfc(x) for
/// `x ≥ 0`, to a few ulp.
pub(crate) fn erfcx(x: f64) -> f64 {
    debug_assert!(x >= 0.0);
    if x < CF_FROM {
        let (m, e) = erfc_parts(Dd::new(x));
        // exp(x² − x₀²) with x² − x₀² = h(2x₀ + h), h = x − x₀ exact.
        let x0 = e.hi.sqrt();
        let h = x - x0;
        m * (h * (2.0 * x0 + h)).exp()
    } else {
        erfcx_cf(x)
    }
}

/// `P(Z > z)` for a standard normal Z and any z that is not NaN, with a
/// relative error of a few ulp (measured ≤ 4e-16 against mpmath for
/// P ≥ 1e-300).
///
/// ```text
/// P(Z > z) = ½·erfc(z/√2) = ½·m·exp(−z²/2),  z ≥ 0;   1 − P(Z > −z),  z < 0
/// ```
pub(crate) fn normal_sf(z: f64) -> f64 {
    debug_assert!(!z.is_nan());
    if z < 0.0 {
        return 1.0 - normal_sf(-z);
    }
    if z > 40.0 {
        // P(Z > 40) ≈ 3.7e-350: below the smallest subnormal.
        return 0.0;
    }
    let (m, e) = erfc_parts(FRAC_1_SQRT_2_DD.mul_f64(z));
    // exp(−lo) = 1 − lo to within lo²/2 < 1e-26 (|lo| ≤ ulp(800)/2).
    0.5 * m * (-e.hi).exp() * (1.0 - e.lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::rel;

    #[test]
    fn nodes_are_consistent_with_the_series_between_them() {
        // Stepping from node k by +1/8 and from node k + 1 by −1/8 lands on
        // the same x: the two series must agree (independent of mpmath).
        for k in 0..12 {
            let x = (f64::from(k) + 0.5) / 4.0;
            let (x0, x1) = (f64::from(k) / 4.0, f64::from(k + 1) / 4.0);
            let from_left =
                (NODES[k as usize] - FRAC_2_SQRT_PI * taylor(x0, 0.125)) * (-(x0 * x0)).exp();
            let from_right =
                (NODES[k as usize + 1] - FRAC_2_SQRT_PI * taylor(x1, -0.125)) * (-(x1 * x1)).exp();
            assert!(rel(from_left, from_right) < 1e-15, "x = {x}");
        }
    }

    #[test]
    fn known_values() {
        // mpmath at 40 digits: erfc(1) = 0.15729920705028513066,
        // erfcx(3) = 0.17900115118138995042, erfcx(10) = 0.056140992743822585858.
        let (m, e) = erfc_parts(Dd::new(1.0));
        assert!(rel(m * (-e.hi).exp(), 0.157_299_207_050_285_13) < 3e-16);
        assert!(rel(erfcx(3.0), 0.179_001_151_181_389_95) < 3e-16);
        assert!(rel(erfcx(10.0), 0.056_140_992_743_822_59) < 3e-16);
        assert!(rel(erfcx(1e9), 1.0 / (1e9 * core::f64::consts::PI.sqrt())) < 1e-16);
        assert_eq!(erfcx(0.0), 1.0);
        // Normal tail: scipy.stats.norm.sf(1.959963984540054) = 0.025,
        // mpmath ncdf(−10) = 7.6198530241605261e-24, ncdf(−37) = 5.7255712225245768e-300.
        assert!(rel(normal_sf(1.959_963_984_540_054), 0.025) < 1e-15);
        assert!(rel(normal_sf(10.0), 7.619_853_024_160_526e-24) < 3e-16);
        assert!(rel(normal_sf(37.0), 5.725_571_222_524_577e-300) < 3e-16);
        assert_eq!(normal_sf(0.0), 0.5);
        assert_eq!(normal_sf(f64::INFINITY), 0.0);
        assert_eq!(normal_sf(f64::NEG_INFINITY), 1.0);
        assert_eq!(normal_sf(41.0), 0.0);
    }
}
