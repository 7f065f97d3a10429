//! Reading arena game lines and turning games into labelled quiet positions.

use anyhow::{bail, Context, Result};
use fivefold::eval::weights::FEATURES;
use fivefold::eval::{Evaluator, Threat};
use fivefold::game::{Board, Color, Move, Rule};
use std::collections::HashMap;

/// One finished game from a `games.txt` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub size: usize,
    /// 1 black won, 0 white won, 0.5 draw.
    pub black_score: f64,
    /// Suite line index and stone count of the opening, if any.
    pub opening: Option<(usize, usize)>,
    pub moves: Vec<(usize, usize)>,
}

/// Parses an arena line: `#12 black=A white=B result=1-0 reason="..." opening=3/4 moves=7,7 ...`.
/// Returns `Ok(None)` for a game that did not end on the board (timeouts, crashes, illegal
/// moves): its result says nothing about the position.
pub fn parse_line(line: &str, size: usize) -> Result<Option<Game>> {
    let field = |name: &str| -> Result<&str> {
        let start = line
            .find(&format!(" {name}="))
            .with_context(|| format!("no {name}= field"))?
            + name.len()
            + 2;
        Ok(line[start..].split(' ').next().unwrap_or(""))
    };
    let black_score = match field("result")? {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        r => bail!("unknown result '{r}'"),
    };
    let reason_start = line.find("reason=\"").context("no reason field")? + 8;
    let reason = line[reason_start..].split('"').next().unwrap_or("");
    if !(reason.contains("wins by five") || reason.starts_with("draw")) {
        return Ok(None);
    }
    let opening = match field("opening")? {
        "none" => None,
        o => {
            let (i, k) = o.split_once('/').context("bad opening field")?;
            Some((i.parse()?, k.parse()?))
        }
    };
    let moves_at = line.find(" moves=").context("no moves field")? + 7;
    let moves = line[moves_at..]
        .split_whitespace()
        .map(|mv| {
            let (x, y) = mv
                .split_once(',')
                .with_context(|| format!("bad move '{mv}'"))?;
            let (x, y): (usize, usize) = (x.parse()?, y.parse()?);
            if x >= size || y >= size {
                bail!("move {mv} is off a {size}x{size} board");
            }
            Ok((x, y))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(Game {
        size,
        black_score,
        opening,
        moves,
    }))
}

/// The players of an arena line, `black=` and `white=` (empty where missing).
pub fn players(line: &str) -> (&str, &str) {
    let field = |name: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .unwrap_or("")
    };
    (field("black="), field("white="))
}

/// A labelled position: the evaluation's features for the side to move (a block per
/// colour, see `Evaluator::features`), and the game's result for that side.
pub struct Sample {
    pub features: [[i32; FEATURES]; 2],
    pub score: f64,
    /// `evaluate(side to move)` with the engine's compiled-in weights.
    pub engine_eval: i32,
    pub side: Color,
    /// `Evaluator::state_index(side to move)`.
    pub state: usize,
    /// How many of the game's moves lead to this position.
    pub ply: usize,
    /// `Evaluator::combo_features(side to move)`.
    pub combos: Vec<(usize, i32)>,
}

/// Whether the tuner learns from this position: nothing tactical pending. Neither side has
/// a five to make (the side to move would win; its opponent's four must be blocked), and
/// neither can make an open four (an open three on the board). With `facing_threes`, a
/// position where only the opponent of the side to move can make an open four counts too:
/// the search evaluates such leaves, so the waiter's open-four values get data.
pub fn is_quiet(e: &Evaluator, side: Color, facing_threes: bool) -> bool {
    let them = side.opp();
    e.count(side, Threat::Five) == 0
        && e.count(them, Threat::Five) == 0
        && e.count(side, Threat::FlexFour) == 0
        && (facing_threes || e.count(them, Threat::FlexFour) == 0)
}

/// Replays `game` under `rule` and returns its quiet positions from ply `first` on (plies before the
/// final move only: the last position is decided).
pub fn samples(game: &Game, rule: Rule, first: usize, facing_threes: bool) -> Result<Vec<Sample>> {
    let mut board = Board::new(game.size, game.size, rule);
    let mut eval = Evaluator::new(&board);
    let mut out = Vec::new();
    for (ply, &(x, y)) in game.moves.iter().enumerate() {
        if ply >= first {
            let side = board.side_to_move();
            if is_quiet(&eval, side, facing_threes) {
                let black = game.black_score;
                out.push(Sample {
                    features: eval.features(side),
                    score: if side == Color::Black {
                        black
                    } else {
                        1.0 - black
                    },
                    engine_eval: eval.evaluate(side),
                    side,
                    state: eval.state_index(side),
                    ply,
                    combos: eval.combo_features(side),
                });
            }
        }
        let m = Move::from_xy(x, y);
        if !board.is_empty(m) {
            bail!("move {x},{y} (ply {ply}) is on a stone");
        }
        board.make(m);
        eval.after_place(&board, m);
    }
    Ok(out)
}

/// A position for a brain: `SIZE x,y x,y ...`, the moves that lead to it.
pub fn position_text(size: usize, moves: &[(usize, usize)]) -> String {
    let mut text = size.to_string();
    for (x, y) in moves {
        text.push_str(&format!(" {x},{y}"));
    }
    text
}

/// Where a position is in the training data: `FILE LINE PLY`, the game file's name (no
/// folder), the game's line (from 1) and the number of moves played.
pub fn label_key(file: &str, line: usize, ply: usize) -> String {
    let name = std::path::Path::new(file)
        .file_name()
        .map_or(file.into(), |n| n.to_string_lossy());
    format!("{name} {line} {ply}")
}

