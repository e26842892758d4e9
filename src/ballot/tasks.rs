//! The tasks of a ballot as a crowdsourcing platform shows them: the
//! ballot's comparisons in ticket order with control pairs (comparisons with
//! a known answer) mixed in at random positions, optionally grouped into
//! fixed-size units (one unit per worker assignment).
//!
//! ```text
//! task position p:  control  if p is one of the placed control positions
//!                   ticket   p − #(control positions < p)   otherwise
//! unit of p:        ⌊p / unit_size⌋
//! ```

use core::fmt;
use core::str::FromStr;

use rand::seq::SliceRandom;
use rand::seq::index::sample;
use rand::{Rng, RngExt};

use super::error::{BallotError, Result};
use super::log::Vote;

/// A comparison with a known answer, used to measure how accurate each
/// worker is.
///
/// `first` and `second` are the caller's ids of the two things compared:
/// items of the collection or anything else the caller can show (the
/// library never ranks them). `answer` is the expected vote when `first` is
/// shown first.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{ControlPair, Vote};
/// let c = ControlPair::new(3, 8, Vote::First)?;
/// assert_eq!(c.answer_when_swapped(), Vote::Second);
/// assert!(ControlPair::new(3, 3, Vote::First).is_err());
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ControlPair {
    /// The thing shown first (before any swap).
    pub first: usize,
    /// The thing shown second (before any swap).
    pub second: usize,
    /// The correct vote with `first` shown first.
    pub answer: Vote,
}

impl ControlPair {
    /// A control pair; the two sides must differ.
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] when `first == second`.
    pub fn new(first: usize, second: usize, answer: Vote) -> Result<Self> {
        if first == second {
            return Err(BallotError::InvalidParameter {
                name: "control pair",
                expected: "two different things to compare",
            });
        }
        Ok(Self {
            first,
            second,
            answer,
        })
    }

    /// The correct vote when the pair is shown the other way round.
    #[must_use]
    pub fn answer_when_swapped(&self) -> Vote {
        match self.answer {
            Vote::First => Vote::Second,
            Vote::Second => Vote::First,
            Vote::Tie => Vote::Tie,
        }
    }
}

serde_mirror! {
    /// How the tasks of a ballot are laid out: the share of control tasks and
    /// the size of a unit.
    ///
    /// ```text
    /// no units:      round(r·C/(1 − r)) controls among C comparisons (a share r of all tasks)
    /// units of u:    every unit holds q = round(r·u) controls and u − q comparisons
    ///                (the last unit fewer comparisons), 1 ≤ q ≤ u − 1 when r > 0
    /// ```
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::LayoutOptions;
    /// let o = LayoutOptions::new(0.1, Some(20))?;
    /// assert_eq!(o.controls_per_unit(), Some(2));
    /// assert!(LayoutOptions::new(1.0, None).is_err());
    /// assert!(LayoutOptions::new(0.01, Some(20)).is_err()); // round(0.2) = 0 controls per unit
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Default)]
    pub struct LayoutOptions {
        control_rate: f64,
        unit_size: Option<usize>,
    }
    read and written through "RawLayoutOptions"
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RawLayoutOptions {
    control_rate: f64,
    unit_size: Option<usize>,
}

#[cfg(feature = "serde")]
impl TryFrom<RawLayoutOptions> for LayoutOptions {
    type Error = BallotError;
    fn try_from(r: RawLayoutOptions) -> Result<Self> {
        Self::new(r.control_rate, r.unit_size)
    }
}

#[cfg(feature = "serde")]
impl From<LayoutOptions> for RawLayoutOptions {
    fn from(o: LayoutOptions) -> Self {
        Self {
            control_rate: o.control_rate,
            unit_size: o.unit_size,
        }
    }
}

impl LayoutOptions {
    /// Tasks in ticket order, no controls, no units.
    #[must_use]
    pub const fn plain() -> Self {
        Self {
            control_rate: 0.0,
            unit_size: None,
        }
    }

