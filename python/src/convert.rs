//! Python values in, Rust values out: score arrays, option names, errors and
//! the panic guard shared by every entry point.

use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};

use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Inputs of at least this many items are computed with the GIL released
/// (below, releasing it costs more than it gives).
pub const DETACH_AT: usize = 2048;

/// Runs `f`, turning a Rust panic into a Python `RuntimeError` (PyO3 would
/// raise `PanicException`, a `BaseException` that `except Exception` does
/// not catch). A panic is a bug of the crate: the message says so.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(PyRuntimeError::new_err(format!(
                "internal error in adaptive_comp_metrics (a bug, please report it): {message}"
            )))
        }
    }
}

/// Where an error is: the 1-based line and column of the input it names,
/// and the file (`None` where unknown: arrays, text, file objects).
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// The line, from the library error's `line()`.
    pub line: Option<usize>,
    /// The column, from the library error's `column()`.
    pub column: Option<usize>,
    /// The path of the file read.
    pub path: Option<String>,
}

impl Place {
    /// The place a library error names, in the file `path` (if any).
    pub fn of(e: &adaptive_comp_metrics::Error, path: Option<&str>) -> Self {
        Self {
            line: e.line(),
            column: e.column(),
            path: path.map(str::to_owned),
        }
    }
}

/// The package's typed `ValueError`: `adaptive_comp_metrics.ReadError`
/// when `place` names a line (an error reading a file or text), else
/// `InputError`, with `message` and the attributes `line`, `column` and
/// `path` (polars and tokenizers raise such subclasses too). A failure to
/// build it (which cannot happen but for a broken install) raises that
/// failure instead.
pub fn input_error(message: impl Into<String>, place: Place) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let build = || -> PyResult<PyErr> {
            let class = if place.line.is_some() {
                "ReadError"
            } else {
                "InputError"
            };
            let class = py.import("adaptive_comp_metrics._errors")?.getattr(class)?;
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("line", place.line)?;
            kwargs.set_item("column", place.column)?;
            kwargs.set_item("path", place.path)?;
            Ok(PyErr::from_value(class.call((message,), Some(&kwargs))?))
        };
        build().unwrap_or_else(|e| e)
    })
}

/// A crate error as the package's `InputError` (a `ValueError`) with the
/// crate's message and no place (the error names none, or the caller adds
/// it to the message).
pub fn value_error(e: impl Display) -> PyErr {
    input_error(e.to_string(), Place::default())
}

/// A library error as the package's typed `ValueError` (see
/// [`input_error`]), its line and column from the library's accessors;
/// `path` (if any) is the file read, which the message names first.
pub fn library_error(e: impl Into<adaptive_comp_metrics::Error>, path: Option<&str>) -> PyErr {
    let e = e.into();
    let message = match path {
        Some(p) => format!("{p}: {e}"),
        None => e.to_string(),
    };
    input_error(message, Place::of(&e, path))
}

/// [`library_error`] for an input shown as `shown` in the message (a path,
/// or `<file>` for a file object) and read from the file `path`, if any.
pub fn library_error_in(
    e: impl Into<adaptive_comp_metrics::Error>,
    shown: &str,
    path: Option<&str>,
) -> PyErr {
    let e = e.into();
    input_error(format!("{shown}: {e}"), Place::of(&e, path))
}

/// Shorthand: map a library `Result` to a Python one.
pub trait OrValueError<T> {
    /// The error as the package's typed `ValueError` ([`library_error`]).
    fn or_value_error(self) -> PyResult<T>;
}

impl<T, E: Into<adaptive_comp_metrics::Error>> OrValueError<T> for Result<T, E> {
    fn or_value_error(self) -> PyResult<T> {
        self.map_err(|e| library_error(e, None))
    }
}

