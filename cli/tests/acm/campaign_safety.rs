//! The campaign state cannot be corrupted by two commands at once, by a
//! kill at any moment, by an output path that is the state, or by an
//! answers file whose last record ends inside an open quote (issue 22).

use std::fs;
use std::process::{Command, Stdio};
use std::time::Duration;

use acm_cli::commands::campaign::state::{State, StateFile as _};

use crate::common::{Scratch, campaign_init, fails, ok, says};

fn acm_path() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("acm")
}

/// The command line that imports the answers file `answers` into `state`.
fn import<'a>(state: &'a str, answers: &'a str) -> [&'a str; 6] {
    ["campaign", "import", "--state", state, "--answers", answers]
}

/// A campaign of `n` items (M = 2, two ballots), ballot 1 open, in a fresh
/// scratch directory named `test`; returns the directory and the state's
/// path.
fn campaign(test: &str, n: usize) -> (Scratch, String) {
    let dir = Scratch::new(test);
    let mut items = String::from("id,text\n");
    for i in 0..n {
        items.push_str(&format!("i{i},item {i}\n"));
    }
    let items = dir.file("items.csv", items);
    let state = dir.p("s.json");
    ok(&[
        &["campaign"][..],
        &campaign_init(&state, &items, "3", "2", "2"),
    ]
    .concat());
    (dir, state)
}

/// Answers files for the open ballot: the tasks split in `parts` disjoint
/// groups, group g answered by worker `w{g}`.
fn answers(dir: &Scratch, state: &str, parts: usize) -> Vec<(String, Vec<String>)> {
    let s = State::load(state).unwrap();
    let mut files = vec![(String::from("task_id,worker_id,choice\n"), Vec::new()); parts];
    for (k, t) in s.campaign.tasks().enumerate() {
        let label = s.task_label(t.id);
        let (text, tasks) = &mut files[k % parts];
        text.push_str(&format!("{label},w{},first\n", k % parts));
        tasks.push(label);
    }
    files
        .into_iter()
        .enumerate()
        .map(|(g, (text, tasks))| (dir.file(&format!("a{g}.csv"), text), tasks))
        .collect()
}

#[test]
fn an_output_path_that_is_the_state_file_is_refused() {
    let (dir, state) = campaign("out_state", 10);
    let before = fs::read(&state).unwrap();
    let err = fails(
        &["campaign", "export", "--state", &state, "--out", &state],
        1,
    );
    says(&err, "is the campaign's state (or its lock) file");
    // Another spelling of the same path, and the lock file.
    let other = format!("{}/./s.json", dir.0.display());
    fails(
        &["campaign", "export", "--state", &state, "--out", &other],
        1,
    );
    let lock = format!("{state}.lock");
    fails(&["campaign", "rank", "--state", &state, "--out", &state], 1);
    let _ = lock;
    assert_eq!(fs::read(&state).unwrap(), before);
    assert!(State::load(&state).is_ok());
}

#[test]
fn a_record_ending_inside_an_open_quote_is_an_error_with_its_line() {
    let (dir, state) = campaign("open_quote", 10);
    let s = State::load(&state).unwrap();
    let t0 = s.task_label(s.campaign.tasks().next().unwrap().id);
    let before = fs::read(&state).unwrap();
    // The file: the last record opens a quote and never closes it
    // (the csv crate read `AWORK…` as a new worker).
    let bad = dir.file(
        "a.csv",
        format!("task_id,worker_id,choice\n{t0},w,first\n{t0},\"AWORK,first\n"),
    );
    let err = fails(&import(&state, &bad), 1);
    assert_eq!(
        err,
        format!(
            "error: {bad}:3:{}: a quoted field opened here is not closed by the end of the file \
             (a missing closing quote?)",
            t0.len() + 2
        )
    );
    assert_eq!(fs::read(&state).unwrap(), before);
}

