//! Training data for Fivefold's network: the file format (`format`), self-play games
//! labelled by the search (`selfplay`), arena games and relabelling (`import`), and campaigns split into deterministic shards
//! (`shard`). The `fivefold-data` tool is the command line over this module.

pub mod external;
pub mod format;
pub mod import;
pub mod rng;
pub mod selfplay;

pub use format::{read_games, write_game, write_header, GameRecord, Outcome, Ply};
pub use selfplay::{opening, play_game, SelfPlayOptions};

use crate::search::Searcher;
use std::io::Write;

/// The games of shard `shard` of `shards` in a campaign of `games` games: `shard`,
/// `shard + shards`, ... (so the shards together hold each game once).
pub fn shard_games(games: u64, shard: u64, shards: u64) -> impl Iterator<Item = u64> {
    (shard..games).step_by(shards.max(1) as usize)
}

/// Plays one shard and writes it as a data file; calls `progress` after each game.
/// Returns the number of positions written (plies, opening stones included).
pub fn play_shard(
    opts: &SelfPlayOptions,
    seed: u64,
    games: u64,
    shard: u64,
    shards: u64,
    out: &mut impl Write,
    progress: &mut dyn FnMut(&GameRecord),
) -> std::io::Result<u64> {
    let mut searcher = Searcher::new(opts.hash_bytes);
    searcher.set_network(opts.network);
    write_header(out)?;
    let mut plies = 0;
    for index in shard_games(games, shard, shards) {
        let g = play_game(&mut searcher, opts, seed, index);
        write_game(out, &g)?;
        plies += g.plies.len() as u64;
        progress(&g);
    }
    Ok(plies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_shards_hold_the_games_of_one_run() {
        let opts = SelfPlayOptions::tiny(200);
        let shard = |k, n| {
            let mut out = Vec::new();
            play_shard(&opts, 5, 5, k, n, &mut out, &mut |_| {}).unwrap();
            out
        };
        let mut merged = shard(0, 2);
        merged.extend(shard(1, 2));
        let mut from_shards = format::parse_games(&merged).unwrap();
        let whole = format::parse_games(&shard(0, 1)).unwrap();
        assert_eq!(whole.len(), 5);
        let key = |g: &GameRecord| g.plies.iter().map(|p| p.mv).collect::<Vec<_>>();
        from_shards.sort_by_key(key);
        let mut whole_sorted = whole.clone();
        whole_sorted.sort_by_key(key);
        assert_eq!(from_shards, whole_sorted);
    }

    #[test]
    fn a_network_shard_repeats_from_its_seed_and_differs_from_the_classical_one() {
        let classical = SelfPlayOptions::tiny(300);
        let with_nn = SelfPlayOptions {
            network: Some(crate::eval::nn::incremental::freestyle()),
            ..classical.clone()
        };
        let shard = |opts: &SelfPlayOptions| {
            let mut out = Vec::new();
            play_shard(opts, 11, 3, 0, 1, &mut out, &mut |_| {}).unwrap();
            out
        };
        let nn_games = shard(&with_nn);
        assert_eq!(nn_games, shard(&with_nn));
        assert_eq!(format::parse_games(&nn_games).unwrap().len(), 3);
        assert_ne!(nn_games, shard(&classical));
    }
}
