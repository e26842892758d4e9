//! The six steps of a campaign. Each reads the state, checks everything,
//! and writes at most one file per output, atomically, at the very end: a
//! step that fails or dies leaves the state as it was.

use adaptive_comp_metrics::ballot::BallotError;

use super::args::{Args, Spec};
use super::state::State;
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

pub(super) fn ballot_error(e: BallotError) -> AppError {
    AppError::msg(e.to_string())
}

pub(super) fn errors(list: Vec<AppError>) -> Failure {
    Failure::Errors(list)
}

pub(super) fn report_open(state: &State, env: &mut Env<'_>) -> Outcome {
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

pub(super) fn load(args: &Args) -> Result<(String, State), Failure> {
    let path = args.required("state")?;
    Ok((path.to_owned(), State::load(path)?))
}

pub(super) fn open_ballot(state: &State, path: &str) -> Result<usize, AppError> {
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

pub(super) fn fmt_opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"))
}

mod collect;
mod finish;
mod setup;

pub use collect::{export, import, status};
pub use finish::{close, exclude, rank};
pub use setup::init;
