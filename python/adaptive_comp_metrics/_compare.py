"""Which system is better, and how sure: paired tests of k systems, every
pair or against a baseline, with multiple-testing corrections, intervals,
effect sizes, and Friedman's test with Nemenyi's critical difference; and
statsmodels' ``multipletests``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._correlation import _seed
from ._errors import InputError
from ._uncertainty import Statistic, StatisticLike, _statistic


def multipletests(
    pvals,
    alpha: float = 0.05,
    method: str = "hs",
    maxiter: int = 1,
    is_sorted: bool = False,
    returnsorted: bool = False,
):
    """``statsmodels.stats.multitest.multipletests``: adjusted p-values and
    reject decisions at ``alpha``, returned as statsmodels returns them::

        reject, pvals_corrected, alphacSidak, alphacBonf = multipletests(p, 0.05, "holm")

    with ``alphacSidak`` = 1 - (1 - alpha)^(1/m) and ``alphacBonf`` =
    alpha/m. Every method of statsmodels, by every name it accepts
    (case-insensitive): ``bonferroni`` (``b``), ``sidak`` (``s``),
    ``holm-sidak`` (``hs``, the default), ``holm`` (``h``),
    ``simes-hochberg`` (``sh``, also ``hochberg``), ``hommel`` (``ho``),
    ``fdr_bh`` (``fdr_i``, ``fdr_p``, ``fdri``, ``fdrp``), ``fdr_by``
    (``fdr_n``, ``fdr_c``, ``fdrn``, ``fdrcorr``), ``fdr_tsbh``
    (``fdr_2sbh``), ``fdr_tsbky`` (``fdr_2sbky``, ``fdr_twostage``),
    ``fdr_gbs``, and ``none``; ``maxiter`` (two-stage methods: iterations of
    the second stage, -1 for as many as p-values). Adjusted values are
    capped at 1; the step-wise decisions come from the raw p-values and the
    thresholds, as in statsmodels.

    Differences from statsmodels: the p-values are always sorted (stably)
    before the correction, so ``is_sorted=True`` on unsorted input still
    gives the correct result (statsmodels computes with the order given);
    a p-value outside [0, 1] or NaN, or ``alpha`` outside (0, 1), raises
    :class:`InputError` (a ``ValueError``); an unknown method raises it with
    the names known. ``returnsorted=True`` returns the values in the order
    of the sorted p-values, as statsmodels does.

    O(m log m) for m p-values (O(m^2) for Hommel's method, as in R and
    statsmodels). References: Holm (1979), Hochberg (1988), Hommel (1988),
    Benjamini & Hochberg (1995), Benjamini & Yekutieli (2001), Benjamini,
    Krieger & Yekutieli (2006); statsmodels and R's ``p.adjust``.
    """
    del is_sorted  # always sorted here (see above)
    if isinstance(method, bool) or not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__}")
    if isinstance(maxiter, bool):
        maxiter = len(np.atleast_1d(pvals)) if maxiter else 0
    p = np.asarray(pvals)
    if p.ndim != 1:
        if p.ndim == 0:
            p = p.reshape(1)
        else:
            raise InputError(f"pvals must be 1-D, got an array with {p.ndim} dimensions")
    reject, corrected, alpha_sidak, alpha_bonf = _core.multipletests(
        p, float(alpha), method, int(maxiter)
    )
    reject = np.asarray(reject, dtype=bool)
    if returnsorted:
        order = np.argsort(np.asarray(p, dtype=float), kind="stable")
        reject, corrected = reject[order], corrected[order]
    return reject, corrected, alpha_sidak, alpha_bonf


@dataclass(frozen=True)
class SystemEstimate:
    """One system under one measure: its mean per-unit score (or its
    coefficient) and its interval (None: none computed)."""

    measure: str
    name: str
    estimate: float
    low: float | None
    high: float | None


@dataclass(frozen=True)
class PairResult:
    """One pair (a, b) under one measure: ``difference`` = theta(a) -
    theta(b) with its interval (``low``, ``high``), effect sizes (per-unit
    means: Cohen's d_z and Hedges' g_z; None for coefficients), wins, ties
    and losses of a over units (None for coefficients), the test's
    ``statistic`` and raw ``pvalue``, how the p-value was computed
    (``method``: ``name`` ``'t'`` with ``df``, ``'wilcoxon'`` with
    ``method``, ``r_plus``, ``r_minus``, ``z``, ``'exact'`` with
    ``assignments``, ``'monte-carlo'`` with ``replicates`` and
    ``standard_error``), the ``adjusted_pvalue`` after the correction, and
    whether the difference is significant at alpha (``reject``)."""

    measure: str
    a: str
    b: str
    difference: float
    low: float | None
    high: float | None
    cohens_dz: float | None
    hedges_gz: float | None
    wins: int | None
    ties: int | None
    losses: int | None
    statistic: float
    pvalue: float
    adjusted_pvalue: float
    reject: bool
    method: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test of k systems over N units (benchmarks) and Nemenyi's
    critical difference (Demsar 2006): ``average_ranks`` (1 = best, in the
    order of ``systems``), ``order`` (indices, best first), the statistic
    chi^2_F with ``df`` = k - 1 (tie-corrected as SciPy's
    ``friedmanchisquare``), ``pvalue`` and its logarithm, ``q_alpha`` and
    ``critical_difference`` = q_alpha sqrt(k(k + 1)/(6N)), and ``groups``:
    the maximal runs of systems (indices, in rank order) whose average
    ranks differ by less than the critical difference."""

    systems: list[str]
    units: int
    average_ranks: np.ndarray
    order: list[int]
    statistic: float
    df: int
    pvalue: float
    ln_pvalue: float
    tie_correction: float
    alpha: float
    q_alpha: float
    critical_difference: float
    groups: list[list[int]]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["average_ranks"] = [float(r) for r in self.average_ranks]
        return d

    def ranks(self) -> dict[str, float]:
        """Each system's average rank by name (what
        ``adaptive_comp_metrics.plot.critical_difference`` draws, with
        ``critical_difference``)."""
        return {n: float(r) for n, r in zip(self.systems, self.average_ranks, strict=True)}


