"""acm.bradley_terry and acm.noisy_bradley_terry against the crate's
reference set (tests/data/bt/expected.json, made by
tests/data/bt/make_expected.py with choix, Crowd-Kit and an independent
SciPy optimiser): scores, log-likelihoods, Davidson's nu, standard errors,
the noisy model's reliabilities and biases; the result object; every
input form; and the errors."""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import adaptive_comp_metrics as acm

ROOT = Path(__file__).parents[2]
SETS = {
    s["name"]: s for s in json.loads((ROOT / "tests/data/bt/expected.json").read_text())["sets"]
}


def nums(v):
    return np.array([float(x) for x in v])


def close(got, want, tol):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape
    assert (np.abs(got - want) <= tol * np.maximum(1.0, np.abs(want))).all(), (got, want)


def arrays(s):
    """winner, loser, tie, worker of a reference set, by name."""
    items, workers = s["items"], s["workers"]
    r = np.array(s["records"])
    first, second = np.array(items)[r[:, 0]], np.array(items)[r[:, 1]]
    winner = np.where(r[:, 2] == 1, second, first)
    loser = np.where(r[:, 2] == 1, first, second)
    return winner, loser, r[:, 2] == 2, np.array(workers)[r[:, 3]]


def crowdkit_table(s):
    """The set in Crowd-Kit's layout (no ties): left shown first."""
    items, workers = np.array(s["items"]), np.array(s["workers"])
    r = np.array(s["records"])
    assert (r[:, 2] != 2).all()
    left, right = items[r[:, 0]], items[r[:, 1]]
    return {
        "worker": workers[r[:, 3]],
        "left": left,
        "right": right,
        "label": np.where(r[:, 2] == 0, left, right),
    }


ML = [n for n, s in SETS.items() if "ml" in s]
MAP = [n for n, s in SETS.items() if "map" in s]


@pytest.mark.parametrize("name", ML)
def test_maximum_likelihood_equals_choix_and_the_independent_optimiser(name):
    s = SETS[name]
    w, lo, t, wk = arrays(s)
    fit = acm.bradley_terry(w, lo, t, wk, items=s["items"], draws=200)
    assert fit.items == s["items"]
    ml = s["ml"]
    close(fit.scores, nums(ml["scores"]), 1e-7)
    assert abs(fit.log_likelihood - float(ml["loglik"])) < 1e-8
    assert fit.gradient <= 1e-9
    if "tie" in ml:
        assert abs(fit.tie - float(ml["tie"])) < 1e-7
        assert fit.ties == int(t.sum())
    else:
        assert fit.tie is None
    for ref in ("choix_ilsr", "choix_mm"):
        if ref in s:
            close(fit.scores, nums(s[ref]), 1e-6)
    assert fit.method == "exact"
    close(fit.standard_errors, nums(ml["se"]), 1e-6)


@pytest.mark.parametrize("name", MAP)
def test_a_gaussian_prior_equals_choix_opt_pairwise(name):
    s = SETS[name]
    w, lo, t, wk = arrays(s)
    sd = float(s["prior_sd"])
    fit = acm.bradley_terry(w, lo, t, wk, items=s["items"], prior_sd=sd, draws=200)
    close(fit.scores, nums(s["map"]["scores"]), 1e-7)
    if "choix_opt" in s:
        close(fit.scores, nums(s["choix_opt"]), 1e-6)
    close(fit.standard_errors, nums(s["map"]["se"]), 1e-6)
    assert fit.prior_sd == sd


def test_crowdkit_bradley_terry_never_has_a_higher_likelihood():
    seen = 0
    for s in SETS.values():
        if "crowdkit_bt" not in s or "ml" not in s:
            continue
        w, lo, t, wk = arrays(s)
        fit = acm.bradley_terry(w, lo, t, wk, items=s["items"], draws=100)
        theirs = float(s["crowdkit_bt"]["loglik"])
        assert fit.log_likelihood >= theirs - 1e-12
        if s["crowdkit_bt"].get("converged"):
            close(fit.scores, nums(s["crowdkit_bt"]["scores"]), 1e-6)
        seen += 1
    assert seen >= 3


