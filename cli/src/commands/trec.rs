//! `acm trec`: trec_eval's command line and output, for the measures the
//! library computes.
//!
//! `acm trec [-q] [-c] [-n] [-M N] [-l N] [-m MEASURE]... QRELS RUN` prints,
//! as trec_eval does, `measure \t query \t value` lines (`%-22s\t%s\t%6.4f`,
//! counts as integers): with `-q` every evaluated query (in qid order) and
//! its measures, then (unless `-n`) the summary over queries (`all`). The
//! measures come in trec_eval's own order (runid, num_q, num_ret, num_rel,
//! num_rel_ret, map, Rprec, recip_rank, P, ndcg, ndcg_cut), whatever the
//! order of the `-m` options; `-m` takes trec_eval's names and families with
//! cut-offs (`P.5,10`, `ndcg_cut.10`) and the nicknames `official` and
//! `all_trec` (the part of those sets the library has).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use adaptive_comp_metrics::relevance::{
    Ids, Measure, NoRelevant, RelevanceError, Ties, TrecOptions, evaluate_trec, read_trec_qrels,
    read_trec_run,
};

use crate::error::{Failure, Outcome, echo};
use crate::input;
use crate::output::{Ctx, Format, Out};

const AFTER: &str = "\
QRELS is a TREC qrels file (`qid iter docno rel`), RUN a TREC run (`qid Q0 docno rank score tag`).
As in trec_eval, documents are ranked by decreasing score, ties by decreasing docno; queries of the
qrels without a relevant document score 0 and count; judged queries the run lacks are left out
unless -c. Measures: map, Rprec, recip_rank, P (P.5,10,…), ndcg, ndcg_cut (ndcg_cut.10,…),
num_ret, num_rel, num_rel_ret, runid, num_q, and the nicknames official and all_trec (the part of
those sets computed here). Default: -m official.

Examples:
  acm trec qrels.txt run.txt
  acm trec -q -m map -m P.5,10 qrels.txt run.txt
  acm trec -c -l 2 -m ndcg_cut.10 qrels.txt run.txt --format json";

/// Scores a TREC run against qrels as trec_eval does (its command line and output).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// Print the measures of every query too (trec_eval -q).
    #[arg(short = 'q')]
    pub per_query: bool,
    /// Average over all queries of the qrels: those the run lacks score as empty rankings.
    #[arg(short = 'c')]
    pub complete: bool,
    /// No summary over queries (trec_eval -n).
    #[arg(short = 'n')]
    pub no_summary: bool,
    /// Only the first N documents of each query count (trec_eval -M).
    #[arg(short = 'M', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_docs: Option<u64>,
    /// Smallest grade that counts as relevant (trec_eval -l).
    #[arg(short = 'l', value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(i32).range(0..))]
    pub level: i32,
    /// A measure, a family with cut-offs or a nickname (trec_eval -m); repeatable.
    #[arg(short = 'm', value_name = "MEASURE")]
    pub measures: Vec<String>,
    /// Order of documents with equal scores: trec_eval's (by decreasing docno), or the
    /// expectation over all orders of a tie.
    #[arg(long, value_enum, default_value_t = TieArg::Trec)]
    pub ties: TieArg,
    /// Output format: trec_eval's text (table), csv or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Print the load and scoring times (best of 5) to stderr as JSON.
    #[arg(long, hide = true)]
    pub time: bool,
    /// The qrels file.
    pub qrels: PathBuf,
    /// The run file.
    pub run: PathBuf,
}

/// Tie order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TieArg {
    /// trec_eval's: by decreasing document id.
    Trec,
    /// The expectation over the orders of each tie.
    Expected,
}

/// One line of output: trec_eval's measures beyond the library's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Runid,
    NumQ,
    Measure(Measure),
}

impl Item {
    /// Position in trec_eval's measure table (its print order), then cut-off.
    fn order(self) -> (u32, usize) {
        match self {
            Self::Runid => (0, 0),
            Self::NumQ => (1, 0),
            Self::Measure(m) => match m {
                Measure::Retrieved => (2, 0),
                Measure::Relevant => (3, 0),
                Measure::RelevantRetrieved => (4, 0),
                Measure::AveragePrecision => (5, 0),
                Measure::RPrecision => (7, 0),
                Measure::ReciprocalRank => (9, 0),
                Measure::Precision(k) => (11, k),
                Measure::Ndcg => (23, 0),
                Measure::NdcgCut(k) => (26, k),
                _ => (99, 0),
            },
        }
    }
}

