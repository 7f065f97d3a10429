//! Session behaviour, command by command, without a process.

use super::*;
use crate::game::{Cell, Color, Move};
use crate::protocol::{BoardKind, BoardLine, Field, Info, Parser};

/// Feeds protocol text through the real parser and collects every reply line.
/// Feeds `text` through the real parser and session; the reply lines.
pub(super) fn talk(session: &mut Session, text: &str) -> Vec<String> {
    let mut parser = Parser::new();
    text.lines()
        .flat_map(|l| parser.feed(l))
        .flat_map(|cmd| session.handle(cmd))
        .map(|r| r.to_line())
        .collect()
}

/// A session in a game of `size`, with a small table and a short move time so tests
/// that search stay quick.
fn game(size: usize) -> Session {
    let mut s = Session::new();
    let out = talk(
        &mut s,
        &format!("INFO max_memory 52428800\nINFO timeout_turn 100\nSTART {size}"),
    );
    assert_eq!(out, vec!["OK"]);
    s
}

fn parse_move(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The last reply must be a move; returns it.
fn last_move(out: &[String]) -> (usize, usize) {
    let last = out.last().expect("no reply");
    parse_move(last).unwrap_or_else(|| panic!("not a move: {out:?}"))
}

fn snapshot(s: &Session) -> (u64, Vec<Move>, Color) {
    let b = s.board().expect("no board");
    (b.hash(), b.history().to_vec(), b.side_to_move())
}

/// Some empty square, so a follow-up TURN never depends on where the engine replied.
fn empty_square(s: &Session) -> (usize, usize) {
    let b = s.board().expect("no board");
    (0..b.height())
        .flat_map(|y| (0..b.width()).map(move |x| (x, y)))
        .find(|&(x, y)| b.cell_xy(x, y) == Cell::Empty)
        .expect("board is full")
}

fn is_error(out: &[String]) -> bool {
    out.len() == 1 && out[0].starts_with("ERROR ")
}

#[test]
fn start_sets_an_empty_board_of_that_size() {
    let s = game(20);
    let b = s.board().unwrap();
    assert_eq!((b.width(), b.height(), b.stone_count()), (20, 20, 0));
}

#[test]
fn bad_start_sizes_error_and_keep_the_game() {
    let mut s = game(15);
    talk(&mut s, "TURN 3,3");
    let before = snapshot(&s);
    for bad in [
        "START 4",
        "START 0",
        "START 1000",
        "START -1",
        "START abc",
        "START",
    ] {
        let out = talk(&mut s, bad);
        assert!(is_error(&out), "{bad}: {out:?}");
        assert_eq!(snapshot(&s), before, "{bad} changed the game");
    }
    let (x, y) = empty_square(&s);
    last_move(&talk(&mut s, &format!("TURN {x},{y}")));
}

#[test]
fn start_again_resets_the_game() {
    let mut s = game(15);
    talk(&mut s, "BEGIN\nTURN 0,0");
    assert_eq!(s.board().unwrap().stone_count(), 3);
    assert_eq!(talk(&mut s, "START 20"), vec!["OK"]);
    let b = s.board().unwrap();
    assert_eq!(
        (b.width(), b.stone_count(), b.side_to_move()),
        (20, 0, Color::Black)
    );
}

#[test]
fn restart_keeps_the_size() {
    let mut s = game(19);
    talk(&mut s, "BEGIN");
    assert_eq!(talk(&mut s, "RESTART"), vec!["OK"]);
    let b = s.board().unwrap();
    assert_eq!((b.width(), b.stone_count()), (19, 0));
}

#[test]
fn rectstart_sets_width_and_height_or_errors() {
    let mut s = game(15);
    assert_eq!(talk(&mut s, "RECTSTART 20,10"), vec!["OK"]);
    let b = s.board().unwrap();
    assert_eq!((b.width(), b.height()), (20, 10));
    let (x, y) = last_move(&talk(&mut s, "BEGIN"));
    assert!(x < 20 && y < 10);
    for bad in [
        "RECTSTART 4,10",
        "RECTSTART 10,1000",
        "RECTSTART -3,10",
        "RECTSTART 10",
    ] {
        assert!(is_error(&talk(&mut s, bad)), "{bad}");
    }
    assert_eq!(s.board().unwrap().width(), 20);
}

#[test]
fn commands_before_start_are_errors_not_crashes() {
    let mut s = Session::new();
    for cmd in [
        "BEGIN",
        "TURN 7,7",
        "PLAY 7,7",
        "TAKEBACK 7,7",
        "RESTART",
        "BOARD\nDONE",
        "YXBOARD\nDONE",
        "SWAP2BOARD\nDONE",
    ] {
        let out = talk(&mut s, cmd);
        assert!(is_error(&out), "{cmd}: {out:?}");
    }
    assert!(s.board().is_none());
    assert_eq!(talk(&mut s, "START 15"), vec!["OK"]);
}

#[test]
fn begin_plays_a_move_and_records_it() {
    let mut s = game(15);
    let (x, y) = last_move(&talk(&mut s, "BEGIN"));
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(x, y), Cell::Black);
    assert_eq!(b.side_to_move(), Color::White);
}

