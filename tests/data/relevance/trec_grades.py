"""Grades for the generated TREC qrels of trec_expected.py and
trec_eval_golden.py (run as scripts from any folder: Python puts this one on
their import path)."""

# The grades of a query with no relevant document.
NONE_RELEVANT = [0, 0, -1]


def draw_grades(rng, judged, levels):
    """A grade drawn from `levels` (rng.choice) for each judged document, in
    order, then the first one's set to 0 if every grade is negative:
    trec_eval (both releases, and pytrec_eval) sizes a per-level array by
    the largest grade + 1, so a query whose grades are all negative crashes
    it with a segmentation fault."""
    grades = {d: rng.choice(levels) for d in judged}
    if grades and max(grades.values()) < 0:
        grades[judged[0]] = 0
    return grades
