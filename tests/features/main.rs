//! Integration tests of the optional features: the ballot scheduler
//! (`scheduler`), the voter simulator (`simulator`) and the uncertainty
//! module (`uncertainty`). Each module is compiled only with its feature
//! (`umbrella_error`, on the crate-wide error type, always: its parts about a
//! feature-gated module only with that feature).
//!
//! One test binary with one module per topic, so a fresh `cargo test` links
//! a few binaries instead of one per file.

/// The published script's metrics, as rebuilt for `acm simulate table2`.
#[cfg(feature = "simulator")]
#[path = "../../cli/src/commands/simulate/script.rs"]
#[allow(dead_code)]
mod script;

/// The simulator tests' small fixture: `items` exponential similarities,
/// ballots of `m` items (α = 0.5, 3 ballots) and a crowd of `voters`.
#[cfg(feature = "simulator")]
fn small_simulation(
    items: usize,
    m: usize,
    voters: usize,
) -> adaptive_comp_metrics::simulate::Simulation {
    use adaptive_comp_metrics::ballot::BallotConfig;
    use adaptive_comp_metrics::simulate::{Simulation, Underlying};
    Simulation::new(
        Underlying::exponential(items).unwrap(),
        BallotConfig::new(items, m, 0.5, 3).unwrap(),
    )
    .unwrap()
    .n_voters(voters)
    .unwrap()
}

mod ballot_campaign;
mod ballot_scheduler;
mod ballot_serde;
mod compare;
mod display;
mod fuzz_regressions;
#[path = "../common/harness.rs"]
#[allow(dead_code)]
mod harness;
mod histogram;
mod limits;
mod misuse;
#[path = "../common/null_moments.rs"]
#[allow(dead_code)] // used by `standardised` (feature `uncertainty`)
mod null_moments;
mod pairwise;
mod seeded_values;
mod serde_all;
mod simulate_data;
mod simulate_models;
mod simulate_runner;
mod simulate_script;
mod simulate_sweep;
mod simulate_voter;
mod standardised;
mod umbrella_error;
mod uncertainty;
