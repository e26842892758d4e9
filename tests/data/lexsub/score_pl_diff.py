"""Differential test data for the crate's score.pl-exact scorer
(`lexsub::score_pl`): random messy SemEval-2007 gold and system files, scored
by the real `score.pl` (SemEval-2007 Task 10, McCarthy & Navigli 2007).

`score.pl` itself is not part of this repository (it is published with the
task data, e.g. in the public repository github.com/orenmel/lexsub,
`datasets/score.pl`); point this script at a copy:

    python3 tests/data/lexsub/score_pl_diff.py --score-pl /path/to/score.pl

It generates the cases from a fixed seed, runs score.pl on each (twice, with
two Perl hash seeds, keeping only cases where both runs agree), checks that
`score_pl_model.py` predicts exactly the same output, and writes
`score_pl_cases.json`: for each case the two files (bytes as Latin-1 code
points), the format, score.pl's stdout lines, the arguments score.pl passes to
`int()` inside its rounding (printed with %.17g through a `CORE::GLOBAL::int`
override, so the unrounded figures are compared to the last bit, not only the
two printed decimals), and where score.pl died, if it did ("reading" for the
division by zero in normalisevalues, "summary" for the final divisions).

    --check N   also compare model and score.pl on N further cases (not written)
    --cases N   write N cases instead of 200 (with --out, for a larger local run)
    --gold F    also score an oracle system on a real gold file F (printed only)

Produced with Perl 5.36.0 and Python 3.11 (standard library only).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score_pl_model as model  # noqa: E402

SEED = 20070623
CASES = 200

HARNESS = (
    "BEGIN { *CORE::GLOBAL::int = sub { my $x = shift; "
    'printf STDERR "INT %.17g\\n", $x; return CORE::int($x); }; } '
    'my $f = shift @ARGV; do $f; print STDERR "DIED $@" if $@;'
)

TERMS = [
    "glad",
    "merry",
    "sunny",
    "jovial",
    "cheerful",
    "content",
    "well-being",
    "well being",
    "wellbeing",
    "non-violent",
    "non violent",
    "nonviolent",
    "non  violent",
    "don't",
    "dont",
    "o'clock",
    "oclock",
    "garden",
    "lot",
    "kilo",
    "11.27 kilograms",
    "27 kilograms",
    "a",
    "b",
    "x",
    "I",
    "pn",
    "john pn",
    "hypnotic",
    "cheer  up",
    "cheer up",
    "cheer-up",
    "Glad",
    "caf\xc3\xa9",
    "caf\xe9",
    "0'",
    "0",
    "00",
    "ab",
    "x-y",
    "x y",
    "up-to-date",
    "up to date",
    "state of the art",
    "tab\tword",
    "na\xc3\xafve",
    "rock'n'roll",
    "rocknroll",
    "e-mail",
    "email",
    "twenty-one",
    "21",
    "3.5",
    "a.m.",
    "U.S.",
    "co-op",
    "coop",
    "'em",
    "em",
    "it's",
    "its",
    "N/A",
    "one/two",
    "(sic)",
    "HASH(0x1)",
    "non",
    "none",
    "nonsense",
    "non-",
    "-ish",
    "re-do",
    "re do",
]
TARGETS = ["bright.a", "match.n", "happy.a", "x.n", "side.n", "pound.n"]


def pick_term(rng):
    t = rng.choice(TERMS)
    r = rng.random()
    if r < 0.08:
        t = " " + t
    elif r < 0.16:
        t = t + " "
    elif r < 0.2:
        t = t.upper()
    return t


def gold_entry(rng):
    term = pick_term(rng)
    count = rng.choice(["1", "1", "1", "2", "2", "3", "4", "5", "01", "10", "0"])
    sep = rng.choice([" "] * 8 + ["  ", "\t", " \t"])
    tail = rng.choice([""] * 12 + [" ", "x", " 7"])
    return term + sep + count + tail


def gold_line(rng, target, id_):
    entries = [gold_entry(rng) for _ in range(rng.choice([1, 1, 2, 3, 3, 4, 5, 6]))]
    body = ";".join(entries)
    r = rng.random()
    if r < 0.1:
        body = ";" + body
    elif r < 0.2:
        body = body.replace(";", ";;", 1)
    if rng.random() < 0.7:
        body += ";"
    sep = rng.choice([" :: "] * 20 + [" ::", " ::  ", "::", " ::: "])
    head = rng.choice(
        [target + " " + id_] * 20 + [target + "  " + id_, id_, "x " + target + " " + id_]
    )
    end = rng.choice(["\n"] * 6 + ["\r\n"])
    return (head + sep + body + end).encode("latin-1", errors="strict")


def system_line(rng, fmt, target, id_, gold_terms):
    k = rng.choice([0, 1, 1, 2, 3, 4, 10, 12] if fmt == "oot" else [0, 1, 1, 1, 2, 3])
    answers = [
        rng.choice(gold_terms) if gold_terms and rng.random() < 0.7 else pick_term(rng)
        for _ in range(k)
    ]
    if fmt == "oot" and answers and rng.random() < 0.2:
        answers += [answers[0]] * rng.randint(1, 10)
    joiner = rng.choice([";"] * 8 + [" ; ", "; ", ";;"])
    body = joiner.join(answers)
    r = rng.random()
    if r < 0.08:
        body = ";" + body
    elif r < 0.16:
        body = body + ";"
    elif r < 0.22:
        body = " " + body
    elif r < 0.28:
        body = rng.choice(["", " ", "  ", "\t", ";", ";;", " ;"])
    want = " ::: " if fmt == "oot" else " :: "
    sep = rng.choice([want] * 40 + [" :: ", " ::: ", " ::", "::"])
    if rng.random() < 0.1:
        target = rng.choice(TARGETS)
    head = rng.choice([target + " " + id_] * 40 + [id_, target + "\t" + id_])
    end = rng.choice(["\n"] * 6 + ["\r\n"])
    return (head + sep + body + end).encode("latin-1")


def make_case(rng):
    fmt = rng.choice(["best", "oot"])
    n = rng.randint(1, 7)
    ids = [str(i) for i in rng.sample(range(1, 40), n)]
    if rng.random() < 0.15:
        ids.append(rng.choice(ids))  # repeated gold id
    targets = {i: rng.choice(TARGETS) for i in ids}
    gold, terms = b"", {}
    if rng.random() < 0.05:
        gold += b"\xef\xbb\xbf"
    for i in ids:
        line = gold_line(rng, targets[i], i)
        gold += line
        terms.setdefault(i, []).extend(
            e.strip().rsplit(" ", 1)[0]
            for e in line.decode("latin-1").split("::")[-1].split(";")
            if e.strip()
        )
        if rng.random() < 0.08:
            gold += rng.choice([b"\n", b"  \n", b"garbage line\n"])
    system = b""
    order = [*ids, str(rng.randint(40, 50))]
    rng.shuffle(order)
    for i in order:
        if rng.random() < 0.1:
            continue
        system += system_line(rng, fmt, targets.get(i, "x.n"), i, terms.get(i, []))
        if rng.random() < 0.12:  # repeated system id
            system += system_line(rng, fmt, targets.get(i, "x.n"), i, terms.get(i, []))
        if rng.random() < 0.05:
            system += rng.choice([b"\n", b"junk\n", b" \t\n"])
    if system.endswith(b"\n") and rng.random() < 0.1:
        system = system[:-1]  # no final newline
    return fmt, gold, system


def run_score_pl(score_pl, gold, system, fmt, tmp, hash_seed):
    # score.pl refuses paths containing "-t" or "-v": plain names only.
    g, s = os.path.join(tmp, "gold"), os.path.join(tmp, "system")
    with open(g, "wb") as f:
        f.write(gold)
    with open(s, "wb") as f:
        f.write(system)
    env = dict(os.environ, PERL_HASH_SEED=str(hash_seed), PERL_PERTURB_KEYS="2")
    p = subprocess.run(
        ["perl", "-e", HARNESS, score_pl, s, g, "-t", fmt],
        capture_output=True,
        env=env,
        check=False,
    )
    out = p.stdout.decode("latin-1").splitlines()
    err = p.stderr.decode("latin-1").splitlines()
    ints = [e[4:] for e in err if e.startswith("INT ")]
    died = None
    for e in err:
        if e.startswith("DIED"):
            died = "reading" if "line 592" in e else "summary"
    # score.pl names the file in its error lines: make that name neutral.
    out = [o.replace("Error in " + s, "Error in system") for o in out]
    return {"stdout": out, "ints": ints, "died": died}


def model_run(gold, system, fmt):
    try:
        r = model.score(gold, system, fmt)
    except model.Died:
        return None, {"died": "reading"}
    out, ints = model.report(r, fmt)
    dies = len(ints) < 4
    return r, {
        "stdout": out,
        "ints": [f"{x:.17g}" for x in ints],
        "died": "summary" if dies else None,
    }


def agree(real, mod):
    if mod["died"] == "reading":
        return real["died"] == "reading"
    return real == mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score-pl", required=True)
    ap.add_argument("--check", type=int, default=0)
    ap.add_argument("--cases", type=int, default=CASES)
    ap.add_argument("--gold")
    ap.add_argument("--out", default=os.path.join(HERE, "score_pl_cases.json"))
    args = ap.parse_args()
    score_pl = os.path.abspath(args.score_pl)
    rng = random.Random(SEED)
    cases, skipped = [], 0
    with tempfile.TemporaryDirectory(prefix="scorepl") as tmp:
        total = args.cases + args.check
        n = 0
        while n < total:
            fmt, gold, system = make_case(rng)
            r, mod = model_run(gold, system, fmt)
            if r is not None and r["order_dependent"]:
                skipped += 1
                continue
            a = run_score_pl(score_pl, gold, system, fmt, tmp, 1)
            b = run_score_pl(score_pl, gold, system, fmt, tmp, 12345)
            if a != b:
                skipped += 1
                continue
            if not agree(a, mod):
                print("MODEL DISAGREES", fmt, repr(gold), repr(system), a, mod, sep="\n")
                sys.exit(1)
            if n < args.cases:
                cases.append(
                    {
                        "format": fmt,
                        "gold": gold.decode("latin-1"),
                        "system": system.decode("latin-1"),
                        **a,
                    }
                )
            n += 1
    print(
        f"{total} cases: model == score.pl; {skipped} hash-order-dependent cases skipped",
        file=sys.stderr,
    )
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"seed": SEED, "cases": cases}, f, ensure_ascii=True, indent=0)
        f.write("\n")
    if args.gold:
        gold = Path(args.gold).read_bytes()
        system = b""
        for line in model.lines(gold):
            m = model.RECORD["best"].search(line)
            if m:
                first = model.perl_split(m.group(3))
                e = model.ENTRY.search(first[0]) if first else None
                if e:
                    system += m.group(1) + b" " + m.group(2) + b" :: " + e.group(1) + b"\n"
        r, mod = model_run(gold, system, "best")
        print("first-listed-substitute oracle on", args.gold, mod["stdout"], file=sys.stderr)


if __name__ == "__main__":
    main()
