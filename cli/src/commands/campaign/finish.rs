//! `close`, `exclude`, `rank`: ending a ballot, excluding workers, the
//! final ranking and a model's correlation with it.

use std::collections::HashMap;

use adaptive_comp_metrics::ballot::{BallotError, Exclusion, ExclusionRule, Phase, Unvoted};
use adaptive_comp_metrics::pairwise::{CampaignVotes, Comparisons, Fit, Uncertainty};

use crate::commands::pairwise::{self, ModelArg};
use std::path::Path;

use super::files::{
    MAX_ERRORS, check_output, csv_bytes, csv_writer, lock, read_columns, write_atomic,
};
use super::setup::parse_layout;
use super::state::{RngState, State, StateFile as _, state_error};
use super::{Env, Failure, Outcome, ballot_error, fmt_opt, open_ballot, report_open};

/// How unanswered comparisons are treated when a ballot closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UnvotedArg {
    /// Refuse to close while a comparison has no vote.
    Reject,
    /// Drop the unanswered comparisons.
    Withdraw,
}

/// Exclusion of workers by their accuracy on control pairs.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ExclusionArgs {
    /// Exclude the workers whose accuracy on control pairs is below this (in [0, 1]).
    #[arg(long, value_parser = crate::params::unit)]
    pub min_accuracy: Option<f64>,
    /// … among those with at least this many control answers.
    #[arg(long, requires = "min_accuracy", default_value_t = 5)]
    pub min_controls: u64,
}

/// Closes the open ballot (after optional exclusions) and opens the next one.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The excluded workers' answers of this ballot are discarded and logged, and their tasks can be
answered again. --ballot K makes the command idempotent: closing a ballot already closed does
nothing.

Example:
  acm campaign close --state s.json --ballot 1 --min-accuracy 0.7 --min-controls 5
  acm campaign close --state s.json --unvoted withdraw")]
pub struct CloseArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    /// The ballot to close (nothing to do if it is already closed).
    #[arg(long)]
    pub ballot: Option<usize>,
    /// Unanswered comparisons: refuse to close, or withdraw them.
    #[arg(long, value_enum, default_value_t = UnvotedArg::Reject)]
    pub unvoted: UnvotedArg,
    #[command(flatten)]
    pub exclusion: ExclusionArgs,
    /// Share of control tasks from the next ballot on, in [0, 1).
    #[arg(long, value_parser = crate::params::share)]
    pub control_rate: Option<f64>,
    /// Tasks per unit from the next ballot on (0: no units).
    #[arg(long)]
    pub unit_size: Option<usize>,
}

/// Excludes workers now, without closing, so that their tasks can be answered again.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  acm campaign exclude --state s.json --min-accuracy 0.7
  acm campaign exclude --state s.json --worker A1B2C3
  acm campaign export --state s.json --out again.csv --missing")]
pub struct ExcludeArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    #[command(flatten)]
    pub exclusion: ExclusionArgs,
    /// Exclude this worker.
    #[arg(long, required_unless_present = "min_accuracy")]
    pub worker: Option<String>,
}

/// How `rank` estimates the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Estimator {
    /// The rescaled Borda score ȳ at the last ballot an item reached (Lombardo et al. 2020).
    Borda,
    /// Bradley–Terry with Davidson's ties fitted to every vote, with intervals.
    Bt,
    /// Noisy Bradley–Terry (a reliability per worker) fitted to every vote, with intervals.
    NoisyBt,
}

/// Writes the ranking (rank,id,text,score,last_ballot) and a model's correlation with it.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
With --model (a CSV file: id,score for every item), prints the model's ρ_w, τ_w, ρ and τ-b
against the collected scores.

--estimator bt or noisy-bt fits a Bradley–Terry model to every vote of the campaign (the open
ballot's so far included, excluded workers' votes as the campaign counts them) and writes
rank,id,text,score,se,low,high,rank_low,rank_high,p_top_k (scores: log-strengths; low/high and
rank_low/rank_high: --level intervals; p_top_k: P(in the top --top-k)), and says whether the
top k is settled.

Examples:
  acm campaign rank --state s.json --out ranking.csv --model model.csv
  acm campaign rank --state s.json --estimator bt --prior-sd 3 --top-k 5
  acm campaign rank --state s.json --estimator bt --out ranking.csv --plot ranking.svg")]
