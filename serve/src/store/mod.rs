//! The store of a served campaign: one SQLite file (WAL mode) holding the
//! campaign state as it was when serving began (a snapshot in the file
//! workflow's JSON format) and every operation since, in order: answers,
//! exclusions, ballot transitions. The state at any moment is the snapshot
//! with the operations replayed through the library ([`Campaign::answer`],
//! [`Campaign::exclude_worker`], [`Campaign::exclude_workers`],
//! [`Campaign::close_ballot`], [`Campaign::open_ballot`]), so it is exactly
//! what the file workflow would hold after the same steps.
//!
//! ```text
//! meta(key, value)                       format, version, tag, admin token
//! snapshot(seq, state)                   the JSON state after event `seq`
//! events(seq, at_ms, kind, ballot, position, worker, vote, data)
//!                                        1 answer · 2 exclude a worker · 3 exclude by rule · 4 close and open the next ballot
//! workers(id, name, source, params, first_ms)
//! leases(ballot, position, worker, expires_ms)
//! sessions(token, worker, csrf, created_ms, started)
//! invitations(token, worker, created_ms)
//! finishes(worker, at_ms, partial)       who stopped by "I want to stop here", and whether early
//! ```
//!
//! A lease row lives while its task is leased and unanswered: answering
//! the task, stopping, or an exclusion deletes it, so that the rows whose
//! time has not run out are the live leases (as the dashboard counts them).
//!
//! Locks: `<store>.lock` is the campaign's lock, as `acm campaign` takes it
//! for every command that writes (the same convention as for a JSON state);
//! a server holds it for its whole life, and also `<store>-serve.lock`,
//! which [`Store::replace_state`] checks, so that a command that writes
//! (holding the campaign's lock itself) can never replace the state under a
//! running server. Any number of processes read ([`Store::state_json`]) at
//! any time.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use std::time::{SystemTime, UNIX_EPOCH};

#[cfg(doc)]
use adaptive_comp_metrics::ballot::Campaign;
use adaptive_comp_metrics::ballot::{ExclusionRule, Phase, TaskId, Unvoted, Vote};
use rusqlite::{Connection, OpenFlags, params};

use crate::error::ServeError;

mod load;
mod writer;

use crate::state::{CampaignFile, RngState};
pub(crate) use load::load;
#[cfg(feature = "fuzzing")]
pub(crate) use load::{EventColumns, decode_event};
pub(crate) use writer::{Writer, open_for_serving};

/// What the store's `meta` table says it is.
pub const STORE_FORMAT: &str = "adaptive-comp-metrics campaign store";
/// The store layout version.
pub const STORE_VERSION: &str = "1";

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, state BLOB NOT NULL);
CREATE TABLE workers (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
                      params TEXT NOT NULL, first_ms INTEGER NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind INTEGER NOT NULL,
                     ballot INTEGER, position INTEGER, worker INTEGER REFERENCES workers(id),
                     vote INTEGER, data TEXT);
CREATE TABLE leases (ballot INTEGER NOT NULL, position INTEGER NOT NULL, worker INTEGER NOT NULL,
                     expires_ms INTEGER NOT NULL, PRIMARY KEY (ballot, position)) WITHOUT ROWID;
CREATE TABLE sessions (token TEXT PRIMARY KEY, worker INTEGER NOT NULL, csrf TEXT NOT NULL,
                       created_ms INTEGER NOT NULL, started INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE invitations (token TEXT PRIMARY KEY, worker TEXT NOT NULL UNIQUE,
                          created_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE finishes (worker INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, partial INTEGER NOT NULL);
";

/// Tables added since version 1 was first written: created when a server
/// opens an older store (a reader tolerates their absence).
const MIGRATE: &str = "
CREATE TABLE IF NOT EXISTS finishes (worker INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, partial INTEGER NOT NULL);
";

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// How a commit reaches the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// Every commit is synced to the disk before it is acknowledged
    /// (`PRAGMA synchronous = FULL`): an acknowledged vote survives a
    /// process kill and a power loss. Commits are grouped, so a sync covers
    /// every vote that arrived meanwhile.
    #[default]
    Full,
    /// Commits reach the operating system, which writes them in its own
    /// time (`synchronous = NORMAL`): an acknowledged vote survives a
    /// process kill (`kill -9`) but not a power loss.
    Normal,
}

/// A recorded operation on the campaign.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum EventKind {
    /// A worker's answer to a task.
    Answer {
        task: TaskId,
        worker: u32,
        vote: Vote,
    },
    /// A worker excluded by id (the rule's verdict after a control
    /// answer, or the researcher's decision).
    Exclude { worker: u32, reason: String },
    /// Every worker the rule condemns excluded.
    ExcludeByRule {
        min_accuracy: f64,
        min_controls: u64,
    },
    /// The open ballot closed and the next one opened.
    Advance { unvoted: Unvoted },
}

