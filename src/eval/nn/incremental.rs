//! The quantised network in the search, kept up to date incrementally.
//!
//! Every square holds, for each colour to move (a view: every shape's own/opponent
//! reading swaps with the side to move), its four line shapes, their int16 accumulator
//! (`QuantModel::accumulator`), the mixing convolution's int32 sum before its shift and
//! clip, and the mixed channels after; each view also keeps the board sum of the mixed
//! channels, which is all the value head needs.
//!
//! A stone changes the shapes of the squares within `REACH` along its four lines (and its
//! own four). Bringing a view up to date looks up those 4 x 9 shapes; where one changed,
//! the accumulator loses the old embedding row and gains the new one, and where its
//! clipped value changed, the nine convolution sums around it move by tap x change (the
//! convolution is linear before its clip). The touched squares are then re-clipped and
//! the board sum corrected. Integer arithmetic, int16 sums wrapping: the result is the full
//! recomputation's exactly, whatever the order (tests compare after random walks).
//!
//! Updates are lazy: make and undo do nothing here, and `compute` / `value_score` first
//! sync the side to move's view with the board, along the stones that differ between the
//! board's move history and the one that view last saw; the rows of every stone in the
//! difference change first, then each changed square spreads once. Cost in `bench 11`
//! (node rates, medians of 5, journal "Network inference"): classical 713k nps, with the
//! network's value at every node and its policy at depth >= 2 307k. Positions met again
//! read their value from a small cache, without a sync (+9% and +12% nps in two sets of
//! positions from 1000 ms games, journal "Network inference"). Nothing allocates after
//! `new`.

use super::features::{shape_index, DIR_STEPS, REACH};
use super::model::{D, KERNEL};
#[cfg(target_arch = "x86_64")]
use super::quant::has_avx2;
use super::quant::{policy_head, value_from_sum, QuantModel, ONE, OUT_SCALE, WEIGHT_SHIFT};
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

/// The network a brain process searches with when `INFO nn 1` is on, and whether it is
/// on before any INFO: set once by the command line (`pbrain-fivefold --nn`,
/// `--nn-file PATH`), else the built-in network, off.
static CHOSEN: OnceLock<(&'static QuantModel, bool)> = OnceLock::new();

/// Chooses the process's network and turns it on by default; false if already chosen.
pub fn choose(model: &'static QuantModel) -> bool {
    CHOSEN.set((model, true)).is_ok()
}

/// The process's network (`choose`), else the built-in one.
pub fn engine_network() -> &'static QuantModel {
    CHOSEN.get().map_or_else(freestyle, |c| c.0)
}

