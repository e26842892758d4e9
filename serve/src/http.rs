//! The routes.
//!
//! ```text
//! GET  /?PROLIFIC_PID=…&STUDY_ID=…&SESSION_ID=…   the study URL (names configurable; MTurk's workerId, assignmentId)
//! GET  /invite/{token}                           an invitation link
//! POST /start                                    instructions read
//! GET  /task                                     the next pair (HTML, or JSON with Accept: application/json)
//! POST /answer   task, choice, csrf              an answer; 303 to /task (or JSON)
//! POST /finish   csrf                            stop now: the end screen
//! GET  /done                                     the end screen
//! GET  /assets/page.css, /assets/page.js         compiled in
//! GET  /healthz                                  "ok"   (GET /favicon.ico: 204, no icon)
//! GET  /admin?token=…   GET /admin               the dashboard (token once, then a cookie; or Authorization: Bearer)
//! GET  /admin/status.json[?top=K|all]            the same as JSON
//! POST /admin/close      csrf                    close the open ballot now (unanswered comparisons withdrawn)
//! POST /admin/exclude    worker, csrf            exclude a worker
//! POST /admin/invite     names | count, csrf     invitation links
//! ```
//!
//! Every refusal (4xx, 5xx) is logged with its reason.

// A refusal is the ready response (128 bytes), returned at once by the handler.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use adaptive_comp_metrics::ballot::{Phase, Unvoted, Vote};
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Form, Path, Query, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next as MwNext};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::engine::{Accepted, Done, Engine, LogLine, Next, Refusal};
use crate::log::Logger;
use crate::pages::{self, Shown};
use crate::parse::{self, BadId};
use crate::state::PageSettings;
use crate::store::{Writer, now_ms};

/// Compares two byte strings in time that depends on their lengths only.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::ct_eq;
/// assert!(ct_eq(b"secret", b"secret"));
/// assert!(!ct_eq(b"secret", b"secreT"));
/// assert!(!ct_eq(b"secret", b"secret!"));
/// ```
#[must_use]
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    std::hint::black_box(diff) == 0
}

/// The largest request body an annotator's form may send.
pub(crate) const BODY_LIMIT: usize = 4 * 1024;
/// The largest request body of an admin form.
pub(crate) const ADMIN_BODY_LIMIT: usize = 64 * 1024;

const SESSION_COOKIE: &str = "acm_session";
const ADMIN_COOKIE: &str = "acm_admin";

/// How annotators identify themselves.
#[derive(Debug, Clone)]
pub(crate) struct Identity {
    pub(crate) worker_params: Vec<String>,
    pub(crate) record_params: Vec<String>,
    pub(crate) invitations_only: bool,
}

/// The server's shared state.
pub(crate) struct App {
    pub(crate) engine: Mutex<Engine>,
    pub(crate) writer: Writer,
    pub(crate) advancing: AtomicBool,
    pub(crate) admin_token: String,
    pub(crate) admin_csrf: String,
    pub(crate) page: PageSettings,
    pub(crate) identity: Identity,
    pub(crate) secure_cookies: bool,
    pub(crate) frame_ancestors: String,
    pub(crate) log: Logger,
    pub(crate) failed: AtomicBool,
    pub(crate) fatal: tokio::sync::Notify,
    pub(crate) arrivals: Mutex<Arrivals>,
}

/// The limit on new participant ids: a token bucket of `per_minute`
/// tokens, refilled at `per_minute` a minute (0: no limit). Made-up ids
/// would otherwise each make a worker, and each could hold a lease.
#[derive(Debug)]
pub(crate) struct Arrivals {
    per_minute: u32,
    tokens: f64,
    at_ms: u64,
}

impl Arrivals {
    pub(crate) fn new(per_minute: u32, now: u64) -> Self {
        Self {
            per_minute,
            tokens: f64::from(per_minute),
            at_ms: now,
        }
    }

    /// Takes a token, or says in how many seconds one is there.
    pub(crate) fn take(&mut self, now: u64) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let cap = f64::from(self.per_minute);
        let per_ms = cap / 60_000.0;
        self.tokens = (self.tokens + now.saturating_sub(self.at_ms) as f64 * per_ms).min(cap);
        self.at_ms = self.at_ms.max(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err((((1.0 - self.tokens) / per_ms) / 1000.0).ceil().max(1.0) as u64)
        }
    }
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").finish_non_exhaustive()
    }
}

type Ack = tokio::sync::oneshot::Receiver<Result<(), String>>;

