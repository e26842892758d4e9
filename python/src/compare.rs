//! Which of k systems differ: the library's `uncertainty::compare` (paired
//! tests of per-unit scores or of coefficients, multiple-testing
//! corrections, Friedman's test and Nemenyi's critical difference) and
//! statsmodels' `multipletests`.
//!
//! The Python side (`adaptive_comp_metrics._compare`) reads the inputs
//! (matrices, `RelevanceEvaluator` results, `evaluate_word_pairs` reports)
//! into the tables taken here and wraps the result.

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::Interval;
use adaptive_comp_metrics::uncertainty::compare::{
    Cells, Compare, CompareError, Comparison, Correction, IntervalMethod, Missing, PValueMethod,
    Pairs, ScoreTable, Test, Wilcoxon, WilcoxonMethod, ZeroMethod, adjust, correct_jointly,
    friedman as friedman_test,
};
use numpy::PyReadonlyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{OrValueError, Scores, array, choice, guard, value_error};
use crate::correlation::alternative;
use crate::named::named;
use crate::uncertainty::{StatSpec, threads};

/// [`choice`], its error the package's `InputError` (a `ValueError`).
fn option<T: Copy>(what: &str, given: &str, options: &[(&str, T)]) -> PyResult<T> {
    as_input(choice(what, given, options))
}

named! {
    /// How the Wilcoxon test treats zero differences (SciPy's names).
    fn zero_method("zero_method") -> ZeroMethod {
        "wilcox" => ZeroMethod::Wilcox, "pratt" => ZeroMethod::Pratt, "zsplit" => ZeroMethod::Zsplit,
    }

    /// How the Wilcoxon test computes its p-value (`approx`: statsmodels'
    /// name of `asymptotic`).
    fn wilcoxon_method("wilcoxon_method") -> WilcoxonMethod {
        "auto" => WilcoxonMethod::Auto, "exact" => WilcoxonMethod::Exact,
        "asymptotic" => WilcoxonMethod::Asymptotic, "approx" => WilcoxonMethod::Asymptotic,
        "permutation" => WilcoxonMethod::Permutation,
    }

    /// The intervals of the systems' estimates.
    fn interval_method("interval") -> IntervalMethod {
        "student" => IntervalMethod::Student,
        "percentile" => IntervalMethod::Bootstrap(Interval::Percentile),
        "bca" => IntervalMethod::Bootstrap(Interval::Bca),
    }
}

/// `result`, its `ValueError` raised as the package's `InputError`.
fn as_input<T>(result: PyResult<T>) -> PyResult<T> {
    result.map_err(|e| Python::attach(|py| value_error(e.value(py))))
}

/// A correction by any name `multipletests` accepts, with `maxiter` for
/// the two-stage methods (-1: as many as there are p-values).
fn correction(name: &str, maxiter: i64, m: usize) -> PyResult<Correction> {
    let c = Correction::from_name(name).map_err(|_| {
        value_error(format!(
            "unknown correction method {:?}: expected one of {} (statsmodels' aliases too: \
             b, s, hs, h, sh, ho, fdr_i, fdr_n, ...)",
            name.chars().take(40).collect::<String>(),
            Correction::NAMES
        ))
    })?;
    let iterations = match usize::try_from(maxiter) {
        Ok(n) => n,
        Err(_) if maxiter == -1 => m,
        Err(_) => {
            return Err(value_error(format!(
                "maxiter must be -1 or at least 0, got {maxiter}"
            )));
        }
    };
    Ok(match c {
        Correction::TwoStageBh { .. } => Correction::TwoStageBh {
            max_iterations: iterations,
        },
        Correction::TwoStageBky { .. } => Correction::TwoStageBky {
            max_iterations: iterations,
        },
        other => other,
    })
}

/// What `multipletests` returns: reject, adjusted p-values, Šidák's and
/// Bonferroni's per-test α.
type Tests<'py> = (Vec<bool>, Bound<'py, numpy::PyArray1<f64>>, f64, f64);

