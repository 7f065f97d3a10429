//! Incremental evaluation: per empty square and colour, the four line patterns, their
//! combined threat and a value. A stone changes the keys of forty squares, so make and
//! undo refresh only those; the position score is a running sum over empty squares.

use super::pattern::{Pattern, PatternTable, PATTERN_COUNT};
use super::weights::{
    combination_index, combo_key, pattern_feature, threat_feature, Weights, COMBINATIONS, FEATURES,
    F_INITIATIVE_THREAT, F_INITIATIVE_WIN, F_TEMPO, MOVER, NEAR_BUCKETS, STATE_CODES, THREAT_COUNT,
    WAITER,
};
use crate::game::{Board, Cell, Color, Move, Rule, CELLS, DIRS};
use std::sync::OnceLock;

/// What one move on a square makes for a colour, over all four lines. Ordered by force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    /// Renju: Black may not play here (overline, double four or double three).
    Forbidden = 0,
    None,
    /// One open three.
    Flex3,
    /// An open three plus another three or open two.
    Flex3Plus,
    /// Two open threes.
    DoubleThree,
    /// A four and nothing much else.
    Four,
    /// A four plus a closed three or open two.
    FourPlus,
    /// A four plus an open three: wins unless the four's block also defends.
    FourThree,
    /// An open four or two fours: wins unless the opponent has a five.
    FlexFour,
    /// A five: wins now.
    Five,
}

// The weights hold one threat bonus per `Threat` value (`weights::THREAT_COUNT`).
const _: () = assert!(Threat::Five as usize + 1 == THREAT_COUNT);

impl Threat {
    #[inline]
    pub fn is_four(self) -> bool {
        self >= Threat::Four
    }

    /// How urgent a move making this threat is, for move ordering: the search ranks a
    /// move by the larger of twice its own threat's rank and the opponent's threat's there.
    #[inline]
    pub fn order_rank(self) -> i32 {
        match self {
            Threat::Five => 60,
            Threat::FlexFour => 30,
            Threat::FourThree => 20,
            Threat::DoubleThree => 8,
            Threat::FourPlus | Threat::Flex3Plus => 4,
            Threat::Four | Threat::Flex3 => 2,
            Threat::None | Threat::Forbidden => 0,
        }
    }
}

/// Aligned to eight bytes with no odd tail, so copies into the journal are whole words
/// (an unaligned copy through the stack stalled on overlapping stores: -4% time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
struct CellInfo {
    pat: [[Pattern; 4]; 2],
    /// Per colour, `combination_index(pat)`: kept up to date by arithmetic when one line
    /// changes, rather than rebuilt from the patterns (a byte store followed by a word
    /// load of the same array stalls the processor; that was an eighth of the search).
    combo: [u16; 2],
    threat: [Threat; 2],
    /// Per colour, the square's value when that colour is to move and when it is not
    /// (indexed by `MOVER` / `WAITER`).
    value: [[i16; 2]; 2],
}

const EMPTY_INFO: CellInfo = CellInfo {
    pat: [[Pattern::Dead; 4]; 2],
    combo: [0; 2],
    threat: [Threat::None; 2],
    value: [[0; 2]; 2],
};

/// A square's info as it was before a stone changed it.
#[derive(Clone, Copy)]
#[repr(C)]
struct Saved {
    info: CellInfo,
    idx: u32,
}

/// What one `after_place` changed: the journal from `journal_len` on, and the totals.
#[derive(Clone, Copy)]
struct Frame {
    journal_len: u32,
    sum: [[i32; 2]; 2],
    counts: [[u16; THREAT_COUNT]; 2],
}

/// Journal entries one stone can write: its own square and its line neighbours, each
/// once whatever changed for either colour.
const SAVED_PER_MOVE: usize = 1 + LINE_SQUARES;
/// Squares on a stone's four lines within five of it: the most one stone can change.
const LINE_SQUARES: usize = 4 * 2 * 5;
/// Plies the journal holds without growing (it grows if a line runs deeper).
const JOURNAL_PLIES: usize = 128;

