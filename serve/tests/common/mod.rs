//! What the server's tests share: a campaign made from a small items file,
//! a minimal HTTP/1.1 client over one keep-alive connection, and the
//! helpers that walk the annotator's pages.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Scheduler, Vote,
};
use adaptive_comp_metrics::rand::SeedableRng;
use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
use adaptive_comp_metrics_serve::state::{CampaignFile, RngState, Table};
use adaptive_comp_metrics_serve::{PageSettings, Store};

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
    let mut campaign = Campaign::new(Scheduler::new(config), controls, layout).unwrap();
    let mut b = ChaCha8Rng::seed_from_u64(seed);
    b.set_stream(0);
    let mut l = ChaCha8Rng::seed_from_u64(seed);
    l.set_stream(1);
    campaign.open_ballot(&mut b, &mut l).unwrap();
    CampaignFile {
        format: "adaptive-comp-metrics campaign".into(),
        version: 1,
        tag: format!("{:08x}", seed.wrapping_mul(0x9e37_79b9) as u32),
        seed,
        ballot_rng: RngState::of(&b),
        layout_rng: RngState::of(&l),
        price: None,
        id_column: "id".into(),
        text_column: "text".into(),
        items: Table {
            extra_columns: vec![],
            ids: (0..n).map(|i| format!("p{i}")).collect(),
            texts: (0..n).map(item_text).collect(),
            extra: vec![vec![]; n],
        },
        control_items: Table::default(),
        campaign,
        page: page.map(Into::into),
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

    /// The value of a hidden input `name` in the page.
    pub fn hidden(&self, name: &str) -> Option<String> {
        let key = format!("name=\"{name}\" value=\"");
        let at = self.body.find(&key)? + key.len();
        let end = self.body[at..].find('"')?;
        Some(self.body[at..at + end].to_owned())
    }
}

/// A client with its own cookie jar over one keep-alive connection.
pub struct Client {
    pub addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
    pub cookies: HashMap<String, String>,
    pub extra: Vec<(String, String)>,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            stream: None,
            cookies: HashMap::new(),
            extra: Vec::new(),
        }
    }

    fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.stream.is_none() {
            let s = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))?;
            s.set_read_timeout(Some(Duration::from_secs(30)))?;
            s.set_nodelay(true)?;
            self.stream = Some(BufReader::new(s));
        }
        Ok(self.stream.as_mut().unwrap())
    }

    /// Sends a request; `body` is form-encoded when given.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> std::io::Result<Response> {
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if !self.cookies.is_empty() {
            let c: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            req.push_str(&format!("Cookie: {}\r\n", c.join("; ")));
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        for (k, v) in &self.extra {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = body.unwrap_or("");
        if method == "POST" || method == "DELETE" {
            if !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            {
                req.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
            }
            req.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        req.push_str("\r\n");
        req.push_str(body);
        let r = self.send(req.as_bytes());
        if r.is_err() {
            // The server may have closed an idle connection: once more.
            self.stream = None;
            return self.send(req.as_bytes());
        }
        r
    }

    fn send(&mut self, req: &[u8]) -> std::io::Result<Response> {
        let s = self.connect()?;
        s.get_mut().write_all(req)?;
        let mut line = String::new();
        if s.read_line(&mut line)? == 0 {
            return Err(std::io::Error::other("connection closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = Vec::new();
        let mut len = 0usize;
        let mut chunked = false;
        let mut close = false;
        loop {
            line.clear();
            s.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                let (k, v) = (k.trim().to_owned(), v.trim().to_owned());
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.parse().unwrap_or(0);
                }
                if k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked") {
                    chunked = true;
                }
                if k.eq_ignore_ascii_case("connection") && v.eq_ignore_ascii_case("close") {
                    close = true;
                }
                headers.push((k, v));
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                s.read_line(&mut line)?;
                let n = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
                let mut chunk = vec![0u8; n + 2];
                s.read_exact(&mut chunk)?;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        } else {
            body.resize(len, 0);
            s.read_exact(&mut body)?;
        }
        for (k, v) in &headers {
            if k.eq_ignore_ascii_case("set-cookie")
                && let Some((kv, _)) = v.split_once(';').or(Some((v.as_str(), "")))
                && let Some((name, value)) = kv.split_once('=')
            {
                self.cookies
                    .insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
        if close {
            self.stream = None;
        }
        Ok(Response {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        })
    }

    pub fn get(&mut self, path: &str) -> Response {
        self.request("GET", path, None, &[]).unwrap()
    }

    pub fn get_json(&mut self, path: &str) -> Response {
        self.request("GET", path, None, &[("Accept", "application/json")])
            .unwrap()
    }

    pub fn post(&mut self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body), &[]).unwrap()
    }

    pub fn post_json(&mut self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body), &[("Accept", "application/json")])
            .unwrap()
    }
}

/// Percent-encodes a form value.
pub fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Enters as a Prolific participant and reads the instructions: the CSRF
/// token.
pub fn enter(c: &mut Client, pid: &str) -> String {
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
