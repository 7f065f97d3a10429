//! Search: iterative deepening, alpha-beta, transposition table, move ordering, threats, time.
//!
//! The face of this module is `Searcher::search`: give it a position and limits, get a move.
//! `Searcher` keeps what outlives one move (hash table, history); `Search` is one run.
//!
//! A comment's pointer `journal "Section"` names a section of `docs/journal.md` ("Trials by
//! subject"), which holds the measurements behind each step and the variants not kept.

mod alphabeta;
pub mod bench;
mod movegen;
pub mod params;
mod position;
pub mod probe;
pub mod time;
mod tt;
mod vcf;
mod vct;
pub mod wins;

use crate::eval::Threat;
use crate::game::{Board, Color, Move, Rule, CELLS};
use movegen::MoveList;
use position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
pub use time::{Clock, TimeBudget, TimeControl};
pub use tt::TranspositionTable;

/// Score of a win at ply 0; a win found `n` plies deep scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const WIN_BOUND: i32 = WIN - 1_000;
const MAX_PLY: usize = 128;
const MAX_DEPTH: u32 = 64;
/// VCF nodes allowed at the root before the main search starts.
const ROOT_VCF_NODES: u64 = 300_000;
/// VCT nodes allowed at the root after the VCF (see `vct.rs`): +0.033 +/- 0.028 a game
/// against Rapfi at 100k / 10k nodes on freestyle; off under the standard rule, where it
/// lost 0.045; more nodes played no better (journal "Root VCT").
const ROOT_VCT_NODES: u64 = 10_000;

/// What bounds one search besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub clock: Clock,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

pub struct Searcher {
    tt: TranspositionTable,
    /// History heuristic per colour and square.
    history: Vec<i32>,
    /// The helper threads' own histories (Lazy SMP): one per thread beyond the first.
    helper_history: Vec<Vec<i32>>,
    /// The network the search uses (`set_network`); none by default.
    nn: Option<&'static crate::eval::nn::QuantModel>,
}

/// Most search threads a searcher runs, whatever the manager asks for.
pub const MAX_THREADS: usize = 64;

