//! The format of a word-pair file chosen from its content (and its name
//! when the content fits more than one format).

use std::fmt;
use std::io::{BufRead, Read};

use super::error::{DetectProblem, WordsimError};
use super::pairs::{Benchmark, Header, Layout, PairFormat, Separator, has_pos_tag, split_fields};

/// How many bytes of a file [`Benchmark::read_detected`] reads to detect
/// its format (64 KiB: a few hundred to a few thousand pairs).
pub const DETECTION_SAMPLE: usize = 1 << 16;

/// How the format of a benchmark file was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Chosen {
    /// The caller gave it ([`Detection::explicit`]).
    Explicit,
    /// The file's content decided ([`PairFormat::detect`]).
    Content,
    /// The content fits more than one format and the file name picked one
    /// ([`PairFormat::detect`]).
    FileName,
}

impl fmt::Display for Chosen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Explicit => "given explicitly",
            Self::Content => "detected from the content",
            Self::FileName => "chosen by the file name (the content fits more than one layout)",
        })
    }
}

/// The format a benchmark file is read with, the published layout it
/// matches (if any) and how it was chosen: what [`PairFormat::detect`]
/// finds, or what the caller gave ([`Detection::explicit`]).
///
/// It prints as `simlex999 layout, detected from the content: words in
/// columns 1 and 2, score in column 4, separator tab, a header line, '#'
/// lines are comments`.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::wordsim::{Chosen, Layout, PairFormat};
/// let d = PairFormat::detect(b"kettle-n teapot-n 42.000000\nrun-v walk-v 35.000000\n", None)?;
/// assert_eq!((d.layout, d.chosen), (Some(Layout::Men), Chosen::Content));
/// let b = d.read("MEN", &b"kettle-n teapot-n 42.000000\n"[..])?;
/// assert_eq!(b.pairs()[0].word1, "kettle");
/// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Detection {
    /// The format the file is read with.
    pub format: PairFormat,
    /// The published dataset layout the file matches: named by the content
    /// (a SimLex-999 or WordSim-353 header, MEN's tags, the column counts
    /// of Rare Words and SimVerb-3500), else by the file name when that
    /// layout reads the file the same way; `None` for a plain file.
    pub layout: Option<Layout>,
    /// How the format was chosen.
    pub chosen: Chosen,
}

impl fmt::Display for Detection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.layout.map_or("plain", Layout::name);
        write!(f, "{name} layout, {}: {}", self.chosen, self.format)
    }
}

impl Detection {
    /// A format the caller chose, with the layout it stands for (`None`: a
    /// plain file): errors of [`read`](Self::read) then say it was given
    /// explicitly.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Detection, Layout, PairFormat};
    /// let d = Detection::explicit(PairFormat::layout(Layout::Men), Some(Layout::Men));
    /// let e = d.read("MEN", &b"kettle teapot\n"[..]).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "benchmark line 1: expected at least 3 fields, found 2 (read as men layout, given \
    ///      explicitly: words in columns 1 and 2, score in column 3, separator detected, header \
    ///      detected, '#' lines are comments, part-of-speech suffixes stripped; to read it another \
    ///      way pass another PairFormat to Benchmark::read, or let Benchmark::read_detected detect it)"
    /// );
    /// ```
    #[must_use]
    pub fn explicit(format: PairFormat, layout: Option<Layout>) -> Self {
        Self {
            format,
            layout,
            chosen: Chosen::Explicit,
        }
    }

    /// Reads a benchmark with [`format`](Self::format) ([`Benchmark::read`]).
    ///
    /// # Errors
    /// As [`Benchmark::read`]; a malformed line or a file without pairs
    /// comes as [`WordsimError::Format`], which names this detection (the
    /// format tried, how it was chosen) and how to choose another.
    ///
    /// # Complexity
    /// O(file size).
    pub fn read<R: BufRead>(
        &self,
        name: impl Into<String>,
        reader: R,
    ) -> Result<Benchmark, WordsimError> {
        Benchmark::read(name, reader, &self.format).map_err(|e| self.context(e))
    }

    /// `e` with this detection named, if the format may be the cause.
    pub(super) fn context(&self, e: WordsimError) -> WordsimError {
        match e {
            WordsimError::Line { .. } | WordsimError::Empty => WordsimError::Format {
                detection: *self,
                error: Box::new(e),
            },
            other => other,
        }
    }
}

