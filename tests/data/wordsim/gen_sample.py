"""Builds the synthetic word-similarity sample in this folder (no published data).

Vectors and human scores are SYNTHETIC: each word gets a latent vector (its
group's centre plus a word-specific offset, standard normal draws); the "human"
score of a pair is a noisy function of the latent cosine; a model's vectors are
the latent vectors plus noise (model A: little noise, model B: more, another
dimension). Seeded, so the files are reproducible:

    /work/venv/bin/python tests/data/wordsim/gen_sample.py

(numpy 1.26). Files:

  sample-a.vec        model A, word2vec text (16 dims; misses a few words)
  sample-b.bin        model B, word2vec binary as the C tool writes it (12 dims)
  ws-sample.tsv       WordSim-353 layout: word1<TAB>word2<TAB>score, '#' comment line
  simlex-sample.txt   SimLex-999 layout: header, POS, score in column 4, extra columns
  men-sample.txt      MEN lemma layout: space-separated, -n/-v/-j tags, 0-50 scale
  mturk-sample.csv    MTurk layout: comma-separated, 1-5 scale
  gen-a.vec, gen-b.bin, gen-pairs.tsv     larger generated files (400 words, 1000 pairs, ties)
  gen-case.vec, gen-case-pairs.tsv        mixed-case words for the case-folding comparison
"""

import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20240914)

GROUPS = {
    "n": [
        ["cat", "dog", "horse", "tiger", "lion", "wolf", "rabbit", "mouse", "sheep", "goat"],
        ["apple", "pear", "banana", "orange", "grape", "lemon", "cherry", "plum", "melon", "peach"],
        ["car", "bus", "train", "truck", "plane", "boat", "bicycle", "taxi", "ship", "tram"],
        ["hammer", "saw", "drill", "wrench", "chisel", "knife", "axe", "shovel", "rake", "pliers"],
    ],
    "v": [["run", "walk", "jump", "swim", "climb", "crawl", "dance", "skip", "hop", "march"]],
    "j": [["red", "blue", "green", "yellow", "purple", "pink", "brown", "black", "white", "grey"]],
}
WORDS, POS = [], {}
for tag, groups in GROUPS.items():
    for g in groups:
        for w in g:
            WORDS.append(w)
            POS[w] = tag
GROUP_OF = {}
for tag, groups in GROUPS.items():
    for gi, g in enumerate(groups):
        for w in g:
            GROUP_OF[w] = (tag, gi)

LATENT_DIM = 16
centres = {k: rng.normal(size=LATENT_DIM) for k in sorted(set(GROUP_OF.values()))}
latent = {w: centres[GROUP_OF[w]] + 0.8 * rng.normal(size=LATENT_DIM) for w in WORDS}


