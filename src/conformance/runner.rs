//! Runs cases against a brain command: one fresh process per case, every wait bounded,
//! a transcript of what was sent and received, and a verdict per case.

use super::case::{Case, Step, StepKind};
use super::pattern::{parse_about, parse_move, Glob, Square};
use super::tracker::Tracker;
use crate::driver::{Brain, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Line prefixes skipped while waiting for a move, unless a case says otherwise.
/// Protocol §7: MESSAGE/DEBUG may precede a move, but not OK or the ABOUT reply.
pub const DEFAULT_IGNORED: [&str; 2] = ["MESSAGE", "DEBUG"];

/// Longest line shown in a transcript; longer ones are cut and their length given.
const SHOWN_LINE_CHARS: usize = 160;

#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Count optional cases' failures as failures (used against our own engine).
    pub strict: bool,
    /// Skip cases carrying any of these `# skip_if:` tags.
    pub skip_tags: Vec<String>,
    /// Cases run at the same time, each on its own process.
    pub jobs: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail(String),
    /// An optional case failed; not counted as a failure unless the run is strict.
    OptionalFail(String),
    /// Skipped because of this `skip_if` tag.
    Skip(String),
}

#[derive(Clone, Debug)]
pub struct CaseReport {
    pub name: String,
    pub verdict: Verdict,
    pub transcript: Vec<String>,
    pub elapsed: Duration,
}

impl CaseReport {
    /// The one-line result: `PASS x`, `FAIL x: why`, `OPTFAIL x: why`, `SKIP x: tag`.
    pub fn line(&self) -> String {
        match &self.verdict {
            Verdict::Pass => format!("PASS {}", self.name),
            Verdict::Fail(why) => format!("FAIL {}: {why}", self.name),
            Verdict::OptionalFail(why) => format!("OPTFAIL {}: {why}", self.name),
            Verdict::Skip(tag) => format!("SKIP {}: skip_if {tag}", self.name),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub optional_failed: usize,
    pub skipped: usize,
}

impl Summary {
    pub fn of(reports: &[CaseReport]) -> Summary {
        let mut s = Summary::default();
        for r in reports {
            match r.verdict {
                Verdict::Pass => s.passed += 1,
                Verdict::Fail(_) => s.failed += 1,
                Verdict::OptionalFail(_) => s.optional_failed += 1,
                Verdict::Skip(_) => s.skipped += 1,
            }
        }
        s
    }

    /// `N passed, M failed`, then the optional failures and skips when there are any.
    pub fn line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.optional_failed > 0 {
            line += &format!(", {} optional failed", self.optional_failed);
        }
        if self.skipped > 0 {
            line += &format!(", {} skipped", self.skipped);
        }
        line
    }
}

/// Runs `cases` against `brain_cmd` on `opts.jobs` threads. `on_report` sees each
/// report in case order as soon as it and all earlier ones are done.
pub fn run_suite(
    brain_cmd: &str,
    cases: &[Case],
    opts: &RunOptions,
    mut on_report: impl FnMut(&CaseReport),
) -> Vec<CaseReport> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut done: Vec<Option<CaseReport>> = vec![None; cases.len()];
    let mut printed = 0;
    thread::scope(|scope| {
        for _ in 0..opts.jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(i) else { break };
                if tx.send((i, run_case(brain_cmd, case, opts))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, report) in rx {
            done[i] = Some(report);
            while let Some(Some(r)) = done.get(printed) {
                on_report(r);
                printed += 1;
            }
        }
    });
    done.into_iter().flatten().collect()
}

/// Runs one case on a fresh brain process.
pub fn run_case(brain_cmd: &str, case: &Case, opts: &RunOptions) -> CaseReport {
    let started = Instant::now();
    let report = |verdict, transcript| CaseReport {
        name: case.name.clone(),
        verdict,
        transcript,
        elapsed: started.elapsed(),
    };
    if let Some(tag) = case.skip_if.iter().find(|t| opts.skip_tags.contains(t)) {
        return report(Verdict::Skip(tag.clone()), Vec::new());
    }
    let brain = match Brain::spawn(brain_cmd, None) {
        Ok(b) => b,
        Err(e) => return report(Verdict::Fail(format!("cannot start brain: {e:#}")), vec![]),
    };
    let mut session = Session::new(brain, case.timeout_ms);
    let verdict = match session.run(&case.steps) {
        Ok(()) => Verdict::Pass,
        Err(why) if case.optional.is_some() && !opts.strict => Verdict::OptionalFail(why),
        Err(why) => Verdict::Fail(why),
    };
    report(verdict, session.transcript)
}

