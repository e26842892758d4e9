//! The official SemEval-2007 scorer `score.pl`, reproduced exactly, quirks
//! included, so that published tables can be recomputed.
//!
//! [`score`] reads a gold file and a system file as raw bytes, the way
//! `score.pl` (McCarthy & Navigli 2007, the scorer distributed with the
//! SemEval-2007 Task 10 data) reads them, and returns the same counts and
//! the same floating-point figures: on every input where `score.pl` itself
//! is deterministic, the printed percentages agree digit for digit and the
//! unrounded figures bit for bit (checked against the real script on
//! hundreds of generated messy files, see the crate's tests). The corrected
//! scorer remains the default: [`Corpus`](super::Corpus) with
//! [`Profile::Semeval2007`](super::Profile::Semeval2007).
//!
//! This is a file-level function, not a [`Profile`](super::Profile): most
//! quirks live in how `score.pl` parses the lines (spaces, `\r`, empty
//! fields), which the crate's readers tidy before any profile sees a term.
//!
//! # What `score.pl` does, and what the crate does instead
//!
//! Each row was run through the real `score.pl` (Perl 5.36); the values are
//! regression tests (`tests/domains/lexsub_score_pl.rs`). The two profiles
//! are scored through the crate's readers and [`Corpus`](super::Corpus);
//! "same" means as [`Profile::Semeval2007`](super::Profile::Semeval2007).
//!
//! | case (gold / answer) | `score.pl` and [`score`] | [`Profile::Semeval2007`](super::Profile::Semeval2007) (default) | [`Profile::Strict`](super::Profile::Strict) |
//! |---|---|---|---|
//! | `garden 2;lot 1;garden  1;` (two spaces before a count), answer `garden` | `garden ` with a trailing space is a key of its own: best 50.00 | whitespace trimmed, counts merged: 75.00 | same |
//! | `kilo 2;11.27 kilograms 1;`, oot answer `11.27 kilograms` | the field pattern keeps only `27 kilograms`: 0.00 | the term is read whole: 33.33 | same |
//! | `cheer  up 2;happy 1;` (inner double space), answer `cheer up` | keys compared byte for byte: 0.00 (`cheer  up` scores 66.67) | inner spaces collapsed on both sides: 66.67 either way | same |
//! | answers `glad;;merry` (gold `glad 2;merry 1;`) | the empty answer is a guess: (2/3 + 1/3) / 3 = 33.33 | empty answers dropped: 50.00 | same |
//! | answers `;glad` | two guesses, the first empty: best 33.33, mode 0.00 | 66.67, mode 100.00 | same |
//! | system line ending in CRLF, answer `glad\r\n` | the answer is `glad\r`: 0.00 | line endings stripped: 66.67 | same |
//! | answers `glad ; merry` (spaces around) | `glad ` and ` merry` match nothing: 0.00 | answers trimmed: 50.00 | same |
//! | gold item whose substitutes are all one character (`a 1;b 1;`) | counted in the total, never attempted: recall divides by it | one-character substitutes dropped, then the empty item (not in the total) | kept and scored like any item |
//! | apostrophe collision (`don't 2;dont 1;glad 1;`), answer `dont` | both are `dont`, the last count wins: 1/2 = 50.00 | both are `dont`, counts summed: 3/4 = 75.00 | two terms, apostrophe kept: 1/4 = 25.00 |
//! | a system id on two lines | the first line is scored, later ones ignored | [`LexsubError::DuplicateId`] | same |
//! | a system line naming another lemma than the gold item with its id | matched by id only | [`LexsubError::TargetMismatch`] | same |
//! | a system line with a blank answer text (`x.n 2 :: `) | not attempted, but the previous line's answers are scored again (credit and mode) | not attempted, scores 0 | same |
//! | gold lists a smaller count first (`glad 1;sunny 3;`) | the mode is the first listed substitute (`glad`) | the mode is the substitute with the unique largest count (`sunny`) | same |
//! | repeated answers (oot `game;game;…`) | every copy earns credit (an item can score over 100 %) | repeats removed | same |
//! | hyphenated gold mode (`well-suited 3;apt 1;`), answer `well-suited` | answers lose their hyphens, the mode keeps it: mode never matched | both sides lose the hyphen: matched | hyphens kept on both sides: matched (`well suited` is not) |
//! | `well-being 2;well being 1;`, answer `well being` | credit 2/3 or 1/3 depending on Perl's random hash order | one term, counts summed: 3/3 | two terms: 1/3 |
//! | nothing attempted, no gold item, no item with a mode | `Illegal division by zero` (the script stops) | the undefined figure is `None` | same |
//!
//! The last two rows are where `score.pl` is not deterministic or gives no
//! number. [`score`] then computes the run that visits an item's gold
//! substitutes in file order (so the spelling listed last wins) and names
//! the item in [`ScorePlScores::order_dependent`]; a figure `score.pl`
//! cannot compute is `None` ([`Totals::precision`], [`Totals::recall`]).
//! A gold item whose counts sum to 0 makes `score.pl` stop as soon as a
//! system line names it; [`score`] returns [`LexsubError::NotReproducible`]
//! there, and for counts whose sum passes 2⁶³ (Perl then sums in floating
//! point, in hash order).
//!
//! # Reading rules, as in `score.pl`
//!
//! - Lines end at `\n` only; everything else, `\r` included, is data.
//! - A gold or best line is found by the unanchored pattern
//!   `([\w.]+) (\S+) :: (.*)`, an oot line by `([\w.]+) (\S+) ::: (.*)`,
//!   with Perl's byte classes (`\w` = ASCII letters, digits, `_`; `\s` =
//!   space, `\t`, `\n`, `\r`, `\x0B`, `\x0C`). The lemma is never used; the
//!   id is the second field.
//! - Gold fields are split on `;` (trailing empty fields dropped), fields
//!   containing `pn` removed; an item counts when two or more fields are
//!   left or the first one's count is above 1. Each field is parsed with
//!   `(\w[\w'\-\s]+) (\d+)` (so a one-character substitute never matches),
//!   its first apostrophe removed; a later field with the same key
//!   overwrites the count. The mode is the first parsed field, unless a
//!   later field has the same count.
//! - System answers are split on `;` (trailing empty fields dropped) and
//!   not trimmed; `non-x`/`non x` become `nonx`, every `-` a space, the
//!   first apostrophe is removed. A gold key with a hyphen is also credited
//!   under its spaced spelling.
//!
//! ```text
//! best:  credit(i) = Σ_{a∈A} count(a)/|H|  /  |A|      (every answer, repeats and empty ones included)
//! oot:   credit(i) = Σ_{a∈A[..10]} count(a)/|H|
//! P = Σ credit / attempted     R = Σ credit / gold items     (mode: hits / attempted, hits / items)
//! ```
//!
//! # References
//! - D. McCarthy, R. Navigli (2007). SemEval-2007 Task 10: English Lexical
//!   Substitution Task. SemEval-2007, and its scorer `score.pl` distributed
//!   with the task data.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use super::error::LexsubError;
use super::model::{Percent, Totals};
use super::read::{Format, RawLines};

