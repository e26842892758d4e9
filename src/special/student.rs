//! The upper tail of Student's t distribution, and of Pearson's r under
//! independence, with a small relative error down to 1e-300.
//!
//! Both reduce to one function of ν = df and of x = ν/(ν + t²) = 1 − r²:
//!
//! ```text
//! P(T > t) = P(R > r) = ½·I_x(ν/2, ½),   t = r·√(ν/(1 − r²)),  ν = n − 2 for r
//! ```
//! with I the regularised incomplete beta function. It is evaluated in one of
//! three ways:
//!
//! 1. ν ≥ 32 and λ = −ln x ≤ 1: the large-a expansion of I_x(a, b) in
//!    incomplete gamma functions (Temme; DiDonato & Morris 1992, ACM TOMS 18,
//!    "BGRAT"), written out here for b = ½. With T = a − ¼ and z = T·λ,
//!    ```text
//!    I_x(a, ½) = Γ(a + ½)/(Γ(a)·√T) · e^(−z) · Σ_k c_k·g(½ + 2k)/T^(2k)
//!    g(s) = e^z·Γ(s, z)/√π,  g(½) = erfcx(√z),  g(s + 1) = s·g(s) + z^s/√π
//!    Σ_k c_k v^(2k) = (sinh(v/2)/(v/2))^(−1/2)
//!    ```
//!    (substitute s = e^(−v) in the beta integral and expand the even factor
//!    in powers of v); the terms fall by about max(λ, 2k/T)²/(4π²) each, so a
//!    dozen terms give full precision.
//! 2. otherwise, when x < (a + 1)/(a + 3/2): the continued fraction of
//!    I_x(a, ½) (DLMF 8.17.22) by the modified Lentz method;
//! 3. otherwise (|t| ≲ 1, the centre): ½·(1 − I_y(½, a)), y = 1 − x, by the
//!    same continued fraction, which converges fast there, without
//!    cancellation since the result is above 0.15.
//!
//! What decides the accuracy far in the tail is the factor x^a = e^(−a·λ)
//! (or e^(−z)): a relative error δ in λ becomes a·λ·δ in the tail, up to
//! 690·δ at p = 1e-300. So λ = ln(1 + t²/ν) (or −ln(1 − r) − ln(1 + r)) is
//! computed in double-word arithmetic from the exact t² or 1 ± r, and the
//! exponential is split as exp(−hi)·exp(−lo). Γ(a + ½)/Γ(a) comes from a
//! table for ν < 32 and from its asymptotic series (Bernoulli numbers) above,
//! never as a difference of two large ln Γ values, which is what limits
//! statrs' incomplete beta to about 1e-10 at ν = 10⁶. Measured against
//! mpmath at 50 digits: at most 2.5e-15 relative (t) and 2.1e-15 (r) for
//! p ≥ 1e-300 and ν up to 10⁷ (`reference.rs`); the largest errors are in
//! the continued fraction near its switch point for ν < 32, the expansion
//! stays below 1e-15.

use super::dd::Dd;
use super::erf::erfcx;
use core::f64::consts::FRAC_2_SQRT_PI;

/// 1/√π.
const FRAC_1_SQRT_PI: f64 = 0.5 * FRAC_2_SQRT_PI;

/// The expansion is used from this many degrees of freedom on …
const EXPANSION_FROM: u64 = 32;
/// … and for λ = −ln x up to this value.
const EXPANSION_MAX_LAMBDA: f64 = 1.0;

/// Beyond this (a − ¼)·λ the tail is below the smallest subnormal: it is at
/// most e^(−(a − ¼)λ)·(a + 2) and a < 10¹⁹.
const UNDERFLOW: f64 = 800.0;

/// Γ((ν + 1)/2)/Γ(ν/2) for ν = 1, …, 31, correctly rounded (mpmath at 50
/// digits; `tests/data/pvalues/gen_constants.py`).
const GAMMA_RATIO: [f64; 31] = [
    0.564_189_583_547_756_3,
    0.886_226_925_452_758,
    FRAC_2_SQRT_PI,
    1.329_340_388_179_137,
    1.504_505_556_127_350_2,
    1.661_675_485_223_921_3,
    1.805_406_667_352_820_2,
    1.938_621_399_427_908_2,
    2.063_321_905_546_08,
    2.180_949_074_356_396_6,
    2.292_579_895_051_2,
    2.399_043_981_792_036_4,
    2.500_996_249_146_764,
    2.598_964_313_608_039_6,
    2.693_380_576_004_207_3,
    2.784_604_621_722_899_2,
    2.872_939_281_071_154_5,
    2.958_642_410_580_580_4,
    3.041_935_709_369_457_5,
    3.123_011_433_390_612_7,
    3.202_037_588_809_955_3,
    3.279_162_005_060_143_3,
    3.354_515_569_229_477,
    3.428_214_823_471_968,
    3.500_364_072_239_454_2,
    3.571_057_107_783_3,
    3.640_378_635_129_032_6,
    3.708_405_458_082_658,
    3.775_207_473_467_144_6,
    3.840_848_510_157_038_7,
    3.905_387_041_517_736,
];

