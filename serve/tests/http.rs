//! Every route of the server, and every refusal, over real HTTP on
//! 127.0.0.1 (the server runs in this process, on a free port).

mod common;

use std::time::Duration;

use adaptive_comp_metrics::ballot::ExclusionRule;
use adaptive_comp_metrics_serve::{Options, PageSettings, Server, Store};
use common::{Client, Handle, Http, TestServer, enc, enter, state, store, temp_dir};

fn page() -> PageSettings {
    PageSettings {
        question: "Which pair of words is more related?".into(),
        tie_label: Some("About the same".into()),
        completion_code: Some("C0MPL3TE".into()),
        completion_url: Some("https://app.example/submissions/complete?cc={code}".into()),
        ..PageSettings::default()
    }
}

fn options(log: &std::path::Path) -> Options {
    Options {
        addr: "127.0.0.1:0".parse().unwrap(),
        admin_token: Some("admin-token-0123456789".into()),
        log_file: Some(log.to_owned()),
        ..Options::default()
    }
}

/// A client of the dashboard's routes, with the admin token of [`options`].
fn admin_client(addr: &Handle) -> Client {
    let mut c = Client::new(addr);
    c.extra.push((
        "Authorization".into(),
        "Bearer admin-token-0123456789".into(),
    ));
    c
}

fn log_text(log: &std::path::Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

/// The log has a refusal with this reason.
fn refused(log: &std::path::Path, reason: &str) -> bool {
    log_text(log)
        .lines()
        .any(|l| l.contains(" refused: ") || l.contains("refused (") && l.contains(reason))
        && log_text(log).contains(reason)
}

#[test]
fn assets_health_and_unknown_paths() {
    let dir = temp_dir("assets");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 1, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let mut c = Client::new(server.local_addr());
    let r = c.get("/healthz");
    assert_eq!((r.status, r.body.trim()), (200, "ok"));
    let r = c.get("/assets/page.css");
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/css"));
    let r = c.get("/assets/page.js");
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("text/javascript")
    );
    // Security headers on every response.
    assert!(
        r.header("content-security-policy")
            .unwrap()
            .contains("default-src 'none'")
    );
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    // No request path reaches the file system.
    for p in [
        "/nothing",
        "/../Cargo.toml",
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/assets/page.css/../../src/lib.rs",
        "/campaign.db",
        "/..%2fcampaign.db",
    ] {
        let r = c.get(p);
        assert_eq!(r.status, 404, "{p}");
        assert!(
            !r.body.contains("[package]") && !r.body.contains("SQLite"),
            "{p}"
        );
    }
    server.shutdown().unwrap();
    assert!(refused(&log, "no such page"));
}

#[test]
fn entry_identity_and_session() {
    let dir = temp_dir("entry");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 2, Some(page())));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut c = Client::new(addr);
    // No id: refused.
    let r = c.get("/");
    assert_eq!(r.status, 400);
    assert!(r.body.contains("incomplete"));
    // A malformed id: refused.
    let r = c.get("/?PROLIFIC_PID=%01evil");
    assert_eq!(r.status, 400);
    let long = "x".repeat(129);
    assert_eq!(c.get(&format!("/?PROLIFIC_PID={long}")).status, 400);
    // MTurk's preview: instructions, no start button, no session.
    let r = c.get("/?workerId=W1&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Accept the task"));
    assert!(!r.body.contains("id=\"start\""));
    assert!(c.cookies.is_empty());
    // Prolific: the instructions, a session cookie, a CSRF token.
    let r = c.get("/?PROLIFIC_PID=alice&STUDY_ID=s1&SESSION_ID=x1");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("id=\"instructions\""));
    assert!(r.body.contains("Which pair of words is more related?"));
    let cookie = r.header("set-cookie").unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let csrf = r.hidden("csrf").unwrap();
    // Start: without a session, without or with a wrong token, from
    // another origin: refused.
    let mut stranger = Client::new(addr);
    assert_eq!(stranger.post("/start", &format!("csrf={csrf}")).status, 401);
    assert_eq!(c.post("/start", "").status, 403);
    assert_eq!(c.post("/start", "csrf=0000").status, 403);
    let r = c
        .request(
            "POST",
            "/start",
            Some(&format!("csrf={csrf}")),
            &[("Origin", "http://evil.example")],
        )
        .unwrap();
    assert_eq!(r.status, 403);
    let r = c
        .request(
            "POST",
            "/start",
            Some(&format!("csrf={csrf}")),
            &[("Sec-Fetch-Site", "cross-site")],
        )
        .unwrap();
    assert_eq!(r.status, 403);
    // A same-origin post goes through.
    let origin = format!("http://{addr}");
    let r = c
        .request(
            "POST",
            "/start",
            Some(&format!("csrf={csrf}")),
            &[("Origin", &origin)],
        )
        .unwrap();
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some("/task"));
    // Coming back with the same link resumes: straight to the task.
    let r = c.get("/?PROLIFIC_PID=alice&STUDY_ID=s1&SESSION_ID=x1");
    assert_eq!(r.status, 303);
    // And without the link, by the cookie alone.
    assert_eq!(c.get("/").status, 303);
    // /task and /done without a session.
    assert_eq!(stranger.get("/task").status, 401);
    assert_eq!(stranger.get_json("/task").status, 401);
    assert_eq!(stranger.get("/done").status, 401);
    // Malformed form bodies and an oversized one.
    let r = c
        .request(
            "POST",
            "/start",
            Some("{}"),
            &[("Content-Type", "application/json")],
        )
        .unwrap();
    assert_eq!(r.status, 415);
    let big = format!("csrf={}", "a".repeat(10_000));
    assert_eq!(c.post("/start", &big).status, 413);
    server.shutdown().unwrap();
    for reason in [
        "no participant id in the URL",
        "malformed worker id in the URL",
        "no session",
        "missing or wrong CSRF token",
        "a form posted from another origin",
        "a form posted from another site",
        "request body over the size limit",
        "malformed form",
    ] {
        assert!(
            refused(&log, reason),
            "not logged: {reason}\n{}",
            log_text(&log)
        );
    }
}

