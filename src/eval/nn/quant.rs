//! The quantised network: the float model in integers, as the engine will run it.
//!
//! Activations (h, m, g, the value head's hidden layer) are int16 with 1.0 = `ONE` (512);
//! embeddings and their bias are int16 at the same scale, so an accumulator is a plain
//! int16 sum (the exporter checks it cannot overflow). Convolution and dense weights are
//! int16 at `WEIGHT` (1024) and their biases int32 at `ONE * WEIGHT`; products sum in int32
//! and are shifted back by `WEIGHT_SHIFT` (an arithmetic shift: rounding toward minus
//! infinity) before the clipped ReLU. Outputs are int32 logits at `OUT_SCALE`.

use super::features::SHAPES;
use super::file::{file_channels, fnv1a, LoadError};
use super::model::{Layout, Model, Scratch, CHANNELS, HIDDEN, KERNEL};

pub const ONE_SHIFT: u32 = 9;
pub const ONE: i32 = 1 << ONE_SHIFT;
pub const WEIGHT_SHIFT: u32 = 10;
pub const WEIGHT: i32 = 1 << WEIGHT_SHIFT;
/// Output logits are integers at this scale: `float = int / OUT_SCALE`.
pub const OUT_SCALE: f32 = (ONE * WEIGHT) as f32;

/// One embedding row, aligned to a cache line: a row of 32 int16 is then one line, not
/// two (the rows are most of the sync's memory traffic; journal, session 37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row<const D: usize>(pub [i16; D]);

const _: () = assert!(std::mem::size_of::<Row<32>>() == 64);
const _: () = assert!(std::mem::size_of::<Row<64>>() == 128);

/// Rows of `D` from a flat vector (its length a multiple of `D`).
fn rows<const D: usize>(flat: Vec<i16>) -> Vec<Row<D>> {
    flat.chunks_exact(D)
        .map(|c| Row(c.try_into().expect("D columns")))
        .collect()
}

/// The integer network with `D` channels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet<const D: usize = CHANNELS> {
    pub embed: Vec<Row<D>>,
    pub embed_b: Vec<i16>,
    pub conv_w: Vec<i16>,
    pub conv_b: Vec<i32>,
    pub v1_w: Vec<i16>,
    pub v1_b: Vec<i32>,
    pub v2_w: Vec<i16>,
    pub v2_b: Vec<i32>,
    pub pol_u: Vec<i16>,
    pub pol_b: i32,
}

/// Integer intermediates of one forward pass, reused between positions.
#[derive(Clone)]
pub struct QuantScratch<const D: usize = CHANNELS> {
    pub acc: Vec<[i16; D]>,
    pub hpad: Vec<[i16; D]>,
    pub m: Vec<[i16; D]>,
    pub value: [i32; 3],
    /// Policy logits; `i32::MIN` on occupied squares.
    pub policy: Vec<i32>,
    /// The board size `hpad` was last zeroed for (its border stays zero after).
    padded: (usize, usize),
}

impl<const D: usize> Default for QuantScratch<D> {
    fn default() -> Self {
        QuantScratch::new()
    }
}

impl<const D: usize> QuantScratch<D> {
    pub fn new() -> QuantScratch<D> {
        use super::model::MAX_SQUARES;
        use crate::game::MAX_SIZE;
        QuantScratch {
            acc: Vec::with_capacity(MAX_SQUARES),
            hpad: Vec::with_capacity((MAX_SIZE + 2) * (MAX_SIZE + 2)),
            m: Vec::with_capacity(MAX_SQUARES),
            value: [0; 3],
            policy: Vec::with_capacity(MAX_SQUARES),
            padded: (0, 0),
        }
    }

    fn resize(&mut self, width: usize, height: usize) {
        let n = width * height;
        self.acc.resize(n, [0; D]);
        if self.padded != (width, height) {
            self.hpad.clear();
            self.hpad.resize((width + 2) * (height + 2), [0; D]);
            self.padded = (width, height);
        }
        self.m.resize(n, [0; D]);
        self.policy.resize(n, 0);
    }
}

fn quantise16(values: &[f32], scale: i32, what: &str) -> Result<Vec<i16>, String> {
    values
        .iter()
        .map(|&v| {
            let q = (v * scale as f32).round();
            if q.abs() > i16::MAX as f32 {
                Err(format!("{what}: {v} does not fit int16 at scale {scale}"))
            } else {
                Ok(q as i16)
            }
        })
        .collect()
}