impl App {
    /// Runs `f` on the engine; queues its operations for the store (in the
    /// engine's order) and writes its log lines. The receiver tells when
    /// the operations are committed.
    pub(crate) fn run<R>(self: &Arc<Self>, f: impl FnOnce(&mut Engine) -> R) -> (R, Ack) {
        let (r, ack, logs, transition) = {
            let mut e = self
                .engine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let r = f(&mut e);
            let ops = e.take_ops();
            if !ops.is_empty() {
                self.writer.push(ops);
            }
            let ack = self.writer.flushed();
            (r, ack, e.take_logs(), e.transition)
        };
        self.log.all(&logs);
        if transition {
            self.spawn_advance();
        }
        (r, ack)
    }

    /// Opens the next ballot in the background once the open one has all
    /// its votes; requests meanwhile get the "come back" page.
    pub(crate) fn spawn_advance(self: &Arc<Self>) {
        if self.advancing.swap(true, Ordering::SeqCst) {
            return;
        }
        let app = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let (r, ack) = app.run(|e| {
                if e.transition {
                    Some(e.advance(Unvoted::Reject, now_ms()))
                } else {
                    None
                }
            });
            if let Some(Err(msg)) = r {
                app.log.write(&LogLine {
                    event: "ballot_not_closed",
                    fields: vec![("reason", json!(msg))],
                    message: format!("the open ballot could not be closed: {msg}"),
                });
            }
            if let Err(e) = ack
                .blocking_recv()
                .unwrap_or(Err("the store stopped".into()))
            {
                app.store_failed(&e);
            }
            app.advancing.store(false, Ordering::SeqCst);
        });
    }

    fn store_failed(&self, e: &str) {
        if !self.failed.swap(true, Ordering::SeqCst) {
            self.log.write(&LogLine {
                event: "store_failed",
                fields: vec![("reason", json!(e))],
                message: format!("the store failed, the server stops: {e}"),
            });
            self.fatal.notify_waiters();
            self.fatal.notify_one();
        }
    }

    /// Waits until the operations are committed.
    async fn committed(&self, ack: Ack) -> Result<(), Response> {
        match ack.await.unwrap_or(Err("the store stopped".into())) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.store_failed(&e);
                Err(plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server cannot store answers now",
                ))
            }
        }
    }

    fn refuse(&self, req: &ReqInfo, status: StatusCode, reason: &str, worker: Option<&str>) {
        let mut fields = vec![
            ("status", json!(status.as_u16())),
            ("method", json!(req.method)),
            ("path", json!(req.path)),
            ("reason", json!(reason)),
            ("remote", json!(req.remote)),
        ];
        if let Some(w) = worker {
            fields.push(("worker", json!(w)));
        }
        self.log.write(&LogLine {
            event: "refused",
            fields,
            message: format!(
                "{} {} {} refused ({}){}: {reason}",
                req.remote,
                req.method,
                req.path,
                status.as_u16(),
                worker.map_or_else(String::new, |w| format!(" for worker {w}"))
            ),
        });
    }
}

/// What the log says about a request.
#[derive(Debug, Clone)]
pub(crate) struct ReqInfo {
    method: String,
    path: String,
    remote: String,
}

fn info(method: &Method, path: &str, remote: SocketAddr) -> ReqInfo {
    ReqInfo {
        method: method.to_string(),
        path: path.chars().take(120).collect(),
        remote: remote.to_string(),
    }
}

fn plain(status: StatusCode, text: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{text}\n"),
    )
        .into_response()
}

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

fn json_response(status: StatusCode, v: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}

fn see_other(to: &str) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, to.to_owned())]).into_response()
}

fn wants_json(h: &HeaderMap) -> bool {
    h.get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

fn cookie<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    parse::cookie(
        h.get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok()),
        name,
    )
}

/// [`parse::cross_site`] on a request's headers.
fn cross_site(h: &HeaderMap) -> Option<&'static str> {
    let get = |name: &str| h.get(name).and_then(|v| v.to_str().ok());
    parse::cross_site(get("sec-fetch-site"), get("origin"), get("host"))
}

