//! Files: atomic writes (temporary file, fsync, rename, fsync of the
//! directory) and the CSV files a campaign reads (RFC 4180 through the `csv`
//! crate: quoted fields, doubled quotes, line breaks inside quotes).

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::{Env, Failure, Outcome};

/// `STATE.lock` beside the state file: the file every command that changes
/// the campaign locks (never the state itself, which is replaced by each
/// write; the lock file is never removed, so that every command locks the
/// same file).
pub fn lock_path(state: &Path) -> PathBuf {
    let mut name = state
        .file_name()
        .map_or_else(|| "state".into(), |n| n.to_os_string());
    name.push(".lock");
    state.with_file_name(name)
}

/// An exclusive lock on a campaign, held until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// Takes the exclusive lock of the campaign at `state`, or fails at once
/// when another command holds it.
///
/// # Errors
/// The lock is held by another process; the lock file cannot be created.
pub fn lock(state: &str) -> Result<Lock, Failure> {
    let path = lock_path(Path::new(state));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| {
            Failure::about(
                &path,
                format!("cannot create the campaign's lock file: {e}"),
            )
        })?;
    match file.try_lock() {
        Ok(()) => Ok(Lock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => Err(Failure::about(
            state,
            format!(
                "another command is already using this campaign (it holds {}): \
                 try again when it has finished",
                path.display()
            ),
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(Failure::about(
            &path,
            format!("cannot lock the campaign: {e}"),
        )),
    }
}

/// Whether `a` and `b` name the same file (both must exist to be the same).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuses an output path that is the state file or its lock file.
///
/// # Errors
/// When `out` is one of them.
pub fn check_output(out: &str, state: &str) -> Result<(), Failure> {
    if out == "-" {
        return Ok(());
    }
    let (o, s) = (Path::new(out), Path::new(state));
    let lock = lock_path(s);
    if o == s || same_file(o, s) || o == lock || same_file(o, &lock) {
        return Err(Failure::new(format!(
            "--out {out} is the campaign's state (or its lock) file: writing there would destroy \
             the campaign; choose another file"
        )));
    }
    Ok(())
}

/// Writes `bytes` to `path` so that a crash at any moment leaves either the
/// old file or the new one: a temporary file beside it, synced, renamed over
/// it, then the directory synced. `-` writes to the report instead.
///
/// Checkpoints (for [`super::CrashPlan`]): half the temporary file written;
/// the temporary file complete and synced; renamed, directory not synced.
///
/// # Errors
/// Any I/O error, with the file named.
pub fn write_atomic(path: &str, bytes: &[u8], env: &mut Env<'_>) -> Outcome {
    if path == "-" {
        return env
            .out
            .write_all(bytes)
            .and_then(|()| Write::flush(env.out))
            .map_err(|e| super::stdout_error(&e));
    }
    let target = Path::new(path);
    let tmp = temp_path(target);
    let io = |e: std::io::Error| Failure::about(path, format!("cannot write: {e}"));
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(io)?;
    let half = bytes.len() / 2;
    let written = f.write_all(&bytes[..half]);
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    env.checkpoint()?;
    let written = f
        .write_all(&bytes[half..])
        .and_then(|()| f.sync_all())
        .map(|()| drop(f));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    env.checkpoint()?;
    if let Err(e) = fs::rename(&tmp, target) {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    env.checkpoint()?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // Makes the rename durable; some platforms cannot open a directory.
    if let Ok(d) = File::open(&dir) {
        d.sync_all().map_err(io)?;
    }
    Ok(())
}

/// `.NAME.PID-TIME-N.tmp` beside `target`: a name no other process (and no
/// other write of this one) uses, created with `create_new`.
pub fn temp_path(target: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .map_or_else(|| "state".into(), |n| n.to_string_lossy().into_owned());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{}-{nanos}-{n}.tmp", std::process::id()))
}

/// Items (or control items): id, text and the other columns carried through.
pub use adaptive_comp_metrics_campaign::Table;

/// A CSV file read whole, with the byte offset of every line break, so that
/// records are located by their byte offset: the `csv` reader's own line
/// numbers skip blank lines.
struct Csv<'p> {
    path: &'p str,
    bytes: Vec<u8>,
    newlines: Vec<usize>,
}

impl<'p> Csv<'p> {
    fn open(path: &'p str) -> Result<Self, Failure> {
        let bytes =
            fs::read(path).map_err(|e| Failure::about(path, format!("cannot read: {e}")))?;
        Self::new(path, bytes)
    }

    /// The CSV `bytes`, read from `path` (named in errors).
    fn new(path: &'p str, bytes: Vec<u8>) -> Result<Self, Failure> {
        let newlines = memchr_all(&bytes);
        // The `csv` crate accepts a quote left open at the end of the file
        // (the field then runs to the end): refuse it, at the opening quote.
        if let Some(at) = crate::input::unclosed_quote(&bytes, b',') {
            let line = newlines.partition_point(|&p| p < at);
            let start = if line == 0 { 0 } else { newlines[line - 1] + 1 };
            let column = String::from_utf8_lossy(&bytes[start..at]).chars().count() + 1;
            let mut f = Failure::at_line(
                path,
                line as u64 + 1,
                crate::input::unclosed_quote_failure().message.clone(),
            );
            f.column = Some(column);
            return Err(f);
        }
        Ok(Self {
            path,
            bytes,
            newlines,
        })
    }

    /// A reader with a header (RFC 4180, strict field counts).
    fn reader(&self) -> csv::Reader<&[u8]> {
        csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(&self.bytes[..])
    }

    /// The 1-based line of the record that starts at byte `at` (or after
    /// the blank lines that follow `at`).
    fn line_at(&self, at: u64) -> u64 {
        let mut b = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        while b < self.bytes.len() && matches!(self.bytes[b], b'\r' | b'\n') {
            b += 1;
        }
        self.newlines.partition_point(|&p| p < b) as u64 + 1
    }

    fn line(&self, pos: &csv::Position) -> u64 {
        self.line_at(pos.byte())
    }

    /// A csv error, located.
    fn error(&self, e: &csv::Error) -> Failure {
        let message = match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("{len} field(s), the header has {expected_len}"),
            csv::ErrorKind::Utf8 { .. } => "not valid UTF-8".to_owned(),
            csv::ErrorKind::Io(io) => format!("cannot read: {io}"),
            _ => format!("malformed CSV: {e}"),
        };
        match e.position() {
            Some(p) => Failure::at_line(self.path, self.line(p), message),
            None => Failure::about(self.path, message),
        }
    }

    /// The header, with the positions of the named columns.
    fn header(
        &self,
        r: &mut csv::Reader<&[u8]>,
        wanted: &[&str],
    ) -> Result<(Vec<String>, Vec<usize>), Failure> {
        let h = r.headers().map_err(|e| self.error(&e))?.clone();
        let line = self.line_at(0);
        let names: Vec<String> = h
            .iter()
            .map(|s| s.trim_start_matches('\u{feff}').to_owned())
            .collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(Failure::at_line(
                    self.path,
                    line,
                    format!("column {n:?} appears twice in the header"),
                ));
            }
        }
        let mut pos = Vec::with_capacity(wanted.len());
        for w in wanted {
            let p = names.iter().position(|n| n == w).ok_or_else(|| {
                Failure::at_line(
                    self.path,
                    line,
                    format!(
                        "no column {w:?} in the header ({})",
                        crate::error::echo_list(&names, false)
                    ),
                )
            })?;
            pos.push(p);
        }
        Ok((names, pos))
    }
}

