"""acm.compare and acm.friedman: the values of the crate's reference set
(tests/data/compare/expected.json, made with SciPy, statsmodels and mpmath
by tests/data/compare/make_expected.py) through the Python front door, to
1e-12; every input form (matrix, DataFrame-like dict, RelevanceEvaluator
results, score vectors against human scores, evaluate_word_pairs reports);
the result object; and the errors."""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

import adaptive_comp_metrics as acm

ROOT = Path(__file__).parents[2]
EXPECTED = json.loads((ROOT / "tests" / "data" / "compare" / "expected.json").read_text())
SAMPLES = {k: (np.array(v["x"]), np.array(v["y"])) for k, v in EXPECTED["samples"].items()}


def num(v):
    return (
        {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}.get(v, v)
        if isinstance(v, str)
        else float(v)
    )


def close(a, b, floor=1.0):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-12 * max(abs(b), floor)


def close_p(ours, ref):
    if ref < 1e-300:
        return (ours == 0.0 and ref == 0.0) or abs(math.log(ours) - math.log(ref)) <= 1e-12 * abs(
            math.log(ref)
        )
    return close(ours, ref, 1e-300)


def one_pair(x, y, **kwargs):
    r = acm.compare(np.column_stack([x, y]), names=["x", "y"], correction="none", **kwargs)
    assert len(r.pairs) == 1
    return r.pairs[0]


def test_paired_t_matches_scipy_and_mpmath():
    checked = 0
    for case in EXPECTED["ttest"]:
        if "t" not in case:
            continue
        x, y = SAMPLES[case["name"]]
        p = one_pair(x, y, test="t", alternative=case["alternative"])
        what = f"{case['name']} {case['alternative']}"
        assert p.method == {"name": "t", "df": case["df"]}, what
        assert close(p.statistic, case["t"]), what
        assert close_p(p.pvalue, case["p"]), what
        assert close(p.cohens_dz, case["cohens_dz"]), what
        if "hedges_gz" in case:
            assert close(p.hedges_gz, case["hedges_gz"]), what
        scale = max(np.abs(x).max(), np.abs(y).max())
        for ours, want in ((p.low, num(case["ci_low"])), (p.high, num(case["ci_high"]))):
            assert close(ours, want, scale), (what, ours, want)
        checked += 1
    assert checked > 50


def test_paired_t_matches_scipy_directly():
    x, y = SAMPLES["continuous n=25"]
    p = one_pair(x, y, test="t")
    t = scipy.stats.ttest_rel(x, y)
    assert close(p.statistic, t.statistic) and close(p.pvalue, t.pvalue)
    assert close(p.difference, float(np.mean(x - y)))


def test_wilcoxon_matches_scipy_for_every_option():
    checked = 0
    for case in EXPECTED["wilcoxon"]:
        x, y = SAMPLES[case["name"]]
        if np.array_equal(x, y):
            continue
        p = one_pair(
            x,
            y,
            test="wilcoxon",
            zero_method=case["zero_method"],
            continuity=case["correction"],
            wilcoxon_method=case["method"],
            alternative=case["alternative"],
        )
        what = f"{case['name']} {case['zero_method']} {case['method']} {case['alternative']}"
        assert close(p.statistic, num(case["statistic"])), what
        assert close_p(p.pvalue, num(case["p"])), what
        z = num(case["z"])
        if not math.isnan(z):
            assert close(p.method["z"], z), what
        checked += 1
    assert checked > 1000


def test_exact_randomisation_matches_scipys_permutation_test():
    for case in EXPECTED["randomisation"]:
        x, y = SAMPLES[case["name"]]
        p = one_pair(x, y, test="randomisation", exact_up_to=16, alternative=case["alternative"])
        assert p.method == {"name": "exact", "assignments": 2 ** len(x)}
        assert close(p.pvalue, num(case["p_ties"]), 1e-300), case["name"]
        assert close(p.statistic, num(case["statistic"])), case["name"]


