//! Issue 17, "Sizes and resources": every size a caller chooses is checked
//! before anything is allocated, and refused with a typed `TooLarge` error
//! naming the quantity, the size and the limit (crate docs, "Sizes and
//! memory"). None of these tests allocates more than a few megabytes: the
//! sizes asked for would need terabytes, so a test that passes was refused
//! before the allocation. Also: no NaN in a simulation report.

#[cfg(feature = "uncertainty")]
mod uncertainty {
    use adaptive_comp_metrics::uncertainty::{
        Alternative, Bootstrap, Permutations, Spearman, Threads, UncertaintyError, bootstrap_ci,
        null_moments, paired_comparison, permutation_test, standardise,
    };
    use core::num::NonZeroUsize;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const X: [f64; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    const Y: [f64; 6] = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0];
    /// The default limit, 2²⁷.
    const LIMIT: u64 = 134_217_728;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(17)
    }

    fn too_large(quantity: &'static str, requested: u64) -> UncertaintyError {
        UncertaintyError::TooLarge {
            quantity,
            requested,
            limit: LIMIT,
        }
    }

    /// Asserts that `r` refuses `requested` of `quantity` over the default
    /// limit, with the message `message`.
    fn assert_too_large<T: std::fmt::Debug>(
        r: Result<T, UncertaintyError>,
        quantity: &'static str,
        requested: u64,
        message: &str,
    ) {
        let e = r.unwrap_err();
        assert_eq!(e, too_large(quantity, requested));
        assert_eq!(e.to_string(), message);
    }

    #[test]
    fn permutations_usize_max_is_refused_not_a_capacity_overflow_panic() {
        assert_too_large(
            Permutations::new(usize::MAX).test(&Spearman, &X, &Y, &mut rng()),
            "permutations",
            u64::MAX,
            "too large: 18446744073709551615 permutations requested, at most 134217728",
        );
    }

    #[test]
    fn permutations_two_to_the_forty_are_refused_before_a_61_tb_allocation() {
        let m = 1usize << 40;
        let e = too_large("permutations", 1 << 40);
        let p = Permutations::new(m);
        assert_eq!(p.test(&Spearman, &X, &Y, &mut rng()), Err(e));
        assert_eq!(p.standardise(&Spearman, &X, &Y, &mut rng()), Err(e));
        assert_eq!(p.null_moments(&Spearman, &X, &Y, &mut rng()), Err(e));
        assert_eq!(p.paired(&Spearman, &X, &Y, &X, &mut rng()), Err(e));
        let greater = Alternative::Greater;
        assert_eq!(
            permutation_test(&Spearman, &X, &Y, m, greater, &mut rng()),
            Err(e)
        );
        assert_eq!(null_moments(&Spearman, &X, &Y, m, &mut rng()), Err(e));
        assert_eq!(standardise(&Spearman, &X, &Y, m, &mut rng()), Err(e));
        assert_eq!(
            e.to_string(),
            "too large: 1099511627776 permutations requested, at most 134217728"
        );
    }

    #[test]
    fn bootstrap_usize_max_and_two_to_the_forty_are_refused() {
        assert_too_large(
            Bootstrap::new(usize::MAX).run(&Spearman, &X, &Y, &mut rng()),
            "resamples",
            u64::MAX,
            "too large: 18446744073709551615 resamples requested, at most 134217728",
        );
        let e = too_large("resamples", 1 << 40);
        assert_eq!(
            Bootstrap::new(1 << 40).paired(&Spearman, &X, &Y, &X, &mut rng()),
            Err(e)
        );
        assert_eq!(
            bootstrap_ci(&Spearman, &X, &Y, 1 << 40, 0.95, &mut rng()),
            Err(e)
        );
        // The paired comparison runs its bootstrap first.
        assert_eq!(
            paired_comparison(&Spearman, &X, &Y, &X, 1 << 40, &mut rng()),
            Err(e)
        );
    }

    #[test]
    fn the_limit_is_configurable_both_ways() {
        assert_eq!(Permutations::DEFAULT_MAX_REPLICATES, 1 << 27);
        assert_eq!(Bootstrap::DEFAULT_MAX_REPLICATES, 1 << 27);
        let p = Permutations::new(100).max_replicates(99);
        assert_eq!(
            p.test(&Spearman, &X, &Y, &mut rng())
                .unwrap_err()
                .to_string(),
            "too large: 100 permutations requested, at most 99"
        );
        let b = Bootstrap::new(100).max_replicates(99);
        assert_eq!(
            b.run(&Spearman, &X, &Y, &mut rng()),
            Err(UncertaintyError::TooLarge {
                quantity: "resamples",
                requested: 100,
                limit: 99
            })
        );
        // At the limit: runs.
        assert!(
            p.max_replicates(100)
                .test(&Spearman, &X, &Y, &mut rng())
                .is_ok()
        );
        assert!(
            b.max_replicates(100)
                .run(&Spearman, &X, &Y, &mut rng())
                .is_ok()
        );
        // Too few still comes first.
        assert!(matches!(
            Permutations::new(0)
                .max_replicates(0)
                .test(&Spearman, &X, &Y, &mut rng()),
            Err(UncertaintyError::TooFewReplicates { .. })
        ));
    }

    #[test]
    fn streaming_across_blocks_does_not_depend_on_the_thread_count() {
        // 70 001 permutations: two blocks of the engine (2¹⁶ each).
        let run = |t: usize| {
            Permutations::new(70_001)
                .threads(Threads::Fixed(NonZeroUsize::new(t).unwrap()))
                .test(&Spearman, &X, &Y, &mut rng())
                .unwrap()
        };
        let one = run(1);
        assert_eq!(one.permutations, 70_001);
        for t in [2, 3] {
            let other = run(t);
            assert_eq!(other, one);
            assert_eq!(other.null_sd.to_bits(), one.null_sd.to_bits());
        }
    }

    #[test]
    fn a_huge_thread_count_is_capped_not_a_spawn_panic() {
        // usize::MAX threads, each with O(n) scratch: capped at 256 (results
        // do not depend on the count). A permutation test and a bootstrap
        // interval on `t` threads:
        let run = |t: NonZeroUsize| {
            let (perms, boot) = (Permutations::new(1000), Bootstrap::new(1000));
            let test = perms
                .threads(Threads::Fixed(t))
                .test(&Spearman, &X, &Y, &mut rng());
            let interval = boot
                .threads(Threads::Fixed(t))
                .run(&Spearman, &X, &Y, &mut rng());
            (test.unwrap(), interval.unwrap())
        };
        assert_eq!(run(NonZeroUsize::MAX), run(NonZeroUsize::MIN));
    }

    #[test]
    fn gamma_monte_carlo_sizes_are_refused_before_allocating() {
        // Issue 24, item 10: n = usize::MAX panicked, n = 2⁴⁰ aborted on an
        // 8 TiB allocation; both are now `TooLarge` before any allocation.
        use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        use adaptive_comp_metrics::{Coefficient, TopWeighted};
        assert_eq!(GammaMonteCarlo::MAX_ITEMS, 1 << 26);
        let paper = TopWeighted::new();
        for n in [usize::MAX, 1 << 40, GammaMonteCarlo::MAX_ITEMS + 1] {
            for c in [Coefficient::Rho, Coefficient::Tau] {
                let e = GammaMonteCarlo::new()
                    .moments(&paper, c, n, &mut rng())
                    .unwrap_err();
                assert_eq!(
                    e,
                    UncertaintyError::TooLarge {
                        quantity: "items",
                        requested: n as u64,
                        limit: 1 << 26
                    }
                );
            }
        }
        let e = GammaMonteCarlo::new()
            .moments(&paper, Coefficient::Rho, usize::MAX, &mut rng())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 items requested, at most 67108864"
        );
    }

    #[test]
    fn beyond_the_kept_values_the_sd_is_streamed_and_right() {
        // n = 3: the six permutations give ρ = 1, ½, ½, −½, −½, −1 with equal
        // probability, so the null mean is 0 and the null SD is
        // √((1 + 4·¼ + 1)/6) = √½ (hand computation; 1/√(n − 1) in general).
        // 2²⁰ + 10 permutations go past the 2²⁰ values kept for the exact
        // two-pass SD; the one-pass SD must still agree with √½ within a few
        // Monte-Carlo standard errors (SE of the SD ≈ 0.5/√m ≈ 0.0005,
        // of the mean ≈ 0.7/√m ≈ 0.0007).
        let m = (1 << 20) + 10;
        let t = Permutations::new(m)
            .test(&Spearman, &[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0], &mut rng())
            .unwrap();
        assert_eq!(t.permutations, m);
        assert!((t.null_sd - 0.5f64.sqrt()).abs() < 0.003, "{}", t.null_sd);
        assert!(t.null_mean.abs() < 0.004, "{}", t.null_mean);
    }
}

