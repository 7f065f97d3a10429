//! The position the search works on: the board plus its incremental evaluation.

use crate::eval::{Evaluator, Threat};
use crate::game::{Board, Cell, Color, Move, Rule};

#[derive(Clone)]
pub struct Position {
    pub board: Board,
    pub eval: Evaluator,
}

impl Position {
    pub fn new(board: &Board) -> Position {
        Position {
            board: board.clone(),
            eval: Evaluator::new(board),
        }
    }

    #[inline]
    pub fn make(&mut self, m: Move) {
        self.board.make(m);
        self.eval.after_place(&self.board, m);
    }

    #[inline]
    pub fn undo(&mut self) {
        if let Some(m) = self.board.undo() {
            self.eval.after_remove(&self.board, m);
        }
    }

    #[inline]
    pub fn side(&self) -> Color {
        self.board.side_to_move()
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    #[inline]
    pub fn threat(&self, c: Color, m: Move) -> Threat {
        self.eval.threat(c, m)
    }

    /// Whether `c` may play `m`: an empty square that is not forbidden for it. In renju
    /// Black's squares are screened by shape and decided exactly only where the shape
    /// says a foul is possible: a shape foul (which may hide a three that is not real) or
    /// an open four (two fours in one line, `X.X*X.X`, have its shape: two five squares).
    #[inline]
    pub fn is_legal_for(&self, c: Color, m: Move) -> bool {
        if self.board.cell(m) != Cell::Empty {
            return false;
        }
        let t = self.eval.threat(c, m);
        let suspect = t == Threat::Forbidden || t == Threat::FlexFour;
        if suspect && c == Color::Black && self.board.rule() == Rule::Renju {
            return !self.board.is_forbidden(m);
        }
        t != Threat::Forbidden
    }

    /// Whether `c` has a square where it may play and make threat `t`: the evaluator's
    /// count, checked square by square only for Black in renju (its four squares may be
    /// fouls).
    pub fn has_legal_threat(&self, c: Color, t: Threat) -> bool {
        let n = self.eval.count(c, t);
        if n == 0 || c == Color::White || self.board.rule() != Rule::Renju {
            return n > 0;
        }
        let mut left = n;
        for m in self.board.empty_squares() {
            if self.eval.threat(c, m) == t {
                if self.is_legal_for(c, m) {
                    return true;
                }
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        false
    }

    /// Some square where `c` would make exactly threat `t`, if any (board scan).
    pub fn find_threat(&self, c: Color, t: Threat) -> Option<Move> {
        if self.eval.count(c, t) == 0 {
            return None;
        }
        self.board
            .empty_squares()
            .find(|&m| self.eval.threat(c, m) == t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of the first `games` renju games of the reference test's data.
    fn renju_positions(games: usize) -> Vec<Board> {
        let text = include_str!("../../tests/data/renju_games.txt");
        let mut out = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#')).take(games) {
            let mut board = Board::new(15, 15, Rule::Renju);
            for mv in line.split_whitespace() {
                let (x, y) = mv.split_once(',').expect("x,y");
                board.make(Move::from_xy(x.parse().expect("x"), y.parse().expect("y")));
                out.push(board.clone());
            }
        }
        out
    }

    #[test]
    fn black_legality_is_exact_in_renju() {
        let (mut squares, mut fouls) = (0, 0);
        for board in renju_positions(120) {
            let pos = Position::new(&board);
            for m in board.empty_squares() {
                let forbidden = board.is_forbidden(m);
                assert_eq!(pos.is_legal_for(Color::Black, m), !forbidden, "{m:?}");
                assert!(pos.is_legal_for(Color::White, m));
                squares += 1;
                fouls += usize::from(forbidden);
            }
        }
        assert!(squares > 100_000 && fouls > 500, "{squares} {fouls}");
    }

    #[test]
    fn a_one_line_double_four_is_no_open_four_threat() {
        // Black X.X.X.X on row 7: (5,7) looks like an open four by shape, but is a foul.
        let mut board = Board::new(15, 15, Rule::Renju);
        for (x, y) in [(2, 7), (4, 7), (6, 7), (8, 7)] {
            board.place(Move::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(0, 0), (14, 0), (0, 14), (14, 14)] {
            board.place(Move::from_xy(x, y), Color::White);
        }
        let pos = Position::new(&board);
        let m = Move::from_xy(5, 7);
        assert_eq!(pos.threat(Color::Black, m), Threat::FlexFour);
        assert!(!pos.is_legal_for(Color::Black, m));
        assert!(!pos.has_legal_threat(Color::Black, Threat::FlexFour));
        // Under freestyle the same square is a real open four.
        board.set_rule(Rule::Freestyle);
        let pos = Position::new(&board);
        assert!(pos.is_legal_for(Color::Black, m));
        assert!(pos.has_legal_threat(Color::Black, Threat::FlexFour));
    }
}
