//! The error type of the word-similarity module.

use thiserror::Error;

use crate::correlation::error::CorrelationError;
use crate::embedding::EmbeddingError;

module_error! {
    /// Everything that can go wrong when reading a benchmark, evaluating a model
    /// or comparing two.
    ///
    /// Each variant says *what* was wrong and *where* (the 1-based line of a
    /// benchmark file, the pair, the parameter). Messages are lowercase without
    /// a trailing period. New variants may be added in minor releases.
    #[derive(Debug, Clone, PartialEq, Error)]
    #[non_exhaustive]
    pub enum WordsimError {
        shared {
            /// A parameter is outside its domain.
            InvalidParameter,
            /// Reading the benchmark failed.
            Io,
        }
        /// A line of a word-pair file is malformed.
        #[error("benchmark line {line}: {problem}")]
        Line {
            /// 1-based line number.
            line: usize,
            /// What is wrong with it.
            problem: PairProblem,
        },
        /// A benchmark without any word pair.
        #[error("the benchmark has no word pair")]
        Empty,
        /// A pair given in memory is invalid (empty word, non-finite score).
        #[error("pair {index}: {problem}")]
        Pair {
            /// 0-based index of the pair.
            index: usize,
            /// What is wrong with it.
            problem: PairProblem,
        },
        /// The model returned a similarity that is NaN or infinite.
        #[error("pair {index} ({word1}, {word2}): the model's similarity {value} is not finite")]
        NonFiniteSimilarity {
            /// 0-based index of the pair in the benchmark.
            index: usize,
            /// The first word.
            word1: String,
            /// The second word.
            word2: String,
            /// The value returned.
            value: f64,
        },
        /// Two reports to compare are not about the same benchmark pairs.
        #[error("the reports are not on the same benchmark: {reason}")]
        DifferentBenchmarks {
            /// What differs.
            reason: &'static str,
        },
        /// A benchmark file could not be read with the format chosen for it:
        /// the error, the format tried and how it was chosen
        /// ([`Detection::read`](super::Detection::read),
        /// [`Benchmark::read_detected`](super::Benchmark::read_detected)).
        #[error(
            "{error} (read as {detection}; to read it another way pass another PairFormat to \
             Benchmark::read, or let Benchmark::read_detected detect it)"
        )]
        Format {
            /// The format tried and how it was chosen.
            detection: super::Detection,
            /// What went wrong reading with it ([`WordsimError::Line`] or
            /// [`WordsimError::Empty`]).
            error: Box<WordsimError>,
        },
        /// The format of a benchmark file cannot be detected from its content
        /// ([`PairFormat::detect`](super::PairFormat::detect)).
        #[error(
            "benchmark line {line}: {problem}, so the layout cannot be detected; choose one \
             (PairFormat::layout or PairFormat::columns with Benchmark::read)"
        )]
        Undetected {
            /// 1-based line that no format fits.
            line: usize,
            /// What is wrong with it.
            problem: DetectProblem,
        },
        /// Reading the vectors failed.
        #[error(transparent)]
        Vectors(#[from] EmbeddingError),
        /// A correlation failed (too few pairs, a constant input, …).
        #[error(transparent)]
        Correlation(#[from] CorrelationError),
        /// A bootstrap interval or paired test failed.
        #[cfg(feature = "uncertainty")]
        #[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
        #[error(transparent)]
        Uncertainty(#[from] crate::uncertainty::UncertaintyError),
    }
}

impl WordsimError {
    /// The 1-based line of a file the error is about, if any (benchmark or
    /// text vector file).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, PairFormat};
    /// let e = Benchmark::read("b", &b"a b 1\nc d x\n"[..], &PairFormat::new()).unwrap_err();
    /// assert_eq!(e.line(), Some(2));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Line { line, .. } | Self::Io { line, .. } | Self::Undetected { line, .. } => {
                Some(*line)
            }
            Self::Format { error, .. } => error.line(),
            Self::Vectors(e) => e.line(),
            _ => None,
        }
    }

    /// The 1-based character column the error is about: always `None` (a
    /// benchmark line's error names its field, see [`PairProblem`], not a
    /// character column), kept so that every reader error answers both.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        None
    }
}

/// What is wrong with a line or pair of a benchmark; see [`WordsimError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PairProblem {
    /// The line is not valid UTF-8.
    #[error("not valid UTF-8")]
    InvalidUtf8,
    /// The line has fewer fields than the columns asked for.
    #[error("expected at least {needed} fields, found {found}")]
    TooFewFields {
        /// The largest column asked for.
        needed: usize,
        /// The number of fields found.
        found: usize,
    },
    /// A word field is empty.
    #[error("field {column} is an empty word")]
    EmptyWord {
        /// 1-based field number.
        column: usize,
    },
    /// The score field is not a number.
    #[error("field {column} is not a number")]
    InvalidScore {
        /// 1-based field number.
        column: usize,
    },
    /// The score is NaN or infinite.
    #[error("field {column} is not a finite number")]
    NonFiniteScore {
        /// 1-based field number.
        column: usize,
    },
}

/// Why no format fits a line of a benchmark sample; see
/// [`WordsimError::Undetected`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DetectProblem {
    /// The line has too few fields: with every separator (tab, comma,
    /// semicolon, whitespace) when `separator` is
    /// [`Separator::Auto`](super::Separator::Auto), else with that one
    /// (a header line shorter than the pairs' score column).
    TooFewFields {
        /// The separator tried, or `Auto` for all of them.
        separator: super::Separator,
        /// The fields needed.
        needed: usize,
        /// The fields found (with the separator that found the most lines
        /// before this one, if all were tried).
        found: usize,
    },
    /// Field 3 of the line is not a number, and no column from the 3rd on
    /// holds a number on every line.
    NoScoreColumn,
}

impl std::error::Error for DetectProblem {}

impl std::fmt::Display for DetectProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::Separator as S;
        match self {
            Self::TooFewFields {
                separator,
                needed,
                found,
            } => {
                let how = match separator {
                    S::Auto => "with every separator (tab, comma, semicolon, whitespace)",
                    S::Tab => "tab-separated",
                    S::Comma => "comma-separated",
                    S::Semicolon => "semicolon-separated",
                    S::Whitespace => "space-separated",
                };
                write!(f, "{found} fields {how}, {needed} needed")
            }
            Self::NoScoreColumn => f.write_str(
                "field 3 is not a number, and no column from the 3rd on holds a number on every line",
            ),
        }
    }
}
