//! Reading options shared by the vector readers: which words to keep, case
//! folding, a row limit; the file formats and their detection.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::BufRead;

use num_traits::Float;

use super::Component;
use super::error::{EmbeddingError, VectorProblem};
use super::store::{Vectors, fold};

/// At most this many components are reserved up front from a file's header,
/// so a corrupt header cannot make the reader allocate gigabytes.
pub(crate) const MAX_RESERVE: usize = 1 << 22;

/// The word-vector file formats the crate reads and writes.
///
/// ```text
/// Word2VecText    count dim⏎  word v₁ … v_dim⏎ …        (word2vec -binary 0, fastText .vec)
/// Glove           word v₁ … v_dim⏎ …                    (no header; dim from the first row)
/// Word2VecBinary  count dim⏎  word␠ <dim little-endian f32> [⏎] …   (word2vec -binary 1, .bin)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Format {
    /// word2vec/fastText text: a `count dim` header, then one word and its
    /// `dim` components per line, separated by spaces or tabs.
    Word2VecText,
    /// GloVe text: no header; the dimension is the number of components of
    /// the first row.
    Glove,
    /// word2vec binary: a `count dim` text header line, then per row the word,
    /// one space and `dim` little-endian IEEE-754 f32 (4·dim bytes), with an
    /// optional newline after each row (the C tool writes one, gensim none).
    Word2VecBinary,
}

impl Format {
    /// Guesses the format from the first bytes of a file (a few KiB are
    /// plenty; 64 KiB is safe).
    ///
    /// A first line of two integers is a word2vec header; the file is text
    /// if the rest of the first row (after its word, up to the newline) is
    /// made of characters of decimal numbers (`0-9 + - . e E`, `nan`, `inf`,
    /// spaces), binary otherwise. Any other first line is GloVe. A UTF-8 byte-order mark is
    /// skipped.
    ///
    /// # Complexity
    /// O(length of the first two rows).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::Format;
    /// assert_eq!(Format::detect(b"2 3\ncat 0.1 0.2 0.3\n"), Format::Word2VecText);
    /// assert_eq!(Format::detect(b"cat 0.1 0.2 0.3\n"), Format::Glove);
    /// let mut bin = b"1 2\ncat ".to_vec();
    /// bin.extend(1.5f32.to_le_bytes());
    /// bin.extend((-2.0f32).to_le_bytes());
    /// assert_eq!(Format::detect(&bin), Format::Word2VecBinary);
    /// ```
    #[must_use]
    pub fn detect(prefix: &[u8]) -> Self {
        let prefix = strip_bom(prefix);
        let (first, rest) = match memchr::memchr(b'\n', prefix) {
            Some(i) => (&prefix[..i], &prefix[i + 1..]),
            None => (prefix, &[][..]),
        };
        let Some((_, dim)) = parse_header(first) else {
            return Self::Glove;
        };
        let Some(space) = memchr::memchr(b' ', rest) else {
            return Self::Word2VecText;
        };
        // The rest of the first row: up to its newline in text (binary
        // floats may contain a newline byte, but not only numeric text before it).
        let body = &rest[space + 1..];
        let body = &body[..body.len().min(dim.saturating_mul(4).max(1))];
        let line = memchr::memchr(b'\n', body).map_or(body, |i| &body[..i]);
        let numeric = |b: &u8| {
            b.is_ascii_digit() || b.is_ascii_whitespace() || b"+-.eEnNaAiIfFtTyY".contains(b)
        };
        if body.is_empty() || (line.iter().all(numeric) && !line.trim_ascii().is_empty()) {
            Self::Word2VecText
        } else {
            Self::Word2VecBinary
        }
    }
}

/// `bytes` without a leading UTF-8 byte-order mark.
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// `count dim` (two non-negative integers and nothing else), if it is one.
pub(crate) fn parse_header(line: &[u8]) -> Option<(usize, usize)> {
    let text = core::str::from_utf8(line).ok()?;
    let mut fields = text.split_ascii_whitespace();
    let (Some(count), Some(dim), None) = (fields.next(), fields.next(), fields.next()) else {
        return None;
    };
    Some((count.parse().ok()?, dim.parse().ok()?))
}