/// One conversation with one brain process.
struct Session {
    brain: Brain,
    tracker: Tracker,
    timeout: Duration,
    ignored: Vec<String>,
    started: Instant,
    transcript: Vec<String>,
}

impl Session {
    fn new(brain: Brain, timeout_ms: u64) -> Session {
        Session {
            brain,
            tracker: Tracker::new(),
            timeout: Duration::from_millis(timeout_ms),
            ignored: DEFAULT_IGNORED.iter().map(|s| s.to_string()).collect(),
            started: Instant::now(),
            transcript: Vec::new(),
        }
    }

    fn run(&mut self, steps: &[Step]) -> Result<(), String> {
        for step in steps {
            if let Err(why) = self.step(&step.kind) {
                let why = format!("line {} `{}`: {why}", step.line, step.text);
                self.transcript.push(format!("!! {why}"));
                return Err(why);
            }
        }
        Ok(())
    }

    fn step(&mut self, kind: &StepKind) -> Result<(), String> {
        match kind {
            StepKind::Send(text) => {
                let mut bytes = text.as_bytes().to_vec();
                bytes.push(b'\n');
                self.send(&bytes)
            }
            StepKind::SendRaw(bytes) => self.send(bytes),
            StepKind::SendLong { len, prefix } => self.send(&long_line(prefix, *len)),
            StepKind::Expect(text) => self.expect_line(|l| l == text, &format!("`{text}`")),
            StepKind::ExpectPrefix(p) => {
                self.expect_line(|l| l.starts_with(p.as_str()), &format!("`{p}...`"))
            }
            StepKind::ExpectMatch(glob) => self.expect_line(|l| glob.matches(l), "the pattern"),
            StepKind::ExpectMove => self.expect_move(|_| Ok(())),
            StepKind::ExpectOneOf(squares) => self.expect_move(|m| one_of(m, squares)),
            StepKind::ExpectMoveNot(squares) => self.expect_move(|m| none_of(m, squares)),
            StepKind::ExpectMoves { counts, swap } => self.expect_moves(counts, *swap),
            StepKind::ExpectMoveOrError => self.expect_move_or_error(),
            StepKind::ExpectAbout(keys) => self.expect_about(keys),
            StepKind::AllowReply { ms, glob } => self.allow_reply(*ms, glob),
            StepKind::ExpectSilence(ms) => self.expect_silence(*ms),
            StepKind::ExpectExit(ms) => self.expect_exit(*ms),
            StepKind::Drain(ms) => self.drain(*ms),
            StepKind::CloseStdin => {
                self.note("(stdin closed)");
                self.brain.close_stdin();
                Ok(())
            }
            StepKind::Sleep(ms) => {
                thread::sleep(Duration::from_millis(*ms));
                Ok(())
            }
            StepKind::Timeout(ms) => {
                self.timeout = Duration::from_millis(*ms);
                Ok(())
            }
            StepKind::Ignore(prefixes) => {
                self.ignored = prefixes.clone();
                Ok(())
            }
        }
    }

    fn send(&mut self, template: &[u8]) -> Result<(), String> {
        let bytes = expand_variables(template, &self.tracker)?;
        self.note(&format!("> {}", show_bytes(&bytes)));
        self.brain
            .send_raw(&bytes)
            .map_err(|e| format!("cannot write to the brain ({e:#}); did it exit?"))?;
        self.tracker.sent(&bytes);
        Ok(())
    }

    /// The next line from the brain before `deadline`, optionally skipping the ignored
    /// chatter prefixes. Also tells the tracker whether the last command was refused.
    fn next_line(&mut self, deadline: Instant, skip_chatter: bool) -> Result<String, String> {
        let waited_from = Instant::now();
        loop {
            match self.brain.recv_until(deadline) {
                None => {
                    let waited = deadline.saturating_duration_since(waited_from);
                    let ms = (waited.as_secs_f64() * 1000.0).round();
                    return Err(format!("no reply within {ms} ms"));
                }
                Some(Output::Closed) => {
                    self.note("< (end of output)");
                    return Err("the brain closed its output (exited or crashed)".to_string());
                }
                Some(Output::Line(line)) => {
                    self.note(&format!("< {}", show_text(&line)));
                    if skip_chatter && self.is_ignored(&line) {
                        continue;
                    }
                    if is_refusal(&line) {
                        self.tracker.refused();
                    } else {
                        self.tracker.accepted();
                    }
                    return Ok(line);
                }
            }
        }
    }

    fn reply(&mut self, skip_chatter: bool) -> Result<String, String> {
        let deadline = Instant::now() + self.timeout;
        self.next_line(deadline, skip_chatter)
    }

