//! The O(n²) definitions, written plainly: the oracle for the O(n log n)
//! kernel in tests, fuzzing and benchmarks.

use super::{Combine, NanPolicy, Rank, WeightedTau, WeightedTauOptions, WeightedTauStats, keys_xy};
use crate::correlation::error::{CorrelationError, Result, check_pair_len, check_weights};
use crate::sum::Neumaier;
use crate::weigh::Weigher;
use num_traits::Float;

/// [`weighted_kendall`](super::weighted_kendall) by its definition, looking
/// at every pair: O(n²).
///
/// ```text
/// for i < j:  w = u_i + u_j  or  u_i·u_j
///             s = sgn(x_i − x_j)·sgn(y_i − y_j)
///             C += w if s > 0;  D += w if s < 0;  ties by which sign is 0
/// τ = (C − D) / sqrt(Σ_{x_i≠x_j} w · Σ_{y_i≠y_j} w)
/// ```
///
/// # Errors
/// As [`weighted_kendall`](super::weighted_kendall) (no internal rescaling:
/// weights whose pair products overflow give a non-finite result here).
///
/// # Complexity
/// O(n²) time, O(n) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{weighted_kendall, weighted_kendall_naive, Combine};
/// let (x, y, u) = ([1.0, 2.0, 2.0, 5.0], [3.0, 1.0, 2.0, 2.0], [0.5, 0.25, 1.0, 2.0]);
/// let slow = weighted_kendall_naive(&x, &y, &u, Combine::Additive)?;
/// let fast = weighted_kendall(&x, &y, &u, Combine::Additive)?;
/// assert!((slow.tau - fast.tau).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn weighted_kendall_naive<F: Float>(
    x: &[F],
    y: &[F],
    u: &[f64],
    combine: Combine,
) -> Result<WeightedTauStats> {
    let (xs, ys) = keys_xy(x, y, NanPolicy::Error)?;
    check_pair_len("x", x, "u", u, 2)?;
    check_weights(u)?;
    naive(&xs, &ys, u, combine)
}

/// The pair loop on validated keys.
fn naive(x: &[f64], y: &[f64], u: &[f64], combine: Combine) -> Result<WeightedTauStats> {
    let n = x.len();
    let mut total = Neumaier::default();
    let mut tied_x = Neumaier::default();
    let mut tied_y = Neumaier::default();
    let mut tied_xy = Neumaier::default();
    let mut untied_x = Neumaier::default();
    let mut untied_y = Neumaier::default();
    let mut concordant = Neumaier::default();
    let mut discordant = Neumaier::default();
    for i in 0..n {
        for j in i + 1..n {
            let w = match combine {
                Combine::Additive => u[i] + u[j],
                Combine::Multiplicative => u[i] * u[j],
            };
            total.add(w);
            let sx = sign(x[i] - x[j]);
            let sy = sign(y[i] - y[j]);
            if sx == 0 {
                tied_x.add(w);
            } else {
                untied_x.add(w);
            }
            if sy == 0 {
                tied_y.add(w);
            } else {
                untied_y.add(w);
            }
            match sx * sy {
                0 if sx == 0 && sy == 0 => tied_xy.add(w),
                0 => {}
                s if s > 0 => concordant.add(w),
                _ => discordant.add(w),
            }
        }
    }
    if x.iter().all(|&v| v == x[0]) {
        return Err(CorrelationError::Constant { input: "x" });
    }
    if y.iter().all(|&v| v == y[0]) {
        return Err(CorrelationError::Constant { input: "y" });
    }
    let (ux, uy) = (untied_x.value(), untied_y.value());
    if ux <= 0.0 || uy <= 0.0 {
        return Err(CorrelationError::Undefined {
            reason: "every pair untied in x or in y has zero weight",
        });
    }
    let (c, d) = (concordant.value(), discordant.value());
    Ok(WeightedTauStats {
        total: total.value(),
        tied_x: tied_x.value(),
        tied_y: tied_y.value(),
        tied_xy: tied_xy.value(),
        untied_x: ux,
        untied_y: uy,
        concordant: c,
        discordant: d,
        tau: ((c - d) / ux.sqrt() / uy.sqrt()).clamp(-1.0, 1.0),
    })
}

