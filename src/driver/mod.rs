//! Driving a brain as a child process over the Gomocup protocol, with deadlines.
//!
//! Used by the match runner and the protocol conformance suite. Every read has a deadline,
//! and dropping a `Brain` kills its process, so a hung engine cannot hang a run.

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A line from the brain, or the end of its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Line(String),
    Closed,
}

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    /// Every line sent (`> `) and received (`< `), when logging is on.
    log: Option<Vec<String>>,
}

/// Splits a command line the way a shell would for simple cases: whitespace separates
/// words, single or double quotes group them. Enough for `python3 brain.py --level easy`.
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for ch in cmd.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                has_word = true;
            }
            None if ch.is_whitespace() => {
                if has_word || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    has_word = false;
                }
            }
            None => cur.push(ch),
        }
    }
    if has_word || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Parses a brain's move reply strictly: `int,int`, digits only, no spaces, as c-gomoku-cli
/// demands. A leading `-` is accepted so that off-board replies are reported as such.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((parse_int(x)?, parse_int(y)?))
}

/// An optional minus sign and digits, nothing else (Rust's `parse` would also take `+`).
pub fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Brain {
    /// Starts `cmd` (split like a shell command line) with piped stdin/stdout.
    /// stderr goes to `stderr` if given, else is discarded.
    pub fn spawn(cmd: &str, stderr: Option<std::fs::File>) -> Result<Brain> {
        let words = split_command(cmd);
        let Some((prog, args)) = words.split_first() else {
            bail!("empty brain command");
        };
        let mut command = Command::new(prog);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        command.stderr(match stderr {
            Some(f) => Stdio::from(f),
            None => Stdio::null(),
        });
        own_process_group(&mut command);
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start `{cmd}`"))?;
        live_brains().push(child.id());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, tx));
        Ok(Brain {
            child,
            stdin,
            lines: rx,
            log: None,
        })
    }

    /// The brain's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts keeping a transcript of the conversation.
    pub fn enable_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    pub fn take_log(&mut self) -> Vec<String> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Sends raw bytes (no line ending added): for line-ending and garbage tests.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(log) = &mut self.log {
            log.push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        }
        let stdin = self.stdin.as_mut().context("stdin already closed")?;
        stdin.write_all(bytes)?;
        stdin.flush()?;
        Ok(())
    }

    /// Sends one line, terminated with `\n`.
    pub fn send(&mut self, line: &str) -> Result<()> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes)
    }

    /// Closes the brain's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line of output, or `None` if nothing arrived before `deadline`.
    pub fn recv_until(&mut self, deadline: Instant) -> Option<Output> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let out = match self.lines.recv_timeout(wait) {
            Ok(o) => Some(o),
            Err(RecvTimeoutError::Disconnected) => Some(Output::Closed),
            Err(RecvTimeoutError::Timeout) => None,
        };
        if let (Some(log), Some(o)) = (&mut self.log, &out) {
            log.push(match o {
                Output::Line(l) => format!("< {l}"),
                Output::Closed => "< (end of output)".to_string(),
            });
        }
        out
    }

    /// Next line within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<Output> {
        self.recv_until(Instant::now() + timeout)
    }

    /// Whether the process has exited, waiting up to `timeout` for it.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        self.exit_status(timeout).is_some()
    }

    /// The process's exit status, waiting up to `timeout` for it (`None`: still running).
    pub fn exit_status(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Kills the brain and everything it started (its process group, on Unix).
    pub fn kill(&mut self) {
        kill_process_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        live_brains().retain(|&id| id != self.child.id());
    }
}

/// Process ids of brains started and not yet killed, for `kill_all_brains`.
fn live_brains() -> std::sync::MutexGuard<'static, Vec<u32>> {
    static LIVE: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every brain still running and what it started: for a tool that exits at once
/// (a second Ctrl-C), since brains in their own process groups do not get the terminal's
/// signal.
pub fn kill_all_brains() {
    for id in live_brains().drain(..) {
        kill_process_group(id);
    }
}

/// The brain leads a new process group, so that `kill` reaches processes it started.
#[cfg(unix)]
fn own_process_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn own_process_group(_command: &mut Command) {}

#[cfg(unix)]
fn kill_process_group(leader: u32) {
    let Ok(pgid) = libc::pid_t::try_from(leader) else {
        return;
    };
    // SAFETY: kill(2) with a negative pid signals the process group we created in `spawn`;
    // it has no memory-safety preconditions. An error (group already gone) is fine.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_process_group(_leader: u32) {}

impl Drop for Brain {
    /// Whatever the brain left behind goes too: a wrapper's children can outlive it.
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}

/// Reader thread: splits output on LF, CR or CRLF and forwards each line.
fn read_lines(stdout: impl Read, tx: mpsc::Sender<Output>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                for part in text.split('\r') {
                    let line = part.trim_end_matches('\n').trim();
                    if !line.is_empty() && tx.send(Output::Line(line.to_string())).is_err() {
                        return;
                    }
                }
            }
        }
    }
    let _ = tx.send(Output::Closed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_command_handles_quotes() {
        assert_eq!(
            split_command("python3 a.py --level easy"),
            ["python3", "a.py", "--level", "easy"]
        );
        assert_eq!(
            split_command("'my brain' \"x y\" z"),
            ["my brain", "x y", "z"]
        );
        assert_eq!(split_command("  "), Vec::<String>::new());
        assert_eq!(split_command("a ''"), ["a", ""]);
    }

    /// Whether `pid` is still a live process (a zombie counts as gone).
    #[cfg(target_os = "linux")]
    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit(')').next().map(|r| r.trim_start().to_string()))
            .is_some_and(|rest| !rest.starts_with('Z'))
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dropping_a_brain_kills_what_it_started() {
        let mut b = Brain::spawn("sh -c 'sleep 300 & echo $!; wait'", None).expect("sh runs");
        let Some(Output::Line(grandchild)) = b.recv(Duration::from_secs(5)) else {
            panic!("no pid from sh");
        };
        assert!(alive(&grandchild));
        drop(b);
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(&grandchild) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(&grandchild), "sleep {grandchild} survived its brain");
    }

    #[test]
    fn talks_to_a_child_and_times_out() {
        let mut b = Brain::spawn("cat", None).expect("cat runs");
        b.send("hello").unwrap();
        assert_eq!(
            b.recv(Duration::from_secs(5)),
            Some(Output::Line("hello".into()))
        );
        assert_eq!(b.recv(Duration::from_millis(50)), None);
        b.close_stdin();
        assert_eq!(b.recv(Duration::from_secs(5)), Some(Output::Closed));
        assert!(b.wait_exit(Duration::from_secs(5)));
    }
}