impl Benchmark {
    /// Reads a benchmark whose format is detected from its first
    /// [`DETECTION_SAMPLE`] bytes and its file name ([`PairFormat::detect`]);
    /// returns the benchmark and the detection.
    ///
    /// To choose the format yourself, pass it to [`Benchmark::read`]
    /// (e.g. `PairFormat::layout(Layout::SimLex999)`), or to
    /// [`Detection::explicit`] for errors that say it was given.
    ///
    /// # Errors
    /// [`WordsimError::Undetected`] when the sample fits no format,
    /// [`WordsimError::Empty`] when it has no line that is not blank or a
    /// comment, [`WordsimError::Io`] if the reader fails; then as
    /// [`Detection::read`] (a malformed line past the sample comes as
    /// [`WordsimError::Format`], naming the detected format).
    ///
    /// # Complexity
    /// O(file size).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, Chosen, Layout};
    /// // SimLex-999.txt as distributed: header, ten tab-separated columns, the score in the 4th.
    /// let simlex = "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n\
    ///               kettle\tteapot\tN\t8.5\t4.9\t4.8\t4\t1.2\t1\t0.9\n";
    /// let (b, d) = Benchmark::read_detected("SimLex-999", simlex.as_bytes(), Some("SimLex-999.txt"))?;
    /// assert_eq!((b.pairs()[0].score, d.layout, d.chosen), (8.5, Some(Layout::SimLex999), Chosen::Content));
    /// // gensim's copy: '#' comments and three columns.
    /// let gensim = "# The SimLex-999 Test data\n# Word 1\tWord 2\tHuman (mean)\nkettle\tteapot\t8.5\n";
    /// let (b, _) = Benchmark::read_detected("simlex999", gensim.as_bytes(), Some("simlex999.txt"))?;
    /// assert_eq!((b.pairs()[0].score, b.pairs()[0].line), (8.5, 3));
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    pub fn read_detected<R: BufRead>(
        name: impl Into<String>,
        mut reader: R,
        file_name: Option<&str>,
    ) -> Result<(Self, Detection), WordsimError> {
        let mut head = Vec::with_capacity(DETECTION_SAMPLE.min(1 << 14));
        reader
            .by_ref()
            .take(DETECTION_SAMPLE as u64)
            .read_to_end(&mut head)
            .map_err(|e| {
                let line = 1 + memchr::memchr_iter(b'\n', &head).count();
                WordsimError::io(line, &e)
            })?;
        let detection = PairFormat::detect(&head, file_name)?;
        let benchmark = detection.read(name, head.as_slice().chain(reader))?;
        Ok((benchmark, detection))
    }
}

impl PairFormat {
    /// Chooses the format of a word-pair file from a sample of its content
    /// (its first bytes, e.g. [`DETECTION_SAMPLE`] of them), and from its
    /// file name only when the content fits more than one format.
    ///
    /// ```text
    /// lines       blank lines and '#' comments skipped; a last line without a line end is left out
    ///             (the sample may cut it) unless it is the only one
    /// separator   the first of tab, comma, semicolon, runs of whitespace that splits every line
    ///             after the first into ≥ 3 fields
    /// score       a column from the 3rd on holding a finite number on every line after the first:
    ///             the one a header line names (SimLex999, Human (mean), score, similarity, …),
    ///             else the only one, else the file name's layout's column if it is one, else the first
    /// header      the first line, if its score field is not a number
    /// words       columns 1 and 2; MEN's part-of-speech tags (-n, -v, -j) removed when
    ///             the file is space-separated and every word has one (some: when the name says MEN)
    /// ```
    ///
    /// This reads every layout of [`Layout`] in each copy it is
    /// distributed in (original, and gensim's three-column copies with `#`
    /// comments), naming the layout when the content shows it (see
    /// [`Detection::layout`]). The name is matched by [`Layout::from_file_name`].
    ///
    /// # Errors
    /// [`WordsimError::Empty`] if the sample has no line that is not blank
    /// or a comment; [`WordsimError::Undetected`] with a line if a line has
    /// fewer than 3 fields with every separator, or no column from the 3rd
    /// on holds a number on every line. Then choose a format yourself
    /// ([`PairFormat::layout`], [`PairFormat::columns`] with
    /// [`Benchmark::read`]).
    ///
    /// # Complexity
    /// O(sample size).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Chosen, Header, Layout, PairFormat, Separator};
    /// let ws = b"Word 1,Word 2,Human (mean)\nkettle,teapot,8.5\nlantern,torch,7.0\n";
    /// let d = PairFormat::detect(ws, Some("combined.csv"))?;
    /// assert_eq!(d.format, PairFormat::new().separator(Separator::Comma).header(Header::Present));
    /// assert_eq!((d.layout, d.chosen), (Some(Layout::WordSim353), Chosen::Content));
    /// // Two numeric columns and no header: the name breaks the tie.
    /// let d = PairFormat::detect(b"take\tgrab\t2\t6.81\n", Some("SimVerb-3500.txt"))?;
    /// assert_eq!((d.format.score_column(), d.chosen), (4, Chosen::FileName));
    /// assert_eq!(PairFormat::detect(b"take\tgrab\t2\t6.81\n", None)?.format.score_column(), 3);
    /// assert!(PairFormat::detect(b"a\tb\tc\n", None).is_err());
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    ///
    /// # References
    /// The layouts of [`Layout`]; gensim's `evaluate_word_pairs`
    /// (`word1<TAB>word2<TAB>score`, `#` comments).
    pub fn detect(sample: &[u8], file_name: Option<&str>) -> Result<Detection, WordsimError> {
        detect(sample, file_name)
    }
}

