//! Issue 17: the examples at the prompt. Each example's `run(args, out)` is
//! compiled here from its source (`#[path]`) and called on bad command lines
//! and bad files: a missing file, a non-number or NaN cell, a byte-order
//! mark, quoted fields, an extra argument, an empty file, a closed output
//! pipe. The message (`error: FILE:LINE:COLUMN: message`) and the exit status
//! are checked; the expected lines and columns are counted by hand in the
//! inputs written here. Running the built example binaries would need a
//! nested `cargo` (a second build), so the programs' `main` — one call of the
//! shared `cli::main` — is the only part not exercised.

#[path = "../../examples/bench_weighted_tau.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod bench;
#[path = "../../examples/evaluate.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod evaluate;
#[path = "../../examples/lexsub.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod lexsub;
#[path = "../../examples/relevance.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod relevance;
#[cfg(feature = "simulator")]
#[path = "../../examples/reproduce_table2/main.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod table2;
#[path = "../../examples/triplets.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod triplets;

use evaluate::cli::{self, Failure, Fields, Kind, Out};
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

fn data(rel: &str) -> String {
    Path::new(ROOT).join(rel).to_str().unwrap().to_owned()
}

/// The stderr text and exit status of a failed run (`None` text: quiet).
macro_rules! fails {
    ($result:expr, $usage:expr) => {{
        let f = $result.expect_err("the run should fail");
        (f.render($usage), f.status())
    }};
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
    let f = Failure::from(adaptive_comp_metrics::Error::Constant { input: "x" });
    assert_eq!(
        f.source::<adaptive_comp_metrics::Error>(),
        Some(&adaptive_comp_metrics::Error::Constant { input: "x" })
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

// ---------------------------------------------------------------- evaluate

fn columns(text: &[u8]) -> Result<evaluate::columns::Columns, Failure> {
    evaluate::columns::parse(text, &["human", "model"])
}

#[test]
fn evaluate_reads_a_byte_order_mark_and_quoted_fields() {
    // Issue 17: `no column human in "\u{feff}human,model"`.
    let c = columns(b"\xEF\xBB\xBFhuman,model\n1,2\n2,1\n").unwrap();
    assert_eq!(c.values, vec![vec![1.0, 2.0], vec![2.0, 1.0]]);
    // Issue 17: `"p,1",1,0.5` was split at the comma inside the quotes.
    let c = columns(b"word,human,model\n\"p,1\",1,0.5\n\"q \"\"x\"\"\",\"2\", 0.25 \r\n").unwrap();
    assert_eq!(c.values, vec![vec![1.0, 2.0], vec![0.5, 0.25]]);
    // Blank lines are skipped; the cells keep their own lines and columns.
    let c = columns(b"human,model\n\n 1 ,2\n").unwrap();
    let cell = c.cells[0][0];
    assert_eq!((cell.line, cell.column), (3, 2));
}

#[test]
fn evaluate_names_the_line_and_column_of_a_bad_cell() {
    let at = |text: &[u8]| {
        let f = columns(text).unwrap_err();
        (f.line, f.column, f.message)
    };
    // Issue 17: a NaN cell reached the library and came back as
    // `NaN { input: "y", index: 0 }`.
    assert_eq!(
        at(b"human,model\n1,NaN\n2,3\n"),
        (
            Some(2),
            Some(3),
            "column \"model\": \"NaN\" is not a finite number".to_owned()
        )
    );
    assert_eq!(
        at(b"human,model\n1,2\n2,x\n"),
        (
            Some(3),
            Some(3),
            "column \"model\": \"x\" is not a number".to_owned()
        )
    );
    // A record spanning two lines: the cell is on the second, after a
    // quoted line break; `é` is one character.
    let (line, column, _) = at("w,human,model\n\"é\n\",  inf,1\n".as_bytes());
    assert_eq!((line, column), (Some(3), Some(5)));
    assert_eq!(
        at(b"human,model\n1,2\n3\n"),
        (
            Some(3),
            None,
            "missing field \"model\" (field 2 of the header): the line has 1 field".to_owned()
        )
    );
    assert_eq!(at(b"human,model\n1,\n").1, Some(3));
    assert_eq!(
        at(b"human,model,human\n1,2,3\n"),
        (
            Some(1),
            Some(13),
            "the header names column \"human\" twice: which one to use is ambiguous".to_owned()
        )
    );
    assert_eq!(
        at(b"a,b\n1,2\n"),
        (
            Some(1),
            None,
            "no column \"human\" in the header (its columns: \"a\", \"b\")".to_owned()
        )
    );
}

#[test]
fn evaluate_refuses_an_empty_file_or_one_without_rows() {
    // Issue 17: an empty dataset exited 0 with nothing computed.
    assert_eq!(
        columns(b"").unwrap_err().message,
        "the file is empty: expected a header line naming the columns \"human\" and \"model\""
    );
    assert_eq!(
        columns(b"\n \n").unwrap_err().message,
        columns(b"").unwrap_err().message
    );
    assert_eq!(
        columns(b"human,model\r\n\r\n").unwrap_err().message,
        "no data: the file has a header (line 1) but no rows"
    );
    let dir = Scratch::new("evaluate_empty");
    let path = dir.file("empty.csv", b"");
    let (text, status) = fails!(evaluate::run(&args(&[&path]), &mut Out::memory()), "u");
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!(
            "error: {path}: the file is empty: expected a header line naming the columns \
             \"human\" and \"model\""
        )
    );
}

#[test]
fn evaluate_runs_end_to_end_with_file_names_in_errors() {
    let dir = Scratch::new("evaluate_run");
    let nan = dir.file("nan.csv", b"\xEF\xBB\xBFhuman,model\n1,2\n2,NaN\n");
    let (text, status) = fails!(evaluate::run(&args(&[&nan]), &mut Out::memory()), "u");
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {nan}:3:3: column \"model\": \"NaN\" is not a finite number")
    );
    // A constant column: the library's `x` becomes the column's name.
    let constant = dir.file("constant.csv", b"human,model\n1,2\n1,3\n1,4\n");
    let (text, status) = fails!(evaluate::run(&args(&[&constant]), &mut Out::memory()), "u");
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {constant}: column \"human\" is constant: the coefficient is undefined")
    );
    let missing = dir.0.join("missing.csv");
    let (text, status) = fails!(
        evaluate::run(&args(&[missing.to_str().unwrap()]), &mut Out::memory()),
        "u"
    );
    assert_eq!(status, 1);
    assert!(
        text.unwrap()
            .starts_with(&format!("error: {}: ", missing.display()))
    );
    // Other column names, and quoted fields, on the whole way.
    let named = dir.file(
        "named.csv",
        b"pair,gold,sys\n\"a,b\",1,1\n\"c,d\",2,3\n\"e,f\",3,2\n",
    );
    let mut out = Out::memory();
    evaluate::run(&args(&[&named, "gold", "sys"]), &mut out).unwrap();
    assert!(
        out.text()
            .contains(": 3 items, human = `gold`, model = `sys`"),
        "{}",
        out.text()
    );
}

