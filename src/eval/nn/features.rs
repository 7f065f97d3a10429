//! The network's input: for each square and direction, the canonical index of the line
//! shape through it, seen by the side to move.
//!
//! A shape is the centre (empty, own, opponent) and the four neighbours on each side
//! (empty, own, opponent, wall). Four a side decide every five through the centre; the
//! fifth neighbour of the board's line key is dropped. Past a wall everything counts as
//! wall (blocked squares can leave gaps; the shape cannot see through them), so a side is
//! `j` non-wall cells followed by `4 - j` walls: 1 + 3 + 9 + 27 + 81 = 121 side shapes.
//! A line and its mirror image get one index: `centre * PAIRS + triangle(lo, hi)` over the
//! unordered pair of side shapes, 3 * 121 * 122 / 2 = 22 143 indices, all reachable.

use crate::game::{key_slot, Board, Cell, Color, Move};

/// Cell codes seen by the side to move.
pub const EMPTY: u8 = 0;
pub const OWN: u8 = 1;
pub const OPP: u8 = 2;
pub const WALL: u8 = 3;

/// Neighbours a side that a shape sees.
pub const REACH: usize = 4;
/// Distinct shapes of one side: `sum(3^j, j = 0..=4)`.
pub const SIDES: usize = 121;
/// Unordered pairs of side shapes.
pub const PAIRS: usize = SIDES * (SIDES + 1) / 2;
/// Distinct canonical shapes (centre empty, own or opponent).
pub const SHAPES: usize = 3 * PAIRS;

/// Steps `(dx, dy)` of the four directions, in the order of `game::DIRS`.
pub const DIR_STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Where the side indices with `j` non-wall cells start: `sum(3^i, i < j)`.
const SIDE_START: [usize; REACH + 1] = [0, 1, 4, 13, 40];

/// Dense index of one side, given nearest-first view codes.
pub const fn side_index(cells: [u8; REACH]) -> usize {
    const START: [usize; REACH + 1] = SIDE_START;
    let mut open = 0;
    while open < REACH && cells[open] != WALL {
        open += 1;
    }
    let mut digits = 0;
    let mut k = open;
    while k > 0 {
        k -= 1;
        digits = digits * 3 + cells[k] as usize;
    }
    START[open] + digits
}

/// The view codes of one side, nearest first, from its dense index (`side_index`'s inverse).
pub fn side_cells(index: usize) -> [u8; REACH] {
    let open = (0..=REACH)
        .rev()
        .find(|&j| index >= SIDE_START[j])
        .unwrap_or(0);
    let mut digits = index - SIDE_START[open];
    let mut cells = [WALL; REACH];
    for cell in cells.iter_mut().take(open) {
        *cell = (digits % 3) as u8;
        digits /= 3;
    }
    cells
}

/// A shape's centre code and its two sides (`shape_of_line`'s inverse, up to the mirror).
pub fn shape_cells(shape: usize) -> (u8, [u8; REACH], [u8; REACH]) {
    let centre = (shape / PAIRS) as u8;
    let pair = shape % PAIRS;
    let mut hi = 0;
    while (hi + 1) * (hi + 2) / 2 <= pair {
        hi += 1;
    }
    let lo = pair - hi * (hi + 1) / 2;
    (centre, side_cells(lo), side_cells(hi))
}

/// The canonical index of a line: centre view code (not wall) and both sides nearest-first.
pub fn shape_of_line(centre: u8, left: [u8; REACH], right: [u8; REACH]) -> u16 {
    let (a, b) = (side_index(left), side_index(right));
    let (lo, hi) = (a.min(b), a.max(b));
    let centre = if centre == WALL { EMPTY } else { centre } as usize;
    (centre * PAIRS + hi * (hi + 1) / 2 + lo) as u16
}

/// Side indices of the 8-bit slices of a board line key, per colour to move:
/// `left[color][bits]` for slots of offsets -4..-1, `right[color][bits]` for 1..4.
struct KeyTables {
    left: [[u8; 256]; 2],
    right: [[u8; 256]; 2],
}

const fn view_code(board_code: u32, side: Color) -> u8 {
    match (board_code as u8, side) {
        (1, Color::Black) | (2, Color::White) => OWN,
        (2, Color::Black) | (1, Color::White) => OPP,
        (code, _) => code,
    }
}

/// Built at compile time: a lazily built table cost a synchronised check per lookup.
static KEY_TABLES: KeyTables = key_tables();

