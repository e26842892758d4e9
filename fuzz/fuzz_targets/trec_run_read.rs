//! Arbitrary bytes as a TREC run: never a panic; whatever parses is ranked
//! in trec_eval's order and scores (against fixed qrels) in range in every
//! mode; what the lenient syntax reads, trec_eval's reads too (it may skip
//! more lines as comments, so that its last line, whose tag names the run,
//! may be another one, not UTF-8), and whatever trec_eval's reads scores
//! too.
#![no_main]

use adaptive_comp_metrics::relevance::{
    Ids, RelevanceError, TrecSyntax, read_trec_qrels, read_trec_run, read_trec_run_with,
};
use libfuzzer_sys::fuzz_target;

#[path = "trec_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut ids = Ids::new();
    let qrels_text = common::companion(false);
    let Ok(qrels) = read_trec_qrels(qrels_text.as_bytes(), &mut ids) else {
        panic!("the companion qrels are well formed");
    };
    let lenient = read_trec_run(data, &mut Ids::new());
    match read_trec_run_with(data, &mut ids, TrecSyntax::TrecEval) {
        Ok(run) => {
            if let Ok(l) = &lenient {
                assert!(run.len() <= l.len());
            }
            common::check(&ids, &qrels, &run);
        }
        Err(e) => assert!(
            lenient.is_err() || matches!(e, RelevanceError::NotUtf8 { .. }),
            "trec_eval's syntax refuses what the lenient one reads: {e}"
        ),
    }
});