#[test]
fn turn_records_the_opponent_and_answers_on_an_empty_square() {
    let mut s = game(15);
    let (x, y) = last_move(&talk(&mut s, "TURN 7,7"));
    assert_ne!((x, y), (7, 7));
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(7, 7), Cell::Black);
    assert_eq!(b.cell_xy(x, y), Cell::White);
    assert_eq!(b.stone_count(), 2);
}

#[test]
fn bad_turns_leave_the_board_as_it_was() {
    let mut s = game(15);
    let (mx, my) = last_move(&talk(&mut s, "TURN 7,7"));
    let before = snapshot(&s);
    for bad in [
        "TURN 7,7".to_string(),
        format!("TURN {mx},{my}"),
        "TURN 15,0".into(),
        "TURN -1,3".into(),
        "TURN 3".into(),
        "TURN x,y".into(),
    ] {
        let out = talk(&mut s, &bad);
        assert!(is_error(&out), "{bad}: {out:?}");
        assert_eq!(snapshot(&s), before, "{bad}");
    }
    last_move(&talk(&mut s, "TURN 0,0"));
}

fn board_cmd(lines: &[(i64, i64, Field)]) -> Command {
    Command::Board {
        kind: BoardKind::Board,
        lines: lines
            .iter()
            .map(|&(x, y, field)| BoardLine {
                at: crate::protocol::Point { x, y },
                field,
            })
            .collect(),
        errors: vec![],
    }
}

#[test]
fn board_with_equal_counts_means_we_are_black() {
    let mut s = game(15);
    let out = talk(&mut s, "BOARD\n7,7,1\n8,8,2\nDONE");
    let (x, y) = last_move(&out);
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(7, 7), Cell::Black);
    assert_eq!(b.cell_xy(8, 8), Cell::White);
    assert_eq!(b.cell_xy(x, y), Cell::Black);
    assert_eq!(b.stone_count(), 3);
}

#[test]
fn board_with_one_more_opponent_stone_means_we_are_white() {
    let mut s = game(15);
    let out = talk(&mut s, "BOARD\n7,7,2\n8,8,1\n9,9,2\nDONE");
    let (x, y) = last_move(&out);
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(7, 7), Cell::Black);
    assert_eq!(b.cell_xy(8, 8), Cell::White);
    assert_eq!(b.cell_xy(x, y), Cell::White);
}

#[test]
fn board_in_any_order_and_odd_counts_is_accepted() {
    let mut s = game(15);
    // Three own stones and one opponent stone: field 1 taken as Black.
    let out = s.handle(board_cmd(&[
        (1, 1, Field::Own),
        (2, 2, Field::Own),
        (9, 9, Field::Opponent),
        (3, 3, Field::Own),
    ]));
    assert!(parse_move(&out.last().unwrap().to_line()).is_some());
    assert_eq!(s.board().unwrap().cell_xy(1, 1), Cell::Black);
}

#[test]
fn empty_board_block_asks_for_a_first_move() {
    let mut s = game(15);
    let (x, y) = last_move(&talk(&mut s, "BOARD\nDONE"));
    assert_eq!(s.board().unwrap().cell_xy(x, y), Cell::Black);
}

#[test]
fn field_three_blocks_a_square() {
    let mut s = game(5);
    // Block all but one square of the 5x5 board: the only legal answer is that square.
    let mut text = String::from("BOARD\n");
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (4, 4) {
                text.push_str(&format!("{x},{y},3\n"));
            }
        }
    }
    text.push_str("DONE");
    assert_eq!(last_move(&talk(&mut s, &text)), (4, 4));
    assert_eq!(s.board().unwrap().cell_xy(0, 0), Cell::Wall);
}

