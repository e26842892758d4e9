//! The researcher's routes: the dashboard (a page, and JSON), closing the
//! open ballot now, excluding a worker, invitation links.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use adaptive_comp_metrics::ballot::{Phase, Unvoted};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::auth::{ADMIN_COOKIE, AdminForm, CsrfForm, admin_refused};
use super::error::{html, json_response, see_other};
use super::{App, AppError};
use crate::engine::{CloseCheck, Engine, FIT_WAIT_MS, VOTES_CSV_HEADER, csv_field};
use crate::parse::{self, forms};
use crate::secret::ct_eq;
use crate::status::{EXAMPLES, Status};
use crate::store::now_ms;

type Reply = Result<Response, AppError>;

/// `GET /admin?token=…` (the token leaves the address bar for a cookie),
/// then `GET /admin`: the dashboard.
pub(crate) async fn page(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    if let Some(t) = q.get("token") {
        if !ct_eq(t.as_bytes(), app.admin_token.as_bytes()) {
            return Err(admin_refused(false));
        }
        let mut res = see_other("/admin");
        let c = format!(
            "{ADMIN_COOKIE}={}; Path=/admin; HttpOnly; SameSite=Strict{}",
            app.admin_token,
            if app.secure_cookies { "; Secure" } else { "" }
        );
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().insert(header::SET_COOKIE, v);
        }
        return Ok(res);
    }
    if super::auth::admin_auth(&app, &h).is_none() {
        return Err(admin_refused(false));
    }
    let status = dashboard(&app, Some(25)).await?;
    let notice = q.get("done").map(String::as_str);
    let view = crate::pages::View {
        sort: q
            .get("sort")
            .filter(|s| ["worker", "answers", "accuracy", "last", "arrived"].contains(&s.as_str()))
            .cloned()
            .unwrap_or_default(),
        page: q.get("page").and_then(|p| p.parse().ok()).unwrap_or(1),
        still: q.get("refresh").is_some_and(|r| r == "off"),
    };
    Ok(html(
        StatusCode::OK,
        crate::pages::dashboard(&status, &app.admin_csrf, notice, &view),
    ))
}

/// An admin page: authenticated by the admin token.
fn admin_only(app: &App, h: &HeaderMap) -> Result<(), AppError> {
    super::auth::admin_auth(app, h)
        .map(|_| ())
        .ok_or_else(|| admin_refused(false))
}

/// `GET /admin/exclude?worker=…`: what excluding does, and the button.
pub(crate) async fn confirm_exclude(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    admin_only(&app, &h)?;
    let name = q.get("worker").cloned().unwrap_or_default();
    let status = dashboard(&app, Some(0)).await?;
    let row = status
        .workers
        .iter()
        .find(|w| w.stats.worker == name)
        .ok_or_else(|| {
            AppError::new(StatusCode::NOT_FOUND, "no such worker").page(
                "No such participant",
                "No participant of this id came through this server.",
                Some(("/admin", "Back to the dashboard")),
            )
        })?;
    Ok(html(
        StatusCode::OK,
        crate::pages::confirm_exclude(row, &app.admin_csrf, status.campaign.open_ballot),
    ))
}

/// `GET /admin/close`: what closing now does (or lacks), and the button.
pub(crate) async fn confirm_close(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    admin_only(&app, &h)?;
    let status = dashboard(&app, Some(0)).await?;
    Ok(html(
        StatusCode::OK,
        crate::pages::confirm_close(status.close.as_ref(), &app.admin_csrf),
    ))
}

