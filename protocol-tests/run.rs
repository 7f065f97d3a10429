//! Protocol conformance suite against pbrain-fivefold (being written).
