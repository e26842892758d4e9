//! The researcher's routes: the dashboard (a page, and JSON), closing the
//! open ballot now, excluding a worker, invitation links.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use adaptive_comp_metrics::ballot::{Phase, Unvoted};
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::{ADMIN_COOKIE, CsrfForm, WithCsrf, admin_form, admin_refused, with_csrf};
use super::error::{html, json_response, see_other};
use super::{App, AppError};
use crate::engine::{CloseCheck, Engine};
use crate::parse;
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
    Ok(html(
        StatusCode::OK,
        crate::pages::dashboard(&status, &app.admin_csrf, notice),
    ))
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
    let status = dashboard(&app, top).await?;
    Ok(json_response(
        StatusCode::OK,
        &serde_json::to_value(&status).unwrap_or(Value::Null),
    ))
}

/// The dashboard's content, from the engine's figures (on a blocking
/// thread: the agreement, when due, and the ranking after a close take
/// O(tasks) and O(N log N) under the engine's lock).
async fn dashboard(app: &Arc<App>, top: Option<usize>) -> Result<Status, AppError> {
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || app.engine().status(top, now_ms()))
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
    h: HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Reply {
    let (_, as_json) = admin_form(&app, &h, form)?;
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

#[derive(Debug, serde::Deserialize)]
pub(crate) struct ExcludeForm {
    csrf: Option<String>,
    worker: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct InviteForm {
    csrf: Option<String>,
    names: Option<String>,
    count: Option<String>,
}
with_csrf!(ExcludeForm, InviteForm);

/// `POST /admin/exclude`: exclude a worker now.
pub(crate) async fn exclude(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    form: Result<Form<ExcludeForm>, FormRejection>,
) -> Reply {
    let (form, as_json) = admin_form(&app, &h, form)?;
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
    h: HeaderMap,
    form: Result<Form<InviteForm>, FormRejection>,
) -> Reply {
    let (form, as_json) = admin_form(&app, &h, form)?;
    let mut names: Vec<String> = form
        .names
        .as_deref()
        .unwrap_or("")
        .split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(c) = form.count.as_deref().filter(|c| !c.trim().is_empty()) {
        match c.trim().parse::<usize>() {
            Ok(n) if n <= 10_000 => {
                let have = app.engine().invitations.len();
                names.extend((have + 1..=have + n).map(|i| format!("invitee-{i}")));
            }
            _ => {
                return outcome(
                    as_json,
                    Err("count: expected a number up to 10000".into()),
                    "",
                );
            }
        }
    }
    if let Some(bad) = names.iter().find(|n| parse::invitation_name(n).is_err()) {
        let m = format!(
            "invalid name {:?}",
            bad.chars().take(60).collect::<String>()
        );
        return outcome(as_json, Err(m), "");
    }
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
