"""Independent reference values for tests/domains/relevance_csv.rs.

Reads judgements.csv and model.csv with Python's csv module, aggregates and
classifies the pairs as in the PhraseRel chapter (loose: every grade >= 0;
strict: loose and some grade == 3; diverse: >= 4 loosely relevant), then
scores the model by brute force: every metric is averaged over all orderings
of the documents with tied scores (itertools.permutations), untied metrics
from their textbook definitions. Level loose, linear gain max(mean, 0), k = 3.
Unjudged documents are non-relevant with gain 0; judged documents the model
does not rank count in R and the ideal DCG.

Run: python3 tests/data/relevance/expected.py
"""

import csv
import itertools
import math
import os
import statistics
from collections import OrderedDict, defaultdict

here = os.path.dirname(os.path.abspath(__file__))
grades = OrderedDict()
with open(os.path.join(here, "judgements.csv"), newline="") as f:
    for row in csv.DictReader(f):
        grades.setdefault((row["query"], row["document"]), []).append(int(row["grade"]))
run = defaultdict(list)
with open(os.path.join(here, "model.csv"), newline="") as f:
    for row in csv.DictReader(f):
        run[row["query"]].append((row["document"], float(row["score"])))

K = 3
queries = OrderedDict()
for (q, d), g in grades.items():
    loose = min(g) >= 0
    strict = loose and max(g) == 3
    sd = statistics.stdev(g)
    queries.setdefault(q, []).append((d, loose, strict, statistics.mean(g), sd))
    print(
        f"pair {q!r} {d!r}: mean {statistics.mean(g):.6f} sd {sd:.15f} "
        f"loose {loose} strict {strict}"
    )


def plain(order, R, ideal):
    hits, ap, rr = 0, 0.0, 0.0
    for i, (rel, _) in enumerate(order):
        if rel:
            hits += 1
            ap += hits / (i + 1)
            if rr == 0.0:
                rr = 1 / (i + 1)

    def top(c):
        return sum(1 for x in order[:c] if x[0])

    dcg = sum(g / math.log2(i + 2) for i, (_, g) in enumerate(order[:K]))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(ideal, reverse=True)[:K]))
    return dict(ap=ap / R, p=top(K) / K, rp=top(R) / R, rr=rr, ndcg=dcg / idcg)


means = defaultdict(list)
for q, docs in queries.items():
    label = {d: (loose, max(m, 0.0)) for d, loose, _, m, _ in docs}
    strict_n = sum(1 for x in docs if x[2])
    loose_n = sum(1 for x in docs if x[1])
    print(f"query {q!r}: strict {strict_n} loose {loose_n} diverse {loose_n >= 4}")
    R = loose_n
    ideal = [label[d][1] for d in label]
    ranked = run.get(q, [])
    groups = defaultdict(list)
    for d, s in ranked:
        groups[s].append(label.get(d, (False, 0.0)))
    ordered = [groups[s] for s in sorted(groups, reverse=True)]
    results = []
    for combo in itertools.product(*[list(itertools.permutations(g)) for g in ordered]):
        order = [x for g in combo for x in g]
        results.append(plain(order, R, ideal))
    avg = {k: sum(r[k] for r in results) / len(results) for k in results[0]}
    print(f"  {q!r}: " + ", ".join(f"{k} {v:.15f}" for k, v in avg.items()))
    for k, v in avg.items():
        means[k].append(v)
print("means: " + ", ".join(f"{k} {sum(v) / len(v):.15f}" for k, v in means.items()))
