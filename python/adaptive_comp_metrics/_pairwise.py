"""Bradley-Terry models fitted to pairwise comparisons, with intervals on
scores and ranks, P(top k) and whether the top k is settled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _core
from ._correlation import _seed
from ._errors import InputError


@dataclass(frozen=True)
class Settled:
    """Whether the top ``k`` is settled: ``top`` (item names, best first),
    ``probability`` that the estimated top k is the top k (same items, any
    order; the share of draws agreeing), the ``target`` and whether it is
    met (``settled``), ``probability_by_k`` for k' = 1 ... n - 1,
    ``largest_settled`` (the largest settled k', 0: none), the
    ``contested`` items (names), and the plug-in estimate of the further
    comparisons that would settle it (``further_comparisons``, from the
    ``information_factor`` f*; None when two items at the boundary have
    equal scores)."""

    k: int
    top: list[str]
    probability: float
    target: float
    settled: bool
    probability_by_k: np.ndarray
    largest_settled: int
    contested: list[str]
    information_factor: float | None
    further_comparisons: int | None


class PairwiseFit:
    """A fitted Bradley-Terry (or noisy Bradley-Terry) model and its
    uncertainty. Arrays are indexed like ``items``:

    - ``scores``: the fitted log-strengths (centred, mean 0);
      ``standard_errors``; ``intervals`` (n x 2: lower, upper at ``level``);
      ``rank_intervals`` (n x 2 ints: best and worst rank, 1 = best);
      ``mean_ranks``; ``top_k_probability`` (P(rank <= ``top_k``));
    - ``method``: ``'exact'`` (the observed information inverted),
      ``'approximate'`` (many items) or ``'bootstrap'`` (workers
      resampled: ``replicates``, ``failed``); ``draws`` behind the ranks;
    - ``tie``: Davidson's tie parameter nu (None without ties);
      ``log_likelihood`` at the fit (with the prior's term when
      ``prior_sd``), ``iterations``, ``gradient`` (the largest absolute
      gradient at the fit), ``comparisons``, ``ties``;
    - ``workers`` (names), ``reliability`` (the noisy model's per-worker
      reliability, 1 for the plain model), ``bias`` (the noisy model's
      per-worker leaning to the item shown first; NaN where not fitted),
      ``worker_comparisons``;
    - ``settled``: :class:`Settled`.

    ``ranking()`` lists the items best first; ``to_dict()``;
    ``to_pandas()`` (pandas needed).
    """

    def __init__(self, d: dict[str, Any]):
        self.model: str = d["model"]
        self.items: list[str] = d["items"]
        self.scores: np.ndarray = d["scores"]
        self.standard_errors: np.ndarray = d["standard_errors"]
        self.intervals: np.ndarray = d["intervals"]
        self.rank_intervals: np.ndarray = d["rank_intervals"]
        self.mean_ranks: np.ndarray = d["mean_ranks"]
        self.top_k: int = d["top_k"]
        self.top_k_probability: np.ndarray = d["top_k_probability"]
        self.level: float = d["level"]
        self.method: str = d["method"]
        self.replicates: int | None = d["replicates"]
        self.failed: int | None = d["failed"]
        self.draws: int = d["draws"]
        self.tie: float | None = d["tie"]
        self.log_likelihood: float = d["log_likelihood"]
        self.prior_sd: float | None = d["prior_sd"]
        self.iterations: int = d["iterations"]
        self.gradient: float = d["gradient"]
        self.comparisons: int = d["comparisons"]
        self.ties: int = d["ties"]
        self.workers: list[str] = d["worker_names"]
        self.reliability: np.ndarray = d["reliability"]
        self.bias: np.ndarray = d["bias"]
        self.worker_comparisons: np.ndarray = d["worker_comparisons"]
        s = dict(d["settled"])
        s["top"] = [self.items[i] for i in s["top"]]
        s["contested"] = [self.items[i] for i in s["contested"]]
        self.settled = Settled(**s)

    def ranking(self) -> list[str]:
        """The items, best first (ties by item order)."""
        return [self.items[i] for i in np.argsort(-self.scores, kind="stable")]

    def __repr__(self) -> str:
        return (
            f"PairwiseFit(model={self.model!r}, items={len(self.items)}, "
            f"comparisons={self.comparisons}, method={self.method!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Every number as plain Python values."""
        out = {}
        for k, v in vars(self).items():
            if isinstance(v, np.ndarray):
                v = v.tolist()
            elif isinstance(v, Settled):
                v = {
                    kk: (vv.tolist() if isinstance(vv, np.ndarray) else vv)
                    for kk, vv in vars(v).items()
                }
            out[k] = v
        return out

    def to_pandas(self):
        """One row per item, best first: score, standard error, interval,
        rank interval, mean rank, P(top k). Raises ``ImportError`` when
        pandas is not installed."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "to_pandas needs pandas, which is not installed: pip install pandas"
            ) from e
        df = pd.DataFrame(
            {
                "item": self.items,
                "score": self.scores,
                "standard_error": self.standard_errors,
                "low": self.intervals[:, 0],
                "high": self.intervals[:, 1],
                "best_rank": self.rank_intervals[:, 0],
                "worst_rank": self.rank_intervals[:, 1],
                "mean_rank": self.mean_ranks,
                f"p_top_{self.top_k}": self.top_k_probability,
            }
        )
        return df.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)


def _codes(values, catalogue=None):
    """Integer codes of ``values`` and the names, in order of first
    appearance (or of ``catalogue``)."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise InputError(f"expected a 1-D column, got {a.ndim} dimensions")
    if catalogue is not None:
        names = [str(c) for c in catalogue]
        index = {n: i for i, n in enumerate(names)}
        if len(index) != len(names):
            raise InputError("the catalogue names an entry twice")
        codes = np.empty(len(a), dtype=np.int64)
        for r, v in enumerate(a.tolist()):
            i = index.get(str(v))
            if i is None:
                raise InputError(f"record {r}: {v!r} is not in the catalogue given")
            codes[r] = i
        return codes, names
    if len(a) == 0:
        return np.empty(0, dtype=np.int64), []
    try:
        uniq, first, inverse = np.unique(a, return_index=True, return_inverse=True)
    except TypeError as e:
        raise TypeError(f"names must be of one comparable type: {e}") from None
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], [str(u) for u in uniq[order].tolist()]


