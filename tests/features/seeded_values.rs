//! Seeded results are stable across releases. The values below were
//! recorded from this crate with rand 0.10 and rand_chacha 0.10, and are the
//! values rand 0.9 and rand_chacha 0.9 gave before the move (checked when
//! the crate moved). A failure here means a seeded result moved: mark the
//! change value-breaking in the CHANGELOG, say which values moved, and record
//! the new ones. The simulator's seeded values are pinned in
//! `simulate_runner.rs` (`seeded_values_are_stable`).
//!
//! Each `…_seeded` entry point is also checked to be its generator form with
//! `ChaCha8Rng::seed_from_u64(seed)`, as the crate docs state.
#![cfg(feature = "uncertainty")]

use adaptive_comp_metrics::embedding::Vectors;
use adaptive_comp_metrics::rand::seq::SliceRandom;
use adaptive_comp_metrics::rand::{Rng, RngExt, SeedableRng};
use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
use adaptive_comp_metrics::uncertainty::{
    Alternative, Bootstrap, GammaMonteCarlo, Interval, Permutations, Spearman, TopWeightedRho,
    TopWeightedTau, bootstrap_ci, bootstrap_ci_seeded, null_moments, null_moments_seeded,
    paired_comparison, paired_comparison_seeded, permutation_test, permutation_test_seeded,
    standardise, standardise_seeded,
};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Evaluator, WordPair, paired_test, paired_test_seeded,
};
use adaptive_comp_metrics::{Coefficient, Scheme, TopWeighted};

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

const HUMAN: [f64; 12] = [
    0.95, 0.80, 0.61, 0.40, 0.12, 0.33, 0.71, 0.05, 0.52, 0.27, 0.66, 0.18,
];
const MODEL: [f64; 12] = [
    0.91, 0.62, 0.83, 0.35, 0.20, 0.30, 0.60, 0.10, 0.41, 0.33, 0.48, 0.25,
];
const POOR: [f64; 12] = [
    0.15, 0.62, 0.33, 0.75, 0.20, 0.90, 0.60, 0.10, 0.41, 0.03, 0.48, 0.55,
];

/// The generator itself and the draws the crate makes from it: raw words,
/// `random_range`, `shuffle`, `random::<bool>`.
#[test]
fn chacha8_draws_are_pinned() {
    let mut g = rng(2020);
    let raw: Vec<u64> = (0..3).map(|_| g.next_u64()).collect();
    assert_eq!(
        raw,
        [
            1_354_562_995_863_385_178,
            13_803_796_276_560_678_320,
            5_323_351_638_406_968_770
        ]
    );
    let ranged: Vec<usize> = (0..8).map(|_| g.random_range(0..1000)).collect();
    assert_eq!(ranged, [111, 871, 635, 956, 334, 697, 950, 152]);
    let mut shuffled: Vec<u32> = (0..10).collect();
    shuffled.shuffle(&mut g);
    assert_eq!(shuffled, [9, 8, 5, 1, 2, 7, 4, 6, 0, 3]);
    assert!(!g.random::<bool>());
}

#[test]
fn permutation_test_is_pinned() {
    let t = permutation_test_seeded(
        &TopWeightedRho::new(),
        &HUMAN,
        &MODEL,
        999,
        Alternative::Greater,
        2020,
    )
    .unwrap();
    assert_eq!((t.at_least, t.at_most, t.p_value), (0, 999, 0.001));
    assert_eq!(t.statistic, 0.903_737_460_215_770_8);
    assert_eq!(t.null_mean, -0.190_042_326_396_832);
    assert_eq!(t.null_sd, 0.356_449_077_132_279_25);
}

#[test]
fn bootstrap_intervals_are_pinned() {
    let ci = bootstrap_ci_seeded(&TopWeightedRho::new(), &HUMAN, &MODEL, 2000, 0.95, 2020).unwrap();
    assert_eq!((ci.lower, ci.upper), (0.162_710_898_696_980_1, 1.0));
    assert_eq!(ci.standard_error, 0.170_384_230_832_260_48);
    assert_eq!(ci.bias_correction, Some(-0.241_071_114_409_604_71));
    assert_eq!(ci.acceleration, Some(0.004_872_098_128_776_154));
    let pct = Bootstrap::new(500)
        .interval(Interval::Percentile)
        .run_seeded(&Spearman, &HUMAN, &MODEL, 7)
        .unwrap();
    assert_eq!((pct.lower, pct.upper), (0.699_435_483_870_967_8, 1.0));
    assert_eq!(pct.standard_error, 0.089_388_702_201_633_54);
}

#[test]
fn paired_comparison_is_pinned() {
    let c =
        paired_comparison_seeded(&TopWeightedTau::new(), &HUMAN, &MODEL, &POOR, 499, 3).unwrap();
    assert_eq!(c.difference, 1.156_473_685_070_184);
    assert_eq!(
        (c.interval.lower, c.interval.upper),
        (-0.053_909_231_740_209_625, 1.751_063_857_250_594_3)
    );
    assert_eq!(
        (c.test.at_least, c.test.at_most, c.test.p_value),
        (40, 459, 0.164)
    );
    assert_eq!(c.test.null_mean, -0.048_623_943_682_973_46);
}

