//! How the uncertainty results print: one line each (three for a paired
//! comparison), naming every number.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; p-values below the last decimal switch to scientific notation.

use super::bootstrap::{ConfidenceInterval, Interval};
use super::histogram::Histogram;
use super::null::{Estimate, NullMoments, Source, Standardised};
use super::paired::PairedComparison;
use super::permutation::PermutationTest;
use super::statistic::ExactNull;
use crate::present::{Percentage, Prob, alternative, precision};
use core::fmt;

/// `estimate 0.4123, 95% BCa interval [0.2100, 0.6000] (bootstrap SE 0.1000;
/// 2000 resamples, 3 failed)`.
impl fmt::Display for ConfidenceInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let method = match self.interval {
            Interval::Percentile => "percentile",
            Interval::Bca => "BCa",
        };
        write!(
            f,
            "estimate {:.d$}, {}% {method} interval [{:.d$}, {:.d$}] (bootstrap SE {:.d$}; \
             {} resamples, {} failed",
            self.estimate,
            Percentage(self.level),
            self.lower,
            self.upper,
            self.standard_error,
            self.resamples,
            self.failed
        )?;
        if let (Some(z0), Some(a)) = (self.bias_correction, self.acceleration) {
            write!(
                f,
                "; bias correction z₀ = {z0:.d$}, acceleration a = {a:.d$}"
            )?;
        }
        f.write_str(")")
    }
}

/// `999 values in 40 bins of width 0.0500 from -0.8000 to 1.2000 (fullest
/// bin 87)`.
impl fmt::Display for Histogram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let (first, last) = (
            self.edges.first().copied().unwrap_or(f64::NAN),
            self.edges.last().copied().unwrap_or(f64::NAN),
        );
        write!(
            f,
            "{} values in {} bins of width {:.d$} from {first:.d$} to {last:.d$} (fullest bin {})",
            self.total(),
            self.bins(),
            self.width(),
            self.counts.iter().max().copied().unwrap_or(0)
        )
    }
}

display_line!(
    /// `statistic 0.4123, two-sided p = 0.0123 (Monte-Carlo SE 0.0035; 999
    /// permutations, null mean 0.0012, null SD 0.1000)`.
    PermutationTest,
    |self, d| "statistic {:.d$}, {} p = {} (Monte-Carlo SE {}; {} permutations, \
     null mean {:.d$}, null SD {:.d$})",
    self.statistic,
    alternative(self.alternative),
    Prob(self.p_value, d),
    Prob(self.standard_error, d),
    self.permutations,
    self.null_mean,
    self.null_sd
);

/// `0.3333 (exact)`, or `-0.0512 (Monte-Carlo SE 0.0010, 1000
/// permutations)`.
impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        match self.source {
            Source::Exact => write!(f, "{:.d$} (exact)", self.value),
            Source::MonteCarlo { permutations } => write!(
                f,
                "{:.d$} (Monte-Carlo SE {:.d$}, {permutations} permutations)",
                self.value, self.standard_error
            ),
        }
    }
}

display_line!(
    /// `null mean 0.0000 (exact), null SD 0.3333 (exact)`.
    NullMoments,
    |self, d| "null mean {:.d$}, null SD {:.d$}", self.mean, self.sd
);

display_line!(
    /// `exact null mean 0.0000, exact null SD 0.3333`; `unknown` for a moment
    /// without a closed form (estimated by Monte Carlo instead).
    ExactNull,
    |self, d| "exact null mean {}, exact null SD {}",
    moment(self.mean, d),
    moment(self.sd, d)
);

/// An exact moment to `d` decimals, `unknown` for none.
fn moment(v: Option<f64>, d: usize) -> String {
    v.map_or_else(|| "unknown".to_owned(), |v| format!("{v:.d$}"))
}

display_line!(
    /// `value 0.4123, standardised z = 2.3100; null mean 0.0000 (exact), null SD
    /// 0.1785 (exact)`.
    Standardised,
    |self, d| "value {:.d$}, standardised z = {:.d$}; {:.d$}",
    self.value, self.z, self.null
);

/// Three lines: the difference, the paired bootstrap interval and the paired
/// permutation test.
///
/// ```text
/// A − B = 0.2000 (A 0.6000, B 0.4000)
/// paired bootstrap: estimate 0.2000, 95% BCa interval [0.0500, 0.3400] (…)
/// paired permutation test: statistic 0.2000, two-sided p = 0.0140 (…)
/// ```
impl fmt::Display for PairedComparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        writeln!(
            f,
            "A − B = {:.d$} (A {:.d$}, B {:.d$})",
            self.difference, self.value_a, self.value_b
        )?;
        writeln!(f, "paired bootstrap: {:.d$}", self.interval)?;
        write!(f, "paired permutation test: {:.d$}", self.test)
    }
}
