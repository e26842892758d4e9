//! Every route of the server and every refusal, each request driven through
//! the server's router in this process (`tower::ServiceExt::oneshot`; the
//! real-socket tests are `load.rs` and `browser.rs`): the routes
//! (`routes`), the defects found by testing it as its users would
//! (`defects`), and the researcher's dashboard and annotator's page
//! (`dashboard`).

mod charts;
#[path = "../common/mod.rs"]
mod common;
mod dashboard;
mod defects;
mod fitted;
mod routes;

use std::path::PathBuf;
use std::time::Duration;

use adaptive_comp_metrics::ballot::ExclusionRule;
use adaptive_comp_metrics_serve::state::CampaignFile;
use adaptive_comp_metrics_serve::{Options, PageSettings, Server, Store};
use common::{Client, Handle, Http, TestServer, enter, state, store, temp_dir};

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

/// Every reason has a refusal in the log (the log shown when one has not).
fn assert_refused(log: &std::path::Path, reasons: &[&str]) {
    for reason in reasons {
        assert!(
            refused(log, reason),
            "not logged: {reason}\n{}",
            log_text(log)
        );
    }
}

/// A campaign served for one test: its store file, log and server.
struct Served {
    s: PathBuf,
    log: PathBuf,
    server: TestServer,
}

/// Serves `file` from a fresh folder named after the test, with [`options`].
fn serve(name: &str, file: CampaignFile) -> Served {
    serve_with(name, file, |o| o)
}

/// As [`serve`], with the options changed by `adjust`.
fn serve_with(name: &str, file: CampaignFile, adjust: impl FnOnce(Options) -> Options) -> Served {
    let dir = temp_dir(name);
    let s = store(&dir, &file);
    let log = dir.join("log.txt");
    let server = TestServer::start(&s, adjust(options(&log))).unwrap();
    Served { s, log, server }
}

/// 8 items, M = 2, 2 ballots (8 comparisons in ballot 1, 4 items and 4 in
/// ballot 2), no control pairs, seed `seed`, the test page settings, served
/// with a quota of `quota` tasks a worker.
fn serve_with_quota(name: &str, seed: u64, quota: usize) -> Served {
    let file = state(8, 2, 0.5, 2, 0.0, seed, Some(page()));
    serve_with(name, file, |o| Options {
        quota: Some(quota),
        ..o
    })
}

/// The dashboard's status, read with the bearer token.
fn status(addr: &Handle) -> serde_json::Value {
    let mut api = admin_client(addr);
    let r = api.get("/admin/status.json");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The row of worker `name` in a status document.
fn worker_row<'a>(status: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    status["workers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["worker"] == name)
        .unwrap_or_else(|| panic!("no row for {name}: {status}"))
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
