//! The annotator's pages: the study URL and invitation links, the
//! instructions, the task, the answer, stopping, the end screen.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::{AnnotatorForm, CsrfForm, session, session_cookie, session_of};
use super::error::{html, json_response, see_other};
use super::{App, AppError, wants_json};
use crate::engine::{Accepted, Done, Next, Refusal};
use crate::pages::{self, Shown};
use crate::parse::{self, BadId, forms};
use crate::store::now_ms;

type Reply = Result<Response, AppError>;

/// Starts (or resumes) a session for `name` and shows the instructions.
async fn enter(app: &Arc<App>, h: &HeaderMap, name: &str, source: &str, params: Value) -> Reply {
    let existing = session_of(app, h);
    let ((token, csrf, started, fresh), ack) = app.run(|e| {
        let now = now_ms();
        let w = e.worker(name, source, &params, now);
        match existing {
            Some(s) if s.worker == w => (s.token, s.csrf, s.started, false),
            _ => {
                let (t, c) = e.new_session(w, now);
                (t, c, false, true)
            }
        }
    });
    app.committed(ack).await?;
    let mut res = if started {
        see_other("/task")
    } else {
        let quota = app.engine().policy.quota;
        html(
            StatusCode::OK,
            pages::instructions(&app.page, &csrf, quota, false),
        )
    };
    if fresh && let Ok(v) = HeaderValue::from_str(&session_cookie(app, &token)) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(res)
}

/// `GET /?PROLIFIC_PID=…`: the study URL (the participant id read from the
/// raw query as bytes), or a return by the session's cookie.
pub(crate) async fn entry(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Reply {
    let raw = raw.unwrap_or_default();
    let q = parse::query_pairs(&raw);
    let found = app
        .identity
        .worker_params
        .iter()
        .find_map(|p| parse::first(&q, p).map(|v| (p.clone(), v)));
    let Some((param, raw_id)) = found else {
        return match session_of(&app, &h) {
            Some(s) => {
                let name = app.engine().worker_name(s.worker).to_owned();
                enter(&app, &h, &name, "session", Value::Null).await
            }
            None => Err(AppError::new(StatusCode::BAD_REQUEST, "no participant id in the URL").page(
                "This link is incomplete",
                "The link carries no participant id. Open the study from the platform that sent you \
                 (Prolific, MTurk) or from your invitation.",
                None,
            )),
        };
    };
    if app.identity.invitations_only {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "participant ids from the URL are not accepted (invitations only)",
        )
        .page(
            "An invitation is needed",
            "This study is open to invited annotators only: use the link of your invitation.",
            None,
        ));
    }
    let id = parse::participant_id(raw_id).map_err(bad_id)?;
    let mut params = serde_json::Map::new();
    for p in &app.identity.record_params {
        if let Some(v) = parse::first(&q, p) {
            let v = String::from_utf8_lossy(v);
            params.insert(p.clone(), Value::String(v.chars().take(200).collect()));
        }
    }
    if parse::first(&q, "assignmentId").is_some_and(|a| a == b"ASSIGNMENT_ID_NOT_AVAILABLE") {
        // MTurk's preview: the instructions, no session, no task.
        let quota = app.engine().policy.quota;
        return Ok(html(
            StatusCode::OK,
            pages::instructions(&app.page, "", quota, true),
        ));
    }
    if !app.engine().knows(&id) {
        let wait = app
            .arrivals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take(now_ms());
        if let Err(seconds) = wait {
            return Err(AppError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many new participants at once",
            )
            .html(pages::busy(seconds, &format!("/?{raw}")))
            .retry_after(seconds));
        }
    }
    enter(&app, &h, &id, &param, Value::Object(params)).await
}

/// A participant id refused: its reason logged, explained on the page.
fn bad_id(why: BadId) -> AppError {
    AppError::new(
        StatusCode::BAD_REQUEST,
        format!("malformed worker id in the URL: {}", why.reason()),
    )
    .page(
        "This link is not valid",
        &format!(
            "{} Open the study again from where you found it.",
            why.explain()
        ),
        None,
    )
}

