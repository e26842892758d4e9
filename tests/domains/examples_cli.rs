//! The benchmark driver `examples/bench_weighted_tau.rs` at the prompt: its
//! bad command lines and its closed output pipe. (The examples' copy of the
//! command line's plumbing, `examples/common/cli.rs`, is gone, issue 38
//! item 6: the plumbing is the `acm` command's, tested in `cli/`.)

#[path = "../../examples/bench_weighted_tau.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod bench;

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| (*s).to_owned()).collect()
}

/// A writer whose reader went away (`… | head`).
struct Closed;

impl std::io::Write for Closed {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
}

// ---------------------------------------------------------------- others

#[test]
fn bench_weighted_tau_refuses_bad_arguments_with_its_usage() {
    let usage = |a: &[&str]| {
        let f = bench::parse_args(&args(a)).unwrap_err();
        assert_eq!(f.status(), 2);
        match f {
            bench::Stop::Usage(message) => message,
            other => panic!("{other:?}"),
        }
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
    let mut out = Vec::new();
    bench::run(&args(&["10", "1", "1"]), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("{\"n\": 10, "), "{text}");
    // Valid JSON, with the coefficients and p-values the comparison reads.
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    for key in ["weightedtau", "kendall_tau_b", "spearman"] {
        for field in [key.to_string(), format!("{key}_s")] {
            assert!(json[&field].is_f64(), "{field}: {json}");
        }
    }
    for key in ["kendall_tau_b_p", "spearman_p"] {
        let p = json[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{key}: {json}");
    }
    let f = bench::run(&args(&["10", "1", "1"]), &mut Closed).unwrap_err();
    assert!(matches!(f, bench::Stop::Quiet), "{f:?}");
    assert_eq!(f.status(), 0);
}

#[test]
fn no_example_prints_with_println() {
    // `println!` panics with `failed printing to stdout: Broken pipe` under
    // `… | head`; the examples write with `writeln!` and handle its error.
    for file in ["bench_weighted_tau.rs", "fingerprint.rs"] {
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
