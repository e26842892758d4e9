"""Result objects: plain, immutable, picklable Python values."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from . import _core


class SignificanceResult(tuple):
    """A coefficient and its p-value, as SciPy's ``SignificanceResult``.

    Unpacks as ``statistic, pvalue = result``; ``correlation`` is the
    older alias of ``statistic`` that SciPy keeps for its rank
    correlations.
    """

    __slots__ = ()

    def __new__(cls, statistic: float, pvalue: float) -> SignificanceResult:
        return tuple.__new__(cls, (statistic, pvalue))

    statistic = property(itemgetter(0), doc="The coefficient.")
    pvalue = property(itemgetter(1), doc="The p-value (NaN where none is defined).")
    correlation = property(itemgetter(0), doc="Alias of ``statistic`` (SciPy's older name).")

    def __getnewargs__(self) -> tuple[float, float]:
        return (self[0], self[1])

    def __repr__(self) -> str:
        return f"SignificanceResult(statistic={self[0]!r}, pvalue={self[1]!r})"


class ConfidenceInterval(NamedTuple):
    """An interval ``[low, high]``, as SciPy's ``ConfidenceInterval`` (a
    named tuple: it unpacks, indexes and converts with ``np.asarray``)."""

    low: Any
    high: Any


class PearsonRResult(tuple):
    """Pearson's r and its p-value, as SciPy's ``PearsonRResult``, with
    :meth:`confidence_interval`; ``correlation`` is the older name of
    ``statistic``. For N-d input (``pearsonr(..., axis=)``) both are arrays."""

    def __new__(cls, statistic, pvalue, x, y, alternative, n, shape=None):
        self = tuple.__new__(cls, (statistic, pvalue))
        self._x, self._y, self._alternative, self._n = x, y, alternative, n
        self._shape = shape
        return self

    statistic = property(itemgetter(0), doc="Pearson's r.")
    pvalue = property(itemgetter(1), doc="The p-value of the alternative tested.")
    correlation = property(itemgetter(0), doc="Alias of ``statistic`` (SciPy's older name).")

    def __getnewargs__(self):
        return (self[0], self[1], self._x, self._y, self._alternative, self._n, self._shape)

    def __getstate__(self):
        return None

    def __repr__(self) -> str:
        return f"PearsonRResult(statistic={self[0]!r}, pvalue={self[1]!r})"

    def confidence_interval(
        self, confidence_level: float = 0.95, method: Any | None = None
    ) -> ConfidenceInterval:
        """Fisher's z interval for the population correlation::

            z = artanh(r),  se = 1/sqrt(n - 3)
            two-sided  [tanh(z - h se), tanh(z + h se)],  h = Phi^-1((1 + level)/2)
            greater    [tanh(z - h se), 1],  less  [-1, tanh(z + h se)],  h = Phi^-1(level)

        as ``scipy.stats.pearsonr(x, y).confidence_interval()``; [-1, 1] for
        n <= 3; for N-d results, arrays of ends (NaN where r is). Only
        Fisher's interval is offered: ``method`` must be None (SciPy also
        takes a ``BootstrapMethod``: see :func:`bootstrap_ci`).

        Raises ``ValueError`` unless 0 < confidence_level < 1.
        """
        if method is not None:
            if type(method).__name__ == "BootstrapMethod":
                raise ValueError(
                    "method=BootstrapMethod(...) is not taken here: "
                    "adaptive_comp_metrics.bootstrap_ci gives bootstrap intervals"
                )
            raise ValueError("`method` must be an instance of `BootstrapMethod` or None.")
        level, alternative = float(confidence_level), self._alternative
        if self._shape is None:
            low, high = _core.pearsonr_ci(self._x, self._y, level, alternative)
            return ConfidenceInterval(low, high)
        low = np.full(len(self._x), np.nan)
        high = np.full(len(self._x), np.nan)
        defined = ~np.isnan(np.reshape(self[0], -1))
        for k in np.flatnonzero(defined):
            low[k], high[k] = _core.pearsonr_ci(self._x[k], self._y[k], level, alternative)
        low, high = low.reshape(self._shape), high.reshape(self._shape)
        if not self._shape:
            low, high = low[()], high[()]
        return ConfidenceInterval(low, high)


@dataclass(frozen=True)
class RhoW:
    """The top-weighted rho_w (Lombardo et al. 2020, Eq. 8).

    ``rho`` in [-1, 1]; ``n`` items; ``effective_n = 1/sum w_i^2``, Kish's
    effective number of items of the normalised weights.
    """

    rho: float
    n: int
    effective_n: float

    @property
    def statistic(self) -> float:
        """Alias of ``rho``."""
        return self.rho


@dataclass(frozen=True)
class TauW:
    """The top-weighted tau_w (Lombardo et al. 2020, Eq. 8) with its
    weighted pair sums (pair weight ``w_i w_j``, normalised weights, so
    ``total = (1 - sum w_i^2)/2``)."""

    tau: float
    n: int
    concordant: float
    discordant: float
    tied_a: float
    tied_b: float
    tied_both: float
    total: float
    effective_n: float

    @property
    def statistic(self) -> float:
        """Alias of ``tau``."""
        return self.tau


@dataclass(frozen=True)
class MomentEstimate:
    """One null moment: its value, its standard error (0 when exact) and
    where it comes from (``exact``, ``table``, ``Monte Carlo``, ``given``)."""

    value: float
    standard_error: float
    source: str


@dataclass(frozen=True)
class GammaMoments:
    """Null moments of rho_w or tau_w of two unrelated rankings
    (Lombardo 2025): mean ``G``, variance ``V``, left variance
    ``V_l = E[(G - mean)^2; G < mean]``."""

    mean: MomentEstimate
    variance: MomentEstimate
    left_variance: MomentEstimate

    @classmethod
    def _of(cls, t) -> GammaMoments:
        return cls(*(MomentEstimate(*m) for m in t))


@dataclass(frozen=True)
class Standardised:
    """rho_w or tau_w on the standardised scale (Lombardo 2025).

    ``value = g(raw)`` in [-1, 1]: 0 is what unrelated rankings give on
    average, +-1 stay identical / reversed rankings, the order of values is
    kept. ``raw`` is the :class:`RhoW` or :class:`TauW`, ``moments`` the
    null moments behind g, ``ties`` whether either ranking had ties (the
    table's null is that of untied rankings).
    """

    value: float
    raw: Any
    moments: GammaMoments
    ties: bool

    @property
    def statistic(self) -> float:
        """Alias of ``value``."""
        return self.value


@dataclass(frozen=True)
class PermutationTestResult:
    """A permutation test::

        p_greater = (#{t_k >= t} + 1)/(m + 1),   p_less = (#{t_k <= t} + 1)/(m + 1)
        p_two     = min(1, 2 min(p_greater, p_less))

    ``statistic`` on the observed data, ``pvalue``, its Monte-Carlo
    ``standard_error``, the ``permutations`` m, the counts ``at_least`` and
    ``at_most``, the mean and SD of the permuted values (``null_mean``,
    ``null_sd``), the ``alternative`` and the ``seed`` that reproduces it.
    ``null_distribution``: every permuted value t_k in index order, when
    asked for (``keep_distribution=True``; SciPy's name), else None; it
    takes no part in equality.
    """

    statistic: float
    pvalue: float
    standard_error: float
    permutations: int
    at_least: int
    at_most: int
    null_mean: float
    null_sd: float
    alternative: str
    seed: int
    null_distribution: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class BootstrapResult:
    """A bootstrap confidence interval (items resampled with replacement).

    ``confidence_interval`` (low, high) at ``confidence_level`` by
    ``method`` (``BCa`` or ``percentile``); ``estimate`` on the observed
    data; ``standard_error`` the SD of the bootstrap values; ``failed``
    resamples on which the statistic was undefined (left out);
    ``bias_correction`` z0 and ``acceleration`` a of BCa (None for
    percentile intervals); the ``seed`` that reproduces it.
    ``bootstrap_distribution``: the statistic on every resample in index
    order (NaN where undefined), when asked for (``keep_distribution=True``;
    SciPy's name), else None; it takes no part in equality.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    method: str
    resamples: int
    failed: int
    standard_error: float
    bias_correction: float | None
    acceleration: float | None
    seed: int
    bootstrap_distribution: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class PairedComparisonResult:
    """Model A against model B on the same human scores:
    ``difference = S(human, A) - S(human, B)`` with a paired bootstrap
    interval (``interval``) and a paired permutation test (``test``)."""

    value_a: float
    value_b: float
    difference: float
    interval: BootstrapResult
    test: PermutationTestResult
    seed: int


@dataclass(frozen=True)
class NullEstimate:
    """A null moment: its value, its Monte-Carlo standard error, and the
    permutations it was estimated from (None: a closed form, exact)."""

    value: float
    standard_error: float
    permutations: int | None


@dataclass(frozen=True)
class ZScore:
    """A coefficient standardised by its permutation null:
    ``z = (value - null mean) / null sd``."""

    value: float
    null_mean: NullEstimate
    null_sd: NullEstimate
    z: float
    seed: int
