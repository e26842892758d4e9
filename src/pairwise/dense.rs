//! Dense symmetric positive-definite algebra for the observed information:
//! a blocked Cholesky factorisation, the inverse of the factor by column
//! blocks, the diagonal of the inverse, and products with the inverse
//! factor (draws from the normal approximation).
//!
//! Everything is cut into pieces whose boundaries depend on the matrix size
//! only, each computed by the same sequence of operations whichever thread
//! runs it, so results are bit-for-bit the same on any number of threads
//! (see [`crate::threads`]).
//!
//! The work is in one kernel, C −= A·B on a tile of 4 rows × 4 columns with
//! A packed four rows interleaved, written so that the compiler keeps the
//! 16 accumulators in registers and vectorises the columns (the baseline
//! x86-64 target has 2-lane SSE2 vectors). Where the CPU has AVX2 or
//! AVX-512F, detected at run time, wider tiles of 4 × 8 and 4 × 16 columns
//! take over ([`simd`], the crate's one module with `unsafe` code); they
//! compute every element in the same order, so the bits do not depend on
//! the machine.

use crate::threads;

#[allow(unsafe_code)]
mod simd;

/// Rows (and columns) of a block of the factorisation and of the inverse.
const BLOCK: usize = 64;

/// Rows of a piece of the trailing update handed to one thread.
const ROWS_PER_PIECE: usize = 128;

/// A row-major n × n matrix.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Square {
    pub(crate) n: usize,
    pub(crate) a: Vec<f64>,
}

impl Square {
    pub(crate) fn zeros(n: usize) -> Self {
        Self {
            n,
            a: vec![0.0; n * n],
        }
    }

    #[inline]
    pub(crate) fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }

    #[inline]
    pub(crate) fn add(&mut self, i: usize, j: usize, v: f64) {
        self.a[i * self.n + j] += v;
    }
}

/// Packs rows `rows` of a row-major matrix (row stride `ld`), columns
/// `cols`, four rows interleaved: out[(r/4)·4·k + l·4 + r%4] = m[r][l].
/// Rows past the end of a group of four are zero.
fn pack_rows(
    m: &[f64],
    ld: usize,
    rows: core::ops::Range<usize>,
    cols: core::ops::Range<usize>,
    out: &mut Vec<f64>,
) {
    let k = cols.len();
    let groups = rows.len().div_ceil(4);
    out.clear();
    out.resize(groups * 4 * k, 0.0);
    for (r, row) in rows.clone().enumerate() {
        let (g, lane) = (r / 4, r % 4);
        let src = &m[row * ld + cols.start..row * ld + cols.end];
        let dst = &mut out[g * 4 * k..(g + 1) * 4 * k];
        for (l, v) in src.iter().enumerate() {
            dst[l * 4 + lane] = *v;
        }
    }
}

/// C[r][j] −= Σ_l A[r][l]·B[l][j] for the rows of C (row stride `ldc`,
/// `rows` of them) and columns `cols` of C and B, A packed by
/// [`pack_rows`] with `k` columns, B row-major with stride `ldb` and `k`
/// rows. `limit(r)` caps the columns updated in row r (exclusive; the
/// lower triangle of a symmetric update), rounded up to whole tiles.
///
/// The wide tiles are those of `level`, which the CPU must have: the
/// callers pass [`simd::level`], the tests every level below it. Each
/// element of C is computed by the same operations in the same order
/// whatever the level.
#[allow(clippy::too_many_arguments)]
fn gemm_sub(
    level: simd::Level,
    c: &mut [f64],
    ldc: usize,
    rows: usize,
    cols: core::ops::Range<usize>,
    a: &[f64],
    k: usize,
    b: &[f64],
    ldb: usize,
    limit: impl Fn(usize) -> usize,
) {
    const NC: usize = 256;
    let mut jc = cols.start;
    while jc < cols.end {
        let jend = (jc + NC).min(cols.end);
        for g in 0..rows.div_ceil(4) {
            let r0 = 4 * g;
            let nr = (rows - r0).min(4);
            let ap = &a[g * 4 * k..(g + 1) * 4 * k];
            let cap = limit(r0 + nr - 1).min(jend);
            let mut j = jc;
            while j < cap {
                // A wide tile where the 4 × 4 tiles it stands for are all
                // whole and all computed (the last one starts before `cap`).
                let room = (jend - j).min((cap - j).next_multiple_of(4));
                let w = simd::width(level, room);
                if w > 0 {
                    let mut acc = [0.0f64; 64];
                    simd::tile(level, w, ap, b, ldb, j, k, &mut acc);
                    for r in 0..nr {
                        let base = (r0 + r) * ldc + j;
                        for (cv, av) in c[base..base + w].iter_mut().zip(&acc[r * w..r * w + w]) {
                            *cv -= *av;
                        }
                    }
                    j += w;
                    continue;
                }
                let nc = (jend - j).min(4);
                let acc = if nc == 4 {
                    tile(ap, b, ldb, j, k)
                } else {
                    let mut acc = [0.0f64; 16];
                    for l in 0..k {
                        let al = &ap[l * 4..l * 4 + 4];
                        for cc in 0..nc {
                            let bv = b[l * ldb + j + cc];
                            for r in 0..4 {
                                acc[r * 4 + cc] += al[r] * bv;
                            }
                        }
                    }
                    acc
                };
                for r in 0..nr {
                    let base = (r0 + r) * ldc + j;
                    for cc in 0..nc {
                        c[base + cc] -= acc[r * 4 + cc];
                    }
                }
                j += 4;
            }
        }
        jc = jend;
    }
}

