//! The quantised network in the search, kept up to date incrementally.
//!
//! Every square holds, for each colour to move (a view: every shape's own/opponent
//! reading swaps with the side to move), its four line shapes and their int16 accumulator
//! (`QuantNet::accumulator`); each view also keeps the board sum of the clipped
//! accumulators, which is all the value head reads.
//!
//! A stone changes the shapes of the squares within `REACH` along its four lines (and its
//! own four). Bringing a view up to date looks up those 4 x 9 shapes; where one changed,
//! the accumulator loses the old embedding row and gains the new one, and the board sum
//! moves by the change of its clipped value. Integer arithmetic, int16 sums wrapping: the
//! result is the full recomputation's exactly, whatever the order (tests compare after
//! random walks). The policy's mixing convolution is not kept: it is computed for the
//! moves a node asks about (`policy_for`), from the clipped accumulators around each.
//! (Keeping the convolution for a value that read it cost 1.9 classical nodes a node; this
//! costs 1.5, +28% nps in real positions: journal, session 37.)
//!
//! Updates are lazy: make and undo do nothing here, and `compute` / `value_score` first
//! sync the side to move's view with the board, along the stones that differ between the
//! board's move history and the one that view last saw; the rows of every stone in the
//! difference change first, then each changed square moves the sum once. Positions met
//! again read their value from a small cache, without a sync (+9% and +12% nps in two
//! sets of positions from 1000 ms games, journal "Network inference"). Nothing allocates
//! after `new`.

use super::features::{shape_index, DIR_STEPS, REACH};
use super::model::KERNEL;
#[cfg(target_arch = "x86_64")]
use super::quant::has_avx2;
use super::quant::{value_from_sum, QuantModel, QuantNet, ONE, OUT_SCALE, WEIGHT_SHIFT};
use crate::game::{Board, Cell, Color, Move, CELLS};
use std::sync::OnceLock;

/// The network's expected score maps to engine units as the trainer maps search scores
/// to win probabilities: `score = SCORE_SCALE * ln(p / (1 - p))` with `p = win + draw/2`.
pub const SCORE_SCALE: f32 = 400.0;
/// Network scores are clamped to this, well inside the search's win bounds.
pub const SCORE_LIMIT: i32 = 4_000;

/// The freestyle network built into the binary (see `weights/README.md`).
pub static FREESTYLE_BYTES: &[u8] = include_bytes!("weights/freestyle.q");

/// The built-in freestyle network, parsed once.
pub fn freestyle() -> &'static QuantModel {
    static MODEL: OnceLock<QuantModel> = OnceLock::new();
    MODEL.get_or_init(|| QuantModel::from_bytes(FREESTYLE_BYTES).expect("built-in network"))
}

/// The network a brain process searches with, and whether the command line turned it on
/// or off for every board before any INFO: set once by the command line
/// (`pbrain-fivefold --nn`, `--nn-file PATH`, `--classical`), else the built-in network,
/// on where the session's default puts it (`Settings::network_on`).
static CHOSEN: OnceLock<(&'static QuantModel, bool)> = OnceLock::new();

/// Chooses the process's network and turns it on (`on`) or off on every board before
/// any `INFO nn`; false if already chosen.
pub fn choose(model: &'static QuantModel, on: bool) -> bool {
    CHOSEN.set((model, on)).is_ok()
}

/// The process's network (`choose`), else the built-in one.
pub fn engine_network() -> &'static QuantModel {
    CHOSEN.get().map_or_else(freestyle, |c| c.0)
}

/// Whether the command line turned the network on or off (`INFO nn` still changes it);
/// `None` when it said nothing.
pub fn command_line_choice() -> Option<bool> {
    CHOSEN.get().map(|c| c.1)
}

/// Loads a quantised weight file for the engine, with a message fit for the user on
/// any failure (missing, truncated, corrupt, wrong version or dimensions). The model
/// lives for the rest of the process.
pub fn load_file(path: &std::path::Path) -> Result<&'static QuantModel, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read network {}: {e}", path.display()))?;
    let model = QuantModel::from_bytes(&bytes)
        .map_err(|e| format!("network {} refused: {e}", path.display()))?;
    Ok(Box::leak(Box::new(model)))
}

/// The network read from `file` (as `load_file`), else the built-in one.
pub fn file_or_builtin(file: Option<&std::path::Path>) -> Result<&'static QuantModel, String> {
    file.map_or_else(|| Ok(freestyle()), load_file)
}

/// Value logits to engine units, from the side to move's point of view.
pub fn score_of(value: [i32; 3]) -> i32 {
    let l = value.map(|v| v as f64 / OUT_SCALE as f64);
    let top = l[0].max(l[1]).max(l[2]);
    let e = l.map(|x| (x - top).exp());
    let p = (e[0] + 0.5 * e[1]) / (e[0] + e[1] + e[2]);
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    let s = SCORE_SCALE as f64 * (p / (1.0 - p)).ln();
    (s.round() as i32).clamp(-SCORE_LIMIT, SCORE_LIMIT)
}

