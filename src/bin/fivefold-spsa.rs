//! `fivefold-spsa`: tunes an engine's integer parameters by SPSA (simultaneous
//! perturbation stochastic approximation), as the chess engines' testing frameworks do.
//!
//! Each iteration draws a random sign per parameter, plays one opening twice (colours
//! swapped) between the engine at theta + c*delta and at theta - c*delta through
//! `fivefold-arena`, and moves theta by r * c * (wins - losses of the plus side) * delta.
//! The gains follow the usual schedules: c_k = c_end * (N / k)^0.101 and
//! r_k = a_k / c_k^2 with a_k = a / (A + k)^0.602, A = N / 10, fixed so that r_N = r_end.
//! Every iteration appends a line to `spsa.csv` in the output folder; a run started again
//! on the same folder goes on from its last line.

use anyhow::{bail, Context, Result};
use clap::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Parser, Debug)]
#[command(about = "Tunes an engine's parameters by SPSA, playing games through fivefold-arena")]
struct Cli {
    /// Engine command line; each side gets `--param NAME=VALUE` per parameter appended
    #[arg(long)]
    engine: String,
    /// Parameter to tune: NAME:START:MIN:MAX:C_END (C_END: the last perturbation's size)
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    /// Iterations (one game pair each)
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Learning rate at the last iteration (r_end)
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Openings file (black-first `x,y` lines); each iteration plays a random one
    #[arg(long)]
    openings: PathBuf,
    /// Board size
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Nodes per move (INFO max_node); the games' clocks are then only a safety net
    #[arg(long)]
    nodes: Option<u64>,
    /// Time per move in ms
    #[arg(long, default_value_t = 100)]
    turn_ms: u64,
    /// The arena binary (default: fivefold-arena beside this one)
    #[arg(long)]
    arena: Option<PathBuf>,
    /// Output folder (spsa.csv; a run on an existing folder resumes it)
    #[arg(long)]
    out: PathBuf,
    /// Random seed (signs and openings)
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// One tuned parameter: its bounds and its final perturbation size.
#[derive(Clone, Debug, PartialEq)]
struct Spec {
    name: String,
    start: f64,
    min: f64,
    max: f64,
    c_end: f64,
}

fn parse_spec(s: &str) -> Result<Spec> {
    let f: Vec<&str> = s.split(':').collect();
    if f.len() != 5 {
        bail!("--param {s}: expected NAME:START:MIN:MAX:C_END");
    }
    let num = |i: usize| -> Result<f64> {
        f[i].trim()
            .parse::<f64>()
            .with_context(|| format!("--param {s}: '{}' is not a number", f[i]))
    };
    let spec = Spec {
        name: f[0].trim().to_string(),
        start: num(1)?,
        min: num(2)?,
        max: num(3)?,
        c_end: num(4)?,
    };
    if spec.name.is_empty() || !(spec.min <= spec.start && spec.start <= spec.max) {
        bail!("--param {s}: needs a name and MIN <= START <= MAX");
    }
    if spec.c_end <= 0.0 {
        bail!("--param {s}: C_END must be positive");
    }
    Ok(spec)
}

/// The gain schedules of a run of `n` iterations.
#[derive(Clone, Copy, Debug)]
struct Schedule {
    n: f64,
    r_end: f64,
}

impl Schedule {
    const ALPHA: f64 = 0.602;
    const GAMMA: f64 = 0.101;

    /// The perturbation at iteration `k` (from 1) for a parameter with `c_end`.
    fn c(&self, k: usize, c_end: f64) -> f64 {
        c_end * (self.n / k as f64).powf(Self::GAMMA)
    }

    /// The learning rate r_k = a_k / c_k^2 at iteration `k` for `c_end`.
    fn r(&self, k: usize, c_end: f64) -> f64 {
        let big_a = self.n / 10.0;
        let a = self.r_end * c_end * c_end * (big_a + self.n).powf(Self::ALPHA);
        let a_k = a / (big_a + k as f64).powf(Self::ALPHA);
        let c_k = self.c(k, c_end);
        a_k / (c_k * c_k)
    }
}

/// The SPSA state: the current theta per parameter.
struct Spsa {
    specs: Vec<Spec>,
    theta: Vec<f64>,
    schedule: Schedule,
}

impl Spsa {
    fn new(specs: Vec<Spec>, schedule: Schedule) -> Spsa {
        let theta = specs.iter().map(|s| s.start).collect();
        Spsa {
            specs,
            theta,
            schedule,
        }
    }

    /// The two points of iteration `k` for the signs `delta` (+1 or -1 each): theta plus
    /// and minus c_k * delta, kept within bounds.
    fn points(&self, k: usize, delta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let at = |sign: f64| -> Vec<f64> {
            self.specs
                .iter()
                .zip(&self.theta)
                .zip(delta)
                .map(|((s, &t), &d)| {
                    (t + sign * self.schedule.c(k, s.c_end) * d).clamp(s.min, s.max)
                })
                .collect()
        };
        (at(1.0), at(-1.0))
    }

