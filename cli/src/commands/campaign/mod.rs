//! `acm campaign`: an adaptive vote collection (Lombardo et al. 2020,
//! §2.5–2.7) run on a crowdsourcing platform through files.
//!
//! The whole state lives in one JSON file (`--state`), written atomically
//! (a temporary file with a unique name beside it, synced, renamed over it,
//! the directory synced): a command that fails or is killed at any moment
//! leaves the old state or the new one, never a mix. Every command that
//! changes the state (`init`, `import`, `close`, `exclude`) first takes an
//! exclusive lock on `STATE.lock` beside it (`File::try_lock`); a second
//! command fails at once saying that another one is using the campaign.
//!
//! # The state file
//!
//! One JSON object (format 1), kept as the file-based example of earlier
//! versions wrote it:
//!
//! ```text
//! {"format": "adaptive-comp-metrics campaign", "version": 1,
//!  "tag": "<8 hex digits: FNV-1a of the seed and the items file>",
//!  "seed": <u64>,
//!  "ballot_rng": {"stream": 0, "word_pos": "<u128 in decimal>"},
//!  "layout_rng": {"stream": 1, "word_pos": "<u128 in decimal>"},
//!  "price": <number or null>, "id_column": "id", "text_column": "text",
//!  "items": {"extra_columns": [...], "ids": [...], "texts": [...], "extra": [[...], ...]},
//!  "control_items": { same layout },
//!  "campaign": <the library's ballot::Campaign in its serde form>,
//!  "page": {"title", "question", "instructions", "tie_label", "completion_code",
//!           "completion_url", "partial_completion_code", "partial_completion_url"}
//!                                               (optional: init's page options, those given)}
//! ```
//!
//! A campaign served by `acm campaign serve` (feature `serve`) lives in a
//! store instead: one SQLite file holding this state as it was when serving
//! began and every answer, exclusion and ballot transition since. Every
//! command takes a store as `--state` (told apart by its first bytes): it
//! reads the state brought up to date (also while the store is served),
//! and a command that writes replaces it, under the same `STATE.lock`,
//! which a running server holds.
//!
//! Item i of the collection is row i of `items`; control item N + j is row
//! j of `control_items`. The generators are ChaCha8 seeded with
//! `seed_from_u64(seed)`, on the streams named. Task ids in files are
//! `TAG-b<ballot>-<position>`.

mod collect;
pub(crate) mod files;
mod finish;
mod plot;
mod serve;
mod setup;
pub mod state;

use std::fmt;
use std::io::{self, Write};

use adaptive_comp_metrics::ballot::BallotError;

use crate::output::{Ctx, Out};
use state::State;

pub use files::{Rows, Table, lock_path, parse_columns, parse_table, temp_path};

const AFTER: &str = "\
A campaign goes: init (plan and ballot 1) → for each ballot: export (the tasks to upload) →
import (the platform's answers) → close (the next ballot is chosen adaptively) → rank.
Every command names the state file with --state; the commands that change it lock STATE.lock.
Or serve the campaign to annotators' browsers: acm campaign serve --state s.json (the state
becomes a store, s.db, which every command reads and writes like a state file).

Example (7 ballots of an MTurk-style collection):
  acm campaign init --state s.json --items items.csv --seed 7 --controls controls.csv
  acm campaign export --state s.json --out ballot1.csv
  acm campaign import --state s.json --answers results.csv \\
      --task-column HITId --worker-column WorkerId --choice-column Answer
  acm campaign status --state s.json
  acm campaign close --state s.json --ballot 1 --min-accuracy 0.7
  acm campaign rank --state s.json --out ranking.csv --model model.csv";

/// Adaptive pairwise vote collection, through files (init, export, import, status, close,
/// exclude, rank) or served to annotators' browsers (serve).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The step.
    #[command(subcommand)]
    pub command: Step,
}

