//! Arbitrary calls into the ballot module: configurations and plans
//! (`BallotConfig`, `plan`, `ballot_sizes`, `uniform_plan`), the pairing and
//! scoring functions (`random_matchings`, `spread_over_voters`,
//! `borda_score`, `rescaling_slope`, `select_top`), and schedulers (adaptive
//! or `Scheduler::uniform`) driven by sequences of operations: open, votes by
//! ticket or by pair (issued, bogus or out of range), close (strict or
//! withdrawing), serialise-restore, ranking. Saved states are also edited
//! (any JSON value anywhere) or given as arbitrary JSON, and whatever
//! restores is driven on. Every size comes from the whole `usize` range.
//!
//! Never a panic, never a lost or double-counted vote, a restored state equal
//! to the saved one, and sizes over the limits refused with `TooLarge`.
#![no_main]

use adaptive_comp_metrics::ballot::{
    AverageFrom, BallotConfig, BallotError, Design, Options, RankBy, Rounding, Scheduler, SelectOn,
    UniformBudget, Unvoted, Vote, ballot_sizes, borda_score, plan, random_matchings,
    rescaling_slope, select_top, spread_over_voters, uniform_plan,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[path = "support.rs"]
mod support;
use support::{Float, Plan, Size, SplitMix, Unit, floats, in_precision, plan as plan_size};

/// Items a scheduler built by this target may hold, and comparisons it, or
/// one pairing call, may issue (the library's limits are 2²⁴ and 2²⁶); and
/// the save-restore round trips of one drive (each O(comparisons)).
const WORK_ITEMS: u128 = 1024;
const WORK_COMPARISONS: u128 = 10_000;
const WORK_SAVES: usize = 16;

#[derive(Debug, Arbitrary)]
enum Alpha {
    Unit(Unit),
    Raw(Float),
}

impl Alpha {
    fn get(&self) -> f64 {
        match self {
            Alpha::Unit(u) => u.0,
            Alpha::Raw(f) => f.0,
        }
    }
}

#[derive(Debug, Arbitrary)]
struct ConfigIn {
    n: Size,
    m: Size,
    alpha: Alpha,
    n_ballots: Size,
    options: u8,
}

fn options(bits: u8) -> Options {
    let base = if bits & 1 == 0 {
        Options::paper()
    } else {
        Options::published()
    };
    let base = if bits & 2 == 0 {
        base
    } else {
        base.with_average(if bits & 4 == 0 {
            AverageFrom::FirstBallot
        } else {
            AverageFrom::SecondBallot
        })
        .with_selection(if bits & 8 == 0 {
            SelectOn::RunningAverage
        } else {
            SelectOn::LastScore
        })
        .with_rounding(if bits & 16 == 0 {
            Rounding::HalfAwayFromZero
        } else {
            Rounding::HalfToEven
        })
    };
    base.with_rank_by(if bits & 32 == 0 {
        base.rank_by()
    } else {
        RankBy::BallotThenScore
    })
}

impl ConfigIn {
    fn build(&self) -> Result<BallotConfig, BallotError> {
        BallotConfig::with_options(
            self.n.0,
            self.m.0,
            self.alpha.get(),
            self.n_ballots.0,
            options(self.options),
        )
    }
}

#[derive(Arbitrary, Debug)]
enum Step {
    Open,
    Ticket(Size, u8),
    /// A vote on the pair of an issued ticket (valid until its pair runs out).
    IssuedPair(u16, bool),
    Win(Size, Size),
    Tie(Size, Size),
    Close(bool),
    SaveRestore,
    Rank,
}

/// Where a path through a saved state ends, and what happens there.
#[derive(Arbitrary, Debug)]
enum Edit {
    Number(Size),
    Negative(i64),
    Float(Float),
    Null,
    Bool(bool),
    Text(u8),
    Remove,
    Duplicate,
    Swap(u8),
    EmptyArray,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Config(ConfigIn),
    Sizes {
        n: Size,
        alpha: Alpha,
        n_ballots: Size,
        half_even: bool,
    },
    Matchings {
        items: Vec<Size>,
        m: Size,
        seed: u64,
    },
    Spread {
        comparisons: Size,
        voters: Size,
        seed: u64,
    },
    Borda {
        wins: Size,
        ties: Size,
        appearances: Size,
    },
    Slope {
        x: Vec<Float>,
        y: Vec<Float>,
        single: bool,
    },
    SelectTop {
        keys: Vec<Float>,
        count: Size,
        seed: u64,
        single: bool,
    },
    /// A configuration as JSON: any numbers in its fields.
    ConfigJson {
        n: Size,
        m: Size,
        alpha: Float,
        n_ballots: Size,
        alpha_text: bool,
    },
    Run {
        config: ConfigIn,
        uniform: Option<bool>,
        steps: Vec<Step>,
        seed: u64,
    },
    Restore {
        config: ConfigIn,
        uniform: Option<bool>,
        steps: Vec<Step>,
        edits: Vec<(Vec<u8>, Edit)>,
        after: Vec<Step>,
        seed: u64,
    },
    RestoreText {
        text: String,
        after: Vec<Step>,
        seed: u64,
    },
}

fn refused(e: &BallotError) -> bool {
    matches!(
        e,
        BallotError::TooLarge { .. } | BallotError::Overflow { .. }
    )
}

/// Schedulers this target may build: few items and comparisons.
fn affordable(config: &BallotConfig, uniform: Option<UniformBudget>) -> bool {
    let comparisons = match uniform {
        Some(b) => uniform_plan(config, b).map_or(0, |p| p.comparisons),
        None => plan(config).total_comparisons,
    };
    config.n_items() as u128 <= WORK_ITEMS && u128::from(comparisons) <= WORK_COMPARISONS
}

fn check_config(c: &BallotConfig) {
    let p = plan(c);
    assert_eq!(p.sizes, c.ballot_sizes());
    assert_eq!(p.sizes.len(), c.n_ballots());
    assert_eq!(p.sizes.first(), Some(&c.n_items()));
    assert!(p.sizes.windows(2).all(|w| w[1] <= w[0] && w[1] >= 2));
    assert!(p.total_comparisons <= BallotConfig::MAX_COMPARISONS);
    assert_eq!(p.comparisons.iter().sum::<u64>(), p.total_comparisons);
    assert!(p.approx_total_comparisons.is_finite() && p.m_unif.is_finite());
    assert_eq!(
        ballot_sizes(
            c.n_items(),
            c.alpha(),
            c.n_ballots(),
            c.options().rounding()
        )
        .as_ref(),
        Ok(&p.sizes)
    );
    for b in [
        UniformBudget::SameComparisons,
        UniformBudget::RoundedAppearances,
    ] {
        match uniform_plan(c, b) {
            Ok(u) => {
                assert!(u.comparisons <= BallotConfig::MAX_COMPARISONS);
                assert!(u.items_with_extra < c.n_items());
                assert_eq!(
                    2 * u128::from(u.comparisons),
                    c.n_items() as u128 * u.appearances as u128 + u.items_with_extra as u128
                );
                if b == UniformBudget::SameComparisons {
                    assert_eq!(u.comparisons, p.total_comparisons);
                }
                if affordable(c, Some(b)) {
                    let s = Scheduler::uniform(*c, b).expect("the plan fits");
                    assert_eq!(s.ballot_sizes(), &[c.n_items()]);
                }
            }
            Err(e) => {
                assert!(refused(&e), "{e:?}");
                assert_eq!(Scheduler::uniform(*c, b).err(), Some(e));
            }
        }
    }
    let json = serde_json::to_string(c).expect("a configuration serialises");
    let back: BallotConfig = serde_json::from_str(&json).expect("a valid configuration restores");
    assert_eq!(&back, c);
}

/// Drives `s` through `steps`; a failed step changes nothing.
fn drive(s: &mut Scheduler, steps: &[Step], rng: &mut SplitMix) {
    let n = s.config().n_items();
    let mut accepted = s.total_votes();
    let mut saves = 0;
    for step in steps.iter().take(2000) {
        let before = s.total_votes();
        let ok = match *step {
            Step::Open => {
                if let Ok(c) = s.open_ballot(rng) {
                    assert!(
                        c.iter()
                            .all(|c| c.first != c.second && c.first < n && c.second < n)
                    );
                }
                false
            }
            Step::Ticket(t, v) => {
                let v = [Vote::First, Vote::Second, Vote::Tie][usize::from(v % 3)];
                s.record(t.0, v).is_ok()
            }
            Step::IssuedPair(t, tie) => match s.comparisons().get(usize::from(t)).copied() {
                Some(c) if tie => s.record_tie(c.second, c.first).is_ok(),
                Some(c) => s.record_win(c.second, c.first).is_ok(),
                None => false,
            },
            Step::Win(a, b) => s.record_win(a.0, b.0).is_ok(),
            Step::Tie(a, b) => s.record_tie(a.0, b.0).is_ok(),
            Step::Close(strict) => {
                let policy = if strict {
                    Unvoted::Reject
                } else {
                    Unvoted::Withdraw
                };
                if let Ok(h) = s.close_ballot(policy) {
                    assert!(
                        h.x.iter()
                            .chain(&h.y)
                            .chain(&h.y_bar)
                            .chain([&h.b_hat])
                            .all(|v| v.is_finite())
                    );
                    assert!(h.x.iter().all(|&x| (0.0..=1.0).contains(&x)));
                    assert_eq!(h.appearances.iter().sum::<u64>(), 2 * h.votes);
                }
                false
            }
            Step::SaveRestore if saves < WORK_SAVES => {
                saves += 1;
                let json = serde_json::to_string(&*s).expect("a scheduler always serialises");
                let back: Scheduler = serde_json::from_str(&json).expect("a saved state restores");
                assert_eq!(back.logs(), s.logs());
                assert_eq!(back.history(), s.history());
                assert_eq!(back.phase(), s.phase());
                *s = back;
                false
            }
            Step::SaveRestore => false,
            Step::Rank => {
                if let Ok(r) = s.ranking(rng) {
                    let mut items = r.items();
                    items.sort_unstable();
                    assert_eq!(items, (0..n).collect::<Vec<_>>());
                    assert!(r.entries.iter().all(|e| e.score.is_finite()));
                }
                false
            }
        };
        accepted += u64::from(ok);
        assert_eq!(s.total_votes(), before + u64::from(ok));
        assert_eq!(s.total_votes(), accepted);
    }
    let logged: usize = s
        .logs()
        .iter()
        .map(|l| l.votes().iter().flatten().count())
        .sum();
    assert_eq!(logged as u64, accepted);
}

fn new_scheduler(config: &ConfigIn, uniform: Option<bool>) -> Option<Scheduler> {
    let c = config.build().ok()?;
    let budget = uniform.map(|rounded| {
        if rounded {
            UniformBudget::RoundedAppearances
        } else {
            UniformBudget::SameComparisons
        }
    });
    if !affordable(&c, budget) {
        return None;
    }
    match budget {
        None => Some(Scheduler::new(c)),
        Some(b) => Scheduler::uniform(c, b).ok(),
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_))
}

