//! How the word-similarity results print: a report as a short block, one
//! line per coefficient; a comparison as an aligned table; the options as
//! the words a person would use.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default, as every result of the crate.

use core::fmt;

use super::compare::Comparison;
#[cfg(feature = "uncertainty")]
use super::compare::PairedTest;
#[cfg(feature = "uncertainty")]
use super::evaluate::Intervals;
use super::evaluate::{Report, Unknown};
use super::pairs::{Benchmark, Header, Layout, PairFormat, Separator};
use crate::present::{Count, precision};

/// A new line, then `Pearson's r = 0.8321 (…)`, or `Pearson's r: undefined
/// (y is constant: …)`.
fn coefficient<T: fmt::Display, E: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    r: &Result<T, E>,
    d: usize,
) -> fmt::Result {
    f.write_str("\n")?;
    match r {
        Ok(v) => write!(f, "{v:.d$}"),
        Err(e) => write!(f, "{name}: undefined ({e})"),
    }
}

/// `unknown pairs dropped`, `unknown pairs scored 0`, `unknown pairs scored
/// with the mean similarity`.
impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Drop => "unknown pairs dropped",
            Self::Zero => "unknown pairs scored 0",
            Self::Mean => "unknown pairs scored with the mean similarity",
        })
    }
}

display_line!(
    /// A header line, then one line per coefficient (and, when computed, one
    /// per bootstrap interval):
    ///
    /// ```text
    /// "toy-ws": 6 pairs, 3 found (OOV ratio 0.5000); unknown pairs dropped; 3 scored
    /// Pearson's r = 0.9912 (n = 3, t = 7.4833, two-sided p = 0.0846)
    /// Spearman's ρ = 1.0000 (n = 3, t = inf, two-sided p = 0.0000)
    /// Kendall's τ-b = …
    /// ρ_w = 1.0000 (n = 3, effective n = 2.6)
    /// τ_w: undefined (…)
    /// standardised ρ_w = 1.0000 (0 = what unrelated rankings give on average; raw ρ_w = 1.0000, …)
    /// standardised τ_w: undefined (…)
    /// ```
    Report,
    |self, d, f| "{:?}: {}, {} found (OOV ratio {:.d$}); {}",
    self.benchmark,
    Count(self.pairs as u64, "pair"),
    self.found,
    self.oov_ratio(),
    self.unknown;
    if let (Unknown::Mean, Some(v)) = (self.unknown, self.imputed) {
        write!(f, " {v:.d$}")?;
    } else if self.unknown == Unknown::Mean {
        f.write_str(" (none found: 0)")?;
    }
    write!(f, "; {} scored", self.scored())?;
    coefficient(f, "Pearson's r", &self.pearson, d)?;
    coefficient(f, "Spearman's ρ", &self.spearman, d)?;
    coefficient(f, "Kendall's τ-b", &self.kendall, d)?;
    coefficient(f, "ρ_w", &self.rho_w, d)?;
    coefficient(f, "τ_w", &self.tau_w, d)?;
    coefficient(f, "standardised ρ_w", &self.rho_w_standardised, d)?;
    coefficient(f, "standardised τ_w", &self.tau_w_standardised, d)?;
    #[cfg(feature = "uncertainty")]
    if let Some(i) = &self.intervals {
        write!(f, "\nbootstrap intervals:")?;
        for line in format!("{i:.d$}").lines() {
            write!(f, "\n  {line}")?;
        }
    }
    Ok(())
);

/// One line per coefficient:
///
/// ```text
/// Pearson's r: estimate 0.9912, 95% BCa interval [0.8100, 1.0000] (…)
/// …
/// τ_w: failed (too few items: 3 needed, got 2)
/// ```
#[cfg(feature = "uncertainty")]
impl fmt::Display for Intervals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        for (i, (name, r)) in [
            ("Pearson's r", &self.pearson),
            ("Spearman's ρ", &self.spearman),
            ("Kendall's τ-b", &self.kendall),
            ("ρ_w", &self.rho_w),
            ("τ_w", &self.tau_w),
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                f.write_str("\n")?;
            }
            match r {
                Ok(ci) => write!(f, "{name}: {ci:.d$}")?,
                Err(e) => write!(f, "{name}: failed ({e})")?,
            }
        }
        Ok(())
    }
}

