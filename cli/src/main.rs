//! The `acm` binary: see the `acm_cli` library for the commands.

fn main() -> std::process::ExitCode {
    acm_cli::main()
}
