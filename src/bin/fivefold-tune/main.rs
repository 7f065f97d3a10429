//! fivefold-tune: fits the evaluation weights to game results (Texel method).
//!
//! `fivefold-tune 15:games15.txt 20:games20.txt --out src/eval/weights/freestyle.txt`
//! (freestyle), `fivefold-tune --rule 1 15:standard15.txt --out src/eval/weights/standard.txt`
//! (standard), `fivefold-tune --rule 4 15:renju15.txt --out renju_black.txt --out-white
//! renju_white.txt` (renju: a weight set per colour, fitted together) replays arena games, keeps the quiet positions after the opening, labels each with the
//! result for the side to move, fits K for the starting weights, then the weights with K
//! fixed, and reports the loss on the training games and on held-out games. With
//! `--states` it then fits the threat-state table (`Evaluator::state_index`) cell by cell
//! on top of the fitted weights; without it the starting weights' table is kept, and it
//! counts as a fixed part of each position's evaluation while the weights are fitted.

mod fit;
mod games;
mod label;
mod policy;

use anyhow::{bail, Context, Result};
use clap::Parser;
use fit::{Data, FitOptions};
use fivefold::eval::weights::{pattern_feature, threat_feature, FEATURES, MOVER, WAITER};
use fivefold::eval::{Weights, COMBINATIONS, PATTERN_COUNT, STATES, THREAT_COUNT};
use fivefold::game::{Color, Rule};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

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
    /// Starting weights file (default: the engine's compiled-in weights for --rule); under
    /// renju, both colours start from it unless --start-white is given
    #[arg(long)]
    start: Option<PathBuf>,
    /// Renju: White's starting weights file
    #[arg(long)]
    start_white: Option<PathBuf>,
    /// Write the fitted weights here (renju: Black's)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Renju: write White's fitted weights here (required with --out)
    #[arg(long)]
    out_white: Option<PathBuf>,
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
    /// Then fit the threat-state table (else the starting weights' table is kept)
    #[arg(long)]
    states: bool,
    /// Threat states: the prior, in positions at an even result, pulling each value to 0
    #[arg(long, default_value_t = 200.0)]
    state_prior: f64,
    /// Then fit the pattern-combination corrections (`Weights::combo`); else the starting
    /// weights' are kept, as a fixed part of each position's evaluation
    #[arg(long)]
    combos: bool,
    /// Combinations: the prior, in positions at an even result, pulling each to 0
    #[arg(long, default_value_t = 50.0)]
    combo_prior: f64,
    /// Combinations: only those seen in this many training positions are fitted
    #[arg(long, default_value_t = 200)]
    combo_min: usize,
    /// Combinations: Adam iterations
    #[arg(long, default_value_t = 400)]
    combo_iterations: usize,
    /// Search labels: `FILE LINE PLY P` lines, P the side to move's expected score (from
    /// 0 to 1) by a search of the position after PLY moves of the game on line LINE of
    /// the game file named FILE. A labelled position's target becomes W times P plus
    /// (1 - W) times the result (W: --label-weight); unlabelled positions are left out
    #[arg(long)]
    labels: Option<PathBuf>,
    /// The label's share of a position's target
    #[arg(long, default_value_t = 1.0)]
    label_weight: f64,
    /// Write every --dump-every-th position as a `FILE LINE PLY SIZE x,y ...` line here
    /// (where it is, and the board size and moves for a brain) and stop; with --labels,
    /// leave out the positions already labelled
    #[arg(long)]
    dump_positions: Option<PathBuf>,
    /// See --dump-positions
    #[arg(long, default_value_t = 1)]
    dump_every: usize,
    /// With --dump-positions: label each position by this brain's search and write
    /// `FILE LINE PLY P` lines (--labels input) instead (see label.rs)
    #[arg(long)]
    label_with: Option<String>,
    /// Labelling: the brain's INFO max_node per position
    #[arg(long, default_value_t = 20_000)]
    label_nodes: u64,
    /// Labelling: the brain's evaluation units per unit of log-odds
    #[arg(long, default_value_t = 250.0)]
    label_scale: f64,
    /// Labelling: brains run at once
    #[arg(long, default_value_t = 1)]
    label_jobs: usize,
    /// Fit the move-ordering table (`Weights::policy`) to the moves of the players whose
    /// names (the games' black= / white=) start with one of these comma-separated
    /// prefixes, keeping the starting weights' evaluation (see policy.rs)
    #[arg(long)]
    policy_from: Option<String>,
    /// Policy: Adam iterations
    #[arg(long, default_value_t = 300)]
    policy_iterations: usize,
    /// Policy: Adam step
    #[arg(long, default_value_t = 0.05)]
    policy_lr: f64,
    /// Policy: the prior, in positions, pulling each value to 0
    #[arg(long, default_value_t = 20.0)]
    policy_prior: f64,
    /// Policy: ordering units per unit of log-likelihood (default: the scale that gives
    /// the policy the spread of the shape values it replaces)
    #[arg(long)]
    policy_scale: Option<f64>,
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
    let layout = Layout::for_rule(rule);
    let start = start_weights(&cli, layout, rule)?;
    let compiled = [Color::Black, Color::White].map(|c| Weights::for_side(rule, c).clone());
    let w0 = layout.vector(&start);
    if let Some(from) = &cli.policy_from {
        return run_policy(&cli, rule, layout, from);
    }
    let labels = match &cli.labels {
        Some(p) => Some(read_labels(p)?),
        None => None,
    };
    let mut data = load_games(
        &cli,
        rule,
        layout,
        &start,
        start == compiled,
        labels.as_ref(),
    )?;
    if let Some(p) = &cli.dump_positions {
        return dump_positions(&cli, &data.dumped, p);
    }
    let (train, val) = (&data.train, &data.val);
    println!(
        "games: {} used ({} held out), {} skipped (not ended on the board)",
        data.games_used, data.val_games, data.games_skipped
    );
    println!("positions: {} train, {} validation", train.len(), val.len());
    if train.len() == 0 {
        bail!("no positions to fit");
    }

    let k = match cli.k {
        Some(k) => k,
        None => fit::fit_k(train, &w0),
    };
    println!("K = {k:.1}");
    let before = (fit::mse(train, &w0, k), fit::mse(val, &w0, k));
    println!(
        "loss before: train {:.6} validation {:.6}",
        before.0, before.1
    );
    let opts = FitOptions {
        k,
        iterations: cli.iterations,
        lr: cli.lr,
        l2: cli.l2,
        trainable: layout.trainable(),
    };
    let every = (cli.iterations / 10).max(1);
    let fitted = fit::fit(train, &w0, &opts, |it, w| {
        if it % every == 0 {
            println!(
                "  iteration {it}: train {:.6} validation {:.6}",
                fit::mse(train, w, k),
                fit::mse(val, w, k)
            );
        }
    });
    println!(
        "loss after (unrounded): train {:.6} validation {:.6}",
        fit::mse(train, &fitted, k),
        fit::mse(val, &fitted, k)
    );
    let fitted = fit::round_with_refit(train, &fitted, &opts, cli.refit_iterations);
    let mut weights = layout.weights(&fitted);
    let rounded = layout.vector(&weights);
    let mut after = (fit::mse(train, &rounded, k), fit::mse(val, &rounded, k));
    println!(
        "loss after (rounded weights): train {:.6} validation {:.6}",
        after.0, after.1
    );
    let sizes = (train.len(), val.len());
    let combos = if cli.combos {
        let opts = fit::ComboOptions {
            k,
            iterations: cli.combo_iterations,
            lr: 2.0,
            prior: cli.combo_prior,
            min_positions: cli.combo_min,
        };
        let c = fit::fit_combos(&data.train, &rounded, &layout.combos(&start), &opts);
        data.train.set_combo_offsets(&c);
        data.val.set_combo_offsets(&c);
        after = report_loss(&data, &rounded, k, "the pattern combinations", &c);
        c
    } else {
        layout.combos(&start)
    };
    layout.set_combos(&mut weights, &combos);
    let table = if cli.states {
        fit::fit_states(&data.train, &rounded, k, layout.cells(), cli.state_prior)
    } else {
        layout.states(&start)
    };
    layout.set_states(&mut weights, &table);
    if cli.states {
        data.train.set_offsets(&table);
        data.val.set_offsets(&table);
        after = report_loss(&data, &rounded, k, "the threat states", &table);
    }
    for set in 0..layout.sets {
        if layout.sets == 2 {
            println!("{}:", colour_name(set));
        }
        print_weights(&start[set], &weights[set]);
    }
    let summary = format!(
        "# {} train / {} validation positions from {} games; K = {k:.1}.\n\
         # MSE of sigmoid(eval / K) against the targets (results, or search labels): train {:.5} -> {:.5}, \
         validation {:.5} -> {:.5}.",
        sizes.0, sizes.1, data.games_used, before.0, after.0, before.1, after.1
    );
    write_weights(&cli, rule, layout, &weights, &summary)
}