/// The largest request head (request line and headers), in bytes; past it,
/// 431 and the connection is closed.
pub(crate) const HEAD_LIMIT: usize = 16 * 1024;
/// The most headers a request may have.
const HEADERS_LIMIT: usize = 64;
/// Time a client has to send a request head (also how long an idle
/// keep-alive connection stays open).
const HEAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Serves HTTP/1 on `listener` until `shutdown`, then lets the requests
/// under way finish (at most 30 s). Requests refused before routing (a
/// head over [`HEAD_LIMIT`], a malformed request) are answered by hyper
/// and logged here.
pub(crate) async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    use tower::ServiceExt as _;
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_header_size(HEAD_LIMIT)
        .max_headers(HEADERS_LIMIT);
    tokio::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(x) => x,
                Err(_) => {
                    // Out of file descriptors, a connection reset before
                    // it was accepted: go on after a pause.
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(remote));
            router.clone().oneshot(req.map(axum::body::Body::new))
        });
        let conn =
            graceful.watch(builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service));
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                app.connection_failed(remote, &e);
            }
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(std::time::Duration::from_secs(30)) => {}
    }
    Ok(())
}

impl App {
    /// Logs a request hyper refused before routing (it answered 431 or
    /// 400 itself); a connection closed or timed out while idle is not a
    /// refusal.
    fn connection_failed(&self, remote: SocketAddr, e: &hyper::Error) {
        let (status, reason) = if e.is_parse_too_large() {
            (
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "request head over the size limit",
            )
        } else if e.is_parse() {
            (StatusCode::BAD_REQUEST, "malformed request")
        } else {
            return;
        };
        let r = ReqInfo {
            method: "-".into(),
            path: "-".into(),
            remote: remote.to_string(),
        };
        self.refuse(&r, status, reason, None);
    }
}

/// The routes of a server.
pub(crate) fn router(app: Arc<App>) -> Router {
    let annotator = Router::new()
        .route("/", get(entry))
        .route("/invite/{token}", get(invite))
        .route("/start", post(start))
        .route("/task", get(task))
        .route("/answer", post(answer))
        .route("/finish", post(finish))
        .route("/done", get(done))
        .route("/assets/page.css", get(css))
        .route("/assets/page.js", get(js))
        .route("/healthz", get(healthz))
        .route("/favicon.ico", get(no_icon))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    let admin = Router::new()
        .route("/admin", get(admin_page))
        .route("/admin/status.json", get(admin_json))
        .route("/admin/close", post(admin_close))
        .route("/admin/exclude", post(admin_exclude))
        .route("/admin/invite", post(admin_invite))
        .layer(DefaultBodyLimit::max(ADMIN_BODY_LIMIT));
    annotator
        .merge(admin)
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

/// Headers on every response; the failed-store stop.
async fn guard(State(app): State<Arc<App>>, req: Request, next: MwNext) -> Response {
    if app.failed.load(Ordering::SeqCst) {
        return plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server cannot store answers now",
        );
    }
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let csp = format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
         form-action 'self'; base-uri 'none'; frame-ancestors {}",
        app.frame_ancestors
    );
    if let Ok(v) = HeaderValue::from_str(&csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

async fn not_found(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    uri: axum::http::Uri,
) -> Response {
    let r = info(&method, uri.path(), remote);
    app.refuse(&r, StatusCode::NOT_FOUND, "no such page", None);
    html(
        StatusCode::NOT_FOUND,
        pages::message("Not found", "There is no such page.", None),
    )
}

async fn css() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        pages::CSS,
    )
        .into_response()
}

async fn js() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        pages::JS,
    )
        .into_response()
}

async fn no_icon() -> Response {
    (
        StatusCode::NO_CONTENT,
        [(header::CACHE_CONTROL, "public, max-age=86400")],
    )
        .into_response()
}

async fn healthz() -> Response {
    plain(StatusCode::OK, "ok")
}

fn session_cookie(app: &App, token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax{}",
        if app.secure_cookies { "; Secure" } else { "" }
    )
}

/// The session of a request: (token, worker, csrf, started).
fn session_of(app: &App, h: &HeaderMap) -> Option<(String, u32, String, bool)> {
    let token = cookie(h, SESSION_COOKIE)?;
    let e = app
        .engine
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let s = e.sessions.get(token)?;
    Some((token.to_owned(), s.worker, s.csrf.clone(), s.started))
}

/// Starts (or resumes) a session for `name` and shows the instructions.
async fn enter(
    app: &Arc<App>,
    h: &HeaderMap,
    name: &str,
    source: &str,
    params: Value,
    preview: bool,
) -> Response {
    let existing = session_of(app, h);
    let ((token, csrf, started, fresh), ack) = app.run(|e| {
        let now = now_ms();
        let w = e.worker(name, source, &params, now);
        match existing {
            Some((t, sw, c, st)) if sw == w => (t, c, st, false),
            _ => {
                let (t, c) = e.new_session(w, now);
                (t, c, false, true)
            }
        }
    });
    if let Err(r) = app.committed(ack).await {
        return r;
    }
    let mut res = if started && !preview {
        see_other("/task")
    } else {
        let quota = app
            .engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .policy
            .quota;
        html(
            StatusCode::OK,
            pages::instructions(&app.page, &csrf, quota, preview),
        )
    };
    if fresh && let Ok(v) = HeaderValue::from_str(&session_cookie(app, &token)) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}

