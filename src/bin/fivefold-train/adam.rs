//! Adam with sparse embedding updates: every dense block steps each batch, embedding rows
//! only when a batch touched them (their moments wait meanwhile: "lazy" Adam). Weight
//! decay, when asked for, is decoupled (AdamW) and also lazy.

use crate::backprop::Grad;
use crate::prior::ShapePrior;
use fivefold::eval::nn::model::Layout;

pub struct Adam<const D: usize> {
    pub lr: f32,
    /// Decoupled weight decay (AdamW), applied to the parameters a step updates.
    pub weight_decay: f32,
    beta1: f32,
    beta2: f32,
    eps: f32,
    steps: i32,
    m: Vec<f32>,
    v: Vec<f32>,
}

impl<const D: usize> Adam<D> {
    pub fn new(lr: f32) -> Adam<D> {
        Adam {
            lr,
            weight_decay: 0.0,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            steps: 0,
            m: vec![0.0; Layout::<D>::PARAMS],
            v: vec![0.0; Layout::<D>::PARAMS],
        }
    }

    /// One step along `grad * scale` (scale = 1 / batch size for a mean loss). With a
    /// shape prior, an embedding row decays towards its group's shared row, and the
    /// shared rows take their own step (`ShapePrior::step`).
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &Grad<D>,
        scale: f32,
        mut prior: Option<&mut ShapePrior<D>>,
    ) {
        self.steps += 1;
        let c1 = 1.0 - self.beta1.powi(self.steps);
        let c2 = 1.0 - self.beta2.powi(self.steps);
        let lr = self.lr * c2.sqrt() / c1;
        for i in Layout::<D>::EMBED_B..Layout::<D>::PARAMS {
            self.update(params, grad, i, scale, lr, 0.0);
        }
        for &r in &grad.touched {
            let at = Layout::<D>::EMBED + r as usize * D;
            for c in 0..D {
                let anchor = prior.as_ref().map_or(0.0, |p| p.anchor(r as usize, c));
                self.update(params, grad, at + c, scale, lr, anchor);
            }
        }
        if let Some(p) = prior.as_mut() {
            p.step(params, grad, scale, lr, self.beta1, self.beta2, self.eps);
        }
    }

    #[inline]
    fn update(
        &mut self,
        params: &mut [f32],
        grad: &Grad<D>,
        i: usize,
        scale: f32,
        lr: f32,
        anchor: f32,
    ) {
        let g = grad.g[i] * scale;
        self.m[i] = self.beta1 * self.m[i] + (1.0 - self.beta1) * g;
        self.v[i] = self.beta2 * self.v[i] + (1.0 - self.beta2) * g * g;
        params[i] -= lr * self.m[i] / (self.v[i].sqrt() + self.eps)
            + self.lr * self.weight_decay * (params[i] - anchor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const D: usize = 32;

    #[test]
    fn a_step_moves_against_the_gradient_and_leaves_untouched_rows() {
        let mut params = vec![0.5f32; Layout::<D>::PARAMS];
        let mut grad = Grad::new();
        grad.g[Layout::<D>::POL_B] = 2.0;
        grad.g[Layout::<D>::V1_B] = -1.0;
        let mut adam = Adam::<D>::new(0.01);
        adam.step(&mut params, &grad, 1.0, None);
        assert!(
            (params[Layout::<D>::POL_B] - 0.49).abs() < 1e-4,
            "{}",
            params[Layout::<D>::POL_B]
        );
        assert!((params[Layout::<D>::V1_B] - 0.51).abs() < 1e-4);
        assert_eq!(params[Layout::<D>::EMBED], 0.5);
    }
}
