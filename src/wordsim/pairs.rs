//! Word-pair benchmark files: `word1 word2 score` lines in the layouts of
//! the published datasets.

use std::collections::BTreeSet;
use std::io::BufRead;

use super::error::{PairProblem, WordsimError};
use crate::lines::NumberedLines;

/// The field separator of a word-pair file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Separator {
    /// Chosen from the first line that is not blank or a comment: tab if it
    /// has one, else comma, else semicolon, else whitespace.
    #[default]
    Auto,
    /// A tab; fields are trimmed of surrounding whitespace.
    Tab,
    /// A comma; fields are trimmed, and one pair of surrounding double
    /// quotes is removed.
    Comma,
    /// A semicolon (some RG-65 copies); fields are trimmed.
    Semicolon,
    /// Any run of spaces and tabs.
    Whitespace,
}

/// Whether a word-pair file starts with a header line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Header {
    /// The first line that is not blank or a comment is a header if its
    /// score field is not a number (SimLex-999's `word1 word2 POS SimLex999 …`,
    /// WordSim-353's `Word 1,Word 2,Human (mean)`).
    #[default]
    Auto,
    /// The first such line is a header.
    Present,
    /// There is no header: every line is a pair.
    Absent,
}

/// The layouts of the usual word-similarity benchmarks, as distributed.
/// These files are not shipped with the crate (their licences vary).
///
/// | layout | separator | header | score column | notes |
/// |---|---|---|---|---|
/// | `WordSim353` | tab or comma | `combined.csv`/`.tab` and set1/set2: `Word 1,Word 2,Human (mean)`; the similarity/relatedness splits none; gensim's `wordsim353.tsv`: `#` comments | 3 | set1/set2 add one column per rater |
/// | `SimLex999` | tab | `word1 word2 POS SimLex999 conc(w1) …` | 4 | 10 columns; gensim's `simlex999.txt`: 3 columns, `#` comments |
/// | `Men` | space | none | 3 | 0–50 scale; the lemma form tags words `-n`, `-v`, `-j` (stripped) |
/// | `Rg65`, `Mc30` | tab (some copies `;`) | none | 3 | 0–4 scale |
/// | `MTurk` | comma (MTurk-287 and -771 `.csv`) or tab | none | 3 | 1–5 scale |
/// | `RareWords` | tab | none | 3 | then the 10 raters' scores |
/// | `SimVerb3500` | tab | none | 4 | `word1 word2 POS score [relation]` |
///
/// [`PairFormat::layout`] reads every copy of a dataset listed here: the
/// separator and the header are detected, extra columns ignored, and the
/// layouts whose score is not in column 3 (SimLex-999, SimVerb-3500) read
/// a file whose first line has three fields as `word1 word2 score` (the
/// trimmed copies gensim and others ship; see
/// [`PairFormat::three_column_copies`]). To read a file without naming its
/// layout, [`PairFormat::detect`] chooses one from the content.
///
/// With feature `serde` a layout is written as its [`name`](Layout::name)
/// and read with [`Layout::from_name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layout {
    /// WordSim-353 (Finkelstein et al. 2002) and its splits (Agirre et al. 2009).
    WordSim353,
    /// SimLex-999 (Hill, Reichart, Korhonen 2015).
    SimLex999,
    /// MEN (Bruni et al. 2012), natural or lemma form.
    Men,
    /// RG-65 (Rubenstein & Goodenough 1965).
    Rg65,
    /// MC-30 (Miller & Charles 1991).
    Mc30,
    /// MTurk-287 (Radinsky et al. 2011) and MTurk-771 (Halawi et al. 2012).
    MTurk,
    /// Stanford Rare Words (Luong, Socher, Manning 2013).
    RareWords,
    /// SimVerb-3500 (Gerz et al. 2016).
    SimVerb3500,
}

