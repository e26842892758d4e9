//! Arbitrary bytes as a TREC qrels file: never a panic; whatever parses is
//! well formed and scores (against a fixed run) in range in every mode.
#![no_main]

use adaptive_comp_metrics::relevance::{Ids, read_trec_qrels, read_trec_run};
use libfuzzer_sys::fuzz_target;

#[path = "trec_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut ids = Ids::new();
    let Ok(qrels) = read_trec_qrels(data, &mut ids) else {
        return;
    };
    let run_text = common::companion(true);
    let Ok(run) = read_trec_run(run_text.as_bytes(), &mut ids) else {
        panic!("the companion run is well formed");
    };
    common::check(&ids, &qrels, &run);
});