/// One event with its sequence number and time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Event {
    pub(crate) seq: i64,
    pub(crate) at_ms: u64,
    pub(crate) kind: EventKind,
}

/// A worker known to the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WorkerRow {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) source: String,
    pub(crate) params: String,
}

/// A write for the writer thread.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    Worker(WorkerRow, u64),
    Event(Event),
    Lease {
        ballot: usize,
        position: usize,
        worker: u32,
        expires_ms: u64,
    },
    Session {
        token: String,
        worker: u32,
        csrf: String,
        at_ms: u64,
    },
    SessionStarted {
        token: String,
    },
    Invitation {
        token: String,
        worker: String,
        at_ms: u64,
    },
    PruneLeases {
        before_ballot: usize,
    },
    /// The lease of a task ends (answered, given back, or its worker excluded).
    DropLease {
        ballot: usize,
        position: usize,
    },
    /// A worker stopped ("I want to stop here").
    Finish {
        worker: u32,
        at_ms: u64,
        partial: bool,
    },
    /// A session forgotten (a worker's oldest, past the number kept).
    DropSession {
        token: String,
    },
}

fn vote_code(v: Vote) -> i64 {
    match v {
        Vote::First => 0,
        Vote::Second => 1,
        Vote::Tie => 2,
    }
}

fn vote_of(code: i64) -> Option<Vote> {
    match code {
        0 => Some(Vote::First),
        1 => Some(Vote::Second),
        2 => Some(Vote::Tie),
        _ => None,
    }
}

/// Applies one recorded event to a campaign state, exactly as the server
/// applied it when it happened.
pub(crate) fn apply(
    file: &mut CampaignFile,
    names: &[String],
    ev: &Event,
) -> Result<(), ServeError> {
    let fail = |message: String| ServeError::Replay {
        seq: ev.seq,
        message,
    };
    let name = |w: u32| {
        names
            .get(w as usize)
            .map(String::as_str)
            .ok_or_else(|| fail(format!("unknown worker {w}")))
    };
    match &ev.kind {
        EventKind::Answer { task, worker, vote } => {
            let w = name(*worker)?;
            file.campaign
                .answer(*task, w, *vote)
                .map_err(|e| fail(e.to_string()))?;
        }
        EventKind::Exclude { worker, .. } => {
            let w = name(*worker)?;
            file.campaign
                .exclude_worker(w)
                .map_err(|e| fail(e.to_string()))?;
        }
        EventKind::ExcludeByRule {
            min_accuracy,
            min_controls,
        } => {
            let rule = ExclusionRule::new(*min_accuracy, *min_controls)
                .map_err(|e| fail(e.to_string()))?;
            file.campaign
                .exclude_workers(&rule)
                .map_err(|e| fail(e.to_string()))?;
        }
        EventKind::Advance { unvoted } => advance(file, *unvoted).map_err(fail)?,
    }
    Ok(())
}

/// Closes the open ballot and opens the next one (unless that was the
/// last), moving the generators as the file workflow's `close` does.
/// Closing fails without changing anything; opening cannot fail on a
/// campaign whose plan was checked at its creation (if it did, the ballot
/// stays closed and the error says so).
pub(crate) fn advance(file: &mut CampaignFile, unvoted: Unvoted) -> Result<(), String> {
    let mut b = file
        .ballot_rng
        .generator(file.seed)
        .map_err(|e| e.to_string())?;
    let mut l = file
        .layout_rng
        .generator(file.seed)
        .map_err(|e| e.to_string())?;
    file.campaign
        .close_ballot(unvoted)
        .map_err(|e| e.to_string())?;
    if file.campaign.scheduler().phase() != Phase::Finished {
        let opened = file.campaign.open_ballot(&mut b, &mut l).map(|_| ());
        file.ballot_rng = RngState::of(&b);
        file.layout_rng = RngState::of(&l);
        opened.map_err(|e| format!("the next ballot cannot open: {e}"))?;
    }
    Ok(())
}

