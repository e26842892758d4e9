//! The reliability-weighted triplet score of Avraham & Goldberg (2016), from
//! annotator rankings to a model's score.
//!
//! A dataset is a set of *binary comparisons* `(w_t, w1, w2, R_>)`: how likely
//! a human ranks the pair `(w_t, w1)` above `(w_t, w2)`. A model earns the
//! comparison's weight `|2R_> − 1|` when it orders the two pairs like the
//! majority of the annotators, and nothing otherwise:
//!
//! ```text
//! s(w_t, w1, w2) = δ·(2R_>(w1, w2; w_t) − 1),   δ = +1 if sim(w_t, w1) > sim(w_t, w2), else −1
//! score = Σ max(s, 0) / Σ |s|                    ∈ [0, 1], undefined when Σ |s| = 0
//! ```
//!
//! | task | items |
//! |---|---|
//! | data model | [`TargetGroup`], [`Comparison`], [`ComparisonKind`] |
//! | build a dataset from annotator rankings (§4.1, §5) | [`build_dataset`], [`comparisons`], [`agreement`], [`exclude`], [`Annotation`], [`Deviation`] |
//! | score a model (§4.2) | [`score`], [`score_where`], [`score_by`], [`Similarity`], [`TiePolicy`], [`Tally`] |
//! | word vectors (from [`embedding`](crate::embedding), which has more formats) | [`Vectors`] (cosine similarity), [`read_word2vec`] (`.vec` text format) |
//! | files | [`read_dataset`], [`write_dataset`] (the published format), [`read_dataset_with`] ([`ReadMode::Lenient`] reads a target without the blank line before it) |
//!
//! Reference: O. Avraham and Y. Goldberg (2016), *Improving Reliability of
//! Word Similarity Evaluation by Redesigning Annotation Task and Performance
//! Measure*, RepEval workshop.
//!
//! # Examples
//! ```
//! use adaptive_comp_metrics::triplet::{read_dataset, score, TiePolicy, Vectors};
//! let dataset = "singer\nperson,0.1,musician,0.9\ndistractors\nmusician,1,song,0\n";
//! let comparisons = read_dataset(dataset.as_bytes())?;
//! let vectors = Vectors::from_pairs(2, [
//!     ("singer", [1.0f32, 0.0]), ("musician", [0.9, 0.1]), ("person", [0.5, 0.5]), ("song", [0.0, 1.0]),
//! ])?;
//! let s = score(&comparisons, &vectors, TiePolicy::default())?;
//! assert_eq!(s.overall.score(), Some(1.0));
//! assert_eq!(s.distractor.scored, 1);
//! # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
//! ```

mod build;
mod display;
mod error;
mod format;
mod model;
mod score;
mod vectors;

/// Word vectors moved to [`embedding`](crate::embedding); re-exported here.
pub use crate::embedding::{Similarity, VectorProblem, Vectors};
pub use build::{
    Agreement, Annotation, AnnotatorAgreement, BuiltDataset, Deviation, Exclusion, MAX_COMPARISONS,
    agreement, build_dataset, comparisons, exclude,
};
pub use error::{AnnotationProblem, FormatProblem, GroupProblem, TripletError, WordProblem};
pub use format::{
    Decimals, FormatWarning, ParsedDataset, ReadMode, read_dataset, read_dataset_with,
    write_dataset,
};
pub use model::{Comparison, ComparisonKind, TargetGroup};
pub use score::{Tally, TiePolicy, TripletScore, score, score_by, score_where};
pub use vectors::read_word2vec;
