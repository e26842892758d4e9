"""The reference packages' own tests, run against this package: SciPy's
tests of ``weightedtau``, ``kendalltau``, ``spearmanr`` and ``pearsonr``
(``scipy/stats/tests/test_stats.py``, installed with SciPy) and gensim's
tests of ``evaluate_word_pairs`` (``gensim/test/test_word2vec.py``), each in
a pytest subprocess with the plugin ``peer_suites`` swapping the package in
(see its docstring). Nothing is fetched and no test file is copied.

Every test passes but these deliberate differences, which the plugin marks
``xfail(strict=True)`` (``peer_suites.DEVIATIONS`` maps each test to its
reason; a deviation that starts to pass fails the run):

- a single coefficient of a constant input raises ``ValueError`` (SciPy:
  NaN and ``ConstantInputWarning``); batches (``pearsonr(..., axis=)``,
  2-D ``spearmanr``) give SciPy's NaN entries and warning. 4 tests;
- fewer than 2 items raise ``ValueError`` (SciPy: NaN and
  ``SmallSampleWarning``): no coefficient is defined. 9 tests;
- NaN input raises ``ValueError`` by default, naming the item (SciPy's
  default ``nan_policy='propagate'`` returns NaN); ``'propagate'`` and
  ``'omit'`` behave as SciPy's. 12 tests;
- ``kendalltau(method='exact')`` computes the exact distribution for up to
  33 untied items (beyond: ``ValueError``, the normal approximation being
  within 1e-4; SciPy: exact up to 171, approximated above). 18 tests;
- SciPy's resampling objects (``PermutationMethod``, ``MonteCarloMethod``,
  ``BootstrapMethod``) are not taken: ``permutation_test`` and
  ``bootstrap_ci`` resample any coefficient from a seed. 12 tests;
- ``kendalltau`` computes tau-b only (``variant='c'`` raises), an exact
  p-value below 2**-1022 is kept where SciPy returns 0, and
  ``weightedtau`` refuses NaN unless ``nan_policy='smallest'``. 3 tests.

The versions are pinned (``requirements-test.txt``), so the counts are
fixed: a change means a test of theirs or a behaviour of ours changed.
pytrec_eval's wheel ships no tests: each behaviour its
``tests/pytrec_eval_tests.py`` checks has a test of ours
(``test_pytrec_dropin.py``), and, where a checkout of pytrec_eval's
repository (with its ``trec_eval`` submodule, whose ``test`` directory the
file reads) is named by ``ACM_PYTREC_EVAL_CHECKOUT``, its 7 tests run
against the package as they are (``import pytrec_eval`` resolving to a
two-line module that re-exports the package's names).

Cost (2 cores at load average 9, other builds running): SciPy's run 12 s;
gensim's 72 s, nearly all of it gensim training a word2vec model (20
epochs) in each of its two tests; 43 s of CPU time for both.
"""

import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(__file__)


def run_suite(package_dir: str, test_file: str, selection: str) -> dict[str, int]:
    """Runs pytest on a test file installed in ``package_dir`` with the
    plugin; the counts. The package's directory is pytest's root, so that
    its own ``conftest.py`` (SciPy's fixtures and marks) applies, wherever
    the package is installed."""
    env = dict(os.environ, PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "peer_suites",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            package_dir,
            "--confcutdir",
            package_dir,
            "-q",
            "--tb=no",
            "-rfE",
            test_file,
            "-k",
            selection,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=package_dir,
        timeout=600,
    )
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    outcomes = re.findall(r"(\d+) (passed|failed|xfailed|xpassed|error)", last)
    counts = {k: int(n) for n, k in outcomes}
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    return counts


def installed(package, *path) -> tuple[str, str]:
    """The directory of an installed package and the path of a file in it."""
    module = pytest.importorskip(package)
    root = os.path.dirname(module.__file__)
    found = os.path.join(root, *path)
    assert os.path.isfile(found), found
    return root, found


def test_scipys_own_tests_of_the_four_coefficients():
    import peer_suites

    root, test_stats = installed("scipy", "stats", "tests", "test_stats.py")
    counts = run_suite(root, test_stats, peer_suites.SCIPY_SELECTION)
    assert counts == {"passed": 139, "xfailed": 58}, counts


def test_gensims_own_tests_of_evaluate_word_pairs():
    root, test_word2vec = installed("gensim", "test", "test_word2vec.py")
    counts = run_suite(root, test_word2vec, "evaluate_word_pairs")
    assert counts == {"passed": 2}, counts


# pytrec_eval's names are the package's (`__all__` holds them).
PYTREC_SHIM = "from adaptive_comp_metrics import *  # noqa: F403\n"


def test_pytrec_evals_own_tests(tmp_path):
    """pytrec_eval's 7 tests (4 unit tests, 2 against trec_eval's own
    test outputs, one empty class) with ``pytrec_eval`` the package."""
    checkout = os.environ.get("ACM_PYTREC_EVAL_CHECKOUT")
    if not checkout:
        pytest.skip("ACM_PYTREC_EVAL_CHECKOUT names no checkout of pytrec_eval")
    tests = os.path.join(checkout, "tests", "pytrec_eval_tests.py")
    assert os.path.isfile(tests), tests
    assert os.path.isdir(os.path.join(checkout, "trec_eval", "test")), "trec_eval submodule"
    shim = tmp_path / "pytrec_eval"
    shim.mkdir()
    (shim / "__init__.py").write_text(PYTREC_SHIM)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    out = subprocess.run(
        [sys.executable, tests],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(tests),
        timeout=300,
    )
    assert (
        "adaptive_comp_metrics"
        in subprocess.run(
            [sys.executable, "-c", "import pytrec_eval; print(pytrec_eval.RelevanceEvaluator)"],
            capture_output=True,
            text=True,
            env=env,
        ).stdout
    )
    assert out.returncode == 0, out.stderr[-6000:]
    assert "Ran 7 tests" in out.stderr and out.stderr.rstrip().endswith("OK"), out.stderr
