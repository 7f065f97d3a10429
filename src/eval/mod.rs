//! Evaluation: line patterns and the incremental per-square scores built on them.

pub mod nn;
mod pattern;
mod score;
pub mod weights;

pub use pattern::PATTERN_COUNT;
pub use pattern::{Pattern, PatternTable};
pub use score::{combo_key, Evaluator, Threat, COMBINATIONS, STATES, STATE_CODES, THREAT_COUNT};
pub use weights::Weights;
