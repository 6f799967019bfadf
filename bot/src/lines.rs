//! Lines from a person or a program, read with bounded memory: a line longer than [`MAX_LINE_BYTES`] is
//! consumed and reported without being held, and bytes that are not UTF-8 are reported instead of ending the
//! session, so that the front ends can answer either with an error and go on.

use std::io::{self, BufRead};

/// The longest line kept: far beyond any real command (a `position` line of a 300-ply game is a few KB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// A line of this many bytes (more than the limit), skipped.
    TooLong(usize),
    /// A line whose byte at `offset` does not start a valid UTF-8 character.
    NotUtf8 {
        offset: usize,
    },
}

/// Why a line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line of {0} bytes skipped: longer than the limit of {MAX_LINE_BYTES}")]
    TooLong(usize),
    #[error("line is not UTF-8 text (bad byte at offset {offset})")]
    NotUtf8 { offset: usize },
}

impl Line {
    /// The text, or why the line was refused.
    pub fn text(self) -> Result<String, LineError> {
        match self {
            Line::Text(text) => Ok(text),
            Line::TooLong(bytes) => Err(LineError::TooLong(bytes)),
            Line::NotUtf8 { offset } => Err(LineError::NotUtf8 { offset }),
        }
    }
}

/// Reads lines of at most `limit` bytes each.
pub struct Lines<R> {
    input: R,
    limit: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R) -> Self {
        Lines::with_limit(input, MAX_LINE_BYTES)
    }

    pub fn with_limit(input: R, limit: usize) -> Self {
        Lines {
            input,
            limit,
            buffer: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of input. Only I/O failures are errors.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buffer.clear();
        let mut length = 0;
        let mut ended = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let (taken, found_end) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let room = (self.limit + 1).saturating_sub(self.buffer.len());
            self.buffer.extend_from_slice(&available[..taken.min(room)]);
            length += taken;
            self.input.consume(taken);
            if found_end {
                ended = true;
                break;
            }
        }
        if length == 0 {
            return Ok(None);
        }
        if ended {
            length -= 1;
            self.buffer.truncate(length.min(self.buffer.len()));
        }
        if length > 0 && self.buffer.get(length - 1) == Some(&b'\r') {
            length -= 1;
            self.buffer.truncate(length);
        }
        if length > self.limit {
            return Ok(Some(Line::TooLong(length)));
        }
        Ok(Some(match std::str::from_utf8(&self.buffer) {
            Ok(text) => Line::Text(text.to_string()),
            Err(e) => Line::NotUtf8 {
                offset: e.valid_up_to(),
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], limit: usize) -> Vec<Line> {
        // A reader that hands out 3 bytes at a time, so lines straddle its buffer.
        let reader = io::BufReader::with_capacity(3, input);
        let mut lines = Lines::with_limit(reader, limit);
        std::iter::from_fn(|| lines.next_line().unwrap()).collect()
    }

    #[test]
    fn lines_are_split_at_newlines_with_or_without_a_carriage_return() {
        assert_eq!(
            all(b"go\r\n\nisready\nlast", 16),
            [
                Line::Text("go".into()),
                Line::Text(String::new()),
                Line::Text("isready".into()),
                Line::Text("last".into())
            ]
        );
    }

    #[test]
    fn a_long_line_is_skipped_whole_and_the_next_one_read() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(all(&input, 16), [Line::TooLong(50), Line::Text("ok".into())]);
        // Exactly at the limit is kept.
        assert_eq!(all(b"0123456789abcdef\n", 16), [Line::Text("0123456789abcdef".into())]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_reported_with_their_offset() {
        assert_eq!(
            all(b"go \xff\nquit\n", 16),
            [Line::NotUtf8 { offset: 3 }, Line::Text("quit".into())]
        );
        assert!(
            Line::NotUtf8 { offset: 3 }
                .text()
                .unwrap_err()
                .to_string()
                .contains("offset 3")
        );
    }
}
