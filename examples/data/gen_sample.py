"""Builds examples/data/word-pairs.csv, the default input of `examples/evaluate.rs`.

model: the 990 real word2vec cosine similarities of the Sales & Marketing token
pairs published with Lombardo et al. (2020) (data/same-area-similarities.csv in this
repository, from the repository intervieweb-datascience/adaptive-comp,
`underlying_sim_samearea.csv`).
human: SYNTHETIC ratings, not collected from people: for each pair, five simulated
annotators give an integer 0..10 rating round(10 * clip((z + s * (1 - z^2) * eta + 1) / 2)),
s ~ U(0.02, 0.2) per annotator and eta ~ N(0, 1) (the nonconformity model of the
paper's Eq. 11), and `human` is their mean (so it has many ties, like real ratings).
Seeded, so the file is reproducible:

    python3 examples/data/gen_sample.py data/same-area-similarities.csv \\
        > examples/data/word-pairs.csv
"""

import csv
import random
import sys

rng = random.Random(20200501)
with open(sys.argv[1]) as f:
    rows = list(csv.reader(f))[1:]
z = [float(r[1]) for r in rows]
annotators = [rng.uniform(0.02, 0.2) for _ in range(5)]
print("pair,human,model")
for i, zi in enumerate(z):
    ratings = []
    for s in annotators:
        o = zi + s * (1 - zi * zi) * rng.gauss(0.0, 1.0)
        o = min(1.0, max(-1.0, o))
        ratings.append(round(10 * (o + 1) / 2))
    print(f"pair{i:03d},{sum(ratings) / len(ratings):g},{zi!r}")
