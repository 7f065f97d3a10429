//! Labels from another brain: any Gomocup engine, given as a command line, searches each
//! ply of a record at a node limit (`INFO max_node`), and its move and the evaluation its
//! last `MESSAGE ... Eval X` line reports become the ply's best square and score. A teacher
//! that is stronger per node than our own search (`fivefold-data relabel --engine`).

use super::format::GameRecord;
use crate::driver::{parse_move, Brain, Output};
use crate::search::WIN;
use anyhow::{bail, Context, Result};
use std::time::{Duration, Instant};

/// A brain process kept across games, asked for one position at a time.
pub struct EngineLabeller {
    brain: Brain,
    nodes: u64,
    /// Engine evaluation units to ours: `ours = round(theirs * scale)`.
    scale: f64,
    /// Plies given the engine's label, and plies that kept theirs (no evaluation).
    pub labelled: u64,
    pub kept: u64,
}

/// The engine's evaluation in a `MESSAGE` line: `Eval +M13` (a win in 13 plies), `Eval
/// -M4`, `Eval 125`, `Eval -37`, as Rapfi writes it, or `score 310`, `score win13`,
/// `score loss12`, as Fivefold does; `None` if the line has none.
pub fn parse_eval(line: &str) -> Option<Eval> {
    let mut words = line.split(['|', ' ']).filter(|w| !w.is_empty());
    words.find(|w| {
        ["eval", "ev", "score"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    })?;
    let word = words.next()?;
    // Fivefold's own lines: `score win13`, `score loss12`.
    if let Some(n) = word.strip_prefix("win") {
        return n.parse::<i32>().ok().map(Eval::Mate);
    }
    if let Some(n) = word.strip_prefix("loss") {
        return n.parse::<i32>().ok().map(|n| Eval::Mate(-n));
    }
    let (sign, rest) = match word.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, word.strip_prefix('+').unwrap_or(word)),
    };
    if let Some(n) = rest.strip_prefix('M').or_else(|| rest.strip_prefix('m')) {
        return n.parse::<i32>().ok().map(|n| Eval::Mate(sign * n));
    }
    rest.parse::<f64>()
        .ok()
        .map(|v| Eval::Units(sign as f64 * v))
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// A forced win (positive) or loss (negative) in this many plies.
    Mate(i32),
    Units(f64),
}

impl Eval {
    /// In our score units, as a data ply stores it: mates as `WIN - plies`, the rest
    /// scaled and kept inside the solved scores' bound.
    pub fn to_score(self, scale: f64) -> i16 {
        let s = match self {
            Eval::Mate(n) if n >= 0 => WIN - n,
            Eval::Mate(n) => -(WIN + n),
            Eval::Units(v) => ((v * scale).round() as i32).clamp(-(WIN - 1_001), WIN - 1_001),
        };
        s as i16
    }
}

impl EngineLabeller {
    pub fn spawn(cmd: &str, nodes: u64, scale: f64) -> Result<EngineLabeller> {
        let brain = Brain::spawn(cmd, None).with_context(|| format!("cannot start `{cmd}`"))?;
        Ok(EngineLabeller {
            brain,
            nodes,
            scale,
            labelled: 0,
            kept: 0,
        })
    }

    fn line(&mut self, deadline: Instant) -> Result<String> {
        match self.brain.recv_until(deadline) {
            Some(Output::Line(l)) => Ok(l),
            Some(Output::Closed) => bail!("the engine closed its output"),
            None => bail!("the engine did not answer in time"),
        }
    }