    /// Moves theta after iteration `k`: `result` is the plus side's wins less its losses.
    fn update(&mut self, k: usize, delta: &[f64], result: f64) {
        for ((t, s), &d) in self.theta.iter_mut().zip(&self.specs).zip(delta) {
            let step = self.schedule.r(k, s.c_end) * self.schedule.c(k, s.c_end) * result * d;
            *t = (*t + step).clamp(s.min, s.max);
        }
    }
}

/// The engine's command line at `values` (rounded to integers).
fn command_at(engine: &str, specs: &[Spec], values: &[f64]) -> String {
    let mut cmd = engine.to_string();
    for (s, v) in specs.iter().zip(values) {
        cmd.push_str(&format!(" --param {}={}", s.name, v.round() as i64));
    }
    cmd
}

/// Wins less losses of engine `name` in an arena `games.txt`.
fn result_for(games_txt: &str, name: &str) -> Result<(f64, usize)> {
    let (mut result, mut games) = (0.0, 0);
    for line in games_txt.lines().filter(|l| l.starts_with('#')) {
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .map(str::to_string)
        };
        let (Some(black), Some(r)) = (field("black="), field("result=")) else {
            bail!("unreadable game line: {line}");
        };
        let black_score = match r.as_str() {
            "1-0" => 1.0,
            "0-1" => -1.0,
            _ => 0.0,
        };
        result += if black == name {
            black_score
        } else {
            -black_score
        };
        games += 1;
    }
    Ok((result, games))
}

/// The last iteration and theta recorded in `csv`, if any.
fn resume_point(csv: &str, specs: &[Spec]) -> Result<Option<(usize, Vec<f64>)>> {
    let Some(last) = csv.lines().skip(1).filter(|l| !l.trim().is_empty()).last() else {
        return Ok(None);
    };
    let f: Vec<&str> = last.split(',').collect();
    if f.len() != 2 + specs.len() {
        bail!("spsa.csv does not match these parameters: {last}");
    }
    let k = f[0].parse().context("spsa.csv: iteration")?;
    let theta = f[2..]
        .iter()
        .map(|v| v.parse::<f64>().context("spsa.csv: value"))
        .collect::<Result<Vec<_>>>()?;
    Ok(Some((k, theta)))
}

fn arena_path(cli: &Cli) -> Result<PathBuf> {
    if let Some(p) = &cli.arena {
        return Ok(p.clone());
    }
    let me = std::env::current_exe()?;
    Ok(me.with_file_name("fivefold-arena"))
}