/// Parses search labels: `FILE LINE PLY P` lines (`label_key`, then the side to move's
/// expected score, 0 to 1, from a search of that position). Returns P by `label_key`.
pub fn parse_labels(text: &str) -> Result<HashMap<String, f64>> {
    let mut map = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [file, game, ply, p] = words[..] else {
            if words.is_empty() {
                continue;
            }
            bail!("line {}: want FILE LINE PLY P", n + 1);
        };
        let (Ok(game), Ok(ply)) = (game.parse::<usize>(), ply.parse::<usize>()) else {
            bail!("line {}: bad line or ply number", n + 1);
        };
        let p: f64 = p
            .parse()
            .ok()
            .filter(|v| (0.0..=1.0).contains(v))
            .with_context(|| format!("line {}: bad label '{p}'", n + 1))?;
        map.insert(label_key(file, game, ply), p);
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_arena_lines() {
        let line = "#5 black=B white=A result=0-1 reason=\"white wins by five\" opening=2/3 \
                    moves=7,7 8,8 6,6 9,9";
        let g = parse_line(line, 15).unwrap().unwrap();
        assert_eq!(g.black_score, 0.0);
        assert_eq!(g.opening, Some((2, 3)));
        assert_eq!(g.moves, vec![(7, 7), (8, 8), (6, 6), (9, 9)]);
        let timeout = line.replace("white wins by five", "black loses: timeout");
        assert_eq!(parse_line(&timeout, 15).unwrap(), None);
        let draw = line
            .replace("0-1", "1/2-1/2")
            .replace("white wins by five", "draw: 200 moves played");
        assert_eq!(parse_line(&draw, 15).unwrap().unwrap().black_score, 0.5);
        assert!(parse_line(&line.replace("9,9", "15,9"), 15).is_err());
        assert!(parse_line(&line.replace("9,9", "9;9"), 15).is_err());
        assert!(parse_line(&line.replace("result=0-1", "result=2-0"), 15).is_err());
    }

    #[test]
    fn samples_are_quiet_and_labelled_for_the_side_to_move() {
        // Black makes an open three (7,7 8,7 9,7) at ply 4 and wins; White's positions
        // facing it are not quiet.
        let g = Game {
            size: 15,
            black_score: 1.0,
            opening: None,
            moves: vec![(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)],
        };
        let s = samples(&g, Rule::Freestyle, 0, false).unwrap();
        // Plies 0..=4 are quiet (black to move at 0, 2, 4; white at 1, 3); ply 5 (white
        // facing the open three) and ply 6 (black can make an open four) are not.
        assert_eq!(s.len(), 5);
        let scores: Vec<f64> = s.iter().map(|x| x.score).collect();
        assert_eq!(scores, vec![1.0, 0.0, 1.0, 0.0, 1.0]);
        assert_eq!(samples(&g, Rule::Freestyle, 2, false).unwrap().len(), 3);
        // White facing the open three at ply 5 is kept with `facing_threes`; Black able to
        // make an open four at ply 6 still is not.
        let facing = samples(&g, Rule::Freestyle, 0, true).unwrap();
        assert_eq!(facing.len(), 6);
        assert_eq!(facing[5].score, 0.0);
        let mut on_stone = g.clone();
        on_stone.moves[3] = (0, 0);
        assert!(samples(&on_stone, Rule::Freestyle, 0, false).is_err());
    }

    #[test]
    fn samples_are_evaluated_under_the_rule() {
        // Black: 3,7 4,7 _ 6,7 7,7 8,7. Under freestyle 5,7 makes five; under standard it
        // makes an overline, which wins for nobody, so the position is quiet there.
        let g = Game {
            size: 15,
            black_score: 0.5,
            opening: None,
            moves: vec![
                (3, 7),
                (0, 0),
                (4, 7),
                (14, 0),
                (6, 7),
                (0, 14),
                (7, 7),
                (10, 12),
                (8, 7),
                (14, 14),
            ],
        };
        let free = samples(&g, Rule::Freestyle, 9, false).unwrap();
        let standard = samples(&g, Rule::Standard, 9, false).unwrap();
        assert!(free.is_empty());
        assert_eq!(standard.len(), 1);
        let overline = fivefold::eval::weights::pattern_feature(
            fivefold::eval::weights::WAITER,
            fivefold::eval::Pattern::Overline as usize,
        );
        // White to move: Black's overline counts in Black's block, as the waiter's.
        assert_eq!(standard[0].features[Color::Black.idx()][overline], -1);
        assert_eq!(standard[0].features[Color::White.idx()][overline], 0);
    }

    #[test]
    fn labels_are_keyed_by_file_game_and_ply() {
        let text = "games15.txt 3 17 0.25\n\nmore20.txt 1 0 1\ngames15.txt 3 18 0.5\n";
        let map = parse_labels(text).unwrap();
        assert_eq!(map.len(), 3);
        assert_eq!(map[&label_key("data/games15.txt", 3, 17)], 0.25);
        assert_eq!(map[&label_key("more20.txt", 1, 0)], 1.0);
        assert_eq!(map[&label_key("games15.txt", 3, 18)], 0.5);
        assert!(!map.contains_key(&label_key("games15.txt", 4, 17)));
        for bad in [
            "games15.txt 3 17 1.5",
            "games15.txt 3 17 x",
            "games15.txt 3 0.5",
            "a b 1 0.5",
        ] {
            assert!(parse_labels(bad).is_err(), "{bad}");
        }
        assert_eq!(position_text(15, &[(7, 7), (8, 9)]), "15 7,7 8,9");
    }
}