async fn entry(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = info(&method, "/", remote);
    let q = parse::query_pairs(raw.as_deref().unwrap_or(""));
    let found = app
        .identity
        .worker_params
        .iter()
        .find_map(|p| parse::first(&q, p).map(|v| (p.clone(), v)));
    match found {
        Some((param, raw_id)) if !app.identity.invitations_only => {
            let id = match parse::participant_id(raw_id) {
                Ok(id) => id,
                Err(why) => return bad_id(&app, &r, why),
            };
            let mut params = serde_json::Map::new();
            for p in &app.identity.record_params {
                if let Some(v) = parse::first(&q, p) {
                    let v = String::from_utf8_lossy(v);
                    params.insert(p.clone(), Value::String(v.chars().take(200).collect()));
                }
            }
            let preview = parse::first(&q, "assignmentId")
                .is_some_and(|a| a == b"ASSIGNMENT_ID_NOT_AVAILABLE");
            if preview {
                // MTurk's preview: the instructions, no session, no task.
                let quota = app
                    .engine
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .policy
                    .quota;
                return html(
                    StatusCode::OK,
                    pages::instructions(&app.page, "", quota, true),
                );
            }
            let known = app
                .engine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .knows(&id);
            if !known {
                let wait = app
                    .arrivals
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take(now_ms());
                if let Err(seconds) = wait {
                    return too_many(&app, &r, seconds, raw.as_deref().unwrap_or(""));
                }
            }
            enter(&app, &h, &id, &param, Value::Object(params), false).await
        }
        Some(_) => {
            app.refuse(
                &r,
                StatusCode::FORBIDDEN,
                "participant ids from the URL are not accepted (invitations only)",
                None,
            );
            html(
                StatusCode::FORBIDDEN,
                pages::message(
                    "An invitation is needed",
                    "This study is open to invited annotators only: use the link of your invitation.",
                    None,
                ),
            )
        }
        None => match session_of(&app, &h) {
            Some((_, w, _, _)) => {
                let name = app
                    .engine
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .worker_name(w)
                    .to_owned();
                enter(&app, &h, &name, "session", Value::Null, false).await
            }
            None => {
                app.refuse(
                    &r,
                    StatusCode::BAD_REQUEST,
                    "no participant id in the URL",
                    None,
                );
                html(
                    StatusCode::BAD_REQUEST,
                    pages::message(
                        "This link is incomplete",
                        "The link carries no participant id. Open the study from the platform that sent you (Prolific, MTurk) or from your invitation.",
                        None,
                    ),
                )
            }
        },
    }
}

/// A participant id refused: logged with its reason, explained on the page.
fn bad_id(app: &App, r: &ReqInfo, why: BadId) -> Response {
    app.refuse(
        r,
        StatusCode::BAD_REQUEST,
        &format!("malformed worker id in the URL: {}", why.reason()),
        None,
    );
    html(
        StatusCode::BAD_REQUEST,
        pages::message(
            "This link is not valid",
            &format!(
                "{} Open the study again from where you found it.",
                why.explain()
            ),
            None,
        ),
    )
}