def friedman(
    scores,
    names: Sequence[str] | None = None,
    *,
    alpha: float = 0.05,
    larger_is_better: bool = True,
) -> FriedmanResult:
    """Friedman's test and Nemenyi's critical difference of the systems
    (columns) of a units x systems matrix (units: benchmarks or data sets),
    as Demsar (2006); a pandas DataFrame's columns name the systems.

    Raises :class:`InputError` for fewer than two systems, no unit, a NaN
    score or alpha outside (0, 1). O(N k log k). References: Friedman
    (1937), Nemenyi (1963), Demsar (2006), SciPy's ``friedmanchisquare``.
    """
    matrix, names, _ = _matrix(scores, names)
    d = _core.friedman(matrix, names, float(alpha), bool(larger_is_better))
    return FriedmanResult(**d)


def _matrix(scores, names):
    """A float64 units x systems matrix, the system names and the unit
    names (a DataFrame's index) or None."""
    unit_names = None
    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):
        if names is None:
            names = [str(c) for c in scores.columns]
        unit_names = [str(i) for i in scores.index]
        scores = scores.to_numpy()
    if isinstance(scores, Mapping):
        if names is None:
            names = [str(k) for k in scores]
        scores = np.column_stack([np.asarray(v, dtype=float) for v in scores.values()])
    a = np.asarray(scores)
    if a.dtype.kind not in "fiub":
        raise TypeError(f"scores must be numbers, got dtype {a.dtype}")
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim != 2:
        raise InputError(f"scores must be a units x systems matrix, got {a.ndim} dimensions")
    if names is None:
        names = [str(j) for j in range(a.shape[1])]
    names = [str(n) for n in names]
    return a, names, unit_names


@dataclass(frozen=True)
class _Options:
    test: str
    zero_method: str
    wilcoxon_method: str
    continuity: bool
    correction: str
    alternative: str
    alpha: float
    level: float
    interval: str | None
    resamples: int
    baseline: int | None
    exact_up_to: int
    threads: int | None
    seed: int
    joint: bool


