//! The adaptive vote collection of Lombardo et al. (2020, §2.4–2.7) as a
//! ready-to-run annotation server: `acm campaign serve`.
//!
//! A campaign created with `acm campaign init` (a state document, see
//! [`state`]) is turned into a [`Store`] (one SQLite file) and served:
//!
//! - **the annotator's page**: two items side by side, the campaign's
//!   question, one choice per item (and "same" where the campaign allows
//!   ties), keys `1`/`←`, `2`/`→`, `3`/`↓`, usable on a phone, an
//!   instructions screen, the worker's progress, an end screen with the
//!   completion code or a redirect to the completion URL (as Prolific
//!   expects). Everything is served from the binary.
//! - **who votes**: the URL's participant id (Prolific's `PROLIFIC_PID`,
//!   MTurk's `workerId`, names configurable; `STUDY_ID`, `SESSION_ID`,
//!   `assignmentId`, `hitId` recorded) or a per-annotator invitation link.
//! - **assignment**: each comparison of the open ballot goes to exactly one
//!   voter, never twice to the same worker (a worker is never shown the same
//!   pair of items twice in a ballot); a task handed out is leased and
//!   returns to the pool when the lease runs out; control pairs come at
//!   the campaign's rate (tasks are handed out in the ballot's layout
//!   order, where the library placed them); a per-worker quota per ballot.
//! - **ballots**: when every comparison of the open ballot has its vote,
//!   the exclusion rule (accuracy on control pairs) is applied, and the
//!   ballot is closed and the next one opened, chosen adaptively by the
//!   library; workers who arrive meanwhile see a "come back in a moment"
//!   page. The rule is also applied to a worker after each of their control
//!   answers, so that a careless worker's answers are redone early.
//! - **storage**: a vote is committed to the store before the page
//!   acknowledges it; after `kill -9` at any moment the server restarts
//!   where it stopped and no acknowledged vote is lost or counted twice
//!   ([`store`]). [`Store::state_json`] gives the state as the file workflow
//!   writes it: `acm campaign status`, `export` and `rank` read a served
//!   campaign through it.
//! - **the dashboard** (`/admin`, protected by a token compared in
//!   constant time): ballots, workers, accuracy, agreement, exclusions, the
//!   ranking; the same as JSON.
//! - **security**: 127.0.0.1 unless told otherwise; a worker answers only
//!   tasks leased to them; a repeated submission is idempotent; forms carry
//!   a CSRF token and cross-site posts are refused; bodies are limited to
//!   4 KiB (64 KiB for admin forms); no request path reaches the file
//!   system; every refusal is logged with its reason ([`LogFormat`]).
//!
//! # Example
//! ```no_run
//! use adaptive_comp_metrics_serve::{Options, Store, serve};
//! # fn main() -> Result<(), adaptive_comp_metrics_serve::ServeError> {
//! let json = std::fs::read("study.json").expect("a state written by acm campaign init");
//! Store::create("study.db".as_ref(), &json)?;
//! let options = Options { quota: Some(40), ..Options::default() };
//! serve("study.db".as_ref(), options)?; // until Ctrl-C
//! # Ok(()) }
//! ```

pub mod error;
pub mod log;
pub mod parse;
pub mod state;
pub mod store;

mod engine;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod http;
mod pages;
mod secret;
mod status;
#[cfg(any(test, feature = "fuzzing"))]
mod testing;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use adaptive_comp_metrics::ballot::ExclusionRule;
use serde_json::json;

pub use error::ServeError;
pub use log::LogFormat;
pub use secret::ct_eq;
pub use state::{CampaignFile, Page, PageSettings};
pub use store::{Durability, Store};

use engine::{Engine, LogLine, Policy};
use http::{App, Identity};

