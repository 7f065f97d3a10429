//! `--shape-prior`: each shape's embedding row is trained as a shared part, one row per
//! group of shapes, plus the shape's own residual, and weight decay pulls the residual
//! towards the shared part instead of towards zero. A shape's group is its centre (empty,
//! own, opponent) and the classical patterns (`eval::Pattern`) the line gives each side,
//! so a shape seen a few times in the data still starts from what its kind is worth.
//!
//! The model keeps the sum (`shared[group] + residual`) in its embedding block, so the
//! forward pass, the weight file and the engine do not change: a step moves the touched
//! rows by their residuals' Adam steps and every row by its group's step.
//!
//! From scratch on 256k positions: validation value -0.034, policy -0.067, and +23 +/- 19
//! Elo in play against the same recipe without it (600 games); journal, session 43.
//! netB fine-tuned with it on 505k positions is netD, +21 +/- 16 against netB (session 44).

use crate::backprop::Grad;
use fivefold::eval::nn::features::{shape_cells, OPP, OWN, REACH, SHAPES};
use fivefold::eval::nn::model::Layout;
use fivefold::eval::{PatternTable, PATTERN_COUNT};
use fivefold::game::{key_slot, Color, Rule};

/// Groups: centre code x own pattern x opponent's pattern.
pub const GROUPS: usize = 3 * PATTERN_COUNT * PATTERN_COUNT;

/// The group of every shape (`GROUPS` of them).
pub fn shape_groups() -> Vec<u16> {
    let table = PatternTable::for_rule(Rule::Freestyle);
    (0..SHAPES)
        .map(|shape| {
            let (centre, left, right) = shape_cells(shape);
            // A line key with own stones as Black's and the opponent's as White's.
            let board_code = |c: u8| match c {
                OWN => Color::Black.cell() as u32,
                OPP => Color::White.cell() as u32,
                other => other as u32,
            };
            let mut key = 0u32;
            for k in 0..REACH {
                let off = k as isize + 1;
                key |= board_code(left[k]) << (2 * key_slot(-off));
                key |= board_code(right[k]) << (2 * key_slot(off));
            }
            let own = table.get(Color::Black, key) as usize;
            let opp = table.get(Color::White, key) as usize;
            ((centre as usize * PATTERN_COUNT + own) * PATTERN_COUNT + opp) as u16
        })
        .collect()
}

/// The shared rows and their Adam moments.
pub struct ShapePrior<const D: usize> {
    group: Vec<u16>,
    shared: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Scratch: the group gradient, then the group step.
    delta: Vec<f32>,
}

impl<const D: usize> Default for ShapePrior<D> {
    fn default() -> Self {
        ShapePrior::new()
    }
}

impl<const D: usize> ShapePrior<D> {
    /// Shared rows at zero: the model's embedding starts as all residual.
    pub fn new() -> ShapePrior<D> {
        ShapePrior {
            group: shape_groups(),
            shared: vec![0.0; GROUPS * D],
            m: vec![0.0; GROUPS * D],
            v: vec![0.0; GROUPS * D],
            delta: vec![0.0; GROUPS * D],
        }
    }

    /// Shared rows at the mean of each group's rows in `params` (a network trained without
    /// the prior, `--init`): the model does not change, and the decay pulls each row
    /// towards what its group holds in common.
    pub fn from_params(params: &[f32]) -> ShapePrior<D> {
        let mut p = ShapePrior::new();
        let mut count = vec![0u32; GROUPS];
        for (shape, &g) in p.group.iter().enumerate() {
            count[g as usize] += 1;
            let row = &params[Layout::<D>::EMBED + shape * D..Layout::<D>::EMBED + (shape + 1) * D];
            for (s, x) in p.shared[g as usize * D..].iter_mut().zip(row) {
                *s += x;
            }
        }
        for (g, &n) in count.iter().enumerate() {
            for s in &mut p.shared[g * D..(g + 1) * D] {
                *s /= n.max(1) as f32;
            }
        }
        p
    }

    /// The shared value under channel `c` of `shape`'s row: where its decay pulls it.
    #[inline]
    pub fn anchor(&self, shape: usize, c: usize) -> f32 {
        self.shared[self.group[shape] as usize * D + c]
    }

