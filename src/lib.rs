//! # adaptive-comp-metrics
//!
//! Evaluate semantic models (word embeddings, rankers, lexical-substitution
//! systems) against human judgements, with the focus on top ranks.
//!
//! ```
//! use adaptive_comp_metrics::{rho_w, tau_w, Hyperbolic, Scheme, TopWeighted};
//!
//! let human = [0.95, 0.80, 0.61, 0.40, 0.12]; // gold relatedness, larger = more related
//! let model = [0.91, 0.62, 0.83, 0.35, 0.20]; // an embedding model's cosine similarities
//! let r = rho_w(&human, &model)?; // f(n) = 1/(n + 2)², additive weights (Eq. 9)
//! let t = tau_w(&human, &model)?;
//! assert!(r.rho > 0.5 && t.tau > 0.3);
//! // Other choices: weigher, weighting scheme, tie method, score direction.
//! let gold_weighted = TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First);
//! assert!(gold_weighted.rho(&human, &model)?.rho > 0.5);
//! # Ok::<(), adaptive_comp_metrics::Error>(())
//! ```
//!
//! ## Map by task
//!
//! | task | where |
//! |---|---|
//! | scores → 1-based ranks, tie methods | [`rank()`], [`Ties`], [`Order`] |
//! | weighting functions f(rank), R(n0), per-item weights (Eq. 9) | [`weigh`] |
//! | top-weighted ρ_w and τ_w (Lombardo et al. 2020, Eq. 8) | [`rho_w`], [`tau_w`], [`TopWeighted`] |
//! | ρ_w and τ_w on the standardised scale (0 = chance, Lombardo 2025) | [`TopWeighted::rho_standardised`], [`Standardiser`], [`correlation::standardised`] |
//! | a p-value, a confidence interval or the chance level of ρ_w and τ_w (or of any coefficient): permutation tests, bootstrap, null moments, paired comparison of two models (feature `uncertainty`) | `uncertainty` |
//! | Pearson r, plain Spearman ρ and Kendall τ-b with p-values | [`pearson`], [`spearman`], [`kendall_tau_b`] |
//! | Vigna's weighted τ, `scipy.stats.weightedtau`-compatible, O(n log n) | [`weighted_tau`], [`WeightedTauOptions`] |
//! | Kendall's general Γ, the O(n²) reference | [`correlation::gamma`] |
//! | lexical substitution: SemEval-2007 best/oot/mode, Jabbari et al.'s revised measures, GAP | [`lexsub`] |
//! | word vectors: word2vec text/binary, GloVe; streaming with a vocabulary filter | [`embedding`] |
//! | word-similarity benchmarks: read pair files, evaluate and compare embedding models | [`wordsim`] |
//! | reliability-weighted triplet score (Avraham & Goldberg 2016), dataset building, word vectors | [`triplet`] |
//! | graded relevance judgements, tie-aware MAP/P@k/nDCG, rank-biased overlap | [`relevance`] |
//! | TREC qrels and runs, scored as `trec_eval` does | [`relevance::read_trec_qrels`], [`relevance::read_trec_run`], [`relevance::evaluate_trec`] |
//! | adaptive ballot scheduler for pairwise vote collection, crowd campaigns with control pairs (feature `scheduler`) | `ballot`, `ballot::Campaign` |
//! | simulated crowds: uniform against adaptive vote collection, parameter sweeps, Table 2 (feature `simulator`) | `simulate` |
//!
//! ## Errors
//!
//! Every function validates its input in one pass and returns a typed error
//! (what was wrong and where) instead of panicking or returning NaN. Each
//! module has an error type of its own, whose variants are that module's
//! failures only; some wrap the error of a module they call (`From`). All are
//! `#[non_exhaustive]`, `Clone`, `PartialEq`, `Send + Sync + 'static`, with
//! lowercase messages without a trailing period:
//!
//! | module | error | wraps |
//! |---|---|---|
//! | ranks, weights, correlations (the core) | [`CorrelationError`] (also `Copy`) | |
//! | the standardised scale | [`StandardisedError`] (also `Copy`) | [`CorrelationError`] |
//! | `uncertainty` | `uncertainty::UncertaintyError` (also `Copy`) | [`CorrelationError`], [`StandardisedError`] |
//! | `uncertainty::compare` | `uncertainty::compare::CompareError` | `UncertaintyError` |
//! | [`lexsub`] | [`lexsub::LexsubError`] | |
//! | [`embedding`] | [`embedding::EmbeddingError`] | |
//! | [`triplet`] | [`triplet::TripletError`] | [`embedding::EmbeddingError`] |
//! | [`wordsim`] | [`wordsim::WordsimError`] | [`embedding::EmbeddingError`], [`CorrelationError`], `UncertaintyError` |
//! | [`relevance`] | [`relevance::RelevanceError`] | |
//! | `ballot` | `ballot::BallotError` (also `Copy`); `ballot::AnswerError` for an answer a campaign refuses | |
//! | `simulate` | `simulate::SimulateError` | `BallotError` |
//!
//! The errors of the readers (lexical substitution, triplets, word vectors,
//! word-similarity benchmarks, relevance judgements and TREC files) say the
//! 1-based line and column of the input they are about, where there is one,
//! with `line()` and `column()`; [`Error`] answers both for any module.
//!
//! Code that calls several modules returns [`Error`], the crate-wide
//! type: every module error converts into it with `From`, so `?` works across
//! modules without `map_err`, and matching on its variant (one per module
//! error) gives the module error back. [`Result`] is `Result<T, Error>`:
//!
//! ```
//! use adaptive_comp_metrics::relevance::{read_trec_qrels, Ids};
//! use adaptive_comp_metrics::wordsim::{Benchmark, PairFormat};
//! use adaptive_comp_metrics::{rho_w, Error, Result};
//!
//! fn main() -> Result<()> {
//!     let pairs = "tiger cat 7.35\nbook paper 7.46\ncomputer keyboard 7.62\n";
//!     let benchmark = Benchmark::read("toy", pairs.as_bytes(), &PairFormat::new())?; // WordsimError
//!     let human: Vec<f64> = benchmark.pairs().iter().map(|p| p.score).collect();
//!     let model = [0.52, 0.61, 0.70];
//!     assert_eq!(rho_w(&human, &model)?.rho, 1.0); // CorrelationError
//!     let qrels = read_trec_qrels("q1 0 d1 1\nq1 0 d2 0\n".as_bytes(), &mut Ids::new())?; // RelevanceError
//!     assert_eq!(qrels.len(), 2);
//!
//!     // The message is the module error's; the variant holds the module error.
//!     let e: Error = read_trec_qrels("q1 0 d1 1\nq1 0 d2\n".as_bytes(), &mut Ids::new())
//!         .unwrap_err()
//!         .into();
//!     assert_eq!(e.to_string(), "line 2: expected 4 fields (qid iter docno rel), found 3");
//!     assert_eq!(e.line(), Some(2));
//!     let Error::Relevance(r) = &e else { unreachable!() };
//!     assert_eq!(r.line(), Some(2));
//!     Ok(())
//! }
//! ```
//!
//! How [`Error`] is built, and why:
//!
//! - *A new type, not a wider [`CorrelationError`].* [`CorrelationError`] is
//!   `Copy`, and a variant holding [`lexsub::LexsubError`] (which holds
//!   `String`s) would take `Copy` away; it would also make the error type of
//!   every core function name failures the function cannot have. The module
//!   errors stay the return types of their modules' functions.
//! - *One variant per module error, named after its module, holding it
//!   boxed* ([`Error::Correlation`] for the core's [`CorrelationError`],
//!   `Error::Answer` for `ballot::AnswerError`). Matching needs no
//!   downcast. The box keeps [`Error`] two words in size whatever the
//!   module errors hold (the largest, [`relevance::RelevanceError`], is 104
//!   bytes on 64-bit targets), so a `Result<T, Error>` is as small as a
//!   `Result<T, Box<dyn std::error::Error>>`, and a module error that grows
//!   in a minor release does not change it. The cost is one allocation, on
//!   the error path only.
//! - *Transparent, as [`std::io::Error`] is for the error it wraps:*
//!   `Display` is the module error's message, unchanged, and
//!   [`source`](std::error::Error::source) is the module error's own
//!   `source()`. Returning the module error itself as the source would print
//!   its message twice in every report that walks the chain of sources (an
//!   error should either show its cause in its message or return it as its
//!   source, not both). The module error as a trait object is
//!   [`Error::module_error`].
//! - *A module error that wraps another is kept whole:* a
//!   [`wordsim::WordsimError`] wrapping a core [`CorrelationError`] becomes
//!   [`Error::Wordsim`], so the variant names the module whose call
//!   failed.
//! - *No `std::io::Error` variant.* No function of the crate returns a bare
//!   I/O error: the readers report one inside their module error, with the
//!   line being read and the error's kind (and message). Opening a file is
//!   the caller's, and an application error type (`Box<dyn std::error::Error>`,
//!   `anyhow::Error`) takes both an `std::io::Error` and an [`Error`].
//!   An `std::io::Error` inside would also cost [`Error`] its `Clone` and
//!   `PartialEq`.
//! - *Two kinds of `Result` alias:* the crate-wide [`Result`] is
//!   `Result<T, E = Error>` (as `std::io::Result` is for its error); each
//!   module's own ([`correlation::Result`], [`relevance::Result`], …)
//!   defaults to that module's error, and the modules' functions return it.
//! - Variants of feature-gated modules exist with their feature only
//!   (`Uncertainty` and `Compare`, `Ballot` and `Answer`, `Simulate`); [`Error`] is
//!   `#[non_exhaustive]` (a new module brings a new variant in a minor
//!   release), `Clone`, `PartialEq`, `Send + Sync + 'static` (checked at
//!   compile time), and, as the module errors, has no serialised form.
//! - *Names.* Before 0.1.0 the umbrella was `AnyError` and the core's error
//!   `Error`; `AnyError` stays as a deprecated alias of [`Error`].
//!
//! ## Sizes and memory
//!
//! One rule holds throughout the crate: before anything is allocated for a
//! size the caller chooses (a number of permutations, comparisons, voters,
//! simulations, …), the size is computed in checked arithmetic and compared
//! with a limit. Above the limit the call returns a `TooLarge` error of its
//! module naming the quantity, the size requested and the limit, e.g.
//! `too large: 1099511627776 permutations requested, at most 134217728`,
//! never a `capacity overflow` panic or an abort on a failed allocation.
//! Sizes that only follow the input (O(n) work arrays for n scores) are not
//! limited: the input already holds that much.
//!
//! The limits are sane defaults, far above the papers' uses and within a
//! few GiB; they are public constants, and a builder method where a larger
//! run makes sense:
//!
//! | quantity | default limit | error | where |
//! |---|---|---|---|
//! | permutations (feature `uncertainty`) | 2²⁷ | `UncertaintyError::TooLarge` | `Permutations::max_replicates` |
//! | bootstrap resamples, 8 bytes each | 2²⁷ (1 GiB) | `UncertaintyError::TooLarge` | `Bootstrap::max_replicates` |
//! | items of a vote collection (feature `scheduler`) | 2²⁴ | `BallotError::TooLarge` | `BallotConfig::MAX_ITEMS` |
//! | comparisons of a collection, of `random_matchings`, `spread_over_voters`, `uniform_plan` | 2²⁶ | `BallotError::TooLarge` | `BallotConfig::MAX_COMPARISONS` |
//! | voters of `spread_over_voters` | 2²⁴ | `BallotError::TooLarge` | `BallotConfig::MAX_VOTERS` |
//! | simulations of a run or a sweep (feature `simulator`) | 2²⁰ | `SimulateError::TooLarge` | `Simulation::MAX_SIMULATIONS` |
//! | voter × item opinions of a simulated crowd | 2²⁷ (1 GiB) | `SimulateError::TooLarge` | `Simulation::MAX_OPINIONS` |
//! | triplet comparisons of a dataset | 2²⁴ | [`triplet::TripletError::TooLarge`] | [`triplet::MAX_COMPARISONS`] |
//! | items of `GammaMonteCarlo::moments` (feature `uncertainty`) | 2²⁶ | `UncertaintyError::TooLarge` | `GammaMonteCarlo::MAX_ITEMS` |
//! | items of the weighted Kendall kernel | 2³² − 1 | [`CorrelationError::TooManyItems`] | 32-bit item indices |
//! | distinct query or document ids, and lines, of a TREC qrels or run | 2³² − 2 ids, 2³² − 1 lines | [`relevance::RelevanceError::TooLarge`] | 32-bit ids in the flat layout |
//!
//! Permutation tests stream their replicates (two counts and two running
//! sums), so their memory does not grow with the number of permutations;
//! the limit there bounds time. Replicates, simulations and sweeps run in
//! blocks combined in index order, so results stay bit-for-bit the same on
//! any number of threads.
//!
//! ## Random numbers and seeds
//!
//! Everything random in the crate is reproducible from a seed, on every
//! platform and whatever the number of threads.
//!
//! - One-shot computations come in two forms: `f(…, &mut rng)` takes any
//!   generator of `rand` 0.10 (`R: rand::Rng + ?Sized`), and
//!   `f_seeded(…, seed)` takes a `u64` seed and no generator at all:
//!   permutation tests, bootstrap intervals, null moments, paired
//!   comparisons and the Monte-Carlo standardisation of `uncertainty`
//!   (`permutation_test_seeded`, `Permutations::test_seeded`,
//!   `bootstrap_ci_seeded`, `Bootstrap::run_seeded`,
//!   `GammaMonteCarlo::moments_seeded`, …), and the intervals and paired
//!   tests of [`wordsim`]. `f_seeded(…, s)` is
//!   `f(…, &mut rand_chacha::ChaCha8Rng::seed_from_u64(s))`.
//! - The simulator (`simulate`) takes a seed only: simulation i of a run
//!   seeded with s draws from ChaCha8 seeded with s on streams 3i, 3i + 1
//!   and 3i + 2.
//! - The steps of a process that goes on over many calls take a generator,
//!   which threads through them: the ballot scheduler and campaign
//!   (`ballot`), the pairing helpers, `VoterModel::draw` and `vote`. Seed
//!   one generator for the whole process, e.g.
//!   `adaptive_comp_metrics::rand_chacha::ChaCha8Rng::seed_from_u64(s)`.
//!
//! A seed drives ChaCha8 (`rand_chacha::ChaCha8Rng`, the 8-round ChaCha
//! stream cipher of D. J. Bernstein used as a generator, seeded by
//! `SeedableRng::seed_from_u64`): statistically sound, portable and fast,
//! and not meant for secrets. A seeded result stays the same across
//! releases of this crate: tests pin seeded outputs of each kind, and a
//! change of any of them (for instance by a new `rand`) is listed as
//! value-breaking in the changelog.
//!
//! The crate re-exports the `rand` and `rand_chacha` it is built with
//! (`adaptive_comp_metrics::rand`, `adaptive_comp_metrics::rand_chacha`, with the
//! features `scheduler` or `uncertainty`), so a generator made from them
//! fits whatever `rand` your own crate depends on:
//!
#![cfg_attr(feature = "uncertainty", doc = "```")]
#![cfg_attr(not(feature = "uncertainty"), doc = "```ignore")]
//! use adaptive_comp_metrics::rand::SeedableRng;
//! use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
//! use adaptive_comp_metrics::uncertainty::{permutation_test, permutation_test_seeded};
//! use adaptive_comp_metrics::uncertainty::{Alternative, Spearman};
//!
//! let x: Vec<f64> = (0..12).map(f64::from).collect();
//! let y = [0.0, 2.0, 1.0, 3.0, 5.0, 4.0, 6.0, 8.0, 7.0, 9.0, 11.0, 10.0];
//! let seeded = permutation_test_seeded(&Spearman, &x, &y, 999, Alternative::Greater, 42)?;
//! let mut rng = ChaCha8Rng::seed_from_u64(42);
//! let same = permutation_test(&Spearman, &x, &y, 999, Alternative::Greater, &mut rng)?;
//! assert_eq!(seeded, same);
//! # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
//! ```
//!
//! ## Crate features
//!
//! - `scheduler`: the adaptive ballot protocol of Lombardo et al. (2020), §2.
//! - `simulator`: the voter simulator of §4 and the Table 2 reproduction.
//! - `uncertainty`: null distributions, permutation p-values, bootstrap intervals.
//! - `serde`: `Serialize`/`Deserialize` for every result, option and
//!   configuration type, read back with the checks of their constructors
//!   (an invalid configuration is refused, as its constructor refuses it),
//!   and for a resumable scheduler state. Not serialised: the error types,
//!   [`Error`] among them (and `lexsub::Parsed`, which holds them;
//!   `ballot::AnswerError` is the exception, serialised as part of a
//!   `ballot::ImportReport`), readers and builders, and
//!   bulk data: `lexsub::{Corpus, Paired}`, `relevance::{Qrels, TrecRun,
//!   Run, Judgements, Assessments}` and their id tables, `triplet::Vectors`
//!   and `embedding::Vectors` (word vectors have their own file formats),
//!   a campaign's `ballot::TaskLayout` (saved with its `Campaign`), a
//!   simulated `Crowd` and the borrowed `simulate::Estimate`. A result that
//!   holds an error (an undefined coefficient of a [`wordsim::Report`], a
//!   failed bootstrap interval) writes the error's message and, reading
//!   back, recomputes the error from the report's scored pairs; a failure
//!   they do not explain is refused (see [`wordsim::Report`]). The
//!   standardised scale is checked as it is built: [`GammaMoments`] must be
//!   moments of a variable on [−1, 1], a [`Standardiser`] the map of its
//!   moments, a [`StandardisedRho`]/[`StandardisedTau`] value the map of its
//!   raw coefficient. A closure
//!   has no serialised form: a configuration with a closure weigher does
//!   not implement `Serialize`, and a custom simulation metric or amplitude
//!   function is refused with an error. A `Rank::Given` array, which
//!   borrows the caller's data, serialises but cannot be read back.
//!
//! Every result type implements `Display` for a person: one line naming
//! each number (a short block for reports, an aligned table for
//! [`wordsim::Comparison`]), with the formatter's precision (`{:.2}`) or 4
//! decimals. Options with a conventional wording print it too
//! ([`wordsim::Layout`] as `simlex999`, [`wordsim::PairFormat`],
//! [`wordsim::Unknown`], [`embedding::Format`], [`embedding::ReadOptions`],
//! [`Coefficient`] as `ρ_w`/`τ_w`, [`MomentSource`], [`wordsim::Benchmark`]
//! as its name and size); the other options print with `Debug`.
//!
//! ## References
//!
//! - P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone (2020).
//!   *Top-rank-focused adaptive vote collection for the evaluation of
//!   domain-specific semantic models.* EMNLP 2020.
//! - M. G. Kendall (1948). *Rank correlation methods.*
#![doc(test(attr(deny(warnings))))]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Declares a type that serde reads (feature `serde`) only through an
/// unvalidated mirror and a checked conversion: the type derives
/// `Serialize` and `Deserialize` with `serde(try_from = mirror)`, so every
/// value read goes through the type's own checked constructor. Written once
/// here for the crate's many validated types, in three forms:
///
/// - `pub struct Type { a: f64, b: u64 } mirror TypeRepr, TypeError, |r|
///   build`: the type, its mirror from the same field list (so that the two
///   cannot drift apart) and the conversion `build`;
/// - `pub struct Type { … } read through "path::TypeRepr"` (`read and
///   written through` when serde writes the mirror too, `into`): the type,
///   whose mirror and conversion are written by hand;
/// - `serde_mirror!(Type, TypeRepr, TypeError, { a: f64 }, |r| build)`: the
///   mirror and conversion of a type declared by hand with
///   `serde(try_from = "TypeRepr")`.
macro_rules! serde_mirror {
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident { $($body:tt)* }
        read through $repr:literal
    ) => {
        $(#[$meta])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(try_from = $repr)
        )]
        $vis struct $ty { $($body)* }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident { $($body:tt)* }
        read and written through $repr:literal
    ) => {
        $(#[$meta])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(try_from = $repr, into = $repr)
        )]
        $vis struct $ty { $($body)* }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident { $($field:ident: $fty:ty),+ $(,)? }
        mirror $repr:ident, $error:ty, |$r:ident| $build:expr $(,)?
    ) => {
        $(#[$meta])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(try_from = "<Self as crate::SerdeMirror>::Mirror")
        )]
        $vis struct $ty {
            $($field: $fty),+
        }

        #[cfg(feature = "serde")]
        impl crate::SerdeMirror for $ty {
            type Mirror = $repr;
        }

        serde_mirror!($ty, $repr, $error, { $($field: $fty),+ }, |$r| $build);
    };
    ($ty:ty, $repr:ident, $error:ty, { $($field:ident: $fty:ty),+ $(,)? }, |$r:ident| $build:expr) => {
        #[cfg(feature = "serde")]
        #[derive(serde::Deserialize)]
        pub(crate) struct $repr {
            $($field: $fty),+
        }

        #[cfg(feature = "serde")]
        impl TryFrom<$repr> for $ty {
            type Error = $error;
            fn try_from($r: $repr) -> core::result::Result<Self, $error> {
                $build
            }
        }
    };
}

