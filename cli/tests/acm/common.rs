//! Helpers shared by the CLI tests: the `acm` binary, scratch directories,
//! the repository's test data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub use assert_cmd::Command;

/// The `acm` binary built by cargo for these tests.
pub fn acm() -> Command {
    let mut c = Command::cargo_bin("acm").expect("the acm binary");
    c.env_remove("COLUMNS");
    c
}

/// A file of the repository (the workspace root).
pub fn data(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
        .to_str()
        .expect("utf-8 path")
        .to_owned()
}

/// A directory of input files for one test, removed afterwards.
#[derive(Debug)]
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty directory named after the test.
    pub fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("acm-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// A fresh, empty directory named after the running test (the test
    /// harness names each test's thread after it).
    pub fn here() -> Self {
        let test = std::thread::current().name().map(|n| n.replace("::", "-"));
        Self::new(test.as_deref().unwrap_or("main"))
    }

    /// A directory named after the running test holding `files` (name,
    /// contents); returns it and the files' paths, in order.
    pub fn with<const N: usize>(files: [(&str, &str); N]) -> (Self, [String; N]) {
        let dir = Self::here();
        let paths = files.map(|(name, text)| dir.file(name, text));
        (dir, paths)
    }

    /// Writes `bytes` to the file `name` and returns its path as a string.
    pub fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        self.p(name)
    }

    /// The path of `name` in the directory, as a string.
    pub fn p(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `acm args…`; returns (status, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let o = acm().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `acm args…` expecting exit status `status`; returns stderr without
/// its final line break.
pub fn fails(args: &[&str], status: i32) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, status, "{args:?}\nstdout: {out}\nstderr: {err}");
    err.trim_end().to_owned()
}

/// Stands for the file under test in the arguments of [`refuses`].
pub const FILE: &str = "{file}";

/// Writes each bad file of `cases` (its name, its bytes and what the error
/// says after its path) to `dir` and runs `acm args…`, the file's path in
/// place of [`FILE`]: exit status 1 and exactly `error: PATH…`.
#[track_caller]
pub fn refuses(dir: &Scratch, args: &[&str], cases: &[(&str, &[u8], &str)]) {
    for &(name, bytes, what) in cases {
        let path = dir.file(name, bytes);
        let args: Vec<&str> = args
            .iter()
            .map(|&a| if a == FILE { path.as_str() } else { a })
            .collect();
        assert_eq!(fails(&args, 1), format!("error: {path}{what}"), "{name}");
    }
}

/// Runs `acm args…` expecting success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}\nstdout: {out}\nstderr: {err}");
    out
}

/// Asserts that `text` (a command's output or error) contains `needle`,
/// showing the whole text when it does not.
#[track_caller]
pub fn says(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in:\n{text}");
}

/// The columns of a ranking's CSV (`acm pairwise fit`, `acm campaign
/// rank`) after its item columns: the score, its interval and rank range.
pub const RANKING_COLUMNS: [&str; 7] = [
    "score",
    "se",
    "low",
    "high",
    "rank_low",
    "rank_high",
    "p_top_k",
];

/// The header of a ranking's CSV whose item is named by `item` (`item`
/// or `id`, `text`).
pub fn ranking_header<'a>(item: &[&'a str]) -> Vec<&'a str> {
    [&["rank"][..], item, &RANKING_COLUMNS].concat()
}

/// Asserts that the rows of a ranking's CSV (header dropped) are the
/// library's `fit` and `u`, every column bit for bit (both print an `f64`
/// in full): the rank, the item's columns (`item(i)`), then
/// [`RANKING_COLUMNS`].
#[track_caller]
pub fn same_ranking(
    rows: &[Vec<String>],
    fit: &adaptive_comp_metrics::pairwise::Fit,
    u: &adaptive_comp_metrics::pairwise::Uncertainty,
    item: impl Fn(usize) -> Vec<String>,
) {
    assert_eq!(rows.len(), fit.scores.len());
    for (k, i) in fit.order().into_iter().enumerate() {
        let [lo, hi] = u.intervals[i];
        let [rlo, rhi] = u.rank_intervals[i];
        let mut want = vec![(k + 1).to_string()];
        want.extend(item(i));
        want.extend([fit.scores[i], u.standard_errors[i], lo, hi].map(|x| x.to_string()));
        want.extend([rlo, rhi].map(|r| r.to_string()));
        want.push(u.top_k_probability[i].to_string());
        assert_eq!(rows[k], want, "rank {}", k + 1);
    }
}

/// The arguments of `acm campaign init` (after `campaign`) for the items
/// file `items`, the state file `state`, the seed and the ballot shape
/// (M items a ballot, `ballots` ballots an item); callers add options.
pub fn campaign_init<'a>(
    state: &'a str,
    items: &'a str,
    seed: &'a str,
    m: &'a str,
    ballots: &'a str,
) -> Vec<&'a str> {
    vec![
        "init",
        "--state",
        state,
        "--items",
        items,
        "--seed",
        seed,
        "--m",
        m,
        "--ballots",
        ballots,
    ]
}
