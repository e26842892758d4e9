//! Reading a store whole: the snapshot with the events replayed, and
//! everything the server keeps beside (workers, leases, sessions,
//! invitations, who stopped).

use std::path::Path;

use adaptive_comp_metrics::ballot::{TaskId, Unvoted};
use rusqlite::{Connection, OptionalExtension};

use super::{Activity, Event, EventKind, Loaded, RuleData, WorkerRow, apply, check_meta, vote_of};
use crate::error::ServeError;
use crate::state::CampaignFile;

/// Reads a store whole: meta, snapshot, events replayed, workers, leases,
/// sessions, invitations; in one read transaction.
pub(crate) fn load(conn: &mut Connection, path: &Path) -> Result<Loaded, ServeError> {
    let e = |e: rusqlite::Error| ServeError::store(path, &e);
    let tx = conn.transaction().map_err(e)?;
    let meta = check_meta(&tx, path)?;
    let (snap_seq, state): (i64, Vec<u8>) = tx
        .query_row("SELECT seq, state FROM snapshot WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()
        .map_err(e)?
        .ok_or_else(|| ServeError::corrupt("the store has no snapshot"))?;
    let mut file = CampaignFile::from_json(&state)?;
    drop(state);
    if meta.get("tag") != Some(&file.tag) {
        return Err(ServeError::corrupt(
            "the snapshot belongs to another campaign",
        ));
    }
    let read = rows(
        &tx,
        "SELECT id, name, source, params, first_ms FROM workers ORDER BY id",
        |r| {
            Ok((
                WorkerRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    source: r.get(2)?,
                    params: r.get(3)?,
                },
                r.get::<_, i64>(4)?,
            ))
        },
    )
    .map_err(e)?;
    let mut workers = Vec::with_capacity(read.len());
    let mut activity = Vec::with_capacity(read.len());
    for (i, (w, first_ms)) in read.into_iter().enumerate() {
        if w.id as usize != i {
            return Err(ServeError::corrupt("worker ids are not dense"));
        }
        workers.push(w);
        activity.push(Activity {
            arrived_ms: first_ms.max(0) as u64,
            ..Activity::default()
        });
    }
    {
        let mut stmt = tx
            .prepare(
                "SELECT worker, MIN(at_ms), MAX(at_ms), COUNT(*) FROM events \
                 WHERE kind = 1 GROUP BY worker",
            )
            .map_err(e)?;
        let mut rows = stmt.query([]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            let w: Option<u32> = r.get(0).map_err(e)?;
            if let Some(a) = w.and_then(|w| activity.get_mut(w as usize)) {
                a.first_ms = Some(r.get::<_, i64>(1).map_err(e)?.max(0) as u64);
                a.last_ms = Some(r.get::<_, i64>(2).map_err(e)?.max(0) as u64);
                a.answers = r.get::<_, i64>(3).map_err(e)?.max(0) as u64;
            }
        }
    }
    let created_ms = meta.get("created_ms").and_then(|v| v.parse::<u64>().ok());
    let mut ballot_times: Vec<(Option<u64>, Option<u64>)> =
        vec![(None, None); file.campaign.scheduler().ballot_sizes().len()];
    if snap_seq == 0
        && let Some(k) = file.campaign.open_ballot_number()
        && let Some(t) = ballot_times.get_mut(k - 1)
    {
        t.0 = created_ms;
    }
    let names: Vec<String> = workers.iter().map(|w| w.name.clone()).collect();
    let mut last_seq = snap_seq;
    let mut count = 0usize;
    {
        let mut stmt = tx
            .prepare(
                "SELECT seq, at_ms, kind, ballot, position, worker, vote, data FROM events \
                 WHERE seq > ?1 ORDER BY seq",
            )
            .map_err(e)?;
        let mut rows = stmt.query([snap_seq]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            let seq: i64 = r.get(0).map_err(e)?;
            let ev = read_event(r).map_err(e)?.ok_or_else(|| {
                ServeError::corrupt(format!("event {seq} is not one this version knows"))
            })?;
            let open = file.campaign.open_ballot_number();
            apply(&mut file, &names, &ev)?;
            if let EventKind::Advance { .. } = ev.kind {
                let (k0, k1) = (open, file.campaign.open_ballot_number());
                if let Some(t) = k0.and_then(|k| ballot_times.get_mut(k - 1)) {
                    t.1 = Some(ev.at_ms);
                }
                if let Some(t) = k1.and_then(|k| ballot_times.get_mut(k - 1)) {
                    t.0 = Some(ev.at_ms);
                }
            }
            last_seq = seq;
            count += 1;
        }
    }
    let max_seq: i64 = tx
        .query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))
        .map_err(e)?;
    last_seq = last_seq.max(max_seq);
    let leases = rows(
        &tx,
        "SELECT ballot, position, worker, expires_ms FROM leases",
        |r| {
            Ok((
                r.get::<_, i64>(0)? as usize,
                r.get::<_, i64>(1)? as usize,
                r.get::<_, u32>(2)?,
                r.get::<_, i64>(3)? as u64,
            ))
        },
    )
    .map_err(e)?;
    let sessions = rows(
        &tx,
        "SELECT token, worker, csrf, started FROM sessions ORDER BY created_ms, token",
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? != 0)),
    )
    .map_err(e)?;
    let invitations = rows(
        &tx,
        "SELECT token, worker FROM invitations ORDER BY created_ms, worker",
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .map_err(e)?;
    let has_finishes: bool = tx
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'finishes'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_err(e)?
        > 0;
    let finishes = if has_finishes {
        rows(
            &tx,
            "SELECT worker, at_ms, partial FROM finishes ORDER BY worker",
            |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, i64>(1)?.max(0) as u64,
                    r.get::<_, i64>(2)? != 0,
                ))
            },
        )
        .map_err(e)?
    } else {
        Vec::new()
    };
    let admin_token = meta.get("admin_token").cloned().unwrap_or_default();
    Ok(Loaded {
        file,
        last_seq,
        workers,
        activity,
        leases,
        sessions,
        invitations,
        finishes,
        ballot_times,
        admin_token,
        events: count,
    })
}

