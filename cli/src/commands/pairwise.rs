//! `acm pairwise fit`: the Bradley–Terry model (Davidson's ties) or the
//! noisy Bradley–Terry model (a reliability per worker) fitted to a list of
//! comparisons, with intervals on the scores and ranks, P(top k) and
//! whether the top k is settled. The pieces shared with
//! `acm campaign rank --estimator bt|noisy-bt` live here too.

use std::path::{Path, PathBuf};

use adaptive_comp_metrics::pairwise::{
    BradleyTerry, Comparisons, Fit, Inference, Method, NoisyBradleyTerry, PairwiseError,
    Uncertainty,
};

use crate::error::{Failure, Outcome, echo};
use crate::input::{self, Cell};
use crate::output::{Ctx, Format, FormatArg, Out, Table};

const AFTER: &str = "\
VOTES is a CSV file with a header naming the columns winner and loser, and optionally tie (0/1,
true/false, yes/no: the two items tied, their order meaningless) and worker (who voted: the noisy
model estimates each worker's reliability, the bootstrap resamples workers). Other columns are
ignored. With --items (a CSV file with a column item) the items are exactly those, in that
order: an item never compared is ranked too (its score rests on the prior alone), and a vote
naming another item is an error; --workers (a column worker) does the same for workers.

Scores are natural logarithms of Bradley–Terry strengths, centred (the odds that i beats j are
e^(score_i − score_j), as choix returns them). Intervals come from the observed Fisher information
(or, with --bootstrap N, from N replicates resampling workers); rank intervals and P(top k) from
draws of the scores. Without --prior-sd the fit is by maximum likelihood, which is infinite when an
item never lost (or never won) against the others: give a prior then.

Examples:
  acm pairwise fit votes.csv
  acm pairwise fit votes.csv --model noisy-bt --top-k 5 --format json
  acm pairwise fit votes.csv --prior-sd 2 --bootstrap 1000 --seed 7 --format csv
  acm pairwise fit votes.csv --items items.csv --workers workers.csv --prior-sd 2
  acm pairwise fit votes.csv --no-draws --format csv";

/// Models fitted to pairwise comparisons.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  acm pairwise fit votes.csv
  acm pairwise fit votes.csv --model noisy-bt --top-k 5 --format json")]
pub struct Args {
    /// The step.
    #[command(subcommand)]
    pub command: Step,
}

/// The `pairwise` steps.
#[derive(Debug, clap::Subcommand)]
pub enum Step {
    Fit(FitArgs),
}

/// Which model ranks the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    /// Bradley–Terry with Davidson's ties, by maximum likelihood (or MAP under --prior-sd).
    Bt,
    /// Noisy Bradley–Terry: each worker answers by the model with a reliability, else at random.
    NoisyBt,
}

impl ModelArg {
    /// The name printed in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bt => "bt",
            Self::NoisyBt => "noisy-bt",
        }
    }
}

/// The options of a fit and of its uncertainty.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ModelOptions {
    /// A Gaussian prior N(0, SD²) on every score (ℓ2 regularisation): finite scores for an item
    /// that won or lost every comparison.
    #[arg(long, value_name = "SD")]
    pub prior_sd: Option<f64>,
    /// Coverage of the score and rank intervals, in (0, 1).
    #[arg(long, default_value_t = 0.95, value_parser = crate::params::open_unit)]
    pub level: f64,
    /// k of P(top k) and of the settled top k.
    #[arg(long, default_value_t = 10)]
    pub top_k: usize,
    /// The probability at which the top k counts as settled, in (0, 1).
    #[arg(long, default_value_t = 0.95, value_parser = crate::params::open_unit)]
    pub settle: f64,
    /// Intervals from this many bootstrap replicates resampling workers (instead of the observed
    /// information).
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Seed of the draws and of the bootstrap.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Fits Bradley–Terry (or noisy Bradley–Terry) to a list of comparisons.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct FitArgs {
    /// The comparisons (CSV: winner, loser, optional tie and worker columns).
    pub votes: PathBuf,
    /// The model.
    #[arg(long, value_enum, default_value_t = ModelArg::Bt)]
    pub model: ModelArg,
    /// The items (CSV with a column item): every one is ranked, compared or not, and a vote
    /// naming another is an error.
    #[arg(long, value_name = "FILE")]
    pub items: Option<PathBuf>,
    /// The workers (CSV with a column worker): a vote by another is an error.
    #[arg(long, value_name = "FILE")]
    pub workers: Option<PathBuf>,
    #[command(flatten)]
    pub options: ModelOptions,
    /// Scores, standard errors and score intervals only (columns rank, item, score, se, low,
    /// high): no draws of the scores, so no rank intervals, P(top k) or settled top k, in a
    /// fraction of the time (the draws cost more than the standard errors).
    #[arg(long, conflicts_with = "bootstrap")]
    pub no_draws: bool,
    #[command(flatten)]
    pub output: FormatArg,
}

