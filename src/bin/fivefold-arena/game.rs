//! One game between two players: setup, the move loop, and adjudication per rule.

use crate::openings::Opening;
use crate::player::{Forfeit, Limits, Player, ReadError};
use crate::stats::{EngineStats, Outcome};
use fivefold::driver::parse_move;
use fivefold::game::{Board, Color, Foul, Move, Rule};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the scheduler hands a worker.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub index: usize,
    /// Index in the suite and the stones, or `None` for an empty board (BEGIN).
    pub opening: Option<(usize, Opening)>,
    pub a_is_black: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins,
    WhiteWins,
    Draw,
}

impl GameResult {
    pub fn notation(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::Black => GameResult::BlackWins,
            Color::White => GameResult::WhiteWins,
        }
    }
}

/// Everything known about a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    pub a_is_black: bool,
    pub black: String,
    pub white: String,
    pub opening_index: Option<usize>,
    pub opening_len: usize,
    /// All stones in order, opening included; `(x, y, ms)` with 0 ms for opening stones.
    pub moves: Vec<(usize, usize, u64)>,
    pub result: GameResult,
    pub reason: String,
    /// Indexed by `Color::idx()`.
    pub stats: [EngineStats; 2],
    pub logs: [Vec<String>; 2],
}

impl GameRecord {
    pub fn outcome_for_a(&self) -> Outcome {
        match (self.result, self.a_is_black) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::BlackWins, true) | (GameResult::WhiteWins, false) => Outcome::Win,
            _ => Outcome::Loss,
        }
    }

    /// Stats of engine A and engine B, in that order.
    pub fn stats_a_b(&self) -> (&EngineStats, &EngineStats) {
        let (b, w) = (&self.stats[0], &self.stats[1]);
        if self.a_is_black {
            (b, w)
        } else {
            (w, b)
        }
    }
}

/// How a game ended, before it is written up.
struct Ending {
    result: GameResult,
    reason: String,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Per-game settings beyond the engines' limits.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub limits: Limits,
    /// Draw once this many stones are on the board (opening included).
    pub max_moves: Option<usize>,
}

/// Plays one game. `a` and `b` are engines A and B; returns `None` if `stop` was raised.
pub fn play_game(
    spec: &GameSpec,
    a: &mut Player,
    b: &mut Player,
    rules: &GameRules,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut players: [&mut Player; 2] = if spec.a_is_black { [a, b] } else { [b, a] };
    let mut game = GameState::new(spec, rules);
    let ending = match start_both(&mut players, &rules.limits, stop) {
        Start::Aborted => None,
        Start::Failed(ending) => Some(ending),
        Start::Ready => game.run(&mut players, rules, stop),
    };
    let Some(ending) = ending else {
        for p in players.iter_mut() {
            p.retire(false);
        }
        return None;
    };
    for c in [Color::Black, Color::White] {
        players[c.idx()].finish_game(&rules.limits, !game.broken[c.idx()]);
        if rules.limits.match_ms > 0 {
            let left = game.time_left[c.idx()];
            game.stats[c.idx()].add_clock_left(left);
        }
    }
    Some(GameRecord {
        index: spec.index,
        a_is_black: spec.a_is_black,
        black: players[0].spec.name.clone(),
        white: players[1].spec.name.clone(),
        opening_index: spec.opening.as_ref().map(|(i, _)| *i),
        opening_len: spec.opening.as_ref().map_or(0, |(_, o)| o.len()),
        moves: game.moves,
        result: ending.result,
        reason: ending.reason,
        stats: game.stats,
        logs: [players[0].take_log(), players[1].take_log()],
    })
}

enum Start {
    Ready,
    Failed(Ending),
    Aborted,
}

/// Starts both engines. A failed start loses the game (both failing: a draw, so the run
/// still shows the problem in its forfeit counts without favouring either side).
fn start_both(players: &mut [&mut Player; 2], lim: &Limits, stop: &AtomicBool) -> Start {
    let mut failed: Vec<(Color, Forfeit)> = Vec::new();
    for c in [Color::Black, Color::White] {
        match players[c.idx()].start_game(lim, stop) {
            Ok(()) => {}
            Err(ReadError::Aborted) => return Start::Aborted,
            Err(ReadError::Forfeit(f)) => failed.push((c, f)),
        }
    }
    match failed.as_slice() {
        [] => Start::Ready,
        [(c, f)] => Start::Failed(Ending {
            result: GameResult::win_for(c.opp()),
            reason: format!("{} failed to start: {}", color_name(*c), f.describe()),
        }),
        _ => Start::Failed(Ending {
            result: GameResult::Draw,
            reason: "both engines failed to start".to_string(),
        }),
    }
}