/// Too many new participant ids at once: come back in `seconds` (the page
/// reloads itself).
fn too_many(app: &App, r: &ReqInfo, seconds: u64, query: &str) -> Response {
    app.refuse(
        r,
        StatusCode::TOO_MANY_REQUESTS,
        "too many new participants at once",
        None,
    );
    let mut res = html(
        StatusCode::TOO_MANY_REQUESTS,
        pages::busy(seconds, &format!("/?{query}")),
    );
    if let Ok(v) = HeaderValue::from_str(&seconds.to_string()) {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

async fn invite(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    Path(token): Path<String>,
) -> Response {
    let r = info(&method, "/invite/…", remote);
    let name = app
        .engine
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .invitation(&token)
        .map(str::to_owned);
    match name {
        Some(n) => enter(&app, &h, &n, "invitation", Value::Null, false).await,
        None => {
            app.refuse(&r, StatusCode::NOT_FOUND, "unknown invitation token", None);
            html(
                StatusCode::NOT_FOUND,
                pages::message(
                    "Unknown invitation",
                    "This invitation link is not valid. Check that you copied it whole.",
                    None,
                ),
            )
        }
    }
}

/// A session and its CSRF token checked, for a form post.
fn checked_post(
    app: &App,
    r: &ReqInfo,
    h: &HeaderMap,
    csrf: Option<&str>,
) -> Result<(String, u32), Response> {
    if let Some(why) = cross_site(h) {
        app.refuse(r, StatusCode::FORBIDDEN, why, None);
        return Err(plain(StatusCode::FORBIDDEN, why));
    }
    let Some((token, w, expected, _)) = session_of(app, h) else {
        app.refuse(r, StatusCode::UNAUTHORIZED, "no session", None);
        return Err(no_session());
    };
    let name = worker_name(app, w);
    let ok = csrf.is_some_and(|c| ct_eq(c.as_bytes(), expected.as_bytes()));
    if !ok {
        app.refuse(
            r,
            StatusCode::FORBIDDEN,
            "missing or wrong CSRF token",
            Some(&name),
        );
        return Err(html(
            StatusCode::FORBIDDEN,
            pages::message(
                "This form has expired",
                "Please reload the page and answer again.",
                Some(("/task", "Reload")),
            ),
        ));
    }
    Ok((token, w))
}

fn worker_name(app: &App, w: u32) -> String {
    app.engine
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .worker_name(w)
        .to_owned()
}

fn no_session() -> Response {
    html(
        StatusCode::UNAUTHORIZED,
        pages::message(
            "Your session was not found",
            "Open the study again from the link you were given (cookies must be allowed).",
            None,
        ),
    )
}

fn form_refused(app: &App, r: &ReqInfo, e: &FormRejection) -> Response {
    let status = e.status();
    let reason = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "request body over the size limit".to_owned()
    } else {
        format!(
            "malformed form: {}",
            e.body_text().chars().take(120).collect::<String>()
        )
    };
    app.refuse(r, status, &reason, None);
    plain(status, &reason)
}

/// A form that carries a CSRF token.
trait WithCsrf {
    fn csrf(&self) -> Option<&str>;
}

#[derive(Debug, serde::Deserialize)]
struct CsrfForm {
    csrf: Option<String>,
}

/// An annotator's form: parsed, from a session, with the session's CSRF
/// token; the form, the session token and the worker.
fn annotator_form<T: WithCsrf>(
    app: &App,
    r: &ReqInfo,
    h: &HeaderMap,
    form: Result<Form<T>, FormRejection>,
) -> Result<(T, String, u32), Response> {
    let form = form.map_err(|e| form_refused(app, r, &e))?.0;
    let (token, w) = checked_post(app, r, h, form.csrf())?;
    Ok((form, token, w))
}

/// An admin form: parsed and authenticated; whether to answer JSON.
fn admin_form<T: WithCsrf>(
    app: &App,
    r: &ReqInfo,
    h: &HeaderMap,
    form: Result<Form<T>, FormRejection>,
) -> Result<(T, bool), Response> {
    let form = form.map_err(|e| form_refused(app, r, &e))?.0;
    let as_json = admin_post(app, r, h, form.csrf())?;
    Ok((form, as_json))
}

macro_rules! with_csrf {
    ($($t:ty),*) => {$(
        impl WithCsrf for $t {
            fn csrf(&self) -> Option<&str> {
                self.csrf.as_deref()
            }
        }
    )*};
}
with_csrf!(CsrfForm, AnswerForm, ExcludeForm, InviteForm);

async fn start(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/start", remote);
    let (_, token, _) = match annotator_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
    let ((), ack) = app.run(|e| e.start_session(&token));
    if let Err(res) = app.committed(ack).await {
        return res;
    }
    see_other("/task")
}

async fn task(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
) -> Response {
    let r = info(&method, "/task", remote);
    let as_json = wants_json(&h);
    let Some((_, w, csrf, _)) = session_of(&app, &h) else {
        app.refuse(&r, StatusCode::UNAUTHORIZED, "no session", None);
        return if as_json {
            json_response(StatusCode::UNAUTHORIZED, &json!({"error": "no session"}))
        } else {
            no_session()
        };
    };
    if app.advancing.load(Ordering::SeqCst) {
        // The next ballot is being opened: do not wait for the lock.
        return wait_response(&app, as_json, &csrf, true, 0);
    }
    let (shown, ack) = app.run(|e| {
        let n = e.next(w, now_ms());
        let quota = e.policy.quota;
        let partial = e.stopped_early(w);
        match &n {
            Next::Task { task, .. } => {
                let v = e.file.campaign.task(*task);
                let label = e.file.task_label(*task);
                let (first, second) = v.map_or((String::new(), String::new()), |v| {
                    (
                        e.file.thing(v.first).1.to_owned(),
                        e.file.thing(v.second).1.to_owned(),
                    )
                });
                (n, Some((label, first, second)), quota, partial)
            }
            _ => (n, None, quota, partial),
        }
    });
    // The lease goes to the store with the next group commit, without
    // waiting for it: a lease lost in a crash only makes its worker's
    // answer be refused (it was never acknowledged), and the task returns
    // to the pool.
    drop(ack);
    let (next, texts, quota, partial) = shown;
    match next {
        Next::Task {
            answered,
            expires_ms,
            ..
        } => {
            let (label, first, second) = texts.unwrap_or_default();
            if as_json {
                return json_response(
                    StatusCode::OK,
                    &json!({
                        "state": "task", "task": label, "first": first, "second": second,
                        "question": app.page.question, "tie": app.page.tie_label,
                        "answered": answered, "quota": quota, "expires_ms": expires_ms, "csrf": csrf,
                    }),
                );
            }
            let shown = Shown {
                label,
                first: &first,
                second: &second,
                answered,
                quota,
            };
            html(StatusCode::OK, pages::task(&app.page, &csrf, &shown))
        }
        Next::Wait {
            transition,
            answered,
        } => wait_response(&app, as_json, &csrf, transition, answered),
        Next::Done { why, answered } => done_response(&app, as_json, why, answered, partial),
    }
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
    let quota = app
        .engine
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .policy
        .quota;
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

#[derive(Debug, serde::Deserialize)]
struct AnswerForm {
    csrf: Option<String>,
    task: Option<String>,
    choice: Option<String>,
}

async fn answer(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<AnswerForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/answer", remote);
    let as_json = wants_json(&h);
    let (form, _, w) = match annotator_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
    let name = worker_name(&app, w);
    let bad = |app: &App, reason: String| {
        app.refuse(&r, StatusCode::BAD_REQUEST, &reason, Some(&name));
        if as_json {
            json_response(StatusCode::BAD_REQUEST, &json!({"error": reason}))
        } else {
            html(
                StatusCode::BAD_REQUEST,
                pages::message(
                    "This answer was not accepted",
                    &reason,
                    Some(("/task", "Go on")),
                ),
            )
        }
    };
    let vote = match form.choice.as_deref() {
        Some("first") => Vote::First,
        Some("second") => Vote::Second,
        Some("tie") if app.page.tie_label.is_some() => Vote::Tie,
        Some("tie") => return bad(&app, "this campaign has no tie choice".into()),
        Some(other) => {
            return bad(
                &app,
                format!(
                    "unknown choice {:?}",
                    other.chars().take(20).collect::<String>()
                ),
            );
        }
        None => return bad(&app, "no choice given".into()),
    };
    let Some(label) = form.task else {
        return bad(&app, "no task given".into());
    };
    let parsed = app
        .engine
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .file
        .parse_task(&label);
    let id = match parsed {
        Ok(id) => id,
        Err(m) => return bad(&app, m),
    };
    let (result, ack) = app.run(|e| e.answer(w, id, vote, now_ms()));
    match result {
        Ok(outcome) => {
            if let Err(res) = app.committed(ack).await {
                return res;
            }
            if as_json {
                let o = match outcome {
                    Accepted::Recorded => "recorded",
                    Accepted::Again => "already recorded",
                };
                return json_response(StatusCode::OK, &json!({"outcome": o}));
            }
            see_other("/task")
        }
        Err(refusal) => {
            let status = match refusal {
                Refusal::UnknownTask => StatusCode::NOT_FOUND,
                Refusal::Excluded => StatusCode::FORBIDDEN,
                _ => StatusCode::CONFLICT,
            };
            app.refuse(&r, status, refusal.reason(), Some(&name));
            if as_json {
                return json_response(status, &json!({"error": refusal.reason()}));
            }
            let text = match refusal {
                Refusal::BallotClosed => {
                    "This round has ended: your answer came too late to count."
                }
                Refusal::NotLeased => "This pair was given to someone else after a long pause.",
                Refusal::Changed => "You already answered this pair.",
                _ => "This answer was not accepted.",
            };
            html(
                status,
                pages::message("Not recorded", text, Some(("/task", "Go on"))),
            )
        }
    }
}

async fn finish(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/finish", remote);
    let (_, _, w) = match annotator_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
    let (_, ack) = app.run(|e| e.finish(w, now_ms()));
    if let Err(res) = app.committed(ack).await {
        return res;
    }
    see_other("/done")
}

async fn done(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
) -> Response {
    let r = info(&method, "/done", remote);
    let Some((_, w, _, _)) = session_of(&app, &h) else {
        app.refuse(&r, StatusCode::UNAUTHORIZED, "no session", None);
        return no_session();
    };
    let (state, answered, partial) = {
        let e = app
            .engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (e.done_state(w), e.answered(w), e.stopped_early(w))
    };
    match state {
        Some(why) => done_response(&app, wants_json(&h), why, answered, partial),
        // Not at the end: no code for work not done.
        None => see_other("/task"),
    }
}

// ---------------------------------------------------------------- admin

/// How an admin request proved itself.
#[derive(Debug, PartialEq, Eq)]
enum AdminAuth {
    Bearer,
    Cookie,
}

fn admin_auth(app: &App, h: &HeaderMap) -> Option<AdminAuth> {
    let token = app.admin_token.as_bytes();
    if let Some(b) = h
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return ct_eq(b.trim().as_bytes(), token).then_some(AdminAuth::Bearer);
    }
    let c = cookie(h, ADMIN_COOKIE)?;
    ct_eq(c.as_bytes(), token).then_some(AdminAuth::Cookie)
}

fn admin_refused(app: &App, r: &ReqInfo, as_json: bool) -> Response {
    app.refuse(
        r,
        StatusCode::UNAUTHORIZED,
        "missing or wrong admin token",
        None,
    );
    if as_json {
        json_response(
            StatusCode::UNAUTHORIZED,
            &json!({"error": "admin token required"}),
        )
    } else {
        html(
            StatusCode::UNAUTHORIZED,
            pages::message(
                "Admin token required",
                "Open the dashboard with the link the server printed when it started (…/admin?token=…).",
                None,
            ),
        )
    }
}

async fn admin_page(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let r = info(&method, "/admin", remote);
    if let Some(t) = q.get("token") {
        if !ct_eq(t.as_bytes(), app.admin_token.as_bytes()) {
            return admin_refused(&app, &r, false);
        }
        // The token leaves the address bar: a cookie carries it from now on.
        let mut res = see_other("/admin");
        let c = format!(
            "{ADMIN_COOKIE}={}; Path=/admin; HttpOnly; SameSite=Strict{}",
            app.admin_token,
            if app.secure_cookies { "; Secure" } else { "" }
        );
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().insert(header::SET_COOKIE, v);
        }
        return res;
    }
    if admin_auth(&app, &h).is_none() {
        return admin_refused(&app, &r, false);
    }
    let status = match dashboard(&app, Some(25)).await {
        Ok(s) => s,
        Err(res) => return res,
    };
    let notice = q.get("done").map(String::as_str);
    let status = serde_json::to_value(&status).unwrap_or(Value::Null);
    html(
        StatusCode::OK,
        crate::admin::page(&status, &app.admin_csrf, notice, &app.page),
    )
}

