"""Reference tail probabilities for tests/correlation/pvalue_tails.rs, from
mpmath at 50 significant digits (checked against 80 digits) beside SciPy's
values at the same double inputs.

Run from the repository root with the project's virtual environment:
    /work/venv/bin/python tests/data/pvalues/gen_tails.py
It rewrites, in tests/data/pvalues/:

- student_t.txt  `df t sf_mpmath sf_scipy`: P(T > t) for Student's t with df
  degrees of freedom; SciPy's value is scipy.stats.t.sf(t, df), what
  scipy.stats.spearmanr uses.
- pearson_r.txt  `n r sf_mpmath sf_scipy`: P(R ≥ r) for Pearson's r of n
  independent normal pairs, R ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1]; SciPy's
  value is scipy.special.betaincc(a, a, (r + 1)/2), what scipy.stats.pearsonr
  uses.
- normal.txt     `z sf_mpmath sf_scipy`: P(Z > z) for a standard normal;
  SciPy's value is scipy.special.ndtr(−z), what scipy.stats.kendalltau uses.
- mahonian.txt   `n k cdf_exact cdf_scipy_two_sided`: P(C ≤ k) for the
  number C of inversions of a random permutation of n items, exact (rational
  arithmetic, rounded once), and SciPy's two-sided exact Kendall p-value
  2·P(C ≤ k) (k ≤ N/2) from scipy.stats._mstats_basic._kendall_p_exact.

Every number is the shortest repr of a double, so it parses back exactly.
mpmath evaluates at the exact double inputs (t, r, z); where SciPy and mpmath
disagree, mpmath is the reference (it is checked at two precisions, and, for
every t case with df ≤ 3000, against the finite sums of Abramowitz & Stegun
26.7.3–4 at enough digits to survive their cancellation).
"""

import math
import pathlib
import random
from fractions import Fraction

import mpmath
import numpy as np
import scipy
from scipy import special, stats
from scipy.stats import _mstats_basic

HERE = pathlib.Path(__file__).parent
DPS = 50
CHECK_DPS = 80
TARGETS = [
    0.49,
    0.45,
    0.4,
    0.3,
    0.25,
    0.2,
    0.1,
    0.05,
    1e-2,
    1e-3,
    1e-5,
    1e-8,
    1e-12,
    1e-16,
    1e-20,
    1e-30,
    1e-50,
    1e-80,
    1e-100,
    1e-150,
    1e-200,
    1e-250,
    1e-290,
    1e-300,
]
DFS = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    10,
    13,
    16,
    20,
    25,
    30,
    31,
    32,
    33,
    40,
    47,
    48,
    49,
    50,
    64,
    98,
    99,
    100,
    101,
    150,
    200,
    298,
    300,
    500,
    1000,
    3000,
    10_000,
    30_000,
    100_000,
    300_000,
    999_998,
    1_000_000,
    10_000_000,
]


def half_beta(a, x, y):
    """½ I_x(a, ½) with y = 1 − x; through 1 − I_y(½, a) when the value is
    not small, since mpmath's betainc loses about 20 digits when I_x is near
    1 (x near 1 with a small)."""
    if a * mpmath.log(x) < -800:
        return mpmath.mpf(0)  # far below 1e-300: not tabulated
    direct = mpmath.betainc(a, 0.5, 0, x, regularized=True) / 2
    if direct < 0.05:
        return direct
    return (1 - mpmath.betainc(0.5, a, 0, y, regularized=True)) / 2


def t_sf(df, t, dps):
    """P(T > t) = ½ I_x(df/2, ½), x = df/(df + t²), at the exact double t."""
    with mpmath.workdps(dps):
        t = mpmath.mpf(t)
        if t == 0:
            return mpmath.mpf(0.5)
        nu = mpmath.mpf(df)
        x = nu / (nu + t * t)
        y = t * t / (nu + t * t)
        tail = half_beta(nu / 2, x, y)
        return tail if t > 0 else 1 - tail


