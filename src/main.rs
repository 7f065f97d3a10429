//! `pbrain-fivefold`: with no arguments, a Gomocup brain on stdin/stdout.
//! Subcommands: `bench [depth]`, `wins [nodes]`, `demo [--size N] [--ms T]`, `--version`, `--help`.

use fivefold::search::{bench, wins};
use fivefold::session::{self, DemoOptions};
use std::process::ExitCode;

const USAGE: &str = "\
Fivefold, a Gomoku engine for the Gomocup/Piskvork brain protocol.

Usage:
  pbrain-fivefold [--nn | --nn-file PATH | --classical] [--param NAME=VALUE ...]
                                       speak the protocol on stdin/stdout; the built-in
                                       network plays every rule on 10x10 to 22x22
                                       boards at full strength (--nn: on every
                                       board, as INFO nn 1;
                                       --nn-file: with the network of PATH,
                                       a quantised weight file; --classical: the
                                       classical evaluation alone, as INFO nn 0;
                                       --param: a search parameter for tuning runs)
  pbrain-fivefold bench [depth] [--nn | --nn-file PATH]
                                       search fixed positions; prints nodes and nps
                                       (--nn: search with the built-in network)
  pbrain-fivefold wins [nodes]         nodes to find each deep forced win of a suite
                                       (at most NODES each, default 2000000)
  pbrain-fivefold demo [--size N] [--ms T]
                                       self-play game, T ms per move (default 200)
  pbrain-fivefold --version | --help

Logs go to stderr; set RUST_LOG (e.g. RUST_LOG=info) to see more.";

fn main() -> ExitCode {
    // stdout carries protocol lines only, so logs go to stderr, warnings and worse by default.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            session::run_stdio();
            ExitCode::SUCCESS
        }
        Some("--nn" | "--nn-file" | "--classical" | "--param") => run_brain_with_options(&args),
        Some("bench") => run_bench(&args[1..]),
        Some("wins") => run_wins(&args[1..]),
        Some("demo") => run_demo(&args[1..]),
        Some("--version" | "-V") => {
            println!("fivefold {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => fail(&format!("unknown argument '{other}'")),
    }
}

/// The brain with options from the start: `--nn` (the built-in network on every
/// board), `--nn-file PATH` or `--classical` (no network), and any number of
/// `--param NAME=VALUE` (`fivefold::search::params`).
fn run_brain_with_options(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut nn = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--nn" if nn.is_none() => nn = Some(true),
            "--classical" if nn.is_none() => nn = Some(false),
            "--nn-file" if nn.is_none() => match it.next() {
                Some(path) => {
                    nn = Some(true);
                    file = Some(std::path::Path::new(path));
                }
                None => return fail("--nn-file needs a path"),
            },
            "--param" => match it.next().map(|a| fivefold::search::params::set(a)) {
                Some(Ok(())) => {}
                Some(Err(e)) => return fail(&e),
                None => return fail("--param needs NAME=VALUE"),
            },
            _ => {
                return fail(
                    "expected at most one of --nn, --nn-file PATH and --classical, and --param NAME=VALUE",
                )
            }
        }
    }
    if let Some(on) = nn {
        let model = match fivefold::eval::nn::incremental::file_or_builtin(file) {
            Ok(model) => model,
            Err(e) => return fail(&e),
        };
        fivefold::eval::nn::incremental::choose(model, on);
    }
    session::run_stdio();
    ExitCode::SUCCESS
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}

/// `bench [depth] [--nn | --nn-file PATH]`: the network options search with the
/// built-in network or with one read from a file (a damaged file is an error exit).
fn run_bench(args: &[String]) -> ExitCode {
    let mut rest = Vec::new();
    let mut nn = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--nn" => nn = Some(fivefold::eval::nn::incremental::freestyle()),
            "--nn-file" => {
                let Some(path) = it.next() else {
                    return fail("--nn-file needs a path");
                };
                match fivefold::eval::nn::incremental::load_file(std::path::Path::new(path)) {
                    Ok(model) => nn = Some(model),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            _ => rest.push(a.clone()),
        }
    }
    match optional_number(&rest, bench::DEFAULT_DEPTH, "depth", |_| true) {
        Ok(depth) => print_lines(session::bench_lines(depth, nn)),
        Err(code) => code,
    }
}

fn run_wins(args: &[String]) -> ExitCode {
    match optional_number(args, wins::DEFAULT_NODES, "node count", |&n| n > 0) {
        Ok(cap) => print_lines(wins::lines(cap)),
        Err(code) => code,
    }
}

/// The subcommand's one optional number: `default` when absent, an error exit when it
/// does not parse or `valid` rejects it.
fn optional_number<T: std::str::FromStr>(
    args: &[String],
    default: T,
    what: &str,
    valid: impl Fn(&T) -> bool,
) -> Result<T, ExitCode> {
    match args.first() {
        None => Ok(default),
        Some(text) => match text.parse() {
            Ok(n) if valid(&n) => Ok(n),
            _ => Err(fail(&format!("bad {what} '{text}'"))),
        },
    }
}

fn print_lines(lines: Vec<String>) -> ExitCode {
    for line in lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

fn run_demo(args: &[String]) -> ExitCode {
    let mut opts = DemoOptions::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        match (flag.as_str(), value) {
            ("--size", Some(v)) => opts.size = v as usize,
            ("--ms", Some(v)) => opts.ms_per_move = v,
            _ => return fail(&format!("bad demo option '{flag}'")),
        }
    }
    match session::demo(opts) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}
