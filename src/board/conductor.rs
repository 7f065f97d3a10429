//! The conductor thread: whenever an engine is to move (or a hint is wanted) it asks the
//! brain over the protocol, with the arena's deadlines and forfeit rules, and applies the
//! answer if the game has not changed meanwhile. Brains stay up across moves; undo goes
//! to them as `TAKEBACK`, anything else as a fresh `START` and `BOARD`.

use super::table::{EngineDef, Seat, Table};
use crate::driver::{parse_move, Brain, Output};
use crate::game::{Color, Move};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often the conductor looks for work and a thinking brain checks for a stale game.
const POLL: Duration = Duration::from_millis(30);
/// Lateness forgiven on top of the time limit, as Gomocup does.
pub const TOLERANCE_MS: u64 = 1000;
/// Time for a brain to start and answer START or TAKEBACK.
const START_MS: u64 = 10_000;
/// Time per move of the hint search.
const HINT_MS: u64 = 1000;

pub type Shared = Arc<Mutex<Table>>;

pub fn lock(shared: &Shared) -> MutexGuard<'_, Table> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the conductor was asked to do, with a copy of everything it needs.
#[derive(Clone, Debug)]
struct Job {
    gen: u64,
    game_id: u64,
    side: Color,
    engine: EngineDef,
    id: usize,
    level: u8,
    size: usize,
    rule_bits: i64,
    moves: Vec<(usize, usize)>,
    turn_ms: u64,
    match_ms: u64,
    time_left: i64,
    hint: bool,
}

/// A running brain in one seat and the stones it knows of.
struct Seated {
    id: usize,
    level: u8,
    game_id: u64,
    brain: Brain,
    known: Vec<(usize, usize)>,
    /// Nothing sent since START: a BOARD may follow directly.
    fresh: bool,
}

enum Reply {
    Move(String),
    Forfeit(String),
    Aborted,
}

pub fn run(shared: Shared) {
    let mut seats: [Option<Seated>; 2] = [None, None];
    loop {
        std::thread::sleep(POLL);
        let job = {
            let mut t = lock(&shared);
            t.check_flag();
            retire_stale(&mut seats, &t);
            next_job(&mut t)
        };
        if let Some(job) = job {
            if job.hint {
                hint(&shared, &job);
            } else {
                think(&shared, &job, &mut seats[job.side.idx()]);
            }
            lock(&shared).thinking = None;
        }
    }
}

/// Brains whose seat changed or whose game ended go.
fn retire_stale(seats: &mut [Option<Seated>; 2], t: &Table) {
    for c in [Color::Black, Color::White] {
        let keep = seats[c.idx()].as_ref().is_some_and(|s| {
            s.game_id == t.game_id
                && t.seats[c.idx()]
                    == Seat::Engine {
                        id: s.id,
                        level: s.level,
                    }
        });
        if !keep {
            seats[c.idx()] = None;
        }
    }
}

fn next_job(t: &mut Table) -> Option<Job> {
    if t.game.is_over() || t.paused {
        return None;
    }
    let side = t.game.side();
    let (id, level, hint) = match t.seats[side.idx()] {
        Seat::Engine { id, level } => (id, level, false),
        Seat::Human if t.hint_wanted => {
            t.hint_wanted = false;
            let id = t.engines.iter().position(|e| e.builtin).unwrap_or(0);
            (id, crate::levels::FULL, true)
        }
        Seat::Human => return None,
    };
    let engine = t.engines.get(id)?.clone();
    t.thinking = Some(side);
    Some(Job {
        gen: t.gen,
        game_id: t.game_id,
        side,
        engine,
        id,
        level,
        size: t.game.size(),
        rule_bits: t.game.rule().bits(),
        moves: t.game.moves(),
        turn_ms: if hint { HINT_MS } else { t.clock.turn_ms },
        match_ms: if hint { 0 } else { t.clock.match_ms },
        time_left: t.clock.left(side, true),
        hint,
    })
}

fn stale(shared: &Shared, job: &Job) -> bool {
    lock(shared).gen != job.gen
}

