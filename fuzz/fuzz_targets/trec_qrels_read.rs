//! Arbitrary bytes as a TREC qrels file: never a panic; whatever parses is
//! well formed and scores (against a fixed run) in range in every mode;
//! trec_eval's syntax accepts a subset of what the lenient one does (it
//! refuses blank lines), with the same judgements.
#![no_main]

use adaptive_comp_metrics::relevance::{
    Ids, TrecSyntax, read_trec_qrels, read_trec_qrels_with, read_trec_run,
};
use libfuzzer_sys::fuzz_target;

#[path = "trec_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut ids = Ids::new();
    let strict = read_trec_qrels_with(data, &mut Ids::new(), TrecSyntax::TrecEval);
    let Ok(qrels) = read_trec_qrels(data, &mut ids) else {
        assert!(strict.is_err(), "trec_eval's syntax accepts what the lenient one refuses");
        return;
    };
    if let Ok(strict) = strict {
        assert_eq!(strict.len(), qrels.len());
    }
    let run_text = common::companion(true);
    let Ok(run) = read_trec_run(run_text.as_bytes(), &mut ids) else {
        panic!("the companion run is well formed");
    };
    common::check(&ids, &qrels, &run);
});
