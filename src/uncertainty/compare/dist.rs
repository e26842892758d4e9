//! The distributions behind the comparison tests: Student's t quantile and
//! density, the χ² tail (Friedman's test) and the studentized range for
//! infinite degrees of freedom (Nemenyi's critical difference).
//!
//! Tails are computed so that their relative error stays small far out:
//!
//! - **χ² tail.** With y = x/2 and a = df/2, for integer a
//!   `Q(a, y) = e^(−y)·Σ_(j<a) y^j/j!`, and for a = m + ½
//!   `Q(a, y) = e^(−y)·[erfcx(√y) + Σ_(j=1..m) y^(j−½)/Γ(j + ½)]`
//!   (Abramowitz & Stegun 26.4.4, 26.4.5): sums of positive terms, with no
//!   cancellation anywhere, kept in range by exact rescaling by powers of
//!   two; ln Q is available where Q underflows.
//! - **Studentized range** of k standard normals:
//!   `P(R > q) = k ∫ φ(z) [Φ(z)^(k−1) − (Φ(z) − Φ(z − q))^(k−1)] dz`
//!   (the second term is P(R ≤ q) (Hartley 1942), the first integrates to
//!   1), with the bracket written `Φ(z)^(k−1)·(−expm1((k−1)·ln1p(−r)))`,
//!   `r = Φ(z − q)/Φ(z)`, so that a small tail is not the difference of two
//!   numbers near 1. Gauss–Legendre rules of 16 nodes on panels of width 1
//!   over z ∈ [−12, 12 + q/2] (the integrand is a product of Gaussian-like
//!   factors of width ≥ 0.7, so each panel is exact to rounding).
//! - **Quantiles** (t, range) by a safeguarded Newton or secant iteration
//!   inside a bracket, to a few units in the last place of the tail.

use crate::special::erf::{erfcx, normal_sf};
use crate::special::student::{gamma_ratio, student_t_sf};
use core::f64::consts::PI;
use std::sync::OnceLock;

/// The density of Student's t with `df ≥ 1` degrees of freedom.
pub(crate) fn student_t_pdf(t: f64, df: u64) -> f64 {
    let nu = df as f64;
    let front = gamma_ratio(df) / (nu * PI).sqrt();
    front * (-(nu + 1.0) / 2.0 * (t / nu * t).ln_1p()).exp()
}

/// The t with `P(T > t) = p` for Student's t with `df ≥ 1` degrees of
/// freedom, `0 < p < 1`.
pub(crate) fn student_t_isf(p: f64, df: u64) -> f64 {
    debug_assert!(p > 0.0 && p < 1.0 && df >= 1);
    if p > 0.5 {
        // 1 − p is exact for p in [½, 1] (Sterbenz).
        return -student_t_isf(1.0 - p, df);
    }
    if p == 0.5 {
        return 0.0;
    }
    let sf = |t: f64| student_t_sf(t, df);
    // A bracket [lo, hi] with sf(lo) > p ≥ sf(hi), from the normal quantile.
    let start = normal_isf(p).max(1e-3);
    let (mut lo, mut hi) = (0.0, start);
    while sf(hi) > p {
        lo = hi;
        hi *= 2.0;
        if !hi.is_finite() {
            return f64::INFINITY;
        }
    }
    let mut t = hi;
    for _ in 0..200 {
        let f = sf(t) - p;
        if f == 0.0 {
            return t;
        }
        if f > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let newton = t + f / student_t_pdf(t, df);
        let next = if newton > lo && newton < hi && newton.is_finite() {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - t).abs() <= 2.0 * f64::EPSILON * t.abs() || next == lo || next == hi {
            return next;
        }
        t = next;
    }
    t
}

/// The z with `P(Z > z) = p` for a standard normal Z, `0 < p < 1`: an
/// initial value refined by Newton steps on [`normal_sf`], which is
/// accurate to a few ulp, so the result is too.
pub(crate) fn normal_isf(p: f64) -> f64 {
    debug_assert!(p > 0.0 && p < 1.0);
    if p > 0.5 {
        return -normal_isf(1.0 - p);
    }
    if p == 0.5 {
        return 0.0;
    }
    // Start: the tail's leading behaviour, refined below.
    let mut z = {
        let l = -2.0 * p.ln();
        let s = l.sqrt();
        // Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4).
        s - (2.515_517 + 0.802_853 * s + 0.010_328 * l)
            / (1.0 + 1.432_788 * s + 0.189_269 * l + 0.001_308 * l * s)
    };
    for _ in 0..50 {
        let f = normal_sf(z) - p;
        let d = (-0.5 * z * z).exp() / (2.0 * PI).sqrt();
        // Halley's step for P(Z > z) − p (its second derivative is z·φ(z)).
        let newton = f / d;
        let step = newton / (1.0 - 0.5 * z * newton);
        let next = z + step;
        if (next - z).abs() <= 2.0 * f64::EPSILON * next.abs() {
            return next;
        }
        z = next;
    }
    z
}

