//! The adaptive ballot scheduler of Lombardo et al. (2020), §2, driven by a
//! perfect voter. `cargo run --features scheduler --example ballot`.
//!
//! A real collection through files (MTurk batches) runs with `acm campaign`.

use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Unvoted, Vote, plan};
use rand::SeedableRng;

fn main() -> Result<(), adaptive_comp_metrics::ballot::BallotError> {
    let config = BallotConfig::new(200, 10, 0.5, 4)?;
    println!(
        "{} comparisons in all, known before voting",
        plan(&config).total_comparisons
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut s = Scheduler::new(config);
    while let Ok(comparisons) = s.open_ballot(&mut rng) {
        let comparisons = comparisons.to_vec();
        for (ticket, c) in comparisons.iter().enumerate() {
            // The smaller item index is the more related pair.
            let vote = if c.first < c.second {
                Vote::First
            } else {
                Vote::Second
            };
            s.record(ticket, vote)?;
        }
        s.close_ballot(Unvoted::Reject)?;
    }
    let ranking = s.ranking(&mut rng)?;
    for e in ranking.entries.iter().take(5) {
        println!(
            "item {:>3}: score {:.3}, last ballot {}",
            e.item, e.score, e.last_ballot
        );
    }
    Ok(())
}
