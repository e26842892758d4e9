//! What every command shares: help, version, exit statuses, suggestions,
//! completions, a closed output pipe, echoed input cut short.

use std::process::Stdio;

use crate::common::{acm, fails, ok, run, says};

#[test]
fn help_and_version_exit_0_on_stdout() {
    let out = ok(&["--help"]);
    says(&out, "Usage: acm");
    says(&out, "Examples:");
    let v = ok(&["--version"]);
    assert_eq!(v.trim(), format!("acm {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn every_command_has_help_with_a_worked_example() {
    let help = ok(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 4, "{commands:?}");
    for c in commands {
        let out = ok(&[c, "--help"]);
        assert!(
            out.contains("Example"),
            "acm {c} --help has no example:\n{out}"
        );
        assert!(out.contains(&format!("acm {c}")), "acm {c} --help:\n{out}");
    }
}

#[test]
fn a_wrong_command_line_exits_2_with_a_suggestion() {
    let err = fails(&["cor", "x.csv"], 2);
    says(&err, "unrecognized subcommand 'cor'");
    says(&err, "a similar subcommand exists: 'corr'");
    let err = fails(&["corr", "x.csv", "--bogus"], 2);
    says(&err, "unexpected argument '--bogus'");
    let err = fails(&[], 2);
    says(&err, "Usage: acm");
}

#[test]
fn invalid_parameter_values_are_command_line_errors() {
    for (args, needle) in [
        (
            &["corr", "x.csv", "--bootstrap", "0"][..],
            "--bootstrap <N>",
        ),
        (
            &["corr", "x.csv", "--bootstrap", "1000000000000"][..],
            "--bootstrap <N>",
        ),
        (
            &["corr", "x.csv", "--permutations", "0"][..],
            "--permutations",
        ),
        (&["corr", "x.csv", "--seed", "-1"][..], "-1"),
        (&["corr", "x.csv", "--delimiter", "ab"][..], "--delimiter"),
        (&["lexsub", "g", "s", "-t", "both"][..], "'both'"),
    ] {
        let err = fails(args, 2);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn completions_are_printed_for_bash() {
    let out = ok(&["completions", "bash"]);
    assert!(out.contains("_acm()"), "{}", &out[..out.len().min(300)]);
    assert!(out.contains("corr"));
    fails(&["completions", "tcsh"], 2);
}

#[test]
fn a_closed_output_pipe_ends_quietly_with_status_0() {
    // The reader goes away before the output is written.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("acm"))
        .args(["completions", "zsh"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    // In process: every write fails as on a closed pipe.
    let data = crate::common::data("examples/data/word-pairs.csv");
    for format in ["table", "csv", "json"] {
        let cli = <acm_cli::Cli as clap::Parser>::try_parse_from([
            "acm", "corr", &data, "--format", format,
        ])
        .unwrap();
        let f = acm_cli::run(cli, &mut acm_cli::Out::closed()).unwrap_err();
        assert_eq!((f.kind, f.status()), (acm_cli::Kind::Quiet, 0), "{format}");
    }
}

#[test]
fn echoed_input_is_cut_with_its_length_named() {
    let dir = crate::common::Scratch::new("echo");
    let big = "x".repeat(10_000_100);
    let path = dir.file("big.csv", format!("human,model\n1,2\n2,{big}\n"));
    let (code, _, err) = run(&["corr", &path]);
    assert_eq!(code, 1);
    assert!(err.len() < 300, "{} bytes on stderr", err.len());
    // Cut once: the echoed field with its length, nothing else.
    assert_eq!(
        err,
        format!(
            "error: {path}:3:3: column \"model\": \"{}\"… (10000100 characters, cut to 80) \
             is not a number\n",
            "x".repeat(80)
        )
    );
    let _ = acm;
}
