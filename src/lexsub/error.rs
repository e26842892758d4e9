//! The error type of the lexical-substitution module.

use thiserror::Error;

/// Which input an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Side {
    /// The gold standard (annotator substitutes with counts).
    Gold,
    /// The system output (ranked answers).
    System,
}

impl core::fmt::Display for Side {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Side::Gold => "gold",
            Side::System => "system output",
        })
    }
}

module_error! {
    /// Everything that can go wrong when reading or scoring lexical-substitution
    /// data.
    ///
    /// Every variant says *what* was wrong and *where* (file line, item id,
    /// substitute index). Messages are lowercase without a trailing period. New
    /// variants may be added in minor releases.
    #[derive(Debug, Clone, PartialEq, Eq, Error)]
    #[non_exhaustive]
    pub enum LexsubError {
        shared {
            /// A parameter is outside its domain.
            InvalidParameter,
        }
        /// A line of a gold or system file does not have the expected shape.
        #[error("line {line}: expected {expected}")]
        Syntax {
            /// 1-based line number in the file.
            line: usize,
            /// What the reader expected to find.
            expected: &'static str,
        },
        /// An annotator count is a well-formed positive integer too large to
        /// hold.
        #[error("line {line}, column {column}: annotator count overflows (at most {max})")]
        CountOverflow {
            /// 1-based line number in the file.
            line: usize,
            /// 1-based character column of the count's first digit.
            column: usize,
            /// The largest count accepted there.
            max: u64,
        },
        /// `score.pl` has no defined result for this input (it stops, or its
        /// result depends on its hash order); see
        /// [`score_pl`](super::score_pl).
        #[error("line {line}: item {id}: score.pl has no defined result: {reason}")]
        NotReproducible {
            /// 1-based line of the system file where `score.pl` gets there.
            line: usize,
            /// The item id.
            id: String,
            /// What happens in `score.pl`.
            reason: &'static str,
        },
        /// A line is not valid UTF-8.
        #[error("line {line}: not valid utf-8")]
        InvalidUtf8 {
            /// 1-based line number in the file.
            line: usize,
        },
        /// Reading from the underlying reader failed.
        #[error("line {line}: read failed: {kind}")]
        Io {
            /// 1-based number of the line being read.
            line: usize,
            /// The kind of I/O error.
            kind: std::io::ErrorKind,
        },
        /// A gold item has no substitutes.
        #[error("gold item {id} has no substitutes")]
        NoSubstitutes {
            /// The item id.
            id: String,
        },
        /// A gold substitute is empty or whitespace only.
        #[error("gold item {id}: substitute {index} is empty")]
        EmptySubstitute {
            /// The item id.
            id: String,
            /// 0-based index of the substitute in the item.
            index: usize,
        },
        /// A gold substitute has annotator count 0.
        #[error("gold item {id}: substitute {index} has count 0, counts must be at least 1")]
        ZeroCount {
            /// The item id.
            id: String,
            /// 0-based index of the substitute in the item.
            index: usize,
        },
        /// Two items of one input share an id.
        #[error("duplicate item id {id} in the {side}")]
        DuplicateId {
            /// The repeated id.
            id: String,
            /// Which input repeats it.
            side: Side,
        },
        /// An item of the system output names another target than the gold item
        /// with the same id (usually a sign of mismatched files).
        #[error("item {id}: target {system} in the system output, {gold} in the gold")]
        TargetMismatch {
            /// The item id.
            id: String,
            /// Target `lemma.pos` in the gold.
            gold: String,
            /// Target `lemma.pos` in the system output.
            system: String,
        },
    }
}

impl LexsubError {
    /// The 1-based line of the gold or system file the error is about, if
    /// any (so a caller can print `FILE:LINE: message`).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{read_gold, Mode};
    /// let e = read_gold(&b"bright.a 1 :: clever 1;\nbright.a 2 clever\n"[..], Mode::Strict).unwrap_err();
    /// assert_eq!((e.line(), e.column()), (Some(2), None));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Syntax { line, .. }
            | Self::CountOverflow { line, .. }
            | Self::NotReproducible { line, .. }
            | Self::InvalidUtf8 { line }
            | Self::Io { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The 1-based character column of [`line`](Self::line) the error is
    /// about, if it names one (an annotator count that overflows).
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        match self {
            Self::CountOverflow { column, .. } => Some(*column),
            _ => None,
        }
    }
}
