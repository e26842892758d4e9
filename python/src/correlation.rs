//! SciPy's coefficients (weighted τ, Kendall's τ-b, Spearman's ρ, Pearson's
//! r) and the top-weighted ρ_w, τ_w with their standardised values.

use adaptive_comp_metrics::correlation::vigna::{Combine, NanPolicy, Rank, WeightedTauOptions};
use adaptive_comp_metrics::{
    Alternative, Coefficient, GammaMoments, MomentEstimate, MomentSource, RhoW, TauW,
    kendall_tau_b, pearson, spearman, weighted_tau,
};
use pyo3::BoundObject;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{DETACH_AT, OrValueError, Scores, choice, guard, read_all};
use crate::named::named;
use crate::on_same;
use crate::weigher::{AnyWeigher, Config};

named! {
    /// The alternative hypothesis by SciPy's name.
    pub fn alternative("alternative") -> Alternative {
        "two-sided" => Alternative::TwoSided, "greater" => Alternative::Greater,
        "less" => Alternative::Less,
    }

    /// The weighted τ's importance rank by name: `symmetric`, `xy`, `yx` or
    /// `index`.
    pub fn rank("rank") -> Rank<'static> {
        "symmetric" => Rank::Symmetric, "xy" => Rank::ByXY, "yx" => Rank::ByYX,
        "index" => Rank::Index,
    }

    /// `rho` or `tau`.
    pub fn coefficient("coefficient") -> Coefficient {
        "rho" => Coefficient::Rho, "tau" => Coefficient::Tau,
    }

    /// How `kendalltau` computes its p-value: 0 `auto`, 1 `asymptotic`, 2
    /// `exact`.
    fn kendall_method("method") -> u8 { "auto" => 0, "asymptotic" => 1, "exact" => 2 }

    /// Where `gamma_null_moments` takes the moments from: 0 `exact`, 1
    /// `table`, 2 `monte_carlo`.
    fn moments_source("source") -> u8 { "exact" => 0, "table" => 1, "monte_carlo" => 2 }
}

/// Vigna's weighted τ (`scipy.stats.weightedtau`).
///
/// `rank`: `"symmetric"` (SciPy's True), `"xy"` (None), `"index"` (False),
/// or a 1-D array (given importance ranks). `weigher`: None (hyperbolic,
/// SciPy's default) or a callable of SciPy's 0-based rank.
#[pyfunction]
#[pyo3(signature = (x, y, rank, weigher, additive, nan_smallest))]
pub fn weightedtau(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    rank: &Bound<'_, PyAny>,
    weigher: &Bound<'_, PyAny>,
    additive: bool,
    nan_smallest: bool,
) -> PyResult<f64> {
    guard(|| {
        let scores = read_all(&[x, y], &["x", "y"])?;
        let given = if let Ok(name) = rank.extract::<String>() {
            Err(self::rank(&name)?)
        } else {
            Ok(Scores::extract(rank, "rank")?.to_f64_vec())
        };
        let w = if weigher.is_none() {
            AnyWeigher::Hyperbolic
        } else {
            AnyWeigher::from_py(weigher, 0.0, 0.0)?
        };
        let opts = WeightedTauOptions::default()
            .combine(combine(additive))
            .nan(if nan_smallest {
                NanPolicy::Smallest
            } else {
                NanPolicy::Error
            })
            .weigher(w);
        let opts = match &given {
            Ok(r) => opts.rank(Rank::Given(r)),
            Err(rank) => opts.rank(*rank),
        };
        let detach = !opts.weigher.is_python() && scores[0].len() >= DETACH_AT;
        let result = on_same!(py, &scores, detach, |v| weighted_tau(v[0], v[1], &opts));
        opts.weigher.check(result.or_value_error())
    })
}

/// The weighted τ's additive (`true`) or multiplicative pair weights.
pub fn combine(additive: bool) -> Combine {
    if additive {
        Combine::Additive
    } else {
        Combine::Multiplicative
    }
}

