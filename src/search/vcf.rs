//! Victory by continuous fours (VCF): the side to move wins if a chain of fours, each
//! forcing a single block, ends in an open four, a double four or a five.
//!
//! The same search runs at the root (long chains, large budget) and at the leaves of the
//! main search (short chains, a handful of nodes). It allocates nothing: four squares are
//! found by scanning the board for each threat kind, stopping once the evaluator's count
//! of that kind is reached, and a new five square is looked for on the lines of the move
//! that made it.

use super::position::Position;
use super::Search;
use crate::eval::Threat;
use crate::game::{Color, Move, Rule, DIRS};

/// Length of the longest VCF we look for, in attacker moves.
pub const MAX_VCF_DEPTH: u32 = 24;

/// Length of the VCF a leaf of the main search looks for, in attacker moves.
pub const LEAF_VCF_DEPTH: u32 = 3;
/// VCF nodes one leaf may spend.
pub const LEAF_VCF_NODES: u64 = 8;
/// Four squares the side to move needs before a leaf looks for a VCF.
pub const LEAF_VCF_MIN_FOURS: u32 = 3;

/// Entries of the root VCF's table of refuted positions (512 KiB, made per search).
pub const VCF_TABLE_ENTRIES: usize = 1 << 16;
/// An entry: the position's hash above bit 6, bit 6 "cut by depth", bits 0-5 the depth.
const VCF_DEPTH_MASK: u64 = 0x3F;
const VCF_CUT_BIT: u64 = 0x40;
const VCF_LOW_BITS: u64 = 0x7F;

/// Fours, strongest first: open fours and four-threes end the chain soonest.
const FOUR_KINDS: [Threat; 4] = [
    Threat::FlexFour,
    Threat::FourThree,
    Threat::FourPlus,
    Threat::Four,
];

