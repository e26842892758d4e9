"""SciPy's surface of the four coefficients, behaviour by behaviour, against
SciPy itself (issue 39): nan_policy with any input types, pearsonr's axis
and array forms, its interval as a named tuple, ``.correlation``, SciPy's
warnings and messages, and spearmanr's correlation matrices."""

import warnings

import numpy as np
import pytest
from scipy import stats

import adaptive_comp_metrics as acm


def same(ours, theirs, tol=1e-12):
    np.testing.assert_allclose(np.asarray(ours, float), np.asarray(theirs, float), rtol=tol)


@pytest.mark.parametrize("f", ["spearmanr", "kendalltau"])
@pytest.mark.parametrize(
    "x",
    [[1, 2, 3, 4, 5], np.array([1, 2, 3, 4, 5]), np.array([1, 0, 1, 1, 0], dtype=bool)],
    ids=["list", "int array", "bool array"],
)
def test_nan_omit_with_any_types_beside_floats(f, x):
    y = [8, 7, 6.5, np.nan, 9]
    ours = getattr(acm, f)(x, y, nan_policy="omit")
    theirs = getattr(stats, f)(x, y, nan_policy="omit")
    same(ours, theirs)
    # The example.
    assert tuple(acm.spearmanr([1, 2, 3, 4], [8, 7, 6, np.nan], nan_policy="omit")) == (-1.0, 0.0)


def test_nan_propagate_and_the_messages_of_scipy():
    x = [1.0, 2, np.nan, 4]
    for f in (acm.spearmanr, acm.kendalltau):
        assert np.isnan(f(x, [1, 2, 3, 4], nan_policy="propagate")).all()
        with pytest.raises(ValueError, match=r"The input contains nan values: x\[2\] is NaN"):
            f(x, [1, 2, 3, 4])
        with pytest.raises(ValueError, match="nan_policy must be one of"):
            f(x, [1, 2, 3, 4], nan_policy="ignore")
        with pytest.raises(ValueError, match="`alternative` must be 'less'"):
            f([1, 2, 3], [3, 1, 2], alternative="bigger")


def test_pearsonr_axis_and_array_forms():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(2, 6, 7))
    for axis in (0, 1, -1, None):
        for alternative in ("two-sided", "less", "greater"):
            ours = acm.pearsonr(x, y, axis=axis, alternative=alternative)
            theirs = stats.pearsonr(x, y, axis=axis, alternative=alternative)
            assert np.shape(ours.statistic) == np.shape(theirs.statistic)
            same(ours.statistic, theirs.statistic)
            same(ours.pvalue, theirs.pvalue, 1e-9)
            ci, ref = ours.confidence_interval(0.9), theirs.confidence_interval(0.9)
            same(ci.low, ref.low, 1e-10)
            same(ci.high, ref.high, 1e-10)
    # Broadcasting, as SciPy: rows of x against one y.
    same(acm.pearsonr(x, y[0], axis=1).statistic, stats.pearsonr(x, y[0], axis=1).statistic)
    # SciPy's messages.
    for args, message in [
        (([1, 2, 3], [4]), "same length along `axis`"),
        (([1, 2, 3], [4, 5]), "must be broadcastable"),
        (([1], [2]), "length at least 2"),
        (([1j, 2j, 3j], [1j, 2j, 3j]), "does not support complex data"),
    ]:
        with pytest.raises(ValueError, match=message):
            acm.pearsonr(*args)
    with pytest.raises(ValueError, match="`axis` must be an integer"):
        acm.pearsonr(x, y, axis=1.5)
    with pytest.raises(ValueError, match="`method` must be an instance of"):
        acm.pearsonr([1, 2, 3], [3, 1, 2], method="asymptotic")


def test_pearsonr_result_is_scipys():
    ours = acm.pearsonr([1, 2, 3, 4], [0, 1, 0.5, 1])
    theirs = stats.pearsonr([1, 2, 3, 4], [0, 1, 0.5, 1])
    assert ours.correlation == ours.statistic
    ci = ours.confidence_interval()
    assert isinstance(ci, tuple) and ci._fields == ("low", "high")
    same(np.asarray(ci), np.asarray(theirs.confidence_interval()), 1e-10)
    low, high = ci
    assert (low, high) == (ci.low, ci.high) == (ci[0], ci[1])
    # n = 2: r exactly +-1, p = 1 for every alternative, as SciPy.
    for alternative in ("two-sided", "less", "greater"):
        r = acm.pearsonr([1, 2], [5, 3], alternative=alternative)
        assert tuple(r) == (-1.0, 1.0)
        assert tuple(r.confidence_interval()) == (-1.0, 1.0)


