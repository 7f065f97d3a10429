//! fivefold-arena: plays matches between two Gomocup/Piskvork brains over the real
//! protocol, adjudicates them, and reports score, Elo and (optionally) an SPRT verdict.
//!
//! `fivefold-arena "ENGINE A" "ENGINE B" -n 20 --openings suite.txt` — see `--help`.

mod game;
mod openings;
mod player;
mod record;
mod runner;
mod sprt;
mod stats;

use anyhow::{bail, Result};
use clap::Parser;
use fivefold::driver::split_command;
use fivefold::game::{Board, Rule};
use game::GameRules;
use player::{EngineSpec, Limits, Player, ReadError};
use runner::{MatchSetup, Summary};
use sprt::{SprtParams, Verdict};
use stats::{elo_estimate, EngineStats, Model};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Raised by Ctrl-C; workers then kill their engines and the match ends.
static STOP: AtomicBool = AtomicBool::new(false);

#[derive(Parser, Debug)]
#[command(
    name = "fivefold-arena",
    version,
    // Scripts pass defaults first; a user's later option wins instead of erroring.
    args_override_self = true,
    about = "Plays matches between two Gomocup/Piskvork brains (engine A vs engine B)",
    after_help = "Engine commands are split like a shell line: \"python3 brain.py --level easy\".\n\
                  Scores, Elo and SPRT are from engine A's point of view."
)]
// The field comments are clap's `--help` text, not Markdown: rustdoc may not read
// `<time>` as HTML or `[,alpha,beta]` as a link.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
struct Cli {
    /// Command line of engine A
    engine_a: String,
    /// Command line of engine B
    engine_b: String,
    /// Display name of engine A (default: from its command)
    #[arg(long)]
    name_a: Option<String>,
    /// Display name of engine B (default: from its command)
    #[arg(long)]
    name_b: Option<String>,
    /// Number of games (with --sprt: the most games before giving up; default 2, or 20000 with --sprt)
    #[arg(short = 'n', long)]
    games: Option<usize>,
    /// Board size (square)
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// INFO rule: 0 freestyle, 1 exact five, 4 renju, 8 caro, 9 caro exact five
    #[arg(long, default_value_t = 0)]
    rule: i64,
    /// Time per move in ms (INFO timeout_turn); 0 = none
    #[arg(long, default_value_t = 5000)]
    turn_ms: u64,
    /// Engine A's own time per move in ms, for time odds (default: --turn-ms)
    #[arg(long)]
    turn_ms_a: Option<u64>,
    /// Engine B's own time per move in ms, for time odds (default: --turn-ms)
    #[arg(long)]
    turn_ms_b: Option<u64>,
    /// Time per game in ms (INFO timeout_match, time_left counts down); 0 = none
    #[arg(long, default_value_t = 0)]
    match_ms: u64,
    /// Lateness forgiven before a move counts as a timeout, ms
    #[arg(long, default_value_t = 1000)]
    tolerance_ms: u64,
    /// INFO max_memory in bytes (0 = unlimited; Gomocup uses 367001600)
    #[arg(long, default_value_t = 367_001_600)]
    max_memory: u64,
    /// INFO thread_num sent to both engines
    #[arg(long)]
    threads: Option<u32>,
    /// Extra INFO line for engine A, e.g. --info-a "hash_size 65536" (repeatable)
    #[arg(long = "info-a")]
    info_a: Vec<String>,
    /// Extra INFO line for engine B (repeatable)
    #[arg(long = "info-b")]
    info_b: Vec<String>,
    /// Reuse each engine process across games (START per game) instead of a fresh process
    #[arg(long)]
    reuse: bool,
    /// Openings file (one opening per line, `x,y` moves, black first); each is played twice
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Declare a draw once this many stones are on the board
    #[arg(long)]
    max_moves: Option<usize>,
    /// Games played at the same time (each worker thread runs whole games)
    #[arg(short = 'j', long, default_value_t = 1)]
    concurrency: usize,
    /// Output folder for games.txt and psq/ (default: matches/<time>-<A>-vs-<B>)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Do not write .psq files
    #[arg(long)]
    no_psq: bool,
    /// Write each engine's protocol transcript per game (and its stderr) here
    #[arg(long)]
    log_dir: Option<PathBuf>,
    /// SPRT: elo0,elo1[,alpha,beta] (alpha = beta = 0.05 by default); stops on a verdict
    #[arg(long)]
    sprt: Option<String>,
    /// Use per-game (trinomial) statistics even when colour-swapped pairs are available
    #[arg(long)]
    trinomial: bool,
    /// Time allowed for an engine to start and answer START with OK, ms
    #[arg(long, default_value_t = 10_000)]
    start_timeout_ms: u64,
    /// No progress bar
    #[arg(long)]
    no_progress: bool,
    /// No line per finished game
    #[arg(short, long)]
    quiet: bool,
}