/// Kendall's τ-b and its p-value: `method` is `auto`, `asymptotic` or
/// `exact` (the exact null distribution, for untied data of at most 33
/// items or with at most one discordant or concordant pair).
#[pyfunction]
pub fn kendalltau(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    method: &str,
    alternative_name: &str,
) -> PyResult<(f64, f64)> {
    guard(|| {
        let alt = alternative(alternative_name)?;
        let method = kendall_method(method)?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let detach = scores[0].len() >= DETACH_AT;
        let k = on_same!(py, &scores, detach, |v| kendall_tau_b(v[0], v[1])).or_value_error()?;
        let p = match method {
            1 => k.p_value_asymptotic(alt),
            2 => {
                let untied = k.ties_x == 0 && k.ties_y == 0 && k.ties_xy == 0;
                if !untied {
                    return Err(pyo3::exceptions::PyValueError::new_err(
                        "method='exact' needs untied data: x or y has ties (use 'asymptotic')",
                    ));
                }
                if k.n > 33 && k.concordant.min(k.discordant) > 1 {
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "method='exact' is computed for at most 33 items here, got {} \
                         (the normal approximation is exact to 1e-4 there: use 'auto')",
                        k.n
                    )));
                }
                k.p_value(alt)
            }
            _ => k.p_value(alt),
        };
        Ok((k.tau, p))
    })
}

/// Spearman's ρ and its p-value.
#[pyfunction]
pub fn spearmanr(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    alternative_name: &str,
) -> PyResult<(f64, f64)> {
    guard(|| {
        let alt = alternative(alternative_name)?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let detach = scores[0].len() >= DETACH_AT;
        let s = on_same!(py, &scores, detach, |v| spearman(v[0], v[1])).or_value_error()?;
        Ok((s.rho, s.p_value(alt)))
    })
}

/// Pearson's r, its p-value, n, and whether x or y is nearly constant
/// (SciPy's `NearConstantInputWarning`; see [`nearly_constant`]).
#[pyfunction]
pub fn pearsonr(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    alternative_name: &str,
) -> PyResult<(f64, f64, usize, bool)> {
    guard(|| {
        let alt = alternative(alternative_name)?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let detach = scores[0].len() >= DETACH_AT;
        let (r, near) = on_same!(py, &scores, detach, |v| pearson(v[0], v[1])
            .map(|r| (r, nearly_constant(v[0]) || nearly_constant(v[1]))))
        .or_value_error()?;
        Ok((r.r, r.p_value(alt), r.n, near))
    })
}

/// Whether `v` is nearly constant as SciPy's `pearsonr` tests it, so that
/// the subtraction of the mean loses most digits:
///
/// ```text
/// ‖v − mean(v)‖₂ < ε^(3/4) · |mean(v)|,   ε the machine epsilon of v's type
/// ```
///
/// One pass (sum, minimum, maximum) decides it unless the spread is tiny:
/// ‖v − mean‖₂ ≥ (max − min)/√2, so a spread above √2 times the bound
/// rules it out; otherwise a second pass sums the squares. O(n).
fn nearly_constant<F: num_traits::Float + Into<f64>>(v: &[F]) -> bool {
    let eps: f64 = F::epsilon().into();
    let threshold = eps.powf(0.75);
    let (mut sum, mut lo, mut hi) = (0.0_f64, f64::INFINITY, f64::NEG_INFINITY);
    for &x in v {
        let x: f64 = x.into();
        sum += x;
        lo = lo.min(x);
        hi = hi.max(x);
    }
    let mean = sum / v.len() as f64;
    let bound = threshold * mean.abs();
    // (The values are finite: the coefficient was computed.)
    if hi <= lo || (hi - lo) >= bound * std::f64::consts::SQRT_2 {
        // Constant (an error elsewhere) or spread out.
        return false;
    }
    let squares: f64 = v
        .iter()
        .map(|&x| {
            let d = x.into() - mean;
            d * d
        })
        .sum();
    squares.sqrt() < bound
}