#[test]
fn tasks_answers_and_refusals() {
    let dir = temp_dir("answers");
    // 8 items, M = 2: 8 comparisons in ballot 1, 4 items and 4 in ballot 2.
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 3, Some(page())));
    let log = dir.join("log.txt");
    let server = TestServer::start(
        &s,
        Options {
            quota: Some(3),
            ..options(&log)
        },
    )
    .unwrap();
    let addr = server.local_addr();
    let mut alice = Client::new(addr);
    let csrf = enter(&mut alice, "alice");
    let r = alice.get("/task");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("id=\"first\"") && r.body.contains("id=\"tie\""));
    assert!(r.body.contains("0 of 3 done"));
    let task = r.hidden("task").unwrap();
    // The same task again while the lease runs (a reload).
    assert_eq!(alice.get("/task").hidden("task").unwrap(), task);
    let j = alice.get_json("/task").json();
    assert_eq!(j["state"], "task");
    assert_eq!(j["task"], task.as_str());
    assert_eq!(j["quota"], 3);
    // Bad answers.
    let post = |c: &mut Client, body: String| c.post("/answer", &body);
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&task={task}")).status,
        400
    );
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&task={task}&choice=left")).status,
        400
    );
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&choice=first")).status,
        400
    );
    assert_eq!(
        post(
            &mut alice,
            format!("csrf={csrf}&task=zzzz-b1-0&choice=first")
        )
        .status,
        400
    );
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&task=garbage&choice=first")).status,
        400
    );
    let tag = task.split('-').next().unwrap().to_owned();
    assert_eq!(
        post(
            &mut alice,
            format!("csrf={csrf}&task={tag}-b1-999&choice=first")
        )
        .status,
        404
    );
    assert_eq!(
        post(
            &mut alice,
            format!("csrf={csrf}&task={tag}-b9-0&choice=first")
        )
        .status,
        404
    );
    // Bob takes the next task; alice may not answer it, nor bob hers.
    let mut bob = Client::new(addr);
    let bcsrf = enter(&mut bob, "bob");
    let btask = bob.get("/task").hidden("task").unwrap();
    assert_ne!(btask, task);
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&task={btask}&choice=first")).status,
        409
    );
    assert_eq!(
        post(&mut bob, format!("csrf={bcsrf}&task={task}&choice=first")).status,
        409
    );
    // Bob's CSRF token is not alice's.
    assert_eq!(
        post(&mut alice, format!("csrf={bcsrf}&task={task}&choice=first")).status,
        403
    );
    // Alice answers; the same answer again is acknowledged (idempotent),
    // another answer to the same task is refused.
    let r = post(&mut alice, format!("csrf={csrf}&task={task}&choice=first"));
    assert_eq!((r.status, r.header("location")), (303, Some("/task")));
    let r = alice.post_json("/answer", &format!("csrf={csrf}&task={task}&choice=first"));
    assert_eq!(r.json()["outcome"], "already recorded");
    assert_eq!(
        post(&mut alice, format!("csrf={csrf}&task={task}&choice=second")).status,
        409
    );
    assert_eq!(
        post(&mut bob, format!("csrf={bcsrf}&task={task}&choice=first")).status,
        409
    );
    // Two more answers reach the quota: the end screen with the code.
    for _ in 0..2 {
        let t = alice.get("/task").hidden("task").unwrap();
        assert_eq!(
            post(&mut alice, format!("csrf={csrf}&task={t}&choice=tie")).status,
            303
        );
    }
    let r = alice.get("/task");
    assert!(r.body.contains("id=\"done\""), "{}", r.body);
    assert!(r.body.contains("C0MPL3TE"));
    assert!(
        r.body
            .contains("https://app.example/submissions/complete?cc=C0MPL3TE")
    );
    let j = alice.get_json("/task").json();
    assert_eq!(
        (j["state"].as_str(), j["why"].as_str()),
        (Some("done"), Some("quota"))
    );
    // Finishing early: the end screen, without the code of a full quota
    // (issue 37, defect 5: this test asserted the code before).
    let r = bob.post("/finish", &format!("csrf={bcsrf}"));
    assert_eq!((r.status, r.header("location")), (303, Some("/done")));
    assert_eq!(bob.post("/finish", "csrf=nope").status, 403);
    let r = bob.get("/done");
    assert!(r.body.contains("id=\"done\"") && !r.body.contains("C0MPL3TE"));
    server.shutdown().unwrap();
    for reason in [
        "no choice given",
        "unknown choice",
        "no task given",
        "belongs to another campaign",
        "malformed task id",
        "unknown task",
        "the task is not leased to this worker",
        "this worker already gave another answer to the task",
    ] {
        assert!(
            refused(&log, reason),
            "not logged: {reason}\n{}",
            log_text(&log)
        );
    }
}

