//! Renju forbidden points: the engine against a slow reference written here.
//!
//! `reference` below decides Black's fouls on its own array board from the RIF
//! definitions, sharing no code with `fivefold::game` (nothing of the crate's renju
//! module, no line keys, no pattern tables):
//! - a move that makes exactly five in some line is never forbidden;
//! - otherwise six or more in a row through it is an overline;
//! - a *four* is a set of four black stones, the move among them, lying in a window of five
//!   squares of one line whose fifth square is empty and would make exactly five; two or
//!   more different sets (in one line or several) are a double four, so `X.X*X.X` is two
//!   fours and the straight four `.XXXX.` is one;
//! - a *three* (in a line through the move) exists when some empty square `q` of that line
//!   would make a straight four that contains both the move and `q`: a run of exactly four
//!   whose two end squares are empty and would each make exactly five. It is *real* when
//!   some such `q` is not itself forbidden, judged with the move on the board (and so on,
//!   recursively, with no depth limit). Two or more lines with a real three are a double
//!   three.
//!
//! The table test pins the exact forbidden-point sets of hand-made positions covering the
//! tricky cases; the games test compares `YXSHOWFORBID` (through the real protocol parser
//! and session) and `Board::forbidden_points` with the reference on every position of
//! every position (each prefix) of the renju games in `tests/data/renju_games.txt`, made by
//! `scripts/renju-games.sh`.

use fivefold::game::{Board, Color, Move, Rule};
use fivefold::protocol::Parser;
use fivefold::session::Session;
use std::collections::BTreeSet;

mod reference {
    pub const EMPTY: u8 = 0;
    pub const BLACK: u8 = 1;
    pub const WHITE: u8 = 2;
    /// A square nobody may use (BOARD field 3); off-board squares read as this too.
    pub const WALL: u8 = 3;
    const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

    pub struct Grid {
        pub size: i32,
        cells: Vec<u8>,
    }

    impl Grid {
        pub fn new(size: i32) -> Grid {
            Grid {
                size,
                cells: vec![EMPTY; (size * size) as usize],
            }
        }

        pub fn get(&self, x: i32, y: i32) -> u8 {
            if x < 0 || y < 0 || x >= self.size || y >= self.size {
                WALL
            } else {
                self.cells[(y * self.size + x) as usize]
            }
        }

        pub fn set(&mut self, x: i32, y: i32, v: u8) {
            self.cells[(y * self.size + x) as usize] = v;
        }

        /// Every forbidden point of the board, as (x, y), sorted.
        pub fn forbidden_points(&mut self) -> Vec<(i32, i32)> {
            let mut out = Vec::new();
            for x in 0..self.size {
                for y in 0..self.size {
                    if is_forbidden(self, x, y) {
                        out.push((x, y));
                    }
                }
            }
            out
        }
    }

    /// Whether Black may not play the empty square (x, y).
    pub fn is_forbidden(g: &mut Grid, x: i32, y: i32) -> bool {
        if g.get(x, y) != EMPTY {
            return false;
        }
        g.set(x, y, BLACK);
        let foul = foul_with_stone(g, x, y);
        g.set(x, y, EMPTY);
        foul
    }

    fn foul_with_stone(g: &mut Grid, x: i32, y: i32) -> bool {
        let runs: Vec<i32> = LINES.iter().map(|&d| run(g, x, y, d).2).collect();
        if runs.contains(&5) {
            return false;
        }
        if runs.iter().any(|&r| r >= 6) {
            return true;
        }
        let fours: usize = LINES.iter().map(|&d| fours(g, x, y, d)).sum();
        if fours >= 2 {
            return true;
        }
        LINES.iter().filter(|&&d| real_three(g, x, y, d)).count() >= 2
    }

    /// The black run through the black (x, y) along d: (first offset, last offset, length).
    fn run(g: &Grid, x: i32, y: i32, (dx, dy): (i32, i32)) -> (i32, i32, i32) {
        let mut lo = 0;
        while g.get(x + (lo - 1) * dx, y + (lo - 1) * dy) == BLACK {
            lo -= 1;
        }
        let mut hi = 0;
        while g.get(x + (hi + 1) * dx, y + (hi + 1) * dy) == BLACK {
            hi += 1;
        }
        (lo, hi, hi - lo + 1)
    }

    /// Whether a black stone on the empty (x, y) makes a run of exactly five along d.
    fn makes_five(g: &mut Grid, x: i32, y: i32, d: (i32, i32)) -> bool {
        if g.get(x, y) != EMPTY {
            return false;
        }
        g.set(x, y, BLACK);
        let five = run(g, x, y, d).2 == 5;
        g.set(x, y, EMPTY);
        five
    }

