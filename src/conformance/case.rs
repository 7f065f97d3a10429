//! Parser for the case files in `protocol-tests/cases/`.
//!
//! A file holds one or more cases. `# name: X` starts a case; the header lines
//! `# timeout_ms:`, `# optional:` and `# skip_if:` set its options; other `#` lines and
//! blank lines are comments. Every other line is one step (see [`StepKind`]).

use super::pattern::{parse_move, unescape, Glob, Square};

/// Default wait for one expectation when a case sets no `# timeout_ms:`.
pub const DEFAULT_TIMEOUT_MS: u64 = 3000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    /// `file:line` of the `# name:` header, for error messages.
    pub origin: String,
    /// Default wait for each expectation; `timeout N` changes it mid-case.
    pub timeout_ms: u64,
    /// Why the case is optional; `None` = required by the protocol.
    pub optional: Option<String>,
    /// Tags; the case is skipped when the run excludes any of them (`--skip TAG`).
    pub skip_if: Vec<String>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Line number in the case file.
    pub line: usize,
    /// The step as written, for failure messages.
    pub text: String,
    pub kind: StepKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `send TEXT`: TEXT plus `\n`. `$FREE`, `$BRAIN`, `$MINE`, `$TAKEN_BRAIN` are expanded.
    Send(String),
    /// `send_raw TEXT`: exact bytes after escapes (`\r \n \t \0 \\ \xNN`), no newline added.
    SendRaw(Vec<u8>),
    /// `send_long N PREFIX`: PREFIX padded with `a` to N bytes, plus `\n`.
    SendLong { len: usize, prefix: String },
    /// `expect TEXT`: the next line is exactly TEXT.
    Expect(String),
    /// `expect_prefix TEXT`: the next line starts with TEXT.
    ExpectPrefix(String),
    /// `expect_match GLOB`: the next line matches the glob (`*`, `?`, `a|b`).
    ExpectMatch(Glob),
    /// `expect_move`: after any ignored chatter, a legal `x,y` move.
    ExpectMove,
    /// `expect_one_of M...`: a legal move among the listed squares.
    ExpectOneOf(Vec<Square>),
    /// `expect_move_not M...`: a legal move that is none of the listed squares.
    ExpectMoveNot(Vec<Square>),
    /// `expect_moves N... [SWAP]`: one line of N space-separated legal moves (any listed
    /// N), or `SWAP` if allowed. For SWAP2BOARD.
    ExpectMoves { counts: Vec<usize>, swap: bool },
    /// `expect_move_or_error`: a legal move or a line starting with `ERROR`.
    ExpectMoveOrError,
    /// `expect_about KEY...`: an ABOUT line (`key="value", ...`) with these keys.
    ExpectAbout(Vec<String>),
    /// `allow_reply MS GLOB`: within MS ms either nothing or one line matching GLOB.
    AllowReply { ms: u64, glob: Glob },
    /// `expect_silence MS`: no output (and no exit) for MS ms.
    ExpectSilence(u64),
    /// `expect_exit MS`: the process exits within MS ms, printing nothing more.
    ExpectExit(u64),
    /// `drain MS`: read and ignore whatever comes for MS ms (the brain must not exit).
    Drain(u64),
    /// `close_stdin`: end of input.
    CloseStdin,
    /// `sleep MS`.
    Sleep(u64),
    /// `timeout MS`: the wait for the following expectations.
    Timeout(u64),
    /// `ignore PREFIX...`: line prefixes skipped while waiting for a move (default
    /// `MESSAGE DEBUG`); `ignore` alone skips nothing.
    Ignore(Vec<String>),
}

/// Parses one case file. `file` is only used in messages.
pub fn parse_cases(text: &str, file: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim_end();
        let at = || format!("{file}:{line_no}");
        if line.trim().is_empty() {
            continue;
        }
        if let Some(comment) = line.trim_start().strip_prefix('#') {
            if let Some((key, value)) = header(comment) {
                apply_header(&mut cases, key, value, at())?;
            }
            continue;
        }
        let case = cases
            .last_mut()
            .ok_or_else(|| format!("{}: step before the first `# name:`", at()))?;
        let kind = parse_step(line.trim_start()).map_err(|e| format!("{}: {e}", at()))?;
        case.steps.push(Step {
            line: line_no,
            text: line.trim_start().to_string(),
            kind,
        });
    }
    if let Some(empty) = cases.iter().find(|c| c.steps.is_empty()) {
        return Err(format!(
            "{}: case `{}` has no steps",
            empty.origin, empty.name
        ));
    }
    Ok(cases)
}

const HEADER_KEYS: [&str; 4] = ["name", "timeout_ms", "optional", "skip_if"];

