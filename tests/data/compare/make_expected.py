"""Reference values for `uncertainty::compare` (tests/features/compare.rs and
the unit tests under src/uncertainty/compare/), from the reference
implementations:

- SciPy 1.17: ttest_rel (+ confidence_interval), wilcoxon (every zero_method,
  correction, method and alternative), permutation_test (exact sign flips),
  bootstrap (paired, percentile and BCa: its bootstrap distribution is kept,
  so the interval arithmetic is checked on the same resamples),
  friedmanchisquare, studentized_range;
- statsmodels 0.15: multipletests, every method but lfdr;
- R's p.adjust (when Rscript is on PATH) for the methods R has;
- mpmath at 40 digits: the t tail, Hedges' J, the chi-square tail and its
  logarithm (Friedman, with the statistic in exact rational arithmetic), and
  the upper points of the studentized range for infinite df.

Run in a venv with scipy, statsmodels, mpmath (and ranx for ranx.json):

    python3 make_expected.py            # writes expected.json beside it

Every case is seeded: the output is the same on every run.
"""

import json
import math
import os
import shutil
import subprocess
import warnings
from fractions import Fraction

import mpmath as mp
import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests

mp.mp.dps = 40
warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20260401)


def f(x):
    """A float for JSON (inf/nan as strings)."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def t_sf(t, df):
    """P(T > t) with mpmath."""
    t = mp.mpf(t)
    x = df / (df + t * t)
    tail = mp.betainc(mp.mpf(df) / 2, mp.mpf(1) / 2, 0, x, regularized=True) / 2
    return tail if t >= 0 else 1 - tail


_SAMPLES = None


def samples():
    """(name, x, y) pairs of systems: sizes, ties, zeros, extremes (drawn once)."""
    global _SAMPLES
    if _SAMPLES is None:
        _SAMPLES = draw_samples()
    return _SAMPLES


def draw_samples():
    out = []
    for n in [2, 3, 4, 5, 6, 10, 13, 14, 25, 50, 51, 120, 1000]:
        x = rng.random(n)
        y = x + rng.normal(0.05, 0.2, n)
        out.append((f"continuous n={n}", x, y))
    for n in [3, 5, 9, 13, 14, 40, 300]:
        # P@10-like: multiples of 0.1, ties and zero differences.
        x = rng.integers(0, 11, n) / 10
        y = rng.integers(0, 11, n) / 10
        out.append((f"p@10 n={n}", x, y))
    out.append(("identical n=7", np.linspace(0, 1, 7), np.linspace(0, 1, 7)))
    out.append(("constant difference n=6", np.arange(6) / 5, np.arange(6) / 5 - 0.25))
    out.append(("all-equal units n=5", np.full(5, 0.5), np.full(5, 0.25)))
    out.append(("one unit differs n=8", np.zeros(8), np.r_[np.zeros(7), 0.5]))
    out.append(
        (
            "dyadic ties n=12",
            np.array([0, 0.5, 0.25, 1, 0.75, 0.5, 0.5, 0.25, 0, 1, 0.5, 0.75]),
            np.array([0.25, 0.5, 0, 0.75, 0.75, 0.25, 0, 0.5, 0.25, 0.5, 1, 0.75]),
        )
    )
    # A tiny p-value (about 1e-305 for the t-test).
    n = 400
    x = rng.random(n)
    out.append(("far tail n=400", x + 1.0 + rng.normal(0, 0.065, n), x))
    return out


def ttest_cases():
    cases = []
    for name, x, y in samples():
        if len(x) < 2:
            continue
        for alt in ["two-sided", "greater", "less"]:
            r = stats.ttest_rel(x, y, alternative=alt)
            ci = r.confidence_interval(0.95)
            d = [mp.mpf(float(a)) - mp.mpf(float(b)) for a, b in zip(x, y)]
            n = len(d)
            mean = mp.fsum(d) / n
            sd = mp.sqrt(mp.fsum((v - mean) ** 2 for v in d) / (n - 1))
            case = {
                "name": name,
                "alternative": alt,
                "scipy_t": f(r.statistic),
                "scipy_p": f(r.pvalue),
                "ci_low": f(ci.low),
                "ci_high": f(ci.high),
                "df": int(r.df),
            }
            if sd > 0:
                t = mean / (sd / mp.sqrt(n))
                p = {
                    "two-sided": 2 * t_sf(abs(t), n - 1),
                    "greater": t_sf(t, n - 1),
                    "less": 1 - t_sf(t, n - 1),
                }[alt]
                case["t"] = f(t)
                case["p"] = f(p)
                case["ln_p"] = f(mp.log(p)) if p > 0 else "-inf"
                dz = mean / sd
                case["cohens_dz"] = f(dz)
                if n >= 3:
                    nu = n - 1
                    j = mp.gamma(mp.mpf(nu) / 2) / (
                        mp.sqrt(mp.mpf(nu) / 2) * mp.gamma(mp.mpf(nu - 1) / 2)
                    )
                    case["hedges_gz"] = f(j * dz)
            cases.append(case)
    return cases


def wilcoxon_cases():
    cases = []
    for name, x, y in samples():
        for zm in ["wilcox", "pratt", "zsplit"]:
            for corr in [False, True]:
                for method in ["auto", "exact", "asymptotic"]:
                    for alt in ["two-sided", "greater", "less"]:
                        if method == "exact" and len(x) > 60:
                            continue
                        try:
                            r = stats.wilcoxon(
                                x,
                                y,
                                zero_method=zm,
                                correction=corr,
                                method=method,
                                alternative=alt,
                            )
                        except ValueError:
                            continue
                        cases.append(
                            {
                                "name": name,
                                "zero_method": zm,
                                "correction": corr,
                                "method": method,
                                "alternative": alt,
                                "statistic": f(r.statistic),
                                "p": f(r.pvalue),
                                "z": f(getattr(r, "zstatistic", float("nan"))),
                            }
                        )
    return cases


def exact_flips(x, y, alt):
    """The exact sign-flip p-value in rational arithmetic of the given
    doubles, values within 1e-10·Σ(|x| + |y|) of T counting as ties (the
    crate's rule: decimal ties such as 0.1 + 0.2 = 0.3 stay ties)."""
    import itertools

    d = [Fraction(a) - Fraction(b) for a, b in zip(x, y)]
    tol = Fraction(1, 10**10) * sum(abs(Fraction(a)) + abs(Fraction(b)) for a, b in zip(x, y))
    t = sum(d)
    ge = le = 0
    for signs in itertools.product([1, -1], repeat=len(d)):
        v = sum(s * di for s, di in zip(signs, d))
        ge += v >= t - tol
        le += v <= t + tol
    total = 2 ** len(d)
    greater, less = Fraction(ge, total), Fraction(le, total)
    p = {"greater": greater, "less": less, "two-sided": min(1, 2 * min(greater, less))}[alt]
    return float(p)


def randomisation_cases():
    cases = []
    for name, x, y in samples():
        d = np.asarray(x) - np.asarray(y)
        if len(d) > 16:
            continue
        for alt in ["two-sided", "greater", "less"]:
            r = stats.permutation_test(
                (d,),
                lambda d, axis: np.mean(d, axis=axis),
                permutation_type="samples",
                n_resamples=np.inf,
                alternative=alt,
                vectorized=True,
            )
            p_ties = exact_flips(x, y, alt)
            cases.append(
                {
                    "name": name,
                    "alternative": alt,
                    "p": f(r.pvalue),
                    "statistic": f(r.statistic),
                    "p_ties": p_ties,
                    "ties_differ": p_ties != float(r.pvalue),
                }
            )
    return cases


def bootstrap_cases():
    cases = []
    for n, seed in [(12, 1), (40, 2), (200, 3)]:
        r2 = np.random.default_rng(seed)
        x = r2.random(n)
        y = x + r2.normal(0.1, 0.3, n) ** 3
        for method in ["percentile", "BCa"]:
            for alt in ["two-sided", "greater", "less"]:
                res = stats.bootstrap(
                    (x, y),
                    lambda a, b, axis: np.mean(a - b, axis=axis),
                    paired=True,
                    vectorized=True,
                    n_resamples=999,
                    method=method,
                    alternative=alt,
                    confidence_level=0.9,
                    rng=np.random.default_rng(seed),
                )
                cases.append(
                    {
                        "x": list(map(float, x)),
                        "y": list(map(float, y)),
                        "method": method,
                        "alternative": alt,
                        "level": 0.9,
                        "distribution": list(map(float, res.bootstrap_distribution)),
                        "low": f(res.confidence_interval.low),
                        "high": f(res.confidence_interval.high),
                    }
                )
    return cases


METHODS = [
    "bonferroni",
    "sidak",
    "holm-sidak",
    "holm",
    "simes-hochberg",
    "hommel",
    "fdr_bh",
    "fdr_by",
    "fdr_tsbh",
    "fdr_tsbky",
    "fdr_gbs",
]
R_NAMES = {
    "bonferroni": "bonferroni",
    "holm": "holm",
    "simes-hochberg": "hochberg",
    "hommel": "hommel",
    "fdr_bh": "BH",
    "fdr_by": "BY",
}


def p_adjust_r(p, method):
    if shutil.which("Rscript") is None:
        return None
    expr = (
        "p <- c(" + ",".join(repr(float(v)) for v in p) + "); "
        f"cat(sprintf('%.17g', p.adjust(p, method='{method}')), sep='\\n')"
    )
    out = subprocess.run(["Rscript", "-e", expr], capture_output=True, text=True, check=True)
    return [float(v) for v in out.stdout.split()]


def multitest_cases():
    vectors = [
        [0.01, 0.04, 0.03, 0.005],
        [0.5],
        [0.0, 1.0, 0.05, 0.05, 0.02],
        list(rng.random(2)),
        list(rng.random(7) ** 3),
        list(np.round(rng.random(30) ** 2, 2)),  # ties
        list(rng.random(200) ** 4),
        list(np.r_[rng.random(20) * 0.001, rng.random(40)]),
    ]
    cases = []
    for p in vectors:
        for method in METHODS:
            for alpha in [0.05, 0.1]:
                for maxiter in [1, 0, 3] if method.startswith("fdr_ts") else [1]:
                    rej, adj, a_s, a_b = multipletests(
                        p, alpha=alpha, method=method, maxiter=maxiter
                    )
                    case = {
                        "p": list(map(float, p)),
                        "method": method,
                        "alpha": alpha,
                        "maxiter": maxiter,
                        "reject": list(map(bool, rej)),
                        "adjusted": list(map(float, adj)),
                        "alpha_sidak": f(a_s),
                        "alpha_bonferroni": f(a_b),
                    }
                    if method in R_NAMES and alpha == 0.05:
                        case["r"] = p_adjust_r(p, R_NAMES[method])
                    cases.append(case)
    return cases


def friedman_exact(table, larger_is_better=True):
    """Average ranks (1 = best), chi-square (exact rational) and its tail."""
    n, k = len(table), len(table[0])
    sums = [Fraction(0)] * k
    ties = Fraction(0)
    for row in table:
        keyed = sorted(range(k), key=lambda j: -row[j] if larger_is_better else row[j])
        i = 0
        while i < k:
            j = i + 1
            while j < k and row[keyed[j]] == row[keyed[i]]:
                j += 1
            r = Fraction(i + 1 + j, 2)
            for s in keyed[i:j]:
                sums[s] += r
            t = j - i
            ties += t * (t * t - 1)
            i = j
    ranks = [s / n for s in sums]
    c = 1 - ties / (n * k * (k * k - 1))
    centre = Fraction(k + 1, 2)
    stat = (
        12 * Fraction(n) / (k * (k + 1)) * sum((r - centre) ** 2 for r in ranks) / c if c else None
    )
    out = {"average_ranks": [float(r) for r in ranks], "tie_correction": float(c)}
    if stat is not None:
        x = mp.mpf(stat.numerator) / stat.denominator
        p = mp.gammainc(mp.mpf(k - 1) / 2, x / 2, mp.inf, regularized=True)
        out.update({"statistic": float(x), "p": float(p), "ln_p": float(mp.log(p))})
    return out


def range_sf(q, k):
    q = mp.mpf(q)

    def g(z):
        return mp.npdf(z) * (mp.ncdf(z) ** (k - 1) - (mp.ncdf(z) - mp.ncdf(z - q)) ** (k - 1))

    return k * mp.quad(g, [-mp.inf, -5, 0, q / 2, 5, mp.inf])


def range_isf(alpha, k):
    start = stats.studentized_range.isf(alpha, k, np.inf)
    return mp.findroot(lambda q: range_sf(q, k) - alpha, start)


def friedman_cases():
    cases = []
    shapes = [(1, 3), (2, 3), (4, 3), (5, 4), (10, 2), (14, 5), (30, 8), (56, 20)]
    for n, k in shapes:
        for kind in ["continuous", "ties"]:
            if kind == "continuous":
                table = rng.random((n, k)) + np.linspace(0, 0.5, k)
            else:
                table = rng.integers(0, 4, (n, k)) / 4
            table = table.tolist()
            exact = friedman_exact(table)
            case = {"table": table, "kind": kind, **exact}
            if k >= 3 and exact.get("statistic") is not None:
                r = stats.friedmanchisquare(*np.array(table).T)
                case["scipy_statistic"] = f(r.statistic)
                case["scipy_p"] = f(r.pvalue)
            cases.append(case)
    # Every unit ties every system.
    cases.append(
        {
            "table": [[0.5, 0.5, 0.5]] * 4,
            "kind": "all tied",
            **friedman_exact([[0.5, 0.5, 0.5]] * 4),
        }
    )
    # MTEB-sized, a clear order: p far below 1e-300.
    table = (rng.random((56, 95)) * 0.2 + np.linspace(0, 1, 95)).tolist()
    cases.append({"table": table, "kind": "mteb", **friedman_exact(table)})
    return cases


def range_cases():
    out = []
    for k in [2, 3, 4, 5, 7, 10, 20, 50, 95, 100]:
        for alpha in [0.1, 0.05, 0.01]:
            q = range_isf(alpha, k)
            out.append(
                {
                    "k": k,
                    "alpha": alpha,
                    "q": float(q),
                    "scipy_q": float(stats.studentized_range.isf(alpha, k, np.inf)),
                }
            )
    return out


def main():
    expected = {
        "versions": {
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "numpy": np.__version__,
            "mpmath": mp.__version__,
        },
        "samples": {
            name: {"x": list(map(float, x)), "y": list(map(float, y))} for name, x, y in samples()
        },
        "ttest": ttest_cases(),
        "wilcoxon": wilcoxon_cases(),
        "randomisation": randomisation_cases(),
        "bootstrap": bootstrap_cases(),
        "multitest": multitest_cases(),
        "friedman": friedman_cases(),
        "range": range_cases(),
    }
    with open(os.path.join(HERE, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=None, separators=(",", ":"))
        fh.write("\n")


if __name__ == "__main__":
    main()
