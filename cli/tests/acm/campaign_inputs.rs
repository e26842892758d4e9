//! Every bad input of `acm campaign` (moved from the `campaign` example's
//! tests): reported with its file and line, the state file left byte for
//! byte as it was, no panic. Command lines the example parsed by hand are
//! now clap's: their messages are clap's, their status 2.

use std::fs;
use std::path::PathBuf;

use acm_cli::commands::campaign::state::{State, StateFile as _};
use acm_cli::commands::campaign::{Env, Failure, Kind, run_step};
use acm_cli::{Ctx, Out};

use crate::common::{campaign_init, says};

/// A scratch directory, emptied first.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("acm-inputs-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `acm campaign ARGS…` in process: the outcome (a wrong command line
/// as clap's error) and stdout.
fn go(args: &[&str]) -> (Result<(), Result<Failure, clap::Error>>, String) {
    let argv = ["acm", "campaign"].iter().chain(args).copied();
    let step = match <acm_cli::Cli as clap::Parser>::try_parse_from(argv) {
        Ok(acm_cli::Cli {
            command: acm_cli::Command::Campaign(a),
            ..
        }) => a.command,
        Ok(other) => panic!("{other:?}"),
        Err(e) => return (Err(Err(e)), String::new()),
    };
    let mut out = Out::memory();
    let (r, _) = crate::campaign_e2e::run_step_retrying(&step, &mut out, None);
    (r.map_err(Ok), out.text())
}

/// The error lines of a failed command, as `acm` prints them.
pub(crate) fn fails(args: &[&str]) -> Vec<String> {
    match go(args).0 {
        Err(Ok(f)) => {
            let usage = f.kind == Kind::Usage;
            assert_eq!(f.status(), if usage { 2 } else { 1 });
            f.render().unwrap().lines().map(str::to_owned).collect()
        }
        // A wrong command line (exit status 2).
        Err(Err(e)) => {
            assert_eq!(e.exit_code(), 2, "{e}");
            e.to_string().lines().map(str::to_owned).collect()
        }
        Ok(()) => panic!("{args:?} should fail"),
    }
}

pub(crate) fn ok(args: &[&str]) -> String {
    let (r, out) = go(args);
    assert!(r.is_ok(), "{args:?}: {r:?}\n{out}");
    out
}

/// A small campaign: 10 items, 2 control pairs, ballot 1 open.
pub(crate) struct Fixture {
    dir: PathBuf,
}

impl Fixture {
    pub(crate) fn new(name: &str) -> Self {
        let f = Self { dir: scratch(name) };
        let mut items = String::from("id,text,extra\n");
        for i in 0..10 {
            items.push_str(&format!("i{i},\"item {i}, with comma\",x{i}\n"));
        }
        f.write("items.csv", &items);
        f.write(
            "controls.csv",
            "first,second,answer\ni0,i9,first\ni8,i1,i1\n",
        );
        let args = f.init_args();
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        f
    }

    /// The fixture's `init` command line (seed 5, M = 2, two ballots, the
    /// two control pairs at rate 0.2).
    fn init_args(&self) -> Vec<String> {
        let (state, items, controls) = (
            self.p("s.json"),
            self.p("items.csv"),
            self.p("controls.csv"),
        );
        let mut args = campaign_init(&state, &items, "5", "2", "2");
        args.extend(["--controls", &controls, "--control-rate", "0.2"]);
        args.into_iter().map(str::to_owned).collect()
    }

    pub(crate) fn p(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }

    fn write(&self, name: &str, text: &str) {
        fs::write(self.dir.join(name), text).unwrap();
    }

    pub(crate) fn state(&self) -> Vec<u8> {
        fs::read(self.dir.join("s.json")).unwrap()
    }

    pub(crate) fn loaded(&self) -> State {
        State::load(&self.p("s.json")).unwrap()
    }

