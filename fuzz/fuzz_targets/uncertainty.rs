//! Arbitrary scores and settings through the uncertainty module: permutation
//! tests (plain and paired), bootstrap intervals (plain and paired),
//! `paired_comparison`, `standardise`, null moments (`spearman_null` with n
//! from the whole `usize` range, `kendall_tau_b_null`). Replicate counts and
//! their limits come from the whole `usize` range. Never a panic; counts over
//! the limit refused with `TooLarge` before any work; p-values in
//! [1/(m+1), 1]; intervals ordered; every field a number.
#![no_main]

use adaptive_comp_metrics::uncertainty::{
    Alternative, Bootstrap, ConfidenceInterval, Exchange, Interval, KendallTauB, NullMoments,
    PermutationTest, Permutations, Spearman, Statistic, Threads, TopWeightedRho, TopWeightedTau,
    UncertaintyError, VignaTau, kendall_tau_b_null, paired_comparison, spearman_null, standardise,
};
use arbitrary::Arbitrary;
use core::num::NonZeroUsize;
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

#[path = "support.rs"]
mod support;
use support::{Float, Plan, Size, Unit, floats, plan};

/// Replicates one call may run, and items per input.
const WORK: u128 = 48;
const MAX_ITEMS: usize = 40;

#[derive(Debug, Arbitrary)]
struct Scores {
    x: Vec<Float>,
    y: Vec<Float>,
    z: Vec<Float>,
    single: bool,
}

#[derive(Debug, Arbitrary)]
struct Settings {
    statistic: u8,
    replicates: Size,
    /// A custom limit (`max_replicates`), else the default.
    limit: Option<Size>,
    alternative: u8,
    threads: u8,
    swap_scores: bool,
    seed: u64,
}

#[derive(Debug, Arbitrary)]
enum Op {
    Test(Scores, Settings),
    Paired(Scores, Settings),
    Bootstrap(Scores, Settings, Unit, bool),
    PairedBootstrap(Scores, Settings, Unit, bool),
    PairedComparison(Scores, Settings),
    Standardise(Scores, Settings, bool),
    SpearmanNull(Size),
    KendallNull(Scores),
}

const STATS: usize = 5;

fn statistic(i: u8) -> &'static dyn Statistic {
    static RHO_W: std::sync::OnceLock<TopWeightedRho> = std::sync::OnceLock::new();
    static TAU_W: std::sync::OnceLock<TopWeightedTau> = std::sync::OnceLock::new();
    static VIGNA: std::sync::OnceLock<VignaTau> = std::sync::OnceLock::new();
    match usize::from(i) % STATS {
        0 => &Spearman,
        1 => &KendallTauB,
        2 => RHO_W.get_or_init(TopWeightedRho::new),
        3 => TAU_W.get_or_init(TopWeightedTau::new),
        _ => VIGNA.get_or_init(VignaTau::default),
    }
}

/// Whether `m` replicates run, must be refused, or are skipped (valid but
/// costly), under the limit in force.
fn replicate_plan(s: &Settings, default: usize) -> (Plan, usize) {
    let limit = s.limit.map_or(default, |l| l.0);
    (plan(s.replicates.0 as u128, WORK, limit as u128), limit)
}

/// The permutation plan of `s` under the limit in force.
fn permutation_plan(s: &Settings) -> (Plan, usize) {
    replicate_plan(s, Permutations::DEFAULT_MAX_REPLICATES)
}

/// The permutation plan of `s` with the default limit, the same for both
/// halves of a paired comparison.
fn default_plan(s: &Settings) -> (Plan, usize) {
    let limit = Permutations::DEFAULT_MAX_REPLICATES;
    (plan(s.replicates.0 as u128, WORK, limit as u128), limit)
}

/// What a run of `s` under the plan `(p, limit)` needs: the plan, the
/// limit, a generator seeded by `s.seed` and the statistic; `None` when
/// the plan skips it (too costly to run).
fn prepare(
    s: &Settings,
    (p, limit): (Plan, usize),
) -> Option<(Plan, usize, rand_chacha::ChaCha8Rng, &'static dyn Statistic)> {
    if p == Plan::Skip {
        return None;
    }
    Some((p, limit, rand_chacha::ChaCha8Rng::seed_from_u64(s.seed), statistic(s.statistic)))
}

