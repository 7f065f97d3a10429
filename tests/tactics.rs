//! Tactics suite: positions from real games where the side to move has a forced win.
//!
//! Every position in `tests/data/tactics.txt` is proved here by `Checker`, a small
//! exhaustive AND/OR solver written in this file on its own array board; it uses nothing
//! from the engine. The engine is then given each position through
//! `fivefold::search::Searcher::search` at a fixed node budget (deterministic, no timing)
//! and must play a first move the checker proves wins within the stated number of plies.
//!
//! What the checker proves. "Win within N plies" for the attacker (side to move) means: the
//! attacker has a move such that for every defender reply ... the attacker makes five no
//! later than ply N (ply 1 is the attacker's first move). The defender is allowed every
//! empty square, except where the rule is exact:
//! - the defender makes five if he can (he wins, the proof fails);
//! - if the attacker threatens two different fives, the defender loses;
//! - if the attacker threatens one five, the defender must block that square (any other
//!   move lets the attacker make five next ply);
//! - when the attacker's next move must make a double threat (3 plies left) and the
//!   defender plays a square that makes no four of his own and lies on no line within
//!   four squares of any attacker double-threat square, that double threat is untouched,
//!   so the reply loses; such replies are counted without being searched.
//!   The attacker may make five if he can; if the defender threatens a five the attacker
//!   must block it (or make his own five). Otherwise the attacker is restricted to moves
//!   that make a four, or, up to `threes` times in a line, a move that gives him a five-square
//!   window with at least three of his stones and none of the defender's. Restricting the
//!   attacker only makes proofs harder to find, never wrong: a proof is a strategy for the
//!   attacker that answers every defender move, and it stays one whatever moves were left out.
//!
//! Freestyle (rule 0) only: five or more in a row wins.

#[path = "common/checker.rs"]
mod checker;

use checker::{fmt_moves, grid_of, parse_moves, Checker};
use fivefold::game::{Board, Move, Rule};
use fivefold::search::{Clock, Limits, Searcher, TimeBudget};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Most non-four attacker moves in one line of a proof (see the module comment).
const THREES: u32 = 2;
/// Node cap per proof attempt; positions in the data file stay far below it.
const CHECK_NODES: u64 = 3_000_000;
/// Bound for the "slower win" check of a missed move: continuous fours only.
const SLOW_VCF: u32 = 25;
/// Node budget the engine gets per position.
const ENGINE_NODES: u64 = 400_000;
/// The engine must solve at least this many positions (a floor against regressions). 97 of
/// 103 when the suite was added; 100 once the root VCF deepened one move at a time. The
/// three misses are wins with threes (lines 38, 94, 95) that the engine plays as a longer
/// VCF, still a win.
const ENGINE_FLOOR: usize = 100;
/// ... and play a proven winning move, shortest or not, in at least this many.
const ENGINE_WIN_FLOOR: usize = 103;

/// One line of the data file.
struct Case {
    line: usize,
    size: usize,
    moves: Vec<(usize, usize)>,
    win: u32,
    firsts: Vec<(usize, usize)>,
    src: String,
}

fn load_cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/tactics.txt");
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut size = 0;
        let mut rule = 99;
        let mut moves = Vec::new();
        let mut to_move = String::new();
        let mut win = 0;
        let mut firsts = Vec::new();
        let mut src = String::new();
        for field in raw.split_whitespace() {
            let (k, v) = field.split_once('=').expect("key=value");
            match k {
                "size" => size = v.parse().unwrap(),
                "rule" => rule = v.parse().unwrap(),
                "moves" => moves = parse_moves(v),
                "tomove" => to_move = v.to_string(),
                "win" => win = v.parse().unwrap(),
                "first" => firsts = parse_moves(v),
                "src" => src = v.to_string(),
                _ => panic!("line {}: unknown field {k}", i + 1),
            }
        }
        assert_eq!(rule, 0, "line {}: only freestyle", i + 1);
        let expect = if moves.len().is_multiple_of(2) {
            "black"
        } else {
            "white"
        };
        assert_eq!(to_move, expect, "line {}: side to move", i + 1);
        cases.push(Case {
            line: i + 1,
            size,
            moves,
            win,
            firsts,
            src,
        });
    }
    cases
}

fn checker_for(size: usize, moves: &[(usize, usize)], cap: u64) -> Checker {
    let g = grid_of(size, moves);
    let att = if moves.len().is_multiple_of(2) { 1 } else { 2 };
    Checker::new(g, att, cap)
}

fn to_xy(size: usize, s: usize) -> (usize, usize) {
    (s % size, s / size)
}