def _column(data, key, what):
    if key is None:
        return None
    if isinstance(key, str):
        try:
            return np.asarray(data[key])
        except (KeyError, IndexError, ValueError):
            raise InputError(f"the table has no column {key!r} ({what})") from None
    return np.asarray(key)


def _records(winner, loser, tie, worker, data, items, workers):
    """(first, second, vote, worker codes or None, item names, worker names,
    shown_in_order)."""
    shown_in_order = False
    if data is not None:
        # A DataFrame's columns (an Index has no truth value), a mapping's keys.
        cols = getattr(data, "columns", None)
        if cols is None:
            keys = getattr(data, "keys", None)
            if keys is None:
                raise TypeError(
                    f"data must be a table (a DataFrame or a dict of columns), "
                    f"got {type(data).__name__}"
                )
            cols = keys()
        cols = {c for c in cols if isinstance(c, str)}
        if winner is None and loser is None and {"left", "right", "label"} <= cols:
            # Crowd-Kit's layout: left, right shown, label the winner.
            left = np.asarray(data["left"])
            right = np.asarray(data["right"])
            label = np.asarray(data["label"])
            first, second = left, right
            is_left, is_right = label == left, label == right
            bad = ~(is_left | is_right)
            if bad.any():
                r = int(np.flatnonzero(bad)[0])
                raise InputError(
                    f"record {r}: label {label[r]!r} is neither left ({left[r]!r}) nor "
                    f"right ({right[r]!r})"
                )
            vote = np.where(is_left, 0, 1).astype(np.int64)
            wk = np.asarray(data["worker"]) if "worker" in cols and worker is None else None
            if worker is not None:
                wk = _column(data, worker, "worker")
            shown_in_order = True
            return _finish(first, second, vote, wk, items, workers, shown_in_order)
        winner = _column(data, "winner" if winner is None else winner, "winner")
        loser = _column(data, "loser" if loser is None else loser, "loser")
        if tie is None and "tie" in cols:
            tie = "tie"
        tie = _column(data, tie, "tie")
        if worker is None and "worker" in cols:
            worker = "worker"
        worker = _column(data, worker, "worker")
    if winner is None or loser is None:
        raise TypeError("give winner and loser (arrays), or data (a table) with their columns")
    winner, loser = np.asarray(winner), np.asarray(loser)
    if len(winner) != len(loser):
        raise InputError(f"winner has {len(winner)} records but loser has {len(loser)}")
    if tie is None:
        vote = np.zeros(len(winner), dtype=np.int64)
    else:
        t = np.asarray(tie)
        if t.shape != winner.shape:
            raise InputError(f"tie has {t.size} records but winner has {len(winner)}")
        if t.dtype.kind not in "bifu":
            raise TypeError(f"tie must be booleans, got dtype {t.dtype}")
        vote = np.where(t.astype(bool), 2, 0).astype(np.int64)
    wk = None if worker is None else np.asarray(worker)
    return _finish(winner, loser, vote, wk, items, workers, shown_in_order)


