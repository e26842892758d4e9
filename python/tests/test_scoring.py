"""Lexical substitution against an independent model of score.pl and hand
values; triplets against an independent NumPy implementation."""

import os

import numpy as np
import pytest

import adaptive_comp_metrics as acm

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data")
LEX = os.path.join(ROOT, "lexsub")
TRI = os.path.join(ROOT, "triplet")


def test_score_pl_matches_the_model():
    expected = {}
    with open(os.path.join(LEX, "score_pl_model.out")) as f:
        lines = f.read().splitlines()
    for line in lines:
        f = line.lstrip("# ").split()
        expected[f[0]] = [float(v) for v in f[1:]]
    for name, (p, r, mp, mr) in expected.items():
        fmt = "oot" if name.endswith(".oot") else "best"
        s = acm.lexsub_score(
            os.path.join(LEX, "gold.txt"), os.path.join(LEX, name), format=fmt, score_pl=True
        )
        got = [
            100 * s.scores.precision,
            100 * s.scores.recall,
            100 * s.mode.precision,
            100 * s.mode.recall,
        ]
        assert np.allclose(got, [p, r, mp, mr], atol=0.005), (name, got)


def test_corrected_scorer_by_hand(tmp_path):
    (tmp_path / "g").write_text("bright.a 1 :: intelligent 3;clever 2;smart 1;\n")
    (tmp_path / "s").write_text("bright.a 1 :: intelligent;clever\n")
    s = acm.lexsub_score(tmp_path / "g", tmp_path / "s")
    assert abs(s.measures["best"].precision - 5 / 12) < 1e-15  # (3 + 2)/(6 * 2)
    assert set(s.measures) >= {"best", "oot", "gap", "new_best", "rank"}
    (tmp_path / "s").write_text("bright.a 1 intelligent\n")
    with pytest.raises(ValueError, match="1"):
        acm.lexsub_score(tmp_path / "g", tmp_path / "s")
    assert acm.lexsub_score(tmp_path / "g", tmp_path / "s", lenient=True).skipped


def test_triplets_match_numpy_reference():
    want = {}
    with open(os.path.join(TRI, "sample_scores.txt")) as f:
        lines = f.read().splitlines()
    for line in lines:
        f = line.split()
        if f[0] == "f64":
            want[(f[1], f[2])] = float(f[3])
    policies = {"half": "half_credit", "second": "choose_second", "skip": "skip"}
    for (policy, kind), value in want.items():
        s = acm.triplet_score(
            os.path.join(TRI, "sample.txt"), os.path.join(TRI, "sample.vec"), ties=policies[policy]
        )
        got = getattr(s, "overall" if kind == "all" else kind).score
        assert abs(got - value) < 1e-12, (policy, kind, got, value)
    # The same vectors given as a dict.
    vec = {}
    with open(os.path.join(TRI, "sample.vec")) as f:
        rows = f.read().splitlines()[1:]
    for line in rows:
        w, *v = line.split()
        vec[w] = np.array(v, dtype=float)
    s = acm.triplet_score(os.path.join(TRI, "sample.txt"), vec)
    assert abs(s.overall.score - want[("half", "all")]) < 1e-12
