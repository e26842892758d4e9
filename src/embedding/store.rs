//! Word vectors as a [`Similarity`] model: cosine similarity over an
//! in-memory store.

use std::borrow::Cow;
use std::collections::HashMap;

use num_traits::Float;

use super::Similarity;
use super::error::{EmbeddingError, VectorProblem};

/// Word vectors of one dimension, stored contiguously in insertion order,
/// with precomputed norms; a [`Similarity`] model by cosine similarity.
///
/// ```text
/// cos(a, b) = 1                                         if a and b are one row, or equal vectors
///           = clamp((Σᵢ aᵢbᵢ) · ((1/‖a‖) · (1/‖b‖)), −1, 1)   otherwise
/// products aᵢbᵢ and every sum in f64 (‖v‖² = Σᵢ vᵢvᵢ by the same summation)
/// ```
///
/// `F` is `f32` (half the memory, the usual choice) or `f64`. A word whose
/// vector is all zeros has no direction: its cosine with anything is `None`,
/// like an unknown word, so comparisons that use it are skipped and counted.
///
/// # Accuracy
/// The product of two `f32` numbers is exact in `f64` (24 + 24 significant
/// bits ≤ 53), so the only rounding of a dot product is its summation:
/// eight `f64` lanes, each a running sum of every eighth product, added
/// pairwise. No product goes through more than `h = ⌈d/8⌉ + 2` rounded
/// additions, which bounds the error (Higham 2002, §4.2):
///
/// ```text
/// |fl(a · b) − a · b| ≤ γ_h · Σᵢ |aᵢbᵢ|,   γ_h = h·u/(1 − h·u),  u = 2⁻⁵³
/// |cos_computed(a, b) − cos(a, b)| ≤ (2h + 8)·u          (≈ 9.8·10⁻¹⁵ at d = 300)
/// ```
///
/// for every pair of finite `f32` vectors with `d ≤ 10⁶` (the cosine bound
/// follows from Cauchy–Schwarz, `Σ|aᵢbᵢ| ≤ ‖a‖‖b‖`, and one rounding each
/// for √, 1/x and two products; clamping only moves a value towards the
/// exact one). [`cosine_error_bound`](Self::cosine_error_bound) gives it.
/// For `f64` vectors the products round too: `h` grows by one, and the
/// bound holds while squared norms stay inside f64's normal range
/// (about 10⁻³⁰⁸ to 10³⁰⁸).
///
/// A word's cosine with itself is exactly 1, and so is the cosine of two
/// words whose vectors are equal (compared component by component, `0.0 ==
/// -0.0`) or an exact power-of-two multiple of each other (`v` and `2v`,
/// `v/4`: floating point scales by 2ᵏ without rounding, so the stored
/// vectors are exactly parallel), and −1 for `v` and `−2ᵏv`: ties that
/// exact arithmetic has stay ties, so a benchmark's self-pairs (`tiger
/// tiger 10`) all share the top rank, as they should, and a target's
/// cosines with `v` and with `2v` tie, as in gensim and in exact
/// arithmetic. "Itself" means the same row: in a store that folds case,
/// `Tiger` and `tiger` are one word. Other vectors of the same direction in
/// exact arithmetic are not stored as such: `3v` rounds each component
/// (to `f32` or `f64`), so the stored vectors are parallel only to within
/// that rounding and get their computed cosine, within the bound of the
/// exact cosine of the stored vectors (which may be below 1 by about
/// 10⁻¹⁶, so they need not tie with `v`'s). Cosines are symmetric bit for
/// bit: `cos(a, b) == cos(b, a)`.
///
/// A store made with [`Vectors::with_case_folding`] (or read with
/// [`ReadOptions::fold_case`](super::ReadOptions::fold_case)) keeps its words
/// lowercased (Unicode `to_lowercase`) and lowercases every word it is asked
/// about, so `Tiger` finds `tiger`. gensim's `case_insensitive=True`
/// upper-cases instead; see [`Vectors::with_case_folding`] for where the two
/// differ.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{Similarity, Vectors};
/// let mut v = Vectors::<f32>::new(2)?;
/// v.push("cat", &[1.0, 0.0])?;
/// v.push("dog", &[1.0, 1.0])?;
/// let c = v.similarity("cat", "dog").unwrap();
/// assert!((c - 0.5f64.sqrt()).abs() <= v.cosine_error_bound() + 1e-16);
/// assert_eq!(v.similarity("cat", "cow"), None);
/// assert_eq!(v.cosine("dog", "dog"), Some(1.0));
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
///
/// # References
/// N. J. Higham (2002). *Accuracy and Stability of Numerical Algorithms*,
/// 2nd ed., SIAM: §3.1 (dot products), §4.2 (summation error bounds).
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
    /// key(w) = w.to_lowercase()      (Unicode full lower-case mapping, Final_Sigma rule included)
    /// ```
    ///
    /// # Differences from gensim
    /// gensim's `evaluate_word_pairs(…, case_insensitive=True)` keys words by
    /// Python's `str.upper()` instead. Two words meet in gensim when their
    /// upper cases are equal and here when their lower cases are; that is
    /// the same for most text, but not where upper-casing merges letters
    /// that lower-casing keeps apart:
    ///
    /// | letters | gensim (`upper`) | this crate (`to_lowercase`) |
    /// |---|---|---|
    /// | `ß` (German sharp s) | `straße` → `STRASSE` = `strasse` → `STRASSE`: one word | `straße` ≠ `strasse`: two words |
    /// | `ı` (Turkish dotless i) | `ı` → `I` = `i` → `I`: `kıta` meets `kita` | `kıta` ≠ `kita` |
    /// | `ς` (Greek final sigma) | `ς` → `Σ` = `σ` → `Σ`: `λογος` meets `λογοσ` | `λογος` ≠ `λογοσ` (while `ΛΟΓΟΣ` lowercases to `λογος`, final `ς`) |
    ///
    /// Other such letters are rarer: the ligatures (`ﬁ` → `FI`), the long
    /// s (`ſ` → `S`). The other way round, a few signs lowercase to a
    /// letter that upper-cases to something else, and meet here but not in
    /// gensim: the Kelvin sign `K` (U+212A, lowercase `k`) and the ohm sign
    /// `Ω` (U+2126, lowercase `ω`). ASCII words fold the same in both.
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
    /// assert_eq!(v.cosine("Paris", "PARIS"), Some(1.0)); // one row: the same word
    /// v.push("straße", &[0.0, 1.0])?;
    /// assert!(!v.contains("STRASSE")); // gensim's upper-casing would find it
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
    /// ```text
    /// cos(a, b) = 1                                                if a, b are one row or equal vectors
    ///           = clamp((Σᵢ aᵢbᵢ) · ((1/‖a‖) · (1/‖b‖)), −1, 1)    otherwise (symmetric bit for bit)
    /// ```
    ///
    /// Products and sums are in f64, with an error of at most
    /// [`cosine_error_bound`](Self::cosine_error_bound) (see
    /// [Accuracy](Vectors#accuracy)). The clamp keeps rounding from pushing
    /// a value out of `[−1, 1]`.
    ///
    /// # Complexity
    /// O(dim) plus two hash lookups.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let v = Vectors::from_pairs(2, [("a", [3.0f64, 4.0]), ("b", [4.0, 3.0])])?;
    /// assert!((v.cosine("a", "b").unwrap() - 0.96).abs() < 1e-15);
    /// assert_eq!(v.cosine("a", "a"), Some(1.0));
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
        if i == j {
            return Some(1.0);
        }
        let (ri, rj) = (self.row(i)?, self.row(j)?);
        // ni·nj first: the product is symmetric, so cos(a, b) = cos(b, a)
        // bit for bit and symmetric pairs tie exactly, as in exact arithmetic.
        Some(self.finish(dot(ri, rj) * (ni * nj), ri, rj))
    }

    /// An upper bound of `|computed − exact|` for every cosine of this
    /// store (see [Accuracy](Vectors#accuracy)):
    ///
    /// ```text
    /// (2h + 8)·2⁻⁵³,   h = ⌈dim/8⌉ + 2 (f32 vectors),  ⌈dim/8⌉ + 3 (f64 vectors)
    /// ```
    ///
    /// Valid for `dim ≤ 10⁶` (and, for `f64` vectors, squared norms inside
    /// f64's normal range).
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Vectors;
    /// let v = Vectors::<f32>::new(300)?;
    /// assert_eq!(v.cosine_error_bound(), 88.0 * 2f64.powi(-53)); // h = 38 + 2
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    #[must_use]
    pub fn cosine_error_bound(&self) -> f64 {
        let h = summation_depth(self.dim) + usize::from(!products_exact::<F>());
        (2 * h + 8) as f64 * (f64::EPSILON / 2.0)
    }

    /// A computed cosine of rows `ri` ≠ `rj`: exactly ±1 when `rj` is
    /// ±2ᵏ·`ri` component by component (equal vectors: k = 0), whose exact
    /// cosine is ±1 (the computed one is then within the bound of it; only
    /// then are the rows compared), else clamped to `[−1, 1]`.
    #[inline]
    fn finish(&self, c: f64, ri: &[F], rj: &[F]) -> f64 {
        let bound = self.cosine_error_bound();
        if c.abs() >= 1.0 - bound
            && let Some(sign) = power_of_two_multiple(ri, rj)
        {
            sign
        } else {
            c.clamp(-1.0, 1.0)
        }
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

    /// Three lookups and one pass over the target's vector for both cosines
    /// (bit for bit the two [`Vectors::cosine`]s).
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
        let (rt, ri, rj) = (self.row(t)?, self.row(i)?, self.row(j)?);
        let [a, b] = dot2(rt, ri, rj);
        let one = |k: usize, rk: &[F], dot: f64, nk: f64| {
            if k == t {
                1.0
            } else {
                self.finish(dot * (nt * nk), rt, rk)
            }
        };
        Some([one(i, ri, a, ni), one(j, rj, b, nj)])
    }
}

