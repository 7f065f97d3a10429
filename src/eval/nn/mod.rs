//! Fivefold's own network (issue 44): canonical line-shape features (`features`), the
//! float model that the trainer fits (`model`), its weight file (`file`) and its
//! integer version for the engine (`quant`).
//! Nothing here is used by the search yet.

pub mod features;
pub mod file;
pub mod model;
pub mod quant;

pub use features::{shape_index, SHAPES};
pub use file::LoadError;
pub use model::{wdl, Model, Scratch, D, HIDDEN};
pub use quant::{QuantModel, QuantScratch};