def test_crowdkit_fixture_abc_has_no_finite_maximum_without_a_prior():
    s = SETS["crowdkit_abc"]
    table = crowdkit_table(s)
    with pytest.raises(acm.InputError, match="no finite maximum"):
        acm.bradley_terry(data=table)
    fit = acm.bradley_terry(data=table, prior_sd=1.0, draws=100)
    close(fit.scores, nums(s["map"]["scores"]), 1e-7)


@pytest.mark.parametrize("name", ["noisy", "noisy_large"])
def test_the_noisy_model_reaches_the_independent_optimum(name):
    s = SETS[name]
    table = crowdkit_table(s)
    for key, sd in (("noisy_ml", None), ("noisy_map", float(s["prior_sd"]))):
        ref = s[key]
        kwargs = {"items": s["items"], "workers": s["workers"], "tolerance": 1e-9, "draws": 100}
        if sd is None and not (np.abs(nums(ref["scores"])) < 10).all():
            # The reference's maximum is at infinity: no finite fit.
            with pytest.raises(acm.InputError, match="careless"):
                acm.noisy_bradley_terry(data=table, **kwargs)
            continue
        fit = acm.noisy_bradley_terry(data=table, prior_sd=sd, **kwargs)
        assert fit.model == "noisy-bt" and fit.workers == s["workers"]
        want = float(ref["loglik"])
        assert want - 1e-7 <= fit.log_likelihood <= want + 1e-7
        close(fit.scores, nums(ref["scores"]), 1e-5)
        close(fit.reliability, nums(ref["reliability"]), 1e-5)
        close(fit.bias, nums(ref["bias"]), 1e-5)
        close(fit.standard_errors, nums(ref["se"]), 1e-5)
        assert fit.log_likelihood > float(s["crowdkit_noisy"]["loglik"]) + 1.0


def test_the_noisy_model_on_crowdkits_equal_fixture():
    s = SETS["crowdkit_equal"]
    table = crowdkit_table(s)
    with pytest.raises(acm.InputError):
        acm.noisy_bradley_terry(data=table)
    fit = acm.noisy_bradley_terry(data=table, prior_sd=1.0, draws=100)
    assert fit.log_likelihood >= float(s["crowdkit_noisy"]["loglik"]) - 1e-9


def simulated(n_items=12, n=3000, workers=10, seed=0):
    rng = np.random.default_rng(seed)
    true = np.linspace(2, -2, n_items)
    a = rng.integers(0, n_items, n)
    b = (a + rng.integers(1, n_items, n)) % n_items
    p = 1 / (1 + np.exp(-(true[a] - true[b])))
    first_wins = rng.random(n) < p
    names = np.array([f"i{k:02d}" for k in range(n_items)])
    winner = np.where(first_wins, names[a], names[b])
    loser = np.where(first_wins, names[b], names[a])
    return winner, loser, rng.integers(0, workers, n), true


def test_the_result_is_consistent():
    winner, loser, worker, _ = simulated()
    fit = acm.bradley_terry(winner, loser, worker=worker, top_k=3, seed=4)
    n = len(fit.items)
    assert fit.ranking()[0] == "i00" and fit.ranking()[-1] == "i11"
    # Wald intervals: score ± z·SE.
    z = norm.ppf(0.975)
    close(fit.intervals[:, 0], fit.scores - z * fit.standard_errors, 1e-12)
    close(fit.intervals[:, 1], fit.scores + z * fit.standard_errors, 1e-12)
    assert ((fit.rank_intervals >= 1) & (fit.rank_intervals <= n)).all()
    assert (fit.rank_intervals[:, 0] <= fit.rank_intervals[:, 1]).all()
    # Each draw has exactly k items in its top k.
    assert math.isclose(fit.top_k_probability.sum(), 3.0, rel_tol=1e-12)
    assert fit.settled.k == 3 and fit.settled.top == fit.ranking()[:3]
    assert len(fit.settled.probability_by_k) == n - 1
    assert abs(float(np.mean(fit.scores))) < 1e-12
    assert fit.comparisons == len(winner)
    assert (fit.reliability == 1.0).all() and np.isnan(fit.bias).all()
    json.dumps(fit.to_dict())
    again = acm.bradley_terry(winner, loser, worker=worker, top_k=3, seed=4)
    assert np.array_equal(again.rank_intervals, fit.rank_intervals)
    assert np.array_equal(again.top_k_probability, fit.top_k_probability)


