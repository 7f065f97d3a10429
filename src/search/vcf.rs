//! Victory by continuous fours (VCF): the side to move wins if a chain of fours, each
//! forcing a single block, ends in an open four, a double four or a five.

use super::movegen::MAX_MOVES;
use super::position::Position;
use super::Search;
use crate::eval::Threat;
use crate::game::Move;

/// Length of the longest VCF we look for, in attacker moves.
pub const MAX_VCF_DEPTH: u32 = 24;

impl Search<'_> {
    /// Whether the side to move has a VCF within `depth` attacker moves. On success the
    /// attacker's first move is returned.
    pub(super) fn vcf(&mut self, pos: &mut Position, depth: u32) -> Option<Move> {
        let us = pos.side();
        let them = us.opp();
        if let Some(m) = pos.find_threat(us, Threat::Five) {
            return Some(m);
        }
        if depth == 0 || self.vcf_budget_spent() {
            return None;
        }
        let mut fours = [Move::NONE; MAX_MOVES];
        let mut n = 0;
        match pos.eval.count(them, Threat::Five) {
            0 => {
                // Strongest fours first: open fours and four-threes end the chain soonest.
                for t in [
                    Threat::FlexFour,
                    Threat::FourThree,
                    Threat::FourPlus,
                    Threat::Four,
                ] {
                    if pos.eval.count(us, t) == 0 {
                        continue;
                    }
                    for m in pos.board.empty_squares() {
                        if pos.threat(us, m) == t {
                            fours[n] = m;
                            n += 1;
                        }
                    }
                }
            }
            1 => {
                // We must block their five; that continues the chain only if it is a four.
                let block = pos.find_threat(them, Threat::Five)?;
                if !pos.is_legal_for(us, block) || !pos.threat(us, block).is_four() {
                    return None;
                }
                fours[0] = block;
                n = 1;
            }
            _ => return None,
        }
        fours[..n]
            .iter()
            .copied()
            .find(|&m| self.vcf_try(pos, m, depth))
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
            match pos.find_threat(us, Threat::Five) {
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

    fn vcf_budget_spent(&mut self) -> bool {
        self.vcf_nodes_left = self.vcf_nodes_left.saturating_sub(1);
        self.vcf_nodes_left == 0 || self.should_stop()
    }
}
