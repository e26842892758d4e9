//! `export`, `import`, `status`: the steps inside a ballot.

use std::fmt::Write as _;

use adaptive_comp_metrics::ballot::{Answer, AnswerError, ImportMode, Phase};

use super::files::{MAX_ERRORS, check_output, lock, read_columns, write_atomic};
use super::finish::{CampaignFit, Estimator, campaign_fit};
use super::setup::{Labels, choice_message, parse_choice};
use super::state::{CampaignStatus, State, StateFile as _};
use super::{Env, Failure, Outcome, fmt_opt, open_ballot};
use crate::commands::pairwise::{self, ModelArg, ModelOptions};
use crate::error::echo;
use crate::progress::Progress;

/// Writes the open ballot's tasks as CSV, to upload to the platform.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Columns: task_id[,unit],first_id,first_text,second_id,second_text,first_<col>…,second_<col>…
(the items' other columns). Task ids (TAG-b<ballot>-<position>) are stable: exporting again
writes the same file.

Example:
  acm campaign export --state s.json --out ballot1.csv
  acm campaign export --state s.json --out missing.csv --missing")]
pub struct ExportArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    /// Where to write the tasks (`-`: standard output); never the state file.
    #[arg(long)]
    pub out: String,
    /// Only the tasks still without an answer.
    #[arg(long)]
    pub missing: bool,
}

/// Imports a platform's answers (all or nothing unless --skip-refused).
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The answers file is read as the platform wrote it: column names and the labels of the choices are
configurable; a choice may also be the chosen item's id. Malformed rows, unknown tasks, answers to
closed ballots and tasks answered twice are reported with their line and nothing is imported.
Importing the same file again is harmless.

Example:
  acm campaign import --state s.json --answers Batch_1_results.csv \\
      --task-column Input.task_id --worker-column WorkerId --choice-column Answer.choice")]
pub struct ImportArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    /// The answers (CSV).
    #[arg(long)]
    pub answers: String,
    /// Column of the task ids.
    #[arg(long, default_value = "task_id")]
    pub task_column: String,
    /// Column of the worker ids.
    #[arg(long, default_value = "worker_id")]
    pub worker_column: String,
    /// Column of the choices.
    #[arg(long, default_value = "choice")]
    pub choice_column: String,
    /// Label of a vote for the first item.
    #[arg(long, default_value = "first")]
    pub first_label: String,
    /// Label of a vote for the second item.
    #[arg(long, default_value = "second")]
    pub second_label: String,
    /// Label of a tie.
    #[arg(long, default_value = "tie")]
    pub tie_label: String,
    /// Import the good rows and warn about the others.
    #[arg(long)]
    pub skip_refused: bool,
}

/// How `status` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusFormat {
    /// Tab-separated tables for a person.
    Table,
    /// One JSON document.
    Json,
}

/// Votes per ballot; per worker the votes, control answers, accuracy and agreement.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Agreement is the share of a worker's votes that order the two items as the rest of the crowd does
in that ballot (their Borda scores without the worker's own votes; a tie counts one half).

How settled the top is: a Bradley–Terry model (--estimator bt, the default, or noisy-bt) is fitted
to every vote so far, as `acm campaign rank --estimator` does; status says whether its top k
(--top-k) holds with probability --settle, which items are contested, and about how many further
comparisons would settle it (JSON: the key settled, with the top k's ids). --estimator borda
leaves it out. A campaign whose votes have no finite fit yet says so (give --prior-sd).

Example:
  acm campaign status --state s.json
  acm campaign status --state s.json --format json
  acm campaign status --state s.json --top-k 5 --settle 0.9 --prior-sd 2
  acm campaign status --state s.json --plot status.svg")]
pub struct StatusArgs {
    /// The campaign's state file.
    #[arg(long)]
    pub state: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatusFormat::Table)]
    pub format: StatusFormat,
    /// The model whose top k is checked (borda: no check).
    #[arg(long, value_enum, default_value_t = Estimator::Bt)]
    pub estimator: Estimator,
    #[command(flatten)]
    pub fit: ModelOptions,
    /// Draw the campaign as SVG: votes per ballot, each worker's accuracy on the control tasks,
    /// and (with --estimator bt or noisy-bt, once there are votes) the fitted ranking of the best
    /// 30 items with its intervals. Example: --plot status.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
}

