"""pytrec_eval's API as a drop-in: the module-level names, the measure
spellings and nicknames it accepts, and its handling of empty inputs, each
checked against pytrec_eval (pytrec-eval-terrier) side by side."""

import math
import re
import warnings

import numpy as np
import pytest
import pytrec_eval

import adaptive_comp_metrics as acm

QREL = {"q1": {"d1": 0, "d2": 1, "d3": 0}, "q2": {"d2": 1, "d3": 1}}
RUN = {"q1": {"d1": 1.0, "d2": 0.0, "d3": 1.5}, "q2": {}}


def both(qrel, measures, run, **kwargs):
    """pytrec_eval's result and ours (trec_eval 9's arithmetic, as pytrec_eval's)."""
    theirs = pytrec_eval.RelevanceEvaluator(qrel, measures, **kwargs).evaluate(run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = acm.RelevanceEvaluator(qrel, measures, trec_eval_version="9", **kwargs)
    return theirs, ours.evaluate(run)


def computed_here(names):
    """The names whose measure (``P`` of ``P_5``) is computed here, in order."""
    root = re.compile(r"^(.*?)(_[0-9.]+)?$")
    return [n for n in names if root.match(n).group(1) in acm.supported_measures]


def test_supported_measures_are_pytrec_evals_names_computed_here():
    assert isinstance(acm.supported_measures, frozenset)
    # All of trec_eval 9's measures, as pytrec_eval lists them.
    assert acm.supported_measures == set(pytrec_eval.supported_measures)
    # Each one alone evaluates, with the keys pytrec_eval gives.
    for m in sorted(acm.supported_measures):
        theirs, ours = both(QREL, {m}, RUN)
        assert list(ours["q1"]) == list(theirs["q1"]), m


def test_supported_nicknames_hold_the_measures_computed_here():
    assert set(acm.supported_nicknames) == {"official", "set", "all_trec"}
    assert acm.supported_nicknames["official"] == pytrec_eval.supported_nicknames["official"]
    for name, measures in acm.supported_nicknames.items():
        assert measures == pytrec_eval.supported_nicknames[name]


def test_compute_aggregated_measure_matches_pytrec_eval():
    rng = np.random.default_rng(7)
    values = list(rng.random(50))
    logs = list(np.log(np.maximum(rng.random(50), 1e-5)))
    for measure, v in [("map", values), ("num_rel", [3.0, 4.0, 0.0]), ("gm_map", logs)]:
        want = pytrec_eval.compute_aggregated_measure(measure, v)
        got = acm.compute_aggregated_measure(measure, v)
        assert math.isclose(got, want, rel_tol=1e-14), measure
    assert acm.compute_aggregated_measure("num_q", [1.0, 1.0]) == 2.0
    assert acm.compute_aggregated_measure("gm_map", [math.log(0.5), math.log(0.125)]) == 0.25
    # The mean of a whole evaluation, as trec_eval's summary line.
    result = acm.RelevanceEvaluator(QREL, {"map"}).evaluate(RUN)
    assert acm.compute_aggregated_measure("map", [r["map"] for r in result.values()]) == (
        pytest.approx(1 / 6)
    )


@pytest.mark.parametrize("nickname", ["set", "all_trec", "official"])
def test_nicknames_give_pytrec_evals_values_for_the_measures_computed(nickname):
    run = {"q1": RUN["q1"], "q2": {"d3": 0.5, "d4": 0.7}}
    theirs, ours = both(QREL, {nickname}, run)
    assert ours.keys() == theirs.keys()
    for q in theirs:
        computed = computed_here(theirs[q])
        # Every measure computed here, in pytrec_eval's order.
        assert list(ours[q]) == computed, q
        assert ours[q].keys() >= {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret"}
        for m in computed:
            assert ours[q][m] == pytest.approx(theirs[q][m], abs=1e-12), (q, m)
    # Computed whole, without a warning (trec_eval 10.0's unj, rbp and
    # rbp_resid are not in pytrec_eval's all_trec).
    assert list(ours["q1"]) == list(theirs["q1"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        acm.RelevanceEvaluator(QREL, {nickname})


def test_nicknames_join_other_measures():
    theirs, ours = both(QREL, {"official", "set", "ndcg"}, RUN)
    assert list(ours["q1"]) == computed_here(theirs["q1"])
    assert "ndcg" in ours["q1"] and "set_F" in ours["q1"]


def test_cut_off_spellings_of_pytrec_eval():
    # pytrec_eval's test_measure_params: `_` or `.` before the cut-offs, the
    # cut-offs of a family joined, a family alone only where none is given.
    measures = ["ndcg_cut", "ndcg_cut.1,4", "ndcg_cut_20,4", "ndcg_cut_15", "recall.1000", "P"]
    theirs, ours = both(QREL, measures, RUN)
    want = {"ndcg_cut_1", "ndcg_cut_4", "ndcg_cut_15", "ndcg_cut_20", "recall_1000"}
    want |= {f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)}
    assert set(ours["q1"]) == set(theirs["q1"]) == want
    assert ours == theirs
    # A nickname's P counts only when no cut-off of P is named.
    theirs, ours = both(QREL, {"official", "P.7"}, RUN)
    assert [m for m in ours["q1"] if m.startswith("P_")] == ["P_7"]
    assert list(ours["q1"]) == list(theirs["q1"])
    for spelling in ["P_5", "P.5", "P.05", "P.5,5"]:
        theirs, ours = both(QREL, {spelling}, RUN)
        assert ours == theirs == {"q1": {"P_5": 0.2}, "q2": {"P_5": 0.0}}, spelling
    theirs, ours = both(QREL, {"iprec_at_recall_0.25,1"}, RUN)
    assert ours == theirs


def test_names_pytrec_eval_reads_in_part_or_crashes_on_are_errors():
    for bad in [
        "P_5x",
        "P.1.5",
        "P.0",
        "ndcg.1",
        "P.",
        "P_",
        "rbp",
        "unj",
        "set_F.0.5",
        "G.1=3.5",
        "11pt_avg.0.2,0.5",
        "utility.1,-1,0,0",
        "bogus",
    ]:
        with pytest.raises(ValueError, match=r"measure|cut-offs"):
            acm.RelevanceEvaluator(QREL, {bad})


def test_a_query_of_the_run_without_documents_scores_zero():
    # The example: pytrec_eval scores q2 (judged, in the run with no
    # documents) as an empty ranking; the mean over the results is then 1/6.
    theirs, ours = both(QREL, {"map"}, RUN)
    assert theirs == {"q1": {"map": pytest.approx(1 / 3)}, "q2": {"map": 0.0}}
    assert ours == theirs
    mean = np.mean([r["map"] for r in ours.values()])
    assert mean == pytest.approx(1 / 6)
    # Every measure of such a query is pytrec_eval's (trec_eval's zeros),
    # but iprec_at_recall_0.00, uninitialised in pytrec_eval.
    theirs, ours = both(QREL, {"official", "ndcg_cut", "recall", "success"}, RUN)
    for m, v in theirs["q2"].items():
        if m != "iprec_at_recall_0.00":
            assert ours["q2"][m] == v, m
    assert ours["q2"]["iprec_at_recall_0.00"] == 0.0
    assert ours["q2"]["num_rel"] == 2.0 and ours["q2"]["gm_map"] == math.log(1e-5)
    # Only the empty queries that are judged; a judged query absent from
    # the run stays out, as in pytrec_eval.
    run = {"q1": {"d1": 1.0}, "q9": {}}
    theirs, ours = both(QREL, {"map"}, run)
    assert ours == theirs == {"q1": {"map": 0.0}}
    # complete=True still scores every judged query.
    e = acm.RelevanceEvaluator(QREL, {"num_q"}, complete=True)
    assert e.evaluate({"q1": {"d1": 1.0}}) == {"q1": {"num_q": 1.0}, "q2": {"num_q": 1.0}}


def test_empty_inputs_as_pytrec_eval():
    # pytrec_eval's test_empty, case by case.
    for qrel, measures, run in [
        (QREL, {"map", "ndcg"}, {}),
        (QREL, set(), RUN),
        ({}, {"map", "ndcg"}, RUN),
        ({}, {"map", "ndcg"}, {}),
        (QREL, set(), {}),
        ({}, set(), RUN),
    ]:
        theirs, ours = both(qrel, measures, run)
        assert ours == theirs, (qrel, measures, run)
    assert acm.RelevanceEvaluator(QREL, set()).evaluate(RUN) == {"q1": {}, "q2": {}}
    assert acm.RelevanceEvaluator(QREL, set()).measures == []


@pytest.mark.parametrize("bad", [None, 3, b"map"])
def test_a_measure_that_is_not_a_string_is_a_type_error_naming_it(bad):
    # pytrec_eval's own test passes None for a name it cannot match; both
    # raise TypeError, ours saying which element.
    with pytest.raises(TypeError):
        pytrec_eval.RelevanceEvaluator(QREL, {"map", bad})
    with pytest.raises(
        TypeError, match=r"measures must be strings, got \w+ \(" + re.escape(repr(bad))
    ):
        acm.RelevanceEvaluator(QREL, {"map", bad})


def big(queries=40, docs=1000, seed=3):
    """Dicts of 40 000 entries: read on two threads when ACM_THREADS allows."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(queries):
        names = [f"d{d}" for d in rng.choice(10 * docs, size=docs, replace=False)]
        qrels[f"q{q}"] = {
            d: int(g) for d, g in zip(names[::2], rng.integers(-1, 4, docs), strict=False)
        }
        run[f"q{q}"] = {
            d: float(s) for d, s in zip(names, np.round(rng.random(docs), 2), strict=False)
        }
    run["q7"] = {}
    return qrels, run


@pytest.mark.parametrize("threads", ["1", "2"])
def test_large_dicts_read_the_same_on_one_and_two_threads(monkeypatch, threads):
    qrels, run = big()
    monkeypatch.setenv("ACM_THREADS", threads)
    ours = acm.RelevanceEvaluator(qrels, {"official", "ndcg_cut"}, trec_eval_version="9")
    got = ours.evaluate(run)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"official", "ndcg_cut"}).evaluate(run)
    assert got.keys() == theirs.keys()
    for q in theirs:
        for m, v in theirs[q].items():
            if not (q == "q7" and m == "iprec_at_recall_0.00"):
                assert got[q][m] == pytest.approx(v, abs=1e-12), (q, m)
    # The first bad entry in the dicts' order is the error, whichever half
    # of the reading meets it.
    bad = {q: dict(d) for q, d in run.items()}
    bad["q30"]["d_nan"] = float("nan")
    bad["q35"][7] = 1.0
    with pytest.raises(ValueError, match=r"run\['q30'\]\['d_nan'\]: score\[.*\] is NaN"):
        ours.evaluate(bad)
    del bad["q30"]["d_nan"]
    with pytest.raises(TypeError, match=r"run\['q35'\]: document ids must be strings"):
        ours.evaluate(bad)
    bad_qrels = {q: dict(d) for q, d in qrels.items()}
    bad_qrels["q39"]["x"] = "2"
    with pytest.raises(TypeError, match=r"qrels\['q39'\]\['x'\] must be an integer grade"):
        acm.RelevanceEvaluator(bad_qrels, {"map"})


def test_set_measures_against_pytrec_eval_and_without_tie_order():
    from test_trec import generate

    qrels, run = generate(11)
    measures = {"set", "num_nonrel_judged_ret"}
    theirs, ours = both(qrels, measures, run)
    assert ours.keys() == theirs.keys()
    for q in theirs:
        assert list(ours[q]) == list(theirs[q]), q
        for m, v in theirs[q].items():
            assert ours[q][m] == pytest.approx(v, abs=1e-12), (q, m)
    # Sets do not depend on the order of ties: the expectation is the value.
    expected = acm.RelevanceEvaluator(qrels, measures, ties="expected").evaluate(run)
    assert expected == acm.RelevanceEvaluator(qrels, measures).evaluate(run)


def random_judgements(seed):
    """Qrels and a run with what trec_eval's measures treat apart: grades
    0-3 and -1 (in the pool, unjudged), documents ranked but never judged,
    tied scores, a query without relevant documents, one the run ranks
    nothing for and one the run lacks."""
    rng = np.random.default_rng(seed)
    qrel, run = {}, {}
    for q in range(30):
        docs = [f"d{i}" for i in rng.permutation(80)[:40]]
        judged = docs[: rng.integers(1, 25)]
        grades = [-1, 0, 0, 0, 1, 1, 2, 3] if q % 7 else [0, 0, -1]
        qrel[f"q{q}"] = {d: int(rng.choice(grades)) for d in judged}
        if max(qrel[f"q{q}"].values()) < 0:
            qrel[f"q{q}"][judged[0]] = 0  # all negative: pytrec_eval crashes
        if q == 5:
            continue
        ranked = docs[: rng.integers(0, 40)] if q != 9 else []
        run[f"q{q}"] = {d: float(rng.integers(0, 8)) / 2 for d in ranked}
    return qrel, run


@pytest.mark.parametrize("level", [1, 2])
def test_all_trec_values_are_pytrec_evals(level):
    # pytrec_eval's tests compare every measure of trec_eval's all-measures
    # output (out.test.aql, relevance level 2) to 3 places; here each
    # per-query value of all_trec, on data with every case apart.
    qrel, run = random_judgements(level)
    theirs, ours = both(qrel, {"all_trec"}, run, relevance_level=level)
    assert ours.keys() == theirs.keys()
    for q in theirs:
        assert list(ours[q]) == list(theirs[q]), q
        for m, want in theirs[q].items():
            if math.isnan(want):
                # pytrec_eval's 0/0 (11pt_avg) or uninitialised values
                # (iprec_at_recall) for a query without retrieved
                # documents: 0 here (documented).
                assert not run[q] and m.startswith(("11pt_avg", "iprec_at_recall_")), (q, m)
                assert ours[q][m] == 0.0
                continue
            assert ours[q][m] == pytest.approx(want, abs=1e-12), (q, m)
    # The summaries (gm_bpref's a geometric mean).
    for m in ["gm_bpref", "infAP", "Rndcg", "G", "relative_P_5", "Rprec_mult_2.00"]:
        want = pytrec_eval.compute_aggregated_measure(m, [r[m] for r in theirs.values()])
        got = acm.compute_aggregated_measure(m, [r[m] for r in ours.values()])
        assert got == pytest.approx(want, rel=1e-12), m
