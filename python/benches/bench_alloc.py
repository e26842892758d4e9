"""What the extension's allocator costs a call: per-call elapsed time, CPU
time (user + system) and minor page faults of the package's calls whose
scratch is large or small, back to back and after a pause:

- ``weightedtau``, ``kendalltau``, ``spearmanr``, ``pearsonr`` at n = 10
  (100 calls a sample), 10^3 and 10^6;
- ``RelevanceEvaluator(qrels, measures).evaluate(run)`` on pytrec_eval's
  nested dicts at 10^4 queries x 100 documents and 10 x 100 (the data of
  ``bench_trec_dicts.py``).

    python python/benches/bench_alloc.py [corr|trec]

Used to choose the extension's global allocator (``python/src/lib.rs``):
build the package with each, keep a copy of each build's
``adaptive_comp_metrics`` directory, and run this script on each in turn
(``PYTHONPATH=COPY python ...``), alternating, on the same machine. The
pause (1.2 s) is longer than mimalloc's purge delay (1 s in mimalloc 3), after
which it gives freed memory back to the system: the next call faults it in
again, as every call does whose allocator returns its scratch at once.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time

import numpy as np
from bench_trec_dicts import MEASURES, generate

import adaptive_comp_metrics as acm

PAUSE = 1.2


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def measure(label, f, reps, pause):
    f()
    walls, cpus, faults = [], [], []
    for _ in range(reps):
        cpu, flt = usage()
        start = time.perf_counter()
        f()
        walls.append(time.perf_counter() - start)
        cpu2, flt2 = usage()
        cpus.append(cpu2 - cpu)
        faults.append(flt2 - flt)
        if pause:
            time.sleep(pause)
    med = statistics.median
    print(
        f"{label:<30} pause {pause:>3}: elapsed median {med(walls) * 1e3:9.3f} ms "
        f"(best {min(walls) * 1e3:9.3f}), CPU median {med(cpus) * 1e3:9.3f} ms, "
        f"minor faults median {med(faults):7.0f}"
    )


def correlations():
    rng = np.random.default_rng(1)
    for n, reps in ((10, 20), (1000, 300), (1_000_000, 7)):
        x, y = rng.random(n), rng.random(n)
        for name in ("weightedtau", "kendalltau", "spearmanr", "pearsonr"):
            f = getattr(acm, name)
            if n < 1000:

                def batch(f=f, x=x, y=y):
                    for _ in range(100):
                        f(x, y)

                measure(f"{name} n={n} (100 calls)", batch, reps, 0)
                continue
            measure(f"{name} n={n}", lambda f=f, x=x, y=y: f(x, y), reps, 0)
            if n == 1_000_000:
                measure(f"{name} n={n}", lambda f=f, x=x, y=y: f(x, y), 4, PAUSE)


def trec():
    for queries, docs, reps in ((10_000, 100, 6), (10, 100, 200)):
        qrels, run = generate(queries, docs)

        def call(qrels=qrels, run=run):
            evaluator = acm.RelevanceEvaluator(qrels, MEASURES, trec_eval_version="9")
            return evaluator.evaluate(run)

        measure(f"trec dicts {queries}x{docs}", call, reps, 0)
        if queries == 10_000:
            measure(f"trec dicts {queries}x{docs}", call, 5, PAUSE)


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    print(f"{acm.__file__}; load average {os.getloadavg()[0]:.2f} (before)")
    if which in ("all", "corr"):
        correlations()
    if which in ("all", "trec"):
        trec()
    print(f"load average {os.getloadavg()[0]:.2f} (after)")


if __name__ == "__main__":
    main()
