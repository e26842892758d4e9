//! The simulator on arbitrary distributions and parameters, every count
//! (items, voters, simulations, the simulation index, threads, a sweep's
//! budget and grid) from the whole `usize` range: runs, single simulations,
//! sweeps and summaries. Never a panic; sizes over the limits refused with a
//! typed error (fewer than 2 simulations too); every reported value a finite
//! number, metric values in [−1, 1]; reports independent of the thread count.
#![no_main]

use adaptive_comp_metrics::ballot::{BallotConfig, Options, UniformBudget, m_for_budget};
use adaptive_comp_metrics::simulate::{
    EqualOpinions, Judgement, Metric, Noise, Nonconformity, PowerLaw, SimulateError, Simulation,
    Summary, Underlying, VoterModel, sweep,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "support.rs"]
mod support;
use support::{Float, Plan, Size, Unit, floats, plan};

/// What one simulation of this target may cost: items, voters × items, and
/// comparisons of one collection; and the simulations of one call.
const WORK_ITEMS: u128 = 64;
const WORK_OPINIONS: u128 = 2048;
const WORK_COMPARISONS: u64 = 3000;
const WORK_SIMULATIONS: u128 = 3;

#[derive(Debug, Arbitrary)]
enum UnderlyingIn {
    Values(Vec<Float>),
    Exponential(Size),
    PowerLaw(Size, bool),
    SameArea,
}

#[derive(Debug, Arbitrary)]
struct SimIn {
    underlying: UnderlyingIn,
    m: Size,
    alpha: Unit,
    n_ballots: Size,
    sigma: (Float, Float),
    epsilon: (Float, Float),
    n_voters: Size,
    flags: u8,
}

impl SimIn {
    /// `off` when the flag `bit` is clear, else `on`.
    fn pick<T>(&self, bit: u8, off: T, on: T) -> T {
        if self.flags & bit == 0 { off } else { on }
    }
}

#[derive(Debug, Arbitrary)]
enum Op {
    Run {
        sim: SimIn,
        simulations: Size,
        threads: Size,
        seed: u64,
    },
    Simulate {
        sim: SimIn,
        index: Size,
        seed: u64,
    },
    Sweep {
        sim: SimIn,
        budget: Size,
        alphas: Vec<Unit>,
        n_ballots: Vec<Size>,
        metric: u8,
        simulations: Size,
        seed: u64,
    },
    Summary {
        values: Vec<Float>,
        published: (Float, Float),
        runs: Size,
    },
}

fn underlying(u: &UnderlyingIn) -> Option<Underlying> {
    let n = match u {
        UnderlyingIn::Values(z) => return Underlying::new(&floats(&z[..z.len().min(64)])).ok(),
        UnderlyingIn::SameArea => return Underlying::same_area().ok(),
        UnderlyingIn::Exponential(n) | UnderlyingIn::PowerLaw(n, _) => n.0,
    };
    // Building costs O(N): only small distributions are built; above the
    // limit the refusal is checked.
    let p = plan(n as u128, WORK_ITEMS, BallotConfig::MAX_ITEMS as u128);
    if p == Plan::Skip {
        return None;
    }
    let r = match u {
        UnderlyingIn::Exponential(_) => Underlying::exponential(n),
        UnderlyingIn::PowerLaw(_, paper) => Underlying::power_law(
            n,
            if *paper {
                PowerLaw::Paper
            } else {
                PowerLaw::Published
            },
        ),
        _ => unreachable!(),
    };
    if p == Plan::Refuse {
        assert!(matches!(r, Err(SimulateError::TooLarge { .. })), "{r:?}");
        return None;
    }
    let r = r.ok()?;
    assert!(r.z().iter().all(|z| (-1.0..=1.0).contains(z)));
    Some(r)
}

/// How a run of `s` simulations goes: refused (fewer than 2, or over the
/// limit), skipped (too costly here) or run.
fn simulations_plan(s: usize) -> Plan {
    if s < 2 {
        return Plan::Refuse;
    }
    plan(s as u128, WORK_SIMULATIONS, Simulation::MAX_SIMULATIONS as u128)
}

