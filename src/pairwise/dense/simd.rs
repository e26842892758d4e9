//! The wide register tiles of [`super::gemm_sub`] in AVX2 and AVX-512F,
//! chosen at run time: the crate's one module with `unsafe` code.
//!
//! The library forbids `unsafe` everywhere else (the root manifest sets the
//! lint to `deny` and this module alone allows it). What is unsafe here is
//! narrow and checked:
//!
//! - calling a `#[target_feature]` function, which happens only after
//!   [`level`] has seen the feature with `is_x86_feature_detected!`
//!   (detected once, then cached);
//! - the `core::arch` loads and stores, each on a slice whose bounds were
//!   checked just before (a `&[f64; W]` made by `try_from`), so no raw
//!   pointer outlives the line that takes it.
//!
//! The kernels compute exactly what the portable 4 × 4 tile computes, in the
//! same order for every output element: the accumulator starts at +0, and
//! for l = 0, 1, … it becomes `acc + a[r][l]·b[l][c]` with the product
//! rounded first (a multiply then an add: no fused multiply–add, which
//! would round once and change the bits). A wider tile only computes more
//! elements at once, so the results are bit-for-bit those of the portable
//! kernel on every machine and any number of threads.
//!
//! AVX2 does a tile of 4 rows × 8 columns (8 four-lane accumulators),
//! AVX-512F 4 rows × 16 columns (8 eight-lane accumulators).

/// The instruction set the wide tiles use on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    /// No wide tile: the portable 4 × 4 tile only.
    Portable,
    /// 4 × 8 tiles in AVX2.
    Avx2,
    /// 4 × 16 tiles in AVX-512F (and 4 × 8 in AVX2 where 16 columns do
    /// not fit).
    Avx512,
}

/// The best level this machine supports, detected on the first call.
pub(super) fn level() -> Level {
    static LEVEL: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(detect)
}

fn detect() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx2") {
            return Level::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Level::Avx2;
        }
    }
    Level::Portable
}

/// The levels this machine can run (for the tests that compare them).
#[cfg(test)]
pub(super) fn available() -> Vec<Level> {
    match level() {
        Level::Portable => vec![Level::Portable],
        Level::Avx2 => vec![Level::Portable, Level::Avx2],
        Level::Avx512 => vec![Level::Portable, Level::Avx2, Level::Avx512],
    }
}

/// The widest tile `level` offers that is at most `room` columns wide:
/// 16, 8, or 0 for none.
#[inline]
pub(super) fn width(level: Level, room: usize) -> usize {
    match level {
        Level::Avx512 if room >= 16 => 16,
        Level::Avx512 | Level::Avx2 if room >= 8 => 8,
        _ => 0,
    }
}