impl Searcher {
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_bytes),
            history: vec![0; 2 * CELLS],
            helper_history: Vec::new(),
            nn: None,
        }
    }

    /// Searches with `model` (under every rule: see `eval::nn`): its value in the static
    /// evaluation and its policy in the move ordering (`Position::static_eval`,
    /// `alphabeta::add_policy`); `None`, the default: the classical evaluation alone.
    pub fn set_network(&mut self, model: Option<&'static crate::eval::nn::QuantModel>) {
        self.nn = model;
    }

    /// Searches with `n` threads (Lazy SMP: helpers share the hash table and fill it while
    /// the main thread decides), between 1 and `MAX_THREADS`. A search bounded by nodes
    /// always runs on one thread, so that it repeats exactly.
    pub fn set_threads(&mut self, n: usize) {
        let helpers = n.clamp(1, MAX_THREADS) - 1;
        self.helper_history
            .resize_with(helpers, || vec![0; 2 * CELLS]);
    }

    pub fn threads(&self) -> usize {
        1 + self.helper_history.len()
    }

    /// Resizes the transposition table; the caller keeps the whole process under max_memory.
    /// The old table is freed before the new one is made, so the two never coexist.
    pub fn resize_hash(&mut self, bytes: usize) {
        self.tt = TranspositionTable::new(0);
        self.tt = TranspositionTable::new(bytes);
    }

    /// Replaces the table with one made elsewhere (the session makes a large one on a
    /// helper thread, in the opponent's time).
    pub fn install_hash(&mut self, table: TranspositionTable) {
        self.tt = table;
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in self.histories() {
            h.iter_mut().for_each(|h| *h = 0);
        }
    }

    fn histories(&mut self) -> impl Iterator<Item = &mut Vec<i32>> {
        std::iter::once(&mut self.history).chain(self.helper_history.iter_mut())
    }

    /// Finds a move for the side to move. Always returns a legal empty square when one exists.
    /// `report` receives one line per completed depth (the session prints it as MESSAGE).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(String),
    ) -> SearchResult {
        self.search_excluding(board, limits, stop, &[], report)
    }

    /// `search` that never plays a square of `excluded` (YXBLOCK, YXNBEST's later lines)
    /// unless nothing else is left; with nothing excluded it is exactly `search`.
    pub fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        excluded: &[Move],
        report: &mut dyn FnMut(String),
    ) -> SearchResult {
        self.tt.new_search();
        // History is kept whole between moves: its entries are bounded (see
        // `history_gravity`).
        let nn = self.nn;
        let mut pos = Position::with_network(board, nn);
        let helpers = if limits.max_nodes.is_some() {
            0
        } else {
            self.helper_history.len()
        };
        let Searcher {
            tt,
            history,
            helper_history,
            ..
        } = self;
        let tt = &*tt;
        // The helpers read their stop flag at every node: on a line of its own, or the
        // main thread's writes to its neighbours (this frame holds `pos`) bounce that line
        // between the cores (that false sharing made both threads three times slower).
        let helpers_stop = CacheLine(AtomicBool::new(false));
        let mut result = std::thread::scope(|scope| {
            let workers: Vec<_> = helper_history[..helpers]
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let stop = &helpers_stop.0;
                    scope.spawn(move || {
                        // Everything a helper writes is its own and made on its own
                        // thread (its arena, its stack), away from the main thread's lines.
                        let mut pos = Position::with_network(board, nn);
                        let mut history = h.clone();
                        let mut search = Search::new(tt, &mut history, limits, stop);
                        search.excluded = excluded;
                        let result = search.help(&mut pos, i + 1);
                        *h = history;
                        result
                    })
                })
                .collect();
            let mut search = Search::new(tt, history, limits, stop);
            search.excluded = excluded;
            let mut result = search.run(&mut pos, report);
            helpers_stop.0.store(true, Ordering::Relaxed);
            for w in workers {
                // A helper that panicked only loses its nodes: the main result stands.
                if let Ok(helper) = w.join() {
                    result = deeper(result, helper);
                }
            }
            result
        });
        let us = pos.side();
        if result.best.is_none()
            || !pos.is_legal_for(us, result.best)
            || pos.board.is_forbidden_for(us, result.best)
            || excluded.contains(&result.best)
        {
            result.best = fallback_move(&pos, excluded);
        }
        result
    }
}

/// A value alone on its cache line (128 bytes: some cores fetch lines in pairs).
#[repr(align(128))]
struct CacheLine<T>(T);

/// The main thread's result, or a helper's that completed a deeper iteration (a helper
/// one depth ahead often finishes it first). A result that is not from the iterations
/// (a five, a root VCF, a forced move: depth 0) or already a win stays. Nodes add up.
fn deeper(main: SearchResult, helper: SearchResult) -> SearchResult {
    let nodes = main.nodes + helper.nodes;
    let take = main.depth > 0
        && main.score < WIN_BOUND
        && helper.depth > main.depth
        && !helper.best.is_none();
    SearchResult {
        nodes,
        ..if take { helper } else { main }
    }
}

/// The best square by static move ordering that is not an exact renju forbidden point,
/// preferring squares the evaluator also finds legal, nearest the centre on ties; any
/// empty square if none. Used when the search produced nothing, or a move the exact
/// check forbids (the evaluator's shape test misses a few, e.g. `X.XXX.X`). Squares in
/// `excluded` are taken only when every other empty square is excluded or forbidden.
fn fallback_move(pos: &Position, excluded: &[Move]) -> Move {
    let us = pos.side();
    let (cx, cy) = (pos.board.width() as i64 / 2, pos.board.height() as i64 / 2);
    let dist = |m: &Move| (m.x() as i64 - cx).abs().max((m.y() as i64 - cy).abs());
    let allowed = pos
        .board
        .empty_squares()
        .filter(|&m| !pos.board.is_forbidden_for(us, m) && !excluded.contains(&m))
        .max_by_key(|m| {
            let order = movegen::order_score(pos, us, *m);
            (pos.is_legal_for(us, *m), order, -dist(m))
        });
    allowed
        .or_else(|| pos.board.empty_squares().min_by_key(dist))
        .unwrap_or(Move::NONE)
}

