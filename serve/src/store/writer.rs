//! The writer: one thread that owns the store's connection and commits the
//! engine's operations in groups, in the engine's order.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};

use adaptive_comp_metrics::ballot::Unvoted;
use rusqlite::{Connection, params};

use super::{
    Durability, EventKind, EventRow, Loaded, MIGRATE, Op, RuleData, load, lock, open_rw,
    sqlite_magic, vote_code,
};
use crate::error::ServeError;

fn write_op(tx: &rusqlite::Transaction<'_>, op: &Op) -> rusqlite::Result<()> {
    match op {
        Op::Worker(w, at) => {
            tx.prepare_cached(
                "INSERT INTO workers (id, name, source, params, first_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![w.id, w.name, w.source, w.params, *at as i64])?;
        }
        Op::Event(ev) => {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO events (seq, at_ms, kind, ballot, position, worker, vote, data) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            let row: EventRow = match &ev.kind {
                EventKind::Answer { task, worker, vote } => (
                    1,
                    Some(task.ballot as i64),
                    Some(task.position as i64),
                    Some(*worker),
                    Some(vote_code(*vote)),
                    None,
                ),
                EventKind::Exclude { worker, reason } => {
                    (2, None, None, Some(*worker), None, Some(reason.clone()))
                }
                EventKind::ExcludeByRule {
                    min_accuracy,
                    min_controls,
                } => (
                    3,
                    None,
                    None,
                    None,
                    None,
                    serde_json::to_string(&RuleData {
                        min_accuracy: *min_accuracy,
                        min_controls: *min_controls,
                    })
                    .ok(),
                ),
                EventKind::Advance { unvoted } => (
                    4,
                    None,
                    None,
                    None,
                    None,
                    Some(
                        match unvoted {
                            Unvoted::Reject => "reject",
                            Unvoted::Withdraw => "withdraw",
                        }
                        .to_owned(),
                    ),
                ),
            };
            stmt.execute(params![
                ev.seq,
                ev.at_ms as i64,
                row.0,
                row.1,
                row.2,
                row.3,
                row.4,
                row.5
            ])?;
        }
        Op::Lease {
            ballot,
            position,
            worker,
            expires_ms,
        } => {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO leases (ballot, position, worker, expires_ms) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                *ballot as i64,
                *position as i64,
                worker,
                *expires_ms as i64
            ])?;
        }
        Op::Session {
            token,
            worker,
            csrf,
            at_ms,
        } => {
            tx.prepare_cached(
                "INSERT INTO sessions (token, worker, csrf, created_ms, started) VALUES (?1, ?2, ?3, ?4, 0)",
            )?
            .execute(params![token, worker, csrf, *at_ms as i64])?;
        }
        Op::SessionStarted { token } => {
            tx.prepare_cached("UPDATE sessions SET started = 1 WHERE token = ?1")?
                .execute(params![token])?;
        }
        Op::Invitation {
            token,
            worker,
            at_ms,
        } => {
            tx.prepare_cached(
                "INSERT INTO invitations (token, worker, created_ms) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![token, worker, *at_ms as i64])?;
        }
        Op::PruneLeases { before_ballot } => {
            tx.prepare_cached("DELETE FROM leases WHERE ballot < ?1")?
                .execute(params![*before_ballot as i64])?;
        }
        Op::DropLease { ballot, position } => {
            tx.prepare_cached("DELETE FROM leases WHERE ballot = ?1 AND position = ?2")?
                .execute(params![*ballot as i64, *position as i64])?;
        }
        Op::Finish {
            worker,
            at_ms,
            partial,
        } => {
            tx.prepare_cached(
                "INSERT OR IGNORE INTO finishes (worker, at_ms, partial) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![worker, *at_ms as i64, i64::from(*partial)])?;
        }
        Op::DropSession { token } => {
            tx.prepare_cached("DELETE FROM sessions WHERE token = ?1")?
                .execute(params![token])?;
        }
    }
    Ok(())
}

/// What the writer thread shares with the server.
#[derive(Debug, Default)]
struct Queue {
    ops: Vec<Op>,
    waiters: Vec<tokio::sync::oneshot::Sender<Result<(), String>>>,
    failed: Option<String>,
    stop: bool,
}

/// The writer: one thread that owns the store's connection and commits
/// queued operations in groups (one transaction, one sync, for every
/// operation queued while the previous group was committed).
#[derive(Debug, Clone)]
pub(crate) struct Writer {
    shared: Arc<(Mutex<Queue>, Condvar)>,
}

/// A store opened for serving: its content, and the writer.
#[derive(Debug)]
pub(crate) struct Opened {
    pub(crate) loaded: Loaded,
    pub(crate) writer: Writer,
    pub(crate) thread: std::thread::JoinHandle<()>,
}

/// Opens a store for writing: takes the lock, reads everything, starts
/// the writer thread.
pub(crate) fn open_for_serving(path: &Path, durability: Durability) -> Result<Opened, ServeError> {
    let lock_files = lock(path)?;
    if !sqlite_magic(path) {
        return Err(ServeError::NotAStore {
            path: path.to_owned(),
            reason: "not an SQLite file".to_owned(),
        });
    }
    let mut conn = open_rw(path, false)?;
    let sync = match durability {
        Durability::Full => "FULL",
        Durability::Normal => "NORMAL",
    };
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;"
    ))
    .map_err(|e| ServeError::store(path, &e))?;
    let loaded = load(&mut conn, path)?;
    // Checked as a store of this format by `load`: bring its tables up to date.
    conn.execute_batch(MIGRATE)
        .map_err(|e| ServeError::store(path, &e))?;
    let shared = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
    let writer = Writer {
        shared: Arc::clone(&shared),
    };
    let store_path = path.to_owned();
    let thread = std::thread::Builder::new()
        .name("acm-store-writer".into())
        .spawn(move || {
            // The lock lives as long as the writer.
            let _locks = lock_files;
            writer_loop(&mut conn, &shared, &store_path);
        })
        .map_err(|e| ServeError::io(path, &e))?;
    Ok(Opened {
        loaded,
        writer,
        thread,
    })
}