#[test]
fn no_tie_choice_without_a_tie_label() {
    let dir = temp_dir("notie");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 4, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let mut c = Client::new(server.local_addr());
    let csrf = enter(&mut c, "carol");
    let r = c.get("/task");
    assert!(!r.body.contains("id=\"tie\""));
    let t = r.hidden("task").unwrap();
    assert_eq!(
        c.post("/answer", &format!("csrf={csrf}&task={t}&choice=tie"))
            .status,
        400
    );
    server.shutdown().unwrap();
    assert!(refused(&log, "this campaign has no tie choice"));
}

#[test]
fn leases_run_out_and_pass_to_others() {
    let dir = temp_dir("lease");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 5, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(
        &s,
        Options {
            lease: Duration::from_secs(1),
            ..options(&log)
        },
    )
    .unwrap();
    let addr = server.local_addr();
    let mut a = Client::new(addr);
    let acsrf = enter(&mut a, "a");
    let first = a.get("/task").hidden("task").unwrap();
    std::thread::sleep(Duration::from_millis(1300));
    // The lease ran out and nobody took the task: a late answer counts.
    assert_eq!(
        a.post(
            "/answer",
            &format!("csrf={acsrf}&task={first}&choice=first")
        )
        .status,
        303
    );
    let second = a.get("/task").hidden("task").unwrap();
    std::thread::sleep(Duration::from_millis(1300));
    // Now b arrives and gets the task a left.
    let mut b = Client::new(addr);
    let bcsrf = enter(&mut b, "b");
    let r = b.get("/task");
    assert_eq!(r.hidden("task").unwrap(), second);
    // a's answer is refused: the task is b's now.
    assert_eq!(
        a.post(
            "/answer",
            &format!("csrf={acsrf}&task={second}&choice=first")
        )
        .status,
        409
    );
    assert_eq!(
        b.post(
            "/answer",
            &format!("csrf={bcsrf}&task={second}&choice=second")
        )
        .status,
        303
    );
    server.shutdown().unwrap();
}

