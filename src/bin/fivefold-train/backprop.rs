//! Losses and their gradients for one position, by hand, from the intermediates that the
//! library's forward pass leaves in its `Scratch`.
//!
//! Loss = cross-entropy of the value logits against the WDL target
//!      + policy_weight * cross-entropy of the policy (softmax over empty squares)
//!        against the best move.
//! The clipped ReLUs pass gradient where their input lies strictly inside (0, 1).

use fivefold::eval::nn::features::SHAPES;
use fivefold::eval::nn::model::{clamp01, Layout, Model, Scratch, HIDDEN, KERNEL};

/// Gradients in the parameter layout. The embedding block is large and sparse: rows a
/// batch touched are listed in `touched`, and only they are summed, applied and cleared.
pub struct Grad<const D: usize> {
    pub g: Vec<f32>,
    pub touched: Vec<u32>,
    mark: Vec<bool>,
}

impl<const D: usize> Default for Grad<D> {
    fn default() -> Self {
        Grad::new()
    }
}

impl<const D: usize> Grad<D> {
    pub fn new() -> Grad<D> {
        Grad {
            g: vec![0.0; Layout::<D>::PARAMS],
            touched: Vec::new(),
            mark: vec![false; SHAPES],
        }
    }

    #[inline]
    fn row(&mut self, shape: usize) -> &mut [f32] {
        if !self.mark[shape] {
            self.mark[shape] = true;
            self.touched.push(shape as u32);
        }
        &mut self.g[Layout::<D>::EMBED + shape * D..Layout::<D>::EMBED + (shape + 1) * D]
    }

    /// Sets every channel of `shape`'s row to `value` (for tests).
    #[cfg(test)]
    pub fn fill_row(&mut self, shape: usize, value: f32) {
        self.row(shape).fill(value);
    }

    /// Adds `other` into `self` and clears `other`.
    pub fn absorb(&mut self, other: &mut Grad<D>) {
        for i in Layout::<D>::EMBED_B..Layout::<D>::PARAMS {
            self.g[i] += other.g[i];
            other.g[i] = 0.0;
        }
        for &r in &other.touched {
            let r = r as usize;
            let at = Layout::<D>::EMBED + r * D;
            let src: [f32; D] = std::array::from_fn(|c| other.g[at + c]);
            for (dst, s) in self.row(r).iter_mut().zip(src) {
                *dst += s;
            }
            other.g[at..at + D].fill(0.0);
            other.mark[r] = false;
        }
        other.touched.clear();
    }

    /// Zeroes every gradient (touched rows and dense blocks only).
    pub fn clear(&mut self) {
        for &r in &self.touched {
            let at = Layout::<D>::EMBED + r as usize * D;
            self.g[at..at + D].fill(0.0);
            self.mark[r as usize] = false;
        }
        self.touched.clear();
        self.g[Layout::<D>::EMBED_B..].fill(0.0);
    }
}

/// Buffers for the backward pass, reused between positions.
#[derive(Default)]
pub struct Back<const D: usize> {
    dm: Vec<[f32; D]>,
    dh: Vec<[f32; D]>,
}

/// One position's losses and whether the policy's top move was the best one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Losses {
    pub value: f32,
    pub policy: Option<f32>,
    pub top1: bool,
}

pub struct Target {
    pub value: [f32; 3],
    pub best: Option<usize>,
}

