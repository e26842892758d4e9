//! Lexical-substitution scoring (SemEval-2007, Jabbari et al. 2010, GAP)
//! and the Avraham–Goldberg triplet score, from files.

use std::fs::File;
use std::io::BufReader;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors};
use adaptive_comp_metrics::lexsub::{
    Corpus, Format as LexFormat, Measure, Mode, Penalty, Profile, Totals, read_gold, read_system,
    score_pl,
};
use adaptive_comp_metrics::triplet::{Comparison, Tally, TiePolicy, read_dataset, score};
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{OrValueError, Place, guard, input_error, library_error_in, value_error};
use crate::named::named;

fn open(path: &Path) -> PyResult<BufReader<File>> {
    File::open(path)
        .map(|f| BufReader::with_capacity(1 << 16, f))
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}

fn in_file(path: &Path, e: impl Into<adaptive_comp_metrics::Error>) -> PyErr {
    let shown = path.display().to_string();
    library_error_in(e, &shown, Some(&shown))
}

/// (credit, attempted, items, precision, recall).
type TotalsTuple = (f64, usize, usize, Option<f64>, Option<f64>);

fn totals(t: &Totals) -> TotalsTuple {
    (t.credit, t.attempted, t.items, t.precision(), t.recall())
}

named! {
    /// A system file's format by its name: `best` or `oot`.
    fn lex_format("format") -> LexFormat { "best" => LexFormat::Best, "oot" => LexFormat::Oot }

    /// The scorer's profile: SemEval-2007's `score.pl` or the strict one.
    fn profile("profile") -> Profile {
        "semeval2007" => Profile::Semeval2007, "strict" => Profile::Strict,
    }
}

/// The measures' names, in `Measure::all`'s order.
const NAMES: [&str; 12] = [
    "best",
    "mode_best",
    "oot",
    "mode_oot",
    "new_best",
    "best1",
    "recall",
    "precision",
    "rank",
    "gap",
    "precision_at",
    "recall_at",
];

/// Scores a SemEval-2007 system file against a gold file: every measure's
/// totals by name, and what was dropped, unmatched or skipped.
#[pyfunction]
#[pyo3(signature = (gold, system, format, profile, lenient, penalty, cutoff))]
#[allow(clippy::too_many_arguments)]
pub fn lexsub_score<'py>(
    py: Python<'py>,
    gold: PathBuf,
    system: PathBuf,
    format: &str,
    profile: &str,
    lenient: bool,
    penalty: f64,
    cutoff: usize,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let format = lex_format(format)?;
        let profile = self::profile(profile)?;
        let mode = if lenient { Mode::Lenient } else { Mode::Strict };
        let k = Penalty::new(penalty).or_value_error()?;
        let cutoff = NonZeroUsize::new(cutoff)
            .ok_or_else(|| PyValueError::new_err("cutoff must be at least 1"))?;
        let g = read_gold(open(&gold)?, mode).map_err(|e| in_file(&gold, e))?;
        let s = read_system(open(&system)?, format, mode).map_err(|e| in_file(&system, e))?;
        if g.items.is_empty() {
            let shown = gold.display().to_string();
            return Err(input_error(
                format!("{shown}: no gold items"),
                Place {
                    path: Some(shown),
                    ..Place::default()
                },
            ));
        }
        let corpus = Corpus::new(&g.items, &s.items, profile).or_value_error()?;
        let out = PyDict::new(py);
        let measures = PyDict::new(py);
        for (name, m) in NAMES.iter().zip(Measure::all(k, cutoff)) {
            measures.set_item(*name, totals(&corpus.totals(m)))?;
        }
        out.set_item("measures", measures)?;
        out.set_item("dropped", corpus.dropped().to_vec())?;
        out.set_item("unmatched", corpus.unmatched().to_vec())?;
        let skipped = |path: &Path, errors: &[adaptive_comp_metrics::lexsub::LexsubError]| {
            errors
                .iter()
                .map(|e| format!("{}: {e}", path.display()))
                .collect::<Vec<_>>()
        };
        let mut all = skipped(&gold, &g.skipped);
        all.extend(skipped(&system, &s.skipped));
        out.set_item("skipped", all)?;
        Ok(out)
    })
}