#[test]
fn ballots_close_by_themselves_and_the_campaign_ends() {
    let dir = temp_dir("ballots");
    // 8 items, M = 2, 2 ballots: 8 + 4 comparisons.
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 6, Some(page())));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut w = Client::new(addr);
    let csrf = enter(&mut w, "w1");
    let mut other = Client::new(addr);
    let ocsrf = enter(&mut other, "w2");
    let mut answered = 0;
    let mut waits = 0;
    for _ in 0..200 {
        // Two workers in turn; each answers for the smaller item index
        // (texts name the item).
        let (c, csrf) = if answered % 2 == 0 {
            (&mut w, &csrf)
        } else {
            (&mut other, &ocsrf)
        };
        let j = c.get_json("/task").json();
        match j["state"].as_str().unwrap() {
            "task" => {
                let n = |s: &str| -> usize {
                    s.trim_start_matches("word")
                        .split(' ')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                let (a, b) = (
                    n(j["first"].as_str().unwrap()),
                    n(j["second"].as_str().unwrap()),
                );
                let choice = if a < b { "first" } else { "second" };
                let t = j["task"].as_str().unwrap();
                let r = c.post_json(
                    "/answer",
                    &format!("csrf={csrf}&task={}&choice={choice}", enc(t)),
                );
                assert_eq!(r.status, 200, "{}", r.body);
                answered += 1;
            }
            "wait" => {
                waits += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            "done" => {
                assert_eq!(j["why"], "finished");
                break;
            }
            other => panic!("{other}"),
        }
    }
    assert_eq!(answered, 12, "8 + 4 comparisons");
    let r = w.get("/task");
    assert!(r.body.contains("C0MPL3TE"));
    // The dashboard's ranking: item p0 first (everyone preferred smaller indices).
    let mut admin = admin_client(addr);
    let st = admin.get("/admin/status.json").json();
    assert_eq!(st["campaign"]["phase"], "finished");
    assert_eq!(st["ranking"]["items"][0]["id"], "p0");
    server.shutdown().unwrap();
    let text = log_text(&log);
    assert!(text.contains("ballot_closed: ballot 1 closed"));
    assert!(text.contains("ballot_opened: ballot 2 opened"));
    assert!(text.contains("campaign_finished"));
    let _ = waits;
    // The store's state is the file workflow's: all ballots closed.
    let f = Store::state(&s).unwrap();
    assert_eq!(f.campaign.scheduler().history().len(), 2);
}

#[test]
fn wait_page_when_every_task_is_leased() {
    let dir = temp_dir("wait");
    let s = store(&dir, &state(4, 1, 0.5, 1, 0.0, 7, None)); // 2 comparisons
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut clients: Vec<Client> = (0..3).map(|_| Client::new(addr)).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        enter(c, &format!("w{i}"));
    }
    assert_eq!(clients[0].get_json("/task").json()["state"], "task");
    assert_eq!(clients[1].get_json("/task").json()["state"], "task");
    let r = clients[2].get("/task");
    assert!(r.body.contains("id=\"wait\""));
    assert!(r.body.contains("http-equiv=\"refresh\""));
    assert_eq!(r.header("retry-after"), Some("5"));
    server.shutdown().unwrap();
}

