//! The adaptive-ballot vote collection of Lombardo et al. (2020), §2.3–2.7.
//!
//! Ranking N items from crowd votes on pairs is cheap only if every vote
//! counts where it matters: at the top. The adaptive scheme splits the
//! collection into n_b ballots; ballot k shows each of its N⁽ᵏ⁾ items M times
//! in random pairs, and only the best round(α·N⁽ᵏ⁾) items go on to ballot
//! k + 1. Items that reach the last ballot are seen n_b·M times.
//!
//! ```text
//! N⁽ᵏ⁾ = round(α·N⁽ᵏ⁻¹⁾)                                   (Eq. 2)
//! N_comp = Σ_k ⌈M·N⁽ᵏ⁾/2⌉ ≈ (1 − αⁿᵇ)/(2(1 − α))·M·N        (Eq. 3)
//! xᵢ⁽ᵏ⁾ = nᵢ/Mᵢ,  nᵢ = wins + ties/2                          (Eq. 1, fn. 4)
//! yᵢ⁽ᵏ⁾ = 1 − b̂⁽ᵏ⁾ + b̂⁽ᵏ⁾·xᵢ⁽ᵏ⁾                               (Eq. 6)
//! ȳᵢ⁽ᵏ⁾ = (1/k)·Σ_{k'≤k} yᵢ⁽ᵏ'⁾                                (Eq. 5)
//! ```
//!
//! The module map:
//! - [`config`]: validated parameters [`BallotConfig`] and the [`Options`]
//!   that choose between the paper's text and its published code;
//! - [`mod@plan`]: ballot sizes, exact comparison counts and the §2.7 heuristics,
//!   all known before any vote is collected;
//! - [`pairing`]: the random comparisons of a ballot and their spread over
//!   voters;
//! - [`score`]: the Borda score, the rescaling of Eq. 6 and the top-item
//!   selection with random tie-breaking;
//! - [`scheduler`]: the [`Scheduler`] state machine that issues comparisons,
//!   takes votes, closes ballots and ranks the items;
//! - [`uniform`]: the uniform baseline of §2.4 with the same budget.
//!
//! Everything random takes the caller's `R: rand::Rng + ?Sized`, so a seeded
//! collection is reproducible.

pub mod config;
pub mod error;
pub mod pairing;
pub mod plan;
pub mod scheduler;
pub mod score;
pub mod uniform;

pub use config::{AverageFrom, BallotConfig, Options, RankBy, Rounding, SelectOn};
pub use error::BallotError;
pub use pairing::{Comparison, random_matchings, spread_over_voters};
pub use plan::{
    AlphaBounds, PAPER_MAX_SURVIVING_FRACTION, Plan, alpha_bounds, approx_total_comparisons,
    ballot_sizes, comparisons_for_m_top, comparisons_in_ballot, expected_cost, m_for_budget,
    m_from_comparisons, m_top, m_top_from_uniform, plan,
};
pub use scheduler::{
    BallotLog, BallotScores, Design, Phase, RankedItem, Ranking, Scheduler, Unvoted, Vote,
};
pub use score::{borda_score, rescale, rescaling_slope, select_top};
pub use uniform::{UniformBudget, UniformPlan, uniform_plan};