/// How to read a vector file: which words to keep, whether to fold case, how
/// many rows to read.
///
/// ```text
/// keep(W)      parse and store only the rows whose word is in W (after folding);
///              other rows are skipped unparsed, at the speed of a newline search
/// fold_case    store words lowercased; the first row of each folded word wins,
///              as gensim's case_insensitive (a word spelled identically twice is
///              still a duplicate); gensim upper-cases, which differs on ß, ı, ς
///              (see Vectors::with_case_folding)
/// limit(n)     read only the first n rows, as gensim's restrict_vocab
/// ```
///
/// With feature `serde` the options serialise as
/// `{"keep": ["cat", …] or null, "fold_case": false, "limit": 1000 or null}`.
///
/// Rows that are skipped (not in `keep`, or past `limit`) are not validated:
/// a malformed number there goes unnoticed. Rows that are kept are validated
/// fully, and the row count is checked against a word2vec header whenever
/// the whole file is read.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{read_vectors, Format, ReadOptions};
/// let file = "3 2\nThe 1 0\ncat 0 1\nthe 5 5\n";
/// let opts = ReadOptions::new().keep(["the", "dog"]).fold_case(true);
/// let v = read_vectors::<f32, _>(file.as_bytes(), Format::Word2VecText, &opts)?;
/// assert_eq!(v.len(), 1);
/// assert_eq!(v.get("THE"), Some(&[1.0f32, 0.0][..])); // the first spelling wins
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReadOptions {
    keep: Option<Vec<String>>,
    fold_case: bool,
    limit: Option<usize>,
}

impl ReadOptions {
    /// Keep every row, case-sensitive, no limit.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps only the rows whose word is one of `words` (compared after
    /// folding when [`fold_case`](Self::fold_case) is on).
    #[must_use]
    pub fn keep<I, S>(mut self, words: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.keep = Some(words.into_iter().map(|w| w.as_ref().to_owned()).collect());
        self
    }

    /// Lowercases the words of the file and the words asked about later
    /// (Unicode `to_lowercase`; see [`Vectors::with_case_folding`]).
    ///
    /// gensim's `case_insensitive=True` upper-cases instead (`str.upper()`),
    /// so words meet here when their lower cases are equal and in gensim
    /// when their upper cases are: the two differ on German `ß` (gensim
    /// matches `straße` with `strasse`, this crate does not), Turkish
    /// dotless `ı` (gensim matches `kıta` with `kita`), Greek final `ς`
    /// (gensim matches `λογος` with `λογοσ`), and a few rarer letters
    /// listed at [`Vectors::with_case_folding`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::embedding::{read_vectors, Format, ReadOptions};
    /// let file = "2 1\nStraße 1\nKITA 2\n";
    /// let v = read_vectors::<f32, _>(file.as_bytes(), Format::Word2VecText, &ReadOptions::new().fold_case(true))?;
    /// assert!(!v.contains("STRASSE") && v.contains("straße") && v.contains("Kita"));
    /// assert!(!v.contains("kıta")); // gensim's upper-casing would find KITA
    /// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
    /// ```
    #[must_use]
    pub fn fold_case(mut self, on: bool) -> Self {
        self.fold_case = on;
        self
    }

    /// Reads only the first `rows` rows (gensim's `restrict_vocab`).
    #[must_use]
    pub fn limit(mut self, rows: usize) -> Self {
        self.limit = Some(rows);
        self
    }

    /// Whether the whole file is read (no row limit).
    pub(crate) fn whole_file(&self) -> bool {
        self.limit.is_none()
    }

    /// The empty store the options ask for.
    pub(crate) fn store<F: Float + Into<f64>>(
        &self,
        dim: usize,
    ) -> Result<Vectors<F>, VectorProblem> {
        let made = if self.fold_case {
            Vectors::with_case_folding(dim)
        } else {
            Vectors::new(dim)
        };
        made.map_err(|_| VectorProblem::ZeroDimension)
    }
}

/// `word2vec text`, `GloVe text`, `word2vec binary`.
impl core::fmt::Display for Format {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Word2VecText => "word2vec text",
            Self::Glove => "GloVe text",
            Self::Word2VecBinary => "word2vec binary",
        })
    }
}

/// `every word, case-sensitive, every row`, or e.g. `3 words kept, case
/// folded, first 1000 rows`.
impl core::fmt::Display for ReadOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.keep {
            None => f.write_str("every word")?,
            Some(words) => write!(
                f,
                "{} kept",
                crate::present::Count(words.len() as u64, "word")
            )?,
        }
        f.write_str(if self.fold_case {
            ", case folded"
        } else {
            ", case-sensitive"
        })?;
        match self.limit {
            None => f.write_str(", every row"),
            Some(n) => write!(f, ", first {}", crate::present::Count(n as u64, "row")),
        }
    }
}

/// What to do with a row, from its word alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Parse and store it.
    Parse,
    /// Skip it unparsed.
    Skip,
    /// The row limit is reached: stop reading.
    Stop,
}

/// Applies [`ReadOptions`] row by row.
#[derive(Debug)]
pub(crate) struct Selector {
    keep: Option<HashSet<Box<[u8]>>>,
    fold: bool,
    limit: usize,
    /// Rows seen so far (kept or skipped).
    pub(crate) rows: usize,
    /// Exact spellings of the stored words, when folding (duplicate check).
    spellings: HashSet<Box<str>>,
}

