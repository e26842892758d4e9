//! Histograms of replicates: the streamed bins of a permutation test and
//! the bins of a bootstrap count exactly the values the run drew (checked
//! against the run's own replicates and a count per bin), and the test or
//! interval beside them is the one the plain run gives.
#![cfg(feature = "uncertainty")]

use adaptive_comp_metrics::uncertainty::{
    Alternative, Bootstrap, Histogram, Permutations, Spearman, TopWeightedRho, UncertaintyError,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The obviously correct count: the values in each [edges[k], edges[k+1]).
fn oracle(values: &[f64], edges: &[f64]) -> Vec<u64> {
    edges
        .windows(2)
        .map(|e| values.iter().filter(|&&v| e[0] <= v && v < e[1]).count() as u64)
        .collect()
}

fn human() -> Vec<f64> {
    (0..12).map(|i| f64::from(i) * 0.37 % 1.0).collect()
}

fn model() -> Vec<f64> {
    (0..12).map(|i| f64::from(i * 7 % 12)).collect()
}

#[test]
fn a_permutation_histogram_bins_the_runs_own_values() -> Result<(), UncertaintyError> {
    let (x, y) = (human(), model());
    for (m, bins) in [(1, 5), (999, 40), (20_000, 60)] {
        let plan = Permutations::new(m).alternative(Alternative::Greater);
        let (test, h) =
            plan.test_with_histogram(&TopWeightedRho::new(), &x, &y, bins, &mut rng(7))?;
        assert_eq!(
            test,
            plan.test(&TopWeightedRho::new(), &x, &y, &mut rng(7))?
        );
        let values = plan.replicates(&TopWeightedRho::new(), &x, &y, 0..m, &mut rng(7))?;
        assert_eq!(h.total(), m as u64);
        // Up to 2¹⁶ values the grid is the one laid over all of them.
        assert_eq!(h, Histogram::of(&values, bins)?);
        assert_eq!(h.counts, oracle(&values, &h.edges));
        assert_eq!(h.bins(), bins);
    }
    Ok(())
}

#[test]
fn a_long_run_grows_its_grid_and_still_counts_every_value() -> Result<(), UncertaintyError> {
    // More permutations than the 2¹⁶ values held before the grid is laid.
    let (x, y) = (human(), model());
    let m = 70_000;
    let plan = Permutations::new(m);
    let (test, h) = plan.test_with_histogram(&Spearman, &x, &y, 25, &mut rng(3))?;
    assert_eq!(test, plan.test(&Spearman, &x, &y, &mut rng(3))?);
    let values = plan.replicates(&Spearman, &x, &y, 0..m, &mut rng(3))?;
    assert_eq!(h.counts, oracle(&values, &h.edges));
    assert!((25..=50).contains(&h.bins()), "{} bins", h.bins());
    Ok(())
}

#[test]
fn a_bootstrap_histogram_bins_the_values_the_interval_was_read_off() -> Result<(), UncertaintyError>
{
    let (x, y) = (human(), model());
    let plan = Bootstrap::new(2_000);
    let (ci, h) = plan.run_with_histogram(&Spearman, &x, &y, 30, &mut rng(5))?;
    assert_eq!(ci, plan.run(&Spearman, &x, &y, &mut rng(5))?);
    let values: Vec<f64> = plan
        .replicates(&Spearman, &x, &y, 0..2_000, &mut rng(5))?
        .into_iter()
        .filter(|v| !v.is_nan())
        .collect();
    assert_eq!(h, Histogram::of(&values, 30)?);
    assert_eq!(h.total() as usize, ci.resamples - ci.failed);
    Ok(())
}

#[test]
fn bins_are_checked_before_any_work() {
    let (x, y) = (human(), model());
    let none = Permutations::new(10).test_with_histogram(&Spearman, &x, &y, 0, &mut rng(1));
    assert_eq!(
        none.unwrap_err(),
        UncertaintyError::InvalidBins {
            bins: 0,
            limit: Histogram::MAX_BINS
        }
    );
    let e = Bootstrap::new(10)
        .run_with_histogram(&Spearman, &x, &y, Histogram::MAX_BINS + 1, &mut rng(1))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "65537 histogram bins asked for: expected 1 to 65536"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any finite values, any number of bins: every value is counted once,
    /// in the bin whose edges hold it, and the bins are equally wide.
    #[test]
    fn every_value_lands_in_the_bin_that_holds_it(
        values in prop::collection::vec(
            prop_oneof![-1e6f64..1e6, -1.0f64..1.0, Just(0.0), Just(0.5)], 1..300),
        bins in 1usize..80,
    ) {
        let h = Histogram::of(&values, bins).unwrap();
        prop_assert_eq!(h.bins(), bins);
        prop_assert_eq!(h.total(), values.len() as u64);
        prop_assert_eq!(&h.counts, &oracle(&values, &h.edges));
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(h.edges[0] <= min && max < h.edges[bins]);
        for e in h.edges.windows(2) {
            prop_assert!(e[0] < e[1]);
        }
    }
}
