//! One engine seen from the arena: its process, the START handshake, INFO settings,
//! and reading a move under a deadline.

use fivefold::driver::{Brain, Output};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How an engine is started and configured.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    /// Extra `INFO` lines, without the `INFO ` prefix (e.g. `hash_size 65536`).
    pub infos: Vec<String>,
    /// This engine's own per-move limit in ms (time odds), instead of `Limits::turn_ms`.
    pub turn_ms: Option<u64>,
}

impl EngineSpec {
    /// The per-move limit this engine plays under; 0 = none.
    pub fn turn_ms(&self, lim: &Limits) -> u64 {
        self.turn_ms.unwrap_or(lim.turn_ms)
    }
}

/// Settings that apply to both engines.
#[derive(Clone, Debug)]
pub struct Limits {
    pub size: usize,
    pub rule_bits: i64,
    /// Per-move limit in ms; 0 = none.
    pub turn_ms: u64,
    /// Per-game limit in ms; 0 = none.
    pub match_ms: u64,
    pub tolerance_ms: u64,
    pub max_memory: u64,
    pub threads: Option<u32>,
    pub start_timeout_ms: u64,
    /// Keep one process per engine across games (START each game) instead of a new one.
    pub reuse: bool,
    /// Where brains' stderr goes (one file per engine and worker), if anywhere.
    pub stderr_dir: Option<PathBuf>,
}

/// Why an engine lost a game by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    Timeout(String),
    Illegal(String),
    Crash(String),
}

impl Forfeit {
    pub fn describe(&self) -> String {
        match self {
            Forfeit::Timeout(d) => format!("timeout ({d})"),
            Forfeit::Illegal(d) => format!("illegal move ({d})"),
            Forfeit::Crash(d) => format!("crash ({d})"),
        }
    }
}

/// A failed read: the engine forfeits, or the run is being stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    Forfeit(Forfeit),
    Aborted,
}

/// What a line from a brain is, while we wait for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// MESSAGE, DEBUG, UNKNOWN, ERROR: logged and skipped, as c-gomoku-cli does.
    Chatter,
    /// SUGGEST: unsupported by Gomocup's managers, so a loss here too.
    Suggest,
    Other,
}

pub fn classify(line: &str) -> LineKind {
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    match word.as_str() {
        "MESSAGE" | "DEBUG" | "UNKNOWN" | "ERROR" => LineKind::Chatter,
        "SUGGEST" => LineKind::Suggest,
        _ => LineKind::Other,
    }
}

/// How often a blocked read wakes up to check for Ctrl-C or a finished SPRT.
const POLL: Duration = Duration::from_millis(100);

pub struct Player {
    pub spec: EngineSpec,
    worker: usize,
    brain: Option<Brain>,
    /// Protocol transcript of the current game (from brains already dropped, too).
    log: Vec<String>,
}

impl Player {
    pub fn new(spec: EngineSpec, worker: usize) -> Player {
        Player {
            spec,
            worker,
            brain: None,
            log: Vec::new(),
        }
    }

    /// Makes the engine ready for a new game: a fresh or reused process, START, INFOs.
    /// A reused process that does not answer START with OK is replaced by a fresh one,
    /// once: some brains (Rapfi) still finish the last game's search after their move and
    /// drop or garble the lines that arrive meanwhile.
    pub fn start_game(&mut self, lim: &Limits, stop: &AtomicBool) -> Result<(), ReadError> {
        if !lim.reuse {
            self.retire(true);
        }
        let reused = self.brain.is_some();
        if !reused {
            self.brain = Some(self.spawn(lim)?);
        }
        match self.handshake(lim, stop) {
            Err(ReadError::Forfeit(_)) if reused => {
                self.retire(false);
                self.brain = Some(self.spawn(lim)?);
                self.handshake(lim, stop)
            }
            r => r,
        }
    }

    /// START and its OK, then the INFO lines.
    fn handshake(&mut self, lim: &Limits, stop: &AtomicBool) -> Result<(), ReadError> {
        self.send(&format!("START {}", lim.size))?;
        self.await_ok(lim, stop)?;
        for line in info_lines(lim, &self.spec) {
            self.send(&line)?;
        }
        Ok(())
    }

    fn spawn(&self, lim: &Limits) -> Result<Brain, ReadError> {
        let stderr = lim.stderr_dir.as_ref().and_then(|dir| {
            let path = dir.join(format!(
                "{}.w{}.stderr",
                file_safe(&self.spec.name),
                self.worker
            ));
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok()
        });
        let mut brain = Brain::spawn(&self.spec.cmd, stderr)
            .map_err(|e| ReadError::Forfeit(Forfeit::Crash(format!("cannot start: {e:#}"))))?;
        brain.enable_log();
        Ok(brain)
    }

    /// Waits for the `OK` that answers START; chatter is skipped, anything else fails.
    fn await_ok(&mut self, lim: &Limits, stop: &AtomicBool) -> Result<(), ReadError> {
        let deadline = Instant::now() + Duration::from_millis(lim.start_timeout_ms);
        loop {
            let line = self.next_line(deadline, stop, "no OK after START")?;
            if line.eq_ignore_ascii_case("OK") {
                return Ok(());
            }
            if classify(&line) == LineKind::Chatter && !starts_with_word(&line, "ERROR") {
                continue;
            }
            return Err(ReadError::Forfeit(Forfeit::Crash(format!(
                "START answered `{line}`"
            ))));
        }
    }

