"""Every kind of bad input raises the right exception, good inputs of every
accepted kind agree, the GIL is released, and a panic never escapes."""

import threading
import time

import numpy as np
import pytest

import adaptive_comp_metrics as acm
from adaptive_comp_metrics import _core

GOOD = np.array([0.3, 0.1, 0.9, 0.5, 0.7, 0.2])
OTHER = np.array([0.2, 0.3, 0.8, 0.4, 0.9, 0.1])

FUNCTIONS = {
    "weightedtau": lambda x, y: acm.weightedtau(x, y),
    "kendalltau": lambda x, y: acm.kendalltau(x, y),
    "spearmanr": lambda x, y: acm.spearmanr(x, y),
    "pearsonr": lambda x, y: acm.pearsonr(x, y),
    "rho_w": lambda x, y: acm.rho_w(x, y),
    "tau_w": lambda x, y: acm.tau_w(x, y),
    "rho_w_standardised": lambda x, y: acm.rho_w_standardised(x, y),
    "permutation_test": lambda x, y: acm.permutation_test(x, y, permutations=9, seed=1),
    "bootstrap_ci": lambda x, y: acm.bootstrap_ci(x, y, resamples=9, seed=1),
}


def value(r):
    for name in ("statistic", "rho", "tau", "value", "estimate"):
        if hasattr(r, name):
            return getattr(r, name)
    raise AssertionError(r)


BAD = [
    ("nan", np.array([0.3, np.nan, 0.9, 0.5, 0.7, 0.2]), ValueError, r"x\[1\] is NaN"),
    ("inf", np.array([0.3, 0.1, np.inf, 0.5, 0.7, 0.2]), ValueError, r"x\[2\]"),
    ("strings", ["a", "b", "c", "d", "e", "f"], TypeError, "dtype"),
    ("a string", "abcdef", TypeError, "string"),
    ("2-D", GOOD.reshape(2, 3), ValueError, "1-D"),
    ("float16", GOOD.astype(np.float16), TypeError, "float16"),
    ("complex", GOOD.astype(complex), TypeError, "complex"),
    ("objects", np.array([object()] * 6), TypeError, "dtype"),
    ("mismatch", GOOD[:5], ValueError, "length mismatch"),
    ("empty", np.array([]), ValueError, "length mismatch|too few"),
    ("constant", np.ones(6), ValueError, "constant"),
    ("huge int", np.array([2**60, 1, 2, 3, 4, 5], dtype=np.int64), ValueError, "2\\*\\*53"),
    ("None", None, TypeError, "dtype"),
]


# SciPy's own errors where the four SciPy functions follow SciPy: pearsonr's
# messages, complex data, and N-d input (flattened by weightedtau and
# kendalltau, slices of pearsonr, variables of spearmanr).
SCIPY_ERRORS = {
    ("2-D", "weightedtau"): None,
    ("2-D", "kendalltau"): None,
    ("2-D", "spearmanr"): (ValueError, "dimension|match"),
    ("2-D", "pearsonr"): (ValueError, "broadcastable"),
    ("complex", "pearsonr"): (ValueError, "does not support complex data"),
    ("mismatch", "pearsonr"): (ValueError, "same length along `axis`|broadcastable"),
    ("empty", "pearsonr"): (ValueError, "broadcastable"),
}


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize(("case", "bad", "error", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, case, bad, error, message):
    f = FUNCTIONS[name]
    if (case, name) in SCIPY_ERRORS:
        scipys = SCIPY_ERRORS[case, name]
        if scipys is None:  # flattened, as SciPy does
            assert value(f(bad, OTHER)) == value(f(bad.ravel(), OTHER))
            return
        error, message = scipys
    with pytest.raises(error, match=message):
        f(bad, OTHER)
    if case in ("constant", "huge int"):
        return
    if (case, name) == ("None", "spearmanr"):
        # spearmanr(a, None) is SciPy's one-input form: a 1-D a has one variable.
        error = ValueError
    with pytest.raises(error):
        f(OTHER if case != "mismatch" else GOOD, bad if case != "mismatch" else OTHER[:4])


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_accepted_kind_agrees(name):
    f = FUNCTIONS[name]
    want = value(f(GOOD, OTHER))
    wide_x, wide_y = np.zeros(12), np.zeros(12)
    wide_x[::2], wide_y[::2] = GOOD, OTHER
    for x, y in [
        (list(GOOD), list(OTHER)),  # lists
        (tuple(GOOD), OTHER),
        (wide_x[::2], wide_y[::2]),  # non-contiguous: copied
        (GOOD[::-1][::-1], OTHER),
    ]:
        assert value(f(x, y)) == want
    ranks_x, ranks_y = np.argsort(np.argsort(GOOD)), np.argsort(np.argsort(OTHER))
    assert value(f(ranks_x, ranks_y)) == value(f(ranks_x.astype(float), ranks_y.astype(float)))
    # float32 in place: the same as its float64 values.
    x32, y32 = GOOD.astype(np.float32), OTHER.astype(np.float32)
    assert value(f(x32, y32)) == value(f(x32.astype(float), y32.astype(float)))
    assert value(f(x32, OTHER)) == value(f(x32.astype(float), OTHER))


def test_bad_options():
    with pytest.raises(ValueError, match="alternative"):
        acm.spearmanr(GOOD, OTHER, alternative="bigger")
    with pytest.raises(ValueError, match="scheme"):
        acm.rho_w(GOOD, OTHER, scheme="sideways")
    with pytest.raises(ValueError, match="weigher"):
        acm.rho_w(GOOD, OTHER, weigher="cubic")
    with pytest.raises(ValueError, match="n0"):
        acm.rho_w(GOOD, OTHER, n0=-1)
    with pytest.raises(TypeError):
        acm.rho_w(GOOD, OTHER, weigher=3)
    with pytest.raises(ValueError, match="weight"):
        acm.rho_w(GOOD, OTHER, weigher=lambda n: -1.0)
    with pytest.raises(ZeroDivisionError):  # the weigher's own exception
        acm.tau_w(GOOD, OTHER, weigher=lambda n: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        acm.weightedtau(GOOD, OTHER, weigher=lambda r: 1 / 0)
    with pytest.raises(TypeError, match="number"):
        acm.weightedtau(GOOD, OTHER, weigher=lambda r: "x")
    with pytest.raises(ValueError, match="too large"):
        acm.permutation_test(GOOD, OTHER, permutations=2**40, seed=1)
    with pytest.raises(ValueError, match="confidence level"):
        acm.bootstrap_ci(GOOD, OTHER, confidence_level=1.5, seed=1)
    with pytest.raises(ValueError, match="nan_policy"):
        acm.spearmanr(GOOD, OTHER, nan_policy="ignore")
    x = GOOD.copy()
    x[2] = np.nan
    assert acm.spearmanr(x, OTHER, nan_policy="omit") == acm.spearmanr(
        np.delete(GOOD, 2), np.delete(OTHER, 2)
    )


def test_panic_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="internal error"):
        _core._panic_for_tests()


def test_gil_released_on_large_inputs():
    rng = np.random.default_rng(0)
    x, y = rng.random(1_000_000), rng.random(1_000_000)
    done = threading.Event()
    ticks = 0

    def work():
        for _ in range(3):
            acm.weightedtau(x, y)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # With the GIL held for the whole computation this thread could not run.
    assert ticks > 20