const fn key_tables() -> KeyTables {
    let mut t = KeyTables {
        left: [[0; 256]; 2],
        right: [[0; 256]; 2],
    };
    let sides = [Color::Black, Color::White];
    let mut s = 0;
    while s < 2 {
        let side = sides[s];
        let mut bits = 0u32;
        while bits < 256 {
            // Slot k of the left slice holds offset -(4 - k) (slots 1..=4 of the key);
            // slot k of the right slice holds offset k + 1 (slots 5..=8).
            let c = [
                view_code(bits & 3, side),
                view_code((bits >> 2) & 3, side),
                view_code((bits >> 4) & 3, side),
                view_code((bits >> 6) & 3, side),
            ];
            t.left[s][bits as usize] = side_index([c[3], c[2], c[1], c[0]]) as u8;
            t.right[s][bits as usize] = side_index(c) as u8;
            bits += 1;
        }
        s += 1;
    }
    t
}

/// The shape of a board line key (see `game::Board::key`) with the centre `centre`.
#[inline]
pub fn shape_from_key(key: u32, centre: Cell, side: Color) -> u16 {
    debug_assert_eq!(key_slot(-4), 1);
    debug_assert_eq!(key_slot(1), 5);
    let t = &KEY_TABLES;
    let a = t.left[side.idx()][((key >> 2) & 0xFF) as usize] as usize;
    let b = t.right[side.idx()][((key >> 10) & 0xFF) as usize] as usize;
    let (lo, hi) = (a.min(b), a.max(b));
    let centre = match view_code(centre as u32, side) {
        WALL => EMPTY,
        c => c,
    } as usize;
    (centre * PAIRS + hi * (hi + 1) / 2 + lo) as u16
}

/// The shape of square `m` along direction `dir` for `side` to move.
#[inline]
pub fn shape_index(board: &Board, m: Move, dir: usize, side: Color) -> u16 {
    shape_from_key(board.key(m, dir), board.cell(m), side)
}

/// All shapes of a board for the side to move, row-major `y * width + x`.
pub fn board_shapes(board: &Board, out: &mut [[u16; 4]]) {
    let side = board.side_to_move();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let m = Move::from_xy(x, y);
            let s = &mut out[y * board.width() + x];
            for (dir, shape) in s.iter_mut().enumerate() {
                *shape = shape_index(board, m, dir, side);
            }
        }
    }
}