/// Fisher's confidence interval of Pearson's r of x and y.
#[pyfunction]
pub fn pearsonr_ci(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    level: f64,
    alternative_name: &str,
) -> PyResult<(f64, f64)> {
    guard(|| {
        let alt = alternative(alternative_name)?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let detach = scores[0].len() >= DETACH_AT;
        let r = on_same!(py, &scores, detach, |v| pearson(v[0], v[1])).or_value_error()?;
        let ci = r.confidence_interval(level, alt).or_value_error()?;
        Ok((ci.lower, ci.upper))
    })
}

/// ρ_w as (rho, n, effective_n).
pub fn rho_tuple(r: &RhoW) -> (f64, usize, f64) {
    (r.rho, r.n, r.effective_n)
}

/// τ_w as (tau, n, concordant, discordant, tied_a, tied_b, tied_both, total, effective_n).
pub type TauTuple = (f64, usize, f64, f64, f64, f64, f64, f64, f64);

/// τ_w as a tuple.
pub fn tau_tuple(t: &TauW) -> TauTuple {
    (
        t.tau,
        t.n,
        t.concordant,
        t.discordant,
        t.tied_a,
        t.tied_b,
        t.tied_both,
        t.total,
        t.effective_n,
    )
}

/// ρ_w (`kind = "rho"`) or τ_w (`"tau"`) of x and y with `config`.
#[pyfunction]
pub fn top_weighted<'py>(
    py: Python<'py>,
    kind: &str,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    config: Config<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    guard(|| {
        let coefficient = coefficient(kind)?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let tw = config.build()?;
        let detach = !tw.weighting_function().is_python() && scores[0].len() >= DETACH_AT;
        let out = match coefficient {
            Coefficient::Rho => on_same!(py, &scores, detach, |v| tw.rho(v[0], v[1]))
                .map(|r| rho_tuple(&r).into_pyobject(py).map(|t| t.into_any())),
            _ => on_same!(py, &scores, detach, |v| tw.tau(v[0], v[1]))
                .map(|t| tau_tuple(&t).into_pyobject(py).map(|t| t.into_any())),
        };
        let out = tw.weighting_function().check(out.or_value_error())??;
        Ok(out.cast_into::<PyTuple>()?)
    })
}

fn source_name(s: MomentSource) -> String {
    s.to_string()
}

/// One moment as (value, standard_error, source).
fn estimate(e: &MomentEstimate) -> (f64, f64, String) {
    (e.value, e.standard_error, source_name(e.source))
}

/// Null moments as ((mean…), (variance…), (left_variance…)).
pub type MomentsTuple = ((f64, f64, String), (f64, f64, String), (f64, f64, String));

/// Moments as a tuple.
pub fn moments_tuple(m: &GammaMoments) -> MomentsTuple {
    (
        estimate(&m.mean),
        estimate(&m.variance),
        estimate(&m.left_variance),
    )
}

/// `result` as a Python object, unless the weigher raised: then its exception.
fn finish<'py, T, E>(
    py: Python<'py>,
    w: &AnyWeigher,
    result: Result<T, E>,
) -> PyResult<Bound<'py, PyAny>>
where
    T: IntoPyObject<'py>,
    E: Into<adaptive_comp_metrics::Error>,
{
    let value = w.check(result.or_value_error())?;
    Ok(value
        .into_pyobject(py)
        .map_err(Into::into)?
        .into_any()
        .into_bound())
}

/// A standardised coefficient as (value, raw tuple, moments, ties).
pub type StdTuple<R> = (f64, R, MomentsTuple, bool);

/// A standardised ρ_w as a tuple.
pub fn std_rho(s: &adaptive_comp_metrics::StandardisedRho) -> StdTuple<(f64, usize, f64)> {
    (
        s.value,
        rho_tuple(&s.rho),
        moments_tuple(&s.moments),
        s.ties,
    )
}

/// A standardised τ_w as a tuple.
pub fn std_tau(s: &adaptive_comp_metrics::StandardisedTau) -> StdTuple<TauTuple> {
    (
        s.value,
        tau_tuple(&s.tau),
        moments_tuple(&s.moments),
        s.ties,
    )
}

