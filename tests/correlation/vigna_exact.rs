//! Every weighted sum of the kernel against an exact O(n²) oracle, for
//! weights spread over 600 decades (1e-300 … 1e300), subnormal and
//! near-overflow weights, and heavy ties.
//!
//! The oracle looks at every pair and adds its weight exactly: a weight is
//! an integer significand times a power of two, w = m·2^e, so a pair weight
//! u_i·u_j is the integer m_i·m_j (below 2^106, exact in u128) times
//! 2^(e_i + e_j), and u_i + u_j is two such terms; each term is added into a
//! big integer of units 2^-2200 (below every product of two subnormals).
//! Each sum is then rounded once to the nearest f64, bit by bit. The oracle's
//! rounding is itself checked against IEEE sums and products, which are
//! correctly rounded by definition.
//!
//! The kernel computes its sums exactly too, so each must equal the oracle's
//! bit for bit, or be [`CorrelationError::Overflow`] exactly when the oracle's exceeds
//! f64. τ is checked through exact integers: τ² · untied_x · untied_y against
//! (C − D)².

// Sums are compared bit for bit: the kernel and the oracle are both exact.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::correlation::Result;
use adaptive_comp_metrics::correlation::vigna::{
    Combine, Rank, WeightedTauOptions, WeightedTauStats, weighted_kendall, weighted_tau,
    weighted_tau_stats,
};
use adaptive_comp_metrics::{CorrelationError, TopWeighted, Weigher};
use adaptive_comp_metrics::{Hyperbolic, Order, Scheme, Ties, Unweighted, tau_w_with_weights};
use proptest::prelude::*;

/// The oracle's unit: every term is an integer multiple of 2^UNIT.
const UNIT: i64 = -2200;

/// An unsigned big integer (little-endian 64-bit limbs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Big(Vec<u64>);

impl Big {
    /// self += v·2^shift.
    fn add_shifted(&mut self, v: u128, shift: usize) {
        let (limb, off) = (shift / 64, shift % 64);
        // v·2^off spans three limbs: v's two, shifted left one bit at a
        // time (slow, and unlike the library's word shifts).
        let mut parts = [v as u64, (v >> 64) as u64, 0];
        for _ in 0..off {
            parts[2] = (parts[2] << 1) | (parts[1] >> 63);
            parts[1] = (parts[1] << 1) | (parts[0] >> 63);
            parts[0] <<= 1;
        }
        if self.0.len() < limb + 3 {
            self.0.resize(limb + 3, 0);
        }
        let mut carry = 0u128;
        for i in limb..self.0.len() {
            let part = parts.get(i - limb).copied().unwrap_or(0);
            let s = u128::from(self.0[i]) + u128::from(part) + carry;
            self.0[i] = s as u64;
            carry = s >> 64;
        }
        if carry > 0 {
            self.0.push(carry as u64);
        }
    }