/// The measures this command computes, for error messages.
pub const KNOWN: &str = "runid, num_q, num_ret, num_rel, num_rel_ret, map, Rprec, recip_rank, \
                         P (P.5,10,…), ndcg, ndcg_cut (ndcg_cut.10,…), and the nicknames \
                         official and all_trec";

/// trec_eval's default cut-offs of P and ndcg_cut.
const CUTS: &str = "5,10,15,20,30,100,200,500,1000";

/// The lines asked for by the `-m` options, in trec_eval's order; and the
/// measures of a nickname not computed here.
fn items(specs: &[String]) -> Outcome<(Vec<Item>, Vec<&'static str>)> {
    let mut out: Vec<Item> = Vec::new();
    let mut missing = Vec::new();
    let defaults = ["official".to_owned()];
    let specs = if specs.is_empty() {
        &defaults[..]
    } else {
        specs
    };
    for spec in specs {
        let names: Vec<String> = match spec.as_str() {
            "official" => {
                missing.extend(["gm_map", "bpref", "iprec_at_recall"]);
                [
                    "runid",
                    "num_q",
                    "num_ret",
                    "num_rel",
                    "num_rel_ret",
                    "map",
                    "Rprec",
                    "recip_rank",
                ]
                .iter()
                .map(|s| (*s).to_owned())
                .chain([format!("P.{CUTS}")])
                .collect()
            }
            "all_trec" => {
                missing.extend(["gm_map", "bpref", "iprec_at_recall", "and others"]);
                [
                    "runid",
                    "num_q",
                    "num_ret",
                    "num_rel",
                    "num_rel_ret",
                    "map",
                    "Rprec",
                    "recip_rank",
                    "ndcg",
                ]
                .iter()
                .map(|s| (*s).to_owned())
                .chain([format!("P.{CUTS}"), format!("ndcg_cut.{CUTS}")])
                .collect()
            }
            other => vec![other.to_owned()],
        };
        for name in names {
            match name.as_str() {
                "runid" => out.push(Item::Runid),
                "num_q" => out.push(Item::NumQ),
                _ => out.extend(
                    Measure::parse_list(&name)
                        .map_err(|_| {
                            Failure::usage(format!(
                                "unknown measure {} (-m): acm trec computes {KNOWN}",
                                echo(&name)
                            ))
                        })?
                        .into_iter()
                        .map(Item::Measure),
                ),
            }
        }
    }
    out.sort_by_key(|i| i.order());
    out.dedup();
    missing.dedup();
    Ok((out, missing))
}

/// The run with only the first `max` documents of each query (trec_eval's
/// order: decreasing score, ties by decreasing docno); the lines dropped
/// become blank, so that errors keep their line numbers.
fn truncate_run(bytes: &[u8], max: u64) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut by_query: HashMap<&str, Vec<(f64, &str, usize)>> = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        let f: Vec<&str> = l.split_ascii_whitespace().collect();
        if let [qid, _, docno, _, score, _] = f.as_slice()
            && let Ok(s) = score.parse::<f64>()
        {
            by_query.entry(qid).or_default().push((s, docno, i));
        }
    }
    let mut drop = vec![false; lines.len()];
    for docs in by_query.values_mut() {
        docs.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(a.1)));
        for d in docs.iter().skip(usize::try_from(max).unwrap_or(usize::MAX)) {
            drop[d.2] = true;
        }
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&drop)
        .map(|(l, &d)| if d { "" } else { *l })
        .collect();
    kept.join("\n").into_bytes()
}

fn in_file(path: &Path) -> impl Fn(RelevanceError) -> Failure + '_ {
    move |e| Failure::in_file(path, &e)
}

/// The values to print: per query and the summary.
struct Scored {
    run_id: String,
    items: Vec<Item>,
    rows: Vec<(String, Vec<Option<f64>>)>,
    summary: Vec<Option<f64>>,
}

