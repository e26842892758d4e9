"""Pictures of the package's verdicts, drawn with matplotlib.

matplotlib is an optional extra (``pip install "adaptive-comp-metrics[plot]"``
or ``pip install matplotlib``); importing this module without it raises an
``ImportError`` that says so. Every function draws on the ``ax`` it is given
(a new figure otherwise) and returns the matplotlib ``Figure``; none computes
anything the result does not already hold, except the standardising map, which
is the picture of a function. Colours are the Okabe-Ito palette (legible to
the common colour-vision deficiencies) and every series has its own marker as
well, so a figure also reads in greyscale.

- :func:`null_distribution`: a permutation test's null with the observed value;
- :func:`bootstrap_distribution`: a bootstrap distribution with its interval;
- :func:`intervals`: models x benchmarks, each estimate with its interval;
- :func:`scatter`: human against model scores, the top of the human ranking
  emphasised (where top-weighted coefficients look);
- :func:`standardising_map`: raw against standardised rho_w or tau_w (Lombardo 2025);
- :func:`forest`: differences between systems with their intervals;
- :func:`critical_difference`: average ranks and the groups of systems no test
  tells apart (Demsar 2006);
- :func:`ranking`: items by score with intervals (a Bradley-Terry fit, say).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

try:
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
except ImportError as e:  # pragma: no cover - exercised without matplotlib
    raise ImportError(
        "adaptive_comp_metrics.plot needs matplotlib: "
        'pip install "adaptive-comp-metrics[plot]" (or pip install matplotlib)'
    ) from e

from ._correlation import null_moments, standardise_with_moments

__all__ = [
    "MARKERS",
    "OKABE_ITO",
    "bootstrap_distribution",
    "critical_difference",
    "forest",
    "intervals",
    "null_distribution",
    "ranking",
    "scatter",
    "standardising_map",
]

#: The Okabe-Ito palette (Okabe & Ito 2008), black last.
OKABE_ITO = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
#: One marker per series, in the palette's order.
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*")
_GREY = "#999999"


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is None:
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        return fig, ax
    return ax.figure, ax


def _finite(values: Any, name: str) -> np.ndarray:
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        raise ValueError(f"{name} holds no finite value to draw")
    return v


def _style(i: int) -> dict[str, str]:
    return {"color": OKABE_ITO[i % len(OKABE_ITO)], "marker": MARKERS[i % len(MARKERS)]}


def null_distribution(
    result: Any,
    *,
    bins: int | str = "auto",
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "statistic under permutation",
) -> Figure:
    """The permuted values of a :func:`permutation_test` as a histogram, the
    observed statistic as a line, and the p-value in the legend.

    ``result`` must hold its ``null_distribution`` (run the test with
    ``keep_distribution=True``); ``ValueError`` otherwise.
    """
    values = getattr(result, "null_distribution", None)
    if values is None:
        raise ValueError(
            "the result holds no null distribution: run the test with keep_distribution=True"
        )
    v = _finite(values, "the null distribution")
    fig, ax = _axes(ax, (6.4, 4.0))
    ax.hist(v, bins=bins, color=OKABE_ITO[5], edgecolor="white", linewidth=0.5, label="permuted")
    ax.axvline(
        result.statistic,
        color=OKABE_ITO[1],
        linewidth=2,
        label=f"observed {result.statistic:.4g} ({result.alternative} p = {result.pvalue:.3g})",
    )
    ax.axvline(result.null_mean, color="black", linestyle="--", linewidth=1, label="null mean")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"permutations (of {result.permutations})")
    ax.set_title(title or "Observed statistic against its permutation null")
    ax.legend(loc="best", fontsize="small")
    return fig


def bootstrap_distribution(
    result: Any,
    *,
    bins: int | str = "auto",
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "statistic on a resample",
) -> Figure:
    """The resampled values of a :func:`bootstrap_ci` as a histogram, the
    estimate as a line and the interval shaded.

    ``result`` must hold its ``bootstrap_distribution`` (run it with
    ``keep_distribution=True``); ``ValueError`` otherwise. Resamples on
    which the statistic was undefined (NaN) are not drawn.
    """
    values = getattr(result, "bootstrap_distribution", None)
    if values is None:
        raise ValueError(
            "the result holds no bootstrap distribution: run it with keep_distribution=True"
        )
    v = _finite(values, "the bootstrap distribution")
    lo, hi = result.confidence_interval
    fig, ax = _axes(ax, (6.4, 4.0))
    ax.axvspan(
        lo,
        hi,
        color=OKABE_ITO[4],
        alpha=0.25,
        label=f"{result.confidence_level:.0%} {result.method} interval [{lo:.4g}, {hi:.4g}]",
    )
    ax.hist(v, bins=bins, color=OKABE_ITO[5], edgecolor="white", linewidth=0.5, label="resampled")
    ax.axvline(
        result.estimate, color=OKABE_ITO[1], linewidth=2, label=f"estimate {result.estimate:.4g}"
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"resamples (of {result.resamples})")
    ax.set_title(title or "Bootstrap distribution of the statistic")
    ax.legend(loc="best", fontsize="small")
    return fig


def _estimate(value: Any) -> tuple[float, float, float]:
    """(estimate, low, high) of a bootstrap result, a triple or a number."""
    if hasattr(value, "confidence_interval") and hasattr(value, "estimate"):
        lo, hi = value.confidence_interval
        return float(value.estimate), float(lo), float(hi)
    if np.ndim(value) == 0:
        x = float(value)
        return x, x, x
    t = tuple(float(x) for x in value)
    if len(t) != 3:
        raise ValueError(f"an estimate is a number or (estimate, low, high), got {value!r}")
    return t  # type: ignore[return-value]


def intervals(
    estimates: Mapping[str, Mapping[str, Any]],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "coefficient",
) -> Figure:
    """Models x benchmarks as dots and whiskers: one row per benchmark, one
    dot per model (its own colour and marker) with its interval.

    ``estimates[model][benchmark]`` is a :class:`BootstrapResult`, an
    ``(estimate, low, high)`` triple or a bare number (no whisker).
    """
    models = list(estimates)
    if not models:
        raise ValueError("no model to draw")
    benchmarks: list[str] = []
    for m in models:
        for b in estimates[m]:
            if b not in benchmarks:
                benchmarks.append(b)
    rows = len(benchmarks)
    fig, ax = _axes(ax, (6.4, 1.2 + 0.3 * rows * max(1.0, len(models) / 3)))
    step = 0.8 / max(len(models), 1)
    for i, m in enumerate(models):
        ys, xs, lows, highs = [], [], [], []
        for j, b in enumerate(benchmarks):
            if b not in estimates[m]:
                continue
            e, lo, hi = _estimate(estimates[m][b])
            ys.append(rows - 1 - j + 0.4 - step * (i + 0.5))
            xs.append(e)
            lows.append(e - lo)
            highs.append(hi - e)
        st = _style(i)
        ax.errorbar(
            xs,
            ys,
            xerr=[lows, highs],
            linestyle="none",
            color=st["color"],
            marker=st["marker"],
            capsize=2,
            label=m,
        )
    ax.set_yticks(range(rows), labels=benchmarks[::-1])
    ax.set_ylim(-0.6, rows - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_title(title or f"{xlabel} of each model on each benchmark")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


def scatter(
    human: Any,
    model: Any = None,
    *,
    top: int = 10,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "human score",
    ylabel: str = "model score",
) -> Figure:
    """Human against model scores, the ``top`` items of the human ranking
    filled and coloured, the others hollow and grey: the items a top-weighted
    coefficient weighs most stand out.

    ``human`` and ``model`` are paired score vectors, or ``human`` is the
    report of :func:`evaluate_word_pairs` (its gold scores and similarities;
    pairs without a similarity are left out).
    """
    if model is None:
        gold = getattr(human, "gold", None)
        sims = getattr(human, "similarities", None)
        if gold is None or sims is None:
            raise TypeError("scatter takes two score vectors, or a word-pairs report")
        keep = [i for i, s in enumerate(sims) if s is not None]
        h = np.asarray([gold[i] for i in keep], dtype=float)
        m = np.asarray([sims[i] for i in keep], dtype=float)
        title = title or f"{human.benchmark}: human against model"
    else:
        h = np.asarray(human, dtype=float).ravel()
        m = np.asarray(model, dtype=float).ravel()
    if h.shape != m.shape:
        raise ValueError(f"human has {h.size} scores and model {m.size}")
    if h.size == 0:
        raise ValueError("no scored pair to draw")
    if top < 0:
        raise ValueError(f"top must be at least 0, got {top}")
    order = np.argsort(-h, kind="stable")
    is_top = np.zeros(h.size, dtype=bool)
    is_top[order[:top]] = True
    fig, ax = _axes(ax, (5.2, 4.4))
    ax.scatter(h[~is_top], m[~is_top], facecolors="none", edgecolors=_GREY, label="other pairs")
    ax.scatter(
        h[is_top],
        m[is_top],
        color=OKABE_ITO[1],
        marker="D",
        label=f"top {int(is_top.sum())} by human score",
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title or "Human against model scores")
    ax.legend(loc="best", fontsize="small")
    return fig


def standardising_map(
    coefficient: str = "rho",
    n: int = 30,
    *,
    moments: Any = None,
    points: int = 401,
    ax: Axes | None = None,
    title: str | None = None,
    **config: Any,
) -> Figure:
    """The map g from the raw coefficient to the standardised scale
    (Lombardo 2025: increasing, -1 and 1 kept, E[g] = 0 under the null, so 0
    is what unrelated rankings give on average), for ``n`` items: the curve,
    the identity for comparison, and the null mean, where the map's two
    quadratic pieces join, marked.

    ``moments``: the :class:`GammaMoments` to use (default
    ``null_moments(coefficient, n, **config)``, the built-in table).
    """
    if coefficient not in ("rho", "tau"):
        raise ValueError(f"coefficient must be 'rho' or 'tau', got {coefficient!r}")
    if points < 2:
        raise ValueError(f"points must be at least 2, got {points}")
    mo = moments if moments is not None else null_moments(coefficient, n, **config)
    mean, var, left = mo.mean.value, mo.variance.value, mo.left_variance.value
    raw = np.linspace(-1.0, 1.0, points)
    g = np.array([standardise_with_moments(v, mean, var, left) for v in raw])
    name = "ρ_w" if coefficient == "rho" else "τ_w"  # noqa: RUF001
    fig, ax = _axes(ax, (5.2, 4.4))
    ax.plot([-1, 1], [-1, 1], color=_GREY, linestyle=":", label="identity")
    ax.plot(raw, g, color=OKABE_ITO[0], linewidth=2, label="standardising map")
    at_mean = standardise_with_moments(mean, mean, var, left)
    ax.plot(
        [mean],
        [at_mean],
        linestyle="none",
        marker="o",
        color=OKABE_ITO[1],
        label="null mean (the pieces join)",
    )
    ax.axhline(0.0, color="black", linewidth=0.5)
    ax.set_xlabel(f"raw {name}")
    ax.set_ylabel(f"standardised {name} (0 = chance)")
    ax.set_title(title or f"The standardised scale of {name} for n = {n}")
    ax.legend(loc="best", fontsize="small")
    return fig


def _rows(differences: Any) -> list[tuple[str, float, float, float, bool | None]]:
    if isinstance(differences, Mapping):
        items = [(k, *tuple(v)) for k, v in differences.items()]
    else:
        items = [tuple(d) for d in differences]
    rows = []
    for it in items:
        if len(it) not in (4, 5):
            raise ValueError(
                "a difference is (label, difference, low, high[, significant]), got " + repr(it)
            )
        label, d, lo, hi = str(it[0]), float(it[1]), float(it[2]), float(it[3])
        rows.append((label, d, lo, hi, bool(it[4]) if len(it) == 5 else None))
    if not rows:
        raise ValueError("no difference to draw")
    return rows


def forest(
    differences: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "difference",
) -> Figure:
    """A forest plot: one row per comparison, its difference and interval,
    a line at 0; comparisons significant after correction filled, the others
    hollow.

    ``differences``: rows ``(label, difference, low, high[, significant])``,
    or a mapping from label to ``(difference, low, high[, significant])``.
    """
    rows = _rows(differences)
    fig, ax = _axes(ax, (6.4, 1.2 + 0.32 * len(rows)))
    ax.axvline(0.0, color="black", linewidth=0.8)
    for i, (_, d, lo, hi, sig) in enumerate(rows):
        y = len(rows) - 1 - i
        ax.plot([lo, hi], [y, y], color=OKABE_ITO[0], linewidth=1.5)
        filled = sig is not False
        ax.plot(
            [d],
            [y],
            marker="o" if filled else "s",
            color=OKABE_ITO[0] if filled else "white",
            markeredgecolor=OKABE_ITO[0],
            linestyle="none",
        )
    ax.set_yticks(range(len(rows)), labels=[r[0] for r in rows][::-1])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_title(title or "Differences with their intervals (filled: significant)")
    ax.grid(axis="x", alpha=0.3)
    return fig


def _cliques(names: list[str], ranks: list[float], cd: float) -> list[tuple[int, int]]:
    """Maximal runs i..j of the rank-sorted systems whose ranks differ by
    less than ``cd`` (those no Nemenyi test tells apart)."""
    runs: list[tuple[int, int]] = []
    for i in range(len(ranks)):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] - ranks[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in runs):
            runs.append((i, j))
    return runs


def critical_difference(
    average_ranks: Mapping[str, float],
    cd: float,
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Demsar's (2006) critical-difference diagram: the systems on an axis of
    average ranks (1 = best, on the left), the critical difference as a bar,
    and a thick line under each group of systems whose ranks differ by less
    than it (no Nemenyi test tells them apart).
    """
    if not average_ranks:
        raise ValueError("no system to draw")
    if not (cd >= 0 and np.isfinite(cd)):
        raise ValueError(f"the critical difference must be finite and >= 0, got {cd}")
    pairs = sorted(((float(r), str(n)) for n, r in average_ranks.items()))
    ranks = [r for r, _ in pairs]
    names = [n for _, n in pairs]
    k = len(names)
    lo_axis, hi_axis = 1, max(k, int(np.ceil(max(ranks))))
    half = (k + 1) // 2
    height = 1.6 + 0.28 * half
    fig, ax = _axes(ax, (7.0, height))
    ax.set_xlim(lo_axis - 0.5, hi_axis + 0.5)
    ax.set_ylim(-(half + 1.5), 2.0)
    ax.axis("off")
    ax.plot([lo_axis, hi_axis], [0, 0], color="black", linewidth=1)
    for t in range(lo_axis, hi_axis + 1):
        ax.plot([t, t], [0, 0.15], color="black", linewidth=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize="small")
    ax.plot([lo_axis, lo_axis + cd], [1.3, 1.3], color="black", linewidth=2)
    ax.text(lo_axis + cd / 2, 1.45, f"CD = {cd:.3g}", ha="center", va="bottom", fontsize="small")
    for i, (r, n) in enumerate(pairs):
        left = i < half
        row = (i if left else k - 1 - i) + 1
        x_text = lo_axis - 0.4 if left else hi_axis + 0.4
        ax.plot([r, r, x_text], [0, -row, -row], color=OKABE_ITO[i % 2], linewidth=1)
        ax.text(
            x_text,
            -row,
            f"{n} ({r:.2f})" if left else f"({r:.2f}) {n}",
            ha="right" if left else "left",
            va="center",
            fontsize="small",
        )
    for g, (a, b) in enumerate(_cliques(names, ranks, cd)):
        y = -0.35 - 0.18 * g
        ax.plot([ranks[a] - 0.05, ranks[b] + 0.05], [y, y], color="black", linewidth=3)
    ax.set_title(title or "Average ranks; systems joined by a bar are not told apart")
    return fig