/// Runs a `pairwise` step.
///
/// # Errors
/// See [`fit`].
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    match &a.command {
        Step::Fit(f) => fit(f, ctx, out),
    }
}

/// A library error about an option's value: a command-line error.
fn usage(e: &PairwiseError) -> Failure {
    Failure::usage(e.to_string().replace("prior_sd", "--prior-sd"))
}

/// A failed fit of the comparisons read from `path` (or of a campaign's
/// votes): the library's message, the option to use in the CLI's words.
pub fn fit_failure(path: &Path, e: &PairwiseError) -> Failure {
    match e {
        PairwiseError::InvalidParameter { .. } => usage(e),
        _ => Failure::about(path, e.to_string().replace("(prior_sd)", "with --prior-sd")),
    }
}

/// The inference options of `options`.
///
/// # Errors
/// A bad level, top k or settle probability.
fn inference(options: &ModelOptions) -> Result<Inference, PairwiseError> {
    Ok(Inference::new()
        .level(options.level)?
        .top_k(options.top_k.max(1))?
        .settle(options.settle)?
        .seed(options.seed))
}

/// The fit alone under `options` (the bootstrap option aside).
///
/// # Errors
/// The library's: a graph without a finite maximum, a bad option.
pub fn fit_only(
    model: ModelArg,
    options: &ModelOptions,
    data: &Comparisons,
) -> Result<Fit, PairwiseError> {
    match model {
        ModelArg::Bt => {
            let mut m = BradleyTerry::new();
            if let Some(sd) = options.prior_sd {
                m = m.prior_sd(sd)?;
            }
            m.fit(data)
        }
        ModelArg::NoisyBt => {
            let mut m = NoisyBradleyTerry::new();
            if let Some(sd) = options.prior_sd {
                m = m.prior_sd(sd)?;
            }
            m.fit(data)
        }
    }
}

/// The fit and its uncertainty under `options`.
///
/// # Errors
/// The library's: a graph without a finite maximum, a bad option.
pub fn fit_model(
    model: ModelArg,
    options: &ModelOptions,
    data: &Comparisons,
) -> Result<(Fit, Uncertainty), PairwiseError> {
    let inference = inference(options)?;
    match (model, options.bootstrap) {
        (ModelArg::Bt, Some(n)) => {
            let mut m = BradleyTerry::new();
            if let Some(sd) = options.prior_sd {
                m = m.prior_sd(sd)?;
            }
            m.bootstrap(data, n, &inference)
        }
        (ModelArg::NoisyBt, Some(n)) => {
            let mut m = NoisyBradleyTerry::new();
            if let Some(sd) = options.prior_sd {
                m = m.prior_sd(sd)?;
            }
            m.bootstrap(data, n, &inference)
        }
        (_, None) => {
            let fit = fit_only(model, options, data)?;
            let u = fit.uncertainty(data, &inference)?;
            Ok((fit, u))
        }
    }
}

/// The ranking as a table: `rank`, the label columns, `score`, `se`, `low`,
/// `high` (the score interval), `rank_low`, `rank_high` (the rank
/// interval, 1 the best) and `p_top_k`, best first. Numbers in full
/// precision unless `short` (4 decimals, for a person).
pub fn ranking_table(
    fit: &Fit,
    u: &Uncertainty,
    label_header: &[&str],
    label: impl Fn(usize) -> Vec<String>,
    short: bool,
) -> Table {
    let mut header = vec!["rank"];
    header.extend_from_slice(label_header);
    header.extend_from_slice(&[
        "score",
        "se",
        "low",
        "high",
        "rank_low",
        "rank_high",
        "p_top_k",
    ]);
    let num = |x: f64| {
        if short {
            format!("{x:.4}")
        } else {
            x.to_string()
        }
    };
    let mut t = Table::new(&header, 1 + label_header.len());
    for (r, i) in fit.order().into_iter().enumerate() {
        let mut row = vec![(r + 1).to_string()];
        row.extend(label(i));
        let [lo, hi] = u.intervals[i];
        let [rlo, rhi] = u.rank_intervals[i];
        row.extend([
            num(fit.scores[i]),
            num(u.standard_errors[i]),
            num(lo),
            num(hi),
            rlo.to_string(),
            rhi.to_string(),
            num(u.top_k_probability[i]),
        ]);
        t.row(row);
    }
    t
}

