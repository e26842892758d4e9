//! Prints every large-n coefficient of `tests/common/fingerprint.rs` as
//! `name bits value` lines (bits: the f64's 16 hexadecimal digits), the
//! values that `tests/correlation/parallel.rs` pins on any number of threads.
//!
//! ```text
//! cargo run --release --example fingerprint > tests/data/parallel/fingerprint.txt
//! ```
//!
//! `tests/data/parallel/gen_fingerprint.sh COMMIT` runs it on another commit
//! (the pinned file comes from the commit before the coefficients used
//! threads). Takes no arguments; a closed output pipe ends it quietly.

#[path = "common/cli.rs"]
pub mod cli;
#[path = "../tests/common/fingerprint.rs"]
mod fingerprint;

use cli::{Failure, Out};
use std::process::ExitCode;

const USAGE: &str = "usage: fingerprint";

fn main() -> ExitCode {
    cli::main(USAGE, run)
}

/// Prints the lines.
pub fn run(args: &[String], out: &mut Out) -> Result<(), Failure> {
    if let Some(extra) = args.first() {
        return Err(Failure::usage(format!("unexpected argument {extra:?}")));
    }
    for (name, x, y) in fingerprint::data_sets() {
        for (what, v) in fingerprint::fingerprint(name, &x, &y) {
            writeln!(out, "{what} {:016x} {v:?}", v.to_bits())?;
        }
    }
    Ok(())
}
