//! A TREC run scored against qrels as trec_eval scores it (read here from
//! strings). `cargo run --example relevance`.
//!
//! The command-line tool takes trec_eval's command line: `acm trec QRELS RUN`.

use adaptive_comp_metrics::relevance::{
    Ids, Measure, TrecOptions, evaluate_trec, read_trec_qrels, read_trec_run,
};

fn main() -> Result<(), adaptive_comp_metrics::relevance::RelevanceError> {
    let mut ids = Ids::new();
    let qrels = read_trec_qrels(
        "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n".as_bytes(),
        &mut ids,
    )?;
    let run = read_trec_run(
        "q1 Q0 d3 1 0.9 sys\nq1 Q0 d2 2 0.8 sys\nq1 Q0 d1 3 0.8 sys\nq2 Q0 d4 1 0.5 sys\n"
            .as_bytes(),
        &mut ids,
    )?;
    let measures = [
        Measure::AveragePrecision,
        Measure::Precision(2),
        Measure::NdcgCut(10),
    ];
    let report = evaluate_trec(&qrels, &run, &measures, &TrecOptions::default())?;
    for (m, mean) in measures.iter().zip(&report.summary) {
        println!(
            "{:<22}\tall\t{:.4}",
            m.to_string(),
            mean.value.unwrap_or(0.0)
        );
    }
    Ok(())
}
