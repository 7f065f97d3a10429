//! Memory conformance: a brain's memory, sampled every few milliseconds from spawn to
//! exit, must stay under the `max_memory` it was given, whatever order the manager sends
//! START and INFO in (Piskvork and GomocupJudge send START first, c-gomoku-cli INFO first).
//!
//! Two measures, as the managers take them: the resident set (`VmRSS` in
//! `/proc/PID/status`) and the private memory GomocupJudge reads as USS (`Private_Clean`
//! plus `Private_Dirty` in `/proc/PID/smaps_rollup`). Linux only; the brain's own process
//! is measured (a wrapper such as `wine` is not followed into its children).

use crate::driver::{parse_move, Brain, Output};
use anyhow::{bail, Context, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const MIB: u64 = 1 << 20;
/// How often memory is read. A table's pages are touched in tens of milliseconds, so a
/// peak lasting that long is seen many times over.
const SAMPLE_EVERY: Duration = Duration::from_millis(2);

/// Bytes resident and private, at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub rss: u64,
    pub uss: u64,
}

impl Usage {
    fn max(self, other: Usage) -> Usage {
        Usage {
            rss: self.rss.max(other.rss),
            uss: self.uss.max(other.uss),
        }
    }

    fn over(self, limit: u64) -> bool {
        self.rss > limit || self.uss > limit
    }
}

/// The memory of process `pid` now, or `None` when it cannot be read (exited, not Linux).
pub fn usage(pid: u32) -> Option<Usage> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = kib_field(&status, "VmRSS:")?;
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let uss = kib_field(&rollup, "Private_Clean:")? + kib_field(&rollup, "Private_Dirty:")?;
    Some(Usage {
        rss: rss * 1024,
        uss: uss * 1024,
    })
}

/// The value of a `Name:   123 kB` line.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// One game as a manager plays it: `setup` lines (START, INFO ...), then BEGIN and
/// `turns` more searching moves, then END; memory must stay under `limit` throughout.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub setup: Vec<String>,
    pub limit: u64,
    pub turns: usize,
}

/// The scenarios Fivefold's suite runs: `max_memory` of 20, 64 and 350 MiB in both
/// command orders, and Yixin-Board's `hash_size` under a `max_memory`.
pub fn gomocup_scenarios(turn_ms: u64) -> Vec<Scenario> {
    let time = format!("INFO timeout_turn {turn_ms}");
    let start = "START 20".to_string();
    let mut list = Vec::new();
    for mib in [20, 64, 350] {
        let info = format!("INFO max_memory {}", mib * MIB);
        for (order, setup) in [
            (
                "start_first",
                vec![start.clone(), info.clone(), time.clone()],
            ),
            (
                "info_first",
                vec![info.clone(), time.clone(), start.clone()],
            ),
        ] {
            list.push(Scenario {
                name: format!("max_memory_{mib}_mib_{order}"),
                setup,
                limit: mib * MIB,
                turns: 4,
            });
        }
    }
    let yixin = |kb: u64, limit_mib: u64| Scenario {
        name: format!("hash_size_{kb}_kb_under_{limit_mib}_mib"),
        setup: vec![
            start.clone(),
            format!("INFO max_memory {}", limit_mib * MIB),
            format!("INFO hash_size {kb}"),
            time.clone(),
        ],
        limit: limit_mib * MIB,
        turns: 4,
    };
    list.push(yixin(65536, 128));
    list.push(yixin(8192, 64));
    list
}

/// What a scenario measured.
#[derive(Clone, Debug, Default)]
pub struct MemoryReport {
    pub peak: Usage,
    pub samples: usize,
    /// The command sent last before the peak was sampled.
    pub peak_after: String,
    /// The first sample over the limit, with the command sent last before it.
    pub first_over: Option<(Usage, String)>,
    /// Milliseconds from BEGIN to the brain's first move.
    pub first_move_ms: u64,
}

impl MemoryReport {
    pub fn line(&self, sc: &Scenario) -> String {
        let verdict = if self.first_over.is_some() {
            "FAIL"
        } else {
            "PASS"
        };
        format!(
            "{verdict} {}: peak RSS {:.1} MiB, USS {:.1} MiB (after `{}`), limit {} MiB, {} samples, first move {} ms",
            sc.name,
            self.peak.rss as f64 / MIB as f64,
            self.peak.uss as f64 / MIB as f64,
            self.peak_after,
            sc.limit / MIB,
            self.samples,
            self.first_move_ms
        )
    }
}

/// Samples `pid` until `done`; `phase` is the index of the command sent last.
struct Sampler {
    done: Arc<AtomicBool>,
    thread: thread::JoinHandle<MemoryReport>,
}

