//! `acm relevance`: a model's scores against graded judgements by several
//! annotators (CSV), with tie-aware measures, PhraseRel's classes per query
//! and the rank-biased overlap with the ranking by mean judgement.

use std::path::PathBuf;

use adaptive_comp_metrics::relevance::{
    JudgementColumns, Measure, NoRelevant, Options, Scale, ScoreColumns, Thresholds, evaluate_run,
    rbo_tied, read_judgements, read_run, tie_groups,
};

use crate::error::{Failure, Outcome};
use crate::input;
use crate::output::{Ctx, Format, MeasureReport, Out};

const AFTER: &str = "\
JUDGEMENTS has the columns query,document,annotator,grade (PhraseRel scale −3…3; a pair is relevant
when loosely relevant, its gain is its mean grade), MODEL the columns query,document,score. Ties in
the model's scores are scored as the expectation over their orders. K sets the cut-off of the
default measures (map, P_K, Rprec, recip_rank, ndcg_cut_K); -m chooses others (trec_eval's names).
For TREC qrels and runs, use acm trec.

Examples:
  acm relevance tests/data/relevance/judgements.csv tests/data/relevance/model.csv 3
  acm relevance judgements.csv model.csv -q -m map -m ndcg_cut.5 --format csv";

/// Scores a model's scores against graded judgements by several annotators (CSV files).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The judgements (CSV: query,document,annotator,grade).
    pub judgements: PathBuf,
    /// The model's scores (CSV: query,document,score).
    pub model: PathBuf,
    /// Cut-off of the default measures.
    #[arg(value_parser = clap::value_parser!(u32).range(1..))]
    pub k: Option<u32>,
    /// Per-query values too.
    #[arg(short = 'q')]
    pub per_query: bool,
    /// A measure or family with cut-offs (trec_eval's names: map, P.5,10, ndcg_cut.10, …).
    #[arg(short = 'm', value_name = "MEASURE", value_parser = parse_measures)]
    pub measures: Vec<Measures>,
    /// Leave queries without a relevant document out of the means (default: they score 0).
    #[arg(long)]
    pub skip_no_relevant: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The measures of one `-m` option.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures(pub Vec<Measure>);

fn parse_measures(s: &str) -> Result<Measures, String> {
    let computed = |m: &Measure| {
        matches!(
            m,
            Measure::AveragePrecision
                | Measure::Precision(_)
                | Measure::RPrecision
                | Measure::ReciprocalRank
                | Measure::NdcgCut(_)
                | Measure::Ndcg
                | Measure::Retrieved
                | Measure::Relevant
        )
    };
    let known =
        "acm relevance computes map, Rprec, recip_rank, P, ndcg, ndcg_cut, num_ret, num_rel";
    match Measure::parse_list(s) {
        Ok(list) if list.iter().all(computed) => Ok(Measures(list)),
        // trec_eval's other measures (bpref, …) are `acm trec`'s.
        Ok(_) => Err(format!(
            "unknown measure {s:?}: {known} (acm trec has trec_eval's others)"
        )),
        Err(e) => Err(format!("{e}: {known}")),
    }
}

/// What gets printed: per query values and the summary row.
struct Scored {
    run: String,
    measures: Vec<Measure>,
    rows: Vec<(String, Vec<Option<f64>>)>,
    summary: Vec<Option<f64>>,
    no_relevant: NoRelevant,
}

/// Reads both files, prints the classes and overlaps (table format) and
/// the measures.
///
/// # Errors
/// A malformed file (with its line), a file without records.
pub fn run(a: &Args, _ctx: &Ctx, out: &mut Out) -> Outcome {
    let k = a.k.map(|k| k as usize);
    let measures: Vec<Measure> = if a.measures.is_empty() {
        match k {
            Some(k) => vec![
                Measure::AveragePrecision,
                Measure::Precision(k),
                Measure::RPrecision,
                Measure::ReciprocalRank,
                Measure::NdcgCut(k),
            ],
            None => Measure::STANDARD.to_vec(),
        }
    } else {
        a.measures
            .iter()
            .flat_map(|m| m.0.iter().copied())
            .collect()
    };
    let no_relevant = if a.skip_no_relevant {
        NoRelevant::Skip
    } else {
        NoRelevant::Zero
    };
    let judgements = read_judgements(
        input::open(&a.judgements)?,
        &JudgementColumns::default(),
        Scale::default(),
    )
    .map_err(|e| Failure::in_file(&a.judgements, &e))?;
    if judgements.is_empty() {
        return Err(Failure::new("no judgements: the file has no record").file(&a.judgements));
    }
    let assessments = judgements.summarize(&Thresholds::default())?;
    let run = read_run(input::open(&a.model)?, &ScoreColumns::default())
        .map_err(|e| Failure::in_file(&a.model, &e))?;
    if run.is_empty() {
        return Err(Failure::new("no scores: the file has no record").file(&a.model));
    }
    if a.format == Format::Table {
        writeln!(
            out,
            "{} judgements of {} pairs, {} queries; model scores {} pairs",
            judgements.len(),
            judgements.pair_count(),
            assessments.queries().len(),
            run.len()
        )?;
        writeln!(
            out,
            "\n{:<28} {:>6} {:>6} {:>6} {:>8}",
            "query", "judged", "strict", "loose", "diverse"
        )?;
        for q in assessments.queries() {
            writeln!(
                out,
                "{:<28} {:>6} {:>6} {:>6} {:>8}",
                q.query, q.judged, q.strictly_relevant, q.loosely_relevant, q.diverse
            )?;
        }
        writeln!(
            out,
            "\nrank-biased overlap (p = 0.9) with the ranking by mean judgement:"
        )?;
        for q in assessments.queries() {
            let (docs, scores): (Vec<&str>, Vec<f64>) = run
                .documents(&q.query)
                .filter(|(d, _)| assessments.pair(&q.query, d).is_some())
                .unzip();
            let means: Vec<f64> = docs
                .iter()
                .filter_map(|d| assessments.pair(&q.query, d).map(|p| p.stats.mean))
                .collect();
            if docs.is_empty() {
                writeln!(out, "{:<28} n/a", q.query)?;
            } else {
                let model = tie_groups(&docs, &scores)?;
                let human = tie_groups(&docs, &means)?;
                writeln!(
                    out,
                    "{:<28} {:.4}",
                    q.query,
                    rbo_tied(&model, &human, 0.9)?.ext
                )?;
            }
        }
        writeln!(out)?;
    }
    // One evaluation per distinct cut-off (ndcg: the whole ranking).
    let cut = |m: &Measure| match m {
        Measure::Ndcg => usize::MAX,
        other => other.cutoff().unwrap_or(10),
    };
    let mut rows: Vec<(String, Vec<Option<f64>>)> = assessments
        .queries()
        .iter()
        .map(|q| (q.query.clone(), vec![None; measures.len()]))
        .collect();
    let mut summary = vec![None; measures.len()];
    for (i, m) in measures.iter().enumerate() {
        let options = Options {
            k: cut(m),
            no_relevant,
            ..Options::default()
        };
        let report = evaluate_run(&assessments, &run, &options)?;
        for (row, q) in rows.iter_mut().zip(&report.queries) {
            let x = q.metrics;
            if let Some(slot) = row.1.get_mut(i) {
                *slot = match m {
                    Measure::AveragePrecision => x.average_precision,
                    Measure::Precision(_) => Some(x.precision_at_k),
                    Measure::RPrecision => x.r_precision,
                    Measure::ReciprocalRank => x.reciprocal_rank,
                    Measure::NdcgCut(_) | Measure::Ndcg => x.ndcg_at_k,
                    Measure::Retrieved => Some(x.ranked as f64),
                    Measure::Relevant => Some(x.relevant as f64),
                    _ => None,
                };
            }
        }
        if let Some(slot) = summary.get_mut(i) {
            *slot = match m {
                Measure::AveragePrecision => report.mean.map.value,
                Measure::Precision(_) => report.mean.precision_at_k.value,
                Measure::RPrecision => report.mean.r_precision.value,
                Measure::ReciprocalRank => report.mean.mrr.value,
                Measure::NdcgCut(_) | Measure::Ndcg => report.mean.ndcg_at_k.value,
                Measure::Retrieved | Measure::Relevant => Some(
                    rows.iter()
                        .filter_map(|r| r.1.get(i).copied().flatten())
                        .sum(),
                ),
                _ => None,
            };
        }
    }
    let scored = Scored {
        run: a
            .model
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        measures,
        rows,
        summary,
        no_relevant,
    };
    write(&scored, a, out)
}

/// An undefined value is 0 (as trec_eval prints it) unless queries without
/// a relevant document are skipped.
fn shown(v: Option<f64>, policy: NoRelevant) -> Option<f64> {
    match policy {
        NoRelevant::Zero => Some(v.unwrap_or(0.0)),
        _ => v,
    }
}

/// The values as trec_eval's JSON and CSV show them.
fn measure_report<'a>(s: &'a Scored, a: &Args) -> MeasureReport<'a> {
    MeasureReport {
        run: &s.run,
        measures: &s.measures,
        num_q: s.rows.len(),
        queries: a.per_query.then(|| {
            s.rows
                .iter()
                .map(|(q, v)| {
                    (
                        q.as_str(),
                        v.iter().map(|x| shown(*x, s.no_relevant)).collect(),
                    )
                })
                .collect()
        }),
        all: Some(s.summary.clone()),
    }
}

