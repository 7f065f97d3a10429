//! Fivefold's own network (issue 44): canonical line-shape features (`features`), the
//! float model that the trainer fits (`model`) and its weight file (`file`).
//! Nothing here is used by the search yet.

pub mod features;
pub mod file;
pub mod model;

pub use features::{shape_index, SHAPES};
pub use file::LoadError;
pub use model::{wdl, Model, Scratch, D, HIDDEN};
