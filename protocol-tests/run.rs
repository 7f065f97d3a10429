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