/// What [`score`] computes: `score.pl`'s counts and figures for one system
/// file.
///
/// `scores` is best (or oot): `credit` is `score.pl`'s summed credit,
/// `attempted` its attempted items, `items` its total. `mode` is mode-best
/// (or mode-oot): `credit` counts the hits, `attempted` the attempted items
/// with a mode, `items` the items with a mode. [`Totals::precision`] and
/// [`Totals::recall`] are then `score.pl`'s figures as fractions, `None`
/// where `score.pl` divides by zero. `Display` prints `score.pl`'s summary
/// lines (`n/a` where it would stop).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScorePlScores {
    /// The system format scored.
    pub format: Format,
    /// Best or oot totals.
    pub scores: Totals,
    /// Mode-best or mode-oot totals.
    pub mode: Totals,
    /// 1-based system lines that are not blank and do not match the record
    /// pattern (`score.pl` prints `Error in FILE on line N` for each).
    pub error_lines: Vec<usize>,
    /// Oot only: system lines with a repeated answer (`score.pl`'s
    /// `WARNING OOT file contains duplicates on N lines`).
    pub duplicate_lines: usize,
    /// Items whose credit depends on Perl's hash order (two gold spellings
    /// with different counts, one of them answered), in system order; the
    /// figures follow the run that visits substitutes in file order.
    pub order_dependent: Vec<String>,
}

