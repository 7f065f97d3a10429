//! The page's API: `GET /api/state` and the `POST /api/...` actions. Every action checks
//! its input completely before it changes anything, so a bad request leaves the game as
//! it was and gets `{"error": ...}` with a 4xx status.

use super::conductor::{lock, Shared};
use super::game::{color_name, rule_by_name, rule_name, Game, SIZES};
use super::http::{json_body, Reply};
use super::notation;
use super::table::{Clock, Seat, Table};
use crate::game::Color;
use serde_json::{json, Value};
use tiny_http::{Method, Request};

/// An opening suite loaded from `--openings`.
pub struct Suite {
    pub name: String,
    pub openings: Vec<Vec<(usize, usize)>>,
}

/// Longest time limit accepted, ms (a day).
const MAX_MS: u64 = 24 * 3600 * 1000;

pub fn route(req: &mut Request, shared: &Shared, suites: &[Suite]) -> Reply {
    let path = req.url().split('?').next().unwrap_or("").to_string();
    match (req.method(), path.as_str()) {
        (Method::Get, "/api/state") => Reply::json(state(&lock(shared), suites)),
        (Method::Get, "/api/psq") => psq(&lock(shared)),
        (Method::Post, p) if p.starts_with("/api/") => match json_body(req) {
            Ok(body) => action(&p["/api/".len()..], &body, shared, suites),
            Err(reply) => reply,
        },
        (_, "/api/state" | "/api/psq") => Reply::error(405, "method not allowed"),
        _ => Reply::error(404, format!("no such page: {}", super::http::short(&path))),
    }
}

fn action(name: &str, body: &Value, shared: &Shared, suites: &[Suite]) -> Reply {
    let mut t = lock(shared);
    let done = match name {
        "new" => new_game(&mut t, body, suites),
        "move" => coords(body).and_then(|(x, y)| t.human_move(x, y)),
        "undo" => t.undo(),
        "redo" => t.redo(),
        "swap" => {
            let [b, w] = t.seats;
            t.set_seats([w, b]);
            Ok(())
        }
        "seats" => seats(&t, body).map(|s| t.set_seats(s)),
        "pause" => match body.get("paused").and_then(Value::as_bool) {
            Some(p) => {
                t.set_paused(p);
                Ok(())
            }
            None => Err("`paused` must be true or false".to_string()),
        },
        "hint" => hint(&mut t),
        "load" => load(&mut t, body),
        _ => return Reply::error(404, format!("no such action: {}", super::http::short(name))),
    };
    match done {
        Ok(()) => Reply::json(state(&t, suites)),
        Err(why) => Reply::error(400, why),
    }
}

fn coords(body: &Value) -> Result<(i64, i64), String> {
    let get = |k: &str| body.get(k).and_then(Value::as_i64);
    match (get("x"), get("y")) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err("a move needs integer `x` and `y`".to_string()),
    }
}

fn hint(t: &mut Table) -> Result<(), String> {
    if t.game.is_over() || t.seats[t.game.side().idx()] != Seat::Human {
        return Err("a hint is for a person to move in a live game".to_string());
    }
    if t.engines.is_empty() {
        return Err("no engine to ask".to_string());
    }
    t.hint = None;
    t.hint_wanted = true;
    Ok(())
}

/// A seat from its page form: `human` or `engine:ID:LEVEL`.
fn parse_seat(t: &Table, v: Option<&Value>) -> Result<Seat, String> {
    let text = v.and_then(Value::as_str).ok_or("a seat must be a string")?;
    if text == "human" {
        return Ok(Seat::Human);
    }
    let bad = || format!("unknown seat `{}`", super::http::short(text));
    let mut parts = text.split(':');
    let (Some("engine"), Some(id), Some(level), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let id: usize = id.parse().map_err(|_| bad())?;
    let level: u8 = level.parse().map_err(|_| bad())?;
    let engine = t.engines.get(id).ok_or_else(bad)?;
    let level_ok = if engine.builtin {
        crate::levels::level(level).is_some()
    } else {
        level == 0
    };
    if !level_ok {
        return Err(bad());
    }
    Ok(Seat::Engine { id, level })
}

fn seats(t: &Table, body: &Value) -> Result<[Seat; 2], String> {
    Ok([
        parse_seat(t, body.get("black"))?,
        parse_seat(t, body.get("white"))?,
    ])
}

fn limit(body: &Value, key: &str, default: u64) -> Result<u64, String> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|&ms| ms <= MAX_MS)
            .ok_or_else(|| format!("`{key}` must be 0..{MAX_MS} ms")),
    }
}

fn new_game(t: &mut Table, body: &Value, suites: &[Suite]) -> Result<(), String> {
    let size = body.get("size").and_then(Value::as_u64).unwrap_or(15) as usize;
    if !SIZES.contains(&size) {
        return Err(format!("board size {size} is not in 5..22"));
    }
    let rule_text = body
        .get("rule")
        .and_then(Value::as_str)
        .unwrap_or("freestyle");
    let rule = rule_by_name(rule_text).ok_or_else(|| format!("unknown rule `{rule_text}`"))?;
    let mut seats = seats(t, body)?;
    if body.get("adapt").and_then(Value::as_bool) == Some(true) {
        adapt(t, &mut seats);
    }
    let clock = Clock::new(limit(body, "turn_ms", 2000)?, limit(body, "match_ms", 0)?);
    let moves = opening_moves(body, size, suites)?;
    let game = Game::from_moves(size, rule, &moves)?;
    t.start(game, seats, clock);
    Ok(())
}

