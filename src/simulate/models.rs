//! Bradley–Terry models fitted to a simulated collection's votes, ranked
//! next to the paper's estimator (ȳ for adaptive, x for uniform) on the
//! same votes.

use super::error::{Result, SimulateError};
use super::runner::Collected;
use crate::ballot::Vote;
use crate::pairwise::{BradleyTerry, Comparisons, NoisyBradleyTerry};

/// A model fitted to every vote of a simulated collection
/// ([`Simulation::models`](super::Simulation::models)).
///
/// Both fits use a Gaussian prior N(0, σ²) on the scores
/// ([`Simulation::model_prior_sd`](super::Simulation::model_prior_sd)): an
/// adaptive collection leaves items that won (or lost) every comparison of
/// their only ballot, whose maximum-likelihood scores are infinite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum FitModel {
    /// Bradley–Terry by maximum a posteriori ([`BradleyTerry`]).
    Bt,
    /// Noisy Bradley–Terry, a reliability per voter ([`NoisyBradleyTerry`]).
    NoisyBt,
}

impl FitModel {
    /// `"bt"` or `"noisy-bt"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Bt => "bt",
            Self::NoisyBt => "noisy-bt",
        }
    }
}

/// One vote of a collection: the two items, whether the first won, the
/// voter.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Logged {
    pub(crate) first: u32,
    pub(crate) second: u32,
    pub(crate) first_won: bool,
    pub(crate) voter: u32,
}

/// `model` fitted to `votes` (of `n_items` items by `n_voters` voters)
/// under the prior N(0, `prior_sd`²), as a collection: the scores, the
/// ranking by decreasing score (equal scores by index), `borda`'s last
/// ballots and vote count.
pub(crate) fn fit(
    model: FitModel,
    votes: &[Logged],
    n_voters: usize,
    prior_sd: f64,
    borda: &Collected,
    simulation: usize,
) -> Result<Collected> {
    let fail = |source| SimulateError::Fit {
        model: model.name(),
        simulation,
        source,
    };
    let n = borda.scores.len();
    let mut data = Comparisons::with_item_count(n)
        .and_then(|c| c.fix_workers((0..n_voters).map(|v| v.to_string())))
        .map_err(fail)?;
    for v in votes {
        let vote = if v.first_won {
            Vote::First
        } else {
            Vote::Second
        };
        data.add(
            v.first as usize,
            v.second as usize,
            vote,
            Some(v.voter as usize),
        )
        .map_err(fail)?;
    }
    let fitted = match model {
        FitModel::Bt => BradleyTerry::new()
            .prior_sd(prior_sd)
            .and_then(|m| m.fit(&data)),
        FitModel::NoisyBt => NoisyBradleyTerry::new()
            .prior_sd(prior_sd)
            .and_then(|m| m.fit(&data)),
    }
    .map_err(fail)?;
    let mut ranking: Vec<usize> = (0..n).collect();
    ranking.sort_by(|&a, &b| {
        fitted.scores[b]
            .total_cmp(&fitted.scores[a])
            .then(a.cmp(&b))
    });
    Ok(Collected {
        scores: fitted.scores,
        ranking,
        last_ballot: borda.last_ballot.clone(),
        comparisons: borda.comparisons,
    })
}
