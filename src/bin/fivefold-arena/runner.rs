//! Runs a whole match: worker threads play games, the calling thread tallies results,
//! writes records, drives the progress bar and stops early on an SPRT verdict.

use crate::game::{play_game, GameRecord, GameResult, GameRules, GameSpec};
use crate::openings::Opening;
use crate::player::{EngineSpec, Player};
use crate::record;
use crate::sprt::{llr, SprtParams, Verdict};
use crate::stats::{EngineStats, Model, Outcome, Tally};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

pub struct MatchSetup {
    /// Engine A, then engine B. Scores are from A's point of view.
    pub engines: [EngineSpec; 2],
    pub rules: GameRules,
    pub games: usize,
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    pub sprt: Option<SprtParams>,
    /// Use game results even when game pairs are available.
    pub force_trinomial: bool,
    /// Folder for `games.txt` and `psq/`; nothing is written without it.
    pub out_dir: Option<PathBuf>,
    pub write_psq: bool,
    pub log_dir: Option<PathBuf>,
    pub progress: bool,
    /// Print one line per finished game.
    pub per_game_lines: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub tally: Tally,
    /// Engine A, engine B.
    pub stats: [EngineStats; 2],
    pub black_wins: u32,
    pub white_wins: u32,
    pub draws: u32,
    /// LLR and verdict at the last counted game, with SPRT on.
    pub sprt: Option<(f64, Verdict)>,
    pub model: Option<Model>,
    /// Reasons of every game, by index, for tests and the record.
    pub reasons: Vec<(usize, GameResult, String)>,
    pub stopped_early: bool,
}

impl MatchSetup {
    /// Game `i`: opening `i / 2` of the suite (cycling), colours swapped within a pair.
    pub fn game_spec(&self, i: usize) -> GameSpec {
        let pair = i / 2;
        let opening = (!self.openings.is_empty()).then(|| {
            let k = pair % self.openings.len();
            (k, self.openings[k].clone())
        });
        GameSpec {
            index: i,
            opening,
            a_is_black: i.is_multiple_of(2),
        }
    }

    /// Model for error bars and SPRT: pairs unless told otherwise or none are complete.
    pub fn model_for(&self, tally: &Tally) -> Model {
        if self.force_trinomial || tally.pair_count() == 0 {
            Model::Trinomial
        } else {
            Model::Pentanomial
        }
    }
}

/// Plays the match. `stop` is raised by Ctrl-C (and by this function on an SPRT verdict);
/// workers then abandon their games and kill their engines.
pub fn run_match(setup: &MatchSetup, stop: &AtomicBool) -> Result<Summary> {
    prepare_dirs(setup)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let bar = progress_bar(setup);
    let mut summary = Summary::default();
    std::thread::scope(|scope| -> Result<()> {
        for w in 0..setup.concurrency.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || worker(w, setup, next, stop, tx));
        }
        drop(tx);
        let mut pending: HashMap<usize, Outcome> = HashMap::new();
        for rec in rx {
            if summary.sprt.is_some_and(|(_, v)| v != Verdict::Continue) {
                continue;
            }
            if let Err(e) = write_record(setup, &rec) {
                // Let the workers wind down (and kill their engines) before reporting.
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            count(setup, &mut summary, &mut pending, &rec);
            report(setup, &bar, &summary, &rec);
            if summary.sprt.is_some_and(|(_, v)| v != Verdict::Continue) {
                summary.stopped_early = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    summary.reasons.sort_by_key(|r| r.0);
    Ok(summary)
}

fn prepare_dirs(setup: &MatchSetup) -> Result<()> {
    if let Some(out) = &setup.out_dir {
        std::fs::create_dir_all(out)?;
        if setup.write_psq {
            std::fs::create_dir_all(out.join("psq"))?;
        }
    }
    if let Some(dir) = &setup.log_dir {
        std::fs::create_dir_all(dir)?;
    }
    Ok(())
}

/// One worker: its own pair of players, games taken from a shared counter.
fn worker(
    id: usize,
    setup: &MatchSetup,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<GameRecord>,
) {
    let mut a = Player::new(setup.engines[0].clone(), id);
    let mut b = Player::new(setup.engines[1].clone(), id);
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= setup.games {
            break;
        }
        let spec = setup.game_spec(i);
        match play_game(&spec, &mut a, &mut b, &setup.rules, stop) {
            Some(rec) => {
                if tx.send(rec).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    let polite = !stop.load(Ordering::Relaxed);
    a.retire(polite);
    b.retire(polite);
}

fn write_record(setup: &MatchSetup, rec: &GameRecord) -> Result<()> {
    if let Some(out) = &setup.out_dir {
        record::append_game_line(&out.join("games.txt"), rec)?;
        if setup.write_psq {
            record::write_psq(&out.join("psq"), rec, setup.rules.limits.size)?;
        }
    }
    if let Some(dir) = &setup.log_dir {
        record::write_logs(dir, rec)?;
    }
    Ok(())
}

fn count(
    setup: &MatchSetup,
    s: &mut Summary,
    pending: &mut HashMap<usize, Outcome>,
    rec: &GameRecord,
) {
    let outcome = rec.outcome_for_a();
    s.tally.add_game(outcome);
    match rec.result {
        GameResult::BlackWins => s.black_wins += 1,
        GameResult::WhiteWins => s.white_wins += 1,
        GameResult::Draw => s.draws += 1,
    }
    let (sa, sb) = rec.stats_a_b();
    s.stats[0].merge(sa);
    s.stats[1].merge(sb);
    s.reasons.push((rec.index, rec.result, rec.reason.clone()));
    if let Some(other) = pending.remove(&(rec.index / 2)) {
        s.tally.add_pair(other, outcome);
    } else {
        pending.insert(rec.index / 2, outcome);
    }
    let model = setup.model_for(&s.tally);
    s.model = Some(model);
    if let Some(p) = &setup.sprt {
        let v = llr(&s.tally, model, p);
        s.sprt = Some((v, p.verdict(v)));
    }
}

fn progress_bar(setup: &MatchSetup) -> ProgressBar {
    if !setup.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(setup.games as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar
}

fn report(setup: &MatchSetup, bar: &ProgressBar, s: &Summary, rec: &GameRecord) {
    if setup.per_game_lines {
        let line = format!(
            "Game {} ({} vs {}): {} {{{}}}",
            rec.index + 1,
            rec.black,
            rec.white,
            rec.result.notation(),
            rec.reason
        );
        // A hidden bar swallows println, so print directly without one.
        if bar.is_hidden() {
            println!("{line}");
        } else {
            bar.println(line);
        }
    }
    let t = &s.tally;
    let mut msg = format!(
        "{} vs {}: +{} -{} ={} [{:.3}]",
        setup.engines[0].name,
        setup.engines[1].name,
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5)
    );
    if let Some((v, _)) = s.sprt {
        msg.push_str(&format!(" LLR {v:.2}"));
    }
    bar.set_message(msg);
    bar.inc(1);
}