fn quantise32(values: &[f32], scale: i32) -> Vec<i32> {
    values
        .iter()
        .map(|&v| (v as f64 * scale as f64).round() as i32)
        .collect()
}

impl<const D: usize> QuantNet<D> {
    /// Quantises a float model; fails when a weight is out of int16 range or when an
    /// accumulator (bias + four embedding rows) could overflow int16.
    pub fn from_float(m: &Model<D>) -> Result<QuantNet<D>, String> {
        let p = &m.params;
        let q = QuantNet {
            embed: rows(quantise16(
                &p[Layout::<D>::EMBED..Layout::<D>::EMBED_B],
                ONE,
                "embedding",
            )?),
            embed_b: quantise16(
                &p[Layout::<D>::EMBED_B..Layout::<D>::CONV_W],
                ONE,
                "embedding bias",
            )?,
            conv_w: quantise16(
                &p[Layout::<D>::CONV_W..Layout::<D>::CONV_B],
                WEIGHT,
                "convolution",
            )?,
            conv_b: quantise32(&p[Layout::<D>::CONV_B..Layout::<D>::V1_W], ONE * WEIGHT),
            v1_w: quantise16(
                &p[Layout::<D>::V1_W..Layout::<D>::V1_B],
                WEIGHT,
                "value layer 1",
            )?,
            v1_b: quantise32(&p[Layout::<D>::V1_B..Layout::<D>::V2_W], ONE * WEIGHT),
            v2_w: quantise16(
                &p[Layout::<D>::V2_W..Layout::<D>::V2_B],
                WEIGHT,
                "value layer 2",
            )?,
            v2_b: quantise32(&p[Layout::<D>::V2_B..Layout::<D>::POL_U], ONE * WEIGHT),
            pol_u: quantise16(&p[Layout::<D>::POL_U..Layout::<D>::POL_B], WEIGHT, "policy")?,
            pol_b: (p[Layout::<D>::POL_B] as f64 * (ONE * WEIGHT) as f64).round() as i32,
        };
        let row_max = q
            .embed
            .iter()
            .flat_map(|r| r.0)
            .map(|x| (x as i32).abs())
            .max()
            .unwrap_or(0);
        let bias_max = q
            .embed_b
            .iter()
            .map(|&x| (x as i32).abs())
            .max()
            .unwrap_or(0);
        if bias_max + 4 * row_max > i16::MAX as i32 {
            return Err(format!(
                "accumulators could overflow int16: bias {bias_max} + 4 x {row_max}"
            ));
        }
        Ok(q)
    }

    /// The float model these integers stand for (each weight divided by its scale):
    /// lets training go on from a network of which only the quantised file is kept, as
    /// the built-in one. Quantising the result gives these integers back.
    pub fn dequantise(&self) -> Model<D> {
        let (one, w, ow) = (ONE as f32, WEIGHT as f32, (ONE * WEIGHT) as f32);
        let i16s = |v: &[i16], scale: f32| v.iter().map(move |&x| x as f32 / scale).collect();
        let i32s = |v: &[i32], scale: f32| v.iter().map(move |&x| x as f32 / scale).collect();
        // The blocks in `Layout` order, each right after the one before.
        let blocks: [Vec<f32>; 10] = [
            self.embed
                .iter()
                .flat_map(|r| r.0)
                .map(|x| x as f32 / one)
                .collect(),
            i16s(&self.embed_b, one),
            i16s(&self.conv_w, w),
            i32s(&self.conv_b, ow),
            i16s(&self.v1_w, w),
            i32s(&self.v1_b, ow),
            i16s(&self.v2_w, w),
            i32s(&self.v2_b, ow),
            i16s(&self.pol_u, w),
            vec![self.pol_b as f32 / ow],
        ];
        let p = blocks.concat();
        assert_eq!(p.len(), Layout::<D>::PARAMS, "every block, in order");
        Model { params: p }
    }

