//! The board: padded cell array, Zobrist hash, move history and per-cell line keys.
//!
//! Line keys are what makes the evaluation incremental: for every square and direction we
//! keep the contents of the ten squares around it (five each side, two bits each). Placing
//! a stone flips two bits in the keys of the forty squares that can see it, and the pattern
//! tables in `eval` turn a key into a shape with one lookup.

use super::types::*;
use super::zobrist::{side_key, stone_key};

/// Bits of a line key: ten neighbours, two bits each.
pub const KEY_BITS: u32 = 20;

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: Vec<Cell>,
    /// `keys[cell * 4 + dir]`: the ten neighbours of `cell` along `DIRS[dir]`.
    keys: Vec<u32>,
    /// Stones within two squares (Chebyshev) of each cell, for candidate generation.
    near: Vec<u8>,
    history: Vec<Move>,
    /// After each stone of `history`: the rectangle of squares within two of some stone,
    /// so that candidate generation scans only that.
    reach: Vec<Reach>,
    side: Color,
    hash: u64,
    stones: usize,
    empties_on_board: usize,
}

/// Inclusive column and row bounds of the squares near stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub x0: u8,
    pub y0: u8,
    pub x1: u8,
    pub y1: u8,
}

/// Slot of the neighbour at `offset` (-5..=5, not 0) inside a line key.
#[inline]
pub fn key_slot(offset: isize) -> u32 {
    (if offset < 0 { offset + 5 } else { offset + 4 }) as u32
}

