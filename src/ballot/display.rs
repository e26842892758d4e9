//! How the ballot results print: a plan as its ballots, scores and rankings
//! item by item.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; counts print in full.

// Through the module's re-exports, which stay put when files move.
use super::{AlphaBounds, BallotScores, Plan, RankedItem, Ranking, UniformPlan};
use crate::present::{Count, precision};
use core::fmt;

/// A header, then one line per ballot:
///
/// ```text
/// 7 ballots, 19660 comparisons (Eq. 3 approximation 19800.0000); M_top = 140, M_unif = 39.7172
/// ballot 1: 990 items, 9900 comparisons
/// ballot 2: 495 items, 4950 comparisons
/// ```
impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "{} ballot{}, {} comparisons (Eq. 3 approximation {:.d$}); M_top = {}, M_unif = {:.d$}",
            self.sizes.len(),
            if self.sizes.len() == 1 { "" } else { "s" },
            self.total_comparisons,
            self.approx_total_comparisons,
            self.m_top,
            self.m_unif
        )?;
        for (k, (n, c)) in self.sizes.iter().zip(&self.comparisons).enumerate() {
            write!(f, "\nballot {}: {n} items, {c} comparisons", k + 1)?;
        }
        Ok(())
    }
}

/// `0.2012 ≤ α ≤ 0.6813`, or `no α fits (lower bound 0.7000 > upper bound
/// 0.6000)`.
impl fmt::Display for AlphaBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        if self.is_empty() {
            write!(
                f,
                "no α fits (lower bound {:.d$} > upper bound {:.d$})",
                self.lower, self.upper
            )
        } else {
            write!(f, "{:.d$} ≤ α ≤ {:.d$}", self.lower, self.upper)
        }
    }
}

/// `19660 comparisons: 710 items appear 40 times, the others 39`.
impl fmt::Display for UniformPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let times = |n: usize| Count(n as u64, "time");
        write!(f, "{} comparisons: ", self.comparisons)?;
        if self.items_with_extra == 0 {
            write!(f, "every item appears {}", times(self.appearances))
        } else {
            write!(
                f,
                "{} appear{} {}, the others {}",
                Count(self.items_with_extra as u64, "item"),
                if self.items_with_extra == 1 { "s" } else { "" },
                times(self.appearances + 1),
                self.appearances
            )
        }
    }
}

/// A header, then one line per item:
///
/// ```text
/// ballot 2: 495 items, 4950 votes, 0 withdrawn, slope b̂ = 0.9123
/// item 3: 10 comparisons, 7.5000 wins, x = 0.7500, y = 0.7719, ȳ = 0.8360
/// ```
impl fmt::Display for BallotScores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "ballot {}: {} items, {} votes, {} withdrawn, slope b̂ = {:.d$}",
            self.ballot,
            self.items.len(),
            self.votes,
            self.withdrawn,
            self.b_hat
        )?;
        for (p, item) in self.items.iter().enumerate() {
            let at = |v: &[f64]| v.get(p).copied().unwrap_or(f64::NAN);
            write!(
                f,
                "\nitem {item}: {} comparisons, {:.d$} wins, x = {:.d$}, y = {:.d$}, ȳ = {:.d$}",
                self.appearances.get(p).copied().unwrap_or(0),
                at(&self.wins),
                at(&self.x),
                at(&self.y),
                at(&self.y_bar)
            )?;
        }
        Ok(())
    }
}

/// `item 3: score 0.8360 (last ballot 7)`.
impl fmt::Display for RankedItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(
            f,
            "item {}: score {:.d$} (last ballot {})",
            self.item, self.score, self.last_ballot
        )
    }
}

/// One line per item, best first, numbered from 1:
///
/// ```text
/// 1. item 3: score 0.8360 (last ballot 7)
/// 2. item 0: score 0.8012 (last ballot 7)
/// ```
impl fmt::Display for Ranking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        for (p, e) in self.entries.iter().enumerate() {
            if p > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{}. {e:.d$}", p + 1)?;
        }
        Ok(())
    }
}
