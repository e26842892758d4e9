//! `acm trec`: trec_eval's command line and output.
//!
//! `acm trec [-q] [-c] [-n] [-M N] [-l N] [-m MEASURE]... QRELS RUN` prints,
//! as trec_eval does, `measure \t query \t value` lines (`%-22s\t%s\t%6.4f`,
//! counts as integers): with `-q` every evaluated query (in qid order) and
//! its measures, then (unless `-n`) the summary over queries (`all`). The
//! measures come in trec_eval's own order (runid, num_q, num_ret, num_rel,
//! num_rel_ret, map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall, P,
//! recall, ndcg, ndcg_cut, map_cut, success), whatever the order of the
//! `-m` options; `-m` takes trec_eval's names, families with cut-offs
//! (`P.5,10`, `ndcg_cut.10`; the first cut-offs given for a family count,
//! as in trec_eval) and the nicknames `official` (the default), `set` and
//! `all_trec` (the part of those sets computed here), read by the library's
//! [`MeasureSelection`] as the Python `RelevanceEvaluator` reads its
//! measures. trec_eval's rules are the library's: `-M` is
//! [`read_trec_run_top`] (the run cut as it is read), the summary
//! [`TrecReport::trec_eval_summary`](adaptive_comp_metrics::relevance::TrecReport::trec_eval_summary)
//! (trec_eval's arithmetic: plain sums in qid order), so that the output is
//! trec_eval's byte for byte; this command maps the arguments and prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use adaptive_comp_metrics::relevance::{
    Ids, Measure, MeasureSelection, MeasureSyntax, NoRelevant, RelevanceError, SelectionNote, Ties,
    TrecEvalVersion, TrecOptions, TrecSyntax, evaluate_trec, read_trec_qrels_with,
    read_trec_run_top, read_trec_run_with,
};

use crate::error::{Failure, Outcome, echo};
use crate::input;
use crate::output::{Ctx, Format, MeasureReport, Out};

const AFTER: &str = "\
QRELS is a TREC qrels file (`qid iter docno rel`), RUN a TREC run (`qid Q0 docno rank score tag`),
read as trec_eval reads them: a blank line in QRELS is an error, fields after the tag of a RUN
line are ignored, `#` lines are comments (--syntax lenient: blank lines skipped in both files,
exactly 6 fields a run line). As in trec_eval, documents are ranked by decreasing score, ties by
decreasing docno; queries of the qrels without a relevant document score 0 and count; judged
queries the run lacks are left out unless -c (trec_eval 10.0 stops on them instead); the runid
is the tag of the run's last line; with -c the summary num_rel counts every grade > 0, whatever -l.

Measures: runid, num_q, num_ret, num_rel, num_rel_ret, map, gm_map, Rprec, bpref, recip_rank,
iprec_at_recall (iprec_at_recall.0,0.5,1), P (P.5,10,…), recall (recall.10,…), infAP, gm_bpref,
Rprec_mult (Rprec_mult.0.5,2), utility, 11pt_avg, binG, G, ndcg, ndcg_rel, Rndcg, ndcg_cut
(ndcg_cut.10,…), map_cut (map_cut.10,…), relative_P (relative_P.5,…), success (success.1,5,10),
set_P, set_relative_P, set_recall, set_map, set_F, num_nonrel_judged_ret, and the nicknames
official (the default), set and all_trec (trec_eval 10.0's unj, rbp and rbp_resid are not
computed; relstring, a string, is not printed). As in trec_eval, the first cut-offs given for a
family count (-m P.5 -m P.10 prints P_5 alone). With --ties expected, gm_map, gm_bpref,
iprec_at_recall, Rprec_mult, 11pt_avg, infAP, binG, G, ndcg_rel and Rndcg have no value (they are
left out of a nickname's set).

--trec-eval-version 10 (the default) reproduces trec_eval 10.0, the current release; 9 reproduces
trec_eval 9.0.x and pytrec_eval, which store scores as C floats (scores equal as floats tie, and
the larger docno goes first), round iprec_at_recall's cut-offs as floor(p·R + 0.9) instead of
round(p·R), and print no per-query lines for judged queries the run lacks with -c -q.

Examples:
  acm trec qrels.txt run.txt
  acm trec -q -m map -m P.5,10 qrels.txt run.txt
  acm trec -c -l 2 -m ndcg_cut.10 qrels.txt run.txt --format json
  acm trec --trec-eval-version 9 qrels.txt run.txt     # pytrec_eval's values";

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
    /// The trec_eval release to reproduce where releases differ: 10 (10.0, the current one)
    /// compares scores as doubles; 9 (9.0.x, and pytrec_eval) as C floats.
    #[arg(long, value_enum, value_name = "RELEASE", default_value_t = VersionArg::V10)]
    pub trec_eval_version: VersionArg,
    /// How to read the files: as trec_eval does (a blank qrels line is an error), or leniently
    /// (blank lines skipped, exactly 6 fields a run line).
    #[arg(long, value_enum, default_value_t = SyntaxArg::TrecEval)]
    pub syntax: SyntaxArg,
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

/// The trec_eval release to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VersionArg {
    /// trec_eval 10.0, the current release: scores compared as doubles.
    #[value(name = "10")]
    V10,
    /// trec_eval 9.0.x and pytrec_eval: scores compared as C floats.
    #[value(name = "9")]
    V9,
}

