"""Golden values for tests/correlation/plain_scipy.rs: scipy.stats.spearmanr and
scipy.stats.kendalltau on fixed data from a seeded generator.

Run from the repository root:  python3 tests/data/plain/gen_scipy.py
It rewrites tests/data/plain/scipy_goldens.json (the inputs are stored with
the values, so the Rust test needs no generator of its own).
"""

import json
import pathlib

import numpy as np
import scipy
from scipy import stats

ALTS = ["two-sided", "greater", "less"]


def case(name, x, y):
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    sp = {a: stats.spearmanr(x, y, alternative=a) for a in ALTS}
    kt = {a: stats.kendalltau(x, y, alternative=a) for a in ALTS}
    ka = {a: stats.kendalltau(x, y, alternative=a, method="asymptotic") for a in ALTS}
    return {
        "name": name,
        "x": x,
        "y": y,
        "spearman_rho": float(sp["two-sided"].statistic),
        "spearman_p": {a: float(sp[a].pvalue) for a in ALTS},
        "kendall_tau": float(kt["two-sided"].statistic),
        "kendall_p": {a: float(kt[a].pvalue) for a in ALTS},
        "kendall_p_asymptotic": {a: float(ka[a].pvalue) for a in ALTS},
    }


def main():
    rng = np.random.default_rng(20201)
    cases = []
    # The examples of the SciPy documentation.
    cases.append(case("scipy_doc_spearman", [1, 2, 3, 4, 5], [5, 6, 7, 8, 7]))
    cases.append(case("scipy_doc_kendall", [12, 2, 1, 12, 2], [1, 4, 7, 1, 0]))
    for n in [3, 5, 8, 12, 20, 33, 34, 50, 100, 400, 1000]:
        for rho in [0.0, 0.5, -0.8]:
            # Continuous, correlated, no ties.
            # (Rounded to 6 decimals to keep the file small.)
            x = np.round(rng.normal(size=n), 6)
            y = np.round(rho * x + np.sqrt(1 - rho * rho) * rng.normal(size=n), 6)
            cases.append(case(f"cont_n{n}_r{rho}", x, y))
            # Few distinct values: heavy ties in both inputs.
            k = max(2, n // 6)
            xi = np.floor((x - x.min()) / (np.ptp(x) + 1e-12) * k)
            yi = np.floor((y - y.min()) / (np.ptp(y) + 1e-12) * 4)
            cases.append(case(f"ties_n{n}_r{rho}", xi, yi))
    # Ties only in one input (exact p-value does not apply).
    x = rng.integers(0, 5, size=30)
    y = rng.normal(size=30) + x
    cases.append(case("ties_x_only_n30", x, y))
    # Nearly perfect agreement: one or two discordant pairs, n > 33
    # (SciPy then still uses the exact distribution).
    x = np.arange(60, dtype=float)
    y = x.copy()
    y[[10, 11]] = y[[11, 10]]
    cases.append(case("one_swap_n60", x, y))
    y[[40, 41]] = y[[41, 40]]
    cases.append(case("two_swaps_n60", x, y))
    cases.append(case("reversed_one_swap_n40", x[:40], -y[:40] + [0] * 40))
    out = {
        "generator": "tests/data/plain/gen_scipy.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "cases": cases,
    }
    path = pathlib.Path(__file__).with_name("scipy_goldens.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
