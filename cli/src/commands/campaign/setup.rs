//! `init`: items, controls, the plan with the §2.7 heuristics, ballot 1; and
//! the parsing shared with `import` (choices, layouts).

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Options, PAPER_MAX_SURVIVING_FRACTION,
    Scheduler, Vote, alpha_bounds, m_for_budget, plan,
};

use super::files::{MAX_ERRORS, Table, lock, read_columns, read_table, write_atomic};
use super::state::{Page, State, StateFile as _, fnv1a};
use super::{Env, Failure, Outcome, ballot_error, report_open};

/// Which published choices the scheduler follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OptionsArg {
    /// The paper's text (Lombardo et al. 2020, §2).
    Paper,
    /// The published code's choices.
    Published,
}

/// Plans the collection (§2.7 heuristics), prints the plan and its cost, and opens ballot 1.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The items file has the columns id and text (names set by --id-column, --text-column) and any
others, carried to the task files. Without --m or --budget, M is the smallest with
M_top = n_b·M ≥ 100. Controls (`first,second,answer`: item ids and first, second, tie or one of the
ids) are mixed into every ballot at --control-rate.

Example:
  acm campaign init --state s.json --items items.csv --seed 7 --m 20 --controls controls.csv \\
      --control-rate 0.05 --unit-size 20 --price 0.02")]
pub struct InitArgs {
    /// The campaign's state file (created).
    #[arg(long)]
    pub state: String,
    /// The items: id, text and other columns (CSV).
    #[arg(long)]
    pub items: String,
    /// Seed of the ballots, the control placement and the ranking's tie order.
    #[arg(long)]
    pub seed: u64,
    /// Appearances of each item per ballot.
    #[arg(long, conflicts_with = "budget")]
    pub m: Option<usize>,
    /// A budget of comparisons: the largest M that fits.
    #[arg(long, value_name = "COMPARISONS")]
    pub budget: Option<u64>,
    /// Fraction of the items kept at each ballot, in (0, 1).
    #[arg(long, default_value_t = 0.5, value_parser = crate::params::open_unit)]
    pub alpha: f64,
    /// Number of ballots n_b.
    #[arg(long, default_value_t = 7)]
    pub ballots: usize,
    /// The scheduler's choices.
    #[arg(long, value_enum, default_value_t = OptionsArg::Paper)]
    pub options: OptionsArg,
    /// Control pairs (CSV: first,second,answer).
    #[arg(long)]
    pub controls: Option<String>,
    /// Things shown only in control pairs (same columns as the items).
    #[arg(long, requires = "controls")]
    pub control_items: Option<String>,
    /// Share of all tasks that are controls, in [0, 1) (default 0.1 with controls).
    #[arg(long, value_parser = crate::params::share)]
    pub control_rate: Option<f64>,
    /// Tasks per unit (a HIT); controls are spread over units.
    #[arg(long)]
    pub unit_size: Option<usize>,
    /// Price per task, for the plan's cost.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::params::non_negative)]
    pub price: Option<f64>,
    /// Column of the item ids.
    #[arg(long, default_value = "id")]
    pub id_column: String,
    /// Column of the item texts.
    #[arg(long, default_value = "text")]
    pub text_column: String,
    /// Print the plan only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    // The annotator's page, for `acm campaign serve`.
    #[command(flatten)]
    pub page: PageArgs,
}

/// The options of `init` that set the annotator's page (`acm campaign
/// serve`).
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "The annotator's page (acm campaign serve)")]
pub struct PageArgs {
    /// The page's title, for `acm campaign serve`.
    #[arg(long)]
    pub title: Option<String>,
    /// The question above the two items.
    #[arg(long)]
    pub question: Option<String>,
    /// The instructions screen: a text file, paragraphs separated by blank lines.
    #[arg(long, value_name = "FILE")]
    pub instructions: Option<String>,
    /// Offer a "same" choice with this label (ties count half a win each).
    #[arg(long, value_name = "LABEL")]
    pub tie_label: Option<String>,
    /// The completion code shown on the end screen (Prolific's, for instance).
    #[arg(long, value_name = "CODE")]
    pub completion_code: Option<String>,
    /// Where the end screen sends annotators ({code} is replaced by the completion code).
    #[arg(long, value_name = "URL")]
    pub completion_url: Option<String>,
    /// The code shown to annotators who stop before their quota ("I want to stop here");
    /// without it they get no code (the dashboard lists each one's answers, for payment).
    #[arg(long, value_name = "CODE")]
    pub partial_completion_code: Option<String>,
    /// Where the end screen sends annotators who stop before their quota ({code}: the
    /// partial completion code).
    #[arg(long, value_name = "URL")]
    pub partial_completion_url: Option<String>,
}

