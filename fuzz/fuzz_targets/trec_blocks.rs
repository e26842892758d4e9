//! The TREC readers' block pipeline with small sizes (issue 39: with 64 KiB
//! chunks and 4 KB inputs no target reached it): chunks of 1 to 64 bytes,
//! blocks up to 512, helper threads from 0 to 1024 bytes on, so that block
//! splitting, lines across block boundaries, later blocks in flight and the
//! switch from the one-thread start to the helpers are all reached. The
//! same bytes read on 1, 2 and 3 threads, and with the readers' own sizes,
//! give the same qrels or run (every id, grade and score, in order) or the
//! same error; `-M` too.
#![no_main]

use adaptive_comp_metrics::relevance::fuzzing::{read_qrels_sized, read_run_sized};
use adaptive_comp_metrics::relevance::{
    Ids, Qrels, TrecEvalVersion, TrecRun, TrecSyntax, read_trec_qrels_with, read_trec_run_top,
    read_trec_run_with,
};
use libfuzzer_sys::{arbitrary, fuzz_target};

#[derive(Debug, arbitrary::Arbitrary)]
struct Input<'a> {
    chunk: u8,
    block: u16,
    parallel_from: u16,
    run: bool,
    lenient: bool,
    top: u8,
    data: &'a [u8],
}

/// Everything read, by name: (query, [(document, value as bits)]) in order,
/// and the run's name.
type Dump = (Vec<(String, Vec<(String, u64)>)>, Option<String>);

fn dump_qrels(q: &Qrels, ids: &Ids) -> Dump {
    let rows = rows(q.queries(), ids, |query| {
        let (docs, grades) = q.judgements(query).unwrap_or_default();
        (docs, grades.iter().map(|&g| g as u64).collect())
    });
    (rows, None)
}

fn dump_run(r: &TrecRun, ids: &Ids) -> Dump {
    let rows = rows(r.queries(), ids, |query| {
        let (docs, scores) = r.ranking(query).unwrap_or_default();
        (docs, scores.iter().map(|s| s.to_bits()).collect())
    });
    (rows, r.name().map(str::to_owned))
}

/// Each query by name with its documents by name and their values
/// (`of(query)`), in order.
fn rows<'a>(
    queries: &[u32],
    ids: &Ids,
    of: impl Fn(u32) -> (&'a [u32], Vec<u64>),
) -> Vec<(String, Vec<(String, u64)>)> {
    queries
        .iter()
        .map(|&query| {
            let (docs, values) = of(query);
            (name(ids.queries().name(query)), entries(ids, docs, values.into_iter()))
        })
        .collect()
}

fn entries(ids: &Ids, docs: &[u32], values: impl Iterator<Item = u64>) -> Vec<(String, u64)> {
    docs.iter().map(|&d| name(ids.documents().name(d))).zip(values).collect()
}

fn name(n: Option<&str>) -> String {
    n.unwrap_or("?").to_owned()
}

fuzz_target!(|input: Input<'_>| {
    let chunk = usize::from(input.chunk % 64) + 1;
    let block = chunk.max(usize::from(input.block % 512) + 1);
    let sizes = (chunk, block, usize::from(input.parallel_from % 1025));
    let syntax = if input.lenient { TrecSyntax::Lenient } else { TrecSyntax::TrecEval };
    let top = (input.top > 0).then(|| {
        let version = if input.top % 2 == 0 { TrecEvalVersion::V9 } else { TrecEvalVersion::V10 };
        (usize::from(input.top % 8) + 1, version)
    });
    let read = |threads: usize| {
        let mut ids = Ids::new();
        if input.run {
            read_run_sized(input.data, &mut ids, syntax, top, sizes, threads).map(|r| dump_run(&r, &ids))
        } else {
            read_qrels_sized(input.data, &mut ids, syntax, sizes, threads).map(|q| dump_qrels(&q, &ids))
        }
    };
    let one = read(1);
    for threads in [2, 3] {
        assert_eq!(read(threads), one, "{threads} threads, sizes {sizes:?}");
    }
    // The readers' own sizes (the whole input on one thread, being small).
    let mut ids = Ids::new();
    let default = if input.run {
        match top {
            Some((max, version)) => read_trec_run_top(input.data, &mut ids, syntax, max, version),
            None => read_trec_run_with(input.data, &mut ids, syntax),
        }
        .map(|r| dump_run(&r, &ids))
    } else {
        read_trec_qrels_with(input.data, &mut ids, syntax).map(|q| dump_qrels(&q, &ids))
    };
    assert_eq!(default, one, "the readers' own sizes, sizes {sizes:?}");
});