#[test]
fn exclusion_by_control_accuracy() {
    let dir = temp_dir("exclude");
    // Controls: items 0, 1, 2 beat items 15, 14, 13; a third of the tasks.
    let s = store(&dir, &state(16, 4, 0.5, 2, 1.0 / 3.0, 8, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(
        &s,
        Options {
            exclusion: Some(ExclusionRule::new(0.8, 3).unwrap()),
            ..options(&log)
        },
    )
    .unwrap();
    let addr = server.local_addr();
    let mut bad = Client::new(addr);
    let csrf = enter(&mut bad, "careless");
    // Always the item on the right: wrong on half the controls at least.
    let mut done = false;
    for _ in 0..100 {
        let j = bad.get_json("/task").json();
        if j["state"] != "task" {
            done = true;
            assert_eq!(j["state"], "done");
            break;
        }
        let t = j["task"].as_str().unwrap();
        bad.post_json(
            "/answer",
            &format!("csrf={csrf}&task={}&choice=second", enc(t)),
        );
    }
    assert!(done, "the careless worker was never stopped");
    let mut admin = admin_client(addr);
    let st = admin.get("/admin/status.json").json();
    assert_eq!(st["exclusions"][0]["worker"], "careless");
    // Their answers were discarded: the ballot is back to (almost) no votes.
    assert_eq!(st["ballots"][0]["votes"], 0);
    server.shutdown().unwrap();
    assert!(log_text(&log).contains("worker_excluded: worker careless excluded"));
}

#[test]
fn dashboard_and_admin_actions() {
    let dir = temp_dir("admin");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 9, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let token = "admin-token-0123456789";
    let mut anon = Client::new(addr);
    assert_eq!(anon.get("/admin").status, 401);
    assert_eq!(anon.get("/admin?token=wrong-token-0123456789").status, 401);
    assert_eq!(anon.get("/admin/status.json").status, 401);
    let mut wrong = Client::new(addr);
    wrong.extra.push((
        "Authorization".into(),
        "Bearer admin-token-0123456788".into(),
    ));
    assert_eq!(wrong.get("/admin/status.json").status, 401);
    assert_eq!(wrong.post("/admin/close", "").status, 401);
    // The browser's way: the token once, then a cookie.
    let mut admin = Client::new(addr);
    let r = admin.get(&format!("/admin?token={token}"));
    assert_eq!((r.status, r.header("location")), (303, Some("/admin")));
    assert!(r.header("set-cookie").unwrap().contains("SameSite=Strict"));
    let r = admin.get("/admin");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("dashboard"));
    let csrf = r.hidden("csrf").unwrap();
    // A cookie-authenticated post needs the dashboard's CSRF token.
    assert_eq!(admin.post("/admin/invite", "count=2").status, 403);
    let r = admin.post_json("/admin/invite", &format!("csrf={csrf}&count=2"));
    assert_eq!(r.status, 200, "{}", r.body);
    let inv = r.json();
    let path = inv["invitations"][0]["path"].as_str().unwrap().to_owned();
    assert_eq!(
        admin
            .post("/admin/invite", &format!("csrf={csrf}&count=x"))
            .status,
        409
    );
    // An invitation link admits its annotator; a wrong one does not.
    let mut guest = Client::new(addr);
    let r = guest.get(&path);
    assert_eq!(r.status, 200);
    assert!(r.body.contains("id=\"instructions\""));
    assert_eq!(
        Client::new(addr).get("/invite/0123456789abcdef").status,
        404
    );
    let gcsrf = r.hidden("csrf").unwrap();
    guest.post("/start", &format!("csrf={gcsrf}"));
    let t = guest.get("/task").hidden("task").unwrap();
    assert_eq!(
        guest
            .post("/answer", &format!("csrf={gcsrf}&task={t}&choice=first"))
            .status,
        303
    );
    // The JSON status, with a bearer token.
    let mut api = Client::new(addr);
    api.extra
        .push(("Authorization".into(), format!("Bearer {token}")));
    let st = api.get("/admin/status.json").json();
    assert_eq!(st["campaign"]["open_ballot"], 1);
    assert_eq!(st["ballots"][0]["votes"], 1);
    assert_eq!(st["workers"][0]["worker"], "invitee-1");
    assert_eq!(api.get("/admin/status.json?top=x").status, 400);
    // Exclude: unknown worker refused; the guest excluded, their vote discarded.
    assert_eq!(api.post_json("/admin/exclude", "worker=nobody").status, 409);
    let r = api.post_json("/admin/exclude", "worker=invitee-1");
    assert_eq!(r.json()["discarded"], 1);
    assert_eq!(guest.get_json("/task").json()["state"], "done");
    // Close now: nothing voted, so closing is refused (an item without a vote).
    let r = api.post_json("/admin/close", "");
    assert_eq!(r.status, 409, "{}", r.body);
    server.shutdown().unwrap();
    for reason in [
        "missing or wrong admin token",
        "missing or wrong CSRF token",
        "unknown invitation token",
    ] {
        assert!(refused(&log, reason), "not logged: {reason}");
    }
}

#[test]
fn restart_keeps_answers_sessions_and_leases() {
    let dir = temp_dir("restart");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 10, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut c = Client::new(addr);
    let csrf = enter(&mut c, "dora");
    let t1 = c.get("/task").hidden("task").unwrap();
    assert_eq!(
        c.post("/answer", &format!("csrf={csrf}&task={t1}&choice=first"))
            .status,
        303
    );
    let t2 = c.get("/task").hidden("task").unwrap();
    server.shutdown().unwrap();
    // A second server on the same store while the first runs is refused.
    let server = TestServer::start(&s, options(&log)).unwrap();
    assert!(matches!(
        TestServer::start(&s, options(&log)),
        Err(adaptive_comp_metrics_serve::ServeError::Locked { .. })
    ));
    let mut c2 = Client::new(server.local_addr());
    c2.cookies = c.cookies.clone();
    // Same session, same lease, the first answer still there.
    assert_eq!(c2.get("/task").hidden("task").unwrap(), t2);
    let r = c2.post_json("/answer", &format!("csrf={csrf}&task={t1}&choice=first"));
    assert_eq!(r.json()["outcome"], "already recorded");
    assert_eq!(
        c2.post("/answer", &format!("csrf={csrf}&task={t2}&choice=second"))
            .status,
        303
    );
    // Readers see the state while it is served.
    let f = Store::state(&s).unwrap();
    assert_eq!(f.campaign.scheduler().total_votes(), 2);
    server.shutdown().unwrap();
}

/// The dashboard's status, read with the bearer token.
fn status(addr: &Handle) -> serde_json::Value {
    let mut api = admin_client(addr);
    let r = api.get("/admin/status.json");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Rows of a store's table matching a condition, read while or after it
/// is served.
fn count(store: &std::path::Path, sql: &str) -> i64 {
    let conn =
        rusqlite::Connection::open_with_flags(store, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

// Issue 37, defect 1 (and 7: lookalike ids): `%FF` and `%FE` both read as
// U+FFFD when decoded leniently, which made two people one worker.
#[test]
fn participant_ids_that_are_not_utf8_or_look_alike_are_refused() {
    let dir = temp_dir("ids");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 40, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
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
    for reason in [
        "not valid UTF-8",
        "an invisible character",
        "outside printable ASCII",
    ] {
        assert!(refused(&log, reason), "not logged: {reason}");
    }
}

// Issue 37, defect 2: "I want to stop here" kept the task leased until the
// lease ran out.
#[test]
fn stopping_gives_the_leased_task_back_at_once() {
    let dir = temp_dir("stop");
    let s = store(&dir, &state(4, 1, 0.5, 1, 0.0, 41, None)); // 2 comparisons
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
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
    let dir = temp_dir("relive");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 42, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let mut c = Client::new(server.local_addr());
    let csrf = enter(&mut c, "dora");
    for _ in 0..3 {
        let t = c.get("/task").hidden("task").unwrap();
        assert_eq!(
            c.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"))
                .status,
            303
        );
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
    let dir = temp_dir("early");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 43, Some(page())));
    let log = dir.join("log.txt");
    let server = TestServer::start(
        &s,
        Options {
            quota: Some(3),
            ..options(&log)
        },
    )
    .unwrap();
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
        let t = alice.get("/task").hidden("task").unwrap();
        alice.post("/answer", &format!("csrf={acsrf}&task={t}&choice=second"));
    }
    assert!(alice.get("/done").body.contains("C0MPL3TE"));
    // The dashboard says what each did, for payment.
    let st = status(addr);
    let row = |name: &str| {
        st["workers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["worker"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no row for {name}: {st}"))
    };
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
    let dir = temp_dir("closenow");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 45, None));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
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
fn raw(addr: std::net::SocketAddr, request: &[u8]) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text);
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text:?}"))
}

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

