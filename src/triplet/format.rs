//! Reader and writer of the published dataset format (Avraham & Goldberg
//! 2016, footnote 1: the datasets and evaluation script published with the
//! paper, repository `oavraham1/ag-evaluation` on GitHub).
//!
//! ```text
//! singer                      ← a block starts with its target word
//! person,0.1,musician,0.9     ← w1,p1,w2,p2 with p1 = R_>(w1, w2), p2 = 1 − p1
//! artist,0.8,person,0.2          (lines before any header are positives)
//! distractors                 ← a line without a comma switches the type
//! musician,1,song,0
//! randoms
//! musician,1,laptop,0
//!                             ← blank lines separate blocks
//! dancer
//! …
//! ```
//!
//! Files are UTF-8; the reader accepts LF and CRLF line ends, a leading byte
//! order mark, blank lines made of whitespace, spaces around fields, and
//! section headers in any ASCII case. Everything else that does not fit is a
//! [`TripletError::Format`] error with its 1-based line number.
//!
//! [`ReadMode::Lenient`] also reads a target without the blank line before it.

use std::io::{BufRead, Write};

use super::error::{FormatProblem, TripletError, WordProblem};
use super::model::{Comparison, ComparisonKind};
use crate::lines::NumberedLines;

/// Largest distance of `p1 + p2` from 1 that the reader accepts (the
/// published files use two decimals, whose sums are exact in decimal).
const SUM_TOLERANCE: f64 = 1e-9;

/// Reads a dataset in the published format, streaming line by line.
///
/// Each comparison line `w1,p1,w2,p2` becomes a [`Comparison`] with
/// `reliability = p1`, the block's target and the current section's kind.
///
/// ```text
/// p1, p2 ∈ [0, 1],  |p1 + p2 − 1| ≤ 1e−9,  w1 ≠ w2, both non-empty
/// ```
///
/// # Errors
/// [`TripletError::Format`] with the line number for: invalid UTF-8, a block
/// that starts with a comparison line, a target with no comparison, a line
/// without four fields, an empty word, a probability that is not a number in
/// `[0, 1]`, `p1 + p2 ≠ 1`, `w1 = w2`, an unknown section name;
/// [`TripletError::Io`] if the reader fails.
///
/// # Complexity
/// O(file size) time; memory for the comparisons and one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{read_dataset, ComparisonKind};
/// let file = "singer\r\nperson,0.1,musician,0.9\r\ndistractors\r\nmusician,1.0,song,0.0\r\n";
/// let c = read_dataset(file.as_bytes())?;
/// assert_eq!(c.len(), 2);
/// assert_eq!((c[0].w1.as_str(), c[0].reliability), ("person", 0.1));
/// assert_eq!(c[1].kind, ComparisonKind::Distractor);
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn read_dataset<R: BufRead>(reader: R) -> Result<Vec<Comparison>, TripletError> {
    read_dataset_with(reader, ReadMode::Strict).map(|d| d.comparisons)
}

/// How [`read_dataset_with`] treats a line without a comma that is not a
/// section name, inside a block.
///
/// # A target without the blank line before it
///
/// One published file, `datasets/inflected/vb_inf.txt`, starts its second
/// target on line 10 right after the first block's last comparison, without
/// the blank separator line. The crate's two modes and the published
/// evaluator (`evaluator.py`, Python 2) read such a layout differently:
///
/// ```text
/// singer
/// distractors
/// artist,1.00,dancer,0.00
/// randoms
/// artist,1.00,laptop,0.00
/// cab                         ← line 6: a new target, no blank line before it
/// distractors
/// taxi,1.00,driver,0.00
/// ```
///
/// | reader | line 6 | `taxi,1.00,driver,0.00` |
/// |---|---|---|
/// | [`read_dataset`], or [`read_dataset_with`] in [`ReadMode::Strict`] (default) | [`FormatProblem::UnknownSection`] at line 6: the whole file is refused | — |
/// | [`read_dataset_with`] in [`ReadMode::Lenient`] | starts the block of target `cab`; a [`FormatWarning`] names line 6 | target `cab`, distractor |
/// | `evaluator.py` | taken as a section name (`compare_type = "cab"`), no warning | target `singer` (the previous one), distractor: scored as sim(singer, taxi) vs sim(singer, driver) |
///
/// So on such a file the lenient reader scores what the file means, and its
/// numbers can differ from the published evaluator's, which silently scores
/// the block against the previous target. (On a synthetic file with this
/// layout and the crate's test vectors, the evaluator scores 0.508 where the
/// lenient reading scores 0.836: the misplaced block's four comparisons all
/// flip. To reproduce the evaluator, read leniently and give that block's
/// comparisons the previous target.) Lenient mode changes nothing else.
/// Since a line without a comma that is not `positives`, `distractors` or
/// `randoms` (in any ASCII case) starts a new target wherever it appears, a
/// misspelt header (`distractor`) becomes a target too, named by its
/// warning; if it leaves the block it ends without comparisons, that block
/// is [`FormatProblem::EmptyGroup`] as in strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ReadMode {
    /// Blocks are separated by blank lines; such a line is
    /// [`FormatProblem::UnknownSection`] (default, as [`read_dataset`]).
    #[default]
    Strict,
    /// Such a line starts the block of a new target, as if a blank line
    /// preceded it, and is reported in [`ParsedDataset::warnings`]. Every
    /// other rule stays strict. See above for how this differs from the
    /// published evaluator.
    Lenient,
}

