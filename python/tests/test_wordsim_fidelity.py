"""evaluate_word_pairs and read_word_pairs against gensim: self-pairs tie at
cosine 1, layouts detected from the content (gensim's own copies of
SimLex-999 and WordSim-353 from its test data), case folding by lower case
where gensim upper-cases."""

import math

import numpy as np
import pytest
from gensim.models import KeyedVectors
from gensim.test.utils import datapath
from scipy import stats

import adaptive_comp_metrics as acm

MINIMAL_VECTORS = {
    "a": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    "b": [0.3, 0.1, 0.4, 0.1, 0.5, 0.9, 0.2, 0.6],
    "c": [0.7, 0.1, 0.8, 0.2, 0.8, 0.1, 0.8, 0.3],
}
MINIMAL_PAIRS = "a\ta\t10\nb\tb\t9\nc\tc\t8\na\tb\t3\nb\tc\t2\n"


def keyed(vectors):
    kv = KeyedVectors(vector_size=len(next(iter(vectors.values()))))
    kv.add_vectors(list(vectors), np.array(list(vectors.values()), dtype=np.float32))
    return kv


def test_self_pairs_tie_at_cosine_one(tmp_path):
    # Exact rho: human ranks (5, 4, 3, 2, 1), model ranks (4, 4, 4, 2, 1):
    # 8 / sqrt(10 * 8) = sqrt(0.8) = 0.8944 (the library gave 0.8208).
    pairs = tmp_path / "minimal.tsv"
    pairs.write_text(MINIMAL_PAIRS)
    vec = tmp_path / "minimal.vec"
    vec.write_text(
        "3 8\n" + "".join(f"{w} {' '.join(map(str, v))}\n" for w, v in MINIMAL_VECTORS.items())
    )
    kv = keyed(MINIMAL_VECTORS)
    for model in (str(vec), kv):
        result = acm.evaluate_word_pairs(model, str(pairs))
        (r, _), (rho, _), oov = result
        assert abs(rho - math.sqrt(0.8)) < 1e-12
        assert f"{rho:.4f}" == "0.8944"
        assert result.report.similarities[:3] == [1.0, 1.0, 1.0]
    # gensim's cosines of the other pairs agree to float32 precision, and
    # with its self-cosines taken as the exact 1 scipy gives the same rho.
    sims = result.report.similarities
    theirs = [float(kv.similarity(w1, w2)) for w1, w2 in [("a", "b"), ("b", "c")]]
    assert np.allclose(sims[3:], theirs, atol=1e-6)
    gold = [10, 9, 8, 3, 2]
    assert abs(stats.spearmanr(gold, [1.0, 1.0, 1.0, *theirs])[0] - rho) < 1e-12
    # gensim's own value is the same only when its float32 self-cosines tie
    # (with this BLAS they need not: 1.0000001, 1, 1 gives 0.9747).
    (g_r, _), (g_rho, _), g_oov = kv.evaluate_word_pairs(str(pairs))
    assert abs(g_r - r) < 1e-6 and g_oov == oov == 0.0
    if len({float(kv.similarity(w, w)) for w in "abc"}) == 1:
        assert abs(g_rho - rho) < 1e-12


@pytest.mark.parametrize(
    ("bench", "layout", "n"),
    [("simlex999.txt", "simlex999", 999), ("wordsim353.tsv", "wordsim353", 353)],
)
@pytest.mark.parametrize("vectors", ["euclidean_vectors.bin", "lee_fasttext.vec"])
def test_gensims_own_copies(bench, layout, n, vectors):
    path = datapath(bench)
    detected = acm.read_word_pairs(path)
    assert (len(detected), detected.layout) == (n, layout)
    assert "detected from the content" in detected.detection
    kv = KeyedVectors.load_word2vec_format(datapath(vectors), binary=vectors.endswith(".bin"))
    theirs = kv.evaluate_word_pairs(path)
    # gensim's reading (delimiter '\t'), detection, and the layout's own
    # format give the same pairs and so the same numbers.
    for kwargs in ({}, {"delimiter": None}, {"delimiter": None, "layout": layout}):
        for model in (datapath(vectors), kv):
            (r, _), (rho, _), oov = acm.evaluate_word_pairs(model, path, **kwargs)
            assert abs(r - theirs[0][0]) < 1e-6
            assert abs(rho - theirs[1][0]) < 1e-6
            assert abs(oov - theirs[2]) < 1e-9


