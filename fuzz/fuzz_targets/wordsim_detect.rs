//! Arbitrary bytes through layout detection (`PairFormat::detect`,
//! `Benchmark::read_detected`) with a file name that names each layout or
//! none: no panics; a detection's layout reads back from its name; a whole
//! sample that is text with a final line end reads with the detected format
//! (its pairs are what `read_detected` gives, or the one failure detection
//! does not look for, an empty word), and `read_detected` chooses the same.
//!
//! Input: byte 0 = the file name (one per layout, a plain name, none), the
//! rest = the file.
#![no_main]

use adaptive_comp_metrics::wordsim::{
    Benchmark, Chosen, DETECTION_SAMPLE, Layout, PairFormat, PairProblem, WordsimError, read_pairs,
};
use libfuzzer_sys::fuzz_target;

const NAMES: [Option<&str>; 10] = [
    None,
    Some("pairs.txt"),
    Some("combined.csv"),
    Some("SimLex-999.txt"),
    Some("MEN_dataset_lemma_form_full"),
    Some("EN-RG-65.txt"),
    Some("EN-MC-30.txt"),
    Some("MTURK-771.csv"),
    Some("rw.txt"),
    Some("SimVerb-3500.txt"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, file)) = data.split_first() else { return };
    let name = NAMES[usize::from(choice) % NAMES.len()];
    // read_detected looks at the first DETECTION_SAMPLE bytes: all of a
    // fuzz input but the longest.
    let sampled = file.len() <= DETECTION_SAMPLE;
    let read = Benchmark::read_detected("fuzz", file, name);
    let d = match PairFormat::detect(file, name) {
        Ok(d) => d,
        Err(e) => {
            if sampled {
                // The same sample fails the same way.
                assert_eq!(read.map(|_| ()), Err(e));
            }
            return;
        }
    };
    if let Some(layout) = d.layout {
        assert_eq!(Layout::from_name(layout.name()), Some(layout));
    }
    assert!(d.chosen != Chosen::FileName || name.is_some());
    let whole = sampled && std::str::from_utf8(file).is_ok() && file.ends_with(b"\n");
    if !whole {
        return;
    }
    match read_pairs(file, &d.format) {
        Ok(pairs) => {
            assert!(!pairs.is_empty());
            let (b, again) = read.expect("read_detected reads what its detection reads");
            assert_eq!(again, d);
            assert_eq!(b.pairs(), &pairs[..]);
        }
        Err(WordsimError::Line { problem: PairProblem::EmptyWord { .. }, .. }) => {}
        Err(e) => panic!("the detected format {d} fails on its own sample: {e}"),
    }
});
