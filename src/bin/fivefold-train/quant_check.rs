//! Checks the quantised network against the float one on held-out positions.

use crate::backprop::{losses, losses_of, Target};
use crate::data::{transform, Dataset};
use crate::train::Stats;
use fivefold::data::format::NO_MOVE;
use fivefold::eval::nn::{Model, QuantModel, QuantNet, QuantScratch, Scratch};

/// Float and quantised losses over (at most `limit` of) the positions of `data`, and
/// the largest difference of a value logit.
pub fn compare<const D: usize>(
    model: &Model<D>,
    q: &QuantNet<D>,
    data: &Dataset,
    limit: usize,
) -> (Stats, Stats, f32) {
    let (mut s, mut qs) = (Scratch::<D>::new(), QuantScratch::<D>::new());
    let (mut float, mut quant) = (Stats::default(), Stats::default());
    let mut grid = Vec::new();
    let mut policy = Vec::new();
    let mut worst = 0.0f32;
    for sample in data.samples.iter().take(limit) {
        let best = transform(data, sample, 0, &mut grid);
        s.load_grid(sample.width as usize, sample.height as usize, &grid);
        let value = model.forward(&mut s);
        let t = Target {
            value: sample.value,
            best: (best != NO_MOVE).then_some(best as usize),
        };
        float.add(losses(&s, &t));
        let qv = q.forward(&s, &mut qs).map(QuantModel::to_float);
        policy.clear();
        policy.extend(qs.policy.iter().map(|&p| QuantModel::to_float(p)));
        quant.add(losses_of(qv, &policy, &t));
        for k in 0..3 {
            worst = worst.max((qv[k] - value[k]).abs());
        }
    }
    (float, quant, worst)
}
