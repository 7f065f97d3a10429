//! Forced-win conversion suite (issue 45): positions from self-play games where the side
//! to move has a long victory by continuous fours, or a win that needs one quiet move
//! (`kind=vct`), each proved by the exhaustive checker
//! in tests/common/checker.rs (nothing shared with the engine). The engine, started fresh
//! for every move (a new process, `BOARD`, `timeout_turn 100`), plays each out against
//! the checker's defence: after every move of the engine the checker must still prove a
//! win, and the five must come within the proved length plus `SLACK` plies.
//!
//! `cargo test --release --test forced_wins -- --ignored generate` with FIVEFOLD_DATA set
//! to data files (fivefold-data gen) prints candidate lines for tests/data/forced_wins.txt.

#[path = "common/checker.rs"]
mod checker;

use checker::{fmt_moves, grid_of, parse_moves, Checker};
use fivefold::driver::{parse_move, Brain, Output};
use std::time::{Duration, Instant};

/// Plies the engine may take beyond the proved length (a longer VCF still wins).
const SLACK: u32 = 8;
/// Node cap of one proof.
const CHECK_NODES: u64 = 5_000_000;
const TURN_MS: u64 = 100;

struct Case {
    line: usize,
    size: usize,
    moves: Vec<(usize, usize)>,
    /// Plies to the attacker's five, his first move being ply 1.
    win: u32,
    /// Quiet (non-four) attacker moves the proof may use: 0 for a VCF (`kind=vcf`, the
    /// default), 1 for a VCT (`kind=vct`).
    threes: u32,
    src: String,
}

fn load_cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/forced_wins.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/forced_wins.txt");
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut case = Case {
            line: i + 1,
            size: 0,
            moves: Vec::new(),
            win: 0,
            threes: 0,
            src: String::new(),
        };
        for field in raw.split_whitespace() {
            let (k, v) = field.split_once('=').expect("key=value");
            match k {
                "size" => case.size = v.parse().expect("size"),
                "win" => case.win = v.parse().expect("win"),
                "moves" => case.moves = parse_moves(v),
                "src" => case.src = v.to_string(),
                "kind" => case.threes = u32::from(v == "vct"),
                _ => panic!("line {}: unknown field {k}", i + 1),
            }
        }
        cases.push(case);
    }
    cases
}

/// The attacker's color in a position: the side to move.
fn to_move(moves: &[(usize, usize)]) -> u8 {
    if moves.len().is_multiple_of(2) {
        1
    } else {
        2
    }
}

/// The shortest VCF (plies, odd) of the side to move within `max` plies, if any.
fn shortest_vcf(size: usize, moves: &[(usize, usize)], max: u32) -> Option<u32> {
    shortest_win(size, moves, max, 0)
}

/// The shortest win (plies, odd) of the side to move within `max` plies using at most
/// `threes` quiet moves, if any.
fn shortest_win(size: usize, moves: &[(usize, usize)], max: u32, threes: u32) -> Option<u32> {
    (1..=max).step_by(2).find(|&r| {
        let mut c = Checker::new(grid_of(size, moves), to_move(moves), CHECK_NODES);
        c.wins(r, threes) == Some(true)
    })
}