/// Plays one opening twice between the two commands; returns the plus side's result.
fn play_pair(cli: &Cli, arena: &Path, plus: &str, minus: &str, opening: &str) -> Result<f64> {
    let dir = cli.out.join("pair");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let openings = dir.join("opening.txt");
    std::fs::write(&openings, format!("{opening}\n"))?;
    let mut cmd = Command::new(arena);
    cmd.args([
        plus, minus, "--name-a", "plus", "--name-b", "minus", "-n", "2", "-j", "2",
    ])
    .args(["--size", &cli.size.to_string()])
    .args(["--turn-ms", &cli.turn_ms.to_string()])
    .arg("--openings")
    .arg(&openings)
    .arg("--out")
    .arg(&dir)
    .args(["--no-psq", "--no-progress", "--quiet"]);
    if let Some(n) = cli.nodes {
        let info = format!("max_node {n}");
        cmd.args(["--info-a", &info, "--info-b", &info]);
    }
    let out = cmd
        .output()
        .with_context(|| format!("running {}", arena.display()))?;
    if !out.status.success() {
        bail!(
            "the arena failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = std::fs::read_to_string(dir.join("games.txt"))?;
    let (result, games) = result_for(&text, "plus")?;
    if games != 2 {
        bail!("expected 2 games, the arena wrote {games}");
    }
    Ok(result)
}

fn run(cli: &Cli) -> Result<()> {
    let specs = cli
        .params
        .iter()
        .map(|s| parse_spec(s))
        .collect::<Result<Vec<_>>>()?;
    let openings: Vec<String> = std::fs::read_to_string(&cli.openings)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if openings.is_empty() {
        bail!("{}: no openings", cli.openings.display());
    }
    let arena = arena_path(cli)?;
    std::fs::create_dir_all(&cli.out)?;
    let csv_path = cli.out.join("spsa.csv");
    let schedule = Schedule {
        n: cli.iterations as f64,
        r_end: cli.r_end,
    };
    let mut spsa = Spsa::new(specs.clone(), schedule);
    let mut first = 1;
    let old = std::fs::read_to_string(&csv_path).unwrap_or_default();
    if let Some((k, theta)) = resume_point(&old, &specs)? {
        spsa.theta = theta;
        first = k + 1;
        eprintln!("resuming after iteration {k}");
    } else {
        let header: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        std::fs::write(
            &csv_path,
            format!("iteration,result,{}\n", header.join(",")),
        )?;
    }
    let mut csv = std::fs::OpenOptions::new().append(true).open(&csv_path)?;
    let mut decisive = 0;
    for k in first..=cli.iterations {
        // Each iteration's draws depend on the seed and k alone, so a resumed run goes on
        // as an uninterrupted one would.
        let mut rng =
            StdRng::seed_from_u64(cli.seed.wrapping_mul(1_000_003).wrapping_add(k as u64));
        let delta: Vec<f64> = specs
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let opening = &openings[rng.gen_range(0..openings.len())];
        let (plus, minus) = spsa.points(k, &delta);
        let result = play_pair(
            cli,
            &arena,
            &command_at(&cli.engine, &specs, &plus),
            &command_at(&cli.engine, &specs, &minus),
            opening,
        )?;
        spsa.update(k, &delta, result);
        decisive += (result != 0.0) as usize;
        let values: Vec<String> = spsa.theta.iter().map(|t| format!("{t:.2}")).collect();
        writeln!(csv, "{k},{result},{}", values.join(","))?;
        if k % 20 == 0 || k == cli.iterations {
            eprintln!("{k}/{}: {}", cli.iterations, values.join(" "));
        }
    }
    let _ = std::fs::remove_dir_all(cli.out.join("pair"));
    eprintln!("pairs with a winner this run: {decisive}");
    Ok(())
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(start: f64, c_end: f64) -> Spec {
        Spec {
            name: "x".into(),
            start,
            min: 0.0,
            max: 1000.0,
            c_end,
        }
    }

    #[test]
    fn specs_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_spec("lmr_scale:100:40:180:8").unwrap().c_end, 8.0);
        for bad in ["a:1:2:3", "a:5:6:9:1", "a:x:0:9:1", ":1:0:9:1", "a:1:0:9:0"] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn schedules_end_where_they_are_told() {
        let s = Schedule {
            n: 500.0,
            r_end: 0.002,
        };
        assert!((s.c(500, 8.0) - 8.0).abs() < 1e-9);
        assert!((s.r(500, 8.0) - 0.002).abs() < 1e-12);
        assert!(s.c(1, 8.0) > s.c(100, 8.0) && s.r(250, 8.0) > s.r(500, 8.0));
    }

    /// A synthetic match: the plus side scores by how much nearer 300 it is, with noise.
    /// From 100, SPSA must end near 300 (a wrong sign would drive it to the bound 0).
    #[test]
    fn spsa_climbs_a_noisy_hill() {
        let n = 2000;
        let mut spsa = Spsa::new(
            vec![spec(100.0, 10.0), spec(900.0, 10.0)],
            Schedule {
                n: n as f64,
                r_end: 0.02,
            },
        );
        let strength =
            |v: &[f64]| -((v[0] - 300.0) / 100.0).powi(2) - ((v[1] - 600.0) / 100.0).powi(2);
        let mut rng = StdRng::seed_from_u64(7);
        for k in 1..=n {
            let delta: Vec<f64> = (0..2).map(|_| if rng.gen() { 1.0 } else { -1.0 }).collect();
            let (p, m) = spsa.points(k, &delta);
            let edge = 1.0 / (1.0 + (-(strength(&p) - strength(&m)) * 2.0).exp());
            let result: f64 = (0..2)
                .map(|_| if rng.gen::<f64>() < edge { 1.0 } else { -1.0 })
                .sum();
            spsa.update(k, &delta, result);
        }
        assert!((spsa.theta[0] - 300.0).abs() < 60.0, "{:?}", spsa.theta);
        assert!((spsa.theta[1] - 600.0).abs() < 60.0, "{:?}", spsa.theta);
    }

    #[test]
    fn results_are_read_for_the_named_side() {
        let txt = "#1 black=plus white=minus result=1-0 reason=\"x\"\n\
                   #2 black=minus white=plus result=1-0 reason=\"x\"\n\
                   #3 black=minus white=plus result=0-1 reason=\"x\"\n\
                   #4 black=plus white=minus result=1/2 reason=\"x\"\n";
        assert_eq!(result_for(txt, "plus").unwrap(), (1.0, 4));
        assert_eq!(result_for(txt, "minus").unwrap(), (-1.0, 4));
        assert!(result_for("#1 nonsense\n", "plus").is_err());
    }

    #[test]
    fn a_run_resumes_from_its_last_line() {
        let specs = vec![spec(1.0, 1.0), spec(2.0, 1.0)];
        let csv = "iteration,result,x,x\n1,2,10.50,20.00\n2,-1,11.00,19.50\n";
        assert_eq!(
            resume_point(csv, &specs).unwrap(),
            Some((2, vec![11.0, 19.5]))
        );
        assert_eq!(
            resume_point("iteration,result,x,x\n", &specs).unwrap(),
            None
        );
        assert!(resume_point("h\n1,2,3\n", &specs).is_err());
    }

    #[test]
    fn commands_carry_rounded_values() {
        let specs = vec![
            Spec {
                name: "lmr_scale".into(),
                ..spec(100.0, 8.0)
            },
            Spec {
                name: "futility_margin".into(),
                ..spec(200.0, 20.0)
            },
        ];
        assert_eq!(
            command_at("e --nn", &specs, &[107.6, 180.2]),
            "e --nn --param lmr_scale=108 --param futility_margin=180"
        );
    }
}
