//! Why a command stopped, and how that is printed: one line per error on
//! stderr, `error: FILE:LINE:COLUMN: message` with the parts that are known,
//! and the exit status (0 done or a closed output pipe, 1 bad input or a
//! failed computation, 2 a wrong command line).

use std::error::Error;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Exit status of a run that failed on its input or its computation.
pub const STATUS_ERROR: u8 = 1;
/// Exit status of a wrong command line.
pub const STATUS_USAGE: u8 = 2;

/// Echoed input longer than this many characters is cut.
pub const ECHO_LIMIT: usize = 80;

/// The message of a simulated crash (tests only), [`Failure::crash`].
pub const CRASH: &str = "simulated crash";

/// What kind of stop it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Bad input or a failed computation: status 1.
    Error,
    /// A wrong command line: status 2.
    Usage,
    /// The reader of the output went away (a closed pipe): status 0, silent.
    Quiet,
    /// A simulated crash at a checkpoint of a campaign step (tests only):
    /// status 1, printed as an error.
    Crash,
}

/// Why a command stopped, and where: a message with the file, line and
/// column it is about, as far as they are known, and the error it came from
/// (its fields are those of [`Detail`], reached through `Deref`).
#[derive(Debug)]
pub struct Failure(Box<Detail>);

impl std::ops::Deref for Failure {
    type Target = Detail;
    fn deref(&self) -> &Detail {
        &self.0
    }
}

impl std::ops::DerefMut for Failure {
    fn deref_mut(&mut self) -> &mut Detail {
        &mut self.0
    }
}

/// The parts of a [`Failure`].
#[derive(Debug)]
pub struct Detail {
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
    /// Further errors printed after this one (a file with several bad rows).
    pub more: Vec<Failure>,
    error: Option<Box<dyn Error + Send + Sync + 'static>>,
}

/// The result of a command.
pub type Outcome<T = ()> = Result<T, Failure>;

impl Failure {
    /// An error with `message` and no location yet.
    pub fn new(message: impl Into<String>) -> Self {
        Self(Box::new(Detail {
            kind: Kind::Error,
            file: None,
            line: None,
            column: None,
            message: message.into(),
            more: Vec::new(),
            error: None,
        }))
    }

    /// A wrong command line (status 2).
    pub fn usage(message: impl Into<String>) -> Self {
        let mut f = Self::new(message);
        f.kind = Kind::Usage;
        f
    }

    /// The output pipe was closed: stop quietly.
    pub fn quiet() -> Self {
        let mut f = Self::new("");
        f.kind = Kind::Quiet;
        f
    }

    /// A simulated crash at a checkpoint (tests only), [`Kind::Crash`].
    pub fn crash() -> Self {
        let mut f = Self::new(CRASH);
        f.kind = Kind::Crash;
        f
    }

    /// An error about the file `path` (no line).
    pub fn about(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self::new(message).file(path)
    }

    /// An error at the 1-based `line` of `path` (a line count of a file
    /// read as bytes: `u64`); the message names no location (it is taken
    /// as it is).
    pub fn at_line(path: impl AsRef<Path>, line: u64, message: impl Into<String>) -> Self {
        let mut f = Self::about(path, message);
        f.line = Some(usize::try_from(line).unwrap_or(usize::MAX));
        f
    }

