//! Scores a run against relevance judgements, like `trec_eval`.
//!
//! ```text
//! cargo run --release --example relevance -- --trec QRELS RUN [OPTIONS]
//! cargo run --release --example relevance -- JUDGEMENTS.csv MODEL.csv [K] [OPTIONS]
//! cargo run --example relevance            # the bundled sample CSV files
//! ```
//!
//! `--trec`: QRELS is a TREC qrels file (`qid iter docno rel`), RUN a TREC
//! run (`qid Q0 docno rank score tag`), scored with `trec_eval`'s
//! conventions (ties by decreasing document id, queries without relevant
//! documents scored 0 and counted, judged queries the run lacks left out
//! unless `-c`).
//!
//! Otherwise JUDGEMENTS.csv has the columns `query,document,annotator,grade`
//! (PhraseRel scale −3…3; a pair is relevant when loosely relevant, its gain
//! is its mean grade) and MODEL.csv `query,document,score`; ties are scored
//! as the expectation over tie orders, and the PhraseRel classes per query
//! and the rank-biased overlap (p = 0.9) of the model's ranking with the
//! ranking by mean judgement are printed too (text output). K, if given,
//! sets the cut-off of the default measures.
//!
//! Options:
//! ```text
//! -q                  per-query values too (as trec_eval -q)
//! -m MEASURE          a measure or family with cut-offs, repeatable:
//!                     map P.5,10 Rprec recip_rank ndcg_cut.10 ndcg num_ret
//!                     num_rel num_rel_ret (default: map P_5 P_10 Rprec
//!                     recip_rank ndcg_cut_10 ndcg)
//! -l LEVEL            smallest relevant grade (--trec; default 1)
//! -c                  score judged queries the run lacks as empty (--trec)
//! --ties trec|expected   tie order (--trec; default trec)
//! --skip-no-relevant  leave queries with undefined values out of the means
//! --format text|json|csv
//! --time              print load and scoring times (best of 5) to stderr
//! ```
//! Text output is `trec_eval`'s: `measure \t query \t value`, per query
//! (with `-q`) then `all`. Errors print `error: FILE:LINE: message` and exit
//! with status 1 (a wrong command line: the usage line, status 2); a closed
//! output pipe ends the program quietly.

use adaptive_comp_metrics::relevance::{
    Ids, JudgementColumns, Measure, NoRelevant, Options, RelevanceError, Scale, ScoreColumns,
    Thresholds, Ties, TrecOptions, evaluate_run, evaluate_trec, rbo_tied, read_judgements,
    read_run, read_trec_qrels, read_trec_run, tie_groups,
};
use cli::{Failure, Out};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[path = "common/cli.rs"]
pub mod cli;

const USAGE: &str = "usage: relevance [--trec] JUDGEMENTS RUN [K] [-q] [-m MEASURE]... [-l LEVEL] [-c] \
     [--ties trec|expected] [--skip-no-relevant] [--format text|json|csv] [--time]";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Csv,
}

struct Args {
    trec: bool,
    files: Vec<String>,
    per_query: bool,
    measures: Vec<Measure>,
    level: i32,
    complete: bool,
    ties: Ties,
    no_relevant: NoRelevant,
    format: Format,
    time: bool,
}

fn parse_args(args: &[String]) -> Result<Args, Failure> {
    let mut a = Args {
        trec: false,
        files: Vec::new(),
        per_query: false,
        measures: Vec::new(),
        level: 1,
        complete: false,
        ties: Ties::TrecEval,
        no_relevant: NoRelevant::Zero,
        format: Format::Text,
        time: false,
    };
    let mut it = args.iter().cloned();
    let value = |it: &mut dyn Iterator<Item = String>, flag: &str| {
        it.next()
            .ok_or_else(|| Failure::usage(format!("{flag} needs a value")))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--trec" => a.trec = true,
            "-q" => a.per_query = true,
            "-c" => a.complete = true,
            "--time" => a.time = true,
            "--skip-no-relevant" => a.no_relevant = NoRelevant::Skip,
            "-m" => a.measures.extend(
                Measure::parse_list(&value(&mut it, "-m")?)
                    .map_err(|e| Failure::usage(format!("-m: {e}")))?,
            ),
            "-l" => {
                let v = value(&mut it, "-l")?;
                a.level = v
                    .parse()
                    .map_err(|_| Failure::usage(format!("-l: not an integer: {v:?}")))?;
            }
            "--ties" => {
                a.ties = match value(&mut it, "--ties")?.as_str() {
                    "trec" => Ties::TrecEval,
                    "expected" => Ties::Expected,
                    other => return Err(Failure::usage(format!("--ties: unknown {other:?}"))),
                }
            }
            "--format" => {
                a.format = match value(&mut it, "--format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    other => return Err(Failure::usage(format!("--format: unknown {other:?}"))),
                }
            }
            s if s.starts_with('-') && s.len() > 1 && s.parse::<f64>().is_err() => {
                return Err(Failure::usage(format!("unknown option {s:?} (see --help)")));
            }
            _ => a.files.push(arg),
        }
    }
    Ok(a)
}