impl core::fmt::Display for ScorePlScores {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.format == Format::Oot && self.duplicate_lines > 0 {
            writeln!(
                f,
                "WARNING OOT file contains duplicates on {} lines",
                self.duplicate_lines
            )?;
        }
        let (s, m) = (&self.scores, &self.mode);
        writeln!(f, "Total = {}, attempted = {}", s.items, s.attempted)?;
        writeln!(
            f,
            "precision = {}, recall = {}",
            Percent(s.precision()),
            Percent(s.recall())
        )?;
        writeln!(f, "Total with mode {} attempted {}", m.items, m.attempted)?;
        let (p, r) = (Percent(m.precision()), Percent(m.recall()));
        match self.format {
            Format::Best => write!(f, "Mode precision = {p}, Mode recall = {r}"),
            Format::Oot => write!(f, "precision = {p}, recall = {r}"),
        }
    }
}

/// Scores a system file against a gold file exactly as `score.pl` does
/// (`score.pl SYSTEM GOLD -t best` or `-t oot`).
///
/// ```text
/// best:  P = Σᵢ (Σ_{a∈Aᵢ} count(a)/|Hᵢ|) / |Aᵢ|  /  attempted
/// oot:   P = Σᵢ  Σ_{a∈Aᵢ[..10]} count(a)/|Hᵢ|    /  attempted
/// R = the same sum / gold items
/// ```
///
/// See the [module documentation](self) for every rule and how it differs
/// from the default [`Profile::Semeval2007`](super::Profile::Semeval2007).
///
/// # Errors
/// [`LexsubError::Io`] when reading fails;
/// [`LexsubError::CountOverflow`] for a gold count above 2⁶³ − 1 (line and
/// column in the gold file); [`LexsubError::NotReproducible`] where
/// `score.pl` stops or its result depends on hash order: a system line names
/// a gold item whose counts sum to 0 (its division by zero) or past 2⁶³ − 1
/// (line in the system file). Malformed lines are never errors: they are
/// skipped as `score.pl` skips them (system ones listed in
/// [`ScorePlScores::error_lines`]).
///
/// # Complexity
/// O(gold size + system size) expected time (hashing); O(gold size) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::lexsub::{Format, Percent, score_pl};
/// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
/// // Two spaces before a count: score.pl keeps "garden " as a key of its own.
/// let gold = "x.n 1 :: garden 2;lot 1;garden  1;\n";
/// let s = score_pl::score(gold.as_bytes(), "x.n 1 :: garden\n".as_bytes(), Format::Best)?;
/// assert_eq!(Percent(s.scores.precision()).to_string(), "50.00"); // default profile: 75.00
/// assert_eq!(s.to_string().lines().nth(1), Some("precision = 50.00, recall = 50.00"));
/// # Ok(()) }
/// ```
pub fn score<G: BufRead, S: BufRead>(
    gold: G,
    system: S,
    format: Format,
) -> Result<ScorePlScores, LexsubError> {
    let gold = read_gold(gold)?;
    let sep: &[u8] = match format {
        Format::Best => b"::",
        Format::Oot => b":::",
    };
    let mut out = ScorePlScores {
        format,
        scores: Totals::default(),
        mode: Totals {
            items: gold.totmodes,
            ..Totals::default()
        },
        error_lines: Vec::new(),
        duplicate_lines: 0,
        order_dependent: Vec::new(),
    };
    out.scores.items = gold.totitems;
    let mut done: HashSet<Vec<u8>> = HashSet::new();
    let mut flagged: HashSet<Vec<u8>> = HashSet::new();
    // score.pl keeps its answer list across lines: a blank answer text
    // scores the previous line's answers again.
    let mut res: Vec<Vec<u8>> = Vec::new();
    let (mut corr, mut hits) = (0.0f64, 0usize);
    let mut lines = RawLines::new(system);
    while let Some(line) = lines.next_line() {
        let (lineno, line) = line?;
        let Some((id, rest)) = record(line, sep) else {
            if line.iter().any(|&b| !is_space(b)) {
                out.error_lines.push(lineno);
            }
            continue;
        };
        let Some(item) = gold.items.get(id) else {
            continue;
        };
        let not_reproducible = |reason| LexsubError::NotReproducible {
            line: lineno,
            id: String::from_utf8_lossy(id).into_owned(),
            reason,
        };
        let hu = match item.total {
            Some(0) => return Err(not_reproducible(ZERO_TOTAL)),
            Some(t) => t,
            None => return Err(not_reproducible(HUGE_TOTAL)),
        };
        if !done.insert(id.to_vec()) {
            continue;
        }
        if rest.iter().any(|&b| !is_space(b)) {
            res = perl_split(rest).map(fixmisc).collect();
            if !res.is_empty() {
                out.scores.attempted += 1;
            }
            if format == Format::Oot && has_repeat(&res) {
                out.duplicate_lines += 1;
            }
        }
        if format == Format::Oot {
            res.truncate(10);
        }
        if let Some(mode) = gold.modes.get(id).filter(|m| truthy(m))
            && !res.is_empty()
        {
            out.mode.attempted += 1;
            let hit = match format {
                Format::Best => res.first() == Some(mode),
                Format::Oot => res.contains(mode),
            };
            hits += usize::from(hit);
        }
        let mut idcorr = 0.0f64;
        for a in &res {
            if let Some(&(count, conflict)) = item.norms.get(a) {
                idcorr += count as f64 / hu as f64;
                if conflict && flagged.insert(id.to_vec()) {
                    out.order_dependent
                        .push(String::from_utf8_lossy(id).into_owned());
                }
            }
        }
        if idcorr != 0.0 {
            corr += match format {
                Format::Best => idcorr / res.len() as f64,
                Format::Oot => idcorr,
            };
        }
    }
    out.scores.credit = corr;
    out.mode.credit = hits as f64;
    Ok(out)
}