SIMLEX_ORIGINAL = (
    "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n"
    "kettle\tteapot\tN\t8.5\t4.9\t4.8\t4\t1.2\t1\t0.9\n"
    "lantern\ttorch\tN\t7.0\t4.7\t4.6\t4\t0.8\t1\t1.1\n"
    "kettle\ttorch\tN\t1.5\t4.9\t4.6\t4\t0.0\t0\t1.3\n"
)


def test_layouts_detected_or_given(tmp_path):
    original = tmp_path / "SimLex-999.txt"
    original.write_text(SIMLEX_ORIGINAL)
    b = acm.read_word_pairs(original)
    assert b.layout == "simlex999"
    assert [p[:3] for p in b.pairs()] == [
        ("kettle", "teapot", 8.5),
        ("lantern", "torch", 7.0),
        ("kettle", "torch", 1.5),
    ]
    assert b.pairs() == acm.read_word_pairs(original, layout="simlex999").pairs()
    # gensim's reading (a delimiter) takes column 3: the part of speech.
    with pytest.raises(ValueError, match="field 3 is not a number") as e:
        acm.read_word_pairs(original, "\t")
    assert "pass delimiter=None to detect the layout" in str(e.value)
    assert "SimLex-999.txt: benchmark line 2" in str(e.value)
    # A layout that does not fit says it was given and how to choose another.
    with pytest.raises(ValueError, match="read as men layout, given explicitly") as e:
        acm.read_word_pairs(original, layout="men")
    assert "pass another layout=" in str(e.value)
    bad = tmp_path / "bad.tsv"
    bad.write_text("kettle\tteapot\t8.5\nlantern\ttorch\n")
    with pytest.raises(ValueError, match="so the layout cannot be detected; pass layout="):
        acm.read_word_pairs(bad)
    with pytest.raises(ValueError, match="unknown benchmark layout 'nope'"):
        acm.read_word_pairs(bad, layout="nope")
    # MEN's lemma form: tags removed, detected from the content.
    men = tmp_path / "MEN_dataset_lemma_form_full"
    men.write_text("kettle-n teapot-n 42.000000\nrun-v walk-v 35.000000\n")
    m = acm.read_word_pairs(men)
    assert (m.layout, m.pairs()[0][:2]) == ("men", ("kettle", "teapot"))


DOTLESS_I = "\u0131"
LOGOS = "\u03bb\u03bf\u03b3\u03bf\u03c2"  # with a final sigma
LOGOS_PLAIN_SIGMA = LOGOS[:-1] + "\u03c3"


def test_case_folding_lowercases_where_gensim_uppercases(tmp_path):
    rng = np.random.default_rng(3)
    words = ["straße", f"k{DOTLESS_I}ta", LOGOS, "anchor", "boat", "cloud", "dune"]
    kv = keyed({w: rng.normal(size=4).tolist() for w in words})
    pairs = tmp_path / "fold.tsv"
    # The three spellings gensim's upper-casing matches and lower-casing does
    # not: STRASSE, KITA and the Greek word's upper case are one key each.
    pairs.write_text(
        f"strasse\tanchor\t3\nkita\tboat\t2\n{LOGOS_PLAIN_SIGMA}\tcloud\t1\n"
        "anchor\tboat\t5\nboat\tcloud\t4\ncloud\tdune\t6\nanchor\tdune\t2.5\n"
    )
    assert "strasse".upper() == "straße".upper()
    assert "kita".upper() == f"k{DOTLESS_I}ta".upper()
    assert LOGOS_PLAIN_SIGMA.upper() == LOGOS.upper()
    # ... and their lower cases differ (LOGOS.upper().lower() ends in a final sigma).
    assert "strasse".lower() != "straße".lower()
    assert f"k{DOTLESS_I}ta".lower() != "kita"
    assert LOGOS_PLAIN_SIGMA.lower() != LOGOS.lower() == LOGOS.upper().lower()
    theirs = kv.evaluate_word_pairs(str(pairs), case_insensitive=True)
    ours = acm.evaluate_word_pairs(kv, str(pairs), case_insensitive=True)
    assert theirs[2] == 0.0
    assert ours[2] == pytest.approx(100 * 3 / 7)
    assert ours.report.similarities[:3] == [None, None, None]
    # The pairs left are those of `common`: the same numbers.
    common = tmp_path / "common.tsv"
    common.write_text("anchor\tboat\t5\nboat\tcloud\t4\ncloud\tdune\t6\nanchor\tdune\t2.5\n")
    assert acm.evaluate_word_pairs(kv, str(common))[0][0] == pytest.approx(ours[0][0], abs=1e-12)
