//! Reading pytrec_eval's nested dicts (`{query: {document: grade}}`,
//! `{query: {document: score}}`) into the library's builders, on two
//! threads for large dicts.
//!
//! Reading a dict has two halves of about equal cost: walking the Python
//! objects (which needs the GIL: the dicts' entries, each id's UTF-8 bytes,
//! each value) and the library's interning and storing (pure Rust). For a
//! dict of at least [`PARALLEL_FROM`] entries, and two or more threads
//! ([`current_threads`]: `ACM_THREADS`), the caller's thread walks the
//! objects and copies the ids and values into chunks of [`CHUNK`] entries,
//! which a second thread adds to the builder as they come: the builder sees
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

/// The entries of a dict read out of the Python objects: ids as UTF-8 text
/// back to back, one value an entry.
#[derive(Debug)]
pub struct Chunk<V> {
    text: String,
    /// Each query (part) of the chunk: its name in `text` and the range of
    /// its entries.
    queries: Vec<(Range<usize>, Range<usize>)>,
    /// The end of each entry's document id in `text`.
    ends: Vec<usize>,
    values: Vec<V>,
}

impl<V> Chunk<V> {
    fn new() -> Self {
        Self {
            text: String::new(),
            queries: Vec::new(),
            ends: Vec::with_capacity(CHUNK),
            values: Vec::with_capacity(CHUNK),
        }
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

    /// Calls `query(to, name)` for each query (part) of the chunk and
    /// `add(to, its result, query, document, value)` for each of its
    /// entries, in order, stopping at the first error.
    ///
    /// # Errors
    /// The first error of `query` or `add`.
    pub fn each<T, Q, E>(
        &self,
        to: &mut T,
        mut query: impl FnMut(&mut T, &str) -> Result<Q, E>,
        mut add: impl FnMut(&mut T, &Q, &str, &str, V) -> Result<(), E>,
    ) -> Result<(), E>
    where
        V: Copy,
    {
        for (name, entries) in &self.queries {
            let q = self.text.get(name.clone()).unwrap_or_default();
            let id = query(to, q)?;
            // A query's documents follow its name in `text`.
            let mut start = name.end;
            for i in entries.clone() {
                let (Some(&end), Some(&v)) = (self.ends.get(i), self.values.get(i)) else {
                    break;
                };
                add(to, &id, q, self.text.get(start..end).unwrap_or_default(), v)?;
                start = end;
            }
        }
        Ok(())
    }
}

/// Walks `dict` (`{query: {document: value}}`; `name` names it, `what`
/// its values (`["grade", "an integer grade"]`) in messages), giving the entries to `sink` in chunks and
/// the queries without entries to `empty`; `value` reads one value.
fn walk<'py, V>(
    dict: &Bound<'py, PyDict>,
    name: &str,
    what: [&str; 2],
    value: &impl Fn(&Bound<'py, PyAny>) -> Option<V>,
    empty: &mut impl FnMut(&str),
    sink: &mut impl FnMut(Chunk<V>) -> bool,
) -> PyResult<()> {
    let mut chunk = Chunk::new();
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
            empty(q);
            continue;
        }
        chunk.start_query(q);
        for (d, v) in docs.iter() {
            let d = d.cast_into::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("{name}['{q}']: document ids must be strings"))
            })?;
            let d = d.to_str()?;
            let v = value(&v).ok_or_else(|| {
                PyTypeError::new_err(format!("{name}['{q}']['{d}'] must be {}", what[1]))
            })?;
            chunk.push(d, v);
            if chunk.is_full() {
                if !sink(std::mem::replace(&mut chunk, Chunk::new())) {
                    return Ok(());
                }
                chunk.start_query(q);
            }
        }
    }
    if !chunk.values.is_empty() {
        sink(chunk);
    }
    Ok(())
}

/// Reads `dict` into a builder: `add` takes each chunk in order (it stops
/// at its first error, which it keeps); `empty` is called with each query
/// without entries. On two threads when the dict has at least
/// [`PARALLEL_FROM`] entries (see the module's documentation).
///
/// # Errors
/// The first error in the dict's order: a `TypeError` for an id that is
/// not a string or a value `value` does not read, or `add`'s error.
pub fn read<'py, V: Copy + Send, E: Send>(
    dict: &Bound<'py, PyDict>,
    name: &str,
    what: [&str; 2],
    value: impl Fn(&Bound<'py, PyAny>) -> Option<V>,
    mut empty: impl FnMut(&str),
    mut add: impl FnMut(&Chunk<V>) -> Result<(), E> + Send,
) -> PyResult<Result<(), E>> {
    let size: usize = dict
        .values()
        .iter()
        .map(|d| d.cast::<PyDict>().map_or(0, |d| d.len()))
        .sum();
    if size < PARALLEL_FROM || current_threads().count() < 2 {
        let mut result = Ok(());
        walk(dict, name, what, &value, &mut empty, &mut |chunk| {
            result = add(&chunk);
            result.is_ok()
        })?;
        return Ok(result);
    }
    let (send, receive) = mpsc::channel::<Chunk<V>>();
    // The helper takes the adding from the slot; if it could not start, or
    // has not started by the end of the walk, the caller takes it (the
    // channel keeps every chunk until then).
    let slot = Mutex::new(Some(move || -> Result<(), E> {
        for chunk in receive {
            add(&chunk)?;
        }
        Ok(())
    }));
    let take = || slot.lock().ok().and_then(|mut s| s.take());
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new()
            .spawn_scoped(scope, || take().map(|f| f()))
            .ok();
        let walked = walk(dict, name, what, &value, &mut empty, &mut |chunk| {
            send.send(chunk).is_ok()
        });
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