    fn is_ignored(&self, line: &str) -> bool {
        let word = line.split_whitespace().next().unwrap_or("");
        self.ignored.iter().any(|p| p.eq_ignore_ascii_case(word))
    }

    fn expect_line(&mut self, ok: impl Fn(&str) -> bool, wanted: &str) -> Result<(), String> {
        let line = self.reply(false)?;
        if ok(&line) {
            Ok(())
        } else {
            Err(format!("expected {wanted}, got `{}`", show_text(&line)))
        }
    }

    /// A legal move that also passes `extra`; the move is recorded on the board.
    fn expect_move(&mut self, extra: impl Fn(Square) -> Result<(), String>) -> Result<(), String> {
        let line = self.reply(true)?;
        let square = self.legal_move(&line)?;
        extra(square)?;
        self.tracker.brain_played(square);
        Ok(())
    }

    fn legal_move(&self, line: &str) -> Result<Square, String> {
        let square = parse_move(line)
            .ok_or_else(|| format!("expected a move `x,y`, got `{}`", show_text(line)))?;
        match self.tracker.illegal_reason(square) {
            Some(why) => Err(format!("illegal move `{line}`: {why}")),
            None => Ok(square),
        }
    }

    fn expect_move_or_error(&mut self) -> Result<(), String> {
        let line = self.reply(true)?;
        if line.starts_with("ERROR") {
            return Ok(());
        }
        let square = self
            .legal_move(&line)
            .map_err(|e| format!("{e} (nor ERROR)"))?;
        self.tracker.brain_played(square);
        Ok(())
    }

    /// SWAP2BOARD replies: `SWAP` (if allowed) or a line of N space-separated moves.
    fn expect_moves(&mut self, counts: &[usize], swap: bool) -> Result<(), String> {
        let line = self.reply(true)?;
        if swap && line.eq_ignore_ascii_case("SWAP") {
            return Ok(());
        }
        let words: Vec<&str> = line.split(' ').collect();
        if !counts.contains(&words.len()) {
            let swap_text = if swap { " or SWAP" } else { "" };
            return Err(format!(
                "expected {counts:?} moves{swap_text}, got `{}`",
                show_text(&line)
            ));
        }
        for word in words {
            let square = self.legal_move(word)?;
            self.tracker.brain_played(square);
        }
        Ok(())
    }

    fn expect_about(&mut self, keys: &[String]) -> Result<(), String> {
        let line = self.reply(false)?;
        let found = parse_about(&line)
            .map_err(|e| format!("bad ABOUT reply `{}`: {e}", show_text(&line)))?;
        match keys.iter().find(|k| !found.contains(k)) {
            Some(missing) => Err(format!("ABOUT reply has no `{missing}`: `{line}`")),
            None => Ok(()),
        }
    }

