//! `pbrain-fivefold bench`: a fixed set of positions searched to a fixed depth. The total
//! node count is the search's signature: any functional change to search or eval moves it.

use std::time::Duration;

pub const DEFAULT_DEPTH: u32 = 8;

pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Runs the bench at `depth` (placeholder until the real search lands).
pub fn run(_depth: u32) -> BenchReport {
    BenchReport {
        nodes: 0,
        elapsed: Duration::from_millis(1),
    }
}
