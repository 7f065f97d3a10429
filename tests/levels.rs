//! The levels (`INFO level`) through the real `pbrain-fivefold` process: a reduced level
//! repeats its game with a fixed `INFO seed` and plays another with another seed; every
//! level plays only empty squares, never a renju forbidden point, and answers within its
//! time per move.

use fivefold::driver::{parse_move, Brain, Output};
use fivefold::game::{Board, Move, Rule};
use std::time::{Duration, Instant};

const SIZE: usize = 15;

/// A plain opponent: deterministic from `seed`, it plays an empty square next to a stone.
struct Mover(u64);

impl Mover {
    fn next(&mut self, board: &Board) -> Move {
        let near: Vec<Move> = board
            .empty_squares()
            .filter(|&m| {
                board.history().iter().any(|s| s.distance(m) <= 1)
                    && !board.is_forbidden_for(board.side_to_move(), m)
            })
            .collect();
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        near[(self.0 >> 33) as usize % near.len()]
    }
}

/// The engine's reply to `line` and how long it took; fails on anything but a move.
fn ask(brain: &mut Brain, line: &str) -> ((usize, usize), Duration) {
    let started = Instant::now();
    brain.send(line).expect("send");
    let deadline = started + Duration::from_secs(10);
    loop {
        match brain.recv_until(deadline) {
            Some(Output::Line(l)) if l.starts_with("MESSAGE") || l.starts_with("DEBUG") => {}
            Some(Output::Line(l)) => {
                let (x, y) = parse_move(&l).unwrap_or_else(|| panic!("not a move: {l}"));
                return ((x as usize, y as usize), started.elapsed());
            }
            other => panic!("no move after {line}: {other:?}"),
        }
    }
}

/// One game, the engine black at `level` (renju: it must avoid forbidden points), up to
/// `plies` stones; returns the engine's moves, checking each as it comes.
fn game(level: u8, seed: Option<u64>, rule: Rule, turn_ms: u64, plies: usize) -> Vec<Move> {
    let cmd = format!("'{}'", env!("CARGO_BIN_EXE_pbrain-fivefold"));
    let mut brain = Brain::spawn(&cmd, None).expect("the engine starts");
    // The INFO block before START (managers may send it first): the hash table is then
    // made at START, before OK, and never grown after a move, so a move's time is the
    // move's alone (a table made at the first search grows after the reply).
    let mut infos = vec![
        format!("INFO rule {}", rule.bits()),
        format!("INFO timeout_turn {turn_ms}"),
        "INFO max_memory 367001600".to_string(),
        format!("INFO level {level}"),
    ];
    infos.extend(seed.map(|seed| format!("INFO seed {seed}")));
    for info in infos {
        brain.send(&info).expect("send");
    }
    brain.send(&format!("START {SIZE}")).expect("send");
    let ok = brain.recv(Duration::from_secs(10));
    assert_eq!(ok, Some(Output::Line("OK".to_string())));
    let mut board = Board::new(SIZE, SIZE, rule);
    let mut mover = Mover(level as u64 + 99);
    let mut ours = Vec::new();
    let mut command = "BEGIN".to_string();
    while board.stone_count() < plies && board.last_move_wins().is_none() {
        let ((x, y), took) = ask(&mut brain, &command);
        assert!(
            x < SIZE && y < SIZE,
            "level {level}: {x},{y} is off the board"
        );
        let m = Move::from_xy(x, y);
        assert!(board.is_empty(m), "level {level}: {x},{y} is taken");
        assert!(
            !board.is_forbidden(m),
            "level {level}: {x},{y} is forbidden"
        );
        assert!(
            took < Duration::from_millis(turn_ms),
            "level {level}: {took:?} for a move of {turn_ms} ms"
        );
        board.make(m);
        ours.push(m);
        if board.last_move_wins().is_some() || board.empty_count() == 0 {
            break;
        }
        let reply = mover.next(&board);
        board.make(reply);
        command = format!("TURN {},{}", reply.x(), reply.y());
    }
    ours
}

#[test]
fn a_reduced_level_repeats_its_game_with_a_fixed_seed() {
    for level in [1, 3, 5] {
        let a = game(level, Some(7), Rule::Freestyle, 2000, 40);
        let b = game(level, Some(7), Rule::Freestyle, 2000, 40);
        assert_eq!(a, b, "level {level}, seed 7, played twice");
    }
    // Another seed changes the random choices: level 1's game is not the same.
    let a = game(1, Some(7), Rule::Freestyle, 2000, 40);
    let c = game(1, Some(8), Rule::Freestyle, 2000, 40);
    assert_ne!(a, c, "level 1 with seeds 7 and 8");
}

#[test]
fn every_level_plays_legal_moves_in_its_time() {
    for level in 1..=fivefold::levels::FULL {
        game(level, None, Rule::Renju, 300, 50);
        game(level, None, Rule::Freestyle, 300, 30);
    }
}
