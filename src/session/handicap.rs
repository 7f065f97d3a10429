//! The reduced levels' moves (`crate::levels::Handicap`): several root moves searched as
//! YXNBEST searches them, one picked with a random bonus, and the opponent's threats
//! sometimes overlooked. Everything here runs once a move, outside the search.

use super::{Context, Emit, Session};
use crate::data::rng::SplitMix64;
use crate::eval::{Evaluator, Threat};
use crate::game::Move;
use crate::levels::Handicap;
use crate::protocol::Reply;
use crate::search::SearchResult;
use std::sync::atomic::Ordering;

/// A seed from the clock and the process id, for games against people.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

impl Session {
    /// Plays a move of a reduced level: `h.lines` root moves searched (never a square
    /// overlooked this move while another is left), then the best score plus a bonus
    /// drawn in `0..=h.noise`. A first line found without searching (depth 0: the centre
    /// of an empty board, a five, a win by fours, the only move) is played as it is.
    pub(super) fn play_handicapped(
        &mut self,
        h: Handicap,
        ctx: &Context,
        emit: Emit,
    ) -> Result<(), String> {
        self.prepare_move(emit)?;
        let blind = self.overlooked_squares(h);
        let mut report = |line: String| emit(Reply::Message(line));
        let lines = self.search_lines(h.lines, ctx, &blind, &mut report)?;
        let obvious = lines.first().filter(|(_, r)| r.depth == 0).map(|&(m, _)| m);
        let m = obvious
            .or_else(|| pick(&lines, h.noise, &mut self.rng))
            .ok_or("no move found")?;
        log::info!(
            "level move {},{} of {} lines, {} squares overlooked",
            m.x(),
            m.y(),
            lines.len(),
            blind.len()
        );
        self.play_ours(m, emit)
    }

    /// Searches up to `n` root moves, each search excluding the moves found before,
    /// `blind` and the blocked squares; the later searches go no deeper than the first
    /// so the scores compare. The turn's time is shared evenly between the searches.
    /// `report` gets the first search's progress lines.
    pub(super) fn search_lines(
        &mut self,
        n: u32,
        ctx: &Context,
        blind: &[Move],
        report: &mut dyn FnMut(String),
    ) -> Result<Vec<(Move, SearchResult)>, String> {
        let mut lines: Vec<(Move, SearchResult)> = Vec::new();
        for rank in 1..=n {
            let mut limits = self.share_of_turn(ctx.arrival, n - rank + 1);
            if let Some((_, first)) = lines.first().filter(|(_, r)| r.depth > 0) {
                limits.max_depth =
                    Some(limits.max_depth.map_or(first.depth, |d| d.min(first.depth)));
            }
            let mut excluded: Vec<Move> = lines.iter().map(|&(m, _)| m).collect();
            excluded.extend_from_slice(blind);
            let mut quiet = |_| {};
            let progress: &mut dyn FnMut(String) = if rank == 1 { report } else { &mut quiet };
            let (m, result) = self.search_current(&limits, ctx, &excluded, progress)?;
            // Only the fallback plays an excluded square: nothing else is left (the first
            // search keeps it: it is the only move).
            if rank > 1 && (excluded.contains(&m) || self.blocked.contains(&m)) {
                break;
            }
            lines.push((m, result));
            if ctx.stop.load(Ordering::SeqCst) {
                break;
            }
        }
        Ok(lines)
    }

    /// The squares this move does not see: with the chance `h.overlook`, those where the
    /// opponent makes a double three or a four (open, or with a three) that are not a three
    /// or better for us; with the chance `h.overlook_four`, the opponent's five squares too;
    /// with the chance `h.miss_own`, our own four and five squares.
    fn overlooked_squares(&mut self, h: Handicap) -> Vec<Move> {
        let threes = chance(&mut self.rng, h.overlook);
        let fours = chance(&mut self.rng, h.overlook_four);
        let own = chance(&mut self.rng, h.miss_own);
        let Some(board) = self.board.as_ref().filter(|_| threes || fours || own) else {
            return Vec::new();
        };
        let us = board.side_to_move();
        let ev = Evaluator::new(board);
        let theirs = |t: Threat| {
            (threes && (Threat::DoubleThree..Threat::Five).contains(&t))
                || (fours && t == Threat::Five)
        };
        let blind = |m: Move| {
            let ours = ev.threat(us, m);
            (theirs(ev.threat(us.opp(), m)) && ours < Threat::Flex3)
                || (own && ours >= Threat::Four)
        };
        board.empty_squares().filter(|&m| blind(m)).collect()
    }
}