impl Sampler {
    fn start(
        pid: u32,
        limit: u64,
        phase: Arc<AtomicUsize>,
        names: Arc<Mutex<Vec<String>>>,
    ) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let thread = thread::spawn(move || {
            let mut report = MemoryReport::default();
            while !flag.load(Relaxed) {
                if let Some(u) = usage(pid) {
                    let name = || {
                        let names = names.lock().unwrap_or_else(|e| e.into_inner());
                        names.get(phase.load(Relaxed)).cloned().unwrap_or_default()
                    };
                    report.samples += 1;
                    if u.rss > report.peak.rss {
                        report.peak_after = name();
                    }
                    report.peak = report.peak.max(u);
                    if u.over(limit) && report.first_over.is_none() {
                        report.first_over = Some((u, name()));
                    }
                }
                thread::sleep(SAMPLE_EVERY);
            }
            report
        });
        Sampler { done, thread }
    }

    fn finish(self) -> MemoryReport {
        self.done.store(true, Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

/// Plays `sc` against `brain_cmd` and reports the memory it used. Errors only when the
/// brain cannot be run or stops answering; a limit exceeded is in the report.
pub fn run_scenario(
    brain_cmd: &str,
    sc: &Scenario,
    move_timeout: Duration,
) -> Result<MemoryReport> {
    let mut brain = Brain::spawn(brain_cmd, None)?;
    brain.enable_log();
    let names = Arc::new(Mutex::new(vec!["(spawn)".to_string()]));
    let phase = Arc::new(AtomicUsize::new(0));
    let sampler = Sampler::start(brain.pid(), sc.limit, phase.clone(), names.clone());
    let sent = |brain: &mut Brain, line: &str| -> Result<()> {
        let mut names = names.lock().unwrap_or_else(|e| e.into_inner());
        names.push(line.to_string());
        phase.store(names.len() - 1, Relaxed);
        drop(names);
        brain.send(line)
    };
    let outcome = (|| -> Result<u64> {
        for line in &sc.setup {
            sent(&mut brain, line)?;
            if line.starts_with("START") {
                expect_line(&mut brain, move_timeout, |l| l == "OK")?;
            }
        }
        let mut game = Vec::new();
        let began = Instant::now();
        sent(&mut brain, "BEGIN")?;
        game.push(expect_move(&mut brain, move_timeout)?);
        let first_move_ms = began.elapsed().as_millis() as u64;
        for _ in 0..sc.turns {
            let ours = free_square(&game, 20);
            game.push(ours);
            sent(&mut brain, &format!("TURN {},{}", ours.0, ours.1))?;
            game.push(expect_move(&mut brain, move_timeout)?);
        }
        sent(&mut brain, "END")?;
        brain.wait_exit(Duration::from_secs(2));
        Ok(first_move_ms)
    })();
    let mut report = sampler.finish();
    brain.kill();
    match outcome {
        Ok(ms) => {
            report.first_move_ms = ms;
            Ok(report)
        }
        Err(e) => Err(e.context(brain.take_log().join("\n"))),
    }
}

fn expect_line(brain: &mut Brain, timeout: Duration, ok: impl Fn(&str) -> bool) -> Result<String> {
    let deadline = Instant::now() + timeout;
    loop {
        match brain.recv_until(deadline) {
            Some(Output::Line(l)) if ok(l.trim()) => return Ok(l.trim().to_string()),
            Some(Output::Line(_)) => continue,
            Some(Output::Closed) => bail!("the brain closed its output"),
            None => bail!("no answer within {} ms", timeout.as_millis()),
        }
    }
}

fn expect_move(brain: &mut Brain, timeout: Duration) -> Result<(i64, i64)> {
    let line = expect_line(brain, timeout, |l| parse_move(l).is_some())?;
    parse_move(&line).context("a move")
}

/// The empty square nearest the centre of a `size` board (ties by scan order): a legal
/// move for the manager's side, which is all this check needs from it.
fn free_square(game: &[(i64, i64)], size: i64) -> (i64, i64) {
    let c = size / 2;
    let mut squares: Vec<(i64, i64)> = (0..size)
        .flat_map(|y| (0..size).map(move |x| (x, y)))
        .filter(|p| !game.contains(p))
        .collect();
    squares.sort_by_key(|&(x, y)| (x - c).abs().max((y - c).abs()));
    squares[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kib_fields() {
        let text = "Name:\tx\nVmRSS:\t  1234 kB\nPrivate_Dirty:  7 kB\n";
        assert_eq!(kib_field(text, "VmRSS:"), Some(1234));
        assert_eq!(kib_field(text, "Private_Dirty:"), Some(7));
        assert_eq!(kib_field(text, "VmHWM:"), None);
    }

    #[test]
    fn own_usage_is_read_and_grows_with_touched_memory() {
        let before = usage(std::process::id()).expect("usage of this process");
        let block = std::hint::black_box(vec![1u8; 64 << 20]);
        let after = usage(std::process::id()).expect("usage of this process");
        assert!(
            after.rss >= before.rss + (48 << 20),
            "{before:?} -> {after:?}"
        );
        assert!(
            after.uss >= before.uss + (48 << 20),
            "{before:?} -> {after:?}"
        );
        assert_eq!(std::hint::black_box(&block)[12345], 1);
    }

    #[test]
    fn free_square_avoids_stones() {
        let game = vec![(10, 10), (9, 9)];
        let p = free_square(&game, 20);
        assert!(!game.contains(&p));
        assert!((p.0 - 10).abs() <= 1 && (p.1 - 10).abs() <= 1);
    }
}
