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

/// Runs `acm args…` expecting success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}\nstdout: {out}\nstderr: {err}");
    out
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
