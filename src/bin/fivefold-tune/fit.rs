//! Texel fitting: the evaluation is linear in the features, so predicting the result as
//! `sigmoid(eval / K)` is a logistic regression on feature counts. K is fitted first for
//! the starting weights (it fixes the scale), then the weights with K held.

/// Positions in a flat, dense layout: `dim` features per position (one weight set, or a
/// set per colour), and per position a fixed offset added to its evaluation (the
/// threat-state value) and its threat-state cell.
pub struct Data {
    pub dim: usize,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub offset: Vec<f64>,
    pub cell: Vec<usize>,
    /// Per position, its pattern combinations as `(parameter, count)` (see
    /// `fit_combos`), rows in order: row `i` is `combo[combo_start[i]..combo_start[i + 1]]`.
    pub combo: Vec<(u32, f32)>,
    pub combo_start: Vec<usize>,
    /// Per position, what the combination corrections add to its evaluation.
    pub combo_offset: Vec<f64>,
}

impl Data {
    pub fn new(dim: usize) -> Data {
        Data {
            dim,
            x: Vec::new(),
            y: Vec::new(),
            offset: Vec::new(),
            cell: Vec::new(),
            combo: Vec::new(),
            combo_start: vec![0],
            combo_offset: Vec::new(),
        }
    }
    /// Adds the last pushed position's pattern combinations and their corrections'
    /// values `combos` (a position without this call has none).
    pub fn push_combos(&mut self, features: &[(usize, i32)], combos: &[f64]) {
        while self.combo_start.len() < self.len() {
            self.combo_start.push(self.combo.len());
        }
        self.combo
            .extend(features.iter().map(|&(j, n)| (j as u32, n as f32)));
        self.combo_start.push(self.combo.len());
        *self.combo_offset.last_mut().expect("a position") = self.combo_sum(self.len() - 1, combos);
    }
    /// Row `i`'s pattern combinations.
    fn combos(&self, i: usize) -> &[(u32, f32)] {
        match (self.combo_start.get(i), self.combo_start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.combo[a..b],
            _ => &[],
        }
    }
    fn combo_sum(&self, i: usize, combos: &[f64]) -> f64 {
        self.combos(i)
            .iter()
            .map(|&(j, n)| n as f64 * combos[j as usize])
            .sum()
    }
    /// Sets each position's combination offset from the corrections `combos`.
    pub fn set_combo_offsets(&mut self, combos: &[f64]) {
        for i in 0..self.len() {
            self.combo_offset[i] = self.combo_sum(i, combos);
        }
    }
    /// Adds a position; `features` must have `dim` entries.
    pub fn push(&mut self, features: &[i32], score: f64, offset: f64, cell: usize) {
        assert_eq!(features.len(), self.dim, "feature vector length");
        self.x.extend(features.iter().map(|&v| v as f64));
        self.y.push(score);
        self.offset.push(offset);
        self.cell.push(cell);
        self.combo_offset.push(0.0);
    }
    pub fn len(&self) -> usize {
        self.y.len()
    }
    /// The positions' feature vectors with their results and offsets (threat state and
    /// combinations).
    fn rows(&self) -> impl Iterator<Item = (&[f64], f64, f64)> {
        self.x
            .chunks_exact(self.dim.max(1))
            .zip(self.y.iter().copied())
            .zip(self.offset.iter().zip(&self.combo_offset))
            .map(|((x, y), (o, c))| (x, y, o + c))
    }

    /// Sets each position's offset to `table[cell]`.
    pub fn set_offsets(&mut self, table: &[f64]) {
        for (o, &c) in self.offset.iter_mut().zip(&self.cell) {
            *o = table[c];
        }
    }
}

#[inline]
fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean squared error between `sigmoid(eval / k)` and the results.
pub fn mse(d: &Data, w: &[f64], k: f64) -> f64 {
    if d.len() == 0 {
        return 0.0;
    }
    let total: f64 = d
        .rows()
        .map(|(x, y, o)| (sigmoid((dot(x, w) + o) / k) - y).powi(2))
        .sum();
    total / d.len() as f64
}

