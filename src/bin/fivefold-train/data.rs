//! Training positions from data files: every labelled ply after the opening, seen by the
//! side to move, with its value target (game result blended with the search's score) and
//! its policy target (the search's best move). With `played`, unlabelled plies (games
//! imported from a stronger engine) count too: the move played and the game result.
//! Games are split into training and validation sets by their index.

use fivefold::data::format::{read_games, GameRecord, Outcome, NO_MOVE};
use fivefold::eval::nn::features::{EMPTY, OPP, OWN};
use fivefold::search::WIN_BOUND;
use std::path::PathBuf;

/// How a ply's labels become targets.
#[derive(Clone, Copy, Debug)]
pub struct TargetOptions {
    /// Scores map to a win probability `sigmoid(score / score_scale)`.
    pub score_scale: f32,
    /// Weight of the game result in the value target (the rest is the score's).
    pub result_weight: f32,
    /// Unlabelled plies train on the move played (policy) and the game result (value).
    pub played: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Offset of the position's cells in `Dataset::cells`.
    pub at: u32,
    pub width: u8,
    pub height: u8,
    /// The search's best square `y * width + x`, or `NO_MOVE`.
    pub best: u16,
    /// Win, draw, loss for the side to move.
    pub value: [f32; 3],
}

/// Positions stored as view codes (`features::EMPTY`, `OWN`, `OPP`), one byte a square.
#[derive(Default)]
pub struct Dataset {
    pub cells: Vec<u8>,
    pub samples: Vec<Sample>,
    pub games: usize,
}

impl Dataset {
    /// Mean entropy of the value targets: the value loss of a perfect fit.
    pub fn value_entropy(&self) -> f64 {
        let h = |p: f32| {
            if p > 0.0 {
                -(p as f64) * (p as f64).ln()
            } else {
                0.0
            }
        };
        let sum: f64 = self
            .samples
            .iter()
            .map(|s| s.value.iter().map(|&p| h(p)).sum::<f64>())
            .sum();
        sum / self.samples.len().max(1) as f64
    }

    pub fn cells_of(&self, s: &Sample) -> &[u8] {
        let n = s.width as usize * s.height as usize;
        &self.cells[s.at as usize..s.at as usize + n]
    }
}

/// Reads the files; game `i` (counting across files) goes to validation when
/// `val_every > 0` and `i % val_every == val_every - 1`.
pub fn load(
    paths: &[PathBuf],
    targets: TargetOptions,
    val_every: usize,
) -> Result<(Dataset, Dataset), String> {
    let (mut train, mut val) = (Dataset::default(), Dataset::default());
    let mut index = 0;
    for path in paths {
        let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let games = read_games(&mut file).map_err(|e| format!("{}: {e}", path.display()))?;
        for g in &games {
            let held_out = val_every > 0 && index % val_every == val_every - 1;
            add_game(if held_out { &mut val } else { &mut train }, g, targets);
            index += 1;
        }
    }
    Ok((train, val))
}

fn result_target(outcome: Outcome, black_to_move: bool) -> [f32; 3] {
    match (outcome, black_to_move) {
        (Outcome::Draw, _) => [0.0, 1.0, 0.0],
        (Outcome::BlackWon, true) | (Outcome::WhiteWon, false) => [1.0, 0.0, 0.0],
        _ => [0.0, 0.0, 1.0],
    }
}

/// The search's score as a win probability (no draw mass); mates are certain.
pub fn score_win_probability(score: i16, scale: f32) -> f32 {
    let s = score as i32;
    if s >= WIN_BOUND {
        1.0
    } else if s <= -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-(s as f32) / scale).exp())
    }
}

pub fn value_target(
    outcome: Outcome,
    black_to_move: bool,
    score: i16,
    t: TargetOptions,
) -> [f32; 3] {
    let r = result_target(outcome, black_to_move);
    let p = score_win_probability(score, t.score_scale);
    let s = [p, 0.0, 1.0 - p];
    let w = t.result_weight;
    [0, 1, 2].map(|k| w * r[k] + (1.0 - w) * s[k])
}

/// Replays a game and adds its labelled plies after the opening (and with `t.played` its
/// unlabelled ones).
pub fn add_game(ds: &mut Dataset, g: &GameRecord, t: TargetOptions) {
    let n = g.width as usize * g.height as usize;
    // Absolute codes: 0 empty, 1 Black, 2 White.
    let mut board = vec![0u8; n];
    for (i, ply) in g.plies.iter().enumerate() {
        let black = i % 2 == 0;
        let targets = if i < g.opening as usize {
            None
        } else if ply.is_labelled() {
            Some((ply.best, value_target(g.outcome, black, ply.score, t)))
        } else if t.played {
            Some((ply.mv, result_target(g.outcome, black)))
        } else {
            None
        };
        if let Some((best, value)) = targets {
            ds.samples.push(Sample {
                at: ds.cells.len() as u32,
                width: g.width,
                height: g.height,
                best,
                value,
            });
            let (own, opp) = if black { (1, 2) } else { (2, 1) };
            ds.cells.extend(board.iter().map(|&c| match c {
                0 => EMPTY,
                c if c == own => OWN,
                c if c == opp => OPP,
                _ => EMPTY,
            }));
        }
        board[ply.mv as usize] = if black { 1 } else { 2 };
    }
    ds.games += 1;
}

