//! The small matching languages of the case files: byte escapes for `send_raw`,
//! a `*`/`?` glob with `|` alternatives, strict move syntax and the ABOUT line format.

use crate::driver::parse_int;

/// Decodes `\r \n \t \0 \\ \xNN` in a `send_raw` argument. Anything else after a
/// backslash is an error, so a typo cannot silently send the wrong bytes.
pub fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'r') => out.push(b'\r'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(b'0') => out.push(0),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                let digits = std::str::from_utf8(&hex).unwrap_or("");
                match (hex.len(), u8::from_str_radix(digits, 16)) {
                    (2, Ok(v)) => out.push(v),
                    _ => return Err(format!("bad \\x escape in `{text}`")),
                }
            }
            Some(other) => return Err(format!("unknown escape \\{} in `{text}`", other as char)),
            None => return Err(format!("trailing backslash in `{text}`")),
        }
    }
    Ok(out)
}

/// A glob: `*` matches any run of characters, `?` exactly one; `a|b` matches either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    alternatives: Vec<Vec<char>>,
}

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        Glob {
            alternatives: pattern.split('|').map(|a| a.chars().collect()).collect(),
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        self.alternatives.iter().any(|p| glob_match(p, &text))
    }
}

/// Iterative glob match with single-star backtracking: linear in practice, so a
/// 100 KB reply line cannot make the checker slow.
fn glob_match(pattern: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// A square as the protocol writes it.
pub type Square = (i64, i64);

pub use crate::driver::parse_move;

/// Parses a square written by a manager, which may contain spaces (`7, 7`), and
/// optionally a third field (`x,y,field` in BOARD).
pub fn parse_fields(line: &str) -> Option<Vec<i64>> {
    let fields: Option<Vec<i64>> = line.split(',').map(|f| parse_int(f.trim())).collect();
    fields.filter(|f| f.len() >= 2)
}

/// Checks an ABOUT reply: comma-separated `key="value"` pairs and nothing else.
/// Returns the keys in order, or why the line is malformed.
pub fn parse_about(line: &str) -> Result<Vec<String>, String> {
    let mut keys = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let (key, after_key) = rest
            .split_once('=')
            .ok_or_else(|| format!("no `key=\"value\"` at `{rest}`"))?;
        let key = key.trim();
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("bad key `{key}`"));
        }
        let value_and_rest = after_key
            .trim_start()
            .strip_prefix('"')
            .ok_or_else(|| format!("value of `{key}` is not quoted"))?;
        let (_, after_value) = value_and_rest
            .split_once('"')
            .ok_or_else(|| format!("value of `{key}` has no closing quote"))?;
        keys.push(key.to_string());
        let after_value = after_value.trim_start();
        rest = match after_value.strip_prefix(',') {
            Some(more) => more.trim_start(),
            None if after_value.is_empty() => after_value,
            None => return Err(format!("expected `,` after `{key}`, found `{after_value}`")),
        };
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_handles_every_escape() {
        assert_eq!(
            unescape(r"A\r\n\t\0\\\x41\xff").unwrap(),
            b"A\r\n\t\0\\A\xff"
        );
        assert_eq!(unescape("plain").unwrap(), b"plain");
        assert!(unescape(r"\q").is_err());
        assert!(unescape(r"\x4").is_err());
        assert!(unescape(r"\xzz").is_err());
        assert!(unescape("end\\").is_err());
    }

    #[test]
    fn glob_matches_stars_questions_and_alternatives() {
        assert!(Glob::new("OK").matches("OK"));
        assert!(!Glob::new("OK").matches("OK "));
        assert!(!Glob::new("OK").matches("ok"));
        assert!(Glob::new("ERROR*").matches("ERROR"));
        assert!(Glob::new("ERROR*").matches("ERROR bad size"));
        assert!(!Glob::new("ERROR*").matches("UNKNOWN"));
        assert!(Glob::new("OK|ERROR*").matches("ERROR x"));
        assert!(Glob::new("OK|ERROR*").matches("OK"));
        assert!(!Glob::new("OK|ERROR*").matches("OKAY"));
        assert!(Glob::new("*a*b*").matches("xxaxxbxx"));
        assert!(!Glob::new("*a*b*").matches("xxbxxaxx"));
        assert!(Glob::new("?,?").matches("7,7"));
        assert!(!Glob::new("?,?").matches("10,7"));
        assert!(Glob::new("*").matches(""));
    }

    #[test]
    fn glob_is_fast_on_long_lines() {
        let long = "a".repeat(100_000);
        assert!(!Glob::new("*a*a*a*b").matches(&long));
    }

    #[test]
    fn parse_move_is_strict() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move("10,0"), Some((10, 0)));
        assert_eq!(parse_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_move("7, 8"), None);
        assert_eq!(parse_move("7,8,1"), None);
        assert_eq!(parse_move("7"), None);
        assert_eq!(parse_move("a,b"), None);
        assert_eq!(parse_move(",7"), None);
        assert_eq!(parse_move("+7,7"), None);
    }

    #[test]
    fn parse_fields_accepts_manager_spacing() {
        assert_eq!(parse_fields("7, 8"), Some(vec![7, 8]));
        assert_eq!(parse_fields("7,8,2"), Some(vec![7, 8, 2]));
        assert_eq!(parse_fields("7"), None);
        assert_eq!(parse_fields("x,8"), None);
    }

    #[test]
    fn parse_about_accepts_the_documented_format() {
        let keys =
            parse_about(r#"name="Fivefold", version="0.1", author="A, B", country="CZ""#).unwrap();
        assert_eq!(keys, ["name", "version", "author", "country"]);
        assert_eq!(parse_about(r#"name="x""#).unwrap(), ["name"]);
    }

    #[test]
    fn parse_about_rejects_other_formats() {
        assert!(parse_about("Fivefold 0.1").is_err());
        assert!(parse_about("name=Fivefold").is_err());
        assert!(parse_about(r#"name="x" version="y""#).is_err());
        assert!(parse_about(r#"name="x"#).is_err());
        assert!(parse_about(r#"DEBUG name="x""#).is_err());
    }
}