fn set(v: &mut Value, e: &Edit) {
    *v = match e {
        Edit::Number(n) => Value::from(n.u64()),
        Edit::Negative(i) => Value::from(*i),
        Edit::Float(f) => serde_json::Number::from_f64(f.0).map_or(Value::Null, Value::Number),
        Edit::Null | Edit::Remove | Edit::Duplicate | Edit::Swap(_) => Value::Null,
        Edit::Bool(b) => Value::Bool(*b),
        Edit::Text(t) => Value::from(
            [
                "First",
                "Second",
                "Tie",
                "Adaptive",
                "SameComparisons",
                "",
                "x",
            ][usize::from(*t) % 7],
        ),
        Edit::EmptyArray => Value::Array(Vec::new()),
    };
}

/// Applies `e` at the end of `path` (each step picks a child, modulo the
/// number of children; the path stops at a scalar).
fn edit(v: &mut Value, path: &[u8], e: &Edit) {
    let Some((&step, rest)) = path.split_first() else {
        set(v, e);
        return;
    };
    match v {
        Value::Array(a) if !a.is_empty() => {
            let i = usize::from(step) % a.len();
            if !rest.is_empty() && is_container(&a[i]) {
                return edit(&mut a[i], rest, e);
            }
            match e {
                Edit::Remove => {
                    a.remove(i);
                }
                Edit::Duplicate => {
                    let c = a[i].clone();
                    a.insert(i, c);
                }
                Edit::Swap(j) => {
                    let j = usize::from(*j) % a.len();
                    a.swap(i, j);
                }
                _ => set(&mut a[i], e),
            }
        }
        Value::Object(o) if !o.is_empty() => {
            let i = usize::from(step) % o.len();
            let Some(key) = o.keys().nth(i).cloned() else {
                return;
            };
            if !rest.is_empty() && o.get(&key).is_some_and(is_container) {
                if let Some(child) = o.get_mut(&key) {
                    edit(child, rest, e);
                }
                return;
            }
            match e {
                Edit::Remove => {
                    o.remove(&key);
                }
                _ => {
                    if let Some(child) = o.get_mut(&key) {
                        set(child, e);
                    }
                }
            }
        }
        _ => set(v, e),
    }
}

