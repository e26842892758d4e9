//! How the triplet results print: scores with the counts behind them,
//! agreement and exclusion with the annotators they name.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; `n/a` marks an undefined value.

use super::build::{Agreement, AnnotatorAgreement, BuiltDataset, Exclusion};
use super::format::ParsedDataset;
use super::score::{Tally, TripletScore};
use crate::present::{Count, Maybe, precision};
use core::fmt;

display_line!(
    /// `score 0.8123 (credit 81.2300 of weight 100.0000; 120 comparisons scored,
    /// 3 of them ties, 5 skipped for unknown words, 0 ties skipped)`.
    Tally,
    |self, d| "score {} (credit {:.d$} of weight {:.d$}; {} comparisons scored, {} of them ties, \
     {} skipped for unknown words, {} ties skipped)",
    Maybe(self.score(), d),
    self.credit,
    self.weight,
    self.scored,
    self.ties,
    self.unknown,
    self.skipped_ties
);

display_line!(
    /// Four lines, `overall: …`, `positive: …`, `distractor: …`, `random: …`,
    /// each as [`Tally`].
    TripletScore,
    |self, d| "overall: {:.d$}\npositive: {:.d$}\ndistractor: {:.d$}\nrandom: {:.d$}",
    self.overall, self.positive, self.distractor, self.random
);

display_line!(
    /// `annotator "a1": agreement 0.6120 with 4 partners`.
    AnnotatorAgreement,
    |self, d| "annotator {:?}: agreement {} with {}",
    self.annotator,
    Maybe(self.agreement, d),
    Count(self.partners as u64, "partner")
);

display_line!(
    /// `agreement 0.5800 over 12 annotator pairs`, then one line per annotator.
    Agreement,
    |self, d, f| "agreement {} over {}",
    Maybe(self.overall, d),
    Count(self.pairs as u64, "annotator pair");
    for a in &self.annotators {
        write!(f, "\n{a:.d$}")?;
    }
    Ok(())
);

/// `threshold 0.4000 (mean agreement 0.5500 − SD 0.1500): dropped "a3"
/// (0.2100), "a7" (0.1000); kept 10 annotators`.
impl fmt::Display for Exclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "threshold {} (mean agreement {} − SD {}): ",
            Maybe(self.threshold, d),
            Maybe(self.mean, d),
            Maybe(self.sd, d)
        )?;
        if self.dropped.is_empty() {
            f.write_str("nobody dropped")?;
        } else {
            f.write_str("dropped ")?;
            for (i, (name, a)) in self.dropped.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{name:?} ({a:.d$})")?;
            }
        }
        write!(f, "; kept {}", Count(self.kept.len() as u64, "annotator"))
    }
}

display_line!(
    /// `1234 comparisons; agreement 0.5800 over 12 annotator pairs before
    /// exclusion, 0.6300 over 8 after; 2 annotators dropped`.
    BuiltDataset,
    |self, d| "{} comparisons; agreement {} over {} annotator pairs before exclusion, {} over {} \
               after; {} dropped",
    self.comparisons.len(),
    Maybe(self.agreement.overall, d),
    self.agreement.pairs,
    Maybe(self.agreement_after.overall, d),
    self.agreement_after.pairs,
    Count(self.exclusion.dropped.len() as u64, "annotator")
);

/// `1234 comparisons, 1 warning`, then one line per warning.
impl fmt::Display for ParsedDataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} comparisons, {}",
            self.comparisons.len(),
            Count(self.warnings.len() as u64, "warning")
        )?;
        for warning in &self.warnings {
            write!(f, "\n{warning}")?;
        }
        Ok(())
    }
}
