//! Streaming readers for the SemEval-2007 gold and system formats.
//!
//! ```text
//! gold:  lemma.pos ID :: sub1 n1;sub2 n2;…
//! best:  lemma.pos ID :: a1;a2;…
//! oot:   lemma.pos ID ::: a1;a2;…;a10
//! ```
//!
//! The readers work line by line over any [`BufRead`], so files of any size
//! stream in constant memory through [`GoldLines`] and [`SystemLines`];
//! [`read_gold`] and [`read_system`] collect them. They accept LF and CRLF
//! line endings, a UTF-8 byte-order mark, blank lines (skipped), any
//! whitespace around fields and separators, a trailing `;` and empty
//! entries between `;` (skipped). Terms are kept as written: normalisation
//! happens at scoring time (see [`Profile`](super::Profile)).
//!
//! A malformed line is a [`LexsubError::Syntax`] naming the 1-based line and
//! what was expected there; a count that is a positive integer too large
//! for `u32` is a [`LexsubError::CountOverflow`] with its line and column. In [`Mode::Lenient`] such lines (and lines that
//! are not UTF-8) are skipped and returned in [`Parsed::skipped`]; I/O
//! errors always stop reading.

use std::io::BufRead;

use super::error::LexsubError;
use super::model::{GoldItem, SystemAnswer};

/// Which system format a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Format {
    /// `lemma.pos ID :: a1;a2;…` (best and mode-best measures).
    Best,
    /// `lemma.pos ID ::: a1;…;a10` (out-of-ten measures).
    Oot,
}

/// What to do with a malformed line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mode {
    /// Stop at the first malformed line and return its error (default).
    #[default]
    Strict,
    /// Skip malformed lines and report them in [`Parsed::skipped`].
    Lenient,
}

/// The records of a file and the lines skipped in lenient mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The records in file order.
    pub items: Vec<T>,
    /// The errors of the skipped lines, in file order (always empty in
    /// [`Mode::Strict`]).
    pub skipped: Vec<LexsubError>,
}

/// Lines split at `\n` only, without it, numbered from 1: what every
/// reader of the module starts from (score.pl's byte-exact readers too).
#[derive(Debug)]
pub(super) struct RawLines<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
    done: bool,
}

impl<R: BufRead> RawLines<R> {
    pub(super) fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::with_capacity(256),
            line: 0,
            done: false,
        }
    }

    /// The next line with its number, or the read error of that line (after
    /// which there is no more line).
    pub(super) fn next_line(&mut self) -> Option<Result<(usize, &[u8]), LexsubError>> {
        if self.done {
            return None;
        }
        self.buf.clear();
        self.line += 1;
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(_) => {
                if self.buf.last() == Some(&b'\n') {
                    self.buf.pop();
                }
                Some(Ok((self.line, &self.buf)))
            }
            Err(e) => {
                self.done = true;
                Some(Err(LexsubError::Io {
                    line: self.line,
                    kind: e.kind(),
                }))
            }
        }
    }
}

/// Line source shared by the readers: numbers lines, strips the line ending
/// and a byte-order mark, skips blank lines.
#[derive(Debug)]
struct Lines<R> {
    raw: RawLines<R>,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Self {
            raw: RawLines::new(reader),
        }
    }

    /// The length of the byte-order mark that opens line `line` of `bytes`
    /// (0 or 3).
    fn bom(line: usize, bytes: &[u8]) -> usize {
        if line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        }
    }

    /// The next non-blank line, trimmed, with its number and the number of
    /// characters trimmed before it (a byte-order mark not counted), or an
    /// error for that line.
    fn next_line(&mut self) -> Option<Result<(usize, &str, usize), LexsubError>> {
        // The trimmed line's byte range in `buf` (a borrow cannot leave the loop).
        let (line, start, end) = loop {
            let (line, bytes) = match self.raw.next_line()? {
                Ok(read) => read,
                Err(e) => return Some(Err(e)),
            };
            let bom = Self::bom(line, bytes);
            let Ok(text) = core::str::from_utf8(bytes.get(bom..).unwrap_or_default()) else {
                return Some(Err(LexsubError::InvalidUtf8 { line }));
            };
            let trimmed = text.trim_start();
            let lead = bom + (text.len() - trimmed.len());
            let trimmed = trimmed.trim_end();
            if !trimmed.is_empty() {
                break (line, lead, lead + trimmed.len());
            }
        };
        let buf = &self.raw.buf;
        let text = core::str::from_utf8(buf.get(start..end).unwrap_or_default()).ok()?;
        // `start` counts the BOM's 3 bytes, then one byte per ASCII
        // whitespace character; other Unicode spaces are counted as chars.
        let lead = core::str::from_utf8(buf.get(Self::bom(line, buf)..start).unwrap_or_default())
            .map_or(0, |t| t.chars().count());
        Some(Ok((line, text, lead)))
    }
}