def test_monte_carlo_randomisation_is_never_zero_and_seeded():
    x, y = SAMPLES["continuous n=120"]
    a = one_pair(x + 10.0, y, resamples=999, seed=3, alternative="greater")
    b = one_pair(x + 10.0, y, resamples=999, seed=3, alternative="greater", threads=1)
    assert a == b
    assert a.method["name"] == "monte-carlo" and a.method["replicates"] == 999
    # No random flip reaches the observed mean: (0 + 1)/(999 + 1), not 0.
    assert a.pvalue == 1.0 / 1000.0
    assert one_pair(x + 10.0, y, resamples=999, seed=3).pvalue == 2.0 / 1000.0


def test_friedman_matches_the_reference_and_scipy():
    checked = 0
    for case in EXPECTED["friedman"]:
        table = np.array(case["table"], dtype=float)
        f = acm.friedman(table)
        what = f"{case['kind']} {table.shape}"
        assert f.average_ranks.tolist() == [num(r) for r in case["average_ranks"]], what
        assert close(f.tie_correction, num(case["tie_correction"])), what
        if "p" not in case:
            continue  # every unit tied: no statistic in the reference
        assert close(f.statistic, num(case["statistic"])), what
        assert close_p(f.pvalue, num(case["p"])), what
        assert close(f.ln_pvalue, num(case["ln_p"])), what
        if "scipy_statistic" in case and table.shape[0] >= 2:
            s = scipy.stats.friedmanchisquare(*table.T)
            assert abs(f.statistic - s.statistic) <= 1e-9 * max(1.0, s.statistic), what
        checked += 1
    assert checked >= 15


def test_friedman_by_hand():
    # Demsar's arithmetic: three systems on four data sets.
    t = {
        "a": [0.90, 0.80, 0.85, 0.70],
        "b": [0.85, 0.75, 0.80, 0.72],
        "c": [0.60, 0.65, 0.70, 0.50],
    }
    f = acm.friedman(t)
    assert f.systems == ["a", "b", "c"]
    assert f.average_ranks.tolist() == [1.25, 1.75, 3.0]
    assert close(f.statistic, 6.5)
    assert f.groups == [[0, 1], [1, 2]]
    assert close(f.critical_difference, f.q_alpha * math.sqrt(3 * 4 / (6 * 4)))
    assert f.to_dict()["average_ranks"] == [1.25, 1.75, 3.0]


def runs():
    rng = np.random.default_rng(7)
    n = 30
    base = rng.random(n)
    out = {}
    for name, shift in (("bm25", 0.0), ("dense", 0.15), ("hybrid", 0.16)):
        ap = np.clip(base + shift + rng.normal(0, 0.05, n), 0, 1)
        p10 = np.clip(base * 0.8 + shift + rng.normal(0, 0.05, n), 0, 1)
        out[name] = {f"q{i}": {"map": float(ap[i]), "P_10": float(p10[i])} for i in range(n)}
    return out


def test_relevance_results_one_comparison_per_measure():
    r = runs()
    c = acm.compare(r, test="t", correction="holm")
    assert c.systems == ["bm25", "dense", "hybrid"]
    assert c.measures == ["map", "P_10"]
    assert len(c.pairs) == 6
    # Each measure's comparison equals the matrix comparison of its values,
    # p-values corrected over all six pairs together.
    raw = []
    for m in c.measures:
        matrix = np.array([[r[s][f"q{i}"][m] for s in c.systems] for i in range(30)])
        single = acm.compare(matrix, names=c.systems, test="t", correction="none")
        for p in single.pairs:
            ours = c.pair(p.a, p.b, m)
            assert ours.difference == p.difference and ours.pvalue == p.pvalue
            assert ours.low == p.low and ours.high == p.high
            raw.append(p.pvalue)
        for e in single.estimates:
            assert c.estimate(e.name, m).estimate == e.estimate
    _, holm, _, _ = acm.multipletests(raw, method="holm")
    assert [p.adjusted_pvalue for p in c.pairs] == holm.tolist()
    separate = acm.compare(r, test="t", joint=False)
    assert (
        separate.pair("bm25", "dense", "map").adjusted_pvalue
        <= c.pair("bm25", "dense", "map").adjusted_pvalue
    )