async fn admin_json(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let r = info(&method, "/admin/status.json", remote);
    if admin_auth(&app, &h).is_none() {
        return admin_refused(&app, &r, true);
    }
    let top = match q.get("top").map(String::as_str) {
        None => Some(100),
        Some("all") => None,
        Some(t) => match t.parse::<usize>() {
            Ok(k) => Some(k),
            Err(_) => {
                app.refuse(
                    &r,
                    StatusCode::BAD_REQUEST,
                    "top is not a number or all",
                    None,
                );
                return json_response(
                    StatusCode::BAD_REQUEST,
                    &json!({"error": "top: expected a number or all"}),
                );
            }
        },
    };
    match dashboard(&app, top).await {
        Ok(status) => json_response(
            StatusCode::OK,
            &serde_json::to_value(&status).unwrap_or(Value::Null),
        ),
        Err(res) => res,
    }
}

/// The dashboard's content, from the engine's figures (on a blocking
/// thread: the agreement, when due, and the ranking after a close take
/// O(tasks) and O(N log N) under the engine's lock).
async fn dashboard(app: &Arc<App>, top: Option<usize>) -> Result<crate::status::Status, Response> {
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || {
        app.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .status(top, now_ms())
    })
    .await
    .map_err(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "the dashboard failed"))
}

