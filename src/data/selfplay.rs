//! Self-play games for training data: fresh balanced openings, a fixed node count a move,
//! a little randomness early so games differ, every ply labelled with the search's best
//! move and score.
//!
//! Game `i` of a campaign depends only on `(seed, i)` and the options, and shard `k` of
//! `n` plays the games with `i % n == k`: the shards of a campaign, concatenated, hold the
//! same games whichever machines played them.

use super::format::{GameRecord, Outcome, Ply};
use super::rng::SplitMix64;
use crate::eval::nn::QuantModel;
use crate::game::{Board, Color, Move, Rule};
use crate::search::{Clock, Limits, Searcher, TimeBudget};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct SelfPlayOptions {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// Nodes a move.
    pub nodes: u64,
    /// Random opening stones: between these counts, within `opening_radius` of the centre.
    pub opening_stones: (usize, usize),
    pub opening_radius: usize,
    /// An opening is kept when a search of `balance_nodes` scores it within this margin.
    pub balance_margin: i32,
    pub balance_nodes: u64,
    /// In the first `random_plies` plies after the opening, a ply is a random square next
    /// to a stone with this probability (in 1/1000), else the search's move.
    pub random_plies: usize,
    pub random_permille: u32,
    /// A random ply is one of the `random_top` first candidates of the static ordering
    /// other than the search's move (the siblings a search weighs), or with 0 any square
    /// next to a stone.
    pub random_top: usize,
    pub hash_bytes: usize,
    /// The network the games are searched with (`Searcher::set_network`; freestyle
    /// only), or `None` for the classical evaluation alone.
    pub network: Option<&'static QuantModel>,
}

impl Default for SelfPlayOptions {
    fn default() -> Self {
        SelfPlayOptions {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            nodes: 20_000,
            opening_stones: (2, 6),
            opening_radius: 4,
            balance_margin: 150,
            balance_nodes: 5_000,
            random_plies: 10,
            random_permille: 100,
            random_top: 0,
            hash_bytes: 8 << 20,
            network: None,
        }
    }
}

impl SelfPlayOptions {
    /// Quick 9x9 games at `nodes` a move with a 1 MiB table, for tests and smoke runs.
    pub fn tiny(nodes: u64) -> SelfPlayOptions {
        SelfPlayOptions {
            width: 9,
            height: 9,
            nodes,
            balance_nodes: 100,
            balance_margin: 400,
            hash_bytes: 1 << 20,
            ..SelfPlayOptions::default()
        }
    }
}

/// The random stream of game `index` of the campaign `seed`.
fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    SplitMix64::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The opening stones of game `index` of the campaign `seed` (black first), as
/// `play_game` starts it: fresh balanced openings for matches.
pub fn opening(
    searcher: &mut Searcher,
    opts: &SelfPlayOptions,
    seed: u64,
    index: u64,
) -> Vec<Move> {
    searcher.clear();
    balanced_opening(searcher, opts, &mut game_rng(seed, index)).1
}

/// Plays game `index` of the campaign `seed` with `searcher` (cleared first).
pub fn play_game(
    searcher: &mut Searcher,
    opts: &SelfPlayOptions,
    seed: u64,
    index: u64,
) -> GameRecord {
    let mut rng = game_rng(seed, index);
    searcher.clear();
    let (mut board, opening) = balanced_opening(searcher, opts, &mut rng);
    let mut plies: Vec<Ply> = opening
        .iter()
        .map(|&m| Ply::unlabelled(square(opts, m)))
        .collect();
    let mut outcome = Outcome::Draw;
    while board.empty_count() > 0 {
        let result = search(searcher, &board, opts.nodes);
        let after_opening = plies.len() - opening.len();
        let random =
            after_opening < opts.random_plies && rng.below(1000) < opts.random_permille as u64;
        let stray = || match opts.random_top {
            0 => random_near(&board, &mut rng),
            k => random_sibling(&board, result.best, k, &mut rng),
        };
        let mv = match random.then(stray).flatten() {
            Some(m) => m,
            None => result.best,
        };
        plies.push(Ply {
            mv: square(opts, mv),
            best: square(opts, result.best),
            score: result.score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
        });
        board.make(mv);
        if let Some(winner) = board.last_move_wins() {
            outcome = match winner {
                Color::Black => Outcome::BlackWon,
                Color::White => Outcome::WhiteWon,
            };
            break;
        }
    }
    GameRecord {
        rule: opts.rule.bits() as u8,
        width: opts.width as u8,
        height: opts.height as u8,
        outcome,
        opening: opening.len() as u8,
        plies,
    }
}