/// Taylor coefficients c_k of (sinh(v/2)/(v/2))^(−1/2) = Σ c_k v^(2k): exact
/// rationals (1, −1/48, 1/2560, −61/7741440, …) rounded, from J. C. P.
/// Miller's recurrence for a power of a series (see the unit test).
const EXPANSION_COEFFICIENTS: [f64; 16] = [
    1.0,
    -0.020_833_333_333_333_332,
    0.000_390_625,
    -7.879_670_965_608_466e-6,
    1.696_766_579_172_178_2e-7,
    -3.805_064_191_721_906e-9,
    8.748_377_596_315_407e-11,
    -2.044_523_359_411_974e-12,
    4.833_351_797_967_704e-14,
    -1.152_434_101_767_386e-15,
    2.766_052_043_599_37e-17,
    -6.674_281_950_891_66e-19,
    1.617_455_077_181_58e-20,
    -3.933_977_920_091_38e-22,
    9.597_634_062_586_047e-24,
    -2.347_690_291_162_632e-25,
];

/// The arguments of the tail: x, y = 1 − x and λ = −ln x (a double-word).
#[derive(Debug, Clone, Copy)]
struct Arg {
    x: f64,
    y: f64,
    lambda: Dd,
}

/// `P(T > t)` for Student's t with `df ≥ 1` degrees of freedom and any `t`
/// that is not NaN.
pub(crate) fn student_t_sf(t: f64, df: u64) -> f64 {
    debug_assert!(!t.is_nan() && df >= 1);
    if t < 0.0 {
        return 1.0 - student_t_sf(-t, df);
    }
    if t == 0.0 {
        return 0.5;
    }
    if t == f64::INFINITY {
        return 0.0;
    }
    let nu = df as f64;
    let arg = if t < 1e150 {
        // λ = ln((ν + t²)/ν) from the exact square.
        let t2 = Dd::prod(t, t);
        let sum = t2.add_f64(nu);
        Arg {
            x: nu / sum.hi,
            y: t2.hi / sum.hi,
            lambda: Dd::ln_ratio(sum, Dd::new(nu)),
        }
    } else {
        // t² would overflow: λ = 2 ln t − ln ν + ln(1 + ν/t²), the last term
        // below 1e-280 and equal to its argument to double-word precision.
        let q = nu / t / t;
        let lambda = Dd::new(t)
            .ln()
            .mul_f64(2.0)
            .sub(Dd::new(nu).ln())
            .add_f64(q);
        Arg {
            x: q / (1.0 + q),
            y: 1.0 / (1.0 + q),
            lambda,
        }
    };
    upper_tail(df, arg)
}

/// `P(R ≥ r)` for Pearson's r of `n ≥ 3` independent pairs from a bivariate
/// normal distribution, for any r in [−1, 1]:
/// R ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1].
pub(crate) fn pearson_sf(r: f64, n: u64) -> f64 {
    debug_assert!(n >= 3 && (-1.0..=1.0).contains(&r));
    if r < 0.0 {
        return 1.0 - pearson_sf(-r, n);
    }
    if r == 0.0 {
        return 0.5;
    }
    if r >= 1.0 {
        return 0.0;
    }
    // x = (1 − r)(1 + r) and λ = −ln x from the exact double-words 1 ± r.
    let lambda = Dd::sum(1.0, -r).mul(Dd::sum(1.0, r)).ln().neg();
    let arg = Arg {
        x: (1.0 - r) * (1.0 + r),
        y: r * r,
        lambda,
    };
    upper_tail(n - 2, arg)
}

/// `½·I_x(ν/2, ½)`, the upper tail for t > 0 (r > 0).
fn upper_tail(df: u64, arg: Arg) -> f64 {
    let a = 0.5 * df as f64;
    if (a - 0.25) * arg.lambda.hi > UNDERFLOW {
        return 0.0;
    }
    if df >= EXPANSION_FROM && arg.lambda.hi <= EXPANSION_MAX_LAMBDA {
        return 0.5 * expansion(a, arg.lambda);
    }
    // Γ(a + ½)/Γ(a)/√π: 1/(a·B(a, ½)) is this over a.
    let ratio = gamma_ratio(df) * FRAC_1_SQRT_PI;
    let a_lambda = arg.lambda.mul_f64(a);
    if arg.x < (a + 1.0) / (a + 1.5) {
        // I_x(a, ½) = x^a·√y/(a·B(a, ½))·cf.
        let rest = arg.y.sqrt() * ratio / a * beta_cf(a, 0.5, arg.x);
        0.5 * exp_neg_times(a_lambda, rest)
    } else {
        // I_y(½, a) = y^½·x^a/(½·B(½, a))·cf, x^a near 1 here.
        let front = 2.0 * arg.y.sqrt() * ratio * exp_neg_times(a_lambda, 1.0);
        0.5 * (1.0 - front * beta_cf(0.5, a, arg.y))
    }
}

