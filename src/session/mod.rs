//! The game session: what the engine knows between commands (board, INFO settings,
//! transposition table) and what it does for each command.
//!
//! `Session::handle_with` is the whole behaviour and needs no process or threads, so it
//! is tested directly. `run` adds the stdin reader thread and stdout; `run_stdio` is
//! what `main` calls. A command that fails replies `ERROR <reason>` and leaves the game
//! exactly as it was.

mod balance;
mod cli;
mod handicap;
mod position;
mod runner;
mod settings;
mod swap2;
mod yixin;

pub use cli::{bench_lines, demo, DemoOptions};
pub use runner::{run, run_stdio, ExitMode};
pub use settings::{hash_bytes_for, InfoEffect, Settings};

use crate::game::{Board, Move, Rule};
use crate::protocol::{BoardKind, BoardLine, Command, Info, Point, Reply};
use crate::search::score_text;
use crate::search::{Clock, Limits, SearchResult, Searcher, TimeBudget, TranspositionTable};
use position::{board_from_lines, empty_square, legal_move_or_fallback};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Printed once per renju game before our first move, so whoever reads the game log knows
/// what the engine does about forbidden points: the move it plays and Black's moves and
/// fours in the search are checked exactly (`Board::is_forbidden`), while the evaluation
/// judges them by shape.
pub const RENJU_NOTICE: &str =
    "renju: forbidden points are checked exactly for the move we play and for Black's moves and fours in the search; the evaluation judges them by shape";

/// The table a first search makes when none was made at START: 2 ms to make.
const FIRST_SEARCH_HASH_BYTES: usize = 8 << 20;
/// A full table of this size or more is made on a helper thread (`grow_hash`).
const BACKGROUND_HASH_BYTES: usize = 64 << 20;

const NO_GAME: &str = "no game started: send START first";

/// Everything a command needs besides the session: when it arrived (the move clock
/// starts then) and the flag that ends a search early.
pub struct Context<'a> {
    pub arrival: Instant,
    pub stop: &'a AtomicBool,
}

type Emit<'e> = &'e mut dyn FnMut(Reply);

