//! Parser tests: every command, letter case, spacing, blocks and bad input.

use super::*;

fn parse_one(line: &str) -> Command {
    let mut p = Parser::new();
    let mut out = p.feed(line);
    assert_eq!(out.len(), 1, "{line:?} gave {out:?}");
    out.remove(0)
}

fn parse_all(lines: &[&str]) -> Vec<Command> {
    let mut p = Parser::new();
    lines.iter().flat_map(|l| p.feed(l)).collect()
}

fn pt(x: i64, y: i64) -> Point {
    Point { x, y }
}

fn is_malformed(c: &Command) -> bool {
    matches!(c, Command::Malformed { .. })
}

#[test]
fn simple_commands_in_any_case() {
    assert_eq!(parse_one("START 15"), Command::Start { size: 15 });
    assert_eq!(parse_one("start 20"), Command::Start { size: 20 });
    assert_eq!(parse_one("Begin"), Command::Begin);
    assert_eq!(parse_one("restart"), Command::Restart);
    assert_eq!(parse_one("about"), Command::About);
    assert_eq!(parse_one("END"), Command::End);
    assert_eq!(parse_one("yxstop"), Command::Stop);
    assert_eq!(parse_one("STOP"), Command::Stop);
}

#[test]
fn point_commands_accept_spaces_after_the_comma() {
    assert_eq!(parse_one("TURN 7,8"), Command::Turn(pt(7, 8)));
    assert_eq!(parse_one("turn 7, 8"), Command::Turn(pt(7, 8)));
    assert_eq!(parse_one("TURN  7 , 8 "), Command::Turn(pt(7, 8)));
    assert_eq!(parse_one("PLAY 0,14"), Command::Play(pt(0, 14)));
    assert_eq!(parse_one("takeback 3,4"), Command::Takeback(pt(3, 4)));
    assert_eq!(
        parse_one("RECTSTART 20,15"),
        Command::RectStart {
            width: 20,
            height: 15
        }
    );
}

#[test]
fn off_board_numbers_are_parsed_for_the_session_to_reject() {
    assert_eq!(parse_one("TURN -1,99"), Command::Turn(pt(-1, 99)));
    assert_eq!(parse_one("START -1"), Command::Start { size: -1 });
    assert_eq!(parse_one("START 1000"), Command::Start { size: 1000 });
}

#[test]
fn bad_arguments_are_malformed_not_unknown() {
    for line in [
        "START",
        "START abc",
        "START 15 16",
        "TURN",
        "TURN 7",
        "TURN 7,8,9",
        "TURN a,b",
        "TURN 7 8",
        "TURN 99999999999999999999,1",
        "RECTSTART 20",
        "RECTSTART x,15",
        "TAKEBACK",
        "PLAY 1;2",
        "DONE",
    ] {
        assert!(is_malformed(&parse_one(line)), "{line}");
    }
}

#[test]
fn unknown_commands_keep_a_printable_excerpt() {
    assert_eq!(parse_one("FOO bar"), Command::Unknown("FOO bar".into()));
    assert_eq!(parse_one("7,7,1"), Command::Unknown("7,7,1".into()));
    match parse_one("ST\0ART 15") {
        Command::Unknown(text) => assert_eq!(text, "ST?ART 15"),
        other => panic!("{other:?}"),
    }
    match parse_one("X\u{fffd}\u{e9}") {
        Command::Unknown(text) => assert_eq!(text, "X??"),
        other => panic!("{other:?}"),
    }
    let long = "X".repeat(100_000);
    match parse_one(&long) {
        Command::Unknown(text) => assert!(text.len() < 100),
        other => panic!("{other:?}"),
    }
}

#[test]
fn blank_lines_are_ignored() {
    assert!(parse_all(&["", "   ", "\t"]).is_empty());
}