    /// Runs the integer network on the inputs loaded in `s` (see `Scratch::load_board`).
    /// Returns the value logits at `OUT_SCALE`; policy logits are left in `q.policy`.
    pub fn forward(&self, s: &Scratch<D>, q: &mut QuantScratch<D>) -> [i32; 3] {
        q.resize(s.width, s.height);
        let mut acc = std::mem::take(&mut q.acc);
        for (a, shapes) in acc.iter_mut().zip(&s.shapes) {
            *a = self.accumulator(shapes);
        }
        let value = self.forward_from_acc(s.width, s.height, &acc, &s.empty, q);
        q.acc = acc;
        value
    }

    /// One square's accumulator: the bias plus the embedding rows of its four shapes
    /// (wrapping int16 sums: the exporter checks they cannot overflow, and wrapping makes
    /// add-then-subtract updates exact in any order).
    #[inline]
    pub fn accumulator(&self, shapes: &[u16; 4]) -> [i16; D] {
        let mut acc = [0i16; D];
        acc.copy_from_slice(&self.embed_b);
        for &shape in shapes {
            add_row(&mut acc, self.row(shape));
        }
        acc
    }

    /// The embedding row of `shape`.
    #[inline]
    pub fn row(&self, shape: u16) -> &[i16; D] {
        &self.embed[shape as usize].0
    }

    /// The mixing convolution's tap `k` (0 to 8, row-major over the 3x3 kernel).
    #[inline]
    pub fn tap(&self, k: usize) -> &[i16; D] {
        self.conv_w[k * D..(k + 1) * D]
            .try_into()
            .expect("D channels")
    }

    /// The network from given accumulators (row-major `width x height`) on: mixing,
    /// pooling, value and policy, with `q`'s buffers (resized, never reallocated within
    /// `MAX_SIZE`). Returns the value logits; the policy is left in `q.policy`. With AVX2
    /// where the processor has it (the same code compiled for it and chosen at run time:
    /// integer arithmetic, so the same results).
    pub fn forward_from_acc(
        &self,
        width: usize,
        height: usize,
        acc: &[[i16; D]],
        empty: &[bool],
        q: &mut QuantScratch<D>,
    ) -> [i32; 3] {
        q.resize(width, height);
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor supports AVX2 (checked above).
            unsafe { forward_avx2(self, width, height, acc, empty, q) };
            return q.value;
        }
        forward_body(self, width, height, acc, empty, q);
        q.value
    }
}

/// A dot product of int16 weights and int16 inputs (clipped activations, `0..=ONE`):
/// the products pair up as SSE2's `pmaddwd` does, so the loop vectorises on any x86-64.
#[inline(always)]
fn dot_i16<const N: usize>(w: &[i16], x: &[i16; N]) -> i32 {
    let w: &[i16; N] = w.try_into().expect("N weights");
    let mut s = 0i32;
    for c in 0..N {
        s += w[c] as i32 * x[c] as i32;
    }
    s
}

/// `acc += row`, wrapping.
#[inline(always)]
pub fn add_row<const D: usize>(acc: &mut [i16; D], row: &[i16; D]) {
    for c in 0..D {
        acc[c] = acc[c].wrapping_add(row[c]);
    }
}

/// `acc -= row`, wrapping.
#[inline(always)]
pub fn sub_row<const D: usize>(acc: &mut [i16; D], row: &[i16; D]) {
    for c in 0..D {
        acc[c] = acc[c].wrapping_sub(row[c]);
    }
}

/// Whether this processor runs the AVX2 paths (detected once).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    use std::sync::OnceLock;
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// The network after the accumulators: clipped copy into the padded plane, mixing,
/// value and policy heads. Plain loops over the channels, so they vectorise.
#[inline(always)]
fn forward_body<const D: usize>(
    model: &QuantNet<D>,
    width: usize,
    height: usize,
    acc: &[[i16; D]],
    empty: &[bool],
    q: &mut QuantScratch<D>,
) {
    let pw = width + 2;
    let mut sum = [0i32; D];
    for y in 0..height {
        let row = &acc[y * width..(y + 1) * width];
        let dst = &mut q.hpad[(y + 1) * pw + 1..(y + 1) * pw + 1 + width];
        for (d, a) in dst.iter_mut().zip(row) {
            for c in 0..D {
                d[c] = a[c].clamp(0, ONE as i16);
                sum[c] += d[c] as i32;
            }
        }
    }
    q.value = value_from_sum(model, &sum, width * height);
    mix_body(
        &model.conv_w,
        &model.conv_b,
        width,
        height,
        &q.hpad,
        &mut q.m,
    );
    policy_head(model, &q.m, empty, &mut q.policy);
}