fn search(searcher: &mut Searcher, board: &Board, nodes: u64) -> crate::search::SearchResult {
    let limits = Limits {
        clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
        max_depth: None,
        max_nodes: Some(nodes),
    };
    searcher.search(board, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn square(opts: &SelfPlayOptions, m: Move) -> u16 {
    (m.y() * opts.width + m.x()) as u16
}

/// Random stones near the centre, alternating colours, until a short search scores the
/// position within the margin for the side to move (at most 100 tries; then the last).
fn balanced_opening(
    searcher: &mut Searcher,
    opts: &SelfPlayOptions,
    rng: &mut SplitMix64,
) -> (Board, Vec<Move>) {
    let (lo, hi) = opts.opening_stones;
    let (cx, cy) = (opts.width / 2, opts.height / 2);
    let r = opts.opening_radius.min(cx).min(cy);
    let mut last = None;
    for _ in 0..100 {
        let count = lo + rng.below((hi - lo + 1) as u64) as usize;
        let mut board = Board::new(opts.width, opts.height, opts.rule);
        let mut stones = Vec::new();
        while stones.len() < count {
            let x = cx - r + rng.below(2 * r as u64 + 1) as usize;
            let y = cy - r + rng.below(2 * r as u64 + 1) as usize;
            let m = Move::from_xy(x, y);
            if board.is_empty(m) && !board.is_forbidden(m) {
                board.make(m);
                stones.push(m);
            }
        }
        let quiet = board.last_move_wins().is_none();
        if quiet && search(searcher, &board, opts.balance_nodes).score.abs() <= opts.balance_margin
        {
            searcher.clear();
            return (board, stones);
        }
        last = Some((board, stones));
    }
    searcher.clear();
    last.unwrap_or_else(|| (Board::new(opts.width, opts.height, opts.rule), Vec::new()))
}

/// A random empty square next to a stone (not forbidden), if any.
fn random_near(board: &Board, rng: &mut SplitMix64) -> Option<Move> {
    let stones: Vec<Move> = board.history().to_vec();
    let near: Vec<Move> = board
        .empty_squares()
        .filter(|&m| stones.iter().any(|&s| s.distance(m) == 1))
        .filter(|&m| !board.is_forbidden(m))
        .collect();
    (!near.is_empty()).then(|| near[rng.below(near.len() as u64) as usize])
}

/// One of the `k` first candidates of the static ordering other than `best`, if any.
fn random_sibling(board: &Board, best: Move, k: usize, rng: &mut SplitMix64) -> Option<Move> {
    let others: Vec<Move> = crate::search::probe::ordered_candidates(board, k + 1)
        .into_iter()
        .filter(|&m| m != best)
        .take(k)
        .collect();
    (!others.is_empty()).then(|| others[rng.below(others.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_legal_labelled_and_repeats_from_its_seed() {
        let opts = SelfPlayOptions::tiny(300);
        let mut s = Searcher::new(opts.hash_bytes);
        let g = play_game(&mut s, &opts, 42, 3);
        g.validate().unwrap();
        assert!(g.opening >= 2 && g.opening <= 6, "{}", g.opening);
        let labelled = &g.plies[g.opening as usize..];
        assert!(!labelled.is_empty());
        assert!(labelled
            .iter()
            .all(|p| p.is_labelled() && p.best != super::super::format::NO_MOVE));
        // Replayed, the game ends as recorded: a five by the last mover, or a full board.
        let mut board = Board::new(9, 9, Rule::Freestyle);
        for p in &g.plies {
            let (x, y) = g.xy(p.mv);
            board.make(Move::from_xy(x, y));
        }
        match g.outcome {
            Outcome::Draw => assert_eq!(board.empty_count(), 0),
            _ => assert!(board.last_move_wins().is_some()),
        }
        let mut fresh = Searcher::new(opts.hash_bytes);
        assert_eq!(play_game(&mut fresh, &opts, 42, 3), g);
        assert_ne!(play_game(&mut fresh, &opts, 42, 4), g);
        // The opening alone is the game's opening.
        let stones = opening(&mut fresh, &opts, 42, 3);
        let squares: Vec<u16> = stones.iter().map(|&m| square(&opts, m)).collect();
        let recorded: Vec<u16> = g.plies[..g.opening as usize].iter().map(|p| p.mv).collect();
        assert_eq!(squares, recorded);
    }

    /// Straying onto siblings all game long: every ply after the opening that is not the
    /// search's move is one of the static ordering's first candidates in its position.
    #[test]
    fn stray_plies_are_siblings_of_the_searched_move() {
        let opts = SelfPlayOptions {
            random_plies: 1_000,
            random_permille: 500,
            random_top: 3,
            ..SelfPlayOptions::tiny(200)
        };
        let mut s = Searcher::new(opts.hash_bytes);
        let (mut strays, mut plies) = (0, 0);
        for index in 0..3 {
            let g = play_game(&mut s, &opts, 7, index);
            g.validate().unwrap();
            let mut board = Board::new(9, 9, Rule::Freestyle);
            for (i, p) in g.plies.iter().enumerate() {
                let m = Move::from_xy(g.xy(p.mv).0, g.xy(p.mv).1);
                if i >= g.opening as usize {
                    plies += 1;
                    if p.mv != p.best {
                        strays += 1;
                        let first = crate::search::probe::ordered_candidates(&board, 4);
                        assert!(first.contains(&m), "ply {i} of game {index}");
                    }
                }
                board.make(m);
            }
        }
        // About half the plies stray (less where the ordering offers the best move alone).
        assert!(strays * 5 > plies && strays < plies, "{strays} of {plies}");
    }
}
