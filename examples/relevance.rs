//! Scores a model's ranking of documents against graded relevance judgements.
//!
//! ```text
//! cargo run --example relevance -- JUDGEMENTS.csv MODEL.csv [K]
//! cargo run --example relevance            # the bundled sample files
//! ```
//!
//! JUDGEMENTS.csv has the columns `query,document,annotator,grade` (grades on
//! the PhraseRel scale −3…3); MODEL.csv has `query,document,score` (larger is
//! better). Other columns are ignored. Prints the PhraseRel classes per query,
//! then AP, P@K, R-precision, RR and nDCG@K per query (ties in model scores
//! resolved as the expectation over tie orders, loosely relevant documents
//! counting as relevant, linear gains from the mean judgement), their means,
//! and the rank-biased overlap (p = 0.9) of the model's ranking with the
//! ranking by mean judgement.

use adaptive_comp_metrics::relevance::{
    JudgementColumns, Options, Scale, ScoreColumns, Thresholds, evaluate_run, rbo_tied,
    read_judgements, read_run, tie_groups,
};
use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (judgement_path, model_path) = match args.as_slice() {
        [] => {
            let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", "relevance"]
                .iter()
                .collect();
            println!(
                "no files given: running on the bundled sample files in {}",
                dir.display()
            );
            (dir.join("judgements.csv"), dir.join("model.csv"))
        }
        [j, m] | [j, m, _] => (PathBuf::from(j), PathBuf::from(m)),
        _ => return Err("usage: relevance [JUDGEMENTS.csv MODEL.csv [K]]".into()),
    };
    let k = match args.get(2) {
        Some(k) => k.parse::<usize>().map_err(|e| format!("K: {e}"))?,
        None => 3,
    };

    let judgements = read_judgements(
        BufReader::new(File::open(&judgement_path)?),
        &JudgementColumns::default(),
        Scale::default(),
    )
    .map_err(|e| format!("{}: {e}", judgement_path.display()))?;
    let assessments = judgements.summarize(&Thresholds::default())?;
    let run = read_run(
        BufReader::new(File::open(&model_path)?),
        &ScoreColumns::default(),
    )
    .map_err(|e| format!("{}: {e}", model_path.display()))?;

    println!(
        "{} judgements of {} pairs, {} queries; model scores {} pairs",
        judgements.len(),
        judgements.pair_count(),
        assessments.queries().len(),
        run.len()
    );
    println!(
        "\n{:<28} {:>6} {:>6} {:>6} {:>8}",
        "query", "judged", "strict", "loose", "diverse"
    );
    for q in assessments.queries() {
        println!(
            "{:<28} {:>6} {:>6} {:>6} {:>8}",
            q.query, q.judged, q.strictly_relevant, q.loosely_relevant, q.diverse
        );
    }

    let options = Options {
        k,
        ..Options::default()
    };
    let report = evaluate_run(&assessments, &run, &options)?;
    let show = |v: Option<f64>| v.map_or_else(|| "   n/a".to_owned(), |v| format!("{v:6.4}"));
    println!(
        "\n{:<28} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6}",
        "query",
        "AP",
        format!("P@{k}"),
        "R-prec",
        "RR",
        format!("nDCG@{k}"),
        "RBO"
    );
    for q in &report.queries {
        let m = q.metrics;
        // RBO between the model's ranking and the ranking by mean judgement,
        // over the documents both rank.
        let (docs, scores): (Vec<&str>, Vec<f64>) = run
            .documents(&q.query)
            .filter(|(d, _)| assessments.pair(&q.query, d).is_some())
            .unzip();
        let means: Vec<f64> = docs
            .iter()
            .filter_map(|d| assessments.pair(&q.query, d).map(|p| p.stats.mean))
            .collect();
        let rbo = if docs.is_empty() {
            None
        } else {
            let model = tie_groups(&docs, &scores)?;
            let human = tie_groups(&docs, &means)?;
            Some(rbo_tied(&model, &human, 0.9)?.ext)
        };
        println!(
            "{:<28} {} {} {} {} {:>7} {}",
            q.query,
            show(m.average_precision),
            show(Some(m.precision_at_k)),
            show(m.r_precision),
            show(m.reciprocal_rank),
            show(m.ndcg_at_k),
            show(rbo)
        );
    }
    let mean = &report.mean;
    println!(
        "{:<28} {} {} {} {} {:>7}   (over {} queries)",
        "mean",
        show(mean.map.value),
        show(mean.precision_at_k.value),
        show(mean.r_precision.value),
        show(mean.mrr.value),
        show(mean.ndcg_at_k.value),
        mean.map.queries
    );
    if !report.unjudged_queries.is_empty() {
        println!(
            "queries nobody judged (skipped): {:?}",
            report.unjudged_queries
        );
    }
    if !report.unranked_queries.is_empty() {
        println!(
            "judged queries the model did not rank (scored as empty rankings): {:?}",
            report.unranked_queries
        );
    }
    let unjudged: usize = report.queries.iter().map(|q| q.unjudged).sum();
    if unjudged > 0 {
        println!("{unjudged} ranked documents nobody judged count as non-relevant");
    }
    Ok(())
}
