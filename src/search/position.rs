//! The position the search works on: the board plus its incremental evaluation.

use crate::eval::{Evaluator, Threat};
use crate::game::{Board, Cell, Color, Move};

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

    /// Whether `c` may play `m`: an empty square that is not forbidden for it.
    #[inline]
    pub fn is_legal_for(&self, c: Color, m: Move) -> bool {
        self.board.cell(m) == Cell::Empty && self.eval.threat(c, m) != Threat::Forbidden
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