/// statsmodels' `multipletests`: (reject, adjusted p-values, Šidák's and
/// Bonferroni's per-test α), in the order of `pvals`.
#[pyfunction]
#[pyo3(signature = (pvals, alpha, method, maxiter))]
pub fn multipletests<'py>(
    py: Python<'py>,
    pvals: &Bound<'py, PyAny>,
    alpha: f64,
    method: &str,
    maxiter: i64,
) -> PyResult<Tests<'py>> {
    guard(|| {
        let p = Scores::extract(pvals, "pvals")?.to_f64_vec();
        let c = correction(method, maxiter, p.len())?;
        let a = adjust(&p, c, alpha).or_value_error()?;
        Ok((
            a.reject,
            array(py, a.p_values),
            a.alpha_sidak,
            a.alpha_bonferroni,
        ))
    })
}

/// The settings of a comparison as the Python side passes them.
#[derive(FromPyObject)]
pub struct Options {
    test: String,
    zero_method: String,
    wilcoxon_method: String,
    continuity: bool,
    correction: String,
    alternative: String,
    alpha: f64,
    level: f64,
    interval: Option<String>,
    resamples: usize,
    baseline: Option<usize>,
    exact_up_to: usize,
    threads: Option<usize>,
    seed: u64,
    /// Whether the p-values of every measure are adjusted together.
    joint: bool,
}

impl Options {
    fn build(&self) -> PyResult<(Compare, Correction)> {
        let wilcoxon = Wilcoxon::new()
            .zero_method(as_input(zero_method(&self.zero_method))?)
            .method(as_input(wilcoxon_method(&self.wilcoxon_method))?)
            .correction(self.continuity);
        let test = option(
            "test",
            &self.test,
            &[
                ("t", Test::PairedT),
                ("ttest", Test::PairedT),
                ("wilcoxon", Test::Wilcoxon(wilcoxon)),
                ("randomisation", Test::Randomisation),
                ("randomization", Test::Randomisation),
                ("permutation", Test::Randomisation),
                ("fisher", Test::Randomisation),
                ("bootstrap", Test::Bootstrap),
            ],
        )?;
        let corr = correction(&self.correction, 1, 0)?;
        let mut c = Compare::new()
            .test(test)
            .correction(corr)
            .alternative(as_input(alternative(&self.alternative))?)
            .alpha(self.alpha)
            .level(self.level)
            .replicates(self.resamples)
            .exact_up_to(self.exact_up_to)
            .threads(threads(self.threads));
        if let Some(i) = &self.interval {
            c = c.interval(as_input(interval_method(i))?);
        }
        if let Some(b) = self.baseline {
            c = c.pairs(Pairs::Baseline(b));
        }
        Ok((c, corr))
    }
}

/// One or several comparisons of the same systems (one per measure or
/// benchmark), their p-values adjusted together or each on its own.
#[pyclass(frozen, module = "adaptive_comp_metrics._core")]
pub struct CompareCore {
    measures: Vec<(String, Comparison)>,
}

/// Adjusts every measure's pairs together when the options say `joint`.
fn finish(
    mut measures: Vec<(String, Comparison)>,
    options: &Options,
    corr: Correction,
) -> Result<CompareCore, CompareError> {
    if options.joint && measures.len() > 1 {
        let mut comparisons: Vec<Comparison> = measures.iter().map(|m| m.1.clone()).collect();
        correct_jointly(&mut comparisons, corr, options.alpha)?;
        for (m, c) in measures.iter_mut().zip(comparisons) {
            m.1 = c;
        }
    }
    Ok(CompareCore { measures })
}

/// The table of a units × systems matrix whose columns are named `names`.
fn table(matrix: &PyReadonlyArray2<'_, f64>, names: &[String]) -> Result<ScoreTable, String> {
    let view = matrix.as_array();
    let (n, k) = view.dim();
    if k != names.len() {
        return Err(format!(
            "the matrix has {k} columns (systems) but {} names were given",
            names.len()
        ));
    }
    let columns: Vec<(&str, Vec<f64>)> = (0..k)
        .map(|j| (names[j].as_str(), (0..n).map(|i| view[[i, j]]).collect()))
        .collect();
    ScoreTable::from_columns(&columns).map_err(|e| e.to_string())
}

