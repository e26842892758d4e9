"""A byte-exact model of the SemEval-2007 Task 10 scorer `score.pl`
(McCarthy & Navigli 2007), quirks included. Not the scorer itself: it is
written from a reading of `score.pl` and checked against the real script by
`score_pl_diff.py` (thousands of random messy files, identical output).

What it models, as `score.pl` does it (Perl 5, byte strings, no locale):
- lines split on "\\n" only (a "\\r" stays in the line and in the last field);
- gold and system lines found with the unanchored regexes
  `([\\w.]+) (\\S+) :: (.*)` (best, gold) and `([\\w.]+) (\\S+) ::: (.*)` (oot);
- gold fields split on ';' (trailing empty fields dropped, leading kept),
  fields containing "pn" dropped, the first field's count found with
  `[\\w'\\-\\s]+ (\\d+)`, an item kept when it has 2+ fields or a first count
  above 1, each field parsed with `(\\w[\\w'\\-\\s]+) (\\d+)` (so one-character
  substitutes never match, `garden  1` gives the key "garden ", and
  `11.27 kilograms 1` gives "27 kilograms"), first apostrophe removed, later
  duplicates overwriting earlier counts, the mode being the first parsed
  field unless a later field has the same count (Perl truthiness: a mode
  "0" does not count as set);
- system answers split on ';' (trailing empty fields dropped), "non-x" and
  "non x" joined, every "-" made a space, the first apostrophe removed, no
  trimming; a repeated id scored once (first line); the lemma ignored; a
  line whose answer text is blank reuses the previous line's answers for
  the credit and the mode (but is not counted as attempted);
- gold keys with a hyphen also credited under their spaced spelling.

Perl iterates hashes in a random order: where two gold spellings of one item
meet with different counts (`well-being 2;well being 1`), `score.pl`'s credit
depends on that order. The model visits keys in file order and reports such
items in `order_dependent`; the differential test never uses such inputs.

Run:  python3 tests/data/lexsub/score_pl_model.py > tests/data/lexsub/score_pl_model.out
(plain Python 3.11, no package needed.)
"""

import os
import re
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))

# Python's bytes regexes use the same classes as Perl on byte strings:
# \w = [A-Za-z0-9_], \s = [ \t\n\r\f\v], \d = [0-9], `.` = any byte but \n.
RECORD = {
    "best": re.compile(rb"([\w.]+) (\S+) :: (.*)"),
    "oot": re.compile(rb"([\w.]+) (\S+) ::: (.*)"),
}
FIRST = re.compile(rb"[\w'\-\s]+ (\d+)")
ENTRY = re.compile(rb"(\w[\w'\-\s]+) (\d+)")
NON = re.compile(rb"^non(\s|-)(.*)$")
NONSPACE = re.compile(rb"\S")


class Died(Exception):
    """score.pl stops with "Illegal division by zero"."""


def lines(data):
    """Perl's `while (<FH>)` lines, without their "\\n"."""
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    return parts


def perl_split(text):
    """split(';', $text): trailing empty fields removed."""
    parts = text.split(b";")
    while parts and parts[-1] == b"":
        parts.pop()
    return parts


def truthy(value):
    """Perl truthiness of a string (undef is None)."""
    return value is not None and value not in (b"", b"0")


def read_gold(data):
    idres, modes = {}, {}
    totitems = totmodes = 0
    for line in lines(data):
        m = RECORD["best"].search(line)
        if not m:
            continue
        id_, rest = m.group(2), m.group(3)
        mode = modenum = None
        ms = False
        num = 0
        res = [r for r in perl_split(rest) if b"pn" not in r]
        if res:
            f = FIRST.search(res[0])
            if f:
                num = int(f.group(1))
        if not (len(res) > 1 or num > 1):
            continue
        totitems += 1
        for r in res:
            e = ENTRY.search(r)
            if not e:
                continue
            sub, num = e.group(1).replace(b"'", b"", 1), int(e.group(2))
            if not truthy(mode):
                mode, modenum = sub, num
                modes[id_] = mode
                totmodes += 1
            elif not ms and truthy(mode) and num == modenum:
                modes.pop(id_, None)
                totmodes -= 1
                ms = True
            idres.setdefault(id_, {})[sub] = num
    return idres, modes, totitems, totmodes


def norms(subs):
    """normalisevalues in file order; also the keys whose value depends on
    Perl's hash order."""
    hu = sum(subs.values())
    out, writers = {}, {}
    for k, v in subs.items():
        if hu == 0:
            raise Died("normalisevalues")
        keys = [k] + ([k.replace(b"-", b" ")] if b"-" in k else [])
        for key in keys:
            out[key] = v / hu
            writers.setdefault(key, set()).add(v)
    return out, {k for k, vs in writers.items() if len(vs) > 1}


