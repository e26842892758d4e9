//! Validated parameters of an adaptive vote collection (N, M, α, n_b) and the
//! options that choose between the paper's text and its published code.

use super::error::{BallotError, Result};
use super::plan::{ballot_sizes, check_m, comparisons_in_ballot};

/// Where the running average ȳ of Eq. 5 starts.
///
/// ```text
/// FirstBallot  (paper, Eq. 5):  ȳᵢ⁽ᵏ⁾ = (1/k)     Σ_{k'=1..k} yᵢ⁽ᵏ'⁾
/// SecondBallot (published code): ȳᵢ⁽ᵏ⁾ = (1/(k−1)) Σ_{k'=2..k} yᵢ⁽ᵏ'⁾   for k ≥ 2,
///                                ȳᵢ⁽¹⁾ = yᵢ⁽¹⁾ = xᵢ⁽¹⁾
/// ```
///
/// Reference: Lombardo et al. (2020) Eq. 5; published-code departure 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AverageFrom {
    /// Average the rescaled scores from ballot 1 on, as Eq. 5 says.
    #[default]
    FirstBallot,
    /// Leave ballot 1 out of the average once a second ballot exists, as the
    /// published code does.
    SecondBallot,
}

/// Which score decides the items that go on to the next ballot.
///
/// Reference: Lombardo et al. (2020) §2.5–2.6; published-code departure 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SelectOn {
    /// The running average ȳ⁽ᵏ⁾ of Eq. 5 (the paper).
    #[default]
    RunningAverage,
    /// The raw score x⁽ᵏ⁾ of the ballot just closed (the published code).
    LastScore,
}

/// The rounding rule of `round(α·N⁽ᵏ⁻¹⁾)` in Eq. 2.
///
/// The paper writes `round` without saying how halves go; the usual
/// mathematical reading, taken here as the default, rounds a half up (away
/// from zero, as [`f64::round`]). The published code uses Python's `round`,
/// which rounds a half to the even neighbour. The two differ only when
/// α·N⁽ᵏ⁻¹⁾ is exactly a half-integer: 2.5 → 3 or 2.
///
/// Reference: Lombardo et al. (2020) Eq. 2; published-code departure 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rounding {
    /// Halves round away from zero (up, for sizes): the paper's `round`.
    #[default]
    HalfAwayFromZero,
    /// Halves round to the even neighbour: the published code (Python 3 `round`).
    HalfToEven,
}

impl Rounding {
    /// Rounds `v` to an integral value under this rule.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::Rounding;
    /// assert_eq!(Rounding::HalfAwayFromZero.round(2.5), 3.0);
    /// assert_eq!(Rounding::HalfToEven.round(2.5), 2.0);
    /// assert_eq!(Rounding::HalfToEven.round(247.5), 248.0);
    /// ```
    #[must_use]
    pub fn round(self, v: f64) -> f64 {
        match self {
            Self::HalfAwayFromZero => v.round(),
            Self::HalfToEven => v.round_ties_even(),
        }
    }
}

/// How the final ranking orders items that left the collection at different
/// ballots.
///
/// Reference: published-code departure 9 (the published code sorts every item on
/// its last score, so eliminated items and survivors interleave); the paper
/// treats ȳ as a Borda-score estimate comparable across ballots (§2.6), which
/// is the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RankBy {
    /// Every item by its score at the last ballot it reached (ȳ at
    /// elimination, or at the last ballot); items of different ballots
    /// interleave.
    #[default]
    Score,
    /// Items that reached a later ballot always above items eliminated
    /// earlier; by score within a ballot.
    BallotThenScore,
}

/// The choices where the paper's text and its published code differ.
///
/// [`Options::paper`] (the default) follows the text; [`Options::published`]
/// reproduces the code that produced the paper's Table 2.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{AverageFrom, Options, SelectOn};
/// let o = Options::paper().with_selection(SelectOn::LastScore);
/// assert_eq!(o.selection(), SelectOn::LastScore);
/// assert_eq!(o.average(), AverageFrom::FirstBallot);
/// assert_eq!(Options::published().average(), AverageFrom::SecondBallot);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options {
    average: AverageFrom,
    selection: SelectOn,
    rounding: Rounding,
    rank_by: RankBy,
}

impl Options {
    /// The paper's text: ȳ from ballot 1, selection on ȳ, halves rounded up,
    /// final ranking by score.
    #[must_use]
    pub const fn paper() -> Self {
        Self {
            average: AverageFrom::FirstBallot,
            selection: SelectOn::RunningAverage,
            rounding: Rounding::HalfAwayFromZero,
            rank_by: RankBy::Score,
        }
    }