/// Prints and returns the training and validation loss after fitting `values` (`what`).
fn report_loss(data: &Loaded, w: &[f64], k: f64, what: &str, values: &[f64]) -> (f64, f64) {
    let loss = (fit::mse(&data.train, w, k), fit::mse(&data.val, w, k));
    let used = values.iter().filter(|&&v| v != 0.0).count();
    println!(
        "loss after {what} ({used} not 0): train {:.6} validation {:.6}",
        loss.0, loss.1
    );
    loss
}

/// How the fitted weights sit in one vector: one set, or under a rule that weighs the
/// colours apart (`Weights::per_colour`) Black's set, then White's.
#[derive(Clone, Copy)]
struct Layout {
    sets: usize,
}

impl Layout {
    fn for_rule(rule: Rule) -> Layout {
        Layout {
            sets: if Weights::per_colour(rule) { 2 } else { 1 },
        }
    }

    /// A position's features in this layout: the colour blocks side by side, or summed
    /// (both colours use the one set).
    fn features(self, f: &[[i32; FEATURES]; 2]) -> Vec<i32> {
        if self.sets == 2 {
            f.concat()
        } else {
            f[0].iter().zip(&f[1]).map(|(a, b)| a + b).collect()
        }
    }

    /// The weights as one vector (Black's and White's sets are the same with one set).
    fn vector(self, w: &[Weights; 2]) -> Vec<f64> {
        w[..self.sets].iter().flat_map(|w| w.to_vector()).collect()
    }

