//! `init`: items, controls, the plan with the §2.7 heuristics, ballot 1; and
//! the parsing shared with `import` (choices, layouts).

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Options, PAPER_MAX_SURVIVING_FRACTION,
    Scheduler, Vote, alpha_bounds, m_for_budget, plan,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::super::args::Args;
use super::super::files::{MAX_ERRORS, Table, read_columns, read_table, write_atomic};
use super::super::state::{BALLOT_STREAM, FORMAT, LAYOUT_STREAM, RngState, State, VERSION, fnv1a};
use super::super::{AppError, Env, Failure, Outcome};
use super::{ballot_error, errors, report_open};

/// The smallest M with M_top = n_b·M ≥ 100 (§2.7).
pub(super) fn default_m(n_ballots: usize) -> usize {
    100usize.div_ceil(n_ballots.max(1))
}

/// Reads `--controls` (columns first, second, answer) against the items
/// and the optional control items.
pub(super) fn read_controls(
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
    pub(super) first: String,
    pub(super) second: String,
    pub(super) tie: String,
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
pub(super) fn parse_choice(
    s: &str,
    labels: &Labels,
    first_id: &str,
    second_id: &str,
) -> Option<Vote> {
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

pub(super) fn choice_message(s: &str, labels: &Labels, first_id: &str, second_id: &str) -> String {
    format!(
        "choice {s:?} is none of {:?}, {:?}, {:?} or the ids {first_id:?}, {second_id:?}",
        labels.first, labels.second, labels.tie
    )
}

pub(super) fn parse_layout(
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

pub(super) fn print_plan(
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
