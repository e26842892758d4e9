//! The error type of the word-similarity module.

use thiserror::Error;

use crate::embedding::EmbeddingError;
use crate::error::Error;

/// Everything that can go wrong when reading a benchmark, evaluating a model
/// or comparing two.
///
/// Each variant says *what* was wrong and *where* (the 1-based line of a
/// benchmark file, the pair, the parameter). Messages are lowercase without
/// a trailing period. New variants may be added in minor releases.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum WordsimError {
    /// A line of a word-pair file is malformed.
    #[error("benchmark line {line}: {problem}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        problem: PairProblem,
    },
    /// Reading the benchmark failed.
    #[error("i/o error at line {line}: {message}")]
    Io {
        /// 1-based line being read.
        line: usize,
        /// The kind of the I/O error.
        kind: std::io::ErrorKind,
        /// The I/O error's message.
        message: String,
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
    /// A parameter is outside its domain.
    #[error("invalid parameter {name}: {expected}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What was expected of it.
        expected: &'static str,
    },
    /// Reading the vectors failed.
    #[error(transparent)]
    Vectors(#[from] EmbeddingError),
    /// A correlation failed (too few pairs, a constant input, …).
    #[error(transparent)]
    Correlation(#[from] Error),
    /// A bootstrap interval or paired test failed.
    #[cfg(feature = "uncertainty")]
    #[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
    #[error(transparent)]
    Uncertainty(#[from] crate::uncertainty::UncertaintyError),
}

impl WordsimError {
    pub(crate) fn io(line: usize, e: &std::io::Error) -> Self {
        Self::Io {
            line,
            kind: e.kind(),
            message: e.to_string(),
        }
    }

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
            Self::Line { line, .. } | Self::Io { line, .. } => Some(*line),
            Self::Vectors(e) => e.line(),
            _ => None,
        }
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
