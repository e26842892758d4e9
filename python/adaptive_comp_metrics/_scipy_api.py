"""``scipy.stats``' ``weightedtau``, ``kendalltau``, ``spearmanr`` and
``pearsonr`` on the Rust core, with SciPy's signatures, shapes, warnings
and messages; each docstring states where they differ from SciPy's, and
why. SciPy's own tests of the four run against them in
``python/tests/test_peer_suites.py``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from . import _core
from ._results import PearsonRResult, SignificanceResult
from ._warnings import ConstantInputWarning, NearConstantInputWarning

ArrayLike = np.ndarray | Sequence[float]
Alternative = Literal["two-sided", "greater", "less"]

_NAN = float("nan")
# SignificanceResult(statistic, pvalue) without the Python-level __new__ call
# (the n = 10 overhead of the binding is a few microseconds).
_new_result = tuple.__new__
_UNDEFINED = (_NAN, _NAN)
_ALTERNATIVES = ("two-sided", "less", "greater")
_POLICIES = ("propagate", "raise", "omit")
_CONSTANT = "An input array is constant; the correlation coefficient is not defined."
_NEAR_CONSTANT = (
    "An input array is nearly constant; the computed correlation coefficient may be inaccurate."
)


def _check_alternative(alternative) -> None:
    if alternative not in _ALTERNATIVES:
        raise ValueError(
            f"`alternative` must be 'less', 'greater', or 'two-sided', got {alternative!r}"
        )


def _check_policy(nan_policy, allowed=_POLICIES) -> None:
    if nan_policy not in allowed:
        names = ", ".join(f"'{p}'" for p in allowed)
        raise ValueError(f"nan_policy must be one of {{{names}}}, got {nan_policy!r}")


def _nan_mask(a: np.ndarray) -> np.ndarray | None:
    """Where ``a`` holds NaN (None for a type that cannot hold one)."""
    if a.dtype.kind in "fc":
        return np.isnan(a)
    return None


def _pairs(x, y, nan_policy: str):
    """``(x, y, undefined)`` under ``nan_policy``: with ``'omit'`` the pairs
    holding a NaN left out (whatever the types: lists, integer or boolean
    arrays beside float ones); with ``'propagate'`` ``undefined`` is True
    when a NaN is present; with ``'raise'`` the inputs as given (the core
    names the first NaN)."""
    if nan_policy == "raise":
        return x, y, False
    xa, ya = np.asarray(x), np.asarray(y)
    if xa.ndim != 1 or ya.ndim != 1 or xa.shape != ya.shape:
        return xa, ya, False  # the core says what is wrong
    masks = [m for m in (_nan_mask(xa), _nan_mask(ya)) if m is not None]
    if not masks:
        return xa, ya, False
    nan = masks[0] if len(masks) == 1 else masks[0] | masks[1]
    if not nan.any():
        return xa, ya, False
    if nan_policy == "propagate":
        return xa, ya, True
    keep = ~nan
    return xa[keep], ya[keep], False


def _raising_nan(error: ValueError) -> ValueError:
    """The core's error, with SciPy's words first when it is about a NaN."""
    message = str(error)
    if message.endswith(" is NaN") and error.args:
        error.args = (f"The input contains nan values: {message}", *error.args[1:])
    return error


def _array(v, name: str) -> np.ndarray:
    """``v`` as an array of numbers (``TypeError`` for strings, objects)."""
    if isinstance(v, np.ndarray):
        a = v
    elif isinstance(v, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got a string")
    else:
        a = np.asarray(v)
    if a.dtype.kind not in "fiubc":
        raise TypeError(f"{name} has dtype {a.dtype}: expected float64 or float32 (or integers)")
    return a


def _one_d(x, y):
    """``(x, y)`` as 1-D arrays when both are (lists converted), else None."""
    x, y = _array(x, "x"), _array(y, "y")
    if x.ndim == 1 and y.ndim == 1:
        return x, y
    return None


def weightedtau(
    x: ArrayLike,
    y: ArrayLike,
    rank: bool | ArrayLike | None = True,
    weigher: Callable[[int], float] | None = None,
    additive: bool = True,
    *,
    nan_policy: Literal["raise", "smallest"] = "raise",
) -> SignificanceResult:
    """Vigna's weighted tau, as ``scipy.stats.weightedtau`` (same values to 1e-12)::

        u_i  = weigher(r_i)                     r_i the 0-based importance rank of item i
        w_ij = u_i + u_j  (additive)  or  u_i * u_j
        tau  = sum_{i<j} w_ij sgn(x_i - x_j) sgn(y_i - y_j)
               / sqrt(sum_{x_i != x_j} w_ij * sum_{y_i != y_j} w_ij)

    ``rank``: True (default) averages the tau of the decreasing
    lexicographic orders by (x, y) and by (y, x); None uses the (x, y)
    order; False the input order; an array gives the ranks (smaller = more
    important, re-ranked densely from 0 as SciPy does). ``weigher``: None is
    ``1/(r + 1)``; any callable of the 0-based rank ``r`` (called once per
    rank). ``additive``: how two item weights combine. Inputs of more than
    one dimension are flattened, as SciPy does. O(n log n) time (SciPy:
    O(n log n) too, about 100 times slower at n = 10^6), GIL released.

    Returns a :class:`SignificanceResult` with ``pvalue`` NaN, as SciPy's:
    for a p-value, use :func:`permutation_test` with ``statistic='weightedtau'``.

    Differences from SciPy, on purpose: a constant x or y raises
    ``ValueError`` (SciPy: NaN), so does a tau that is 0/0 for another
    reason (SciPy: -1.0); NaN raises ``ValueError`` unless
    ``nan_policy='smallest'`` (SciPy's rule: NaN below every number, all
    NaNs tied); infinite values and fewer than 2 items raise ``ValueError``
    (SciPy: NaN and a ``SmallSampleWarning``).

    Reference: S. Vigna (2015), A weighted correlation index for rankings
    with ties, WWW.
    """
    if rank is True:
        rank_arg: Any = "symmetric"
    elif rank is None:
        rank_arg = "xy"
    elif rank is False:
        rank_arg = "index"
    elif isinstance(rank, str):
        raise TypeError("rank must be True, False, None or an array of ranks")
    else:
        rank_arg = rank
    if nan_policy not in ("raise", "smallest"):
        raise ValueError(f"nan_policy must be 'raise' or 'smallest', got {nan_policy!r}")
    if isinstance(x, np.ndarray) and x.ndim > 1:
        x = x.ravel()
    if isinstance(y, np.ndarray) and y.ndim > 1:
        y = y.ravel()
    tau = _core.weightedtau(x, y, rank_arg, weigher, bool(additive), nan_policy == "smallest")
    return _new_result(SignificanceResult, (tau, _NAN))


def kendalltau(
    x: ArrayLike,
    y: ArrayLike,
    *,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
    method: Literal["auto", "asymptotic", "exact"] = "auto",
    variant: Literal["b"] = "b",
    alternative: Alternative = "two-sided",
) -> SignificanceResult:
    """Kendall's tau-b and its p-value, as ``scipy.stats.kendalltau`` (to 1e-12)::

        tau_b = (C - D) / sqrt((N - T_x)(N - T_y)),   N = n(n - 1)/2

    C, D concordant and discordant pairs, T_x, T_y pairs tied in x, in y.
    ``method='auto'``: the exact null distribution without ties and n <= 33
    (or at most one pair out of order), else the tie-corrected normal
    approximation ``z = (C - D)/sqrt(Var)``; ``'asymptotic'`` always the
    approximation; ``'exact'`` the exact distribution. ``nan_policy``:
    ``'raise'`` (the default), ``'omit'`` (pairs with a NaN left out, whatever
    the types of x and y), ``'propagate'`` (NaN). Inputs of more than one
    dimension are flattened, as SciPy does. O(n log n), GIL released on
    large inputs.

    Differences from SciPy: only ``variant='b'`` (tau-c raises
    ``ValueError``); ``method='exact'`` raises ``ValueError`` with ties (as
    SciPy) and beyond 33 items unless at most one pair is out of order
    (SciPy: exact up to 171 items, approximated above); a constant input and
    fewer than 2 items raise ``ValueError`` (SciPy: NaN); NaN raises by
    default (SciPy's default is ``'propagate'``).
    """
    _check_alternative(alternative)
    _check_policy(nan_policy)
    if variant != "b":
        raise ValueError(f"only variant='b' (tau-b) is computed, got {variant!r}")
    if isinstance(x, np.ndarray) and x.ndim > 1:
        x = x.ravel()
    if isinstance(y, np.ndarray) and y.ndim > 1:
        y = y.ravel()
    x, y, undefined = _pairs(x, y, nan_policy)
    if undefined:
        return _new_result(SignificanceResult, _UNDEFINED)
    try:
        return _new_result(SignificanceResult, _core.kendalltau(x, y, method, alternative))
    except ValueError as e:
        raise _raising_nan(e) from None


def spearmanr(
    a: ArrayLike,
    b: ArrayLike | None = None,
    axis: int | None = 0,
    nan_policy: Literal["raise", "omit", "propagate"] = "raise",
    alternative: Alternative = "two-sided",
) -> SignificanceResult:
    """Spearman's rho and its p-value, as ``scipy.stats.spearmanr`` (to 1e-12)::

        rho = Pearson correlation of the average ranks of x and y
        t   = rho sqrt((n - 2)/((1 + rho)(1 - rho)))  ~ Student t, n - 2 df

    ``spearmanr(x, y)`` of two 1-D inputs gives one coefficient. As SciPy's,
    2-D input gives the correlation matrix of its variables (the columns
    with ``axis=0``, the rows with ``axis=1``; ``b`` adds its variables
    after ``a``'s; ``axis=None`` flattens both): ``statistic`` and
    ``pvalue`` are k x k arrays (scalars for 2 variables), 1 and 0 on the
    diagonal, each pair computed as the 1-D call does. ``nan_policy``:
    ``'raise'`` (the default), ``'omit'`` (pairs with a NaN left out, pair
    of variables by pair), ``'propagate'`` (NaN for the variables holding
    one). In a matrix, a pair whose coefficient is undefined (a constant
    variable, fewer than 2 pairs left) is NaN, with SciPy's
    ``ConstantInputWarning`` for a constant one.

    Differences from SciPy: a single coefficient of a constant input or of
    fewer than 2 items raises ``ValueError`` (SciPy: NaN and a warning);
    NaN raises by default (SciPy's default is ``'propagate'``); a matrix
    marks each constant variable NaN (SciPy looks at the first two
    variables only and then returns one NaN); for n = 2 the p-value is the
    exact permutation one (1 two-sided).
    """
    _check_alternative(alternative)
    _check_policy(nan_policy)
    if b is not None and (axis == 0 or axis is None):
        if axis is None:
            a, b = _array(a, "a").ravel(), _array(b, "b").ravel()
        pair = _one_d(a, b)
        if pair is not None:
            x, y, undefined = _pairs(*pair, nan_policy)
            if undefined:
                return _new_result(SignificanceResult, _UNDEFINED)
            try:
                return _new_result(SignificanceResult, _core.spearmanr(x, y, alternative))
            except ValueError as e:
                raise _raising_nan(e) from None
    return _spearman_matrix(a, b, axis, nan_policy, alternative)


def _spearman_matrix(a, b, axis, nan_policy, alternative) -> SignificanceResult:
    """SciPy's 2-D ``spearmanr``: the variables of ``a`` (and ``b``)."""
    if axis is not None and axis not in (0, 1):
        raise ValueError(
            "spearmanr only handles 1-D or 2-D arrays, supplied axis argument "
            f"{axis}, please use only values 0, 1 or None for axis"
        )
    a = _array(a, "a")
    if axis is None:
        a, axis = a.ravel(), 0
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim > 2:
        raise ValueError("spearmanr only handles 1-D or 2-D arrays")
    if b is None:
        if a.ndim < 2:
            raise ValueError("`spearmanr` needs at least 2 variables to compare")
    else:
        b = _array(b, "b")
        if axis is None:
            b = b.ravel()
        if b.ndim == 0:
            b = b.reshape(1)
        a = np.column_stack((a, b)) if axis == 0 else np.vstack((a, b))
    if axis == 1:
        a = a.T
    n_obs, n_vars = a.shape
    if n_obs < 2:
        raise ValueError(f"too few items: 2 needed, got {n_obs}")
    variables = [np.ascontiguousarray(a[:, i]) for i in range(n_vars)]
    nan = [_nan_mask(v) for v in variables]
    has_nan = [m is not None and bool(m.any()) for m in nan]
    if nan_policy == "raise" and any(has_nan):
        i = has_nan.index(True)
        k = int(np.flatnonzero(nan[i])[0])
        raise ValueError(f"The input contains nan values: variable {i}, item {k} is NaN")
    rho = np.ones((n_vars, n_vars))
    p = np.zeros((n_vars, n_vars))
    constant = False
    for i in range(n_vars):
        if nan_policy == "propagate" and has_nan[i]:
            rho[i, :] = rho[:, i] = p[i, :] = p[:, i] = _NAN
            continue
        values = variables[i]
        if nan_policy == "omit" and has_nan[i]:
            values = values[~nan[i]]
        if len(values) and (values == values[0]).all():
            rho[i, i] = p[i, i] = _NAN
        for j in range(i + 1, n_vars):
            if nan_policy == "propagate" and has_nan[j]:
                continue
            x, y = variables[i], variables[j]
            if nan_policy == "omit" and (has_nan[i] or has_nan[j]):
                keep = np.ones(n_obs, dtype=bool)
                for m, h in ((nan[i], has_nan[i]), (nan[j], has_nan[j])):
                    if h:
                        keep &= ~m
                x, y = x[keep], y[keep]
            try:
                r, q = _core.spearmanr(x, y, alternative)
            except ValueError as e:
                message = str(e)
                if "is constant" in message:
                    constant = True
                elif not message.startswith("too few items"):
                    raise
                r = q = _NAN
            rho[i, j] = rho[j, i] = r
            p[i, j] = p[j, i] = q
    if constant:
        warnings.warn(ConstantInputWarning(_CONSTANT), stacklevel=3)
    if n_vars == 2:
        return _new_result(SignificanceResult, (float(rho[0, 1]), float(p[0, 1])))
    return SignificanceResult(rho, p)


def _check_method(method, allowed: str) -> None:
    if method is None:
        return
    if type(method).__name__ in ("PermutationMethod", "MonteCarloMethod", "BootstrapMethod"):
        raise ValueError(
            f"method={type(method).__name__}(...) is not taken here: use "
            "adaptive_comp_metrics.permutation_test (p-values) or bootstrap_ci (intervals), "
            "which resample any coefficient reproducibly from a seed"
        )
    raise ValueError(f"`method` must be an instance of {allowed}, or None.")


def pearsonr(
    x: ArrayLike,
    y: ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    method: None = None,
    axis: int | None = 0,
) -> PearsonRResult:
    """Pearson's r and its p-value, as ``scipy.stats.pearsonr`` (to 1e-12)::

        r = sum (x_i - mean x)(y_i - mean y) / sqrt(sum (x_i - mean x)^2 sum (y_i - mean y)^2)
        r ~ Beta(n/2 - 1, n/2 - 1) on [-1, 1] under independence

    computed to full double accuracy at any scale. The result has SciPy's
    ``confidence_interval(confidence_level=0.95)`` (Fisher's z) and
    ``correlation``, the older name of ``statistic``. As SciPy's, N-d
    inputs give one coefficient per slice along ``axis`` (inputs broadcast
    against each other; ``axis=None`` flattens them): ``statistic``,
    ``pvalue`` and the interval's ends are then arrays, a constant slice's
    values NaN with SciPy's ``ConstantInputWarning``. A nearly constant
    input (``||x - mean|| < eps**0.75 |mean|``) gives SciPy's
    ``NearConstantInputWarning``. For n = 2, r is exactly +-1 and the
    p-value 1.

    Differences from SciPy: ``method`` must be None (SciPy's resampling
    objects are not taken: see :func:`permutation_test`); a single
    coefficient of a constant input raises ``ValueError`` (SciPy: NaN and
    a warning); NaN raises ``ValueError`` (SciPy: NaN).
    """
    _check_alternative(alternative)
    _check_method(method, "`PermutationMethod`, `MonteCarloMethod`")
    x, y = _array(x, "x"), _array(y, "y")
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        raise ValueError("This function does not support complex data")
    if axis is None:
        x, y, axis = x.ravel(), y.ravel(), -1
    elif int(axis) != axis:
        raise ValueError("`axis` must be an integer.")
    if x.ndim == 1 and y.ndim == 1 and axis in (0, -1):
        if len(x) != len(y):
            if 1 not in (len(x), len(y)):
                raise ValueError("`x` and `y` must be broadcastable.")
            raise ValueError("`x` and `y` must have the same length along `axis`.")
        if len(x) < 2:
            raise ValueError("`x` and `y` must have length at least 2.")
        r, p, n, near = _core.pearsonr(x, y, alternative)
        if near:
            warnings.warn(NearConstantInputWarning(_NEAR_CONSTANT), stacklevel=2)
        if n == 2:
            r, p = float(round(r)), 1.0
        return PearsonRResult(r, p, x, y, alternative, n)
    return _pearson_slices(x, y, int(axis), alternative)


def _pearson_slices(x, y, axis, alternative) -> PearsonRResult:
    """SciPy's N-d ``pearsonr``: one coefficient per slice along ``axis``."""
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError("`x` and `y` must be broadcastable.") from None
    ndim = max(x.ndim, y.ndim)
    x = x.reshape((1,) * (ndim - x.ndim) + x.shape)
    y = y.reshape((1,) * (ndim - y.ndim) + y.shape)
    if x.shape[axis] != y.shape[axis]:
        raise ValueError("`x` and `y` must have the same length along `axis`.")
    n = x.shape[axis]
    if n < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    x, y = np.broadcast_arrays(np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1))
    shape = x.shape[:-1]
    rows_x, rows_y = x.reshape(-1, n), y.reshape(-1, n)
    r = np.full(len(rows_x), _NAN)
    p = np.full(len(rows_x), _NAN)
    constant = near = False
    for k, (xk, yk) in enumerate(zip(rows_x, rows_y, strict=True)):
        try:
            r[k], p[k], _, nk = _core.pearsonr(xk, yk, alternative)
        except ValueError as e:
            if "is constant" not in str(e):
                raise
            constant = True
            continue
        near |= nk
    if constant:
        warnings.warn(ConstantInputWarning(_CONSTANT), stacklevel=3)
    if near:
        warnings.warn(NearConstantInputWarning(_NEAR_CONSTANT), stacklevel=3)
    if n == 2:
        defined = ~np.isnan(r)
        r[defined] = np.round(r[defined])
        p[defined] = 1.0
    statistic, pvalue = r.reshape(shape), p.reshape(shape)
    if not shape:
        statistic, pvalue = statistic[()], pvalue[()]
    return PearsonRResult(statistic, pvalue, rows_x, rows_y, alternative, n, shape)