    /// Different sets of four stones through (x, y) along d that a fifth stone turns
    /// into exactly five (see the module comment).
    fn fours(g: &mut Grid, x: i32, y: i32, d: (i32, i32)) -> usize {
        let mut sets: Vec<Vec<i32>> = Vec::new();
        for start in -4..=0 {
            let window: Vec<i32> = (start..start + 5).collect();
            let at = |k: i32| (x + k * d.0, y + k * d.1);
            let blacks: Vec<i32> = window
                .iter()
                .copied()
                .filter(|&k| g.get(at(k).0, at(k).1) == BLACK)
                .collect();
            let empties: Vec<i32> = window
                .iter()
                .copied()
                .filter(|&k| g.get(at(k).0, at(k).1) == EMPTY)
                .collect();
            if blacks.len() == 4 && empties.len() == 1 {
                let (ex, ey) = at(empties[0]);
                if makes_five(g, ex, ey, d) && !sets.contains(&blacks) {
                    sets.push(blacks);
                }
            }
        }
        sets.len()
    }

    /// Whether the line through the black (x, y) along d holds a real three.
    fn real_three(g: &mut Grid, x: i32, y: i32, d: (i32, i32)) -> bool {
        for k in (-4..=4).filter(|&k| k != 0) {
            let (qx, qy) = (x + k * d.0, y + k * d.1);
            if g.get(qx, qy) != EMPTY {
                continue;
            }
            g.set(qx, qy, BLACK);
            let straight = straight_four_with(g, x, y, d, k);
            g.set(qx, qy, EMPTY);
            if straight && !is_forbidden(g, qx, qy) {
                return true;
            }
        }
        false
    }

    /// Whether the run through (x, y) along d is a straight four that contains offset k.
    fn straight_four_with(g: &mut Grid, x: i32, y: i32, d: (i32, i32), k: i32) -> bool {
        let (lo, hi, len) = run(g, x, y, d);
        if len != 4 || k < lo || k > hi {
            return false;
        }
        let (ax, ay) = (x + (lo - 1) * d.0, y + (lo - 1) * d.1);
        let (bx, by) = (x + (hi + 1) * d.0, y + (hi + 1) * d.1);
        makes_five(g, ax, ay, d) && makes_five(g, bx, by, d)
    }
}

use reference::Grid;

/// A 15x15 position from a picture of its top rows: `X` black, `O` white, `#` blocked.
fn picture(rows: &[&str]) -> (Grid, Board) {
    let mut grid = Grid::new(15);
    let mut board = Board::new(15, 15, Rule::Renju);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let m = Move::from_xy(x, y);
            let (xi, yi) = (x as i32, y as i32);
            match ch {
                'X' => {
                    grid.set(xi, yi, reference::BLACK);
                    board.place(m, Color::Black);
                }
                'O' => {
                    grid.set(xi, yi, reference::WHITE);
                    board.place(m, Color::White);
                }
                '#' => {
                    grid.set(xi, yi, reference::WALL);
                    board.block(m);
                }
                _ => {}
            }
        }
    }
    (grid, board)
}

fn engine_points(board: &Board) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = board
        .forbidden_points()
        .iter()
        .map(|m| (m.x() as i32, m.y() as i32))
        .collect();
    v.sort();
    v
}

