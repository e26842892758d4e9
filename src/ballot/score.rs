//! Scores of a ballot: the Borda score x (Eq. 1, ties as ½ per footnote 4),
//! the rescaling of Eq. 6, and the selection of the top items with random
//! tie-breaking at the cut-off.

use num_traits::Float;
use rand::Rng;
use rand::seq::SliceRandom;

use super::error::{BallotError, Result};
use crate::sum::neumaier;

/// The Borda score of an item (Eq. 1 with footnote 4): its share of wins,
/// a tie counting as half a win.
///
/// ```text
/// x = n / M,    n = n_wins + n_ties/2
/// ```
///
/// # Errors
/// [`BallotError::Undefined`] when the item appeared in no comparison;
/// [`BallotError::InvalidParameter`] when wins and ties exceed the
/// appearances.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::borda_score;
/// // 11 wins and 2 ties in 20 comparisons: (11 + 1)/20.
/// assert_eq!(borda_score(11, 2, 20)?, 0.6);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 1 and footnote 4.
pub fn borda_score(wins: u64, ties: u64, appearances: u64) -> Result<f64> {
    if appearances == 0 {
        return Err(BallotError::Undefined {
            reason: "an item with no comparison has no score",
        });
    }
    if wins.checked_add(ties).is_none_or(|s| s > appearances) {
        return Err(BallotError::InvalidParameter {
            name: "wins",
            expected: "wins + ties ≤ appearances",
        });
    }
    Ok(ratio_of_doubled(
        2 * u128::from(wins) + u128::from(ties),
        appearances,
    ))
}

/// x = (2n)/(2M), from the doubled win count (wins count 2, ties 1).
pub(crate) fn ratio_of_doubled(doubled_wins: u128, appearances: u64) -> f64 {
    doubled_wins as f64 / (2.0 * appearances as f64)
}

/// The slope b̂⁽ᵏ⁾ of the rescaling of Eq. 6: the least-squares line through
/// the points (xⱼ⁽ᵏ⁾, ȳⱼ⁽ᵏ⁻¹⁾) of the items j of ballot k, constrained to
/// pass through (1, 1).
///
/// ```text
/// b̂⁽ᵏ⁾ = Σⱼ (1 − xⱼ⁽ᵏ⁾)(1 − ȳⱼ⁽ᵏ⁻¹⁾) / Σⱼ (1 − xⱼ⁽ᵏ⁾)²
/// ```
///
/// Sums are compensated (Neumaier) and taken in input order.
///
/// # Errors
/// [`BallotError::LengthMismatch`] when the inputs differ in length;
/// [`BallotError::TooFewItems`] for empty inputs;
/// [`BallotError::NotFinite`] for NaN or infinite values;
/// [`BallotError::Undefined`] when every x equals 1 (the denominator is 0);
/// [`BallotError::Overflow`] when finite values far outside [0, 1] (beyond
/// about ±10¹⁵⁴) overflow a sum or the slope.
///
/// # Complexity
/// O(n).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::{rescale, rescaling_slope};
/// // Ballot k: x = (0.75, 0.5, 0.25); the same items had ȳ = (0.8, 0.6, 0.5).
/// // Σ(1−x)(1−ȳ) = 0.25·0.2 + 0.5·0.4 + 0.75·0.5 = 0.625
/// // Σ(1−x)²     = 0.0625 + 0.25 + 0.5625       = 0.875     → b̂ = 5/7
/// let b = rescaling_slope(&[0.75, 0.5, 0.25], &[0.8, 0.6, 0.5])?;
/// assert!((b - 5.0 / 7.0).abs() < 1e-15);
/// assert_eq!(rescale(1.0, b), 1.0); // f_resc(1) = 1
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 6 and footnote 7.
pub fn rescaling_slope<F: Float>(x: &[F], y_bar_prev: &[F]) -> Result<f64> {
    same_length!(BallotError, x, y_bar_prev);
    if x.is_empty() {
        return Err(BallotError::TooFewItems { needed: 1, got: 0 });
    }
    check_finite("x", x)?;
    check_finite("y_bar_prev", y_bar_prev)?;
    let f = |v: F| v.to_f64().unwrap_or(f64::NAN);
    let (num, den) = slope_sums(x.iter().map(|&v| f(v)), y_bar_prev.iter().map(|&v| f(v)));
    let overflow = BallotError::Overflow {
        what: "the rescaling slope of these values",
    };
    // Finite values far from [0, 1] (beyond about 1e154) overflow the sums.
    if !(num.is_finite() && den.is_finite()) {
        return Err(overflow);
    }
    if den == 0.0 {
        return Err(BallotError::Undefined {
            reason: "every x equals 1, so the rescaling slope is 0/0",
        });
    }
    let b = num / den;
    if b.is_finite() { Ok(b) } else { Err(overflow) }
}

