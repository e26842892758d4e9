//! The error type of the adaptive-ballot scheduler.

use thiserror::Error;

module_error! {
    /// Everything that can go wrong when configuring, planning or running an
    /// adaptive vote collection.
    ///
    /// Every variant says *what* was wrong and *where* (which item, which ticket,
    /// which ballot). Messages are lowercase without a trailing period. A failed
    /// operation leaves the scheduler exactly as it was: nothing is recorded,
    /// lost or counted twice. New variants may be added in minor releases.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
    #[non_exhaustive]
    pub enum BallotError {
        shared {
            /// A parameter is outside its domain (α outside (0, 1), M = 0, …).
            InvalidParameter,
            /// Fewer items than the computation needs.
            TooFewItems,
            /// A size over its limit ([`BallotConfig::MAX_ITEMS`],
            /// [`BallotConfig::MAX_COMPARISONS`], [`BallotConfig::MAX_VOTERS`]):
            /// refused before anything is allocated (see the crate docs, "Sizes and
            /// memory").
            ///
            /// [`BallotConfig::MAX_ITEMS`]: super::BallotConfig::MAX_ITEMS
            /// [`BallotConfig::MAX_COMPARISONS`]: super::BallotConfig::MAX_COMPARISONS
            /// [`BallotConfig::MAX_VOTERS`]: super::BallotConfig::MAX_VOTERS
            TooLarge,
            /// Two inputs that must pair up item by item have different lengths.
            LengthMismatch,
        }
        /// The ballot sizes of Eq. 2 leave fewer than two items in some ballot.
        #[error("ballot {ballot} would hold {items} item(s): every ballot needs at least 2")]
        BallotTooSmall {
            /// The first ballot (1-based) that is too small.
            ballot: usize,
            /// Its number of items.
            items: usize,
        },
        /// A count does not fit in 64 bits, or a sum overflows `f64`.
        #[error("overflow: {what} is too large")]
        Overflow {
            /// What overflowed.
            what: &'static str,
        },
        /// A score is NaN or infinite.
        #[error("{input}[{index}] is not finite")]
        NotFinite {
            /// Name of the input.
            input: &'static str,
            /// Index of the first bad value.
            index: usize,
        },
        /// An item list names the same item twice.
        #[error("item {item} is listed twice")]
        DuplicateItem {
            /// The repeated item.
            item: usize,
        },
        /// An item index is not below the number of items.
        #[error("unknown item {item}: items are 0..{n_items}")]
        UnknownItem {
            /// The offending item.
            item: usize,
            /// The number of items.
            n_items: usize,
        },
        /// A valid item that is not part of the current ballot.
        #[error("item {item} is not in ballot {ballot}")]
        NotInBallot {
            /// The item.
            item: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// A pair of items that was never issued as a comparison of the current ballot.
        #[error("pair ({first}, {second}) was not issued in ballot {ballot}")]
        PairNotIssued {
            /// First item of the pair as given.
            first: usize,
            /// Second item of the pair as given.
            second: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// Every comparison issued for this pair already has its vote.
        #[error(
            "pair ({first}, {second}) was issued {issued} time(s) in ballot {ballot} and every one has its vote"
        )]
        VotesExceedIssued {
            /// First item of the pair as given.
            first: usize,
            /// Second item of the pair as given.
            second: usize,
            /// How many times the pair was issued in this ballot.
            issued: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// A ticket number that was not issued in the current ballot.
        #[error("unknown ticket {ticket}: ballot {ballot} issued tickets 0..{issued}")]
        UnknownTicket {
            /// The ticket.
            ticket: usize,
            /// The number of comparisons issued.
            issued: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// A second vote for a ticket.
        #[error("ticket {ticket} of ballot {ballot} already has its vote")]
        AlreadyVoted {
            /// The ticket.
            ticket: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// Recording or closing while no ballot is open (before the first, after a
        /// close, or after the last).
        #[error("no ballot is open: {closed} ballot(s) closed so far")]
        NoOpenBallot {
            /// The number of ballots closed so far.
            closed: usize,
        },
        /// Opening a ballot while another one is still open.
        #[error("ballot {ballot} is still open")]
        BallotStillOpen {
            /// The open ballot (1-based).
            ballot: usize,
        },
        /// Opening a ballot after the last one of the plan was closed.
        #[error("all {n_ballots} ballot(s) are closed")]
        Finished {
            /// The number of ballots of the plan.
            n_ballots: usize,
        },
        /// Closing a ballot strictly while some comparisons have no vote.
        #[error("ballot {ballot} has {missing} comparison(s) without a vote")]
        MissingVotes {
            /// The open ballot (1-based).
            ballot: usize,
            /// The number of comparisons still without a vote.
            missing: usize,
        },
        /// Closing a ballot while one of its items has no vote at all: its score
        /// x = n/M would be 0/0.
        #[error("item {item} has no vote in ballot {ballot}")]
        NoVotes {
            /// The item.
            item: usize,
            /// The open ballot (1-based).
            ballot: usize,
        },
        /// Asking for scores or a ranking before any ballot was closed.
        #[error("no ballot has been closed yet")]
        NothingClosed,
        /// A quantity is 0/0.
        #[error("undefined: {reason}")]
        Undefined {
            /// Why.
            reason: &'static str,
        },
        /// Retracting the vote of a ticket that has none.
        #[error("ticket {ticket} of ballot {ballot} has no vote to retract")]
        NotVoted {
            /// The ticket.
            ticket: usize,
            /// The current ballot (1-based).
            ballot: usize,
        },
        /// A restored (deserialised) state is inconsistent.
        #[error("corrupt scheduler state in ballot {ballot}: {reason}")]
        CorruptState {
            /// The ballot (1-based) where the inconsistency was found; 0 for the
            /// configuration.
            ballot: usize,
            /// What is inconsistent.
            reason: &'static str,
        },
    }
}

/// Shorthand for results of the ballot module.
pub type Result<T, E = BallotError> = core::result::Result<T, E>;
