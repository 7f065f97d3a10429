//! Splitting the manager's byte stream into text lines.
//!
//! Managers end lines with LF, CRLF or a lone CR, and may send anything at all: NUL bytes,
//! invalid UTF-8, megabytes without a newline. We split on either `\r` or `\n` (so a
//! lone-CR manager is answered at once instead of when the next `\n` arrives), keep at
//! most `MAX_LINE_BYTES` of a line, and decode lossily. Blank lines are returned as empty
//! strings; the parser ignores them.

use std::io::{self, BufRead};

/// Longest line we keep. Real commands are a few dozen bytes; the rest of a longer line is
/// dropped so a runaway manager cannot make us allocate without bound.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

pub struct LineReader<R> {
    input: R,
    /// The previous line ended with `\r`; a following `\n` belongs to it (CRLF).
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            after_cr: false,
        }
    }

    /// The next line, trimmed of surrounding whitespace, or `None` at end of input.
    /// Text after the last line terminator counts as a line.
    pub fn next_line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        let mut saw_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(saw_any.then(|| decode(&bytes)));
            }
            if self.after_cr && chunk[0] == b'\n' {
                self.after_cr = false;
                self.input.consume(1);
                continue;
            }
            self.after_cr = false;
            saw_any = true;
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    keep_bounded(&mut bytes, &chunk[..end]);
                    self.after_cr = chunk[end] == b'\r';
                    self.input.consume(end + 1);
                    return Ok(Some(decode(&bytes)));
                }
                None => {
                    let len = chunk.len();
                    keep_bounded(&mut bytes, chunk);
                    self.input.consume(len);
                }
            }
        }
    }
}

fn keep_bounded(line: &mut Vec<u8>, more: &[u8]) {
    let room = MAX_LINE_BYTES.saturating_sub(line.len());
    line.extend_from_slice(&more[..more.len().min(room)]);
}

fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn all_lines(input: &[u8]) -> Vec<String> {
        // A tiny buffer makes terminators fall on chunk boundaries too.
        let mut r = LineReader::new(BufReader::with_capacity(3, Cursor::new(input.to_vec())));
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn splits_lf_crlf_and_lone_cr() {
        assert_eq!(all_lines(b"A\nB\r\nC\rD"), vec!["A", "B", "C", "D"]);
    }

    #[test]
    fn crlf_does_not_make_an_extra_blank_line() {
        assert_eq!(all_lines(b"A\r\n\r\nB\r\n"), vec!["A", "", "B"]);
    }

    #[test]
    fn trims_whitespace_and_keeps_blank_lines_as_empty() {
        assert_eq!(all_lines(b"  TURN 1,2 \t\n\n"), vec!["TURN 1,2", ""]);
    }

    #[test]
    fn invalid_utf8_and_nul_are_decoded_lossily() {
        let lines = all_lines(b"AB\xff\xfeC\n\0X\n");
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("AB") && lines[0].ends_with('C'));
        assert_eq!(lines[1], "\0X");
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_survives() {
        let mut input = vec![b'x'; MAX_LINE_BYTES * 2];
        input.extend_from_slice(b"\nABOUT\n");
        let lines = all_lines(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE_BYTES);
        assert_eq!(lines[1], "ABOUT");
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(all_lines(b"").is_empty());
    }
}
