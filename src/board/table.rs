//! Everything the page shows and changes: the game, who sits where, clocks, the engine's
//! analysis and hint. One `Table` lives behind a mutex shared by the HTTP handler and the
//! conductor thread that drives the brains.

use super::game::{color_name, Game};
use super::results::{Outcome, Results};
use crate::game::{Color, Move};
use std::time::Instant;

/// A brain named on the command line; `builtin` marks Fivefold itself, which has levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDef {
    pub name: String,
    pub cmd: String,
    pub builtin: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// An engine by its index in `Table::engines`; `level` 1-10 for the built-in one, else 0.
    Engine {
        id: usize,
        level: u8,
    },
}

/// Game clocks in ms: `turn_ms` per move (engines), `match_ms` per game (everyone);
/// 0 = no limit.
#[derive(Clone, Debug)]
pub struct Clock {
    pub turn_ms: u64,
    pub match_ms: u64,
    left: [i64; 2],
    since: Instant,
}

impl Clock {
    pub fn new(turn_ms: u64, match_ms: u64) -> Clock {
        Clock {
            turn_ms,
            match_ms,
            left: [match_ms as i64; 2],
            since: Instant::now(),
        }
    }

    /// Time left for `side`, counting the running turn if `running`.
    pub fn left(&self, side: Color, running: bool) -> i64 {
        if self.match_ms == 0 {
            return 0;
        }
        let spent = if running {
            self.since.elapsed().as_millis() as i64
        } else {
            0
        };
        self.left[side.idx()] - spent
    }

    /// Charges the running turn to `side` and starts the next one.
    pub fn charge(&mut self, side: Color) {
        self.left[side.idx()] = self.left(side, true);
        self.since = Instant::now();
    }

    /// Starts the turn afresh without charging anybody (after undo, load, resume).
    pub fn restart_turn(&mut self) {
        self.since = Instant::now();
    }
}

pub struct Table {
    pub engines: Vec<EngineDef>,
    pub game: Game,
    pub seats: [Seat; 2],
    pub clock: Clock,
    /// Bumped by every change that makes an engine's current thinking useless.
    pub gen: u64,
    /// Bumped by every new or loaded game: brains start afresh.
    pub game_id: u64,
    pub paused: bool,
    pub thinking: Option<Color>,
    pub analysis: Option<serde_json::Value>,
    pub hint: Option<(usize, usize)>,
    pub hint_wanted: bool,
    /// The person's results per level of the built-in engine (`results.rs`).
    pub results: Results,
    /// The game (`game_id`) a person moved in, and the last game whose result was counted.
    person_moved: Option<u64>,
    recorded: Option<u64>,
}

impl Table {
    pub fn new(engines: Vec<EngineDef>, game: Game, seats: [Seat; 2], clock: Clock) -> Table {
        Table {
            engines,
            game,
            seats,
            clock,
            gen: 0,
            game_id: 0,
            paused: false,
            thinking: None,
            analysis: None,
            hint: None,
            hint_wanted: false,
            results: Results::default(),
            person_moved: None,
            recorded: None,
        }
    }

    /// Whether the side to move's clock is running.
    pub fn clock_running(&self) -> bool {
        !self.paused && !self.game.is_over()
    }

    /// Something changed: engines drop what they are thinking, the hint is stale, and a
    /// game that just ended is counted.
    pub fn touch(&mut self) {
        self.gen += 1;
        self.hint = None;
        self.hint_wanted = false;
        self.count_result();
    }

    /// Counts the result of a game between a person (who moved in it) and the built-in
    /// engine at a level, once per game.
    fn count_result(&mut self) {
        let Some(result) = self.game.result() else {
            return;
        };
        let this_game = Some(self.game_id);
        if self.recorded == this_game || self.person_moved != this_game {
            return;
        }
        let Some((person, level)) = self.person_against_builtin() else {
            return;
        };
        let outcome = match result.winner {
            None => Outcome::Drawn,
            Some(c) if c == person => Outcome::Won,
            Some(_) => Outcome::Lost,
        };
        self.recorded = this_game;
        self.results.record(level, outcome);
    }

    /// The person's colour and the engine's level when a person plays the built-in engine.
    pub fn person_against_builtin(&self) -> Option<(Color, u8)> {
        let builtin = |id: usize| self.engines.get(id).is_some_and(|e| e.builtin);
        match self.seats {
            [Seat::Human, Seat::Engine { id, level }] if builtin(id) => Some((Color::Black, level)),
            [Seat::Engine { id, level }, Seat::Human] if builtin(id) => Some((Color::White, level)),
            _ => None,
        }
    }

    /// Starts `game` with these seats and clock; brains restart.
    pub fn start(&mut self, game: Game, seats: [Seat; 2], clock: Clock) {
        self.game = game;
        self.seats = seats;
        self.clock = clock;
        self.game_id += 1;
        self.paused = false;
        self.analysis = None;
        self.touch();
    }

    pub fn seat_name(&self, seat: Seat) -> String {
        match seat {
            Seat::Human => "Human".to_string(),
            Seat::Engine { id, level } => {
                let name = self.engines.get(id).map_or("?", |e| e.name.as_str());
                match crate::levels::level(level) {
                    Some(l) => format!("{name} {level} ({}, Elo {})", l.name, l.elo),
                    None => name.to_string(),
                }
            }
        }
    }