fn csv(name: &str, body: String) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// `GET /admin/workers.csv`: one line per participant, for payment.
pub(crate) async fn workers_csv(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    use std::fmt::Write as _;
    admin_only(&app, &h)?;
    let st = dashboard(&app, Some(0)).await?;
    let params = &app.identity.record_params;
    let mut out = String::from("worker,source");
    for p in params {
        let _ = write!(out, ",{}", csv_field(p));
    }
    out.push_str(
        ",arrived,first_answer,last_answer,answers,votes,controls,correct,accuracy,agreement,\
         agreement_votes,discarded,excluded_at,end,stopped,earned\n",
    );
    let n = |v: Option<f64>| v.map_or_else(String::new, |x| format!("{x:.4}"));
    let t = |v: Option<u64>| v.map_or_else(String::new, crate::log::rfc3339);
    for w in &st.workers {
        let _ = write!(
            out,
            "{},{}",
            csv_field(&w.stats.worker),
            csv_field(&w.source)
        );
        for p in params {
            let v = w.params.get(p).and_then(|v| v.as_str()).unwrap_or("");
            let _ = write!(out, ",{}", csv_field(v));
        }
        let _ = writeln!(
            out,
            ",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            t(w.arrived_ms),
            t(w.first_answer_ms),
            t(w.last_answer_ms),
            w.answers,
            w.stats.votes,
            w.stats.controls,
            w.stats.correct,
            n(w.stats.accuracy),
            n(w.stats.agreement),
            w.agreement_votes,
            w.stats.discarded,
            w.stats
                .excluded_at
                .map_or_else(String::new, |k| k.to_string()),
            w.completion.unwrap_or(""),
            t(w.stopped_ms),
            n(w.earned),
        );
    }
    Ok(csv("workers.csv", out))
}

/// `GET /admin/votes.csv`: every answer, counted or discarded (the engine
/// is locked one ballot at a time).
pub(crate) async fn votes_csv(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    admin_only(&app, &h)?;
    let app = Arc::clone(&app);
    let body = tokio::task::spawn_blocking(move || {
        let ballots = app.engine().file.campaign.scheduler().logs().len();
        let mut out = String::from(VOTES_CSV_HEADER);
        for k in 1..=ballots {
            out.push_str(&app.engine().votes_csv(k));
        }
        out
    })
    .await
    .map_err(|_| AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "the download failed"))?;
    Ok(csv("votes.csv", body))
}

/// `GET /admin/status.json[?top=K|all]`.
pub(crate) async fn json(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Reply {
    if super::auth::admin_auth(&app, &h).is_none() {
        return Err(admin_refused(true));
    }
    let top = match q.get("top").map(String::as_str) {
        None => Some(100),
        Some("all") => None,
        Some(t) => Some(t.parse::<usize>().map_err(|_| {
            AppError::new(StatusCode::BAD_REQUEST, "top is not a number or all")
                .json_if(true, "top: expected a number or all")
        })?),
    };
    // Written straight from the typed status (no JSON tree in between: at
    // N = 10^5 with the whole ranking, a tree of 10^5 objects per request).
    let status = dashboard(&app, top).await?;
    Ok(json_response(StatusCode::OK, &status))
}

/// The dashboard's content, from the engine's figures (on a blocking
/// thread: the agreement, when due, and the ranking after a close take
/// O(tasks) and O(N log N) under the engine's lock; the Bradley–Terry fit,
/// when due, runs on a thread of its own, outside it, and the request
/// waits for it at most [`FIT_WAIT_MS`]).
async fn dashboard(app: &Arc<App>, top: Option<usize>) -> Result<Status, AppError> {
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || {
        let now = now_ms();
        // The Bradley–Terry fit, when due, outside the lock: answers go on
        // meanwhile (O(votes) copy under it, the fit without it).
        let job = app.engine().fit_due(now);
        if let Some(job) = job {
            let (done, finished) = std::sync::mpsc::channel::<()>();
            let fitter = Arc::clone(&app);
            let started = std::thread::Builder::new()
                .name("acm-fit".into())
                .spawn(move || {
                    let fitted = job.run(now);
                    fitter.engine().fit_done(fitted);
                    let _ = done.send(());
                });
            match started {
                Ok(_) => {
                    let _ = finished.recv_timeout(Duration::from_millis(FIT_WAIT_MS));
                }
                Err(_) => app.engine().fit_abandoned(),
            }
        }
        app.engine().status(top, now)
    })
    .await
    .map_err(|_| AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "the dashboard failed"))
}

/// An admin action's result, once committed: its JSON, or back to the
/// dashboard with a notice.
async fn acted(
    app: &App,
    as_json: bool,
    result: Result<Value, String>,
    ack: super::Ack,
    notice: &str,
) -> Reply {
    app.committed(ack).await?;
    outcome(as_json, result, notice)
}