#[test]
fn evaluate_explains_its_output_and_stops_quietly_on_a_closed_pipe() {
    let mut out = Out::memory();
    evaluate::run(&[], &mut out).unwrap();
    let text = out.text();
    assert!(text.contains("990 items"), "{text}");
    // R(2) = 1/(9 ψ⁽¹⁾(3)) = 0.2813 (first_rank_fraction's doctest).
    assert!(
        text.contains("R(2) = 0.281: the share of all the weight that rank 1 alone carries"),
        "{text}"
    );
    assert!(
        text.contains("disagreements near the top count most"),
        "{text}"
    );
    let f = evaluate::run(&[], &mut Out::closed()).unwrap_err();
    assert_eq!((f.kind, f.status()), (Kind::Quiet, 0));
}

#[test]
fn evaluate_refuses_extra_arguments_and_unknown_options() {
    let (text, status) = fails!(
        evaluate::parse_args(&args(&["f.csv", "h", "m", "x"])),
        "usage: e"
    );
    assert_eq!(status, 2);
    assert_eq!(
        text.unwrap(),
        "error: unexpected argument \"x\": at most FILE.csv, HUMAN_COLUMN and MODEL_COLUMN\nusage: e"
    );
    let (text, status) = fails!(evaluate::parse_args(&args(&["--verbose"])), "usage: e");
    assert_eq!(status, 2);
    assert!(
        text.unwrap()
            .starts_with("error: unknown option \"--verbose\"")
    );
    let a = evaluate::parse_args(&args(&["f.csv", "gold"])).unwrap();
    assert_eq!((a.human.as_str(), a.model.as_str()), ("gold", "model"));
}

// ---------------------------------------------------------------- lexsub

