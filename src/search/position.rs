//! The position the search works on: the board plus its incremental evaluation.

use crate::eval::nn::{NnEval, QuantModel};
use crate::eval::{Evaluator, Threat};
use crate::game::{Board, Cell, Color, Move, Rule, DIRS};

/// The network's value times this / 100 is in classical evaluation units.
const NN_VALUE_SCALE: i32 = 230;
/// Lazy evaluation with the network: where only a side of a bound counts, a classical
/// evaluation this far outside it stands without the network (its value moved it across
/// the bound at 0.4% of leaves in `bench 11`). `bench 11 --nn` 307k -> 432k nps; +61 +/- 39
/// Elo at 100 ms against the same network evaluated everywhere (journal "Network in the
/// search").
pub const LAZY_MARGIN: i32 = 600;

#[derive(Clone)]
pub struct Position {
    pub board: Board,
    pub eval: Evaluator,
    /// The network's accumulators, when the search uses a network (`Searcher::set_network`).
    pub nn: Option<Box<NnEval>>,
}

impl Position {
    pub fn new(board: &Board) -> Position {
        Position {
            board: board.clone(),
            eval: Evaluator::new(board),
            nn: None,
        }
    }

    /// A position that also keeps `model`'s accumulators, where there is one.
    pub fn with_network(board: &Board, model: Option<&'static QuantModel>) -> Position {
        let mut pos = Position::new(board);
        pos.nn = model.map(|m| Box::new(NnEval::new(m, board)));
        pos
    }

    /// Runs the network for the side to move at `moves` and returns their best policy
    /// logit (`None` without a network or moves). See `alphabeta::add_policy`.
    #[inline]
    pub fn compute_policy(&mut self, moves: &[Move]) -> Option<i32> {
        let nn = self.nn.as_mut()?;
        nn.compute(&self.board);
        nn.policy_for(moves)
    }

    /// The static evaluation for `us`, the side to move: the classical evaluation, or
    /// with a network the mean of it and the network's value (scaled to the classical
    /// units: fitted to game results, the classical evaluation's scale is 919 and the
    /// value's 400). At 20,000 nodes with the policy ordering: +37 +/- 36 Elo against the
    /// classical build where the policy alone lost 38 (journal "Network in the search").
    #[inline]
    pub fn static_eval(&mut self, us: Color) -> i32 {
        self.static_eval_lazy(us, i32::MIN, i32::MAX)
    }

    /// `static_eval` where only whether it lies below `lo`, above `hi` or between counts:
    /// a classical evaluation more than `LAZY_MARGIN` outside [lo, hi] stands alone, and
    /// the network is not asked.
    #[inline]
    pub fn static_eval_lazy(&mut self, us: Color, lo: i32, hi: i32) -> i32 {
        let classical = self.eval.evaluate(us);
        let Some(nn) = self.nn.as_mut() else {
            return classical;
        };
        // A value weight of 0 (a tuning run's knob) leaves the network out, its cost too.
        let w = super::params::NN_VALUE_WEIGHT.get();
        if w == 0
            || us != self.board.side_to_move()
            || classical <= lo.saturating_sub(LAZY_MARGIN)
            || classical >= hi.saturating_add(LAZY_MARGIN)
        {
            return classical;
        }
        let value = nn.value_score(&self.board) * NN_VALUE_SCALE / 100;
        (classical * (1_000 - w) + value * w) / 1_000
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
    /// `c`'s square with threat `t` when it has exactly one: looked for first on the lines
    /// through the last stone, where a threat just made lies, then on the whole board.
    pub fn only_threat(&self, c: Color, t: Threat) -> Option<Move> {
        if self.eval.count(c, t) != 1 {
            return None;
        }
        if let Some(last) = self.board.move_back(1) {
            for step in DIRS {
                for off in 1..=4 {
                    for s in [last.offset(off * step), last.offset(-off * step)] {
                        if self.board.cell(s) == Cell::Empty && self.eval.threat(c, s) == t {
                            return Some(s);
                        }
                    }
                }
            }
        }
        self.find_threat(c, t)
    }

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
    fn the_lone_five_square_is_the_one_a_scan_finds() {
        let mut checked = 0;
        for board in renju_positions(120) {
            let pos = Position::new(&board);
            for c in [Color::Black, Color::White] {
                let lone = pos.eval.count(c, Threat::Five) == 1;
                let found = pos.only_threat(c, Threat::Five);
                assert_eq!(found.is_some(), lone);
                if lone {
                    assert_eq!(found, pos.find_threat(c, Threat::Five));
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn a_five_square_off_the_last_stones_lines_is_still_found() {
        // Black's four on row 3 stands; White's last stone is far from its lines.
        let mut board = Board::new(15, 15, Rule::Freestyle);
        for x in 2..6 {
            board.make(Move::from_xy(x, 3));
            board.make(Move::from_xy(x + 3, 12 - x));
        }
        board.make(Move::from_xy(13, 13));
        board.make(Move::from_xy(0, 14));
        let pos = Position::new(&board);
        assert_eq!(pos.eval.count(Color::Black, Threat::Five), 2);
        assert_eq!(pos.only_threat(Color::Black, Threat::Five), None);
        board.place(Move::from_xy(1, 3), Color::White);
        let pos = Position::new(&board);
        assert_eq!(
            pos.only_threat(Color::Black, Threat::Five),
            Some(Move::from_xy(6, 3))
        );
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

    /// The lazy evaluation asks the network only within `LAZY_MARGIN` of its bounds: far
    /// outside it is the classical evaluation exactly, near them the blend.
    #[test]
    fn the_lazy_evaluation_skips_the_network_only_far_from_its_bounds() {
        let model = crate::eval::nn::incremental::freestyle();
        let mut board = Board::new(15, 15, Rule::Freestyle);
        let mut blended = 0;
        for &(x, y) in &[(7, 7), (8, 8), (7, 8), (6, 9), (9, 6), (8, 7)] {
            board.make(Move::from_xy(x, y));
            let mut pos = Position::with_network(&board, Some(model));
            let us = board.side_to_move();
            let classical = pos.eval.evaluate(us);
            let full = pos.static_eval(us);
            let (far_lo, far_hi) = (classical + LAZY_MARGIN + 1, classical - LAZY_MARGIN - 1);
            assert_eq!(pos.static_eval_lazy(us, far_lo, far_lo), classical);
            assert_eq!(pos.static_eval_lazy(us, far_hi, far_hi), classical);
            let near = classical + LAZY_MARGIN - 1;
            assert_eq!(pos.static_eval_lazy(us, near, near), full);
            assert_eq!(pos.static_eval_lazy(us, classical, classical), full);
            blended += (full != classical) as usize;
        }
        assert!(blended > 0, "the network changed no evaluation");
    }
}
