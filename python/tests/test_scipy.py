"""The SciPy-compatible functions against SciPy itself on generated data."""

import numpy as np
import pytest
from conftest import cases, close
from scipy import stats

import adaptive_comp_metrics as acm

CASES = cases()
IDS = [c[0] for c in CASES]


def usable(x, y):
    return len(x) >= 2 and np.ptp(x) > 0 and np.ptp(y) > 0


@pytest.mark.parametrize(("name", "x", "y"), CASES, ids=IDS)
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_spearmanr_pearsonr(name, x, y, alternative):
    if len(x) < 3:
        return
    for ours, theirs in [
        (
            acm.spearmanr(x, y, alternative=alternative),
            stats.spearmanr(x, y, alternative=alternative),
        ),
        (
            acm.pearsonr(x, y, alternative=alternative),
            stats.pearsonr(x.astype(float), y.astype(float), alternative=alternative),
        ),
    ]:
        assert close(ours.statistic, theirs.statistic)
        assert close(ours.pvalue, theirs.pvalue, 1e-10), (ours, theirs)


@pytest.mark.parametrize(("name", "x", "y"), CASES, ids=IDS)
def test_pearson_confidence_interval(name, x, y):
    if len(x) < 3:
        return
    for level in (0.5, 0.95, 0.999):
        for alternative in ("two-sided", "greater", "less"):
            ours = acm.pearsonr(x, y, alternative=alternative).confidence_interval(level)
            theirs = stats.pearsonr(
                x.astype(float), y.astype(float), alternative=alternative
            ).confidence_interval(level)
            assert close(ours.low, theirs.low, 1e-10) and close(ours.high, theirs.high, 1e-10)


@pytest.mark.parametrize(("name", "x", "y"), CASES, ids=IDS)
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("method", ["auto", "asymptotic"])
def test_kendalltau(name, x, y, alternative, method):
    if len(x) < 3:
        return  # SciPy divides by zero in the variance at n = 2
    ours = acm.kendalltau(x, y, alternative=alternative, method=method)
    theirs = stats.kendalltau(x, y, alternative=alternative, method=method)
    assert close(ours.statistic, theirs.statistic)
    assert close(ours.correlation, theirs.correlation)
    assert close(ours.pvalue, theirs.pvalue, 1e-10), (ours, theirs)


def test_kendalltau_exact():
    x = np.arange(20.0)
    y = x.copy()
    y[[3, 11]] = y[[11, 3]]
    for alternative in ("two-sided", "greater", "less"):
        ours = acm.kendalltau(x, y, method="exact", alternative=alternative)
        theirs = stats.kendalltau(x, y, method="exact", alternative=alternative)
        assert close(ours.pvalue, theirs.pvalue, 1e-12)
    with pytest.raises(ValueError, match="ties"):
        acm.kendalltau([1, 1, 2, 3], [1, 2, 3, 4], method="exact")
    with pytest.raises(ValueError, match="variant"):
        acm.kendalltau(x, y, variant="c")


WEIGHERS = [None, lambda r: 1.0 / (r + 1) ** 2, lambda r: 1.0 / np.log(r + np.e)]


@pytest.mark.parametrize(("name", "x", "y"), CASES, ids=IDS)
@pytest.mark.parametrize("rank", [True, None, False, "array"])
@pytest.mark.parametrize("additive", [True, False])
def test_weightedtau(name, x, y, rank, additive):
    if not usable(x, y):
        return
    if isinstance(rank, str):
        rank = np.random.default_rng(len(x)).permutation(len(x)).astype(float)
    for weigher in WEIGHERS if len(x) <= 1000 else WEIGHERS[:1]:
        ours = acm.weightedtau(x, y, rank=rank, weigher=weigher, additive=additive)
        theirs = stats.weightedtau(x, y, rank=rank, weigher=weigher, additive=additive)
        assert close(ours.statistic, theirs.statistic), (ours, theirs)
        assert np.isnan(ours.pvalue) and np.isnan(theirs.pvalue)
        assert ours.correlation == ours.statistic


def test_weightedtau_nan_smallest_matches_scipy():
    x = np.array([1.0, np.nan, 3.0, 4.0, np.nan, 0.5])
    y = np.array([1.0, 2.0, 4.0, 3.0, 0.0, 7.0])
    ours = acm.weightedtau(x, y, nan_policy="smallest")
    assert close(ours.statistic, stats.weightedtau(x, y).statistic)
    with pytest.raises(ValueError, match=r"x\[1\] is NaN"):
        acm.weightedtau(x, y)


def test_results_unpack_and_pickle():
    import pickle

    r = acm.spearmanr([1, 2, 3, 4], [1, 3, 2, 4])
    stat, p = r
    assert (stat, p) == (r.statistic, r.pvalue) == tuple(r)
    assert pickle.loads(pickle.dumps(r)) == r
    pr = acm.pearsonr([1.0, 2, 3, 4, 5], [2.0, 1, 4, 3, 5])
    again = pickle.loads(pickle.dumps(pr))
    assert again == pr and again.confidence_interval() == pr.confidence_interval()
    assert "SignificanceResult(statistic=" in repr(r)