class ComparisonResult:
    """The comparison of k systems under one or several measures (or
    benchmarks): every number as attributes, tables as Markdown or LaTeX,
    and a pandas DataFrame when pandas is installed.

    - ``systems``: the system names; ``measures``: the measure names;
    - ``estimates``: :class:`SystemEstimate` of every system under every
      measure; ``pairs``: :class:`PairResult` of every pair compared;
    - ``estimate(system, measure=None)``, ``pair(a, b, measure=None)``:
      look-ups by name (the measure may be left out when there is one);
    - ``units``: units (or items) per measure; ``settings``: the test,
      correction, alpha, level, interval method and replicates of each
      measure;
    - ``friedman``: :class:`FriedmanResult` (or, for several statistics, a
      dict of them by statistic), or None.
    """

    def __init__(self, core, friedman=None):
        self._core = core
        data = core.data()
        self.measures: list[str] = [m for m, _ in data]
        first = data[0][1]
        self.systems: list[str] = [s["name"] for s in first["systems"]]
        self.units: dict[str, int] = {m: d["units"] for m, d in data}
        self.settings: dict[str, dict[str, Any]] = {m: d["settings"] for m, d in data}
        self.statistic: str = first["statistic"]
        self.estimates: list[SystemEstimate] = [
            SystemEstimate(m, **s) for m, d in data for s in d["systems"]
        ]
        self.pairs: list[PairResult] = [PairResult(m, **p) for m, d in data for p in d["pairs"]]
        self.friedman = friedman

    def _measure(self, measure):
        if measure is None:
            if len(self.measures) != 1:
                raise InputError(f"name the measure: one of {self.measures}")
            return self.measures[0]
        if measure not in self.measures:
            raise InputError(f"no measure {measure!r}: the measures are {self.measures}")
        return measure

    def estimate(self, system: str, measure: str | None = None) -> SystemEstimate:
        """The estimate of ``system`` under ``measure``."""
        m = self._measure(measure)
        for e in self.estimates:
            if e.measure == m and e.name == system:
                return e
        raise InputError(f"no system {system!r}: the systems are {self.systems}")

    def pair(self, a: str, b: str, measure: str | None = None) -> PairResult:
        """The comparison of ``a`` and ``b`` under ``measure`` (in either
        order: the result's ``a`` and ``b`` say which way the difference
        goes)."""
        m = self._measure(measure)
        for p in self.pairs:
            if p.measure == m and {p.a, p.b} == {a, b}:
                return p
        raise InputError(f"the pair ({a!r}, {b!r}) was not compared under {m!r}")

    def forest_rows(
        self, measure: str | None = None
    ) -> list[tuple[str, float, float, float, bool]]:
        """The pairs of ``measure`` as ``(label, difference, low, high,
        reject)`` rows, the label ``"a - b"`` (what
        ``adaptive_comp_metrics.plot.forest`` draws); a pair without an
        interval has low = high = the difference."""
        m = self._measure(measure)
        return [
            (
                f"{p.a} - {p.b}",
                p.difference,
                p.difference if p.low is None else p.low,
                p.difference if p.high is None else p.high,
                p.reject,
            )
            for p in self.pairs
            if p.measure == m
        ]

    def _render(self, fmt, table, decimals, intervals):
        if table == "report":
            return self._core.render(fmt, "report", 0, decimals, intervals)
        if table not in ("systems", "pairs"):
            raise InputError(f"table must be 'report', 'systems' or 'pairs', got {table!r}")
        parts = []
        for i, m in enumerate(self.measures):
            text = self._core.render(fmt, table, i, decimals, intervals)
            parts.append(text if len(self.measures) == 1 else f"{m}\n\n{text}")
        return "\n".join(parts)

    def to_markdown(self, table: str = "report", decimals: int = 4, intervals: bool = False) -> str:
        """A Markdown table: ``'report'`` (every system under every measure,
        marked with the labels of the systems it is significantly better
        than after the correction, as ranx's report), ``'systems'`` or
        ``'pairs'`` (one table per measure)."""
        return self._render("markdown", table, int(decimals), bool(intervals))

    def to_latex(self, table: str = "report", decimals: int = 4, intervals: bool = False) -> str:
        """A LaTeX ``tabular`` of the table (as :meth:`to_markdown`)."""
        return self._render("latex", table, int(decimals), bool(intervals))

    def to_text(self, table: str = "report", decimals: int = 4, intervals: bool = False) -> str:
        """An aligned text table (as :meth:`to_markdown`)."""
        return self._render("text", table, int(decimals), bool(intervals))

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (
            f"ComparisonResult(systems={self.systems}, measures={self.measures}, "
            f"pairs={len(self.pairs)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Every number as plain Python values (JSON-serialisable, but for
        infinite interval ends)."""
        f = self.friedman
        if isinstance(f, FriedmanResult):
            f = f.to_dict()
        elif isinstance(f, dict):
            f = {k: v.to_dict() for k, v in f.items()}
        return {
            "systems": list(self.systems),
            "measures": list(self.measures),
            "statistic": self.statistic,
            "units": dict(self.units),
            "settings": {m: dict(s) for m, s in self.settings.items()},
            "estimates": [asdict(e) for e in self.estimates],
            "pairs": [asdict(p) for p in self.pairs],
            "friedman": f,
        }

    def to_pandas(self, table: str = "pairs"):
        """A pandas DataFrame of the ``'pairs'`` (one row per measure and
        pair) or of the ``'systems'`` (one row per measure and system).
        Raises ``ImportError`` when pandas is not installed."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "to_pandas needs pandas, which is not installed: pip install pandas"
            ) from e
        if table == "pairs":
            rows = [{k: v for k, v in asdict(p).items() if k != "method"} for p in self.pairs]
            for r, p in zip(rows, self.pairs, strict=True):
                r["method"] = p.method.get("name")
            return pd.DataFrame(rows)
        if table == "systems":
            return pd.DataFrame([asdict(e) for e in self.estimates])
        raise InputError(f"table must be 'pairs' or 'systems', got {table!r}")


