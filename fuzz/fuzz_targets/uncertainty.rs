//! Arbitrary scores and settings through the uncertainty module: no panic;
//! p-values in [1/(m+1), 1]; intervals ordered and within [−1, 1] for
//! coefficients; null SDs non-negative.
#![no_main]

use adaptive_comp_metrics::uncertainty::{
    Alternative, Bootstrap, Exchange, Interval, KendallTauB, Permutations, Spearman, Statistic,
    Threads, TopWeightedRho, TopWeightedTau, VignaTau,
};
use arbitrary::Arbitrary;
use core::num::NonZeroUsize;
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

#[derive(Debug, Arbitrary)]
struct Input {
    x: Vec<f64>,
    y: Vec<f64>,
    z: Vec<f64>,
    statistic: u8,
    replicates: u8,
    level: f64,
    alternative: u8,
    percentile: bool,
    swap_scores: bool,
    threads: u8,
    seed: u64,
}

fuzz_target!(|input: Input| {
    if input.x.len() > 40 || input.y.len() > 40 || input.z.len() > 40 {
        return;
    }
    let stats: [&dyn Statistic; 5] = [
        &Spearman,
        &KendallTauB,
        &TopWeightedRho::new(),
        &TopWeightedTau::new(),
        &VignaTau::default(),
    ];
    let s = stats[usize::from(input.statistic) % 5];
    let m = usize::from(input.replicates % 32);
    let threads = Threads::Fixed(NonZeroUsize::new(usize::from(input.threads % 4) + 1).unwrap());
    let alternative = [
        Alternative::TwoSided,
        Alternative::Greater,
        Alternative::Less,
    ][usize::from(input.alternative) % 3];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(input.seed);
    let perm = Permutations::new(m)
        .alternative(alternative)
        .threads(threads)
        .exchange(if input.swap_scores {
            Exchange::Scores
        } else {
            Exchange::Ranks
        });
    let floor = 1.0 / (m as f64 + 1.0);
    if let Ok(t) = perm.test(s, &input.x, &input.y, &mut rng) {
        assert!(t.p_value >= floor && t.p_value <= 1.0, "{t:?}");
        assert!((-1.0..=1.0).contains(&t.statistic));
    }
    if let Ok(t) = perm.paired(s, &input.x, &input.y, &input.z, &mut rng) {
        assert!(t.p_value >= floor && t.p_value <= 1.0, "{t:?}");
        assert!((-2.0..=2.0).contains(&t.statistic));
    }
    if let Ok(n) = perm.null_moments(s, &input.x, &input.y, &mut rng) {
        assert!(n.sd.value >= 0.0 && n.mean.value.abs() <= 1.0, "{n:?}");
    }
    let boot = Bootstrap::new(m)
        .level(input.level)
        .interval(if input.percentile {
            Interval::Percentile
        } else {
            Interval::Bca
        })
        .threads(threads);
    if let Ok(ci) = boot.run(s, &input.x, &input.y, &mut rng) {
        assert!(input.level > 0.0 && input.level < 1.0);
        assert!(
            -1.0 <= ci.lower && ci.lower <= ci.upper && ci.upper <= 1.0,
            "{ci:?}"
        );
    }
    if let Ok(ci) = boot.paired(s, &input.x, &input.y, &input.z, &mut rng) {
        assert!(
            -2.0 <= ci.lower && ci.lower <= ci.upper && ci.upper <= 2.0,
            "{ci:?}"
        );
    }
});
