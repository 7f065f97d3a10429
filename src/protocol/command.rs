//! Manager -> brain commands and the line parser that produces them.
//!
//! Parsing is lenient about form (letter case, spaces around commas) and strict about
//! content: a known command with bad arguments becomes `Command::Malformed` (the session
//! answers `ERROR`), an unknown word becomes `Command::Unknown` (answered `UNKNOWN`).
//! Nothing here knows the board: coordinates are plain integers, checked by the session.

/// A square as the manager wrote it; it may be off the board or negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

/// The third number of a BOARD line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: a stone of the side to move.
    Own,
    /// 2: a stone of the opponent.
    Opponent,
    /// 3: a blocked square (continuous games, renju markers).
    Blocked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLine {
    pub at: Point,
    pub field: Field,
}

/// Which multi-line block a `DONE` closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// `BOARD`: set the position, then move.
    Board,
    /// `YXBOARD`: set the position, no reply.
    YxBoard,
}

/// One `INFO key value` setting. Numbers are i64; values past its range saturate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(i64),
    GameType(i64),
    Rule(i64),
    MaxDepth(i64),
    MaxNode(i64),
    ThreadNum(i64),
    /// Yixin-Board: transposition table size in KB (0: size it from `max_memory` again).
    HashSize(i64),
    /// Fivefold's strength, 1 (weakest) to 10 (full): see `crate::levels`.
    Level(i64),
    /// Fivefold: seed of the random choices of the reduced levels (reproducible games);
    /// without it they are seeded from the clock.
    Seed(i64),
    /// Fivefold: 1 orders moves with the built-in network (freestyle), 0 (the default)
    /// with the classical evaluation alone.
    Nn(i64),
    /// The whole rest of the line: paths contain spaces and backslashes.
    Folder(String),
    Evaluate(String),
    /// A known numeric key with a value that is not a number.
    BadValue {
        key: String,
        value: String,
    },
    /// A key we do not use (Yixin and Rapfi send many); ignored without reply.
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start {
        size: i64,
    },
    RectStart {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(Point),
    Play(Point),
    Takeback(Point),
    /// A complete BOARD or YXBOARD block. `errors` lists the lines that did not parse;
    /// the session rejects the whole block if there are any.
    Board {
        kind: BoardKind,
        lines: Vec<BoardLine>,
        errors: Vec<String>,
    },
    /// A complete SWAP2BOARD block: stones in move order, Black first.
    Swap2Board {
        stones: Vec<Point>,
        errors: Vec<String>,
    },
    Info(Info),
    About,
    End,
    /// `YXSTOP` or `STOP`: finish the running search now.
    Stop,
    /// `YXNBEST n`: the n best moves as MESSAGE lines, then play the best.
    NBest(u32),
    /// `YXHASHCLEAR`: forget the transposition table and history.
    HashClear,
    /// `YXSHOWINFO`: a GUI asks for the engine's limits.
    ShowInfo,
    /// `YXSHOWFORBID`: list Black's renju forbidden points.
    ShowForbid,
    /// A complete `YXBLOCK` (or, with `undo`, `YXBLOCKUNDO`) block: squares the engine
    /// must not play (or may play again).
    Block {
        undo: bool,
        points: Vec<Point>,
        errors: Vec<String>,
    },
    /// `YXBLOCKRESET`: the engine may play every square again.
    BlockReset,
    /// `YXBALANCEONE bias` (one move) or `YXBALANCETWO bias` (two): moves that leave
    /// the position balanced, shifted by `bias`.
    Balance {
        two: bool,
        bias: i64,
    },
    /// A known command with unusable arguments; answered `ERROR <reason>`.
    Malformed {
        reason: String,
    },
    /// Not a command we know; answered `UNKNOWN <text>`.
    Unknown(String),
}

impl Command {
    /// Commands the manager answers with a move (or moves): these are the ones a search
    /// may be running for, so ABOUT and STOP during them are handled by the reader thread.
    pub fn expects_move(&self) -> bool {
        matches!(
            self,
            Command::Begin
                | Command::Turn(_)
                | Command::Play(_)
                | Command::NBest(_)
                | Command::Balance { .. }
                | Command::Swap2Board { .. }
                | Command::Board {
                    kind: BoardKind::Board,
                    ..
                }
        )
    }
}

/// Words that end an unfinished block: a manager that forgot `DONE` has moved on.
/// Anything else inside a block is a (possibly bad) block line.
const COMMAND_WORDS: [&str; 25] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "PLAY",
    "TAKEBACK",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "INFO",
    "ABOUT",
    "END",
    "YXSTOP",
    "STOP",
    "DONE",
    "YXNBEST",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXSHOWFORBID",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "YXBALANCEONE",
    "YXBALANCETWO",
];