def cos(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def f32(x):
    return np.asarray(x, dtype=np.float32)


def write_vec(path, items):
    with open(path, "w") as f:
        f.write(f"{len(items)} {len(items[0][1])}\n")
        for w, v in items:
            f.write(w + " " + " ".join(str(x) for x in f32(v)) + "\n")


def write_bin(path, items):
    """The word2vec C tool's layout: header line, then word, space, raw f32, newline."""
    with open(path, "wb") as f:
        f.write(f"{len(items)} {len(items[0][1])}\n".encode())
        for w, v in items:
            f.write(w.encode() + b" " + struct.pack(f"<{len(v)}f", *f32(v)) + b"\n")


# Model A: small noise, 16 dims, misses 3 words.
# Model B: projected to 12 dims, more noise, misses 3 others.
missing_a = {"plum", "crawl", "pliers"}
missing_b = {"tram", "grey", "lion"}
items_a = [(w, latent[w] + 0.35 * rng.normal(size=LATENT_DIM)) for w in WORDS if w not in missing_a]
proj = rng.normal(size=(12, LATENT_DIM)) / np.sqrt(LATENT_DIM)
items_b = [(w, proj @ latent[w] + 0.9 * rng.normal(size=12)) for w in WORDS if w not in missing_b]
write_vec(os.path.join(HERE, "sample-a.vec"), items_a)
write_bin(os.path.join(HERE, "sample-b.bin"), items_b)


def human(w1, w2, noise=0.6):
    z = cos(
        latent.get(w1, rng.normal(size=LATENT_DIM)), latent.get(w2, rng.normal(size=LATENT_DIM))
    )
    return float(np.clip(5 + 5 * z + noise * rng.normal(), 0, 10))


def draw_pairs(n, vocab, within=0.5):
    out, seen = [], set()
    while len(out) < n:
        a = vocab[rng.integers(len(vocab))]
        if rng.random() < within and a in GROUP_OF:
            tag, gi = GROUP_OF[a]
            group = GROUPS[tag][gi]
            b = group[rng.integers(len(group))]
        else:
            b = vocab[rng.integers(len(vocab))]
        if a == b or (a, b) in seen or (b, a) in seen:
            continue
        seen.add((a, b))
        out.append((a, b))
    return out


OOV = ["zyzzyva", "quokka", "flibbertigibbet"]
vocab = WORDS + OOV

with open(os.path.join(HERE, "ws-sample.tsv"), "w") as f:
    f.write("# synthetic sample in the WordSim-353 layout: word1 word2 score\n")
    for a, b in draw_pairs(80, vocab):
        f.write(f"{a}\t{b}\t{human(a, b):.2f}\n")

with open(os.path.join(HERE, "simlex-sample.txt"), "w") as f:
    f.write(
        "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n"
    )
    pairs = [(a, b) for a, b in draw_pairs(200, WORDS, within=0.7) if POS[a] == POS[b]][:60]
    for a, b in pairs:
        pos = {"n": "N", "v": "V", "j": "A"}[POS[a]]
        f.write(
            f"{a}\t{b}\t{pos}\t{human(a, b):.2f}\t"
            f"{rng.uniform(1, 7):.2f}\t{rng.uniform(1, 7):.2f}\t"
            f"{rng.integers(1, 5)}\t{rng.uniform(0, 8):.2f}\t"
            f"{rng.integers(0, 2)}\t{rng.uniform(0, 3):.2f}\n"
        )

with open(os.path.join(HERE, "men-sample.txt"), "w") as f:
    for a, b in draw_pairs(70, WORDS):
        f.write(f"{a}-{POS[a]} {b}-{POS[b]} {round(5 * human(a, b)):.6f}\n")

with open(os.path.join(HERE, "mturk-sample.csv"), "w") as f:
    for a, b in draw_pairs(50, vocab, within=0.3):
        f.write(f"{a},{b},{1 + 0.4 * human(a, b):.4f}\n")

# Larger generated files: 400 pseudo-words in 20 groups, 1000 pairs over 450 words (50 unknown),
# gold rounded to 0.5 so that it has many ties.
GEN_DIM = 24
gen_words = [f"w{i:03d}" for i in range(450)]
gen_centres = rng.normal(size=(20, GEN_DIM))
gen_latent = {w: gen_centres[i % 20] + rng.normal(size=GEN_DIM) for i, w in enumerate(gen_words)}
known = gen_words[:400]
write_vec(
    os.path.join(HERE, "gen-a.vec"),
    [(w, gen_latent[w] + 0.5 * rng.normal(size=GEN_DIM)) for w in known],
)
write_bin(
    os.path.join(HERE, "gen-b.bin"),
    [(w, gen_latent[w] + 1.5 * rng.normal(size=GEN_DIM)) for w in known],
)
with open(os.path.join(HERE, "gen-pairs.tsv"), "w") as f:
    seen = set()
    while len(seen) < 1000:
        i, j = rng.integers(450, size=2)
        if i == j or (i, j) in seen:
            continue
        seen.add((i, j))
        z = cos(gen_latent[gen_words[i]], gen_latent[gen_words[j]])
        f.write(
            f"{gen_words[i]}\t{gen_words[j]}\t{np.round(2 * (5 + 5 * z + rng.normal())) / 2:g}\n"
        )

# Case variants: 'Word' before 'word' (the first row of a folded word wins), pairs in mixed case.
case_items = []
for i in range(60):
    w = f"k{i:02d}"
    case_items.append((w.upper() if i % 3 == 0 else w, rng.normal(size=8)))
    if i % 5 == 0:
        case_items.append((w.capitalize() if i % 3 else w, rng.normal(size=8)))
write_vec(os.path.join(HERE, "gen-case.vec"), case_items)
with open(os.path.join(HERE, "gen-case-pairs.tsv"), "w") as f:
    for _ in range(150):
        i, j = rng.integers(64, size=2)
        a, b = f"k{i:02d}", f"k{j:02d}"
        a = a.upper() if rng.random() < 0.4 else a
        b = b.capitalize() if rng.random() < 0.4 else b
        f.write(f"{a}\t{b}\t{rng.uniform(0, 10):.1f}\n")
