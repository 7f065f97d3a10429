//! Renju forbidden points for Black, RIF rules: overline, double four, double three.
//!
//! A move that makes exactly five is never forbidden. Otherwise Black may not make six or
//! more in a row, two or more fours (two in one line count, as in `X.XXX.X`), or two or
//! more *real* threes. A three is a line that one more stone turns into a straight four
//! `.XXXX.`; it is real only if that stone is itself allowed, which is the recursive part.
//!
//! The check reads the board through a `Probe` that lays a few hypothetical black stones
//! over it, so nothing is cloned or allocated.

use super::board::Board;
use super::types::{Cell, Color, Move, Rule, DIRS};
use std::fmt;

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Foul {
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        }
    }
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Board {
    /// Why Black may not play `m` here, if it may not: `None` unless the rule is renju and
    /// `m` is empty. Independent of the side to move.
    pub fn renju_foul(&self, m: Move) -> Option<Foul> {
        if self.rule() != Rule::Renju {
            return None;
        }
        black_foul(self, m)
    }

    /// Whether Black playing `m` is forbidden under renju (false under every other rule).
    pub fn is_forbidden(&self, m: Move) -> bool {
        self.renju_foul(m).is_some()
    }

    /// Black's forbidden points, column by column (x, then y), as YXSHOWFORBID lists them;
    /// empty under every rule but renju.
    pub fn forbidden_points(&self) -> Vec<Move> {
        (0..self.width())
            .flat_map(|x| (0..self.height()).map(move |y| Move::from_xy(x, y)))
            .filter(|&m| self.is_forbidden(m))
            .collect()
    }

    /// Whether `c` may not play `m`: only Black is ever restricted.
    pub fn is_forbidden_for(&self, c: Color, m: Move) -> bool {
        c == Color::Black && self.is_forbidden(m)
    }
}

/// The renju foul Black would commit at `m`, whatever the board's rule; `None` if `m` is
/// not empty. `m` must be a square of the board or its padding.
pub fn black_foul(board: &Board, m: Move) -> Option<Foul> {
    if board.cell(m) != Cell::Empty {
        return None;
    }
    foul_at(&mut Probe::new(board), m, 0)
}

/// How many moves deep the real-three check may nest ("is the square completing this three
/// allowed?" asked of the square, and so on). Real games need two or three levels; at the
/// limit the completing square is taken as allowed, so the three counts.
const MAX_DEPTH: usize = 6;

/// Extra stones a probe can hold: one per recursion level plus the move under test, and
/// two more while a level tries a straight four and its end.
const PROBE_STONES: usize = MAX_DEPTH + 3;

/// The board with a few extra black stones laid over it.
struct Probe<'a> {
    board: &'a Board,
    extra: [Move; PROBE_STONES],
    len: usize,
}

impl<'a> Probe<'a> {
    fn new(board: &'a Board) -> Probe<'a> {
        Probe {
            board,
            extra: [Move::NONE; PROBE_STONES],
            len: 0,
        }
    }

    fn cell(&self, m: Move) -> Cell {
        if self.extra[..self.len].contains(&m) {
            Cell::Black
        } else {
            self.board.cell(m)
        }
    }

    fn is_black(&self, m: Move) -> bool {
        self.cell(m) == Cell::Black
    }

    fn is_empty(&self, m: Move) -> bool {
        self.cell(m) == Cell::Empty
    }

    fn push(&mut self, m: Move) {
        self.extra[self.len] = m;
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
    }

    /// Black stones in a row from `m` (black, or treated as such) along `step`, not
    /// counting `m`: how far the run through `m` reaches that way.
    fn reach(&self, m: Move, step: isize) -> isize {
        let mut n = 0;
        while self.is_black(m.offset((n + 1) * step)) {
            n += 1;
        }
        n
    }

    /// Length of the black run through `m` along `step`.
    fn run(&self, m: Move, step: isize) -> isize {
        1 + self.reach(m, step) + self.reach(m, -step)
    }

    /// Whether a black stone at the empty square `q` would make a run of exactly five
    /// through `m` along `step` (`m` black).
    fn fives_with(&mut self, m: Move, step: isize, q: Move) -> bool {
        if !self.is_empty(q) {
            return false;
        }
        self.push(q);
        let five = self.run(m, step) == 5;
        self.pop();
        five
    }
}

/// The foul of a black stone at the empty `m` on the probe's board, `depth` levels into
/// the real-three recursion.
fn foul_at(probe: &mut Probe, m: Move, depth: usize) -> Option<Foul> {
    probe.push(m);
    let foul = foul_of_placed(probe, m, depth);
    probe.pop();
    foul
}

/// `foul_at` once `m` is on the probe.
fn foul_of_placed(probe: &mut Probe, m: Move, depth: usize) -> Option<Foul> {
    let runs = DIRS.map(|step| probe.run(m, step));
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&r| r > 5) {
        return Some(Foul::Overline);
    }
    let fours: u8 = DIRS.iter().map(|&step| fours_in_line(probe, m, step)).sum();
    if fours >= 2 {
        return Some(Foul::DoubleFour);
    }
    (real_threes(probe, m, depth) >= 2).then_some(Foul::DoubleThree)
}