/// Restores a scheduler from `value` unless its configuration is valid but
/// too large for this target (restoring allocates per item before it checks
/// the ballots); whatever restores is driven on.
fn restore(value: Value, after: &[Step], seed: u64) {
    let n_items = value
        .get("config")
        .and_then(|c| c.get("n_items"))
        .and_then(Value::as_u64);
    if n_items.is_some_and(|n| u128::from(n) > WORK_ITEMS) {
        // Still refused or accepted without panicking when over the limit.
        if n_items.is_some_and(|n| n > BallotConfig::MAX_ITEMS as u64) {
            assert!(serde_json::from_value::<Scheduler>(value).is_err());
        }
        return;
    }
    if let Ok(mut s) = serde_json::from_value::<Scheduler>(value) {
        let budget = match s.design() {
            Design::Adaptive => None,
            Design::Uniform(b) => Some(b),
        };
        if affordable(s.config(), budget) {
            drive(&mut s, after, &mut SplitMix(seed));
        }
    }
}

fuzz_target!(|ops: Vec<Op>| {
    for op in ops.into_iter().take(16) {
        match op {
            Op::Config(c) => match c.build() {
                Ok(config) => check_config(&config),
                Err(e) => {
                    let n = c.n.0 as u128;
                    if n > BallotConfig::MAX_ITEMS as u128 && c.m.0 > 0 {
                        assert!(refused(&e), "{e:?}");
                    }
                }
            },
            Op::Sizes {
                n,
                alpha,
                n_ballots,
                half_even,
            } => {
                let r = if half_even {
                    Rounding::HalfToEven
                } else {
                    Rounding::HalfAwayFromZero
                };
                if let Ok(s) = ballot_sizes(n.0, alpha.get(), n_ballots.0, r) {
                    assert_eq!(s.len(), n_ballots.0);
                    assert!(s.windows(2).all(|w| w[1] <= w[0] && w[1] >= 2));
                }
            }
            Op::Matchings { items, m, seed } => {
                let items: Vec<usize> = items.iter().take(64).map(|s| s.0).collect();
                let requested = (items.len() as u128 * m.0 as u128).div_ceil(2);
                let p = plan_size(
                    requested,
                    WORK_COMPARISONS,
                    BallotConfig::MAX_COMPARISONS.into(),
                );
                if p == Plan::Skip {
                    continue;
                }
                match random_matchings(&items, m.0, &mut SplitMix(seed)) {
                    Ok(pairs) => {
                        assert_eq!(p, Plan::Run);
                        assert_eq!(pairs.len() as u128, requested);
                        assert!(pairs.iter().all(|c| c.first != c.second
                            && items.contains(&c.first)
                            && items.contains(&c.second)));
                    }
                    Err(e) => {
                        if p == Plan::Refuse && items.len() >= 2 {
                            assert!(refused(&e), "{e:?}");
                        }
                    }
                }
            }
            Op::Spread {
                comparisons,
                voters,
                seed,
            } => {
                let (c, v) = (comparisons.0 as u128, voters.0 as u128);
                let p = if c > BallotConfig::MAX_COMPARISONS.into()
                    || v > BallotConfig::MAX_VOTERS as u128
                {
                    Plan::Refuse
                } else if c <= WORK_COMPARISONS && v <= WORK_COMPARISONS {
                    Plan::Run
                } else {
                    Plan::Skip
                };
                if p == Plan::Skip {
                    continue;
                }
                match spread_over_voters(comparisons.0, voters.0, &mut SplitMix(seed)) {
                    Ok(shares) => {
                        assert_eq!(p, Plan::Run);
                        assert_eq!(shares.len(), voters.0);
                        let mut all: Vec<usize> = shares.concat();
                        all.sort_unstable();
                        assert_eq!(all, (0..comparisons.0).collect::<Vec<_>>());
                        let base = comparisons.0 / voters.0;
                        assert!(
                            shares
                                .iter()
                                .all(|s| s.len() == base || s.len() == base + 1)
                        );
                    }
                    Err(e) => {
                        if p == Plan::Refuse && voters.0 > 0 {
                            assert!(refused(&e), "{e:?}");
                        }
                    }
                }
            }
            Op::Borda {
                wins,
                ties,
                appearances,
            } => {
                if let Ok(x) = borda_score(wins.u64(), ties.u64(), appearances.u64()) {
                    assert!((0.0..=1.0).contains(&x), "{x}");
                }
            }
            Op::Slope { x, y, single } => {
                let (x, y) = (floats(&x), floats(&y));
                let b = if single {
                    let f = |v: &[f64]| v.iter().map(|&a| a as f32).collect::<Vec<f32>>();
                    rescaling_slope(&f(&x), &f(&y))
                } else {
                    rescaling_slope(&x, &y)
                };
                if let Ok(b) = b {
                    // Finite inputs can still overflow the sums of squares;
                    // the slope must never be NaN.
                    assert!(!b.is_nan(), "slope {b} of {x:?}, {y:?}");
                }
            }
            Op::SelectTop {
                keys,
                count,
                seed,
                single,
            } => {
                let keys = floats(&keys);
                let top =
                    in_precision!(single, keys, |k| select_top(k, count.0, &mut SplitMix(seed)));
                if let Ok(top) = top {
                    assert_eq!(top.len(), count.0);
                    assert!(top.windows(2).all(|w| w[0] < w[1]));
                    if !single {
                        let lowest = top.iter().map(|&i| keys[i]).fold(f64::INFINITY, f64::min);
                        let rest_max = (0..keys.len())
                            .filter(|i| !top.contains(i))
                            .map(|i| keys[i])
                            .fold(f64::NEG_INFINITY, f64::max);
                        assert!(top.is_empty() || lowest >= rest_max);
                    }
                }
            }
            Op::ConfigJson {
                n,
                m,
                alpha,
                n_ballots,
                alpha_text,
            } => {
                let alpha = if alpha_text {
                    Value::from(format!("{}", alpha.0))
                } else {
                    serde_json::Number::from_f64(alpha.0).map_or(Value::Null, Value::Number)
                };
                let v = serde_json::json!({
                    "n_items": n.u64(), "m": m.u64(), "alpha": alpha, "n_ballots": n_ballots.u64(),
                    "options": Options::published(),
                });
                let text = v.to_string();
                if let Ok(c) = serde_json::from_str::<BallotConfig>(&text) {
                    check_config(&c);
                    assert_eq!(c.n_items(), n.0);
                }
            }
            Op::Run {
                config,
                uniform,
                steps,
                seed,
            } => {
                if let Some(mut s) = new_scheduler(&config, uniform) {
                    drive(&mut s, &steps, &mut SplitMix(seed));
                }
            }
            Op::Restore {
                config,
                uniform,
                steps,
                edits,
                after,
                seed,
            } => {
                let Some(mut s) = new_scheduler(&config, uniform) else {
                    continue;
                };
                let mut rng = SplitMix(seed);
                drive(&mut s, &steps, &mut rng);
                let mut value = serde_json::to_value(&s).expect("a scheduler serialises");
                for (path, e) in edits.iter().take(8) {
                    edit(&mut value, path, e);
                }
                restore(value, &after, rng.0);
            }
            Op::RestoreText { text, after, seed } => {
                if let Ok(value) = serde_json::from_str::<Value>(&text) {
                    // A configuration restores only if valid (O(n_b) work).
                    if let Ok(c) = serde_json::from_value::<BallotConfig>(value.clone()) {
                        check_config(&c);
                    }
                    restore(value, &after, seed);
                }
            }
        }
    }
});
