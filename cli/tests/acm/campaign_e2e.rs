//! `acm campaign` end to end (moved from the `campaign` example's tests):
//! init → (export → simulated answers → import → close) × n_b → rank, with
//! the simulator's voters (§4.1) answering the exported files, against an
//! in-memory `Scheduler` fed the same votes with the same generator. Then
//! the same campaign interrupted at every checkpoint of every write, and
//! resumed by re-running the step.

use std::fs;
use std::path::PathBuf;

use adaptive_comp_metrics::ballot::{BallotConfig, Scheduler, Task, Unvoted, Vote};
use adaptive_comp_metrics::simulate::{Choice, Crowd, Underlying, VoterModel};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use acm_cli::commands::campaign::state::{State, StateFile as _};
use acm_cli::commands::campaign::{Env, Failure, Kind, run_step};
use acm_cli::{Ctx, Out};

use crate::common::campaign_init;

const N: usize = 60;
const M: usize = 6;
const BALLOTS: usize = 3;
const SEED: u64 = 2020;
const VOTERS: usize = 7;
/// Worker 0 of the crowd answers "first" to everything in the exclusion test.
const SPAMMER: &str = "worker-0";

/// A scratch directory, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("acm-campaign-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// `acm campaign ARGS…` parsed as the binary parses it.
pub fn step_of(args: &[&str]) -> acm_cli::commands::campaign::Step {
    let argv = ["acm", "campaign"].iter().chain(args).copied();
    match <acm_cli::Cli as clap::Parser>::try_parse_from(argv) {
        Ok(acm_cli::Cli {
            command: acm_cli::Command::Campaign(a),
            ..
        }) => a.command,
        other => panic!("{args:?}: {other:?}"),
    }
}

/// `run_step`, retried while another test's child process holds the lock:
/// a child forked (before its exec) while this process held a campaign's
/// lock keeps the lock's open file description, hence the lock, for an
/// instant after this process released it. Only tests that run commands in
/// process beside tests that spawn processes see it (one command per
/// process, as `acm` runs, never does).
pub fn run_step_retrying(
    step: &acm_cli::commands::campaign::Step,
    out: &mut Out,
    crash: Option<usize>,
) -> (Result<(), Failure>, usize) {
    for _ in 0..100 {
        let mut env = Env::new(out, Ctx { quiet: true });
        env.crash_at = crash;
        let r = run_step(step, &mut env);
        let used = env.checkpoints;
        match &r {
            Err(f) if f.more.is_empty() && f.message.contains("already using this campaign") => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            _ => return (r, used),
        }
    }
    panic!("the campaign's lock stayed held");
}

/// Runs one command in process, crashing at checkpoint `crash`; returns
/// the outcome, stdout, stderr (not captured in process: empty) and the
/// checkpoints passed.
pub fn cmd(args: &[&str], crash: Option<usize>) -> (Result<(), Failure>, String, String, usize) {
    let step = step_of(args);
    let mut out = Out::memory();
    let (r, used) = run_step_retrying(&step, &mut out, crash);
    (r, out.text(), String::new(), used)
}

/// A campaign run by the test: files in `dir`, an optional crash at the
/// n-th checkpoint overall (the step is then re-run, as a person would).
struct Driver {
    dir: PathBuf,
    crash_at: Option<usize>,
    passed: usize,
    crashed: bool,
}

impl Driver {
    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }

    fn step(&mut self, args: &[&str]) -> String {
        let plan = self
            .crash_at
            .filter(|_| !self.crashed)
            .map(|at| at - self.passed);
        let (r, out, err, used) = cmd(args, plan);
        self.passed += used;
        match r {
            Ok(()) => out,
            Err(f) if f.kind == Kind::Crash => {
                self.crashed = true;
                let (r, out, err, _) = cmd(args, None);
                assert!(r.is_ok(), "{args:?} after a crash: {out} {err} {r:?}");
                out
            }
            Err(e) => panic!("{args:?}: {e:?} {out} {err}"),
        }
    }
}

fn truth() -> Vec<f64> {
    Underlying::exponential(N)
        .unwrap()
        .z()
        .iter()
        .map(|z| z.abs())
        .collect()
}