/// How the files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SyntaxArg {
    /// As trec_eval reads them.
    TrecEval,
    /// Blank lines skipped in both files; exactly 6 fields a run line.
    Lenient,
}

/// One line of output: trec_eval's runid, or a measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Runid,
    Measure(Measure),
}

/// The measures this command computes, for error messages.
fn known() -> String {
    let names: Vec<&str> = MeasureSelection::supported_measures().collect();
    let nicknames: Vec<&str> = MeasureSelection::nicknames().collect();
    format!(
        "{}, and the nicknames {}",
        names.join(", "),
        nicknames.join(", ")
    )
}

/// What the `-m` options ask for.
struct Selection {
    items: Vec<Item>,
    notes: Vec<String>,
}

/// The lines asked for by the `-m` options, in trec_eval's order, as
/// trec_eval reads them (the library's [`MeasureSelection`], shared with
/// the Python `RelevanceEvaluator`), with its errors and notes in the
/// command line's words.
fn select(specs: &[String], ties: Ties) -> Outcome<Selection> {
    // The library quotes a spec cut to 40 characters: echo the one given.
    let given = |cut: &str| -> String {
        specs
            .iter()
            .find(|s| s.chars().take(40).eq(cut.chars()))
            .map_or_else(|| cut.to_owned(), Clone::clone)
    };
    let selection = MeasureSelection::parse(specs, MeasureSyntax::TrecEval, ties).map_err(|e| {
        Failure::usage(match e {
            RelevanceError::NoCutoffs { spec } => format!(
                "measure {} (-m) has no cut-offs after its '.'",
                echo(&given(&spec))
            ),
            RelevanceError::MeasureParameters { spec } if spec.starts_with("ndcg") => format!(
                "{} (-m): acm trec takes no gain parameters for ndcg (its gains are the \
                     grades)",
                echo(&given(&spec))
            ),
            RelevanceError::MeasureParameters { spec } => format!(
                "{} (-m): acm trec computes set_F and utility with trec_eval's default \
                     parameters only",
                echo(&given(&spec))
            ),
            RelevanceError::BadCutoffs { family, cutoffs } => {
                let what = if family == "iprec_at_recall" {
                    "recall levels from 0 to 1 with at most two decimals"
                } else {
                    "integers of at least 1"
                };
                format!(
                    "bad cut-offs {} for {family} (-m): {what} expected",
                    echo(&cut_offs_given(specs, family, &cutoffs))
                )
            }
            RelevanceError::RepeatedCutoff { family, cutoffs } => format!(
                "cut-offs {} for {family} (-m) repeat one (trec_eval: duplicate cutoffs)",
                echo(&cut_offs_given(specs, family, &cutoffs))
            ),
            RelevanceError::NoExpectation { measure } => format!(
                "{measure} has no tie-aware expectation: drop --ties expected or -m {measure}"
            ),
            RelevanceError::UnknownMeasure { name } => format!(
                "unknown measure {} (-m): acm trec computes {}",
                echo(&given(&name)),
                known()
            ),
            other => other.to_string(),
        })
    })?;
    let mut notes: Vec<String> = selection
        .notes()
        .iter()
        .map(|note| match note {
            SelectionNote::CutoffsIgnored { .. } => format!("-m {note}"),
            SelectionNote::NoExpectation { .. } => format!("{note} (--ties expected)"),
            _ => note.to_string(),
        })
        .collect();
    if selection.relstring() {
        notes.push("relstring (a string of grades, not a value) is not printed".to_owned());
    }
    let items = selection
        .runid()
        .then_some(Item::Runid)
        .into_iter()
        .chain(selection.measures().iter().copied().map(Item::Measure))
        .collect();
    Ok(Selection { items, notes })
}

