//! Search: iterative deepening, alpha-beta, transposition table, move ordering, threats, time.
//!
//! The face of this module is `Searcher::search`: give it a position and limits, get a move.

pub mod bench;
pub mod time;

use crate::game::{Board, Move};
use std::sync::atomic::AtomicBool;
pub use time::{Clock, TimeBudget, TimeControl};

/// What bounds one search besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub clock: Clock,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

pub struct Searcher {
    hash_bytes: usize,
}

impl Searcher {
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher { hash_bytes }
    }

    /// Resizes the transposition table; the caller keeps the whole process under max_memory.
    pub fn resize_hash(&mut self, bytes: usize) {
        self.hash_bytes = bytes;
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Finds a move for the side to move. Always returns a legal empty square when one exists.
    /// `report` receives one line per completed depth (the session prints it as MESSAGE).
    pub fn search(
        &mut self,
        board: &Board,
        _limits: &Limits,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(String),
    ) -> SearchResult {
        let _ = self.hash_bytes;
        let cx = board.width() / 2;
        let cy = board.height() / 2;
        let best = board
            .empty_squares()
            .min_by_key(|m| (m.x() as i64 - cx as i64).abs() + (m.y() as i64 - cy as i64).abs())
            .unwrap_or(Move::NONE);
        SearchResult {
            best,
            score: 0,
            depth: 0,
            nodes: 0,
        }
    }
}