/// The K minimising `mse` for fixed weights: golden-section search on log K.
pub fn fit_k(d: &Data, w: &[f64]) -> f64 {
    let f = |lk: f64| mse(d, w, lk.exp());
    let (mut lo, mut hi) = (1f64.ln(), 100_000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - g * (hi - lo);
    let mut b = lo + g * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

#[derive(Clone)]
pub struct FitOptions {
    pub k: f64,
    pub iterations: usize,
    /// Adam step, in evaluation units.
    pub lr: f64,
    /// Weight of the pull towards the starting weights, per feature:
    /// `l2 * sum (w - w0)^2 / scale^2` is added to the loss (scale = 100 eval units).
    pub l2: f64,
    /// Features the fit may change (one per feature).
    pub trainable: Vec<bool>,
}

/// Full-batch Adam on `mse + l2 pull`. Returns the fitted weights (not rounded).
pub fn fit(
    d: &Data,
    start: &[f64],
    o: &FitOptions,
    mut report: impl FnMut(usize, &[f64]),
) -> Vec<f64> {
    let dim = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; dim], vec![0.0; dim]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let n = d.len().max(1) as f64;
    let scale2 = 100.0f64 * 100.0;
    for it in 1..=o.iterations {
        let mut grad = vec![0.0; dim];
        for (x, y, off) in d.rows() {
            let p = sigmoid((dot(x, &w) + off) / o.k);
            // d/dw (p - y)^2 = 2 (p - y) p (1 - p) x / k
            let c = 2.0 * (p - y) * p * (1.0 - p) / o.k;
            for (g, xi) in grad.iter_mut().zip(x) {
                *g += c * xi;
            }
        }
        for i in 0..dim {
            if !o.trainable[i] {
                continue;
            }
            let g = grad[i] / n + 2.0 * o.l2 * (w[i] - start[i]) / scale2;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] -= o.lr * mh / (vh.sqrt() + eps);
        }
        report(it, &w);
    }
    w
}

/// Rounds the trainable weights to integers one at a time, the most used features first
/// (a rounding error on a feature counted hundreds of times per position shifts every
/// evaluation), refitting the still-free weights briefly after each.
pub fn round_with_refit(
    d: &Data,
    fitted: &[f64],
    o: &FitOptions,
    refit_iterations: usize,
) -> Vec<f64> {
    let dim = fitted.len();
    let mut use_ = vec![0.0; dim];
    for (x, _, _) in d.rows() {
        for (u, v) in use_.iter_mut().zip(x) {
            *u += v.abs();
        }
    }
    let mut order: Vec<usize> = (0..dim).filter(|&i| o.trainable[i]).collect();
    order.sort_by(|&a, &b| use_[b].total_cmp(&use_[a]));
    let mut w = fitted.to_vec();
    let mut free = o.trainable.clone();
    for i in order {
        w[i] = w[i].round();
        free[i] = false;
        if free.iter().any(|&f| f) {
            let step = FitOptions {
                iterations: refit_iterations,
                trainable: free.clone(),
                lr: o.lr * 0.3,
                ..o.clone()
            };
            w = fit(d, &w, &step, |_, _| {});
        }
    }
    w
}

/// The threat-state table for fixed dense weights `w`: each of `cells` cells on its own
/// (a position falls in exactly one), by Newton steps on its positions' loss plus a prior
/// worth `prior` positions at an even result pulling the value to 0, so that rare states
/// stay near 0. Rounded to integers.
pub fn fit_states(d: &Data, w: &[f64], k: f64, cells: usize, prior: f64) -> Vec<f64> {
    let base: Vec<f64> = d
        .rows()
        .zip(&d.combo_offset)
        .map(|((x, _, _), c)| dot(x, w) + c)
        .collect();
    let mut by_cell: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, &c) in d.cell.iter().enumerate() {
        by_cell[c].push(i);
    }
    // The prior's curvature: `prior` positions at p = 1/2, where p(1 - p) = 1/4.
    let prior_h = prior * 2.0 / 16.0 / (k * k);
    let mut table = vec![0.0; cells];
    for (t, rows) in table.iter_mut().zip(&by_cell) {
        if rows.is_empty() {
            continue;
        }
        for _ in 0..30 {
            let (mut g, mut h) = (prior_h * *t, prior_h);
            for &i in rows {
                let p = sigmoid((base[i] + *t) / k);
                g += 2.0 * (p - d.y[i]) * p * (1.0 - p) / k;
                h += 2.0 * (p * (1.0 - p)).powi(2) / (k * k);
            }
            *t -= g / h;
        }
        *t = t.round().clamp(i16::MIN as f64, i16::MAX as f64);
    }
    table
}

