//! The simulator on arbitrary distributions and parameters: never panics;
//! every reported metric value lies in [−1, 1]; reports do not depend on the
//! thread count.
#![no_main]

use adaptive_comp_metrics::ballot::{BallotConfig, Options, UniformBudget};
use adaptive_comp_metrics::simulate::{
    Judgement, Noise, Nonconformity, PowerLaw, Simulation, Underlying, VoterModel,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    z: Vec<f64>,
    builtin: u8,
    n: u8,
    m: u8,
    alpha: f64,
    n_ballots: u8,
    sigma: (f64, f64),
    epsilon: (f64, f64),
    n_voters: u8,
    flags: u8,
    seed: u64,
}

fuzz_target!(|input: Input| {
    let n = usize::from(input.n % 64);
    let underlying = match input.builtin % 4 {
        0 => Underlying::new(&input.z[..input.z.len().min(64)]),
        1 => Underlying::exponential(n),
        2 => Underlying::power_law(n, PowerLaw::Published),
        _ => Underlying::power_law(n, PowerLaw::Paper),
    };
    let Ok(underlying) = underlying else { return };
    let options = if input.flags & 1 == 0 { Options::paper() } else { Options::published() };
    let Ok(config) = BallotConfig::with_options(
        underlying.len(),
        usize::from(input.m % 12),
        input.alpha,
        usize::from(input.n_ballots % 6),
        options,
    ) else {
        return;
    };
    let Ok(model) = VoterModel::paper().sigma_range(input.sigma.0, input.sigma.1) else { return };
    let Ok(model) = model.epsilon_range(input.epsilon.0, input.epsilon.1) else { return };
    let model = model
        .noise(if input.flags & 2 == 0 { Noise::PerItem } else { Noise::PerComparison })
        .judgement(if input.flags & 4 == 0 { Judgement::Relatedness } else { Judgement::Similarity })
        .nonconformity(if input.flags & 8 == 0 { Nonconformity::Paper } else { Nonconformity::Published });
    let Ok(sim) = Simulation::new(underlying, config) else { return };
    let Ok(sim) = sim.n_voters(usize::from(input.n_voters % 8)) else { return };
    let sim = sim.voters(model).uniform_budget(if input.flags & 16 == 0 {
        UniformBudget::SameComparisons
    } else {
        UniformBudget::RoundedAppearances
    });
    // Constant estimates or truths are typed metric errors, never panics.
    let Ok(report) = sim.run_with_threads(2, input.seed, 1) else { return };
    for s in report.uniform.iter().chain(&report.adaptive) {
        for v in &s.values {
            assert!((-1.0 - 1e-9..=1.0 + 1e-9).contains(v), "metric value {v}");
        }
    }
    assert_eq!(sim.run_with_threads(2, input.seed, 2).ok(), Some(report));
});