fn threads(s: &Settings) -> Threads {
    match s.threads % 4 {
        0 => Threads::Available,
        k => Threads::Fixed(NonZeroUsize::new(usize::from(k)).unwrap()),
    }
}

fn alternative(s: &Settings) -> Alternative {
    [
        Alternative::TwoSided,
        Alternative::Greater,
        Alternative::Less,
    ][usize::from(s.alternative) % 3]
}

fn check_refused<T: core::fmt::Debug>(
    r: &Result<T, UncertaintyError>,
    requested: usize,
    limit: usize,
) {
    assert!(
        matches!(r, Err(UncertaintyError::TooLarge { requested: q, limit: l, .. })
            if *q == requested as u64 && *l == limit as u64),
        "{requested} over {limit}: {r:?}"
    );
}

fn check_test(t: &PermutationTest, range: f64) {
    let floor = 1.0 / (t.permutations as f64 + 1.0);
    assert!(t.p_value >= floor && t.p_value <= 1.0, "{t:?}");
    assert!((-range..=range).contains(&t.statistic), "{t:?}");
    for v in [t.standard_error, t.null_mean, t.null_sd] {
        assert!(v.is_finite(), "{t:?}");
    }
    assert!(t.at_least <= t.permutations && t.at_most <= t.permutations);
}

fn check_interval(ci: &ConfidenceInterval, range: f64) {
    assert!(
        -range <= ci.lower && ci.lower <= ci.upper && ci.upper <= range,
        "{ci:?}"
    );
    assert!(
        ci.estimate.is_finite() && ci.standard_error.is_finite(),
        "{ci:?}"
    );
    assert!(ci.bias_correction.is_none_or(f64::is_finite), "{ci:?}");
    assert!(ci.acceleration.is_none_or(f64::is_finite), "{ci:?}");
    assert!(ci.failed < ci.resamples);
}

fn check_null(n: &NullMoments) {
    for e in [n.mean, n.sd] {
        assert!(e.value.is_finite() && e.standard_error.is_finite(), "{n:?}");
    }
    assert!(n.sd.value >= 0.0 && n.mean.value.abs() <= 1.0, "{n:?}");
}

/// x, y, z cut to [`MAX_ITEMS`], as f64 or f32 scores.
macro_rules! with_scores {
    ($scores:expr, |$x:ident, $y:ident, $z:ident| $body:expr) => {{
        let cut = |v: &[Float]| floats(&v[..v.len().min(MAX_ITEMS)]);
        let (x, y, z) = (cut(&$scores.x), cut(&$scores.y), cut(&$scores.z));
        if $scores.single {
            let f = |v: &[f64]| v.iter().map(|&a| a as f32).collect::<Vec<f32>>();
            let ($x, $y, $z) = (f(&x), f(&y), f(&z));
            $body
        } else {
            let ($x, $y, $z) = (&x[..], &y[..], &z[..]);
            $body
        }
    }};
}

fn permutations(s: &Settings, limit: usize) -> Permutations {
    Permutations::new(s.replicates.0)
        .max_replicates(limit)
        .alternative(alternative(s))
        .threads(threads(s))
        .exchange(if s.swap_scores {
            Exchange::Scores
        } else {
            Exchange::Ranks
        })
}

fn bootstrap(s: &Settings, limit: usize, level: Unit, percentile: bool) -> Bootstrap {
    Bootstrap::new(s.replicates.0)
        .max_replicates(limit)
        .level(level.0)
        .threads(threads(s))
        .interval(if percentile {
            Interval::Percentile
        } else {
            Interval::Bca
        })
}

/// Bootstrap values take 8 bytes each: a count whose values cannot be
/// addressed must be refused even under a raised limit.
fn unaddressable(resamples: usize) -> bool {
    resamples as u128 * 8 > isize::MAX as u128
}

