//! Command-line plumbing shared by the examples, so that every one of them
//! behaves the same at the prompt. An example includes it with
//!
//! ```text
//! #[path = "common/cli.rs"]
//! mod cli;
//!
//! fn main() -> std::process::ExitCode {
//!     cli::main(USAGE, run)
//! }
//! ```
//!
//! and writes its `run(args, out)` against [`Failure`] and [`Out`]. Then:
//!
//! - an error prints one line on stderr, `error: FILE:LINE:COLUMN: message`
//!   (the parts that are known), where the message is the error's `Display`
//!   text followed by those of its sources, joined by `: `; exit status 1;
//! - a wrong command line prints `error: …` and the usage line on stderr;
//!   exit status 2 (as clap-based and GNU tools do);
//! - `-h` or `--help` prints the usage line on stdout; exit status 0;
//! - a closed output pipe (`… | head`) ends the program quietly with status
//!   0: output goes through [`Out`], never `println!`, which panics there;
//! - a UTF-8 byte-order mark at the start of an input file is skipped
//!   ([`open`], [`read`]).
//!
//! It is not part of the library: exit codes and stderr formats are a
//! program's choices, not an evaluation crate's.

#![allow(dead_code)]

use std::error::Error;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status of a run that failed on its input or its computation.
pub const STATUS_ERROR: u8 = 1;
/// Exit status of a wrong command line.
pub const STATUS_USAGE: u8 = 2;

/// What ended a run early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Bad input or a failed computation: status 1.
    Error,
    /// A wrong command line: status 2, with the usage line.
    Usage,
    /// The reader of the output went away (a closed pipe): status 0, silent.
    Quiet,
}

/// Why a run stopped, and where: a message with the file, line and column
/// it is about, as far as they are known, and the error it came from (so a
/// caller can still add what the error knows: [`Failure::source`]).
#[derive(Debug)]
pub struct Failure {
    /// What kind of failure it is.
    pub kind: Kind,
    /// The input file the message is about.
    pub file: Option<PathBuf>,
    /// 1-based line in `file`.
    pub line: Option<usize>,
    /// 1-based character column in `line`.
    pub column: Option<usize>,
    /// The message: lowercase, no trailing period, no location.
    pub message: String,
    /// The error the failure was made from, if any.
    error: Option<Box<dyn Error + 'static>>,
}

impl Failure {
    /// An error with `message` and no location yet.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            kind: Kind::Error,
            file: None,
            line: None,
            column: None,
            message: message.into(),
            error: None,
        }
    }

    /// A wrong command line.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            kind: Kind::Usage,
            ..Self::new(message)
        }
    }

    /// The output pipe was closed: stop quietly.
    pub fn quiet() -> Self {
        Self {
            kind: Kind::Quiet,
            ..Self::new("")
        }
    }

    /// An error from its `Display` chain (see [`chain`]); a closed pipe
    /// anywhere in the chain makes it [`Kind::Quiet`].
    pub fn from_error(e: &(dyn Error + 'static)) -> Self {
        if is_broken_pipe(e) {
            return Self::quiet();
        }
        Self::new(chain(e))
    }

    /// The error `e` of reading `path`, with the line and column it names
    /// ([`Located`]); the location's words are dropped from the message,
    /// which the `FILE:LINE:COLUMN:` prefix then carries.
    pub fn in_file<E: Error + Located + 'static>(path: impl AsRef<Path>, e: &E) -> Self {
        Self::from_error(e).file(path).at(e.line(), e.column())
    }

    /// The error this failure was made from (by `?` or [`From`]), if it is
    /// an `E`.
    pub fn source<E: Error + 'static>(&self) -> Option<&E> {
        self.error.as_deref()?.downcast_ref()
    }

    /// Names the file the message is about.
    #[must_use]
    pub fn file(mut self, path: impl AsRef<Path>) -> Self {
        self.file = Some(path.as_ref().to_owned());
        self
    }

    /// Names the line and column (1-based), and drops a leading
    /// `line N: `, `line N, column C: ` (or `dataset line N: `,
    /// `vectors line N: `) from the message, since the prefix now says it.
    #[must_use]
    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> Self {
        if let Some(l) = line {
            self.message = strip_location(&self.message, l, column).to_owned();
            self.line = Some(l);
        }
        if column.is_some() {
            self.column = column;
        }
        self
    }

    /// The exit status for this failure.
    pub fn status(&self) -> u8 {
        match self.kind {
            Kind::Error => STATUS_ERROR,
            Kind::Usage => STATUS_USAGE,
            Kind::Quiet => 0,
        }
    }

    /// What is printed on stderr (without the final line break), `None`
    /// for a quiet stop.
    pub fn render(&self, usage: &str) -> Option<String> {
        match self.kind {
            Kind::Quiet => None,
            Kind::Usage => Some(format!("error: {}\n{usage}", self.message)),
            Kind::Error => Some(format!("error: {self}")),
        }
    }
}