    /// Several errors, printed one per line (the first one first).
    ///
    /// # Panics
    /// Never: an empty list gives a generic message.
    pub fn many(list: Vec<Failure>) -> Self {
        let mut it = list.into_iter();
        match it.next() {
            Some(mut first) => {
                first.more.extend(it);
                first
            }
            None => Self::new("failed"),
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
    /// (the library errors' `line()` and `column()`, through
    /// [`adaptive_comp_metrics::Error`]); the location's words are dropped
    /// from the message.
    pub fn in_file<E>(path: impl AsRef<Path>, e: &E) -> Self
    where
        E: Clone + Into<adaptive_comp_metrics::Error>,
    {
        let e: adaptive_comp_metrics::Error = e.clone().into();
        Self::from_error(&e).file(path).at(e.line(), e.column())
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

    /// Names the line and column (1-based), and drops a leading `line N: `
    /// (or `line N, column C: `, `dataset line N: `, `vectors line N: `,
    /// `benchmark line N: `)
    /// from the message, since the prefix now says it.
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
            Kind::Error | Kind::Crash => STATUS_ERROR,
            Kind::Usage => STATUS_USAGE,
            Kind::Quiet => 0,
        }
    }

    /// What is printed on stderr (without the final line break), `None`
    /// for a quiet stop. Every quoted piece of input in it is cut to
    /// [`ECHO_LIMIT`] characters.
    pub fn render(&self) -> Option<String> {
        match self.kind {
            Kind::Quiet => None,
            Kind::Usage => Some(format!(
                "error: {}\n\nFor more information, try '--help'.",
                cut_quoted(&self.message)
            )),
            Kind::Error | Kind::Crash => {
                let mut text = format!("error: {}", cut_quoted(&self.to_string()));
                for m in &self.more {
                    text.push_str("\nerror: ");
                    text.push_str(&cut_quoted(&m.to_string()));
                }
                Some(text)
            }
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
            write!(f, "line {line}")?;
            if let Some(column) = self.column {
                write!(f, ", column {column}")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

/// `?` on any error gives its `Display` chain without a location.
impl<E: Error + Send + Sync + 'static> From<E> for Failure {
    fn from(e: E) -> Self {
        let mut failure = Self::from_error(&e);
        failure.error = Some(Box::new(e));
        failure
    }
}

/// The `Display` text of `e`, then of each of its sources, joined by `: `
/// (a source whose text the message already holds is not repeated).
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

/// Whether a closed pipe is anywhere in the chain of `e`.
pub fn is_broken_pipe(e: &(dyn Error + 'static)) -> bool {
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
        if let Some(j) = e.downcast_ref::<serde_json::Error>()
            && j.io_error_kind() == Some(io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// Drops the location words a library message starts with when they say
/// `line` (and `column`): `line 3: `, `line 3, column 7: `,
/// `dataset line 3: `, `vectors line 3: `, `benchmark line 3: `.
pub fn strip_location(message: &str, line: usize, column: Option<usize>) -> &str {
    for lead in ["", "dataset ", "vectors ", "benchmark "] {
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

/// A piece of input for an error message: quoted as Rust's `{:?}` does, and
/// cut to [`ECHO_LIMIT`] characters with its full length named when longer
/// (a 10 MB field is not copied into an error line).
pub fn echo(text: &str) -> String {
    let n = text.chars().count();
    if n <= ECHO_LIMIT {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(ECHO_LIMIT).collect();
    // The ellipsis goes after the closing quote: the quoted piece is then
    // within the limit, so `cut_quoted` leaves an echoed piece as it is.
    format!("{head:?}… ({n} characters, cut to {ECHO_LIMIT})")
}

/// Pieces of input listed in an error message (a header's columns), joined
/// with `", "`, each quoted as [`echo`] does when `quoted` (else as it is,
/// cut the same way): whole pieces while the list stays within
/// [`ECHO_LIMIT`] characters, then `… (N in all)`. A short list reads as
/// `pieces.join(", ")`; a header of a million columns, or one of 10 MB, is
/// not copied into an error line.
pub fn echo_list<S: AsRef<str>>(pieces: &[S], quoted: bool) -> String {
    let mut out = String::new();
    let mut shown_chars = 0;
    for (i, piece) in pieces.iter().enumerate() {
        let piece = piece.as_ref();
        let shown = if quoted {
            echo(piece)
        } else if piece.chars().count() <= ECHO_LIMIT {
            piece.to_owned()
        } else {
            let head: String = piece.chars().take(ECHO_LIMIT).collect();
            format!(
                "{head}… ({} characters, cut to {ECHO_LIMIT})",
                piece.chars().count()
            )
        };
        let chars = shown.chars().count();
        if i > 0 && shown_chars + 2 + chars > ECHO_LIMIT {
            out.push_str(&format!(", … ({} in all)", pieces.len()));
            break;
        }
        if i > 0 {
            out.push_str(", ");
            shown_chars += 2;
        }
        out.push_str(&shown);
        shown_chars += chars;
    }
    out
}

/// Cuts every double-quoted piece of `message` longer than [`ECHO_LIMIT`]
/// characters (as [`echo`] would), a guard for messages that quote input
/// whole (the library's own errors among them). Idempotent: a piece already
/// cut (by [`echo`] or by this function) is within the limit and stays.
pub fn cut_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut chars = message.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        // Inside a quoted piece: up to the closing quote (escapes skipped).
        let mut inner = String::new();
        let mut count = 0usize;
        let mut closed = false;
        while let Some((_, c)) = chars.next() {
            if c == '"' {
                closed = true;
                break;
            }
            count += 1;
            if count <= ECHO_LIMIT {
                inner.push(c);
            }
            if c == '\\'
                && let Some((_, next)) = chars.next()
                && count <= ECHO_LIMIT
            {
                inner.push(next);
            }
        }
        out.push_str(&inner);
        if count > ECHO_LIMIT {
            out.push_str(&format!("\"… ({count} characters, cut to {ECHO_LIMIT})"));
        } else if closed {
            out.push('"');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_cuts_long_input_and_names_its_length() {
        assert_eq!(echo("abc"), "\"abc\"");
        let long = "x".repeat(10_000_100);
        let e = echo(&long);
        assert!(e.len() < 140, "{e}");
        assert!(e.ends_with("\"… (10000100 characters, cut to 80)"), "{e}");
        // A message that quotes an echoed piece is not cut a second time.
        assert_eq!(
            cut_quoted(&format!("field {e} is bad")),
            format!("field {e} is bad")
        );
        assert!(e.starts_with(&format!("\"{}", "x".repeat(80))));
    }

    #[test]
    fn echo_list_keeps_short_lists_and_cuts_long_ones() {
        assert_eq!(echo_list(&["a", "b"], false), "a, b");
        assert_eq!(echo_list(&["a", "b"], true), "\"a\", \"b\"");
        assert_eq!(echo_list::<&str>(&[], true), "");
        // Issue 39: a 10 MB header of two columns.
        let two = ["h".repeat(5_000_000), "k".repeat(5_000_000)];
        let e = echo_list(&two, false);
        assert_eq!(
            e,
            format!(
                "{}… (5000000 characters, cut to 80), … (2 in all)",
                "h".repeat(80)
            )
        );
        let e = echo_list(&two, true);
        assert!(
            e.starts_with(&format!("\"{}\"… (5000000", "h".repeat(80))),
            "{e}"
        );
        assert!(e.ends_with(", … (2 in all)"), "{e}");
        // A million short columns: as many whole as fit in the limit.
        let many: Vec<String> = (0..1_000_000).map(|i| format!("c{i}")).collect();
        let e = echo_list(&many, false);
        assert!(e.starts_with("c0, c1, c2, "), "{e}");
        assert!(e.ends_with(", … (1000000 in all)"), "{e}");
        assert!(e.chars().count() <= ECHO_LIMIT + 24, "{e}");
        let shown = e.split(", ").filter(|p| p.starts_with('c')).count();
        assert_eq!(
            e,
            format!("{}, … (1000000 in all)", many[..shown].join(", "))
        );
    }

    #[test]
    fn quoted_pieces_of_a_message_are_cut() {
        let m = format!("bad field {:?} at the end", "y".repeat(200));
        let c = cut_quoted(&m);
        assert_eq!(
            c,
            format!(
                "bad field \"{}\"… (200 characters, cut to 80) at the end",
                "y".repeat(80)
            )
        );
        assert_eq!(cut_quoted("a \"b\\\"c\" d"), "a \"b\\\"c\" d");
        assert_eq!(cut_quoted(&c), c, "cut twice");
        assert_eq!(cut_quoted("no quotes"), "no quotes");
        let open = format!("open \"{}", "z".repeat(100));
        assert!(cut_quoted(&open).ends_with("(100 characters, cut to 80)"));
    }

    #[test]
    fn failures_print_file_line_and_column() {
        let f = Failure::new("expected 'lemma.pos ID ::'")
            .file("gold.txt")
            .at(Some(3), Some(7));
        assert_eq!(
            f.render().unwrap(),
            "error: gold.txt:3:7: expected 'lemma.pos ID ::'"
        );
        let f = Failure::new("line 3, column 7: count overflows")
            .file("g")
            .at(Some(3), Some(7));
        assert_eq!(f.to_string(), "g:3:7: count overflows");
        assert_eq!(
            Failure::new("bad").at(Some(2), None).to_string(),
            "line 2: bad"
        );
        assert_eq!(Failure::usage("x").status(), 2);
        assert_eq!(Failure::quiet().render(), None);
    }
}
