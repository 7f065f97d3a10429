//! The runner's picture of the game, built from the commands it sent and the moves the
//! brain played, so that `expect_move` can check "on the board, on an empty square".
//!
//! Sent bytes are split into lines exactly as a brain should (LF, CR or CRLF), so a
//! `send_raw` case is tracked the same as a `send` case. A command the brain answers
//! with `ERROR`/`UNKNOWN` is rolled back, so a refused `START 1` leaves the old board.

use super::pattern::{parse_fields, Square};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The brain's stone (its moves, BOARD field 1, PLAY).
    Brain,
    /// The runner's stone (TURN, BOARD field 2).
    Runner,
    /// A blocked square (BOARD field 3) or a SWAP2BOARD stone.
    Other,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct State {
    /// Width and height once a START/RECTSTART was sent.
    size: Option<(i64, i64)>,
    stones: HashMap<Square, Owner>,
    /// Stones in the order they were placed, for `$BRAIN` / `$MINE`.
    history: Vec<(Square, Owner)>,
    /// The last brain stone removed by TAKEBACK, for `$TAKEN_BRAIN`.
    taken_brain: Option<Square>,
}

/// Inside a BOARD / SWAP2BOARD block, until DONE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    None,
    Board,
    Swap2,
}

#[derive(Debug)]
pub struct Tracker {
    state: State,
    block: Block,
    /// Bytes after the last line break.
    partial: Vec<u8>,
    /// State before the last state-changing command, restored if the brain refuses it.
    before_last: Option<State>,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new()
    }
}

impl Tracker {
    pub fn new() -> Tracker {
        Tracker {
            state: State::default(),
            block: Block::None,
            partial: Vec::new(),
            before_last: None,
        }
    }

