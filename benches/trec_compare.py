#!/usr/bin/env python3
"""Side-by-side timing of pytrec_eval and this crate on identical TREC files;
run it through benches/trec_compare.sh, which builds `acm`.

    python benches/trec_compare.py QUERIES DOCS SEED PATH_TO_acm [PATH_TO_trec_eval]

Writes into a temporary directory a qrels file with QUERIES x DOCS judgements
and a run with QUERIES x DOCS retrieved documents (half of each query's
ranked documents judged; grades 0..3 mostly 0, some -1; scores with 4
decimals, so ties occur; ids drawn from 10^6 document names), then times
  - loading: pytrec_eval.parse_qrel + parse_run (Python) against the crate's
    read_trec_qrels + read_trec_run (`acm trec --time`'s "load_s");
  - scoring: RelevanceEvaluator.evaluate with map, P_5, P_10, Rprec,
    recip_rank, ndcg_cut_10, ndcg against evaluate_trec with the same
    measures (best of 5 on both sides; pytrec_eval's evaluator is built
    outside the timed region);
  - reading speed: the two files' size over the crate's load time (MB/s);
  - end to end: the wall time of the whole `acm trec` process printing
    trec_eval's table (best of REPEATS, without `--time`, which scores 5
    times),
    and its CPU time (user + system, of the same run), against
    pytrec_eval's parse + evaluate (best parse plus best evaluate, in this
    process), a whole Python process that parses, evaluates and prints the
    means (best of REPEATS, wall and CPU) and, when its path is given, the
    trec_eval binary's whole run (wall and CPU time likewise);
  - peak memory (ru_maxrss) of a child process that only loads (crate) or
    parses (pytrec_eval), against the two files' size;
and checks that both sides print the same means.

REPEATS (the environment variable, default 5) is the number of runs each
timing takes the best of, the same for every tool: on a shared machine a
pause of tens of milliseconds costs a 0.15 s run a fifth of its time and a
1.5 s run a hundredth, and the best of several runs is the closest to what
the work itself costs.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytrec_eval

REPEATS = int(os.environ.get("REPEATS", "5"))
MEASURES = ["map", "P_5", "P_10", "Rprec", "recip_rank", "ndcg_cut_10", "ndcg"]


def write_files(directory, queries, docs, seed):
    rng = np.random.default_rng(seed)
    qrels_path = os.path.join(directory, "bench.qrels")
    run_path = os.path.join(directory, "bench.run")
    with open(qrels_path, "w") as qf, open(run_path, "w") as rf:
        for q in range(queries):
            ids = rng.choice(1_000_000, size=docs + docs // 2, replace=False)
            ranked = ids[:docs]
            judged = ids[docs // 2 :]  # half of the ranked ones, and more
            grades = rng.choice([-1, 0, 0, 0, 0, 1, 1, 2, 3], size=len(judged))
            scores = np.round(rng.random(docs) * 10, 4)
            qid = f"Q{q:05d}"
            qf.write("".join(f"{qid} 0 DOC{d:07d} {g}\n" for d, g in zip(judged, grades)))
            rf.write(
                "".join(
                    f"{qid} Q0 DOC{d:07d} {r} {s:.4f} bench\n"
                    for r, (d, s) in enumerate(zip(ranked, scores), start=1)
                )
            )
    return qrels_path, run_path


def trec_eval_args(measures):
    """trec_eval's -m options for measures: P_5, P_10 -> -m P.5,10 (trec_eval
    takes the first cut-offs given for a family, so one -m per family)."""
    families, args = {}, []
    for m in measures:
        if m.startswith(("P_", "ndcg_cut_")):
            head, _, cut = m.rpartition("_")
            families.setdefault(head, []).append(cut)
        else:
            args += ["-m", m]
    for head, cuts in families.items():
        args += ["-m", f"{head}.{','.join(cuts)}"]
    return args


def best_of(repeats, f):
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def timed_child(argv):
    """Wall and CPU (user + system) seconds of one child process, its
    standard output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best_child(repeats, argv):
    """The fastest of `repeats` runs of a child: (wall, cpu) of that run."""
    return min(timed_child(argv) for _ in range(repeats))


def child_rss_kb(argv):
    """Peak RSS (KiB) of one child process, from /usr/bin/time -f %M (a
    child forked from this Python process would inherit its peak: Linux
    carries ru_maxrss over exec)."""
    if not os.path.exists("/usr/bin/time"):
        return None
    res = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *argv],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return int(res.stderr.strip().splitlines()[-1])