    fn allow_reply(&mut self, ms: u64, glob: &Glob) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        match self.next_line(deadline, false) {
            Ok(line) if glob.matches(&line) => Ok(()),
            Ok(line) => Err(format!("unexpected reply `{}`", show_text(&line))),
            Err(e) if e.starts_with("no reply") => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn expect_silence(&mut self, ms: u64) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        match self.next_line(deadline, false) {
            Ok(line) => Err(format!(
                "expected no reply for {ms} ms, got `{}`",
                show_text(&line)
            )),
            Err(e) if e.starts_with("no reply") => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Reads and logs lines until `ms` have passed; only an exit is a failure.
    fn drain(&mut self, ms: u64) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            match self.next_line(deadline, false) {
                Ok(_) => continue,
                Err(e) if e.starts_with("no reply") => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    /// The process exits within `ms`, printing nothing on the way but `MESSAGE` and
    /// `DEBUG` lines: a brain that reports while it thinks may have written one before
    /// the last command reached it (a manager ignores them), but never a reply.
    fn expect_exit(&mut self, ms: u64) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut output = self.brain.recv_until(deadline);
        while let Some(Output::Line(line)) = &output {
            if !(line.starts_with("MESSAGE") || line.starts_with("DEBUG")) {
                break;
            }
            self.note(&format!("< {} (informational)", show_text(line)));
            output = self.brain.recv_until(deadline);
        }
        match output {
            Some(Output::Line(line)) => {
                self.note(&format!("< {}", show_text(&line)));
                Err(format!("printed `{}` instead of exiting", show_text(&line)))
            }
            None => Err(format!("still running after {ms} ms")),
            Some(Output::Closed) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if self.brain.wait_exit(left) {
                    self.note("(exited)");
                    Ok(())
                } else {
                    Err(format!("closed its output but still running after {ms} ms"))
                }
            }
        }
    }

    fn note(&mut self, text: &str) {
        let ms = self.started.elapsed().as_millis();
        self.transcript.push(format!("{ms:>6} ms  {text}"));
    }
}

fn is_refusal(line: &str) -> bool {
    line.starts_with("ERROR") || line.starts_with("UNKNOWN")
}

fn one_of(square: Square, squares: &[Square]) -> Result<(), String> {
    if squares.contains(&square) {
        Ok(())
    } else {
        Err(format!(
            "played {}, expected one of {}",
            show_square(square),
            show_squares(squares)
        ))
    }
}

fn none_of(square: Square, squares: &[Square]) -> Result<(), String> {
    if squares.contains(&square) {
        Err(format!(
            "played {}, which must not be played here",
            show_square(square)
        ))
    } else {
        Ok(())
    }
}

fn show_square((x, y): Square) -> String {
    format!("{x},{y}")
}

fn show_squares(squares: &[Square]) -> String {
    let shown: Vec<String> = squares.iter().map(|&s| show_square(s)).collect();
    shown.join(" ")
}

/// PREFIX padded with `a` up to `len` bytes, then a newline.
fn long_line(prefix: &str, len: usize) -> Vec<u8> {
    let mut bytes = prefix.as_bytes().to_vec();
    bytes.resize(len.max(bytes.len()), b'a');
    bytes.push(b'\n');
    bytes
}

/// Replaces `$NAME` (upper-case letters and `_`) with the tracker's value for it.
fn expand_variables(template: &[u8], tracker: &Tracker) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(template.len());
    let mut i = 0;
    while i < template.len() {
        let name_len = template[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_uppercase() || **b == b'_')
            .count();
        if template[i] != b'$' || name_len == 0 {
            out.push(template[i]);
            i += 1;
            continue;
        }
        let name = String::from_utf8_lossy(&template[i + 1..i + 1 + name_len]);
        let value = tracker
            .variable(&name)
            .ok_or_else(|| format!("${name} has no value here"))?;
        out.extend_from_slice(value.as_bytes());
        i += 1 + name_len;
    }
    Ok(out)
}

/// Bytes as a readable transcript line: the usual final `\n` dropped, other control
/// and non-ASCII bytes escaped, long lines cut.
fn show_bytes(bytes: &[u8]) -> String {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut shown = String::new();
    for &b in body.iter().take(SHOWN_LINE_CHARS) {
        match b {
            b'\r' => shown.push_str("\\r"),
            b'\n' => shown.push_str("\\n"),
            b'\t' => shown.push_str("\\t"),
            0x20..=0x7e => shown.push(b as char),
            _ => shown.push_str(&format!("\\x{b:02x}")),
        }
    }
    if body.len() > SHOWN_LINE_CHARS {
        shown += &format!("... ({} bytes)", bytes.len());
    }
    shown
}