def _baseline(baseline, names):
    if baseline is None:
        return None
    if isinstance(baseline, str):
        if baseline not in names:
            raise InputError(f"baseline {baseline!r} is not a system: the systems are {names}")
        return names.index(baseline)
    if isinstance(baseline, bool) or not isinstance(baseline, (int, np.integer)):
        raise TypeError(f"baseline must be a system name or index, got {type(baseline).__name__}")
    if not 0 <= int(baseline) < len(names):
        raise InputError(f"baseline index {baseline} is out of range for {len(names)} systems")
    return int(baseline)


def _is_run_results(v) -> bool:
    """A RelevanceEvaluator's results: query -> measure -> value."""
    if not isinstance(v, Mapping) or not v:
        return False
    first = next(iter(v.values()))
    return isinstance(first, Mapping)


def _report_of(r):
    """A WordPairsReport from a report or an evaluate_word_pairs result."""
    from ._wordsim import WordPairsReport

    if isinstance(r, WordPairsReport):
        return r
    rep = getattr(r, "report", None)
    if isinstance(rep, WordPairsReport):
        return rep
    return None


def _reports(data) -> dict[str, list] | None:
    """{model: [reports]} when ``data`` maps models to reports, else None."""
    if not isinstance(data, Mapping) or not data:
        return None
    out = {}
    for name, v in data.items():
        items = [v] if _report_of(v) is not None else v
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            return None
        reps = [_report_of(x) for x in items]
        if not reps or any(x is None for x in reps):
            return None
        out[str(name)] = reps
    return out


def _word_benchmarks(reports, missing):
    """The model names and (benchmark, human, [model similarities]) for
    every benchmark, in the order first met: unknown pairs as each
    evaluation scored them, or, where a model dropped them, an error
    (``missing='common'``: the pairs every model knows)."""
    names = list(reports)
    by_bench: dict[str, dict[str, Any]] = {}
    for name in names:
        for r in reports[name]:
            models = by_bench.setdefault(r.benchmark, {})
            if name in models:
                raise InputError(f"model {name!r} has two reports on benchmark {r.benchmark!r}")
            models[name] = r
    out = []
    for bench, models in by_bench.items():
        lacking = [n for n in names if n not in models]
        if lacking:
            raise InputError(f"benchmark {bench!r} has no report of model {lacking[0]!r}")
        gold = list(models[names[0]].gold)
        sims = []
        for n in names:
            r = models[n]
            if list(r.gold) != gold:
                raise InputError(
                    f"benchmark {bench!r}: model {n!r} was evaluated on other pairs "
                    f"(its human scores differ from those of {names[0]!r})"
                )
            sims.append([r.imputed if v is None else v for v in r.similarities])
        keep = [all(s[i] is not None for s in sims) for i in range(len(gold))]
        if not all(keep) and missing != "common":
            i = keep.index(False)
            who = next(n for n, s in zip(names, sims, strict=True) if s[i] is None)
            raise InputError(
                f"benchmark {bench!r}: model {who!r} has no similarity for pair {i + 1} "
                "(an unknown word): compare on the pairs every model knows "
                "(missing='common'), or evaluate with unknown='zero' or 'mean'"
            )
        human = [float(g) for g, k in zip(gold, keep, strict=True) if k]
        scores = [[float(v) for v, k in zip(s, keep, strict=True) if k] for s in sims]
        out.append((bench, human, scores))
    return names, out


