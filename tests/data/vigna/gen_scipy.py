#!/usr/bin/env python3
"""Golden values of scipy.stats.weightedtau on SplitMix64 data.

Regenerate with `python3 tests/data/vigna/gen_scipy.py` (needs numpy and
scipy; the values committed were made with the versions written into the
output). tests/correlation/vigna_golden.rs rebuilds the same data in Rust
(tests/common/splitmix.rs) and checks every value to 1e-12 relative.

Data: output k (0-based) of SplitMix64 seeded with s is mix(s + (k+1)*gamma);
a float is its top 53 bits / 2**53; x = the first n floats, y = the next n;
with levels > 0 each float u becomes floor(u * levels) (ties). Given rank
arrays are floor(u * 7) of the stream of seed + 1000 (first n floats).
Each case also carries "exact": the O(n^2) definition evaluated in extended
precision (numpy longdouble), rounded to f64: where SciPy's own rounding
error exceeds 1e-12 relative (small tau, cancellation in its tie sums), it
shows which of two answers is the better one.
With nan_every > 0, x[i] = NaN for i % nan_every == 0 and y[i] = NaN for
i % nan_every == 1 (scipy treats NaN as the smallest value).
"""

import json
import math
import pathlib
import sys

import numpy as np
import scipy
from scipy import stats

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from splitmix import splitmix_floats


def data(seed, n, levels):
    v = splitmix_floats(seed, 2 * n)
    if levels > 0:
        v = np.floor(v * levels)
    return v[:n].copy(), v[n:].copy()


def reference(x, y, rho, weigher, additive):
    """The O(n^2) definition in extended precision (numpy longdouble, 64-bit
    mantissa): tau with the importance ranks rho, NaN as -inf."""
    ld = np.longdouble
    x = np.where(np.isnan(x), -np.inf, x)
    y = np.where(np.isnan(y), -np.inf, y)
    r = rho.astype(ld)
    u = {
        "hyperbolic": 1 / (r + 1),
        "quadratic": 1 / (r + 1) ** 2,
        "logarithmic": 1 / np.log(r + np.exp(ld(1))),
        "unweighted": np.ones_like(r),
    }[weigher]
    num = d1 = d2 = ld(0)
    n = len(x)
    for lo in range(0, n, 400):
        hi = min(n, lo + 400)
        sx = (x[lo:hi, None] > x[None, :]).astype(np.int8) - (x[lo:hi, None] < x[None, :])
        sy = (y[lo:hi, None] > y[None, :]).astype(np.int8) - (y[lo:hi, None] < y[None, :])
        # Only j > i: mask the lower triangle and the diagonal of this block.
        upper = np.arange(n)[None, :] > np.arange(lo, hi)[:, None]
        w = (u[lo:hi, None] + u[None, :]) if additive else (u[lo:hi, None] * u[None, :])
        w = np.where(upper, w, ld(0))
        num += np.sum(w * (sx * sy).astype(ld))
        d1 += np.sum(w * (sx != 0))
        d2 += np.sum(w * (sy != 0))
    return float(num / np.sqrt(d1) / np.sqrt(d2))


def importance(x, y, rank, given):
    """0-based importance ranks (0 = most important; order of items tied in
    (x, y) does not change tau), NaN as the smallest value."""
    n = len(x)
    x = np.where(np.isnan(x), -np.inf, x)
    y = np.where(np.isnan(y), -np.inf, y)
    if rank in ("by_xy", "by_yx"):
        a, b = (x, y) if rank == "by_xy" else (y, x)
        pos = np.empty(n, dtype=np.int64)
        pos[np.lexsort((b, a))] = np.arange(n)
        return n - 1 - pos
    if rank == "index":
        return np.arange(n)
    return np.unique(given, return_inverse=True)[1]


def exact(x, y, rank, given, weigher, additive):
    if rank == "symmetric":
        return 0.5 * (
            reference(x, y, importance(x, y, "by_xy", given), weigher, additive)
            + reference(x, y, importance(x, y, "by_yx", given), weigher, additive)
        )
    return reference(x, y, importance(x, y, rank, given), weigher, additive)


# Weighers by the crate's names; scipy's argument r is the 0-based rank.
WEIGHERS = {
    "hyperbolic": None,  # scipy's default 1/(r + 1)
    "quadratic": lambda r: 1.0 / (r + 1.0) ** 2,
    "logarithmic": lambda r: 1.0 / math.log(r + math.e),
    "unweighted": lambda r: 1.0,
}


def case(x, y, given, seed, n, levels, nan_every, rank, weigher, additive, tau):
    """One golden case: its data's recipe, SciPy's tau and the exact one."""
    return dict(
        seed=seed,
        n=n,
        levels=levels,
        nan_every=nan_every,
        rank=rank,
        weigher=weigher,
        additive=additive,
        tau=float(tau),
        exact=exact(x, y, rank, given, weigher, additive),
    )


def main():
    cases = []
    for seed, n, levels in [
        (1, 10, 0),
        (2, 10, 3),
        (3, 100, 0),
        (4, 100, 5),
        (5, 1000, 0),
        (6, 1000, 10),
        (7, 1000, 2),
        (8, 5000, 50),
    ]:
        x, y = data(seed, n, levels)
        given = np.floor(splitmix_floats(seed + 1000, n) * 7)
        for rank in ["symmetric", "by_xy", "index", "given"]:
            arg = {"symmetric": True, "by_xy": None, "index": False, "given": given}[rank]
            for weigher, f in WEIGHERS.items():
                for additive in (True, False):
                    tau = stats.weightedtau(x, y, rank=arg, weigher=f, additive=additive).statistic
                    cases.append(
                        case(x, y, given, seed, n, levels, 0, rank, weigher, additive, tau)
                    )
        # ByYX is scipy's rank=None on (y, x).
        tau = stats.weightedtau(y, x, rank=None).statistic
        cases.append(case(x, y, given, seed, n, levels, 0, "by_yx", "hyperbolic", True, tau))
    # NaN, scipy's rule: smallest value, all NaNs tied.
    for seed, n, levels, every in [(11, 50, 0, 7), (12, 300, 4, 5), (13, 2000, 0, 3)]:
        x, y = data(seed, n, levels)
        x[np.arange(n) % every == 0] = np.nan
        y[np.arange(n) % every == 1] = np.nan
        for rank, arg in [("symmetric", True), ("by_xy", None)]:
            for additive in (True, False):
                tau = stats.weightedtau(x, y, rank=arg, additive=additive).statistic
                cases.append(
                    case(x, y, None, seed, n, levels, every, rank, "hyperbolic", additive, tau)
                )
    # Unweighted is Kendall's tau-b: scipy's kendalltau on the same data.
    kendall = []
    for seed, n, levels in [(21, 1000, 0), (22, 1000, 6)]:
        x, y = data(seed, n, levels)
        kendall.append(
            dict(seed=seed, n=n, levels=levels, tau=float(stats.kendalltau(x, y).statistic))
        )
    out = dict(
        source="scipy.stats.weightedtau / kendalltau, by tests/data/vigna/gen_scipy.py",
        scipy=scipy.__version__,
        numpy=np.__version__,
        cases=cases,
        kendall=kendall,
    )
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
