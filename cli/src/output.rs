//! Where results go: buffered stdout (a closed pipe is a quiet stop), and
//! the `--format table|csv|json` choice shared by every command that prints
//! results.

use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};

use adaptive_comp_metrics::relevance::Measure;
use adaptive_comp_metrics::uncertainty::compare::Cells;

use crate::error::{Failure, is_broken_pipe};

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned text for a person.
    #[default]
    Table,
    /// Comma-separated values with a header line (RFC 4180).
    Csv,
    /// One JSON document.
    Json,
}

/// The `--format` option, flattened into each command that prints results.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct FormatArg {
    /// Output format: table (for a person), csv or json (for programs).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// What every command gets besides its own arguments.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ctx {
    /// `--quiet`: no progress bars, no notes.
    pub quiet: bool,
}

impl Ctx {
    /// A note on stderr (not with `--quiet`), after flushing `out` so the
    /// two streams stay in order on a terminal.
    pub fn note(&self, out: &mut Out, message: impl fmt::Display) {
        if !self.quiet {
            let _ = Write::flush(out);
            let _ = writeln!(io::stderr(), "note: {message}");
        }
    }

    /// Whether progress bars are drawn: stderr is a terminal and not `--quiet`.
    pub fn shows_progress(&self) -> bool {
        !self.quiet && io::stderr().is_terminal()
    }
}

/// Where the output goes: stdout (buffered), or memory in tests.
pub struct Out {
    sink: Sink,
}

enum Sink {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    Memory(Vec<u8>),
    Closed,
}

impl fmt::Debug for Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.sink {
            Sink::Stdout(_) => "Out(stdout)",
            Sink::Memory(_) => "Out(memory)",
            Sink::Closed => "Out(closed)",
        })
    }
}

impl Out {
    /// Buffered stdout.
    pub fn stdout() -> Self {
        Self {
            sink: Sink::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
        }
    }

    /// Kept in memory ([`Out::text`]), for tests.
    pub fn memory() -> Self {
        Self {
            sink: Sink::Memory(Vec::new()),
        }
    }

    /// Every write fails as on a closed pipe, for tests.
    pub fn closed() -> Self {
        Self { sink: Sink::Closed }
    }

    /// What was written to a memory sink (empty for the others).
    pub fn text(&self) -> String {
        match &self.sink {
            Sink::Memory(v) => String::from_utf8_lossy(v).into_owned(),
            _ => String::new(),
        }
    }

    /// `write!`/`writeln!` land here: the error is a [`Failure`] (quiet for
    /// a closed pipe).
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Failure> {
        Write::write_fmt(self, args).map_err(output_failure)
    }

    /// Writes bytes as they are.
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        Write::write_all(self, bytes).map_err(output_failure)
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> Result<(), Failure> {
        Write::flush(self).map_err(output_failure)
    }

    /// A warning on stderr, after what was written so far.
    pub fn warn(&mut self, message: impl fmt::Display) {
        let _ = Write::flush(self);
        let _ = writeln!(io::stderr(), "warning: {message}");
    }

    /// Writes `value` as pretty JSON and a line break.
    pub fn json(&mut self, value: &impl serde::Serialize) -> Result<(), Failure> {
        serde_json::to_writer_pretty(&mut *self, value).map_err(|e| {
            if is_broken_pipe(&e) {
                Failure::quiet()
            } else {
                Failure::new(format!("writing the output: {e}"))
            }
        })?;
        writeln!(self)
    }
}

/// A failed write of the output: quiet for a closed pipe.
pub fn output_failure(e: io::Error) -> Failure {
    if is_broken_pipe(&e) {
        Failure::quiet()
    } else {
        Failure::new(format!("writing the output: {e}"))
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write(buf),
            Sink::Memory(v) => v.write(buf),
            Sink::Closed => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.flush(),
            Sink::Memory(_) => Ok(()),
            Sink::Closed => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }
}

/// A table of text cells: printed aligned (`--format table`), as CSV, or
/// as a JSON array of objects keyed by the header (cells that parse as
/// numbers become numbers, empty cells `null`).
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
    /// Columns aligned left in the text form (the others right).
    pub left: usize,
}

impl Table {
    /// A table with these column names, the first `left` aligned left.
    pub fn new(header: &[&str], left: usize) -> Self {
        Self {
            header: header.iter().map(|s| (*s).to_owned()).collect(),
            rows: Vec::new(),
            left,
        }
    }

