//! `acm compare trec QRELS RUN…`: TREC runs compared query by query.

use std::collections::HashMap;
use std::path::PathBuf;

use adaptive_comp_metrics::relevance::{
    Ids, Measure, NoRelevant, Qrels, TrecOptions, TrecRun, TrecSyntax, evaluate_trec,
    read_trec_qrels_with, read_trec_run_with,
};
use adaptive_comp_metrics::uncertainty::compare::{CompareError, Missing, ScoreTable};

use super::measures::{self, Kind, Spec};
use super::{FamilyArg, Options, Results, system_names};
use crate::error::{Failure, Outcome, echo};
use crate::input;
use crate::output::{Ctx, Out};
use crate::progress::Progress;

/// Compares TREC runs on the queries of a qrels file.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Measures (-m, repeatable; default AP, nDCG@10, P@10, RR) by trec_eval's names (map, P.5,10,
ndcg_cut.10, recip_rank, bpref, …) or ir_measures' (AP, AP@100, P@5, R@100, RR, RR@10, nDCG@10,
Rprec, Bpref, Success@10, IPrec@0.5, NumRelRet, Judged@10, P(rel=2)@5, AP(rel=2)); both compute
the same values as `acm trec`. A query one run lacks is an error naming it: -c scores the missing
queries as empty rankings, as trec_eval -c does.

Examples:
  acm compare trec qrels.txt bm25.run dense.run hybrid.run -m nDCG@10 -m AP
  acm compare trec -c qrels.txt *.run --test t --correction fdr_bh --format markdown")]
pub struct Args {
    /// The qrels file.
    pub qrels: PathBuf,
    /// Two or more run files.
    #[arg(required = true, num_args = 2..)]
    pub runs: Vec<PathBuf>,
    /// A measure (repeatable).
    #[arg(short = 'm', value_name = "MEASURE")]
    pub measures: Vec<String>,
    /// Score judged queries a run lacks as empty rankings (trec_eval -c).
    #[arg(short = 'c')]
    pub complete: bool,
    /// Smallest grade that counts as relevant (trec_eval -l), unless a measure sets rel=.
    #[arg(short = 'l', value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(i32).range(0..))]
    pub relevance_level: i32,
    /// Read blank lines and extra fields leniently (as `acm trec --syntax lenient`).
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub options: Options,
}

/// Reads the files, scores every run and compares them.
///
/// # Errors
/// A malformed file (with its line), an unknown measure, a query one run
/// lacks (without -c), a failed comparison.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome<Results> {
    let specs = measures::parse_all(&a.measures)?;
    let syntax = if a.lenient {
        TrecSyntax::Lenient
    } else {
        TrecSyntax::TrecEval
    };
    let mut ids = Ids::new();
    let qrels = read_trec_qrels_with(input::open(&a.qrels)?, &mut ids, syntax)
        .map_err(|e| Failure::in_file(&a.qrels, &e))?;
    if qrels.is_empty() {
        return Err(Failure::new("no judgements: the file has no record").file(&a.qrels));
    }
    let names = system_names(&a.runs);
    let compare = a.options.compare(&names)?;
    let mut runs = Vec::with_capacity(a.runs.len());
    {
        let bar = Progress::new(ctx, a.runs.len() as u64, "reading runs");
        for path in &a.runs {
            let run = read_trec_run_with(input::open(path)?, &mut ids, syntax)
                .map_err(|e| Failure::in_file(path, &e))?;
            if run.is_empty() {
                return Err(Failure::new("no ranked documents: the file has no record").file(path));
            }
            runs.push(run);
            bar.inc(1);
        }
    }
    let bar = Progress::new(ctx, specs.len() as u64, "comparing");
    let mut comparisons = Vec::with_capacity(specs.len());
    for spec in &specs {
        bar.message(format!("comparing {}", spec.name));
        let mut columns = Vec::with_capacity(runs.len());
        for (run, name) in runs.iter().zip(&names) {
            let mut scores = per_query(spec, &qrels, run, &ids, a)?;
            // Units in the order of their names: the same comparison (and
            // the same random sign flips) whatever the order of the files.
            scores.sort_by(|x, y| x.0.cmp(&y.0));
            columns.push((name.clone(), scores));
        }
        let keyed: Vec<(&str, &[(String, f64)])> = columns
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_slice()))
            .collect();
        let table = ScoreTable::from_keyed(&keyed, Missing::Error).map_err(|e| match &e {
            CompareError::MissingUnit {
                system,
                unit,
                other,
            } => {
                let path = names
                    .iter()
                    .position(|n| n == system)
                    .map_or(&a.qrels, |i| &a.runs[i]);
                Failure::new(format!(
                    "{}: query {} is judged and ranked by {} but missing from this run; \
                     -c scores missing queries as empty rankings (trec_eval -c)",
                    spec.name,
                    echo(unit),
                    echo(other)
                ))
                .file(path)
            }
            _ => Failure::from_error(&e),
        })?;
        if table.units() == 0 {
            return Err(Failure::new(format!(
                "{}: no query with both judgements and rankings",
                spec.name
            )));
        }
        let c = compare
            .units_seeded(&table, a.options.seed)
            .map_err(|e| Failure::from_error(&e))?;
        comparisons.push((spec.name.clone(), c));
        bar.inc(1);
    }
    drop(bar);
    let _ = out;
    Results::corrected(comparisons, Vec::new(), &a.options, FamilyArg::Measure)
}

