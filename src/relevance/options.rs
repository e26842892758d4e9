//! The options of [`evaluate_trec`](super::evaluate_trec): the `trec_eval`
//! release to reproduce, the tie order, and [`TrecOptions`].

#[cfg(doc)]
use super::measure::Measure;
use super::metrics::{Gain, Linear, NoRelevant};

/// Which `trec_eval` release to reproduce where releases compute different
/// values.
///
/// | | [`V10`](Self::V10) (default) | [`V9`](Self::V9) |
/// |---|---|---|
/// | releases | `trec_eval` 10.0, the current release | `trec_eval` 9.0.x (9.0.8 is the last) and `pytrec_eval`, which builds on its code |
/// | run scores | compared as C `double`s (`f64`) | stored as C `float`s (`f32`): scores equal as `f32` tie, and the tie goes to the larger document id |
/// | `iprec_at_recall` at recall p | from the c-th relevant document, c = p·R rounded half away from 0 (`lround`) | c = ⌊p·R + 0.9⌋ |
///
/// With scores 0.3 for a relevant document "y" and 0.30000000000000004 for
/// a non-relevant "x", 10.0 ranks x first (AP 0.5) while 9.0.x and
/// `pytrec_eval` see a tie, which "y" wins (AP 1.0). The releases agree on
/// every other value of the measures of [`Measure`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{evaluate_trec, read_trec_qrels, read_trec_run, Ids, Measure, TrecEvalVersion, TrecOptions};
/// let mut ids = Ids::new();
/// let qrels = read_trec_qrels("a 0 x 0\na 0 y 1\n".as_bytes(), &mut ids)?;
/// let run = read_trec_run("a Q0 x 1 0.30000000000000004 r\na Q0 y 2 0.3 r\n".as_bytes(), &mut ids)?;
/// let map = |version| -> Result<Option<f64>, adaptive_comp_metrics::relevance::RelevanceError> {
///     let o = TrecOptions { version, ..TrecOptions::default() };
///     Ok(evaluate_trec(&qrels, &run, &[Measure::AveragePrecision], &o)?.summary[0].value)
/// };
/// assert_eq!(map(TrecEvalVersion::V10)?, Some(0.5));
/// assert_eq!(map(TrecEvalVersion::V9)?, Some(1.0));
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum TrecEvalVersion {
    /// `trec_eval` 10.0, the current release (the default).
    #[default]
    V10,
    /// `trec_eval` 9.0.x and `pytrec_eval`.
    V9,
}

/// How documents with equal scores are ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ties {
    /// `trec_eval`'s order: decreasing score, ties by decreasing document
    /// id as text (byte-wise). Values equal `trec_eval`'s (and
    /// `pytrec_eval`'s), but depend on the document names.
    #[default]
    TrecEval,
    /// The expectation over all orders of each tie group, every order
    /// equally likely (McSherry & Najork 2008), as [`evaluate_query`]
    /// computes it: independent of names and input order.
    ///
    /// [`evaluate_query`]: super::evaluate_query
    Expected,
}

/// Options of [`evaluate_trec`](super::evaluate_trec).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Exponential, NoRelevant, Ties, TrecOptions};
/// use adaptive_comp_metrics::relevance::TrecEvalVersion;
/// let o = TrecOptions { ties: Ties::Expected, ..TrecOptions::default() }.with_gain(Exponential);
/// assert_eq!((o.relevance_level, o.no_relevant, o.complete), (1, NoRelevant::Zero, false));
/// assert_eq!(o.version, TrecEvalVersion::V10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrecOptions<G = Linear> {
    /// Smallest grade that counts as relevant (`trec_eval -l`, default 1;
    /// must be ≥ 0: negative grades are never relevant).
    pub relevance_level: i32,
    /// Tie order (default [`Ties::TrecEval`]).
    pub ties: Ties,
    /// What a mean does with a query whose value is undefined (no relevant
    /// document; ideal DCG 0). Default [`NoRelevant::Zero`], `trec_eval`'s
    /// convention: the query scores 0 and counts.
    pub no_relevant: NoRelevant,
    /// Whether judged queries the run does not rank are scored as empty
    /// rankings (`trec_eval -c`); by default they are left out, as
    /// `trec_eval` and `pytrec_eval` do.
    pub complete: bool,
    /// nDCG gain of a grade g ≥ 0 (default [`Linear`], `trec_eval`'s gain
    /// g); negative grades have gain 0 whatever the mapping.
    pub gain: G,
    /// The `trec_eval` release whose values to reproduce where releases
    /// differ (default [`TrecEvalVersion::V10`], the current release;
    /// [`TrecEvalVersion::V9`] reproduces `pytrec_eval`). Serialised
    /// options without it read as the default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub version: TrecEvalVersion,
}

impl Default for TrecOptions<Linear> {
    fn default() -> Self {
        Self {
            relevance_level: 1,
            ties: Ties::TrecEval,
            no_relevant: NoRelevant::Zero,
            complete: false,
            gain: Linear,
            version: TrecEvalVersion::V10,
        }
    }
}

impl<G> TrecOptions<G> {
    /// The same options with another gain mapping.
    #[must_use]
    pub fn with_gain<H: Gain>(self, gain: H) -> TrecOptions<H> {
        TrecOptions {
            relevance_level: self.relevance_level,
            ties: self.ties,
            no_relevant: self.no_relevant,
            complete: self.complete,
            gain,
            version: self.version,
        }
    }
}
