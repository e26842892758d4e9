//! Binned distributions of replicates: what a permutation test or a
//! bootstrap drew, kept in bounded memory for a plot or a report.

use super::UncertaintyError;
use crate::correlation::error::CorrelationError;

serde_mirror! {
    /// Counts of values in equal-width bins: bin `k` holds the values `v` with
    /// `edges[k] ≤ v < edges[k + 1]`. Every value counted lies strictly below
    /// the last edge, so the bins are half-open throughout (the smallest value
    /// is the first edge).
    ///
    /// ```text
    /// edges[k] = lower + k·w,   k = 0..=bins
    /// counts[k] = #{v : edges[k] ≤ v < edges[k + 1]}
    /// ```
    ///
    /// Made by [`Histogram::of`] from values at hand, or while a run streams its
    /// replicates ([`Permutations::test_with_histogram`],
    /// [`Bootstrap::run_with_histogram`]): the first 2¹⁶ values are held, the
    /// grid is then laid over their range (`bins` bins from the smallest value,
    /// as [`Histogram::of`] lays them), and each
    /// later value outside the grid adds bins of the same width at that end;
    /// when there come to be more than 2·`bins` bins, neighbouring pairs merge
    /// (the width doubles, every edge stays one of the old ones). With at most
    /// 2¹⁶ values the grid is exactly the one `of` lays over all of them.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::Histogram;
    /// let h = Histogram::of(&[0.0, 0.1, 0.2, 0.9, 1.0], 2)?;
    /// assert_eq!(h.counts, [3, 2]);
    /// assert_eq!(h.edges[0], 0.0);
    /// assert!(h.edges[2] > 1.0 && h.edges[2] < 1.0 + 1e-15); // 1.0 is inside
    /// assert_eq!(h.total(), 5);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    ///
    /// [`Permutations::test_with_histogram`]: super::Permutations::test_with_histogram
    /// [`Bootstrap::run_with_histogram`]: super::Bootstrap::run_with_histogram
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub struct Histogram {
        /// The bin edges, increasing, one more than the bins.
        pub edges: Vec<f64>,
        /// The number of values in each bin.
        pub counts: Vec<u64>,
    }
    read through "HistogramRepr"
}

impl Histogram {
    /// The most bins a histogram may be asked for.
    pub const MAX_BINS: usize = 1 << 16;

    /// Values held before a streamed histogram lays its grid.
    pub(crate) const HELD: usize = 1 << 16;

    /// The histogram of `values` in `bins` bins of equal width from the
    /// smallest value: the width w is (max − min)/bins (at least
    /// 2⁻⁴⁰·max(|min|, |max|)), raised by a few ulps when needed so that
    /// `min + bins·w > max` in floating point and every value falls in a
    /// half-open bin. When all values are equal the single value v sits in
    /// the middle bin of bins of width `max(|v|, 1)·2⁻²⁰`.
    ///
    /// # Errors
    /// [`UncertaintyError::InvalidBins`] for 0 or more than
    /// [`MAX_BINS`](Self::MAX_BINS) bins; [`UncertaintyError::Statistic`]
    /// for no values ([`CorrelationError::TooFewItems`]) or a NaN or infinite one
    /// ([`CorrelationError::NaN`], [`CorrelationError::Infinite`], input `"values"`).
    ///
    /// # Complexity
    /// O(values + bins).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::Histogram;
    /// let h = Histogram::of(&[2.0, 2.0, 2.0], 3)?;
    /// assert_eq!(h.counts, [0, 3, 0]);
    /// assert!(Histogram::of(&[], 3).is_err());
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn of(values: &[f64], bins: usize) -> Result<Self, UncertaintyError> {
        check_bins(bins)?;
        if values.is_empty() {
            return Err(CorrelationError::TooFewItems { needed: 1, got: 0 }.into());
        }
        crate::correlation::error::check_finite("values", values)?;
        let mut grid = Grid::over(values, bins);
        values.iter().for_each(|&v| grid.count(v, bins));
        Ok(grid.histogram())
    }

    /// The number of bins.
    #[must_use]
    pub fn bins(&self) -> usize {
        self.counts.len()
    }

    /// The number of values counted.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The width of a bin (NaN for a histogram without bins).
    #[must_use]
    pub fn width(&self) -> f64 {
        match self.edges.as_slice() {
            [a, b, ..] => b - a,
            _ => f64::NAN,
        }
    }
}

/// The serialised form, checked before it becomes a [`Histogram`].
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct HistogramRepr {
    edges: Vec<f64>,
    counts: Vec<u64>,
}

#[cfg(feature = "serde")]
impl TryFrom<HistogramRepr> for Histogram {
    type Error = String;

