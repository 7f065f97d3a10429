//! `fivefold-data probe`: the classical ordering and evaluation against the network's on
//! labelled positions (`fivefold::search::probe`), as a plain-text report.

use fivefold::data::format::{GameRecord, Outcome, NO_MOVE};
use fivefold::eval::nn::QuantModel;
use fivefold::game::{Board, Move, Rule};
use fivefold::search::probe::{evals, ranks, Ranks, ORDERINGS};
use std::fmt::Write;

#[derive(Default)]
struct Tally {
    positions: usize,
    missing: usize,
    top: [[usize; 3]; 4],
    rank_sum: [f64; 4],
}

impl Tally {
    fn add(&mut self, r: Option<&Ranks>) {
        self.positions += 1;
        let Some(r) = r else {
            self.missing += 1;
            return;
        };
        for (k, &rank) in r.of.iter().enumerate() {
            for (j, limit) in [1.0, 3.0, 5.0].into_iter().enumerate() {
                self.top[k][j] += (rank <= limit) as usize;
            }
            self.rank_sum[k] += rank as f64;
        }
    }

    fn write(&self, title: &str, out: &mut String) {
        let found = (self.positions - self.missing).max(1) as f64;
        let n = self.positions.max(1) as f64;
        let _ = writeln!(
            out,
            "{title}: {} positions, best move not generated in {}",
            self.positions, self.missing
        );
        let _ = writeln!(out, "  top-1   top-3   top-5   mean rank  ordering");
        for (k, name) in ORDERINGS.iter().enumerate() {
            let t = self.top[k].map(|c| 100.0 * c as f64 / n);
            let _ = writeln!(
                out,
                "  {:5.1}%  {:5.1}%  {:5.1}%  {:8.2}   {name}",
                t[0],
                t[1],
                t[2],
                self.rank_sum[k] / found
            );
        }
    }
}

/// Result for the side to move: 1 won, 0.5 drawn, 0 lost.
fn result_for(outcome: Outcome, black_to_move: bool) -> f64 {
    match (outcome, black_to_move) {
        (Outcome::Draw, _) => 0.5,
        (Outcome::BlackWon, true) | (Outcome::WhiteWon, false) => 1.0,
        _ => 0.0,
    }
}

/// Mean cross-entropy of `results` predicted by sigmoid(eval / scale).
fn log_loss(points: &[(i32, f64)], scale: f64) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|&(e, r)| {
            let p = (1.0 / (1.0 + (-(e as f64) / scale).exp())).clamp(1e-6, 1.0 - 1e-6);
            -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
        })
        .sum();
    sum / points.len().max(1) as f64
}

/// The scale (of a grid from 50 to 3200) that fits `points` best, with its loss.
fn best_scale(points: &[(i32, f64)]) -> (f64, f64) {
    (0..=60)
        .map(|i| 50.0 * 2f64.powf(i as f64 / 10.0))
        .map(|s| (s, log_loss(points, s)))
        .fold((0.0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a })
}

pub fn report(games: &[GameRecord], model: &'static QuantModel) -> String {
    let (mut all, mut quiet) = (Tally::default(), Tally::default());
    let (mut classical, mut network, mut blend) = (Vec::new(), Vec::new(), Vec::new());
    for g in games
        .iter()
        .filter(|g| Rule::from_bits(g.rule as i64) == Rule::Freestyle)
    {
        let mut board = Board::new(g.width as usize, g.height as usize, Rule::Freestyle);
        for (i, ply) in g.plies.iter().enumerate() {
            if i >= g.opening as usize && ply.is_labelled() && ply.best != NO_MOVE {
                let (x, y) = g.xy(ply.best);
                let r = ranks(&board, model, Move::from_xy(x, y));
                all.add(r.as_ref());
                if r.as_ref().is_none_or(|r| r.quiet_node) {
                    quiet.add(r.as_ref());
                }
                let e = evals(&board, model);
                let black = board.side_to_move() == fivefold::game::Color::Black;
                let result = result_for(g.outcome, black);
                classical.push((e.classical, result));
                network.push((e.network, result));
                blend.push((e.blend, result));
            }
            let (x, y) = g.xy(ply.mv);
            board.make(Move::from_xy(x, y));
        }
    }
    let mut out = String::new();
    all.write("All positions", &mut out);
    quiet.write("Nodes with no threat to answer", &mut out);
    let (cs, cl) = best_scale(&classical);
    let (ns, nl) = best_scale(&network);
    let _ = writeln!(
        out,
        "Game result predicted by sigmoid(eval / scale), mean log loss:"
    );
    let _ = writeln!(
        out,
        "  classical evaluation: {cl:.4} at its best scale {cs:.0}"
    );
    let _ = writeln!(
        out,
        "  network value:        {nl:.4} at its best scale {ns:.0}"
    );
    let _ = writeln!(
        out,
        "  network value:        {:.4} at its own scale 400",
        log_loss(&network, 400.0)
    );
    let (bs, bl) = best_scale(&blend);
    let _ = writeln!(
        out,
        "  the search's blend:   {bl:.4} at its best scale {bs:.0}, {:.4} at 919",
        log_loss(&blend, 919.0)
    );
    out
}
