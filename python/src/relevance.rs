//! pytrec_eval's `RelevanceEvaluator` on the library's TREC layout, and
//! readers of TREC qrels and runs.

use std::fs::File;
use std::io::BufReader;

use adaptive_comp_metrics::relevance::{
    Ids, Measure, MeasureSelection, MeasureSyntax, Qrels, QrelsBuilder, RunBuilder, SelectionNote,
    Ties, TrecEvalVersion, TrecOptions, TrecRun, TrecSyntax, evaluate_trec, read_trec_qrels,
    read_trec_qrels_with, read_trec_run, read_trec_run_with,
};
use pyo3::exceptions::{PyOSError, PyTypeError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyString};

use crate::convert::{OrValueError, guard, library_error_in, value_error};
use crate::dicts;
use crate::named::named;

/// A qrels or run source: a path, or a file object (or any object with
/// `read()`) giving text or bytes.
enum Source {
    Path(String),
    Bytes(Vec<u8>),
}

impl Source {
    fn of(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(p) = obj.extract::<std::path::PathBuf>() {
            return Ok(Self::Path(p.to_string_lossy().into_owned()));
        }
        if obj.hasattr("read")? {
            let data = obj.call_method0("read")?;
            if let Ok(s) = data.cast::<PyString>() {
                return Ok(Self::Bytes(s.to_cow()?.as_bytes().to_vec()));
            }
            return Ok(Self::Bytes(data.extract::<Vec<u8>>()?));
        }
        Err(PyTypeError::new_err(format!(
            "expected a path or a file object, got a {}",
            obj.get_type().name()?
        )))
    }

    /// The name for error messages.
    fn name(&self) -> &str {
        match self {
            Self::Path(p) => p,
            Self::Bytes(_) => "<file>",
        }
    }

    fn read<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(
            &mut dyn std::io::BufRead,
        ) -> Result<T, adaptive_comp_metrics::relevance::RelevanceError>
        + Send,
    ) -> PyResult<T>
    where
        T: Send,
    {
        let name = self.name().to_owned();
        let result = py.detach(|| match self {
            Self::Path(p) => {
                let file = File::open(p).map_err(|e| Err(format!("{p}: {e}")))?;
                f(&mut BufReader::with_capacity(1 << 16, file)).map_err(Ok)
            }
            Self::Bytes(b) => f(&mut &b[..]).map_err(Ok),
        });
        let path = match self {
            Self::Path(p) => Some(p.as_str()),
            Self::Bytes(_) => None,
        };
        result.map_err(|e| match e {
            Ok(e) => library_error_in(e, &name, path),
            Err(io) => PyOSError::new_err(io),
        })
    }
}

/// pytrec_eval's measure sets (`map`, `P`, `P.5,10`, `ndcg_cut_20,4`, the
/// nicknames `official`, `set`, `all_trec`, …) read by the library's
/// [`MeasureSelection`], the reading `acm trec -m` shares; what it left
/// out (measures of a nickname not computed here, but trec_eval 10.0's
/// additions to `all_trec`, which pytrec_eval lacks) becomes a
/// `UserWarning`.
fn measures(py: Python<'_>, names: &[String], ties: Ties) -> PyResult<MeasureSelection> {
    let selection =
        MeasureSelection::parse(names, MeasureSyntax::PytrecEval, ties).or_value_error()?;
    for note in selection.notes() {
        // pytrec_eval's all_trec is trec_eval 9's, which lacks the three
        // measures of 10.0's not computed here (unj, rbp, rbp_resid).
        if matches!(
            note,
            SelectionNote::NotComputed {
                nickname: "all_trec",
                ..
            }
        ) {
            continue;
        }
        let message = std::ffi::CString::new(note.to_string()).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 2)?;
    }
    Ok(selection)
}

/// Whether a measure comes before `relstring` in trec_eval's order (its
/// measure table: `relstring` follows `P`).
fn before_relstring(m: Measure) -> bool {
    matches!(
        m,
        Measure::Queries
            | Measure::Retrieved
            | Measure::Relevant
            | Measure::RelevantRetrieved
            | Measure::AveragePrecision
            | Measure::GeometricMap
            | Measure::RPrecision
            | Measure::Bpref
            | Measure::ReciprocalRank
            | Measure::InterpolatedPrecision(_)
            | Measure::Precision(_)
    )
}

