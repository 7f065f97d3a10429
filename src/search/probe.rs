//! Static move orderings and evaluations measured against labelled positions: where the
//! search's best move stands in the classical ordering and in the network's policy, and
//! how well each evaluation predicts the game's result. `fivefold-data probe` reports them;
//! the figures are in `docs/network.md`.

use super::movegen::{self, Mode, MoveList};
use super::position::Position;
use crate::eval::nn::quant::OUT_SCALE;
use crate::eval::nn::{NnEval, QuantModel};
use crate::game::{Board, Move};

/// The orderings compared, in the order of `Ranks::of`.
pub const ORDERINGS: [&str; 4] = [
    "classical (threat tier, fitted table)",
    "network policy alone",
    "threat tier, then policy",
    "classical + policy as the search adds it",
];

/// Where the target move stands among the generated moves under each ordering (1 = first;
/// ties count half), or `None` when the move generator does not offer it.
#[derive(Clone, Debug)]
pub struct Ranks {
    pub of: [f32; 4],
    pub moves: usize,
    /// The node's mode was `All` (no threat of the opponent's restricts the moves).
    pub quiet_node: bool,
}

/// The static evaluations of a position, side to move's view: classical (engine units),
/// the network's value (engine units, `score_of`) and the two blended as the search's
/// static evaluation blends them (`Position::static_eval`).
#[derive(Clone, Copy, Debug)]
pub struct Evals {
    pub classical: i32,
    pub network: i32,
    pub blend: i32,
}

/// Ranks of `target` in `board`'s generated moves (no history, no killers, no hash move).
pub fn ranks(board: &Board, model: &'static QuantModel, target: Move) -> Option<Ranks> {
    let (pos, mode, list) = static_moves(board);
    let mut nn = NnEval::new(model, board);
    nn.compute(board);
    let us = pos.side();
    let top = nn.policy_for(list.moves()).unwrap_or(0) as i64;
    let scored: Vec<[i64; 4]> = (0..list.len())
        .map(|i| {
            let m = list.get(i);
            let p = nn.policy_at(m) as i64;
            let below = ((p - top) * 100 / OUT_SCALE as i64).max(-3_000);
            let tier = movegen::tier(&pos, us, m) as i64;
            [
                list.score(i) as i64,
                p,
                tier * (1 << 40) + p,
                list.score(i) as i64 + below,
            ]
        })
        .collect();
    let at = (0..list.len()).find(|&i| list.get(i) == target)?;
    let of = std::array::from_fn(|k| {
        let t = scored[at][k];
        let higher = scored.iter().filter(|s| s[k] > t).count();
        let equal = scored.iter().filter(|s| s[k] == t).count() - 1;
        1.0 + higher as f32 + equal as f32 / 2.0
    });
    Some(Ranks {
        of,
        moves: list.len(),
        quiet_node: mode == Mode::All,
    })
}

/// The side to move's `k` first candidates under the classical static ordering (no
/// history, killers or hash move), best first: the moves a search tries early at a node,
/// which self-play can stray onto (`SelfPlayOptions::random_top`).
pub fn ordered_candidates(board: &Board, k: usize) -> Vec<Move> {
    let (_, _, mut list) = static_moves(board);
    (0..list.len().min(k)).map(|i| list.pick(i)).collect()
}

/// `board`'s position, its node mode and its generated moves with their static scores
/// (no history, killers or hash move).
fn static_moves(board: &Board) -> (Position, movegen::Mode, MoveList) {
    let pos = Position::new(board);
    let mode = movegen::mode(&pos);
    let mut list = MoveList::new();
    let history = vec![0; crate::game::CELLS];
    movegen::generate(&pos, mode, &history, &mut list);
    (pos, mode, list)
}

/// Both static evaluations of `board` for its side to move.
pub fn evals(board: &Board, model: &'static QuantModel) -> Evals {
    let mut pos = Position::with_network(board, Some(model));
    let mut nn = NnEval::new(model, board);
    let us = pos.side();
    Evals {
        classical: pos.eval.evaluate(us),
        network: nn.score(board),
        blend: pos.static_eval(us),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nn::incremental::freestyle;
    use crate::game::{Color, Rule};

    /// Black has an open three on row 7 and White nothing: with White to move, blocking
    /// an end of the three is in every ordering's first few, and a far corner is not
    /// offered at all.
    #[test]
    fn a_block_ranks_high_and_a_far_square_is_not_offered() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(6, 7), (7, 8), (7, 7), (6, 8), (8, 7)] {
            b.make(Move::from_xy(x, y));
        }
        assert_eq!(b.side_to_move(), Color::White);
        let block = ranks(&b, freestyle(), Move::from_xy(5, 7)).expect("offered");
        assert!(!block.quiet_node, "an open three restricts the moves");
        assert!(block.of.iter().all(|&r| r <= 3.0), "{block:?}");
        assert!(ranks(&b, freestyle(), Move::from_xy(0, 0)).is_none());
        // The static ordering's candidates answer the three: the first k are the first k.
        let all = ordered_candidates(&b, 500);
        assert!(
            all.len() >= 2 && all.contains(&Move::from_xy(5, 7)),
            "{all:?}"
        );
        assert!(!all.contains(&Move::from_xy(0, 0)));
        assert_eq!(ordered_candidates(&b, 1), all[..1]);
        let e = evals(&b, freestyle());
        assert!(
            e.classical < 0 && e.network < 0 && e.blend < 0,
            "White to move is worse: {e:?}"
        );
        // The blend lies between the classical score and the value in classical units.
        let value = e.network * 230 / 100;
        let (lo, hi) = (e.classical.min(value), e.classical.max(value));
        assert!(lo < hi && (lo..=hi).contains(&e.blend), "{e:?}");
    }
}