/// A worker's answers through the server: when they came and how many.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Activity {
    /// When the worker first came (their first session).
    pub(crate) arrived_ms: u64,
    /// Their first answer.
    pub(crate) first_ms: Option<u64>,
    /// Their last answer.
    pub(crate) last_ms: Option<u64>,
    /// Answers recorded (discarded ones included): what they did, for payment.
    pub(crate) answers: u64,
}

/// Everything a store holds, read back.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) file: CampaignFile,
    pub(crate) last_seq: i64,
    pub(crate) workers: Vec<WorkerRow>,
    /// Per worker (by id).
    pub(crate) activity: Vec<Activity>,
    pub(crate) leases: Vec<(usize, usize, u32, u64)>,
    /// Oldest first.
    pub(crate) sessions: Vec<(String, u32, String, bool)>,
    pub(crate) invitations: Vec<(String, String)>,
    /// (worker, at_ms, partial).
    pub(crate) finishes: Vec<(u32, u64, bool)>,
    /// When each ballot opened and closed, where the store saw it.
    pub(crate) ballot_times: Vec<(Option<u64>, Option<u64>)>,
    pub(crate) admin_token: String,
    pub(crate) events: usize,
}

impl Loaded {
    /// What a store made from `file` and given `ops` holds when read back,
    /// without SQLite: the rows the writer writes ([`Op`]) kept in memory,
    /// the events replayed through the library as [`load`] replays them. The
    /// engine's tests and fuzz target restart from it.
    ///
    /// # Errors
    /// A recorded event the library refuses ([`ServeError::Replay`]).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn replay(file: CampaignFile, ops: &[Op]) -> Result<Self, ServeError> {
        let mut l = Self {
            ballot_times: vec![(None, None); file.campaign.scheduler().ballot_sizes().len()],
            file,
            last_seq: 0,
            workers: Vec::new(),
            activity: Vec::new(),
            leases: Vec::new(),
            sessions: Vec::new(),
            invitations: Vec::new(),
            finishes: Vec::new(),
            admin_token: String::new(),
            events: 0,
        };
        let mut leases: std::collections::BTreeMap<(usize, usize), (u32, u64)> =
            std::collections::BTreeMap::new();
        for op in ops {
            match op {
                Op::Worker(w, at) => {
                    l.workers.push(w.clone());
                    l.activity.push(Activity {
                        arrived_ms: *at,
                        ..Activity::default()
                    });
                }
                Op::Event(ev) => {
                    let names: Vec<String> = l.workers.iter().map(|w| w.name.clone()).collect();
                    apply(&mut l.file, &names, ev)?;
                    if let EventKind::Answer { worker, .. } = ev.kind
                        && let Some(a) = l.activity.get_mut(worker as usize)
                    {
                        a.first_ms.get_or_insert(ev.at_ms);
                        a.last_ms = Some(ev.at_ms);
                        a.answers += 1;
                    }
                    l.last_seq = ev.seq;
                    l.events += 1;
                }
                Op::Lease {
                    ballot,
                    position,
                    worker,
                    expires_ms,
                } => {
                    leases.insert((*ballot, *position), (*worker, *expires_ms));
                }
                Op::DropLease { ballot, position } => {
                    leases.remove(&(*ballot, *position));
                }
                Op::PruneLeases { before_ballot } => leases.retain(|k, _| k.0 >= *before_ballot),
                Op::Session {
                    token,
                    worker,
                    csrf,
                    ..
                } => l
                    .sessions
                    .push((token.clone(), *worker, csrf.clone(), false)),
                Op::SessionStarted { token } => {
                    if let Some(s) = l.sessions.iter_mut().find(|s| s.0 == *token) {
                        s.3 = true;
                    }
                }
                Op::DropSession { token } => l.sessions.retain(|s| s.0 != *token),
                Op::Invitation { token, worker, .. } => {
                    l.invitations.push((token.clone(), worker.clone()));
                }
                Op::Finish {
                    worker,
                    at_ms,
                    partial,
                } => {
                    if !l.finishes.iter().any(|f| f.0 == *worker) {
                        l.finishes.push((*worker, *at_ms, *partial));
                    }
                }
            }
        }
        l.leases = leases
            .into_iter()
            .map(|((b, p), (w, e))| (b, p, w, e))
            .collect();
        Ok(l)
    }
}

