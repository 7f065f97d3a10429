//! fivefold-tune: fits the evaluation weights to game results (Texel method).
//!
//! `fivefold-tune 15:games15.txt 20:games20.txt --out src/eval/weights/freestyle.txt`
//! (freestyle), `fivefold-tune --rule 1 15:standard15.txt --out src/eval/weights/standard.txt`
//! replays arena games, keeps the quiet positions after the opening, labels each with the
//! result for the side to move, fits K for the starting weights, then the weights with K
//! fixed, and reports the loss on the training games and on held-out games.

mod fit;
mod games;

use anyhow::{bail, Context, Result};
use clap::Parser;
use fit::{Data, FitOptions};
use fivefold::eval::weights::{pattern_feature, threat_feature, FEATURES, MOVER, WAITER};
use fivefold::eval::{Weights, PATTERN_COUNT, THREAT_COUNT};
use fivefold::game::Rule;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fivefold-tune",
    version,
    about = "Fits evaluation weights to game results"
)]
struct Cli {
    /// Game files as SIZE:PATH (arena games.txt lines, played under --rule)
    #[arg(required = true)]
    games: Vec<String>,
    /// Gomocup INFO rule the games were played under: positions are replayed and
    /// evaluated under it (0 freestyle, 1 standard, 4 renju, 8/9 caro)
    #[arg(long, default_value_t = 0)]
    rule: i64,
    /// Starting weights file (default: the engine's compiled-in weights for --rule)
    #[arg(long)]
    start: Option<PathBuf>,
    /// Write the fitted weights here
    #[arg(long)]
    out: Option<PathBuf>,
    /// Plies after the opening's stones before positions are used
    #[arg(long, default_value_t = 2)]
    skip: usize,
    /// Also learn from positions where the side to move faces an open three
    #[arg(long)]
    facing_threes: bool,
    /// Hold out the games of every N-th opening (by suite index) for validation
    #[arg(long, default_value_t = 10)]
    holdout: usize,
    /// Full-batch Adam iterations
    #[arg(long, default_value_t = 3000)]
    iterations: usize,
    /// Adam step in evaluation units
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Pull towards the starting weights (0 = none)
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// Refit iterations after rounding each weight to an integer
    #[arg(long, default_value_t = 60)]
    refit_iterations: usize,
    /// Use this K instead of fitting it
    #[arg(long)]
    k: Option<f64>,
}

