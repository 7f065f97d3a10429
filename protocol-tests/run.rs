//! Runs the whole protocol conformance suite against our own engine, `pbrain-fivefold`.
//!
//! Strict: Fivefold implements the optional commands too (RESTART, TAKEBACK, PLAY,
//! RECTSTART, SWAP2BOARD, YXSTOP/STOP), so their cases count here. On failure the
//! message lists every failing case with its transcript.

use fivefold::conformance::{
    default_cases_dir, load_cases, run_suite, RunOptions, Summary, Verdict,
};
use std::time::Instant;

#[test]
fn pbrain_fivefold_passes_the_protocol_suite() {
    passes_the_suite(&format!("'{}'", env!("CARGO_BIN_EXE_pbrain-fivefold")));
}

/// The same with the network on every board (`--nn`; by default it plays
/// on 10x10 to 22x22 only): its replies and deadlines are held to the same cases.
#[test]
fn pbrain_fivefold_with_its_network_passes_the_protocol_suite() {
    passes_the_suite(&format!("'{}' --nn", env!("CARGO_BIN_EXE_pbrain-fivefold")));
}

/// The same with the classical evaluation alone (`--classical`, as `INFO nn 0`).
#[test]
fn pbrain_fivefold_classical_passes_the_protocol_suite() {
    passes_the_suite(&format!(
        "'{}' --classical",
        env!("CARGO_BIN_EXE_pbrain-fivefold")
    ));
}

fn passes_the_suite(brain: &str) {
    let cases = load_cases(&default_cases_dir()).expect("protocol cases load");
    let opts = RunOptions {
        strict: true,
        skip_tags: Vec::new(),
        jobs: 2,
    };
    let started = Instant::now();
    let reports = run_suite(brain, &cases, &opts, |r| eprintln!("{}", r.line()));
    let summary = Summary::of(&reports);
    eprintln!(
        "{brain}: {} in {:.1} s",
        summary.line(),
        started.elapsed().as_secs_f64()
    );

    let failures: Vec<String> = reports
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Fail(_) | Verdict::OptionalFail(_)))
        .map(|r| format!("{}\n    {}", r.line(), r.transcript.join("\n    ")))
        .collect();
    assert!(
        failures.is_empty(),
        "{brain}: {} of {} protocol cases failed:\n{}",
        failures.len(),
        reports.len(),
        failures.join("\n")
    );
}

/// The brain's resident and private memory, sampled every 2 ms from spawn through five
/// searching moves, stays under `max_memory` (20, 64, 350 MiB; START before or after the
/// INFO block) and under Yixin-Board's `hash_size` with a `max_memory`.
#[test]
#[cfg(target_os = "linux")]
fn pbrain_fivefold_stays_under_max_memory() {
    stays_under_max_memory(&format!("'{}'", env!("CARGO_BIN_EXE_pbrain-fivefold")));
}

/// The same with the network on (its weights and per-square state count too).
#[test]
#[cfg(target_os = "linux")]
fn pbrain_fivefold_with_its_network_stays_under_max_memory() {
    stays_under_max_memory(&format!("'{}' --nn", env!("CARGO_BIN_EXE_pbrain-fivefold")));
}

#[cfg(target_os = "linux")]
fn stays_under_max_memory(brain: &str) {
    use fivefold::conformance::memory::{gomocup_scenarios, run_scenario};
    let mut failures = Vec::new();
    for sc in gomocup_scenarios(200) {
        let report = run_scenario(brain, &sc, std::time::Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("{}: {e:#}", sc.name));
        let line = format!("{brain}: {}", report.line(&sc));
        eprintln!("{line}");
        // A sample reads /proc/PID/smaps_rollup, which takes about 10 ms for a brain holding
        // 136 MiB on a slow virtual machine (80 samples in the 350 MiB game there): 30
        // samples over a game of five searching moves still see every phase.
        assert!(report.samples >= 30, "{line}: too few samples to judge");
        if let Some((usage, after)) = report.first_over {
            failures.push(format!("{line}; first over: {usage:?} after `{after}`"));
        }
    }
    assert!(
        failures.is_empty(),
        "over max_memory:\n{}",
        failures.join("\n")
    );
}

/// `--nn-file PATH` plays with the network of PATH; a damaged or missing file ends the
/// process at once with a reason on stderr and nothing on stdout.
#[test]
fn a_network_file_on_the_command_line_is_used_or_refused_with_a_reason() {
    let good =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/nn/weights/freestyle.q");
    let bytes = std::fs::read(&good).expect("built-in network file");
    let bad = std::env::temp_dir().join(format!("fivefold-bad-net-{}.q", std::process::id()));
    std::fs::write(&bad, &bytes[..bytes.len() / 3]).expect("write");

    let play = |path: &std::path::Path| {
        let path = path.to_str().expect("a UTF-8 temporary path");
        first_move_with_args(&["--nn-file", path], 1500)
    };
    let out = play(&good);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.first(), Some(&"OK"), "{stdout}");
    let mv = lines
        .get(1)
        .and_then(|l| l.split_once(','))
        .expect("a move");
    let (x, y): (u32, u32) = (mv.0.parse().expect("x"), mv.1.parse().expect("y"));
    assert!(x < 15 && y < 15, "{stdout}");

    for path in [bad.clone(), bad.with_extension("missing")] {
        let out = play(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(stderr.contains("network"), "{stderr}");
    }
    let _ = std::fs::remove_file(&bad);
}

/// `--param NAME=VALUE` (tuning runs, `fivefold-spsa`) plays with the parameter set, with
/// the network flags or `--classical`; an unknown name, a value out of bounds or two
/// network flags end the process at once with a reason on stderr and nothing on stdout.
#[test]
fn a_search_parameter_on_the_command_line_is_used_or_refused_with_a_reason() {
    let play = |args: &[&str]| first_move_with_args(args, 1000);
    for good in [
        &["--param", "lmr_scale=120"][..],
        &[
            "--nn",
            "--param",
            "futility_margin=150",
            "--param",
            "nn_value_weight=700",
        ],
        &["--param", "lmr_scale=120", "--classical"],
    ] {
        let out = play(good);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{good:?}: {stdout}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.first(), Some(&"OK"), "{good:?}: {stdout}");
        assert!(lines.get(1).is_some_and(|l| l.contains(',')), "{stdout}");
    }
    for (bad, reason) in [
        (&["--param", "no_such=1"][..], "unknown parameter"),
        (&["--param", "lmr_scale=9999"], "outside"),
        (&["--param"], "NAME=VALUE"),
        (&["--nn", "--param", "lmr_scale=x"], "not an integer"),
        (&["--nn", "--classical"], "at most one of"),
        (&["--classical", "--nn-file", "x.q"], "at most one of"),
    ] {
        let out = play(bad);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{bad:?}");
        assert!(stderr.contains(reason), "{bad:?}: {stderr}");
    }
}

/// Starts `pbrain-fivefold` with `args`, asks for a first move at 3,000 nodes, ends it
/// after `wait_ms` and returns what it wrote. A brain that refuses its arguments may end
/// before it reads: the writes may fail.
fn first_move_with_args(args: &[&str], wait_ms: u64) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-fivefold"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("brain starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(b"START 15\nINFO max_node 3000\nBEGIN\n");
    std::thread::sleep(std::time::Duration::from_millis(wait_ms));
    let _ = stdin.write_all(b"END\n");
    drop(stdin);
    child.wait_with_output().expect("brain ends")
}
