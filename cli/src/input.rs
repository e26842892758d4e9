//! Reading input files: past a UTF-8 byte-order mark, with the file named
//! in every error; the column of a field for `FILE:LINE:COLUMN:` messages;
//! numeric columns of a CSV file chosen by their header names.
//!
//! CSV files are RFC 4180 read by the `csv` crate's parser (`csv-core`):
//! comma-separated, fields optionally in double quotes (`"p,1"` is one
//! field, `""` inside quotes is a quote), `\n` or `\r\n` line ends, blank
//! lines skipped, spaces around a field ignored. A quote left open at the
//! end of the file is an error naming the line where the field starts.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{Failure, echo, echo_list};

/// How the fields of a line are separated, for [`field_column`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Comma-separated, spaces around a field ignored.
    Comma,
    /// Separated by runs of ASCII whitespace.
    Whitespace,
}

/// The 1-based character column where field `index` (0-based) of `line`
/// starts (its first non-blank character), or `None` if the text has no
/// such line or field. A byte-order mark before line 1 is not counted.
pub fn field_column(text: &str, line: usize, index: usize, fields: Fields) -> Option<usize> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let row = text.split('\n').nth(line.checked_sub(1)?)?;
    let row = row.strip_suffix('\r').unwrap_or(row);
    let start = match fields {
        Fields::Comma => {
            let mut start = 0;
            for _ in 0..index {
                start += row.get(start..)?.find(',')? + 1;
            }
            let field = row.get(start..)?;
            start + (field.len() - field.trim_start().len())
        }
        Fields::Whitespace => {
            let mut seen = 0;
            let mut in_field = false;
            let mut found = None;
            for (i, b) in row.bytes().enumerate() {
                let blank = b.is_ascii_whitespace();
                if !blank && !in_field {
                    if seen == index {
                        found = Some(i);
                        break;
                    }
                    seen += 1;
                }
                in_field = !blank;
            }
            found?
        }
    };
    Some(row.get(..start)?.chars().count() + 1)
}

/// Opens `path` for buffered reading, past a UTF-8 byte-order mark; the
/// error names the file.
pub fn open(path: impl AsRef<Path>) -> Result<BufReader<File>, Failure> {
    let path = path.as_ref();
    let file =
        File::open(path).map_err(|e| Failure::new(format!("cannot read: {e}")).file(path))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader
        .fill_buf()
        .map_err(|e| Failure::new(e.to_string()).file(path))?;
    if head.starts_with(b"\xEF\xBB\xBF") {
        reader.consume(3);
    }
    Ok(reader)
}

/// The bytes of `path`, without a leading UTF-8 byte-order mark; the error
/// names the file.
pub fn read(path: impl AsRef<Path>) -> Result<Vec<u8>, Failure> {
    let path = path.as_ref();
    let mut bytes = Vec::new();
    open(path)?
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::new(e.to_string()).file(path))?;
    Ok(bytes)
}

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
pub fn read_columns(path: &Path, names: &[&str], delimiter: u8) -> Result<Columns, Failure> {
    let bytes = read(path)?;
    parse_columns(&bytes, names, delimiter).map_err(|f| f.file(path))
}

