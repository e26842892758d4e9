"""pytrec_eval's API on the library's TREC evaluation."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from typing import Any, Union

from . import _core

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float]]
PathOrFile = Union[str, "os.PathLike[str]", Any]


supported_measures: frozenset[str] = frozenset(_core.supported_measures())
"""The names of trec_eval's measures computed here (families by their root
name: ``P``, ``ndcg_cut``), as ``pytrec_eval.supported_measures``:
``runid``, ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``, ``map``,
``gm_map``, ``Rprec``, ``bpref``, ``recip_rank``, ``iprec_at_recall``,
``P``, ``relstring``, ``recall``, ``infAP``, ``gm_bpref``, ``Rprec_mult``,
``utility``, ``11pt_avg``, ``binG``, ``G``, ``ndcg``, ``ndcg_rel``,
``Rndcg``, ``ndcg_cut``, ``map_cut``, ``relative_P``, ``success``,
``set_P``, ``set_relative_P``, ``set_recall``, ``set_map``, ``set_F``,
``num_nonrel_judged_ret``: pytrec_eval's list. ``relstring`` (trec_eval's
string of grades) is 0 in the results, as pytrec_eval reports it."""

supported_nicknames: dict[str, frozenset[str]] = {
    name: frozenset(names) for name, names in _core.supported_nicknames()
}
"""trec_eval's nicknames of measure sets (``official``, ``set``,
``all_trec``) with the measures of each computed here, as
``pytrec_eval.supported_nicknames``: each whole (trec_eval 10.0's
additions to ``all_trec``, ``unj``, ``rbp`` and ``rbp_resid``, which
pytrec_eval lacks, are left out with a warning)."""


def compute_aggregated_measure(measure: str, values: Iterable[float]) -> float:
    """The summary of a measure over queries, as trec_eval and
    ``pytrec_eval.compute_aggregated_measure`` compute it: the sum of the
    counts (``num_*``), the geometric mean of ``gm_*`` (whose per-query
    values are logarithms: ``exp(mean)``), the arithmetic mean otherwise::

        num_*:  sum_q v_q      gm_*:  exp((1/n) sum_q v_q)      other:  (1/n) sum_q v_q

    ``values`` are the per-query values (e.g. ``[r[measure] for r in
    evaluator.evaluate(run).values()]``). As NumPy's mean, an empty list
    gives ``nan`` (pytrec_eval also warns); the sums are exactly
    rounded (``math.fsum``), so the order of the queries does not matter.
    """
    values = [float(v) for v in values]
    if measure.startswith("num_"):
        return math.fsum(values)
    if not values:
        return math.nan
    mean = math.fsum(values) / len(values)
    if measure.startswith("gm_"):
        return math.exp(mean)
    return mean


def parse_qrel(source: PathOrFile, syntax: str = "lenient") -> dict[str, dict[str, int]]:
    """Reads a TREC qrels file (``qid iter docno rel``) into
    ``{query: {document: grade}}``, as ``pytrec_eval.parse_qrel``.

    ``source`` is a path or a file object. Unlike pytrec_eval, a malformed
    line (wrong number of fields, a grade that is not an integer) raises
    ``ValueError`` naming the line, and so does a pair judged twice; lines
    starting with ``#`` are comments (as in trec_eval 10.0). ``syntax``:
    ``"lenient"`` (the default) skips blank lines; ``"trec_eval"`` refuses
    them with ``ValueError`` naming line and column, as trec_eval and
    pytrec_eval do.
    """
    return _core.parse_qrel(source, syntax)


def parse_run(source: PathOrFile, syntax: str = "lenient") -> dict[str, dict[str, float]]:
    """Reads a TREC run (``qid Q0 docno rank score tag``) into
    ``{query: {document: score}}``, as ``pytrec_eval.parse_run``;
    malformed lines, non-finite scores and a document listed twice for a
    query raise ``ValueError`` naming the line. Blank lines and ``#`` lines
    are skipped (pytrec_eval refuses both; trec_eval skips them).
    ``syntax="trec_eval"`` reads as trec_eval 10.0 does: fields after the
    tag are ignored (``"lenient"``, the default, refuses them) and lines whose
    first field starts with ``#`` are comments."""
    return _core.parse_run(source, syntax)


