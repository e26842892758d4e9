//! The six steps of a campaign. Each reads the state, checks everything,
//! and writes at most one file per output, atomically, at the very end: a
//! step that fails or dies leaves the state as it was.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use adaptive_comp_metrics::ballot::{
    Answer, AnswerError, BallotConfig, BallotError, Campaign, ControlPair, Exclusion,
    ExclusionRule, ImportMode, LayoutOptions, Options, PAPER_MAX_SURVIVING_FRACTION, Phase,
    Scheduler, Unvoted, Vote, alpha_bounds, m_for_budget, plan,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::args::{Args, Spec};
use super::files::{
    MAX_ERRORS, Table, csv_bytes, csv_writer, read_columns, read_table, write_atomic,
};
use super::state::{BALLOT_STREAM, FORMAT, LAYOUT_STREAM, RngState, State, VERSION, fnv1a};
use super::{AppError, Env, Failure, Outcome};

/// Options of `init`.
pub const INIT_SPEC: Spec = &[
    ("state", true),
    ("items", true),
    ("seed", true),
    ("m", true),
    ("budget", true),
    ("alpha", true),
    ("ballots", true),
    ("options", true),
    ("controls", true),
    ("control-items", true),
    ("control-rate", true),
    ("unit-size", true),
    ("price", true),
    ("id-column", true),
    ("text-column", true),
    ("dry-run", false),
];
/// Options of `export`.
pub const EXPORT_SPEC: Spec = &[("state", true), ("out", true), ("missing", false)];
/// Options of `import`.
pub const IMPORT_SPEC: Spec = &[
    ("state", true),
    ("answers", true),
    ("task-column", true),
    ("worker-column", true),
    ("choice-column", true),
    ("first-label", true),
    ("second-label", true),
    ("tie-label", true),
    ("skip-refused", false),
];
/// Options of `status`.
pub const STATUS_SPEC: Spec = &[("state", true)];
/// Options of `close`.
pub const CLOSE_SPEC: Spec = &[
    ("state", true),
    ("ballot", true),
    ("unvoted", true),
    ("min-accuracy", true),
    ("min-controls", true),
    ("control-rate", true),
    ("unit-size", true),
];
/// Options of `exclude`.
pub const EXCLUDE_SPEC: Spec = &[
    ("state", true),
    ("min-accuracy", true),
    ("min-controls", true),
    ("worker", true),
];
/// Options of `rank`.
pub const RANK_SPEC: Spec = &[
    ("state", true),
    ("out", true),
    ("model", true),
    ("model-id-column", true),
    ("model-score-column", true),
];

fn ballot_error(e: BallotError) -> AppError {
    AppError::msg(e.to_string())
}

fn errors(list: Vec<AppError>) -> Failure {
    Failure::Errors(list)
}

/// The smallest M with M_top = n_b·M ≥ 100 (§2.7).
fn default_m(n_ballots: usize) -> usize {
    100usize.div_ceil(n_ballots.max(1))
}

/// Reads `--controls` (columns first, second, answer) against the items
/// and the optional control items.
fn read_controls(
    path: &str,
    items: &Table,
    control_items: &Table,
) -> Result<Vec<ControlPair>, Failure> {
    let (rows, mut bad) =
        read_columns(path, &["first", "second", "answer"]).map_err(|e| errors(vec![e]))?;
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, id) in items.ids.iter().chain(&control_items.ids).enumerate() {
        index.insert(id.as_str(), i);
    }
    let mut out = Vec::new();
    for (line, v) in rows {
        let find = |id: &str| {
            index
                .get(id)
                .copied()
                .ok_or_else(|| AppError::at(path, line, format!("unknown item id {id:?}")))
        };
        let pair = find(&v[0]).and_then(|a| {
            let b = find(&v[1])?;
            let answer =
                parse_choice(&v[2], &Labels::default(), &v[0], &v[1]).ok_or_else(|| {
                    AppError::at(
                        path,
                        line,
                        choice_message(&v[2], &Labels::default(), &v[0], &v[1]),
                    )
                })?;
            ControlPair::new(a, b, answer).map_err(|_| {
                AppError::at(path, line, "a control pair compares an item with itself")
            })
        });
        match pair {
            Ok(p) => out.push(p),
            Err(e) => bad.push(e),
        }
    }
    if !bad.is_empty() {
        bad.truncate(MAX_ERRORS);
        return Err(errors(bad));
    }
    if out.is_empty() {
        return Err(AppError::file(path, "no control pair").into());
    }
    Ok(out)
}

/// How choices are written in an answers file.
#[derive(Debug, Clone)]
pub struct Labels {
    first: String,
    second: String,
    tie: String,
}

impl Default for Labels {
    fn default() -> Self {
        Self {
            first: "first".into(),
            second: "second".into(),
            tie: "tie".into(),
        }
    }
}