/// The parts of a record line: target, id and the text after the separator.
fn split_record(
    text: &str,
    line: usize,
    format: Option<Format>,
) -> Result<(&str, &str, &str), LexsubError> {
    let syntax = |expected| LexsubError::Syntax { line, expected };
    let pos = text
        .find("::")
        .ok_or_else(|| syntax("'lemma.pos ID ::' before the substitutes"))?;
    let (head, after) = (&text[..pos], &text[pos + 2..]);
    let (triple, rest) = match after.strip_prefix(':') {
        Some(r) => (true, r),
        None => (false, after),
    };
    match (format, triple) {
        (Some(Format::Oot), false) => return Err(syntax("':::' after the item id (oot format)")),
        (None | Some(Format::Best), true) => {
            return Err(syntax("'::' after the item id, found ':::' (oot format)"));
        }
        _ => {}
    }
    let mut toks = head.split_whitespace();
    let (Some(target), Some(id), None) = (toks.next(), toks.next(), toks.next()) else {
        return Err(syntax("exactly two fields, 'lemma.pos ID', before '::'"));
    };
    match target.split_once('.') {
        Some((lemma, pos)) if !lemma.is_empty() && !pos.is_empty() => {}
        _ => return Err(syntax("a target of the form lemma.pos")),
    }
    Ok((target, id, rest))
}

/// Parses one gold line (already trimmed, non-blank); `lead` is the number
/// of characters before `text` in the line, for columns.
fn parse_gold(text: &str, line: usize, lead: usize) -> Result<GoldItem, LexsubError> {
    let syntax = |expected| LexsubError::Syntax { line, expected };
    let (target, id, rest) = split_record(text, line, None)?;
    let rest_at = text.len() - rest.len();
    let mut subs: Vec<(&str, u32)> = Vec::new();
    let mut at = rest_at;
    for raw in rest.split(';') {
        let raw_at = at;
        at += raw.len() + 1;
        let entry = raw.trim();
        if entry.is_empty() {
            continue;
        }
        let (term, count) = entry
            .rsplit_once(char::is_whitespace)
            .ok_or_else(|| syntax("'substitute count' entries separated by ';'"))?;
        let count: u32 = count.parse().map_err(|e: core::num::ParseIntError| {
            if *e.kind() == core::num::IntErrorKind::PosOverflow
                && count.bytes().all(|b| b.is_ascii_digit())
            {
                // The count ends the trimmed entry.
                let count_at =
                    raw_at + (raw.len() - raw.trim_start().len()) + entry.len() - count.len();
                LexsubError::CountOverflow {
                    line,
                    column: lead + text.get(..count_at).map_or(0, |t| t.chars().count()) + 1,
                    max: u64::from(u32::MAX),
                }
            } else {
                syntax("an annotator count (a positive integer) after each substitute")
            }
        })?;
        if count == 0 {
            return Err(syntax(
                "an annotator count (a positive integer) after each substitute",
            ));
        }
        subs.push((term.trim_end(), count));
    }
    if subs.is_empty() {
        return Err(syntax("at least one 'substitute count' entry after '::'"));
    }
    GoldItem::new(id, target, subs)
        .map_err(|_| syntax("non-empty substitutes with positive counts"))
}

/// Parses one system line (already trimmed, non-blank).
fn parse_system(text: &str, line: usize, format: Format) -> Result<SystemAnswer, LexsubError> {
    let (target, id, rest) = split_record(text, line, Some(format))?;
    let mut answers = Vec::with_capacity(rest.bytes().filter(|&b| b == b';').count() + 1);
    answers.extend(
        rest.split(';')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_owned),
    );
    Ok(SystemAnswer {
        id: id.to_owned(),
        target: target.to_owned(),
        answers,
    })
}

