//! The voter simulator of Lombardo et al. (2020), §4 (feature `simulator`):
//! try a vote collection on simulated crowds before paying for real votes.
//!
//! A crowd of voters judges pairs of items whose true similarities z_i are
//! known; the adaptive-ballot scheduler ([`crate::ballot`]) and the uniform
//! baseline collect the same budget of votes; the estimated rankings are
//! compared with the truth by ρ_w, τ_w, ρ, τ or any metric you give.
//!
//! ```text
//! o_i⁽ᵛ⁾ = |F(z_i + σ_v(z_i)·η_i⁽ᵛ⁾)|,  F = clip to [−1, 1]          (Eq. 11, §4.1.2)
//! vote = argmax o with probability 1 − ε_v, the other item with ε_v
//! ```
//!
//! ```
//! use adaptive_comp_metrics::ballot::BallotConfig;
//! use adaptive_comp_metrics::simulate::{Arm, Simulation, Underlying};
//! // 8 simulations of a small collection: 200 items, M = 10, α = 0.5, 3 ballots, 10 voters.
//! let config = BallotConfig::new(200, 10, 0.5, 3)?;
//! let sim = Simulation::new(Underlying::exponential(200)?, config)?.n_voters(10)?;
//! let report = sim.run(8, 1)?; // seed 1; parallel, same result on any number of threads
//! let adaptive = report.get(Arm::Adaptive, "rho_w").expect("a default metric");
//! let uniform = report.get(Arm::Uniform, "rho_w").expect("a default metric");
//! println!("ρ_w: adaptive {:.3} ± {:.3}, uniform {:.3} ± {:.3}",
//!          adaptive.mean, adaptive.se, uniform.mean, uniform.se);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Map
//!
//! | task | where |
//! |---|---|
//! | true similarities: exponential, power laws, the 990 same-area values, your own | [`Underlying`], [`PowerLaw`] |
//! | the voter model: σ*, ε ranges, nonconformity profile, η per item or per vote | [`VoterModel`], [`Nonconformity`], [`Noise`], [`Judgement`] |
//! | one crowd and its votes | [`Crowd`], [`Choice`] |
//! | uniform vs adaptive over S seeded simulations | [`Simulation`], [`Report`], [`Summary`] |
//! | accuracy metrics, built in or closures | [`Metric`], [`Estimate`] |
//! | which (α, n_b, M) for a budget | [`sweep()`], [`Sweep`] |
//! | Bradley–Terry fits of the same votes next to ȳ | [`FitModel`], [`Simulation::models`], [`ModelReport`] |
//!
//! ## The paper's text and its published code
//!
//! [`VoterModel::paper`] and the scheduler's `Options::paper` follow the
//! text; [`VoterModel::published`], [`PowerLaw::Published`],
//! `Options::published` and `UniformBudget::RoundedAppearances` reproduce
//! the code that produced Table 2 (the departures are listed, numbered, in
//! the [`ballot`](crate::ballot) module docs). The example
//! `reproduce_table2` runs both, and rebuilds the published script's
//! misaligned comparison of rankings explicitly.
//!
//! ## Reproducibility
//!
//! Simulation s of a run seeded with `seed` draws everything from ChaCha8
//! generators seeded with `seed` on streams 3s (crowd), 3s + 1 (uniform),
//! 3s + 2 (adaptive); results are combined in simulation order. A report is
//! therefore bit-for-bit the same on any number of threads, and
//! [`Simulation::simulate`] recomputes any single simulation of it.
//!
//! ## Reference
//!
//! P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone (2020).
//! *Top-rank-focused adaptive vote collection for the evaluation of
//! domain-specific semantic models.* EMNLP 2020, §4 and Table 2.

mod display;
pub mod distributions;
pub mod error;
mod models;
pub mod runner;
pub mod stats;
pub mod sweep;
pub mod voter;

pub use distributions::{PowerLaw, SAME_AREA_CSV, SAME_AREA_LEN, Underlying};
pub use error::SimulateError;
pub use models::FitModel;

/// The simulator's error before 0.1.0.
#[deprecated(since = "0.1.0", note = "renamed `SimulateError`")]
pub type SimError = SimulateError;
pub use runner::{
    Arm, Collected, Estimate, Metric, MetricFn, ModelReport, ModelRun, Report, Run, Simulation,
};
pub use stats::Summary;
pub use sweep::{Skipped, Sweep, SweepPoint, sweep};
pub use voter::{Choice, Crowd, EqualOpinions, Judgement, Noise, Nonconformity, VoterModel};