/// Σ (1 − x)(1 − ȳ) and Σ (1 − x)², the numerator and denominator of b̂.
fn slope_sums(
    x: impl Iterator<Item = f64> + Clone,
    y_bar_prev: impl Iterator<Item = f64>,
) -> (f64, f64) {
    let num = neumaier(
        x.clone()
            .zip(y_bar_prev)
            .map(|(x, y)| (1.0 - x) * (1.0 - y)),
    );
    let den = neumaier(x.map(|x| (1.0 - x) * (1.0 - x)));
    (num, den)
}

/// b̂ of Eq. 6 over values in [0, 1]; `None` when the denominator is zero.
pub(crate) fn slope_f64(
    x: impl Iterator<Item = f64> + Clone,
    y_bar_prev: impl Iterator<Item = f64>,
) -> Option<f64> {
    let (num, den) = slope_sums(x, y_bar_prev);
    (den > 0.0).then(|| num / den)
}

fn check_finite<F: Float>(input: &'static str, v: &[F]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(BallotError::NotFinite { input, index }),
        None => Ok(()),
    }
}

/// The rescaled score of Eq. 6.
///
/// ```text
/// y = f_resc(x) = 1 − b̂ + b̂·x       (so f_resc(1) = 1)
/// ```
///
/// Evaluated as `1 − b̂·(1 − x)`, the same line, so that x = 1 gives exactly 1
/// in floating point.
///
/// # Complexity
/// O(1).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::rescale;
/// assert_eq!(rescale(0.5, 0.5), 0.75);
/// assert_eq!(rescale(0.375, 1.0), 0.375); // b̂ = 1 is the identity (ballot 1)
/// ```
///
/// Reference: Lombardo et al. (2020), Eq. 6.
#[must_use]
pub fn rescale(x: f64, b_hat: f64) -> f64 {
    1.0 - b_hat * (1.0 - x)
}

/// The positions of the `count` largest keys, ascending; keys tied at the
/// cut-off are chosen uniformly at random, never by position.
///
/// ```text
/// v = the count-th largest key
/// chosen = {i : keyᵢ > v} ∪ (a uniform random subset of {i : keyᵢ = v}
///                            of size count − |{i : keyᵢ > v}|)
/// ```
///
/// # Errors
/// [`BallotError::NotFinite`] for NaN or infinite keys;
/// [`BallotError::InvalidParameter`] when `count` exceeds the number of keys.
///
/// # Complexity
/// O(n) expected.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::select_top;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::StdRng::seed_from_u64(0);
/// let top = select_top(&[0.9, 0.5, 0.7, 0.5, 0.1], 3, &mut rng)?;
/// assert!(top == vec![0, 1, 2] || top == vec![0, 2, 3]);
/// # Ok::<(), adaptive_comp_metrics::ballot::BallotError>(())
/// ```
///
/// Reference: Lombardo et al. (2020) §2.5; published-code departure 6 (breaking
/// ties by index leaks the ground truth).
pub fn select_top<F: Float, R: Rng + ?Sized>(
    keys: &[F],
    count: usize,
    rng: &mut R,
) -> Result<Vec<usize>> {
    check_finite("keys", keys)?;
    if count > keys.len() {
        return Err(BallotError::InvalidParameter {
            name: "count",
            expected: "at most as many selected items as keys",
        });
    }
    let keys: Vec<f64> = keys.iter().map(|k| k.to_f64().unwrap_or(0.0)).collect();
    Ok(select_top_f64(&keys, count, rng))
}