/// A square's threat and values (as mover, as waiter) for one colour, given its four
/// line patterns.
#[derive(Clone, Copy)]
struct Combined {
    threat: Threat,
    value: [i16; 2],
    /// `Weights::policy` at these patterns: as the side to move's own, as the opponent's.
    policy: [i16; 2],
}

/// A square's value for one role: its four patterns' values plus its threat's bonus plus
/// the correction for its combination of patterns (`Weights::combo`).
fn square_value(w: &Weights, role: usize, pats: [Pattern; 4], threat: Threat) -> i16 {
    pats.iter()
        .map(|&p| w.pattern[role][p as usize])
        .fold(w.threat[role][threat as usize], i16::saturating_add)
        .saturating_add(w.combo[role][combo_key(pats)])
}

/// `combine` and the value sums for every four patterns, looked up on each pattern change
/// instead of recounted. Five tables: freestyle and standard (each its own weights), Black
/// (forbidden points) and White under renju (each colour its own weights), and the caro
/// rules.
fn combined_table(rule: Rule, c: Color) -> &'static [Combined] {
    static TABLES: [OnceLock<Vec<Combined>>; 5] = [const { OnceLock::new() }; 5];
    let slot = match rule {
        Rule::Freestyle => 0,
        Rule::Renju if c == Color::Black => 1,
        Rule::Renju => 4,
        Rule::Standard => 3,
        Rule::Caro | Rule::CaroExact => 2,
    };
    TABLES[slot].get_or_init(|| {
        let w = Weights::for_side(rule, c);
        (0..COMBINATIONS)
            .map(|i| {
                let pats = [3, 2, 1, 0]
                    .map(|k| Pattern::from_u8((i / PATTERN_COUNT.pow(k) % PATTERN_COUNT) as u8));
                let threat = combine(pats, rule, c);
                let value = [MOVER, WAITER].map(|role| square_value(w, role, pats, threat));
                let key = combo_key(pats);
                Combined {
                    threat,
                    value,
                    policy: [w.policy[0][key], w.policy[1][key]],
                }
            })
            .collect()
    })
}

/// What one step of direction `d`'s pattern weighs in `combination_index`.
const DIR_WEIGHT: [i32; 4] = [
    (PATTERN_COUNT * PATTERN_COUNT * PATTERN_COUNT) as i32,
    (PATTERN_COUNT * PATTERN_COUNT) as i32,
    PATTERN_COUNT as i32,
    1,
];