/// `pytrec_eval.supported_measures`: the names of trec_eval's measures
/// (families by their root: `P`, `ndcg_cut`) that the library computes.
#[pyfunction]
pub fn supported_measures() -> Vec<&'static str> {
    MeasureSelection::supported_measures().collect()
}

/// `pytrec_eval.supported_nicknames`: each nickname of trec_eval with the
/// measures of its set that the library computes.
#[pyfunction]
pub fn supported_nicknames() -> Vec<(&'static str, Vec<&'static str>)> {
    MeasureSelection::nicknames()
        .map(|n| {
            let names = MeasureSelection::nickname(n)
                .map(Iterator::collect)
                .unwrap_or_default();
            (n, names)
        })
        .collect()
}

/// A run's score: a float (the common case, read directly) or any number.
fn score(v: &Bound<'_, PyAny>) -> Option<f64> {
    match v.cast::<PyFloat>() {
        Ok(f) => Some(f.value()),
        Err(_) => v.extract().ok(),
    }
}

impl dicts::Builder<i32> for QrelsBuilder<'_> {
    fn reserve(&mut self, entries: usize) {
        QrelsBuilder::reserve(self, entries);
    }

    fn query(&mut self, name: &str, entries: usize) -> Result<u32, String> {
        let query = QrelsBuilder::query(self, name).map_err(|e| e.to_string())?;
        self.reserve_query(query, entries)
            .map_err(|e| e.to_string())?;
        Ok(query)
    }

    fn add(&mut self, query: u32, _: &str, document: &str, grade: i32) -> Result<(), String> {
        self.add_to(query, document, grade)
            .map_err(|e| e.to_string())
    }
}

impl dicts::Builder<f64> for RunBuilder<'_> {
    fn reserve(&mut self, entries: usize) {
        RunBuilder::reserve(self, entries);
    }

    fn query(&mut self, name: &str, _: usize) -> Result<u32, String> {
        // Not sized: a run's query is usually judged, its table already
        // holds the judged documents, and growing it as the unjudged come
        // costs fewer instructions than growing it first (measured).
        RunBuilder::query(self, name).map_err(|e| e.to_string())
    }

    fn add(&mut self, query: u32, name: &str, document: &str, score: f64) -> Result<(), String> {
        self.add_to(query, document, score)
            .map_err(|e| format!("run['{name}']['{document}']: {e}"))
    }
}

/// Qrels and the measures to score runs with (pytrec_eval's
/// `RelevanceEvaluator`), in the library's flat layout.
///
/// The id tables grow with the document ids of the runs scored (a run's
/// unjudged documents are interned once).
#[pyclass(module = "adaptive_comp_metrics._core")]
pub struct TrecEvaluator {
    ids: Ids,
    qrels: Qrels,
    measures: Vec<Measure>,
    keys: Vec<Py<PyString>>,
    runid: bool,
    /// Whether `relstring` was asked for (pytrec_eval's value: 0).
    relstring: bool,
    options: TrecOptions,
}

named! {
    /// trec_eval's tie handling or the expected value over tied orders.
    fn ties("ties") -> Ties { "trec_eval" => Ties::TrecEval, "expected" => Ties::Expected }

    /// Which trec_eval's values: 10.0's, or 9's (pytrec_eval's).
    fn version("trec_eval_version") -> TrecEvalVersion {
        "10" => TrecEvalVersion::V10, "9" => TrecEvalVersion::V9,
    }

    /// The reading syntax of `parse_qrel` and `parse_run`.
    fn syntax("syntax") -> TrecSyntax {
        "lenient" => TrecSyntax::Lenient, "trec_eval" => TrecSyntax::TrecEval,
    }
}

fn options(
    relevance_level: i32,
    ties_name: &str,
    complete: bool,
    trec_eval_version: &str,
) -> PyResult<TrecOptions> {
    Ok(TrecOptions {
        relevance_level,
        ties: ties(ties_name)?,
        complete,
        version: version(trec_eval_version)?,
        ..TrecOptions::default()
    })
}