/// Σ_l A[r][l]·B[l][j + c] for a tile of 4 × 4 (A packed, B row-major):
/// 16 accumulators the compiler keeps in vector registers (fixed-size
/// arrays, so that it sees whole vectors).
#[inline]
fn tile(ap: &[f64], b: &[f64], ldb: usize, j: usize, k: usize) -> [f64; 16] {
    let mut acc = [0.0f64; 16];
    for l in 0..k {
        let (Ok(bl), Ok(al)) = (
            <&[f64; 4]>::try_from(&b[l * ldb + j..l * ldb + j + 4]),
            <&[f64; 4]>::try_from(&ap[l * 4..l * 4 + 4]),
        ) else {
            continue;
        };
        for r in 0..4 {
            for c in 0..4 {
                acc[r * 4 + c] += al[r] * bl[c];
            }
        }
    }
    acc
}

/// Factors the symmetric positive-definite `m` (lower triangle read) in
/// place into its lower Cholesky factor L (m = L·Lᵀ; the strict upper
/// triangle is left undefined), on up to `workers` threads.
///
/// # Errors
/// The first row whose pivot is not positive (not positive definite).
///
/// # Complexity
/// n³/6 multiply–adds.
pub(crate) fn cholesky(m: &mut Square, workers: usize) -> Result<(), usize> {
    let n = m.n;
    let mut packed = Vec::new();
    let mut panel_t = Vec::new();
    let mut k0 = 0;
    while k0 < n {
        let kb = BLOCK.min(n - k0);
        let k1 = k0 + kb;
        // The diagonal block, unblocked.
        for j in k0..k1 {
            let mut d = m.at(j, j);
            for l in k0..j {
                d -= m.at(j, l) * m.at(j, l);
            }
            if d <= 0.0 || !d.is_finite() {
                return Err(j);
            }
            let d = d.sqrt();
            m.a[j * n + j] = d;
            for i in j + 1..k1 {
                let mut s = m.at(i, j);
                for l in k0..j {
                    s -= m.at(i, l) * m.at(j, l);
                }
                m.a[i * n + j] = s / d;
            }
        }
        if k1 == n {
            break;
        }
        // The panel below: L21 = A21·L11⁻ᵀ, row by row.
        let diag: Vec<f64> = (k0..k1)
            .flat_map(|j| (k0..k1).map(move |l| (j, l)))
            .map(|(j, l)| if l <= j { m.at(j, l) } else { 0.0 })
            .collect();
        {
            let (_, below) = m.a.split_at_mut(k1 * n);
            let pieces: Vec<&mut [f64]> = below.chunks_mut(ROWS_PER_PIECE * n).collect();
            threads::map(pieces, workers, |rows| {
                // Four rows at a time, interleaved (t[4l + r] = row r's
                // column k0 + l): four independent sums in flight instead
                // of one chain of dependent subtractions, each row's in
                // its own order as one row at a time.
                let mut t = vec![0.0f64; 4 * kb];
                for group in rows.chunks_mut(4 * n) {
                    let count = group.len() / n;
                    t.iter_mut().for_each(|v| *v = 0.0);
                    for (r, row) in group.chunks(n).enumerate() {
                        for (l, v) in row[k0..k1].iter().enumerate() {
                            t[4 * l + r] = *v;
                        }
                    }
                    for j in 0..kb {
                        let d = &diag[j * kb..j * kb + j + 1];
                        let (done, at) = t.split_at_mut(4 * j);
                        let mut s = [at[0], at[1], at[2], at[3]];
                        for (tl, &dl) in done.chunks_exact(4).zip(&d[..j]) {
                            for r in 0..4 {
                                s[r] -= tl[r] * dl;
                            }
                        }
                        for r in 0..4 {
                            at[r] = s[r] / d[j];
                        }
                    }
                    for (r, row) in group.chunks_mut(n).enumerate().take(count) {
                        for (l, v) in row[k0..k1].iter_mut().enumerate() {
                            *v = t[4 * l + r];
                        }
                    }
                }
            });
        }
        // The trailing update A22 −= L21·L21ᵀ (lower triangle).
        let rest = n - k1;
        pack_rows(&m.a, n, k1..n, k0..k1, &mut packed);
        panel_t.clear();
        panel_t.resize(kb * rest, 0.0);
        for i in 0..rest {
            for l in 0..kb {
                panel_t[l * rest + i] = m.a[(k1 + i) * n + k0 + l];
            }
        }
        let (_, below) = m.a.split_at_mut(k1 * n);
        let pieces: Vec<(usize, &mut [f64])> = below
            .chunks_mut(ROWS_PER_PIECE * n)
            .enumerate()
            .map(|(p, s)| (p * ROWS_PER_PIECE, s))
            .collect();
        let (packed, panel_t) = (&packed, &panel_t);
        threads::map(pieces, workers, |(first, rows)| {
            let count = rows.len() / n;
            let a = &packed[first * kb..(first + count.next_multiple_of(4)) * kb];
            // Column j of the trailing block is column k1 + j of m.
            let sub = &mut rows[k1..];
            gemm_sub(
                simd::level(),
                sub,
                n,
                count,
                0..rest,
                a,
                kb,
                panel_t,
                rest,
                |r| first + r + 1,
            );
        });
        k0 = k1;
    }
    Ok(())
}

