"""trec_eval's own output on generated qrels and runs, for the byte-for-byte
tests of `acm trec` (cli/tests/acm/trec.rs) and the value tests of the
library (tests/domains/relevance_trec.rs).

trec_eval is not part of this repository: build it from its public source,
https://github.com/usnistgov/trec_eval (release 10.0, and tag v9.0.8 for the
9.0.x output), and give this script the binaries' paths:

    python3 tests/data/relevance/trec_eval_golden.py \\
        --trec-eval /path/to/trec_eval-10.0/trec_eval \\
        --trec-eval-9 /path/to/trec_eval-9.0.8/trec_eval

(or set TREC_EVAL and TREC_EVAL_9). It writes into trec_eval_golden/ beside
itself:

  golden.qrels, golden.run   generated (seeded) TREC files
  floats.qrels, floats.run   issue 24's case: scores 0.3 and
                             0.30000000000000004 (one C float)
  cases.tsv                  one line per command line: name, qrels, run,
                             trec_eval's arguments, the file holding
                             trec_eval 10.0's stdout, and the file holding
                             9.0.x's (the same file where they agree)
  NAME.10.out, NAME.9.out    those outputs

The generated files have what `acm trec` must treat as trec_eval does:
ties in the scores (broken by decreasing docno, whose text order differs
from the numbers': D9 > D10), scores equal as C floats but not as doubles
(where 9.0.x and 10.0 rank differently), negative scores, documents ranked
but never judged, negative grades ("in the pool, unjudged": not
non-relevant for bpref), queries without a relevant document, queries only
in the run and queries only in the qrels, ranks that disagree with the
scores, tabs, trailing white space and CRLF line ends, blank lines and a
seventh field in the run, and a last line whose tag differs from the others
(trec_eval's runid is the last line's).

trec_eval 10.0 stops ("result qid ... not found in qrels", exit 4) when the
qrels judge a query the run lacks and -c is not given; 9.0.x, and acm trec,
leave such a query out. For the command lines without -c this script runs
10.0 on the qrels restricted to the run's queries, which is what 9.0.x and
acm trec score (and checks that 10.0 does stop on the full file).
"""

import argparse
import os
import random
import subprocess
import sys

from trec_grades import NONE_RELEVANT, draw_grades

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trec_eval_golden")

# The measures of the library, with default cut-offs (summaries only) and
# with a few cut-offs each (per query, to keep the files small).
ALL = (
    "-m num_q -m runid -m num_ret -m num_rel -m num_rel_ret -m map -m gm_map "
    "-m Rprec -m bpref -m recip_rank -m iprec_at_recall -m P -m recall -m ndcg "
    "-m ndcg_cut -m map_cut -m success"
)
FEW = (
    "-m num_q -m runid -m num_ret -m num_rel -m num_rel_ret -m map -m gm_map "
    "-m Rprec -m bpref -m recip_rank -m iprec_at_recall.0,0.3,0.7,1 -m P.1,3,10 "
    "-m recall.3,10 -m ndcg -m ndcg_cut.3,10 -m map_cut.3,10 -m success.1,3"
)

# name, files, arguments.
CASES = [
    ("official", "golden", ""),
    ("official_q", "golden", "-q"),
    ("complete_q", "golden", "-c -q"),
    (
        "level2_q",
        "golden",
        "-l 2 -q -m map -m gm_map -m Rprec -m bpref -m recip_rank "
        "-m iprec_at_recall.0,0.5,1 -m P.5,10 -m recall.10 -m ndcg_cut.10",
    ),
    ("level0", "golden", "-l 0 " + ALL),
    ("nosummary", "golden", "-n -q -m map -m bpref -m P.5"),
    ("max5", "golden", "-M 5"),
    ("max5_q", "golden", "-M 5 -q -m num_ret -m map -m P.5 -m recall.5 -m success.1"),
    ("all", "golden", ALL),
    ("all_q", "golden", "-q " + FEW),
    ("complete_level2", "golden", "-c -l 2 " + ALL),
    ("complete_level2_q", "golden", "-c -l 2 -q -m map -m bpref -m num_rel -m P.5"),
    ("first_cutoffs", "golden", "-m P.10,2 -m official -m P.5"),
    ("floats", "floats", "-m map -m P.1"),
    # The set measures (trec_eval's nickname `set`) and num_nonrel_judged_ret.
    ("set_q", "golden", "-q -m set -m num_nonrel_judged_ret"),
    ("set_complete_level2_q", "golden", "-c -l 2 -q -m set -m num_nonrel_judged_ret"),
    ("max5_set", "golden", "-M 5 -m set -m num_nonrel_judged_ret"),
]