#[test]
fn lexsub_errors_name_file_line_and_column() {
    use lexsub::cli::Out;
    let dir = Scratch::new("lexsub");
    let system = data("tests/data/lexsub/system.best");
    let run = |gold: &str| lexsub::run(&args(&[gold, &system]), &mut Out::memory());
    // Issue 17: an empty gold printed an all-`n/a` table and exited 0.
    let empty = dir.file("empty.txt", b"\n");
    let (text, status) = fails!(run(&empty), "u");
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {empty}: no gold items: the file has no item line")
    );
    let (text, _) = fails!(
        lexsub::run(&args(&[&empty, &system, "--score-pl"]), &mut Out::memory()),
        "u"
    );
    assert_eq!(
        text.unwrap(),
        format!("error: {empty}: no gold items: the file has no item line")
    );
    // The count starts at column 17 of `bright.a 1 :: a 99999999999999999999999;`.
    let overflow = dir.file(
        "overflow.txt",
        b"bright.a 1 :: a 99999999999999999999999;\n",
    );
    let (text, status) = fails!(run(&overflow), "u");
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {overflow}:1:17: annotator count overflows (at most 4294967295)")
    );
    // An item named twice: the second naming, at the id (column 10).
    let twice = dir.file("twice.txt", b"bright.a 1 :: a 3;\nbright.a 1 :: b 2;\n");
    let (text, _) = fails!(run(&twice), "u");
    assert_eq!(
        text.unwrap(),
        format!("error: {twice}:2:10: duplicate item id 1 in the gold")
    );
    let syntax = dir.file("syntax.txt", b"bright.a 1 :: a 3;\nnonsense\n");
    let (text, _) = fails!(run(&syntax), "u");
    assert!(
        text.as_deref()
            .unwrap()
            .starts_with(&format!("error: {syntax}:2: expected ")),
        "{text:?}"
    );
}

#[test]
fn lexsub_reads_a_byte_order_mark_and_refuses_extra_arguments() {
    use lexsub::cli::{Kind, Out};
    let dir = Scratch::new("lexsub_bom");
    let gold = std::fs::read(data("tests/data/lexsub/gold.txt")).unwrap();
    let system = data("tests/data/lexsub/system.best");
    let mut plain = Out::memory();
    lexsub::run(
        &args(&[&data("tests/data/lexsub/gold.txt"), &system]),
        &mut plain,
    )
    .unwrap();
    let with_bom = dir.file("gold.txt", &[b"\xEF\xBB\xBF".as_slice(), &gold].concat());
    let mut bom = Out::memory();
    lexsub::run(&args(&[&with_bom, &system]), &mut bom).unwrap();
    assert_eq!(bom.text(), plain.text());
    assert!(
        plain.text().starts_with("gold items scored: 5"),
        "{}",
        plain.text()
    );
    let (text, status) = fails!(lexsub::parse_args(&args(&["g", "s", "x"])), "usage: l");
    assert_eq!(status, 2);
    assert_eq!(
        text.unwrap(),
        "error: unexpected argument \"x\": expected two files, GOLD and SYSTEM\nusage: l"
    );
    let f = lexsub::run(&args(&[&with_bom, &system]), &mut Out::closed()).unwrap_err();
    assert_eq!((f.kind, f.status()), (Kind::Quiet, 0));
}

// ---------------------------------------------------------------- triplets

