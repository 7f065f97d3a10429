//! Protocol conformance suite: send/expect cases kept as data in `protocol-tests/cases/`,
//! run against any brain command.
//!
//! `case` parses the case files, `pattern` holds the small matching languages (escapes,
//! glob, move syntax, ABOUT format), `tracker` follows the board so move replies can be
//! checked for legality, and `runner` drives one fresh brain process per case. `memory`
//! plays whole games while sampling the brain's memory against `max_memory`.

pub mod case;
pub mod memory;
pub mod pattern;
pub mod runner;
pub mod tracker;

pub use case::{parse_cases, Case, Step, StepKind};
pub use runner::{run_case, run_suite, CaseReport, RunOptions, Summary, Verdict};

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where the cases live in this repository.
pub fn default_cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/cases")
}

/// Loads every `*.case` file in `dir`, in file-name order. Case names must be unique,
/// because `--filter` and the reports refer to cases by name.
pub fn load_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        cases.extend(parse_cases(&text, &file.display().to_string())?);
    }
    if cases.is_empty() {
        return Err(format!("no cases in {}", dir.display()));
    }
    check_unique_names(&cases)?;
    Ok(cases)
}

fn check_unique_names(cases: &[Case]) -> Result<(), String> {
    let mut seen = HashSet::new();
    match cases.iter().find(|c| !seen.insert(c.name.as_str())) {
        Some(dup) => Err(format!(
            "{}: duplicate case name `{}`",
            dup.origin, dup.name
        )),
        None => Ok(()),
    }
}

/// Keeps the cases whose name contains `substring`.
pub fn filter_cases(cases: Vec<Case>, substring: &str) -> Vec<Case> {
    cases
        .into_iter()
        .filter(|c| c.name.contains(substring))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_cases_all_parse() {
        let cases = load_cases(&default_cases_dir()).expect("cases load");
        assert!(cases.len() >= 40, "only {} cases", cases.len());
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let cases = parse_cases("# name: a\nsend X\n# name: a\nsend Y\n", "f").unwrap();
        let err = check_unique_names(&cases).unwrap_err();
        assert!(err.contains("duplicate case name `a`"), "{err}");
    }

    #[test]
    fn filter_keeps_matching_names() {
        let cases = parse_cases("# name: start_ok\nsend X\n# name: end\nsend Y\n", "f").unwrap();
        let kept = filter_cases(cases, "start");
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].name, "start_ok");
    }
}
