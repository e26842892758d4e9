//! How the ballot results print: a plan as its ballots, scores and rankings
//! item by item.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; counts print in full.

// Through the module's re-exports, which stay put when files move.
use super::{
    AlphaBounds, BallotScores, BallotStatus, Exclusion, ImportReport, Outcome, Plan, RankedItem,
    Ranking, Task, TaskView, UniformPlan, WorkerStats,
};
use crate::present::{Count, Maybe, precision};
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
            "{}, {} comparisons (Eq. 3 approximation {:.d$}); M_top = {}, M_unif = {:.d$}",
            Count(self.sizes.len() as u64, "ballot"),
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

display_line!(
    /// A header, then one line per item:
    ///
    /// ```text
    /// ballot 2: 495 items, 4950 votes, 0 withdrawn, slope b̂ = 0.9123
    /// item 3: 10 comparisons, 7.5000 wins, x = 0.7500, y = 0.7719, ȳ = 0.8360
    /// ```
    BallotScores,
    |self, d, f| "ballot {}: {} items, {} votes, {} withdrawn, slope b̂ = {:.d$}",
    self.ballot,
    self.items.len(),
    self.votes,
    self.withdrawn,
    self.b_hat;
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
);

display_line!(
    /// `item 3: score 0.8360 (last ballot 7)`.
    RankedItem,
    |self, d| "item {}: score {:.d$} (last ballot {})",
    self.item, self.score, self.last_ballot
);

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

/// `recorded`, `already recorded` or `from an excluded worker (ignored)`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Recorded => "recorded",
            Outcome::AlreadyRecorded => "already recorded",
            Outcome::FromExcludedWorker => "from an excluded worker (ignored)",
        })
    }
}

/// `12 answers recorded, 3 already recorded, 0 from excluded workers, 1
/// refused`, then one line per refused answer (`answer 4: REASON`); a batch
/// that [`ImportMode::AllOrNothing`](super::ImportMode::AllOrNothing) did
/// not apply says so first.
impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.applied {
            f.write_str("nothing recorded (the batch has refused answers): ")?;
        }
        write!(
            f,
            "{} recorded, {} already recorded, {} from excluded workers, {} refused",
            Count(self.recorded as u64, "answer"),
            self.already_recorded,
            self.from_excluded,
            self.refused.len()
        )?;
        for (i, e) in &self.refused {
            write!(f, "\nanswer {i}: {e}")?;
        }
        Ok(())
    }
}

/// `task b2-7: item 4 vs item 9 (comparison 5)`, or `task b2-8: control 1
/// shown as 3 vs 2 (swapped)`; with units, `… in unit 2`.
impl fmt::Display for TaskView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.task {
            Task::Comparison { ticket } => write!(
                f,
                "task {}: item {} vs item {} (comparison {ticket})",
                self.id, self.first, self.second
            )?,
            Task::Control { pair, swapped } => write!(
                f,
                "task {}: control {pair} shown as {} vs {}{}",
                self.id,
                self.first,
                self.second,
                if swapped { " (swapped)" } else { "" }
            )?,
        }
        if let Some(u) = self.unit {
            write!(f, " in unit {u}")?;
        }
        Ok(())
    }
}

display_line!(
    /// `worker "w7" excluded at ballot 2: accuracy 0.4000 on 5 control answers,
    /// 12 answers discarded`.
    Exclusion,
    |self, d| "worker {:?} excluded at ballot {}: accuracy {} on {}, {} discarded",
    self.worker,
    self.ballot,
    Maybe(self.accuracy(), d),
    Count(self.controls, "control answer"),
    Count(self.discarded, "answer")
);

display_line!(
    /// `worker "w7": 40 votes, accuracy 0.9000 on 10 control answers,
    /// agreement 0.8250 over 40 votes, 0 answers discarded`, and `, excluded at
    /// ballot 2` for an excluded worker.
    WorkerStats,
    |self, d, f| "worker {:?}: {}, accuracy {} on {}, agreement {} over {}, {} discarded",
    self.worker,
    Count(self.votes, "vote"),
    Maybe(self.accuracy(), d),
    Count(self.controls, "control answer"),
    Maybe(self.agreement(), d),
    Count(self.agreement_votes, "vote"),
    Count(self.discarded, "answer");
    if let Some(b) = self.excluded_at {
        write!(f, ", excluded at ballot {b}")?;
    }
    Ok(())
);

/// `ballot 2 (open): 495 items, 4950 of 4950 comparisons voted (0 missing),
/// 50 of 50 control answers, 0 answers discarded`.
impl fmt::Display for BallotStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ballot {} ({}): {} items, {} of {} comparisons voted ({} missing), {} of {} control \
             answers, {} discarded",
            self.ballot,
            if self.closed { "closed" } else { "open" },
            self.items,
            self.votes,
            self.comparisons,
            self.missing,
            self.control_answers,
            self.control_tasks,
            Count(self.discarded as u64, "answer")
        )
    }
}
