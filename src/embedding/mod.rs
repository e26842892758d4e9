//! Word vectors: an in-memory store with cosine similarity, and streaming
//! readers and writers for the formats people hold.
//!
//! | task | items |
//! |---|---|
//! | the store, cosine similarity | [`Vectors`], [`Similarity`] |
//! | read any format, keep only a vocabulary, fold case, limit rows | [`read_vectors`], [`ReadOptions`], [`Format`] (with [`Format::detect`]) |
//! | one format, default options | [`read_word2vec`] (`.vec` text), [`read_glove`], [`read_word2vec_binary`] (`.bin`) |
//! | write | [`write_vectors`], [`write_word2vec`], [`write_glove`], [`write_word2vec_binary`] |
//! | errors | [`EmbeddingError`], [`VectorProblem`] |
//! | the component types read (`f32`, `f64`) | [`Component`] |
//!
//! ```text
//! Word2VecText    count dim⏎  word v₁ … v_dim⏎ …            (word2vec -binary 0, fastText .vec)
//! Glove           word v₁ … v_dim⏎ …                        (no header)
//! Word2VecBinary  count dim⏎  word␠ <dim f32 little-endian> [⏎] …
//! ```
//!
//! The usual evaluation reads the benchmarks first and then streams a large
//! vector file keeping only the words they need: one pass over the file,
//! memory for a few thousand vectors, and rows not kept are skipped without
//! parsing (a newline search, or a seek-free skip of 4·dim bytes in binary).
//!
//! ```
//! use adaptive_comp_metrics::embedding::{read_vectors, Format, ReadOptions};
//! let file = "4 2\nthe 1 0\ncat 0.6 0.8\nsat 0 1\ndog 0.8 0.6\n";
//! let needed = ["cat", "dog", "unicorn"];
//! let v = read_vectors::<f32, _>(file.as_bytes(), Format::detect(file.as_bytes()), &ReadOptions::new().keep(needed))?;
//! assert_eq!(v.len(), 2);
//! assert!((v.cosine("cat", "dog").unwrap() - 0.96).abs() < 1e-6);
//! # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
//! ```
//!
//! The store and [`read_word2vec`] are also re-exported from
//! [`triplet`](crate::triplet), where they started.
//!
//! ## References
//! - T. Mikolov, K. Chen, G. Corrado, J. Dean (2013). *Efficient estimation of
//!   word representations in vector space*; the `word2vec` tool's output formats.
//! - J. Pennington, R. Socher, C. D. Manning (2014). *GloVe: global vectors for
//!   word representation.* EMNLP.
//! - P. Bojanowski, E. Grave, A. Joulin, T. Mikolov (2017). *Enriching word
//!   vectors with subword information* (fastText; `.vec` files).

mod binary;
mod error;
mod read;
mod similarity;
mod store;
mod text;
mod write;

pub use error::{EmbeddingError, VectorProblem};
pub use read::{
    Format, ReadOptions, read_glove, read_vectors, read_word2vec, read_word2vec_binary,
};
pub use similarity::Similarity;
pub use store::Vectors;
pub use write::{write_glove, write_vectors, write_word2vec, write_word2vec_binary};

/// What the readers store a vector component as (`f32`, `f64`): a float that
/// parses from text and widens to `f64`. Every such type is one.
pub trait Component: num_traits::Float + Into<f64> + core::str::FromStr {}

impl<T: num_traits::Float + Into<f64> + core::str::FromStr> Component for T {}
