//! Minibatches over threads: each thread runs its share of a batch into its own
//! gradient; the shares are summed in thread order, so a run is deterministic given the
//! seed and the thread count.

use crate::adam::Adam;
use crate::backprop::{backward, losses, Back, Grad, Losses, Target};
use crate::data::{transform, Dataset};
use crate::prior::ShapePrior;
use fivefold::data::format::NO_MOVE;
use fivefold::eval::nn::{Model, Scratch};

/// Sums of losses over positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub positions: u64,
    pub value: f64,
    pub policy: f64,
    pub policy_positions: u64,
    pub top1: u64,
}

impl Stats {
    pub fn add(&mut self, l: Losses) {
        self.positions += 1;
        self.value += l.value as f64;
        if let Some(p) = l.policy {
            self.policy += p as f64;
            self.policy_positions += 1;
            self.top1 += l.top1 as u64;
        }
    }

    pub fn merge(&mut self, o: &Stats) {
        self.positions += o.positions;
        self.value += o.value;
        self.policy += o.policy;
        self.policy_positions += o.policy_positions;
        self.top1 += o.top1;
    }

    pub fn value_loss(&self) -> f64 {
        self.value / self.positions.max(1) as f64
    }

    pub fn policy_loss(&self) -> f64 {
        self.policy / self.policy_positions.max(1) as f64
    }

    pub fn top1(&self) -> f64 {
        self.top1 as f64 / self.policy_positions.max(1) as f64
    }
}

/// One thread's buffers.
#[derive(Default)]
pub struct Worker<const D: usize> {
    scratch: Scratch<D>,
    back: Back<D>,
    grid: Vec<u8>,
    pub grad: Grad<D>,
    pub stats: Stats,
}

/// A position to run: sample index and symmetry.
pub type Item = (u32, u8);

impl<const D: usize> Worker<D> {
    /// Forward (and, when `learn`, backward) over `items`.
    fn run(
        &mut self,
        model: &Model<D>,
        data: &Dataset,
        items: &[Item],
        learn: bool,
        policy_weight: f32,
    ) {
        for &(index, sym) in items {
            let sample = &data.samples[index as usize];
            let best = transform(data, sample, sym, &mut self.grid);
            let (w, h) = (sample.width as usize, sample.height as usize);
            let (w, h) = if sym & 4 != 0 { (h, w) } else { (w, h) };
            self.scratch.load_grid(w, h, &self.grid);
            model.forward(&mut self.scratch);
            let target = Target {
                value: sample.value,
                best: (best != NO_MOVE).then_some(best as usize),
            };
            let l = if learn {
                backward(
                    model,
                    &self.scratch,
                    &target,
                    policy_weight,
                    &mut self.back,
                    &mut self.grad,
                )
            } else {
                losses(&self.scratch, &target)
            };
            self.stats.add(l);
        }
    }
}

/// Runs `items` split across `workers` (one thread each).
pub fn run_parallel<const D: usize>(
    model: &Model<D>,
    data: &Dataset,
    items: &[Item],
    learn: bool,
    policy_weight: f32,
    workers: &mut [Worker<D>],
) {
    let share = items.len().div_ceil(workers.len()).max(1);
    std::thread::scope(|scope| {
        let mut chunks = items.chunks(share);
        let own = chunks.next().unwrap_or(&[]);
        let (first, rest) = workers.split_at_mut(1);
        for w in rest.iter_mut() {
            let chunk = chunks.next().unwrap_or(&[]);
            scope.spawn(move || w.run(model, data, chunk, learn, policy_weight));
        }
        first[0].run(model, data, own, learn, policy_weight);
    });
}

/// The summed gradient of a batch, left in `workers[0].grad`.
pub fn batch_gradient<const D: usize>(
    model: &Model<D>,
    data: &Dataset,
    batch: &[Item],
    policy_weight: f32,
    workers: &mut [Worker<D>],
) {
    run_parallel(model, data, batch, true, policy_weight, workers);
    let (first, rest) = workers.split_at_mut(1);
    for w in rest {
        first[0].grad.absorb(&mut w.grad);
    }
}

/// One optimizer step on a batch.
pub fn train_batch<const D: usize>(
    model: &mut Model<D>,
    adam: &mut Adam<D>,
    data: &Dataset,
    batch: &[Item],
    policy_weight: f32,
    workers: &mut [Worker<D>],
    prior: Option<&mut ShapePrior<D>>,
) {
    batch_gradient(model, data, batch, policy_weight, workers);
    adam.step(
        &mut model.params,
        &workers[0].grad,
        1.0 / batch.len() as f32,
        prior,
    );
    workers[0].grad.clear();
}

/// Takes and resets the workers' statistics.
pub fn take_stats<const D: usize>(workers: &mut [Worker<D>]) -> Stats {
    let mut total = Stats::default();
    for w in workers {
        total.merge(&w.stats);
        w.stats = Stats::default();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{add_game, TargetOptions};
    use fivefold::data::format::{GameRecord, Outcome, Ply};

    /// A game on 9x9 filling squares in a scrambled order, every ply labelled.
    fn dataset() -> Dataset {
        let order: Vec<u16> = (0..40u16).map(|i| (i * 37 + 11) % 81).collect();
        let plies = order
            .iter()
            .enumerate()
            .map(|(i, &mv)| Ply {
                mv,
                best: order.get(i + 1).copied().unwrap_or(NO_MOVE),
                score: (i as i16 - 20) * 30,
            })
            .collect();
        let g = GameRecord {
            rule: 0,
            width: 9,
            height: 9,
            outcome: Outcome::BlackWon,
            opening: 2,
            plies,
        };
        let mut ds = Dataset::default();
        let t = TargetOptions {
            score_scale: 400.0,
            result_weight: 0.5,
            played: false,
        };
        add_game(&mut ds, &g, t);
        ds
    }

    #[test]
    fn threads_share_a_batch_without_losing_gradient() {
        let data = dataset();
        let model = Model::<32>::random(8);
        let batch: Vec<Item> = (0..data.samples.len() as u32)
            .map(|i| (i, (i % 8) as u8))
            .collect();
        let gradient = |threads: usize| {
            let mut workers: Vec<Worker<32>> = (0..threads).map(|_| Worker::default()).collect();
            batch_gradient(&model, &data, &batch, 1.0, &mut workers);
            let stats = take_stats(&mut workers);
            (workers.swap_remove(0).grad.g, stats)
        };
        let (one, s1) = gradient(1);
        let (three, s3) = gradient(3);
        assert_eq!(s1.positions, batch.len() as u64);
        assert_eq!(s3.positions, s1.positions);
        assert!((s1.value - s3.value).abs() < 1e-4);
        let scale = one.iter().map(|x| x.abs()).fold(0.0f32, f32::max);
        assert!(scale > 0.0);
        for (i, (a, b)) in one.iter().zip(&three).enumerate() {
            assert!((a - b).abs() <= 1e-5 * scale, "parameter {i}: {a} vs {b}");
        }
    }
}
