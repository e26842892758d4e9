//! Permutation tests, bootstrap intervals, paired comparisons and null
//! moments of any of the binding's statistics, seeded, and split into
//! shares of replicates that put back together give the single run.

use std::num::NonZeroUsize;

use adaptive_comp_metrics::correlation::vigna::{Combine, WeightedTauOptions};
use adaptive_comp_metrics::pearson;
use adaptive_comp_metrics::rand::SeedableRng;
use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
use adaptive_comp_metrics::uncertainty::{
    Bootstrap, ConfidenceInterval, Estimate, Exchange, Interval, KendallTauB, PermutationTest,
    Permutations, Source, Spearman, Statistic, Threads, TopWeightedRho, TopWeightedTau,
    UncertaintyError, VignaTau,
};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::convert::{OrValueError, Scores, array, choice, guard, read_all};
use crate::correlation::{alternative, rank};
use crate::on_same;
use crate::weigher::{AnyWeigher, order, scheme, ties};

/// A statistic as the Python side describes it (`adaptive_comp_metrics.Statistic`).
#[derive(FromPyObject)]
pub struct StatSpec<'py> {
    /// `spearman`, `kendall`, `pearson`, `rho_w`, `tau_w`, `weightedtau`.
    pub kind: String,
    /// The weigher of ρ_w, τ_w (name or callable of the 1-based rank) or of
    /// the weighted τ (None, a name, or a callable of SciPy's 0-based rank).
    pub weigher: Bound<'py, PyAny>,
    /// The offset n0 of `offset_quadratic`.
    pub n0: f64,
    /// The scheme of ρ_w, τ_w.
    pub scheme: String,
    /// The tie method of ρ_w, τ_w.
    pub ties: String,
    /// The order of x.
    pub order_x: String,
    /// The order of y.
    pub order_y: String,
    /// The weighted τ's importance rank: `symmetric`, `xy`, `yx`, `index`.
    pub rank: String,
    /// The weighted τ's additive (or multiplicative) pair weights.
    pub additive: bool,
}

/// A built statistic and whether it calls Python.
pub struct Built {
    statistic: Box<dyn Statistic>,
    weigher: Option<std::sync::Arc<AnyWeigher>>,
}

/// Shares one weigher between the statistic and the binding (for its
/// Python exception).
#[derive(Clone)]
struct Shared(std::sync::Arc<AnyWeigher>);

impl adaptive_comp_metrics::Weigher for Shared {
    fn weight(&self, rank: f64) -> f64 {
        self.0.weight(rank)
    }
}

impl StatSpec<'_> {
    /// The library's statistic.
    pub fn build(&self) -> PyResult<Built> {
        let weighted = |base: f64| -> PyResult<std::sync::Arc<AnyWeigher>> {
            Ok(std::sync::Arc::new(if self.weigher.is_none() {
                AnyWeigher::Hyperbolic
            } else {
                AnyWeigher::from_py(&self.weigher, self.n0, base)?
            }))
        };
        Ok(match self.kind.as_str() {
            "spearman" => Built {
                statistic: Box::new(Spearman),
                weigher: None,
            },
            "kendall" => Built {
                statistic: Box::new(KendallTauB),
                weigher: None,
            },
            "pearson" => Built {
                statistic: Box::new(|x: &[f64], y: &[f64]| pearson(x, y).map(|r| r.r)),
                weigher: None,
            },
            "rho_w" | "tau_w" => {
                let w = weighted(1.0)?;
                let (s, t, ox, oy) = (
                    scheme(&self.scheme)?,
                    ties(&self.ties)?,
                    order(&self.order_x)?,
                    order(&self.order_y)?,
                );
                let statistic: Box<dyn Statistic> = if self.kind == "rho_w" {
                    Box::new(
                        TopWeightedRho::new()
                            .weigher(Shared(w.clone()))
                            .scheme(s)
                            .ties(t)
                            .orders(ox, oy),
                    )
                } else {
                    Box::new(
                        TopWeightedTau::new()
                            .weigher(Shared(w.clone()))
                            .scheme(s)
                            .ties(t)
                            .orders(ox, oy),
                    )
                };
                Built {
                    statistic,
                    weigher: Some(w),
                }
            }
            "weightedtau" => {
                let w = weighted(0.0)?;
                let rank = rank(&self.rank)?;
                let combine = if self.additive {
                    Combine::Additive
                } else {
                    Combine::Multiplicative
                };
                let options = WeightedTauOptions::default()
                    .rank(rank)
                    .combine(combine)
                    .weigher(Shared(w.clone()));
                Built {
                    statistic: Box::new(VignaTau::new(options)),
                    weigher: Some(w),
                }
            }
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "statistic must be 'spearman', 'kendall', 'pearson', 'rho_w', 'tau_w' or \
                     'weightedtau', got '{other}'"
                )));
            }
        })
    }
}

impl Built {
    /// The library's statistic.
    pub(crate) fn statistic(&self) -> &dyn Statistic {
        &*self.statistic
    }

    /// Whether the statistic calls a Python weigher (and so needs the GIL).
    pub(crate) fn python(&self) -> bool {
        self.weigher.as_ref().is_some_and(|w| w.is_python())
    }