#[inline]
fn add_to(dst: &mut [f32], src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

#[inline]
fn inside(x: f32) -> bool {
    x > 0.0 && x < 1.0
}

fn log_softmax3(v: [f32; 3]) -> [f32; 3] {
    let top = v[0].max(v[1]).max(v[2]);
    let lse = top + v.iter().map(|x| (x - top).exp()).sum::<f32>().ln();
    v.map(|x| x - lse)
}

/// Losses of the forward pass in `s` (run `model.forward(s)` first).
pub fn losses<const D: usize>(s: &Scratch<D>, t: &Target) -> Losses {
    losses_of(s.value, &s.policy, t)
}

/// Losses of value logits and policy logits (`-inf` on occupied squares).
pub fn losses_of(value: [f32; 3], policy: &[f32], t: &Target) -> Losses {
    let lv = log_softmax3(value);
    let value = -(0..3).map(|k| t.value[k] * lv[k]).sum::<f32>();
    let loss = t.best.map(|b| {
        let top = policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = policy.iter().map(|p| (p - top).exp()).sum();
        top + sum.ln() - policy[b]
    });
    let top1 = t.best.is_some_and(|b| {
        let arg = (0..policy.len()).max_by(|&i, &j| policy[i].total_cmp(&policy[j]));
        arg == Some(b)
    });
    Losses {
        value,
        policy: loss,
        top1,
    }
}

/// Adds the gradient of `value loss + policy_weight * policy loss` to `grad`.
pub fn backward<const D: usize>(
    model: &Model<D>,
    s: &Scratch<D>,
    t: &Target,
    policy_weight: f32,
    back: &mut Back<D>,
    grad: &mut Grad<D>,
) -> Losses {
    let out = losses(s, t);
    let dg = value_backward(model, s, t, grad);
    back.dm.clear();
    back.dm.resize(s.m.len(), [0.0; D]);
    if let Some(best) = t.best {
        policy_backward(model, s, best, policy_weight, &mut back.dm, grad);
    }
    mix_backward(model, s, back, grad);
    // The value reads the board mean of h: each square's h gets dg / n.
    let dh = dg.map(|x| x / s.m.len() as f32);
    for y in 0..s.height {
        for x in 0..s.width {
            add_to(&mut back.dh[s.pad_index(x, y)], &dh);
        }
    }
    accumulate_backward(s, back, grad);
    out
}

/// The value head; returns the gradient with respect to `g`.
fn value_backward<const D: usize>(
    model: &Model<D>,
    s: &Scratch<D>,
    t: &Target,
    grad: &mut Grad<D>,
) -> [f32; D] {
    let p = model.params.as_slice();
    let prob = log_softmax3(s.value).map(f32::exp);
    let dv: [f32; 3] = std::array::from_fn(|k| prob[k] - t.value[k]);
    let hidden = s.hidden.map(clamp01);
    let mut dpre = [0.0f32; HIDDEN];
    for k in 0..3 {
        grad.g[Layout::<D>::V2_B + k] += dv[k];
        for j in 0..HIDDEN {
            grad.g[Layout::<D>::V2_W + k * HIDDEN + j] += dv[k] * hidden[j];
            dpre[j] += p[Layout::<D>::V2_W + k * HIDDEN + j] * dv[k];
        }
    }
    let mut dg = [0.0f32; D];
    for j in 0..HIDDEN {
        if !inside(s.hidden[j]) {
            continue;
        }
        grad.g[Layout::<D>::V1_B + j] += dpre[j];
        for c in 0..D {
            grad.g[Layout::<D>::V1_W + j * D + c] += dpre[j] * s.g[c];
            dg[c] += p[Layout::<D>::V1_W + j * D + c] * dpre[j];
        }
    }
    dg
}

/// The policy head: softmax over empty squares against `best`.
fn policy_backward<const D: usize>(
    model: &Model<D>,
    s: &Scratch<D>,
    best: usize,
    weight: f32,
    dm: &mut [[f32; D]],
    grad: &mut Grad<D>,
) {
    let u = &model.params[Layout::<D>::POL_U..Layout::<D>::POL_U + D];
    let top = s.policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = s.policy.iter().map(|p| (p - top).exp()).sum();
    for (i, &logit) in s.policy.iter().enumerate() {
        if !s.empty[i] {
            continue;
        }
        let q = (logit - top).exp() / sum;
        let d = weight * (q - if i == best { 1.0 } else { 0.0 });
        grad.g[Layout::<D>::POL_B] += d;
        for c in 0..D {
            grad.g[Layout::<D>::POL_U + c] += d * s.m[i][c];
            dm[i][c] += d * u[c];
        }
    }
}

/// The depthwise convolution: from `dm` to the gradient of the padded `h` in `back.dh`.
fn mix_backward<const D: usize>(
    model: &Model<D>,
    s: &Scratch<D>,
    back: &mut Back<D>,
    grad: &mut Grad<D>,
) {
    let taps = &model.params[Layout::<D>::CONV_W..Layout::<D>::CONV_W + KERNEL * D];
    let pw = s.width + 2;
    back.dh.clear();
    back.dh.resize(s.hpad.len(), [0.0; D]);
    for y in 0..s.height {
        for x in 0..s.width {
            let i = y * s.width + x;
            let dconv: [f32; D] = std::array::from_fn(|c| {
                if inside(s.conv[i][c]) {
                    back.dm[i][c]
                } else {
                    0.0
                }
            });
            add_to(
                &mut grad.g[Layout::<D>::CONV_B..Layout::<D>::CONV_B + D],
                &dconv,
            );
            for k in 0..KERNEL {
                let at = (y + k / 3) * pw + x + k % 3;
                let h = &s.hpad[at];
                let dh = &mut back.dh[at];
                for c in 0..D {
                    grad.g[Layout::<D>::CONV_W + k * D + c] += dconv[c] * h[c];
                    dh[c] += taps[k * D + c] * dconv[c];
                }
            }
        }
    }
}

/// The accumulators: embedding rows and their bias.
fn accumulate_backward<const D: usize>(s: &Scratch<D>, back: &Back<D>, grad: &mut Grad<D>) {
    for y in 0..s.height {
        for x in 0..s.width {
            let i = y * s.width + x;
            let dh = &back.dh[s.pad_index(x, y)];
            let da: [f32; D] =
                std::array::from_fn(|c| if inside(s.acc[i][c]) { dh[c] } else { 0.0 });
            add_to(
                &mut grad.g[Layout::<D>::EMBED_B..Layout::<D>::EMBED_B + D],
                &da,
            );
            for &shape in &s.shapes[i] {
                add_to(grad.row(shape as usize), &da);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const D: usize = 32;
    use fivefold::data::rng::SplitMix64;
    use fivefold::eval::nn::features::{EMPTY, OPP, OWN};

    fn position(seed: u64) -> (Vec<u8>, Target) {
        let mut rng = SplitMix64::new(seed);
        let cells: Vec<u8> = (0..36)
            .map(|_| [EMPTY, EMPTY, OWN, OPP][rng.below(4) as usize])
            .collect();
        let best = cells.iter().position(|&c| c == EMPTY);
        let target = Target {
            value: [0.6, 0.1, 0.3],
            best,
        };
        (cells, target)
    }

    fn loss(model: &Model, cells: &[u8], t: &Target, s: &mut Scratch) -> f64 {
        s.load_grid(6, 6, cells);
        model.forward(s);
        let l = losses(s, t);
        l.value as f64 + 0.7 * l.policy.unwrap_or(0.0) as f64
    }

    /// Central differences against the analytic gradient on a 6x6 board, over every
    /// dense parameter and the embedding rows the position uses.
    #[test]
    fn gradients_match_finite_differences() {
        let (cells, t) = position(11);
        let mut model = Model::random(5);
        let mut s = Scratch::new();
        let mut grad = Grad::new();
        s.load_grid(6, 6, &cells);
        model.forward(&mut s);
        backward(&model, &s, &t, 0.7, &mut Back::default(), &mut grad);
        let mut checked: Vec<usize> = (Layout::<D>::EMBED_B..Layout::<D>::PARAMS).collect();
        for &r in grad.touched.iter().take(40) {
            checked.extend(
                Layout::<D>::EMBED + r as usize * D..Layout::<D>::EMBED + r as usize * D + D,
            );
        }
        let eps = 2e-3;
        let (mut bad, mut big) = (Vec::new(), 0);
        for &i in &checked {
            let keep = model.params[i];
            model.params[i] = keep + eps;
            let up = loss(&model, &cells, &t, &mut s);
            model.params[i] = keep - eps;
            let down = loss(&model, &cells, &t, &mut s);
            model.params[i] = keep;
            let fd = (up - down) / (2.0 * eps as f64);
            let an = grad.g[i] as f64;
            if an.abs() > 1e-3 {
                big += 1;
            }
            if (fd - an).abs() > 2e-3 + 0.03 * fd.abs().max(an.abs()) {
                bad.push((i, fd, an));
            }
        }
        // A kink of a clipped ReLU inside +-eps can spoil a few differences, no more.
        assert!(big > 200, "only {big} parameters with a visible gradient");
        assert!(
            bad.len() * 100 <= checked.len(),
            "{} of {} differ, e.g. {:?}",
            bad.len(),
            checked.len(),
            &bad[..bad.len().min(8)]
        );
    }

    #[test]
    fn absorbing_sums_and_clears() {
        let mut a = Grad::<D>::new();
        let mut b = Grad::<D>::new();
        a.row(3)[0] = 1.0;
        b.row(3)[0] = 2.0;
        b.row(9)[1] = 4.0;
        b.g[Layout::<D>::POL_B] = 5.0;
        a.absorb(&mut b);
        assert_eq!(a.g[Layout::<D>::EMBED + 3 * D], 3.0);
        assert_eq!(a.g[Layout::<D>::EMBED + 9 * D + 1], 4.0);
        assert_eq!(a.g[Layout::<D>::POL_B], 5.0);
        assert!(b.g.iter().all(|&x| x == 0.0) && b.touched.is_empty());
        a.clear();
        assert!(a.g.iter().all(|&x| x == 0.0) && a.touched.is_empty());
    }
}