const ZERO_TOTAL: &str = "its gold counts sum to 0, where score.pl stops with a division by zero";
const HUGE_TOTAL: &str =
    "its gold counts sum past 2^63 - 1, where score.pl sums in floating point in hash order";

/// One gold item as `score.pl` holds it.
#[derive(Debug, Default)]
struct GoldEntry {
    /// Substitutes in first-insertion order with their (last) count.
    subs: Vec<(Vec<u8>, i64)>,
    index: HashMap<Vec<u8>, usize>,
    /// Σ counts, `None` past `i64::MAX`.
    total: Option<i64>,
    /// Credit key → (count of the last writer in file order, whether two
    /// writers disagree).
    norms: HashMap<Vec<u8>, (i64, bool)>,
}

impl GoldEntry {
    fn set(&mut self, key: Vec<u8>, count: i64) {
        match self.index.get(&key) {
            Some(&i) => {
                if let Some(slot) = self.subs.get_mut(i) {
                    slot.1 = count;
                }
            }
            None => {
                self.index.insert(key.clone(), self.subs.len());
                self.subs.push((key, count));
            }
        }
    }

    /// `sumvalues` and `normalisevalues`, once the whole gold is read.
    fn finish(&mut self) {
        self.total = self
            .subs
            .iter()
            .try_fold(0i64, |acc, &(_, c)| acc.checked_add(c));
        for (key, count) in &self.subs {
            let spaced = key.contains(&b'-').then(|| {
                key.iter()
                    .map(|&b| if b == b'-' { b' ' } else { b })
                    .collect::<Vec<u8>>()
            });
            for k in core::iter::once(key.clone()).chain(spaced) {
                self.norms
                    .entry(k)
                    .and_modify(|(c, conflict)| {
                        *conflict |= *c != *count;
                        *c = *count;
                    })
                    .or_insert((*count, false));
            }
        }
    }
}