// Issue 37, the researcher's dashboard: the title, every participant (those
// who never answered too), timestamps and STUDY_ID/SESSION_ID, the
// definitions, a sorted and paged table, a page that reloads itself,
// downloads, and actions confirmed on a page of their own.
#[test]
fn the_dashboard_a_researcher_works_from() {
    let dir = temp_dir("board");
    let p = PageSettings {
        title: "Word pairs <study>".into(),
        ..page()
    };
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 48, Some(p)));
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut a = Client::new(addr);
    let csrf = enter(&mut a, "ann,1");
    let t = a.get("/task").hidden("task").unwrap();
    a.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"));
    let mut idle = Client::new(addr);
    enter(&mut idle, "idle");
    let mut admin = Client::new(addr);
    admin.get("/admin?token=admin-token-0123456789");
    let r = admin.get("/admin");
    assert_eq!(r.status, 200);
    let b = &r.body;
    assert!(b.contains("Word pairs &lt;study&gt;"), "the title, escaped");
    assert!(
        b.contains("<meta http-equiv=\"refresh\" content=\"60; url=/admin?sort=&amp;page=1\">")
    );
    for part in [
        ">idle<", // came, never answered
        ">s1<",   // STUDY_ID
        "<strong>1</strong> of 12 comparisons voted",
        "agreement</dt>",
        "href=\"/admin/workers.csv\"",
        "href=\"/admin/votes.csv\"",
        "href=\"/admin/exclude?worker=ann%2C1\"",
        "id=\"charts\"",
        "2 came, 1 answered",
        "<th>came</th><th>first answer</th><th>last answer</th>",
    ] {
        assert!(b.contains(part), "{part:?} not on the dashboard");
    }
    assert!(
        !b.contains("action=\"/admin/exclude\""),
        "excluding asks first"
    );
    assert!(
        admin
            .get("/admin?refresh=off")
            .body
            .find("http-equiv")
            .is_none()
    );
    // Sorted by id: ann before idle; by arrival too; paged.
    let by_id = admin.get("/admin?sort=worker").body;
    assert!(by_id.find(">ann,1").unwrap() < by_id.find(">idle<").unwrap());
    assert!(admin.get("/admin?page=9").body.contains("page 1 of 1"));
    // Confirmation pages.
    let r = admin.get("/admin/exclude?worker=ann%2C1");
    assert!(r.body.contains("Exclude ann,1?") && r.body.contains("id=\"confirm-exclude\""));
    assert_eq!(admin.get("/admin/exclude?worker=nobody").status, 404);
    let r = admin.get("/admin/close");
    assert!(r.body.contains("cannot be closed yet") && !r.body.contains("confirm-close"));
    assert_eq!(Client::new(addr).get("/admin/close").status, 401);
    // Downloads.
    let r = admin.get("/admin/workers.csv");
    assert_eq!(r.header("content-type"), Some("text/csv; charset=utf-8"));
    let lines: Vec<&str> = r.body.lines().collect();
    assert!(lines[0].starts_with("worker,source,STUDY_ID,SESSION_ID,assignmentId,hitId,arrived"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("\"ann,1\",PROLIFIC_PID,s1,x,,,"))
    );
    assert!(lines.iter().any(|l| l.starts_with("idle,PROLIFIC_PID,")));
    assert_eq!(lines.len(), 3);
    let r = admin.get("/admin/votes.csv");
    let lines: Vec<&str> = r.body.lines().collect();
    assert_eq!(
        lines[0],
        "task_id,ballot,position,kind,first_id,second_id,worker,vote,counted"
    );
    assert_eq!(lines.len(), 2);
    assert!(
        lines[1].starts_with(&format!("{t},1,")) && lines[1].ends_with(",\"ann,1\",first,true")
    );
    assert_eq!(Client::new(addr).get("/admin/votes.csv").status, 401);
    server.shutdown().unwrap();
}