def main():
    queries, docs, seed, exe = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with tempfile.TemporaryDirectory() as d:
        qrels_path, run_path = write_files(d, queries, docs, seed)
        # The files just written are still being flushed to disk: wait for
        # it, so that the writeback does not run during the first timings.
        os.sync()
        size = os.path.getsize(qrels_path) + os.path.getsize(run_path)
        # Crate: REPEATS runs (best load time); each scores 5 times (best).
        timing = None
        for _ in range(REPEATS):
            res = subprocess.run(
                [
                    exe,
                    "trec",
                    "--time",
                    "--format",
                    "json",
                    *trec_eval_args(MEASURES),
                    qrels_path,
                    run_path,
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            t = json.loads(next(x for x in res.stderr.splitlines() if x.startswith("{")))
            if timing is None or t["load_s"] < timing["load_s"]:
                timing = t
            timing["score_s"] = min(timing["score_s"], t["score_s"])
            rust_means = json.loads(res.stdout)["all"]
        # End to end: what a user runs, trec_eval's table on standard output.
        wall, cpu = best_child(
            REPEATS, [exe, "trec", *trec_eval_args(MEASURES), qrels_path, run_path]
        )

        def parse():
            with open(qrels_path) as f:
                qrels = pytrec_eval.parse_qrel(f)
            with open(run_path) as f:
                run = pytrec_eval.parse_run(f)
            return qrels, run

        t_parse, (qrels, run) = best_of(REPEATS, parse)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES))
        t_eval, res_py = best_of(5, lambda: evaluator.evaluate(run))
        py_means = {
            m: pytrec_eval.compute_aggregated_measure(m, [v[m] for v in res_py.values()])
            for m in MEASURES
        }

        # pytrec_eval end to end as well: a Python process that parses,
        # evaluates and prints the means (interpreter start and import
        # included, as the other two tools' process start is).
        e2e = (
            "import sys, pytrec_eval\n"
            f"measures = {MEASURES!r}\n"
            "q = pytrec_eval.parse_qrel(open(sys.argv[1]))\n"
            "r = pytrec_eval.parse_run(open(sys.argv[2]))\n"
            "res = pytrec_eval.RelevanceEvaluator(q, set(measures)).evaluate(r)\n"
            "for m in measures:\n"
            "    v = [x[m] for x in res.values()]\n"
            "    print(m, 'all', pytrec_eval.compute_aggregated_measure(m, v))\n"
        )
        py_wall, py_cpu = best_child(REPEATS, [sys.executable, "-c", e2e, qrels_path, run_path])
        rss_rust = child_rss_kb([exe, "trec", "-m", "num_ret", qrels_path, run_path])
        trec_eval_wall = None
        if len(sys.argv) > 5:
            trec_eval_wall, trec_eval_cpu = best_child(
                REPEATS, [sys.argv[5], *trec_eval_args(MEASURES), qrels_path, run_path]
            )
        code = (
            "import pytrec_eval,sys\n"
            "q=pytrec_eval.parse_qrel(open(sys.argv[1]))\n"
            "r=pytrec_eval.parse_run(open(sys.argv[2]))\n"
        )
        rss_py = child_rss_kb([sys.executable, "-c", code, qrels_path, run_path])

    print(
        f"{queries} queries x {docs} documents (qrels {timing['qrels']} lines, "
        f"run {timing['run']} lines, "
        f"{size / 1e6:.1f} MB), seed {seed}; pytrec_eval {pytrec_eval.__version__}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':34}{'pytrec_eval (s)':>16}{'crate (s)':>12}{'speed-up':>10}")
    print(
        f"{'load qrels + run':34}{t_parse:16.3f}{timing['load_s']:12.3f}"
        f"{t_parse / timing['load_s']:9.1f}x"
    )
    print(
        f"{'score (the 7 measures)':34}{t_eval:16.3f}{timing['score_s']:12.3f}"
        f"{t_eval / timing['score_s']:9.1f}x"
    )
    print(
        f"{'end to end (acm trec process)':34}{t_parse + t_eval:16.3f}{wall:12.3f}"
        f"{(t_parse + t_eval) / wall:9.1f}x"
    )
    print(
        f"reading {size / 1e6 / timing['load_s']:.0f} MB/s; acm trec end to end {wall:.3f} s wall, "
        f"{cpu:.3f} s CPU"
    )
    print(
        "pytrec_eval end to end (a Python process: parse, evaluate, print the means) "
        f"{py_wall:.3f} s "
        f"({py_cpu:.3f} s CPU): acm trec is {py_wall / wall:.1f}x faster"
    )
    if trec_eval_wall is not None:
        print(
            f"trec_eval {trec_eval_wall:.3f} s end to end ({trec_eval_cpu:.3f} s CPU): "
            f"acm trec is {trec_eval_wall / wall:.1f}x faster"
        )
    if rss_rust and rss_py:
        print(
            f"peak RSS: crate {rss_rust / 1024:.0f} MiB ({rss_rust * 1024 / size:.2f}x the files), "
            f"pytrec_eval parse {rss_py / 1024:.0f} MiB ({rss_py * 1024 / size:.2f}x)"
        )
    else:
        print("peak RSS: /usr/bin/time not found, not measured")
    worst = max(abs(py_means[m] - rust_means[m]) for m in MEASURES)
    print(
        f"means agree to {worst:.1e} ("
        + ", ".join(f"{m} {py_means[m]:.4f}" for m in MEASURES)
        + ")"
    )
    if worst > 1e-12:
        sys.exit("pytrec_eval and the crate disagree")


if __name__ == "__main__":
    main()
