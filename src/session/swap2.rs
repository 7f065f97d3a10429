//! The Swap2 opening (SWAP2BOARD): propose three stones, or as White decide between
//! swapping colours, playing on, and (after three stones) placing two more.

use super::position::empty_square;
use crate::game::{Board, Rule};
use crate::protocol::{Point, Reply};
use std::time::Duration;

/// The decision is a "short search": at most this long even with a long turn limit.
pub const THINK_CAP: Duration = Duration::from_secs(2);

/// White swaps when its score is below minus this many search score units.
/// Needs tuning against the real evaluation's scale.
pub const SWAP_MARGIN: i32 = 150;

/// Three-stone shapes (Black, White, Black) as offsets from the centre, all within two
/// squares of it so they fit a 5x5 board. The proposal is the one the search scores
/// nearest even for White, so the opponent's choice is hard: a fixed shape scored -763
/// for White with the fitted evaluation (h8 h9 j8 on 15x15), which a strong opponent
/// would simply swap.
pub const OPENING_SHAPES: [[(i64, i64); 3]; 8] = [
    [(0, 0), (0, 1), (2, 0)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (2, 1), (1, 2)],
    [(0, 0), (-1, 1), (2, 1)],
    [(0, 0), (0, 2), (2, 0)],
    [(0, 0), (1, -1), (2, 0)],
    [(0, 0), (2, 0), (0, 2)],
];

/// The position described by a SWAP2BOARD block: stones alternate Black, White, Black...
/// Only 0, 3 or 5 stones are valid points of the Swap2 protocol.
pub fn opening_board(
    width: usize,
    height: usize,
    rule: Rule,
    stones: &[Point],
) -> Result<Board, String> {
    if ![0, 3, 5].contains(&stones.len()) {
        return Err(format!(
            "SWAP2BOARD: expected 0, 3 or 5 stones, got {}",
            stones.len()
        ));
    }
    let mut board = Board::new(width, height, rule);
    for &p in stones {
        let m = empty_square(&board, p).map_err(|e| format!("SWAP2BOARD: {e}"))?;
        board.make(m);
    }
    Ok(board)
}

/// Places the three stones of `shape` on the empty board and returns the board (White
/// to move) and the reply listing them.
pub fn propose_opening(
    mut board: Board,
    shape: &[(i64, i64); 3],
) -> Result<(Board, Reply), String> {
    let cx = (board.width() / 2) as i64;
    let cy = (board.height() / 2) as i64;
    let mut placed = Vec::new();
    for &(dx, dy) in shape {
        let m = empty_square(
            &board,
            Point {
                x: cx + dx,
                y: cy + dy,
            },
        )?;
        board.make(m);
        placed.push((m.x(), m.y()));
    }
    Ok((board, Reply::Moves(placed)))
}

/// After three stones, White places two more (a White and a Black stone, and the
/// opponent picks a colour) when its score is within this of even: a read that close is
/// too unsure to commit to either colour on, so the opponent must choose instead.
pub const PLACE_TWO_MARGIN: i32 = SWAP_MARGIN;

/// `score` is the search's score for White, the side to move.
pub fn should_swap(score: i32) -> bool {
    score < -SWAP_MARGIN
}

/// `score` as in `should_swap`: only after three stones (after five, two more is no
/// option).
pub fn should_place_two(score: i32) -> bool {
    score.abs() <= PLACE_TWO_MARGIN
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    #[test]
    fn only_zero_three_or_five_stones() {
        assert!(opening_board(15, 15, Rule::Standard, &[]).is_ok());
        assert!(opening_board(15, 15, Rule::Standard, &[p(1, 1)]).is_err());
        assert!(opening_board(
            15,
            15,
            Rule::Standard,
            &[p(1, 1), p(2, 2), p(3, 3), p(4, 4)]
        )
        .is_err());
        let b = opening_board(15, 15, Rule::Standard, &[p(7, 7), p(8, 7), p(7, 9)]).unwrap();
        assert_eq!(b.side_to_move(), crate::game::Color::White);
        assert_eq!(b.cell_xy(8, 7), crate::game::Cell::White);
    }

    #[test]
    fn duplicate_or_off_board_stones_are_errors() {
        assert!(opening_board(15, 15, Rule::Standard, &[p(7, 7), p(7, 7), p(1, 1)]).is_err());
        assert!(opening_board(15, 15, Rule::Standard, &[p(7, 7), p(15, 7), p(1, 1)]).is_err());
    }

    #[test]
    fn proposal_is_three_distinct_legal_stones_on_small_boards_too() {
        for (size, shape) in [5, 15, 20]
            .into_iter()
            .flat_map(|n| OPENING_SHAPES.map(|s| (n, s)))
        {
            let (board, reply) =
                propose_opening(Board::new(size, size, Rule::Standard), &shape).unwrap();
            assert_eq!(board.stone_count(), 3);
            assert_eq!(board.side_to_move(), crate::game::Color::White);
            match reply {
                Reply::Moves(moves) => assert_eq!(moves.len(), 3),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn place_two_only_near_even() {
        assert!(should_place_two(0));
        assert!(should_place_two(-PLACE_TWO_MARGIN));
        assert!(!should_place_two(PLACE_TWO_MARGIN + 1));
        assert!(!should_place_two(-SWAP_MARGIN - 1));
        assert!(!(should_place_two(-SWAP_MARGIN - 1) && should_swap(-SWAP_MARGIN - 1)));
    }

    #[test]
    fn swap_only_when_clearly_worse() {
        assert!(should_swap(-SWAP_MARGIN - 1));
        assert!(!should_swap(0));
        assert!(!should_swap(-SWAP_MARGIN));
    }
}