/// Header fields that name the score column (compared lowercased).
const SCORE_NAMES: [&str; 8] = [
    "simlex999",
    "human (mean)",
    "score",
    "similarity",
    "relatedness",
    "sim",
    "mean",
    "rating",
];

/// The lines of a sample that are neither blank nor comments, with their
/// 1-based numbers, as the reader sees them (BOM, CR, '#'). Lines that are
/// not UTF-8 are left out (reading them reports them).
fn content_lines(sample: &[u8]) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = sample;
    let mut line = 0;
    let mut cut = false;
    while !rest.is_empty() {
        line += 1;
        let (bytes, next, ended) = match memchr::memchr(b'\n', rest) {
            Some(k) => (&rest[..k], &rest[k + 1..], true),
            None => (rest, &rest[rest.len()..], false),
        };
        rest = next;
        let bytes = if line == 1 {
            bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
        } else {
            bytes
        };
        let Ok(text) = core::str::from_utf8(bytes) else {
            continue;
        };
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        out.push((line, text));
        cut = !ended;
    }
    if cut && out.len() > 1 {
        out.pop();
    }
    out
}

fn is_number(field: Option<&&str>) -> bool {
    field.is_some_and(|f| f.parse::<f64>().is_ok_and(f64::is_finite))
}

fn detect(sample: &[u8], file_name: Option<&str>) -> Result<Detection, WordsimError> {
    let lines = content_lines(sample);
    if lines.is_empty() {
        return Err(WordsimError::Empty);
    }
    // The first line may be a header: the others decide.
    let data_from = usize::from(lines.len() > 1);
    let separator = choose_separator(&lines[data_from..])?;
    let rows: Vec<(usize, Vec<&str>)> = lines
        .iter()
        .map(|&(line, text)| {
            let mut fields = Vec::new();
            split_fields(text, separator, &mut fields);
            (line, fields)
        })
        .collect();
    let data = &rows[data_from..];
    let width = data.iter().map(|(_, f)| f.len()).min().unwrap_or(0);
    let numeric: Vec<usize> = (3..=width)
        .filter(|&c| data.iter().all(|(_, f)| is_number(f.get(c - 1))))
        .collect();
    let Some(&first) = numeric.first() else {
        let line = data
            .iter()
            .find(|(_, f)| !is_number(f.get(2)))
            .map_or(rows[0].0, |(line, _)| *line);
        return Err(WordsimError::Undetected {
            line,
            problem: DetectProblem::NoScoreColumn,
        });
    };
    let named = file_name.and_then(Layout::from_file_name);
    let mut chosen = Chosen::Content;
    let head = (data_from == 1).then(|| &rows[0].1);
    let header_names = head.and_then(|h| {
        numeric.iter().copied().find(|&c| {
            h.get(c - 1)
                .is_some_and(|n| SCORE_NAMES.contains(&n.to_lowercase().as_str()))
        })
    });
    let score = if let Some(c) = header_names {
        c
    } else if numeric.len() == 1 {
        first
    } else if let Some(c) = named
        .map(|l| PairFormat::layout(l).score_column)
        .filter(|c| *c != first && numeric.contains(c))
    {
        chosen = Chosen::FileName;
        c
    } else {
        first
    };
    let header = match head {
        Some(h) if h.len() >= score && !is_number(h.get(score - 1)) => Header::Present,
        Some(h) if h.len() < score => {
            return Err(WordsimError::Undetected {
                line: rows[0].0,
                problem: DetectProblem::TooFewFields {
                    separator,
                    needed: score,
                    found: h.len(),
                },
            });
        }
        _ => Header::Absent,
    };
    let pairs = if header == Header::Present {
        data
    } else {
        &rows[..]
    };
    let mut strip = false;
    if separator == Separator::Whitespace {
        let words = || pairs.iter().flat_map(|(_, f)| &f[..2]);
        let tagged = words().filter(|w| has_pos_tag(w)).count();
        if tagged == 2 * pairs.len() {
            strip = true;
        } else if tagged > 0 && named == Some(Layout::Men) {
            strip = true;
            chosen = Chosen::FileName;
        }
    }
    let format = PairFormat::new()
        .separator(separator)
        .header(header)
        .columns(1, 2, score)
        .strip_pos_suffixes(strip);
    let layout = content_layout(
        head.filter(|_| header == Header::Present),
        data,
        width,
        score,
        strip,
    )
    .or_else(|| named.filter(|&l| reads_alike(l, width, score, strip)));
    Ok(Detection {
        format,
        layout,
        chosen,
    })
}