    /// One Adam step of the shared rows along the summed gradient of their touched shapes
    /// (`scale` as in `Adam::step`, `lr` bias-corrected), added to every shape's row.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &Grad<D>,
        scale: f32,
        lr: f32,
        beta1: f32,
        beta2: f32,
        eps: f32,
    ) {
        self.delta.fill(0.0);
        for &r in &grad.touched {
            let g = self.group[r as usize] as usize * D;
            let at = Layout::<D>::EMBED + r as usize * D;
            for c in 0..D {
                self.delta[g + c] += grad.g[at + c] * scale;
            }
        }
        for i in 0..GROUPS * D {
            let g = self.delta[i];
            self.m[i] = beta1 * self.m[i] + (1.0 - beta1) * g;
            self.v[i] = beta2 * self.v[i] + (1.0 - beta2) * g * g;
            self.delta[i] = -lr * self.m[i] / (self.v[i].sqrt() + eps);
            self.shared[i] += self.delta[i];
        }
        for (shape, &g) in self.group.iter().enumerate() {
            let step = &self.delta[g as usize * D..(g as usize + 1) * D];
            let row =
                &mut params[Layout::<D>::EMBED + shape * D..Layout::<D>::EMBED + (shape + 1) * D];
            for (p, s) in row.iter_mut().zip(step) {
                *p += s;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const D: usize = 32;
    use fivefold::eval::nn::features::{shape_of_line, side_cells, side_index, EMPTY, PAIRS};
    use fivefold::eval::Pattern;

    fn group_parts(g: u16) -> (usize, usize, usize) {
        let g = g as usize;
        (
            g / (PATTERN_COUNT * PATTERN_COUNT),
            g / PATTERN_COUNT % PATTERN_COUNT,
            g % PATTERN_COUNT,
        )
    }

    #[test]
    fn side_cells_invert_side_index() {
        for i in 0..fivefold::eval::nn::features::SIDES {
            assert_eq!(side_index(side_cells(i)), i, "side {i}");
        }
        for shape in [0, 17, PAIRS + 5, SHAPES - 1] {
            let (c, l, r) = shape_cells(shape);
            assert_eq!(shape_of_line(c, l, r) as usize, shape);
        }
    }

    #[test]
    fn groups_read_the_patterns_of_both_sides() {
        let groups = shape_groups();
        assert_eq!(groups.len(), SHAPES);
        assert!(groups.iter().all(|&g| (g as usize) < GROUPS));
        // O O _ O O: the empty centre makes five for us; the opponent gets nothing there.
        let five = shape_of_line(EMPTY, [OWN, OWN, EMPTY, EMPTY], [OWN, OWN, EMPTY, EMPTY]);
        let (centre, own, opp) = group_parts(groups[five as usize]);
        assert_eq!(centre, EMPTY as usize);
        assert_eq!(own, Pattern::F5 as usize);
        assert!(opp < Pattern::B2 as usize, "{opp}");
        // The same line seen by the opponent: the patterns swap.
        let theirs = shape_of_line(EMPTY, [OPP, OPP, EMPTY, EMPTY], [OPP, OPP, EMPTY, EMPTY]);
        let (_, own2, opp2) = group_parts(groups[theirs as usize]);
        assert_eq!((own2, opp2), (opp, own));
        // An open three around an own stone in the centre.
        let three = shape_of_line(OWN, [OWN, EMPTY, EMPTY, EMPTY], [OWN, EMPTY, EMPTY, EMPTY]);
        let (centre, own, _) = group_parts(groups[three as usize]);
        assert_eq!(centre, OWN as usize);
        assert_eq!(own, Pattern::F3 as usize);
        // Many groups are in use, not a handful.
        let mut used = vec![false; GROUPS];
        for &g in &groups {
            used[g as usize] = true;
        }
        assert!(used.iter().filter(|&&u| u).count() > 60);
    }

    #[test]
    fn from_params_starts_at_the_group_means() {
        let mut params = vec![0.0f32; Layout::<D>::PARAMS];
        let groups = shape_groups();
        let g = groups[100];
        let members: Vec<usize> = (0..SHAPES).filter(|&s| groups[s] == g).collect();
        assert!(members.len() >= 2);
        params[Layout::<D>::EMBED + members[0] * D + 3] = 2.0;
        let prior = ShapePrior::<D>::from_params(&params);
        let mean = 2.0 / members.len() as f32;
        assert!((prior.anchor(members[1], 3) - mean).abs() < 1e-6);
        assert_eq!(prior.anchor(members[1], 2), 0.0);
    }

    #[test]
    fn a_step_moves_the_whole_group_and_only_it() {
        let mut prior = ShapePrior::<D>::new();
        let mut params = vec![0.0f32; Layout::<D>::PARAMS];
        let mut grad = Grad::<D>::new();
        let touched = 5usize;
        grad.fill_row(touched, 1.0);
        // The first step's bias correction, as `Adam::step` passes it: a step of lr.
        let lr = 0.01 * (1.0f32 - 0.999).sqrt() / (1.0 - 0.9);
        prior.step(&mut params, &grad, 1.0, lr, 0.9, 0.999, 1e-8);
        let g = prior.group[touched];
        let mate = (0..SHAPES).find(|&s| s != touched && prior.group[s] == g);
        let other = (0..SHAPES)
            .find(|&s| prior.group[s] != g)
            .expect("other groups");
        let mate = mate.expect("the group has another shape");
        assert!((params[Layout::<D>::EMBED + mate * D] + 0.01).abs() < 1e-4);
        assert!((params[Layout::<D>::EMBED + touched * D] + 0.01).abs() < 1e-4);
        assert_eq!(params[Layout::<D>::EMBED + other * D], 0.0);
        assert!((prior.anchor(mate, 0) + 0.01).abs() < 1e-4);
    }
}
