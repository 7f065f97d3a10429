//! Victory by continuous threats (VCT): the side to move (the attacker) wins if it can
//! keep playing fours and threes, each answered by every defence that could stop it,
//! until it has an open four, a double four or a five.
//!
//! A four's answer is its block. A three's answers are the moves the main search allows
//! against the threat it makes (`movegen::Mode::DefendFour` or `DefendFourThree`): the
//! defender's own fours and the squares on the attacker's lines. That set holds every
//! move that can stop the threat, so a VCT found is a forced win, while a line the
//! search cannot settle within its depth or nodes counts as no win. Renju is left out:
//! Black's threes may be false and White may defend by making a square forbidden.

use super::movegen::{self, Mode, MoveList};
use super::position::Position;
use super::vcf::five_square;
use super::Search;
use crate::eval::Threat;
use crate::game::{Move, Rule};

/// Length of the longest VCT looked for at the root, in attacker moves.
pub const ROOT_VCT_DEPTH: u32 = 10;
/// Defences of one threat beyond which the threat is not followed (a four-three whose
/// defences the move generator cannot narrow gives every move).
const MAX_DEFENCES: usize = 40;

/// Attacking moves, strongest first: a four-three or double three wins unless defended
/// at once; a four costs a single reply.
const ATTACKS: [Threat; 6] = [
    Threat::FourThree,
    Threat::DoubleThree,
    Threat::FourPlus,
    Threat::Flex3Plus,
    Threat::Four,
    Threat::Flex3,
];

impl Search<'_> {
    /// The first move of the shortest VCT of the side to move within `depth` attacker
    /// moves, deepening one move at a time like `shortest_vcf`. None under renju.
    pub(super) fn shortest_vct(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        if pos.board.rule() == Rule::Renju {
            return None;
        }
        self.shortest(pos, depth, Self::vct)
    }

    /// Whether the side to move wins by continuous threats within `depth` attacker moves;
    /// on success the attacker's first move.
    fn vct(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        let us = pos.side();
        let them = us.opp();
        if let Some(m) = pos.find_threat(us, Threat::Five) {
            return Some(m);
        }
        match pos.eval.count(them, Threat::Five) {
            0 => {}
            1 => {
                // The forced block continues the attack only if it is a threat itself.
                let block = five_square(pos, them)?;
                if depth == 0 || !pos.is_legal_for(us, block) {
                    return None;
                }
                return self.vct_try(pos, block, depth).then_some(block);
            }
            _ => return None,
        }
        if let Some(m) = pos.find_threat(us, Threat::FlexFour) {
            return Some(m); // no five of theirs: the open four or double four wins
        }
        if depth == 0 {
            self.vcf_depth_cut |= pos.eval.count_at_least(us, Threat::Flex3) > 0;
            return None;
        }
        if self.vcf_nodes_left == 0 || self.aborted {
            return None;
        }
        for t in ATTACKS {
            if let Some(m) = self.first_winning(pos, t, |s, p, m| s.vct_try(p, m, depth)) {
                return Some(m);
            }
            if self.aborted || self.vcf_nodes_left == 0 {
                return None;
            }
        }
        None
    }

    /// Plays the attacker's `m`; whether every defence then loses.
    fn vct_try(&mut self, pos: &mut Position, m: Move, depth: u32) -> bool {
        if self.vcf_budget_spent() {
            return false;
        }
        self.nodes += 1;
        pos.make(m);
        let wins = self.vct_defend(pos, depth);
        pos.undo();
        wins
    }

    /// The defender to move: whether each of its answers leaves the attacker a VCT
    /// within `depth - 1` more moves.
    fn vct_defend(&mut self, pos: &mut Position, depth: u32) -> bool {
        let def = pos.side();
        let att = def.opp();
        if pos.eval.count(def, Threat::Five) > 0 {
            return false; // the defender completes a five first
        }
        let mode = movegen::mode(pos);
        if mode == Mode::All {
            return false; // no threat: the defender may play anywhere
        }
        if mode == Mode::BlockFive && pos.eval.count(att, Threat::Five) >= 2 {
            return true;
        }
        let mut list = MoveList::new();
        movegen::generate(pos, mode, self.history_of(def), &mut list);
        if list.len() > MAX_DEFENCES {
            return false;
        }
        if list.is_empty() {
            return true; // the only block is forbidden (never outside renju)
        }
        for i in 0..list.len() {
            let d = list.pick(i);
            pos.make(d);
            let refuted = self.vct(pos, depth - 1).is_none();
            pos.undo();
            if refuted {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Color};

    /// Black's two open twos cross at 8,7, where Black makes two open threes; White's
    /// stones sit in the corners, plus `white` elsewhere. Black to move.
    fn crossing_twos(white: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(6, 7), (7, 7), (8, 5), (8, 6)] {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for &(x, y) in [(0, 0), (14, 14), (0, 14), (14, 0)].iter().chain(white) {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(Color::Black);
        b
    }

    /// The VCF's and the VCT's first moves in `b`.
    fn vcf_and_vct(b: &Board) -> (Option<Move>, Option<Move>) {
        let mut pos = Position::new(b);
        Search::unlimited(|search| {
            search.vcf_nodes_left = 100_000;
            let vcf = search.shortest_vcf(&mut pos, 10);
            search.vcf_nodes_left = 100_000;
            (vcf, search.shortest_vct(&mut pos, 6))
        })
    }

    #[test]
    fn a_double_three_wins_by_threats_not_by_fours() {
        let (vcf, vct) = vcf_and_vct(&crossing_twos(&[]));
        assert_eq!(vcf, None);
        assert_eq!(vct, Some(Move::from_xy(8, 7)));
    }

    #[test]
    fn the_defenders_open_four_refutes_the_threes() {
        // White's open three on row 12 becomes an open four against any three of Black's.
        let (vcf, vct) = vcf_and_vct(&crossing_twos(&[(10, 12), (11, 12), (12, 12)]));
        assert_eq!((vcf, vct), (None, None));
    }

    #[test]
    fn renju_is_left_out() {
        let mut b = crossing_twos(&[]);
        b.set_rule(Rule::Renju);
        assert_eq!(vcf_and_vct(&b).1, None);
    }
}
