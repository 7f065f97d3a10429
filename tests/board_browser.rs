//! End-to-end: the board in a real headless Chromium driven over WebDriver
//! (`chromedriver`). Plays a short game against Fivefold by clicking, undoes, saves the
//! game as `.psq`, starts a new game, loads the `.psq` back, and takes a screenshot.
//!
//! It then plays one more move, checks the analysis panel shows the engine's depth, and
//! turns move numbers on before the screenshot.
//!
//! Ignored by default because it needs `chromium` and `chromedriver` (Debian packages
//! `chromium` and `chromium-driver`); `.ci/run` installs them and runs
//! `cargo test --release --test board_browser -- --ignored`. `BOARD_SCREENSHOT=path`
//! says where the PNG goes (default: the target folder).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 exchange; returns status and body. The body is read by its
/// Content-Length (chromedriver keeps connections open), else up to the close.
fn http(host: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let s = TcpStream::connect(host).unwrap_or_else(|e| panic!("connect {host}: {e}"));
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    (&s).write_all(head.as_bytes()).unwrap();
    (&s).write_all(body.as_bytes()).unwrap();
    let mut reader = BufReader::new(&s);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).unwrap();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut out = Vec::new();
    match length {
        Some(n) => {
            out.resize(n, 0);
            reader.read_exact(&mut out).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut out);
        }
    }
    (status, String::from_utf8_lossy(&out).to_string())
}

struct Driver {
    host: String,
    session: String,
    _process: Killed,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let child = Command::new(&bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin} (install chromium-driver): {e}"));
        let process = Killed(child);
        let host = format!("127.0.0.1:{port}");
        wait_until(20, "chromedriver", || TcpStream::connect(&host).is_ok());
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium(), "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900"]}}}});
        let (status, body) = http(&host, "POST", "/session", Some(&caps));
        assert_eq!(status, 200, "new session: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let session = v["value"]["sessionId"]
            .as_str()
            .expect("session id")
            .to_string();
        Driver {
            host,
            session,
            _process: process,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("/session/{}{path}", self.session);
        let (status, text) = http(&self.host, method, &url, body.as_ref());
        if status != 200 {
            return Err(text.chars().take(300).collect());
        }
        Ok(serde_json::from_str::<Value>(&text).expect("JSON")["value"].clone())
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Clicks `css`, finding it again if the page redrew it in between.
    fn click(&self, css: &str) {
        for _ in 0..10 {
            let id = self.find(css);
            match self.try_call("POST", &format!("/element/{id}/click"), Some(json!({}))) {
                Ok(_) => return,
                Err(e) if e.contains("stale element") => {
                    std::thread::sleep(Duration::from_millis(100))
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("{css} kept going stale");
    }

    fn script(&self, code: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": code, "args": []})),
        )
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(
            &self.host,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| {
        [
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome",
        ]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("chromium")
        .to_string()
    })
}

fn wait_until(secs: u64, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn start_board() -> (Killed, String) {
    // Results go to a folder of the test's own, not the user's data directory.
    let data = std::env::temp_dir().join(format!("fivefold-browser-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_fivefold-board"))
        .args([
            "--port",
            "0",
            "--fivefold",
            env!("CARGO_BIN_EXE_pbrain-fivefold"),
        ])
        .arg("--data-dir")
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fivefold-board starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let host = line
        .trim()
        .trim_start_matches("Fivefold Board: http://")
        .trim_end_matches('/');
    (Killed(child), host.to_string())
}

fn state(board: &str) -> Value {
    serde_json::from_str(&http(board, "GET", "/api/state", None).1).expect("state")
}

fn moves(s: &Value) -> Vec<Value> {
    s["moves"].as_array().cloned().unwrap_or_default()
}

/// Waits for `n` stones and no engine thinking.
fn settled(board: &str, n: usize) -> Value {
    let mut last = Value::Null;
    wait_until(20, &format!("{n} stones"), || {
        last = state(board);
        moves(&last).len() == n && last["thinking"].is_null()
    });
    last
}

/// An empty square near the centre.
fn free_square(s: &Value) -> (u64, u64) {
    let taken = moves(s);
    for (dx, dy) in [
        (0, 0),
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        (2, 2),
        (-2, 2),
        (2, -2),
        (-2, -2),
        (3, 0),
    ] {
        let (x, y) = ((7 + dx) as u64, (7 + dy) as u64);
        if !taken.contains(&json!([x, y])) {
            return (x, y);
        }
    }
    unreachable!("the centre is full")
}

#[test]
#[ignore = "needs chromium and chromedriver; .ci/run installs them and runs it"]
fn plays_undoes_saves_and_reloads_in_chromium() {
    let (_board, board) = start_board();
    let driver = Driver::start();
    driver.call(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{board}/")})),
    );
    wait_until(20, "the page's first state", || {
        driver
            .script("return document.getElementById('status').textContent")
            .as_str()
            != Some("")
    });
    driver.click("#new");
    let mut s = settled(&board, 0);
    for turn in 0..3 {
        let (x, y) = free_square(&s);
        driver.click(&format!("rect.pt[data-x=\"{x}\"][data-y=\"{y}\"]"));
        s = settled(&board, 2 * turn + 2);
        assert_eq!(moves(&s)[2 * turn], json!([x, y]), "the click played there");
    }
    driver.click("#undo");
    let before = settled(&board, 4);
    driver.click("#save");
    wait_until(10, "the saved .psq", || {
        driver
            .script("return document.getElementById('psq-text').value")
            .as_str()
            .is_some_and(|t| t.starts_with("Piskvorky 15x15"))
    });
    driver.click("#new");
    settled(&board, 0);
    driver.click("#load-psq");
    let after = settled(&board, 4);
    assert_eq!(
        moves(&after),
        moves(&before),
        "the .psq brought the game back"
    );
    let (x, y) = free_square(&after);
    driver.click(&format!("rect.pt[data-x=\"{x}\"][data-y=\"{y}\"]"));
    settled(&board, 6);
    wait_until(10, "the analysis panel", || {
        driver
            .script("return document.getElementById('an-depth').textContent")
            .as_str()
            != Some("-")
    });
    driver.click("#numbers");
    driver.script("window.scrollTo(0, 0); return 0");
    let shown = driver.script(
        "return document.querySelectorAll('circle.stone-black, circle.stone-white').length",
    );
    assert!(
        shown.as_u64().is_some_and(|n| n >= 6),
        "stones drawn: {shown}"
    );
    screenshot(&driver);
}

fn screenshot(driver: &Driver) {
    let b64 = driver.call("GET", "/screenshot", None);
    let png = base64(b64.as_str().expect("base64 text"));
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "a PNG of {} bytes",
        png.len()
    );
    let path = std::env::var("BOARD_SCREENSHOT").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/board-screenshot.png").to_string()
    });
    std::fs::write(&path, png).expect("screenshot written");
    eprintln!("screenshot: {path}");
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}