/// Parses the columns named `names` of CSV text (a byte-order mark already
/// removed or not).
pub fn parse_columns(bytes: &[u8], names: &[&str], delimiter: u8) -> Result<Columns, Failure> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(at) = unclosed_quote(bytes, delimiter) {
        let cell = Cursor::new(bytes).locate(at);
        return Err(unclosed_quote_failure().at(Some(cell.line), Some(cell.column)));
    }
    let mut records = records(bytes, delimiter)
        .into_iter()
        .filter(|r| !is_blank(r));
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
        let k = find_column(&header, name)?.ok_or_else(|| {
            Failure::new(format!(
                "no column {name:?} in the header (its columns: {})",
                header_names(&header)
            ))
            .at(Some(header_line), None)
        })?;
        index.push(k);
    }
    let mut values = vec![Vec::new(); names.len()];
    let mut cells = vec![Vec::new(); names.len()];
    for record in records {
        let line = record.first().map_or(header_line, |f| f.at.line);
        for (j, (&k, name)) in index.iter().zip(names).enumerate() {
            let Some(field) = record.get(k) else {
                return Err(missing_field(name, k, record.len(), line));
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
                    "column {name:?}: {} is not a number",
                    echo(text)
                )))
            })?;
            if !value.is_finite() {
                return Err(at(Failure::new(format!(
                    "column {name:?}: {} is not a finite number",
                    echo(text)
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

/// A line of `len` fields that lacks column `name`, the header's field `k`
/// (counted from 0).
fn missing_field(name: &str, k: usize, len: usize, line: usize) -> Failure {
    Failure::new(format!(
        "missing field {name:?} (field {} of the header): the line has {len} field{}",
        k + 1,
        if len == 1 { "" } else { "s" }
    ))
    .at(Some(line), None)
}

/// The header's column names, quoted, for a message.
fn header_names(header: &[Field]) -> String {
    let columns: Vec<&str> = header
        .iter()
        .map(|f| f.text.as_deref().unwrap_or("?"))
        .collect();
    echo_list(&columns, true)
}

/// The index of column `name` in `header`, `None` when it is not there; an
/// error when the header names it twice.
fn find_column(header: &[Field], name: &str) -> Result<Option<usize>, Failure> {
    let mut found = header
        .iter()
        .enumerate()
        .filter(|(_, f)| f.text.as_deref() == Ok(name));
    let Some((k, _)) = found.next() else {
        return Ok(None);
    };
    if let Some((_, again)) = found.next() {
        return Err(Failure::new(format!(
            "the header names column {name:?} twice: which one to use is ambiguous"
        ))
        .at(Some(again.at.line), Some(again.at.column)));
    }
    Ok(Some(k))
}

/// One data row of [`read_text_columns`]: per column asked for, its
/// (trimmed, unquoted) text and where it starts, `None` for an optional
/// column the header lacks.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRow {
    /// 1-based line of the row.
    pub line: usize,
    /// The fields, in the order asked for.
    pub fields: Vec<Option<(String, Cell)>>,
}

/// Reads the columns `names` (name, required) of the CSV file at `path` as
/// text. A required column missing from the header, a row too short for a
/// column or a field that is not UTF-8 is an error naming the file, line
/// and column; an empty file or a file without rows too.
pub fn read_text_columns(path: &Path, names: &[(&str, bool)]) -> Result<Vec<TextRow>, Failure> {
    let bytes = read(path)?;
    parse_text_columns(&bytes, names).map_err(|f| f.file(path))
}

/// [`read_text_columns`] of CSV text.
pub fn parse_text_columns(bytes: &[u8], names: &[(&str, bool)]) -> Result<Vec<TextRow>, Failure> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(at) = unclosed_quote(bytes, b',') {
        let cell = Cursor::new(bytes).locate(at);
        return Err(unclosed_quote_failure().at(Some(cell.line), Some(cell.column)));
    }
    let mut records = records(bytes, b',').into_iter().filter(|r| !is_blank(r));
    let header = records.next().ok_or_else(|| {
        Failure::new("the file is empty: expected a header line naming the columns")
    })?;
    let header_line = header.first().map_or(1, |f| f.at.line);
    let mut index = Vec::with_capacity(names.len());
    for &(name, required) in names {
        let k = find_column(&header, name)?;
        if k.is_none() && required {
            return Err(Failure::new(format!(
                "no column {name:?} in the header (its columns: {})",
                header_names(&header)
            ))
            .at(Some(header_line), None));
        }
        index.push(k);
    }
    let mut rows = Vec::new();
    for record in records {
        let line = record.first().map_or(header_line, |f| f.at.line);
        let mut fields = Vec::with_capacity(names.len());
        for (&k, &(name, _)) in index.iter().zip(names) {
            let Some(k) = k else {
                fields.push(None);
                continue;
            };
            let Some(field) = record.get(k) else {
                return Err(missing_field(name, k, record.len(), line));
            };
            let text = field.text.clone().map_err(|()| {
                Failure::new(format!("column {name:?}: not valid UTF-8"))
                    .at(Some(field.at.line), Some(field.at.column))
            })?;
            fields.push(Some((text, field.at)));
        }
        rows.push(TextRow { line, fields });
    }
    if rows.is_empty() {
        return Err(Failure::new(format!(
            "no data: the file has a header (line {header_line}) but no rows"
        )));
    }
    Ok(rows)
}

/// A record of one empty field: a line of spaces.
fn is_blank(record: &[Field]) -> bool {
    matches!(record, [f] if f.text.as_deref().is_ok_and(str::is_empty))
}

/// Every record of `bytes`, with each field's text and position.
fn records(bytes: &[u8], delimiter: u8) -> Vec<Vec<Field>> {
    use csv_core::ReadFieldResult as R;
    let mut reader = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
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
                .take_while(|&&b| {
                    skip.contains(&b) || (b != delimiter && matches!(b, b' ' | b'\t'))
                })
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

/// The message of a record that ends inside an open quote.
pub fn unclosed_quote_failure() -> Failure {
    Failure::new(
        "a quoted field opened here is not closed by the end of the file (a missing closing quote?)",
    )
}

/// The byte offset of the opening quote of a field still open at the end of
/// `bytes`, read as the `csv` crate's parser reads CSV (a field is quoted
/// when its first byte is `"`; `""` inside it is a quote; text after the
/// closing quote belongs to the field), or `None` when every quote is closed.
pub fn unclosed_quote(bytes: &[u8], delimiter: u8) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Start,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let mut state = S::Start;
    let mut opened = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == delimiter || b == b'\n' || b == b'\r';
        state = match state {
            S::Start if b == b'"' => {
                opened = i;
                S::Quoted
            }
            S::Start | S::Unquoted if ends => S::Start,
            S::Start | S::Unquoted => S::Unquoted,
            S::Quoted if b == b'"' => S::QuoteInQuoted,
            S::Quoted => S::Quoted,
            S::QuoteInQuoted if b == b'"' => S::Quoted,
            S::QuoteInQuoted if ends => S::Start,
            S::QuoteInQuoted => S::Unquoted,
        };
    }
    (state == S::Quoted).then_some(opened)
}
