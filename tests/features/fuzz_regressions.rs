//! Inputs the fuzz targets of `fuzz/` found in the optional features (issue
//! 17, "Fuzzing that reaches the edges"), replayed as ordinary tests: the call
//! the crashing input made, with its values. Each crash file is also kept in
//! the target's seed corpus (`fuzz/corpus/<target>/seed-crash-*`), so the
//! fuzzer replays it too.

#[cfg(feature = "scheduler")]
mod ballot {
    use adaptive_comp_metrics::ballot::{BallotError, rescaling_slope};

    const OVERFLOW: BallotError = BallotError::Overflow {
        what: "the rescaling slope of these values",
    };

    /// `ballot_ops`, crash-b52b2617bc52987bd82b874e7bcbd49c72f5bed2: finite
    /// values overflowed the numerator, (1 − 3.375)(1 − 1.8·10³⁰⁸) > f64::MAX,
    /// and the compensated sum turned ∞ into NaN, returned as the slope.
    #[test]
    fn rescaling_slope_of_huge_values_is_an_overflow_error() {
        assert_eq!(rescaling_slope(&[3.375], &[f64::MAX]), Err(OVERFLOW));
        // The denominator overflows alone: (1 + 10¹⁶⁰)² > f64::MAX (the
        // slope was 0 before, for a true value of about 10⁻¹⁶⁰).
        assert_eq!(rescaling_slope(&[-1e160], &[0.0]), Err(OVERFLOW));
        // Both sums finite, their ratio not: 2⁻⁵²·10³⁰⁰ / 2⁻¹⁰⁴ ≈ 10³¹⁵.
        let x = 1.0 - f64::EPSILON;
        assert_eq!(rescaling_slope(&[x], &[-1e300]), Err(OVERFLOW));
        assert_eq!(
            OVERFLOW.to_string(),
            "overflow: the rescaling slope of these values is too large"
        );
        // Values of the paper's range are unaffected: Σ(1−x)(1−ȳ)/Σ(1−x)²
        // = (0.5·0.5)/(0.5·0.5) = 1.
        assert_eq!(rescaling_slope(&[0.5], &[0.5]), Ok(1.0));
    }
}

#[cfg(feature = "uncertainty")]
mod uncertainty {
    use adaptive_comp_metrics::uncertainty::{
        Bootstrap, Interval, Spearman, Threads, TopWeightedRho, UncertaintyError,
    };
    use core::num::NonZeroUsize;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// `uncertainty`, crash-8f2a7eb6a048d26c93be4b67f9236f5cfb4033e5: at a
    /// level of 1 − 2⁻⁵³ (the largest below 1), 1 − α/2 rounded to 1, so
    /// Φ⁻¹(1 − α/2) = ∞, the BCa adjustment 1 − a(z₀ + z) was 1 − 0·∞ = NaN,
    /// and the upper end of the interval was NaN.
    #[test]
    fn bca_interval_at_the_largest_level_below_one() {
        let x = [7.875, -0.125, 4.5, -4.75];
        let y = [1.0 + f64::EPSILON, f64::EPSILON, 15.875, 0.125];
        let level = 1.0 - f64::EPSILON / 2.0;
        let run = |interval| {
            Bootstrap::new(7)
                .level(level)
                .interval(interval)
                .threads(Threads::Fixed(NonZeroUsize::MIN))
                .run(
                    &TopWeightedRho::new(),
                    &x,
                    &y,
                    &mut ChaCha8Rng::seed_from_u64(366_137_372_049_515),
                )
                .expect("a valid bootstrap")
        };
        let (bca, percentile) = (run(Interval::Bca), run(Interval::Percentile));
        assert_eq!(bca.acceleration, Some(0.0));
        // With α = 2⁻⁵³ both intervals reach the end of the bootstrap
        // distribution: Φ(z₀ + (z₀ − Φ⁻¹(α/2))) = Φ(z₀ + 8.3) rounds to 1,
        // as does 1 − α/2, so the upper end is the largest resample value
        // (the same 7 resamples: the seed is drawn the same way).
        assert!(bca.upper.is_finite() && bca.lower.is_finite(), "{bca:?}");
        assert_eq!(bca.upper, percentile.upper);
        assert!(-1.0 <= bca.lower && bca.lower <= bca.upper && bca.upper <= 1.0);
    }

    /// `uncertainty`, crash-18fd3986aad511445a27f2eec50851727dc94e0b: with
    /// the limit raised to `usize::MAX`, `usize::MAX` resamples passed the
    /// count check and `Vec::with_capacity` panicked (`capacity overflow`):
    /// their values would take 8·(2⁶⁴ − 1) bytes.
    #[test]
    fn bootstrap_refuses_what_no_allocation_can_address() {
        let x = [10.125f32, 10.125, 10.125, 14.125];
        let y = [13.5f32, 10.125, 13.5, -8.75];
        // isize::MAX bytes / 8 bytes per value = 2⁶⁰ − 1 values.
        let addressable = (1u64 << 60) - 1;
        for raised in [usize::MAX, 1 << 62] {
            let r = Bootstrap::new(usize::MAX)
                .max_replicates(raised)
                .level(1.1920928952837295e-7)
                .run(&Spearman, &x, &y, &mut ChaCha8Rng::seed_from_u64(u64::MAX));
            assert_eq!(
                r.unwrap_err(),
                UncertaintyError::TooLarge {
                    quantity: "resamples",
                    requested: u64::MAX,
                    limit: addressable,
                }
            );
        }
        // At the limit itself the count passes (the level is checked next).
        let r = Bootstrap::new((1 << 60) - 1)
            .max_replicates(usize::MAX)
            .level(1.5)
            .run(&Spearman, &x, &y, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(
            r.unwrap_err(),
            UncertaintyError::InvalidLevel { level: 1.5 }
        );
    }
}
