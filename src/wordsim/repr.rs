//! The serialised forms of the word-similarity types (feature `serde`) and
//! the checks that read them back.
//!
//! A [`Report`] is written with its benchmark scores (`gold`) and the
//! model's similarities; the scored vectors `human` and `model` are rebuilt
//! from them and the unknown-word policy. Each coefficient is written as
//! serde writes a `Result`: `{"Ok": …}`, or `{"Err": "message"}` when it is
//! undefined. Reading a report back recomputes Pearson's r, Spearman's ρ and
//! Kendall's τ-b from the scored pairs; the stored values must agree with
//! them. ρ_w and τ_w depend on a weighting the report does not record: a
//! stored value is kept (its `n` must be the number of scored pairs), and
//! an undefined one is read back when the scored pairs themselves show why
//! (too few pairs, a constant side: the paper's configuration gives the
//! same message). A failed bootstrap interval is read back when it failed
//! for the same kind of reason (too few pairs for a bootstrap, or its
//! coefficient undefined on the scored pairs). Anything else is refused
//! with [`WordsimError::InvalidParameter`] naming the field.

use serde::{Deserialize, Serialize, Serializer};

use crate::correlation::error::CorrelationError;
use crate::correlation::kendall::{KendallResult, kendall_tau_b};
use crate::correlation::pearson::{PearsonResult, pearson};
use crate::correlation::spearman::{SpearmanResult, spearman};
use crate::correlation::standardised::{
    Coefficient, StandardisedError, StandardisedRho, StandardisedTau,
};
use crate::correlation::weighted::{RhoW, TauW, TopWeighted};
use crate::weigh::{Scheme, Unweighted};

use super::compare::Comparison;
#[cfg(feature = "uncertainty")]
use super::compare::PairedTest;
use super::error::WordsimError;
#[cfg(feature = "uncertainty")]
use super::evaluate::Intervals;
use super::evaluate::{Report, Unknown};
use super::pairs::{Benchmark, Header, Layout, PairFormat, Separator, WordPair};

fn invalid(name: &'static str, expected: &'static str) -> WordsimError {
    WordsimError::InvalidParameter { name, expected }
}

/// Writes a `Result` as serde writes one, `{"Ok": value}` or
/// `{"Err": message}`, with the error's message (the error types are not
/// serialised).
pub(super) fn outcome<T, E, S>(r: &Result<T, E>, s: S) -> Result<S::Ok, S::Error>
where
    T: Serialize,
    E: core::fmt::Display,
    S: Serializer,
{
    match r {
        Ok(v) => s.serialize_newtype_variant("Result", 0, "Ok", v),
        Err(e) => s.serialize_newtype_variant("Result", 1, "Err", &e.to_string()),
    }
}

/// A `Result` as read: the value, or the message of its error.
#[derive(Deserialize)]
pub(super) enum Outcome<T> {
    Ok(T),
    Err(String),
}

/// Reads back an outcome whose error must be one of `candidates`: the
/// stored message must be the candidate's.
fn with_error<T, E: core::fmt::Display>(
    stored: Outcome<T>,
    candidates: impl IntoIterator<Item = E>,
    name: &'static str,
) -> Result<Result<T, E>, WordsimError> {
    let message = match stored {
        Outcome::Ok(v) => return Ok(Ok(v)),
        Outcome::Err(message) => message,
    };
    candidates
        .into_iter()
        .find(|e| e.to_string() == message)
        .map(Err)
        .ok_or_else(|| {
            invalid(
                name,
                "an error the scored pairs show (too few pairs, a constant side, a weighting \
                 outside the built-in table); other failures cannot be read back",
            )
        })
}

/// The errors a standardised coefficient can have on `n` scored pairs
/// whose raw coefficient is `raw`: the raw coefficient's error, or the
/// built-in table's (too few or too many items, a weighting it lacks).
fn standardised_errors(
    raw: Result<usize, &CorrelationError>,
    coefficient: Coefficient,
) -> Vec<StandardisedError> {
    match raw {
        Err(e) => vec![StandardisedError::Correlation(*e)],
        Ok(n) => match TopWeighted::new().null_table(coefficient, n) {
            Err(e) => vec![e],
            Ok(_) => [
                TopWeighted::new()
                    .scheme(Scheme::First)
                    .null_table(coefficient, n),
                TopWeighted::new()
                    .weigher(Unweighted)
                    .null_table(coefficient, n),
            ]
            .into_iter()
            .filter_map(Result::err)
            .collect(),
        },
    }
}

/// Whether some value occurs twice.
fn has_ties(v: &[f64]) -> bool {
    let mut sorted = v.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.windows(2).any(|w| w[0] == w[1])
}

