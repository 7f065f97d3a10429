//! Fivefold: a Gomoku engine speaking the Gomocup/Piskvork brain protocol.
//!
//! Data flows one way: `protocol` (text <-> typed commands) -> `session` (game state,
//! time) -> `search` (alpha-beta, threats) -> `eval` / `game` (patterns, board, rules).
//! `driver` and `conformance` are for the tools that talk to brains from outside.

pub mod conformance;
pub mod driver;
pub mod eval;
pub mod game;
pub mod protocol;
pub mod search;
pub mod session;