/// How a campaign is served. [`Options::default`] binds 127.0.0.1:8080,
/// leases tasks for 10 minutes, takes Prolific's and MTurk's participant
/// ids, and applies no quota and no exclusion rule.
#[derive(Debug, Clone)]
pub struct Options {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The dashboard's token; `None`: the one the store made at its creation.
    pub admin_token: Option<String>,
    /// How long a task handed out stays reserved for its worker.
    pub lease: Duration,
    /// Tasks a worker may answer per ballot (`None`: no limit).
    pub quota: Option<usize>,
    /// Workers whose accuracy on control pairs falls under the rule are
    /// excluded (after each of their control answers, and at the end of
    /// every ballot); their answers of the open ballot are redone.
    pub exclusion: Option<ExclusionRule>,
    /// URL parameters that carry the participant id, tried in order.
    pub worker_params: Vec<String>,
    /// URL parameters recorded with the worker.
    pub record_params: Vec<String>,
    /// Only invitation links admit annotators (URL ids are refused).
    pub invitations_only: bool,
    /// Invitations to create at start (names; existing ones are kept).
    pub invite: Vec<String>,
    /// What the page shows; `None`: the campaign's settings (from `init`),
    /// or the defaults.
    pub page: Option<PageSettings>,
    /// The event log's format.
    pub log_format: LogFormat,
    /// Where the event log goes; `None`: standard error.
    pub log_file: Option<PathBuf>,
    /// How commits reach the disk.
    pub durability: Durability,
    /// Cookies only over HTTPS (behind a TLS proxy).
    pub secure_cookies: bool,
    /// Who may show the page in a frame (CSP `frame-ancestors`); `'none'`
    /// by default, e.g. `https://*.mturk.com` for MTurk's ExternalQuestion.
    pub frame_ancestors: String,
    /// Worker threads of the runtime.
    pub threads: usize,
    /// New participant ids admitted per minute, in bursts of as many (0: no
    /// limit); past it, the page asks to wait and reloads itself (429).
    /// Returning participants and invitations are not counted.
    pub new_workers_per_minute: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            admin_token: None,
            lease: Duration::from_secs(600),
            quota: None,
            exclusion: None,
            worker_params: vec!["PROLIFIC_PID".into(), "workerId".into()],
            record_params: vec![
                "STUDY_ID".into(),
                "SESSION_ID".into(),
                "assignmentId".into(),
                "hitId".into(),
            ],
            invitations_only: false,
            invite: Vec::new(),
            page: None,
            log_format: LogFormat::Text,
            log_file: None,
            durability: Durability::Full,
            secure_cookies: false,
            frame_ancestors: "'none'".into(),
            threads: 2,
            new_workers_per_minute: 120,
        }
    }
}

/// The server's routes on a store, without a listener: an
/// [`axum::Router`] (a `tower::Service`) to drive with
/// `tower::ServiceExt::oneshot`, as the tests do, or to nest in another
/// server. It holds the store's lock until [`Routes::close`] (or drop).
///
/// # Examples
/// ```no_run
/// use adaptive_comp_metrics_serve::{Options, Routes};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let rt = tokio::runtime::Runtime::new()?;
/// let _in_runtime = rt.enter();
/// let routes = Routes::open("study.db".as_ref(), Options::default())?;
/// let app: axum::Router = routes.router(); // serve it, or call it
/// routes.close()?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Routes {
    app: Arc<App>,
    admin_token: String,
    store: PathBuf,
    events: usize,
    seconds: f64,
    writer_thread: Option<std::thread::JoinHandle<()>>,
}