    /// The exported tasks: (task id, first id, second id).
    fn tasks(&self) -> Vec<(String, String, String)> {
        ok(&[
            "export",
            "--state",
            &self.p("s.json"),
            "--out",
            &self.p("t.csv"),
        ]);
        let mut r = csv::Reader::from_path(self.dir.join("t.csv")).unwrap();
        r.records()
            .map(|rec| {
                let rec = rec.unwrap();
                (rec[0].to_owned(), rec[1].to_owned(), rec[3].to_owned())
            })
            .collect()
    }

    /// An answers file where every task is answered "first" by `worker`.
    fn all_first(&self, worker: &str) -> String {
        let mut s = String::from("task_id,worker_id,choice\n");
        for (t, _, _) in self.tasks() {
            s.push_str(&format!("{t},{worker},first\n"));
        }
        s
    }

    /// Imports `text` as an answers file, expecting failure with the state unchanged.
    fn import_fails(&self, text: &str) -> Vec<String> {
        self.write("a.csv", text);
        let before = self.state();
        let e = fails(&[
            "import",
            "--state",
            &self.p("s.json"),
            "--answers",
            &self.p("a.csv"),
        ]);
        assert_eq!(self.state(), before, "the state changed");
        e
    }

    pub(crate) fn import(&self, text: &str) -> String {
        self.write("a.csv", text);
        ok(&[
            "import",
            "--state",
            &self.p("s.json"),
            "--answers",
            &self.p("a.csv"),
        ])
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

pub(crate) fn contains(errors: &[String], needle: &str) {
    assert!(
        errors.iter().any(|e| e.contains(needle)),
        "no error contains {needle:?}: {errors:#?}"
    );
}

#[test]
fn bad_items_files() {
    let d = scratch("items");
    let p = |n: &str| d.join(n).to_string_lossy().into_owned();
    let init = |items: &str| fails(&campaign_init(&p("s.json"), &p(items), "1", "2", "2"));
    let cases: &[(&str, &str, &str)] = &[
        (
            "noid.csv",
            "name,text\na,b\nc,d\n",
            "noid.csv:1: no column \"id\"",
        ),
        (
            "emptyid.csv",
            "id,text\na,x\n,y\nc,z\n",
            "emptyid.csv:3: empty id",
        ),
        (
            "dup.csv",
            "id,text\na,x\nb,y\na,z\n",
            "dup.csv:4: id \"a\" already on line 2",
        ),
        (
            "fields.csv",
            "id,text\na,x\nb,y,extra\nc,z\n",
            "fields.csv:3: 3 field(s), the header has 2",
        ),
        ("one.csv", "id,text\na,x\n", "too few items"),
        (
            "dupcol.csv",
            "id,text,id\na,x,y\n",
            "dupcol.csv:1: column \"id\" appears twice",
        ),
        // A quoted field spanning two lines moves the next record to line 5.
        (
            "quoted.csv",
            "id,text\na,\"x\ny\"\nb,\"q\"\"q\"\n,z\n",
            "quoted.csv:5: empty id",
        ),
    ];
    for (name, text, expected) in cases {
        fs::write(d.join(name), text).unwrap();
        contains(&init(name), expected);
        assert!(!d.join("s.json").exists());
    }
    fs::write(d.join("utf8.bin"), b"id,text\na,x\nb,\xff\xfe\n").unwrap();
    contains(&init("utf8.bin"), "utf8.bin:3: not valid UTF-8");
    contains(&init("missing.csv"), "missing.csv: cannot read");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn bad_init_arguments() {
    let f = Fixture::new("initargs");
    let items = f.p("items.csv");
    let state2 = f.p("s2.json");
    let base = ["init", "--state", &state2, "--items", &items, "--seed", "1"];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        if !extra.contains(&"--ballots") {
            a.extend(["--ballots", "2"]);
        }
        fails(&a)
    };
    for (name, text) in [
        ("c1.csv", "first,second,answer\ni0,nope,first\n"),
        ("c2.csv", "first,second,answer\ni0,i0,first\n"),
        ("c3.csv", "first,second,answer\ni0,i1,maybe\n"),
        ("c4.csv", "first,second,answer\n"),
    ] {
        f.write(name, text);
    }
    let (c1, c2, c3, c4) = (f.p("c1.csv"), f.p("c2.csv"), f.p("c3.csv"), f.p("c4.csv"));
    let controls = f.p("controls.csv");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--m", "2", "--budget", "100"],
            "the argument '--m <M>' cannot be used with '--budget <COMPARISONS>'",
        ),
        (
            &["--alpha", "1.5", "--m", "2"],
            "expected a number in (0, 1), got 1.5",
        ),
        (
            &["--alpha", "abc"],
            "invalid value 'abc' for '--alpha <ALPHA>'",
        ),
        (
            &["--m", "2", "--bogus", "1"],
            "unexpected argument '--bogus'",
        ),
        (&["--m", "2", "--m", "3"], "cannot be used multiple times"),
        (
            &["--m", "2", "--options", "weird"],
            "[possible values: paper, published]",
        ),
        (&["--budget", "3"], "invalid parameter budget"),
        (
            &["--m", "2", "--control-rate", "1"],
            "expected a share in [0, 1), got 1",
        ),
        (
            &["--m", "2", "--control-rate", "0.2"],
            "invalid parameter controls",
        ),
        (&["--m", "2", "--price", "-1"], "--price"),
        (&["--m", "2", "--ballots", "9"], "would hold"),
        (
            &["--m", "2", "--controls", &c1],
            "c1.csv:2: unknown item id \"nope\"",
        ),
        (
            &["--m", "2", "--controls", &c2],
            "c2.csv:2: a control pair compares an item with itself",
        ),
        (
            &["--m", "2", "--controls", &c3],
            "c3.csv:2: choice \"maybe\"",
        ),
        (&["--m", "2", "--controls", &c4], "c4.csv: no control pair"),
        (
            &[
                "--m",
                "2",
                "--unit-size",
                "10",
                "--control-rate",
                "0.01",
                "--controls",
                &controls,
            ],
            "control_rate",
        ),
    ];
    for (extra, needle) in cases {
        contains(&with(extra), needle);
    }
    assert!(!f.dir.join("s2.json").exists());
    // An existing state under way is never overwritten.
    let before = f.state();
    contains(
        &fails(&campaign_init(&f.p("s.json"), &items, "2", "2", "2")),
        "exists and holds another campaign",
    );
    assert_eq!(f.state(), before);
    // Usage errors.
    contains(&fails(&[]), "Usage: acm campaign [OPTIONS] <COMMAND>");
    contains(
        &fails(&["frobnicate"]),
        "unrecognized subcommand 'frobnicate'",
    );
    contains(
        &fails(&["export", "--state"]),
        "a value is required for '--state <STATE>'",
    );
    contains(&fails(&["export", "stray"]), "unexpected argument 'stray'");
}