/// Reads the files, scores the run and prints trec_eval's output.
///
/// # Errors
/// An unreadable or malformed file (with its line), an unknown measure
/// (status 2), no query with both judgements and a ranking.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    let (items, missing) = items(&a.measures)?;
    let mut measures: Vec<Measure> = items
        .iter()
        .filter_map(|i| match i {
            Item::Measure(m) => Some(*m),
            _ => None,
        })
        .collect();
    if measures.is_empty() {
        // Only runid or num_q: the queries are those a measure would score.
        measures.push(Measure::Retrieved);
    }
    let start = Instant::now();
    let mut ids = Ids::new();
    let qrels = read_trec_qrels(input::open(&a.qrels)?, &mut ids).map_err(in_file(&a.qrels))?;
    let run = match a.max_docs {
        Some(max) => {
            let bytes = truncate_run(&input::read(&a.run)?, max);
            read_trec_run(bytes.as_slice(), &mut ids)
        }
        None => read_trec_run(input::open(&a.run)?, &mut ids),
    }
    .map_err(in_file(&a.run))?;
    if qrels.is_empty() {
        return Err(Failure::new("no judgements: the file has no record").file(&a.qrels));
    }
    if run.is_empty() {
        return Err(Failure::new("no ranked documents: the file has no record").file(&a.run));
    }
    let load = start.elapsed().as_secs_f64();
    let options = TrecOptions {
        relevance_level: a.level,
        ties: match a.ties {
            TieArg::Trec => Ties::TrecEval,
            TieArg::Expected => Ties::Expected,
        },
        no_relevant: NoRelevant::Zero,
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
    if report.queries.is_empty() {
        return Err(Failure::new(
            "no queries with both results and relevance information (trec_eval's exit 7)",
        )
        .file(&a.run));
    }
    let name = |q: u32| ids.queries().name(q).unwrap_or("?").to_owned();
    if !missing.is_empty() {
        ctx.note(
            out,
            format_args!(
                "trec_eval's set also has {}: not computed here",
                missing.join(", ")
            ),
        );
    }
    if !report.unjudged_queries.is_empty() {
        let some: Vec<String> = report
            .unjudged_queries
            .iter()
            .take(5)
            .map(|&q| name(q))
            .collect();
        ctx.note(
            out,
            format_args!(
                "{} queries of the run are not judged, skipped: {}{}",
                report.unjudged_queries.len(),
                some.join(" "),
                if report.unjudged_queries.len() > 5 {
                    " …"
                } else {
                    ""
                }
            ),
        );
    }
    let mut rows: Vec<(String, Vec<Option<f64>>)> =
        report.rows().map(|(q, v)| (name(q), v.to_vec())).collect();
    rows.sort_by(|x, y| x.0.as_bytes().cmp(y.0.as_bytes()));
    let scored = Scored {
        run_id: run.name().unwrap_or("").to_owned(),
        items,
        rows,
        summary: report.summary.iter().map(|m| m.value).collect(),
    };
    match a.format {
        Format::Table => write_text(&scored, a, out),
        Format::Json => write_json(&scored, a, out),
        Format::Csv => write_csv(&scored, a, out),
    }
}

/// trec_eval's value of a line: undefined is 0; counts as integers.
fn cell(m: Measure, v: Option<f64>) -> String {
    let x = v.unwrap_or(0.0);
    if m.is_count() {
        format!("{x:.0}")
    } else {
        format!("{x:6.4}")
    }
}

