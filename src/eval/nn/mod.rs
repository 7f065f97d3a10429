//! Fivefold's own network (issue 44): canonical line-shape features (`features`), the
//! float model that the trainer fits (`model`), its weight file (`file`) and its
//! integer version for the engine (`quant`), and that version kept up to date move by
//! move for the search (`incremental`, with the built-in freestyle network).
//!
//! Trained on freestyle games only, the network reads line shapes that mean the same
//! under every rule, while the search keeps each rule's fives, overlines and fouls. It
//! plays them all: against the classical evaluation on 15x15 at 1000 ms, standard +24 +/-
//! 20, renju +49 +/- 29 (session 62), caro +60 +/- 35 (session 63; journal).

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
