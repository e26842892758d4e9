//! Shared by the operation-driven fuzz targets: sizes drawn from the whole
//! `usize` range (biased towards small and boundary values), floats biased
//! towards the values that break numerics, a tiny deterministic RNG, and the
//! rule that decides whether a size is run, checked for refusal, or skipped.
#![allow(dead_code)]

use arbitrary::{Arbitrary, Result, Unstructured};
use core::convert::Infallible;
use rand::TryRng;

/// A size from the whole `usize` range: half of the draws are small
/// (0..=16), the rest powers of two ±1 (every library limit is one),
/// extreme values (`usize::MAX`, `isize::MAX`, `u32::MAX`, ±1), 16-bit
/// values, or any `usize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size(pub usize);

const EXTREMES: [usize; 8] = [
    usize::MAX,
    usize::MAX - 1,
    isize::MAX as usize,
    isize::MAX as usize + 1,
    u32::MAX as usize,
    u32::MAX as usize + 1,
    u32::MAX as usize - 1,
    usize::MAX / 2 + 7,
];

impl<'a> Arbitrary<'a> for Size {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let tag = u8::arbitrary(u)?;
        Ok(Size(match tag % 8 {
            0..=3 => usize::from(u8::arbitrary(u)? % 17),
            4 => {
                let k = u8::arbitrary(u)? % 64;
                let delta = isize::from(u8::arbitrary(u)? % 3) - 1;
                (1usize << k).wrapping_add_signed(delta)
            }
            5 => EXTREMES[usize::from(u8::arbitrary(u)?) % EXTREMES.len()],
            6 => usize::from(u16::arbitrary(u)?),
            _ => usize::arbitrary(u)?,
        }))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, Some(9))
    }
}

impl Size {
    /// As a `u64` (sizes are 64-bit on every target this runs on).
    pub fn u64(self) -> u64 {
        self.0 as u64
    }
}

/// A float biased towards the values that break numerics: signed zeros,
/// ±1, ½, the smallest normal and subnormal, the largest finite, 1 ∓ ε,
/// NaN, ±∞; small dyadic values (k/8); or any bit pattern.
#[derive(Debug, Clone, Copy)]
pub struct Float(pub f64);

const SPECIAL: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f64::MIN_POSITIVE,
    5e-324,
    f64::MAX,
    f64::MIN,
    1.0 - f64::EPSILON / 2.0,
    1.0 + f64::EPSILON,
    f64::EPSILON,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e-300,
];

impl<'a> Arbitrary<'a> for Float {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let tag = u8::arbitrary(u)?;
        Ok(Float(match tag % 4 {
            0 => SPECIAL[usize::from(u8::arbitrary(u)?) % SPECIAL.len()],
            1 | 2 => f64::from(i8::arbitrary(u)?) / 8.0,
            _ => f64::from_bits(u64::arbitrary(u)?),
        }))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, Some(9))
    }
}

/// The floats of a list.
pub fn floats(v: &[Float]) -> Vec<f64> {
    v.iter().map(|f| f.0).collect()
}

/// Evaluates `$call` with `$v` bound to the f64 `$values` or, when
/// `$single`, to their f32 roundings: one call for both precisions.
#[allow(unused_macros)]
macro_rules! in_precision {
    ($single:expr, $values:expr, |$v:ident| $call:expr) => {
        if $single {
            let $v: &[f32] = &$values.iter().map(|&v| v as f32).collect::<Vec<f32>>();
            $call
        } else {
            let $v: &[f64] = &$values;
            $call
        }
    };
}
#[allow(unused_imports)]
pub(crate) use in_precision;

/// A float in [0, 1] (for parameters that must be probabilities): special
/// values of that range, k/256, or any bit pattern folded into it (NaN
/// stays NaN only through the raw draw, so most draws are valid).
#[derive(Debug, Clone, Copy)]
pub struct Unit(pub f64);

impl<'a> Arbitrary<'a> for Unit {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let tag = u8::arbitrary(u)?;
        Ok(Unit(match tag % 4 {
            0 => [
                0.0,
                1.0,
                0.5,
                5e-324,
                f64::MIN_POSITIVE,
                1.0 - f64::EPSILON / 2.0,
                f64::EPSILON,
                1e-300,
            ][usize::from(u8::arbitrary(u)?) % 8],
            1 | 2 => f64::from(u8::arbitrary(u)?) / 255.0,
            _ => {
                let bits = u64::arbitrary(u)?;
                // A uniform mantissa in [0, 1), then any exponent below it.
                let m = (bits >> 11) as f64 / (1u64 << 53) as f64;
                m * 2f64.powi(-((bits & 0x3ff) as i32 % 64))
            }
        }))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, Some(9))
    }
}

/// What a target does with a requested size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Small enough to compute within the time budget of one input.
    Run,
    /// Above the library's limit: the call must return the typed refusal,
    /// before allocating anything.
    Refuse,
    /// Valid but expensive: not called (the point is that the refusal
    /// path is reached with huge sizes, not that huge valid inputs are
    /// computed).
    Skip,
}

/// [`Plan`] of a requested amount of work against the target's work bound
/// and the library's limit (in `u128`, so products of sizes never wrap).
pub fn plan(requested: u128, work: u128, limit: u128) -> Plan {
    if requested > limit {
        Plan::Refuse
    } else if requested <= work {
        Plan::Run
    } else {
        Plan::Skip
    }
}

/// SplitMix64: a tiny deterministic RNG for the fuzzer's own draws and the
/// library calls that take the caller's RNG.
#[derive(Debug, Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    fn step(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Infallible, so it is a `rand::Rng` (rand 0.10's generator trait).
impl TryRng for SplitMix {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> core::result::Result<u32, Infallible> {
        Ok((self.step() >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> core::result::Result<u64, Infallible> {
        Ok(self.step())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.step().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

/// Asserts `v` is a number in `[lo, hi]` (so never NaN).
#[track_caller]
pub fn within(v: f64, lo: f64, hi: f64, what: &str) {
    assert!(v >= lo && v <= hi, "{what} = {v} outside [{lo}, {hi}]");
}

/// Asserts `v` is finite.
#[track_caller]
pub fn finite(v: f64, what: &str) {
    assert!(v.is_finite(), "{what} = {v} is not finite");
}
