//! Evaluation: line patterns and the incremental per-square scores built on them.
//!
//! `pattern` classifies a line around a square; `weights` owns the feature layout and the
//! fitted numbers (`src/eval/weights/*.txt`, see `docs/tuning.md`); `score` keeps the
//! per-square threats and values up to date and sums them into the evaluation. Measured
//! trials are in `docs/journal.md` ("Trials by subject").

pub mod nn;
mod pattern;
mod score;
pub mod weights;

pub use pattern::PATTERN_COUNT;
pub use pattern::{Pattern, PatternTable};
pub use score::{Evaluator, Threat};
pub use weights::{combo_key, Weights, COMBINATIONS, STATES, STATE_CODES, THREAT_COUNT};