/// An admin post: authenticated, and with the dashboard's CSRF token when
/// authenticated by cookie.
fn admin_post(app: &App, r: &ReqInfo, h: &HeaderMap, csrf: Option<&str>) -> Result<bool, Response> {
    let as_json = wants_json(h);
    match admin_auth(app, h) {
        None => Err(admin_refused(app, r, as_json)),
        Some(AdminAuth::Bearer) => Ok(true),
        Some(AdminAuth::Cookie) => {
            if let Some(why) = cross_site(h) {
                app.refuse(r, StatusCode::FORBIDDEN, why, None);
                return Err(plain(StatusCode::FORBIDDEN, why));
            }
            if csrf.is_some_and(|c| ct_eq(c.as_bytes(), app.admin_csrf.as_bytes())) {
                Ok(as_json)
            } else {
                app.refuse(
                    r,
                    StatusCode::FORBIDDEN,
                    "missing or wrong CSRF token",
                    None,
                );
                Err(plain(StatusCode::FORBIDDEN, "missing or wrong CSRF token"))
            }
        }
    }
}

/// Waits for the commit, then [`admin_result`].
async fn admin_done(
    app: &App,
    r: &ReqInfo,
    as_json: bool,
    result: Result<Value, String>,
    ack: Ack,
    notice: &str,
) -> Response {
    match app.committed(ack).await {
        Ok(()) => admin_result(app, r, as_json, result, notice),
        Err(res) => res,
    }
}

