//! What a comparison returns: every system's estimate and interval, and
//! every pair's difference, interval, effect size, test and corrected
//! decision — everything a table, a forest plot or a significance mark
//! needs, without recomputing anything.

use super::multitest::Correction;
use super::wilcoxon::WilcoxonMethod;
use super::{Pairs, Test};
use crate::correlation::pvalue::Alternative;
use crate::uncertainty::Interval;

/// An interval [lower, upper]; an end is infinite on the open side of a
/// one-sided alternative.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bounds {
    /// The lower end.
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub lower: f64,
    /// The upper end.
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub upper: f64,
}

impl Bounds {
    pub(crate) fn new((lower, upper): (f64, f64)) -> Self {
        Self { lower, upper }
    }

    /// Whether `x` lies in the interval (ends included).
    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }
}

/// How intervals are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum IntervalMethod {
    /// Student's t interval of a mean (`ttest_rel(…).confidence_interval()`):
    /// for mean scores over units only.
    Student,
    /// The paired bootstrap: percentile or BCa.
    Bootstrap(Interval),
}

/// One system: its estimate (mean score over the units, or coefficient
/// against the human scores) and the interval of it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SystemSummary {
    /// The system's name.
    pub name: String,
    /// The mean score, or the coefficient.
    pub estimate: f64,
    /// The interval of the estimate (`None` where undefined: one unit for
    /// a Student interval, a degenerate bootstrap distribution).
    pub interval: Option<Bounds>,
}

/// Effect sizes of a pair's per-unit differences dᵢ = xᵢₐ − xᵢ_b (the mean
/// difference is [`PairComparison::difference`]).
///
/// ```text
/// Cohen's d_z = d̄/s,  Hedges' g_z = J(n − 1)·d_z,  J(ν) = Γ(ν/2)/(√(ν/2)·Γ((ν − 1)/2))
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Effect {
    /// Cohen's d_z (`None` when s = 0 or n = 1).
    pub cohens_dz: Option<f64>,
    /// Hedges' g_z, d_z with the exact small-sample correction (`None`
    /// where d_z is, and for n = 2).
    pub hedges_gz: Option<f64>,
}

/// Where a p-value came from.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PValueMethod {
    /// Student's t distribution with `df` degrees of freedom.
    StudentT {
        /// Degrees of freedom, n − 1.
        df: u64,
    },
    /// Wilcoxon's signed-rank test.
    Wilcoxon {
        /// The method used (never `Auto`).
        method: WilcoxonMethod,
        /// R⁺, the sum of the ranks of the positive differences.
        r_plus: f64,
        /// R⁻.
        r_minus: f64,
        /// The normal deviate (SciPy's `zstatistic`: −|z| two-sided; after
        /// the continuity correction), for the normal approximation.
        z: Option<f64>,
    },
    /// Every one of the 2ⁿ sign assignments enumerated.
    Exact {
        /// 2ⁿ.
        assignments: u64,
    },
    /// Random permutations or resamples, (b + 1)/(m + 1).
    MonteCarlo {
        /// m: permutations, or resamples on which the statistic was defined.
        replicates: u64,
        /// The Monte-Carlo standard error of the p-value.
        standard_error: f64,
    },
}

/// Win, tie and loss counts of a pair over the units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WinTieLoss {
    /// Units where a scores above b.
    pub wins: usize,
    /// Units where they tie.
    pub ties: usize,
    /// Units where a scores below b.
    pub losses: usize,
}

/// Two systems compared: a against b, d = θ(a) − θ(b).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairComparison {
    /// Index of system a.
    pub a: usize,
    /// Index of system b (the baseline, when comparing with one).
    pub b: usize,
    /// θ(a) − θ(b): the mean difference, or the difference of coefficients.
    pub difference: f64,
    /// The interval of the difference (`None` where undefined).
    pub interval: Option<Bounds>,
    /// Effect sizes (per-unit scores only).
    pub effect: Option<Effect>,
    /// Wins, ties and losses of a over b (per-unit scores only).
    pub record: Option<WinTieLoss>,
    /// The test statistic: t, SciPy's Wilcoxon statistic (min(R⁺, R⁻)
    /// two-sided, R⁺ one-sided), or the difference itself (randomisation,
    /// bootstrap).
    #[cfg_attr(feature = "serde", serde(with = "crate::present::extended_float"))]
    pub statistic: f64,
    /// The p-value.
    pub p_value: f64,
    /// Where it came from.
    pub method: PValueMethod,
    /// The p-value after the correction, over all pairs of the comparison.
    pub adjusted_p_value: f64,
    /// Whether the correction rejects "no difference" at α.
    pub reject: bool,
}

/// The settings a comparison ran with.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings {
    /// The test.
    pub test: Test,
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// The correction.
    pub correction: Correction,
    /// α of the decisions.
    pub alpha: f64,
    /// The intervals' confidence level.
    pub level: f64,
    /// How the intervals were computed.
    pub interval: IntervalMethod,
    /// Permutations or resamples asked for.
    pub replicates: usize,
    /// Which pairs.
    pub pairs: Pairs,
}

/// k systems compared on the same units: each system's estimate and
/// interval, and each pair's difference, interval, effect size, test and
/// corrected decision.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Comparison {
    /// What the estimates are: `"mean"` for per-unit scores, `"coefficient"`
    /// (or the name a caller gives, such as `"ρ_w"`) for a coefficient.
    pub statistic: String,
    /// The number of units (queries, instances, items).
    pub units: usize,
    /// The systems, in the order given.
    pub systems: Vec<SystemSummary>,
    /// The pairs: (0, 1), (0, 2), …, (1, 2), … for all pairs; (i, baseline)
    /// for each other system i against a baseline.
    pub pairs: Vec<PairComparison>,
    /// The settings.
    pub settings: Settings,
}

impl Comparison {
    /// The comparison of systems `a` and `b`, whichever way round it was
    /// made.
    #[must_use]
    pub fn pair(&self, a: usize, b: usize) -> Option<&PairComparison> {
        self.pairs
            .iter()
            .find(|p| (p.a, p.b) == (a, b) || (p.a, p.b) == (b, a))
    }

    /// The systems that system `a` is significantly better than (a
    /// rejected pair whose difference favours a), in index order.
    #[must_use]
    pub fn better_than(&self, a: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .pairs
            .iter()
            .filter(|p| p.reject)
            .filter_map(|p| {
                if p.a == a && p.difference > 0.0 {
                    Some(p.b)
                } else if p.b == a && p.difference < 0.0 {
                    Some(p.a)
                } else {
                    None
                }
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The system names.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.systems.iter().map(|s| s.name.as_str())
    }
}
