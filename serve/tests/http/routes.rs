//! Every route, and every refusal.

use super::*;

#[test]
fn assets_health_and_unknown_paths() {
    let Served { server, log, .. } = serve("assets", state(8, 2, 0.5, 2, 0.0, 1, None));
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
    let Served { server, log, .. } = serve("entry", state(8, 2, 0.5, 2, 0.0, 2, Some(page())));
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
    let start_with = |c: &mut Client, header: (&str, &str)| {
        c.request("POST", "/start", Some(&format!("csrf={csrf}")), &[header])
            .unwrap()
    };
    for header in [
        ("Origin", "http://evil.example"),
        ("Sec-Fetch-Site", "cross-site"),
    ] {
        assert_eq!(start_with(&mut c, header).status, 403, "{header:?}");
    }
    // A same-origin post goes through.
    let origin = format!("http://{addr}");
    let r = start_with(&mut c, ("Origin", &origin));
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
    assert_refused(
        &log,
        &[
            "no participant id in the URL",
            "malformed worker id in the URL",
            "no session",
            "missing or wrong CSRF token",
            "a form posted from another origin",
            "a form posted from another site",
            "request body over the size limit",
            "malformed form",
        ],
    );
}

#[test]
fn tasks_answers_and_refusals() {
    // 8 items, M = 2: 8 comparisons in ballot 1, 4 items and 4 in ballot 2.
    let Served { server, log, .. } = serve_with_quota("answers", 3, 3);
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
    let tag = task.split('-').next().unwrap().to_owned();
    for (body, status) in [
        (format!("csrf={csrf}&task={task}"), 400),
        (format!("csrf={csrf}&task={task}&choice=left"), 400),
        (format!("csrf={csrf}&choice=first"), 400),
        (format!("csrf={csrf}&task=zzzz-b1-0&choice=first"), 400),
        (format!("csrf={csrf}&task=garbage&choice=first"), 400),
        (format!("csrf={csrf}&task={tag}-b1-999&choice=first"), 404),
        (format!("csrf={csrf}&task={tag}-b9-0&choice=first"), 404),
    ] {
        assert_eq!(post(&mut alice, body.clone()).status, status, "{body}");
    }
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
        alice.answer_next(&csrf, "tie");
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
    assert_refused(
        &log,
        &[
            "no choice given",
            "unknown choice",
            "no task given",
            "belongs to another campaign",
            "malformed task id",
            "unknown task",
            "the task is not leased to this worker",
            "this worker already gave another answer to the task",
        ],
    );
}

#[test]
fn no_tie_choice_without_a_tie_label() {
    let Served { server, log, .. } = serve("notie", state(8, 2, 0.5, 2, 0.0, 4, None));
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
    let Served { server, .. } =
        serve_with("lease", state(8, 2, 0.5, 2, 0.0, 5, None), |o| Options {
            lease: Duration::from_secs(1),
            ..o
        });
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
    // 8 items, M = 2, 2 ballots: 8 + 4 comparisons.
    let Served { server, s, log, .. } = serve("ballots", state(8, 2, 0.5, 2, 0.0, 6, Some(page())));
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
                let r = c.answer(csrf, t, choice);
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
    let Served { server, .. } = serve("wait", state(4, 1, 0.5, 1, 0.0, 7, None)); // 2 comparisons
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
    // Controls: items 0, 1, 2 beat items 15, 14, 13; a third of the tasks.
    let Served { server, log, .. } =
        serve_with("exclude", state(16, 4, 0.5, 2, 1.0 / 3.0, 8, None), |o| {
            Options {
                exclusion: Some(ExclusionRule::new(0.8, 3).unwrap()),
                ..o
            }
        });
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
        bad.answer(&csrf, t, "second");
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
    let Served { server, log, .. } = serve("admin", state(8, 2, 0.5, 2, 0.0, 9, None));
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
    guest.answer_next(&gcsrf, "first");
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
    assert_refused(
        &log,
        &[
            "missing or wrong admin token",
            "missing or wrong CSRF token",
            "unknown invitation token",
        ],
    );
}

#[test]
fn restart_keeps_answers_sessions_and_leases() {
    let Served { server, s, log, .. } = serve("restart", state(8, 2, 0.5, 2, 0.0, 10, None));
    let addr = server.local_addr();
    let mut c = Client::new(addr);
    let csrf = enter(&mut c, "dora");
    let t1 = c.answer_next(&csrf, "first");
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