pub struct RankArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    /// Where to write the ranking (`-`: standard output); never the state file.
    #[arg(long, default_value = "-")]
    pub out: String,
    /// A model's scores of the items (CSV).
    #[arg(long)]
    pub model: Option<String>,
    /// Column of the item ids in the model file.
    #[arg(long, default_value = "id")]
    pub model_id_column: String,
    /// Column of the scores in the model file.
    #[arg(long, default_value = "score")]
    pub model_score_column: String,
    /// How the ranking is estimated (`acm pairwise fit` calls its choice of model --model; here
    /// --model names a model's scores to correlate with the ranking).
    #[arg(long, value_enum, default_value_t = Estimator::Borda)]
    pub estimator: Estimator,
    #[command(flatten)]
    pub fit: crate::commands::pairwise::ModelOptions,
    /// Draw the fitted ranking as SVG (--estimator bt or noisy-bt): the best 30 items' scores with
    /// their intervals, the top k filled. Example: --estimator bt --plot ranking.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
}

fn load(path: &str) -> Result<(String, State), Failure> {
    Ok((path.to_owned(), State::load(path)?))
}

/// `close`: optional exclusions, close the open ballot, open the next.
///
/// # Errors
/// No open ballot; missing votes under `--unvoted reject`; bad options.
pub fn close(args: &CloseArgs, env: &mut Env<'_>) -> Outcome {
    let _lock = lock(&args.state)?;
    let (path, mut state) = load(&args.state)?;
    if let Some(k) = args.ballot {
        let closed = state.campaign.scheduler().history().len();
        if k >= 1 && k <= closed {
            env.say(format_args!("ballot {k} is already closed: nothing to do"))?;
            return report_open(&state, env);
        }
        if state.campaign.open_ballot_number() != Some(k) {
            return Err(Failure::about(&path, format!("ballot {k} is not open")));
        }
    }
    let k = open_ballot(&state, &path)?;
    let unvoted = match args.unvoted {
        UnvotedArg::Reject => Unvoted::Reject,
        UnvotedArg::Withdraw => Unvoted::Withdraw,
    };
    let layout = parse_layout(
        args.control_rate,
        args.unit_size,
        state.campaign.layout_options(),
        0.0,
    )?;
    let excluded = exclude_by_accuracy(&args.exclusion, &mut state)?;
    let closed = match state.campaign.close_ballot(unvoted) {
        Ok(s) => s.clone(),
        Err(BallotError::MissingVotes { ballot, missing }) => {
            return Err(Failure::about(
                &path,
                format!(
                    "ballot {ballot} has {missing} comparison(s) without a vote{}: import more answers, or close with --unvoted withdraw",
                    if excluded.is_empty() {
                        ""
                    } else {
                        " once the excluded workers' votes are discarded"
                    }
                ),
            ));
        }
        Err(BallotError::NoVotes { item, ballot }) => {
            return Err(Failure::about(
                &path,
                format!(
                    "item {:?} has no vote in ballot {ballot}: import answers for it before closing",
                    state.thing(item).0
                ),
            ));
        }
        Err(e) => return Err(Failure::about(&path, e.to_string())),
    };
    state
        .campaign
        .set_layout_options(layout)
        .map_err(ballot_error)?;
    if state.campaign.scheduler().phase() != Phase::Finished {
        let mut brng = state
            .ballot_rng
            .generator(state.seed)
            .map_err(|e| state_error(None, &e))?;
        let mut lrng = state
            .layout_rng
            .generator(state.seed)
            .map_err(|e| state_error(None, &e))?;
        state
            .campaign
            .open_ballot(&mut brng, &mut lrng)
            .map_err(ballot_error)?;
        state.ballot_rng = RngState::of(&brng);
        state.layout_rng = RngState::of(&lrng);
    }
    state.save(&path, env)?;
    report_exclusions(&excluded, k, env)?;
    env.say(format_args!(
        "ballot {k} closed: {} votes, {} comparison(s) withdrawn, b = {}",
        closed.votes, closed.withdrawn, closed.b_hat
    ))?;
    report_open(&state, env)
}

pub(super) fn exclude_by_accuracy(
    args: &ExclusionArgs,
    state: &mut State,
) -> Result<Vec<Exclusion>, Failure> {
    match args.min_accuracy {
        Some(a) => {
            let rule = ExclusionRule::new(a, args.min_controls).map_err(ballot_error)?;
            state.campaign.exclude_workers(&rule).map_err(ballot_error)
        }
        None => Ok(Vec::new()),
    }
}

pub(super) fn report_exclusions(excluded: &[Exclusion], k: usize, env: &mut Env<'_>) -> Outcome {
    for e in excluded {
        env.say(format_args!(
            "excluded worker {}: accuracy {} on {} control answer(s), {} answer(s) of ballot {k} discarded",
            e.worker,
            fmt_opt(e.accuracy()),
            e.controls,
            e.discarded
        ))?;
    }
    Ok(())
}