/// A choice: one of the labels (any case), or the id of one of the two
/// items shown.
fn parse_choice(s: &str, labels: &Labels, first_id: &str, second_id: &str) -> Option<Vote> {
    let t = s.trim();
    if t.eq_ignore_ascii_case(&labels.first) {
        Some(Vote::First)
    } else if t.eq_ignore_ascii_case(&labels.second) {
        Some(Vote::Second)
    } else if t.eq_ignore_ascii_case(&labels.tie) {
        Some(Vote::Tie)
    } else if t == first_id {
        Some(Vote::First)
    } else if t == second_id {
        Some(Vote::Second)
    } else {
        None
    }
}

fn choice_message(s: &str, labels: &Labels, first_id: &str, second_id: &str) -> String {
    format!(
        "choice {s:?} is none of {:?}, {:?}, {:?} or the ids {first_id:?}, {second_id:?}",
        labels.first, labels.second, labels.tie
    )
}

fn parse_layout(
    args: &Args,
    current: LayoutOptions,
    default_rate: f64,
) -> Result<LayoutOptions, AppError> {
    let rate = args
        .parsed::<f64>("control-rate", "a share in [0, 1)")?
        .unwrap_or(if current == LayoutOptions::plain() {
            default_rate
        } else {
            current.control_rate()
        });
    let unit = match args.parsed::<usize>("unit-size", "a number of tasks")? {
        Some(0) => None,
        Some(u) => Some(u),
        None => current.unit_size(),
    };
    LayoutOptions::new(rate, unit).map_err(ballot_error)
}

/// `init`: reads the items (and controls), plans the collection with the
/// §2.7 heuristics, prints the plan, and opens ballot 1.
///
/// # Errors
/// Bad arguments or files; an existing, different state file.
pub fn init(args: &Args, env: &mut Env<'_>) -> Outcome {
    let state_path = args.required("state")?;
    let items_path = args.required("items")?;
    let seed: u64 = args
        .parsed("seed", "an unsigned 64-bit integer")?
        .ok_or_else(|| AppError::msg("option --seed is required"))?;
    let id_column = args.get("id-column").unwrap_or("id");
    let text_column = args.get("text-column").unwrap_or("text");
    let items = read_table(items_path, id_column, text_column).map_err(errors)?;
    let n = items.len();
    let alpha = args
        .parsed::<f64>("alpha", "a fraction in (0, 1)")?
        .unwrap_or(0.5);
    let n_ballots = args
        .parsed::<usize>("ballots", "a number of ballots")?
        .unwrap_or(7);
    let options = match args.get("options").unwrap_or("paper") {
        "paper" => Options::paper(),
        "published" => Options::published(),
        other => {
            return Err(
                AppError::msg(format!("--options {other:?}: expected paper or published")).into(),
            );
        }
    };
    let m = match (
        args.parsed::<usize>("m", "a number of appearances")?,
        args.parsed::<u64>("budget", "a number of comparisons")?,
    ) {
        (Some(_), Some(_)) => {
            return Err(AppError::msg("give --m or --budget, not both").into());
        }
        (Some(m), None) => m,
        (None, Some(b)) => {
            m_for_budget(n, alpha, n_ballots, options.rounding(), b).map_err(ballot_error)?
        }
        (None, None) => default_m(n_ballots),
    };
    let config =
        BallotConfig::with_options(n, m, alpha, n_ballots, options).map_err(ballot_error)?;
    let price = args.parsed::<f64>("price", "a price per task")?;
    if price.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
        return Err(AppError::msg("--price: expected a finite, non-negative price").into());
    }
    let control_items = match args.get("control-items") {
        Some(p) => {
            let t = read_table(p, id_column, text_column).map_err(errors)?;
            if t.extra_columns != items.extra_columns {
                return Err(AppError::file(
                    p,
                    "control items must have the same columns as the items",
                )
                .into());
            }
            if let Some(id) = t.ids.iter().find(|id| items.ids.contains(id)) {
                return Err(AppError::file(p, format!("id {id:?} is also an item")).into());
            }
            t
        }
        None => Table {
            extra_columns: items.extra_columns.clone(),
            ..Table::default()
        },
    };
    let controls = match args.get("controls") {
        Some(p) => read_controls(p, &items, &control_items)?,
        None => Vec::new(),
    };
    let default_rate = if controls.is_empty() { 0.0 } else { 0.1 };
    let layout = parse_layout(args, LayoutOptions::plain(), default_rate)?;
    print_plan(&config, &layout, controls.len(), price, env)?;
    if args.flag("dry-run") {
        return Ok(());
    }
    let mut campaign =
        Campaign::new(Scheduler::new(config), controls, layout).map_err(ballot_error)?;
    let mut brng = ChaCha8Rng::seed_from_u64(seed);
    brng.set_stream(BALLOT_STREAM);
    let mut lrng = ChaCha8Rng::seed_from_u64(seed);
    lrng.set_stream(LAYOUT_STREAM);
    campaign
        .open_ballot(&mut brng, &mut lrng)
        .map_err(ballot_error)?;
    let items_bytes = fs::read(items_path).unwrap_or_default();
    let tag = format!("{:08x}", fnv1a(&[&seed.to_le_bytes(), &items_bytes]) as u32);
    let state = State {
        format: FORMAT.to_owned(),
        version: VERSION,
        tag,
        seed,
        ballot_rng: RngState::of(&brng),
        layout_rng: RngState::of(&lrng),
        price,
        id_column: id_column.to_owned(),
        text_column: text_column.to_owned(),
        items,
        control_items,
        campaign,
    };
    let bytes = state.to_bytes()?;
    if Path::new(state_path).exists() {
        if fs::read(state_path).is_ok_and(|old| old == bytes) {
            env.say(format_args!(
                "{state_path} already holds this campaign: nothing to do"
            ))?;
            return Ok(());
        }
        return Err(AppError::file(
            state_path,
            "exists and holds another campaign or one under way (remove it to start afresh)",
        )
        .into());
    }
    write_atomic(state_path, &bytes, env)?;
    report_open(&state, env)
}