def _finish(first, second, vote, worker, items, workers, shown_in_order):
    if len(first) != len(second):
        raise InputError(f"{len(first)} first items but {len(second)} second items")
    n = len(first)
    if items is None:
        codes, names = _codes(np.concatenate([first, second]))
        a, b = codes[:n].copy(), codes[n:].copy()
    else:
        (a, names), (b, _) = _codes(first, items), _codes(second, items)
    wcodes, wnames = (None, [])
    if worker is not None:
        if len(worker) != n:
            raise InputError(f"worker has {len(worker)} records but winner has {n}")
        wcodes, wnames = _codes(worker, workers)
    return a, b, vote, wcodes, names, wnames, shown_in_order


def _fit(noisy, args):
    """The fit of either model, ``args`` the public function's arguments."""
    a = args
    winner, loser, tie, worker = a["winner"], a["loser"], a["tie"], a["worker"]
    data, items, workers, bootstrap = a["data"], a["items"], a["workers"], a["bootstrap"]
    prior_sd, tolerance, max_iterations = a["prior_sd"], a["tolerance"], a["max_iterations"]
    draws = a["draws"]
    first, second, vote, wcodes, names, wnames, shown = _records(
        winner, loser, tie, worker, data, items, workers
    )
    if bootstrap is not None and wcodes is None:
        raise InputError("the bootstrap resamples workers: give the worker of each comparison")
    d = _core.pairwise_fit(
        bool(noisy),
        names,
        wnames,
        bool(shown),
        np.ascontiguousarray(first, dtype=np.int64),
        np.ascontiguousarray(second, dtype=np.int64),
        np.ascontiguousarray(vote, dtype=np.int64),
        None if wcodes is None else np.ascontiguousarray(wcodes, dtype=np.int64),
        None if prior_sd is None else float(prior_sd),
        None if tolerance is None else float(tolerance),
        None if max_iterations is None else int(max_iterations),
        None if bootstrap is None else int(bootstrap),
        float(a["level"]),
        int(a["top_k"]),
        None if draws is None else int(draws),
        _seed(a["seed"]),
        float(a["settle"]),
    )
    return PairwiseFit(d)


