//! The `campaign` command line as a library: argument parsing, the six
//! subcommands, and their errors. `main.rs` only wires it to the process;
//! the tests drive [`run`] directly, with a [`CrashPlan`] to interrupt a
//! step between two writes.

pub mod args;
pub mod commands;
pub mod files;
pub mod state;

use std::fmt;
use std::io::{self, Write};

/// One error, located: `FILE:LINE: message`, `FILE: message` or `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppError {
    /// The file concerned, if any.
    pub file: Option<String>,
    /// The 1-based line, if known.
    pub line: Option<u64>,
    /// What went wrong (lowercase, no trailing period).
    pub message: String,
}

impl AppError {
    /// An error without a place.
    pub fn msg(message: impl Into<String>) -> Self {
        Self {
            file: None,
            line: None,
            message: message.into(),
        }
    }

    /// An error about a file.
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: Some(file.into()),
            line: None,
            message: message.into(),
        }
    }

    /// An error at a line of a file.
    pub fn at(file: impl Into<String>, line: u64, message: impl Into<String>) -> Self {
        Self {
            file: Some(file.into()),
            line: Some(line),
            message: message.into(),
        }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {}", self.message),
            (Some(file), None) => write!(f, "{file}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// Why a step did not complete.
#[derive(Debug)]
pub enum Failure {
    /// Errors to report (exit code 1); nothing was changed.
    Errors(Vec<AppError>),
    /// A malformed command line (exit code 2, with the usage text, as the
    /// crate's other examples do); nothing was changed.
    Usage(AppError),
    /// A simulated crash (tests only): the process "died" at a checkpoint.
    Crash,
    /// The reader of standard output went away: exit quietly.
    BrokenPipe,
}

impl From<AppError> for Failure {
    fn from(e: AppError) -> Self {
        Self::Errors(vec![e])
    }
}

/// Result of a step.
pub type Outcome<T = ()> = Result<T, Failure>;

/// Interrupts a step at its `at`-th checkpoint (1-based, counted over the
/// whole [`Env`]'s life): a partly written temporary file, a complete one
/// not yet renamed, a renamed one whose directory was not synced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrashPlan {
    /// The checkpoint to die at.
    pub at: usize,
}

/// Where a step writes its report and whether it is to crash.
pub struct Env<'a> {
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error (warnings and notes).
    pub err: &'a mut dyn Write,
    /// A simulated crash, for tests.
    pub crash: Option<CrashPlan>,
    /// Checkpoints passed so far.
    pub checkpoints: usize,
}

impl<'a> Env<'a> {
    /// An environment without a planned crash.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write) -> Self {
        Self {
            out,
            err,
            crash: None,
            checkpoints: 0,
        }
    }

    /// Writes a line to the report.
    pub fn say(&mut self, line: fmt::Arguments<'_>) -> Outcome {
        writeln!(self.out, "{line}").map_err(|e| stdout_error(&e))
    }

    /// Writes a line to standard error.
    pub fn note(&mut self, line: fmt::Arguments<'_>) -> Outcome {
        writeln!(self.err, "{line}").map_err(|e| stdout_error(&e))
    }

    /// Passes a checkpoint: fails with [`Failure::Crash`] at the planned one.
    pub fn checkpoint(&mut self) -> Outcome {
        self.checkpoints += 1;
        if self.crash.is_some_and(|c| c.at == self.checkpoints) {
            return Err(Failure::Crash);
        }
        Ok(())
    }
}

/// Maps an error writing to standard output or error.
pub fn stdout_error(e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        AppError::msg(format!("cannot write the report: {e}")).into()
    }
}

/// The usage text.
pub const USAGE: &str = "\
usage: campaign <command> --state FILE [options]

commands:
  init    --items FILE --seed N [--m M | --budget COMPARISONS] [--alpha A] [--ballots NB]
          [--options paper|published] [--controls FILE [--control-items FILE]]
          [--control-rate R] [--unit-size U] [--price P] [--id-column C] [--text-column C] [--dry-run]
  export  --out FILE|- [--missing]     the open ballot's tasks (or its unanswered ones) as CSV
  import  --answers FILE [--task-column C] [--worker-column C] [--choice-column C]
          [--first-label L] [--second-label L] [--tie-label L] [--skip-refused]
  status                                votes per ballot, workers' counts, accuracy and agreement
  close   [--ballot K] [--unvoted reject|withdraw] [--min-accuracy A [--min-controls K]]
          [--control-rate R] [--unit-size U]
  exclude --min-accuracy A [--min-controls K] | --worker ID   exclude now, without closing
  rank    [--out FILE|-] [--model FILE [--model-id-column C] [--model-score-column C]]
";

/// Runs one command line (without the program name).
///
/// # Errors
/// See [`Failure`].
pub fn run(argv: &[String], env: &mut Env<'_>) -> Outcome {
    let Some((command, rest)) = argv.split_first() else {
        return Err(Failure::Usage(AppError::msg("no command given")));
    };
    match command.as_str() {
        "init" => commands::init(
            &args::Args::parse(rest, commands::INIT_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "export" => commands::export(
            &args::Args::parse(rest, commands::EXPORT_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "import" => commands::import(
            &args::Args::parse(rest, commands::IMPORT_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "status" => commands::status(
            &args::Args::parse(rest, commands::STATUS_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "close" => commands::close(
            &args::Args::parse(rest, commands::CLOSE_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "exclude" => commands::exclude(
            &args::Args::parse(rest, commands::EXCLUDE_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "rank" => commands::rank(
            &args::Args::parse(rest, commands::RANK_SPEC).map_err(Failure::Usage)?,
            env,
        ),
        "help" | "--help" | "-h" => {
            write!(env.out, "{USAGE}").map_err(|e| stdout_error(&e))?;
            Ok(())
        }
        other => Err(Failure::Usage(AppError::msg(format!(
            "unknown command {other:?}"
        )))),
    }
}