/// `rest·e^(−e)` for a double-word e ≥ 0, without underflowing early.
fn exp_neg_times(e: Dd, rest: f64) -> f64 {
    if e.hi < 700.0 {
        // exp(−lo) = 1 − lo to within lo²/2 < 1e-26.
        rest * (-e.hi).exp() * (1.0 - e.lo)
    } else {
        // Only results below about 1e-300 get here.
        (rest.ln() - e.hi - e.lo).exp()
    }
}

/// The continued fraction of I_x(a, b) (DLMF 8.17.22) without its prefactor
/// x^a(1 − x)^b/(a·B(a, b)), by the modified Lentz method:
///
/// ```text
/// 1/(1 + d₁/(1 + d₂/(1 + …))),
/// d_(2m+1) = −(a + m)(a + b + m)x/((a + 2m)(a + 2m + 1)),
/// d_(2m)   = m(b − m)x/((a + 2m − 1)(a + 2m))
/// ```
/// It converges quickly for x < (a + 1)/(a + b + 2).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut f = d;
    // One step of the modified Lentz method; returns the factor of f. (Both
    // quotients from one reciprocal of c·(1 + d_k·d), or both numerators over
    // one denominator, would save divisions but raised the measured error.)
    let mut step = |dk: f64| {
        d = 1.0 / guard(1.0 + dk * d);
        c = guard(1.0 + dk / c);
        c * d
    };
    for m in 1..=2000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        f *= step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)));
        let delta = step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)));
        f *= delta;
        if (delta - 1.0).abs() <= 1e-16 {
            break;
        }
    }
    f
}

/// I_x(a, ½) for large a by the expansion in incomplete gamma functions
/// (see the module docs), λ = −ln x ≤ 1.
fn expansion(a: f64, lambda: Dd) -> f64 {
    let big_t = a - 0.25;
    let z = lambda.mul_f64(big_t);
    let inv_t2 = 1.0 / (big_t * big_t);
    let root = z.hi.sqrt();
    // h_k = g(½ + 2k)/T^(2k), q_k = z^(½ + 2k)/(√π·T^(2k)).
    let mut h = erfcx(root);
    let mut q = root * FRAC_1_SQRT_PI;
    let step = z.hi * z.hi * inv_t2;
    let mut sum = h;
    for (k, &c) in EXPANSION_COEFFICIENTS.iter().enumerate().skip(1) {
        let s = 2.0 * (k - 1) as f64 + 0.5;
        h = ((s + 1.0) * s * h + (s + 1.0 + z.hi) * q) * inv_t2;
        q *= step;
        let term = c * h;
        sum += term;
        if term.abs() <= 1e-17 * sum {
            break;
        }
    }
    // Γ(a + ½)/(Γ(a)·√T) = exp(S(a) − ½·ln(1 − 1/(4a))).
    let prefactor = (ln_gamma_ratio_tail(a) - 0.5 * (-0.25 / a).ln_1p()).exp();
    exp_neg_times(z, prefactor * sum)
}

/// Γ((ν + 1)/2)/Γ(ν/2).
pub(crate) fn gamma_ratio(df: u64) -> f64 {
    match GAMMA_RATIO.get((df as usize).wrapping_sub(1)) {
        Some(&v) => v,
        None => {
            let a = 0.5 * df as f64;
            a.sqrt() * ln_gamma_ratio_tail(a).exp()
        }
    }
}

