//! Large inputs: accuracy of Spearman's ρ at n = 10⁶ against exact integer
//! arithmetic, Kendall's τ-b with heavy ties at n ≥ 10⁵ against counts from a
//! contingency table, and the exact ±1 of identical and reversed inputs at
//! n = 70 000 (where 32-bit pair counters of other crates break).

use adaptive_comp_metrics::{Alternative, kendall_tau_b, spearman};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Twice the average (1-based, ascending) ranks of `v`: integers.
fn doubled_average_ranks(v: &[f64]) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut out = vec![0; v.len()];
    let mut start = 0;
    while start < idx.len() {
        let mut end = start + 1;
        while end < idx.len() && v[idx[end]] == v[idx[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1 ..= end; twice their mean
        // is (start + 1) + end.
        for &i in &idx[start..end] {
            out[i] = (start + 1 + end) as i64;
        }
        start = end;
    }
    out
}

/// ρ − exact in units of ulp(ρ), with the exact ρ from integer arithmetic:
/// with D = 2r − (n + 1) (integers), ρ = ΣDaDb / √(ΣDa²·ΣDb²). Needs
/// 1/2 ≤ ρ < 1. The oracle's own error is below 1/20 ulp.
fn ulps_from_exact(x: &[f64], y: &[f64], rho: f64) -> f64 {
    assert!((0.5..1.0).contains(&rho));
    let n = x.len() as i64;
    let (a, b) = (doubled_average_ranks(x), doubled_average_ranks(y));
    let (mut ab, mut aa, mut bb) = (0_i128, 0_i128, 0_i128);
    for (&ra, &rb) in a.iter().zip(&b) {
        let (da, db) = (i128::from(ra - (n + 1)), i128::from(rb - (n + 1)));
        ab += da * db;
        aa += da * da;
        bb += db * db;
    }
    assert!(ab > 0 && ab < 1 << 63, "fits the fixed-point scheme");
    // √(aa·bb) lies in [s, s + 1); ρ·2⁶⁴ lies in (lo, hi].
    let s = (aa as u128 * bb as u128).isqrt();
    let scaled = (ab as u128) << 64;
    let (hi, lo) = (scaled / s, scaled / (s + 1));
    let mid = (hi + lo) / 2;
    // ρ ∈ [1/2, 1): ulp(ρ) = 2⁻⁵³, i.e. 2¹¹ units of 2⁻⁶⁴; ρ·2⁶⁴ is an integer.
    let ours = (rho * 2f64.powi(64)) as u128;
    assert!(hi - lo < 128, "oracle resolution");
    (ours as i128 - mid as i128) as f64 / 2048.0
}

/// ρ with plain running `f64` sums, as other crates compute it.
fn naive_rho(x: &[f64], y: &[f64]) -> f64 {
    let m = (x.len() as f64 + 1.0) / 2.0;
    let (a, b) = (doubled_average_ranks(x), doubled_average_ranks(y));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (&ra, &rb) in a.iter().zip(&b) {
        let (da, db) = (ra as f64 / 2.0 - m, rb as f64 / 2.0 - m);
        ab += da * db;
        aa += da * da;
        bb += db * db;
    }
    ab / (aa * bb).sqrt()
}

#[test]
fn spearman_is_within_a_few_ulp_at_a_million() {
    let n = 1_000_000;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Continuous scores (no ties), correlation ≈ 0.8.
    let x: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    let y: Vec<f64> = x.iter().map(|v| v + 0.4 * rng.random::<f64>()).collect();
    let r = spearman(&x, &y).unwrap();
    let err = ulps_from_exact(&x, &y, r.rho);
    eprintln!("no ties: rho = {}, error = {err} ulp", r.rho);
    assert!(err.abs() <= 4.0, "{err} ulp");
    // For contrast (not asserted): naive f64 sums of the same exact terms.
    let naive = naive_rho(&x, &y);
    let naive_err = ulps_from_exact(&x, &y, naive);
    eprintln!("naive summation: rho = {naive}, error = {naive_err} ulp");

    // Heavy ties: 1000 distinct values in x, 300 in y.
    let x: Vec<f64> = (0..n).map(|_| rng.random_range(0..1000) as f64).collect();
    let y: Vec<f64> = x
        .iter()
        .map(|v| ((v + rng.random_range(0.0..400.0)) / 4.0).floor())
        .collect();
    let r = spearman(&x, &y).unwrap();
    let err = ulps_from_exact(&x, &y, r.rho);
    eprintln!("ties: rho = {}, error = {err} ulp", r.rho);
    assert!(err.abs() <= 4.0, "{err} ulp");

    // The same ranks from f32 scores.
    let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let yf: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    assert_eq!(spearman(&xf, &yf).unwrap().rho, r.rho);
}

/// Integer categories with a contingency table: the oracle of τ-b counts.
struct Table {
    counts: Vec<Vec<u64>>,
}

impl Table {
    fn new(x: &[u32], y: &[u32], kx: usize, ky: usize) -> Self {
        let mut counts = vec![vec![0; ky]; kx];
        for (&a, &b) in x.iter().zip(y) {
            counts[a as usize][b as usize] += 1;
        }
        Self { counts }
    }

    /// (concordant, discordant, ties_x only, ties_y only, joint ties).
    fn pair_counts(&self) -> (u64, u64, u64, u64, u64) {
        let c2 = |t: u64| t * t.saturating_sub(1) / 2;
        let (kx, ky) = (self.counts.len(), self.counts[0].len());
        let (mut con, mut dis) = (0_u128, 0_u128);
        for a in 0..kx {
            for b in 0..ky {
                let here = u128::from(self.counts[a][b]);
                for a2 in a + 1..kx {
                    for b2 in 0..ky {
                        let there = u128::from(self.counts[a2][b2]);
                        if b2 > b {
                            con += here * there;
                        } else if b2 < b {
                            dis += here * there;
                        }
                    }
                }
            }
        }
        let joint: u64 = self.counts.iter().flatten().map(|&t| c2(t)).sum();
        let tx: u64 = self.rows().iter().map(|&t| c2(t)).sum();
        let ty: u64 = self.cols().iter().map(|&t| c2(t)).sum();
        (con as u64, dis as u64, tx - joint, ty - joint, joint)
    }

    fn rows(&self) -> Vec<u64> {
        self.counts.iter().map(|r| r.iter().sum()).collect()
    }

    fn cols(&self) -> Vec<u64> {
        (0..self.counts[0].len())
            .map(|b| self.counts.iter().map(|r| r[b]).sum())
            .collect()
    }
}

fn heavy_ties_case(n: usize, kx: u32, ky: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x: Vec<u32> = (0..n).map(|_| rng.random_range(0..kx)).collect();
    // y follows x with noise, so τ is clearly positive.
    let y: Vec<u32> = x
        .iter()
        .map(|&a| ((a * ky / kx) + rng.random_range(0..2)).min(ky - 1))
        .collect();
    let table = Table::new(&x, &y, kx as usize, ky as usize);
    let (con, dis, only_x, only_y, joint) = table.pair_counts();

    let xf: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let yf: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    let yd: Vec<f64> = yf.iter().map(|&v| f64::from(v)).collect();
    let k = kendall_tau_b(&xf, &yd).unwrap();
    assert_eq!(
        (k.concordant, k.discordant, k.ties_x, k.ties_y, k.ties_xy),
        (con, dis, only_x, only_y, joint)
    );
    let total = (n as u64) * (n as u64 - 1) / 2;
    assert_eq!(con + dis + only_x + only_y + joint, total);

    // τ-b and z from the table, in plain f64.
    let tx = (only_x + joint) as f64;
    let ty = (only_y + joint) as f64;
    let nn = total as f64;
    let s = con as f64 - dis as f64;
    let tau = s / ((nn - tx) * (nn - ty)).sqrt();
    assert!((k.tau - tau).abs() <= 1e-15, "{} vs {tau}", k.tau);
    let nf = n as f64;
    let m = nf * (nf - 1.0);
    let v1 = |g: &[u64]| -> f64 {
        g.iter()
            .map(|&t| t as f64 * (t as f64 - 1.0) * (2.0 * t as f64 + 5.0))
            .sum()
    };
    let v0 = |g: &[u64]| -> f64 {
        g.iter()
            .map(|&t| t as f64 * (t as f64 - 1.0) * (t as f64 - 2.0))
            .sum()
    };
    let (rows, cols) = (table.rows(), table.cols());
    let var = (m * (2.0 * nf + 5.0) - v1(&rows) - v1(&cols)) / 18.0
        + 2.0 * tx * ty / m
        + v0(&rows) * v0(&cols) / (9.0 * m * (nf - 2.0));
    let z = s / var.sqrt();
    assert!(var > 0.0 && z > 0.0);
    assert!(((k.z - z) / z).abs() <= 1e-9, "{} vs {z}", k.z);
    let p = k.p_value(Alternative::Less);
    assert!(p > 0.99 && p <= 1.0);

    // Same counts from f32 input, and τ symmetric in the two inputs.
    let xs: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    assert_eq!(kendall_tau_b(&xs, &yf).unwrap(), k);
    let swapped = kendall_tau_b(&yd, &xf).unwrap();
    assert_eq!(swapped.tau, k.tau);
    assert_eq!((swapped.ties_x, swapped.ties_y), (k.ties_y, k.ties_x));
}

#[test]
fn kendall_heavy_ties_200k_matches_the_contingency_table() {
    heavy_ties_case(200_000, 5, 7, 11);
}

#[test]
fn kendall_two_by_three_categories_at_a_million() {
    // Pairs tied in x ≈ 2.5·10¹¹ each way: T_x·T_y ≈ 6·10²² > 2⁶⁴.
    heavy_ties_case(1_000_000, 2, 3, 12);
}

#[test]
fn identical_and_reversed_at_70_000_are_exactly_one() {
    let n = 70_000;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let x: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    let rev: Vec<f64> = x.iter().map(|v| -v).collect();
    let k = kendall_tau_b(&x, &x).unwrap();
    assert_eq!(k.tau, 1.0);
    // 70 000·69 999/2 = 2 449 965 000 > i32::MAX.
    assert_eq!(k.concordant, 2_449_965_000);
    assert_eq!(k.discordant, 0);
    assert_eq!(k.p_value(Alternative::Greater), 0.0);
    assert_eq!(kendall_tau_b(&x, &rev).unwrap().tau, -1.0);
    assert_eq!(spearman(&x, &x).unwrap().rho, 1.0);
    assert_eq!(spearman(&x, &rev).unwrap().rho, -1.0);

    // With heavy ties too.
    let t: Vec<f64> = x.iter().map(|v| (v * 10.0).floor()).collect();
    let k = kendall_tau_b(&t, &t).unwrap();
    assert_eq!(k.tau, 1.0);
    assert_eq!(k.discordant, 0);
    assert_eq!(spearman(&t, &t).unwrap().rho, 1.0);
}