#[test]
fn triplets_errors_name_file_line_and_column() {
    use triplets::cli::{Kind, Out};
    let dir = Scratch::new("triplets");
    let vectors = data("tests/data/triplet/sample.vec");
    let dataset = data("tests/data/triplet/sample.txt");
    // Issue 17: an empty dataset printed `undefined` everywhere, status 0.
    let empty = dir.file("empty.txt", b"");
    let (text, status) = fails!(
        triplets::run(&args(&[&empty, &vectors]), &mut Out::memory()),
        "u"
    );
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {empty}: no comparisons: the dataset has no target block")
    );
    // `artist,0.80,person,x`: field 4 starts at column 20.
    let bad = dir.file("bad.txt", b"singer\nartist,0.80,person,x\n");
    let (text, _) = fails!(
        triplets::run(&args(&[&bad, &vectors]), &mut Out::memory()),
        "u"
    );
    assert_eq!(
        text.unwrap(),
        format!("error: {bad}:2:20: field 4 is not a probability in [0, 1]")
    );
    // `b 1 zz`: component 2 starts at column 5.
    let vec = dir.file("bad.vec", b"2 2\na 1 2\nb 1 zz\n");
    let (text, _) = fails!(
        triplets::run(&args(&[&dataset, &vec]), &mut Out::memory()),
        "u"
    );
    assert_eq!(
        text.unwrap(),
        format!("error: {vec}:3:5: component 2 is not a number")
    );
    // A byte-order mark before the vectors' header.
    let sample = std::fs::read(&vectors).unwrap();
    let bom = dir.file("bom.vec", &[b"\xEF\xBB\xBF".as_slice(), &sample].concat());
    let mut out = Out::memory();
    triplets::run(&args(&[&dataset, &bom]), &mut out).unwrap();
    assert!(
        out.text().starts_with("36 comparisons, 19 vectors"),
        "{}",
        out.text()
    );
    let (text, status) = fails!(triplets::parse_args(&args(&["d", "v", "x"])), "usage: t");
    assert_eq!(status, 2);
    assert_eq!(
        text.unwrap(),
        "error: unexpected argument \"x\": expected two files, DATASET and VECTORS\nusage: t"
    );
    let f = triplets::run(&[], &mut Out::closed()).unwrap_err();
    assert_eq!((f.kind, f.status()), (Kind::Quiet, 0));
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
        "ONLY must be `weightedtau`, got \"all\""
    );
    assert_eq!(
        usage(&["10", "1", "1", "weightedtau", "x"]),
        "unexpected argument \"x\""
    );
    assert!(usage(&["10", "1", "0"]).starts_with("REPEATS must be at least 1"));
    let mut out = Out::memory();
    bench::run(&args(&["10", "1", "1"]), &mut out).unwrap();
    assert!(out.text().starts_with("{\"n\": 10, "), "{}", out.text());
    let f = bench::run(&args(&["10", "1", "1"]), &mut Out::closed()).unwrap_err();
    assert_eq!((f.kind, f.status()), (Kind::Quiet, 0));
}

#[test]
fn relevance_refuses_empty_judgements_and_stops_quietly_on_a_closed_pipe() {
    use relevance::cli::{Kind, Out};
    let dir = Scratch::new("relevance");
    let model = data("tests/data/relevance/model.csv");
    let header = dir.file(
        "judgements.csv",
        b"\xEF\xBB\xBFquery,document,annotator,grade\n",
    );
    let (text, status) = fails!(
        relevance::run(&args(&[&header, &model]), &mut Out::memory()),
        "u"
    );
    assert_eq!(status, 1);
    assert_eq!(
        text.unwrap(),
        format!("error: {header}: no judgements: the file has no record")
    );
    let bad = dir.file("bad.csv", b"query,document,annotator,grade\nq,d,a,x\n");
    let (text, _) = fails!(
        relevance::run(&args(&[&bad, &model]), &mut Out::memory()),
        "u"
    );
    assert_eq!(
        text.unwrap(),
        format!("error: {bad}:2: field \"grade\" is not an integer grade: \"x\"")
    );
    for format in ["text", "json", "csv"] {
        let f = relevance::run(&args(&["--format", format]), &mut Out::closed()).unwrap_err();
        assert_eq!((f.kind, f.status()), (Kind::Quiet, 0), "{format}");
    }
    let f = relevance::run(&args(&["--bogus"]), &mut Out::memory()).unwrap_err();
    assert_eq!(f.status(), 2);
}

#[cfg(feature = "simulator")]
#[test]
fn reproduce_table2_refuses_bad_arguments_with_its_usage() {
    let usage = |a: &[&str]| {
        let f = table2::arguments(&args(a)).unwrap_err();
        assert_eq!(f.status(), 2);
        f.message
    };
    assert_eq!(
        usage(&["1"]),
        "S must be at least 2 (a standard deviation needs two simulations), got 1"
    );
    assert_eq!(
        usage(&["2", "7", "x"]),
        "unexpected argument \"x\": expected at most S and SEED"
    );
    assert!(usage(&["2", "-1"]).starts_with("SEED must be an unsigned 64-bit integer, got \"-1\""));
    assert_eq!(table2::arguments(&[]).unwrap(), (50, 2020));
}

#[test]
fn no_example_prints_with_println() {
    // `println!` panics with `failed printing to stdout: Broken pipe` under
    // `… | head`; the examples write through `cli::Out` instead.
    for file in [
        "bench_weighted_tau.rs",
        "evaluate.rs",
        "lexsub.rs",
        "relevance.rs",
        "triplets.rs",
        "reproduce_table2/main.rs",
        "common/cli.rs",
        "common/columns.rs",
    ] {
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