/// Fours through the placed `m` along `step`: 0, 1 or 2. Two squares completing a five
/// are one straight four when the run through `m` is already four long (`.XXXX.`), and two
/// separate fours otherwise (`X.XXX.X`, `XX.XX.XX`): the two squares then sit on both
/// sides of a shorter run.
fn fours_in_line(probe: &mut Probe, m: Move, step: isize) -> u8 {
    let mut points = 0;
    for k in (-4..=4).filter(|&k| k != 0) {
        if probe.fives_with(m, step, m.offset(k * step)) {
            points += 1;
        }
    }
    if points == 2 && probe.run(m, step) == 4 {
        1
    } else {
        points
    }
}

/// Lines through the placed `m` holding a real three, counted up to two. Lines are first
/// screened by shape alone, so the recursive check runs only when a double three is
/// possible. A line with a four never has the shape of a three: the four's five square
/// would be an end of the straight four and make six, and a straight four stays one only
/// with the extra stone outside it (see `makes_straight_four`).
fn real_threes(probe: &mut Probe, m: Move, depth: usize) -> usize {
    let shaped = DIRS.map(|step| straight_four_points(probe, m, step).next().is_some());
    if shaped.iter().filter(|&&s| s).count() < 2 {
        return 0;
    }
    let mut real = 0;
    for (d, &step) in DIRS.iter().enumerate() {
        if real < 2 && shaped[d] && has_real_three(probe, m, step, depth) {
            real += 1;
        }
    }
    real
}

/// Whether one of the squares turning the line into a straight four is allowed for Black
/// with `m` on the board. Past `MAX_DEPTH` the square is assumed allowed.
fn has_real_three(probe: &mut Probe, m: Move, step: isize, depth: usize) -> bool {
    if depth >= MAX_DEPTH {
        return true;
    }
    straight_four_points(probe, m, step).any(|q| foul_at(probe, q, depth + 1).is_none())
}

/// Empty squares within three of the placed `m` along `step` where a black stone makes a
/// straight four through `m`. Collected eagerly so the probe is free again afterwards.
fn straight_four_points(probe: &mut Probe, m: Move, step: isize) -> impl Iterator<Item = Move> {
    let mut points = [Move::NONE; 6];
    let mut n = 0;
    for k in (-3..=3).filter(|&k| k != 0) {
        let q = m.offset(k * step);
        if probe.is_empty(q) && makes_straight_four(probe, m, step, k) {
            points[n] = q;
            n += 1;
        }
    }
    points.into_iter().take(n)
}

