//! Bootstrap intervals in a report and the paired test of two models on the
//! pairs both cover (feature `uncertainty`).
#![cfg(feature = "uncertainty")]

use adaptive_comp_metrics::uncertainty::{Bootstrap, Spearman, paired_comparison};
use adaptive_comp_metrics::wordsim::{Evaluator, WordsimError, paired_test};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::wordsim_gensim::benchmark;

fn vectors(name: &str) -> adaptive_comp_metrics::embedding::Vectors<f32> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/wordsim")
        .join(name);
    let bytes = std::fs::read(path).unwrap();
    let format = adaptive_comp_metrics::embedding::Format::detect(&bytes);
    adaptive_comp_metrics::embedding::read_vectors(&bytes[..], format, &Default::default()).unwrap()
}

#[test]
fn paired_test_uses_exactly_the_pairs_both_models_cover() {
    let b = benchmark("ws-sample.tsv");
    let (a, bb) = (vectors("sample-a.vec"), vectors("sample-b.bin"));
    let ev = Evaluator::new();
    let (ra, rb) = (ev.evaluate(&a, &b).unwrap(), ev.evaluate(&bb, &b).unwrap());
    let t = paired_test(&ra, &rb, &Spearman, 499, &mut ChaCha8Rng::seed_from_u64(5)).unwrap();
    // The oracle: filter by hand, then the uncertainty module directly, same seed.
    let (mut h, mut x, mut y) = (Vec::new(), Vec::new(), Vec::new());
    for (i, p) in b.pairs().iter().enumerate() {
        if let (Some(s), Some(u)) = (ra.similarities[i], rb.similarities[i]) {
            assert_eq!(p.score, ra.gold[i]);
            h.push(p.score);
            x.push(s);
            y.push(u);
        }
    }
    assert!(t.common < ra.found.min(rb.found)); // the two models miss different words
    assert_eq!(t.common, h.len());
    let direct = paired_comparison(
        &Spearman,
        &h,
        &x,
        &y,
        499,
        &mut ChaCha8Rng::seed_from_u64(5),
    )
    .unwrap();
    assert_eq!(t.comparison, direct);
    // Model A (less noise) is better on this sample.
    assert!(t.comparison.difference > 0.0);
    // Reports on different benchmarks cannot be paired.
    let other = ev.evaluate(&a, &benchmark("mturk-sample.csv")).unwrap();
    assert!(matches!(
        paired_test(
            &ra,
            &other,
            &Spearman,
            99,
            &mut ChaCha8Rng::seed_from_u64(1)
        ),
        Err(WordsimError::DifferentBenchmarks { .. })
    ));
}

#[test]
fn intervals_are_reproducible_and_contain_the_estimates() {
    let b = benchmark("simlex-sample.txt");
    let v = vectors("sample-a.vec");
    let boot = Bootstrap::new(300);
    let run = |seed| {
        Evaluator::new()
            .evaluate_with_intervals(&v, &b, &boot, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap()
    };
    let r = run(9);
    assert_eq!(r, run(9));
    let iv = r.intervals.clone().unwrap();
    let pairs = [
        (iv.pearson.unwrap(), r.pearson.unwrap().r),
        (iv.spearman.unwrap(), r.spearman.unwrap().rho),
        (iv.kendall.unwrap(), r.kendall.unwrap().tau),
        (iv.rho_w.unwrap(), r.rho_w.unwrap().rho),
        (iv.tau_w.unwrap(), r.tau_w.unwrap().tau),
    ];
    for (ci, value) in pairs {
        assert_eq!(ci.estimate, value);
        assert!(ci.lower <= value && value <= ci.upper, "{ci:?}");
        assert!(ci.upper - ci.lower > 0.0);
    }
}
