#!/usr/bin/env python3
"""Interleaved timing of two or more builds of `acm` on the same TREC files:
the side-by-side figure for a change to the TREC readers or to scoring.

    python benches/trec_ab.py [--queries Q] [--docs D] [--seed S] ROUNDS ACM_A ACM_B [ACM_C ...]

On a shared machine single runs of `acm trec` move by 10-30 % from one
minute to the next; running the builds in turn, round after round, exposes
them to the same noise, and the best and the median over the rounds compare
them. Take 60-100 rounds: on a 2-core virtual machine whose quiet and busy
phases change within minutes, 20 rounds showed a 10 % gain that 100 rounds
put at 3 %. Writes the files of benches/trec_compare.py (10^4 queries x 100
documents by default) into a temporary directory, then runs each build's
`acm trec` with trec_compare.py's measures ROUNDS times in turn (standard
output discarded) and prints, per build, the best and the median wall time
and CPU time (user + system, getrusage). ACM_THREADS passes through: set it
to 1 to compare the one-thread paths. Run it with the Python that
trec_compare.sh uses (it needs numpy and pytrec_eval, for trec_compare.py).
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from trec_compare import MEASURES, timed_child, trec_eval_args, write_files


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rounds", type=int)
    p.add_argument("builds", nargs="+", help="paths to acm binaries")
    p.add_argument("--queries", type=int, default=10_000)
    p.add_argument("--docs", type=int, default=100)
    p.add_argument("--seed", type=int, default=16)
    a = p.parse_args()
    if a.rounds < 1 or len(a.builds) < 2:
        p.error("give at least one round and two builds")
    with tempfile.TemporaryDirectory() as d:
        qrels, run = write_files(d, a.queries, a.docs, a.seed)
        os.sync()
        times = {b: [] for b in a.builds}
        for _ in range(a.rounds):
            for b in a.builds:
                times[b].append(timed_child([b, "trec", *trec_eval_args(MEASURES), qrels, run]))
    print(
        f"{a.queries} queries x {a.docs} documents, {a.rounds} rounds, "
        f"ACM_THREADS={os.environ.get('ACM_THREADS', '(unset)')}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'build':40} {'wall best':>10} {'median':>8} {'CPU best':>9} {'median':>8}")
    for b in a.builds:
        wall = [t[0] for t in times[b]]
        cpu = [t[1] for t in times[b]]
        print(
            f"{b[-40:]:40} {min(wall):10.4f} {statistics.median(wall):8.4f} "
            f"{min(cpu):9.4f} {statistics.median(cpu):8.4f}"
        )


if __name__ == "__main__":
    main()