/// Whether the command line turned the network on (`INFO nn 0` still turns it off).
pub fn on_by_default() -> bool {
    CHOSEN.get().is_some_and(|c| c.1)
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
struct View {
    /// Per square (row-major): the four shapes, the accumulator, whether empty.
    shapes: Vec<[u16; 4]>,
    acc: Vec<[i16; D]>,
    empty: Vec<bool>,
    /// Per square: the mixing convolution before its shift and clip (bias included),
    /// and after (`mixed`); `sum` is the board sum of `mixed`, per channel.
    pre: Vec<[i32; D]>,
    mixed: Vec<[i16; D]>,
    sum: [i32; D],
    /// Squares whose `pre` changed since `mixed` was last brought up to date.
    touched: Vec<u16>,
    is_touched: Vec<bool>,
    /// Squares whose accumulator changed during this sync, with its value before; each
    /// spreads once at the end (a stone changes its own square's four shapes, and
    /// stones taken off and put on in one sync share squares).
    changed: Vec<(u16, [i16; D])>,
    is_changed: Vec<bool>,
    /// The board's history (square, stone) when this view last synced.
    seen: Vec<(Move, Cell)>,
}

#[derive(Clone)]
pub struct NnEval {
    model: &'static QuantModel,
    width: usize,
    height: usize,
    views: [View; 2],
    policy: Vec<i32>,
    /// The board (hash, stones) of the last `compute`, whose outputs are kept.
    computed: (u64, usize),
    value: [i32; 3],
    /// Value scores by position: `key & !SCORE_MASK | score as u16`, indexed by the key's
    /// low bits (`value_score`; 0 is empty; the length is a power of two).
    value_cache: Vec<u64>,
}

/// Entries of the value cache (2^15, 256 KiB a search thread).
const VALUE_CACHE_BITS: u32 = 15;
/// The low bits of an entry hold the score (within +/- `SCORE_LIMIT`, as an i16).
const SCORE_MASK: u64 = 0xffff;

impl NnEval {
    /// The network's state for `board`. Later changes to the board must come through
    /// `Board::make`, `undo` or `place` (its history); after anything else, `refresh`.
    pub fn new(model: &'static QuantModel, board: &Board) -> NnEval {
        let n = board.width() * board.height();
        let view = View {
            shapes: vec![[0; 4]; n],
            acc: vec![[0; D]; n],
            empty: vec![false; n],
            pre: vec![[0; D]; n],
            mixed: vec![[0; D]; n],
            sum: [0; D],
            touched: Vec::with_capacity(n),
            is_touched: vec![false; n],
            changed: Vec::with_capacity(n),
            is_changed: vec![false; n],
            seen: Vec::with_capacity(CELLS),
        };
        let mut e = NnEval {
            model,
            width: board.width(),
            height: board.height(),
            views: [view.clone(), view],
            policy: vec![0; n],
            computed: (0, usize::MAX),
            value: [0; 3],
            value_cache: vec![0; 1 << VALUE_CACHE_BITS],
        };
        e.refresh(board);
        e
    }

    pub fn model(&self) -> &'static QuantModel {
        self.model
    }

    /// Recomputes both views from the board.
    pub fn refresh(&mut self, board: &Board) {
        assert_eq!((board.width(), board.height()), (self.width, self.height));
        self.computed = (0, usize::MAX);
        let bias: [i32; D] = std::array::from_fn(|c| self.model.conv_b[c]);
        let k = Kernels::detect();
        for side in [Color::Black, Color::White] {
            let v = &mut self.views[side.idx()];
            for y in 0..self.height {
                for x in 0..self.width {
                    let m = Move::from_xy(x, y);
                    let i = y * self.width + x;
                    let s: [u16; 4] = std::array::from_fn(|d| shape_index(board, m, d, side));
                    v.shapes[i] = s;
                    v.acc[i] = [0; D];
                    v.empty[i] = board.cell(m) == Cell::Empty;
                }
            }
            v.pre.fill(bias);
            v.mixed.fill([0; D]);
            v.sum = [0; D];
            v.touched.clear();
            v.is_touched.fill(false);
            // Every accumulator from zero: the convolution gets each one's clipped value.
            for i in 0..self.width * self.height {
                let mut acc = self.model.accumulator(&v.shapes[i]);
                std::mem::swap(&mut acc, &mut v.acc[i]);
                let (old, new) = (acc, v.acc[i]);
                spread(k, self.model, self.width, self.height, v, i, &old, &new);
            }
            // Squares no accumulator reaches still mix their bias.
            for i in 0..self.width * self.height {
                touch(v, i);
            }
            settle(k, v);
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
        if key == self.computed {
            return self.value;
        }
        let side = board.side_to_move();
        self.sync(board, side);
        let v = &self.views[side.idx()];
        self.value = value_from_sum(self.model, &v.sum, v.mixed.len());
        policy_head(self.model, &v.mixed, &v.empty, &mut self.policy);
        self.computed = key;
        self.value
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
        let score = score_of(value_from_sum(self.model, &v.sum, v.mixed.len()));
        self.value_cache[slot] = key & !SCORE_MASK | score as i16 as u16 as u64;
        score
    }

    /// The value in engine units for the side to move (runs `compute`).
    pub fn score(&mut self, board: &Board) -> i32 {
        score_of(self.compute(board))
    }

    /// Policy logits of the last `compute`, row-major; `i32::MIN` on occupied squares.
    pub fn policy(&self) -> &[i32] {
        &self.policy
    }

    /// The last `compute`'s policy logit at `m`.
    #[inline]
    pub fn policy_at(&self, m: Move) -> i32 {
        self.policy[m.y() * self.width + m.x()]
    }
}

/// The sync, compiled as a whole for AVX2 where the processor has it, so that the
/// kernels inline into its loops (called one by one, a `target_feature` function is a
/// call each time: this and one spread per changed square gave +18% nps with the
/// network, journal "Network inference").
fn sync_view(e: &mut NnEval, board: &Board, side: Color) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 was detected.
        return unsafe { sync_view_avx2(e, board, side) };
    }
    sync_view_with(Kernels { avx2: false }, e, board, side)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sync_view_avx2(e: &mut NnEval, board: &Board, side: Color) {
    sync_view_with(Kernels { avx2: true }, e, board, side)
}

