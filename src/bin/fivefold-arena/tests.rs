//! End-to-end tests: real child processes (tiny shell brains) over the real protocol.

use super::*;
use crate::game::GameResult;
use std::os::unix::fs::PermissionsExt;
use std::time::Instant;

/// A brain that plays `x,ROW` for x = 0, 1, 2, ... and misbehaves on request.
const FAKE_BRAIN: &str = r#"#!/bin/sh
row=$1; mode=${2:-ok}; x=0; starts=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*)
      starts=$((starts+1))
      if [ "$mode" = startonce ] && [ $starts -gt 1 ]; then echo "ERROR Unknown command: 15"
      else echo OK; fi;;
    BEGIN|TURN*|DONE)
      case "$mode" in
        hang) exec sleep 30;;
        crash) exit 3;;
        garbage) echo "hello there";;
        suggest) echo "SUGGEST $x,$row";;
        occupied) echo "0,0";;
        chatty|startonce) echo "MESSAGE pid $$"; echo "DEBUG x=$x"; echo "$x,$row";;
        *) echo "$x,$row";;
      esac
      x=$((x+1));;
    END) exit 0;;
  esac
done
"#;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("fivefold-arena-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let brain = dir.join("fake.sh");
        std::fs::write(&brain, FAKE_BRAIN).unwrap();
        std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755)).unwrap();
        TempDir(dir)
    }

    fn brain(&self, args: &str) -> String {
        format!("{} {args}", self.0.join("fake.sh").display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn setup(dir: &TempDir, a: &str, b: &str, games: usize) -> MatchSetup {
    let spec = |name: &str, cmd: String| EngineSpec {
        name: name.to_string(),
        cmd,
        infos: vec![],
        turn_ms: None,
    };
    MatchSetup {
        engines: [spec("A", dir.brain(a)), spec("B", dir.brain(b))],
        rules: GameRules {
            limits: Limits {
                size: 15,
                rule_bits: 0,
                turn_ms: 400,
                match_ms: 0,
                tolerance_ms: 200,
                max_memory: 0,
                threads: None,
                start_timeout_ms: 3000,
                reuse: false,
                stderr_dir: None,
            },
            max_moves: None,
        },
        games,
        openings: vec![],
        concurrency: 1,
        sprt: None,
        force_trinomial: false,
        out_dir: Some(dir.0.join("out")),
        write_psq: true,
        log_dir: Some(dir.0.join("logs")),
        progress: false,
        per_game_lines: false,
    }
}

fn run(s: &MatchSetup) -> Summary {
    let stop = AtomicBool::new(false);
    runner::run_match(s, &stop).expect("match runs")
}

#[test]
fn short_match_between_fake_brains_is_adjudicated_and_recorded() {
    let dir = TempDir::new("short");
    let s = setup(&dir, "0", "1", 2);
    let sum = run(&s);
    // Black fills row 0 (or 1) first in both games: each engine wins once, as black.
    assert_eq!(
        (sum.tally.wins, sum.tally.losses, sum.tally.draws),
        (1, 1, 0)
    );
    assert_eq!(sum.tally.pairs, [0, 0, 1, 0, 0]);
    assert_eq!(sum.black_wins, 2);
    assert_eq!(sum.reasons[0].2, "black wins by five");
    assert_eq!(sum.stats[0].moves, 5 + 4);
    let games = std::fs::read_to_string(dir.0.join("out/games.txt")).unwrap();
    let first = games.lines().find(|l| l.starts_with("#1 ")).unwrap();
    assert!(
        first.ends_with("result=1-0 reason=\"black wins by five\" opening=none moves=0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0"),
        "{first}"
    );
    let psq = std::fs::read_to_string(dir.0.join("out/psq/game-0002.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n1,2,"), "{psq}");
    let log = std::fs::read_to_string(dir.0.join("logs/game-0001-black-A.log")).unwrap();
    let expected = [
        "> START 15",
        "< OK",
        "> INFO rule 0",
        "> INFO timeout_turn 400",
    ];
    assert!(log.starts_with(&expected.join("\n")), "{log}");
    assert!(log.contains("> BEGIN\n< 0,0\n"), "{log}");
    let white_log = std::fs::read_to_string(dir.0.join("logs/game-0001-white-B.log")).unwrap();
    assert!(white_log.contains("> TURN 0,0\n< 0,1\n"), "{white_log}");
}

fn single_game_against(mode: &str) -> (Summary, std::time::Duration) {
    let dir = TempDir::new(mode);
    let s = setup(&dir, "0", &format!("1 {mode}"), 1);
    let started = Instant::now();
    let sum = run(&s);
    (sum, started.elapsed())
}

#[test]
fn misbehaving_engines_lose_by_forfeit() {
    let cases = [
        ("hang", "white loses: timeout (no move within 600 ms)"),
        ("crash", "white loses: crash (output closed)"),
        (
            "garbage",
            "white loses: illegal move (`hello there` is not x,y)",
        ),
        (
            "suggest",
            "white loses: illegal move (`SUGGEST 0,1`: SUGGEST is not supported)",
        ),
        ("occupied", "white loses: illegal move (0,0 is occupied)"),
    ];
    for (mode, reason) in cases {
        let (sum, took) = single_game_against(mode);
        assert_eq!(sum.reasons.len(), 1, "{mode}");
        assert_eq!(sum.reasons[0].1, GameResult::BlackWins, "{mode}");
        assert_eq!(sum.reasons[0].2, reason, "{mode}");
        let b = &sum.stats[1];
        let counts = (b.timeouts, b.crashes, b.illegal);
        let want = match mode {
            "hang" => (1, 0, 0),
            "crash" => (0, 1, 0),
            _ => (0, 0, 1),
        };
        assert_eq!(counts, want, "{mode}");
        assert!(took.as_secs() < 5, "{mode} took {took:?}");
    }
}

/// A game's protocol transcript of engine A (`game-0001-black-A.log` and so on).
fn game_log(dir: &TempDir, file: &str) -> String {
    std::fs::read_to_string(dir.0.join("logs").join(file)).unwrap()
}

/// The fake brain's `MESSAGE pid N` line in a transcript: which process played.
fn pid_line(log: &str) -> Option<String> {
    log.lines()
        .find(|l| l.starts_with("< MESSAGE pid"))
        .map(str::to_string)
}

/// Two games with engine A started as `a` and both processes reused; A wins one.
fn reused_match(dir: &TempDir, a: &str) {
    let mut s = setup(dir, a, "1", 2);
    s.rules.limits.reuse = true;
    let sum = run(&s);
    assert_eq!((sum.tally.wins, sum.tally.losses), (1, 1));
}

#[test]
fn chatter_is_skipped_and_reuse_keeps_one_process() {
    let dir = TempDir::new("reuse");
    reused_match(&dir, "0 chatty");
    let pids: Vec<String> = ["game-0001-black-A.log", "game-0002-white-A.log"]
        .iter()
        .map(|f| {
            let log = game_log(&dir, f);
            assert!(log.contains("> START 15"), "{log}");
            pid_line(&log).unwrap()
        })
        .collect();
    assert_eq!(pids[0], pids[1], "reused engine must keep its process");
}

#[test]
fn a_reused_process_that_fails_start_is_replaced() {
    let dir = TempDir::new("restart");
    reused_match(&dir, "0 startonce");
    let log = game_log(&dir, "game-0002-white-A.log");
    assert!(log.contains("< ERROR Unknown command: 15"), "{log}");
    let pid = pid_line(&log).expect("game 2's process");
    assert!(
        !game_log(&dir, "game-0001-black-A.log").contains(&pid),
        "game 2 must be played by a fresh process"
    );
}

#[test]
fn fresh_processes_differ_between_games() {
    let dir = TempDir::new("fresh");
    let s = setup(&dir, "0 chatty", "1", 2);
    run(&s);
    let pid = |f: &str| pid_line(&game_log(&dir, f));
    assert_ne!(pid("game-0001-black-A.log"), pid("game-0002-white-A.log"));
}

#[test]
fn openings_are_sent_as_board_with_colours_swapped() {
    let dir = TempDir::new("openings");
    let mut s = setup(&dir, "0", "1", 2);
    // Three stones far from rows 0 and 1: white (the second engine to move) is to move.
    s.openings = vec![vec![(10, 10), (11, 11), (12, 10)]];
    let sum = run(&s);
    let log = std::fs::read_to_string(dir.0.join("logs/game-0001-white-B.log")).unwrap();
    assert!(
        log.contains("> BOARD\n> 10,10,2\n> 11,11,1\n> 12,10,2\n> DONE\n"),
        "{log}"
    );
    let black_log = std::fs::read_to_string(dir.0.join("logs/game-0001-black-A.log")).unwrap();
    assert!(!black_log.contains("BEGIN"), "{black_log}");
    assert!(black_log.contains("> BOARD\n"), "{black_log}");
    // White moves first after the opening, so white completes its row first in both games.
    assert_eq!(sum.white_wins, 2);
    assert_eq!((sum.tally.wins, sum.tally.losses), (1, 1));
    let games = std::fs::read_to_string(dir.0.join("out/games.txt")).unwrap();
    assert!(
        games.contains("opening=0/3 moves=10,10 11,11 12,10 0,1"),
        "{games}"
    );
}

#[test]
fn sprt_stops_once_decided() {
    let dir = TempDir::new("sprt");
    // B answers garbage, so A wins every game and H1 must be accepted within a few pairs.
    let mut s = setup(&dir, "0", "1 garbage", 400);
    s.sprt = Some(SprtParams::parse("0,50").unwrap());
    s.log_dir = None;
    let sum = run(&s);
    let (llr, verdict) = sum.sprt.unwrap();
    assert_eq!(verdict, Verdict::AcceptH1);
    assert!(sum.stopped_early);
    // A run of won pairs is needed (not one lucky game), but far fewer than 400 games.
    assert!(
        (8..100).contains(&sum.tally.games()),
        "{}",
        sum.tally.games()
    );
    assert!(llr >= s.sprt.unwrap().upper_bound());
}

#[test]
fn names_come_from_the_program_not_the_interpreter() {
    assert_eq!(
        name_from_command("python3 /work/shared/opponents/seed002_brain.py --level easy"),
        "seed002_brain"
    );
    assert_eq!(name_from_command("wine /x/pbrain-foo.exe"), "pbrain-foo");
    assert_eq!(
        name_from_command("target/release/pbrain-fivefold"),
        "pbrain-fivefold"
    );
}
