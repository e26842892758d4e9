//! `acm campaign serve`: a JSON state made into a store and served; status,
//! export and rank read the store while it is served and after; a command
//! that writes is refused while it is served; a SIGKILLed server resumes.
//! All on 127.0.0.1, bounded in time. A test binary of its own: its
//! child processes must not run beside the in-process tests of `acm`, whose
//! campaign locks a forked child would briefly hold (a child inherits the
//! locked file until it execs).
#![cfg(feature = "serve")]

#[path = "acm/common.rs"]
mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{Scratch, acm, fails, ok, says};

/// The server: `acm campaign serve …` on a free port; its address, read
/// from the JSON event log.
fn start(args: &[&str]) -> (Child, SocketAddr) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("acm"))
        .args([
            "campaign",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--format",
            "json",
        ])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let t0 = Instant::now();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60).saturating_sub(t0.elapsed())) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line)
            && v["event"] == "listening"
        {
            let addr = v["address"].as_str().unwrap().parse().unwrap();
            return (child, addr);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not start");
}

/// One request on a fresh connection: (status, headers, body).
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Accept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_owned(), body.to_owned())
}

fn field(html: &str, name: &str) -> String {
    let key = format!("name=\"{name}\" value=\"");
    let at = html.find(&key).unwrap() + key.len();
    html[at..at + html[at..].find('"').unwrap()].to_owned()
}

#[test]
fn serve_a_campaign_and_read_it_with_the_other_commands() {
    let (d, [items]) = Scratch::with([(
        "items.csv",
        "id,text\na,car – automobile\nb,coast – shore\nc,noon – string\nd,rooster – voyage\n",
    )]);
    let state = d.p("s.json");
    ok(&[
        "campaign",
        "init",
        "--state",
        &state,
        "--items",
        &items,
        "--seed",
        "3",
        "--m",
        "2",
        "--ballots",
        "1",
        "--question",
        "Which pair is more related?",
        "--tie-label",
        "Same",
        "--completion-code",
        "CODE42",
    ]);
    let (mut server, addr) = start(&["--state", &state]);
    let store = d.p("s.db");
    assert!(std::path::Path::new(&store).exists());
    // Read while served: status and export.
    let out = ok(&["campaign", "status", "--state", &store]);
    says(&out, "ballot 1 is open");
    ok(&[
        "campaign",
        "export",
        "--state",
        &store,
        "--out",
        &d.p("tasks.csv"),
    ]);
    let tasks = std::fs::read_to_string(d.p("tasks.csv")).unwrap();
    assert_eq!(tasks.lines().count(), 5, "{tasks}");
    // A command that writes is refused while served.
    let answers = d.file("answers.csv", "task_id,worker_id,choice\n");
    let err = fails(
        &[
            "campaign",
            "import",
            "--state",
            &store,
            "--answers",
            &answers,
        ],
        1,
    );
    assert!(
        err.contains("lock") || err.contains("in use") || err.contains("another"),
        "{err}"
    );
    // A second server on the same store is refused.
    let o = acm()
        .args([
            "campaign",
            "serve",
            "--state",
            &store,
            "--addr",
            "127.0.0.1:0",
        ])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // An annotator answers every comparison (4): the campaign ends.
    let (s, head, body) = http(addr, "GET", "/?PROLIFIC_PID=ann", "", "");
    assert_eq!(s, 200);
    assert!(body.contains("Which pair is more related?"));
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let csrf = field(&body, "csrf");
    assert_eq!(
        http(addr, "POST", "/start", &cookie, &format!("csrf={csrf}")).0,
        303
    );
    for _ in 0..4 {
        let (_, _, j) = http(addr, "GET", "/task", &cookie, "");
        let j: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j["state"], "task", "{j}");
        assert_eq!(j["tie"], "Same");
        let task = j["task"].as_str().unwrap();
        let (s, _, _) = http(
            addr,
            "POST",
            "/answer",
            &cookie,
            &format!("csrf={csrf}&task={task}&choice=first"),
        );
        assert_eq!(s, 200);
    }
    let t0 = Instant::now();
    loop {
        let (_, _, j) = http(addr, "GET", "/task", &cookie, "");
        let j: serde_json::Value = serde_json::from_str(&j).unwrap();
        if j["state"] == "done" {
            assert_eq!(j["code"], "CODE42");
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "{j}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Killed, restarted on the store: it resumes (everything closed).
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, _) = start(&["--state", &store]);
    let out = ok(&["campaign", "status", "--state", &store]);
    says(&out, "all ballots are closed");
    let ranking = ok(&["campaign", "rank", "--state", &store]);
    assert_eq!(ranking.lines().count(), 5, "{ranking}");
    server.kill().unwrap();
    server.wait().unwrap();
    // The JSON state is left as it was: ballot 1 open, no vote.
    let out = ok(&["campaign", "status", "--state", &state]);
    says(&out, "ballot 1 is open");
    // --store names a store for a JSON state only.
    let err = fails(
        &[
            "campaign",
            "serve",
            "--state",
            &store,
            "--store",
            &d.p("x.db"),
        ],
        2,
    );
    says(&err, "is a store already");
}