/// What the fit was and whether its top k is settled, in lines for a
/// person.
pub fn summary(model: ModelArg, fit: &Fit, u: &Uncertainty, data: &Comparisons) -> Vec<String> {
    let mut lines = Vec::new();
    let method = match u.method {
        Method::Exact => "the observed information".to_owned(),
        Method::Approximate => "the observed information (approximate: many items)".to_owned(),
        Method::Bootstrap { replicates, failed } => {
            format!("{replicates} bootstrap replicates resampling workers ({failed} failed)")
        }
    };
    lines.push(fit_line(model, fit, data, u.level, &method));
    lines.push(settled_line(u));
    if !fit.workers.is_empty() {
        let mut w: Vec<_> = fit.workers.iter().collect();
        w.sort_by(|a, b| a.reliability.total_cmp(&b.reliability));
        let low: Vec<String> = w
            .iter()
            .take(5)
            .map(|w| format!("{} {:.3}", echo(&w.name), w.reliability))
            .collect();
        lines.push(format!("least reliable workers: {}", low.join(", ")));
    }
    lines
}

/// The fit in one line for a person: the model, the data, the
/// log-likelihood, the iterations and where the intervals come from.
fn fit_line(model: ModelArg, fit: &Fit, data: &Comparisons, level: f64, method: &str) -> String {
    format!(
        "{}: {} items, {} comparisons ({} ties), {} workers; log-likelihood {:.4}{}; {} iterations; {:.0}% intervals from {method}",
        model.name(),
        fit.scores.len(),
        fit.comparisons,
        data.ties(),
        data.n_workers(),
        fit.log_likelihood,
        fit.tie
            .map_or(String::new(), |nu| format!(", tie ν {nu:.4}")),
        fit.iterations,
        100.0 * level,
    )
}

/// Whether the top k is settled, in one line for a person: P(the
/// estimated top k is the top k) against the target and, when it falls
/// short, the expected further comparisons that would settle it.
pub fn settled_line(u: &Uncertainty) -> String {
    let s = &u.settled;
    if s.settled {
        format!(
            "top {} settled: P(the same {} items) = {:.3} ≥ {}",
            s.k, s.k, s.probability, s.target
        )
    } else {
        let more = match s.further_comparisons {
            Some(m) => format!("about {m} further comparisons would settle it"),
            None => "two items at its boundary have equal scores: more of the same comparisons cannot settle it".to_owned(),
        };
        format!(
            "top {} not settled: P(the same {} items) = {:.3} < {}; {more}; the largest settled top k is {}",
            s.k, s.k, s.probability, s.target, s.largest_settled
        )
    }
}

/// The names of the items `indices` of `fit`, in that order.
pub fn item_names<'a>(fit: &'a Fit, indices: &[usize]) -> Vec<&'a str> {
    indices.iter().map(|&i| fit.items[i].as_str()).collect()
}

/// The settled top k as JSON, items by name: `k`, `top` (best first),
/// `probability`, `target`, `settled`, `largest_settled`,
/// `probability_by_k`, `contested`, `further_comparisons`.
pub fn settled_json(fit: &Fit, u: &Uncertainty) -> serde_json::Value {
    let names = |v: &[usize]| item_names(fit, v);
    serde_json::json!({
        "k": u.settled.k,
        "top": names(&u.settled.top),
        "probability": u.settled.probability,
        "target": u.settled.target,
        "settled": u.settled.settled,
        "largest_settled": u.settled.largest_settled,
        "probability_by_k": u.settled.probability_by_k,
        "contested": names(&u.settled.contested),
        "further_comparisons": u.settled.further_comparisons,
    })
}

