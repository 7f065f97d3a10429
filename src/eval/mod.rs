//! Evaluation: line patterns and the incremental per-square scores built on them.

mod pattern;
mod score;

pub use pattern::{Pattern, PatternTable};
pub use score::{Evaluator, Threat};