/// One colour-to-move's view of the board, kept up to date by `sync`.
#[derive(Clone)]
struct View<const D: usize> {
    /// Per square (row-major): the four shapes, the accumulator, whether empty.
    shapes: Vec<[u16; 4]>,
    acc: Vec<[i16; D]>,
    empty: Vec<bool>,
    /// The board sum of the clipped accumulators, per channel: what the value head reads.
    hsum: [i32; D],
    /// Squares whose accumulator changed during this sync, with its value before; each
    /// moves the sum once at the end (a stone changes its own square's four shapes, and
    /// stones taken off and put on in one sync share squares).
    changed: Vec<(u16, [i16; D])>,
    is_changed: Vec<bool>,
    /// The board's history (square, stone) when this view last synced.
    seen: Vec<(Move, Cell)>,
}

/// The network's state for one board, for a `D`-channel network (`NnEval` holds one of
/// the widths the engine runs).
#[derive(Clone)]
pub struct NetEval<const D: usize> {
    model: &'static QuantNet<D>,
    width: usize,
    height: usize,
    views: [View<D>; 2],
    /// The policy's convolution laid out for its AVX2 version.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    tables: PolicyTables<D>,
    /// Policy logits of the squares `policy_for` was last asked about, row-major.
    policy: Vec<i32>,
    /// The board (hash, stones) of the last `compute`, whose value is kept, and its side
    /// to move (the view `policy_for` reads).
    computed: (u64, usize),
    computed_side: Color,
    value: [i32; 3],
    /// Value scores by position: `key & !SCORE_MASK | score as u16`, indexed by the key's
    /// low bits (`value_score`; 0 is empty; the length is a power of two).
    value_cache: Vec<u64>,
}

/// Entries of the value cache (2^15, 256 KiB a search thread).
const VALUE_CACHE_BITS: u32 = 15;
/// The low bits of an entry hold the score (within +/- `SCORE_LIMIT`, as an i16).
const SCORE_MASK: u64 = 0xffff;

impl<const D: usize> NetEval<D> {
    /// The network's state for `board`. Later changes to the board must come through
    /// `Board::make`, `undo` or `place` (its history); after anything else, `refresh`.
    pub fn new(model: &'static QuantNet<D>, board: &Board) -> NetEval<D> {
        let n = board.width() * board.height();
        let view = View {
            shapes: vec![[0; 4]; n],
            acc: vec![[0; D]; n],
            empty: vec![false; n],
            hsum: [0; D],
            changed: Vec::with_capacity(n),
            is_changed: vec![false; n],
            seen: Vec::with_capacity(CELLS),
        };
        let mut e = NetEval {
            model,
            width: board.width(),
            height: board.height(),
            views: [view.clone(), view],
            tables: PolicyTables::new(model),
            policy: vec![0; n],
            computed: (0, usize::MAX),
            computed_side: Color::Black,
            value: [0; 3],
            value_cache: vec![0; 1 << VALUE_CACHE_BITS],
        };
        e.refresh(board);
        e
    }

    /// Recomputes both views from the board.
    pub fn refresh(&mut self, board: &Board) {
        assert_eq!((board.width(), board.height()), (self.width, self.height));
        self.computed = (0, usize::MAX);
        let k = Kernels::detect();
        for side in [Color::Black, Color::White] {
            let v = &mut self.views[side.idx()];
            v.hsum = [0; D];
            for y in 0..self.height {
                for x in 0..self.width {
                    let m = Move::from_xy(x, y);
                    let i = y * self.width + x;
                    let s: [u16; 4] = std::array::from_fn(|d| shape_index(board, m, d, side));
                    v.shapes[i] = s;
                    v.acc[i] = self.model.accumulator(&s);
                    v.empty[i] = board.cell(m) == Cell::Empty;
                    add_clipped_change(k, &mut v.hsum, &[0; D], &v.acc[i]);
                }
            }
            v.seen.clear();
            v.seen
                .extend(board.history().iter().map(|&m| (m, board.cell(m))));
        }
    }

    /// Brings `side`'s view up to date with the board: every stone placed or taken off
    /// since that view last synced (the two histories after their common start), then
    /// the mixing of the squares those changes reach.
    pub fn sync(&mut self, board: &Board, side: Color) {
        sync_view(self, board, side)
    }

    /// The accumulators for `side` to move, row-major, brought up to date.
    pub fn accumulators(&mut self, board: &Board, side: Color) -> &[[i16; D]] {
        self.sync(board, side);
        &self.views[side.idx()].acc
    }

