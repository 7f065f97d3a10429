//! Fitting the move-ordering table (`Weights::policy`) to a stronger player's moves.
//!
//! In every position of the games where a chosen player (the teacher) is to move and
//! nothing is forced, each candidate square (empty, near a stone, not forbidden) scores
//! `policy[OWN][its key for the side to move] + policy[OPP][its key for the opponent]`,
//! the keys being the squares' sorted four line patterns (`combo_key`). The fit is a
//! softmax regression: it maximises the likelihood of the teacher's moves (full-batch
//! Adam, with a prior pulling each value to 0).

use crate::games::Game;
use fivefold::eval::weights::{near_bucket, NEAR_BUCKETS};
use fivefold::eval::{combo_key, Evaluator, Threat, COMBINATIONS};
use fivefold::game::{Board, Color, Move, Rule};

/// One candidate square: its keys for the side to move and for the opponent, its threat
/// tier as the search orders moves, and the search's static ordering score before a policy.
#[derive(Clone, Copy)]
struct Candidate {
    own: u16,
    opp: u16,
    tier: i32,
    old: i32,
    /// Distance buckets (`Move::distance`, capped) to the opponent's last move and to ours.
    near_opp: u8,
    near_own: u8,
}

/// Positions as runs of candidates.
#[derive(Default)]
pub struct PolicyData {
    cands: Vec<Candidate>,
    /// Where each position's candidates start (one more entry at the end).
    start: Vec<usize>,
    /// The teacher's move, as an index into `cands`.
    target: Vec<usize>,
}

impl PolicyData {
    pub fn positions(&self) -> usize {
        self.target.len()
    }

    /// Adds the teacher's positions of `game` from ply `first` on; `teacher[c]` tells
    /// whether colour `c` (by `Color::idx`) is the teacher.
    pub fn add_game(&mut self, game: &Game, rule: Rule, first: usize, teacher: [bool; 2]) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let mut board = Board::new(game.size, game.size, rule);
        let mut eval = Evaluator::new(&board);
        for (ply, &(x, y)) in game.moves.iter().enumerate() {
            let m = Move::from_xy(x, y);
            let us = board.side_to_move();
            if ply >= first && teacher[us.idx()] && unforced(&eval, us) {
                self.add_position(&board, &eval, us, m);
            }
            if !board.is_empty(m) {
                return;
            }
            board.make(m);
            eval.after_place(&board, m);
        }
    }

    fn add_position(&mut self, board: &Board, eval: &Evaluator, us: Color, played: Move) {
        let them = us.opp();
        let first = self.cands.len();
        let mut target = None;
        for m in board.empty_squares() {
            if board.near(m) == 0 || eval.threat(us, m) == Threat::Forbidden {
                continue;
            }
            if m == played {
                target = Some(self.cands.len());
            }
            let key = |c: Color| combo_key([0, 1, 2, 3].map(|d| eval.pattern(c, m, d))) as u16;
            let tier = (eval.threat(us, m).order_rank() * 2).max(eval.threat(them, m).order_rank());
            let near = |k: usize| near_bucket(board.move_back(k), m) as u8;
            self.cands.push(Candidate {
                own: key(us),
                opp: key(them),
                near_opp: near(1),
                near_own: near(2),
                tier,
                old: tier * 1000 + eval.value(us, m) * 2 + eval.value(them, m),
            });
        }
        match target {
            Some(t) => {
                self.target.push(t);
                self.start.push(self.cands.len());
            }
            None => self.cands.truncate(first),
        }
    }
}

/// Nothing forced: no five to make or block, no open four or four-three to meet, and we
/// cannot make an open four (the move would be plain).
fn unforced(e: &Evaluator, us: Color) -> bool {
    let them = us.opp();
    e.count(us, Threat::Five) == 0
        && e.count(them, Threat::Five) == 0
        && e.count(us, Threat::FlexFour) == 0
        && e.count(them, Threat::FlexFour) == 0
        && e.count(them, Threat::FourThree) == 0
}

