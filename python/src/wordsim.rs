//! gensim's `evaluate_word_pairs` on the library's word-similarity
//! evaluation: benchmarks read by the library, vectors from a file (read by
//! the library, keeping only the benchmark's words) or from Python.

use std::fs::File;
use std::io::{BufReader, Read};

use adaptive_comp_metrics::Alternative;
use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Detection, Evaluator, Layout, PairFormat, Report, Separator, Unknown, WordsimError,
};
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{OrValueError, Place, guard, input_error, value_error};
use crate::correlation::{rho_tuple, std_rho, std_tau, tau_tuple};
use crate::named::named;
use crate::weigher::Config;

/// The layout names `layout=` takes.
const LAYOUTS: &str = "'wordsim353', 'simlex999', 'men', 'rg65', 'mc30', 'mturk', 'rw', \
                       'simverb3500', 'plain'";

/// A word-similarity benchmark read by the library.
#[pyclass(module = "adaptive_comp_metrics._core", frozen)]
pub struct PairsBenchmark {
    benchmark: Benchmark,
    detection: Detection,
}

/// How a benchmark file is read: a format given (a layout, or gensim's
/// delimiter), or detected from the content.
enum How {
    Given(Detection),
    Detect,
}

/// The message of a failed read: what was tried, how it was chosen, and
/// the arguments that choose another.
fn read_error(shown: &str, e: &WordsimError, how: &How, by_layout: bool) -> String {
    match e {
        WordsimError::Format { detection, error } => {
            let hint = match how {
                How::Detect => format!("pass layout= ({LAYOUTS}) to choose another"),
                How::Given(_) if by_layout => format!(
                    "pass another layout= ({LAYOUTS}), or layout=None and delimiter=None to detect it"
                ),
                How::Given(_) => format!(
                    "pass delimiter=None to detect the layout, or layout= ({LAYOUTS}) to choose one"
                ),
            };
            format!("{shown}: {error} (read as {detection}; {hint})")
        }
        WordsimError::Undetected { line, problem } => format!(
            "{shown}: benchmark line {line}: {problem}, so the layout cannot be detected; pass \
             layout= ({LAYOUTS}) to choose one"
        ),
        other => format!("{shown}: {other}"),
    }
}

#[pymethods]
impl PairsBenchmark {
    /// Reads `path`. With `layout` (`simlex999`, `men`, …, `plain`) in
    /// that layout's format; else with `delimiter` (`\t`, `,`, `;`, ` ` for
    /// any whitespace) as gensim reads it, `word1 word2 score` with `#`
    /// comments; else (both None) in the format detected from the content
    /// (the file name breaking ties).
    #[new]
    #[pyo3(signature = (path, delimiter=None, layout=None))]
    fn new(
        py: Python<'_>,
        path: std::path::PathBuf,
        delimiter: Option<&str>,
        layout: Option<&str>,
    ) -> PyResult<Self> {
        guard(|| {
            let named: Option<Option<Layout>> = match layout {
                Some("plain") => Some(None),
                Some(name) => Some(Some(Layout::from_name(name).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "unknown benchmark layout '{name}': expected one of {LAYOUTS}"
                    ))
                })?)),
                None => None,
            };
            let separator = delimiter.map(separator).transpose()?;
            let with_separator = |f: PairFormat| separator.map_or(f, |s| f.separator(s));
            let how = match (named, separator) {
                (Some(l), _) => How::Given(Detection::explicit(
                    with_separator(l.map_or_else(PairFormat::new, PairFormat::layout)),
                    l,
                )),
                (None, Some(_)) => {
                    How::Given(Detection::explicit(with_separator(PairFormat::new()), None))
                }
                (None, None) => How::Detect,
            };
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let shown = path.display().to_string();
            let read = py.detach(|| {
                let file = File::open(&path).map_err(|e| Err(format!("{shown}: {e}")))?;
                let file = BufReader::new(file);
                let read = match &how {
                    How::Given(d) => d.read(name.as_str(), file).map(|b| (b, *d)),
                    How::Detect => Benchmark::read_detected(name.as_str(), file, Some(&name)),
                };
                read.map_err(|e| match e {
                    WordsimError::Io { .. } => Err(format!("{shown}: {e}")),
                    e => {
                        let message = read_error(&shown, &e, &how, named.is_some());
                        Ok((message, Place::of(&e.into(), Some(&shown))))
                    }
                })
            });
            let (benchmark, detection) = read.map_err(|e| match e {
                Ok((message, place)) => input_error(message, place),
                Err(io) => PyOSError::new_err(io),
            })?;
            Ok(Self {
                benchmark,
                detection,
            })
        })
    }

    /// How the file was read: the layout, how it was chosen, the format.
    #[getter]
    fn detection(&self) -> String {
        self.detection.to_string()
    }

    /// The layout the file matches (`'simlex999'`, …), None for a plain file.
    #[getter]
    fn layout(&self) -> Option<&'static str> {
        self.detection.layout.map(Layout::name)
    }

    /// The distinct words of the pairs.
    fn words(&self) -> Vec<String> {
        self.benchmark
            .words()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The number of pairs.
    fn __len__(&self) -> usize {
        self.benchmark.len()
    }

    /// (word1, word2, score, line) of every pair.
    fn pairs(&self) -> Vec<(String, String, f64, usize)> {
        self.benchmark
            .pairs()
            .iter()
            .map(|p| (p.word1.clone(), p.word2.clone(), p.score, p.line))
            .collect()
    }
}

