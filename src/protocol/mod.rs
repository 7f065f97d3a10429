//! The Gomocup/Piskvork brain protocol as text: bytes -> lines -> typed commands, and
//! typed replies -> lines. No game logic lives here; see `/work/shared/protocol.md`.

mod command;
mod lines;
mod reply;

pub use command::{
    excerpt, parse_point, BoardKind, BoardLine, Command, Field, Info, Parser, Point,
};
pub use lines::{LineReader, MAX_LINE_BYTES};
pub use reply::{about_line, Reply, ENGINE_AUTHOR, ENGINE_COUNTRY, ENGINE_NAME};

#[cfg(test)]
mod tests;
