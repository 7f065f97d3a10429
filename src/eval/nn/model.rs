//! The float network: the reference the trainer fits and the quantised engine copies.
//!
//! ```text
//! a_s   = bias + sum over 4 directions of E[shape(s, dir)]       (D channels)
//! h_s   = clamp(a_s, 0, 1)
//! m_s   = clamp(conv_b + sum over the 3x3 neighbourhood k of w_k * h_{s+k}, 0, 1)
//!         (depthwise: per channel; squares off the board count as zero)
//! g     = mean over the board's squares of h_s
//! value = V2 * clamp(V1 * g + b1, 0, 1) + b2                      (win, draw, loss logits)
//! policy_s = u . m_s + c for each empty square                   (softmax over them)
//! ```
//! Everything is seen by the side to move. Parameters live in one flat vector (`Layout`
//! gives the offsets), so the optimizer and the weight file treat them alike.

use super::features::{board_shapes, grid_shapes, SHAPES};
use crate::data::rng::SplitMix64;
use crate::game::{Board, MAX_SIZE};

/// Channels of the per-square features of a network made without saying otherwise
/// (`fivefold-train --channels`); a weight file says its own.
pub const CHANNELS: usize = 32;
/// The channel counts the engine runs (`QuantModel`); each is a multiple of 16.
pub const ENGINE_CHANNELS: [usize; 2] = [32, 64];
/// Width of the value head's hidden layer.
pub const HIDDEN: usize = 32;
/// Taps of the depthwise 3x3 convolution, row-major over `(dy, dx)` in `-1..=1`.
pub const KERNEL: usize = 9;
/// Largest board the scratch is sized for.
pub const MAX_SQUARES: usize = MAX_SIZE * MAX_SIZE;
const PADDED: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);

/// Offsets of each parameter block in `Model::params` for `D` channels.
pub struct Layout<const D: usize>;

impl<const D: usize> Layout<D> {
    /// `[shape][channel]`
    pub const EMBED: usize = 0;
    pub const EMBED_B: usize = Self::EMBED + SHAPES * D;
    /// `[tap][channel]`
    pub const CONV_W: usize = Self::EMBED_B + D;
    pub const CONV_B: usize = Self::CONV_W + KERNEL * D;
    /// `[hidden][channel]`
    pub const V1_W: usize = Self::CONV_B + D;
    pub const V1_B: usize = Self::V1_W + HIDDEN * D;
    /// `[outcome][hidden]`
    pub const V2_W: usize = Self::V1_B + HIDDEN;
    pub const V2_B: usize = Self::V2_W + 3 * HIDDEN;
    pub const POL_U: usize = Self::V2_B + 3;
    pub const POL_B: usize = Self::POL_U + D;
    pub const PARAMS: usize = Self::POL_B + 1;
}

/// The float network with `D` channels.
#[derive(Clone, Debug, PartialEq)]
pub struct Model<const D: usize = CHANNELS> {
    pub params: Vec<f32>,
}

/// Inputs and every intermediate of one forward pass, reused between positions so that a
/// forward pass allocates nothing. The trainer's backward pass reads the intermediates.
pub struct Scratch<const D: usize = CHANNELS> {
    pub width: usize,
    pub height: usize,
    pub shapes: Vec<[u16; 4]>,
    pub empty: Vec<bool>,
    /// Pre-activations of `h` (the accumulators).
    pub acc: Vec<[f32; D]>,
    /// `h`, with a ring of zeros: `(width + 2) x (height + 2)`.
    pub hpad: Vec<[f32; D]>,
    /// Pre-activations of `m`.
    pub conv: Vec<[f32; D]>,
    pub m: Vec<[f32; D]>,
    pub g: [f32; D],
    /// Pre-activations of the value head's hidden layer.
    pub hidden: [f32; HIDDEN],
    pub value: [f32; 3],
    /// Policy logits; `f32::NEG_INFINITY` on occupied squares.
    pub policy: Vec<f32>,
}

impl<const D: usize> Default for Scratch<D> {
    fn default() -> Self {
        Scratch::new()
    }
}

impl<const D: usize> Scratch<D> {
    pub fn new() -> Scratch<D> {
        Scratch {
            width: 0,
            height: 0,
            shapes: Vec::with_capacity(MAX_SQUARES),
            empty: Vec::with_capacity(MAX_SQUARES),
            acc: Vec::with_capacity(MAX_SQUARES),
            hpad: Vec::with_capacity(PADDED),
            conv: Vec::with_capacity(MAX_SQUARES),
            m: Vec::with_capacity(MAX_SQUARES),
            g: [0.0; D],
            hidden: [0.0; HIDDEN],
            value: [0.0; 3],
            policy: Vec::with_capacity(MAX_SQUARES),
        }
    }

