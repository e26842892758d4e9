//! Integration tests of the optional features: the ballot scheduler
//! (`scheduler`), the voter simulator (`simulator`) and the uncertainty
//! module (`uncertainty`). Each module is compiled only with its feature.
//!
//! One test binary with one module per topic, so a fresh `cargo test` links
//! a few binaries instead of one per file.

/// The published script's metrics, as rebuilt in the `reproduce_table2` example.
#[cfg(feature = "simulator")]
#[path = "../../examples/reproduce_table2/script.rs"]
#[allow(dead_code)]
mod script;

/// The `campaign` example's logic, driven in process.
#[cfg(all(feature = "scheduler", feature = "serde"))]
#[path = "../../examples/campaign/app/mod.rs"]
#[allow(dead_code)]
mod campaign_app;

mod ballot_campaign;
mod ballot_scheduler;
mod ballot_serde;
mod campaign_e2e;
mod campaign_inputs;
mod display;
mod fuzz_regressions;
#[path = "../common/harness.rs"]
#[allow(dead_code)]
mod harness;
mod limits;
mod misuse;
mod seeded_values;
mod serde_all;
mod simulate_data;
mod simulate_runner;
mod simulate_script;
mod simulate_sweep;
mod simulate_voter;
mod standardised;
mod uncertainty;
