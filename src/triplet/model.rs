//! The data model: target groups and binary comparisons (Avraham & Goldberg
//! 2016, §4.1).

use core::fmt;

/// The type of a binary comparison, named after its second word `w2`
/// (the first word `w1` is always a positive candidate).
///
/// ```text
/// Positive    w1, w2 both positives; R_> = share of annotators ranking w1 above w2
/// Distractor  w2 is related to the target by a non-preferred relation; R_> = 1
/// Random      w2 is unrelated to the target; R_> = 1
/// ```
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::ComparisonKind;
/// assert_eq!(ComparisonKind::Distractor.to_string(), "distractor");
/// assert_eq!(ComparisonKind::ALL.len(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ComparisonKind {
    /// Positive vs positive (`P` in the paper's Table 1).
    #[default]
    Positive,
    /// Positive vs distractor (`D`).
    Distractor,
    /// Positive vs random (`R`).
    Random,
}

impl ComparisonKind {
    /// The three kinds, in the order the dataset format lists their sections.
    pub const ALL: [Self; 3] = [Self::Positive, Self::Distractor, Self::Random];

    /// The section header of this kind in the published dataset format:
    /// `positives`, `distractors` or `randoms`.
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            Self::Positive => "positives",
            Self::Distractor => "distractors",
            Self::Random => "randoms",
        }
    }
}

impl fmt::Display for ComparisonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Positive => "positive",
            Self::Distractor => "distractor",
            Self::Random => "random",
        })
    }
}

/// One binary comparison `(w_t, w1, w2, R_>(w1, w2; w_t))` with its type.
///
/// `reliability` is R_>(w1, w2; w_t): how likely a human ranks the pair
/// `(w_t, w1)` above `(w_t, w2)`, so `R_>(w2, w1; w_t) = 1 − R_>(w1, w2; w_t)`.
/// It must lie in `[0, 1]`; the scoring functions check it.
///
/// The word type `S` is `String` by default; any `AsRef<str>` works, so a
/// large set of comparisons can borrow its words (`Comparison<&str>`).
///
/// Reference: Avraham & Goldberg (2016), §4.1 and Table 1.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{Comparison, ComparisonKind};
/// // Table 1, first row: 10% of the annotators rank (singer, person) above (singer, musician).
/// let c = Comparison::new("singer", "person", "musician", 0.1, ComparisonKind::Positive);
/// assert_eq!(c.reversed().reliability, 0.9);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Comparison<S = String> {
    /// The target word w_t.
    pub target: S,
    /// The first candidate w1 (a positive).
    pub w1: S,
    /// The second candidate w2.
    pub w2: S,
    /// R_>(w1, w2; w_t) in `[0, 1]`.
    pub reliability: f64,
    /// The comparison type.
    pub kind: ComparisonKind,
}

impl Comparison {
    /// A comparison with owned words (build a `Comparison<&str>` with a
    /// struct literal). The reliability is checked when the comparison is
    /// scored or written.
    #[must_use]
    pub fn new(
        target: impl Into<String>,
        w1: impl Into<String>,
        w2: impl Into<String>,
        reliability: f64,
        kind: ComparisonKind,
    ) -> Self {
        Self {
            target: target.into(),
            w1: w1.into(),
            w2: w2.into(),
            reliability,
            kind,
        }
    }
}

impl<S> Comparison<S> {
    /// The same comparison with `w1` and `w2` swapped and `R_>` replaced by
    /// `1 − R_>`. Scoring is invariant under this swap except for the
    /// [`TiePolicy::ChooseSecond`](super::TiePolicy::ChooseSecond) policy.
    #[must_use]
    pub fn reversed(self) -> Self {
        Self {
            target: self.target,
            w1: self.w2,
            w2: self.w1,
            reliability: 1.0 - self.reliability,
            kind: self.kind,
        }
    }

    /// Borrows the words: `Comparison<&str>`.
    #[must_use]
    pub fn as_str(&self) -> Comparison<&str>
    where
        S: AsRef<str>,
    {
        Comparison {
            target: self.target.as_ref(),
            w1: self.w1.as_ref(),
            w2: self.w2.as_ref(),
            reliability: self.reliability,
            kind: self.kind,
        }
    }
}

/// A target word with its candidate words (Avraham & Goldberg 2016, §4.1).
///
/// Positives follow the preferred relation (e.g. hypernyms) and are ranked by
/// annotators; distractors follow another relation (e.g. associates) and
/// randoms are unrelated. Both kinds of negatives rank below every positive.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::TargetGroup;
/// let g = TargetGroup::new("singer", ["musician", "performer", "person", "artist"], ["song"], ["laptop"]);
/// assert_eq!(g.comparison_count(), 6 + 4 + 4);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetGroup {
    /// The target word w_t.
    pub target: String,
    /// Candidates in the preferred relation, ranked by annotators.
    pub positives: Vec<String>,
    /// Related candidates in a non-preferred relation.
    pub distractors: Vec<String>,
    /// Unrelated candidates.
    pub randoms: Vec<String>,
}

impl TargetGroup {
    /// A group from its target and three candidate lists.
    #[must_use]
    pub fn new<P, D, R>(target: impl Into<String>, positives: P, distractors: D, randoms: R) -> Self
    where
        P: IntoIterator,
        P::Item: Into<String>,
        D: IntoIterator,
        D::Item: Into<String>,
        R: IntoIterator,
        R::Item: Into<String>,
    {
        Self {
            target: target.into(),
            positives: positives.into_iter().map(Into::into).collect(),
            distractors: distractors.into_iter().map(Into::into).collect(),
            randoms: randoms.into_iter().map(Into::into).collect(),
        }
    }

    /// The number of binary comparisons the group yields:
    ///
    /// ```text
    /// p(p − 1)/2 + p·d + p·r    (p positives, d distractors, r randoms)
    /// ```
    #[must_use]
    pub fn comparison_count(&self) -> usize {
        let p = self.positives.len();
        p * p.saturating_sub(1) / 2 + p * (self.distractors.len() + self.randoms.len())
    }
}
