//! fivefold-protocol-check: runs the protocol conformance cases against any brain.
//!
//! Usage: `fivefold-protocol-check [OPTIONS] [--] BRAIN_CMD [ARGS...]`
//! Prints `PASS name` / `FAIL name: reason` per case and a final `N passed, M failed`;
//! exits 1 when a case failed, 2 on usage or case-file errors.

use fivefold::conformance::{
    default_cases_dir, filter_cases, load_cases, memory, run_suite, CaseReport, RunOptions,
    Summary, Verdict,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: fivefold-protocol-check [OPTIONS] [--] BRAIN_CMD [ARGS...]

Runs the Gomocup protocol conformance cases against a brain, one fresh process per case.
A single BRAIN_CMD word is split like a shell command line (\"wine pbrain-x.exe\").

options:
  -v, --verbose      print the transcript of every failed case
  -j, --jobs N       cases run in parallel (default 2)
  --filter SUBSTR    only cases whose name contains SUBSTR
  --skip TAG[,TAG]   skip cases marked `# skip_if: TAG` (e.g. standard,renju,caro)
  --strict           count failures of optional cases as failures
  --cases DIR        case directory (default: the repository's protocol-tests/cases)
  --list             list the selected cases and exit
  --memory           instead of the cases, play short games sampling the brain's memory
                     (Linux) under max_memory 20/64/350 MiB in both command orders and
                     Yixin-Board's hash_size; fails on any sample over the limit
  -h, --help         this text
";

struct Args {
    verbose: bool,
    list: bool,
    memory: bool,
    filter: Option<String>,
    cases_dir: PathBuf,
    opts: RunOptions,
    brain: Vec<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        verbose: false,
        list: false,
        memory: false,
        filter: None,
        cases_dir: default_cases_dir(),
        opts: RunOptions {
            jobs: 2,
            ..RunOptions::default()
        },
        brain: Vec::new(),
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-v" | "--verbose" => parsed.verbose = true,
            "--strict" => parsed.opts.strict = true,
            "--list" => parsed.list = true,
            "--memory" => parsed.memory = true,
            "-j" | "--jobs" => {
                let n = value(&arg)?;
                parsed.opts.jobs = n.parse().map_err(|_| format!("bad job count `{n}`"))?;
            }
            "--filter" => parsed.filter = Some(value(&arg)?),
            "--cases" => parsed.cases_dir = PathBuf::from(value(&arg)?),
            "--skip" => {
                let tags = value(&arg)?;
                let tags = tags.split(',').filter(|t| !t.is_empty()).map(String::from);
                parsed.opts.skip_tags.extend(tags);
            }
            "-h" | "--help" => return Err(String::new()),
            "--" => {
                parsed.brain.extend(args.by_ref());
                break;
            }
            other if other.starts_with('-') && parsed.brain.is_empty() => {
                return Err(format!("unknown option `{other}`"));
            }
            _ => {
                parsed.brain.push(arg);
                parsed.brain.extend(args.by_ref());
                break;
            }
        }
    }
    Ok(parsed)
}

/// The brain as one command line for the driver. A single word is taken as a whole
/// command line ("wine pbrain-x.exe"); several words are argv, quoted where needed.
fn command_line(words: &[String]) -> String {
    if let [single] = words {
        return single.clone();
    }
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            if w.is_empty() || w.contains(char::is_whitespace) {
                if w.contains('\'') {
                    format!("\"{w}\"")
                } else {
                    format!("'{w}'")
                }
            } else {
                w.clone()
            }
        })
        .collect();
    quoted.join(" ")
}

/// Prints a line; a closed stdout (`| head`) is not worth a panic.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn print_report(report: &CaseReport, verbose: bool) {
    say(&report.line());
    let failed = matches!(report.verdict, Verdict::Fail(_) | Verdict::OptionalFail(_));
    if verbose && failed {
        for line in &report.transcript {
            say(&format!("    {line}"));
        }
    }
}

/// `--memory`: each scenario in turn (one brain at a time, so they do not share the CPU).
fn memory_check(brain: &str) -> ExitCode {
    let scenarios = memory::gomocup_scenarios(200);
    let (mut passed, mut failed) = (0, 0);
    for sc in &scenarios {
        match memory::run_scenario(brain, sc, std::time::Duration::from_secs(10)) {
            Ok(report) if report.first_over.is_none() => {
                passed += 1;
                say(&report.line(sc));
            }
            Ok(report) => {
                failed += 1;
                say(&report.line(sc));
                if let Some((u, after)) = report.first_over {
                    say(&format!(
                        "    first over the limit after `{after}`: RSS {:.1} MiB, USS {:.1} MiB",
                        u.rss as f64 / (1 << 20) as f64,
                        u.uss as f64 / (1 << 20) as f64
                    ));
                }
            }
            Err(e) => {
                failed += 1;
                say(&format!("FAIL {}: {e:#}", sc.name));
            }
        }
    }
    say(&format!("{passed} passed, {failed} failed"));
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("fivefold-protocol-check: {e}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut cases = match load_cases(&args.cases_dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fivefold-protocol-check: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(f) = &args.filter {
        cases = filter_cases(cases, f);
    }
    if args.list {
        for c in &cases {
            let kind = if c.optional.is_some() {
                " (optional)"
            } else {
                ""
            };
            say(&format!("{}{kind}  [{}]", c.name, c.origin));
        }
        return ExitCode::SUCCESS;
    }
    if args.brain.is_empty() {
        eprintln!("fivefold-protocol-check: no brain command given");
        eprint!("{USAGE}");
        return ExitCode::from(2);
    }
    let brain = command_line(&args.brain);
    if args.memory {
        return memory_check(&brain);
    }
    let reports = run_suite(&brain, &cases, &args.opts, |r| {
        print_report(r, args.verbose)
    });
    let summary = Summary::of(&reports);
    say(&summary.line());
    if summary.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
