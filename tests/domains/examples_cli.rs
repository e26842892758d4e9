//! The benchmark driver `examples/bench_weighted_tau.rs` at the prompt: its
//! shared command-line plumbing (`examples/common/cli.rs`) and its bad
//! command lines. The tools the other examples were are the `acm` command
//! now (`cli/`), tested there.

#[path = "../../examples/bench_weighted_tau.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod bench;

use bench::cli::{self, Failure, Fields, Kind, Out};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A directory of input files for one test, removed afterwards.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("acm-examples-cli-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// Writes `bytes` to the file `name` and returns its path as a string.
    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_owned()).collect()
}

// ---------------------------------------------------------------- cli

#[derive(Debug)]
struct Outer(Inner);
#[derive(Debug)]
struct Inner;

impl std::fmt::Display for Outer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cannot score the run")
    }
}
impl std::fmt::Display for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("line 4: bad grade")
    }
}
impl std::error::Error for Outer {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}
impl std::error::Error for Inner {}

#[test]
fn failures_print_the_display_chain_with_file_line_and_column() {
    // The issue's `Error: NaN { input: "x", index: 1 }` was Debug text.
    let f = Failure::from(Outer(Inner)).file("run.txt");
    assert_eq!(f.status(), 1);
    assert_eq!(
        f.render("usage: x").as_deref(),
        Some("error: run.txt: cannot score the run: line 4: bad grade")
    );
    let f = Failure::new("expected 'lemma.pos ID ::'")
        .file("gold.txt")
        .at(Some(3), Some(7));
    assert_eq!(f.to_string(), "gold.txt:3:7: expected 'lemma.pos ID ::'");
    // A source already quoted by its error is not repeated.
    let e = std::io::Error::other(Outer(Inner));
    assert_eq!(cli::chain(&e), "cannot score the run: line 4: bad grade");
    // Without a file the location stays in words.
    let f = Failure::new("bad").at(Some(2), None);
    assert_eq!(f.to_string(), "line 2: bad");
    // The source error stays reachable for callers that place it.
    let f = Failure::from(adaptive_comp_metrics::CorrelationError::Constant { input: "x" });
    assert_eq!(
        f.source::<adaptive_comp_metrics::CorrelationError>(),
        Some(&adaptive_comp_metrics::CorrelationError::Constant { input: "x" })
    );
}

#[test]
fn usage_errors_print_the_usage_line_and_exit_2() {
    let f = Failure::usage("unexpected argument \"x\"");
    assert_eq!(f.status(), 2);
    assert_eq!(
        f.render("usage: prog FILE").as_deref(),
        Some("error: unexpected argument \"x\"\nusage: prog FILE")
    );
    assert!(cli::wants_help(&args(&["a", "--help"])));
    assert!(!cli::wants_help(&args(&["a", "b"])));
}

#[test]
fn a_library_location_moves_into_the_prefix() {
    assert_eq!(
        cli::strip_location("line 3: expected x", 3, None),
        "expected x"
    );
    assert_eq!(
        cli::strip_location("line 3, column 7: count overflows", 3, Some(7)),
        "count overflows"
    );
    assert_eq!(
        cli::strip_location("dataset line 9: p1 + p2 is not 1", 9, None),
        "p1 + p2 is not 1"
    );
    assert_eq!(
        cli::strip_location("vectors line 2: duplicate word", 2, None),
        "duplicate word"
    );
    // Another line number, or other words before it: kept as they are.
    assert_eq!(cli::strip_location("line 4: x", 3, None), "line 4: x");
    assert_eq!(
        cli::strip_location("read error at line 3: Other", 3, None),
        "read error at line 3: Other"
    );
}

