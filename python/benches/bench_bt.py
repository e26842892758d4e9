"""Side-by-side timings of the package's Bradley-Terry fits against choix
and Crowd-Kit, in one run (issue 35's performance bars): 10^5 comparisons
among 10^3 items from 200 workers (true scores N(0, 1), a fifth of the
workers answering at random):

1. ``acm.bradley_terry`` with standard errors, rank intervals and P(top
   10), against Crowd-Kit's ``BradleyTerry`` (bar: >= 20x) and choix's
   ``ilsr_pairwise`` (scores only; bar: >= 5x);
2. ``acm.noisy_bradley_terry`` with standard errors against Crowd-Kit's
   ``NoisyBradleyTerry`` (bar: >= 20x);
3. ``acm.bradley_terry(..., bootstrap=1000)``: a 1000-replicate bootstrap
   over workers (bar: < 5 s).

    python python/benches/bench_bt.py [--ref-python PATH] [--rounds N] [--skip-noisy] [--quick]

The package runs in this interpreter (``make python-dev``); choix and
Crowd-Kit run in ``--ref-python`` (default /work/venvs/bt-ref/bin/python,
or $BT_REF_PYTHON), a subprocess that times its own fits on the same data
(startup and data loading excluded). Rounds alternate between the two, and
each figure is the best of its rounds (3 by default). Crowd-Kit's fits use their defaults
(``n_iter=100``, ``tol=1e-5``; its ``BradleyTerry`` stops after a few
updates, short of the maximum, so its time is a lower bound of what a
converged fit would cost); choix's ``ilsr_pairwise`` its defaults
(``alpha=0``, ``tol=1e-8``). ``--quick``: a tenth of the size, one round;
``--skip-noisy``: without the noisy models (at full size the package's
noisy fit, an EM that converges slowly when some workers answer at random,
takes minutes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.abspath(__file__)
QUICK = "--quick" in sys.argv
SKIP_NOISY = "--skip-noisy" in sys.argv


def make_data(path, n_items, n, workers, seed=2026):
    rng = np.random.default_rng(seed)
    true = rng.normal(size=n_items)
    a = rng.integers(0, n_items, n)
    b = (a + rng.integers(1, n_items, n)) % n_items
    worker = rng.integers(0, workers, n)
    careless = rng.random(workers) < 0.2
    p = 1 / (1 + np.exp(-(true[a] - true[b])))
    p = np.where(careless[worker], 0.5, p)
    first_wins = rng.random(n) < p
    np.savez(path, first=a, second=b, first_wins=first_wins, worker=worker)


def load(path):
    d = np.load(path)
    return d["first"], d["second"], d["first_wins"], d["worker"]


def reference(what, path, rounds):
    """Runs in the reference interpreter: times ``what`` ``rounds`` times."""
    first, second, first_wins, worker = load(path)
    n_items = int(max(first.max(), second.max())) + 1
    winner = np.where(first_wins, first, second)
    loser = np.where(first_wins, second, first)
    times = []
    if what == "choix_ilsr":
        import choix

        pairs = list(zip(winner.tolist(), loser.tolist(), strict=True))
        for _ in range(rounds):
            t = time.perf_counter()
            choix.ilsr_pairwise(n_items, pairs)
            times.append(time.perf_counter() - t)
    else:
        import pandas as pd
        from crowdkit.aggregation import BradleyTerry, NoisyBradleyTerry

        df = pd.DataFrame(
            {
                "worker": worker,
                "left": first,
                "right": second,
                "label": np.where(first_wins, first, second),
            }
        )
        for _ in range(rounds):
            model = BradleyTerry(n_iter=100) if what == "crowdkit_bt" else NoisyBradleyTerry()
            t = time.perf_counter()
            model.fit(df)
            times.append(time.perf_counter() - t)
    print(json.dumps(times))


def run_reference(ref_python, what, path, rounds=1):
    out = subprocess.run(
        [ref_python, HERE, "--reference", what, path, str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return min(json.loads(out.strip().splitlines()[-1]))


def ours(what, path):
    import adaptive_comp_metrics as acm

    first, second, first_wins, worker = load(path)
    winner = np.where(first_wins, first, second)
    loser = np.where(first_wins, second, first)
    t = time.perf_counter()
    if what == "bt":
        fit = acm.bradley_terry(winner, loser, worker=worker)
    elif what == "noisy":
        table = {
            "worker": worker,
            "left": first,
            "right": second,
            "label": np.where(first_wins, first, second),
        }
        fit = acm.noisy_bradley_terry(data=table)
    else:
        fit = acm.bradley_terry(winner, loser, worker=worker, bootstrap=1000)
    elapsed = time.perf_counter() - t
    assert np.isfinite(fit.standard_errors).all()
    return elapsed


def main():
    ref_python = os.environ.get("BT_REF_PYTHON", "/work/venvs/bt-ref/bin/python")
    if "--ref-python" in sys.argv:
        ref_python = sys.argv[sys.argv.index("--ref-python") + 1]
    n_items, n, workers = (100, 10_000, 20) if QUICK else (1000, 100_000, 200)
    rounds = 1 if QUICK else 3
    if "--rounds" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "votes.npz")
        make_data(path, n_items, n, workers)
        best: dict[str, float] = {}

        def keep(name, t):
            print(f"  ... {name}: {t:.3f} s", flush=True)
            best[name] = min(best.get(name, float("inf")), t)

        for _ in range(rounds):
            keep("acm bradley_terry (with SEs)", ours("bt", path))
            keep("choix ilsr_pairwise", run_reference(ref_python, "choix_ilsr", path))
            keep("acm bradley_terry (with SEs) ", ours("bt", path))
            keep("crowd-kit BradleyTerry", run_reference(ref_python, "crowdkit_bt", path))
            if not SKIP_NOISY:
                keep("acm noisy_bradley_terry (with SEs)", ours("noisy", path))
                keep(
                    "crowd-kit NoisyBradleyTerry",
                    run_reference(ref_python, "crowdkit_noisy", path),
                )
            keep("acm bootstrap, 1000 replicates", ours("bootstrap", path))
        ours_bt = min(
            best.pop("acm bradley_terry (with SEs) "), best["acm bradley_terry (with SEs)"]
        )
        best["acm bradley_terry (with SEs)"] = ours_bt
    print(f"{n} comparisons, {n_items} items, {workers} workers; best of {rounds} rounds")
    print(f"load average: {os.getloadavg()}")
    for name, t in best.items():
        print(f"  {name:40s} {t:9.3f} s")
    bars = [
        ("crowd-kit BradleyTerry", "acm bradley_terry (with SEs)", 20),
        ("choix ilsr_pairwise", "acm bradley_terry (with SEs)", 5),
        ("crowd-kit NoisyBradleyTerry", "acm noisy_bradley_terry (with SEs)", 20),
    ]
    for theirs, mine, bar in bars:
        if theirs not in best:
            continue
        ratio = best[theirs] / best[mine]
        verdict = "meets" if ratio >= bar else "MISSES"
        print(f"  {mine} vs {theirs}: {ratio:.1f}x ({verdict} the {bar}x bar)")
    b = best["acm bootstrap, 1000 replicates"]
    print(f"  bootstrap: {b:.2f} s ({'meets' if b < 5 else 'MISSES'} the 5 s bar)")


if __name__ == "__main__":
    if "--reference" in sys.argv:
        i = sys.argv.index("--reference")
        reference(sys.argv[i + 1], sys.argv[i + 2], int(sys.argv[i + 3]))
    else:
        main()