/// (name, picture, every forbidden point of the position).
type TableCase = (&'static str, &'static [&'static str], &'static [(i32, i32)]);

const TABLE: &[TableCase] = &[
    ("overline XXX.XX", &["", "", "..XXX.XX"], &[(5, 2)]),
    (
        "double four in one line, X.X*X.X",
        &["", "", "", "", "", "", "", "..X.X.X.X"],
        &[(5, 7)],
    ),
    (
        "double four in one line, XXX.*.XXX (its neighbours make straight fours: allowed)",
        &["", "", "", "", "", "", "", ".XXX...XXX"],
        &[(5, 7)],
    ),
    (
        "five at (5,4) with a double four in the column and the diagonal: the five wins",
        &[
            "",
            ".....X",
            ".....X",
            ".....X",
            ".XXXX",
            "......X",
            ".......X",
            "........X",
        ],
        &[],
    ),
    (
        "the same without the row: (5,4) is a plain double four",
        &[
            "",
            ".....X",
            ".....X",
            ".....X",
            "",
            "......X",
            ".......X",
            "........X",
        ],
        &[(5, 4)],
    ),
    (
        "straight four plus three at (5,7) is a four-three, allowed",
        &["", "", "", "", "", ".....X", ".....X", "..XXX"],
        &[],
    ),
    (
        // From a game (position 140 of the data): (12,9) has the shape of two threes,
        // but the diagonal one becomes a straight four only at (10,7), which is a double
        // four (diagonal and column 10): one real three, so (12,9) is allowed.
        "a three whose only completion square is forbidden (double four)",
        &[
            "",
            "",
            "",
            "",
            "...........O",
            "..........X",
            ".........XX..O",
            "........XO..X",
            ".....O.XO..X",
            "......OOO.X",
            "......XO.X",
            ".....OXOO.X",
            ".........X",
        ],
        &[(7, 6), (11, 6), (11, 10)],
    ),
    (
        // From a game (position 845): (8,5) has a row three completed at (7,5) and a
        // diagonal three completed at (9,4). (7,5) would make a row four, a diagonal
        // three and an anti-diagonal three; the diagonal three is not real because its
        // only completion (6,4) is an overline, so (7,5) is a four-three and allowed,
        // and (8,5) is a real double three. Judged one level less deep, (7,5) would
        // count as a double three and (8,5) as allowed. (7,5) itself, on the board as it
        // is, is a double three (its row three is completed at (8,5), a four-three).
        "nested double three, three levels deep",
        &[
            "",
            "",
            "",
            "",
            "",
            "...O..X..X",
            "....XOXXXO",
            ".....XXOOX",
            "......XOOO.X",
            "....OXXXXOOOX",
            "......O.OO",
            ".........XO.X",
            "..........O",
        ],
        &[(6, 4), (7, 5), (8, 5)],
    ),
    (
        "double three: row three .XX* and the column",
        &["", "", "", "", "", "....X", "....X", "..XX"],
        &[(4, 7)],
    ),
    (
        "the same with a blocked square at (1,7): the row has no room for a straight four",
        &["", "", "", "", "", "....X", "....X", ".#XX"],
        &[],
    ),
];

#[test]
fn the_table_of_tricky_positions() {
    let mut failures = Vec::new();
    for &(name, rows, expected) in TABLE {
        let (mut grid, board) = picture(rows);
        let mut want: Vec<(i32, i32)> = expected.to_vec();
        want.sort();
        let reference = grid.forbidden_points();
        let engine = engine_points(&board);
        if reference != want || engine != want {
            failures.push(format!(
                "{name}: table {want:?}, reference {reference:?}, engine {engine:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The games of `tests/data/renju_games.txt`: moves `x,y` black first, on 15x15.
fn load_games() -> Vec<Vec<(i32, i32)>> {
    let text = include_str!("data/renju_games.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|mv| {
                    let (x, y) = mv.split_once(',').expect("x,y");
                    (x.parse().expect("x"), y.parse().expect("y"))
                })
                .collect()
        })
        .collect()
}

/// Every position of every game (each prefix of its moves, either side to move), once.
fn load_positions() -> Vec<Vec<(i32, i32)>> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for game in load_games() {
        for n in 1..=game.len() {
            let prefix = game[..n].to_vec();
            if seen.insert(prefix.clone()) {
                out.push(prefix);
            }
        }
    }
    out
}

/// The position as a YXBOARD block: field 1 for the side to move.
fn yxboard(moves: &[(i32, i32)]) -> String {
    let black_to_move = moves.len().is_multiple_of(2);
    let mut text = String::from("YXBOARD\n");
    for (i, (x, y)) in moves.iter().enumerate() {
        let black = i % 2 == 0;
        let field = if black == black_to_move { 1 } else { 2 };
        text.push_str(&format!("{x},{y},{field}\n"));
    }
    text.push_str("DONE\nYXSHOWFORBID\n");
    text
}

fn showforbid(session: &mut Session, moves: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut parser = Parser::new();
    let out: Vec<String> = yxboard(moves)
        .lines()
        .flat_map(|l| parser.feed(l))
        .flat_map(|cmd| session.handle(cmd))
        .map(|r| r.to_line())
        .collect();
    assert_eq!(out.len(), 1, "{out:?}");
    let digits = out[0]
        .strip_prefix("FORBID ")
        .and_then(|r| r.strip_suffix('.'))
        .unwrap_or_else(|| panic!("not a FORBID line: {}", out[0]));
    assert_eq!(digits.len() % 4, 0, "{}", out[0]);
    let mut points: Vec<(i32, i32)> = (0..digits.len() / 4)
        .map(|i| {
            let x = digits[4 * i..4 * i + 2].parse().expect("x");
            let y = digits[4 * i + 2..4 * i + 4].parse().expect("y");
            (x, y)
        })
        .collect();
    points.sort();
    points
}

#[test]
fn showforbid_agrees_with_the_reference_on_real_games() {
    let positions = load_positions();
    assert!(positions.len() >= 300, "{} positions", positions.len());
    let mut session = Session::new();
    let mut parser = Parser::new();
    for line in ["INFO rule 4", "START 15"] {
        for cmd in parser.feed(line) {
            session.handle(cmd);
        }
    }
    let (mut with_points, mut total_points) = (0, 0);
    let mut failures = Vec::new();
    for (i, moves) in positions.iter().enumerate() {
        let mut grid = Grid::new(15);
        let mut board = Board::new(15, 15, Rule::Renju);
        for (n, &(x, y)) in moves.iter().enumerate() {
            let colour = if n % 2 == 0 {
                reference::BLACK
            } else {
                reference::WHITE
            };
            grid.set(x, y, colour);
            board.make(Move::from_xy(x as usize, y as usize));
        }
        let reference = grid.forbidden_points();
        let shown = showforbid(&mut session, moves);
        let engine = engine_points(&board);
        if reference != shown || reference != engine {
            failures.push(format!(
                "position {} ({} stones): reference {reference:?}, YXSHOWFORBID {shown:?}, engine {engine:?}",
                i + 1,
                moves.len()
            ));
        }
        with_points += usize::from(!reference.is_empty());
        total_points += reference.len();
    }
    eprintln!(
        "{} positions, {with_points} with forbidden points, {total_points} points in all, {} disagreements",
        positions.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn black_never_played_a_forbidden_move_in_the_games() {
    let games = load_games();
    let mut black_moves = 0;
    for (g, moves) in games.iter().enumerate() {
        let mut grid = Grid::new(15);
        for (n, &(x, y)) in moves.iter().enumerate() {
            let colour = if n % 2 == 0 {
                black_moves += 1;
                assert!(
                    !reference::is_forbidden(&mut grid, x, y),
                    "game {}: black's move {} at {x},{y} is forbidden",
                    g + 1,
                    n + 1
                );
                reference::BLACK
            } else {
                reference::WHITE
            };
            grid.set(x, y, colour);
        }
    }
    eprintln!(
        "{} games, {black_moves} black moves, none forbidden",
        games.len()
    );
}

/// For debugging a disagreement: `POS=n cargo test --release --test renju_reference
/// dump_position -- --ignored --nocapture` prints position n and the engine's fouls.
#[test]
#[ignore]
fn dump_position() {
    let i: usize = std::env::var("POS").expect("POS").parse().expect("n");
    let moves = &load_positions()[i - 1];
    let mut rows = vec![vec!['.'; 15]; 15];
    for (n, &(x, y)) in moves.iter().enumerate() {
        rows[y as usize][x as usize] = if n % 2 == 0 { 'X' } else { 'O' };
    }
    let mut board = Board::new(15, 15, Rule::Renju);
    for &(x, y) in moves.iter() {
        board.make(Move::from_xy(x as usize, y as usize));
    }
    for m in board.forbidden_points() {
        eprintln!("engine: {},{} {:?}", m.x(), m.y(), board.renju_foul(m));
    }
    eprintln!("   0123456789ABCDE");
    for (y, r) in rows.iter().enumerate() {
        eprintln!("{y:2} {}", r.iter().collect::<String>());
    }
}

/// Judges the black moves of arena games with the reference: `RENJU_GAMES=games.txt cargo
/// test --release --test renju_reference judge_games -- --ignored --nocapture` (arena
/// `games.txt`, or one `x,y ...` game a line). Fails on any forbidden black move.
#[test]
#[ignore]
fn judge_games() {
    let path = std::env::var("RENJU_GAMES").expect("RENJU_GAMES");
    let text = std::fs::read_to_string(&path).expect("readable games file");
    let (mut games, mut black_moves, mut fouls) = (0, 0, Vec::new());
    let games_of = |l: &str| match l.split_once(" moves=") {
        Some((_, moves)) => Some(moves.to_string()),
        None if l.starts_with('#') || l.trim().is_empty() => None,
        None => Some(l.to_string()),
    };
    for moves in text.lines().filter_map(games_of) {
        games += 1;
        let mut grid = Grid::new(15);
        for (n, mv) in moves.split_whitespace().enumerate() {
            let (x, y) = mv.split_once(',').expect("x,y");
            let (x, y): (i32, i32) = (x.parse().expect("x"), y.parse().expect("y"));
            if n % 2 == 0 {
                black_moves += 1;
                if reference::is_forbidden(&mut grid, x, y) {
                    fouls.push(format!("game {games} move {}: {x},{y}", n + 1));
                }
            }
            let colour = if n % 2 == 0 {
                reference::BLACK
            } else {
                reference::WHITE
            };
            grid.set(x, y, colour);
        }
    }
    eprintln!(
        "{games} games, {black_moves} black moves, {} forbidden",
        fouls.len()
    );
    assert!(fouls.is_empty(), "{}", fouls.join("\n"));
}
