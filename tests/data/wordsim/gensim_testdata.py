"""Runs gensim's KeyedVectors.evaluate_word_pairs on gensim's own test data
(its copies of SimLex-999 and WordSim-353, two of its vector files) and
writes gensim_testdata_expected.txt, the reference of the test
`gensims_own_benchmark_copies` in tests/domains/wordsim_detect.rs.

gensim's files are not in this repository: the script and the test find
them in the installed gensim (gensim.test.utils.datapath; the Rust test
looks in $GENSIM_TEST_DATA, else in .venv's gensim):

    .venv/bin/python tests/data/wordsim/gensim_testdata.py

Committed values: gensim 4.4.0, scipy 1.17.1, numpy 2.4.6.

One line per case:
  vectors benchmark unknown case pearson pearson_p spearman spearman_p oov_percent
with unknown = drop | zero (gensim's dummy4unknown=True), case = exact | fold
(gensim's case_insensitive).
"""

import os

import gensim
from gensim.models import KeyedVectors
from gensim.test.utils import datapath

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = [("euclidean_vectors.bin", True), ("lee_fasttext.vec", False)]
BENCHMARKS = ["simlex999.txt", "wordsim353.tsv"]

rows = []
for vec, binary in VECTORS:
    kv = KeyedVectors.load_word2vec_format(datapath(vec), binary=binary)
    for bench in BENCHMARKS:
        for case, fold in [("exact", False), ("fold", True)]:
            for unknown, dummy in [("drop", False), ("zero", True)]:
                (pr, pp), (sr, sp), oov = kv.evaluate_word_pairs(
                    datapath(bench), case_insensitive=fold, dummy4unknown=dummy
                )
                nums = " ".join(repr(float(x)) for x in (pr, pp, sr, sp, oov))
                rows.append(f"{vec} {bench} {unknown} {case} {nums}")

with open(os.path.join(HERE, "gensim_testdata_expected.txt"), "w") as f:
    f.write(
        f"# gensim {gensim.__version__}: vectors benchmark unknown case "
        "pearson pearson_p spearman spearman_p oov_percent\n"
    )
    f.write("\n".join(rows) + "\n")