#[test]
fn bad_board_blocks_keep_the_previous_position() {
    let mut s = game(15);
    talk(&mut s, "TURN 7,7");
    let before = snapshot(&s);
    for bad in [
        "BOARD\n1,1,1\n1,1,2\nDONE",
        "BOARD\n1,1,1\n15,1,2\nDONE",
        "BOARD\n1,1,1\n2,2,7\nDONE",
        "BOARD\n1,1,1\ngarbage\nDONE",
        "YXBOARD\n3,3,1\n3,3,1\nDONE",
    ] {
        let out = talk(&mut s, bad);
        assert!(is_error(&out), "{bad}: {out:?}");
        assert_eq!(snapshot(&s), before, "{bad}");
    }
}

#[test]
fn board_interrupted_by_a_command_is_rejected_and_the_command_runs() {
    let mut s = game(15);
    let out = talk(&mut s, "BOARD\n1,1,1\nTURN 7,7");
    assert!(out[0].starts_with("ERROR "), "{out:?}");
    last_move(&out);
    assert_eq!(s.board().unwrap().cell_xy(1, 1), Cell::Empty);
}

#[test]
fn yxboard_sets_the_position_without_reply() {
    let mut s = game(15);
    assert!(talk(&mut s, "YXBOARD\n7,7,2\n8,8,1\n6,6,2\nDONE").is_empty());
    let b = s.board().unwrap();
    assert_eq!(b.stone_count(), 3);
    assert_eq!(b.side_to_move(), Color::White);
}

#[test]
fn takeback_removes_only_the_last_stone() {
    let mut s = game(15);
    let (x, y) = last_move(&talk(&mut s, "TURN 7,7"));
    let before = snapshot(&s);
    assert!(is_error(&talk(&mut s, "TAKEBACK 7,7")));
    assert!(is_error(&talk(&mut s, "TAKEBACK 0,0")));
    assert_eq!(snapshot(&s), before);
    assert_eq!(talk(&mut s, &format!("TAKEBACK {x},{y}")), vec!["OK"]);
    assert_eq!(talk(&mut s, "TAKEBACK 7,7"), vec!["OK"]);
    let b = s.board().unwrap();
    assert_eq!((b.stone_count(), b.side_to_move()), (0, Color::Black));
    assert!(is_error(&talk(&mut s, "TAKEBACK 7,7")));
}

#[test]
fn play_echoes_and_records_our_move() {
    let mut s = game(15);
    assert_eq!(talk(&mut s, "PLAY 3, 4"), vec!["3,4"]);
    assert_eq!(s.board().unwrap().cell_xy(3, 4), Cell::Black);
    assert!(is_error(&talk(&mut s, "PLAY 3,4")));
    assert!(is_error(&talk(&mut s, "PLAY 30,4")));
}

#[test]
fn info_never_replies_and_is_stored_before_start() {
    let mut s = Session::new();
    let out = talk(
        &mut s,
        "INFO timeout_turn 1000\nINFO time_left -5\nINFO rule 1\nINFO max_memory 0\nINFO folder C:\\x y\nINFO evaluate 1,1\nINFO bogus 3\nINFO timeout_turn soon\nINFO THREAD_NUM 2",
    );
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(s.settings().time.turn_ms, Some(1000));
    assert_eq!(s.settings().time.left_ms, Some(-5));
    assert_eq!(s.settings().folder.as_deref(), Some("C:\\x y"));
    assert_eq!(s.settings().threads, Some(2));
    talk(&mut s, "START 15");
    assert_eq!(s.board().unwrap().rule(), Rule::Standard);
}

#[test]
fn rule_change_applies_to_the_current_board() {
    let mut s = game(15);
    talk(&mut s, "TURN 7,7");
    talk(&mut s, "INFO rule 8");
    assert_eq!(s.board().unwrap().rule(), Rule::Caro);
    assert_eq!(s.board().unwrap().stone_count(), 2);
}