fn load(path: &str) -> Result<(String, State), Failure> {
    Ok((path.to_owned(), State::load(path)?))
}

/// `export`: the open ballot's tasks as CSV.
///
/// # Errors
/// No open ballot; I/O.
pub fn export(args: &ExportArgs, env: &mut Env<'_>) -> Outcome {
    check_output(&args.out, &args.state)?;
    let (path, state) = load(&args.state)?;
    let out = args.out.as_str();
    let k = open_ballot(&state, &path)?;
    let c = &state.campaign;
    let layout = c
        .layout(k)
        .ok_or_else(|| Failure::about(&path, "corrupt state: no task list"))?;
    let units = layout.unit_size().is_some();
    let mut header: Vec<String> = vec!["task_id".into()];
    if units {
        header.push("unit".into());
    }
    for h in ["first_id", "first_text", "second_id", "second_text"] {
        header.push(h.into());
    }
    for side in ["first", "second"] {
        for col in &state.items.extra_columns {
            header.push(format!("{side}_{col}"));
        }
    }
    // Each thing's fields are escaped once: a row is then a concatenation.
    let things = state.items.len() + state.control_items.len();
    let escaped: Vec<(String, String)> = (0..things)
        .map(|i| {
            let (id, text, extra) = state.thing(i);
            let head = format!("{},{}", escape(id), escape(text));
            let tail: Vec<_> = extra.iter().map(|e| escape(e)).collect();
            (head, tail.join(","))
        })
        .collect();
    let mut bytes = String::new();
    bytes.push_str(
        &header
            .iter()
            .map(|h| escape(h))
            .collect::<Vec<_>>()
            .join(","),
    );
    bytes.push_str("\r\n");
    let missing = args.missing;
    let mut written = 0usize;
    let has_extra = !state.items.extra_columns.is_empty();
    for t in c.tasks() {
        if missing && c.answer_of(t.id).is_some() {
            continue;
        }
        written += 1;
        // Task labels and units never need quoting (the tag is hexadecimal).
        let _ = write!(bytes, "{}-{}", state.tag, t.id);
        if let Some(u) = t.unit {
            let _ = write!(bytes, ",{}", u + 1);
        }
        let (a, b) = (&escaped[t.first], &escaped[t.second]);
        for part in [&a.0, &b.0] {
            bytes.push(',');
            bytes.push_str(part);
        }
        if has_extra {
            for part in [&a.1, &b.1] {
                bytes.push(',');
                bytes.push_str(part);
            }
        }
        bytes.push_str("\r\n");
    }
    let bytes = bytes.into_bytes();
    write_atomic(out, &bytes, env)?;
    let summary = format!(
        "ballot {k}: {written}{} tasks of {} ({} comparisons, {} controls){} written to {out}",
        if missing { " unanswered" } else { "" },
        layout.len(),
        layout.len() - layout.n_controls(),
        layout.n_controls(),
        layout
            .unit_size()
            .map_or_else(String::new, |u| format!(" in units of {u}")),
    );
    if out == "-" {
        env.note(format_args!("{summary}"))
    } else {
        env.say(format_args!("{summary}"))
    }
}

/// A CSV field as RFC 4180 writes it: in double quotes (inner quotes
/// doubled) when it holds a quote, a comma or a line break.
pub fn escape(field: &str) -> std::borrow::Cow<'_, str> {
    if field.contains(['"', ',', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\"")).into()
    } else {
        field.into()
    }
}