    /// Gives every ply after the opening the engine's move and evaluation (the moves and
    /// the result stay). The engine gets a fresh `START` each game.
    pub fn relabel(&mut self, g: &mut GameRecord) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(30);
        self.brain.send(&format!("START {}", g.width))?;
        loop {
            let l = self.line(deadline)?;
            if l.trim() == "OK" {
                break;
            }
            if l.starts_with("ERROR") {
                bail!("START {}: {l}", g.width);
            }
        }
        for info in [
            format!("INFO rule {}", g.rule),
            format!("INFO max_node {}", self.nodes),
            "INFO timeout_turn 600000".to_string(),
            "INFO timeout_match 0".to_string(),
            "INFO time_left 2147483647".to_string(),
        ] {
            self.brain.send(&info)?;
        }
        for i in g.opening as usize..g.plies.len() {
            // A move played at once, without a search (a five to make or to block), comes
            // without an evaluation: the ply keeps the label it had.
            if let (best, Some(eval)) = self.ask(g, i)? {
                g.plies[i].best = best;
                g.plies[i].score = eval.to_score(self.scale);
                self.labelled += 1;
            } else {
                self.kept += 1;
            }
        }
        Ok(())
    }

    /// The engine's move and evaluation for the position before ply `i` (its side to move
    /// is the engine's: `BOARD` field 1).
    fn ask(&mut self, g: &GameRecord, i: usize) -> Result<(u16, Option<Eval>)> {
        wait_idle(&mut self.brain)?;
        self.brain.send("BOARD")?;
        for (k, p) in g.plies[..i].iter().enumerate() {
            let (x, y) = g.xy(p.mv);
            let own = k % 2 == i % 2;
            self.brain
                .send(&format!("{x},{y},{}", if own { 1 } else { 2 }))?;
        }
        self.brain.send("DONE")?;
        let deadline = Instant::now() + Duration::from_secs(120);
        let ((x, y), eval) =
            move_and_eval(&mut self.brain, deadline).with_context(|| format!("ply {i}"))?;
        if x < 0 || y < 0 || x >= g.width as i64 || y >= g.height as i64 {
            bail!("ply {i}: move {x},{y} off the board");
        }
        Ok((g.square(x as usize, y as usize), eval))
    }
}

/// Waits until a brain takes commands again. Rapfi prints its move a moment before it
/// leaves its thinking state and drops a command that arrives in between (a `BOARD` lost
/// so turned the board's lines into unknown commands): `ABOUT` is sent until answered.
pub fn wait_idle(brain: &mut Brain) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        brain.send("ABOUT")?;
        let answer = Instant::now() + Duration::from_millis(50);
        loop {
            match brain.recv_until(answer) {
                Some(Output::Line(l)) if l.starts_with("name=") => return Ok(()),
                Some(Output::Line(_)) => {}
                Some(Output::Closed) => bail!("the engine closed its output"),
                None => break,
            }
        }
    }
    bail!("the engine did not answer ABOUT")
}

/// Reads a brain's lines up to its move: the move and the last evaluation its `MESSAGE`
/// lines gave before it (`None`: it moved without one).
pub fn move_and_eval(brain: &mut Brain, deadline: Instant) -> Result<((i64, i64), Option<Eval>)> {
    let mut eval = None;
    loop {
        let l = match brain.recv_until(deadline) {
            Some(Output::Line(l)) => l,
            Some(Output::Closed) => bail!("the engine closed its output"),
            None => bail!("the engine did not answer in time"),
        };
        if let Some(msg) = l.strip_prefix("MESSAGE") {
            eval = parse_eval(msg).or(eval);
        } else if l.starts_with("ERROR") || l.starts_with("UNKNOWN") {
            bail!("{l}");
        } else if let Some(xy) = parse_move(&l) {
            return Ok((xy, eval));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_parse_as_rapfi_prints_them() {
        let cases = [
            (
                " Speed 802K | Depth 27-9 | Eval +M13 | Node 649K | Time 809ms",
                Some(Eval::Mate(13)),
            ),
            (
                " Depth 12-20 | Eval -M4 | Time 5ms | H8",
                Some(Eval::Mate(-4)),
            ),
            (" depth 9-14 ev 125 n 3000", Some(Eval::Units(125.0))),
            (" Depth 3-5 | Eval -37 | x", Some(Eval::Units(-37.0))),
            (
                " depth 10 score win13 nodes 30254 pv 7,9",
                Some(Eval::Mate(13)),
            ),
            (" depth 4 score loss6 nodes 9", Some(Eval::Mate(-6))),
            (" depth 8 score -310 nodes 10818", Some(Eval::Units(-310.0))),
            (" hello", None),
            (" Eval nonsense", None),
        ];
        for (line, want) in cases {
            assert_eq!(parse_eval(line), want, "{line}");
        }
    }

    #[test]
    fn scores_keep_mates_apart_from_evaluations() {
        assert_eq!(Eval::Mate(13).to_score(2.0), (WIN - 13) as i16);
        assert_eq!(Eval::Mate(-4).to_score(2.0), (-(WIN - 4)) as i16);
        assert_eq!(Eval::Units(125.0).to_score(2.0), 250);
        let huge = Eval::Units(1e9).to_score(2.0) as i32;
        assert!(huge < crate::search::WIN_BOUND, "{huge}");
    }
}