struct GameState {
    board: Board,
    moves: Vec<(usize, usize, u64)>,
    has_opening: bool,
    /// Whether each colour has been asked for a move yet (its first request sets the board).
    asked: [bool; 2],
    /// Match clock left, ms, per colour (only meaningful with a match limit).
    time_left: [i64; 2],
    stats: [EngineStats; 2],
    /// Engines whose process must not be reused (timed out or crashed).
    broken: [bool; 2],
}

impl GameState {
    fn new(spec: &GameSpec, rules: &GameRules) -> GameState {
        let lim = &rules.limits;
        let mut board = Board::new(lim.size, lim.size, Rule::from_bits(lim.rule_bits));
        let mut moves = Vec::new();
        if let Some((_, opening)) = &spec.opening {
            for &(x, y) in opening {
                board.make(Move::from_xy(x, y));
                moves.push((x, y, 0));
            }
        }
        GameState {
            board,
            moves,
            has_opening: spec.opening.is_some(),
            asked: [false; 2],
            time_left: [lim.match_ms as i64; 2],
            stats: Default::default(),
            broken: [false; 2],
        }
    }

    /// The move loop; `None` if aborted.
    fn run(
        &mut self,
        players: &mut [&mut Player; 2],
        rules: &GameRules,
        stop: &AtomicBool,
    ) -> Option<Ending> {
        loop {
            if let Some(end) = self.draw_by_count(rules.max_moves) {
                return Some(end);
            }
            let side = self.board.side_to_move();
            if let Some(end) = self.draw_without_legal_move(side) {
                return Some(end);
            }
            let lines = self.request(side, &rules.limits);
            let turn_ms = players[side.idx()].spec.turn_ms(&rules.limits);
            let (limit, tolerance) = self.limit(side, turn_ms, &rules.limits);
            let reply = players[side.idx()].ask_move(&lines, limit, tolerance, stop);
            self.asked[side.idx()] = true;
            let (line, took) = match reply {
                Err(ReadError::Aborted) => return None,
                Err(ReadError::Forfeit(f)) => return Some(self.forfeit(side, f)),
                Ok(r) => r,
            };
            let ms = took.as_millis() as u64;
            self.stats[side.idx()].add_move(ms);
            self.time_left[side.idx()] = (self.time_left[side.idx()] - ms as i64).max(0);
            let m = match check_move(&self.board, &line) {
                Ok(m) => m,
                Err(why) => return Some(self.forfeit(side, Forfeit::Illegal(why))),
            };
            if let Some(end) = self.apply(m, side, ms) {
                return Some(end);
            }
        }
    }

    /// Plays a legal move for `side` and returns the ending it causes, if any.
    fn apply(&mut self, m: Move, side: Color, ms: u64) -> Option<Ending> {
        if let Some(foul) = renju_foul(&self.board, m, side) {
            let detail = format!("renju foul at {},{}: {foul}", m.x(), m.y());
            return Some(self.forfeit(side, Forfeit::Illegal(detail)));
        }
        let wins = self.board.is_winning_at(m, side);
        self.board.make(m);
        self.moves.push((m.x(), m.y(), ms));
        if wins {
            return Some(Ending {
                result: GameResult::win_for(side),
                reason: format!("{} wins by five", color_name(side)),
            });
        }
        (self.board.empty_count() == 0).then(|| Ending {
            result: GameResult::Draw,
            reason: "draw: board full".to_string(),
        })
    }

