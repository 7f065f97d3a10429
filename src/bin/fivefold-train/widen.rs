//! `--init` from a network with fewer channels than the one trained (`--channels`): its
//! weights go into the first channels, the new channels' inputs start as a fresh network's and their outgoing
//! weights (value layer 1, policy) at zero, so the widened network computes exactly what
//! the narrow one did and training grows the new channels from there. Session 46 widened
//! netD to 64 channels and fine-tuned it, -6.5 +/- 15.4 Elo against netD (journal).

use fivefold::eval::nn::file::{fnv1a, MAGIC};
use fivefold::eval::nn::model::{Layout, HIDDEN, KERNEL};
use fivefold::eval::nn::quant::{ONE, QMAGIC, WEIGHT};
use fivefold::eval::nn::{Model, SHAPES};

/// The parameters of a float (`FFNET`) or quantised (`FFQNET`) file with fewer channels
/// than `D`, in its own layout: `(channels, params)`. `None` for any other file (the
/// ordinary loaders then say what is wrong with it).
pub fn narrow_params<const D: usize>(bytes: &[u8]) -> Option<(usize, Vec<f32>)> {
    let float = bytes.starts_with(MAGIC);
    if !(float || bytes.starts_with(QMAGIC)) || bytes.len() < 28 {
        return None;
    }
    let u = |at: usize| {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    };
    let (shapes, d0, hidden) = (u(8), u(12), u(16));
    if shapes != SHAPES || hidden != HIDDEN || d0 == 0 || d0 >= D {
        return None;
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().ok()?) {
        return None;
    }
    let blocks = narrow_blocks(d0);
    if float {
        let total: usize = blocks.iter().map(|b| b.0).sum();
        let params = body.get(24..)?;
        (params.len() == 4 * total).then(|| (d0, le_f32s(params)))
    } else {
        let mut at = 20;
        let mut out = Vec::new();
        for &(len, wide, scale) in &blocks {
            let size = if wide { 4 } else { 2 };
            let chunk = body.get(at..at + len * size)?;
            at += len * size;
            out.extend(chunk.chunks_exact(size).map(|c| {
                let v = if wide {
                    i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32
                } else {
                    i16::from_le_bytes([c[0], c[1]]) as f32
                };
                v / scale
            }));
        }
        (at == body.len()).then_some((d0, out))
    }
}

fn le_f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// The blocks of a `d0`-channel network in file order: (length, stored as i32 in the
/// quantised file, its scale there).
fn narrow_blocks(d0: usize) -> [(usize, bool, f32); 10] {
    let (one, w) = (ONE as f32, WEIGHT as f32);
    [
        (SHAPES * d0, false, one),
        (d0, false, one),
        (KERNEL * d0, false, w),
        (d0, true, one * w),
        (HIDDEN * d0, false, w),
        (HIDDEN, true, one * w),
        (3 * HIDDEN, false, w),
        (3, true, one * w),
        (d0, false, w),
        (1, true, one * w),
    ]
}

