//! Arbitrary bytes as a TREC run: never a panic; whatever parses is ranked
//! in trec_eval's order and scores (against fixed qrels) in range in every
//! mode.
#![no_main]

use adaptive_comp_metrics::relevance::{Ids, read_trec_qrels, read_trec_run};
use libfuzzer_sys::fuzz_target;

#[path = "trec_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut ids = Ids::new();
    let qrels_text = common::companion(false);
    let Ok(qrels) = read_trec_qrels(qrels_text.as_bytes(), &mut ids) else {
        panic!("the companion qrels are well formed");
    };
    let Ok(run) = read_trec_run(data, &mut ids) else {
        return;
    };
    common::check(&ids, &qrels, &run);
});
