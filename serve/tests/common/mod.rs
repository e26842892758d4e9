//! What the server's tests share: a campaign made from a small items file,
//! a client of the routes through `tower::ServiceExt::oneshot` (and, in
//! [`socket`], one over a real connection), and the helpers that walk the
//! annotator's pages.
#![allow(dead_code)]

pub mod socket;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Scheduler, Vote,
};
use adaptive_comp_metrics_serve::state::{CampaignFile, Table};
use adaptive_comp_metrics_serve::{Options, PageSettings, Routes, ServeError, Store};

/// A fresh directory under the target directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{:?}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&base).unwrap();
    base
}

/// Item i's text: unique, so that a page's text names its item.
pub fn item_text(i: usize) -> String {
    format!("word{i} – term{}", i * 7 % 1000)
}

/// A campaign state as `acm campaign init` writes it (the file workflow's
/// format): `n` items `p0…`, M, α, n_b, control pairs (item 0 beats the
/// last items) at `control_rate`, seed `seed`, ballot 1 open.
pub fn state(
    n: usize,
    m: usize,
    alpha: f64,
    ballots: usize,
    control_rate: f64,
    seed: u64,
    page: Option<PageSettings>,
) -> CampaignFile {
    let config = BallotConfig::new(n, m, alpha, ballots).unwrap();
    let controls: Vec<ControlPair> = if control_rate > 0.0 {
        (0..3)
            .map(|j| ControlPair::new(j, n - 1 - j, Vote::First).unwrap())
            .collect()
    } else {
        Vec::new()
    };
    let layout = LayoutOptions::new(control_rate, None).unwrap();
    let campaign = Campaign::new(Scheduler::new(config), controls, layout).unwrap();
    let tag = format!("{:08x}", seed.wrapping_mul(0x9e37_79b9) as u32);
    let items = Table {
        extra_columns: vec![],
        ids: (0..n).map(|i| format!("p{i}")).collect(),
        texts: (0..n).map(item_text).collect(),
        extra: vec![vec![]; n],
    };
    CampaignFile {
        page: page.map(Into::into),
        ..CampaignFile::open(tag, seed, items, Table::default(), campaign).unwrap()
    }
}

/// A store made from `state` in a fresh directory.
pub fn store(dir: &Path, file: &CampaignFile) -> PathBuf {
    let p = dir.join("campaign.db");
    Store::create(&p, &file.to_json().unwrap()).unwrap();
    p
}

/// One HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// Takes the response's cookies into a jar.
    pub fn keep_cookies(&self, jar: &mut HashMap<String, String>) {
        for (k, v) in &self.headers {
            if k.eq_ignore_ascii_case("set-cookie")
                && let Some((name, value)) = v.split(';').next().and_then(|kv| kv.split_once('='))
            {
                jar.insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
    }

    /// The value of a hidden input `name` in the page.
    pub fn hidden(&self, name: &str) -> Option<String> {
        let key = format!("name=\"{name}\" value=\"");
        let at = self.body.find(&key)? + key.len();
        let end = self.body[at..].find('"')?;
        Some(self.body[at..at + end].to_owned())
    }
}

/// A request as a client puts it on the wire: every header but `Host`
/// worked out ([`Http::request`]).
pub struct Outgoing<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub body: &'a str,
    pub headers: Vec<(String, String)>,
}

/// What both clients do: a request, and its usual forms.
pub trait Http {
    /// Sends a request and keeps the cookies of its response.
    fn exchange(&mut self, r: Outgoing<'_>) -> std::io::Result<Response>;

    /// The cookie jar sent with every request, and the headers sent with
    /// every request after those it names.
    fn jar(&self) -> (&HashMap<String, String>, &[(String, String)]);

    /// Sends a request; `body` is form-encoded unless a content type is
    /// given. Its headers, in order: the jar's `Cookie`, `headers`, the
    /// client's extra ones, and for a POST or DELETE that names no content
    /// type, the form's.
    fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> std::io::Result<Response> {
        let (cookies, extra) = self.jar();
        let mut all: Vec<(String, String)> = Vec::new();
        if !cookies.is_empty() {
            let c: Vec<String> = cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            all.push(("Cookie".to_owned(), c.join("; ")));
        }
        for (k, v) in headers
            .iter()
            .copied()
            .chain(extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        {
            all.push((k.to_owned(), v.to_owned()));
        }
        if (method == "POST" || method == "DELETE")
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            all.push((
                "Content-Type".to_owned(),
                "application/x-www-form-urlencoded".to_owned(),
            ));
        }
        self.exchange(Outgoing {
            method,
            path,
            body: body.unwrap_or(""),
            headers: all,
        })
    }

    fn get(&mut self, path: &str) -> Response {
        self.request("GET", path, None, &[]).unwrap()
    }

    fn get_json(&mut self, path: &str) -> Response {
        self.request("GET", path, None, &[("Accept", "application/json")])
            .unwrap()
    }

    fn post(&mut self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body), &[]).unwrap()
    }

    fn post_json(&mut self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body), &[("Accept", "application/json")])
            .unwrap()
    }

    /// Answers `task` with `choice` ("first", "second", "tie") as the
    /// page's script does, with the session's CSRF token `csrf`.
    fn answer(&mut self, csrf: &str, task: &str, choice: &str) -> Response {
        let body = format!("csrf={csrf}&task={}&choice={choice}", enc(task));
        self.post_json("/answer", &body)
    }

    /// Takes the next task and answers it with `choice` through the page's
    /// form, acknowledged by a redirect (303); returns the task.
    fn answer_next(&mut self, csrf: &str, choice: &str) -> String {
        let task = self.get("/task").hidden("task").unwrap();
        let r = self.post(
            "/answer",
            &format!("csrf={csrf}&task={task}&choice={choice}"),
        );
        assert_eq!(r.status, 303, "{}", r.body);
        task
    }
}