/// Compares the systems (columns) of each units × systems matrix, one per
/// measure, with `names` the systems and `unit_names` (if any) the units.
#[pyfunction]
#[pyo3(signature = (measures, names, unit_names, options))]
pub fn compare_matrices(
    py: Python<'_>,
    measures: Vec<(String, PyReadonlyArray2<'_, f64>)>,
    names: Vec<String>,
    unit_names: Option<Vec<String>>,
    options: Options,
) -> PyResult<CompareCore> {
    guard(|| {
        let (compare, corr) = options.build()?;
        let mut tables = Vec::with_capacity(measures.len());
        for (measure, m) in &measures {
            let mut t = table(m, &names).map_err(|e| value_error(format!("{measure}: {e}")))?;
            if let Some(u) = &unit_names {
                t = t
                    .with_unit_names(u.iter().cloned())
                    .map_err(|e| value_error(format!("{measure}: {e}")))?;
            }
            tables.push((measure.clone(), t));
        }
        let run = || -> Result<CompareCore, CompareError> {
            let mut out = Vec::with_capacity(tables.len());
            for (measure, t) in &tables {
                out.push((measure.clone(), compare.units_seeded(t, options.seed)?));
            }
            finish(out, &options, corr)
        };
        py.detach(run).map_err(value_error)
    })
}

/// One measure's scores: per system, (unit, score) pairs.
type Keyed = Vec<(String, Vec<(String, f64)>)>;

/// Compares systems scored per named unit (a `RelevanceEvaluator`'s
/// results), one table per measure; `common` keeps the units every
/// system has (else a unit one system lacks is an error).
#[pyfunction]
#[pyo3(signature = (measures, common, options))]
pub fn compare_keyed(
    py: Python<'_>,
    measures: Vec<(String, Keyed)>,
    common: bool,
    options: Options,
) -> PyResult<CompareCore> {
    guard(|| {
        let (compare, corr) = options.build()?;
        let missing = if common {
            Missing::Common
        } else {
            Missing::Error
        };
        let run = || -> Result<CompareCore, String> {
            let mut out = Vec::with_capacity(measures.len());
            for (measure, systems) in &measures {
                let refs: Vec<(&str, &[(String, f64)])> = systems
                    .iter()
                    .map(|(s, v)| (s.as_str(), v.as_slice()))
                    .collect();
                let t = ScoreTable::from_keyed(&refs, missing)
                    .map_err(|e| format!("{measure}: {e}"))?;
                let c = compare
                    .units_seeded(&t, options.seed)
                    .map_err(|e| format!("{measure}: {e}"))?;
                out.push((measure.clone(), c));
            }
            finish(out, &options, corr).map_err(|e| e.to_string())
        };
        py.detach(run).map_err(value_error)
    })
}

/// Compares k models' coefficients against one human vector on each
/// benchmark: `benchmarks` holds (name, human, [model scores]), and each
/// statistic is compared on each benchmark (measures named `benchmark
/// statistic` when there are several statistics, the statistic's label
/// for a benchmark without a name).
#[pyfunction]
#[pyo3(signature = (benchmarks, names, statistics, options))]
pub fn compare_coefficients(
    py: Python<'_>,
    benchmarks: Vec<(String, Vec<f64>, Vec<Vec<f64>>)>,
    names: Vec<String>,
    statistics: Vec<(String, StatSpec<'_>)>,
    options: Options,
) -> PyResult<CompareCore> {
    guard(|| {
        let (compare, corr) = options.build()?;
        let mut tables = Vec::with_capacity(benchmarks.len());
        for (bench, _, models) in &benchmarks {
            if models.len() != names.len() {
                return Err(value_error(format!(
                    "{bench}: {} score vectors but {} names",
                    models.len(),
                    names.len()
                )));
            }
            let columns: Vec<(&str, &[f64])> = names
                .iter()
                .map(String::as_str)
                .zip(models.iter().map(Vec::as_slice))
                .collect();
            let t = ScoreTable::from_columns(&columns)
                .map_err(|e| value_error(format!("{bench}: {e}")))?;
            tables.push(t);
        }
        let several = statistics.len() > 1;
        let mut out = Vec::with_capacity(tables.len() * statistics.len());
        for (label, spec) in &statistics {
            let s = spec.build()?;
            let compare = compare.threads(s.threads(options.threads));
            let run = || -> Result<Vec<(String, Comparison)>, String> {
                let mut out = Vec::with_capacity(tables.len());
                for ((bench, human, _), t) in benchmarks.iter().zip(&tables) {
                    let measure = if bench.is_empty() {
                        label.clone()
                    } else if several {
                        format!("{bench} {label}")
                    } else {
                        bench.clone()
                    };
                    let c = compare
                        .coefficients_seeded(s.statistic(), human, t, options.seed)
                        .map_err(|e| format!("{measure}: {e}"))?;
                    out.push((measure, c));
                }
                Ok(out)
            };
            let result = if s.python() { run() } else { py.detach(run) };
            out.extend(s.check(result.map_err(value_error))?);
        }
        finish(out, &options, corr).map_err(value_error)
    })
}

/// Friedman's test and Nemenyi's critical difference over the units
/// (rows) of a units × systems matrix, as a dict.
#[pyfunction]
#[pyo3(signature = (matrix, names, alpha, larger_is_better))]
pub fn friedman<'py>(
    py: Python<'py>,
    matrix: PyReadonlyArray2<'py, f64>,
    names: Vec<String>,
    alpha: f64,
    larger_is_better: bool,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let t = table(&matrix, &names).map_err(value_error)?;
        let order = if larger_is_better {
            Order::LargerIsBetter
        } else {
            Order::SmallerIsBetter
        };
        let f = friedman_test(&t, order, alpha).or_value_error()?;
        let d = PyDict::new(py);
        d.set_item("systems", f.systems)?;
        d.set_item("units", f.units)?;
        d.set_item("average_ranks", array(py, f.average_ranks))?;
        d.set_item("order", f.order)?;
        d.set_item("statistic", f.statistic)?;
        d.set_item("df", f.df)?;
        d.set_item("pvalue", f.p_value)?;
        d.set_item("ln_pvalue", f.ln_p_value)?;
        d.set_item("tie_correction", f.tie_correction)?;
        d.set_item("alpha", f.alpha)?;
        d.set_item("q_alpha", f.q_alpha)?;
        d.set_item("critical_difference", f.critical_difference)?;
        d.set_item("groups", f.groups)?;
        Ok(d)
    })
}

