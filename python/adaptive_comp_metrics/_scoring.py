"""Lexical-substitution scoring and the Avraham-Goldberg triplet score."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import _core


@dataclass(frozen=True)
class Totals:
    """A measure over a corpus: ``precision = credit / attempted`` (None when
    nothing was attempted), ``recall = credit / items``."""

    credit: float
    attempted: int
    items: int
    precision: float | None
    recall: float | None


@dataclass(frozen=True)
class LexsubScores:
    """Every lexical-substitution measure of one system file.

    ``measures``: ``best``, ``mode_best``, ``oot``, ``mode_oot``
    (McCarthy & Navigli 2007), ``new_best``, ``best1``, ``recall``,
    ``precision`` (with penalty k), ``rank`` (Jabbari, Hepple & Guthrie
    2010), ``gap`` (Kishida 2005), ``precision_at``, ``recall_at`` (at the
    cut-off), each a :class:`Totals`. ``dropped``: gold items the
    normalisation profile left empty; ``unmatched``: system ids not in the
    gold; ``skipped``: malformed lines skipped with ``lenient=True``.
    """

    measures: dict[str, Totals]
    dropped: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ScorePl:
    """What the official ``score.pl`` computes, quirks included: ``scores``
    (best or oot) and ``mode`` totals, the system lines it reports as
    errors, and the items whose credit depends on Perl's hash order."""

    scores: Totals
    mode: Totals
    error_lines: list[int]
    order_dependent: list[str]


def lexsub_score(
    gold,
    system,
    *,
    format="best",
    profile="semeval2007",
    lenient=False,
    penalty=1.0,
    cutoff=10,
    score_pl=False,
):
    """Scores a SemEval-2007 lexical-substitution system file against a gold file::

        best:  credit(i) = sum_{a in A} count(a)/|H| / |A|      oot: sum_{a in A[:10]} count(a)/|H|
        P = sum credit / attempted,   R = sum credit / gold items

    ``format``: ``'best'`` (``lemma.pos ID :: a1;a2``) or ``'oot'``
    (``:::``); ``profile``: ``'semeval2007'`` (the official normalisation)
    or ``'strict'``; ``lenient`` skips malformed lines instead of raising.
    ``score_pl=True`` returns :class:`ScorePl`, the official scorer's
    figures exactly, quirks included; otherwise :class:`LexsubScores` with
    the corrected scorer's every measure. Raises ``ValueError`` naming the
    file and line of a malformed line, ``OSError`` for a missing file.
    """
    gold, system = os.fspath(gold), os.fspath(system)
    if score_pl:
        s, m, lines, order = _core.lexsub_score_pl(gold, system, format)
        return ScorePl(Totals(*s), Totals(*m), lines, order)
    d = _core.lexsub_score(
        gold, system, format, profile, bool(lenient), float(penalty), int(cutoff)
    )
    return LexsubScores(
        {k: Totals(*v) for k, v in d["measures"].items()},
        d["dropped"],
        d["unmatched"],
        d["skipped"],
    )


@dataclass(frozen=True)
class Tally:
    """Triplet comparisons of one kind::

        s = delta (2 R - 1),  delta = +1 if sim(t, w1) > sim(t, w2) else -1
        score = sum max(s, 0) / sum |s|   (None when nothing weighs)

    ``credit`` and ``weight`` the two sums, ``scored``, ``unknown`` (a word
    without a vector), ``ties`` and ``skipped_ties`` counts."""

    score: float | None
    credit: float
    weight: float
    scored: int
    unknown: int
    ties: int
    skipped_ties: int


@dataclass(frozen=True)
class TripletScore:
    """The reliability-weighted triplet score (Avraham & Goldberg 2016),
    overall and per comparison kind."""

    overall: Tally
    positive: Tally
    distractor: Tally
    random: Tally


def triplet_score(dataset, model, *, ties="half_credit") -> TripletScore:
    """The Avraham-Goldberg (2016) score of word vectors on a triplet dataset.

    ``dataset``: a file in the published format; ``model``: a vectors file
    (word2vec text or binary, GloVe: only the dataset's words are read), or
    an object with ``word in model`` and ``model[word]`` (a gensim
    ``KeyedVectors``, a dict of vectors). ``ties``: ``'half_credit'``
    (default: a tie earns half the weight), ``'choose_second'`` (the
    published evaluator's strict ``>``) or ``'skip'``.
    """
    import numpy as np

    data = _core.TripletDataset(os.fspath(dataset))
    if isinstance(model, (str, os.PathLike)):
        parts = _core.triplet_score_file(data, os.fspath(model), ties)
    else:
        words = [w for w in data.words() if w in model]
        matrix = (
            np.stack([np.asarray(model[w], dtype=np.float64) for w in words])
            if words
            else np.zeros((0, 1))
        )
        parts = _core.triplet_score_vectors(data, words, np.ascontiguousarray(matrix), ties)
    return TripletScore(*(Tally(*p) for p in parts))
