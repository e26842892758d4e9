"""Reference values for `acm compare trec` (cli/tests/acm/compare.rs), from
the reference implementations:

- pytrec_eval (trec_eval's C code) and ir_measures 0.4: per-query values of
  the measures by both namings (trec_eval's `map`, `ndcg_cut_10`, `P_5` at
  relevance level 2, `recip_rank`; ir_measures' `AP`, `nDCG@10`,
  `P(rel=2)@5`, `RR@5`, `R@5`, `Judged@10`, `AP(rel=2)`);
- SciPy: ttest_rel (statistic, p-value, the 95 % interval of the mean
  difference), the Student interval of each run's mean, wilcoxon (zeros
  dropped, normal approximation with the tie correction, as SciPy chooses
  for n > 50 or ties);
- statsmodels: multipletests (holm over the pairs of each measure; fdr_bh
  over every pair of the seven ir_measures names' comparisons together);
- ranx `compare` (paired t-test, `stat_test="student"`) on the two runs
  without tied scores (cmp_b.run, cmp_c.run) over the same queries: each
  run's mean and the pair's p-value for ndcg@10, map, mrr@5, precision@5.
  trec.run has tied scores, which ranx orders otherwise than trec_eval
  (trec_eval breaks a tie by document id, descending), so it is left out.

It writes, next to the relevance test files it reads
(tests/data/relevance/trec.qrels, trec.run), two more runs of the same
documents with seeded noise on the scores (cmp_b.run, cmp_c.run; Python's
random with a fixed seed, the same files on every run) and cli_expected.json.

Run in a venv with pytrec_eval-terrier, ir_measures, ranx, scipy, statsmodels:

    python3 make_cli_expected.py
"""

import json
import math
import os
import random
import warnings
from importlib import metadata

import ir_measures
import numpy as np
import pytrec_eval
import ranx
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
RELEVANCE = os.path.join(HERE, "..", "relevance")


def write_runs():
    """cmp_b.run and cmp_c.run: trec.run's documents with noisy scores."""
    rng = random.Random(34)
    with open(os.path.join(RELEVANCE, "trec.run")) as f:
        lines = [line.split() for line in f if line.strip()]
    for name, noise in [("cmp_b", 0.5), ("cmp_c", 1.5)]:
        with open(os.path.join(HERE, name + ".run"), "w") as out:
            for q, _, d, r, s, _ in lines:
                out.write(f"{q} Q0 {d} {r} {float(s) + rng.gauss(0, noise):.3f} {name}\n")


# ir_measures' names, asked together in one `acm compare trec` run.
IR_NAMES = ["AP", "nDCG@10", "P(rel=2)@5", "RR@5", "R@5", "Judged@10", "AP(rel=2)"]


def read_qrels(path):
    qrels = {}
    with open(path) as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    return qrels


def read_run(path):
    run = {}
    with open(path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    return run


def trec_eval(qrels, run, measure, level=1):
    ev = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level)
    res = ev.evaluate(run)
    key = measure.replace(".", "_")
    return {q: v[key] for q, v in res.items()}


def ir(qrels, run, name):
    m = ir_measures.parse_measure(name)
    return {r.query_id: r.value for r in m.iter_calc(qrels, run)}


# ranx's metric names for the CLI's, on the runs without tied scores.
RANX_NAMES = {"nDCG@10": "ndcg@10", "AP": "map", "RR@5": "mrr@5", "P@5": "precision@5"}


def ranx_reference(qrels, runs, queries):
    """ranx compare's means and paired t-test p-value of cmp_b vs cmp_c."""
    keep = set(queries)
    ranx_qrels = ranx.Qrels({q: d for q, d in qrels.items() if q in keep})
    ranx_runs = [
        ranx.Run({q: d for q, d in runs[n].items() if q in keep}, name=n)
        for n in ("cmp_b.run", "cmp_c.run")
    ]
    report = ranx.compare(
        ranx_qrels, ranx_runs, list(RANX_NAMES.values()), stat_test="student", max_p=0.05
    )
    out = {}
    for cli, name in RANX_NAMES.items():
        out[cli] = {
            "means": {r.name: report.results[r.name][name] for r in ranx_runs},
            "p_t": report.comparisons[("cmp_b.run", "cmp_c.run")][name]["p_value"],
        }
    return out