impl Selector {
    pub(crate) fn new(options: &ReadOptions) -> Self {
        let folding = options.fold_case;
        let keep = options.keep.as_ref().map(|words| {
            words
                .iter()
                .map(|w| {
                    let key = if folding {
                        fold(w)
                    } else {
                        Cow::Borrowed(w.as_str())
                    };
                    Box::<[u8]>::from(key.as_bytes())
                })
                .collect()
        });
        Self {
            keep,
            fold: folding,
            limit: options.limit.unwrap_or(usize::MAX),
            rows: 0,
            spellings: HashSet::new(),
        }
    }

    /// At most how many rows the store can receive.
    pub(crate) fn capacity(&self, announced: usize) -> usize {
        let kept = self.keep.as_ref().map_or(usize::MAX, HashSet::len);
        announced.min(kept).min(self.limit)
    }

    /// Whether the row limit is reached.
    pub(crate) fn exhausted(&self) -> bool {
        self.rows >= self.limit
    }

    /// Counts a row and decides what to do with it from its word.
    #[inline]
    pub(crate) fn decide(&mut self, word: &[u8]) -> Decision {
        if self.rows >= self.limit {
            return Decision::Stop;
        }
        self.rows += 1;
        let Some(keep) = &self.keep else {
            return Decision::Parse;
        };
        let hit = if !self.fold || !word.iter().any(|b| b.is_ascii_uppercase() || *b >= 0x80) {
            keep.contains(word)
        } else {
            match core::str::from_utf8(word) {
                Ok(w) => keep.contains(fold(w).as_bytes()),
                Err(_) => false,
            }
        };
        if hit { Decision::Parse } else { Decision::Skip }
    }

    /// Stores a parsed row: a duplicate spelling is an error; with folding, a
    /// second spelling of a stored word is dropped (the first row wins).
    pub(crate) fn store<F: Float + Into<f64>>(
        &mut self,
        out: &mut Vectors<F>,
        word: &str,
        values: &[F],
    ) -> Result<(), VectorProblem> {
        if self.fold {
            if !self.spellings.insert(Box::from(word)) {
                return Err(VectorProblem::DuplicateWord);
            }
            if out.contains(word) {
                return Ok(());
            }
        }
        out.push_checked(word.to_owned(), values)
    }
}

/// Reads word vectors in any [`Format`] with [`ReadOptions`], streaming: one
/// pass, memory for the kept vectors plus one row.
///
/// ```text
/// keep W:  cost ≈ one newline search over the file + parsing of the |W| kept rows
/// ```
///
/// A UTF-8 byte-order mark before the first line is skipped. For large
/// files give a large buffer, e.g. `BufReader::with_capacity(1 << 20, file)`.
///
/// # Errors
/// [`EmbeddingError::Line`] (text formats) or [`EmbeddingError::Binary`]
/// (row and byte offset) for: an empty file or a bad header, dimension 0,
/// invalid UTF-8, an empty word, a row with the wrong number of components,
/// a component that is not a number or not finite in `F`, a squared norm
/// that overflows f64, a duplicate word, more or fewer rows than a header
/// announces, a binary file that ends inside a row or whose word has no
/// space within 64 KiB, a binary dimension too large to address;
/// [`EmbeddingError::Io`] if the reader fails.
///
/// # Complexity
/// O(file size) time; O(kept·dim) memory plus one row.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::{read_vectors, write_vectors, Format, ReadOptions, Vectors};
/// let v = Vectors::from_pairs(2, [("cat", [1.0f32, 0.5]), ("dog", [0.25, -1.0])])?;
/// let mut bin = Vec::new();
/// write_vectors(&mut bin, &v, Format::Word2VecBinary)?;
/// let back = read_vectors::<f32, _>(&bin[..], Format::Word2VecBinary, &ReadOptions::new().keep(["dog"]))?;
/// assert_eq!((back.len(), back.get("dog")), (1, Some(&[0.25f32, -1.0][..])));
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
///
/// # References
/// T. Mikolov et al. (2013), the `word2vec` tool (`-binary 0/1` output);
/// J. Pennington, R. Socher, C. D. Manning (2014), GloVe;
/// P. Bojanowski et al. (2017), fastText (`.vec` = word2vec text).
pub fn read_vectors<F: Component, R: BufRead>(
    reader: R,
    format: Format,
    options: &ReadOptions,
) -> Result<Vectors<F>, EmbeddingError> {
    match format {
        Format::Word2VecText => super::text::read_text(reader, true, options),
        Format::Glove => super::text::read_text(reader, false, options),
        Format::Word2VecBinary => super::binary::read_binary(reader, options),
    }
}

