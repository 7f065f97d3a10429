//! fivefold-data: training data for Fivefold's network.
//!
//! `fivefold-data gen --games 1000 --seed 7 --shard 0 --shards 4 --out shard0.ffd` plays
//! one shard of a self-play campaign (the shards concatenate: `cat shard*.ffd`);
//! `import` turns arena game lines into records, `relabel` searches every ply again at a
//! higher node count, `merge` checks and joins files, `stats` summarises them.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use fivefold::data::external::EngineLabeller;
use fivefold::data::format::{parse_games, write_game, write_header, GameRecord, Outcome};
use fivefold::data::{import, play_shard, SelfPlayOptions};
use fivefold::game::Rule;
use fivefold::search::Searcher;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod probe;

#[derive(Parser, Debug)]
#[command(
    name = "fivefold-data",
    version,
    about = "Training data for Fivefold's network"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Plays one shard of a self-play campaign and writes it
    Gen(GenArgs),
    /// Arena games.txt lines (finished games only) to a data file, unlabelled
    Import {
        /// Board size of the games
        #[arg(long)]
        size: usize,
        /// INFO rule the games were played under
        #[arg(long, default_value_t = 0)]
        rule: i64,
        #[arg(long)]
        out: PathBuf,
        games: Vec<PathBuf>,
    },
    /// Searches every ply after the opening again and stores the new best move and score
    Relabel(RelabelArgs),
    /// Checks data files and joins them into one (one header); with `--shard K --shards
    /// N`, only the block of games `relabel --shard K --shards N` would relabel (the same
    /// games with their old labels, a relabelling trial's control)
    Merge {
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 0)]
        shard: u64,
        #[arg(long, default_value_t = 1)]
        shards: u64,
        inputs: Vec<PathBuf>,
    },
    /// Games, positions, results and labels of data files
    Stats { inputs: Vec<PathBuf> },
    /// Fresh balanced openings for a match (the self-play games' openings of a new seed):
    /// one line of black-first `x,y` moves each
    Openings {
        #[arg(long)]
        count: u64,
        #[arg(long)]
        seed: u64,
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// INFO rule (0 freestyle, 1 standard, 4 renju)
        #[arg(long, default_value_t = 0)]
        rule: i64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Where the labelled best moves stand in the classical ordering and the network's
    /// policy, and how well each evaluation predicts the results (freestyle games)
    Probe {
        /// A quantised network file (default: the built-in one)
        #[arg(long)]
        net: Option<PathBuf>,
        inputs: Vec<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
struct GenArgs {
    /// Games in the whole campaign (all shards together)
    #[arg(long)]
    games: u64,
    /// The campaign's seed: game i depends only on it, i and the options
    #[arg(long)]
    seed: u64,
    /// This shard's number, 0 to shards-1 (a Slurm array index, a Kubernetes Job index)
    #[arg(long, default_value_t = 0)]
    shard: u64,
    #[arg(long, default_value_t = 1)]
    shards: u64,
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// INFO rule (0 freestyle, 1 standard, 4 renju)
    #[arg(long, default_value_t = 0)]
    rule: i64,
    /// Nodes a move
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Probability (in 1/1000) of a random square next to a stone in the first plies
    #[arg(long, default_value_t = 100)]
    random_permille: u32,
    /// How many plies after the opening may be random
    #[arg(long, default_value_t = 10)]
    random_plies: usize,
    /// A random ply is one of this many first candidates of the static move ordering
    /// other than the search's move (0: any square next to a stone)
    #[arg(long, default_value_t = 0)]
    random_top: usize,
    #[command(flatten)]
    network: NetworkArgs,
    #[arg(long)]
    out: PathBuf,
}

/// The network a tool's searches use, if any.
#[derive(clap::Args, Debug)]
struct NetworkArgs {
    /// Search with the built-in network (its value and policy beside the classical
    /// evaluation, as `pbrain-fivefold --nn`; freestyle only)
    #[arg(long)]
    nn: bool,
    /// Search with this network file (`fivefold-train` output) instead
    #[arg(long)]
    nn_file: Option<PathBuf>,
}

impl NetworkArgs {
    fn model(&self) -> Result<Option<&'static fivefold::eval::nn::QuantModel>> {
        if !self.nn && self.nn_file.is_none() {
            return Ok(None);
        }
        fivefold::eval::nn::incremental::file_or_builtin(self.nn_file.as_deref())
            .map(Some)
            .map_err(anyhow::Error::msg)
    }
}

/// `--shard K --shards N` must name one of N shards.
fn check_shard(shard: u64, shards: u64) -> Result<()> {
    if shards == 0 || shard >= shards {
        bail!("--shard {shard} is not below --shards {shards}");
    }
    Ok(())
}

/// `relabel`: a stronger teacher for games already played. A campaign's file splits into
/// `--shards` blocks of consecutive games, so a cluster relabels it as an array of
/// independent tasks and their files, concatenated in shard order, hold the games in the
/// input's order (which keeps the trainer's validation split).
#[derive(clap::Args, Debug)]
struct RelabelArgs {
    /// Nodes a search
    #[arg(long, default_value_t = 200_000)]
    nodes: u64,
    /// This task's block of the input's games, from 0
    #[arg(long, default_value_t = 0)]
    shard: u64,
    #[arg(long, default_value_t = 1)]
    shards: u64,
    #[command(flatten)]
    network: NetworkArgs,
    /// Label with this Gomocup brain (a command line) at `--nodes` (`INFO max_node`)
    /// instead of our own search: its move and the evaluation of its last `MESSAGE ...
    /// Eval X` line
    #[arg(long)]
    engine: Option<String>,
    /// The engine's evaluation units in ours (default 1.6: Rapfi's classical model's win
    /// rate is sigmoid(eval / 250), ours sigmoid(score / 400), as docs/tuning.md says)
    #[arg(long, default_value_t = 1.6)]
    engine_scale: f64,
    #[arg(long)]
    out: PathBuf,
    /// Data files, read as one campaign in this order
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

fn main() -> Result<()> {
    env_logger::init();
    match Cli::parse().command {
        Cmd::Gen(a) => gen(a),
        Cmd::Import {
            size,
            rule,
            out,
            games,
        } => import_games(size, Rule::from_bits(rule), &out, &games),
        Cmd::Relabel(a) => relabel(a),
        Cmd::Merge {
            out,
            shard,
            shards,
            inputs,
        } => {
            check_shard(shard, shards)?;
            let games = load_all(&inputs)?;
            let (from, to) = shard_block(games.len(), shard, shards);
            write_all(&out, &games[from..to])?;
            eprintln!("{} games to {}", to - from, out.display());
            Ok(())
        }
        Cmd::Stats { inputs } => {
            println!("{}", stats(&load_all(&inputs)?));
            Ok(())
        }
        Cmd::Openings {
            count,
            seed,
            size,
            rule,
            out,
        } => openings(count, seed, size, Rule::from_bits(rule), &out),
        Cmd::Probe { net, inputs } => {
            let model = fivefold::eval::nn::incremental::file_or_builtin(net.as_deref())
                .map_err(anyhow::Error::msg)?;
            print!("{}", probe::report(&load_all(&inputs)?, model));
            Ok(())
        }
    }
}

fn openings(count: u64, seed: u64, size: usize, rule: Rule, out: &Path) -> Result<()> {
    if !(5..=fivefold::game::MAX_SIZE).contains(&size) {
        bail!("--size must be 5 to {}", fivefold::game::MAX_SIZE);
    }
    let opts = SelfPlayOptions {
        width: size,
        height: size,
        rule,
        ..SelfPlayOptions::default()
    };
    let mut searcher = Searcher::new(opts.hash_bytes);
    let mut text = format!(
        "# {count} balanced openings, fivefold-data openings --seed {seed} --size {size} --rule {}\n",
        rule.bits()
    );
    for i in 0..count {
        let stones = fivefold::data::opening(&mut searcher, &opts, seed, i);
        let line: Vec<String> = stones
            .iter()
            .map(|m| format!("{},{}", m.x(), m.y()))
            .collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))
}

fn gen(a: GenArgs) -> Result<()> {
    check_shard(a.shard, a.shards)?;
    if !fivefold::game::Board::is_valid_size(a.size, a.size) {
        bail!("board size {} is not supported", a.size);
    }
    let opts = SelfPlayOptions {
        width: a.size,
        height: a.size,
        rule: Rule::from_bits(a.rule),
        nodes: a.nodes,
        random_permille: a.random_permille,
        random_plies: a.random_plies,
        random_top: a.random_top,
        network: a.network.model()?,
        ..SelfPlayOptions::default()
    };
    let mut out = BufWriter::new(create(&a.out)?);
    let started = Instant::now();
    let mut done = 0u64;
    let plies = play_shard(
        &opts,
        a.seed,
        a.games,
        a.shard,
        a.shards,
        &mut out,
        &mut |g| {
            done += 1;
            if done.is_multiple_of(10) {
                eprintln!("{done} games, last {} plies", g.plies.len());
            }
        },
    )?;
    out.flush()?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "shard {}/{}: {done} games, {plies} positions in {secs:.0} s, {:.1} positions/s on one core",
        a.shard,
        a.shards,
        plies as f64 / secs
    );
    Ok(())
}