fn main() {
    let cli = Cli::parse();
    install_ctrl_c();
    match run(cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(2),
        Err(e) => {
            eprintln!("fivefold-arena: {e:#}");
            std::process::exit(1);
        }
    }
}

/// First Ctrl-C: stop scheduling, abandon running games, kill engines, print what we
/// have. Second: leave at once.
fn install_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            fivefold::driver::kill_all_brains();
            std::process::exit(130);
        }
        eprintln!("\nfivefold-arena: stopping (Ctrl-C again to quit at once)");
    });
}

/// Returns whether the run finished normally (not interrupted).
fn run(cli: Cli) -> Result<bool> {
    let setup = build_setup(&cli)?;
    preflight(&setup)?;
    print_header(&setup, &cli);
    let summary = runner::run_match(&setup, &STOP)?;
    print_summary(&setup, &summary);
    Ok(!STOP.load(Ordering::Relaxed) || summary.stopped_early)
}

fn build_setup(cli: &Cli) -> Result<MatchSetup> {
    if ![0, 1, 4, 8, 9].contains(&cli.rule) {
        bail!("--rule must be 0, 1, 4, 8 or 9");
    }
    if !Board::is_valid_size(cli.size, cli.size) {
        bail!("--size {} is not supported", cli.size);
    }
    let turns = [cli.turn_ms_a, cli.turn_ms_b].map(|t| t.unwrap_or(cli.turn_ms));
    if turns.contains(&0) && cli.match_ms == 0 {
        bail!("set --turn-ms or --match-ms: every move needs a deadline");
    }
    let sprt = cli.sprt.as_deref().map(SprtParams::parse).transpose()?;
    let openings = match &cli.openings {
        Some(p) => openings::load(p, cli.size)?,
        None => Vec::new(),
    };
    let engines = engine_specs(cli);
    let default_games = if sprt.is_some() { 20_000 } else { 2 };
    let out_dir = cli
        .out
        .clone()
        .unwrap_or_else(|| default_out_dir(&engines[0].name, &engines[1].name));
    Ok(MatchSetup {
        rules: GameRules {
            limits: limits(cli),
            max_moves: cli.max_moves,
        },
        engines,
        games: cli.games.unwrap_or(default_games),
        openings,
        concurrency: cli.concurrency.max(1),
        sprt,
        force_trinomial: cli.trinomial,
        out_dir: Some(out_dir),
        write_psq: !cli.no_psq,
        log_dir: cli.log_dir.clone(),
        progress: !cli.no_progress,
        per_game_lines: !cli.quiet,
    })
}

fn limits(cli: &Cli) -> Limits {
    Limits {
        size: cli.size,
        rule_bits: cli.rule,
        turn_ms: cli.turn_ms,
        match_ms: cli.match_ms,
        tolerance_ms: cli.tolerance_ms,
        max_memory: cli.max_memory,
        threads: cli.threads,
        start_timeout_ms: cli.start_timeout_ms,
        reuse: cli.reuse,
        stderr_dir: cli.log_dir.clone(),
    }
}

fn engine_specs(cli: &Cli) -> [EngineSpec; 2] {
    let mut a = cli
        .name_a
        .clone()
        .unwrap_or_else(|| name_from_command(&cli.engine_a));
    let mut b = cli
        .name_b
        .clone()
        .unwrap_or_else(|| name_from_command(&cli.engine_b));
    if a == b {
        a.push_str("-A");
        b.push_str("-B");
    }
    [
        EngineSpec {
            name: a,
            cmd: cli.engine_a.clone(),
            infos: cli.info_a.clone(),
            turn_ms: cli.turn_ms_a,
        },
        EngineSpec {
            name: b,
            cmd: cli.engine_b.clone(),
            infos: cli.info_b.clone(),
            turn_ms: cli.turn_ms_b,
        },
    ]
}

/// The program's file stem, skipping interpreters: `python3 x/seed001_brain.py` gives
/// `seed001_brain`, `wine pbrain-x.exe` gives `pbrain-x`.
pub fn name_from_command(cmd: &str) -> String {
    const RUNNERS: [&str; 5] = ["python3", "python", "wine", "wine64", "env"];
    let words = split_command(cmd);
    let prog = words
        .iter()
        .find(|w| {
            let stem = Path::new(w)
                .file_name()
                .and_then(|s| s.to_str())
                .unwrap_or("");
            !RUNNERS.contains(&stem) && !w.starts_with('-')
        })
        .or(words.first());
    prog.and_then(|p| Path::new(p).file_stem())
        .and_then(|s| s.to_str())
        .map(str::to_string)
        .unwrap_or_else(|| "engine".to_string())
}

fn default_out_dir(a: &str, b: &str) -> PathBuf {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    PathBuf::from("matches").join(format!(
        "{secs}-{}-vs-{}",
        player::file_safe(a),
        player::file_safe(b)
    ))
}