    /// A layout with a share `control_rate` of control tasks and, optionally,
    /// units of `unit_size` tasks.
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] for a rate outside [0, 1) or NaN, a
    /// unit size of 0, or units whose share of controls rounds to none or to
    /// the whole unit.
    pub fn new(control_rate: f64, unit_size: Option<usize>) -> Result<Self> {
        if !(0.0..1.0).contains(&control_rate) {
            return Err(BallotError::InvalidParameter {
                name: "control_rate",
                expected: "a share of control tasks in [0, 1)",
            });
        }
        if unit_size == Some(0) {
            return Err(BallotError::InvalidParameter {
                name: "unit_size",
                expected: "at least one task per unit",
            });
        }
        let o = Self {
            control_rate,
            unit_size,
        };
        if let (Some(u), Some(q)) = (unit_size, o.controls_per_unit())
            && control_rate > 0.0
            && (q == 0 || q >= u)
        {
            return Err(BallotError::InvalidParameter {
                name: "control_rate",
                expected: "a share that puts between 1 and unit_size − 1 controls in a unit",
            });
        }
        Ok(o)
    }

    /// The share of control tasks r.
    #[must_use]
    pub const fn control_rate(&self) -> f64 {
        self.control_rate
    }

    /// The number of tasks per unit, if tasks are grouped.
    #[must_use]
    pub const fn unit_size(&self) -> Option<usize> {
        self.unit_size
    }

    /// The number of control tasks mixed into `comparisons` comparisons.
    ///
    /// ```text
    /// no units:   round(r·C/(1 − r))
    /// units of u: ⌈C/(u − q)⌉·q,   q = round(r·u)
    /// ```
    ///
    /// # Errors
    /// [`BallotError::TooLarge`] for more than
    /// [`BallotConfig::MAX_COMPARISONS`](super::BallotConfig::MAX_COMPARISONS)
    /// control tasks (a share r close to 1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::LayoutOptions;
    /// // A share of 0.2 of all tasks: 25 controls beside 100 comparisons.
    /// assert_eq!(LayoutOptions::new(0.2, None)?.n_controls(100)?, 25);
    /// // Units of 10 with 2 controls each: ⌈100/8⌉ = 13 units.
    /// assert_eq!(LayoutOptions::new(0.2, Some(10))?.n_controls(100)?, 26);
    /// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
    /// ```
    pub fn n_controls(&self, comparisons: usize) -> Result<usize> {
        let limit = super::config::BallotConfig::MAX_COMPARISONS;
        let r = self.control_rate;
        let q = if r == 0.0 || comparisons == 0 {
            0.0
        } else {
            match (self.unit_size, self.controls_per_unit()) {
                (Some(u), Some(q)) => {
                    // 1 ≤ q ≤ u − 1, checked in LayoutOptions::new.
                    comparisons.div_ceil(u.saturating_sub(q).max(1)) as f64 * q as f64
                }
                _ => (r * comparisons as f64 / (1.0 - r)).round(),
            }
        };
        if q > limit as f64 {
            return Err(BallotError::TooLarge {
                quantity: "control tasks",
                requested: q as u64,
                limit,
            });
        }
        Ok(q as usize)
    }

    /// Controls per unit, round(r·u), when tasks are grouped.
    #[must_use]
    pub fn controls_per_unit(&self) -> Option<usize> {
        self.unit_size
            .map(|u| (self.control_rate * u as f64).round() as usize)
    }
}

/// Where a task of a ballot points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Task {
    /// A comparison of the ballot: its ticket.
    Comparison {
        /// Index into the ballot's comparisons.
        ticket: usize,
    },
    /// A control pair.
    Control {
        /// Index into the campaign's control pairs.
        pair: usize,
        /// `true` when the pair is shown the other way round.
        swapped: bool,
    },
}

/// A task's identity across a whole campaign: its ballot (1-based) and its
/// position (0-based) in the ballot's task list. Written `b<ballot>-<position>`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::TaskId;
/// let t: TaskId = "b2-17".parse()?;
/// assert_eq!(t, TaskId { ballot: 2, position: 17 });
/// assert_eq!(t.to_string(), "b2-17");
/// assert!("b0-1".parse::<TaskId>().is_err());
/// assert!("2-17".parse::<TaskId>().is_err());
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TaskId {
    /// The ballot (1-based).
    pub ballot: usize,
    /// The position in the ballot's task list (0-based).
    pub position: usize,
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}-{}", self.ballot, self.position)
    }
}

impl FromStr for TaskId {
    type Err = BallotError;

    fn from_str(s: &str) -> Result<Self> {
        let bad = BallotError::InvalidParameter {
            name: "task id",
            expected: "b<ballot>-<position>, e.g. b1-0",
        };
        let rest = s.strip_prefix('b').ok_or(bad)?;
        let (b, p) = rest.split_once('-').ok_or(bad)?;
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
        if !digits(b) || !digits(p) {
            return Err(bad);
        }
        let ballot: usize = b.parse().map_err(|_| bad)?;
        let position: usize = p.parse().map_err(|_| bad)?;
        if ballot == 0 {
            return Err(bad);
        }
        Ok(Self { ballot, position })
    }
}

