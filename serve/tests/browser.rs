//! A real browser on the annotator's page: headless Chromium driven through
//! ChromeDriver's W3C WebDriver protocol (plain JSON over HTTP, spoken by
//! the tests' own small client). One test per behaviour issue 37 asks of the
//! page: the instructions (plain words, the time it takes; Enter starts), a
//! key press shown at once and sent once, "I want to stop here" asked once
//! (and the pair given back), the completion code's copy button, the visible
//! countdown before the completion URL, the note and the message of a lease
//! that ran out, and a phone-sized screen (the items stack, nothing wider
//! than the screen, tap targets of 44 px). A screenshot of the task page is
//! saved (the README's, when `ACM_SCREENSHOT` names a file).
//!
//! The tests take turns (one browser at a time: the machine's 2 cores).
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
    /// A browser with a `width` × `height` window; under 600 px wide, a
    /// phone's (Chromium's mobile emulation: that viewport, touch events).
    fn start(width: u32, height: u32) -> Self {
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
        let mut options = json!({
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                     "--force-device-scale-factor=1", "--hide-scrollbars"]
        });
        if width < 600 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 2, "touch": true
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
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

    /// Runs a script in the page; its value.
    fn script(&mut self, js: &str) -> Value {
        let p = self.s("/execute/sync");
        self.call("POST", &p, &json!({"script": js, "args": []}))
    }

    /// Runs an asynchronous script (its last argument is the callback).
    fn script_async(&mut self, js: &str) -> Value {
        let p = self.s("/execute/async");
        self.call("POST", &p, &json!({"script": js, "args": []}))
    }

    /// Grants the page a permission (`clipboard-read`, …).
    fn grant(&mut self, name: &str) {
        let p = self.s("/permissions");
        self.call(
            "POST",
            &p,
            &json!({"descriptor": {"name": name}, "state": "granted"}),
        );
    }

    /// Whether an element matches `css` now (no waiting).
    fn exists(&mut self, css: &str) -> bool {
        let js = format!("return document.querySelector({}) !== null;", json!(css));
        self.script(&js) == json!(true)
    }

    /// The task label of the pair shown.
    fn task_label(&mut self) -> String {
        self.find("#answer");
        self.script("return document.querySelector('input[name=task]').value;")
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// Waits until the page's script says `true` (up to 10 s).
    fn wait_until(&mut self, js: &str, what: &str) {
        let t0 = Instant::now();
        while self.script(js) != json!(true) {
            assert!(t0.elapsed() < Duration::from_secs(10), "never: {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
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

/// One browser at a time (the tests run on threads of one process).
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    TURN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

const ADMIN: &str = "browser-admin-token";

/// The page of a word-relatedness study, as a researcher would write it.
fn words_page() -> PageSettings {
    PageSettings {
        title: "Word pairs".into(),
        question: "Which pair of words is more closely related?".into(),
        instructions: "Each screen shows two pairs of words. Choose the pair whose two words are \
                       more closely related in meaning.\n\nUse the keys or tap a pair."
            .into(),
        tie_label: Some("About the same".into()),
        completion_code: Some("C7D2X9".into()),
        completion_url: Some("https://app.example/complete?cc={code}".into()),
        ..PageSettings::default()
    }
}

/// A server on a campaign of 16 readable word pairs (M = 2, 2 ballots, no
/// control pair), on a free port of 127.0.0.1.
struct Study {
    dir: std::path::PathBuf,
    store: std::path::PathBuf,
    server: Server,
    base: String,
}

impl Study {
    fn start(name: &str, page: PageSettings, quota: Option<usize>, lease: Duration) -> Self {
        let dir = temp_dir(name);
        let mut f = state(16, 2, 0.5, 2, 0.0, 21, Some(page));
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
        let store = store(&dir, &f);
        let server = Server::start(
            &store,
            Options {
                addr: "127.0.0.1:0".parse().unwrap(),
                admin_token: Some(ADMIN.into()),
                quota,
                lease,
                log_file: Some(dir.join("log.txt")),
                ..Options::default()
            },
        )
        .unwrap();
        let base = format!("http://{}", server.local_addr());
        Self {
            dir,
            store,
            server,
            base,
        }
    }

    /// The study URL of participant `pid`.
    fn url(&self, pid: &str) -> String {
        format!(
            "{}/?PROLIFIC_PID={pid}&STUDY_ID=st&SESSION_ID=se",
            self.base
        )
    }

    /// The dashboard's status.
    fn status(&self) -> Value {
        let mut admin = Client::new(self.server.local_addr());
        admin
            .extra
            .push(("Authorization".into(), format!("Bearer {ADMIN}")));
        let r = admin.get("/admin/status.json");
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    /// Stops the server: the campaign as stored.
    fn stop(self) -> adaptive_comp_metrics_serve::state::CampaignFile {
        self.server.shutdown().unwrap();
        Store::state(&self.store).unwrap()
    }
}

/// The participant reads the instructions and presses Enter.
fn begin(d: &mut Driver, study: &Study, pid: &str) {
    d.go(&study.url(pid));
    d.find("#instructions");
    d.key("\u{E007}"); // Enter
    d.find("#answer");
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn the_instructions_say_what_to_do_and_how_long_and_enter_starts() {
    let _turn = turn();
    let study = Study::start(
        "browser-ins",
        words_page(),
        Some(4),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(820, 560);
    d.go(&study.url("browser-1"));
    let ins = d.find("#instructions");
    let text = d.text(&ins);
    assert!(text.contains("more closely related in meaning"), "{text}");
    assert!(text.contains("About the same"), "{text}");
    // The time it takes, from the quota: 4 pairs, about a minute.
    let est = d.find("#estimate");
    assert_eq!(
        d.text(&est),
        "You will see at most 4 pairs: about 1 minute in all. You can stop earlier."
    );
    d.key("\u{E007}"); // Enter
    d.wait_text("#count", "0 of 4 done");
    let q = d.find(".question");
    assert_eq!(d.text(&q), "Which pair of words is more closely related?");
    let shot = d.screenshot();
    assert_eq!(&shot[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(study.dir.join("annotator.png"), &shot).unwrap();
    if let Ok(p) = std::env::var("ACM_SCREENSHOT") {
        std::fs::write(p, &shot).unwrap();
    }
    drop(d);
    study.stop();
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn a_key_press_shows_the_choice_at_once_and_answers_once() {
    let _turn = turn();
    let study = Study::start(
        "browser-keys",
        words_page(),
        Some(4),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(820, 560);
    begin(&mut d, &study, "browser-1");
    // The answer held back, to look at the page as it is sent: the chosen
    // item marked at once, the other dimmed; a second key does nothing.
    d.script(
        "document.getElementById('answer').addEventListener('submit', \
         function (e) { e.preventDefault(); });",
    );
    d.key("1");
    let look = "return [document.getElementById('first').className, \
                document.getElementById('first').getAttribute('aria-pressed'), \
                document.getElementById('second').className, \
                document.getElementById('answer').className];";
    assert_eq!(
        d.script(look),
        json!(["item chosen", "true", "item", "sending"]),
        "no feedback on a key press"
    );
    d.key("2");
    assert_eq!(
        d.script(look),
        json!(["item chosen", "true", "item", "sending"]),
        "a second key press changed the answer being sent"
    );
    // Now answered for real: 1, the right arrow, 3 (the tie).
    d.go(&format!("{}/task", study.base));
    let mut asked = Vec::new();
    for (key, after) in [("1", "1 of 4"), ("\u{E014}", "2 of 4"), ("3", "3 of 4")] {
        asked.push(d.task_label());
        d.key(key);
        d.wait_text("#count", after);
    }
    drop(d);
    let f = study.stop();
    let got: Vec<_> = asked
        .iter()
        .map(|l| f.campaign.answer_of(f.parse_task(l).unwrap()))
        .collect();
    use adaptive_comp_metrics::ballot::Vote;
    assert_eq!(
        got,
        [
            Some(("browser-1", Vote::First)),
            Some(("browser-1", Vote::Second)),
            Some(("browser-1", Vote::Tie)),
        ]
    );
    assert_eq!(f.campaign.scheduler().total_votes(), 3);
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn stopping_asks_once_and_gives_the_pair_back() {
    let _turn = turn();
    let study = Study::start(
        "browser-stop",
        words_page(),
        Some(4),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(820, 560);
    begin(&mut d, &study, "browser-1");
    // No way out before the first answer; then one that says what it does.
    assert!(!d.exists("#finish"));
    d.key("1");
    d.wait_text("#count", "1 of 4 done");
    let held = d.task_label();
    let stop = d.find("#finish");
    assert_eq!(d.text(&stop), "I want to stop here (this ends the study)");
    d.click(&stop);
    d.wait_text("#confirm-stop", "Stop the study now?");
    let ask = d.find("#confirm-stop");
    let text = d.text(&ask);
    assert!(text.contains("You answered 1 pair of 4."), "{text}");
    assert!(text.contains("there is no completion code"), "{text}");
    // "No, go on": the same pair, still held.
    let back = d.find("#go-on");
    d.click(&back);
    d.wait_text("#count", "1 of 4 done");
    assert_eq!(d.task_label(), held);
    assert_eq!(study.status()["live_leases"], 1);
    // "Yes, stop here": the end screen, and the pair is free at once.
    let stop = d.find("#finish");
    d.click(&stop);
    let yes = d.find("#stop");
    d.click(&yes);
    d.wait_text("#done", "Thank you");
    let partial = d.find("#partial");
    assert!(d.text(&partial).contains("no completion code"));
    assert!(!d.exists("#code"));
    assert!(!d.exists("meta[http-equiv=refresh]"));
    let st = study.status();
    assert_eq!(
        st["live_leases"], 0,
        "the pair stays reserved after stopping"
    );
    assert_eq!(st["workers"][0]["completion"], "partial");
    assert_eq!(st["workers"][0]["answers"], 1);
    // Back on the task page: still the end.
    d.go(&format!("{}/task", study.base));
    d.wait_text("#done", "Thank you");
    drop(d);
    study.stop();
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn the_completion_code_is_copied_with_a_click() {
    let _turn = turn();
    let study = Study::start(
        "browser-copy",
        words_page(),
        Some(2),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(820, 560);
    begin(&mut d, &study, "browser-1");
    // Granted to the page's origin (a page of it is open).
    d.grant("clipboard-read");
    d.grant("clipboard-write");
    let first = d.find("#first");
    d.click(&first);
    d.wait_text("#count", "1 of 2 done");
    let second = d.find("#second");
    d.click(&second);
    d.wait_text("#done", "Thank you");
    let code = d.find("#code");
    assert_eq!(d.text(&code), "C7D2X9");
    // The button is the script's: hidden in the HTML (no script, no
    // button that does nothing), shown by the script.
    assert_eq!(
        d.script(
            "var b = document.getElementById('copy').cloneNode(true); b.hidden = true; \
             document.body.appendChild(b); return getComputedStyle(b).display;"
        ),
        json!("none"),
        "a button marked hidden shows"
    );
    let copy = d.find("#copy");
    assert_eq!(d.text(&copy), "Copy");
    d.click(&copy);
    d.wait_text("#copy", "Copied");
    let pasted = d.script_async(
        "var done = arguments[arguments.length - 1]; \
         navigator.clipboard.readText().then(done, function (e) { done('error: ' + e); });",
    );
    assert_eq!(pasted, json!("C7D2X9"));
    drop(d);
    study.stop();
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn a_visible_countdown_before_the_completion_url() {
    let _turn = turn();
    let study = Study::start(
        "browser-count",
        words_page(),
        Some(1),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(820, 560);
    begin(&mut d, &study, "browser-1");
    d.key("2");
    d.wait_text("#done", "Thank you");
    let link = d.find("#complete");
    assert_eq!(d.text(&link), "Complete the study");
    assert_eq!(
        d.script("return document.getElementById('complete').getAttribute('href');"),
        json!("https://app.example/complete?cc=C7D2X9")
    );
    let seconds = |d: &mut Driver| -> i64 {
        let el = d.find("#seconds");
        d.text(&el).parse().unwrap()
    };
    let secs = seconds(&mut d);
    assert!((25..=30).contains(&secs), "{secs} s to copy the code");
    std::thread::sleep(Duration::from_millis(2200));
    let later = seconds(&mut d);
    assert!(
        (secs - 4..secs).contains(&later),
        "the countdown does not run: {secs} then {later}"
    );
    // The redirect itself: as long as the countdown says.
    assert_eq!(
        d.script(
            "return document.querySelector('meta[http-equiv=refresh]').getAttribute('content');"
        ),
        json!("30; url=https://app.example/complete?cc=C7D2X9")
    );
    drop(d);
    study.stop();
}

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn a_pair_left_too_long_says_so_before_and_after_it_goes_to_someone_else() {
    let _turn = turn();
    let study = Study::start(
        "browser-lease",
        words_page(),
        Some(4),
        Duration::from_secs(2),
    );
    let mut d = Driver::start(820, 560);
    begin(&mut d, &study, "browser-1");
    let held = d.task_label();
    // While the lease runs, no note; once it has run out, the page says
    // the pair may go to someone else.
    assert_eq!(
        d.script("return document.getElementById('lease-note').hidden;"),
        json!(true)
    );
    d.wait_until(
        "return !document.getElementById('lease-note').hidden;",
        "the note of a lease that ran out",
    );
    let note = d.find("#lease-note");
    let text = d.text(&note);
    assert!(text.contains("may now be given to someone else"), "{text}");
    // Someone else arrives and is given the pair.
    let mut other = Client::new(study.server.local_addr());
    common::enter(&mut other, "other");
    let j = other.get_json("/task").json();
    assert_eq!(j["task"], json!(held), "{j}");
    // The late answer: not recorded, said plainly, and the way on.
    d.key("1");
    d.wait_text("#message", "Not recorded");
    let msg = d.find("#message");
    let text = d.text(&msg);
    assert!(
        text.contains("This pair was given to someone else after a long pause."),
        "{text}"
    );
    let on = d.script("return document.querySelector('#message a').getAttribute('href');");
    assert_eq!(on, json!("/task"));
    d.go(&format!("{}/task", study.base));
    d.wait_text("#count", "0 of 4 done");
    assert_ne!(d.task_label(), held);
    drop(d);
    let f = study.stop();
    assert_eq!(f.campaign.scheduler().total_votes(), 0);
}

/// The tap targets (buttons and links) of the page that are smaller than
/// 44 × 44 CSS px, and whether anything is wider than the screen.
const PHONE_CHECK: &str = "var small = []; \
    document.querySelectorAll('button:not([hidden]), a, input[type=submit]').forEach(function (e) { \
      var r = e.getBoundingClientRect(); \
      if (r.width > 0 && (r.height < 44 || r.width < 44)) { \
        small.push((e.id || e.textContent.trim()) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)); } }); \
    return {small: small, wide: document.documentElement.scrollWidth > window.innerWidth, \
            font: parseFloat(getComputedStyle(document.body).fontSize)};";

#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages)"]
fn on_a_phone_the_items_stack_and_everything_fits_a_thumb() {
    let _turn = turn();
    let study = Study::start(
        "browser-phone",
        words_page(),
        Some(2),
        Duration::from_secs(600),
    );
    let mut d = Driver::start(390, 844);
    d.go(&study.url("browser-1"));
    assert_eq!(d.script("return window.innerWidth;"), json!(390));
    d.find("#instructions");
    let check = |d: &mut Driver, page: &str| {
        let v = d.script(PHONE_CHECK);
        assert_eq!(v["small"], json!([]), "{page}: tap targets under 44 px");
        assert_eq!(v["wide"], json!(false), "{page}: wider than the screen");
        assert!(v["font"].as_f64().unwrap() >= 16.0, "{page}: {v}");
    };
    check(&mut d, "instructions");
    let start = d.find("#start");
    d.click(&start);
    d.find("#answer");
    check(&mut d, "task");
    // The two items stack, each as wide as the screen allows, and the
    // whole choice (the tie included) is on the first screen.
    let (a, b, tie) = (d.find("#first"), d.find("#second"), d.find("#tie"));
    let (ra, rb, rt) = (d.rect(&a), d.rect(&b), d.rect(&tie));
    let f = |r: &Value, k: &str| r[k].as_f64().unwrap();
    assert!(
        f(&rb, "y") >= f(&ra, "y") + f(&ra, "height"),
        "the items do not stack on a phone: {ra} {rb}"
    );
    assert!(f(&ra, "width") >= 300.0 && f(&ra, "width") <= 390.0, "{ra}");
    let inner = d.script("return window.innerHeight;").as_f64().unwrap();
    assert!(
        f(&rt, "y") + f(&rt, "height") <= inner,
        "the tie choice is below the fold: {rt}, window {inner}"
    );
    // Tapping answers.
    d.click(&a);
    d.wait_text("#count", "1 of 2 done");
    check(&mut d, "task after an answer");
    let stop = d.find("#finish");
    d.click(&stop);
    d.find("#confirm-stop");
    check(&mut d, "stop?");
    let back = d.find("#go-on");
    d.click(&back);
    let b = d.find("#second");
    d.click(&b);
    d.wait_text("#done", "Thank you");
    check(&mut d, "end");
    drop(d);
    let f = study.stop();
    assert_eq!(f.campaign.scheduler().total_votes(), 2);
}