/// One engine move: bring the brain up to date, ask, apply or forfeit.
fn think(shared: &Shared, job: &Job, seat: &mut Option<Seated>) {
    let reply = match ask(shared, job, seat) {
        Ok(reply) => reply,
        Err(why) => Reply::Forfeit(why),
    };
    let mut t = lock(shared);
    if t.gen != job.gen {
        return;
    }
    match reply {
        Reply::Aborted => {}
        Reply::Forfeit(why) => {
            *seat = None;
            t.forfeit(job.side, &why);
        }
        Reply::Move(line) => match engine_move(&t, &line) {
            Ok(m) => {
                if let Some(s) = seat.as_mut() {
                    s.known.push((m.x(), m.y()));
                }
                t.play(m);
            }
            Err(why) => {
                *seat = None;
                t.forfeit(job.side, &format!("illegal move ({why})"));
            }
        },
    }
}

/// Checks a reply the way the arena does: exactly `x,y`, on the board, empty, and in renju
/// not a foul by black.
fn engine_move(t: &Table, line: &str) -> Result<Move, String> {
    let (x, y) = parse_move(line).ok_or_else(|| format!("`{}` is not x,y", short(line)))?;
    t.game.check(x, y)
}

fn ask(shared: &Shared, job: &Job, seat: &mut Option<Seated>) -> Result<Reply, String> {
    if seat.is_none() {
        *seat = Some(start(job)?);
    }
    let s = seat.as_mut().ok_or("no brain")?;
    let mut lines = sync(s, job)?;
    lines.insert(0, format!("INFO time_left {}", time_left(job)));
    for line in &lines {
        send(&mut s.brain, line)?;
    }
    s.known = job.moves.clone();
    s.fresh = false;
    let reply = read_move(shared, job, &mut s.brain);
    if matches!(reply, Reply::Aborted) {
        *seat = None;
    }
    Ok(reply)
}

fn time_left(job: &Job) -> i64 {
    if job.match_ms > 0 {
        job.time_left.max(0)
    } else {
        2_147_483_647
    }
}

/// Starts the brain: START, its OK, then the INFO block (and the level for Fivefold).
fn start(job: &Job) -> Result<Seated, String> {
    let mut brain =
        Brain::spawn(&job.engine.cmd, None).map_err(|e| format!("crash (cannot start: {e:#})"))?;
    send_start(&mut brain, job)?;
    Ok(Seated {
        id: job.id,
        level: job.level,
        game_id: job.game_id,
        brain,
        known: Vec::new(),
        fresh: true,
    })
}

fn send_start(brain: &mut Brain, job: &Job) -> Result<(), String> {
    send(brain, &format!("START {}", job.size))?;
    await_ok(brain, "START")?;
    for line in info_lines(job) {
        send(brain, &line)?;
    }
    Ok(())
}

fn info_lines(job: &Job) -> Vec<String> {
    let mut lines = vec![format!("INFO rule {}", job.rule_bits)];
    if job.turn_ms > 0 {
        lines.push(format!("INFO timeout_turn {}", job.turn_ms));
    }
    lines.push(format!("INFO timeout_match {}", job.match_ms));
    lines.push("INFO max_memory 367001600".to_string());
    lines.push("INFO game_type 0".to_string());
    if job.engine.builtin {
        lines.extend(crate::levels::info_lines(job.level));
    }
    lines
}

/// The lines that bring the brain from the stones it knows to the game's: TAKEBACK for
/// stones taken back, then TURN for one new stone, BEGIN on an empty board, or else a
/// fresh START and the whole position as BOARD.
fn sync(s: &mut Seated, job: &Job) -> Result<Vec<String>, String> {
    let common = s
        .known
        .iter()
        .zip(&job.moves)
        .take_while(|(a, b)| a == b)
        .count();
    let mut in_step = true;
    while s.known.len() > common && in_step {
        let Some(&(x, y)) = s.known.last() else { break };
        send(&mut s.brain, &format!("TAKEBACK {x},{y}"))?;
        in_step = await_ok(&mut s.brain, "TAKEBACK").is_ok();
        if in_step {
            s.known.pop();
        }
    }
    let new = &job.moves[s.known.len().min(job.moves.len())..];
    // The brain's board is `known`: one new stone is a TURN (on an empty board too, as
    // Piskvork sends the first reply).
    if in_step && new.len() == 1 {
        return Ok(vec![format!("TURN {},{}", new[0].0, new[0].1)]);
    }
    if in_step && job.moves.is_empty() && s.known.is_empty() {
        return Ok(vec!["BEGIN".to_string()]);
    }
    if !(in_step && s.fresh && s.known.is_empty()) {
        send_start(&mut s.brain, job)?;
    }
    Ok(position_lines(&job.moves))
}

