"""Permutation tests, bootstrap intervals, paired comparisons and null
moments, seeded and shardable over processes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from . import _core
from ._correlation import Alternative, ArrayLike, _seed
from ._results import (
    BootstrapResult,
    ConfidenceInterval,
    NullEstimate,
    PairedComparisonResult,
    PermutationTestResult,
    ZScore,
)

_KINDS = ("spearman", "kendall", "pearson", "rho_w", "tau_w", "weightedtau")


@dataclass(frozen=True)
class Statistic:
    """A coefficient of two paired score vectors, for the tests below.

    ``kind``: ``'spearman'``, ``'kendall'`` (tau-b), ``'pearson'``,
    ``'rho_w'``, ``'tau_w'`` (with ``weigher``, ``n0``, ``scheme``,
    ``ties``, ``order_x``, ``order_y`` as :class:`TopWeighted`), or
    ``'weightedtau'`` (Vigna's, with ``weigher`` None or a callable of the
    0-based rank, ``rank`` ``'symmetric'``/``'xy'``/``'yx'``/``'index'``
    and ``additive``, as :func:`weightedtau`). Picklable when its weigher
    is (a name, or a module-level function).
    """

    kind: str
    weigher: Any = None
    n0: float = 2.0
    scheme: str = "additive"
    ties: str = "average"
    order_x: str = "larger"
    order_y: str = "larger"
    rank: str = "symmetric"
    additive: bool = True

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"statistic must be one of {_KINDS}, got {self.kind!r}")
        if self.weigher is None and self.kind in ("rho_w", "tau_w"):
            object.__setattr__(self, "weigher", "offset_quadratic")


StatisticLike = str | Statistic


def _statistic(s: StatisticLike) -> Statistic:
    if isinstance(s, Statistic):
        return s
    if isinstance(s, str):
        return Statistic(s)
    raise TypeError(f"statistic must be a name or a Statistic, got {type(s).__name__}")


def _shards(count: int, shards: int) -> list[tuple[int, int]]:
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    cuts = [count * k // shards for k in range(shards + 1)]
    return [(a, b) for a, b in itertools.pairwise(cuts) if b > a]


def _test(t, alternative, seed) -> PermutationTestResult:
    return PermutationTestResult(*t, alternative=alternative, seed=seed)


def _interval(c, method, seed) -> BootstrapResult:
    est, lo, hi, level, resamples, failed, se, z0, a = c
    return BootstrapResult(
        est, ConfidenceInterval(lo, hi), level, method, resamples, failed, se, z0, a, seed
    )


class _SeededPlan:
    """What both plans do when made: the statistic read once, and the seed
    checked, or drawn once when none is given, so that ``run()`` and every
    share use the same one."""

    def __post_init__(self):
        object.__setattr__(self, "_stat", _statistic(self.statistic))
        object.__setattr__(self, "seed", _seed(self.seed))


@dataclass(frozen=True)
class PermutationTest(_SeededPlan):
    """A seeded permutation test, runnable whole or in shares.

    ``run()`` is :func:`permutation_test`. For many processes or machines
    (concurrent.futures, Dask, Ray), the object pickles with its data:
    ``replicates(start, stop)`` computes the permuted values of
    permutations ``start..stop`` anywhere, and ``finish(values)`` puts the
    values of all permutations, concatenated in index order, together into
    the result ``run()`` gives, bit for bit (permutation k draws from its
    own random stream, derived from ``seed`` and k)::

        plan = PermutationTest(x, y, "rho_w", permutations=10**6, seed=1)
        parts = executor.map(plan.replicates, *zip(*plan.shards(8)))
        assert plan.finish(np.concatenate(list(parts))) == plan.run()
    """

    x: Any
    y: Any
    statistic: StatisticLike = "spearman"
    permutations: int = 9999
    alternative: str = "two-sided"
    seed: int | None = None
    threads: int | None = None
    _stat: Statistic = field(init=False, repr=False, compare=False)

    def run(self, keep_distribution: bool = False) -> PermutationTestResult:
        """The whole test (on every core unless ``threads`` says otherwise);
        with ``keep_distribution``, the result also holds every permuted
        value (``null_distribution``, the same test bit for bit)."""
        if keep_distribution:
            values = self.replicates(0, int(self.permutations))
            return replace(self.finish(values), null_distribution=values)
        t = _core.plan_run(self)
        return _test(t, self.alternative, self.seed)

    def shards(self, count: int) -> list[tuple[int, int]]:
        """``count`` contiguous (start, stop) ranges covering every permutation."""
        return _shards(int(self.permutations), int(count))

    def replicates(self, start: int, stop: int) -> np.ndarray:
        """The permuted values of permutations ``start..stop`` (float64)."""
        return _core.plan_replicates(self, int(start), int(stop))

    def finish(self, values) -> PermutationTestResult:
        """The test from every permutation's value, in index order."""
        t = _core.plan_finish(self, values)
        return _test(t, self.alternative, self.seed)


