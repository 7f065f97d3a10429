//! Sequential probability ratio test on match results (GSPRT, as in fishtest).
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1` (logistic Elo). The log-likelihood
//! ratio uses the normal approximation of the generalised SPRT (Michel Van den Bergh):
//! `LLR = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)`, where `mean` and `var` are the
//! sample mean and per-sample variance of the scores (per game or per game pair).

use crate::stats::{moments, score_from_elo, Model, Tally};
use anyhow::{bail, Context, Result};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl SprtParams {
    /// Parses `elo0,elo1[,alpha,beta]`; alpha and beta default to 0.05.
    pub fn parse(text: &str) -> Result<SprtParams> {
        let nums: Vec<f64> = text
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .with_context(|| format!("bad --sprt value `{text}`"))?;
        let (elo0, elo1, alpha, beta) = match nums[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => bail!("--sprt wants elo0,elo1 or elo0,elo1,alpha,beta, got `{text}`"),
        };
        if elo1 <= elo0 {
            bail!("--sprt needs elo0 < elo1");
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            bail!("--sprt alpha and beta must lie in (0, 0.5)");
        }
        Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Accept H0 at or below this LLR.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Accept H1 at or above this LLR.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper_bound() {
            Verdict::AcceptH1
        } else if llr <= self.lower_bound() {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

/// Pseudo-count for outcome classes not seen yet (half a game, or half a pair). Without it
/// a one-sided start (all wins so far) has zero variance and an infinite LLR, so a single
/// game would "decide"; with it such a start needs a run of results, and the prior's weight
/// vanishes as the sample grows. Classes already seen are used as counted.
const EMPTY_CLASS_PRIOR: f64 = 0.5;

/// Log-likelihood ratio of H1 over H0 for the tally under `model`; zero before any game.
pub fn llr(tally: &Tally, model: Model, p: &SprtParams) -> f64 {
    let raw = tally.samples(model);
    if raw.iter().all(|&(_, c)| c == 0.0) {
        return 0.0;
    }
    let samples: Vec<(f64, f64)> = raw
        .into_iter()
        .map(|(v, c)| (v, if c == 0.0 { EMPTY_CLASS_PRIOR } else { c }))
        .collect();
    let Some(m) = moments(&samples) else {
        return 0.0;
    };
    let (s0, s1) = (score_from_elo(p.elo0), score_from_elo(p.elo1));
    m.n * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn params(e0: f64, e1: f64) -> SprtParams {
        SprtParams::parse(&format!("{e0},{e1}")).unwrap()
    }

    #[test]
    fn parse_defaults_and_rejects_nonsense() {
        let p = SprtParams::parse("0,10").unwrap();
        assert_eq!((p.alpha, p.beta), (0.05, 0.05));
        let p = SprtParams::parse("-5, 5, 0.1, 0.2").unwrap();
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (-5.0, 5.0, 0.1, 0.2));
        assert!(SprtParams::parse("10,0").is_err());
        assert!(SprtParams::parse("0").is_err());
        assert!(SprtParams::parse("0,x").is_err());
        assert!(SprtParams::parse("0,5,0.7,0.05").is_err());
    }

    #[test]
    fn bounds_for_five_percent() {
        let p = params(0.0, 10.0);
        assert!(close(p.lower_bound(), -2.944_438_979_17));
        assert!(close(p.upper_bound(), 2.944_438_979_17));
    }

    #[test]
    fn llr_on_known_trinomial_counts() {
        let t = Tally {
            wins: 60,
            losses: 40,
            draws: 100,
            ..Tally::default()
        };
        let v = llr(&t, Model::Trinomial, &params(0.0, 10.0));
        assert!(close(v, 1.005_491_712_96), "{v}");
        let swapped = Tally {
            wins: 40,
            losses: 60,
            ..t
        };
        let v = llr(&swapped, Model::Trinomial, &params(0.0, 10.0));
        assert!(close(v, -1.343_436_314_14), "{v}");
    }

    #[test]
    fn llr_on_known_pentanomial_counts() {
        let t = Tally {
            pairs: [5, 20, 40, 25, 10],
            ..Tally::default()
        };
        let v = llr(&t, Model::Pentanomial, &params(0.0, 10.0));
        assert!(close(v, 0.678_966_613_51), "{v}");
    }

    #[test]
    fn verdicts_follow_bounds_and_one_sided_results_decide() {
        let p = params(0.0, 10.0);
        assert_eq!(p.verdict(3.0), Verdict::AcceptH1);
        assert_eq!(p.verdict(-3.0), Verdict::AcceptH0);
        assert_eq!(p.verdict(0.5), Verdict::Continue);
        assert_eq!(llr(&Tally::default(), Model::Trinomial, &p), 0.0);
        // Only draws: score exactly 0.5 with a tiny variance favours H0 once there are many.
        let draws = Tally {
            draws: 500,
            ..Tally::default()
        };
        assert_eq!(
            p.verdict(llr(&draws, Model::Trinomial, &p)),
            Verdict::AcceptH0
        );
        // One win must not decide anything; fifty won pairs must accept H1.
        let one = Tally {
            wins: 1,
            ..Tally::default()
        };
        assert_eq!(
            p.verdict(llr(&one, Model::Trinomial, &p)),
            Verdict::Continue
        );
        let few = Tally {
            pairs: [0, 0, 0, 0, 5],
            ..Tally::default()
        };
        assert_eq!(
            p.verdict(llr(&few, Model::Pentanomial, &p)),
            Verdict::Continue
        );
        let wins = Tally {
            pairs: [0, 0, 0, 0, 50],
            ..Tally::default()
        };
        assert_eq!(
            p.verdict(llr(&wins, Model::Pentanomial, &p)),
            Verdict::AcceptH1
        );
    }

    #[test]
    fn strong_engine_reaches_h1() {
        // 150 wins, 50 losses: far above +10 Elo, so H1 must be accepted.
        let t = Tally {
            wins: 150,
            losses: 50,
            ..Tally::default()
        };
        let p = params(0.0, 10.0);
        assert_eq!(p.verdict(llr(&t, Model::Trinomial, &p)), Verdict::AcceptH1);
    }
}
