//! `close`, `exclude`, `rank`: ending a ballot, excluding workers, the
//! final ranking and a model's correlation with it.

use std::collections::HashMap;

use adaptive_comp_metrics::ballot::{BallotError, Exclusion, ExclusionRule, Phase, Unvoted};

use super::super::args::Args;
use super::super::files::{MAX_ERRORS, csv_bytes, csv_writer, read_columns, write_atomic};
use super::super::state::{RngState, State};
use super::super::{AppError, Env, Failure, Outcome};
use super::setup::parse_layout;
use super::{ballot_error, errors, fmt_opt, load, open_ballot, report_open};

/// `close`: optional exclusions, close the open ballot, open the next.
///
/// # Errors
/// No open ballot; missing votes under `--unvoted reject`; bad options.
pub fn close(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (path, mut state) = load(args)?;
    if let Some(k) = args.parsed::<usize>("ballot", "a ballot number")? {
        let closed = state.campaign.scheduler().history().len();
        if k >= 1 && k <= closed {
            env.say(format_args!("ballot {k} is already closed: nothing to do"))?;
            return report_open(&state, env);
        }
        if state.campaign.open_ballot_number() != Some(k) {
            return Err(AppError::file(&path, format!("ballot {k} is not open")).into());
        }
    }
    let k = open_ballot(&state, &path)?;
    let unvoted = match args.get("unvoted").unwrap_or("reject") {
        "reject" => Unvoted::Reject,
        "withdraw" => Unvoted::Withdraw,
        other => {
            return Err(
                AppError::msg(format!("--unvoted {other:?}: expected reject or withdraw")).into(),
            );
        }
    };
    let layout = parse_layout(args, state.campaign.layout_options(), 0.0)?;
    let excluded = exclude_by_accuracy(args, &mut state)?;
    let closed = match state.campaign.close_ballot(unvoted) {
        Ok(s) => s.clone(),
        Err(BallotError::MissingVotes { ballot, missing }) => {
            return Err(AppError::file(
                &path,
                format!(
                    "ballot {ballot} has {missing} comparison(s) without a vote{}: import more answers, or close with --unvoted withdraw",
                    if excluded.is_empty() { "" } else { " once the excluded workers' votes are discarded" }
                ),
            )
            .into());
        }
        Err(BallotError::NoVotes { item, ballot }) => {
            return Err(AppError::file(
                &path,
                format!(
                    "item {:?} has no vote in ballot {ballot}: import answers for it before closing",
                    state.thing(item).0
                ),
            )
            .into());
        }
        Err(e) => return Err(AppError::file(&path, e.to_string()).into()),
    };
    state
        .campaign
        .set_layout_options(layout)
        .map_err(ballot_error)?;
    if state.campaign.scheduler().phase() != Phase::Finished {
        let mut brng = state.ballot_rng.generator(state.seed)?;
        let mut lrng = state.layout_rng.generator(state.seed)?;
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
    args: &Args,
    state: &mut State,
) -> Result<Vec<Exclusion>, Failure> {
    match args.parsed::<f64>("min-accuracy", "an accuracy in [0, 1]")? {
        Some(a) => {
            let min_controls = args
                .parsed::<u64>("min-controls", "a number of control answers")?
                .unwrap_or(5);
            let rule = ExclusionRule::new(a, min_controls).map_err(ballot_error)?;
            Ok(state
                .campaign
                .exclude_workers(&rule)
                .map_err(ballot_error)?)
        }
        None if args.get("min-controls").is_some() => {
            Err(AppError::msg("--min-controls needs --min-accuracy").into())
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
pub fn exclude(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (path, mut state) = load(args)?;
    let k = open_ballot(&state, &path)?;
    let mut excluded = exclude_by_accuracy(args, &mut state)?;
    if let Some(w) = args.get("worker") {
        if !state.campaign.workers().iter().any(|x| x == w) {
            return Err(AppError::file(&path, format!("no worker {w:?} has answered")).into());
        }
        excluded.extend(state.campaign.exclude_worker(w).map_err(ballot_error)?);
    } else if args.get("min-accuracy").is_none() {
        return Err(AppError::msg("give --min-accuracy or --worker").into());
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
pub fn rank(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (_, state) = load(args)?;
    let out = args.get("out").unwrap_or("-");
    let c = &state.campaign;
    let mut rng = state.ballot_rng.generator(state.seed)?;
    let ranking = c.ranking(&mut rng).map_err(ballot_error)?;
    let mut w = csv_writer();
    let csv_err = |e: csv::Error| AppError::msg(format!("cannot build the CSV: {e}"));
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
    let model = match args.get("model") {
        Some(m) => Some(read_model(args, m, &state)?),
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
        let m = |r: adaptive_comp_metrics::Result<f64>| match r {
            Ok(v) => format!("{v:.4}"),
            Err(e) => format!("undefined ({e})"),
        };
        lines.push(format!(
            "model against the collected ranking: rho_w {}  tau_w {}  rho {}  tau_b {}",
            m(adaptive_comp_metrics::rho_w(&collected, &model).map(|r| r.rho)),
            m(adaptive_comp_metrics::tau_w(&collected, &model).map(|r| r.tau)),
            m(adaptive_comp_metrics::spearman(&collected, &model).map(|r| r.rho)),
            m(adaptive_comp_metrics::kendall_tau_b(&collected, &model).map(|r| r.tau)),
        ));
    }
    for l in lines {
        if out == "-" {
            env.note(format_args!("{l}"))?;
        } else {
            env.say(format_args!("{l}"))?;
        }
    }
    Ok(())
}

/// A model's score for every item, by item index.
pub(super) fn read_model(args: &Args, path: &str, state: &State) -> Result<Vec<f64>, Failure> {
    let id_col = args.get("model-id-column").unwrap_or("id");
    let score_col = args.get("model-score-column").unwrap_or("score");
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
            bad.push(AppError::at(
                path,
                line,
                format!("unknown item id {:?}", v[0]),
            ));
            continue;
        };
        if line_of[i] != 0 {
            bad.push(AppError::at(
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
            _ => bad.push(AppError::at(
                path,
                line,
                format!("score {:?} is not a finite number", v[1]),
            )),
        }
    }
    if bad.is_empty()
        && let Some(i) = line_of.iter().position(|&l| l == 0)
    {
        bad.push(AppError::file(
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
        Err(errors(bad))
    }
}