/// A p-value method as a dict: its name, then its details.
fn method_dict<'py>(py: Python<'py>, m: &PValueMethod) -> PyResult<Bound<'py, PyDict>> {
    use pyo3::IntoPyObjectExt;
    let (name, details) = match m {
        PValueMethod::StudentT { df } => ("t", vec![("df", df.into_bound_py_any(py)?)]),
        PValueMethod::Wilcoxon {
            method,
            r_plus,
            r_minus,
            z,
        } => {
            let method = match method {
                WilcoxonMethod::Exact => "exact",
                WilcoxonMethod::Asymptotic => "asymptotic",
                WilcoxonMethod::Permutation => "permutation",
                _ => "auto",
            };
            let details = vec![
                ("method", method.into_bound_py_any(py)?),
                ("r_plus", r_plus.into_bound_py_any(py)?),
                ("r_minus", r_minus.into_bound_py_any(py)?),
                ("z", z.into_bound_py_any(py)?),
            ];
            ("wilcoxon", details)
        }
        PValueMethod::Exact { assignments } => {
            let details = vec![("assignments", assignments.into_bound_py_any(py)?)];
            ("exact", details)
        }
        PValueMethod::MonteCarlo {
            replicates,
            standard_error,
        } => {
            let details = vec![
                ("replicates", replicates.into_bound_py_any(py)?),
                ("standard_error", standard_error.into_bound_py_any(py)?),
            ];
            ("monte-carlo", details)
        }
        _ => ("other", Vec::new()),
    };
    let d = PyDict::new(py);
    d.set_item("name", name)?;
    for (key, value) in details {
        d.set_item(key, value)?;
    }
    Ok(d)
}