impl Layout {
    /// The layout's conventional name, e.g. `simlex999`; also accepted by
    /// [`Layout::from_name`].
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::WordSim353 => "wordsim353",
            Self::SimLex999 => "simlex999",
            Self::Men => "men",
            Self::Rg65 => "rg65",
            Self::Mc30 => "mc30",
            Self::MTurk => "mturk",
            Self::RareWords => "rw",
            Self::SimVerb3500 => "simverb3500",
        }
    }

    /// Every layout.
    pub const ALL: [Self; 8] = [
        Self::WordSim353,
        Self::SimLex999,
        Self::Men,
        Self::Rg65,
        Self::Mc30,
        Self::MTurk,
        Self::RareWords,
        Self::SimVerb3500,
    ];

    /// The layout with this [`name`](Self::name) (case-insensitive, `-` and
    /// `_` ignored: `SimLex-999` works).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::Layout;
    /// assert_eq!(Layout::from_name("SimLex-999"), Some(Layout::SimLex999));
    /// assert_eq!(Layout::from_name("nope"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Self::ALL.into_iter().find(|l| l.name() == key)
    }

    /// The layout a file name points to, if any: the name (without its
    /// folders) is cut into lowercase runs of letters and digits, and a run
    /// (or two adjacent runs) is matched:
    ///
    /// ```text
    /// simlex…            → SimLex999      simverb…        → SimVerb3500
    /// men                → Men            wordsim…, ws353, ws 353 → WordSim353
    /// rg65, rg 65        → Rg65           mc30, mc 30     → Mc30
    /// mturk…             → MTurk          rw, rarewords   → RareWords
    /// ```
    ///
    /// [`PairFormat::detect`] uses it only when the content fits more than
    /// one format, and to name the layout of a plain file.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::Layout;
    /// assert_eq!(Layout::from_file_name("data/SimLex-999.txt"), Some(Layout::SimLex999));
    /// assert_eq!(Layout::from_file_name("MEN_dataset_natural_form_full"), Some(Layout::Men));
    /// assert_eq!(Layout::from_file_name("EN-RG-65.txt"), Some(Layout::Rg65));
    /// assert_eq!(Layout::from_file_name("comments.txt"), None);
    /// ```
    #[must_use]
    pub fn from_file_name(file_name: &str) -> Option<Self> {
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        let runs: Vec<String> = base
            .split(|c: char| !c.is_alphanumeric())
            .filter(|r| !r.is_empty())
            .map(str::to_lowercase)
            .collect();
        let next = |k: usize| runs.get(k + 1).map_or("", String::as_str);
        runs.iter().enumerate().find_map(|(k, run)| {
            let run = run.as_str();
            Some(match run {
                _ if run.starts_with("simlex") => Self::SimLex999,
                _ if run.starts_with("simverb") => Self::SimVerb3500,
                _ if run.starts_with("wordsim") || run == "ws353" => Self::WordSim353,
                _ if run.starts_with("mturk") => Self::MTurk,
                "men" => Self::Men,
                "rg65" => Self::Rg65,
                "mc30" => Self::Mc30,
                "rw" | "rarewords" => Self::RareWords,
                "rg" if next(k) == "65" => Self::Rg65,
                "mc" if next(k) == "30" => Self::Mc30,
                "ws" if next(k) == "353" => Self::WordSim353,
                _ => return None,
            })
        })
    }
}

serde_mirror! {
    /// How to read a word-pair file: separator, header, columns, and MEN's
    /// part-of-speech suffixes.
    ///
    /// ```text
    /// default: separator Auto, header Auto, words in columns 1 and 2, score in column 3,
    ///          '#' starts a comment line, no suffix stripping
    /// ```
    ///
    /// With feature `serde` a format is written as `{"separator": "Auto",
    /// "header": "Auto", "word_columns": [1, 2], "score_column": 3,
    /// "strip_pos_suffixes": false, "comments": true, "three_column_copies":
    /// false}` (the last may be left out when reading: false); reading it back
    /// refuses columns that are 0 or not distinct (which reading a file would
    /// refuse).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, Layout, PairFormat};
    /// let simlex = "word1\tword2\tPOS\tSimLex999\tconc(w1)\n\
    ///               old\tnew\tA\t1.58\t2.72\n\
    ///               smart\tintelligent\tA\t9.2\t1.75\n";
    /// let b = Benchmark::read("SimLex-999", simlex.as_bytes(), &PairFormat::layout(Layout::SimLex999))?;
    /// assert_eq!(b.len(), 2);
    /// assert_eq!(b.pairs()[1].score, 9.2);
    /// let men = "sun-n sunlight-n 50.000000\nbright-j dark-j 19.000000\n";
    /// let b = Benchmark::read("MEN", men.as_bytes(), &PairFormat::layout(Layout::Men))?;
    /// assert_eq!((b.pairs()[1].word1.as_str(), b.pairs()[1].line), ("bright", 2));
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct PairFormat {
        pub(super) separator: Separator,
        pub(super) header: Header,
        pub(super) word_columns: [usize; 2],
        pub(super) score_column: usize,
        #[cfg_attr(feature = "serde", serde(rename = "strip_pos_suffixes"))]
        pub(super) strip_pos: bool,
        pub(super) comments: bool,
        pub(super) three_column_copies: bool,
    }
    read through "super::repr::PairFormatRepr"
}