fn import_games(size: usize, rule: Rule, out: &Path, files: &[PathBuf]) -> Result<()> {
    let mut games = Vec::new();
    let mut skipped = 0;
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| l.starts_with('#')) {
            match import::arena_line(line, size, rule) {
                Ok(Some(g)) => games.push(g),
                Ok(None) => skipped += 1,
                Err(e) => bail!("{}:{}: {e}", f.display(), n + 1),
            }
        }
    }
    write_all(out, &games)?;
    eprintln!(
        "{} games imported, {skipped} not finished on the board",
        games.len()
    );
    Ok(())
}

fn relabel(a: RelabelArgs) -> Result<()> {
    check_shard(a.shard, a.shards)?;
    let mut searcher = Searcher::new(16 << 20);
    searcher.set_network(a.network.model()?);
    let mut games = load_all(&a.inputs)?;
    let (from, to) = shard_block(games.len(), a.shard, a.shards);
    let block = &mut games[from..to];
    let started = Instant::now();
    let mut engine = match &a.engine {
        Some(cmd) => Some(EngineLabeller::spawn(cmd, a.nodes, a.engine_scale)?),
        None => None,
    };
    for (i, g) in block.iter_mut().enumerate() {
        match &mut engine {
            Some(e) => e
                .relabel(g)
                .with_context(|| format!("game {} of the block", i + 1))?,
            None => import::relabel(g, &mut searcher, a.nodes),
        }
        if (i + 1).is_multiple_of(10) {
            eprintln!(
                "{} of {} games relabelled, {:.0} s",
                i + 1,
                to - from,
                started.elapsed().as_secs_f64()
            );
        }
    }
    if let Some(e) = &engine {
        eprintln!(
            "{} plies labelled by the engine, {} kept their labels (played without an evaluation)",
            e.labelled, e.kept
        );
    }
    write_all(&a.out, block)
}