/// One input vector of scores: a float64 or float32 NumPy array read in
/// place (when contiguous), or a copy as float64 (lists, integer arrays,
/// non-contiguous arrays).
pub enum Scores<'py> {
    /// A contiguous float64 array, read in place.
    F64(PyReadonlyArray1<'py, f64>),
    /// A contiguous float32 array, read in place.
    F32(PyReadonlyArray1<'py, f32>),
    /// A float64 copy.
    Owned(Vec<f64>),
}

/// The largest integer every integer up to which is exact in an f64.
const EXACT_INT: f64 = 9_007_199_254_740_992.0;

impl<'py> Scores<'py> {
    /// Reads `obj` as a 1-D vector of scores named `name`.
    ///
    /// Accepted: 1-D NumPy arrays of float64 or float32 (in place when
    /// contiguous, else copied), of integers or booleans (converted to
    /// float64; integers beyond ±2⁵³ are refused, as they would round), and
    /// sequences NumPy converts to such arrays. Refused: other dtypes
    /// (float16, complex, strings, objects) with `TypeError`; arrays that
    /// are not 1-D with `ValueError`.
    pub fn extract(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        // The common case first, with one type check: a contiguous 1-D
        // float64 (or float32) array, read in place.
        if let Ok(a) = obj.cast::<PyArray1<f64>>()
            && a.is_contiguous()
            && let Ok(r) = a.try_readonly()
        {
            return Ok(Self::F64(r));
        }
        if let Ok(a) = obj.cast::<PyArray1<f32>>()
            && a.is_contiguous()
            && let Ok(r) = a.try_readonly()
        {
            return Ok(Self::F32(r));
        }
        let py = obj.py();
        let array = if let Ok(a) = obj.cast::<PyUntypedArray>() {
            a.clone()
        } else {
            if obj.is_instance_of::<pyo3::types::PyString>()
                || obj.is_instance_of::<pyo3::types::PyBytes>()
            {
                return Err(PyTypeError::new_err(format!(
                    "{name} must be a 1-D array of numbers, got a string"
                )));
            }
            let numpy = py.import("numpy")?;
            let converted = numpy.call_method1("asarray", (obj,)).map_err(|e| {
                PyTypeError::new_err(format!(
                    "{name} must be a 1-D array of numbers: {}",
                    e.value(py)
                ))
            })?;
            converted.cast_into::<PyUntypedArray>()?
        };
        let dtype = array.dtype();
        let (kind, size) = (dtype.kind(), dtype.itemsize());
        if !matches!((kind, size), (b'f', 8 | 4) | (b'i' | b'u' | b'b', _)) {
            return Err(PyTypeError::new_err(format!(
                "{name} has dtype {}: expected float64 or float32 (or integers)",
                dtype.str()?
            )));
        }
        if array.ndim() != 1 {
            return Err(PyValueError::new_err(format!(
                "{name} must be 1-D, got an array with {} dimensions",
                array.ndim()
            )));
        }
        match (kind, size) {
            (b'f', 8) => {
                let a = array.cast::<PyArray1<f64>>()?;
                if a.is_contiguous() {
                    Ok(Self::F64(a.try_readonly().map_err(value_error)?))
                } else {
                    Ok(Self::Owned(a.to_vec().unwrap_or_else(|_| {
                        a.readonly().as_array().iter().copied().collect()
                    })))
                }
            }
            (b'f', 4) => {
                let a = array.cast::<PyArray1<f32>>()?;
                if a.is_contiguous() {
                    Ok(Self::F32(a.try_readonly().map_err(value_error)?))
                } else {
                    Ok(Self::Owned(
                        a.readonly()
                            .as_array()
                            .iter()
                            .map(|&v| f64::from(v))
                            .collect(),
                    ))
                }
            }
            (b'i' | b'u' | b'b', _) => {
                let as_f64 = array.call_method1("astype", ("float64",))?;
                let a = as_f64.cast::<PyArray1<f64>>()?;
                let values = a.to_vec().map_err(value_error)?;
                if size == 8
                    && let Some(index) = values.iter().position(|v| v.abs() > EXACT_INT)
                {
                    return Err(PyValueError::new_err(format!(
                        "{name}[{index}] is an integer beyond 2**53, which a float64 cannot hold exactly"
                    )));
                }
                Ok(Self::Owned(values))
            }
            _ => Err(PyTypeError::new_err(format!(
                "{name} has dtype {}: expected float64 or float32 (or integers)",
                dtype.str()?
            ))),
        }
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        match self {
            Self::F64(a) => a.len(),
            Self::F32(a) => a.len(),
            Self::Owned(v) => v.len(),
        }
    }

    /// The values as float64, in place when they are float64.
    pub fn f64_slice(&self) -> Option<&[f64]> {
        match self {
            Self::F64(a) => a.as_slice().ok(),
            Self::Owned(v) => Some(v),
            Self::F32(_) => None,
        }
    }

    /// The values as float32, when they are float32.
    pub fn f32_slice(&self) -> Option<&[f32]> {
        match self {
            Self::F32(a) => a.as_slice().ok(),
            _ => None,
        }
    }

    /// The values as a float64 vector (a copy).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        match (self.f64_slice(), self.f32_slice()) {
            (Some(s), _) => s.to_vec(),
            (None, Some(s)) => s.iter().map(|&v| f64::from(v)).collect(),
            (None, None) => Vec::new(),
        }
    }

    /// A float64 version (converted from float32 if needed).
    pub fn into_f64(self) -> Self {
        match self {
            Self::F32(_) => Self::Owned(self.to_f64_vec()),
            other => other,
        }
    }
}