impl Search<'_> {
    /// The first move of the shortest VCF of the side to move within `depth` attacker
    /// moves, if one is found: deepens one move at a time, and stops early once a pass
    /// was never cut short by its depth (a deeper one would find nothing new). The
    /// shortest win is the surest, and the tactics suite (tests/tactics.rs) scores it.
    pub(super) fn shortest_vcf(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        self.shortest(pos, depth, Self::vcf)
    }

    /// Deepens `solve` (a VCF or VCT search) one attacker move at a time up to `depth`.
    pub(super) fn shortest(
        &mut self,
        pos: &mut Position,
        depth: u32,
        solve: fn(&mut Self, &mut Position, u32) -> Option<Move>,
    ) -> Option<Move> {
        for d in 1..=depth {
            self.vcf_depth_cut = false;
            if let Some(m) = solve(self, pos, d) {
                return Some(m);
            }
            if !self.vcf_depth_cut || self.vcf_nodes_left == 0 || self.aborted {
                break;
            }
        }
        None
    }

    /// Whether the side to move has a VCF within `depth` attacker moves. On success the
    /// attacker's first move is returned. At the root a table of refuted positions
    /// (`vcf_refuted`) spares re-searching a position reached by fours in another order:
    /// without it a VCF of 11 fours was out of reach in 100 ms (tests/forced_wins.rs).
    pub(super) fn vcf(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        if self.vcf_refuted.is_empty() || depth < 3 {
            return self.vcf_search(pos, depth);
        }
        let key = pos.hash();
        if let Some(cut) = self.vcf_probe(key, depth) {
            self.vcf_depth_cut |= cut;
            return None;
        }
        let outer_cut = std::mem::replace(&mut self.vcf_depth_cut, false);
        let found = self.vcf_search(pos, depth);
        let cut = self.vcf_depth_cut;
        self.vcf_depth_cut = outer_cut || cut;
        if found.is_none() && self.vcf_nodes_left > 0 && !self.aborted {
            self.vcf_store(key, depth, cut);
        }
        found
    }

    /// A refuted entry for `key` that answers a search of `depth`: its own depth is at
    /// least `depth`, or no line of it was cut by depth (no VCF at any depth). Returns
    /// whether its search was cut by depth.
    fn vcf_probe(&self, key: u64, depth: u32) -> Option<bool> {
        let e = self.vcf_refuted[key as usize & (self.vcf_refuted.len() - 1)];
        let (stored, cut) = ((e & VCF_DEPTH_MASK) as u32, e & VCF_CUT_BIT != 0);
        let same = e & !VCF_LOW_BITS == key & !VCF_LOW_BITS && e != 0;
        (same && (stored >= depth || !cut)).then_some(cut)
    }

    fn vcf_store(&mut self, key: u64, depth: u32, cut: bool) {
        let slot = key as usize & (self.vcf_refuted.len() - 1);
        let cut_bit = if cut { VCF_CUT_BIT } else { 0 };
        self.vcf_refuted[slot] = (key & !VCF_LOW_BITS) | cut_bit | depth as u64;
    }

    fn vcf_search(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        let us = pos.side();
        let them = us.opp();
        if let Some(m) = pos.find_threat(us, Threat::Five) {
            return Some(m);
        }
        if depth <= 1 && pos.eval.count_at_least(us, Threat::Four) > 0 {
            self.vcf_depth_cut = true;
        }
        if depth == 0 || self.vcf_budget_spent() {
            return None;
        }
        // A simple four leaves one five square, which the block takes: with one attacker
        // move left only a double or open four can still win (in renju a four also wins
        // when the block is forbidden to Black, so White keeps every four).
        let block_forbidden = pos.board.rule() == Rule::Renju && us == Color::White;
        let kinds = if depth == 1 && !block_forbidden {
            &FOUR_KINDS[..1]
        } else {
            &FOUR_KINDS[..]
        };
        match pos.eval.count(them, Threat::Five) {
            0 => kinds
                .iter()
                .find_map(|&t| self.first_winning(pos, t, |s, p, m| s.vcf_try(p, m, depth))),
            1 => {
                // We must block their five; that continues the chain only if it is a four.
                let block = five_square(pos, them)?;
                if !pos.is_legal_for(us, block) || !kinds.contains(&pos.threat(us, block)) {
                    return None;
                }
                self.vcf_try(pos, block, depth).then_some(block)
            }
            _ => None,
        }
    }

    /// The first of the side to move's legal squares of threat `t` (in board order) for
    /// which `attempt` succeeds. The scan stops once the evaluator's count of such
    /// squares is used up; each attempt must undo its moves, so the scan sees the same
    /// board throughout.
    pub(super) fn first_winning(
        &mut self,
        pos: &mut Position,
        t: Threat,
        mut attempt: impl FnMut(&mut Self, &mut Position, Move) -> bool,
    ) -> Option<Move> {
        let us = pos.side();
        let mut left = pos.eval.count(us, t);
        let (w, h) = (pos.board.width(), pos.board.height());
        for m in (0..h).flat_map(|y| (0..w).map(move |x| Move::from_xy(x, y))) {
            if left == 0 {
                break;
            }
            if pos.threat(us, m) != t || !pos.is_legal_for(us, m) {
                continue;
            }
            if attempt(self, pos, m) {
                return Some(m);
            }
            left -= 1;
        }
        None
    }

    /// Plays the four `m` and the forced block, then continues the chain.
    fn vcf_try(&mut self, pos: &mut Position, m: Move, depth: u32) -> bool {
        let us = pos.side();
        let them = us.opp();
        self.nodes += 1;
        pos.make(m);
        let wins = if pos.eval.count(them, Threat::Five) > 0 {
            false // the defender completes a five first
        } else if pos.eval.count(us, Threat::Five) >= 2 {
            true // two five squares: one block cannot stop both
        } else {
            match five_square(pos, us) {
                None => false,
                Some(block) if !pos.is_legal_for(them, block) => true,
                Some(block) => {
                    pos.make(block);
                    let r = self.vcf(pos, depth - 1).is_some();
                    pos.undo();
                    r
                }
            }
        };
        pos.undo();
        wins
    }

    pub(super) fn vcf_budget_spent(&mut self) -> bool {
        self.vcf_nodes_left = self.vcf_nodes_left.saturating_sub(1);
        self.vcf_nodes_left == 0 || self.should_stop()
    }
}

/// A square where `c` makes five, if any. A five square is almost always new, made by the
/// last move, so the lines through it are looked at before the whole board.
pub(super) fn five_square(pos: &Position, c: Color) -> Option<Move> {
    if pos.eval.count(c, Threat::Five) == 0 {
        return None;
    }
    if let Some(last) = pos.board.last_move() {
        for step in DIRS {
            for off in (-4isize..=4).filter(|&o| o != 0) {
                // The padding keeps every square within five of a stone inside the array.
                let q = last.offset(off * step);
                if pos.threat(c, q) == Threat::Five {
                    return Some(q);
                }
            }
        }
    }
    pos.find_threat(c, Threat::Five)
}
