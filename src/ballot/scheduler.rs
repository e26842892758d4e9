//! The state machine of an adaptive vote collection: open a ballot (its
//! comparisons are issued), record votes, close it (scores x, y, ȳ), select
//! the items of the next ballot, and rank every item at the end.
//!
//! ```text
//! Ready(1) ─open→ Open(1) ─record…→ Open(1) ─close→ Ready(2) ─open→ … ─close→ Finished
//! ```

use rand::Rng;

use super::config::{AverageFrom, BallotConfig, SelectOn};
use super::error::{BallotError, Result};
pub use super::log::{BallotLog, BallotScores, Design, Phase, Unvoted, Vote};
use super::pairing::{Comparison, matchings_into};
pub use super::ranking::{RankedItem, Ranking};
use super::score::{ratio_of_doubled, rescale, select_top_f64, slope_f64};
use super::uniform::{UniformBudget, UniformPlan, uniform_comparisons, uniform_plan};

pub(super) const NONE: usize = usize::MAX;

serde_mirror! {
    /// An adaptive vote collection in progress (Lombardo et al. 2020, §2.5–2.6).
    ///
    /// Drive it ballot by ballot: [`open_ballot`](Self::open_ballot) issues the
    /// comparisons (each item of the ballot M times, random pairs drawn with the
    /// caller's RNG); [`record`](Self::record) takes the vote of a ticket (the
    /// index of a comparison) in O(1), [`record_win`](Self::record_win) and
    /// [`record_tie`](Self::record_tie) take a vote by its pair of items in O(M);
    /// [`close_ballot`](Self::close_ballot) computes x, y and ȳ; the next
    /// `open_ballot` selects the best round(α·N⁽ᵏ⁻¹⁾) items, breaking ties at the
    /// cut-off at random. [`ranking`](Self::ranking) ranks every item at any
    /// point after the first close.
    ///
    /// A failed call changes nothing: no vote is lost or counted twice.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Unvoted, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let mut s = Scheduler::new(BallotConfig::new(8, 4, 0.5, 2)?);
    /// for _ballot in 0..2 {
    ///     let comparisons = s.open_ballot(&mut rng)?.to_vec();
    ///     for (ticket, c) in comparisons.iter().enumerate() {
    ///         // Here the smaller item index always wins.
    ///         let vote = if c.first < c.second { Vote::First } else { Vote::Second };
    ///         s.record(ticket, vote)?;
    ///     }
    ///     s.close_ballot(Unvoted::Reject)?;
    /// }
    /// let ranking = s.ranking(&mut rng)?;
    /// assert_eq!(ranking.entries[0].item, 0);
    /// assert_eq!(ranking.entries[0].last_ballot, 2);
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    ///
    /// # Saving and restoring
    /// With the `serde` feature the whole state serialises — between ballots or
    /// in the middle of one — as the configuration plus each ballot's items,
    /// comparisons and votes ([`BallotLog`]). Restoring replays the votes through
    /// the same code, so every score is recomputed bit for bit (no float goes
    /// through the text format), and checks the state first: items in range and
    /// ascending, ballot sizes per Eq. 2, each ballot's items a valid top
    /// selection of the previous one, comparisons without self-pairs with every
    /// item the planned number of times, one vote slot per comparison. An
    /// inconsistent state is [`BallotError::CorruptState`]. The RNG stays the
    /// caller's: save it alongside if the collection must continue identically.
    #[derive(Debug, Clone)]
    pub struct Scheduler {
        pub(super) config: BallotConfig,
        pub(super) design: Design,
        pub(super) sizes: Vec<usize>,
        pub(super) uniform: Option<UniformPlan>,
        pub(super) logs: Vec<BallotLog>,
        pub(super) history: Vec<BallotScores>,
        // The open ballot, derived from the last log.
        pub(super) slot: Vec<usize>,
        pub(super) ticket_start: Vec<usize>,
        pub(super) ticket_list: Vec<usize>,
        pub(super) partner_list: Vec<usize>,
        pub(super) wins2: Vec<u64>,
        pub(super) seen: Vec<u64>,
        pub(super) pending: usize,
        // Per item, over closed ballots.
        pub(super) score: Vec<f64>,
        pub(super) y_sum: Vec<f64>,
        pub(super) last_ballot: Vec<usize>,
    }
    read and written through "super::snapshot::Snapshot"
}

impl Scheduler {
    /// An adaptive collection that has not started.
    ///
    /// # Complexity
    /// O(N + n_b).
    #[must_use]
    pub fn new(config: BallotConfig) -> Self {
        Self::with_design(config, Design::Adaptive, None)
    }