    /// self − other, for self ≥ other.
    fn minus(&self, other: &Big) -> Big {
        assert!(self.cmp_to(other).is_ge());
        let mut out = self.0.clone();
        let mut borrow = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let b = u128::from(other.0.get(i).copied().unwrap_or(0)) + borrow;
            let a = u128::from(*o);
            if a >= b {
                *o = (a - b) as u64;
                borrow = 0;
            } else {
                *o = ((1u128 << 64) + a - b) as u64;
                borrow = 1;
            }
        }
        Big(out)
    }

    fn mul(&self, other: &Big) -> Big {
        let mut out = Big::default();
        for (i, &a) in self.0.iter().enumerate() {
            for (j, &b) in other.0.iter().enumerate() {
                out.add_shifted(u128::from(a) * u128::from(b), 64 * (i + j));
            }
        }
        out
    }

    /// self·2^k.
    fn shl(&self, k: usize) -> Big {
        let mut r = Big::default();
        for (i, &l) in self.0.iter().enumerate() {
            r.add_shifted(u128::from(l), 64 * i + k);
        }
        r
    }

    fn bit_len(&self) -> usize {
        match self.0.iter().rposition(|&l| l != 0) {
            None => 0,
            Some(i) => 64 * i + 64 - self.0[i].leading_zeros() as usize,
        }
    }

    fn bit(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|&l| (l >> (i % 64)) & 1 == 1)
    }

    fn cmp_to(&self, other: &Big) -> std::cmp::Ordering {
        let n = self.0.len().max(other.0.len());
        for i in (0..n).rev() {
            let (a, b) = (
                self.0.get(i).copied().unwrap_or(0),
                other.0.get(i).copied().unwrap_or(0),
            );
            if a != b {
                return a.cmp(&b);
            }
        }
        std::cmp::Ordering::Equal
    }

    /// self·2^unit rounded to the nearest f64 (ties to even), `None` beyond
    /// f64::MAX. Written plainly: keep as many top bits as the result's
    /// precision allows (53, fewer for subnormals), round on the next bit
    /// and the ones below it.
    fn to_f64(&self, unit: i64) -> Option<f64> {
        let len = self.bit_len();
        if len == 0 {
            return Some(0.0);
        }
        // 2^top ≤ value < 2^(top + 1); 53 bits, fewer below 2^-1022.
        let top = len as i64 - 1 + unit;
        if top > 1023 {
            return None;
        }
        let precision = if top >= -1022 { 53 } else { 53 - (-1022 - top) };
        if precision < 0 {
            return Some(0.0);
        }
        let precision = precision as usize;
        // Keep bits cut … len − 1, round on bit cut − 1 and those below.
        let cut = len.saturating_sub(precision);
        let mut kept: u64 = 0;
        for i in (cut..len).rev() {
            kept = (kept << 1) | u64::from(self.bit(i));
        }
        if cut > 0 {
            let half = self.bit(cut - 1);
            let rest = (0..cut - 1).any(|i| self.bit(i));
            if half && (rest || kept & 1 == 1) {
                kept += 1;
            }
        }
        // The result is kept·2^(cut + unit): below 2^54 times a power of two
        // at or above the smallest subnormal (53 bits kept, or all bits down
        // to 2^-1074), so exact in f64 unless it overflows.
        let scale = cut as i64 + unit;
        assert!(scale >= -1074);
        let v = kept as f64 * pow2(scale);
        v.is_finite().then_some(v)
    }
}

/// 2^e for −1074 ≤ e ≤ 1023 (exactly), through two factors when needed.
fn pow2(e: i64) -> f64 {
    let half = e / 2;
    2f64.powi(half as i32) * 2f64.powi((e - half) as i32)
}

/// w = m·2^e with m an integer (w ≥ 0 finite).
fn split(w: f64) -> (u64, i64) {
    let bits = w.to_bits() & !(1u64 << 63);
    let biased = (bits >> 52) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    }
}

/// Adds a·b (exactly) to `acc`.
fn add_product(acc: &mut Big, a: f64, b: f64) {
    let ((ma, ea), (mb, eb)) = (split(a), split(b));
    acc.add_shifted(u128::from(ma) * u128::from(mb), (ea + eb - UNIT) as usize);
}

/// Adds a (exactly) to `acc`.
fn add_value(acc: &mut Big, a: f64) {
    let (m, e) = split(a);
    acc.add_shifted(u128::from(m), (e - UNIT) as usize);
}

/// The exact pair sums, in units of 2^UNIT.
#[derive(Debug, Default)]
struct Exact {
    total: Big,
    tied_x: Big,
    tied_y: Big,
    tied_xy: Big,
    untied_x: Big,
    untied_y: Big,
    concordant: Big,
    discordant: Big,
}

