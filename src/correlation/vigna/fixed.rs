//! Exact fixed-point integers for the kernel's weighted sums.
//!
//! Every weight is a finite f64 ≥ 0, so it is an integer multiple of a power
//! of two: w = m·2^e. With `lsb` the exponent of the lowest set bit over all
//! weights, each weight is the integer w·2^(−lsb), and every pair sum the
//! kernel needs is an integer multiple of 2^lsb (additive pair weights) or
//! 2^(2·lsb) (multiplicative ones). [`Fixed`] holds such integers in `N`
//! 64-bit limbs, wide enough for the largest sum (chosen from the weights'
//! range and n before any arithmetic), so additions, subtractions and
//! products are exact, and each reported sum is rounded once, to the nearest
//! f64 ([`Fixed::rounded`]).

/// An unsigned integer of `N` little-endian 64-bit limbs. Arithmetic wraps
/// modulo 2^(64·N); the kernel chooses `N` so that no true value exceeds it,
/// so every result is exact (a difference whose true value is non-negative
/// is exact even when the operands were accumulated in another order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fixed<const N: usize>(pub(crate) [u64; N]);

/// The f64 `m·2^e` decomposition of a finite non-negative value: `m` the
/// integer significand (with the hidden bit), `e` the exponent of its unit.
#[inline]
fn decompose(w: f64) -> (u64, i32) {
    let bits = w.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    }
}

/// Exponent of the unit of the significand stored in the f64 bits `b`
/// (sign cleared): the value is m·2^result with m the integer significand.
#[inline]
pub(crate) fn unit_exponent(b: u64) -> i32 {
    (b >> 52).max(1) as i32 - 1075
}

/// Exponent of the lowest set bit of a finite w > 0 (w = odd·2^result).
#[cfg(test)]
#[inline]
pub(crate) fn lowest_bit(w: f64) -> i32 {
    let (m, e) = decompose(w);
    e + m.trailing_zeros() as i32
}

/// Exponent just above the highest set bit of a finite w > 0
/// (2^(result − 1) ≤ w < 2^result).
#[cfg(test)]
#[inline]
pub(crate) fn top_bit(w: f64) -> i32 {
    let (m, e) = decompose(w);
    e + (64 - m.leading_zeros()) as i32
}

impl<const N: usize> Fixed<N> {
    pub(crate) const ZERO: Self = Self([0; N]);

    /// The integer w·2^(−lsb) of a finite weight w ≥ 0 whose lowest set bit
    /// is at or above 2^lsb (and whose value fits N limbs).
    #[inline]
    pub(crate) fn from_weight(w: f64, lsb: i32) -> Self {
        let (m, e) = decompose(w);
        let mut r = Self::ZERO;
        let shift = e - lsb;
        // A negative shift only drops zero bits (the lowest set bit is at or
        // above lsb).
        let (m, shift) = if shift < 0 {
            (m >> shift.unsigned_abs().min(63), 0)
        } else {
            (m, shift as u32)
        };
        if shift < 128 - 53 && N >= 2 {
            // The common case: the first two limbs, by one 128-bit shift.
            let v = u128::from(m) << shift;
            r.0[0] = v as u64;
            r.0[1] = (v >> 64) as u64;
            return r;
        }
        let (limb, off) = ((shift / 64) as usize, shift % 64);
        if let Some(v) = r.0.get_mut(limb) {
            *v = m << off;
        }
        if off > 0
            && let Some(v) = r.0.get_mut(limb + 1)
        {
            *v = m >> (64 - off);
        }
        r
    }

    /// `self / 2` (exact for an even value).
    #[inline]
    pub(crate) fn half(&self) -> Self {
        let mut r = Self::ZERO;
        for i in 0..N {
            let hi = self.0.get(i + 1).map_or(0, |&l| l << 63);
            r.0[i] = (self.0[i] >> 1) | hi;
        }
        r
    }