#[test]
fn renju_notice_comes_once_per_game_before_the_first_move() {
    let mut s = game(15);
    talk(&mut s, "INFO rule 4");
    let out = talk(&mut s, "BEGIN");
    assert_eq!(out[0], format!("MESSAGE {RENJU_NOTICE}"));
    last_move(&out);
    let out = talk(&mut s, "TURN 0,0");
    assert!(out.iter().all(|l| !l.contains(RENJU_NOTICE)), "{out:?}");
    talk(&mut s, "START 15");
    assert!(talk(&mut s, "BEGIN")[0].contains(RENJU_NOTICE));
}

#[test]
fn no_renju_notice_in_other_rules() {
    let mut s = game(15);
    let out = talk(&mut s, "BEGIN");
    assert_eq!(
        out.len(),
        1 + out.iter().filter(|l| l.starts_with("MESSAGE ")).count()
    );
    assert!(out.iter().all(|l| !l.contains(RENJU_NOTICE)));
}

#[test]
fn a_full_board_gives_an_error() {
    let mut s = game(5);
    let mut text = String::from("BOARD\n");
    for y in 0..5 {
        for x in 0..5 {
            text.push_str(&format!("{x},{y},3\n"));
        }
    }
    text.push_str("DONE");
    assert_eq!(talk(&mut s, &text), vec!["ERROR board is full"]);
    assert_eq!(talk(&mut s, "BEGIN"), vec!["ERROR board is full"]);
}

#[test]
fn unknown_and_about() {
    let mut s = Session::new();
    assert_eq!(
        talk(&mut s, "YXQUERYDATABASEALL"),
        vec!["UNKNOWN YXQUERYDATABASEALL"]
    );
    assert_eq!(talk(&mut s, "about"), vec![crate::protocol::about_line()]);
    assert!(talk(&mut s, "YXSTOP").is_empty());
}

#[test]
fn swap2_with_no_stones_proposes_three_legal_stones() {
    let mut s = game(15);
    let out = talk(&mut s, "SWAP2BOARD\nDONE");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("MESSAGE swap2: proposing"), "{out:?}");
    let moves: Vec<_> = out[1].split(' ').map(|m| parse_move(m).unwrap()).collect();
    assert_eq!(moves.len(), 3);
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(moves[0].0, moves[0].1), Cell::Black);
    assert_eq!(b.cell_xy(moves[1].0, moves[1].1), Cell::White);
    assert_eq!(b.cell_xy(moves[2].0, moves[2].1), Cell::Black);
}

/// Sends a SWAP2BOARD block and returns the answer line.
fn swap2_answer(s: &mut Session, stones: &[(usize, usize)]) -> String {
    let mut text = String::from("SWAP2BOARD\n");
    for (x, y) in stones {
        text.push_str(&format!("{x},{y}\n"));
    }
    text.push_str("DONE");
    let out = talk(s, &text);
    out.last().cloned().unwrap_or_default()
}

/// After 3 or 5 stones the answer is SWAP, one legal White move on an empty square, or
/// (after 3 only) a White and a Black stone on empty squares.
fn assert_swap_or_move(s: &mut Session, stones: &[(usize, usize)]) {
    let answer = swap2_answer(s, stones);
    if answer != "SWAP" {
        let moves: Vec<_> = answer.split(' ').map(|m| parse_move(m).unwrap()).collect();
        assert!(
            moves.len() == 1 || (moves.len() == 2 && stones.len() == 3),
            "{answer}"
        );
        for (i, m) in moves.iter().enumerate() {
            assert!(!stones.contains(m) && m.0 < 15 && m.1 < 15);
            let colour = if i == 0 { Cell::White } else { Cell::Black };
            assert_eq!(s.board().unwrap().cell_xy(m.0, m.1), colour, "{answer}");
        }
        assert_eq!(s.board().unwrap().stone_count(), stones.len() + moves.len());
    }
    assert!(s.board().unwrap().stone_count() >= stones.len());
}

#[test]
fn swap2_after_three_stones_swaps_when_worse_and_stays_when_better() {
    // Fixed nodes, so the scores do not depend on the machine's speed.
    let mut s = game(15);
    talk(&mut s, "INFO timeout_turn 30000\nINFO max_node 30000");
    // Black's two stones side by side, White's in a far corner: White swaps.
    assert_eq!(swap2_answer(&mut s, &[(7, 7), (0, 0), (8, 7)]), "SWAP");
    // Black's stones in two corners, White's in the centre: White stays and plays.
    talk(&mut s, "START 15");
    let answer = swap2_answer(&mut s, &[(0, 0), (7, 7), (14, 14)]);
    assert!(parse_move(&answer).is_some(), "{answer}");
}