impl Board {
    /// An empty board. Sizes are checked by the caller (`is_valid_size`).
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        let mut b = Board {
            width,
            height,
            rule,
            cells: vec![Cell::Wall; CELLS],
            keys: vec![0; CELLS * 4],
            near: vec![0; CELLS],
            history: Vec::with_capacity(CELLS),
            reach: Vec::with_capacity(CELLS),
            side: Color::Black,
            hash: 0,
            stones: 0,
            empties_on_board: width * height,
        };
        for y in 0..height {
            for x in 0..width {
                b.cells[Move::from_xy(x, y).idx()] = Cell::Empty;
            }
        }
        b.rebuild_keys();
        b
    }

    pub fn is_valid_size(width: usize, height: usize) -> bool {
        (MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height)
    }

    fn rebuild_keys(&mut self) {
        for y in 0..self.height {
            for x in 0..self.width {
                let m = Move::from_xy(x, y);
                for (d, &step) in DIRS.iter().enumerate() {
                    let mut key = 0u32;
                    for off in (-5isize..=5).filter(|&o| o != 0) {
                        let c = self.cells[m.offset(off * step).idx()] as u32;
                        key |= c << (2 * key_slot(off));
                    }
                    self.keys[m.idx() * 4 + d] = key;
                }
            }
        }
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The rule can change between games without a new START (INFO rule after START).
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.hash ^= side_key();
            self.side = side;
        }
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones
    }
    /// Empty squares left on the board; zero means the game is drawn.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empties_on_board
    }
    #[inline]
    pub fn history(&self) -> &[Move] {
        &self.history
    }
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.move_back(1)
    }
    /// The `k`-th last move played (1 = the last), if there were that many.
    #[inline]
    pub fn move_back(&self, k: usize) -> Option<Move> {
        self.history.len().checked_sub(k).map(|i| self.history[i])
    }

    #[inline]
    pub fn on_board(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }
    #[inline]
    pub fn cell(&self, m: Move) -> Cell {
        self.cells[m.idx()]
    }
    #[inline]
    pub fn cell_xy(&self, x: usize, y: usize) -> Cell {
        self.cells[Move::from_xy(x, y).idx()]
    }
    #[inline]
    pub fn is_empty(&self, m: Move) -> bool {
        self.cells[m.idx()] == Cell::Empty
    }
    /// Line key of `m` along direction index `dir`.
    #[inline]
    pub fn key(&self, m: Move, dir: usize) -> u32 {
        self.keys[m.idx() * 4 + dir]
    }
    /// Number of stones within two squares of `m`.
    #[inline]
    pub fn near(&self, m: Move) -> u8 {
        self.near[m.idx()]
    }

    /// The hash `make(m)` would give, without making it (to prefetch its table entry).
    #[inline]
    pub fn hash_after(&self, m: Move) -> u64 {
        self.hash ^ stone_key(m, self.side.cell()) ^ side_key()
    }

    /// Places a stone of the side to move and passes the turn.
    #[inline]
    pub fn make(&mut self, m: Move) {
        let c = self.side;
        self.put(m, c.cell());
        self.history.push(m);
        self.hash ^= side_key();
        self.side = c.opp();
    }

    /// Takes back the last stone. Returns it, or `None` on an empty history.
    #[inline]
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.history.pop()?;
        self.remove(m);
        self.hash ^= side_key();
        self.side = self.side.opp();
        Some(m)
    }

    /// Places a stone of a given colour without touching the side to move (BOARD setup).
    pub fn place(&mut self, m: Move, c: Color) {
        self.put(m, c.cell());
        self.history.push(m);
    }

    /// Marks a square as permanently blocked (BOARD field 3).
    pub fn block(&mut self, m: Move) {
        if self.cells[m.idx()] == Cell::Empty {
            self.cells[m.idx()] = Cell::Wall;
            self.empties_on_board -= 1;
            self.rebuild_keys();
        }
    }

    #[inline]
    fn put(&mut self, m: Move, cell: Cell) {
        debug_assert_eq!(self.cells[m.idx()], Cell::Empty);
        self.cells[m.idx()] = cell;
        self.flip_keys(m, cell as u32);
        self.bump_near(m, 1);
        self.extend_reach(m);
        self.hash ^= stone_key(m, cell);
        self.stones += 1;
        self.empties_on_board -= 1;
    }

    #[inline]
    fn remove(&mut self, m: Move) {
        let cell = self.cells[m.idx()];
        self.cells[m.idx()] = Cell::Empty;
        self.flip_keys(m, cell as u32);
        self.bump_near(m, -1);
        self.reach.pop();
        self.hash ^= stone_key(m, cell);
        self.stones -= 1;
        self.empties_on_board += 1;
    }

    #[inline]
    fn extend_reach(&mut self, m: Move) {
        let (x, y) = (m.x(), m.y());
        let near = Reach {
            x0: x.saturating_sub(2) as u8,
            y0: y.saturating_sub(2) as u8,
            x1: (x + 2).min(self.width - 1) as u8,
            y1: (y + 2).min(self.height - 1) as u8,
        };
        let r = match self.reach.last() {
            Some(r) => Reach {
                x0: r.x0.min(near.x0),
                y0: r.y0.min(near.y0),
                x1: r.x1.max(near.x1),
                y1: r.y1.max(near.y1),
            },
            None => near,
        };
        self.reach.push(r);
    }

    /// Columns and rows that hold every square within two squares of a stone (none on an
    /// empty board).
    #[inline]
    pub fn reach(&self) -> Option<Reach> {
        self.reach.last().copied()
    }

    #[inline]
    fn flip_keys(&mut self, m: Move, code: u32) {
        for (d, &step) in DIRS.iter().enumerate() {
            for off in 1..=5isize {
                let fwd = m.offset(off * step).idx();
                self.keys[fwd * 4 + d] ^= code << (2 * key_slot(-off));
                let back = m.offset(-off * step).idx();
                self.keys[back * 4 + d] ^= code << (2 * key_slot(off));
            }
        }
    }

    #[inline]
    fn bump_near(&mut self, m: Move, delta: i8) {
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let i = (m.idx() as isize + dy * STRIDE as isize + dx) as usize;
                self.near[i] = self.near[i].wrapping_add(delta as u8);
            }
        }
    }

    /// Length of the run of `c` through `m` along `step` (counting `m` as `c`) and how many
    /// of its two ends are opponent stones (walls do not block, as in caro).
    pub fn run_through(&self, m: Move, step: isize, c: Color) -> (usize, u8) {
        let own = c.cell();
        let mut len = 1;
        let mut blocked = 0;
        for dir in [step, -step] {
            let mut p = m.offset(dir);
            while self.cells[p.idx()] == own {
                len += 1;
                p = p.offset(dir);
            }
            if self.cells[p.idx()] == c.opp().cell() {
                blocked += 1;
            }
        }
        (len, blocked)
    }

    /// Whether a stone of `c` at `m` (placed or hypothetical) completes a winning line.
    pub fn is_winning_at(&self, m: Move, c: Color) -> bool {
        DIRS.iter().any(|&step| {
            let (len, blocked) = self.run_through(m, step, c);
            self.rule.run_wins(c, len, blocked)
        })
    }

    /// The winner if the last stone completed a winning line.
    pub fn last_move_wins(&self) -> Option<Color> {
        let m = self.last_move()?;
        let c = self.cells[m.idx()].color()?;
        self.is_winning_at(m, c).then_some(c)
    }

    /// All empty squares, row by row.
    pub fn empty_squares(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Move::from_xy(x, y)))
            .filter(move |&m| self.is_empty(m))
    }

    /// Text picture of the board for demos and logs: `X` black, `O` white, `.` empty.
    pub fn to_text(&self) -> String {
        let mut s = String::from("   ");
        for x in 0..self.width {
            s.push_str(&format!("{:>3}", x));
        }
        s.push('\n');
        for y in 0..self.height {
            s.push_str(&format!("{:>3}", y));
            for x in 0..self.width {
                let ch = match self.cell_xy(x, y) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                };
                s.push_str(&format!("{:>3}", ch));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {

    /// The smallest rectangle holding every square with `near > 0`, by scanning.
    fn scanned_reach(b: &Board) -> Option<Reach> {
        let near: Vec<(usize, usize)> = (0..b.height())
            .flat_map(|y| (0..b.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| b.near(Move::from_xy(x, y)) > 0)
            .collect();
        let xs = near.iter().map(|p| p.0 as u8);
        let ys = near.iter().map(|p| p.1 as u8);
        Some(Reach {
            x0: xs.clone().min()?,
            y0: ys.clone().min()?,
            x1: xs.max()?,
            y1: ys.max()?,
        })
    }

    #[test]
    fn reach_bounds_the_squares_near_stones_through_make_and_undo() {
        let mut b = Board::new(17, 12, Rule::Freestyle);
        assert_eq!(b.reach(), None);
        let moves = [(8, 6), (0, 0), (16, 11), (9, 1), (1, 10)];
        let mut seen = vec![b.reach()];
        for (x, y) in moves {
            b.make(Move::from_xy(x, y));
            assert_eq!(b.reach(), scanned_reach(&b), "after {x},{y}");
            seen.push(b.reach());
        }
        assert_eq!(
            b.reach(),
            Some(Reach {
                x0: 0,
                y0: 0,
                x1: 16,
                y1: 11
            })
        );
        while b.undo().is_some() {
            seen.pop();
            assert_eq!(b.reach(), *seen.last().unwrap());
            assert_eq!(b.reach(), scanned_reach(&b));
        }
    }
    use super::*;

    fn play(b: &mut Board, moves: &[(usize, usize)]) {
        for &(x, y) in moves {
            b.make(Move::from_xy(x, y));
        }
    }

    #[test]
    fn make_undo_restores_hash_keys_and_side() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        let fresh = b.clone();
        play(&mut b, &[(7, 7), (8, 8), (0, 0), (14, 14), (7, 8)]);
        assert_ne!(b.hash(), fresh.hash());
        while b.undo().is_some() {}
        assert_eq!(b.hash(), fresh.hash());
        assert_eq!(b.keys, fresh.keys);
        assert_eq!(b.near, fresh.near);
        assert_eq!(b.side_to_move(), Color::Black);
    }

    #[test]
    fn hash_depends_on_position_not_order() {
        let mut a = Board::new(15, 15, Rule::Freestyle);
        let mut b = Board::new(15, 15, Rule::Freestyle);
        play(&mut a, &[(1, 1), (2, 2), (3, 3), (4, 4)]);
        play(&mut b, &[(3, 3), (4, 4), (1, 1), (2, 2)]);
        assert_eq!(a.hash(), b.hash());
    }

    #[test]
    fn incremental_keys_match_rebuild() {
        let mut b = Board::new(9, 7, Rule::Freestyle);
        play(&mut b, &[(0, 0), (8, 6), (4, 3), (4, 4), (5, 3), (3, 2)]);
        let mut fresh = b.clone();
        fresh.rebuild_keys();
        assert_eq!(b.keys, fresh.keys);
    }

    #[test]
    fn five_detection_per_rule() {
        for (rule, six_wins) in [
            (Rule::Freestyle, true),
            (Rule::Standard, false),
            (Rule::Caro, true),
            (Rule::CaroExact, false),
        ] {
            let mut b = Board::new(15, 15, rule);
            for x in [2, 3, 4, 5, 7] {
                b.place(Move::from_xy(x, 7), Color::Black);
            }
            assert!(!b.is_winning_at(Move::from_xy(1, 7), Color::White));
            assert!(
                b.is_winning_at(Move::from_xy(6, 7), Color::Black) == six_wins,
                "{rule:?}"
            );
            assert!(
                b.is_winning_at(Move::from_xy(1, 7), Color::Black),
                "{rule:?}"
            );
        }
    }

    #[test]
    fn exact_five_wins_in_standard_and_edge_counts_as_open_in_caro() {
        let mut b = Board::new(15, 15, Rule::Standard);
        for x in 0..4 {
            b.place(Move::from_xy(x, 0), Color::White);
        }
        assert!(b.is_winning_at(Move::from_xy(4, 0), Color::White));
        let mut c = Board::new(15, 15, Rule::Caro);
        for x in 0..4 {
            c.place(Move::from_xy(x, 0), Color::White);
        }
        c.place(Move::from_xy(5, 0), Color::Black);
        // Edge on the left, black stone on the right: only one end blocked.
        assert!(c.is_winning_at(Move::from_xy(4, 0), Color::White));
    }

    #[test]
    fn caro_five_blocked_both_ends_does_not_win() {
        let mut b = Board::new(15, 15, Rule::Caro);
        b.place(Move::from_xy(7, 1), Color::White);
        for y in 2..6 {
            b.place(Move::from_xy(7, y), Color::Black);
        }
        b.place(Move::from_xy(7, 7), Color::White);
        assert!(!b.is_winning_at(Move::from_xy(7, 6), Color::Black));
    }

    #[test]
    fn diagonal_and_rectangular_board_wins() {
        let mut b = Board::new(20, 6, Rule::Freestyle);
        for i in 0..4 {
            b.place(Move::from_xy(10 + i, 1 + i), Color::White);
        }
        assert!(b.is_winning_at(Move::from_xy(14, 5), Color::White));
        assert!(b.is_winning_at(Move::from_xy(9, 0), Color::White));
        let mut a = Board::new(20, 6, Rule::Freestyle);
        for i in 0..4 {
            a.place(Move::from_xy(5 - i, 1 + i), Color::Black);
        }
        assert!(a.is_winning_at(Move::from_xy(1, 5), Color::Black));
    }
}
