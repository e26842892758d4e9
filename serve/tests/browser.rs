//! A real browser on the annotator's page: headless Chromium driven through
//! ChromeDriver's W3C WebDriver protocol (plain JSON over HTTP, spoken by
//! the tests' own small client). It opens the study URL, reads the
//! instructions, answers with the keyboard and with clicks, and reaches the
//! completion screen; on a phone-sized window the two items stack. A
//! screenshot of the task page is saved (the README's, when
//! `ACM_SCREENSHOT` names a file).
//!
//! Needs Debian's `chromium` and `chromium-driver`
//! (`apt-get install -y chromium chromium-driver`); ignored otherwise:
//! `cargo test -p adaptive-comp-metrics-serve --test browser -- --ignored`.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use adaptive_comp_metrics_serve::{Options, PageSettings, Server, Store};
use common::socket::Client;
use common::{Http, state, store, temp_dir};
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

struct Driver {
    process: Child,
    client: Client,
    session: String,
}

impl Driver {
    fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let process = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {driver} ({e}): apt-get install -y chromium chromium-driver")
            });
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let mut client = Client::new(addr);
        let t0 = Instant::now();
        loop {
            if client
                .request("GET", "/status", None, &[])
                .is_ok_and(|r| r.status == 200 && r.json()["value"]["ready"] == true)
            {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=820,560",
                         "--force-device-scale-factor=1", "--hide-scrollbars"]
            }
        }}});
        let mut d = Self {
            process,
            client,
            session: String::new(),
        };
        let v = d.call("POST", "/session", &caps);
        d.session = v["sessionId"]
            .as_str()
            .expect("a WebDriver session")
            .to_owned();
        d
    }

    fn call(&mut self, method: &str, path: &str, body: &Value) -> Value {
        let text = body.to_string();
        let r = self
            .client
            .request(
                method,
                path,
                (method == "POST").then_some(text.as_str()),
                &[("Content-Type", "application/json")],
            )
            .unwrap();
        let v = r.json();
        assert!(r.status == 200, "{method} {path}: {} {}", r.status, r.body);
        v["value"].clone()
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    fn go(&mut self, url: &str) {
        let p = self.s("/url");
        self.call("POST", &p, &json!({"url": url}));
    }

    /// The element matching `css`, waiting up to 10 s for it.
    fn find(&mut self, css: &str) -> String {
        let p = self.s("/element");
        let t0 = Instant::now();
        loop {
            let r = self
                .client
                .request(
                    "POST",
                    &p,
                    Some(&json!({"using": "css selector", "value": css}).to_string()),
                    &[("Content-Type", "application/json")],
                )
                .unwrap();
            if r.status == 200 {
                return r.json()["value"][ELEMENT].as_str().unwrap().to_owned();
            }
            assert!(t0.elapsed() < Duration::from_secs(10), "no element {css}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn text(&mut self, el: &str) -> String {
        let p = self.s(&format!("/element/{el}/text"));
        self.call("GET", &p, &Value::Null)
            .as_str()
            .unwrap_or("")
            .to_owned()
    }

    fn rect(&mut self, el: &str) -> Value {
        let p = self.s(&format!("/element/{el}/rect"));
        self.call("GET", &p, &Value::Null)
    }

    fn click(&mut self, el: &str) {
        let p = self.s(&format!("/element/{el}/click"));
        self.call("POST", &p, &json!({}));
    }

    /// Presses one key (a character, or a WebDriver key code).
    fn key(&mut self, key: &str) {
        let p = self.s("/actions");
        self.call(
            "POST",
            &p,
            &json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]}),
        );
        let p = self.s("/actions");
        self.call("DELETE", &p, &Value::Null);
    }

    /// Waits until the element `css` has a text containing `want`.
    fn wait_text(&mut self, css: &str, want: &str) {
        let t0 = Instant::now();
        loop {
            let el = self.find(css);
            let p = self.s(&format!("/element/{el}/text"));
            let r = self.client.request("GET", &p, None, &[]).unwrap();
            if r.status == 200 && r.json()["value"].as_str().unwrap_or("").contains(want) {
                return;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "{css} never showed {want:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&mut self) -> Vec<u8> {
        let p = self.s("/screenshot");
        let b64 = self.call("GET", &p, &Value::Null);
        base64(b64.as_str().unwrap())
    }

    fn resize(&mut self, w: u32, h: u32) {
        let p = self.s("/window/rect");
        self.call("POST", &p, &json!({"width": w, "height": h}));
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let p = format!("/session/{}", self.session);
            let _ = self.client.request("DELETE", &p, None, &[]);
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Decodes standard base64.
fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => 0,
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().filter(|&&b| b == b'=').count();
        let n = chunk.iter().fold(0u32, |acc, &b| {
            (acc << 6) | if b == b'=' { 0 } else { val(b) }
        });
        let n = n << (6 * (4 - chunk.len()));
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad.min(2)]);
    }
    out
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn a_browser_answers_with_keys_and_clicks() {
    let dir = temp_dir("browser");
    let page = PageSettings {
        title: "Word pairs".into(),
        question: "Which pair of words is more closely related?".into(),
        instructions: "Each screen shows two pairs of words. Choose the pair whose two words are \
                       more closely related in meaning.\n\nUse the keys or tap a pair."
            .into(),
        tie_label: Some("About the same".into()),
        completion_code: Some("C7D2X9".into()),
        ..PageSettings::default()
    };
    let mut f = state(16, 2, 0.5, 2, 0.0, 21, Some(page));
    // Readable pairs of words for the screenshot.
    let words = [
        ("car", "automobile"),
        ("coast", "shore"),
        ("journey", "voyage"),
        ("food", "fruit"),
        ("bird", "crane"),
        ("brother", "monk"),
        ("tool", "implement"),
        ("lad", "brother"),
        ("coast", "hill"),
        ("forest", "graveyard"),
        ("monk", "slave"),
        ("glass", "magician"),
        ("noon", "string"),
        ("rooster", "voyage"),
        ("cord", "smile"),
        ("chord", "smile"),
    ];
    f.items.texts = words.iter().map(|(a, b)| format!("{a} – {b}")).collect();
    let s = store(&dir, &f);
    let server = Server::start(
        &s,
        Options {
            addr: "127.0.0.1:0".parse().unwrap(),
            quota: Some(4),
            log_file: Some(dir.join("log.txt")),
            ..Options::default()
        },
    )
    .unwrap();
    let base = format!("http://{}", server.local_addr());
    let mut d = Driver::start();
    d.go(&format!(
        "{base}/?PROLIFIC_PID=browser-1&STUDY_ID=st&SESSION_ID=se"
    ));
    // The instructions, read; Enter starts.
    let ins = d.find("#instructions");
    let text = d.text(&ins);
    assert!(text.contains("more closely related in meaning"), "{text}");
    assert!(text.contains("About the same"));
    d.key("\u{E007}"); // Enter
    d.wait_text("#count", "0 of 4 done");
    let shot = d.screenshot();
    assert_eq!(&shot[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(dir.join("annotator.png"), &shot).unwrap();
    if let Ok(p) = std::env::var("ACM_SCREENSHOT") {
        std::fs::write(p, &shot).unwrap();
    }
    // Keyboard: 1, then the right arrow.
    d.key("1");
    d.wait_text("#count", "1 of 4 done");
    d.key("\u{E014}"); // ArrowRight
    d.wait_text("#count", "2 of 4 done");
    // Clicks: "same", then the first item.
    let tie = d.find("#tie");
    d.click(&tie);
    d.wait_text("#count", "3 of 4 done");
    // On a phone-sized window the items stack.
    d.resize(390, 844);
    let (a, b) = (d.find("#first"), d.find("#second"));
    let (ra, rb) = (d.rect(&a), d.rect(&b));
    assert!(
        rb["y"].as_f64().unwrap() >= ra["y"].as_f64().unwrap() + ra["height"].as_f64().unwrap(),
        "the items do not stack on a phone: {ra} {rb}"
    );
    assert!(ra["width"].as_f64().unwrap() <= 390.0);
    d.click(&a);
    // The quota is reached: the completion screen with its code.
    d.wait_text("#done", "Thank you");
    let code = d.find("#code");
    assert_eq!(d.text(&code), "C7D2X9");
    drop(d);
    server.shutdown().unwrap();
    let f = Store::state(&s).unwrap();
    assert_eq!(f.campaign.scheduler().total_votes(), 4);
    let stats = f.campaign.worker_stats();
    assert_eq!(stats[0].worker, "browser-1");
    assert_eq!(stats[0].votes, 4);
}