    fn try_from(r: HistogramRepr) -> Result<Self, String> {
        if r.counts.is_empty() || r.edges.len() != r.counts.len() + 1 {
            return Err(format!(
                "a histogram needs one more edge than bins and at least one bin, got {} edges and {} bins",
                r.edges.len(),
                r.counts.len()
            ));
        }
        if let Some(k) = r
            .edges
            .windows(2)
            .position(|e| !(e[0].is_finite() && e[1].is_finite() && e[0] < e[1]))
        {
            return Err(format!(
                "histogram edges {k} and {} are not finite and increasing",
                k + 1
            ));
        }
        Ok(Self {
            edges: r.edges,
            counts: r.counts,
        })
    }
}

/// Checks `1 ≤ bins ≤ MAX_BINS`.
pub(crate) fn check_bins(bins: usize) -> Result<(), UncertaintyError> {
    if bins == 0 || bins > Histogram::MAX_BINS {
        return Err(UncertaintyError::InvalidBins {
            bins,
            limit: Histogram::MAX_BINS,
        });
    }
    Ok(())
}

/// Bins values as they stream in: the first [`Histogram::HELD`] are held,
/// then the grid is laid over their range and every value is counted on it
/// (the grid grows by whole bins and merges pairs of bins beyond 2·bins).
#[derive(Debug, Clone)]
pub(crate) struct Binner {
    bins: usize,
    held: Vec<f64>,
    grid: Option<Grid>,
}

/// Bins `first..first + counts.len()` of the edges `lower + i·width`.
#[derive(Debug, Clone)]
struct Grid {
    lower: f64,
    width: f64,
    first: i64,
    counts: Vec<u64>,
}

impl Grid {
    /// The grid of `bins` bins over the finite values `v` (at least one).
    fn over(values: &[f64], bins: usize) -> Self {
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let n = bins as f64;
        if lo == hi {
            let width = lo.abs().max(1.0) * 2f64.powi(-20);
            let middle = (bins / 2) as f64;
            return Self {
                lower: lo - middle * width - width / 2.0,
                width,
                first: 0,
                counts: vec![0; bins],
            }
            .settled(lo, bins as i64);
        }
        // A width that leaves the largest value inside the grid, by steps
        // that double from a fraction of an ulp (a few steps at most).
        let scale = lo.abs().max(hi.abs());
        let mut width = ((hi - lo) / n).max(scale * 2f64.powi(-40));
        let mut step = width * 2f64.powi(-52);
        while lo + n * width <= hi {
            width += step;
            step *= 2.0;
        }
        Self {
            lower: lo,
            width,
            first: 0,
            counts: vec![0; bins],
        }
    }

    /// Shifts a single-value grid so that its edges hold `v` in the middle
    /// bin whatever the rounding of `lower`.
    fn settled(mut self, v: f64, bins: i64) -> Self {
        let k = self.index(v);
        self.first = k - bins / 2;
        self
    }

    fn edge(&self, i: i64) -> f64 {
        self.lower + i as f64 * self.width
    }

    /// The bin index of `v`: `edge(i) ≤ v < edge(i + 1)`.
    fn index(&self, v: f64) -> i64 {
        let guess = ((v - self.lower) / self.width).floor();
        // Far outside i64 cannot happen for finite values and a width of at
        // least 2⁻²⁰ of their size; clamp anyway.
        let mut i = guess.clamp(-9.0e18, 9.0e18) as i64;
        while v < self.edge(i) {
            i -= 1;
        }
        while v >= self.edge(i + 1) {
            i += 1;
        }
        i
    }

    /// Counts `v`, growing the grid (and merging pairs of bins beyond
    /// `2·bins`) when it falls outside.
    fn count(&mut self, v: f64, bins: usize) {
        let mut i = self.index(v);
        let last = self.first + self.counts.len() as i64 - 1;
        let span = if i < self.first {
            last - i + 1
        } else if i > last {
            i - self.first + 1
        } else {
            self.counts[(i - self.first) as usize] += 1;
            return;
        };
        let limit = 2 * bins.max(1) as i64;
        if span > limit {
            let mut span = span;
            while span > limit {
                self.merge();
                i = self.index(v);
                let last = self.first + self.counts.len() as i64 - 1;
                span = last.max(i) - self.first.min(i) + 1;
            }
        }
        let last = self.first + self.counts.len() as i64 - 1;
        if i < self.first {
            let grow = (self.first - i) as usize;
            let mut counts = vec![0; grow];
            counts.append(&mut self.counts);
            self.counts = counts;
            self.first = i;
        } else if i > last {
            self.counts
                .resize(self.counts.len() + (i - last) as usize, 0);
        }
        self.counts[(i - self.first) as usize] += 1;
    }