/// The offsets of every `\n`.
fn memchr_all(bytes: &[u8]) -> Vec<usize> {
    bytes
        .iter()
        .enumerate()
        .filter_map(|(i, &b)| (b == b'\n').then_some(i))
        .collect()
}

/// At most this many errors are listed per file.
pub const MAX_ERRORS: usize = 50;

/// Reads an items table: `id_column`, `text_column` and any other columns.
/// Ids must be non-empty and distinct.
///
/// # Errors
/// Every bad row (up to [`MAX_ERRORS`]), with its line.
pub fn read_table(path: &str, id_column: &str, text_column: &str) -> Result<Table, Vec<Failure>> {
    let file = Csv::open(path).map_err(|e| vec![e])?;
    table(&file, id_column, text_column)
}

/// Reads an items table from the bytes of a file (`path` names it in
/// errors), as `acm campaign init --items` reads the file: `id_column`,
/// `text_column` and any other columns; ids non-empty and distinct.
///
/// # Errors
/// Every bad row (up to 50), with its line.
pub fn parse_table(
    path: &str,
    bytes: Vec<u8>,
    id_column: &str,
    text_column: &str,
) -> Result<Table, Vec<Failure>> {
    let file = Csv::new(path, bytes).map_err(|e| vec![e])?;
    table(&file, id_column, text_column)
}

