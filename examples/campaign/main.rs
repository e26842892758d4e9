//! Runs an adaptive vote collection (Lombardo et al. 2020, §2.5–2.7) on a
//! crowdsourcing platform through files: every step reads and writes plain
//! files, and the whole state lives in one JSON file written atomically.
//!
//! ```text
//! cargo run --release --features scheduler,serde --example campaign -- <command> --state S.json …
//!
//! init    --items items.csv --seed 7 [--m 20 | --budget 40000] [--alpha 0.5] [--ballots 7]
//!         [--controls controls.csv [--control-items extra.csv]] [--control-rate 0.1]
//!         [--unit-size 20] [--price 0.05] [--dry-run]
//! export  --out ballot.csv              upload this file to the platform
//! import  --answers results.csv [--task-column HITId --worker-column WorkerId --choice-column Answer]
//! status                                 votes per ballot; workers' counts, accuracy, agreement
//! close   [--ballot K] [--unvoted withdraw] [--min-accuracy 0.7 --min-controls 5]
//! exclude --min-accuracy 0.7 [--min-controls 5] | --worker ID
//! export  --out missing.csv --missing   the tasks still without an answer
//! rank    --out ranking.csv [--model model.csv]
//! ```
//!
//! - `init` reads the items (`id,text` plus any other columns, carried to the
//!   task files), plans the collection with the §2.7 heuristics (N from the
//!   file; M, α, n_b, or a budget; without M or a budget, the smallest M with
//!   M_top = n_b·M ≥ 100), prints the plan and its cost, and opens ballot 1.
//!   Control pairs (`first,second,answer`: item ids and the expected choice,
//!   `first`, `second`, `tie` or one of the two ids) are mixed into every
//!   ballot at `--control-rate` (a share of all tasks; default 0.1 with
//!   controls), within units of `--unit-size` tasks when given.
//! - `export` writes the open ballot's tasks: `task_id[,unit],first_id,
//!   first_text,second_id,second_text,first_<col>…,second_<col>…`. Task ids
//!   (`TAG-b<ballot>-<position>`) are stable: exporting again writes the same
//!   file.
//! - `import` reads a platform's answers as they are (column names and the
//!   labels of the choices configurable; a choice may also be the chosen
//!   item's id). Malformed rows, unknown tasks, answers to closed ballots,
//!   tasks answered twice are reported with their line and nothing is
//!   imported (`--skip-refused` imports the rest). Importing the same file
//!   again is harmless.
//! - `close` closes the open ballot (`--unvoted withdraw` drops unanswered
//!   comparisons; the default refuses to close with any), after excluding
//!   the workers whose accuracy on control pairs is below `--min-accuracy`
//!   (with at least `--min-controls` control answers, default 5): their
//!   answers of this ballot are discarded and logged, and the tasks can be
//!   answered again. It then opens the next ballot. `--ballot K` makes it
//!   idempotent: closing a ballot already closed does nothing.
//! - `exclude` does the same exclusion at once, without closing, so that the
//!   discarded tasks can be exported again (`export --missing`) and answered
//!   by others before the ballot closes.
//! - `rank` writes `rank,id,text,score,last_ballot`; with `--model`
//!   (`id,score`) it prints ρ_w, τ_w, ρ and τ-b of the model against the
//!   collected scores.
//!
//! `status` prints, per worker, the votes that count, the control answers
//! and the accuracy on them, and the agreement with the majority: the share
//! of the worker's votes that order the two items as the rest of the crowd
//! does in that ballot (their Borda scores without the worker's own votes;
//! a tie counts one half). A platform that collects several answers per task
//! gives duplicates: import such a file with `--skip-refused` (the first
//! answer of each task counts).
//!
//! `bash examples/campaign/measure.sh` times every step at N = 10⁵, M = 20.
//!
//! Errors are printed as `error: FILE:LINE: message` and exit with code 1
//! (a malformed command line: the message and the usage text, code 2);
//! a closed standard output (`| head`) ends quietly.

mod app;

use std::io::{self, Write};

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let code = {
        let mut env = app::Env::new(&mut out, &mut err);
        match app::run(&argv, &mut env) {
            Ok(()) => 0,
            Err(app::Failure::BrokenPipe) => 0,
            Err(app::Failure::Crash) => 1,
            Err(app::Failure::Usage(e)) => {
                let _ = writeln!(env.err, "error: {e}\n{}", app::USAGE);
                2
            }
            Err(app::Failure::Errors(list)) => {
                for e in list {
                    if writeln!(env.err, "error: {e}").is_err() {
                        break;
                    }
                }
                1
            }
        }
    };
    let _ = out.flush();
    std::process::exit(code);
}