/// Checks a stored coefficient against the one recomputed from the scored
/// pairs: every number within 10⁻⁹ (relative above 1; a text format may
/// read a number back one ulp off, and the statistics of numbers one ulp
/// off differ by a few ulps), the errors by their message. Returns the
/// stored value, or the recomputed error.
fn agrees<T>(
    stored: Outcome<T>,
    computed: Result<T, CorrelationError>,
    numbers: impl Fn(&T) -> Vec<f64>,
    name: &'static str,
) -> Result<Result<T, CorrelationError>, WordsimError> {
    let close = |a: f64, b: f64| a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    match (stored, computed) {
        (Outcome::Ok(s), Ok(c)) => {
            let (a, b) = (numbers(&s), numbers(&c));
            if a.iter().zip(&b).all(|(&a, &b)| close(a, b)) {
                return Ok(Ok(s));
            }
        }
        (Outcome::Err(message), Err(e)) if message == e.to_string() => return Ok(Err(e)),
        _ => {}
    }
    Err(invalid(
        name,
        "a coefficient that agrees with the scored pairs",
    ))
}

/// The unvalidated mirror of [`Report`] that serde reads.
#[derive(Deserialize)]
pub(super) struct ReportRepr {
    benchmark: String,
    pairs: usize,
    found: usize,
    unknown: Unknown,
    imputed: Option<f64>,
    pearson: Outcome<PearsonResult>,
    spearman: Outcome<SpearmanResult>,
    kendall: Outcome<KendallResult>,
    rho_w: Outcome<RhoW>,
    tau_w: Outcome<TauW>,
    rho_w_standardised: Outcome<StandardisedRho>,
    tau_w_standardised: Outcome<StandardisedTau>,
    gold: Vec<f64>,
    similarities: Vec<Option<f64>>,
    #[cfg(feature = "uncertainty")]
    intervals: Option<IntervalsRepr>,
}