    /// The inverse of `vector`, rounding: Black's and White's weights.
    fn weights(self, v: &[f64]) -> [Weights; 2] {
        let set = |i: usize| {
            let mut a = [0.0; FEATURES];
            a.copy_from_slice(&v[i * FEATURES..(i + 1) * FEATURES]);
            Weights::from_vector(&a)
        };
        [set(0), set(self.sets - 1)]
    }

    /// Threat-state cells: a table per weight set, the side to move's.
    fn cells(self) -> usize {
        self.sets * STATES
    }

    /// The cell of a position whose side to move is `side`, in threat state `state`.
    fn cell(self, side: Color, state: usize) -> usize {
        let set = if self.sets == 2 { side.idx() } else { 0 };
        set * STATES + state
    }

    /// The weight sets' threat-state tables, one after the other.
    fn states(self, w: &[Weights; 2]) -> Vec<f64> {
        w[..self.sets]
            .iter()
            .flat_map(|w| w.state.iter().map(|&v| v as f64))
            .collect()
    }

    /// The weight sets' combination corrections, one after the other, each by role.
    fn combos(self, w: &[Weights; 2]) -> Vec<f64> {
        w[..self.sets]
            .iter()
            .flat_map(|w| w.combo.iter().flatten().map(|&v| v as f64))
            .collect()
    }

    /// The inverse of `combos`.
    fn set_combos(self, w: &mut [Weights; 2], v: &[f64]) {
        for (i, w) in w.iter_mut().enumerate() {
            let set = i.min(self.sets - 1);
            for role in [MOVER, WAITER] {
                let at = (set * 2 + role) * COMBINATIONS;
                w.combo[role] = v[at..at + COMBINATIONS].iter().map(|&x| x as i16).collect();
            }
        }
    }

    /// `Evaluator::combo_features` of a position with `side` to move, as indices into
    /// `combos`: a role's combinations count in that colour's set (mover: `side`).
    fn combo_params(self, side: Color, f: &[(usize, i32)]) -> Vec<(usize, i32)> {
        f.iter()
            .map(|&(j, n)| {
                let colour = if j < COMBINATIONS { side } else { side.opp() };
                let set = if self.sets == 2 { colour.idx() } else { 0 };
                (set * 2 * COMBINATIONS + j, n)
            })
            .collect()
    }

