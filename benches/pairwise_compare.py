"""Side-by-side timing of Bradley–Terry fits: `acm pairwise fit` against
choix and Crowd-Kit on the same comparisons, in interleaved rounds.

    python benches/pairwise_compare.py ACM [ROUNDS] [SEED]

ACM is the `acm` binary to time (build it with
`cargo build --release -p adaptive-comp-metrics-cli`). Run it in a virtual
environment with the reference packages:

    python -m venv /tmp/bt-ref && /tmp/bt-ref/bin/pip install choix==0.4.1 crowd-kit==1.4.2
    /tmp/bt-ref/bin/python benches/pairwise_compare.py target/release/acm

The data: 10^3 items with scores N(0, 1), 10^5 comparisons of uniformly
drawn pairs by 200 workers (the first 20 answer at random), the winner
drawn from the Bradley–Terry model; written to a temporary CSV file
(winner,loser,worker). Each round times, in this order:

- acm bt: `acm pairwise fit --format csv` (maximum likelihood, standard
  errors from the observed information, rank intervals, P(top 10)): the
  whole process, reading the CSV included;
- choix ilsr_pairwise (alpha 0, tol 1e-8), scores only;
- Crowd-Kit BradleyTerry (n_iter 100), scores only;
- acm noisy-bt: the noisy model, with its standard errors;
- Crowd-Kit NoisyBradleyTerry (n_iter 100), scores only;
- acm bt --bootstrap 1000: 1000 replicates resampling workers.

Printed: the median wall time of each over the rounds, the ratios, and the
largest difference between acm's and choix's centred scores (they fit the
same likelihood: it should be near 1e-6 or below).
"""

import csv
import io
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")


def generate(seed):
    rng = np.random.default_rng(seed)
    n, m, workers = 1000, 100_000, 200
    theta = rng.normal(size=n)
    a = rng.integers(0, n, size=m)
    b = (a + rng.integers(1, n, size=m)) % n
    w = rng.integers(0, workers, size=m)
    p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
    p = np.where(w < 20, 0.5, p)
    a_wins = rng.random(m) < p
    winner = np.where(a_wins, a, b)
    loser = np.where(a_wins, b, a)
    return n, winner, loser, w


def timed(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out


def main():
    acm = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    import choix
    import pandas as pd
    from crowdkit.aggregation import BradleyTerry, NoisyBradleyTerry

    n, winner, loser, w = generate(seed)
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as votes:
        votes.write("winner,loser,worker\n")
        for x, y, k in zip(winner, loser, w):
            votes.write(f"i{x},i{y},w{k}\n")
    pairs = list(zip(winner.tolist(), loser.tolist()))
    frame = pd.DataFrame(
        {
            "worker": [f"w{k}" for k in w],
            "left": [f"i{x}" for x in winner],
            "right": [f"i{y}" for y in loser],
            "label": [f"i{x}" for x in winner],
        }
    )

    def run_acm(*extra):
        out = subprocess.run(
            [acm, "pairwise", "fit", votes.name, "--format", "csv", "--quiet", *extra],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return {r["item"]: float(r["score"]) for r in csv.DictReader(io.StringIO(out))}

    tasks = [
        ("acm bt (with SEs)", lambda: run_acm()),
        ("acm bt --no-draws", lambda: run_acm("--no-draws")),
        ("choix ilsr_pairwise", lambda: choix.ilsr_pairwise(n, pairs, alpha=0.0, tol=1e-8)),
        ("crowd-kit BradleyTerry", lambda: BradleyTerry(n_iter=100).fit(frame)),
        ("acm noisy-bt (with SEs)", lambda: run_acm("--model", "noisy-bt")),
        ("crowd-kit NoisyBradleyTerry", lambda: NoisyBradleyTerry(n_iter=100).fit(frame)),
        ("acm bt --bootstrap 1000", lambda: run_acm("--bootstrap", "1000")),
    ]
    times = {name: [] for name, _ in tasks}
    results = {}
    for _ in range(rounds):
        for name, f in tasks:
            t, out = timed(f)
            times[name].append(t)
            results[name] = out
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{n} items, {len(pairs)} comparisons, 200 workers")
    print(f"{rounds} interleaved rounds, median wall time in seconds")
    for name, t in med.items():
        each = ", ".join(f"{x:.3f}" for x in times[name])
        print(f"  {name:<30} {t:9.3f}   (all: {each})")
    for what, theirs, ours in [
        ("choix ilsr / acm bt", "choix ilsr_pairwise", "acm bt (with SEs)"),
        ("crowd-kit BT / acm bt", "crowd-kit BradleyTerry", "acm bt (with SEs)"),
        ("choix ilsr / acm bt --no-draws", "choix ilsr_pairwise", "acm bt --no-draws"),
        ("crowd-kit BT / acm --no-draws", "crowd-kit BradleyTerry", "acm bt --no-draws"),
        (
            "crowd-kit noisy / acm noisy-bt",
            "crowd-kit NoisyBradleyTerry",
            "acm noisy-bt (with SEs)",
        ),
    ]:
        print(f"{what:<32} {med[theirs] / med[ours]:.1f}x")
    ours = results["acm bt (with SEs)"]
    theirs = np.asarray(results["choix ilsr_pairwise"])
    theirs = theirs - theirs.mean()
    diff = max(abs(ours[f"i{i}"] - theirs[i]) for i in range(n))
    print(f"largest |acm bt - choix ilsr| over the centred scores: {diff:.2e}")


if __name__ == "__main__":
    main()