/// The mirror that a type declared by [`serde_mirror!`]'s first form is
/// read through (its `serde(try_from)` names it as `<Self as SerdeMirror>::Mirror`).
#[cfg(feature = "serde")]
trait SerdeMirror {
    type Mirror;
}

/// Returns `Err($error::LengthMismatch { … })` early when two slices that
/// pair up item by item have different lengths; the error names them as the
/// variables are named (`same_length!(RelevanceError, scores, labels)`).
macro_rules! same_length {
    ($error:ident, $left:ident, $right:ident) => {
        if $left.len() != $right.len() {
            return Err($error::LengthMismatch {
                left: stringify!($left),
                left_len: $left.len(),
                right: stringify!($right),
                right_len: $right.len(),
            });
        }
    };
}

/// Declares a module error (a `thiserror` enum) with the variants that
/// several modules share written once, here: the same failure reads the
/// same, with the same fields, whichever module reports it. The enum's body
/// starts with `shared { … }`, naming the shared variants it has, each
/// after its own doc comment (which says what the variant means in that
/// module), then lists its own variants:
///
/// ```text
/// LengthMismatch    length mismatch: {left} has {left_len} values, {right} has {right_len}
/// TooFewItems       too few items: {needed} needed, got {got}
/// NaN               {input}[{index}] is NaN
/// Infinite          {input}[{index}] is infinite
/// InvalidParameter  invalid parameter {name}: {expected}
/// TooLarge          too large: {requested} {quantity} requested, at most {limit}
/// Io                i/o error at line {line}: {message}   (and the constructor `io(line, &e)`)
/// ```
macro_rules! module_error {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            shared { $($shared:tt)* }
            $($own:tt)*
        }
    ) => {
        module_error!(@shared [$(#[$meta])* $vis enum] $name [] [] $($shared)* [$($own)*]);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* LengthMismatch, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("length mismatch: {left} has {left_len} values, {right} has {right_len}")]
            LengthMismatch {
                /// Name of the first input.
                left: &'static str,
                /// Its length.
                left_len: usize,
                /// Name of the second input.
                right: &'static str,
                /// Its length.
                right_len: usize,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* TooFewItems, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("too few items: {needed} needed, got {got}")]
            TooFewItems {
                /// The minimum number of items.
                needed: usize,
                /// The number given.
                got: usize,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* NaN, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("{input}[{index}] is NaN")]
            NaN {
                /// Name of the input.
                input: &'static str,
                /// Index of the first NaN.
                index: usize,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* Infinite, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("{input}[{index}] is infinite")]
            Infinite {
                /// Name of the input.
                input: &'static str,
                /// Index of the first infinite value.
                index: usize,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* InvalidParameter, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("invalid parameter {name}: {expected}")]
            InvalidParameter {
                /// The parameter (`"alpha"`, `"k"`, …).
                name: &'static str,
                /// What was expected of it.
                expected: &'static str,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] $extra:tt $(#[$doc:meta])* TooLarge, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("too large: {requested} {quantity} requested, at most {limit}")]
            TooLarge {
                /// What is counted (`"items"`, `"comparisons"`, …).
                quantity: &'static str,
                /// The number asked for.
                requested: u64,
                /// The limit.
                limit: u64,
            },
        ] $extra $($rest)*);
    };
    (@shared $head:tt $name:ident [$($done:tt)*] [$($extra:tt)*] $(#[$doc:meta])* Io, $($rest:tt)*) => {
        module_error!(@shared $head $name [$($done)*
            $(#[$doc])*
            #[error("i/o error at line {line}: {message}")]
            Io {
                /// 1-based line being read.
                line: usize,
                /// The kind of the I/O error.
                kind: std::io::ErrorKind,
                /// The I/O error's message.
                message: String,
            },
        ] [$($extra)*
            impl $name {
                /// [`Self::Io`] at `line` for the error `e`.
                pub(crate) fn io(line: usize, e: &std::io::Error) -> Self {
                    Self::Io { line, kind: e.kind(), message: e.to_string() }
                }
            }
        ] $($rest)*);
    };
    (@shared [$($head:tt)*] $name:ident [$($done:tt)*] [$($extra:tt)*] [$($own:tt)*]) => {
        $($head)* $name { $($done)* $($own)* }
        $($extra)*
    };
}

/// `impl Display` for a result that prints as one formatted line, the
/// crate's most common case (see `present`): `$d` is bound to the
/// formatter's precision or the default 4 decimals for the format string and
/// its arguments, and the doc comment before the type documents the impl.
///
/// The second form, `|self, d, f| "format", args; statements`, prints that
/// line first and then runs the statements, which write the rest to the
/// formatter `f` and end in a `fmt::Result` (a report's header line, then
/// one line per item).
macro_rules! display_line {
    ($(#[$doc:meta])* $ty:ty, |$this:ident, $d:ident| $($format:tt)+) => {
        $(#[$doc])*
        impl core::fmt::Display for $ty {
            fn fmt(&$this, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let $d = $crate::present::precision(f);
                write!(f, $($format)+)
            }
        }
    };
    (
        $(#[$doc:meta])* $ty:ty,
        |$this:ident, $d:ident, $f:ident| $format:literal $(, $arg:expr)* $(,)?; $($rest:tt)+
    ) => {
        $(#[$doc])*
        impl core::fmt::Display for $ty {
            fn fmt(&$this, $f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let $d = $crate::present::precision($f);
                write!($f, $format $(, $arg)*)?;
                $($rest)+
            }
        }
    };
}

#[cfg(feature = "scheduler")]
#[cfg_attr(docsrs, doc(cfg(feature = "scheduler")))]
pub mod ballot;
pub mod correlation;
pub mod embedding;
pub mod error;
pub mod lexsub;
mod lines;
#[cfg(feature = "scheduler")]
#[cfg_attr(docsrs, doc(cfg(feature = "scheduler")))]
pub mod pairwise;
mod present;
pub mod rank;
pub mod relevance;
mod special;
mod sum;
pub mod threads;
pub mod triplet;
#[cfg(feature = "uncertainty")]
#[cfg_attr(docsrs, doc(cfg(feature = "uncertainty")))]
pub mod uncertainty;
pub mod weigh;
pub mod wordsim;

pub use correlation::standardised::{
    Coefficient, GammaMoments, MomentEstimate, MomentSource, StandardisedError, StandardisedRho,
    StandardisedTau, Standardiser,
};
pub use correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTau, WeightedTauOptions, WeightedTauStats, weighted_kendall,
    weighted_tau, weighted_tau_stats,
};
pub use correlation::weighted::{
    RhoW, TauW, TopWeighted, rho_w, rho_w_with_weights, tau_w, tau_w_with_weights,
};
pub use correlation::{CorrelationError, WeightProblem};
pub use correlation::{
    kendall::{KendallResult, kendall_tau_b, kendall_tau_b_naive},
    pearson::{FisherInterval, PearsonResult, pearson},
    pvalue::Alternative,
    spearman::{SpearmanResult, spearman, spearman_ranks},
};
#[allow(deprecated)]
pub use error::AnyError;
pub use error::{Error, Result};
pub use rank::{Order, Ties, rank, validate_ranks};
pub use threads::{Threads, current_threads, with_threads};
pub use weigh::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Quadratic, Scheme, Unweighted, Weigher,
    first_rank_fraction, item_weights,
};
#[cfg(feature = "simulator")]
#[cfg_attr(docsrs, doc(cfg(feature = "simulator")))]
pub mod simulate;

/// The `rand` this crate is built with (0.10), re-exported so that a
/// generator passed to the crate always fits: `SeedableRng`, the `Rng`
/// trait and `RngExt` come from here. See [Random numbers and
/// seeds](crate#random-numbers-and-seeds).
#[cfg(any(feature = "scheduler", feature = "uncertainty"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "scheduler", feature = "uncertainty"))))]
pub use rand;
/// The `rand_chacha` this crate is built with (0.10), re-exported for its
/// `ChaCha8Rng`: the generator a seed drives in every `…_seeded` entry
/// point and in the simulator. See [Random numbers and
/// seeds](crate#random-numbers-and-seeds).
#[cfg(any(feature = "scheduler", feature = "uncertainty"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "scheduler", feature = "uncertainty"))))]
pub use rand_chacha;

/// The README's examples, compiled and run as doctests (with the
/// `uncertainty` feature, which its p-value example needs, as in the README's
/// test command `make test`, which runs `cargo test --workspace --all-features`).
#[cfg(all(doctest, feature = "uncertainty"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