#[test]
fn info_keys_in_any_case_with_i64_values() {
    assert_eq!(
        parse_one("INFO timeout_turn 1000"),
        Command::Info(Info::TimeoutTurn(1000))
    );
    assert_eq!(
        parse_one("info TIMEOUT_MATCH 0"),
        Command::Info(Info::TimeoutMatch(0))
    );
    assert_eq!(
        parse_one("INFO time_left -50"),
        Command::Info(Info::TimeLeft(-50))
    );
    assert_eq!(
        parse_one("INFO max_memory 367001600"),
        Command::Info(Info::MaxMemory(367_001_600))
    );
    assert_eq!(parse_one("INFO Rule 4"), Command::Info(Info::Rule(4)));
    assert_eq!(
        parse_one("INFO game_type 1"),
        Command::Info(Info::GameType(1))
    );
    assert_eq!(
        parse_one("INFO max_depth 6"),
        Command::Info(Info::MaxDepth(6))
    );
    assert_eq!(
        parse_one("INFO thread_num 2"),
        Command::Info(Info::ThreadNum(2))
    );
    assert_eq!(parse_one("INFO LEVEL 3"), Command::Info(Info::Level(3)));
    assert_eq!(parse_one("INFO seed 42"), Command::Info(Info::Seed(42)));
    assert_eq!(
        parse_one("INFO max_node 18446744073709551615"),
        Command::Info(Info::MaxNode(i64::MAX))
    );
}

#[test]
fn info_folder_keeps_the_rest_of_the_line() {
    assert_eq!(
        parse_one(r"INFO folder C:\Program Data\brains x"),
        Command::Info(Info::Folder(r"C:\Program Data\brains x".into()))
    );
    assert_eq!(
        parse_one("INFO evaluate 7,7"),
        Command::Info(Info::Evaluate("7,7".into()))
    );
}

#[test]
fn info_bad_and_unknown_values_are_marked() {
    assert!(matches!(
        parse_one("INFO timeout_turn soon"),
        Command::Info(Info::BadValue { .. })
    ));
    assert!(matches!(
        parse_one("INFO timeout_turn"),
        Command::Info(Info::BadValue { .. })
    ));
    assert_eq!(
        parse_one("INFO caution_factor 3"),
        Command::Info(Info::Unknown("caution_factor".into()))
    );
    assert_eq!(
        parse_one("INFO"),
        Command::Info(Info::Unknown(String::new()))
    );
}

#[test]
fn board_block_is_one_command_at_done() {
    let out = parse_all(&["board", "7,7,1", "8, 8, 2", "", "9,9,3", "done"]);
    assert_eq!(
        out,
        vec![Command::Board {
            kind: BoardKind::Board,
            lines: vec![
                BoardLine {
                    at: pt(7, 7),
                    field: Field::Own
                },
                BoardLine {
                    at: pt(8, 8),
                    field: Field::Opponent
                },
                BoardLine {
                    at: pt(9, 9),
                    field: Field::Blocked
                },
            ],
            errors: vec![],
        }]
    );
}

#[test]
fn empty_board_and_yxboard() {
    assert_eq!(
        parse_all(&["BOARD", "DONE"]),
        vec![Command::Board {
            kind: BoardKind::Board,
            lines: vec![],
            errors: vec![]
        }]
    );
    let out = parse_all(&["YXBOARD", "1,1,1", "DONE"]);
    assert!(matches!(
        &out[..],
        [Command::Board {
            kind: BoardKind::YxBoard,
            ..
        }]
    ));
}

