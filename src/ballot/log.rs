//! The vocabulary of a collection: the outcome of a comparison, what closing
//! does with comparisons left without a vote, where a collection stands, and
//! each ballot's audit trail and scores.

use super::pairing::Comparison;
use super::uniform::UniformBudget;

/// The outcome of one comparison, relative to its [`Comparison`]'s order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Vote {
    /// The first item won.
    First,
    /// The second item won.
    Second,
    /// A tie: each item is credited half a win (footnote 4).
    Tie,
}

/// What closing a ballot does with comparisons that have no vote yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Unvoted {
    /// Refuse to close ([`BallotError::MissingVotes`](super::BallotError::MissingVotes)).
    #[default]
    Reject,
    /// Withdraw them: each item's Mᵢ counts only the comparisons that were
    /// voted on. Closing still fails ([`BallotError::NoVotes`](super::BallotError::NoVotes)) when an item
    /// got no vote at all.
    Withdraw,
}

/// Which collection a scheduler runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Design {
    /// The adaptive ballots of §2.5.
    Adaptive,
    /// One uniform ballot (§2.4) with the budget of the adaptive configuration.
    Uniform(UniformBudget),
}

/// Where a collection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    /// No ballot is open; `next` (1-based) is the ballot that opens next.
    Ready {
        /// The next ballot.
        next: usize,
    },
    /// Ballot `ballot` (1-based) is open and takes votes.
    Open {
        /// The open ballot.
        ballot: usize,
    },
    /// Every ballot is closed.
    Finished,
}

/// The audit trail of one ballot: its items, the comparisons issued and the
/// vote of each ticket. This is what a saved state holds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BallotLog {
    pub(super) items: Vec<usize>,
    pub(super) comparisons: Vec<Comparison>,
    pub(super) votes: Vec<Option<Vote>>,
    pub(super) closed: bool,
}

impl BallotLog {
    /// The items of the ballot, ascending.
    #[must_use]
    pub fn items(&self) -> &[usize] {
        &self.items
    }

    /// The comparisons issued; a ticket is an index into this list.
    #[must_use]
    pub fn comparisons(&self) -> &[Comparison] {
        &self.comparisons
    }

    /// The vote of each ticket (`None`: not voted, or withdrawn at close).
    #[must_use]
    pub fn votes(&self) -> &[Option<Vote>] {
        &self.votes
    }

    /// `true` once the ballot is closed.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// The scores of one closed ballot, one entry per item of the ballot.
///
/// ```text
/// xᵢ = nᵢ/Mᵢ                                   (Eq. 1, ties ½)
/// yᵢ = 1 − b̂ + b̂·xᵢ,  b̂ = 1 for ballot 1       (Eq. 6)
/// ȳᵢ = mean of yᵢ over ballots 1…k (or 2…k)    (Eq. 5)
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BallotScores {
    /// The ballot (1-based).
    pub ballot: usize,
    /// The items, ascending; every other vector is indexed like this one.
    pub items: Vec<usize>,
    /// Mᵢ: the comparisons of the item that were voted on.
    pub appearances: Vec<u64>,
    /// nᵢ = wins + ties/2.
    pub wins: Vec<f64>,
    /// The Borda score xᵢ⁽ᵏ⁾ (Eq. 1).
    pub x: Vec<f64>,
    /// The rescaled score yᵢ⁽ᵏ⁾ (Eq. 6).
    pub y: Vec<f64>,
    /// The running average ȳᵢ⁽ᵏ⁾ (Eq. 5).
    pub y_bar: Vec<f64>,
    /// The rescaling slope b̂⁽ᵏ⁾ (1 for the first ballot: the identity).
    pub b_hat: f64,
    /// The comparisons voted on.
    pub votes: u64,
    /// The comparisons withdrawn without a vote at close.
    pub withdrawn: u64,
}

impl BallotScores {
    /// The index of `item` in this ballot's vectors, if it took part.
    ///
    /// # Complexity
    /// O(log n).
    #[must_use]
    pub fn position(&self, item: usize) -> Option<usize> {
        self.items.binary_search(&item).ok()
    }
}