/// Something the lenient reader accepted but the published format does not
/// allow; each names its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FormatWarning {
    /// A target line follows a block without the blank separator line.
    TargetWithoutBlankLine {
        /// 1-based line of the target.
        line: usize,
        /// The target word read there.
        target: String,
    },
}

impl core::fmt::Display for FormatWarning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FormatWarning::TargetWithoutBlankLine { line, target } => write!(
                f,
                "dataset line {line}: target {target:?} starts a new block without a blank line before it"
            ),
        }
    }
}

/// The comparisons of a dataset file and the warnings of the lenient reader.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParsedDataset {
    /// The comparisons in file order.
    pub comparisons: Vec<Comparison>,
    /// What [`ReadMode::Lenient`] tolerated, in file order (always empty in
    /// [`ReadMode::Strict`]).
    pub warnings: Vec<FormatWarning>,
}

/// Reads a dataset in the published format in the given [`ReadMode`],
/// streaming line by line; the warnings are returned, never printed.
///
/// ```text
/// strict:  target ⏎ [section ⏎] w1,p1,w2,p2 ⏎ … ⏎ (blank) ⏎ target …
/// lenient: the blank line before a target may be missing
/// ```
///
/// # Errors
/// As [`read_dataset`]; in [`ReadMode::Lenient`] a line without a comma
/// that is not a section name is a new target instead of
/// [`FormatProblem::UnknownSection`] (the block it ends must still have a
/// comparison, else [`FormatProblem::EmptyGroup`]).
///
/// # Complexity
/// O(file size) time; memory for the comparisons, the warnings and one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{read_dataset_with, FormatWarning, ReadMode};
/// let file = "singer\nperson,0.1,musician,0.9\ncab\ntaxi,0.75,car,0.25\n";
/// assert!(read_dataset_with(file.as_bytes(), ReadMode::Strict).is_err());
/// let d = read_dataset_with(file.as_bytes(), ReadMode::Lenient)?;
/// assert_eq!(d.comparisons[1].target, "cab");
/// assert_eq!(d.warnings, [FormatWarning::TargetWithoutBlankLine { line: 3, target: "cab".into() }]);
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn read_dataset_with<R: BufRead>(
    reader: R,
    mode: ReadMode,
) -> Result<ParsedDataset, TripletError> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let mut block: Option<Block> = None;
    let mut lines = NumberedLines::new(reader);
    while let Some((line_no, bytes)) = lines
        .next_line()
        .map_err(|f| TripletError::io(f.line, &f.error))?
    {
        let err = |problem| TripletError::Format {
            line: line_no,
            problem,
        };
        let text = core::str::from_utf8(bytes).map_err(|_| err(FormatProblem::InvalidUtf8))?;
        let text = text.trim();
        if text.is_empty() {
            if let Some(b) = block.take() {
                b.finish()?;
            }
            continue;
        }
        match &mut block {
            None => {
                if text.contains(',') {
                    return Err(err(FormatProblem::MissingTarget));
                }
                block = Some(Block {
                    target: text.to_owned(),
                    line: line_no,
                    kind: ComparisonKind::Positive,
                    count: 0,
                });
            }
            Some(b) if text.contains(',') => {
                let (w1, p1, w2) = parse_line(text).map_err(err)?;
                out.push(Comparison {
                    target: b.target.clone(),
                    w1: w1.to_owned(),
                    w2: w2.to_owned(),
                    reliability: p1,
                    kind: b.kind,
                });
                b.count += 1;
            }
            Some(b) => {
                let section = ComparisonKind::ALL
                    .into_iter()
                    .find(|k| k.section().eq_ignore_ascii_case(text));
                match (section, mode) {
                    (Some(kind), _) => b.kind = kind,
                    (None, ReadMode::Strict) => return Err(err(FormatProblem::UnknownSection)),
                    (None, ReadMode::Lenient) => {
                        let next = Block {
                            target: text.to_owned(),
                            line: line_no,
                            kind: ComparisonKind::Positive,
                            count: 0,
                        };
                        if let Some(done) = block.replace(next) {
                            done.finish()?;
                        }
                        warnings.push(FormatWarning::TargetWithoutBlankLine {
                            line: line_no,
                            target: text.to_owned(),
                        });
                    }
                }
            }
        }
    }
    if let Some(b) = block {
        b.finish()?;
    }
    Ok(ParsedDataset {
        comparisons: out,
        warnings,
    })
}

