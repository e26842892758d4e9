"""Top-rank-focused evaluation of semantic models, on the Rust crate
``adaptive-comp-metrics``.

Drop-in replacements for what SciPy, pytrec_eval and gensim offer, with the
same signatures and result objects (differences stated in each docstring):

- :func:`weightedtau`, :func:`kendalltau`, :func:`spearmanr`, :func:`pearsonr`
  (``scipy.stats``);
- :class:`RelevanceEvaluator`, :func:`parse_qrel`, :func:`parse_run`,
  :func:`compute_aggregated_measure`, :data:`supported_measures`,
  :data:`supported_nicknames` (``pytrec_eval``);
- :func:`evaluate_word_pairs` (gensim's ``KeyedVectors.evaluate_word_pairs``);

and what none of them has: the top-weighted :func:`rho_w` and :func:`tau_w`
(Lombardo et al. 2020) and their standardised scale (Lombardo 2025),
permutation p-values and bootstrap intervals of any coefficient
(:func:`permutation_test`, :func:`bootstrap_ci`, :func:`paired_comparison`),
shardable over processes bit for bit (:class:`PermutationTest`,
:class:`Bootstrap`), SemEval-2007 and Jabbari et al. lexical-substitution
scoring (:func:`lexsub_score`) and the Avraham-Goldberg triplet score
(:func:`triplet_score`).

Inputs are 1-D float64 or float32 NumPy arrays (read in place when
contiguous), other real arrays or lists (copied). Bad input raises
:class:`InputError` (a ``ValueError``, with the library's message and the
place as ``.line``, ``.column``, ``.path``; :class:`ReadError` for a line
of a file or text read) or ``TypeError``; an internal error raises
``RuntimeError``, never aborts.
"""

from ._compare import (
    ComparisonResult,
    FriedmanResult,
    PairResult,
    SystemEstimate,
    compare,
    friedman,
    multipletests,
)
from ._correlation import (
    TopWeighted,
    null_moments,
    rho_w,
    rho_w_standardised,
    standardise_with_moments,
    tau_w,
    tau_w_standardised,
)
from ._errors import InputError, ReadError
from ._pairwise import PairwiseFit, Settled, bradley_terry, noisy_bradley_terry
from ._relevance import (
    RelevanceEvaluator,
    compute_aggregated_measure,
    parse_qrel,
    parse_run,
    supported_measures,
    supported_nicknames,
)
from ._results import (
    BootstrapResult,
    ConfidenceInterval,
    GammaMoments,
    MomentEstimate,
    NullEstimate,
    PairedComparisonResult,
    PearsonRResult,
    PermutationTestResult,
    RhoW,
    SignificanceResult,
    Standardised,
    TauW,
    ZScore,
)
from ._scipy_api import kendalltau, pearsonr, spearmanr, weightedtau
from ._scoring import (
    LexsubScores,
    ScorePl,
    Tally,
    Totals,
    TripletScore,
    lexsub_score,
    triplet_score,
)
from ._uncertainty import (
    Bootstrap,
    PermutationTest,
    Statistic,
    bootstrap_ci,
    paired_comparison,
    permutation_test,
    standardise,
)
from ._warnings import ConstantInputWarning, DegenerateDataWarning, NearConstantInputWarning
from ._wordsim import (
    WordPairsReport,
    WordPairsResult,
    evaluate_word_pairs,
    read_word_pairs,
)

__version__ = "0.1.0"

__all__ = [
    "Bootstrap",
    "BootstrapResult",
    "ComparisonResult",
    "ConfidenceInterval",
    "ConstantInputWarning",
    "DegenerateDataWarning",
    "FriedmanResult",
    "GammaMoments",
    "InputError",
    "LexsubScores",
    "MomentEstimate",
    "NearConstantInputWarning",
    "NullEstimate",
    "PairResult",
    "PairedComparisonResult",
    "PairwiseFit",
    "PearsonRResult",
    "PermutationTest",
    "PermutationTestResult",
    "ReadError",
    "RelevanceEvaluator",
    "RhoW",
    "ScorePl",
    "Settled",
    "SignificanceResult",
    "Standardised",
    "Statistic",
    "SystemEstimate",
    "Tally",
    "TauW",
    "TopWeighted",
    "Totals",
    "TripletScore",
    "WordPairsReport",
    "WordPairsResult",
    "ZScore",
    "bootstrap_ci",
    "bradley_terry",
    "compare",
    "compute_aggregated_measure",
    "evaluate_word_pairs",
    "friedman",
    "kendalltau",
    "lexsub_score",
    "multipletests",
    "noisy_bradley_terry",
    "null_moments",
    "paired_comparison",
    "parse_qrel",
    "parse_run",
    "pearsonr",
    "permutation_test",
    "read_word_pairs",
    "rho_w",
    "rho_w_standardised",
    "spearmanr",
    "standardise",
    "standardise_with_moments",
    "supported_measures",
    "supported_nicknames",
    "tau_w",
    "tau_w_standardised",
    "triplet_score",
    "weightedtau",
]