/// The gold file as `score.pl`'s `readgoldfile` leaves it.
#[derive(Debug, Default)]
struct Gold {
    items: HashMap<Vec<u8>, GoldEntry>,
    modes: HashMap<Vec<u8>, Vec<u8>>,
    totitems: usize,
    totmodes: usize,
}

fn read_gold<R: BufRead>(reader: R) -> Result<Gold, LexsubError> {
    let mut gold = Gold::default();
    let mut lines = RawLines::new(reader);
    while let Some(line) = lines.next_line() {
        let (lineno, line) = line?;
        let Some((id, rest)) = record(line, b"::") else {
            continue;
        };
        let fields: Vec<(usize, &[u8])> = perl_split_at(rest)
            .filter(|(_, f)| !f.windows(2).any(|w| w == b"pn"))
            .collect();
        let first_above_one = fields
            .first()
            .and_then(|(_, f)| first_count(f))
            .is_some_and(above_one);
        if fields.len() < 2 && !first_above_one {
            continue;
        }
        gold.totitems += 1;
        let rest_at = line.len() - rest.len();
        let mut mode: Option<Vec<u8>> = None;
        let (mut modenum, mut ms) = (0i64, false);
        for (at, field) in fields {
            let Some((start, space)) = entry(field) else {
                continue;
            };
            let digits = digit_run(field, space + 1);
            let num = parse_count(digits).ok_or_else(|| LexsubError::CountOverflow {
                line: lineno,
                column: column(line, lineno, rest_at + at + space + 1),
                max: i64::MAX as u64,
            })?;
            let sub = remove_first_apostrophe(field.get(start..space).unwrap_or_default());
            if !mode.as_deref().is_some_and(truthy) {
                gold.modes.insert(id.to_vec(), sub.clone());
                gold.totmodes += 1;
                modenum = num;
                mode = Some(sub.clone());
            } else if !ms && num == modenum {
                gold.modes.remove(id);
                // Never saturates: on every line a removal follows a mode
                // counted on that same line.
                gold.totmodes = gold.totmodes.saturating_sub(1);
                ms = true;
            }
            gold.items.entry(id.to_vec()).or_default().set(sub, num);
        }
    }
    for item in gold.items.values_mut() {
        item.finish();
    }
    Ok(gold)
}

/// Perl's `\w` on a byte string.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Perl's `\s` on a byte string (the vertical tab included since 5.18).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// `[\w'\-\s]`, the class of `score.pl`'s gold field patterns.
fn is_field(b: u8) -> bool {
    is_word(b) || b == b'\'' || b == b'-' || is_space(b)
}

/// `([\w.]+) (\S+) SEP (.*)`, leftmost match: the id and the rest.
///
/// `[\w.]+` and `\S+` are each followed by a space, which neither class
/// contains, so both are maximal runs: the first `[\w.]` run whose end
/// continues with ` ID SEP ` is the match.
fn record<'a>(line: &'a [u8], sep: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
    let is_head = |b: u8| is_word(b) || b == b'.';
    let mut i = 0;
    while i < line.len() {
        if !line.get(i).copied().is_some_and(is_head) {
            i += 1;
            continue;
        }
        let mut e = i;
        while line.get(e).copied().is_some_and(is_head) {
            e += 1;
        }
        if line.get(e) == Some(&b' ') {
            let s = e + 1;
            let mut f = s;
            while line.get(f).is_some_and(|&b| !is_space(b)) {
                f += 1;
            }
            let tail = line.get(f..).unwrap_or_default();
            if f > s
                && tail.first() == Some(&b' ')
                && tail.get(1..).is_some_and(|t| t.starts_with(sep))
                && tail.get(1 + sep.len()) == Some(&b' ')
            {
                let id = line.get(s..f).unwrap_or_default();
                return Some((id, tail.get(sep.len() + 2..).unwrap_or_default()));
            }
        }
        i = e;
    }
    None
}