/// What the official `score.pl` computes, quirks included: (scores, mode,
/// error lines, order-dependent items).
#[pyfunction]
pub fn lexsub_score_pl(
    gold: PathBuf,
    system: PathBuf,
    format: &str,
) -> PyResult<(TotalsTuple, TotalsTuple, Vec<usize>, Vec<String>)> {
    guard(|| {
        let format = lex_format(format)?;
        let s = score_pl::score(open(&gold)?, open(&system)?, format).or_value_error()?;
        Ok((
            totals(&s.scores),
            totals(&s.mode),
            s.error_lines,
            s.order_dependent,
        ))
    })
}

/// (score, credit, weight, scored, unknown, ties, skipped_ties).
type TallyTuple = (Option<f64>, f64, f64, usize, usize, usize, usize);

fn tally(t: &Tally) -> TallyTuple {
    (
        t.score(),
        t.credit,
        t.weight,
        t.scored,
        t.unknown,
        t.ties,
        t.skipped_ties,
    )
}

/// A triplet dataset read by the library.
#[pyclass(module = "adaptive_comp_metrics._core", frozen)]
pub struct TripletDataset {
    comparisons: Vec<Comparison>,
}

#[pymethods]
impl TripletDataset {
    /// Reads the published format (a target line, `word,R,word,R` lines,
    /// blank lines between targets).
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        guard(|| {
            let comparisons = read_dataset(open(&path)?).map_err(|e| in_file(&path, e))?;
            Ok(Self { comparisons })
        })
    }

    /// Every word of the comparisons.
    fn words(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .comparisons
            .iter()
            .flat_map(|c| [c.target.clone(), c.w1.clone(), c.w2.clone()])
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    }

    /// The number of binary comparisons.
    fn __len__(&self) -> usize {
        self.comparisons.len()
    }
}

named! {
    /// What a triplet whose two candidates are equally similar counts.
    fn ties("ties") -> TiePolicy {
        "half_credit" => TiePolicy::HalfCredit, "choose_second" => TiePolicy::ChooseSecond,
        "skip" => TiePolicy::Skip,
    }
}

type ScoreTuple = (TallyTuple, TallyTuple, TallyTuple, TallyTuple);

fn score_of<F: num_traits::Float + Into<f64>>(
    dataset: &TripletDataset,
    vectors: &Vectors<F>,
    policy: TiePolicy,
) -> PyResult<ScoreTuple> {
    let s = score(&dataset.comparisons, vectors, policy).or_value_error()?;
    Ok((
        tally(&s.overall),
        tally(&s.positive),
        tally(&s.distractor),
        tally(&s.random),
    ))
}

/// The triplet score of a vectors file (only the dataset's words read).
#[pyfunction]
pub fn triplet_score_file(
    py: Python<'_>,
    dataset: &TripletDataset,
    path: PathBuf,
    ties_name: &str,
) -> PyResult<ScoreTuple> {
    guard(|| {
        let policy = ties(ties_name)?;
        let words = dataset.words();
        let options = ReadOptions::new().keep(words.iter().map(String::as_str));
        let mut head = Vec::new();
        {
            use std::io::Read;
            open(&path)?
                .take(1 << 16)
                .read_to_end(&mut head)
                .map_err(|e| PyOSError::new_err(e.to_string()))?;
        }
        let format = Format::detect(&head);
        let reader = open(&path)?;
        let vectors: Vectors<f32> = py
            .detach(|| read_vectors(reader, format, &options))
            .map_err(|e| in_file(&path, e))?;
        score_of(dataset, &vectors, policy)
    })
}

/// The triplet score of vectors given from Python (`words` and the rows of
/// a float32 or float64 `matrix`).
#[pyfunction]
pub fn triplet_score_vectors(
    dataset: &TripletDataset,
    words: Vec<String>,
    matrix: PyReadonlyArray2<'_, f64>,
    ties_name: &str,
) -> PyResult<ScoreTuple> {
    guard(|| {
        let policy = ties(ties_name)?;
        let (rows, dim) = (matrix.shape()[0], matrix.shape()[1]);
        if rows != words.len() {
            return Err(PyValueError::new_err(format!(
                "{} words but {rows} vectors",
                words.len()
            )));
        }
        let data = matrix.as_slice().map_err(value_error)?;
        let mut vectors = Vectors::<f64>::new(dim).or_value_error()?;
        for (i, w) in words.iter().enumerate() {
            vectors
                .push(w.as_str(), &data[i * dim..(i + 1) * dim])
                .or_value_error()?;
        }
        score_of(dataset, &vectors, policy)
    })
}