impl Routes {
    /// Opens the store (taking its lock), replays it, and makes the routes.
    /// Call it within a Tokio runtime: a ballot transition due at start
    /// runs on it.
    ///
    /// # Errors
    /// [`ServeError::Locked`] when another server serves the store; those
    /// of reading the store; [`ServeError::Option`] for a bad option.
    pub fn open(store: &Path, options: Options) -> Result<Self, ServeError> {
        if options.worker_params.is_empty() && !options.invitations_only {
            return Err(ServeError::option(
                "worker_params",
                "name at least one URL parameter, or serve by invitation only",
            ));
        }
        if options.lease < Duration::from_secs(1) {
            return Err(ServeError::option("lease", "at least one second"));
        }
        if options.quota == Some(0) {
            return Err(ServeError::option("quota", "at least one task"));
        }
        if options
            .admin_token
            .as_ref()
            .is_some_and(|t| t.len() < 16 || !t.bytes().all(|b| b.is_ascii_graphic() && b != b';'))
        {
            return Err(ServeError::option(
                "admin_token",
                "at least 16 printable characters, no ';'",
            ));
        }
        let sink: Box<dyn std::io::Write + Send> = match &options.log_file {
            Some(p) => Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| ServeError::io(p, &e))?,
            ),
            None => Box::new(std::io::stderr()),
        };
        let logger = log::Logger::new(options.log_format, sink);
        let t0 = std::time::Instant::now();
        let opened = store::open_for_serving(store, options.durability)?;
        let events = opened.loaded.events;
        let admin_token = options
            .admin_token
            .clone()
            .unwrap_or_else(|| opened.loaded.admin_token.clone());
        let page = options
            .page
            .clone()
            .unwrap_or_else(|| PageSettings::resolve(opened.loaded.file.page.as_ref()));
        let policy = Policy {
            quota: options.quota,
            lease_ms: options.lease.as_millis() as u64,
            rule: options.exclusion,
        };
        let mut engine = Engine::new(opened.loaded, policy, store::now_ms());
        if !options.invite.is_empty() {
            engine.invite(&options.invite, store::now_ms());
        }
        let ops = engine.take_ops();
        let logs = engine.take_logs();
        opened.writer.push(ops);
        let transition = engine.transition;
        let app = Arc::new(App {
            engine: std::sync::Mutex::new(engine),
            writer: opened.writer,
            advancing: AtomicBool::new(false),
            admin_token: admin_token.clone(),
            admin_csrf: secret::random_token(24),
            page,
            identity: Identity {
                worker_params: options.worker_params,
                record_params: options.record_params,
                invitations_only: options.invitations_only,
            },
            secure_cookies: options.secure_cookies,
            frame_ancestors: options.frame_ancestors,
            log: logger,
            failed: AtomicBool::new(false),
            fatal: tokio::sync::Notify::new(),
            arrivals: std::sync::Mutex::new(http::Arrivals::new(
                options.new_workers_per_minute,
                store::now_ms(),
            )),
        });
        app.log.all(&logs);
        if transition {
            app.spawn_advance();
        }
        Ok(Self {
            app,
            admin_token,
            store: store.to_owned(),
            events,
            seconds: t0.elapsed().as_secs_f64(),
            writer_thread: Some(opened.thread),
        })
    }

    /// The routes.
    pub fn router(&self) -> axum::Router {
        http::router(Arc::clone(&self.app))
    }

    /// The dashboard's token.
    #[must_use]
    pub fn admin_token(&self) -> &str {
        &self.admin_token
    }

    /// Lets an ongoing ballot transition finish, commits what is queued,
    /// and releases the store.
    ///
    /// # Errors
    /// A store failure met while serving.
    pub fn close(mut self) -> Result<(), ServeError> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), ServeError> {
        let Some(t) = self.writer_thread.take() else {
            return Ok(());
        };
        while self.app.advancing.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.app.writer.stop();
        let failed = self.app.writer.failure();
        let _ = t.join();
        match failed {
            Some(message) => Err(ServeError::Store {
                path: self.store.clone(),
                message,
            }),
            None => Ok(()),
        }
    }

    /// What the start line says of where the campaign stands.
    fn standing(&self) -> String {
        let e = self.app.engine();
        let c = &e.file.campaign;
        match c.open_ballot_number() {
            Some(k) => format!(
                "ballot {k} of {} open, {} of {} comparisons voted",
                c.scheduler().ballot_sizes().len(),
                c.scheduler().comparisons().len() - c.scheduler().pending(),
                c.scheduler().comparisons().len()
            ),
            None => "every ballot is closed".to_owned(),
        }
    }
}

impl Drop for Routes {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    admin_token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), ServeError>>>,
}