/// The oracle: every pair, its weight added exactly to each sum it belongs to.
fn oracle(x: &[f64], y: &[f64], u: &[f64], combine: Combine) -> Exact {
    let mut e = Exact::default();
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let add = |acc: &mut Big| match combine {
                Combine::Multiplicative => add_product(acc, u[i], u[j]),
                _ => {
                    add_value(acc, u[i]);
                    add_value(acc, u[j]);
                }
            };
            let (sx, sy) = (x[i].total_cmp(&x[j]), y[i].total_cmp(&y[j]));
            add(&mut e.total);
            add(if sx.is_eq() {
                &mut e.tied_x
            } else {
                &mut e.untied_x
            });
            add(if sy.is_eq() {
                &mut e.tied_y
            } else {
                &mut e.untied_y
            });
            if sx.is_eq() && sy.is_eq() {
                add(&mut e.tied_xy);
            } else if sx.is_ne() && sy.is_ne() {
                add(if sx == sy {
                    &mut e.concordant
                } else {
                    &mut e.discordant
                });
            }
        }
    }
    e
}

/// The kernel's result against the oracle: every sum bit for bit (or an
/// overflow exactly when one exceeds f64), τ to 4 units in the last place.
fn check(x: &[f64], y: &[f64], u: &[f64], combine: Combine) {
    let got = weighted_kendall(x, y, u, combine);
    let e = oracle(x, y, u, combine);
    let ux = e.untied_x.bit_len();
    let uy = e.untied_y.bit_len();
    let constant = |v: &[f64]| v.iter().all(|&a| a == v[0]);
    if constant(x) || constant(y) || ux == 0 || uy == 0 {
        assert!(got.is_err(), "expected an error, got {got:?}");
        return;
    }
    let fields = [
        ("total", &e.total),
        ("tied_x", &e.tied_x),
        ("tied_y", &e.tied_y),
        ("tied_xy", &e.tied_xy),
        ("untied_x", &e.untied_x),
        ("untied_y", &e.untied_y),
        ("concordant", &e.concordant),
        ("discordant", &e.discordant),
    ];
    let rounded: Vec<Option<f64>> = fields.iter().map(|(_, v)| v.to_f64(UNIT)).collect();
    if rounded.iter().any(Option::is_none) {
        assert!(
            matches!(got, Err(CorrelationError::Overflow { .. })),
            "a sum exceeds f64: expected Overflow, got {got:?}"
        );
    } else {
        let s = got.unwrap_or_else(|err| panic!("{err}: {x:?} {y:?} {u:?} {combine:?}"));
        let values = [
            s.total,
            s.tied_x,
            s.tied_y,
            s.tied_xy,
            s.untied_x,
            s.untied_y,
            s.concordant,
            s.discordant,
        ];
        for (((name, _), want), got) in fields.iter().zip(&rounded).zip(values) {
            assert_eq!(Some(got), *want, "{name}: {x:?} {y:?} {u:?} {combine:?}");
        }
        check_tau(s.tau, &e);
    }
    // τ alone never overflows.
    let tau = tau_of(x, y, u, combine);
    check_tau(tau, &e);
}

/// τ alone (`weighted_tau` with the weights as an index weigher): defined
/// even where the sums overflow.
fn tau_of(x: &[f64], y: &[f64], u: &[f64], combine: Combine) -> f64 {
    let opts = WeightedTauOptions::default()
        .rank(Rank::Index)
        .weigher(|r: f64| u[r as usize - 1])
        .combine(combine);
    weighted_tau(x, y, &opts).unwrap()
}

