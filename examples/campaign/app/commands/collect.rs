//! `export`, `import`, `status`: the steps inside a ballot.

use std::fmt::Write as _;

use adaptive_comp_metrics::ballot::{Answer, AnswerError, ImportMode, Phase};

use super::super::args::Args;
use super::super::files::{MAX_ERRORS, read_columns, write_atomic};
use super::super::{AppError, Env, Outcome};
use super::setup::{Labels, choice_message, parse_choice};
use super::{errors, fmt_opt, load, open_ballot};

/// `export`: the open ballot's tasks as CSV.
///
/// # Errors
/// No open ballot; I/O.
pub fn export(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (path, state) = load(args)?;
    let out = args.required("out")?;
    let k = open_ballot(&state, &path)?;
    let c = &state.campaign;
    let layout = c
        .layout(k)
        .ok_or_else(|| AppError::file(&path, "corrupt state: no task list"))?;
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
    let missing = args.flag("missing");
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
pub fn import(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (path, mut state) = load(args)?;
    let file = args.required("answers")?;
    let cols = [
        args.get("task-column").unwrap_or("task_id"),
        args.get("worker-column").unwrap_or("worker_id"),
        args.get("choice-column").unwrap_or("choice"),
    ];
    let labels = Labels {
        first: args.get("first-label").unwrap_or("first").to_owned(),
        second: args.get("second-label").unwrap_or("second").to_owned(),
        tie: args.get("tie-label").unwrap_or("tie").to_owned(),
    };
    let skip = args.flag("skip-refused");
    let (rows, mut bad) = read_columns(file, &cols)?;
    let mut answers = Vec::with_capacity(rows.len());
    let mut lines = Vec::with_capacity(rows.len());
    for (line, v) in rows {
        let parsed = state.parse_task(&v[0]).and_then(|task| {
            let view = state
                .campaign
                .task(task)
                .ok_or_else(|| format!("unknown task {:?}", v[0]))?;
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
            Err(m) => bad.push(AppError::at(file, line, m)),
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
        bad.push(AppError::at(file, lines[*i], message));
    }
    bad.sort_by_key(|e| e.line);
    if !skip && !bad.is_empty() {
        let total = bad.len();
        bad.truncate(MAX_ERRORS);
        if total > MAX_ERRORS {
            bad.push(AppError::file(
                file,
                format!("{} more refused row(s) not shown", total - MAX_ERRORS),
            ));
        }
        bad.push(AppError::file(
            file,
            format!("{total} row(s) refused: nothing imported (fix them, or use --skip-refused)"),
        ));
        return Err(errors(bad));
    }
    for e in bad.iter().take(MAX_ERRORS) {
        env.note(format_args!("warning: {e}"))?;
    }
    if report.recorded > 0 {
        state.save(&path, env)?;
    }
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
pub fn status(args: &Args, env: &mut Env<'_>) -> Outcome {
    let (_, state) = load(args)?;
    let c = &state.campaign;
    let cfg = c.scheduler().config();
    env.say(format_args!(
        "campaign {}: {} items, M = {}, alpha = {}, n_b = {}, {} control pair(s)",
        state.tag,
        cfg.n_items(),
        cfg.m(),
        cfg.alpha(),
        cfg.n_ballots(),
        c.controls().len()
    ))?;
    match c.scheduler().phase() {
        Phase::Open { ballot } => env.say(format_args!("ballot {ballot} is open"))?,
        Phase::Finished => env.say(format_args!("all ballots are closed"))?,
        Phase::Ready { next } => env.say(format_args!("ballot {next} is next"))?,
    }
    env.say(format_args!(
        "ballot\tstate\titems\tcomparisons\tvotes\tmissing\tcontrol_tasks\tcontrol_answers\tdiscarded"
    ))?;
    for s in c.ballot_status() {
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
    let mut stats = c.worker_stats();
    stats.sort_by(|a, b| a.worker.cmp(&b.worker));
    env.say(format_args!(
        "worker\tvotes\tcontrols\tcorrect\taccuracy\tagreement\tdiscarded\texcluded_at"
    ))?;
    for s in &stats {
        env.say(format_args!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.worker,
            s.votes,
            s.controls,
            s.correct,
            fmt_opt(s.accuracy()),
            fmt_opt(s.agreement()),
            s.discarded,
            s.excluded_at
                .map_or_else(|| "-".to_owned(), |k| k.to_string())
        ))?;
    }
    Ok(())
}