#[test]
fn swap2_placing_two_adds_a_white_and_a_black_stone_and_leaves_white_to_move() {
    let mut s = game(15);
    talk(&mut s, "INFO max_node 5000");
    let stones = [(7, 7), (7, 8), (9, 7)].map(|(x, y)| crate::protocol::Point { x, y });
    let opening = swap2::opening_board(15, 15, crate::game::Rule::Freestyle, &stones);
    s.board = Some(opening.unwrap());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let ctx = Context {
        arrival: std::time::Instant::now(),
        stop: &stop,
    };
    let mut out = Vec::new();
    s.swap2_place_two(&ctx, &mut |r| out.push(r.to_line()))
        .unwrap();
    let answer = out.last().unwrap();
    let moves: Vec<_> = answer.split(' ').map(|m| parse_move(m).unwrap()).collect();
    assert_eq!(moves.len(), 2, "{out:?}");
    let b = s.board().unwrap();
    assert_eq!(b.cell_xy(moves[0].0, moves[0].1), Cell::White);
    assert_eq!(b.cell_xy(moves[1].0, moves[1].1), Cell::Black);
    assert_eq!(b.stone_count(), 5);
    assert_eq!(b.side_to_move(), crate::game::Color::White);
}

#[test]
fn swap2_with_three_or_five_stones_swaps_or_plays_a_legal_move() {
    let mut s = game(15);
    assert_swap_or_move(&mut s, &[(7, 7), (8, 8), (7, 9)]);
    talk(&mut s, "START 15");
    assert_swap_or_move(&mut s, &[(7, 7), (8, 8), (7, 9), (6, 6), (9, 7)]);
}

#[test]
fn swap2_with_a_bad_block_is_an_error_and_keeps_the_game() {
    let mut s = game(15);
    talk(&mut s, "TURN 7,7");
    let before = snapshot(&s);
    for bad in [
        "SWAP2BOARD\n1,1\nDONE",
        "SWAP2BOARD\n1,1\n1,1\n2,2\nDONE",
        "SWAP2BOARD\n1,1\n2,2\n99,2\nDONE",
        "SWAP2BOARD\n1,1,1\n2,2\n3,3\nDONE",
    ] {
        assert!(is_error(&talk(&mut s, bad)), "{bad}");
        assert_eq!(snapshot(&s), before, "{bad}");
    }
}

#[test]
fn the_stop_flag_still_gives_a_legal_move_at_once() {
    let mut s = game(15);
    talk(&mut s, "INFO timeout_turn 30000");
    let stop = AtomicBool::new(true);
    let ctx = Context {
        arrival: Instant::now(),
        stop: &stop,
    };
    let mut out = Vec::new();
    let started = Instant::now();
    s.handle_with(Command::Begin, &ctx, &mut |r| out.push(r.to_line()));
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    last_move(&out);
}

#[test]
fn zero_timeout_turn_still_moves() {
    let mut s = game(15);
    talk(&mut s, "INFO timeout_turn 0\nINFO time_left -100");
    last_move(&talk(&mut s, "TURN 7,7"));
    let _ = s.handle(Command::Info(Info::TimeLeft(2_147_483_647)));
}

/// The table is made only at a size the manager set: at START when `max_memory` came first,
/// else at the first search, at the size of the INFO block that followed START.
#[test]
fn hash_table_waits_for_the_memory_limit() {
    let mut s = Session::new();
    assert_eq!(talk(&mut s, "START 15"), vec!["OK"]);
    assert!(s.searcher.is_none(), "no table before max_memory is known");
    talk(&mut s, "INFO max_memory 67108864\nINFO timeout_turn 50");
    assert!(s.searcher.is_none());
    last_move(&talk(&mut s, "BEGIN"));
    assert_eq!(s.searcher_hash_bytes, hash_bytes_for(64 << 20));
    assert!(s.searcher.is_some());

    let mut s = Session::new();
    talk(&mut s, "INFO hash_size 4096\nSTART 15");
    assert!(s.searcher.is_some(), "made at START once the size is known");
    assert_eq!(s.searcher_hash_bytes, 4 << 20);
}