/// τ against the exact sums: sign, and τ² · untied_x · untied_y = (C − D)²
/// to within 8 units of 2^-52 (τ to 4 ulp), unless τ underflows.
fn check_tau(tau: f64, e: &Exact) {
    let c_ge_d = e.concordant.cmp_to(&e.discordant).is_ge();
    let num = if c_ge_d {
        e.concordant.minus(&e.discordant)
    } else {
        e.discordant.minus(&e.concordant)
    };
    if num.bit_len() == 0 {
        assert_eq!(tau, 0.0);
        return;
    }
    assert_eq!(tau.is_sign_positive(), c_ge_d, "sign of τ = {tau:e}");
    let t = tau.abs();
    if t < 2f64.powi(-1000) {
        // Below the range where τ keeps 53 bits: the exact τ is tiny too,
        // τ² ≤ 2^-1980: num²·2^1980 ≤ untied_x·untied_y.
        let lhs = num.mul(&num).shl(1980);
        assert!(
            lhs.cmp_to(&e.untied_x.mul(&e.untied_y)).is_le(),
            "τ = {tau:e}"
        );
        return;
    }
    // t = mt·2^et; compare mt²·2^(2et)·ux·uy with num² (units cancel).
    let (mt, et) = split(t);
    let mt2 = Big(vec![mt]).mul(&Big(vec![mt]));
    let mut a = mt2.mul(&e.untied_x).mul(&e.untied_y);
    let mut b = num.mul(&num);
    if et >= 0 {
        a = a.shl(2 * et as usize);
    } else {
        b = b.shl((-2 * et) as usize);
    }
    let diff = if a.cmp_to(&b).is_ge() {
        a.minus(&b)
    } else {
        b.minus(&a)
    };
    // |a − b| ≤ 8·2^-52·b.
    assert!(
        diff.shl(52).cmp_to(&b.shl(3)).is_le(),
        "τ = {tau:e} is more than 4 ulp from the exact value"
    );
}

/// The exact oracle's rounding is IEEE's: for random f64 pairs over the
/// whole range (subnormals and overflow included), the exact a + b and a·b
/// rounded by the oracle equal the IEEE results.
#[test]
fn oracle_rounds_like_ieee() {
    let mut g = crate::splitmix::SplitMix64(17);
    let mut any = || loop {
        let w = f64::from_bits(g.next_u64() >> 1);
        if w.is_finite() {
            return w;
        }
    };
    for k in 0..20_000 {
        let a = any();
        let b = if k % 2 == 0 { any() } else { a * 1.000_001 };
        let mut s = Big::default();
        add_value(&mut s, a);
        add_value(&mut s, b);
        let want = a + b;
        assert_eq!(
            s.to_f64(UNIT),
            want.is_finite().then_some(want),
            "{a:e} + {b:e}"
        );
        let mut p = Big::default();
        add_product(&mut p, a, b);
        let want = a * b;
        assert_eq!(
            p.to_f64(UNIT),
            want.is_finite().then_some(want),
            "{a:e} · {b:e}"
        );
    }
}

/// Issue 15: no discordant pair, yet the old kernel derived C by subtracting
/// much larger sums and reported τ ≈ −2.97e-8 with C = 0. The exact values,
/// from `tests/data/vigna/cancellation_example.py` (exact rationals of the
/// f64 weights, τ with mpmath at 200 digits, each rounded once):
#[test]
fn cancellation_example_of_issue_15() {
    let (x, y, u) = ([2.0, 3.0, 1.0], [1.0, 2.0, 1.0], [1e-16, 1e-31, 1e-5]);
    let s = weighted_kendall(&x, &y, &u, Combine::Multiplicative).unwrap();
    // τ = 3.162277660184189304e-8, almost halfway between two f64 values:
    // within 2 ulp (τ is formed from three correctly rounded sums).
    let tau = 3.162_277_660_184_189_6e-8;
    assert!(
        (s.tau - tau).abs() <= 2.0 * f64::EPSILON * tau,
        "{:e}",
        s.tau
    );
    // Each sum is the exact one, rounded once.
    assert_eq!(s.concordant, 1.000_000_000_010_000_1e-36);
    assert_eq!(s.discordant, 0.0);
    assert_eq!(s.total, 1.000_000_000_000_001e-21);
    assert_eq!(s.tied_x, 0.0);
    assert_eq!(s.tied_y, 1.000_000_000_000_000_1e-21);
    assert_eq!(s.tied_xy, 0.0);
    assert_eq!(s.untied_x, 1.000_000_000_000_001e-21);
    assert_eq!(s.untied_y, 1.000_000_000_010_000_1e-36);
    check(&x, &y, &u, Combine::Multiplicative);
    // τ_w inherits it: the same weights, normalised (τ does not change).
    let t = tau_w_with_weights(&x, &y, &u).unwrap();
    assert!((t.tau - 3.162_277_660_184_189_6e-8).abs() <= 2.0 * f64::EPSILON * t.tau);
    assert_eq!(t.discordant, 0.0);
}