fn sign(d: f64) -> i32 {
    if d > 0.0 {
        1
    } else if d < 0.0 {
        -1
    } else {
        0
    }
}

/// [`weighted_tau_stats`](super::weighted_tau_stats) by its definition:
/// importance ranks by counting, then every pair. O(n²).
///
/// ```text
/// ByXY:   ρ_i = #{j : (x_j, y_j) > (x_i, y_i)} + #{j > i : (x_j, y_j) = (x_i, y_i)}
/// ByYX:   the same with (y, x)
/// Index:  ρ_i = i
/// Given:  ρ_i = #{distinct values of r below r_i}
/// u_i = f(ρ_i + 1), then weighted_kendall_naive; Symmetric averages ByXY and ByYX.
/// ```
///
/// # Errors
/// As [`weighted_tau`](super::weighted_tau), except that the `index` of
/// [`CorrelationError::InvalidWeight`] is the item's index.
///
/// # Complexity
/// O(n²) time, O(n) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::correlation::vigna::{weighted_tau_naive, WeightedTauOptions};
/// let (x, y) = ([12.0, 2.0, 1.0, 12.0, 2.0], [1.0, 4.0, 7.0, 1.0, 0.0]);
/// let t = weighted_tau_naive(&x, &y, &WeightedTauOptions::default())?;
/// assert!((t.tau - -0.5669496815368272).abs() < 1e-15); // SciPy's documented value
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub fn weighted_tau_naive<F: Float, W: Weigher>(
    x: &[F],
    y: &[F],
    opts: &WeightedTauOptions<'_, W>,
) -> Result<WeightedTau> {
    let (xs, ys) = keys_xy(x, y, opts.nan)?;
    let n = xs.len();
    let by = |first: &[f64], second: &[f64]| -> Vec<usize> {
        (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| {
                        let above =
                            first[j] > first[i] || (first[j] == first[i] && second[j] > second[i]);
                        let tied_later = first[j] == first[i] && second[j] == second[i] && j > i;
                        above || tied_later
                    })
                    .count()
            })
            .collect()
    };
    let one = |rho: &[usize]| -> Result<WeightedTauStats> {
        let u: Vec<f64> = rho
            .iter()
            .map(|&r| opts.weigher.weight((r + 1) as f64))
            .collect();
        check_weights(&u)?;
        naive(&xs, &ys, &u, opts.combine)
    };
    let single = |stats: WeightedTauStats| WeightedTau {
        tau: stats.tau,
        stats,
        stats_yx: None,
    };
    match opts.rank {
        Rank::Symmetric => {
            let stats = one(&by(&xs, &ys))?;
            let stats_yx = one(&by(&ys, &xs))?;
            Ok(WeightedTau {
                tau: 0.5 * (stats.tau + stats_yx.tau),
                stats,
                stats_yx: Some(stats_yx),
            })
        }
        Rank::ByXY => one(&by(&xs, &ys)).map(single),
        Rank::ByYX => one(&by(&ys, &xs)).map(single),
        Rank::Index => one(&(0..n).collect::<Vec<_>>()).map(single),
        Rank::Given(r) => {
            check_pair_len("x", x, "rank", r, 2)?;
            let mut distinct = Vec::with_capacity(n);
            for (i, &v) in r.iter().enumerate() {
                distinct.push(super::key(v, "rank", i, NanPolicy::Error)?);
            }
            let rho: Vec<usize> = distinct
                .iter()
                .map(|&v| {
                    let mut below: Vec<f64> = distinct.iter().copied().filter(|&w| w < v).collect();
                    below.sort_by(f64::total_cmp);
                    below.dedup();
                    below.len()
                })
                .collect();
            one(&rho).map(single)
        }
    }
}