/// One run's value of one measure on every scored query, keyed by query
/// name: the values `acm trec -q` prints (an undefined value as trec_eval's
/// 0).
fn per_query(
    spec: &Spec,
    qrels: &Qrels,
    run: &TrecRun,
    ids: &Ids,
    a: &Args,
) -> Outcome<Vec<(String, f64)>> {
    let measure = match spec.kind {
        Kind::Trec(m) => m,
        Kind::RrAt(_) => Measure::ReciprocalRank,
        Kind::Judged(_) => Measure::Queries,
    };
    let options = TrecOptions {
        relevance_level: spec.level.unwrap_or(a.relevance_level),
        no_relevant: NoRelevant::Zero,
        complete: a.complete,
        ..TrecOptions::default()
    };
    let report = evaluate_trec(qrels, run, &[measure], &options)?;
    let name = |q: u32| ids.queries().name(q).unwrap_or("?").to_owned();
    Ok(report
        .rows()
        .map(|(q, v)| {
            let value = v[0].unwrap_or_else(|| measure.value_if_undefined());
            let value = match spec.kind {
                Kind::Trec(_) => value,
                Kind::RrAt(k) => rr_at(&ir_ranking(qrels, run, ids, q), k, options.relevance_level),
                Kind::Judged(k) => judged_at(&ir_ranking(qrels, run, ids, q), k),
            };
            (name(q), value)
        })
        .collect())
}

/// Query `q`'s ranked documents in ir_measures' order (score descending,
/// then document id ascending; its `Judged` and `RR@k` providers sort so),
/// with each one's grade (`None`: unjudged).
fn ir_ranking(qrels: &Qrels, run: &TrecRun, ids: &Ids, q: u32) -> Vec<Option<i32>> {
    let Some((docs, scores)) = run.ranking(q) else {
        return Vec::new();
    };
    let grades: HashMap<u32, i32> = qrels
        .judgements(q)
        .map(|(d, g)| d.iter().copied().zip(g.iter().copied()).collect())
        .unwrap_or_default();
    let documents = ids.documents();
    let mut order: Vec<usize> = (0..docs.len()).collect();
    order.sort_by(|&x, &y| {
        scores[y].total_cmp(&scores[x]).then_with(|| {
            documents
                .name(docs[x])
                .unwrap_or("")
                .cmp(documents.name(docs[y]).unwrap_or(""))
        })
    });
    order
        .iter()
        .map(|&i| grades.get(&docs[i]).copied())
        .collect()
}

/// The share of judged documents among the top min(k, ranked) of a
/// ranking in ir_measures' order; 0 for an empty ranking.
fn judged_at(ranking: &[Option<i32>], k: usize) -> f64 {
    let top = &ranking[..k.min(ranking.len())];
    if top.is_empty() {
        return 0.0;
    }
    top.iter().filter(|g| g.is_some()).count() as f64 / top.len() as f64
}

/// 1/rank of the first document with a grade of at least `level` among the
/// top k of a ranking in ir_measures' order (its MS MARCO `RR@k`); 0 when
/// there is none.
fn rr_at(ranking: &[Option<i32>], k: usize, level: i32) -> f64 {
    ranking
        .iter()
        .take(k)
        .position(|g| g.is_some_and(|g| g >= level))
        .map_or(0.0, |r| 1.0 / (r + 1) as f64)
}