    /// Merges bins `2j` and `2j + 1` (of the edge numbering): the width
    /// doubles and every new edge is an old one (`lower + (2j)·w` and
    /// `lower + j·(2w)` round the same real number).
    fn merge(&mut self) {
        let first = self.first.div_euclid(2);
        let last = (self.first + self.counts.len() as i64 - 1).div_euclid(2);
        let mut counts = vec![0; (last - first + 1) as usize];
        for (k, &c) in self.counts.iter().enumerate() {
            let j = (self.first + k as i64).div_euclid(2);
            counts[(j - first) as usize] += c;
        }
        self.first = first;
        self.counts = counts;
        self.width *= 2.0;
    }

    fn histogram(self) -> Histogram {
        let edges = (0..=self.counts.len() as i64)
            .map(|k| self.edge(self.first + k))
            .collect();
        Histogram {
            edges,
            counts: self.counts,
        }
    }
}

impl Binner {
    /// A binner aiming at `bins` bins (checked by the caller).
    pub(crate) fn new(bins: usize) -> Self {
        Self {
            bins,
            held: Vec::new(),
            grid: None,
        }
    }

    /// Takes the next value (finite).
    pub(crate) fn push(&mut self, v: f64) {
        match &mut self.grid {
            Some(grid) => grid.count(v, self.bins),
            None => {
                self.held.push(v);
                if self.held.len() == Histogram::HELD {
                    self.lay();
                }
            }
        }
    }

    /// Lays the grid over the held values and counts them.
    fn lay(&mut self) {
        let held = std::mem::take(&mut self.held);
        let mut grid = Grid::over(&held, self.bins);
        held.iter().for_each(|&v| grid.count(v, self.bins));
        self.grid = Some(grid);
    }

    /// The histogram of every value pushed (`None` when none was).
    pub(crate) fn finish(mut self) -> Option<Histogram> {
        if self.grid.is_none() && !self.held.is_empty() {
            self.lay();
        }
        self.grid.map(Grid::histogram)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obviously correct count: values in each [edges[k], edges[k+1]).
    fn oracle(values: &[f64], edges: &[f64]) -> Vec<u64> {
        edges
            .windows(2)
            .map(|e| values.iter().filter(|&&v| e[0] <= v && v < e[1]).count() as u64)
            .collect()
    }

    #[test]
    fn counts_by_hand() {
        // Range 4, 4 bins: width 1, nudged up by an ulp or so so that 4.0
        // lies inside; so 1.0 (just below the nudged edge 1 + ε) is in bin 0.
        let h = Histogram::of(&[0.0, 0.5, 1.0, 1.5, 2.5, 3.9, 4.0], 4).unwrap();
        assert_eq!(h.counts, [3, 1, 1, 2]);
        assert_eq!(h.edges[0], 0.0);
        for (k, e) in h.edges.iter().enumerate() {
            let k = k as f64;
            assert!(*e >= k && *e - k < 1e-14, "edge {k} = {e}");
        }
        assert!(h.edges[1] > 1.0 && h.edges[4] > 4.0);
        assert_eq!(h.bins(), 4);
        assert_eq!(h.total(), 7);
    }

    #[test]
    fn one_value_sits_in_the_middle_bin() {
        let h = Histogram::of(&[0.25; 5], 4).unwrap();
        assert_eq!(h.counts, [0, 0, 5, 0]);
        assert!(h.edges[2] <= 0.25 && 0.25 < h.edges[3]);
        assert_eq!(Histogram::of(&[-3.0], 1).unwrap().counts, [1]);
    }

    #[test]
    fn bad_requests_are_errors() {
        assert_eq!(
            Histogram::of(&[1.0], 0),
            Err(UncertaintyError::InvalidBins {
                bins: 0,
                limit: Histogram::MAX_BINS
            })
        );
        assert!(Histogram::of(&[1.0], Histogram::MAX_BINS + 1).is_err());
        assert!(Histogram::of(&[], 3).is_err());
        assert!(Histogram::of(&[1.0, f64::NAN], 3).is_err());
        assert!(Histogram::of(&[1.0, f64::INFINITY], 3).is_err());
    }

    #[test]
    fn a_streamed_grid_grows_and_merges_and_still_counts_exactly() {
        // The first HELD values span [0, 1); later ones reach far out on
        // both sides, so the grid grows and merges several times.
        let mut values: Vec<f64> = (0..Histogram::HELD)
            .map(|i| (i as f64 * 0.618_033_988_75).fract())
            .collect();
        values.extend([5.0, -3.0, 1000.0, 0.5, -0.001, 1e6, 0.999_999]);
        let mut b = Binner::new(10);
        values.iter().for_each(|&v| b.push(v));
        let h = b.finish().unwrap();
        assert_eq!(h.total(), values.len() as u64);
        assert_eq!(h.counts, oracle(&values, &h.edges));
        assert!(h.bins() <= 20, "{} bins", h.bins());
        let w = h.width();
        for e in h.edges.windows(2) {
            assert!(((e[1] - e[0]) - w).abs() <= 1e-9 * w);
        }
    }
}