fn table(file: &Csv<'_>, id_column: &str, text_column: &str) -> Result<Table, Vec<Failure>> {
    let path = file.path;
    let mut r = file.reader();
    let (names, pos) = file
        .header(&mut r, &[id_column, text_column])
        .map_err(|e| vec![e])?;
    let (ic, tc) = (pos[0], pos[1]);
    let extra_idx: Vec<usize> = (0..names.len()).filter(|&i| i != ic && i != tc).collect();
    let mut t = Table {
        extra_columns: extra_idx.iter().map(|&i| names[i].clone()).collect(),
        ..Table::default()
    };
    let mut first_line: HashMap<String, u64> = HashMap::new();
    let mut errors = Vec::new();
    for rec in r.records() {
        let rec = match rec {
            Ok(rec) => rec,
            Err(e) => {
                errors.push(file.error(&e));
                if errors.len() >= MAX_ERRORS {
                    break;
                }
                continue;
            }
        };
        let line = rec.position().map_or(0, |p| file.line(p));
        let id = rec.get(ic).unwrap_or("");
        if id.is_empty() {
            errors.push(Failure::at_line(path, line, "empty id"));
        } else if let Some(&l) = first_line.get(id) {
            errors.push(Failure::at_line(
                path,
                line,
                format!("id {id:?} already on line {l}"),
            ));
        } else {
            first_line.insert(id.to_owned(), line);
            t.ids.push(id.to_owned());
            t.texts.push(rec.get(tc).unwrap_or("").to_owned());
            t.extra.push(
                extra_idx
                    .iter()
                    .map(|&i| rec.get(i).unwrap_or("").to_owned())
                    .collect(),
            );
        }
        if errors.len() >= MAX_ERRORS {
            break;
        }
    }
    if errors.is_empty() {
        Ok(t)
    } else {
        Err(errors)
    }
}

/// Rows read from a CSV file: `(line, values of the named columns)`.
pub type Rows = Vec<(u64, Vec<String>)>;

/// Reads the named columns of every row: the rows read and the rows that
/// could not be read (malformed: a wrong field count, bad UTF-8), each with
/// its line.
///
/// # Errors
/// A missing column or an unreadable file (fatal).
pub fn read_columns(path: &str, columns: &[&str]) -> Result<(Rows, Vec<Failure>), Failure> {
    columns_of(&Csv::open(path)?, columns)
}

/// Reads the named columns of every row from the bytes of a file (`path`
/// names it in errors), as `acm campaign import --answers` reads the file:
/// the rows read and the rows that could not be read, each with its line.
///
/// # Errors
/// A missing column (fatal).
pub fn parse_columns(
    path: &str,
    bytes: Vec<u8>,
    columns: &[&str],
) -> Result<(Rows, Vec<Failure>), Failure> {
    columns_of(&Csv::new(path, bytes)?, columns)
}

fn columns_of(file: &Csv<'_>, columns: &[&str]) -> Result<(Rows, Vec<Failure>), Failure> {
    let path = file.path;
    let mut r = file.reader();
    let (_, pos) = file.header(&mut r, columns)?;
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut rec = csv::StringRecord::new();
    loop {
        match r.read_record(&mut rec) {
            Ok(false) => break,
            Ok(true) => {
                let line = rec.position().map_or(0, |p| file.line(p));
                rows.push((
                    line,
                    pos.iter()
                        .map(|&p| rec.get(p).unwrap_or("").to_owned())
                        .collect(),
                ));
            }
            Err(e) => {
                let fatal = !matches!(
                    e.kind(),
                    csv::ErrorKind::UnequalLengths { .. } | csv::ErrorKind::Utf8 { .. }
                );
                errors.push(file.error(&e));
                if fatal {
                    return Err(errors
                        .pop()
                        .unwrap_or_else(|| Failure::about(path, "unreadable")));
                }
            }
        }
    }
    Ok((rows, errors))
}

/// A CSV writer into memory.
pub fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().from_writer(Vec::new())
}

/// The bytes of a finished CSV writer.
///
/// # Errors
/// Never in practice (writing to memory).
pub fn csv_bytes(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, Failure> {
    w.into_inner()
        .map_err(|e| Failure::new(format!("cannot build the CSV: {e}")))
}
