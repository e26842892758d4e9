//! Word vectors as a [`Similarity`] model: cosine similarity over an
//! in-memory store, and a streaming reader for the word2vec text format.

use std::collections::HashMap;
use std::io::BufRead;
use std::str::FromStr;

use num_traits::Float;

use super::error::{TripletError, VectorProblem};
use super::score::Similarity;

/// At most this many components are reserved up front from a file's header,
/// so a corrupt header cannot make the reader allocate gigabytes.
const MAX_RESERVE: usize = 1 << 22;

/// Word vectors of one dimension, stored contiguously, with precomputed
/// norms; a [`Similarity`] model by cosine similarity.
///
/// ```text
/// cos(a, b) = (a · b) / (‖a‖ ‖b‖)   (norms in f64; a · b summed in F over 8 lanes, lanes added in f64)
/// ```
///
/// `F` is `f32` (half the memory, the usual choice) or `f64`. A word whose
/// vector is all zeros has no direction: its cosine with anything is `None`,
/// like an unknown word, so comparisons that use it are skipped and counted.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{Similarity, Vectors};
/// let mut v = Vectors::<f32>::new(2)?;
/// v.push("cat", &[1.0, 0.0])?;
/// v.push("dog", &[1.0, 1.0])?;
/// let c = v.similarity("cat", "dog").unwrap();
/// assert!((c - 0.5f64.sqrt()).abs() < 1e-7);
/// assert_eq!(v.similarity("cat", "cow"), None);
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Vectors<F = f32> {
    dim: usize,
    index: HashMap<Box<str>, usize>,
    data: Vec<F>,
    inv_norms: Vec<f64>,
}

impl<F: Float + Into<f64>> Vectors<F> {
    /// An empty store of `dim`-dimensional vectors.
    ///
    /// # Errors
    /// [`TripletError::InvalidParameter`] if `dim = 0`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::triplet::Vectors;
    /// assert!(Vectors::<f64>::new(0).is_err());
    /// assert_eq!(Vectors::<f64>::new(3)?.dim(), 3);
    /// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
    /// ```
    pub fn new(dim: usize) -> Result<Self, TripletError> {
        if dim == 0 {
            return Err(TripletError::InvalidParameter {
                name: "dim",
                expected: "a dimension of at least 1",
            });
        }
        Ok(Self {
            dim,
            index: HashMap::new(),
            data: Vec::new(),
            inv_norms: Vec::new(),
        })
    }

    /// A store from `(word, vector)` pairs, e.g. a `HashMap<String, Vec<f32>>`.
    ///
    /// # Errors
    /// As [`Vectors::new`] and [`Vectors::push`]; `entry` in the error is the
    /// 0-based position in the iteration.
    ///
    /// # Complexity
    /// O(n·dim).
    ///
    /// # Examples
    /// ```
    /// use std::collections::HashMap;
    /// use adaptive_comp_metrics::triplet::Vectors;
    /// let map = HashMap::from([("cat".to_string(), vec![1.0f32, 0.0]), ("dog".into(), vec![0.0, 2.0])]);
    /// let v = Vectors::from_pairs(2, map)?;
    /// assert_eq!(v.cosine("cat", "dog"), Some(0.0));
    /// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
    /// ```
    pub fn from_pairs<I, W, V>(dim: usize, pairs: I) -> Result<Self, TripletError>
    where
        I: IntoIterator<Item = (W, V)>,
        W: Into<String>,
        V: AsRef<[F]>,
    {
        let mut out = Self::new(dim)?;
        for (word, vector) in pairs {
            out.push(word, vector.as_ref())?;
        }
        Ok(out)
    }