def t_sf_closed(df, t, p_guess):
    """The same from the finite sums for integer df (Abramowitz & Stegun
    26.7.3–4), A = P(|T| < t), θ = atan(t/√df):
    odd df:  A = (2/π)[θ + sin θ (cos θ + (2/3)cos³θ + … + (2·4⋯(df−3))/(1·3⋯(df−2)) cos^(df−2) θ)]
    even df: A = sin θ [1 + ½cos²θ + (1·3)/(2·4)cos⁴θ + … + (1·3⋯(df−3))/(2·4⋯(df−2)) cos^(df−2) θ]
    and P(T > t) = (1 − A)/2, evaluated with enough digits to survive the
    cancellation (an independent second opinion on betainc)."""
    digits = 60 + int(-mpmath.log10(p_guess)) if p_guess > 0 else 60
    with mpmath.workdps(digits):
        nu = mpmath.mpf(df)
        t = mpmath.mpf(t)
        th = mpmath.atan(t / mpmath.sqrt(nu))
        c, sn = mpmath.cos(th), mpmath.sin(th)
        if df % 2 == 1:
            total, term = mpmath.mpf(0), c
            for k in range(1, (df - 1) // 2 + 1):
                if k > 1:
                    term *= c * c * (2 * k - 2) / (2 * k - 1)
                total += term
            if df == 1:
                total = 0
            a = 2 / mpmath.pi * (th + sn * total)
        else:
            total, term = mpmath.mpf(1), mpmath.mpf(1)
            for k in range(1, df // 2):
                term *= c * c * (2 * k - 1) / (2 * k)
                total += term
            a = sn * total
        return (1 - a) / 2


def r_sf(n, r, dps):
    """P(R ≥ r), R ~ Beta(a, a) on [−1, 1], a = n/2 − 1, at the exact double r:
    ½ I_{(1−r)(1+r)}(a, ½) for r ≥ 0 (the t tail), 1 − that for r < 0."""
    with mpmath.workdps(dps):
        r = mpmath.mpf(r)
        if r == 0:
            return mpmath.mpf(0.5)
        a = mpmath.mpf(n - 2) / 2
        tail = half_beta(a, (1 - r) * (1 + r), r * r)
        return tail if r > 0 else 1 - tail


def norm_sf(z, dps):
    with mpmath.workdps(dps):
        return mpmath.erfc(mpmath.mpf(z) / mpmath.sqrt(2)) / 2


def agree(a, b, tol=1e-30):
    return a == b or abs(a - b) <= tol * abs(b)


def s(v):
    return repr(float(v))


def student_rows(rng):
    rows = []
    for df in DFS:
        ts = {0.0, 1e-300, 1e-20, 1e-8, 1e-3}
        for p in TARGETS:
            t = float(stats.t.isf(p, df))
            if math.isfinite(t) and t > 0:
                ts.add(t)
        top = max(ts)
        for _ in range(12):
            ts.add(math.exp(rng.uniform(math.log(1e-3), math.log(top))))
        # A few negative t (the upper tail near 1).
        for t in sorted(ts)[::7]:
            ts.add(-t)
        for t in sorted(ts):
            p = t_sf(df, t, DPS)
            assert agree(p, t_sf(df, t, CHECK_DPS)), (df, t)
            if p < 1e-300:
                continue
            rows.append((df, t, p, stats.t.sf(t, df)))
    return rows


def pearson_rows(rng):
    rows = []
    for n in [3, 4, 5, 6, 10, 30, 100, 101, 1000, 10_000, 1_000_000]:
        rs = {0.0, 1e-300, 1e-12, 0.5, -0.5, 0.9, -0.999, 1 - 2**-52, -1 + 2**-53}
        a = (n - 2) / 2
        for p in TARGETS:
            # P(R ≥ r) = p: r = 2·betainccinv(a, a, p) − 1.
            r = float(2 * special.betainccinv(a, a, p) - 1)
            if 0 < r < 1:
                rs.add(r)
                rs.add(-r)
        for _ in range(8):
            rs.add(rng.uniform(-1, 1))
        for r in sorted(rs):
            p = r_sf(n, r, DPS)
            assert agree(p, r_sf(n, r, CHECK_DPS)), (n, r)
            if p < 1e-300:
                continue
            rows.append((n, r, p, special.betaincc(a, a, (r + 1) / 2)))
    return rows


def normal_rows(rng):
    zs = {0.0, 1e-300, 1e-10, 0.5, 1.0, 1.959963984540054, 3.0, 5.0, 10.0, 20.0, 30.0, 37.0, 37.5}
    for _ in range(150):
        zs.add(rng.uniform(0, 37.5))
    for _ in range(30):
        zs.add(-rng.uniform(0, 10))
    rows = []
    for z in sorted(zs):
        p = norm_sf(z, DPS)
        assert agree(p, norm_sf(z, CHECK_DPS)), z
        if p < 1e-300:
            continue
        rows.append((z, p, special.ndtr(-z)))
    return rows


def mahonian_counts(n):
    """Counts of permutations of n items by number of inversions (exact)."""
    counts = [1]
    for j in range(2, n + 1):
        new = [0] * (len(counts) + j - 1)
        for k, c in enumerate(counts):
            for i in range(j):
                new[k + i] += c
        counts = new
    return counts


def mahonian_rows(rng):
    rows = []
    for n in [*list(range(2, 34)), 40, 60, 100, 170]:
        if n > 60:
            # Only P(C = 0) = 1/n! and P(C ≤ 1) = n/n! (one inversion: n − 1
            # adjacent transpositions) are needed beyond n = 33.
            fact = math.factorial(n)
            for k, count in [(0, 1), (1, n)]:
                scipy_two = _mstats_basic._kendall_p_exact(n, k, "two-sided")
                rows.append((n, k, float(Fraction(count, fact)), scipy_two))
            continue
        counts = mahonian_counts(n)
        total_pairs = n * (n - 1) // 2
        fact = math.factorial(n)
        ks = {
            0,
            1,
            2,
            3,
            total_pairs // 8,
            total_pairs // 4,
            total_pairs // 2 - 1,
            total_pairs // 2,
        }
        ks.update(rng.randrange(0, total_pairs // 2 + 1) for _ in range(6))
        if n > 33:
            ks = {0, 1}
        cum = 0
        cdf = []
        for c in counts:
            cum += c
            cdf.append(cum)
        for k in sorted(k for k in ks if 0 <= k <= total_pairs // 2):
            exact = Fraction(cdf[k], fact)
            scipy_two = _mstats_basic._kendall_p_exact(n, k, "two-sided")
            rows.append((n, k, float(exact), scipy_two))
    return rows


def write(name, header, rows):
    """Rows of ints (written as such) and floats (shortest reprs)."""

    def fmt(v):
        return str(v) if isinstance(v, int) else s(v)

    lines = [header] + [" ".join(fmt(v) for v in row) for row in rows]
    (HERE / name).write_text("\n".join(lines) + "\n")
    print(f"{name}: {len(rows)} rows")


def report(name, rows, ref, sci):
    worst = 0.0
    bad = 0
    for row in rows:
        p, q = float(row[ref]), float(row[sci])
        err = abs(q - p) / p if p else abs(q)
        worst = max(worst, err)
        bad += err > 1e-13
    print(f"  SciPy vs mpmath: worst relative difference {worst:.3e}, {bad} rows above 1e-13")


def main():
    rng = random.Random(15)
    versions = (
        f"# scipy {scipy.__version__}, numpy {np.__version__}, "
        f"mpmath {mpmath.__version__}, mpmath at {DPS} digits"
    )
    trows = [(df, float(t), float(p), float(q)) for df, t, p, q in student_rows(rng)]
    write("student_t.txt", versions + "\n# df t sf_mpmath sf_scipy", trows)
    report("student_t", trows, 2, 3)
    rows = [(n, float(r), float(p), float(q)) for n, r, p, q in pearson_rows(rng)]
    write("pearson_r.txt", versions + "\n# n r sf_mpmath sf_scipy", rows)
    report("pearson_r", rows, 2, 3)
    rows = [(float(z), float(p), float(q)) for z, p, q in normal_rows(rng)]
    write("normal.txt", versions + "\n# z sf_mpmath sf_scipy", rows)
    report("normal", rows, 1, 2)
    rows = [(n, k, float(e), float(q)) for n, k, e, q in mahonian_rows(rng)]
    write("mahonian.txt", versions + "\n# n k cdf_exact cdf_scipy_two_sided", rows)
    report("mahonian", [(0, 0, min(1.0, 2 * e), q) for _, _, e, q in rows], 2, 3)
    # Second opinion for the t tail: the finite sums for df ≤ 3000.
    worst = 0.0
    sample = [r for r in trows if r[0] <= 3000]
    for df, t, _, _ in sample:
        p = t_sf(df, t, DPS)
        q = t_sf_closed(df, t, p)
        err = float(abs(q - p) / p)
        assert err < 1e-30, (df, t, err)
        worst = max(worst, err)
    print(f"  t tail, finite sums vs betainc on {len(sample)} rows: {worst:.3e}")


if __name__ == "__main__":
    main()