/// What gets printed: per query values and the summary row.
struct Table {
    run: String,
    measures: Vec<Measure>,
    rows: Vec<(String, Vec<Option<f64>>)>,
    summary: Vec<Option<f64>>,
    no_relevant: NoRelevant,
}

fn open(path: &Path) -> Result<impl BufRead, Failure> {
    cli::open(path)
}

/// Refuses an input without records: every value would be undefined.
fn nonempty(path: &Path, records: usize, what: &str) -> Result<(), Failure> {
    if records == 0 {
        return Err(Failure::new(format!("no {what}s: the file has no record")).file(path));
    }
    Ok(())
}

/// An error of a reader, placed in its file.
fn in_file(path: &Path) -> impl Fn(RelevanceError) -> Failure + '_ {
    move |e| Failure::in_file(path, &e)
}

fn trec_table(a: &Args, measures: Vec<Measure>) -> Result<Table, Failure> {
    let [qrels_path, run_path] = a.files.as_slice() else {
        return Err(Failure::usage("--trec needs QRELS and RUN (see --help)"));
    };
    let (qp, rp) = (Path::new(qrels_path), Path::new(run_path));
    let start = Instant::now();
    let mut ids = Ids::new();
    let qrels = read_trec_qrels(open(qp)?, &mut ids).map_err(in_file(qp))?;
    let run = read_trec_run(open(rp)?, &mut ids).map_err(in_file(rp))?;
    nonempty(qp, qrels.len(), "judgement")?;
    nonempty(rp, run.len(), "ranked document")?;
    let load = start.elapsed().as_secs_f64();
    let options = TrecOptions {
        relevance_level: a.level,
        ties: a.ties,
        no_relevant: a.no_relevant,
        complete: a.complete,
        ..TrecOptions::default()
    };
    let mut best = f64::INFINITY;
    let mut report = None;
    for _ in 0..if a.time { 5 } else { 1 } {
        let t = Instant::now();
        report = Some(evaluate_trec(&qrels, &run, &measures, &options)?);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let report = report.ok_or_else(|| Failure::new("nothing scored"))?;
    if a.time {
        eprintln!(
            "{{\"load_s\": {load}, \"score_s\": {best}, \"qrels\": {}, \"run\": {}}}",
            qrels.len(),
            run.len()
        );
    }
    let name = |q: u32| ids.queries().name(q).unwrap_or("?").to_owned();
    if !report.unjudged_queries.is_empty() {
        let some: Vec<String> = report
            .unjudged_queries
            .iter()
            .take(5)
            .map(|&q| name(q))
            .collect();
        eprintln!(
            "note: {} queries of the run are not judged, skipped: {}{}",
            report.unjudged_queries.len(),
            some.join(" "),
            if report.unjudged_queries.len() > 5 {
                " …"
            } else {
                ""
            }
        );
    }
    if !a.complete && !report.unranked_queries.is_empty() {
        eprintln!(
            "note: {} judged queries the run lacks are left out (-c scores them)",
            report.unranked_queries.len()
        );
    }
    Ok(Table {
        run: run.name().unwrap_or("").to_owned(),
        rows: report.rows().map(|(q, v)| (name(q), v.to_vec())).collect(),
        summary: report.summary.iter().map(|m| m.value).collect(),
        measures,
        no_relevant: a.no_relevant,
    })
}

fn csv_table(a: &Args, out: &mut dyn Write) -> Result<Table, Failure> {
    let (judgement_path, model_path, k) = match a.files.as_slice() {
        [] => {
            let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", "relevance"]
                .iter()
                .collect();
            if a.format == Format::Text {
                writeln!(
                    out,
                    "no files given: running on the bundled sample files in {}",
                    dir.display()
                )?;
            }
            (dir.join("judgements.csv"), dir.join("model.csv"), Some(3))
        }
        [j, m] => (PathBuf::from(j), PathBuf::from(m), None),
        [j, m, k] => {
            let k = k
                .parse::<usize>()
                .ok()
                .filter(|&k| k >= 1)
                .ok_or_else(|| Failure::usage(format!("K: not an integer ≥ 1: {k:?}")))?;
            (PathBuf::from(j), PathBuf::from(m), Some(k))
        }
        _ => {
            return Err(Failure::usage(
                "expected JUDGEMENTS.csv MODEL.csv [K] (see --help)",
            ));
        }
    };
    let measures = if a.measures.is_empty() {
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
        a.measures.clone()
    };
    let judgements = read_judgements(
        open(&judgement_path)?,
        &JudgementColumns::default(),
        Scale::default(),
    )
    .map_err(in_file(&judgement_path))?;
    nonempty(&judgement_path, judgements.len(), "judgement")?;
    let assessments = judgements.summarize(&Thresholds::default())?;
    let run =
        read_run(open(&model_path)?, &ScoreColumns::default()).map_err(in_file(&model_path))?;
    nonempty(&model_path, run.len(), "score")?;
    let text = a.format == Format::Text;
    if text {
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
            no_relevant: a.no_relevant,
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
    Ok(Table {
        run: model_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        measures,
        rows,
        summary,
        no_relevant: a.no_relevant,
    })
}

/// trec_eval prints an undefined value as 0; with --skip-no-relevant it is
/// shown as missing.
fn shown(v: Option<f64>, policy: NoRelevant) -> Option<f64> {
    match policy {
        NoRelevant::Zero => Some(v.unwrap_or(0.0)),
        _ => v,
    }
}

fn write_text(t: &Table, per_query: bool, out: &mut dyn Write) -> io::Result<()> {
    let cell = |m: &Measure, v: Option<f64>| match v {
        None => "NA".to_owned(),
        Some(x) if m.is_count() => format!("{x:.0}"),
        Some(x) => format!("{x:.4}"),
    };
    if per_query {
        let mut rows: Vec<&(String, Vec<Option<f64>>)> = t.rows.iter().collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        for (q, values) in rows {
            for (m, v) in t.measures.iter().zip(values) {
                writeln!(
                    out,
                    "{:<22}\t{q}\t{}",
                    m.to_string(),
                    cell(m, shown(*v, t.no_relevant))
                )?;
            }
        }
    }
    writeln!(out, "{:<22}\tall\t{}", "runid", t.run)?;
    writeln!(out, "{:<22}\tall\t{}", "num_q", t.rows.len())?;
    for (m, v) in t.measures.iter().zip(&t.summary) {
        writeln!(out, "{:<22}\tall\t{}", m.to_string(), cell(m, *v))?;
    }
    Ok(())
}

fn write_json(t: &Table, per_query: bool, out: &mut dyn Write) -> io::Result<()> {
    let values = |vals: &[Option<f64>]| -> serde_json::Value {
        t.measures
            .iter()
            .zip(vals)
            .map(|(m, v)| (m.to_string(), serde_json::json!(v)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let mut doc = serde_json::Map::new();
    doc.insert("runid".into(), t.run.clone().into());
    doc.insert("num_q".into(), t.rows.len().into());
    if per_query {
        let queries: serde_json::Map<_, _> = t
            .rows
            .iter()
            .map(|(q, v)| {
                let v: Vec<Option<f64>> = v.iter().map(|x| shown(*x, t.no_relevant)).collect();
                (q.clone(), values(&v))
            })
            .collect();
        doc.insert("queries".into(), queries.into());
    }
    doc.insert("all".into(), values(&t.summary));
    serde_json::to_writer_pretty(&mut *out, &serde_json::Value::Object(doc))?;
    writeln!(out)
}

fn write_csv(t: &Table, per_query: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let mut header = vec!["query".to_owned()];
    header.extend(t.measures.iter().map(ToString::to_string));
    w.write_record(&header)?;
    let fmt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    if per_query {
        for (q, values) in &t.rows {
            let mut rec = vec![q.clone()];
            rec.extend(values.iter().map(|v| fmt(shown(*v, t.no_relevant))));
            w.write_record(&rec)?;
        }
    }
    let mut rec = vec!["all".to_owned()];
    rec.extend(t.summary.iter().map(|v| fmt(*v)));
    w.write_record(&rec)?;
    w.flush()
}

/// Reads the files, scores the run and writes the table.
pub fn run(args: &[String], out: &mut Out) -> Result<(), Failure> {
    let a = parse_args(args)?;
    let table = if a.trec {
        let measures = if a.measures.is_empty() {
            Measure::STANDARD.to_vec()
        } else {
            a.measures.clone()
        };
        trec_table(&a, measures)?
    } else {
        csv_table(&a, out)?
    };
    match a.format {
        Format::Text => write_text(&table, a.per_query, out),
        Format::Json => write_json(&table, a.per_query, out),
        Format::Csv => write_csv(&table, a.per_query, out),
    }
    .map_err(cli::output_failure)?;
    out.flush()
}

fn main() -> ExitCode {
    cli::main(USAGE, run)
}