/// The steps of a campaign.
#[derive(Debug, clap::Subcommand)]
pub enum Step {
    Init(Box<setup::InitArgs>),
    Export(collect::ExportArgs),
    Import(collect::ImportArgs),
    Status(collect::StatusArgs),
    Close(finish::CloseArgs),
    Exclude(finish::ExcludeArgs),
    Rank(finish::RankArgs),
    Serve(Box<serve::ServeArgs>),
}

/// Why a step did not complete: the CLI's one failure type (errors with
/// their file and line, a wrong parameter value, a closed pipe, a simulated
/// crash in tests). Nothing was changed when a step fails.
pub use crate::error::{CRASH, Failure, Kind, Outcome};

/// Where a step writes its report, and whether it is to crash (tests).
pub struct Env<'a> {
    /// Standard output.
    pub out: &'a mut Out,
    /// `--quiet`: no progress, no notes.
    pub ctx: Ctx,
    /// Interrupts the step at this checkpoint (1-based, over the Env's
    /// life): a partly written temporary file, a complete one not yet
    /// renamed, a renamed one whose directory was not synced. Tests only.
    pub crash_at: Option<usize>,
    /// Checkpoints passed so far.
    pub checkpoints: usize,
}

impl fmt::Debug for Env<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Env")
            .field("crash_at", &self.crash_at)
            .field("checkpoints", &self.checkpoints)
            .finish_non_exhaustive()
    }
}

impl<'a> Env<'a> {
    /// An environment without a planned crash.
    pub fn new(out: &'a mut Out, ctx: Ctx) -> Self {
        Self {
            out,
            ctx,
            crash_at: None,
            checkpoints: 0,
        }
    }

    /// Writes a line to the report.
    pub fn say(&mut self, line: fmt::Arguments<'_>) -> Outcome {
        writeln!(self.out, "{line}")
    }

    /// Writes a line to standard error (after what stdout has so far).
    pub fn note(&mut self, line: fmt::Arguments<'_>) -> Outcome {
        let _ = Write::flush(self.out);
        let _ = writeln!(io::stderr(), "{line}");
        Ok(())
    }

    /// Passes a checkpoint: fails with [`Failure::crash`] at the planned one.
    pub fn checkpoint(&mut self) -> Outcome {
        self.checkpoints += 1;
        if self.crash_at == Some(self.checkpoints) {
            return Err(Failure::crash());
        }
        Ok(())
    }
}

/// Maps an error writing to standard output.
pub fn stdout_error(e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::quiet()
    } else {
        Failure::new(format!("cannot write the report: {e}"))
    }
}

/// Runs one step.
///
/// # Errors
/// See [`Failure`].
pub fn run_step(step: &Step, env: &mut Env<'_>) -> Outcome {
    match step {
        Step::Init(a) => setup::init(a, env),
        Step::Export(a) => collect::export(a, env),
        Step::Import(a) => collect::import(a, env),
        Step::Status(a) => collect::status(a, env),
        Step::Close(a) => finish::close(a, env),
        Step::Exclude(a) => finish::exclude(a, env),
        Step::Rank(a) => finish::rank(a, env),
        Step::Serve(a) => serve::serve(a, env),
    }
}

/// `acm campaign …`.
///
/// # Errors
/// What stopped the step.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    let mut env = Env::new(out, *ctx);
    run_step(&a.command, &mut env)
}

/// A library error about a parameter value (a command-line error), or
/// about the collection's state.
pub(crate) fn ballot_error(e: BallotError) -> Failure {
    let text = e.to_string();
    if text.starts_with("invalid parameter") {
        Failure::usage(text)
    } else {
        Failure::new(text)
    }
}

pub(crate) fn report_open(state: &State, env: &mut Env<'_>) -> Outcome {
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

pub(crate) fn open_ballot(state: &State, path: &str) -> Result<usize, Failure> {
    state.campaign.open_ballot_number().ok_or_else(|| {
        Failure::about(
            path,
            format!(
                "no ballot is open: all {} ballots are closed",
                state.campaign.scheduler().ballot_sizes().len()
            ),
        )
    })
}

pub(crate) fn fmt_opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"))
}