def test_relevance_results_from_the_evaluator(tmp_path):
    qrel = {f"q{i}": {f"d{j}": int(j < 3) for j in range(6)} for i in range(12)}
    rng = np.random.default_rng(1)
    ev = acm.RelevanceEvaluator(qrel, {"map", "ndcg_cut"})
    results = {}
    for name in ("a", "b"):
        run = {q: {f"d{j}": float(rng.random()) for j in range(6)} for q in qrel}
        results[name] = ev.evaluate(run)
    c = acm.compare(results, measures=["map", "ndcg_cut_10"], test="randomisation")
    assert c.measures == ["map", "ndcg_cut_10"]
    means = [np.mean([v["map"] for v in results[s].values()]) for s in ("a", "b")]
    assert [c.estimate(s, "map").estimate for s in ("a", "b")] == pytest.approx(means, abs=1e-15)
    assert c.pairs[0].method == {"name": "exact", "assignments": 2**12}


def test_a_query_missing_from_one_run_is_an_error_unless_common():
    r = runs()
    del r["dense"]["q3"]
    with pytest.raises(acm.InputError, match=r'"dense" has no score for unit "q3".*-c'):
        acm.compare(r)
    c = acm.compare(r, missing="common", test="t")
    assert c.units == {"map": 29, "P_10": 29}


def test_baseline_compares_each_system_with_it():
    r = runs()
    c = acm.compare(r, baseline="bm25", measures=["map"], test="t")
    assert [(p.a, p.b) for p in c.pairs] == [("dense", "bm25"), ("hybrid", "bm25")]
    assert acm.compare(r, baseline=0, measures=["map"], test="t").pairs == c.pairs
    with pytest.raises(acm.InputError, match="baseline"):
        acm.compare(r, baseline="bm26")
    with pytest.raises(acm.InputError, match="out of range"):
        acm.compare(r, baseline=3)


def test_coefficients_against_human_scores():
    rng = np.random.default_rng(5)
    h = rng.normal(size=60)
    models = {"good": h + rng.normal(0, 0.3, 60), "poor": h + rng.normal(0, 2.0, 60)}
    c = acm.compare(models, h, statistic="spearman", resamples=999, seed=1)
    assert c.measures == ["spearman"] and c.statistic == "coefficient"
    rho = {k: acm.spearmanr(h, v).statistic for k, v in models.items()}
    for k, v in rho.items():
        assert close(c.estimate(k).estimate, v)
    p = c.pair("good", "poor")
    assert close(p.difference, rho["good"] - rho["poor"])
    assert p.reject and p.low < p.difference < p.high
    assert p.cohens_dz is None and p.wins is None
    # Several statistics, corrected together; a list of vectors or a matrix.
    both = acm.compare(
        np.column_stack(list(models.values())),
        h,
        names=["good", "poor"],
        statistic=["spearman", "rho_w"],
        resamples=999,
        seed=1,
    )
    assert both.measures == ["spearman", "rho_w"]
    assert both.pair("good", "poor", "spearman").pvalue == p.pvalue
    assert close(both.estimate("good", "rho_w").estimate, acm.rho_w(h, models["good"]).statistic)


def test_word_pairs_reports_on_several_benchmarks(tmp_path):
    rng = np.random.default_rng(11)
    words = [f"w{i}" for i in range(40)]
    vectors = {w: rng.normal(size=8).astype(np.float32) for w in words}
    benches = []
    for b in range(3):
        lines = []
        for _ in range(25):
            w1, w2 = rng.choice(words, 2, replace=False)
            cos = float(
                np.dot(vectors[w1], vectors[w2])
                / np.linalg.norm(vectors[w1])
                / np.linalg.norm(vectors[w2])
            )
            lines.append(f"{w1}\t{w2}\t{cos * 5 + rng.normal(0, 0.5 + b):.3f}")
        path = tmp_path / f"bench{b}.txt"
        path.write_text("\n".join(lines) + "\n")
        benches.append(str(path))
    noisy = {w: v + rng.normal(0, 1.0, 8).astype(np.float32) for w, v in vectors.items()}
    reports = {
        name: [acm.evaluate_word_pairs(model, b) for b in benches]
        for name, model in (("clean", vectors), ("noisy", noisy), ("raw", dict(vectors)))
    }
    c = acm.compare(reports, statistic="spearman", resamples=499, seed=2)
    assert c.measures == [Path(b).name for b in benches] and c.systems == ["clean", "noisy", "raw"]
    for name, rs in reports.items():
        for b, r in zip(benches, rs, strict=True):
            assert close(c.estimate(name, Path(b).name).estimate, r[1].statistic)
    assert isinstance(c.friedman, acm.FriedmanResult)
    assert c.friedman.units == 3 and c.friedman.systems == c.systems
    # clean and raw are the same vectors: ranks tie.
    assert c.friedman.average_ranks[0] == c.friedman.average_ranks[2]
    assert "clean" in c.to_markdown()


