"""Side-by-side timings of the Python package against the tools it replaces,
in one run (issue 23's performance bars):

1. ``weightedtau`` at n = 10^6: ``acm.weightedtau`` against
   ``scipy.stats.weightedtau``, and the binding's overhead against the Rust
   call alone (``examples/bench_weighted_tau.rs``, same SplitMix64 data) at
   n = 10^6 and n = 10;
2. TREC at 10^4 queries x 100 documents: ``parse_qrel`` + ``parse_run`` +
   ``RelevanceEvaluator(...).evaluate`` of pytrec_eval against the package
   (from files read by the library, and through the same dicts);
3. ``evaluate_word_pairs`` on a word2vec text file of about 600 MB:
   gensim's ``load_word2vec_format`` + ``evaluate_word_pairs`` against
   ``acm.evaluate_word_pairs`` on the file.

    make python-bench                   (or: python python/benches/bench_all.py [--quick])

``--quick`` runs each at a tenth of the size (a smoke run). Needs the
package installed (``make python-dev``), SciPy, pytrec_eval and gensim;
builds the Rust example with cargo. Timings are best-of-k wall times; run on
a quiet machine for figures to quote.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import timeit

import numpy as np

import adaptive_comp_metrics as acm

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "vigna"))
sys.path.insert(0, os.path.join(ROOT, "benches"))
from gen_scipy import data  # noqa: E402
from trec_compare import MEASURES, best_of, write_files  # noqa: E402

QUICK = "--quick" in sys.argv


def rust_weightedtau(n, repeats):
    exe = os.path.join(ROOT, "target", "release", "examples", "bench_weighted_tau")
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "bench_weighted_tau"],
        cwd=ROOT,
        check=True,
    )
    out = subprocess.run(
        [exe, str(n), "42", str(repeats)], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def bench_weightedtau():
    from scipy import stats

    n = 100_000 if QUICK else 1_000_000
    x, y = (np.asarray(v) for v in data(42, n, 0))
    # Best of 10 each, back to back: at n = 10^6 one call takes 40 ms and
    # the spread between calls (a few ms) is larger than the binding's cost.
    # The package is timed before SciPy's call and after it, and the page
    # faults of a call are printed: with glibc's malloc, a process that has
    # imported SciPy got its ~40 MB of scratch back from the system on every
    # call (10 000 page faults, +40 to +80 %); the extension's allocator
    # (mimalloc) keeps them for the next call.
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t_fresh, v_acm = best_of(10, lambda: acm.weightedtau(x, y).statistic)
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / 10
    t_scipy, v_scipy = best_of(1, lambda: stats.weightedtau(x, y).statistic)
    t_acm, _ = best_of(10, lambda: acm.weightedtau(x, y).statistic)
    rust = rust_weightedtau(n, 10)
    assert abs(v_acm - v_scipy) <= 1e-12 * max(1.0, abs(v_scipy)), (v_acm, v_scipy)
    assert v_acm == rust["weightedtau"], (v_acm, rust["weightedtau"])
    print(
        f"weightedtau, n = {n}: scipy {t_scipy:.3f} s, acm {t_acm:.4f} s after SciPy's call "
        f"({t_scipy / t_acm:.0f}x), {t_fresh:.4f} s before it ({t_scipy / t_fresh:.0f}x); "
        f"Rust call {rust['weightedtau_s']:.4f} s, binding overhead "
        f"{100 * (t_fresh - rust['weightedtau_s']) / rust['weightedtau_s']:+.1f} % before "
        f"SciPy's call, {100 * (t_acm - rust['weightedtau_s']) / rust['weightedtau_s']:+.1f} % "
        "after it "
        f"({faults:.0f} page faults a call)"
    )
    xs, ys = (np.asarray(v) for v in data(42, 10, 0))
    calls = 20_000
    per_call = min(timeit.repeat(lambda: acm.weightedtau(xs, ys), number=calls, repeat=5)) / calls
    core = (
        min(
            timeit.repeat(
                lambda: acm._core.weightedtau(xs, ys, "symmetric", None, True, False),
                number=calls,
                repeat=5,
            )
        )
        / calls
    )
    rust10 = rust_weightedtau(10, 2000)["weightedtau_s"]
    print(
        f"weightedtau, n = 10: acm {1e6 * per_call:.2f} us a call (extension alone "
        f"{1e6 * core:.2f} us), Rust call {1e6 * rust10:.2f} us: overhead "
        f"{1e6 * (per_call - rust10):.2f} us"
    )


def bench_trec():
    import pytrec_eval

    queries = 1000 if QUICK else 10_000
    with tempfile.TemporaryDirectory() as d:
        qrels_path, run_path = write_files(d, queries, 100, 16)

        def theirs():
            with open(qrels_path) as f:
                qrels = pytrec_eval.parse_qrel(f)
            with open(run_path) as f:
                run = pytrec_eval.parse_run(f)
            return pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES)).evaluate(run)

        def ours_files():
            return acm.RelevanceEvaluator(qrels_path, set(MEASURES)).evaluate(run_path)

        def ours_dicts():
            qrels, run = acm.parse_qrel(qrels_path), acm.parse_run(run_path)
            return acm.RelevanceEvaluator(qrels, set(MEASURES)).evaluate(run)

        t_theirs, r_theirs = best_of(3, theirs)
        t_files, r_files = best_of(3, ours_files)
        t_dicts, r_dicts = best_of(3, ours_dicts)
    worst = max(abs(r_files[q][m] - v) for q in r_theirs for m, v in r_theirs[q].items())
    assert worst <= 1e-12 and r_files == r_dicts
    print(
        f"TREC {queries} x 100, parse + evaluate ({len(MEASURES)} measures): pytrec_eval "
        f"{t_theirs:.3f} s, acm from files {t_files:.3f} s ({t_theirs / t_files:.1f}x), "
        f"acm through dicts {t_dicts:.3f} s ({t_theirs / t_dicts:.1f}x); values agree to "
        f"{worst:.0e}"
    )


def write_vectors(path, mb, dim=300):
    """A word2vec text file of about ``mb`` MB: 1 000 distinct random rows,
    repeated under distinct words (reading costs the same per byte)."""
    rng = np.random.default_rng(1)
    bodies = [" ".join(f"{v:.6f}" for v in rng.uniform(-1, 1, dim)) for _ in range(1000)]
    row = len(bodies[0]) + 14
    rows = mb * 1_000_000 // row
    with open(path, "w") as f:
        f.write(f"{rows} {dim}\n")
        for start in range(0, rows, 1000):
            f.write(
                "".join(
                    f"word{i:07d} {bodies[i % 1000]}\n"
                    for i in range(start, min(rows, start + 1000))
                )
            )
    return rows


def bench_wordsim():
    from gensim.models import KeyedVectors

    mb = 60 if QUICK else 600
    with tempfile.TemporaryDirectory() as d:
        vec = os.path.join(d, "vectors.vec")
        rows = write_vectors(vec, mb)
        size = os.path.getsize(vec) / 1e6
        rng = np.random.default_rng(2)
        pairs = os.path.join(d, "pairs.tsv")
        with open(pairs, "w") as f:
            written = 0
            while written < 3000:
                a, b = rng.choice(min(rows, 250_000), 2, replace=False)
                if a % 1000 == b % 1000:
                    # The same vector under two words: the package's cosine
                    # is exactly 1, gensim's float32 one 1 ± 1e-7, which
                    # reorders such ties; keep the comparison to real pairs.
                    continue
                written += 1
                f.write(f"word{a:07d}\tword{b:07d}\t{10 * rng.random():.2f}\n")

        def theirs():
            kv = KeyedVectors.load_word2vec_format(vec)
            return kv.evaluate_word_pairs(pairs)

        def ours():
            return acm.evaluate_word_pairs(vec, pairs)

        t_ours, r_ours = best_of(3, ours)
        t_theirs, r_theirs = best_of(1, theirs)
    assert abs(r_ours[1][0] - r_theirs[1][0]) < 1e-6 and abs(r_ours[2] - r_theirs[2]) < 1e-9
    print(
        f"evaluate_word_pairs on a {size:.0f} MB word2vec text file ({rows} rows), 3000 "
        f"pairs: gensim load + evaluate {t_theirs:.2f} s, acm {t_ours:.3f} s "
        f"({t_theirs / t_ours:.0f}x); spearman {r_ours[1][0]:.6f} vs {r_theirs[1][0]:.6f}"
    )


def main():
    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
        f"{' (--quick: a tenth of the sizes)' if QUICK else ''}"
    )
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for name, f in [
        ("weightedtau", bench_weightedtau),
        ("trec", bench_trec),
        ("wordsim", bench_wordsim),
    ]:
        if not only or name in only:
            f()


if __name__ == "__main__":
    main()