/// Issue 15, item 2: weights near f64::MAX. The true sums exceed f64, so
/// the sums are a typed error, never NaN; τ (scale-free) is still given by
/// `weighted_tau`, and the sums by scaling the weights.
#[test]
fn sums_beyond_f64_are_an_overflow_error_and_tau_survives() {
    let (x, y) = ([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 4.0]);
    for u in [[1e308; 4], [1.7e308, 5e-324, 1.7e308, 5e-324]] {
        for combine in [Combine::Additive, Combine::Multiplicative] {
            let got = weighted_kendall(&x, &y, &u, combine);
            let e = oracle(&x, &y, &u, combine);
            if e.total.to_f64(UNIT).is_none() {
                assert!(
                    matches!(got, Err(CorrelationError::Overflow { .. })),
                    "{got:?}"
                );
                let msg = got.unwrap_err().to_string();
                assert!(msg.contains("exceeds the largest f64"), "{msg}");
            }
            check(&x, &y, &u, combine);
        }
    }
    // 1e308 with multiplicative pairs: every sum is a multiple of 1e616.
    let err = weighted_kendall(&x, &y, &[1e308; 4], Combine::Multiplicative).unwrap_err();
    assert!(matches!(err, CorrelationError::Overflow { .. }));
    // Unit weights give the same τ: (4 − 1)/sqrt(6·5) (tied pair in y only).
    let want = 3.0 / 30f64.sqrt();
    let s = weighted_kendall(&x, &y, &[1.0; 4], Combine::Multiplicative).unwrap();
    assert!((s.tau - want).abs() <= 2.0 * f64::EPSILON);
    let opts = WeightedTauOptions::default()
        .rank(Rank::Index)
        .weigher(|_: f64| 1e308)
        .combine(Combine::Multiplicative);
    assert_eq!(weighted_tau(&x, &y, &opts).unwrap(), s.tau);
    assert!(matches!(
        weighted_tau_stats(&x, &y, &opts),
        Err(CorrelationError::Overflow { .. })
    ));
}

/// Sums whose terms are far apart in magnitude are each exact to their own
/// size: a pair of tiny weights tied in both x and y is the whole of
/// tied_xy, which is then the IEEE product of the two weights (subnormal).
#[test]
fn every_sum_is_accurate_to_its_own_magnitude() {
    let x = [1.0, 1.0, 2.0, 3.0];
    let y = [5.0, 5.0, 7.0, 6.0];
    let u = [1e-160, 1e-160, 1e154, 1e154];
    let s = weighted_kendall(&x, &y, &u, Combine::Multiplicative).unwrap();
    assert_eq!(s.tied_xy, 1e-160 * 1e-160);
    assert!(s.tied_xy > 0.0 && s.tied_xy < f64::MIN_POSITIVE);
    assert_eq!(s.tied_x, s.tied_xy);
    assert_eq!(s.discordant, 1e154 * 1e154);
    check(&x, &y, &u, Combine::Multiplicative);
    check(&x, &y, &u, Combine::Additive);
}

/// Scores with heavy ties (2 or 3 levels) or none.
fn scores(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        prop::collection::vec(0u8..2, n).prop_map(|v| v.into_iter().map(f64::from).collect()),
        prop::collection::vec(0u8..3, n).prop_map(|v| v.into_iter().map(f64::from).collect()),
        prop::collection::vec(-1e3f64..1e3, n),
    ]
}