    /// The inverse of `states`.
    fn set_states(self, w: &mut [Weights; 2], table: &[f64]) {
        for (i, w) in w.iter_mut().enumerate() {
            let set = i.min(self.sets - 1);
            let part = &table[set * STATES..(set + 1) * STATES];
            w.state = part.iter().map(|&v| v as i16).collect();
        }
    }

    /// Every weight but those of the Dead pattern and the None threat (stones count as
    /// Dead lines and no threat, worth 0). The Forbidden threat (renju Black only) may
    /// learn a correction to the values of the lines through a square Black cannot play.
    fn trainable(self) -> Vec<bool> {
        let mut t = vec![true; self.sets * FEATURES];
        for set in 0..self.sets {
            for role in [MOVER, WAITER] {
                t[set * FEATURES + pattern_feature(role, 0)] = false;
                t[set * FEATURES + threat_feature(role, 1)] = false;
            }
        }
        t
    }
}

fn colour_name(set: usize) -> &'static str {
    ["black", "white"][set]
}

fn read_weights(p: &Path) -> Result<Weights> {
    let text =
        std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
    Weights::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
}

/// Black's and White's starting weights: the files given, else the compiled-in ones.
fn start_weights(cli: &Cli, layout: Layout, rule: Rule) -> Result<[Weights; 2]> {
    if layout.sets == 1 && (cli.start_white.is_some() || cli.out_white.is_some()) {
        bail!("--start-white and --out-white are for renju (a weight set per colour)");
    }
    let black = match &cli.start {
        Some(p) => read_weights(p)?,
        None => Weights::for_side(rule, Color::Black).clone(),
    };
    let white = match (&cli.start_white, &cli.start) {
        (Some(p), _) => read_weights(p)?,
        (None, Some(_)) => black.clone(),
        (None, None) => Weights::for_side(rule, Color::White).clone(),
    };
    Ok([black, white])
}

/// Training and held-out positions, with game counts.
struct Loaded {
    train: Data,
    val: Data,
    games_used: usize,
    games_skipped: usize,
    val_games: usize,
    /// With --dump-positions: the positions to write (label key, position text).
    dumped: Vec<(String, String)>,
}

/// Writes the positions (label key and position text), or with --label-with their labels.
fn dump_positions(cli: &Cli, dumped: &[(String, String)], p: &Path) -> Result<()> {
    let mut text = String::new();
    match &cli.label_with {
        None => dumped
            .iter()
            .for_each(|(key, pos)| text += &format!("{key} {pos}\n")),
        Some(engine) => {
            let opts = label::LabelOptions {
                engine: engine.clone(),
                nodes: cli.label_nodes,
                scale: cli.label_scale,
                jobs: cli.label_jobs,
            };
            let positions: Vec<String> = dumped.iter().map(|(_, pos)| pos.clone()).collect();
            let labels = label::label_all(&positions, &opts)?;
            for ((key, _), l) in dumped.iter().zip(labels) {
                if let Some(l) = l {
                    text += &format!("{key} {l:.4}\n");
                }
            }
        }
    }
    std::fs::write(p, &text).with_context(|| format!("cannot write {}", p.display()))?;
    println!("{} lines written to {}", text.lines().count(), p.display());
    Ok(())
}

/// Reads search labels (see `games::parse_labels`).
fn read_labels(p: &Path) -> Result<HashMap<String, f64>> {
    let text =
        std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
    games::parse_labels(&text).with_context(|| format!("in {}", p.display()))
}

