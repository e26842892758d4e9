"""RelevanceEvaluator and the TREC readers against pytrec_eval on generated data."""

import io
import pickle

import numpy as np
import pytest
import pytrec_eval

import adaptive_comp_metrics as acm

MEASURES = {
    "map",
    "P",
    "Rprec",
    "recip_rank",
    "ndcg",
    "ndcg_cut",
    "num_ret",
    "num_rel",
    "num_rel_ret",
}


def generate(seed, queries=60, docs=40):
    """Qrels and a run with ties, unjudged documents, negative grades and
    queries on one side only (none all negative: pytrec_eval crashes there)."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(queries):
        ids = [f"D{d}" for d in rng.choice(500, size=docs + docs // 2, replace=False)]
        qid = f"q{q}"
        if q % 7 != 3:  # a few queries are not judged
            grades = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=docs)
            grades[0] = 1
            qrels[qid] = {d: int(g) for d, g in zip(ids[docs // 2 :], grades, strict=False)}
        if q % 11 != 5:  # a few are not ranked
            scores = np.round(rng.random(docs) * 4, 1)  # many ties
            run[qid] = {d: float(s) for d, s in zip(ids[:docs], scores, strict=False)}
    return qrels, run


def as_files(qrels, run):
    q = "".join(f"{qid} 0 {d} {g}\n" for qid, ds in qrels.items() for d, g in ds.items())
    r = "".join(
        f"{qid} Q0 {d} {i} {s} tag\n"
        for qid, ds in run.items()
        for i, (d, s) in enumerate(ds.items(), start=1)
    )
    return q, r


def assert_same_values(ours, theirs):
    """The same queries, measures and values (to 1e-12) in both evaluations."""
    assert ours.keys() == theirs.keys()
    for q in theirs:
        assert ours[q].keys() == theirs[q].keys(), (q, set(ours[q]) ^ set(theirs[q]))
        for m, v in theirs[q].items():
            assert abs(ours[q][m] - v) <= 1e-12, (q, m, ours[q][m], v)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("relevance_level", [1, 2])
def test_evaluate_matches_pytrec_eval(seed, relevance_level):
    qrels, run = generate(seed)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, relevance_level).evaluate(run)
    ours = acm.RelevanceEvaluator(qrels, MEASURES, relevance_level).evaluate(run)
    assert_same_values(ours, theirs)
    # The same from files, read by the library.
    q_text, r_text = as_files(qrels, run)
    from_files = acm.RelevanceEvaluator(io.StringIO(q_text), MEASURES, relevance_level)
    assert from_files.evaluate(io.StringIO(r_text)) == ours


NEW_MEASURES = {
    "gm_map",
    "bpref",
    "iprec_at_recall",
    "recall",
    "success",
    "map_cut",
    "num_q",
    "runid",
    "official",
    "P",
}


def generate_float_ties(seed, queries=40, docs=30):
    """Like ``generate``, with scores equal as C floats but not as doubles
    (where trec_eval 9 / pytrec_eval and 10.0 rank differently)."""
    rng = np.random.default_rng(seed)
    qrels, run = generate(seed, queries, docs)
    pool = [0.3, 0.30000000000000004, 1.0, 1.0 + 1e-9, 1.0 - 1e-12, 2.5, -1.0, -1.0 + 1e-10]
    for docs_scores in run.values():
        for d in docs_scores:
            if rng.random() < 0.5:
                docs_scores[d] = float(rng.choice(pool))
    return qrels, run


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("relevance_level", [1, 2])
def test_official_and_new_measures_match_pytrec_eval(seed, relevance_level):
    # pytrec_eval builds on trec_eval 9's code: trec_eval_version="9".
    qrels, run = generate_float_ties(seed)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, NEW_MEASURES, relevance_level).evaluate(run)
    ours = acm.RelevanceEvaluator(
        qrels, NEW_MEASURES, relevance_level, trec_eval_version="9"
    ).evaluate(run)
    assert_same_values(ours, theirs)
    # The aggregate as pytrec_eval computes it (gm_map: exp of the mean).
    for m in ("gm_map", "bpref", "iprec_at_recall_0.50", "map_cut_10"):
        mine = pytrec_eval.compute_aggregated_measure(m, [ours[q][m] for q in ours])
        want = pytrec_eval.compute_aggregated_measure(m, [theirs[q][m] for q in theirs])
        assert abs(mine - want) <= 1e-12, m
    # trec_eval 10.0 (the default) ranks float-equal scores by their
    # doubles: values differ from pytrec_eval's on these data.
    ten = acm.RelevanceEvaluator(qrels, NEW_MEASURES, relevance_level).evaluate(run)
    assert any(ten[q]["map"] != theirs[q]["map"] for q in theirs)


def test_scores_as_c_floats_or_doubles():
    # Issue 24 item 4: MAP 1.0 (floats: a tie, "y" wins) against 0.5.
    qrels = {"a": {"x": 0, "y": 1}}
    run = {"a": {"x": 0.30000000000000004, "y": 0.3}}
    assert pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)["a"]["map"] == 1.0
    nine = acm.RelevanceEvaluator(qrels, {"map"}, trec_eval_version="9")
    assert nine.evaluate(run)["a"]["map"] == 1.0
    assert acm.RelevanceEvaluator(qrels, {"map"}).evaluate(run)["a"]["map"] == 0.5
    assert pickle.loads(pickle.dumps(nine)).evaluate(run)["a"]["map"] == 1.0
    with pytest.raises(ValueError, match="trec_eval_version must be one of '10', '9'"):
        acm.RelevanceEvaluator(qrels, {"map"}, trec_eval_version="8")


def test_blank_lines_and_syntax():
    text = "q 0 d 1\n\nq 0 e 0\n"
    with pytest.raises(ValueError):
        pytrec_eval.parse_qrel(io.StringIO(text))
    with pytest.raises(ValueError, match="line 2, column 1: blank line"):
        acm.parse_qrel(io.StringIO(text), syntax="trec_eval")
    assert acm.parse_qrel(io.StringIO(text)) == {"q": {"d": 1, "e": 0}}
    run = "q Q0 d 1 0.5 r extra\n\nq Q0 e 2 0.4 r\n"
    assert acm.parse_run(io.StringIO(run), syntax="trec_eval") == {"q": {"d": 0.5, "e": 0.4}}
    with pytest.raises(ValueError, match="line 1: expected 6 fields"):
        acm.parse_run(io.StringIO(run))
    with pytest.raises(ValueError, match="syntax must be one of"):
        acm.parse_run(io.StringIO(run), syntax="strict")


def test_judged_docs_only_matches_pytrec_eval():
    qrels, run = generate(9)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_5"}, 1, True).evaluate(run)
    ours = acm.RelevanceEvaluator(qrels, {"map", "P_5"}, 1, True).evaluate(run)
    for q in theirs:
        for m, v in theirs[q].items():
            assert abs(ours[q][m] - v) <= 1e-12


def test_readers_match_pytrec_eval(tmp_path):
    qrels, run = generate(3)
    q_text, r_text = as_files(qrels, run)
    (tmp_path / "q").write_text(q_text)
    (tmp_path / "r").write_text(r_text)
    assert acm.parse_qrel(str(tmp_path / "q")) == pytrec_eval.parse_qrel(io.StringIO(q_text))
    assert acm.parse_run(tmp_path / "r") == pytrec_eval.parse_run(io.StringIO(r_text))
    with open(tmp_path / "q") as f:
        assert acm.parse_qrel(f) == qrels


def test_measure_families_and_pickle():
    qrels, run = generate(5, queries=5)
    e = acm.RelevanceEvaluator(qrels, {"P.5,10", "ndcg_cut.3", "map"})
    assert set(e.measures) == {"P_5", "P_10", "ndcg_cut_3", "map"}
    again = pickle.loads(pickle.dumps(e))
    assert again.evaluate(run) == e.evaluate(run)


def test_bad_inputs():
    with pytest.raises(ValueError, match="measure"):
        acm.RelevanceEvaluator({"q": {"d": 1}}, {"no_such_measure"})
    with pytest.raises(ValueError, match="no tie-aware expectation"):
        acm.RelevanceEvaluator({"q": {"d": 1}}, {"gm_map"}, ties="expected").evaluate(
            {"q": {"d": 1.0}}
        )
    with pytest.raises(TypeError):
        acm.RelevanceEvaluator({"q": {"d": "x"}}, {"map"})
    e = acm.RelevanceEvaluator({"q": {"d": 1}}, {"map"})
    with pytest.raises(ValueError, match="NaN"):
        e.evaluate({"q": {"d": float("nan")}})
    with pytest.raises(ValueError, match="line 2"):
        acm.parse_qrel(io.StringIO("q 0 d 1\nq 0 e\n"))
    with pytest.raises(OSError):
        acm.parse_run("/nonexistent/run.txt")
