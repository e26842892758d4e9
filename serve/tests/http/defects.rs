//! The defects of issue 37, each with the test that failed before its fix.

use super::*;

// Issue 37, defect 1 (and 7: lookalike ids): `%FF` and `%FE` both read as
// U+FFFD when decoded leniently, which made two people one worker.
#[test]
fn participant_ids_that_are_not_utf8_or_look_alike_are_refused() {
    let Served { server, s, log, .. } = serve("ids", state(8, 2, 0.5, 2, 0.0, 40, None));
    let addr = server.local_addr();
    for (id, says) in [
        ("%FFid", "not valid text"),
        ("%FEid", "not valid text"),
        ("%E2%80%8Bid", "invisible characters"),
        ("id%E2%80%AE", "invisible characters"),
        ("%D1%96d", "characters a participant id cannot have"),
        ("i+d", "characters a participant id cannot have"),
    ] {
        let r = Client::new(addr).get(&format!("/?PROLIFIC_PID={id}"));
        assert_eq!(r.status, 400, "{id}");
        assert!(r.body.contains(says), "{id}: {}", r.body);
    }
    // The plain id is one worker, and the only one.
    assert_eq!(Client::new(addr).get("/?PROLIFIC_PID=id").status, 200);
    server.shutdown().unwrap();
    assert_eq!(count(&s, "SELECT COUNT(*) FROM workers"), 1);
    assert_refused(
        &log,
        &[
            "not valid UTF-8",
            "an invisible character",
            "outside printable ASCII",
        ],
    );
}

// Issue 37, defect 2: "I want to stop here" kept the task leased until the
// lease ran out.
#[test]
fn stopping_gives_the_leased_task_back_at_once() {
    let Served { server, log, .. } = serve("stop", state(4, 1, 0.5, 1, 0.0, 41, None)); // 2 comparisons
    let addr = server.local_addr();
    let mut alice = Client::new(addr);
    let csrf = enter(&mut alice, "alice");
    let t = alice.get("/task").hidden("task").unwrap();
    assert_eq!(status(addr)["live_leases"], 1);
    let r = alice.post("/finish", &format!("csrf={csrf}"));
    assert_eq!((r.status, r.header("location")), (303, Some("/done")));
    assert_eq!(status(addr)["live_leases"], 0);
    // The first task in the layout is free again: the next worker gets it.
    let mut bob = Client::new(addr);
    enter(&mut bob, "bob");
    assert_eq!(bob.get("/task").hidden("task").unwrap(), t);
    // Alice has stopped: nothing more for her.
    assert_eq!(alice.get_json("/task").json()["state"], "done");
    assert_eq!(status(addr)["live_leases"], 1);
    server.shutdown().unwrap();
    assert!(log_text(&log).contains("worker_stopped: worker alice stopped"));
}

// Issue 37, defect 3: after a restart, the leases of answered tasks came
// back as live leases until their time ran out.
#[test]
fn answered_tasks_are_not_live_leases_after_a_restart() {
    let Served { server, s, log, .. } = serve("relive", state(8, 2, 0.5, 2, 0.0, 42, None));
    let mut c = Client::new(server.local_addr());
    let csrf = enter(&mut c, "dora");
    for _ in 0..3 {
        c.answer_next(&csrf, "first");
    }
    assert_eq!(status(server.local_addr())["live_leases"], 0);
    let open = c.get("/task").hidden("task").unwrap();
    assert_eq!(status(server.local_addr())["live_leases"], 1);
    server.shutdown().unwrap(); // as SIGTERM does
    let live = format!(
        "SELECT COUNT(*) FROM leases WHERE expires_ms > {}",
        now_ms()
    );
    // The store's live leases are the dashboard's.
    assert_eq!(count(&s, &live), 1);
    let server = TestServer::start(&s, options(&log)).unwrap();
    assert_eq!(status(server.local_addr())["live_leases"], 1);
    let mut c2 = Client::new(server.local_addr());
    c2.cookies = c.cookies.clone();
    assert_eq!(c2.get("/task").hidden("task").unwrap(), open);
    server.shutdown().unwrap();
    assert_eq!(count(&s, &live), 1);
}

// Issue 37, defect 5: a participant who stopped early got the full
// completion code, and /done gave it to anyone with a session.
#[test]
fn stopping_early_does_not_give_the_full_completion_code() {
    let Served { server, .. } = serve_with_quota("early", 43, 3);
    let addr = server.local_addr();
    // The end screen is not there before the end.
    let mut carol = Client::new(addr);
    enter(&mut carol, "carol");
    let r = carol.get("/done");
    assert_eq!((r.status, r.header("location")), (303, Some("/task")));
    // Bob answers 1 of 3, then stops: no code (none is set for partial work).
    let mut bob = Client::new(addr);
    let csrf = enter(&mut bob, "bob");
    let t = bob.get("/task").hidden("task").unwrap();
    bob.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"));
    bob.post("/finish", &format!("csrf={csrf}"));
    let r = bob.get("/done");
    assert_eq!(r.status, 200);
    assert!(!r.body.contains("C0MPL3TE"), "{}", r.body);
    assert!(!r.body.contains("app.example"), "{}", r.body);
    assert!(r.body.contains("no completion code"), "{}", r.body);
    let j = bob.get_json("/task").json();
    assert_eq!(
        (j["state"].as_str(), j["partial"].as_bool()),
        (Some("done"), Some(true))
    );
    assert!(j["code"].is_null());
    // Alice reaches the quota: the full code.
    let mut alice = Client::new(addr);
    let acsrf = enter(&mut alice, "alice");
    for _ in 0..3 {
        alice.answer_next(&acsrf, "second");
    }
    assert!(alice.get("/done").body.contains("C0MPL3TE"));
    // The dashboard says what each did, for payment.
    let st = status(addr);
    let row = |name: &str| worker_row(&st, name);
    assert_eq!(
        (
            row("bob")["answers"].as_u64(),
            row("bob")["completion"].as_str()
        ),
        (Some(1), Some("partial"))
    );
    assert_eq!(
        (
            row("alice")["answers"].as_u64(),
            row("alice")["completion"].as_str()
        ),
        (Some(3), Some("full"))
    );
    // Carol came and did nothing: listed, without answers.
    assert_eq!(row("carol")["answers"], 0);
    server.shutdown().unwrap();
}