named! {
    /// A benchmark file's column separator.
    fn separator("delimiter") -> Separator {
        "\t" => Separator::Tab, "," => Separator::Comma, ";" => Separator::Semicolon,
        " " => Separator::Whitespace,
    }

    /// What an unknown pair scores: `drop` (left out), `zero`, `mean`.
    fn unknown("unknown") -> Unknown {
        "drop" => Unknown::Drop, "zero" => Unknown::Zero, "mean" => Unknown::Mean,
    }

    /// A vectors file's format by name (`auto`: detected from its start).
    fn vectors_format("format") -> Option<Format> {
        "auto" => None, "word2vec" => Some(Format::Word2VecText),
        "word2vec_binary" => Some(Format::Word2VecBinary), "glove" => Some(Format::Glove),
    }
}

/// Sets `d[name]` to an outcome's value (as `f` gives it) or to the
/// error's message (a str).
fn set_outcome<'py, T, E: std::fmt::Display, V: IntoPyObject<'py>>(
    d: &Bound<'py, PyDict>,
    name: &str,
    r: &Result<T, E>,
    f: impl FnOnce(&T) -> V,
) -> PyResult<()> {
    match r {
        Ok(v) => d.set_item(name, f(v)),
        Err(e) => d.set_item(name, e.to_string()),
    }
}

/// The report as a dict of plain values; an undefined coefficient as its
/// error message (a str).
fn report_dict<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let two = Alternative::TwoSided;
    d.set_item("benchmark", &r.benchmark)?;
    d.set_item("pairs", r.pairs)?;
    d.set_item("found", r.found)?;
    d.set_item("scored", r.scored())?;
    d.set_item("oov_ratio", r.oov_ratio())?;
    d.set_item("imputed", r.imputed)?;
    set_outcome(&d, "pearson", &r.pearson, |p| (p.r, p.p_value(two)))?;
    set_outcome(&d, "spearman", &r.spearman, |p| (p.rho, p.p_value(two)))?;
    set_outcome(&d, "kendall", &r.kendall, |p| (p.tau, p.p_value(two)))?;
    set_outcome(&d, "rho_w", &r.rho_w, rho_tuple)?;
    set_outcome(&d, "tau_w", &r.tau_w, tau_tuple)?;
    set_outcome(&d, "rho_w_standardised", &r.rho_w_standardised, std_rho)?;
    set_outcome(&d, "tau_w_standardised", &r.tau_w_standardised, std_tau)?;
    d.set_item("similarities", r.similarities.clone())?;
    d.set_item("gold", r.gold.clone())?;
    Ok(d)
}

fn evaluator(
    config: &Config<'_>,
    policy: Unknown,
) -> PyResult<Evaluator<crate::weigher::AnyWeigher>> {
    Ok(Evaluator::new()
        .unknown(policy)
        .top_weighted(config.build()?))
}

