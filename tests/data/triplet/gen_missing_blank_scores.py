"""What the published Avraham-Goldberg evaluator does with a target line that
has no blank line before it, on `missing_blank.txt`.

`missing_blank.txt` is a synthetic file (words of `sample.vec`) with the
layout of the published `datasets/inflected/vb_inf.txt`: a first block with
`distractors` and `randoms` sections, then on line 10 the next target without
the blank separator line, its own two sections, a blank line and a normal
third block; CRLF line ends, no final newline.

The evaluator (`evaluator.py` of the repository published with the paper,
github.com/oavraham1/ag-evaluation, Python 2) is not part of this
repository; point this script at a copy and at a Python 2 interpreter:

    python3 tests/data/triplet/gen_missing_blank_scores.py \\
        --evaluator /path/to/ag-evaluation/evaluator.py --python2 python2 \\
        > tests/data/triplet/missing_blank_scores.txt

It runs the evaluator unchanged, with a model whose `similarity` is the
cosine of the `sample.vec` vectors (float64, KeyError for unknown words, as
gensim), and prints the comparisons as the evaluator parsed them (target w1
w2 compare_type) and its scores (`get_score`, all comparisons and per type).
Then, computed here independently, the score of the lenient reading (line 10
starts the block of its own target), with ties counted as choosing w2 as the
evaluator does. Produced with Python 2.7.18 and Python 3.11.
"""

import argparse
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))

DRIVER = r"""
import math, sys
sys.path.insert(0, sys.argv[1])
import evaluator

class Model(object):
    def __init__(self, path):
        self.v = {}
        for line in Path(path).read_text().splitlines()[1:]:
            parts = line.split()
            self.v[parts[0]] = [float(x) for x in parts[1:]]

    def similarity(self, a, b):
        x, y = self.v[a], self.v[b]
        dot = sum(i * j for i, j in zip(x, y))
        return dot / (math.sqrt(sum(i * i for i in x)) * math.sqrt(sum(j * j for j in y)))

e = evaluator.Evaluator(sys.argv[2])
for c in e.comparisions:
    print 'parsed', c.target, c.w1, c.w2, c.compare_type
m = Model(sys.argv[3])
print 'evaluator all', repr(e.get_score(m, lambda c: True, decode_utf=False))
for t in ['positives', 'distractors', 'randoms']:
    print 'evaluator', t, repr(e.get_score(m, lambda c, t=t: c.compare_type == t, decode_utf=False))
"""


def read_vec(path):
    out = {}
    for line in Path(path).read_text().splitlines()[1:]:
        parts = line.split()
        out[parts[0]] = [float(x) for x in parts[1:]]
    return out


def lenient_rows(path):
    """The lenient reading: a non-comma line that is not a section name
    starts a new target."""
    rows, target, kind = [], None, "positives"
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            target = None
        elif target is None:
            target, kind = line, "positives"
        elif "," not in line:
            if line.lower() in ("positives", "distractors", "randoms"):
                kind = line.lower()
            else:
                target, kind = line, "positives"
        else:
            w1, p1, w2, p2 = (f.strip() for f in line.split(","))
            rows.append((target, w1, w2, float(p1), float(p2), kind))
    return rows


def score(rows, vec, kind=None):
    def cos(a, b):
        x, y = vec[a], vec[b]
        dot = sum(i * j for i, j in zip(x, y))
        return dot / (math.sqrt(sum(i * i for i in x)) * math.sqrt(sum(j * j for j in y)))

    credit = weight = 0.0
    for t, w1, w2, p1, p2, k in rows:
        if kind is not None and k != kind:
            continue
        chosen = p1 if cos(t, w1) > cos(t, w2) else p2
        diff = abs(p1 - p2)
        if chosen == max(p1, p2):
            credit += diff
        weight += diff
    return "N/A" if weight == 0 else repr(credit / weight)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evaluator", required=True)
    ap.add_argument("--python2", default="python2")
    args = ap.parse_args()
    data = os.path.join(HERE, "missing_blank.txt")
    vec = os.path.join(HERE, "sample.vec")
    with tempfile.TemporaryDirectory() as tmp:
        sets = os.path.join(tmp, "sets")
        os.mkdir(sets)
        shutil.copy(data, os.path.join(sets, "vb_inf.txt"))
        out = subprocess.run(
            [
                args.python2,
                "-c",
                DRIVER,
                os.path.dirname(os.path.abspath(args.evaluator)),
                sets,
                vec,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    print(out, end="")
    rows, v = lenient_rows(data), read_vec(vec)
    for t, w1, w2, _, _, k in rows:
        print("lenient", t, w1, w2, k)
    print("lenient all", score(rows, v))
    for k in ("positives", "distractors", "randoms"):
        print("lenient", k, score(rows, v, k))


if __name__ == "__main__":
    main()
