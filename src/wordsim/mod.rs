//! Word-similarity benchmarks, end to end: read word-pair files, evaluate
//! embedding models against the human scores with every coefficient the
//! crate has, and compare models fairly.
//!
//! | task | items |
//! |---|---|
//! | read a benchmark (WordSim-353, SimLex-999, MEN, RG-65, MC-30, MTurk, RW, SimVerb-3500 layouts) | [`Benchmark`], [`read_pairs`], [`PairFormat`], [`Layout`], [`Separator`], [`Header`], [`WordPair`] |
//! | … without naming the layout: detect it from the content (the file name breaks ties) | [`Benchmark::read_detected`], [`PairFormat::detect`], [`Detection`], [`Chosen`] |
//! | evaluate one model on one benchmark | [`Evaluator`], [`Unknown`], [`Report`] |
//! | several models × several benchmarks | [`Evaluator::compare`], [`Comparison`] |
//! | does model A beat model B? (feature `uncertainty`) | `paired_test`, `PairedTest`, `Intervals` |
//! | errors | [`WordsimError`], [`PairProblem`], [`DetectProblem`] |
//!
//! Gensim's `evaluate_word_pairs`, word-embeddings-benchmarks and the
//! fastText/Swivel `wordsim` scripts report Pearson's r and Spearman's ρ of
//! cosine similarities against human scores. A [`Report`] adds Kendall's
//! τ-b, the top-weighted ρ_w and τ_w of Lombardo et al. (2020), which weigh
//! agreement on the most similar pairs most, and (feature `uncertainty`)
//! bootstrap confidence intervals; `paired_test` says whether one model
//! beats another on the pairs both cover.
//!
//! A report prints as a short block (`println!("{report}")`), a
//! [`Comparison`] as an aligned table; with feature `serde` reports, tables,
//! benchmarks and every option serialise, and reports are checked against
//! their scored pairs when read back (see [`Report`]).
//!
//! ```text
//! pairs → s_i = cos(v(word1_i), v(word2_i)) → unknown words: drop / 0 / mean
//!       → r, ρ, τ-b (with p-values), ρ_w, τ_w of (human_i, s_i)
//! ```
//!
//! The usual workflow reads the benchmarks first, then streams the vector
//! files keeping only the words the benchmarks need:
//!
//! ```
//! use adaptive_comp_metrics::embedding::{read_vectors, Format, ReadOptions};
//! use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, PairFormat, Unknown};
//! use adaptive_comp_metrics::Alternative;
//!
//! let ws = "# word1\tword2\tscore\ntiger\tcat\t7.35\nbook\tpaper\t7.46\ncomputer\tkeyboard\t7.62\n\
//!           plane\tcar\t5.77\ntiger\tzoo\t5.87\nstock\tegg\t1.81\n";
//! let benchmark = Benchmark::read("toy-ws", ws.as_bytes(), &PairFormat::new())?;
//! let file = "7 3\ntiger 0.9 0.1 0.0\ncat 0.8 0.3 0.1\nbook 0.1 0.9 0.2\npaper 0.2 0.8 0.1\n\
//!             computer 0.0 0.7 0.7\nkeyboard 0.1 0.5 0.8\nplane 0.5 0.1 0.9\n";
//! let keep = ReadOptions::new().keep(benchmark.words());
//! let vectors = read_vectors::<f32, _>(file.as_bytes(), Format::Word2VecText, &keep)?;
//! let report = Evaluator::new().unknown(Unknown::Drop).evaluate(&vectors, &benchmark)?;
//! assert_eq!((report.pairs, report.found), (6, 3)); // car, zoo, stock, egg are unknown
//! let rho = report.spearman.as_ref().unwrap();
//! assert!(rho.rho > 0.0 && rho.p_value(Alternative::TwoSided) <= 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## References
//! - P. Lombardo, A. Boiardi, L. Colombo, A. Schiavone, N. Tamagnone (2020).
//!   *Top-rank-focused adaptive vote collection for the evaluation of
//!   domain-specific semantic models.* EMNLP 2020 (ρ_w, τ_w).
//! - gensim (Řehůřek & Sojka 2010), `KeyedVectors.evaluate_word_pairs`: the
//!   unknown-word conventions (`dummy4unknown`) and the OOV ratio.
//! - L. Finkelstein et al. (2002), WordSim-353; F. Hill, R. Reichart,
//!   A. Korhonen (2015), SimLex-999; E. Bruni et al. (2012), MEN;
//!   H. Rubenstein, J. Goodenough (1965), RG-65; G. Miller, W. Charles
//!   (1991), MC-30; K. Radinsky et al. (2011), MTurk-287; G. Halawi et al.
//!   (2012), MTurk-771; M.-T. Luong, R. Socher, C. D. Manning (2013), Rare
//!   Words; D. Gerz et al. (2016), SimVerb-3500.

mod compare;
mod detect;
mod display;
mod error;
mod evaluate;
mod pairs;
#[cfg(feature = "serde")]
mod repr;

pub use compare::Comparison;
#[cfg(feature = "uncertainty")]
pub use compare::{PairedTest, paired_test, paired_test_seeded};
pub use detect::{Chosen, DETECTION_SAMPLE, Detection};
pub use error::{DetectProblem, PairProblem, WordsimError};
#[cfg(feature = "uncertainty")]
pub use evaluate::Intervals;
pub use evaluate::{Evaluator, Report, Unknown};
pub use pairs::{Benchmark, Header, Layout, PairFormat, Separator, WordPair, read_pairs};
