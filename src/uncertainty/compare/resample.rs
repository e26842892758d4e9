//! The paired bootstrap shared by every system and pair: resample b draws
//! n units with replacement, the same units for every system, and each
//! system's statistic θ*_b(a) on them (its mean score, or its coefficient
//! against the human scores) is kept in a B × k matrix. A pair's bootstrap
//! distribution is then Δ*_b = θ*_b(a) − θ*_b(b'), with no new resampling.
//!
//! ```text
//! percentile interval: [Q(α/2), Q(1 − α/2)] of the Δ*_b (type-7 quantiles)
//! BCa interval:        the quantiles moved by z₀ and the jackknife acceleration (Efron 1987)
//! bootstrap test:      the Δ*_b − Δ (the null-centred distribution) against Δ:
//!                      p_greater = (#{Δ*_b − Δ ≥ Δ} + 1)/(B + 1), two-sided twice the smaller tail
//! ```
//!
//! (the test by the shift method of Efron & Tibshirani 1993, §16.4, whose
//! acceptance region is the basic bootstrap interval). Quantiles are read
//! by selection, O(B) a pair, not by sorting.

use super::randomisation::Counts;
use crate::correlation::pvalue::Alternative;
use crate::uncertainty::bootstrap::{acceleration, bca_levels};
use crate::uncertainty::engine;
use crate::uncertainty::{Interval, Threads, UncertaintyError};
use rand::RngExt;

/// Runs `per_resample(indices, out)` for B resamples of n units on the
/// replicate streams of `seed`, and returns the outputs system by system
/// (`[a·B + b]`: system a's value on resample b), the same on any number of
/// threads.
pub(crate) fn matrix<F>(
    n: usize,
    k: usize,
    resamples: usize,
    seed: u64,
    threads: Threads,
    per_resample: F,
) -> Vec<f64>
where
    F: Fn(&[usize], &mut [f64]) + Sync,
{
    let mut out = vec![0.0; resamples * k];
    let Ok(()) = engine::for_each(
        0..resamples,
        seed,
        threads,
        || (vec![0usize; n], vec![0.0; k]),
        |(idx, row), _, rng| {
            idx.iter_mut().for_each(|i| *i = rng.random_range(0..n));
            per_resample(idx, row);
            row.clone()
        },
        |b, row| {
            for (a, v) in row.into_iter().enumerate() {
                out[a * resamples + b] = v;
            }
            Ok::<(), core::convert::Infallible>(())
        },
    );
    out
}

/// A pair's (or a system's) bootstrap result: the interval and the counts
/// of the shift test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Resampled {
    /// The interval, or why there is none.
    pub(crate) interval: Result<(f64, f64), UncertaintyError>,
    /// The shift test's counts (of the resamples on which the statistic
    /// was defined).
    pub(crate) counts: Counts,
}

/// The settings of the intervals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct IntervalSpec {
    pub(crate) level: f64,
    pub(crate) interval: Interval,
    pub(crate) alternative: Alternative,
}

/// The interval and the shift-test counts of the bootstrap values
/// `values` (NaN = a resample on which the statistic was undefined) of a
/// statistic with observed value `estimate`, ties within `tol`;
/// `jackknife()` gives the leave-one-out values for BCa.
pub(crate) fn summarise(
    mut values: Vec<f64>,
    estimate: f64,
    tol: f64,
    spec: IntervalSpec,
    jackknife: impl FnOnce() -> Result<Vec<f64>, UncertaintyError>,
) -> Resampled {
    values.retain(|v| !v.is_nan());
    let mut counts = Counts {
        at_least: 0,
        at_most: 0,
        total: values.len() as u64,
    };
    let (mut below, mut equal) = (0usize, 0usize);
    for &v in &values {
        let shifted = v - estimate;
        counts.at_least += u64::from(shifted >= estimate - tol);
        counts.at_most += u64::from(shifted <= estimate + tol);
        below += usize::from(v < estimate);
        equal += usize::from(v == estimate);
    }
    let interval = interval(&mut values, below, equal, spec, jackknife);
    Resampled { interval, counts }
}

/// The percentile or BCa interval of `values` (one-sided for a one-sided
/// alternative: the ends of the two-sided interval at level 2·level − 1).
fn interval(
    values: &mut [f64],
    below: usize,
    equal: usize,
    spec: IntervalSpec,
    jackknife: impl FnOnce() -> Result<Vec<f64>, UncertaintyError>,
) -> Result<(f64, f64), UncertaintyError> {
    if values.len() < 2 {
        return Err(UncertaintyError::TooFewReplicates {
            what: "successful resamples",
            needed: 2,
            got: values.len(),
        });
    }
    let level = match spec.alternative {
        Alternative::TwoSided => spec.level,
        _ => 2.0 * spec.level - 1.0,
    };
    if !(level > 0.0 && level < 1.0) {
        return Err(UncertaintyError::InvalidLevel { level: spec.level });
    }
    let (lo_p, hi_p) = match spec.interval {
        Interval::Percentile => (0.5 * (1.0 - level), 1.0 - 0.5 * (1.0 - level)),
        Interval::Bca => {
            let (_, lo, hi) = bca_levels(level, below, equal, values.len(), || {
                jackknife().map(|theta| acceleration(&theta))
            })?;
            (lo, hi)
        }
    };
    let lower = select_quantile(values, lo_p);
    let upper = select_quantile(values, hi_p);
    Ok(match spec.alternative {
        Alternative::TwoSided => (lower, upper),
        Alternative::Greater => (lower, f64::INFINITY),
        Alternative::Less => (f64::NEG_INFINITY, upper),
    })
}