impl Server {
    /// Opens the store (taking its lock), binds, and serves in a thread of
    /// its own until [`Server::shutdown`] (or, through [`serve`], a signal).
    ///
    /// # Errors
    /// [`ServeError::Locked`] when another server serves the store; those
    /// of reading the store; [`ServeError::Io`] when the address cannot be
    /// bound; [`ServeError::Option`] for a bad option.
    pub fn start(store: &Path, options: Options) -> Result<Self, ServeError> {
        Self::start_with(store, options, false)
    }

    fn start_with(store: &Path, options: Options, signals: bool) -> Result<Self, ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(options.threads.max(1))
            .enable_all()
            .build()
            .map_err(|e| ServeError::io(store, &e))?;
        let addr = options.addr;
        let routes = {
            let _in_runtime = runtime.enter();
            Routes::open(store, options)?
        };
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|e| ServeError::Io {
                path: PathBuf::from(addr.to_string()),
                message: format!("cannot listen: {}", e.to_string().to_lowercase()),
            })?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError::io(store, &e))?;
        let admin_token = routes.admin_token.clone();
        let (events, seconds) = (routes.events, routes.seconds);
        routes.app.log.write(&LogLine {
            event: "listening",
            fields: vec![
                ("address", json!(addr.to_string())),
                ("store", json!(store.display().to_string())),
                ("replayed", json!(events)),
                ("seconds", json!(seconds)),
                ("admin", json!(format!("http://{addr}/admin?token={admin_token}"))),
            ],
            message: format!(
                "serving {} at http://{addr}/ ({}; {events} operation(s) replayed in {seconds:.3} s); \
                 study URL for Prolific: http://{addr}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&STUDY_ID={{{{%STUDY_ID%}}}}&SESSION_ID={{{{%SESSION_ID%}}}}; \
                 dashboard: http://{addr}/admin?token={admin_token}",
                store.display(),
                routes.standing(),
            ),
        });
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let path = store.to_owned();
        let thread = std::thread::Builder::new()
            .name("acm-serve".into())
            .spawn(move || {
                let app = Arc::clone(&routes.app);
                let served = runtime.block_on(async {
                    let shutdown = async {
                        tokio::select! {
                            _ = stop_rx => {}
                            () = app.fatal.notified() => {}
                            () = signal(signals) => {}
                        }
                    };
                    http::accept(listener, routes.router(), Arc::clone(&app), shutdown).await
                });
                let closed = routes.close();
                app.log.write(&LogLine {
                    event: "stopped",
                    fields: vec![],
                    message: "stopped".to_owned(),
                });
                served.map_err(|e| ServeError::io(&path, &e))?;
                closed
            })
            .map_err(|e| ServeError::io(store, &e))?;
        Ok(Self {
            addr,
            admin_token,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The address the server listens on.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The dashboard's token.
    #[must_use]
    pub fn admin_token(&self) -> &str {
        &self.admin_token
    }

    /// Stops accepting requests, finishes those under way, commits what is
    /// queued, and returns.
    ///
    /// # Errors
    /// A store failure met while serving.
    pub fn shutdown(mut self) -> Result<(), ServeError> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.join()
    }

    /// Waits until the server stops (a signal with [`serve`], a store
    /// failure).
    ///
    /// # Errors
    /// A store failure met while serving.
    pub fn wait(mut self) -> Result<(), ServeError> {
        self.join()
    }

    fn join(&mut self) -> Result<(), ServeError> {
        match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(ServeError::corrupt("the server thread panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.join();
    }
}

async fn signal(enabled: bool) {
    if !enabled {
        std::future::pending::<()>().await;
    }
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Serves the campaign of a store until Ctrl-C or SIGTERM (a graceful
/// stop: requests under way finish, queued writes are committed).
///
/// # Errors
/// Those of [`Server::start`]; a store failure while serving.
pub fn serve(store: &Path, options: Options) -> Result<(), ServeError> {
    Server::start_with(store, options, true)?.wait()
}