    /// The value logits (win, draw, loss at `OUT_SCALE`) for the board's side to move;
    /// `policy` reads the policy after it. Cached while the board stays the same.
    pub fn compute(&mut self, board: &Board) -> [i32; 3] {
        let key = (board.hash(), board.history().len());
        let side = board.side_to_move();
        // Synced even when the value is known: `policy_for` reads this view's
        // accumulators, which other positions' syncs may have moved since.
        self.sync(board, side);
        if key == self.computed {
            return self.value;
        }
        let v = &self.views[side.idx()];
        self.value = value_from_sum(self.model, &v.hsum, v.acc.len());
        self.computed = key;
        self.computed_side = side;
        self.value
    }

    /// Policy logits of the last `compute`'s position at `moves` (empty squares), kept
    /// for `policy_at`; returns the largest (`None` for no moves). Each is the mixing
    /// convolution at the square from the clipped accumulators around it, then the head.
    pub fn policy_for(&mut self, moves: &[Move]) -> Option<i32> {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: AVX2 was detected.
            return unsafe { policy_for_avx2(self, moves) };
        }
        policy_for_body(self, moves)
    }

    /// The value alone for the board's side to move, in engine units: no policy.
    /// Positions met again (the next iteration's nodes, transpositions) are read from a
    /// small cache keyed by the board's hash, which holds the side to move: the same
    /// scores, and no sync for them.
    pub fn value_score(&mut self, board: &Board) -> i32 {
        if (board.hash(), board.history().len()) == self.computed {
            return score_of(self.value);
        }
        let key = board.hash();
        let slot = key as usize & (self.value_cache.len() - 1);
        let entry = self.value_cache[slot];
        if entry != 0 && (entry ^ key) & !SCORE_MASK == 0 {
            return (entry & SCORE_MASK) as u16 as i16 as i32;
        }
        let side = board.side_to_move();
        self.sync(board, side);
        let v = &self.views[side.idx()];
        let score = score_of(value_from_sum(self.model, &v.hsum, v.acc.len()));
        self.value_cache[slot] = key & !SCORE_MASK | score as i16 as u16 as u64;
        score
    }

    /// The value in engine units for the side to move (runs `compute`).
    pub fn score(&mut self, board: &Board) -> i32 {
        score_of(self.compute(board))
    }

    /// The policy logit at `m` of the last `policy_for` that asked about it.
    #[inline]
    pub fn policy_at(&self, m: Move) -> i32 {
        self.policy[m.y() * self.width + m.x()]
    }
}

/// The network's state for one board (`NetEval`), for the width of its network.
// The search boxes the whole state once; a box per variant would cost a pointer hop a call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum NnEval {
    C32(NetEval<32>),
    C64(NetEval<64>),
}

/// `body` with `e` bound to the `NetEval` inside an `NnEval`, whatever its width.
macro_rules! each_width {
    ($nn:expr, $e:ident => $body:expr) => {
        match $nn {
            NnEval::C32($e) => $body,
            NnEval::C64($e) => $body,
        }
    };
}

impl NnEval {
    /// As `NetEval::new`, for the network's width.
    pub fn new(model: &'static QuantModel, board: &Board) -> NnEval {
        match model {
            QuantModel::C32(q) => NnEval::C32(NetEval::new(q, board)),
            QuantModel::C64(q) => NnEval::C64(NetEval::new(q, board)),
        }
    }

    /// `NetEval::refresh`.
    pub fn refresh(&mut self, board: &Board) {
        each_width!(self, e => e.refresh(board))
    }

    /// `NetEval::sync`.
    pub fn sync(&mut self, board: &Board, side: Color) {
        each_width!(self, e => e.sync(board, side))
    }

    /// `NetEval::compute`.
    pub fn compute(&mut self, board: &Board) -> [i32; 3] {
        each_width!(self, e => e.compute(board))
    }

    /// `NetEval::policy_for`.
    pub fn policy_for(&mut self, moves: &[Move]) -> Option<i32> {
        each_width!(self, e => e.policy_for(moves))
    }

    /// `NetEval::value_score`.
    pub fn value_score(&mut self, board: &Board) -> i32 {
        each_width!(self, e => e.value_score(board))
    }

    /// `NetEval::score`.
    pub fn score(&mut self, board: &Board) -> i32 {
        each_width!(self, e => e.score(board))
    }

