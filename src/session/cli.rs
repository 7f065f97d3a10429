//! The non-protocol subcommands: `bench` and `demo`.

use super::position::legal_move_or_fallback;
use super::settings::hash_bytes_for;
use crate::game::{Board, Color, Rule};
use crate::search::{bench, Clock, Limits, Searcher, TimeBudget};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Bench output, Stockfish style: the last two lines (`nodes`, `nps`) are the signature
/// that scripts compare.
pub fn bench_lines(depth: u32, nn: Option<&'static crate::eval::nn::QuantModel>) -> Vec<String> {
    let report = bench::run(depth, nn);
    vec![
        format!("depth {depth}"),
        format!("time_ms {}", report.elapsed.as_millis()),
        format!("nodes {}", report.nodes),
        format!("nps {}", report.nps()),
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemoOptions {
    pub size: usize,
    pub ms_per_move: u64,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            size: 15,
            ms_per_move: 200,
        }
    }
}

/// Memory for the demo's table: small, the demo is a short show.
const DEMO_MEMORY: i64 = 128 << 20;

/// Self-play from an empty board until a five or a full board. Returns the text to print:
/// the final board, the result and the move list.
pub fn demo(opts: DemoOptions) -> Result<String, String> {
    if !Board::is_valid_size(opts.size, opts.size) {
        return Err(format!("unsupported board size {}", opts.size));
    }
    let mut board = Board::new(opts.size, opts.size, Rule::Freestyle);
    let mut searcher = Searcher::new(hash_bytes_for(DEMO_MEMORY));
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    let winner = loop {
        let limits = demo_limits(opts.ms_per_move);
        let result = searcher.search(&board, &limits, &stop, &mut |line| log::info!("{line}"));
        let Some(m) = legal_move_or_fallback(&board, result.best) else {
            break None;
        };
        board.make(m);
        moves.push(format!("{},{}", m.x(), m.y()));
        if let Some(c) = board.last_move_wins() {
            break Some(c);
        }
    };
    let result = match winner {
        Some(Color::Black) => "Black (X) wins",
        Some(Color::White) => "White (O) wins",
        None => "draw: the board is full",
    };
    Ok(format!(
        "{}\n{result} after {} moves\nmoves: {}\n",
        board.to_text(),
        moves.len(),
        moves.join(" ")
    ))
}

fn demo_limits(ms: u64) -> Limits {
    let budget = TimeBudget {
        soft: Duration::from_millis(ms),
        hard: Duration::from_millis(ms),
    };
    Limits {
        clock: Clock::new(Instant::now(), budget),
        max_depth: None,
        max_nodes: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_ends_with_nodes_and_nps() {
        let lines = bench_lines(1, None);
        let n = lines.len();
        assert!(lines[n - 2].starts_with("nodes "));
        assert!(lines[n - 1].starts_with("nps "));
    }

    #[test]
    fn demo_plays_to_the_end_on_a_small_board() {
        let text = demo(DemoOptions {
            size: 7,
            ms_per_move: 5,
        })
        .unwrap();
        assert!(text.contains("moves: "));
        assert!(text.contains("wins") || text.contains("draw"));
    }

    #[test]
    fn demo_rejects_bad_sizes() {
        assert!(demo(DemoOptions {
            size: 2,
            ms_per_move: 1
        })
        .is_err());
    }
}