// Issue 37, the annotator's page: the instructions say how long it takes;
// stopping asks once and says it ends the study.
#[test]
fn instructions_say_the_time_and_stopping_asks_once() {
    let dir = temp_dir("asks");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.0, 49, Some(page())));
    let log = dir.join("log.txt");
    let server = TestServer::start(
        &s,
        Options {
            quota: Some(20),
            ..options(&log)
        },
    )
    .unwrap();
    let mut c = Client::new(server.local_addr());
    let r = c.get("/?PROLIFIC_PID=zoe");
    assert!(
        r.body.contains("at most 20 pairs: about 2 minutes in all"),
        "{}",
        r.body
    );
    let csrf = r.hidden("csrf").unwrap();
    c.post("/start", &format!("csrf={csrf}"));
    let t = c.get("/task").hidden("task").unwrap();
    c.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"));
    let r = c.get("/task");
    assert!(r.body.contains("I want to stop here (this ends the study)"));
    assert!(r.body.contains("href=\"/finish\""));
    let r = c.get("/finish");
    assert!(r.body.contains("Stop the study now?") && r.body.contains("cannot come back"));
    assert!(r.body.contains("there is no completion code"));
    assert_eq!(
        c.get_json("/task").json()["state"],
        "task",
        "asking stops nothing"
    );
    assert_eq!(c.post("/finish", &format!("csrf={csrf}")).status, 303);
    assert_eq!(c.get_json("/task").json()["state"], "done");
    server.shutdown().unwrap();
}