    /// Feeds bytes exactly as they were written to the brain.
    pub fn sent(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                let line = std::mem::take(&mut self.partial);
                let text = String::from_utf8_lossy(&line);
                let text = text.trim();
                if !text.is_empty() {
                    self.command(text);
                }
            } else {
                self.partial.push(b);
            }
        }
    }

    /// The brain answered the last command with ERROR/UNKNOWN: undo its effect.
    pub fn refused(&mut self) {
        if let Some(previous) = self.before_last.take() {
            self.state = previous;
            self.block = Block::None;
        }
    }

    /// The brain accepted the last command; it can no longer be rolled back.
    pub fn accepted(&mut self) {
        self.before_last = None;
    }

    /// Why `square` is not a legal move for the brain now, if it is not.
    pub fn illegal_reason(&self, square: Square) -> Option<String> {
        let Some((w, h)) = self.state.size else {
            return Some("no board was started".to_string());
        };
        let (x, y) = square;
        if x < 0 || y < 0 || x >= w || y >= h {
            return Some(format!("{x},{y} is off the {w}x{h} board"));
        }
        self.state
            .stones
            .get(&square)
            .map(|owner| format!("{x},{y} is occupied ({owner:?} stone)"))
    }

    /// Records a move the brain played.
    pub fn brain_played(&mut self, square: Square) {
        self.place(square, Owner::Brain);
    }

    /// Value of a `$NAME` variable in a step, if it names something that exists.
    pub fn variable(&self, name: &str) -> Option<String> {
        let square = match name {
            "FREE" => self.free_square(),
            "BRAIN" => self.last_of(Owner::Brain),
            "MINE" => self.last_of(Owner::Runner),
            "TAKEN_BRAIN" => self.state.taken_brain,
            _ => None,
        }?;
        Some(format!("{},{}", square.0, square.1))
    }

    fn last_of(&self, owner: Owner) -> Option<Square> {
        let history = &self.state.history;
        history
            .iter()
            .rev()
            .find(|(_, o)| *o == owner)
            .map(|(s, _)| *s)
    }

    /// An empty square for the runner's own TURN. The first choices are (2k, k): no
    /// two share a row, column or diagonal, so the runner's stones never make a line
    /// that would end the game.
    fn free_square(&self) -> Option<Square> {
        let (w, h) = self.state.size?;
        let spread = (0..h).map(|k| (2 * k, k)).filter(|&(x, _)| x < w);
        let row_major = (0..h).flat_map(|y| (0..w).map(move |x| (x, y)));
        spread
            .chain(row_major)
            .find(|s| !self.state.stones.contains_key(s))
    }

    fn place(&mut self, square: Square, owner: Owner) {
        if self.illegal_reason(square).is_none() {
            self.state.stones.insert(square, owner);
            self.state.history.push((square, owner));
        }
    }

    fn command(&mut self, line: &str) {
        match self.block {
            Block::Board => return self.board_line(line),
            Block::Swap2 => return self.swap2_line(line),
            Block::None => {}
        }
        let (word, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let word = word.to_ascii_uppercase();
        let arg = arg.trim();
        let before = self.state.clone();
        let changes_state = match word.as_str() {
            "START" => self.start(arg.parse().ok().map(|n| (n, n))),
            "RECTSTART" => self.start(parse_fields(arg).map(|f| (f[0], f[1]))),
            "RESTART" => self.clear_stones(),
            "BOARD" | "YXBOARD" => self.open_block(Block::Board),
            "SWAP2BOARD" => self.open_block(Block::Swap2),
            "TURN" => self.with_square(arg, |t, s| t.place(s, Owner::Runner)),
            "PLAY" => self.with_square(arg, |t, s| t.place(s, Owner::Brain)),
            "TAKEBACK" => self.with_square(arg, Tracker::take_back),
            _ => false,
        };
        // INFO gets no reply, so it neither opens nor closes a rollback window.
        if word != "INFO" {
            self.before_last = changes_state.then_some(before);
        }
    }

    fn start(&mut self, size: Option<(i64, i64)>) -> bool {
        self.state = State {
            size,
            ..State::default()
        };
        true
    }

    fn clear_stones(&mut self) -> bool {
        let size = self.state.size;
        self.start(size)
    }

    fn open_block(&mut self, block: Block) -> bool {
        self.clear_stones();
        self.block = block;
        true
    }

    fn with_square(&mut self, arg: &str, apply: impl FnOnce(&mut Tracker, Square)) -> bool {
        match parse_fields(arg) {
            Some(f) if f.len() == 2 => {
                apply(self, (f[0], f[1]));
                true
            }
            _ => false,
        }
    }

    fn take_back(&mut self, square: Square) {
        if let Some(owner) = self.state.stones.remove(&square) {
            self.state.history.retain(|(s, _)| *s != square);
            if owner == Owner::Brain {
                self.state.taken_brain = Some(square);
            }
        }
    }

    fn board_line(&mut self, line: &str) {
        if line.eq_ignore_ascii_case("DONE") {
            self.block = Block::None;
            return;
        }
        if let Some(f) = parse_fields(line).filter(|f| f.len() == 3) {
            let owner = match f[2] {
                1 => Owner::Brain,
                2 => Owner::Runner,
                _ => Owner::Other,
            };
            self.place((f[0], f[1]), owner);
        }
    }

    fn swap2_line(&mut self, line: &str) {
        if line.eq_ignore_ascii_case("DONE") {
            self.block = Block::None;
        } else if let Some(f) = parse_fields(line).filter(|f| f.len() == 2) {
            self.place((f[0], f[1]), Owner::Other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker(sent: &str) -> Tracker {
        let mut t = Tracker::new();
        t.sent(sent.as_bytes());
        t
    }

    #[test]
    fn legal_moves_need_a_board() {
        let t = Tracker::new();
        assert!(t.illegal_reason((0, 0)).unwrap().contains("no board"));
        let t = tracker("START 15\n");
        assert_eq!(t.illegal_reason((0, 0)), None);
        assert_eq!(t.illegal_reason((14, 14)), None);
        assert!(t.illegal_reason((15, 0)).unwrap().contains("off the 15x15"));
        assert!(t.illegal_reason((0, -1)).is_some());
    }

    #[test]
    fn rectstart_width_is_x() {
        let t = tracker("RECTSTART 20,10\n");
        assert_eq!(t.illegal_reason((19, 9)), None);
        assert!(t.illegal_reason((9, 19)).is_some());
    }

    #[test]
    fn turn_and_brain_moves_occupy_squares() {
        let mut t = tracker("START 15\r\nTURN 7, 7\r\n");
        assert!(t.illegal_reason((7, 7)).unwrap().contains("occupied"));
        t.brain_played((8, 8));
        assert!(t.illegal_reason((8, 8)).is_some());
        assert_eq!(t.variable("BRAIN").as_deref(), Some("8,8"));
        assert_eq!(t.variable("MINE").as_deref(), Some("7,7"));
    }

    #[test]
    fn any_line_ending_ends_a_command() {
        let t = tracker("START 15\rTURN 1,1\nTURN 2,2\r\nTURN 3,3");
        assert!(t.illegal_reason((1, 1)).is_some());
        assert!(t.illegal_reason((2, 2)).is_some());
        // No line break yet: the brain has not seen this command either.
        assert_eq!(t.illegal_reason((3, 3)), None);
    }

    #[test]
    fn board_replaces_the_position_and_counts_field_3() {
        let t = tracker("start 15\nturn 0,0\nboard\n7,7,1\n8,8,2\n9,9,3\ndone\n");
        assert_eq!(t.illegal_reason((0, 0)), None);
        for s in [(7, 7), (8, 8), (9, 9)] {
            assert!(t.illegal_reason(s).is_some(), "{s:?}");
        }
        assert_eq!(t.variable("BRAIN").as_deref(), Some("7,7"));
        assert_eq!(t.variable("MINE").as_deref(), Some("8,8"));
    }

    #[test]
    fn info_lines_are_not_stones() {
        let t = tracker("START 15\nINFO evaluate 7,7\n");
        assert_eq!(t.illegal_reason((7, 7)), None);
    }

    #[test]
    fn refused_commands_are_rolled_back() {
        let mut t = tracker("START 15\nTURN 3,3\n");
        t.accepted();
        t.sent(b"START 1\n");
        assert!(t.illegal_reason((3, 3)).unwrap().contains("off"));
        t.refused();
        assert!(t.illegal_reason((3, 3)).unwrap().contains("occupied"));

        t.sent(b"BOARD\n7,7,1\n7,7,2\nDONE\n");
        t.refused();
        assert!(t.illegal_reason((3, 3)).is_some());
        assert_eq!(t.illegal_reason((7, 7)), None);
    }

    #[test]
    fn refusal_after_acceptance_changes_nothing() {
        let mut t = tracker("START 15\n");
        t.accepted();
        t.sent(b"GARBAGE\n");
        t.refused();
        assert_eq!(t.illegal_reason((0, 0)), None);
    }

    #[test]
    fn takeback_frees_the_square_and_remembers_brain_stones() {
        let mut t = tracker("START 15\nTURN 1,1\n");
        t.brain_played((5, 5));
        t.sent(b"TAKEBACK 5,5\nTAKEBACK 1,1\n");
        assert_eq!(t.illegal_reason((5, 5)), None);
        assert_eq!(t.illegal_reason((1, 1)), None);
        assert_eq!(t.variable("TAKEN_BRAIN").as_deref(), Some("5,5"));
        assert_eq!(t.variable("BRAIN"), None);
    }

    #[test]
    fn free_squares_avoid_lines_and_stones() {
        let mut t = tracker("START 15\n");
        assert_eq!(t.variable("FREE").as_deref(), Some("0,0"));
        t.sent(b"TURN 0,0\n");
        assert_eq!(t.variable("FREE").as_deref(), Some("2,1"));
        t.brain_played((2, 1));
        assert_eq!(t.variable("FREE").as_deref(), Some("4,2"));
        assert_eq!(Tracker::new().variable("FREE"), None);
        assert_eq!(t.variable("NOPE"), None);
    }

    #[test]
    fn swap2board_stones_are_tracked() {
        let t = tracker("START 15\nSWAP2BOARD\n7,7\n8,7\n7,8\nDONE\n");
        assert!(t.illegal_reason((8, 7)).is_some());
        assert_eq!(t.illegal_reason((9, 9)), None);
    }
}