_COMMON = """
    Comparisons: ``winner`` and ``loser`` (arrays of item names or numbers),
    ``tie`` (booleans: a tie between the two, optional), ``worker`` (who
    voted, optional; needed by ``bootstrap``); or ``data``, a table
    (pandas DataFrame, dict of columns) with columns ``winner``, ``loser``,
    ``tie``, ``worker`` (other names by passing them as those arguments),
    or Crowd-Kit's ``worker``, ``left``, ``right``, ``label`` (``label``
    the winner; the item shown first is ``left``). ``items``, ``workers``:
    the catalogues (default: in order of first appearance; a name not in
    a catalogue given is an error naming the record).

    Options: ``prior_sd`` (a Gaussian prior N(0, prior_sd^2) on the scores,
    as choix's ``alpha`` = 1/(2 prior_sd^2): finite scores for an item
    that won or lost every comparison; None: maximum likelihood), ``level``
    of the intervals, ``top_k`` (P(rank <= k) and the settled top k, at
    probability ``settle``), ``draws`` (behind rank intervals and P(top
    k); default automatic), ``bootstrap`` (a number of replicates: a
    bootstrap that resamples workers instead of the observed information),
    ``seed`` (draws and resamples; same seed, same result on any number of
    threads), ``tolerance`` (on the gradient) and ``max_iterations``.

    Raises :class:`InputError` (a ``ValueError``) for no comparisons, an
    item compared with itself (naming the record), a disconnected
    comparison graph or an item that won (or lost) every comparison without
    a prior (naming the items), a worker unknown to the bootstrap, an
    option out of range; ``TypeError`` for inputs of the wrong type.
"""


def bradley_terry(
    winner=None,
    loser=None,
    tie=None,
    worker=None,
    *,
    data=None,
    items=None,
    workers=None,
    prior_sd: float | None = None,
    level: float = 0.95,
    top_k: int = 10,
    draws: int | None = None,
    bootstrap: int | None = None,
    seed: int | None = 0,
    settle: float = 0.95,
    tolerance: float | None = None,
    max_iterations: int | None = None,
) -> PairwiseFit:
    """The Bradley-Terry model fitted by maximum likelihood (or with a
    Gaussian prior), with Davidson's (1970) ties::

        P(i beats j) = e^s_i / (e^s_i + e^s_j + nu e^((s_i + s_j)/2))
        P(tie)       = nu e^((s_i + s_j)/2) / (same)

    (nu = 0 without ties: the plain model, Hunter 2004), converged on the
    gradient, with standard errors from the observed Fisher information
    (or a bootstrap over workers), Wald intervals, rank intervals and
    P(top k) from draws of the scores, and whether the top k is settled.
    Scores equal choix's ``ilsr_pairwise`` / ``mm_pairwise`` (and
    ``opt_pairwise`` with ``prior_sd``) to 1e-6.
    """
    return _fit(False, locals())


def noisy_bradley_terry(
    winner=None,
    loser=None,
    tie=None,
    worker=None,
    *,
    data=None,
    items=None,
    workers=None,
    prior_sd: float | None = None,
    level: float = 0.95,
    top_k: int = 10,
    draws: int | None = None,
    bootstrap: int | None = None,
    seed: int | None = 0,
    settle: float = 0.95,
    tolerance: float | None = None,
    max_iterations: int | None = None,
) -> PairwiseFit:
    """The noisy Bradley-Terry model (as Crowd-Kit's ``NoisyBradleyTerry``):
    each worker w votes by the model with probability (reliability) r_w
    and otherwise carelessly (for the item shown first with probability
    b_w, the bias), so careless workers
    weigh less without a hard exclusion; fitted to the maximum of its
    likelihood (Crowd-Kit's own optimiser stops short of it: compare
    log-likelihoods), with the standard errors of the scores from the
    observed information of every parameter, or a bootstrap over workers.
    Comparisons without a worker follow the model (reliability 1); the
    bias is fitted only with Crowd-Kit's layout (``left``, ``right``),
    which says which item was shown first (else it is 1/2, and ``bias`` is
    NaN).
    """
    return _fit(True, locals())


bradley_terry.__doc__ = (bradley_terry.__doc__ or "") + _COMMON
noisy_bradley_terry.__doc__ = (noisy_bradley_terry.__doc__ or "") + _COMMON
