//! Compensated summation, used wherever long sums decide the last digits.

/// A Neumaier (improved Kahan–Babuška) accumulator: the error of a sum of n
/// terms is bounded by about 2ε·Σ|xᵢ|, independent of n.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Neumaier {
    sum: f64,
    comp: f64,
}

impl Neumaier {
    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.comp += (self.sum - t) + x;
        } else {
            self.comp += (x - t) + self.sum;
        }
        self.sum = t;
    }

    #[inline]
    pub(crate) fn value(&self) -> f64 {
        self.sum + self.comp
    }
}

/// The compensated sum of `xs`.
pub(crate) fn neumaier(xs: impl IntoIterator<Item = f64>) -> f64 {
    let mut acc = Neumaier::default();
    for x in xs {
        acc.add(x);
    }
    acc.value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_what_naive_summation_loses() {
        let xs = [1.0, 1e100, 1.0, -1e100];
        assert_eq!(neumaier(xs), 2.0);
        assert_eq!(xs.iter().sum::<f64>(), 0.0);
        let tenth = neumaier(std::iter::repeat_n(0.1, 1_000_000));
        assert!((tenth - 100_000.0).abs() < 1e-9);
    }
}
