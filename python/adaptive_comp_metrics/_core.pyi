"""Type stubs of the extension module (Rust, PyO3). Use the package's
public functions instead: they give these their SciPy-, pytrec_eval- and
gensim-compatible signatures and result objects."""

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

_Scores = Any  # a 1-D float64/float32 array, another real array, or a sequence
_Moment = tuple[float, float, str]
_Moments = tuple[_Moment, _Moment, _Moment]
_Test = tuple[float, float, float, int, int, int, float, float]
_Interval = tuple[float, float, float, float, int, int, float, float | None, float | None]
_Estimate = tuple[float, float, int | None]
_Totals = tuple[float, int, int, float | None, float | None]
_Tally = tuple[float | None, float, float, int, int, int, int]

def _panic_for_tests() -> None: ...
def weightedtau(
    x: _Scores, y: _Scores, rank: Any, weigher: Any, additive: bool, nan_smallest: bool
) -> float: ...
def kendalltau(
    x: _Scores, y: _Scores, method: str, alternative_name: str
) -> tuple[float, float]: ...
def spearmanr(x: _Scores, y: _Scores, alternative_name: str) -> tuple[float, float]: ...
def pearsonr(x: _Scores, y: _Scores, alternative_name: str) -> tuple[float, float, int, bool]: ...
def pearsonr_ci(
    x: _Scores, y: _Scores, level: float, alternative_name: str
) -> tuple[float, float]: ...
def top_weighted(kind: str, x: _Scores, y: _Scores, config: Any) -> tuple[Any, ...]: ...
def standardised(
    kind: str, x: _Scores, y: _Scores, config: Any, null: str, se: float, seed: int
) -> tuple[float, tuple[Any, ...], _Moments, bool]: ...
def gamma_null_moments(
    kind: str, n: int, config: Any, source: str, se: float, seed: int
) -> _Moments: ...
def standardise_with(mean: float, variance: float, left_variance: float, gamma: float) -> float: ...

# A plan (`PermutationTest`, `Bootstrap`): the whole run, a share of its
# replicates, the result from every replicate's value.
def plan_run(plan: Any) -> _Test | _Interval: ...
def plan_replicates(plan: Any, start: int, stop: int) -> npt.NDArray[np.float64]: ...
def plan_finish(plan: Any, values: _Scores) -> _Test | _Interval: ...
def paired_comparison(
    human: _Scores,
    model_a: _Scores,
    model_b: _Scores,
    statistic: Any,
    count: int,
    level: float,
    alternative_name: str,
    exchange: str,
    seed: int,
    threads: int | None = None,
) -> tuple[float, float, float, _Interval, _Test]: ...
def standardise(
    x: _Scores, y: _Scores, statistic: Any, count: int, seed: int, threads: int | None = None
) -> tuple[float, _Estimate, _Estimate, float]: ...

class TrecEvaluator:
    def __init__(
        self,
        qrels: Any,
        measure_names: Iterable[str],
        relevance_level: int,
        ties: str,
        complete: bool,
        trec_eval_version: str,
    ) -> None: ...
    def evaluate(self, run: Any) -> dict[str, dict[str, float]]: ...
    def measure_names(self) -> list[str]: ...
    def qrels_dict(self) -> dict[str, dict[str, int]]: ...

def supported_measures() -> list[str]: ...
def supported_nicknames() -> list[tuple[str, list[str]]]: ...
def parse_qrel(source: Any, syntax: str = "lenient") -> dict[str, dict[str, int]]: ...
def parse_run(source: Any, syntax: str = "lenient") -> dict[str, dict[str, float]]: ...

class PairsBenchmark:
    def __init__(
        self, path: str, delimiter: str | None = None, layout: str | None = None
    ) -> None: ...
    @property
    def detection(self) -> str: ...
    @property
    def layout(self) -> str | None: ...
    def words(self) -> list[str]: ...
    def pairs(self) -> list[tuple[str, str, float, int]]: ...
    def __len__(self) -> int: ...

def evaluate_file(
    benchmark: PairsBenchmark,
    path: str,
    format: str,
    restrict_vocab: int | None,
    case_insensitive: bool,
    policy: str,
    config: Any,
) -> dict[str, Any]: ...
def evaluate_vectors(
    benchmark: PairsBenchmark,
    words: list[str],
    matrix: Any,
    case_insensitive: bool,
    policy: str,
    config: Any,
) -> dict[str, Any]: ...
def lexsub_score(
    gold: str,
    system: str,
    format: str,
    profile: str,
    lenient: bool,
    penalty: float,
    cutoff: int,
) -> dict[str, Any]: ...
def lexsub_score_pl(
    gold: str, system: str, format: str
) -> tuple[_Totals, _Totals, list[int], list[str]]: ...

class TripletDataset:
    def __init__(self, path: str) -> None: ...
    def words(self) -> list[str]: ...
    def __len__(self) -> int: ...

def triplet_score_file(
    dataset: TripletDataset, path: str, ties_name: str
) -> tuple[_Tally, _Tally, _Tally, _Tally]: ...
def triplet_score_vectors(
    dataset: TripletDataset, words: list[str], matrix: Any, ties_name: str
) -> tuple[_Tally, _Tally, _Tally, _Tally]: ...

# uncertainty::compare (python/src/compare.rs)
def multipletests(
    pvals: Any, alpha: float, method: str, maxiter: int
) -> tuple[list[bool], Any, float, float]: ...

class CompareCore:
    def data(self) -> list[tuple[str, dict[str, Any]]]: ...
    def render(
        self, format: str, table: str, measure: int, decimals: int, intervals: bool
    ) -> str: ...

def compare_matrices(
    measures: list[tuple[str, Any]],
    names: list[str],
    unit_names: list[str] | None,
    options: Any,
) -> CompareCore: ...
def compare_keyed(
    measures: list[tuple[str, list[tuple[str, list[tuple[str, float]]]]]],
    common: bool,
    options: Any,
) -> CompareCore: ...
def compare_coefficients(
    benchmarks: list[tuple[str, list[float], list[list[float]]]],
    names: list[str],
    statistics: list[tuple[str, Any]],
    options: Any,
) -> CompareCore: ...
def friedman(
    matrix: Any, names: list[str], alpha: float, larger_is_better: bool
) -> dict[str, Any]: ...

# pairwise (python/src/pairwise.rs)
def pairwise_fit(
    noisy: bool,
    items: list[str],
    workers: list[str],
    shown_in_order: bool,
    first: Any,
    second: Any,
    vote: Any,
    worker: Any | None,
    prior_sd: float | None,
    tolerance: float | None,
    max_iterations: int | None,
    bootstrap: int | None,
    level: float,
    top_k: int,
    draws: int | None,
    seed: int,
    settle: float,
    threads: int | None = None,
) -> dict[str, Any]: ...