#[test]
fn null_moments_and_standardisation_are_pinned() {
    let m = null_moments_seeded(&TopWeightedRho::new(), &HUMAN, &MODEL, 300, 5).unwrap();
    assert_eq!(
        (m.mean.value, m.sd.value),
        (-0.172_673_289_628_593_68, 0.355_527_079_609_075_76)
    );
    let s = standardise_seeded(&TopWeightedTau::new(), &HUMAN, &MODEL, 300, 5).unwrap();
    assert_eq!(s.z, 3.146_835_106_984_558_4);
    let g = GammaMonteCarlo::new()
        .standard_error(5e-3)
        .moments_seeded(&TopWeighted::new(), Coefficient::Rho, 30, 11)
        .unwrap();
    assert_eq!(
        (g.mean.value, g.variance.value, g.left_variance.value),
        (
            -0.333_282_772_273_799_3,
            0.063_657_827_753_571_19,
            0.026_656_697_983_446_203
        )
    );
}

/// `f_seeded(…, s)` is `f(…, &mut ChaCha8Rng::seed_from_u64(s))` for every
/// seeded entry point.
#[test]
fn seeded_forms_are_the_generator_forms_with_chacha8() {
    let (h, m, p) = (&HUMAN[..], &MODEL[..], &POOR[..]);
    let rho = TopWeightedRho::new();
    let g = Alternative::Greater;
    assert_eq!(
        permutation_test_seeded(&rho, h, m, 99, g, 1),
        permutation_test(&rho, h, m, 99, g, &mut rng(1))
    );
    let perms = Permutations::new(99);
    assert_eq!(
        perms.test_seeded(&rho, h, m, 2),
        perms.test(&rho, h, m, &mut rng(2))
    );
    assert_eq!(
        perms.null_moments_seeded(&rho, h, m, 3),
        perms.null_moments(&rho, h, m, &mut rng(3))
    );
    assert_eq!(
        perms.standardise_seeded(&rho, h, m, 4),
        perms.standardise(&rho, h, m, &mut rng(4))
    );
    assert_eq!(
        perms.paired_seeded(&rho, h, m, p, 5),
        perms.paired(&rho, h, m, p, &mut rng(5))
    );
    assert_eq!(
        null_moments_seeded(&rho, h, m, 99, 6),
        null_moments(&rho, h, m, 99, &mut rng(6))
    );
    assert_eq!(
        standardise_seeded(&rho, h, m, 99, 7),
        standardise(&rho, h, m, 99, &mut rng(7))
    );
    assert_eq!(
        bootstrap_ci_seeded(&rho, h, m, 99, 0.9, 8),
        bootstrap_ci(&rho, h, m, 99, 0.9, &mut rng(8))
    );
    let boot = Bootstrap::new(99);
    assert_eq!(
        boot.run_seeded(&rho, h, m, 9),
        boot.run(&rho, h, m, &mut rng(9))
    );
    assert_eq!(
        boot.paired_seeded(&rho, h, m, p, 10),
        boot.paired(&rho, h, m, p, &mut rng(10))
    );
    assert_eq!(
        paired_comparison_seeded(&rho, h, m, p, 99, 11),
        paired_comparison(&rho, h, m, p, 99, &mut rng(11))
    );
    let mc = GammaMonteCarlo::new().standard_error(2e-2);
    let first = TopWeighted::new().scheme(Scheme::First);
    assert_eq!(
        mc.moments_seeded(&first, Coefficient::Tau, 12, 12),
        mc.moments(&first, Coefficient::Tau, 12, &mut rng(12))
    );
    let paper = TopWeighted::new();
    assert_eq!(
        mc.moments_of_seeded(&paper, Coefficient::Rho, h, m, 13),
        mc.moments_of(&paper, Coefficient::Rho, h, m, &mut rng(13))
    );
    assert_eq!(
        mc.rho_standardised_seeded(&paper, h, m, 14),
        mc.rho_standardised(&paper, h, m, &mut rng(14))
    );
    assert_eq!(
        mc.tau_standardised_seeded(&paper, h, m, 15),
        mc.tau_standardised(&paper, h, m, &mut rng(15))
    );
}

#[test]
fn seeded_word_similarity_forms_are_the_generator_forms() {
    let words: Vec<String> = (0..12).map(|i| format!("w{i}")).collect();
    let vectors = |scores: &[f64]| {
        Vectors::from_pairs(
            2,
            words
                .iter()
                .zip(scores)
                .map(|(w, &s)| (w.clone(), [1.0, s])),
        )
        .unwrap()
    };
    let (good, poor) = (vectors(&MODEL), vectors(&POOR));
    let pairs = (1..12)
        .map(|i| WordPair::new("w0", words[i].clone(), HUMAN[i]))
        .collect();
    let benchmark = Benchmark::new("pinned", pairs).unwrap();
    let ev = Evaluator::new();
    let bootstrap = Bootstrap::new(99);
    assert_eq!(
        ev.evaluate_with_intervals_seeded(&good, &benchmark, &bootstrap, 16),
        ev.evaluate_with_intervals(&good, &benchmark, &bootstrap, &mut rng(16))
    );
    let (a, b) = (
        ev.evaluate(&good, &benchmark).unwrap(),
        ev.evaluate(&poor, &benchmark).unwrap(),
    );
    assert_eq!(
        paired_test_seeded(&a, &b, &Spearman, 99, 17),
        paired_test(&a, &b, &Spearman, 99, &mut rng(17))
    );
}