#[test]
fn init_is_idempotent_and_dry_run_writes_nothing() {
    let f = Fixture::new("idem");
    let args = f.init_args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let before = f.state();
    assert!(ok(&args).contains("already holds this campaign"));
    assert_eq!(f.state(), before);
    let out = ok(&[
        "init",
        "--state",
        &f.p("dry.json"),
        "--items",
        &f.p("items.csv"),
        "--seed",
        "5",
        "--budget",
        "100",
        "--ballots",
        "2",
        "--price",
        "0.5",
        "--dry-run",
    ]);
    // N = 10, α = 0.5, n_b = 2: sizes 10, 5; the largest M with 5M + ⌈5M/2⌉ ≤ 100 is M = 13
    // (65 + 33 = 98; M = 14 gives 70 + 35 = 105).
    says(&out, "M = 13");
    says(&out, "total: 98 comparisons");
    says(&out, "cost at 0.5 per task: 49.00");
    assert!(!f.dir.join("dry.json").exists());
}

#[test]
fn bad_answers_are_reported_with_their_line_and_change_nothing() {
    let f = Fixture::new("answers");
    let tasks = f.tasks();
    let (t0, a0, _) = &tasks[0];
    let (t1, _, b1) = &tasks[1];
    let other_tag = format!("00000000-{}", t0.split_once('-').unwrap().1);
    let cases: Vec<(String, String)> = vec![
        (
            format!("task_id,worker_id,choice\n{t0},w,first\n{t1},w\n"),
            "a.csv:3: 2 field(s), the header has 3".into(),
        ),
        (
            format!("task,worker_id,choice\n{t0},w,first\n"),
            "a.csv:1: no column \"task_id\"".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{t0},w,first\nnonsense,w,first\n"),
            "a.csv:3: malformed task id \"nonsense\"".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{other_tag},w,first\n"),
            "a.csv:2: task id".into(),
        ),
        (
            format!(
                "task_id,worker_id,choice\n{}-b1-99999,w,first\n",
                t0.split_once('-').unwrap().0
            ),
            "a.csv:2: unknown task".into(),
        ),
        (
            format!(
                "task_id,worker_id,choice\n{}-b2-0,w,first\n",
                t0.split_once('-').unwrap().0
            ),
            "a.csv:2: unknown task".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{t0},w,maybe\n"),
            "a.csv:2: choice \"maybe\" is none of".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{t0}, ,first\n"),
            "a.csv:2: empty worker id".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{t0},w,first\n{t1},w,{b1}\n{t0},v,second\n"),
            "a.csv:4: task".into(),
        ),
        (
            format!("task_id,worker_id,choice\n{t0},w,first\n{t0},w,first\n"),
            "appears twice (first on line 2)".into(),
        ),
        (
            "task_id,worker_id,choice\n\"unterminated,w,first\n".into(),
            "a.csv".into(),
        ),
    ];
    // CRLF line ends, blank lines and a quoted line break: lines still right.
    let crlf = format!(
        "task_id,worker_id,choice\r\n\r\n{t0},\"w\r\nx\",first\r\n\r\n\r\n{t1},w,maybe\r\n"
    );
    contains(&f.import_fails(&crlf), "a.csv:7: choice \"maybe\"");
    let lf = format!("task_id,worker_id,choice\n\n\n{t0},w,first\n\n{t1},w,maybe\n");
    contains(&f.import_fails(&lf), "a.csv:6: choice \"maybe\"");
    for (text, expected) in &cases {
        let e = f.import_fails(text);
        contains(&e, expected);
        // Row-level problems are all listed, then the verdict.
        if !expected.contains(":1:") && !text.contains("unterminated") {
            contains(&e, "nothing imported");
        }
    }
    // A recorded answer, then another worker's answer to the same task.
    f.import(&format!("task_id,worker_id,choice\n{t0},alice,{a0}\n"));
    let e = f.import_fails(&format!("task_id,worker_id,choice\n{t0},bob,first\n"));
    contains(&e, "a.csv:2: task");
    contains(&e, "already has another answer (from worker \"alice\")");
    // Re-importing is harmless and does not even rewrite the state.
    let before = f.state();
    let out = f.import(&format!("task_id,worker_id,choice\n{t0},alice,first\n"));
    says(&out, "0 answer(s) recorded, 1 already recorded");
    assert_eq!(f.state(), before);
    // --skip-refused records the good rows and warns about the others.
    f.write(
        "a.csv",
        &format!("task_id,worker_id,choice\n{t1},bob,first\n{t0},bob,second\n"),
    );
    let (code, out, err) = crate::common::run(&[
        "campaign",
        "import",
        "--state",
        &f.p("s.json"),
        "--answers",
        &f.p("a.csv"),
        "--skip-refused",
    ]);
    assert_eq!(code, 0, "{err}");
    says(&out, "1 answer(s) recorded");
    assert!(
        err.contains("warning:") && err.contains("a.csv:3:"),
        "{err}"
    );
    assert_eq!(
        f.loaded()
            .campaign
            .answer_of(f.loaded().parse_task(t1).unwrap())
            .unwrap()
            .0,
        "bob"
    );
}