// Issue 37, the dashboard: "what each participant earned", and the cost
// against the budget, at the price per task given at `init` (--price).
#[test]
fn the_dashboard_says_what_each_participant_earned() {
    let dir = temp_dir("earned");
    // N = 8, M = 2, α = 0.5, 2 ballots: 8 + 4 = 12 comparisons; control
    // share 0.5: as many control tasks as comparisons (r/(1 − r) = 1), 24
    // tasks in all, 6.00 at 0.25 a task.
    let mut f = state(8, 2, 0.5, 2, 0.5, 50, Some(page()));
    f.price = Some(0.25);
    let s = store(&dir, &f);
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, options(&log)).unwrap();
    let addr = server.local_addr();
    let mut a = Client::new(addr);
    let csrf = enter(&mut a, "ann");
    for _ in 0..3 {
        let t = a.get("/task").hidden("task").unwrap();
        let r = a.post("/answer", &format!("csrf={csrf}&task={t}&choice=first"));
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let mut idle = Client::new(addr);
    enter(&mut idle, "idle");
    let mut admin = admin_client(addr);
    let j = admin.get("/admin/status.json").json();
    let c = &j["campaign"];
    assert_eq!(c["price"], 0.25);
    assert_eq!(c["tasks_budget"], 24);
    assert_eq!(c["cost_budget"], 6.0);
    assert_eq!(c["spent"], 0.75);
    let earned = |name: &str| {
        j["workers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["worker"] == name)
            .map(|w| w["earned"].clone())
            .unwrap()
    };
    assert_eq!(earned("ann"), 0.75);
    assert_eq!(earned("idle"), 0.0);
    let b = admin.get("/admin").body;
    for part in [
        "Spent: <strong>0.75</strong> of 6.00 (24 tasks at 0.25)",
        "<th class=\"num\">earned</th>",
        "<td class=\"num\">0.75</td>",
        "earned</dt>",
    ] {
        assert!(b.contains(part), "{part:?} not on the dashboard");
    }
    let csv = admin.get("/admin/workers.csv").body;
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",stopped,earned"), "{}", lines[0]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ann,") && l.ends_with(",0.7500"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("idle,") && l.ends_with(",0.0000"))
    );
    server.shutdown().unwrap();

    // Without a price: no money anywhere, the figures null.
    let dir = temp_dir("earned-none");
    let s = store(&dir, &state(8, 2, 0.5, 2, 0.5, 50, Some(page())));
    let server = TestServer::start(&s, options(&dir.join("log.txt"))).unwrap();
    let mut admin = admin_client(server.local_addr());
    let j = admin.get("/admin/status.json").json();
    assert_eq!(j["campaign"]["price"], serde_json::Value::Null);
    assert_eq!(j["campaign"]["spent"], serde_json::Value::Null);
    assert_eq!(j["campaign"]["tasks_budget"], 24);
    let b = admin.get("/admin").body;
    assert!(!b.contains("Spent:") && !b.contains(">earned<"));
    assert!(
        admin
            .get("/admin/workers.csv")
            .body
            .lines()
            .next()
            .unwrap()
            .ends_with(",stopped,earned")
    );
    server.shutdown().unwrap();
}

// Issue 37, the dashboard: "a 21-vote worker shows 0.000" agreement — the
// figure says over how many of the worker's votes it was counted (a vote
// counts only when both items have votes of others).
#[test]
fn the_agreement_says_over_how_many_votes() {
    use adaptive_comp_metrics::ballot::{Answer, ImportMode, Vote};
    let dir = temp_dir("agree");
    let mut f = state(16, 4, 0.5, 2, 0.0, 51, Some(page()));
    // Ballot 1 answered but for 4 tasks by three workers, by the item
    // order (x), against it (y) and at random (z).
    let tasks: Vec<_> = f.campaign.tasks().collect();
    let batch: Vec<Answer> = tasks[4..]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (worker, vote) = match i % 3 {
                0 => ("x", t.first < t.second),
                1 => ("y", t.first > t.second),
                _ => ("z", i % 2 == 0),
            };
            Answer {
                task: t.id,
                worker: worker.into(),
                vote: if vote { Vote::First } else { Vote::Second },
            }
        })
        .collect();
    assert!(f.campaign.import(&batch, ImportMode::AllOrNothing).applied);
    // The library's figures: the reference.
    let stats = f.campaign.worker_stats();
    let s = store(&dir, &f);
    let server = TestServer::start(&s, options(&dir.join("log.txt"))).unwrap();
    let mut admin = admin_client(server.local_addr());
    let j = admin.get("/admin/status.json").json();
    let b = admin.get("/admin").body;
    assert!(b.contains("agreement (votes counted)"));
    for w in &stats {
        let counted = w.agreement_votes;
        let row = j["workers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["worker"] == w.worker.as_str())
            .unwrap();
        assert_eq!(row["agreement_votes"], counted, "{}", w.worker);
        let cell = match w.agreement() {
            Some(a) => format!("<td class=\"num\">{a:.3} ({counted})</td>"),
            None => "<td class=\"num\">– (0)</td>".to_owned(),
        };
        assert!(b.contains(&cell), "{cell} for {}", w.worker);
        assert!(counted > 0 && counted <= w.votes, "{}: {counted}", w.worker);
    }
    let csv = admin.get("/admin/workers.csv").body;
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",agreement,agreement_votes,discarded,")
    );
    server.shutdown().unwrap();
}