/// Every row `sql` selects, each read by `row`, in the order SQLite gives.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    conn.prepare(sql)?.query_map([], row)?.collect()
}

fn read_event(r: &rusqlite::Row<'_>) -> rusqlite::Result<Option<Event>> {
    Ok(decode_event(&EventColumns {
        seq: r.get(0)?,
        at_ms: r.get(1)?,
        kind: r.get(2)?,
        ballot: r.get(3)?,
        position: r.get(4)?,
        worker: r.get(5)?,
        vote: r.get(6)?,
        data: r.get(7)?,
    }))
}

/// An event row's columns, as SQLite gives them.
#[derive(Debug, Clone, Default)]
pub(crate) struct EventColumns {
    pub(crate) seq: i64,
    pub(crate) at_ms: i64,
    pub(crate) kind: i64,
    pub(crate) ballot: Option<i64>,
    pub(crate) position: Option<i64>,
    pub(crate) worker: Option<u32>,
    pub(crate) vote: Option<i64>,
    pub(crate) data: Option<String>,
}

/// The event a row holds; `None` for a row this version does not know (a
/// kind, a vote, a rule or a way to close it cannot read).
pub(crate) fn decode_event(c: &EventColumns) -> Option<Event> {
    let (seq, at_ms) = (c.seq, c.at_ms);
    let (ballot, position, worker, vote, data) =
        (c.ballot, c.position, c.worker, c.vote, c.data.clone());
    let kind = match c.kind {
        1 => {
            let (Some(b), Some(p), Some(w), Some(v)) = (ballot, position, worker, vote) else {
                return None;
            };
            let (Ok(ballot), Ok(position), Some(vote)) =
                (usize::try_from(b), usize::try_from(p), vote_of(v))
            else {
                return None;
            };
            if ballot == 0 {
                return None;
            }
            EventKind::Answer {
                task: TaskId { ballot, position },
                worker: w,
                vote,
            }
        }
        2 => {
            let w = worker?;
            EventKind::Exclude {
                worker: w,
                reason: data.unwrap_or_default(),
            }
        }
        3 => {
            let rule = data.and_then(|d| serde_json::from_str::<RuleData>(&d).ok())?;
            EventKind::ExcludeByRule {
                min_accuracy: rule.min_accuracy,
                min_controls: rule.min_controls,
            }
        }
        4 => EventKind::Advance {
            unvoted: match data.as_deref() {
                Some("reject") => Unvoted::Reject,
                Some("withdraw") => Unvoted::Withdraw,
                _ => return None,
            },
        },
        _ => return None,
    };
    Some(Event {
        seq,
        at_ms: at_ms.max(0) as u64,
        kind,
    })
}
