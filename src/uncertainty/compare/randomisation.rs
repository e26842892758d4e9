//! Fisher's randomisation (sign-flip) test of a mean difference: under the
//! null hypothesis the two systems are exchangeable on each unit, so the
//! difference dᵢ of each unit keeps or flips its sign with probability ½.
//!
//! ```text
//! T = Σᵢ dᵢ,   T_s = Σᵢ sᵢ·dᵢ,  s ∈ {−1, +1}ⁿ
//! exact:        p_greater = #{s : T_s ≥ T}/2ⁿ
//! Monte Carlo:  p_greater = (#{k : T_k ≥ T} + 1)/(m + 1),  m random sign vectors
//! two-sided:    min(1, 2·min(p_greater, p_less))
//! ```
//!
//! (The null distribution is symmetric, so the exact two-sided p-value is
//! also #{s : |T_s| ≥ |T|}/2ⁿ.) Values within `tol` of T count as equal to
//! it, so that rounding does not decide ties of data such as P@10 whose
//! sums tie exactly in decimal arithmetic; `tol` is 10⁻¹⁰ times the sum of
//! the two systems' absolute scores.
//!
//! **Exact**, by meeting in the middle: the units are cut in two halves,
//! the 2^(n/2) signed sums of each half listed, one list sorted, and for
//! each sum a of the other the b with a + b ≥ T − tol counted by binary
//! search: O(2^(n/2)·n) rather than O(2ⁿ·n).
//!
//! **Monte Carlo**, shared by every pair: T_k(a, b) = S_k(a) − S_k(b) with
//! S_k(a) = Σᵢ sᵢ·xᵢₐ the signed sum of system a's scores under sign
//! vector k, so one pass over the units gives all k(k − 1)/2 pairs'
//! permuted values. Each pair's null distribution is that of its own test
//! (the sign vectors are those of a randomisation test of that pair); the
//! pairs' tests merely share their random draws. Sign vector k comes from
//! replicate k's ChaCha8 stream, 64 signs a draw.

use rand::Rng;

/// The tie tolerance for two systems whose absolute scores sum to `scale`.
pub(crate) fn tolerance(scale: f64) -> f64 {
    1e-10 * scale
}

/// Counts of a sign-flip test: values ≥ T − tol, values ≤ T + tol, of `total`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(crate) at_least: u64,
    pub(crate) at_most: u64,
    pub(crate) total: u64,
}

/// The signed sums Σ_(j ∈ half) ±d_j of every sign pattern of `half`
/// (bit j of the mask set = +), each summed in index order.
fn half_sums(half: &[f64]) -> Vec<f64> {
    (0..1u64 << half.len())
        .map(|mask| {
            half.iter().enumerate().fold(
                0.0,
                |acc, (j, &d)| if mask >> j & 1 == 1 { acc + d } else { acc - d },
            )
        })
        .collect()
}

/// The exact counts over all 2ⁿ sign vectors of `d` (n ≤ 62), with T the
/// all-plus sum computed as the enumeration computes it.
pub(crate) fn exact_counts(d: &[f64], tol: f64) -> Counts {
    debug_assert!(d.len() <= 62);
    let h = d.len() / 2;
    let left = half_sums(&d[..h]);
    let mut right = half_sums(&d[h..]);
    let observed = left[left.len() - 1] + right[right.len() - 1];
    right.sort_by(f64::total_cmp);
    let (hi, lo) = (observed - tol, observed + tol);
    let mut at_least = 0u64;
    let mut at_most = 0u64;
    for &a in &left {
        // a + b is non-decreasing in b (rounding is monotone).
        at_least += (right.len() - right.partition_point(|&b| a + b < hi)) as u64;
        at_most += right.partition_point(|&b| a + b <= lo) as u64;
    }
    Counts {
        at_least,
        at_most,
        total: 1u64 << d.len(),
    }
}

/// p-values and Monte-Carlo standard error from counts (`exact`: no +1).
pub(crate) fn p_value(
    counts: Counts,
    exact: bool,
    alternative: crate::correlation::pvalue::Alternative,
) -> (f64, Option<f64>) {
    use crate::correlation::pvalue::Alternative;
    let adjust = u64::from(!exact);
    let m = counts.total as f64;
    let p = |b: u64| (b + adjust) as f64 / (m + adjust as f64);
    let se = |p: f64| (p * (1.0 - p) / m).sqrt();
    let (greater, less) = (p(counts.at_least), p(counts.at_most));
    let (value, error) = match alternative {
        Alternative::Greater => (greater, se(greater)),
        Alternative::Less => (less, se(less)),
        Alternative::TwoSided => {
            let q = greater.min(less);
            ((2.0 * q).min(1.0), 2.0 * se(q))
        }
    };
    (value, (!exact).then_some(error))
}