def test_the_worker_bootstrap():
    winner, loser, worker, _ = simulated(n=2000, workers=30)
    a = acm.bradley_terry(winner, loser, worker=worker, bootstrap=200, seed=1)
    b = acm.bradley_terry(winner, loser, worker=worker, bootstrap=200, seed=1)
    assert a.method == "bootstrap" and a.replicates == 200 and a.failed == 0
    assert np.array_equal(a.standard_errors, b.standard_errors)
    exact = acm.bradley_terry(winner, loser, worker=worker)
    # Independent workers: the bootstrap's SEs are near the information's.
    ratio = a.standard_errors / exact.standard_errors
    assert (ratio > 0.7).all() and (ratio < 1.3).all(), ratio
    n = acm.noisy_bradley_terry(winner, loser, worker=worker, bootstrap=50, seed=1)
    assert n.method == "bootstrap"


def test_tables_by_column_name():
    winner, loser, worker, _ = simulated(n=500)
    tie = np.zeros(len(winner), dtype=bool)
    tie[::7] = True
    arrays_fit = acm.bradley_terry(winner, loser, tie, worker, draws=100)
    table = {"winner": winner, "loser": loser, "tie": tie, "worker": worker}
    assert np.array_equal(acm.bradley_terry(data=table, draws=100).scores, arrays_fit.scores)
    renamed = {"w": winner, "l": loser, "t": tie}
    fit = acm.bradley_terry("w", "l", "t", data=renamed, draws=100)
    assert np.array_equal(fit.scores, arrays_fit.scores)
    assert fit.tie is not None and fit.ties == int(tie.sum())
    # Integer item labels work too.
    ints = acm.bradley_terry([1, 2, 3, 1], [2, 3, 1, 3], prior_sd=2.0, draws=100)
    assert ints.items == ["1", "2", "3"]


def test_pandas_tables():
    pd = pytest.importorskip("pandas")
    winner, loser, worker, _ = simulated(n=500)
    df = pd.DataFrame({"winner": winner, "loser": loser, "worker": worker})
    fit = acm.bradley_terry(data=df, draws=100)
    out = fit.to_pandas()
    assert out["item"].tolist() == fit.ranking()


def test_to_pandas_needs_pandas(monkeypatch):
    fit = acm.bradley_terry(["a", "b", "a"], ["b", "a", "b"], draws=100)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        fit.to_pandas()


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((["a", "b"], ["b", "b"]), {}, "record 1.*itself|itself.*record 1"),
        (([], []), {}, "no comparisons|empty"),
        ((["a", "c"], ["b", "d"]), {}, "disconnected|connected"),
        ((["a", "b"], ["b", "x"]), {"items": ["a", "b"]}, "record 1: 'x'"),
        ((["a", "b"], ["b", "a"], None, ["u", "v"]), {"workers": ["u"]}, "record 1: 'v'"),
        ((["a", "b"], ["b", "a"]), {"bootstrap": 10}, "worker"),
        ((["a", "b"], ["b"]), {}, "2 records but loser has 1"),
        ((["a", "b"], ["b", "a"]), {"level": 1.5}, "level"),
        ((["a", "b"], ["b", "a"]), {"top_k": 0}, "top_k"),
        ((["a", "b"], ["b", "a"], [True]), {}, "tie has 1"),
    ],
)
def test_bad_input_is_an_input_error(args, kwargs, match):
    with pytest.raises(acm.InputError, match=match):
        acm.bradley_terry(*args, **kwargs)


def test_crowdkit_layout_label_must_be_left_or_right():
    table = {"worker": ["w"], "left": ["a"], "right": ["b"], "label": ["c"]}
    with pytest.raises(acm.InputError, match="record 0: label"):
        acm.noisy_bradley_terry(data=table)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        acm.bradley_terry()
    with pytest.raises(TypeError):
        acm.bradley_terry(["a"], ["b"], ["yes"])
    with pytest.raises(TypeError):
        acm.bradley_terry(["a", "b"], ["b", "a"], seed="s")
    with pytest.raises(TypeError, match="table"):
        acm.bradley_terry(data=[("a", "b")])
