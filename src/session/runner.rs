//! Threads and pipes: a reader thread turns stdin into commands; the calling thread runs
//! the session (and the search) and prints replies.
//!
//! While a move is owed, the reader answers ABOUT itself and turns YXSTOP/STOP and
//! `INFO timeout_turn 0` into the stop flag, so a thinking engine still reacts at once.
//! Everything else is forwarded in order. At end of input the stop flag is set for good,
//! queued commands are answered at once, and the process exits. END is the same, except
//! that nothing more is printed after it.

use super::{Context, Session};
use crate::protocol::{Command, Info, LineReader, Parser, Reply};
use std::io::{self, BufRead, BufReader, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// After END, queued commands get this long before the process exits regardless
/// (managers kill brains 0.5-1 s after END, and want nothing more from us).
const END_GRACE: Duration = Duration::from_millis(100);
/// After end of input, a little longer: piped use (`printf 'START 15\nBEGIN\n' | brain`)
/// still wants its answers, and the first search allocates the hash table. Searches stop
/// at once either way; this only bounds a search that ignores the stop flag.
const EOF_GRACE: Duration = Duration::from_millis(500);

/// What to do when input ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitMode {
    /// Exit the process (after `EXIT_GRACE` at most): the engine binary.
    Process,
    /// Return from `run` once queued commands are done: tests.
    Return,
}

/// State shared by the reader thread and the session thread.
struct Shared {
    out: Mutex<Box<dyn Write + Send>>,
    stop: AtomicBool,
    /// Input has ended (END or EOF): every search from now on stops at once.
    closing: AtomicBool,
    /// Move commands forwarded and not yet answered. A mutex, not an atomic, so that
    /// "is a search owed? then stop it" cannot interleave with "answered; clear stop".
    moves_owed: Mutex<usize>,
    /// Set at process exit; nothing is printed after it.
    silenced: AtomicBool,
}

impl Shared {
    fn new(out: Box<dyn Write + Send>) -> Shared {
        Shared {
            out: Mutex::new(out),
            stop: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            moves_owed: Mutex::new(0),
            silenced: AtomicBool::new(false),
        }
    }

    fn out(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.out
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn owed(&self) -> MutexGuard<'_, usize> {
        self.moves_owed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Prints one line and flushes it, so the manager sees it at once.
    fn emit(&self, reply: &Reply) {
        let mut out = self.out();
        if self.silenced.load(Ordering::SeqCst) {
            return;
        }
        let line = reply.to_line();
        log::debug!("reply {line}");
        if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
            log::warn!("cannot write to the manager; output lost");
        }
    }

    fn stop_search_if_owed(&self) {
        let owed = self.owed();
        if *owed > 0 {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    fn move_forwarded(&self) {
        *self.owed() += 1;
    }

    /// A move command is answered: a stop request for it must not leak into the next.
    fn move_answered(&self) {
        let mut owed = self.owed();
        *owed = owed.saturating_sub(1);
        self.stop
            .store(self.closing.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Nothing is printed from now on. Taking the output lock first lets a line being
    /// written finish whole.
    fn silence(&self) {
        let mut out = self.out();
        self.silenced.store(true, Ordering::SeqCst);
        let _ = out.flush();
    }

    fn exit_process(&self) -> ! {
        self.silence();
        std::process::exit(0)
    }
}

/// A command with the instant its last line arrived (the move clock starts there).
type Event = (Command, Instant);

/// The engine on stdin/stdout.
pub fn run_stdio() {
    run(BufReader::new(io::stdin()), io::stdout(), ExitMode::Process);
}

/// The protocol loop on any input and output.
pub fn run<R, W>(input: R, output: W, mode: ExitMode)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let shared = Arc::new(Shared::new(Box::new(output)));
    let (tx, rx) = mpsc::channel();
    let reader = {
        let shared = Arc::clone(&shared);
        thread::spawn(move || read_input(input, tx, &shared, mode))
    };
    run_session(rx, &shared);
    let _ = shared.out().flush();
    if mode == ExitMode::Return {
        let _ = reader.join();
    }
}

fn run_session(rx: Receiver<Event>, shared: &Shared) {
    let mut session = Session::new();
    for (cmd, arrival) in rx {
        if cmd == Command::End {
            break;
        }
        let owes_move = cmd.expects_move();
        let ctx = Context {
            arrival,
            stop: &shared.stop,
        };
        session.handle_with(cmd, &ctx, &mut |reply| shared.emit(&reply));
        if owes_move {
            shared.move_answered();
        }
    }
}

fn read_input<R: BufRead>(input: R, tx: Sender<Event>, shared: &Shared, mode: ExitMode) {
    let mut lines = LineReader::new(input);
    let mut parser = Parser::new();
    let mut grace = EOF_GRACE;
    'reading: loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                log::warn!("reading input failed: {e}");
                break;
            }
        };
        let arrival = Instant::now();
        for cmd in parser.feed(&line) {
            let is_end = cmd == Command::End;
            route(cmd, arrival, &tx, shared);
            if is_end {
                grace = END_GRACE;
                break 'reading;
            }
        }
    }
    log::debug!("input closed");
    shared.close();
    drop(tx);
    if mode == ExitMode::Process {
        thread::sleep(grace);
        shared.exit_process();
    }
}