#[test]
fn a_closed_pipe_is_a_quiet_stop_with_status_0() {
    let mut out = Out::closed();
    let f = writeln!(out, "x").expect_err("a closed pipe fails");
    assert_eq!((f.kind, f.status(), f.render("u")), (Kind::Quiet, 0, None));
    // Also when it comes wrapped in another error (csv, serde_json).
    let mut w = csv::Writer::from_writer(Out::closed());
    let e = w
        .write_record(["a"])
        .and_then(|()| w.flush().map_err(csv::Error::from))
        .expect_err("a closed pipe fails");
    // `relevance --format csv` turns it into an `io::Error` of kind `Other`.
    let as_io = std::io::Error::from(e);
    assert_eq!(cli::output_failure(as_io).kind, Kind::Quiet);
    let wrapped = std::io::Error::other(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
    assert_eq!(Failure::from(wrapped).kind, Kind::Quiet);
    // Any other write error is an error.
    let f = cli::output_failure(std::io::ErrorKind::StorageFull.into());
    assert_eq!(f.status(), 1);
    assert!(
        f.message.starts_with("writing the output: "),
        "{}",
        f.message
    );
}

#[test]
fn field_columns_count_characters_past_a_byte_order_mark() {
    let text = "\u{feff}é,ab ,  c\r\nx  y\tzz\n";
    // Line 1: é(1) ,(2) a(3) b(4) space(5) ,(6) space space c(9).
    assert_eq!(cli::field_column(text, 1, 0, Fields::Comma), Some(1));
    assert_eq!(cli::field_column(text, 1, 1, Fields::Comma), Some(3));
    assert_eq!(cli::field_column(text, 1, 2, Fields::Comma), Some(9));
    assert_eq!(cli::field_column(text, 1, 3, Fields::Comma), None);
    // Line 2: x(1) y(4) zz(6).
    assert_eq!(cli::field_column(text, 2, 1, Fields::Whitespace), Some(4));
    assert_eq!(cli::field_column(text, 2, 2, Fields::Whitespace), Some(6));
    assert_eq!(cli::field_column(text, 2, 3, Fields::Whitespace), None);
    assert_eq!(cli::field_column(text, 9, 0, Fields::Comma), None);
}

#[test]
fn files_open_past_a_byte_order_mark_and_name_the_missing_file() {
    let dir = Scratch::new("open");
    let path = dir.file("bom.txt", b"\xEF\xBB\xBFhello");
    assert_eq!(cli::read(&path).unwrap(), b"hello");
    let missing = dir.0.join("missing.csv");
    let f = cli::read(&missing).unwrap_err();
    let text = f.render("u").unwrap();
    assert!(
        text.starts_with(&format!("error: {}: ", missing.display())),
        "{text}"
    );
    assert_eq!(f.status(), 1);
}

// ---------------------------------------------------------------- others

#[test]
fn bench_weighted_tau_refuses_bad_arguments_with_its_usage() {
    use bench::cli::{Kind, Out};
    let usage = |a: &[&str]| {
        let f = bench::parse_args(&args(a)).unwrap_err();
        assert_eq!(f.status(), 2);
        f.message
    };
    // Issue 17: `ParseIntError { kind: InvalidDigit }`.
    assert_eq!(
        usage(&["x"]),
        "N must be a number of items, got \"x\": invalid digit found in string"
    );
    assert_eq!(
        usage(&["10", "1", "1", "all"]),
        "ONLY must be `weightedtau`, `kendalltau` or `spearmanr`, got \"all\""
    );
    for only in ["weightedtau", "kendalltau", "spearmanr"] {
        let parsed = bench::parse_args(&args(&["10", "1", "1", only])).unwrap();
        assert!(parsed.only.is_some(), "{only}");
    }
    assert_eq!(
        usage(&["10", "1", "1", "weightedtau", "x"]),
        "unexpected argument \"x\""
    );
    assert!(usage(&["10", "1", "0"]).starts_with("REPEATS must be at least 1"));
    let mut out = Out::memory();
    bench::run(&args(&["10", "1", "1"]), &mut out).unwrap();
    assert!(out.text().starts_with("{\"n\": 10, "), "{}", out.text());
    // Valid JSON, with the coefficients and p-values the comparison reads.
    let json: serde_json::Value = serde_json::from_str(out.text().trim()).unwrap();
    for key in ["weightedtau", "kendall_tau_b", "spearman"] {
        for field in [key.to_string(), format!("{key}_s")] {
            assert!(json[&field].is_f64(), "{field}: {json}");
        }
    }
    for key in ["kendall_tau_b_p", "spearman_p"] {
        let p = json[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{key}: {json}");
    }
    let f = bench::run(&args(&["10", "1", "1"]), &mut Out::closed()).unwrap_err();
    assert_eq!((f.kind, f.status()), (Kind::Quiet, 0));
}

#[test]
fn no_example_prints_with_println() {
    // `println!` panics with `failed printing to stdout: Broken pipe` under
    // `… | head`; the examples write through `cli::Out` instead.
    for file in ["bench_weighted_tau.rs", "fingerprint.rs", "common/cli.rs"] {
        let source = std::fs::read_to_string(Path::new(ROOT).join("examples").join(file)).unwrap();
        let code: String = source
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for banned in ["println!", "print!(", "unwrap()", "expect("] {
            // `eprintln!` writes to stderr, which `… | head` leaves open.
            let used = code
                .match_indices(banned)
                .any(|(i, _)| !code[..i].ends_with('e'));
            assert!(!used, "examples/{file} uses {banned}");
        }
    }
}