fn crowd() -> Crowd {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    VoterModel::paper()
        .draw(&Underlying::exponential(N).unwrap(), VOTERS, &mut rng)
        .unwrap()
}

fn write_inputs(d: &Driver) {
    let mut w = csv::Writer::from_path(d.path("items.csv")).unwrap();
    w.write_record(["id", "text", "note"]).unwrap();
    for i in 0..N {
        // Quotes, commas and a line break inside quotes (RFC 4180).
        w.write_record([
            format!("i{i}"),
            format!("pair {i}, \"quoted\""),
            format!("line one\nline {i}"),
        ])
        .unwrap();
    }
    w.flush().unwrap();
    let t = truth();
    let mut w = csv::Writer::from_path(d.path("controls.csv")).unwrap();
    w.write_record(["first", "second", "answer"]).unwrap();
    for (a, b) in [(0, 41), (1, 42), (40, 2), (3, 43)] {
        let answer = if t[a] > t[b] { "first" } else { "second" };
        w.write_record([format!("i{a}"), format!("i{b}"), answer.to_owned()])
            .unwrap();
    }
    w.flush().unwrap();
}

/// The votes of one exported ballot: (task id, worker, vote as exported).
fn answer_ballot(
    d: &Driver,
    ballot: usize,
    crowd: &Crowd,
    rng: &mut ChaCha8Rng,
    spam: bool,
) -> Vec<(String, String, usize, usize, Vote)> {
    let mut r = csv::Reader::from_path(d.path(&format!("b{ballot}.csv"))).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let (ct, cu, cf, cs) = (
        col("task_id"),
        col("unit"),
        col("first_id"),
        col("second_id"),
    );
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let unit: usize = rec[cu].parse().unwrap();
        let first: usize = rec[cf][1..].parse().unwrap();
        let second: usize = rec[cs][1..].parse().unwrap();
        let voter = unit % VOTERS;
        let vote = if spam && voter == 0 {
            Vote::First
        } else {
            match crowd.vote(voter, first, second, rng).unwrap() {
                Choice::First => Vote::First,
                Choice::Second => Vote::Second,
            }
        };
        out.push((
            rec[ct].to_owned(),
            format!("worker-{voter}"),
            first,
            second,
            vote,
        ));
    }
    out
}

/// Writes answers as a platform would: its own column names, the chosen
/// item's id as the answer, an extra column, rows in reverse order.
fn write_answers(d: &Driver, ballot: usize, votes: &[(String, String, usize, usize, Vote)]) {
    let mut w = csv::Writer::from_path(d.path(&format!("a{ballot}.csv"))).unwrap();
    w.write_record(["WorkerId", "HITId", "Comment", "Answer"])
        .unwrap();
    for (task, worker, first, second, vote) in votes.iter().rev() {
        let answer = match vote {
            Vote::First => format!("i{first}"),
            Vote::Second => format!("i{second}"),
            Vote::Tie => "tie".to_owned(),
        };
        w.write_record([worker.as_str(), task, "ok, \"fine\"", &answer])
            .unwrap();
    }
    w.flush().unwrap();
}

/// The result of a campaign: the ranking file and the final state file.
struct Finished {
    ranking: String,
    state: Vec<u8>,
    reference: Vec<(String, String, usize)>,
    excluded: String,
}

