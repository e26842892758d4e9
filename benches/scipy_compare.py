#!/usr/bin/env python3
"""Times scipy.stats.weightedtau (rank=True, the default) and kendalltau
against this crate on identical SplitMix64 data; run it through
benches/scipy_compare.sh, which sets up the virtual environment.

    python benches/scipy_compare.py N SEED PATH_TO_bench_weighted_tau

The data are x = the first N floats of SplitMix64(SEED), y = the next N (see
tests/data/vigna/gen_scipy.py, whose generator this imports).
"""
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "data", "vigna"))
from gen_scipy import data  # noqa: E402


def best_of(repeats, f):
    """Best wall time and the CPU time of that run (the two differ on a
    loaded machine: a long single run cannot dodge other processes)."""
    best, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        out = f()
        wall = time.perf_counter() - t
        if wall < best:
            best, cpu = wall, time.process_time() - c
    return best, cpu, out


def main():
    n, seed, exe = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    x, y = data(seed, n, 0)
    print(f"n = {n}, seed = {seed}, scipy {scipy.__version__}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    t_w, c_w, w = best_of(1, lambda: stats.weightedtau(x, y).statistic)
    t_k, c_k, k = best_of(3, lambda: stats.kendalltau(x, y).statistic)
    rust = json.loads(subprocess.run([exe, str(n), str(seed), "5"], check=True,
                                     capture_output=True, text=True).stdout)
    # The CPU time of one Rust call: the child's CPU time with 6 calls minus
    # with 1, over 5 (so data generation cancels out).
    def child_cpu(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([exe, str(n), str(seed), str(repeats), "weightedtau"], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    rust_cpu = (child_cpu(6) - child_cpu(1)) / 5
    print(f"{'':28}{'scipy (s)':>12}{'rust (s)':>12}{'speed-up':>10}")
    print(f"{'weightedtau (default)':28}{t_w:12.4f}{rust['weightedtau_s']:12.4f}"
          f"{t_w / rust['weightedtau_s']:9.1f}x")
    print(f"{'kendalltau (tau-b)':28}{t_k:12.4f}{rust['kendalltau_s']:12.4f}"
          f"{t_k / rust['kendalltau_s']:9.1f}x")
    print(f"{'weightedtau, CPU time':28}{c_w:12.4f}{rust_cpu:12.4f}{c_w / rust_cpu:9.1f}x")
    print(f"(kendalltau CPU time: scipy {c_k:.4f} s; rust wall times are the best of 5 runs)")
    print(f"{'rust: one sort of (x, y)':28}{'':12}{rust['sort_pairs_s']:12.4f}"
          f"   weightedtau = {rust['weightedtau_s'] / rust['sort_pairs_s']:.1f} sorts")
    print(f"values: weightedtau scipy {w!r} rust {rust['weightedtau']!r}; "
          f"kendalltau scipy {k!r} rust {rust['kendalltau']!r}")
    for name, a, b in [("weightedtau", w, rust["weightedtau"]), ("kendalltau", k, rust["kendalltau"])]:
        if abs(a - b) > 1e-12 * max(abs(a), 1e-2):
            sys.exit(f"{name}: scipy and rust disagree")


if __name__ == "__main__":
    main()