/// `exclude`: excludes workers now, by accuracy (`--min-accuracy`) or by id
/// (`--worker`), without closing: their answers of the open ballot are
/// discarded and the tasks can be exported again with `export --missing`.
///
/// # Errors
/// No open ballot; bad options; an unknown worker.
pub fn exclude(args: &ExcludeArgs, env: &mut Env<'_>) -> Outcome {
    let _lock = lock(&args.state)?;
    let (path, mut state) = load(&args.state)?;
    let k = open_ballot(&state, &path)?;
    let mut excluded = exclude_by_accuracy(&args.exclusion, &mut state)?;
    if let Some(w) = args.worker.as_deref() {
        if !state.campaign.workers().iter().any(|x| x == w) {
            return Err(Failure::about(
                &path,
                format!("no worker {} has answered", crate::error::echo(w)),
            ));
        }
        excluded.extend(state.campaign.exclude_worker(w).map_err(ballot_error)?);
    }
    if excluded.is_empty() {
        return env.say(format_args!("nobody to exclude"));
    }
    state.save(&path, env)?;
    report_exclusions(&excluded, k, env)?;
    report_open(&state, env)
}

/// `rank`: the ranking as CSV and, with `--model`, the model's correlation
/// with it.
///
/// # Errors
/// Nothing closed yet; a bad model file.
pub fn rank(args: &RankArgs, env: &mut Env<'_>) -> Outcome {
    check_output(&args.out, &args.state)?;
    if let Some(p) = &args.plot {
        crate::plot::check(p)?;
        if args.estimator == Estimator::Borda {
            return Err(crate::plot::nothing_to_draw(
                "campaign rank",
                "a fitted model: give --estimator bt or noisy-bt",
            ));
        }
    }
    let (path, state) = load(&args.state)?;
    let model = match args.estimator {
        Estimator::Borda => return rank_borda(args, &state, env),
        Estimator::Bt => ModelArg::Bt,
        Estimator::NoisyBt => ModelArg::NoisyBt,
    };
    let c = &state.campaign;
    let (data, fit, u) = campaign_fit(&state, &path, model, &args.fit)?;
    if let Some(p) = &args.plot {
        crate::plot::write(p, super::plot::ranking(model.name(), &fit, &u))?;
    }
    let table = pairwise::ranking_table(
        &fit,
        &u,
        &["id", "text"],
        |i| {
            let (id, text, _) = state.thing(i);
            vec![id.to_owned(), text.to_owned()]
        },
        false,
    );
    let mut w = csv_writer();
    let csv_err = |e: csv::Error| Failure::new(format!("cannot build the CSV: {e}"));
    w.write_record(&table.header).map_err(csv_err)?;
    for r in &table.rows {
        w.write_record(r).map_err(csv_err)?;
    }
    let collected = fit.scores.clone();
    let model_scores = match args.model.as_deref() {
        Some(m) => Some(read_model(args, m, &state)?),
        None => None,
    };
    write_atomic(&args.out, &csv_bytes(w)?, env)?;
    let mut lines = pairwise::summary(model, &fit, &u, &data);
    if let Some(k) = c.open_ballot_number() {
        lines.push(format!(
            "note: ballot {k} is still open: the fit includes its votes so far"
        ));
    }
    if let Some(m) = model_scores {
        lines.push(correlation_line(&collected, &m));
    }
    report_lines(&args.out, lines, env)
}

/// The votes of a campaign, a model's fit of them and its uncertainty.
pub(super) type CampaignFit = (Comparisons, Fit, Uncertainty);

/// A model fitted to every vote of the campaign (the open ballot's so far
/// included), items named by their ids: the votes, the fit and its
/// uncertainty.
///
/// # Errors
/// No vote yet; a fit without a finite maximum (with the items) or a bad
/// option, about the state file `path`.
pub(super) fn campaign_fit(
    state: &State,
    path: &str,
    model: ModelArg,
    options: &pairwise::ModelOptions,
) -> Result<CampaignFit, Failure> {
    let mut data = Comparisons::from_campaign(&state.campaign, CampaignVotes::default());
    if data.is_empty() {
        return Err(Failure::about(path, "no vote has been recorded yet"));
    }
    data.rename_items(state.items.ids.iter())
        .map_err(|e| Failure::about(path, e.to_string()))?;
    let (fit, u) = pairwise::fit_model(model, options, &data)
        .map_err(|e| pairwise::fit_failure(Path::new(path), &e))?;
    Ok((data, fit, u))
}

