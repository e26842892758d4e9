//! Storing parsed records into a qrels or run builder, in file order, on
//! one thread: ids interned, lines counted, the first error found.

use super::RUN_FORMAT;
use super::parse::{Fault, Parsed, Record, bad_number, not_utf8};
use super::pipeline::MAX_OFFSET;
use crate::relevance::error::{RelevanceError, Result};
use crate::relevance::flat::{QrelsBuilder, RunBuilder};
use crate::relevance::intern::{Documents, StringTable, same};
use std::ops::Range;

/// Interns query ids, remembering the last one (files are grouped by
/// query, so most lines repeat the previous line's query).
#[derive(Default)]
pub(super) struct QueryCache {
    pub(super) bytes: Vec<u8>,
    pub(super) id: Option<u32>,
}

impl QueryCache {
    #[inline]
    pub(super) fn intern(
        &mut self,
        table: &mut StringTable,
        field: &[u8],
        line: usize,
    ) -> Result<u32> {
        if let Some(id) = self.id
            && same(Some(&self.bytes), field)
        {
            return Ok(id);
        }
        let id = table.intern(not_utf8(field, line)?)?;
        self.bytes.clear();
        self.bytes.extend_from_slice(field);
        self.id = Some(id);
        Ok(id)
    }
}

/// Where records are stored: a qrels or run builder.
pub(super) trait Sink<V> {
    fn tables(&mut self) -> (&mut StringTable, &mut Documents);
    fn push(&mut self, q: u32, d: u32, value: V, line: usize) -> Result<()>;
}

/// A builder's own `tables` and `push_ids` as its [`Sink`] of `value`s.
macro_rules! sink {
    ($builder:ident, $value:ty) => {
        impl Sink<$value> for $builder<'_> {
            #[inline]
            fn tables(&mut self) -> (&mut StringTable, &mut Documents) {
                $builder::tables(self)
            }
            #[inline]
            fn push(&mut self, q: u32, d: u32, value: $value, line: usize) -> Result<()> {
                self.push_ids(q, d, value, line)
            }
        }
    };
}

sink!(QrelsBuilder, i32);
sink!(RunBuilder, f64);

/// Where a reading stands: the lines of the chunks stored so far, and the
/// query cache.
pub(super) struct Cursor {
    pub(super) line: usize,
    pub(super) cache: QueryCache,
}

impl Cursor {
    pub(super) fn new() -> Self {
        Self {
            line: 0,
            cache: QueryCache::default(),
        }
    }

    /// Interns and stores the records of a chunk (in `block`), then reports
    /// its fault as the line-by-line reading does, or moves past its lines.
    pub(super) fn store<V: Copy, S: Sink<V>>(
        &mut self,
        block: &[u8],
        parsed: &Parsed<V>,
        format: &'static str,
        sink: &mut S,
    ) -> Result<()> {
        let field = |r: (u32, u32)| block.get(r.0 as usize..r.1 as usize).unwrap_or(&[]);
        for r in &parsed.records {
            let line = self.line + (r.line & !Record::<V>::SAME_QUERY) as usize;
            let (qt, dt) = sink.tables();
            let q = match self.cache.id {
                // The cache holds the query of the record before.
                Some(id) if r.line & Record::<V>::SAME_QUERY != 0 => id,
                _ => {
                    let before = self.cache.id;
                    let q = self.cache.intern(qt, field(r.query), line)?;
                    // A new query (not the same one at a chunk's start).
                    if before != Some(q) {
                        dt.warm(q);
                    }
                    q
                }
            };
            // Checked as UTF-8 by the parser.
            let d = dt.intern_tagged(q, field(r.doc), r.tag)?;
            sink.push(q, d, r.value, line)?;
        }
        if let Some(fault) = &parsed.fault {
            let (qt, _) = sink.tables();
            return Err(self.fault(block, fault, format, qt));
        }
        self.line += parsed.lines;
        Ok(())
    }

    #[cold]
    pub(super) fn fault(
        &mut self,
        block: &[u8],
        fault: &Fault,
        format: &'static str,
        queries: &mut StringTable,
    ) -> RelevanceError {
        let field = |r: &Range<usize>| block.get(r.clone()).unwrap_or(&[]);
        match *fault {
            Fault::TooLong { length } => RelevanceError::TooLarge {
                quantity: "bytes in a line",
                requested: length as u64,
                limit: MAX_OFFSET as u64,
            },
            Fault::FieldCount { line, found } => RelevanceError::FieldCount {
                line: self.line + line,
                format,
                expected: if format == RUN_FORMAT { 6 } else { 4 },
                found,
            },
            Fault::Blank { line } => RelevanceError::BlankLine {
                line: self.line + line,
                column: 1,
                format,
            },
            Fault::BadNumber { line, ref value } => {
                let (column, expected) = if format == RUN_FORMAT {
                    ("score", "a finite score")
                } else {
                    ("rel", "an integer grade")
                };
                bad_number(self.line + line, column, expected, field(value))
            }
            Fault::Query { line } => RelevanceError::NotUtf8 {
                line: self.line + line,
            },
            Fault::Doc { line, ref query } => {
                let line = self.line + line;
                match self.cache.intern(queries, field(query), line) {
                    Err(e) => e,
                    Ok(_) => RelevanceError::NotUtf8 { line },
                }
            }
        }
    }
}