    /// The uniform baseline of §2.4 with the same budget as the adaptive
    /// `config`: one ballot over all items; see [`UniformBudget`].
    ///
    /// # Errors
    /// [`BallotError::TooLarge`] when the uniform ballot has more than
    /// [`BallotConfig::MAX_COMPARISONS`] comparisons.
    ///
    /// # Complexity
    /// O(N + n_b).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Options, Scheduler, UniformBudget};
    /// let c = BallotConfig::with_options(990, 20, 0.5, 7, Options::published())?;
    /// let s = Scheduler::uniform(c, UniformBudget::RoundedAppearances)?;
    /// assert_eq!(s.ballot_sizes(), &[990]);
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn uniform(config: BallotConfig, budget: UniformBudget) -> Result<Self> {
        let plan = uniform_plan(&config, budget)?;
        Ok(Self::with_design(
            config,
            Design::Uniform(budget),
            Some(plan),
        ))
    }

    fn with_design(config: BallotConfig, design: Design, uniform: Option<UniformPlan>) -> Self {
        let n = config.n_items();
        let sizes = match design {
            Design::Adaptive => config.ballot_sizes(),
            Design::Uniform(_) => vec![n],
        };
        Self {
            config,
            design,
            sizes,
            uniform,
            logs: Vec::new(),
            history: Vec::new(),
            slot: vec![NONE; n],
            ticket_start: Vec::new(),
            ticket_list: Vec::new(),
            partner_list: Vec::new(),
            wins2: Vec::new(),
            seen: Vec::new(),
            pending: 0,
            score: vec![0.0; n],
            y_sum: vec![0.0; n],
            last_ballot: vec![0; n],
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &BallotConfig {
        &self.config
    }

    /// Adaptive or uniform.
    #[must_use]
    pub fn design(&self) -> Design {
        self.design
    }

    /// The planned number of items of each ballot (one ballot for uniform).
    #[must_use]
    pub fn ballot_sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Where the collection stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        match self.logs.last() {
            Some(log) if !log.closed => Phase::Open {
                ballot: self.logs.len(),
            },
            _ if self.logs.len() >= self.sizes.len() => Phase::Finished,
            _ => Phase::Ready {
                next: self.logs.len() + 1,
            },
        }
    }

    /// The open ballot (1-based) or [`BallotError::NoOpenBallot`].
    pub(super) fn open_ballot_number(&self) -> Result<usize> {
        match self.logs.last() {
            Some(log) if !log.closed => Ok(self.logs.len()),
            _ => Err(BallotError::NoOpenBallot {
                closed: self.history.len(),
            }),
        }
    }

    /// Opens the next ballot: selects its items (ballot k ≥ 2: the best
    /// round(α·N⁽ᵏ⁻¹⁾) of ballot k − 1 on ȳ or x per [`SelectOn`], ties at
    /// the cut-off at random) and issues its comparisons (each item M times,
    /// footnote 6 for odd N⁽ᵏ⁾·M). Returns the comparisons; a ticket is an
    /// index into them.
    ///
    /// # Errors
    /// [`BallotError::BallotStillOpen`] while a ballot is open;
    /// [`BallotError::Finished`] after the last ballot.
    ///
    /// # Complexity
    /// O(N⁽ᵏ⁾·M) plus O(N⁽ᵏ⁻¹⁾) for the selection.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let comparisons = s.open_ballot(&mut rng)?;
    /// assert_eq!(comparisons.len(), 6); // 6 items × M = 2 / 2
    /// assert!(s.open_ballot(&mut rng).is_err()); // still open
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn open_ballot<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<&[Comparison]> {
        match self.phase() {
            Phase::Open { ballot } => return Err(BallotError::BallotStillOpen { ballot }),
            Phase::Finished => {
                return Err(BallotError::Finished {
                    n_ballots: self.sizes.len(),
                });
            }
            Phase::Ready { .. } => {}
        }
        let items = self.next_items(rng);
        let mut comparisons = Vec::new();
        match &self.uniform {
            Some(plan) => uniform_comparisons(self.config.n_items(), plan, rng, &mut comparisons),
            None => matchings_into(&items, self.config.m(), rng, &mut comparisons),
        }
        self.install(items, comparisons);
        Ok(self.comparisons())
    }

    /// The items of the next ballot, ascending.
    fn next_items<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<usize> {
        let k = self.logs.len() + 1;
        match self.history.last() {
            None => (0..self.config.n_items()).collect(),
            Some(prev) => {
                let keys = self.selection_keys(prev);
                let count = self.sizes.get(k - 1).copied().unwrap_or(0);
                select_top_f64(keys, count, rng)
                    .into_iter()
                    .map(|p| prev.items[p])
                    .collect()
            }
        }
    }

    pub(super) fn selection_keys<'a>(&self, prev: &'a BallotScores) -> &'a [f64] {
        match self.config.options().selection() {
            SelectOn::RunningAverage => &prev.y_bar,
            SelectOn::LastScore => &prev.x,
        }
    }

    /// Starts a ballot with the given items (ascending, valid) and comparisons.
    pub(super) fn install(&mut self, items: Vec<usize>, comparisons: Vec<Comparison>) {
        for s in &mut self.slot {
            *s = NONE;
        }
        for (p, &i) in items.iter().enumerate() {
            self.slot[i] = p;
        }
        let n = items.len();
        let mut start = vec![0usize; n + 1];
        for c in &comparisons {
            start[self.slot[c.first] + 1] += 1;
            start[self.slot[c.second] + 1] += 1;
        }
        for p in 0..n {
            start[p + 1] += start[p];
        }
        let mut fill = start.clone();
        let mut list = vec![0usize; start[n]];
        let mut partners = vec![0usize; start[n]];
        for (t, c) in comparisons.iter().enumerate() {
            for (item, partner) in [(c.first, c.second), (c.second, c.first)] {
                let p = self.slot[item];
                list[fill[p]] = t;
                partners[fill[p]] = partner;
                fill[p] += 1;
            }
        }
        self.ticket_start = start;
        self.ticket_list = list;
        self.partner_list = partners;
        self.wins2 = vec![0; n];
        self.seen = vec![0; n];
        self.pending = comparisons.len();
        self.logs.push(BallotLog {
            votes: vec![None; comparisons.len()],
            items,
            comparisons,
            closed: false,
        });
    }

    /// The comparisons of the open ballot (empty when none is open).
    #[must_use]
    pub fn comparisons(&self) -> &[Comparison] {
        match self.logs.last() {
            Some(log) if !log.closed => &log.comparisons,
            _ => &[],
        }
    }

    /// The items of the open ballot, ascending (empty when none is open).
    #[must_use]
    pub fn ballot_items(&self) -> &[usize] {
        match self.logs.last() {
            Some(log) if !log.closed => &log.items,
            _ => &[],
        }
    }

    /// The comparisons of the open ballot still without a vote.
    #[must_use]
    pub fn pending(&self) -> usize {
        if self.open_ballot_number().is_ok() {
            self.pending
        } else {
            0
        }
    }

    /// Every vote counted so far: in closed ballots and in the open one.
    #[must_use]
    pub fn total_votes(&self) -> u64 {
        let closed: u64 = self.history.iter().map(|h| h.votes).sum();
        let open = match self.logs.last() {
            Some(log) if !log.closed => (log.comparisons.len() - self.pending) as u64,
            _ => 0,
        };
        closed + open
    }

    /// The vote of each ballot, as issued and recorded.
    #[must_use]
    pub fn logs(&self) -> &[BallotLog] {
        &self.logs
    }

    /// The scores of every closed ballot, in order.
    #[must_use]
    pub fn history(&self) -> &[BallotScores] {
        &self.history
    }

    /// Records the vote of a ticket of the open ballot.
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`], [`BallotError::UnknownTicket`],
    /// [`BallotError::AlreadyVoted`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// s.open_ballot(&mut rng)?;
    /// s.record(0, Vote::First)?;
    /// assert!(s.record(0, Vote::Second).is_err()); // one vote per ticket
    /// assert_eq!(s.pending(), 5);
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn record(&mut self, ticket: usize, vote: Vote) -> Result<()> {
        let ballot = self.open_ballot_number()?;
        let log = &self.logs[ballot - 1];
        match log.votes.get(ticket) {
            None => Err(BallotError::UnknownTicket {
                ticket,
                issued: log.votes.len(),
                ballot,
            }),
            Some(Some(_)) => Err(BallotError::AlreadyVoted { ticket, ballot }),
            Some(None) => {
                self.apply(ballot, ticket, vote);
                Ok(())
            }
        }
    }

    /// Takes back the vote of a ticket of the open ballot (a vote found
    /// invalid after it was recorded, e.g. from a voter excluded later) and
    /// returns it; the ticket is again without a vote.
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`], [`BallotError::UnknownTicket`],
    /// [`BallotError::NotVoted`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// s.open_ballot(&mut rng)?;
    /// s.record(0, Vote::First)?;
    /// assert_eq!(s.retract(0)?, Vote::First);
    /// assert_eq!(s.pending(), 6);
    /// assert!(s.retract(0).is_err()); // nothing left to retract
    /// s.record(0, Vote::Second)?; // the ticket takes a new vote
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn retract(&mut self, ticket: usize) -> Result<Vote> {
        let ballot = self.open_ballot_number()?;
        let log = &mut self.logs[ballot - 1];
        let issued = log.votes.len();
        let Some(slot) = log.votes.get_mut(ticket) else {
            return Err(BallotError::UnknownTicket {
                ticket,
                issued,
                ballot,
            });
        };
        let Some(vote) = slot.take() else {
            return Err(BallotError::NotVoted { ticket, ballot });
        };
        let c = log.comparisons[ticket];
        let (a, b) = (self.slot[c.first], self.slot[c.second]);
        self.seen[a] -= 1;
        self.seen[b] -= 1;
        match vote {
            Vote::First => self.wins2[a] -= 2,
            Vote::Second => self.wins2[b] -= 2,
            Vote::Tie => {
                self.wins2[a] -= 1;
                self.wins2[b] -= 1;
            }
        }
        self.pending += 1;
        Ok(vote)
    }

    /// Counts a vote that was validated: the ticket exists and has no vote.
    pub(super) fn apply(&mut self, ballot: usize, ticket: usize, vote: Vote) {
        let log = &mut self.logs[ballot - 1];
        let c = log.comparisons[ticket];
        log.votes[ticket] = Some(vote);
        let (a, b) = (self.slot[c.first], self.slot[c.second]);
        self.seen[a] += 1;
        self.seen[b] += 1;
        match vote {
            Vote::First => self.wins2[a] += 2,
            Vote::Second => self.wins2[b] += 2,
            Vote::Tie => {
                self.wins2[a] += 1;
                self.wins2[b] += 1;
            }
        }
        self.pending -= 1;
    }

    /// Records that `winner` beat `loser` on one comparison of this pair that
    /// has no vote yet (the lowest such ticket). Returns the ticket.
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`], [`BallotError::UnknownItem`],
    /// [`BallotError::NotInBallot`], [`BallotError::PairNotIssued`],
    /// [`BallotError::VotesExceedIssued`].
    ///
    /// # Complexity
    /// O(M).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let c = s.open_ballot(&mut rng)?[0];
    /// let ticket = s.record_win(c.second, c.first)?;
    /// assert_eq!(s.logs()[0].votes()[ticket], Some(Vote::Second));
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn record_win(&mut self, winner: usize, loser: usize) -> Result<usize> {
        self.record_pair(winner, loser, false)
    }

    /// Records a tie between `a` and `b` (half a win each, footnote 4) on one
    /// comparison of this pair that has no vote yet. Returns the ticket.
    ///
    /// # Errors
    /// As [`record_win`](Self::record_win).
    ///
    /// # Complexity
    /// O(M).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let c = s.open_ballot(&mut rng)?[0];
    /// let ticket = s.record_tie(c.first, c.second)?;
    /// assert_eq!(s.logs()[0].votes()[ticket], Some(Vote::Tie));
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn record_tie(&mut self, a: usize, b: usize) -> Result<usize> {
        self.record_pair(a, b, true)
    }

    fn record_pair(&mut self, a: usize, b: usize, tie: bool) -> Result<usize> {
        let ballot = self.open_ballot_number()?;
        let n_items = self.config.n_items();
        for item in [a, b] {
            if item >= n_items {
                return Err(BallotError::UnknownItem { item, n_items });
            }
            if self.slot[item] == NONE {
                return Err(BallotError::NotInBallot { item, ballot });
            }
        }
        let log = &self.logs[ballot - 1];
        let p = self.slot[a];
        let mut issued = 0;
        let mut free = None;
        if a != b {
            let range = self.ticket_start[p]..self.ticket_start[p + 1];
            for (&t, &partner) in self.ticket_list[range.clone()]
                .iter()
                .zip(&self.partner_list[range])
            {
                if partner == b {
                    issued += 1;
                    if free.is_none() && log.votes[t].is_none() {
                        free = Some(t);
                    }
                }
            }
        }
        if issued == 0 {
            return Err(BallotError::PairNotIssued {
                first: a,
                second: b,
                ballot,
            });
        }
        let Some(ticket) = free else {
            return Err(BallotError::VotesExceedIssued {
                first: a,
                second: b,
                issued,
                ballot,
            });
        };
        let vote = if tie {
            Vote::Tie
        } else if log.comparisons[ticket].first == a {
            Vote::First
        } else {
            Vote::Second
        };
        self.apply(ballot, ticket, vote);
        Ok(ticket)
    }

    /// Closes the open ballot and computes its scores: x (Eq. 1), b̂ and y
    /// (Eq. 6), ȳ (Eq. 5).
    ///
    /// ```text
    /// xᵢ⁽ᵏ⁾ = nᵢ/Mᵢ
    /// b̂⁽ᵏ⁾ = Σⱼ (1 − xⱼ⁽ᵏ⁾)(1 − ȳⱼ⁽ᵏ⁻¹⁾) / Σⱼ (1 − xⱼ⁽ᵏ⁾)²   (k ≥ 2; b̂⁽¹⁾ = 1)
    /// yᵢ⁽ᵏ⁾ = 1 − b̂⁽ᵏ⁾ + b̂⁽ᵏ⁾·xᵢ⁽ᵏ⁾
    /// ȳᵢ⁽ᵏ⁾ = (1/k)·Σ_{k'=1..k} yᵢ⁽ᵏ'⁾          (AverageFrom::FirstBallot)
    ///       = (1/(k−1))·Σ_{k'=2..k} yᵢ⁽ᵏ'⁾      (AverageFrom::SecondBallot, k ≥ 2)
    /// ```
    ///
    /// # Errors
    /// [`BallotError::NoOpenBallot`]; [`BallotError::MissingVotes`] under
    /// [`Unvoted::Reject`] while some comparison has no vote;
    /// [`BallotError::NoVotes`] when an item has no vote at all. The ballot
    /// stays open on error.
    ///
    /// # Complexity
    /// O(N⁽ᵏ⁾).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Unvoted, Vote};
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2)?);
    /// let n = s.open_ballot(&mut rng)?.len();
    /// assert!(s.close_ballot(Unvoted::Reject).is_err()); // votes missing
    /// for t in 0..n {
    ///     s.record(t, Vote::Tie)?;
    /// }
    /// let scores = s.close_ballot(Unvoted::Reject)?;
    /// assert!(scores.x.iter().all(|&x| x == 0.5)); // all ties: x = ½
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn close_ballot(&mut self, unvoted: Unvoted) -> Result<&BallotScores> {
        let ballot = self.open_ballot_number()?;
        if unvoted == Unvoted::Reject && self.pending > 0 {
            return Err(BallotError::MissingVotes {
                ballot,
                missing: self.pending,
            });
        }
        let log = &self.logs[ballot - 1];
        if let Some(p) = self.seen.iter().position(|&s| s == 0) {
            return Err(BallotError::NoVotes {
                item: log.items[p],
                ballot,
            });
        }
        let items = log.items.clone();
        let x: Vec<f64> = self
            .wins2
            .iter()
            .zip(&self.seen)
            .map(|(&w, &s)| ratio_of_doubled(u128::from(w), s))
            .collect();
        let b_hat = if ballot == 1 {
            1.0
        } else {
            // ȳ⁽ᵏ⁻¹⁾ of the items of ballot k; the denominator is positive
            // because Σ xᵢ·Mᵢ = votes < Σ Mᵢ, so some x < 1.
            slope_f64(x.iter().copied(), items.iter().map(|&i| self.score[i])).unwrap_or(1.0)
        };
        let y: Vec<f64> = x.iter().map(|&x| rescale(x, b_hat)).collect();
        let from_second = self.config.options().average() == AverageFrom::SecondBallot;
        let mut y_bar = Vec::with_capacity(items.len());
        for (&i, &yi) in items.iter().zip(&y) {
            let yb = if from_second && ballot == 1 {
                yi
            } else {
                self.y_sum[i] += yi;
                let counted = if from_second { ballot - 1 } else { ballot };
                self.y_sum[i] / counted as f64
            };
            self.score[i] = yb;
            self.last_ballot[i] = ballot;
            y_bar.push(yb);
        }
        let wins: Vec<f64> = self.wins2.iter().map(|&w| w as f64 / 2.0).collect();
        let votes = (log.comparisons.len() - self.pending) as u64;
        let withdrawn = self.pending as u64;
        self.logs[ballot - 1].closed = true;
        self.pending = 0;
        self.history.push(BallotScores {
            ballot,
            items,
            appearances: self.seen.clone(),
            wins,
            x,
            y,
            y_bar,
            b_hat,
            votes,
            withdrawn,
        });
        Ok(&self.history[ballot - 1])
    }
}