/// The whole result as one JSON document: the fit's figures, the ranking
/// rows, the settled top k and the workers.
pub fn json_document(
    model: ModelArg,
    fit: &Fit,
    u: &Uncertainty,
    data: &Comparisons,
    ranking: &Table,
) -> serde_json::Value {
    let mut doc = fit_fields(model, fit, data);
    for (k, v) in [
        ("method", serde_json::json!(u.method)),
        ("level", serde_json::json!(u.level)),
        ("draws", serde_json::json!(u.draws)),
        ("settled", settled_json(fit, u)),
        ("ranking", ranking.json()),
        ("worker_fits", serde_json::json!(fit.workers)),
    ] {
        doc.insert(k.to_owned(), v);
    }
    serde_json::Value::Object(doc)
}

/// The fit's figures of the JSON document: `model`, `items`,
/// `comparisons`, `ties`, `workers`, `log_likelihood`, `tie`, `prior_sd`,
/// `iterations`, `gradient`.
fn fit_fields(
    model: ModelArg,
    fit: &Fit,
    data: &Comparisons,
) -> serde_json::Map<String, serde_json::Value> {
    [
        ("model", serde_json::json!(model.name())),
        ("items", serde_json::json!(fit.scores.len())),
        ("comparisons", serde_json::json!(fit.comparisons)),
        ("ties", serde_json::json!(data.ties())),
        ("workers", serde_json::json!(data.n_workers())),
        ("log_likelihood", serde_json::json!(fit.log_likelihood)),
        ("tie", serde_json::json!(fit.tie)),
        ("prior_sd", serde_json::json!(fit.prior_sd)),
        ("iterations", serde_json::json!(fit.iterations)),
        ("gradient", serde_json::json!(fit.gradient)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// A field's text, with where it is; `None` when the column is absent or
/// the field empty.
fn present(field: Option<&(String, Cell)>) -> Option<(&str, Cell)> {
    field
        .filter(|(t, _)| !t.is_empty())
        .map(|(t, c)| (t.as_str(), *c))
}

/// The names in column `column` of a catalogue file, in file order.
///
/// # Errors
/// A malformed file, an empty field, a name given twice: with its line and
/// column.
fn read_catalogue(path: &Path, column: &str) -> Result<Vec<String>, Failure> {
    let rows = input::read_text_columns(path, &[(column, true)])?;
    let mut seen = std::collections::HashMap::new();
    let mut names = Vec::with_capacity(rows.len());
    for row in rows {
        let (name, c) = match row.fields[0] {
            Some((ref t, c)) if !t.is_empty() => (t.clone(), c),
            _ => {
                return Err(
                    Failure::about(path, format!("column {column:?}: empty field"))
                        .at(Some(row.line), None),
                );
            }
        };
        if let Some(first) = seen.insert(name.clone(), c.line) {
            return Err(Failure::about(
                path,
                format!("{column} {} already listed on line {first}", echo(&name)),
            )
            .at(Some(c.line), Some(c.column)));
        }
        names.push(name);
    }
    Ok(names)
}

/// Reads a winner–loser list; with `items` / `workers` (catalogue files)
/// the list's items / workers are exactly theirs.
///
/// # Errors
/// A malformed file or record, with its line and column; an item or worker
/// outside its catalogue.
pub fn read_votes(
    path: &Path,
    items: Option<&Path>,
    workers: Option<&Path>,
) -> Result<Comparisons, Failure> {
    let mut data = match items {
        Some(f) => Comparisons::with_items(read_catalogue(f, "item")?)
            .map_err(|e| Failure::about(f, e.to_string()))?,
        None => Comparisons::new(),
    };
    if let Some(f) = workers {
        data = data
            .fix_workers(read_catalogue(f, "worker")?)
            .map_err(|e| Failure::about(f, e.to_string()))?;
    }
    let rows = input::read_text_columns(
        path,
        &[
            ("winner", true),
            ("loser", true),
            ("tie", false),
            ("worker", false),
        ],
    )?;
    let at =
        |c: Cell, message: String| Failure::about(path, message).at(Some(c.line), Some(c.column));
    for row in &rows {
        let field = |k: usize, name: &str| {
            present(row.fields[k].as_ref()).ok_or_else(|| {
                let f = Failure::about(path, format!("column {name:?}: empty field"));
                match &row.fields[k] {
                    Some((_, c)) => f.at(Some(c.line), Some(c.column)),
                    None => f.at(Some(row.line), None),
                }
            })
        };
        let (winner, winner_at) = field(0, "winner")?;
        let (loser, loser_at) = field(1, "loser")?;
        let tie = match present(row.fields[2].as_ref()) {
            None => false,
            Some((t, c)) => match t.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" => true,
                "0" | "false" | "no" => false,
                _ => {
                    return Err(at(
                        c,
                        format!(
                            "column \"tie\": {} is not 0/1, true/false or yes/no",
                            echo(t)
                        ),
                    ));
                }
            },
        };
        let worker = present(row.fields[3].as_ref());
        data.add_result(winner, loser, tie, worker.map(|(w, _)| w))
            .map_err(|e| match e {
                PairwiseError::SelfComparison { item, .. } => at(
                    loser_at,
                    format!("item {} is compared with itself", echo(&item)),
                ),
                PairwiseError::UnknownItem { item, .. } => at(
                    if item == winner { winner_at } else { loser_at },
                    format!("item {} is not in the items file", echo(&item)),
                ),
                PairwiseError::UnknownWorker { worker: w, .. } => at(
                    worker.map_or(winner_at, |(_, c)| c),
                    format!("worker {} is not in the workers file", echo(&w)),
                ),
                e => Failure::about(path, e.to_string()).at(Some(row.line), None),
            })?;
    }
    Ok(data)
}

/// `acm pairwise fit`.
///
/// # Errors
/// A malformed file; a fit that has no finite maximum (with the items);
/// a bad option.
pub fn fit(a: &FitArgs, ctx: &Ctx, out: &mut Out) -> Outcome {
    let data = read_votes(&a.votes, a.items.as_deref(), a.workers.as_deref())?;
    if a.no_draws {
        return fit_without_draws(a, &data, ctx, out);
    }
    let (fit, u) = fit_model(a.model, &a.options, &data).map_err(|e| fit_failure(&a.votes, &e))?;
    let format = a.output.format;
    let table = ranking_table(
        &fit,
        &u,
        &["item"],
        |i| vec![fit.items[i].clone()],
        format == Format::Table,
    );
    let lines = summary(a.model, &fit, &u, &data);
    match format {
        Format::Json => out.json(&json_document(a.model, &fit, &u, &data, &table)),
        Format::Csv => {
            table.write(format, out)?;
            for l in lines {
                ctx.note(out, l);
            }
            Ok(())
        }
        Format::Table => {
            for l in &lines {
                writeln!(out, "{l}")?;
            }
            writeln!(out)?;
            table.write(format, out)
        }
    }
}

/// `acm pairwise fit --no-draws`: the ranking with standard errors and
/// score intervals, and the fit's line of the summary.
fn fit_without_draws(a: &FitArgs, data: &Comparisons, ctx: &Ctx, out: &mut Out) -> Outcome {
    let failure = |e: PairwiseError| fit_failure(&a.votes, &e);
    let fit = fit_only(a.model, &a.options, data).map_err(failure)?;
    let inference = inference(&a.options).map_err(failure)?;
    let (se, intervals) = fit.standard_errors(data, &inference).map_err(failure)?;
    let format = a.output.format;
    let num = |x: f64| {
        if format == Format::Table {
            format!("{x:.4}")
        } else {
            x.to_string()
        }
    };
    let mut table = Table::new(&["rank", "item", "score", "se", "low", "high"], 2);
    for (r, i) in fit.order().into_iter().enumerate() {
        let [lo, hi] = intervals[i];
        table.row(vec![
            (r + 1).to_string(),
            fit.items[i].clone(),
            num(fit.scores[i]),
            num(se[i]),
            num(lo),
            num(hi),
        ]);
    }
    let line = fit_line(
        a.model,
        &fit,
        data,
        a.options.level,
        "the observed information (no draws)",
    );
    match format {
        Format::Json => {
            let mut doc = fit_fields(a.model, &fit, data);
            for (k, v) in [
                ("level", serde_json::json!(a.options.level)),
                ("draws", serde_json::json!(0)),
                ("ranking", table.json()),
                ("worker_fits", serde_json::json!(fit.workers)),
            ] {
                doc.insert(k.to_owned(), v);
            }
            out.json(&serde_json::Value::Object(doc))
        }
        Format::Csv => {
            table.write(format, out)?;
            ctx.note(out, line);
            Ok(())
        }
        Format::Table => {
            writeln!(out, "{line}")?;
            writeln!(out)?;
            table.write(format, out)
        }
    }
}
