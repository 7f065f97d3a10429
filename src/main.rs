//! `pbrain-fivefold`: with no arguments, a Gomocup brain on stdin/stdout.
//! Subcommands: `bench [depth]`, `wins [nodes]`, `demo [--size N] [--ms T]`, `--version`, `--help`.

use fivefold::search::{bench, wins};
use fivefold::session::{self, DemoOptions};
use std::process::ExitCode;

const USAGE: &str = "\
Fivefold, a Gomoku engine for the Gomocup/Piskvork brain protocol.

Usage:
  pbrain-fivefold                      speak the protocol on stdin/stdout
  pbrain-fivefold bench [depth]        search fixed positions; prints nodes and nps
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

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}

fn run_bench(args: &[String]) -> ExitCode {
    let depth = match args.first() {
        None => bench::DEFAULT_DEPTH,
        Some(d) => match d.parse() {
            Ok(d) => d,
            Err(_) => return fail(&format!("bad depth '{d}'")),
        },
    };
    for line in session::bench_lines(depth) {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

fn run_wins(args: &[String]) -> ExitCode {
    let cap = match args.first() {
        None => wins::DEFAULT_NODES,
        Some(n) => match n.parse() {
            Ok(n) if n > 0 => n,
            _ => return fail(&format!("bad node count '{n}'")),
        },
    };
    for line in wins::lines(cap) {
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