    /// The thread setting: one thread with a Python weigher (it needs the
    /// GIL), else `threads` (None: every core).
    pub(crate) fn threads(&self, threads: Option<usize>) -> Threads {
        if self.python() {
            return Threads::Fixed(NonZeroUsize::MIN);
        }
        self::threads(threads)
    }

    /// `result`, unless a Python weigher raised.
    pub(crate) fn check<T>(&self, result: PyResult<T>) -> PyResult<T> {
        match &self.weigher {
            Some(w) => w.check(result),
            None => result,
        }
    }
}

/// The thread setting `threads` asks for (None or 0: every core).
pub(crate) fn threads(threads: Option<usize>) -> Threads {
    threads
        .and_then(NonZeroUsize::new)
        .map_or(Threads::Available, Threads::Fixed)
}

/// The generator the library's `…_seeded` entries use for `seed`: the
/// shares of a run (`replicates`) take the generator itself.
fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Reads x and y as slices of one float type and evaluates `$call` with
/// `$stat` bound to the built statistic `$s` and `$a`, `$b` to the two
/// slices (the GIL released unless the statistic calls Python); the result,
/// unless a Python weigher raised, or its error as a `ValueError`.
macro_rules! on_xy {
    ($py:expr, $x:expr, $y:expr, $s:expr, |$stat:ident, $a:ident, $b:ident| $call:expr) => {{
        let scores = read_all(&[$x, $y], &["x", "y"])?;
        let result = on_same!($py, &scores, !$s.python(), |v| {
            let ($stat, $a, $b) = (&*$s.statistic, v[0], v[1]);
            $call
        });
        $s.check(result.or_value_error())
    }};
}

/// A permutation test as (statistic, p_value, standard_error, permutations,
/// at_least, at_most, null_mean, null_sd).
pub type TestTuple = (f64, f64, f64, usize, usize, usize, f64, f64);

fn test_tuple(t: &PermutationTest) -> TestTuple {
    (
        t.statistic,
        t.p_value,
        t.standard_error,
        t.permutations,
        t.at_least,
        t.at_most,
        t.null_mean,
        t.null_sd,
    )
}

/// A bootstrap interval as (estimate, lower, upper, level, resamples,
/// failed, standard_error, bias_correction, acceleration).
pub type IntervalTuple = (
    f64,
    f64,
    f64,
    f64,
    usize,
    usize,
    f64,
    Option<f64>,
    Option<f64>,
);

fn interval_tuple(c: &ConfidenceInterval) -> IntervalTuple {
    (
        c.estimate,
        c.lower,
        c.upper,
        c.level,
        c.resamples,
        c.failed,
        c.standard_error,
        c.bias_correction,
        c.acceleration,
    )
}

fn permutations(count: usize, alt: &str, threads: Threads) -> PyResult<Permutations> {
    Ok(Permutations::new(count)
        .alternative(alternative(alt)?)
        .threads(threads))
}

fn bootstrap(count: usize, level: f64, method: &str, threads: Threads) -> PyResult<Bootstrap> {
    let interval = choice(
        "method",
        method,
        &[("BCa", Interval::Bca), ("percentile", Interval::Percentile)],
    )?;
    Ok(Bootstrap::new(count)
        .level(level)
        .interval(interval)
        .threads(threads))
}

/// A permutation test of `statistic` on x and y.
#[pyfunction]
#[pyo3(signature = (x, y, statistic, count, alternative_name, seed, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn permutation_test(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    alternative_name: &str,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<TestTuple> {
    guard(|| {
        let s = statistic.build()?;
        let plan = permutations(count, alternative_name, s.threads(threads))?;
        let t = on_xy!(py, x, y, s, |stat, a, b| plan.test_seeded(stat, a, b, seed))?;
        Ok(test_tuple(&t))
    })
}

/// The permuted values of the replicates `start..stop` of that test.
#[pyfunction]
#[pyo3(signature = (x, y, statistic, count, seed, start, stop, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn permutation_replicates<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    statistic: StatSpec<'py>,
    count: usize,
    seed: u64,
    start: usize,
    stop: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let s = statistic.build()?;
        let plan = permutations(count, "two-sided", s.threads(threads))?;
        let v = on_xy!(py, x, y, s, |stat, a, b| plan.replicates(
            stat,
            a,
            b,
            start..stop,
            &mut rng(seed)
        ))?;
        Ok(array(py, v))
    })
}

/// The permutation test from every permuted value, in index order.
#[pyfunction]
pub fn permutation_from_replicates(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    alternative_name: &str,
    values: &Bound<'_, PyAny>,
) -> PyResult<TestTuple> {
    guard(|| {
        let s = statistic.build()?;
        let plan = permutations(count, alternative_name, s.threads(None))?;
        let values = Scores::extract(values, "values")?.to_f64_vec();
        let t = on_xy!(py, x, y, s, |stat, a, b| plan
            .test_from_replicates(stat, a, b, &values))?;
        Ok(test_tuple(&t))
    })
}