/// A server's routes on a store, driven without a socket: each request goes
/// through `tower::ServiceExt::oneshot` on a runtime of its own.
pub struct TestServer {
    handle: Handle,
    routes: Option<Routes>,
}

/// What a client needs of a [`TestServer`].
#[derive(Clone)]
pub struct Handle {
    router: axum::Router,
    rt: Arc<tokio::runtime::Runtime>,
}

/// The host the clients name (requests never leave the process).
pub const HOST: &str = "127.0.0.1:8080";

impl std::fmt::Display for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(HOST)
    }
}

impl TestServer {
    pub fn start(store: &Path, options: Options) -> Result<Self, ServeError> {
        let rt = Arc::new(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
        );
        let routes = {
            let _in = rt.enter();
            Routes::open(store, options)?
        };
        Ok(Self {
            handle: Handle {
                router: routes.router(),
                rt,
            },
            routes: Some(routes),
        })
    }

    /// What clients connect to (named as the socket server's address is).
    pub fn local_addr(&self) -> &Handle {
        &self.handle
    }

    pub fn admin_token(&self) -> &str {
        self.routes.as_ref().map_or("", Routes::admin_token)
    }

    pub fn shutdown(mut self) -> Result<(), ServeError> {
        self.routes.take().map_or(Ok(()), Routes::close)
    }
}

/// A client with its own cookie jar.
pub struct Client {
    handle: Handle,
    pub cookies: HashMap<String, String>,
    pub extra: Vec<(String, String)>,
}

impl Client {
    pub fn new(handle: &Handle) -> Self {
        Self {
            handle: handle.clone(),
            cookies: HashMap::new(),
            extra: Vec::new(),
        }
    }
}

impl Http for Client {
    fn jar(&self) -> (&HashMap<String, String>, &[(String, String)]) {
        (&self.cookies, &self.extra)
    }

    fn exchange(&mut self, r: Outgoing<'_>) -> std::io::Result<Response> {
        use axum::http::header;
        use tower::ServiceExt as _;
        let mut req = axum::http::Request::builder()
            .method(r.method)
            .uri(r.path)
            .header(header::HOST, HOST);
        for (k, v) in &r.headers {
            req = req.header(k, v);
        }
        let mut req = req
            .body(axum::body::Body::from(r.body.to_owned()))
            .map_err(std::io::Error::other)?;
        let remote: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(remote));
        let router = self.handle.router.clone();
        let res = self.handle.rt.block_on(async move {
            let res = router.oneshot(req).await.unwrap();
            let status = res.status().as_u16();
            let headers: Vec<(String, String)> = res
                .headers()
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            let body = axum::body::to_bytes(res.into_body(), usize::MAX)
                .await
                .unwrap();
            Response {
                status,
                headers,
                body: String::from_utf8_lossy(&body).into_owned(),
            }
        });
        res.keep_cookies(&mut self.cookies);
        Ok(res)
    }
}

/// Percent-encodes a form value.
pub fn enc(s: &str) -> String {
    adaptive_comp_metrics_serve::parse::percent_encode(s)
}

/// Enters as a Prolific participant and reads the instructions: the CSRF
/// token.
pub fn enter(c: &mut impl Http, pid: &str) -> String {
    let r = c.get(&format!(
        "/?PROLIFIC_PID={}&STUDY_ID=s1&SESSION_ID=x",
        enc(pid)
    ));
    assert_eq!(r.status, 200, "{}", r.body);
    let csrf = r.hidden("csrf").expect("a CSRF token on the instructions");
    let r = c.post("/start", &format!("csrf={csrf}"));
    assert_eq!(r.status, 303, "{}", r.body);
    csrf
}

/// Where to find a test's artefacts.
pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