/// Most lines a block may hold (a 32x32 board has 1024 squares); more is a manager bug,
/// and we stop storing lines so it cannot make us allocate without bound.
const MAX_BLOCK_LINES: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board(BoardKind),
    Swap2,
    /// YXBLOCK (`undo` false) or YXBLOCKUNDO.
    Block {
        undo: bool,
    },
}

/// A BOARD-like block being read, up to its `DONE`.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    board_lines: Vec<BoardLine>,
    points: Vec<Point>,
    errors: Vec<String>,
}

impl Block {
    fn new(kind: BlockKind) -> Block {
        Block {
            kind,
            board_lines: Vec::new(),
            points: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn name(&self) -> &'static str {
        match self.kind {
            BlockKind::Board(BoardKind::Board) => "BOARD",
            BlockKind::Board(BoardKind::YxBoard) => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::Block { undo: false } => "YXBLOCK",
            BlockKind::Block { undo: true } => "YXBLOCKUNDO",
        }
    }

    fn add_line(&mut self, line: &str) {
        let stored = self.board_lines.len() + self.points.len() + self.errors.len();
        if stored >= MAX_BLOCK_LINES {
            if stored == MAX_BLOCK_LINES {
                self.errors.push("too many lines in block".to_string());
            }
            return;
        }
        let parsed = match self.kind {
            BlockKind::Board(_) => parse_board_line(line).map(|l| self.board_lines.push(l)),
            BlockKind::Swap2 => parse_point(line).map(|p| self.points.push(p)),
            BlockKind::Block { .. } => parse_block_line(line).map(|p| self.points.push(p)),
        };
        if let Err(e) = parsed {
            self.errors
                .push(format!("bad line '{}': {e}", excerpt(line)));
        }
    }

    fn into_command(self) -> Command {
        match self.kind {
            BlockKind::Board(kind) => Command::Board {
                kind,
                lines: self.board_lines,
                errors: self.errors,
            },
            BlockKind::Swap2 => Command::Swap2Board {
                stones: self.points,
                errors: self.errors,
            },
            BlockKind::Block { undo } => Command::Block {
                undo,
                points: self.points,
                errors: self.errors,
            },
        }
    }
}

/// Turns lines into commands. It has state only for BOARD-like blocks, which are
/// delivered as one command when their `DONE` arrives.
#[derive(Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a BOARD/YXBOARD/SWAP2BOARD block is open.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Parses one line. Usually yields zero (blank line, line inside a block) or one
    /// command; two when a command word interrupts an unfinished block.
    pub fn feed(&mut self, line: &str) -> Vec<Command> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let Some(block) = self.block.as_mut() else {
            return self.parse_command(line).into_iter().collect();
        };
        let word = split_word(line).0;
        if word != "DONE" && !COMMAND_WORDS.contains(&word.as_str()) {
            block.add_line(line);
            return Vec::new();
        }
        let Some(block) = self.block.take() else {
            return Vec::new();
        };
        if word == "DONE" {
            return vec![block.into_command()];
        }
        // A manager that forgot DONE: reject the block, then obey the new command.
        let mut out = vec![Command::Malformed {
            reason: format!("{} block not closed by DONE", block.name()),
        }];
        out.extend(self.parse_command(line));
        out
    }

    fn open(&mut self, kind: BlockKind) -> Option<Command> {
        self.block = Some(Block::new(kind));
        None
    }

    /// One command line outside a block; `None` when it only opens a block.
    fn parse_command(&mut self, line: &str) -> Option<Command> {
        let (word, rest) = split_word(line);
        let with_point = |make: fn(Point) -> Command, name: &str| match parse_point(rest) {
            Ok(p) => make(p),
            Err(e) => malformed(name, &e),
        };
        let command = match word.as_str() {
            "START" => parse_start(rest),
            "RECTSTART" => match parse_point(rest) {
                Ok(p) => Command::RectStart {
                    width: p.x,
                    height: p.y,
                },
                Err(e) => malformed("RECTSTART", &e),
            },
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "TURN" => with_point(Command::Turn, "TURN"),
            "PLAY" => with_point(Command::Play, "PLAY"),
            "TAKEBACK" => with_point(Command::Takeback, "TAKEBACK"),
            "BOARD" => return self.open(BlockKind::Board(BoardKind::Board)),
            "YXBOARD" => return self.open(BlockKind::Board(BoardKind::YxBoard)),
            "SWAP2BOARD" => return self.open(BlockKind::Swap2),
            "INFO" => Command::Info(parse_info(rest)),
            "ABOUT" => Command::About,
            "END" => Command::End,
            "YXSTOP" | "STOP" => Command::Stop,
            "YXNBEST" => parse_nbest(rest),
            "YXHASHCLEAR" => Command::HashClear,
            "YXSHOWINFO" => Command::ShowInfo,
            "YXSHOWFORBID" => Command::ShowForbid,
            "YXBLOCK" => return self.open(BlockKind::Block { undo: false }),
            "YXBLOCKUNDO" => return self.open(BlockKind::Block { undo: true }),
            "YXBLOCKRESET" => Command::BlockReset,
            "YXBALANCEONE" => parse_balance(false, rest),
            "YXBALANCETWO" => parse_balance(true, rest),
            "DONE" => malformed("DONE", "no BOARD block is open"),
            _ => Command::Unknown(excerpt(line)),
        };
        Some(command)
    }
}

