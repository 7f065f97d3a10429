//! Candidate moves and their order.
//!
//! Threats decide which moves are worth looking at: facing a five we must block it; facing
//! a move that would give the opponent an open four (or two fours) we must either make a
//! four ourselves or play on one of the opponent's four-making squares. Otherwise every
//! empty square near a stone is a candidate, ordered by what it makes for both sides.

use super::position::Position;
use crate::eval::{Pattern, Threat};
use crate::game::{Color, Move, MAX_SIZE};
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
    /// The opponent threatens an open four: our fours and squares on its four lines.
    DefendFour,
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
    fn moves(&self) -> &[Move] {
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
        let scores = self.scores();
        let mut best = i;
        for j in i + 1..self.len {
            if scores[j] > scores[best] {
                best = j;
            }
        }
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
    } else if pos.eval.count(them, Threat::FlexFour) > 0 {
        Mode::DefendFour
    } else {
        Mode::All
    }
}

/// Fills `list` with the moves `mode` allows, scored for ordering by `history`.
pub fn generate(pos: &Position, mode: Mode, history: &[i32], list: &mut MoveList) {
    let us = pos.side();
    let them = us.opp();
    list.len = 0;
    // Only squares near a stone are candidates, and they all lie inside the reach.
    let Some(r) = pos.board.reach() else {
        return;
    };
    let (xs, ys) = (r.x0 as usize..=r.x1 as usize, r.y0 as usize..=r.y1 as usize);
    for m in ys.flat_map(|y| xs.clone().map(move |x| Move::from_xy(x, y))) {
        if pos.board.near(m) == 0 || !pos.is_legal_for(us, m) {
            continue;
        }
        let allowed = match mode {
            Mode::BlockFive => pos.threat(them, m) == Threat::Five,
            Mode::DefendFour => pos.threat(us, m).is_four() || makes_four_for(pos, them, m),
            Mode::All => true,
        };
        if allowed {
            list.push(m, order_score(pos, us, m) + history[m.idx()]);
        }
    }
}

/// Whether `c` playing `m` would make a four on some line.
#[inline]
fn makes_four_for(pos: &Position, c: Color, m: Move) -> bool {
    (0..4).any(|d| pos.eval.pattern(c, m, d) >= Pattern::B4)
}

/// Static ordering score: own threats first, then blocks, then combined shape value.
#[inline]
pub fn order_score(pos: &Position, us: Color, m: Move) -> i32 {
    let them = us.opp();
    let attack = threat_rank(pos.threat(us, m)) * 2;
    let defence = threat_rank(pos.threat(them, m));
    attack.max(defence) * 1000 + pos.eval.value(us, m) * 2 + pos.eval.value(them, m)
}

#[inline]
fn threat_rank(t: Threat) -> i32 {
    match t {
        Threat::Five => 60,
        Threat::FlexFour => 30,
        Threat::FourThree => 20,
        Threat::DoubleThree => 8,
        Threat::FourPlus | Threat::Flex3Plus => 4,
        Threat::Four | Threat::Flex3 => 2,
        Threat::None | Threat::Forbidden => 0,
    }
}
