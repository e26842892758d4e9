//! How the relevance results print: metrics by name, `n/a` where a value is
//! undefined, reports as short blocks.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; counts print in full.

use super::judgements::{Class, GradeStats, PairSummary, QuerySummary};
use super::measure::Measure;
use super::metrics::{Mean, MeanMetrics, QueryMetrics, QueryReport, RunReport};
use super::rbo::Rbo;
use super::report::TrecReport;
use crate::present::{Count, Maybe, precision};
use core::fmt;

display_line!(
    /// `RBO_EXT = 0.7300 (RBO_MIN 0.6000, RBO_MAX 0.8500, residual 0.2500)`.
    Rbo,
    |self, d| "RBO_EXT = {:.d$} (RBO_MIN {:.d$}, RBO_MAX {:.d$}, residual {:.d$})",
    self.ext,
    self.min,
    self.max(),
    self.residual
);

display_line!(
    /// `mean 1.6667, SD 1.1547 of 3 grades (min 1, max 3)`.
    GradeStats,
    |self, d| "mean {:.d$}, SD {} of {} (min {}, max {})",
    self.mean,
    Maybe(self.sd, d),
    Count(self.count as u64, "grade"),
    self.min,
    self.max
);

/// `strictly relevant`, `loosely relevant` or `not relevant`.
impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Class::StrictlyRelevant => "strictly relevant",
            Class::LooselyRelevant => "loosely relevant",
            Class::NotRelevant => "not relevant",
        })
    }
}

display_line!(
    /// `query "q1", document "d7": strictly relevant (mean 2.3333, SD 0.5774 of
    /// 3 grades (min 2, max 3))`.
    PairSummary,
    |self, d| "query {:?}, document {:?}: {} ({:.d$})",
    self.query, self.document, self.class, self.stats
);

/// `query "q1": 12 judged documents, 3 strictly relevant, 5 loosely relevant
/// (diverse)`.
impl fmt::Display for QuerySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "query {:?}: {}, {} strictly relevant, {} loosely relevant ({})",
            self.query,
            Count(self.judged as u64, "judged document"),
            self.strictly_relevant,
            self.loosely_relevant,
            if self.diverse {
                "diverse"
            } else {
                "not diverse"
            }
        )
    }
}

display_line!(
    /// `AP 0.5000, P@k 0.2000, R-precision 0.5000, RR 1.0000, nDCG@k 0.6131 (5
    /// documents ranked, 2 relevant)`.
    QueryMetrics,
    |self, d| "AP {}, P@k {:.d$}, R-precision {}, RR {}, nDCG@k {} ({} ranked, {} relevant)",
    Maybe(self.average_precision, d),
    self.precision_at_k,
    Maybe(self.r_precision, d),
    Maybe(self.reciprocal_rank, d),
    Maybe(self.ndcg_at_k, d),
    Count(self.ranked as u64, "document"),
    self.relevant
);

display_line!(
    /// `0.5000 over 12 queries` (`n/a over 0 queries` when no query counts).
    Mean,
    |self, d| "{} over {} quer{}",
    Maybe(self.value, d),
    self.queries,
    if self.queries == 1 { "y" } else { "ies" }
);

/// `MAP 0.5000, P@k 0.2000, R-precision 0.5000, MRR 0.7500, nDCG@k 0.6131
/// (over 12 queries)`; when the metrics average different numbers of
/// queries ([`NoRelevant::Skip`](super::NoRelevant::Skip)), each says how
/// many.
impl fmt::Display for MeanMetrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let all = [
            ("MAP", self.map),
            ("P@k", self.precision_at_k),
            ("R-precision", self.r_precision),
            ("MRR", self.mrr),
            ("nDCG@k", self.ndcg_at_k),
        ];
        let same = all.iter().all(|(_, m)| m.queries == self.map.queries);
        for (i, (name, m)) in all.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            if same {
                write!(f, "{sep}{name} {}", Maybe(m.value, d))?;
            } else {
                write!(f, "{sep}{name} {m:.d$}")?;
            }
        }
        if same {
            let q = self.map.queries;
            write!(f, " (over {q} quer{})", if q == 1 { "y" } else { "ies" })?;
        }
        Ok(())
    }
}

/// `q1: AP 0.5000, … (5 documents ranked, 2 relevant); 1 ranked document
/// unjudged`.
impl fmt::Display for QueryReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(f, "{}: {:.d$}", self.query, self.metrics)?;
        if self.unjudged > 0 {
            write!(
                f,
                "; {} unjudged",
                Count(self.unjudged as u64, "ranked document")
            )?;
        }
        Ok(())
    }
}

/// The means, one line per query, then the queries left out or unranked:
///
/// ```text
/// mean: MAP 0.5000, P@k 0.2000, R-precision 0.5000, MRR 0.7500, nDCG@k 0.6131 (over 2 queries)
/// q1: AP 0.5000, …
/// q2: AP 0.5000, …
/// run queries nobody judged (not scored): q9
/// judged queries the run does not rank (scored as empty rankings): q3
/// ```
impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(f, "mean: {:.d$}", self.mean)?;
        for q in &self.queries {
            write!(f, "\n{q:.d$}")?;
        }
        if !self.unjudged_queries.is_empty() {
            write!(
                f,
                "\nrun queries nobody judged (not scored): {}",
                self.unjudged_queries.join(", ")
            )?;
        }
        if !self.unranked_queries.is_empty() {
            write!(
                f,
                "\njudged queries the run does not rank (scored as empty rankings): {}",
                self.unranked_queries.join(", ")
            )?;
        }
        Ok(())
    }
}

/// The summary lines of `trec_eval` (`measure  all  value`; counts as
/// integers, `n/a` where no query counts), then how many queries were left
/// out. Per-query rows need the query names, which the qrels hold: see
/// [`TrecReport::rows`].
///
/// ```text
/// num_q        all  2
/// map          all  0.5000
/// P_10         all  0.2000
/// num_rel_ret  all  3
/// 1 run query nobody judged (not scored)
/// ```
impl fmt::Display for TrecReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let names: Vec<String> = self.measures.iter().map(ToString::to_string).collect();
        let w = names
            .iter()
            .map(String::len)
            .fold("num_q".len(), usize::max);
        write!(f, "{:<w$}  all  {}", "num_q", self.queries.len())?;
        for (name, m) in names.iter().zip(&self.measures) {
            if *m == Measure::Queries {
                continue; // the first line
            }
            let value = self.summary_of(*m).and_then(|s| s.value);
            match value {
                Some(v) if m.is_count() => write!(f, "\n{name:<w$}  all  {v:.0}")?,
                v => write!(f, "\n{name:<w$}  all  {}", Maybe(v, d))?,
            }
        }
        let plural = |n: usize| if n == 1 { "query" } else { "queries" };
        let (j, r) = (self.unjudged_queries.len(), self.unranked_queries.len());
        if j > 0 {
            write!(f, "\n{j} run {} nobody judged (not scored)", plural(j))?;
        }
        if r > 0 {
            write!(f, "\n{r} judged {} the run does not rank", plural(r))?;
        }
        Ok(())
    }
}
