"""SciPy-compatible coefficients and the top-weighted rho_w, tau_w."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from . import _core
from ._results import (
    GammaMoments,
    RhoW,
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
