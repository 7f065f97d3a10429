//! The Yixin extensions through the real parser and session, command by command.

use super::super::Session;
use crate::game::Move;

use super::super::tests::talk;

fn game(size: usize, rule: u32) -> Session {
    let mut s = Session::new();
    let setup =
        format!("INFO max_memory 52428800\nINFO timeout_turn 300\nINFO rule {rule}\nSTART {size}");
    assert_eq!(talk(&mut s, &setup), vec!["OK"]);
    s
}

fn parse_move(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// `NBEST rank x,y score S depth D` lines: (rank, move, score text).
fn nbest_lines(out: &[String]) -> Vec<(usize, (usize, usize), String)> {
    out.iter()
        .filter_map(|l| l.strip_prefix("MESSAGE NBEST "))
        .map(|rest| {
            let w: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!((w[2], w[4]), ("score", "depth"), "{rest}");
            let rank = w[0].parse().expect("rank");
            (rank, parse_move(w[1]).expect("move"), w[3].to_string())
        })
        .collect()
}

fn last_move(out: &[String]) -> (usize, usize) {
    parse_move(out.last().expect("a reply")).unwrap_or_else(|| panic!("no move: {out:?}"))
}

/// Black (us, field 1) has an open four on row 7, (3..=6,7); White has four stones
/// scattered far away. Black's five squares are (2,7) and (7,7).
const OPEN_FOUR: &str = "YXBOARD\n3,7,1\n0,0,2\n4,7,1\n14,0,2\n5,7,1\n0,14,2\n6,7,1\n14,14,2\nDONE";

#[test]
fn nbest_lists_distinct_legal_moves_best_first_then_plays_the_first() {
    let mut s = game(15, 0);
    talk(&mut s, "YXBOARD\n7,7,1\n8,8,2\n8,7,1\n6,6,2\nDONE");
    let before = s.board().unwrap().stone_count();
    let out = talk(&mut s, "YXNBEST 3");
    let lines = nbest_lines(&out);
    assert_eq!(lines.len(), 3, "{out:?}");
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3]);
    let moves: Vec<(usize, usize)> = lines.iter().map(|l| l.1).collect();
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
    let scores: Vec<i32> = lines.iter().map(|l| l.2.parse().expect("plain")).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(last_move(&out), moves[0]);
    let b = s.board().unwrap();
    assert_eq!(b.stone_count(), before + 1);
    assert_eq!(b.last_move(), Some(Move::from_xy(moves[0].0, moves[0].1)));
}

#[test]
fn nbest_ranks_both_fives_as_wins_and_the_rest_as_losses() {
    let mut s = game(15, 0);
    talk(&mut s, OPEN_FOUR);
    let out = talk(&mut s, "YXNBEST 3");
    let lines = nbest_lines(&out);
    assert_eq!(lines.len(), 3, "{out:?}");
    let fives = [(2, 7), (7, 7)];
    assert!(
        fives.contains(&lines[0].1) && fives.contains(&lines[1].1),
        "{out:?}"
    );
    assert!(lines[0].2.starts_with("win") && lines[1].2.starts_with("win"));
    assert!(!fives.contains(&lines[2].1));
    assert!(fives.contains(&last_move(&out)));
}

#[test]
fn nbest_stops_when_no_square_is_left() {
    let mut s = game(5, 0);
    // 25 squares, 22 stones in a pattern with no five for anyone: three empty squares.
    let mut board = String::from("YXBOARD\n");
    let mut n = 0;
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) == (0, 0) || (x, y) == (4, 4) || (x, y) == (2, 2) {
                continue;
            }
            let field = if (x + 2 * y) % 4 < 2 { 1 } else { 2 };
            board.push_str(&format!("{x},{y},{field}\n"));
            n += 1;
        }
    }
    board.push_str("DONE");
    assert_eq!(n, 22);
    assert!(talk(&mut s, &board).is_empty());
    let out = talk(&mut s, "YXNBEST 10");
    let lines = nbest_lines(&out);
    assert!(!lines.is_empty() && lines.len() <= 3, "{out:?}");
    let mut moves: Vec<_> = lines.iter().map(|l| l.1).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), lines.len());
    last_move(&out);
}