/// `import`: an answers CSV. All or nothing unless `--skip-refused`.
///
/// # Errors
/// Any refused row (all-or-nothing); I/O.
pub fn import(args: &ImportArgs, env: &mut Env<'_>) -> Outcome {
    let _lock = lock(&args.state)?;
    let (path, mut state) = load(&args.state)?;
    let file = args.answers.as_str();
    let cols = [
        args.task_column.as_str(),
        args.worker_column.as_str(),
        args.choice_column.as_str(),
    ];
    let labels = Labels {
        first: args.first_label.clone(),
        second: args.second_label.clone(),
        tie: args.tie_label.clone(),
    };
    let skip = args.skip_refused;
    let spinner = Progress::spinner(&env.ctx, &format!("reading {file}"));
    let (rows, mut bad) = read_columns(file, &cols)?;
    let mut answers = Vec::with_capacity(rows.len());
    let mut lines = Vec::with_capacity(rows.len());
    for (line, v) in rows {
        let parsed = state
            .parse_task(&v[0])
            .map_err(|e| e.to_string())
            .and_then(|task| {
                let view = state
                    .campaign
                    .task(task)
                    .ok_or_else(|| format!("unknown task {}", echo(&v[0])))?;
                let (fid, _, _) = state.thing(view.first);
                let (sid, _, _) = state.thing(view.second);
                let vote = parse_choice(&v[2], &labels, fid, sid)
                    .ok_or_else(|| choice_message(&v[2], &labels, fid, sid))?;
                if v[1].trim().is_empty() {
                    return Err("empty worker id".to_owned());
                }
                Ok(Answer {
                    task,
                    worker: v[1].trim().to_owned(),
                    vote,
                })
            });
        match parsed {
            Ok(a) => {
                answers.push(a);
                lines.push(line);
            }
            Err(m) => bad.push(Failure::at_line(file, line, m)),
        }
    }
    let mode = if skip {
        ImportMode::SkipRefused
    } else {
        ImportMode::AllOrNothing
    };
    let report = if bad.is_empty() || skip {
        state.campaign.import(&answers, mode)
    } else {
        // Judge the rows anyway, to report every problem at once.
        let mut probe = state.campaign.clone();
        probe.import(&answers, ImportMode::AllOrNothing)
    };
    for (i, e) in &report.refused {
        let message = match e {
            AnswerError::Duplicate { task, first } => format!(
                "task {} appears twice (first on line {})",
                state.task_label(*task),
                lines[*first]
            ),
            AnswerError::UnknownTask { task } => {
                format!("unknown task {}", state.task_label(*task))
            }
            AnswerError::BallotClosed { task } => format!(
                "task {} belongs to ballot {}, which is closed",
                state.task_label(*task),
                task.ballot
            ),
            AnswerError::AlreadyAnswered { task, worker, .. } => format!(
                "task {} already has another answer (from worker {worker:?})",
                state.task_label(*task)
            ),
            other => other.to_string(),
        };
        bad.push(Failure::at_line(file, lines[*i], message));
    }
    bad.sort_by_key(|e| e.line);
    if !skip && !bad.is_empty() {
        let total = bad.len();
        bad.truncate(MAX_ERRORS);
        if total > MAX_ERRORS {
            bad.push(Failure::about(
                file,
                format!("{} more refused row(s) not shown", total - MAX_ERRORS),
            ));
        }
        bad.push(Failure::about(
            file,
            format!("{total} row(s) refused: nothing imported (fix them, or use --skip-refused)"),
        ));
        return Err(Failure::many(bad));
    }
    for e in bad.iter().take(MAX_ERRORS) {
        env.note(format_args!("warning: {e}"))?;
    }
    if report.recorded > 0 {
        spinner.message(format!("saving {path}"));
        state.save(&path, env)?;
    }
    drop(spinner);
    env.say(format_args!(
        "{file}: {} answer(s) recorded, {} already recorded, {} from excluded workers ignored, {} refused",
        report.recorded,
        report.already_recorded,
        report.from_excluded,
        bad.len()
    ))?;
    if let Some(k) = state.campaign.open_ballot_number()
        && let Some(s) = state.campaign.ballot_status().get(k - 1)
    {
        env.say(format_args!(
            "ballot {k}: {} of {} comparisons voted ({} missing), {} of {} control tasks answered",
            s.votes, s.comparisons, s.missing, s.control_answers, s.control_tasks
        ))?;
    }
    Ok(())
}

