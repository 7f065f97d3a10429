//! Candidate moves and their order.
//!
//! Threats decide which moves are worth looking at: facing a five we must block it; facing
//! a move that would give the opponent an open four (or two fours) we must either make a
//! four ourselves or play on one of the opponent's four-making squares. Otherwise every
//! empty square near a stone is a candidate, ordered by what it makes for both sides.

use super::position::Position;
use crate::eval::weights::{near_bucket, NEAR_BUCKETS};
use crate::eval::{Pattern, Threat};
use crate::game::{Cell, Color, Move, Rule, CELLS, DIRS, MAX_SIZE};
use std::mem::MaybeUninit;

pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// Moves with their ordering scores. The arrays are left uninitialised: a node builds one
/// on the stack, and zeroing 6 KB there cost more than generating the moves.
/// Invariant: entries `..len` are initialised.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    scores: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
}

/// Which moves a node may consider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The opponent threatens five: only its five squares.
    BlockFive,
    /// The opponent threatens an open four: our fours and the squares where the opponent
    /// would make a four that can stop all its open-four points (see `restrict_to_stops`).
    DefendFour,
    /// The opponent threatens a four-three: our fours and the squares that can spoil one
    /// of its four-three points (see `four_three_defence`). Measured at 100k nodes per
    /// move, 120 games: +26 +/- 60 Elo against the build without it, and 43-77 instead
    /// of 40-79 against Rapfi at 4k nodes.
    DefendFourThree,
    All,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn get(&self, i: usize) -> Move {
        self.moves()[i]
    }
    #[inline]
    pub fn score(&self, i: usize) -> i32 {
        self.scores()[i]
    }
    #[inline]
    pub fn moves(&self) -> &[Move] {
        // SAFETY: entries below `len` are initialised (every write goes through `push`).
        unsafe { &*(&self.moves[..self.len] as *const [MaybeUninit<Move>] as *const [Move]) }
    }
    #[inline]
    fn scores(&self) -> &[i32] {
        // SAFETY: as in `moves`.
        unsafe { &*(&self.scores[..self.len] as *const [MaybeUninit<i32>] as *const [i32]) }
    }
    #[inline]
    fn push(&mut self, m: Move, score: i32) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.scores[self.len] = MaybeUninit::new(score);
        self.len += 1;
    }
    /// Moves `m` to the front with the top score, if present.
    pub fn promote(&mut self, m: Move, score: i32) {
        if let Some(i) = self.moves().iter().position(|&x| x == m) {
            self.scores[i] = MaybeUninit::new(score);
        }
    }
    /// Keeps the moves `keep` accepts, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let (m, score) = (self.get(i), self.score(i));
            if keep(m) {
                self.moves[kept] = MaybeUninit::new(m);
                self.scores[kept] = MaybeUninit::new(score);
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Adds `bonus(m)` to each move's score.
    pub fn add_to_scores(&mut self, bonus: impl Fn(Move) -> i32) {
        for i in 0..self.len {
            let s = self.score(i) + bonus(self.get(i));
            self.scores[i] = MaybeUninit::new(s);
        }
    }

    /// Replaces the list by `scored`, best first (stable, so ties keep the old order).
    pub fn reorder(&mut self, scored: &mut [(i32, Move)]) {
        scored.sort_by_key(|&(s, _)| -s);
        self.len = 0;
        for &(s, m) in scored.iter() {
            self.push(m, s);
        }
    }

    /// Selection sort step: brings the best remaining move to index `i`.
    #[inline]
    pub fn pick(&mut self, i: usize) -> Move {
        // The first of equal scores wins. Two passes: the maximum (a vectorised
        // reduction, no branch per move), then the first move that has it.
        let rest = &self.scores()[i..];
        let top = rest.iter().copied().fold(i32::MIN, i32::max);
        let best = i + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.get(i)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// The node's mode from the opponent's threats.
#[inline]
pub fn mode(pos: &Position) -> Mode {
    let them = pos.side().opp();
    if pos.eval.count(them, Threat::Five) > 0 {
        Mode::BlockFive
    } else if pos.has_legal_threat(them, Threat::FlexFour) {
        Mode::DefendFour
    } else if pos.eval.count(them, Threat::FourThree) > 0
        && (pos.board.rule() != Rule::Renju || them == Color::White)
    {
        // Black's four-three in renju is left out: its three may be false (its four square
        // forbidden), and White may defend by making Black's completion forbidden. White's
        // threats are plain ones, and Black's defence squares are still checked for fouls.
        Mode::DefendFourThree
    } else {
        Mode::All
    }
}

/// Fills `list` with the moves `mode` allows, scored for ordering by `history`.
pub fn generate(pos: &Position, mode: Mode, history: &[i32], list: &mut MoveList) {
    let us = pos.side();
    list.len = 0;
    // Only squares near a stone are candidates, and they all lie inside the reach.
    // Near is the 5x5 square around a stone (`Board::near`); wider neighbourhoods lost,
    // narrower ones played level (journal "Move generation and ordering").
    let Some(r) = pos.board.reach() else {
        return;
    };
    let defence = match mode {
        Mode::DefendFourThree => four_three_defence(pos),
        _ => None,
    };
    if mode == Mode::DefendFourThree && defence.is_none() {
        return generate(pos, Mode::All, history, list);
    }
    let near = Near::new(pos, us);
    // A lone five square is found on the lines of the stone that made it, not by a scan
    // (a third of the search's nodes block a five).
    if mode == Mode::BlockFive {
        if let Some(m) = pos.only_threat(us.opp(), Threat::Five) {
            if pos.board.near(m) != 0 && pos.is_legal_for(us, m) {
                consider(pos, mode, m, None, history, &near, list);
            }
            return;
        }
    }
    // Against an open three, the opponent's open-four points are collected on the way,
    // and the moves that cannot stop them all dropped after.
    let defend_four = mode == Mode::DefendFour;
    let mut stops: Option<SquareSet> = None;
    let width = r.x1 as usize - r.x0 as usize;
    for y in r.y0 as usize..=r.y1 as usize {
        let row = Move::from_xy(r.x0 as usize, y);
        for k in 0..=width {
            let m = row.offset(k as isize);
            if pos.board.near(m) == 0 {
                continue;
            }
            if defend_four && pos.threat(us.opp(), m) == Threat::FlexFour {
                restrict_to_stops(pos, m, &mut stops);
            }
            if pos.is_legal_for(us, m) {
                consider(pos, mode, m, defence.as_ref(), history, &near, list);
            }
        }
    }
    if let Some(stops) = stops {
        list.retain(|m| pos.threat(us, m).is_four() || stops.contains(m));
    }
    if list.is_empty() && mode == Mode::DefendFourThree {
        generate(pos, Mode::All, history, list);
    }
}

/// Adds the candidate `m` to `list`, scored, if `mode` allows it. The scan above walks
/// plain row loops: the chained range iterators it replaced cost 2.7% of the search's
/// instructions (cachegrind, `bench 10`: 8502 -> 8270 a node, same nodes).
#[inline(always)]
fn consider(
    pos: &Position,
    mode: Mode,
    m: Move,
    defence: Option<&SquareSet>,
    history: &[i32],
    near: &Near,
    list: &mut MoveList,
) {
    let us = pos.side();
    let them = us.opp();
    let allowed = match mode {
        Mode::BlockFive => pos.threat(them, m) == Threat::Five,
        Mode::DefendFour => pos.threat(us, m).is_four() || makes_four_for(pos, them, m),
        Mode::DefendFourThree => {
            pos.threat(us, m).is_four() || defence.is_some_and(|d| d.contains(m))
        }
        Mode::All => true,
    };
    if allowed {
        let score = order_score(pos, us, m) + history[m.idx()] + near.score(m);
        list.push(m, score);
    }
}

/// The ordering bonus by distance to the last two moves (`Weights::policy_near`), on
/// when the weights have a policy. Measured with the table, see `order_score`.
struct Near {
    table: [[i16; NEAR_BUCKETS]; 2],
    last: [Option<Move>; 2],
    on: bool,
}

impl Near {
    fn new(pos: &Position, us: Color) -> Near {
        Near {
            table: *pos.eval.policy_near(us),
            last: [pos.board.move_back(1), pos.board.move_back(2)],
            on: pos.eval.has_policy(),
        }
    }

    #[inline]
    fn score(&self, m: Move) -> i32 {
        if !self.on {
            return 0;
        }
        let [opp, own] = self.last.map(|last| near_bucket(last, m));
        (self.table[0][opp] + self.table[1][own]) as i32
    }
}

/// A set of squares as a bitset over the padded board.
struct SquareSet([u64; CELLS.div_ceil(64)]);

impl SquareSet {
    fn new() -> SquareSet {
        SquareSet([0; CELLS.div_ceil(64)])
    }
    #[inline]
    fn insert(&mut self, m: Move) {
        self.0[m.idx() / 64] |= 1 << (m.idx() % 64);
    }
    fn intersect(&self, other: &SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    #[inline]
    fn contains(&self, m: Move) -> bool {
        self.0[m.idx() / 64] & (1 << (m.idx() % 64)) != 0
    }
}

/// Squares that can stop one four-three point `p` of the opponent (a superset of the exact
/// defences): `p` itself; the squares within four of `p` on its four and three lines
/// (they spoil the four or the three); and, for the square `q` where the four would be
/// blocked, the squares on `q`'s lines where we would make a three, so that the forced
/// block becomes a four of ours and gains the tempo back. `None` when the block at `q`
/// already makes a four of ours: then the four-three is no threat and any move may do.
/// The exact set and the intersection over all points played or solved worse (journal
/// "Threat defences").
fn four_three_defence(pos: &Position) -> Option<SquareSet> {
    let us = pos.side();
    let them = us.opp();
    let p = pos.find_threat(them, Threat::FourThree)?;
    let mut set = SquareSet::new();
    set.insert(p);
    for (d, &step) in DIRS.iter().enumerate() {
        let pat = pos.eval.pattern(them, p, d);
        if pat < Pattern::F3 {
            continue;
        }
        for off in (-4isize..=4).filter(|&o| o != 0) {
            let s = p.offset(off * step);
            if pos.board.cell(s) != Cell::Empty {
                continue;
            }
            set.insert(s);
            // A square on the four's line that is itself a four square for them is where
            // the four gets blocked.
            if pat >= Pattern::B4 && pos.eval.pattern(them, s, d) >= Pattern::B4 {
                if pos.threat(us, s).is_four() {
                    return None;
                }
                add_counter_threes(pos, us, s, &mut set);
            }
        }
    }
    Some(set)
}

/// Narrows `stops`, the squares that can stop every open-four point of the opponent seen
/// so far (a superset of the exact defences, our own fours aside; `None` before the first
/// point that counts), to those that can also stop the point `p`: `p` itself and the
/// squares within the pattern table's reach on the lines where `p` makes a four, since a
/// stone elsewhere leaves every line through `p` as it is. Where two points lie on
/// different lines (a double three) only a square on both can help, often none: then the
/// node has our fours alone, and none means it is lost. A point left out only makes the
/// set larger; Black's forbidden points in renju do not count.
/// Against the set it replaced (every square where the opponent would make a four):
/// +0.022 +/- 0.036 a game against Rapfi, `wins` 21 -> 30 of 55 (journal "Threat
/// defences"). Left out, as Rapfi leaves it out: a move that makes no four but readies
/// a VCF of ours, which can also answer an open three.
fn restrict_to_stops(pos: &Position, p: Move, stops: &mut Option<SquareSet>) {
    let them = pos.side().opp();
    if !pos.is_legal_for(them, p) {
        return;
    }
    let reach = pos.eval.reach();
    let mut lines = SquareSet::new();
    lines.insert(p);
    for (d, &step) in DIRS.iter().enumerate() {
        if pos.eval.pattern(them, p, d) >= Pattern::B4 {
            for off in (-reach..=reach).filter(|&o| o != 0) {
                lines.insert(p.offset(off * step));
            }
        }
    }
    *stops = Some(match stops.take() {
        Some(s) => s.intersect(&lines),
        None => lines,
    });
}

/// Adds the squares near `q` on its lines where `us` would make a three or better.
fn add_counter_threes(pos: &Position, us: Color, q: Move, set: &mut SquareSet) {
    for (d, &step) in DIRS.iter().enumerate() {
        for off in (-4isize..=4).filter(|&o| o != 0) {
            let s = q.offset(off * step);
            if pos.board.cell(s) == Cell::Empty && pos.eval.pattern(us, s, d) >= Pattern::B3 {
                set.insert(s);
            }
        }
    }
}

/// Whether `c` playing `m` would make a four on some line.
#[inline]
fn makes_four_for(pos: &Position, c: Color, m: Move) -> bool {
    (0..4).any(|d| pos.eval.pattern(c, m, d) >= Pattern::B4)
}

/// Static ordering score: own threats first, then blocks, then, within a tier, the
/// fitted move-ordering table (`Evaluator::policy`, with `Near` in `generate`), or
/// without one the combined shape value. The table fitted to Rapfi's moves: +0.032 +/-
/// 0.031 a game (about +20 Elo) against Rapfi at 100k / 10k nodes; history carries this
/// ordering, the table alone is weak (journal "Move generation and ordering").
#[inline]
pub fn order_score(pos: &Position, us: Color, m: Move) -> i32 {
    let within = if pos.eval.has_policy() {
        pos.eval.policy(us, m)
    } else {
        shape_value(pos, us, m)
    };
    tier(pos, us, m) * 1000 + within
}

/// Whether a move with `history` counts as quiet (late-move pruning and full reductions
/// apply): its threat tier, shape values and history stay below `QUIET_SCORE`. The
/// threshold was set on the ordering score before the fitted policy and is kept.
/// History counts here and in the ordering (bounded, see `Search::history_gravity`;
/// journal "History").
#[inline]
pub fn is_quiet(pos: &Position, us: Color, m: Move, history: i32) -> bool {
    tier(pos, us, m) * 1000 + shape_value(pos, us, m) + history < QUIET_SCORE
}

/// Moves whose tier, shape value and history reach this make or stop a three or four.
const QUIET_SCORE: i32 = 4_000;

/// Threat tier of `m`: twice the rank of the threat it makes for us, or the rank of the
/// opponent's threat it stops, whichever is higher.
#[inline]
pub(super) fn tier(pos: &Position, us: Color, m: Move) -> i32 {
    let attack = pos.threat(us, m).order_rank() * 2;
    let defence = pos.threat(us.opp(), m).order_rank();
    attack.max(defence)
}

#[inline]
fn shape_value(pos: &Position, us: Color, m: Move) -> i32 {
    pos.eval.value(us, m) * 2 + pos.eval.value(us.opp(), m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Rule};

    /// White's closed three on row 7 (Black at 4,7) and open two on column 8 meet at 8,7:
    /// White playing there makes a four and an open three. Black to move.
    fn four_three_position(rule: Rule) -> Position {
        let mut b = Board::new(15, 15, rule);
        for (x, y) in [(4, 7), (0, 0), (14, 14), (0, 14)] {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(5, 7), (6, 7), (7, 7), (8, 5), (8, 6)] {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(Color::Black);
        Position::new(&b)
    }

    fn moves(pos: &Position, mode: Mode) -> Vec<(usize, usize)> {
        let mut list = MoveList::new();
        generate(pos, mode, &[0; CELLS], &mut list);
        (0..list.len())
            .map(|i| (list.get(i).x(), list.get(i).y()))
            .collect()
    }

    /// `pick` is a selection sort step in which the first of equal scores wins: the same
    /// order as the one-pass scan it replaced, on lists full of ties.
    #[test]
    fn pick_takes_the_first_of_equal_scores_as_a_one_pass_scan_does() {
        let mut rng = crate::data::rng::SplitMix64::new(63);
        for len in [1, 2, 3, 17, 64, 200] {
            let mut list = MoveList::new();
            let mut reference = Vec::new();
            for k in 0..len {
                let score = (rng.next_u64() % 7) as i32 - 3;
                let m = Move::from_xy(k % 20, k / 20);
                list.push(m, score);
                reference.push((m, score));
            }
            for i in 0..len {
                let (mut best, mut top) = (i, reference[i].1);
                for (j, &(_, s)) in reference.iter().enumerate().skip(i + 1) {
                    if s > top {
                        (best, top) = (j, s);
                    }
                }
                reference.swap(i, best);
                assert_eq!(list.pick(i), reference[i].0, "len {len}, pick {i}");
                assert_eq!(list.score(i), reference[i].1);
            }
        }
    }

    #[test]
    fn a_four_three_threat_restricts_the_defence() {
        let pos = four_three_position(Rule::Freestyle);
        assert_eq!(
            pos.threat(Color::White, Move::from_xy(8, 7)),
            Threat::FourThree
        );
        assert_eq!(mode(&pos), Mode::DefendFourThree);
        let defence = moves(&pos, Mode::DefendFourThree);
        let all = moves(&pos, Mode::All);
        // The four-three point, both ends of the column three and the far block of the row.
        for sq in [(8, 7), (8, 4), (8, 8), (9, 7)] {
            assert!(defence.contains(&sq), "{sq:?} missing from {defence:?}");
        }
        // A square on no line of 8,7 or of the row's five square is no defence.
        assert!(all.contains(&(3, 9)) && !defence.contains(&(3, 9)));
        assert!(
            defence.len() < all.len() / 2,
            "{} of {}",
            defence.len(),
            all.len()
        );
    }

    #[test]
    fn an_open_three_is_answered_at_its_ends_or_by_a_four() {
        // White: an open three on row 7 (6..8,7) with room on both sides, and a closed
        // three on column 2 (Black at 2,9). Black: three stones at the edge of row 12,
        // with fours at 3,12 and 4,12. Black to move.
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(2, 9), (0, 12), (1, 12), (2, 12), (14, 0)] {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(6, 7), (7, 7), (8, 7), (2, 5), (2, 6), (2, 8)] {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(Color::Black);
        let pos = Position::new(&b);
        assert_eq!(mode(&pos), Mode::DefendFour);
        let mut defence = moves(&pos, Mode::DefendFour);
        defence.sort();
        assert_eq!(defence, [(3, 12), (4, 12), (5, 7), (9, 7)]);
        // The squares that make a White four but stop nothing: one further out on the
        // row (White then opens the four on the other side) and the closed three's.
        for (x, y) in [(4, 7), (10, 7), (2, 7), (2, 4)] {
            assert!(makes_four_for(&pos, Color::White, Move::from_xy(x, y)));
        }
        assert!(moves(&pos, Mode::All).contains(&(4, 7)));
    }

    #[test]
    fn renju_restricts_black_against_whites_four_three_only() {
        let pos = four_three_position(Rule::Renju);
        assert_eq!(mode(&pos), Mode::DefendFourThree);
        assert_eq!(
            moves(&pos, Mode::DefendFourThree),
            moves(&four_three_position(Rule::Freestyle), Mode::DefendFourThree)
        );
        // The same shape with the colours swapped: White keeps every move.
        let mut b = Board::new(15, 15, Rule::Renju);
        for (x, y) in [(5, 7), (6, 7), (7, 7), (8, 5), (8, 6)] {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for (x, y) in [(4, 7), (0, 0), (14, 14), (0, 14)] {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(Color::White);
        let pos = Position::new(&b);
        assert_eq!(
            pos.threat(Color::Black, Move::from_xy(8, 7)),
            Threat::FourThree
        );
        assert_eq!(mode(&pos), Mode::All);
    }
}