    /// The published code: ȳ from ballot 2, selection on the last x, halves
    /// rounded to even, final ranking by score.
    #[must_use]
    pub const fn published() -> Self {
        Self {
            average: AverageFrom::SecondBallot,
            selection: SelectOn::LastScore,
            rounding: Rounding::HalfToEven,
            rank_by: RankBy::Score,
        }
    }

    /// Sets where the running average starts.
    #[must_use]
    pub const fn with_average(mut self, average: AverageFrom) -> Self {
        self.average = average;
        self
    }

    /// Sets the selection score.
    #[must_use]
    pub const fn with_selection(mut self, selection: SelectOn) -> Self {
        self.selection = selection;
        self
    }

    /// Sets the rounding rule of Eq. 2.
    #[must_use]
    pub const fn with_rounding(mut self, rounding: Rounding) -> Self {
        self.rounding = rounding;
        self
    }

    /// Sets the order of the final ranking.
    #[must_use]
    pub const fn with_rank_by(mut self, rank_by: RankBy) -> Self {
        self.rank_by = rank_by;
        self
    }

    /// Where the running average starts.
    #[must_use]
    pub const fn average(&self) -> AverageFrom {
        self.average
    }

    /// The selection score.
    #[must_use]
    pub const fn selection(&self) -> SelectOn {
        self.selection
    }

    /// The rounding rule of Eq. 2.
    #[must_use]
    pub const fn rounding(&self) -> Rounding {
        self.rounding
    }

    /// The order of the final ranking.
    #[must_use]
    pub const fn rank_by(&self) -> RankBy {
        self.rank_by
    }
}

serde_mirror! {
    /// Validated parameters of an adaptive vote collection (Lombardo et al. 2020,
    /// §2.5): N items, M appearances per item and ballot, a fraction α of items
    /// kept at each ballot, n_b ballots.
    ///
    /// ```text
    /// N⁽¹⁾ = N,   N⁽ᵏ⁾ = round(α·N⁽ᵏ⁻¹⁾)                          (Eq. 2)
    /// N_comp = Σ_{k=1..n_b} ⌈M·N⁽ᵏ⁾/2⌉                            (Eq. 3, exact)
    /// ```
    ///
    /// A value of this type always describes a collection that can run: N ≥ 2,
    /// M ≥ 1, 0 < α < 1, 1 ≤ n_b ≤ [`BallotConfig::MAX_BALLOTS`], every ballot
    /// with at least two items, N ≤ [`BallotConfig::MAX_ITEMS`] and at most
    /// [`BallotConfig::MAX_COMPARISONS`] comparisons over all ballots.
    /// Deserialising validates again. (A text format may read α back one ulp
    /// off — serde_json does without its `float_roundtrip` feature; a saved
    /// [`Scheduler`](super::Scheduler) keeps α's exact bits for that reason.)
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Options};
    /// let c = BallotConfig::with_options(990, 20, 0.5, 7, Options::published())?;
    /// assert_eq!(c.ballot_sizes(), vec![990, 495, 248, 124, 62, 31, 16]);
    /// assert!(BallotConfig::new(990, 20, 1.5, 7).is_err());
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct BallotConfig {
        n_items: usize,
        m: usize,
        alpha: f64,
        n_ballots: usize,
        options: Options,
    }
    read and written through "RawConfig"
}

/// The unvalidated mirror of [`BallotConfig`] that serde reads and writes.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RawConfig {
    n_items: usize,
    m: usize,
    alpha: f64,
    n_ballots: usize,
    options: Options,
}

#[cfg(feature = "serde")]
impl TryFrom<RawConfig> for BallotConfig {
    type Error = BallotError;
    fn try_from(r: RawConfig) -> Result<Self> {
        Self::with_options(r.n_items, r.m, r.alpha, r.n_ballots, r.options)
    }
}

#[cfg(feature = "serde")]
impl From<BallotConfig> for RawConfig {
    fn from(c: BallotConfig) -> Self {
        Self {
            n_items: c.n_items,
            m: c.m,
            alpha: c.alpha,
            n_ballots: c.n_ballots,
            options: c.options,
        }
    }
}

impl BallotConfig {
    /// The largest number of ballots accepted. The paper calls n_b ≲ 10
    /// reasonable (§2.7); the cap only keeps plans small.
    pub const MAX_BALLOTS: usize = 1000;

    /// The largest number of items N accepted: 2²⁴ ≈ 1.7·10⁷. A scheduler
    /// keeps about 100 bytes per item (scores, running averages, the items of
    /// every ballot), 1.6 GiB at the limit; the paper's collections have
    /// N ≈ 10³.
    pub const MAX_ITEMS: usize = 1 << 24;