@dataclass(frozen=True)
class Bootstrap(_SeededPlan):
    """A seeded bootstrap interval, runnable whole or in shares, like
    :class:`PermutationTest`: ``replicates(start, stop)`` gives the
    statistic of resamples ``start..stop`` (NaN where undefined),
    ``finish(values)`` the interval ``run()`` gives, bit for bit."""

    x: Any
    y: Any
    statistic: StatisticLike = "spearman"
    resamples: int = 9999
    confidence_level: float = 0.95
    method: str = "BCa"
    seed: int | None = None
    threads: int | None = None
    _stat: Statistic = field(init=False, repr=False, compare=False)

    def run(self, keep_distribution: bool = False) -> BootstrapResult:
        """The whole bootstrap; with ``keep_distribution``, the result also
        holds the statistic on every resample (``bootstrap_distribution``,
        the same interval bit for bit)."""
        if keep_distribution:
            values = self.replicates(0, int(self.resamples))
            return replace(self.finish(values), bootstrap_distribution=values)
        c = _core.plan_run(self)
        return _interval(c, self.method, self.seed)

    def shards(self, count: int) -> list[tuple[int, int]]:
        """``count`` contiguous (start, stop) ranges covering every resample."""
        return _shards(int(self.resamples), int(count))

    def replicates(self, start: int, stop: int) -> np.ndarray:
        """The statistic of resamples ``start..stop`` (NaN: undefined there)."""
        return _core.plan_replicates(self, int(start), int(stop))

    def finish(self, values) -> BootstrapResult:
        """The interval from every resample's value, in index order."""
        c = _core.plan_finish(self, values)
        return _interval(c, self.method, self.seed)


def permutation_test(
    x: ArrayLike,
    y: ArrayLike,
    statistic: StatisticLike = "spearman",
    *,
    permutations: int = 9999,
    alternative: Alternative = "two-sided",
    seed: int | None = None,
    threads: int | None = None,
    keep_distribution: bool = False,
) -> PermutationTestResult:
    """A permutation test of ``statistic`` (a name or a :class:`Statistic`)::

        t = S(x, y),  t_k = S(x, y o pi_k),  k = 1..m,  pi_k uniform random permutations
        p_greater = (#{t_k >= t} + 1)/(m + 1),  p_less likewise,  two-sided 2 min(...)

    (North, Curtis & Sham 2002). ``seed`` makes it reproducible (None: a
    fresh one, stored in the result); the result does not depend on
    ``threads``. The p-value SciPy's ``weightedtau`` lacks:
    ``statistic='weightedtau'``. Raises ``ValueError`` for fewer than 3
    items, invalid scores, 0 or more than 2**27 permutations.
    ``keep_distribution=True`` keeps every permuted value in the result's
    ``null_distribution`` (as SciPy's ``permutation_test`` does; for
    :func:`adaptive_comp_metrics.plot.null_distribution`).
    """
    plan = PermutationTest(x, y, statistic, permutations, alternative, seed, threads)
    return plan.run(keep_distribution)


def bootstrap_ci(
    x: ArrayLike,
    y: ArrayLike,
    statistic: StatisticLike = "spearman",
    *,
    resamples: int = 9999,
    confidence_level: float = 0.95,
    method: Literal["BCa", "percentile"] = "BCa",
    seed: int | None = None,
    threads: int | None = None,
    keep_distribution: bool = False,
) -> BootstrapResult:
    """A bootstrap confidence interval of ``statistic`` over items::

        theta*_k = S(x[I_k], y[I_k]),  I_k = n indices drawn with replacement
        percentile: [Q(alpha/2), Q(1 - alpha/2)]
        BCa:        quantiles shifted by the bias correction z0 and the
                    jackknife acceleration a (Efron 1987)

    Resamples on which the statistic is undefined are left out and counted
    in ``failed``. Raises ``ValueError`` for fewer than 3 items, invalid
    scores, a level outside (0, 1), fewer than 2 resamples.
    ``keep_distribution=True`` keeps the statistic of every resample in the
    result's ``bootstrap_distribution`` (SciPy's name; for
    :func:`adaptive_comp_metrics.plot.bootstrap_distribution`).
    """
    plan = Bootstrap(x, y, statistic, resamples, confidence_level, method, seed, threads)
    return plan.run(keep_distribution)


def paired_comparison(
    human: ArrayLike,
    model_a: ArrayLike,
    model_b: ArrayLike,
    statistic: StatisticLike = "spearman",
    *,
    replicates: int = 9999,
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
    exchange: Literal["ranks", "scores"] = "ranks",
    seed: int | None = None,
    threads: int | None = None,
) -> PairedComparisonResult:
    """Is model A better than model B on the same human scores?::

        d = S(human, A) - S(human, B)
        bootstrap:   d*_k with the items resampled jointly (BCa interval)
        permutation: d_k with A_i and B_i swapped per item with probability 1/2

    ``exchange='ranks'`` swaps each model's ranks (models on different
    scales), ``'scores'`` the raw scores.
    """
    s = _statistic(statistic)
    seed = _seed(seed)
    a, b, d, interval, test = _core.paired_comparison(
        human,
        model_a,
        model_b,
        s,
        int(replicates),
        float(confidence_level),
        alternative,
        exchange,
        seed,
        threads,
    )
    return PairedComparisonResult(
        a, b, d, _interval(interval, "BCa", seed), _test(test, alternative, seed), seed
    )


def standardise(
    x: ArrayLike,
    y: ArrayLike,
    statistic: StatisticLike = "spearman",
    *,
    permutations: int = 9999,
    seed: int | None = None,
    threads: int | None = None,
) -> ZScore:
    """The coefficient's z-score against its permutation null::

        z = (S(x, y) - E[S]) / SD[S]   under random permutations of y

    with the closed forms where they exist (Spearman: mean 0, SD
    1/sqrt(n - 1); Kendall's tau-b with ties; one-sided weights) and Monte
    Carlo from ``permutations`` otherwise.
    """
    s = _statistic(statistic)
    seed = _seed(seed)
    value, mean, sd, z = _core.standardise(x, y, s, int(permutations), seed, threads)
    return ZScore(value, NullEstimate(*mean), NullEstimate(*sd), z, seed)