/// Symmetries that keep a `width x height` board's shape: 8 on a square, else 4.
pub fn symmetries(width: usize, height: usize) -> u8 {
    if width == height {
        8
    } else {
        4
    }
}

/// Square `(x, y)` under symmetry `sym`: bit 2 transposes, then bit 0 mirrors x and bit 1
/// mirrors y (on the transposed board).
pub fn map_square(sym: u8, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
    let (mut x, mut y, w, h) = if sym & 4 != 0 {
        (y, x, height, width)
    } else {
        (x, y, width, height)
    };
    if sym & 1 != 0 {
        x = w - 1 - x;
    }
    if sym & 2 != 0 {
        y = h - 1 - y;
    }
    (x, y)
}

/// Writes the position under `sym` into `out` (resized) and returns its best square
/// (`NO_MOVE` stays). Symmetries that transpose need a square board.
pub fn transform(ds: &Dataset, s: &Sample, sym: u8, out: &mut Vec<u8>) -> u16 {
    let (w, h) = (s.width as usize, s.height as usize);
    let cells = ds.cells_of(s);
    out.resize(w * h, EMPTY);
    // A transposed board is h wide; only square boards are transposed.
    let out_w = if sym & 4 != 0 { h } else { w };
    for y in 0..h {
        for x in 0..w {
            let (tx, ty) = map_square(sym, x, y, w, h);
            out[ty * out_w + tx] = cells[y * w + x];
        }
    }
    if s.best == NO_MOVE {
        return NO_MOVE;
    }
    let (bx, by) = (s.best as usize % w, s.best as usize / w);
    let (tx, ty) = map_square(sym, bx, by, w, h);
    (ty * out_w + tx) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use fivefold::data::format::Ply;

    const T: TargetOptions = TargetOptions {
        score_scale: 400.0,
        result_weight: 0.5,
        played: false,
    };

    #[test]
    fn targets_blend_result_and_score_for_the_side_to_move() {
        let v = value_target(Outcome::BlackWon, true, 0, T);
        assert_eq!(v, [0.75, 0.0, 0.25]);
        let v = value_target(Outcome::BlackWon, false, -30_000 + 5, T);
        assert_eq!(v, [0.0, 0.0, 1.0]);
        let v = value_target(Outcome::Draw, true, 29_990, T);
        assert_eq!(v, [0.5, 0.5, 0.0]);
        assert!(score_win_probability(400, 400.0) > 0.73);
        assert!(score_win_probability(-400, 400.0) < 0.27);
    }

    #[test]
    fn only_labelled_plies_after_the_opening_are_kept_in_the_movers_view() {
        let g = GameRecord {
            rule: 0,
            width: 5,
            height: 5,
            outcome: Outcome::WhiteWon,
            opening: 2,
            plies: vec![
                Ply::unlabelled(12),
                Ply::unlabelled(13),
                Ply {
                    mv: 0,
                    best: 1,
                    score: 50,
                },
                Ply {
                    mv: 4,
                    best: 20,
                    score: 50,
                },
                Ply::unlabelled(24),
            ],
        };
        let mut ds = Dataset::default();
        add_game(&mut ds, &g, T);
        assert_eq!(ds.samples.len(), 2);
        let (a, b) = (ds.samples[0], ds.samples[1]);
        assert_eq!((a.best, b.best), (1, 20));
        // Ply 2: Black to move, Black's stone at 12 is own, White's at 13 the opponent's.
        assert_eq!(ds.cells_of(&a)[12], OWN);
        assert_eq!(ds.cells_of(&a)[13], OPP);
        // Ply 3: White to move.
        assert_eq!(ds.cells_of(&b)[12], OPP);
        assert_eq!(ds.cells_of(&b)[13], OWN);
        assert_eq!(ds.cells_of(&b)[0], OPP);
        assert_eq!(ds.cells_of(&b)[4], EMPTY);
        assert!(a.value[2] > 0.5 && b.value[0] > 0.5);

        // With `played`, the unlabelled ply after the opening counts too: the move
        // played and the result (Black to move at ply 4, and White won).
        let mut ds = Dataset::default();
        add_game(&mut ds, &g, TargetOptions { played: true, ..T });
        assert_eq!(ds.samples.len(), 3);
        let c = ds.samples[2];
        assert_eq!((c.best, c.value), (24, [0.0, 0.0, 1.0]));
        assert_eq!(ds.cells_of(&c)[4], OPP);
    }

    #[test]
    fn symmetries_are_permutations_that_carry_the_best_move() {
        let mut ds = Dataset::default();
        let cells: Vec<u8> = (0..30).collect();
        ds.cells.extend(&cells);
        let s = Sample {
            at: 0,
            width: 6,
            height: 5,
            best: 7,
            value: [1.0, 0.0, 0.0],
        };
        for sym in 0..symmetries(6, 5) {
            let mut out = Vec::new();
            let best = transform(&ds, &s, sym, &mut out);
            assert_eq!(out[best as usize], cells[7], "sym {sym}");
            let mut sorted = out.clone();
            sorted.sort();
            let mut want = cells.clone();
            want.sort();
            assert_eq!(sorted, want);
        }
        let mut seen = std::collections::HashSet::new();
        for sym in 0..8 {
            seen.insert(map_square(sym, 1, 0, 5, 5));
        }
        assert_eq!(seen.len(), 8, "8 distinct images of an off-axis square");
    }
}