/// Two or three score vectors of one float type, for the generic calls of
/// the library.
pub enum Same<'a> {
    /// Every input float64.
    F64(Vec<&'a [f64]>),
    /// Every input float32.
    F32(Vec<&'a [f32]>),
}

/// The inputs as one float type: float32 only if every input is float32.
pub fn same<'a>(inputs: &'a [Scores<'_>]) -> PyResult<Same<'a>> {
    let all32: Option<Vec<&[f32]>> = inputs.iter().map(Scores::f32_slice).collect();
    if let Some(v) = all32 {
        return Ok(Same::F32(v));
    }
    let all64: Option<Vec<&[f64]>> = inputs.iter().map(Scores::f64_slice).collect();
    all64
        .map(Same::F64)
        .ok_or_else(|| PyRuntimeError::new_err("mixed float32 and float64 inputs not converted"))
}

/// Reads inputs named `names`, converting to float64 unless all are float32.
pub fn read_all<'py>(objs: &[&Bound<'py, PyAny>], names: &[&str]) -> PyResult<Vec<Scores<'py>>> {
    let mut scores: Vec<Scores<'py>> = objs
        .iter()
        .zip(names)
        .map(|(o, n)| Scores::extract(o, n))
        .collect::<PyResult<_>>()?;
    if !scores.iter().all(|s| matches!(s, Scores::F32(_))) {
        scores = scores.into_iter().map(Scores::into_f64).collect();
    }
    Ok(scores)
}

/// Calls `$f` on the inputs as slices of one float type, with the GIL
/// released when `$detach` holds.
#[macro_export]
macro_rules! on_same {
    ($py:expr, $scores:expr, $detach:expr, |$v:ident| $body:expr) => {{
        match $crate::convert::same($scores)? {
            $crate::convert::Same::F64($v) => {
                if $detach {
                    $py.detach(|| $body)
                } else {
                    $body
                }
            }
            $crate::convert::Same::F32($v) => {
                if $detach {
                    $py.detach(|| $body)
                } else {
                    $body
                }
            }
        }
    }};
}

/// One of a fixed set of option names, or a `ValueError` listing them.
pub fn choice<T: Copy>(what: &str, given: &str, options: &[(&str, T)]) -> PyResult<T> {
    options
        .iter()
        .find(|(name, _)| *name == given)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<String> = options.iter().map(|(n, _)| format!("'{n}'")).collect();
            PyValueError::new_err(format!(
                "{what} must be one of {}, got '{given}'",
                names.join(", ")
            ))
        })
}

/// A float64 NumPy array holding `values` (moved, not copied).
pub fn array<'py>(py: Python<'py>, values: Vec<f64>) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, values)
}

/// Panics inside the guard: lets the tests check that a Rust panic reaches
/// Python as `RuntimeError` (not PyO3's `PanicException`).
#[pyfunction]
pub fn _panic_for_tests() -> PyResult<()> {
    guard(|| panic!("a deliberate panic (test hook)"))
}