/// A control placed in a ballot's task list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlacedControl {
    pub(crate) position: usize,
    pub(crate) pair: usize,
    pub(crate) swapped: bool,
}

/// The task list of one ballot: its comparisons in ticket order with the
/// controls at their positions, and the unit size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLayout {
    pub(crate) comparisons: usize,
    pub(crate) controls: Vec<PlacedControl>,
    pub(crate) unit_size: Option<usize>,
}

impl TaskLayout {
    /// Lays out `comparisons` tickets and, per `options`, controls drawn in
    /// turn from a shuffled deck of `n_pairs` control pairs (reshuffled when
    /// used up), each shown either way round at random.
    ///
    /// # Errors
    /// [`BallotError::InvalidParameter`] when controls are asked for but
    /// there is no control pair; [`BallotError::TooLarge`] for too many
    /// control tasks.
    ///
    /// # Complexity
    /// O(C + controls) time and memory.
    pub(crate) fn draw<R: Rng + ?Sized>(
        comparisons: usize,
        n_pairs: usize,
        options: &LayoutOptions,
        rng: &mut R,
    ) -> Result<Self> {
        let total = options.n_controls(comparisons)?;
        let mut positions: Vec<usize> = Vec::with_capacity(total);
        if total > 0 {
            if n_pairs == 0 {
                return Err(BallotError::InvalidParameter {
                    name: "controls",
                    expected: "at least one control pair when the control rate is positive",
                });
            }
            match (options.unit_size, options.controls_per_unit()) {
                (Some(u), Some(q)) => {
                    let per_unit = u - q; // ≥ 1, checked in LayoutOptions::new
                    let mut start = 0;
                    let mut left = comparisons;
                    while left > 0 {
                        let len = left.min(per_unit) + q;
                        let mut chosen = sample(rng, len, q).into_vec();
                        chosen.sort_unstable();
                        positions.extend(chosen.into_iter().map(|p| start + p));
                        start += len;
                        left -= len - q;
                    }
                }
                _ => {
                    let mut chosen = sample(rng, comparisons + total, total).into_vec();
                    chosen.sort_unstable();
                    positions = chosen;
                }
            }
        }
        let mut deck: Vec<usize> = Vec::new();
        let mut controls = Vec::with_capacity(positions.len());
        for position in positions {
            if deck.is_empty() {
                deck.extend(0..n_pairs);
                deck.shuffle(rng);
            }
            let pair = deck.pop().unwrap_or(0);
            controls.push(PlacedControl {
                position,
                pair,
                swapped: rng.random::<bool>(),
            });
        }
        Ok(Self {
            comparisons,
            controls,
            unit_size: options.unit_size,
        })
    }

    /// The number of tasks: comparisons plus controls.
    #[must_use]
    pub fn len(&self) -> usize {
        self.comparisons + self.controls.len()
    }

    /// `true` when the ballot has no task.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of control tasks.
    #[must_use]
    pub fn n_controls(&self) -> usize {
        self.controls.len()
    }

    /// The unit size, if tasks are grouped.
    #[must_use]
    pub fn unit_size(&self) -> Option<usize> {
        self.unit_size
    }

    /// What the task at `position` is, or `None` past the end.
    ///
    /// # Complexity
    /// O(log controls).
    #[must_use]
    pub fn task(&self, position: usize) -> Option<Task> {
        if position >= self.len() {
            return None;
        }
        Some(
            match self
                .controls
                .binary_search_by_key(&position, |c| c.position)
            {
                Ok(i) => Task::Control {
                    pair: self.controls[i].pair,
                    swapped: self.controls[i].swapped,
                },
                Err(before) => Task::Comparison {
                    ticket: position - before,
                },
            },
        )
    }

    /// The unit (0-based) of the task at `position`, when tasks are grouped.
    #[must_use]
    pub fn unit(&self, position: usize) -> Option<usize> {
        self.unit_size.map(|u| position / u)
    }

