//! Models fitted to pairwise comparisons (feature `scheduler`): the
//! Bradley–Terry model with Davidson's ties, a noisy Bradley–Terry model
//! with a reliability per worker, their uncertainty (standard errors,
//! intervals on scores and ranks, the probability of being in the top k),
//! and whether the top of the ranking is settled.

mod bootstrap;
mod data;
mod davidson;
mod dense;
mod error;
mod fit;
mod graph;
mod information;
mod noisy;
mod uncertainty;

pub use bootstrap::MAX_REPLICATES;
pub use data::{CampaignVotes, Comparisons, Record};
pub use error::PairwiseError;
pub use fit::{BradleyTerry, Fit, Model, WorkerFit};
pub use noisy::NoisyBradleyTerry;
pub use uncertainty::{Inference, Method, Settled, Uncertainty};