/// The policy values: `[OWN, OPP]`, each indexed by `combo_key`, then by distance bucket
/// to the opponent's last move and to our last move.
pub type Policy = [Vec<f64>; 4];

pub fn zero() -> Policy {
    [
        vec![0.0; COMBINATIONS],
        vec![0.0; COMBINATIONS],
        vec![0.0; NEAR_BUCKETS],
        vec![0.0; NEAR_BUCKETS],
    ]
}

/// Mean negative log-likelihood of the teacher's moves under `p`.
pub fn loss(d: &PolicyData, p: &Policy) -> f64 {
    let mut total = 0.0;
    for (i, &t) in d.target.iter().enumerate() {
        let cs = &d.cands[d.start[i]..d.start[i + 1]];
        let s: Vec<f64> = cs.iter().map(|c| score(p, c)).collect();
        let max = s.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = s.iter().map(|v| (v - max).exp()).sum();
        total += max + z.ln() - s[t - d.start[i]];
    }
    total / d.positions().max(1) as f64
}

#[inline]
fn score(p: &Policy, c: &Candidate) -> f64 {
    p[0][c.own as usize]
        + p[1][c.opp as usize]
        + p[2][c.near_opp as usize]
        + p[3][c.near_own as usize]
}

/// Fits `p` by full-batch Adam; `prior` is the L2 pull to 0 in positions' worth.
pub fn fit(
    d: &PolicyData,
    p: &mut Policy,
    iterations: usize,
    lr: f64,
    prior: f64,
    report: impl Fn(usize, &Policy),
) {
    let n = d.positions().max(1) as f64;
    let mut m = zero();
    let mut v = zero();
    let mut grad = zero();
    let mut s = Vec::new();
    for it in 1..=iterations {
        for g in grad.iter_mut() {
            g.iter_mut().for_each(|x| *x = 0.0);
        }
        for (i, &t) in d.target.iter().enumerate() {
            let cs = &d.cands[d.start[i]..d.start[i + 1]];
            s.clear();
            s.extend(cs.iter().map(|c| score(p, c)));
            let max = s.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = s.iter().map(|v| (v - max).exp()).sum();
            for (k, c) in cs.iter().enumerate() {
                let prob = (s[k] - max).exp() / z;
                let g = prob - (k == t - d.start[i]) as u8 as f64;
                grad[0][c.own as usize] += g;
                grad[1][c.opp as usize] += g;
                grad[2][c.near_opp as usize] += g;
                grad[3][c.near_own as usize] += g;
            }
        }
        for r in 0..4 {
            for j in 0..p[r].len() {
                let g = grad[r][j] / n + prior / n * p[r][j];
                if g == 0.0 {
                    continue;
                }
                m[r][j] = 0.9 * m[r][j] + 0.1 * g;
                v[r][j] = 0.999 * v[r][j] + 0.001 * g * g;
                let mh = m[r][j] / (1.0 - 0.9f64.powi(it as i32));
                let vh = v[r][j] / (1.0 - 0.999f64.powi(it as i32));
                p[r][j] -= lr * mh / (vh.sqrt() + 1e-8);
            }
        }
        report(it, p);
    }
}

/// How often the teacher's move is first and in the first three, and its mean rank, when
/// candidates are ordered by `key` (ties count against the move).
pub fn accuracy(d: &PolicyData, key: impl Fn(usize) -> f64) -> (f64, f64, f64) {
    let (mut top1, mut top3, mut rank) = (0usize, 0usize, 0usize);
    for (i, &t) in d.target.iter().enumerate() {
        let kt = key(t);
        let r = (d.start[i]..d.start[i + 1])
            .filter(|&j| j != t && key(j) >= kt)
            .count();
        top1 += (r == 0) as usize;
        top3 += (r < 3) as usize;
        rank += r;
    }
    let n = d.positions().max(1) as f64;
    (top1 as f64 / n, top3 as f64 / n, rank as f64 / n)
}

