"""Reference values for tests/domains/relevance_trec.rs, from pytrec_eval
(trec_eval's C code behind a Python interface).

Writes, beside this script:
  trec.qrels          generated TREC qrels (qid 0 docno rel)
  trec.run            generated TREC run (qid Q0 docno rank score tag)
  trec_expected.tsv   pytrec_eval's values: level, measure, qid, value
                      (qid "all" = pytrec_eval.compute_aggregated_measure,
                      the mean, or the sum for num_* measures)

The data cover what the crate must treat as trec_eval does:
  - queries whose judged documents are all non-relevant (grades 0 or -1),
  - negative grades (-1, -2: trec_eval's "in the pool but unjudged"),
  - documents ranked but never judged,
  - many ties in the scores (one decimal), broken by decreasing document
    id as text in trec_eval: the ids d1 .. d60 make text order differ from
    numeric order (d9 > d10 > d1),
  - ranks in the run file that disagree with the scores (trec_eval ignores
    the rank column),
  - judged queries the run does not rank, and run queries nobody judged
    (both left out by trec_eval without -c),
  - relevance levels 1 and 2 (trec_eval -l).
A run with a duplicate document is an error in trec_eval ("duplicate docs")
and an assertion in pytrec_eval.parse_run; the crate's test checks its own
error, so no such file is generated.

Run (from the repository root, in the venv of `make python-dev`):
    .venv/bin/python tests/data/relevance/trec_expected.py
Committed values produced with Python 3.11, pytrec-eval-terrier 0.5.11,
numpy 2.4.6. (gm_map's "all" is pytrec_eval.compute_aggregated_measure's
geometric mean: exp of the mean of the per-query logarithms.)
"""

import os
import random

import pytrec_eval
from trec_grades import NONE_RELEVANT, draw_grades

HERE = os.path.dirname(os.path.abspath(__file__))
MEASURES = [
    "map",
    "P_5",
    "P_10",
    "Rprec",
    "recip_rank",
    "ndcg_cut_5",
    "ndcg_cut_10",
    "ndcg",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    # trec_eval's other official measures and recall, success, map_cut
    # (pytrec_eval is trec_eval 9: the crate's TrecEvalVersion::V9).
    "gm_map",
    "bpref",
    "num_q",
    "iprec_at_recall_0.00",
    "iprec_at_recall_0.10",
    "iprec_at_recall_0.30",
    "iprec_at_recall_0.70",
    "iprec_at_recall_1.00",
    "recall_5",
    "recall_30",
    "success_1",
    "success_10",
    "map_cut_5",
    "map_cut_100",
    "P_1000",
    # trec_eval's all_trec measures beyond those (gm_bpref's "all" is a
    # geometric mean as gm_map's).
    "gm_bpref",
    "relative_P_5",
    "relative_P_20",
    "Rprec_mult_0.20",
    "Rprec_mult_1.00",
    "Rprec_mult_2.00",
    "11pt_avg",
    "infAP",
    "binG",
    "G",
    "ndcg_rel",
    "Rndcg",
]


def generate(seed=16):
    rng = random.Random(seed)
    qrels_lines, run_lines = [], []
    for qn in range(1, 41):
        q = f"q{qn}"
        docs = [f"d{i}" for i in rng.sample(range(1, 61), 30)]
        judged = docs[: rng.randint(0, 18)]
        no_relevant = qn % 8 == 0
        # The crate scores a query whose grades are all negative as one
        # without relevant documents (tested by hand): draw_grades keeps
        # such queries out of the comparison with trec_eval.
        grades = draw_grades(
            rng, judged, NONE_RELEVANT if no_relevant else [-2, -1, 0, 0, 0, 1, 1, 2, 3]
        )
        if qn != 7:  # q7: ranked, never judged
            for d in judged:
                qrels_lines.append(f"{q} 0 {d} {grades[d]}")
        if qn % 10 == 3:
            continue  # judged, not ranked
        ranked = docs[: rng.randint(0, 30)]
        # Shuffle the lines and give ranks that ignore the scores.
        rng.shuffle(ranked)
        for rank, d in enumerate(ranked, start=1):
            score = round(rng.choice([rng.uniform(0, 2), rng.randint(0, 4) / 2]), 1)
            run_lines.append(f"{q} Q0 {d} {rank} {score} gen")
    # A query nobody judged.
    run_lines.append("q99 Q0 d1 1 1.0 gen")
    with open(os.path.join(HERE, "trec.qrels"), "w") as f:
        f.write("\n".join(qrels_lines) + "\n")
    with open(os.path.join(HERE, "trec.run"), "w") as f:
        f.write("\n".join(run_lines) + "\n")


def main():
    generate()
    with open(os.path.join(HERE, "trec.qrels")) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(os.path.join(HERE, "trec.run")) as f:
        run = pytrec_eval.parse_run(f)
    rows = []
    for level in (1, 2):
        ev = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=level)
        res = ev.evaluate(run)
        for m in MEASURES:
            for q in sorted(res):
                rows.append(f"{level}\t{m}\tq{q[1:]}\t{res[q][m]!r}")
            agg = pytrec_eval.compute_aggregated_measure(m, [res[q][m] for q in res])
            rows.append(f"{level}\t{m}\tall\t{agg!r}")
    with open(os.path.join(HERE, "trec_expected.tsv"), "w") as f:
        f.write("# level\tmeasure\tqid\tvalue (pytrec_eval; see trec_expected.py)\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(rows)} values for {len(res)} queries")


if __name__ == "__main__":
    main()