/// The inverse of the lower factor, X = L⁻¹ (lower triangular), stored by
/// column blocks: block J holds rows J.start … n − 1 of columns J,
/// row-major. Column blocks are independent: each is a forward
/// substitution, blocked by rows.
#[derive(Debug, Clone)]
pub(crate) struct InverseFactor {
    pub(crate) n: usize,
    /// (first column, width, rows J.start.. n − 1 × width, row-major).
    pub(crate) blocks: Vec<(usize, usize, Vec<f64>)>,
}

/// L⁻¹ by column blocks on up to `workers` threads.
///
/// # Complexity
/// n³/6 multiply–adds.
pub(crate) fn invert_factor(l: &Square, workers: usize) -> InverseFactor {
    let n = l.n;
    let starts: Vec<usize> = (0..n).step_by(BLOCK).collect();
    let blocks = threads::map(starts, workers, |j0| {
        let w = BLOCK.min(n - j0);
        let rows = n - j0;
        let mut x = vec![0.0; rows * w];
        let mut packed = Vec::new();
        let mut i0 = j0;
        while i0 < n {
            let ib = BLOCK.min(n - i0);
            // Right-hand side: the identity's columns J on rows I.
            for i in i0..i0 + ib {
                if (j0..j0 + w).contains(&i) {
                    x[(i - j0) * w + (i - j0)] = 1.0;
                }
            }
            // Rows I −= L[I, j0..i0]·X[j0..i0, J].
            if i0 > j0 {
                pack_rows(&l.a, n, i0..i0 + ib, j0..i0, &mut packed);
                let (done, todo) = x.split_at_mut((i0 - j0) * w);
                gemm_sub(
                    simd::level(),
                    &mut todo[..ib * w],
                    w,
                    ib,
                    0..w,
                    &packed,
                    i0 - j0,
                    done,
                    w,
                    |_| w,
                );
            }
            // The triangular solve with L[I, I].
            for i in i0..i0 + ib {
                let d = l.at(i, i);
                for k in i0..i {
                    let lik = l.at(i, k);
                    if lik != 0.0 {
                        for c in 0..w {
                            let v = x[(k - j0) * w + c];
                            x[(i - j0) * w + c] -= lik * v;
                        }
                    }
                }
                for c in 0..w {
                    x[(i - j0) * w + c] /= d;
                }
            }
            i0 += ib;
        }
        (j0, w, x)
    });
    InverseFactor { n, blocks }
}

impl InverseFactor {
    /// The diagonal of (L·Lᵀ)⁻¹ = Xᵀ·X: the squared norms of X's columns.
    pub(crate) fn inverse_diagonal(&self) -> Vec<f64> {
        let mut d = vec![0.0; self.n];
        for (j0, w, x) in &self.blocks {
            for row in x.chunks(*w) {
                for (c, v) in row.iter().enumerate() {
                    d[j0 + c] += v * v;
                }
            }
        }
        d
    }

