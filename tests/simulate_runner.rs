//! The simulation runner: reproducibility whatever the thread count, one
//! simulation equal to the run's, perfect voters, typed errors.
#![cfg(feature = "simulator")]

use adaptive_comp_metrics::simulate::{
    Arm, Estimate, Metric, SimError, Simulation, Underlying, VoterModel,
};

fn small() -> Simulation {
    Simulation::new(Underlying::exponential(120).unwrap(), 6, 0.5, 3)
        .unwrap()
        .n_voters(10)
        .unwrap()
}

fn perfect_voters() -> VoterModel {
    VoterModel::paper()
        .sigma_range(0.0, 0.0)
        .unwrap()
        .epsilon_range(0.0, 0.0)
        .unwrap()
}

#[test]
fn reports_do_not_depend_on_the_thread_count() {
    let sim = small();
    let one = sim.run_with_threads(7, 42, 1).unwrap();
    for threads in [2, 3, 8] {
        assert_eq!(sim.run_with_threads(7, 42, threads).unwrap(), one);
    }
    assert_eq!(sim.run(7, 42).unwrap(), one);
    // Another seed gives other values.
    assert_ne!(sim.run_with_threads(7, 43, 2).unwrap(), one);
}

#[test]
fn one_simulation_is_the_runs_simulation() {
    let sim = small();
    let report = sim.run_with_threads(4, 9, 2).unwrap();
    for i in 0..4 {
        let run = sim.simulate(9, i).unwrap();
        for (k, name) in report.metrics.iter().enumerate() {
            assert_eq!(
                report.get(Arm::Uniform, name).unwrap().values[i],
                run.uniform_values[k]
            );
            assert_eq!(
                report.get(Arm::Adaptive, name).unwrap().values[i],
                run.adaptive_values[k]
            );
        }
    }
    assert_eq!(report.metrics, ["rho_w", "tau_w", "rho", "tau"]);
    assert!(report.get(Arm::Uniform, "nope").is_none());
}

#[test]
fn perfect_voters_recover_the_true_ranking() {
    // 6 items, each seen ~600 times against random others: with perfect
    // voters the Borda scores x_i estimate (#items below i)/5, separated by
    // 0.2 with SD ≤ 0.02, so the ranking is the true one.
    let z = Underlying::new(&[0.1, -0.9, 0.5, 0.3, -0.7, 0.0]).unwrap();
    let truth = [1, 4, 2, 3, 0, 5]; // by |z|
    let sim = Simulation::new(z, 600, 0.5, 2)
        .unwrap()
        .voters(perfect_voters());
    for i in 0..3 {
        let run = sim.simulate(5, i).unwrap();
        assert_eq!(run.uniform.ranking, truth);
        assert_eq!(run.adaptive.ranking[..3], truth[..3]);
        // Everything the uniform collection estimates is exactly right.
        assert_eq!(run.uniform_values, [1.0, 1.0, 1.0, 1.0]);
    }
}

#[test]
fn errors_are_typed() {
    let sim = small();
    assert!(matches!(
        sim.run(0, 1),
        Err(SimError::InvalidParameter {
            name: "simulations",
            ..
        })
    ));
    assert!(matches!(
        sim.run_with_threads(3, 1, 0),
        Err(SimError::InvalidParameter {
            name: "threads",
            ..
        })
    ));
    assert!(matches!(
        small().n_voters(0),
        Err(SimError::InvalidParameter {
            name: "n_voters",
            ..
        })
    ));
    // A metric that fails in simulation 2 is reported with its name and index.
    let failing = Metric::custom("picky", |e: &Estimate<'_>| {
        if e.scores[0] > 2.0 {
            Ok(0.0)
        } else {
            Err(adaptive_comp_metrics::Error::Undefined { reason: "always" })
        }
    });
    let err = sim
        .metrics(vec![failing])
        .run_with_threads(3, 1, 2)
        .unwrap_err();
    assert_eq!(
        err,
        SimError::Metric {
            metric: "picky".into(),
            simulation: 0,
            source: adaptive_comp_metrics::Error::Undefined { reason: "always" },
        }
    );
}

#[test]
fn a_panicking_metric_is_an_error_not_a_crash() {
    let boom = Metric::custom("boom", |_: &Estimate<'_>| panic!("user bug"));
    let err = small()
        .metrics(vec![boom])
        .run_with_threads(2, 1, 2)
        .unwrap_err();
    assert_eq!(err, SimError::ThreadPanicked);
}
