//! Fivefold's own network (issue 44): canonical line-shape features (`features`).
//! Nothing here is used by the search yet.

pub mod features;

pub use features::{shape_index, SHAPES};
