//! The researcher's dashboard and the annotator's page.

use super::*;

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
    let Served { server, .. } = serve_with_quota("asks", 49, 20);
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
        a.answer_next(&csrf, "first");
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
    let earned = |name: &str| worker_row(&j, name)["earned"].clone();
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
        let row = worker_row(&j, &w.worker);
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