/// A `D`-channel model holding the `d0`-channel `narrow`: see the module's comment.
pub fn widen<const D: usize>(d0: usize, narrow: &[f32], seed: u64) -> Model<D> {
    let mut m = Model::<D>::random(seed);
    let p = &mut m.params;
    let mut rest = narrow;
    let mut next = |len: usize| {
        let (block, tail) = rest.split_at(len);
        rest = tail;
        block
    };
    // Blocks with a channel axis: `rows` rows of `d0` go into rows of `D`; the new
    // channels keep the fresh network's inputs and get zero outgoing weights.
    let copy = |p: &mut [f32], start: usize, rows: usize, src: &[f32], outgoing: bool| {
        for r in 0..rows {
            let row = &mut p[start + r * D..start + (r + 1) * D];
            row[..d0].copy_from_slice(&src[r * d0..(r + 1) * d0]);
            if outgoing {
                row[d0..].iter_mut().for_each(|x| *x = 0.0);
            }
        }
    };
    copy(p, Layout::<D>::EMBED, SHAPES, next(SHAPES * d0), false);
    copy(p, Layout::<D>::EMBED_B, 1, next(d0), false);
    copy(p, Layout::<D>::CONV_W, KERNEL, next(KERNEL * d0), false);
    copy(p, Layout::<D>::CONV_B, 1, next(d0), false);
    copy(p, Layout::<D>::V1_W, HIDDEN, next(HIDDEN * d0), true);
    let heads = HIDDEN + 3 * HIDDEN + 3; // V1_B, V2_W, V2_B: no channel axis
    p[Layout::<D>::V1_B..Layout::<D>::V1_B + heads].copy_from_slice(next(heads));
    copy(p, Layout::<D>::POL_U, 1, next(d0), true);
    p[Layout::<D>::POL_B] = next(1)[0];
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use fivefold::eval::nn::Scratch;
    use fivefold::game::{Board, Move, Rule};

    const D: usize = 64;
    const D0: usize = D / 2;

    /// The first `D0` channels of every channel block of `m`, in a `D0` network's layout.
    fn narrow_of(m: &Model<D>) -> Vec<f32> {
        let p = &m.params;
        let rows = |start: usize, n: usize| {
            (0..n).flat_map(move |r| p[start + r * D..start + r * D + D0].iter().copied())
        };
        let mut out: Vec<f32> = rows(Layout::<D>::EMBED, SHAPES).collect();
        out.extend(rows(Layout::<D>::EMBED_B, 1));
        out.extend(rows(Layout::<D>::CONV_W, KERNEL));
        out.extend(rows(Layout::<D>::CONV_B, 1));
        out.extend(rows(Layout::<D>::V1_W, HIDDEN));
        out.extend_from_slice(&p[Layout::<D>::V1_B..Layout::<D>::POL_U]);
        out.extend(rows(Layout::<D>::POL_U, 1));
        out.push(p[Layout::<D>::POL_B]);
        out
    }

    fn file(magic: &[u8], version: u16, body: &[u8], count: Option<u32>) -> Vec<u8> {
        let mut out = magic.to_vec();
        out.extend(version.to_le_bytes());
        for d in [SHAPES as u32, D0 as u32, HIDDEN as u32] {
            out.extend(d.to_le_bytes());
        }
        if let Some(c) = count {
            out.extend(c.to_le_bytes());
        }
        out.extend_from_slice(body);
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    fn outputs(m: &Model<D>) -> ([f32; 3], Vec<f32>) {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)] {
            b.make(Move::from_xy(x, y));
        }
        let mut s = Scratch::new();
        s.load_board(&b);
        let v = m.forward(&mut s);
        (v, s.policy.clone())
    }

    #[test]
    fn a_widened_network_computes_what_the_narrow_one_did() {
        let mut m = Model::<D>::random(3);
        // The same network with its upper channels silent: what `narrow_of` keeps.
        for h in 0..HIDDEN {
            m.params[Layout::<D>::V1_W + h * D + D0..Layout::<D>::V1_W + (h + 1) * D].fill(0.0);
        }
        m.params[Layout::<D>::POL_U + D0..Layout::<D>::POL_B].fill(0.0);
        let wide = widen::<D>(D0, &narrow_of(&m), 9);
        assert_ne!(wide.params, m.params, "new channels come from the seed");
        assert_eq!(outputs(&wide), outputs(&m));
    }

    #[test]
    fn narrow_float_and_quantised_files_are_read() {
        let m = Model::<D>::random(5);
        let flat = narrow_of(&m);
        let body: Vec<u8> = flat.iter().flat_map(|x| x.to_le_bytes()).collect();
        let float = file(MAGIC, 1, &body, Some(flat.len() as u32));
        assert_eq!(narrow_params::<D>(&float), Some((D0, flat.clone())));
        let mut q = Vec::new();
        let mut rest = &flat[..];
        for (len, wide, scale) in narrow_blocks(D0) {
            let (block, tail) = rest.split_at(len);
            rest = tail;
            for &x in block {
                let v = (x * scale).round();
                if wide {
                    q.extend((v as i32).to_le_bytes());
                } else {
                    q.extend((v as i16).to_le_bytes());
                }
            }
        }
        let quant = file(QMAGIC, 2, &q, None);
        let (d0, read) = narrow_params::<D>(&quant).expect("a narrow quantised file");
        assert_eq!(d0, D0);
        let worst = flat
            .iter()
            .zip(&read)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst <= 0.5 / ONE as f32, "{worst}");
        // Damaged or cut short: not taken for a narrow network.
        let mut bad = quant.clone();
        bad[100] ^= 1;
        assert_eq!(narrow_params::<D>(&bad), None);
        assert_eq!(narrow_params::<D>(&float[..float.len() - 12]), None);
    }
}