    /// Every task in order. O(C + controls) for the whole walk.
    pub fn iter(&self) -> impl Iterator<Item = Task> + '_ {
        let mut next_control = self.controls.iter().peekable();
        let mut ticket = 0;
        (0..self.len()).map(move |p| {
            if let Some(c) = next_control.next_if(|c| c.position == p) {
                Task::Control {
                    pair: c.pair,
                    swapped: c.swapped,
                }
            } else {
                ticket += 1;
                Task::Comparison { ticket: ticket - 1 }
            }
        })
    }

    /// The position of each ticket (the inverse of [`TaskLayout::task`] on
    /// comparisons).
    pub(crate) fn ticket_positions(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.comparisons);
        for (p, t) in self.iter().enumerate() {
            if let Task::Comparison { .. } = t {
                out.push(p);
            }
        }
        out
    }

    /// Checks a restored layout: positions ascending and in range, pairs in
    /// range.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn check(&self, n_pairs: usize) -> bool {
        let len = self.len();
        self.controls
            .windows(2)
            .all(|w| w[0].position < w[1].position)
            && self
                .controls
                .iter()
                .all(|c| c.position < len && c.pair < n_pairs)
            && self.unit_size != Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn task_ids_round_trip_and_reject_garbage() {
        for s in ["b1-0", "b12-345", "b1000-0"] {
            assert_eq!(s.parse::<TaskId>().unwrap().to_string(), s);
        }
        for s in [
            "",
            "b",
            "b1",
            "b1-",
            "b-1",
            "1-1",
            "B1-1",
            "b1-x",
            "b+1-2",
            "b1--2",
            "b0-3",
            "b1-2-3",
            "b99999999999999999999999-1",
        ] {
            assert!(s.parse::<TaskId>().is_err(), "{s}");
        }
    }

    #[test]
    fn options_are_validated() {
        assert!(LayoutOptions::new(-0.1, None).is_err());
        assert!(LayoutOptions::new(f64::NAN, None).is_err());
        assert!(LayoutOptions::new(0.5, Some(0)).is_err());
        assert!(LayoutOptions::new(0.99, Some(4)).is_err()); // round(3.96) = 4 = u
        assert!(LayoutOptions::new(0.0, Some(1)).is_ok());
        assert!(LayoutOptions::new(0.5, Some(4)).is_ok());
    }

    #[test]
    fn units_hold_the_planned_controls() {
        // C = 45 comparisons, units of 10 with round(0.2·10) = 2 controls:
        // ⌈45/8⌉ = 6 units, 12 controls, 57 tasks; the last unit holds 5 + 2.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let o = LayoutOptions::new(0.2, Some(10)).unwrap();
        let l = TaskLayout::draw(45, 3, &o, &mut rng).unwrap();
        assert_eq!(l.n_controls(), 12);
        assert_eq!(l.len(), 57);
        let tasks: Vec<Task> = l.iter().collect();
        for unit in tasks.chunks(10) {
            let c = unit
                .iter()
                .filter(|t| matches!(t, Task::Control { .. }))
                .count();
            assert_eq!(c, 2);
        }
        // Tickets in order, each once; task() agrees with iter().
        let tickets: Vec<usize> = tasks
            .iter()
            .filter_map(|t| match t {
                Task::Comparison { ticket } => Some(*ticket),
                Task::Control { .. } => None,
            })
            .collect();
        assert_eq!(tickets, (0..45).collect::<Vec<_>>());
        for (p, t) in tasks.iter().enumerate() {
            assert_eq!(l.task(p), Some(*t));
        }
        assert_eq!(l.task(57), None);
        assert_eq!(l.unit(56), Some(5));
        let pos = l.ticket_positions();
        for (ticket, &p) in pos.iter().enumerate() {
            assert_eq!(l.task(p), Some(Task::Comparison { ticket }));
        }
        // Every pair of the 3 is used 4 times: the deck is dealt in full.
        for pair in 0..3 {
            let n = tasks
                .iter()
                .filter(|t| matches!(t, Task::Control { pair: p, .. } if *p == pair))
                .count();
            assert_eq!(n, 4);
        }
    }

    #[test]
    fn share_without_units() {
        // r = 0.2, C = 100: round(0.2·100/0.8) = 25 controls, 20% of 125 tasks.
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let o = LayoutOptions::new(0.2, None).unwrap();
        let l = TaskLayout::draw(100, 1, &o, &mut rng).unwrap();
        assert_eq!((l.n_controls(), l.len()), (25, 125));
        assert!(l.check(1));
        assert!(!l.check(0));
        let plain = TaskLayout::draw(100, 0, &LayoutOptions::plain(), &mut rng).unwrap();
        assert_eq!(plain.len(), 100);
        assert!(TaskLayout::draw(100, 0, &o, &mut rng).is_err());
        // A share just under 1: round(r/(1 − r)·C) controls, over the limit.
        let huge = LayoutOptions::new(1.0 - 1e-12, None).unwrap();
        assert!(matches!(
            TaskLayout::draw(1000, 1, &huge, &mut rng),
            Err(BallotError::TooLarge {
                quantity: "control tasks",
                ..
            })
        ));
    }
}
