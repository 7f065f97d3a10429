//! The game on the board: stones, undo and redo, the result and its winning line.

use crate::game::{Board, Color, Move, Rule, DIRS};

/// Board sizes the page offers (c-gomoku-cli's range).
pub const SIZES: std::ops::RangeInclusive<usize> = 5..=22;

/// How a game ended: the winner (`None`: a draw), why, and the winning stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: String,
    pub line: Vec<(usize, usize)>,
}

pub struct Game {
    board: Board,
    redo: Vec<Move>,
    result: Option<Outcome>,
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A rule by its name on the page.
pub fn rule_by_name(name: &str) -> Option<Rule> {
    match name {
        "freestyle" => Some(Rule::Freestyle),
        "standard" => Some(Rule::Standard),
        "renju" => Some(Rule::Renju),
        "caro" => Some(Rule::Caro),
        _ => None,
    }
}

pub fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "standard",
        Rule::Renju => "renju",
        Rule::Caro | Rule::CaroExact => "caro",
    }
}

impl Game {
    pub fn new(size: usize, rule: Rule) -> Result<Game, String> {
        if !SIZES.contains(&size) {
            return Err(format!("board size {size} is not in 5..22"));
        }
        Ok(Game {
            board: Board::new(size, size, rule),
            redo: Vec::new(),
            result: None,
        })
    }

    /// A game with `moves` played in order; every move must be legal for a person.
    pub fn from_moves(size: usize, rule: Rule, moves: &[(usize, usize)]) -> Result<Game, String> {
        let mut g = Game::new(size, rule)?;
        for (i, &(x, y)) in moves.iter().enumerate() {
            let m = g
                .check(x as i64, y as i64)
                .map_err(|e| format!("move {} ({x},{y}): {e}", i + 1))?;
            g.play(m);
        }
        Ok(g)
    }

