"""End-to-end references for Spearman's p-value at n = 300 … 10⁶ (issue 15):
tests/correlation/pvalue_large.rs rebuilds the same data in Rust from the
shared SplitMix64 stream (tests/common/splitmix.rs) and compares.

Run from the repository root with the project's virtual environment:
    /work/venv/bin/python tests/data/pvalues/gen_spearman_large.py
It rewrites tests/data/pvalues/spearman_large.txt, one row per case:

    n seed c rho_exact t p_mpmath p_scipy_t p_scipy_spearmanr

Data: x = the first n floats of SplitMix64(seed), e = the next n (as
tests/data/vigna/gen_scipy.py), y_i = c·x_i + √(1 − c²)·e_i in doubles.
rho_exact is ρ from exact integer arithmetic on doubled average ranks,
rounded once; t = ρ·√((n − 2)/((1 + ρ)(1 − ρ))) in doubles from it (the
formula of scipy.stats.spearmanr and of the crate); p_mpmath is the
two-sided p-value 2·P(T > |t|) at that double t (mpmath, 50 digits, through
the regularised incomplete beta function); p_scipy_t is 2·scipy.stats.t.sf(|t|, n − 2)
at the same t; p_scipy_spearmanr is scipy.stats.spearmanr's own two-sided
p-value, whose ρ comes from an uncompensated correlation of the ranks.
"""

import math
import pathlib
import sys

import mpmath
import numpy as np
import scipy
from scipy import stats

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from splitmix import splitmix_floats

HERE = pathlib.Path(__file__).parent


def case_data(seed, n, c):
    v = splitmix_floats(seed, 2 * n)
    x, e = v[:n].copy(), v[n:].copy()
    y = c * x + math.sqrt(1 - c * c) * e
    return x, y


def exact_rho(x, y):
    """ρ from doubled average ranks (integers) in exact arithmetic."""
    n = len(x)
    a = np.rint(2 * stats.rankdata(x)).astype(np.int64) - (n + 1)
    b = np.rint(2 * stats.rankdata(y)).astype(np.int64) - (n + 1)
    ab = int(np.dot(a, b))
    aa = int(np.dot(a, a))
    bb = int(np.dot(b, b))
    with mpmath.workdps(50):
        return float(mpmath.mpf(ab) / mpmath.sqrt(mpmath.mpf(aa) * bb))


def t_sf(df, t):
    with mpmath.workdps(50):
        t = mpmath.mpf(t)
        nu = mpmath.mpf(df)
        x = nu / (nu + t * t)
        direct = mpmath.betainc(nu / 2, 0.5, 0, x, regularized=True) / 2
        if direct < 0.05:
            return direct
        y = t * t / (nu + t * t)
        return (1 - mpmath.betainc(0.5, nu / 2, 0, y, regularized=True)) / 2


CASES = [
    (300, 1, 0.05),
    (300, 2, 0.3),
    (300, 3, 0.6),
    (300, 4, 0.85),
    (100_000, 5, 0.003),
    (100_000, 6, 0.02),
    (100_000, 7, 0.05),
    (100_000, 8, 0.1),
    (1_000_000, 9, 0.001),
    (1_000_000, 10, 0.004),
    (1_000_000, 11, 0.01),
    (1_000_000, 12, 0.02),
    (1_000_000, 13, 0.035),
]


def main():
    lines = [
        f"# scipy {scipy.__version__}, numpy {np.__version__}, mpmath {mpmath.__version__}",
        "# n seed c rho_exact t p_mpmath p_scipy_t p_scipy_spearmanr",
    ]
    for n, seed, c in CASES:
        x, y = case_data(seed, n, c)
        rho = exact_rho(x, y)
        df = n - 2
        t = rho * math.sqrt(df / ((rho + 1.0) * (1.0 - rho)))
        p_mp = float(2 * t_sf(df, abs(t)))
        p_sc = float(2 * stats.t.sf(abs(t), df))
        p_e2e = float(stats.spearmanr(x, y).pvalue)
        lines.append(f"{n} {seed} {c!r} {rho!r} {t!r} {p_mp!r} {p_sc!r} {p_e2e!r}")
        print(
            lines[-1],
            f"scipy t.sf vs mpmath {abs(p_sc - p_mp) / p_mp:.2e}",
            f"spearmanr vs mpmath {abs(p_e2e - p_mp) / p_mp:.2e}",
        )
    (HERE / "spearman_large.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
