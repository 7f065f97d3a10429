//! The board's HTTP API from outside: a real `fivefold-board` process on a free port,
//! spoken to over plain TCP so that every header (Host, Origin, sizes) is ours to choose.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Brains for the forfeit tests, as the server's `--engine` options.
const CRASH: &str = "crash=sh -c 'read l; echo OK; read l; exit 3'";
const HANG: &str = "hang=sh -c 'read l; echo OK; exec sleep 30'";
const ILLEGAL: &str = "illegal=sh -c 'read l; echo OK; while read l; do case $l in BEGIN|TURN*|DONE) echo 99,99;; esac; done'";

struct Server {
    child: Child,
    host: String,
}

/// A fresh folder for one server's results file, so no test writes to the user's.
fn temp_dir(name: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir =
        std::env::temp_dir().join(format!("fivefold-board-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Server {
        let data = temp_dir("data");
        let data = data.to_str().expect("utf-8 temp path");
        let fivefold = env!("CARGO_BIN_EXE_pbrain-fivefold");
        Server::spawn(
            &[&["--fivefold", fivefold, "--data-dir", data], extra].concat(),
            None,
        )
    }

    /// The server with these options and, if given, `XDG_DATA_HOME`.
    fn spawn(args: &[&str], xdg_data_home: Option<&std::path::Path>) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fivefold-board"));
        cmd.args(["--port", "0"])
            .args(["--engine", CRASH, "--engine", HANG, "--engine", ILLEGAL])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = xdg_data_home {
            cmd.env("XDG_DATA_HOME", dir);
        }
        let mut child = cmd.spawn().expect("fivefold-board starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("address line");
        let host = line
            .trim()
            .strip_prefix("Fivefold Board: http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, host }
    }

    /// Sends a raw request; returns the status and the body.
    fn raw(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.host).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(head.as_bytes()).unwrap();
        let _ = s.write_all(body);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn request(&self, method: &str, path: &str, extra: &str, body: &[u8]) -> (u16, String) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n",
            self.host,
            body.len()
        );
        self.raw(&head, body)
    }

    fn post(&self, action: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.request(
            "POST",
            &format!("/api/{action}"),
            "Content-Type: application/json\r\n",
            body.to_string().as_bytes(),
        );
        (status, serde_json::from_str(&text).expect("JSON reply"))
    }

    fn state(&self) -> Value {
        let (status, text) = self.request("GET", "/api/state", "", b"");
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).expect("state JSON")
    }

    /// Waits until `done` holds for the state, or fails after `secs`.
    fn wait_for(&self, secs: u64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state();
            if done(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn moves(s: &Value) -> usize {
    s["moves"].as_array().map_or(0, Vec::len)
}

fn new_game(srv: &Server, black: &str, white: &str, turn_ms: u64) -> Value {
    let (status, s) = srv.post(
        "new",
        json!({"size": 15, "rule": "freestyle", "black": black, "white": white, "turn_ms": turn_ms}),
    );
    assert_eq!(status, 200, "{s}");
    s
}

#[test]
fn serves_the_page_and_the_state() {
    let srv = Server::start();
    let (status, page) = srv.request("GET", "/", "", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Fivefold Board</title>"));
    let (status, js) = srv.request("GET", "/app.js", "", b"");
    assert_eq!(status, 200);
    assert!(js.contains("/api/state"));
    let s = srv.state();
    assert_eq!(s["size"], 15);
    assert_eq!(s["engines"][0]["name"], "Fivefold");
    assert_eq!(
        s["engines"][0]["levels"].as_array().map(Vec::len),
        Some(fivefold::levels::LEVELS.len())
    );
    assert_eq!(srv.request("GET", "/nothing", "", b"").0, 404);
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let srv = Server::start();
    new_game(&srv, "human", "human", 1000);
    let evil_host = "GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n";
    let (status, body) = srv.raw(evil_host, b"");
    assert_eq!(status, 403);
    assert!(body.contains("foreign Host"), "{body}");
    let move_body = br#"{"x":7,"y":7}"#;
    let origin = "Content-Type: application/json\r\nOrigin: http://evil.example\r\n";
    let (status, body) = srv.request("POST", "/api/move", origin, move_body);
    assert_eq!(status, 403);
    assert!(body.contains("foreign Origin"), "{body}");
    let (status, _) = srv.request(
        "POST",
        "/api/move",
        "Content-Type: text/plain\r\n",
        move_body,
    );
    assert_eq!(status, 415, "a form-style post is refused");
    assert_eq!(moves(&srv.state()), 0, "no refused request made a move");
    let own = format!(
        "Content-Type: application/json\r\nOrigin: http://{}\r\n",
        srv.host
    );
    let (status, _) = srv.request("POST", "/api/move", &own, move_body);
    assert_eq!(status, 200);
    assert_eq!(moves(&srv.state()), 1);
}

#[test]
fn oversized_and_bad_requests_keep_the_game() {
    let srv = Server::start();
    new_game(&srv, "human", "human", 1000);
    assert_eq!(srv.post("move", json!({"x": 7, "y": 7})).0, 200);
    let big = vec![b' '; 200 * 1024];
    let (status, body) = srv.request(
        "POST",
        "/api/load",
        "Content-Type: application/json\r\n",
        &big,
    );
    assert_eq!(status, 413, "{body}");
    let (status, body) = srv.request(
        "POST",
        "/api/move",
        "Content-Type: application/json\r\n",
        b"{x",
    );
    assert_eq!(status, 400);
    assert!(body.contains("bad JSON"), "{body}");
    for (action, body, why) in [
        ("move", json!({"x": 7, "y": 7}), "occupied"),
        ("move", json!({"x": 15, "y": 0}), "off the board"),
        ("move", json!({"x": "a"}), "integer"),
        (
            "seats",
            json!({"black": "engine:0:11", "white": "human"}),
            "unknown seat",
        ),
        (
            "seats",
            json!({"black": "sh -c reboot", "white": "human"}),
            "unknown seat",
        ),
        (
            "new",
            json!({"size": 40, "black": "human", "white": "human"}),
            "5..22",
        ),
        ("load", json!({"psq": "garbage"}), ".psq"),
        ("explode", json!({}), "no such action"),
    ] {
        let (status, reply) = srv.post(action, body);
        assert!((400..500).contains(&status), "{action}: {status}");
        let error = reply["error"].as_str().unwrap_or("");
        assert!(error.contains(why), "{action}: {error}");
    }
    let s = srv.state();
    assert_eq!(s["moves"], json!([[7, 7]]), "the game survived");
    assert_eq!(s["side"], "white");
}

#[test]
fn crashing_hanging_and_illegal_brains_lose() {
    let srv = Server::start();
    for (id, turn_ms, why) in [
        (1, 1000, "crash"),
        (2, 200, "timeout"),
        (3, 1000, "illegal move"),
    ] {
        new_game(&srv, &format!("engine:{id}:0"), "human", turn_ms);
        let s = srv.wait_for(10, why, |s| !s["result"].is_null());
        let reason = s["result"]["reason"].as_str().unwrap_or("");
        assert!(
            reason.starts_with("black (") && reason.contains(why),
            "{reason}"
        );
        assert_eq!(s["result"]["winner"], "white");
    }
    assert_eq!(srv.state()["size"], 15, "the server is still up");
}

#[test]
fn plays_fivefold_with_undo_redo_and_psq() {
    let srv = Server::start();
    new_game(&srv, "human", "engine:0:1", 1000);
    assert_eq!(srv.post("move", json!({"x": 7, "y": 7})).0, 200);
    let s = srv.wait_for(10, "Fivefold's reply", |s| moves(s) == 2);
    assert!(
        !s["analysis"].is_null(),
        "MESSAGE lines reach the panel: {s}"
    );
    let (status, s) = srv.post("undo", json!({}));
    assert_eq!(
        (status, moves(&s)),
        (200, 0),
        "undo goes back to the person's turn"
    );
    let (status, s) = srv.post("redo", json!({}));
    assert_eq!((status, moves(&s)), (200, 2));
    // Level 1 picks its reply at random: play a square it did not take.
    let free = [[9, 9], [5, 5]]
        .into_iter()
        .find(|sq| {
            !s["moves"]
                .as_array()
                .is_some_and(|m| m.contains(&json!(sq)))
        })
        .expect("a free square");
    let (x, y) = (free[0], free[1]);
    assert_eq!(srv.post("move", json!({"x": x, "y": y})).0, 200);
    let s = srv.wait_for(10, "the reply after TAKEBACK", |s| moves(s) == 4);
    let (status, psq) = srv.request("GET", "/api/psq", "", b"");
    assert_eq!(status, 200);
    assert!(psq.starts_with("Piskvorky 15x15,"), "{psq}");
    new_game(&srv, "human", "human", 1000);
    let (status, loaded) = srv.post("load", json!({ "psq": psq }));
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(loaded["moves"], s["moves"]);
    let (status, loaded) = srv.post("load", json!({"position": "h8i9"}));
    assert_eq!(
        (status, loaded["moves"].clone()),
        (200, json!([[7, 7], [8, 8]]))
    );
}

#[test]
fn engines_play_each_other_to_the_end() {
    let srv = Server::start();
    let (status, _) = srv.post(
        "new",
        json!({"size": 9, "rule": "freestyle", "black": "engine:0:2", "white": "engine:0:1", "turn_ms": 1000}),
    );
    assert_eq!(status, 200);
    let s = srv.wait_for(60, "the end of the game", |s| !s["result"].is_null());
    let result = &s["result"];
    if result["winner"].is_null() {
        assert_eq!(moves(&s), 81, "a draw only on a full board: {s}");
    } else {
        assert!(result["line"].as_array().map_or(0, Vec::len) >= 5, "{s}");
    }
}

/// Undo reaches a running brain as TAKEBACK: a brain behind `tee` shows what it was sent.
#[test]
fn undo_is_sent_to_brains_as_takeback() {
    let log = std::env::temp_dir().join(format!("fivefold-board-spy-{}.log", std::process::id()));
    let spy = format!(
        "spy=sh -c 'tee {} | {}'",
        log.display(),
        env!("CARGO_BIN_EXE_pbrain-fivefold")
    );
    let srv = Server::start_with(&["--engine", &spy]);
    new_game(&srv, "human", "engine:4:0", 1000);
    // Far from each other, so never a square the engine took (it answers near the stones).
    for (i, (x, y)) in [(7, 7), (3, 11), (11, 3)].into_iter().enumerate() {
        if i == 2 {
            assert_eq!(srv.post("undo", json!({})).0, 200);
        }
        assert_eq!(srv.post("move", json!({"x": x, "y": y})).0, 200);
        let want = if i == 2 { 4 } else { 2 * i + 2 };
        srv.wait_for(10, "the spy's move", |s| moves(s) == want);
    }
    let sent = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    let takebacks = sent.lines().filter(|l| l.starts_with("TAKEBACK ")).count();
    assert_eq!(takebacks, 2, "{sent}");
    assert!(sent.lines().any(|l| l == "TURN 11,3"), "{sent}");
    assert_eq!(
        sent.lines().filter(|l| l.starts_with("START")).count(),
        1,
        "{sent}"
    );
}

#[test]
fn hint_swap_and_pause() {
    let srv = Server::start();
    new_game(&srv, "human", "human", 1000);
    assert_eq!(srv.post("move", json!({"x": 7, "y": 7})).0, 200);
    assert_eq!(srv.post("hint", json!({})).0, 200);
    let s = srv.wait_for(10, "a hint", |s| !s["hint"].is_null());
    assert_ne!(s["hint"], json!([7, 7]), "the hint is an empty square");
    assert_eq!(moves(&s), 1, "a hint plays nothing");

    new_game(&srv, "human", "engine:0:1", 1000);
    let (status, s) = srv.post("swap", json!({}));
    assert_eq!(
        (status, s["seats"][0]["spec"].as_str()),
        (200, Some("engine:0:1"))
    );
    srv.wait_for(10, "the engine's first move as black", |s| moves(s) == 1);
    let (status, _) = srv.post("hint", json!({}));
    assert_eq!(status, 200, "the person (white) may ask for a hint");

    new_game(&srv, "engine:0:1", "engine:0:1", 1000);
    let (status, s) = srv.post("pause", json!({"paused": true}));
    assert_eq!((status, s["paused"].as_bool()), (200, Some(true)));
    let n = moves(&srv.state());
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(moves(&srv.state()), n, "paused engines do not move");
    assert_eq!(srv.post("pause", json!({"paused": false})).0, 200);
    srv.wait_for(10, "play to resume", |s| moves(s) > n);
}

/// A stand-in for the built-in engine that never defends: it answers along row 0.
const ROW_ZERO_BRAIN: &str = "#!/bin/sh\nn=0\nwhile read l; do case $l in START*) echo OK;; BEGIN|TURN*|DONE) echo $n,0; n=$((n+1));; esac; done\n";

/// Plays black as a person against the built-in engine's `level` and wins on row 7.
fn win_against(srv: &Server, level: u8) {
    new_game(srv, "human", &format!("engine:0:{level}"), 1000);
    for x in 3..8 {
        let (status, s) = srv.post("move", json!({"x": x, "y": 7}));
        assert_eq!(status, 200, "{s}");
        if x < 7 {
            srv.wait_for(10, "the engine's reply", |s| {
                moves(s) == 2 * (x - 2) as usize
            });
        }
    }
}

#[test]
fn the_record_per_level_survives_a_restart_and_adapt_moves_the_level() {
    let dir = temp_dir("record");
    // --fivefold takes an executable file: the script, through a wrapper that is one.
    let brain = dir.join("row-zero.sh");
    std::fs::write(&brain, ROW_ZERO_BRAIN).expect("write the brain");
    let wrapper = dir.join("engine");
    let exec = format!("#!/bin/sh\nexec sh '{}'\n", brain.display());
    std::fs::write(&wrapper, exec).expect("write the wrapper");
    make_executable(&wrapper);
    let data = dir.join("data");
    let (wrapper_s, data_s) = (
        wrapper.to_str().expect("utf-8"),
        data.to_str().expect("utf-8"),
    );
    let args = ["--fivefold", wrapper_s, "--data-dir", data_s];
    {
        let srv = Server::spawn(&args, None);
        win_against(&srv, 3);
        let s = srv.wait_for(5, "the win", |s| !s["result"].is_null());
        assert_eq!(s["result"]["winner"], "black", "{s}");
        assert_eq!(s["results"]["levels"]["3"]["won"], 1, "{s}");
    }
    assert!(data.join("board-results.json").is_file());
    let srv = Server::spawn(&args, None);
    let s = srv.state();
    assert_eq!(
        s["results"]["levels"]["3"],
        json!({"won": 1, "lost": 0, "drawn": 0})
    );
    assert_eq!(s["results"]["last"], json!({"level": 3, "result": "won"}));
    // Adapt: after the win the engine's seat goes from level 3 to 4.
    let (status, s) = srv.post(
        "new",
        json!({"size": 15, "black": "human", "white": "engine:0:3", "adapt": true}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["seats"][1]["spec"], "engine:0:4", "{s}");
    // Without --data-dir the file goes under XDG_DATA_HOME/fivefold.
    let xdg = dir.join("xdg");
    let srv = Server::spawn(&args[..2], Some(&xdg));
    win_against(&srv, 1);
    srv.wait_for(5, "the win", |s| s["results"]["levels"]["1"]["won"] == 1);
    assert!(xdg.join("fivefold/board-results.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn levels_carry_their_name_and_elo() {
    let srv = Server::start();
    let s = srv.state();
    let levels = s["engines"][0]["levels"]
        .as_array()
        .expect("levels")
        .clone();
    assert_eq!(levels.len(), fivefold::levels::LEVELS.len());
    for (l, want) in levels.iter().zip(fivefold::levels::LEVELS.iter()) {
        assert_eq!(l["name"], want.name);
        assert_eq!(l["elo"], want.elo);
        assert_eq!(l["elo_error"], want.elo_error);
    }
}

fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut p = std::fs::metadata(path).expect("metadata").permissions();
    p.set_mode(0o755);
    std::fs::set_permissions(path, p).expect("chmod");
}
