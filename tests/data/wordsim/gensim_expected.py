"""Runs gensim's KeyedVectors.evaluate_word_pairs on the files of this folder
and writes gensim_expected.txt, the reference of tests/domains/wordsim_gensim.rs.

    /work/venv/bin/python tests/data/wordsim/gensim_expected.py

Committed values: gensim 4.4.0, scipy 1.17, numpy 1.26 (gensim computes the
cosines in float32). gensim reads only `word1<TAB>word2<TAB>score` lines, so
the SimLex-999, MEN and MTurk layouts are first converted to that form here
(column 4 for SimLex, -n/-v/-j tags removed for MEN, commas to tabs for
MTurk): the crate must read the original layouts into the same pairs.

One line per case:
  vectors benchmark unknown case restrict pearson pearson_p spearman spearman_p oov_percent
with unknown = drop | zero (gensim's dummy4unknown=True), case = exact | fold
(gensim's case_insensitive), restrict = gensim's restrict_vocab (0: none).
"""

import os
import tempfile
from pathlib import Path

import gensim
from gensim.models import KeyedVectors

HERE = os.path.dirname(os.path.abspath(__file__))


def as_tsv(name):
    """The benchmark as word1<TAB>word2<TAB>score lines (a temporary file)."""
    lines = Path(HERE, name).read_text().splitlines()
    out = []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        if name.startswith("simlex"):
            f = line.split("\t")
            if f[0] == "word1":
                continue
            out.append((f[0], f[1], f[3]))
        elif name.startswith("men"):
            a, b, s = line.split()
            out.append((a[:-2], b[:-2], s))
        elif name.endswith(".csv"):
            out.append(tuple(line.split(",")))
        else:
            out.append(tuple(line.split("\t")))
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as tmp:
        tmp.write("".join(f"{a}\t{b}\t{s}\n" for a, b, s in out))
    return tmp.name


CASES = []
for vec in ["sample-a.vec", "sample-b.bin"]:
    for bench in ["ws-sample.tsv", "simlex-sample.txt", "men-sample.txt", "mturk-sample.csv"]:
        CASES.append((vec, bench, "exact", 0))
for vec in ["gen-a.vec", "gen-b.bin"]:
    CASES.append((vec, "gen-pairs.tsv", "exact", 0))
CASES.append(("gen-a.vec", "gen-pairs.tsv", "exact", 200))
CASES.append(("gen-case.vec", "gen-case-pairs.tsv", "fold", 0))

models = {}
rows = []
for vec, bench, case, restrict in CASES:
    if vec not in models:
        models[vec] = KeyedVectors.load_word2vec_format(
            os.path.join(HERE, vec), binary=vec.endswith(".bin")
        )
    kv = models[vec]
    path = as_tsv(bench)
    for unknown, dummy in [("drop", False), ("zero", True)]:
        (pr, pp), (sr, sp), oov = kv.evaluate_word_pairs(
            path,
            restrict_vocab=restrict or 300000,
            case_insensitive=case == "fold",
            dummy4unknown=dummy,
        )
        rows.append(
            f"{vec} {bench} {unknown} {case} {restrict} {pr!r} {pp!r} {sr!r} {sp!r} {oov!r}"
        )
    os.unlink(path)

with open(os.path.join(HERE, "gensim_expected.txt"), "w") as f:
    f.write(
        f"# gensim {gensim.__version__}: vectors benchmark unknown case restrict "
        "pearson pearson_p spearman spearman_p oov_percent\n"
    )
    f.write("\n".join(rows) + "\n")