fn admin_result(
    app: &App,
    r: &ReqInfo,
    as_json: bool,
    result: Result<Value, String>,
    notice: &str,
) -> Response {
    match result {
        Ok(v) => {
            if as_json {
                json_response(StatusCode::OK, &v)
            } else {
                see_other(&format!("/admin?done={notice}"))
            }
        }
        Err(m) => {
            app.refuse(r, StatusCode::CONFLICT, &m, None);
            if as_json {
                json_response(StatusCode::CONFLICT, &json!({"error": m}))
            } else {
                html(
                    StatusCode::CONFLICT,
                    pages::message("Not done", &m, Some(("/admin", "Back to the dashboard"))),
                )
            }
        }
    }
}

async fn admin_close(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/admin/close", remote);
    let (_, as_json) = match admin_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
    if app.advancing.swap(true, Ordering::SeqCst) {
        return admin_result(
            &app,
            &r,
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
    admin_done(&app, &r, as_json, result, ack, "closed").await
}

/// Why the open ballot cannot be closed now, and the choices (those of the
/// file workflow's `close --unvoted`).
fn cannot_close(e: &Engine, k: &crate::engine::CloseCheck) -> String {
    let n = k.unvoted_items.len();
    let names: Vec<String> = k
        .unvoted_items
        .iter()
        .take(crate::status::EXAMPLES)
        .map(|&i| e.file.thing(i).0.to_owned())
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
struct ExcludeForm {
    csrf: Option<String>,
    worker: Option<String>,
}

async fn admin_exclude(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<ExcludeForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/admin/exclude", remote);
    let (form, as_json) = match admin_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
    let name = form.worker.unwrap_or_default();
    let (result, ack) = app.run(|e| {
        let Some(w) = e.workers().iter().find(|w| w.name == name).map(|w| w.id) else {
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
    admin_done(&app, &r, as_json, result, ack, "excluded").await
}

#[derive(Debug, serde::Deserialize)]
struct InviteForm {
    csrf: Option<String>,
    names: Option<String>,
    count: Option<String>,
}

async fn admin_invite(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    method: Method,
    h: HeaderMap,
    form: Result<Form<InviteForm>, FormRejection>,
) -> Response {
    let r = info(&method, "/admin/invite", remote);
    let (form, as_json) = match admin_form(&app, &r, &h, form) {
        Ok(x) => x,
        Err(res) => return res,
    };
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
                let have = app
                    .engine
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .invitations
                    .len();
                names.extend((have + 1..=have + n).map(|i| format!("invitee-{i}")));
            }
            _ => {
                return admin_result(
                    &app,
                    &r,
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
        return admin_result(&app, &r, as_json, Err(m), "");
    }
    let (made, ack) = app.run(|e| e.invite(&names, now_ms()));
    if let Err(res) = app.committed(ack).await {
        return res;
    }
    let list: Vec<Value> = made
        .iter()
        .map(|(t, n)| json!({"worker": n, "path": format!("/invite/{t}")}))
        .collect();
    admin_result(
        &app,
        &r,
        as_json,
        Ok(json!({"invitations": list})),
        "invited",
    )
}
