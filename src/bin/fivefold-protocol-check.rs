//! Protocol conformance checker (being written).
fn main() {}
