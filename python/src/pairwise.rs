//! Bradley–Terry models fitted to pairwise comparisons: the library's
//! `pairwise` module (maximum-likelihood or Gaussian-prior fits, Davidson's
//! ties, a noisy model with a reliability per worker), with standard errors
//! from the observed information or a bootstrap over workers, intervals on
//! scores and ranks, P(top k) and whether the top k is settled.
//!
//! The Python side (`adaptive_comp_metrics._pairwise`) turns names into
//! indices; this binding takes the comparisons as index arrays.

use adaptive_comp_metrics::ballot::Vote;
use adaptive_comp_metrics::pairwise::{
    BradleyTerry, Comparisons, Fit, Inference, Method, NoisyBradleyTerry, PairwiseError,
    Uncertainty,
};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{array, guard, value_error};

/// The comparisons: items and workers by name, records by index.
fn comparisons(
    items: Vec<String>,
    workers: Vec<String>,
    shown_in_order: bool,
    first: &[i64],
    second: &[i64],
    vote: &[i64],
    worker: Option<&[i64]>,
) -> Result<Comparisons, PairwiseError> {
    let mut c = Comparisons::with_items(items)?
        .fix_workers(workers)?
        .shown_in_order(shown_in_order);
    for (r, ((&a, &b), &v)) in first.iter().zip(second).zip(vote).enumerate() {
        let vote = match v {
            0 => Vote::First,
            1 => Vote::Second,
            _ => Vote::Tie,
        };
        let w = worker.map(|w| w[r]).filter(|&w| w >= 0);
        // Negative indices cannot come from the Python side; map them past
        // the end so the library reports them as out of range.
        let index = |i: i64| usize::try_from(i).unwrap_or(usize::MAX);
        c.add(index(a), index(b), vote, w.map(index))?;
    }
    Ok(c)
}

/// The fit of `model` (`bt` or `noisy`) and its uncertainty.
#[allow(clippy::too_many_arguments)]
fn fit_and_uncertainty(
    data: &Comparisons,
    noisy: bool,
    prior_sd: Option<f64>,
    tolerance: Option<f64>,
    max_iterations: Option<usize>,
    bootstrap: Option<usize>,
    opts: &Inference,
) -> Result<(Fit, Uncertainty), PairwiseError> {
    // The two models share their setters but no trait: one body for both.
    macro_rules! fit_with {
        ($model:expr) => {{
            let mut m = $model;
            if let Some(sd) = prior_sd {
                m = m.prior_sd(sd)?;
            }
            if let Some(t) = tolerance {
                m = m.tolerance(t)?;
            }
            if let Some(n) = max_iterations {
                m = m.max_iterations(n);
            }
            match bootstrap {
                Some(b) => m.bootstrap(data, b, opts),
                None => {
                    let fit = m.fit(data)?;
                    let u = fit.uncertainty(data, opts)?;
                    Ok((fit, u))
                }
            }
        }};
    }
    if noisy {
        fit_with!(NoisyBradleyTerry::new())
    } else {
        fit_with!(BradleyTerry::new())
    }
}

/// Integer indices as usize values in a NumPy array.
fn indices<'py>(py: Python<'py>, v: &[usize]) -> Bound<'py, PyArray1<i64>> {
    PyArray1::from_iter(py, v.iter().map(|&i| i as i64))
}

