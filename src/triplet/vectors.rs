//! The word2vec text reader with the triplet module's error type; the store
//! and the other formats live in [`embedding`](crate::embedding).

use std::io::BufRead;

use super::error::TripletError;
use crate::embedding::{Component, Vectors};

/// Reads word vectors in the word2vec text format (`.vec`), streaming:
/// [`embedding::read_word2vec`](crate::embedding::read_word2vec) with its
/// errors wrapped in [`TripletError::Vectors`], so code that scores
/// triplets can use `?` on both.
///
/// ```text
/// count dim                 ← header: two integers (a UTF-8 byte-order mark before it is skipped)
/// word v₁ v₂ … v_dim         ← one line per word, fields separated by spaces or tabs
/// ```
///
/// # Errors
/// [`TripletError::Vectors`] wrapping the line-numbered
/// [`EmbeddingError`](crate::embedding::EmbeddingError) of
/// [`embedding::read_word2vec`](crate::embedding::read_word2vec).
///
/// # Complexity
/// O(file size) time; O(count·dim) memory for the vectors plus one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::read_word2vec;
/// let v = read_word2vec::<f32, _>(&b"\xEF\xBB\xBF2 3\ncat 1 0 0\ndog 0.5 0.5 0\n"[..])?;
/// assert_eq!((v.len(), v.dim()), (2, 3));
/// let bad = "2 3\ncat 1 0 0\ndog 0.5 0.5\n";
/// assert_eq!(read_word2vec::<f32, _>(bad.as_bytes()).unwrap_err().to_string(),
///            "vectors line 3: expected 3 components, found 2");
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn read_word2vec<F: Component, R: BufRead>(reader: R) -> Result<Vectors<F>, TripletError> {
    Ok(crate::embedding::read_word2vec(reader)?)
}
