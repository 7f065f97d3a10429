//! Board, rules, hashing and win checks: everything about the game and nothing about play.

mod board;
mod renju;
mod types;
mod zobrist;

pub use board::{key_slot, Board, KEY_BITS};
pub use renju::{black_foul, Foul};
pub use types::*;