def test_scipys_warnings():
    assert issubclass(acm.ConstantInputWarning, acm.DegenerateDataWarning)
    assert issubclass(acm.NearConstantInputWarning, RuntimeWarning)
    # A nearly constant input: SciPy's warning, and the value.
    x = [2.0, 2.0, 2.0 + np.spacing(2.0)]
    y = [3.0, 3.0, 3.0 + 6 * np.spacing(3.0)]
    with pytest.warns(acm.NearConstantInputWarning, match="nearly constant"):
        acm.pearsonr(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        acm.pearsonr([1.0, 2.0, 4.0], [1.0, 3.0, 2.0])  # no warning
    # A batch with constant slices: NaN for them, SciPy's warning.
    rng = np.random.default_rng(3)
    x, y = rng.random((4, 5)), rng.random((4, 5))
    x[0] = 1.0
    with pytest.warns(acm.ConstantInputWarning, match="An input array is constant"):
        r = acm.pearsonr(x, y, axis=1)
    assert np.isnan(r.statistic[0]) and np.isnan(r.confidence_interval().low[0])
    same(r.statistic[1:], stats.pearsonr(x[1:], y[1:], axis=1).statistic)
    # A single coefficient of a constant input is an error, as before.
    with pytest.raises(ValueError, match="constant"):
        acm.pearsonr([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])


def test_spearmanr_correlation_matrices():
    rng = np.random.default_rng(4)
    a = rng.random((12, 4))
    a[:, 3] = np.round(a[:, 3] * 3)  # ties
    for axis, data in ((0, a), (1, a.T)):
        ours, theirs = acm.spearmanr(data, axis=axis), stats.spearmanr(data, axis=axis)
        assert ours.statistic.shape == (4, 4)
        same(ours.statistic, theirs.statistic)
        same(ours.pvalue + 1, theirs.pvalue + 1)
    # b adds its variables; two variables give scalars, as the 1-D call.
    ours = acm.spearmanr(a[:, :2], a[:, 2:], alternative="greater")
    same(ours.statistic, stats.spearmanr(a[:, :2], a[:, 2:]).statistic)
    assert acm.spearmanr(a[:, :2]) == acm.spearmanr(a[:, 0], a[:, 1])
    # NaN: propagate marks the variable, omit drops pairs per pair of variables.
    a[2, 1] = np.nan
    with np.errstate(invalid="ignore"):
        theirs = stats.spearmanr(a, nan_policy="omit")
    same(acm.spearmanr(a, nan_policy="omit").statistic, theirs.statistic, 1e-10)
    propagated = acm.spearmanr(a, nan_policy="propagate").statistic
    assert np.isnan(propagated[1]).all() and np.isnan(propagated[:, 1]).all()
    same(
        np.delete(np.delete(propagated, 1, 0), 1, 1), stats.spearmanr(np.delete(a, 1, 1)).statistic
    )
    # A constant variable: its entries NaN, with SciPy's warning.
    a[:, 0] = 7.0
    with pytest.warns(acm.ConstantInputWarning):
        r = acm.spearmanr(a[:, [0, 2, 3]])
    assert np.isnan(r.statistic[0]).all() and not np.isnan(r.statistic[1:, 1:]).any()
    # SciPy's shape errors.
    with pytest.raises(ValueError, match="needs at least 2 variables"):
        acm.spearmanr([1, 2, 3])
    with pytest.raises(ValueError, match="only handles 1-D or 2-D"):
        acm.spearmanr(rng.random((3, 3, 2)))
    with pytest.raises(ValueError, match="supplied axis argument 2"):
        acm.spearmanr(a, axis=2)


def test_kendalltau_and_weightedtau_flatten_nd_input_as_scipy():
    rng = np.random.default_rng(5)
    x, y = rng.random((2, 3, 4))
    same(acm.kendalltau(x, y), stats.kendalltau(x, y))
    same(acm.weightedtau(x, y).statistic, stats.weightedtau(x.ravel(), y.ravel()).statistic)
