//! How the correlation results print: one line each, naming the coefficient
//! and what it was computed from.
//!
//! Real numbers take the formatter's precision (`{:.2}`), 4 decimals by
//! default; p-values below the last decimal switch to scientific notation;
//! Kish's effective n prints with one decimal.

use super::kendall::KendallResult;
use super::pearson::{FisherInterval, PearsonResult};
use super::pvalue::Alternative;
use super::spearman::SpearmanResult;
use super::vigna::{WeightedTau, WeightedTauStats};
use super::weighted::{RhoW, TauW};
use crate::present::{Prob, precision};
use core::fmt;

display_line!(
    /// `Spearman's ρ = 0.8208 (n = 5, t = 2.4842, two-sided p = 0.0886)`.
    SpearmanResult,
    |self, d| "Spearman's ρ = {:.d$} (n = {}, t = {:.d$}, two-sided p = {})",
    self.rho,
    self.n,
    self.statistic,
    Prob(self.p_value(Alternative::TwoSided), d)
);

display_line!(
    /// `Kendall's τ-b = 0.6000 (n = 5; pairs: 8 concordant, 2 discordant, …;
    /// z = 1.7146, two-sided p = 0.2333)`.
    KendallResult,
    |self, d| "Kendall's τ-b = {:.d$} (n = {}; pairs: {} concordant, {} discordant, \
     {} tied in x only, {} tied in y only, {} tied in both; z = {:.d$}, two-sided p = {})",
    self.tau,
    self.n,
    self.concordant,
    self.discordant,
    self.ties_x,
    self.ties_y,
    self.ties_xy,
    self.z,
    Prob(self.p_value(Alternative::TwoSided), d)
);

display_line!(
    /// `Pearson's r = 0.8321 (n = 5, t = 2.6000, two-sided p = 0.0805)`.
    PearsonResult,
    |self, d| "Pearson's r = {:.d$} (n = {}, t = {:.d$}, two-sided p = {})",
    self.r,
    self.n,
    self.statistic,
    Prob(self.p_value(Alternative::TwoSided), d)
);

display_line!(
    /// `[-0.2738, 0.9887]`.
    FisherInterval,
    |self, d| "[{:.d$}, {:.d$}]", self.lower, self.upper
);

display_line!(
    /// `ρ_w = 0.4123 (n = 990, effective n = 12.3)`.
    RhoW,
    |self, d| "ρ_w = {:.d$} (n = {}, effective n = {:.1})",
    self.rho, self.n, self.effective_n
);

display_line!(
    /// `τ_w = 0.3812 (n = 990, effective n = 12.3; pair weights: 0.4001
    /// concordant, 0.0312 discordant, 0.0000 tied in a, 0.0000 tied in b, of
    /// 0.4940)`.
    TauW,
    |self, d| "τ_w = {:.d$} (n = {}, effective n = {:.1}; pair weights: {:.d$} concordant, \
     {:.d$} discordant, {:.d$} tied in a, {:.d$} tied in b, of {:.d$})",
    self.tau,
    self.n,
    self.effective_n,
    self.concordant,
    self.discordant,
    self.tied_a,
    self.tied_b,
    self.total
);

display_line!(
    /// `τ = 0.5000 (pair weights: 3.0000 concordant, 1.0000 discordant, 0.0000
    /// tied in x, 0.0000 tied in y, of 4.0000)`.
    WeightedTauStats,
    |self, d| "τ = {:.d$} (pair weights: {:.d$} concordant, {:.d$} discordant, \
     {:.d$} tied in x, {:.d$} tied in y, of {:.d$})",
    self.tau, self.concordant, self.discordant, self.tied_x, self.tied_y, self.total
);

/// `weighted τ = 0.5123`, and for the symmetric rank `weighted τ = 0.5123
/// (mean of 0.5000 with (x, y) importance and 0.5246 with (y, x))`.
impl fmt::Display for WeightedTau {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = precision(f);
        write!(f, "weighted τ = {:.d$}", self.tau)?;
        if let Some(yx) = &self.stats_yx {
            write!(
                f,
                " (mean of {:.d$} with (x, y) importance and {:.d$} with (y, x))",
                self.stats.tau, yx.tau
            )?;
        }
        Ok(())
    }
}