    /// The largest number of comparisons a collection may issue over all its
    /// ballots (and the largest a single call of
    /// [`random_matchings`](super::random_matchings),
    /// [`spread_over_voters`](super::spread_over_voters) or
    /// [`uniform_plan`](super::uniform_plan) builds): 2²⁶ ≈ 6.7·10⁷. A
    /// scheduler keeps every comparison and its vote (17 bytes) and indexes
    /// the open ballot's (32 bytes more): under 3.2 GiB at the limit. The
    /// paper's Table 2 collects 19 660 votes; 10⁶ items with M = 20 need
    /// about 2·10⁷.
    pub const MAX_COMPARISONS: u64 = 1 << 26;

    /// The largest number of voters [`spread_over_voters`](super::spread_over_voters)
    /// accepts: 2²⁴ ≈ 1.7·10⁷ (about 40 bytes each).
    pub const MAX_VOTERS: usize = 1 << 24;

    /// A configuration with the paper's options ([`Options::paper`]).
    ///
    /// # Errors
    /// See [`BallotConfig::with_options`].
    ///
    /// # Complexity
    /// O(n_b).
    pub fn new(n_items: usize, m: usize, alpha: f64, n_ballots: usize) -> Result<Self> {
        Self::with_options(n_items, m, alpha, n_ballots, Options::paper())
    }

    /// A configuration with explicit options.
    ///
    /// # Errors
    /// - [`BallotError::TooFewItems`] for N < 2;
    /// - [`BallotError::InvalidParameter`] for M = 0, α outside (0, 1) or NaN,
    ///   n_b = 0 or n_b > [`BallotConfig::MAX_BALLOTS`];
    /// - [`BallotError::BallotTooSmall`] when Eq. 2 leaves fewer than two
    ///   items in a ballot (the last one is the smallest);
    /// - [`BallotError::TooLarge`] for N > [`BallotConfig::MAX_ITEMS`] or
    ///   more than [`BallotConfig::MAX_COMPARISONS`] comparisons over all
    ///   ballots (nothing is allocated before this check);
    /// - [`BallotError::Overflow`] when a comparison count exceeds 64 bits.
    ///
    /// # Complexity
    /// O(n_b).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, BallotError, Options};
    /// // 3 items, α = 0.5: the second ballot would hold round(1.5) = 2 items,
    /// // the third round(1.0) = 1.
    /// let e = BallotConfig::with_options(3, 2, 0.5, 3, Options::paper()).unwrap_err();
    /// assert_eq!(e, BallotError::BallotTooSmall { ballot: 3, items: 1 });
    /// ```
    pub fn with_options(
        n_items: usize,
        m: usize,
        alpha: f64,
        n_ballots: usize,
        options: Options,
    ) -> Result<Self> {
        check_m(m)?;
        check_limit("items", n_items as u64, Self::MAX_ITEMS as u64)?;
        let sizes = ballot_sizes(n_items, alpha, n_ballots, options.rounding)?;
        let mut total: u64 = 0;
        for &n in &sizes {
            let c = comparisons_in_ballot(n, m).ok_or(BallotError::Overflow {
                what: "the number of comparisons of a ballot",
            })?;
            total = total.checked_add(c).ok_or(BallotError::Overflow {
                what: "the total number of comparisons",
            })?;
        }
        check_limit("comparisons", total, Self::MAX_COMPARISONS)?;
        Ok(Self {
            n_items,
            m,
            alpha,
            n_ballots,
            options,
        })
    }

    /// The number of items N.
    #[must_use]
    pub const fn n_items(&self) -> usize {
        self.n_items
    }

    /// The number M of appearances of each item in each ballot.
    #[must_use]
    pub const fn m(&self) -> usize {
        self.m
    }

    /// The fraction α of items kept at each ballot.
    #[must_use]
    pub const fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The number of ballots n_b.
    #[must_use]
    pub const fn n_ballots(&self) -> usize {
        self.n_ballots
    }

    /// The options.
    #[must_use]
    pub const fn options(&self) -> Options {
        self.options
    }

    /// The ballot sizes N⁽¹⁾ … N⁽ⁿᵇ⁾ of Eq. 2 under this configuration's
    /// rounding rule.
    ///
    /// # Complexity
    /// O(n_b).
    #[must_use]
    pub fn ballot_sizes(&self) -> Vec<usize> {
        // Validated at construction: cannot fail.
        ballot_sizes(
            self.n_items,
            self.alpha,
            self.n_ballots,
            self.options.rounding,
        )
        .unwrap_or_default()
    }
}

/// [`BallotError::TooLarge`] when `requested > limit`.
pub(crate) fn check_limit(quantity: &'static str, requested: u64, limit: u64) -> Result<()> {
    if requested > limit {
        return Err(BallotError::TooLarge {
            quantity,
            requested,
            limit,
        });
    }
    Ok(())
}

