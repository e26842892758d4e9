//! Reading pytrec_eval's nested dicts (`{query: {document: grade}}`,
//! `{query: {document: score}}`) into the library's builders, on two
//! threads for large dicts.
//!
//! The builder is sized from the dicts' lengths first ([`Builder::reserve`]:
//! its arrays then never grow by copying, and fresh memory is touched once;
//! [`Builder::query`] is told each query's number of entries),
//! and each id is borrowed from its `str` (`PyString::to_str`: no copy)
//! and given straight to the builder on one thread.
//!
//! Reading a dict has two halves of about equal cost: walking the Python
//! objects (which needs the GIL: the dicts' entries, each id's UTF-8 bytes,
//! each value) and the library's interning and storing (pure Rust). For a
//! dict of at least [`PARALLEL_FROM`] entries, and two or more threads
//! ([`current_threads`]: `ACM_THREADS`), the caller's thread walks the
//! objects and copies the ids and values into chunks of [`CHUNK`] entries,
//! which a second thread adds to the builder as they come and hands back
//! emptied, to be filled again (a few chunks' memory a call): the builder sees
//! the same calls in the same order as on one thread, so the result (ids,
//! their order, every value) and the first error are the same. A thread
//! that cannot be started leaves the chunks to the caller's thread.

use std::ops::Range;
use std::sync::{Mutex, mpsc};

use adaptive_comp_metrics::current_threads;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// Entries of a dict from which it is read on two threads (below, starting
/// a thread costs more than it saves).
pub const PARALLEL_FROM: usize = 1 << 15;

/// Entries a chunk holds.
const CHUNK: usize = 1 << 14;

/// Bytes of text a chunk is first given room for, an entry (document ids
/// are usually shorter; a chunk whose ids are longer grows once, and keeps
/// its room when it is used again).
const TEXT_PER_ENTRY: usize = 16;

/// What a dict is read into: one of the library's builders.
pub trait Builder<V>: Send {
    /// Room for `entries` more entries.
    fn reserve(&mut self, entries: usize);
    /// The id of query `name`, whose `entries` entries follow (a hint
    /// the builder may size the query's table by).
    ///
    /// # Errors
    /// The builder's, as a message.
    fn query(&mut self, name: &str, entries: usize) -> Result<u32, String>;
    /// Adds the entry (`query`, `document`) of query `name`.
    ///
    /// # Errors
    /// The builder's, as a message.
    fn add(&mut self, query: u32, name: &str, document: &str, value: V) -> Result<(), String>;
}

/// The entries of a dict read out of the Python objects: ids as UTF-8 text
/// back to back, one value an entry.
#[derive(Debug)]
struct Chunk<V> {
    text: String,
    /// Each query (part) of the chunk: its name in `text` and the range of
    /// its entries.
    queries: Vec<(Range<usize>, Range<usize>)>,
    /// The end of each entry's document id in `text`.
    ends: Vec<usize>,
    values: Vec<V>,
}

impl<V: Copy> Chunk<V> {
    fn new() -> Self {
        Self {
            text: String::with_capacity(CHUNK * TEXT_PER_ENTRY),
            queries: Vec::new(),
            ends: Vec::with_capacity(CHUNK),
            values: Vec::with_capacity(CHUNK),
        }
    }

    /// Empties the chunk, keeping its memory for the next entries.
    fn clear(&mut self) {
        self.text.clear();
        self.queries.clear();
        self.ends.clear();
        self.values.clear();
    }

    fn is_full(&self) -> bool {
        self.values.len() >= CHUNK
    }

    fn start_query(&mut self, name: &str) {
        let at = self.text.len();
        self.text.push_str(name);
        let n = self.values.len();
        self.queries.push((at..self.text.len(), n..n));
    }

    fn push(&mut self, document: &str, value: V) {
        self.text.push_str(document);
        self.ends.push(self.text.len());
        self.values.push(value);
        if let Some(q) = self.queries.last_mut() {
            q.1.end = self.values.len();
        }
    }

    /// Gives the chunk's queries and entries to `to`, in order, stopping
    /// at the first error.
    fn add_to(&self, to: &mut impl Builder<V>) -> Result<(), String> {
        for (name, entries) in &self.queries {
            let q = self.text.get(name.clone()).unwrap_or_default();
            let id = to.query(q, entries.len())?;
            // A query's documents follow its name in `text`.
            let mut start = name.end;
            for i in entries.clone() {
                let (Some(&end), Some(&v)) = (self.ends.get(i), self.values.get(i)) else {
                    break;
                };
                to.add(id, q, self.text.get(start..end).unwrap_or_default(), v)?;
                start = end;
            }
        }
        Ok(())
    }
}

