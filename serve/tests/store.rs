//! The store as the file workflow's commands use it: created from a state,
//! read while served and after, replaced by a command that writes, refused
//! to a second writer; corrupt and foreign files refused; the JSON event
//! log.

mod common;

use adaptive_comp_metrics::ballot::{Answer, ImportMode, Vote};
use adaptive_comp_metrics_serve::{CampaignFile, LogFormat, Options, ServeError, Server, Store};
use common::{Client, Http, TestServer, enter, socket, state, store, temp_dir};

#[test]
fn create_read_replace() {
    let dir = temp_dir("store");
    let init = state(8, 2, 0.5, 2, 0.0, 31, None);
    let json = init.to_json().unwrap();
    let s = store(&dir, &init);
    assert!(Store::is_store(&s));
    // A fresh store reads back as the state it was made from.
    assert_eq!(Store::state_json(&s).unwrap(), json);
    // It exists now: creating it again is refused.
    assert!(matches!(
        Store::create(&s, &json),
        Err(ServeError::Io { .. })
    ));
    // Serve, answer once, and read while served.
    let log = dir.join("log.jsonl");
    let server = Server::start(
        &s,
        Options {
            addr: "127.0.0.1:0".parse().unwrap(),
            log_format: LogFormat::Json,
            log_file: Some(log.clone()),
            ..Options::default()
        },
    )
    .unwrap();
    let mut c = socket::Client::new(server.local_addr());
    let csrf = enter(&mut c, "erin");
    let t = c.answer_next(&csrf, "second");
    let now = CampaignFile::from_json(&Store::state_json(&s).unwrap()).unwrap();
    let task = now.parse_task(&t).unwrap();
    assert_eq!(now.campaign.answer_of(task), Some(("erin", Vote::Second)));
    // A command that writes is refused while the store is served.
    assert!(matches!(
        Store::replace_state(&s, &now.to_json().unwrap()),
        Err(ServeError::Locked { .. })
    ));
    server.shutdown().unwrap();
    // The file workflow's import, on the store: replaced, then read back.
    let mut next = now.clone();
    let other = next
        .campaign
        .tasks()
        .find(|v| next.campaign.answer_of(v.id).is_none())
        .unwrap();
    let report = next.campaign.import(
        &[Answer {
            task: other.id,
            worker: "frank".into(),
            vote: Vote::First,
        }],
        ImportMode::AllOrNothing,
    );
    assert_eq!(report.recorded, 1);
    Store::replace_state(&s, &next.to_json().unwrap()).unwrap();
    let back = Store::state(&s).unwrap();
    assert_eq!(back.campaign.scheduler().total_votes(), 2);
    assert_eq!(
        back.campaign.answer_of(other.id),
        Some(("frank", Vote::First))
    );
    // A state of another campaign cannot replace it.
    let foreign = state(8, 2, 0.5, 2, 0.0, 32, None);
    assert!(matches!(
        Store::replace_state(&s, &foreign.to_json().unwrap()),
        Err(ServeError::Corrupt { .. })
    ));
    // Served again: the replaced state is the one served.
    let server = TestServer::start(
        &s,
        Options {
            addr: "127.0.0.1:0".parse().unwrap(),
            log_file: Some(dir.join("log2.txt")),
            ..Options::default()
        },
    )
    .unwrap();
    let mut c = Client::new(server.local_addr());
    c.extra.push((
        "Authorization".into(),
        format!("Bearer {}", server.admin_token()),
    ));
    let st = c.get("/admin/status.json").json();
    assert_eq!(st["campaign"]["votes"], 2);
    server.shutdown().unwrap();
    // The JSON log: one object per line, with the event's name.
    let text = std::fs::read_to_string(&log).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(events.iter().any(|e| e["event"] == "listening"));
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "worker_arrived" && e["worker"] == "erin")
    );
    assert!(events.iter().all(|e| e["ts"].is_string()));
}

#[test]
fn foreign_and_corrupt_files_are_refused() {
    let dir = temp_dir("foreign");
    // Not SQLite.
    let p = dir.join("notes.txt");
    std::fs::write(&p, "hello").unwrap();
    assert!(!Store::is_store(&p));
    assert!(matches!(
        Store::state_json(&p),
        Err(ServeError::NotAStore { .. })
    ));
    assert!(TestServer::start(&p, Options::default()).is_err());
    // SQLite, but not a store.
    let q = dir.join("other.db");
    let conn = rusqlite::Connection::open(&q).unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER);").unwrap();
    drop(conn);
    assert!(Store::is_store(&q));
    assert!(matches!(
        Store::state_json(&q),
        Err(ServeError::NotAStore { .. })
    ));
    // A bad state document.
    let r = dir.join("bad.db");
    assert!(matches!(
        Store::create(&r, b"{\"format\": 1}"),
        Err(ServeError::Corrupt { .. })
    ));
    assert!(!r.exists(), "no half-made store is left behind");
    // A store whose event log was tampered with: refused on reading.
    let init = state(8, 2, 0.5, 2, 0.0, 33, None);
    let s = store(&dir, &init);
    let conn = rusqlite::Connection::open(&s).unwrap();
    conn.execute_batch(
        "INSERT INTO workers (id, name, source, params, first_ms) VALUES (0, 'x', 'test', '{}', 0);
         INSERT INTO events (seq, at_ms, kind, ballot, position, worker, vote) VALUES (1, 0, 1, 1, 0, 0, 0);
         INSERT INTO events (seq, at_ms, kind, ballot, position, worker, vote) VALUES (2, 0, 1, 1, 0, 0, 1);",
    )
    .unwrap();
    drop(conn);
    let e = Store::state_json(&s).unwrap_err();
    assert!(matches!(e, ServeError::Replay { seq: 2, .. }), "{e}");
}