impl TryFrom<ReportRepr> for Report {
    type Error = WordsimError;
    fn try_from(r: ReportRepr) -> Result<Self, WordsimError> {
        if r.gold.is_empty() || r.gold.len() != r.pairs || r.similarities.len() != r.pairs {
            return Err(invalid(
                "pairs",
                "at least one pair, with one human score and one similarity (or null) per pair",
            ));
        }
        if r.gold.iter().any(|g| !g.is_finite()) {
            return Err(invalid("gold", "finite human scores"));
        }
        if r.similarities.iter().flatten().any(|s| !s.is_finite()) {
            return Err(invalid("similarities", "finite similarities or null"));
        }
        let known: Vec<f64> = r.similarities.iter().flatten().copied().collect();
        if known.len() != r.found {
            return Err(invalid("found", "the number of known similarities"));
        }
        let imputed = match r.unknown {
            Unknown::Drop => None,
            Unknown::Zero => Some(0.0),
            Unknown::Mean => {
                (r.found > 0).then(|| crate::sum::neumaier(known.iter().copied()) / r.found as f64)
            }
        };
        let close = match (r.imputed, imputed) {
            (None, None) => true,
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            _ => false,
        };
        if !close {
            return Err(invalid(
                "imputed",
                "none when unknown pairs are dropped, 0 for Zero, the mean known similarity for Mean",
            ));
        }
        let (human, model): (Vec<f64>, Vec<f64>) = match imputed {
            None if r.unknown == Unknown::Drop => r
                .gold
                .iter()
                .zip(&r.similarities)
                .filter_map(|(&g, s)| s.map(|s| (g, s)))
                .unzip(),
            fill => (
                r.gold.clone(),
                r.similarities
                    .iter()
                    .map(|s| s.unwrap_or(fill.unwrap_or(0.0)))
                    .collect(),
            ),
        };
        let (h, m) = (&human[..], &model[..]);
        let pearson = agrees(
            r.pearson,
            pearson(h, m),
            |p| vec![p.r, p.n as f64, p.statistic],
            "pearson",
        )?;
        let spearman = agrees(
            r.spearman,
            spearman(h, m),
            |p| vec![p.rho, p.n as f64, p.statistic],
            "spearman",
        )?;
        let kendall = agrees(
            r.kendall,
            kendall_tau_b(h, m),
            |p| {
                let counts = [p.concordant, p.discordant, p.ties_x, p.ties_y, p.ties_xy];
                let mut v = vec![p.tau, p.n as f64, p.z];
                v.extend(counts.map(|c| c as f64));
                v
            },
            "kendall",
        )?;
        let paper = TopWeighted::new();
        let rho_w = with_error(r.rho_w, paper.rho(h, m).err(), "rho_w")?;
        let tau_w = with_error(r.tau_w, paper.tau(h, m).err(), "tau_w")?;
        let rho_w_standardised = with_error(
            r.rho_w_standardised,
            standardised_errors(rho_w.as_ref().map(|w| w.n), Coefficient::Rho),
            "rho_w_standardised",
        )?;
        let tau_w_standardised = with_error(
            r.tau_w_standardised,
            standardised_errors(tau_w.as_ref().map(|w| w.n), Coefficient::Tau),
            "tau_w_standardised",
        )?;
        // A standardised value is the raw one mapped; it cannot have seen
        // ties the scored pairs do not have (ordinal ranks break ties, so
        // the converse is not checked).
        let ties = has_ties(h) || has_ties(m);
        let same_raw = |s: Option<(f64, usize, bool)>, raw: Option<(f64, usize)>| match (s, raw) {
            (None, _) => true,
            (Some((v, n, t)), Some((w, k))) => {
                (v == w || (v - w).abs() <= 1e-9) && n == k && (ties || !t)
            }
            (Some(_), None) => false,
        };
        // (value, n, effective n) of ρ_w and τ_w, and (value, n, ties) of
        // their standardised values.
        let raw = [
            (
                "rho_w",
                rho_w.as_ref().ok().map(|w| (w.rho, w.n, w.effective_n)),
            ),
            (
                "tau_w",
                tau_w.as_ref().ok().map(|w| (w.tau, w.n, w.effective_n)),
            ),
        ];
        let standardised = [
            (
                "rho_w_standardised",
                "the report's ρ_w on the standardised scale, with the ties of the scored pairs",
                rho_w_standardised
                    .as_ref()
                    .ok()
                    .map(|s| (s.rho.rho, s.rho.n, s.ties)),
            ),
            (
                "tau_w_standardised",
                "the report's τ_w on the standardised scale, with the ties of the scored pairs",
                tau_w_standardised
                    .as_ref()
                    .ok()
                    .map(|s| (s.tau.tau, s.tau.n, s.ties)),
            ),
        ];
        for ((name, expected, s), (_, w)) in standardised.into_iter().zip(raw) {
            if !same_raw(s, w.map(|(v, n, _)| (v, n))) {
                return Err(invalid(name, expected));
            }
        }
        let in_range = |v: f64, n: usize, effective: f64| {
            // Kish's effective n lies in [1, n]; 1/Σw² may round a little above n.
            n == h.len()
                && (-1.0..=1.0).contains(&v)
                && effective > 0.0
                && effective <= n as f64 * (1.0 + 1e-9)
        };
        for (name, w) in raw {
            if w.is_some_and(|(v, n, effective)| !in_range(v, n, effective)) {
                return Err(invalid(
                    name,
                    "a coefficient in [-1, 1] over the scored pairs",
                ));
            }
        }
        #[cfg(feature = "uncertainty")]
        let intervals = match r.intervals {
            None => None,
            Some(i) => Some(i.read(
                h.len(),
                [
                    pearson.as_ref().err(),
                    spearman.as_ref().err(),
                    kendall.as_ref().err(),
                    rho_w.as_ref().err(),
                    tau_w.as_ref().err(),
                ],
            )?),
        };
        Ok(Report {
            benchmark: r.benchmark,
            pairs: r.pairs,
            found: r.found,
            unknown: r.unknown,
            imputed,
            pearson,
            spearman,
            kendall,
            rho_w,
            tau_w,
            rho_w_standardised,
            tau_w_standardised,
            human,
            model,
            gold: r.gold,
            similarities: r.similarities,
            #[cfg(feature = "uncertainty")]
            intervals,
        })
    }
}

#[cfg(feature = "uncertainty")]
type Interval = crate::uncertainty::ConfidenceInterval;

/// The unvalidated mirror of [`Intervals`] that serde reads.
#[cfg(feature = "uncertainty")]
#[derive(Deserialize)]
pub(super) struct IntervalsRepr {
    pearson: Outcome<Interval>,
    spearman: Outcome<Interval>,
    kendall: Outcome<Interval>,
    rho_w: Outcome<Interval>,
    tau_w: Outcome<Interval>,
}

#[cfg(feature = "uncertainty")]
impl IntervalsRepr {
    /// The intervals of a report with `scored` pairs whose coefficients
    /// failed with `errors` (in field order): a failed interval must have
    /// failed as the bootstrap fails on such pairs.
    fn read(
        self,
        scored: usize,
        errors: [Option<&CorrelationError>; 5],
    ) -> Result<Intervals, WordsimError> {
        use crate::uncertainty::UncertaintyError;
        let cause = |e: Option<&CorrelationError>| {
            if scored < 3 {
                Some(UncertaintyError::TooFewItems {
                    needed: 3,
                    got: scored,
                })
            } else {
                e.map(|e| UncertaintyError::Statistic(*e))
            }
        };
        Ok(Intervals {
            pearson: with_error(self.pearson, cause(errors[0]), "intervals.pearson")?,
            spearman: with_error(self.spearman, cause(errors[1]), "intervals.spearman")?,
            kendall: with_error(self.kendall, cause(errors[2]), "intervals.kendall")?,
            rho_w: with_error(self.rho_w, cause(errors[3]), "intervals.rho_w")?,
            tau_w: with_error(self.tau_w, cause(errors[4]), "intervals.tau_w")?,
        })
    }
}

