//! YXBALANCEONE / YXBALANCETWO: moves that leave the position balanced, for making
//! openings. Each candidate square is played and the position after it searched briefly;
//! the move whose score (for the side that played it) is closest to the bias wins.

use super::{Context, Emit, Session, NO_GAME};
use crate::eval::{Evaluator, Threat};
use crate::game::{Board, Move};
use crate::protocol::Reply;
use crate::search::{score_text, WIN_BOUND};
use std::sync::atomic::Ordering;

/// Squares tried per move: those with most stones near them, then nearest the centre.
const MAX_CANDIDATES: usize = 24;
/// Most nodes one candidate's search may spend (less if `max_node` says so).
const CANDIDATE_NODES: u64 = 20_000;

impl Session {
    /// YXBALANCEONE b: our move after which our score is closest to b; printed as
    /// `MESSAGE BALANCE x,y score s` and the move. YXBALANCETWO b: that move, then the
    /// opponent's move after which our score is again closest to b; printed as
    /// `x1,y1 x2,y2`. The moves are played on the board.
    pub(super) fn balance(
        &mut self,
        two: bool,
        bias: i64,
        ctx: &Context,
        emit: Emit,
    ) -> Result<(), String> {
        self.prepare_move(emit)?;
        let target = bias.clamp(-i64::from(WIN_BOUND - 1), i64::from(WIN_BOUND - 1)) as i32;
        let (first, score) = self.balanced_move(target, ctx)?;
        emit(balance_line(first, score));
        if !two {
            return self.play_ours(first, emit);
        }
        self.board_mut()?.make(first);
        let (second, score) = self.balanced_reply(target, ctx)?;
        emit(balance_line(second, score));
        let xy = |m: Move| (m.x(), m.y());
        emit(Reply::Moves(vec![xy(first), xy(second)]));
        Ok(())
    }

    /// After our balancing move was played: the opponent's move after which our score is
    /// again closest to `target`, played on the board, with its score for the opponent.
    /// On an error our move is taken back.
    pub(super) fn balanced_reply(
        &mut self,
        target: i32,
        ctx: &Context,
    ) -> Result<(Move, i32), String> {
        let second = self.balanced_move(-target, ctx);
        let board = self.board_mut()?;
        match second {
            Ok((second, score)) => {
                board.make(second);
                Ok((second, score))
            }
            Err(e) => {
                board.undo();
                Err(e)
            }
        }
    }

    /// The candidate for the side to move whose score after a short search is closest
    /// to `target`, with that score.
    pub(super) fn balanced_move(
        &mut self,
        target: i32,
        ctx: &Context,
    ) -> Result<(Move, i32), String> {
        let board = self
            .board
            .as_ref()
            .ok_or_else(|| NO_GAME.to_string())?
            .clone();
        let candidates = candidates(&board, &self.blocked);
        if candidates.is_empty() {
            return Err("no square left for a balanced move".to_string());
        }
        let mut best: Option<(i32, Move, i32)> = None;
        for (i, &m) in candidates.iter().enumerate() {
            let mut limits = self.share_of_turn(ctx.arrival, (candidates.len() - i) as u32);
            let cap = limits
                .max_nodes
                .map_or(CANDIDATE_NODES, |n| n.min(CANDIDATE_NODES));
            limits.max_nodes = Some(cap);
            let mut after = board.clone();
            after.make(m);
            self.ensure_searcher();
            let searcher = self.searcher.as_mut().ok_or_else(|| NO_GAME.to_string())?;
            let ours = -searcher
                .search(&after, &limits, ctx.stop, &mut |_| {})
                .score;
            let miss = (ours - target).abs();
            if best.is_none_or(|(b, _, _)| miss < b) {
                best = Some((miss, m, ours));
            }
            if ctx.stop.load(Ordering::SeqCst) {
                break;
            }
        }
        let (_, m, score) = best.ok_or_else(|| "no balanced move found".to_string())?;
        Ok((m, score))
    }
}

