//! Opening suites: one opening per line, `x,y` moves separated by spaces, black first,
//! `#` starts a comment line (format of `/work/shared/openings/README.md`).

use anyhow::{bail, Context, Result};
use std::path::Path;

/// Stones in playing order, black first, as absolute 0-based `(x, y)`.
pub type Opening = Vec<(usize, usize)>;

/// Reads an openings file and checks every opening fits a `size`x`size` board.
pub fn load(path: &Path, size: usize) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let openings = parse(&text, size).with_context(|| format!("in {}", path.display()))?;
    if openings.is_empty() {
        bail!("no openings in {}", path.display());
    }
    Ok(openings)
}

/// Parses the text of an openings file. Errors name the offending line.
pub fn parse(text: &str, size: usize) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line(line, size).with_context(|| format!("line {}", n + 1))?;
        openings.push(opening);
    }
    Ok(openings)
}

fn parse_line(line: &str, size: usize) -> Result<Opening> {
    let mut stones: Opening = Vec::new();
    for token in line.split_whitespace() {
        let (x, y) = parse_xy(token).with_context(|| format!("bad move `{token}`"))?;
        if x >= size || y >= size {
            bail!("move {x},{y} is off a {size}x{size} board");
        }
        if stones.contains(&(x, y)) {
            bail!("square {x},{y} is played twice");
        }
        stones.push((x, y));
    }
    Ok(stones)
}

/// Parses `x,y` with non-negative integers and nothing else.
pub fn parse_xy(token: &str) -> Option<(usize, usize)> {
    let (x, y) = token.split_once(',')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_comments_blank_lines_and_moves() {
        let text = "# header\n\n5,5 7,7 9,6\r\n  # indented comment\n0,0 14,14\n";
        let ops = parse(text, 15).unwrap();
        assert_eq!(
            ops,
            vec![vec![(5, 5), (7, 7), (9, 6)], vec![(0, 0), (14, 14)]]
        );
    }

    #[test]
    fn rejects_off_board_duplicate_and_malformed_moves() {
        let err = parse("1,1 15,3\n", 15).unwrap_err();
        assert!(format!("{err:#}").contains("line 1"), "{err:#}");
        assert!(parse("1,1 1,1\n", 15).is_err());
        assert!(parse("1,1 2;2\n", 15).is_err());
        assert!(parse("1,-1\n", 15).is_err());
        assert!(parse("a,1\n", 15).is_err());
        assert!(parse("1,2,3\n", 15).is_err());
    }

    #[test]
    fn parse_xy_is_strict() {
        assert_eq!(parse_xy("7,8"), Some((7, 8)));
        assert_eq!(parse_xy("7, 8"), None);
        assert_eq!(parse_xy("7,8 "), None);
        assert_eq!(parse_xy("+7,8"), None);
        assert_eq!(parse_xy("7"), None);
    }

    #[test]
    fn shared_suite_parses_if_present() {
        let path = Path::new("/work/shared/openings/freestyle15.txt");
        if path.exists() {
            let ops = load(path, 15).unwrap();
            assert_eq!(ops.len(), 60);
            assert!(ops.iter().all(|o| (3..=6).contains(&o.len())));
        }
    }
}
