"""Reference scores of sample.vec on sample.txt (Avraham & Goldberg 2016, §4.2).

An independent re-implementation with numpy, written from the paper's formula:
s = δ(2R − 1), score = Σ max(s, 0) / Σ |s|; comparisons with an unknown word are
skipped; ties follow each policy. Cosines are computed in float64 and in float32
(vectors rounded to float32 first, products accumulated in float64, as the crate
does for Vectors<f32>).

Run: python3 gen_sample_scores.py > sample_scores.txt
Output lines: dtype policy kind score scored unknown ties skipped_ties
(score is 'undefined' when Σ|s| = 0).
"""

import pathlib

import numpy as np

HERE = pathlib.Path(__file__).parent


def read_dataset(path):
    rows, target, kind = [], None, "positive"
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            target = None
            continue
        if target is None:
            target, kind = line, "positive"
        elif "," not in line:
            kind = {"positives": "positive", "distractors": "distractor", "randoms": "random"}[line]
        else:
            w1, p1, w2, _ = (f.strip() for f in line.split(","))
            rows.append((target, w1, w2, float(p1), kind))
    return rows


def read_vec(path, dtype):
    lines = path.read_text(encoding="utf-8").splitlines()
    out = {}
    for line in lines[1:]:
        word, *vals = line.split()
        out[word] = np.array([dtype(v) for v in vals], dtype=dtype).astype(np.float64)
    return out


def cosine(v, a, b):
    if a not in v or b not in v:
        return None
    x, y = v[a], v[b]
    return float(x @ y / (np.sqrt(x @ x) * np.sqrt(y @ y)))


def main():
    rows = read_dataset(HERE / "sample.txt")
    for dtype_name, dtype in (("f64", np.float64), ("f32", np.float32)):
        v = read_vec(HERE / "sample.vec", dtype)
        for policy in ("half", "second", "skip"):
            for kind in ("all", "positive", "distractor", "random"):
                credit = weight = 0.0
                scored = unknown = ties = skipped = 0
                for t, w1, w2, r, k in rows:
                    if kind != "all" and k != kind:
                        continue
                    a, b = cosine(v, t, w1), cosine(v, t, w2)
                    if a is None or b is None:
                        unknown += 1
                        continue
                    m = 2 * r - 1
                    if a == b:
                        if policy == "skip":
                            skipped += 1
                            continue
                        ties += 1
                        c = abs(m) / 2 if policy == "half" else max(-m, 0.0)
                    else:
                        c = max(m if a > b else -m, 0.0)
                    credit += c
                    weight += abs(m)
                    scored += 1
                score = "undefined" if weight == 0 else repr(credit / weight)
                print(dtype_name, policy, kind, score, scored, unknown, ties, skipped)


if __name__ == "__main__":
    main()