/// What [`walk`] finds, in the dict's order.
enum Item<'a, V> {
    /// A query with documents (how many), before them.
    Query(&'a str, usize),
    /// A query without documents.
    Empty(&'a str),
    /// An entry of query `.0`.
    Entry(&'a str, &'a str, V),
}

/// Walks `dict` (`{query: {document: value}}`; `name` names it, `what`
/// its values (`["grade", "an integer grade"]`) in messages), giving what
/// it finds to `on` until that returns `false`; `value` reads one value.
fn walk<'py, V>(
    dict: &Bound<'py, PyDict>,
    name: &str,
    what: [&str; 2],
    value: &impl Fn(&Bound<'py, PyAny>) -> Option<V>,
    on: &mut impl FnMut(Item<'_, V>) -> bool,
) -> PyResult<()> {
    for (q, docs) in dict.iter() {
        let q = q
            .cast_into::<PyString>()
            .map_err(|_| PyTypeError::new_err(format!("{name}: query ids must be strings")))?;
        let q = q.to_str()?;
        let docs = docs.cast_into::<PyDict>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}['{q}'] must be a dict {{document: {}}}",
                what[0]
            ))
        })?;
        if docs.is_empty() {
            if !on(Item::Empty(q)) {
                return Ok(());
            }
            continue;
        }
        if !on(Item::Query(q, docs.len())) {
            return Ok(());
        }
        for (d, v) in docs.iter() {
            let d = d.cast_into::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("{name}['{q}']: document ids must be strings"))
            })?;
            let d = d.to_str()?;
            let v = value(&v).ok_or_else(|| {
                PyTypeError::new_err(format!("{name}['{q}']['{d}'] must be {}", what[1]))
            })?;
            if !on(Item::Entry(q, d, v)) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Reads `dict` into `to`, sized first from the dict's length; `empty` is
/// called with each query without entries. On two threads when the dict
/// has at least [`PARALLEL_FROM`] entries (see the module's
/// documentation).
///
/// # Errors
/// The first error in the dict's order: a `TypeError` for an id that is
/// not a string or a value `value` does not read, or the builder's error.
pub fn read<'py, V: Copy + Send>(
    dict: &Bound<'py, PyDict>,
    name: &str,
    what: [&str; 2],
    value: impl Fn(&Bound<'py, PyAny>) -> Option<V>,
    mut empty: impl FnMut(&str),
    to: &mut impl Builder<V>,
) -> PyResult<Result<(), String>> {
    let size: usize = dict
        .values()
        .iter()
        .map(|d| d.cast::<PyDict>().map_or(0, |d| d.len()))
        .sum();
    to.reserve(size);
    if size < PARALLEL_FROM || current_threads().count() < 2 {
        let mut result = Ok(());
        let mut query = 0;
        walk(dict, name, what, &value, &mut |item| {
            let step = match item {
                Item::Query(q, n) => to.query(q, n).map(|id| query = id),
                Item::Entry(q, d, v) => to.add(query, q, d, v),
                Item::Empty(q) => {
                    empty(q);
                    Ok(())
                }
            };
            result = step;
            result.is_ok()
        })?;
        return Ok(result);
    }
    let (send, receive) = mpsc::channel::<Chunk<V>>();
    // Chunks added are sent back, emptied, to be filled again: a few
    // chunks' memory a call rather than fresh memory for every chunk.
    let (recycle, recycled) = mpsc::channel::<Chunk<V>>();
    // The helper takes the adding from the slot; if it could not start, or
    // has not started by the end of the walk, the caller takes it (the
    // channel keeps every chunk until then).
    let slot = Mutex::new(Some(move || -> Result<(), String> {
        for mut chunk in receive {
            chunk.add_to(to)?;
            chunk.clear();
            // The walk may be over (then the chunk is dropped).
            let _ = recycle.send(chunk);
        }
        Ok(())
    }));
    let take = || slot.lock().ok().and_then(|mut s| s.take());
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new()
            .spawn_scoped(scope, || take().map(|f| f()))
            .ok();
        let mut chunk = Chunk::new();
        let walked = walk(dict, name, what, &value, &mut |item| match item {
            Item::Query(q, _) => {
                chunk.start_query(q);
                true
            }
            Item::Entry(q, d, v) => {
                chunk.push(d, v);
                if chunk.is_full() {
                    let next = recycled.try_recv().unwrap_or_else(|_| Chunk::new());
                    if send.send(std::mem::replace(&mut chunk, next)).is_err() {
                        return false;
                    }
                    chunk.start_query(q);
                }
                true
            }
            Item::Empty(q) => {
                empty(q);
                true
            }
        });
        // The entries before an error of the walk too: an error of adding
        // one of them comes first. (A send fails only once the adding has
        // stopped at an error.)
        if !chunk.values.is_empty() {
            let _ = send.send(chunk);
        }
        drop(send);
        let here = take().map(|f| f());
        let there = helper.and_then(|h| match h.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        });
        // An error of adding comes from an entry before any the walk
        // stopped at (the walk sent only the entries before its error).
        match here.or(there) {
            Some(Err(e)) => Ok(Err(e)),
            _ => walked.map(Ok),
        }
    })
}
