//! Weighers by name (with their parameter) or as a Python callable, and the
//! choices of the top-weighted coefficients (scheme, ties, orders).

use std::sync::Mutex;

use adaptive_comp_metrics::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Order, Quadratic, Scheme, Ties, TopWeighted,
    Unweighted, Weigher,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::convert::OrValueError;
use crate::named::named;

/// A Python callable `f(rank) -> weight`, called with the GIL.
///
/// A Python exception (or a result that is not a number) is kept and the
/// weight is NaN, which the library refuses as an invalid weight; the entry
/// point then raises the kept exception instead.
pub struct PyWeigher {
    function: Py<PyAny>,
    /// 0 for SciPy's 0-based ranks (`weightedtau`), 1 for 1-based ranks.
    base: f64,
    error: Mutex<Option<PyErr>>,
}

impl PyWeigher {
    fn weight(&self, rank: f64) -> f64 {
        Python::attach(|py| {
            let r = rank - 1.0 + self.base;
            // Whole ranks are passed as int (SciPy passes ints), average
            // ranks of ties as float.
            let result = if r.fract() == 0.0 && r.abs() < 9e15 {
                self.function.call1(py, (r as i64,))
            } else {
                self.function.call1(py, (r,))
            };
            match result.and_then(|v| v.extract::<f64>(py).map_err(|_| not_a_number(py, &v))) {
                Ok(w) => w,
                Err(e) => {
                    if let Ok(mut slot) = self.error.lock() {
                        slot.get_or_insert(e);
                    }
                    f64::NAN
                }
            }
        })
    }

    /// The first exception the callable raised, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }
}

fn not_a_number(py: Python<'_>, v: &Py<PyAny>) -> PyErr {
    let type_name = v
        .bind(py)
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    PyTypeError::new_err(format!(
        "the weigher returned a {type_name}, expected a number"
    ))
}

/// Any weigher the binding offers.
pub enum AnyWeigher {
    /// `1/(n + n0)²` (Lombardo et al. 2020).
    OffsetQuadratic(OffsetQuadratic),
    /// `1/n`.
    Hyperbolic,
    /// `1/n²`.
    Quadratic,
    /// `1/ln(n − 1 + e)`.
    Logarithmic,
    /// `1`.
    Unweighted,
    /// A Python callable.
    Python(PyWeigher),
}

impl Weigher for AnyWeigher {
    fn weight(&self, rank: f64) -> f64 {
        match self {
            Self::OffsetQuadratic(w) => w.weight(rank),
            Self::Hyperbolic => Hyperbolic.weight(rank),
            Self::Quadratic => Quadratic.weight(rank),
            Self::Logarithmic => Logarithmic.weight(rank),
            Self::Unweighted => Unweighted.weight(rank),
            Self::Python(w) => w.weight(rank),
        }
    }
}

impl AnyWeigher {
    /// A weigher from a name (`offset_quadratic` with `n0`, `hyperbolic`,
    /// `quadratic`, `logarithmic`, `unweighted`) or a callable; a callable
    /// gets 1-based ranks (`base = 1`) or SciPy's 0-based ones (`base = 0`).
    pub fn from_py(weigher: &Bound<'_, PyAny>, n0: f64, base: f64) -> PyResult<Self> {
        if let Ok(name) = weigher.extract::<String>() {
            return Ok(match name.as_str() {
                "offset_quadratic" => {
                    Self::OffsetQuadratic(OffsetQuadratic::new(n0).or_value_error()?)
                }
                "hyperbolic" => Self::Hyperbolic,
                "quadratic" => Self::Quadratic,
                "logarithmic" => Self::Logarithmic,
                "unweighted" => Self::Unweighted,
                other => {
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "weigher must be 'offset_quadratic', 'hyperbolic', 'quadratic', \
                         'logarithmic', 'unweighted' or a callable, got '{other}'"
                    )));
                }
            });
        }
        if weigher.is_callable() {
            return Ok(Self::Python(PyWeigher {
                function: weigher.clone().unbind(),
                base,
                error: Mutex::new(None),
            }));
        }
        Err(PyTypeError::new_err(format!(
            "weigher must be a name or a callable, got a {}",
            weigher.get_type().name()?
        )))
    }

    /// Whether the weigher calls Python (then the GIL stays held and one
    /// thread computes).
    pub fn is_python(&self) -> bool {
        matches!(self, Self::Python(_))
    }

    /// The exception a Python weigher raised, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        match self {
            Self::Python(w) => w.take_error(),
            _ => None,
        }
    }

    /// `result`, unless the Python weigher raised: then its exception.
    pub fn check<T>(&self, result: PyResult<T>) -> PyResult<T> {
        match self.take_error() {
            Some(e) => Err(e),
            None => result,
        }
    }
}

named! {
    /// The weighting scheme by name.
    pub fn scheme("scheme") -> Scheme {
        "additive" => Scheme::Additive, "multiplicative" => Scheme::Multiplicative,
        "first" => Scheme::First, "second" => Scheme::Second,
    }

    /// The tie method by name (`scipy.stats.rankdata`'s names).
    pub fn ties("ties") -> Ties {
        "average" => Ties::Average, "min" => Ties::Min, "max" => Ties::Max,
        "dense" => Ties::Dense, "ordinal" => Ties::Ordinal,
    }

    /// Which end of a score scale is the top.
    pub fn order("order") -> Order {
        "larger" => Order::LargerIsBetter, "smaller" => Order::SmallerIsBetter,
    }
}

/// The configuration of ρ_w and τ_w, as the Python side passes it.
#[derive(FromPyObject)]
pub struct Config<'py> {
    /// A weigher name or a callable of the 1-based rank.
    pub weigher: Bound<'py, PyAny>,
    /// The offset n0 of `offset_quadratic`.
    pub n0: f64,
    /// `additive`, `multiplicative`, `first`, `second`.
    pub scheme: String,
    /// `average`, `min`, `max`, `dense`, `ordinal`.
    pub ties: String,
    /// `larger` or `smaller`, for x.
    pub order_x: String,
    /// `larger` or `smaller`, for y.
    pub order_y: String,
}

impl Config<'_> {
    /// The library's configuration.
    pub fn build(&self) -> PyResult<TopWeighted<AnyWeigher>> {
        Ok(TopWeighted::new()
            .weigher(AnyWeigher::from_py(&self.weigher, self.n0, 1.0)?)
            .scheme(scheme(&self.scheme)?)
            .ties(ties(&self.ties)?)
            .orders(order(&self.order_x)?, order(&self.order_y)?))
    }
}