class RelevanceEvaluator:
    """pytrec_eval's ``RelevanceEvaluator(qrels, measures)``::

        evaluator = RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.5,10"})
        evaluator.evaluate(run)  # {query: {"map": ..., "ndcg_cut_10": ..., "P_5": ..., ...}}

    ``qrels``: ``{query: {document: grade}}`` (or a path / file object of a
    qrels file, read by the library). ``measures``: trec_eval's names and
    families as pytrec_eval takes them (:data:`supported_measures`: ``map``,
    ``gm_map``, ``Rprec``, ``bpref``, ``recip_rank``, ``iprec_at_recall``,
    ``P``, ``recall``, ``success``, ``map_cut``, ``ndcg``, ``ndcg_cut``,
    ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``, ``runid``,
    ``set_P``, ``set_relative_P``, ``set_recall``, ``set_map``, ``set_F``,
    ``utility``, ``num_nonrel_judged_ret``, ``gm_bpref``, ``infAP``,
    ``relative_P``, ``Rprec_mult``, ``11pt_avg``, ``binG``, ``G``,
    ``ndcg_rel``, ``Rndcg``, ``relstring``), with
    cut-offs as ``P.5,10`` or ``P_5,10`` (the cut-offs of all the names of a
    family together; a family alone gives trec_eval's default cut-offs only
    where no cut-off of it is named), and the nicknames ``official``,
    ``set`` and ``all_trec`` (:data:`supported_nicknames`, pytrec_eval's).
    The library reads them, as ``acm trec -m`` does; an unknown name raises
    ``ValueError``. The result has the measures in
    trec_eval's order. The values follow trec_eval's conventions, as
    pytrec_eval's do::

        AP    = (1/R) sum_{i: d_i relevant} #rel(1..i) / i
        P@k   = #rel(1..k) / k,   R-prec = #rel(1..R) / R,   RR = 1 / rank of the first relevant
        recall@k = #rel(1..k) / R,   success@k = [#rel(1..k) > 0],   map_cut@k = AP over the top k
        bpref = (1/R) sum_{relevant d retrieved} (1 - min(n_d, R) / min(N, R))
        iprec_at_recall_p = max precision from the (p R rounded)-th relevant document on
        gm_map (per query) = ln(max(AP, 1e-5)); its mean over queries is exp(mean)
        nDCG@k = DCG@k / ideal DCG@k,   DCG@k = sum_{i <= k} grade_i / log2(i + 1)

    (N: judged non-relevant documents, n_d: those ranked above d.)
    ``trec_eval_version``: ``"10"`` (the default, trec_eval 10.0, the current
    release) compares scores as doubles; ``"9"`` reproduces trec_eval 9.0.x
    and pytrec_eval, which store scores as C floats (0.3 and
    0.30000000000000004 tie, and the larger document id wins) and round
    iprec_at_recall's cut-offs as floor(p R + 0.9) instead of round(p R).

    documents ranked by decreasing score, ties by decreasing document id
    (``ties='expected'``: the expectation over all tie orders instead, for
    every measure but ``gm_map`` and ``iprec_at_recall``, which then raise
    ``ValueError`` when named, and are left out of a nickname's set with a
    ``UserWarning``); a grade counts as relevant from ``relevance_level``
    on; the queries scored are those both judged and in the run, a query of
    the run with no documents (``{"q2": {}}``) as an empty ranking, as
    pytrec_eval scores it (``complete=True``: every judged query, as
    ``trec_eval -c``); an empty run gives ``{}``, an empty measure set
    ``{query: {}}`` for each query scored; an undefined value (no relevant
    document) is 0. ``judged_docs_only_flag`` drops from a run the documents without
    a grade >= 0 before scoring (``trec_eval -J``: unjudged documents, and
    negative grades, which trec_eval reads as unjudged).

    Differences from pytrec_eval (with ``trec_eval_version="9"``): malformed
    input raises ``ValueError`` (a NaN score, a document listed twice); a
    query whose grades are all negative scores 0 (pytrec_eval crashes);
    trec_eval 10.0's measures not in :data:`supported_measures` (``unj``,
    ``rbp``) raise ``ValueError`` when named; ``set_F``, ``utility``,
    ``11pt_avg``, ``G``, ``ndcg_rel`` and ``Rndcg`` with parameters raise
    ``ValueError`` (trec_eval's defaults only); ``11pt_avg`` of a query
    without retrieved documents is 0 (pytrec_eval: ``nan``, 0/0); a
    measure name that pytrec_eval reads only in part (``P_5x`` as ``P_5``,
    ``P.1.5`` as ``P_1``) or crashes on (``P.0``, ``ndcg.1``) raises
    ``ValueError``; ``iprec_at_recall`` of a query without retrieved
    documents is 0 (pytrec_eval: an uninitialised value, often ``nan``).
    Evaluators pickle (with their qrels).
    """

    def __init__(
        self,
        query_relevance: Qrels | PathOrFile,
        measures: Iterable[str],
        relevance_level: int = 1,
        judged_docs_only_flag: bool = False,
        *,
        ties: str = "trec_eval",
        complete: bool = False,
        trec_eval_version: str = "10",
    ):
        if isinstance(measures, str):
            measures = [measures]
        measures = set(measures)
        for m in measures:
            if not isinstance(m, str):
                raise TypeError(f"measures must be strings, got {type(m).__name__} ({m!r})")
        self._measures = sorted(measures)
        self._relevance_level = int(relevance_level)
        self._judged_only = bool(judged_docs_only_flag)
        self._ties = ties
        self._complete = bool(complete)
        self._version = trec_eval_version
        self._core = _core.TrecEvaluator(
            query_relevance,
            self._measures,
            self._relevance_level,
            ties,
            self._complete,
            trec_eval_version,
        )
        self._qrels = query_relevance if isinstance(query_relevance, Mapping) else None

    @property
    def measures(self) -> list[str]:
        """The measures computed, as the keys of the results."""
        return self._core.measure_names()

    def _judged(self) -> Qrels:
        if self._qrels is None:
            self._qrels = self._core.qrels_dict()
        return self._qrels

    def evaluate(self, scores: Run | PathOrFile) -> dict[str, dict[str, float]]:
        """``{query: {measure: value}}`` for a run ``{query: {document:
        score}}`` (or a path / file object of a TREC run, read by the
        library: the fastest route for large runs)."""
        if self._judged_only:
            if not isinstance(scores, Mapping):
                scores = parse_run(scores)
            judged = self._judged()
            scores = {
                q: {d: s for d, s in docs.items() if judged.get(q, {}).get(d, -1) >= 0}
                for q, docs in scores.items()
            }
        if isinstance(scores, Mapping) and not scores:
            return {}
        return self._core.evaluate(scores)

    def __reduce__(self):
        return (
            _rebuild,
            (
                self._judged(),
                self._measures,
                self._relevance_level,
                self._judged_only,
                self._ties,
                self._complete,
                self._version,
            ),
        )


def _rebuild(qrels, measures, relevance_level, judged_only, ties, complete, version="10"):
    return RelevanceEvaluator(
        qrels,
        measures,
        relevance_level,
        judged_only,
        ties=ties,
        complete=complete,
        trec_eval_version=version,
    )
