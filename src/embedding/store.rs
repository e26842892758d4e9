//! Word vectors as a [`Similarity`] model: cosine similarity over an
//! in-memory store.

use std::borrow::Cow;
use std::collections::HashMap;

use num_traits::Float;

use super::error::{EmbeddingError, VectorProblem};
use crate::triplet::Similarity;

/// Word vectors of one dimension, stored contiguously in insertion order,
/// with precomputed norms; a [`Similarity`] model by cosine similarity.
///
/// ```text
/// cos(a, b) = (a · b) / (‖a‖ ‖b‖)   (norms in f64; a · b summed in F over 8 lanes, lanes added in f64)
/// ```
///
/// `F` is `f32` (half the memory, the usual choice) or `f64`. A word whose
/// vector is all zeros has no direction: its cosine with anything is `None`,
/// like an unknown word, so comparisons that use it are skipped and counted.
///
/// A store made with [`Vectors::with_case_folding`] (or read with
/// [`ReadOptions::fold_case`](super::ReadOptions::fold_case)) keeps its words
/// lowercased (Unicode `to_lowercase`) and lowercases every word it is asked
/// about, so `Tiger` finds `tiger`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{Similarity, Vectors};
/// let mut v = Vectors::<f32>::new(2)?;
/// v.push("cat", &[1.0, 0.0])?;
/// v.push("dog", &[1.0, 1.0])?;
/// let c = v.similarity("cat", "dog").unwrap();
/// assert!((c - 0.5f64.sqrt()).abs() < 1e-7);
/// assert_eq!(v.similarity("cat", "cow"), None);
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Vectors<F = f32> {
    dim: usize,
    fold: bool,
    words: Vec<Box<str>>,
    index: HashMap<Box<str>, usize>,
    data: Vec<F>,
    inv_norms: Vec<f64>,
}

/// `word` lowercased, borrowed when it has nothing to lowercase (the common
/// ASCII-lowercase case costs one scan and no allocation).
pub(crate) fn fold(word: &str) -> Cow<'_, str> {
    if word.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
        let lower = word.to_lowercase();
        if lower == word {
            Cow::Borrowed(word)
        } else {
            Cow::Owned(lower)
        }
    } else {
        Cow::Borrowed(word)
    }
}

impl<F: Float + Into<f64>> Vectors<F> {
    /// An empty, case-sensitive store of `dim`-dimensional vectors.
    ///
    /// # Errors
    /// [`EmbeddingError::InvalidParameter`] if `dim = 0`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// assert!(Vectors::<f64>::new(0).is_err());
    /// assert_eq!(Vectors::<f64>::new(3)?.dim(), 3);
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    pub fn new(dim: usize) -> Result<Self, EmbeddingError> {
        if dim == 0 {
            return Err(EmbeddingError::InvalidParameter {
                name: "dim",
                expected: "a dimension of at least 1",
            });
        }
        Ok(Self {
            dim,
            fold: false,
            words: Vec::new(),
            index: HashMap::new(),
            data: Vec::new(),
            inv_norms: Vec::new(),
        })
    }

