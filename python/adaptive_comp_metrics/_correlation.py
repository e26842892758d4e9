"""SciPy-compatible coefficients and the top-weighted rho_w, tau_w."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from . import _core
from ._results import (
    GammaMoments,
    PearsonRResult,
    RhoW,
    SignificanceResult,
    Standardised,
    TauW,
)

Weigher = str | Callable[[float], float]
ArrayLike = np.ndarray | Sequence[float]
Alternative = Literal["two-sided", "greater", "less"]

_NAN = float("nan")
# SignificanceResult(statistic, pvalue) without the Python-level __new__ call
# (the n = 10 overhead of the binding is a few microseconds).
_new_result = tuple.__new__


def _nan_policy(x, y, nan_policy: str):
    """(x, y) without the pairs holding a NaN for ``nan_policy='omit'``."""
    if nan_policy == "raise":
        return x, y
    if nan_policy == "omit":
        x, y = np.asarray(x), np.asarray(y)
        if x.shape == y.shape and x.ndim == 1 and x.dtype.kind == "f" and y.dtype.kind == "f":
            keep = ~(np.isnan(x) | np.isnan(y))
            return x[keep], y[keep]
        return x, y
    if nan_policy == "propagate":
        raise ValueError(
            "nan_policy='propagate' is not offered: a NaN input is an error "
            "(nan_policy='raise', the default) or its pairs are left out ('omit')"
        )
    raise ValueError(f"nan_policy must be 'raise' or 'omit', got {nan_policy!r}")


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
    rank). ``additive``: how two item weights combine. O(n log n) time (SciPy:
    O(n log n) too, about 100 times slower at n = 10^6), GIL released.

    Returns a :class:`SignificanceResult` with ``pvalue`` NaN, as SciPy's:
    for a p-value, use :func:`permutation_test` with ``statistic='weightedtau'``.

    Differences from SciPy, on purpose: a constant x or y raises
    ``ValueError`` (SciPy: NaN), so does a tau that is 0/0 for another
    reason (SciPy: -1.0); NaN raises ``ValueError`` unless
    ``nan_policy='smallest'`` (SciPy's rule: NaN below every number, all
    NaNs tied); infinite values and fewer than 2 items raise ``ValueError``.

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
    tau = _core.weightedtau(x, y, rank_arg, weigher, bool(additive), nan_policy == "smallest")
    return _new_result(SignificanceResult, (tau, _NAN))


def kendalltau(
    x: ArrayLike,
    y: ArrayLike,
    *,
    nan_policy: Literal["raise", "omit"] = "raise",
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
    approximation; ``'exact'`` the exact distribution. O(n log n), GIL
    released on large inputs.

    Differences from SciPy: only ``variant='b'`` (tau-c raises
    ``ValueError``); ``method='exact'`` raises ``ValueError`` with ties (as
    SciPy) and beyond 33 items unless at most one pair is out of order;
    a constant input raises ``ValueError`` (SciPy: NaN); ``nan_policy`` is
    ``'raise'`` (default) or ``'omit'`` (SciPy's default ``'propagate'``
    returns NaN and is not offered).
    """
    if variant != "b":
        raise ValueError(f"only variant='b' (tau-b) is computed, got {variant!r}")
    x, y = _nan_policy(x, y, nan_policy)
    return _new_result(SignificanceResult, _core.kendalltau(x, y, method, alternative))


def spearmanr(
    x: ArrayLike,
    y: ArrayLike,
    *,
    nan_policy: Literal["raise", "omit"] = "raise",
    alternative: Alternative = "two-sided",
) -> SignificanceResult:
    """Spearman's rho and its p-value, as ``scipy.stats.spearmanr`` (to 1e-12)::

        rho = Pearson correlation of the average ranks of x and y
        t   = rho sqrt((n - 2)/((1 + rho)(1 - rho)))  ~ Student t, n - 2 df

    Differences from SciPy: two 1-D inputs only (no 2-D ``a`` with
    ``axis``); a constant input raises ``ValueError`` (SciPy: NaN and a
    warning); ``nan_policy`` is ``'raise'`` (default) or ``'omit'``; for
    n = 2 the p-value is the exact permutation one (1 two-sided).
    """
    x, y = _nan_policy(x, y, nan_policy)
    return _new_result(SignificanceResult, _core.spearmanr(x, y, alternative))