impl Default for PairFormat {
    fn default() -> Self {
        Self::new()
    }
}

impl PairFormat {
    /// `word1 word2 score`, separator and header auto-detected.
    #[must_use]
    pub fn new() -> Self {
        Self {
            separator: Separator::Auto,
            header: Header::Auto,
            word_columns: [1, 2],
            score_column: 3,
            strip_pos: false,
            comments: true,
            three_column_copies: false,
        }
    }

    /// The format of a published dataset (see [`Layout`]).
    #[must_use]
    pub fn layout(layout: Layout) -> Self {
        let plain = Self::new();
        match layout {
            Layout::SimLex999 | Layout::SimVerb3500 => {
                plain.columns(1, 2, 4).three_column_copies(true)
            }
            Layout::Men => plain.strip_pos_suffixes(true),
            _ => plain,
        }
    }

    /// Sets the separator.
    #[must_use]
    pub fn separator(mut self, separator: Separator) -> Self {
        self.separator = separator;
        self
    }

    /// Sets the header policy.
    #[must_use]
    pub fn header(mut self, header: Header) -> Self {
        self.header = header;
        self
    }

    /// Sets the 1-based columns of the two words and the score (checked
    /// when reading: distinct and at least 1).
    #[must_use]
    pub fn columns(mut self, word1: usize, word2: usize, score: usize) -> Self {
        self.word_columns = [word1, word2];
        self.score_column = score;
        self
    }

    /// Removes a trailing part-of-speech tag `-n`, `-v` or `-j` from each
    /// word (MEN's lemma form: `sun-n`, `run-v`, `bright-j`).
    #[must_use]
    pub fn strip_pos_suffixes(mut self, on: bool) -> Self {
        self.strip_pos = on;
        self
    }

    /// Whether lines starting with `#` are comments (default: yes, as gensim).
    #[must_use]
    pub fn comments(mut self, on: bool) -> Self {
        self.comments = on;
        self
    }

    /// Reads a file whose first line that is not blank or a comment
    /// (header or pair) has exactly three fields as `word1 word2 score`,
    /// whatever [`columns`](Self::columns) say: trimmed copies such as
    /// gensim's `simlex999.txt`. On in
    /// [`PairFormat::layout`] for those two layouts, off otherwise.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{read_pairs, Layout, PairFormat};
    /// let gensim_copy = "# Word 1\tWord 2\tHuman (mean)\nkettle\tteapot\t8.5\n";
    /// let pairs = read_pairs(gensim_copy.as_bytes(), &PairFormat::layout(Layout::SimLex999))?;
    /// assert_eq!((pairs[0].score, pairs[0].line), (8.5, 2));
    /// let strict = PairFormat::layout(Layout::SimLex999).three_column_copies(false);
    /// assert!(read_pairs(gensim_copy.as_bytes(), &strict).is_err());
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    #[must_use]
    pub fn three_column_copies(mut self, on: bool) -> Self {
        self.three_column_copies = on;
        self
    }

    /// The 1-based columns of the two words.
    #[must_use]
    pub fn word_columns(&self) -> [usize; 2] {
        self.word_columns
    }

    /// The 1-based column of the score (of a file whose first line has
    /// more than three fields, when [`three_column_copies`](Self::three_column_copies) is on).
    #[must_use]
    pub fn score_column(&self) -> usize {
        self.score_column
    }

    /// The columns (words, score) used for a file whose first line has
    /// `fields` fields.
    pub(super) fn effective_columns(&self, fields: usize) -> ([usize; 2], usize) {
        if self.three_column_copies && fields == 3 {
            ([1, 2], 3)
        } else {
            (self.word_columns, self.score_column)
        }
    }

    pub(super) fn effective_score_column(&self, fields: usize) -> usize {
        self.effective_columns(fields).1
    }

    pub(super) fn check(&self) -> Result<(), WordsimError> {
        let [a, b] = self.word_columns;
        let s = self.score_column;
        if a == 0 || b == 0 || s == 0 || a == b || a == s || b == s {
            return Err(WordsimError::InvalidParameter {
                name: "columns",
                expected: "three distinct 1-based columns",
            });
        }
        Ok(())
    }
}

/// One pair of a benchmark with its human score.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WordPair {
    /// The first word.
    pub word1: String,
    /// The second word.
    pub word2: String,
    /// The human similarity (or relatedness) score; larger = more similar.
    pub score: f64,
    /// The 1-based line of the file (0 for pairs made in memory).
    pub line: usize,
}

impl WordPair {
    /// A pair made in memory (line 0).
    #[must_use]
    pub fn new(word1: impl Into<String>, word2: impl Into<String>, score: f64) -> Self {
        Self {
            word1: word1.into(),
            word2: word2.into(),
            score,
            line: 0,
        }
    }
}

