//! Fivefold: a Gomoku engine speaking the Gomocup/Piskvork brain protocol.
//!
//! Data flows one way: `protocol` (text <-> typed commands) -> `session` (game state,
//! time) -> `search` (alpha-beta, threats) -> `eval` / `game` (patterns, board, rules).

pub mod driver;
pub mod game;
pub mod search;
