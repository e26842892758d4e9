//! The word-similarity model every evaluation takes: [`Similarity`].
//!
//! It lives with the word vectors, the model the crate provides; the
//! triplet and word-similarity modules, built on this one, take it from
//! here (`triplet::Similarity` is the same trait).

/// A word-similarity model: `sim(a, b)`, or `None` when it does not know a word.
///
/// A model must be a function: the same words always get the same answer, and
/// [`similarity_pair`](Self::similarity_pair) must agree with
/// [`similarity`](Self::similarity). The scorers rely on it to ask for each
/// `sim(w_t, w)` only once per run of consecutive comparisons with target
/// `w_t` (a target group).
///
/// The triplet scorers ([`crate::triplet`]) skip the comparisons for which
/// the model answers `None` from both sums of the score and count them in
/// [`Tally::unknown`](crate::triplet::Tally::unknown); a `NaN` answer is an
/// error there ([`TripletError::NanSimilarity`](crate::triplet::TripletError::NanSimilarity)).
/// The word-similarity evaluations ([`crate::wordsim`]) use it too. Closures
/// `Fn(&str, &str) -> Option<f64>` are models; [`Vectors`](super::Vectors) is
/// the cosine-similarity model of word vectors.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::Similarity;
/// let same_initial = |a: &str, b: &str| Some(f64::from(u8::from(a.chars().next() == b.chars().next())));
/// assert_eq!(same_initial.similarity("cat", "cow"), Some(1.0));
/// ```
pub trait Similarity {
    /// `sim(a, b)`, larger meaning more similar; `None` if a word is unknown.
    fn similarity(&self, a: &str, b: &str) -> Option<f64>;

    /// `[sim(target, w1), sim(target, w2)]`, or `None` if any word is unknown.
    ///
    /// The scorers call this for a comparison when neither answer is
    /// remembered from earlier comparisons of the same target. The default calls
    /// [`similarity`](Self::similarity) twice; models can override it to look
    /// the target up once (as [`Vectors`](super::Vectors) does).
    #[inline]
    fn similarity_pair(&self, target: &str, w1: &str, w2: &str) -> Option<[f64; 2]> {
        Some([self.similarity(target, w1)?, self.similarity(target, w2)?])
    }
}

impl<F: Fn(&str, &str) -> Option<f64>> Similarity for F {
    #[inline]
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        self(a, b)
    }
}
