//! Match statistics: W/L/D, game-pair (pentanomial) counts, Elo with a 95% error bar.
//!
//! Scores are always from engine A's point of view. Elo uses the logistic model
//! (`score = 1 / (1 + 10^(-elo/400))`), like cutechess and fishtest.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Outcome of one game for engine A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    /// Points for A: 1, 0 or 1/2, counted in half points to stay exact.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Loss => 0,
            Outcome::Draw => 1,
        }
    }
}

/// Which variance the error bar and the SPRT use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Each game is one sample: W, D, L.
    Trinomial,
    /// Each colour-swapped game pair is one sample: 0, 1/2, 1, 3/2 or 2 points.
    /// Cancels opening and colour bias, so its error bar is honest with openings.
    Pentanomial,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        }
    }
}

/// Running totals for a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// `pairs[k]`: finished game pairs in which A scored `k` half points (0..=4).
    pub pairs: [u32; 5],
}

impl Tally {
    pub fn add_game(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.pairs[(first.half_points() + second.half_points()) as usize] += 1;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    pub fn pair_count(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// A's score as a fraction of the points played, or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Samples for `model` as `(value in [0, 1], count)`.
    pub fn samples(&self, model: Model) -> Vec<(f64, f64)> {
        match model {
            Model::Trinomial => vec![
                (1.0, self.wins as f64),
                (0.5, self.draws as f64),
                (0.0, self.losses as f64),
            ],
            Model::Pentanomial => (0..5)
                .map(|k| (k as f64 / 4.0, self.pairs[k] as f64))
                .collect(),
        }
    }
}

/// Mean, per-sample variance and sample count of a distribution of scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub mean: f64,
    pub variance: f64,
    pub n: f64,
}

pub fn moments(samples: &[(f64, f64)]) -> Option<Moments> {
    let n: f64 = samples.iter().map(|&(_, c)| c).sum();
    if n == 0.0 {
        return None;
    }
    let mean = samples.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
    let variance = samples
        .iter()
        .map(|&(v, c)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some(Moments { mean, variance, n })
}

/// Elo difference for an expected score; infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference and the half width of its 95% interval, in Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error95: f64,
}

/// Elo estimate under `model`; `None` without samples. The interval is taken on the
/// score scale (normal approximation, `mean ± z * sqrt(var / n)`) and mapped to Elo.
pub fn elo_estimate(tally: &Tally, model: Model) -> Option<EloEstimate> {
    let m = moments(&tally.samples(model))?;
    let half = Z95 * (m.variance / m.n).sqrt();
    let elo = elo_from_score(m.mean);
    let error95 = (elo_from_score(m.mean + half) - elo_from_score(m.mean - half)) / 2.0;
    Some(EloEstimate { elo, error95 })
}

/// Per-engine timing and forfeit counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineStats {
    pub moves: u64,
    pub total_ms: u64,
    pub max_ms: u64,
    pub timeouts: u32,
    pub illegal: u32,
    pub crashes: u32,
    /// Games ended under a match clock, their clocks left at the end summed, and the least.
    pub clocked_games: u32,
    pub clock_left_total_ms: i64,
    pub clock_left_min_ms: Option<i64>,
}

impl EngineStats {
    pub fn add_move(&mut self, ms: u64) {
        self.moves += 1;
        self.total_ms += ms;
        self.max_ms = self.max_ms.max(ms);
    }

    /// Records the match clock this engine had left when a game ended.
    pub fn add_clock_left(&mut self, ms: i64) {
        self.clocked_games += 1;
        self.clock_left_total_ms += ms;
        self.clock_left_min_ms = Some(self.clock_left_min_ms.map_or(ms, |m| m.min(ms)));
    }

    pub fn merge(&mut self, other: &EngineStats) {
        self.moves += other.moves;
        self.total_ms += other.total_ms;
        self.max_ms = self.max_ms.max(other.max_ms);
        self.timeouts += other.timeouts;
        self.illegal += other.illegal;
        self.crashes += other.crashes;
        self.clocked_games += other.clocked_games;
        self.clock_left_total_ms += other.clock_left_total_ms;
        self.clock_left_min_ms = match (self.clock_left_min_ms, other.clock_left_min_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    /// The average match clock left at the end of a game, if any game had one.
    pub fn average_clock_left_ms(&self) -> Option<f64> {
        (self.clocked_games > 0)
            .then(|| self.clock_left_total_ms as f64 / self.clocked_games as f64)
    }

    pub fn average_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_ms as f64 / self.moves as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn tally(w: u32, l: u32, d: u32) -> Tally {
        Tally {
            wins: w,
            losses: l,
            draws: d,
            ..Tally::default()
        }
    }

    #[test]
    fn clock_left_is_averaged_and_its_least_kept_across_merges() {
        let mut a = EngineStats::default();
        assert_eq!(a.average_clock_left_ms(), None);
        a.add_clock_left(1000);
        a.add_clock_left(400);
        let mut b = EngineStats::default();
        b.add_clock_left(-20);
        let mut total = EngineStats::default();
        total.merge(&a);
        assert_eq!(total.clock_left_min_ms, Some(400));
        total.merge(&b);
        total.merge(&EngineStats::default());
        assert_eq!(total.clocked_games, 3);
        assert_eq!(total.clock_left_min_ms, Some(-20));
        assert!(close(total.average_clock_left_ms().unwrap(), 1380.0 / 3.0));
    }

    #[test]
    fn elo_score_round_trip_and_known_points() {
        assert!(close(elo_from_score(0.5), 0.0));
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10()));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_estimate_matches_hand_computation() {
        // 60 W, 40 L, 100 D: score 0.55, variance 0.1225 per game.
        let t = tally(60, 40, 100);
        let m = moments(&t.samples(Model::Trinomial)).unwrap();
        assert!(close(m.mean, 0.55) && close(m.variance, 0.1225));
        let e = elo_estimate(&t, Model::Trinomial).unwrap();
        assert!(close(e.elo, 34.860_070_287_56), "{e:?}");
        assert!(close(e.error95, 34.159_268_843_60), "{e:?}");
    }

    #[test]
    fn pentanomial_estimate_matches_hand_computation() {
        let t = Tally {
            pairs: [5, 20, 40, 25, 10],
            ..Tally::default()
        };
        let m = moments(&t.samples(Model::Pentanomial)).unwrap();
        assert!(close(m.mean, 0.5375) && close(m.variance, 0.064_218_75));
        let e = elo_estimate(&t, Model::Pentanomial).unwrap();
        assert!(close(e.elo, 26.106_692_605_04), "{e:?}");
        assert!(close(e.error95, 34.826_425_303_96), "{e:?}");
    }

    #[test]
    fn pairs_are_counted_by_total_points() {
        let mut t = Tally::default();
        t.add_pair(Outcome::Win, Outcome::Draw);
        t.add_pair(Outcome::Loss, Outcome::Win);
        t.add_pair(Outcome::Win, Outcome::Loss);
        assert_eq!(t.pairs, [0, 0, 2, 1, 0]);
        assert_eq!(t.pair_count(), 3);
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(elo_estimate(&Tally::default(), Model::Trinomial), None);
        assert_eq!(Tally::default().score(), None);
    }
}