/// Weights log-uniform over [1e-300, 1e300], with zeros, subnormals and
/// values near f64::MAX now and then.
fn wide_weight() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        8 => (-300.0f64..300.0).prop_map(|e| 10f64.powf(e)),
        1 => Just(0.0),
        1 => (1u64..1 << 52).prop_map(f64::from_bits),
        1 => (0.5f64..1.0).prop_map(|m| m * f64::MAX),
    ]
}

/// Weights within a few decades: sums that fit f64, far from its limits.
fn narrow_weight() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![1 => Just(0.0), 8 => (-3.0f64..3.0).prop_map(|e| 10f64.powf(e))]
}

fn data(
    weight: impl Strategy<Value = f64> + Clone,
) -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>)> {
    (2usize..40).prop_flat_map(move |n| {
        (
            scores(n),
            scores(n),
            prop::collection::vec(weight.clone(), n),
        )
    })
}

fn combine() -> impl Strategy<Value = Combine> {
    prop_oneof![Just(Combine::Additive), Just(Combine::Multiplicative)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn wide_weights_every_sum_exact((x, y, u) in data(wide_weight()), combine in combine()) {
        prop_assume!(u.iter().any(|&w| w > 0.0));
        check(&x, &y, &u, combine);
    }

    #[test]
    fn narrow_weights_every_sum_exact((x, y, u) in data(narrow_weight()), combine in combine()) {
        prop_assume!(u.iter().any(|&w| w > 0.0));
        check(&x, &y, &u, combine);
    }

    /// τ_w straight from scores (the kernel's orders rank them) against the
    /// kernel on the ranks and weights of `ranks_and_weights`: the weights
    /// may differ in their last bit (normalised by a sum in another order).
    #[test]
    fn tau_w_from_scores_is_the_kernel_on_the_ranks(
        (x, y, _) in data(narrow_weight()),
        ties in prop_oneof![Just(Ties::Average), Just(Ties::Min), Just(Ties::Max),
            Just(Ties::Dense), Just(Ties::Ordinal)],
        scheme in prop_oneof![Just(Scheme::Additive), Just(Scheme::Multiplicative),
            Just(Scheme::First), Just(Scheme::Second)],
        smaller in any::<(bool, bool)>(),
    ) {
        let order = |s: bool| if s { Order::SmallerIsBetter } else { Order::LargerIsBetter };
        let tw = TopWeighted::new().ties(ties).scheme(scheme).orders(order(smaller.0), order(smaller.1));
        compare_tau_w(&tw, &x, &y)?;
        compare_tau_w(&tw.weigher(Hyperbolic), &x, &y)?;
        compare_tau_w(&tw.weigher(Unweighted), &x, &y)?;
    }
}

fn compare_tau_w<W: Weigher + Copy>(
    tw: &TopWeighted<W>,
    x: &[f64],
    y: &[f64],
) -> std::result::Result<(), TestCaseError> {
    let fast = tw.tau(x, y);
    let slow: Result<WeightedTauStats> = tw
        .ranks_and_weights(x, y)
        .and_then(|(a, b, w)| weighted_kendall(&a, &b, &w, Combine::Multiplicative));
    match (fast, slow) {
        (Ok(f), Ok(s)) => {
            let close = |a: f64, b: f64| (a - b).abs() <= 8.0 * f64::EPSILON * b.abs().max(1e-300);
            prop_assert!((f.tau - s.tau).abs() <= 1e-14, "τ {} vs {}", f.tau, s.tau);
            for (a, b) in [
                (f.total, s.total),
                (f.concordant, s.concordant),
                (f.discordant, s.discordant),
                (f.tied_a, s.tied_x),
                (f.tied_b, s.tied_y),
                (f.tied_both, s.tied_xy),
            ] {
                prop_assert!(
                    close(a, b) || (a - b).abs() <= 1e-14 * s.total,
                    "{a:e} vs {b:e}"
                );
            }
        }
        (Err(f), Err(s)) => prop_assert_eq!(f, s),
        (f, s) => prop_assert!(false, "{f:?} vs {s:?}"),
    }
    Ok(())
}