/// A simulation small enough to run, or `None` (invalid, or too costly).
fn simulation(s: &SimIn) -> Option<Simulation> {
    let underlying = underlying(&s.underlying)?;
    let n = underlying.len();
    let options = s.pick(1, Options::paper(), Options::published());
    let config = BallotConfig::with_options(n, s.m.0, s.alpha.0, s.n_ballots.0, options).ok()?;
    if n as u128 > WORK_ITEMS {
        return None;
    }
    let voters = s.n_voters.0 as u128;
    let p = plan(
        voters * n as u128,
        WORK_OPINIONS,
        Simulation::MAX_OPINIONS as u128,
    );
    let sim = Simulation::new(underlying, config).expect("same item count");
    let sim = match (p, sim.n_voters(s.n_voters.0)) {
        (Plan::Refuse, r) => {
            assert!(matches!(r, Err(SimulateError::TooLarge { .. })), "{r:?}");
            return None;
        }
        (Plan::Skip, _) => return None,
        (Plan::Run, r) => r.ok()?,
    };
    let model = VoterModel::paper()
        .sigma_range(s.sigma.0.0, s.sigma.1.0)
        .ok()?
        .epsilon_range(s.epsilon.0.0, s.epsilon.1.0)
        .ok()?
        .noise(s.pick(2, Noise::PerItem, Noise::PerComparison))
        .judgement(s.pick(4, Judgement::Relatedness, Judgement::Similarity))
        .nonconformity(s.pick(8, Nonconformity::Paper, Nonconformity::Published))
        .equal_opinions(s.pick(32, EqualOpinions::CoinFlip, EqualOpinions::FirstShown));
    let budget = s.pick(16, UniformBudget::SameComparisons, UniformBudget::RoundedAppearances);
    let adaptive = adaptive_comp_metrics::ballot::plan(sim.config()).total_comparisons;
    let uniform = adaptive_comp_metrics::ballot::uniform_plan(sim.config(), budget)
        .map_or(0, |p| p.comparisons);
    if adaptive.max(uniform) > WORK_COMPARISONS {
        return None;
    }
    Some(sim.voters(model).uniform_budget(budget))
}

fn check_summary(s: &Summary) {
    assert!(s.values.len() >= 2);
    for v in [s.mean, s.sd, s.se] {
        assert!(v.is_finite(), "{s:?}");
    }
    assert!(s.sd >= 0.0 && s.se >= 0.0);
}

/// Refusals of the simulation count that come before any work.
fn check_count_refusal(simulations: usize, r: Result<impl core::fmt::Debug, SimulateError>) {
    match simulations {
        0 | 1 => assert!(
            matches!(r, Err(SimulateError::TooFewSimulations { needed: 2, got }) if got == simulations),
            "{r:?}"
        ),
        _ => assert!(matches!(r, Err(SimulateError::TooLarge { .. })), "{r:?}"),
    }
}