/// Perl's `split(';', $text)`: fields with their byte offsets, trailing
/// empty fields dropped.
fn perl_split_at(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let end = text.iter().rposition(|&b| b != b';').map_or(0, |i| i + 1);
    let body = text.get(..end).filter(|b| !b.is_empty());
    let mut at = 0;
    body.into_iter()
        .flat_map(|b| b.split(|&c| c == b';'))
        .map(move |f| {
            let here = at;
            at += f.len() + 1;
            (here, f)
        })
}

fn perl_split(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    perl_split_at(text).map(|(_, f)| f)
}

/// Maximal runs of `[\w'\-\s]` as `[start, end)`.
fn field_runs(field: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        while i < field.len() && !field.get(i).copied().is_some_and(is_field) {
            i += 1;
        }
        if i >= field.len() {
            return None;
        }
        let start = i;
        while field.get(i).copied().is_some_and(is_field) {
            i += 1;
        }
        Some((start, i))
    })
}

/// The rightmost `k` in `[lo, end)` with a space at `k` and a digit at `k+1`.
fn last_space_digit(field: &[u8], lo: usize, end: usize) -> Option<usize> {
    (lo..end)
        .rev()
        .find(|&k| field.get(k) == Some(&b' ') && field.get(k + 1).is_some_and(u8::is_ascii_digit))
}

/// `[\w'\-\s]+ (\d+)`: the digits of the leftmost match (greedy class, so
/// the last ` digit` of the first run that has one after its first byte).
fn first_count(field: &[u8]) -> Option<&[u8]> {
    field_runs(field)
        .find_map(|(r, e)| last_space_digit(field, r + 1, e))
        .map(|k| digit_run(field, k + 1))
}

/// `(\w[\w'\-\s]+) (\d+)`: the start of the substitute and the position of
/// the space before the count, for the leftmost match.
fn entry(field: &[u8]) -> Option<(usize, usize)> {
    field_runs(field).find_map(|(r, e)| {
        let k = last_space_digit(field, r + 2, e)?;
        let start = (r..=k - 2).find(|&s| field.get(s).copied().is_some_and(is_word))?;
        Some((start, k))
    })
}

fn digit_run(field: &[u8], from: usize) -> &[u8] {
    let tail = field.get(from..).unwrap_or_default();
    let n = tail.iter().take_while(|b| b.is_ascii_digit()).count();
    tail.get(..n).unwrap_or_default()
}

/// Whether a digit string is above 1 (any length: only compared).
fn above_one(digits: &[u8]) -> bool {
    let significant = digits.iter().skip_while(|&&b| b == b'0').count();
    significant > 1 || digits.last().is_some_and(|&d| d > b'1' && significant == 1)
}

fn parse_count(digits: &[u8]) -> Option<i64> {
    digits.iter().try_fold(0i64, |acc, &d| {
        acc.checked_mul(10)?.checked_add(i64::from(d - b'0'))
    })
}

/// 1-based character column of byte `at` (a BOM on line 1 not counted).
fn column(line: &[u8], lineno: usize, at: usize) -> usize {
    let skip = if lineno == 1 && line.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    String::from_utf8_lossy(line.get(skip..at.max(skip)).unwrap_or_default())
        .chars()
        .count()
        + 1
}

/// Perl truthiness of a string: false for `""` and `"0"`.
fn truthy(s: &[u8]) -> bool {
    !(s.is_empty() || s == b"0")
}