/// Exact scaling of a running sum by powers of two, to keep a sum of
/// positive terms in range: the value is `sum·2^exponent`.
#[derive(Debug, Clone, Copy)]
struct Scaled {
    sum: f64,
    term: f64,
    exponent: i32,
}

impl Scaled {
    const BIG: f64 = 1e280;
    const SHIFT: i32 = 900;

    fn new(first: f64) -> Self {
        Self {
            sum: first,
            term: first,
            exponent: 0,
        }
    }

    /// Multiplies the current term by `factor` and adds it.
    fn next(&mut self, factor: f64) {
        self.term *= factor;
        self.sum += self.term;
        if self.sum > Self::BIG {
            let s = 2f64.powi(-Self::SHIFT);
            self.sum *= s;
            self.term *= s;
            self.exponent += Self::SHIFT;
        }
    }

    /// `ln(sum·2^exponent·e^(−y))`, and the value itself when it is a
    /// normal number.
    fn times_exp_neg(self, y: f64) -> (f64, f64) {
        let ln = self.sum.ln() + f64::from(self.exponent) * core::f64::consts::LN_2 - y;
        let value = if self.exponent == 0 && y < 700.0 {
            self.sum * (-y).exp()
        } else {
            ln.exp()
        };
        (value, ln)
    }
}

/// `P(χ²_df > x)` and its natural logarithm, for `df ≥ 1` and `x ≥ 0`.
///
/// The logarithm stays accurate (to about `|ln P|·ε` absolute) where `P`
/// underflows to 0.
pub(crate) fn chi2_sf(x: f64, df: u64) -> (f64, f64) {
    debug_assert!(df >= 1 && x >= 0.0);
    if x == 0.0 {
        return (1.0, 0.0);
    }
    if x == f64::INFINITY {
        return (0.0, f64::NEG_INFINITY);
    }
    let y = 0.5 * x;
    if df.is_multiple_of(2) {
        // Q(a, y) = e^(−y) Σ_(j<a) y^j/j!,  a = df/2.
        let mut s = Scaled::new(1.0);
        for j in 1..df / 2 {
            s.next(y / j as f64);
        }
        s.times_exp_neg(y)
    } else {
        // Q(m + ½, y) = e^(−y) [erfcx(√y) + Σ_(j=1..m) y^(j−½)/Γ(j + ½)].
        let root = y.sqrt();
        let m = (df - 1) / 2;
        if m == 0 {
            let v = erfcx(root);
            return Scaled::new(v).times_exp_neg(y);
        }
        // u_1 = y^½/Γ(3/2) = 2√y/√π, u_(j+1) = u_j·y/(j + ½).
        let mut s = Scaled::new(2.0 * root / PI.sqrt());
        for j in 1..m {
            s.next(y / (j as f64 + 0.5));
        }
        // erfcx(√y) is added at the scale of the sum.
        s.sum += erfcx(root) * 2f64.powi(-s.exponent);
        s.times_exp_neg(y)
    }
}

/// The nodes and weights of the 16-point Gauss–Legendre rule on [−1, 1],
/// computed once by Newton's method on the Legendre polynomial.
fn gauss_legendre() -> &'static [(f64, f64); 16] {
    static RULE: OnceLock<[(f64, f64); 16]> = OnceLock::new();
    RULE.get_or_init(|| {
        const N: usize = 16;
        let mut rule = [(0.0, 0.0); N];
        for i in 0..N / 2 {
            // Tricomi's initial value for the i-th root.
            let mut x = (PI * (i as f64 + 0.75) / (N as f64 + 0.5)).cos();
            let mut dp = 0.0;
            for _ in 0..100 {
                // P_N(x) and P_N'(x) by the three-term recurrence.
                let (mut p0, mut p1) = (1.0, x);
                for k in 2..=N {
                    let k = k as f64;
                    let p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                dp = N as f64 * (x * p1 - p0) / (x * x - 1.0);
                let dx = p1 / dp;
                x -= dx;
                if dx.abs() <= 1e-16 {
                    break;
                }
            }
            let w = 2.0 / ((1.0 - x * x) * dp * dp);
            rule[i] = (-x, w);
            rule[N - 1 - i] = (x, w);
        }
        rule
    })
}