/// Asks a fresh engine process for its move in `moves` (BOARD, `timeout_turn 100`).
fn engine_move(size: usize, moves: &[(usize, usize)]) -> Result<((usize, usize), u64), String> {
    // FIVEFOLD_BRAIN plays another build (or any brain) through the same suite.
    let brain_cmd = std::env::var("FIVEFOLD_BRAIN")
        .unwrap_or_else(|_| format!("'{}'", env!("CARGO_BIN_EXE_pbrain-fivefold")));
    let mut brain = Brain::spawn(&brain_cmd, None).map_err(|e| e.to_string())?;
    let us = moves.len() % 2;
    let mut script = vec![
        format!("START {size}"),
        format!("INFO timeout_turn {TURN_MS}"),
        "INFO rule 0".to_string(),
        "BOARD".to_string(),
    ];
    for (i, (x, y)) in moves.iter().enumerate() {
        script.push(format!("{x},{y},{}", if i % 2 == us { 1 } else { 2 }));
    }
    script.push("DONE".to_string());
    let started = Instant::now();
    for line in &script {
        brain.send(line).map_err(|e| e.to_string())?;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    let mv = loop {
        match brain.recv_until(deadline) {
            Some(Output::Line(l)) if l == "OK" || l.starts_with("MESSAGE") => continue,
            Some(Output::Line(l)) => match parse_move(&l) {
                Some((x, y)) => break (x as usize, y as usize),
                None => return Err(format!("unexpected line `{l}`")),
            },
            Some(Output::Closed) => return Err("the brain closed its output".into()),
            None => return Err("no move within 5 s".into()),
        }
    };
    let ms = started.elapsed().as_millis() as u64;
    brain.kill();
    Ok((mv, ms))
}

/// The defender's reply in `moves` (defender to move) and whether the attacker still
/// wins within `left` plies (the attacker's next move being ply 1): a five threat must be
/// blocked; otherwise every reply is tried (fours only for the attacker afterwards, at
/// most one quiet move) and one that refutes the win is played if there is one.
fn defend(
    size: usize,
    moves: &[(usize, usize)],
    left: u32,
    threes: u32,
) -> (Option<(usize, usize)>, bool) {
    let g = grid_of(size, moves);
    let att = 3 - to_move(moves);
    let def = to_move(moves);
    let threats = g.completions(att);
    if !g.completions(def).is_empty() {
        return (None, false); // the defender makes five
    }
    let xy = |s: usize| (s % size, s / size);
    if let Some(&block) = threats.first() {
        let mut next = moves.to_vec();
        next.push(xy(block));
        let wins = threats.len() >= 2 || shortest_win(size, &next, left, threes).is_some();
        return (Some(xy(block)), wins);
    }
    // A quiet attacker move: the defender answers wherever it refutes, if anywhere; else
    // (a VCT) with the reply next to a stone that leaves the longest win.
    let mut best: Option<((usize, usize), u32)> = None;
    for s in (0..g.cells.len()).filter(|&s| g.cells[s] == 0) {
        let mut next = moves.to_vec();
        next.push(xy(s));
        let mut c = Checker::new(grid_of(size, &next), att, CHECK_NODES);
        if c.wins(left, 1) != Some(true) {
            return (Some(xy(s)), false);
        }
        let (x, y) = xy(s);
        let near = moves
            .iter()
            .any(|&(a, b)| a.abs_diff(x) <= 1 && b.abs_diff(y) <= 1);
        if near && threes > 0 {
            let length = shortest_win(size, &next, left, 1).unwrap_or(0);
            if best.is_none_or(|(_, l)| length > l) {
                best = Some((xy(s), length));
            }
        }
        if best.is_none() && threes == 0 {
            best = Some((xy(s), 0));
        }
    }
    (best.map(|(m, _)| m), true)
}

/// Plays `case` out; Ok(plies to five) or Err(what went wrong).
fn play_out(case: &Case, times: &mut Vec<u64>) -> Result<u32, String> {
    let mut moves = case.moves.clone();
    let budget = case.win + SLACK;
    for ply in (1..=budget).step_by(2) {
        let (mv, ms) = engine_move(case.size, &moves)?;
        times.push(ms);
        if moves.contains(&mv) || mv.0 >= case.size || mv.1 >= case.size {
            return Err(format!("ply {ply}: {mv:?} is occupied or off the board"));
        }
        let before = grid_of(case.size, &moves);
        if before.makes_five(to_move(&moves), before.sq(mv.0 as i32, mv.1 as i32)) {
            return Ok(ply);
        }
        moves.push(mv);
        let left = budget.saturating_sub(ply + 1).max(1);
        let (reply, still_wins) = defend(case.size, &moves, left, case.threes);
        if !still_wins {
            return Err(format!(
                "ply {ply}: after {mv:?} no forced win within {left} plies remains (moves {})",
                fmt_moves(&moves)
            ));
        }
        moves.push(reply.ok_or("no reply")?);
    }
    Err(format!("no five within {budget} plies"))
}

#[test]
fn checker_proves_every_case_at_its_length() {
    let cases = load_cases();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    for case in &cases {
        assert_eq!(
            shortest_win(case.size, &case.moves, case.win, case.threes),
            Some(case.win),
            "line {}: the shortest win is not {} plies",
            case.line,
            case.win
        );
    }
}

#[test]
fn engine_converts_every_forced_win_at_100_ms() {
    let cases = load_cases();
    let mut failures = Vec::new();
    let mut times = Vec::new();
    for case in &cases {
        match play_out(case, &mut times) {
            Ok(plies) => eprintln!(
                "line {}: five at ply {plies} (proved {})",
                case.line, case.win
            ),
            Err(e) => {
                eprintln!("line {} ({}): {e}", case.line, case.src);
                failures.push(format!("line {} ({}): {e}", case.line, case.src));
            }
        }
    }
    times.sort_unstable();
    eprintln!(
        "{} of {} converted; engine moves: median {} ms, longest {} ms",
        cases.len() - failures.len(),
        cases.len(),
        times.get(times.len() / 2).copied().unwrap_or(0),
        times.last().copied().unwrap_or(0)
    );
    assert!(
        failures.is_empty(),
        "lost conversions:\n{}",
        failures.join("\n")
    );
}

/// Calls `f(size, moves, src)` for every decided freestyle game on a square board in the
/// data files of FIVEFOLD_DATA (separated by ':'); `src` is `file#index`.
fn for_each_won_game(mut f: impl FnMut(usize, &[(usize, usize)], String)) {
    use fivefold::data::format::{parse_games, Outcome};
    let files = std::env::var("FIVEFOLD_DATA").expect("FIVEFOLD_DATA=file[:file...]");
    for file in files.split(':') {
        let games = parse_games(&std::fs::read(file).expect("data file")).expect("data");
        for (gi, g) in games.iter().enumerate() {
            if g.outcome == Outcome::Draw || g.width != g.height || g.rule != 0 {
                continue;
            }
            let all: Vec<(usize, usize)> = g.plies.iter().map(|p| g.xy(p.mv)).collect();
            let name = file.rsplit('/').next().unwrap_or(file);
            f(g.width as usize, &all, format!("{name}#{gi}"));
        }
    }
}

/// Prints suite lines: positions of finished self-play games (FIVEFOLD_DATA) where the
/// winner, to move, has a shortest VCF of 11 to 23 plies (the earliest such position).
#[test]
#[ignore]
fn generate() {
    for_each_won_game(|size, all, src| {
        let found = (0..=8).map(|k| 27 - 2 * k).find_map(|back| {
            let moves = &all[..all.len().checked_sub(back)?];
            let v = shortest_vcf(size, moves, 23)?;
            (v >= 11).then(|| (moves.to_vec(), v))
        });
        if let Some((moves, v)) = found {
            println!("size={size} win={v} moves={} src={src}", fmt_moves(&moves));
        }
    });
}

#[test]
#[ignore]
fn debug_case() {
    use fivefold::game::{Board, Move, Rule};
    use fivefold::search::{Clock, Limits, Searcher, TimeBudget};
    let line: usize = std::env::var("CASE").expect("CASE").parse().expect("line");
    let case = load_cases()
        .into_iter()
        .find(|c| c.line == line)
        .expect("case");
    let mut moves = case.moves.clone();
    for ply in (1..=case.win + SLACK).step_by(2) {
        let mut board = Board::new(case.size, case.size, Rule::Freestyle);
        for &(x, y) in &moves {
            board.make(Move::from_xy(x, y));
        }
        let mut s = Searcher::new(16 << 20);
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: None,
            max_nodes: Some(60_000),
        };
        let r = s.search(
            &board,
            &limits,
            &std::sync::atomic::AtomicBool::new(false),
            &mut |l| eprintln!("   {l}"),
        );
        let mv = (r.best.x(), r.best.y());
        let before = shortest_vcf(case.size, &moves, 25);
        let g = grid_of(case.size, &moves);
        if g.makes_five(to_move(&moves), g.sq(mv.0 as i32, mv.1 as i32)) {
            eprintln!("ply {ply}: five at {mv:?}");
            return;
        }
        moves.push(mv);
        let threats = grid_of(case.size, &moves).completions(3 - to_move(&moves));
        eprintln!("ply {ply}: vcf before {before:?}, engine {mv:?} score {} depth {}, attacker five squares after: {}", r.score, r.depth, threats.len());
        let (reply, wins) = defend(case.size, &moves, 25, case.threes);
        eprintln!("   reply {reply:?} still wins {wins}");
        if !wins {
            return;
        }
        moves.push(reply.unwrap());
    }
}

/// Prints VCT candidates: positions of finished self-play games (FIVEFOLD_DATA) where the
/// winner, to move, has no VCF within 25 plies but a win within 5 to 13 plies with at most
/// one quiet (non-four) move.
#[test]
#[ignore]
fn generate_vct() {
    for_each_won_game(|size, all, src| {
        let found = (0..=6).map(|k| 17 - 2 * k).find_map(|back| {
            let moves = &all[..all.len().checked_sub(back)?];
            if shortest_vcf(size, moves, 25).is_some() {
                return None;
            }
            (5..=13)
                .step_by(2)
                .find(|&r| {
                    let mut c = Checker::new(grid_of(size, moves), to_move(moves), 300_000);
                    c.wins(r, 1) == Some(true)
                })
                .map(|r| (moves.to_vec(), r))
        });
        if let Some((moves, r)) = found {
            println!(
                "size={size} kind=vct win={r} moves={} src={src}",
                fmt_moves(&moves)
            );
        }
    });
}
