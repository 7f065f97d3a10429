//! Principal-variation alpha-beta with a transposition table, threat-restricted moves,
//! forced-block extensions and late-move reductions.

use super::movegen::{self, Mode, MoveList};
use super::position::Position;
use super::tt::{Bound, TtEntry};
use super::{vcf, Search, MAX_PLY, WIN, WIN_BOUND};
use crate::eval::Threat;
use crate::game::{Move, CELLS};

const INF: i32 = WIN + 1;
/// Aspiration windows from this depth, this wide at first (see `aspiration`).
const ASPIRATION_DEPTH: i32 = 5;
const ASPIRATION_DELTA: i32 = 64;
/// Moves of one node whose history a result updates (the rest keep theirs).
const MAX_SEARCHED: usize = 64;
/// History entries stay within +/- this (Rapfi's 10692 on its scale, divided by 5 to
/// span about our old 0-2000 in the ordering).
const HISTORY_RANGE: i32 = 10_692 / 5;

/// History change for the best move of a node searched at `depth` (Rapfi's curve / 5).
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (25 * depth * depth + 105 * depth - 157).min(8_927) / 5
}

/// Ordering scores from this on belong to the hash move and the killers.
const PROMOTED_SCORE: i32 = 1 << 27;

/// Reverse futility: a node this shallow whose static evaluation beats beta by the
/// margin per ply of depth is cut without search. With the fitted evaluation, at 100k
/// nodes a move: 95-24-1 (+236 +/- 77) against Rapfi at 4k nodes where the build
/// without it scores 89-31-0 (+183 +/- 69); 34-23-2 against that build (59 games).
/// (With the hand-set evaluation and margin 300 it lost: 31-81 against Rapfi.)
/// Margin 150, 2026-11-24 (100k / 10k nodes, 420 games on the fresh 15x15 set c, paired
/// with this build): +0.010 +/- 0.058, within noise; kept at 200.
/// To depth 5, 2026-11-24 (Fivefold 300k / Rapfi 30k nodes, paired with this build):
/// +0.036 +/- 0.059 (420 games, fresh 15x15 set c) and -0.007 +/- 0.061 (420, fresh
/// 15x15 set d), about +0.015 +/- 0.043 pooled; at 100k / 10k -0.007 and -0.006 (828
/// games). Not kept. Rapfi's shape, margin 250 * (depth - 1 - improving) (none at depth
/// 1), same session and settings: +0.005 +/- 0.066 (420 games, set d). Not kept.
/// To depth 5 together with the PV hash-depth reduction (see Step 3) and the skip of
/// late threat moves at depth 1-2 (see the move-count limit), 2026-11-25 at 300k / 310k
/// nodes (bench 39367, branch `combo`): -0.005 and -0.006 +/- 0.036 (420 games each,
/// 15x15 set a, paired with the mean of four base runs). Not kept.
/// 2026-11-26 at 300k / 30k nodes, paired with the mean of two base runs (200 games
/// each, README "The swap turned round"): no futility at all (bench 69038) -0.071 +/-
/// 0.073; Rapfi's futility in its place (every depth and node but a five block, margin
/// 257 x (depth - 1 - improving)) -0.186 +/- 0.068, and -0.076 +/- 0.080 together with
/// Rapfi's reductions, history rule and pruning scope. Kept as it is. To depth 5 at 1M /
/// 100k nodes (2026-11-26, session 25; bench 37564), paired with this build: 102-92-6,
/// -0.007 +/- 0.082. Not kept.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 200;

/// Natural logarithms of 0..256 (0 for 0), for the reduction formula.
static LN: std::sync::LazyLock<[f32; 256]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|i| (i.max(1) as f32).ln()));

/// How many moves a non-PV node searches before it skips the quiet ones: 3 + depth^1.32
/// moves, half as many when the static evaluation has not improved on ours two plies
/// up. Together with the reductions below (measured as one change, see `reduction`).
/// Three quarters as many, 2026-11-24 (100k / 10k nodes, 420 games on the fresh 15x15
/// set c, paired with this build): -0.008 +/- 0.055.
#[inline]
fn late_move_limit(depth: i32, improving: bool) -> usize {
    static LIMIT: std::sync::LazyLock<[i32; MAX_PLY]> =
        std::sync::LazyLock::new(|| std::array::from_fn(|d| 3 + (d as f64).powf(1.32) as i32));
    let count = LIMIT[depth.clamp(0, MAX_PLY as i32 - 1) as usize];
    (count / (2 - improving as i32) - 1).max(0) as usize
}