def compare(
    data,
    human=None,
    *,
    names: Sequence[str] | None = None,
    measures: Sequence[str] | None = None,
    baseline: str | int | None = None,
    test: str = "randomisation",
    correction: str = "holm",
    alpha: float = 0.05,
    level: float = 0.95,
    interval: str | None = None,
    resamples: int = 10_000,
    seed: int | None = 0,
    alternative: str = "two-sided",
    statistic: StatisticLike | Sequence[StatisticLike] = "spearman",
    zero_method: str = "wilcox",
    wilcoxon_method: str = "auto",
    continuity: bool = False,
    exact_up_to: int = 20,
    missing: str = "error",
    joint: bool = True,
    friedman: bool | None = None,
    threads: int | None = None,
) -> ComparisonResult:
    """Which of k systems differ, and how sure: every pair (or each system
    against ``baseline``), with a paired test, a multiple-testing
    correction, intervals and effect sizes. ``data`` is one of:

    - a units x systems matrix of per-unit scores (NumPy array, a pandas
      DataFrame whose columns name the systems and index the units, or a
      dict of equal-length vectors by system name), e.g. average precision
      per query or a score per lexical-substitution instance;
    - a dict of ``RelevanceEvaluator(...).evaluate(run)`` results by system
      name (query -> measure -> value): one comparison per measure
      (``measures``, default every measure of the first result), on the
      queries every run has (``missing='error'``: a query one run lacks is
      an error naming it; ``'common'``: the queries all runs have);
    - with ``human``: k score vectors (a list, a dict by name, or an items
      x systems matrix) compared by a coefficient against the human scores
      (``statistic``: ``'spearman'``, ``'kendall'``, ``'pearson'``,
      ``'rho_w'``, ``'tau_w'``, ``'weightedtau'`` or a :class:`Statistic`),
      with the paired permutation or bootstrap test;
    - a dict of ``evaluate_word_pairs`` results (or their ``.report``) by
      model name, one result or a list of them (several benchmarks) per
      model: the coefficients (``statistic``, one or a list) compared on
      each benchmark's pairs; unknown pairs as each evaluation scored them,
      or, where a model dropped them, an error (``missing='common'``: the
      pairs every model knows). With several benchmarks, Friedman's test
      and the critical difference rank the models across them.

    Options: ``test`` ``'t'`` (paired t-test), ``'wilcoxon'`` (signed-rank,
    SciPy's ``zero_method``, ``wilcoxon_method`` and ``continuity``),
    ``'randomisation'`` (Fisher's sign-flip test, exact up to
    ``exact_up_to`` units, else ``resamples`` random flips with the (b +
    1)/(m + 1) p-value; the paired permutation test for coefficients) or
    ``'bootstrap'``; ``correction`` any :func:`multipletests` method
    (default Holm), over every pair of every measure together when
    ``joint`` (else per measure); ``alpha``; ``level`` of the intervals
    (``interval``: ``'student'``, ``'percentile'``, ``'bca'``; default
    Student's for per-unit means, BCa for coefficients and the bootstrap
    test); ``resamples``; ``seed`` (the same seed gives the same result on
    any number of ``threads``); ``friedman``: also run Friedman's test over
    the units of a matrix (default: only for several benchmarks).

    Raises :class:`InputError` (a ``ValueError``) for bad input: fewer than
    two systems, units or items differing between systems, NaN scores,
    alpha or level outside (0, 1), too many resamples, an unknown option;
    ``TypeError`` for inputs of the wrong type.

    References: Fisher (1935); Smucker, Allan & Carterette (2007); Demsar
    (2006); SciPy's ``ttest_rel``, ``wilcoxon``, ``friedmanchisquare``;
    statsmodels' ``multipletests``.
    """
    if missing not in ("error", "common"):
        raise InputError(f"missing must be 'error' or 'common', got {missing!r}")
    seed = _seed(seed)
    opts = dict(
        test=str(test),
        zero_method=str(zero_method),
        wilcoxon_method=str(wilcoxon_method),
        continuity=bool(continuity),
        correction=str(correction),
        alternative=str(alternative),
        alpha=float(alpha),
        level=float(level),
        interval=None if interval is None else str(interval),
        resamples=int(resamples),
        baseline=None,
        exact_up_to=int(exact_up_to),
        threads=None if threads is None else int(threads),
        seed=seed,
        joint=joint,
    )
    if resamples < 1:
        raise InputError(f"resamples must be at least 1, got {resamples}")

    if human is not None:
        stats = _statistics(statistic)
        if isinstance(data, Mapping):
            names = [str(k) for k in data] if names is None else [str(n) for n in names]
            vectors = [np.asarray(v, dtype=float) for v in data.values()]
        else:
            a = data.to_numpy() if hasattr(data, "to_numpy") else data
            if names is None and hasattr(data, "columns"):
                names = [str(c) for c in data.columns]
            arr = np.asarray(a, dtype=float) if isinstance(a, np.ndarray) else None
            if arr is not None and arr.ndim == 2:
                vectors = [arr[:, j] for j in range(arr.shape[1])]
            else:
                vectors = [np.asarray(v, dtype=float) for v in a]
            names = [str(j) for j in range(len(vectors))] if names is None else names
        h = np.asarray(human, dtype=float)
        for n, v in zip(names, vectors, strict=False):
            if v.ndim != 1:
                raise InputError(f"the scores of {n!r} must be 1-D")
        benchmarks = [("", h.tolist(), [v.tolist() for v in vectors])]
        return _coefficients(benchmarks, names, stats, opts, baseline, False)

    reports = _reports(data)
    if reports is not None:
        stats = _statistics(statistic)
        names, benchmarks = _word_benchmarks(reports, missing)
        run_friedman = len(benchmarks) > 1 if friedman is None else bool(friedman)
        return _coefficients(benchmarks, names, stats, opts, baseline, run_friedman)

    if isinstance(data, Mapping) and data and all(_is_run_results(v) for v in data.values()):
        names = [str(k) for k in data]
        runs = list(data.values())
        if measures is None:
            first_query = next(iter(runs[0].values()))
            measures = [m for m, v in first_query.items() if isinstance(v, (int, float))]
        tables = []
        for m in measures:
            systems = []
            for name, run in zip(names, runs, strict=True):
                scores = []
                for q, per in run.items():
                    if m not in per:
                        raise InputError(f"system {name!r} has no measure {m!r} for query {q!r}")
                    scores.append((str(q), float(per[m])))
                systems.append((name, scores))
            tables.append((str(m), systems))
        opts["baseline"] = _baseline(baseline, names)
        core = _core.compare_keyed(tables, missing == "common", _Options(**opts))
        return ComparisonResult(core)

    matrix, names, unit_names = _matrix(data, names)
    opts["baseline"] = _baseline(baseline, names)
    measure = "score" if measures is None else str(next(iter(measures)))
    core = _core.compare_matrices([(measure, matrix)], names, unit_names, _Options(**opts))
    f = None
    if friedman:
        f = FriedmanResult(**_core.friedman(matrix, names, float(alpha), True))
    return ComparisonResult(core, f)


def _statistics(statistic) -> list[Statistic]:
    if isinstance(statistic, (str, Statistic)):
        return [_statistic(statistic)]
    stats = [_statistic(s) for s in statistic]
    if not stats:
        raise InputError("statistic: give at least one")
    return stats


def _coefficients(benchmarks, names, stats, opts, baseline, run_friedman):
    opts = dict(opts, baseline=_baseline(baseline, names))
    labelled = [(s.kind, s) for s in stats]
    core = _core.compare_coefficients(benchmarks, names, labelled, _Options(**opts))
    result = ComparisonResult(core)
    if run_friedman:
        per_stat = {
            s.kind: [m if len(stats) == 1 else f"{m} {s.kind}" for m, _, _ in benchmarks]
            for s in stats
        }
        fr = {k: _friedman_of(result, ms, names, opts["alpha"]) for k, ms in per_stat.items()}
        result.friedman = next(iter(fr.values())) if len(fr) == 1 else fr
    return result


def _friedman_of(result, measures, names, alpha):
    table = np.array(
        [[result.estimate(n, m).estimate for n in names] for m in measures], dtype=float
    )
    return FriedmanResult(**_core.friedman(table, list(names), float(alpha), True))