def pearsonr(
    x: ArrayLike, y: ArrayLike, *, alternative: Alternative = "two-sided", method: None = None
) -> PearsonRResult:
    """Pearson's r and its p-value, as ``scipy.stats.pearsonr`` (to 1e-12)::

        r = sum (x_i - mean x)(y_i - mean y) / sqrt(sum (x_i - mean x)^2 sum (y_i - mean y)^2)
        r ~ Beta(n/2 - 1, n/2 - 1) on [-1, 1] under independence

    computed to full double accuracy at any scale. The result has SciPy's
    ``confidence_interval(confidence_level=0.95)`` (Fisher's z).

    Differences from SciPy: ``method`` must be None (no permutation or
    Monte-Carlo null here: see :func:`permutation_test`); a constant input
    raises ``ValueError`` (SciPy: NaN and a warning); NaN raises
    ``ValueError``; for n = 2 a one-sided p-value is 1/2 or 1 (SciPy: 1).
    """
    if method is not None:
        raise ValueError("method must be None: the exact Beta null distribution is used")
    r, p, n = _core.pearsonr(x, y, alternative)
    return PearsonRResult(r, p, x, y, alternative, n)


@dataclass(frozen=True)
class TopWeighted:
    """The choices of rho_w and tau_w (Lombardo et al. 2020, Eq. 8-9).

    ``weigher``: ``'offset_quadratic'`` f(n) = 1/(n + n0)^2 (the paper's,
    n0 = 2), ``'hyperbolic'`` 1/n, ``'quadratic'`` 1/n^2, ``'logarithmic'``
    1/ln(n - 1 + e), ``'unweighted'`` 1, or any callable of the 1-based rank
    n (fractional for average ranks of ties; computed with the GIL held,
    on one thread). ``scheme``: per-item weights ``'additive'``
    (f(a_i) + f(b_i), Eq. 9), ``'multiplicative'`` (f(a_i) f(b_i)),
    ``'first'`` (f(a_i)) or ``'second'``. ``ties``: ranking of tied scores,
    ``scipy.stats.rankdata``'s ``'average'``, ``'min'``, ``'max'``,
    ``'dense'``, ``'ordinal'``. ``order_x``, ``order_y``: ``'larger'`` (the
    largest score is rank 1) or ``'smaller'`` (distances).
    """

    weigher: Weigher = "offset_quadratic"
    n0: float = 2.0
    scheme: str = "additive"
    ties: str = "average"
    order_x: str = "larger"
    order_y: str = "larger"


def _config(weigher, n0, scheme, ties, order) -> TopWeighted:
    if isinstance(order, str):
        ox = oy = order
    else:
        ox, oy = order
    return TopWeighted(weigher, float(n0), scheme, ties, ox, oy)


def rho_w(
    x: ArrayLike,
    y: ArrayLike,
    *,
    weigher: Weigher = "offset_quadratic",
    n0: float = 2.0,
    scheme: Literal["additive", "multiplicative", "first", "second"] = "additive",
    ties: str = "average",
    order: str | tuple[str, str] = "larger",
) -> RhoW:
    """The top-weighted Spearman rho_w of Lombardo et al. (2020, Eq. 8)::

        rho_w = sum_i w_i (a_i - mean_w a)(b_i - mean_w b) / (sd_w a  sd_w b)
        w_i   = (f(a_i) + f(b_i)) / sum_j (f(a_j) + f(b_j)),   f(n) = 1/(n + n0)^2

    with a, b the 1-based ranks of x and y (rank 1 = largest score by
    default). With equal weights this is Spearman's rho. Options as
    :class:`TopWeighted` (``order`` one name or a pair (x, y)). O(n log n).

    Raises ``ValueError`` for NaN or infinite scores, fewer than 2 items,
    mismatched lengths, a constant input, a bad weigher value; a Python
    weigher's own exception propagates.
    """
    c = _config(weigher, n0, scheme, ties, order)
    return RhoW(*_core.top_weighted("rho", x, y, c))