/// "Adapt": the built-in engine's seat gets the level after the person's last result
/// (one up after a win, one down after a loss), when a person plays it.
fn adapt(t: &Table, seats: &mut [Seat; 2]) {
    for seat in seats.iter_mut() {
        if let Seat::Engine { id, level } = seat {
            if t.engines.get(*id).is_some_and(|e| e.builtin) {
                *level = t.results.adapted_level(*level);
            }
        }
    }
}

/// The stones to start from: a suite's opening, a typed position, or none.
fn opening_moves(
    body: &Value,
    size: usize,
    suites: &[Suite],
) -> Result<Vec<(usize, usize)>, String> {
    if let Some(text) = body.get("position").and_then(Value::as_str) {
        return notation::parse_position(text, size);
    }
    let Some(name) = body
        .get("suite")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return Ok(Vec::new());
    };
    let suite = suites
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| format!("no opening suite `{}`", super::http::short(name)))?;
    let index = match body.get("index").and_then(Value::as_u64) {
        Some(i) => i as usize,
        None => rand::random::<usize>() % suite.openings.len().max(1),
    };
    suite
        .openings
        .get(index)
        .cloned()
        .ok_or_else(|| format!("suite `{name}` has {} openings", suite.openings.len()))
}

/// Loads a `.psq` (its own size) or a position string (the current size), keeping the
/// seats, rule and time limits.
fn load(t: &mut Table, body: &Value) -> Result<(), String> {
    let record = if let Some(text) = body.get("psq").and_then(Value::as_str) {
        notation::parse_psq(text)?
    } else if let Some(text) = body.get("position").and_then(Value::as_str) {
        let size = t.game.size();
        notation::Record {
            size,
            moves: notation::parse_position(text, size)?,
        }
    } else {
        return Err("load needs `psq` or `position` text".to_string());
    };
    let game = Game::from_moves(record.size, t.game.rule(), &record.moves)?;
    let clock = Clock::new(t.clock.turn_ms, t.clock.match_ms);
    let seats = t.seats;
    t.start(game, seats, clock);
    Ok(())
}

fn psq(t: &Table) -> Reply {
    let footer = vec![
        t.seat_name(t.seats[0]),
        t.seat_name(t.seats[1]),
        t.game.result().map_or(String::new(), |r| r.reason.clone()),
    ];
    let text = notation::write_psq(t.game.size(), &t.game.moves(), &footer);
    Reply {
        download: Some("fivefold.psq"),
        ..Reply::asset("text/plain", "")
    }
    .with_body(text)
}

impl Reply {
    fn with_body(mut self, text: String) -> Reply {
        self.body = text.into_bytes();
        self
    }
}

fn seat_json(t: &Table, seat: Seat) -> Value {
    let spec = match seat {
        Seat::Human => "human".to_string(),
        Seat::Engine { id, level } => format!("engine:{id}:{level}"),
    };
    json!({ "spec": spec, "name": t.seat_name(seat) })
}

/// Everything the page draws.
pub fn state(t: &Table, suites: &[Suite]) -> Value {
    let g = &t.game;
    let running = t.clock_running();
    let side = g.side();
    let left = |c: Color| t.clock.left(c, running && side == c);
    json!({
        "gen": t.gen,
        "size": g.size(),
        "rule": rule_name(g.rule()),
        "moves": g.moves(),
        "side": color_name(side),
        "redo": g.redo_len(),
        "result": g.result().map(|r| json!({
            "winner": r.winner.map(color_name),
            "reason": r.reason,
            "line": r.line,
        })),
        "forbidden": g.forbidden(),
        "seats": [seat_json(t, t.seats[0]), seat_json(t, t.seats[1])],
        "clock": {
            "turn_ms": t.clock.turn_ms,
            "match_ms": t.clock.match_ms,
            "left": [left(Color::Black), left(Color::White)],
            "running": running,
        },
        "paused": t.paused,
        "thinking": t.thinking.map(color_name),
        "analysis": t.analysis,
        "hint": t.hint,
        "position": notation::write_position(&g.moves()),
        "engines": engines_json(t),
        "results": t.results.to_json(),
        "suites": suites.iter().map(|s| json!({"name": s.name, "count": s.openings.len()})).collect::<Vec<_>>(),
    })
}

fn engines_json(t: &Table) -> Value {
    let levels: Vec<Value> = crate::levels::LEVELS
        .iter()
        .enumerate()
        .map(|(i, l)| {
            json!({ "level": i + 1, "name": l.name, "elo": l.elo, "elo_error": l.elo_error })
        })
        .collect();
    t.engines
        .iter()
        .enumerate()
        .map(|(id, e)| {
            json!({
                "id": id,
                "name": e.name,
                "levels": if e.builtin { levels.clone() } else { Vec::new() },
            })
        })
        .collect()
}