/// Fits a Bradley–Terry model (`noisy` false) or the noisy model to the
/// comparisons `first[r]` vs `second[r]` with `vote[r]` (0: first won, 1:
/// second won, 2: tie) by `worker[r]` (-1: none), and returns the fit, its
/// uncertainty and the settled top k as a dict.
#[pyfunction]
#[pyo3(signature = (
    noisy, items, workers, shown_in_order, first, second, vote, worker, prior_sd, tolerance,
    max_iterations, bootstrap, level, top_k, draws, seed, settle
))]
#[allow(clippy::too_many_arguments)]
pub fn pairwise_fit<'py>(
    py: Python<'py>,
    noisy: bool,
    items: Vec<String>,
    workers: Vec<String>,
    shown_in_order: bool,
    first: PyReadonlyArray1<'py, i64>,
    second: PyReadonlyArray1<'py, i64>,
    vote: PyReadonlyArray1<'py, i64>,
    worker: Option<PyReadonlyArray1<'py, i64>>,
    prior_sd: Option<f64>,
    tolerance: Option<f64>,
    max_iterations: Option<usize>,
    bootstrap: Option<usize>,
    level: f64,
    top_k: usize,
    draws: Option<usize>,
    seed: u64,
    settle: f64,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let (a, b, v) = (first.as_slice()?, second.as_slice()?, vote.as_slice()?);
        let w = match &worker {
            Some(w) => Some(w.as_slice()?),
            None => None,
        };
        if a.len() != b.len() || a.len() != v.len() || w.is_some_and(|w| w.len() != a.len()) {
            return Err(value_error(
                "the comparison columns differ in length (winner, loser, tie, worker)",
            ));
        }
        let run = || -> Result<(Comparisons, Fit, Uncertainty), PairwiseError> {
            let data = comparisons(items, workers, shown_in_order, a, b, v, w)?;
            let mut opts = Inference::new()
                .level(level)?
                .top_k(top_k)?
                .settle(settle)?
                .seed(seed);
            if let Some(d) = draws {
                opts = opts.draws(d)?;
            }
            let (fit, u) = fit_and_uncertainty(
                &data,
                noisy,
                prior_sd,
                tolerance,
                max_iterations,
                bootstrap,
                &opts,
            )?;
            Ok((data, fit, u))
        };
        let (data, fit, u) = py.detach(run).map_err(value_error)?;
        let out = PyDict::new(py);
        out.set_item("model", if noisy { "noisy-bt" } else { "bt" })?;
        out.set_item("items", fit.items.clone())?;
        out.set_item("scores", array(py, fit.scores.clone()))?;
        out.set_item("tie", fit.tie)?;
        out.set_item("log_likelihood", fit.log_likelihood)?;
        out.set_item("prior_sd", fit.prior_sd)?;
        out.set_item("iterations", fit.iterations)?;
        out.set_item("gradient", fit.gradient)?;
        out.set_item("comparisons", fit.comparisons)?;
        out.set_item("ties", data.ties())?;
        out.set_item(
            "worker_names",
            fit.workers
                .iter()
                .map(|w| w.name.clone())
                .collect::<Vec<_>>(),
        )?;
        let col = |f: &dyn Fn(&adaptive_comp_metrics::pairwise::WorkerFit) -> f64| {
            array(py, fit.workers.iter().map(f).collect())
        };
        out.set_item("reliability", col(&|w| w.reliability))?;
        out.set_item("bias", col(&|w| w.bias.unwrap_or(f64::NAN)))?;
        out.set_item(
            "careless_ties",
            col(&|w| w.careless_ties.unwrap_or(f64::NAN)),
        )?;
        out.set_item(
            "worker_comparisons",
            indices(
                py,
                &fit.workers
                    .iter()
                    .map(|w| w.comparisons)
                    .collect::<Vec<_>>(),
            ),
        )?;
        let (method, replicates, failed) = match u.method {
            Method::Exact => ("exact", None, None),
            Method::Approximate => ("approximate", None, None),
            Method::Bootstrap { replicates, failed } => {
                ("bootstrap", Some(replicates), Some(failed))
            }
        };
        out.set_item("method", method)?;
        out.set_item("replicates", replicates)?;
        out.set_item("failed", failed)?;
        out.set_item("level", u.level)?;
        out.set_item("standard_errors", array(py, u.standard_errors.clone()))?;
        let flat: Vec<f64> = u.intervals.iter().flatten().copied().collect();
        out.set_item(
            "intervals",
            array(py, flat).reshape([u.intervals.len(), 2])?,
        )?;
        let flat: Vec<usize> = u.rank_intervals.iter().flatten().copied().collect();
        out.set_item(
            "rank_intervals",
            indices(py, &flat).reshape([u.rank_intervals.len(), 2])?,
        )?;
        out.set_item("mean_ranks", array(py, u.mean_ranks.clone()))?;
        out.set_item("top_k", u.top_k)?;
        out.set_item("top_k_probability", array(py, u.top_k_probability.clone()))?;
        out.set_item("draws", u.draws)?;
        let s = &u.settled;
        let settled = PyDict::new(py);
        settled.set_item("k", s.k)?;
        settled.set_item("top", s.top.clone())?;
        settled.set_item("probability", s.probability)?;
        settled.set_item("target", s.target)?;
        settled.set_item("settled", s.settled)?;
        settled.set_item("probability_by_k", array(py, s.probability_by_k.clone()))?;
        settled.set_item("largest_settled", s.largest_settled)?;
        settled.set_item("contested", s.contested.clone())?;
        settled.set_item("information_factor", s.information_factor)?;
        settled.set_item("further_comparisons", s.further_comparisons)?;
        out.set_item("settled", settled)?;
        Ok(out)
    })
}
