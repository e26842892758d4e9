//! Permutation tests, bootstrap intervals, paired comparisons and null
//! moments of any of the binding's statistics, seeded, and split into
//! shares of replicates that put back together give the single run.

use std::num::NonZeroUsize;

use adaptive_comp_metrics::correlation::vigna::WeightedTauOptions;
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
use pyo3::types::{PyFloat, PyInt};

use crate::convert::{OrValueError, Scores, array, guard, read_all};
use crate::correlation::{alternative, combine, rank};
use crate::named::named;
use crate::on_same;
use crate::weigher::{AnyWeigher, Config, order, scheme, ties};

/// A statistic as the Python side describes it (`adaptive_comp_metrics.Statistic`).
pub struct StatSpec<'py> {
    /// `spearman`, `kendall`, `pearson`, `rho_w`, `tau_w`, `weightedtau`.
    pub kind: String,
    /// The weigher and options of ρ_w, τ_w (the `Statistic`'s fields of
    /// the same names); its weigher is also the weighted τ's (None, a
    /// name, or a callable of SciPy's 0-based rank).
    pub config: Config<'py>,
    /// The weighted τ's importance rank: `symmetric`, `xy`, `yx`, `index`.
    pub rank: String,
    /// The weighted τ's additive (or multiplicative) pair weights.
    pub additive: bool,
}

impl<'a, 'py> FromPyObject<'a, 'py> for StatSpec<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Self {
            kind: obj.getattr("kind")?.extract()?,
            config: obj.extract()?,
            rank: obj.getattr("rank")?.extract()?,
            additive: obj.getattr("additive")?.extract()?,
        })
    }
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

/// The library's `$statistic` (`TopWeightedRho` or `TopWeightedTau`, which
/// share their builder) with the weigher `$w` and the options of `$config`.
macro_rules! top_weighted {
    ($statistic:ident, $w:expr, $config:expr) => {
        Box::new(
            $statistic::new()
                .weigher(Shared($w))
                .scheme(scheme(&$config.scheme)?)
                .ties(ties(&$config.ties)?)
                .orders(order(&$config.order_x)?, order(&$config.order_y)?),
        )
    };
}

impl StatSpec<'_> {
    /// The library's statistic.
    pub fn build(&self) -> PyResult<Built> {
        let weigher = &self.config.weigher;
        let weighted = |base: f64| -> PyResult<std::sync::Arc<AnyWeigher>> {
            Ok(std::sync::Arc::new(if weigher.is_none() {
                AnyWeigher::Hyperbolic
            } else {
                AnyWeigher::from_py(weigher, self.config.n0, base)?
            }))
        };
        let (statistic, weigher): (Box<dyn Statistic>, _) = match self.kind.as_str() {
            "spearman" => (Box::new(Spearman), None),
            "kendall" => (Box::new(KendallTauB), None),
            "pearson" => (
                Box::new(|x: &[f64], y: &[f64]| pearson(x, y).map(|r| r.r)),
                None,
            ),
            "rho_w" => {
                let w = weighted(1.0)?;
                (
                    top_weighted!(TopWeightedRho, w.clone(), self.config),
                    Some(w),
                )
            }
            "tau_w" => {
                let w = weighted(1.0)?;
                (
                    top_weighted!(TopWeightedTau, w.clone(), self.config),
                    Some(w),
                )
            }
            "weightedtau" => {
                let w = weighted(0.0)?;
                let options = WeightedTauOptions::default()
                    .rank(rank(&self.rank)?)
                    .combine(combine(self.additive))
                    .weigher(Shared(w.clone()));
                (Box::new(VignaTau::new(options)), Some(w))
            }
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "statistic must be 'spearman', 'kendall', 'pearson', 'rho_w', 'tau_w' or \
                     'weightedtau', got '{other}'"
                )));
            }
        };
        Ok(Built { statistic, weigher })
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

named! {
    /// A bootstrap interval's method by name.
    fn interval("method") -> Interval { "BCa" => Interval::Bca, "percentile" => Interval::Percentile }

    /// What a paired permutation test swaps between the models.
    fn exchange("exchange") -> Exchange { "ranks" => Exchange::Ranks, "scores" => Exchange::Scores }
}

fn permutations(count: usize, alt: &str, threads: Threads) -> PyResult<Permutations> {
    Ok(Permutations::new(count)
        .alternative(alternative(alt)?)
        .threads(threads))
}

fn bootstrap(count: usize, level: f64, method: &str, threads: Threads) -> PyResult<Bootstrap> {
    Ok(Bootstrap::new(count)
        .level(level)
        .interval(interval(method)?)
        .threads(threads))
}

/// A permutation test or a bootstrap, as its Python plan (`PermutationTest`,
/// `Bootstrap`) describes it: the data, the statistic and the settings that
/// the plan's three entries (the whole run, a share of replicates, the
/// result from every replicate's value) share.
struct Plan<'py> {
    /// The plan, for the fields one entry alone reads.
    object: Bound<'py, PyAny>,
    x: Bound<'py, PyAny>,
    y: Bound<'py, PyAny>,
    s: Built,
    seed: u64,
    resampler: Resampler,
}

