//! `fivefold-board`: a local web board to play and watch Gomocup brains. See `docs/board.md`.

use anyhow::{bail, Context, Result};
use clap::Parser;
use fivefold::board::{parse_position, serve, Config, EngineDef, Suite};
use std::net::IpAddr;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Fivefold Board: play and watch Gomocup brains in the browser"
)]
struct Args {
    /// Address to listen on; anything but loopback lets other machines play too.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port (0 picks a free one; the address is printed either way).
    #[arg(long, default_value_t = 7715)]
    port: u16,
    /// A brain the page may use, as NAME=COMMAND (repeatable). The page can only pick
    /// brains named here.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// The built-in engine (default: pbrain-fivefold next to this program).
    #[arg(long, value_name = "PATH")]
    fivefold: Option<PathBuf>,
    /// An opening suite (one opening per line, `x,y` moves, black first; repeatable).
    #[arg(long = "openings", value_name = "FILE")]
    openings: Vec<PathBuf>,
    /// Folder for the results file (default: $XDG_DATA_HOME/fivefold or
    /// ~/.local/share/fivefold).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = Args::parse();
    let mut engines = builtin(args.fivefold.as_deref())?;
    for spec in &args.engines {
        engines.push(named_engine(spec)?);
    }
    let suites = args
        .openings
        .iter()
        .map(|p| load_suite(p))
        .collect::<Result<Vec<_>>>()?;
    if !args.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: other machines can reach the board",
            args.host
        );
    }
    ctrlc::set_handler(|| {
        fivefold::driver::kill_all_brains();
        std::process::exit(130);
    })
    .context("cannot set the Ctrl-C handler")?;
    serve(Config {
        host: args.host,
        port: args.port,
        engines,
        suites,
        data_dir: args.data_dir.or_else(fivefold::board::default_data_dir),
    })
}

/// Fivefold itself, from `--fivefold` or next to this executable.
fn builtin(path: Option<&Path>) -> Result<Vec<EngineDef>> {
    let path = match path {
        Some(p) if p.is_file() => p.to_path_buf(),
        Some(p) => bail!("--fivefold {}: no such file", p.display()),
        None => {
            let exe = std::env::current_exe().context("cannot find this program's path")?;
            let next =
                exe.with_file_name(format!("pbrain-fivefold{}", std::env::consts::EXE_SUFFIX));
            if !next.is_file() {
                eprintln!(
                    "note: {} not found; only --engine brains are offered",
                    next.display()
                );
                return Ok(Vec::new());
            }
            next
        }
    };
    Ok(vec![EngineDef {
        name: "Fivefold".to_string(),
        cmd: quote(&path.to_string_lossy()),
        builtin: true,
    }])
}

/// Quotes a path for `driver::split_command` (spaces are common on some systems).
fn quote(path: &str) -> String {
    format!("\"{path}\"")
}

fn named_engine(spec: &str) -> Result<EngineDef> {
    let Some((name, cmd)) = spec.split_once('=') else {
        bail!("--engine {spec}: expected NAME=COMMAND");
    };
    let (name, cmd) = (name.trim(), cmd.trim());
    if name.is_empty() || cmd.is_empty() || name.len() > 40 {
        bail!("--engine {spec}: NAME (up to 40 characters) and COMMAND must not be empty");
    }
    Ok(EngineDef {
        name: name.to_string(),
        cmd: cmd.to_string(),
        builtin: false,
    })
}

/// Reads a suite; its name on the page is the file name without extension.
fn load_suite(path: &Path) -> Result<Suite> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = parse_position(line, 22)
            .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
        openings.push(moves);
    }
    if openings.is_empty() {
        bail!("no openings in {}", path.display());
    }
    let name = path
        .file_stem()
        .map_or("openings".into(), |s| s.to_string_lossy().into_owned());
    Ok(Suite { name, openings })
}
