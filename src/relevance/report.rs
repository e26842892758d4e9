//! What [`evaluate_trec`](super::evaluate_trec) gives: per-query values and
//! their means ([`TrecReport`]), and the summary `trec_eval` prints.

#[cfg(feature = "serde")]
use super::error::{RelevanceError, Result};
use super::flat::Qrels;
use super::intern::Ids;
use super::measure::Measure;
use super::metrics::{Mean, NoRelevant};
use super::options::{TrecEvalVersion, TrecOptions};
use crate::sum::Neumaier;

serde_mirror! {
    /// Per-query values and their means; see [`evaluate_trec`](super::evaluate_trec).
    #[derive(Debug, Clone, PartialEq)]
    pub struct TrecReport {
        /// The measures, in the order asked for.
        pub measures: Vec<Measure>,
        /// The scored query ids, in the qrels' order.
        pub queries: Vec<u32>,
        /// Row-major: `values[row * measures.len() + m]`; `None` where the value
        /// is undefined (no relevant document; ideal DCG 0), which `trec_eval`
        /// prints as 0.
        pub(super) values: Vec<Option<f64>>,
        /// Per measure: the mean over the scored queries under
        /// [`TrecOptions::no_relevant`], and for the counts (`num_ret`,
        /// `num_rel`, `num_rel_ret`) the sum, as `trec_eval` prints them.
        pub summary: Vec<Mean>,
        /// Query ids of the run that nobody judged (not scored).
        pub unjudged_queries: Vec<u32>,
        /// Judged query ids the run does not rank: left out, or scored as empty
        /// rankings with [`TrecOptions::complete`].
        pub unranked_queries: Vec<u32>,
    }
    read through "TrecReportRepr"
}

/// The unvalidated mirror of [`TrecReport`] that serde reads: one value per
/// query and measure, one summary per measure.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct TrecReportRepr {
    measures: Vec<Measure>,
    queries: Vec<u32>,
    pub(super) values: Vec<Option<f64>>,
    summary: Vec<Mean>,
    unjudged_queries: Vec<u32>,
    unranked_queries: Vec<u32>,
}

#[cfg(feature = "serde")]
impl TryFrom<TrecReportRepr> for TrecReport {
    type Error = RelevanceError;
    fn try_from(r: TrecReportRepr) -> Result<Self> {
        let cells = r.queries.len().checked_mul(r.measures.len());
        if cells != Some(r.values.len()) || r.summary.len() != r.measures.len() {
            return Err(RelevanceError::InvalidParameter {
                name: "report",
                expected: "one value per query and measure, and one summary per measure",
            });
        }
        Ok(Self {
            measures: r.measures,
            queries: r.queries,
            values: r.values,
            summary: r.summary,
            unjudged_queries: r.unjudged_queries,
            unranked_queries: r.unranked_queries,
        })
    }
}

impl TrecReport {
    /// The values of row `row` (one per measure).
    #[must_use]
    pub fn row(&self, row: usize) -> Option<&[Option<f64>]> {
        let m = self.measures.len();
        self.values.get(row * m..(row + 1) * m)
    }