/// A campaign store: create one from a state document, read its state,
/// replace its state (a command of the file workflow run on a store).
///
/// # Examples
/// ```no_run
/// use adaptive_comp_metrics_serve::Store;
/// # fn main() -> Result<(), adaptive_comp_metrics_serve::ServeError> {
/// let json = std::fs::read("study.json").unwrap();
/// Store::create("study.db".as_ref(), &json)?;
/// // Later, while it is served or after: the state as the file workflow writes it.
/// let now = Store::state_json("study.db".as_ref())?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Store;

fn open_rw(path: &Path, create: bool) -> Result<Connection, ServeError> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags).map_err(|e| ServeError::store(path, &e))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| ServeError::store(path, &e))?;
    Ok(conn)
}

/// `path` with `suffix` appended to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Takes an exclusive advisory lock on a lock file, or fails at once.
fn try_lock_file(store: &Path, lp: &Path) -> Result<File, ServeError> {
    let f = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lp)
        .map_err(|e| ServeError::io(lp, &e))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(ServeError::Locked {
            path: store.to_owned(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(ServeError::io(lp, &e)),
    }
}

/// The campaign's lock (`<store>.lock`) and the server's
/// (`<store>-serve.lock`), as a server holds them.
pub(crate) fn lock(path: &Path) -> Result<(File, File), ServeError> {
    let campaign = try_lock_file(path, &Store::lock_path(path))?;
    let server = try_lock_file(path, &beside(path, "-serve.lock"))?;
    Ok((campaign, server))
}

/// `true` when the file starts as an SQLite database does.
fn sqlite_magic(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

fn check_meta(conn: &Connection, path: &Path) -> Result<HashMap<String, String>, ServeError> {
    let not = |reason: &str| ServeError::NotAStore {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    let mut stmt = conn
        .prepare("SELECT key, value FROM meta")
        .map_err(|_| not("no meta table"))?;
    let meta: HashMap<String, String> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .and_then(Iterator::collect)
        .map_err(|e| ServeError::store(path, &e))?;
    if meta.get("format").map(String::as_str) != Some(STORE_FORMAT) {
        return Err(not("another kind of SQLite database"));
    }
    if meta.get("version").map(String::as_str) != Some(STORE_VERSION) {
        return Err(not("a store of another version"));
    }
    Ok(meta)
}

impl Store {
    /// `true` when `path` is an SQLite file (a store, or another database:
    /// reading it tells). The file workflow's commands use it to tell a
    /// store from a JSON state.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics_serve::Store;
    /// assert!(!Store::is_store("no/such/file.db".as_ref()));
    /// ```
    #[must_use]
    pub fn is_store(path: &Path) -> bool {
        sqlite_magic(path)
    }

    /// Creates a store at `path` from a campaign state document (the JSON
    /// that `acm campaign init` writes). The file must not exist.
    ///
    /// # Errors
    /// [`ServeError::Corrupt`] for a bad state; [`ServeError::Io`] when the
    /// file exists; [`ServeError::Store`] when SQLite fails.
    pub fn create(path: &Path, state_json: &[u8]) -> Result<(), ServeError> {
        let file = CampaignFile::from_json(state_json)?;
        if path.exists() {
            return Err(ServeError::Io {
                path: path.to_owned(),
                message: "exists already".to_owned(),
            });
        }
        // Built beside the target and renamed into place: a crash leaves
        // no half-made store.
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".creating");
        let tmp = PathBuf::from(tmp);
        let _ = std::fs::remove_file(&tmp);
        let result = (|| {
            let mut conn = open_rw(&tmp, true)?;
            let e = |e: rusqlite::Error| ServeError::store(path, &e);
            conn.execute_batch("PRAGMA journal_mode = DELETE;")
                .map_err(e)?;
            let tx = conn.transaction().map_err(e)?;
            tx.execute_batch(SCHEMA).map_err(e)?;
            let now = now_ms().to_string();
            let admin = crate::secret::random_token(24);
            for (k, v) in [
                ("format", STORE_FORMAT),
                ("version", STORE_VERSION),
                ("tag", file.tag.as_str()),
                ("created_ms", now.as_str()),
                ("admin_token", admin.as_str()),
            ] {
                tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params![k, v],
                )
                .map_err(e)?;
            }
            tx.execute(
                "INSERT INTO snapshot (id, seq, state) VALUES (1, 0, ?1)",
                params![file.to_json()?],
            )
            .map_err(e)?;
            tx.commit().map_err(e)?;
            conn.execute_batch("PRAGMA journal_mode = WAL;")
                .map_err(e)?;
            drop(conn);
            File::open(&tmp)
                .and_then(|f| f.sync_all())
                .map_err(|e| ServeError::io(&tmp, &e))?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        // A plain rename would replace a file created meanwhile.
        std::fs::hard_link(&tmp, path).map_err(|e| ServeError::io(path, &e))?;
        let _ = std::fs::remove_file(&tmp);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// The campaign state now, as the file workflow writes it (a JSON
    /// document, see [`crate::state`]): the snapshot with every recorded
    /// operation replayed. Works while a server writes the store.
    ///
    /// # Errors
    /// [`ServeError::NotAStore`], [`ServeError::Store`],
    /// [`ServeError::Corrupt`], [`ServeError::Replay`].
    ///
    /// # Complexity
    /// O(size of the state + operations recorded).
    pub fn state_json(path: &Path) -> Result<Vec<u8>, ServeError> {
        Ok(Self::state(path)?.to_json()?)
    }

    /// The campaign state now, read as [`Store::state_json`] does.
    ///
    /// # Errors
    /// As [`Store::state_json`].
    pub fn state(path: &Path) -> Result<CampaignFile, ServeError> {
        if !sqlite_magic(path) {
            return Err(ServeError::NotAStore {
                path: path.to_owned(),
                reason: "not an SQLite file".to_owned(),
            });
        }
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| ServeError::store(path, &e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| ServeError::store(path, &e))?;
        Ok(load(&mut conn, path)?.file)
    }

    /// The campaign's tag (the prefix of its task ids), from the store's
    /// metadata: which campaign a store holds, without reading its state.
    ///
    /// # Errors
    /// [`ServeError::NotAStore`], [`ServeError::Store`].
    pub fn tag(path: &Path) -> Result<String, ServeError> {
        if !sqlite_magic(path) {
            return Err(ServeError::NotAStore {
                path: path.to_owned(),
                reason: "not an SQLite file".to_owned(),
            });
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| ServeError::store(path, &e))?;
        let meta = check_meta(&conn, path)?;
        meta.get("tag")
            .cloned()
            .ok_or_else(|| ServeError::corrupt("the store names no campaign"))
    }

    /// The campaign's lock file, `<store>.lock`: what `acm campaign` locks
    /// for every command that writes (as beside a JSON state). Hold it
    /// around a read-modify-[`replace_state`](Store::replace_state), so
    /// that two writers do not interleave.
    #[must_use]
    pub fn lock_path(path: &Path) -> PathBuf {
        beside(path, ".lock")
    }

    /// Replaces the campaign state of a store that no server is serving:
    /// what a command of the file workflow (`import`, `close`, `exclude`)
    /// does when given a store, holding the campaign's lock
    /// ([`Store::lock_path`]). The new state becomes the snapshot; the
    /// recorded operations stay as the audit trail, and are not replayed
    /// again.
    ///
    /// # Errors
    /// [`ServeError::Locked`] while a server serves the store; those of
    /// [`Store::state_json`]; a state of another campaign (another tag).
    pub fn replace_state(path: &Path, state_json: &[u8]) -> Result<(), ServeError> {
        let file = CampaignFile::from_json(state_json)?;
        let _server = try_lock_file(path, &beside(path, "-serve.lock"))?;
        let mut conn = open_rw(path, false)?;
        let meta = check_meta(&conn, path)?;
        if meta.get("tag") != Some(&file.tag) {
            return Err(ServeError::corrupt(
                "the state belongs to another campaign than the store",
            ));
        }
        let e = |e: rusqlite::Error| ServeError::store(path, &e);
        let tx = conn.transaction().map_err(e)?;
        let seq: i64 = tx
            .query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))
            .map_err(e)?;
        tx.execute(
            "UPDATE snapshot SET seq = ?1, state = ?2 WHERE id = 1",
            params![seq, file.to_json()?],
        )
        .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(())
    }
}

/// An event's columns: kind, ballot, position, worker, vote, data.
type EventRow = (
    i64,
    Option<i64>,
    Option<i64>,
    Option<u32>,
    Option<i64>,
    Option<String>,
);

#[derive(serde::Serialize, serde::Deserialize)]
struct RuleData {
    min_accuracy: f64,
    min_controls: u64,
}
