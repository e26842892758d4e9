//! The word2vec binary reader: a text header, then per row the word, one
//! space and 4·dim bytes of little-endian f32, with an optional newline.

use std::io::BufRead;

use num_traits::Float;

use super::Component;
use super::error::{EmbeddingError, VectorProblem};
use super::read::{Decision, MAX_RESERVE, ReadOptions, Selector, parse_header, strip_bom};
use super::store::Vectors;

/// The longest header line accepted, in bytes.
const MAX_HEADER: usize = 4096;

/// The longest word accepted, in bytes: a file whose "word" runs on longer
/// has no space where a row should start, so it is not in this format.
pub(crate) const MAX_WORD: usize = 1 << 16;

/// A `BufRead` that counts the bytes consumed.
struct Counted<R> {
    inner: R,
    offset: u64,
}

impl<R: BufRead> Counted<R> {
    fn fill(&mut self) -> Result<&[u8], EmbeddingError> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(EmbeddingError::io(format!("byte {}", self.offset), &e)),
            }
        }
        self.inner
            .fill_buf()
            .map_err(|e| EmbeddingError::io(format!("byte {}", self.offset), &e))
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.offset += n as u64;
    }

    /// Skips newlines; whether anything follows.
    fn skip_newlines(&mut self) -> Result<bool, EmbeddingError> {
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let n = buf.iter().take_while(|&&b| b == b'\n').count();
            let more = n < buf.len();
            self.consume(n);
            if more {
                return Ok(true);
            }
        }
    }
}

/// Reads a word2vec binary file with `options`.
pub(crate) fn read_binary<F: Component, R: BufRead>(
    reader: R,
    options: &ReadOptions,
) -> Result<Vectors<F>, EmbeddingError> {
    let mut input = Counted {
        inner: reader,
        offset: 0,
    };
    let header_err = |problem| EmbeddingError::Line { line: 1, problem };
    let mut head = Vec::new();
    loop {
        let buf = input.fill()?;
        if buf.is_empty() {
            break;
        }
        if let Some(i) = memchr::memchr(b'\n', buf) {
            head.extend_from_slice(&buf[..i]);
            input.consume(i + 1);
            break;
        }
        head.extend_from_slice(buf);
        let n = buf.len();
        input.consume(n);
        if head.len() > MAX_HEADER {
            return Err(header_err(VectorProblem::BadHeader));
        }
    }
    if head.len() > MAX_HEADER {
        return Err(header_err(VectorProblem::BadHeader));
    }
    if input.offset == 0 {
        return Err(header_err(VectorProblem::MissingHeader));
    }
    let head = strip_bom(&head);
    core::str::from_utf8(head).map_err(|_| header_err(VectorProblem::InvalidUtf8))?;
    let (count, dim) = parse_header(head).ok_or(header_err(VectorProblem::BadHeader))?;
    let mut out = options.store::<F>(dim).map_err(header_err)?;
    let row_bytes = dim
        .checked_mul(4)
        .ok_or(header_err(VectorProblem::TooLarge))?;
    let mut select = Selector::new(options);
    out.reserve(select.capacity(count).min(MAX_RESERVE / dim));
    let mut word: Vec<u8> = Vec::new();
    let mut values: Vec<F> = Vec::new();
    for row in 1..=count {
        if select.exhausted() {
            return Ok(out);
        }
        input.skip_newlines()?;
        let start = input.offset;
        let err = |problem| EmbeddingError::Binary {
            row,
            offset: start,
            problem,
        };
        word.clear();
        loop {
            let buf = input.fill()?;
            if buf.is_empty() {
                return Err(err(if word.is_empty() {
                    VectorProblem::TooFewVectors {
                        expected: count,
                        found: row - 1,
                    }
                } else {
                    VectorProblem::Truncated
                }));
            }
            let (take, done) = match memchr::memchr(b' ', buf) {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            word.extend_from_slice(&buf[..take]);
            input.consume(take + usize::from(done));
            if word.len() > MAX_WORD {
                return Err(err(VectorProblem::WordTooLong { max: MAX_WORD }));
            }
            if done {
                break;
            }
        }
        if word.is_empty() {
            return Err(err(VectorProblem::EmptyWord));
        }
        match select.decide(&word) {
            Decision::Stop => return Ok(out),
            Decision::Skip => {
                let mut need = row_bytes;
                while need > 0 {
                    let buf = input.fill()?;
                    if buf.is_empty() {
                        return Err(err(VectorProblem::Truncated));
                    }
                    let take = need.min(buf.len());
                    input.consume(take);
                    need -= take;
                }
            }
            Decision::Parse => {
                read_floats(&mut input, row_bytes, &mut values).map_err(|e| match e {
                    Some(io) => io,
                    None => err(VectorProblem::Truncated),
                })?;
                let text =
                    core::str::from_utf8(&word).map_err(|_| err(VectorProblem::InvalidUtf8))?;
                if text.bytes().any(|b| b.is_ascii_whitespace()) {
                    return Err(err(VectorProblem::WhitespaceInWord));
                }
                select.store(&mut out, text, &values).map_err(err)?;
            }
        }
    }
    if options.whole_file() && input.skip_newlines()? {
        return Err(EmbeddingError::Binary {
            row: count.saturating_add(1),
            offset: input.offset,
            problem: VectorProblem::TooManyVectors { expected: count },
        });
    }
    Ok(out)
}

/// Reads `bytes` bytes of little-endian f32 into `values` as `F`; `Err(None)`
/// if the input ends first. Memory grows with the data actually read.
fn read_floats<F: Float, R: BufRead>(
    input: &mut Counted<R>,
    bytes: usize,
    values: &mut Vec<F>,
) -> Result<(), Option<EmbeddingError>> {
    let convert = |b: [u8; 4]| {
        let x = f32::from_le_bytes(b);
        <F as num_traits::NumCast>::from(x).unwrap_or_else(F::nan)
    };
    values.clear();
    let mut need = bytes;
    let mut carry = [0u8; 4];
    let mut held = 0usize;
    while need > 0 {
        let buf = input.fill().map_err(Some)?;
        if buf.is_empty() {
            return Err(None);
        }
        let take = need.min(buf.len());
        let mut chunk = &buf[..take];
        while held > 0 && !chunk.is_empty() {
            carry[held] = chunk[0];
            held += 1;
            chunk = &chunk[1..];
            if held == 4 {
                values.push(convert(carry));
                held = 0;
            }
        }
        let (words, rest) = chunk.as_chunks::<4>();
        values.extend(words.iter().map(|w| convert(*w)));
        for &b in rest {
            carry[held] = b;
            held += 1;
        }
        input.consume(take);
        need -= take;
    }
    Ok(())
}
