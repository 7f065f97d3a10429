//! The Yixin-Board extensions that are more than a setting: YXNBEST, YXHASHCLEAR,
//! YXSHOWINFO, YXSHOWFORBID and YXBLOCK / YXBLOCKUNDO (YXBLOCKRESET and INFO hash_size
//! are one-liners elsewhere).

use super::{Context, Emit, Session, NO_GAME};
use crate::game::Move;
use crate::protocol::{Point, Reply, ENGINE_NAME};
use crate::search::{score_text, Limits};
use std::time::Instant;

/// What YXSHOWINFO reports as the largest hash size: log2 of our largest table in KB
/// (1 GiB = 2^20 KB), in the place where Rapfi reports 30.
pub const MAX_HASH_SIZE_LOG2_KB: u32 = 20;

impl Session {
    /// YXNBEST n: searches n times, each time excluding the moves found before (and the
    /// blocked squares); the later searches go no deeper than the first, so the scores
    /// compare. Prints the lines best first as `MESSAGE NBEST rank x,y score S depth D`,
    /// then plays the first. The turn's time is shared evenly between the searches.
    pub(super) fn nbest(&mut self, n: u32, ctx: &Context, emit: Emit) -> Result<(), String> {
        self.prepare_move(emit)?;
        let mut lines = self.search_lines(n, ctx, &[], &mut |_| {})?;
        lines.sort_by_key(|(_, r)| -r.score);
        for (rank, (m, r)) in lines.iter().enumerate() {
            let (score, depth) = (score_text(r.score), r.depth);
            let text = format!(
                "NBEST {} {},{} score {score} depth {depth}",
                rank + 1,
                m.x(),
                m.y()
            );
            emit(Reply::Message(text));
        }
        let (best, _) = lines
            .first()
            .ok_or_else(|| "YXNBEST: no move found".to_string())?;
        self.play_ours(*best, emit)
    }

    /// Limits for one of `lines_left` searches that share what is left of the turn.
    pub(super) fn share_of_turn(&self, arrival: Instant, lines_left: u32) -> Limits {
        let whole = self.limits(arrival, None);
        let share = whole.clock.budget().hard / lines_left.max(1);
        self.limits(arrival, Some(share))
    }

    /// YXHASHCLEAR: the next search starts with an empty table and no history.
    pub(super) fn hash_clear(&mut self, emit: Emit) {
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.clear();
        }
        emit(Reply::Message("hash table cleared".to_string()));
    }

    /// YXSHOWINFO: the engine's name and limits, as Rapfi prints them for Yixin-Board.
    pub(super) fn show_info(&self, emit: Emit) {
        let version = env!("CARGO_PKG_VERSION");
        emit(Reply::Message(format!("{ENGINE_NAME} {version}")));
        emit(Reply::Message(format!(
            "INFO MAX_THREAD_NUM {}",
            super::settings::max_threads()
        )));
        emit(Reply::Message(format!(
            "INFO MAX_HASH_SIZE {MAX_HASH_SIZE_LOG2_KB}"
        )));
    }

    /// YXSHOWFORBID: Black's forbidden points whoever is to move (none unless renju).
    pub(super) fn show_forbid(&self, emit: Emit) -> Result<(), String> {
        let board = self.board.as_ref().ok_or_else(|| NO_GAME.to_string())?;
        let points = board.forbidden_points();
        emit(Reply::Forbid(
            points.iter().map(|m| (m.x(), m.y())).collect(),
        ));
        Ok(())
    }

    /// YXBLOCK / YXBLOCKUNDO: adds squares to (or takes them off) the blocked list. Any
    /// bad line rejects the whole block and keeps the list as it was.
    pub(super) fn block(
        &mut self,
        undo: bool,
        points: &[Point],
        errors: &[String],
    ) -> Result<(), String> {
        let name = if undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
        let board = self.board.as_ref().ok_or_else(|| NO_GAME.to_string())?;
        if let Some(first) = errors.first() {
            return Err(format!("{name}: {first}; blocked squares unchanged"));
        }
        let mut squares = Vec::with_capacity(points.len());
        for p in points {
            if !board.on_board(p.x, p.y) {
                return Err(format!(
                    "{name}: square {},{} is off the board; blocked squares unchanged",
                    p.x, p.y
                ));
            }
            squares.push(Move::from_xy(p.x as usize, p.y as usize));
        }
        for m in squares {
            if undo {
                self.blocked.retain(|&b| b != m);
            } else if !self.blocked.contains(&m) {
                self.blocked.push(m);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "yixin_tests.rs"]
mod tests;