/// What a plan draws its replicates with.
enum Resampler {
    /// A `PermutationTest`'s permutations (two-sided until
    /// [`Plan::alternative`] sets the plan's alternative).
    Permutations(Permutations),
    /// A `Bootstrap`'s resamples.
    Bootstrap(Bootstrap),
}

impl<'py> Plan<'py> {
    /// Reads a plan: a `PermutationTest` (`permutations`, `alternative`) or
    /// a `Bootstrap` (`resamples`, `confidence_level`, `method`), the
    /// numbers taken as Python's `int()` and `float()` take them.
    fn read(object: &Bound<'py, PyAny>) -> PyResult<Self> {
        let permutation = object.hasattr("permutations")?;
        let statistic: StatSpec<'py> = object.getattr("_stat")?.extract()?;
        let count_field = if permutation {
            "permutations"
        } else {
            "resamples"
        };
        let count: usize = Self::convert::<PyInt>(object, count_field)?.extract()?;
        let seed = object.getattr("seed")?.extract()?;
        let threads: Option<usize> = object.getattr("threads")?.extract()?;
        let s = statistic.build()?;
        let threads = s.threads(threads);
        let resampler = if permutation {
            Resampler::Permutations(Permutations::new(count).threads(threads))
        } else {
            let level = Self::convert::<PyFloat>(object, "confidence_level")?.extract()?;
            let method: String = object.getattr("method")?.extract()?;
            Resampler::Bootstrap(bootstrap(count, level, &method, threads)?)
        };
        Ok(Self {
            object: object.clone(),
            x: object.getattr("x")?,
            y: object.getattr("y")?,
            s,
            seed,
            resampler,
        })
    }

    /// The plan's field `name` converted by the Python type `P` (as
    /// `int(plan.name)`, `float(plan.name)`).
    fn convert<P: pyo3::PyTypeInfo>(
        object: &Bound<'py, PyAny>,
        name: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let value = object.getattr(name)?;
        object.py().get_type::<P>().call1((value,))
    }

    /// The permutations under the plan's `alternative` (what the test and
    /// its p-value need; the replicates are the same under any).
    fn alternative(mut self) -> PyResult<Self> {
        if let Resampler::Permutations(perm) = self.resampler {
            let name: String = self.object.getattr("alternative")?.extract()?;
            self.resampler = Resampler::Permutations(perm.alternative(alternative(&name)?));
        }
        Ok(self)
    }
}

/// The whole run of a plan: a permutation test as a [`TestTuple`], a
/// bootstrap interval as an [`IntervalTuple`].
#[pyfunction]
pub fn plan_run<'py>(py: Python<'py>, plan: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let p = Plan::read(plan)?.alternative()?;
        let seed = p.seed;
        match &p.resampler {
            Resampler::Permutations(perm) => on_xy!(py, &p.x, &p.y, p.s, |stat, a, b| perm
                .test_seeded(stat, a, b, seed))?
            .into_tuple(py),
            Resampler::Bootstrap(boot) => on_xy!(py, &p.x, &p.y, p.s, |stat, a, b| boot
                .run_seeded(stat, a, b, seed))?
            .into_tuple(py),
        }
    })
}

/// The values of a plan's replicates `start..stop`: the permuted values of
/// a test, the statistic of a bootstrap's resamples (NaN: undefined on that
/// resample).
#[pyfunction]
pub fn plan_replicates<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyAny>,
    start: usize,
    stop: usize,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guard(|| {
        let p = Plan::read(plan)?;
        let v = on_xy!(py, &p.x, &p.y, p.s, |stat, a, b| {
            let (range, rng) = (start..stop, &mut rng(p.seed));
            match &p.resampler {
                Resampler::Permutations(perm) => perm.replicates(stat, a, b, range, rng),
                Resampler::Bootstrap(boot) => boot.replicates(stat, a, b, range, rng),
            }
        })?;
        Ok(array(py, v))
    })
}

/// The result of a plan from every replicate's value, in index order (as
/// [`plan_run`] gives it).
#[pyfunction]
pub fn plan_finish<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyAny>,
    values: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let p = Plan::read(plan)?.alternative()?;
        let values = Scores::extract(values, "values")?.to_f64_vec();
        let rng = &mut rng(p.seed);
        match &p.resampler {
            Resampler::Permutations(perm) => on_xy!(py, &p.x, &p.y, p.s, |stat, a, b| perm
                .test_from_replicates(stat, a, b, &values))?
            .into_tuple(py),
            Resampler::Bootstrap(boot) => on_xy!(py, &p.x, &p.y, p.s, |stat, a, b| boot
                .run_from_replicates(stat, a, b, &values, rng))?
            .into_tuple(py),
        }
    })
}

/// A result as the tuple the Python side unpacks.
trait IntoTuple {
    /// The tuple as a Python object.
    fn into_tuple(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>>;
}

impl IntoTuple for PermutationTest {
    fn into_tuple(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        Ok(test_tuple(&self).into_pyobject(py)?.into_any())
    }
}

impl IntoTuple for ConfidenceInterval {
    fn into_tuple(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        Ok(interval_tuple(&self).into_pyobject(py)?.into_any())
    }
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
        let exchange = self::exchange(exchange)?;
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