    pub fn size(&self) -> usize {
        self.board.width()
    }

    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    pub fn side(&self) -> Color {
        self.board.side_to_move()
    }

    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.board
            .history()
            .iter()
            .map(|m| (m.x(), m.y()))
            .collect()
    }

    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// The square `x,y` if the side to move may play it: on the board, empty, not a renju
    /// foul for black, and the game not over.
    pub fn check(&self, x: i64, y: i64) -> Result<Move, String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        if !self.board.on_board(x, y) {
            return Err(format!("{x},{y} is off the board"));
        }
        let m = Move::from_xy(x as usize, y as usize);
        if !self.board.is_empty(m) {
            return Err(format!("{x},{y} is occupied"));
        }
        if let Some(foul) = self.foul(m) {
            return Err(format!("{x},{y} is forbidden for black ({foul})"));
        }
        Ok(m)
    }

    /// The renju foul the side to move would commit at `m`, if any.
    pub fn foul(&self, m: Move) -> Option<crate::game::Foul> {
        (self.side() == Color::Black)
            .then(|| self.board.renju_foul(m))
            .flatten()
    }

    /// Plays a move that `check` accepted; clears the redo list.
    pub fn play(&mut self, m: Move) {
        self.redo.clear();
        self.place(m);
    }

    fn place(&mut self, m: Move) {
        let side = self.side();
        let line = self.winning_line(m, side);
        self.board.make(m);
        if !line.is_empty() {
            self.result = Some(Outcome {
                winner: Some(side),
                reason: format!("{} wins with five", color_name(side)),
                line,
            });
        } else if self.board.empty_count() == 0 {
            self.end(None, "draw: the board is full".to_string());
        }
    }

    /// Ends the game off the board (forfeit, time, resignation).
    pub fn end(&mut self, winner: Option<Color>, reason: String) {
        self.result = Some(Outcome {
            winner,
            reason,
            line: Vec::new(),
        });
    }

    /// Takes back the last stone; the game is live again.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.board.undo()?;
        self.redo.push(m);
        self.result = None;
        Some(m)
    }

    /// Replays the last stone taken back.
    pub fn redo(&mut self) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let m = self.redo.pop()?;
        self.place(m);
        Some(m)
    }

    /// Black's forbidden points (renju only).
    pub fn forbidden(&self) -> Vec<(usize, usize)> {
        if self.rule() != Rule::Renju || self.is_over() {
            return Vec::new();
        }
        self.board
            .empty_squares()
            .filter(|&m| self.board.is_forbidden(m))
            .map(|m| (m.x(), m.y()))
            .collect()
    }

    /// The stones of the line a stone of `c` at `m` would win with, `m` included; empty if
    /// it wins nothing.
    fn winning_line(&self, m: Move, c: Color) -> Vec<(usize, usize)> {
        for step in DIRS {
            let (len, blocked) = self.board.run_through(m, step, c);
            if !self.board.rule().run_wins(c, len, blocked) {
                continue;
            }
            let mut line = vec![(m.x(), m.y())];
            for dir in [step, -step] {
                let mut p = m.offset(dir);
                while self.board.cell(p).color() == Some(c) {
                    line.push((p.x(), p.y()));
                    p = p.offset(dir);
                }
            }
            line.sort_unstable();
            return line;
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_game(rule: Rule, black: &[usize]) -> Game {
        let mut moves = Vec::new();
        for (i, &x) in black.iter().enumerate() {
            moves.push((x, 7));
            moves.push((i * 2, 0));
        }
        Game::from_moves(15, rule, &moves).unwrap()
    }

    #[test]
    fn five_wins_and_the_line_is_found() {
        let mut g = row_game(Rule::Freestyle, &[3, 4, 5, 6]);
        let m = g.check(7, 7).unwrap();
        g.play(m);
        let r = g.result().unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(r.line, [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)]);
        assert!(g.check(8, 8).is_err());
    }

    #[test]
    fn overline_wins_nothing_in_standard() {
        let mut g = row_game(Rule::Standard, &[2, 3, 4, 6, 7]);
        let m = g.check(5, 7).unwrap();
        g.play(m);
        assert!(g.result().is_none());
    }

    #[test]
    fn undo_and_redo_restore_the_result() {
        let mut g = row_game(Rule::Freestyle, &[3, 4, 5, 6]);
        let m = g.check(7, 7).unwrap();
        g.play(m);
        assert_eq!(g.undo(), Some(m));
        assert!(!g.is_over());
        assert_eq!(g.redo_len(), 1);
        assert_eq!(g.redo(), Some(m));
        assert!(g.is_over());
        g.undo();
        g.undo();
        g.play(Move::from_xy(14, 14));
        assert_eq!(g.redo_len(), 0, "a new move clears redo");
    }

    #[test]
    fn checks_refuse_bad_squares_and_renju_fouls() {
        let g = Game::from_moves(
            15,
            Rule::Renju,
            &[(7, 7), (0, 0), (8, 7), (0, 2), (7, 8), (0, 4)],
        )
        .unwrap();
        assert!(g.check(15, 0).unwrap_err().contains("off the board"));
        assert!(g.check(7, 7).unwrap_err().contains("occupied"));
        for (x, y) in g.forbidden() {
            assert!(g
                .check(x as i64, y as i64)
                .unwrap_err()
                .contains("forbidden"));
        }
        assert!(Game::new(4, Rule::Freestyle).is_err());
        assert!(Game::new(23, Rule::Freestyle).is_err());
    }

    #[test]
    fn renju_double_three_is_listed() {
        // Black at (7,7),(8,7) across and (5,9),(5,10) down: (5,7) makes a split three
        // on both lines at once.
        let g = Game::from_moves(
            15,
            Rule::Renju,
            &[
                (7, 7),
                (0, 0),
                (8, 7),
                (0, 14),
                (5, 9),
                (14, 0),
                (5, 10),
                (14, 14),
            ],
        )
        .unwrap();
        assert!(g.forbidden().contains(&(5, 7)), "{:?}", g.forbidden());
    }
}
