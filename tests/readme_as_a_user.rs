//! The README's Rust examples compile in a crate that depends on this one as
//! a user's crate does: its own `Cargo.toml` with the README's
//! `[dependencies]` lines (the version replaced by a path to this checkout),
//! each example a binary of its own, built by a nested `cargo check`.
//!
//! The README is also run as doctests (`ReadmeDoctests` in `src/lib.rs`),
//! which checks what the examples print and assert; but a doctest sees every
//! dependency and dev-dependency of this crate, so an example that uses a
//! crate the user does not have, or a different version of it (`rand` 0.9
//! generators against a user's `rand` 0.10), compiles there and not for the
//! user. Here only what the README tells the user to add is there.
//!
//! The nested build uses its own target directory under `CARGO_TARGET_TMPDIR`
//! (kept between runs, so only this crate is checked again) and this
//! checkout's `Cargo.lock` with `--offline`: the outer `cargo test` has
//! already fetched every package it needs.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The fenced blocks of `markdown` whose info string is `lang`.
fn blocks<'a>(markdown: &'a str, lang: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = markdown;
    let open = format!("```{lang}\n");
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let end = body.find("\n```").expect("unterminated code block");
        out.push(&body[..=end]);
        rest = &body[end + 4..];
    }
    out
}

/// The README's `[dependencies]` block, with this crate's `version = "…"`
/// replaced by the path to this checkout.
fn dependencies(readme: &str) -> String {
    let toml = blocks(readme, "toml");
    let deps: Vec<&str> = toml
        .into_iter()
        .filter(|b| b.contains("[dependencies]"))
        .collect();
    assert_eq!(deps.len(), 1, "the README shows one [dependencies] block");
    let mut out = String::new();
    for line in deps[0].lines() {
        if line.starts_with("adaptive-comp-metrics") {
            let at = line.find("version = \"").expect("a version for this crate");
            let end = at + line[at + 11..].find('"').expect("a closed version") + 12;
            let path = ROOT.replace('\\', "/");
            out.push_str(&format!(
                "{}path = \"{path}\"{}\n",
                &line[..at],
                &line[end..]
            ));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(
        out.contains("path = "),
        "the README's [dependencies] name this crate"
    );
    out
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Unchanged files keep their time stamps, so cargo checks nothing again.
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn readme_examples_build_in_a_user_crate() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let examples = blocks(&readme, "rust");
    assert!(examples.len() >= 2, "the README has its Rust examples");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-user");
    let manifest = format!(
        "[package]\nname = \"readme-user\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         # Not a member of the repository's workspace.\n[workspace]\n\n{}",
        dependencies(&readme)
    );
    write(&dir.join("Cargo.toml"), &manifest);
    let lock = std::fs::read_to_string(Path::new(ROOT).join("Cargo.lock")).unwrap();
    write(&dir.join("Cargo.lock"), &lock);
    let bin = dir.join("src/bin");
    if bin.exists() {
        std::fs::remove_dir_all(&bin).unwrap();
    }
    for (i, code) in examples.iter().enumerate() {
        assert!(code.contains("fn main"), "README example {i} is a program");
        write(
            &bin.join(format!("readme_{i}.rs")),
            &format!("#![deny(warnings)]\n{code}"),
        );
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--offline", "--bins", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the README's examples do not build in a user's crate:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn code_blocks_are_found() {
    let md = "a\n```rust\nfn main() {}\n```\nb\n```toml\n[dependencies]\nx = 1\n```\n";
    assert_eq!(blocks(md, "rust"), ["fn main() {}\n"]);
    assert_eq!(blocks(md, "toml"), ["[dependencies]\nx = 1\n"]);
}