def main():
    write_runs()
    qrels = read_qrels(os.path.join(RELEVANCE, "trec.qrels"))
    paths = {
        "trec.run": os.path.join(RELEVANCE, "trec.run"),
        "cmp_b.run": os.path.join(HERE, "cmp_b.run"),
        "cmp_c.run": os.path.join(HERE, "cmp_c.run"),
    }
    runs = {n: read_run(p) for n, p in paths.items()}
    names = list(runs)
    # The CLI's measure name -> per-query values of each run, by trec_eval
    # (pytrec_eval) and by ir_measures.
    per_query = {}
    by_trec_eval = {
        "map": ("map", 1),
        "ndcg_cut.10": ("ndcg_cut.10", 1),
        "P.5": ("P.5", 2),  # asked as `-l 2 -m P.5`
        "recip_rank": ("recip_rank", 1),
    }
    for cli, (m, level) in by_trec_eval.items():
        per_query[cli] = {n: trec_eval(qrels, runs[n], m, level) for n in names}
    for cli in IR_NAMES:
        per_query[cli] = {n: ir(qrels, runs[n], cli) for n in names}
    # The queries every run has and the qrels judge (trec_eval without -c).
    queries = sorted(set(qrels) & set.intersection(*(set(r) for r in runs.values())))
    measures = {}
    all_p = []
    for cli, values in per_query.items():
        x = {n: np.array([values[n].get(q, 0.0) for q in queries]) for n in names}
        systems = []
        for n in names:
            v = x[n]
            ci = stats.t.interval(0.95, len(v) - 1, loc=v.mean(), scale=stats.sem(v))
            systems.append({"name": n, "mean": v.mean(), "lower": ci[0], "upper": ci[1]})
        pairs = []
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = x[names[i]], x[names[j]]
                d = a - b
                t = stats.ttest_rel(a, b)
                ci = t.confidence_interval(0.95)
                w = stats.wilcoxon(a, b, method="asymptotic")
                pairs.append(
                    {
                        "a": names[i],
                        "b": names[j],
                        "difference": d.mean(),
                        "t": t.statistic,
                        "p_t": t.pvalue,
                        "lower": ci.low,
                        "upper": ci.high,
                        "wins": int((d > 0).sum()),
                        "ties": int((d == 0).sum()),
                        "losses": int((d < 0).sum()),
                        "p_wilcoxon": w.pvalue,
                    }
                )
        holm = multipletests([p["p_t"] for p in pairs], method="holm")[1]
        wilcoxon_holm = multipletests([p["p_wilcoxon"] for p in pairs], method="holm")[1]
        for p, h, wh in zip(pairs, holm, wilcoxon_holm):
            p["p_t_holm"] = h
            p["p_wilcoxon_holm"] = wh
            if cli in IR_NAMES:
                all_p.append(p["p_t"])
        per_run = {n: list(x[n]) for n in names}
        measures[cli] = {"systems": systems, "pairs": pairs, "per_query": per_run}
    # --family all --correction fdr_bh: one family of every pair of the
    # ir_measures names' comparisons.
    bh = iter(multipletests(all_p, method="fdr_bh")[1])
    for cli in IR_NAMES:
        for p in measures[cli]["pairs"]:
            p["p_t_bh_all"] = next(bh)
    doc = {
        "versions": {
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "ir_measures": ir_measures.__version__,
            "numpy": np.__version__,
            "ranx": metadata.version("ranx"),
        },
        "queries": queries,
        "measures": measures,
        "ranx": ranx_reference(qrels, runs, queries),
    }
    with open(os.path.join(HERE, "cli_expected.json"), "w") as f:
        json.dump(doc, f, indent=1, default=float)
        f.write("\n")
    assert all(math.isfinite(p) for p in all_p)


if __name__ == "__main__":
    main()
