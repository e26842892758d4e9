"""pytrec_eval's own input, side by side: ``RelevanceEvaluator(qrels,
measures).evaluate(run)`` with nested dicts ``{query: {document: grade}}``
and ``{query: {document: score}}`` built beforehand (what MTEB, BEIR and
every pytrec_eval caller pass), for pytrec_eval and the package, at

- 10^4 queries x 100 documents (the issue's bar: the package at least 4x
  faster),
- 10 queries x 100 documents, 10 queries x 10 documents and 1 query x 100
  documents (a training loop's validation, a unit test: not slower than
  pytrec_eval).

    python python/benches/bench_trec_dicts.py [--rounds N]

The two sides run interleaved, ROUNDS rounds (default 7), each timing the
construction and the evaluation together; the medians and the best of the
elapsed time are printed with the load average, and the medians of the
process's CPU time (``time.process_time``: on a loaded machine the elapsed
time mostly measures waiting for a core; with ``ACM_THREADS=1`` both sides
run on one thread and the CPU times compare the work done), and the values
are checked to agree
(``trec_eval_version="9"``, pytrec_eval's arithmetic). The data are those
of ``benches/trec_compare.py`` (half of each query's ranked documents
judged; grades 0..3 mostly 0, some -1; scores with 4 decimals).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np
import pytrec_eval

import adaptive_comp_metrics as acm

MEASURES = {"map", "P_5", "P_10", "Rprec", "recip_rank", "ndcg_cut_10", "ndcg"}


def generate(queries, docs, seed=16):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(queries):
        ids = rng.choice(1_000_000, size=docs + docs // 2, replace=False)
        names = [f"DOC{d:07d}" for d in ids]
        grades = rng.choice([-1, 0, 0, 0, 0, 1, 1, 2, 3], size=len(names) - docs // 2)
        scores = np.round(rng.random(docs) * 10, 4)
        qid = f"Q{q:05d}"
        qrels[qid] = dict(zip(names[docs // 2 :], map(int, grades), strict=False))
        run[qid] = dict(zip(names[:docs], map(float, scores), strict=False))
    return qrels, run


def theirs(qrels, run):
    return pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)


def ours(qrels, run):
    return acm.RelevanceEvaluator(qrels, MEASURES, trec_eval_version="9").evaluate(run)


def timed(f, *args, repeat=1):
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(repeat):
        out = f(*args)
    return (time.perf_counter() - start) / repeat, (time.process_time() - cpu) / repeat, out


def compare(queries, docs, rounds):
    qrels, run = generate(queries, docs)
    # Small inputs are timed over many calls a round.
    repeat = max(1, 20_000 // (queries * docs))
    t_theirs, t_ours, cpu_theirs, cpu_ours = [], [], [], []
    for _ in range(rounds):
        a, c, r_theirs = timed(theirs, qrels, run, repeat=repeat)
        b, d, r_ours = timed(ours, qrels, run, repeat=repeat)
        t_theirs.append(a)
        t_ours.append(b)
        cpu_theirs.append(c)
        cpu_ours.append(d)
    worst = max(abs(r_ours[q][m] - v) for q in r_theirs for m, v in r_theirs[q].items())
    assert r_ours.keys() == r_theirs.keys() and worst <= 1e-12, worst
    med_theirs, med_ours = statistics.median(t_theirs), statistics.median(t_ours)
    unit, scale = ("s", 1.0) if med_theirs > 0.1 else ("ms", 1e3)
    print(
        f"{queries:>6} queries x {docs}: pytrec_eval median {scale * med_theirs:.3f} {unit} "
        f"(best {scale * min(t_theirs):.3f}), acm median {scale * med_ours:.3f} {unit} "
        f"(best {scale * min(t_ours):.3f}): {med_theirs / med_ours:.2f}x "
        f"(best to best {min(t_theirs) / min(t_ours):.2f}x); CPU time "
        f"{statistics.median(cpu_theirs) / statistics.median(cpu_ours):.2f}x"
    )
    return med_theirs / med_ours


def main():
    rounds = 7
    if "--rounds" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (before), "
        f"{rounds} interleaved rounds, construct + evaluate, measures {sorted(MEASURES)}"
    )
    for queries, docs in ((10_000, 100), (10, 100), (10, 10), (1, 100)):
        compare(queries, docs, rounds)
    print(f"load average {os.getloadavg()[0]:.2f} (after)")


if __name__ == "__main__":
    main()