    /// `NetEval::policy_at`.
    #[inline]
    pub fn policy_at(&self, m: Move) -> i32 {
        each_width!(self, e => e.policy_at(m))
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn policy_for_avx2<const D: usize>(e: &mut NetEval<D>, moves: &[Move]) -> Option<i32> {
    let (model, w, h) = (e.model, e.width, e.height);
    let u: &[i16; D] = model.pol_u[..].try_into().expect("D weights");
    let acc = &e.views[e.computed_side.idx()].acc;
    let mut top = None;
    for &m in moves {
        let logit = simd::policy_logit(&e.tables, u, model.pol_b, acc, w, h, m.x(), m.y());
        e.policy[m.y() * w + m.x()] = logit;
        top = top.max(Some(logit));
    }
    top
}

fn policy_for_body<const D: usize>(e: &mut NetEval<D>, moves: &[Move]) -> Option<i32> {
    let (model, w) = (e.model, e.width);
    let acc = &e.views[e.computed_side.idx()].acc;
    let mut top = None;
    for &m in moves {
        let logit = policy_logit(model, acc, w, e.height, m.x(), m.y());
        e.policy[m.y() * w + m.x()] = logit;
        top = top.max(Some(logit));
    }
    top
}

/// The convolution's taps in pairs and its bias, in the channel order `_mm256_unpacklo_epi16`
/// and `_mm256_unpackhi_epi16` leave two rows in: per 16 channels, `LO` then `HI`. Pair `p`
/// holds taps `2p` and `2p + 1` side by side per channel (a tenth tap of zeros), so one
/// `_mm256_madd_epi16` adds two taps' products.
#[derive(Clone)]
struct PolicyTables<const D: usize> {
    /// Per pair, `2 * D` int16 (read flat).
    taps: [[[i16; D]; 2]; 5],
    bias: [i32; D],
}

impl<const D: usize> PolicyTables<D> {
    fn new(model: &QuantNet<D>) -> PolicyTables<D> {
        const LO: [usize; 8] = [0, 1, 2, 3, 8, 9, 10, 11];
        const HI: [usize; 8] = [4, 5, 6, 7, 12, 13, 14, 15];
        let mut t = PolicyTables {
            taps: [[[0; D]; 2]; 5],
            bias: [0; D],
        };
        for half in 0..D / 16 {
            for (part, order) in [LO, HI].iter().enumerate() {
                for (j, &c) in order.iter().enumerate() {
                    let ch = 16 * half + c;
                    t.bias[16 * half + 8 * part + j] = model.conv_b[ch];
                    for (p, pair) in t.taps.iter_mut().enumerate() {
                        let pair = pair.as_flattened_mut();
                        let at = 32 * half + 16 * part + 2 * j;
                        pair[at] = model.tap(2 * p)[ch];
                        pair[at + 1] = if 2 * p + 1 < KERNEL {
                            model.tap(2 * p + 1)[ch]
                        } else {
                            0
                        };
                    }
                }
            }
        }
        t
    }
}

/// The policy logit at square `(x, y)`: the mixing convolution there (taps on the
/// clipped accumulators around it, squares off the board zero), shifted and clipped,
/// dotted with the head's weights; `QuantNet::forward`'s integers.
#[inline(always)]
fn policy_logit<const D: usize>(
    model: &QuantNet<D>,
    acc: &[[i16; D]],
    w: usize,
    h: usize,
    x: usize,
    y: usize,
) -> i32 {
    let mut out: [i32; D] = model.conv_b[..].try_into().expect("D biases");
    for tap in 0..KERNEL {
        // Output (x, y) reads input (x + tap % 3 - 1, y + tap / 3 - 1) with that tap.
        let (sx, sy) = (x + tap % 3, y + tap / 3);
        if sx == 0 || sy == 0 || sx > w || sy > h {
            continue;
        }
        let a = &acc[(sy - 1) * w + sx - 1];
        let t = model.tap(tap);
        for c in 0..D {
            out[c] += t[c] as i32 * a[c].clamp(0, ONE as i16) as i32;
        }
    }
    let u: &[i16; D] = model.pol_u[..].try_into().expect("D weights");
    let mut sum = 0i32;
    for c in 0..D {
        sum += u[c] as i32 * (out[c] >> WEIGHT_SHIFT).clamp(0, ONE);
    }
    model.pol_b + sum
}

/// The sync, compiled as a whole for AVX2 where the processor has it, so that the
/// kernels inline into its loops (called one by one, a `target_feature` function is a
/// call each time: this and one spread per changed square gave +18% nps with the
/// network, journal "Network inference").
fn sync_view<const D: usize>(e: &mut NetEval<D>, board: &Board, side: Color) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 was detected.
        return unsafe { sync_view_avx2(e, board, side) };
    }
    sync_view_with(Kernels { avx2: false }, e, board, side)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sync_view_avx2<const D: usize>(e: &mut NetEval<D>, board: &Board, side: Color) {
    sync_view_with(Kernels { avx2: true }, e, board, side)
}

#[inline(always)]
fn sync_view_with<const D: usize>(k: Kernels, e: &mut NetEval<D>, board: &Board, side: Color) {
    let (model, w, h) = (e.model, e.width, e.height);
    let v = &mut e.views[side.idx()];
    let history = board.history();
    let common = v
        .seen
        .iter()
        .zip(history)
        .take_while(|&(&(a, cell), &b)| a == b && board.cell(b) == cell)
        .count();
    for i in common..v.seen.len() {
        let m = v.seen[i].0;
        update_view(k, model, w, h, v, board, m, side);
    }
    v.seen.truncate(common);
    for &m in &history[common..] {
        update_view(k, model, w, h, v, board, m, side);
        v.seen.push((m, board.cell(m)));
    }
    for j in 0..v.changed.len() {
        let (i, before) = v.changed[j];
        let i = i as usize;
        v.is_changed[i] = false;
        add_clipped_change(k, &mut v.hsum, &before, &v.acc[i]);
    }
    v.changed.clear();
}

/// `side`'s view after a stone was placed on or taken off `m`: the shapes along its
/// four lines and their accumulators (the board sum follows in `sync_view_with`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn update_view<const D: usize>(
    k: Kernels,
    model: &QuantNet<D>,
    w: usize,
    h: usize,
    v: &mut View<D>,
    board: &Board,
    m: Move,
    side: Color,
) {
    let (mx, my) = (m.x() as i32, m.y() as i32);
    v.empty[m.y() * w + m.x()] = board.cell(m) == Cell::Empty;
    for (dir, &(dx, dy)) in DIR_STEPS.iter().enumerate() {
        for off in -(REACH as i32)..=REACH as i32 {
            let (x, y) = (mx + off * dx, my + off * dy);
            if x < 0 || y < 0 || x >= w as i32 || y >= h as i32 {
                continue;
            }
            let sq = Move::from_xy(x as usize, y as usize);
            let i = y as usize * w + x as usize;
            let new = shape_index(board, sq, dir, side);
            let old = v.shapes[i][dir];
            if new != old {
                v.shapes[i][dir] = new;
                if !v.is_changed[i] {
                    v.is_changed[i] = true;
                    v.changed.push((i as u16, v.acc[i]));
                }
                k.replace_row(&mut v.acc[i], model.row(old), model.row(new));
            }
        }
    }
}