/// The first of tab, comma, semicolon, whitespace that splits every line
/// into at least 3 fields.
fn choose_separator(lines: &[(usize, &str)]) -> Result<Separator, WordsimError> {
    // If none does, the separator with the longest run of good lines names
    // the line that fails.
    let mut best: Option<(usize, usize, usize)> = None;
    let mut fields = Vec::new();
    for sep in [
        Separator::Tab,
        Separator::Comma,
        Separator::Semicolon,
        Separator::Whitespace,
    ] {
        let failing = lines.iter().position(|&(_, text)| {
            fields.clear();
            split_fields(text, sep, &mut fields);
            fields.len() < 3
        });
        let Some(k) = failing else {
            return Ok(sep);
        };
        if best.is_none_or(|(run, ..)| k > run) {
            fields.clear();
            split_fields(lines[k].1, sep, &mut fields);
            best = Some((k, lines[k].0, fields.len()));
        }
    }
    let (_, line, found) = best.unwrap_or((0, 1, 0));
    Err(WordsimError::Undetected {
        line,
        problem: DetectProblem::TooFewFields {
            separator: Separator::Auto,
            needed: 3,
            found,
        },
    })
}

/// The layout the content itself shows, if any.
fn content_layout(
    header: Option<&Vec<&str>>,
    data: &[(usize, Vec<&str>)],
    width: usize,
    score: usize,
    strip: bool,
) -> Option<Layout> {
    let lower = |f: &str| f.to_lowercase();
    if strip {
        return Some(Layout::Men);
    }
    if let Some(h) = header {
        if h.iter().any(|f| lower(f) == "simlex999") && score == 4 {
            return Some(Layout::SimLex999);
        }
        if h.len() >= 3
            && lower(h[0]) == "word 1"
            && lower(h[1]) == "word 2"
            && lower(h[2]) == "human (mean)"
            && score == 3
        {
            return Some(Layout::WordSim353);
        }
        return None;
    }
    let all_numeric = |from: usize, to: usize| {
        data.iter()
            .all(|(_, f)| (from..=to).all(|c| is_number(f.get(c - 1))))
    };
    match (width, score) {
        (13, 3) if all_numeric(4, 13) => Some(Layout::RareWords),
        (5, 4) if data.iter().all(|(_, f)| !is_number(f.get(4))) => Some(Layout::SimVerb3500),
        (10, 4) => Some(Layout::SimLex999),
        _ => None,
    }
}

/// Whether `layout`'s own format reads a file of `width` columns with the
/// score in `score` the same way.
fn reads_alike(layout: Layout, width: usize, score: usize, strip: bool) -> bool {
    let own = PairFormat::layout(layout);
    own.effective_score_column(width) == score && (own.strip_pos == strip || layout == Layout::Men)
}