/// `Some(s)` when `b = s·2ᵏ·a` exactly, component by component, for a sign
/// s = ±1 and an integer k (so that the exact cosine of `a` and `b` is s),
/// else `None`. Multiplying by a power of two loses nothing in floating
/// point, so such a `b` is exactly parallel to `a`; components that are
/// subnormal (in `f64`) are left out of the test (`None`), where that would
/// not hold. O(dim).
fn power_of_two_multiple<F: Float + Into<f64>>(a: &[F], b: &[F]) -> Option<f64> {
    // The ratio of the first non-zero pair: exact when it is a power of two.
    let (x, y) = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| (x.into(), y.into()))
        .find(|&(x, _): &(f64, f64)| x != 0.0)?;
    let ratio = y / x;
    const MANTISSA: u64 = (1 << 52) - 1;
    if !ratio.is_normal() || ratio.to_bits() & MANTISSA != 0 {
        return None;
    }
    let normal = |v: f64| v == 0.0 || v.is_normal();
    a.iter()
        .zip(b)
        .all(|(&x, &y)| {
            let (x, y): (f64, f64) = (x.into(), y.into());
            normal(x) && normal(y) && x * ratio == y
        })
        .then_some(ratio.signum())
}

/// `1/‖v‖` (0 for a zero vector), after checking every component; `‖v‖²`
/// is [`dot`]`(v, v)`, the same summation as the cosines' dot products.
fn inverse_norm<F: Float + Into<f64>>(v: &[F]) -> Result<f64, VectorProblem> {
    if let Some(k) = v.iter().position(|x| !x.is_finite()) {
        return Err(VectorProblem::NonFinite { column: k + 1 });
    }
    let sq = dot(v, v);
    if !sq.is_finite() {
        return Err(VectorProblem::NormOverflow);
    }
    Ok(if sq > 0.0 { 1.0 / sq.sqrt() } else { 0.0 })
}