/// Fits the policy table to the moves of the players named by `from`, and reports how
/// well the search's ordering before and after predicts them on the held-out games.
fn run_policy(cli: &Cli, rule: Rule, layout: Layout, from: &str) -> Result<()> {
    let prefixes: Vec<&str> = from.split(',').filter(|p| !p.is_empty()).collect();
    let teaches = |name: &str| prefixes.iter().any(|p| name.starts_with(p));
    let (mut train, mut val) = (policy::PolicyData::default(), policy::PolicyData::default());
    for spec in &cli.games {
        let (size, path) = split_spec(spec)?;
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        for (n, line) in text.lines().enumerate() {
            let where_ = || format!("{path}:{}", n + 1);
            let (black, white) = games::players(line);
            let teacher = [teaches(black), teaches(white)];
            if line.trim().is_empty() || teacher == [false, false] {
                continue;
            }
            let Some(game) = games::parse_line(line, size).with_context(where_)? else {
                continue;
            };
            let held_out = match game.opening {
                Some((i, _)) => i % cli.holdout == cli.holdout - 1,
                None => n % cli.holdout == cli.holdout - 1,
            };
            let first = game.opening.map_or(0, |(_, k)| k) + cli.skip;
            let set = if held_out { &mut val } else { &mut train };
            set.add_game(&game, rule, first, teacher);
        }
    }
    println!(
        "policy positions: {} train, {} validation",
        train.positions(),
        val.positions()
    );
    let mut p = policy::zero();
    let every = (cli.policy_iterations / 10).max(1);
    policy::fit(
        &train,
        &mut p,
        cli.policy_iterations,
        cli.policy_lr,
        cli.policy_prior,
        |it, p| {
            if it % every == 0 {
                println!(
                    "  iteration {it}: train {:.4} validation {:.4}",
                    policy::loss(&train, p),
                    policy::loss(&val, p)
                );
            }
        },
    );
    let (a, b, c) = policy::accuracy(&val, |j| policy::old_order(&val, j));
    println!("ordering before: top1 {a:.3} top3 {b:.3} mean rank {c:.2}");
    let (a, b, c) = policy::accuracy(&val, |j| policy::new_order(&val, &p, j, 0.0, 1.0));
    println!("policy alone: top1 {a:.3} top3 {b:.3} mean rank {c:.2}");
    println!("distance terms: {:?} / {:?}", p[2], p[3]);
    let [all, chosen] = policy::percentiles(&val, &p);
    println!("policy percentiles 10/25/50/75/90: all {all:.2?}, chosen {chosen:.2?}");
    let scale = cli
        .policy_scale
        .unwrap_or_else(|| policy::matching_scale(&train, &p));
    let (a, b, c) = policy::accuracy(&val, |j| policy::new_order(&val, &p, j, 1000.0, scale));
    println!("search ordering with it (x{scale:.0}): top1 {a:.3} top3 {b:.3} mean rank {c:.2}");
    if layout.sets != 1 {
        bail!("--policy-from fits one weight set (not renju's pair yet)");
    }
    let [mut w, _] = start_weights(cli, layout, rule)?;
    let round = |x: f64| (x * scale).round() as i16;
    w.policy = [0, 1].map(|r| p[r].iter().map(|&x| round(x)).collect());
    w.policy_near = [2, 3].map(|r| std::array::from_fn(|b| round(p[r][b])));
    let Some(out) = &cli.out else {
        return Ok(());
    };
    // The evaluation is the starting weights': keep the header that says how it was made.
    let start_text = match &cli.start {
        Some(path) => std::fs::read_to_string(path)?,
        None => Weights::compiled_text(rule, Color::Black).to_string(),
    };
    let start_header: Vec<&str> = start_text
        .lines()
        .take_while(|l| l.starts_with('#') && !l.starts_with("# pattern order"))
        .filter(|l| !l.starts_with("# move ordering:"))
        .collect();
    let command: Vec<String> = std::env::args().skip(1).collect();
    let header = format!(
        "# move ordering: the policy and policy_near lines, fitted by\n\
         # move ordering: fivefold-tune {}\n\
         # move ordering: {} positions of {from}; validation top1 {a:.3} top3 {b:.3}, scale {scale:.0}\n{}",
        command.join(" "),
        train.positions(),
        start_header.join("\n"),
    );
    std::fs::write(out, w.to_text(&header))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// `SIZE:PATH` of a game file.
fn split_spec(spec: &str) -> Result<(usize, &str)> {
    let (size, path) = spec
        .split_once(':')
        .with_context(|| format!("'{spec}': give games as SIZE:PATH"))?;
    let size: usize = size
        .parse()
        .with_context(|| format!("bad size in '{spec}'"))?;
    if !fivefold::game::Board::is_valid_size(size, size) {
        bail!("bad board size {size}");
    }
    Ok((size, path))
}

/// Replays the game files into positions, each with the starting weights' threat-state
/// value as its offset. With `check` (the starting weights are the compiled-in ones),
/// checks that features · weights plus the offset is the engine's evaluation.
fn load_games(
    cli: &Cli,
    rule: Rule,
    layout: Layout,
    start: &[Weights; 2],
    check: bool,
    labels: Option<&HashMap<String, f64>>,
) -> Result<Loaded> {
    let w0 = layout.vector(start);
    let table = layout.states(start);
    let combos = layout.combos(start);
    let with_combos = cli.combos || combos.iter().any(|&v| v != 0.0);
    let dim = layout.sets * FEATURES;
    let mut d = Loaded {
        train: Data::new(dim),
        val: Data::new(dim),
        games_used: 0,
        games_skipped: 0,
        val_games: 0,
        dumped: Vec::new(),
    };
    let mut seen = 0usize;
    for spec in &cli.games {
        let (size, path) = split_spec(spec)?;
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let where_ = || format!("{path}:{}", n + 1);
            let Some(game) = games::parse_line(line, size).with_context(where_)? else {
                d.games_skipped += 1;
                continue;
            };
            let opening_len = game.opening.map_or(0, |(_, k)| k);
            let held_out = match game.opening {
                Some((i, _)) => i % cli.holdout == cli.holdout - 1,
                None => n % cli.holdout == cli.holdout - 1,
            };
            let samples = games::samples(&game, rule, opening_len + cli.skip, cli.facing_threes)
                .with_context(where_)?;
            d.games_used += 1;
            d.val_games += held_out as usize;
            for s in samples {
                if cli.dump_positions.is_some() {
                    let key = games::label_key(path, n + 1, s.ply);
                    let labelled = labels.is_some_and(|map| map.contains_key(&key));
                    if seen.is_multiple_of(cli.dump_every.max(1)) && !labelled {
                        d.dumped
                            .push((key, games::position_text(size, &game.moves[..s.ply])));
                    }
                    seen += 1;
                    continue;
                }
                let score = match labels {
                    None => s.score,
                    Some(map) => match map.get(&games::label_key(path, n + 1, s.ply)) {
                        Some(p) => cli.label_weight * p + (1.0 - cli.label_weight) * s.score,
                        None => continue,
                    },
                };
                let x = layout.features(&s.features);
                let cell = layout.cell(s.side, s.state);
                let params = layout.combo_params(s.side, &s.combos);
                if check {
                    let dot: f64 = x.iter().zip(&w0).map(|(&x, w)| x as f64 * w).sum();
                    let c: f64 = params.iter().map(|&(j, n)| n as f64 * combos[j]).sum();
                    if dot + table[cell] + c != s.engine_eval as f64 {
                        bail!(
                            "{}: features give {dot}, engine {}",
                            where_(),
                            s.engine_eval
                        );
                    }
                }
                let set = if held_out { &mut d.val } else { &mut d.train };
                set.push(&x, score, table[cell], cell);
                if with_combos {
                    set.push_combos(&params, &combos);
                }
            }
        }
    }
    Ok(d)
}