def ranking(
    names: Sequence[str],
    scores: Sequence[float],
    intervals: Sequence[Sequence[float]] | None = None,
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "score",
) -> Figure:
    """Items by score, best at the top, each with its interval (a
    Bradley-Terry fit's scores and intervals, say)."""
    s = np.asarray(scores, dtype=float).ravel()
    if len(names) != s.size:
        raise ValueError(f"{len(names)} names and {s.size} scores")
    if s.size == 0:
        raise ValueError("no item to draw")
    order = np.argsort(-s, kind="stable")
    fig, ax = _axes(ax, (6.4, 1.2 + 0.28 * s.size))
    ys = np.arange(s.size)[::-1]
    if intervals is not None:
        iv = np.asarray(intervals, dtype=float)
        if iv.shape != (s.size, 2):
            raise ValueError(f"intervals must be {s.size} (low, high) pairs, got shape {iv.shape}")
        iv = iv[order]
        ax.hlines(ys, iv[:, 0], iv[:, 1], color=OKABE_ITO[0], linewidth=1.5)
    ax.plot(s[order], ys, linestyle="none", marker="o", color=OKABE_ITO[0])
    ax.set_yticks(ys, labels=[str(names[i]) for i in order])
    ax.set_xlabel(xlabel)
    ax.set_title(title or "Ranking with intervals")
    ax.grid(axis="x", alpha=0.3)
    return fig