#[test]
fn nbest_without_a_game_or_with_a_bad_count_is_an_error() {
    let mut s = Session::new();
    let out = talk(&mut s, "YXNBEST 2");
    assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{out:?}");
    let mut s = game(15, 0);
    for bad in ["YXNBEST 0", "YXNBEST", "YXNBEST two"] {
        let out = talk(&mut s, bad);
        assert!(
            out.len() == 1 && out[0].starts_with("ERROR "),
            "{bad}: {out:?}"
        );
    }
    assert_eq!(s.board().unwrap().stone_count(), 0);
}

#[test]
fn blocked_squares_are_never_played_until_undone_or_reset() {
    let mut s = game(15, 0);
    talk(&mut s, OPEN_FOUR);
    assert!(talk(&mut s, "YXBLOCK\n2,7\nDONE").is_empty());
    let out = talk(&mut s, "YXNBEST 1");
    assert_eq!(last_move(&out), (7, 7), "{out:?}");
    // Both fives blocked: anything else.
    talk(&mut s, &format!("{OPEN_FOUR}\nYXBLOCK\n7,7\nDONE"));
    let m = last_move(&talk(&mut s, "YXNBEST 1"));
    assert!(m != (2, 7) && m != (7, 7), "{m:?}");
    // Undo one of them: it is played again (BOARD moves as well).
    talk(&mut s, "YXBLOCKUNDO\n7,7\nDONE");
    let board_cmd = OPEN_FOUR.replacen("YXBOARD", "BOARD", 1);
    assert_eq!(last_move(&talk(&mut s, &board_cmd)), (7, 7));
    talk(&mut s, "YXBLOCKRESET");
    let m = last_move(&talk(&mut s, &board_cmd));
    assert!(m == (2, 7) || m == (7, 7), "{m:?}");
}

#[test]
fn a_new_game_forgets_the_blocked_squares() {
    let mut s = game(15, 0);
    talk(&mut s, "YXBLOCK\n2,7\n7,7\nDONE");
    assert_eq!(talk(&mut s, "START 15"), vec!["OK"]);
    let board_cmd = OPEN_FOUR.replacen("YXBOARD", "BOARD", 1);
    let m = last_move(&talk(&mut s, &board_cmd));
    assert!(m == (2, 7) || m == (7, 7), "{m:?}");
}

#[test]
fn bad_yxblock_is_an_error_and_changes_nothing() {
    let mut s = Session::new();
    let out = talk(&mut s, "YXBLOCK\n2,7\nDONE");
    assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{out:?}");
    let mut s = game(15, 0);
    talk(&mut s, "YXBLOCK\n2,7\nDONE");
    for bad in [
        "YXBLOCK\n7,7\n15,3\nDONE",
        "YXBLOCK\n7,7\n-1,0\nDONE",
        "YXBLOCK\n7,7\nx\nDONE",
    ] {
        let out = talk(&mut s, bad);
        assert!(
            out.len() == 1 && out[0].starts_with("ERROR "),
            "{bad}: {out:?}"
        );
    }
    // (7,7) was not added by the rejected blocks; (2,7) is still blocked.
    let board_cmd = OPEN_FOUR.replacen("YXBOARD", "BOARD", 1);
    assert_eq!(last_move(&talk(&mut s, &board_cmd)), (7, 7));
}