def generate(seed=24):
    rng = random.Random(seed)
    qrels, run = [], []
    # Query ids whose text order differs from their numbers'.
    qids = [str(n) for n in (7, 10, 11, 19, 100, 101, 23, 3, 31, 45, 52, 60)]
    last_tag = None
    for i, q in enumerate(qids):
        docs = [f"D{n}" for n in rng.sample(range(1, 400), 32)]
        judged = docs[4 : rng.randint(8, 26)]
        no_relevant = i % 6 == 0
        grades = draw_grades(
            rng, judged, NONE_RELEVANT if no_relevant else [-1, 0, 0, 0, 1, 1, 2, 3]
        )
        if i != 3:  # query 19: ranked, never judged
            for d in judged:
                sep = rng.choice([" ", " ", " ", "\t"])
                end = rng.choice(["", "", "", "  ", "\r"])
                qrels.append(f"{q}{sep}0{sep}{d}{sep}{grades[d]}{end}")
        if i in (5, 9):  # judged, not ranked
            continue
        ranked = docs[: rng.randint(6, 22)]
        rng.shuffle(ranked)
        base = rng.choice([1.0, 0.3, 12.5, -2.0])
        for rank, d in enumerate(ranked, start=1):
            style = rng.random()
            if style < 0.4:  # many ties
                score = round(base + rng.randint(0, 4) * 0.5, 1)
            elif style < 0.55:  # equal as a C float, not as a double
                score = base + rng.choice([1e-9, 2e-9, 5e-17 * abs(base)])
            elif style < 0.6:
                score = rng.choice([0.3, 0.30000000000000004])
            else:
                score = rng.uniform(-1, 3)
            tag = "acm_golden"
            extra = " extra" if rng.random() < 0.05 else ""
            sep = "\t" if rng.random() < 0.1 else " "
            end = "\r" if rng.random() < 0.05 else ""
            run.append(f"{q} Q0 {d} {rank}{sep}{score!r} {tag}{extra}{end}")
            if rng.random() < 0.03:
                run.append(rng.choice(["", "  ", "\t"]))
    run.append("55 Q0 D1 1 1.0 acm_golden_last")  # a query nobody judged
    last_tag = "acm_golden_last"
    rng.shuffle(qrels)
    write("golden.qrels", qrels)
    write("golden.run", run)
    write("floats.qrels", ["a 0 x 0", "a 0 y 1"])
    write("floats.run", ["a Q0 x 1 0.30000000000000004 r", "a Q0 y 2 0.3 r"])
    return last_tag


def write(name, lines):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write("\n".join(lines) + "\n")


def restricted(files):
    """The qrels of the queries the run ranks (trec_eval 10.0's input
    without -c; see the module docs)."""
    with open(os.path.join(HERE, files + ".run"), newline="") as f:
        ranked = {line.split()[0] for line in f if line.strip()}
    path = os.path.join(HERE, files + ".qrels")
    with open(path, newline="") as f:
        lines = [line for line in f if line.split()[0] in ranked]
    out = path + ".ranked.tmp"
    with open(out, "w", newline="") as f:
        f.writelines(lines)
    return out


def trec_eval(binary, args, qrels, run):
    res = subprocess.run([binary, *args.split(), qrels, run], capture_output=True, check=False)
    return res.returncode, res.stdout, res.stderr


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--trec-eval",
        default=os.environ.get("TREC_EVAL"),
        help="trec_eval 10.0 (default: $TREC_EVAL)",
    )
    p.add_argument(
        "--trec-eval-9",
        default=os.environ.get("TREC_EVAL_9"),
        help="trec_eval 9.0.8 (default: $TREC_EVAL_9)",
    )
    a = p.parse_args()
    if not a.trec_eval or not a.trec_eval_9:
        sys.exit("give the paths of trec_eval 10.0 and 9.0.8 (see the docstring)")
    os.makedirs(HERE, exist_ok=True)
    for old in os.listdir(HERE):
        if old.endswith(".out"):
            os.remove(os.path.join(HERE, old))
    generate()
    rows = []
    for name, files, args in CASES:
        qrels = os.path.join(HERE, files + ".qrels")
        run = os.path.join(HERE, files + ".run")
        complete = "-c" in args.split()
        code9, out9, err9 = trec_eval(a.trec_eval_9, args, qrels, run)
        if complete:
            code10, out10, err10 = trec_eval(a.trec_eval, args, qrels, run)
        else:
            code, _, err = trec_eval(a.trec_eval, args, qrels, run)
            if files == "golden":
                assert code == 4 and b"not found in qrels" in err, (name, code, err)
            ranked = restricted(files)
            code10, out10, err10 = trec_eval(a.trec_eval, args, ranked, run)
            os.remove(ranked)
        assert code9 == 0 and code10 == 0, (name, code9, err9, code10, err10)
        with open(os.path.join(HERE, name + ".10.out"), "wb") as f:
            f.write(out10)
        file9 = name + ".10.out"
        if out9 != out10:
            file9 = name + ".9.out"
            with open(os.path.join(HERE, file9), "wb") as f:
                f.write(out9)
        rows.append(
            "\t".join([name, files + ".qrels", files + ".run", args, name + ".10.out", file9])
        )
        print(
            f"{name}: {len(out10.splitlines())} lines, "
            f"9.0.x {'differs' if out9 != out10 else 'agrees'}"
        )
    v10 = trec_eval(a.trec_eval, "-v", "", "")[2].decode().strip()
    v9 = trec_eval(a.trec_eval_9, "-v", "", "")[2].decode().strip()
    with open(os.path.join(HERE, "cases.tsv"), "w") as f:
        f.write(
            f"# name\tqrels\trun\targuments\ttrec_eval 10.0 ({v10})\t9.0.8 ({v9})"
            "\t(see ../trec_eval_golden.py)\n"
        )
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