/// S(a) = ln(Γ(a + ½)/Γ(a)) − ½·ln a for a ≥ 16, from Stirling's series:
///
/// ```text
/// S(a) = Σ_j B_2j·(2^(1−2j) − 2)/(2j(2j − 1))·a^(1−2j)
///      = −1/(8a) + 1/(192a³) − 1/(640a⁵) + 17/(14336a⁷) − 31/(18432a⁹) + 691/(180224a¹¹) − …
/// ```
/// The first omitted term is below 3e-18 at a = 16.
fn ln_gamma_ratio_tail(a: f64) -> f64 {
    let u = 1.0 / (a * a);
    let poly = -1.0 / 8.0
        + u * (1.0 / 192.0
            + u * (-1.0 / 640.0
                + u * (17.0 / 14336.0 + u * (-31.0 / 18432.0 + u * (691.0 / 180_224.0)))));
    poly / a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::rel;

    #[test]
    fn coefficients_follow_millers_recurrence() {
        // g(v) = sinh(v/2)/(v/2) = Σ g_j w^j, w = v², g_j = 1/(4^j (2j + 1)!);
        // h = g^α, α = −½: h₀ = 1, h_k = (1/k)·Σ_{j=1..k} ((α + 1)j − k)·g_j·h_(k−j).
        let n = EXPANSION_COEFFICIENTS.len();
        let mut g = vec![1.0_f64; n];
        for j in 1..n {
            let jf = j as f64;
            g[j] = g[j - 1] / (4.0 * (2.0 * jf) * (2.0 * jf + 1.0));
        }
        let mut h = vec![1.0_f64; n];
        for k in 1..n {
            let kf = k as f64;
            h[k] = (1..=k)
                .map(|j| (0.5 * j as f64 - kf) * g[j] * h[k - j])
                .sum::<f64>()
                / kf;
            assert!(rel(h[k], EXPANSION_COEFFICIENTS[k]) < 1e-14, "k = {k}");
        }
        assert_eq!(EXPANSION_COEFFICIENTS[1], -1.0 / 48.0);
        assert_eq!(EXPANSION_COEFFICIENTS[2], 1.0 / 2560.0);
    }

    #[test]
    fn gamma_ratio_table_follows_the_recurrence() {
        // ρ(a) = Γ(a + ½)/Γ(a): ρ(½) = 1/√π, ρ(1) = √π/2, ρ(a + 1) = ρ(a)(a + ½)/a.
        let pi_sqrt = core::f64::consts::PI.sqrt();
        assert!(rel(GAMMA_RATIO[0], 1.0 / pi_sqrt) < 3e-16);
        assert!(rel(GAMMA_RATIO[1], pi_sqrt / 2.0) < 3e-16);
        for nu in 3..=31_u64 {
            let a = 0.5 * (nu - 2) as f64;
            let want = GAMMA_RATIO[nu as usize - 3] * (a + 0.5) / a;
            assert!(rel(gamma_ratio(nu), want) < 4e-16, "ν = {nu}");
        }
        // The series continues the table: ρ(ν) = ρ(ν − 2)·(ν − 1)/(ν − 2).
        let mut rho = vec![0.0; 41];
        rho[30] = GAMMA_RATIO[29];
        rho[31] = GAMMA_RATIO[30];
        for nu in 32..=40_usize {
            rho[nu] = rho[nu - 2] * (nu - 1) as f64 / (nu - 2) as f64;
            assert!(rel(gamma_ratio(nu as u64), rho[nu]) < 1e-15, "ν = {nu}");
        }
    }

    #[test]
    fn closed_forms_for_one_and_two_degrees_of_freedom() {
        // ν = 1 (Cauchy): P(T > t) = atan(1/t)/π; ν = 2: ½(1 − t/√(2 + t²)).
        for t in [1e-300_f64, 1e-8, 0.3, 1.0, 2.5, 40.0, 1e10, 1e200, 1e300] {
            let cauchy = (1.0 / t).atan() / core::f64::consts::PI;
            assert!(rel(student_t_sf(t, 1), cauchy) < 1e-15, "t = {t}");
        }
        for t in [1e-8_f64, 0.3, 1.0, 2.5, 40.0] {
            let s = (2.0 + t * t).sqrt();
            let two = 1.0 / (s * (s + t));
            assert!(rel(student_t_sf(t, 2), two) < 1e-15, "t = {t}");
        }
        assert_eq!(student_t_sf(0.0, 7), 0.5);
        assert_eq!(student_t_sf(f64::INFINITY, 7), 0.0);
        assert_eq!(student_t_sf(f64::NEG_INFINITY, 7), 1.0);
        assert_eq!(pearson_sf(1.0, 10), 0.0);
        assert_eq!(pearson_sf(-1.0, 10), 1.0);
        assert_eq!(pearson_sf(0.0, 10), 0.5);
    }

    #[test]
    fn pearson_and_t_forms_agree() {
        // r and t = r√(ν/(1 − r²)) describe the same event.
        for n in [3_u64, 10, 60, 1000, 1_000_000] {
            for r in [0.01, 0.3, 0.7, 0.95] {
                let nu = (n - 2) as f64;
                let t = r * (nu / ((1.0 - r) * (1.0 + r))).sqrt();
                let (pr, pt) = (pearson_sf(r, n), student_t_sf(t, n - 2));
                if pt < 1e-300 {
                    assert!(pr < 1e-290);
                    continue;
                }
                // t's rounding moves the tail by about t²·u.
                assert!(rel(pr, pt) < 1e-15 * (1.0 + t * t), "n = {n}, r = {r}");
            }
        }
    }
}