    /// Adds the vector of `word`.
    ///
    /// # Errors
    /// [`TripletError::Vector`] (with `entry` = the number of vectors already
    /// stored) if the word is empty or already present, the vector has the
    /// wrong length, a component is not finite, or its squared norm
    /// overflows f64 (components above ~10¹⁵⁴, possible only with `f64`).
    ///
    /// # Complexity
    /// O(dim) (amortised).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::triplet::Vectors;
    /// let mut v = Vectors::<f32>::new(2)?;
    /// v.push("cat", &[1.0, 0.0])?;
    /// assert!(v.push("cat", &[0.0, 1.0]).is_err()); // duplicate
    /// assert!(v.push("dog", &[0.0]).is_err()); // wrong dimension
    /// assert!(v.push("cow", &[f32::NAN, 0.0]).is_err());
    /// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
    /// ```
    pub fn push(&mut self, word: impl Into<String>, vector: &[F]) -> Result<(), TripletError> {
        let entry = self.len();
        let err = |problem| TripletError::Vector { entry, problem };
        if vector.len() != self.dim {
            return Err(err(VectorProblem::WrongDimension {
                expected: self.dim,
                found: vector.len(),
            }));
        }
        let inv_norm = inverse_norm(vector).map_err(err)?;
        let word: Box<str> = word.into().into_boxed_str();
        if word.is_empty() {
            return Err(err(VectorProblem::EmptyWord));
        }
        match self.index.entry(word) {
            std::collections::hash_map::Entry::Occupied(_) => {
                Err(err(VectorProblem::DuplicateWord))
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(entry);
                self.data.extend_from_slice(vector);
                self.inv_norms.push(inv_norm);
                Ok(())
            }
        }
    }

    /// The vector of `word`, if present.
    #[must_use]
    pub fn get(&self, word: &str) -> Option<&[F]> {
        let &i = self.index.get(word)?;
        self.row(i)
    }

    /// Cosine similarity of two words; `None` if a word is unknown or has a
    /// zero vector.
    ///
    /// The result is clamped to `[−1, 1]`: rounding can push it a few ulps
    /// out, and vectors with tiny norms (squared norm below ~10⁻³⁰⁰, where f64
    /// loses precision) further.
    ///
    /// ```text
    /// cos(a, b) = (Σᵢ aᵢbᵢ) · (1/‖a‖) · (1/‖b‖)
    /// ```
    ///
    /// # Complexity
    /// O(dim) plus two hash lookups.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::triplet::Vectors;
    /// let v = Vectors::from_pairs(2, [("a", [3.0f64, 4.0]), ("b", [4.0, 3.0])])?;
    /// assert!((v.cosine("a", "b").unwrap() - 0.96).abs() < 1e-15);
    /// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
    /// ```
    #[must_use]
    pub fn cosine(&self, a: &str, b: &str) -> Option<f64> {
        let &i = self.index.get(a)?;
        let &j = self.index.get(b)?;
        let ni = *self.inv_norms.get(i)?;
        let nj = *self.inv_norms.get(j)?;
        if ni == 0.0 || nj == 0.0 {
            return None;
        }
        Some((dot(self.row(i)?, self.row(j)?) * ni * nj).clamp(-1.0, 1.0))
    }

    /// The dimension of the vectors.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of words.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inv_norms.len()
    }

    /// Whether the store has no word.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.inv_norms.is_empty()
    }

    /// Whether `word` has a vector.
    #[must_use]
    pub fn contains(&self, word: &str) -> bool {
        self.index.contains_key(word)
    }

    fn row(&self, i: usize) -> Option<&[F]> {
        self.data.get(i * self.dim..(i + 1) * self.dim)
    }
}

impl<F: Float + Into<f64>> Similarity for Vectors<F> {
    #[inline]
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        self.cosine(a, b)
    }

    /// Three lookups and one pass over the target's vector for both cosines.
    #[inline]
    fn similarity_pair(&self, target: &str, w1: &str, w2: &str) -> Option<[f64; 2]> {
        let &t = self.index.get(target)?;
        let &i = self.index.get(w1)?;
        let &j = self.index.get(w2)?;
        let (nt, ni, nj) = (
            *self.inv_norms.get(t)?,
            *self.inv_norms.get(i)?,
            *self.inv_norms.get(j)?,
        );
        if nt == 0.0 || ni == 0.0 || nj == 0.0 {
            return None;
        }
        let [a, b] = dot2(self.row(t)?, self.row(i)?, self.row(j)?);
        Some([
            (a * nt * ni).clamp(-1.0, 1.0),
            (b * nt * nj).clamp(-1.0, 1.0),
        ])
    }
}

