//! `pbrain-fivefold wins [nodes]`: how fast the search finds deep forced wins.
//!
//! The positions (`wins.txt`) come from games Fivefold lost to Rapfi: each is the
//! position right after Fivefold's losing move, with the winner to move. Rapfi reports
//! every one as a mate within 3 s (half of them within 220 ms); Fivefold's main search
//! needs depth 14-17 for such wins (twenty to fifty plies of threes and fours), which
//! is where it loses these games. Each position is searched from a fresh table up to a
//! node cap; the report gives the nodes the search had spent when it first proved a win
//! (the cap if it never did). Where the winner's move is forced (a four to block), the
//! engine would play it without a search: it is played, and the loser's search must then
//! report the loss. Like `bench`, it is deterministic: no clock, one thread.

use super::{bench, Clock, Limits, Searcher, TimeBudget, WIN_BOUND};
use crate::game::{Board, Rule};
use std::sync::atomic::AtomicBool;

pub const DEFAULT_NODES: u64 = 2_000_000;
const HASH_BYTES: usize = 64 << 20;
/// Forced moves played in a row before a position counts as unsolved.
const MAX_FORCED: usize = 8;
const POSITIONS: &str = include_str!("wins.txt");

/// The suite's move lists (Black first), comments and blank lines left out.
fn move_lines() -> impl Iterator<Item = &'static str> {
    POSITIONS
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// The suite's positions: 15x15 freestyle boards, side to move has a forced win.
pub fn positions() -> Vec<Board> {
    move_lines()
        .map(|moves| bench::position(15, Rule::Freestyle, moves))
        .collect()
}

/// Nodes until the search first proved a win, per position (`None`: not within `cap`).
pub fn run(cap: u64) -> Vec<Option<u64>> {
    let stop = AtomicBool::new(false);
    positions()
        .iter()
        .map(|board| solve(board, cap, &stop))
        .collect()
}

/// Nodes until the search proved the side to move's win in `board`. A forced move (the
/// search answers it at once, with no score) is played, and the search goes on from
/// the other side, which must then see its loss; the nodes are those of that search.
fn solve(board: &Board, cap: u64, stop: &AtomicBool) -> Option<u64> {
    let mut board = board.clone();
    let mut winner_to_move = true;
    for _ in 0..MAX_FORCED {
        let mut searcher = Searcher::new(HASH_BYTES);
        let limits = Limits {
            clock: Clock::new(std::time::Instant::now(), TimeBudget::unlimited()),
            max_depth: None,
            max_nodes: Some(cap),
        };
        let result = searcher.search(&board, &limits, stop, &mut |_| {});
        if result.depth == 0 && result.nodes == 0 && !result.best.is_none() {
            board.make(result.best);
            winner_to_move = !winner_to_move;
            continue;
        }
        let proved = if winner_to_move {
            result.score >= WIN_BOUND
        } else {
            result.score <= -WIN_BOUND
        };
        return proved.then_some(result.nodes);
    }
    None
}

/// The report's lines: one per position, then the number solved and the geometric mean
/// of the nodes (unsolved positions counted at the cap).
pub fn lines(cap: u64) -> Vec<String> {
    let found = run(cap);
    let mut out: Vec<String> = found
        .iter()
        .enumerate()
        .map(|(i, f)| match f {
            Some(n) => format!("position {} win after {n} nodes", i + 1),
            None => format!("position {} no win within {cap} nodes", i + 1),
        })
        .collect();
    let solved = found.iter().filter(|f| f.is_some()).count();
    let log_sum: f64 = found
        .iter()
        .map(|f| (f.unwrap_or(cap).max(1) as f64).ln())
        .sum();
    let geomean = (log_sum / found.len().max(1) as f64).exp();
    out.push(format!("solved {solved} of {}", found.len()));
    out.push(format!("geomean_nodes {geomean:.0}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Move};

    #[test]
    fn every_position_is_a_game_in_progress() {
        let lines: Vec<&str> = move_lines().collect();
        assert_eq!(lines.len(), positions().len());
        assert_eq!(lines.len(), 55);
        for moves in lines {
            // Replayed move by move: every square empty when played, no five on the way.
            let mut b = Board::new(15, 15, Rule::Freestyle);
            for mv in moves.split_whitespace() {
                let (x, y) = mv.split_once(',').expect("x,y");
                let m = Move::from_xy(x.parse().expect("x"), y.parse().expect("y"));
                assert!(b.is_empty(m), "{mv} in {moves}");
                b.make(m);
                assert_eq!(b.last_move_wins(), None, "{mv} in {moves}");
            }
            let side = if b.stone_count().is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(b.side_to_move(), side);
        }
    }

    #[test]
    fn a_forced_first_move_is_played_and_the_loss_proved_from_the_other_side() {
        // White to move must block Black's four at 7,3, which makes White's three on
        // column 7 an open four: Black, to move after it, has lost. Searched as it stands,
        // the forced move takes no search and reports no score.
        let b = bench::position(15, Rule::Freestyle, "3,3 2,3 4,3 7,4 5,3 7,5 6,3 7,6 12,12");
        assert_eq!(b.side_to_move(), Color::White);
        let nodes = solve(&b, 10_000, &AtomicBool::new(false));
        assert!(nodes.is_some_and(|n| n > 0), "{nodes:?}");
    }

    #[test]
    fn a_tiny_cap_solves_nothing_and_reports_every_position() {
        let lines = lines(50);
        assert_eq!(lines.len(), 57);
        assert_eq!(lines[55], "solved 0 of 55");
    }
}