#[test]
fn checker_small_cases() {
    // Black X at (5..8, 7) open four: five at once.
    let mut c = checker_for(
        15,
        &[(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4)],
        10_000,
    );
    // open three 5,6,7 on row 7: black to move makes an open four, then five (3 plies)
    assert_eq!(c.wins(1, 0), Some(false));
    assert_eq!(c.wins(3, 0), Some(true));
    let firsts = c.winning_firsts(3, 0).unwrap();
    let firsts: Vec<_> = firsts.iter().map(|&s| to_xy(15, s)).collect();
    assert_eq!(firsts, vec![(4, 7), (8, 7)]);
    // Blocked three: O X X X . . — no win in 3 plies, and a lone four is parried.
    let mut c = checker_for(
        15,
        &[(5, 7), (4, 7), (6, 7), (0, 2), (7, 7), (0, 4)],
        10_000,
    );
    assert_eq!(c.wins(3, 0), Some(false));
    // The defender's four must be answered: white four at (0..3,0), black open three.
    let mut c = checker_for(
        15,
        &[
            (5, 7),
            (0, 0),
            (6, 7),
            (1, 0),
            (7, 7),
            (2, 0),
            (10, 10),
            (3, 0),
        ],
        10_000,
    );
    assert_eq!(c.wins(3, 0), Some(false));
    assert_eq!(
        c.wins(5, 1),
        Some(false),
        "the forced block at 4,0 costs the tempo"
    );
}

#[test]
fn checker_proves_every_position() {
    let cases = load_cases();
    assert!(cases.len() >= 50, "only {} positions", cases.len());
    let started = Instant::now();
    let mut failures = Vec::new();
    for case in &cases {
        let mut c = checker_for(case.size, &case.moves, CHECK_NODES);
        let att = c.att;
        assert!(
            c.g.completions(att).is_empty(),
            "line {}: an immediate five is not a puzzle",
            case.line
        );
        let t = Instant::now();
        let proved = c.wins(case.win, THREES);
        let firsts = c
            .winning_firsts(case.win, THREES)
            .map(|v| v.iter().map(|&s| to_xy(case.size, s)).collect::<Vec<_>>());
        eprintln!(
            "line {:3} win in {:2}: {:?} in {:.2} s, {} nodes",
            case.line,
            case.win,
            proved,
            t.elapsed().as_secs_f64(),
            c.nodes
        );
        if proved != Some(true) || firsts.as_ref() != Some(&case.firsts) {
            failures.push(format!(
                "line {} ({}): proved {:?}, first moves {:?} (file {})",
                case.line,
                case.src,
                proved,
                firsts.map(|f| fmt_moves(&f)),
                fmt_moves(&case.firsts)
            ));
        }
    }
    eprintln!(
        "checker: {} positions in {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn engine_solves_tactics() {
    let cases = load_cases();
    let mut searcher = Searcher::new(16 << 20);
    let stop = AtomicBool::new(false);
    let mut solved = 0;
    let mut slower = 0;
    let mut by_len: HashMap<u32, (usize, usize)> = HashMap::new();
    for case in &cases {
        let mut board = Board::new(case.size, case.size, Rule::Freestyle);
        for &(x, y) in &case.moves {
            board.make(Move::from_xy(x, y));
        }
        searcher.clear();
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: None,
            max_nodes: Some(ENGINE_NODES),
        };
        let result = searcher.search(&board, &limits, &stop, &mut |_| {});
        let mv = (result.best.x(), result.best.y());
        let (ok, slow) = judge(case, mv);
        let e = by_len.entry(case.win).or_default();
        e.1 += 1;
        if ok {
            solved += 1;
            e.0 += 1;
        }
        if slow {
            slower += 1;
        }
        eprintln!(
            "line {:3} {:>2}x{:<2} win in {:2}: played {},{} {} (score {}, depth {}, nodes {})",
            case.line,
            case.size,
            case.size,
            case.win,
            mv.0,
            mv.1,
            verdict(ok, slow),
            result.score,
            result.depth,
            result.nodes
        );
    }
    let mut lens: Vec<_> = by_len.into_iter().collect();
    lens.sort();
    for (len, (ok, n)) in lens {
        eprintln!("win in {len:2} plies: {ok}/{n}");
    }
    eprintln!(
        "engine at {ENGINE_NODES} nodes: {solved}/{} solved (a proven win within the bound); \
         {slower} more played a slower proven win",
        cases.len()
    );
    assert!(
        solved >= ENGINE_FLOOR,
        "solved {solved}, floor {ENGINE_FLOOR}"
    );
    assert!(
        solved + slower >= ENGINE_WIN_FLOOR,
        "a winning move in {}, floor {ENGINE_WIN_FLOOR}",
        solved + slower
    );
}

