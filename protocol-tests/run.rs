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
    let brain = env!("CARGO_BIN_EXE_pbrain-fivefold");
    let cases = load_cases(&default_cases_dir()).expect("protocol cases load");
    let opts = RunOptions {
        strict: true,
        skip_tags: Vec::new(),
        jobs: 2,
    };
    let started = Instant::now();
    let quoted = format!("'{brain}'");
    let reports = run_suite(&quoted, &cases, &opts, |r| eprintln!("{}", r.line()));
    let summary = Summary::of(&reports);
    eprintln!(
        "{} in {:.1} s",
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
        "{} of {} protocol cases failed:\n{}",
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
    use fivefold::conformance::memory::{gomocup_scenarios, run_scenario};
    let brain = format!("'{}'", env!("CARGO_BIN_EXE_pbrain-fivefold"));
    let mut failures = Vec::new();
    for sc in gomocup_scenarios(200) {
        let report = run_scenario(&brain, &sc, std::time::Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("{}: {e:#}", sc.name));
        let line = report.line(&sc);
        eprintln!("{line}");
        assert!(report.samples >= 100, "{line}: too few samples to judge");
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