fn balance_line(m: Move, score: i32) -> Reply {
    Reply::Message(format!(
        "BALANCE {},{} score {}",
        m.x(),
        m.y(),
        score_text(score)
    ))
}

/// Squares the side to move may try: empty, not blocked, not a renju foul, not a five
/// (that ends the game rather than balancing it), near stones when there are any.
fn candidates(board: &Board, blocked: &[Move]) -> Vec<Move> {
    let us = board.side_to_move();
    let eval = Evaluator::new(board);
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    let dist = |m: Move| (m.x() as i64 - cx).abs().max((m.y() as i64 - cy).abs());
    let mut squares: Vec<Move> = board
        .empty_squares()
        .filter(|&m| board.stone_count() == 0 || board.near(m) > 0)
        .filter(|m| !blocked.contains(m) && !board.is_forbidden_for(us, *m))
        .filter(|&m| eval.threat(us, m) != Threat::Five)
        .collect();
    squares.sort_by_key(|&m| (-i64::from(board.near(m)), dist(m)));
    squares.truncate(MAX_CANDIDATES);
    squares
}

#[cfg(test)]
mod tests {
    use super::super::Session;
    use crate::game::Move;

    use super::super::tests::talk;

    fn xy(text: &str) -> (usize, usize) {
        let (x, y) = text.split_once(',').expect("x,y");
        (x.parse().expect("x"), y.parse().expect("y"))
    }

    fn game() -> Session {
        let mut s = Session::new();
        let setup = "INFO max_memory 52428800\nINFO timeout_turn 300\nSTART 15";
        assert_eq!(talk(&mut s, setup), vec!["OK"]);
        s
    }

    /// Black (to move) has an open four on row 7; its five squares are (2,7) and (7,7).
    const OPEN_FOUR: &str =
        "YXBOARD\n3,7,1\n0,0,2\n4,7,1\n14,0,2\n5,7,1\n0,14,2\n6,7,1\n14,14,2\nDONE";

    #[test]
    fn balance_one_plays_a_legal_move_that_is_not_a_five() {
        let mut s = game();
        talk(&mut s, &format!("{OPEN_FOUR}\nYXBLOCK\n8,7\nDONE"));
        let out = talk(&mut s, "YXBALANCEONE 0");
        assert_eq!(out.len(), 2, "{out:?}");
        let m = xy(&out[1]);
        assert!(out[0].starts_with(&format!("MESSAGE BALANCE {},{} score ", m.0, m.1)));
        assert!(![(2, 7), (7, 7), (8, 7)].contains(&m), "{m:?}");
        let b = s.board().unwrap();
        assert_eq!(b.stone_count(), 9);
        assert_eq!(b.last_move(), Some(Move::from_xy(m.0, m.1)));
    }

    #[test]
    fn balance_two_plays_a_move_for_each_side() {
        let mut s = game();
        talk(&mut s, "YXBOARD\n7,7,1\n8,8,2\n8,7,1\n6,6,2\nDONE");
        let out = talk(&mut s, "YXBALANCETWO 0");
        assert_eq!(out.len(), 3, "{out:?}");
        let moves: Vec<(usize, usize)> = out[2].split(' ').map(xy).collect();
        assert_eq!(moves.len(), 2, "{out:?}");
        assert_ne!(moves[0], moves[1]);
        let b = s.board().unwrap();
        assert_eq!(b.stone_count(), 6);
        let last: Vec<Move> = b.history()[4..].to_vec();
        let want: Vec<Move> = moves.iter().map(|&(x, y)| Move::from_xy(x, y)).collect();
        assert_eq!(last, want);
    }

    #[test]
    fn bad_balance_commands_are_errors_and_change_nothing() {
        let mut s = Session::new();
        let out = talk(&mut s, "YXBALANCEONE 0");
        assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{out:?}");
        let mut s = game();
        for bad in ["YXBALANCEONE", "YXBALANCETWO many"] {
            let out = talk(&mut s, bad);
            assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{out:?}");
        }
        assert_eq!(s.board().unwrap().stone_count(), 0);
    }
}