    fn has_human(&self) -> bool {
        self.seats.contains(&Seat::Human)
    }

    fn seat_to_move(&self) -> Seat {
        self.seats[self.game.side().idx()]
    }

    /// A person's move at `x,y`: only when a human is to move.
    pub fn human_move(&mut self, x: i64, y: i64) -> Result<(), String> {
        if self.seat_to_move() != Seat::Human {
            return Err("it is the engine's turn".to_string());
        }
        if self.paused {
            return Err("the game is paused".to_string());
        }
        let m = self.game.check(x, y)?;
        self.person_moved = Some(self.game_id);
        self.play(m);
        Ok(())
    }

    /// Plays a checked move for the side to move, charging its clock.
    pub fn play(&mut self, m: Move) {
        self.clock.charge(self.game.side());
        self.game.play(m);
        self.touch();
    }

    /// `side` loses off the board (an engine's forfeit, a fallen flag).
    pub fn forfeit(&mut self, side: Color, why: &str) {
        let name = self.seat_name(self.seats[side.idx()]);
        let reason = format!("{} ({name}) loses: {why}", color_name(side));
        self.game.end(Some(side.opp()), reason);
        self.touch();
    }

    /// Takes back moves until a person is to move again (one move if nobody is human,
    /// and then the engines pause).
    pub fn undo(&mut self) -> Result<(), String> {
        if self.game.moves().is_empty() {
            return Err("nothing to undo".to_string());
        }
        self.game.undo();
        while self.has_human() && self.seat_to_move() != Seat::Human && self.game.undo().is_some() {
        }
        if !self.has_human() {
            self.paused = true;
        }
        self.clock.restart_turn();
        self.touch();
        Ok(())
    }

    /// Replays taken-back moves up to the next time a person is to move.
    pub fn redo(&mut self) -> Result<(), String> {
        if self.game.redo().is_none() {
            return Err("nothing to redo".to_string());
        }
        while self.has_human()
            && self.seat_to_move() != Seat::Human
            && self.game.redo_len() > 0
            && self.game.redo().is_some()
        {}
        self.clock.restart_turn();
        self.touch();
        Ok(())
    }

    pub fn set_seats(&mut self, seats: [Seat; 2]) {
        self.seats = seats;
        self.clock.restart_turn();
        self.touch();
    }

    pub fn set_paused(&mut self, paused: bool) {
        if paused && !self.paused {
            self.clock.charge(self.game.side());
        } else {
            self.clock.restart_turn();
        }
        self.paused = paused;
        self.touch();
    }

    /// A person's flag falls when the game clock runs out on their turn (engines are
    /// timed by the conductor's deadlines).
    pub fn check_flag(&mut self) {
        let side = self.game.side();
        if self.clock.match_ms > 0
            && self.clock_running()
            && self.seat_to_move() == Seat::Human
            && self.clock.left(side, true) <= 0
        {
            self.forfeit(side, "out of time");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    fn table(seats: [Seat; 2]) -> Table {
        let engines = vec![EngineDef {
            name: "E".into(),
            cmd: "e".into(),
            builtin: false,
        }];
        let game = Game::new(15, Rule::Freestyle).unwrap();
        Table::new(engines, game, seats, Clock::new(1000, 0))
    }

    const ENGINE: Seat = Seat::Engine { id: 0, level: 0 };

    #[test]
    fn humans_move_only_on_their_turn() {
        let mut t = table([Seat::Human, ENGINE]);
        t.human_move(7, 7).unwrap();
        assert_eq!(t.human_move(8, 8).unwrap_err(), "it is the engine's turn");
        let gen = t.gen;
        t.play(Move::from_xy(8, 8));
        assert!(t.gen > gen);
        assert!(t.human_move(7, 7).unwrap_err().contains("occupied"));
    }

    #[test]
    fn undo_goes_back_to_the_human_and_redo_forward() {
        let mut t = table([Seat::Human, ENGINE]);
        t.human_move(7, 7).unwrap();
        t.play(Move::from_xy(8, 8));
        t.undo().unwrap();
        assert!(t.game.moves().is_empty());
        t.redo().unwrap();
        assert_eq!(t.game.moves().len(), 2);
        let mut both = table([ENGINE, ENGINE]);
        both.play(Move::from_xy(7, 7));
        both.undo().unwrap();
        assert!(both.paused, "engines pause after an undo");
        assert!(both.undo().is_err());
    }

    #[test]
    fn forfeit_names_the_seat_and_flag_falls_for_humans() {
        let mut t = table([Seat::Human, ENGINE]);
        t.forfeit(Color::White, "crash (output closed)");
        let r = t.game.result().unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(r.reason, "white (E) loses: crash (output closed)");
        let mut timed = table([Seat::Human, ENGINE]);
        timed.clock = Clock::new(0, 1);
        std::thread::sleep(std::time::Duration::from_millis(5));
        timed.check_flag();
        assert!(timed.game.result().unwrap().reason.contains("out of time"));
    }
}
