//! Fivefold: a Gomoku engine speaking the Gomocup/Piskvork brain protocol.
//!
//! # Architecture
//!
//! Data flows one way: [`protocol`] turns the text a manager sends into typed commands and
//! typed replies back into lines (no game logic); [`session`] holds what lives between
//! commands (the board, the INFO settings, the hash table, the clock) and answers each
//! command, Swap2 and the Yixin extensions included; [`search`] picks a move for a position
//! within node and time limits (iterative deepening, principal-variation alpha-beta, VCF /
//! VCT threat searches, Lazy SMP helpers); [`eval`] scores positions incrementally from
//! line patterns with the fitted weights of `src/eval/weights/` (and, under every rule
//! on 10x10 to 22x22 or with `INFO nn 1`, the network of `eval::nn` evaluates and orders
//! moves); and [`game`] is the board itself: moves, Zobrist hashing, win checks and the renju fouls. Lower layers know
//! nothing of higher ones: `game` depends on no other module, `eval` on `game`, `search` on
//! both, and `session` ties them to `protocol`'s types. Beside that chain, [`driver`] runs
//! any brain as a child process with deadlines, [`conformance`] checks a brain against the
//! protocol cases in `protocol-tests/`, `board` (feature `tools`) serves the web board, and
//! [`levels`] names the built-in engine's strengths, and [`data`] is the network's training
//! data (format, self-play, shards). The binaries in `src/bin` are tools built on these:
//! `fivefold-arena` (matches, SPRT, ladder), `fivefold-tune` (fitting the weights),
//! `fivefold-data` and `fivefold-train` (the network's data and training), `fivefold-board`
//! and `fivefold-protocol-check`; `src/main.rs` is the engine,
//! `pbrain-fivefold`.
//!
//! For users the README is the entry point; `docs/` holds one file per subject, and
//! `docs/journal.md` the measurements behind every search step.

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