/// A bootstrap interval of `statistic` on x and y.
#[pyfunction]
#[pyo3(signature = (x, y, statistic, count, level, method, seed, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn bootstrap_ci(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    level: f64,
    method: &str,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<IntervalTuple> {
    guard(|| {
        let s = statistic.build()?;
        let plan = bootstrap(count, level, method, s.threads(threads))?;
        let c = on_xy!(py, x, y, s, |stat, a, b| plan.run_seeded(stat, a, b, seed))?;
        Ok(interval_tuple(&c))
    })
}

/// The statistic of the resamples `start..stop` of that bootstrap (NaN:
/// undefined on that resample).
#[pyfunction]
#[pyo3(signature = (x, y, statistic, count, level, method, seed, start, stop, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn bootstrap_replicates<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    statistic: StatSpec<'py>,
    count: usize,
    level: f64,
    method: &str,
    seed: u64,
    start: usize,
    stop: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let s = statistic.build()?;
        let plan = bootstrap(count, level, method, s.threads(threads))?;
        let v = on_xy!(py, x, y, s, |stat, a, b| plan.replicates(
            stat,
            a,
            b,
            start..stop,
            &mut rng(seed)
        ))?;
        Ok(array(py, v))
    })
}

/// The bootstrap interval from every resample's value, in index order.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn bootstrap_from_replicates(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    level: f64,
    method: &str,
    seed: u64,
    values: &Bound<'_, PyAny>,
) -> PyResult<IntervalTuple> {
    guard(|| {
        let s = statistic.build()?;
        let plan = bootstrap(count, level, method, s.threads(None))?;
        let values = Scores::extract(values, "values")?.to_f64_vec();
        let c = on_xy!(py, x, y, s, |stat, a, b| plan.run_from_replicates(
            stat,
            a,
            b,
            &values,
            &mut rng(seed)
        ))?;
        Ok(interval_tuple(&c))
    })
}

/// Model A against model B on the same human scores: (value_a, value_b,
/// difference, interval, test).
#[pyfunction]
#[pyo3(signature = (human, model_a, model_b, statistic, count, level, alternative_name, exchange, seed, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn paired_comparison(
    py: Python<'_>,
    human: &Bound<'_, PyAny>,
    model_a: &Bound<'_, PyAny>,
    model_b: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    level: f64,
    alternative_name: &str,
    exchange: &str,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(f64, f64, f64, IntervalTuple, TestTuple)> {
    guard(|| {
        let s = statistic.build()?;
        let threads = s.threads(threads);
        let exchange = choice(
            "exchange",
            exchange,
            &[("ranks", Exchange::Ranks), ("scores", Exchange::Scores)],
        )?;
        let boot = bootstrap(count, level, "BCa", threads)?;
        let perm = permutations(count, alternative_name, threads)?.exchange(exchange);
        let scores = read_all(&[human, model_a, model_b], &["human", "model_a", "model_b"])?;
        let scores64: Vec<Vec<f64>> = scores.iter().map(Scores::to_f64_vec).collect();
        let (h, a, b) = (&scores64[0][..], &scores64[1][..], &scores64[2][..]);
        // As the library's `paired_comparison` composes them, with the
        // settings given: the bootstrap draws first from the generator,
        // then the permutation test.
        let run =
            || -> Result<(f64, f64, ConfidenceInterval, PermutationTest), UncertaintyError> {
                let mut r = rng(seed);
                let interval = boot.paired(&*s.statistic, h, a, b, &mut r)?;
                let test = perm.paired(&*s.statistic, h, a, b, &mut r)?;
                Ok((
                    s.statistic.value(h, a)?,
                    s.statistic.value(h, b)?,
                    interval,
                    test,
                ))
            };
        let result = if s.python() { run() } else { py.detach(run) };
        let (value_a, value_b, interval, test) = s.check(result.or_value_error())?;
        Ok((
            value_a,
            value_b,
            interval.estimate,
            interval_tuple(&interval),
            test_tuple(&test),
        ))
    })
}

/// A null moment as (value, standard_error, permutations or None when exact).
type EstimateTuple = (f64, f64, Option<usize>);

fn estimate_tuple(e: &Estimate) -> EstimateTuple {
    let permutations = match e.source {
        Source::Exact => None,
        Source::MonteCarlo { permutations } => Some(permutations),
    };
    (e.value, e.standard_error, permutations)
}

/// The null mean and SD of `statistic` under permutations of y, exact
/// where a closed form exists, and the standardised value z:
/// (value, mean, sd, z), each moment as (value, standard_error,
/// permutations or None when exact).
#[pyfunction]
#[pyo3(signature = (x, y, statistic, count, seed, threads=None))]
pub fn standardise(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    statistic: StatSpec<'_>,
    count: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(f64, EstimateTuple, EstimateTuple, f64)> {
    guard(|| {
        let s = statistic.build()?;
        let plan = Permutations::new(count).threads(s.threads(threads));
        let r = on_xy!(py, x, y, s, |stat, a, b| plan
            .standardise_seeded(stat, a, b, seed))?;
        Ok((
            r.value,
            estimate_tuple(&r.null.mean),
            estimate_tuple(&r.null.sd),
            r.z,
        ))
    })
}