fuzz_target!(|ops: Vec<Op>| {
    for op in ops.into_iter().take(4) {
        match op {
            Op::Run {
                sim,
                simulations,
                threads,
                seed,
            } => {
                let Some(sim) = simulation(&sim) else {
                    continue;
                };
                let s = simulations.0;
                let p = simulations_plan(s);
                if p == Plan::Refuse {
                    check_count_refusal(s, sim.run_with_threads(s, seed, threads.0.max(1)));
                    check_count_refusal(s, sim.run(s, seed));
                    continue;
                }
                if p == Plan::Skip {
                    continue;
                }
                let r = sim.run_with_threads(s, seed, threads.0);
                if threads.0 == 0 {
                    assert!(matches!(r, Err(SimulateError::InvalidParameter { .. })), "{r:?}");
                    continue;
                }
                // Constant estimates or truths are typed metric errors.
                let Ok(report) = r else { continue };
                assert_eq!(report.simulations, s);
                for summary in report.uniform.iter().chain(&report.adaptive) {
                    check_summary(summary);
                    for v in &summary.values {
                        assert!((-1.0 - 1e-9..=1.0 + 1e-9).contains(v), "metric value {v}");
                    }
                }
                assert_eq!(sim.run_with_threads(s, seed, 1).ok(), Some(report));
            }
            Op::Simulate { sim, index, seed } => {
                let Some(sim) = simulation(&sim) else {
                    continue;
                };
                let r = sim.simulate(seed, index.0);
                if index.0 >= Simulation::MAX_SIMULATIONS {
                    assert!(matches!(r, Err(SimulateError::TooLarge { .. })), "{r:?}");
                    continue;
                }
                if let Ok(run) = r {
                    for v in run.uniform_values.iter().chain(&run.adaptive_values) {
                        assert!((-1.0 - 1e-9..=1.0 + 1e-9).contains(v), "metric value {v}");
                    }
                    for c in [&run.uniform, &run.adaptive] {
                        assert!(c.scores.iter().all(|s| s.is_finite()));
                        let mut r = c.ranking.clone();
                        r.sort_unstable();
                        assert_eq!(r, (0..c.scores.len()).collect::<Vec<_>>());
                    }
                }
            }
            Op::Sweep {
                sim,
                budget,
                alphas,
                n_ballots,
                metric,
                simulations,
                seed,
            } => {
                let Some(sim) = simulation(&sim) else {
                    continue;
                };
                let alphas: Vec<f64> = alphas.iter().take(3).map(|a| a.0).collect();
                let n_ballots: Vec<usize> = n_ballots.iter().take(3).map(|s| s.0).collect();
                let metric = [
                    Metric::rho_w(),
                    Metric::tau_w(),
                    Metric::rho(),
                    Metric::tau(),
                ][usize::from(metric) % 4]
                    .clone();
                let s = simulations.0;
                let p = simulations_plan(s);
                if p == Plan::Refuse {
                    let r = sweep(&sim, budget.u64(), &alphas, &n_ballots, &metric, s, seed);
                    check_count_refusal(s, r);
                    continue;
                }
                if p == Plan::Skip {
                    continue;
                }
                // Every grid point that would run must be small.
                let n = sim.config().n_items();
                let rounding = sim.config().options().rounding();
                let costly = alphas.iter().any(|&a| {
                    n_ballots.iter().any(|&nb| {
                        let Ok(m) = m_for_budget(n, a, nb, rounding, budget.u64()) else {
                            return false;
                        };
                        let options = sim.config().options();
                        BallotConfig::with_options(n, m, a, nb, options).is_ok_and(|c| {
                            adaptive_comp_metrics::ballot::plan(&c).total_comparisons
                                > WORK_COMPARISONS
                        })
                    })
                });
                if costly {
                    continue;
                }
                let r = sweep(&sim, budget.u64(), &alphas, &n_ballots, &metric, s, seed);
                if alphas.is_empty() || n_ballots.is_empty() {
                    assert!(matches!(r, Err(SimulateError::InvalidParameter { .. })), "{r:?}");
                    continue;
                }
                let Ok(sw) = r else { continue };
                assert_eq!(
                    sw.points.len() + sw.skipped.len(),
                    alphas.len() * n_ballots.len()
                );
                for p in &sw.points {
                    check_summary(&p.summary);
                    assert!(p.comparisons <= budget.u64());
                    assert!(p.m >= 1);
                }
                if let Some(b) = sw.best_point() {
                    assert!(sw.points.iter().all(|p| p.summary.mean <= b.summary.mean));
                    assert!(
                        sw.indistinguishable_from_best(0.0)
                            .contains(&sw.best.unwrap())
                    );
                } else {
                    assert!(sw.points.is_empty());
                }
            }
            Op::Summary {
                values,
                published,
                runs,
            } => {
                let values = floats(&values);
                match Summary::of(&values) {
                    Ok(s) => {
                        check_summary(&s);
                        if let Some(z) = s.z_score(published.0.0, published.1.0, runs.0) {
                            assert!(z.is_finite());
                        }
                    }
                    Err(e) => assert!(
                        values.len() < 2
                            || values.iter().any(|v| !v.is_finite())
                            || matches!(e, SimulateError::InvalidParameter { .. }),
                        "{e:?}"
                    ),
                }
            }
        }
    }
});