#[test]
fn showforbid_lists_blacks_forbidden_points_in_yixin_format() {
    // GomocupJudge's renju vector: (6,8) is a double three for Black.
    let mut s = game(15, 4);
    let pos = "YXBOARD\n7,7,1\n7,8,2\n8,6,1\n8,8,2\n7,9,1\n8,5,2\n8,10,1\n8,11,2\nDONE";
    assert!(talk(&mut s, pos).is_empty());
    assert_eq!(talk(&mut s, "YXSHOWFORBID"), vec!["FORBID 0608."]);
    // With White to move the list is still Black's.
    talk(&mut s, "TAKEBACK 8,11");
    assert_eq!(talk(&mut s, "YXSHOWFORBID"), vec!["FORBID 0608."]);
    // No forbidden points under other rules, nor on an empty board.
    talk(&mut s, "INFO rule 0");
    assert_eq!(talk(&mut s, "YXSHOWFORBID"), vec!["FORBID ."]);
    let mut s = game(15, 4);
    assert_eq!(talk(&mut s, "yxshowforbid"), vec!["FORBID ."]);
    let out = talk(&mut Session::new(), "YXSHOWFORBID");
    assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{out:?}");
}

#[test]
fn showinfo_names_the_engine_and_its_limits() {
    let out = talk(&mut Session::new(), "YXSHOWINFO");
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("MESSAGE Fivefold "));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(out[1], format!("MESSAGE INFO MAX_THREAD_NUM {cores}"));
    assert_eq!(out[2], "MESSAGE INFO MAX_HASH_SIZE 20");
}

/// Nodes of the last depth line a BOARD search printed.
fn nodes_of(out: &[String]) -> u64 {
    let line = out
        .iter()
        .rev()
        .find(|l| l.starts_with("MESSAGE depth "))
        .unwrap_or_else(|| panic!("no depth line: {out:?}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "nodes").expect("nodes");
    w[i + 1].parse().expect("a count")
}

#[test]
fn hashclear_makes_the_next_search_start_from_scratch() {
    // Quiet enough that no root VCF or VCT settles it before the main search.
    let position = "BOARD\n7,7,1\n8,8,2\n8,7,1\n6,6,2\nDONE";
    let setup = "INFO timeout_turn 60000\nINFO max_depth 5";
    let mut fresh = game(15, 0);
    talk(&mut fresh, setup);
    let first = nodes_of(&talk(&mut fresh, position));
    let warm = nodes_of(&talk(&mut fresh, position));
    assert_ne!(first, warm, "the table should have helped the repeat");
    let out = talk(&mut fresh, "YXHASHCLEAR");
    assert_eq!(out, vec!["MESSAGE hash table cleared"]);
    assert_eq!(nodes_of(&talk(&mut fresh, position)), first);
    // Without a game or a search yet, it still answers.
    assert_eq!(talk(&mut Session::new(), "YXHASHCLEAR").len(), 1);
}

#[test]
fn max_depth_and_max_node_bound_the_search() {
    let mut s = game(15, 0);
    talk(&mut s, "INFO timeout_turn 60000\nINFO max_depth 3");
    let out = talk(&mut s, "BOARD\n7,7,1\n8,8,2\n8,7,1\n6,6,2\nDONE");
    let depths: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth "))
        .collect();
    assert_eq!(depths.len(), 3, "{out:?}");
    talk(&mut s, "INFO max_depth 0\nINFO max_node 5000");
    let out = talk(&mut s, "BOARD\n7,7,1\n8,8,2\n8,7,1\n6,6,2\nDONE");
    // The node limit is checked every 512 search calls.
    assert!(nodes_of(&out) <= 5000 + 1024, "{out:?}");
    last_move(&out);
}

#[test]
fn hash_size_resizes_the_table_of_a_running_session() {
    let mut s = game(15, 0);
    talk(&mut s, "BOARD\n7,7,1\nDONE");
    assert!(talk(&mut s, "INFO hash_size 2048").is_empty());
    assert_eq!(s.settings().hash_bytes(), 2 << 20);
    assert_eq!(s.searcher_hash_bytes, 2 << 20);
}
