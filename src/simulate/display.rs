//! How the simulator's results print: a summary as mean ± SD with its
//! standard error, a report and a sweep as short tables.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; parameters (α) print as given.

use super::runner::{Collected, Report, Run};
use super::stats::Summary;
use super::sweep::{Skipped, Sweep, SweepPoint};
use crate::present::{Count, precision};
use core::fmt;

display_line!(
    /// `0.8123 ± 0.0312 (mean ± SD of 50 simulations, standard error 0.0044)`.
    Summary,
    |self, d| "{:.d$} ± {:.d$} (mean ± SD of {} simulations, standard error {:.d$})",
    self.mean,
    self.sd,
    self.values.len(),
    self.se
);

/// A table of every metric for both arms:
///
/// ```text
/// 50 simulations (seed 7); comparisons per simulation: 19660 uniform, 19660 adaptive
/// metric  uniform (mean ± SD)  adaptive (mean ± SD)
/// rho_w   0.8123 ± 0.0312      0.9012 ± 0.0101
/// ```
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "{} simulations (seed {}); comparisons per simulation: {} uniform, {} adaptive",
            self.simulations, self.seed, self.uniform_comparisons, self.adaptive_comparisons
        )?;
        let cell = |s: Option<&Summary>| {
            s.map_or_else(
                || "n/a".to_owned(),
                |s| format!("{:.d$} ± {:.d$}", s.mean, s.sd),
            )
        };
        let rows: Vec<(&str, String, String)> = self
            .metrics
            .iter()
            .enumerate()
            .map(|(i, m)| {
                (
                    m.as_str(),
                    cell(self.uniform.get(i)),
                    cell(self.adaptive.get(i)),
                )
            })
            .collect();
        let (h0, h1, h2) = ("metric", "uniform (mean ± SD)", "adaptive (mean ± SD)");
        let width = |h: &str, col: &dyn Fn(&(&str, String, String)) -> usize| {
            rows.iter().map(col).fold(h.chars().count(), usize::max)
        };
        let w0 = width(h0, &|r| r.0.chars().count());
        let w1 = width(h1, &|r| r.1.chars().count());
        write!(f, "\n{h0:<w0$}  {h1:<w1$}  {h2}")?;
        for (name, u, a) in &rows {
            write!(f, "\n{name:<w0$}  {u:<w1$}  {a}")?;
        }
        Ok(())
    }
}

/// `uniform: 19660 comparisons, metric values 0.8123, 0.7012` and the same
/// for the adaptive arm on a second line.
impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        let arm = |f: &mut fmt::Formatter<'_>, name: &str, c: &Collected, v: &[f64]| {
            write!(f, "{name}: {} comparisons, metric values ", c.comparisons)?;
            for (i, x) in v.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{x:.d$}")?;
            }
            Ok(())
        };
        arm(f, "uniform", &self.uniform, &self.uniform_values)?;
        f.write_str("\n")?;
        arm(f, "adaptive", &self.adaptive, &self.adaptive_values)
    }
}

/// `990 items scored from 19660 comparisons over 7 ballots`.
impl fmt::Display for Collected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ballots = self.last_ballot.iter().copied().max().unwrap_or(0);
        write!(
            f,
            "{} items scored from {} comparisons over {}",
            self.scores.len(),
            self.comparisons,
            Count(ballots as u64, "ballot")
        )
    }
}

display_line!(
    /// `α = 0.5, n_b = 7, M = 20 (19660 comparisons): 0.9012 ± 0.0101 (mean ±
    /// SD of 50 simulations, standard error 0.0014)`.
    SweepPoint,
    |self, d| "α = {}, n_b = {}, M = {} ({} comparisons): {:.d$}",
    self.alpha, self.n_ballots, self.m, self.comparisons, self.summary
);

/// `α = 0.9, n_b = 40 skipped: REASON`.
impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "α = {}, n_b = {} skipped: {}",
            self.alpha, self.n_ballots, self.reason
        )
    }
}

/// A header, one line per point (the best marked `*`), then the skipped
/// points:
///
/// ```text
/// sweep of rho_w at a budget of 20000 comparisons: 2 points, 1 skipped
/// * α = 0.5, n_b = 7, M = 20 (19660 comparisons): 0.9012 ± 0.0101 (…)
///   α = 0.7, n_b = 7, M = 12 (19845 comparisons): 0.8870 ± 0.0121 (…)
///   α = 0.9, n_b = 40 skipped: …
/// ```
impl fmt::Display for Sweep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "sweep of {} at a budget of {} comparisons: {} points, {} skipped",
            self.metric,
            self.budget,
            self.points.len(),
            self.skipped.len()
        )?;
        for (i, p) in self.points.iter().enumerate() {
            let mark = if self.best == Some(i) { '*' } else { ' ' };
            write!(f, "\n{mark} {p:.d$}")?;
        }
        for s in &self.skipped {
            write!(f, "\n  {s}")?;
        }
        Ok(())
    }
}