/// One search run: borrows the persistent tables and owns the per-run state.
pub(crate) struct Search<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut [i32],
    limits: Limits,
    stop: &'a AtomicBool,
    /// Root moves the search must not play (empty in games).
    excluded: &'a [Move],
    start: Instant,
    nodes: u64,
    /// Moves the running VCF or VCT search may still try.
    vcf_nodes_left: u64,
    /// Set when a VCF or VCT line was cut by its depth limit (see `shortest`).
    vcf_depth_cut: bool,
    /// Positions the root VCF refuted (see `vcf`); empty below the root.
    vcf_refuted: Vec<u64>,
    /// Counts calls to `should_stop`, so the clock is read every few thousand of them.
    checks: u32,
    aborted: bool,
    killers: [[Move; 2]; MAX_PLY],
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Static evaluation per ply, for "improving".
    static_evals: [i32; MAX_PLY],
}

impl<'a> Search<'a> {
    fn new(
        tt: &'a TranspositionTable,
        history: &'a mut [i32],
        limits: &Limits,
        stop: &'a AtomicBool,
    ) -> Search<'a> {
        Search {
            tt,
            history,
            limits: *limits,
            stop,
            excluded: &[],
            start: Instant::now(),
            nodes: 0,
            vcf_nodes_left: 0,
            vcf_depth_cut: false,
            vcf_refuted: Vec::new(),
            checks: 0,
            aborted: false,
            killers: [[Move::NONE; 2]; MAX_PLY],
            pv: Box::new([[Move::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            static_evals: [0; MAX_PLY],
        }
    }

    /// Runs `f` on a search with no limits and a fresh 1 MB table (tests of its parts).
    #[cfg(test)]
    fn unlimited<R>(f: impl FnOnce(&mut Search) -> R) -> R {
        let mut s = Searcher::new(1 << 20);
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: None,
            max_nodes: None,
        };
        let stop = AtomicBool::new(false);
        f(&mut Search::new(&s.tt, &mut s.history, &limits, &stop))
    }

    /// Checks the stop flag always and the clock every 512 calls (a millisecond or two of
    /// search; reading the clock costs tens of nanoseconds, more under wine).
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.checks = self.checks.wrapping_add(1);
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.checks & 511 == 0 {
            let out_of_nodes = self.limits.max_nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = out_of_nodes || self.limits.clock.hard_expired();
        }
        self.aborted
    }