/// The block being read.
#[derive(Debug)]
struct Block {
    target: String,
    line: usize,
    kind: ComparisonKind,
    count: usize,
}

impl Block {
    fn finish(self) -> Result<(), TripletError> {
        if self.count == 0 {
            return Err(TripletError::Format {
                line: self.line,
                problem: FormatProblem::EmptyGroup,
            });
        }
        Ok(())
    }
}

/// Parses `w1,p1,w2,p2` into `(w1, p1, w2)`.
fn parse_line(text: &str) -> Result<(&str, f64, &str), FormatProblem> {
    let mut fields = [""; 4];
    let mut found = 0;
    for f in text.split(',') {
        if let Some(slot) = fields.get_mut(found) {
            *slot = f.trim();
        }
        found += 1;
    }
    if found != 4 {
        return Err(FormatProblem::FieldCount { found });
    }
    let [w1, p1, w2, p2] = fields;
    for (field, w) in [(1, w1), (3, w2)] {
        if w.is_empty() {
            return Err(FormatProblem::EmptyWord { field });
        }
    }
    let prob = |field: usize, s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|p| (0.0..=1.0).contains(p))
            .ok_or(FormatProblem::InvalidProbability { field })
    };
    let p1 = prob(2, p1)?;
    let p2 = prob(4, p2)?;
    if (p1 + p2 - 1.0).abs() > SUM_TOLERANCE {
        return Err(FormatProblem::ProbabilitySum);
    }
    if w1 == w2 {
        return Err(FormatProblem::SameWords);
    }
    Ok((w1, p1, w2))
}

/// How the writer prints probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Decimals {
    /// The shortest text that reads back to the same `f64` (so reading the
    /// written file gives the same reliabilities); `p2` is printed as the
    /// `f64` value `1 − p1`.
    #[default]
    Shortest,
    /// Rounded to this many decimals (the published files use 2), at most 15.
    /// `p1` is rounded half away from zero and `p2` is the exact decimal
    /// complement, so `p1 + p2 = 1` in the file.
    Fixed(u8),
}