/// Independent f64 accumulators of the dot products: two AVX (or four SSE2)
/// registers, enough for the loop to vectorise and pipeline.
const LANES: usize = 8;

/// The most rounded additions a product goes through in [`dot`]: at most
/// ⌈d/8⌉ − 1 in its lane (the first addition, to 0, is exact) and 3 in the
/// pairwise tree of the lanes.
fn summation_depth(dim: usize) -> usize {
    dim.div_ceil(LANES) + 2
}

/// Whether the product of two `F` is exact in f64: `F` has at most 26
/// significant bits (`f32` has 24).
fn products_exact<F: Float + Into<f64>>() -> bool {
    F::epsilon().into() >= 2f64.powi(-25)
}

/// The lanes added pairwise.
#[inline]
fn reduce(l: [f64; LANES]) -> f64 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

/// `a · b`: products in f64 (exact for f32), lane `k` summing products
/// `k, k + 8, k + 16, …` (the tail's too), lanes added pairwise. The
/// order depends on the positions only, so `dot(a, b) == dot(b, a)` bit
/// for bit; the error bound is in [`Vectors`]' docs.
#[inline]
fn dot<F: Float + Into<f64>>(a: &[F], b: &[F]) -> f64 {
    let mut acc = [0.0f64; LANES];
    let (ca, ra) = a.as_chunks::<LANES>();
    let (cb, rb) = b.as_chunks::<LANES>();
    for (x, y) in ca.iter().zip(cb) {
        for k in 0..LANES {
            acc[k] += x[k].into() * y[k].into();
        }
    }
    for (k, (&x, &y)) in ra.iter().zip(rb).enumerate() {
        acc[k] += x.into() * y.into();
    }
    reduce(acc)
}

/// `[t · a, t · b]` in one pass over `t`, with the same lanes (and so bit
/// for bit the same results) as [`dot`].
#[inline]
fn dot2<F: Float + Into<f64>>(t: &[F], a: &[F], b: &[F]) -> [f64; 2] {
    let mut acc_a = [0.0f64; LANES];
    let mut acc_b = [0.0f64; LANES];
    let (ct, rt) = t.as_chunks::<LANES>();
    let (ca, ra) = a.as_chunks::<LANES>();
    let (cb, rb) = b.as_chunks::<LANES>();
    for ((x, y), z) in ct.iter().zip(ca).zip(cb) {
        for k in 0..LANES {
            let xk: f64 = x[k].into();
            acc_a[k] += xk * y[k].into();
            acc_b[k] += xk * z[k].into();
        }
    }
    for (k, ((&x, &y), &z)) in rt.iter().zip(ra).zip(rb).enumerate() {
        let x: f64 = x.into();
        acc_a[k] += x * y.into();
        acc_b[k] += x * z.into();
    }
    [reduce(acc_a), reduce(acc_b)]
}
