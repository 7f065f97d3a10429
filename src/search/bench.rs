//! `pbrain-fivefold bench`: a fixed set of positions searched to a fixed depth. The total
//! node count is the search's signature: any functional change to search or eval moves it.

use super::{Clock, Limits, Searcher, TimeBudget};
use crate::game::{Board, Move, Rule};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: u32 = 6;
const BENCH_HASH_BYTES: usize = 16 << 20;

/// (board size, rule, moves black first): openings of every rule and size we play,
/// plus middle-game positions with threats on both sides.
const POSITIONS: &[(usize, Rule, &str)] = &[
    (15, Rule::Freestyle, "8,6 9,6 10,8"),
    (15, Rule::Freestyle, "8,9 9,9 6,7 8,10"),
    (15, Rule::Freestyle, "7,5 9,6 9,7 9,8 10,9"),
    (15, Rule::Freestyle, "9,10 8,10 10,5 9,7 8,8 6,8"),
    (
        15,
        Rule::Freestyle,
        "7,7 8,8 8,7 6,7 7,8 7,6 9,6 6,9 8,9 6,8 6,6 9,9",
    ),
    (20, Rule::Freestyle, "11,9 12,7 8,10"),
    (20, Rule::Freestyle, "12,8 10,10 9,11 9,12"),
    (15, Rule::Standard, "7,6 9,9 11,8"),
    (15, Rule::Standard, "8,10 9,10 8,9 7,8 4,5"),
    (15, Rule::Renju, "5,4 5,5 5,6"),
    (15, Rule::Caro, "7,7 8,7 7,8 8,8 6,6"),
];

pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Builds a bench position; moves alternate from Black.
pub fn position(size: usize, rule: Rule, moves: &str) -> Board {
    let mut board = Board::new(size, size, rule);
    for mv in moves.split_whitespace() {
        let mut xy = mv.split(',').filter_map(|v| v.parse::<usize>().ok());
        if let (Some(x), Some(y)) = (xy.next(), xy.next()) {
            board.make(Move::from_xy(x, y));
        }
    }
    board
}

/// Searches every bench position to `depth` with a fresh table; returns the totals.
/// With `nn`, the searches order moves with that network (`Searcher::set_network`).
pub fn run(depth: u32, nn: Option<&'static crate::eval::nn::QuantModel>) -> BenchReport {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut nodes = 0;
    for &(size, rule, moves) in POSITIONS {
        let board = position(size, rule, moves);
        let mut searcher = Searcher::new(BENCH_HASH_BYTES);
        searcher.set_network(nn);
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: Some(depth),
            max_nodes: None,
        };
        nodes += searcher.search(&board, &limits, &stop, &mut |_| {}).nodes;
    }
    BenchReport {
        nodes,
        elapsed: start.elapsed(),
    }
}
