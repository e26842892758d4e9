"""Writes the small sample files judgements.csv and model.csv (PhraseRel-style
queries, three annotators per pair on the -3..3 scale, a model with tied
scores and one unjudged document). Run: python3 gen_sample.py"""

pairs = {
    "agent sell property": [
        ("delegate buy land", [3, 2, 1]),
        ("representative sell estate", [3, 3, 2]),
        ("agent offer house", [2, 1, 0]),
        ("company sell product", [0, -1, 1]),
        ("dealer sell car", [-2, -1, 0]),
    ],
    "man waves hand": [
        ("person moves arm", [2, 2, 1]),
        ("man shakes hand", [1, 0, 0]),
        ("woman waves flag", [-1, 0, 1]),
        ("man raises hand", [3, 1, 2]),
        ("boy waves goodbye", [1, 2, 0]),
    ],
    "student read book": [
        ("pupil study text", [1, 0, 2]),
        ("child open box", [-3, -2, -3]),
        ("reader write letter", [-1, -2, 0]),
        ("scholar, critic read novel", [0, 1, 1]),
    ],
}
scores = {
    "agent sell property": [
        ("delegate buy land", 0.81),
        ("representative sell estate", 0.64),
        ("agent offer house", 0.81),
        ("company sell product", 0.70),
        ("dealer sell car", 0.12),
        ("agent buy property", 0.90),
    ],
    "man waves hand": [
        ("person moves arm", 0.55),
        ("man shakes hand", 0.55),
        ("woman waves flag", 0.55),
        ("man raises hand", 0.93),
        ("boy waves goodbye", 0.20),
    ],
    "student read book": [
        ("pupil study text", 0.40),
        ("child open box", 0.75),
        ("reader write letter", 0.10),
    ],
}


def q(s):
    return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s


with open("judgements.csv", "w") as f:
    f.write("query,document,annotator,grade\n")
    for qu, docs in pairs.items():
        for d, gs in docs:
            for w, g in zip(["w01", "w02", "w03"], gs):
                f.write(f"{q(qu)},{q(d)},{w},{g}\n")
with open("model.csv", "w") as f:
    f.write("query,document,score\n")
    for qu, docs in scores.items():
        for d, s in docs:
            f.write(f"{q(qu)},{q(d)},{s}\n")
