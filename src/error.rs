//! The crate's errors: the umbrella [`Error`], into which every module's
//! error converts, and the crate-wide [`Result`] alias. The design and its
//! reasons are in the crate docs, [Errors](crate#errors).
//!
//! The error of the rank-correlation core is
//! [`CorrelationError`] (named `Error` before
//! 0.1.0); each other module has an error of its own.

use core::fmt;

use crate::correlation::CorrelationError;
use crate::correlation::standardised::StandardisedError;
use crate::embedding::EmbeddingError;
use crate::lexsub::LexsubError;
use crate::relevance::RelevanceError;
use crate::triplet::TripletError;
use crate::wordsim::WordsimError;

/// Declares the umbrella [`Error`] from one list of module errors: the
/// enum, with each variant's module error boxed and a variant behind a
/// feature marked for rustdoc; the module error as a trait object; and
/// `From` for each module error.
macro_rules! umbrella_error {
    (
        $(#[$meta:meta])*
        pub enum Error {
            $(
                $(#[doc = $doc:literal])*
                $(#[cfg($cfg:meta)])?
                $variant:ident($ty:ty),
            )*
        }
    ) => {
        $(#[$meta])*
        pub enum Error {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)] #[cfg_attr(docsrs, doc(cfg($cfg)))])?
                $variant(Box<$ty>),
            )*
        }

        impl Error {
            /// See [`module_error`](Self::module_error).
            fn as_module_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
                match self {
                    $($(#[cfg($cfg)])? Self::$variant(e) => &**e,)*
                }
            }
        }

        $(
            $(#[cfg($cfg)] #[cfg_attr(docsrs, doc(cfg($cfg)))])?
            impl From<$ty> for Error {
                #[doc = concat!("Wraps the error in [`Error::", stringify!($variant), "`].")]
                fn from(e: $ty) -> Self {
                    Self::$variant(Box::new(e))
                }
            }
        )*
    };
}

umbrella_error! {
    /// An error of any module of this crate, for code that calls several
    /// modules and wants one error type with `?` (see [Errors](crate#errors)).
    ///
    /// One variant per module error, named after its module, holding that error
    /// boxed. `From` converts every module error into it, so `?` works in a
    /// function returning `Result<T, Error>` (the crate's [`Result`] alias:
    /// `adaptive_comp_metrics::Result<T>`). The conversion keeps the
    /// module error as it was: a [`WordsimError`] that wraps a core
    /// [`CorrelationError`] becomes [`Error::Wordsim`], so the variant names the
    /// module whose call failed. Where a reader's error names a line and column
    /// of its input, [`line`](Self::line) and [`column`](Self::column) give them
    /// whatever the module.
    ///
    /// The wrapper is transparent, as [`std::io::Error`] is for the error it
    /// wraps: `Display` prints the module error's message unchanged (lowercase,
    /// no trailing period) and [`source`](std::error::Error::source) is the
    /// module error's own `source()`. A report that walks the chain of sources
    /// therefore prints each message once. The module error itself is reached by
    /// matching on the variant (no downcast), or as a trait object with
    /// [`module_error`](Self::module_error).
    ///
    /// Variants of modules behind a feature exist only with that feature:
    /// `Uncertainty` and `Compare` (`uncertainty`), `Ballot` and `Answer` (`scheduler`),
    /// `Simulate` (`simulator`). New variants may be added in minor releases,
    /// with new modules. `Error` is `Send + Sync + 'static`, `Clone` and
    /// `PartialEq` (not `Eq` or `Copy`: some module errors hold an `f64` or a
    /// `String`), two words in size whatever the module errors hold, and has no
    /// serialised form (the module errors have none either, except
    /// `ballot::AnswerError` as part of a `ballot::ImportReport`).
    ///
    /// # Complexity
    /// A conversion allocates the box once (on the error path only); `Display`,
    /// `source` and [`module_error`](Self::module_error) are O(1) plus the
    /// module error's own formatting.
    ///
    /// # References
    /// The Rust API Guidelines, C-GOOD-ERR (error types are `Send + Sync +
    /// 'static` and implement `std::error::Error`) and C-COMMON-TRAITS; the
    /// standard library's [`std::io::Error`], whose `Display` and `source()`
    /// forward to the error it wraps.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{read_gold, LexsubError, Mode};
    /// use adaptive_comp_metrics::{tau_w, CorrelationError, Error};
    ///
    /// // Two modules, one error type, `?` on both: the number of gold items and
    /// // τ_w between human and model scores.
    /// fn run(gold: &str, human: &[f64], model: &[f64]) -> Result<(usize, f64), Error> {
    ///     let gold = read_gold(gold.as_bytes(), Mode::Strict)?; // LexsubError
    ///     let tau = tau_w(human, model)?; // the core's CorrelationError
    ///     Ok((gold.items.len(), tau.tau))
    /// }
    ///
    /// let gold = "bright.a 1 :: intelligent 3;clever 2;\n";
    /// let (human, model) = ([3.0, 2.0, 1.0], [0.9, 0.5, 0.1]);
    /// assert_eq!(run(gold, &human, &model)?, (1, 1.0));
    ///
    /// let e = run("bright.a 1 intelligent 3\n", &human, &model).unwrap_err();
    /// assert!(matches!(&e, Error::Lexsub(l) if matches!(**l, LexsubError::Syntax { line: 1, .. })));
    ///
    /// let e = run(gold, &[1.0, 1.0, 1.0], &model).unwrap_err();
    /// assert_eq!(e, Error::from(CorrelationError::Constant { input: "x" }));
    /// assert_eq!(e.to_string(), "x is constant: the coefficient is undefined");
    /// # Ok::<(), Error>(())
    /// ```
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub enum Error {
        /// An error of the rank-correlation core ([`CorrelationError`]): ranks, weights,
        /// ρ_w, τ_w, Pearson r, Spearman ρ, Kendall τ-b, Vigna's weighted τ,
        /// Kendall's Γ.
        Correlation(CorrelationError),
        /// An error of the standardised scale ([`StandardisedError`]).
        Standardised(StandardisedError),
        /// An error of the `uncertainty` module
        /// ([`UncertaintyError`](crate::uncertainty::UncertaintyError)).
        #[cfg(feature = "uncertainty")]
        Uncertainty(crate::uncertainty::UncertaintyError),
        /// An error of a comparison of systems
        /// ([`CompareError`](crate::uncertainty::compare::CompareError)).
        #[cfg(feature = "uncertainty")]
        Compare(crate::uncertainty::compare::CompareError),
        /// An error of the lexical-substitution module ([`LexsubError`]).
        Lexsub(LexsubError),
        /// An error of the triplet module ([`TripletError`]).
        Triplet(TripletError),
        /// An error of the word-vector module ([`EmbeddingError`]).
        Embedding(EmbeddingError),
        /// An error of the word-similarity module ([`WordsimError`]).
        Wordsim(WordsimError),
        /// An error of the graded-relevance module ([`RelevanceError`]).
        Relevance(RelevanceError),
        /// An error of the ballot scheduler
        /// ([`BallotError`](crate::ballot::BallotError)).
        #[cfg(feature = "scheduler")]
        Ballot(crate::ballot::BallotError),
        /// An answer refused by a crowd campaign
        /// ([`AnswerError`](crate::ballot::AnswerError)).
        #[cfg(feature = "scheduler")]
        Answer(crate::ballot::AnswerError),
        /// An error of the voter simulator
        /// ([`SimulateError`](crate::simulate::SimulateError)).
        #[cfg(feature = "simulator")]
        Simulate(crate::simulate::SimulateError),
    }
}

impl Error {
    /// The module error, as a trait object: the error a module function
    /// returned, whose message `Display` prints.
    ///
    /// For code that handles every module alike (logging, a chain of
    /// sources that should start at the module error); matching on the
    /// variant gives the module error with its type.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids, RelevanceError};
    /// use adaptive_comp_metrics::Error;
    ///
    /// let e: Error = read_trec_qrels("q 0 d\n".as_bytes(), &mut Ids::new()).unwrap_err().into();
    /// let module = e.module_error();
    /// assert_eq!(module.to_string(), e.to_string());
    /// assert_eq!(module.downcast_ref::<RelevanceError>().and_then(RelevanceError::line), Some(1));
    /// ```
    #[must_use]
    pub fn module_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.as_module_error()
    }

    /// The 1-based line of the input the error is about, if its module error
    /// names one: a reader's error (lexical substitution, triplets, word
    /// vectors, word-similarity benchmarks, relevance judgements and TREC
    /// files) at a line of its input; `None` for every other error.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids};
    /// use adaptive_comp_metrics::{rho_w, Error};
    ///
    /// let e: Error = read_trec_qrels("q1 0 d1 1\nq1 0 d2\n".as_bytes(), &mut Ids::new())
    ///     .unwrap_err()
    ///     .into();
    /// assert_eq!((e.line(), e.column()), (Some(2), None));
    /// let e: Error = rho_w(&[1.0, 1.0], &[1.0, 2.0]).unwrap_err().into();
    /// assert_eq!((e.line(), e.column()), (None, None));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Lexsub(e) => e.line(),
            Self::Triplet(e) => e.line(),
            Self::Embedding(e) => e.line(),
            Self::Wordsim(e) => e.line(),
            Self::Relevance(e) => e.line(),
            _ => None,
        }
    }

    /// The 1-based character column of the line [`line`](Self::line) names,
    /// if the module error names one too; `None` for every other error.
    ///
    /// # Complexity
    /// O(1).
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        match self {
            Self::Lexsub(e) => e.column(),
            Self::Triplet(e) => e.column(),
            Self::Embedding(e) => e.column(),
            Self::Wordsim(e) => e.column(),
            Self::Relevance(e) => e.column(),
            _ => None,
        }
    }
}