/// Late-move reduction of the `i`-th move (from 0) at `depth`: ln(depth) * ln(i + 1),
/// rounded; one ply less at PV nodes, one more at a node whose evaluation is not
/// improving. Moves that make or stop a three or four get one ply less (see `pvs`).
/// With the move-count limit above and reductions at the root, at fixed nodes against
/// Rapfi (Fivefold 300k, Rapfi 30k, 120 games): 57-61-2 on 15x15 where the build before
/// scored 35-83-2 (+0.18 +/- 0.09 points a game paired by opening) and 72-48-0 on 20x20
/// (was 57-63-0); against that build at 300k nodes each, 66-44-10 (+64 +/- 52 Elo);
/// standard and renju at 100k, 72-41-7 and 69-48-3. Rapfi at 100 ms against this at
/// 1000 ms on 15x15: 40-58-2 (the build before: 35-65-0 on a loaded machine).
/// Tried on top, each within noise or worse at 300k/30k: reductions x1.25 and x0.8,
/// two plies less for threat moves, history-adjusted reductions, razoring into the
/// leaf below alpha - 150 * depth, reverse futility to depth 6 with "improving".
/// Tried on 2026-11-23, paired by opening against this build (points a game, Rapfi 30k,
/// Fivefold 300k, 15x15), none merged: one more ply at cut nodes for non-killers +0.07 on
/// the suite, +0.02 +/- 0.06 on 420 mirrored openings and +0.02 +/- 0.05 on 420 at
/// 100k/10k (about +15 Elo if real; 840 games do not show it);
/// singular extension (depth 7, margin 8 a ply) +0.06, +0.03 and -0.02 +/- 0.05 there,
/// and again on 2026-11-24 (100k / 10k, 420 games on the fresh 15x15 set c, with the
/// cut-node reduction) -0.005 +/- 0.056, with margin 16 a ply -0.052 +/- 0.057 (it
/// multiplies the nodes of a fixed-depth search by two to four); at 1M / 100k nodes
/// (2026-11-26, session 24; margin 8 a ply, hash entry at most two plies shallower and
/// not an upper bound, multi-cut at the singular beta; bench 12 nodes 1.37M -> 2.50M)
/// 97-92-11, -0.020 +/- 0.078 paired with this build's run there, and on openings
/// 101-200 (session 26) 46-50-4, -0.011 +/- 0.118 over 44 pairs (stopped);
/// fail-high reduction at cut nodes -0.01; the hash score as the pruning evaluation
/// -0.05; internal iterative reduction -0.03 (at 1M / 100k nodes on 2026-11-27, a PV
/// or expected cut node from depth 6 with no hash move a ply shallower, +0.045 +/-
/// 0.072 and +0.033 +/- 0.068 against the build before aspiration windows; on top of
/// them (bench 12 nodes 1.18M -> 1.09M, session 29) 81-42-7 (0.650) and 72-50-7
/// (0.585) on openings 1-100 and 101-200, -0.021 +/- 0.059 over 128 pairs paired with
/// the mean of two runs of this build, stopped; not kept); a four-only quiescence at the
/// horizon (four fours) in place of the leaf VCF -0.06 (each +/- about 0.1, 107-120 games).
/// Tried on 2026-11-23 with the fitted move ordering, Fivefold 100k / Rapfi 10k nodes,
/// 420 games on the 15x15 set the ordering was adopted on, paired with this build
/// (points a game, +/- 0.05 to 0.06): the full reduction for threat moves too -0.033;
/// one to three more plies for quiet moves 3, 4.5 and 6 nats below the best quiet
/// move's ordering score -0.045; a counter-move promoted beside the killers -0.021
/// (and on 2026-11-25 a continuation history, a cutoff's depth^2 by the opponent's last
/// move and our reply added to the ordering, -0.017 +/- 0.034 at 300k / 30k, 420 games);
/// history at a quarter of its weight in ordering and quietness -0.014; a quarter more
/// quiet moves before late-move pruning -0.012 (383 games); late-move pruning of threat
/// moves too -0.08 (152 games, stopped). Every one came out below; part of that may be
/// the adoption's luck on these openings, so the next trials should use fresh ones.
/// Adopted on 2026-11-24: one more ply for quiet moves at expected cut nodes (`pvs`'s
/// `Node::Cut`), 100k / 10k nodes paired with the build before:
/// +0.044 +/- 0.054 (420 games, fresh 15x15 set c) and +0.012 +/- 0.054 (410, fresh 20x20
/// set c); earlier runs of the same idea +0.02 +/- 0.06 and +0.02 +/- 0.05 (420 each).
/// Every run came out positive: about +0.025 +/- 0.027 a game pooled, some +15 Elo.
/// These reductions in Rapfi's search in place of its own (Rapfi against itself at 30k
/// nodes, 200 games, 2026-11-25): -65 +/- 42 Elo; with Rapfi's extras added, or with
/// threat moves reduced as fully as quiet ones, about -18 (README "Where the games are
/// lost"). Rapfi's reductions here, rounded to whole plies (every move from the second,
/// its extras, history +0.27 - h/4000; bench 41925), at 300k / 30k nodes against Rapfi
/// paired with this build: -0.022 +/- 0.089 (200 games); with threat moves one ply less
/// as now, -0.033 +/- 0.081; together with Rapfi's move-count pruning scope, about
/// -0.17 (51 games, stopped). Not kept. Against the mean of two base runs (2026-11-26)
/// the first two read -0.053 +/- 0.086 and -0.058 +/- 0.080. In Rapfi at 100k nodes our
/// reductions cost it 19 +/- 40 Elo (65 at 30k). Rapfi's history term with Rapfi's
/// history rule in place (a quiet move reduced round((664 - h) / 2453) plies more, h its
/// history: Rapfi's stat score on our scale; bench 37598, `bench 12` 1.37M -> 0.96M
/// nodes), 2026-11-26 (session 26) at 1M / 100k nodes, openings 101-200 of the 15x15 set
/// of seed 101, paired with this build's run there: 92-103-5, -0.068 +/- 0.068; and
/// these reductions x0.8 (bench 50684; openings 1-100): 107-89-4, +0.013 +/- 0.070.
/// Neither kept.
#[inline]
fn reduction(depth: i32, i: usize, improving: bool, pv_node: bool) -> i32 {
    if depth < 2 || i < 1 {
        return 0;
    }
    let r = LN[depth.min(255) as usize] * LN[(i + 1).min(255)];
    let r = r.round() as i32;
    if pv_node {
        (r - 1).max(0)
    } else {
        r + (!improving && r > 1) as i32
    }
}

/// What a node is expected to be, as Stockfish marks them: on the principal variation,
/// failing high (where a null-window search of a later move lands), or failing low.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The kind of a non-PV node's child: the expectation alternates.
    #[inline]
    fn flip(self) -> Node {
        match self {
            Node::Cut => Node::All,
            _ => Node::Cut,
        }
    }

    /// The kind of the first move's child: a PV node's stays on the PV.
    #[inline]
    fn first_child(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            _ => self.flip(),
        }
    }
}