/// The pattern-combination corrections for fixed dense weights `w` and threat states:
/// full-batch Adam from `start` on the loss plus, per correction, a prior worth `prior`
/// positions at an even result pulling it to 0. Only corrections seen in at least
/// `min_positions` training positions move. Rounded to integers.
pub fn fit_combos(d: &Data, w: &[f64], start: &[f64], o: &ComboOptions) -> Vec<f64> {
    let base: Vec<f64> = d
        .rows()
        .enumerate()
        .map(|(i, (x, _, off))| dot(x, w) + off - d.combo_sum(i, start))
        .collect();
    let dim = start.len();
    let mut seen = vec![0usize; dim];
    for i in 0..d.len() {
        for &(j, _) in d.combos(i) {
            seen[j as usize] += 1;
        }
    }
    let free: Vec<bool> = seen.iter().map(|&s| s >= o.min_positions).collect();
    let mut c = start.to_vec();
    let (mut m, mut v) = (vec![0.0; dim], vec![0.0; dim]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let n = d.len().max(1) as f64;
    for it in 1..=o.iterations {
        let mut grad = vec![0.0; dim];
        for (i, b) in base.iter().enumerate() {
            let p = sigmoid((b + d.combo_sum(i, &c)) / o.k);
            let g = 2.0 * (p - d.y[i]) * p * (1.0 - p) / o.k;
            for &(j, cnt) in d.combos(i) {
                grad[j as usize] += g * cnt as f64;
            }
        }
        for j in (0..dim).filter(|&j| free[j]) {
            // The prior: `prior` positions at an even result where this is the only term.
            let p = sigmoid(c[j] / o.k);
            let g = (grad[j] + o.prior * 2.0 * (p - 0.5) * p * (1.0 - p) / o.k) / n;
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(it as i32));
            let vh = v[j] / (1.0 - b2.powi(it as i32));
            c[j] -= o.lr * mh / (vh.sqrt() + eps);
        }
    }
    c.iter()
        .map(|x| x.round().clamp(i16::MIN as f64, i16::MAX as f64))
        .collect()
}

pub struct ComboOptions {
    pub k: f64,
    pub iterations: usize,
    pub lr: f64,
    pub prior: f64,
    pub min_positions: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known logistic model: the fit finds K, then recovers weights.
    #[test]
    fn recovers_a_known_model() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        const FEATURES: usize = 9;
        let mut truth = [0.0; FEATURES];
        truth[0] = 30.0;
        truth[5] = 80.0;
        truth[7] = -50.0;
        let k = 200.0;
        let mut d = Data::new(FEATURES);
        for _ in 0..20_000 {
            let mut f = [0i32; FEATURES];
            f[0] = 1;
            f[5] = rng.gen_range(-4..=4);
            f[7] = rng.gen_range(-4..=4);
            let p = sigmoid(dot(&f.map(|v| v as f64), &truth) / k);
            d.push(&f, if rng.gen::<f64>() < p { 1.0 } else { 0.0 }, 0.0, 0);
        }
        let fitted_k = fit_k(&d, &truth);
        assert!((fitted_k - k).abs() < 20.0, "{fitted_k}");
        let mut start = [0.0; FEATURES];
        start[0] = 10.0;
        start[5] = 20.0;
        start[7] = 0.0;
        let mut trainable = vec![false; FEATURES];
        trainable[0] = true;
        trainable[5] = true;
        trainable[7] = true;
        let o = FitOptions {
            k,
            iterations: 600,
            lr: 2.0,
            l2: 0.0,
            trainable,
        };
        let before = mse(&d, &start, k);
        let w = fit(&d, &start, &o, |_, _| {});
        assert!(mse(&d, &w, k) < before);
        for i in [0, 5, 7] {
            assert!(
                (w[i] - truth[i]).abs() < 0.15 * truth[i].abs(),
                "{i}: {}",
                w[i]
            );
        }
        assert_eq!(w[1], start[1]);

        // Rounding: integers on the trainable weights, the others untouched, and the loss
        // stays within a hair of the unrounded fit.
        let mut off_grid = w.clone();
        off_grid[1] = 0.25;
        let r = round_with_refit(&d, &off_grid, &o, 50);
        for i in [0, 5, 7] {
            assert_eq!(r[i], r[i].round(), "{i}: {}", r[i]);
        }
        assert_eq!(r[1], 0.25);
        assert!(mse(&d, &r, k) < mse(&d, &w, k) + 1e-4);
    }

    /// Results drawn with a known value per threat-state cell on top of a fixed
    /// evaluation: `fit_states` recovers the values of well-filled cells, and the prior
    /// holds a cell with a handful of positions near 0.
    #[test]
    fn fit_states_recovers_cell_values() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let k = 400.0;
        let truth = [0.0, 300.0, -500.0, 800.0];
        let mut d = Data::new(1);
        for i in 0..30_000 {
            // Cell 3 gets only 5 positions.
            let cell = if i < 5 { 3 } else { i % 3 };
            let base = rng.gen_range(-600..=600);
            let p = sigmoid((base as f64 + truth[cell]) / k);
            let y = if rng.gen::<f64>() < p { 1.0 } else { 0.0 };
            d.push(&[base], y, 0.0, cell);
        }
        let table = fit_states(&d, &[1.0], k, 5, 50.0);
        for cell in 0..3 {
            assert!(
                (table[cell] - truth[cell]).abs() < 40.0,
                "{cell}: {}",
                table[cell]
            );
            assert_eq!(table[cell], table[cell].round());
        }
        assert!(table[3].abs() < 300.0, "{}", table[3]);
        assert_eq!(table[4], 0.0, "no positions");
        let before = mse(&d, &[1.0], k);
        d.set_offsets(&table);
        assert!(mse(&d, &[1.0], k) < before);
    }
}