/// The number of comparisons of `m` matchings over `n` items, ⌈m·n/2⌉,
/// checked against 64 bits and [`BallotConfig::MAX_COMPARISONS`].
pub(crate) fn checked_comparisons(n: usize, m: usize) -> Result<u64> {
    let c = comparisons_in_ballot(n, m).ok_or(BallotError::Overflow {
        what: "the number of comparisons",
    })?;
    check_limit("comparisons", c, BallotConfig::MAX_COMPARISONS)?;
    Ok(c)
}

#[cfg(test)]
// Exact comparisons of values that are exact in binary (dyadic fractions).
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn rejects_each_bad_parameter() {
        let bad = |n, m, a, b| BallotConfig::new(n, m, a, b).unwrap_err();
        assert_eq!(
            bad(1, 20, 0.5, 1),
            BallotError::TooFewItems { needed: 2, got: 1 }
        );
        assert_eq!(
            bad(0, 20, 0.5, 1),
            BallotError::TooFewItems { needed: 2, got: 0 }
        );
        assert!(matches!(
            bad(990, 0, 0.5, 7),
            BallotError::InvalidParameter { name: "m", .. }
        ));
        for a in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                bad(990, 20, a, 7),
                BallotError::InvalidParameter { name: "alpha", .. }
            ));
        }
        assert!(matches!(
            bad(990, 20, 0.5, 0),
            BallotError::InvalidParameter {
                name: "n_ballots",
                ..
            }
        ));
        assert!(matches!(
            bad(990, 20, 0.5, 1001),
            BallotError::InvalidParameter {
                name: "n_ballots",
                ..
            }
        ));
        // 990 · 0.5⁹ ≈ 1.9 → 2, 990 · 0.5¹⁰ → round(1.0) = 1.
        assert_eq!(
            bad(990, 20, 0.5, 11),
            BallotError::BallotTooSmall {
                ballot: 11,
                items: 1
            }
        );
        assert_eq!(
            bad(usize::MAX, usize::MAX, 0.5, 1),
            BallotError::TooLarge {
                quantity: "items",
                requested: usize::MAX as u64,
                limit: 1 << 24
            }
        );
        assert!(matches!(
            bad(1 << 24, usize::MAX, 0.5, 1),
            BallotError::Overflow { .. }
        ));
        // Issue 17: 10⁶ items × 10⁶ appearances would be 5·10¹¹ comparisons
        // in ballot 1 alone (plus 2.5·10¹¹ + … in the next six).
        let e = bad(1_000_000, 1_000_000, 0.5, 7);
        assert!(
            matches!(e, BallotError::TooLarge { quantity: "comparisons", requested, limit: 67_108_864 } if requested > 500_000_000_000),
            "{e:?}"
        );
        // The largest accepted: 2²⁶ comparisons in one ballot.
        assert!(BallotConfig::new(1 << 24, 8, 0.5, 1).is_ok());
        assert!(BallotConfig::new(1 << 24, 9, 0.5, 1).is_err());
    }

    #[test]
    fn rounding_choice_changes_validity_and_sizes() {
        // 5 · 0.5 = 2.5: half up gives 3 items, half to even 2.
        let up = BallotConfig::new(5, 2, 0.5, 2).unwrap();
        assert_eq!(up.ballot_sizes(), vec![5, 3]);
        let even = BallotConfig::with_options(
            5,
            2,
            0.5,
            2,
            Options::paper().with_rounding(Rounding::HalfToEven),
        )
        .unwrap();
        assert_eq!(even.ballot_sizes(), vec![5, 2]);
        // A third ballot: 3 · 0.5 = 1.5 → 2 (up); 2 · 0.5 = 1 (even) is too small.
        assert!(BallotConfig::new(5, 2, 0.5, 3).is_ok());
        assert_eq!(
            BallotConfig::with_options(5, 2, 0.5, 3, Options::published()).unwrap_err(),
            BallotError::BallotTooSmall {
                ballot: 3,
                items: 1
            }
        );
    }

    #[test]
    fn options_presets() {
        assert_eq!(Options::default(), Options::paper());
        let p = Options::published();
        assert_eq!(p.average(), AverageFrom::SecondBallot);
        assert_eq!(p.selection(), SelectOn::LastScore);
        assert_eq!(p.rounding(), Rounding::HalfToEven);
        assert_eq!(p.rank_by(), RankBy::Score);
        let q = Options::paper().with_rank_by(RankBy::BallotThenScore);
        assert_eq!(q.rank_by(), RankBy::BallotThenScore);
    }
}
