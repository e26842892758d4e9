"""evaluate_word_pairs against gensim's on the repository's word-similarity
test files and on generated vectors (gensim's float32 cosines: 1e-6)."""

import os
import pickle

import numpy as np
import pytest
from gensim.models import KeyedVectors

import adaptive_comp_metrics as acm

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "wordsim")

CASES = [
    ("gen-a.vec", "gen-pairs.tsv", False, 300000),
    ("gen-b.bin", "gen-pairs.tsv", False, 300000),
    ("gen-a.vec", "gen-pairs.tsv", False, 200),
    ("gen-case.vec", "gen-case-pairs.tsv", True, 300000),
    ("sample-a.vec", "ws-sample.tsv", False, 300000),
]


def check(ours, theirs):
    (r, rp), (s, sp), oov = ours
    assert abs(r - theirs[0][0]) <= 1e-6
    assert abs(s - theirs[1][0]) <= 1e-6
    assert abs(rp - theirs[0][1]) <= 1e-3 * theirs[0][1] + 1e-300
    assert abs(sp - theirs[1][1]) <= 1e-3 * theirs[1][1] + 1e-300
    assert abs(oov - theirs[2]) <= 1e-9


@pytest.mark.parametrize(("vec", "pairs", "fold", "restrict"), CASES)
@pytest.mark.parametrize("dummy", [False, True])
def test_against_gensim(vec, pairs, fold, restrict, dummy):
    vpath, ppath = os.path.join(DATA, vec), os.path.join(DATA, pairs)
    kv = KeyedVectors.load_word2vec_format(vpath, binary=vec.endswith(".bin"))
    kw = dict(restrict_vocab=restrict, case_insensitive=fold, dummy4unknown=dummy)
    theirs = kv.evaluate_word_pairs(ppath, **kw)
    from_file = acm.evaluate_word_pairs(vpath, ppath, **kw)
    from_kv = acm.evaluate_word_pairs(kv, ppath, **kw)
    check(from_file, theirs)
    check(from_kv, theirs)
    # The file and the KeyedVectors give the library the same float32 vectors.
    assert tuple(from_file) == tuple(from_kv)
    rep = from_file.report
    assert rep.kendall is not None and rep.rho_w is not None and rep.tau_w is not None
    assert pickle.loads(pickle.dumps(from_file)).report == rep


def test_generated_vectors_and_dict_models(tmp_path):
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(300)]
    vecs = rng.normal(size=(300, 20)).astype(np.float32)
    path = tmp_path / "v.vec"
    with open(path, "w") as f:
        f.write("300 20\n")
        for w, v in zip(words, vecs, strict=False):
            f.write(w + " " + " ".join(repr(float(x)) for x in v) + "\n")
    pairs = tmp_path / "p.tsv"
    lines = []
    for _ in range(400):
        a, b = rng.choice(300, 2, replace=False)
        lines.append(f"{words[a]}\t{words[b]}\t{rng.random() * 10:.2f}")
    lines.append("w1\tunknownword\t3.5")
    pairs.write_text("\n".join(lines) + "\n")
    kv = KeyedVectors.load_word2vec_format(str(path))
    theirs = kv.evaluate_word_pairs(str(pairs))
    check(acm.evaluate_word_pairs(str(path), str(pairs)), theirs)
    as_dict = {w: v for w, v in zip(words, vecs, strict=False)}
    check(acm.evaluate_word_pairs(as_dict, str(pairs), case_insensitive=False), theirs)


def test_bad_inputs(tmp_path):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a\tb\t1\nc\td\n")
    vec = tmp_path / "v.vec"
    vec.write_text("2 2\na 1 0\nb 0 1\n")
    with pytest.raises(ValueError, match="2"):
        acm.evaluate_word_pairs(str(vec), str(pairs))
    with pytest.raises(OSError):
        acm.evaluate_word_pairs(str(vec), str(tmp_path / "missing.tsv"))
    pairs.write_text("a\tb\t1\na\tb\t2\n")
    with pytest.raises(ValueError):
        acm.evaluate_word_pairs({"a": np.ones(2), "b": np.ones(2)}, str(pairs))


def tied_vectors(tmp_path):
    """t, a = t and b = 2t: cos(t, a) = cos(t, b) = 1 exactly, a tie."""
    kv = KeyedVectors(3)
    vectors = [[1, 3, 3], [1, 3, 3], [2, 6, 6], [3, 1, 0], [0, 1, 5]]
    kv.add_vectors(list("tabcd"), np.array(vectors, dtype=np.float32))
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("t\ta\t1\nt\tb\t2\nt\tc\t3\nt\td\t4\n")
    return kv, pairs


def test_a_doubled_vector_ties_as_in_gensim(tmp_path):
    kv, pairs = tied_vectors(tmp_path)
    theirs = kv.evaluate_word_pairs(pairs)
    ours = acm.evaluate_word_pairs(kv, pairs)
    assert ours.report.similarities[:2] == [1.0, 1.0]
    # gensim's ranking (its float32 unit vectors of t and 2t are equal):
    # Spearman's rho with the tie, not with 2t's cosine below 1.
    assert ours[1][0] == pytest.approx(theirs[1][0], abs=1e-12)
    assert ours[1][0] == pytest.approx(-0.7378647873726218, abs=1e-12)
    check(ours, theirs)


def test_results_have_gensims_types(tmp_path):
    kv, pairs = tied_vectors(tmp_path)
    theirs = kv.evaluate_word_pairs(pairs)
    ours = acm.evaluate_word_pairs(kv, pairs)
    # gensim 4.4: (PearsonRResult, SignificanceResult, oov_ratio).
    assert type(ours[0]).__name__ == type(theirs[0]).__name__ == "PearsonRResult"
    assert type(ours[1]).__name__ == type(theirs[1]).__name__ == "SignificanceResult"
    assert ours[0].statistic == pytest.approx(theirs[0].statistic, abs=1e-6)
    assert ours[1].statistic == pytest.approx(theirs[1].statistic, abs=1e-6)
    assert ours[1].pvalue == pytest.approx(theirs[1].pvalue, rel=1e-6)
    low, high = ours[0].confidence_interval()
    want = theirs[0].confidence_interval()
    assert (low, high) == pytest.approx((want.low, want.high), abs=1e-6)
    (r, p), (rho, p_rho), oov = ours  # still unpacks as before
    assert (p, p_rho) == (ours[0].pvalue, ours[1].pvalue)
    assert (r, rho, oov) == (ours[0].statistic, ours[1].statistic, theirs[2])
    assert pickle.loads(pickle.dumps(ours)) == ours