/// `P(R > q)` for the range R of `k ≥ 2` independent standard normals
/// (the studentized range with infinitely many degrees of freedom).
pub(crate) fn range_sf(q: f64, k: usize) -> f64 {
    debug_assert!(k >= 2);
    if q <= 0.0 {
        return 1.0;
    }
    if q == f64::INFINITY {
        return 0.0;
    }
    let m = (k - 1) as f64;
    let ln_phi = |z: f64| {
        // ln Φ(z), accurate on both sides.
        if z > 0.0 {
            (-normal_sf(z)).ln_1p()
        } else {
            normal_sf(-z).ln()
        }
    };
    let integrand = |z: f64| {
        let lower = ln_phi(z);
        if lower == f64::NEG_INFINITY {
            return 0.0;
        }
        let r = (ln_phi(z - q) - lower).exp();
        let bracket = -(m * (-r).ln_1p()).exp_m1();
        let density = k as f64 * (-0.5 * z * z + m * lower).exp() / (2.0 * PI).sqrt();
        density * bracket
    };
    let (lo, hi) = (-12.0, 12.0 + 0.5 * q);
    let panels = (hi - lo).ceil() as usize;
    let width = (hi - lo) / panels as f64;
    let rule = gauss_legendre();
    let mut total = crate::sum::Neumaier::default();
    for p in 0..panels {
        let centre = lo + (p as f64 + 0.5) * width;
        let mut panel = 0.0;
        for &(x, w) in rule {
            panel += w * integrand(centre + 0.5 * width * x);
        }
        total.add(0.5 * width * panel);
    }
    total.value().clamp(0.0, 1.0)
}

