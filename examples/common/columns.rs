//! Numeric columns of a CSV file, chosen by their header names, for the
//! examples (included with `#[path = "common/columns.rs"] mod columns;`
//! beside `cli`).
//!
//! The file is RFC 4180 CSV read by the `csv` crate's parser (`csv-core`):
//! comma-separated, fields optionally in double quotes (`"p,1"` is one
//! field, `""` inside quotes is a quote), `\n` or `\r\n` line ends, blank
//! lines skipped, spaces around a field ignored, a UTF-8 byte-order mark
//! before the header skipped. Other columns are ignored and need not be
//! numbers. Every error names the line, and the column of the field (the
//! 1-based character position where it starts) when there is one.

use super::cli::Failure;
use std::path::Path;

/// Where a field starts: 1-based line and character column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
}

/// The columns asked for, in the order asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    /// One vector of values per column asked for, one value per data row.
    pub values: Vec<Vec<f64>>,
    /// Where each value was read, parallel to `values`.
    pub cells: Vec<Vec<Cell>>,
    /// Line of the header.
    pub header_line: usize,
}

/// One field of a record: its text (unquoted, trimmed) and where it starts.
#[derive(Debug)]
struct Field {
    text: Result<String, ()>,
    at: Cell,
}

/// Reads the columns named `names` of the CSV file at `path`; errors name
/// the file.
pub fn read(path: &Path, names: &[&str]) -> Result<Columns, Failure> {
    let bytes = super::cli::read(path)?;
    parse(&bytes, names).map_err(|f| f.file(path))
}

/// Parses the columns named `names` of CSV text (a byte-order mark already
/// removed or not).
pub fn parse(bytes: &[u8], names: &[&str]) -> Result<Columns, Failure> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut records = records(bytes).into_iter().filter(|r| !is_blank(r));
    let listed = names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(" and ");
    let header = records.next().ok_or_else(|| {
        Failure::new(format!(
            "the file is empty: expected a header line naming the columns {listed}"
        ))
    })?;
    let header_line = header.first().map_or(1, |f| f.at.line);
    let mut index = Vec::with_capacity(names.len());
    for name in names {
        let mut found = header
            .iter()
            .enumerate()
            .filter(|(_, f)| f.text.as_deref() == Ok(*name));
        let Some((k, _)) = found.next() else {
            let columns: Vec<String> = header
                .iter()
                .map(|f| format!("{:?}", f.text.as_deref().unwrap_or("?")))
                .collect();
            return Err(Failure::new(format!(
                "no column {name:?} in the header (its columns: {})",
                columns.join(", ")
            ))
            .at(Some(header_line), None));
        };
        if let Some((_, again)) = found.next() {
            return Err(Failure::new(format!(
                "the header names column {name:?} twice: which one to use is ambiguous"
            ))
            .at(Some(again.at.line), Some(again.at.column)));
        }
        index.push(k);
    }
    let mut values = vec![Vec::new(); names.len()];
    let mut cells = vec![Vec::new(); names.len()];
    for record in records {
        let line = record.first().map_or(header_line, |f| f.at.line);
        for (j, (&k, name)) in index.iter().zip(names).enumerate() {
            let Some(field) = record.get(k) else {
                return Err(Failure::new(format!(
                    "missing field {name:?} (field {} of the header): the line has {} field{}",
                    k + 1,
                    record.len(),
                    if record.len() == 1 { "" } else { "s" }
                ))
                .at(Some(line), None));
            };
            let at = |f: Failure| f.at(Some(field.at.line), Some(field.at.column));
            let text = field
                .text
                .as_deref()
                .map_err(|()| at(Failure::new(format!("column {name:?}: not valid UTF-8"))))?;
            if text.is_empty() {
                return Err(at(Failure::new(format!("column {name:?}: empty field"))));
            }
            let value: f64 = text.parse().map_err(|_| {
                at(Failure::new(format!(
                    "column {name:?}: {text:?} is not a number"
                )))
            })?;
            if !value.is_finite() {
                return Err(at(Failure::new(format!(
                    "column {name:?}: {text:?} is not a finite number"
                ))));
            }
            if let (Some(v), Some(c)) = (values.get_mut(j), cells.get_mut(j)) {
                v.push(value);
                c.push(field.at);
            }
        }
    }
    if values.first().is_none_or(Vec::is_empty) {
        return Err(Failure::new(format!(
            "no data: the file has a header (line {header_line}) but no rows"
        )));
    }
    Ok(Columns {
        values,
        cells,
        header_line,
    })
}

/// A record of one empty field: a line of spaces.
fn is_blank(record: &[Field]) -> bool {
    matches!(record, [f] if f.text.as_deref().is_ok_and(str::is_empty))
}

/// Every record of `bytes`, with each field's text and position.
fn records(bytes: &[u8]) -> Vec<Vec<Field>> {
    use csv_core::ReadFieldResult as R;
    let mut reader = csv_core::Reader::new();
    // A field's unquoted text is never longer than its raw bytes.
    let mut out = vec![0; bytes.len() + 1];
    let mut cursor = Cursor::new(bytes);
    let (mut pos, mut outlen) = (0, 0);
    let mut field_start: Option<usize> = None;
    let mut record = Vec::new();
    let mut all = Vec::new();
    loop {
        let input = bytes.get(pos..).unwrap_or(&[]);
        let (res, nin, nout) = reader.read_field(input, out.get_mut(outlen..).unwrap_or(&mut []));
        if field_start.is_none() && nin > 0 {
            // Line ends before a record's first field are blank lines or
            // the `\n` of a `\r\n`; spaces before any field are trimmed.
            let skip = if record.is_empty() { &b"\r\n"[..] } else { &[] };
            let raw = input.get(..nin).unwrap_or(&[]);
            let lead = raw
                .iter()
                .take_while(|b| skip.contains(b) || matches!(b, b' ' | b'\t'))
                .count();
            field_start = Some(pos + lead);
        }
        pos += nin;
        outlen += nout;
        match res {
            // An empty input tells the parser the data ended: it answers
            // with the last field or `End`, never `InputEmpty`.
            R::InputEmpty if input.is_empty() => break,
            R::InputEmpty => {}
            // Cannot happen (`out` is as long as the whole input), but grow.
            R::OutputFull => out.resize(out.len() * 2 + 1, 0),
            R::Field { record_end } => {
                let raw = out.get(..outlen).unwrap_or(&[]);
                let text = std::str::from_utf8(raw)
                    .map(|s| s.trim().to_owned())
                    .map_err(|_| ());
                let at = cursor.locate(field_start.unwrap_or(pos).min(pos));
                record.push(Field { text, at });
                outlen = 0;
                field_start = None;
                if record_end {
                    all.push(std::mem::take(&mut record));
                }
            }
            R::End => break,
        }
    }
    all
}

/// Turns byte offsets (visited in increasing order) into lines and
/// character columns.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    at: Cell,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            pos: 0,
            at: Cell { line: 1, column: 1 },
        }
    }

    fn locate(&mut self, offset: usize) -> Cell {
        for &b in self.bytes.get(self.pos..offset).unwrap_or(&[]) {
            if b == b'\n' {
                self.at = Cell {
                    line: self.at.line + 1,
                    column: 1,
                };
            } else if b & 0xC0 != 0x80 {
                // Count characters: UTF-8 continuation bytes are not one.
                self.at.column += 1;
            }
        }
        self.pos = self.pos.max(offset);
        self.at
    }
}