/// An accumulator went from `old` to `new`: the board sum moves by the change of its
/// clipped value.
#[inline(always)]
fn add_clipped_change<const D: usize>(
    k: Kernels,
    hsum: &mut [i32; D],
    old: &[i16; D],
    new: &[i16; D],
) {
    let mut delta = [0i16; D];
    if k.clipped_delta(old, new, &mut delta) {
        for c in 0..D {
            hsum[c] += delta[c] as i32;
        }
    }
}

/// The per-square arithmetic of the updates, with AVX2 where the processor has it and
/// the same integers in portable code otherwise (a test compares them).
#[derive(Clone, Copy)]
struct Kernels {
    avx2: bool,
}

impl Kernels {
    #[inline]
    fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        return Kernels { avx2: has_avx2() };
        #[cfg(not(target_arch = "x86_64"))]
        Kernels { avx2: false }
    }

    /// `acc += new - old`, wrapping.
    #[inline(always)]
    fn replace_row<const D: usize>(self, acc: &mut [i16; D], old: &[i16; D], new: &[i16; D]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected.
            return unsafe { simd::replace_row(acc, old, new) };
        }
        for c in 0..D {
            acc[c] = acc[c].wrapping_sub(old[c]).wrapping_add(new[c]);
        }
    }

    /// `out = clip(new) - clip(old)`; whether any channel changed.
    #[inline(always)]
    fn clipped_delta<const D: usize>(
        self,
        old: &[i16; D],
        new: &[i16; D],
        out: &mut [i16; D],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected.
            return unsafe { simd::clipped_delta(old, new, out) };
        }
        let mut any = 0;
        for c in 0..D {
            out[c] = new[c].clamp(0, ONE as i16) - old[c].clamp(0, ONE as i16);
            any |= out[c];
        }
        any != 0
    }
}