/// `1/‖v‖` (0 for a zero vector), after checking every component.
fn inverse_norm<F: Float + Into<f64>>(v: &[F]) -> Result<f64, VectorProblem> {
    let mut sq = 0.0f64;
    for (k, &x) in v.iter().enumerate() {
        let x: f64 = x.into();
        if !x.is_finite() {
            return Err(VectorProblem::NonFinite { column: k + 1 });
        }
        sq += x * x;
    }
    if !sq.is_finite() {
        return Err(VectorProblem::NormOverflow);
    }
    Ok(if sq > 0.0 { 1.0 / sq.sqrt() } else { 0.0 })
}

/// Independent accumulators of the dot products: enough for the compiler to
/// keep two SSE (or one AVX) register of f32 busy.
const LANES: usize = 8;

/// The lanes summed in f64, plus the tail products in f64.
#[inline]
fn reduce<F: Float + Into<f64>>(acc: [F; LANES], tail: impl Iterator<Item = (F, F)>) -> f64 {
    let l: [f64; LANES] = acc.map(Into::into);
    let mut t = 0.0f64;
    for (x, y) in tail {
        t += x.into() * y.into();
    }
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7])) + t
}

/// `a · b`: products and running sums in `F` over eight independent lanes
/// (so it vectorises), lanes combined in f64. For f32 vectors of dimension
/// 300 the relative error is of order 10⁻⁷, the precision of the data.
#[inline]
fn dot<F: Float + Into<f64>>(a: &[F], b: &[F]) -> f64 {
    let mut acc = [F::zero(); LANES];
    let (ca, ra) = a.as_chunks::<LANES>();
    let (cb, rb) = b.as_chunks::<LANES>();
    for (x, y) in ca.iter().zip(cb) {
        for k in 0..LANES {
            acc[k] = acc[k] + x[k] * y[k];
        }
    }
    reduce(acc, ra.iter().copied().zip(rb.iter().copied()))
}

/// `[t · a, t · b]` in one pass over `t`, with the same lane structure (and so
/// bit for bit the same results) as [`dot`].
#[inline]
fn dot2<F: Float + Into<f64>>(t: &[F], a: &[F], b: &[F]) -> [f64; 2] {
    let mut acc_a = [F::zero(); LANES];
    let mut acc_b = [F::zero(); LANES];
    let (ct, rt) = t.as_chunks::<LANES>();
    let (ca, ra) = a.as_chunks::<LANES>();
    let (cb, rb) = b.as_chunks::<LANES>();
    for ((x, y), z) in ct.iter().zip(ca).zip(cb) {
        for k in 0..LANES {
            acc_a[k] = acc_a[k] + x[k] * y[k];
            acc_b[k] = acc_b[k] + x[k] * z[k];
        }
    }
    [
        reduce(acc_a, rt.iter().copied().zip(ra.iter().copied())),
        reduce(acc_b, rt.iter().copied().zip(rb.iter().copied())),
    ]
}