/// Policy logits of the mixed channels `m` on the empty squares (`i32::MIN` elsewhere).
#[inline(always)]
pub(super) fn policy_head<const D: usize>(
    model: &QuantNet<D>,
    m: &[[i16; D]],
    empty: &[bool],
    out: &mut [i32],
) {
    let u: &[i16; D] = model.pol_u[..].try_into().expect("D weights");
    for ((p, m), &empty) in out.iter_mut().zip(m).zip(empty) {
        *p = if empty {
            let mut sum = 0i32;
            for c in 0..D {
                sum += u[c] as i32 * m[c] as i32;
            }
            model.pol_b + sum
        } else {
            i32::MIN
        };
    }
}

/// `forward_body` compiled for AVX2.
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn forward_avx2<const D: usize>(
    model: &QuantNet<D>,
    width: usize,
    height: usize,
    acc: &[[i16; D]],
    empty: &[bool],
    q: &mut QuantScratch<D>,
) {
    forward_body(model, width, height, acc, empty, q)
}

/// `ceil(2^40 / n)`, for `rounded_mean`.
#[inline]
fn reciprocal(n: u64) -> u64 {
    (1u64 << 40).div_ceil(n)
}

/// `(v + n / 2) / n` for `0 <= v < 2^19`, `n < 2^9`, with `inv = reciprocal(n)`.
#[inline(always)]
fn rounded_mean(v: i32, n: u64, inv: u64) -> i32 {
    debug_assert!((0..1 << 19).contains(&v) && n < 1 << 9);
    (((v as u64 + n / 2) * inv) >> 40) as i32
}

/// The value logits from the per-channel sum of the clipped accumulators over `n`
/// squares (version 1 files read the mixed channels instead; they are refused).
#[inline]
pub(super) fn value_from_sum<const D: usize>(
    model: &QuantNet<D>,
    sum: &[i32; D],
    n: usize,
) -> [i32; 3] {
    // The rounded mean (v + n/2) / n by one multiply and shift, exact: v + n/2 < 2^19
    // (clipped channels <= ONE over at most 22 x 22 squares) and n < 2^9, so the
    // reciprocal's error stays below 2^-12 of a unit (one division a call, not 32).
    let n = n.max(1) as u64;
    let inv = reciprocal(n);
    // Means and hidden units lie in 0..=ONE, so both layers multiply int16 by int16.
    let g = sum.map(|v| rounded_mean(v, n, inv) as i16);
    let hidden: [i16; HIDDEN] = std::array::from_fn(|j| {
        let pre = model.v1_b[j] + dot_i16(&model.v1_w[j * D..(j + 1) * D], &g);
        (pre >> WEIGHT_SHIFT).clamp(0, ONE) as i16
    });
    std::array::from_fn(|k| {
        model.v2_b[k] + dot_i16(&model.v2_w[k * HIDDEN..(k + 1) * HIDDEN], &hidden)
    })
}

#[inline(always)]
fn mix_body<const D: usize>(
    conv_w: &[i16],
    conv_b: &[i32],
    width: usize,
    height: usize,
    hpad: &[[i16; D]],
    m: &mut [[i16; D]],
) {
    let pw = width + 2;
    let bias: [i32; D] = std::array::from_fn(|c| conv_b[c]);
    for y in 0..height {
        for x in 0..width {
            let mut out = bias;
            for k in 0..KERNEL {
                let h = &hpad[(y + k / 3) * pw + x + k % 3];
                let w: &[i16; D] = conv_w[k * D..(k + 1) * D].try_into().expect("D taps");
                for c in 0..D {
                    out[c] += w[c] as i32 * h[c] as i32;
                }
            }
            let dst = &mut m[y * width + x];
            for c in 0..D {
                dst[c] = (out[c] >> WEIGHT_SHIFT).clamp(0, ONE) as i16;
            }
        }
    }
}