/// `acc[r·w + c] = Σ_l ap[4l + r]·b[l·ldb + j + c]` for r < 4, c < w, the
/// sum taken in order of l from +0, w = [`width`]`(level, w)` (8 or 16, as
/// returned by it for this level). `ap` holds 4·k values (four rows
/// interleaved), `b` at least (k − 1)·ldb + j + w.
///
/// # Panics
/// If `w` is not a width `level` offers, or the slices are too short.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn tile(
    level: Level,
    w: usize,
    ap: &[f64],
    b: &[f64],
    ldb: usize,
    j: usize,
    k: usize,
    acc: &mut [f64; 64],
) {
    assert!(ap.len() >= 4 * k, "packed rows too short");
    assert!(
        k == 0 || b.len() >= (k - 1) * ldb + j + w,
        "right-hand rows too short"
    );
    #[cfg(target_arch = "x86_64")]
    match (level, w) {
        (Level::Avx512, 16) => {
            // SAFETY: `Level::Avx512` comes from `detect`, which returns it
            // only when the CPU has AVX-512F (and AVX2).
            unsafe { x86::tile_4x16(ap, b, ldb, j, k, acc) };
            return;
        }
        (Level::Avx2 | Level::Avx512, 8) => {
            // SAFETY: both levels come from `detect`, which returns them only
            // when the CPU has AVX2.
            unsafe { x86::tile_4x8(ap, b, ldb, j, k, acc) };
            return;
        }
        _ => {}
    }
    panic!("no {w}-column tile at {level:?}");
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256d, __m512d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd,
        _mm256_setzero_pd, _mm256_storeu_pd, _mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd,
        _mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd,
    };

    /// Four values of a checked slice into a vector.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load4(v: &[f64; 4]) -> __m256d {
        // SAFETY: `v` is a reference to 4 initialised f64 (32 bytes), the
        // width of an unaligned 256-bit load.
        unsafe { _mm256_loadu_pd(v.as_ptr()) }
    }

    /// A vector into four values of a checked slice.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store4(out: &mut [f64; 4], v: __m256d) {
        // SAFETY: `out` is an exclusive reference to 4 f64 (32 bytes), the
        // width of an unaligned 256-bit store.
        unsafe { _mm256_storeu_pd(out.as_mut_ptr(), v) }
    }

    /// Eight values of a checked slice into a vector.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load8(v: &[f64; 8]) -> __m512d {
        // SAFETY: `v` is a reference to 8 initialised f64 (64 bytes), the
        // width of an unaligned 512-bit load.
        unsafe { _mm512_loadu_pd(v.as_ptr()) }
    }

    /// A vector into eight values of a checked slice.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn store8(out: &mut [f64; 8], v: __m512d) {
        // SAFETY: `out` is an exclusive reference to 8 f64 (64 bytes), the
        // width of an unaligned 512-bit store.
        unsafe { _mm512_storeu_pd(out.as_mut_ptr(), v) }
    }

    /// `N` values of `s` from `at`, bounds checked.
    #[inline]
    fn chunk<const N: usize>(s: &[f64], at: usize) -> &[f64; N] {
        match <&[f64; N]>::try_from(&s[at..at + N]) {
            Ok(v) => v,
            Err(_) => unreachable!("a range of N values is N long"),
        }
    }

    /// `N` values of `s` from `at`, bounds checked, for writing.
    #[inline]
    fn chunk_mut<const N: usize>(s: &mut [f64], at: usize) -> &mut [f64; N] {
        match <&mut [f64; N]>::try_from(&mut s[at..at + N]) {
            Ok(v) => v,
            Err(_) => unreachable!("a range of N values is N long"),
        }
    }

    /// The 4 × 8 tile (see [`super::tile`]), acc[r·8 + c].
    #[target_feature(enable = "avx2")]
    pub(super) fn tile_4x8(
        ap: &[f64],
        b: &[f64],
        ldb: usize,
        j: usize,
        k: usize,
        acc: &mut [f64; 64],
    ) {
        let mut c = [_mm256_setzero_pd(); 8];
        for l in 0..k {
            let at = l * ldb + j;
            let b0 = load4(chunk(b, at));
            let b1 = load4(chunk(b, at + 4));
            let a: &[f64; 4] = chunk(ap, 4 * l);
            for r in 0..4 {
                let ar = _mm256_set1_pd(a[r]);
                // A multiply, then an add: the portable kernel's two roundings.
                c[2 * r] = _mm256_add_pd(c[2 * r], _mm256_mul_pd(ar, b0));
                c[2 * r + 1] = _mm256_add_pd(c[2 * r + 1], _mm256_mul_pd(ar, b1));
            }
        }
        for (i, v) in c.into_iter().enumerate() {
            store4(chunk_mut(acc, 4 * i), v);
        }
    }

    /// The 4 × 16 tile (see [`super::tile`]), acc[r·16 + c].
    #[target_feature(enable = "avx512f")]
    pub(super) fn tile_4x16(
        ap: &[f64],
        b: &[f64],
        ldb: usize,
        j: usize,
        k: usize,
        acc: &mut [f64; 64],
    ) {
        let mut c = [_mm512_setzero_pd(); 8];
        for l in 0..k {
            let at = l * ldb + j;
            let b0 = load8(chunk(b, at));
            let b1 = load8(chunk(b, at + 8));
            let a: &[f64; 4] = chunk(ap, 4 * l);
            for r in 0..4 {
                let ar = _mm512_set1_pd(a[r]);
                // A multiply, then an add: the portable kernel's two roundings.
                c[2 * r] = _mm512_add_pd(c[2 * r], _mm512_mul_pd(ar, b0));
                c[2 * r + 1] = _mm512_add_pd(c[2 * r + 1], _mm512_mul_pd(ar, b1));
            }
        }
        for (i, v) in c.into_iter().enumerate() {
            store8(chunk_mut(acc, 8 * i), v);
        }
    }
}
