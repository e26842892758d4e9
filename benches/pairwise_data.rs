//! The comparisons of the pairwise benches (shared by the criterion bench
//! and the phase timer): the shape of issue 35's performance bars and of
//! `benches/pairwise_compare.py`.

use adaptive_comp_metrics::pairwise::Comparisons;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// n items with scores N(0, 1) (Box–Muller), m comparisons of uniformly
/// drawn pairs by `workers` workers (the first tenth answer at random),
/// the winner drawn from the Bradley–Terry model.
pub fn comparisons(n: usize, m: usize, workers: usize, seed: u64) -> Comparisons {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let theta: Vec<f64> = (0..n)
        .map(|_| {
            let (u1, u2) = (1.0 - rng.random::<f64>(), rng.random::<f64>());
            (-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()
        })
        .collect();
    let mut c = Comparisons::with_item_count(n).expect("items");
    let names: Vec<String> = (0..workers).map(|w| format!("w{w}")).collect();
    let ids: Vec<usize> = names
        .iter()
        .map(|w| c.worker_index(w).expect("worker"))
        .collect();
    for _ in 0..m {
        let a = rng.random_range(0..n);
        let b = (a + rng.random_range(1..n)) % n;
        let w = rng.random_range(0..workers);
        let p = if w < workers / 10 {
            0.5
        } else {
            1.0 / (1.0 + (theta[b] - theta[a]).exp())
        };
        let (win, lose) = if rng.random::<f64>() < p {
            (a, b)
        } else {
            (b, a)
        };
        c.add(
            win,
            lose,
            adaptive_comp_metrics::ballot::Vote::First,
            Some(ids[w]),
        )
        .expect("comparison");
    }
    c
}
