#!/usr/bin/env python3
"""Times scipy.stats.weightedtau (rank=True, the default), kendalltau and
spearmanr (each with its p-value) against this crate on identical SplitMix64
data; run it through benches/scipy_compare.sh, which sets up the virtual
environment.

    python benches/scipy_compare.py N SEED PATH_TO_bench_weighted_tau [BASELINE_EXE]

The data are x = the first N floats of SplitMix64(SEED), y = the next N (see
tests/data/vigna/gen_scipy.py, whose generator this imports). Wall times are
the best of several runs (at small N, of many calls each); the crate's CPU
time per call (user + system, all its threads) is the child's CPU time with
REPEATS + 1 calls minus with 1, over REPEATS. With BASELINE_EXE (the same
example built from another commit), its times are printed beside, and its
values must be identical to the last bit. At N >= 10^6 the script checks the
bars of issue 25: weightedtau at least 150x SciPy, kendalltau 5x, spearmanr 7x.
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

# (name in the table, key in the example's JSON, ONLY argument, bar at 10^6)
COMPUTATIONS = [
    ("weightedtau (default)", "weightedtau", "weightedtau", 150.0),
    ("kendalltau + p-value", "kendall_tau_b", "kendalltau", 5.0),
    ("spearmanr + p-value", "spearman", "spearmanr", 7.0),
]


def best_of(repeats, f, calls=1):
    """Best wall time per call of `repeats` runs of `calls` calls, the CPU
    time per call of that run, and the last output."""
    best, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        for _ in range(calls):
            out = f()
        wall = (time.perf_counter() - t) / calls
        if wall < best:
            best, cpu = wall, (time.process_time() - c) / calls
    return best, cpu, out


def rust_times(exe, n, seed, repeats):
    return json.loads(
        subprocess.run(
            [exe, str(n), str(seed), str(repeats)], check=True, capture_output=True, text=True
        ).stdout
    )


def child_cpu(exe, n, seed, repeats, only):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([exe, str(n), str(seed), str(repeats), only], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def rust_cpu(exe, n, seed, only):
    """CPU time of one call: data generation cancels out."""
    k = max(5, min(20000, 2_000_000 // max(n, 1)))
    return (child_cpu(exe, n, seed, k + 1, only) - child_cpu(exe, n, seed, 1, only)) / k


def main():
    n, seed, exe = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    baseline = sys.argv[4] if len(sys.argv) > 4 else None
    x, y = (np.asarray(v) for v in data(seed, n, 0))
    print(
        f"n = {n}, seed = {seed}, scipy {scipy.__version__}, numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}, "
        f"ACM_THREADS={os.environ.get('ACM_THREADS', '(unset)')}"
    )
    calls = max(1, min(2000, 200_000 // max(n, 1)))
    scipy_runs = {
        "weightedtau": best_of(
            1 if n >= 10**6 else 3, lambda: (stats.weightedtau(x, y).statistic, None), calls
        ),
        "kendall_tau_b": best_of(3, lambda: tuple(stats.kendalltau(x, y)), calls),
        "spearman": best_of(3, lambda: tuple(stats.spearmanr(x, y)), calls),
    }
    repeats = 5 if n >= 10**5 else 200
    rust = rust_times(exe, n, seed, repeats)
    base = rust_times(baseline, n, seed, repeats) if baseline else None
    head = (
        f"{'':24}{'scipy (s)':>12}{'rust (s)':>12}{'speed-up':>10}{'scipy CPU':>12}{'rust CPU':>12}"
    )
    if base:
        head += f"{'before (s)':>12}{'before CPU':>12}{'gain':>8}"
    print(head)
    failed = []
    for name, key, only, bar in COMPUTATIONS:
        t_s, c_s, _ = scipy_runs[key]
        t_r = rust[key + "_s"]
        cpu_r = rust_cpu(exe, n, seed, only)
        line = f"{name:24}{t_s:12.4g}{t_r:12.4g}{t_s / t_r:9.1f}x{c_s:12.4g}{cpu_r:12.4g}"
        if base and key + "_s" in base:
            t_b = base[key + "_s"]
            line += f"{t_b:12.4g}{rust_cpu(baseline, n, seed, only):12.4g}{t_b / t_r:7.2f}x"
        elif base:
            # An older baseline that does not time this computation.
            line += f"{'-':>12}{'-':>12}"
        if n >= 10**6 and t_s / t_r < bar:
            line += f"   below the bar of {bar:.0f}x"
            failed.append(name)
        print(line)
    print(
        f"{'rust: one sort of (x, y)':24}{'':12}{rust['sort_pairs_s']:12.4g}"
        f"   weightedtau = {rust['weightedtau_s'] / rust['sort_pairs_s']:.2f} sorts"
    )
    # The values: SciPy to 1e-12 (p-values to 1e-9 relative: SciPy's tails
    # are less accurate), the baseline to the last bit.
    w = scipy_runs["weightedtau"][2][0]
    k, k_p = scipy_runs["kendall_tau_b"][2]
    r, r_p = scipy_runs["spearman"][2]
    print(
        f"values: weightedtau scipy {w!r} rust {rust['weightedtau']!r}; "
        f"kendalltau scipy {k!r} (p {k_p!r}) rust {rust['kendall_tau_b']!r} "
        f"(p {rust['kendall_tau_b_p']!r}); spearmanr scipy {r!r} (p {r_p!r}) rust "
        f"{rust['spearman']!r} (p {rust['spearman_p']!r})"
    )
    checks = [
        ("weightedtau", w, rust["weightedtau"], 1e-12),
        ("kendalltau", k, rust["kendall_tau_b"], 1e-12),
        ("kendalltau p-value", k_p, rust["kendall_tau_b_p"], 1e-9 * abs(k_p)),
        ("spearmanr", r, rust["spearman"], 1e-12),
        ("spearmanr p-value", r_p, rust["spearman_p"], 1e-9 * abs(r_p)),
    ]
    for name, a, b, tol in checks:
        if abs(a - b) > max(tol, 1e-300):
            sys.exit(f"{name}: scipy {a!r} and rust {b!r} disagree")
    if base:
        keys = ["weightedtau", "kendall_tau_b", "kendall_tau_b_p", "spearman", "spearman_p"]
        for key in (k for k in keys if k in base):
            if base[key] != rust[key]:
                sys.exit(f"{key}: {rust[key]!r} differs from the baseline's {base[key]!r}")
        print("values identical to the baseline's (those it computes), bit for bit")
    if failed:
        print("bars not met: " + ", ".join(failed))


if __name__ == "__main__":
    main()
