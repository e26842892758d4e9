//! The event log on standard error: one line per event, as text for people
//! or as JSON for machines (`--format json`).
//!
//! ```text
//! text: 2026-11-25T15:02:11.042Z ballot_closed: ballot 1 closed: 10000 votes, 0 withdrawn, b = 1 (0.041 s)
//! json: {"ts":"2026-11-25T15:02:11.042Z","event":"ballot_closed","ballot":1,"votes":10000,…,"message":"…"}
//! ```

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

use crate::engine::LogLine;

/// How the event log is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One sentence per line, after the time and the event's name.
    #[default]
    Text,
    /// One JSON object per line: `ts`, `event`, the event's fields, `message`.
    Json,
}

/// Where the event log goes.
#[derive(Clone)]
pub(crate) struct Logger {
    format: LogFormat,
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl std::fmt::Debug for Logger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Logger")
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

/// The UTC time of `ms` milliseconds since the epoch, RFC 3339.
pub(crate) fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

impl Logger {
    pub(crate) fn new(format: LogFormat, sink: Box<dyn Write + Send>) -> Self {
        Self {
            format,
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes one event.
    pub(crate) fn write(&self, l: &LogLine) {
        let ts = rfc3339(crate::store::now_ms());
        let text = match self.format {
            LogFormat::Text => format!("{ts} {}: {}\n", l.event, l.message),
            LogFormat::Json => {
                let mut m = Map::new();
                m.insert("ts".into(), Value::String(ts));
                m.insert("event".into(), Value::String(l.event.into()));
                for (k, v) in &l.fields {
                    m.insert((*k).into(), v.clone());
                }
                m.insert("message".into(), Value::String(l.message.clone()));
                let mut s = Value::Object(m).to_string();
                s.push('\n');
                s
            }
        };
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // A closed standard error loses the log, not the votes.
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
    }

    pub(crate) fn all(&self, lines: &[LogLine]) {
        for l in lines {
            self.write(l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29T12:34:56.789Z: a leap day in a year divisible by 400.
        assert_eq!(rfc3339(951_827_696_789), "2000-02-29T12:34:56.789Z");
        assert_eq!(rfc3339(1_798_761_600_000), "2027-01-01T00:00:00.000Z");
    }
}