/// Whether a black stone at the empty square `k` steps from `m` makes `.XXXX.` through
/// `m` and itself, each end completing exactly five. The stone must be part of the four:
/// when `m` already made a straight four, a stone further along the line leaves it one,
/// and that is a four, not a three.
fn makes_straight_four(probe: &mut Probe, m: Move, step: isize, k: isize) -> bool {
    probe.push(m.offset(k * step));
    let (back, fwd) = (probe.reach(m, -step), probe.reach(m, step));
    let straight = back + fwd + 1 == 4
        && (-back..=fwd).contains(&k)
        && probe.fives_with(m, step, m.offset(-(back + 1) * step))
        && probe.fives_with(m, step, m.offset((fwd + 1) * step));
    probe.pop();
    straight
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 15x15 renju board from a picture of its top rows: `X` black, `O` white, `#`
    /// blocked, anything else empty. Returns the board and the square marked `*`.
    fn picture<S: AsRef<str>>(rows: &[S]) -> (Board, Move) {
        let mut b = Board::new(15, 15, Rule::Renju);
        let mut star = Move::NONE;
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.as_ref().chars().enumerate() {
                let m = Move::from_xy(x, y);
                match ch {
                    'X' => b.place(m, Color::Black),
                    'O' => b.place(m, Color::White),
                    '#' => b.block(m),
                    '*' => star = m,
                    _ => {}
                }
            }
        }
        assert!(!star.is_none(), "picture without a `*`");
        (b, star)
    }

    fn foul<S: AsRef<str>>(rows: &[S]) -> Option<Foul> {
        let (b, m) = picture(rows);
        b.renju_foul(m)
    }

    /// Black stones from GomocupJudge's "pos" notation: letter = x from `a`, number = y + 1,
    /// colours alternating from Black.
    fn from_pos_notation(moves: &str) -> Board {
        let mut b = Board::new(15, 15, Rule::Renju);
        let bytes = moves.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let x = (bytes[i] - b'a') as usize;
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let row: usize = moves[i + 1..i + 1 + digits].parse().expect("row number");
            b.make(Move::from_xy(x, row - 1));
            i += 1 + digits;
        }
        b
    }

    #[test]
    fn overline_is_forbidden_and_exact_five_is_not() {
        assert_eq!(foul(&["", "", "..XXX*XX"]), Some(Foul::Overline));
        assert_eq!(foul(&["", "", "..XXX*X."]), None);
        assert_eq!(foul(&["*XXXXX"]), Some(Foul::Overline));
    }

    #[test]
    fn five_wins_over_an_overline_elsewhere() {
        let column_six = [
            "", ".....X", ".....X", ".....X", ".XXXX*", ".....X", ".....X",
        ];
        assert_eq!(foul(&column_six), None);
        let mut no_five = column_six;
        no_five[4] = "..XXX*";
        assert_eq!(foul(&no_five), Some(Foul::Overline));
    }

    #[test]
    fn five_wins_over_a_double_four_elsewhere() {
        let fours = [
            "",
            ".....X",
            ".....X",
            ".....X",
            ".XXXX*",
            "......X",
            ".......X",
            "........X",
        ];
        assert_eq!(foul(&fours), None);
        let mut no_five = fours;
        no_five[4] = ".....*";
        assert_eq!(foul(&no_five), Some(Foul::DoubleFour));
    }

    #[test]
    fn double_four_in_two_lines() {
        let rows = ["", "", ".....O", ".....X", ".....X", ".....X", "..XXX*"];
        assert_eq!(foul(&rows), Some(Foul::DoubleFour));
    }

    #[test]
    fn double_four_in_one_line() {
        assert_eq!(foul(&["", "", "..X.X*X.X"]), Some(Foul::DoubleFour));
        assert_eq!(foul(&["", "", ".XX.X*.XX"]), Some(Foul::DoubleFour));
        assert_eq!(foul(&["", "", "XXX.*.XXX"]), Some(Foul::DoubleFour));
        // A straight four has two five squares but is one four.
        assert_eq!(foul(&["", "", "..XX*X.."]), None);
        assert_eq!(
            foul(&["", "", "...XX*X..", "......X", "......X", "......X"]),
            None
        );
    }

    #[test]
    fn four_three_is_allowed() {
        let rows = ["", "", "", "", ".....X", ".....X", ".OXXX*", "", "", ""];
        assert_eq!(foul(&rows), None);
    }

    #[test]
    fn straight_four_with_a_three_is_allowed() {
        // `.XXX*.` makes a straight four on the row; the column three makes it a
        // four-three, not a double three (a stone further along the row leaves the
        // straight four as it is, so the row holds no three).
        let rows = ["", "", "", "", "", ".....X", ".....X", "..XXX*", "", ""];
        assert_eq!(foul(&rows), None);
        // Found by tests/renju_reference.rs in a real game: a diagonal straight four and
        // a split three `XX.X` on the other diagonal.
        let game = [
            "",
            "",
            "........X",
            ".........X",
            "......XXOO",
            "....O*OOOX",
            "......XXO.O",
            ".....O.XXOX",
            "....O...X.X",
        ];
        assert_eq!(foul(&game), None);
    }

    #[test]
    fn double_three_is_forbidden() {
        let solid = ["", "", "", "", "", ".....X", ".....X", "...XX*", "", ""];
        assert_eq!(foul(&solid), Some(Foul::DoubleThree));
        // Split threes: `.X.XX.` along the row and down the column.
        let split = ["", "", "", "", "", ".....X", "", "..X.X*", ".....X", "", ""];
        assert_eq!(foul(&split), Some(Foul::DoubleThree));
    }

    /// Rows 0..=7 with `row7` last and, above its `*`, two black stones making an open
    /// column three with it.
    fn with_column_three(row7: &str) -> Vec<String> {
        let x = row7.find('*').expect("row with a `*`");
        let stone = format!("{}X", ".".repeat(x));
        let mut rows = vec![String::new(); 5];
        rows.extend([stone.clone(), stone, row7.to_string()]);
        rows
    }

    #[test]
    fn three_against_the_edge_or_a_white_stone_is_not_a_three() {
        // `|XXX...`: no room for `.XXXX.` on the left.
        assert_eq!(foul(&with_column_three("XX*....")), None);
        assert_eq!(foul(&with_column_three(".XX*...")), Some(Foul::DoubleThree));
        // A blocked square acts like the edge.
        assert_eq!(foul(&with_column_three("#XX*....")), None);
        // `O.XXX.O`: both straight fours would be blocked.
        assert_eq!(foul(&with_column_three("O.XX*.O")), None);
        assert_eq!(foul(&with_column_three("O.XX*..")), Some(Foul::DoubleThree));
    }

    #[test]
    fn three_completed_only_by_a_forbidden_square_is_not_real() {
        // The row three `XX.*` (7,7) can only become a straight four at (6,7), which would
        // be an overline down column 6; the column three through (7,7) is real.
        let rows = [
            "",
            "",
            "",
            "",
            "......X",
            "......XX",
            "......XX",
            "..O.XX.*.O",
            "......X",
            "......X",
        ];
        assert_eq!(foul(&rows), None);
        // Without the bottom stone, (6,7) makes five instead, so both threes are real.
        let mut five = rows;
        five[9] = "";
        assert_eq!(foul(&five), Some(Foul::DoubleThree));
    }

    #[test]
    fn gomocup_judge_renju_vector() {
        let b = from_pos_notation("h8h9i7i9h10i6i11i12");
        assert_eq!(b.side_to_move(), Color::Black);
        let g9 = Move::from_xy(6, 8);
        assert_eq!(b.renju_foul(g9), Some(Foul::DoubleThree));
        assert!(!b.is_forbidden(Move::from_xy(9, 5)));
    }

    #[test]
    fn white_and_other_rules_are_never_restricted() {
        let (mut b, m) = picture(&["", "", "..XXX*XX", "", "...OOO.OO"]);
        assert!(b.is_forbidden(m));
        b.set_side_to_move(Color::White);
        assert!(b.is_forbidden(m), "must not depend on the side to move");
        assert!(!b.is_forbidden_for(Color::White, m));
        assert!(b.is_forbidden_for(Color::Black, m));
        let white_overline = Move::from_xy(6, 4);
        assert!(!b.is_forbidden(white_overline));
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
            b.set_rule(rule);
            assert!(!b.is_forbidden(m), "{rule:?}");
            assert_eq!(black_foul(&b, m), Some(Foul::Overline));
        }
    }

    #[test]
    fn occupied_squares_are_not_forbidden() {
        let (mut b, m) = picture(&["", "", "..XXX*XX"]);
        b.place(m, Color::White);
        assert!(!b.is_forbidden(m));
    }
}