/// `status`: progress per ballot and statistics per worker.
///
/// # Errors
/// An unreadable state.
pub fn status(args: &StatusArgs, env: &mut Env<'_>) -> Outcome {
    if let Some(p) = &args.plot {
        crate::plot::check(p)?;
    }
    let (path, state) = load(&args.state)?;
    let st = state.status();
    let model = match args.estimator {
        Estimator::Borda => None,
        Estimator::Bt => Some(ModelArg::Bt),
        Estimator::NoisyBt => Some(ModelArg::NoisyBt),
    };
    let settled = model.map(|m| (m, campaign_fit(&state, &path, m, &args.fit)));
    if let Some(p) = &args.plot {
        let fitted = match &settled {
            Some((m, Ok((_, fit, u)))) => Some((m.name(), fit, u)),
            _ => None,
        };
        crate::plot::write(p, super::plot::status(&st, fitted))?;
    }
    if args.format == StatusFormat::Json {
        return status_json(&st, settled.as_ref(), env);
    }
    env.say(format_args!(
        "campaign {}: {} items, M = {}, alpha = {}, n_b = {}, {} control pair(s)",
        st.tag, st.items, st.m, st.alpha, st.n_ballots, st.control_pairs
    ))?;
    match st.phase {
        Phase::Open { ballot } => env.say(format_args!("ballot {ballot} is open"))?,
        Phase::Finished => env.say(format_args!("all ballots are closed"))?,
        Phase::Ready { next } => env.say(format_args!("ballot {next} is next"))?,
    }
    env.say(format_args!(
        "ballot\tstate\titems\tcomparisons\tvotes\tmissing\tcontrol_tasks\tcontrol_answers\tdiscarded"
    ))?;
    for s in &st.ballots {
        env.say(format_args!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.ballot,
            if s.closed { "closed" } else { "open" },
            s.items,
            s.comparisons,
            s.votes,
            s.missing,
            s.control_tasks,
            s.control_answers,
            s.discarded
        ))?;
    }
    env.say(format_args!(
        "worker\tvotes\tcontrols\tcorrect\taccuracy\tagreement\tdiscarded\texcluded_at"
    ))?;
    for s in &st.workers {
        env.say(format_args!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.worker,
            s.votes,
            s.controls,
            s.correct,
            fmt_opt(s.accuracy),
            fmt_opt(s.agreement),
            s.discarded,
            s.excluded_at
                .map_or_else(|| "-".to_owned(), |k| k.to_string())
        ))?;
    }
    match &settled {
        None => {}
        Some((m, Ok((_, fit, u)))) => {
            let top = pairwise::item_names(fit, &u.settled.top);
            env.say(format_args!(
                "{}: {} (top {}: {})",
                m.name(),
                pairwise::settled_line(u),
                u.settled.k,
                top.join(", ")
            ))?;
            if !u.settled.settled && !u.settled.contested.is_empty() {
                let contested = pairwise::item_names(fit, &u.settled.contested);
                env.say(format_args!("contested: {}", contested.join(", ")))?;
            }
        }
        Some((m, Err(f))) => env.say(format_args!(
            "{}: the top is not assessed yet: {}",
            m.name(),
            f.message
        ))?,
    }
    Ok(())
}

/// `status --format json`: the same figures as one JSON document (its keys
/// in order, as a JSON object is written).
fn status_json(
    st: &CampaignStatus,
    settled: Option<&(ModelArg, Result<CampaignFit, Failure>)>,
    env: &mut Env<'_>,
) -> Outcome {
    let mut doc = serde_json::to_value(st)
        .map_err(|e| Failure::new(format!("cannot encode the status: {e}")))?;
    if let (Some((m, fit)), Some(obj)) = (settled, doc.as_object_mut()) {
        let mut v = match fit {
            Ok((_, fit, u)) => pairwise::settled_json(fit, u),
            Err(f) => serde_json::json!({ "error": f.message }),
        };
        if let Some(o) = v.as_object_mut() {
            o.insert("model".to_owned(), m.name().into());
        }
        obj.insert("settled".to_owned(), v);
    }
    env.out.json(&doc)
}