/// Writes comparisons in the published format.
///
/// Comparisons are grouped into one block per target word (in order of first
/// appearance), and within a block into the `positives` (implicit, first),
/// `distractors` and `randoms` sections, keeping their relative order. A
/// dataset whose comparisons are already in that order reads back unchanged
/// (with [`Decimals::Shortest`]). Lines end with LF.
///
/// # Errors
/// [`TripletError::InvalidReliability`] if a reliability is NaN or outside
/// `[0, 1]`; [`TripletError::Unwritable`] if a word is empty, contains a comma
/// or a line break, or has surrounding whitespace, or `w1 = w2`;
/// [`TripletError::InvalidParameter`] for more than 15 decimals;
/// [`TripletError::Io`] if writing fails. Everything is validated before the
/// first byte is written.
///
/// # Complexity
/// O(n log n) for grouping n comparisons.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{write_dataset, Comparison, ComparisonKind::*, Decimals};
/// let c: Vec<Comparison> = vec![
///     Comparison::new("singer", "person", "musician", 0.1, Positive),
///     Comparison::new("singer", "musician", "song", 1.0, Distractor),
/// ];
/// let mut out = Vec::new();
/// write_dataset(&mut out, &c, Decimals::Fixed(2))?;
/// assert_eq!(String::from_utf8(out).unwrap(),
///            "singer\nperson,0.10,musician,0.90\ndistractors\nmusician,1.00,song,0.00\n");
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn write_dataset<W: Write, S: AsRef<str>>(
    mut writer: W,
    comparisons: &[Comparison<S>],
    decimals: Decimals,
) -> Result<(), TripletError> {
    if let Decimals::Fixed(d) = decimals
        && d > 15
    {
        return Err(TripletError::InvalidParameter {
            name: "decimals",
            expected: "at most 15 decimals",
        });
    }
    for (index, c) in comparisons.iter().enumerate() {
        if !(0.0..=1.0).contains(&c.reliability) {
            return Err(TripletError::InvalidReliability {
                index,
                value: c.reliability,
            });
        }
        let unwritable = |problem| TripletError::Unwritable { index, problem };
        for w in [&c.target, &c.w1, &c.w2] {
            check_word(w.as_ref()).map_err(unwritable)?;
        }
        if c.w1.as_ref() == c.w2.as_ref() {
            return Err(unwritable(WordProblem::SameWords));
        }
    }
    // Order: target by first appearance, then kind, then input order.
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut order: Vec<(usize, ComparisonKind, usize)> = comparisons
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let n = first.len();
            (*first.entry(c.target.as_ref()).or_insert(n), c.kind, i)
        })
        .collect();
    order.sort_unstable();
    let io = |e: std::io::Error| TripletError::io(0, &e);
    let mut current: Option<(usize, ComparisonKind)> = None;
    let mut text = String::new();
    for &(group, kind, i) in &order {
        let Some(c) = comparisons.get(i) else {
            continue;
        };
        match current {
            Some((g, k)) if g == group => {
                if k != kind {
                    text.push_str(kind.section());
                    text.push('\n');
                }
            }
            previous => {
                if previous.is_some() {
                    text.push('\n');
                }
                text.push_str(c.target.as_ref());
                text.push('\n');
                if kind != ComparisonKind::Positive {
                    text.push_str(kind.section());
                    text.push('\n');
                }
            }
        }
        current = Some((group, kind));
        let (p1, p2) = probabilities(c.reliability, decimals);
        text.push_str(c.w1.as_ref());
        text.push(',');
        text.push_str(&p1);
        text.push(',');
        text.push_str(c.w2.as_ref());
        text.push(',');
        text.push_str(&p2);
        text.push('\n');
        if text.len() >= 1 << 16 {
            writer.write_all(text.as_bytes()).map_err(io)?;
            text.clear();
        }
    }
    writer.write_all(text.as_bytes()).map_err(io)?;
    writer.flush().map_err(io)
}

/// Checks that a word survives a write–read round trip.
fn check_word(w: &str) -> Result<(), WordProblem> {
    if w.is_empty() {
        Err(WordProblem::Empty)
    } else if w.contains(',') {
        Err(WordProblem::Comma)
    } else if w.contains(['\n', '\r']) {
        Err(WordProblem::LineBreak)
    } else if w.trim() != w {
        Err(WordProblem::Padded)
    } else {
        Ok(())
    }
}

/// `(p1, p2)` as text.
fn probabilities(r: f64, decimals: Decimals) -> (String, String) {
    match decimals {
        Decimals::Shortest => (format!("{r}"), format!("{}", 1.0 - r)),
        Decimals::Fixed(d) => {
            let d = u32::from(d);
            let scale = 10u64.pow(d);
            // r ∈ [0, 1] and scale ≤ 10¹⁵ < 2⁵³, so the product is exact enough
            // and the cast cannot overflow.
            let h = ((r * scale as f64).round() as u64).min(scale);
            (fixed(h, scale, d), fixed(scale - h, scale, d))
        }
    }
}

/// `units / scale` printed with `d` decimals.
fn fixed(units: u64, scale: u64, d: u32) -> String {
    if d == 0 {
        format!("{units}")
    } else {
        format!(
            "{}.{:0width$}",
            units / scale,
            units % scale,
            width = d as usize
        )
    }
}