const PATTERN_NAMES: [&str; PATTERN_COUNT] = [
    "Dead", "Overline", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5",
];
const THREAT_NAMES: [&str; THREAT_COUNT] = [
    "Forbidden",
    "None",
    "Flex3",
    "Flex3Plus",
    "DoubleThree",
    "Four",
    "FourPlus",
    "FourThree",
    "FlexFour",
    "Five",
];

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("fivefold-tune: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    let rule = Rule::from_bits(cli.rule);
    let compiled = Weights::for_rule(rule);
    let start = match &cli.start {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            Weights::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?
        }
        None => compiled.clone(),
    };
    let check_engine = &start == compiled;
    let w0 = start.to_vector();

    let (mut train, mut val) = (Data::new(), Data::new());
    let (mut games_used, mut games_skipped, mut val_games) = (0, 0, 0);
    for spec in &cli.games {
        let (size, path) = spec
            .split_once(':')
            .with_context(|| format!("'{spec}': give games as SIZE:PATH"))?;
        let size: usize = size
            .parse()
            .with_context(|| format!("bad size in '{spec}'"))?;
        if !fivefold::game::Board::is_valid_size(size, size) {
            bail!("bad board size {size}");
        }
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let where_ = || format!("{path}:{}", n + 1);
            let Some(game) = games::parse_line(line, size).with_context(where_)? else {
                games_skipped += 1;
                continue;
            };
            let opening_len = game.opening.map_or(0, |(_, k)| k);
            let held_out = match game.opening {
                Some((i, _)) => i % cli.holdout == cli.holdout - 1,
                None => n % cli.holdout == cli.holdout - 1,
            };
            let samples = games::samples(&game, rule, opening_len + cli.skip, cli.facing_threes)
                .with_context(where_)?;
            games_used += 1;
            val_games += held_out as usize;
            for s in samples {
                if check_engine {
                    let dot: f64 = s.features.iter().zip(&w0).map(|(&x, w)| x as f64 * w).sum();
                    if dot != s.engine_eval as f64 {
                        bail!(
                            "{}: features give {dot}, engine {}",
                            where_(),
                            s.engine_eval
                        );
                    }
                }
                let set = if held_out { &mut val } else { &mut train };
                set.push(&s.features, s.score);
            }
        }
    }
    println!(
        "games: {games_used} used ({val_games} held out), {games_skipped} skipped (not ended on the board)"
    );
    println!("positions: {} train, {} validation", train.len(), val.len());
    if train.len() == 0 {
        bail!("no positions to fit");
    }

    let k = match cli.k {
        Some(k) => k,
        None => fit::fit_k(&train, &w0),
    };
    println!("K = {k:.1}");
    let before = (fit::mse(&train, &w0, k), fit::mse(&val, &w0, k));
    println!(
        "loss before: train {:.6} validation {:.6}",
        before.0, before.1
    );

    let mut trainable = [true; FEATURES];
    for role in [MOVER, WAITER] {
        trainable[pattern_feature(role, 0)] = false; // Dead: stones count as Dead lines
        trainable[threat_feature(role, 0)] = false; // Forbidden: renju only
        trainable[threat_feature(role, 1)] = false; // None
    }
    let opts = FitOptions {
        k,
        iterations: cli.iterations,
        lr: cli.lr,
        l2: cli.l2,
        trainable,
    };
    let every = (cli.iterations / 10).max(1);
    let fitted = fit::fit(&train, &w0, &opts, |it, w| {
        if it % every == 0 {
            println!(
                "  iteration {it}: train {:.6} validation {:.6}",
                fit::mse(&train, w, k),
                fit::mse(&val, w, k)
            );
        }
    });
    println!(
        "loss after (unrounded): train {:.6} validation {:.6}",
        fit::mse(&train, &fitted, k),
        fit::mse(&val, &fitted, k)
    );
    let fitted = fit::round_with_refit(&train, &fitted, &opts, cli.refit_iterations);
    let weights = Weights::from_vector(&fitted);
    let rounded = weights.to_vector();
    let after = (fit::mse(&train, &rounded, k), fit::mse(&val, &rounded, k));
    println!(
        "loss after (rounded weights): train {:.6} validation {:.6}",
        after.0, after.1
    );
    print_weights(&start, &weights);

    if let Some(out) = &cli.out {
        let command: Vec<String> = std::env::args().skip(1).collect();
        let header = format!(
            "# Fivefold evaluation weights for {} (rule {}), fitted by\n\
             # fivefold-tune {}\n\
             # {} train / {} validation positions from {games_used} games; K = {k:.1}.\n\
             # MSE of sigmoid(eval / K) against results: train {:.5} -> {:.5}, \
             validation {:.5} -> {:.5}.\n\
             # Per empty square and colour: the sum of its four line patterns' values plus the\n\
             # bonus of its combined threat. \"mover\" values count for the side to move,\n\
             # \"waiter\" values for the other side: evaluate = mover sum (us) - waiter sum\n\
             # (them) + tempo + initiative.",
            format!("{rule:?}").to_lowercase(),
            rule.bits(),
            command.join(" "),
            train.len(),
            val.len(),
            before.0,
            after.0,
            before.1,
            after.1
        );
        std::fs::write(out, weights.to_text(&header))
            .with_context(|| format!("cannot write {}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

fn print_weights(old: &Weights, new: &Weights) {
    println!("{:<24} {:>7} {:>7}", "weight", "start", "fitted");
    let row = |name: String, a: i32, b: i32| println!("{name:<24} {a:>7} {b:>7}");
    row("tempo".into(), old.tempo, new.tempo);
    row(
        "initiative_win".into(),
        old.initiative_win,
        new.initiative_win,
    );
    row(
        "initiative_threat".into(),
        old.initiative_threat,
        new.initiative_threat,
    );
    for (role, name) in [(MOVER, "mover"), (WAITER, "waiter")] {
        for (p, pn) in PATTERN_NAMES.iter().enumerate() {
            row(
                format!("{name} pattern {pn}"),
                old.pattern[role][p] as i32,
                new.pattern[role][p] as i32,
            );
        }
        for (t, tn) in THREAT_NAMES.iter().enumerate() {
            row(
                format!("{name} threat {tn}"),
                old.threat[role][t] as i32,
                new.threat[role][t] as i32,
            );
        }
    }
}