#[derive(Clone)]
pub struct Evaluator {
    table: &'static PatternTable,
    /// Per colour: the tempo and initiative terms when that colour is to move.
    weights: [&'static Weights; 2],
    /// Per colour, built from that colour's weights.
    combined: [&'static [Combined]; 2],
    cells: Vec<CellInfo>,
    /// Sum of `value` over empty squares, per colour and role.
    sum: [[i32; 2]; 2],
    /// Number of empty squares holding each threat, per colour.
    counts: [[u16; THREAT_COUNT]; 2],
    /// Undo by restoring what `after_place` overwrote: recomputing the forty squares on
    /// undo would cost as much again as the move itself.
    journal: Vec<Saved>,
    frames: Vec<Frame>,
    recording: bool,
    /// Whether either colour's weights have a `policy` table.
    has_policy: bool,
}

impl Evaluator {
    pub fn new(board: &Board) -> Evaluator {
        let mut e = Evaluator {
            table: PatternTable::for_rule(board.rule()),
            weights: [Color::Black, Color::White].map(|c| Weights::for_side(board.rule(), c)),
            combined: [Color::Black, Color::White].map(|c| combined_table(board.rule(), c)),
            cells: vec![EMPTY_INFO; CELLS],
            sum: [[0; 2]; 2],
            counts: [[0; THREAT_COUNT]; 2],
            journal: Vec::with_capacity(SAVED_PER_MOVE * JOURNAL_PLIES),
            frames: Vec::with_capacity(JOURNAL_PLIES),
            recording: false,
            has_policy: [Color::Black, Color::White].iter().any(|&c| {
                let w = Weights::for_side(board.rule(), c);
                w.policy.iter().flatten().any(|&v| v != 0)
                    || w.policy_near.iter().flatten().any(|&v| v != 0)
            }),
        };
        for m in board.empty_squares() {
            e.counts[0][Threat::None as usize] += 1;
            e.counts[1][Threat::None as usize] += 1;
            e.refresh(board, m);
        }
        e
    }

    /// Call after `board` got a stone at `m`.
    #[inline]
    pub fn after_place(&mut self, board: &Board, m: Move) {
        self.frames.push(Frame {
            journal_len: self.journal.len() as u32,
            sum: self.sum,
            counts: self.counts,
        });
        self.recording = true;
        self.save(m);
        for c in [Color::Black, Color::White] {
            // Index 0 is four Dead lines: no threat, no value (as on every stone).
            self.set(c, m, 0, |p| *p = EMPTY_INFO.pat[0]);
            self.counts[c.idx()][Threat::None as usize] -= 1;
        }
        self.refresh_lines(board, m);
        self.recording = false;
    }

    /// Call after the stone at `m` was taken off `board`. Undoing the last `after_place`
    /// restores the journal; a stone placed before this evaluator existed is recomputed.
    #[inline]
    pub fn after_remove(&mut self, board: &Board, m: Move) {
        if let Some(frame) = self.frames.pop() {
            for saved in self.journal.drain(frame.journal_len as usize..).rev() {
                self.cells[saved.idx as usize] = saved.info;
            }
            self.sum = frame.sum;
            self.counts = frame.counts;
            return;
        }
        self.counts[0][Threat::None as usize] += 1;
        self.counts[1][Threat::None as usize] += 1;
        self.refresh(board, m);
        self.refresh_lines(board, m);
    }

    /// Refreshes the empty squares on `m`'s four lines within the pattern table's reach.
    ///
    /// Two passes: every square's new patterns are read first, then applied, so the
    /// table loads (mostly cache misses) overlap instead of each waiting behind the last
    /// square's updates and its branch on whether anything changed.
    fn refresh_lines(&mut self, board: &Board, m: Move) {
        let reach = self.table.reach();
        let mut found = [(Move::NONE, 0u8, [Pattern::Dead; 2]); LINE_SQUARES];
        let mut n = 0;
        for (d, &step) in DIRS.iter().enumerate() {
            for off in 1..=reach {
                for q in [m.offset(off * step), m.offset(-off * step)] {
                    if board.cell(q) == Cell::Empty {
                        found[n] = (q, d as u8, self.table.get_pair(board.key(q, d)));
                        n += 1;
                    }
                }
            }
        }
        for &(q, d, new) in &found[..n] {
            self.refresh_dir(q, d as usize, new);
        }
    }

    fn refresh(&mut self, board: &Board, m: Move) {
        self.save(m);
        let pairs = [0, 1, 2, 3].map(|d| self.table.get_pair(board.key(m, d)));
        for c in [Color::Black, Color::White] {
            let pats = pairs.map(|pair| pair[c.idx()]);
            self.set(c, m, combination_index(pats) as u16, |p| *p = pats);
        }
    }

    /// Gives `m` the patterns `new` (both colours) along direction `d`.
    #[inline]
    fn refresh_dir(&mut self, m: Move, d: usize, new: [Pattern; 2]) {
        let cell = &self.cells[m.idx()];
        let old = [cell.pat[0][d], cell.pat[1][d]];
        if old == new {
            return;
        }
        self.save(m);
        for c in [Color::Black, Color::White] {
            let (p, was) = (new[c.idx()], old[c.idx()]);
            if p != was {
                let step = (p as i32 - was as i32) * DIR_WEIGHT[d];
                let combo = (self.cells[m.idx()].combo[c.idx()] as i32 + step) as u16;
                self.set(c, m, combo, |pats| pats[d] = p);
            }
        }
    }

    /// Journals `m`'s info before a change, while a move is being recorded.
    #[inline]
    fn save(&mut self, m: Move) {
        if self.recording {
            self.journal.push(Saved {
                idx: m.idx() as u32,
                info: self.cells[m.idx()],
            });
        }
    }

    /// Gives `c`'s view of `m` the patterns `write` makes, whose combination index is
    /// `combo`, with that combination's threat and values. The caller journals `m` first.
    #[inline]
    fn set(&mut self, c: Color, m: Move, combo: u16, write: impl FnOnce(&mut [Pattern; 4])) {
        let Combined { threat, value, .. } = self.combined[c.idx()][combo as usize];
        let ci = c.idx();
        let cell = &mut self.cells[m.idx()];
        self.counts[ci][cell.threat[ci] as usize] -= 1;
        self.counts[ci][threat as usize] += 1;
        for role in [MOVER, WAITER] {
            self.sum[ci][role] += (value[role] - cell.value[ci][role]) as i32;
        }
        write(&mut cell.pat[ci]);
        cell.combo[ci] = combo;
        cell.threat[ci] = threat;
        cell.value[ci] = value;
    }

    /// Static score from the side to move's point of view: its shapes with its weights as
    /// mover, the opponent's with the opponent's weights as waiter, and the mover's tempo,
    /// initiative and threat-state terms. Rescaled, averaged with the parent's, or with
    /// another tempo, it played worse (journal "Static evaluation and improving").
    #[inline]
    pub fn evaluate(&self, side: Color) -> i32 {
        let w = self.weights[side.idx()];
        let initiative = match self.initiative(side) {
            1 => w.initiative_win,
            -1 => -w.initiative_threat,
            _ => 0,
        };
        self.sum[side.idx()][MOVER] - self.sum[side.opp().idx()][WAITER]
            + w.tempo
            + initiative
            + w.state[self.state_index(side)] as i32
    }

    /// The threat state of the position for `side` to move: `state_code` of the side to
    /// move, then of its opponent, as one index below `STATES`.
    #[inline]
    pub fn state_index(&self, side: Color) -> usize {
        self.state_code(side) * STATE_CODES + self.state_code(side.opp())
    }

    /// One colour's threats in brief: whether it can make an open four (an open three on
    /// the board), a four-three, a double three, and how many squares make a plain four
    /// and an open three (0, 1, 2 or more each).
    #[inline]
    fn state_code(&self, c: Color) -> usize {
        let n = &self.counts[c.idx()];
        let has = |t: Threat| (n[t as usize] > 0) as usize;
        let fours = (n[Threat::Four as usize] + n[Threat::FourPlus as usize]).min(2) as usize;
        let threes = (n[Threat::Flex3 as usize] + n[Threat::Flex3Plus as usize]).min(2) as usize;
        (((has(Threat::FlexFour) * 2 + has(Threat::FourThree)) * 2 + has(Threat::DoubleThree)) * 3
            + fours)
            * 3
            + threes
    }

    /// Who holds the initiative: a double three or four-three we can play while the
    /// opponent has no four to interpose is nearly always a win (1); the opponent holding
    /// one while we have no four forces our next move (-1); else 0.
    fn initiative(&self, side: Color) -> i32 {
        let them = side.opp();
        let winning_shapes =
            |c: Color| self.count(c, Threat::FourThree) + self.count(c, Threat::DoubleThree);
        if self.count_at_least(them, Threat::Four) == 0 && winning_shapes(side) > 0 {
            1
        } else if self.count_at_least(side, Threat::Four) == 0 && winning_shapes(them) > 0 {
            -1
        } else {
            0
        }
    }

    /// What `evaluate(side)` is linear in, one block per colour (indexed by `Color::idx`):
    /// the terms weighed with that colour's weights. `evaluate(side)` is the sum over
    /// both colours of the block's dot product with `Weights::for_side(rule, colour)
    /// .to_vector()`, plus the side's threat-state value (`state_index`). Counts of each
    /// pattern (over the four lines) and threat on the empty squares, for `side` as mover
    /// (with the tempo and initiative terms, in `side`'s block) and, negated, for the
    /// opponent as waiter (in the opponent's block). For tuning; it walks the whole board.
    pub fn features(&self, side: Color) -> [[i32; FEATURES]; 2] {
        let mut f = [[0; FEATURES]; 2];
        let mover = &mut f[side.idx()];
        mover[F_TEMPO] = 1;
        match self.initiative(side) {
            1 => mover[F_INITIATIVE_WIN] = 1,
            -1 => mover[F_INITIATIVE_THREAT] = -1,
            _ => {}
        }
        for (role, c, sign) in [(MOVER, side, 1), (WAITER, side.opp(), -1)] {
            let block = &mut f[c.idx()];
            // Squares with stones hold `EMPTY_INFO`, whose Dead/None entries weigh 0 in
            // every weight set; counting them anyway keeps the dot product exact.
            for cell in &self.cells {
                for p in cell.pat[c.idx()] {
                    block[pattern_feature(role, p as usize)] += sign;
                }
                block[threat_feature(role, cell.threat[c.idx()] as usize)] += sign;
            }
        }
        f
    }

    /// For tuning the combination corrections (`Weights::combo`): per empty square, the
    /// key (`combo_key`) of `side`'s patterns as mover and, negated, of the opponent's as
    /// waiter, as `(role * COMBINATIONS + key, count)` with each index once. Squares
    /// whose lines are all Dead are left out (they are worth nothing).
    pub fn combo_features(&self, side: Color) -> Vec<(usize, i32)> {
        let mut keys = Vec::with_capacity(2 * self.cells.len());
        for (role, c) in [(MOVER, side), (WAITER, side.opp())] {
            for cell in &self.cells {
                let key = combo_key(cell.pat[c.idx()]);
                if key != 0 {
                    keys.push(role * COMBINATIONS + key);
                }
            }
        }
        keys.sort_unstable();
        let mut out: Vec<(usize, i32)> = Vec::new();
        for k in keys {
            let sign = if k < COMBINATIONS { 1 } else { -1 };
            match out.last_mut() {
                Some((last, n)) if *last == k => *n += sign,
                _ => out.push((k, sign)),
            }
        }
        out
    }

    #[inline]
    pub fn threat(&self, c: Color, m: Move) -> Threat {
        self.cells[m.idx()].threat[c.idx()]
    }
    /// How far along a line a stone can change a square's patterns.
    #[inline]
    pub fn reach(&self) -> isize {
        self.table.reach()
    }
    #[inline]
    pub fn pattern(&self, c: Color, m: Move, dir: usize) -> Pattern {
        self.cells[m.idx()].pat[c.idx()][dir]
    }
    #[inline]
    /// What `m` is worth to `c` as the side to move (move ordering uses it).
    pub fn value(&self, c: Color, m: Move) -> i32 {
        self.cells[m.idx()].value[c.idx()][MOVER] as i32
    }
    /// Whether the weights hold a move-ordering table (`Weights::policy`).
    #[inline]
    pub fn has_policy(&self) -> bool {
        self.has_policy
    }
    /// `Weights::policy_near` of `us`'s weights.
    #[inline]
    pub fn policy_near(&self, us: Color) -> &[[i16; NEAR_BUCKETS]; 2] {
        &self.weights[us.idx()].policy_near
    }
    /// The move-ordering score of `m` for `us` (`Weights::policy`, our weights for both
    /// sides' shapes); 0 when the weights have no policy.
    #[inline]
    pub fn policy(&self, us: Color, m: Move) -> i32 {
        let cell = &self.cells[m.idx()];
        let them = us.opp();
        let table = self.combined[us.idx()];
        table[cell.combo[us.idx()] as usize].policy[0] as i32
            + table[cell.combo[them.idx()] as usize].policy[1] as i32
    }
    /// Number of empty squares where `c` would make `t`.
    #[inline]
    pub fn count(&self, c: Color, t: Threat) -> u32 {
        self.counts[c.idx()][t as usize] as u32
    }
    /// Number of empty squares where `c` would make at least `t` (forbidden squares excluded).
    #[inline]
    pub fn count_at_least(&self, c: Color, t: Threat) -> u32 {
        self.counts[c.idx()][t as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }
}

/// Combines the four line patterns of a square into its threat.
fn combine(pats: [Pattern; 4], rule: Rule, c: Color) -> Threat {
    let mut n = [0u8; PATTERN_COUNT];
    for p in pats {
        n[p as usize] += 1;
    }
    let count = |p: Pattern| n[p as usize];
    if count(Pattern::F5) > 0 {
        return Threat::Five;
    }
    let fours = count(Pattern::F4) + count(Pattern::B4);
    let threes = count(Pattern::F3);
    if rule == Rule::Renju
        && c == Color::Black
        && (count(Pattern::Overline) > 0 || fours >= 2 || threes >= 2)
    {
        return Threat::Forbidden;
    }
    let minor = count(Pattern::B3) + count(Pattern::F2);
    if count(Pattern::F4) > 0 || fours >= 2 {
        Threat::FlexFour
    } else if fours == 1 && threes > 0 {
        Threat::FourThree
    } else if fours == 1 && minor > 0 {
        Threat::FourPlus
    } else if fours == 1 {
        Threat::Four
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if threes == 1 && minor > 0 {
        Threat::Flex3Plus
    } else if threes == 1 {
        Threat::Flex3
    } else {
        Threat::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule);
        for &(x, y) in black {
            b.place(Move::from_xy(x, y), Color::Black);
        }
        for &(x, y) in white {
            b.place(Move::from_xy(x, y), Color::White);
        }
        b
    }

    /// Every rule: freestyle refreshes four squares each way, the others five (an exact
    /// five sees the square beyond), and each must agree with a recompute.
    #[test]
    fn incremental_matches_full_recompute() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            incremental_matches_full_recompute_under(rule);
        }
    }

    fn incremental_matches_full_recompute_under(rule: Rule) {
        let mut b = Board::new(15, 15, rule);
        let mut e = Evaluator::new(&b);
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (7, 9),
            (9, 9),
            (5, 5),
            (4, 4),
            (0, 14),
        ];
        let same = |e: &Evaluator, b: &Board| {
            let fresh = Evaluator::new(b);
            assert_eq!(e.sum, fresh.sum);
            assert_eq!(e.counts, fresh.counts);
            for m in b.empty_squares() {
                assert_eq!(e.cells[m.idx()], fresh.cells[m.idx()], "{m:?}");
            }
        };
        for &(x, y) in &moves[..4] {
            let m = Move::from_xy(x, y);
            b.make(m);
            e.after_place(&b, m);
            same(&e, &b);
        }
        // A second evaluator made mid-game recomputes when undoing stones older than itself.
        let mut late = Evaluator::new(&b);
        for &(x, y) in &moves[4..] {
            let m = Move::from_xy(x, y);
            b.make(m);
            e.after_place(&b, m);
            late.after_place(&b, m);
            same(&e, &b);
        }
        while let Some(m) = b.undo() {
            e.after_remove(&b, m);
            late.after_remove(&b, m);
            same(&e, &b);
            same(&late, &b);
        }
        assert!(e.journal.is_empty() && e.frames.is_empty());
    }