#[test]
fn a_second_writer_fails_at_once_while_the_lock_is_held() {
    let (dir, state) = campaign("lock", 10);
    let files = answers(&dir, &state, 1);
    let lock = fs::OpenOptions::new()
        .write(true)
        .open(format!("{state}.lock"))
        .unwrap();
    lock.try_lock().unwrap();
    let before = fs::read(&state).unwrap();
    let start = std::time::Instant::now();
    let err = fails(&import(&state, &files[0].0), 1);
    says(&err, "another command is already using this campaign");
    assert!(start.elapsed() < Duration::from_secs(5));
    for args in [
        vec![
            "campaign",
            "close",
            "--state",
            &state,
            "--unvoted",
            "withdraw",
        ],
        vec!["campaign", "exclude", "--state", &state, "--worker", "w0"],
    ] {
        let err = fails(&args, 1);
        assert!(err.contains("already using"), "{args:?}: {err}");
    }
    // Readers do not need the lock.
    ok(&["campaign", "status", "--state", &state]);
    assert_eq!(fs::read(&state).unwrap(), before);
    lock.unlock().unwrap();
    ok(&import(&state, &files[0].0));
}

#[test]
fn two_imports_at_once_lose_no_answer_and_leave_a_readable_state() {
    let (dir, state) = campaign("race", 200);
    let fresh = fs::read(&state).unwrap();
    let files = answers(&dir, &state, 2);
    let mut refused = 0;
    for round in 0..100 {
        fs::write(&state, &fresh).unwrap();
        let children: Vec<_> = files
            .iter()
            .map(|(path, _)| {
                Command::new(acm_path())
                    .args(import(&state, path))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outcomes: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let s = State::load(&state)
            .unwrap_or_else(|e| panic!("round {round}: unreadable state: {e:?}"));
        for ((_, tasks), o) in files.iter().zip(&outcomes) {
            let err = String::from_utf8_lossy(&o.stderr);
            let recorded = tasks
                .iter()
                .filter(|t| s.campaign.answer_of(s.parse_task(t).unwrap()).is_some())
                .count();
            match o.status.code() {
                Some(0) => assert_eq!(recorded, tasks.len(), "round {round}: answers lost"),
                Some(1) => {
                    assert!(
                        err.contains("already using this campaign"),
                        "round {round}: {err}"
                    );
                    assert_eq!(
                        recorded, 0,
                        "round {round}: a refused import recorded answers"
                    );
                    refused += 1;
                }
                other => panic!("round {round}: status {other:?}: {err}"),
            }
        }
    }
    eprintln!(
        "100 rounds: {refused} imports refused by the lock, the others ran one after the other"
    );
}

#[test]
fn a_kill_during_import_or_close_leaves_the_old_or_the_new_state() {
    let (dir, state) = campaign("kill", 3000);
    let old = fs::read(&state).unwrap();
    let files = answers(&dir, &state, 1);
    // The new state, from an import run to its end.
    ok(&import(&state, &files[0].0));
    let new = fs::read(&state).unwrap();
    ok(&["campaign", "close", "--state", &state]);
    let closed = fs::read(&state).unwrap();
    let mut seen = [0usize; 2];
    for round in 0..24u64 {
        let (start, end, args) = if round % 2 == 0 {
            (&old, &new, vec!["import", "--answers", &files[0].0])
        } else {
            (&new, &closed, vec!["close"])
        };
        fs::write(&state, start).unwrap();
        let mut child = Command::new(acm_path())
            .arg("campaign")
            .args(&args)
            .args(["--state", &state])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(round * 2_500));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = fs::read(&state).unwrap();
        assert!(now == *start || now == *end, "round {round}: a mixed state");
        assert!(State::load(&state).is_ok());
        seen[usize::from(now == *end)] += 1;
    }
    eprintln!(
        "24 kills: {} left the old state, {} the new one",
        seen[0], seen[1]
    );
}
