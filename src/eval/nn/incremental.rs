//! The quantised network in the search: accumulators brought up to date when asked.
//!
//! Every square holds, for each colour to move, its four line shapes and their int16
//! accumulator (`QuantModel::accumulator`). The two views are kept apart: every shape's
//! own/opponent view swaps with the side to move. A stone changes the shapes of the
//! squares within `REACH` along its four lines (and its own four), so bringing a view up
//! to date looks up those 4 x 9 shapes and, where one changed, subtracts the old embedding
//! row and adds the new one. Int16 sums wrap, so the result is exactly the full
//! recomputation's whatever the order of updates.
//!
//! Updates are lazy: make and undo do nothing here, and `compute` first syncs the side to
//! move's view with the board, updating along the stones that differ between the board's
//! move history and the history that view last saw. Most nodes never call `compute`, so
//! this costs in proportion to the network's uses, not to the nodes (journal "Network
//! inference").
//!
//! The rest of the network (clipped ReLU, the 3x3 mixing convolution, pooling, value
//! and policy heads) is recomputed over the whole board when `compute` is called: this
//! first version keeps no incremental convolution. Nothing allocates after `new`.

use super::features::{shape_index, DIR_STEPS, REACH};
use super::model::D;
use super::quant::{add_row, sub_row, QuantModel, QuantScratch, OUT_SCALE};
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

#[derive(Clone)]
pub struct NnEval {
    model: &'static QuantModel,
    width: usize,
    height: usize,
    /// Per colour to move (`Color::idx`), per square (row-major): the four shapes.
    shapes: [Vec<[u16; 4]>; 2],
    /// Per colour to move, per square: the accumulators.
    acc: [Vec<[i16; D]>; 2],
    /// Per colour to move, per square: whether it was empty when that view last synced.
    empty: [Vec<bool>; 2],
    /// Per colour to move: the board's history (square, stone) when that view last synced.
    seen: [Vec<(Move, Cell)>; 2],
    scratch: QuantScratch,
}

impl NnEval {
    /// Accumulators for `board`. Later changes to the board must come through
    /// `Board::make`, `undo` or `place` (its history); after anything else, `refresh`.
    pub fn new(model: &'static QuantModel, board: &Board) -> NnEval {
        let n = board.width() * board.height();
        let mut e = NnEval {
            model,
            width: board.width(),
            height: board.height(),
            shapes: [vec![[0; 4]; n], vec![[0; 4]; n]],
            acc: [vec![[0; D]; n], vec![[0; D]; n]],
            empty: [vec![false; n], vec![false; n]],
            seen: [Vec::with_capacity(CELLS), Vec::with_capacity(CELLS)],
            scratch: QuantScratch::new(),
        };
        e.refresh(board);
        e.scratch.policy.resize(n, 0);
        e
    }

