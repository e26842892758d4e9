//! Bradley–Terry fits of the simulated votes next to ȳ: the paper's
//! estimator untouched by them, reproducible on any thread count, one
//! simulation equal to the run's, metrics of the fitted scores, typed
//! errors.
#![cfg(feature = "simulator")]

use adaptive_comp_metrics::simulate::{
    Arm, FitModel, SimulateError, Simulation, Underlying, VoterModel,
};

fn small() -> Simulation {
    crate::small_simulation(80, 6, 10)
}

fn both() -> Simulation {
    small()
        .models(vec![FitModel::Bt, FitModel::NoisyBt])
        .unwrap()
}

#[test]
fn the_models_leave_the_papers_estimator_as_it_was() {
    let plain = small().run_with_threads(4, 9, 2).unwrap();
    let with = both().run_with_threads(4, 9, 2).unwrap();
    assert!(plain.models.is_empty());
    assert_eq!(with.uniform, plain.uniform);
    assert_eq!(with.adaptive, plain.adaptive);
    assert_eq!(with.uniform_comparisons, plain.uniform_comparisons);
    assert_eq!(with.models.len(), 2);
    assert_eq!(with.models[0].model, FitModel::Bt);
    assert_eq!(with.models[1].model, FitModel::NoisyBt);
    // The fits differ from ȳ (and from each other): they are not copies.
    let bt = with.get_model(FitModel::Bt, Arm::Adaptive, "rho").unwrap();
    let y = with.get(Arm::Adaptive, "rho").unwrap();
    assert_ne!(bt.values, y.values);
}

#[test]
fn model_reports_do_not_depend_on_the_thread_count_and_match_single_runs() {
    let sim = both();
    let one = sim.run_with_threads(5, 3, 1).unwrap();
    for threads in [2, 5] {
        assert_eq!(sim.run_with_threads(5, 3, threads).unwrap(), one);
    }
    let run = sim.simulate(3, 2).unwrap();
    assert_eq!(run.models.len(), 2);
    for (j, m) in run.models.iter().enumerate() {
        for (k, metric) in one.metrics.iter().enumerate() {
            assert_eq!(
                one.get_model(m.model, Arm::Uniform, metric).unwrap().values[2],
                m.uniform_values[k]
            );
            assert_eq!(one.models[j].adaptive[k].values[2], m.adaptive_values[k]);
        }
        // The ranking is the scores in decreasing order; the collection's
        // last ballots and vote count are the paper's estimator's.
        let s = &m.adaptive.scores;
        assert!(m.adaptive.ranking.windows(2).all(|w| s[w[0]] >= s[w[1]]));
        assert_eq!(m.adaptive.last_ballot, run.adaptive.last_ballot);
        assert_eq!(m.uniform.comparisons, run.uniform.comparisons);
    }
}

/// The metric values are those of the fitted scores against the truth
/// (recomputed here), and with voters who never err the fitted ranking of
/// the uniform collection (every item compared about 2M times) is close
/// to the truth.
#[test]
fn the_metrics_are_those_of_the_fitted_scores() {
    let perfect = VoterModel::paper()
        .sigma_range(0.0, 0.0)
        .unwrap()
        .epsilon_range(0.0, 0.0)
        .unwrap();
    let sim = both().voters(perfect);
    let run = sim.simulate(1, 0).unwrap();
    let z = Underlying::exponential(80).unwrap();
    let truth: Vec<f64> = z.z().iter().map(|v| v.abs()).collect();
    for m in &run.models {
        let rho_w = adaptive_comp_metrics::rho_w(&truth, &m.uniform.scores)
            .unwrap()
            .rho;
        assert_eq!(m.uniform_values[0], rho_w);
        let rho = adaptive_comp_metrics::spearman(&truth, &m.uniform.scores)
            .unwrap()
            .rho;
        assert_eq!(m.uniform_values[2], rho);
        assert!(rho > 0.9, "{:?}: ρ = {rho}", m.model);
    }
}

#[test]
fn bad_model_settings_are_typed_errors() {
    assert!(matches!(
        small().models(vec![FitModel::Bt, FitModel::Bt]),
        Err(SimulateError::InvalidParameter { name: "models", .. })
    ));
    for sd in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            small().model_prior_sd(sd),
            Err(SimulateError::InvalidParameter {
                name: "model_prior_sd",
                ..
            })
        ));
    }
}

#[cfg(feature = "serde")]
#[test]
fn a_simulation_with_models_round_trips_through_json() {
    let sim = both().model_prior_sd(3.0).unwrap();
    let text = serde_json::to_string(&sim).unwrap();
    assert!(text.contains("\"models\":[\"bt\",\"noisy-bt\"]"), "{text}");
    let back: Simulation = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back.run_with_threads(2, 5, 1).unwrap(),
        sim.run_with_threads(2, 5, 1).unwrap()
    );
    // A simulation saved before the models existed still reads.
    let old = text
        .replace(",\"models\":[\"bt\",\"noisy-bt\"]", "")
        .replace(",\"model_prior_sd\":3.0", "");
    let old: Simulation = serde_json::from_str(&old).unwrap();
    assert!(old.run_with_threads(2, 5, 1).unwrap().models.is_empty());
}