    /// Every scored query with its values.
    pub fn rows(&self) -> impl Iterator<Item = (u32, &[Option<f64>])> + '_ {
        let m = self.measures.len().max(1);
        self.queries.iter().copied().zip(self.values.chunks(m))
    }

    /// The summary value of `measure` (mean, or sum for a count), if asked
    /// for.
    #[must_use]
    pub fn summary_of(&self, measure: Measure) -> Option<Mean> {
        let i = self.measures.iter().position(|&m| m == measure)?;
        self.summary.get(i).copied()
    }

    /// The rows in `trec_eval`'s order: by query id as text (byte-wise),
    /// the order in which `trec_eval -q` prints the queries and its summary
    /// adds them up. Row indices, for [`row`](Self::row); `ids` is the
    /// [`Ids`] the files were read with.
    ///
    /// # Complexity
    /// O(q log q) for q scored queries.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{evaluate_trec, read_trec_qrels, read_trec_run, Ids, Measure, TrecOptions};
    /// let mut ids = Ids::new();
    /// let qrels = read_trec_qrels("q2 0 a 1\nq10 0 b 1\n".as_bytes(), &mut ids)?;
    /// let run = read_trec_run("q2 Q0 a 1 1 r\nq10 Q0 b 1 1 r\n".as_bytes(), &mut ids)?;
    /// let report = evaluate_trec(&qrels, &run, &[Measure::AveragePrecision], &TrecOptions::default())?;
    /// let order: Vec<_> = report
    ///     .trec_eval_order(&ids)
    ///     .iter()
    ///     .filter_map(|&row| ids.queries().name(report.queries[row]))
    ///     .collect();
    /// assert_eq!(order, ["q10", "q2"]); // as text, not as numbers
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    #[must_use]
    pub fn trec_eval_order(&self, ids: &Ids) -> Vec<usize> {
        let name = |row: usize| {
            self.queries
                .get(row)
                .and_then(|&q| ids.queries().name(q))
                .unwrap_or("")
                .as_bytes()
        };
        let mut order: Vec<usize> = (0..self.queries.len()).collect();
        order.sort_by(|&x, &y| name(x).cmp(name(y)));
        order
    }

    /// The summary `trec_eval` prints (its `all` lines), with its
    /// arithmetic, one value per measure: the per-query values added in
    /// [`trec_eval_order`](Self::trec_eval_order), an undefined value as
    /// [`Measure::value_if_undefined`] whatever
    /// [`TrecOptions::no_relevant`], divided by the number of queries
    /// (`gm_map`: the exponential of that); the counts summed. Two quirks
    /// of `trec_eval` are kept: with [`TrecOptions::complete`] (`-c`) the
    /// summary `num_rel` counts every grade above 0 in `qrels`, whatever the
    /// relevance level; and `trec_eval` 9 ([`TrecEvalVersion::V9`]) adds the
    /// `gm_map` of the queries `-c` brings in after the others. `None` for
    /// a mean over no query.
    ///
    /// [`summary`](Self::summary) is the crate's: compensated sums in the
    /// qrels' order, under [`TrecOptions::no_relevant`]; the two can differ
    /// in the last bits. `qrels`, `ids` and `options` are those of the
    /// [`evaluate_trec`](super::evaluate_trec) call that gave the report.
    ///
    /// # Complexity
    /// O(q log q + q·m) for q queries and m measures, plus the judgements
    /// of `qrels` when `num_rel` is asked for with `complete`.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{evaluate_trec, read_trec_qrels, read_trec_run, Ids, Measure, TrecOptions};
    /// let mut ids = Ids::new();
    /// let qrels = read_trec_qrels("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n".as_bytes(), &mut ids)?;
    /// let run = read_trec_run("q1 Q0 b 1 0.9 r\nq1 Q0 a 2 0.5 r\nq2 Q0 c 1 1 r\n".as_bytes(), &mut ids)?;
    /// let o = TrecOptions::default();
    /// let measures = [Measure::AveragePrecision, Measure::Retrieved];
    /// let report = evaluate_trec(&qrels, &run, &measures, &o)?;
    /// // map: (1/2 + 1)/2; num_ret: 2 + 1.
    /// assert_eq!(report.trec_eval_summary(&qrels, &ids, &o), [Some(0.75), Some(3.0)]);
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    #[must_use]
    pub fn trec_eval_summary<G>(
        &self,
        qrels: &Qrels,
        ids: &Ids,
        options: &TrecOptions<G>,
    ) -> Vec<Option<f64>> {
        let order = self.trec_eval_order(ids);
        let n = order.len();
        let unranked: Vec<bool> = {
            let mut u = vec![false; ids.queries().len()];
            for &q in &self.unranked_queries {
                if let Some(slot) = u.get_mut(q as usize) {
                    *slot = true;
                }
            }
            u
        };
        let ranked = |row: usize| {
            self.queries
                .get(row)
                .is_none_or(|&q| !unranked.get(q as usize).copied().unwrap_or(false))
        };
        self.measures
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let value = |row: usize| {
                    self.row(row)
                        .and_then(|r| r.get(i).copied().flatten())
                        .unwrap_or_else(|| m.value_if_undefined())
                };
                if m == Measure::Relevant && options.complete {
                    let positive: usize = qrels
                        .queries()
                        .iter()
                        .filter_map(|&q| qrels.judgements(q))
                        .map(|(_, grades)| grades.iter().filter(|&&g| g > 0).count())
                        .sum();
                    return Some(positive as f64);
                }
                let mut sum = 0.0;
                if m.is_geometric() && options.version == TrecEvalVersion::V9 {
                    let mut missing = 0;
                    for &row in &order {
                        if ranked(row) {
                            sum += value(row);
                        } else {
                            missing += 1;
                        }
                    }
                    sum += f64::from(missing) * m.value_if_undefined();
                } else {
                    for &row in &order {
                        sum += value(row);
                    }
                }
                if m.is_count() {
                    Some(sum)
                } else if n == 0 {
                    None
                } else if m.is_geometric() {
                    Some((sum / n as f64).exp())
                } else {
                    Some(sum / n as f64)
                }
            })
            .collect()
    }
}

pub(super) fn summarize(
    measure: Option<&Measure>,
    values: &[Option<f64>],
    i: usize,
    m: usize,
    policy: NoRelevant,
) -> Mean {
    let geometric = measure.is_some_and(|m| m.is_geometric());
    // An undefined gm_map value is that of AP 0: ln of the floor.
    let zero = measure.map_or(0.0, |m| m.value_if_undefined());
    let mut sum = Neumaier::default();
    let mut queries = 0;
    for row in values.chunks(m) {
        let v = match (row.get(i).copied().flatten(), policy) {
            (Some(v), _) => v,
            (None, NoRelevant::Zero) => zero,
            (None, NoRelevant::Skip) => continue,
        };
        sum.add(v);
        queries += 1;
    }
    let count = measure.is_some_and(|m| m.is_count());
    Mean {
        value: (queries > 0 || count).then(|| {
            if count {
                sum.value()
            } else if geometric {
                (sum.value() / queries as f64).exp()
            } else {
                sum.value() / queries as f64
            }
        }),
        queries,
    }
}