    #[test]
    fn features_dot_weights_is_evaluate() {
        // Black builds two open twos crossing at 7,7 (a double-three square), then White
        // answers nearby.
        let moves = [
            (5, 7),
            (0, 0),
            (6, 7),
            (0, 14),
            (7, 5),
            (14, 0),
            (7, 6),
            (8, 8),
            (3, 3),
            (9, 9),
        ];
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let w = [Color::Black, Color::White].map(|c| Weights::for_side(rule, c).to_vector());
            let mut b = Board::new(15, 15, rule);
            let mut e = Evaluator::new(&b);
            let mut seen_initiative = false;
            for &(x, y) in &moves {
                let m = Move::from_xy(x, y);
                b.make(m);
                e.after_place(&b, m);
                for side in [Color::Black, Color::White] {
                    let f = e.features(side);
                    let dot: f64 = (0..2)
                        .flat_map(|c| f[c].iter().zip(&w[c]).map(|(&x, wv)| x as f64 * wv))
                        .sum();
                    let state = Weights::for_side(rule, side).state[e.state_index(side)];
                    let combos: i32 = e
                        .combo_features(side)
                        .iter()
                        .map(|&(j, n)| {
                            let (c, role) = if j < COMBINATIONS {
                                (side, MOVER)
                            } else {
                                (side.opp(), WAITER)
                            };
                            n * Weights::for_side(rule, c).combo[role][j % COMBINATIONS] as i32
                        })
                        .sum();
                    assert_eq!(
                        dot + state as f64 + combos as f64,
                        e.evaluate(side) as f64,
                        "{rule:?} {side:?}"
                    );
                    // The tempo and initiative terms are the mover's.
                    let (us, them) = (&f[side.idx()], &f[side.opp().idx()]);
                    assert_eq!((us[F_TEMPO], them[F_TEMPO]), (1, 0));
                    assert_eq!((them[F_INITIATIVE_WIN], them[F_INITIATIVE_THREAT]), (0, 0));
                    seen_initiative |= us[F_INITIATIVE_WIN] != 0 || us[F_INITIATIVE_THREAT] != 0;
                }
            }
            // Under renju Black's double three is forbidden, so no initiative there.
            assert_eq!(seen_initiative, rule != Rule::Renju, "{rule:?}");
        }
    }

    /// `state_code` from its parts, written out apart from the packing in the engine.
    fn code(open_four: bool, four_three: bool, double_three: bool, fours: u8, threes: u8) -> usize {
        let bits = open_four as usize * 4 + four_three as usize * 2 + double_three as usize;
        bits * 9 + fours.min(2) as usize * 3 + threes.min(2) as usize
    }

    #[test]
    fn threat_state_is_each_side_threats_in_brief() {
        let empty = Board::new(15, 15, Rule::Freestyle);
        assert_eq!(Evaluator::new(&empty).state_index(Color::Black), 0);
        // Black's open three on row 7: two open-four squares (5,7 and 9,7) and two
        // squares making a broken four (4,7 and 10,7); nothing makes an open three.
        let black = [(6, 7), (7, 7), (8, 7)];
        let b = board_with(Rule::Freestyle, &black, &[]);
        let e = Evaluator::new(&b);
        let bc = code(true, false, false, 2, 0);
        assert_eq!(e.state_index(Color::Black), bc * STATE_CODES);
        assert_eq!(e.state_index(Color::White), bc);
        // White's open two far away on row 2: 1,2, 4,2 and 5,2 make open threes.
        let b = board_with(Rule::Freestyle, &black, &[(2, 2), (3, 2)]);
        let e = Evaluator::new(&b);
        let wc = code(false, false, false, 0, 3);
        assert_eq!(e.state_index(Color::Black), bc * STATE_CODES + wc);
        assert_eq!(e.state_index(Color::White), wc * STATE_CODES + bc);
    }

    #[test]
    fn combined_table_agrees_with_combine_for_every_order_of_lines() {
        use Pattern::*;
        let cases = [
            [F3, B4, Dead, F2],
            [B4, Dead, F2, F3],
            [F5, B1, B1, B1],
            [B1, B1, B1, F5],
            [F3, F3, Dead, Dead],
            [Overline, B4, B4, Dead],
            [Dead, B3, F1, F4],
            [Dead, Dead, Dead, Dead],
        ];
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for c in [Color::Black, Color::White] {
                let table = combined_table(rule, c);
                for pats in cases {
                    let want = combine(pats, rule, c);
                    let w = Weights::for_side(rule, c);
                    let value = [MOVER, WAITER].map(|role| {
                        pats.iter()
                            .map(|&p| w.pattern[role][p as usize])
                            .sum::<i16>()
                            + w.threat[role][want as usize]
                            + w.combo[role][combo_key(pats)]
                    });
                    let got = table[combination_index(pats)];
                    // Incremental updates step the index by DIR_WEIGHT per pattern step.
                    let stepped: i32 = (0..4).map(|d| pats[d] as i32 * DIR_WEIGHT[d]).sum();
                    assert_eq!(stepped as usize, combination_index(pats));
                    assert_eq!(
                        (got.threat, got.value),
                        (want, value),
                        "{pats:?} {rule:?} {c:?}"
                    );
                }
            }
        }
        assert_eq!(
            combined_table(Rule::Renju, Color::Black)[combination_index([F3, F3, Dead, Dead])]
                .threat,
            Threat::Forbidden
        );
    }

    #[test]
    fn threats_are_recognised() {
        // Black: open three horizontally at y=7 (6,7 7,7 8,7) and two stones vertically.
        let b = board_with(
            Rule::Freestyle,
            &[(6, 7), (7, 7), (8, 7), (9, 5), (9, 6)],
            &[],
        );
        let e = Evaluator::new(&b);
        assert_eq!(
            e.threat(Color::Black, Move::from_xy(5, 7)),
            Threat::FlexFour
        );
        // 9,7 makes an open four horizontally and an open three vertically.
        assert_eq!(
            e.threat(Color::Black, Move::from_xy(9, 7)),
            Threat::FlexFour
        );
        assert_eq!(e.threat(Color::White, Move::from_xy(5, 7)), Threat::None);
        assert!(e.count(Color::Black, Threat::FlexFour) >= 2);
        assert!(e.evaluate(Color::Black) > e.evaluate(Color::White));
    }

    #[test]
    fn four_three_and_five() {
        // Black four 3..6 on y=3 blocked at 2,3 by white; open two vertically at 7,4 7,5.
        let b = board_with(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (7, 4), (7, 5)],
            &[(2, 3)],
        );
        let e = Evaluator::new(&b);
        assert_eq!(
            e.threat(Color::Black, Move::from_xy(6, 3)),
            Threat::FourPlus
        );
        let b = board_with(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3)],
        );
        let e = Evaluator::new(&b);
        assert_eq!(e.threat(Color::Black, Move::from_xy(7, 3)), Threat::Five);
        assert_eq!(e.count(Color::Black, Threat::Five), 1);
    }

    #[test]
    fn renju_marks_black_double_three_forbidden() {
        // GomocupJudge's renju vector: black to move, g9 (6,8) is a double three.
        let b = board_with(
            Rule::Renju,
            &[(7, 7), (8, 6), (7, 9), (8, 10)],
            &[(7, 8), (8, 8), (8, 5), (8, 11)],
        );
        let e = Evaluator::new(&b);
        assert_eq!(
            e.threat(Color::Black, Move::from_xy(6, 8)),
            Threat::Forbidden
        );
        assert_ne!(
            e.threat(Color::White, Move::from_xy(6, 8)),
            Threat::Forbidden
        );
    }

    #[test]
    fn a_combination_correction_counts_for_every_order_of_lines() {
        let mut w = Weights::for_side(Rule::Freestyle, Color::Black).clone();
        let p = |v: [u8; 4]| v.map(Pattern::from_u8);
        let base = |w: &Weights, pats| square_value(w, WAITER, pats, Threat::None);
        let before: Vec<i16> = [[7, 5, 0, 0], [0, 5, 7, 0], [0, 0, 5, 7], [7, 0, 0, 6]]
            .map(|v| base(&w, p(v)))
            .to_vec();
        w.combo[WAITER][combo_key(p([7, 5, 0, 0]))] += 40;
        for (v, b) in [[7, 5, 0, 0], [0, 5, 7, 0], [0, 0, 5, 7]]
            .iter()
            .zip(&before)
        {
            assert_eq!(base(&w, p(*v)), b + 40, "{v:?}");
        }
        assert_eq!(base(&w, p([7, 0, 0, 6])), before[3]);
        assert_eq!(square_value(&w, MOVER, p([0, 5, 7, 0]), Threat::None), {
            let m = Weights::for_side(Rule::Freestyle, Color::Black);
            square_value(m, MOVER, p([0, 5, 7, 0]), Threat::None)
        });
    }

    #[test]
    fn combo_features_count_each_combination_by_role() {
        // Black: an open two on row 7; White: one stone far away. Black to move.
        let b = board_with(Rule::Freestyle, &[(6, 7), (7, 7)], &[(0, 0)]);
        let e = Evaluator::new(&b);
        let f = e.combo_features(Color::Black);
        let mover: i32 = f
            .iter()
            .filter(|(j, _)| *j < COMBINATIONS)
            .map(|x| x.1)
            .sum();
        let waiter: i32 = f
            .iter()
            .filter(|(j, _)| *j >= COMBINATIONS)
            .map(|x| x.1)
            .sum();
        // Every empty square with a live line counts once, positive as mover (Black),
        // negative as waiter (White).
        let live = |c: Color| {
            e.cells
                .iter()
                .filter(|cell| combo_key(cell.pat[c.idx()]) != 0)
                .count() as i32
        };
        assert_eq!(mover, live(Color::Black));
        assert_eq!(waiter, -live(Color::White));
        assert!(mover > 0 && waiter < 0);
        let mut keys: Vec<usize> = f.iter().map(|x| x.0).collect();
        keys.dedup();
        assert_eq!(keys.len(), f.len());
    }
}