/// The quantised weight file: `"FFQNET"` version:u16 shapes:u32 channels:u32 hidden:u32,
/// then the blocks in model order (i16 or i32, little-endian), then FNV-1a 64 of it all.
pub const QMAGIC: &[u8; 6] = b"FFQNET";
pub const QVERSION: u16 = 2;

impl<const D: usize> QuantNet<D> {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(QMAGIC);
        out.extend_from_slice(&QVERSION.to_le_bytes());
        for d in [SHAPES as u32, D as u32, HIDDEN as u32] {
            out.extend_from_slice(&d.to_le_bytes());
        }
        let i16s =
            |out: &mut Vec<u8>, v: &[i16]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
        let i32s =
            |out: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
        self.embed.iter().for_each(|r| i16s(&mut out, &r.0));
        i16s(&mut out, &self.embed_b);
        i16s(&mut out, &self.conv_w);
        i32s(&mut out, &self.conv_b);
        i16s(&mut out, &self.v1_w);
        i32s(&mut out, &self.v1_b);
        i16s(&mut out, &self.v2_w);
        i32s(&mut out, &self.v2_b);
        i16s(&mut out, &self.pol_u);
        i32s(&mut out, &[self.pol_b]);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}

/// Reads little-endian integers off a byte slice, failing on a short read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], LoadError> {
        let end = self.at + N;
        let slice = self.bytes.get(self.at..end).ok_or(LoadError::Truncated {
            len: self.bytes.len(),
            want: end,
        })?;
        self.at = end;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, LoadError> {
        (0..n)
            .map(|_| self.take().map(i16::from_le_bytes))
            .collect()
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, LoadError> {
        (0..n)
            .map(|_| self.take().map(i32::from_le_bytes))
            .collect()
    }
}

impl<const D: usize> QuantNet<D> {
    /// Reads a quantised weight file of `D` channels; errors as `Model::from_bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet<D>, LoadError> {
        if bytes.len() < 8 || &bytes[..6] != QMAGIC {
            return Err(LoadError::NotANetwork);
        }
        let mut r = Reader { bytes, at: 6 };
        let version = u16::from_le_bytes(r.take()?);
        if version != QVERSION {
            return Err(LoadError::Version(version));
        }
        let dims = [r.take()?, r.take()?, r.take()?].map(u32::from_le_bytes);
        let build = [SHAPES as u32, D as u32, HIDDEN as u32];
        if dims != build {
            return Err(LoadError::Dimensions {
                file: [dims[0], dims[1], dims[2], 0],
                build: [build[0], build[1], build[2], 0],
            });
        }
        let q = QuantNet {
            embed: rows(r.i16s(SHAPES * D)?),
            embed_b: r.i16s(D)?,
            conv_w: r.i16s(KERNEL * D)?,
            conv_b: r.i32s(D)?,
            v1_w: r.i16s(HIDDEN * D)?,
            v1_b: r.i32s(HIDDEN)?,
            v2_w: r.i16s(3 * HIDDEN)?,
            v2_b: r.i32s(3)?,
            pol_u: r.i16s(D)?,
            pol_b: i32::from_le_bytes(r.take()?),
        };
        let body = r.at;
        let sum = u64::from_le_bytes(r.take()?);
        if r.at != bytes.len() {
            return Err(LoadError::TrailingBytes {
                len: bytes.len(),
                want: r.at,
            });
        }
        if fnv1a(&bytes[..body]) != sum {
            return Err(LoadError::Checksum);
        }
        Ok(q)
    }
}

/// A quantised network of one of the widths the engine runs (`ENGINE_CHANNELS`), as
/// its weight file says: the engine's handle on a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantModel {
    C32(QuantNet<32>),
    C64(QuantNet<64>),
}

impl From<QuantNet<32>> for QuantModel {
    fn from(q: QuantNet<32>) -> QuantModel {
        QuantModel::C32(q)
    }
}

impl From<QuantNet<64>> for QuantModel {
    fn from(q: QuantNet<64>) -> QuantModel {
        QuantModel::C64(q)
    }
}

impl QuantModel {
    /// Reads a quantised weight file of any width the engine runs; a file of another
    /// width is refused as the 32-channel reader refuses it (wrong dimensions).
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantModel, LoadError> {
        match file_channels(bytes) {
            Some(64) if bytes.starts_with(QMAGIC) => QuantNet::from_bytes(bytes).map(Self::C64),
            _ => QuantNet::from_bytes(bytes).map(Self::C32),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            QuantModel::C32(q) => q.to_bytes(),
            QuantModel::C64(q) => q.to_bytes(),
        }
    }

