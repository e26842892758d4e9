#!/usr/bin/env python3
"""Side-by-side timing of ranx `compare` and `acm compare` at the sizes of
issue 34's bars; run it through benches/compare_ranx.sh, which builds `acm`.

    python benches/compare_ranx.py PATH_TO_acm [QUERIES] [RUNS] [SEED]

Writes into a temporary directory a qrels file (QUERIES queries, 20 judged
documents each, grades 0..2) and RUNS runs (30 ranked documents a query,
scores = a run's skill x grade + noise, 6 decimals), then times

  - ranx `compare(qrels, runs, ["ndcg@10"], stat_test="fisher",
    n_permutations=10000)`: all RUNS(RUNS-1)/2 pairs, Fisher's randomisation
    test, per-query nDCG@10 included. Numba compiles on the first call (on a
    small warm-up set), the timed calls are the following ones. ranx has no
    multiple-testing correction: its report is uncorrected;
  - `acm compare trec QRELS RUN... -m nDCG@10 --test randomisation
    --replicates 10000 --correction holm --format json`: the whole process
    (reading every file, scoring, the 45 tests, Holm, printing);
  - `acm compare table` on a 56 x 95 CSV table (an MTEB-sized leaderboard):
    Friedman's test, the critical difference and all 4 465 pairs with a
    paired bootstrap of 10^4 resamples, the whole process;

each the best of REPEATS (environment, default 5) runs (PERMUTATIONS, default
10^4, sets the randomisation count of both tools), and checks that both
tools computed the same mean nDCG@10 per run.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from importlib import metadata

import numpy as np
from ranx import Qrels, Run, compare


def write_files(directory, queries, runs, seed):
    rng = random.Random(seed)
    qrels_path = os.path.join(directory, "qrels")
    grades = {}
    with open(qrels_path, "w") as f:
        for q in range(queries):
            for d in range(20):
                g = rng.choice([0, 0, 0, 1, 1, 2])
                grades[(q, d)] = g
                f.write(f"q{q} 0 d{d} {g}\n")
    paths = []
    for r in range(runs):
        skill = 0.5 + 0.05 * r
        path = os.path.join(directory, f"run{r}.run")
        with open(path, "w") as f:
            for q in range(queries):
                scored = [(skill * grades.get((q, d), 0) + rng.random(), d) for d in range(30)]
                scored.sort(reverse=True)
                for rank, (s, d) in enumerate(scored, 1):
                    f.write(f"q{q} Q0 d{d} {rank} {s:.6f} run{r}\n")
        paths.append(path)
    return qrels_path, paths


def best_of(repeats, f):
    best = float("inf")
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    acm = sys.argv[1]
    queries = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 34
    repeats = int(os.environ.get("REPEATS", "5"))
    permutations = int(os.environ.get("PERMUTATIONS", "10000"))
    versions = f"ranx {metadata.version('ranx')}, numpy {np.__version__}"
    print(f"{versions}; load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        qrels_path, run_paths = write_files(tmp, queries, runs, seed)
        qrels = Qrels.from_file(qrels_path, kind="trec")
        ranx_runs = []
        for p in run_paths:
            run = Run.from_file(p, kind="trec")
            run.name = os.path.basename(p)
            ranx_runs.append(run)
        # Numba's compilation: a first call on a small set.
        warm = os.path.join(tmp, "warm")
        os.mkdir(warm)
        small_q, small_r = write_files(warm, 50, 2, seed + 1)
        compare(
            Qrels.from_file(small_q, kind="trec"),
            [Run.from_file(p, kind="trec") for p in small_r],
            ["ndcg@10"],
            stat_test="fisher",
            n_permutations=10_000,
        )

        def ranx_compare():
            return compare(
                qrels,
                ranx_runs,
                ["ndcg@10"],
                stat_test="fisher",
                n_permutations=permutations,
                max_p=0.05,
            )

        t_ranx, report = best_of(repeats, ranx_compare)
        argv = [
            acm,
            "compare",
            "trec",
            qrels_path,
            *run_paths,
            "-m",
            "nDCG@10",
            "--test",
            "randomisation",
            "--replicates",
            str(permutations),
            "--correction",
            "holm",
            "--format",
            "json",
        ]

        def acm_trec():
            return subprocess.run(argv, check=True, capture_output=True).stdout

        t_acm, out = best_of(repeats, acm_trec)
        doc = json.loads(out)
        systems = doc["comparisons"][0]["comparison"]["systems"]
        worst = max(abs(s["estimate"] - report.results[s["name"]]["ndcg@10"]) for s in systems)
        pairs = len(doc["comparisons"][0]["comparison"]["pairs"])
        print(
            f"{runs} runs x {queries} queries, {pairs} pairs, "
            f"randomisation {permutations}, nDCG@10:"
        )
        print(f"  ranx compare (fisher, 2nd+ call)   {t_ranx:8.3f} s")
        print(
            f"  acm compare trec (whole process)   {t_acm:8.3f} s"
            f"   ranx / acm = {t_ranx / t_acm:.1f}x"
        )
        print(f"  largest |mean nDCG@10 difference| between the tools: {worst:.3g}")

        # 56 benchmarks x 95 systems: Friedman + CD + 4 465 bootstrap pairs.
        rng = np.random.default_rng(seed)
        difficulty = rng.random(56)
        table = np.round(
            np.clip(
                0.7 * difficulty[:, None]
                + 0.002 * np.arange(95)[None, :]
                + 0.3 * rng.random((56, 95)),
                0,
                1,
            ),
            3,
        )
        csv = os.path.join(tmp, "board.csv")
        with open(csv, "w") as f:
            f.write("task," + ",".join(f"m{j}" for j in range(95)) + "\n")
            for i, row in enumerate(table):
                f.write(f"t{i}," + ",".join(f"{v:.3f}" for v in row) + "\n")
        argv = [
            acm,
            "compare",
            "table",
            csv,
            "--unit",
            "task",
            "--test",
            "bootstrap",
            "--replicates",
            "10000",
            "--format",
            "json",
        ]
        t_table, out = best_of(
            repeats, lambda: subprocess.run(argv, check=True, capture_output=True).stdout
        )
        doc = json.loads(out)
        print("95 systems x 56 benchmarks, Friedman + CD + all pairs, paired bootstrap 10^4:")
        print(
            f"  acm compare table (whole process)  {t_table:8.3f} s   "
            f"({len(doc['comparisons'][0]['comparison']['pairs'])} pairs)"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
