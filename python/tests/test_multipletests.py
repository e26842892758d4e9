"""acm.multipletests against statsmodels' multipletests: the values of
data/multipletests.json (made by data/make_multipletests.py with
statsmodels) and of the crate's tests/data/compare/expected.json, to
1e-12; and its errors."""

import json
from pathlib import Path

import numpy as np
import pytest

import adaptive_comp_metrics as acm

HERE = Path(__file__).parent
CASES = json.loads((HERE / "data" / "multipletests.json").read_text())["cases"]
CRATE = json.loads((HERE.parents[1] / "tests" / "data" / "compare" / "expected.json").read_text())


def same(got, want, tol=1e-12):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape
    both_nan = np.isnan(got) & np.isnan(want)
    ok = both_nan | (np.abs(got - want) <= tol * np.maximum(1.0, np.abs(want)))
    assert ok.all(), (got, want)


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['name']}-{c['method']}-{c['alpha']}-{i}" for i, c in enumerate(CASES)]
)
def test_equals_statsmodels(case):
    reject, adjusted, a_sidak, a_bonf = acm.multipletests(
        case["p"],
        alpha=case["alpha"],
        method=case["method"],
        maxiter=case["maxiter"],
        is_sorted=case["is_sorted"],
        returnsorted=case["returnsorted"],
    )
    assert isinstance(reject, np.ndarray) and reject.dtype == bool
    assert reject.tolist() == case["reject"]
    same(adjusted, case["adjusted"])
    same(a_sidak, case["alpha_sidak"])
    same(a_bonf, case["alpha_bonferroni"])


def test_equals_the_crate_reference_set():
    seen = 0
    for c in CRATE["multitest"]:
        reject, adjusted, a_sidak, a_bonf = acm.multipletests(
            c["p"], alpha=c["alpha"], method=c["method"], maxiter=c["maxiter"]
        )
        assert reject.tolist() == c["reject"]
        same(adjusted, c["adjusted"])
        same(a_sidak, c["alpha_sidak"])
        same(a_bonf, c["alpha_bonferroni"])
        seen += 1
    assert seen >= 200


def test_default_method_is_holm_sidak_and_case_is_ignored():
    p = [0.01, 0.04, 0.03, 0.005]
    a = acm.multipletests(p)
    b = acm.multipletests(p, method="HOLM-SIDAK")
    same(a[1], b[1])
    # Holm-Sidak by hand: sorted 0.005, 0.01, 0.03, 0.04 with 4, 3, 2, 1 tests.
    by_hand = [1 - (1 - 0.005) ** 4, 1 - (1 - 0.01) ** 3, 1 - (1 - 0.03) ** 2, 0.04]
    by_hand = np.maximum.accumulate(by_hand)
    same(a[1], [by_hand[1], by_hand[3], by_hand[2], by_hand[0]])


def test_unsorted_input_with_is_sorted_still_gives_the_sorted_answer():
    p = [0.04, 0.001, 0.03]
    same(acm.multipletests(p, method="holm", is_sorted=True)[1], [0.06, 0.003, 0.06])


def test_returnsorted_orders_by_p_value():
    r, a, _, _ = acm.multipletests([0.04, 0.001, 0.03], method="bonferroni", returnsorted=True)
    same(a, [0.003, 0.09, 0.12])
    assert r.tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pvals": [0.1, float("nan")]}, "p-value"),
        ({"pvals": [0.1, 1.5]}, "p-value"),
        ({"pvals": [-0.1]}, "p-value"),
        ({"pvals": [0.1], "alpha": 0.0}, "alpha"),
        ({"pvals": [0.1], "alpha": 1.0}, "alpha"),
        ({"pvals": [0.1], "method": "lfdr"}, "fdr_bh"),
        ({"pvals": [0.1], "method": "fdr_tsbh", "maxiter": -2}, "maxiter"),
        ({"pvals": [[0.1, 0.2]]}, "1-D"),
    ],
)
def test_bad_input_is_a_value_error(kwargs, match):
    with pytest.raises(acm.InputError, match=match):
        acm.multipletests(**kwargs)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        acm.multipletests([0.1], method=3)
    with pytest.raises(TypeError):
        acm.multipletests(["a", "b"])
