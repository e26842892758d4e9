//! STAND-IN for `crate::pearson` (being added on another branch with the
//! same signature: `pearson(x, y) -> Result<PearsonResult>`, fields `r`, `n`,
//! `statistic`, method `p_value(Alternative)`). Delete this file and use the
//! real one once it is on main.

use crate::correlation::pvalue::{Alternative, student_t_p};
use crate::error::{Error, Result, check_finite, check_pair_len};

/// Pearson's r with its t statistic (stand-in; see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PearsonResult {
    /// The coefficient r ∈ [−1, 1].
    pub r: f64,
    /// The number of items.
    pub n: usize,
    /// `r·√((n − 2)/((1 + r)(1 − r)))`.
    pub statistic: f64,
}

impl PearsonResult {
    /// The t-test p-value with n − 2 degrees of freedom.
    #[must_use]
    pub fn p_value(&self, alternative: Alternative) -> f64 {
        if self.n < 3 {
            let on_side = match alternative {
                Alternative::TwoSided => return 1.0,
                Alternative::Greater => self.r > 0.0,
                Alternative::Less => self.r < 0.0,
            };
            return if on_side { 0.5 } else { 1.0 };
        }
        student_t_p(self.statistic, (self.n - 2) as f64, alternative)
    }
}

/// Pearson's r of two samples (stand-in, two-pass in f64).
pub(crate) fn pearson(x: &[f64], y: &[f64]) -> Result<PearsonResult> {
    let n = check_pair_len("x", x, "y", y, 2)?;
    check_finite("x", x)?;
    check_finite("y", y)?;
    let nf = n as f64;
    let mx = x.iter().sum::<f64>() / nf;
    let my = y.iter().sum::<f64>() / nf;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if x.iter().all(|v| *v == x[0]) {
        return Err(Error::Constant { input: "x" });
    }
    if y.iter().all(|v| *v == y[0]) {
        return Err(Error::Constant { input: "y" });
    }
    let r = (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0);
    let statistic = if r.abs() == 1.0 {
        r * f64::INFINITY
    } else {
        r * ((nf - 2.0) / ((1.0 + r) * (1.0 - r))).sqrt()
    };
    Ok(PearsonResult { r, n, statistic })
}
