//! The (α, n_b) sweep at a budget: M maximal within the budget, invalid
//! points skipped, values identical to the runner's adaptive arm.
#![cfg(feature = "simulator")]

use adaptive_comp_metrics::ballot::{BallotConfig, plan};
use adaptive_comp_metrics::simulate::{Arm, Metric, SimulateError, Simulation, Underlying, sweep};

fn base() -> Simulation {
    crate::small_simulation(200, 10, 20)
}

#[test]
fn grid_points_spend_the_budget_and_match_the_runner() {
    let budget = 4_000;
    let s = sweep(
        &base(),
        budget,
        &[0.3, 0.5, 0.7],
        &[2, 3, 12],
        &Metric::rho_w(),
        5,
        3,
    )
    .unwrap();
    assert_eq!(s.metric, "rho_w");
    assert_eq!(s.points.len() + s.skipped.len(), 9);
    // α = 0.3 with 12 ballots leaves fewer than 2 items in the last ballot.
    assert!(
        s.skipped
            .iter()
            .any(|k| k.alpha == 0.3 && k.n_ballots == 12)
    );
    for p in &s.points {
        let c = BallotConfig::new(200, p.m, p.alpha, p.n_ballots).unwrap();
        assert_eq!(plan(&c).total_comparisons, p.comparisons);
        assert!(p.comparisons <= budget);
        // M is the largest that fits.
        if let Ok(bigger) = BallotConfig::new(200, p.m + 1, p.alpha, p.n_ballots) {
            assert!(plan(&bigger).total_comparisons > budget);
        }
        // Same crowds and streams as the runner: identical values.
        let sim = Simulation::new(Underlying::exponential(200).unwrap(), c)
            .unwrap()
            .n_voters(20)
            .unwrap()
            .metrics(vec![Metric::rho_w()]);
        let r = sim.run(5, 3).unwrap();
        assert_eq!(r.get(Arm::Adaptive, "rho_w").unwrap(), &p.summary);
    }
    let best = s.best_point().unwrap();
    assert!(s.points.iter().all(|p| p.summary.mean <= best.summary.mean));
    let close = s.indistinguishable_from_best(2.0);
    assert!(close.contains(&s.best.unwrap()));
    assert!(s.indistinguishable_from_best(0.0).len() <= close.len());
}

#[test]
fn bad_sweeps_are_errors() {
    let m = Metric::rho_w();
    assert!(matches!(
        sweep(&base(), 4_000, &[0.5], &[2], &m, 0, 1),
        Err(SimulateError::TooFewSimulations { needed: 2, got: 0 })
    ));
    assert!(matches!(
        sweep(&base(), 4_000, &[], &[2], &m, 2, 1),
        Err(SimulateError::InvalidParameter { name: "grid", .. })
    ));
    // A budget below M = 1 everywhere: every point skipped, no best.
    let s = sweep(&base(), 10, &[0.5, 1.5], &[2], &m, 2, 1).unwrap();
    assert!(s.points.is_empty() && s.best.is_none() && s.skipped.len() == 2);
    assert!(s.indistinguishable_from_best(2.0).is_empty());
}