    /// Sets the board size; within `MAX_SIZE` this never allocates.
    pub fn resize(&mut self, width: usize, height: usize) {
        assert!(
            width <= MAX_SIZE && height <= MAX_SIZE,
            "board {width}x{height}"
        );
        self.width = width;
        self.height = height;
        let n = width * height;
        self.shapes.resize(n, [0; 4]);
        self.empty.resize(n, false);
        self.acc.resize(n, [0.0; D]);
        self.hpad.resize((width + 2) * (height + 2), [0.0; D]);
        self.conv.resize(n, [0.0; D]);
        self.m.resize(n, [0.0; D]);
        self.policy.resize(n, 0.0);
    }

    /// Loads the inputs of a board, seen by its side to move.
    pub fn load_board(&mut self, board: &Board) {
        self.resize(board.width(), board.height());
        board_shapes(board, &mut self.shapes);
        for y in 0..board.height() {
            for x in 0..board.width() {
                self.empty[y * board.width() + x] = board.cell_xy(x, y) == crate::game::Cell::Empty;
            }
        }
    }

    /// Loads the inputs of a grid of view codes (`features::EMPTY`, `OWN`, `OPP`, `WALL`).
    pub fn load_grid(&mut self, width: usize, height: usize, cells: &[u8]) {
        self.resize(width, height);
        grid_shapes(width, height, cells, &mut self.shapes);
        for (e, &c) in self.empty.iter_mut().zip(cells) {
            *e = c == super::features::EMPTY;
        }
    }

    /// Index of square `(x, y)` in `hpad`.
    #[inline]
    pub fn pad_index(&self, x: usize, y: usize) -> usize {
        (y + 1) * (self.width + 2) + x + 1
    }
}

#[inline]
pub fn clamp01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

fn uniform(rng: &mut SplitMix64, a: f32) -> f32 {
    let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * u - 1.0) * a
}

impl<const D: usize> Model<D> {
    /// A fresh model whose activations start inside the clipped ReLUs' linear range.
    pub fn random(seed: u64) -> Model<D> {
        let mut rng = SplitMix64::new(seed);
        let mut p = vec![0.0f32; Layout::<D>::PARAMS];
        let mut fill = |range: std::ops::Range<usize>, a: f32, centre: f32| {
            for x in &mut p[range] {
                *x = centre + uniform(&mut rng, a);
            }
        };
        fill(Layout::<D>::EMBED..Layout::<D>::EMBED_B, 0.1, 0.0);
        fill(Layout::<D>::EMBED_B..Layout::<D>::CONV_W, 0.0, 0.3);
        fill(Layout::<D>::CONV_W..Layout::<D>::CONV_B, 0.2, 0.05);
        fill(Layout::<D>::CONV_B..Layout::<D>::V1_W, 0.0, 0.2);
        fill(
            Layout::<D>::V1_W..Layout::<D>::V1_B,
            1.0 / (D as f32).sqrt(),
            0.0,
        );
        fill(Layout::<D>::V1_B..Layout::<D>::V2_W, 0.0, 0.5);
        fill(
            Layout::<D>::V2_W..Layout::<D>::V2_B,
            1.0 / (HIDDEN as f32).sqrt(),
            0.0,
        );
        fill(Layout::<D>::POL_U..Layout::<D>::POL_B, 0.5, 0.0);
        Model { params: p }
    }

    #[inline]
    fn block(&self, at: usize, len: usize) -> &[f32] {
        &self.params[at..at + len]
    }

    /// Runs the network on the inputs loaded in `s`; returns the value logits
    /// (win, draw, loss for the side to move). Policy logits are left in `s.policy`.
    pub fn forward(&self, s: &mut Scratch<D>) -> [f32; 3] {
        self.accumulate(s);
        self.mix(s);
        self.value_head(s);
        self.policy_head(s);
        s.value
    }

    /// Loads `board` and runs the network on it.
    pub fn evaluate(&self, board: &Board, s: &mut Scratch<D>) -> [f32; 3] {
        s.load_board(board);
        self.forward(s)
    }

    fn accumulate(&self, s: &mut Scratch<D>) {
        let bias = self.block(Layout::<D>::EMBED_B, D);
        for (acc, shapes) in s.acc.iter_mut().zip(&s.shapes) {
            acc.copy_from_slice(bias);
            for &shape in shapes {
                let row = self.block(Layout::<D>::EMBED + shape as usize * D, D);
                for c in 0..D {
                    acc[c] += row[c];
                }
            }
        }
        let w = s.width;
        for p in s.hpad.iter_mut() {
            *p = [0.0; D];
        }
        for y in 0..s.height {
            for x in 0..w {
                let h = s.acc[y * w + x].map(clamp01);
                let at = s.pad_index(x, y);
                s.hpad[at] = h;
            }
        }
    }

    fn mix(&self, s: &mut Scratch<D>) {
        let bias = self.block(Layout::<D>::CONV_B, D);
        let taps = self.block(Layout::<D>::CONV_W, KERNEL * D);
        let pw = s.width + 2;
        for y in 0..s.height {
            for x in 0..s.width {
                let mut out = [0.0f32; D];
                out.copy_from_slice(bias);
                for k in 0..KERNEL {
                    let h = &s.hpad[(y + k / 3) * pw + x + k % 3];
                    let w = &taps[k * D..(k + 1) * D];
                    for c in 0..D {
                        out[c] += w[c] * h[c];
                    }
                }
                let i = y * s.width + x;
                s.conv[i] = out;
                s.m[i] = out.map(clamp01);
            }
        }
    }

