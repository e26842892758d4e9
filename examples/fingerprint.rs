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

#[path = "../tests/common/fingerprint.rs"]
mod fingerprint;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(extra) = std::env::args().nth(1) {
        eprintln!("error: unexpected argument {extra:?}\nusage: fingerprint");
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    for (name, x, y) in fingerprint::data_sets() {
        for (what, v) in fingerprint::fingerprint(name, &x, &y) {
            if writeln!(out, "{what} {:016x} {v:?}", v.to_bits()).is_err() {
                // A closed pipe (`… | head`): stop quietly.
                return ExitCode::SUCCESS;
            }
        }
    }
    ExitCode::SUCCESS
}
