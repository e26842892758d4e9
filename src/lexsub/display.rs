//! How the lexical-substitution results print: fractions (not the official
//! scorer's percentages: [`Percent`](super::Percent) prints those), `n/a`
//! where a ratio is undefined.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default.

use super::gap::AtK;
use super::model::{ItemScore, Outcome, Totals};
use super::revised::RevisedScores;
use super::semeval::{BestScores, OotScores};
use crate::present::{Count, Maybe, precision};
use core::fmt;

display_line!(
    /// `precision 0.7500, recall 0.3750 (credit 1.5000; 2 attempted of 4
    /// items)`.
    Totals,
    |self, d| "precision {}, recall {} (credit {:.d$}; {} attempted of {})",
    Maybe(self.precision(), d),
    Maybe(self.recall(), d),
    self.credit,
    self.attempted,
    Count(self.items as u64, "item")
);

/// `0.7500`, `not attempted` or `not applicable`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        match self {
            Outcome::Scored(v) => write!(f, "{v:.d$}"),
            Outcome::NotAttempted => f.write_str("not attempted"),
            Outcome::NotApplicable => f.write_str("not applicable"),
        }
    }
}

display_line!(
    /// `item 17: 0.7500` (or `item 17: not attempted`).
    ItemScore,
    |self, d| "item {}: {:.d$}", self.id, self.outcome
);

display_line!(
    /// `P@k 0.7500, R@k 0.5000`.
    AtK,
    |self, d| "P@k {}, R@k {}",
    Maybe(self.precision, d),
    Maybe(self.recall, d)
);

display_line!(
    /// Two lines, `best: …` and `mode best: …`, each as [`Totals`].
    BestScores,
    |self, d| "best: {:.d$}\nmode best: {:.d$}", self.best, self.mode
);

display_line!(
    /// Two lines, `oot: …` and `mode oot: …`, each as [`Totals`].
    OotScores,
    |self, d| "oot: {:.d$}\nmode oot: {:.d$}", self.oot, self.mode
);

display_line!(
    /// Six lines, one per measure; recall and the weighted precision show the
    /// one ratio each is read as.
    ///
    /// ```text
    /// new best: precision 0.5000, recall 0.2500 (credit 1.0000; 2 attempted of 4 items)
    /// best1: …
    /// oot: …
    /// recall: 0.4000 (mean over 4 gold items)
    /// weighted precision: 0.5000 (mean over 2 attempted items)
    /// rank: …
    /// ```
    RevisedScores,
    |self, d, f| "new best: {:.d$}\n", self.new_best;
    writeln!(f, "best1: {:.d$}", self.best1)?;
    writeln!(f, "oot: {:.d$}", self.oot)?;
    writeln!(
        f,
        "recall: {} (mean over {})",
        Maybe(self.recall.recall(), d),
        Count(self.recall.items as u64, "gold item")
    )?;
    writeln!(
        f,
        "weighted precision: {} (mean over {})",
        Maybe(self.precision.precision(), d),
        Count(self.precision.attempted as u64, "attempted item")
    )?;
    write!(f, "rank: {:.d$}", self.rank)
);