/// [`select_top`] on finite `f64` keys with `count ≤ keys.len()`.
pub(crate) fn select_top_f64<R: Rng + ?Sized>(
    keys: &[f64],
    count: usize,
    rng: &mut R,
) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    if count >= keys.len() {
        return (0..keys.len()).collect();
    }
    let mut sorted = keys.to_vec();
    // Descending order: the count-th largest lands at index count − 1.
    let (_, cut, _) = sorted.select_nth_unstable_by(count - 1, |a, b| b.total_cmp(a));
    let cut = *cut;
    let mut chosen: Vec<usize> = Vec::with_capacity(count);
    let mut tied: Vec<usize> = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        match k.total_cmp(&cut) {
            core::cmp::Ordering::Greater => chosen.push(i),
            core::cmp::Ordering::Equal => tied.push(i),
            core::cmp::Ordering::Less => {}
        }
    }
    let need = count - chosen.len();
    let (picked, _) = tied.partial_shuffle(rng, need);
    chosen.extend_from_slice(picked);
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact dyadic values
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn borda_by_hand() {
        assert_eq!(borda_score(0, 0, 4).unwrap(), 0.0);
        assert_eq!(borda_score(4, 0, 4).unwrap(), 1.0);
        assert_eq!(borda_score(1, 1, 4).unwrap(), 0.375);
        assert!(borda_score(0, 0, 0).is_err());
        assert!(borda_score(3, 2, 4).is_err());
        assert!(borda_score(u64::MAX, 1, 4).is_err());
    }

    #[test]
    fn slope_errors() {
        assert!(matches!(
            rescaling_slope(&[0.5], &[0.5, 0.1]),
            Err(BallotError::LengthMismatch { .. })
        ));
        assert!(rescaling_slope::<f64>(&[], &[]).is_err());
        assert_eq!(
            rescaling_slope(&[0.5, f64::NAN], &[0.5, 0.5]),
            Err(BallotError::NotFinite {
                input: "x",
                index: 1
            })
        );
        assert_eq!(
            rescaling_slope(&[0.5, 0.5], &[f64::INFINITY, 0.5]),
            Err(BallotError::NotFinite {
                input: "y_bar_prev",
                index: 0
            })
        );
        assert!(matches!(
            rescaling_slope(&[1.0, 1.0], &[0.5, 0.5]),
            Err(BallotError::Undefined { .. })
        ));
        // f32 input works too.
        let b = rescaling_slope(&[0.5f32, 0.0], &[0.5f32, 0.0]).unwrap();
        assert_eq!(b, 1.0);
    }

    #[test]
    fn select_rejects_bad_input() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(select_top(&[0.1, f64::NAN], 1, &mut rng).is_err());
        assert!(select_top(&[0.1, 0.2], 3, &mut rng).is_err());
        assert_eq!(
            select_top(&[0.1, 0.2], 0, &mut rng).unwrap(),
            Vec::<usize>::new()
        );
        assert_eq!(select_top(&[0.1, 0.2], 2, &mut rng).unwrap(), vec![0, 1]);
    }

    #[test]
    fn cut_off_ties_are_not_broken_by_index() {
        // Ten tied keys, keep five: each must be picked about half the time,
        // the first five not always.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut hits = [0u32; 10];
        for _ in 0..2000 {
            for i in select_top(&[0.5; 10], 5, &mut rng).unwrap() {
                hits[i] += 1;
            }
        }
        for h in hits {
            assert!((850..1150).contains(&h), "{hits:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn select_matches_sorting_oracle(keys in prop::collection::vec(0u8..6, 1..40), frac in 0.0f64..=1.0, seed: u64) {
            let keys: Vec<f64> = keys.into_iter().map(|k| f64::from(k) / 4.0).collect();
            let count = ((keys.len() as f64) * frac) as usize;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let got = select_top(&keys, count, &mut rng).unwrap();
            prop_assert_eq!(got.len(), count);
            prop_assert!(got.windows(2).all(|w| w[0] < w[1]));
            // Oracle: the multiset of chosen keys equals the count largest keys.
            let mut want: Vec<f64> = keys.clone();
            want.sort_by(|a, b| b.total_cmp(a));
            want.truncate(count);
            let mut have: Vec<f64> = got.iter().map(|&i| keys[i]).collect();
            have.sort_by(|a, b| b.total_cmp(a));
            prop_assert_eq!(have, want);
        }

        #[test]
        fn slope_is_the_constrained_least_squares_fit(
            pts in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 1..30)
        ) {
            // Oracle: minimise Σ (ȳ − 1 − b(x − 1))² by scanning b's derivative:
            // d/db = −2 Σ (x−1)(ȳ−1−b(x−1)) = 0 at the slope; check it vanishes.
            let (x, y): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
            let b = rescaling_slope(&x, &y).unwrap();
            let grad: f64 = x.iter().zip(&y).map(|(x, y)| (x - 1.0) * (y - 1.0 - b * (x - 1.0))).sum();
            let scale: f64 = x.iter().map(|x| (x - 1.0) * (x - 1.0)).sum::<f64>() + 1.0;
            prop_assert!(grad.abs() <= 1e-12 * scale, "grad {}", grad);
            prop_assert_eq!(rescale(1.0, b), 1.0);
        }
    }
}