#[cfg(feature = "scheduler")]
mod ballot {
    use adaptive_comp_metrics::ballot::{
        BallotConfig, BallotError, Scheduler, UniformBudget, random_matchings, spread_over_voters,
        uniform_plan,
    };
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(17)
    }

    #[test]
    fn spread_over_usize_max_comparisons_is_refused_not_a_panic() {
        let e = spread_over_voters(usize::MAX, 3, &mut rng()).unwrap_err();
        assert_eq!(
            e,
            BallotError::TooLarge {
                quantity: "comparisons",
                requested: u64::MAX,
                limit: 1 << 26
            }
        );
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 comparisons requested, at most 67108864"
        );
    }

    #[test]
    fn spread_over_two_to_the_forty_is_refused_not_an_abort() {
        let e = spread_over_voters(1 << 40, 3, &mut rng()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 1099511627776 comparisons requested, at most 67108864"
        );
        let e = spread_over_voters(10, 1 << 40, &mut rng()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 1099511627776 voters requested, at most 16777216"
        );
        // At the limit of voters: 2²⁴ empty shares (24 bytes each).
        let shares = spread_over_voters(2, BallotConfig::MAX_VOTERS, &mut rng()).unwrap();
        assert_eq!(shares.iter().map(Vec::len).sum::<usize>(), 2);
    }

    #[test]
    fn random_matchings_two_to_the_forty_rounds_are_refused_not_an_abort() {
        // ⌈2⁴⁰·4/2⌉ = 2⁴¹ comparisons.
        let e = random_matchings(&[0, 1, 2, 3], 1 << 40, &mut rng()).unwrap_err();
        assert_eq!(
            e,
            BallotError::TooLarge {
                quantity: "comparisons",
                requested: 1 << 41,
                limit: 1 << 26
            }
        );
        assert_eq!(
            e.to_string(),
            "too large: 2199023255552 comparisons requested, at most 67108864"
        );
    }

    #[test]
    fn a_config_whose_comparisons_cannot_be_held_is_refused() {
        // Issue 17: accepted, then open_ballot grew without bound. Sizes
        // 10⁶, 5·10⁵, …, 15 625 (α = ½, exact halves): the comparisons are
        // 10⁶·M/2 · (1 + ½ + … + 1/64) = 5·10¹¹ · 127/64 = 992 187 500 000.
        let e = BallotConfig::new(1_000_000, 1_000_000, 0.5, 7).unwrap_err();
        assert_eq!(
            e,
            BallotError::TooLarge {
                quantity: "comparisons",
                requested: 992_187_500_000,
                limit: BallotConfig::MAX_COMPARISONS
            }
        );
        assert_eq!(
            e.to_string(),
            "too large: 992187500000 comparisons requested, at most 67108864"
        );
        let e = BallotConfig::new(1 << 40, 1, 0.5, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 1099511627776 items requested, at most 16777216"
        );
        // The crate docs' example, 10⁶ items with M = 20, stays accepted.
        assert!(BallotConfig::new(1_000_000, 20, 0.5, 7).is_ok());
    }

    #[test]
    fn the_uniform_baseline_is_checked_too() {
        // Adaptive: ⌈7·12.5·10⁶/2⌉ + ⌈7·6.25·10⁶/2⌉ = 65 625 000 ≤ 2²⁶; the
        // published uniform budget rounds 7·(1 − ¼)/½ = 10.5 up to 11
        // appearances: 11·12.5·10⁶/2 = 68 750 000 > 2²⁶ = 67 108 864.
        let c = BallotConfig::new(12_500_000, 7, 0.5, 2).unwrap();
        let want = BallotError::TooLarge {
            quantity: "comparisons",
            requested: 68_750_000,
            limit: 1 << 26,
        };
        assert_eq!(
            uniform_plan(&c, UniformBudget::RoundedAppearances),
            Err(want)
        );
        assert_eq!(
            Scheduler::uniform(c, UniformBudget::RoundedAppearances).unwrap_err(),
            want
        );
        assert!(uniform_plan(&c, UniformBudget::SameComparisons).is_ok());
    }
}

