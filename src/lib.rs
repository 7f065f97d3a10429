//! Fivefold: a Gomoku engine speaking the Gomocup/Piskvork brain protocol.
//!
//! Data flows one way: `protocol` (text <-> typed commands) -> `session` (game state,
//! time) -> `search` (alpha-beta, threats) -> `eval` / `game` (patterns, board, rules).
//! `driver` and `conformance` are for the tools that talk to brains from outside; `board`
//! (with the `tools` feature) is the web board, and `levels` the built-in engine's strengths.

#[cfg(feature = "tools")]
pub mod board;
pub mod conformance;
pub mod data;
pub mod driver;
pub mod eval;
pub mod game;
pub mod levels;
pub mod protocol;
pub mod search;
pub mod session;