    fn run(&mut self, pos: &mut Position, report: &mut dyn FnMut(String)) -> SearchResult {
        let us = pos.side();
        let mut result = SearchResult {
            best: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if pos.board.stone_count() == 0 {
            result.best = Move::from_xy(pos.board.width() / 2, pos.board.height() / 2);
            return result;
        }
        if let Some(m) = self.root_five(pos) {
            return SearchResult {
                best: m,
                score: WIN - 1,
                ..result
            };
        }
        self.vcf_nodes_left = ROOT_VCF_NODES;
        self.vcf_refuted = vec![0; vcf::VCF_TABLE_ENTRIES];
        // The VCF checks Black's fours exactly (`Position::is_legal_for`); the filter
        // below is a second guard for the move we play.
        let vcf = self
            .shortest_vcf(pos, vcf::MAX_VCF_DEPTH)
            .filter(|&m| !pos.board.is_forbidden_for(us, m) && !self.excluded.contains(&m));
        self.vcf_refuted = Vec::new();
        if let Some(m) = vcf {
            report(format!(
                "vcf found, playing {},{} nodes {}",
                m.x(),
                m.y(),
                self.nodes
            ));
            return SearchResult {
                best: m,
                score: WIN_BOUND,
                nodes: self.nodes,
                ..result
            };
        }
        // A win by threats is searched first and played unless the main search proves a
        // win of its own (often a shorter one: the VCT's is shortest in threats, not in
        // moves). Freestyle only, as measured (Fivefold 100k / Rapfi 10k nodes, paired
        // with the build without it, points a game): see `ROOT_VCT_NODES`.
        let vct = if pos.board.rule() == Rule::Freestyle {
            self.vcf_nodes_left = ROOT_VCT_NODES;
            self.shortest_vct(pos, vct::ROOT_VCT_DEPTH)
                .filter(|m| !self.excluded.contains(m))
        } else {
            None
        };
        let mut result = self.iterate(pos, vct, report);
        if let Some(m) = vct.filter(|_| result.score < WIN_BOUND) {
            report(format!("vct found, playing {},{}", m.x(), m.y()));
            result.best = m;
            result.score = WIN_BOUND;
        }
        result
    }

    /// Iterative deepening over the root moves, `first` (if any) searched first.
    fn iterate(
        &mut self,
        pos: &mut Position,
        first: Option<Move>,
        report: &mut dyn FnMut(String),
    ) -> SearchResult {
        let mut root = self.root_moves(pos);
        if let Some(m) = first {
            root.promote(m, i32::MAX);
        }
        let mut result = SearchResult {
            best: root_first(&mut root),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        // A forced move needs no search, unless someone wants its score (exclusions).
        if root.len() <= 1 && self.excluded.is_empty() {
            return result;
        }
        let max_depth = self.max_depth();
        let budget = self.limits.clock.budget();
        for depth in 1..=max_depth {
            let (score, best) = self.aspiration(pos, &mut root, depth as i32, result.score);
            if !best.is_none() {
                result.best = best;
                result.score = score;
            }
            if self.aborted {
                break;
            }
            result.depth = depth;
            report(self.depth_line(depth, score));
            // A solved loss stops too: searching on after it, as Rapfi does, played level
            // against Rapfi (journal "Time use", session 41).
            if score.abs() >= WIN_BOUND || !budget.start_next_depth(self.start.elapsed()) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// The root moves in search order: the node's moves without renju fouls and
    /// excluded squares (or every move when the forced replies are all excluded).
    fn root_moves(&self, pos: &mut Position) -> MoveList {
        let mut root = MoveList::new();
        movegen::generate(
            pos,
            movegen::mode(pos),
            self.history_of(pos.side()),
            &mut root,
        );
        if root.is_empty() {
            // No move stops the opponent's threats (two open threes, say): the game is
            // lost against best play, and every move is searched for the best try.
            movegen::generate(
                pos,
                movegen::Mode::All,
                self.history_of(pos.side()),
                &mut root,
            );
        }
        if pos.nn.is_some() && movegen::mode(pos) == movegen::Mode::All {
            alphabeta::add_policy(pos, &mut root);
        }
        // Root moves are few: drop the renju fouls the shape test lets through, so the search
        // itself picks the best legal move.
        let mut legal = self.allowed_root_moves(pos, &root);
        if legal.is_empty() && !self.excluded.is_empty() {
            // The forced replies are all excluded: look at every move (they lose, and the
            // search says by how much).
            movegen::generate(
                pos,
                movegen::Mode::All,
                self.history_of(pos.side()),
                &mut root,
            );
            legal = self.allowed_root_moves(pos, &root);
        }
        if legal.len() < root.len() {
            root.reorder(&mut legal);
        }
        root
    }

    /// A Lazy SMP helper thread: deepens over the same root moves as the main thread
    /// until stopped, leaving what it learns in the shared hash table, where the main
    /// thread finds it. Odd helpers run a depth ahead, so the threads spread over two
    /// depths. Returns its node count. With the reductions of 2026-11-23, 2 threads
    /// against 1 at 300 ms a move (2 cores, idle): 66-41-13 on the freestyle15 suite and
    /// 42-27-11 on 40 of its mirrored openings, together about +70 +/- 47 Elo.
    fn help(&mut self, pos: &mut Position, index: usize) -> SearchResult {
        let mut root = self.root_moves(pos);
        let mut result = SearchResult {
            best: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if root.len() > 1 {
            for depth in (1 + index as u32 % 2)..=self.max_depth() {
                let (score, best) = self.aspiration(pos, &mut root, depth as i32, result.score);
                if self.aborted {
                    break;
                }
                result = SearchResult {
                    best,
                    score,
                    depth,
                    nodes: 0,
                };
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn max_depth(&self) -> u32 {
        self.limits
            .max_depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH)
    }

    /// Our five square that is not excluded, if any.
    fn root_five(&self, pos: &Position) -> Option<Move> {
        let us = pos.side();
        if self.excluded.is_empty() {
            return pos.find_threat(us, Threat::Five);
        }
        pos.board
            .empty_squares()
            .find(|m| pos.threat(us, *m) == Threat::Five && !self.excluded.contains(m))
    }

    /// The root moves with their order scores, without renju fouls (the shape test lets
    /// a few through) and excluded squares.
    fn allowed_root_moves(&self, pos: &Position, root: &MoveList) -> Vec<(i32, Move)> {
        (0..root.len())
            .map(|i| (root.score(i), root.get(i)))
            .filter(|&(_, m)| !pos.board.is_forbidden_for(pos.side(), m))
            .filter(|(_, m)| !self.excluded.contains(m))
            .collect()
    }

    fn history_of(&self, c: Color) -> &[i32] {
        &self.history[c.idx() * CELLS..(c.idx() + 1) * CELLS]
    }

    fn depth_line(&self, depth: u32, score: i32) -> String {
        let ms = self.start.elapsed().as_millis().max(1) as u64;
        let pv: Vec<String> = self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|m| format!("{},{}", m.x(), m.y()))
            .collect();
        format!(
            "depth {} score {} nodes {} nps {} time {} pv {}",
            depth,
            score_text(score),
            self.nodes,
            self.nodes * 1000 / ms,
            ms,
            pv.join(" ")
        )
    }
}

/// Picks the best-ordered root move to have an answer before any depth completes.
fn root_first(root: &mut MoveList) -> Move {
    if root.is_empty() {
        Move::NONE
    } else {
        root.pick(0)
    }
}

/// Human-readable score: centi-like units, or "win in N"/"loss in N" plies.
pub fn score_text(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("win{}", WIN - score)
    } else if score <= -WIN_BOUND {
        format!("loss{}", WIN + score)
    } else {
        score.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    fn board(
        size: usize,
        rule: Rule,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
        to_move: Color,
    ) -> Board {
        let mut b = Board::new(size, size, rule);
        for &(x, y) in black {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for &(x, y) in white {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b.set_side_to_move(to_move);
        b
    }

    fn best(b: &Board, depth: u32) -> (usize, usize) {
        let mut s = Searcher::new(1 << 20);
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: Some(depth),
            max_nodes: None,
        };
        let r = s.search(b, &limits, &AtomicBool::new(false), &mut |_| {});
        (r.best.x(), r.best.y())
    }

    fn limits(depth: Option<u32>, nodes: Option<u64>) -> Limits {
        Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: depth,
            max_nodes: nodes,
        }
    }

    #[test]
    fn two_threads_block_a_four_and_take_a_five() {
        let mut s = Searcher::new(1 << 20);
        s.set_threads(2);
        assert_eq!(s.threads(), 2);
        let four = four_to_block();
        let stop = AtomicBool::new(false);
        for _ in 0..3 {
            let r = s.search(&four, &limits(Some(6), None), &stop, &mut |_| {});
            assert_eq!((r.best.x(), r.best.y()), (7, 3));
        }
        let open = board(
            15,
            Rule::Freestyle,
            &[(5, 5), (6, 6), (7, 7), (9, 2)],
            &[(3, 9), (4, 9), (5, 9), (6, 9)],
            Color::White,
        );
        let r = s.search(&open, &limits(Some(8), None), &stop, &mut |_| {});
        assert!(r.best == Move::from_xy(2, 9) || r.best == Move::from_xy(7, 9));
    }

    #[test]
    fn a_lost_double_three_still_gets_a_searched_block() {
        // White's open threes on row 7 and column 9 (played last at 9,7): no single Black
        // stone stops both and Black has no four, so the defence set is empty.
        let mut b = board(
            15,
            Rule::Freestyle,
            &[(2, 2), (12, 2), (2, 12), (12, 12)],
            &[(7, 7), (8, 7), (9, 5), (9, 6)],
            Color::White,
        );
        b.make(Move::from_xy(9, 7));
        let pos = Position::new(&b);
        assert_eq!(movegen::mode(&pos), movegen::Mode::DefendFour);
        let mut list = MoveList::new();
        movegen::generate(&pos, movegen::Mode::DefendFour, &[0; CELLS], &mut list);
        assert!(list.is_empty(), "{} moves", list.len());
        let (x, y) = best(&b, 4);
        let blocks = [
            (6, 7),
            (10, 7),
            (5, 7),
            (11, 7),
            (9, 4),
            (9, 8),
            (9, 3),
            (9, 9),
        ];
        assert!(blocks.contains(&(x, y)), "{x},{y}");
    }

    #[test]
    fn a_deeper_helper_result_replaces_the_main_one_unless_the_main_is_decided() {
        let r = |x: usize, score: i32, depth: u32, nodes: u64| SearchResult {
            best: Move::from_xy(x, 7),
            score,
            depth,
            nodes,
        };
        assert_eq!(deeper(r(1, 10, 8, 100), r(2, -5, 9, 50)), r(2, -5, 9, 150));
        assert_eq!(deeper(r(1, 10, 9, 100), r(2, -5, 9, 50)), r(1, 10, 9, 150));
        assert_eq!(
            deeper(r(1, WIN - 5, 8, 100), r(2, 0, 9, 50)),
            r(1, WIN - 5, 8, 150)
        );
        assert_eq!(
            deeper(r(1, WIN_BOUND, 0, 100), r(2, 0, 9, 50)),
            r(1, WIN_BOUND, 0, 150)
        );
        let none = SearchResult {
            best: Move::NONE,
            ..r(0, 0, 12, 7)
        };
        assert_eq!(deeper(r(1, 10, 8, 100), none), r(1, 10, 8, 107));
    }

    #[test]
    fn a_node_limited_search_ignores_threads_and_repeats_exactly() {
        let b = crate::search::bench::position(15, Rule::Freestyle, "7,7 8,8 6,8 8,6 8,7");
        let run = |threads: usize| {
            let mut s = Searcher::new(1 << 20);
            s.set_threads(threads);
            s.search(
                &b,
                &limits(None, Some(30_000)),
                &AtomicBool::new(false),
                &mut |_| {},
            )
        };
        let one = run(1);
        assert!(one.nodes >= 30_000, "{one:?}");
        assert_eq!(run(2), one);
        assert_eq!(run(3), one);
    }

    #[test]
    fn completes_its_own_five_before_blocking() {
        let b = board(
            15,
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 9), (4, 9), (5, 9), (6, 9)],
            Color::White,
        );
        let m = best(&b, 4);
        assert!(m == (2, 9) || m == (7, 9), "{m:?}");
    }

    /// Black's closed four on row 3 (White at 2,3): White to move must block at 7,3.
    fn four_to_block() -> Board {
        board(
            15,
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3), (8, 8), (9, 9)],
            Color::White,
        )
    }

    #[test]
    fn blocks_a_four() {
        assert_eq!(best(&four_to_block(), 4), (7, 3));
    }

    #[test]
    fn finds_a_vcf() {
        // Black: closed four chances that chain into a double four.
        //  . X X X o  on row 5 and a column through (5,5)
        let b = board(
            15,
            Rule::Freestyle,
            &[(2, 5), (3, 5), (4, 5), (6, 2), (6, 3), (6, 4)],
            &[(1, 5), (6, 1), (10, 10), (11, 10), (12, 12), (0, 14)],
            Color::Black,
        );
        // 6,5 makes two fours at once (row 2..6 and column 2..6): a double four.
        let m = best(&b, 2);
        assert!(m == (5, 5) || m == (6, 5), "{m:?}");
    }

    #[test]
    fn standard_rule_vector_blocks_open_three_without_six() {
        // GomocupJudge: h8h9i8h10g8h11j13h12g14h14i15, White to move: f8 or j8.
        let b = crate::search::bench::position(
            15,
            Rule::Standard,
            "7,7 7,8 8,7 7,9 6,7 7,10 9,12 7,11 6,13 7,13 8,14",
        );
        let m = best(&b, 4);
        assert!(m == (5, 7) || m == (9, 7), "{m:?}");
    }

    #[test]
    fn caro_vector_avoids_a_dead_five() {
        // GomocupJudge: h8f8g8f9i8f7j8l8, Black to move: f5, f6, f10 or f11.
        let b = crate::search::bench::position(15, Rule::Caro, "7,7 5,7 6,7 5,8 8,7 5,6 9,7 11,7");
        let m = best(&b, 4);
        assert!(m.0 == 5 && [4, 5, 9, 10].contains(&m.1), "{m:?}");
    }

    #[test]
    fn renju_vector_avoids_the_forbidden_point() {
        let b =
            crate::search::bench::position(15, Rule::Renju, "7,7 7,8 8,6 8,8 7,9 8,5 8,10 8,11");
        assert_ne!(best(&b, 4), (6, 8));
    }

    #[test]
    fn renju_never_plays_a_one_line_double_four() {
        // `X.X*X.X` on row 7: (5,7) makes two fours in one line, which the shape-based
        // evaluation takes for an open four; the exact renju check forbids it.
        let black = [(2, 7), (4, 7), (6, 7), (8, 7)];
        let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
        let b = board(15, Rule::Renju, &black, &white, Color::Black);
        assert!(b.is_forbidden(Move::from_xy(5, 7)));
        let m = best(&b, 4);
        assert_ne!(m, (5, 7));
        assert!(!b.is_forbidden(Move::from_xy(m.0, m.1)), "{m:?}");
    }

    #[test]
    fn renju_search_skips_a_forbidden_vcf_move_and_names_the_move_it_plays() {
        // As above: the shape test sees an open four at (5,7), the exact check a foul.
        let black = [(2, 7), (4, 7), (6, 7), (8, 7)];
        let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
        let b = board(15, Rule::Renju, &black, &white, Color::Black);
        let mut s = Searcher::new(1 << 20);
        let limits = Limits {
            clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
            max_depth: Some(3),
            max_nodes: None,
        };
        let mut messages = Vec::new();
        let r = s.search(&b, &limits, &AtomicBool::new(false), &mut |m| {
            messages.push(m)
        });
        assert!(!b.is_forbidden(r.best), "{:?}", r.best);
        assert!(
            messages.iter().all(|m| !m.contains("playing 5,7")),
            "{messages:?}"
        );
        // The move came from the search (a depth was completed), not from the fallback.
        assert!(r.depth >= 1, "{r:?} {messages:?}");
    }

    #[test]
    fn bench_is_deterministic() {
        assert_eq!(bench::run(3, None).nodes, bench::run(3, None).nodes);
    }

    #[test]
    #[ignore]
    fn bench_print() {
        let r = bench::run(bench::DEFAULT_DEPTH, None);
        eprintln!(
            "nodes {} nps {} ms {}",
            r.nodes,
            r.nps(),
            r.elapsed.as_millis()
        );
    }
}