/// BEGIN on an empty board, else BOARD with field 1 for the side to move's stones.
fn position_lines(moves: &[(usize, usize)]) -> Vec<String> {
    if moves.is_empty() {
        return vec!["BEGIN".to_string()];
    }
    let mut lines = vec!["BOARD".to_string()];
    let n = moves.len();
    for (i, (x, y)) in moves.iter().enumerate() {
        // The last stone is the opponent's; stones alternate back from it.
        let own = (n - i).is_multiple_of(2);
        let field = if own { 1 } else { 2 };
        lines.push(format!("{x},{y},{field}"));
    }
    lines.push("DONE".to_string());
    lines
}

fn send(brain: &mut Brain, line: &str) -> Result<(), String> {
    log::debug!("to brain: {line}");
    brain
        .send(line)
        .map_err(|_| "crash (input pipe closed)".to_string())
}

/// Waits for `OK`; MESSAGE and DEBUG lines may come first.
fn await_ok(brain: &mut Brain, after: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_millis(START_MS);
    loop {
        match brain.recv_until(deadline) {
            Some(Output::Line(l)) if l.eq_ignore_ascii_case("OK") => return Ok(()),
            Some(Output::Line(l)) if is_chatter(&l) => {}
            Some(Output::Line(l)) => {
                return Err(format!("crash ({after} answered `{}`)", short(&l)))
            }
            Some(Output::Closed) => return Err("crash (output closed)".to_string()),
            None => return Err(format!("timeout (no OK after {after})")),
        }
    }
}

fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

fn is_chatter(line: &str) -> bool {
    matches!(first_word(line).as_str(), "MESSAGE" | "DEBUG")
}

/// Reads the move, passing MESSAGE lines to the analysis panel, until the deadline
/// (`min(turn, time left)` plus the tolerance) or until the game changes.
fn read_move(shared: &Shared, job: &Job, brain: &mut Brain) -> Reply {
    let limit = move_limit(job);
    let deadline = Instant::now() + Duration::from_millis(limit + TOLERANCE_MS);
    loop {
        if stale(shared, job) {
            return Reply::Aborted;
        }
        let slice = deadline.min(Instant::now() + POLL);
        match brain.recv_until(slice) {
            Some(Output::Line(l)) => match first_word(&l).as_str() {
                "MESSAGE" => report(shared, job, &l),
                "DEBUG" | "UNKNOWN" | "ERROR" => {}
                "SUGGEST" => return Reply::Forfeit("illegal move (SUGGEST)".to_string()),
                _ => return Reply::Move(l),
            },
            Some(Output::Closed) => return Reply::Forfeit("crash (output closed)".to_string()),
            None if Instant::now() >= deadline => {
                return Reply::Forfeit(format!(
                    "timeout (no move within {} ms)",
                    limit + TOLERANCE_MS
                ))
            }
            None => {}
        }
    }
}

/// The time allowed for this move before the tolerance, in ms.
fn move_limit(job: &Job) -> u64 {
    let mut ms: u64 = 24 * 3600 * 1000;
    if job.turn_ms > 0 {
        ms = ms.min(job.turn_ms);
    }
    if job.match_ms > 0 {
        ms = ms.min(job.time_left.max(0) as u64);
    }
    ms
}

fn report(shared: &Shared, job: &Job, line: &str) {
    let mut t = lock(shared);
    if t.gen == job.gen {
        let text = line.split_once(' ').map_or("", |(_, rest)| rest);
        t.analysis = Some(super::analysis::parse(
            text,
            &job.engine.name,
            job.side,
            job.hint,
        ));
    }
}

/// A hint: a fresh full-strength brain searches the position for a second.
fn hint(shared: &Shared, job: &Job) {
    let found = (|| -> Result<Option<(usize, usize)>, String> {
        let mut brain = Brain::spawn(&job.engine.cmd, None).map_err(|e| format!("{e:#}"))?;
        send_start(&mut brain, job)?;
        for line in position_lines(&job.moves) {
            send(&mut brain, &line)?;
        }
        match read_move(shared, job, &mut brain) {
            Reply::Move(l) => Ok(parse_move(&l).map(|(x, y)| (x as usize, y as usize))),
            _ => Ok(None),
        }
    })();
    let mut t = lock(shared);
    if t.gen == job.gen {
        t.hint = found.ok().flatten();
    }
}

fn short(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_lines_give_field_1_to_the_side_to_move() {
        assert_eq!(position_lines(&[]), ["BEGIN"]);
        assert_eq!(
            position_lines(&[(7, 7), (8, 8), (9, 9)]),
            ["BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE"]
        );
    }
}