/// True with a chance of `percent` in 100.
fn chance(rng: &mut SplitMix64, percent: u8) -> bool {
    percent > 0 && rng.below(100) < u64::from(percent)
}

/// The line whose score plus a bonus in `0..=noise` is highest (the first on ties).
fn pick(lines: &[(Move, SearchResult)], noise: i32, rng: &mut SplitMix64) -> Option<Move> {
    let mut best: Option<(i64, Move)> = None;
    for &(m, r) in lines {
        let bonus = if noise > 0 {
            rng.below(noise as u64 + 1) as i64
        } else {
            0
        };
        let value = i64::from(r.score) + bonus;
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, m));
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Rule};

    /// A session on a 15x15 freestyle board after `moves` (black first).
    fn session_after(moves: &[(usize, usize)]) -> Session {
        let mut board = Board::new(15, 15, Rule::Freestyle);
        for &(x, y) in moves {
            board.make(Move::from_xy(x, y));
        }
        let mut s = Session::new();
        s.board = Some(board);
        s
    }

    fn sorted(mut v: Vec<Move>) -> Vec<Move> {
        v.sort_by_key(|m| m.idx());
        v
    }

    fn squares(xy: &[(usize, usize)]) -> Vec<Move> {
        sorted(xy.iter().map(|&(x, y)| Move::from_xy(x, y)).collect())
    }

    #[test]
    fn overlooking_hides_the_opponents_threats_and_our_fours_only_when_asked() {
        // Black: an open three on row 7; White, to move: a four on row 9 (5..8).
        let moves = [
            (5, 7),
            (5, 9),
            (6, 7),
            (6, 9),
            (7, 7),
            (7, 9),
            (9, 3),
            (8, 9),
            (10, 3),
        ];
        let mut s = session_after(&moves);
        assert!(s.overlooked_squares(Handicap::NONE).is_empty());
        let threes = Handicap {
            overlook: 100,
            ..Handicap::NONE
        };
        assert_eq!(
            sorted(s.overlooked_squares(threes)),
            squares(&[(3, 7), (4, 7), (8, 7), (9, 7)]),
            "Black's four squares around its open three, not White's own five squares"
        );
        let own = Handicap {
            miss_own: 100,
            ..Handicap::NONE
        };
        assert_eq!(
            sorted(s.overlooked_squares(own)),
            squares(&[(3, 9), (4, 9), (9, 9), (10, 9)]),
            "White's five squares and the squares of a second four"
        );
    }

    fn line(x: usize, score: i32) -> (Move, SearchResult) {
        let result = SearchResult {
            best: Move::from_xy(x, 0),
            score,
            depth: 3,
            nodes: 100,
        };
        (result.best, result)
    }

    #[test]
    fn without_noise_the_best_score_is_picked() {
        let lines = [line(1, 10), line(2, 300), line(3, 299)];
        let mut rng = SplitMix64::new(1);
        assert_eq!(pick(&lines, 0, &mut rng), Some(Move::from_xy(2, 0)));
        assert_eq!(pick(&[], 100, &mut rng), None);
    }

    #[test]
    fn noise_spreads_the_pick_over_close_lines_but_not_past_a_win() {
        let lines = [line(1, 100), line(2, 90), line(3, 80)];
        let mut rng = SplitMix64::new(7);
        let mut seen = [0; 4];
        for _ in 0..300 {
            seen[pick(&lines, 500, &mut rng).map_or(0, |m| m.x())] += 1;
        }
        assert!(seen[1..].iter().all(|&n| n > 50), "{seen:?}");
        let win = [line(1, 200), line(2, crate::search::WIN - 3)];
        for _ in 0..100 {
            assert_eq!(pick(&win, 1500, &mut rng), Some(Move::from_xy(2, 0)));
        }
    }

    #[test]
    fn chance_follows_its_percent() {
        let mut rng = SplitMix64::new(3);
        assert!(!(0..1000).any(|_| chance(&mut rng, 0)));
        assert!((0..1000).all(|_| chance(&mut rng, 100)));
        let hits = (0..1000).filter(|_| chance(&mut rng, 30)).count();
        assert!((240..360).contains(&hits), "{hits}");
    }
}
