//! Labelling positions by a stronger engine's search, for fitting to search scores rather
//! than to game results alone.
//!
//! Each position goes to the brain as a `BOARD` with `INFO max_node`, and the last
//! evaluation it reports before its move, `Eval V` in a `MESSAGE` line as Rapfi prints it
//! (`+Mn` / `-Mn` for a mate in n), becomes the side to move's expected score
//! `sigmoid(V / scale)`. A brain still busy after its answer drops commands (Rapfi does),
//! so before each position `ABOUT` is sent until it is answered.

use anyhow::{bail, Result};
use fivefold::data::external::{self, Eval};
use fivefold::driver::{Brain, Output};
use std::time::{Duration, Instant};

pub struct LabelOptions {
    /// The brain's command line.
    pub engine: String,
    /// `INFO max_node` for each position.
    pub nodes: u64,
    /// Evaluation units per unit of log-odds (Rapfi's classical model: 250).
    pub scale: f64,
    /// Brains run at once.
    pub jobs: usize,
}

/// Labels every `SIZE x,y ...` position; `None` where the brain gave no evaluation.
pub fn label_all(positions: &[String], opts: &LabelOptions) -> Result<Vec<Option<f64>>> {
    let jobs = opts.jobs.max(1);
    let results = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                s.spawn(move || -> Result<Vec<(usize, Option<f64>)>> {
                    let mut labeller = Labeller::new(opts)?;
                    let mut out = Vec::new();
                    for i in (j..positions.len()).step_by(jobs) {
                        out.push((i, labeller.label(&positions[i])?));
                        if j == 0 && i % (100 * jobs) == 0 {
                            eprint!("\rlabelled {i} of {}", positions.len());
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| bail!("a labelling thread panicked"))
            })
            .collect::<Vec<_>>()
    });
    eprintln!();
    let mut labels = vec![None; positions.len()];
    for part in results {
        for (i, p) in part? {
            labels[i] = p;
        }
    }
    Ok(labels)
}

/// One brain and the board size it was started with.
struct Labeller<'a> {
    opts: &'a LabelOptions,
    brain: Brain,
    size: Option<usize>,
}

impl<'a> Labeller<'a> {
    fn new(opts: &'a LabelOptions) -> Result<Labeller<'a>> {
        Ok(Labeller {
            opts,
            brain: Brain::spawn(&opts.engine, None)?,
            size: None,
        })
    }

    /// A fresh brain after one that hung or died; gives up after a few tries.
    fn restart(&mut self) -> Result<()> {
        self.brain.kill();
        self.brain = Brain::spawn(&self.opts.engine, None)?;
        self.size = None;
        Ok(())
    }

    fn label(&mut self, position: &str) -> Result<Option<f64>> {
        for _ in 0..3 {
            match self.try_label(position) {
                Some(v) => return Ok(v.map(|v| sigmoid(v / self.opts.scale))),
                None => self.restart()?,
            }
        }
        bail!("the brain fails on position '{position}'")
    }

    /// The brain's evaluation (`Some(None)`: it moved without one); `None` if it hung.
    fn try_label(&mut self, position: &str) -> Option<Option<f64>> {
        let mut parts = position.split_whitespace();
        let size: usize = parts.next()?.parse().ok()?;
        let moves: Vec<&str> = parts.collect();
        external::wait_idle(&mut self.brain).ok()?;
        if self.size != Some(size) {
            self.brain.send(&format!("START {size}")).ok()?;
            self.expect(|l| l == "OK", Duration::from_secs(10))?;
            for info in [
                format!("INFO max_node {}", self.opts.nodes),
                "INFO timeout_turn 100000".into(),
                "INFO timeout_match 0".into(),
            ] {
                self.brain.send(&info).ok()?;
            }
            self.size = Some(size);
        }
        self.brain.send("BOARD").ok()?;
        for (i, m) in moves.iter().enumerate() {
            // 1: the side to move's stone, 2: the opponent's.
            let own = if (moves.len() - i).is_multiple_of(2) {
                1
            } else {
                2
            };
            self.brain.send(&format!("{m},{own}")).ok()?;
        }
        self.brain.send("DONE").ok()?;
        let deadline = Instant::now() + Duration::from_secs(60);
        let (_, eval) = external::move_and_eval(&mut self.brain, deadline).ok()?;
        Some(eval.map(units))
    }

    /// Reads lines until one satisfies `want`; `None` on a timeout or the end of output.
    fn expect(&mut self, want: impl Fn(&str) -> bool, timeout: Duration) -> Option<()> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.brain.recv_until(deadline)? {
                Output::Line(l) if want(&l) => return Some(()),
                Output::Line(_) => {}
                Output::Closed => return None,
            }
        }
    }
}

/// Mates count as this many evaluation units, less the distance.
const MATE: f64 = 30_000.0;

/// An evaluation in these units: mates as `MATE` less the distance.
fn units(e: Eval) -> f64 {
    match e {
        Eval::Mate(n) if n >= 0 => MATE - n as f64,
        Eval::Mate(n) => -MATE - n as f64,
        Eval::Units(v) => v,
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_are_read_from_message_lines() {
        let parse_eval = |line: &str| external::parse_eval(line).map(units);
        let line = "MESSAGE Speed 574K | Depth 8-16 | Eval -345 | Node 1149 | Time 2ms";
        assert_eq!(parse_eval(line), Some(-345.0));
        assert_eq!(
            parse_eval("MESSAGE Depth 3 | Eval +M5 | x"),
            Some(MATE - 5.0)
        );
        assert_eq!(
            parse_eval("MESSAGE Depth 3 | Eval -M12"),
            Some(-MATE + 12.0)
        );
        assert_eq!(parse_eval("MESSAGE Depth 3 | Eval VAL_NONE"), None);
        assert_eq!(parse_eval("7,7"), None);
        assert!(sigmoid(MATE / 250.0) > 0.999 && sigmoid(0.0) == 0.5);
    }

    #[cfg(unix)]
    #[test]
    fn a_brain_labels_each_position() {
        // A mock brain: ignores ABOUT until it has seen one (as a busy brain would), then
        // reports Eval 250 for Black to move and -500 for White, and moves.
        let script = r#"seen=0; while read -r l; do case "$l" in
            ABOUT) [ $seen = 1 ] && echo 'name="mock"'; seen=1;;
            START*) echo OK;;
            BOARD) n=0;;
            DONE) if [ $((n % 2)) = 0 ]; then echo 'MESSAGE Depth 1 | Eval 250'; else echo 'MESSAGE Eval -500 | x'; fi; echo 7,7;;
            [0-9]*) n=$((n+1));;
            END) exit;;
            esac; done"#;
        let path = std::env::temp_dir().join(format!("mock-brain-{}.sh", std::process::id()));
        std::fs::write(&path, script).unwrap();
        let opts = LabelOptions {
            engine: format!("sh {}", path.display()),
            nodes: 100,
            scale: 250.0,
            jobs: 2,
        };
        let positions = ["15 7,7 8,8", "15 7,7", "20 1,1 2,2 3,3 4,4"].map(String::from);
        let labels = label_all(&positions, &opts);
        let _ = std::fs::remove_file(&path);
        let labels = labels.unwrap();
        let want = [sigmoid(1.0), sigmoid(-2.0), sigmoid(1.0)];
        for (got, want) in labels.iter().zip(want) {
            assert!((got.unwrap() - want).abs() < 1e-9, "{got:?} {want}");
        }
    }
}
