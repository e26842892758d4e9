//! The numbered lines of a text file, as the line-oriented readers of the
//! crate (triplet datasets, word-pair benchmarks) take them.

use std::io::{self, BufRead};

/// Reads a file line by line into one buffer: each line with its 1-based
/// number and its line ending, the UTF-8 byte-order mark of the first line
/// dropped.
#[derive(Debug)]
pub(crate) struct NumberedLines<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
}

/// A read error and the 1-based number of the line being read.
#[derive(Debug)]
pub(crate) struct ReadFailure {
    pub(crate) line: usize,
    pub(crate) error: io::Error,
}

impl<R: BufRead> NumberedLines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::new(),
            line: 0,
        }
    }

    /// The next line and its number (`None` at the end of the file).
    ///
    /// # Errors
    /// The read error, with the number of the line being read.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, ReadFailure> {
        self.buf.clear();
        self.line += 1;
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) => Ok(None),
            Ok(_) => {
                let bytes = if self.line == 1 {
                    self.buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&self.buf)
                } else {
                    &self.buf
                };
                Ok(Some((self.line, bytes)))
            }
            Err(error) => Err(ReadFailure {
                line: self.line,
                error,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_keeps_endings_and_drops_the_first_bom() {
        let text = b"\xEF\xBB\xBFa\r\n\xEF\xBB\xBFb\nc";
        let mut lines = NumberedLines::new(&text[..]);
        let mut got = Vec::new();
        while let Some((n, bytes)) = lines.next_line().unwrap() {
            got.push((n, bytes.to_vec()));
        }
        assert_eq!(
            got,
            [
                (1, b"a\r\n".to_vec()),
                (2, b"\xEF\xBB\xBFb\n".to_vec()),
                (3, b"c".to_vec())
            ]
        );
    }
}
