//! `acm`, the command-line tool of `adaptive-comp-metrics`: every workflow
//! of the crate as an installed command (`cargo install --path cli`).
//!
//! The binary is one call of [`main`]; the commands live in
//! [`commands`], each on the library's public API only. Shared pieces:
//!
//! - [`error`]: `error: FILE:LINE:COLUMN: message` on stderr, exit status 0
//!   (done, or a closed output pipe), 1 (bad input or a failed computation),
//!   2 (a wrong command line); echoed input cut to about 80 characters;
//! - [`output`]: buffered stdout, `--format table|csv|json`;
//! - [`progress`]: progress bars on stderr, hidden when stderr is not a
//!   terminal and with `--quiet`;
//! - [`input`]: files opened past a byte-order mark, numeric CSV columns.

pub mod commands;
pub mod error;
pub mod input;
pub mod output;
pub mod params;
pub mod plot;
pub mod progress;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

pub use error::{Failure, Kind, Outcome};
pub use output::{Ctx, Format, Out};

const EXAMPLES: &str = "\
Examples:
  acm corr scores.csv human model            ρ_w, τ_w, ρ, τ-b, r, weighted τ of two columns
  acm wordsim --vectors glove.vec SimLex-999.txt
  acm trec -q -m map -m P.5,10 qrels run     trec_eval's command line and output
  acm lexsub gold.txt system.best            SemEval-2007 best/oot and the revised measures
  acm compare trec qrels a.run b.run c.run   which runs differ: paired tests, Holm, intervals
  acm simulate table2                        Table 2 of Lombardo et al. (2020)
  acm campaign init --state s.json --items items.csv --seed 7
  acm pairwise fit votes.csv --format json   Bradley–Terry scores with intervals, P(top k)

Exit status: 0 done, 1 bad input or a failed computation, 2 a wrong command line.";

/// Top-rank-focused evaluation of semantic models against human judgements.
#[derive(Debug, Parser)]
#[command(
    name = "acm",
    version,
    about,
    long_about = "Top-rank-focused evaluation of semantic models against human judgements: \
                  weighted rank correlations (Lombardo et al. 2020), word-similarity benchmarks, \
                  TREC runs scored as trec_eval does, SemEval-2007 lexical substitution, \
                  reliability-weighted triplets, adaptive crowd campaigns, and the voter \
                  simulator of Table 2.",
    after_help = EXAMPLES,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    /// No progress bars and no notes on stderr (errors and warnings stay).
    #[arg(long, global = true)]
    pub quiet: bool,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    Corr(commands::corr::Args),
    Wordsim(commands::wordsim::Args),
    Trec(commands::trec::Args),
    Compare(commands::compare::Args),
    Relevance(commands::relevance::Args),
    Lexsub(commands::lexsub::Args),
    Triplets(commands::triplets::Args),
    Campaign(commands::campaign::Args),
    Pairwise(commands::pairwise::Args),
    Simulate(commands::simulate::Args),
    Standardise(commands::standardise::Args),
    /// Prints a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Example:\n  acm completions bash > ~/.local/share/bash-completion/completions/acm"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Runs a parsed command line, writing results to `out`.
///
/// # Errors
/// What stopped the command; see [`Failure`].
pub fn run(cli: Cli, out: &mut Out) -> Outcome {
    let ctx = Ctx { quiet: cli.quiet };
    match cli.command {
        Command::Corr(a) => commands::corr::run(&a, &ctx, out),
        Command::Wordsim(a) => commands::wordsim::run(&a, &ctx, out),
        Command::Trec(a) => commands::trec::run(&a, &ctx, out),
        Command::Compare(a) => commands::compare::run(&a, &ctx, out),
        Command::Relevance(a) => commands::relevance::run(&a, &ctx, out),
        Command::Lexsub(a) => commands::lexsub::run(&a, &ctx, out),
        Command::Triplets(a) => commands::triplets::run(&a, &ctx, out),
        Command::Campaign(a) => commands::campaign::run(&a, &ctx, out),
        Command::Pairwise(a) => commands::pairwise::run(&a, &ctx, out),
        Command::Simulate(a) => commands::simulate::run(&a, &ctx, out),
        Command::Standardise(a) => commands::standardise::run(&a, &ctx, out),
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "acm", &mut buf);
            out.bytes(&buf)
        }
    }
}

/// Parses `args` (the program name first) and runs the command: what the
/// binary does. Returns the exit status.
pub fn main_with<I, T>(args: I, out: &mut Out) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and exit 0; a wrong
            // command line prints to stderr and exits 2.
            let code = e.exit_code();
            if e.print().is_err() {
                return 0;
            }
            return u8::try_from(code).unwrap_or(error::STATUS_USAGE);
        }
    };
    let result = run(cli, out).and_then(|()| out.flush());
    finish(result, out)
}

/// The exit status of a finished run; a failure is printed on stderr after
/// flushing what was written before it.
pub fn finish(result: Outcome, out: &mut Out) -> u8 {
    match result {
        Ok(()) => 0,
        Err(f) => {
            let _ = Write::flush(out);
            if let Some(text) = f.render() {
                let _ = writeln!(io::stderr(), "{text}");
            }
            f.status()
        }
    }
}

/// The `acm` binary.
pub fn main() -> ExitCode {
    let mut out = Out::stdout();
    ExitCode::from(main_with(std::env::args_os(), &mut out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