/// AVX2 versions of `Kernels`, for any D that is a multiple of 16 channels.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{PolicyTables, KERNEL, ONE, WEIGHT_SHIFT};
    use std::arch::x86_64::*;

    #[inline(always)]
    unsafe fn load16<const D: usize>(p: &[i16; D], half: usize) -> __m256i {
        _mm256_loadu_si256(p.as_ptr().add(16 * half) as *const __m256i)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn replace_row<const D: usize>(acc: &mut [i16; D], old: &[i16; D], new: &[i16; D]) {
        for half in 0..D / 16 {
            let a = load16(acc, half);
            let r = _mm256_add_epi16(_mm256_sub_epi16(a, load16(old, half)), load16(new, half));
            _mm256_storeu_si256(acc.as_mut_ptr().add(16 * half) as *mut __m256i, r);
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn clipped_delta<const D: usize>(
        old: &[i16; D],
        new: &[i16; D],
        out: &mut [i16; D],
    ) -> bool {
        let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(ONE as i16));
        let mut any = zero;
        for half in 0..D / 16 {
            let o = _mm256_min_epi16(_mm256_max_epi16(load16(old, half), zero), one);
            let n = _mm256_min_epi16(_mm256_max_epi16(load16(new, half), zero), one);
            let d = _mm256_sub_epi16(n, o);
            any = _mm256_or_si256(any, d);
            _mm256_storeu_si256(out.as_mut_ptr().add(16 * half) as *mut __m256i, d);
        }
        _mm256_testz_si256(any, any) == 0
    }

    /// `super::policy_logit` with two taps a `_mm256_madd_epi16` (`PolicyTables`); the
    /// same integers (the random walks compare it with `QuantNet::forward`).
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub unsafe fn policy_logit<const D: usize>(
        t: &PolicyTables<D>,
        u: &[i16; D],
        pol_b: i32,
        acc: &[[i16; D]],
        w: usize,
        h: usize,
        x: usize,
        y: usize,
    ) -> i32 {
        const { assert!(D.is_multiple_of(16)) };
        let zero_row = [0i16; D];
        let mut rows: [&[i16; D]; 10] = [&zero_row; 10];
        for (tap, row) in rows.iter_mut().enumerate().take(KERNEL) {
            let (sx, sy) = (x + tap % 3, y + tap / 3);
            if sx != 0 && sy != 0 && sx <= w && sy <= h {
                *row = &acc[(sy - 1) * w + sx - 1];
            }
        }
        let (zero, one16) = (_mm256_setzero_si256(), _mm256_set1_epi16(ONE as i16));
        let one32 = _mm256_set1_epi32(ONE);
        let shift = _mm_cvtsi32_si128(WEIGHT_SHIFT as i32);
        let clip = |v: __m256i| _mm256_min_epi16(_mm256_max_epi16(v, zero), one16);
        let mut total = zero;
        for half in 0..D / 16 {
            let b = t.bias.as_ptr().add(16 * half);
            let mut lo = _mm256_loadu_si256(b as *const __m256i);
            let mut hi = _mm256_loadu_si256(b.add(8) as *const __m256i);
            for (p, pair) in t.taps.iter().enumerate() {
                let a = clip(load16(rows[2 * p], half));
                let c = clip(load16(rows[2 * p + 1], half));
                let wp = pair.as_flattened().as_ptr().add(32 * half);
                let wl = _mm256_loadu_si256(wp as *const __m256i);
                let wh = _mm256_loadu_si256(wp.add(16) as *const __m256i);
                lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, c), wl));
                hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, c), wh));
            }
            let lo = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(lo, shift), zero), one32);
            let hi = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(hi, shift), zero), one32);
            // Packing LO beside HI puts the 16 channels back in order.
            let m = _mm256_packs_epi32(lo, hi);
            total = _mm256_add_epi32(total, _mm256_madd_epi16(m, load16(u, half)));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(total),
            _mm256_extracti128_si256(total, 1),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        pol_b + _mm_cvtsi128_si32(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::rng::SplitMix64;
    use crate::eval::nn::model::{Model, Scratch};
    use crate::eval::nn::quant::{self, QuantScratch};
    use crate::game::Rule;

    fn random_model<const D: usize>(seed: u64) -> &'static QuantNet<D> {
        let q = QuantNet::from_float(&Model::<D>::random(seed)).expect("fits");
        Box::leak(Box::new(q))
    }

    /// `check_walks` with the built-in network, whatever its width.
    fn check_built_in_walks(w: usize, h: usize, walks: usize, seed: u64) {
        match freestyle() {
            QuantModel::C32(q) => check_walks(q, w, h, walks, seed),
            QuantModel::C64(q) => check_walks(q, w, h, walks, seed),
        }
    }

    /// Random make/undo walks, the views synced at random; every 7 steps the synced
    /// state equals a fresh one and the outputs equal `QuantNet::forward`, to the integer.
    fn check_walks<const D: usize>(
        model: &'static QuantNet<D>,
        w: usize,
        h: usize,
        walks: usize,
        seed: u64,
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut board = Board::new(w, h, Rule::Freestyle);
        let mut inc = NetEval::new(model, &board);
        // A cache of 16 entries, so that positions share slots.
        inc.value_cache = vec![0; 16];
        let (mut s, mut qs) = (Scratch::new(), QuantScratch::new());
        let mut steps = 0usize;
        for walk in 0..walks {
            let target = 1 + rng.below((w * h / 2) as u64) as usize;
            for _ in 0..target * 2 {
                // Make more often than undo, so walks go deep and come back.
                let undo = board.stone_count() > 0 && rng.below(3) == 0;
                if undo {
                    board.undo().expect("a stone");
                } else if board.stone_count() < target {
                    let m =
                        Move::from_xy(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                    if !board.is_empty(m) {
                        continue;
                    }
                    board.make(m);
                }
                // Views sync now and then, each on its own, as the search asks for them.
                if rng.below(3) == 0 {
                    let side = [Color::Black, Color::White][rng.below(2) as usize];
                    inc.sync(&board, side);
                }
                // Values asked now and then fill the cache that revisits read.
                if rng.below(3) == 0 {
                    inc.value_score(&board);
                }
                steps += 1;
                if !steps.is_multiple_of(7) {
                    continue;
                }
                let mut fresh = NetEval::new(model, &board);
                for side in [Color::Black, Color::White] {
                    assert_eq!(
                        inc.accumulators(&board, side),
                        fresh.accumulators(&board, side),
                        "walk {walk}"
                    );
                }
                s.load_board(&board);
                let want = model.forward(&s, &mut qs);
                let cached = inc.value_cache.iter().filter(|&&e| e != 0).count();
                assert_eq!(
                    inc.value_score(&board),
                    score_of(want),
                    "walk {walk} ({cached} cached)"
                );
                let v = inc.compute(&board);
                assert_eq!(v, want, "walk {walk} step {steps}");
                let empties: Vec<Move> = (0..w * h)
                    .map(|i| Move::from_xy(i % w, i / w))
                    .filter(|&m| board.is_empty(m))
                    .collect();
                let top = inc.policy_for(&empties);
                let want_top = qs.policy.iter().copied().filter(|&p| p != i32::MIN).max();
                assert_eq!(top, want_top, "walk {walk} step {steps}");
                for &m in &empties {
                    let i = m.y() * w + m.x();
                    assert_eq!(inc.policy_at(m), qs.policy[i], "walk {walk} step {steps}");
                }
            }
            while board.undo().is_some() {}
            let mut fresh = NetEval::new(model, &board);
            assert_eq!(
                inc.accumulators(&board, Color::Black),
                fresh.accumulators(&board, Color::Black)
            );
        }
        assert!(steps > 1000, "{steps}");
    }

    /// A position whose value is known asks for its policy again after a deeper position
    /// with the same side to move synced that view (as a node's re-search does after its
    /// subtree): the policy is still its own, not the deeper position's.
    #[test]
    fn the_policy_asked_again_after_a_deeper_sync_is_its_own() {
        let model = random_model::<32>(8);
        let mut board = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 9)] {
            board.make(Move::from_xy(x, y));
        }
        let empties: Vec<Move> = board.empty_squares().collect();
        let mut inc = NetEval::new(model, &board);
        let (mut s, mut qs) = (Scratch::new(), QuantScratch::new());
        s.load_board(&board);
        let want = model.forward(&s, &mut qs);
        for round in 0..3 {
            assert_eq!(inc.compute(&board), want, "round {round}");
            inc.policy_for(&empties);
            for &m in &empties {
                assert_eq!(
                    inc.policy_at(m),
                    qs.policy[m.y() * 15 + m.x()],
                    "round {round}"
                );
            }
            // Two stones deeper the same side is to move: its view syncs there.
            board.make(Move::from_xy(5, 5 + round));
            board.make(Move::from_xy(9, 5 + round));
            inc.value_score(&board);
            board.undo();
            board.undo();
        }
    }

    #[test]
    fn incremental_equals_full_recomputation_on_15x15() {
        check_walks(random_model::<32>(5), 15, 15, 30, 1);
        check_walks(random_model::<64>(15), 15, 15, 20, 11);
        check_built_in_walks(15, 15, 20, 2);
    }

    #[test]
    fn incremental_equals_full_recomputation_on_20x20() {
        check_walks(random_model::<32>(6), 20, 20, 20, 3);
        check_walks(random_model::<64>(16), 20, 20, 10, 13);
    }

    #[test]
    fn incremental_equals_full_recomputation_on_a_rectangle() {
        check_walks(random_model::<32>(7), 17, 9, 40, 4);
        check_walks(random_model::<64>(17), 9, 17, 20, 14);
        check_built_in_walks(6, 13, 40, 5);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_kernels_equal_portable_kernels() {
        kernels_agree::<32>();
        kernels_agree::<64>();
    }

    #[cfg(target_arch = "x86_64")]
    fn kernels_agree<const D: usize>() {
        if !quant::has_avx2() {
            return;
        }
        let (p, a) = (Kernels { avx2: false }, Kernels { avx2: true });
        let mut rng = SplitMix64::new(31);
        let mut i16s = |lo: i64, hi: i64| -> [i16; D] {
            std::array::from_fn(|_| (lo + rng.below((hi - lo + 1) as u64) as i64) as i16)
        };
        for _ in 0..500 {
            let (old, new, row) = (i16s(-900, 900), i16s(-900, 900), i16s(-3000, 3000));
            let (mut x, mut y) = (old, old);
            p.replace_row(&mut x, &row, &new);
            a.replace_row(&mut y, &row, &new);
            assert_eq!(x, y);
            let (mut dx, mut dy) = ([0; D], [0; D]);
            assert_eq!(
                p.clipped_delta(&old, &new, &mut dx),
                a.clipped_delta(&old, &new, &mut dy)
            );
            assert_eq!(dx, dy);
            assert!(!a.clipped_delta(&old, &old, &mut dy));
        }
    }

    /// The AVX2 policy (taps in pairs, channels reordered) equals the portable one on
    /// every empty square, edges and corners included.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_policy_equals_portable_policy() {
        policies_agree::<32>();
        policies_agree::<64>();
    }

    #[cfg(target_arch = "x86_64")]
    fn policies_agree<const D: usize>() {
        if !quant::has_avx2() {
            return;
        }
        let mut rng = SplitMix64::new(17);
        for (seed, w, h) in [(8u64, 15usize, 15usize), (9, 20, 20), (10, 7, 11)] {
            let model = random_model::<D>(seed);
            let mut board = Board::new(w, h, Rule::Freestyle);
            for _ in 0..w * h / 3 {
                let m = Move::from_xy(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                if board.is_empty(m) {
                    board.make(m);
                }
            }
            let mut e = NetEval::new(model, &board);
            e.compute(&board);
            let empties: Vec<Move> = (0..w * h)
                .map(|i| Move::from_xy(i % w, i / w))
                .filter(|&m| board.is_empty(m))
                .collect();
            // SAFETY: AVX2 was detected above.
            let fast = unsafe { policy_for_avx2(&mut e, &empties) };
            let got: Vec<i32> = empties.iter().map(|&m| e.policy_at(m)).collect();
            let plain = policy_for_body(&mut e, &empties);
            let want: Vec<i32> = empties.iter().map(|&m| e.policy_at(m)).collect();
            assert_eq!((fast, got), (plain, want), "{w}x{h}");
        }
    }

    /// `NnEval`, the search's handle, runs a network of either width as `NetEval` does.
    #[test]
    fn the_search_handle_runs_both_widths() {
        fn agree<const D: usize>(net: &'static QuantNet<D>, model: &'static QuantModel) {
            let mut b = Board::new(15, 15, Rule::Freestyle);
            let (mut inner, mut outer) = (NetEval::new(net, &b), NnEval::new(model, &b));
            for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7), (5, 9)] {
                b.make(Move::from_xy(x, y));
                let moves: Vec<Move> = [(6, 7), (8, 7), (10, 10)]
                    .map(|(x, y)| Move::from_xy(x, y))
                    .into_iter()
                    .filter(|&m| b.is_empty(m))
                    .collect();
                assert_eq!(outer.compute(&b), inner.compute(&b));
                assert_eq!(outer.policy_for(&moves), inner.policy_for(&moves));
                assert_eq!(outer.value_score(&b), inner.value_score(&b));
                for &m in &moves {
                    assert_eq!(outer.policy_at(m), inner.policy_at(m));
                }
            }
        }
        let wide = random_model::<64>(23);
        let wide_model: &'static QuantModel = Box::leak(Box::new(QuantModel::C64(wide.clone())));
        agree(wide, wide_model);
        match freestyle() {
            QuantModel::C32(q) => agree(q, freestyle()),
            QuantModel::C64(q) => agree(q, freestyle()),
        }
    }

    #[test]
    fn the_built_in_network_loads_and_scores_an_opening() {
        let model = freestyle();
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8)] {
            b.make(Move::from_xy(x, y));
        }
        let mut e = NnEval::new(model, &b);
        let s = e.score(&b);
        assert!(s.abs() < SCORE_LIMIT, "{s}");
        let empties: Vec<Move> = (0..225)
            .map(|i| Move::from_xy(i % 15, i / 15))
            .filter(|&m| b.is_empty(m))
            .collect();
        let top = e.policy_for(&empties).expect("moves");
        let best = empties
            .iter()
            .find(|&&m| e.policy_at(m) == top)
            .expect("the best");
        // Next to the three stones, as any sensible policy has it.
        assert!(
            (6..=9).contains(&best.x()) && (6..=9).contains(&best.y()),
            "{best:?}"
        );
    }

    #[test]
    fn damaged_weight_files_get_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("fivefold-nn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("net.q");
        let cases: [(&str, Vec<u8>); 4] = [
            (
                "truncated",
                FREESTYLE_BYTES[..FREESTYLE_BYTES.len() / 2].to_vec(),
            ),
            ("checksum", {
                let mut v = FREESTYLE_BYTES.to_vec();
                v[5000] ^= 1;
                v
            }),
            ("version", {
                let mut v = FREESTYLE_BYTES.to_vec();
                v[6] = 7;
                v
            }),
            ("network", b"hello".to_vec()),
        ];
        for (word, bytes) in cases {
            std::fs::write(&path, bytes).expect("write");
            let err = load_file(&path).expect_err(word);
            assert!(err.contains("refused"), "{err}");
            assert!(err.to_lowercase().contains(word), "{word}: {err}");
        }
        let err = load_file(&dir.join("missing.q")).expect_err("missing");
        assert!(err.contains("cannot read"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn scores_follow_the_expected_result() {
        let one = OUT_SCALE as i32;
        assert_eq!(score_of([0, 0, 0]), 0);
        assert!(score_of([2 * one, 0, 0]) > 300);
        assert_eq!(score_of([2 * one, 0, 0]), -score_of([0, 0, 2 * one]));
        assert_eq!(score_of([40 * one, 0, 0]), SCORE_LIMIT);
    }
}