    /// Channels of the per-square features.
    pub fn channels(&self) -> usize {
        match self {
            QuantModel::C32(_) => 32,
            QuantModel::C64(_) => 64,
        }
    }

    /// Logits as floats, comparable with the float model's.
    pub fn to_float(v: i32) -> f32 {
        if v == i32::MIN {
            f32::NEG_INFINITY
        } else {
            v as f32 / OUT_SCALE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nn::features::{EMPTY, OPP, OWN};
    use crate::game::{Board, Move, Rule};

    fn board(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for &(x, y) in moves {
            b.make(Move::from_xy(x, y));
        }
        b
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_forward_equals_portable_forward() {
        avx2_forward_equals_portable::<32>();
        avx2_forward_equals_portable::<64>();
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2_forward_equals_portable<const D: usize>() {
        if !has_avx2() {
            return;
        }
        let model = QuantNet::from_float(&Model::<D>::random(21)).expect("fits");
        let mut rng = crate::data::rng::SplitMix64::new(22);
        for (w, h) in [(15, 15), (20, 20), (7, 12)] {
            let acc: Vec<[i16; D]> = (0..w * h)
                .map(|_| std::array::from_fn(|_| rng.below(1400) as i16 - 400))
                .collect();
            let empty: Vec<bool> = (0..w * h).map(|_| rng.below(3) != 0).collect();
            let (mut a, mut b) = (QuantScratch::new(), QuantScratch::new());
            a.resize(w, h);
            b.resize(w, h);
            forward_body(&model, w, h, &acc, &empty, &mut a);
            // SAFETY: AVX2 checked above.
            unsafe { forward_avx2(&model, w, h, &acc, &empty, &mut b) };
            assert_eq!((a.value, &a.policy), (b.value, &b.policy));
            assert!(a.policy.iter().any(|&p| p != i32::MIN));
        }
    }

    #[test]
    fn the_integer_network_tracks_the_float_one() {
        tracks::<32>();
        tracks::<64>();
    }

    fn tracks<const D: usize>() {
        let model = Model::<D>::random(9);
        let q = QuantNet::from_float(&model).expect("fits");
        let (mut s, mut qs) = (Scratch::new(), QuantScratch::new());
        let b = board(&[(7, 7), (8, 8), (7, 8), (6, 6), (9, 9)]);
        let value = model.evaluate(&b, &mut s);
        let qvalue = q.forward(&s, &mut qs);
        for k in 0..3 {
            let d = (QuantModel::to_float(qvalue[k]) - value[k]).abs();
            assert!(d < 0.02, "value {k}: {} vs {}", qvalue[k], value[k]);
        }
        for (i, (&p, &qp)) in s.policy.iter().zip(&qs.policy).enumerate() {
            let qp = QuantModel::to_float(qp);
            assert!(p == qp || (p - qp).abs() < 0.05, "square {i}: {p} vs {qp}");
        }
    }

    #[test]
    fn dequantising_the_built_in_network_quantises_back_to_it() {
        match crate::eval::nn::incremental::freestyle() {
            QuantModel::C32(q) => round_trip(q),
            QuantModel::C64(q) => round_trip(q),
        }
    }

    fn round_trip<const D: usize>(q: &QuantNet<D>) {
        let model = q.dequantise();
        assert_eq!(QuantNet::from_float(&model).as_ref(), Ok(q));
        // and the floats are the network's: both forward passes agree
        let (mut s, mut qs) = (Scratch::new(), QuantScratch::new());
        let b = board(&[(7, 7), (8, 8), (7, 8), (6, 6), (9, 9), (6, 8)]);
        let value = model.evaluate(&b, &mut s);
        let qvalue = q.forward(&s, &mut qs);
        for k in 0..3 {
            let d = (QuantModel::to_float(qvalue[k]) - value[k]).abs();
            assert!(d < 0.1, "value {k}: {} vs {}", qvalue[k], value[k]);
        }
    }

    #[test]
    fn the_quantised_file_loads_back_and_refuses_damage() {
        let wide = QuantModel::from(QuantNet::from_float(&Model::<64>::random(3)).expect("fits"));
        assert_eq!(QuantModel::from_bytes(&wide.to_bytes()).as_ref(), Ok(&wide));
        assert_eq!(wide.channels(), 64);
        let q = QuantModel::from(QuantNet::from_float(&Model::<32>::random(3)).expect("fits"));
        assert_eq!(q.channels(), 32);
        let bytes = q.to_bytes();
        assert_eq!(QuantModel::from_bytes(&bytes).as_ref(), Ok(&q));
        let short = QuantModel::from_bytes(&bytes[..bytes.len() - 3]);
        assert!(matches!(short, Err(LoadError::Truncated { .. })));
        let mut bad = bytes.clone();
        bad[1000] ^= 4;
        assert_eq!(QuantModel::from_bytes(&bad), Err(LoadError::Checksum));
        let mut bad = bytes.clone();
        bad[6] = 9;
        assert_eq!(QuantModel::from_bytes(&bad), Err(LoadError::Version(9)));
        assert_eq!(
            QuantModel::from_bytes(&Model::<32>::random(3).to_bytes()),
            Err(LoadError::NotANetwork)
        );
        let mut odd = bytes.clone();
        odd[12] = 48; // channels: no engine width
        assert!(matches!(
            QuantModel::from_bytes(&odd),
            Err(LoadError::Dimensions { .. })
        ));
    }

    #[test]
    fn weights_out_of_range_are_refused() {
        let mut model = Model::<32>::random(9);
        model.params[Layout::<32>::EMBED + 5] = 40.0;
        assert!(QuantNet::from_float(&model).is_err());
        let mut model = Model::<32>::random(9);
        model.params[Layout::<32>::CONV_W] = 100.0;
        let err = QuantNet::from_float(&model).unwrap_err();
        assert!(err.contains("convolution"), "{err}");
    }

    /// Pins the integer forward pass: the outputs of a fixed random model on fixed
    /// positions, stored in `testdata/quant_vectors.txt` (one position a line:
    /// `width height cells | win draw loss | policy sum`). Regenerate with
    /// `FIVEFOLD_WRITE_VECTORS=1` only when the quantisation changes on purpose.
    #[test]
    fn the_integer_outputs_match_the_test_vectors() {
        let model = Model::<32>::random(44);
        let q = QuantNet::from_float(&model).expect("fits");
        let (mut s, mut qs) = (Scratch::new(), QuantScratch::new());
        let mut lines = Vec::new();
        for (w, h, seed) in [(15usize, 15usize, 1u64), (9, 9, 2), (20, 20, 3), (7, 12, 4)] {
            let mut state = seed;
            let cells: Vec<u8> = (0..w * h)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    [EMPTY, EMPTY, EMPTY, OWN, OPP][(state >> 33) as usize % 5]
                })
                .collect();
            s.load_grid(w, h, &cells);
            let v = q.forward(&s, &mut qs);
            let policy: i64 = qs
                .policy
                .iter()
                .filter(|&&p| p != i32::MIN)
                .map(|&p| p as i64)
                .sum();
            let text: String = cells.iter().map(|c| char::from(b'0' + c)).collect();
            lines.push(format!(
                "{w} {h} {text} | {} {} {} | {policy}",
                v[0], v[1], v[2]
            ));
        }
        let got = lines.join("\n") + "\n";
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/eval/nn/testdata/quant_vectors.txt"
        );
        if std::env::var_os("FIVEFOLD_WRITE_VECTORS").is_some() {
            std::fs::write(path, &got).expect("write vectors");
        }
        let want = std::fs::read_to_string(path).expect("test vectors");
        assert_eq!(got, want);
    }

    #[test]
    fn rounded_mean_by_reciprocal_equals_division() {
        for n in 1u64..=484 {
            let inv = reciprocal(n);
            let top = (super::ONE as u64 * n).min((1 << 19) - n / 2 - 1) as i32;
            let step = if n % 37 == 0 || n >= 400 { 1 } else { 97 };
            for v in (0..=top).step_by(step).chain([top]) {
                assert_eq!(
                    rounded_mean(v, n, inv),
                    (v + n as i32 / 2) / n as i32,
                    "{v} / {n}"
                );
            }
        }
    }
}
