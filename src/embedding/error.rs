//! The error type of the embedding module.

use thiserror::Error;

module_error! {
    /// Everything that can go wrong when building, reading or writing word
    /// vectors.
    ///
    /// Each variant says *what* was wrong and *where*: the 1-based line of a text
    /// file, the row and byte offset of a binary file, or the 0-based entry of a
    /// vector added by hand. Messages are lowercase without a trailing period.
    /// New variants may be added in minor releases.
    #[derive(Debug, Clone, PartialEq, Eq, Error)]
    #[non_exhaustive]
    pub enum EmbeddingError {
        shared {
            /// A parameter is outside its domain.
            InvalidParameter,
        }
        /// A line of a text file (word2vec/fastText `.vec`, GloVe) is malformed.
        #[error("vectors line {line}: {problem}")]
        Line {
            /// 1-based line number.
            line: usize,
            /// What is wrong with it.
            problem: VectorProblem,
        },
        /// A row of a word2vec binary file is malformed.
        #[error("vectors row {row} (byte {offset}): {problem}")]
        Binary {
            /// 1-based row number (the header is row 0).
            row: usize,
            /// Byte offset of the start of the row in the file.
            offset: u64,
            /// What is wrong with it.
            problem: VectorProblem,
        },
        /// A vector added to an in-memory [`Vectors`](super::Vectors) store is invalid.
        #[error("vector {entry}: {problem}")]
        Vector {
            /// 0-based index of the vector among those added.
            entry: usize,
            /// What is wrong with it.
            problem: VectorProblem,
        },
        /// Reading from the underlying reader failed.
        #[error("i/o error at {at}: {message}")]
        Io {
            /// Where: `line N` (text), `byte N` (binary) or `writing`.
            at: String,
            /// The kind of the I/O error.
            kind: std::io::ErrorKind,
            /// The I/O error's message.
            message: String,
        },
    }
}

impl EmbeddingError {
    pub(crate) fn io(at: impl Into<String>, e: &std::io::Error) -> Self {
        Self::Io {
            at: at.into(),
            kind: e.kind(),
            message: e.to_string(),
        }
    }

    /// The 1-based line of a text file the error is about, if any.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::read_word2vec;
    /// let e = read_word2vec::<f32, _>(&b"1 2\ncat 1\n"[..]).unwrap_err();
    /// assert_eq!(e.line(), Some(2));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Line { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The 1-based character column the error is about: always `None` (a
    /// row's error names the vector component, see [`VectorProblem`], not a
    /// character column), kept so that every reader error answers both.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        None
    }

    /// What is wrong with the vector or row, if the error is about one.
    #[must_use]
    pub fn problem(&self) -> Option<VectorProblem> {
        match self {
            Self::Line { problem, .. }
            | Self::Binary { problem, .. }
            | Self::Vector { problem, .. } => Some(*problem),
            _ => None,
        }
    }
}

/// What is wrong with a vector or a row of a vector file; see
/// [`EmbeddingError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VectorProblem {
    /// The file is empty: the header `count dim` is missing.
    #[error("missing header `count dim`")]
    MissingHeader,
    /// The header is not two non-negative integers `count dim`.
    #[error("the header must be two integers `count dim`")]
    BadHeader,
    /// A GloVe file has no row, so its dimension is unknown.
    #[error("no vector: the dimension is unknown")]
    NoRows,
    /// The dimension is zero.
    #[error("the dimension is zero")]
    ZeroDimension,
    /// The line (or word) is not valid UTF-8.
    #[error("not valid UTF-8")]
    InvalidUtf8,
    /// The word is empty.
    #[error("the word is empty")]
    EmptyWord,
    /// A vector has the wrong number of components.
    #[error("expected {expected} components, found {found}")]
    WrongDimension {
        /// The dimension from the header, the first row or the store.
        expected: usize,
        /// The number of components found.
        found: usize,
    },
    /// A component is not a number.
    #[error("component {column} is not a number")]
    InvalidValue {
        /// 1-based component number.
        column: usize,
    },
    /// A component is NaN or infinite (also after conversion to the
    /// storage type, e.g. an overflow to f32).
    #[error("component {column} is not finite")]
    NonFinite {
        /// 1-based component number.
        column: usize,
    },
    /// The squared norm of the vector overflows f64.
    #[error("the squared norm overflows f64")]
    NormOverflow,
    /// A word appears twice.
    #[error("duplicate word")]
    DuplicateWord,
    /// More vectors than the header announced.
    #[error("more vectors than the {expected} the header announced")]
    TooManyVectors {
        /// The count from the header.
        expected: usize,
    },
    /// The file ended before the announced number of vectors.
    #[error("the header announced {expected} vectors, found {found}")]
    TooFewVectors {
        /// The count from the header.
        expected: usize,
        /// The number found.
        found: usize,
    },
    /// A binary file ends inside a row.
    #[error("the file ends inside the row")]
    Truncated,
    /// A binary row's word is longer than the reader accepts (no space
    /// found), which usually means the file is not in the binary format.
    #[error("the word is longer than {max} bytes")]
    WordTooLong {
        /// The limit in bytes.
        max: usize,
    },
    /// The header's dimension makes a row larger than this machine can
    /// address.
    #[error("the dimension is too large for this machine")]
    TooLarge,
    /// A value cannot be written exactly in the target format (an f64
    /// component that is not an f32 value, for the binary format).
    #[error("component {column} is not exactly representable as f32")]
    NotRepresentable {
        /// 1-based component number.
        column: usize,
    },
    /// A word cannot be written first in a GloVe file: it starts with
    /// U+FEFF, which readers take for a byte-order mark and drop.
    #[error("the first word starts with a byte-order mark (U+FEFF)")]
    LeadingByteOrderMark,
    /// A word cannot be written: it contains whitespace (the field
    /// separator of every vector format).
    #[error("the word contains whitespace")]
    WhitespaceInWord,
}
