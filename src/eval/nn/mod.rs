//! Fivefold's own network (issue 44): canonical line-shape features (`features`), the
//! float model that the trainer fits (`model`), its weight file (`file`) and its
//! integer version for the engine (`quant`), and that version kept up to date move by
//! move for the search (`incremental`, with the built-in freestyle network).

pub mod features;
pub mod file;
pub mod incremental;
pub mod model;
pub mod quant;

pub use features::{shape_index, SHAPES};
pub use file::LoadError;
pub use incremental::{NetEval, NnEval};
pub use model::{wdl, Model, Scratch, CHANNELS, ENGINE_CHANNELS, HIDDEN};
pub use quant::{QuantModel, QuantNet, QuantScratch};

use crate::game::Rule;

/// The rules the network evaluates. Trained on freestyle games only, it reads line
/// shapes that mean the same in standard and renju, while the search keeps each rule's
/// fives and fouls: against the classical evaluation on 15x15 at 1000 ms, standard
/// +24 +/- 20 and renju +49 +/- 29 Elo (journal, session 62). Caro is untried.
pub fn plays(rule: Rule) -> bool {
    matches!(rule, Rule::Freestyle | Rule::Standard | Rule::Renju)
}