fn run_bootstrap(scores: &Scores, s: &Settings, level: Unit, percentile: bool, paired: bool) {
    let (mut p, limit) = replicate_plan(s, Bootstrap::DEFAULT_MAX_REPLICATES);
    if p == Plan::Skip && unaddressable(s.replicates.0) {
        p = Plan::Refuse;
    }
    let Some((p, limit, mut rng, stat)) = prepare(s, (p, limit)) else { return };
    with_scores!(scores, |x, y, z| {
        let boot = bootstrap(s, limit, level, percentile);
        let ci = if paired {
            boot.paired(stat, &x, &y, &z, &mut rng)
        } else {
            boot.run(stat, &x, &y, &mut rng)
        };
        let range = if paired { 2.0 } else { 1.0 };
        if p == Plan::Refuse && s.replicates.0 >= 2 {
            // The limit in force is capped at what one allocation of f64
            // values can address.
            let addressable = isize::MAX as usize / 8;
            check_refused(&ci, s.replicates.0, limit.min(addressable));
        } else if let (Plan::Run, Ok(ci)) = (p, &ci) {
            assert!(level.0 > 0.0 && level.0 < 1.0);
            check_interval(ci, range);
        }
    })
}

fuzz_target!(|ops: Vec<Op>| {
    for op in ops.into_iter().take(4) {
        match op {
            Op::Test(scores, s) => {
                let Some((p, limit, mut rng, stat)) = prepare(&s, permutation_plan(&s)) else {
                    continue;
                };
                with_scores!(scores, |x, y, _z| {
                    let perm = permutations(&s, limit);
                    let t = perm.test(stat, &x, &y, &mut rng);
                    let n = perm.null_moments(stat, &x, &y, &mut rng);
                    if p == Plan::Refuse {
                        check_refused(&t, s.replicates.0, limit);
                        if s.replicates.0 >= 2 {
                            check_refused(&n, s.replicates.0, limit);
                        }
                        continue;
                    }
                    if let Ok(t) = &t {
                        check_test(t, 1.0);
                    }
                    if let Ok(n) = &n {
                        check_null(n);
                    }
                })
            }
            Op::Paired(scores, s) => {
                let Some((p, limit, mut rng, stat)) = prepare(&s, permutation_plan(&s)) else {
                    continue;
                };
                with_scores!(scores, |x, y, z| {
                    let t = permutations(&s, limit).paired(stat, &x, &y, &z, &mut rng);
                    if p == Plan::Refuse {
                        check_refused(&t, s.replicates.0, limit);
                    } else if let Ok(t) = &t {
                        check_test(t, 2.0);
                    }
                })
            }
            Op::Bootstrap(scores, s, level, percentile) => {
                run_bootstrap(&scores, &s, level, percentile, false)
            }
            Op::PairedBootstrap(scores, s, level, percentile) => {
                run_bootstrap(&scores, &s, level, percentile, true)
            }
            Op::PairedComparison(scores, s) => {
                let Some((p, limit, mut rng, stat)) = prepare(&s, default_plan(&s)) else {
                    continue;
                };
                with_scores!(scores, |x, y, z| {
                    let c = paired_comparison(stat, &x, &y, &z, s.replicates.0, &mut rng);
                    if p == Plan::Refuse {
                        check_refused(&c, s.replicates.0, limit);
                    } else if let Ok(c) = &c {
                        for v in [c.value_a, c.value_b] {
                            assert!((-1.0..=1.0).contains(&v), "{c:?}");
                        }
                        assert_eq!(c.difference, c.value_a - c.value_b);
                        check_interval(&c.interval, 2.0);
                        check_test(&c.test, 2.0);
                    }
                })
            }
            Op::Standardise(scores, s, free) => {
                let Some((p, limit, mut rng, stat)) = prepare(&s, default_plan(&s)) else {
                    continue;
                };
                with_scores!(scores, |x, y, _z| {
                    let r = if free {
                        standardise(stat, &x, &y, s.replicates.0, &mut rng)
                    } else {
                        permutations(&s, limit).standardise(stat, &x, &y, &mut rng)
                    };
                    if p == Plan::Refuse {
                        check_refused(&r, s.replicates.0, limit);
                    } else if let Ok(r) = &r {
                        check_null(&r.null);
                        assert!(r.value.is_finite() && r.z.is_finite(), "{r:?}");
                    }
                })
            }
            Op::SpearmanNull(n) => match spearman_null(n.0) {
                Ok(m) => {
                    assert!(n.0 >= 3);
                    check_null(&m);
                    assert!(m.sd.value > 0.0);
                }
                Err(e) => {
                    assert!(n.0 < 3, "{e:?}");
                }
            },
            Op::KendallNull(scores) => with_scores!(scores, |x, y, _z| {
                if let Ok(m) = kendall_tau_b_null(&x, &y) {
                    check_null(&m);
                    assert!(m.sd.value > 0.0);
                }
            }),
        }
    }
});
