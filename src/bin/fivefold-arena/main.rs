//! fivefold-arena: plays matches between Gomocup brains (work in progress).
fn main() {}