/// The page settings given to `init`, as the state keeps them (`None`
/// when none is given: the server's defaults).
fn page_settings(args: &PageArgs) -> Result<Option<Page>, Failure> {
    let instructions = match args.instructions.as_deref() {
        Some(p) => Some(
            fs::read_to_string(p)
                .map_err(|e| Failure::about(p, format!("cannot read: {e}")))?
                .trim()
                .to_owned(),
        ),
        None => None,
    };
    for (flag, url) in [
        ("--completion-url", &args.completion_url),
        ("--partial-completion-url", &args.partial_completion_url),
    ] {
        if let Some(u) = url.as_deref()
            && !(u.starts_with("https://") || u.starts_with("http://"))
        {
            return Err(Failure::usage(format!(
                "{flag} {}: expected an http:// or https:// URL",
                crate::error::echo(u)
            )));
        }
    }
    let page = Page {
        completion_code: args.completion_code.clone(),
        completion_url: args.completion_url.clone(),
        instructions,
        partial_completion_code: args.partial_completion_code.clone(),
        partial_completion_url: args.partial_completion_url.clone(),
        question: args.question.clone(),
        tie_label: args.tie_label.clone(),
        title: args.title.clone(),
    };
    Ok((!page.is_empty()).then_some(page))
}

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
    let (rows, mut bad) = read_columns(path, &["first", "second", "answer"])?;
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, id) in items.ids.iter().chain(&control_items.ids).enumerate() {
        index.insert(id.as_str(), i);
    }
    let mut out = Vec::new();
    for (line, v) in rows {
        let find = |id: &str| {
            index.get(id).copied().ok_or_else(|| {
                Failure::at_line(
                    path,
                    line,
                    format!("unknown item id {}", crate::error::echo(id)),
                )
            })
        };
        let pair = find(&v[0]).and_then(|a| {
            let b = find(&v[1])?;
            let answer =
                parse_choice(&v[2], &Labels::default(), &v[0], &v[1]).ok_or_else(|| {
                    Failure::at_line(
                        path,
                        line,
                        choice_message(&v[2], &Labels::default(), &v[0], &v[1]),
                    )
                })?;
            ControlPair::new(a, b, answer).map_err(|_| {
                Failure::at_line(path, line, "a control pair compares an item with itself")
            })
        });
        match pair {
            Ok(p) => out.push(p),
            Err(e) => bad.push(e),
        }
    }
    if !bad.is_empty() {
        bad.truncate(MAX_ERRORS);
        return Err(Failure::many(bad));
    }
    if out.is_empty() {
        return Err(Failure::about(path, "no control pair"));
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
    use crate::error::echo;
    format!(
        "choice {} is none of {:?}, {:?}, {:?} or the ids {}, {}",
        echo(s),
        labels.first,
        labels.second,
        labels.tie,
        echo(first_id),
        echo(second_id)
    )
}

pub(super) fn parse_layout(
    control_rate: Option<f64>,
    unit_size: Option<usize>,
    current: LayoutOptions,
    default_rate: f64,
) -> Result<LayoutOptions, Failure> {
    let rate = control_rate.unwrap_or(if current == LayoutOptions::plain() {
        default_rate
    } else {
        current.control_rate()
    });
    let unit = match unit_size {
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
pub fn init(args: &InitArgs, env: &mut Env<'_>) -> Outcome {
    let state_path = args.state.as_str();
    let items_path = args.items.as_str();
    let seed = args.seed;
    let id_column = args.id_column.as_str();
    let text_column = args.text_column.as_str();
    let alpha = args.alpha;
    let n_ballots = args.ballots;
    let options = match args.options {
        OptionsArg::Paper => Options::paper(),
        OptionsArg::Published => Options::published(),
    };
    let _lock = if args.dry_run {
        None
    } else {
        Some(lock(state_path)?)
    };
    let page = page_settings(&args.page)?;
    let items = read_table(items_path, id_column, text_column).map_err(Failure::many)?;
    let n = items.len();
    let m = match (args.m, args.budget) {
        (Some(_), Some(_)) => {
            return Err(Failure::usage("give --m or --budget, not both"));
        }
        (Some(m), None) => m,
        (None, Some(b)) => {
            m_for_budget(n, alpha, n_ballots, options.rounding(), b).map_err(ballot_error)?
        }
        (None, None) => default_m(n_ballots),
    };
    let config =
        BallotConfig::with_options(n, m, alpha, n_ballots, options).map_err(ballot_error)?;
    let price = args.price;
    let control_items = match args.control_items.as_deref() {
        Some(p) => {
            let t = read_table(p, id_column, text_column).map_err(Failure::many)?;
            if t.extra_columns != items.extra_columns {
                return Err(Failure::about(
                    p,
                    "control items must have the same columns as the items",
                ));
            }
            if let Some(id) = t.ids.iter().find(|id| items.ids.contains(id)) {
                return Err(Failure::about(p, format!("id {id:?} is also an item")));
            }
            t
        }
        None => Table {
            extra_columns: items.extra_columns.clone(),
            ..Table::default()
        },
    };
    let controls = match args.controls.as_deref() {
        Some(p) => read_controls(p, &items, &control_items)?,
        None => Vec::new(),
    };
    let default_rate = if controls.is_empty() { 0.0 } else { 0.1 };
    let layout = parse_layout(
        args.control_rate,
        args.unit_size,
        LayoutOptions::plain(),
        default_rate,
    )?;
    print_plan(&config, &layout, controls.len(), price, env)?;
    if args.dry_run {
        return Ok(());
    }
    let campaign = Campaign::new(Scheduler::new(config), controls, layout).map_err(ballot_error)?;
    let items_bytes = fs::read(items_path).unwrap_or_default();
    let tag = format!("{:08x}", fnv1a(&[&seed.to_le_bytes(), &items_bytes]) as u32);
    let state = State {
        price,
        id_column: id_column.to_owned(),
        text_column: text_column.to_owned(),
        page,
        ..State::open(tag, seed, items, control_items, campaign).map_err(ballot_error)?
    };
    let bytes = state.to_bytes()?;
    if Path::new(state_path).exists() {
        if fs::read(state_path).is_ok_and(|old| old == bytes) {
            env.say(format_args!(
                "{state_path} already holds this campaign: nothing to do"
            ))?;
            return Ok(());
        }
        return Err(Failure::about(
            state_path,
            "exists and holds another campaign or one under way (remove it to start afresh)",
        ));
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