/// Starts each engine once before the match, so a wrong command line fails loudly
/// instead of forfeiting every game.
fn preflight(setup: &MatchSetup) -> Result<()> {
    for spec in &setup.engines {
        let mut p = Player::new(spec.clone(), usize::MAX);
        let started = p.start_game(&setup.rules.limits, &STOP);
        p.retire(started.is_ok());
        match started {
            Ok(()) => {}
            Err(ReadError::Aborted) => bail!("interrupted"),
            Err(ReadError::Forfeit(f)) => {
                bail!("engine {} (`{}`): {}", spec.name, spec.cmd, f.describe())
            }
        }
    }
    Ok(())
}

fn print_header(setup: &MatchSetup, cli: &Cli) {
    let lim = &setup.rules.limits;
    let [ta, tb] = [0, 1].map(|i| setup.engines[i].turn_ms(lim));
    let turn = if ta == tb {
        format!("{ta}")
    } else {
        format!("{ta}/{tb}")
    };
    println!(
        "{} vs {}: {} games, {}x{} rule {}, turn {} ms, match {} ms, tolerance {} ms, {} process{}",
        setup.engines[0].name,
        setup.engines[1].name,
        setup.games,
        lim.size,
        lim.size,
        lim.rule_bits,
        turn,
        lim.match_ms,
        lim.tolerance_ms,
        if lim.reuse { "reused" } else { "fresh" },
        if lim.reuse { "" } else { " per game" },
    );
    match &cli.openings {
        Some(p) => println!("Openings: {} ({})", p.display(), setup.openings.len()),
        None => println!("Openings: none (black starts with BEGIN)"),
    }
    if let Some(p) = &setup.sprt {
        println!(
            "SPRT: elo0 {} elo1 {} alpha {} beta {}",
            p.elo0, p.elo1, p.alpha, p.beta
        );
    }
}

fn print_summary(setup: &MatchSetup, s: &Summary) {
    let [a, b] = &setup.engines;
    let t = &s.tally;
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        a.name,
        b.name,
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5),
        t.games()
    );
    println!(
        "Colours: black won {}, white won {}, draws {}",
        s.black_wins, s.white_wins, s.draws
    );
    let model = s.model.unwrap_or(Model::Trinomial);
    match elo_estimate(t, model) {
        Some(e) if e.elo.is_finite() && e.error95.is_finite() => println!(
            "Elo difference: {:.1} +/- {:.1} (95%, {} variance, {} games, {} pairs)",
            e.elo,
            e.error95,
            model.name(),
            t.games(),
            t.pair_count()
        ),
        Some(e) if e.elo.is_finite() => println!(
            "Elo difference: {:.1} (no finite error bar: too few or too uniform results)",
            e.elo
        ),
        Some(e) => println!(
            "Elo difference: {}inf (one-sided result: no finite estimate)",
            if e.elo > 0.0 { "+" } else { "-" }
        ),
        None => {}
    }
    if let (Some(p), Some((v, verdict))) = (&setup.sprt, s.sprt) {
        println!("{}", sprt_line(p, v, verdict, model));
    }
    print_engine_table(&setup.engines, &s.stats);
    if setup.rules.limits.rule_bits == Rule::Renju.bits() && !game::RENJU_FOULS_CHECKED {
        println!("Note: renju forbidden moves are not adjudicated by this build.");
    }
    if let Some(out) = &setup.out_dir {
        println!("Games: {}", out.join("games.txt").display());
    }
    if STOP.load(Ordering::Relaxed) && !s.stopped_early {
        println!("Interrupted: the summary covers finished games only.");
    }
}

fn sprt_line(p: &SprtParams, llr: f64, verdict: Verdict, model: Model) -> String {
    let decision = match verdict {
        Verdict::AcceptH0 => "H0 accepted",
        Verdict::AcceptH1 => "H1 accepted",
        Verdict::Continue => "no decision yet",
    };
    format!(
        "SPRT ({}): elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} [{:.3}, {:.3}] - {}",
        model.name(),
        p.elo0,
        p.elo1,
        p.alpha,
        p.beta,
        llr,
        p.lower_bound(),
        p.upper_bound(),
        decision
    )
}

fn print_engine_table(engines: &[EngineSpec; 2], stats: &[EngineStats; 2]) {
    println!(
        "{:<24} {:>7} {:>9} {:>8} {:>9} {:>8} {:>8}",
        "Engine", "moves", "avg ms", "max ms", "timeouts", "illegal", "crashes"
    );
    for (e, s) in engines.iter().zip(stats) {
        println!(
            "{:<24} {:>7} {:>9.1} {:>8} {:>9} {:>8} {:>8}",
            e.name,
            s.moves,
            s.average_ms(),
            s.max_ms,
            s.timeouts,
            s.illegal,
            s.crashes
        );
    }
    for (e, s) in engines.iter().zip(stats) {
        if let (Some(avg), Some(min)) = (s.average_clock_left_ms(), s.clock_left_min_ms) {
            println!(
                "{}: match clock left at the end of a game: {avg:.0} ms on average, {min} ms at least",
                e.name
            );
        }
    }
}

#[cfg(test)]
mod tests;
