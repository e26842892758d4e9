//! Closed-form sums of the tabulated weighers over ranges of ranks, so that
//! a sample's cost does not grow with n: Σ_{t=lo}^{hi} φ(t) for
//! φ ∈ {1, c, c², f, f·c, f·c², f²}, c = t/n, by the polygamma functions
//! (asymptotic series at t ≥ 64, plain summation below).

/// A weigher of the built-in table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weigher {
    /// f(t) = 1/(t + n0)².
    Quadratic(u8),
    /// f(t) = 1/t.
    Hyperbolic,
}

/// The functions of a rank whose range sums are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    One,
    C,
    C2,
    F,
    FC,
    FC2,
    FF,
}

impl Basis {
    pub const ALL: [Basis; 7] = [
        Basis::One,
        Basis::C,
        Basis::C2,
        Basis::F,
        Basis::FC,
        Basis::FC2,
        Basis::FF,
    ];
}

/// Below this rank sums are plain loops; from it on, asymptotic series.
const DIRECT: u64 = 64;

impl Weigher {
    #[inline]
    pub fn f(self, t: u64) -> f64 {
        match self {
            Weigher::Quadratic(n0) => {
                let s = t as f64 + f64::from(n0);
                1.0 / (s * s)
            }
            Weigher::Hyperbolic => 1.0 / t as f64,
        }
    }

    /// φ(t) for one rank of n.
    #[inline]
    pub fn value(self, basis: Basis, t: u64, n: u64) -> f64 {
        let c = t as f64 / n as f64;
        match basis {
            Basis::One => 1.0,
            Basis::C => c,
            Basis::C2 => c * c,
            Basis::F => self.f(t),
            Basis::FC => self.f(t) * c,
            Basis::FC2 => self.f(t) * c * c,
            Basis::FF => {
                let f = self.f(t);
                f * f
            }
        }
    }

    /// Σ_{t=lo}^{hi} φ(t) (0 for an empty range).
    pub fn sum(self, basis: Basis, lo: u64, hi: u64, n: u64) -> f64 {
        if lo > hi {
            return 0.0;
        }
        if hi - lo < DIRECT || lo < DIRECT {
            let mid = hi.min(lo.max(DIRECT) - 1);
            if lo <= mid {
                let direct: f64 = (lo..=mid).map(|t| self.value(basis, t, n)).sum();
                return direct + self.sum(basis, mid + 1, hi, n);
            }
        }
        // lo ≥ 64 and the range is long: closed forms.
        let (a, b) = (lo as f64, hi as f64);
        let nf = n as f64;
        let count = b - a + 1.0;
        let sum_t = (a + b) * count / 2.0;
        let sum_t2 = (b * (b + 1.0) * (2.0 * b + 1.0) - (a - 1.0) * a * (2.0 * a - 1.0)) / 6.0;
        match (self, basis) {
            (_, Basis::One) => count,
            (_, Basis::C) => sum_t / nf,
            (_, Basis::C2) => sum_t2 / (nf * nf),
            (Weigher::Hyperbolic, Basis::F) => digamma(b + 1.0) - digamma(a),
            (Weigher::Hyperbolic, Basis::FC) => count / nf,
            (Weigher::Hyperbolic, Basis::FC2) => sum_t / (nf * nf),
            (Weigher::Hyperbolic, Basis::FF) => trigamma(a) - trigamma(b + 1.0),
            (Weigher::Quadratic(n0), _) => {
                let z = f64::from(n0);
                // s = t + n0 over [a + z, b + z].
                let inv1 = digamma(b + z + 1.0) - digamma(a + z);
                let inv2 = trigamma(a + z) - trigamma(b + z + 1.0);
                match basis {
                    Basis::F => inv2,
                    // t/s² = 1/s − z/s²
                    Basis::FC => (inv1 - z * inv2) / nf,
                    // t²/s² = 1 − 2z/s + z²/s²
                    Basis::FC2 => (count - 2.0 * z * inv1 + z * z * inv2) / (nf * nf),
                    Basis::FF => (tetragamma3(a + z) - tetragamma3(b + z + 1.0)) / 6.0,
                    Basis::One | Basis::C | Basis::C2 => unreachable!(),
                }
            }
        }
    }
}