/// On their own, intervals read back only when none failed: a failed one
/// is checked against its report's scored pairs.
#[cfg(feature = "uncertainty")]
impl TryFrom<IntervalsRepr> for Intervals {
    type Error = WordsimError;
    fn try_from(r: IntervalsRepr) -> Result<Self, WordsimError> {
        let ok = |o: Outcome<Interval>| match o {
            Outcome::Ok(v) => Ok(Ok(v)),
            Outcome::Err(_) => Err(invalid(
                "intervals",
                "intervals that all succeeded (a failed one reads back with its report)",
            )),
        };
        Ok(Intervals {
            pearson: ok(r.pearson)?,
            spearman: ok(r.spearman)?,
            kendall: ok(r.kendall)?,
            rho_w: ok(r.rho_w)?,
            tau_w: ok(r.tau_w)?,
        })
    }
}

/// The unvalidated mirror of [`Comparison`] that serde reads.
#[derive(Deserialize)]
pub(super) struct ComparisonRepr {
    models: Vec<String>,
    benchmarks: Vec<String>,
    reports: Vec<Report>,
}

impl TryFrom<ComparisonRepr> for Comparison {
    type Error = WordsimError;
    fn try_from(r: ComparisonRepr) -> Result<Self, WordsimError> {
        let nb = r.benchmarks.len();
        if r.models.len().checked_mul(nb) != Some(r.reports.len())
            || r.reports
                .iter()
                .enumerate()
                .any(|(i, report)| report.benchmark != r.benchmarks[i % nb])
        {
            return Err(invalid(
                "reports",
                "one report per model and benchmark, row by row, each on its benchmark",
            ));
        }
        Ok(Comparison::from_parts(r.models, r.benchmarks, r.reports))
    }
}

/// The unvalidated mirror of [`PairedTest`] that serde reads.
#[cfg(feature = "uncertainty")]
#[derive(Deserialize)]
pub(super) struct PairedTestRepr {
    common: usize,
    comparison: crate::uncertainty::PairedComparison,
}

#[cfg(feature = "uncertainty")]
impl TryFrom<PairedTestRepr> for PairedTest {
    type Error = WordsimError;
    fn try_from(r: PairedTestRepr) -> Result<Self, WordsimError> {
        // paired_comparison refuses fewer than 3 items.
        if r.common < 3 {
            return Err(invalid("common", "at least 3 common pairs"));
        }
        Ok(PairedTest {
            common: r.common,
            comparison: r.comparison,
        })
    }
}

/// The unvalidated mirror of [`PairFormat`] that serde reads.
#[derive(Deserialize)]
pub(super) struct PairFormatRepr {
    separator: Separator,
    header: Header,
    word_columns: [usize; 2],
    score_column: usize,
    strip_pos_suffixes: bool,
    comments: bool,
    #[serde(default)]
    three_column_copies: bool,
}

impl TryFrom<PairFormatRepr> for PairFormat {
    type Error = WordsimError;
    fn try_from(r: PairFormatRepr) -> Result<Self, WordsimError> {
        let [a, b] = r.word_columns;
        let format = PairFormat::new()
            .separator(r.separator)
            .header(r.header)
            .columns(a, b, r.score_column)
            .strip_pos_suffixes(r.strip_pos_suffixes)
            .comments(r.comments)
            .three_column_copies(r.three_column_copies);
        format.check()?;
        Ok(format)
    }
}

/// The unvalidated mirror of [`Benchmark`] that serde reads.
#[derive(Deserialize)]
pub(super) struct BenchmarkRepr {
    name: String,
    pairs: Vec<WordPair>,
}

impl TryFrom<BenchmarkRepr> for Benchmark {
    type Error = WordsimError;
    fn try_from(r: BenchmarkRepr) -> Result<Self, WordsimError> {
        Benchmark::new(r.name, r.pairs)
    }
}

/// A layout is written as its [`name`](Layout::name) and read with
/// [`Layout::from_name`] (`"SimLex-999"` reads as `simlex999`).
impl Serialize for Layout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Layout::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "unknown layout {name:?}: expected one of wordsim353, simlex999, men, rg65, \
                 mc30, mturk, rw, simverb3500"
            ))
        })
    }
}
