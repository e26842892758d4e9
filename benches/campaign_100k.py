"""The N = 10^5-item campaign of the server's load test, through files.

`transition_at_100k` (serve/tests/load.rs) serves a campaign of 100 000
items, M = 20, alpha = 0.5, 7 ballots, controls (item j against item
N - 1 - j, j < 3) at a 5 % control rate, seed 12: ballot 1 answered by 500
workers, each vote for the item of the lower index, then about 200 answers
of ballot 2. This script builds the same collection with `acm campaign`
(init, export, import, close, export, import) in DIR, then times
`acm campaign rank --estimator bt --prior-sd 3` (the dashboard's prior: the
votes order the items without a cycle, so the maximum-likelihood scores are
infinite) on it, RUNS times.

    python3 benches/campaign_100k.py ACM DIR [RUNS]

Issue 35's bar: the rank command under 2 s. For interleaved figures
against another build, run farm-bench on the state it leaves in DIR:

    farm-bench -n 5 --vs 'OTHER_ACM campaign rank --state DIR/s.json --estimator bt
        --prior-sd 3 --out DIR/b.csv' -- ACM campaign rank --state DIR/s.json
        --estimator bt --prior-sd 3 --out DIR/a.csv
"""

import csv
import subprocess
import sys
import time
from pathlib import Path

N = 100_000
WORKERS = 500
BALLOT_2_ANSWERS = 200


def run(acm: str, *args: str) -> None:
    subprocess.run([acm, *args], check=True, stdout=subprocess.DEVNULL)


def answers(tasks: Path, out: Path, limit: int | None, lower_wins: bool) -> None:
    """Every task's answer (or the first `limit`): the item of the lower
    index wins (ballot 1), or the second item (ballot 2, as the load test)."""
    with tasks.open(newline="") as f, out.open("w", newline="") as g:
        rows = csv.reader(f)
        next(rows)
        w = csv.writer(g, lineterminator="\n")
        w.writerow(["task_id", "worker_id", "choice"])
        for i, row in enumerate(rows):
            if limit is not None and i >= limit:
                break
            first, second = int(row[1][1:]), int(row[3][1:])
            choice = "first" if lower_wins and first < second else "second"
            w.writerow([row[0], f"w{i % WORKERS}", choice])


def build(acm: str, d: Path) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    state = d / "s.json"
    for p in (state, d / "s.json.lock"):
        p.unlink(missing_ok=True)
    with (d / "items.csv").open("w") as f:
        f.write("id,text\n")
        f.writelines(f"p{i},item number {i}\n" for i in range(N))
    with (d / "controls.csv").open("w") as f:
        f.write("first,second,answer\n")
        f.writelines(f"p{j},p{N - 1 - j},first\n" for j in range(3))
    s = ("--state", str(state))
    run(
        acm,
        "campaign",
        "init",
        *s,
        "--items",
        str(d / "items.csv"),
        "--seed",
        "12",
        "--m",
        "20",
        "--alpha",
        "0.5",
        "--ballots",
        "7",
        "--controls",
        str(d / "controls.csv"),
        "--control-rate",
        "0.05",
    )
    run(acm, "campaign", "export", *s, "--out", str(d / "ballot1.csv"))
    answers(d / "ballot1.csv", d / "answers1.csv", None, lower_wins=True)
    run(acm, "campaign", "import", *s, "--answers", str(d / "answers1.csv"))
    run(acm, "campaign", "close", *s, "--ballot", "1")
    run(acm, "campaign", "export", *s, "--out", str(d / "ballot2.csv"))
    answers(d / "ballot2.csv", d / "answers2.csv", BALLOT_2_ANSWERS, lower_wins=False)
    run(acm, "campaign", "import", *s, "--answers", str(d / "answers2.csv"))
    return state


def main() -> None:
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    acm, d = sys.argv[1], Path(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) == 4 else 5
    state = build(acm, d)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        run(
            acm,
            "campaign",
            "rank",
            "--state",
            str(state),
            "--estimator",
            "bt",
            "--prior-sd",
            "3",
            "--out",
            str(d / "ranking.csv"),
        )
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"acm campaign rank --estimator bt --prior-sd 3, N = {N}: median "
        f"{times[len(times) // 2]:.3f} s (min {times[0]:.3f}, max {times[-1]:.3f}; {runs} runs)"
    )


if __name__ == "__main__":
    main()