/// Judges a first move: (wins within the case's bound, else wins more slowly). A move
/// outside the stored set may still win in time, so the checker is asked about it, also
/// with one more non-four attacker move than the set was built with; failing that, whether
/// it wins by continuous fours within `SLOW_VCF` plies or with threes within four more
/// plies than the bound.
fn judge(case: &Case, mv: (usize, usize)) -> (bool, bool) {
    if case.firsts.contains(&mv) {
        return (true, false);
    }
    if mv.0 >= case.size || mv.1 >= case.size {
        return (false, false);
    }
    let mut c = checker_for(case.size, &case.moves, CHECK_NODES);
    let s = c.g.sq(mv.0 as i32, mv.1 as i32);
    if c.wins_with(s, case.win, THREES) == Some(true)
        || c.wins_with(s, case.win, THREES + 1) == Some(true)
    {
        return (true, false);
    }
    let slow = c.wins_with(s, SLOW_VCF, 0) == Some(true)
        || c.wins_with(s, case.win + 4, THREES) == Some(true);
    (false, slow)
}

fn verdict(ok: bool, slow: bool) -> &'static str {
    if ok {
        "solved"
    } else if slow {
        "MISSED (a slower win)"
    } else {
        "MISSED"
    }
}

/// Judges the answers `scripts/tactics.sh --answers FILE` wrote (`line x,y ms` per position)
/// with the checker, like `engine_solves_tactics` does:
/// `TACTICS_ANSWERS=FILE cargo test --release --test tactics judge_answers -- --ignored --nocapture`
#[test]
#[ignore]
fn judge_answers() {
    let cases = load_cases();
    let path = std::env::var("TACTICS_ANSWERS").expect("TACTICS_ANSWERS");
    let text = std::fs::read_to_string(path).expect("answers file");
    let (mut total, mut solved, mut slower) = (0, 0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n: usize = f[0].parse().expect("line number");
        let case = cases.iter().find(|c| c.line == n).expect("no such line");
        let mv = parse_moves(f[1])[0];
        let (ok, slow) = judge(case, mv);
        total += 1;
        solved += usize::from(ok);
        slower += usize::from(slow);
        println!(
            "line {n:3} {:>2}x{:<2} win in {:2}: played {},{} {} {} ms",
            case.size,
            case.size,
            case.win,
            mv.0,
            mv.1,
            verdict(ok, slow),
            f.get(2).unwrap_or(&"?")
        );
    }
    println!("{solved}/{total} solved; {slower} more played a slower proven win");
}

/// Builds candidate lines for the data file from arena `games.txt` files:
/// `TACTICS_GAMES=path1,path2 TACTICS_SIZE=15 cargo test --release --test tactics -- --ignored --nocapture`
#[test]
#[ignore]
fn generate_candidates() {
    let files = std::env::var("TACTICS_GAMES").expect("TACTICS_GAMES");
    let size: usize = std::env::var("TACTICS_SIZE")
        .map(|s| s.parse().unwrap())
        .unwrap_or(15);
    let tag = std::env::var("TACTICS_TAG").unwrap_or_default();
    for file in files.split(',') {
        let text = std::fs::read_to_string(file).expect("games file");
        for line in text.lines() {
            if !line.contains("wins by five") {
                continue;
            }
            let game = line.split_whitespace().next().unwrap_or("#?");
            let Some((_, ms)) = line.split_once("moves=") else {
                continue;
            };
            let moves: Vec<(usize, usize)> = ms
                .split_whitespace()
                .map(|t| {
                    let (x, y) = t.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let len = moves.len();
            for k in [3usize, 5, 7, 9, 11, 13] {
                if k >= len {
                    break;
                }
                let pre = &moves[..len - k];
                let mut found = None;
                for n in (3..=11).step_by(2) {
                    let mut c = checker_for(size, pre, CHECK_NODES);
                    if !c.g.completions(c.att).is_empty() {
                        break;
                    }
                    match c.wins(n, THREES) {
                        Some(true) => {
                            found = Some(n);
                            break;
                        }
                        Some(false) => {}
                        None => break,
                    }
                }
                let Some(n) = found else { continue };
                let mut c = checker_for(size, pre, CHECK_NODES);
                let Some(firsts) = c.winning_firsts(n, THREES) else {
                    continue;
                };
                let firsts: Vec<_> = firsts.iter().map(|&s| to_xy(size, s)).collect();
                println!(
                    "size={size} rule=0 tomove={} win={n} moves={} first={} src={tag}{game}-{k}",
                    if pre.len().is_multiple_of(2) {
                        "black"
                    } else {
                        "white"
                    },
                    fmt_moves(pre),
                    fmt_moves(&firsts)
                );
            }
        }
    }
}