/// `# key: value` with a known key; any other comment is just a comment.
fn header(comment: &str) -> Option<(&str, &str)> {
    let (key, value) = comment.split_once(':')?;
    let key = key.trim();
    HEADER_KEYS.contains(&key).then_some((key, value.trim()))
}

fn apply_header(cases: &mut Vec<Case>, key: &str, value: &str, at: String) -> Result<(), String> {
    if key == "name" {
        if value.is_empty() || value.contains(char::is_whitespace) {
            return Err(format!("{at}: case name must be one word, got `{value}`"));
        }
        cases.push(Case {
            name: value.to_string(),
            origin: at,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            optional: None,
            skip_if: Vec::new(),
            steps: Vec::new(),
        });
        return Ok(());
    }
    let case = cases
        .last_mut()
        .ok_or_else(|| format!("{at}: `# {key}:` before the first `# name:`"))?;
    match key {
        "timeout_ms" => case.timeout_ms = parse_ms(value).map_err(|e| format!("{at}: {e}"))?,
        "optional" => case.optional = Some(value.to_string()),
        _ => {
            case.skip_if = value
                .split([',', ' '])
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect()
        }
    }
    Ok(())
}

fn parse_step(line: &str) -> Result<StepKind, String> {
    // `send_raw` keeps everything after the single separator, leading spaces included.
    let (word, raw_arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let arg = raw_arg.trim_start();
    let words: Vec<&str> = arg.split_whitespace().collect();
    let kind = match word {
        "send" => StepKind::Send(arg.to_string()),
        "send_raw" => StepKind::SendRaw(unescape(raw_arg)?),
        "send_long" => parse_send_long(arg)?,
        "expect" => StepKind::Expect(non_empty(arg, word)?.to_string()),
        "expect_prefix" => StepKind::ExpectPrefix(non_empty(arg, word)?.to_string()),
        "expect_match" => StepKind::ExpectMatch(Glob::new(non_empty(arg, word)?)),
        "expect_move" => no_args(&words, word, StepKind::ExpectMove)?,
        "expect_one_of" => StepKind::ExpectOneOf(parse_squares(&words, word)?),
        "expect_move_not" => StepKind::ExpectMoveNot(parse_squares(&words, word)?),
        "expect_moves" => parse_expect_moves(&words)?,
        "expect_move_or_error" => no_args(&words, word, StepKind::ExpectMoveOrError)?,
        "expect_about" => StepKind::ExpectAbout(words.iter().map(|w| w.to_string()).collect()),
        "allow_reply" => parse_allow_reply(arg)?,
        "expect_silence" => StepKind::ExpectSilence(parse_ms(arg)?),
        "expect_exit" => StepKind::ExpectExit(parse_ms(arg)?),
        "drain" => StepKind::Drain(parse_ms(arg)?),
        "close_stdin" => no_args(&words, word, StepKind::CloseStdin)?,
        "sleep" => StepKind::Sleep(parse_ms(arg)?),
        "timeout" => StepKind::Timeout(parse_ms(arg)?),
        "ignore" => StepKind::Ignore(words.iter().map(|w| w.to_string()).collect()),
        _ => return Err(format!("unknown step `{word}`")),
    };
    Ok(kind)
}

fn non_empty<'a>(arg: &'a str, word: &str) -> Result<&'a str, String> {
    if arg.is_empty() {
        Err(format!("`{word}` needs an argument"))
    } else {
        Ok(arg)
    }
}

fn no_args(words: &[&str], word: &str, kind: StepKind) -> Result<StepKind, String> {
    if words.is_empty() {
        Ok(kind)
    } else {
        Err(format!("`{word}` takes no arguments"))
    }
}

fn parse_ms(arg: &str) -> Result<u64, String> {
    arg.trim()
        .parse()
        .map_err(|_| format!("expected milliseconds, got `{arg}`"))
}

fn parse_squares(words: &[&str], word: &str) -> Result<Vec<Square>, String> {
    if words.is_empty() {
        return Err(format!("`{word}` needs at least one square"));
    }
    words
        .iter()
        .map(|w| parse_move(w).ok_or_else(|| format!("`{w}` is not a square `x,y`")))
        .collect()
}

fn parse_send_long(arg: &str) -> Result<StepKind, String> {
    let (len, prefix) = arg.split_once(' ').unwrap_or((arg, ""));
    let len: usize = len
        .parse()
        .map_err(|_| format!("send_long needs a byte count, got `{len}`"))?;
    Ok(StepKind::SendLong {
        len,
        prefix: prefix.to_string(),
    })
}