def fixmisc(answers):
    out = []
    for a in answers:
        m = NON.match(a)
        if m:
            a = b"non" + m.group(2)
        a = a.replace(b"-", b" ").replace(b"'", b"", 1)
        out.append(a)
    return out


def myround(x):
    """score.pl's myround(x, 2) as a string, and the argument of its int()."""
    n = x * 100
    n = n * 100
    arg = n + 0.5
    r = int(arg) / 100
    s = f"{r:.15g}"
    if "." in s:
        s += "0" * (2 - len(s.split(".")[1]))
    else:
        s += ".00"
    return s, arg


def score(gold, system, fmt):
    """Scores bytes `system` against bytes `gold`; returns a dict of what
    score.pl computes. Raises Died where score.pl dies while reading."""
    idres, modes, totitems, totmodes = read_gold(gold)
    corr = 0.0
    attempted = totmodatt = modehits = dupflag = 0
    done, res, numguesses = set(), [], 0
    errors, order_dependent = [], []
    for lcnt, line in enumerate(lines(system), 1):
        m = RECORD[fmt].search(line)
        if not m:
            if NONSPACE.search(line):
                errors.append(lcnt)
            continue
        id_, rest = m.group(2), m.group(3)
        subs = idres.get(id_, {})
        nm, dep = norms(subs)
        hu = sum(subs.values())
        if not hu or id_ in done:
            continue
        done.add(id_)
        if NONSPACE.search(rest):
            res = fixmisc(perl_split(rest))
            numguesses = len(res)
            if res:
                attempted += 1
            if fmt == "oot" and len(res) != len(set(res)):
                dupflag += 1
        if fmt == "oot":
            res = res[:10]
            if truthy(modes.get(id_)) and res:
                totmodatt += 1
                modehits += modes[id_] in res
        elif truthy(modes.get(id_)) and numguesses:
            totmodatt += 1
            modehits += modes[id_] == res[0]
        idcorr = 0
        for a in res:
            idcorr += nm.get(a, 0)
            if a in dep and id_ not in order_dependent:
                order_dependent.append(id_)
        if idcorr:
            corr += idcorr if fmt == "oot" else idcorr / numguesses
    return {
        "totitems": totitems,
        "attempted": attempted,
        "corr": corr,
        "totmodes": totmodes,
        "totmodatt": totmodatt,
        "modehits": modehits,
        "errors": errors,
        "dupflag": dupflag,
        "order_dependent": order_dependent,
    }


def report(r, fmt, sysname="system"):
    """What score.pl prints (stdout lines) and the arguments of its int()
    calls, stopping where it divides by zero."""
    out = [f"Error in {sysname} on line {n}" for n in r["errors"]]
    ints = []
    if fmt == "oot" and r["dupflag"]:
        out.append(f"WARNING OOT file contains duplicates on {r['dupflag']} lines")
    figures = []
    for num, den in [
        (r["corr"], r["attempted"]),
        (r["corr"], r["totitems"]),
        (r["modehits"], r["totmodatt"]),
        (r["modehits"], r["totmodes"]),
    ]:
        if den == 0:
            break
        s, arg = myround(num / den)
        figures.append(s)
        ints.append(arg)
        if len(figures) == 2:
            out.append(f"Total = {r['totitems']}, attempted = {r['attempted']}")
            out.append("precision = {}, recall = {}".format(*tuple(figures)))
        if len(figures) == 4:
            out.append(f"Total with mode {r['totmodes']} attempted {r['totmodatt']}")
            label = (
                "Mode precision = %s, Mode recall = %s"
                if fmt == "best"
                else "precision = %s, recall = %s"
            )
            out.append(label % tuple(figures[2:]))
    return out, ints


def print_scores(prefix, name, fmt, gold):
    """One line of the four scores of file `name` against `gold`."""
    r = score(gold, Path(HERE, name).read_bytes(), fmt)
    pairs = [
        (r["corr"], r["attempted"]),
        (r["corr"], r["totitems"]),
        (r["modehits"], r["totmodatt"]),
        (r["modehits"], r["totmodes"]),
    ]
    print(*prefix, name, *[myround(a / b)[0] for a, b in pairs])


if __name__ == "__main__":
    gold = Path(HERE, "gold.txt").read_bytes()
    for name, fmt in [("wellformed.best", "best"), ("wellformed.oot", "oot")]:
        print_scores([], name, fmt, gold)
    # The files with defect triggers: the crate's default profile deliberately
    # differs here (empty line borrowing answers, repeated answers, CRLF).
    for name, fmt in [("system.best", "best"), ("system.oot", "oot")]:
        print_scores(["#"], name, fmt, gold)