fn outcome(as_json: bool, result: Result<Value, String>, notice: &str) -> Reply {
    match result {
        Ok(v) if as_json => Ok(json_response(StatusCode::OK, &v)),
        Ok(_) => Ok(see_other(&format!("/admin?done={notice}"))),
        Err(m) => Err(AppError::new(StatusCode::CONFLICT, m.clone())
            .page("Not done", &m, Some(("/admin", "Back to the dashboard")))
            .json_if(as_json, m)),
    }
}

/// `POST /admin/close`: close the open ballot now, the comparisons without
/// a vote withdrawn.
pub(crate) async fn close(
    State(app): State<Arc<App>>,
    AdminForm(_, as_json): AdminForm<CsrfForm>,
) -> Reply {
    if app.advancing.swap(true, Ordering::SeqCst) {
        return outcome(
            as_json,
            Err("the ballot is already being closed".into()),
            "",
        );
    }
    let (result, ack) = app.run(|e| {
        let k = e.file.campaign.open_ballot_number();
        if let Some(check) = e.close_check()
            && !check.can_withdraw()
        {
            return Err(cannot_close(e, &check));
        }
        e.advance(Unvoted::Withdraw, now_ms()).map(|()| {
            json!({"closed": k, "open": e.file.campaign.open_ballot_number(),
                   "finished": e.file.campaign.scheduler().phase() == Phase::Finished})
        })
    });
    app.advancing.store(false, Ordering::SeqCst);
    acted(&app, as_json, result, ack, "closed").await
}

/// Why the open ballot cannot be closed now, and the choices (those of the
/// file workflow's `close --unvoted`).
pub(crate) fn cannot_close(e: &Engine, k: &CloseCheck) -> String {
    let n = k.unvoted_items.len();
    let names: Vec<&str> = k
        .unvoted_items
        .iter()
        .take(EXAMPLES)
        .map(|&i| e.file.thing(i).0)
        .collect();
    format!(
        "ballot {} cannot be closed now: {n} of its {} items {} no vote yet ({}{}), and closing \
         now (withdrawing the {} of {} comparisons without a vote) needs a vote for every item; \
         either wait: the ballot closes by itself once every comparison has its vote (as acm \
         campaign close --unvoted reject), or close now once every item has a vote (as \
         --unvoted withdraw)",
        k.ballot,
        k.items,
        if n == 1 { "has" } else { "have" },
        names.join(", "),
        if n > names.len() { ", …" } else { "" },
        k.without_vote,
        k.comparisons,
    )
}

/// `POST /admin/exclude`: exclude a worker now.
pub(crate) async fn exclude(
    State(app): State<Arc<App>>,
    AdminForm(form, as_json): AdminForm<forms::Exclude>,
) -> Reply {
    let name = form.worker.unwrap_or_default();
    let (result, ack) = app.run(|e| {
        let Some(w) = e.worker_id(&name) else {
            return Err(format!(
                "no worker {:?} came through this server",
                name.chars().take(60).collect::<String>()
            ));
        };
        if e.file.campaign.open_ballot_number().is_none() {
            return Err("no ballot is open".to_owned());
        }
        match e.exclude(w, "excluded by the researcher", now_ms()) {
            Some(ex) => Ok(json!({"excluded": ex.worker, "discarded": ex.discarded})),
            None => Err(format!(
                "worker {name:?} is excluded already or has not answered"
            )),
        }
    });
    acted(&app, as_json, result, ack, "excluded").await
}

/// `POST /admin/invite`: invitation links, for names or a count.
pub(crate) async fn invite(
    State(app): State<Arc<App>>,
    AdminForm(form, as_json): AdminForm<forms::Invite>,
) -> Reply {
    let have = app.engine().invitations.len();
    let names = match parse::invitation_names(form.names.as_deref(), form.count.as_deref(), have) {
        Ok(n) => n,
        Err(m) => return outcome(as_json, Err(m), ""),
    };
    let (made, ack) = app.run(|e| e.invite(&names, now_ms()));
    let list: Vec<Value> = made
        .iter()
        .map(|(t, n)| json!({"worker": n, "path": format!("/invite/{t}")}))
        .collect();
    acted(
        &app,
        as_json,
        Ok(json!({"invitations": list})),
        ack,
        "invited",
    )
    .await
}
