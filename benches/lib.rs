//! Criterion benchmarks of `adaptive-comp-metrics`, in a package of their
//! own so that building the library or one of its examples never compiles
//! criterion. The benches are the `[[bench]]` targets beside this file; this
//! library only shares their data generator.

#![forbid(unsafe_code)]

#[path = "../tests/common/splitmix.rs"]
pub mod splitmix;