#[inline(always)]
fn sync_view_with(k: Kernels, e: &mut NnEval, board: &Board, side: Color) {
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
        let after = v.acc[i];
        spread(k, model, w, h, v, i, &before, &after);
    }
    v.changed.clear();
    settle(k, v);
}

/// `side`'s view after a stone was placed on or taken off `m`: the shapes along its
/// four lines and their accumulators (the convolution sums follow in `sync_view_with`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn update_view(
    k: Kernels,
    model: &QuantModel,
    w: usize,
    h: usize,
    v: &mut View,
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

/// Square `i`'s accumulator went from `old` to `new`: the convolution sums of the
/// squares around it change by the kernel tap times the change of its clipped value.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn spread(
    k: Kernels,
    model: &QuantModel,
    w: usize,
    h: usize,
    v: &mut View,
    i: usize,
    old: &[i16; D],
    new: &[i16; D],
) {
    let mut delta = [0i16; D];
    if !k.clipped_delta(old, new, &mut delta) {
        return;
    }
    let (sx, sy) = ((i % w) as i32, (i / w) as i32);
    // Output t reads input t + (tap % 3 - 1, tap / 3 - 1) with that tap.
    for tap in 0..KERNEL {
        let (tx, ty) = (sx - (tap % 3) as i32 + 1, sy - (tap / 3) as i32 + 1);
        if tx < 0 || ty < 0 || tx >= w as i32 || ty >= h as i32 {
            continue;
        }
        let t = ty as usize * w + tx as usize;
        k.add_tap(&mut v.pre[t], model.tap(tap), &delta);
        touch(v, t);
    }
}

#[inline(always)]
fn touch(v: &mut View, t: usize) {
    if !v.is_touched[t] {
        v.is_touched[t] = true;
        v.touched.push(t as u16);
    }
}

/// The touched squares' mixed channels from their sums, and the board sum with them.
#[inline(always)]
fn settle(k: Kernels, v: &mut View) {
    for &t in &v.touched {
        let t = t as usize;
        v.is_touched[t] = false;
        k.settle(&v.pre[t], &mut v.mixed[t], &mut v.sum);
    }
    v.touched.clear();
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
    fn replace_row(self, acc: &mut [i16; D], old: &[i16; D], new: &[i16; D]) {
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
    fn clipped_delta(self, old: &[i16; D], new: &[i16; D], out: &mut [i16; D]) -> bool {
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

    /// `pre += tap * delta`, per channel.
    #[inline(always)]
    fn add_tap(self, pre: &mut [i32; D], tap: &[i16; D], delta: &[i16; D]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected.
            return unsafe { simd::add_tap(pre, tap, delta) };
        }
        for c in 0..D {
            pre[c] += tap[c] as i32 * delta[c] as i32;
        }
    }

    /// `mixed = clip(pre >> WEIGHT_SHIFT)`, moving `sum` by the change.
    #[inline(always)]
    fn settle(self, pre: &[i32; D], mixed: &mut [i16; D], sum: &mut [i32; D]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected.
            return unsafe { simd::settle(pre, mixed, sum) };
        }
        for c in 0..D {
            let new = (pre[c] >> WEIGHT_SHIFT).clamp(0, ONE) as i16;
            sum[c] += new as i32 - mixed[c] as i32;
            mixed[c] = new;
        }
    }
}