#[test]
fn bad_board_lines_are_collected_not_dropped() {
    let out = parse_all(&[
        "BOARD", "7,7,1", "7,7", "8,8,5", "-1,x,1", "garbage", "DONE",
    ]);
    match &out[..] {
        [Command::Board { lines, errors, .. }] => {
            assert_eq!(lines.len(), 1);
            assert_eq!(errors.len(), 4);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_command_inside_a_block_abandons_it() {
    let mut p = Parser::new();
    assert!(p.feed("BOARD").is_empty());
    assert!(p.feed("7,7,1").is_empty());
    assert!(p.in_block());
    let out = p.feed("TURN 1,1");
    assert!(is_malformed(&out[0]));
    assert_eq!(out[1], Command::Turn(pt(1, 1)));
    assert!(!p.in_block());
}

#[test]
fn swap2board_collects_points() {
    assert_eq!(
        parse_all(&["SWAP2BOARD", "DONE"]),
        vec![Command::Swap2Board {
            stones: vec![],
            errors: vec![]
        }]
    );
    assert_eq!(
        parse_all(&["swap2board", "7,7", "8,7", "9, 9", "done"]),
        vec![Command::Swap2Board {
            stones: vec![pt(7, 7), pt(8, 7), pt(9, 9)],
            errors: vec![]
        }]
    );
    let out = parse_all(&["SWAP2BOARD", "7,7,1", "DONE"]);
    assert!(matches!(&out[..], [Command::Swap2Board { errors, .. }] if errors.len() == 1));
}

#[test]
fn huge_blocks_are_capped() {
    let mut p = Parser::new();
    p.feed("BOARD");
    for _ in 0..10_000 {
        p.feed("1,1,1");
    }
    match &p.feed("DONE")[..] {
        [Command::Board { lines, errors, .. }] => {
            assert!(lines.len() <= 4096);
            assert_eq!(errors, &vec!["too many lines in block".to_string()]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn move_commands_are_flagged() {
    assert!(Command::Begin.expects_move());
    assert!(Command::Turn(pt(1, 1)).expects_move());
    assert!(!Command::Start { size: 15 }.expects_move());
    assert!(!Command::Board {
        kind: BoardKind::YxBoard,
        lines: vec![],
        errors: vec![]
    }
    .expects_move());
}

#[test]
fn yixin_commands_parse_in_any_case() {
    assert_eq!(parse_one("YXNBEST 3"), Command::NBest(3));
    assert_eq!(parse_one("yxnbest  1 "), Command::NBest(1));
    assert_eq!(parse_one("YXNBEST 99999999"), Command::NBest(1024));
    assert_eq!(parse_one("yxhashclear"), Command::HashClear);
    assert_eq!(parse_one("YXSHOWINFO"), Command::ShowInfo);
    assert_eq!(parse_one("YxShowForbid"), Command::ShowForbid);
    assert_eq!(parse_one("YXBLOCKRESET"), Command::BlockReset);
    for bad in ["YXNBEST", "YXNBEST 0", "YXNBEST -2", "YXNBEST x"] {
        assert!(is_malformed(&parse_one(bad)), "{bad}");
    }
}

#[test]
fn yxnbest_expects_a_move() {
    assert!(Command::NBest(2).expects_move());
    assert!(!Command::ShowForbid.expects_move());
}

#[test]
fn yxblock_blocks_collect_points_until_done() {
    let out = parse_all(&["yxblock", "7,7", "8, 9", "1,2,1", "DONE"]);
    assert_eq!(
        out,
        vec![Command::Block {
            undo: false,
            points: vec![pt(7, 7), pt(8, 9), pt(1, 2)],
            errors: vec![],
        }]
    );
    let out = parse_all(&["YXBLOCKUNDO", "3,4", "done"]);
    assert_eq!(
        out,
        vec![Command::Block {
            undo: true,
            points: vec![pt(3, 4)],
            errors: vec![],
        }]
    );
}

#[test]
fn bad_yxblock_lines_are_reported_and_a_command_ends_an_open_block() {
    let out = parse_all(&["YXBLOCK", "7", "a,b", "DONE"]);
    let Command::Block { points, errors, .. } = &out[0] else {
        panic!("{out:?}");
    };
    assert!(points.is_empty());
    assert_eq!(errors.len(), 2, "{errors:?}");
    let out = parse_all(&["YXBLOCK", "7,7", "YXNBEST 2"]);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(is_malformed(&out[0]));
    assert_eq!(out[1], Command::NBest(2));
}

#[test]
fn hash_size_is_a_numeric_info_key() {
    assert_eq!(
        parse_one("INFO hash_size 65536"),
        Command::Info(Info::HashSize(65536))
    );
    assert_eq!(
        parse_one("INFO HASH_SIZE 1"),
        Command::Info(Info::HashSize(1))
    );
    assert!(matches!(
        parse_one("INFO hash_size lots"),
        Command::Info(Info::BadValue { .. })
    ));
}

#[test]
fn balance_commands_take_a_bias() {
    assert_eq!(
        parse_one("YXBALANCEONE 0"),
        Command::Balance {
            two: false,
            bias: 0
        }
    );
    assert_eq!(
        parse_one("yxbalancetwo -150"),
        Command::Balance {
            two: true,
            bias: -150
        }
    );
    assert!(Command::Balance { two: true, bias: 0 }.expects_move());
    for bad in ["YXBALANCEONE", "YXBALANCETWO x"] {
        assert!(is_malformed(&parse_one(bad)), "{bad}");
    }
}