/// Fills `signs` with ±1.0, 64 units a draw of `bits()` (bit j set = +).
pub(crate) fn fill_signs(signs: &mut [f64], mut bits: impl FnMut() -> u64) {
    for block in signs.chunks_mut(64) {
        let b = bits();
        for (j, s) in block.iter_mut().enumerate() {
            // ±1.0 from the bit, without a branch.
            *s = f64::from_bits(1f64.to_bits() | ((!b >> j & 1) << 63));
        }
    }
}

/// `out[a] = Σᵢ signs[i]·columns[a·n + i]`: every system's signed sum, the
/// columns stored one system after another.
pub(crate) fn signed_sums(columns: &[f64], signs: &[f64], out: &mut [f64]) {
    let n = signs.len();
    for (o, column) in out.iter_mut().zip(columns.chunks_exact(n.max(1))) {
        *o = dot(column, signs);
    }
}

/// Σ aᵢbᵢ with eight running sums (vectorised; a fixed order, so the same
/// on every machine and thread).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let (ca, ra) = a.as_chunks::<8>();
    let (cb, rb) = b.as_chunks::<8>();
    let mut acc = [0.0; 8];
    for (x, y) in ca.iter().zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// One random sign vector's signed sums of every system.
pub(crate) fn random_sums<R: Rng + ?Sized>(
    columns: &[f64],
    rng: &mut R,
    signs: &mut [f64],
    out: &mut [f64],
) {
    fill_signs(signs, || rng.next_u64());
    signed_sums(columns, signs, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correlation::pvalue::Alternative;

    /// Brute force over every sign vector, summing in index order.
    fn brute(d: &[f64], tol: f64) -> Counts {
        let observed: f64 = d.iter().sum();
        let mut c = Counts {
            at_least: 0,
            at_most: 0,
            total: 1 << d.len(),
        };
        for mask in 0..1u64 << d.len() {
            let t: f64 = d
                .iter()
                .enumerate()
                .map(|(j, &x)| if mask >> j & 1 == 1 { x } else { -x })
                .sum();
            c.at_least += u64::from(t >= observed - tol);
            c.at_most += u64::from(t <= observed + tol);
        }
        c
    }

    #[test]
    fn exact_counts_equal_brute_force() {
        // Dyadic values: every sum is exact, so ties are exact too.
        let d = [0.5, -0.25, 0.75, 0.5, 0.0, -0.5, 1.0, 0.25, -0.75];
        for n in 0..=d.len() {
            assert_eq!(
                exact_counts(&d[..n], 1e-12),
                brute(&d[..n], 1e-12),
                "n = {n}"
            );
        }
        // d = 1, 2, 3: T = 6; sums ≥ 6: only (+,+,+); ≤ 6: all 8.
        let c = exact_counts(&[1.0, 2.0, 3.0], 0.0);
        assert_eq!((c.at_least, c.at_most, c.total), (1, 8, 8));
        assert_eq!(p_value(c, true, Alternative::TwoSided), (0.25, None));
        assert_eq!(p_value(c, true, Alternative::Greater).0, 0.125);
    }

    #[test]
    fn signed_sums_use_one_bit_a_unit() {
        // Two systems, 3 units; signs + − + (bits 0b101).
        let columns = [1.0, 2.0, 4.0, 10.0, 20.0, 40.0];
        let (mut signs, mut out) = ([0.0; 3], [0.0; 2]);
        fill_signs(&mut signs, || 0b101);
        assert_eq!(signs, [1.0, -1.0, 1.0]);
        signed_sums(&columns, &signs, &mut out);
        assert_eq!(out, [3.0, 30.0]);
        // 70 units: two draws, the second for units 64…69.
        let mut draws = [u64::MAX, 0].into_iter();
        let mut signs = vec![0.0; 70];
        fill_signs(&mut signs, || draws.next().unwrap());
        let column: Vec<f64> = (0..70).map(f64::from).collect();
        let mut out = [0.0];
        signed_sums(&column, &signs, &mut out);
        assert_eq!(
            out[0],
            (0..64).sum::<i32>() as f64 - (64..70).sum::<i32>() as f64
        );
    }
}
