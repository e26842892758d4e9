"""Golden values for tests/correlation/pearson_scipy.rs: scipy.stats.pearsonr
(statistic, p-value for the three alternatives, Fisher-z confidence intervals)
on fixed data, plus r computed exactly with mpmath (60 digits) from the same
inputs, rounded once to a double, and the exact p-values at that double r
(mpmath, 50 digits).

Run from the repository root with the project's virtual environment:
    /work/venv/bin/python tests/data/pearson/gen_scipy.py
It rewrites tests/data/pearson/scipy_pearsonr.json (inputs stored with the
values). Every double is written as a string holding Python's shortest
round-trip repr, which Rust's `str::parse::<f64>` reads back exactly
(serde_json's default number parser may be an ulp off, which at an offset
of 1e8 moves r by 1e-8). The committed file was
produced with the versions recorded in its "scipy", "numpy" and "mpmath"
fields.
"""

import json
import pathlib

import mpmath
import numpy as np
import scipy
from scipy import stats

ALTS = ["two-sided", "greater", "less"]
LEVELS = [0.9, 0.95, 0.99]


def exact_r(x, y):
    """r from the doubles x, y with 60 significant digits, rounded to double."""
    with mpmath.workdps(60):
        xs = [mpmath.mpf(v) for v in x]
        ys = [mpmath.mpf(v) for v in y]
        n = len(xs)
        mx = mpmath.fsum(xs) / n
        my = mpmath.fsum(ys) / n
        sxy = mpmath.fsum((a - mx) * (b - my) for a, b in zip(xs, ys))
        sxx = mpmath.fsum((a - mx) ** 2 for a in xs)
        syy = mpmath.fsum((b - my) ** 2 for b in ys)
        return float(sxy / mpmath.sqrt(sxx * syy))


def s(v):
    """A double as its exact shortest repr."""
    return repr(float(v))


def sf_r(n, r):
    """P(R ≥ r), R ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1], at the exact double r:
    ½ I_{(1−r)(1+r)}(n/2 − 1, ½) for r > 0 (through 1 − I_{r²}(½, ·) when
    that is not small, where mpmath's betainc near 1 loses digits)."""
    with mpmath.workdps(50):
        r = mpmath.mpf(r)
        if r == 0:
            return mpmath.mpf(0.5)
        if r < 0:
            return 1 - sf_r(n, -r)
        if r == 1:
            return mpmath.mpf(0)
        a = mpmath.mpf(n - 2) / 2
        x = (1 - r) * (1 + r)
        if a * mpmath.log(x) < -800:
            return mpmath.mpf(0)
        direct = mpmath.betainc(a, 0.5, 0, x, regularized=True) / 2
        if direct < 0.05:
            return direct
        return (1 - mpmath.betainc(0.5, a, 0, r * r, regularized=True)) / 2


def exact_p(n, r):
    """The three p-values at r: two-sided 2·P(R ≥ |r|), greater, less."""
    return {
        "two-sided": min(1.0, float(2 * sf_r(n, abs(r)))),
        "greater": float(sf_r(n, r)),
        "less": float(sf_r(n, -r)),
    }


def case(name, x, y):
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    res = {a: stats.pearsonr(x, y, alternative=a) for a in ALTS}
    ci = {
        a: {
            str(cl): [s(v) for v in res[a].confidence_interval(confidence_level=cl)]
            for cl in LEVELS
        }
        for a in ALTS
    }
    return {
        "name": name,
        "x": [s(v) for v in x],
        "y": [s(v) for v in y],
        "r": s(res["two-sided"].statistic),
        "r_exact": s(exact_r(x, y)),
        "p_exact": {a: s(v) for a, v in exact_p(len(x), exact_r(x, y)).items()},
        "p": {a: s(res[a].pvalue) for a in ALTS},
        "ci": ci,
    }


def main():
    rng = np.random.default_rng(20250314)
    cases = []
    # The example of the scipy.stats.pearsonr docstring (SciPy 1.17).
    cases.append(case("scipy_doc", [1, 2, 3, 4, 5, 6, 7], [10, 9, 2.5, 6, 4, 3, 2]))
    cases.append(case("hand_n5", [1, 2, 3, 4, 5], [5, 6, 7, 8, 7]))
    for n in [3, 4, 5, 8, 13, 30, 100, 400]:
        for rho in [0.0, 0.3, -0.6, 0.9]:
            x = rng.normal(size=n)
            y = rho * x + np.sqrt(1 - rho * rho) * rng.normal(size=n)
            cases.append(case(f"normal_n{n}_r{rho}", x, y))
    # Far in the tail: p about 1e-145 (n = 400 above) and 1e-260 here.
    x = rng.normal(size=1000)
    y = -0.65 * x + np.sqrt(1 - 0.65**2) * rng.normal(size=1000)
    cases.append(case("normal_n1000_r-0.65", x, y))
    # Skewed scales and offsets: the same kind of data far from 1.
    x = rng.normal(size=40)
    y = 0.5 * x + rng.normal(size=40)
    cases.append(case("scale_1e300_1e-300", x * 1e300, y * 1e-300))
    cases.append(case("scale_1e-300_1e250", x * 1e-300, y * 1e250))
    cases.append(case("offset_1e8", x + 1e8, y - 3e7))
    # Heavy ties (Likert-like ratings) and integer data.
    xi = rng.integers(1, 6, size=60)
    yi = np.clip(xi + rng.integers(-2, 3, size=60), 1, 5)
    cases.append(case("likert_n60", xi, yi))
    # Word-similarity-like: human scores in [0, 10], cosines in [-1, 1].
    h = rng.uniform(0, 10, size=300)
    c = np.tanh((h - 5) / 5 + rng.normal(scale=0.6, size=300))
    cases.append(case("wordsim_like_n300", h, c))
    out = {
        "generator": "tests/data/pearson/gen_scipy.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "mpmath": mpmath.__version__,
        "cases": cases,
    }
    path = pathlib.Path(__file__).with_name("scipy_pearsonr.json")
    # One case per line keeps the file small and diffs readable.
    body = ",\n".join(json.dumps(c) for c in cases)
    head = json.dumps({k: v for k, v in out.items() if k != "cases"})[:-1]
    path.write_text(head + ', "cases": [\n' + body + "\n]}\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