/// A table, one row per model and benchmark, `n/a` for an undefined
/// coefficient; g(ρ_w) and g(τ_w) are the standardised values (0 = what
/// unrelated rankings give on average):
///
/// ```text
/// model  benchmark  found/pairs  r        ρ        τ-b      ρ_w      τ_w      g(ρ_w)   g(τ_w)
/// good   toy        3/3          0.9912   1.0000   1.0000   1.0000   1.0000   1.0000   1.0000
/// poor   toy        3/3          -0.9912  -1.0000  …
/// ```
impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let cell = |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.d$}"));
        let header = [
            "model",
            "benchmark",
            "found/pairs",
            "r",
            "ρ",
            "τ-b",
            "ρ_w",
            "τ_w",
            "g(ρ_w)",
            "g(τ_w)",
        ]
        .map(str::to_owned);
        let mut rows = vec![header];
        for (model, benchmark, r) in self.rows() {
            rows.push([
                model.to_owned(),
                benchmark.to_owned(),
                format!("{}/{}", r.found, r.pairs),
                cell(r.pearson.as_ref().ok().map(|c| c.r)),
                cell(r.spearman.as_ref().ok().map(|c| c.rho)),
                cell(r.kendall.as_ref().ok().map(|c| c.tau)),
                cell(r.rho_w.as_ref().ok().map(|c| c.rho)),
                cell(r.tau_w.as_ref().ok().map(|c| c.tau)),
                cell(r.rho_w_standardised.as_ref().ok().map(|c| c.value)),
                cell(r.tau_w_standardised.as_ref().ok().map(|c| c.value)),
            ]);
        }
        let mut widths = [0usize; 10];
        for row in &rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            for (j, (c, w)) in row.iter().zip(widths).enumerate() {
                if j + 1 == row.len() {
                    f.write_str(c)?;
                } else {
                    write!(f, "{c:<w$}  ")?;
                }
            }
        }
        Ok(())
    }
}

display_line!(
    /// `39 common pairs; A − B = 0.1200 (A 0.8100, B 0.6900)`, then the paired
    /// bootstrap interval and the paired permutation test on two more lines.
    #[cfg(feature = "uncertainty")]
    PairedTest,
    |self, d| "{}; {:.d$}",
    Count(self.common as u64, "common pair"),
    self.comparison
);

/// The layout's [`name`](Layout::name): `simlex999`.
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `words in columns 1 and 2, score in column 3, separator detected, header
/// detected, '#' lines are comments`, and `, part-of-speech suffixes
/// stripped` for MEN's lemma form, `, or words and score in columns 1 to 3
/// in a file of three columns` for SimLex-999 and SimVerb-3500.
impl fmt::Display for PairFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.word_columns;
        write!(
            f,
            "words in columns {a} and {b}, score in column {}, separator {}, {}, {}",
            self.score_column,
            match self.separator {
                Separator::Auto => "detected",
                Separator::Tab => "tab",
                Separator::Comma => "comma",
                Separator::Semicolon => "semicolon",
                Separator::Whitespace => "whitespace",
            },
            match self.header {
                Header::Auto => "header detected",
                Header::Present => "a header line",
                Header::Absent => "no header",
            },
            if self.comments {
                "'#' lines are comments"
            } else {
                "no comment lines"
            }
        )?;
        if self.strip_pos {
            f.write_str(", part-of-speech suffixes stripped")?;
        }
        if self.three_column_copies && (self.word_columns, self.score_column) != ([1, 2], 3) {
            f.write_str(", or words and score in columns 1 to 3 in a file of three columns")?;
        }
        Ok(())
    }
}

/// `"SimLex-999": 999 word pairs`.
impl fmt::Display for Benchmark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}: {}",
            self.name(),
            Count(self.len() as u64, "word pair")
        )
    }
}