fn print_plan(
    config: &BallotConfig,
    layout: &LayoutOptions,
    n_pairs: usize,
    price: Option<f64>,
    env: &mut Env<'_>,
) -> Outcome {
    let p = plan(config);
    let o = config.options();
    env.say(format_args!(
        "plan: N = {} items, M = {}, alpha = {}, n_b = {} ({} options)",
        config.n_items(),
        config.m(),
        config.alpha(),
        config.n_ballots(),
        if o == Options::published() {
            "published"
        } else {
            "paper"
        },
    ))?;
    env.say(format_args!("ballot\titems\tcomparisons\tcontrol tasks"))?;
    let mut controls_total = 0usize;
    for (k, (&s, &c)) in p.sizes.iter().zip(&p.comparisons).enumerate() {
        let q = if n_pairs == 0 {
            0
        } else {
            layout.n_controls(c as usize).unwrap_or(0)
        };
        controls_total += q;
        env.say(format_args!("{}\t{s}\t{c}\t{q}", k + 1))?;
    }
    env.say(format_args!(
        "total: {} comparisons (Eq. 3 approximation {:.1}), {controls_total} control tasks",
        p.total_comparisons, p.approx_total_comparisons
    ))?;
    env.say(format_args!(
        "M_top = {} appearances for the items of the last ballot; a uniform collection of the same size gives M_unif = {:.1}",
        p.m_top, p.m_unif
    ))?;
    if let Some(price) = price {
        let tasks = p.total_comparisons as f64 + controls_total as f64;
        env.say(format_args!(
            "cost at {price} per task: {:.2} ({} tasks)",
            price * tasks,
            p.total_comparisons as usize + controls_total
        ))?;
    }
    // §2.7 heuristics: 2 ≤ n_b ≲ 10, (2/N)^(1/(n_b−1)) ≲ α ≲ 0.1^(1/(n_b−1)), M_top ≳ 100.
    if config.n_ballots() < 2 {
        env.say(format_args!(
            "note: n_b = 1 is a uniform collection (§2.7 asks for n_b ≥ 2)"
        ))?;
    } else {
        if config.n_ballots() > 10 {
            env.say(format_args!(
                "note: n_b > 10 ballots (§2.7 suggests n_b ≲ 10)"
            ))?;
        }
        if let Ok(b) = alpha_bounds(
            config.n_items(),
            config.n_ballots(),
            PAPER_MAX_SURVIVING_FRACTION,
        ) {
            let verdict = if b.contains(config.alpha()) {
                "within"
            } else {
                "outside"
            };
            env.say(format_args!(
                "alpha {} is {verdict} the §2.7 range [{:.3}, {:.3}]",
                config.alpha(),
                b.lower,
                b.upper
            ))?;
        }
    }
    if p.m_top < 100 {
        env.say(format_args!(
            "note: M_top = {} < 100 (§2.7 asks for M_top ≳ 100)",
            p.m_top
        ))?;
    }
    Ok(())
}

fn report_open(state: &State, env: &mut Env<'_>) -> Outcome {
    let c = &state.campaign;
    match c.open_ballot_number() {
        Some(k) => {
            let l = c.layout(k).map_or(0, |l| l.len());
            let q = c.layout(k).map_or(0, |l| l.n_controls());
            env.say(format_args!(
                "ballot {k} of {} is open: {} items, {} tasks ({} comparisons, {q} controls)",
                c.scheduler().ballot_sizes().len(),
                c.scheduler().ballot_items().len(),
                l,
                l - q
            ))
        }
        None => env.say(format_args!("all ballots are closed: run rank")),
    }
}

fn load(args: &Args) -> Result<(String, State), Failure> {
    let path = args.required("state")?;
    Ok((path.to_owned(), State::load(path)?))
}

fn open_ballot(state: &State, path: &str) -> Result<usize, AppError> {
    state.campaign.open_ballot_number().ok_or_else(|| {
        AppError::file(
            path,
            format!(
                "no ballot is open: all {} ballots are closed",
                state.campaign.scheduler().ballot_sizes().len()
            ),
        )
    })
}

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

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"))
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

fn exclude_by_accuracy(args: &Args, state: &mut State) -> Result<Vec<Exclusion>, Failure> {
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

fn report_exclusions(excluded: &[Exclusion], k: usize, env: &mut Env<'_>) -> Outcome {
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
fn read_model(args: &Args, path: &str, state: &State) -> Result<Vec<f64>, Failure> {
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
