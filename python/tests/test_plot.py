"""adaptive_comp_metrics.plot: each chart draws the result's own numbers
(read back from the artists) and matches its image snapshot.

Snapshots live in baseline/plot/; after a deliberate change of a chart,
rewrite them with ``ACM_PLOT_BASELINES=1 pytest python/tests/test_plot.py``
and look at them before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.testing import set_font_settings_for_testing  # noqa: E402
from matplotlib.testing.compare import compare_images  # noqa: E402

import adaptive_comp_metrics as acm  # noqa: E402
from adaptive_comp_metrics import plot  # noqa: E402

BASELINE = Path(__file__).parent / "baseline" / "plot"
TOLERANCE = 2.0  # RMS over 0-255 greys, as matplotlib's own image tests allow


@pytest.fixture(autouse=True)
def _deterministic_style():
    with mpl.rc_context():
        mpl.rcdefaults()
        set_font_settings_for_testing()
        mpl.rcParams["svg.hashsalt"] = "acm"
        yield
    plt.close("all")


def snapshot(fig, name: str, tmp_path: Path) -> None:
    actual = tmp_path / f"{name}.png"
    fig.savefig(actual, dpi=80)
    expected = BASELINE / f"{name}.png"
    if os.environ.get("ACM_PLOT_BASELINES"):
        BASELINE.mkdir(parents=True, exist_ok=True)
        expected.write_bytes(actual.read_bytes())
    assert expected.exists(), f"no snapshot {expected}: write it with ACM_PLOT_BASELINES=1"
    diff = compare_images(str(expected), str(actual), tol=TOLERANCE)
    assert diff is None, diff


def data():
    rng = np.random.default_rng(7)
    human = rng.normal(size=40)
    model = human + rng.normal(scale=0.8, size=40)
    return human, model


def test_null_distribution_draws_every_permutation_and_the_observed_value(tmp_path):
    human, model = data()
    r = acm.permutation_test(
        human, model, "rho_w", permutations=999, seed=1, keep_distribution=True
    )
    fig = plot.null_distribution(r)
    ax = fig.axes[0]
    heights = sum(p.get_height() for p in ax.patches)
    assert heights == 999
    lines = {ln.get_label().split(" ")[0]: ln.get_xdata()[0] for ln in ax.get_lines()}
    assert lines["observed"] == r.statistic
    assert lines["null"] == r.null_mean
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(f"p = {r.pvalue:.3g}" in t for t in legend), legend
    snapshot(fig, "null_distribution", tmp_path)


def test_a_result_without_its_distribution_is_refused():
    human, model = data()
    r = acm.permutation_test(human, model, permutations=99, seed=1)
    with pytest.raises(ValueError, match="keep_distribution=True"):
        plot.null_distribution(r)
    b = acm.bootstrap_ci(human, model, resamples=99, seed=1)
    with pytest.raises(ValueError, match="keep_distribution=True"):
        plot.bootstrap_distribution(b)


def test_keeping_the_distribution_changes_nothing_else():
    human, model = data()
    a = acm.permutation_test(human, model, "tau_w", permutations=499, seed=3)
    b = acm.permutation_test(
        human, model, "tau_w", permutations=499, seed=3, keep_distribution=True
    )
    assert a == b and a.null_distribution is None
    assert b.null_distribution.shape == (499,)
    assert np.mean(b.null_distribution) == pytest.approx(b.null_mean, rel=1e-12)
    c = acm.bootstrap_ci(human, model, resamples=499, seed=3)
    d = acm.bootstrap_ci(human, model, resamples=499, seed=3, keep_distribution=True)
    assert c == d and d.bootstrap_distribution.shape == (499,)


def test_bootstrap_distribution_shades_the_interval(tmp_path):
    human, model = data()
    r = acm.bootstrap_ci(human, model, resamples=999, seed=2, keep_distribution=True)
    fig = plot.bootstrap_distribution(r)
    ax = fig.axes[0]
    span = ax.patches[0].get_path().vertices @ np.eye(2)
    xs = sorted({float(x) for x in ax.patches[0].get_transform().transform(span)[:, 0]})
    lo, hi = r.confidence_interval
    data_x = sorted(
        {
            float(x)
            for x in ax.transData.inverted().transform(
                ax.patches[0].get_transform().transform(span)
            )[:, 0]
        }
    )
    assert len(xs) == 2 and data_x == pytest.approx([lo, hi], rel=1e-9)
    assert sum(p.get_height() for p in ax.patches[1:]) == 999 - r.failed
    snapshot(fig, "bootstrap_distribution", tmp_path)


def test_intervals_put_each_model_on_each_benchmark(tmp_path):
    estimates = {
        "glove": {"SimLex": (0.37, 0.31, 0.43), "WS353": (0.60, 0.55, 0.66), "MEN": 0.74},
        "fasttext": {"SimLex": (0.45, 0.40, 0.50), "WS353": (0.68, 0.63, 0.72)},
    }
    fig = plot.intervals(estimates, xlabel="Spearman's rho")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["MEN", "WS353", "SimLex"]
    glove = ax.containers[0]
    assert list(glove.lines[0].get_xdata()) == [0.37, 0.60, 0.74]
    snapshot(fig, "intervals", tmp_path)


def test_scatter_emphasises_the_human_top(tmp_path):
    human, model = data()
    fig = plot.scatter(human, model, top=5)
    ax = fig.axes[0]
    top = ax.collections[1].get_offsets()
    assert sorted(top[:, 0]) == sorted(np.sort(human)[-5:])
    snapshot(fig, "scatter", tmp_path)


def test_scatter_of_a_word_pairs_report_leaves_out_unscored_pairs():
    class Report:
        def __init__(self):
            self.benchmark = "toy"
            self.gold = [1.0, 2.0, 3.0]
            self.similarities = [0.1, None, 0.3]

    ax = plot.scatter(Report(), top=1).axes[0]
    points = np.concatenate([c.get_offsets() for c in ax.collections])
    assert sorted(map(tuple, points)) == [(1.0, 0.1), (3.0, 0.3)]


def test_the_standardising_map_keeps_the_ends_and_marks_the_null_mean(tmp_path):
    fig = plot.standardising_map("rho", 20)
    ax = fig.axes[0]
    curve = next(ln for ln in ax.get_lines() if ln.get_label() == "standardising map")
    x, y = curve.get_xdata(), curve.get_ydata()
    assert (x[0], x[-1]) == (-1.0, 1.0)
    assert y[0] == pytest.approx(-1.0) and y[-1] == pytest.approx(1.0)
    mo = acm.null_moments("rho", 20)
    m, v, left = mo.mean.value, mo.variance.value, mo.left_variance.value
    marker = next(ln for ln in ax.get_lines() if ln.get_label().startswith("null mean"))
    g_mean = acm.standardise_with_moments(m, m, v, left)
    assert (marker.get_xdata()[0], marker.get_ydata()[0]) == (m, g_mean)
    assert np.all(np.diff(y) > 0)  # increasing
    snapshot(fig, "standardising_map", tmp_path)


def test_forest_marks_significance_and_keeps_order(tmp_path):
    rows = [
        ("bm25 - dense", 0.042, 0.020, 0.064, True),
        ("bm25 - rerank", -0.011, -0.030, 0.008, False),
        ("dense - rerank", -0.053, -0.080, -0.027, True),
    ]
    fig = plot.forest(rows, xlabel="difference in nDCG@10")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [r[0] for r in rows][::-1]
    whiskers = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 2 and ln.get_xdata()[0] != 0]
    assert [tuple(w.get_xdata()) for w in whiskers] == [(r[2], r[3]) for r in rows]
    snapshot(fig, "forest", tmp_path)


def test_critical_difference_groups_systems_closer_than_cd(tmp_path):
    ranks = {"A": 1.2, "B": 2.0, "C": 2.9, "D": 3.6, "E": 4.3}
    assert plot._cliques(sorted(ranks), sorted(ranks.values()), 1.0) == [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
    ]
    assert plot._cliques(list("abc"), [1.0, 2.5, 4.0], 1.0) == []
    fig = plot.critical_difference(ranks, cd=1.0)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "A (1.20)" in texts and "(4.30) E" in texts and "CD = 1" in texts
    snapshot(fig, "critical_difference", tmp_path)


def test_ranking_sorts_by_score(tmp_path):
    fig = plot.ranking(["x", "y", "z"], [0.1, 0.9, 0.5], [(0, 0.2), (0.7, 1.1), (0.3, 0.7)])
    ax = fig.axes[0]
    at = {
        float(y): t.get_text() for y, t in zip(ax.get_yticks(), ax.get_yticklabels(), strict=True)
    }
    assert at == {2.0: "y", 1.0: "z", 0.0: "x"}  # best at the top
    snapshot(fig, "ranking", tmp_path)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="no model"):
        plot.intervals({})
    with pytest.raises(ValueError, match="has 2 scores and model 3"):
        plot.scatter([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="coefficient must be"):
        plot.standardising_map("r", 10)
    with pytest.raises(ValueError, match="label, difference, low, high"):
        plot.forest([("a", 1.0)])
    with pytest.raises(ValueError, match="critical difference"):
        plot.critical_difference({"a": 1.0}, cd=float("nan"))
    with pytest.raises(ValueError, match="2 names and 3 scores"):
        plot.ranking(["a", "b"], [1, 2, 3])


def test_drawing_on_a_given_axes_returns_its_figure():
    fig, ax = plt.subplots()
    assert plot.ranking(["a"], [1.0], ax=ax) is fig