/// The standardised ρ_w or τ_w of x and y: (value, raw tuple, moments,
/// ties). `null` is `table` (the built-in table) or `monte_carlo` (the
/// permutation null of these data, ties kept, to standard error `se`).
#[pyfunction]
#[pyo3(signature = (kind, x, y, config, null, se, seed))]
#[allow(clippy::too_many_arguments)]
pub fn standardised<'py>(
    py: Python<'py>,
    kind: &str,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    config: Config<'py>,
    null: &str,
    se: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyTuple>> {
    use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
    guard(|| {
        let coefficient = coefficient(kind)?;
        let monte_carlo = choice("null", null, &[("table", false), ("monte_carlo", true)])?;
        let scores = read_all(&[x, y], &["x", "y"])?;
        let tw = config.build()?;
        let python = tw.weighting_function().is_python();
        let detach = !python && (monte_carlo || scores[0].len() >= DETACH_AT);
        let mut mc = GammaMonteCarlo::new().standard_error(se);
        if python {
            mc = mc.threads(Threads::Fixed(std::num::NonZeroUsize::MIN));
        }
        // A Python weigher's exception replaces the error it caused.
        let w = tw.weighting_function();
        let out = match (coefficient, monte_carlo) {
            (Coefficient::Rho, false) => finish(
                py,
                w,
                on_same!(py, &scores, detach, |v| tw.rho_standardised(v[0], v[1]))
                    .map(|s| std_rho(&s)),
            ),
            (Coefficient::Rho, true) => finish(
                py,
                w,
                on_same!(py, &scores, detach, |v| mc
                    .rho_standardised_seeded(&tw, v[0], v[1], seed))
                .map(|s| std_rho(&s)),
            ),
            (_, false) => finish(
                py,
                w,
                on_same!(py, &scores, detach, |v| tw.tau_standardised(v[0], v[1]))
                    .map(|s| std_tau(&s)),
            ),
            (_, true) => finish(
                py,
                w,
                on_same!(py, &scores, detach, |v| mc
                    .tau_standardised_seeded(&tw, v[0], v[1], seed))
                .map(|s| std_tau(&s)),
            ),
        }?;
        Ok(out.cast_into::<PyTuple>()?)
    })
}

/// Null moments (Γ̄, V, V_ℓ) of ρ_w or τ_w for two untied rankings of n
/// items: `source` is `exact` (n ≤ 11), `table` or `monte_carlo`.
#[pyfunction]
pub fn gamma_null_moments(
    py: Python<'_>,
    kind: &str,
    n: usize,
    config: Config<'_>,
    source: &str,
    se: f64,
    seed: u64,
) -> PyResult<MomentsTuple> {
    use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
    guard(|| {
        let coefficient = coefficient(kind)?;
        let source = moments_source(source)?;
        let tw = config.build()?;
        let python = tw.weighting_function().is_python();
        let mut mc = GammaMonteCarlo::new().standard_error(se);
        if python {
            mc = mc.threads(Threads::Fixed(std::num::NonZeroUsize::MIN));
        }
        let run = || -> PyResult<GammaMoments> {
            match source {
                0 => tw.null_exact(coefficient, n).or_value_error(),
                1 => tw.null_table(coefficient, n).or_value_error(),
                _ => mc
                    .moments_seeded(&tw, coefficient, n, seed)
                    .or_value_error(),
            }
        };
        let m = if python || source == 1 {
            run()
        } else {
            py.detach(run)
        };
        let m = tw.weighting_function().check(m)?;
        Ok(moments_tuple(&m))
    })
}

/// The standardising map g of moments given by hand, applied to `gamma`.
#[pyfunction]
pub fn standardise_with(mean: f64, variance: f64, left_variance: f64, gamma: f64) -> PyResult<f64> {
    guard(|| {
        let moments = GammaMoments::given(mean, variance, left_variance).or_value_error()?;
        adaptive_comp_metrics::Standardiser::new(moments)
            .or_value_error()?
            .standardised(gamma)
            .or_value_error()
    })
}