serde_mirror! {
    /// A named word-similarity benchmark: word pairs with human scores, in file
    /// order (repeated pairs are kept, as every evaluator does).
    ///
    /// With feature `serde` a benchmark is written as its name and pairs, and
    /// read back through [`Benchmark::new`] (no pair, an empty word or a score
    /// that is not finite is refused).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Benchmark {
        name: String,
        pairs: Vec<WordPair>,
    }
    read through "super::repr::BenchmarkRepr"
}

impl Benchmark {
    /// A benchmark from pairs made in memory.
    ///
    /// # Errors
    /// [`WordsimError::Empty`] without pairs; [`WordsimError::Pair`] for an
    /// empty word or a score that is not finite.
    ///
    /// # Complexity
    /// O(pairs).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, WordPair};
    /// let b = Benchmark::new("tiny", vec![WordPair::new("cat", "dog", 7.5)])?;
    /// assert_eq!((b.name(), b.len()), ("tiny", 1));
    /// assert!(Benchmark::new("bad", vec![WordPair::new("cat", "", 1.0)]).is_err());
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    pub fn new(name: impl Into<String>, pairs: Vec<WordPair>) -> Result<Self, WordsimError> {
        if pairs.is_empty() {
            return Err(WordsimError::Empty);
        }
        for (index, p) in pairs.iter().enumerate() {
            let problem = if p.word1.is_empty() {
                Some(PairProblem::EmptyWord { column: 1 })
            } else if p.word2.is_empty() {
                Some(PairProblem::EmptyWord { column: 2 })
            } else if !p.score.is_finite() {
                Some(PairProblem::NonFiniteScore { column: 3 })
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(WordsimError::Pair { index, problem });
            }
        }
        Ok(Self {
            name: name.into(),
            pairs,
        })
    }

    /// Reads a benchmark from a word-pair file; see [`read_pairs`].
    ///
    /// # Errors
    /// As [`read_pairs`]; [`WordsimError::Empty`] for a file without pairs.
    ///
    /// # Complexity
    /// O(file size).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, PairFormat};
    /// let b = Benchmark::read("ws", &b"Word 1,Word 2,Human (mean)\ntiger,cat,7.35\n"[..], &PairFormat::new())?;
    /// assert_eq!(b.pairs()[0].word2, "cat");
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    pub fn read<R: BufRead>(
        name: impl Into<String>,
        reader: R,
        format: &PairFormat,
    ) -> Result<Self, WordsimError> {
        let pairs = read_pairs(reader, format)?;
        if pairs.is_empty() {
            return Err(WordsimError::Empty);
        }
        Ok(Self {
            name: name.into(),
            pairs,
        })
    }

    /// The benchmark's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pairs in file order.
    #[must_use]
    pub fn pairs(&self) -> &[WordPair] {
        &self.pairs
    }

    /// The number of pairs.
    #[must_use]
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Always `false`: a benchmark has at least one pair.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The distinct words, sorted: what a vector reader must keep
    /// ([`ReadOptions::keep`](crate::embedding::ReadOptions::keep)).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::wordsim::{Benchmark, WordPair};
    /// let b = Benchmark::new("b", vec![WordPair::new("cat", "dog", 1.0), WordPair::new("dog", "ant", 2.0)])?;
    /// assert_eq!(b.words().into_iter().collect::<Vec<_>>(), ["ant", "cat", "dog"]);
    /// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
    /// ```
    #[must_use]
    pub fn words(&self) -> BTreeSet<&str> {
        self.pairs
            .iter()
            .flat_map(|p| [p.word1.as_str(), p.word2.as_str()])
            .collect()
    }
}

