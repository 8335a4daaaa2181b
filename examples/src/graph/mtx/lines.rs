//! The input as counted lines, read with bounded memory.
//!
//! A line is read as bytes, at most [`MAX_LINE`] of them, so that a file without line breaks
//! (a binary file, say) costs an error rather than all of memory; it becomes text only when
//! it is data, so a comment may hold any bytes (some files carry Latin-1 author names) while
//! the banner, size and entries must be UTF-8 (they are ASCII in every valid file).

use std::io::{BufRead, Read};
use std::vec::Vec;

use super::super::error::MtxError;

/// The longest line read, in bytes, line ending excluded: far more than any line of a valid
/// file needs (comments included), small enough to hold at once.
pub const MAX_LINE: usize = 1 << 20;

/// gzip's magic bytes, which start a `.gz` file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Lines of the input, counted.
pub(super) struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    /// The 1-based number of the line last read (the one an error is about); at the end of
    /// the input, one more, for "the line after the last".
    number: usize,
    /// Whether the end of the input has been reached (and counted in `number`).
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    pub(super) fn new(input: R) -> Lines<R> {
        Lines {
            input,
            buf: Vec::new(),
            number: 0,
            ended: false,
        }
    }

    /// The 1-based number of the line last read, or of the line after the last once the
    /// input has ended.
    pub(super) fn number(&self) -> usize {
        self.number
    }

    /// Reads the next line into `buf` and counts it; `false` at the end of the input.
    fn read(&mut self) -> Result<bool, MtxError> {
        self.buf.clear();
        if self.ended {
            return Ok(false);
        }
        self.number += 1;
        // One byte more than the longest line, so that a line ending right at the limit is
        // still told apart from a longer one.
        let mut limited = (&mut self.input).take(MAX_LINE as u64 + 2);
        if limited.read_until(b'\n', &mut self.buf)? == 0 {
            self.ended = true;
            return Ok(false);
        }
        if self.content().len() > MAX_LINE {
            return Err(MtxError::LineTooLong { limit: MAX_LINE });
        }
        Ok(true)
    }

    /// The line last read, without its line ending.
    fn content(&self) -> &[u8] {
        let line = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// The first line, as text: the banner. `None` if the input is empty.
    pub(super) fn first(&mut self) -> Result<Option<&str>, MtxError> {
        if !self.read()? {
            return Ok(None);
        }
        if self.buf.starts_with(&GZIP_MAGIC) {
            return Err(MtxError::Compressed);
        }
        text(self.content()).map(Some)
    }

    /// The next line that is not blank and not a `%` comment, trimmed, as text; `None` at the
    /// end of the input.
    pub(super) fn next_data(&mut self) -> Result<Option<&str>, MtxError> {
        loop {
            if !self.read()? {
                return Ok(None);
            }
            let line = self.buf.trim_ascii();
            if !line.is_empty() && !line.starts_with(b"%") {
                // Borrow again: returning `line` from inside the loop would hold `buf`
                // across iterations.
                return text(self.content()).map(Some);
            }
        }
    }
}

/// A line as trimmed text, or the error naming its first byte that is not UTF-8 (counted in
/// the line as it stands, before trimming).
fn text(line: &[u8]) -> Result<&str, MtxError> {
    match core::str::from_utf8(line) {
        Ok(text) => Ok(text.trim_ascii()),
        Err(e) => Err(MtxError::NotUtf8 {
            column: e.valid_up_to() + 1,
        }),
    }
}

/// The line of each entry read, kept compactly: entries on consecutive lines share one
/// record, so only comment or blank lines among the entries cost memory.
#[derive(Default)]
pub(super) struct EntryLines {
    /// `(entry index, its line)` for each entry not on the line after the previous entry's.
    runs: Vec<(usize, usize)>,
    /// Entries recorded.
    len: usize,
}

impl EntryLines {
    /// Records that the next entry is on line `line`.
    pub(super) fn push(&mut self, line: usize) {
        if self.len == 0 || self.line_of(self.len - 1) + 1 != line {
            self.runs.push((self.len, line));
        }
        self.len += 1;
    }

    /// The line of entry `index` (0-based, below the number recorded).
    pub(super) fn line_of(&self, index: usize) -> usize {
        let run = self.runs.partition_point(|&(first, _)| first <= index);
        match run.checked_sub(1).map(|r| self.runs[r]) {
            Some((first, line)) => line + (index - first),
            None => 0,
        }
    }
}