def tau_w(
    x: ArrayLike,
    y: ArrayLike,
    *,
    weigher: Weigher = "offset_quadratic",
    n0: float = 2.0,
    scheme: Literal["additive", "multiplicative", "first", "second"] = "additive",
    ties: str = "average",
    order: str | tuple[str, str] = "larger",
) -> TauW:
    """The top-weighted Kendall tau_w of Lombardo et al. (2020, Eq. 8)::

        tau_w = sum_{i != j} w_i w_j sgn(a_j - a_i) sgn(b_j - b_i) / Z
        Z     = sqrt(sum_{a_i != a_j} w_i w_j  sum_{b_i != b_j} w_i w_j)

    with the weights of :func:`rho_w`; tau-b's tie correction. O(n log n),
    exact pair sums. Errors as :func:`rho_w`.
    """
    c = _config(weigher, n0, scheme, ties, order)
    return TauW(*_core.top_weighted("tau", x, y, c))


def _seed(seed) -> int:
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int in [0, 2**64) or None, got {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


def _standardised(kind, x, y, weigher, n0, scheme, ties, order, null, standard_error, seed):
    c = _config(weigher, n0, scheme, ties, order)
    value, raw, moments, has_ties = _core.standardised(
        kind, x, y, c, null, float(standard_error), _seed(seed)
    )
    raw = RhoW(*raw) if kind == "rho" else TauW(*raw)
    return Standardised(value, raw, GammaMoments._of(moments), has_ties)


def rho_w_standardised(
    x: ArrayLike,
    y: ArrayLike,
    *,
    weigher: Weigher = "offset_quadratic",
    n0: float = 2.0,
    scheme: Literal["additive", "multiplicative", "first", "second"] = "additive",
    ties: str = "average",
    order: str | tuple[str, str] = "larger",
    null: Literal["table", "monte_carlo"] = "table",
    standard_error: float = 1e-4,
    seed: int | None = None,
) -> Standardised:
    """rho_w on the standardised scale of Lombardo (2025, arXiv:2504.08428)::

        value = g(rho_w),  g increasing, g(-1) = -1, g(1) = 1,
        E[g(rho_w)] = 0 for unrelated rankings (piecewise-quadratic map from
        the null mean, variance and left variance)

    ``null='table'`` takes the null moments from the library's built-in
    table (weighers 1/n and 1/(n + n0)^2 with n0 in {0, 1, 2}, additive or
    multiplicative; untied rankings); ``'monte_carlo'`` estimates them for
    these data (any weigher and scheme, ties kept) to ``standard_error``,
    reproducibly from ``seed``. Raises ``ValueError`` as :func:`rho_w`, and
    for a weighting the table lacks or an n beyond it.
    """
    return _standardised("rho", x, y, weigher, n0, scheme, ties, order, null, standard_error, seed)


def tau_w_standardised(
    x: ArrayLike,
    y: ArrayLike,
    *,
    weigher: Weigher = "offset_quadratic",
    n0: float = 2.0,
    scheme: Literal["additive", "multiplicative", "first", "second"] = "additive",
    ties: str = "average",
    order: str | tuple[str, str] = "larger",
    null: Literal["table", "monte_carlo"] = "table",
    standard_error: float = 1e-4,
    seed: int | None = None,
) -> Standardised:
    """tau_w on the standardised scale; see :func:`rho_w_standardised`."""
    return _standardised("tau", x, y, weigher, n0, scheme, ties, order, null, standard_error, seed)


def null_moments(
    coefficient: Literal["rho", "tau"],
    n: int,
    *,
    weigher: Weigher = "offset_quadratic",
    n0: float = 2.0,
    scheme: Literal["additive", "multiplicative", "first", "second"] = "additive",
    source: Literal["exact", "table", "monte_carlo"] = "table",
    standard_error: float = 1e-4,
    seed: int | None = None,
) -> GammaMoments:
    """The null moments of rho_w (``coefficient='rho'``) or tau_w (``'tau'``)
    of two unrelated untied rankings of ``n`` items::

        mean = E[G],  variance = E[(G - mean)^2],  left_variance = E[(G - mean)^2; G < mean]

    ``source``: ``'exact'`` (all n! permutations, n <= 11), ``'table'`` (the
    built-in table) or ``'monte_carlo'`` (to ``standard_error``, seeded).
    """
    c = _config(weigher, n0, scheme, "average", "larger")
    return GammaMoments._of(
        _core.gamma_null_moments(coefficient, int(n), c, source, float(standard_error), _seed(seed))
    )


def standardise_with_moments(
    value: float, mean: float, variance: float, left_variance: float
) -> float:
    """g(value) for null moments given by hand (e.g. published ones);
    ``ValueError`` for moments no coefficient in [-1, 1] can have."""
    return _core.standardise_with(float(mean), float(variance), float(left_variance), float(value))