#[pymethods]
impl TrecEvaluator {
    /// From a `{query: {document: grade}}` dict, or a qrels path or file
    /// object (`qrels_source`).
    #[new]
    #[pyo3(signature = (qrels, measure_names, relevance_level, ties, complete, trec_eval_version))]
    fn new(
        py: Python<'_>,
        qrels: &Bound<'_, PyAny>,
        measure_names: Vec<String>,
        relevance_level: i32,
        ties: &str,
        complete: bool,
        trec_eval_version: &str,
    ) -> PyResult<Self> {
        guard(|| {
            let options = options(relevance_level, ties, complete, trec_eval_version)?;
            let selection = measures(py, &measure_names, options.ties)?;
            let (measures, runid) = (selection.measures().to_vec(), selection.runid());
            let relstring = selection.relstring();
            let mut ids = Ids::new();
            let qrels = if let Ok(dict) = qrels.cast::<PyDict>() {
                let mut b = Qrels::builder(&mut ids);
                dicts::read(
                    dict,
                    "qrels",
                    ["grade", "an integer grade"],
                    |g| g.extract::<i32>().ok(),
                    |_| {},
                    &mut b,
                )?
                .map_err(value_error)?;
                b.finish().or_value_error()?
            } else {
                let source = Source::of(qrels)?;
                source.read(py, |r| read_trec_qrels(r, &mut ids))?
            };
            let keys = measures
                .iter()
                .map(|m| PyString::intern(py, &m.to_string()).unbind())
                .collect();
            Ok(Self {
                ids,
                qrels,
                measures,
                keys,
                runid,
                relstring,
                options,
            })
        })
    }

    /// Scores a run given as `{query: {document: score}}` or as a path or
    /// file object: `{query: {measure: value}}` for the queries both judged
    /// and in the run (trec_eval's convention, and pytrec_eval's), a query
    /// of the dict without documents as an empty ranking (as pytrec_eval
    /// scores it).
    fn evaluate<'py>(
        &mut self,
        py: Python<'py>,
        run: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            // Queries of the dict without documents.
            let mut empty: Vec<String> = Vec::new();
            let run = if let Ok(dict) = run.cast::<PyDict>() {
                let mut b = TrecRun::builder(&mut self.ids);
                dicts::read(
                    dict,
                    "run",
                    ["score", "a number"],
                    score,
                    |q| empty.push(q.to_owned()),
                    &mut b,
                )?
                .map_err(value_error)?;
                b.finish().or_value_error()?
            } else {
                let source = Source::of(run)?;
                let ids = &mut self.ids;
                source.read(py, |r| read_trec_run(r, ids))?
            };
            // The judged queries of the dict without documents, scored as
            // empty rankings: every judged query is, and the others are
            // dropped below.
            let mut unranked = vec![false; self.ids.queries().len()];
            let mut any = false;
            for q in empty.iter().filter_map(|q| self.ids.queries().get(q)) {
                if let Some(u) = unranked.get_mut(q as usize) {
                    *u = true;
                    any = true;
                }
            }
            let options = TrecOptions {
                complete: self.options.complete || any,
                ..self.options
            };
            // No measure: the queries are still those a measure scores.
            let counted = [Measure::Queries];
            let measures = if self.measures.is_empty() {
                &counted[..]
            } else {
                &self.measures[..]
            };
            let qrels = &self.qrels;
            let report = py
                .detach(|| evaluate_trec(qrels, &run, measures, &options))
                .or_value_error()?;
            let out = PyDict::new(py);
            // relstring's place in trec_eval's order: after P.
            let relstring_at = self
                .measures
                .iter()
                .take_while(|&&m| before_relstring(m))
                .count();
            for (q, row) in report.rows() {
                let listed = run.ranking(q).is_some() || unranked.get(q as usize) == Some(&true);
                if !self.options.complete && !listed {
                    continue;
                }
                let name = self.ids.queries().name(q).unwrap_or_default();
                let values = PyDict::new(py);
                if self.runid {
                    values.set_item("runid", 0.0)?;
                }
                for (i, ((key, v), m)) in self.keys.iter().zip(row).zip(&self.measures).enumerate()
                {
                    if self.relstring && i == relstring_at {
                        // pytrec_eval's value of trec_eval's string measure.
                        values.set_item("relstring", 0.0)?;
                    }
                    values.set_item(key.bind(py), v.unwrap_or_else(|| m.value_if_undefined()))?;
                }
                if self.relstring && relstring_at == self.measures.len() {
                    values.set_item("relstring", 0.0)?;
                }
                out.set_item(name, values)?;
            }
            Ok(out)
        })
    }

    /// The measure names, as the result's keys.
    fn measure_names(&self) -> Vec<String> {
        let runid = self.runid.then(|| "runid".to_owned());
        let mut names: Vec<String> = runid
            .into_iter()
            .chain(self.measures.iter().map(ToString::to_string))
            .collect();
        if self.relstring {
            let at = names
                .iter()
                .position(|n| n.parse::<Measure>().is_ok_and(|m| !before_relstring(m)))
                .unwrap_or(names.len());
            names.insert(at, "relstring".to_owned());
        }
        names
    }

    /// The qrels as `{query: {document: grade}}`.
    fn qrels_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| qrels_dict(py, &self.ids, &self.qrels))
    }
}