    /// Sends one line; a broken pipe means the engine died.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        let brain = self.brain.as_mut().ok_or_else(|| {
            ReadError::Forfeit(Forfeit::Crash("engine is not running".to_string()))
        })?;
        brain
            .send(line)
            .map_err(|_| ReadError::Forfeit(Forfeit::Crash("input pipe closed".to_string())))
    }

    /// Sends `lines` and reads the reply that should be a move: the first line that is
    /// not chatter. Returns it with the time taken. `limit` is the allowed time before
    /// the tolerance is added.
    pub fn ask_move(
        &mut self,
        lines: &[String],
        limit: Duration,
        tolerance: Duration,
        stop: &AtomicBool,
    ) -> Result<(String, Duration), ReadError> {
        let started = Instant::now();
        for line in lines {
            self.send(line)?;
        }
        let deadline = started + limit + tolerance;
        loop {
            let what = format!("no move within {} ms", (limit + tolerance).as_millis());
            let line = self.next_line(deadline, stop, &what)?;
            match classify(&line) {
                LineKind::Chatter => continue,
                LineKind::Suggest => {
                    return Err(ReadError::Forfeit(Forfeit::Illegal(format!(
                        "`{line}`: SUGGEST is not supported"
                    ))))
                }
                LineKind::Other => return Ok((line, started.elapsed())),
            }
        }
    }

    /// Next output line before `deadline`, polling `stop` meanwhile.
    fn next_line(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        timeout_what: &str,
    ) -> Result<String, ReadError> {
        let brain = self.brain.as_mut().ok_or_else(|| {
            ReadError::Forfeit(Forfeit::Crash("engine is not running".to_string()))
        })?;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(ReadError::Aborted);
            }
            let slice_end = deadline.min(Instant::now() + POLL);
            match brain.recv_until(slice_end) {
                Some(Output::Line(line)) => return Ok(line),
                Some(Output::Closed) => {
                    return Err(ReadError::Forfeit(Forfeit::Crash(
                        "output closed".to_string(),
                    )))
                }
                None if Instant::now() >= deadline => {
                    return Err(ReadError::Forfeit(Forfeit::Timeout(
                        timeout_what.to_string(),
                    )))
                }
                None => {}
            }
        }
    }

    /// Ends the engine's part in a game. With `healthy` false (timed out, crashed) or
    /// without reuse the process goes: END, a short grace, then a kill.
    pub fn finish_game(&mut self, lim: &Limits, healthy: bool) {
        if !healthy || !lim.reuse {
            self.retire(healthy);
        }
    }

    /// Stops the process: END first if it is healthy, killed on drop in any case.
    pub fn retire(&mut self, polite: bool) {
        if let Some(mut brain) = self.brain.take() {
            if polite {
                let _ = brain.send("END");
                brain.close_stdin();
                brain.wait_exit(Duration::from_millis(500));
            }
            self.log.extend(brain.take_log());
        }
    }

    /// The transcript of the game so far; clears it.
    pub fn take_log(&mut self) -> Vec<String> {
        if let Some(brain) = self.brain.as_mut() {
            self.log.extend(brain.take_log());
        }
        std::mem::take(&mut self.log)
    }
}

fn starts_with_word(line: &str, word: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
}

/// The INFO block sent after START, in the order c-gomoku-cli uses.
pub fn info_lines(lim: &Limits, spec: &EngineSpec) -> Vec<String> {
    let mut lines = vec![format!("INFO rule {}", lim.rule_bits)];
    let turn_ms = spec.turn_ms(lim);
    if turn_ms > 0 {
        lines.push(format!("INFO timeout_turn {turn_ms}"));
    }
    lines.push(format!("INFO timeout_match {}", lim.match_ms));
    lines.push(format!("INFO max_memory {}", lim.max_memory));
    lines.push("INFO game_type 1".to_string());
    if let Some(t) = lim.threads {
        lines.push(format!("INFO thread_num {t}"));
    }
    lines.extend(spec.infos.iter().map(|i| format!("INFO {i}")));
    lines
}

/// A name usable in file names.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_chatter_and_suggest() {
        assert_eq!(classify("MESSAGE depth 5"), LineKind::Chatter);
        assert_eq!(classify("debug x"), LineKind::Chatter);
        assert_eq!(classify("ERROR oops"), LineKind::Chatter);
        assert_eq!(classify("UNKNOWN"), LineKind::Chatter);
        assert_eq!(classify("SUGGEST 7,7"), LineKind::Suggest);
        assert_eq!(classify("7,7"), LineKind::Other);
        assert_eq!(classify("MESSAGES"), LineKind::Other);
    }

    #[test]
    fn info_block_has_limits_threads_and_extras() {
        let lim = Limits {
            size: 15,
            rule_bits: 1,
            turn_ms: 0,
            match_ms: 5000,
            tolerance_ms: 1000,
            max_memory: 100,
            threads: Some(2),
            start_timeout_ms: 1000,
            reuse: false,
            stderr_dir: None,
        };
        let spec = EngineSpec {
            name: "x".into(),
            cmd: "x".into(),
            infos: vec!["hash_size 1".into()],
            turn_ms: None,
        };
        assert_eq!(
            info_lines(&lim, &spec),
            [
                "INFO rule 1",
                "INFO timeout_match 5000",
                "INFO max_memory 100",
                "INFO game_type 1",
                "INFO thread_num 2",
                "INFO hash_size 1"
            ]
        );
        let odds = EngineSpec {
            turn_ms: Some(100),
            ..spec
        };
        assert_eq!(info_lines(&lim, &odds)[1], "INFO timeout_turn 100");
    }
}