#[cfg(feature = "simulator")]
mod simulate {
    use adaptive_comp_metrics::ballot::BallotConfig;
    use adaptive_comp_metrics::simulate::{
        Estimate, Metric, PowerLaw, SimulateError, Simulation, Underlying, VoterModel, sweep,
    };
    use rand::SeedableRng;

    fn small() -> Simulation {
        let config = BallotConfig::new(20, 2, 0.5, 2).unwrap();
        Simulation::new(Underlying::exponential(20).unwrap(), config)
            .unwrap()
            .n_voters(3)
            .unwrap()
    }

    #[test]
    fn one_simulation_is_refused_instead_of_a_nan_sd() {
        // Issue 17: run(1, seed) gave Summary { sd: NaN, se: NaN }.
        let e = small().run(1, 7).unwrap_err();
        assert_eq!(e, SimulateError::TooFewSimulations { needed: 2, got: 1 });
        assert_eq!(
            e.to_string(),
            "too few simulations: 2 needed, got 1 (a standard deviation needs two)"
        );
        let e = sweep(&small(), 100, &[0.5], &[2], &Metric::rho(), 1, 7).unwrap_err();
        assert_eq!(e, SimulateError::TooFewSimulations { needed: 2, got: 1 });
        // One simulation on its own is still there.
        assert!(small().simulate(7, 0).is_ok());
        // Two give finite SDs.
        let r = small().run(2, 7).unwrap();
        for s in r.uniform.iter().chain(&r.adaptive) {
            assert!(s.mean.is_finite() && s.sd.is_finite() && s.se.is_finite());
        }
    }