impl Weigher {
    /// The constant of [`Weigher::from`] for n (unused, and NaN, for
    /// n < 64, where [`Weigher::from`] sums directly).
    pub fn end(self, n: u64) -> f64 {
        if n < DIRECT {
            return f64::NAN;
        }
        match self {
            Weigher::Quadratic(z) => trigamma(n as f64 + f64::from(z) + 1.0),
            Weigher::Hyperbolic => digamma(n as f64 + 1.0),
        }
    }

    /// Σ_{t=x}^{n} f(t) by one asymptotic evaluation (x ≥ 64), given
    /// `end` = [`Weigher::end`] of n.
    #[inline]
    pub fn from(self, x: u64, n: u64, end: f64) -> f64 {
        if x < DIRECT || n < DIRECT {
            return self.sum(Basis::F, x, n, n);
        }
        match self {
            Weigher::Quadratic(z) => trigamma(x as f64 + f64::from(z)) - end,
            Weigher::Hyperbolic => end - digamma(x as f64),
        }
    }
}

/// ψ(x), x ≥ 64: ln x − 1/(2x) − Σ B₂ₖ/(2k x²ᵏ).
fn digamma(x: f64) -> f64 {
    debug_assert!(x >= 60.0);
    let r = 1.0 / (x * x);
    x.ln()
        - 0.5 / x
        - r * (1.0 / 12.0 - r * (1.0 / 120.0 - r * (1.0 / 252.0 - r * (1.0 / 240.0 - r / 132.0))))
}

/// ψ′(x), x ≥ 64: 1/x + 1/(2x²) + Σ B₂ₖ/x²ᵏ⁺¹.
fn trigamma(x: f64) -> f64 {
    debug_assert!(x >= 60.0);
    let r = 1.0 / (x * x);
    1.0 / x + 0.5 * r + r / x * (1.0 / 6.0 - r * (1.0 / 30.0 - r * (1.0 / 42.0 - r / 30.0)))
}

/// ψ‴(x), x ≥ 64: 2/x³ + 3/x⁴ + 2/x⁵ − 1/x⁷ + (4/3)/x⁹ − 3/x¹¹.
fn tetragamma3(x: f64) -> f64 {
    debug_assert!(x >= 60.0);
    let r = 1.0 / (x * x);
    let x3 = r / x;
    x3 * (2.0 + 3.0 / x + r * (2.0 - r * (1.0 - r * (4.0 / 3.0 - 3.0 * r))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neumaier's compensated sum.
    fn compensated(values: impl Iterator<Item = f64>) -> f64 {
        let (mut sum, mut c) = (0.0f64, 0.0);
        for v in values {
            let t = sum + v;
            c += if sum.abs() >= v.abs() {
                (sum - t) + v
            } else {
                (v - t) + sum
            };
            sum = t;
        }
        sum + c
    }

    #[test]
    fn sums_to_the_end_match_range_sums() {
        for w in [Weigher::Quadratic(2), Weigher::Hyperbolic] {
            for n in [100u64, 5000, 10_000_000] {
                let end = w.end(n);
                for x in [1u64, 63, 64, 65, 99, 100, 4000, 5000] {
                    if x > n {
                        continue;
                    }
                    let (got, want) = (w.from(x, n, end), w.sum(Basis::F, x, n, n));
                    assert!(
                        (got - want).abs() <= 1e-13 * want,
                        "{w:?} {x} {n}: {got} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn range_sums_match_plain_summation() {
        for w in [
            Weigher::Quadratic(0),
            Weigher::Quadratic(1),
            Weigher::Quadratic(2),
            Weigher::Hyperbolic,
        ] {
            for (lo, hi, n) in [
                (1, 10, 10),
                (5, 300, 1000),
                (64, 5000, 5000),
                (70, 71, 100),
                (100, 100_000, 200_000),
                (3, 2_000_000, 3_000_000),
            ] {
                for b in Basis::ALL {
                    let got = w.sum(b, lo, hi, n);
                    // Plain summation from the small end up would lose the
                    // small terms; sum from the large end.
                    let want = compensated((lo..=hi).rev().map(|t| w.value(b, t, n)));
                    assert!(
                        (got - want).abs() <= 1e-12 * want.abs().max(1e-300),
                        "{w:?} {b:?} [{lo}, {hi}] of {n}: {got} vs {want}"
                    );
                }
            }
        }
    }
}