pub struct Session {
    board: Option<Board>,
    settings: Settings,
    /// Made at START once `max_memory` or `hash_size` is known, else at the first search,
    /// so the process never holds a table sized for a limit it was not given.
    searcher: Option<Searcher>,
    searcher_hash_bytes: usize,
    /// The full table being made on a helper thread, and its size (`grow_hash`).
    growing: Option<(usize, std::thread::JoinHandle<TranspositionTable>)>,
    renju_notice_due: bool,
    /// Squares the engine must not play (YXBLOCK), until YXBLOCKRESET or a new game.
    blocked: Vec<Move>,
    /// The reduced levels' random choices: seeded from the clock, or by `INFO seed`.
    rng: crate::data::rng::SplitMix64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session {
            board: None,
            settings: Settings {
                nn: crate::eval::nn::incremental::command_line_choice(),
                ..Settings::default()
            },
            searcher: None,
            searcher_hash_bytes: 0,
            growing: None,
            renju_notice_due: true,
            blocked: Vec::new(),
            rng: crate::data::rng::SplitMix64::new(handicap::clock_seed()),
        }
    }

    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Handles one command, returning its replies (for tests and simple callers).
    pub fn handle(&mut self, cmd: Command) -> Vec<Reply> {
        let stop = AtomicBool::new(false);
        let ctx = Context {
            arrival: Instant::now(),
            stop: &stop,
        };
        let mut replies = Vec::new();
        self.handle_with(cmd, &ctx, &mut |r| replies.push(r));
        replies
    }

    /// Handles one command, sending each reply line to `emit` as soon as it exists
    /// (search progress MESSAGEs come before the move).
    pub fn handle_with(&mut self, cmd: Command, ctx: &Context, emit: Emit) {
        log::debug!("command {cmd:?}");
        if let Err(reason) = self.dispatch(cmd, ctx, emit) {
            log::warn!("ERROR {reason}");
            emit(Reply::Error(reason));
        }
        // A table made small for a first search grows now that the reply is out.
        self.grow_hash();
    }

    fn dispatch(&mut self, cmd: Command, ctx: &Context, emit: Emit) -> Result<(), String> {
        match cmd {
            Command::Start { size } => self.start(size, size, emit),
            Command::RectStart { width, height } => self.start(width, height, emit),
            Command::Restart => self.restart(emit),
            Command::Begin => self.play_best(ctx, emit),
            Command::Turn(p) => self.turn(p, ctx, emit),
            Command::Play(p) => self.play(p, emit),
            Command::Takeback(p) => self.takeback(p, emit),
            Command::Board {
                kind,
                lines,
                errors,
            } => self.set_position(kind, &lines, &errors, ctx, emit),
            Command::Swap2Board { stones, errors } => self.swap2(&stones, &errors, ctx, emit),
            Command::Info(info) => {
                self.info(info);
                Ok(())
            }
            Command::About => {
                emit(Reply::About);
                Ok(())
            }
            // END is acted on by the runner; STOP only matters while searching.
            Command::End | Command::Stop => Ok(()),
            Command::Malformed { reason } => Err(reason),
            Command::Unknown(text) => {
                emit(Reply::Unknown(text));
                Ok(())
            }
            Command::NBest(n) => self.nbest(n, ctx, emit),
            Command::HashClear => {
                self.hash_clear(emit);
                Ok(())
            }
            Command::ShowInfo => {
                self.show_info(emit);
                Ok(())
            }
            Command::ShowForbid => self.show_forbid(emit),
            Command::Block {
                undo,
                points,
                errors,
            } => self.block(undo, &points, &errors),
            Command::BlockReset => {
                self.blocked.clear();
                Ok(())
            }
            Command::Balance { two, bias } => self.balance(two, bias, ctx, emit),
        }
    }

    fn rule(&self) -> Rule {
        Rule::from_bits(self.settings.rule_bits)
    }

    fn board_mut(&mut self) -> Result<&mut Board, String> {
        self.board.as_mut().ok_or_else(|| NO_GAME.to_string())
    }

    /// START / RECTSTART: a new game on an empty board. A bad size keeps the old game.
    fn start(&mut self, width: i64, height: i64, emit: Emit) -> Result<(), String> {
        let valid = |v: i64| (0..=i64::from(u16::MAX)).contains(&v);
        if !valid(width) || !valid(height) || !Board::is_valid_size(width as usize, height as usize)
        {
            return Err(format!(
                "unsupported board size {width}x{height} (supported: {min} to {max})",
                min = crate::game::MIN_SIZE,
                max = crate::game::MAX_SIZE
            ));
        }
        self.new_game(width as usize, height as usize);
        emit(Reply::Ok);
        Ok(())
    }

    fn restart(&mut self, emit: Emit) -> Result<(), String> {
        let board = self.board.as_ref().ok_or_else(|| NO_GAME.to_string())?;
        let (w, h) = (board.width(), board.height());
        self.new_game(w, h);
        emit(Reply::Ok);
        Ok(())
    }

    fn new_game(&mut self, width: usize, height: usize) {
        warm_up_tables(self.rule());
        self.board = Some(Board::new(width, height, self.rule()));
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.clear();
        }
        // The hash table is made (and its pages touched) now, not in the first move's time,
        // but only once the manager has said how much memory we have: Piskvork and
        // GomocupJudge send START before the INFO block, and a table made at the default
        // size then took 137 MiB under a 64 MiB limit. Otherwise the first search makes a
        // small one (`ensure_searcher`) and the full one follows its move.
        if self.settings.memory_known && self.searcher.is_none() {
            self.searcher_hash_bytes = self.settings.hash_bytes();
            self.searcher = Some(Searcher::new(self.searcher_hash_bytes));
        }
        self.renju_notice_due = true;
        self.blocked.clear();
    }

    fn turn(&mut self, p: Point, ctx: &Context, emit: Emit) -> Result<(), String> {
        let board = self.board_mut()?;
        let m = empty_square(board, p).map_err(|e| format!("TURN: {e}"))?;
        board.make(m);
        self.play_best(ctx, emit)
    }

    /// PLAY x,y: the manager accepts a suggestion; play it and echo it.
    fn play(&mut self, p: Point, emit: Emit) -> Result<(), String> {
        let board = self.board_mut()?;
        let m = empty_square(board, p).map_err(|e| format!("PLAY: {e}"))?;
        board.make(m);
        emit(Reply::Move(m.x(), m.y()));
        Ok(())
    }

    fn takeback(&mut self, p: Point, emit: Emit) -> Result<(), String> {
        let board = self.board_mut()?;
        let last = board.last_move();
        let is_last = last.is_some_and(|m| m.x() as i64 == p.x && m.y() as i64 == p.y);
        if !is_last {
            return Err(format!(
                "TAKEBACK: {},{} is not the last stone played",
                p.x, p.y
            ));
        }
        board.undo();
        emit(Reply::Ok);
        Ok(())
    }

    /// Width and height of the current game's board, or the "no game" error.
    fn board_size(&self) -> Result<(usize, usize), String> {
        let board = self.board.as_ref().ok_or_else(|| NO_GAME.to_string())?;
        Ok((board.width(), board.height()))
    }

    /// BOARD / YXBOARD: replace the position, or keep the old one if any line is bad.
    fn set_position(
        &mut self,
        kind: BoardKind,
        lines: &[BoardLine],
        errors: &[String],
        ctx: &Context,
        emit: Emit,
    ) -> Result<(), String> {
        let (width, height) = self.board_size()?;
        if let Some(first) = errors.first() {
            return Err(format!("BOARD: {first}; position unchanged"));
        }
        let board = board_from_lines(width, height, self.rule(), lines)
            .map_err(|e| format!("{e}; position unchanged"))?;
        self.board = Some(board);
        match kind {
            BoardKind::Board => self.play_best(ctx, emit),
            BoardKind::YxBoard => Ok(()),
        }
    }

    fn info(&mut self, info: Info) {
        match self.settings.apply(info) {
            InfoEffect::RuleChanged => {
                let rule = self.rule();
                warm_up_tables(rule);
                if let Some(board) = self.board.as_mut() {
                    board.set_rule(rule);
                }
            }
            InfoEffect::MemoryChanged => self.resize_hash_if_needed(),
            InfoEffect::Reseed(seed) => self.rng = crate::data::rng::SplitMix64::new(seed),
            InfoEffect::None => {}
        }
    }

    fn resize_hash_if_needed(&mut self) {
        self.drop_growing_hash();
        let wanted = self.settings.hash_bytes();
        if let Some(searcher) = self.searcher.as_mut() {
            if wanted != self.searcher_hash_bytes {
                searcher.resize_hash(wanted);
                self.searcher_hash_bytes = wanted;
            }
        }
    }

    /// After a reply, a table made small for a first search grows to its full size. A large
    /// one is made on a helper thread and installed by the first search that finds it
    /// ready: made here, in the command loop, the default 128 MiB kept a fast opponent's
    /// next TURN waiting (at 100 ms a move the second move took 116-149 ms; journal,
    /// session 46). Under a `max_memory` limit a table of 64 MiB or more leaves a quarter
    /// of what the limit allows it free, more than the small table it replaces.
    fn grow_hash(&mut self) {
        let wanted = self.settings.hash_bytes();
        if self.searcher.is_none() || wanted == self.searcher_hash_bytes {
            return;
        }
        if wanted < BACKGROUND_HASH_BYTES {
            self.resize_hash_if_needed();
            return;
        }
        if self
            .growing
            .as_ref()
            .is_some_and(|(bytes, _)| *bytes == wanted)
        {
            return;
        }
        self.drop_growing_hash();
        let made = std::thread::Builder::new()
            .name("hash table".into())
            .spawn(move || TranspositionTable::new(wanted));
        match made {
            Ok(handle) => self.growing = Some((wanted, handle)),
            Err(_) => self.resize_hash_if_needed(),
        }
    }

    /// Waits for a table `grow_hash` is making and frees it (a resize or a new one follows).
    fn drop_growing_hash(&mut self) {
        if let Some((_, pending)) = self.growing.take() {
            let _ = pending.join();
        }
    }

    /// Installs the table `grow_hash` made, if it is ready.
    fn install_grown_hash(&mut self) {
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        if let Some((bytes, handle)) = self.growing.take_if(|(_, h)| h.is_finished()) {
            if let Ok(table) = handle.join() {
                searcher.install_hash(table);
                self.searcher_hash_bytes = bytes;
            }
        }
    }

    /// A search with no table yet (START came before the INFO block) makes a small one:
    /// touching the pages of the full 128 MiB took 50 ms, half of a 100 ms move, and the
    /// root VCF then ran out of time. The full table is made once the reply is sent
    /// (`grow_hash`), in the opponent's time. The searcher then gets its threads and its
    /// network (or none) from the settings.
    fn ensure_searcher(&mut self) {
        if self.searcher.is_none() {
            self.searcher_hash_bytes = self.settings.hash_bytes().min(FIRST_SEARCH_HASH_BYTES);
            self.searcher = Some(Searcher::new(self.searcher_hash_bytes));
        }
        self.install_grown_hash();
        // The network as the settings choose for this game's rule and board, which every
        // search of the game (moves, swap2, balanced moves) shares.
        let nn = self
            .board
            .as_ref()
            .is_some_and(|b| self.settings.network_on(b));
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.set_threads(self.settings.search_threads());
            searcher.set_network(nn.then(crate::eval::nn::incremental::engine_network));
        }
    }

    /// Limits for a move whose command arrived at `arrival`: the time already spent since
    /// then is charged to the move, and the clock starts now.
    fn limits(&self, arrival: Instant, cap: Option<Duration>) -> Limits {
        let now = Instant::now();
        let mut budget =
            TimeBudget::plan(&self.settings.time, now.saturating_duration_since(arrival));
        if let Some(cap) = cap {
            budget.soft = budget.soft.min(cap);
            budget.hard = budget.hard.min(cap);
        }
        Limits {
            clock: Clock::new(now, budget),
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes,
        }
    }

    /// Checks that we can move (a game, an empty square) and prints the renju notice
    /// once per game.
    fn prepare_move(&mut self, emit: Emit) -> Result<(), String> {
        let board = self.board.as_ref().ok_or_else(|| NO_GAME.to_string())?;
        if board.empty_count() == 0 {
            return Err("board is full".to_string());
        }
        if board.rule() == Rule::Renju && self.renju_notice_due {
            emit(Reply::Message(RENJU_NOTICE.to_string()));
            self.renju_notice_due = false;
        }
        Ok(())
    }

    /// Searches the current position, plays the best move on our board and prints it.
    /// A reduced level (`INFO level`) picks its move with its handicap.
    fn play_best(&mut self, ctx: &Context, emit: Emit) -> Result<(), String> {
        let handicap = self.settings.handicap();
        if !handicap.is_none() {
            return self.play_handicapped(handicap, ctx, emit);
        }
        self.prepare_move(emit)?;
        let limits = self.limits(ctx.arrival, None);
        let (m, _) =
            self.search_current(&limits, ctx, &[], &mut |line| emit(Reply::Message(line)))?;
        self.play_ours(m, emit)
    }

    /// Plays our move `m` on the board and prints it.
    fn play_ours(&mut self, m: Move, emit: Emit) -> Result<(), String> {
        let board = self.board_mut()?;
        board.make(m);
        emit(Reply::Move(m.x(), m.y()));
        Ok(())
    }

    /// Runs the search on the current board, never choosing a blocked square or one of
    /// `extra` while another is left; returns a legal move and the search's result.
    fn search_current(
        &mut self,
        limits: &Limits,
        ctx: &Context,
        extra: &[Move],
        report: &mut dyn FnMut(String),
    ) -> Result<(Move, SearchResult), String> {
        self.ensure_searcher();
        let excluded: Vec<Move> = self.blocked.iter().chain(extra).copied().collect();
        let (Some(board), Some(searcher)) = (self.board.as_ref(), self.searcher.as_mut()) else {
            return Err(NO_GAME.to_string());
        };
        let result = searcher.search_excluding(board, limits, ctx.stop, &excluded, report);
        log::info!(
            "search: depth {} nodes {} score {} in {:?}",
            result.depth,
            result.nodes,
            result.score,
            limits.clock.elapsed()
        );
        let m = legal_move_or_fallback(board, result.best)
            .ok_or_else(|| "board is full".to_string())?;
        Ok((m, result))
    }

    fn swap2(
        &mut self,
        stones: &[Point],
        errors: &[String],
        ctx: &Context,
        emit: Emit,
    ) -> Result<(), String> {
        let (width, height) = self.board_size()?;
        if let Some(first) = errors.first() {
            return Err(format!("SWAP2BOARD: {first}"));
        }
        let opening = swap2::opening_board(width, height, self.rule(), stones)?;
        if opening.stone_count() == 0 {
            return self.swap2_propose(opening, ctx, emit);
        }
        // Decide as White, the side to move: swap if White is clearly worse.
        let previous = self.board.replace(opening);
        let limits = self.limits(ctx.arrival, Some(swap2::THINK_CAP));
        let searched =
            self.search_current(&limits, ctx, &[], &mut |line| emit(Reply::Message(line)));
        let (m, score) = match searched {
            Ok((m, result)) => (m, result.score),
            Err(e) => {
                self.board = previous;
                return Err(e);
            }
        };
        if swap2::should_swap(score) {
            emit(Reply::Swap);
        } else if stones.len() == 3 && swap2::should_place_two(score) {
            return self.swap2_place_two(ctx, emit);
        } else {
            self.board_mut()?.make(m);
            emit(Reply::Move(m.x(), m.y()));
        }
        Ok(())
    }

    /// Swap2's first stones: the shape whose position the search scores nearest even for
    /// White, each shape searched for an equal share of `THINK_CAP`.
    fn swap2_propose(&mut self, empty: Board, ctx: &Context, emit: Emit) -> Result<(), String> {
        let shapes = swap2::OPENING_SHAPES;
        let mut best: Option<(i32, Board, Reply)> = None;
        for (i, shape) in shapes.iter().enumerate() {
            let (board, reply) = swap2::propose_opening(empty.clone(), shape)?;
            let left = (shapes.len() - i) as u32;
            let cap = swap2::THINK_CAP.saturating_sub(ctx.arrival.elapsed()) / left;
            let limits = self.limits(ctx.arrival, Some(cap));
            self.ensure_searcher();
            let searcher = self.searcher.as_mut().ok_or_else(|| NO_GAME.to_string())?;
            let score = searcher
                .search(&board, &limits, ctx.stop, &mut |_| {})
                .score;
            if best.as_ref().is_none_or(|(b, _, _)| score.abs() < b.abs()) {
                best = Some((score, board, reply));
            }
            if ctx.stop.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
        }
        let (score, board, reply) = best.ok_or_else(|| "no opening shape fits".to_string())?;
        emit(Reply::Message(format!(
            "swap2: proposing the shape White scores {}",
            score_text(score)
        )));
        self.board = Some(board);
        emit(reply);
        Ok(())
    }

    /// Swap2's third answer after three stones: a White and a Black stone that leave the
    /// position balanced by our search, so the opponent must choose a colour.
    fn swap2_place_two(&mut self, ctx: &Context, emit: Emit) -> Result<(), String> {
        let (white, white_score) = self.balanced_move(0, ctx)?;
        self.board_mut()?.make(white);
        let (black, black_score) = self.balanced_reply(0, ctx)?;
        emit(Reply::Message(format!(
            "swap2: placing two, White {},{} scored {} and Black {},{} scored {}",
            white.x(),
            white.y(),
            score_text(white_score),
            black.x(),
            black.y(),
            score_text(black_score)
        )));
        emit(Reply::Moves(vec![
            (white.x(), white.y()),
            (black.x(), black.y()),
        ]));
        Ok(())
    }
}

/// Builds the evaluation's pattern tables for `rule` in the background. They are built on
/// first use otherwise, which costs the first move a few hundred milliseconds; START
/// time is not charged by most managers. A search that starts before the build is done
/// waits for it (the tables sit in a `OnceLock`), so nothing is built twice.
fn warm_up_tables(rule: Rule) {
    let spawned = std::thread::Builder::new()
        .name("warm-up".into())
        .spawn(move || {
            crate::eval::PatternTable::for_rule(rule);
        });
    if let Err(e) = spawned {
        log::warn!("cannot start the table warm-up thread: {e}");
    }
}

#[cfg(test)]
mod tests;