// Issue 37, defect 5: a separate code for partial work, set at init, kept
// across a restart.
#[test]
fn a_partial_completion_code_for_partial_work() {
    let dir = temp_dir("partial");
    let p = PageSettings {
        partial_completion_code: Some("P4RT14L".into()),
        partial_completion_url: Some("https://app.example/partial?cc={code}".into()),
        ..page()
    };
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 44, Some(p)));
    let log = dir.join("log.txt");
    let opts = || Options {
        quota: Some(3),
        ..options(&log)
    };
    let server = TestServer::start(&s, opts()).unwrap();
    let mut bob = Client::new(server.local_addr());
    let csrf = enter(&mut bob, "bob");
    bob.get("/task");
    bob.post("/finish", &format!("csrf={csrf}"));
    let r = bob.get("/done");
    assert!(
        r.body.contains("P4RT14L") && !r.body.contains("C0MPL3TE"),
        "{}",
        r.body
    );
    assert!(r.body.contains("https://app.example/partial?cc=P4RT14L"));
    server.shutdown().unwrap();
    let server = TestServer::start(&s, opts()).unwrap();
    let mut again = Client::new(server.local_addr());
    again.cookies = bob.cookies.clone();
    assert!(again.get("/done").body.contains("P4RT14L"));
    assert_eq!(again.get_json("/task").json()["code"], "P4RT14L");
    server.shutdown().unwrap();
}

// Issue 37, defect 6: "close now" was refused with the library's bare
// "item 1 has no vote in ballot 1".
#[test]
fn closing_now_says_what_is_missing_and_what_can_be_done() {
    let Served { server, .. } = serve("closenow", state(8, 2, 0.5, 2, 0.0, 45, None));
    let addr = server.local_addr();
    let mut api = admin_client(addr);
    let r = api.post_json("/admin/close", "");
    assert_eq!(r.status, 409);
    let e = r.json()["error"].as_str().unwrap().to_owned();
    for part in [
        "ballot 1 cannot be closed now",
        "8 of its 8 items have no vote yet (p",
        "withdrawing the 8 of 8 comparisons without a vote",
        "--unvoted reject",
        "--unvoted withdraw",
    ] {
        assert!(e.contains(part), "{part:?} not in {e:?}");
    }
    let st = status(addr);
    assert_eq!(st["close"]["can_close_now"], false);
    assert_eq!(st["close"]["unvoted_items"], 8);
    // Votes until every item has one: then closing now is possible.
    let mut w = Client::new(addr);
    let csrf = enter(&mut w, "w");
    while status(addr)["close"]["can_close_now"] == false {
        let t = w.get("/task").hidden("task").unwrap();
        w.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"));
    }
    let r = api.post_json("/admin/close", "");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["closed"], 1);
    server.shutdown().unwrap();
}

/// One request on a fresh connection, as raw bytes: the status line's code.
// Issue 37, defect 7: a 400 KiB header was accepted, and requests refused
// before routing were not logged.
#[test]
fn oversized_and_malformed_requests_are_refused_and_logged() {
    let dir = temp_dir("heads");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 46, None));
    let log = dir.join("log.txt");
    let server = Server::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let big = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(raw(addr, big.as_bytes()), 431);
    assert_eq!(raw(addr, b"GARBAGE\r\n\r\n"), 400);
    // A head under the limit passes.
    let fine = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(8_000)
    );
    assert_eq!(raw(addr, fine.as_bytes()), 200);
    server.shutdown().unwrap();
    assert!(refused(&log, "request head over the size limit"));
    assert!(refused(&log, "malformed request"));
}

// Issue 37, defect 7: made-up participant ids each made a worker (300 in
// 2.1 s), each able to hold a lease.
#[test]
fn new_participant_ids_are_rate_limited() {
    let dir = temp_dir("flood");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 47, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap(); // 120 a minute
    let addr = server.local_addr();
    let t0 = std::time::Instant::now();
    let mut c = Client::new(addr);
    let (mut ok, mut busy) = (0, 0);
    for i in 0..140 {
        c.cookies.clear();
        let r = c.get(&format!("/?PROLIFIC_PID=made-up-{i}"));
        match r.status {
            200 => ok += 1,
            429 => {
                busy += 1;
                assert!(r.header("retry-after").is_some());
                assert!(r.body.contains("tries again by itself"));
            }
            other => panic!("{other}"),
        }
    }
    // 120 at once, then two a second.
    let refill = 2 * t0.elapsed().as_secs() as usize + 2;
    assert!((120..=120 + refill).contains(&ok), "{ok} admitted");
    assert_eq!(ok + busy, 140);
    // A participant who came before is not a new one.
    c.cookies.clear();
    assert_eq!(c.get("/?PROLIFIC_PID=made-up-0").status, 200);
    server.shutdown().unwrap();
    assert!(refused(&log, "too many new participants at once"));
}