fn writer_loop(conn: &mut Connection, shared: &(Mutex<Queue>, Condvar), path: &Path) {
    let (lock, cv) = shared;
    loop {
        let (ops, waiters, stop) = {
            let mut q = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            while q.ops.is_empty() && q.waiters.is_empty() && !q.stop {
                q = cv
                    .wait(q)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            (
                std::mem::take(&mut q.ops),
                std::mem::take(&mut q.waiters),
                q.stop,
            )
        };
        let result = if ops.is_empty() {
            Ok(())
        } else {
            (|| {
                let tx = conn.transaction()?;
                for op in &ops {
                    write_op(&tx, op)?;
                }
                tx.commit()
            })()
            .map_err(|e| format!("{}: {e}", path.display()))
        };
        if let Err(e) = &result {
            let mut q = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            q.failed = Some(e.clone());
        }
        for w in waiters {
            let _ = w.send(result.clone());
        }
        if result.is_err() {
            // Nothing more is written: what is on disk stays consistent.
            let mut q = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for w in q.waiters.drain(..) {
                let _ = w.send(Err("the store failed earlier".into()));
            }
            return;
        }
        if stop {
            let q = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if q.ops.is_empty() && q.waiters.is_empty() {
                return;
            }
        }
    }
}

impl Writer {
    /// Queues operations (in order; call while holding the engine's lock so
    /// the store's order is the engine's).
    pub(crate) fn push(&self, ops: impl IntoIterator<Item = Op>) {
        let (lock, cv) = &*self.shared;
        let mut q = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        q.ops.extend(ops);
        cv.notify_one();
    }

    /// A receiver told when everything queued so far is committed.
    pub(crate) fn flushed(&self) -> tokio::sync::oneshot::Receiver<Result<(), String>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (lock, cv) = &*self.shared;
        let mut q = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(f) = &q.failed {
            let _ = tx.send(Err(f.clone()));
        } else {
            q.waiters.push(tx);
            cv.notify_one();
        }
        rx
    }

    /// The store's failure, if any.
    pub(crate) fn failure(&self) -> Option<String> {
        let (lock, _) = &*self.shared;
        lock.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .failed
            .clone()
    }

    /// Asks the writer to finish what is queued and stop.
    pub(crate) fn stop(&self) {
        let (lock, cv) = &*self.shared;
        let mut q = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        q.stop = true;
        cv.notify_one();
    }
}