fn show_text(line: &str) -> String {
    if line.chars().count() <= SHOWN_LINE_CHARS {
        return line.to_string();
    }
    let cut: String = line.chars().take(SHOWN_LINE_CHARS).collect();
    format!("{cut}... ({} chars)", line.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::case::parse_cases;

    /// A brain written in shell: enough to check the runner's own judgement.
    fn run_script(script: &str, case_text: &str) -> CaseReport {
        let cases = parse_cases(case_text, "test").expect("case parses");
        let cmd = format!("sh -c '{script}'");
        run_case(&cmd, &cases[0], &RunOptions::default())
    }

    fn assert_fails_with(report: &CaseReport, needle: &str) {
        match &report.verdict {
            Verdict::Fail(why) => assert!(why.contains(needle), "{why}"),
            other => panic!("expected a failure with `{needle}`, got {other:?}"),
        }
    }

    const START_BEGIN: &str =
        "# name: t\n# timeout_ms: 2000\nsend START 15\nexpect OK\nsend BEGIN\nexpect_move\n";

    #[test]
    fn chatter_before_a_move_is_allowed() {
        let report = run_script(
            "read a; echo OK; read b; echo MESSAGE hi; echo DEBUG x; echo 7,7",
            START_BEGIN,
        );
        assert_eq!(report.verdict, Verdict::Pass, "{:?}", report.transcript);
    }

    #[test]
    fn chatter_before_ok_is_a_failure() {
        let report = run_script("read a; echo DEBUG hi; echo OK", START_BEGIN);
        assert_fails_with(&report, "got `DEBUG hi`");
    }

    #[test]
    fn off_board_and_malformed_moves_fail() {
        let report = run_script("read a; echo OK; read b; echo 15,3", START_BEGIN);
        assert_fails_with(&report, "off the 15x15 board");
        let report = run_script("read a; echo OK; read b; echo \"7, 7\"", START_BEGIN);
        assert_fails_with(&report, "expected a move");
        let report = run_script("read a; echo OK; read b; echo ERROR no", START_BEGIN);
        assert_fails_with(&report, "got `ERROR no`");
    }

    #[test]
    fn moves_on_occupied_squares_fail() {
        let case = "# name: t\nsend START 15\nexpect OK\nsend TURN 7,7\nexpect_move\n";
        let report = run_script("read a; echo OK; read b; echo 7,7", case);
        assert_fails_with(&report, "occupied");
    }

    #[test]
    fn silence_timeouts_and_exit_are_judged() {
        let case = "# name: t\n# timeout_ms: 200\nsend START 15\nexpect OK\n";
        assert_fails_with(&run_script("sleep 5", case), "no reply within");
        let case = "# name: t\nsend INFO rule 1\nexpect_silence 200\n";
        assert_fails_with(&run_script("echo OK; sleep 5", case), "expected no reply");
        let case = "# name: t\nsend END\nexpect_exit 1000\n";
        assert_eq!(run_script("read a", case).verdict, Verdict::Pass);
        assert_fails_with(&run_script("read a; sleep 5", case), "still running");
        assert_fails_with(&run_script("read a; echo bye", case), "printed `bye`");
        let chatter = "read a; echo MESSAGE depth 9; echo DEBUG x";
        assert_eq!(run_script(chatter, case).verdict, Verdict::Pass);
        let chatter_then_move = "read a; echo MESSAGE depth 9; echo 7,7";
        assert_fails_with(&run_script(chatter_then_move, case), "printed `7,7`");
    }

    #[test]
    fn optional_failures_are_not_failures_unless_strict() {
        let cases = parse_cases(
            "# name: t\n# optional: ext\n# timeout_ms: 200\nsend X\nexpect Y\n",
            "t",
        )
        .unwrap();
        let lenient = run_case("sh -c 'sleep 5'", &cases[0], &RunOptions::default());
        assert!(matches!(lenient.verdict, Verdict::OptionalFail(_)));
        let strict = RunOptions {
            strict: true,
            ..RunOptions::default()
        };
        let strict = run_case("sh -c 'sleep 5'", &cases[0], &strict);
        assert!(matches!(strict.verdict, Verdict::Fail(_)));
    }

    #[test]
    fn skip_tags_skip_without_starting_the_brain() {
        let cases = parse_cases("# name: t\n# skip_if: renju\nsend X\n", "t").unwrap();
        let opts = RunOptions {
            skip_tags: vec!["renju".into()],
            ..RunOptions::default()
        };
        let report = run_case("/nonexistent/brain", &cases[0], &opts);
        assert_eq!(report.verdict, Verdict::Skip("renju".into()));
    }

    #[test]
    fn suite_reports_in_case_order_and_summarises() {
        let text = "# name: a\nsend X\nexpect X\n# name: b\nsend Y\nexpect Z\n# name: c\nsend Z\nexpect Z\n";
        let cases = parse_cases(text, "t").unwrap();
        let opts = RunOptions {
            jobs: 3,
            ..RunOptions::default()
        };
        let mut seen = Vec::new();
        let reports = run_suite("cat", &cases, &opts, |r| seen.push(r.line()));
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0], "PASS a");
        assert!(seen[1].starts_with("FAIL b: line 6 `expect Z`: expected `Z`, got `Y`"));
        assert_eq!(seen[2], "PASS c");
        assert_eq!(Summary::of(&reports).line(), "2 passed, 1 failed");
    }

    #[test]
    fn variables_expand_from_the_tracker() {
        let mut t = Tracker::new();
        t.sent(b"START 15\n");
        assert_eq!(expand_variables(b"TURN $FREE", &t).unwrap(), b"TURN 0,0");
        assert_eq!(expand_variables(b"cost $5", &t).unwrap(), b"cost $5");
        assert!(expand_variables(b"TAKEBACK $BRAIN", &t).is_err());
    }

    #[test]
    fn transcript_lines_are_readable() {
        assert_eq!(show_bytes(b"START 15\r\n"), "START 15\\r");
        assert_eq!(show_bytes(b"\0\xff\n"), "\\x00\\xff");
        assert!(show_bytes(&long_line("X", 1000)).ends_with("... (1001 bytes)"));
        assert_eq!(long_line("AB", 5), b"ABaaa\n");
    }
}
