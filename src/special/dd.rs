//! Double-word ("double-double") arithmetic: a value held as the unevaluated
//! sum `hi + lo` of two `f64` with `|lo| ≤ ½ ulp(hi)`, about 106 significant
//! bits.
//!
//! The building blocks are the error-free transformations (Knuth's TwoSum,
//! Dekker's FastTwoSum, TwoProd by a fused multiply-add) and the double-word
//! algorithms analysed by Joldes, Muller and Popescu (2017), "Tight and
//! rigorous error bounds for basic building blocks of double-word
//! arithmetic", *ACM TOMS* 44(2): relative errors of a few u² (u = 2⁻⁵³).

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
        let q1 = self.hi / b.hi;
        let r = self.sub(b.mul_f64(q1));
        let q2 = r.hi / b.hi;
        let r = r.sub(b.mul_f64(q2));
        let q3 = r.hi / b.hi;
        let (hi, lo) = fast_two_sum(q1, q2);
        Self { hi, lo }.add_f64(q3)
    }

    /// `self / b` for a double `b`.
    #[inline]
    pub(crate) fn div_f64(self, b: f64) -> Self {
        self.div(Self::new(b))
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
}