/// All shapes of a plain grid of view codes (row-major), as `board_shapes` computes them.
pub fn grid_shapes(width: usize, height: usize, cells: &[u8], out: &mut [[u16; 4]]) {
    let at = |x: i32, y: i32| {
        if x < 0 || y < 0 || x >= width as i32 || y >= height as i32 {
            WALL
        } else {
            cells[y as usize * width + x as usize]
        }
    };
    for y in 0..height as i32 {
        for x in 0..width as i32 {
            let s = &mut out[y as usize * width + x as usize];
            for (dir, &(dx, dy)) in DIR_STEPS.iter().enumerate() {
                let side = |sign: i32| {
                    let mut c = [WALL; REACH];
                    for (k, cell) in c.iter_mut().enumerate() {
                        let k = k as i32 + 1;
                        *cell = at(x + sign * k * dx, y + sign * k * dy);
                    }
                    c
                };
                s[dir] = shape_of_line(at(x, y), side(-1), side(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::rng::SplitMix64;
    use crate::game::Rule;
    use std::collections::HashMap;

    /// Every line whose walls, if any, are a suffix of each side.
    fn all_lines() -> Vec<(u8, [u8; 4], [u8; 4])> {
        let mut sides = Vec::new();
        for n in 0..256usize {
            let c = [0, 1, 2, 3].map(|k| ((n >> (2 * k)) & 3) as u8);
            let open = c.iter().position(|&x| x == WALL).unwrap_or(4);
            if c[open..].iter().all(|&x| x == WALL) {
                sides.push(c);
            }
        }
        assert_eq!(sides.len(), SIDES);
        let mut lines = Vec::new();
        for centre in [EMPTY, OWN, OPP] {
            for &l in &sides {
                for &r in &sides {
                    lines.push((centre, l, r));
                }
            }
        }
        lines
    }

    fn swap(c: u8) -> u8 {
        match c {
            OWN => OPP,
            OPP => OWN,
            x => x,
        }
    }

    #[test]
    fn indices_are_dense_and_mirror_is_the_only_merge() {
        let mut seen: HashMap<u16, (u8, [u8; 4], [u8; 4])> = HashMap::new();
        for (c, l, r) in all_lines() {
            let i = shape_of_line(c, l, r);
            assert!((i as usize) < SHAPES);
            assert_eq!(i, shape_of_line(c, r, l), "mirror");
            if let Some(&(c2, l2, r2)) = seen.get(&i) {
                let same = (c2, l2, r2) == (c, l, r) || (c2, l2, r2) == (c, r, l);
                assert!(same, "{:?} and {:?} share {i}", (c, l, r), (c2, l2, r2));
            }
            seen.insert(i, (c, l, r));
        }
        assert_eq!(seen.len(), SHAPES, "every index is reachable");
    }

    #[test]
    fn a_cell_past_a_wall_does_not_matter() {
        let a = shape_of_line(OWN, [OWN, WALL, EMPTY, OPP], [EMPTY; 4]);
        let b = shape_of_line(OWN, [OWN, WALL, WALL, WALL], [EMPTY; 4]);
        assert_eq!(a, b);
        let c = shape_of_line(OWN, [OWN, OPP, WALL, WALL], [EMPTY; 4]);
        assert_ne!(a, c);
    }

    /// A random position: `stones` moves at random on an empty board.
    fn random_board(w: usize, h: usize, stones: usize, seed: u64) -> Board {
        let mut rng = SplitMix64::new(seed);
        let mut b = Board::new(w, h, Rule::Freestyle);
        while b.stone_count() < stones {
            let m = Move::from_xy(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
            if b.is_empty(m) {
                b.make(m);
            }
        }
        b
    }

    fn view_grid(b: &Board, side: Color) -> Vec<u8> {
        let mut g = Vec::new();
        for y in 0..b.height() {
            for x in 0..b.width() {
                g.push(view_code(b.cell_xy(x, y) as u32, side));
            }
        }
        g
    }

    #[test]
    fn board_keys_and_plain_grids_give_the_same_shapes() {
        for seed in 0..20 {
            let (w, h) = (7 + seed as usize % 9, 5 + seed as usize % 13);
            let b = random_board(w, h, (w * h) / 3, seed);
            let mut from_board = vec![[0u16; 4]; w * h];
            let mut from_grid = vec![[0u16; 4]; w * h];
            board_shapes(&b, &mut from_board);
            grid_shapes(w, h, &view_grid(&b, b.side_to_move()), &mut from_grid);
            assert_eq!(from_board, from_grid, "seed {seed}");
        }
    }

    #[test]
    fn colour_swap_with_view_swap_keeps_the_index() {
        for (c, l, r) in all_lines().into_iter().step_by(7) {
            // A grid of absolute colours seen by Black equals the swapped grid seen by White:
            // checked through the key tables, which take absolute codes.
            let key = |cells: [u8; 4], right: bool| {
                cells.iter().enumerate().fold(0u32, |k, (i, &v)| {
                    let off = if right {
                        i as isize + 1
                    } else {
                        -(i as isize) - 1
                    };
                    k | (v as u32) << (2 * key_slot(off))
                })
            };
            let cell = |v: u8| match v {
                OWN => Cell::Black,
                OPP => Cell::White,
                _ => Cell::Empty,
            };
            let k = key(l, false) | key(r, true);
            let ks = key(l.map(swap), false) | key(r.map(swap), true);
            let black = shape_from_key(k, cell(c), Color::Black);
            let white = shape_from_key(ks, cell(swap(c)), Color::White);
            assert_eq!(black, white);
            assert_eq!(black, shape_of_line(c, l, r));
        }
    }

    #[test]
    fn relevant_cells_change_the_index() {
        let base = shape_of_line(EMPTY, [OWN, OWN, EMPTY, EMPTY], [OWN, EMPTY, EMPTY, OPP]);
        for k in 0..4 {
            for v in [EMPTY, OWN, OPP] {
                let mut r = [OWN, EMPTY, EMPTY, OPP];
                if r[k] == v {
                    continue;
                }
                r[k] = v;
                let i = shape_of_line(EMPTY, [OWN, OWN, EMPTY, EMPTY], r);
                assert_ne!(i, base, "right cell {k} = {v}");
            }
        }
        let own_centre = shape_of_line(OWN, [OWN, OWN, EMPTY, EMPTY], [OWN, EMPTY, EMPTY, OPP]);
        assert_ne!(own_centre, base);
    }
}