/// The model's correlations with the collected scores, in one line.
fn correlation_line(collected: &[f64], model: &[f64]) -> String {
    let m = |r: adaptive_comp_metrics::correlation::Result<f64>| match r {
        Ok(v) => format!("{v:.4}"),
        Err(e) => format!("undefined ({e})"),
    };
    format!(
        "model against the collected ranking: rho_w {}  tau_w {}  rho {}  tau_b {}",
        m(adaptive_comp_metrics::rho_w(collected, model).map(|r| r.rho)),
        m(adaptive_comp_metrics::tau_w(collected, model).map(|r| r.tau)),
        m(adaptive_comp_metrics::spearman(collected, model).map(|r| r.rho)),
        m(adaptive_comp_metrics::kendall_tau_b(collected, model).map(|r| r.tau)),
    )
}

/// The report's lines: on stderr when the ranking went to stdout.
fn report_lines(out: &str, lines: Vec<String>, env: &mut Env<'_>) -> Outcome {
    for l in lines {
        if out == "-" {
            env.note(format_args!("{l}"))?;
        } else {
            env.say(format_args!("{l}"))?;
        }
    }
    Ok(())
}

/// `rank --estimator borda`: the paper's ranking.
fn rank_borda(args: &RankArgs, state: &State, env: &mut Env<'_>) -> Outcome {
    let out = args.out.as_str();
    let c = &state.campaign;
    let mut rng = state
        .ballot_rng
        .generator(state.seed)
        .map_err(|e| state_error(None, &e))?;
    let ranking = c.ranking(&mut rng).map_err(ballot_error)?;
    let mut w = csv_writer();
    let csv_err = |e: csv::Error| Failure::new(format!("cannot build the CSV: {e}"));
    w.write_record(["rank", "id", "text", "score", "last_ballot"])
        .map_err(csv_err)?;
    for (r, e) in ranking.entries.iter().enumerate() {
        let (id, text, _) = state.thing(e.item);
        w.write_record([
            (r + 1).to_string().as_str(),
            id,
            text,
            e.score.to_string().as_str(),
            e.last_ballot.to_string().as_str(),
        ])
        .map_err(csv_err)?;
    }
    let model = match args.model.as_deref() {
        Some(m) => Some(read_model(args, m, state)?),
        None => None,
    };
    let bytes = csv_bytes(w)?;
    write_atomic(out, &bytes, env)?;
    let mut lines = Vec::new();
    if let Some(k) = c.open_ballot_number() {
        lines.push(format!(
            "note: ballot {k} is still open: the ranking uses the closed ballots only"
        ));
    }
    if let Some(model) = model {
        let n = c.scheduler().config().n_items();
        let mut collected = vec![0.0; n];
        for e in &ranking.entries {
            collected[e.item] = e.score;
        }
        lines.push(correlation_line(&collected, &model));
    }
    report_lines(out, lines, env)
}

/// A model's score for every item, by item index.
pub(super) fn read_model(args: &RankArgs, path: &str, state: &State) -> Result<Vec<f64>, Failure> {
    let id_col = args.model_id_column.as_str();
    let score_col = args.model_score_column.as_str();
    let (rows, mut bad) = read_columns(path, &[id_col, score_col])?;
    let n = state.items.len();
    let index: HashMap<&str, usize> = state
        .items
        .ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let mut scores = vec![f64::NAN; n];
    let mut line_of = vec![0u64; n];
    for (line, v) in rows {
        let Some(&i) = index.get(v[0].as_str()) else {
            bad.push(Failure::at_line(
                path,
                line,
                format!("unknown item id {}", crate::error::echo(&v[0])),
            ));
            continue;
        };
        if line_of[i] != 0 {
            bad.push(Failure::at_line(
                path,
                line,
                format!("item {:?} already scored on line {}", v[0], line_of[i]),
            ));
            continue;
        }
        match v[1].trim().parse::<f64>() {
            Ok(s) if s.is_finite() => {
                scores[i] = s;
                line_of[i] = line;
            }
            _ => bad.push(Failure::at_line(
                path,
                line,
                format!("score {} is not a finite number", crate::error::echo(&v[1])),
            )),
        }
    }
    if bad.is_empty()
        && let Some(i) = line_of.iter().position(|&l| l == 0)
    {
        bad.push(Failure::about(
            path,
            format!(
                "no score for item {:?} ({} item(s) unscored)",
                state.items.ids[i],
                line_of.iter().filter(|&&l| l == 0).count()
            ),
        ));
    }
    if bad.is_empty() {
        Ok(scores)
    } else {
        bad.truncate(MAX_ERRORS);
        Err(Failure::many(bad))
    }
}