/// Reads word vectors in the word2vec text format (`.vec`, also fastText's),
/// streaming; [`read_vectors`] with [`Format::Word2VecText`] and default
/// options.
///
/// ```text
/// count dim                 ← header: two integers (a UTF-8 byte-order mark before it is skipped)
/// word v₁ v₂ … v_dim         ← one line per word, fields separated by spaces or tabs
/// ```
///
/// Lines are parsed straight into the contiguous store, so the file is never
/// held in memory. CRLF line ends, trailing spaces and blank lines (anywhere
/// after the header) are accepted; components are parsed directly as `F`.
///
/// # Errors
/// [`EmbeddingError::Line`] with the 1-based line number for: an empty
/// file, a header that is not two integers, dimension 0, invalid UTF-8, a
/// line with the wrong number of components, a component that is not a
/// number or not finite in `F` (e.g. `1e39` as f32), a squared norm that
/// overflows f64, a duplicate word, more or fewer vectors than the header
/// says; [`EmbeddingError::Io`] if the reader fails.
///
/// # Complexity
/// O(file size) time; O(count·dim) memory for the vectors plus one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::read_word2vec;
/// let file = "\u{feff}2 3\ncat 1 0 0\ndog 0.5 0.5 0\n";
/// let v = read_word2vec::<f32, _>(file.as_bytes())?;
/// assert_eq!((v.len(), v.dim()), (2, 3));
/// assert_eq!(v.get("dog"), Some(&[0.5f32, 0.5, 0.0][..]));
/// let bad = "2 3\ncat 1 0 0\ndog 0.5 0.5\n";
/// assert_eq!(read_word2vec::<f32, _>(bad.as_bytes()).unwrap_err().to_string(),
///            "vectors line 3: expected 3 components, found 2");
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn read_word2vec<F: Component, R: BufRead>(reader: R) -> Result<Vectors<F>, EmbeddingError> {
    read_vectors(reader, Format::Word2VecText, &ReadOptions::new())
}

/// Reads word vectors in the GloVe text format (no header; the dimension is
/// that of the first row), streaming; [`read_vectors`] with
/// [`Format::Glove`] and default options.
///
/// ```text
/// word v₁ v₂ … v_dim         ← one line per word; dim = fields of the first row − 1
/// ```
///
/// # Errors
/// As [`read_word2vec`], without the header errors; a file without any row
/// is [`VectorProblem::NoRows`] (its dimension is unknown), a first row
/// without components [`VectorProblem::ZeroDimension`].
///
/// # Complexity
/// O(file size) time; O(rows·dim) memory plus one line.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::read_glove;
/// let v = read_glove::<f32, _>(&b"the 0.1 -0.2\nof 0.3 0.4\n"[..])?;
/// assert_eq!((v.len(), v.dim()), (2, 2));
/// assert!(read_glove::<f32, _>(&b"the 0.1 -0.2\nof 0.3\n"[..]).is_err());
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn read_glove<F: Component, R: BufRead>(reader: R) -> Result<Vectors<F>, EmbeddingError> {
    read_vectors(reader, Format::Glove, &ReadOptions::new())
}

/// Reads word vectors in the word2vec binary format (`.bin`), streaming;
/// [`read_vectors`] with [`Format::Word2VecBinary`] and default options.
///
/// ```text
/// count dim⏎                               ← text header
/// word␠ f32le₁ … f32le_dim [⏎]              ← per row: the word, one space, 4·dim bytes,
///                                            an optional newline
/// ```
///
/// # Errors
/// [`EmbeddingError::Line`] (line 1) for a bad header;
/// [`EmbeddingError::Binary`] with the 1-based row and its byte offset for
/// the row errors of [`read_vectors`].
///
/// # Complexity
/// O(file size) time; O(count·dim) memory plus one row.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::embedding::read_word2vec_binary;
/// let mut file = b"1 2\ncat ".to_vec();
/// file.extend(0.5f32.to_le_bytes());
/// file.extend(2.0f32.to_le_bytes());
/// file.push(b'\n');
/// let v = read_word2vec_binary::<f32, _>(&file[..])?;
/// assert_eq!(v.get("cat"), Some(&[0.5f32, 2.0][..]));
/// let truncated = &file[..file.len() - 3];
/// assert_eq!(read_word2vec_binary::<f32, _>(truncated).unwrap_err().to_string(),
///            "vectors row 1 (byte 4): the file ends inside the row");
/// # Ok::<(), adaptive_comp_metrics::embedding::EmbeddingError>(())
/// ```
pub fn read_word2vec_binary<F: Component, R: BufRead>(
    reader: R,
) -> Result<Vectors<F>, EmbeddingError> {
    read_vectors(reader, Format::Word2VecBinary, &ReadOptions::new())
}