#[test]
fn answers_to_a_closed_ballot_and_closing_rules() {
    let f = Fixture::new("closed");
    let state = f.p("s.json");
    // Closing with missing votes is refused under the default policy.
    contains(&fails(&["close", "--state", &state]), "without a vote");
    contains(
        &fails(&["close", "--state", &state, "--unvoted", "maybe"]),
        "[possible values: reject, withdraw]",
    );
    contains(
        &fails(&["close", "--state", &state, "--ballot", "2"]),
        "ballot 2 is not open",
    );
    contains(
        &fails(&["close", "--state", &state, "--min-controls", "3"]),
        "the following required arguments were not provided",
    );
    contains(
        &fails(&[
            "close",
            "--state",
            &state,
            "--min-accuracy",
            "2",
            "--unvoted",
            "withdraw",
        ]),
        "expected a number in [0, 1], got 2",
    );
    contains(
        &fails(&["rank", "--state", &state]),
        "no ballot has been closed yet",
    );
    let answers = f.all_first("alice");
    f.import(&answers);
    ok(&["close", "--state", &state, "--ballot", "1"]);
    // Ballot 1's answers again: harmless; a changed one: refused as closed.
    let out = f.import(&answers);
    says(&out, "0 answer(s) recorded");
    let changed = answers.replacen(",first\n", ",second\n", 1);
    contains(&f.import_fails(&changed), "which is closed");
    // Closing ballot 1 again does nothing.
    let before = f.state();
    assert!(ok(&["close", "--state", &state, "--ballot", "1"]).contains("already closed"));
    assert_eq!(f.state(), before);
    f.import(&f.all_first("alice"));
    ok(&["close", "--state", &state, "--ballot", "2"]);
    contains(
        &fails(&["export", "--state", &state, "--out", &f.p("t.csv")]),
        "no ballot is open",
    );
    contains(&fails(&["close", "--state", &state]), "no ballot is open");
    ok(&["rank", "--state", &state, "--out", &f.p("r.csv")]);
}

