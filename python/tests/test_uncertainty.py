"""rho_w, tau_w, the standardised scale and the permutation machinery
against SciPy and NumPy oracles; sharded runs against single runs."""

import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from conftest import close
from scipy import stats

import adaptive_comp_metrics as acm


def ranks(v):
    return stats.rankdata(-np.asarray(v, dtype=float), method="average")


def rho_w_oracle(x, y, f):
    """Eq. 8 with Eq. 9 weights, straight from the definition."""
    a, b = ranks(x), ranks(y)
    w = f(a) + f(b)
    w = w / w.sum()
    ma, mb = (w * a).sum(), (w * b).sum()
    cov = (w * (a - ma) * (b - mb)).sum()
    return cov / np.sqrt((w * (a - ma) ** 2).sum() * (w * (b - mb) ** 2).sum())


def tau_w_oracle(x, y, f):
    a, b = ranks(x), ranks(y)
    w = f(a) + f(b)
    w = w / w.sum()
    ww = np.outer(w, w)
    sa, sb = np.sign(a[None, :] - a[:, None]), np.sign(b[None, :] - b[:, None])
    num = (ww * sa * sb).sum()
    return num / np.sqrt((ww * (sa != 0)).sum() * (ww * (sb != 0)).sum())


@pytest.mark.parametrize("seed", range(6))
def test_rho_w_tau_w_against_oracles_and_scipy(seed):
    rng = np.random.default_rng(seed)
    n = [5, 17, 60, 200, 50, 120][seed]
    x = rng.integers(0, 12, n).astype(float) if seed % 2 else rng.random(n)
    y = x + rng.normal(0, 3 if seed % 2 else 0.3, n)
    for f, name, kw in [
        (lambda r: 1 / (r + 2) ** 2, "offset_quadratic", {}),
        (lambda r: 1 / (r + 0.5) ** 2, "offset_quadratic", {"n0": 0.5}),
        (lambda r: 1 / r, "hyperbolic", {}),
    ]:
        assert close(acm.rho_w(x, y, weigher=name, **kw).rho, rho_w_oracle(x, y, f))
        assert close(acm.tau_w(x, y, weigher=name, **kw).tau, tau_w_oracle(x, y, f))
        # A Python callable gives the same numbers.
        assert close(acm.rho_w(x, y, weigher=f).rho, rho_w_oracle(x, y, f))
    # Unweighted: exactly Spearman's rho and Kendall's tau-b.
    assert close(acm.rho_w(x, y, weigher="unweighted").rho, stats.spearmanr(x, y).statistic)
    assert close(acm.tau_w(x, y, weigher="unweighted").tau, stats.kendalltau(x, y).statistic)
    # float32 input read in place gives the float64 numbers of the same values.
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    assert acm.rho_w(x32, y32) == acm.rho_w(x32.astype(float), y32.astype(float))


def test_standardised_scale():
    rng = np.random.default_rng(3)
    x = rng.random(300)
    s = acm.rho_w_standardised(x, x)
    assert s.value == 1.0 and s.raw.rho == 1.0
    m = acm.null_moments("rho", 300)
    assert m.mean.value < -0.3 and m.mean.source == "built-in table"
    exact = acm.null_moments("tau", 6, source="exact")
    assert exact.mean.standard_error == 0.0
    mc = acm.null_moments("tau", 6, source="monte_carlo", standard_error=2e-3, seed=4)
    assert abs(mc.mean.value - exact.mean.value) < 5 * 2e-3
    y = rng.random(300)
    t = acm.tau_w_standardised(x, y, null="monte_carlo", standard_error=5e-3, seed=1)
    table = acm.tau_w_standardised(x, y)
    assert abs(t.value - table.value) < 0.05
    g = acm.standardise_with_moments(
        s.raw.rho, m.mean.value, m.variance.value, m.left_variance.value
    )
    assert g == 1.0


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_permutation_p_values_against_scipy(alternative):
    rng = np.random.default_rng(11)
    x = rng.random(40)
    y = x + rng.normal(0, 1.2, 40)
    m = 20000
    for stat, ref in [
        ("spearman", stats.spearmanr(x, y, alternative=alternative).pvalue),
        ("kendall", stats.kendalltau(x, y, alternative=alternative).pvalue),
        ("pearson", stats.pearsonr(x, y, alternative=alternative).pvalue),
    ]:
        t = acm.permutation_test(x, y, stat, permutations=m, alternative=alternative, seed=5)
        se = np.sqrt(ref * (1 - ref) / m) * (2 if alternative == "two-sided" else 1)
        # The t / normal approximations of the references are themselves
        # off by ~1e-3 at n = 40.
        assert abs(t.pvalue - ref) < 5 * se + 0.01, (stat, t.pvalue, ref)