fn remove_first_apostrophe(s: &[u8]) -> Vec<u8> {
    let mut v = s.to_vec();
    if let Some(i) = v.iter().position(|&b| b == b'\'') {
        v.remove(i);
    }
    v
}

/// `score.pl`'s `fixmisc`: `non-x`/`non x` → `nonx`, `-` → space, first
/// apostrophe removed.
fn fixmisc(answer: &[u8]) -> Vec<u8> {
    let joined: Vec<u8> = match answer {
        [b'n', b'o', b'n', sep, rest @ ..] if *sep == b'-' || is_space(*sep) => {
            [b"non".as_slice(), rest].concat()
        }
        _ => answer.to_vec(),
    };
    let spaced: Vec<u8> = joined
        .into_iter()
        .map(|b| if b == b'-' { b' ' } else { b })
        .collect();
    remove_first_apostrophe(&spaced)
}

fn has_repeat(answers: &[Vec<u8>]) -> bool {
    let mut seen = HashSet::with_capacity(answers.len());
    answers.iter().any(|a| !seen.insert(a.as_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_pattern_is_leftmost() {
        assert_eq!(
            record(b"side.n 301 :: team 5;", b"::"),
            Some((&b"301"[..], &b"team 5;"[..]))
        );
        // an oot line is not a best line, unless " :: " appears later
        assert_eq!(record(b"x.n 1 ::: a;b", b"::"), None);
        assert_eq!(
            record(b"x.n 1 ::: a;b", b":::"),
            Some((&b"1"[..], &b"a;b"[..]))
        );
        assert_eq!(record(b"x.n 1 :::", b":::"), None); // no space after
        assert_eq!(
            record(b"junk x.n  1 :: y.n 2 :: a", b"::"),
            Some((&b"2"[..], &b"a"[..]))
        );
        assert_eq!(
            record(b"x.n 1 :: a\r", b"::"),
            Some((&b"1"[..], &b"a\r"[..]))
        );
        assert_eq!(
            record(b"\xEF\xBB\xBFx.n 1 :: a", b"::").map(|r| r.0),
            Some(&b"1"[..])
        );
    }

    #[test]
    fn field_patterns_match_perl() {
        // Expected values: perl -e 'print "$1|$2" if $ARGV[0] =~ /(\w[\w\x27-\s]+) (\d+)/' FIELD
        let e = |f: &[u8]| entry(f).map(|(s, k)| (f[s..k].to_vec(), digit_run(f, k + 1).to_vec()));
        assert_eq!(e(b"garden  1"), Some((b"garden ".to_vec(), b"1".to_vec())));
        assert_eq!(
            e(b"11.27 kilograms 1"),
            Some((b"27 kilograms".to_vec(), b"1".to_vec()))
        );
        assert_eq!(e(b"a 1"), None);
        assert_eq!(e(b"a  1"), Some((b"a ".to_vec(), b"1".to_vec())));
        assert_eq!(e(b" 'em 2"), Some((b"em".to_vec(), b"2".to_vec())));
        assert_eq!(e(b"x-y 12x"), Some((b"x-y".to_vec(), b"12".to_vec())));
        assert_eq!(e(b"one 2 3"), Some((b"one 2".to_vec(), b"3".to_vec())));
        assert_eq!(e(b"caf\xc3\xa9 1"), None);
        assert_eq!(first_count(b"11.27 kilograms 3"), Some(&b"3"[..]));
        assert_eq!(first_count(b"a 2"), Some(&b"2"[..]));
        assert_eq!(first_count(b" 2"), None);
        assert!(above_one(b"2") && above_one(b"10") && above_one(b"0010"));
        assert!(!above_one(b"1") && !above_one(b"0") && !above_one(b"001"));
        assert!(above_one(b"99999999999999999999999999"));
    }

    #[test]
    fn split_and_fixmisc_match_perl() {
        let s = |t: &[u8]| perl_split(t).map(<[u8]>::to_vec).collect::<Vec<_>>();
        assert_eq!(s(b"a;;b;;"), [b"a".to_vec(), vec![], b"b".to_vec()]);
        assert_eq!(s(b";a"), [vec![], b"a".to_vec()]);
        assert!(s(b";;").is_empty());
        assert!(s(b"").is_empty());
        assert_eq!(s(b" ; "), [b" ".to_vec(), b" ".to_vec()]);
        assert_eq!(fixmisc(b"non-violent"), b"nonviolent");
        assert_eq!(fixmisc(b"non  violent"), b"non violent");
        assert_eq!(fixmisc(b"none"), b"none");
        assert_eq!(fixmisc(b"rock'n'roll"), b"rockn'roll");
        assert_eq!(fixmisc(b"up-to-date"), b"up to date");
        assert_eq!(fixmisc(b"non-"), b"non");
    }

    /// Perl's backtracking order, spelled out: every start, every length of
    /// the greedy class from longest to shortest.
    fn naive_entry(f: &[u8], first: bool) -> Option<(usize, usize)> {
        let run = |from: usize| {
            f[from.min(f.len())..]
                .iter()
                .take_while(|&&b| is_field(b))
                .count()
        };
        for s in 0..f.len() {
            let (lo, body) = if first {
                (s, run(s))
            } else if is_word(f[s]) {
                (s + 1, run(s + 1))
            } else {
                continue;
            };
            for len in (1..=body).rev() {
                let k = lo + len;
                if f.get(k) == Some(&b' ') && f.get(k + 1).is_some_and(u8::is_ascii_digit) {
                    return Some((s, k));
                }
            }
        }
        None
    }

    fn naive_record<'a>(line: &'a [u8], sep: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
        let head = |b: u8| is_word(b) || b == b'.';
        for s in 0..line.len() {
            let m = line[s..].iter().take_while(|&&b| head(b)).count();
            for len in (1..=m).rev() {
                let e = s + len;
                if line.get(e) != Some(&b' ') {
                    continue;
                }
                let m2 = line[e + 1..].iter().take_while(|&&b| !is_space(b)).count();
                for len2 in (1..=m2).rev() {
                    let f = e + 1 + len2;
                    let want = [b" ".as_slice(), sep, b" "].concat();
                    if line[f..].starts_with(&want) {
                        return Some((&line[e + 1..f], &line[f + want.len()..]));
                    }
                }
            }
        }
        None
    }

    fn bytes() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            proptest::sample::select(b"ab12 .:;'-\t\r_\xc3x0".to_vec()),
            0..40,
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn patterns_agree_with_a_naive_backtracking_matcher(f in bytes()) {
            proptest::prop_assert_eq!(entry(&f), naive_entry(&f, false));
            proptest::prop_assert_eq!(
                first_count(&f),
                naive_entry(&f, true).map(|(_, k)| digit_run(&f, k + 1))
            );
            proptest::prop_assert_eq!(record(&f, b"::"), naive_record(&f, b"::"));
            proptest::prop_assert_eq!(record(&f, b":::"), naive_record(&f, b":::"));
        }

        #[test]
        fn arbitrary_files_never_panic(gold in bytes(), system in bytes(), oot: bool) {
            let gold = [gold.as_slice(), b"\nx.n 1 :: ab 2;cd 1\n"].concat();
            let format = if oot { Format::Oot } else { Format::Best };
            if let Ok(s) = score(&gold[..], &system[..], format) {
                for t in [s.scores, s.mode] {
                    proptest::prop_assert!(t.credit >= 0.0 && t.credit.is_finite());
                    proptest::prop_assert_eq!(t.precision().is_none(), t.attempted == 0);
                }
            }
        }
    }

    #[test]
    fn counts_parse_with_checked_arithmetic() {
        assert_eq!(parse_count(b"007"), Some(7));
        assert_eq!(parse_count(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_count(b"9223372036854775808"), None);
    }
}