/// The type-7 quantile of `values` (reordered in place), by selection: the
/// same value as [`quantile`](crate::uncertainty::bootstrap::quantile) of
/// the sorted values.
pub(crate) fn select_quantile(values: &mut [f64], p: f64) -> f64 {
    let len = values.len();
    let h = (len - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let (_, &mut v_lo, rest) = values.select_nth_unstable_by(lo, f64::total_cmp);
    let v_hi = if lo + 1 < len {
        rest.iter().copied().fold(f64::INFINITY, f64::min)
    } else {
        v_lo
    };
    v_lo + (h - lo as f64) * (v_hi - v_lo)
}

/// Runs `per_set(indices, out)` on the n leave-one-out index sets (set i
/// holds every unit but i) and returns the n × k matrix of the outputs.
pub(crate) fn matrix_jackknife<F>(n: usize, k: usize, threads: Threads, per_set: F) -> Vec<f64>
where
    F: Fn(&[usize], &mut [f64]) + Sync,
{
    let mut out = Vec::with_capacity(n * k);
    let Ok(()) = engine::for_each(
        0..n,
        0,
        threads,
        || Vec::with_capacity(n),
        |idx: &mut Vec<usize>, left_out, _| {
            idx.clear();
            idx.extend((0..n).filter(|&i| i != left_out));
            let mut row = vec![0.0; k];
            per_set(idx, &mut row);
            row
        },
        |_, row| {
            out.extend_from_slice(&row);
            Ok::<(), core::convert::Infallible>(())
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uncertainty::bootstrap::quantile;

    /// SciPy's `bootstrap(paired=True)` intervals of a mean difference,
    /// recomputed here from its own bootstrap distribution
    /// (tests/data/compare/make_expected.py): the percentile and BCa
    /// arithmetic (z₀, the jackknife acceleration, the quantiles), two- and
    /// one-sided, to 1e-12.
    #[test]
    fn intervals_match_scipys_bootstrap_on_its_own_resamples() {
        let e: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/data/compare/expected.json"))
                .unwrap();
        let nums = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let num = |v: &serde_json::Value| match v.as_str() {
            Some("inf") => f64::INFINITY,
            Some("-inf") => f64::NEG_INFINITY,
            _ => v.as_f64().unwrap(),
        };
        let cases = e["bootstrap"].as_array().unwrap();
        assert_eq!(cases.len(), 18);
        for case in cases {
            let (x, y) = (nums(&case["x"]), nums(&case["y"]));
            let d: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
            let n = d.len() as f64;
            let estimate = crate::sum::neumaier(d.iter().copied()) / n;
            let spec = IntervalSpec {
                level: case["level"].as_f64().unwrap(),
                interval: match case["method"].as_str().unwrap() {
                    "BCa" => Interval::Bca,
                    _ => Interval::Percentile,
                },
                alternative: match case["alternative"].as_str().unwrap() {
                    "greater" => Alternative::Greater,
                    "less" => Alternative::Less,
                    _ => Alternative::TwoSided,
                },
            };
            let total = crate::sum::neumaier(d.iter().copied());
            let theta: Vec<f64> = d.iter().map(|v| (total - v) / (n - 1.0)).collect();
            let r = summarise(nums(&case["distribution"]), estimate, 0.0, spec, || {
                Ok(theta)
            });
            let (lower, upper) = r.interval.unwrap();
            let (low, high) = (num(&case["low"]), num(&case["high"]));
            let close = |a: f64, b: f64| a == b || (a - b).abs() <= 1e-12 * b.abs().max(1.0);
            assert!(close(lower, low), "{spec:?}: {lower} vs {low}");
            assert!(close(upper, high), "{spec:?}: {upper} vs {high}");
        }
    }

    #[test]
    fn selection_gives_the_sorted_quantile() {
        let values = [3.0, -1.0, 7.5, 0.25, 2.0, 2.0, 9.0, -4.0, 5.5];
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        for p in [0.0, 0.025, 0.1, 0.5, 0.77, 0.975, 1.0] {
            let mut v = values.to_vec();
            assert_eq!(select_quantile(&mut v, p), quantile(&sorted, p), "{p}");
        }
    }
}