/// Acts on commands that cannot wait for a running search, forwards the rest in order.
fn route(cmd: Command, arrival: Instant, tx: &Sender<Event>, shared: &Shared) {
    match &cmd {
        Command::About if *shared.owed() > 0 => return shared.emit(&Reply::About),
        Command::Stop => return shared.stop_search_if_owed(),
        Command::Info(Info::TimeoutTurn(ms)) if *ms <= 0 => shared.stop_search_if_owed(),
        // The protocol: after END print nothing more, not even the move being thought
        // about. (Piped use that wants every answer closes input instead.)
        Command::End => {
            shared.close();
            shared.silence();
        }
        _ => {}
    }
    if cmd.expects_move() {
        shared.move_forwarded();
    }
    // The receiver only goes away when the session loop has ended; nothing to do then.
    let _ = tx.send((cmd, arrival));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Read};
    use std::sync::mpsc::Receiver;

    /// Input that blocks until the test sends bytes; dropping the sender is end of input.
    struct ChannelInput {
        rx: Receiver<Vec<u8>>,
        pending: Cursor<Vec<u8>>,
    }

    impl Read for ChannelInput {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            loop {
                let n = self.pending.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                match self.rx.recv() {
                    Ok(bytes) => self.pending = Cursor::new(bytes),
                    Err(_) => return Ok(0),
                }
            }
        }
    }

    #[derive(Clone, Default)]
    struct SharedOutput(Arc<Mutex<Vec<u8>>>);

    impl Write for SharedOutput {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl SharedOutput {
        fn lines(&self) -> Vec<String> {
            let bytes = self.0.lock().unwrap().clone();
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }

        /// Waits until some line satisfies `pred`; returns how long that took.
        fn wait_for(&self, pred: impl Fn(&str) -> bool, limit: Duration) -> Option<Duration> {
            let start = Instant::now();
            while start.elapsed() < limit {
                if self.lines().iter().any(|l| pred(l)) {
                    return Some(start.elapsed());
                }
                thread::sleep(Duration::from_millis(5));
            }
            None
        }
    }

    fn is_move(line: &str) -> bool {
        line.split_once(',')
            .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
    }

    /// An engine on a thread, fed through a channel.
    struct Engine {
        tx: Option<Sender<Vec<u8>>>,
        out: SharedOutput,
        thread: thread::JoinHandle<()>,
    }

    impl Engine {
        fn start() -> Engine {
            let (tx, rx) = mpsc::channel();
            let out = SharedOutput::default();
            let input = BufReader::new(ChannelInput {
                rx,
                pending: Cursor::new(Vec::new()),
            });
            let thread = {
                let out = out.clone();
                thread::spawn(move || run(input, out, ExitMode::Return))
            };
            Engine {
                tx: Some(tx),
                out,
                thread,
            }
        }

        fn send(&self, text: &str) {
            if let Some(tx) = &self.tx {
                tx.send(text.as_bytes().to_vec()).unwrap();
            }
        }

        /// Closes input and waits for `run` to return; returns how long that took.
        fn close_and_join(mut self) -> (Duration, Vec<String>) {
            let start = Instant::now();
            self.tx = None;
            self.thread.join().unwrap();
            (start.elapsed(), self.out.lines())
        }

        /// A game with a long move time, thinking on its first move.
        fn thinking() -> Engine {
            let e = Engine::start();
            e.send("START 15\nINFO max_memory 52428800\nINFO timeout_turn 20000\nBEGIN\n");
            assert!(e
                .out
                .wait_for(|l| l == "OK", Duration::from_secs(5))
                .is_some());
            e
        }
    }

    const PROMPT: Duration = Duration::from_millis(1500);

    #[test]
    fn end_of_input_answers_queued_commands_then_returns() {
        let out = SharedOutput::default();
        let input = b"start 15\r\nINFO max_memory 52428800\rBEGIN\nFOO\n".to_vec();
        run(Cursor::new(input), out.clone(), ExitMode::Return);
        let lines = out.lines();
        assert_eq!(lines.first().map(String::as_str), Some("OK"));
        assert!(lines.iter().any(|l| is_move(l)), "{lines:?}");
        assert_eq!(lines.last().map(String::as_str), Some("UNKNOWN FOO"));
    }

    #[test]
    fn garbage_bytes_do_not_stop_the_engine() {
        let out = SharedOutput::default();
        let mut input = b"START 15\n\0\0\n\xff\xfe TURN\n".to_vec();
        input.extend(std::iter::repeat_n(b'a', 100_000));
        input.extend_from_slice(b"\nABOUT\n");
        run(Cursor::new(input), out.clone(), ExitMode::Return);
        let lines = out.lines();
        assert_eq!(lines[0], "OK");
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(lines[1..4].iter().all(|l| l.starts_with("UNKNOWN ")));
        assert!(lines.iter().all(|l| l.len() < 200));
        assert_eq!(lines[4], crate::protocol::about_line());
    }

    #[test]
    fn about_is_answered_while_thinking() {
        let e = Engine::thinking();
        e.send("ABOUT\n");
        let about = e
            .out
            .wait_for(|l| l.starts_with("name=\"Fivefold\""), PROMPT);
        assert!(about.is_some(), "{:?}", e.out.lines());
        e.send("YXSTOP\n");
        assert!(e.out.wait_for(is_move, PROMPT).is_some());
        e.close_and_join();
    }

    #[test]
    fn yxstop_ends_the_search_with_a_move() {
        let e = Engine::thinking();
        thread::sleep(Duration::from_millis(50));
        e.send("YXSTOP\n");
        assert!(
            e.out.wait_for(is_move, PROMPT).is_some(),
            "{:?}",
            e.out.lines()
        );
        // The stop must not leak into the next search: it thinks again (or at least
        // answers) normally.
        e.send("INFO timeout_turn 200\nTURN 0,0\n");
        let two_moves = |_: &str| e.out.lines().iter().filter(|l| is_move(l)).count() == 2;
        assert!(e.out.wait_for(two_moves, Duration::from_secs(3)).is_some());
        e.close_and_join();
    }

    #[test]
    fn timeout_turn_zero_stops_the_search() {
        let e = Engine::thinking();
        e.send("INFO timeout_turn 0\n");
        assert!(
            e.out.wait_for(is_move, PROMPT).is_some(),
            "{:?}",
            e.out.lines()
        );
        e.close_and_join();
    }

    #[test]
    fn end_returns_promptly_even_mid_search_and_prints_nothing_more() {
        let e = Engine::thinking();
        // Let a fast search (the stub) answer first; a real one thinks for seconds.
        thread::sleep(Duration::from_millis(100));
        let before = e.out.lines().len();
        let owed_no_move_yet = !e.out.lines().iter().any(|l| is_move(l));
        e.send("END\n");
        let (took, lines) = e.close_and_join();
        assert!(took < PROMPT, "{took:?}");
        if owed_no_move_yet {
            assert!(lines[before..].iter().all(|l| !is_move(l)), "{lines:?}");
        }
    }

    #[test]
    fn end_of_input_returns_promptly_mid_search() {
        let e = Engine::thinking();
        let (took, lines) = e.close_and_join();
        assert!(took < PROMPT, "{took:?}");
        assert!(lines.iter().any(|l| is_move(l)), "{lines:?}");
    }
}