#[test]
fn bad_model_files() {
    let f = Fixture::new("model");
    let state = f.p("s.json");
    f.import(&f.all_first("alice"));
    ok(&["close", "--state", &state]);
    let (ranking, model) = (f.p("r.csv"), f.p("m.csv"));
    let args = [
        "rank", "--state", &state, "--out", &ranking, "--model", &model,
    ];
    let rank = |text: &str| {
        f.write("m.csv", text);
        fails(&args)
    };
    let mut good = String::from("id,score\n");
    for i in 0..10 {
        good.push_str(&format!("i{i},{}\n", 10 - i));
    }
    contains(
        &rank("id,score\ni0,1\n"),
        "m.csv: no score for item \"i1\" (9 item(s) unscored)",
    );
    contains(
        &rank(&format!("{good}i3,4\n")),
        "m.csv:12: item \"i3\" already scored on line 5",
    );
    contains(
        &rank(&format!("{good}zz,4\n")),
        "m.csv:12: unknown item id \"zz\"",
    );
    contains(
        &rank(&good.replace("i4,6", "i4,NaN")),
        "m.csv:6: score \"NaN\" is not a finite number",
    );
    contains(&rank("ident,score\n"), "m.csv:1: no column \"id\"");
    assert!(!f.dir.join("r.csv").exists());
    f.write("m.csv", &good);
    let out = ok(&args);
    assert!(out.contains("rho_w") && out.contains("tau_b"), "{out}");
    says(&out, "note: ballot 2 is still open");
}