    #[test]
    fn simulation_counts_and_indices_beyond_the_limit_are_refused() {
        let e = small().run(usize::MAX, 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 simulations requested, at most 1048576"
        );
        let e = sweep(&small(), 100, &[0.5], &[2], &Metric::rho(), 1 << 40, 7).unwrap_err();
        assert!(matches!(
            e,
            SimulateError::TooLarge {
                quantity: "simulations",
                ..
            }
        ));
        let e = small().simulate(7, usize::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 simulation index requested, at most 1048575"
        );
    }

    #[test]
    fn crowds_and_distributions_beyond_the_limit_are_refused() {
        let e = small().n_voters(usize::MAX).unwrap_err();
        // usize::MAX·20 exceeds 64 bits: the request saturates at u64::MAX.
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 voter-item opinions (voters × items) requested, at most 134217728"
        );
        let e = small().n_voters(1 << 24).unwrap_err(); // 2²⁴·20 > 2²⁷
        assert_eq!(
            e,
            SimulateError::TooLarge {
                quantity: "voter-item opinions (voters × items)",
                requested: 20 << 24,
                limit: 1 << 27
            }
        );
        let z = Underlying::exponential(20).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert!(matches!(
            VoterModel::paper().draw(&z, 1 << 40, &mut rng),
            Err(SimulateError::TooLarge { .. })
        ));
        let e = Underlying::exponential(usize::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too large: 18446744073709551615 items requested, at most 16777216"
        );
        assert!(matches!(
            Underlying::power_law(1 << 40, PowerLaw::Paper),
            Err(SimulateError::TooLarge {
                quantity: "items",
                ..
            })
        ));
    }

    #[test]
    fn a_huge_thread_count_is_capped_not_a_spawn_panic() {
        let one = small().run_with_threads(3, 7, 1).unwrap();
        assert_eq!(small().run_with_threads(3, 7, usize::MAX).unwrap(), one);
    }

    #[test]
    fn a_metric_returning_nan_is_an_error_not_a_nan_mean() {
        let nan = Metric::custom("nan", |_: &Estimate<'_>| Ok(f64::NAN));
        let e = small().metrics(vec![nan]).run(2, 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "metric nan in simulation 0: the coefficient is undefined: the metric returned a NaN or infinite value"
        );
    }
}