/// A large full table is made on a helper thread after the first move and installed by
/// the first search that finds it ready; until then the small one serves.
#[test]
fn a_large_table_grows_off_the_command_loop() {
    let mut s = Session::new();
    talk(&mut s, "START 15\nINFO timeout_turn 50");
    last_move(&talk(&mut s, "BEGIN"));
    let full = hash_bytes_for(0);
    assert!(full >= BACKGROUND_HASH_BYTES, "the default table is large");
    assert_eq!(s.searcher_hash_bytes, FIRST_SEARCH_HASH_BYTES);
    let (bytes, handle) = s.growing.as_ref().expect("the full table is being made");
    assert_eq!(*bytes, full);
    let waited = Instant::now();
    while !handle.is_finished() {
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "the table is made"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    last_move(&talk(&mut s, "TURN 7,8"));
    assert_eq!(s.searcher_hash_bytes, full, "installed by the next search");
    assert!(s.growing.is_none());
    // A new memory limit while one grows: the pending table is dropped, the resize done.
    let mut s = Session::new();
    talk(&mut s, "START 15\nINFO timeout_turn 50");
    last_move(&talk(&mut s, "BEGIN"));
    assert!(s.growing.is_some());
    talk(&mut s, "INFO max_memory 67108864");
    assert!(s.growing.is_none());
    assert_eq!(s.searcher_hash_bytes, hash_bytes_for(64 << 20));
    last_move(&talk(&mut s, "TURN 7,8"));
    assert_eq!(s.searcher_hash_bytes, hash_bytes_for(64 << 20));
}

/// The search result for the position after `moves` on a `size` board after the INFO
/// lines `infos`, at 3,000 nodes, in freestyle.
fn fixed_node_search(size: usize, moves: &str, infos: &str) -> crate::search::SearchResult {
    fixed_node_search_in(Rule::Freestyle, size, moves, infos)
}

/// `fixed_node_search` under `rule` (sent as `INFO rule`).
fn fixed_node_search_in(
    rule: Rule,
    size: usize,
    moves: &str,
    infos: &str,
) -> crate::search::SearchResult {
    let mut s = game(size);
    talk(
        &mut s,
        &format!(
            "INFO rule {}\n{infos}\nINFO max_node 3000\nINFO timeout_turn 30000",
            rule.bits()
        ),
    );
    let mut board = Board::new(size, size, rule);
    for m in moves.split_whitespace() {
        let (x, y) = parse_move(m).expect("a move");
        board.make(Move::from_xy(x, y));
    }
    s.board = Some(board);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let ctx = Context {
        arrival: std::time::Instant::now(),
        stop: &stop,
    };
    let limits = s.limits(ctx.arrival, None);
    s.search_current(&limits, &ctx, &[], &mut |_| {}).unwrap().1
}

#[test]
fn the_network_searches_by_default_on_the_boards_it_was_measured_on() {
    let key = |r: crate::search::SearchResult| (r.best, r.score, r.nodes);
    let moves = "7,7 8,8 7,8 7,9 6,8";
    let default = key(fixed_node_search(15, moves, ""));
    assert_eq!(default, key(fixed_node_search(15, moves, "INFO nn 1")));
    assert_ne!(default, key(fixed_node_search(15, moves, "INFO nn 0")));
    assert_ne!(default, key(fixed_node_search(15, moves, "INFO level 9")));
    let small = "4,4 5,5 4,5 4,6 3,5";
    let default = key(fixed_node_search(8, small, ""));
    assert_eq!(default, key(fixed_node_search(8, small, "INFO nn 0")));
    assert_ne!(default, key(fixed_node_search(8, small, "INFO nn 1")));
}

#[test]
fn the_network_plays_every_rule_by_default() {
    let key = |r: crate::search::SearchResult| (r.best, r.score, r.nodes);
    let moves = "7,7 8,8 7,8 7,9 6,8";
    for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
        let default = key(fixed_node_search_in(rule, 15, moves, ""));
        assert_eq!(
            default,
            key(fixed_node_search_in(rule, 15, moves, "INFO nn 1")),
            "{rule:?}"
        );
        assert_ne!(
            default,
            key(fixed_node_search_in(rule, 15, moves, "INFO nn 0")),
            "{rule:?}"
        );
    }
}