/// A streaming reader of a gold file: one item (or error) per non-blank line.
///
/// After an I/O error the iterator ends.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::GoldLines;
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let text = "bright.a 1 :: intelligent 3;clever 3;smart 1;\r\n";
/// for item in GoldLines::new(text.as_bytes()) {
///     let item = item?;
///     assert_eq!(item.freq("clever"), 3);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct GoldLines<R> {
    lines: Lines<R>,
}

impl<R: BufRead> GoldLines<R> {
    /// Reads gold items from `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            lines: Lines::new(reader),
        }
    }
}

impl<R: BufRead> Iterator for GoldLines<R> {
    type Item = Result<GoldItem, LexsubError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.lines.next_line()? {
            Ok((line, text, lead)) => parse_gold(text, line, lead),
            Err(e) => Err(e),
        })
    }
}

/// A streaming reader of a system file in the given [`Format`]: one answer
/// (or error) per non-blank line.
///
/// After an I/O error the iterator ends.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Format, SystemLines};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let text = "bright.a 1 ::: clever;smart;\n";
/// let answers: Vec<_> = SystemLines::new(text.as_bytes(), Format::Oot).collect::<Result<_, _>>()?;
/// assert_eq!(answers[0].answers, ["clever", "smart"]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct SystemLines<R> {
    lines: Lines<R>,
    format: Format,
}

impl<R: BufRead> SystemLines<R> {
    /// Reads system answers in `format` from `reader`.
    pub fn new(reader: R, format: Format) -> Self {
        Self {
            lines: Lines::new(reader),
            format,
        }
    }
}

impl<R: BufRead> Iterator for SystemLines<R> {
    type Item = Result<SystemAnswer, LexsubError>;

    fn next(&mut self) -> Option<Self::Item> {
        let format = self.format;
        Some(match self.lines.next_line()? {
            Ok((line, text, _)) => parse_system(text, line, format),
            Err(e) => Err(e),
        })
    }
}

fn collect<T>(
    records: impl Iterator<Item = Result<T, LexsubError>>,
    mode: Mode,
) -> Result<Parsed<T>, LexsubError> {
    let mut parsed = Parsed {
        items: Vec::new(),
        skipped: Vec::new(),
    };
    for r in records {
        match (r, mode) {
            (Ok(item), _) => parsed.items.push(item),
            (Err(e @ LexsubError::Io { .. }), _) | (Err(e), Mode::Strict) => return Err(e),
            (Err(e), Mode::Lenient) => parsed.skipped.push(e),
        }
    }
    Ok(parsed)
}

/// Reads a whole gold file.
///
/// # Errors
/// [`LexsubError::Syntax`], [`LexsubError::CountOverflow`] (a count above
/// `u32::MAX`, with its line and column) or [`LexsubError::InvalidUtf8`] for
/// the first bad line in [`Mode::Strict`]; [`LexsubError::Io`] in either
/// mode.
///
/// # Complexity
/// O(file size) time, O(gold size) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Mode, LexsubError, read_gold};
/// # fn main() -> Result<(), LexsubError> {
/// let text = "bright.a 1 :: clever 3;smart 1\nbroken line\n";
/// let gold = read_gold(text.as_bytes(), Mode::Lenient)?;
/// assert_eq!(gold.items.len(), 1);
/// assert_eq!(gold.skipped[0], LexsubError::Syntax {
///     line: 2, expected: "'lemma.pos ID ::' before the substitutes" });
/// assert!(read_gold(text.as_bytes(), Mode::Strict).is_err());
/// # Ok(()) }
/// ```
pub fn read_gold<R: BufRead>(reader: R, mode: Mode) -> Result<Parsed<GoldItem>, LexsubError> {
    collect(GoldLines::new(reader), mode)
}

/// Reads a whole system file in `format`.
///
/// # Errors
/// As [`read_gold`].
///
/// # Complexity
/// O(file size) time, O(output size) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Format, Mode, read_system};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// let sys = read_system("bright.a 1 :: clever\nbright.a 2 ::\n".as_bytes(), Format::Best, Mode::Strict)?;
/// assert_eq!(sys.items[1].answers.len(), 0); // kept; scoring counts it as not attempted
/// # Ok(()) }
/// ```
pub fn read_system<R: BufRead>(
    reader: R,
    format: Format,
    mode: Mode,
) -> Result<Parsed<SystemAnswer>, LexsubError> {
    collect(SystemLines::new(reader, format), mode)
}
