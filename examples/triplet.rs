//! The reliability-weighted triplet score (Avraham & Goldberg 2016) of toy
//! word vectors on a toy dataset. `cargo run --example triplet`.
//!
//! The command-line tool scores files: `acm triplets DATASET VECTORS`.

use adaptive_comp_metrics::triplet::{TiePolicy, Vectors, read_dataset, score};

fn main() -> Result<(), adaptive_comp_metrics::triplet::TripletError> {
    let dataset = "singer\nperson,0.1,musician,0.9\ndistractors\nmusician,1,song,0\n";
    let comparisons = read_dataset(dataset.as_bytes())?;
    let vectors = Vectors::from_pairs(
        2,
        [
            ("singer", [1.0f32, 0.0]),
            ("musician", [0.9, 0.1]),
            ("person", [0.5, 0.5]),
            ("song", [0.0, 1.0]),
        ],
    )?;
    let s = score(&comparisons, &vectors, TiePolicy::default())?;
    println!(
        "{} comparisons: score {:?}",
        comparisons.len(),
        s.overall.score()
    );
    Ok(())
}