#[test]
fn corrupt_state_files_are_refused() {
    let f = Fixture::new("corrupt");
    let state = f.p("s.json");
    let good = fs::read_to_string(&state).unwrap();
    let cases: Vec<(String, &str)> = vec![
        (
            good[..good.len() / 2].to_owned(),
            "not a valid campaign state",
        ),
        ("{}\n".to_owned(), "not a valid campaign state"),
        ("{\n\"format\": 1}".to_owned(), "s.json:2:"),
        (
            good.replace("\"version\":1,\"tag\"", "\"version\":9,\"tag\""),
            "not a campaign state of this version",
        ),
        (
            good.replace("\"answers\":\"....", "\"answers\":\"X..."),
            "an answer is not one of",
        ),
        (
            good.replacen("\"closed\":false", "\"closed\":true", 1),
            "closed ballot has an item without votes",
        ),
    ];
    for (text, expected) in cases {
        fs::write(&state, &text).unwrap();
        let e = fails(&["status", "--state", &state]);
        contains(&e, expected);
        assert_eq!(fs::read_to_string(&state).unwrap(), text);
    }
    contains(
        &fails(&["status", "--state", &f.p("absent.json")]),
        "absent.json: cannot read",
    );
}

/// Answers for every task of the open ballot: `who(k, is_control)` picks the
/// worker of the k-th task (or `None`: unanswered); "spam" answers controls
/// wrongly, everybody else rightly (comparisons: the smaller item wins).
pub(crate) fn answers_by(s: &State, who: impl Fn(usize, bool) -> Option<&'static str>) -> String {
    use adaptive_comp_metrics::ballot::{Task, Vote};
    let mut text = String::from("task_id,worker_id,choice\n");
    for (k, t) in s.campaign.tasks().enumerate() {
        let right = match t.task {
            Task::Control { pair, swapped } => {
                let p = s.campaign.controls()[pair];
                if swapped {
                    p.answer_when_swapped()
                } else {
                    p.answer
                }
            }
            Task::Comparison { .. } => {
                if t.first < t.second {
                    Vote::First
                } else {
                    Vote::Second
                }
            }
        };
        let Some(worker) = who(k, matches!(t.task, Task::Control { .. })) else {
            continue;
        };
        let vote = if worker == "spam" {
            if right == Vote::First {
                "second"
            } else {
                "first"
            }
        } else if right == Vote::First {
            "first"
        } else {
            "second"
        };
        text.push_str(&format!("{},{worker},{vote}\n", s.task_label(t.id)));
    }
    text
}

#[test]
fn status_reports_workers_and_exclusions() {
    let f = Fixture::new("status");
    let state = f.p("s.json");
    // spam answers every control (wrongly), alice every comparison.
    f.import(&answers_by(&f.loaded(), |_, control| {
        Some(if control { "spam" } else { "alice" })
    }));
    let out = ok(&["status", "--state", &state]);
    let alice = out.lines().find(|l| l.starts_with("alice\t")).unwrap();
    let spam = out.lines().find(|l| l.starts_with("spam\t")).unwrap();
    // alice: 10 votes, no control; spam: 3 controls, none right.
    assert!(alice.starts_with("alice\t10\t0\t0\t-\t"), "{alice}");
    assert!(spam.starts_with("spam\t0\t3\t0\t0.000\t-\t0\t-"), "{spam}");
    let out = ok(&[
        "close",
        "--state",
        &state,
        "--min-accuracy",
        "0.5",
        "--min-controls",
        "1",
    ]);
    says(
        &out,
        "excluded worker spam: accuracy 0.000 on 3 control answer(s), 3 answer(s) of ballot 1 discarded",
    );
    let s = f.loaded();
    assert_eq!(s.campaign.exclusions().len(), 1);
    assert_eq!(s.campaign.discarded(1).count(), 3);
    let status = ok(&["status", "--state", &state]);
    assert!(
        status
            .lines()
            .any(|l| l.starts_with("spam\t0\t3\t0\t0.000\t-\t3\t1")),
        "{status}"
    );
    // spam's answers to the next ballot are ignored.
    let out = f.import(&answers_by(&s, |k, _| (k < 3).then_some("spam")));
    says(
        &out,
        "0 answer(s) recorded, 0 already recorded, 3 from excluded workers ignored",
    );
}