/// The static ordering before a policy, per candidate index.
pub fn old_order(d: &PolicyData, j: usize) -> f64 {
    d.cands[j].old as f64
}

/// The threat tier times `tier_scale` plus the policy times `scale`.
pub fn new_order(d: &PolicyData, p: &Policy, j: usize, tier_scale: f64, scale: f64) -> f64 {
    let c = &d.cands[j];
    c.tier as f64 * tier_scale + scale * score(p, c)
}

/// The scale that gives the policy scores the standard deviation, over all candidates, of
/// the shape values the search ordered by before (the ordering score without its tier).
pub fn matching_scale(d: &PolicyData, p: &Policy) -> f64 {
    let sd = |xs: &mut dyn Iterator<Item = f64>| {
        let (mut n, mut s, mut s2) = (0.0, 0.0, 0.0);
        for x in xs {
            n += 1.0;
            s += x;
            s2 += x * x;
        }
        (s2 / n - (s / n) * (s / n)).max(0.0).sqrt()
    };
    let old = sd(&mut d.cands.iter().map(|c| (c.old - c.tier * 1000) as f64));
    let new = sd(&mut d.cands.iter().map(|c| score(p, c)));
    if new > 0.0 {
        old / new
    } else {
        1.0
    }
}

/// Percentiles (10, 25, 50, 75, 90) of the policy score over all candidates and over the
/// teacher's moves: where a search might cut reductions or prune.
pub fn percentiles(d: &PolicyData, p: &Policy) -> [[f64; 5]; 2] {
    let pick = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        [0.1, 0.25, 0.5, 0.75, 0.9].map(|q| v[((v.len() - 1) as f64 * q) as usize])
    };
    let all = d.cands.iter().map(|c| score(p, c)).collect();
    let chosen = d.target.iter().map(|&t| score(p, &d.cands[t])).collect();
    [pick(all), pick(chosen)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black builds a line on row 7 and White answers far away: every black move extends
    /// Black's own shape next to its last stone.
    fn game() -> Game {
        let moves = vec![
            (7, 7),
            (2, 2),
            (8, 7),
            (12, 2),
            (9, 7),
            (2, 12),
            (6, 9),
            (12, 12),
            (10, 9),
            (1, 1),
        ];
        Game {
            size: 15,
            black_score: 1.0,
            opening: None,
            moves,
        }
    }

    #[test]
    fn teacher_positions_are_unforced_and_hold_the_move_played() {
        let mut d = PolicyData::default();
        d.add_game(&game(), Rule::Freestyle, 1, [true, false]);
        // Black's moves at plies 2, 4, 6, 8; from ply 6 on Black's open three 7,7 8,7
        // 9,7 can become an open four, so those positions are left out.
        assert_eq!(d.positions(), 2);
        for (i, &t) in d.target.iter().enumerate() {
            assert!((d.start[i]..d.start[i + 1]).contains(&t));
        }
        let mut white = PolicyData::default();
        white.add_game(&game(), Rule::Freestyle, 1, [false, true]);
        // White's moves are far from every stone, so not among the candidates: left out.
        assert_eq!(white.positions(), 0);
    }

    #[test]
    fn fitting_raises_the_likelihood_of_the_teachers_moves() {
        let mut d = PolicyData::default();
        for _ in 0..3 {
            d.add_game(&game(), Rule::Freestyle, 1, [true, true]);
        }
        let mut p = zero();
        let before = loss(&d, &p);
        fit(&d, &mut p, 100, 0.1, 1.0, |_, _| {});
        let after = loss(&d, &p);
        assert!(after < before * 0.7, "{before} -> {after}");
        let (top1, _, _) = accuracy(&d, |j| new_order(&d, &p, j, 0.0, 1.0));
        assert!(top1 >= 0.5, "{top1}");
    }
}