fn qrels_dict<'py>(py: Python<'py>, ids: &Ids, qrels: &Qrels) -> PyResult<Bound<'py, PyDict>> {
    nested_dict(py, ids, qrels.queries(), |q| qrels.judgements(q))
}

/// `{query: {document: value}}` of `queries` in their order, each query's
/// documents and values as `row` gives them (none: an empty dict).
fn nested_dict<'py, 'a, V>(
    py: Python<'py>,
    ids: &Ids,
    queries: &[u32],
    row: impl Fn(u32) -> Option<(&'a [u32], &'a [V])>,
) -> PyResult<Bound<'py, PyDict>>
where
    V: Copy + IntoPyObject<'py> + 'a,
{
    let out = PyDict::new(py);
    for &q in queries {
        let docs = PyDict::new(py);
        if let Some((ds, vs)) = row(q) {
            for (&d, &v) in ds.iter().zip(vs) {
                docs.set_item(ids.documents().name(d).unwrap_or_default(), v)?;
            }
        }
        out.set_item(ids.queries().name(q).unwrap_or_default(), docs)?;
    }
    Ok(out)
}

/// Reads `source` (a path or file object) with `read` and the reading
/// `syntax`, into the dict `dict` makes of what it read.
fn parse_to_dict<'py, T: Send>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    syntax: &str,
    read: impl FnOnce(
        &mut dyn std::io::BufRead,
        &mut Ids,
        TrecSyntax,
    ) -> Result<T, adaptive_comp_metrics::relevance::RelevanceError>
    + Send,
    dict: impl FnOnce(&Ids, &T) -> PyResult<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let syntax = self::syntax(syntax)?;
        let source = Source::of(source)?;
        let mut ids = Ids::new();
        let read = source.read(py, |r| read(r, &mut ids, syntax))?;
        dict(&ids, &read)
    })
}

/// Reads a TREC qrels file (path or file object) into
/// `{query: {document: grade}}` (pytrec_eval's `parse_qrel`), with the
/// reading `syntax` (`lenient` or `trec_eval`).
#[pyfunction]
#[pyo3(signature = (source, syntax = "lenient"))]
pub fn parse_qrel<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    syntax: &str,
) -> PyResult<Bound<'py, PyDict>> {
    parse_to_dict(
        py,
        source,
        syntax,
        |r, ids, syntax| read_trec_qrels_with(r, ids, syntax),
        |ids, qrels| qrels_dict(py, ids, qrels),
    )
}

/// Reads a TREC run (path or file object) into `{query: {document:
/// score}}` (pytrec_eval's `parse_run`), with the reading `syntax`
/// (`lenient` or `trec_eval`).
#[pyfunction]
#[pyo3(signature = (source, syntax = "lenient"))]
pub fn parse_run<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    syntax: &str,
) -> PyResult<Bound<'py, PyDict>> {
    parse_to_dict(
        py,
        source,
        syntax,
        |r, ids, syntax| read_trec_run_with(r, ids, syntax),
        |ids, run| nested_dict(py, ids, run.queries(), |q| run.ranking(q)),
    )
}