/// The command word in upper case and the trimmed rest of the line.
fn split_word(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.find(|c: char| c.is_whitespace()) {
        Some(i) => (line[..i].to_ascii_uppercase(), line[i..].trim()),
        None => (line.to_ascii_uppercase(), ""),
    }
}

fn malformed(command: &str, why: &str) -> Command {
    Command::Malformed {
        reason: format!("{command}: {why}"),
    }
}

fn parse_start(rest: &str) -> Command {
    match parse_int(rest) {
        Some(size) => Command::Start { size },
        None => malformed("START", &format!("bad board size '{}'", excerpt(rest))),
    }
}

/// Most lines YXNBEST may ask for: more than a 32x32 board has squares is pointless.
const MAX_NBEST: i64 = 1024;

fn parse_nbest(rest: &str) -> Command {
    match parse_int(rest) {
        Some(n) if n >= 1 => Command::NBest(n.min(MAX_NBEST) as u32),
        _ => malformed(
            "YXNBEST",
            &format!("expected a count of 1 or more, got '{}'", excerpt(rest)),
        ),
    }
}

fn parse_balance(two: bool, rest: &str) -> Command {
    let name = if two { "YXBALANCETWO" } else { "YXBALANCEONE" };
    match parse_int(rest) {
        Some(bias) => Command::Balance { two, bias },
        None => malformed(name, &format!("expected a bias, got '{}'", excerpt(rest))),
    }
}

/// An integer, saturating at the i64 range (Rapfi-style managers send 2^64-1 for "no limit").
fn parse_int(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(v) = text.parse::<i64>() {
        return Some(v);
    }
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    })
}

/// `x,y` with optional spaces around the numbers.
pub fn parse_point(text: &str) -> Result<Point, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(format!("expected x,y but got '{}'", excerpt(text)));
    }
    parse_coords(&parts)
}

fn parse_coords(parts: &[&str]) -> Result<Point, String> {
    let num = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("bad number '{}'", excerpt(s.trim())))
    };
    Ok(Point {
        x: num(parts[0])?,
        y: num(parts[1])?,
    })
}

/// `x,y,field` with optional spaces.
fn parse_board_line(text: &str) -> Result<BoardLine, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 3 {
        return Err("expected x,y,field".to_string());
    }
    let at = parse_coords(&parts[..2])?;
    let field = match parts[2].trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Blocked,
        other => return Err(format!("bad field '{}'", excerpt(other))),
    };
    Ok(BoardLine { at, field })
}

/// A YXBLOCK line: `x,y`, or `x,y,field` as Rapfi also reads it (the field is ignored).
fn parse_block_line(text: &str) -> Result<Point, String> {
    let parts: Vec<&str> = text.split(',').collect();
    match parts.len() {
        2 => parse_coords(&parts),
        3 => parse_coords(&parts[..2]),
        _ => Err("expected x,y".to_string()),
    }
}

fn parse_info(rest: &str) -> Info {
    let (key, value) = split_word(rest);
    let key = key.to_ascii_lowercase();
    let number = |make: fn(i64) -> Info| match parse_int(value) {
        Some(v) => make(v),
        None => Info::BadValue {
            key: key.clone(),
            value: excerpt(value),
        },
    };
    match key.as_str() {
        "timeout_turn" => number(Info::TimeoutTurn),
        "timeout_match" => number(Info::TimeoutMatch),
        "time_left" => number(Info::TimeLeft),
        "max_memory" => number(Info::MaxMemory),
        "game_type" => number(Info::GameType),
        "rule" => number(Info::Rule),
        "max_depth" => number(Info::MaxDepth),
        "max_node" => number(Info::MaxNode),
        "thread_num" => number(Info::ThreadNum),
        "hash_size" => number(Info::HashSize),
        "level" => number(Info::Level),
        "seed" => number(Info::Seed),
        "nn" => number(Info::Nn),
        "folder" => Info::Folder(value.to_string()),
        "evaluate" => Info::Evaluate(value.to_string()),
        _ => Info::Unknown(key),
    }
}

/// A short, printable, single-line, ASCII piece of manager input for error messages.
pub fn excerpt(text: &str) -> String {
    const MAX_CHARS: usize = 60;
    let clean: String = text
        .chars()
        // ASCII only: managers on Windows decode our output in a legacy code page.
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .take(MAX_CHARS + 1)
        .collect();
    if clean.chars().count() > MAX_CHARS {
        let cut: String = clean.chars().take(MAX_CHARS).collect();
        format!("{cut}...")
    } else {
        clean
    }
}