def test_standardise_exact_spearman():
    x = np.arange(10.0)
    y = np.array([2.0, 1, 4, 3, 6, 5, 8, 7, 10, 9])
    z = acm.standardise(x, y, "spearman", seed=1)
    assert z.null_mean.value == 0.0 and z.null_mean.permutations is None
    assert close(z.null_sd.value, 1 / 3)
    assert close(z.z, stats.spearmanr(x, y).statistic * 3)


def test_bootstrap_against_scipy_percentile():
    rng = np.random.default_rng(2)
    x = rng.random(60)
    y = x + rng.normal(0, 0.5, 60)
    ours = acm.bootstrap_ci(x, y, "pearson", resamples=4000, method="percentile", seed=3)
    theirs = stats.bootstrap(
        (x, y),
        lambda a, b: stats.pearsonr(a, b).statistic,
        paired=True,
        vectorized=False,
        n_resamples=4000,
        method="percentile",
        rng=np.random.default_rng(3),
    )
    lo, hi = theirs.confidence_interval
    width = hi - lo
    assert abs(ours.confidence_interval.low - lo) < 0.15 * width
    assert abs(ours.confidence_interval.high - hi) < 0.15 * width
    assert close(ours.estimate, stats.pearsonr(x, y).statistic)


def test_paired_comparison():
    rng = np.random.default_rng(5)
    human = rng.random(80)
    good = human + rng.normal(0, 0.1, 80)
    poor = human + rng.normal(0, 1.0, 80)
    c = acm.paired_comparison(human, good, poor, "rho_w", replicates=999, seed=9)
    assert c.difference > 0 and c.interval.confidence_interval.low > 0
    assert c.test.pvalue < 0.05
    assert close(c.value_a, acm.rho_w(human, good).rho)
    again = acm.paired_comparison(human, good, poor, "rho_w", replicates=999, seed=9)
    assert again == c and pickle.loads(pickle.dumps(c)) == c


def _weigher(r):
    return 1.0 / (r + 1) ** 1.5


@pytest.mark.parametrize(
    "statistic",
    [
        "spearman",
        "kendall",
        "rho_w",
        acm.Statistic("tau_w", weigher="hyperbolic", scheme="first"),
        acm.Statistic("weightedtau", weigher=_weigher, additive=False),
    ],
    ids=["spearman", "kendall", "rho_w", "tau_w", "weightedtau-callable"],
)
def test_sharded_runs_equal_single_runs(statistic):
    rng = np.random.default_rng(1)
    x = rng.integers(0, 9, 70).astype(float)  # ties: some resamples may be constant
    y = x + rng.normal(0, 2, 70)
    test = acm.PermutationTest(x, y, statistic, permutations=3001, seed=77)
    boot = acm.Bootstrap(x, y, statistic, resamples=1001, seed=77)
    single_test, single_boot = test.run(), boot.run()
    for shards in (1, 3, 7):
        values = np.concatenate([test.replicates(a, b) for a, b in test.shards(shards)])
        assert test.finish(values) == single_test
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = pool.map(boot.replicates, *zip(*boot.shards(5), strict=False))
        assert boot.finish(np.concatenate(list(parts))) == single_boot
        parts = pool.map(test.replicates, *zip(*test.shards(4), strict=False))
        assert test.finish(np.concatenate(list(parts))) == single_test
    # Thread count never changes a result.
    one = acm.PermutationTest(x, y, statistic, permutations=3001, seed=77, threads=1).run()
    assert one == single_test
    assert pickle.loads(pickle.dumps(test)).run() == single_test


def test_shard_errors():
    x = np.arange(10.0)
    test = acm.PermutationTest(x, x[::-1].copy(), permutations=100, seed=1)
    with pytest.raises(ValueError, match="too large"):
        test.replicates(50, 101)
    with pytest.raises(ValueError, match="length mismatch"):
        test.finish(np.zeros(99))
    with pytest.raises(ValueError, match="NaN"):
        test.finish(np.full(100, np.nan))
    with pytest.raises(ValueError, match="seed"):
        acm.PermutationTest(x, x, seed=-1)