    /// Adds a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Writes the table in `format`.
    pub fn write(&self, format: Format, out: &mut Out) -> Result<(), Failure> {
        match format {
            Format::Table => self.write_text(out),
            Format::Csv => self.write_csv(out),
            Format::Json => out.json(&self.json()),
        }
    }

    /// Aligned as the library aligns a comparison's cells
    /// ([`Cells::text`]): columns two spaces apart, text left, numbers right.
    fn write_text(&self, out: &mut Out) -> Result<(), Failure> {
        let mut cells = Cells::default();
        cells.header.clone_from(&self.header);
        cells.rows.clone_from(&self.rows);
        cells.left = self.left;
        out.bytes(cells.text().as_bytes())
    }

    fn write_csv(&self, out: &mut Out) -> Result<(), Failure> {
        let mut w = csv::Writer::from_writer(&mut *out);
        let fail = |e: csv::Error| {
            if is_broken_pipe(&e) {
                Failure::quiet()
            } else {
                Failure::new(format!("writing the output: {e}"))
            }
        };
        w.write_record(&self.header).map_err(fail)?;
        for r in &self.rows {
            w.write_record(r).map_err(fail)?;
        }
        w.flush().map_err(output_failure)
    }

    /// The rows as JSON objects.
    pub fn json(&self) -> serde_json::Value {
        self.rows
            .iter()
            .map(|r| {
                self.header
                    .iter()
                    .zip(r)
                    .map(|(h, v)| (h.clone(), cell_json(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into()
            })
            .collect::<Vec<serde_json::Value>>()
            .into()
    }
}

/// A cell as JSON: a number when it reads as a finite one, `null` when
/// empty, the text otherwise.
fn cell_json(v: &str) -> serde_json::Value {
    if v.is_empty() {
        return serde_json::Value::Null;
    }
    if let Ok(i) = v.parse::<i64>() {
        return i.into();
    }
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && !v.starts_with('+') => x.into(),
        _ => v.into(),
    }
}

/// One run's values of trec_eval's measures as JSON or CSV (`acm trec`,
/// `acm relevance`): a value per measure for each query (with `-q`) and
/// for the summary, `all`.
#[derive(Debug)]
pub struct MeasureReport<'a> {
    /// The run's name (`runid`).
    pub run: &'a str,
    /// The measures, in the order of the values.
    pub measures: &'a [Measure],
    /// How many queries were scored (`num_q`).
    pub num_q: usize,
    /// Each query's values, in the order printed (with `-q`).
    pub queries: Option<Vec<(&'a str, Values)>>,
    /// The summary's values.
    pub all: Option<Values>,
}

/// A value per measure, `None` where it is undefined.
pub type Values = Vec<Option<f64>>;

impl MeasureReport<'_> {
    /// `{"runid", "num_q", "queries": {query: {measure: value}}, "all":
    /// {measure: value}}`, an undefined value `null`.
    ///
    /// # Errors
    /// The output cannot be written.
    pub fn json(&self, out: &mut Out) -> Result<(), Failure> {
        let values = |vals: &[Option<f64>]| -> serde_json::Value {
            self.measures
                .iter()
                .zip(vals)
                .map(|(m, v)| (m.to_string(), serde_json::json!(v)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let mut doc = serde_json::Map::new();
        doc.insert("runid".into(), self.run.into());
        doc.insert("num_q".into(), self.num_q.into());
        if let Some(queries) = &self.queries {
            let queries: serde_json::Map<_, _> = queries
                .iter()
                .map(|(q, v)| ((*q).to_owned(), values(v)))
                .collect();
            doc.insert("queries".into(), queries.into());
        }
        if let Some(all) = &self.all {
            doc.insert("all".into(), values(all));
        }
        out.json(&serde_json::Value::Object(doc))
    }

    /// A header `query,MEASURE…`, a row per query, then `all`; an
    /// undefined value empty.
    ///
    /// # Errors
    /// The output cannot be written.
    pub fn csv(&self, out: &mut Out) -> Result<(), Failure> {
        let names: Vec<String> = self.measures.iter().map(ToString::to_string).collect();
        let mut header = vec!["query"];
        header.extend(names.iter().map(String::as_str));
        let mut t = Table::new(&header, 1);
        let row = |name: &str, values: &[Option<f64>]| {
            let mut r = vec![name.to_owned()];
            r.extend(
                values
                    .iter()
                    .map(|v| v.map(|x| x.to_string()).unwrap_or_default()),
            );
            r
        };
        for (q, values) in self.queries.iter().flatten() {
            t.row(row(q, values));
        }
        if let Some(all) = &self.all {
            t.row(row("all", all));
        }
        t.write(Format::Csv, out)
    }
}
