//! Writers for the three vector formats; what they write reads back bit for
//! bit.

use std::fmt::{Display, LowerExp};
use std::io::Write;

use num_traits::Float;

use super::error::{EmbeddingError, VectorProblem};
use super::read::Format;
use super::store::Vectors;

/// Writes `vectors` in `format`, in insertion order.
///
/// Text components are written in the shortest decimal form that reads back
/// to the same `F` value (plain notation for 10⁻⁵ ≤ |x| < 10¹⁶ and zero,
/// exponent notation otherwise), so [`read_vectors`](super::read_vectors)
/// gives back identical bits. The binary format stores f32: an `f64`
/// component must be exactly an f32 value. An empty store written as GloVe
/// is an empty file, which has no dimension and so does not read back
/// ([`VectorProblem::NoRows`]); the other formats keep the dimension in
/// their header.
///
/// ```text
/// Word2VecText    {count} {dim}⏎  {word} {v₁} … {v_dim}⏎ …
/// Glove           {word} {v₁} … {v_dim}⏎ …
/// Word2VecBinary  {count} {dim}⏎  {word}␠<dim f32, little-endian>⏎ …   (as the word2vec tool)
/// ```
///
/// # Errors
/// [`EmbeddingError::Vector`] (entry = 0-based row) for a word containing
/// whitespace (no format can hold it), a first GloVe word starting with
/// U+FEFF (it would be read as a byte-order mark) or, in binary, a component
/// that is not an f32 value; [`EmbeddingError::Io`] if writing fails.
///
/// # Complexity
/// O(count·dim).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{read_vectors, write_vectors, Format, ReadOptions, Vectors};
/// let v = Vectors::from_pairs(2, [("cat", [0.1f32, 1e-9]), ("dog", [-3.0, 0.0])])?;
/// let mut text = Vec::new();
/// write_vectors(&mut text, &v, Format::Word2VecText)?;
/// assert_eq!(String::from_utf8(text.clone()).unwrap(), "2 2\ncat 0.1 1e-9\ndog -3 0\n");
/// let back = read_vectors::<f32, _>(&text[..], Format::Word2VecText, &ReadOptions::new())?;
/// assert_eq!(back.get("cat"), v.get("cat"));
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn write_vectors<F, W>(
    mut writer: W,
    vectors: &Vectors<F>,
    format: Format,
) -> Result<(), EmbeddingError>
where
    F: Float + Into<f64> + Display + LowerExp,
    W: Write,
{
    let io = |e: std::io::Error| EmbeddingError::io("writing", &e);
    if format != Format::Glove {
        writeln!(writer, "{} {}", vectors.len(), vectors.dim()).map_err(io)?;
    }
    let mut line = Vec::new();
    for (entry, (word, values)) in vectors.iter().enumerate() {
        let err = |problem| EmbeddingError::Vector { entry, problem };
        if word.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(err(VectorProblem::WhitespaceInWord));
        }
        if entry == 0 && format == Format::Glove && word.starts_with('\u{feff}') {
            return Err(err(VectorProblem::LeadingByteOrderMark));
        }
        line.clear();
        line.extend_from_slice(word.as_bytes());
        if format == Format::Word2VecBinary {
            line.push(b' ');
            for (k, &v) in values.iter().enumerate() {
                let wide: f64 = v.into();
                let narrow = wide as f32;
                if f64::from(narrow).to_bits() != wide.to_bits() {
                    return Err(err(VectorProblem::NotRepresentable { column: k + 1 }));
                }
                line.extend_from_slice(&narrow.to_le_bytes());
            }
        } else {
            for &v in values {
                line.push(b' ');
                write_number(&mut line, v);
            }
        }
        line.push(b'\n');
        writer.write_all(&line).map_err(io)?;
    }
    writer.flush().map_err(io)
}

/// The shortest round-trip decimal of `v`: plain for ordinary magnitudes,
/// exponent notation for tiny and huge ones (Rust's `Display` and
/// `LowerExp` both print the shortest digits that parse back exactly).
fn write_number<F: Float + Display + LowerExp>(out: &mut Vec<u8>, v: F) {
    use std::io::Write as _;
    let a = v.abs();
    let plain = a == F::zero()
        || (a >= F::from(1e-5).unwrap_or_else(F::zero)
            && a < F::from(1e16).unwrap_or_else(F::infinity));
    // Writing to a Vec cannot fail.
    let _ = if plain {
        write!(out, "{v}")
    } else {
        write!(out, "{v:e}")
    };
}

/// Writes `vectors` in the word2vec text format; [`write_vectors`] with
/// [`Format::Word2VecText`].
///
/// # Errors
/// As [`write_vectors`].
///
/// # Complexity
/// O(count·dim).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{write_word2vec, Vectors};
/// let v = Vectors::from_pairs(1, [("a", [0.5f64])])?;
/// let mut out = Vec::new();
/// write_word2vec(&mut out, &v)?;
/// assert_eq!(out, b"1 1\na 0.5\n");
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn write_word2vec<F, W>(writer: W, vectors: &Vectors<F>) -> Result<(), EmbeddingError>
where
    F: Float + Into<f64> + Display + LowerExp,
    W: Write,
{
    write_vectors(writer, vectors, Format::Word2VecText)
}

/// Writes `vectors` in the GloVe text format; [`write_vectors`] with
/// [`Format::Glove`].
///
/// # Errors
/// As [`write_vectors`].
///
/// # Complexity
/// O(count·dim).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{write_glove, Vectors};
/// let v = Vectors::from_pairs(2, [("a", [0.5f32, -1.0])])?;
/// let mut out = Vec::new();
/// write_glove(&mut out, &v)?;
/// assert_eq!(out, b"a 0.5 -1\n");
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn write_glove<F, W>(writer: W, vectors: &Vectors<F>) -> Result<(), EmbeddingError>
where
    F: Float + Into<f64> + Display + LowerExp,
    W: Write,
{
    write_vectors(writer, vectors, Format::Glove)
}

/// Writes `vectors` in the word2vec binary format; [`write_vectors`] with
/// [`Format::Word2VecBinary`].
///
/// # Errors
/// As [`write_vectors`].
///
/// # Complexity
/// O(count·dim).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{write_word2vec_binary, Vectors};
/// let v = Vectors::from_pairs(1, [("a", [1.0f32])])?;
/// let mut out = Vec::new();
/// write_word2vec_binary(&mut out, &v)?;
/// assert_eq!(out, b"1 1\na \x00\x00\x80\x3f\n");
/// let w = Vectors::from_pairs(1, [("a", [0.1f64])])?; // 0.1 is not an f32 value
/// assert!(write_word2vec_binary(&mut Vec::new(), &w).is_err());
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn write_word2vec_binary<F, W>(writer: W, vectors: &Vectors<F>) -> Result<(), EmbeddingError>
where
    F: Float + Into<f64> + Display + LowerExp,
    W: Write,
{
    write_vectors(writer, vectors, Format::Word2VecBinary)
}