fn write_text(s: &Scored, a: &Args, out: &mut Out) -> Outcome {
    // Index of each library measure among the report's columns.
    let column: Vec<Option<usize>> = {
        let mut k = 0;
        s.items
            .iter()
            .map(|i| match i {
                Item::Measure(_) => {
                    k += 1;
                    Some(k - 1)
                }
                _ => None,
            })
            .collect()
    };
    if a.per_query {
        for (q, values) in &s.rows {
            for (item, col) in s.items.iter().zip(&column) {
                if let (Item::Measure(m), Some(c)) = (item, col) {
                    let v = values.get(*c).copied().flatten();
                    writeln!(out, "{:<22}\t{q}\t{}", m.to_string(), cell(*m, v))?;
                }
            }
        }
    }
    if a.no_summary {
        return Ok(());
    }
    for (item, col) in s.items.iter().zip(&column) {
        match (item, col) {
            (Item::Runid, _) => writeln!(out, "{:<22}\tall\t{}", "runid", s.run_id)?,
            (Item::NumQ, _) => writeln!(out, "{:<22}\tall\t{}", "num_q", s.rows.len())?,
            (Item::Measure(m), Some(c)) => {
                let v = s.summary.get(*c).copied().flatten();
                writeln!(out, "{:<22}\tall\t{}", m.to_string(), cell(*m, v))?;
            }
            (Item::Measure(_), None) => {}
        }
    }
    Ok(())
}

fn measures_of(s: &Scored) -> Vec<Measure> {
    s.items
        .iter()
        .filter_map(|i| match i {
            Item::Measure(m) => Some(*m),
            _ => None,
        })
        .collect()
}

fn write_json(s: &Scored, a: &Args, out: &mut Out) -> Outcome {
    let measures = measures_of(s);
    let values = |vals: &[Option<f64>]| -> serde_json::Value {
        measures
            .iter()
            .zip(vals)
            .map(|(m, v)| (m.to_string(), serde_json::json!(v.unwrap_or(0.0))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let mut doc = serde_json::Map::new();
    doc.insert("runid".into(), s.run_id.clone().into());
    doc.insert("num_q".into(), s.rows.len().into());
    if a.per_query {
        let queries: serde_json::Map<_, _> =
            s.rows.iter().map(|(q, v)| (q.clone(), values(v))).collect();
        doc.insert("queries".into(), queries.into());
    }
    if !a.no_summary {
        doc.insert("all".into(), values(&s.summary));
    }
    out.json(&serde_json::Value::Object(doc))
}

fn write_csv(s: &Scored, a: &Args, out: &mut Out) -> Outcome {
    let measures = measures_of(s);
    let mut header = vec!["query"];
    let names: Vec<String> = measures.iter().map(ToString::to_string).collect();
    header.extend(names.iter().map(String::as_str));
    let mut t = crate::output::Table::new(&header, 1);
    let fmt = |v: &[Option<f64>]| -> Vec<String> {
        v.iter().map(|x| x.unwrap_or(0.0).to_string()).collect()
    };
    if a.per_query {
        for (q, v) in &s.rows {
            let mut r = vec![q.clone()];
            r.extend(fmt(v));
            t.row(r);
        }
    }
    if !a.no_summary {
        let mut r = vec!["all".to_owned()];
        r.extend(fmt(&s.summary));
        t.row(r);
    }
    t.write(Format::Csv, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_come_in_trec_evals_order_whatever_the_command_line() {
        let (got, missing) = items(&["P.10,5".into(), "map".into(), "num_q".into()]).unwrap();
        assert_eq!(
            got,
            [
                Item::NumQ,
                Item::Measure(Measure::AveragePrecision),
                Item::Measure(Measure::Precision(5)),
                Item::Measure(Measure::Precision(10)),
            ]
        );
        assert!(missing.is_empty());
        let (got, missing) = items(&[]).unwrap();
        assert_eq!(got.first(), Some(&Item::Runid));
        assert_eq!(got.len(), 8 + 9);
        assert!(missing.contains(&"bpref"));
        let e = items(&["bpref".into()]).unwrap_err();
        assert_eq!(e.status(), 2);
        assert!(
            e.message.contains("unknown measure \"bpref\""),
            "{}",
            e.message
        );
        assert!(e.message.contains("recip_rank"), "{}", e.message);
    }

    #[test]
    fn truncation_keeps_the_top_documents_and_the_line_numbers() {
        let run = b"q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.9 r\nq1 Q0 c 3 0.5 r\nq2 Q0 a 1 1 r\n";
        let t = String::from_utf8(truncate_run(run, 2)).unwrap();
        // b (0.9) then c (0.5, docno c > a).
        assert_eq!(t, "\nq1 Q0 b 2 0.9 r\nq1 Q0 c 3 0.5 r\nq2 Q0 a 1 1 r\n");
    }
}