    /// Renju near a full board: every empty square may be forbidden to Black. With no
    /// legal move to make the game is drawn, as a full board is, rather than lost to the
    /// foul the engine is left to play (a 100 ms match on 2026-12-01 lost one game so).
    fn draw_without_legal_move(&self, side: Color) -> Option<Ending> {
        let (w, h) = (self.board.width(), self.board.height());
        let legal = (0..h)
            .flat_map(|y| (0..w).map(move |x| Move::from_xy(x, y)))
            .any(|m| self.board.is_empty(m) && renju_foul(&self.board, m, side).is_none());
        (!legal).then(|| Ending {
            result: GameResult::Draw,
            reason: "draw: no legal move".to_string(),
        })
    }

    fn draw_by_count(&self, max_moves: Option<usize>) -> Option<Ending> {
        let max = max_moves?;
        (self.moves.len() >= max).then(|| Ending {
            result: GameResult::Draw,
            reason: format!("draw: {max} moves played"),
        })
    }

    fn forfeit(&mut self, side: Color, f: Forfeit) -> Ending {
        let s = &mut self.stats[side.idx()];
        match f {
            Forfeit::Timeout(_) => s.timeouts += 1,
            Forfeit::Illegal(_) => s.illegal += 1,
            Forfeit::Crash(_) => s.crashes += 1,
        }
        if matches!(f, Forfeit::Timeout(_) | Forfeit::Crash(_)) {
            self.broken[side.idx()] = true;
        }
        Ending {
            result: GameResult::win_for(side.opp()),
            reason: format!("{} loses: {}", color_name(side), f.describe()),
        }
    }

    /// Time allowed for this move under the side's own `turn_ms` (0 = none), and the
    /// tolerance on top of it.
    fn limit(&self, side: Color, turn_ms: u64, lim: &Limits) -> (Duration, Duration) {
        let mut ms = u64::MAX;
        if turn_ms > 0 {
            ms = turn_ms;
        }
        if lim.match_ms > 0 {
            ms = ms.min(self.time_left[side.idx()].max(0) as u64);
        }
        (
            Duration::from_millis(ms.min(24 * 3600 * 1000)),
            Duration::from_millis(lim.tolerance_ms),
        )
    }

    /// The lines that ask `side` for a move: `INFO time_left`, then BEGIN, TURN or BOARD.
    fn request(&self, side: Color, lim: &Limits) -> Vec<String> {
        let time_left = if lim.match_ms > 0 {
            self.time_left[side.idx()]
        } else {
            2_147_483_647
        };
        let mut lines = vec![format!("INFO time_left {time_left}")];
        lines.extend(move_request(
            &self.board,
            self.asked[side.idx()],
            self.has_opening,
        ));
        lines
    }
}

/// BEGIN on an empty board; TURN with the opponent's last move once the engine is in
/// the game (or, as Piskvork does, for the very first reply without an opening);
/// otherwise the whole position as BOARD, field 1 = the side to move, as Gomocup does.
pub fn move_request(board: &Board, asked_before: bool, has_opening: bool) -> Vec<String> {
    let history = board.history();
    let Some(last) = board.last_move() else {
        return vec!["BEGIN".to_string()];
    };
    if asked_before || (!has_opening && history.len() == 1) {
        return vec![format!("TURN {},{}", last.x(), last.y())];
    }
    let side = board.side_to_move();
    let mut lines = vec!["BOARD".to_string()];
    for &m in history {
        let field = if board.cell(m).color() == Some(side) {
            1
        } else {
            2
        };
        lines.push(format!("{},{},{}", m.x(), m.y(), field));
    }
    lines.push("DONE".to_string());
    lines
}

/// Parses a reply that must be exactly `x,y` (integers, no spaces) and checks it is an
/// empty square on the board. The error says what was wrong.
pub fn check_move(board: &Board, line: &str) -> Result<Move, String> {
    let (x, y) = parse_move(line).ok_or_else(|| format!("`{line}` is not x,y"))?;
    if !board.on_board(x, y) {
        return Err(format!("{x},{y} is off the board"));
    }
    let m = Move::from_xy(x as usize, y as usize);
    if !board.is_empty(m) {
        return Err(format!("{x},{y} is occupied"));
    }
    Ok(m)
}

/// Renju: a forbidden move by Black (overline, double four, double three) loses, as in
/// GomocupJudge. `None` under other rules, for White, and for allowed moves.
fn renju_foul(board: &Board, m: Move, side: Color) -> Option<Foul> {
    if side != Color::Black {
        return None;
    }
    board.renju_foul(m)
}