    pub fn model(&self) -> &'static QuantModel {
        self.model
    }

    /// Recomputes every square of both views from the board.
    pub fn refresh(&mut self, board: &Board) {
        assert_eq!((board.width(), board.height()), (self.width, self.height));
        for y in 0..self.height {
            for x in 0..self.width {
                let m = Move::from_xy(x, y);
                let i = y * self.width + x;
                for side in [Color::Black, Color::White] {
                    let s: [u16; 4] = std::array::from_fn(|d| shape_index(board, m, d, side));
                    self.shapes[side.idx()][i] = s;
                    self.acc[side.idx()][i] = self.model.accumulator(&s);
                    self.empty[side.idx()][i] = board.cell(m) == Cell::Empty;
                }
            }
        }
        for v in 0..2 {
            self.seen[v].clear();
            self.seen[v].extend(board.history().iter().map(|&m| (m, board.cell(m))));
        }
    }

    /// Brings `side`'s view up to date with the board: every stone placed or taken off
    /// since that view last synced (the two histories after their common start).
    pub fn sync(&mut self, board: &Board, side: Color) {
        let v = side.idx();
        let history = board.history();
        let common = self.seen[v]
            .iter()
            .zip(history)
            .take_while(|&(&(a, cell), &b)| a == b && board.cell(b) == cell)
            .count();
        for k in common..self.seen[v].len() {
            let m = self.seen[v][k].0;
            self.update_view(board, m, side);
        }
        self.seen[v].truncate(common);
        for &m in &history[common..] {
            self.update_view(board, m, side);
            self.seen[v].push((m, board.cell(m)));
        }
    }

    /// `side`'s view after a stone was placed on or taken off `m`.
    #[inline]
    fn update_view(&mut self, board: &Board, m: Move, side: Color) {
        let (mx, my) = (m.x() as i32, m.y() as i32);
        let (w, h) = (self.width as i32, self.height as i32);
        let v = side.idx();
        self.empty[v][m.y() * self.width + m.x()] = board.cell(m) == Cell::Empty;
        for (dir, &(dx, dy)) in DIR_STEPS.iter().enumerate() {
            for off in -(REACH as i32)..=REACH as i32 {
                let (x, y) = (mx + off * dx, my + off * dy);
                if x < 0 || y < 0 || x >= w || y >= h {
                    continue;
                }
                let sq = Move::from_xy(x as usize, y as usize);
                let i = (y * w + x) as usize;
                let new = shape_index(board, sq, dir, side);
                let old = &mut self.shapes[v][i][dir];
                if new != *old {
                    let acc = &mut self.acc[v][i];
                    sub_row(acc, self.model.row(*old));
                    add_row(acc, self.model.row(new));
                    *old = new;
                }
            }
        }
    }

    /// The accumulators for `side` to move, row-major, brought up to date.
    pub fn accumulators(&mut self, board: &Board, side: Color) -> &[[i16; D]] {
        self.sync(board, side);
        &self.acc[side.idx()]
    }

    /// Runs the rest of the network for the board's side to move: returns the value
    /// logits (win, draw, loss at `OUT_SCALE`); `policy` reads the policy after it.
    pub fn compute(&mut self, board: &Board) -> [i32; 3] {
        let side = board.side_to_move();
        self.sync(board, side);
        self.model.forward_from_acc(
            self.width,
            self.height,
            &self.acc[side.idx()],
            &self.empty[side.idx()],
            &mut self.scratch,
        )
    }

    /// The value in engine units for the side to move (runs `compute`).
    pub fn score(&mut self, board: &Board) -> i32 {
        score_of(self.compute(board))
    }

    /// Policy logits of the last `compute`, row-major; `i32::MIN` on occupied squares.
    pub fn policy(&self) -> &[i32] {
        &self.scratch.policy
    }

    /// The last `compute`'s policy logit at `m`.
    #[inline]
    pub fn policy_at(&self, m: Move) -> i32 {
        self.scratch.policy[m.y() * self.width + m.x()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::rng::SplitMix64;
    use crate::eval::nn::model::{Model, Scratch};
    use crate::eval::nn::quant;
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
                let v = inc.compute(&board);
                s.load_board(&board);
                let want = model.forward(&s, &mut qs);
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
    fn avx2_mixing_equals_portable_mixing() {
        if !quant::has_avx2() {
            return;
        }
        let model = random_model(8);
        let mut rng = SplitMix64::new(9);
        let (w, h) = (20, 20);
        let hpad: Vec<[i16; D]> = (0..(w + 2) * (h + 2))
            .map(|_| std::array::from_fn(|_| rng.below(quant::ONE as u64 + 1) as i16))
            .collect();
        let (mut a, mut b) = (vec![[0i16; D]; w * h], vec![[0i16; D]; w * h]);
        quant::mix_portable(&model.conv_w, &model.conv_b, w, h, &hpad, &mut a);
        // SAFETY: AVX2 checked above.
        unsafe { quant::mix_avx2(&model.conv_w, &model.conv_b, w, h, &hpad, &mut b) };
        assert_eq!(a, b);
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
