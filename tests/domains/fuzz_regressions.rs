//! Inputs the fuzz targets of `fuzz/` found (issue 17, "Fuzzing that reaches
//! the edges"), replayed as ordinary tests: the call the crashing input made,
//! with its values. Each crash file is also kept in the target's seed corpus
//! (`fuzz/corpus/<target>/seed-crash-*`), so the fuzzer replays it too.

use adaptive_comp_metrics::relevance::{rbo, rbo_tied};

/// `relevance_ops`, crash-e131b63dec89b27558ed3bc56fb726a6e22d277b: a
/// subnormal persistence made the scale (1 − p)/p infinite, 0·∞ NaN, and
/// `f64::clamp` panicked on the NaN bound.
#[test]
fn rbo_with_a_subnormal_persistence() {
    let p = 3.1e-322;
    let r = rbo(&[73u8], &[0u8], p).expect("0 < p < 1");
    // A_1 = 0, and every deeper agreement is 0 (MIN, EXT) or 1 (MAX: the
    // unseen items may all match from depth 2 on), so
    // MIN = EXT = 0, MAX = (1 − p)·Σ_{d≥2} p^(d−1) = p.
    assert_eq!((r.min, r.ext), (0.0, 0.0));
    assert_eq!(r.residual, p);
    assert_eq!(r, rbo_tied(&[[73u8]], &[[0u8]], p).expect("0 < p < 1"));
}

/// Before the fix a subnormal p did not always panic: v·(1 − p)/p with a
/// finite v gave +∞, clamped to 1, where the right value is A_1.
#[test]
fn rbo_with_a_subnormal_persistence_is_the_first_agreement() {
    // {a, b} tied on top of S, {a, c} on top of T: A_1 = 2·1/(2 + 2) = 1/2,
    // and the depths d ≥ 2 carry a factor p^(d−1) < 1e-310, below the last
    // bit of 1/2.
    let r = rbo_tied(&[["a", "b"]], &[["a", "c"]], 1e-310).expect("0 < p < 1");
    assert_eq!((r.min, r.ext, r.max()), (0.5, 0.5, 0.5));
}