/// `FILE:LINE:COLUMN: message`, with the parts that are known.
impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}:", file.display())?;
            if let Some(line) = self.line {
                write!(f, "{line}:")?;
                if let Some(column) = self.column {
                    write!(f, "{column}:")?;
                }
            }
            f.write_str(" ")?;
        } else if let Some(line) = self.line {
            // No file: keep the location in words.
            write!(f, "line {line}")?;
            if let Some(column) = self.column {
                write!(f, ", column {column}")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

/// `?` on any error gives its `Display` chain without a location; add one
/// with [`Failure::file`] and [`Failure::at`], or use [`Failure::in_file`].
impl<E: Error + 'static> From<E> for Failure {
    fn from(e: E) -> Self {
        let failure = Self::from_error(&e);
        Self {
            error: Some(Box::new(e)),
            ..failure
        }
    }
}

/// The `Display` text of `e`, then of each of its sources, joined by `: `.
/// A source whose text the message already contains (errors that print
/// their cause themselves) is not repeated.
pub fn chain(e: &(dyn Error + 'static)) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !text.is_empty() && !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = s.source();
    }
    message
}

fn is_broken_pipe(e: &(dyn Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            if io.kind() == io::ErrorKind::BrokenPipe {
                return true;
            }
            // `io::Error::other(inner)` hides `inner` from `source()`.
            if let Some(inner) = io.get_ref()
                && is_broken_pipe(inner)
            {
                return true;
            }
        }
        // `csv::Error` holds its I/O error without naming it as a source.
        if let Some(csv::ErrorKind::Io(io)) = e.downcast_ref::<csv::Error>().map(csv::Error::kind)
            && io.kind() == io::ErrorKind::BrokenPipe
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// Drops the location words a library message starts with when they say
/// `line` (and `column`): `line 3: `, `line 3, column 7: `,
/// `dataset line 3: `, `vectors line 3: `.
pub fn strip_location(message: &str, line: usize, column: Option<usize>) -> &str {
    for lead in ["", "dataset ", "vectors "] {
        let Some(rest) = message
            .strip_prefix(lead)
            .and_then(|m| m.strip_prefix(&format!("line {line}")))
        else {
            continue;
        };
        if let Some(rest) = rest.strip_prefix(": ") {
            return rest;
        }
        if let Some(c) = column
            && let Some(rest) = rest.strip_prefix(&format!(", column {c}: "))
        {
            return rest;
        }
    }
    message
}

/// The 1-based line and column an error of a library reader names.
pub trait Located {
    /// 1-based line of the input file, if the error names one.
    fn line(&self) -> Option<usize>;
    /// 1-based character column, if the error names one.
    fn column(&self) -> Option<usize> {
        None
    }
}

impl Located for adaptive_comp_metrics::lexsub::LexsubError {
    fn line(&self) -> Option<usize> {
        use adaptive_comp_metrics::lexsub::LexsubError as E;
        match self {
            E::Syntax { line, .. }
            | E::CountOverflow { line, .. }
            | E::NotReproducible { line, .. }
            | E::InvalidUtf8 { line }
            | E::Io { line, .. } => Some(*line),
            _ => None,
        }
    }

    fn column(&self) -> Option<usize> {
        match self {
            Self::CountOverflow { column, .. } => Some(*column),
            _ => None,
        }
    }
}

impl Located for adaptive_comp_metrics::triplet::TripletError {
    fn line(&self) -> Option<usize> {
        use adaptive_comp_metrics::triplet::TripletError as E;
        match self {
            E::Format { line, .. } => Some(*line),
            E::Vectors(e) => e.line(),
            E::Io { line, .. } if *line > 0 => Some(*line),
            _ => None,
        }
    }
}

impl Located for adaptive_comp_metrics::embedding::EmbeddingError {
    fn line(&self) -> Option<usize> {
        Self::line(self)
    }
}

impl Located for adaptive_comp_metrics::relevance::RelevanceError {
    fn line(&self) -> Option<usize> {
        Self::line(self)
    }
}

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
    let file = File::open(path).map_err(|e| Failure::new(e.to_string()).file(path))?;
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

/// `-h` or `--help` among the arguments.
pub fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "-h" || a == "--help")
}

/// Parses an argument, naming it in the usage error.
pub fn parse<T: std::str::FromStr>(name: &str, text: &str, expected: &str) -> Result<T, Failure>
where
    T::Err: fmt::Display,
{
    text.parse()
        .map_err(|e| Failure::usage(format!("{name} must be {expected}, got {text:?}: {e}")))
}

/// Where the output goes: stdout (buffered) in a program, memory or a
/// closed pipe in tests. `writeln!(out, …)?` returns a [`Failure`], quiet
/// when the pipe is closed.
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

    /// `write!`/`writeln!` land here: the error is a [`Failure`] (quiet
    /// for a closed pipe).
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), Failure> {
        Write::write_fmt(self, args).map_err(output_failure)
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> Result<(), Failure> {
        Write::flush(self).map_err(output_failure)
    }

    /// A warning on stderr, after what was written so far (so the two
    /// streams stay in order on a terminal).
    pub fn warn(&mut self, message: impl fmt::Display) {
        let _ = Write::flush(self);
        let _ = writeln!(io::stderr(), "warning: {message}");
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

/// The arguments after the program name; one that is not valid UTF-8 is a
/// usage error.
pub fn args() -> Result<Vec<String>, Failure> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                Failure::usage(format!(
                    "argument {} is not valid UTF-8: {}",
                    i + 1,
                    a.to_string_lossy()
                ))
            })
        })
        .collect()
}

/// Runs `run` on the command line and stdout: `-h`/`--help` prints `usage`,
/// a failure is printed as the module docs say, and the exit status follows.
pub fn main(usage: &str, run: impl FnOnce(&[String], &mut Out) -> Result<(), Failure>) -> ExitCode {
    let mut out = Out::stdout();
    let result = args().and_then(|args| {
        if wants_help(&args) {
            writeln!(out, "{usage}")
        } else {
            run(&args, &mut out)
        }
    });
    ExitCode::from(finish(result.and_then(|()| out.flush()), usage, &mut out))
}

/// The exit status of a finished run; a failure is printed on stderr after
/// flushing what was written before it.
pub fn finish(result: Result<(), Failure>, usage: &str, out: &mut Out) -> u8 {
    match result {
        Ok(()) => 0,
        Err(f) => {
            let _ = Write::flush(out);
            if let Some(text) = f.render(usage) {
                let _ = writeln!(io::stderr(), "{text}");
            }
            f.status()
        }
    }
}