    #[inline]
    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self += other` (wrapping).
    #[inline]
    pub(crate) fn add(&mut self, other: &Self) {
        let mut carry = 0u128;
        for (a, &b) in self.0.iter_mut().zip(&other.0) {
            let s = u128::from(*a) + u128::from(b) + carry;
            *a = s as u64;
            carry = s >> 64;
        }
    }

    /// `self −= other` (wrapping).
    #[inline]
    pub(crate) fn sub(&mut self, other: &Self) {
        let mut borrow = false;
        for (a, &b) in self.0.iter_mut().zip(&other.0) {
            let (d, b1) = a.overflowing_sub(b);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *a = d;
            borrow = b1 | b2;
        }
    }

    /// `self + other`.
    #[inline]
    #[must_use]
    pub(crate) fn plus(mut self, other: &Self) -> Self {
        self.add(other);
        self
    }

    /// `self − other`.
    #[inline]
    #[must_use]
    pub(crate) fn minus(mut self, other: &Self) -> Self {
        self.sub(other);
        self
    }

    /// `self += v·2^shift` (wrapping).
    #[inline]
    pub(crate) fn add_shifted(&mut self, v: u128, shift: u32) {
        let (limb, off) = ((shift / 64) as usize, shift % 64);
        // 64 − off ≤ 64 is a valid u128 shift; 128 − off is not for off = 0,
        // where nothing of v reaches the third limb.
        let parts = [
            (v as u64) << off,
            (v >> (64 - off)) as u64,
            v.checked_shr(128 - off).unwrap_or(0) as u64,
        ];
        let mut carry = 0u128;
        for (i, a) in self.0.iter_mut().enumerate().skip(limb) {
            let part = parts.get(i - limb).copied().unwrap_or(0);
            if part == 0 && carry == 0 && i >= limb + 3 {
                break;
            }
            let t = u128::from(*a) + u128::from(part) + carry;
            *a = t as u64;
            carry = t >> 64;
        }
    }

    /// `self · c` in `M` limbs (wrapping).
    #[inline]
    pub(crate) fn mul_u64<const M: usize>(&self, c: u64) -> Fixed<M> {
        let mut r = Fixed::<M>::ZERO;
        let mut carry = 0u128;
        for (i, &a) in self.0.iter().enumerate() {
            let t = u128::from(a) * u128::from(c) + carry;
            if let Some(v) = r.0.get_mut(i) {
                *v = t as u64;
            }
            carry = t >> 64;
        }
        if let Some(v) = r.0.get_mut(N) {
            *v = carry as u64;
        }
        r
    }

    /// `self · other` in `M` limbs (wrapping: the true product must fit).
    #[inline]
    pub(crate) fn mul<const M: usize>(&self, other: &Self) -> Fixed<M> {
        let mut r = Fixed::<M>::ZERO;
        for (i, &a) in self.0.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let mut carry = 0u128;
            for (j, &b) in other.0.iter().enumerate() {
                if let Some(v) = r.0.get_mut(i + j) {
                    let t = u128::from(a) * u128::from(b) + u128::from(*v) + carry;
                    *v = t as u64;
                    carry = t >> 64;
                }
            }
            if let Some(v) = r.0.get_mut(i + N) {
                *v = carry as u64;
            }
        }
        r
    }

    /// Index of the highest set bit, or `None` for zero.
    #[inline]
    fn top(&self) -> Option<u32> {
        let i = self.0.iter().rposition(|&l| l != 0)?;
        Some(64 * i as u32 + 63 - self.0[i].leading_zeros())
    }

    /// Bit `i` (0 above the top limb).
    #[inline]
    fn bit(&self, i: u32) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|&l| (l >> (i % 64)) & 1 == 1)
    }

    /// The 64 bits starting at bit `s` (zeros above the top limb).
    #[inline]
    fn bits_from(&self, s: u32) -> u64 {
        let (limb, off) = ((s / 64) as usize, s % 64);
        let lo = self.0.get(limb).map_or(0, |&l| l >> off);
        let hi = if off == 0 {
            0
        } else {
            self.0.get(limb + 1).map_or(0, |&l| l << (64 - off))
        };
        lo | hi
    }

    /// Whether any bit below bit `s` is set.
    #[inline]
    fn any_below(&self, s: u32) -> bool {
        let (limb, off) = ((s / 64) as usize, s % 64);
        self.0.iter().take(limb).any(|&l| l != 0)
            || self
                .0
                .get(limb)
                .is_some_and(|&l| off > 0 && l & ((1u64 << off) - 1) != 0)
    }

    /// The significand rounded to nearest (ties to even) with its lowest bit
    /// at bit `s` of `self` (s > 0), as an integer.
    #[inline]
    fn rounded_from(&self, s: u32) -> u64 {
        let mut m = self.bits_from(s) & ((1u64 << 53) - 1);
        let half = self.bit(s - 1);
        if half && (m & 1 == 1 || self.any_below(s - 1)) {
            m += 1;
        }
        m
    }

    /// `self · 2^exp` rounded to the nearest f64 (ties to even, subnormals
    /// included), or `None` when it overflows f64.
    pub(crate) fn rounded(&self, exp: i64) -> Option<f64> {
        let Some(t) = self.top() else {
            return Some(0.0);
        };
        // The result's unit in the last place: 53 significant bits, but not
        // below the smallest subnormal.
        let q = (i64::from(t) + exp - 52).max(-1074);
        let s = q - exp;
        let mant = if s <= 0 {
            // Exact: the value has at most 53 bits above bit q.
            self.0[0] << s.unsigned_abs()
        } else {
            self.rounded_from(s as u32)
        };
        // ((q + 1074) << 52) + mant encodes mant·2^q for normal results
        // (mant ∈ [2^52, 2^53]; 2^53 carries into the exponent) and for
        // subnormal ones (q = −1074, mant < 2^52).
        // q ≥ −1074 here; beyond 2045 even the smallest significand overflows.
        let biased = u64::try_from(q + 1074).ok().filter(|&b| b <= 2045)?;
        let bits = (biased << 52) + mant;
        (bits < 0x7ff0_0000_0000_0000).then(|| f64::from_bits(bits))
    }

    /// `self · 2^exp` (self > 0) as (m, e) with m ∈ [1, 2) the significand
    /// rounded to 53 bits (nearest, ties to even) and e unbounded: m·2^e.
    /// `None` for zero.
    pub(crate) fn parts(&self, exp: i64) -> Option<(f64, i64)> {
        let t = self.top()?;
        let (mant, q) = if t <= 52 {
            (self.0[0] << (52 - t), i64::from(t) - 52)
        } else {
            (self.rounded_from(t - 52), i64::from(t) - 52)
        };
        // A carry to 2^53 is 1.0·2^53.
        let m = mant as f64 * f64::from_bits(((1023 - 52) as u64) << 52);
        let (m, e) = if m >= 2.0 { (m * 0.5, 1) } else { (m, 0) };
        Some((m, q + 52 + exp + e))
    }
}

/// The integer significand and the biased exponent of a weight ≥ 0
/// (value = m·2^unit_exponent).
#[inline]
pub(crate) fn significand(w: f64) -> (u64, usize) {
    let b = w.to_bits() & !(1u64 << 63);
    let e = (b >> 52) as usize;
    ((b & ((1u64 << 52) - 1)) | (u64::from(e != 0) << 52), e)
}

/// Lanes per exponent: consecutive terms usually share an exponent, and
/// four independent sums keep their additions from waiting on each other.
const LANES: usize = 4;

/// Σ c_i·w_i exactly, for weights w_i ≥ 0 and counts c_i < 2^32: one
/// 128-bit sum per binary exponent of the weights (a significand times a
/// count is below 2^85, so up to 2^32 terms fit), shifted into place once.
/// Cheaper per term than converting each weight to a [`Fixed`].
pub(crate) struct ExponentSums {
    /// The biased exponent of `sums[0]`.
    first: usize,
    sums: Vec<[u128; LANES]>,
}

impl ExponentSums {
    /// A table for weights of biased exponents `lo ..= hi` (others, such as
    /// zeros, are ignored: they must contribute nothing).
    pub(crate) fn new((lo, hi): (usize, usize)) -> Self {
        Self {
            first: lo,
            sums: vec![[0; LANES]; hi.saturating_sub(lo) + 1],
        }
    }

    /// Adds c·w; `i` spreads consecutive terms over the lanes.
    #[inline]
    pub(crate) fn add(&mut self, i: usize, w: f64, c: u64) {
        let (m, e) = significand(w);
        self.add_significand(i, (m, e), c);
    }

    /// Adds c·m·2^(unit of e), for `(m, e)` from [`significand`].
    #[inline]
    pub(crate) fn add_significand(&mut self, i: usize, (m, e): (u64, usize), c: u64) {
        if let Some(slot) = self.sums.get_mut(e.wrapping_sub(self.first)) {
            slot[i % LANES] += u128::from(m) * u128::from(c);
        }
    }

    /// The sum in units of 2^lsb (lsb at or below the unit exponent of
    /// every weight added).
    pub(crate) fn finish<const M: usize>(&self, lsb: i32) -> Fixed<M> {
        let mut r = Fixed::<M>::ZERO;
        for (e, lanes) in (self.first..).zip(&self.sums) {
            let shift = (unit_exponent((e as u64) << 52) - lsb).unsigned_abs();
            for &v in lanes.iter().filter(|&&v| v != 0) {
                r.add_shifted(v, shift);
            }
        }
        r
    }
}

/// Σ w_i² exactly for weights w_i ≥ 0: one sum per binary exponent of the
/// weights, of the squared significands (below 2^106; a carry word takes
/// the overflow past 2^128).
pub(crate) struct SquareSums {
    /// The biased exponent of `sums[0]`.
    first: usize,
    sums: Vec<[(u128, u64); LANES]>,
}

impl SquareSums {
    /// A table for weights of biased exponents `lo ..= hi` (others, such as
    /// zeros, are ignored: they must contribute nothing).
    pub(crate) fn new((lo, hi): (usize, usize)) -> Self {
        Self {
            first: lo,
            sums: vec![[(0, 0); LANES]; hi.saturating_sub(lo) + 1],
        }
    }

    /// Adds w²; `i` spreads consecutive terms over the lanes.
    #[inline]
    pub(crate) fn add(&mut self, i: usize, w: f64) {
        let (m, e) = significand(w);
        if let Some(slot) = self.sums.get_mut(e.wrapping_sub(self.first)) {
            let (lo, hi) = &mut slot[i % LANES];
            let (s, c) = lo.overflowing_add(u128::from(m) * u128::from(m));
            *lo = s;
            *hi += u64::from(c);
        }
    }

    /// The sum in units of 2^(2·lsb) (lsb at or below the unit exponent of
    /// every weight added).
    pub(crate) fn finish<const M: usize>(&self, lsb: i32) -> Fixed<M> {
        let mut r = Fixed::<M>::ZERO;
        for (e, lanes) in (self.first..).zip(&self.sums) {
            let shift = (2 * (unit_exponent((e as u64) << 52) - lsb)).unsigned_abs();
            for &(lo, hi) in lanes {
                if lo != 0 {
                    r.add_shifted(lo, shift);
                }
                if hi != 0 {
                    r.add_shifted(u128::from(hi), shift + 128);
                }
            }
        }
        r
    }
}

/// 2^e for any e (0 below the subnormals, +∞ above f64::MAX).
fn pow2(e: i64) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else if e >= -1074 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        0.0
    }
}

/// `num / sqrt(x · y)` for values given as [`Fixed::parts`] (x, y > 0,
/// num ≥ 0), whatever their exponents: the significands are combined in
/// [1, 8) and the power of two applied once.
pub(crate) fn ratio_of_parts(num: (f64, i64), x: (f64, i64), y: (f64, i64)) -> f64 {
    let (mut m, mut e) = (x.0 * y.0, x.1 + y.1);
    if e % 2 != 0 {
        m *= 2.0;
        e -= 1;
    }
    let q = num.0 / m.sqrt();
    let k = num.1 - e / 2;
    // |q| < 2 and the true ratio is at most 1, so k ≤ 1; apply large
    // negative powers in two steps so that the result rounds once.
    if k >= -1000 {
        q * pow2(k)
    } else {
        q * pow2(-1000) * pow2(k + 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random f64 ≥ 0 over the whole range, subnormals included.
    fn any_weight(g: &mut ChaCha8Rng) -> f64 {
        loop {
            let w = f64::from_bits(g.random::<u64>() >> 1);
            if w.is_finite() {
                return w;
            }
        }
    }

    /// Exact sums and products of two f64 values, rounded once, are the
    /// IEEE results (correctly rounded by definition), subnormals and
    /// overflow included.
    #[test]
    fn rounding_matches_ieee_sums_and_products() {
        let mut g = ChaCha8Rng::seed_from_u64(5);
        for i in 0..200_000 {
            let (a, b) = if i % 2 == 0 {
                (any_weight(&mut g), any_weight(&mut g))
            } else {
                // Close exponents, so sums round and products stay in range.
                let a = any_weight(&mut g);
                (a, a * g.random_range(0.5..2.0f64))
            };
            if a == 0.0 || b == 0.0 {
                continue;
            }
            let lsb = lowest_bit(a).min(lowest_bit(b));
            let (fa, fb) = (
                Fixed::<34>::from_weight(a, lsb),
                Fixed::<34>::from_weight(b, lsb),
            );
            let sum = fa.plus(&fb).rounded(i64::from(lsb));
            let want = a + b;
            assert_eq!(sum, want.is_finite().then_some(want), "{a:e} + {b:e}");
            let prod = fa.mul::<68>(&fb).rounded(2 * i64::from(lsb));
            let want = a * b;
            assert_eq!(prod, want.is_finite().then_some(want), "{a:e} · {b:e}");
            if a > 0.0 {
                let (m, e) = fa.parts(i64::from(lsb)).unwrap();
                assert!((1.0..2.0).contains(&m));
                assert_eq!(e, i64::from(top_bit(a)) - 1);
            }
        }
    }

    #[test]
    fn weights_round_trip_and_bits_are_located() {
        for w in [
            1.0,
            0.75,
            3.0,
            1e-300,
            5e-324,
            f64::MAX,
            2.5e-310,
            1.0 / 3.0,
        ] {
            let lsb = lowest_bit(w);
            assert_eq!(
                Fixed::<34>::from_weight(w, lsb).rounded(i64::from(lsb)),
                Some(w)
            );
            // With a lower lsb the integer is larger, the value the same.
            let f = Fixed::<34>::from_weight(w, lsb - 70);
            assert_eq!(f.rounded(i64::from(lsb - 70)), Some(w));
            assert!(2f64.powi(top_bit(w) - 1) <= w || top_bit(w) - 1 < -1022);
        }
        assert_eq!((lowest_bit(1.0), top_bit(1.0)), (0, 1));
        assert_eq!((lowest_bit(0.75), top_bit(0.75)), (-2, 0));
        assert_eq!((lowest_bit(5e-324), top_bit(5e-324)), (-1074, -1073));
        assert_eq!(top_bit(f64::MAX), 1024);
    }

    #[test]
    fn ties_round_to_even_and_overflow_is_reported() {
        // 2^53 + 1 and 2^53 + 3: halfway cases.
        let f = Fixed::<2>([(1 << 53) + 1, 0]);
        assert_eq!(f.rounded(0), Some(2f64.powi(53)));
        let f = Fixed::<2>([(1 << 53) + 3, 0]);
        assert_eq!(f.rounded(0), Some(2f64.powi(53) + 4.0));
        // Just above halfway rounds up.
        let f = Fixed::<2>([1 << 11, (1 << 53) + 1]); // (2^53 + 1)·2^64 + 2^11
        assert_eq!(f.rounded(0), Some((2f64.powi(53) + 2.0) * 2f64.powi(64)));
        // 2^1024 overflows; (2^53 − 1)·2^971 is f64::MAX.
        assert_eq!(Fixed::<2>([1, 0]).rounded(1024), None);
        assert_eq!(Fixed::<2>([(1 << 53) - 1, 0]).rounded(971), Some(f64::MAX));
        // Rounding up past f64::MAX overflows.
        assert_eq!(Fixed::<2>([(1 << 54) - 1, 0]).rounded(970), None);
        // Far below the subnormals: 0; half the smallest subnormal: ties to 0;
        // just above half: the smallest subnormal.
        assert_eq!(Fixed::<2>([1, 0]).rounded(-1200), Some(0.0));
        assert_eq!(Fixed::<2>([1, 0]).rounded(-1075), Some(0.0));
        assert_eq!(Fixed::<2>([3, 0]).rounded(-1076), Some(5e-324));
        assert_eq!(Fixed::<2>([0, 0]).rounded(5000), Some(0.0));
    }

    #[test]
    fn products_and_differences_are_exact() {
        let mut g = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..10_000 {
            let (a, b): (u64, u64) = (g.random(), g.random());
            let (fa, fb) = (Fixed::<2>([a, 0]), Fixed::<2>([b, 0]));
            let p = fa.mul::<4>(&fb);
            let want = u128::from(a) * u128::from(b);
            assert_eq!(p.0, [want as u64, (want >> 64) as u64, 0, 0]);
            let c: u64 = g.random();
            let q = Fixed::<2>([a, b]).mul_u64::<4>(c);
            let lo = u128::from(a) * u128::from(c);
            let hi = u128::from(b) * u128::from(c) + (lo >> 64);
            assert_eq!(q.0, [lo as u64, hi as u64, (hi >> 64) as u64, 0]);
            let s = Fixed::<2>([a, 1]).minus(&Fixed::<2>([b, 0]));
            assert_eq!(s.plus(&Fixed::<2>([b, 0])), Fixed::<2>([a, 1]));
        }
    }

    #[test]
    fn exponent_sums_equal_fixed_point_sums() {
        let mut g = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let w: Vec<f64> = (0..50)
                .map(|_| match g.random_range(0..4) {
                    0 => 0.0,
                    1 => -0.0,
                    2 => f64::from_bits(g.random_range(0..1u64 << 52)),
                    _ => g.random_range(0.0..1.0) * 2f64.powi(g.random_range(-1074..1000)),
                })
                .collect();
            let c: Vec<u64> = (0..50).map(|_| g.random_range(0..1u64 << 32)).collect();
            let lsb = -1074;
            let mut by_exponent = ExponentSums::new((0, 2047));
            let mut direct = Fixed::<70>::ZERO;
            for (i, (&w, &c)) in w.iter().zip(&c).enumerate() {
                by_exponent.add(i, w, c);
                direct.add(&Fixed::<34>::from_weight(w, lsb).mul_u64(c));
            }
            assert_eq!(by_exponent.finish::<70>(lsb), direct);
        }
        // Squares, against products of the fixed-point weights.
        for _ in 0..200 {
            let w: Vec<f64> = (0..30)
                .map(|_| g.random_range(0.0..1.0) * 2f64.powi(g.random_range(-1074..1000)))
                .collect();
            let mut squares = SquareSums::new((0, 2047));
            let mut direct = Fixed::<70>::ZERO;
            for (i, &w) in w.iter().enumerate() {
                squares.add(i, w);
                let f = Fixed::<35>::from_weight(w, -1074);
                direct.add(&f.mul(&f));
            }
            assert_eq!(squares.finish::<70>(-1074), direct);
            assert_eq!(direct.plus(&direct).half(), direct);
        }
        let mut f = Fixed::<4>::ZERO;
        f.add_shifted(u128::MAX, 100);
        f.add_shifted(1, 100);
        assert_eq!(f.0, [0, 0, 0, 1 << 36]);
    }

    #[test]
    fn add_shifted_matches_adding_bit_by_bit() {
        // Every limb offset (0 included, where nothing reaches the third
        // limb) and carries out of full limbs.
        let values = [1u128, u128::MAX, 0x8000_0000_0000_0001_ffff_ffff_0000_0001];
        for shift in 0..=190 {
            for v in values {
                let mut f = Fixed::<6>([u64::MAX, 0, u64::MAX, 1, 0, 0]);
                let mut want = f;
                f.add_shifted(v, shift);
                for bit in (0..128).filter(|b| v >> b & 1 == 1) {
                    let mut one = Fixed::<6>::ZERO;
                    let at = (shift + bit) as usize;
                    if at < 384 {
                        one.0[at / 64] = 1 << (at % 64);
                        want.add(&one);
                    }
                }
                assert_eq!(f, want, "v = {v:#x}, shift = {shift}");
            }
        }
    }

    #[test]
    fn ratio_of_parts_is_scale_free() {
        let p = |v: f64| Fixed::<34>::from_weight(v, -1074).parts(-1074).unwrap();
        assert_eq!(ratio_of_parts(p(3.0), p(3.0), p(3.0)), 1.0);
        assert_eq!(ratio_of_parts(p(1e-300), p(1e-300), p(1e-300)), 1.0);
        let r = ratio_of_parts(p(1.0), p(2.0), p(8.0));
        assert_eq!(r, 0.25);
        // Huge exponents on both sides.
        let big = (1.5, 5000i64);
        assert_eq!(ratio_of_parts(big, big, big), 1.0);
        let r = ratio_of_parts((1.0, -3000), (1.0, 0), (1.0, 0));
        assert_eq!(r, 0.0);
    }
}
