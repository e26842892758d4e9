"""gensim's ``evaluate_word_pairs`` on the library's word-similarity evaluation."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._correlation import _config
from ._results import (
    GammaMoments,
    PearsonRResult,
    RhoW,
    SignificanceResult,
    Standardised,
    TauW,
)


@dataclass(frozen=True)
class WordPairsReport:
    """Everything one model earns on one benchmark.

    ``pairs`` in the benchmark, ``found`` with both words known (non-zero
    vectors), ``scored`` entering the correlations (``found``, or ``pairs``
    when unknown pairs are scored 0 or the mean), ``oov_ratio`` =
    (pairs - found)/pairs (gensim reports 100 times this), ``imputed`` the
    similarity given to unknown pairs; Pearson's r, Spearman's rho and
    Kendall's tau-b as :class:`SignificanceResult` (two-sided p-values);
    the top-weighted ``rho_w``, ``tau_w`` and their standardised values
    (0 = chance, Lombardo 2025). An undefined coefficient is None, with the
    reason in ``errors[name]``. ``similarities``: the model's cosine of
    each pair in file order (None: unknown); ``gold``: the human scores.
    """

    benchmark: str
    pairs: int
    found: int
    scored: int
    oov_ratio: float
    imputed: float | None
    pearson: SignificanceResult | None
    spearman: SignificanceResult | None
    kendall: SignificanceResult | None
    rho_w: RhoW | None
    tau_w: TauW | None
    rho_w_standardised: Standardised | None
    tau_w_standardised: Standardised | None
    errors: dict[str, str] = field(default_factory=dict)
    similarities: list[float | None] = field(default_factory=list, repr=False)
    gold: list[float] = field(default_factory=list, repr=False)


class WordPairsResult(tuple):
    """gensim's ``(PearsonRResult, SignificanceResult, oov_ratio)``: Pearson's
    r and Spearman's rho as SciPy's result objects (``result[0].statistic``,
    ``.pvalue``, ``result[0].confidence_interval()``), each unpacking as
    ``(value, p)``, with the full :class:`WordPairsReport` as ``.report``."""

    def __new__(cls, pearson, spearman, oov_ratio, report):
        self = tuple.__new__(cls, (pearson, spearman, oov_ratio))
        self.report = report
        return self

    def __getnewargs__(self):
        return (self[0], self[1], self[2], self.report)

    def __getstate__(self):
        return None


def _report(d: dict[str, Any]) -> WordPairsReport:
    errors: dict[str, str] = {}

    def get(name, make):
        v = d[name]
        if isinstance(v, str):
            errors[name] = v
            return None
        return make(v)

    def std(kind):
        def make(t):
            value, raw, moments, ties = t
            raw = RhoW(*raw) if kind == "rho" else TauW(*raw)
            return Standardised(value, raw, GammaMoments._of(moments), ties)

        return make

    return WordPairsReport(
        benchmark=d["benchmark"],
        pairs=d["pairs"],
        found=d["found"],
        scored=d["scored"],
        oov_ratio=d["oov_ratio"],
        imputed=d["imputed"],
        pearson=get("pearson", lambda t: SignificanceResult(*t)),
        spearman=get("spearman", lambda t: SignificanceResult(*t)),
        kendall=get("kendall", lambda t: SignificanceResult(*t)),
        rho_w=get("rho_w", lambda t: RhoW(*t)),
        tau_w=get("tau_w", lambda t: TauW(*t)),
        rho_w_standardised=get("rho_w_standardised", std("rho")),
        tau_w_standardised=get("tau_w_standardised", std("tau")),
        errors=errors,
        similarities=d["similarities"],
        gold=d["gold"],
    )


def _vectors_of(model, words, restrict_vocab, case_insensitive):
    """The rows of ``model`` for the benchmark's words: (words, matrix)."""
    found: list[str] = []
    rows: list[Any] = []
    index_to_key = getattr(model, "index_to_key", None)
    if index_to_key is not None and hasattr(model, "key_to_index"):
        # gensim's KeyedVectors: the first restrict_vocab keys, the first
        # spelling of each folded key winning, as gensim does.
        keys = index_to_key[:restrict_vocab] if restrict_vocab is not None else index_to_key
        table: dict[str, str] = {}
        for k in keys:
            table.setdefault(k.lower() if case_insensitive else k, k)
        vectors = model.vectors
        for w in words:
            key = table.get(w.lower() if case_insensitive else w)
            if key is not None:
                found.append(key)
                rows.append(vectors[model.key_to_index[key]])
    else:
        for w in words:
            if w in model:
                found.append(w)
                rows.append(np.asarray(model[w]))
    if case_insensitive:
        seen: set[str] = set()
        keep = []
        for i, w in enumerate(found):
            if w.lower() not in seen:
                seen.add(w.lower())
                keep.append(i)
        found = [found[i] for i in keep]
        rows = [rows[i] for i in keep]
    if not rows:
        return found, np.zeros((0, 1), dtype=np.float32)
    return found, np.stack(rows)


