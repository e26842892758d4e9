//! The text readers (word2vec/fastText `.vec` and GloVe): a line scanner
//! over `BufRead` that hands complete lines to a callback without copying
//! them (only a line that straddles two buffer fills is copied), and the row
//! parser.

use std::io::BufRead;
use std::str::FromStr;

use super::Component;
use super::error::{EmbeddingError, VectorProblem};
use super::read::{Decision, MAX_RESERVE, ReadOptions, Selector, parse_header, strip_bom};
use super::store::Vectors;

/// Whether the scan goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Stop,
}

/// Calls `on_line(number, bytes)` for every line (without its `\n`; 1-based
/// numbers; a UTF-8 byte-order mark is removed from line 1). Returns the
/// number of the last line seen.
pub(crate) fn scan_lines<R, G>(mut reader: R, mut on_line: G) -> Result<usize, EmbeddingError>
where
    R: BufRead,
    G: FnMut(usize, &[u8]) -> Result<Flow, EmbeddingError>,
{
    let mut line = 0usize;
    let mut partial: Vec<u8> = Vec::new();
    let mut call = |line: usize, bytes: &[u8]| {
        let bytes = if line == 1 { strip_bom(bytes) } else { bytes };
        on_line(line, bytes)
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(EmbeddingError::io(format!("line {}", line + 1), &e)),
        };
        if buf.is_empty() {
            return Ok(line);
        }
        let len = buf.len();
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', buf) {
            line += 1;
            let flow = call(line, &buf[start..end])?;
            start = end + 1;
            if flow == Flow::Stop {
                reader.consume(start);
                return Ok(line);
            }
        }
        if start == len {
            reader.consume(len);
            continue;
        }
        // A line continues past this buffer: copy its start, read the rest.
        partial.clear();
        partial.extend_from_slice(&buf[start..]);
        reader.consume(len);
        reader
            .read_until(b'\n', &mut partial)
            .map_err(|e| EmbeddingError::io(format!("line {}", line + 1), &e))?;
        line += 1;
        let body = partial.strip_suffix(b"\n").unwrap_or(&partial);
        if call(line, body)? == Flow::Stop {
            return Ok(line);
        }
    }
}

/// Parses a row `word v₁ … v_dim` into `values`; returns the word.
fn parse_row<'a, F: FromStr>(
    bytes: &'a [u8],
    dim: usize,
    values: &mut Vec<F>,
) -> Result<&'a str, VectorProblem> {
    let text = core::str::from_utf8(bytes).map_err(|_| VectorProblem::InvalidUtf8)?;
    let mut fields = text.split_ascii_whitespace();
    let word = fields.next().ok_or(VectorProblem::EmptyWord)?;
    values.clear();
    for (k, field) in fields.enumerate() {
        if values.len() == dim {
            return Err(VectorProblem::WrongDimension {
                expected: dim,
                found: dim + 1 + text.split_ascii_whitespace().skip(2 + k).count(),
            });
        }
        let v: F = field
            .parse()
            .map_err(|_| VectorProblem::InvalidValue { column: k + 1 })?;
        values.push(v);
    }
    if values.len() != dim {
        return Err(VectorProblem::WrongDimension {
            expected: dim,
            found: values.len(),
        });
    }
    Ok(word)
}

/// The word of a row: the bytes before the first ASCII whitespace (space,
/// tab, CR, form feed, as `split_ascii_whitespace`), after leading
/// whitespace; `None` for a blank line.
#[inline]
fn row_word(line: &[u8]) -> Option<&[u8]> {
    let t = line.trim_ascii_start();
    if t.is_empty() {
        return None;
    }
    let end = memchr::memchr3(b' ', b'\t', b'\r', t).unwrap_or(t.len());
    let end = memchr::memchr(0x0c, &t[..end]).unwrap_or(end);
    Some(&t[..end])
}

/// The word2vec text (`header = true`) and GloVe (`header = false`) readers.
pub(crate) fn read_text<F: Component, R: BufRead>(
    reader: R,
    header: bool,
    options: &ReadOptions,
) -> Result<Vectors<F>, EmbeddingError> {
    let mut select = Selector::new(options);
    let mut out: Option<Vectors<F>> = None;
    let mut count: Option<usize> = None;
    let mut values: Vec<F> = Vec::new();
    let last = scan_lines(reader, |line, bytes| {
        let err = |problem| EmbeddingError::Line { line, problem };
        if header && line == 1 {
            core::str::from_utf8(bytes).map_err(|_| err(VectorProblem::InvalidUtf8))?;
            let (n, dim) = parse_header(bytes).ok_or(err(VectorProblem::BadHeader))?;
            let mut store = options.store::<F>(dim).map_err(err)?;
            store.reserve(select.capacity(n).min(MAX_RESERVE / dim));
            values.reserve(dim.min(MAX_RESERVE));
            out = Some(store);
            count = Some(n);
            return Ok(Flow::Continue);
        }
        let Some(word) = row_word(bytes) else {
            return Ok(Flow::Continue); // blank line
        };
        let store = match &mut out {
            Some(store) => store,
            None => {
                // GloVe: the dimension is that of the first row.
                let text =
                    core::str::from_utf8(bytes).map_err(|_| err(VectorProblem::InvalidUtf8))?;
                let dim = text.split_ascii_whitespace().count() - 1;
                out.insert(options.store::<F>(dim).map_err(err)?)
            }
        };
        let decision = select.decide(word);
        if let Some(n) = count
            && select.rows > n
        {
            return Err(err(VectorProblem::TooManyVectors { expected: n }));
        }
        match decision {
            Decision::Stop => return Ok(Flow::Stop),
            Decision::Skip => {}
            Decision::Parse => {
                let word = parse_row(bytes, store.dim(), &mut values).map_err(err)?;
                select.store(store, word, &values).map_err(err)?;
            }
        }
        Ok(Flow::Continue)
    })?;
    let Some(out) = out else {
        let problem = if header {
            VectorProblem::MissingHeader
        } else {
            VectorProblem::NoRows
        };
        return Err(EmbeddingError::Line { line: 1, problem });
    };
    if let Some(n) = count
        && options.whole_file()
        && select.rows != n
    {
        return Err(EmbeddingError::Line {
            line: last.max(1),
            problem: VectorProblem::TooFewVectors {
                expected: n,
                found: select.rows,
            },
        });
    }
    Ok(out)
}
