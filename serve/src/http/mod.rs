//! The routes, by concern: the annotator's pages ([`annotator`]), the
//! dashboard ([`admin`]), who a request is ([`auth`]: sessions, CSRF
//! tokens, the admin token), and refusals ([`error`]).
//!
//! ```text
//! GET  /?PROLIFIC_PID=…&STUDY_ID=…&SESSION_ID=…   the study URL (names configurable; MTurk's workerId, assignmentId)
//! GET  /invite/{token}                           an invitation link
//! POST /start                                    instructions read
//! GET  /task                                     the next pair (HTML, or JSON with Accept: application/json)
//! POST /answer   task, choice, csrf              an answer; 303 to /task (or JSON)
//! GET  /finish                                   "stop the study now?" (asked once)
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
//! Every refusal (4xx, 5xx) is an [`AppError`], logged with its reason by
//! the guard around every route.

mod admin;
mod annotator;
mod auth;
mod error;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use adaptive_comp_metrics::ballot::Unvoted;
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next as MwNext};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

pub(crate) use error::AppError;
use error::{Refused, plain};

use crate::engine::{Engine, LogLine};
use crate::log::Logger;
use crate::pages;
use crate::state::PageSettings;
use crate::store::{Writer, now_ms};

/// The largest request body an annotator's form may send.
pub(crate) const BODY_LIMIT: usize = 4 * 1024;
/// The largest request body of an admin form.
pub(crate) const ADMIN_BODY_LIMIT: usize = 64 * 1024;

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
    /// The engine, locked (a panic while it was held leaves it usable: the
    /// engine changes nothing before its checks pass).
    pub(crate) fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `f` on the engine; queues its operations for the store (in the
    /// engine's order) and writes its log lines. The receiver tells when
    /// the operations are committed.
    pub(crate) fn run<R>(self: &Arc<Self>, f: impl FnOnce(&mut Engine) -> R) -> (R, Ack) {
        let (r, ack, logs, transition) = {
            let mut e = self.engine();
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
    pub(crate) async fn committed(&self, ack: Ack) -> Result<(), AppError> {
        match ack.await.unwrap_or(Err("the store stopped".into())) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.store_failed(&e);
                Err(unavailable())
            }
        }
    }

    /// Logs a refusal.
    fn refuse(&self, r: &ReqInfo, status: StatusCode, refused: &Refused) {
        let mut fields = vec![
            ("status", json!(status.as_u16())),
            ("method", json!(r.method)),
            ("path", json!(r.path)),
            ("reason", json!(refused.reason)),
            ("remote", json!(r.remote)),
        ];
        if let Some(w) = &refused.worker {
            fields.push(("worker", json!(w)));
        }
        self.log.write(&LogLine {
            event: "refused",
            fields,
            message: format!(
                "{} {} {} refused ({}){}: {}",
                r.remote,
                r.method,
                r.path,
                status.as_u16(),
                refused
                    .worker
                    .as_ref()
                    .map_or_else(String::new, |w| format!(" for worker {w}")),
                refused.reason
            ),
        });
    }

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
        self.refuse(
            &r,
            status,
            &Refused {
                reason: reason.into(),
                worker: None,
            },
        );
    }
}

/// 503: the store failed (the server stops).
fn unavailable() -> AppError {
    AppError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server cannot store answers now",
    )
}

/// What the log says about a request.
#[derive(Debug, Clone)]
struct ReqInfo {
    method: String,
    path: String,
    remote: String,
}

impl ReqInfo {
    fn of(req: &Request) -> Self {
        let path = req.uri().path();
        // An invitation's token is a secret: not in the log.
        let path = if path.starts_with("/invite/") {
            "/invite/…".to_owned()
        } else {
            path.chars().take(120).collect()
        };
        Self {
            method: req.method().to_string(),
            path,
            remote: req
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map_or_else(|| "-".to_owned(), |c| c.0.to_string()),
        }
    }
}

/// The client asked for JSON.
pub(crate) fn wants_json(h: &HeaderMap) -> bool {
    h.get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
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

/// The routes of a server.
pub(crate) fn router(app: Arc<App>) -> Router {
    let annotator = Router::new()
        .route("/", get(annotator::entry))
        .route("/invite/{token}", get(annotator::invite))
        .route("/start", post(annotator::start))
        .route("/task", get(annotator::task))
        .route("/answer", post(annotator::answer))
        .route(
            "/finish",
            post(annotator::finish).get(annotator::confirm_finish),
        )
        .route("/done", get(annotator::done))
        .route("/assets/page.css", get(css))
        .route("/assets/page.js", get(js))
        .route("/healthz", get(healthz))
        .route("/favicon.ico", get(no_icon))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    let admin = Router::new()
        .route("/admin", get(admin::page))
        .route("/admin/status.json", get(admin::json))
        .route("/admin/close", post(admin::close).get(admin::confirm_close))
        .route(
            "/admin/exclude",
            post(admin::exclude).get(admin::confirm_exclude),
        )
        .route("/admin/workers.csv", get(admin::workers_csv))
        .route("/admin/votes.csv", get(admin::votes_csv))
        .route("/admin/invite", post(admin::invite))
        .layer(DefaultBodyLimit::max(ADMIN_BODY_LIMIT));
    annotator
        .merge(admin)
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

/// Around every route: the failed-store stop, the log of refusals, the
/// headers of every response.
async fn guard(State(app): State<Arc<App>>, req: Request, next: MwNext) -> Response {
    let r = ReqInfo::of(&req);
    let mut res = if app.failed.load(Ordering::SeqCst) {
        unavailable().into_response()
    } else {
        next.run(req).await
    };
    if let Some(refused) = res.extensions_mut().remove::<Refused>() {
        app.refuse(&r, res.status(), &refused);
    }
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

async fn not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "no such page").page(
        "Not found",
        "There is no such page.",
        None,
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