/// The q with `P(R > q) = alpha` for the range of `k ≥ 2` standard normals,
/// `0 < alpha < 1`: the upper α point of the studentized range with
/// infinitely many degrees of freedom (Nemenyi's `q_α·√2`).
pub(crate) fn range_isf(alpha: f64, k: usize) -> f64 {
    debug_assert!(alpha > 0.0 && alpha < 1.0 && k >= 2);
    let f = |q: f64| range_sf(q, k) - alpha;
    // A bracket: P(R > q) decreases from 1 at q = 0.
    let (mut lo, mut hi) = (0.0, 4.0);
    while f(hi) > 0.0 {
        lo = hi;
        hi *= 2.0;
        if hi > 1e3 {
            return f64::INFINITY;
        }
    }
    // Illinois (regula falsi with halving), then bisection if it stalls.
    let (mut flo, mut fhi) = (f(lo), f(hi));
    let mut side = 0i8;
    for _ in 0..200 {
        let q = (lo * fhi - hi * flo) / (fhi - flo);
        let q = if q > lo && q < hi { q } else { 0.5 * (lo + hi) };
        let fq = f(q);
        if fq == 0.0 || (hi - lo) <= 4.0 * f64::EPSILON * q {
            return q;
        }
        if fq > 0.0 {
            lo = q;
            flo = fq;
            if side == -1 {
                fhi *= 0.5;
            }
            side = -1;
        } else {
            hi = q;
            fhi = fq;
            if side == 1 {
                flo *= 0.5;
            }
            side = 1;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::rel;

    #[test]
    fn t_quantiles_invert_the_tail() {
        // scipy.stats.t.isf(0.025, df): 12.706204736174705 (1),
        // 2.2621571627982053 (9), 1.983971518523552 (100).
        assert!(rel(student_t_isf(0.025, 1), 12.706_204_736_174_705) < 1e-14);
        assert!(rel(student_t_isf(0.025, 9), 2.262_157_162_798_205_3) < 1e-14);
        assert!(rel(student_t_isf(0.025, 100), 1.983_971_518_523_552) < 1e-14);
        // Cauchy: isf(p) = tan(π(½ − p)) = 1/tan(πp) (well conditioned).
        for p in [0.4, 0.1, 1e-3, 1e-9] {
            let want = 1.0 / (PI * p).tan();
            assert!(rel(student_t_isf(p, 1), want) < 1e-13, "{p}");
        }
        assert_eq!(student_t_isf(0.5, 4), 0.0);
        assert!(rel(student_t_isf(0.975, 9), -2.262_157_162_798_205_3) < 1e-14);
        for df in [1, 2, 3, 7, 30, 31, 32, 33, 200, 10_000] {
            for p in [0.45, 0.2, 0.025, 1e-5, 1e-20, 1e-100] {
                // Within 4 ulps of the root (far out, one ulp of t moves
                // the tail by about t²·ε relative: 1e-13 at t = 21), or
                // the tail within 1e-14 (near the centre the tail's own
                // rounding, a few ulp, is larger than 4 ulps of t make).
                let t = student_t_isf(p, df);
                let (below, above) = (
                    t * (1.0 - 4.0 * f64::EPSILON),
                    t * (1.0 + 4.0 * f64::EPSILON),
                );
                let bracketed = student_t_sf(below, df) >= p && p >= student_t_sf(above, df);
                assert!(
                    bracketed || rel(student_t_sf(t, df), p) < 1e-14,
                    "df {df}, p {p}"
                );
            }
        }
    }

    #[test]
    fn t_density_by_hand() {
        // df = 1: 1/(π(1 + t²)); df = 2: (2 + t²)^(−3/2).
        assert!(rel(student_t_pdf(0.7, 1), 1.0 / (PI * 1.49)) < 1e-15);
        assert!(rel(student_t_pdf(1.5, 2), (4.25f64).powf(-1.5)) < 1e-15);
    }

    #[test]
    fn normal_quantiles() {
        assert!(rel(normal_isf(0.025), 1.959_963_984_540_054) < 1e-15);
        // scipy.stats.norm.isf(1e-300) = 37.0470962993612.
        assert!(rel(normal_isf(1e-300), 37.047_096_299_361_2) < 1e-14);
        assert!(rel(normal_isf(0.975), -1.959_963_984_540_054) < 1e-15);
        assert_eq!(normal_isf(0.5), 0.0);
    }

    #[test]
    fn chi2_tails_by_hand() {
        // df = 2: e^(−x/2); df = 1: erfc(√(x/2)) = 2·P(Z > √x).
        for x in [0.1, 1.0, 7.5, 100.0, 1400.0] {
            let (p, ln) = chi2_sf(x, 2);
            assert!(rel(ln, -0.5 * x) < 1e-15, "{x}");
            if x < 1000.0 {
                assert!(rel(p, (-0.5 * x).exp()) < 1e-15, "{x}");
            }
            let (p1, _) = chi2_sf(x, 1);
            if x < 1400.0 {
                assert!(rel(p1, 2.0 * normal_sf(x.sqrt())) < 1e-13, "{x}");
            }
        }
        // df = 4: e^(−y)(1 + y); df = 3: erfc(√y) + 2√(y/π) e^(−y).
        let y = 3.25;
        assert!(rel(chi2_sf(2.0 * y, 4).0, (-y).exp() * (1.0 + y)) < 1e-15);
        let want = 2.0 * normal_sf((2.0 * y).sqrt()) + 2.0 * (y / PI).sqrt() * (-y).exp();
        assert!(rel(chi2_sf(2.0 * y, 3).0, want) < 1e-14);
        assert_eq!(chi2_sf(0.0, 5), (1.0, 0.0));
        // Far tail: ln Q(47, 2632) for df 94, x 5264 (mpmath: −2436.7066…).
        let (p, ln) = chi2_sf(5264.0, 94);
        assert_eq!(p, 0.0);
        assert!(ln < -2000.0 && ln.is_finite());
    }

    #[test]
    fn range_of_two_normals_is_a_scaled_half_normal() {
        // R = |Z₁ − Z₂| = √2·|Z|: P(R > q) = 2·P(Z > q/√2).
        for q in [0.1, 1.0, 2.77, 5.0, 9.0] {
            let want = 2.0 * normal_sf(q / 2f64.sqrt());
            assert!(rel(range_sf(q, 2), want) < 1e-13, "{q}");
        }
        let q = range_isf(0.05, 2);
        assert!(rel(q / 2f64.sqrt(), 1.959_963_984_540_054) < 1e-13);
    }

    #[test]
    fn nemenyi_critical_values_of_demsar_table_5() {
        // Demšar (2006), Table 5(a), q_0.05 = (upper 5 % point)/√2, k = 2…10.
        // The table's third decimal is off by one in places (k = 3: 2.343,
        // SciPy's studentized_range and mpmath give 2.34370; k = 7: 2.949
        // for 2.94832), hence 1.5e-3; tests/data/compare holds the values
        // to 1e-12.
        let table = [
            1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164,
        ];
        for (k, want) in (2..).zip(table) {
            let q = range_isf(0.05, k) / 2f64.sqrt();
            assert!((q - want).abs() < 1.5e-3, "k = {k}: {q} vs {want}");
        }
        // Table 5(a), q_0.10.
        let table = [
            1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920,
        ];
        for (k, want) in (2..).zip(table) {
            let q = range_isf(0.10, k) / 2f64.sqrt();
            assert!((q - want).abs() < 1.5e-3, "k = {k}: {q} vs {want}");
        }
    }
}