    /// An empty store that lowercases words: those it stores and those it is
    /// asked about.
    ///
    /// ```text
    /// key(w) = w.to_lowercase()   (Unicode; gensim's case_insensitive uses upper case, which
    ///                              differs only for a few letters such as ß and dotless ı)
    /// ```
    ///
    /// # Errors
    /// As [`Vectors::new`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let mut v = Vectors::<f32>::with_case_folding(2)?;
    /// v.push("Paris", &[1.0, 0.0])?;
    /// assert!(v.contains("PARIS") && v.contains("paris"));
    /// assert!(v.push("paris", &[0.0, 1.0]).is_err()); // the same word once folded
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    pub fn with_case_folding(dim: usize) -> Result<Self, EmbeddingError> {
        let mut v = Self::new(dim)?;
        v.fold = true;
        Ok(v)
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
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let map = HashMap::from([("cat".to_string(), vec![1.0f32, 0.0]), ("dog".into(), vec![0.0, 2.0])]);
    /// let v = Vectors::from_pairs(2, map)?;
    /// assert_eq!(v.cosine("cat", "dog"), Some(0.0));
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    pub fn from_pairs<I, W, V>(dim: usize, pairs: I) -> Result<Self, EmbeddingError>
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

    /// Adds the vector of `word` (lowercased first if the store folds case).
    ///
    /// # Errors
    /// [`EmbeddingError::Vector`] (with `entry` = the number of vectors already
    /// stored) if the word is empty or already present, the vector has the
    /// wrong length, a component is not finite, or its squared norm
    /// overflows f64 (components above ~10¹⁵⁴, possible only with `f64`).
    ///
    /// # Complexity
    /// O(dim) (amortised).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let mut v = Vectors::<f32>::new(2)?;
    /// v.push("cat", &[1.0, 0.0])?;
    /// assert!(v.push("cat", &[0.0, 1.0]).is_err()); // duplicate
    /// assert!(v.push("dog", &[0.0]).is_err()); // wrong dimension
    /// assert!(v.push("cow", &[f32::NAN, 0.0]).is_err());
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    pub fn push(&mut self, word: impl Into<String>, vector: &[F]) -> Result<(), EmbeddingError> {
        let entry = self.len();
        self.push_checked(word.into(), vector)
            .map_err(|problem| EmbeddingError::Vector { entry, problem })
    }

    /// [`push`](Self::push) with the problem alone, for the readers to place.
    pub(crate) fn push_checked(&mut self, word: String, vector: &[F]) -> Result<(), VectorProblem> {
        if vector.len() != self.dim {
            return Err(VectorProblem::WrongDimension {
                expected: self.dim,
                found: vector.len(),
            });
        }
        let inv_norm = inverse_norm(vector)?;
        if word.is_empty() {
            return Err(VectorProblem::EmptyWord);
        }
        let word: Box<str> = if self.fold {
            match fold(&word) {
                Cow::Borrowed(_) => word.into_boxed_str(),
                Cow::Owned(w) => w.into_boxed_str(),
            }
        } else {
            word.into_boxed_str()
        };
        match self.index.entry(word) {
            std::collections::hash_map::Entry::Occupied(_) => Err(VectorProblem::DuplicateWord),
            std::collections::hash_map::Entry::Vacant(v) => {
                self.words.push(v.key().clone());
                v.insert(self.inv_norms.len());
                self.data.extend_from_slice(vector);
                self.inv_norms.push(inv_norm);
                Ok(())
            }
        }
    }

    /// Reserves room for `rows` more vectors (bounded by the caller).
    pub(crate) fn reserve(&mut self, rows: usize) {
        self.data.reserve_exact(rows.saturating_mul(self.dim));
        self.inv_norms.reserve_exact(rows);
        self.words.reserve_exact(rows);
        self.index.reserve(rows);
    }

    /// The row of `word` (folded if the store folds case).
    #[inline]
    fn lookup(&self, word: &str) -> Option<usize> {
        if self.fold {
            self.index.get(fold(word).as_ref()).copied()
        } else {
            self.index.get(word).copied()
        }
    }

    /// The vector of `word`, if present.
    #[must_use]
    pub fn get(&self, word: &str) -> Option<&[F]> {
        self.row(self.lookup(word)?)
    }

    /// Cosine similarity of two words; `None` if a word is unknown or has a
    /// zero vector.
    ///
    /// The result is clamped to `[−1, 1]`: rounding can push it a few ulps
    /// out, and vectors with tiny norms (squared norm below ~10⁻³⁰⁰, where f64
    /// loses precision) further.
    ///
    /// ```text
    /// cos(a, b) = (Σᵢ aᵢbᵢ) · ((1/‖a‖) · (1/‖b‖))      (symmetric bit for bit)
    /// ```
    ///
    /// # Complexity
    /// O(dim) plus two hash lookups.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let v = Vectors::from_pairs(2, [("a", [3.0f64, 4.0]), ("b", [4.0, 3.0])])?;
    /// assert!((v.cosine("a", "b").unwrap() - 0.96).abs() < 1e-15);
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    #[must_use]
    pub fn cosine(&self, a: &str, b: &str) -> Option<f64> {
        let i = self.lookup(a)?;
        let j = self.lookup(b)?;
        let ni = *self.inv_norms.get(i)?;
        let nj = *self.inv_norms.get(j)?;
        if ni == 0.0 || nj == 0.0 {
            return None;
        }
        // ni·nj first: the product is symmetric, so cos(a, b) = cos(b, a)
        // bit for bit and symmetric pairs tie exactly, as in exact arithmetic.
        Some((dot(self.row(i)?, self.row(j)?) * (ni * nj)).clamp(-1.0, 1.0))
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
        self.lookup(word).is_some()
    }

    /// Whether the store lowercases words ([`Vectors::with_case_folding`]).
    #[must_use]
    pub fn folds_case(&self) -> bool {
        self.fold
    }

    /// The words and their vectors in insertion (file) order.
    ///
    /// # Complexity
    /// O(1) per item.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let v = Vectors::from_pairs(1, [("b", [2.0f32]), ("a", [1.0])])?;
    /// let words: Vec<&str> = v.iter().map(|(w, _)| w).collect();
    /// assert_eq!(words, ["b", "a"]);
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &[F])> + '_ {
        self.words
            .iter()
            .zip(self.data.chunks_exact(self.dim))
            .map(|(w, v)| (w.as_ref(), v))
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
        let t = self.lookup(target)?;
        let i = self.lookup(w1)?;
        let j = self.lookup(w2)?;
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
            (a * (nt * ni)).clamp(-1.0, 1.0),
            (b * (nt * nj)).clamp(-1.0, 1.0),
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