/// Games `[from, to)` of `n` for block `shard` of `shards`: consecutive, sizes within one.
fn shard_block(n: usize, shard: u64, shards: u64) -> (usize, usize) {
    let at = |k: u64| (n as u128 * k as u128 / shards as u128) as usize;
    (at(shard), at(shard + 1))
}

fn create(path: &Path) -> Result<File> {
    File::create(path).with_context(|| format!("cannot create {}", path.display()))
}

fn load_all(inputs: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut games = Vec::new();
    for f in inputs {
        let bytes = std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
        let mut g = parse_games(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        games.append(&mut g);
    }
    Ok(games)
}

fn write_all(path: &Path, games: &[GameRecord]) -> Result<()> {
    let mut out = BufWriter::new(create(path)?);
    write_header(&mut out)?;
    for g in games {
        write_game(&mut out, g)?;
    }
    out.flush()?;
    Ok(())
}

fn stats(games: &[GameRecord]) -> String {
    let count = |o| games.iter().filter(|g| g.outcome == o).count();
    let plies: usize = games.iter().map(|g| g.plies.len()).sum();
    let labelled: usize = games
        .iter()
        .map(|g| g.plies.iter().filter(|p| p.is_labelled()).count())
        .sum();
    let played_best: usize = games
        .iter()
        .map(|g| {
            g.plies
                .iter()
                .filter(|p| p.is_labelled() && p.best == p.mv)
                .count()
        })
        .sum();
    format!(
        "games {}\nblack won {}\nwhite won {}\ndraws {}\npositions {plies}\nlabelled {labelled}\nplayed the best move {played_best}\nmean plies a game {:.1}",
        games.len(),
        count(Outcome::BlackWon),
        count(Outcome::WhiteWon),
        count(Outcome::Draw),
        plies as f64 / games.len().max(1) as f64
    )
}

#[cfg(test)]
mod tests {
    use super::shard_block;

    #[test]
    fn relabel_blocks_cover_the_games_in_order() {
        for (n, shards) in [(10, 3), (2, 5), (0, 2), (7, 1), (200, 200)] {
            let blocks: Vec<_> = (0..shards).map(|k| shard_block(n, k, shards)).collect();
            assert_eq!(blocks[0].0, 0);
            assert_eq!(blocks[shards as usize - 1].1, n);
            for w in blocks.windows(2) {
                assert_eq!(w[0].1, w[1].0, "{n} {shards}");
            }
            let sizes: Vec<_> = blocks.iter().map(|(a, b)| b - a).collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "{n} {shards}: {sizes:?}");
        }
    }
}