/// Runs the whole campaign through files, and the reference in memory.
fn campaign(name: &str, crash_at: Option<usize>, spam: bool) -> (Finished, usize) {
    let mut d = Driver {
        dir: scratch(name),
        crash_at,
        passed: 0,
        crashed: false,
    };
    write_inputs(&d);
    let state = d.path("state.json");
    let (items, controls) = (d.path("items.csv"), d.path("controls.csv"));
    let seed = SEED.to_string();
    let (m, nb) = (M.to_string(), BALLOTS.to_string());
    let mut init = campaign_init(&state, &items, &seed, &m, &nb);
    init.extend([
        "--controls",
        &controls,
        "--control-rate",
        "0.2",
        "--unit-size",
        "5",
    ]);
    d.step(&init);
    // The reference: a scheduler driven in memory with the same generator.
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut reference = Scheduler::new(BallotConfig::new(N, M, 0.5, BALLOTS).unwrap());
    let crowd = crowd();
    let mut vote_rng = ChaCha8Rng::seed_from_u64(99);
    let mut excluded = String::new();
    for k in 1..=BALLOTS {
        reference.open_ballot(&mut rng).unwrap();
        let out = d.path(&format!("b{k}.csv"));
        d.step(&["export", "--state", &state, "--out", &out]);
        let votes = answer_ballot(&d, k, &crowd, &mut vote_rng, spam);
        write_answers(&d, k, &votes);
        let answers = d.path(&format!("a{k}.csv"));
        d.step(&[
            "import",
            "--state",
            &state,
            "--answers",
            &answers,
            "--task-column",
            "HITId",
            "--worker-column",
            "WorkerId",
            "--choice-column",
            "Answer",
        ]);
        // Which rows were comparisons: asked of the saved campaign.
        let saved = State::load(&state).unwrap();
        for (task, worker, first, second, vote) in &votes {
            let id = saved.parse_task(task).unwrap();
            let view = saved.campaign.task(id).unwrap();
            if matches!(view.task, Task::Control { .. }) || (spam && worker == SPAMMER) {
                continue;
            }
            match vote {
                Vote::First => reference.record_win(*first, *second).unwrap(),
                Vote::Second => reference.record_win(*second, *first).unwrap(),
                Vote::Tie => reference.record_tie(*first, *second).unwrap(),
            };
        }
        let kk = k.to_string();
        let mut close = vec!["close", "--state", &state, "--ballot", &kk];
        if spam {
            if k == 1 {
                close.extend(["--min-accuracy", "0.7", "--min-controls", "3"]);
            }
            close.extend(["--unvoted", "withdraw"]);
            reference.close_ballot(Unvoted::Withdraw).unwrap();
        } else {
            reference.close_ballot(Unvoted::Reject).unwrap();
        }
        let said = d.step(&close);
        if said.contains("excluded") {
            excluded.push_str(&said);
        }
    }
    let ranking_path = d.path("ranking.csv");
    d.step(&["rank", "--state", &state, "--out", &ranking_path]);
    let r = reference.ranking(&mut rng).unwrap();
    let finished = Finished {
        ranking: fs::read_to_string(&ranking_path).unwrap(),
        state: fs::read(&state).unwrap(),
        reference: r
            .entries
            .iter()
            .map(|e| (format!("i{}", e.item), e.score.to_string(), e.last_ballot))
            .collect(),
        excluded,
    };
    // A planned crash did happen (and the step was re-run).
    assert_eq!(d.crashed, crash_at.is_some());
    let _ = fs::remove_dir_all(&d.dir);
    (finished, d.passed)
}

/// `rank,id,text,score,last_ballot` rows → (id, score, last ballot).
fn parse_ranking(csv_text: &str) -> Vec<(String, String, usize)> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[1].to_owned(),
                rec[3].to_owned(),
                rec[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn files_give_exactly_the_in_memory_ranking() {
    let (f, checkpoints) = campaign("e2e", None, false);
    let got = parse_ranking(&f.ranking);
    assert_eq!(got.len(), N);
    // Bit for bit: the scores are printed in Rust's shortest round-trip form.
    assert_eq!(got, f.reference);
    // init, 3 × (export, import, close), rank: 11 atomic writes, 3 checkpoints each.
    assert_eq!(checkpoints, 33);
    // The collection did focus on the top: the best-ranked items reached the last ballot.
    assert_eq!(got[0].2, BALLOTS);
}

#[test]
fn excluding_a_spammer_matches_the_reference_without_their_votes() {
    let (f, _) = campaign("spam", None, true);
    // Only the spammer: the others' accuracy on 6 or more controls is ≥ 0.7.
    assert!(
        f.excluded.starts_with("excluded worker worker-0:") && f.excluded.lines().count() == 3,
        "{}",
        f.excluded
    );
    assert_eq!(parse_ranking(&f.ranking), f.reference);
}

#[test]
fn a_crash_at_any_checkpoint_resumes_to_the_same_result() {
    let (clean, checkpoints) = campaign("clean", None, false);
    for at in 1..=checkpoints {
        let (f, _) = campaign(&format!("crash{at}"), Some(at), false);
        assert_eq!(f.ranking, clean.ranking, "crash at checkpoint {at}");
        assert_eq!(f.state, clean.state, "crash at checkpoint {at}");
    }
}
