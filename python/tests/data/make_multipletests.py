"""Reference values of ``statsmodels.stats.multitest.multipletests`` for
python/tests/test_multipletests.py, written to multipletests.json next to
this script.

Run with a Python that has statsmodels, SciPy and mpmath (which the
crate's tests/data/compare/make_expected.py, whose method list this
shares, imports; the versions used are recorded in the output):

    python python/tests/data/make_multipletests.py
"""

import json
import sys
from pathlib import Path

import numpy as np
import statsmodels
from statsmodels.stats.multitest import multipletests

# Every method statsmodels has: the list of the crate's reference script.
sys.path.insert(0, str(Path(__file__).parents[3] / "tests" / "data" / "compare"))
from make_expected import METHODS

# Aliases statsmodels accepts, each with the method it names.
ALIASES = {
    "b": "bonferroni",
    "s": "sidak",
    "hs": "holm-sidak",
    "h": "holm",
    "sh": "simes-hochberg",
    "ho": "hommel",
    "fdr_i": "fdr_bh",
    "fdr_p": "fdr_bh",
    "fdri": "fdr_bh",
    "fdrp": "fdr_bh",
    "fdr_n": "fdr_by",
    "fdr_c": "fdr_by",
    "fdrn": "fdr_by",
    "fdrcorr": "fdr_by",
    "fdr_2sbh": "fdr_tsbh",
    "fdr_2sbky": "fdr_tsbky",
    "fdr_twostage": "fdr_tsbky",
}


def samples():
    rng = np.random.default_rng(20261129)
    out = {
        "n=1 small": [0.003],
        "n=1 large": [0.7],
        "zero and one": [0.0, 1.0, 0.02, 0.0, 0.5],
        "all ones": [1.0, 1.0, 1.0],
        "ties": [0.01, 0.04, 0.01, 0.2, 0.04, 0.04, 0.9],
        "at thresholds": [0.0125, 0.05, 0.025, 0.0166666666666666667],
        "sorted": sorted(rng.random(8) ** 3),
        "descending": sorted(rng.random(6) ** 2, reverse=True),
    }
    for n in (2, 3, 5, 10, 25, 60):
        p = rng.random(n) ** 4
        p[rng.random(n) < 0.2] = rng.random() * 0.01
        out[f"unsorted n={n}"] = p.tolist()
    return {k: [float(x) for x in v] for k, v in out.items()}


def record(p, method, alpha, maxiter=1, returnsorted=False, is_sorted=False):
    reject, adjusted, a_sidak, a_bonf = multipletests(
        np.asarray(p),
        alpha=alpha,
        method=method,
        maxiter=maxiter,
        is_sorted=is_sorted,
        returnsorted=returnsorted,
    )
    return {
        "p": p,
        "method": method,
        "alpha": alpha,
        "maxiter": maxiter,
        "returnsorted": returnsorted,
        "is_sorted": is_sorted,
        "reject": [bool(r) for r in reject],
        "adjusted": [float(a) for a in adjusted],
        "alpha_sidak": float(a_sidak),
        "alpha_bonferroni": float(a_bonf),
    }


def main():
    cases = []
    s = samples()
    for name, p in s.items():
        for method in METHODS:
            for alpha in (0.05, 0.1):
                cases.append(dict(record(p, method, alpha), name=name))
    for name in ("ties", "unsorted n=10", "unsorted n=25"):
        for method in ("fdr_tsbh", "fdr_tsbky"):
            for maxiter in (0, 2, -1):
                cases.append(dict(record(s[name], method, 0.1, maxiter=maxiter), name=name))
        for method in ("holm", "fdr_bh", "hommel"):
            cases.append(dict(record(s[name], method, 0.05, returnsorted=True), name=name))
    for alias, method in ALIASES.items():
        cases.append(dict(record(s["unsorted n=10"], alias, 0.05), name=f"alias of {method}"))
    for method in ("holm", "fdr_by"):
        cases.append(dict(record(s["sorted"], method, 0.05, is_sorted=True), name="sorted"))
    out = {
        "versions": {"statsmodels": statsmodels.__version__, "numpy": np.__version__},
        "cases": cases,
    }
    path = Path(__file__).with_name("multipletests.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(cases)} cases written to {path}")


if __name__ == "__main__":
    main()