/// Writes the fitted weights with a header naming the command and the fit's numbers:
/// `--out` (renju: Black's), `--out-white` (renju: White's).
fn write_weights(
    cli: &Cli,
    rule: Rule,
    layout: Layout,
    weights: &[Weights; 2],
    summary: &str,
) -> Result<()> {
    let outs: Vec<&PathBuf> = [&cli.out, &cli.out_white].into_iter().flatten().collect();
    if outs.is_empty() {
        return Ok(());
    }
    if outs.len() != layout.sets {
        bail!("renju has a weight set per colour: give both --out and --out-white");
    }
    let command: Vec<String> = std::env::args().skip(1).collect();
    let rule_name = format!("{rule:?}").to_lowercase();
    for (set, out) in outs.into_iter().enumerate() {
        let whose = if layout.sets == 2 {
            format!("{rule_name}, {}", colour_name(set))
        } else {
            rule_name.clone()
        };
        let per_colour = if layout.sets == 2 {
            "\n# Renju weighs the colours apart: this colour's mover values, tempo and initiative\n\
             # count when it is to move, its waiter values when the other colour is."
        } else {
            ""
        };
        let header = format!(
            "# Fivefold evaluation weights for {whose} (rule {}), fitted by\n\
             # fivefold-tune {}\n\
             {summary}\n\
             # Per empty square and colour: the sum of its four line patterns' values plus the\n\
             # bonus of its combined threat. \"mover\" values count for the side to move,\n\
             # \"waiter\" values for the other side: evaluate = mover sum (us) - waiter sum\n\
             # (them) + tempo + initiative + threat state.{per_colour}",
            rule.bits(),
            command.join(" "),
        );
        std::fs::write(out, weights[set].to_text(&header))
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