/// The module error's message, unchanged.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.module_error(), f)
    }
}

/// Transparent: the source is the module error's source (the module error's
/// message is already this error's `Display`).
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.module_error().source()
    }
}

/// The umbrella error's name before 0.1.0.
#[deprecated(since = "0.1.0", note = "renamed `Error`")]
pub type AnyError = Error;

/// Shorthand for results of code that calls several modules: `Result<T>` is
/// `Result<T, Error>` with the umbrella [`Error`], into which `?` converts
/// every module error.
///
/// Each module's functions return their own error, and most modules have an
/// alias of their own that defaults to it
/// ([`correlation::Result`](crate::correlation::Result) for the core's
/// [`CorrelationError`], [`relevance::Result`](crate::relevance::Result), …).
/// Before 0.1.0 this alias was the core's; code that named
/// `adaptive_comp_metrics::Result<T>` and returned core results through `?`
/// compiles as it was.
pub type Result<T, E = Error> = core::result::Result<T, E>;

// `Error` crosses threads and lives in `Box<dyn std::error::Error + Send + Sync>`:
// a module error that stopped being `Send + Sync + 'static` fails the build
// here, not in a user's crate.
const _: () = {
    const fn send_sync_static<T: Send + Sync + 'static>() {}
    send_sync_static::<Error>();
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Two words whatever the module errors hold (the largest,
    /// `RelevanceError`, is 104 bytes on 64-bit targets): a `Result<(),
    /// Error>` costs what a `Result<(), Box<dyn std::error::Error>>` does.
    #[test]
    fn two_words_whatever_the_module_errors_hold() {
        use core::mem::size_of;
        assert_eq!(size_of::<Error>(), 2 * size_of::<usize>());
        assert_eq!(size_of::<Result<(), Error>>(), 2 * size_of::<usize>());
        assert!(size_of::<RelevanceError>() > size_of::<Error>());
    }
}