/// Reads the pairs of a word-pair file, line by line.
///
/// ```text
/// [header line]                         ← Header::Auto: skipped if its score field is not a number
/// word1 SEP word2 SEP score [SEP …]     ← columns chosen by PairFormat::columns, extra fields ignored
/// # comment                             ← skipped (PairFormat::comments), as are blank lines
/// ```
///
/// A UTF-8 byte-order mark and CRLF line ends are accepted.
///
/// # Errors
/// [`WordsimError::InvalidParameter`] for columns that are 0 or not
/// distinct; [`WordsimError::Line`] with the 1-based line for invalid UTF-8,
/// too few fields, an empty word, a score that is not a (finite) number;
/// [`WordsimError::Io`] if the reader fails.
///
/// # Complexity
/// O(file size).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::wordsim::{read_pairs, PairFormat};
/// let pairs = read_pairs(&b"# RG-65 copy\ncord;smile;0.02\nrooster;voyage;0.04\n"[..], &PairFormat::new())?;
/// assert_eq!((pairs.len(), pairs[1].score, pairs[1].line), (2, 0.04, 3));
/// let e = read_pairs(&b"cord\tsmile\n"[..], &PairFormat::new()).unwrap_err();
/// assert_eq!(e.to_string(), "benchmark line 1: expected at least 3 fields, found 2");
/// # Ok::<(), adaptive_comp_metrics::wordsim::WordsimError>(())
/// ```
///
/// # References
/// The layouts of [`Layout`]; gensim's `KeyedVectors.evaluate_word_pairs`
/// (tab-separated, `#` comments).
pub fn read_pairs<R: BufRead>(
    reader: R,
    format: &PairFormat,
) -> Result<Vec<WordPair>, WordsimError> {
    format.check()?;
    let mut separator = format.separator;
    let mut header_pending = format.header != Header::Absent;
    // The columns, fixed at the first line that is not blank or a comment.
    let mut columns: Option<([usize; 2], usize)> = None;
    let mut out = Vec::new();
    let mut lines = NumberedLines::new(reader);
    while let Some((line, bytes)) = lines
        .next_line()
        .map_err(|f| WordsimError::io(f.line, &f.error))?
    {
        let err = |problem| WordsimError::Line { line, problem };
        let text = core::str::from_utf8(bytes).map_err(|_| err(PairProblem::InvalidUtf8))?;
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() || (format.comments && text.starts_with('#')) {
            continue;
        }
        if separator == Separator::Auto {
            separator = if text.contains('\t') {
                Separator::Tab
            } else if text.contains(',') {
                Separator::Comma
            } else if text.contains(';') {
                Separator::Semicolon
            } else {
                Separator::Whitespace
            };
        }
        let mut fields: Vec<&str> = Vec::with_capacity(16);
        split_fields(text, separator, &mut fields);
        let (word_columns, score_column) =
            *columns.get_or_insert_with(|| format.effective_columns(fields.len()));
        let needed = word_columns[0].max(word_columns[1]).max(score_column);
        let score_field = fields.get(score_column - 1).copied();
        if header_pending {
            header_pending = false;
            let numeric = score_field.is_some_and(|s| s.parse::<f64>().is_ok());
            if format.header == Header::Present || !numeric && score_field.is_some() {
                continue;
            }
        }
        if fields.len() < needed {
            return Err(err(PairProblem::TooFewFields {
                needed,
                found: fields.len(),
            }));
        }
        let mut words = [String::new(), String::new()];
        for (slot, &column) in words.iter_mut().zip(&word_columns) {
            let mut w = fields[column - 1];
            if format.strip_pos {
                w = strip_pos(w);
            }
            if w.is_empty() {
                return Err(err(PairProblem::EmptyWord { column }));
            }
            *slot = w.to_owned();
        }
        let column = score_column;
        let score: f64 = fields[column - 1]
            .parse()
            .map_err(|_| err(PairProblem::InvalidScore { column }))?;
        if !score.is_finite() {
            return Err(err(PairProblem::NonFiniteScore { column }));
        }
        let [word1, word2] = words;
        out.push(WordPair {
            word1,
            word2,
            score,
            line,
        });
    }
    Ok(out)
}

/// The fields of a line split at `separator` (as [`Separator`] says: tab,
/// comma and semicolon fields trimmed, comma fields unquoted).
pub(super) fn split_fields<'a>(text: &'a str, separator: Separator, out: &mut Vec<&'a str>) {
    match separator {
        Separator::Tab => out.extend(text.split('\t').map(str::trim)),
        Separator::Comma => out.extend(text.split(',').map(|f| unquote(f.trim()))),
        Separator::Semicolon => out.extend(text.split(';').map(str::trim)),
        Separator::Whitespace | Separator::Auto => out.extend(text.split_ascii_whitespace()),
    }
}

/// Whether `word` ends with a part-of-speech tag `-n`, `-v` or `-j` after a
/// non-empty stem (what [`PairFormat::strip_pos_suffixes`] removes).
pub(super) fn has_pos_tag(word: &str) -> bool {
    strip_pos(word).len() < word.len()
}

fn unquote(field: &str) -> &str {
    field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(field)
}

/// `word` without a trailing `-n`, `-v` or `-j`.
fn strip_pos(word: &str) -> &str {
    for tag in ["-n", "-v", "-j"] {
        if let Some(w) = word.strip_suffix(tag)
            && !w.is_empty()
        {
            return w;
        }
    }
    word
}