/// A comparison as plain Python values.
fn comparison_dict<'py>(py: Python<'py>, c: &Comparison) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("statistic", &c.statistic)?;
    d.set_item("units", c.units)?;
    let systems = PyList::empty(py);
    for s in &c.systems {
        let e = PyDict::new(py);
        e.set_item("name", &s.name)?;
        e.set_item("estimate", s.estimate)?;
        e.set_item("low", s.interval.map(|b| b.lower))?;
        e.set_item("high", s.interval.map(|b| b.upper))?;
        systems.append(e)?;
    }
    d.set_item("systems", systems)?;
    let pairs = PyList::empty(py);
    for p in &c.pairs {
        let e = PyDict::new(py);
        e.set_item("a", c.systems[p.a].name.as_str())?;
        e.set_item("b", c.systems[p.b].name.as_str())?;
        e.set_item("difference", p.difference)?;
        e.set_item("low", p.interval.map(|b| b.lower))?;
        e.set_item("high", p.interval.map(|b| b.upper))?;
        e.set_item("cohens_dz", p.effect.and_then(|x| x.cohens_dz))?;
        e.set_item("hedges_gz", p.effect.and_then(|x| x.hedges_gz))?;
        e.set_item("wins", p.record.map(|r| r.wins))?;
        e.set_item("ties", p.record.map(|r| r.ties))?;
        e.set_item("losses", p.record.map(|r| r.losses))?;
        e.set_item("statistic", p.statistic)?;
        e.set_item("pvalue", p.p_value)?;
        e.set_item("method", method_dict(py, &p.method)?)?;
        e.set_item("adjusted_pvalue", p.adjusted_p_value)?;
        e.set_item("reject", p.reject)?;
        pairs.append(e)?;
    }
    d.set_item("pairs", pairs)?;
    let s = &c.settings;
    let settings = PyDict::new(py);
    settings.set_item("test", s.test.name())?;
    settings.set_item("correction", s.correction.name())?;
    settings.set_item("alpha", s.alpha)?;
    settings.set_item("level", s.level)?;
    settings.set_item(
        "interval",
        match s.interval {
            IntervalMethod::Student => "student",
            IntervalMethod::Bootstrap(Interval::Percentile) => "percentile",
            IntervalMethod::Bootstrap(Interval::Bca) => "bca",
            _ => "other",
        },
    )?;
    settings.set_item("replicates", s.replicates)?;
    d.set_item("settings", settings)?;
    Ok(d)
}

#[pymethods]
impl CompareCore {
    /// Every comparison as (measure, dict of plain values).
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyDict>)>> {
        self.measures
            .iter()
            .map(|(m, c)| Ok((m.clone(), comparison_dict(py, c)?)))
            .collect()
    }

    /// A table as `text`, `markdown` or `latex`: `report` (the systems
    /// under every measure, with the marks of those they beat),
    /// `systems` or `pairs` of the measure with index `measure`.
    #[pyo3(signature = (format, table, measure, decimals, intervals))]
    fn render(
        &self,
        format: &str,
        table: &str,
        measure: usize,
        decimals: usize,
        intervals: bool,
    ) -> PyResult<String> {
        let cells = match table {
            "report" => {
                let refs: Vec<(&str, &Comparison)> =
                    self.measures.iter().map(|(m, c)| (m.as_str(), c)).collect();
                Cells::report(&refs, decimals, intervals)
            }
            "systems" | "pairs" => {
                let c = &self
                    .measures
                    .get(measure)
                    .ok_or_else(|| value_error(format!("no measure {measure}")))?
                    .1;
                if table == "systems" {
                    Cells::systems(c, decimals)
                } else {
                    Cells::pairs(c, decimals)
                }
            }
            other => {
                return Err(value_error(format!(
                    "table must be 'report', 'systems' or 'pairs', got {other:?}"
                )));
            }
        };
        match format {
            "text" => Ok(cells.text()),
            "markdown" => Ok(cells.markdown()),
            "latex" => Ok(cells.latex()),
            other => Err(value_error(format!(
                "format must be 'text', 'markdown' or 'latex', got {other:?}"
            ))),
        }
    }
}