#[test]
fn exclude_then_export_the_missing_tasks() {
    let f = Fixture::new("missing");
    let state = f.p("s.json");
    // spam answers every third task, alice the rest.
    f.import(&answers_by(&f.loaded(), |k, _| {
        Some(if k % 3 == 0 { "spam" } else { "alice" })
    }));
    contains(
        &fails(&["exclude", "--state", &state]),
        "the following required arguments were not provided",
    );
    contains(
        &fails(&["exclude", "--state", &state, "--worker", "nobody"]),
        "no worker \"nobody\" has answered",
    );
    let out = ok(&["exclude", "--state", &state, "--worker", "spam"]);
    says(&out, "excluded worker spam");
    assert!(ok(&["exclude", "--state", &state, "--worker", "spam"]).contains("nobody to exclude"));
    let out = ok(&[
        "export",
        "--state",
        &state,
        "--out",
        &f.p("m.csv"),
        "--missing",
    ]);
    let s = f.loaded();
    let n_tasks = s.campaign.layout(1).unwrap().len();
    let spam_tasks = n_tasks.div_ceil(3);
    assert!(
        out.contains(&format!(
            "ballot 1: {spam_tasks} unanswered tasks of {n_tasks}"
        )),
        "{out}"
    );
    // alice answers the missing tasks; the ballot then closes with every vote.
    f.import(&answers_by(&s, |k, _| (k % 3 == 0).then_some("alice")));
    ok(&["close", "--state", &state, "--ballot", "1"]);
    let s = f.loaded();
    let h = &s.campaign.scheduler().history()[0];
    assert_eq!((h.votes, h.withdrawn), (10, 0));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let f = Fixture::new("pipe");
    for args in [
        vec!["status", "--state", &f.p("s.json")],
        vec!["export", "--state", &f.p("s.json"), "--out", "-"],
    ] {
        let step = crate::campaign_e2e::step_of(&args);
        let mut out = Out::closed();
        let r = run_step(&step, &mut Env::new(&mut out, Ctx { quiet: true }));
        assert!(matches!(&r, Err(f) if f.kind == Kind::Quiet), "{r:?}");
    }
}

#[test]
fn malformed_command_lines_are_usage_errors() {
    for args in [
        &["campaign"][..],
        &["campaign", "bogus"][..],
        &["campaign", "status", "--state"][..],
        &["campaign", "status", "--state", "s.json", "--nope"][..],
        &["campaign", "status", "--state", "s.json", "extra"][..],
        &[
            "campaign",
            "close",
            "--state",
            "s.json",
            "--min-accuracy",
            "2",
        ][..],
        &[
            "campaign", "init", "--state", "x", "--items", "y", "--seed", "1", "--alpha", "2",
        ][..],
    ] {
        let err = crate::common::fails(args, 2);
        assert!(
            err.starts_with("error: ") || err.contains("Usage:"),
            "{args:?}: {err}"
        );
    }
}

/// Issue 39: a 10 MB header line without the column asked for was printed
/// whole in the error (10 000 078 bytes on stderr), for `init --items` and
/// `import --answers`; the echoed header is cut short, the column still
/// named.
#[test]
fn a_huge_header_is_not_echoed_whole() {
    let f = Fixture::new("hugeheader");
    let header = format!("{},{}\n", "h".repeat(5_000_000), "k".repeat(5_000_000));
    f.write("huge.csv", &format!("{header}a,b\n"));
    let mut init = f.init_args();
    init[2] = f.p("s2.json");
    init[4] = f.p("huge.csv");
    let lines = fails(&init.iter().map(String::as_str).collect::<Vec<_>>());
    let text = lines.join("\n");
    assert!(text.len() < 1000, "{} bytes: {}", text.len(), &text[..200]);
    says(&text, "huge.csv:1: no column \"id\" in the header");
    let state = f.p("s.json");
    let answers = f.p("huge.csv");
    let lines = fails(&["import", "--state", &state, "--answers", &answers]);
    let text = lines.join("\n");
    assert!(text.len() < 1000, "{} bytes: {}", text.len(), &text[..200]);
    says(&text, "huge.csv:1: no column");
}