/// `GET /invite/{token}`.
pub(crate) async fn invite(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    Path(token): Path<String>,
) -> Reply {
    let name = app.engine().invitation(&token).map(str::to_owned);
    match name {
        Some(n) => enter(&app, &h, &n, "invitation", Value::Null).await,
        None => Err(
            AppError::new(StatusCode::NOT_FOUND, "unknown invitation token").page(
                "Unknown invitation",
                "This invitation link is not valid. Check that you copied it whole.",
                None,
            ),
        ),
    }
}

/// `POST /start`: the instructions are read.
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    AnnotatorForm(_, s): AnnotatorForm<CsrfForm>,
) -> Reply {
    let ((), ack) = app.run(|e| e.start_session(&s.token));
    app.committed(ack).await?;
    Ok(see_other("/task"))
}

/// `GET /task`: the worker's leased task, a new one, "wait", or the end.
pub(crate) async fn task(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    let as_json = wants_json(&h);
    let s = session(&app, &h)?;
    let w = s.worker;
    if app.advancing.load(Ordering::SeqCst) {
        // The next ballot is being opened: do not wait for the lock.
        return Ok(wait_response(&app, as_json, &s.csrf, true, 0));
    }
    let ((next, texts, quota, partial), ack) = app.run(|e| {
        let n = e.next(w, now_ms());
        let texts = match &n {
            Next::Task { task, .. } => e.file.campaign.task(*task).map(|v| {
                (
                    e.file.task_label(*task),
                    e.file.thing(v.first).1.to_owned(),
                    e.file.thing(v.second).1.to_owned(),
                )
            }),
            _ => None,
        };
        (n, texts, e.policy.quota, e.stopped_early(w))
    });
    // The lease goes to the store with the next group commit, without
    // waiting for it: a lease lost in a crash only makes its worker's
    // answer be refused (it was never acknowledged), and the task returns
    // to the pool.
    drop(ack);
    Ok(match next {
        Next::Task {
            answered,
            expires_ms,
            ..
        } => {
            let (label, first, second) = texts.unwrap_or_default();
            if as_json {
                return Ok(json_response(
                    StatusCode::OK,
                    &json!({
                        "state": "task", "task": label, "first": first, "second": second,
                        "question": app.page.question, "tie": app.page.tie_label,
                        "answered": answered, "quota": quota, "expires_ms": expires_ms,
                        "csrf": s.csrf,
                    }),
                ));
            }
            let shown = Shown {
                label,
                first: &first,
                second: &second,
                answered,
                quota,
                lease_seconds: expires_ms.saturating_sub(now_ms()).div_ceil(1000),
            };
            html(StatusCode::OK, pages::task(&app.page, &s.csrf, &shown))
        }
        Next::Wait {
            transition,
            answered,
        } => wait_response(&app, as_json, &s.csrf, transition, answered),
        Next::Done { why, answered } => done_response(&app, as_json, why, answered, partial),
    })
}

fn wait_response(
    app: &App,
    as_json: bool,
    csrf: &str,
    transition: bool,
    answered: usize,
) -> Response {
    if as_json {
        return json_response(
            StatusCode::OK,
            &json!({"state": "wait", "transition": transition, "answered": answered, "retry_after_s": 5}),
        );
    }
    let quota = app.engine().policy.quota;
    let mut res = html(
        StatusCode::OK,
        pages::wait(&app.page, csrf, transition, answered, quota),
    );
    res.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    res
}