def read_word_pairs(pairs, delimiter=None, *, layout=None):
    """A benchmark file read by the library (for repeated evaluations).

    ``layout`` (``'wordsim353'``, ``'simlex999'``, ``'men'``, ``'rg65'``,
    ``'mc30'``, ``'mturk'``, ``'rw'``, ``'simverb3500'``, ``'plain'``) reads
    it in that layout's format (any copy of the dataset: SimLex-999's own
    10 columns or gensim's 3); else ``delimiter`` reads it as gensim does,
    ``word1 <delimiter> word2 <delimiter> score`` with ``#`` comments; else
    (both None) the format is detected from the content: separator, header
    line, the column holding the scores, MEN's ``-n``/``-v``/``-j`` tags;
    the file name only breaks ties. ``.detection`` says how it was read,
    ``.layout`` names the layout it matches (None: a plain file). A file
    that cannot be read raises ``ValueError`` naming the line, the format
    tried, how it was chosen and the argument that chooses another.
    """
    return _core.PairsBenchmark(os.fspath(pairs), delimiter, layout)


def evaluate_word_pairs(
    model,
    pairs,
    delimiter="\t",
    encoding="utf8",
    restrict_vocab=300000,
    case_insensitive=True,
    dummy4unknown=False,
    *,
    unknown=None,
    layout=None,
    format="auto",
    weigher="offset_quadratic",
    n0=2.0,
    scheme="additive",
    ties="average",
):
    """gensim's ``KeyedVectors.evaluate_word_pairs``, on a vectors file or
    any object with gensim's lookup::

        s_i = cos(v(word1_i), v(word2_i)),   unknown pairs dropped (or 0 with dummy4unknown)
        returns (PearsonRResult(r, p), SignificanceResult(rho, p), oov_ratio)   oov_ratio in percent

    ``model``: a path of a word2vec text or binary or GloVe file (read by
    the library keeping only the benchmark's words: ``format`` ``'auto'``,
    ``'word2vec'``, ``'word2vec_binary'``, ``'glove'``), a gensim
    ``KeyedVectors`` (its first ``restrict_vocab`` keys), or any object with
    ``word in model`` and ``model[word]`` (a dict of vectors;
    ``restrict_vocab`` then does not apply). ``pairs``: a benchmark file
    read as :func:`read_word_pairs` reads it: by default as gensim does,
    ``word1 <delimiter> word2 <delimiter> score`` lines with ``#``
    comments; ``delimiter=None`` detects the layout from the content
    (SimLex-999's 10 columns, a header line, MEN's tags, ...); ``layout``
    (``'simlex999'``, ``'men'``, ``'wordsim353'``, ...) names it.
    ``unknown`` (``'drop'``, ``'zero'``, ``'mean'``) overrides
    ``dummy4unknown``. The result unpacks as gensim's; ``result.report``
    adds Kendall's tau-b, the top-weighted rho_w and tau_w (``weigher``,
    ``n0``, ``scheme``, ``ties`` as :func:`rho_w`) and their standardised
    values.

    Differences from gensim:

    - a malformed pair line raises ``ValueError`` naming the line, the
      format tried and how to choose another (gensim logs and skips it);
    - ``case_insensitive`` folds to Unicode lower case, gensim to upper case
      (``str.upper()``): words meet here when their lower cases are equal,
      in gensim when their upper cases are. That differs on German sharp s
      (gensim matches ``straße`` with ``strasse``: both are ``STRASSE``),
      Turkish dotless i (gensim matches ``k\u0131ta`` with ``kita``: ``KITA``)
      and Greek final sigma (gensim matches ``λογος`` with ``λογοσ``:
      ``ΛΟΓΟΣ``), which stay apart here, and on a few rarer letters
      (ligatures such as ``\ufb01``, long s ``\u017f``; the Kelvin and ohm signs meet
      ``k`` and ``ω`` here and not in gensim);
    - cosines are computed in double precision from the float32 vectors
      (gensim rounds them to float32, so values agree to about 1e-6), and a
      word's cosine with itself is exactly 1 (gensim's float32 one can be
      off in the last bit, e.g. 1.0000001, which breaks the ties of
      self-pairs such as ``tiger tiger``);
    - an undefined Pearson or Spearman coefficient (a constant side) raises
      ``ValueError`` instead of NaN;
    - only UTF-8 files.
    """
    if encoding.lower().replace("-", "") not in ("utf8",):
        raise ValueError(f"only UTF-8 files are read, got encoding={encoding!r}")
    benchmark = (
        pairs
        if isinstance(pairs, _core.PairsBenchmark)
        else read_word_pairs(pairs, delimiter, layout=layout)
    )
    config = _config(weigher, n0, scheme, ties, "larger")
    limit = None if restrict_vocab is None else int(restrict_vocab)
    policy = unknown if unknown is not None else "zero" if dummy4unknown else "drop"
    if isinstance(model, (str, os.PathLike)):
        d = _core.evaluate_file(
            benchmark,
            os.fspath(model),
            format,
            limit,
            bool(case_insensitive),
            policy,
            config,
        )
    else:
        words, matrix = _vectors_of(model, benchmark.words(), limit, bool(case_insensitive))
        d = _core.evaluate_vectors(
            benchmark,
            words,
            matrix,
            bool(case_insensitive),
            policy,
            config,
        )
    report = _report(d)
    for name in ("pearson", "spearman"):
        if name in report.errors:
            raise ValueError(f"{name}: {report.errors[name]}")
    # The pairs scored, as Pearson's r saw them (for its interval).
    x, y = [], []
    for s, g in zip(report.similarities, report.gold, strict=True):
        if s is None:
            if report.imputed is None:
                continue
            s = report.imputed
        x.append(s)
        y.append(g)
    return WordPairsResult(
        PearsonRResult(report.pearson.statistic, report.pearson.pvalue, x, y, "two-sided", len(x)),
        report.spearman,
        100.0 * report.oov_ratio,
        report,
    )