/// The cut-offs of `family` as an `-m` option gave them (the library
/// quotes them cut to 40 characters).
fn cut_offs_given(specs: &[String], family: &str, cut: &str) -> String {
    specs
        .iter()
        .filter_map(|s| s.split_once('.'))
        .filter(|(name, _)| *name == family)
        .map(|(_, cuts)| cuts)
        .find(|cuts| cuts.chars().take(40).eq(cut.chars()))
        .unwrap_or(cut)
        .to_owned()
}

fn in_file(path: &Path) -> impl Fn(RelevanceError) -> Failure + '_ {
    move |e| Failure::in_file(path, &e)
}

/// The values to print: per query and the summary.
struct Scored {
    run_id: String,
    items: Vec<Item>,
    /// Every scored query (sorted by qid) with its values and whether the
    /// run ranks it.
    rows: Vec<(String, Vec<Option<f64>>, bool)>,
    summary: Vec<Option<f64>>,
    version: TrecEvalVersion,
}

/// Reads the files, scores the run and prints trec_eval's output.
///
/// # Errors
/// An unreadable or malformed file (with its line), an unknown measure
/// (status 2), no query with both judgements and a ranking.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    let ties = match a.ties {
        TieArg::Trec => Ties::TrecEval,
        TieArg::Expected => Ties::Expected,
    };
    let version = match a.trec_eval_version {
        VersionArg::V10 => TrecEvalVersion::V10,
        VersionArg::V9 => TrecEvalVersion::V9,
    };
    let syntax = match a.syntax {
        SyntaxArg::TrecEval => TrecSyntax::TrecEval,
        SyntaxArg::Lenient => TrecSyntax::Lenient,
    };
    let selection = select(&a.measures, ties)?;
    let mut measures = measures_of(&selection.items);
    if measures.is_empty() {
        // Only runid: the queries are those a measure would score.
        measures.push(Measure::Queries);
    }
    let start = Instant::now();
    let mut ids = Ids::new();
    let qrels = read_trec_qrels_with(input::open(&a.qrels)?, &mut ids, syntax)
        .map_err(in_file(&a.qrels))?;
    let run = input::open(&a.run)?;
    let run = match a.max_docs {
        Some(max) => {
            let max = usize::try_from(max).unwrap_or(usize::MAX);
            read_trec_run_top(run, &mut ids, syntax, max, version)
        }
        None => read_trec_run_with(run, &mut ids, syntax),
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
        ties,
        no_relevant: NoRelevant::Zero,
        complete: a.complete,
        version,
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
    for note in &selection.notes {
        ctx.note(out, note);
    }
    let some = |qs: &[u32]| {
        let listed: Vec<String> = qs.iter().take(5).map(|&q| name(q)).collect();
        format!(
            "{}{}",
            listed.join(" "),
            if qs.len() > 5 { " …" } else { "" }
        )
    };
    if !report.unjudged_queries.is_empty() {
        ctx.note(
            out,
            format_args!(
                "{} queries of the run are not judged, skipped: {}",
                report.unjudged_queries.len(),
                some(&report.unjudged_queries)
            ),
        );
    }
    if !a.complete && !report.unranked_queries.is_empty() && version == TrecEvalVersion::V10 {
        ctx.note(
            out,
            format_args!(
                "{} judged queries are not in the run, left out as trec_eval 9.0.x does (trec_eval \
                 10.0 stops on them unless -c): {}",
                report.unranked_queries.len(),
                some(&report.unranked_queries)
            ),
        );
    }
    let mut unranked = vec![false; ids.queries().len()];
    for &q in &report.unranked_queries {
        if let Some(u) = unranked.get_mut(q as usize) {
            *u = true;
        }
    }
    let ranked = |q: u32| !unranked.get(q as usize).copied().unwrap_or(false);
    let rows: Vec<(String, Vec<Option<f64>>, bool)> = report
        .trec_eval_order(&ids)
        .into_iter()
        .filter_map(|row| {
            let q = *report.queries.get(row)?;
            Some((name(q), report.row(row)?.to_vec(), ranked(q)))
        })
        .collect();
    let summary = report.trec_eval_summary(&qrels, &ids, &options);
    let scored = Scored {
        run_id: run.name().unwrap_or_default().to_owned(),
        items: selection.items,
        rows,
        summary,
        version,
    };
    match a.format {
        Format::Table => write_text(&scored, a, out),
        Format::Json => measure_report(&scored, a, &measures_of(&scored.items)).json(out),
        Format::Csv => measure_report(&scored, a, &measures_of(&scored.items)).csv(out),
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

/// The rows trec_eval prints with -q: 9 leaves out those -c brings in.
fn printed_rows(s: &Scored) -> impl Iterator<Item = &(String, Vec<Option<f64>>, bool)> {
    s.rows
        .iter()
        .filter(|r| r.2 || s.version != TrecEvalVersion::V9)
}

fn write_text(s: &Scored, a: &Args, out: &mut Out) -> Outcome {
    // Index of each measure among the report's columns.
    let column: Vec<Option<usize>> = {
        let mut k = 0;
        s.items
            .iter()
            .map(|i| match i {
                Item::Measure(_) => {
                    k += 1;
                    Some(k - 1)
                }
                Item::Runid => None,
            })
            .collect()
    };
    if a.per_query {
        for (q, values, _) in printed_rows(s) {
            for (item, col) in s.items.iter().zip(&column) {
                // trec_eval prints neither num_q nor gm_map per query.
                if let (Item::Measure(m), Some(c)) = (item, col)
                    && !matches!(m, Measure::Queries | Measure::GeometricMap)
                {
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
            (Item::Measure(m), Some(c)) => {
                let v = s.summary.get(*c).copied().flatten();
                writeln!(out, "{:<22}\tall\t{}", m.to_string(), cell(*m, v))?;
            }
            (Item::Measure(_), None) => {}
        }
    }
    Ok(())
}

/// The measures among the items, in order.
fn measures_of(items: &[Item]) -> Vec<Measure> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Measure(m) => Some(*m),
            Item::Runid => None,
        })
        .collect()
}

/// The values as trec_eval's JSON and CSV show them: undefined is 0.
fn measure_report<'a>(s: &'a Scored, a: &Args, measures: &'a [Measure]) -> MeasureReport<'a> {
    let zero = |v: &[Option<f64>]| v.iter().map(|x| Some(x.unwrap_or(0.0))).collect();
    MeasureReport {
        run: &s.run_id,
        measures,
        num_q: s.rows.len(),
        queries: a.per_query.then(|| {
            printed_rows(s)
                .map(|(q, v, _)| (q.as_str(), zero(v)))
                .collect()
        }),
        all: (!a.no_summary).then(|| zero(&s.summary)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(specs: &[&str]) -> Outcome<Vec<Item>> {
        let specs: Vec<String> = specs.iter().map(|s| (*s).to_owned()).collect();
        Ok(select(&specs, Ties::TrecEval)?.items)
    }

    #[test]
    fn measures_come_in_trec_evals_order_whatever_the_command_line() {
        let got = items(&["P.10,5", "map", "num_q"]).unwrap();
        assert_eq!(
            got,
            [
                Item::Measure(Measure::Queries),
                Item::Measure(Measure::AveragePrecision),
                Item::Measure(Measure::Precision(5)),
                Item::Measure(Measure::Precision(10)),
            ]
        );
        // The default is trec_eval's official set, runid first.
        let got = items(&[]).unwrap();
        assert_eq!(got.first(), Some(&Item::Runid));
        let rest: Vec<Item> = Measure::OFFICIAL.into_iter().map(Item::Measure).collect();
        assert_eq!(got[1..], rest[..]);
        // The first cut-offs of a family count, as in trec_eval.
        let specs: Vec<String> = ["P.5", "official", "P.10"].map(String::from).to_vec();
        let s = select(&specs, Ties::TrecEval).unwrap();
        assert!(s.items.contains(&Item::Measure(Measure::Precision(5))));
        assert!(!s.items.contains(&Item::Measure(Measure::Precision(10))));
        assert!(s.notes[0].contains("-m P.10 ignored"), "{:?}", s.notes);
        for bad in [
            "bpref.",
            "P.5,5",
            "P.0",
            "P.x",
            "iprec_at_recall.2",
            "rbp",
            "unj",
            "ndcg_rel.1=2",
        ] {
            let e = items(&[bad]).unwrap_err();
            assert_eq!(e.status(), 2, "{bad}");
        }
        let e = items(&["rbp"]).unwrap_err();
        assert!(
            e.message.contains("unknown measure \"rbp\""),
            "{}",
            e.message
        );
        assert!(e.message.contains("recip_rank"), "{}", e.message);
        // Under --ties expected, the official set loses gm_map and
        // iprec_at_recall (with a note); naming them is an error.
        let s = select(&["official".into()], Ties::Expected).unwrap();
        assert!(!s.items.contains(&Item::Measure(Measure::GeometricMap)));
        assert!(s.notes[0].contains("gm_map, iprec_at_recall left out"));
        assert_eq!(
            select(&["gm_map".into()], Ties::Expected)
                .err()
                .map(|e| e.status()),
            Some(2)
        );
    }

    #[test]
    fn the_set_nickname_and_full_names_are_read_by_the_library() {
        // trec_eval's `set`, whole and in trec_eval's order.
        let s = select(&["set".into()], Ties::TrecEval).unwrap();
        let names: Vec<String> = s
            .items
            .iter()
            .map(|i| match i {
                Item::Runid => "runid".to_owned(),
                Item::Measure(m) => m.to_string(),
            })
            .collect();
        assert_eq!(
            names,
            [
                "runid",
                "num_q",
                "num_ret",
                "num_rel",
                "num_rel_ret",
                "utility",
                "set_P",
                "set_relative_P",
                "set_recall",
                "set_map",
                "set_F"
            ]
        );
        assert!(s.notes.is_empty());
        let e = items(&["set_F.0.5"]).unwrap_err();
        assert!(
            e.message.contains("default parameters only"),
            "{}",
            e.message
        );
        // A measure's full name, recall levels included.
        assert_eq!(
            items(&["iprec_at_recall_0.20"]).unwrap(),
            [Item::Measure(Measure::InterpolatedPrecision(20))]
        );
        // Errors quote the option as given, however long.
        let long = format!("P.{}", "1,".repeat(50) + "x");
        let e = items(&[&long]).unwrap_err();
        assert!(e.message.contains(&echo(&long[2..])), "{}", e.message);
        let e = items(&["ndcg.1"]).unwrap_err();
        assert!(
            e.message.contains("takes no gain parameters"),
            "{}",
            e.message
        );
        let e = items(&["map.", "P.5"]).unwrap_err();
        assert!(
            e.message.contains("no cut-offs after its '.'"),
            "{}",
            e.message
        );
    }
}