fn done_response(app: &App, as_json: bool, why: Done, answered: usize, partial: bool) -> Response {
    if as_json {
        let why = match why {
            Done::Quota => "quota",
            Done::Finished => "finished",
            Done::Excluded | Done::Stopped => "stopped",
        };
        return json_response(
            StatusCode::OK,
            &json!({
                "state": "done", "why": why, "answered": answered, "partial": partial,
                "code": pages::completion_code(&app.page, partial),
                "url": pages::completion_url(&app.page, partial),
            }),
        );
    }
    html(StatusCode::OK, pages::done(&app.page, answered, partial))
}

/// `POST /answer`: the worker's answer to their task.
pub(crate) async fn answer(
    State(app): State<Arc<App>>,
    h: HeaderMap,
    AnnotatorForm(form, s): AnnotatorForm<forms::Answer>,
) -> Reply {
    let as_json = wants_json(&h);
    let w = s.worker;
    let name = app.engine().worker_name(w).to_owned();
    let bad = |reason: String| {
        AppError::new(StatusCode::BAD_REQUEST, reason.clone())
            .worker(name.clone())
            .page(
                "This answer was not accepted",
                &reason,
                Some(("/task", "Go on")),
            )
            .reason_as_json_if(as_json)
    };
    let vote = parse::choice(form.choice.as_deref(), app.page.tie_label.is_some()).map_err(bad)?;
    let label = form.task.ok_or_else(|| bad("no task given".into()))?;
    let id = app
        .engine()
        .file
        .parse_task(&label)
        .map_err(|m| bad(m.to_string()))?;
    let (result, ack) = app.run(|e| e.answer(w, id, vote, now_ms()));
    match result {
        Ok(outcome) => {
            app.committed(ack).await?;
            if as_json {
                let o = match outcome {
                    Accepted::Recorded => "recorded",
                    Accepted::Again => "already recorded",
                };
                return Ok(json_response(StatusCode::OK, &json!({"outcome": o})));
            }
            Ok(see_other("/task"))
        }
        Err(refusal) => {
            let status = match refusal {
                Refusal::UnknownTask => StatusCode::NOT_FOUND,
                Refusal::Excluded => StatusCode::FORBIDDEN,
                _ => StatusCode::CONFLICT,
            };
            let text = match refusal {
                Refusal::BallotClosed => {
                    "This round has ended: your answer came too late to count."
                }
                Refusal::NotLeased => "This pair was given to someone else after a long pause.",
                Refusal::Changed => "You already answered this pair.",
                _ => "This answer was not accepted.",
            };
            Err(AppError::new(status, refusal.reason())
                .worker(name)
                .page("Not recorded", text, Some(("/task", "Go on")))
                .reason_as_json_if(as_json))
        }
    }
}

/// `GET /finish`: "Stop the study now?", asked once.
pub(crate) async fn confirm_finish(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    let s = session(&app, &h)?;
    let (answered, quota) = {
        let e = app.engine();
        (e.answered(s.worker), e.policy.quota)
    };
    Ok(html(
        StatusCode::OK,
        pages::confirm_stop(
            &app.page,
            &s.csrf,
            answered,
            quota,
            app.page.partial_completion_code.is_some(),
        ),
    ))
}

/// `POST /finish`: "I want to stop here".
pub(crate) async fn finish(
    State(app): State<Arc<App>>,
    AnnotatorForm(_, s): AnnotatorForm<CsrfForm>,
) -> Reply {
    let (_, ack) = app.run(|e| e.finish(s.worker, now_ms()));
    app.committed(ack).await?;
    Ok(see_other("/done"))
}

/// `GET /done`: the end screen, for a worker at the end.
pub(crate) async fn done(State(app): State<Arc<App>>, h: HeaderMap) -> Reply {
    let w = session(&app, &h)?.worker;
    let (state, answered, partial) = {
        let e = app.engine();
        (e.done_state(w), e.answered(w), e.stopped_early(w))
    };
    Ok(match state {
        Some(why) => done_response(&app, wants_json(&h), why, answered, partial),
        // Not at the end: no code for work not done.
        None => see_other("/task"),
    })
}
