//! `trec_eval`'s rules in the library (issue 38 item 1): `-M` as a read
//! option (`read_trec_run_top`, `RunBuilder::keep_top`) and the summary
//! `trec_eval` prints (`TrecReport::trec_eval_summary`), each against the
//! way `acm trec` computed them before they moved here (kept below as the
//! oracle: the run's text with the lines past the cut blanked and read
//! again; plain sums in query-name order).

// Bit-identical sums are the point.
#![allow(clippy::float_cmp)]

use std::collections::HashMap;

use adaptive_comp_metrics::relevance::{
    Ids, Measure, Qrels, RelevanceError, TrecEvalVersion, TrecOptions, TrecRun, TrecSyntax,
    evaluate_trec, read_trec_qrels, read_trec_run_top, read_trec_run_with,
};
use proptest::prelude::*;

/// The run's text with only the first `max` documents of each query (in
/// `trec_eval`'s order for `version`: decreasing score, as `f32` for 9;
/// ties by decreasing docno, then file order) and the other lines blanked:
/// how `acm trec -M` cut a run before the library could.
fn blank_past_the_cut(text: &str, max: usize, version: TrecEvalVersion) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut by_query: HashMap<&str, Vec<(f64, &str, usize)>> = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        let f: Vec<&str> = l.split_ascii_whitespace().collect();
        if l.starts_with('#') || f.first().is_some_and(|q| q.starts_with('#')) {
            continue;
        }
        if let [qid, _, docno, _, score, _tag, ..] = f.as_slice()
            && let Ok(s) = score.parse::<f64>()
        {
            let key = match version {
                TrecEvalVersion::V9 => f64::from(s as f32),
                _ => s,
            };
            by_query.entry(qid).or_default().push((key, docno, i));
        }
    }
    let mut drop = vec![false; lines.len()];
    for docs in by_query.values_mut() {
        docs.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(a.1)));
        for d in docs.iter().skip(max) {
            drop[d.2] = true;
        }
    }
    lines
        .iter()
        .zip(&drop)
        .map(|(l, &d)| if d { "" } else { *l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each query's documents (by name) and scores, in rank order, and the
/// run's name.
type Ranked = (Vec<(String, Vec<String>, Vec<f64>)>, Option<String>);

fn ranked(run: &TrecRun, ids: &Ids) -> Ranked {
    let queries = run
        .queries()
        .iter()
        .map(|&q| {
            let (docs, scores) = run.ranking(q).unwrap_or_default();
            let names = docs
                .iter()
                .map(|&d| ids.documents().name(d).unwrap_or("?").to_owned())
                .collect();
            (
                ids.queries().name(q).unwrap_or("?").to_owned(),
                names,
                scores.to_vec(),
            )
        })
        .collect();
    (queries, run.name().map(str::to_owned))
}

/// `read_trec_run_top` against reading the blanked text: the same run, or
/// the same error.
fn same_as_blanking(text: &str, max: usize, version: TrecEvalVersion) -> Result<(), TestCaseError> {
    let (mut a, mut b) = (Ids::new(), Ids::new());
    let top = read_trec_run_top(text.as_bytes(), &mut a, TrecSyntax::TrecEval, max, version);
    let blanked = blank_past_the_cut(text, max, version);
    let oracle = read_trec_run_with(blanked.as_bytes(), &mut b, TrecSyntax::TrecEval);
    match (top, oracle) {
        (Ok(top), Ok(oracle)) => {
            let (tq, tname) = ranked(&top, &a);
            let (oq, _) = ranked(&oracle, &b);
            prop_assert_eq!(tq, oq);
            // The name is the tag of the file's last line, cut or not.
            let whole = read_trec_run_with(text.as_bytes(), &mut Ids::new(), TrecSyntax::TrecEval);
            if let Ok(whole) = whole {
                prop_assert_eq!(tname.as_deref(), whole.name());
            }
        }
        (Err(e), Err(o)) => prop_assert_eq!(e, o),
        (t, o) => prop_assert!(false, "read_trec_run_top {t:?}, blanked {o:?}"),
    }
    Ok(())
}

/// `text` read as `trec_eval` reads a run, cut at `max` documents a query
/// in `version`'s order.
fn top(
    text: &str,
    ids: &mut Ids,
    max: usize,
    version: TrecEvalVersion,
) -> Result<TrecRun, RelevanceError> {
    read_trec_run_top(text.as_bytes(), ids, TrecSyntax::TrecEval, max, version)
}

#[test]
fn the_cut_keeps_the_top_of_each_query_in_trec_evals_order() -> Result<(), RelevanceError> {
    let text = "q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.9 r\nq1 Q0 c 3 0.5 r\nq2 Q0 a 1 1 last\n";
    let mut ids = Ids::new();
    let run = top(text, &mut ids, 2, TrecEvalVersion::V10)?;
    let (queries, name) = ranked(&run, &ids);
    // b (0.9) then c (0.5, docno c > a); the runid is the last line's tag.
    assert_eq!(queries[0].1, ["b", "c"]);
    assert_eq!(queries[1].1, ["a"]);
    assert_eq!(name.as_deref(), Some("last"));
    // As floats (trec_eval 9), 1 + 1e-9 ties with 1, and "z" > "y" goes first.
    let text = "q Q0 y 1 1.000000001 r\nq Q0 z 2 1 r\n";
    for (version, kept) in [(TrecEvalVersion::V10, "y"), (TrecEvalVersion::V9, "z")] {
        let mut ids = Ids::new();
        let run = top(text, &mut ids, 1, version)?;
        assert_eq!(ranked(&run, &ids).0[0].1, [kept], "{version:?}");
    }
    Ok(())
}

#[test]
fn a_duplicate_past_the_cut_is_no_error_as_in_trec_eval() -> Result<(), RelevanceError> {
    // trec_eval's form_res_rels looks for duplicate documents among the
    // first -M only.
    let text = "q Q0 a 1 0.9 r\nq Q0 b 2 0.8 r\nq Q0 a 3 0.1 r\n";
    let mut ids = Ids::new();
    let run = top(text, &mut ids, 2, TrecEvalVersion::V10)?;
    assert_eq!(run.len(), 2);
    let kept = top(text, &mut Ids::new(), 3, TrecEvalVersion::V10);
    assert!(
        matches!(kept, Err(RelevanceError::DuplicateScore { .. })),
        "{kept:?}"
    );
    // A bad line is an error wherever it is.
    let bad = "q Q0 a 1 0.9 r\nq Q0 b 2 x r\n";
    let e = read_trec_run_top(
        bad.as_bytes(),
        &mut Ids::new(),
        TrecSyntax::TrecEval,
        1,
        TrecEvalVersion::V10,
    );
    assert_eq!(e.map(|r| r.len()).map_err(|e| e.line()), Err(Some(2)));
    Ok(())
}

/// A run line from its parts (query 0..3, document 0..6, a score drawn
/// from few values so that ties, and `f32` ties, are common).
fn run_text(lines: &[(u8, u8, u8)]) -> String {
    const SCORES: [&str; 5] = ["0.5", "0.25", "1.000000001", "1", "0.5000000001"];
    lines
        .iter()
        .enumerate()
        .map(|(i, &(q, d, s))| {
            format!(
                "q{q} Q0 d{d} {i} {} tag{}\n",
                SCORES[usize::from(s) % 5],
                i % 3
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Cutting as the library reads gives the run (or the error) that
    /// reading the blanked text gave, duplicates included, on both
    /// releases' orders.
    #[test]
    fn the_cut_equals_blanking_the_lines_past_it(
        lines in prop::collection::vec((0u8..3, 0u8..6, 0u8..5), 0..40),
        max in 1usize..6,
        v9 in any::<bool>(),
    ) {
        let version = if v9 { TrecEvalVersion::V9 } else { TrecEvalVersion::V10 };
        same_as_blanking(&run_text(&lines), max, version)?;
    }
}

/// `trec_eval`'s summary as `acm trec` computed it: per-query values
/// (undefined as the measure's value when undefined) added in query-name
/// order, divided by the number of queries; counts summed; with `-c`,
/// `num_rel` counts the grades above 0; release 9 adds the `gm_map` of the
/// unranked queries last.
fn summary_oracle(
    qrels: &Qrels,
    ids: &Ids,
    report: &adaptive_comp_metrics::relevance::TrecReport,
    options: &TrecOptions,
) -> Vec<Option<f64>> {
    let mut rows: Vec<(String, Vec<Option<f64>>, bool)> = report
        .rows()
        .map(|(q, v)| {
            let name = ids.queries().name(q).unwrap_or("?").to_owned();
            (name, v.to_vec(), !report.unranked_queries.contains(&q))
        })
        .collect();
    rows.sort_by(|x, y| x.0.as_bytes().cmp(y.0.as_bytes()));
    let positive: usize = qrels
        .queries()
        .iter()
        .map(|&q| {
            qrels
                .judgements(q)
                .map_or(0, |(_, g)| g.iter().filter(|&&g| g > 0).count())
        })
        .sum();
    report
        .measures
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let undefined = m.value_if_undefined();
            // Release 9 adds the gm_map of the unranked queries last.
            let late = m == Measure::GeometricMap && options.version == TrecEvalVersion::V9;
            let (now, later): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r.2 || !late);
            let total = now.iter().fold(0.0, |s, r| s + r.1[i].unwrap_or(undefined))
                + later.len() as f64 * undefined;
            let mean = total / rows.len() as f64;
            match m {
                Measure::Relevant if options.complete => Some(positive as f64),
                _ if m.is_count() => Some(total),
                _ if rows.is_empty() => None,
                Measure::GeometricMap => Some(mean.exp()),
                _ => Some(mean),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The library's `trec_eval` summary is the CLI's, bit for bit, over
    /// both releases, with and without `-c` and a relevance level of 1 or 2.
    #[test]
    fn the_trec_eval_summary_is_the_one_acm_trec_printed(
        judged in prop::collection::vec((0u8..4, 0u8..6, -1i32..3), 1..40),
        lines in prop::collection::vec((0u8..3, 0u8..6, 0u8..5), 1..40),
        complete in any::<bool>(),
        v9 in any::<bool>(),
        level in 1i32..3,
    ) {
        let mut seen = std::collections::HashSet::new();
        let qrels_text: String = judged
            .iter()
            .filter(|(q, d, _)| seen.insert((*q, *d)))
            .map(|(q, d, g)| format!("q{q} 0 d{d} {g}\n"))
            .collect();
        let mut seen = std::collections::HashSet::new();
        let run_lines: Vec<_> = lines.into_iter().filter(|(q, d, _)| seen.insert((*q, *d))).collect();
        let mut ids = Ids::new();
        let qrels = read_trec_qrels(qrels_text.as_bytes(), &mut ids).unwrap();
        let run = read_trec_run_with(run_text(&run_lines).as_bytes(), &mut ids, TrecSyntax::TrecEval).unwrap();
        let options = TrecOptions {
            relevance_level: level,
            complete,
            version: if v9 { TrecEvalVersion::V9 } else { TrecEvalVersion::V10 },
            ..TrecOptions::default()
        };
        let measures = [
            Measure::Queries, Measure::Retrieved, Measure::Relevant, Measure::RelevantRetrieved,
            Measure::AveragePrecision, Measure::GeometricMap, Measure::RPrecision, Measure::Bpref,
            Measure::ReciprocalRank, Measure::Precision(5), Measure::Ndcg, Measure::NdcgCut(3),
        ];
        let report = evaluate_trec(&qrels, &run, &measures, &options).unwrap();
        let got = report.trec_eval_summary(&qrels, &ids, &options);
        let want = summary_oracle(&qrels, &ids, &report, &options);
        let bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
        prop_assert_eq!(bits(&got), bits(&want));
        // The order: by query name as text.
        let names: Vec<&str> = report
            .trec_eval_order(&ids)
            .iter()
            .filter_map(|&r| ids.queries().name(report.queries[r]))
            .collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        prop_assert_eq!(names, sorted);
    }
}