/// Mate scores are stored relative to the node, so they stay right at any ply.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Search<'_> {
    /// Searches the root moves at `depth` in `window`; returns the best (fail-soft) score
    /// and the move that raised alpha, if any (none when every move fails low). A move
    /// that reaches beta ends the search. Root moves are kept ordered by their last
    /// scores, so the next iteration starts with the best.
    /// Ordering only the moves that raised alpha by score and keeping the others in their
    /// previous order (Stockfish's rule; their fail-soft scores are bounds), 2026-11-26
    /// at 300k / 30k nodes paired with the mean of four base runs (bench 39739): -0.018
    /// +/- 0.070. Not kept.
    pub(super) fn search_root(
        &mut self,
        pos: &mut Position,
        root: &mut MoveList,
        depth: i32,
        window: (i32, i32),
    ) -> (i32, Move) {
        let (mut alpha, beta) = window;
        let mut best = Move::NONE;
        let mut best_score = -INF;
        let n = root.len();
        let mut scored = Vec::with_capacity(n);
        let us = pos.side();
        let all = movegen::mode(pos) == Mode::All;
        self.static_evals[0] = pos.eval.evaluate(us);
        for i in 0..n {
            let m = root.get(i);
            // Quiet root moves after the first two are reduced too, never below depth 1.
            // Threat moves there too, a ply less (bench 37158), 2026-11-26 at 300k / 30k
            // nodes paired with the mean of four base runs: -0.033 +/- 0.057. Not kept.
            let quiet = all && movegen::is_quiet(pos, us, m, 0);
            let r = if quiet && i >= 2 {
                reduction(depth, i, true, true).min(depth - 2).max(0)
            } else {
                0
            };
            pos.make(m);
            let mut score = if i == 0 {
                -self.pvs(pos, -beta, -alpha, depth - 1, 1, Node::Pv)
            } else {
                -self.pvs(pos, -alpha - 1, -alpha, depth - 1 - r, 1, Node::Cut)
            };
            if r > 0 && score > alpha && !self.aborted {
                score = -self.pvs(pos, -alpha - 1, -alpha, depth - 1, 1, Node::All);
            }
            if i > 0 && score > alpha && score < beta && !self.aborted {
                score = -self.pvs(pos, -beta, -alpha, depth - 1, 1, Node::Pv);
            }
            pos.undo();
            if self.aborted {
                break;
            }
            scored.push((score, m));
            best_score = best_score.max(score);
            if score > alpha {
                alpha = score;
                best = m;
                self.update_pv(0, m);
                if score >= beta {
                    // The rest keep their order after the searched ones.
                    for j in i + 1..n {
                        scored.push((-INF, root.get(j)));
                    }
                    break;
                }
            }
        }
        if !self.aborted {
            root.reorder(&mut scored);
        }
        (best_score, best)
    }

    /// One depth of the root search in an aspiration window: from `ASPIRATION_DEPTH` on,
    /// a window of `ASPIRATION_DELTA` either side of the last depth's score, widened on the
    /// side a score falls out of and searched again (Rapfi's scheme, its margins times
    /// 4, the ratio of the two evaluation scales). Mate scores get the full window.
    /// 2026-11-27 (session 28) at 1M / 100k nodes against Rapfi, paired with the build
    /// before on the 15x15 set of seed 2027 (bench 50657 -> 42675; `bench 12` nodes about
    /// the same): 130-67-3 (0.657) where the build scored 0.542, +0.115 +/- 0.069
    /// (openings 1-100), and 119-75-6 (0.610) where the build scored 0.527, +0.083 +/-
    /// 0.076 (openings 101-200); about +0.099 +/- 0.051 pooled (README "Aspiration
    /// windows"). An earlier trial, from depth 5 at +/- 150 and then the full window,
    /// read -0.007 +/- 0.059 at 100k / 10k nodes (2026-11-23). The scheme halved (delta
    /// 32, growth + 12) and doubled (128, + 48), session 29 at 1M / 100k on both halves
    /// of that set, paired with the mean of the session-28 run and a null run of this
    /// build: -0.025 +/- 0.057 (91 pairs) and -0.057 +/- 0.054 (115 pairs), both stopped.
    /// Kept at 64.
    pub(super) fn aspiration(
        &mut self,
        pos: &mut Position,
        root: &mut MoveList,
        depth: i32,
        prev: i32,
    ) -> (i32, Move) {
        if depth < ASPIRATION_DEPTH || prev.abs() >= WIN_BOUND {
            return self.search_root(pos, root, depth, (-INF, INF));
        }
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        let mut high = (prev, Move::NONE);
        loop {
            let (score, best) = self.search_root(pos, root, depth, (alpha, beta));
            if self.aborted {
                // A move that failed high is better than the last depth's best.
                return if best.is_none() { high } else { (score, best) };
            }
            // Short of a mate score, a window moved by delta stays inside (-INF, INF).
            if score.abs() >= WIN_BOUND {
                return self.search_root(pos, root, depth, (-INF, INF));
            } else if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = score - delta;
            } else if score >= beta {
                high = (score, best);
                beta = score + delta;
            } else {
                return (score, best);
            }
            delta = delta * (3 + score.abs() / 4096) / 4 + 24;
        }
    }

    pub(super) fn pvs(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        let pv_node = node == Node::Pv;
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        let us = pos.side();
        let them = us.opp();

        // Step 1. Terminal states: our five next move, a full board, the ply limit.
        if pos.eval.count(us, Threat::Five) > 0 {
            return WIN - ply as i32 - 1;
        }
        if pos.board.empty_count() == 0 {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return pos.eval.evaluate(us);
        }
        let mode = movegen::mode(pos);
        if mode == Mode::BlockFive && pos.eval.count(them, Threat::Five) >= 2 {
            return -(WIN - ply as i32 - 2);
        }

        // Step 2. Transposition table.
        // A win or loss score used whatever the entry's depth (bench 40303, `wins` 37 ->
        // 35), 2026-11-26 at 300k / 30k nodes paired with the mean of four base runs:
        // -0.025 +/- 0.057. Not kept.
        let key = pos.hash();
        let tt_entry = self.tt.probe(key);
        if let Some(e) = tt_entry {
            let score = from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && e.depth >= depth && usable {
                return score;
            }
        }

        // Step 3. Leaves: static evaluation, unless a five must be blocked first.
        // Tried on 2026-11-24 (100k / 10k nodes, paired with this build): a PV node with a
        // hash move searched less deep than this node, made shallower by 0.28 a ply of the
        // difference (rounded, at most 3), as Rapfi does: +0.023 +/- 0.057 (420 games,
        // fresh 15x15 set c), +0.015 +/- 0.054 (420, fresh 15x15 set d), +0.000 +/- 0.050
        // (420, fresh 20x20 set c). About +0.013 pooled; not kept. Together with reductions
        // x0.8, on top of the kept hash-move rule (Step 6), 2026-11-26 (session 27) at 1M /
        // 100k nodes on two sets of 100 fresh openings: +0.021 +/- 0.078 and +0.003 +/-
        // 0.069. Not kept.
        // With the exact open-three defence, the defence searched at the horizon too
        // (leaves from one ply on; bench 11 nodes x2.1): `wins` 30 -> 26. Not played.
        // Played on 2026-11-26 (at depth 0 only; bench 33625, `wins` 30 -> 25), 300k / 30k
        // nodes paired with the mean of four base runs: -0.007 +/- 0.070. Not kept.
        // The other way, as Rapfi in effect does (under an open three its static
        // evaluation is VALUE_NONE, -30002, so its razoring test holds at every non-PV
        // node below depth 2.6 and it drops into its four-quiescence instead of searching
        // the defences): a non-PV node facing an open three at depth 1-2 taken as a leaf
        // (bench 32694, `wins` 30 -> 23): -0.083 +/- 0.067. Defending near the horizon
        // pays here.
        if depth <= 0 && mode != Mode::BlockFive {
            return self.leaf(pos, beta, ply);
        }

        // Static evaluation, and whether it improved on ours two plies up. Under a
        // threat the node takes its parent's, negated.
        // Averaged with the parent's (as Rapfi averages its pattern sums of this position
        // and the one before), here and at the leaves, 2026-11-24 at 300k / 30k nodes
        // paired with this build: -0.071 +/- 0.070 (349 games, fresh 15x15 set d; stopped).
        let eval = if mode == Mode::All || ply == 0 {
            pos.eval.evaluate(us)
        } else {
            -self.static_evals[ply - 1]
        };
        self.static_evals[ply] = eval;
        // One ply below the root there is no node two plies up, and the node never counts
        // as improving. Counted as improving there (bench 38907), 2026-11-26 at 300k / 30k
        // nodes paired with the mean of four base runs: -0.065 +/- 0.072; improving when
        // its evaluation beats the root's negated, as Rapfi has it (bench 38861): -0.060
        // +/- 0.071. Not kept.
        let improving = ply >= 2 && eval > self.static_evals[ply - 2];

        // Step 3b. Reverse futility: at a shallow non-PV node where the opponent threatens
        // nothing that forces our move, a static evaluation far above beta stands.
        // A null move here (the opponent moves twice, depth - 3 - depth / 4, where the
        // static evaluation is at least beta and the opponent forces nothing), 2026-11-24
        // at 100k / 10k nodes paired with this build: -0.056 +/- 0.058 (420 games, fresh
        // 15x15 set c) and -0.048 +/- 0.067 (270, fresh 20x20 set c). Not kept.
        // Razoring after it (Rapfi's margins: at depth 1-2 a non-PV node whose static
        // evaluation lies 100 / 150 below alpha takes the leaf's value), 2026-11-25 at
        // 300k / 30k nodes, paired with the mean of four runs of this build (15x15 set a):
        // -0.013 +/- 0.033 (420 games). Not kept.
        if !pv_node
            && mode == Mode::All
            && depth <= FUTILITY_DEPTH
            && beta.abs() < WIN_BOUND
            && eval - FUTILITY_MARGIN * depth >= beta
        {
            return eval;
        }

        // Step 4. Moves, ordered: hash move, killers, then threats and history.
        // Searching the hash move and killers before the other moves are generated (as
        // Rapfi's staged move picker does), 2026-11-26: 6% fewer instructions a node, but
        // 5-8% more nodes to the same depth (bench 9, 10, 12), since the rest are then
        // ordered by a history that the hash move's subtree has just updated; 300k / 30k
        // nodes: -0.060 +/- 0.064. Not kept (branch `staged`).
        // Clearing the killers of ply + 2 at each node (as Stockfish and Rapfi do; bench
        // 41090), same day and settings: +0.003 +/- 0.075. Not kept.
        let mut list = MoveList::new();
        movegen::generate(pos, mode, self.history_of(us), &mut list);
        if list.is_empty() {
            return if mode == Mode::All {
                pos.eval.evaluate(us)
            } else {
                -(WIN - ply as i32 - 2)
            };
        }
        let tt_move = tt_entry.map_or(Move::NONE, |e| e.mv);
        for (k, &killer) in self.killers[ply].iter().enumerate() {
            list.promote(killer, (1 << 28) - k as i32);
        }
        list.promote(tt_move, 1 << 30);

        // Step 5. Principal-variation search over the moves.
        // One more ply for the block of a five. Also extending the defence of an open
        // three when it has at most 3 or 5 moves: -0.039 and -0.046 points a game at
        // 100k / 10k nodes (420 games each, paired as in `reduction`).
        // Without this extension (bench 35710) and with half a ply, 2026-11-24 at 300k /
        // 30k nodes paired with this build: -0.056 +/- 0.067 and -0.070 +/- 0.056 (420
        // games each, fresh 15x15 set d). Kept at one ply.
        // More, as Rapfi (1.3 plies, in sixteenths), 2026-11-24 at 300k / 30k nodes paired
        // with this build: -0.104 +/- 0.128 (106 games, set d; stopped). Rapfi's extension
        // of the hash move (a quarter ply at PV nodes, a sixteenth elsewhere; bench 90727):
        // -0.185 +/- 0.150 (91 games, set d; stopped).
        let extension = (mode == Mode::BlockFive) as i32;
        let original_alpha = alpha;
        let move_limit = late_move_limit(depth, improving);
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut searched = [Move::NONE; MAX_SEARCHED];
        let mut n_searched = 0;
        for i in 0..list.len() {
            let m = list.pick(i);
            let quiet = mode == Mode::All
                && list.score(i) < PROMOTED_SCORE
                && movegen::is_quiet(pos, us, m, self.history_of(us)[m.idx()]);
            // Late quiet moves near the horizon almost never matter in gomoku, where the
            // fight is about threats: skip them outright.
            // Tried on 2026-11-24 (100k / 10k nodes, 420 games on the fresh 15x15 set c,
            // paired with this build): skipping threat moves too at depth 1-2 beyond twice
            // this limit +0.012 +/- 0.056; skipping plain fours (a four that makes nothing
            // else and blocks no three) at depth 1-2 -0.005 +/- 0.059 (12% fewer bench
            // nodes, the tactics suite unchanged at 100/103). Neither kept.
            // Where the opponent threatens an open four or a four-three, skipping the moves
            // past this limit (not the hash move or killers) at non-PV nodes, 2026-11-24 at
            // 300k / 30k nodes paired with this build: -0.049 +/- 0.052 (420 games, fresh
            // 15x15 set d). Not kept.
            // With the exact open-three defence, skipping (as Rapfi does) our fours that
            // block nothing and lie more than four squares from both last stones, at non-PV
            // nodes to depth 4, 2026-11-24 at 300k / 30k nodes paired with this build:
            // -0.038 +/- 0.062 (426 games, sets d and c); `wins` 30 -> 26. Not kept.
            // Also skipping, at depth 4 and less (as Rapfi does), every quiet move that makes
            // no two with room or three on any line for either side, 2026-11-24 at 300k / 30k
            // nodes (bench 35446; paired with the mean of this build's three runs, see README
            // "Null runs"): -0.019 +/- 0.032 (420 games, fresh 15x15 set a). Not kept.
            // Rapfi applies this limit to every move at every node below the root (PV
            // nodes, threat moves, nodes where a threat restricts the moves), and loses
            // 92 +/- 39 Elo against itself with only our scope (README "What Rapfi's parts
            // are worth"). Rapfi's scope here, 2026-11-25 (bench 8793), against Rapfi at
            // Fivefold 100k / Rapfi 10k nodes, paired with this build on fresh random
            // openings: +0.074 +/- 0.081 (15x15, openings 1-100) and +0.005 +/- 0.084
            // (15x15, openings 101-200), -0.035 +/- 0.079 (20x20, 100 openings); at 300k /
            // 30k nodes 93-101-6 where this build scores 96-100-4 (200 games each).
            // Without the PV nodes (bench 36578): -0.003 +/- 0.078. Not kept: in our
            // search the wider pruning cuts as many good moves as it saves nodes.
            // Split in two, 2026-11-26 at 300k / 30k nodes paired with the mean of four
            // base runs: the limit on attack moves too (own three or more) at non-PV nodes
            // where every move is allowed (bench 40713) -0.098 +/- 0.072, rerun at 310k
            // -0.085 +/- 0.076 (mean -0.091 +/- 0.066); on the other non-quiet moves
            // there (bench 37049) -0.040 +/- 0.074. The attack moves are the exception
            // that matters (README "Rapfi's attack history").
            // Rapfi's scope at the root side's nodes only (even plies; bench 22713, `wins`
            // 37 -> 29), 2026-11-26: -0.132 +/- 0.109 (90 games, stopped); at the
            // opponent's only, `wins` 33 (README "The pruning scope by side"). The limit
            // at non-PV nodes where a three or four-three restricts the moves (bench 36585,
            // `wins` 30), same day: -0.085 +/- 0.064. Not kept. Rapfi's whole scope again,
            // against the mean of four base runs: -0.060 +/- 0.077. At 1M / 100k nodes
            // with Rapfi's history rule in place (2026-11-26, session 24), paired with this
            // build's run there: the whole scope (bench 7859) -0.098 +/- 0.191 (28 pairs),
            // with Rapfi's reductions too (bench 8206) -0.136 +/- 0.154 (22 pairs); both
            // stopped. The whole scope again at 1M / 100k (session 27, 100 fresh openings,
            // paired with this build before Step 6's hash-move rule): 81-110-9, -0.070 +/-
            // 0.082. Done: not kept at any size tried.
            if quiet && !pv_node && i >= move_limit && best > -WIN_BOUND {
                continue;
            }
            let child_depth = depth - 1 + extension;
            // Threat moves are reduced a ply less, from the third on. The full reduction
            // from the second move on where the opponent threatens an open four or a
            // four-three (bench 39014), 2026-11-24 at 300k / 30k nodes paired with this
            // build: +0.021 +/- 0.062 (420 games, fresh 15x15 set d), -0.062 +/- 0.082 and
            // +0.024 +/- 0.079 (the halves of set c); +0.001 +/- 0.042 pooled. Not kept.
            let reduction = if quiet {
                reduction(depth, i, improving, pv_node)
            } else if i >= 2 && mode != Mode::BlockFive {
                (reduction(depth, i, improving, pv_node) - 1).max(0)
            } else {
                0
            };
            // One more ply for a quiet move at an expected cut node (see `reduction`).
            // One ply less at nodes the hash marks as once on the PV (Rapfi's `ttPv`),
            // 2026-11-24 (100k / 10k, 420 games, fresh 15x15 set c): -0.031 +/- 0.059.
            // Also tried there, both after Rapfi: at an expected cut node whose static
            // evaluation beats beta by 60 a ply beyond the first, one more ply for every
            // later move but fours, -0.043 +/- 0.059; one ply less for a move making an open
            // three or more when our move two plies up did too, -0.048 +/- 0.058.
            // Rapfi's reduction of useless defences (where a three or a four-three must be
            // answered, a move making no four for the opponent: 31/16 ply more when farther
            // than 4 from the opponent's last stone, 15/16 more when farther than 4 from
            // ours; depth counted in sixteenths of a ply), 2026-11-24 at 300k / 30k nodes:
            // -0.012 +/- 0.056 (420 games, fresh 15x15 set d, paired with this build).
            let reduction = reduction + (node == Node::Cut && quiet) as i32;
            let reduction = reduction.min(child_depth - 1).max(0);
            self.tt.prefetch(pos.board.hash_after(m));
            pos.make(m);
            let score = if i == 0 {
                -self.pvs(pos, -beta, -alpha, child_depth, ply + 1, node.first_child())
            } else {
                let mut s = -self.pvs(
                    pos,
                    -alpha - 1,
                    -alpha,
                    child_depth - reduction,
                    ply + 1,
                    Node::Cut,
                );
                // One ply deeper than the full depth when the reduced search beats alpha by
                // 100 + 35 a ply of reduction (Rapfi's deeper re-search; bench 35363),
                // 2026-11-24 at 300k / 30k nodes, paired with the mean of this build's three
                // runs: -0.053 +/- 0.033 (420 games, fresh 15x15 set a). Not kept.
                // Re-searched a ply shallower when the reduced score beats the best so far
                // by less than 3 a ply (Rapfi), and not at all when that is the reduced
                // depth, 2026-11-25 at 300k / 30k nodes, paired with the mean of four runs
                // of this build (15x15 set a): -0.026 +/- 0.033 (420 games). Not kept.
                if s > alpha && reduction > 0 {
                    s = -self.pvs(pos, -alpha - 1, -alpha, child_depth, ply + 1, node.flip());
                }
                if s > alpha && s < beta {
                    s = -self.pvs(pos, -beta, -alpha, child_depth, ply + 1, Node::Pv);
                }
                s
            };
            pos.undo();
            if self.aborted {
                return 0;
            }
            if n_searched < MAX_SEARCHED {
                searched[n_searched] = m;
                n_searched += 1;
            }
            // Rapfi's alpha-improvement reduction (a move that raises alpha below beta, at
            // depth 3-11, makes the rest of the node's moves a ply shallower), 2026-11-26 at
            // 300k / 30k nodes paired with the mean of four base runs (bench 35666; `wins`
            // 37 -> 31): -0.035 +/- 0.069; at the root too (bench 24787): +0.003 +/- 0.072.
            // Not kept (README "One deep win read move by move").
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        self.update_killers(m, ply, mode);
                        break;
                    }
                }
            }
        }

        // Step 5b. History: the best move of a node that raised alpha gains, every other
        // move searched there loses as much.
        if best > original_alpha && mode == Mode::All && !best_move.is_none() {
            let bonus = history_bonus(depth);
            for &s in &searched[..n_searched] {
                let b = if s == best_move { bonus } else { -bonus };
                self.history_gravity(us.idx(), s, b);
            }
        }

        // Step 6. Store the result. Where no move raised alpha, no best move is known (the
        // fail-soft best of an all node is noise): the position's old hash move is kept,
        // as Rapfi and Stockfish do (bench 37639 -> 50657, 14-18% fewer nodes to depth 12
        // and 14). At 1M / 100k nodes against Rapfi, paired with the build before, three
        // runs of 200 games on fresh openings: 104-87-9, +0.010 +/- 0.073 (session 24);
        // 108-84-8, +0.020 +/- 0.071 (session 25); 104-87-9, +0.045 +/- 0.071 (session
        // 27, the build 96-97-7). About +0.025 +/- 0.041 pooled over the 600 games, every
        // run above the build: kept.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = if bound == Bound::Upper {
            tt_move
        } else {
            best_move
        };
        self.tt.store(
            key,
            TtEntry {
                mv,
                score: to_tt(best, ply),
                depth,
                bound,
            },
        );
        best
    }

    /// Value of a quiet leaf: the static evaluation, unless the side to move wins by
    /// continuous fours. An open four while the opponent has no four is certain at once.
    /// Otherwise a short VCF (`vcf::LEAF_VCF_DEPTH` fours, `vcf::LEAF_VCF_NODES` nodes)
    /// runs, but only where one is likely and could matter, all told in O(1): we have a
    /// four that also builds another line and at least three four squares (one closed
    /// three alone gives two and rarely wins), and the evaluation does not already fail
    /// high, where a win would not change the cutoff. Tried on 2026-11-23 (Fivefold 100k
    /// / Rapfi 10k nodes, paired with this build): two four squares instead of three
    /// -0.007 +/- 0.057 (337 games, 15x15 set a), +0.040 +/- 0.052 (420, 20x20 set b),
    /// -0.017 +/- 0.070 (202, 15x15 set b), -0.050 +/- 0.069 (227, standard rule): about
    /// 0.000 over the 1186; 40 nodes and five fours -0.083 +/- 0.080 (186, set a).
    /// Tried on 2026-11-24 at 300k / 30k nodes, paired with this build:
    /// - Rapfi's static wins (when the opponent has no four to make, a four-three or two
    ///   open threes win in 5 plies), here and at every node: +0.050 +/- 0.062 (420 games,
    ///   fresh 15x15 set d), -0.052 +/- 0.081 and -0.002 +/- 0.087 (the two halves of set
    ///   c), +0.011 +/- 0.043 pooled; with also a four-three whose forced block makes no
    ///   four for an opponent that has fours, -0.007 +/- 0.054 (420, set c). 21 to 25 and
    ///   28 of 55 on `wins`. Not kept: sound, cheap, and no measured gain. The code and
    ///   its tests are on the branch `quickwin`.
    /// - After the VCF, a value-returning four-quiescence as Rapfi's (stand on the
    ///   evaluation or play a four on a line through our last stone, the block forced; two
    ///   levels, plain fours too): -0.008 +/- 0.099 (192 games, set d; stopped).
    /// - Tried again on 2026-11-25 closer to Rapfi's: fours within the 5x5 square and on
    ///   the lines out to four from our last stone, plain fours at the first two levels
    ///   and fours that build more after, up to eight levels, delta pruning (bench
    ///   43258). Paired with the mean of four runs of this build (300k / 30k, 15x15 set
    ///   a): -0.032 +/- 0.036 (420 games); with razoring into it at depth 1-2 (static
    ///   evaluation 100 / 150 below alpha), 0.000 +/- 0.038 (418). Branch `qvcf`.
    fn leaf(&mut self, pos: &mut Position, beta: i32, ply: usize) -> i32 {
        let us = pos.side();
        let them = us.opp();
        if pos.eval.count_at_least(them, Threat::Four) == 0
            && pos.has_legal_threat(us, Threat::FlexFour)
        {
            return WIN - ply as i32 - 3;
        }
        let eval = pos.eval.evaluate(us);
        if eval < beta
            && pos.eval.count_at_least(us, Threat::FourPlus) > 0
            && pos.eval.count_at_least(us, Threat::Four) >= vcf::LEAF_VCF_MIN_FOURS
        {
            self.vcf_nodes_left = vcf::LEAF_VCF_NODES;
            if self.vcf(pos, vcf::LEAF_VCF_DEPTH).is_some() {
                return WIN - ply as i32 - 2 * vcf::LEAF_VCF_DEPTH as i32 - 1;
            }
        }
        eval
    }

    /// Moves `m`'s history by `b` towards +/- `HISTORY_RANGE`: the closer it is to the
    /// bound, the less it moves, so no entry saturates however long the search.
    /// Rapfi's history rule (Step 5b; bench 40295 -> 37639) in place of ours (a cutoff's
    /// quiet move gained depth^2, capped at 2000, no loss for the others, the table divided
    /// by 8 between moves). 2026-11-26, session 23, at 1M / 100k nodes against Rapfi
    /// (README "The gap grows with nodes"), paired with main's run there: 102-89-9
    /// against 83-115-2, +0.113 +/- 0.068 points a game (about +80 Elo). At 300k / 30k it
    /// had played below (the record that follows), but our rule saturates in long searches
    /// and cost Rapfi twice as much at 100k nodes as at 30k.
    /// The record of the rule before (300k / 30k unless said):
    /// Our rule: a cutoff's quiet move gains depth^2 of history. Also taking depth^2 from the quiet
    /// moves searched before it without a cutoff, 2026-11-24 (100k / 10k nodes, 420 games
    /// on the fresh 15x15 set c, paired with this build): -0.007 +/- 0.051. Not kept.
    /// The cap saturates in long searches (after 700k nodes some 30 squares sit at 2000,
    /// at 100k nodes two), so a bounded update was tried: h += b - h * b / 2000 with
    /// b = min(depth^2, 400), and the same taken from the quiet moves searched before the
    /// cutoff. At 300k / 30k nodes (210 games, the first half of set c, paired with this
    /// build): -0.019 +/- 0.086. Not kept.
    /// This rule in Rapfi's search in place of its own (weighed in its ordering as its
    /// own history is; Rapfi against itself at 30k nodes, 200 games, 2026-11-25): -53 +/-
    /// 44 Elo. Rapfi's rule here (the best move of every node that raised alpha gains
    /// min(25d^2 + 105d - 157, 8927) / 5 with gravity to +/- 2138, every other move
    /// searched there loses as much, no division between moves; bench 37639), at 300k /
    /// 30k nodes paired with this build: -0.052 +/- 0.069 (200 games); with negative values
    /// read as 0 in the ordering and the quiet test (bench 41600), -0.071 +/- 0.077 (197).
    /// Not kept. Against the mean of two base runs (2026-11-26) these two read -0.079 +/-
    /// 0.063 and -0.091 +/- 0.070. Our rule in Rapfi at 100k nodes a move costs it 106 +/-
    /// 43 Elo, against 53 +/- 44 at 30k: it may cost more the longer the search. Not
    /// because of the cap: bounded (h += b - h * b / 2000, b = min(depth^2, 400)) it costs
    /// Rapfi 100 +/- 42 at 100k, and here at 300k / 30k it scored -0.089 +/- 0.065.
    /// 2026-11-26, later, at 300k / 30k nodes paired with the mean of four base runs
    /// (README "Scaling, base runs"): the side's whole table halved whenever an
    /// entry would pass 2000 (ranks kept, nothing saturates; bench unchanged, bench 12
    /// 2% fewer nodes) -0.035 +/- 0.064; a hash cutoff rewarding the hash move as a
    /// cutoff does (history and killer, as Rapfi and Stockfish do; bench 41204) +0.000
    /// +/- 0.072. Neither kept.
    /// Rapfi's rule with its two tables kept apart (attack moves, own three or more, in
    /// one, ordered by it alone at twice its value; quiet moves in the other, updated only
    /// where no five or open four is threatened; bench 43707), same settings: +0.030 +/-
    /// 0.071, at 310k -0.050 +/- 0.068, at 290k -0.018 +/- 0.078 (mean -0.013 +/-
    /// 0.062); the attack table alone beside ours (bench 46553) -0.028 +/- 0.072. Not
    /// kept. Split the same way on top of Rapfi's rule (attack moves ordered by twice
    /// their attack table, read once in the quiet test; quiet moves updated where every
    /// move or a four-three defence is allowed; bench 38845, `bench 12` 1.37M -> 1.63M),
    /// 2026-11-26 (session 26) at 1M / 100k nodes paired with this build: 92-96-12,
    /// -0.043 +/- 0.077. Not kept.
    #[inline]
    fn history_gravity(&mut self, side: usize, m: Move, b: i32) {
        let h = &mut self.history[side * CELLS + m.idx()];
        *h += b - *h * b.abs() / HISTORY_RANGE;
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// A cutoff's move at a node where every move is allowed becomes the ply's first killer.
    fn update_killers(&mut self, m: Move, ply: usize, mode: Mode) {
        if mode != Mode::All {
            return;
        }
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Color, Rule};

    /// The main search alone (no root VCF) at `depth` with a full window.
    fn pvs_score(b: &Board, depth: i32) -> i32 {
        let mut pos = Position::new(b);
        Search::unlimited(|search| search.pvs(&mut pos, -INF, INF, depth, 0, Node::Pv))
    }

    #[test]
    fn history_stays_bounded_and_a_malus_pulls_it_back() {
        let m = Move::from_xy(7, 7);
        Search::unlimited(|search| {
            let big = history_bonus(64);
            for _ in 0..1_000 {
                search.history_gravity(0, m, big);
            }
            let top = search.history[m.idx()];
            assert!(
                top > HISTORY_RANGE * 9 / 10 && top <= HISTORY_RANGE,
                "{top}"
            );
            search.history_gravity(0, m, -big);
            assert!(search.history[m.idx()] < top);
            for _ in 0..1_000 {
                search.history_gravity(0, m, -big);
            }
            assert!(search.history[m.idx()] >= -HISTORY_RANGE);
            assert_eq!(search.history[CELLS + m.idx()], 0, "the other side's table");
        });
    }

    /// The root at `depth` from a fresh table: in a full window, or in aspiration
    /// windows around a last score `prev`.
    fn root_search(b: &Board, depth: i32, prev: Option<i32>) -> (i32, Move) {
        let mut pos = Position::new(b);
        Search::unlimited(|search| {
            let mut root = search.root_moves(&pos);
            match prev {
                Some(prev) => search.aspiration(&mut pos, &mut root, depth, prev),
                None => search.search_root(&mut pos, &mut root, depth, (-INF, INF)),
            }
        })
    }

    #[test]
    fn aspiration_windows_far_off_the_score_widen_to_the_full_windows_answer() {
        for moves in ["7,7 8,8 7,8 6,6", "7,7 8,7 8,8 6,6 9,9 10,10 6,8"] {
            let b = crate::search::bench::position(15, Rule::Freestyle, moves);
            let (score, best) = root_search(&b, 6, None);
            assert!(score.abs() < WIN_BOUND && !best.is_none(), "{score}");
            // Far below the score the root fails high, far above it fails low (no move
            // raises alpha, so none is returned), and the windows widen until a move
            // scores inside them. Pruning depends on the window, so the score found in a
            // narrow window may differ some from the full window's (1350 against 1036
            // here, another move).
            for prev in [score - 2_000, score + 2_000, score] {
                let (s, m) = root_search(&b, 6, Some(prev));
                assert!(!m.is_none() && b.is_empty(m), "{moves}: from {prev}");
                assert!(
                    (s - score).abs() < 400,
                    "{moves}: {s} from {prev}, not {score}"
                );
            }
        }
    }

    #[test]
    fn a_node_where_no_move_raised_alpha_keeps_the_old_hash_move() {
        let b = crate::search::bench::position(15, Rule::Freestyle, "7,7 8,8 7,8");
        let mut pos = Position::new(&b);
        let key = pos.hash();
        // A far corner: not even among the node's moves, so only the rule can keep it.
        let old = Move::from_xy(0, 0);
        Search::unlimited(|search| {
            let shallow = TtEntry {
                mv: old,
                score: 0,
                depth: 1,
                bound: Bound::Upper,
            };
            search.tt.store(key, shallow);
            let alpha = WIN_BOUND - 10;
            let score = search.pvs(&mut pos, alpha, alpha + 1, 3, 0, Node::All);
            assert!(score <= alpha, "{score}");
            let e = search.tt.probe(key).expect("stored");
            assert_eq!((e.mv, e.depth, e.bound), (old, 3, Bound::Upper));
            // With a full window the node finds and stores a best move of its own.
            search.pvs(&mut pos, -INF, INF, 3, 0, Node::Pv);
            let e = search.tt.probe(key).expect("stored");
            assert_eq!(e.bound, Bound::Exact);
            assert!(!e.mv.is_none() && e.mv != old, "{:?}", e.mv);
        });
    }

    #[test]
    fn leaf_vcf_sees_a_win_beyond_the_horizon() {
        // Black to move wins by four fours and no fewer; White has no four. Without the
        // leaf VCF the main search scored this 2204 at depth 2 and 2562 at depth 3.
        let black = [
            (10, 9),
            (9, 8),
            (8, 6),
            (5, 7),
            (11, 9),
            (10, 10),
            (7, 5),
            (5, 11),
            (6, 5),
            (4, 6),
            (3, 10),
        ];
        let white = [
            (4, 8),
            (8, 10),
            (8, 5),
            (10, 11),
            (6, 8),
            (4, 10),
            (11, 6),
            (8, 9),
        ];
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in black {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for (x, y) in white {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(Color::Black);
        for depth in 1..=3 {
            let score = pvs_score(&b, depth);
            assert!(score >= WIN_BOUND, "depth {depth}: {score}");
        }
    }
}