/// Evaluates the vectors of a file (word2vec text or binary, GloVe;
/// `format` `auto`, `word2vec`, `word2vec_binary`, `glove`) on a
/// benchmark, reading only the first `restrict_vocab` rows and keeping
/// only the benchmark's words; `case_insensitive` folds case on both sides
/// (the first row of each folded word wins, as gensim) to Unicode lower
/// case, where gensim upper-cases (they differ on ß, dotless ı, final ς).
#[pyfunction]
#[pyo3(signature = (benchmark, path, format, restrict_vocab, case_insensitive, policy, config))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate_file<'py>(
    py: Python<'py>,
    benchmark: &PairsBenchmark,
    path: std::path::PathBuf,
    format: &str,
    restrict_vocab: Option<usize>,
    case_insensitive: bool,
    policy: &str,
    config: Config<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let format = vectors_format(format)?;
        let ev = evaluator(&config, unknown(policy)?)?;
        let b = &benchmark.benchmark;
        let mut options = ReadOptions::new()
            .fold_case(case_insensitive)
            .keep(b.words());
        if let Some(limit) = restrict_vocab {
            options = options.limit(limit);
        }
        let shown = path.display().to_string();
        let run = || -> Result<Report, Result<(String, Place), String>> {
            let mut file = File::open(&path).map_err(|e| Err(format!("{shown}: {e}")))?;
            let format = match format {
                Some(f) => f,
                None => {
                    let mut head = vec![0u8; 1 << 16];
                    let n = read_prefix(&mut file, &mut head)
                        .map_err(|e| Err(format!("{shown}: {e}")))?;
                    head.truncate(n);
                    file = File::open(&path).map_err(|e| Err(format!("{shown}: {e}")))?;
                    Format::detect(&head)
                }
            };
            let vectors: Vectors<f32> =
                read_vectors(BufReader::with_capacity(1 << 20, file), format, &options).map_err(
                    |e| {
                        let e = e.into();
                        Ok((format!("{shown}: {e}"), Place::of(&e, Some(&shown))))
                    },
                )?;
            ev.evaluate(&vectors, b)
                .map_err(|e| Ok((e.to_string(), Place::default())))
        };
        // A Python weigher takes the GIL back for each weight.
        let report = py.detach(run).map_err(|e| match e {
            Ok((message, place)) => input_error(message, place),
            Err(io) => PyOSError::new_err(io),
        })?;
        report_dict(py, &report)
    })
}

fn read_prefix(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        let n = file.read(&mut buf[filled..])?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    Ok(filled)
}

/// Evaluates vectors given from Python (`words` and the rows of `matrix`,
/// float32 or float64) on a benchmark.
#[pyfunction]
#[pyo3(signature = (benchmark, words, matrix, case_insensitive, policy, config))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate_vectors<'py>(
    py: Python<'py>,
    benchmark: &PairsBenchmark,
    words: Vec<String>,
    matrix: &Bound<'py, PyAny>,
    case_insensitive: bool,
    policy: &str,
    config: Config<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let ev = evaluator(&config, unknown(policy)?)?;
        let numpy = py.import("numpy")?;
        let matrix = numpy
            .call_method1("asarray", (matrix,))
            .map_err(|e| PyTypeError::new_err(format!("vectors: {}", e.value(py))))?;
        let single = matrix
            .getattr("dtype")?
            .getattr("name")?
            .extract::<String>()?
            == "float32";
        let dtype = if single { "float32" } else { "float64" };
        let matrix = numpy.call_method1("ascontiguousarray", (matrix, dtype))?;
        let b = &benchmark.benchmark;
        let report = if single {
            let vectors = store::<f32>(&words, &matrix, case_insensitive)?;
            py.detach(|| ev.evaluate(&vectors, b))
        } else {
            let vectors = store::<f64>(&words, &matrix, case_insensitive)?;
            py.detach(|| ev.evaluate(&vectors, b))
        }
        .or_value_error()?;
        report_dict(py, &report)
    })
}

fn not_2d() -> PyErr {
    PyValueError::new_err("vectors must form a 2-D array of numbers (one row per word)")
}

/// The library's store of `words` with the rows of `matrix` (a contiguous
/// 2-D array of `F`).
fn store<F: num_traits::Float + Into<f64> + numpy::Element>(
    words: &[String],
    matrix: &Bound<'_, PyAny>,
    case_insensitive: bool,
) -> PyResult<Vectors<F>> {
    let m: PyReadonlyArray2<'_, F> = matrix.extract().map_err(|_| not_2d())?;
    let data = m.as_slice().map_err(value_error)?;
    let (rows, dim) = (m.shape()[0], m.shape()[1]);
    if rows != words.len() {
        return Err(PyValueError::new_err(format!(
            "{} words but {rows} vectors",
            words.len()
        )));
    }
    let mut vectors = if case_insensitive {
        Vectors::<F>::with_case_folding(dim)
    } else {
        Vectors::<F>::new(dim)
    }
    .or_value_error()?;
    for (i, w) in words.iter().enumerate() {
        vectors
            .push(w.as_str(), &data[i * dim..(i + 1) * dim])
            .or_value_error()?;
    }
    Ok(vectors)
}
