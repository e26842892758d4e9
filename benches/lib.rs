//! Criterion benchmarks of `adaptive-comp-metrics`, in a package of their
//! own so that building the library or one of its examples never compiles
//! criterion. The benches are the `[[bench]]` targets beside this file; this
//! library only shares their data generators.

#![forbid(unsafe_code)]

#[path = "../tests/common/splitmix.rs"]
pub mod splitmix;

#[path = "../tests/common/xorshift.rs"]
pub mod xorshift;

/// `n` deterministic uniform [0, 1) values: the SplitMix64 stream of `seed`.
pub fn uniform(n: usize, seed: u64) -> Vec<f64> {
    let mut g = splitmix::SplitMix64(seed);
    (0..n).map(|_| g.next_f64()).collect()
}
