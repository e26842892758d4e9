//! Arbitrary comparison lists into the pairwise models: a Bradley–Terry
//! fit with or without a prior, its standard errors and uncertainty (the
//! dense Cholesky and inverse, with their runtime-chosen SIMD tiles, on
//! sizes across the 64-row blocks), and the noisy model. Records come from
//! the input and, to reach a hundred items with few bytes, from a seeded
//! generator. Never a panic; a fit's scores finite and centred; the
//! standard errors the same bits on one and on two threads, and those that
//! `uncertainty` reports.
#![no_main]

use adaptive_comp_metrics::Threads;
use adaptive_comp_metrics::ballot::Vote;
use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons, Inference, NoisyBradleyTerry};
use arbitrary::Arbitrary;
use core::num::NonZeroUsize;
use libfuzzer_sys::fuzz_target;
use rand::Rng;

#[path = "support.rs"]
mod support;
use support::SplitMix;

/// Items at most: above two 64-row blocks of the dense kernel.
const MAX_ITEMS: usize = 150;

/// Generated comparisons at most (a fit stays well under a second).
const MAX_GENERATED: usize = 4000;

#[derive(Debug, Arbitrary)]
struct Input {
    items: u8,
    /// (first, second, vote); indices may be out of range or equal (both
    /// errors).
    records: Vec<(u8, u8, u8)>,
    /// Extra comparisons of uniform pairs drawn from `seed`.
    generated: u16,
    seed: u64,
    /// A prior's standard deviation: `None` for maximum likelihood.
    prior: Option<u8>,
    noisy: bool,
    draws: u8,
}

fn vote(v: u8) -> Vote {
    [Vote::First, Vote::Second, Vote::Tie][usize::from(v % 3)]
}

fn two_threads() -> Threads {
    Threads::Fixed(NonZeroUsize::new(2).expect("2 is not zero"))
}

fuzz_target!(|input: Input| {
    let n = 2 + usize::from(input.items) % (MAX_ITEMS - 1);
    let Ok(mut data) = Comparisons::with_item_count(n) else {
        panic!("{n} items refused");
    };
    for &(a, b, v) in &input.records {
        // Out-of-range and self comparisons are errors that leave the list
        // unchanged.
        let before = data.len();
        if data
            .add(usize::from(a), usize::from(b), vote(v), None)
            .is_err()
        {
            assert_eq!(data.len(), before, "a refused record was kept");
        }
    }
    let mut rng = SplitMix(input.seed);
    for _ in 0..usize::from(input.generated) % (MAX_GENERATED + 1) {
        let a = (rng.next_u64() % n as u64) as usize;
        let b = (a + 1 + (rng.next_u64() % (n as u64 - 1)) as usize) % n;
        let v = vote((rng.next_u64() % 3) as u8);
        data.add(a, b, v, None).expect("a valid record");
    }

    let mut model = BradleyTerry::new().max_iterations(200);
    if let Some(sd) = input.prior {
        model = model
            .prior_sd(0.25 + f64::from(sd) / 16.0)
            .expect("a positive prior");
    }
    // Errors (an empty list, a disconnected graph without a prior, no
    // convergence) are fine; a panic is not.
    let Ok(fit) = model.fit(&data) else { return };
    assert!(
        fit.scores.iter().all(|s| s.is_finite()),
        "a non-finite score"
    );
    let mean = fit.scores.iter().sum::<f64>() / n as f64;
    assert!(mean.abs() < 1e-6, "scores not centred: mean {mean}");

    let opts = |threads| {
        Inference::new()
            .draws(2 + usize::from(input.draws))
            .expect("a valid number of draws")
            .seed(input.seed)
            .threads(threads)
    };
    let one = fit.standard_errors(&data, &opts(Threads::ONE));
    let two = fit.standard_errors(&data, &opts(two_threads()));
    match (&one, &two) {
        (Ok((se1, iv1)), Ok((se2, iv2))) => {
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(se1), bits(se2), "standard errors differ by threads");
            assert_eq!(iv1, iv2, "intervals differ by threads");
            assert!(se1.iter().all(|s| *s >= 0.0), "a negative standard error");
            if let Ok(u) = fit.uncertainty(&data, &opts(two_threads())) {
                assert_eq!(bits(&u.standard_errors), bits(se1), "uncertainty's SEs");
                assert!(
                    u.rank_intervals
                        .iter()
                        .all(|&[lo, hi]| 1 <= lo && lo <= hi && hi <= n),
                    "a rank interval outside 1..=n"
                );
            }
        }
        (Err(_), Err(_)) => {}
        _ => panic!("one thread and two disagree: {one:?} / {two:?}"),
    }

    if input.noisy {
        let _ = NoisyBradleyTerry::new().max_iterations(50).fit(&data);
    }
});