/// Reads word vectors in the word2vec text format (`.vec`), streaming.
///
/// ```text
/// count dim                 ← header: two integers
/// word v₁ v₂ … v_dim         ← one line per word, fields separated by spaces or tabs
/// ```
///
/// Lines are read one at a time into a reused buffer and parsed straight into
/// the contiguous store, so the file is never held in memory, let alone
/// twice. CRLF line ends and blank lines (anywhere after the header) are
/// accepted; components are parsed directly as `F`.
///
/// # Errors
/// [`TripletError::VectorFile`] with the 1-based line number for: an empty
/// file, a header that is not two integers, dimension 0, invalid UTF-8, a
/// line with the wrong number of components, a component that is not a
/// number or not finite in `F` (e.g. `1e39` as f32), a squared norm that
/// overflows f64, a duplicate word, more or fewer vectors than the header
/// says; [`TripletError::Io`] if the reader fails.
///
/// # Complexity
/// O(file size) time; O(count·dim) memory for the vectors plus one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::read_word2vec;
/// let file = "2 3\ncat 1 0 0\ndog 0.5 0.5 0\n";
/// let v = read_word2vec::<f32, _>(file.as_bytes())?;
/// assert_eq!((v.len(), v.dim()), (2, 3));
/// assert_eq!(v.get("dog"), Some(&[0.5f32, 0.5, 0.0][..]));
/// let bad = "2 3\ncat 1 0 0\ndog 0.5 0.5\n";
/// assert_eq!(read_word2vec::<f32, _>(bad.as_bytes()).unwrap_err().to_string(),
///            "vectors line 3: expected 3 components, found 2");
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn read_word2vec<F, R>(mut reader: R) -> Result<Vectors<F>, TripletError>
where
    F: Float + Into<f64> + FromStr,
    R: BufRead,
{
    let mut buf = Vec::new();
    let mut line = 0usize;
    let mut next_line = |buf: &mut Vec<u8>, line: &mut usize| -> Result<bool, TripletError> {
        buf.clear();
        *line += 1;
        let n = reader
            .read_until(b'\n', buf)
            .map_err(|e| TripletError::io(*line, &e))?;
        Ok(n > 0)
    };
    if !next_line(&mut buf, &mut line)? {
        return Err(TripletError::VectorFile {
            line,
            problem: VectorProblem::MissingHeader,
        });
    }
    let header_err = |problem| TripletError::VectorFile { line: 1, problem };
    let header = core::str::from_utf8(&buf).map_err(|_| header_err(VectorProblem::InvalidUtf8))?;
    let mut fields = header.split_ascii_whitespace();
    let (Some(count), Some(dim), None) = (fields.next(), fields.next(), fields.next()) else {
        return Err(header_err(VectorProblem::BadHeader));
    };
    let (Ok(count), Ok(dim)) = (count.parse::<usize>(), dim.parse::<usize>()) else {
        return Err(header_err(VectorProblem::BadHeader));
    };
    if dim == 0 {
        return Err(header_err(VectorProblem::ZeroDimension));
    }
    let mut out = Vectors::<F>::new(dim)?;
    let rows = count.min(MAX_RESERVE / dim);
    out.data.reserve_exact(rows * dim);
    out.inv_norms.reserve_exact(rows);
    out.index.reserve(rows);
    let mut values: Vec<F> = Vec::with_capacity(dim.min(MAX_RESERVE));
    while next_line(&mut buf, &mut line)? {
        let err = |problem| TripletError::VectorFile { line, problem };
        let text = core::str::from_utf8(&buf).map_err(|_| err(VectorProblem::InvalidUtf8))?;
        let mut fields = text.split_ascii_whitespace();
        let Some(word) = fields.next() else {
            continue; // blank line
        };
        if out.len() == count {
            return Err(err(VectorProblem::TooManyVectors { expected: count }));
        }
        values.clear();
        for (k, field) in fields.enumerate() {
            if values.len() == dim {
                return Err(err(VectorProblem::WrongDimension {
                    expected: dim,
                    found: dim + 1 + text.split_ascii_whitespace().skip(2 + k).count(),
                }));
            }
            let v: F = field
                .parse()
                .map_err(|_| err(VectorProblem::InvalidValue { column: k + 1 }))?;
            values.push(v);
        }
        if values.len() != dim {
            return Err(err(VectorProblem::WrongDimension {
                expected: dim,
                found: values.len(),
            }));
        }
        out.push(word, &values).map_err(|e| match e {
            TripletError::Vector { problem, .. } => err(problem),
            other => other,
        })?;
    }
    if out.len() != count {
        return Err(TripletError::VectorFile {
            line: line.saturating_sub(1),
            problem: VectorProblem::TooFewVectors {
                expected: count,
                found: out.len(),
            },
        });
    }
    Ok(out)
}
