//! Double-word ("double-double") arithmetic: a value held as the unevaluated
//! sum `hi + lo` of two `f64` with `|lo| ≤ ½ ulp(hi)`, about 106 significant
//! bits.
//!
//! The building blocks are the error-free transformations (Knuth's TwoSum,
//! Dekker's FastTwoSum, TwoProd by a fused multiply-add) and the double-word
//! algorithms analysed by Joldes, Muller and Popescu (2017), "Tight and
//! rigorous error bounds for basic building blocks of double-word
//! arithmetic", *ACM TOMS* 44(2): relative errors of a few u² (u = 2⁻⁵³).

/// ln 2 as a double-word (mpmath, 50 digits).
pub(crate) const LN_2: Dd = Dd {
    hi: core::f64::consts::LN_2,
    lo: 2.319_046_813_846_299_6e-17,
};

/// 1/3 as a double-word.
const ONE_THIRD: Dd = Dd {
    hi: 1.0 / 3.0,
    lo: 1.850_371_707_708_594e-17,
};

/// A double-word number `hi + lo`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Dd {
    /// The leading part, `fl(hi + lo)`.
    pub(crate) hi: f64,
    /// The trailing part.
    pub(crate) lo: f64,
}

/// `s + e = a + b` exactly, `s = fl(a + b)` (Knuth's TwoSum).
#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `s + e = a + b` exactly when `|a| ≥ |b|` (or a = 0) (Dekker's FastTwoSum).
#[inline]
pub(crate) fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let e = b - (s - a);
    (s, e)
}

/// `p + e = a·b` exactly (barring underflow), `p = fl(a·b)`.
#[inline]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

impl Dd {
    /// The double-word zero.
    pub(crate) const ZERO: Self = Self { hi: 0.0, lo: 0.0 };

    /// `v` exactly.
    #[inline]
    pub(crate) const fn new(v: f64) -> Self {
        Self { hi: v, lo: 0.0 }
    }

    /// `hi + lo` normalised (`|lo| ≤ ½ ulp(hi)`); needs `|hi| ≥ |lo|`.
    #[inline]
    pub(crate) fn renorm(hi: f64, lo: f64) -> Self {
        let (hi, lo) = fast_two_sum(hi, lo);
        Self { hi, lo }
    }

    /// `a + b` exactly, as a double-word.
    #[inline]
    pub(crate) fn sum(a: f64, b: f64) -> Self {
        let (hi, lo) = two_sum(a, b);
        Self { hi, lo }
    }

    /// `a·b` exactly, as a double-word.
    #[inline]
    pub(crate) fn prod(a: f64, b: f64) -> Self {
        let (hi, lo) = two_prod(a, b);
        Self { hi, lo }
    }

    /// The nearest `f64`.
    #[inline]
    pub(crate) fn to_f64(self) -> f64 {
        self.hi + self.lo
    }

    /// `self + b` (AccurateDWPlusDW, relative error ≤ 3u²).
    #[inline]
    pub(crate) fn add(self, b: Self) -> Self {
        let (sh, sl) = two_sum(self.hi, b.hi);
        let (th, tl) = two_sum(self.lo, b.lo);
        let (vh, vl) = fast_two_sum(sh, sl + th);
        Self::renorm(vh, tl + vl)
    }

    /// `self − b`.
    #[inline]
    pub(crate) fn sub(self, b: Self) -> Self {
        self.add(b.neg())
    }

    /// `self + b` for a double `b` (DWPlusFP, relative error ≤ 2u²).
    #[inline]
    pub(crate) fn add_f64(self, b: f64) -> Self {
        let (sh, sl) = two_sum(self.hi, b);
        Self::renorm(sh, self.lo + sl)
    }

