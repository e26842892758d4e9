"""A model of the SemEval-2007 scorer `score.pl` (McCarthy & Navigli), written
from its documented behaviour (REFERENCES.md §3), defects included, to produce
the official numbers for the sample files. Not the scorer itself.

Run:  python3 tests/data/lexsub/score_pl_model.py > tests/data/lexsub/score_pl_model.out
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def myround(x):
    """Percent with 2 decimals, half up, as score.pl prints."""
    n = x * 100
    n = n * 100
    return "%.2f" % (int(n + 0.5) / 100)


def split_fields(rest):
    """Perl split(';', ...) drops trailing empty fields."""
    parts = rest.split(";")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def read_gold(path):
    items, modes, total = {}, {}, 0
    for line in open(path, newline=""):
        m = re.search(r"([\w.]+) (\S+) :: (.*)", line)
        if not m:
            continue
        id_, rest = m.group(2), m.group(3)
        res = [r for r in split_fields(rest) if "pn" not in r]
        first = re.search(r"[\w'\-\s]+ (\d+)", res[0]) if res else None
        num = int(first.group(1)) if first else 0
        if not (len(res) > 1 or num > 1):
            continue
        total += 1
        subs, mode, modenum, ms = {}, None, None, False
        for r in res:
            e = re.search(r"(\w[\w'\-\s]+) (\d+)", r)
            if not e:
                continue
            sub, n = e.group(1).replace("'", "", 1), int(e.group(2))
            if mode is None:
                mode, modenum = sub, n
                modes[id_] = sub
            elif not ms and n == modenum:
                del modes[id_]
                ms = True
            subs[sub] = n
        items[id_] = subs
    return items, modes, total


def norms(subs):
    hu = sum(subs.values())
    out = {}
    for k, v in subs.items():
        out[k] = v / hu
        if "-" in k:
            out[k.replace("-", " ")] = v / hu
    return out


def fixmisc(answers):
    out = []
    for a in answers:
        m = re.match(r"^non(\s|-)(.*)$", a)
        if m:
            a = "non" + m.group(2)
        a = a.replace("-", " ").replace("'", "", 1)
        out.append(a)
    return out


def score(gold_path, sys_path, oot):
    items, modes, total = read_gold(gold_path)
    sep = ":::" if oot else "::"
    corr = attempted = modatt = modehit = 0
    done, res = set(), []
    for line in open(sys_path, newline=""):
        m = re.search(r"([\w.]+) (\S+) " + sep + r" (.*)", line)
        if not m:
            continue
        id_, rest = m.group(2), m.group(3)
        subs = items.get(id_, {})
        if not subs or id_ in done:
            continue
        done.add(id_)
        if re.search(r"\S", rest):  # else: the previous line's answers stay (defect)
            res = fixmisc(split_fields(rest))
            if res:
                attempted += 1
        if oot:
            res = res[:10]
        if id_ in modes and res:
            modatt += 1
            hit = modes[id_] in res if oot else modes[id_] == res[0]
            modehit += hit
        nm = norms(subs)
        credit = sum(nm.get(a, 0.0) for a in res)
        if credit:
            corr += credit if oot else credit / len(res)
    return {
        "P": myround(corr / attempted), "R": myround(corr / total),
        "modeP": myround(modehit / modatt), "modeR": myround(modehit / len(modes)),
    }


if __name__ == "__main__":
    gold = os.path.join(HERE, "gold.txt")
    for name, oot in [("wellformed.best", False), ("wellformed.oot", True)]:
        r = score(gold, os.path.join(HERE, name), oot)
        print(name, r["P"], r["R"], r["modeP"], r["modeR"])
    # The files with defect triggers: the crate deliberately differs here
    # (empty line borrowing answers, repeated answers, CRLF endings).
    for name, oot in [("system.best", False), ("system.oot", True)]:
        r = score(gold, os.path.join(HERE, name), oot)
        print("#", name, r["P"], r["R"], r["modeP"], r["modeR"])