    /// Column j of (L·Lᵀ)⁻¹ restricted to the columns `of` (Σ_kj for k in
    /// `of`): Σ_kj = Σ_r X[r][k]·X[r][j].
    #[cfg(test)]
    pub(crate) fn inverse_entries(&self, j: usize, of: &[usize]) -> Vec<f64> {
        // Column j of X, rows j.. n − 1.
        let mut col = vec![0.0; self.n];
        for (j0, w, x) in &self.blocks {
            if (*j0..j0 + w).contains(&j) {
                for (r, row) in x.chunks(*w).enumerate() {
                    col[j0 + r] = row[j - j0];
                }
            }
        }
        of.iter()
            .map(|&k| {
                let mut s = 0.0;
                for (j0, w, x) in &self.blocks {
                    if (*j0..j0 + w).contains(&k) {
                        for (r, row) in x.chunks(*w).enumerate() {
                            s += row[k - j0] * col[j0 + r];
                        }
                    }
                }
                s
            })
            .collect()
    }

    /// Y = Z·X for `z` (rows × n, row-major): each row of Y is Xᵀ·z_row,
    /// a draw of N(0, (L·Lᵀ)⁻¹) when z_row is standard normal. Rows of Y
    /// are n long. On up to `workers` threads, by column blocks.
    pub(crate) fn times(&self, z: &[f64], rows: usize, workers: usize) -> Vec<f64> {
        let n = self.n;
        let mut packed = Vec::new();
        pack_rows(z, n, 0..rows, 0..n, &mut packed);
        let parts = threads::map(self.blocks.iter().collect(), workers, |(j0, w, x)| {
            // Y[:, J] = Z[:, J.start..]·X_J; the packed Z columns start at j0.
            let k = n - j0;
            let mut a = vec![0.0; rows.div_ceil(4) * 4 * k];
            for g in 0..rows.div_ceil(4) {
                a[g * 4 * k..(g + 1) * 4 * k]
                    .copy_from_slice(&packed[g * 4 * n + 4 * j0..(g + 1) * 4 * n]);
            }
            let mut y = vec![0.0; rows * w];
            gemm_sub(simd::level(), &mut y, *w, rows, 0..*w, &a, k, x, *w, |_| *w);
            y.iter_mut().for_each(|v| *v = -*v);
            (*j0, *w, y)
        });
        let mut out = vec![0.0; rows * n];
        for (j0, w, y) in parts {
            for (r, row) in y.chunks(w).enumerate() {
                out[r * n + j0..r * n + j0 + w].copy_from_slice(row);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random SPD matrix B·Bᵀ + n·I.
    fn spd(n: usize, seed: u64) -> Square {
        let mut g = ChaCha8Rng::seed_from_u64(seed);
        let b: Vec<f64> = (0..n * n).map(|_| g.random::<f64>() - 0.5).collect();
        let mut m = Square::zeros(n);
        for i in 0..n {
            for j in 0..n {
                let s: f64 = (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum();
                m.a[i * n + j] = s + if i == j { n as f64 } else { 0.0 };
            }
        }
        m
    }

    /// C after [`gemm_sub`] at `level` on values from `seed`: C is
    /// rows × ldc, A rows × k (packed), B k × ldb; the update covers columns
    /// `cols`, row r up to `first + r + 1` when `triangle` (else all).
    #[allow(clippy::too_many_arguments)]
    fn update(
        level: simd::Level,
        rows: usize,
        k: usize,
        ldc: usize,
        cols: core::ops::Range<usize>,
        first: usize,
        triangle: bool,
        seed: u64,
    ) -> Vec<u64> {
        let mut g = ChaCha8Rng::seed_from_u64(seed);
        let mut v =
            |len: usize| -> Vec<f64> { (0..len).map(|_| g.random::<f64>() * 2.0 - 1.0).collect() };
        let a = v(rows * k);
        let b = v(k * ldc);
        let mut c = v(rows * ldc);
        let mut packed = Vec::new();
        pack_rows(&a, k, 0..rows, 0..k, &mut packed);
        gemm_sub(level, &mut c, ldc, rows, cols, &packed, k, &b, ldc, |r| {
            if triangle { first + r + 1 } else { ldc }
        });
        c.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_wide_tiles_give_the_portable_bits_on_awkward_sizes() {
        let levels = simd::available();
        for rows in [1, 3, 4, 5, 9] {
            for k in [0, 1, 3, 64, 67] {
                for ldc in [1, 3, 4, 7, 8, 12, 15, 16, 17, 31, 33, 260, 300] {
                    for (cols, first, triangle) in [
                        (0..ldc, 0, false),
                        (0..ldc, 0, true),
                        (ldc / 3..ldc, 5, true),
                        (ldc / 2..ldc, 0, false),
                    ] {
                        let want = update(
                            simd::Level::Portable,
                            rows,
                            k,
                            ldc,
                            cols.clone(),
                            first,
                            triangle,
                            9,
                        );
                        for &level in &levels {
                            let got = update(level, rows, k, ldc, cols.clone(), first, triangle, 9);
                            assert!(
                                got == want,
                                "{level:?}: rows {rows}, k {k}, ldc {ldc}, cols {cols:?}, {triangle}"
                            );
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_dispatched_kernel_gives_the_portable_bits(
            rows in 1usize..12,
            k in 0usize..80,
            ldc in 1usize..70,
            from in 0usize..70,
            first in 0usize..40,
            triangle: bool,
            seed: u64,
        ) {
            let cols = from.min(ldc - 1)..ldc;
            let want = update(simd::Level::Portable, rows, k, ldc, cols.clone(), first, triangle, seed);
            let got = update(simd::level(), rows, k, ldc, cols, first, triangle, seed);
            proptest::prop_assert!(got == want);
        }
    }

    #[test]
    fn the_factor_reproduces_the_matrix_and_the_inverse_is_one() {
        for n in [1, 3, 4, 5, 63, 64, 65, 130, 200] {
            let m = spd(n, n as u64);
            for workers in [1, 3] {
                let mut l = m.clone();
                cholesky(&mut l, workers).unwrap();
                // L·Lᵀ = m on the lower triangle.
                for i in 0..n {
                    for j in 0..=i {
                        let s: f64 = (0..=j).map(|k| l.at(i, k) * l.at(j, k)).sum();
                        assert!((s - m.at(i, j)).abs() < 1e-9 * n as f64, "n {n} ({i},{j})");
                    }
                }
                let x = invert_factor(&l, workers);
                let d = x.inverse_diagonal();
                // (m⁻¹)_jj against a solve: m⁻¹ column j by the entries.
                for j in [0, n / 2, n - 1] {
                    let all: Vec<usize> = (0..n).collect();
                    let col = x.inverse_entries(j, &all);
                    assert!((col[j] - d[j]).abs() < 1e-12);
                    // m·col = e_j.
                    for i in 0..n {
                        let s: f64 = (0..n).map(|k| m.at(i, k) * col[k]).sum();
                        let want = if i == j { 1.0 } else { 0.0 };
                        assert!((s - want).abs() < 1e-9, "n {n}, m·m⁻¹ ({i},{j}) = {s}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_same_bits_on_any_number_of_threads() {
        let m = spd(300, 7);
        let run = |w| {
            let mut l = m.clone();
            cholesky(&mut l, w).unwrap();
            let x = invert_factor(&l, w);
            let z: Vec<f64> = (0..5 * 300).map(|i| (i as f64 * 0.37).sin()).collect();
            (l.a, x.inverse_diagonal(), x.times(&z, 5, w))
        };
        let one = run(1);
        for w in [2, 4] {
            assert!(run(w) == one);
        }
    }

    #[test]
    fn products_with_the_inverse_factor_match_the_naive_sum() {
        let n = 70;
        let m = spd(n, 3);
        let mut l = m.clone();
        cholesky(&mut l, 1).unwrap();
        let x = invert_factor(&l, 1);
        // Xᵀ·z by hand from the columns.
        let z: Vec<f64> = (0..3 * n).map(|i| (i as f64).cos()).collect();
        let y = x.times(&z, 3, 2);
        let dense = |r: usize, c: usize| -> f64 {
            let e = x
                .blocks
                .iter()
                .find(|(j0, w, _)| (*j0..j0 + w).contains(&c))
                .unwrap();
            if r < e.0 {
                0.0
            } else {
                e.2[(r - e.0) * e.1 + (c - e.0)]
            }
        };
        for d in 0..3 {
            for c in 0..n {
                let s: f64 = (0..n).map(|r| dense(r, c) * z[d * n + r]).sum();
                assert!((s - y[d * n + c]).abs() < 1e-10);
            }
        }
        assert_eq!(
            cholesky(
                &mut Square {
                    n: 2,
                    a: vec![1.0, 2.0, 2.0, 1.0]
                },
                1
            ),
            Err(1)
        );
    }
}