/// Whether renju fouls are checked by this build (see `renju_foul`).
pub const RENJU_FOULS_CHECKED: bool = true;

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: Rule, stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule);
        for &(x, y) in stones {
            b.make(Move::from_xy(x, y));
        }
        b
    }

    /// A game under `rule` whose opening is `stones`, played alternately from Black.
    fn state(rule: Rule, stones: Vec<(usize, usize)>) -> GameState {
        let spec = GameSpec {
            index: 0,
            opening: Some((0, stones)),
            a_is_black: true,
        };
        let rules = GameRules {
            limits: test_limits(rule.bits()),
            max_moves: None,
        };
        GameState::new(&spec, &rules)
    }

    /// Plays `stones` alternately from an empty board, then asks whether `next` wins.
    fn apply_last(rule: Rule, stones: &[(usize, usize)], next: (usize, usize)) -> Option<String> {
        let mut g = state(rule, stones.to_vec());
        let side = g.board.side_to_move();
        g.apply(Move::from_xy(next.0, next.1), side, 5)
            .map(|e| format!("{} {}", e.result.notation(), e.reason))
    }

    fn test_limits(rule_bits: i64) -> Limits {
        Limits {
            size: 15,
            rule_bits,
            turn_ms: 1000,
            match_ms: 0,
            tolerance_ms: 100,
            max_memory: 0,
            threads: None,
            start_timeout_ms: 1000,
            reuse: false,
            stderr_dir: None,
        }
    }

    /// Black on row 7 at the given columns, white far away on row 0.
    fn black_row(cols: &[usize]) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (i, &x) in cols.iter().enumerate() {
            v.push((x, 7));
            v.push((i * 2, 0));
        }
        v
    }

    #[test]
    fn five_wins_in_freestyle_and_overline_too() {
        let four = black_row(&[3, 4, 5, 6]);
        assert_eq!(
            apply_last(Rule::Freestyle, &four, (7, 7)).as_deref(),
            Some("1-0 black wins by five")
        );
        let gap = black_row(&[2, 3, 4, 6, 7]);
        assert_eq!(
            apply_last(Rule::Freestyle, &gap, (5, 7)).as_deref(),
            Some("1-0 black wins by five")
        );
        assert_eq!(apply_last(Rule::Freestyle, &four, (9, 7)), None);
    }

    /// GomocupJudge's renju vector `h8h9i7i9h10i6i11i12`: Black's g9 (6,8) is a double three.
    const GJ_RENJU: [(usize, usize); 8] = [
        (7, 7),
        (7, 8),
        (8, 6),
        (8, 8),
        (7, 9),
        (8, 5),
        (8, 10),
        (8, 11),
    ];

    #[test]
    fn renju_foul_loses_for_black_only() {
        assert_eq!(
            apply_last(Rule::Renju, &GJ_RENJU, (6, 8)).as_deref(),
            Some("0-1 black loses: illegal move (renju foul at 6,8: double three)")
        );
        assert_eq!(apply_last(Rule::Freestyle, &GJ_RENJU, (6, 8)), None);
        assert_eq!(apply_last(Rule::Renju, &GJ_RENJU, (9, 7)), None);
        let gap = black_row(&[2, 3, 4, 6, 7]);
        assert_eq!(
            apply_last(Rule::Renju, &gap, (5, 7)).as_deref(),
            Some("0-1 black loses: illegal move (renju foul at 5,7: overline)")
        );
        let four = black_row(&[3, 4, 5, 6]);
        assert_eq!(
            apply_last(Rule::Renju, &four, (7, 7)).as_deref(),
            Some("1-0 black wins by five")
        );
        // White's overline wins, and White may take Black's forbidden point.
        let mut white_gap = vec![(0, 14)];
        white_gap.extend(gap);
        assert_eq!(
            apply_last(Rule::Renju, &white_gap, (5, 7)).as_deref(),
            Some("0-1 white wins by five")
        );
        let mut white_to_move = GJ_RENJU.to_vec();
        white_to_move.push((14, 14));
        assert_eq!(apply_last(Rule::Renju, &white_to_move, (6, 8)), None);
    }

    #[test]
    fn exact_five_rules_reject_overlines() {
        let gap = black_row(&[2, 3, 4, 6, 7]);
        assert_eq!(apply_last(Rule::Standard, &gap, (5, 7)), None);
        assert_eq!(apply_last(Rule::CaroExact, &gap, (5, 7)), None);
        let four = black_row(&[3, 4, 5, 6]);
        assert!(apply_last(Rule::Standard, &four, (7, 7)).is_some());
    }

    #[test]
    fn caro_needs_an_open_end() {
        // Black four on row 7, columns 3..=6, white at 2,7; 7,7 then makes a five whose
        // far end (8,7) is empty, or blocked when white also holds 8,7.
        let mut open = vec![
            (3, 7),
            (2, 7),
            (4, 7),
            (0, 0),
            (5, 7),
            (0, 2),
            (6, 7),
            (0, 4),
        ];
        assert!(apply_last(Rule::Caro, &open, (7, 7)).is_some());
        open[7] = (8, 7);
        assert_eq!(apply_last(Rule::Caro, &open, (7, 7)), None);
        assert!(apply_last(Rule::Freestyle, &open, (7, 7)).is_some());
    }

    #[test]
    fn board_edge_does_not_block_in_caro() {
        let stones = vec![
            (1, 7),
            (5, 0),
            (2, 7),
            (7, 0),
            (3, 7),
            (9, 0),
            (4, 7),
            (5, 7),
        ];
        // Black 1..=4 on row 7, white at 5,7: 0,7 makes a five ending on the wall.
        assert!(apply_last(Rule::Caro, &stones, (0, 7)).is_some());
    }

    #[test]
    fn full_board_is_a_draw() {
        // 5x5 filled in a pattern with no five for anyone: rows alternate XXOOX / OOXXO.
        let mut b = Board::new(5, 5, Rule::Freestyle);
        let mut cells: Vec<(usize, usize, Color)> = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                let black = ((x / 2) + y) % 2 == 0;
                cells.push((x, y, if black { Color::Black } else { Color::White }));
            }
        }
        let last = cells.pop().unwrap();
        for &(x, y, c) in &cells {
            b.place(Move::from_xy(x, y), c);
        }
        b.set_side_to_move(last.2);
        let mut g = GameState {
            board: b,
            moves: Vec::new(),
            has_opening: true,
            asked: [true; 2],
            time_left: [0; 2],
            stats: Default::default(),
            broken: [false; 2],
        };
        let end = g.apply(Move::from_xy(last.0, last.1), last.2, 1).unwrap();
        assert_eq!(end.result, GameResult::Draw);
        assert_eq!(end.reason, "draw: board full");
    }

    /// A renju game of the 100 ms match on 2026-12-01 (seed 5448, game 199): 224 stones,
    /// Black to move, and the one empty square, 2,5, an overline for Black.
    const NO_LEGAL_MOVE: &str = "
    11,3 8,4 4,10 3,9 8,6 9,7 10,3 9,3 9,4 8,5 11,4 10,2 7,5 8,3 11,6 11,2 9,2 12,5 10,6
    8,1 8,2 9,6 7,3 7,4 10,7 10,5 11,5 11,7 6,4 9,1 11,1 5,3 6,3 6,2 4,4 4,6 9,8 7,7 10,9
    10,8 8,7 7,6 9,9 8,9 9,10 11,10 10,4 5,6 11,8 12,7 13,4 12,4 12,6 3,6 6,6 13,3 13,6
    14,6 6,7 6,5 4,7 6,1 8,11 7,12 7,1 9,12 12,2 9,5 3,7 5,7 6,8 6,10 5,8 8,12 6,12 7,11
    7,10 6,9 7,8 8,8 5,9 10,12 11,12 1,6 2,6 12,10 13,7 14,8 13,8 13,5 13,10 13,9 11,11
    14,9 14,10 10,14 9,13 10,10 12,9 14,11 11,9 5,4 5,5 5,11 7,9 10,11 10,13 2,10 1,11 8,13
    7,14 3,11 4,11 4,12 1,9 2,11 14,0 13,1 2,4 4,8 3,13 2,12 2,9 3,8 1,12 1,8 1,10 1,13 4,5
    0,8 2,8 4,9 2,7 3,2 4,3 4,1 6,14 3,3 3,5 1,5 9,14 12,11 1,4 0,7 3,4 0,4 5,2 5,10 6,11
    12,14 5,14 8,14 3,14 4,14 0,6 2,2 2,13 4,13 3,1 7,13 14,5 5,13 6,13 3,12 3,10 4,0 12,13
    10,0 11,13 13,13 0,11 0,2 8,0 0,1 0,3 3,0 5,0 1,2 4,2 1,0 12,3 0,14 13,14 0,0 2,0 9,0
    0,10 0,9 14,4 11,0 1,3 12,0 13,0 1,7 12,8 6,0 2,3 14,2 12,12 13,11 11,14 5,1 13,12
    14,12 0,5 13,2 14,14 1,1 0,13 14,13 1,14 2,14 7,0 14,1 14,3 0,12 12,1 2,1 7,2 10,1 8,10
    14,7 9,11 5,12";

    fn renju_game(moves: &[&str]) -> GameState {
        let stones = moves.iter().map(|m| crate::openings::parse_xy(m).unwrap());
        state(Rule::Renju, stones.collect())
    }

    #[test]
    fn black_without_a_legal_move_draws() {
        let moves: Vec<&str> = NO_LEGAL_MOVE.split_whitespace().collect();
        let g = renju_game(&moves);
        assert_eq!(g.board.empty_count(), 1);
        assert_eq!(g.board.side_to_move(), Color::Black);
        let end = g.draw_without_legal_move(Color::Black).unwrap();
        assert_eq!(end.result, GameResult::Draw);
        assert_eq!(end.reason, "draw: no legal move");
        // White may take the square; two moves earlier Black still had a legal one.
        assert!(g.draw_without_legal_move(Color::White).is_none());
        let earlier = renju_game(&moves[..moves.len() - 2]);
        assert!(earlier.draw_without_legal_move(Color::Black).is_none());
    }

    #[test]
    fn illegal_replies_are_named() {
        let b = board(Rule::Freestyle, &[(7, 7)]);
        assert_eq!(check_move(&b, "8,8"), Ok(Move::from_xy(8, 8)));
        assert!(check_move(&b, "7,7").unwrap_err().contains("occupied"));
        assert!(check_move(&b, "15,3")
            .unwrap_err()
            .contains("off the board"));
        assert!(check_move(&b, "-1,3")
            .unwrap_err()
            .contains("off the board"));
        for bad in ["7, 8", "+7,8", "7,8,1", "OK", "", "7;8", "x,y"] {
            assert!(
                check_move(&b, bad).unwrap_err().contains("not x,y"),
                "{bad}"
            );
        }
    }

    #[test]
    fn requests_follow_gomocup_conventions() {
        let empty = board(Rule::Freestyle, &[]);
        assert_eq!(move_request(&empty, false, false), ["BEGIN"]);
        let one = board(Rule::Freestyle, &[(7, 7)]);
        assert_eq!(move_request(&one, false, false), ["TURN 7,7"]);
        let three = board(Rule::Freestyle, &[(7, 7), (8, 8), (6, 6)]);
        assert_eq!(
            move_request(&three, false, true),
            ["BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"]
        );
        assert_eq!(move_request(&three, true, true), ["TURN 6,6"]);
    }

    #[test]
    fn limit_is_min_of_turn_and_time_left() {
        let spec = GameSpec {
            index: 0,
            opening: None,
            a_is_black: true,
        };
        let mut lim = test_limits(0);
        lim.match_ms = 5000;
        let rules = GameRules {
            limits: lim.clone(),
            max_moves: None,
        };
        let mut g = GameState::new(&spec, &rules);
        assert_eq!(
            g.limit(Color::Black, 1000, &lim).0,
            Duration::from_millis(1000)
        );
        assert_eq!(
            g.limit(Color::Black, 100, &lim).0,
            Duration::from_millis(100)
        );
        g.time_left[0] = 300;
        assert_eq!(
            g.limit(Color::Black, 1000, &lim).0,
            Duration::from_millis(300)
        );
        assert_eq!(g.request(Color::Black, &lim)[0], "INFO time_left 300");
    }
}
