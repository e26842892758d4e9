//! SplitMix64 (Steele, Lea & Flood 2014), the generator shared with
//! `tests/data/vigna/gen_scipy.py` and `benches/scipy_compare.py`, so Rust and
//! Python build identical data.
//!
//! Output k (0-based) of seed s is `mix(s + (k + 1)·γ)`, γ = 0x9E3779B97F4A7C15,
//! and a float in [0, 1) is its top 53 bits times 2⁻⁵³.

/// The SplitMix64 stream of one seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next float in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The data sets of the goldens and benches: x = the first n floats of the
/// stream, y = the next n; with `levels > 0`, each float u becomes
/// `floor(u·levels)` (ties).
pub fn data(seed: u64, n: usize, levels: u32) -> (Vec<f64>, Vec<f64>) {
    let mut g = SplitMix64(seed);
    let mut v: Vec<f64> = (0..2 * n)
        .map(|_| {
            let u = g.next_f64();
            if levels > 0 {
                (u * f64::from(levels)).floor()
            } else {
                u
            }
        })
        .collect();
    let y = v.split_off(n);
    (v, y)
}