def test_word_pairs_with_unknown_words_need_common(tmp_path):
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(20)]
    vecs = {w: rng.normal(size=4) for w in words}
    lacking = {w: v for w, v in vecs.items() if w != "w0"}
    text = "w0\tw1\t1.0\n" + "".join(f"w{i}\tw{i + 1}\t{i % 7}\n" for i in range(1, 15))
    path = tmp_path / "bench.txt"
    path.write_text(text)
    bench = acm.read_word_pairs(str(path))
    reports = {
        "full": acm.evaluate_word_pairs(vecs, bench),
        "lacking": acm.evaluate_word_pairs(lacking, bench),
    }
    with pytest.raises(acm.InputError, match="'lacking' has no similarity for pair 1"):
        acm.compare(reports)
    c = acm.compare(reports, missing="common", resamples=99)
    assert c.units[c.measures[0]] == 14


def test_result_renders_and_converts():
    r = runs()
    c = acm.compare(r, test="t")
    md = c.to_markdown()
    assert md.splitlines()[0].startswith("|") and "bm25" in md
    assert "\\begin{tabular}" in c.to_latex(table="pairs")
    assert "hybrid" in str(c)
    d = c.to_dict()
    json.dumps(d)
    assert d["measures"] == ["map", "P_10"] and len(d["pairs"]) == 6
    assert d["pairs"][0]["pvalue"] == c.pairs[0].pvalue
    with pytest.raises(acm.InputError):
        c.to_markdown(table="nope")
    with pytest.raises(acm.InputError, match="name the measure"):
        c.pair("bm25", "dense")


def test_to_pandas_needs_pandas(monkeypatch):
    c = acm.compare(runs(), test="t")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        c.to_pandas()


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    c = acm.compare(runs(), test="t")
    df = c.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 6
    assert df["pvalue"].tolist() == [p.pvalue for p in c.pairs]
    assert len(c.to_pandas("systems")) == 6
    frame = pd.DataFrame({"a": [0.1, 0.4, 0.3], "b": [0.2, 0.5, 0.6]}, index=["q1", "q2", "q3"])
    assert acm.compare(frame, test="t").systems == ["a", "b"]


@pytest.mark.parametrize(
    ("data", "kwargs", "match"),
    [
        (np.ones((5, 1)), {}, "too few systems"),
        (np.array([[0.1, 0.2], [np.nan, 0.3]]), {}, "NaN|finite"),
        (np.ones((5, 2)), {"alpha": 1.5}, "alpha"),
        (np.ones((5, 2)), {"level": 0.0}, "level"),
        (np.ones((5, 2)), {"test": "z"}, "test"),
        (np.ones((5, 2)), {"correction": "lfdr"}, "fdr_bh"),
        (np.ones((30, 2)), {"resamples": 10**12}, "permutations|too"),
        (np.ones((5, 2)), {"missing": "zero"}, "missing"),
        (np.ones((5, 3)), {"names": ["a", "b"]}, "3 columns"),
        (np.ones((5, 2)), {"names": ["a", "a"]}, "two systems are named"),
    ],
)
def test_bad_input_is_an_input_error(data, kwargs, match):
    with pytest.raises(acm.InputError, match=match):
        acm.compare(data, **kwargs)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        acm.compare(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(TypeError):
        acm.compare(np.ones((4, 2)), seed="x")
    with pytest.raises(TypeError):
        acm.compare(np.ones((4, 2)), baseline=1.5)