fn write(s: &Scored, a: &Args, out: &mut Out) -> Outcome {
    match a.format {
        Format::Table => {
            let cell = |m: &Measure, v: Option<f64>| match v {
                None => "NA".to_owned(),
                Some(x) if m.is_count() => format!("{x:.0}"),
                Some(x) => format!("{x:.4}"),
            };
            if a.per_query {
                let mut rows: Vec<&(String, Vec<Option<f64>>)> = s.rows.iter().collect();
                rows.sort_by(|x, y| x.0.cmp(&y.0));
                for (q, values) in rows {
                    for (m, v) in s.measures.iter().zip(values) {
                        writeln!(
                            out,
                            "{:<22}\t{q}\t{}",
                            m.to_string(),
                            cell(m, shown(*v, s.no_relevant))
                        )?;
                    }
                }
            }
            writeln!(out, "{:<22}\tall\t{}", "runid", s.run)?;
            writeln!(out, "{:<22}\tall\t{}", "num_q", s.rows.len())?;
            for (m, v) in s.measures.iter().zip(&s.summary) {
                writeln!(out, "{:<22}\tall\t{}", m.to_string(), cell(m, *v))?;
            }
            Ok(())
        }
        Format::Json => measure_report(s, a).json(out),
        Format::Csv => measure_report(s, a).csv(out),
    }
}