fn parse_expect_moves(words: &[&str]) -> Result<StepKind, String> {
    let mut counts = Vec::new();
    let mut swap = false;
    for w in words {
        if w.eq_ignore_ascii_case("SWAP") {
            swap = true;
        } else {
            counts.push(
                w.parse()
                    .map_err(|_| format!("expect_moves: `{w}` is not a count or SWAP"))?,
            );
        }
    }
    if counts.is_empty() && !swap {
        return Err("expect_moves needs counts and/or SWAP".to_string());
    }
    Ok(StepKind::ExpectMoves { counts, swap })
}

fn parse_allow_reply(arg: &str) -> Result<StepKind, String> {
    let (ms, glob) = arg.split_once(' ').ok_or("allow_reply needs `MS GLOB`")?;
    Ok(StepKind::AllowReply {
        ms: parse_ms(ms)?,
        glob: Glob::new(glob.trim()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# Start-up cases.
# name: start_ok
# timeout_ms: 500
send START 15
expect OK

# name: crlf
# optional: extension
# skip_if: renju, caro
send_raw START 15\\r\\n
expect_one_of 6,7 11,7
expect_moves 1 2 swap
allow_reply 300 UNKNOWN*|ERROR*
send_long 100 INFO folder x
";

    #[test]
    fn parses_headers_and_steps() {
        let cases = parse_cases(SAMPLE, "t.case").unwrap();
        assert_eq!(cases.len(), 2);
        let first = &cases[0];
        assert_eq!(first.name, "start_ok");
        assert_eq!(first.origin, "t.case:2");
        assert_eq!(first.timeout_ms, 500);
        assert_eq!(first.optional, None);
        assert_eq!(first.steps[0].kind, StepKind::Send("START 15".into()));
        assert_eq!(first.steps[0].line, 4);
        assert_eq!(first.steps[1].kind, StepKind::Expect("OK".into()));

        let second = &cases[1];
        assert_eq!(second.timeout_ms, DEFAULT_TIMEOUT_MS);
        assert_eq!(second.optional.as_deref(), Some("extension"));
        assert_eq!(second.skip_if, ["renju", "caro"]);
        assert_eq!(
            second.steps[0].kind,
            StepKind::SendRaw(b"START 15\r\n".to_vec())
        );
        assert_eq!(
            second.steps[1].kind,
            StepKind::ExpectOneOf(vec![(6, 7), (11, 7)])
        );
        assert_eq!(
            second.steps[2].kind,
            StepKind::ExpectMoves {
                counts: vec![1, 2],
                swap: true
            }
        );
        assert_eq!(
            second.steps[3].kind,
            StepKind::AllowReply {
                ms: 300,
                glob: Glob::new("UNKNOWN*|ERROR*")
            }
        );
        assert_eq!(
            second.steps[4].kind,
            StepKind::SendLong {
                len: 100,
                prefix: "INFO folder x".into()
            }
        );
    }

    #[test]
    fn plain_comments_with_colons_are_not_headers() {
        let cases = parse_cases("# name: a\n# Note: this is fine\nsend X\n", "f").unwrap();
        assert_eq!(cases[0].steps.len(), 1);
    }

    #[test]
    fn send_keeps_inner_spacing_and_trims_the_line_end() {
        let cases = parse_cases("# name: a\nsend INFO folder C:\\a  b  \n", "f").unwrap();
        assert_eq!(
            cases[0].steps[0].kind,
            StepKind::Send("INFO folder C:\\a  b".into())
        );
    }

    #[test]
    fn send_raw_keeps_leading_spaces() {
        let cases = parse_cases("# name: a\nsend_raw   X\\n\n", "f").unwrap();
        assert_eq!(cases[0].steps[0].kind, StepKind::SendRaw(b"  X\n".to_vec()));
    }

    #[test]
    fn reports_errors_with_file_and_line() {
        let err = parse_cases("# name: a\nsend X\nexpect_mov\n", "f.case").unwrap_err();
        assert_eq!(err, "f.case:3: unknown step `expect_mov`");
        let err = parse_cases("send X\n", "f.case").unwrap_err();
        assert!(err.contains("before the first"), "{err}");
        let err = parse_cases("# name: a\nexpect_one_of 7;7\n", "f").unwrap_err();
        assert!(err.contains("not a square"), "{err}");
        let err = parse_cases("# name: a\nexpect_move 7,7\n", "f").unwrap_err();
        assert!(err.contains("no arguments"), "{err}");
        let err = parse_cases("# name: a\nsleep soon\n", "f").unwrap_err();
        assert!(err.contains("milliseconds"), "{err}");
        let err = parse_cases("# name: a\n# name: b\nsend X\n", "f").unwrap_err();
        assert!(err.contains("`a` has no steps"), "{err}");
        let err = parse_cases("# name: two words\n", "f").unwrap_err();
        assert!(err.contains("one word"), "{err}");
        let err = parse_cases("# name: a\nsend_raw \\q\n", "f").unwrap_err();
        assert!(err.contains("unknown escape"), "{err}");
    }
}