    /// The value reads the clipped accumulators, not the mixed channels: the engine then
    /// keeps its value up to date without the convolution (journal, session 37).
    fn value_head(&self, s: &mut Scratch<D>) {
        let mut g = [0.0f32; D];
        for y in 0..s.height {
            for x in 0..s.width {
                let h = &s.hpad[s.pad_index(x, y)];
                for c in 0..D {
                    g[c] += h[c];
                }
            }
        }
        let n = (s.width * s.height).max(1) as f32;
        s.g = g.map(|x| x / n);
        for j in 0..HIDDEN {
            let w = self.block(Layout::<D>::V1_W + j * D, D);
            s.hidden[j] = self.params[Layout::<D>::V1_B + j] + dot(w, &s.g);
        }
        let hidden = s.hidden.map(clamp01);
        for k in 0..3 {
            let w = self.block(Layout::<D>::V2_W + k * HIDDEN, HIDDEN);
            s.value[k] = self.params[Layout::<D>::V2_B + k] + dot(w, &hidden);
        }
    }

    fn policy_head(&self, s: &mut Scratch<D>) {
        let u = self.block(Layout::<D>::POL_U, D);
        let b = self.params[Layout::<D>::POL_B];
        for ((p, m), &empty) in s.policy.iter_mut().zip(&s.m).zip(&s.empty) {
            *p = if empty {
                b + dot(u, m)
            } else {
                f32::NEG_INFINITY
            };
        }
    }
}

#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Softmax of value logits: win, draw, loss probabilities.
pub fn wdl(logits: [f32; 3]) -> [f32; 3] {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e = logits.map(|x| (x - top).exp());
    let sum: f32 = e.iter().sum();
    e.map(|x| x / sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Rule};

    fn board_with(moves: &[(usize, usize)], size: usize) -> Board {
        let mut b = Board::new(size, size, Rule::Freestyle);
        for &(x, y) in moves {
            b.make(Move::from_xy(x, y));
        }
        b
    }

    #[test]
    fn layout_counts_every_parameter_once() {
        fn count<const D: usize>() -> usize {
            SHAPES * D + D + KERNEL * D + D + HIDDEN * D + HIDDEN + 3 * HIDDEN + 3 + D + 1
        }
        assert_eq!(Layout::<32>::PARAMS, count::<32>());
        assert_eq!(Layout::<64>::PARAMS, count::<64>());
    }

    #[test]
    fn policy_covers_exactly_the_empty_squares() {
        let model = Model::<CHANNELS>::random(1);
        let b = board_with(&[(7, 7), (7, 8), (8, 8)], 15);
        let mut s = Scratch::new();
        let v = model.evaluate(&b, &mut s);
        assert!(v.iter().all(|x| x.is_finite()));
        let finite = s.policy.iter().filter(|p| p.is_finite()).count();
        assert_eq!(finite, 15 * 15 - 3);
        assert!(s.policy[7 * 15 + 7].is_infinite());
        let p = wdl(v);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn scratch_reuse_across_sizes_gives_fresh_results() {
        let model = Model::<CHANNELS>::random(3);
        let small = board_with(&[(2, 2)], 9);
        let big = board_with(&[(7, 7), (8, 8)], 20);
        let mut fresh = Scratch::new();
        let want = model.evaluate(&small, &mut fresh);
        let mut reused = Scratch::new();
        model.evaluate(&big, &mut reused);
        assert_eq!(model.evaluate(&small, &mut reused), want);
        assert_eq!(reused.policy, fresh.policy);
    }

    #[test]
    fn the_forward_pass_does_not_reallocate_up_to_the_largest_board() {
        let model = Model::<CHANNELS>::random(5);
        let mut s = Scratch::new();
        let before = (
            s.acc.as_ptr(),
            s.hpad.as_ptr(),
            s.policy.as_ptr(),
            s.shapes.as_ptr(),
        );
        model.evaluate(&board_with(&[(3, 3)], MAX_SIZE), &mut s);
        model.evaluate(&board_with(&[(3, 3)], 15), &mut s);
        let after = (
            s.acc.as_ptr(),
            s.hpad.as_ptr(),
            s.policy.as_ptr(),
            s.shapes.as_ptr(),
        );
        assert_eq!(before, after);
    }

    #[test]
    fn different_positions_get_different_values() {
        let model = Model::<CHANNELS>::random(4);
        let mut s = Scratch::new();
        let a = model.evaluate(&board_with(&[(7, 7)], 15), &mut s);
        let b = model.evaluate(&board_with(&[(7, 7), (3, 3)], 15), &mut s);
        assert_ne!(a, b);
    }
}