/// AVX2 versions of `Kernels`, for any D that is a multiple of 16 channels.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{D, ONE, WEIGHT_SHIFT};
    use std::arch::x86_64::*;

    const _: () = assert!(D.is_multiple_of(16));

    #[inline(always)]
    unsafe fn load16(p: &[i16; D], half: usize) -> __m256i {
        _mm256_loadu_si256(p.as_ptr().add(16 * half) as *const __m256i)
    }

    #[inline(always)]
    unsafe fn load8x32(p: &[i16; D], quarter: usize) -> __m256i {
        _mm256_cvtepi16_epi32(_mm_loadu_si128(
            p.as_ptr().add(8 * quarter) as *const __m128i
        ))
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn replace_row(acc: &mut [i16; D], old: &[i16; D], new: &[i16; D]) {
        for half in 0..D / 16 {
            let a = load16(acc, half);
            let r = _mm256_add_epi16(_mm256_sub_epi16(a, load16(old, half)), load16(new, half));
            _mm256_storeu_si256(acc.as_mut_ptr().add(16 * half) as *mut __m256i, r);
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn clipped_delta(old: &[i16; D], new: &[i16; D], out: &mut [i16; D]) -> bool {
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

    #[target_feature(enable = "avx2")]
    pub unsafe fn add_tap(pre: &mut [i32; D], tap: &[i16; D], delta: &[i16; D]) {
        for q in 0..D / 8 {
            let p = pre.as_mut_ptr().add(8 * q) as *mut __m256i;
            let prod = _mm256_mullo_epi32(load8x32(tap, q), load8x32(delta, q));
            _mm256_storeu_si256(p, _mm256_add_epi32(_mm256_loadu_si256(p), prod));
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn settle(pre: &[i32; D], mixed: &mut [i16; D], sum: &mut [i32; D]) {
        let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi32(ONE));
        let shift = _mm_cvtsi32_si128(WEIGHT_SHIFT as i32);
        let mut new = [0i32; D];
        for q in 0..D / 8 {
            let p = _mm256_loadu_si256(pre.as_ptr().add(8 * q) as *const __m256i);
            let n = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(p, shift), zero), one);
            let s = sum.as_mut_ptr().add(8 * q) as *mut __m256i;
            let d = _mm256_sub_epi32(n, load8x32(mixed, q));
            _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), d));
            _mm256_storeu_si256(new.as_mut_ptr().add(8 * q) as *mut __m256i, n);
        }
        for c in 0..D {
            mixed[c] = new[c] as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::rng::SplitMix64;
    use crate::eval::nn::model::{Model, Scratch};
    use crate::eval::nn::quant::{self, QuantScratch};
    use crate::game::Rule;

    fn random_model(seed: u64) -> &'static QuantModel {
        let q = QuantModel::from_float(&Model::random(seed)).expect("fits");
        Box::leak(Box::new(q))
    }

    /// Random make/undo walks, the views synced at random; every 7 steps the synced
    /// state equals a fresh one and the outputs equal `QuantModel::forward`, to the integer.
    fn check_walks(model: &'static QuantModel, w: usize, h: usize, walks: usize, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        let mut board = Board::new(w, h, Rule::Freestyle);
        let mut inc = NnEval::new(model, &board);
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
                let mut fresh = NnEval::new(model, &board);
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
                assert_eq!(inc.policy(), &qs.policy[..], "walk {walk} step {steps}");
            }
            while board.undo().is_some() {}
            let mut fresh = NnEval::new(model, &board);
            assert_eq!(
                inc.accumulators(&board, Color::Black),
                fresh.accumulators(&board, Color::Black)
            );
        }
        assert!(steps > 1000, "{steps}");
    }

    #[test]
    fn incremental_equals_full_recomputation_on_15x15() {
        check_walks(random_model(5), 15, 15, 30, 1);
        check_walks(freestyle(), 15, 15, 20, 2);
    }

    #[test]
    fn incremental_equals_full_recomputation_on_20x20() {
        check_walks(random_model(6), 20, 20, 20, 3);
    }

    #[test]
    fn incremental_equals_full_recomputation_on_a_rectangle() {
        check_walks(random_model(7), 17, 9, 40, 4);
        check_walks(freestyle(), 6, 13, 40, 5);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_kernels_equal_portable_kernels() {
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
            let pre: [i32; D] = std::array::from_fn(|c| row[c] as i32 * 700);
            let (mut px, mut py) = (pre, pre);
            p.add_tap(&mut px, &row, &dx);
            a.add_tap(&mut py, &row, &dx);
            assert_eq!(px, py);
            let (mut mx, mut my) = (i16s(0, 512), [0; D]);
            my.copy_from_slice(&mx);
            let (mut sx, mut sy) = ([5i32; D], [5i32; D]);
            p.settle(&px, &mut mx, &mut sx);
            a.settle(&py, &mut my, &mut sy);
            assert_eq!((mx, sx), (my, sy));
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
        let best = (0..225).max_by_key(|&i| e.policy()[i]).expect("a square");
        assert_eq!(b.cell_xy(best % 15, best / 15), Cell::Empty);
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