    /// `−self`.
    #[inline]
    pub(crate) fn neg(self) -> Self {
        Self {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    /// `self·b` (DWTimesDW with fused multiply-adds, relative error ≤ 4u²).
    #[inline]
    pub(crate) fn mul(self, b: Self) -> Self {
        let (ch, cl1) = two_prod(self.hi, b.hi);
        let tl = self.hi.mul_add(b.lo, self.lo * b.hi);
        Self::renorm(ch, cl1 + tl)
    }

    /// `self·b` for a double `b` (DWTimesFP, relative error ≤ 2u²).
    #[inline]
    pub(crate) fn mul_f64(self, b: f64) -> Self {
        let (ch, cl1) = two_prod(self.hi, b);
        Self::renorm(ch, self.lo.mul_add(b, cl1))
    }

    /// `self / b`: a first quotient, its exact remainder, a correction
    /// (relative error of a few u²).
    #[inline]
    pub(crate) fn div(self, b: Self) -> Self {
        let inv = 1.0 / b.hi;
        let q1 = self.hi * inv;
        let r = self.sub(b.mul_f64(q1));
        let q2 = r.hi * inv;
        let r = r.sub(b.mul_f64(q2));
        let q3 = r.hi * inv;
        let (hi, lo) = fast_two_sum(q1, q2);
        Self { hi, lo }.add_f64(q3)
    }

    /// `self / b` for a double `b`.
    #[inline]
    pub(crate) fn div_f64(self, b: f64) -> Self {
        self.div(Self::new(b))
    }

    /// `self·2^k` for |k| ≤ 2044, exact barring underflow.
    #[inline]
    fn scale2(self, k: i32) -> Self {
        // Two factors 2^(k/2), 2^(k − k/2), each a normal double.
        let pow2 = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
        let (f, g) = (pow2(k / 2), pow2(k - k / 2));
        Self {
            hi: self.hi * f * g,
            lo: self.lo * f * g,
        }
    }

    /// `ln self` for finite `self > 0`, with an absolute error below about
    /// 1e-20 + 1e-31·|ln self| (the doubles summing the series beyond its
    /// second term), and a relative error of about u·s⁴ + u²,
    /// s ≈ (self − 1)/2, when `self` is near 1. See [`Dd::ln_ratio`].
    pub(crate) fn ln(self) -> Self {
        Self::ln_ratio(self, Self::new(1.0))
    }

    /// `ln(num/den)` for finite `num, den > 0` with |log₂(num/den)| below
    /// about 2000, without forming the quotient (one double-word division
    /// instead of two), with the accuracy of [`Dd::ln`]:
    ///
    /// ```text
    /// num/den = 2^k·m,  m ∈ [√½, √2),   s = (m − 1)/(m + 1) = (num·2^(−k) − den)/(num·2^(−k) + den)
    /// ln(num/den) = k·ln 2 + 2·artanh s = k·ln 2 + 2s·(1 + s²/3 + s⁴/5 + …)
    /// ```
    /// `num·2^(−k) ± den`, the quotient, `2s` and `2s·s²/3` are double-words;
    /// the rest of the series, `s⁴/5 + s⁶/7 + …` ≤ 2e-4, is summed in doubles
    /// (|s| ≤ 0.172).
    pub(crate) fn ln_ratio(num: Self, den: Self) -> Self {
        debug_assert!(num.hi > 0.0 && num.hi.is_finite() && den.hi > 0.0 && den.hi.is_finite());
        // Bring subnormals into the normal range first (exact).
        let lift = |v: Self| {
            if v.hi < f64::MIN_POSITIVE {
                (v.scale2(600), 600)
            } else {
                (v, 0)
            }
        };
        let (num, pre_num) = lift(num);
        let (den, pre_den) = lift(den);
        let exponent = |v: f64| ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let mut k = exponent(num.hi) - exponent(den.hi);
        let mut m = num.scale2(-k);
        if m.hi >= core::f64::consts::SQRT_2 * den.hi {
            m = m.scale2(-1);
            k += 1;
        } else if m.hi < core::f64::consts::FRAC_1_SQRT_2 * den.hi {
            m = m.scale2(1);
            k -= 1;
        }
        let s = m.sub(den).div(m.add(den));
        let s2 = s.mul(s);
        // R = s²/5 + s⁴/7 + … + s²⁰/23 ≤ 0.006 in doubles (the next term is
        // below 1e-20); 1/3 + R and the rest as double-words.
        const INV_ODD: [f64; 10] = [
            1.0 / 5.0,
            1.0 / 7.0,
            1.0 / 9.0,
            1.0 / 11.0,
            1.0 / 13.0,
            1.0 / 15.0,
            1.0 / 17.0,
            1.0 / 19.0,
            1.0 / 21.0,
            1.0 / 23.0,
        ];
        let mut rest = 0.0;
        for &c in INV_ODD.iter().rev() {
            rest = s2.hi * (c + rest);
        }
        let two_s = s.mul_f64(2.0);
        let tail = s2.mul(ONE_THIRD.add_f64(rest));
        let ln_m = two_s.add(two_s.mul(tail));
        let k = f64::from(k - pre_num + pre_den);
        LN_2.mul_f64(k).add(ln_m)
    }

    /// `√self` for `self ≥ 0`: one Newton step from the double root.
    #[inline]
    pub(crate) fn sqrt(self) -> Self {
        if self.hi <= 0.0 {
            return Self::ZERO;
        }
        let s = self.hi.sqrt();
        // self − s² exactly enough: s² as a double-word.
        let rem = self.sub(Self::prod(s, s));
        Self::renorm(s, rem.hi / (2.0 * s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_free_transformations_are_exact() {
        let (s, e) = two_sum(1.0, 1e-20);
        assert_eq!((s, e), (1.0, 1e-20));
        let (s, e) = two_sum(1e-20, 1.0);
        assert_eq!((s, e), (1.0, 1e-20));
        // (1 + 2⁻³⁰)² = 1 + 2⁻²⁹ + 2⁻⁶⁰: the last term is the product's error.
        let a = 1.0 + 2f64.powi(-30);
        let (p, e) = two_prod(a, a);
        assert_eq!((p, e), (1.0 + 2f64.powi(-29), 2f64.powi(-60)));
    }

    #[test]
    fn arithmetic_keeps_about_106_bits() {
        // 1/3 as a double-word, times 3, is 1 to within a few u².
        let third = Dd::new(1.0).div(Dd::new(3.0));
        let one = third.mul_f64(3.0).sub(Dd::new(1.0));
        assert!(one.to_f64().abs() < 1e-31, "{one:?}");
        // √2·√2 − 2.
        let r = Dd::new(2.0).sqrt();
        let two = r.mul(r).sub(Dd::new(2.0));
        assert!(two.to_f64().abs() < 1e-31, "{two:?}");
        // (1 + 2⁻⁶⁰) − 1 keeps the tail a double would drop.
        let x = Dd::new(1.0).add_f64(2f64.powi(-60)).sub(Dd::new(1.0));
        assert_eq!(x.to_f64(), 2f64.powi(-60));
        assert_eq!(Dd::new(0.0).sqrt(), Dd::ZERO);
        assert_eq!(Dd::new(6.0).div_f64(4.0).to_f64(), 1.5);
    }

    #[test]
    fn logarithm_to_double_word_accuracy() {
        // ln 2 itself, ln 1 = 0, and exp(ln v) = v.
        let l2 = Dd::new(2.0).ln();
        assert_eq!((l2.hi, l2.lo), (LN_2.hi, LN_2.lo));
        assert_eq!(Dd::new(1.0).ln().to_f64(), 0.0);
        for v in [
            1e-310,
            1e-300,
            0.3,
            0.707,
            1.414,
            3.0,
            1e10,
            1e300,
            f64::MAX,
        ] {
            let l = Dd::new(v).ln();
            let err = (l.to_f64() - v.ln()).abs() / v.ln().abs();
            assert!(err <= 1.5 * f64::EPSILON, "{v}: {l:?} vs {}", v.ln());
        }
        // Near 1 the relative accuracy is kept: ln(1 + 2⁻⁷⁰) = 2⁻⁷⁰ − 2⁻¹⁴¹ + …
        let tiny = 2f64.powi(-70);
        let l = Dd::new(1.0).add_f64(tiny).ln();
        assert_eq!(l.hi, tiny);
        assert!((l.lo + 2f64.powi(-141)).abs() <= 2f64.powi(-160));
        // ln 10 to 32 digits: 2.3025850929940456840179914546844 (mpmath).
        let l10 = Dd::new(10.0).ln();
        assert_eq!(l10.hi, core::f64::consts::LN_10);
        assert!(
            (l10.lo - -2.170_756_223_382_249_4e-16).abs() < 1e-20,
            "{l10:?}"
        );
        // ln(1/3) from the double-word 1/3.
        let third = Dd::new(1.0).div_f64(3.0).ln();
        let want = Dd::new(3.0).ln().neg();
        assert!(third.sub(want).to_f64().abs() < 1e-31);
        // A ratio without its quotient: ln(10/3) = ln 10 − ln 3, and
        // ln((1 + 2⁻⁷⁰)/1) keeps its relative accuracy.
        let r = Dd::ln_ratio(Dd::new(10.0), Dd::new(3.0));
        let want = Dd::new(10.0).ln().sub(Dd::new(3.0).ln());
        assert!(r.sub(want).to_f64().abs() < 2e-20, "{r:?} {want:?}");
        let r = Dd::ln_ratio(Dd::new(1.0).add_f64(tiny), Dd::new(1.0));
        assert_eq!(r.hi, tiny);
        let r = Dd::ln_ratio(Dd::new(7.0), Dd::new(7.0 * 1024.0));
        assert!(r.add(LN_2.mul_f64(10.0)).to_f64().abs() < 1e-31);
        let r = Dd::ln_ratio(Dd::new(1e-310), Dd::new(1e300));
        assert!((r.to_f64() - (1e-310_f64.ln() - 1e300_f64.ln())).abs() < 1e-12);
    }
}
