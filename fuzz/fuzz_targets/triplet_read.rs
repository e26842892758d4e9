//! Arbitrary bytes through the dataset and word2vec readers: no panics;
//! whatever is read scores within [0, 1] and survives a write–read round trip.
#![no_main]

use adaptive_comp_metrics::triplet::{
    Decimals, TiePolicy, read_dataset, read_word2vec, score, write_dataset,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    dataset: &'a [u8],
    vectors: &'a [u8],
}

fuzz_target!(|input: Input<'_>| {
    let dataset = read_dataset(input.dataset);
    let v32 = read_word2vec::<f32, _>(input.vectors);
    let v64 = read_word2vec::<f64, _>(input.vectors);
    // Every f32 file is an f64 file (f64 accepts a superset of values).
    assert!(!(v32.is_ok() && v64.is_err()));
    let Ok(comparisons) = dataset else { return };
    for c in &comparisons {
        assert!((0.0..=1.0).contains(&c.reliability));
    }
    // Round trip with the shortest exact decimals.
    let mut out = Vec::new();
    if write_dataset(&mut out, &comparisons, Decimals::Shortest).is_ok() {
        let back = read_dataset(out.as_slice()).expect("written datasets read back");
        assert_eq!(back.len(), comparisons.len());
    }
    let Ok(vectors) = v64 else { return };
    for ties in [
        TiePolicy::HalfCredit,
        TiePolicy::ChooseSecond,
        TiePolicy::Skip,
    ] {
        let s =
            score(&comparisons, &vectors, ties).expect("valid reliabilities and finite cosines");
        for t in [s.overall, s.positive, s.distractor, s.random] {
            if let Some(x) = t.score() {
                assert!((0.0..=1.0).contains(&x));
            }
            assert_eq!(t.total(), t.scored + t.unknown + t.skipped_ties);
        }
        assert_eq!(s.overall.total(), comparisons.len());
    }
});
