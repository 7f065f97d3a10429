//! Turning manager coordinates and BOARD blocks into board changes, all-or-nothing, and
//! making sure every move we print is legal.

use crate::game::{Board, Color, Move, Rule, PAD, STRIDE};
use crate::protocol::{BoardLine, Field, Point};

/// The square at `p`, if it is on the board and empty.
pub fn empty_square(board: &Board, p: Point) -> Result<Move, String> {
    if !board.on_board(p.x, p.y) {
        return Err(format!(
            "square {},{} is off the {}x{} board",
            p.x,
            p.y,
            board.width(),
            board.height()
        ));
    }
    let m = Move::from_xy(p.x as usize, p.y as usize);
    if !board.is_empty(m) {
        return Err(format!("square {},{} is not empty", p.x, p.y));
    }
    Ok(m)
}

/// Colour of the side to move, from the stone counts: equal counts mean Black moves, one
/// more opponent stone means White moves. Other counts (handicaps, odd openings) are
/// accepted; the side with at least as many stones is taken to be Black.
pub fn side_to_move_from_counts(own: usize, opponent: usize) -> Color {
    if own >= opponent {
        Color::Black
    } else {
        Color::White
    }
}

/// A new position from BOARD lines, built on an empty board of the given shape. Lines
/// are applied in the order given (renju needs the move order). Any bad line rejects
/// the whole block, so the caller can keep the old position.
pub fn board_from_lines(
    width: usize,
    height: usize,
    rule: Rule,
    lines: &[BoardLine],
) -> Result<Board, String> {
    let own = lines.iter().filter(|l| l.field == Field::Own).count();
    let opponent = lines.iter().filter(|l| l.field == Field::Opponent).count();
    let us = side_to_move_from_counts(own, opponent);
    let mut board = Board::new(width, height, rule);
    for line in lines {
        let m = empty_square(&board, line.at).map_err(|e| format!("BOARD: {e}"))?;
        match line.field {
            Field::Own => board.place(m, us),
            Field::Opponent => board.place(m, us.opp()),
            Field::Blocked => board.block(m),
        }
    }
    board.set_side_to_move(us);
    Ok(board)
}

/// Whether `m` is a square of this board that is empty. Safe for any value: a search bug
/// may hand back `Move::NONE` or garbage, and `Move::x()` would underflow on those.
pub fn is_playable(board: &Board, m: Move) -> bool {
    let (col, row) = (m.idx() % STRIDE, m.idx() / STRIDE);
    if m.is_none() || col < PAD || row < PAD {
        return false;
    }
    let (x, y) = ((col - PAD) as i64, (row - PAD) as i64);
    board.on_board(x, y) && board.is_empty(m)
}

/// The empty square closest to the centre, for when the search has no answer.
pub fn fallback_move(board: &Board) -> Option<Move> {
    // In doubled coordinates, so even-sized boards have an exact centre between squares.
    let cx = board.width() as i64 - 1;
    let cy = board.height() as i64 - 1;
    board.empty_squares().min_by_key(|m| {
        let dx = m.x() as i64 * 2 - cx;
        let dy = m.y() as i64 * 2 - cy;
        (dx.abs().max(dy.abs()), dx.abs() + dy.abs())
    })
}

/// The search's move if it is legal, otherwise the fallback; `None` on a full board.
pub fn legal_move_or_fallback(board: &Board, searched: Move) -> Option<Move> {
    if is_playable(board, searched) {
        Some(searched)
    } else {
        if !searched.is_none() {
            log::error!("search returned an unplayable move {:?}", searched);
        }
        fallback_move(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(x: i64, y: i64, field: Field) -> BoardLine {
        BoardLine {
            at: Point { x, y },
            field,
        }
    }

    #[test]
    fn counts_decide_colours() {
        assert_eq!(side_to_move_from_counts(0, 0), Color::Black);
        assert_eq!(side_to_move_from_counts(2, 2), Color::Black);
        assert_eq!(side_to_move_from_counts(2, 3), Color::White);
        assert_eq!(side_to_move_from_counts(3, 1), Color::Black);
        assert_eq!(side_to_move_from_counts(0, 4), Color::White);
    }

    #[test]
    fn board_lines_place_colours_and_blocks() {
        let lines = [
            line(7, 7, Field::Opponent),
            line(7, 8, Field::Own),
            line(8, 8, Field::Opponent),
            line(0, 0, Field::Blocked),
        ];
        let b = board_from_lines(15, 15, Rule::Freestyle, &lines).unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.cell_xy(7, 7), crate::game::Cell::Black);
        assert_eq!(b.cell_xy(7, 8), crate::game::Cell::White);
        assert_eq!(b.cell_xy(0, 0), crate::game::Cell::Wall);
        assert_eq!(b.history().len(), 3);
    }

    #[test]
    fn duplicates_and_off_board_lines_are_rejected() {
        let dup = [line(1, 1, Field::Own), line(1, 1, Field::Opponent)];
        assert!(board_from_lines(15, 15, Rule::Freestyle, &dup).is_err());
        let off = [line(15, 0, Field::Own)];
        assert!(board_from_lines(15, 15, Rule::Freestyle, &off).is_err());
        let neg = [line(-1, 0, Field::Blocked)];
        assert!(board_from_lines(15, 15, Rule::Freestyle, &neg).is_err());
    }

    #[test]
    fn garbage_moves_are_not_playable() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        assert!(!is_playable(&b, Move::NONE));
        assert!(!is_playable(&b, Move(1)));
        assert!(!is_playable(&b, Move::from_xy(15, 3)));
        assert!(!is_playable(&b, Move(u16::MAX)));
        let m = Move::from_xy(3, 4);
        assert!(is_playable(&b, m));
        b.make(m);
        assert!(!is_playable(&b, m));
        assert_ne!(legal_move_or_fallback(&b, m), Some(m));
    }

    #[test]
    fn fallback_prefers_the_centre_and_fails_on_a_full_board() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        assert_eq!(fallback_move(&b), Some(Move::from_xy(7, 7)));
        b.make(Move::from_xy(7, 7));
        let next = fallback_move(&b).unwrap();
        assert!((next.x() as i64 - 7).abs() <= 1 && (next.y() as i64 - 7).abs() <= 1);
        let mut full = Board::new(5, 5, Rule::Freestyle);
        while let Some(m) = fallback_move(&full) {
            full.make(m);
        }
        assert_eq!(full.empty_count(), 0);
        assert_eq!(legal_move_or_fallback(&full, Move::NONE), None);
    }
}
