//! The voter simulator of Lombardo et al. (2020), §4 (feature `simulator`).
//!
//! Placeholder docs; completed below.

mod collect;
pub mod distributions;
pub mod error;
pub mod runner;
pub mod stats;
pub mod sweep;
pub mod voter;

pub use distributions::{PowerLaw, SAME_AREA_CSV, SAME_AREA_LEN, Underlying};
pub use error::SimError;
pub use runner::{
    Arm, Collected, Estimate, Metric, MetricFn, Report, Run, Simulation, UniformBudget,
};
pub use stats::Summary;
pub use sweep::{Skipped, Sweep, SweepPoint, sweep};
pub use voter::{Choice, Crowd, EqualOpinions, Judgement, Noise, Nonconformity, VoterModel};
